//! The GPU's batch engine: instances of one size and plan searched together, `walks` robust
//! tabu walks (blocks) an instance, every instance in the grid's y index (`engine`).
//!
//! Instances are grouped by size, element type, walk configuration and plan (`Group`); each
//! group is cut into chunks that the grid and the GPU's free memory hold (`engine::BatchGpu`,
//! one launch a step for the whole chunk). Every chunk that fits in memory at once runs in one
//! loop (`run_together`): each step queues every chunk's launches, then reads every chunk's
//! bests, so that groups of different sizes share the GPU and the clock instead of running
//! one after another. The walks an instance gets fill the GPU's resident blocks once over the
//! whole batch, at least `BATCH_MIN_WALKS`.
//!
//! Not here: regroupings and restarts (`ts`'s driver steers one instance), targets (each
//! instance runs to convergence or the time limit), and starts given by the caller.
mod engine;

use super::solve_one;
use crate::algo::aco::gpu::resident_blocks;
use crate::algo::aco::{AcoConfig, MAX_ANTS};
use crate::algo::policy::{BATCH_MIN_WALKS, EXACT_MAX_N};
use crate::algo::{Backend, Options, ts};
use crate::gpu::Gpu;
use crate::io::Instance;
use crate::run::stop::{StopWord, with_watchdog};
use crate::run::{Counters, Outcome, StopRule, Stopped, exact};
use crate::search;
use crate::site::Site;
use crate::solution::Solution;
use anyhow::{Context, Result};
use cudarc::driver::CudaFunction;
use cudarc::driver::sys::CUfunction_attribute;
use engine::BatchGpu;
use qapgpu_common::elem::ElemWidth;
use qapgpu_common::search::plan::Plan;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Most instances of one launch: the grid's y dimension.
const MAX_GRID_Y: usize = 65_535;

/// Every instance of `instances` on `gpu`: n ≤ `EXACT_MAX_N` under `StopRule::Converged` by
/// the exact method on the CPU first; families other than `ts` and `auto`, and instances the
/// GPU kernels do not take, one after another by `api::solve_on`; the rest in groups of one
/// plan, their chunks run together as memory allows.
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
    let mut plans = PlanCache::default();
    for (k, inst) in instances.iter().enumerate() {
        if out[k].is_some() {
            continue;
        }
        if !walks_family || inst.width == ElemWidth::U32 || inst.n < ts::TS.min_n {
            out[k] = Some(solve_one(&backend, inst, opts, k, interrupt)?);
            continue;
        }
        let (cfg, plan) =
            plans.get(&backend, gpu, inst, opts).with_context(|| format!("instance {k} ({})", inst.name))?;
        match groups.iter_mut().find(|g| g.n == inst.n && g.width == inst.width && g.plan == plan && g.cfg == cfg) {
            Some(g) => g.members.push(k),
            None => groups.push(Group::new(gpu, inst, cfg, plan, k)?),
        }
    }
    let total: usize = groups.iter().map(|g| g.members.len()).sum();
    for g in &mut groups {
        g.walks = walks(opts, g.wave, total);
    }
    let site = Site::gpu(gpu)?;
    let mut together: Vec<BatchGpu> = Vec::new();
    for g in &groups {
        let mut left: &[usize] = &g.members;
        while !left.is_empty() {
            let mut fit = g.fit(gpu)?;
            if fit == 0 && !together.is_empty() {
                // The chunks held so far run first, and free their memory.
                for (k, sol) in run_together(&mut together, opts, interrupt, &site.stop)? {
                    out[k] = Some(sol);
                }
                together.clear();
                fit = g.fit(gpu)?;
            }
            anyhow::ensure!(
                fit >= 1,
                "a batch instance of n = {} with {} walks needs {} bytes of GPU memory, more than is free; lower --ants",
                g.n,
                g.walks,
                g.bytes_per_instance()
            );
            let (chunk, rest) = left.split_at(fit.min(MAX_GRID_Y).min(left.len()));
            let items = chunk.iter().map(|&k| (k, &instances[k])).collect();
            together.push(BatchGpu::new(gpu, g, items, opts, site.stop.device_ptr())?);
            left = rest;
        }
    }
    for (k, sol) in run_together(&mut together, opts, interrupt, &site.stop)? {
        out[k] = Some(sol);
    }
    Ok(out.into_iter().map(|s| s.expect("every instance answered")).collect())
}

/// Walks an instance: `opts.aco.ants`, else the GPU's resident blocks (`wave`, of the
/// group's kernel) shared by the batch's `total` instances, at least `BATCH_MIN_WALKS`.
fn walks(opts: &Options, wave: usize, total: usize) -> usize {
    match opts.aco.ants {
        Some(m) => m as usize,
        None => (wave / total.max(1)).clamp(BATCH_MIN_WALKS, MAX_ANTS as usize),
    }
}

/// Runs `engines` together from their start to the end of their last instance, under one
/// clock, time limit and stop word, and returns their solutions.
fn run_together(
    engines: &mut [BatchGpu],
    opts: &Options,
    interrupt: &AtomicBool,
    word: &StopWord,
) -> Result<Vec<(usize, Solution)>> {
    word.clear();
    let deadline = opts.time_limit.and_then(|t| Instant::now().checked_add(t));
    let start = Instant::now();
    with_watchdog(word, deadline, interrupt, || -> Result<()> {
        for e in engines.iter_mut() {
            e.start()?;
        }
        loop {
            let mut searching = 0;
            for e in engines.iter_mut().filter(|e| e.searching()) {
                e.queue_step()?;
                searching += 1;
            }
            if searching == 0 {
                return Ok(());
            }
            for e in engines.iter_mut().filter(|e| e.searching()) {
                e.read_step()?;
                let why = word
                    .is_set()
                    .then(|| if interrupt.load(Ordering::Relaxed) { Stopped::Interrupted } else { Stopped::TimeLimit });
                e.end_step(start.elapsed().as_secs_f64(), why, opts.stop == StopRule::Converged)?;
            }
        }
    })?;
    let interrupted = interrupt.load(Ordering::Relaxed);
    let mut out = Vec::new();
    for e in engines.iter() {
        out.extend(e.answers(opts, interrupted)?);
    }
    Ok(out)
}

/// Instance `k` proven optimal by the exact method, if it is within the node budget.
fn prove(inst: &Instance, opts: &Options, k: usize, interrupt: &AtomicBool) -> Option<Solution> {
    let t0 = Instant::now();
    let opt = exact::solve(inst, crate::run::exact_budget(true), &|| interrupt.load(Ordering::Relaxed))?;
    let out = Outcome {
        cost: opt.cost,
        perm: crate::perm::widen(&opt.perm),
        time_to_target_s: None,
        elapsed_s: t0.elapsed().as_secs_f64(),
        counters: Counters { iterations: opt.nodes, unit: exact::UNIT, ..Counters::default() },
        interrupted: false,
        stopped: Stopped::ProvenOptimal,
        last_improvement_s: None,
        search_start_s: None,
    };
    let mut sol = Solution::new(inst, &out, &exact::info(), super::instance_seed(opts.seed, k), None, None).ok()?;
    sol.stop_rule = opts.stop;
    Some(sol)
}

/// What the walks' configuration and plan of an instance depend on: its size, element and
/// move-cost types, symmetric side, diagonals, threads a walk (`ts::walk_threads`, from its
/// dominance) and QAPLIB class (from its name).
#[derive(Clone, Copy, PartialEq)]
struct PlanKey {
    n: usize,
    width: ElemWidth,
    delta: qapgpu_common::delta::DeltaWidth,
    side: Option<qapgpu_common::sums::Side>,
    zero_diagonals: bool,
    threads: u32,
    class: crate::algo::aco::Class,
}

impl PlanKey {
    fn of(inst: &Instance) -> PlanKey {
        PlanKey {
            n: inst.n,
            width: inst.width,
            delta: inst.delta_width(),
            side: inst.sums_side(),
            zero_diagonals: inst.zero_diagonals(),
            threads: ts::walk_threads(inst),
            class: crate::algo::aco::Class::of(&inst.name),
        }
    }
}

/// The plans made so far, by key: planning asks the driver about kernels (3000 instances of
/// n = 50 spent 1.6 s before their 0.3-s search, planned one by one).
#[derive(Default)]
struct PlanCache(Vec<(PlanKey, AcoConfig, Plan)>);

impl PlanCache {
    /// The walks' configuration and plan of `inst` alone (`ts::walk_config`), made once a key.
    fn get(&mut self, backend: &Backend, gpu: &Gpu, inst: &Instance, opts: &Options) -> Result<(AcoConfig, Plan)> {
        let key = PlanKey::of(inst);
        if let Some((_, cfg, plan)) = self.0.iter().find(|(k, _, _)| *k == key) {
            return Ok((cfg.clone(), *plan));
        }
        let cfg = ts::walk_config(backend, inst, opts)?;
        let plan = search::plan_or_explain(gpu, inst, &search::request(inst, &cfg))?;
        self.0.push((key, cfg.clone(), plan));
        Ok((cfg, plan))
    }
}

/// Lets `kernel` take `bytes` of dynamic shared memory. Groups of different sizes may share
/// one kernel (one function handle of the module) with different needs, so each launch sets
/// its own (a group's set at its creation was overwritten by the next group's: "invalid
/// argument" at launch).
pub(super) fn set_shared(kernel: &CudaFunction, bytes: u32) -> Result<()> {
    kernel.set_attribute(CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes as i32)?;
    Ok(())
}

/// Instances of one size, element type, configuration and plan: one launch runs a chunk of
/// them.
struct Group {
    n: usize,
    width: ElemWidth,
    cfg: AcoConfig,
    plan: Plan,
    /// The plan's kernel, loaded with its shared memory set, and the blocks the GPU holds.
    kernel: CudaFunction,
    wave: usize,
    /// Walks an instance (`walks`).
    walks: usize,
    /// Their indices in the batch.
    members: Vec<usize>,
}

impl Group {
    /// The group of `inst` (instance `k`) under `cfg` and `plan`, its kernel loaded.
    fn new(gpu: &Gpu, inst: &Instance, cfg: AcoConfig, plan: Plan, k: usize) -> Result<Group> {
        let kernel = search::load(gpu, plan.kernel)?;
        let layout = plan.layout;
        set_shared(&kernel, layout.dynamic_shared)?;
        let wave = resident_blocks(gpu, &kernel, &layout, plan.registers) as usize;
        Ok(Group { n: inst.n, width: inst.width, cfg, plan, kernel, wave, walks: BATCH_MIN_WALKS, members: vec![k] })
    }

    /// Instances of the group that the GPU's free memory holds now (four fifths of it).
    fn fit(&self, gpu: &Gpu) -> Result<usize> {
        let (free, _) = gpu.ctx.mem_get_info().context("querying free GPU memory")?;
        Ok(((free as u128 * 4 / 5) / self.bytes_per_instance().max(1)) as usize)
    }

    /// Device memory of one instance: its colony's, its matrices (and β), its best and its
    /// parameter block.
    fn bytes_per_instance(&self) -> u128 {
        let elem = self.width.bytes() as u128;
        let matrices = 3 * (self.n * self.n).next_multiple_of(16) as u128 * elem;
        self.plan.layout.colony_memory(self.walks, true).total
            + matrices
            + size_of::<qapgpu_common::params::AcoBest>() as u128
            + size_of::<qapgpu_common::params::AcoParams>() as u128
    }
}
