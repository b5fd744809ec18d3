//! The GPU's batch engine: instances of one size and plan searched together, `walks` robust
//! tabu walks (blocks) an instance, every instance in the grid's y index.
//!
//! Each instance has the buffers and the parameter block (`AcoParams`) that `AcoGpu` would
//! give it alone, cut from one allocation a buffer; a launch is given the array of the
//! blocks of the instances still searching, and every block reads its own
//! (`device/src/batch.rs`). The kernels are `ts`'s walk kernel of the plan
//! (`search::plan`), `aco_init_*` and `aco_best`. Between two launches the host reads every
//! instance's best (`AcoBest`, one copy) and drops the instances that have converged
//! (`run::Convergence`, on the batch's clock) from the next launch's array.
//!
//! Not here: regroupings and restarts (`ts`'s driver steers one instance), targets (each
//! instance runs to convergence or the time limit), and starts given by the caller.
use super::solve_one;
use crate::algo::aco::gpu::{ls_flags, resident_blocks};
use crate::algo::aco::{AcoConfig, MAX_ANTS};
use crate::algo::policy::{self, BATCH_MIN_WALKS, CONVERGED_RAMP_MOVES, CONVERGED_SETTLE_PER_N, EXACT_MAX_N};
use crate::algo::{Backend, Options, ts};
use crate::gpu::{Gpu, bytes_of, device_matrices, device_matrix, from_bytes};
use crate::io::Instance;
use crate::run::stop::with_watchdog;
use crate::run::{Convergence, Counters, Outcome, SolverInfo, StopRule, Stopped, exact};
use crate::search;
use crate::site::Site;
use crate::solution::Solution;
use anyhow::{Context, Result};
use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use qapgpu_common::MAX_N;
use qapgpu_common::aco::{BEST_THREADS, INIT_THREADS};
use qapgpu_common::elem::ElemWidth;
use qapgpu_common::layout::LS_SCRATCH_PER_WARP;
use qapgpu_common::ls::NO_TARGET;
use qapgpu_common::narrow_tabu;
use qapgpu_common::params::{AcoBest, AcoParams};
use qapgpu_common::search::plan::Plan;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Most instances of one launch: the grid's y dimension.
const MAX_GRID_Y: usize = 65_535;

/// The "tabu moves" counter's unit, as `ts` reports it.
const UNIT: &str = "tabu moves (all walks)";

/// Every instance of `instances` on `gpu`: n ≤ `EXACT_MAX_N` under `StopRule::Converged` by
/// the exact method on the CPU first; families other than `ts` and `auto`, and instances the
/// GPU kernels do not take, one after another by `api::solve_on`; the rest in groups of one
/// plan (`group`), each group in chunks that fit the GPU's memory.
pub fn solve(gpu: &Gpu, instances: &[Instance], opts: &Options, interrupt: &AtomicBool) -> Result<Vec<Solution>> {
    let backend = Backend::Gpu(gpu.clone());
    let mut out: Vec<Option<Solution>> = (0..instances.len()).map(|_| None).collect();
    let walks_family = matches!(opts.algorithm.as_deref(), None | Some("ts") | Some(crate::algo::AUTO));
    let converging = opts.stop == StopRule::Converged;
    // The exact method, where it proves the optimum within its node budget.
    let proven: Vec<(usize, Option<Solution>)> = instances
        .par_iter()
        .enumerate()
        .filter(|(_, i)| converging && walks_family && i.n <= EXACT_MAX_N)
        .map(|(k, inst)| (k, prove(inst, opts, k, interrupt)))
        .collect();
    for (k, sol) in proven {
        out[k] = sol;
    }
    let mut groups: Vec<Group> = Vec::new();
    for (k, inst) in instances.iter().enumerate() {
        if out[k].is_some() {
            continue;
        }
        if !walks_family || inst.width == ElemWidth::U32 || inst.n < ts::TS.min_n {
            out[k] = Some(solve_one(&backend, inst, opts, k, interrupt)?);
            continue;
        }
        let (cfg, plan) =
            plan_of(&backend, gpu, inst, opts).with_context(|| format!("instance {k} ({})", inst.name))?;
        match groups.iter_mut().find(|g| g.n == inst.n && g.width == inst.width && g.plan == plan && g.cfg == cfg) {
            Some(g) => g.members.push(k),
            None => groups.push(Group { n: inst.n, width: inst.width, cfg, plan, members: vec![k] }),
        }
    }
    for g in &groups {
        for (k, sol) in g.run(gpu, instances, opts, interrupt)? {
            out[k] = Some(sol);
        }
    }
    Ok(out.into_iter().map(|s| s.expect("every instance answered")).collect())
}

/// Instance `k` proven optimal by the exact method, if it is within the node budget.
fn prove(inst: &Instance, opts: &Options, k: usize, interrupt: &AtomicBool) -> Option<Solution> {
    let t0 = Instant::now();
    let opt = exact::solve(inst, crate::run::exact_budget(true), &|| interrupt.load(Ordering::Relaxed))?;
    let out = Outcome {
        cost: opt.cost,
        perm: opt.perm,
        time_to_target_s: None,
        elapsed_s: t0.elapsed().as_secs_f64(),
        counters: Counters { iterations: opt.nodes, unit: exact::UNIT, ..Counters::default() },
        interrupted: false,
        stopped: Stopped::ProvenOptimal,
        last_improvement_s: None,
    };
    let mut sol = Solution::new(inst, &out, &exact::info(), super::instance_seed(opts.seed, k), None, None).ok()?;
    sol.stop_rule = opts.stop;
    Some(sol)
}

/// The walks' configuration and plan of `inst` alone (`ts::walk_config`).
fn plan_of(backend: &Backend, gpu: &Gpu, inst: &Instance, opts: &Options) -> Result<(AcoConfig, Plan)> {
    let cfg = ts::walk_config(backend, inst, opts)?;
    let plan = search::plan_or_explain(gpu, inst, &search::request(inst, &cfg))?;
    Ok((cfg, plan))
}

/// Instances of one size, element type, configuration and plan: one launch runs them all.
struct Group {
    n: usize,
    width: ElemWidth,
    cfg: AcoConfig,
    plan: Plan,
    /// Their indices in the batch.
    members: Vec<usize>,
}

impl Group {
    /// The group in chunks of as many instances as the GPU's free memory and grid hold.
    fn run(
        &self,
        gpu: &Gpu,
        instances: &[Instance],
        opts: &Options,
        interrupt: &AtomicBool,
    ) -> Result<Vec<(usize, Solution)>> {
        let kernel = search::load(gpu, self.plan.kernel)?;
        let layout = self.plan.layout;
        kernel.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            layout.dynamic_shared as i32,
        )?;
        let wave = resident_blocks(gpu, &kernel, &layout, self.plan.registers) as usize;
        // The GPU filled where the group is small, at least `BATCH_MIN_WALKS` an instance.
        let walks = match opts.aco.ants {
            Some(m) => m as usize,
            None => (wave / self.members.len()).clamp(BATCH_MIN_WALKS, MAX_ANTS as usize),
        };
        let per_instance = self.bytes_per_instance(walks);
        let (free, _) = gpu.ctx.mem_get_info().context("querying free GPU memory")?;
        let fit = ((free as u128 * 4 / 5) / per_instance.max(1)) as usize;
        anyhow::ensure!(
            fit >= 1,
            "a batch instance of n = {} with {walks} walks needs {per_instance} bytes of GPU memory, more than the {free} free; lower --ants",
            self.n
        );
        let mut out = Vec::with_capacity(self.members.len());
        for chunk in self.members.chunks(fit.min(MAX_GRID_Y)) {
            let items: Vec<(usize, &Instance)> = chunk.iter().map(|&k| (k, &instances[k])).collect();
            let mut engine = BatchGpu::new(gpu, self, &kernel, &items, walks, opts)?;
            out.extend(engine.run(opts, interrupt)?);
        }
        Ok(out)
    }

    /// Device memory of one instance with `walks` walks: its colony's, its matrices (and β),
    /// its best and its parameter block.
    fn bytes_per_instance(&self, walks: usize) -> u128 {
        let elem = self.width.bytes() as u128;
        let matrices = 3 * (self.n * self.n) as u128 * elem;
        self.plan.layout.colony_memory(walks, true).total
            + matrices
            + size_of::<AcoBest>() as u128
            + size_of::<AcoParams>() as u128
    }
}

/// One chunk's buffers, kernels and per-instance state.
struct BatchGpu<'a> {
    gpu: &'a Gpu,
    group: &'a Group,
    kernel: &'a CudaFunction,
    init: CudaFunction,
    best_kernel: CudaFunction,
    items: &'a [(usize, &'a Instance)],
    walks: usize,
    site: Site,
    /// Every instance's parameter block, in `items`' order.
    params: Vec<AcoParams>,
    /// The array of the launch (the active instances' blocks).
    launch_params: CudaSlice<u8>,
    best: CudaSlice<u8>,
    cant_costs: CudaSlice<i64>,
    cants: CudaSlice<u8>,
    /// The rest of the buffers, held for the kernels.
    _held: Vec<CudaSlice<u8>>,
    _held_words: Vec<CudaSlice<u32>>,
    _held_costs: Vec<CudaSlice<i64>>,
    _held_tabu: CudaSlice<i32>,
    _held_pairs: CudaSlice<u16>,
}

impl<'a> BatchGpu<'a> {
    /// The buffers of `items` (instances of `group`), `walks` walks each, every walk drawn
    /// from its instance's seed.
    fn new(
        gpu: &'a Gpu,
        group: &'a Group,
        kernel: &'a CudaFunction,
        items: &'a [(usize, &'a Instance)],
        walks: usize,
        opts: &Options,
    ) -> Result<BatchGpu<'a>> {
        let (layout, n, b) = (group.plan.layout, group.n, items.len());
        let shape = layout.shape;
        let s = &gpu.stream;
        let stride = n.div_ceil(16) * 16;
        let mem = layout.colony_memory(walks, true);
        // A matrix's bytes as the device holds it (`device_matrix`: padded to 16 bytes).
        let square = device_matrices(items[0].1).0.len();
        let beta: Vec<Option<Vec<i64>>> =
            items.iter().map(|(_, i)| if layout.fast_path() { i.sums_beta() } else { None }).collect();
        let (mut a_bytes, mut b_bytes, mut beta_bytes) =
            (Vec::with_capacity(b * square), Vec::with_capacity(b * square), vec![0u8; b * square]);
        for (j, (_, inst)) in items.iter().enumerate() {
            let (x, y) = device_matrices(inst);
            a_bytes.extend_from_slice(&x);
            b_bytes.extend_from_slice(&y);
            if let Some(beta) = &beta[j] {
                beta_bytes[j * square..(j + 1) * square].copy_from_slice(&device_matrix(inst.width, beta));
            }
        }
        let first: Vec<u16> = (0..shape.owners).map(|t| shape.first_pair(t) as u16).collect();
        let m = walks;
        let a = s.clone_htod(&a_bytes)?;
        let bm = s.clone_htod(&b_bytes)?;
        let b_sym = s.clone_htod(&beta_bytes)?;
        let ants = s.alloc_zeros::<u8>(b * m * stride)?;
        let cants = s.alloc_zeros::<u8>(b * m * stride)?;
        let ant_costs = s.alloc_zeros::<i64>(b * m)?;
        let cant_costs = s.alloc_zeros::<i64>(b * m)?;
        let ls_iters = s.alloc_zeros::<u32>(b * m)?;
        let rng = s.alloc_zeros::<u32>(4 * b * m)?;
        let delta = s.alloc_zeros::<u8>(b * mem.delta_bytes)?;
        let tabu = s.alloc_zeros::<i32>(b * mem.tabu_entries)?;
        let walk_counts = s.alloc_zeros::<u32>(b * m)?;
        let tables = s.alloc_zeros::<u8>((b * mem.kept_tables).max(1))?;
        let tables_ok = s.alloc_zeros::<u32>(b * m)?;
        let first_pairs = s.clone_htod(&first)?;
        let best_init: Vec<u8> = (0..b).flat_map(|_| bytes_of(&AcoBest::default()).to_vec()).collect();
        let best = s.clone_htod(&best_init)?;
        let site = Site::gpu(gpu)?;
        let cfg = &group.cfg;
        let params: Vec<AcoParams> = items
            .iter()
            .enumerate()
            .map(|(j, (k, inst))| {
                let (jm, j64) = ((j * m) as u64, j as u64);
                AcoParams {
                    a: gpu.ptr(&a) + j64 * square as u64,
                    b: gpu.ptr(&bm) + j64 * square as u64,
                    ants: gpu.ptr(&ants) + jm * stride as u64,
                    ant_costs: gpu.ptr(&ant_costs) + 8 * jm,
                    cants: gpu.ptr(&cants) + jm * stride as u64,
                    cant_costs: gpu.ptr(&cant_costs) + 8 * jm,
                    ls_iters: gpu.ptr(&ls_iters) + 4 * jm,
                    rng: gpu.ptr(&rng) + 16 * jm,
                    tau: 0,
                    delta: gpu.ptr(&delta) + j64 * mem.delta_bytes as u64,
                    tabu: gpu.ptr(&tabu) + 4 * j64 * mem.tabu_entries as u64,
                    walks: gpu.ptr(&walk_counts) + 4 * jm,
                    winners: 0,
                    tables: if mem.kept_tables > 0 { gpu.ptr(&tables) + j64 * mem.kept_tables as u64 } else { 0 },
                    tables_ok: gpu.ptr(&tables_ok) + 4 * jm,
                    donor_slots: 0,
                    elite_rows: 0,
                    elite_costs: 0,
                    elite_tables: 0,
                    elite_ok: 0,
                    hit: 0,
                    b_sym: if beta[j].is_some() { gpu.ptr(&b_sym) + j64 * square as u64 } else { 0 },
                    aspiration: cfg.aspiration,
                    first_pairs: gpu.ptr(&first_pairs),
                    best: gpu.ptr(&best) + j64 * size_of::<AcoBest>() as u64,
                    stop: site.stop.device_ptr(),
                    seed: super::instance_seed(opts.seed, *k),
                    target: NO_TARGET,
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
                    flags: ls_flags(inst, cfg, &layout, beta[j].is_some()),
                    gamma_threshold: cfg.gamma_threshold(),
                    rho: cfg.rho as f32,
                    tau_init: 0.0,
                    tau_min: 0.0,
                    tau_max: 0.0,
                    layout: layout.shared(),
                }
            })
            .collect();
        let launch_params = s.alloc_zeros::<u8>(b * size_of::<AcoParams>())?;
        let load =
            |name: &str| gpu.module.load_function(name).with_context(|| format!("kernel {name} missing from the PTX"));
        let init = load(match group.width {
            ElemWidth::U16 => "aco_init_u16",
            _ => "aco_init_i32",
        })?;
        let best_kernel = load("aco_best")?;
        Ok(BatchGpu {
            gpu,
            group,
            kernel,
            init,
            best_kernel,
            items,
            walks,
            site,
            params,
            launch_params,
            best,
            cant_costs,
            cants,
            _held: vec![a, bm, b_sym, ants, delta, tables],
            _held_words: vec![ls_iters, rng, walk_counts, tables_ok],
            _held_costs: vec![ant_costs],
            _held_tabu: tabu,
            _held_pairs: first_pairs,
        })
    }

    /// Copies the blocks of `active` (indices into `items`) to the launch array.
    fn upload(&mut self, active: &[usize]) -> Result<()> {
        let bytes: Vec<u8> = active.iter().flat_map(|&j| bytes_of(&self.params[j]).to_vec()).collect();
        self.gpu.stream.memcpy_htod(&bytes, &mut self.launch_params.slice_mut(..bytes.len()))?;
        Ok(())
    }

    /// One launch of `kernel` over `instances` instances, `x` blocks each.
    fn launch(
        &self,
        kernel: &CudaFunction,
        x: u32,
        instances: usize,
        block: u32,
        shared: u32,
        moves: Option<u32>,
    ) -> Result<()> {
        let cfg =
            LaunchConfig { grid_dim: (x, instances as u32, 1), block_dim: (block, 1, 1), shared_mem_bytes: shared };
        let mut l = self.gpu.stream.launch_builder(kernel);
        l.arg(&self.launch_params);
        if let Some(m) = &moves {
            l.arg(m);
        }
        // SAFETY: the array holds `instances` parameter blocks, each pointing at buffers sized
        // for `walks` walks of its instance under the group's plan; the walk kernel gets its
        // moves, the others nothing more.
        unsafe { l.launch(cfg) }?;
        Ok(())
    }

    /// Every instance's best block, as the device holds it.
    fn read_bests(&self) -> Result<Vec<AcoBest>> {
        let bytes = self.gpu.stream.clone_dtoh(&self.best)?;
        Ok(bytes.chunks_exact(size_of::<AcoBest>()).map(from_bytes).collect())
    }

    /// Runs every instance to convergence (under `StopRule::Converged`), the time limit or
    /// `interrupt`, and returns their solutions.
    fn run(&mut self, opts: &Options, interrupt: &AtomicBool) -> Result<Vec<(usize, Solution)>> {
        let (b, m, n) = (self.items.len(), self.walks as u32, self.group.n);
        let layout = self.group.plan.layout;
        let word = self.site.stop.clone();
        word.clear();
        let deadline = opts.time_limit.and_then(|t| Instant::now().checked_add(t));
        let start = Instant::now();
        let converging = opts.stop == StopRule::Converged;
        let floors: Vec<f64> = self.items.iter().map(|(_, i)| policy::converged_floor_s(i)).collect();
        let settle = (policy::settle_moves(n).div_ceil(u64::from(m))).max(CONVERGED_SETTLE_PER_N * n as u64);
        let mut conv: Vec<Option<Convergence>> = vec![None; b];
        let mut ended: Vec<Option<(Stopped, f64)>> = vec![None; b];
        let mut active: Vec<usize> = (0..b).collect();
        let full = self.group.cfg.ls_iterations.max(1);
        let most = if layout.tabu_entry == 2 { narrow_tabu::LAUNCH_MAX } else { u32::MAX };
        let best_shared = BEST_THREADS / 32 * LS_SCRATCH_PER_WARP;
        with_watchdog(&word, deadline, interrupt, || -> Result<()> {
            self.upload(&active)?;
            let init_shared = MAX_N as u32 + INIT_THREADS / 32 * LS_SCRATCH_PER_WARP;
            self.launch(&self.init, m, b, INIT_THREADS, init_shared, None)?;
            let mut moves_done: u64 = 0;
            while !active.is_empty() {
                // The ramp of `ts` under the `converged` rule: each launch as many moves as
                // all before it, from `CONVERGED_RAMP_MOVES` to the launch's.
                let mut left = moves_done.clamp(u64::from(CONVERGED_RAMP_MOVES), u64::from(full)) as u32;
                moves_done += u64::from(left);
                while left > 0 {
                    let moves = left.min(most);
                    self.launch(
                        self.kernel,
                        m,
                        active.len(),
                        layout.shape.launched(),
                        layout.dynamic_shared,
                        Some(moves),
                    )?;
                    left -= moves;
                }
                self.launch(&self.best_kernel, 1, active.len(), BEST_THREADS, best_shared, None)?;
                let bests = self.read_bests()?;
                let elapsed = start.elapsed().as_secs_f64();
                let stopped = word.is_set();
                let mut still = Vec::with_capacity(active.len());
                for &j in &active {
                    let c = conv[j].get_or_insert_with(|| Convergence::new(elapsed, bests[j].cost, floors[j]));
                    c.step();
                    c.see(elapsed, bests[j].cost);
                    if moves_done < settle {
                        c.hold(elapsed);
                    }
                    if stopped {
                        let why =
                            if interrupt.load(Ordering::Relaxed) { Stopped::Interrupted } else { Stopped::TimeLimit };
                        ended[j] = Some((why, elapsed));
                    } else if converging && c.converged(elapsed) {
                        ended[j] = Some((Stopped::Converged, elapsed));
                    } else {
                        still.push(j);
                    }
                }
                if still.len() != active.len() && !still.is_empty() {
                    self.upload(&still)?;
                }
                active = still;
            }
            Ok(())
        })?;
        self.gpu.stream.synchronize().context("batch kernel failed")?;
        self.answers(opts, &conv, &ended, interrupt.load(Ordering::Relaxed))
    }

    /// Each instance's best (or, where no walk has finished a launch, its best start),
    /// re-costed by `Solution::new`.
    fn answers(
        &self,
        opts: &Options,
        conv: &[Option<Convergence>],
        ended: &[Option<(Stopped, f64)>],
        interrupted: bool,
    ) -> Result<Vec<(usize, Solution)>> {
        let bests = self.read_bests()?;
        let (m, n) = (self.walks, self.group.n);
        let stride = n.div_ceil(16) * 16;
        let layout = self.group.plan.layout;
        let info = SolverInfo {
            algorithm: ts::TS.name,
            engine: "gpu",
            device: self.site.device.clone(),
            layout: format!(
                "batch of {} instances of n = {n}, {m} walks of robust tabu search each, {} threads per walk",
                self.items.len(),
                layout.shape.launched()
            ),
            blocks: m as u32,
            threads_per_block: layout.shape.launched(),
        };
        let mut out = Vec::with_capacity(self.items.len());
        for (j, &(k, inst)) in self.items.iter().enumerate() {
            let b = bests[j];
            let (cost, perm) = if b.cost == i64::MAX {
                let costs = self.gpu.stream.clone_dtoh(&self.cant_costs.slice(j * m..(j + 1) * m))?;
                let (w, &c) = costs.iter().enumerate().min_by_key(|(_, c)| **c).expect("at least one walk");
                let row = (j * m + w) * stride;
                (c, self.gpu.stream.clone_dtoh(&self.cants.slice(row..row + n))?)
            } else {
                (b.cost, b.perm[..n].to_vec())
            };
            let (stopped, elapsed_s) = ended[j].unwrap_or((Stopped::TimeLimit, 0.0));
            let out_k = Outcome {
                cost,
                perm,
                time_to_target_s: None,
                elapsed_s,
                counters: Counters {
                    iterations: b.ls_total,
                    unit: UNIT,
                    evaluations: b.ls_total * u64::from(layout.shape.moves),
                    ..Counters::default()
                },
                interrupted,
                stopped,
                last_improvement_s: conv[j].as_ref().map(Convergence::last_improvement_s),
            };
            let mut sol = Solution::new(inst, &out_k, &info, super::instance_seed(opts.seed, k), None, opts.known)
                .with_context(|| format!("instance {k} ({})", inst.name))?;
            sol.stop_rule = opts.stop;
            out.push((k, sol));
        }
        Ok(out)
    }
}
