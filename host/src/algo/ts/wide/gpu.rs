//! The wide walks on one GPU: a block a walk (`ts_wide_walk_*`, `Body::Wide` in the table of
//! local-search kernels), the plan of `WidePlan` checked against free memory before any
//! allocation.
use super::{WideConfig, WideEngine, start};
use crate::algo::Options;
use crate::gpu::{Gpu, bytes_of, device_matrix};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::site::Site;
use anyhow::{Context, Result, ensure};
use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use qapgpu_common::moves::move_count;
use qapgpu_common::search::kernels::{Body, KernelId, Role};
use qapgpu_common::wide::{NO_MOVE, WideParams, WidePlan};
use std::sync::Arc;

/// Threads of a walk's block: 16 warps, so that two blocks of 64 registers a thread share
/// an SM's register file.
pub const WIDE_THREADS: u32 = 512;
// The kernel's rows keep at most 4 facilities a thread (`MAX_X` in device/src/ts/wide.rs).
const _: () = assert!(qapgpu_common::WIDE_MAX_N <= 4 * WIDE_THREADS as usize);

/// The device buffers of the walks.
struct Buffers {
    params: CudaSlice<u8>,
    _mats: [CudaSlice<u8>; 3],
    _permuted: [CudaSlice<u8>; 2],
    perms: CudaSlice<u16>,
    bests: CudaSlice<u16>,
    costs: CudaSlice<i64>,
    best_costs: CudaSlice<i64>,
    done: CudaSlice<u32>,
    built: CudaSlice<u32>,
    pending: CudaSlice<u32>,
    moved: CudaSlice<u32>,
    rngs: CudaSlice<u32>,
    _delta: CudaSlice<i64>,
    tabu: CudaSlice<i32>,
    _terms: Option<CudaSlice<i64>>,
}

/// The wide walks on a GPU.
pub struct WideGpu {
    gpu: Gpu,
    site: Site,
    kernel: CudaFunction,
    plan: WidePlan,
    n: usize,
    m: usize,
    buf: Buffers,
}

impl WideGpu {
    /// The walks of `opts` on `gpu` for `inst`: one for every `policy::WIDE_SMS_PER_WALK` SMs
    /// (`--ants` to change), each from a random start of its own stream.
    pub fn new(gpu: Gpu, inst: &Instance, opts: &Options, descent: bool) -> Result<WideGpu> {
        let (n, w) = (inst.n, inst.width);
        let id = KernelId::find(Body::Wide, Role::Walk, w)
            .with_context(|| format!("{}: no wide kernel for {} entries", inst.name, w.name()))?;
        let kernel = crate::search::load(&gpu, id)?;
        let plan = WidePlan::new(n as u32, WIDE_THREADS, w.bytes() as u32, gpu.limits.shared_per_block_optin);
        let m = opts.aco.ants.unwrap_or((gpu.sms / crate::algo::policy::WIDE_SMS_PER_WALK).max(1)) as usize;
        ensure!(m >= 1, "--ants: the walks need at least one");
        gpu.ensure_free(plan.device_bytes(m as u32) as u128, &format!("{} walks of n = {n} (the wide path)", m))?;
        kernel.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            plan.shared_bytes as i32,
        )?;
        let cfg = WideConfig::of(inst, opts, descent);
        let s = &gpu.stream;
        let mut perms = Vec::with_capacity(m * n);
        let mut costs = Vec::with_capacity(m);
        let mut rngs = vec![0u32; 4 * m];
        for k in 0..m {
            let (p, rng) = start(n, cfg.seed, k);
            costs.push(inst.cost(&p));
            perms.extend_from_slice(&p);
            rngs[4 * k..4 * k + 4].copy_from_slice(&rng.s);
        }
        let mats = [
            s.clone_htod(&device_matrix(w, &inst.a))?,
            s.clone_htod(&device_matrix(w, &inst.b))?,
            s.clone_htod(&device_matrix(w, &inst.transposed().a))?,
        ];
        let permuted = [s.alloc_zeros::<u8>(m * n * n * w.bytes())?, s.alloc_zeros::<u8>(m * n * n * w.bytes())?];
        // Zeros: every tabu entry free (the kernel keeps until + 1, `WideParams::tabu`).
        let tabu = s.alloc_zeros::<i32>(m * n * n)?;
        let mut buf = Buffers {
            params: s.alloc_zeros(std::mem::size_of::<WideParams>())?,
            perms: s.clone_htod(&perms)?,
            bests: s.clone_htod(&perms)?,
            costs: s.clone_htod(&costs)?,
            best_costs: s.clone_htod(&costs)?,
            done: s.alloc_zeros(m)?,
            built: s.alloc_zeros(m)?,
            pending: s.clone_htod(&vec![NO_MOVE; m])?,
            moved: s.alloc_zeros(m)?,
            rngs: s.clone_htod(&rngs)?,
            _delta: s.alloc_zeros(m * move_count(n as u32) as usize)?,
            tabu,
            _terms: if plan.terms_shared { None } else { Some(s.alloc_zeros(m * n * 4)?) },
            _mats: mats,
            _permuted: permuted,
        };
        let params = WideParams {
            n: n as u32,
            m: m as u32,
            aspiration: cfg.aspiration,
            tenure_list: cfg.tenure.list_size,
            tenure_law: cfg.law_code(),
            tenure_per_move: u32::from(cfg.tenure.per_move),
            descent: u32::from(cfg.descent),
            _pad: 0,
            target: cfg.target,
            stop: 0,
            a: gpu.ptr(&buf._mats[0]),
            b: gpu.ptr(&buf._mats[1]),
            at: gpu.ptr(&buf._mats[2]),
            bp: gpu.ptr(&buf._permuted[0]),
            bpt: gpu.ptr(&buf._permuted[1]),
            perms: gpu.ptr(&buf.perms),
            bests: gpu.ptr(&buf.bests),
            costs: gpu.ptr(&buf.costs),
            best_costs: gpu.ptr(&buf.best_costs),
            done: gpu.ptr(&buf.done),
            built: gpu.ptr(&buf.built),
            pending: gpu.ptr(&buf.pending),
            moved: gpu.ptr(&buf.moved),
            rngs: gpu.ptr(&buf.rngs),
            delta: gpu.ptr(&buf._delta),
            tabu: gpu.ptr(&buf.tabu),
            terms: buf._terms.as_ref().map_or(0, |t| gpu.ptr(t)),
        };
        let site = Site::gpu(&gpu)?;
        let params = WideParams { stop: site.stop.device_ptr(), ..params };
        s.memcpy_htod(bytes_of(&params), &mut buf.params)?;
        s.synchronize()?;
        Ok(WideGpu { gpu, site, kernel, plan, n, m, buf })
    }
}

impl WideEngine for WideGpu {
    fn site(&self) -> (&'static str, String) {
        (self.site.engine, self.site.device.clone())
    }
    fn stop_word(&self) -> Arc<StopWord> {
        self.site.stop.clone()
    }
    fn threads(&self) -> u32 {
        self.plan.threads
    }
    fn walks(&self) -> u32 {
        self.m as u32
    }
    fn memory(&self) -> String {
        format!(
            "; Δ i64, tabu matrix, B permuted by each walk (and its transpose), A, Aᵀ and B in global memory, the terms in {} memory; {} a walk, {} in all",
            if self.plan.terms_shared { "shared" } else { "global" },
            crate::memory::human(self.plan.walk_bytes as u128),
            crate::memory::human(self.plan.device_bytes(self.m as u32) as u128)
        )
    }

    fn launch(&mut self, moves: u32) -> Result<u64> {
        if self.site.stop.is_set() {
            return Ok(0);
        }
        let cfg = LaunchConfig {
            grid_dim: (self.m as u32, 1, 1),
            block_dim: (self.plan.threads, 1, 1),
            shared_mem_bytes: self.plan.shared_bytes,
        };
        let mut launch = self.gpu.stream.launch_builder(&self.kernel);
        launch.arg(&self.buf.params);
        launch.arg(&moves);
        // SAFETY: the parameter block is a `WideParams` whose every array holds m walks of n
        // as `WidePlan` sizes them; m blocks of the plan's threads and shared memory.
        unsafe { launch.launch(cfg) }?;
        let moved = self.gpu.stream.clone_dtoh(&self.buf.moved)?;
        Ok(moved.iter().map(|&x| u64::from(x)).sum())
    }

    fn best_costs(&mut self) -> Result<Vec<i64>> {
        Ok(self.gpu.stream.clone_dtoh(&self.buf.best_costs)?)
    }

    fn best_of(&mut self, k: usize) -> Result<Vec<u16>> {
        Ok(self.gpu.stream.clone_dtoh(&self.buf.bests.slice(k * self.n..(k + 1) * self.n))?)
    }

    fn built(&mut self) -> Result<bool> {
        let steps = qapgpu_common::wide::build_steps(self.n as u32);
        Ok(self.gpu.stream.clone_dtoh(&self.buf.built)?.iter().all(|&b| b >= steps))
    }

    fn restart(&mut self, k: usize, perm: &[u16], cost: i64) -> Result<()> {
        let (s, n) = (&self.gpu.stream, self.n);
        s.memcpy_htod(perm, &mut self.buf.perms.slice_mut(k * n..(k + 1) * n))?;
        s.memcpy_htod(perm, &mut self.buf.bests.slice_mut(k * n..(k + 1) * n))?;
        s.memcpy_htod(&[cost], &mut self.buf.costs.slice_mut(k..k + 1))?;
        s.memcpy_htod(&[cost], &mut self.buf.best_costs.slice_mut(k..k + 1))?;
        s.memcpy_htod(&[0u32], &mut self.buf.built.slice_mut(k..k + 1))?;
        s.memcpy_htod(&[NO_MOVE], &mut self.buf.pending.slice_mut(k..k + 1))?;
        s.memset_zeros(&mut self.buf.tabu.slice_mut(k * n * n..(k + 1) * n * n))?;
        s.synchronize()?;
        Ok(())
    }
}
