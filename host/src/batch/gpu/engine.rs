//! One chunk of a group (`super::Group`): its instances' buffers and parameter blocks, the
//! launches of a step, and each instance's convergence.
//!
//! Each instance has the buffers and the parameter block (`AcoParams`) that `AcoGpu` would
//! give it alone, cut from one allocation a buffer; a launch is given the array of the
//! blocks of the instances still searching, and every block reads its own
//! (`device/src/batch.rs`). The kernels are `ts`'s walk kernel of the plan
//! (`search::plan`), `aco_init_*` and `aco_best`. After a step the host reads every
//! instance's best (`AcoBest`, one copy) and drops the instances that have converged
//! (`run::Convergence`, on the batch's clock) from the next step's array.
use super::Group;
use crate::algo::aco::gpu::{ls_flags, settings};
use crate::algo::policy::{self, CONVERGED_RAMP_MOVES, CONVERGED_SETTLE_PER_N};
use crate::algo::{Options, ts};
use crate::gpu::{Gpu, bytes_of, device_matrices, device_matrix, from_bytes};
use crate::io::Instance;
use crate::run::{Convergence, Counters, Outcome, SolverInfo, Stopped};
use crate::solution::Solution;
use anyhow::{Context, Result};
use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use qapgpu_common::MAX_N;
use qapgpu_common::aco::{BEST_THREADS, INIT_THREADS};
use qapgpu_common::elem::ElemWidth;
use qapgpu_common::layout::LS_SCRATCH_PER_WARP;
use qapgpu_common::ls::NO_TARGET;
use qapgpu_common::narrow_tabu;
use qapgpu_common::params::{AcoBest, AcoParams};

/// The "tabu moves" counter's unit, as `ts` reports it.
const UNIT: &str = "tabu moves (all walks)";

/// One chunk's buffers, kernels and per-instance state.
pub(super) struct BatchGpu<'a> {
    gpu: &'a Gpu,
    group: &'a Group,
    init: CudaFunction,
    best_kernel: CudaFunction,
    /// The chunk's instances and their indices in the batch.
    items: Vec<(usize, &'a Instance)>,
    /// Every instance's parameter block, in `items`' order.
    params: Vec<AcoParams>,
    /// The array of the launch (the searching instances' blocks).
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
    /// The instances still searching (indices into `items`), each one's record of
    /// convergence, and how and when each ended.
    active: Vec<usize>,
    conv: Vec<Option<Convergence>>,
    ended: Vec<Option<(Stopped, f64)>>,
    /// Every walk's moves so far (the same for all), the moves before the rule's clock starts
    /// (`policy::settle_moves`) and each instance's floor (`policy::converged_floor_s`).
    moves_done: u64,
    settle: u64,
    floors: Vec<f64>,
    /// The bests read after the last step.
    bests: Vec<AcoBest>,
}

impl<'a> BatchGpu<'a> {
    /// The buffers of `items` (instances of `group`), `group.walks` walks each, every walk
    /// drawn from its instance's seed; `stop` is the batch's stop word on the device.
    pub(super) fn new(
        gpu: &'a Gpu,
        group: &'a Group,
        items: Vec<(usize, &'a Instance)>,
        opts: &Options,
        stop: u64,
    ) -> Result<BatchGpu<'a>> {
        let (layout, n, b) = (group.plan.layout, group.n, items.len());
        let shape = layout.shape;
        let s = &gpu.stream;
        let stride = n.div_ceil(16) * 16;
        let mem = layout.colony_memory(group.walks, true);
        // A matrix's bytes as the device holds it (`device_matrix`: padded to 16 bytes).
        let square = device_matrices(items[0].1).0.len();
        let beta: Vec<Option<Vec<i64>>> = items
            .iter()
            .map(|(_, i): &(usize, &Instance)| if layout.fast_path() { i.sums_beta() } else { None })
            .collect();
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
        // Each instance's null-swap classes, where its walks skip them (`AcoGpu::new`'s rule:
        // off the fast path), 2n bytes an instance.
        let skip = group.cfg.skip_null_swaps && !layout.fast_path();
        let classes: Vec<Option<Vec<u8>>> =
            items.iter().map(|(_, i)| if skip { i.null_swap_classes() } else { None }).collect();
        let mut classes_bytes = vec![0u8; (b * 2 * n).max(16)];
        for (j, c) in classes.iter().enumerate() {
            if let Some(c) = c {
                classes_bytes[j * 2 * n..(j + 1) * 2 * n].copy_from_slice(c);
            }
        }
        let first: Vec<u16> = (0..shape.owners).map(|t| shape.first_pair(t) as u16).collect();
        let m = group.walks;
        let a = s.clone_htod(&a_bytes)?;
        let bm = s.clone_htod(&b_bytes)?;
        let b_sym = s.clone_htod(&beta_bytes)?;
        let null_swaps = s.clone_htod(&classes_bytes)?;
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
        let cfg = &group.cfg;
        // The buffers' addresses once, each instance's block at its offsets from them.
        let (pa, pb, pants, pant_costs, pcants, pcant_costs) =
            (gpu.ptr(&a), gpu.ptr(&bm), gpu.ptr(&ants), gpu.ptr(&ant_costs), gpu.ptr(&cants), gpu.ptr(&cant_costs));
        let (pls_iters, prng, pdelta, ptabu, pwalks, ptables, ptables_ok, pb_sym, pbest) = (
            gpu.ptr(&ls_iters),
            gpu.ptr(&rng),
            gpu.ptr(&delta),
            gpu.ptr(&tabu),
            gpu.ptr(&walk_counts),
            gpu.ptr(&tables),
            gpu.ptr(&tables_ok),
            gpu.ptr(&b_sym),
            gpu.ptr(&best),
        );
        let (pfirst_pairs, pnull_swaps) = (gpu.ptr(&first_pairs), gpu.ptr(&null_swaps));
        let (square64, stride64) = (square as u64, stride as u64);
        let params: Vec<AcoParams> = items
            .iter()
            .enumerate()
            .map(|(j, (k, inst))| {
                let (jm, j64) = ((j * m) as u64, j as u64);
                AcoParams {
                    a: pa + j64 * square64,
                    b: pb + j64 * square64,
                    ants: pants + jm * stride64,
                    ant_costs: pant_costs + 8 * jm,
                    cants: pcants + jm * stride64,
                    cant_costs: pcant_costs + 8 * jm,
                    ls_iters: pls_iters + 4 * jm,
                    rng: prng + 16 * jm,
                    delta: pdelta + j64 * mem.delta_bytes as u64,
                    tabu: ptabu + 4 * j64 * mem.tabu_entries as u64,
                    walks: pwalks + 4 * jm,
                    tables: if mem.kept_tables > 0 { ptables + j64 * mem.kept_tables as u64 } else { 0 },
                    tables_ok: ptables_ok + 4 * jm,
                    b_sym: if beta[j].is_some() { pb_sym + j64 * square64 } else { 0 },
                    null_swaps: if classes[j].is_some() { pnull_swaps + j64 * 2 * n as u64 } else { 0 },
                    first_pairs: pfirst_pairs,
                    best: pbest + j64 * size_of::<AcoBest>() as u64,
                    stop,
                    seed: crate::batch::instance_seed(opts.seed, *k),
                    target: NO_TARGET,
                    // No pheromone, no regrouping (winners, donors, elite), no mapped hit: 0.
                    ..settings(cfg, &layout, n, m, stride, ls_flags(inst, cfg, &layout, beta[j].is_some()))
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
        let floors = items.iter().map(|(_, i)| policy::converged_floor_s(i)).collect();
        let settle = policy::settle_moves(n).div_ceil(m as u64).max(CONVERGED_SETTLE_PER_N * n as u64);
        Ok(BatchGpu {
            gpu,
            group,
            init,
            best_kernel,
            params,
            launch_params,
            best,
            cant_costs,
            cants,
            _held: vec![a, bm, b_sym, ants, delta, tables, null_swaps],
            _held_words: vec![ls_iters, rng, walk_counts, tables_ok],
            _held_costs: vec![ant_costs],
            _held_tabu: tabu,
            _held_pairs: first_pairs,
            active: (0..b).collect(),
            conv: vec![None; b],
            ended: vec![None; b],
            moves_done: 0,
            settle,
            floors,
            bests: Vec::new(),
            items,
        })
    }

    /// Whether any instance of the chunk is still searching.
    pub(super) fn searching(&self) -> bool {
        !self.active.is_empty()
    }

    /// Draws every walk's start (the init kernel over the whole chunk).
    pub(super) fn start(&mut self) -> Result<()> {
        let all: Vec<usize> = (0..self.items.len()).collect();
        self.upload(&all)?;
        let shared = MAX_N as u32 + INIT_THREADS / 32 * LS_SCRATCH_PER_WARP;
        self.launch(&self.init, self.group.walks as u32, all.len(), INIT_THREADS, shared, None)
    }

    /// Queues one step of the searching instances: `ts`'s ramp under the `converged` rule
    /// (each step as many moves as all before it, from `CONVERGED_RAMP_MOVES` to the
    /// configuration's launch), in launches of at most `narrow_tabu::LAUNCH_MAX` moves on
    /// 2-byte tabu entries, then the best kernel.
    pub(super) fn queue_step(&mut self) -> Result<()> {
        let layout = self.group.plan.layout;
        let full = self.group.cfg.ls_iterations.max(1);
        let most = if layout.tabu_entry == 2 { narrow_tabu::LAUNCH_MAX } else { u32::MAX };
        let mut left = self.moves_done.clamp(u64::from(CONVERGED_RAMP_MOVES), u64::from(full)) as u32;
        self.moves_done += u64::from(left);
        let (m, b) = (self.group.walks as u32, self.active.len());
        super::set_shared(&self.group.kernel, layout.dynamic_shared)?;
        while left > 0 {
            let moves = left.min(most);
            self.launch(&self.group.kernel, m, b, layout.shape.launched(), layout.dynamic_shared, Some(moves))?;
            left -= moves;
        }
        self.launch(&self.best_kernel, 1, b, BEST_THREADS, BEST_THREADS / 32 * LS_SCRATCH_PER_WARP, None)
    }

    /// Reads every instance's best after the step (waits for it).
    pub(super) fn read_step(&mut self) -> Result<()> {
        let bytes = self.gpu.stream.clone_dtoh(&self.best)?;
        self.bests = bytes.chunks_exact(size_of::<AcoBest>()).map(from_bytes).collect();
        Ok(())
    }

    /// The step's end at `elapsed` seconds: every searching instance ends where `stopped`
    /// says why, or where it has converged (`converging`); the others go on.
    pub(super) fn end_step(&mut self, elapsed: f64, stopped: Option<Stopped>, converging: bool) -> Result<()> {
        let mut still = Vec::with_capacity(self.active.len());
        for &j in &self.active {
            let cost = self.bests[j].cost;
            let c = self.conv[j].get_or_insert_with(|| Convergence::new(elapsed, cost, self.floors[j]));
            c.step();
            c.see(elapsed, cost);
            if self.moves_done < self.settle {
                c.hold(elapsed);
            }
            if let Some(why) = stopped {
                self.ended[j] = Some((why, elapsed));
            } else if converging && c.converged(elapsed) {
                self.ended[j] = Some((Stopped::Converged, elapsed));
            } else {
                still.push(j);
            }
        }
        if still.len() != self.active.len() && !still.is_empty() {
            self.upload(&still)?;
        }
        self.active = still;
        Ok(())
    }

    /// Copies the blocks of `active` (indices into `items`) to the launch array.
    fn upload(&mut self, active: &[usize]) -> Result<()> {
        let bytes: Vec<u8> = active.iter().flat_map(|&j| bytes_of(&self.params[j]).to_vec()).collect();
        self.gpu.stream.memcpy_htod(&bytes, &mut self.launch_params.slice_mut(..bytes.len()))?;
        Ok(())
    }

    /// Queues `kernel` over `instances` instances, `x` blocks each.
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

    /// Each instance's best (or, where no walk has finished a launch, its best start),
    /// re-costed by `Solution::new`.
    pub(super) fn answers(&self, opts: &Options, interrupted: bool) -> Result<Vec<(usize, Solution)>> {
        let bytes = self.gpu.stream.clone_dtoh(&self.best)?;
        let bests: Vec<AcoBest> = bytes.chunks_exact(size_of::<AcoBest>()).map(from_bytes).collect();
        let (m, n) = (self.group.walks, self.group.n);
        let stride = n.div_ceil(16) * 16;
        let layout = self.group.plan.layout;
        let info = SolverInfo {
            algorithm: ts::TS.name,
            engine: "gpu",
            device: self.gpu.describe(),
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
                (c, crate::perm::widen(&self.gpu.stream.clone_dtoh(&self.cants.slice(row..row + n))?))
            } else {
                (b.cost, crate::perm::widen(&b.perm[..n]))
            };
            let (stopped, elapsed_s) = self.ended[j].unwrap_or((Stopped::TimeLimit, 0.0));
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
                last_improvement_s: self.conv[j].as_ref().map(Convergence::last_improvement_s),
                search_start_s: self.conv[j].as_ref().map(|_| 0.0),
            };
            let mut sol =
                Solution::new(inst, &out_k, &info, crate::batch::instance_seed(opts.seed, k), None, opts.known)
                    .with_context(|| format!("instance {k} ({})", inst.name))?;
            sol.stop_rule = opts.stop;
            out.push((k, sol));
        }
        Ok(out)
    }
}
