//! The GPU engine of seed 003: the ACO kernels (`device::aco`, `device::ls`) driven through
//! cudarc, one launch per step of Fig. 2. Only the best-so-far (one `AcoBest`) crosses to
//! the host each iteration. The `ts` and `memetic` walks run on it in walk mode
//! (`AcoConfig::walk`); their launches, regroupings and buffers are in `algo::ts::gpu`.
use super::{AcoConfig, AcoEngine, AcoSnapshot, Layout, LsStats};
use crate::gpu::{Gpu, HostMapped, bytes_of, device_matrices, device_matrix, from_bytes};
use crate::io::Instance;
use crate::search;
use crate::site::Site;
use anyhow::{Context, Result, anyhow};
use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use qapgpu_common::MAX_N;
use qapgpu_common::aco::{BEST_THREADS, Bounds, INIT_THREADS};
use qapgpu_common::elem::ElemWidth;
use qapgpu_common::layout::{LS_SCRATCH_PER_WARP, LsLayout, Placement, blocks_per_sm};
use qapgpu_common::ls::{LsKind, TabuStart, TenureLaw};
use qapgpu_common::mata::Mapping;
use qapgpu_common::params::{
    AcoBest, AcoParams, LS_SUMS_BETA, LS_SUMS_SIDE_B, LS_TENURE_MIXED, LS_TENURE_PER_MOVE, LS_TENURE_UNIFORM, LS_WALK,
    LS_ZERO_DIAGONAL, TargetHit,
};
use qapgpu_common::search::plan::{self, Request};
use qapgpu_common::sums::Side;
use std::time::Instant;

/// How long `update_best` polls without giving up its core.
const SPIN: std::time::Duration = std::time::Duration::from_millis(1);

/// The engine's device memory (the walks' in `walk`).
pub(crate) struct Buffers {
    a: CudaSlice<u8>,
    b: CudaSlice<u8>,
    ants: CudaSlice<u8>,
    ant_costs: CudaSlice<i64>,
    /// Every unit's c-ant (a walk's current solution) and its cost.
    pub(crate) cants: CudaSlice<u8>,
    pub(crate) cant_costs: CudaSlice<i64>,
    ls_iters: CudaSlice<u32>,
    rng: CudaSlice<u32>,
    tau: CudaSlice<f32>,
    /// The Δ tables that do not fit in shared memory: i64 or i32 entries (`LsLayout`).
    delta: CudaSlice<u8>,
    tabu: CudaSlice<i32>,
    /// The walks' buffers (`ts::gpu`).
    pub(crate) walk: WalkBuffers,
    first_pairs: CudaSlice<u16>,
    /// B + Bᵀ for the fast sums kernels (`AcoParams::b_sym`; one word where unused).
    b_sym: CudaSlice<u8>,
    /// The classes of the swaps the tabu searches skip (`AcoParams::null_swaps`; one word
    /// where none are).
    null_swaps: CudaSlice<u8>,
    best: CudaSlice<u8>,
    params: CudaSlice<u8>,
}

/// The walks' buffers (one word each where the engine runs a colony, not walks),
/// allocated and used by `algo::ts::gpu`.
pub(crate) struct WalkBuffers {
    /// Each walk's moves so far (0: its tabu matrix is reset and its table rebuilt).
    pub(crate) walks: CudaSlice<u32>,
    /// Walks: each one's rank, then the elite by rank (`AcoParams::winners`).
    pub(crate) winners: CudaSlice<u32>,
    /// Sums walks: their tables H between launches, and whether each is up to date
    /// (`AcoParams::tables`).
    pub(crate) tables: CudaSlice<u8>,
    pub(crate) tables_ok: CudaSlice<u32>,
    /// Walks: the elite slot each one takes its next start from, and the elite's copies
    /// (`AcoParams::donor_slots`, `AcoParams::elite_rows`).
    pub(crate) donor_slots: CudaSlice<u32>,
    pub(crate) elite_rows: CudaSlice<u8>,
    pub(crate) elite_costs: CudaSlice<i64>,
    pub(crate) elite_tables: CudaSlice<u8>,
    pub(crate) elite_ok: CudaSlice<u32>,
}

/// The walks' regrouping kernels (`device/src/ts/mod.rs`), loaded and launched by
/// `algo::ts::gpu`.
pub(crate) struct WalkKernels {
    /// `ts_rank_walks`: ranks the walks and copies the elite's starts aside.
    pub(crate) rank: CudaFunction,
    /// `ts_regroup_walks`: moves the solutions by a ranking the host gives.
    pub(crate) regroup: CudaFunction,
    /// `ts_take_donors`: hands the copies `ts_rank_walks` left to the walks outside the elite.
    pub(crate) take_donors: CudaFunction,
    /// `ts_perturb_walks_*` (the matrices' element type): perturbs the walks a regrouping
    /// moved (`device/src/ts/perturb.rs`).
    pub(crate) perturb: CudaFunction,
}

/// The engine's kernels (the walks' regroupings in `walk`).
pub(crate) struct Kernels {
    init: CudaFunction,
    construct: CudaFunction,
    /// The plan's local-search kernel (`search::plan`): a c-ant's search, or a walk's.
    pub(crate) ls: CudaFunction,
    /// The walks' regrouping kernels (`ts::gpu`).
    pub(crate) walk: WalkKernels,
    best: CudaFunction,
    tau_init: CudaFunction,
    evaporate: CudaFunction,
    lay: CudaFunction,
    clamp: CudaFunction,
}

/// The GPU engine of the colony and of the walks (`AcoConfig::walk`, whose code is in
/// `algo::ts::gpu`).
pub struct AcoGpu {
    pub(crate) gpu: Gpu,
    pub(crate) cfg: AcoConfig,
    pub(crate) n: usize,
    /// The plan's memory layout of the local search (`search::plan`).
    pub layout: LsLayout,
    /// The plan's kernel takes the launch's moves (`Role::takes_moves`).
    ls_takes_moves: bool,
    k: Kernels,
    pub(crate) buf: Buffers,
    params: AcoParams,
    /// The parameter block as last copied to the device (None: never): a launch copies it
    /// only when it changed, one host round trip less per launch.
    uploaded: Option<AcoParams>,
    /// The best so far as last read (`update_best` reads it with the iteration count).
    last_best: Option<AcoBest>,
    /// When the local searches not yet waited for began.
    searching_since: Option<Instant>,
    stats: LsStats,
    site: Site,
    /// Where the first search to reach the target leaves its result (`AcoParams::hit`);
    /// None where mapped host memory could not be had (the hit then waits for the launch).
    hit: Option<HostMapped<TargetHit>>,
    /// `update_best` returned a hit while kernels still ran: the stream is waited for
    /// (`settle`) before the host clears the hit or trusts the counts.
    unsettled: bool,
    /// The local-search blocks the GPU holds at once (an even count): a colony of more ants
    /// searches a wave of them a launch (`search_in_waves`).
    wave: u32,
    /// Every ant has a tabu matrix of its own in global memory (`AcoParams::tabu`).
    tabu_per_ant: bool,
    /// The walks' counts and table marks are all zero, as `random_ants` wants them (the
    /// buffers start zeroed: a run's first start needs no clearing).
    pub(crate) walks_clean: bool,
    /// `regroup` ranked the walks and left the others' donors in their slots, for the next
    /// walk launch to take (`take_donors` hands them over before the host reads the walks).
    pub(crate) donors_pending: bool,
    /// Fresh starts so far (`random_ants`): the init kernel seeds every unit's stream from
    /// `params.seed`, so each start takes a seed of its own (`rng::start_seed`), else a
    /// restart would draw the run's first solutions, and repeat its first walks, again.
    starts: u64,
}

impl Drop for AcoGpu {
    /// Kernels that may still write the mapped hit end before it is freed.
    fn drop(&mut self) {
        let _ = self.gpu.stream.synchronize();
    }
}

impl AcoGpu {
    /// The engine of `cfg` on `inst`: the plan's kernel and buffers for m units, the
    /// parameter block uploaded.
    pub fn new(gpu: Gpu, inst: &Instance, cfg: &AcoConfig) -> Result<AcoGpu> {
        let mut cfg = cfg.clone();
        anyhow::ensure!(cfg.ants >= 1, "the colony needs at least one ant");
        let w = inst.width;
        anyhow::ensure!(!cfg.walk || cfg.ls == LsKind::Tabu, "walks are tabu searches");
        anyhow::ensure!(cfg.tabu_start == TabuStart::Flat, "the GPU's walks start their tabu matrices flat only");
        let plan = search::plan_or_explain(&gpu, inst, &search::request(inst, &cfg))?;
        let layout = plan.layout;
        let shape = layout.shape;
        let load =
            |name: &str| gpu.module.load_function(name).with_context(|| format!("kernel {name} missing from the PTX"));
        let (init, construct) = match w {
            ElemWidth::U16 => ("aco_init_u16", "aco_construct_u16"),
            _ => ("aco_init_i32", "aco_construct_i32"),
        };
        let k = Kernels {
            init: load(init)?,
            construct: load(construct)?,
            ls: search::load(&gpu, plan.kernel)?,
            walk: WalkKernels::load(load, w)?,
            best: load("aco_best")?,
            tau_init: load("aco_tau_init")?,
            evaporate: load("aco_evaporate")?,
            lay: load("aco_lay")?,
            clamp: load("aco_clamp")?,
        };
        k.ls.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            layout.dynamic_shared as i32,
        )?;
        let wave = resident_blocks(&gpu, &k.ls, &layout, plan.registers);
        if cfg.one_wave {
            cfg.ants = cfg.ants.min(wave);
        }
        let (n, m) = (inst.n, cfg.ants as usize);
        let stride = n.div_ceil(16) * 16;
        let s = &gpu.stream;
        let (a_bytes, b_bytes) = device_matrices(inst);
        // The fast sums kernels read β = B + Bᵀ in one load where the element type holds it
        // (`LS_SUMS_BETA`): 5–16 % more moves a second (docs/benchmarks-record.md, "Launch costs again,
        // β in B's place").
        let beta = if layout.fast_path() { inst.sums_beta() } else { None };
        // Walks off the fast path skip null swaps: the fast path's loop took 1.3 KB more of
        // spills on sm_75 for the test, and the c-ants' MATA search 8.7 % fewer moves a
        // second (docs/benchmarks-record.md, "Null swaps").
        let skip = cfg.skip_null_swaps && cfg.walk && !layout.fast_path();
        let null_swaps = if skip { inst.null_swap_classes() } else { None };
        let first: Vec<u16> = (0..shape.owners).map(|t| shape.first_pair(t) as u16).collect();
        // A walk keeps its tabu matrix (and a sums walk its table H) in global memory between
        // launches, and every walk a copy of each elite walk's start (`LsLayout::colony_memory`).
        let mem = layout.colony_memory(m, cfg.walk);
        let (global_delta, global_tabu, kept_tables) = (mem.delta_bytes, mem.tabu_entries, mem.kept_tables);
        gpu.ensure_free(mem.total, &format!("a colony of {m} ants on {}", inst.name))
            .map_err(|e| anyhow!("{e}; lower --ants"))?;
        let site = Site::gpu(&gpu)?;
        let hit = HostMapped::new(&gpu, TargetHit { flag: 0, _pad: 0, cost: i64::MAX, perm: [0; MAX_N] }).ok();
        let buf = Buffers {
            a: s.clone_htod(&a_bytes)?,
            b: s.clone_htod(&b_bytes)?,
            ants: s.alloc_zeros(m * stride)?,
            ant_costs: s.alloc_zeros(m)?,
            cants: s.alloc_zeros(m * stride)?,
            cant_costs: s.alloc_zeros(m)?,
            ls_iters: s.alloc_zeros(m)?,
            rng: s.alloc_zeros(4 * m)?,
            tau: s.alloc_zeros(n * n)?,
            delta: s.alloc_zeros(global_delta)?,
            tabu: s.alloc_zeros(global_tabu)?,
            walk: WalkBuffers::alloc(s, cfg.walk, m, stride, kept_tables)?,
            first_pairs: s.clone_htod(&first)?,
            b_sym: match &beta {
                Some(beta) => s.clone_htod(&device_matrix(inst.width, beta))?,
                None => s.alloc_zeros(16)?,
            },
            null_swaps: match &null_swaps {
                Some(c) => s.clone_htod(c)?,
                None => s.alloc_zeros(16)?,
            },
            best: s.clone_htod(bytes_of(&AcoBest::default()))?,
            params: s.alloc_zeros(size_of::<AcoParams>())?,
        };
        let params = AcoParams {
            a: gpu.ptr(&buf.a),
            b: gpu.ptr(&buf.b),
            ants: gpu.ptr(&buf.ants),
            ant_costs: gpu.ptr(&buf.ant_costs),
            cants: gpu.ptr(&buf.cants),
            cant_costs: gpu.ptr(&buf.cant_costs),
            ls_iters: gpu.ptr(&buf.ls_iters),
            rng: gpu.ptr(&buf.rng),
            tau: gpu.ptr(&buf.tau),
            delta: gpu.ptr(&buf.delta),
            tabu: gpu.ptr(&buf.tabu),
            walks: gpu.ptr(&buf.walk.walks),
            winners: gpu.ptr(&buf.walk.winners),
            tables: if kept_tables > 0 { gpu.ptr(&buf.walk.tables) } else { 0 },
            tables_ok: gpu.ptr(&buf.walk.tables_ok),
            donor_slots: if cfg.walk { gpu.ptr(&buf.walk.donor_slots) } else { 0 },
            elite_rows: gpu.ptr(&buf.walk.elite_rows),
            elite_costs: gpu.ptr(&buf.walk.elite_costs),
            elite_tables: if kept_tables > 0 { gpu.ptr(&buf.walk.elite_tables) } else { 0 },
            elite_ok: gpu.ptr(&buf.walk.elite_ok),
            hit: hit.as_ref().map_or(0, HostMapped::device_ptr),
            b_sym: if beta.is_some() { gpu.ptr(&buf.b_sym) } else { 0 },
            null_swaps: if null_swaps.is_some() { gpu.ptr(&buf.null_swaps) } else { 0 },
            first_pairs: gpu.ptr(&buf.first_pairs),
            best: gpu.ptr(&buf.best),
            stop: site.stop.device_ptr(),
            seed: cfg.seed,
            target: cfg.target,
            ..settings(&cfg, &layout, n, m, stride, ls_flags(inst, &cfg, &layout, beta.is_some()))
        };
        let (wave, tabu_per_ant) = ((wave & !1).max(2), global_tabu == m * n * n);
        let mut engine = AcoGpu {
            gpu,
            cfg,
            n,
            layout,
            ls_takes_moves: plan.kernel.kernel().role.takes_moves(),
            k,
            buf,
            params,
            uploaded: None,
            last_best: None,
            searching_since: None,
            stats: LsStats::default(),
            site,
            hit,
            unsettled: false,
            wave,
            tabu_per_ant,
            walks_clean: true,
            donors_pending: false,
            starts: 0,
        };
        // Now rather than in the first launch, which a run's clock times.
        engine.upload_params()?;
        engine.gpu.stream.synchronize()?;
        Ok(engine)
    }

    /// Copies the parameter block to the device where it changed since the last copy.
    fn upload_params(&mut self) -> Result<()> {
        if self.uploaded.as_ref().is_none_or(|u| bytes_of(u) != bytes_of(&self.params)) {
            self.gpu.stream.memcpy_htod(bytes_of(&self.params), &mut self.buf.params)?;
            self.uploaded = Some(self.params);
        }
        Ok(())
    }

    /// Waits for every queued kernel after an early hit, and reads the best and the
    /// counts they leave.
    fn settle(&mut self) -> Result<()> {
        if std::mem::take(&mut self.unsettled) {
            self.gpu.stream.synchronize().context("ACO kernel failed")?;
            self.read_best()?;
        }
        Ok(())
    }

    /// Waits for the work queued on the stream by polling it, not in a synchronisation or a
    /// copy: a copy to pageable memory blocks the watchdog's stop-word write until the
    /// kernels end (2.3 s for a 1-s limit at n = 256). `early` is asked before every poll
    /// and ends the wait when it says so.
    pub(crate) fn poll_stream(&self, mut early: impl FnMut() -> bool) -> Result<()> {
        let (stream, waiting) = (self.gpu.stream.cu_stream(), Instant::now());
        loop {
            if early() {
                return Ok(());
            }
            // SAFETY: the engine's live stream.
            match unsafe { cudarc::driver::sys::cuStreamQuery(stream) } {
                // Hot for the first millisecond, where a hit's latency matters; then the
                // core is given up between polls.
                cudarc::driver::sys::CUresult::CUDA_ERROR_NOT_READY if waiting.elapsed() < SPIN => {
                    std::hint::spin_loop()
                }
                cudarc::driver::sys::CUresult::CUDA_ERROR_NOT_READY => std::thread::yield_now(),
                r => return r.result().context("ACO kernel failed"),
            }
        }
    }

    /// The colony's local searches one wave of `wave` ants a launch, each launch after the
    /// last has ended, none after a stop or a hit. In one launch of all m, the blocks that
    /// start after a stop still make their O(n³) first scan before they poll it: 65536 ants
    /// of n = 256 went on for 7 s past a 0.3-s limit on an H100. Each launch's parameter
    /// block points at its first ant (`wave_params`); the searches are those of one launch.
    /// One launch of the c-ants' searches: a kernel that serves both roles
    /// (`Role::Either`) takes the search's moves as its second parameter.
    fn launch_search(&mut self, c: LaunchConfig) -> Result<()> {
        if self.ls_takes_moves {
            let moves = self.params.ls_iterations;
            self.launch_with(|k| &k.ls, c, moves)
        } else {
            self.launch(|k| &k.ls, c)
        }
    }

    fn search_in_waves(&mut self, c: LaunchConfig) -> Result<()> {
        let (m, whole) = (self.cfg.ants, self.params);
        let mut first = 0;
        while first < m {
            if first > 0 {
                self.poll_stream(|| false)?;
                if self.site.stop.is_set() || self.take_hit().is_some() {
                    break;
                }
            }
            let ants = self.wave.min(m - first);
            self.params = self.wave_params(&whole, first);
            self.launch_search(LaunchConfig { grid_dim: (ants, 1, 1), ..c })?;
            first += ants;
        }
        // The next launch uploads the whole colony's block again, after this one.
        self.params = whole;
        Ok(())
    }

    /// The colony's parameter block `whole` for a launch whose block 0 is ant `first` (even,
    /// so that a unit's tenure law, `Tenure::of_unit`, is its own): every per-ant pointer
    /// moved to that ant. The RNG states are m words apart (`rngs::load_rng`), so m stays.
    fn wave_params(&self, whole: &AcoParams, first: u32) -> AcoParams {
        let (mut p, f) = (*whole, u64::from(first));
        let (stride, n) = (u64::from(p.stride), self.n as u64);
        p.ants += f * stride;
        p.cants += f * stride;
        p.ant_costs += 8 * f;
        p.cant_costs += 8 * f;
        p.ls_iters += 4 * f;
        p.rng += 4 * f;
        p.tables_ok += 4 * f;
        p.delta += f * u64::from(self.layout.global_delta_bytes());
        if self.tabu_per_ant {
            p.tabu += 4 * f * n * n;
        }
        p
    }

    /// Reads the best-so-far block (after the kernels that write it) and keeps it with its
    /// counts.
    fn read_best(&mut self) -> Result<AcoBest> {
        let b: AcoBest = from_bytes(&self.gpu.stream.clone_dtoh(&self.buf.best)?);
        self.note_best(b);
        Ok(b)
    }

    /// Adds the time since the searches not yet waited for began to the search seconds.
    fn stop_search_clock(&mut self) {
        if let Some(t0) = self.searching_since.take() {
            self.stats.seconds += t0.elapsed().as_secs_f64();
        }
    }

    fn note_best(&mut self, b: AcoBest) {
        self.stats.iterations = b.ls_total;
        self.stats.evaluations = b.ls_total * self.layout.shape.moves as u64;
        self.last_best = Some(b);
    }

    /// The hit a search left (`TargetHit`), if its flag is up.
    fn take_hit(&self) -> Option<(i64, [u8; MAX_N])> {
        let h = self.hit.as_ref()?.as_ptr();
        // SAFETY: `h` is the live mapped allocation; the flag is read first and the kernel
        // wrote it last, after a system fence, so cost and permutation are complete.
        unsafe {
            if std::ptr::read_volatile(std::ptr::addr_of!((*h).flag)) == 0 {
                return None;
            }
            std::sync::atomic::fence(std::sync::atomic::Ordering::Acquire);
            Some((
                std::ptr::read_volatile(std::ptr::addr_of!((*h).cost)),
                std::ptr::read_volatile(std::ptr::addr_of!((*h).perm)),
            ))
        }
    }

    /// The local-search blocks the GPU holds at once, an even count: a larger colony
    /// searches a wave of them a launch.
    pub fn wave(&self) -> u32 {
        self.wave
    }

    /// Threads per block of the local search (T_TOTAL).
    pub fn block_threads(&self) -> u32 {
        self.layout.shape.launched()
    }

    /// Queues one kernel on the stream, after the parameter block where it changed. It does
    /// not wait: the next read from the device (or `local_search`'s wait) does, and reports
    /// a kernel's failure.
    pub(crate) fn launch(&mut self, which: fn(&Kernels) -> &CudaFunction, cfg: LaunchConfig) -> Result<()> {
        self.launch_words(which, cfg, &[])
    }

    /// `launch` for the kernels that take a u32 after the parameter block (a walk's moves, the
    /// regrouping's elite): values that change within a run, passed with the launch instead
    /// of copied into the block between two kernels.
    pub(crate) fn launch_with(
        &mut self,
        which: fn(&Kernels) -> &CudaFunction,
        cfg: LaunchConfig,
        word: u32,
    ) -> Result<()> {
        self.launch_words(which, cfg, &[word])
    }

    /// A launch of the kernel `which` with the u32 `words` after the parameter block.
    pub(crate) fn launch_words(
        &mut self,
        which: fn(&Kernels) -> &CudaFunction,
        cfg: LaunchConfig,
        words: &[u32],
    ) -> Result<()> {
        self.upload_params()?;
        let mut launch = self.gpu.stream.launch_builder(which(&self.k));
        launch.arg(&self.buf.params);
        for w in words {
            launch.arg(w);
        }
        // SAFETY: the parameter block matches the kernels' `AcoParams`, and every buffer it
        // points to has the size `AcoParams` documents for m ants and this layout; `words`
        // are given exactly to the kernels whose parameters after it are as many u32.
        unsafe { launch.launch(cfg) }?;
        Ok(())
    }

    /// The init kernel's block per ant: a shared row of `MAX_N` bytes, and a sum's scratch.
    pub(crate) fn per_ant_block(&self) -> LaunchConfig {
        let shared = MAX_N as u32 + INIT_THREADS / 32 * LS_SCRATCH_PER_WARP;
        LaunchConfig { grid_dim: (self.cfg.ants, 1, 1), block_dim: (INIT_THREADS, 1, 1), shared_mem_bytes: shared }
    }

    fn per_ant(&self) -> LaunchConfig {
        LaunchConfig { grid_dim: (self.cfg.ants.div_ceil(64), 1, 1), block_dim: (64, 1, 1), shared_mem_bytes: 0 }
    }

    fn per_cell(&self) -> LaunchConfig {
        LaunchConfig { grid_dim: (self.n as u32, 1, 1), block_dim: (self.n as u32, 1, 1), shared_mem_bytes: 0 }
    }
}

/// The parameter block's settings for m units of n (rows of `stride` bytes) under `cfg` on
/// `layout`, with the local search's `flags`: every field but the buffers' addresses, the
/// stop word, the seed and the target, which stay zero for the caller (`AcoGpu::new`, and
/// each instance of a batch, `batch::gpu`) to fill.
pub(crate) fn settings(cfg: &AcoConfig, layout: &LsLayout, n: usize, m: usize, stride: usize, flags: u32) -> AcoParams {
    let shape = layout.shape;
    AcoParams {
        aspiration: cfg.aspiration,
        n: n as u32,
        m: m as u32,
        stride: stride as u32,
        ls_iterations: cfg.ls_iterations,
        tabu_list_size: cfg.tabu_list_size,
        ns: shape.ns,
        moves: shape.moves,
        owners: shape.owners,
        tl_start: shape.tl_start,
        lanes: shape.lanes,
        flags,
        gamma_threshold: cfg.gamma_threshold(),
        rho: cfg.rho as f32,
        tau_init: 0.0,
        tau_min: 0.0,
        tau_max: 0.0,
        layout: layout.shared(),
        ..AcoParams::default()
    }
}

/// The local search's flags (`AcoParams::flags`) for `inst` under `cfg` on `layout`, with
/// β = B + Bᵀ in B's place where `beta` (`LS_SUMS_BETA`).
pub(crate) fn ls_flags(inst: &Instance, cfg: &AcoConfig, layout: &LsLayout, beta: bool) -> u32 {
    layout.flags()
        | if cfg.tenure_per_move { LS_TENURE_PER_MOVE } else { 0 }
        | match cfg.tenure_law {
            TenureLaw::Cubic => 0,
            TenureLaw::Uniform => LS_TENURE_UNIFORM,
            TenureLaw::Mixed => LS_TENURE_MIXED,
        }
        | if inst.sums_side() == Some(Side::B) { LS_SUMS_SIDE_B } else { 0 }
        | if inst.zero_diagonals() { LS_ZERO_DIAGONAL } else { 0 }
        | if beta { LS_SUMS_BETA } else { 0 }
        | if cfg.walk { LS_WALK } else { 0 }
}

/// The layout `cfg` runs on `gpu` (its local search or, for `cfg.walk`, its walks): `cfg`'s
/// own where it runs, else the fastest that does, in the order sums, split, MATA, plain.
/// * Sums needs a symmetric side (`Instance::sums_side`) and its table in shared memory.
/// * Split needs its Δ table in shared memory (not at n = 256 with i64 move costs); unless
///   the user chose the layout (`chosen`), it also gives way to MATA where its plan pushes A
///   and B out of shared memory and MATA's keeps them (tai150b: 5.0e10 move costs a second
///   with MATA, 4.1e10 split). Sums, too, falls back to split there.
/// * MATA gives way to plain where its 2n extra threads do not fit the kernel's threads per
///   block (n = 256 on sm_90).
///
/// A layout the user chose (`chosen`) is kept where it can run at all; where it cannot, the
/// engine says why.
pub fn settle_layout(gpu: &Gpu, inst: &Instance, cfg: &mut AcoConfig, chosen: bool) -> Result<()> {
    let req = Request { settle: true, chosen, ..search::request(inst, cfg) };
    let mapping = plan::settle(&req, &gpu.limits, &mut |id| search::resources(gpu, id))?
        .map_err(|e| anyhow!("{}: {e}", inst.name))?;
    cfg.layout = search::layout_of(mapping);
    Ok(())
}

/// `auto`'s rule for large structured data: `cfg`'s sums layout where its plan runs the fast
/// path on `gpu`, else MATA (the planner's `Request::sums_only_if_fast`).
pub fn sums_if_fast(gpu: &Gpu, inst: &Instance, cfg: &mut AcoConfig) -> Result<()> {
    let req = Request { sums_only_if_fast: true, ..search::request(inst, cfg) };
    cfg.layout = match search::plan(gpu, &req)? {
        Ok(p) => search::layout_of(p.layout.shape.mapping),
        Err(_) => Layout::Mata,
    };
    Ok(())
}

fn where_(p: Placement) -> &'static str {
    if p == Placement::Shared { "shared" } else { "global" }
}

/// Blocks of `layout` that `gpu` runs at once (every SM full): one wave. The driver's
/// occupancy count for `kernel` decides (it knows the partitioned register file, static
/// shared memory and the block's own limits); the `layout` model where the driver gives
/// none.
pub fn resident_blocks(gpu: &Gpu, kernel: &CudaFunction, layout: &LsLayout, registers: u32) -> u32 {
    let threads = layout.shape.launched();
    let per_sm = kernel
        .occupancy_max_active_blocks_per_multiprocessor(threads, layout.dynamic_shared as usize, None)
        .unwrap_or_else(|_| blocks_per_sm(&gpu.limits, threads, layout.dynamic_shared, registers).0);
    per_sm.max(1) * gpu.sms
}

impl AcoEngine for AcoGpu {
    fn site(&self) -> &Site {
        &self.site
    }
    fn config(&self) -> &AcoConfig {
        &self.cfg
    }
    fn threads_per_block(&self) -> u32 {
        self.block_threads()
    }
    fn skips_null_swaps(&self) -> bool {
        self.params.null_swaps != 0
    }
    fn memory(&self) -> String {
        let l = &self.layout;
        let costs = if l.shape.mapping == Mapping::Sums {
            format!("table H {} in shared memory", l.delta_width.name())
        } else {
            format!("Δ {} in {} memory", l.delta_width.name(), where_(l.delta_placement))
        };
        let mut s = format!("; {costs}, A and B in {} memory", where_(l.ab_placement));
        if l.tabu_search {
            s += &format!(", tabu matrix in {} memory", where_(l.tabu_placement));
        }
        if l.tabu_entry == 2 {
            s += " in 2-byte entries";
        }
        if l.shape.mapping == Mapping::Sums && !l.pairs_shared {
            s += ", moves' pairs in global memory";
        }
        if l.fast_path() {
            s += if l.row == l.n {
                " (the fast path's kernels)"
            } else {
                " (the fast path's kernels; H and the tabu matrix in rows of n + 1)"
            };
        }
        s
    }

    fn random_ants(&mut self) -> Result<()> {
        // A new run: no kernel of the last one may still write the hit being cleared.
        self.settle()?;
        if let Some(hit) = &self.hit {
            // SAFETY: no kernel runs that could write it (above).
            unsafe { std::ptr::write_volatile(std::ptr::addr_of_mut!((*hit.as_ptr()).flag), 0) };
        }
        self.clear_walks()?;
        self.params.seed = qapgpu_common::rng::start_seed(self.cfg.seed, self.starts);
        self.starts += 1;
        let c = self.per_ant_block();
        self.launch(|k| &k.init, c)
    }

    fn construct(&mut self) -> Result<()> {
        let c = self.per_ant();
        self.launch(|k| &k.construct, c)
    }

    fn local_search(&mut self) -> Result<()> {
        let c = LaunchConfig {
            grid_dim: (self.cfg.ants, 1, 1),
            block_dim: (self.block_threads(), 1, 1),
            shared_mem_bytes: self.layout.dynamic_shared,
        };
        let t0 = Instant::now();
        if self.cfg.walk {
            self.walk_launches(c)?;
        } else if self.cfg.ants <= self.wave {
            self.launch_search(c)?;
        } else {
            self.search_in_waves(c)?;
        }
        // Timed to the read in `update_best`, which waits for it (one wait a launch).
        self.searching_since.get_or_insert(t0);
        Ok(())
    }

    fn update_best(&mut self) -> Result<i64> {
        let c = LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (BEST_THREADS, 1, 1),
            shared_mem_bytes: BEST_THREADS / 32 * LS_SCRATCH_PER_WARP,
        };
        self.launch(|k| &k.best, c)?;
        // A hit left in mapped memory ends the wait at once, before the launch, the best
        // kernel and a copy have (`TargetHit`).
        let mut hit = None;
        self.poll_stream(|| {
            hit = self.take_hit();
            hit.is_some()
        })?;
        if let Some((cost, perm)) = hit {
            self.stop_search_clock();
            let ls_total = self.last_best.map_or(0, |b| b.ls_total);
            self.last_best = Some(AcoBest { cost, ls_total, perm });
            self.unsettled = true;
            return Ok(cost);
        }
        // Every search adds its iterations to the block the host reads anyway.
        let b = self.read_best()?;
        self.stop_search_clock();
        Ok(b.cost)
    }

    fn pheromone(&mut self, init: Option<f32>, bounds: Bounds) -> Result<()> {
        self.params.tau_min = bounds.min;
        self.params.tau_max = bounds.max;
        let cell = self.per_cell();
        if let Some(t0) = init {
            self.params.tau_init = t0;
            self.launch(|k| &k.tau_init, cell)?;
        }
        self.launch(|k| &k.evaporate, cell)?;
        let rows =
            LaunchConfig { grid_dim: ((self.n as u32).div_ceil(64), 1, 1), block_dim: (64, 1, 1), shared_mem_bytes: 0 };
        self.launch(|k| &k.lay, rows)?;
        self.launch(|k| &k.clamp, cell)
    }

    /// The best as `update_best` last read it (only the best kernel changes it).
    fn best(&mut self) -> Result<(i64, Vec<u8>)> {
        let b = match self.last_best {
            Some(b) => b,
            None => from_bytes(&self.gpu.stream.clone_dtoh(&self.buf.best)?),
        };
        if b.cost == i64::MAX {
            // No search has left a unit best yet (walks launched after a stop leave at once):
            // the best c-ant, as the init kernel drew and costed it or a search left it.
            let costs = self.gpu.stream.clone_dtoh(&self.buf.cant_costs)?;
            let (k, &c) = costs.iter().enumerate().min_by_key(|(_, c)| **c).expect("at least one ant");
            if c != i64::MAX {
                let stride = self.params.stride as usize;
                return Ok((c, self.gpu.stream.clone_dtoh(&self.buf.cants.slice(k * stride..k * stride + self.n))?));
            }
        }
        Ok((b.cost, b.perm[..self.n].to_vec()))
    }

    fn ls_stats(&mut self) -> Result<LsStats> {
        self.settle()?;
        Ok(self.stats)
    }

    fn snapshot(&mut self) -> Result<AcoSnapshot> {
        self.take_donors()?;
        self.settle()?;
        let s = &self.gpu.stream;
        let (n, m, stride) = (self.n, self.cfg.ants as usize, self.params.stride as usize);
        let rows = |v: Vec<u8>| v.chunks(stride).map(|r| r[..n].to_vec()).collect();
        let rng = s.clone_dtoh(&self.buf.rng)?;
        Ok(AcoSnapshot {
            ants: rows(s.clone_dtoh(&self.buf.ants)?),
            ant_costs: s.clone_dtoh(&self.buf.ant_costs)?,
            cants: rows(s.clone_dtoh(&self.buf.cants)?),
            cant_costs: s.clone_dtoh(&self.buf.cant_costs)?,
            ls_iterations: s.clone_dtoh(&self.buf.ls_iters)?,
            tau_bits: s.clone_dtoh(&self.buf.tau)?.iter().map(|t| t.to_bits()).collect(),
            rng: (0..m).map(|i| [rng[i], rng[m + i], rng[2 * m + i], rng[3 * m + i]]).collect(),
            best: self.best()?.0,
        })
    }

    fn archive(&mut self) -> Result<(Vec<u8>, Vec<i64>)> {
        let (n, stride) = (self.n, self.params.stride as usize);
        let rows = self.gpu.stream.clone_dtoh(&self.buf.ants)?;
        let ants = rows.chunks(stride).flat_map(|r| r[..n].iter().copied()).collect();
        Ok((ants, self.unit_costs()?))
    }

    fn unit_costs(&mut self) -> Result<Vec<i64>> {
        Ok(self.gpu.stream.clone_dtoh(&self.buf.ant_costs)?)
    }

    /// The walks' steps are `ts::gpu`'s (`regroup_walks`, `walk_currents`,
    /// `regroup_walks_ranked`).
    fn regroup(&mut self, elite: u32) -> Result<()> {
        self.regroup_walks(elite)
    }

    fn currents(&mut self) -> Result<(Vec<u8>, usize, Vec<i64>)> {
        self.walk_currents()
    }

    fn regroup_ranked(&mut self, winners: &[u32], elite: u32) -> Result<()> {
        self.regroup_walks_ranked(winners, elite)
    }

    fn perturb_walks(&mut self, elite: u32, swaps: u32, round: u32) -> Result<()> {
        self.perturb_regrouped(elite, swaps, round)
    }

    /// A walk launch passes its moves itself (`launch_with`), so the parameter block, and
    /// its copy to the device, change only for the colony's local search.
    fn set_ls_iterations(&mut self, moves: u32) -> Result<()> {
        self.cfg.ls_iterations = moves;
        if !self.cfg.walk {
            self.params.ls_iterations = moves;
        }
        Ok(())
    }

    /// `put_units` with one unit: what a unit becomes is said in one place.
    fn put_unit(&mut self, k: usize, perm: &[u8], cost: i64) -> Result<()> {
        self.put_units(&[(k, perm.to_vec(), cost)])
    }

    /// Every unit in one round trip: the unit arrays (four, five for walks) read, patched
    /// and written back whole, then one wait, instead of five copies and three waits a unit.
    fn put_units(&mut self, units: &[(usize, Vec<u8>, i64)]) -> Result<()> {
        self.take_donors()?;
        let (stride, s) = (self.params.stride as usize, self.gpu.stream.clone());
        let (mut ants, mut cants) = (s.clone_dtoh(&self.buf.ants)?, s.clone_dtoh(&self.buf.cants)?);
        let (mut ant_costs, mut cant_costs) = (s.clone_dtoh(&self.buf.ant_costs)?, s.clone_dtoh(&self.buf.cant_costs)?);
        let mut walks = self.walk_counts()?;
        for (k, perm, cost) in units {
            let row = k * stride..k * stride + perm.len();
            ants[row.clone()].copy_from_slice(perm);
            cants[row].copy_from_slice(perm);
            (ant_costs[*k], cant_costs[*k]) = (*cost, *cost);
            if let Some(done) = walks.get_mut(*k) {
                *done = 0;
            }
        }
        s.memcpy_htod(&ants, &mut self.buf.ants)?;
        s.memcpy_htod(&cants, &mut self.buf.cants)?;
        s.memcpy_htod(&ant_costs, &mut self.buf.ant_costs)?;
        s.memcpy_htod(&cant_costs, &mut self.buf.cant_costs)?;
        self.put_walk_counts(&walks)?;
        s.synchronize()?;
        Ok(())
    }

    fn set_tau(&mut self, tau: &[f32]) -> Result<()> {
        self.gpu.stream.memcpy_htod(tau, &mut self.buf.tau)?;
        Ok(())
    }

    /// The profiling driver's wait after a step (`PhaseTimes`): the stream polled until its
    /// launches have ended, as `update_best` waits, so that each step is timed to the end
    /// of its kernels on the host's clock. Unprofiled runs never call it.
    fn wait(&mut self) -> Result<()> {
        self.poll_stream(|| false)
    }
}
