//! `ts`: a device-resident multi-start robust tabu search. Hundreds to thousands of
//! independent Ro-TS walks, one block each, every walk going on from launch to launch with
//! its own tabu matrix, iteration count and best (the `ts_walk` kernels, `ls::tabu_walk` on
//! the CPU); no construction, no pheromone, no host work between launches but reading the
//! best (and choosing a diverse elite, below). The run's target is checked inside the
//! search: the block that reaches it writes the stop word and every walk stops at its next
//! poll.
//!
//! The walks also "go with the winners" (`Regroup`): every so many moves, a small kernel
//! ranks them by current cost and copies the best quarter's solutions aside, and every other
//! walk starts its next launch from one of those copies, queued behind the walk launches
//! without a wait. On the GPU for n from `DEFAULT_REGROUP_MIN_N` to `DEFAULT_REGROUP_MAX_N`
//! they do so by default, twice (on uniform random data four times) 32 moves at a run's
//! start, and on uniform data above n = 40 (up to `UNIFORM_REGROUP_MAX_N`) every 768 or 1024
//! moves all run long (512 at the long effort, `LONG_REGROUP_EVERY`), where the walks become
//! the population of one search
//! (`default_regroup`); `--regroup-every` sets it anywhere, and `--regroup-every 0` turns it
//! off. Above n = 64 the elite is also kept diverse (`regroup_distance`, `elite`): a walk is
//! elite only where its solution differs from every better elite walk's in half the
//! positions or more. That choice is made on the host, from the walks' solutions read after
//! each launch (a wait a regrouping, 3–4 % of the moves at n = 80). Where the walks regroup
//! four rounds (uniform data, n = 30 to 40) they also start afresh from new random solutions
//! after 256 moves, then after cycles twice as long, at most 4 times (`restart_cycle`): the
//! rare run whose walks crowd far from the target starts over instead of walking on for
//! thousands of moves. `--restart-after` starts every walk afresh once their bests stall
//! (`restart_after`). On the GPU, on data whose swaps are a quarter or more null from n = 151
//! (`policy::null_swap_rich`: tai256c), the walks regroup all along onto the diverse elite
//! too (`null_swap_regroup`).
//!
//! Every default and threshold named here is a row of the policy table (`algo::policy`),
//! with the measurement behind it; `TsOptions` holds the command line's settings of its own.
//!
//! The engines are the ACO family's (`algo::aco::{gpu, cpu}`) in walk mode
//! (`AcoConfig::walk`): the same parameter block and thread mappings; by default the sums
//! layout where it applies (`AcoConfig::layout_rule`, `aco::settle`). The walks' own engine
//! code is here, in `gpu.rs` and `cpu.rs`. From `--algo ts` to its kernels, four files:
//! 1. `host/src/algo/ts/mod.rs`, this file: the family (`TS`), its options (`TsOptions`) and
//!    its driver (`TsSolver`, on the engine of `walk_engine`).
//! 2. `host/src/algo/ts/gpu.rs`: the walk launches (`AcoGpu::walk_launches`) and the
//!    regroupings; the kernel launched is the plan's (`search::plan`, for `Role::Walk`).
//! 3. `common/src/search/kernels.rs`: the table naming every local-search kernel, the walks'
//!    `ts_walk_*`, `ts_sums_fast_walk_*` and the rest, with body and role.
//! 4. `device/src/search/kernels.rs`: the entries, instantiated from that table.
//!
//! The regrouping kernels are in `device/src/ts/mod.rs`.
pub mod cpu;
pub mod elite;
pub mod gpu;
pub mod perturb;
pub mod wide;

use super::aco::{self, AcoConfig, AcoEngine, LayoutRule};
use super::policy::{
    self, ASPIRATION_FACTOR, CONVERGED_RAMP_MOVES, CONVERGED_SETTLE_PER_N, CPU_TABU_START, CPU_TENURE_LAW,
    CPU_TENURE_PER_MOVE, DEFAULT_REGROUP_EVERY, DEFAULT_REGROUP_MAX_N, DEFAULT_REGROUP_MIN_N, DEFAULT_REGROUP_ROUNDS,
    DEFAULT_RESTART_CYCLE, LAUNCH_ITERATIONS, LONG_REGROUP_DISTANCE, LONG_REGROUP_EVERY, LONG_RESTART_AFTER,
    LOW_DOMINANCE, MAX_CYCLE_RESTARTS, MAX_SEGMENTS, REGROUP_KEEP, REGROUP_ROUNDS, STRUCTURED_REGROUP_ROUNDS,
    STRUCTURED_WALK_MAX_N, STRUCTURED_WALK_THREADS, TENURE_FACTOR, TENURE_LAW, TENURE_PER_MOVE, TS_LAYOUT,
    UNIFORM_REGROUP_DISTANCE, UNIFORM_REGROUP_MAX_N, UNIFORM_REGROUP_SMALL_N,
};
use super::{Backend, Family, Options, check_range};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::run::{Advance, Counters, Solver, SolverInfo, StopRule};
use anyhow::{Result, bail};
use qapgpu_common::ls::LsKind;
use qapgpu_common::mata::{MAX_THREADS, walk_split_threads};
use std::sync::Arc;

/// The registry's line of `--algo ts`.
pub const TS: Family = Family {
    name: "ts",
    about: "multi-start robust tabu search: one walk per block, going on from launch to launch, the GPU filled",
    min_n: 3,
    max_n: qapgpu_common::WIDE_MAX_N,
    build,
};

/// `ts`'s own settings of `Options` (the command line's `--regroup-every` …
/// `--regroup-distance`); unset ones take the policy table's defaults for the instance and
/// the engine (`default_regroup`, `restart_cycle`, `regroup_distance`). The walks' search
/// itself (layout, moves per launch, tenures, walks) is set by `AcoOptions`, as the colony's
/// local search is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TsOptions {
    /// Moves of every walk between two regroupings (0: never; `Regroup`).
    pub regroup_every: Option<u32>,
    /// The share of the walks the others regroup onto (None: `policy::REGROUP_KEEP`).
    pub regroup_keep: Option<f64>,
    /// Regroupings per run (0: all along).
    pub regroup_rounds: Option<u32>,
    /// Moves of every walk without a new best after which all walks restart from random
    /// solutions (0: never; `restart_after`).
    pub restart_after: Option<u32>,
    /// Moves of every walk in the walks' first cycle, after which all walks restart from
    /// random solutions, the regroupings from their first round; every later cycle is twice
    /// as long (0: never; `restart_cycle`).
    pub restart_cycle: Option<u32>,
    /// The share of n in which an elite walk's solution differs from every better elite
    /// walk's when the walks regroup (0: the best by cost alone; `regroup_distance`).
    pub regroup_distance: Option<f64>,
    /// The share of n a walk's start is perturbed in when it takes an elite walk's solution
    /// (0: an exact copy, the default; `perturb::swaps_for`).
    pub regroup_perturb: Option<f64>,
    /// The budget the defaults above are chosen for (`--effort`; `Effort::is_long`).
    pub effort: Effort,
}

/// The budget `ts`'s defaults are chosen for (`--effort`). The rules of the policy table
/// were tuned on runs of 1 s; where the walks regroup all along on uniform data (tai*a), runs
/// of 10 s end lower with other settings (`policy::LONG_RESTART_AFTER`,
/// `policy::LONG_REGROUP_DISTANCE`, `policy::LONG_REGROUP_EVERY`). Other families, and `ts` elsewhere, take the same
/// settings at either effort.
/// (The variants' comments are `--help`'s: `Auto` is long from
/// `policy::LONG_EFFORT_MIN_SECONDS`.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Effort {
    /// Long where the time limit is 10 s or more (or there is none), else short.
    #[default]
    Auto,
    /// The settings tuned for runs of about a second.
    Short,
    /// The settings tuned for runs of 10 s and more.
    Long,
}

impl Effort {
    /// Whether a run of `time_limit` (None: no limit) takes the long budget's settings.
    pub fn is_long(self, time_limit: Option<std::time::Duration>) -> bool {
        match self {
            Effort::Short => false,
            Effort::Long => true,
            Effort::Auto => time_limit.is_none_or(|t| t.as_secs_f64() >= policy::LONG_EFFORT_MIN_SECONDS),
        }
    }
}

impl TsOptions {
    /// Checks every value's range; the one-line error names the command-line option.
    pub fn validate(&self) -> Result<()> {
        let opt = |name: &str, v: Option<f64>, lo: f64, hi: f64| v.map_or(Ok(()), |v| check_range(name, v, lo, hi));
        opt("--regroup-every", self.regroup_every.map(f64::from), 0.0, i32::MAX as f64)?;
        opt("--restart-after", self.restart_after.map(f64::from), 0.0, i32::MAX as f64)?;
        opt("--restart-cycle", self.restart_cycle.map(f64::from), 0.0, i32::MAX as f64)?;
        opt("--regroup-distance", self.regroup_distance, 0.0, 1.0)?;
        opt("--regroup-perturb", self.regroup_perturb, 0.0, 1.0)?;
        if let Some(k) = self.regroup_keep
            && !(k > 0.0 && k <= 1.0)
        {
            bail!("--regroup-keep = {k}: must be in (0, 1]");
        }
        Ok(())
    }

    /// The first of the settings that regroup or restart walks given a value that would do
    /// so (`--regroup-keep` at all), by its command-line name; None where there is none.
    pub fn first_given(&self) -> Option<&'static str> {
        [
            ("--regroup-every", self.regroup_every.is_some_and(|e| e > 0)),
            ("--regroup-distance", self.regroup_distance.is_some_and(|d| d > 0.0)),
            ("--regroup-perturb", self.regroup_perturb.is_some_and(|s| s > 0.0)),
            ("--regroup-keep", self.regroup_keep.is_some()),
            ("--regroup-rounds", self.regroup_rounds.is_some_and(|r| r > 0)),
            ("--restart-after", self.restart_after.is_some_and(|e| e > 0)),
            ("--restart-cycle", self.restart_cycle.is_some_and(|e| e > 0)),
        ]
        .into_iter()
        .find_map(|(name, given)| given.then_some(name))
    }

    /// Refuses settings that would regroup or restart the walks of another family than
    /// `ts` (`family`, a registry name): only `ts` has them.
    pub fn check_family(&self, family: &str) -> Result<()> {
        match self.first_given() {
            Some(option) if family != TS.name => {
                let does = if option.starts_with("--restart") { "restarts" } else { "regroups" };
                bail!("{option}: only --algo ts {does} its walks, not {family}")
            }
            _ => Ok(()),
        }
    }
}

/// Whether the walks regroup a few rounds by default: on the GPU, for n from
/// `DEFAULT_REGROUP_MIN_N` to `DEFAULT_REGROUP_MAX_N` (`DEFAULT_REGROUP_ROUNDS` on uniform
/// data, `STRUCTURED_REGROUP_ROUNDS` on the rest).
fn rounds_by_default(n: usize, gpu: bool) -> bool {
    gpu && (DEFAULT_REGROUP_MIN_N..=DEFAULT_REGROUP_MAX_N).contains(&n)
}

/// The regrouping (every, rounds; rounds 0: all along) of a `ts` run: the command line's
/// (`--regroup-every 0`: none), else on the GPU the default for n in
/// `DEFAULT_REGROUP_MIN_N..=DEFAULT_REGROUP_MAX_N` (its rounds by `uniform`), or on
/// `uniform` data for n above that up to `UNIFORM_REGROUP_MAX_N` every
/// `policy::uniform_regroup_every(n)` moves all run long (`LONG_REGROUP_EVERY` at the `long`
/// effort), else none. The CPU runs a walk a
/// core, too few to regroup onto a share of them by default.
pub fn default_regroup(
    every: Option<u32>,
    rounds: Option<u32>,
    n: usize,
    gpu: bool,
    uniform: bool,
    long: bool,
) -> Option<(u32, u32)> {
    match every {
        Some(0) => None,
        Some(every) => Some((every, rounds.unwrap_or(REGROUP_ROUNDS))),
        None if rounds_by_default(n, gpu) => Some((
            DEFAULT_REGROUP_EVERY,
            rounds.unwrap_or(if uniform { DEFAULT_REGROUP_ROUNDS } else { STRUCTURED_REGROUP_ROUNDS }),
        )),
        None if all_along_by_default(n, gpu, uniform) => {
            let every = if long { LONG_REGROUP_EVERY } else { policy::uniform_regroup_every(n) };
            Some((every, rounds.unwrap_or(0)))
        }
        None => None,
    }
}

/// Moves of every walk without a new best of theirs after which all walks restart from
/// random solutions, the run's best kept (`--restart-after`; None or 0: never, the default).
/// On tai*a, where the walks go with the winners all along, they stall for seconds after the
/// first 0.1–0.8 s (`solve --trace`). Starting them afresh hardly moves the 1-s gap: on the
/// H100, seeds 1–8, tai80a ended 0.391 % above the best known without, 0.374 % after 32768
/// moves and 0.395 % after 65536 (docs/benchmarks-record.md, "Restarts that draw new starts";
/// the figures of "Go with the winners all along on tai*a" came from restarts that drew the
/// first starts again).
///
/// At the long effort (`long`), on the GPU on `uniform` data where the walks regroup all
/// along by default (n above `DEFAULT_REGROUP_MAX_N` up to `UNIFORM_REGROUP_MAX_N`), the
/// default is `LONG_RESTART_AFTER`, unless the user gave `--restart-cycle` (`cycle`).
pub fn restart_after(
    after: Option<u32>,
    cycle: Option<u32>,
    n: usize,
    gpu: bool,
    uniform: bool,
    long: bool,
) -> Option<u64> {
    match after {
        Some(m) => (m > 0).then_some(u64::from(m)),
        // The user's own restarts (`--restart-cycle`) are the only ones.
        None if long && cycle.is_none() && all_along_by_default(n, gpu, uniform) => Some(u64::from(LONG_RESTART_AFTER)),
        None => None,
    }
}

/// The regrouping (every, rounds) and the elite's least distance of walks on data of
/// interchangeable facilities (`rich`: `policy::null_swap_rich` on the GPU), where the
/// command line leaves them unset: every `policy::uniform_regroup_every(n)` moves all along
/// (rounds 0 unless given) onto an elite `UNIFORM_REGROUP_DISTANCE`·n apart, the uniform
/// data's rule above n = 64. tai256c at 10 s on an H100, seeds 1–4 (the record, "Null
/// swaps"): walks that do not regroup 0.061 %, regrouping every 768 moves 0.025 %, onto the
/// diverse elite 0.0106 %; with these defaults (`auto`) 0.0098 % over seeds 1–8.
pub fn null_swap_regroup(
    every: Option<u32>,
    rounds: Option<u32>,
    distance: Option<f64>,
    n: usize,
    rich: bool,
) -> (Option<(u32, u32)>, Option<usize>) {
    if !rich {
        return (None, None);
    }
    let regroup = every.is_none().then(|| (policy::uniform_regroup_every(n), rounds.unwrap_or(0)));
    let distance = distance.is_none().then(|| ((UNIFORM_REGROUP_DISTANCE * n as f64).ceil() as usize).max(1));
    (regroup, distance)
}

/// Whether the walks regroup all along by default: on the GPU, on uniform data, n above
/// `DEFAULT_REGROUP_MAX_N` up to `UNIFORM_REGROUP_MAX_N` (`default_regroup`).
fn all_along_by_default(n: usize, gpu: bool, uniform: bool) -> bool {
    gpu && uniform && (DEFAULT_REGROUP_MAX_N + 1..=UNIFORM_REGROUP_MAX_N).contains(&n)
}

/// Moves of every walk in the walks' first cycle, after which all walks start afresh from
/// random solutions, the regroupings from their first round, the run's best kept; each later
/// cycle twice as long as the one before, so that a search that needs long walks still gets
/// them, at most `MAX_CYCLE_RESTARTS` times (`--restart-cycle`; 0: never). Default:
/// `DEFAULT_RESTART_CYCLE` on the GPU where the walks regroup four rounds by default
/// (`uniform` data, n from `DEFAULT_REGROUP_MIN_N` to `DEFAULT_REGROUP_MAX_N`), none
/// otherwise.
pub fn restart_cycle(cycle: Option<u32>, n: usize, gpu: bool, uniform: bool) -> Option<u64> {
    match cycle {
        Some(m) => (m > 0).then_some(u64::from(m)),
        None if uniform && rounds_by_default(n, gpu) => Some(u64::from(DEFAULT_RESTART_CYCLE)),
        None => None,
    }
}

/// The least number of positions in which two elite walks' solutions differ when the walks
/// regroup (`elite::diverse_winners`; None: the elite is the best walks by cost alone):
/// `--regroup-distance F` (a share of n; 0: none), else on the GPU
/// `UNIFORM_REGROUP_DISTANCE` on uniform data from n = `UNIFORM_REGROUP_SMALL_N` + 1 to
/// `UNIFORM_REGROUP_MAX_N`, where the walks regroup all along; at the long effort (`long`)
/// also `LONG_REGROUP_DISTANCE` where they regroup all along by default up to n =
/// `UNIFORM_REGROUP_SMALL_N`.
pub fn regroup_distance(share: Option<f64>, n: usize, gpu: bool, uniform: bool, long: bool) -> Option<usize> {
    let share = match share {
        Some(s) => s,
        None if all_along_by_default(n, gpu, uniform) && n > UNIFORM_REGROUP_SMALL_N => UNIFORM_REGROUP_DISTANCE,
        None if all_along_by_default(n, gpu, uniform) && long => LONG_REGROUP_DISTANCE,
        None => return None,
    };
    (share > 0.0).then(|| ((share * n as f64).ceil() as usize).max(1))
}

/// How the walks regroup: after each of their first `rounds` launches of `every` moves (at
/// most a launch's `launch` moves; `segments` of them per `advance`, at most
/// `MAX_SEGMENTS`), the walks outside the best `elite` restart from theirs (None: there is
/// nothing to regroup). After the last round, launches of `launch` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Regroup {
    /// Moves of every walk between two regroupings (at most `launch`).
    pub every: u32,
    /// Moves of every walk per launch after the last round.
    pub launch: u32,
    /// Rounds queued per `advance` (at most `MAX_SEGMENTS`).
    pub segments: u32,
    /// Regroupings per run (`u32::MAX`: all along).
    pub rounds: u32,
    /// The walks the others regroup onto (None: all of them, nothing to regroup).
    pub elite: Option<u32>,
}

impl Regroup {
    /// Every `every` of a launch's `launch` moves, `rounds` times (0: all along), onto the
    /// best `keep` of `walks` walks (at least one; None where that is all of them).
    pub fn new(every: u32, launch: u32, rounds: u32, walks: u32, keep: f64) -> Regroup {
        let every = every.clamp(1, launch.max(1));
        let elite = ((keep * walks as f64).ceil() as u32).max(1);
        let rounds = if rounds == 0 { u32::MAX } else { rounds };
        Regroup {
            every,
            launch,
            segments: launch.div_ceil(every).min(MAX_SEGMENTS),
            rounds,
            elite: (elite < walks).then_some(elite),
        }
    }
}

/// How `ts`'s walks regroup and restart, from the command line's settings and the defaults
/// for the instance (n, the GPU or not, `uniform` data, `rich` in null swaps) and the budget
/// (the effort, from `time_limit`): what `build` gives `TsSolver`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkPlan {
    /// (every, rounds; 0: all along) of the regrouping, or None.
    pub regroup: Option<(u32, u32)>,
    /// `restart_after`'s moves without a new best, or None.
    pub restart_after: Option<u64>,
    /// `restart_cycle`'s first cycle, or None.
    pub restart_cycle: Option<u64>,
    /// The elite's least distance (`regroup_distance`), or None.
    pub min_distance: Option<usize>,
}

impl WalkPlan {
    /// The plan of `x` for an instance of size n, run within `time_limit`.
    pub fn of(
        x: &TsOptions,
        time_limit: Option<std::time::Duration>,
        n: usize,
        gpu: bool,
        uniform: bool,
        rich: bool,
    ) -> WalkPlan {
        let (rich_regroup, rich_distance) =
            null_swap_regroup(x.regroup_every, x.regroup_rounds, x.regroup_distance, n, rich);
        let long = x.effort.is_long(time_limit);
        WalkPlan {
            regroup: default_regroup(x.regroup_every, x.regroup_rounds, n, gpu, uniform, long).or(rich_regroup),
            restart_after: restart_after(x.restart_after, x.restart_cycle, n, gpu, uniform, long),
            restart_cycle: restart_cycle(x.restart_cycle, n, gpu, uniform),
            min_distance: regroup_distance(x.regroup_distance, n, gpu, uniform, long).or(rich_distance),
        }
    }
}

/// The walks, regrouping where `--regroup-every` asks for it (segments of the engine's
/// launches, which `init` cuts them to).
fn build(backend: &Backend, inst: &Instance, opts: &Options) -> Result<Box<dyn Solver>> {
    if inst.n > qapgpu_common::MAX_N {
        if let Some(option) = opts.ts.first_given() {
            bail!("{option}: the walks above n = {} neither regroup nor restart; drop {option}", qapgpu_common::MAX_N);
        }
        return wide::build(backend, inst, opts);
    }
    let engine = walk_engine(backend, inst, opts)?;
    let x = &opts.ts;
    let gpu = backend.is_gpu();
    let rich = gpu && policy::null_swap_rich(inst);
    let plan = WalkPlan::of(x, opts.time_limit, inst.n, gpu, policy::is_uniform(inst), rich);
    let regroup = plan.regroup.map(|(every, rounds)| {
        let (cfg, keep) = (engine.config(), x.regroup_keep.unwrap_or(REGROUP_KEEP));
        Regroup::new(every, cfg.ls_iterations, rounds, cfg.ants, keep)
    });
    let WalkPlan { restart_after, restart_cycle, min_distance, .. } = plan;
    if x.regroup_perturb.is_some_and(|s| s > 0.0) {
        match regroup {
            None => bail!(
                "--regroup-perturb: the walks do not regroup here (n = {}, {} engine); give --regroup-every too",
                inst.n,
                if gpu { "GPU" } else { "CPU" }
            ),
            Some(Regroup { elite: None, .. }) => {
                bail!("--regroup-perturb: no walk is left outside the elite to perturb (--regroup-keep, --ants)")
            }
            Some(_) => {}
        }
    }
    let perturb = perturb::swaps_for(x.regroup_perturb.unwrap_or(policy::REGROUP_PERTURB), inst.n);
    Ok(Box::new(TsSolver {
        regroup,
        restart_after,
        restart_cycle,
        min_distance,
        perturb,
        n: inst.n,
        // Under the `converged` rule the first launches are short, so that the rule sees a
        // small instance's optimum within a millisecond of it (`CONVERGED_RAMP_MOVES`).
        ramp: (opts.stop == StopRule::Converged).then_some(CONVERGED_RAMP_MOVES),
        ..TsSolver::new(engine, opts.target)
    }))
}

/// The walks of `opts` on `backend`: Ro-TS settings, the GPU filled (one walk per CPU
/// thread on the CPU). Shared with `memetic`, whose population they are.
pub fn walk_engine(backend: &Backend, inst: &Instance, opts: &Options) -> Result<Box<dyn AcoEngine>> {
    let cfg = walk_config(backend, inst, opts)?;
    aco::engine(backend, inst, &cfg)
}

/// The configuration of `walk_engine`'s walks (and of each instance's walks in a GPU batch,
/// `batch::gpu`, which sets the walks' count itself).
pub fn walk_config(backend: &Backend, inst: &Instance, opts: &Options) -> Result<AcoConfig> {
    let mut cfg = AcoConfig::from_options(LsKind::Tabu, inst, opts);
    cfg.walk = true;
    cfg.layout = opts.aco.layout.unwrap_or(TS_LAYOUT);
    // On a GPU, a layout that does not run or fit gives way to the fastest that does; the
    // user's is kept wherever it runs at all.
    cfg.layout_rule = LayoutRule::Settle { chosen: opts.aco.layout.is_some() };
    cfg.split_threads = opts.aco.split_threads.or(Some(walk_threads(inst)));
    cfg.ls_iterations = opts.aco.ls_iterations.unwrap_or(LAUNCH_ITERATIONS);
    // Taillard's Ro-TS settings: tenures r³·8n (in half the walks), long-term aspiration
    // after 5n² iterations.
    let n = inst.n as u32;
    cfg.tabu_list_size = opts.aco.tabu_list.unwrap_or(TENURE_FACTOR * n);
    cfg.aspiration = ASPIRATION_FACTOR * n * n;
    cfg.tenure_per_move = opts.aco.tenure_per_move.unwrap_or(TENURE_PER_MOVE);
    cfg.tenure_law = opts.aco.tenure_law.unwrap_or(TENURE_LAW);
    aco::settle(backend, inst, &mut cfg)?;
    match backend {
        Backend::Gpu(_) => {
            // By default the GPU filled: as many walks as its SMs hold at once, one wave
            // (`AcoConfig::one_wave`, applied by the engine from the layout it plans).
            if opts.aco.ants.is_none() {
                (cfg.ants, cfg.one_wave) = (aco::MAX_ANTS, true);
            }
        }
        // One walk per CPU thread: the multi-start tabu search on all cores, each walk
        // starting its tabu matrix and drawing its tenures as the Ro-TS code does.
        Backend::Cpu { threads } => {
            cfg.ants = opts.aco.ants.unwrap_or(super::cpu_threads(*threads) as u32);
            cfg.tabu_start = CPU_TABU_START;
            cfg.tenure_law = opts.aco.tenure_law.unwrap_or(CPU_TENURE_LAW);
            cfg.tenure_per_move = opts.aco.tenure_per_move.unwrap_or(CPU_TENURE_PER_MOVE);
        }
    }
    Ok(cfg)
}

/// Threads a walk by default: a quarter of a thread a move (`mata::walk_split_threads`), at
/// most `STRUCTURED_WALK_THREADS` on structured data up to n = `STRUCTURED_WALK_MAX_N`.
pub fn walk_threads(inst: &Instance) -> u32 {
    let quarter = walk_split_threads(inst.n as u32, MAX_THREADS);
    if inst.n <= STRUCTURED_WALK_MAX_N && policy::max_dominance(inst) >= LOW_DOMINANCE {
        quarter.min(STRUCTURED_WALK_THREADS)
    } else {
        quarter
    }
}

/// The driver: random starts, then one launch of every walk per `advance`.
pub struct TsSolver {
    engine: Box<dyn AcoEngine>,
    target: Option<i64>,
    /// None: one launch of every walk an `advance`.
    regroup: Option<Regroup>,
    /// Regroupings left in this run.
    rounds_left: u32,
    /// Moves of every walk without a new best after which all walks restart afresh.
    restart_after: Option<u64>,
    /// Moves of every walk in the first cycle, after which all walks restart afresh
    /// (`restart_cycle`), the moves made in the current cycle, and the cycles' restarts.
    restart_cycle: Option<u64>,
    cycle_moves: u64,
    cycle_restarts: u64,
    /// Moves of every walk per launch outside the regrouping rounds.
    launch: u32,
    /// Moves of the first long launch (None: every long launch is `launch`;
    /// `policy::CONVERGED_RAMP_MOVES` under the `converged` rule); each next one makes as
    /// many moves as all before it, up to `launch`. And the long launches' moves so far.
    ramp: Option<u32>,
    long_moves: u64,
    /// The least distance between two elite walks' solutions (`regroup_distance`), and n.
    min_distance: Option<usize>,
    n: usize,
    /// The walks taking an elite walk's solution take it after this many random exchanges
    /// (None: exact copies), and the regroupings perturbed so far (each draws its own).
    perturb: Option<u32>,
    perturbed: u32,
    /// The best of the walks since they last started afresh, and every walk's moves since it
    /// last fell.
    best: i64,
    stalled: u64,
    restarts: u64,
}

impl TsSolver {
    /// The driver of `engine`'s walks, plain ones (no regrouping, no restarts) until the
    /// target `target` (None: the time limit alone).
    pub fn new(engine: Box<dyn AcoEngine>, target: Option<i64>) -> TsSolver {
        let launch = engine.config().ls_iterations;
        TsSolver {
            engine,
            target,
            regroup: None,
            rounds_left: 0,
            restart_after: None,
            restart_cycle: None,
            cycle_moves: 0,
            cycle_restarts: 0,
            launch,
            ramp: None,
            long_moves: 0,
            min_distance: None,
            n: 0,
            perturb: None,
            perturbed: 0,
            best: i64::MAX,
            stalled: 0,
            restarts: 0,
        }
    }

    /// Every walk from a random solution with a fresh tabu memory, the regroupings from
    /// their first round (a run's start; the best so far is kept).
    fn start_walks(&mut self) -> Result<()> {
        if let Some(r) = self.regroup {
            self.rounds_left = r.rounds;
            self.engine.set_ls_iterations(r.every)?;
        }
        self.cycle_moves = 0;
        self.engine.random_ants()
    }

    /// A regrouping ranked on the host onto an elite at least `d` positions apart, queued:
    /// returns the elite's size (fewer than `elite` where too few walks stand far enough
    /// apart).
    fn regroup_on_host(&mut self, elite: u32, d: usize) -> Result<u32> {
        if self.engine.site().stop.is_set() {
            return Ok(elite);
        }
        let (rows, stride, costs) = self.engine.currents()?;
        let (winners, e) = elite::diverse_winners(&rows, stride, self.n, &costs, elite as usize, d);
        self.engine.regroup_ranked(&winners, e)?;
        Ok(e)
    }

    /// A regrouping onto the best `elite` walks (a diverse elite where `min_distance` says
    /// so), the walks it moved perturbed where `perturb` says so; queued.
    fn regroup_elite(&mut self, elite: u32) -> Result<()> {
        let elite = match self.min_distance {
            Some(d) => self.regroup_on_host(elite, d)?,
            None => {
                self.engine.regroup(elite)?;
                elite
            }
        };
        if let Some(swaps) = self.perturb {
            self.engine.perturb_walks(elite, swaps, self.perturbed)?;
            self.perturbed = self.perturbed.wrapping_add(1);
        }
        Ok(())
    }

    /// The current cycle's moves: the first cycle's, doubled at every restart (None: the
    /// walks do not restart in cycles, or no longer, after `MAX_CYCLE_RESTARTS`).
    fn cycle(&self) -> Option<u64> {
        self.restart_cycle
            .filter(|_| self.cycle_restarts < MAX_CYCLE_RESTARTS)
            .map(|m| m.saturating_mul(1 << self.cycle_restarts))
    }

    /// Whether the walks have made their cycle's moves (a cycle holds at least the
    /// regrouping rounds).
    fn cycle_over(&self) -> bool {
        self.cycle().is_some_and(|c| self.cycle_moves >= c)
    }

    /// Moves of the next launch outside the rounds: `launch` (or the ramp's, shorter, early in
    /// the run), cut where the cycle ends sooner. Counts the launch.
    fn long_launch(&mut self) -> u32 {
        let launch = match self.ramp {
            Some(first) => self.long_moves.clamp(u64::from(first), u64::from(self.launch)) as u32,
            None => self.launch,
        };
        let launch =
            self.cycle().map_or(launch, |c| c.saturating_sub(self.cycle_moves).clamp(1, u64::from(launch)) as u32);
        self.long_moves += u64::from(launch);
        launch
    }

    /// The walks (for `memetic`, which breeds them between launches).
    pub fn engine(&mut self) -> &mut dyn AcoEngine {
        self.engine.as_mut()
    }
}

impl Solver for TsSolver {
    fn info(&self) -> SolverInfo {
        let cfg = self.engine.config();
        let threads = self.engine.threads_per_block();
        let mapping = if threads > 1 {
            format!(", {} layout, {threads} threads per walk{}", cfg.layout.name(), self.engine.memory())
        } else {
            String::new()
        };
        let mut regroup = match self.regroup {
            Some(Regroup { elite: Some(elite), every, rounds, launch, .. }) => {
                let rounds = if rounds == u32::MAX {
                    "all along".to_string()
                } else {
                    format!("{rounds} times, then {launch} moves per launch")
                };
                let perturbed = match self.perturb {
                    Some(1) => " after a random swap".to_string(),
                    Some(swaps) => format!(" after {swaps} random swaps"),
                    None => String::new(),
                };
                format!(
                    ", walks outside the best {elite} by current cost restarting from theirs{perturbed} every {every} moves {rounds}"
                )
            }
            _ => String::new(),
        };
        if let (Some(d), Some(Regroup { elite: Some(_), .. })) = (self.min_distance, self.regroup) {
            regroup.push_str(&format!(" (an elite walk's solution at least {d} positions from every better one's)"));
        }
        if let Some(m) = self.restart_after {
            regroup.push_str(&format!(", all walks from random solutions after {m} moves without a new best"));
        }
        if self.engine.skips_null_swaps() {
            regroup.push_str(", skipping null swaps");
        }
        if let Some(m) = self.restart_cycle {
            regroup.push_str(&format!(", all walks from random solutions after {m} moves, each later cycle twice as long, at most {MAX_CYCLE_RESTARTS} times"));
        }
        SolverInfo {
            algorithm: "ts",
            engine: self.engine.site().engine,
            device: self.engine.site().device.clone(),
            layout: format!(
                "{} walks of robust tabu search, T_list = {}, {}, {} moves per launch{regroup}{mapping}",
                cfg.ants,
                cfg.tabu_list_size,
                cfg.tenure_rule(),
                self.regroup.map_or(cfg.ls_iterations, |r| r.launch)
            ),
            blocks: cfg.ants,
            threads_per_block: threads,
        }
    }

    fn stop_word(&self) -> Arc<StopWord> {
        self.engine.site().stop.clone()
    }

    fn init(&mut self) -> Result<()> {
        self.start_walks()?;
        self.advance().map(|_| ())
    }

    fn advance(&mut self) -> Result<Advance> {
        let moves = match self.regroup {
            // Queued without a wait: launches after the target or a stop end at once.
            Some(r) if self.rounds_left > 0 => {
                let segments = r.segments.min(self.rounds_left);
                for _ in 0..segments {
                    self.engine.local_search()?;
                    if let Some(elite) = r.elite {
                        self.regroup_elite(elite)?;
                    }
                    self.rounds_left -= 1;
                }
                let mut moves = u64::from(segments * r.every);
                self.cycle_moves += moves;
                if self.rounds_left == 0 && !self.cycle_over() {
                    // The first long launch queued behind the last round, not after the
                    // wait for the best: the GPU does not idle through a host round trip
                    // where the rounds end without a hit (1000 runs of tai35b on the H100:
                    // 0.01 ms sooner on average, docs/benchmarks-record.md "Launch costs again, β in
                    // B's place").
                    let long = self.long_launch();
                    self.engine.set_ls_iterations(long)?;
                    self.engine.local_search()?;
                    self.cycle_moves += u64::from(long);
                    moves += u64::from(long);
                }
                moves
            }
            _ => {
                let long = self.long_launch();
                if self.restart_cycle.is_some() || self.ramp.is_some() {
                    self.engine.set_ls_iterations(long)?;
                }
                self.engine.local_search()?;
                self.cycle_moves += u64::from(long);
                u64::from(long)
            }
        };
        let run_best = self.engine.update_best()?;
        let reached = self.target.is_some_and(|t| run_best <= t);
        // Not after a hit (the run ends with this step, its searches may still be winding
        // down).
        if let (Some(after), false) = (self.restart_after, reached) {
            // The walks' own bests, not the run's: those of walks started afresh begin far
            // above it, and they must stall before they restart again.
            let best = self.engine.unit_costs()?.into_iter().min().unwrap_or(i64::MAX);
            if best < self.best {
                (self.best, self.stalled) = (best, 0);
            } else {
                self.stalled += moves;
            }
            if self.stalled >= after && !self.engine.site().stop.is_set() {
                self.start_walks()?;
                (self.best, self.stalled, self.restarts) = (i64::MAX, 0, self.restarts + 1);
            }
        }
        if self.cycle_over() && !reached && !self.engine.site().stop.is_set() {
            self.start_walks()?;
            self.cycle_restarts += 1;
            self.restarts += 1;
        }
        Ok(Advance::Continue)
    }

    fn found(&mut self) -> Result<Option<(i64, Vec<u16>)>> {
        Ok(aco::reached(self.engine.as_mut(), self.target)?.map(crate::perm::widen_best))
    }

    fn best(&mut self) -> Result<(i64, Vec<u16>)> {
        self.engine.best().map(crate::perm::widen_best)
    }

    fn settling(&self) -> bool {
        let walks = u64::from(self.engine.config().ants.max(1));
        let per_walk = policy::settle_moves(self.n).div_ceil(walks).max(CONVERGED_SETTLE_PER_N * self.n as u64);
        self.ramp.is_some() && self.long_moves < per_walk
    }

    fn counters(&mut self) -> Result<Counters> {
        let st = self.engine.ls_stats()?;
        Ok(Counters {
            iterations: st.iterations,
            unit: "tabu moves (all walks)",
            restarts: self.restarts,
            evaluations: st.evaluations,
            search_seconds: st.seconds,
            best_at: None,
        })
    }

    /// The worst walk restarts from the immigrant with a fresh tabu memory.
    fn immigrate(&mut self, cost: i64, perm: &[u16]) -> Result<bool> {
        aco::immigrate(self.engine.as_mut(), cost, &crate::perm::narrow(perm))
    }
}

#[cfg(test)]
mod tests {
    use super::{
        Effort, Regroup, TsOptions, WalkPlan, default_regroup, null_swap_regroup, regroup_distance, restart_after,
        restart_cycle, walk_threads,
    };
    use crate::algo::policy;
    use crate::algo::policy::{
        DEFAULT_REGROUP_EVERY, DEFAULT_REGROUP_MAX_N, DEFAULT_REGROUP_MIN_N, DEFAULT_REGROUP_ROUNDS,
        DEFAULT_RESTART_CYCLE, LONG_EFFORT_MIN_SECONDS, LONG_REGROUP_EVERY, LONG_RESTART_AFTER, REGROUP_ROUNDS,
        STRUCTURED_REGROUP_ROUNDS, STRUCTURED_WALK_MAX_N, STRUCTURED_WALK_THREADS, UNIFORM_REGROUP_EVERY,
        UNIFORM_REGROUP_EVERY_SMALL, UNIFORM_REGROUP_MAX_N, UNIFORM_REGROUP_SMALL_N,
    };
    use crate::io::Instance;
    use qapgpu_common::mata::{MAX_THREADS, walk_split_threads};
    use std::time::Duration;

    #[test]
    fn small_runs_and_uniform_data_on_the_gpu_regroup_by_default_and_the_command_line_decides_otherwise() {
        for uniform in [false, true] {
            let default =
                Some((DEFAULT_REGROUP_EVERY, if uniform { DEFAULT_REGROUP_ROUNDS } else { STRUCTURED_REGROUP_ROUNDS }));
            assert_eq!(default_regroup(None, None, 35, true, uniform, false), default);
            assert_eq!(default_regroup(None, None, 40, true, uniform, false), default);
            assert_eq!(default_regroup(None, None, 30, true, uniform, false), default);
            assert_eq!(default_regroup(None, None, 29, true, uniform, false), None);
            assert_eq!(default_regroup(None, None, 35, false, uniform, false), None);
            assert_eq!(default_regroup(Some(0), None, 35, true, uniform, false), None);
            assert_eq!(default_regroup(Some(50), None, 60, false, uniform, false), Some((50, REGROUP_ROUNDS)));
            assert_eq!(default_regroup(None, Some(2), 30, true, uniform, false), Some((DEFAULT_REGROUP_EVERY, 2)));
            assert_eq!(default_regroup(None, None, UNIFORM_REGROUP_MAX_N + 1, true, uniform, false), None);
        }
        // Uniform data above n = 40, on the GPU: all along (rounds 0), unless told otherwise.
        assert_eq!(default_regroup(None, None, 41, true, true, false), Some((UNIFORM_REGROUP_EVERY_SMALL, 0)));
        assert_eq!(
            default_regroup(None, None, UNIFORM_REGROUP_SMALL_N, true, true, false),
            Some((UNIFORM_REGROUP_EVERY_SMALL, 0))
        );
        assert_eq!(
            default_regroup(None, None, UNIFORM_REGROUP_SMALL_N + 1, true, true, false),
            Some((UNIFORM_REGROUP_EVERY, 0))
        );
        assert_eq!(
            default_regroup(None, None, UNIFORM_REGROUP_MAX_N, true, true, false),
            Some((UNIFORM_REGROUP_EVERY, 0))
        );
        assert_eq!(default_regroup(None, None, 80, false, true, false), None);
        assert_eq!(default_regroup(None, None, 80, true, false, false), None);
        assert_eq!(default_regroup(None, Some(3), 80, true, true, false), Some((UNIFORM_REGROUP_EVERY, 3)));
        assert_eq!(default_regroup(Some(0), None, 80, true, true, false), None);
        // At the long effort the all-along rounds are shorter (`LONG_REGROUP_EVERY`); the
        // small runs' rounds, structured data and the command line are as at the short one.
        for n in [41, UNIFORM_REGROUP_SMALL_N, UNIFORM_REGROUP_SMALL_N + 1, UNIFORM_REGROUP_MAX_N] {
            assert_eq!(default_regroup(None, None, n, true, true, true), Some((LONG_REGROUP_EVERY, 0)), "n = {n}");
        }
        assert_eq!(
            default_regroup(None, None, 35, true, true, true),
            Some((DEFAULT_REGROUP_EVERY, DEFAULT_REGROUP_ROUNDS))
        );
        assert_eq!(default_regroup(None, None, 80, true, false, true), None);
        assert_eq!(default_regroup(Some(700), None, 80, true, true, true), Some((700, REGROUP_ROUNDS)));
        assert_eq!(default_regroup(None, Some(3), 80, true, true, true), Some((LONG_REGROUP_EVERY, 3)));
        assert_eq!(
            Regroup::new(UNIFORM_REGROUP_EVERY, 2048, 0, 264, 0.25),
            Regroup { every: 768, launch: 2048, segments: 3, rounds: u32::MAX, elite: Some(66) }
        );
    }

    #[test]
    fn the_walks_restart_by_default_where_they_regroup_four_rounds_on_the_gpu() {
        let first = Some(u64::from(DEFAULT_RESTART_CYCLE));
        for n in [DEFAULT_REGROUP_MIN_N, 35, DEFAULT_REGROUP_MAX_N] {
            assert_eq!(restart_cycle(None, n, true, true), first, "n = {n}");
            assert_eq!(restart_cycle(None, n, true, false), None, "n = {n}, structured data: two rounds");
            assert_eq!(restart_cycle(None, n, false, true), None, "n = {n} on the CPU");
            assert_eq!(restart_cycle(Some(0), n, true, true), None, "n = {n}, --restart-cycle 0");
            assert_eq!(restart_cycle(Some(300), n, true, false), Some(300), "n = {n}, --restart-cycle 300");
        }
        for n in [DEFAULT_REGROUP_MIN_N - 1, DEFAULT_REGROUP_MAX_N + 1, 80] {
            assert_eq!(restart_cycle(None, n, true, true), None, "n = {n}");
        }
        assert_eq!(restart_cycle(Some(500), 80, false, false), Some(500));
    }

    #[test]
    fn walks_over_null_swaps_regroup_all_along_onto_a_diverse_elite_unless_told_otherwise() {
        let every = policy::uniform_regroup_every(256);
        assert_eq!(null_swap_regroup(None, None, None, 256, true), (Some((every, 0)), Some(128)));
        assert_eq!(null_swap_regroup(None, Some(3), Some(0.25), 256, true), (Some((every, 3)), None));
        assert_eq!(null_swap_regroup(Some(0), None, None, 256, true), (None, Some(128)));
        assert_eq!(null_swap_regroup(None, None, None, 256, false), (None, None));
    }

    #[test]
    fn the_elite_is_kept_diverse_on_uniform_data_above_n_64_on_the_gpu_or_where_asked() {
        // Half of n, rounded up, where the walks regroup all along above n = 64.
        assert_eq!(regroup_distance(None, UNIFORM_REGROUP_SMALL_N + 1, true, true, false), Some(33));
        assert_eq!(regroup_distance(None, UNIFORM_REGROUP_MAX_N, true, true, false), Some(50));
        for (n, gpu, uniform) in [
            (UNIFORM_REGROUP_SMALL_N, true, true),
            (UNIFORM_REGROUP_MAX_N + 1, true, true),
            (80, false, true),
            (80, true, false),
        ] {
            assert_eq!(regroup_distance(None, n, gpu, uniform, false), None, "n = {n}, gpu {gpu}, uniform {uniform}");
        }
        // The command line decides: a share of n (at least one position), or 0 for none.
        assert_eq!(regroup_distance(Some(0.25), 30, false, false, false), Some(8));
        assert_eq!(regroup_distance(Some(0.001), 30, true, true, true), Some(1));
        assert_eq!(regroup_distance(Some(0.0), 80, true, true, true), None);
    }

    #[test]
    fn the_long_effort_restarts_stalled_walks_and_widens_the_small_elite_only_where_they_regroup_all_along() {
        let after = Some(u64::from(LONG_RESTART_AFTER));
        // 0.7 of n, rounded up, up to n = 64; above, the 1-s rule's half of n.
        for (n, wider) in [(41, 29), (60, 42), (UNIFORM_REGROUP_SMALL_N, 45), (65, 33), (UNIFORM_REGROUP_MAX_N, 50)] {
            assert_eq!(regroup_distance(None, n, true, true, true), Some(wider), "n = {n}");
            assert_eq!(restart_after(None, None, n, true, true, true), after, "n = {n}");
            // The short effort: no restarts, the distance of 1-s runs.
            assert_eq!(restart_after(None, None, n, true, true, false), None, "n = {n}");
            // The user's settings win at either effort; their own cycles are the only restarts.
            assert_eq!(restart_after(Some(0), None, n, true, true, true), None, "n = {n}");
            assert_eq!(restart_after(Some(500), None, n, true, true, false), Some(500), "n = {n}");
            assert_eq!(restart_after(None, Some(4096), n, true, true, true), None, "n = {n}");
            assert_eq!(regroup_distance(Some(0.0), n, true, true, true), None, "n = {n}");
        }
        assert_eq!(regroup_distance(None, 60, true, true, false), None, "n = 60 at 1 s: no diverse elite");
        for (n, gpu, uniform) in [
            (DEFAULT_REGROUP_MAX_N, true, true),
            (UNIFORM_REGROUP_MAX_N + 1, true, true),
            (80, false, true),
            (50, false, true),
            (80, true, false),
            (50, true, false),
        ] {
            assert_eq!(restart_after(None, None, n, gpu, uniform, true), None, "n = {n}, gpu {gpu}, uniform {uniform}");
            // Where the walks do not regroup all along by default (the small runs' rounds,
            // the CPU, structured data, above n = 100), the efforts regroup alike.
            assert_eq!(
                default_regroup(None, None, n, gpu, uniform, true),
                default_regroup(None, None, n, gpu, uniform, false),
                "n = {n}, gpu {gpu}, uniform {uniform}"
            );
            assert_eq!(default_regroup(Some(0), None, n, gpu, uniform, true), None, "n = {n}");
            assert_eq!(
                regroup_distance(None, n, gpu, uniform, true),
                regroup_distance(None, n, gpu, uniform, false),
                "n = {n}, gpu {gpu}, uniform {uniform}"
            );
        }
    }

    #[test]
    fn a_runs_time_limit_and_effort_choose_the_walks_plan() {
        let secs = |s: u64| Some(Duration::from_secs(s));
        let plan = |x: &TsOptions, t| WalkPlan::of(x, t, 80, true, true, false);
        let auto = TsOptions::default();
        // tai80a's shape on the GPU: 1 s is short, 10 s and no limit long.
        let short = plan(&auto, secs(1));
        assert_eq!(short.regroup, Some((UNIFORM_REGROUP_EVERY, 0)));
        assert_eq!((short.restart_after, short.min_distance), (None, Some(40)));
        for t in [secs(10), secs(60), None] {
            let long = plan(&auto, t);
            assert_eq!(long.regroup, Some((LONG_REGROUP_EVERY, 0)), "{t:?}");
            assert_eq!((long.restart_after, long.min_distance), (Some(u64::from(LONG_RESTART_AFTER)), Some(40)));
        }
        // A named effort wins over the limit; given settings win over both.
        let named = TsOptions { effort: Effort::Short, ..TsOptions::default() };
        assert_eq!(plan(&named, secs(60)), short);
        let given = TsOptions { regroup_every: Some(640), restart_after: Some(0), ..TsOptions::default() };
        assert_eq!(plan(&given, secs(60)).regroup, Some((640, REGROUP_ROUNDS)));
        assert_eq!(plan(&given, secs(60)).restart_after, None);
        // The CPU: no regrouping, no restarts at either effort.
        assert_eq!(WalkPlan::of(&auto, secs(60), 80, false, true, false).regroup, None);
        // Null swaps (n = 256 on the GPU): every 768 all along at either effort.
        let grey = |t| WalkPlan::of(&auto, t, 256, true, false, true).regroup;
        assert_eq!(
            (grey(secs(1)), grey(secs(60))),
            (Some((UNIFORM_REGROUP_EVERY, 0)), Some((UNIFORM_REGROUP_EVERY, 0)))
        );
    }

    #[test]
    fn the_effort_follows_the_time_limit_unless_named() {
        let secs = |s: f64| Some(Duration::from_secs_f64(s));
        assert!(Effort::Auto.is_long(secs(LONG_EFFORT_MIN_SECONDS)));
        assert!(Effort::Auto.is_long(None));
        assert!(!Effort::Auto.is_long(secs(LONG_EFFORT_MIN_SECONDS - 0.001)));
        assert!(!Effort::Auto.is_long(secs(1.0)));
        assert!(Effort::Long.is_long(secs(1.0)));
        assert!(!Effort::Short.is_long(secs(60.0)));
        assert!(!Effort::Short.is_long(None));
    }

    #[test]
    fn small_walks_on_structured_data_have_at_most_four_warps_and_others_keep_the_rule() {
        // Uniform-looking: every entry 1 or 2 (dominance about 33 %). Structured: mostly
        // zeros with a few large flows (dominance far above 100 %).
        let flat = |n: usize| (0..n * n).map(|x| 1 + (x % 2) as i64).collect::<Vec<i64>>();
        let sparse = |n: usize| (0..n * n).map(|x| if x % 37 == 0 { 500 } else { 0 }).collect::<Vec<i64>>();
        for n in [40, 50] {
            let uniform = Instance::new("flat", n, flat(n), flat(n)).unwrap();
            let structured = Instance::new("sparse", n, sparse(n), flat(n)).unwrap();
            let quarter = walk_split_threads(n as u32, MAX_THREADS);
            assert!(quarter > STRUCTURED_WALK_THREADS, "n = {n} takes {quarter} threads by the quarter rule");
            assert_eq!(walk_threads(&uniform), quarter);
            let capped = if n <= STRUCTURED_WALK_MAX_N { STRUCTURED_WALK_THREADS } else { quarter };
            assert_eq!(walk_threads(&structured), capped, "n = {n}");
        }
    }

    #[test]
    fn a_launch_splits_into_segments_and_the_elite_is_a_rounded_up_share() {
        assert_eq!(
            Regroup::new(32, 2048, 8, 792, 0.25),
            Regroup { every: 32, launch: 2048, segments: 8, rounds: 8, elite: Some(198) }
        );
        assert_eq!(
            Regroup::new(50, 120, 0, 10, 0.25),
            Regroup { every: 50, launch: 120, segments: 3, rounds: u32::MAX, elite: Some(3) }
        );
        // Longer than a launch: one segment of the launch.
        assert_eq!(Regroup::new(5000, 2048, 8, 10, 0.25).every, 2048);
        assert_eq!(Regroup::new(5000, 2048, 8, 10, 0.25).segments, 1);
        // Keeping every walk, or a single walk: nothing to regroup.
        assert_eq!(Regroup::new(32, 64, 8, 8, 1.0).elite, None);
        assert_eq!(Regroup::new(32, 64, 8, 1, 0.25).elite, None);
        assert_eq!(Regroup::new(32, 64, 8, 3, 0.01).elite, Some(1));
    }
}
