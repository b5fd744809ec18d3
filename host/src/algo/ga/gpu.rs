//! The GA's GPU engine: the kernels of `device::ga` (generations, initialisation, island
//! migration), one launch per slice of generations.
use super::{CountMethod, GaConfig, GaEngine, Snapshot};
use crate::gpu::{Gpu, bytes_of, device_matrices, from_bytes};
use crate::io::Instance;
use crate::site::Site;
use anyhow::{Context, Result, anyhow};
use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use qapgpu_common::elem::ElemWidth;
use qapgpu_common::ga::{Crossover, probability_threshold};
use qapgpu_common::layout::{GaLayout, Placement};
use qapgpu_common::params::{
    FLAG_COUNT_ATOMIC, FLAG_CROSSOVER_OX, FLAG_PER_BLOCK_TARGET, GaParams, MigrateParams, RunControl,
};

/// Device buffers of one GA run (see `GaParams` for their shapes).
struct Buffers {
    a: CudaSlice<u8>,
    b: CudaSlice<u8>,
    pop: CudaSlice<u8>,
    pop_alt: CudaSlice<u8>,
    costs: CudaSlice<i64>,
    costs_alt: CudaSlice<i64>,
    rng: CudaSlice<u32>,
    best_cost: CudaSlice<i64>,
    best_perm: CudaSlice<u8>,
    restarts: CudaSlice<u32>,
    control: CudaSlice<u8>,
    block_times: CudaSlice<u64>,
    params: CudaSlice<u8>,
    migrate: CudaSlice<u8>,
}

/// The GA's GPU engine: the populations and their kernels on one GPU.
pub struct GpuEngine {
    gpu: Gpu,
    cfg: GaConfig,
    n: usize,
    /// The blocks' shared-memory plan.
    pub layout: GaLayout,
    blocks: u32,
    f_init: CudaFunction,
    f_gens: CudaFunction,
    f_migrate: CudaFunction,
    params: GaParams,
    buf: Buffers,
    site: Site,
}

impl GpuEngine {
    /// Loads the kernels and allocates the run of `cfg` on `inst`.
    pub fn new(gpu: Gpu, inst: &Instance, cfg: &GaConfig) -> Result<GpuEngine> {
        let n = inst.n;
        anyhow::ensure!(
            cfg.subpop <= 1024,
            "--subpop = {}: a GPU block holds at most 1024 individuals (the CPU engine takes up to 2048)",
            cfg.subpop
        );
        let layout = GaLayout::new(n as u32, cfg.subpop, inst.width, &gpu.limits).map_err(|e| anyhow!("{e}"))?;
        let load =
            |name: &str| gpu.module.load_function(name).with_context(|| format!("kernel {name} missing from the PTX"));
        // The kernels' element types: u16 and i32 (`ElemWidth::on_gpu`).
        let (init, gens) = match inst.width {
            ElemWidth::U16 => ("ga_init_u16", "ga_generations_u16"),
            _ => ("ga_init_i32", "ga_generations_i32"),
        };
        let (f_init, f_gens, f_migrate) = (load(init)?, load(gens)?, load("ga_migrate")?);
        f_gens.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            layout.dynamic_shared as i32,
        )?;
        let blocks = if cfg.blocks > 0 {
            cfg.blocks
        } else {
            let per_sm = f_gens.occupancy_max_active_blocks_per_multiprocessor(
                cfg.subpop,
                layout.dynamic_shared as usize,
                None,
            )?;
            per_sm.max(1) * gpu.sms
        };
        let total = blocks as usize * cfg.subpop as usize;
        let stride = layout.stride as usize;
        gpu.ensure_free(
            layout.global_bytes(blocks),
            &format!("a population of {blocks} × {} on {}", cfg.subpop, inst.name),
        )
        .map_err(|e| anyhow!("{e}; lower --blocks or --subpop"))?;
        let site = Site::gpu(&gpu)?;
        let s = &gpu.stream;
        let (a_bytes, b_bytes) = device_matrices(inst);
        if layout.a_placement == Placement::Constant {
            let mut sym = gpu.module.get_global("QAP_CONST_A", s)?;
            s.memcpy_htod(&a_bytes[..layout.matrix_bytes as usize], &mut sym)?;
        }
        let buf = Buffers {
            a: s.clone_htod(&a_bytes)?,
            b: s.clone_htod(&b_bytes)?,
            pop: s.alloc_zeros(total * stride)?,
            pop_alt: s.alloc_zeros(total * stride)?,
            costs: s.alloc_zeros(total)?,
            costs_alt: s.alloc_zeros(total)?,
            rng: s.alloc_zeros(4 * total)?,
            best_cost: s.clone_htod(&vec![i64::MAX; blocks as usize])?,
            best_perm: s.alloc_zeros(blocks as usize * stride)?,
            restarts: s.alloc_zeros(blocks as usize)?,
            control: s.clone_htod(bytes_of(&RunControl::default()))?,
            block_times: s.alloc_zeros(blocks as usize)?,
            params: s.alloc_zeros(size_of::<GaParams>())?,
            migrate: s.alloc_zeros(size_of::<MigrateParams>())?,
        };
        let mut flags = layout.flags();
        if cfg.count == CountMethod::Atomic {
            flags |= FLAG_COUNT_ATOMIC;
        }
        if cfg.per_block_target {
            flags |= FLAG_PER_BLOCK_TARGET;
        }
        if cfg.crossover == Crossover::Ox {
            flags |= FLAG_CROSSOVER_OX;
        }
        let params = GaParams {
            a: gpu.ptr(&buf.a),
            b: gpu.ptr(&buf.b),
            pop: gpu.ptr(&buf.pop),
            costs: gpu.ptr(&buf.costs),
            rng: gpu.ptr(&buf.rng),
            best_cost: gpu.ptr(&buf.best_cost),
            best_perm: gpu.ptr(&buf.best_perm),
            restarts: gpu.ptr(&buf.restarts),
            control: gpu.ptr(&buf.control),
            block_times: gpu.ptr(&buf.block_times),
            stop: site.stop.device_ptr(),
            seed: cfg.seed,
            target: cfg.target,
            n: n as u32,
            subpop: cfg.subpop,
            generations: 0,
            pm_threshold: probability_threshold(cfg.pm),
            restart_count: cfg.restart_count(),
            restart_interval: cfg.restart_interval,
            flags,
            blocks,
            layout: layout.shared(),
        };
        Ok(GpuEngine { gpu, cfg: cfg.clone(), n, layout, blocks, f_init, f_gens, f_migrate, params, buf, site })
    }

    fn launch(&mut self, f: &CudaFunction, cfg: LaunchConfig, params: &[u8], on_migrate: bool) -> Result<()> {
        let s = &self.gpu.stream;
        let dst = if on_migrate { &mut self.buf.migrate } else { &mut self.buf.params };
        s.memcpy_htod(params, dst)?;
        let arg = if on_migrate { &self.buf.migrate } else { &self.buf.params };
        // SAFETY: the parameter block matches the kernel's, and every buffer it points to is
        // allocated with the sizes GaParams/MigrateParams document.
        unsafe { s.launch_builder(f).arg(arg).launch(cfg) }?;
        s.synchronize().context("kernel failed")?;
        Ok(())
    }

    fn grid(&self, shared: u32) -> LaunchConfig {
        LaunchConfig { grid_dim: (self.blocks, 1, 1), block_dim: (self.cfg.subpop, 1, 1), shared_mem_bytes: shared }
    }

    /// The GPU it runs on.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }
}

impl GaEngine for GpuEngine {
    fn site(&self) -> &Site {
        &self.site
    }

    fn blocks(&self) -> u32 {
        self.blocks
    }

    fn init(&mut self) -> Result<()> {
        let p = self.params;
        let (f, grid) = (self.f_init.clone(), self.grid(0));
        self.launch(&f, grid, bytes_of(&p), false)
    }

    fn advance(&mut self, gens: u32) -> Result<()> {
        self.params.generations = gens;
        let p = self.params;
        let (f, grid) = (self.f_gens.clone(), self.grid(self.layout.dynamic_shared));
        self.launch(&f, grid, bytes_of(&p), false)
    }

    fn migrate(&mut self, epoch: u64) -> Result<()> {
        let total = self.blocks * self.cfg.subpop;
        let m = MigrateParams {
            src_pop: self.params.pop,
            dst_pop: self.gpu.ptr(&self.buf.pop_alt),
            src_costs: self.params.costs,
            dst_costs: self.gpu.ptr(&self.buf.costs_alt),
            migration: self.cfg.migration(total, epoch),
            stride: self.layout.stride,
            _pad: 0,
        };
        let grid = LaunchConfig { grid_dim: (total.div_ceil(256), 1, 1), block_dim: (256, 1, 1), shared_mem_bytes: 0 };
        let f = self.f_migrate.clone();
        self.launch(&f, grid, bytes_of(&m), true)?;
        std::mem::swap(&mut self.buf.pop, &mut self.buf.pop_alt);
        std::mem::swap(&mut self.buf.costs, &mut self.buf.costs_alt);
        self.params.pop = m.dst_pop;
        self.params.costs = m.dst_costs;
        Ok(())
    }

    fn found(&mut self) -> Result<Option<(i64, Vec<u8>)>> {
        let c: RunControl = from_bytes(&self.gpu.stream.clone_dtoh(&self.buf.control)?);
        Ok((c.found != 0).then(|| (c.found_cost, c.found_perm[..self.n].to_vec())))
    }

    fn best(&mut self) -> Result<(i64, Vec<u8>)> {
        let costs = self.gpu.stream.clone_dtoh(&self.buf.best_cost)?;
        let (blk, &cost) = costs.iter().enumerate().min_by_key(|(_, c)| **c).expect("at least one block");
        let stride = self.layout.stride as usize;
        let mut best = if cost != i64::MAX {
            (cost, self.gpu.stream.clone_dtoh(&self.buf.best_perm.slice(blk * stride..blk * stride + self.n))?)
        } else {
            // No launch of generations ended yet (the run stopped first): the best individual
            // of the initial population, which the init kernel costed.
            let costs = self.gpu.stream.clone_dtoh(&self.buf.costs)?;
            let (k, &cost) = costs.iter().enumerate().min_by_key(|(_, c)| **c).expect("at least one individual");
            (cost, self.gpu.stream.clone_dtoh(&self.buf.pop.slice(k * stride..k * stride + self.n))?)
        };
        if let Some(f) = self.found()?
            && f.0 < best.0
        {
            best = f;
        }
        Ok(best)
    }

    fn member_costs(&mut self) -> Result<Vec<i64>> {
        Ok(self.gpu.stream.clone_dtoh(&self.buf.costs)?)
    }

    fn put_member(&mut self, k: usize, perm: &[u8], cost: i64) -> Result<()> {
        crate::gpu::put_row(
            &self.gpu.stream,
            &mut self.buf.pop,
            &mut self.buf.costs,
            self.layout.stride as usize,
            k,
            perm,
            cost,
        )
    }

    fn restarts(&mut self) -> Result<u64> {
        Ok(self.gpu.stream.clone_dtoh(&self.buf.restarts)?.iter().map(|&r| r as u64).sum())
    }

    fn snapshot(&mut self) -> Result<Snapshot> {
        let s = &self.gpu.stream;
        let (stride, total) = (self.layout.stride as usize, (self.blocks * self.cfg.subpop) as usize);
        let pop = s.clone_dtoh(&self.buf.pop)?;
        let rng = s.clone_dtoh(&self.buf.rng)?;
        Ok(Snapshot {
            rows: pop.chunks(stride).map(|r| r[..self.n].to_vec()).collect(),
            costs: s.clone_dtoh(&self.buf.costs)?,
            rng: (0..total).map(|i| [rng[i], rng[total + i], rng[2 * total + i], rng[3 * total + i]]).collect(),
            best_costs: s.clone_dtoh(&self.buf.best_cost)?,
            restarts: s.clone_dtoh(&self.buf.restarts)?,
        })
    }

    fn block_times(&mut self) -> Result<Vec<Option<f64>>> {
        let c: RunControl = from_bytes(&self.gpu.stream.clone_dtoh(&self.buf.control)?);
        let stamps = self.gpu.stream.clone_dtoh(&self.buf.block_times)?;
        Ok(stamps.iter().map(|&t| (t != 0).then(|| t.saturating_sub(c.start_ns) as f64 * 1e-9)).collect())
    }
}
