//! The cellular GA's GPU engine: the kernels of `device::cga`, five launches per
//! generation with no host round trip; only the best-so-far (one `CgaBest`) is read back.
use super::{Best, CgaConfig, CgaEngine, CgaSnapshot, LsMapping};
use crate::gpu::{Gpu, bytes_of, device_matrices, from_bytes};
use crate::io::Instance;
use crate::site::Site;
use anyhow::{Context, Result};
use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use qapgpu_common::cga::CgaBest;
use qapgpu_common::elem::ElemWidth;
use qapgpu_common::layout::{CgaLayout, Placement};
use qapgpu_common::moves::move_count;
use qapgpu_common::params::CgaParams;

struct Buffers {
    a: CudaSlice<u8>,
    b: CudaSlice<u8>,
    pop: CudaSlice<u8>,
    pop_alt: CudaSlice<u8>,
    costs: CudaSlice<i64>,
    costs_alt: CudaSlice<i64>,
    rng: CudaSlice<u32>,
    best: CudaSlice<u8>,
    delta: CudaSlice<i64>,
    params: CudaSlice<u8>,
}

struct Kernels {
    init: CudaFunction,
    tournament: CudaFunction,
    crossover: CudaFunction,
    best: CudaFunction,
    local_search: CudaFunction,
}

/// The cellular GA's GPU engine: the population and its kernels on one GPU.
pub struct CgaGpu {
    gpu: Gpu,
    cfg: CgaConfig,
    n: usize,
    /// The local search's shared-memory plan.
    pub layout: CgaLayout,
    k: Kernels,
    buf: Buffers,
    params: CgaParams,
    site: Site,
}

impl CgaGpu {
    /// Loads the kernels and allocates the run of `cfg` on `inst`.
    pub fn new(gpu: Gpu, inst: &Instance, cfg: &CgaConfig) -> Result<CgaGpu> {
        let (n, total) = (inst.n, cfg.population());
        let load =
            |name: &str| gpu.module.load_function(name).with_context(|| format!("kernel {name} missing from the PTX"));
        // The kernels' element types: u16 and i32 (`ElemWidth::on_gpu`).
        let (init, crossover, local_search) = match inst.width {
            ElemWidth::U16 => ("cga_init_u16", "cga_crossover_u16", "cga_local_search_u16"),
            _ => ("cga_init_i32", "cga_crossover_i32", "cga_local_search_i32"),
        };
        let k = Kernels {
            init: load(init)?,
            tournament: load("cga_tournament")?,
            crossover: load(crossover)?,
            best: load("cga_best")?,
            local_search: load(local_search)?,
        };
        let layout = CgaLayout::new(n as u32, cfg.mapping == LsMapping::Move, &gpu.limits);
        k.local_search.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            layout.dynamic_shared as i32,
        )?;
        let stride = n.div_ceil(16) * 16;
        let global_delta = if layout.move_mapping && layout.delta_placement == Placement::Global {
            total * move_count(n as u32) as usize
        } else {
            1
        };
        gpu.ensure_free(layout.global_bytes(total as u32), &format!("a grid of {total} individuals on {}", inst.name))
            .map_err(|e| anyhow::anyhow!("{e}; lower --grid"))?;
        let site = Site::gpu(&gpu)?;
        let s = &gpu.stream;
        let (a_bytes, b_bytes) = device_matrices(inst);
        let buf = Buffers {
            a: s.clone_htod(&a_bytes)?,
            b: s.clone_htod(&b_bytes)?,
            pop: s.alloc_zeros(total * stride)?,
            pop_alt: s.alloc_zeros(total * stride)?,
            costs: s.alloc_zeros(total)?,
            costs_alt: s.alloc_zeros(total)?,
            rng: s.alloc_zeros(4 * total)?,
            best: s.clone_htod(bytes_of(&CgaBest::default()))?,
            delta: s.alloc_zeros(global_delta)?,
            params: s.alloc_zeros(size_of::<CgaParams>())?,
        };
        let (pc, pm, pt) = cfg.thresholds();
        let params = CgaParams {
            a: gpu.ptr(&buf.a),
            b: gpu.ptr(&buf.b),
            pop: gpu.ptr(&buf.pop),
            pop_alt: gpu.ptr(&buf.pop_alt),
            costs: gpu.ptr(&buf.costs),
            costs_alt: gpu.ptr(&buf.costs_alt),
            rng: gpu.ptr(&buf.rng),
            best: gpu.ptr(&buf.best),
            delta: gpu.ptr(&buf.delta),
            stop: site.stop.device_ptr(),
            seed: cfg.seed,
            n: n as u32,
            stride: stride as u32,
            w: cfg.w,
            h: cfg.h,
            generation: 0,
            topology: cfg.topology as u32,
            pass: cfg.pass as u32,
            flags: layout.flags(),
            pc_threshold: pc,
            pm_threshold: pm,
            pt_threshold: pt,
            passes: cfg.passes,
            layout: layout.shared(),
        };
        Ok(CgaGpu { gpu, cfg: cfg.clone(), n, layout, k, buf, params, site })
    }

    fn per_individual(&self) -> LaunchConfig {
        let total = self.cfg.population() as u32;
        LaunchConfig { grid_dim: (total.div_ceil(64), 1, 1), block_dim: (64, 1, 1), shared_mem_bytes: 0 }
    }

    /// Launches `which` with the current parameters (copied once per generation).
    fn launch(&self, which: fn(&Kernels) -> &CudaFunction, cfg: LaunchConfig) -> Result<()> {
        let s = &self.gpu.stream;
        // SAFETY: the parameter block matches the kernels' `CgaParams`, and every buffer it
        // points to has the size `CgaParams` documents for this population and layout.
        unsafe { s.launch_builder(which(&self.k)).arg(&self.buf.params).launch(cfg) }?;
        Ok(())
    }

    fn upload_params(&mut self) -> Result<()> {
        self.gpu.stream.memcpy_htod(bytes_of(&self.params), &mut self.buf.params)?;
        Ok(())
    }

    fn one_block(&self) -> LaunchConfig {
        LaunchConfig { grid_dim: (1, 1, 1), block_dim: (32, 1, 1), shared_mem_bytes: 0 }
    }
}

impl CgaEngine for CgaGpu {
    fn site(&self) -> &Site {
        &self.site
    }

    fn threads_per_block(&self) -> u32 {
        self.layout.threads
    }

    fn init(&mut self) -> Result<()> {
        self.params.generation = 0;
        self.gpu.stream.memcpy_htod(bytes_of(&CgaBest::default()), &mut self.buf.best)?;
        self.upload_params()?;
        self.launch(|k| &k.init, self.per_individual())?;
        self.launch(|k| &k.best, self.one_block())?;
        self.gpu.stream.synchronize().context("cellular GA kernel failed")?;
        Ok(())
    }

    fn generation(&mut self, g: u32) -> Result<()> {
        self.params.generation = g;
        self.upload_params()?;
        let each = self.per_individual();
        let ls = LaunchConfig {
            grid_dim: (self.cfg.population() as u32, 1, 1),
            block_dim: (self.layout.threads, 1, 1),
            shared_mem_bytes: self.layout.dynamic_shared,
        };
        self.launch(|k| &k.tournament, each)?;
        self.launch(|k| &k.crossover, each)?;
        self.launch(|k| &k.best, self.one_block())?;
        self.launch(|k| &k.local_search, ls)?;
        self.launch(|k| &k.best, self.one_block())?;
        self.gpu.stream.synchronize().context("cellular GA kernel failed")?;
        Ok(())
    }

    fn best(&mut self) -> Result<Best> {
        let b: CgaBest = from_bytes(&self.gpu.stream.clone_dtoh(&self.buf.best)?);
        Ok(Best { cost: b.cost, perm: b.perm[..self.n].to_vec(), generation: b.generation })
    }

    fn member_costs(&mut self) -> Result<Vec<i64>> {
        Ok(self.gpu.stream.clone_dtoh(&self.buf.costs)?)
    }

    fn put_member(&mut self, k: usize, chromosome: &[u8], cost: i64) -> Result<()> {
        crate::gpu::put_row(
            &self.gpu.stream,
            &mut self.buf.pop,
            &mut self.buf.costs,
            self.params.stride as usize,
            k,
            chromosome,
            cost,
        )
    }

    fn snapshot(&mut self) -> Result<CgaSnapshot> {
        let s = &self.gpu.stream;
        let (n, total, stride) = (self.n, self.cfg.population(), self.params.stride as usize);
        let rng = s.clone_dtoh(&self.buf.rng)?;
        let b: CgaBest = from_bytes(&s.clone_dtoh(&self.buf.best)?);
        Ok(CgaSnapshot {
            rows: s.clone_dtoh(&self.buf.pop)?.chunks(stride).map(|r| r[..n].to_vec()).collect(),
            costs: s.clone_dtoh(&self.buf.costs)?,
            rng: (0..total).map(|i| [rng[i], rng[total + i], rng[2 * total + i], rng[3 * total + i]]).collect(),
            best: Best { cost: b.cost, perm: b.perm[..n].to_vec(), generation: b.generation },
            elite: b.elite,
        })
    }
}
