//! Command-line arguments and their mapping onto `Options`. Types are parsed here; ranges
//! are checked once, by `Options::validate`, for the CLI and the library alike. Defaults
//! and the help's figures come from the policy table (`algo::policy`) and the families'
//! paper settings, never restated here.
use crate::algo::aco::{self, AcoOptions, Class, Layout};
use crate::algo::cga::{CgaConfig, CgaOptions, LsMapping, Pass, Topology};
use crate::algo::ga::{CountMethod, CrossoverArg, GaOptions};
use crate::algo::policy::{
    CONVERGED_FACTOR, CONVERGED_FLOOR_S, CONVERGED_MIN_STEPS, CONVERGED_PLATEAU_MIN_N, CPU_TS_MAX_N,
    DEFAULT_REGROUP_EVERY, DEFAULT_REGROUP_MAX_N, DEFAULT_REGROUP_MIN_N, DEFAULT_REGROUP_ROUNDS, DEFAULT_RESTART_CYCLE,
    EXACT_MAX_N, LONG_EFFORT_MIN_SECONDS, LONG_REGROUP_DISTANCE, LONG_REGROUP_EVERY, LONG_RESTART_AFTER,
    MAX_CYCLE_RESTARTS, NULL_SWAP_MIN_N, NULL_SWAP_SHARE, REGROUP_KEEP, REGROUP_PERTURB, REGROUP_ROUNDS,
    STRUCTURED_REGROUP_ROUNDS, STRUCTURED_WALK_MAX_N, STRUCTURED_WALK_THREADS, TENURE_FACTOR, TS_ANY_N,
    UNIFORM_REGROUP_DISTANCE, UNIFORM_REGROUP_EVERY, UNIFORM_REGROUP_EVERY_SMALL, UNIFORM_REGROUP_MAX_N,
    UNIFORM_REGROUP_SMALL_N,
};
use crate::algo::ts::{Effort, TsOptions};
use crate::algo::{AUTO, EngineChoice, FAMILIES, Options};
use crate::problems::Kind;
use crate::problems::clique::Direction;
use crate::problems::polish::Mode as PolishMode;
use crate::run::StopRule;
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, ValueEnum};
use qapgpu_common::ls::TenureLaw;
use std::path::PathBuf;
use std::time::Duration;

/// Most seconds `--time-limit` takes (about 31 years).
const MAX_SECONDS: f64 = 1e9;

/// `--time-limit`: a positive, finite number of seconds.
pub(super) fn seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s.parse().map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(v > 0.0 && v <= MAX_SECONDS) {
        return Err(format!("must be in (0, {MAX_SECONDS:e}] seconds"));
    }
    // A limit above 0 but below a nanosecond is the shortest one, not none.
    Ok(Duration::from_secs_f64(v).max(Duration::from_nanos(1)))
}

/// `--algo`: the registry's names, with their descriptions in `--help`.
pub(super) fn algorithms() -> PossibleValuesParser {
    let auto = PossibleValue::new(AUTO).help(format!(
        "the algorithm and its settings from the instance's features (the default): ts for n ≤ {TS_ANY_N} (on the CPU n ≤ {CPU_TS_MAX_N}), on the GPU for uniform random data up to n = {UNIFORM_REGROUP_MAX_N} and for data whose swaps are at least {:.0} % null from n = {NULL_SWAP_MIN_N} (grey patterns), and above n = 256 (the wide path, up to 2048); else aco-ts with a colony set for time to target",
        100.0 * NULL_SWAP_SHARE
    ));
    PossibleValuesParser::new(
        std::iter::once(auto).chain(FAMILIES.iter().map(|f| PossibleValue::new(f.name).help(f.about))),
    )
}

#[derive(Args, Clone)]
pub struct DeviceArgs {
    /// GPU engine, CPU engine, or auto (GPU when usable).
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: EngineChoice,
    /// CPU threads (0: all cores; 1: the papers' single-thread CPU column; at most 256).
    /// More than the cores set the work (walks, ants, subpopulations) but share the cores.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// One CUDA device (the same as --gpus N).
    #[arg(long, conflicts_with = "gpus")]
    pub gpu: Option<usize>,
    /// GPUs to run on, one independent search each: `auto` (the default: `solve` takes every
    /// GPU from n = 80, where runs last long enough to gain, and one below; other commands
    /// every GPU), `all`, or ordinals, e.g. 0,2 (0,0 opens two contexts on device 0).
    #[arg(long, default_value = "auto", value_parser = gpu_list)]
    pub gpus: GpuList,
    /// PTX module to load instead of the one embedded at build time.
    #[arg(long)]
    pub ptx: Option<PathBuf>,
    /// How several GPUs share the run: independent searches, islands (each device's best
    /// goes to the next along a ring every --migrate-every steps), or master-slave (aco-ts
    /// and aco-2opt: one colony, its ants split over the devices, τ kept by the host).
    #[arg(long, value_enum, default_value = "independent")]
    pub multi: crate::algo::multi::Model,
    /// Islands: solver steps (launches, cAS iterations, generations) between migrations.
    #[arg(long, default_value_t = crate::algo::multi::DEFAULT_MIGRATE_EVERY)]
    pub migrate_every: u32,
}

/// `--gpus`: as the instance suits (`policy::gpus_for`), all devices, or a list of ordinals.
#[derive(Clone, Debug)]
pub enum GpuList {
    Auto,
    All,
    Some(Vec<usize>),
}

fn gpu_list(s: &str) -> Result<GpuList, String> {
    match s {
        "auto" => return Ok(GpuList::Auto),
        "all" => return Ok(GpuList::All),
        _ => {}
    }
    let list: Result<Vec<usize>, _> = s.split(',').map(|t| t.trim().parse::<usize>()).collect();
    match list {
        Ok(v) if !v.is_empty() && v.len() <= 64 => Ok(GpuList::Some(v)),
        _ => Err(format!("`{s}` is not `auto`, `all` or a list of device ordinals (e.g. 0,1)")),
    }
}

impl DeviceArgs {
    /// The options of a run on these devices (the rest default).
    pub fn options(&self, seed: u64) -> Options {
        let gpus = match (self.gpu, &self.gpus) {
            (Some(k), _) => vec![k],
            (None, GpuList::Some(v)) => v.clone(),
            (None, GpuList::All | GpuList::Auto) => (0..crate::gpu::device_count()).collect(),
        };
        let gpu = gpus.first().copied().unwrap_or(0);
        Options {
            engine: self.engine,
            threads: self.threads,
            gpu,
            gpus,
            ptx: self.ptx.clone(),
            multi: self.multi,
            migrate_every: self.migrate_every,
            seed,
            ..Options::default()
        }
    }
}

#[derive(Args, Clone)]
pub struct GaArgs {
    /// Individuals per subpopulation (threads per block), a multiple of 32 in [32, 2048]
    /// (on the GPU: at most 1024).
    #[arg(long, default_value_t = GaOptions::default().subpop)]
    subpop: u32,
    /// Subpopulations (blocks); 0 fills the GPU (or 4 per CPU thread).
    #[arg(long, default_value_t = GaOptions::default().blocks)]
    blocks: u32,
    // Mutation rate p_m (`help::pm`).
    #[arg(long, allow_negative_numbers = true, help = help::pm())]
    pm: Option<f64>,
    /// B_rate of the restart strategy, in (0, 1].
    #[arg(long, default_value_t = GaOptions::default().b_rate, allow_negative_numbers = true)]
    b_rate: f64,
    /// Turn restarts off (default for ga-islands, as in seed 000).
    #[arg(long, conflicts_with = "restart")]
    no_restart: bool,
    /// Turn restarts on for ga-islands.
    #[arg(long)]
    restart: bool,
    /// Generations between B_count checks.
    #[arg(long, default_value_t = GaOptions::default().restart_interval)]
    restart_interval: u32,
    /// G_interval: generations between island migrations (a multiple of --restart-interval).
    #[arg(long, default_value_t = GaOptions::default().migration_interval)]
    migration_interval: u32,
    /// How the GPU counts B_count.
    #[arg(long, value_enum, default_value_t = GaOptions::default().count)]
    count: CountMethod,
    /// The GAs' crossover (seeds 000 and 001 tried OX and chose PMX).
    #[arg(long, value_enum, default_value_t = GaOptions::default().crossover)]
    crossover: CrossoverArg,
    /// ga-islands: share of all individuals each migration moves, in (0, 1]; 1 shuffles them
    /// all (seed 000), 0.05 with --migration-interval 50 is seed 000's GA-2.
    #[arg(long, default_value_t = GaOptions::default().migration_fraction)]
    migration_fraction: f64,
}

impl GaArgs {
    fn options(&self) -> GaOptions {
        GaOptions {
            subpop: self.subpop,
            blocks: self.blocks,
            pm: self.pm.unwrap_or(GaOptions::default().pm),
            b_rate: self.b_rate,
            restarts: if self.no_restart {
                Some(false)
            } else if self.restart {
                Some(true)
            } else {
                None
            },
            restart_interval: self.restart_interval,
            migration_interval: self.migration_interval,
            count: self.count,
            crossover: self.crossover,
            migration_fraction: self.migration_fraction,
        }
    }
}

/// Seed 003's settings, which the `ts` and `memetic` walks share for their search; unset
/// ones come from its Table 4 for the instance's class (or the family's defaults).
#[derive(Args, Clone)]
pub struct AcoArgs {
    /// Thread mapping of the local search's move costs (default: mata, seed 003's; for ts,
    /// memetic and auto's colonies sums where A or B is symmetric and its table fits, else
    /// split).
    #[arg(long, value_enum)]
    layout: Option<Layout>,
    /// Instance class for Table 4's defaults (default: iv for taiNNb, i otherwise).
    #[arg(long, value_enum)]
    class: Option<Class>,
    /// m: units, one block each on the GPU: the colony's ants (default n, class i, or 4n, class iv), or the walks of ts and memetic (default on the GPU: as many as it holds at once, fewer and wider above n = 256; on the CPU one a thread for ts, 16 for memetic).
    #[arg(long)]
    ants: Option<u32>,
    /// ρ: pheromone kept per iteration, in [0, 1).
    #[arg(long, allow_negative_numbers = true)]
    rho: Option<f64>,
    /// γ: share of a c-ant sampled from τ (the rest comes from its donor), in [0, 1].
    #[arg(long, allow_negative_numbers = true)]
    gamma: Option<f64>,
    /// IT_TS or IT_2OPT: iterations of one local search. Default 16n (class i) or 4n (iv).
    #[arg(long)]
    ls_iterations: Option<u32>,
    // T_list-size (`help::tabu_list`).
    #[arg(long, help = help::tabu_list())]
    tabu_list: Option<u32>,
    /// Tabu tenures: one draw per move for both entries (seed 003's reading and the Ro-TS
    /// code's, the default of aco-ts, and of ts and memetic on the CPU) or one per tabu
    /// entry (the default of ts and memetic on the GPU).
    #[arg(long, value_enum)]
    tenure: Option<TenureDraw>,
    // The tenure's distribution (`help::tenure_law`).
    #[arg(long, value_enum, help = help::tenure_law())]
    tenure_law: Option<TenureLawArg>,
    // MMAS's p_best (`help::p_best`).
    #[arg(long, help = help::p_best())]
    p_best: Option<f64>,
    /// Cut m to the ants the device runs at once (one wave of blocks on a GPU, an ant per
    /// thread on the CPU). `auto` sets it on structured instances.
    #[arg(long)]
    one_wave: bool,
    /// N_S: O(1) moves per thread. Default ⌈n/4⌉.
    #[arg(long)]
    ns: Option<u32>,
    // Threads per block of the split and sums layouts (`help::split_threads`).
    #[arg(long, help = help::split_threads())]
    split_threads: Option<u32>,
    /// IT_TOTAL: stop after this many local-search iterations in all (Table 5 uses n·50000).
    #[arg(long)]
    max_ls_iterations: Option<u64>,
    /// Keep the GPU's move costs in i64 even where the instance's entries prove that i32
    /// holds every one (the default takes i32 there: half the Δ table, 32-bit arithmetic).
    #[arg(long)]
    wide_delta: bool,
    /// Let the walks (ts, memetic) take null swaps: swaps of two facilities (or locations)
    /// that are alike, which cannot change the cost (tai256c's). By default the walks skip
    /// them, on the GPU only where the walks' plan is off the fast path (larger or asymmetric
    /// instances); the
    /// colony's searches always take them. The report says "skipping null swaps" where a run
    /// skips them. For comparison.
    #[arg(long)]
    keep_null_swaps: bool,
}

impl AcoArgs {
    pub(super) fn options(&self) -> AcoOptions {
        AcoOptions {
            layout: self.layout,
            class: self.class,
            ants: self.ants,
            rho: self.rho,
            gamma: self.gamma,
            ls_iterations: self.ls_iterations,
            tabu_list: self.tabu_list,
            tenure_per_move: self.tenure.map(|t| t == TenureDraw::Move),
            tenure_law: self.tenure_law.map(|l| match l {
                TenureLawArg::Cubic => TenureLaw::Cubic,
                TenureLawArg::Uniform => TenureLaw::Uniform,
                TenureLawArg::Mixed => TenureLaw::Mixed,
            }),
            p_best: self.p_best,
            one_wave: self.one_wave.then_some(true),
            ns: self.ns,
            split_threads: self.split_threads,
            max_ls_iterations: self.max_ls_iterations,
            wide_delta: self.wide_delta,
            keep_null_swaps: self.keep_null_swaps,
        }
    }
}

/// `ts`'s own settings (`TsOptions`); unset ones come from the policy table. Their help
/// text is built from its rows (`help`).
#[derive(Args, Clone)]
pub struct TsArgs {
    // `help::regroup_every`.
    #[arg(long, help = help::regroup_every())]
    regroup_every: Option<u32>,
    // `help::regroup_keep`.
    #[arg(long, allow_negative_numbers = true, help = help::regroup_keep())]
    regroup_keep: Option<f64>,
    // `help::regroup_rounds`.
    #[arg(long, help = help::regroup_rounds())]
    regroup_rounds: Option<u32>,
    // `help::restart_after`.
    #[arg(long, help = help::restart_after())]
    restart_after: Option<u32>,
    // `help::restart_cycle`.
    #[arg(long, help = help::restart_cycle())]
    restart_cycle: Option<u32>,
    // `help::regroup_distance`.
    #[arg(long, allow_negative_numbers = true, help = help::regroup_distance())]
    regroup_distance: Option<f64>,
    // `help::regroup_perturb`.
    #[arg(long, allow_negative_numbers = true, help = help::regroup_perturb())]
    regroup_perturb: Option<f64>,
    // `help::effort`.
    #[arg(long, value_enum, default_value = "auto", help = help::effort())]
    effort: Effort,
}

impl TsArgs {
    pub(super) fn options(&self) -> TsOptions {
        TsOptions {
            regroup_every: self.regroup_every,
            regroup_keep: self.regroup_keep,
            regroup_rounds: self.regroup_rounds,
            restart_after: self.restart_after,
            restart_cycle: self.restart_cycle,
            regroup_distance: self.regroup_distance,
            regroup_perturb: self.regroup_perturb,
            effort: self.effort,
        }
    }
}

/// Help texts with figures, built from the policy table and the families' paper settings so
/// that `--help` shows the values the code runs.
mod help {
    use super::*;

    /// `solve --stop`.
    pub fn stop() -> String {
        format!(
            "When to stop besides --target and --time-limit: `time` runs to them; `converged` also stops once the run has converged: n ≤ {EXACT_MAX_N} is solved exactly on the CPU (`stopped: proven optimal`), else the run stops after no improvement for {CONVERGED_FACTOR}× the time to its last improvement and {CONVERGED_MIN_STEPS} steps, and on uniform random data from n = {CONVERGED_PLATEAU_MIN_N} at least {CONVERGED_FLOOR_S} s. Default: converged where no target is known (no --target, --target-gap or best-known value), else time"
        )
    }

    /// `--pm`.
    pub fn pm() -> String {
        let cga = CgaConfig::paper(Pass::Greedy, Topology::N8).pm;
        format!("Mutation rate p_m, in [0, 1] (default {} for the GAs, {cga} for cga)", GaOptions::default().pm)
    }

    /// `--tabu-list`.
    pub fn tabu_list() -> String {
        format!(
            "T_list-size of the robust tabu search (tenure T·r³). Default n for the colonies, {TENURE_FACTOR}n for ts and memetic"
        )
    }

    /// `--tenure-law`.
    pub fn tenure_law() -> String {
        format!(
            "The tenure's distribution: T·r³ (seed 003; the default of the colonies), uniform in [0.9·T, 1.1·T] (Taillard's Ro-TS code, with T = n there), or mixed: T·r³ in even walks and uniform around T/4 in odd ones (the default of ts and memetic on the GPU, with T = {TENURE_FACTOR}n; on the CPU they draw T·r³)"
        )
    }

    /// `--p-best`.
    pub fn p_best() -> String {
        format!("MMAS's p_best, which sets τ_min. Default {}", aco::P_BEST)
    }

    /// `--split-threads`.
    pub fn split_threads() -> String {
        format!(
            "Threads per block of the split and sums layouts, rounded up to a warp (default: half a thread per move, a quarter for ts but at most {STRUCTURED_WALK_THREADS} on structured data up to n = {STRUCTURED_WALK_MAX_N}, 64 to 512; sums takes at least n)"
        )
    }

    /// `--regroup-every`.
    pub fn regroup_every() -> String {
        format!(
            "ts: moves of every walk between two regroupings, where the walks outside the best --regroup-keep restart from the elite's current solutions (\"go with the winners\"); 0: never. Default on the GPU: {DEFAULT_REGROUP_EVERY} for n = {DEFAULT_REGROUP_MIN_N} to {DEFAULT_REGROUP_MAX_N} ({STRUCTURED_REGROUP_ROUNDS} rounds on structured data, {DEFAULT_REGROUP_ROUNDS} on uniform random data), {UNIFORM_REGROUP_EVERY_SMALL} (n ≤ {UNIFORM_REGROUP_SMALL_N}) or {UNIFORM_REGROUP_EVERY} all along on uniform random data from n = {} to {UNIFORM_REGROUP_MAX_N} ({LONG_REGROUP_EVERY} under --effort long, which --effort auto takes from a 10-s limit, so at solve's default), {UNIFORM_REGROUP_EVERY} all along from n = {NULL_SWAP_MIN_N} where at least {:.0} % of the swaps are null (grey patterns), never otherwise (the CPU engine and n > 256 included). A value given here regroups {REGROUP_ROUNDS} times unless --regroup-rounds says otherwise (0: all along); above n = 256 the walks do not regroup. Measured in docs/benchmarks-record.md (\"Two hundred runs a target\", \"Go with the winners all along\", \"The regrouping period at 10 s\")",
            DEFAULT_REGROUP_MAX_N + 1,
            100.0 * NULL_SWAP_SHARE
        )
    }

    /// `--regroup-keep`.
    pub fn regroup_keep() -> String {
        format!(
            "ts: the share of the walks, by current cost, that the others regroup onto, in (0, 1] (default {REGROUP_KEEP})"
        )
    }

    /// `--regroup-rounds`.
    pub fn regroup_rounds() -> String {
        format!(
            "ts: regroupings per run (default {STRUCTURED_REGROUP_ROUNDS} or {DEFAULT_REGROUP_ROUNDS} where ts regroups a few rounds by default, else {REGROUP_ROUNDS}, the first read of the best's worth; 0: all along)"
        )
    }

    /// `--restart-cycle`.
    pub fn restart_cycle() -> String {
        format!(
            "ts: after this many moves of every walk, all walks restart from random solutions and regroup from their first round again (the best so far is kept); every later cycle is twice as long as the last, and after {MAX_CYCLE_RESTARTS} restarts the walks run on; 0: never. Default on the GPU: {DEFAULT_RESTART_CYCLE} for uniform random data of n = {DEFAULT_REGROUP_MIN_N} to {DEFAULT_REGROUP_MAX_N}, never otherwise. Measured in docs/benchmarks-record.md (\"Restarts that draw new starts\", \"A regrouping without a launch of its own\")"
        )
    }

    /// `--effort`.
    pub fn effort() -> String {
        let all_along = DEFAULT_REGROUP_MAX_N + 1;
        format!(
            "ts (and auto where it runs ts): the budget its defaults are chosen for. `short`: the settings tuned for runs of about a second; `long`: those tuned for 10 s and more, which differ only where the walks regroup all along on uniform data (n = {all_along} to {UNIFORM_REGROUP_MAX_N} on the GPU): every walk restarts after {LONG_RESTART_AFTER} moves without a new best (unless --restart-cycle is given), the walks regroup every {LONG_REGROUP_EVERY} moves, and up to n = {UNIFORM_REGROUP_SMALL_N} the elite is kept at least {LONG_REGROUP_DISTANCE} of n apart; `auto`: long from a --time-limit of {LONG_EFFORT_MIN_SECONDS} s up, so also at solve's default limit. --restart-after, --regroup-every and --regroup-distance, where given, win"
        )
    }

    /// `--restart-after`.
    pub fn restart_after() -> String {
        format!(
            "ts: after this many moves of every walk without a new best, all walks restart from random solutions (the best so far is kept); 0: never. Default: never, or {LONG_RESTART_AFTER} under --effort long where the walks regroup all along on uniform data (n = {} to {UNIFORM_REGROUP_MAX_N} on the GPU) and no --restart-cycle is given",
            DEFAULT_REGROUP_MAX_N + 1
        )
    }

    /// `--regroup-distance`.
    pub fn regroup_distance() -> String {
        format!(
            "ts: when the walks regroup, a walk is elite only where its solution differs from every better elite walk's in at least this share of the n positions, in [0, 1]; 0: the best by cost alone. Default: {UNIFORM_REGROUP_DISTANCE} on the GPU where the walks regroup all along on uniform data above n = {UNIFORM_REGROUP_SMALL_N}, under --effort long {LONG_REGROUP_DISTANCE} where they do so up to n = {UNIFORM_REGROUP_SMALL_N}, {UNIFORM_REGROUP_DISTANCE} where they regroup all along over null swaps (n ≥ {NULL_SWAP_MIN_N}), 0 otherwise"
        )
    }

    /// `--regroup-perturb`.
    pub fn regroup_perturb() -> String {
        format!(
            "ts: when the walks regroup, a walk outside the elite takes its elite walk's solution after ⌈F·n/2⌉ random swaps, F this value in [0, 1] (iterated tabu search's perturbation); 0: an exact copy. Only where the walks regroup (by default on the GPU for n = {DEFAULT_REGROUP_MIN_N} to {UNIFORM_REGROUP_MAX_N}, as --regroup-every says; elsewhere give --regroup-every too). A kernel queued behind the regrouping makes the swaps. Default: {REGROUP_PERTURB}"
        )
    }
}

/// `--tenure`: how a move's two tabu entries draw their tenures.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TenureDraw {
    /// Each entry its own draw.
    Entry,
    /// One draw for both entries of the move.
    Move,
}

/// `--tenure-law`: the distribution of a tenure draw (`ls::TenureLaw`).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TenureLawArg {
    /// T·r³, r uniform in [0, 1).
    Cubic,
    /// Uniform integer in [0.9·T, 1.1·T].
    Uniform,
    /// T·r³ in even walks (ants), uniform around T/4 in odd ones (the default of ts and memetic on the GPU).
    Mixed,
}

/// `--ls` of the cellular GA.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CgaPass {
    /// Evaluate every swap, apply the best improving one.
    #[value(name = "2opt")]
    TwoOpt,
    /// Apply each improving swap as soon as the scan finds it.
    Greedy,
    /// The thesis's Algorithm 16 as printed: apply a swap when its Δ is below the last
    /// applied Δ (its text describes 2opt).
    Record,
}

/// `--topology` of the cellular GA.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CgaTopology {
    /// Von Neumann: 4 neighbours.
    #[value(name = "4n")]
    N4,
    /// Moore: 8 neighbours.
    #[value(name = "8n")]
    N8,
    /// The 16 cells at distance 2.
    #[value(name = "16n")]
    N16,
    /// 4n and 16n.
    #[value(name = "20n")]
    N20,
    /// No grid: random couples (the papers' CPU variant).
    Random,
}

/// `--grid WxH`.
pub fn grid(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(|| format!("`{s}` is not WxH (e.g. 8x8)"))?;
    let num = |t: &str| t.trim().parse::<u32>().map_err(|_| format!("`{s}` is not WxH (e.g. 8x8)"));
    Ok((num(w)?, num(h)?))
}

/// The cellular GA's settings (seeds 002/004; defaults are the thesis's §4.2).
#[derive(Args, Clone)]
pub struct CgaArgs {
    /// Local search of the cellular GA.
    #[arg(long, value_enum, default_value_t = CgaPass::of(CgaOptions::default().pass))]
    ls: CgaPass,
    /// Neighbourhood on the toroidal grid.
    #[arg(long, value_enum, default_value_t = CgaTopology::of(CgaOptions::default().topology))]
    topology: CgaTopology,
    /// Grid of the population, WxH (the papers: 8x8).
    #[arg(long, default_value = "8x8", value_parser = grid)]
    grid: (u32, u32),
    /// Crossover probability p_c, in [0, 1].
    #[arg(long, default_value_t = CgaOptions::default().pc, allow_negative_numbers = true)]
    pc: f64,
    /// Transposition probability p_t, in [0, 1].
    #[arg(long, default_value_t = CgaOptions::default().pt, allow_negative_numbers = true)]
    pt: f64,
    /// GPU thread mapping of the local search (auto: gene for greedy, move for 2-opt, the
    /// faster of each as measured).
    #[arg(long, value_enum, default_value_t = CgaOptions::default().mapping)]
    ls_mapping: LsMapping,
    /// Local-search passes per individual and generation: 1 (the thesis's), K, or 0 for
    /// passes until one improves nothing (a local optimum every generation).
    #[arg(long, default_value_t = CgaOptions::default().passes)]
    ls_passes: u32,
    /// Stop after this many generations (the papers: 100).
    #[arg(long)]
    max_generations: Option<u64>,
}

impl CgaPass {
    /// The value of `pass`.
    fn of(pass: Pass) -> CgaPass {
        match pass {
            Pass::TwoOpt => CgaPass::TwoOpt,
            Pass::Greedy => CgaPass::Greedy,
            Pass::Record => CgaPass::Record,
        }
    }

    /// The cellular GA's pass it names.
    pub fn pass(self) -> Pass {
        match self {
            CgaPass::TwoOpt => Pass::TwoOpt,
            CgaPass::Greedy => Pass::Greedy,
            CgaPass::Record => Pass::Record,
        }
    }
}

impl CgaTopology {
    /// The value of `topology`.
    fn of(topology: Topology) -> CgaTopology {
        match topology {
            Topology::N4 => CgaTopology::N4,
            Topology::N8 => CgaTopology::N8,
            Topology::N16 => CgaTopology::N16,
            Topology::N20 => CgaTopology::N20,
            Topology::Random => CgaTopology::Random,
        }
    }

    /// The cellular GA's topology it names.
    pub fn topology(self) -> Topology {
        match self {
            CgaTopology::N4 => Topology::N4,
            CgaTopology::N8 => Topology::N8,
            CgaTopology::N16 => Topology::N16,
            CgaTopology::N20 => Topology::N20,
            CgaTopology::Random => Topology::Random,
        }
    }
}

impl CgaArgs {
    fn options(&self, pm: Option<f64>) -> CgaOptions {
        CgaOptions {
            pass: self.ls.pass(),
            topology: self.topology.topology(),
            grid: self.grid,
            pc: self.pc,
            pm,
            pt: self.pt,
            mapping: self.ls_mapping,
            passes: self.ls_passes,
            max_generations: self.max_generations,
        }
    }
}

#[derive(Args, Clone)]
pub struct SolveArgs {
    /// A QAPLIB .dat file, or a name looked up in $QAPLIB_DIR, else in ../shared/qaplib,
    /// else in the repository's data/qaplib (the 25 instances it ships).
    /// Without one: the embedded planted instance (n = 24, optimum known by construction).
    pub instance: Option<PathBuf>,
    /// Algorithm (default: auto, chosen from the instance's features as measured).
    #[arg(long, value_parser = algorithms())]
    pub algo: Option<String>,
    /// Stop at this cost or better.
    #[arg(long, conflicts_with = "target_gap", allow_negative_numbers = true)]
    pub target: Option<i64>,
    /// Stop within this percentage of the best known value (≥ 0).
    #[arg(long, allow_negative_numbers = true)]
    pub target_gap: Option<f64>,
    /// Best-known value (default: bks.csv or .sln beside the instance).
    #[arg(long, allow_negative_numbers = true)]
    pub known: Option<i64>,
    /// Seconds before stopping with the best found so far.
    #[arg(long, default_value = "60", value_parser = seconds, allow_negative_numbers = true)]
    pub time_limit: Duration,
    // `help::stop`.
    #[arg(long, value_enum, help = help::stop())]
    pub stop: Option<StopRule>,
    /// Run seed (default: from the clock; printed in the report).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print one JSON object on stdout instead of the text report.
    #[arg(long)]
    pub json: bool,
    /// No progress line.
    #[arg(long, short)]
    pub quiet: bool,
    /// Also write the solution as a QAPLIB .sln file.
    #[arg(long)]
    pub write_sln: Option<PathBuf>,
    /// Also write the run's convergence as CSV: seconds into the search and the best cost
    /// (and its gap to the best known, in %) at every step that improved it.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    #[command(flatten)]
    pub problem: ProblemArgs,
    #[command(flatten)]
    pub ga: GaArgs,
    #[command(flatten)]
    pub aco: AcoArgs,
    #[command(flatten)]
    pub ts: TsArgs,
    #[command(flatten)]
    pub cga: CgaArgs,
    #[command(flatten)]
    pub device: DeviceArgs,
}

impl SolveArgs {
    /// The options of this solve, for a resolved seed and target.
    pub fn options(&self, seed: u64, target: Option<i64>, known: Option<i64>) -> Options {
        Options {
            algorithm: self.algo.clone(),
            target,
            known,
            time_limit: Some(self.time_limit),
            stop: self.stop.unwrap_or(StopRule::default_for(target)),
            ga: self.ga.options(),
            aco: self.aco.options(),
            ts: self.ts.options(),
            cga: self.cga.options(self.ga.pm),
            ..self.device.options(seed)
        }
    }
}

/// Another problem posed as a QAP (`solve --problem`, `pose`).
#[derive(Args, Clone, Default)]
pub struct ProblemArgs {
    /// Solve another problem posed as a QAP: FILE is its TSPLIB file (tsp) or graph (lap,
    /// clique, gpp; packing's G1, with --graph2); boards take --k. The answer is decoded and
    /// checked.
    #[arg(long, value_enum)]
    pub problem: Option<Kind>,
    /// Packing: the second graph G2 (DIMACS or edge list), which FILE's G1 is placed on. An
    /// option of its own, so that FILE stays one path for every problem.
    #[arg(long, value_name = "FILE")]
    pub graph2: Option<PathBuf>,
    /// Board side (knight, rooks, queens, bishops; 2..=16), parts (gpp; default 2), or the
    /// one clique size to look for (clique; default: search).
    #[arg(long)]
    pub k: Option<usize>,
    /// Knight: an open tour instead of a closed one.
    #[arg(long)]
    pub open_tour: bool,
    /// Clique: walk k up from 2, or down from the degeneracy bound (each k gets
    /// --time-limit).
    #[arg(long, value_enum, default_value = "up")]
    pub clique_search: Direction,
    /// Improvement in the problem's own terms beside the QAP search (tours: 2-opt and
    /// Or-opt; cliques: add and 1-swap plateau moves; partitions: pair swaps between parts;
    /// arrangements: adjacent swaps; packings: swaps that lower the collisions): `ils`
    /// iterates it with kicks all along the run, `descent` takes each answer to a local
    /// optimum, `none` leaves the QAP search alone. The construction heuristics' starts are
    /// handed to the search in every mode. Default: ils.
    #[arg(long, value_enum)]
    pub polish: Option<PolishMode>,
}

/// `qapgpu pose`: write a problem's QAP as a QAPLIB .dat file.
#[derive(Args, Clone)]
pub struct PoseArgs {
    #[arg(value_enum)]
    pub problem: Kind,
    /// The TSPLIB file (tsp) or graph (lap, clique, gpp; packing's G1); none for the boards.
    pub file: Option<PathBuf>,
    /// Packing: the second graph G2 (as `solve --graph2`).
    #[arg(long, value_name = "FILE")]
    pub graph2: Option<PathBuf>,
    /// Board side (boards), clique size (clique, required), parts (gpp; default 2).
    #[arg(long)]
    pub k: Option<usize>,
    /// Knight: an open tour instead of a closed one.
    #[arg(long)]
    pub open_tour: bool,
    /// Output file (default: standard output).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Protocol {
    /// Seed 001, Tables II/III: independent runs, 1 block vs p blocks, gamma model; Fig. 6's
    /// least-squares fits of the single-block times (fit-INSTANCE.svg).
    #[value(name = "001")]
    Independent,
    /// Seed 001, Table I: single-block runs without and with restarts.
    #[value(name = "001-restart")]
    Restart001,
    /// Seed 001, Table III: one population on one CPU thread, its size tuned (Model I) or
    /// 128 (Model II).
    #[value(name = "001-cpu")]
    Cpu001,
    /// Seed 000, Table 1: island GA with total population 128 × B × k.
    #[value(name = "000")]
    Islands,
    /// Seed 003, Table 5: ACO + tabu search for IT_TOTAL = n·50000 iterations or the optimum.
    #[value(name = "003-fixed")]
    AcoFixed,
    /// Seed 003, Table 6: ACO + tabu search / 2-opt to the acceptable cost.
    #[value(name = "003-target")]
    AcoTarget,
    /// Seed 003, Table 2: the time split of ACO + tabu search over construction, local
    /// search and trail update, under Table 5's conditions (the paper's: --engine cpu
    /// --threads 1).
    #[value(name = "003-profile")]
    AcoProfile,
    /// Seed 002, Tables 1 and 2: cellular GA, 4n and 8n, greedy 2-opt, and the CPU variant.
    #[value(name = "002")]
    Cellular002,
    /// Seed 004, Tables 4.1–4.10 and 4.14–4.16: cellular GA, four topologies, both local
    /// searches, the CPU variant, Wilcoxon tests.
    #[value(name = "004")]
    Cellular004,
    /// Time to the best-known value for several algorithms on the same instances.
    Compare,
    /// Other problems posed as QAPs (generated instances with known answers), GPU and CPU.
    Problems,
    /// Time to target of several algorithms, R runs each, with time-to-target plots (SVG).
    Ttt,
    /// Every QAPLIB instance with a best-known value for --time-limit each: final gaps.
    Gaps,
}

impl Protocol {
    /// A paper's protocol, which sets its own ACO options (the others take `BenchArgs::aco`).
    pub fn is_papers(self) -> bool {
        matches!(
            self,
            Protocol::Independent
                | Protocol::Restart001
                | Protocol::Cpu001
                | Protocol::Islands
                | Protocol::AcoFixed
                | Protocol::AcoTarget
                | Protocol::AcoProfile
                | Protocol::Cellular002
                | Protocol::Cellular004
        )
    }

    /// `--runs` when not given: the paper's 30 for seed 001's Tables I and III, else 10.
    pub fn default_runs(self) -> usize {
        if matches!(self, Protocol::Restart001 | Protocol::Cpu001) { 30 } else { 10 }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Search {
    /// Robust tabu search.
    Ts,
    /// Best-improvement 2-opt.
    #[value(name = "2opt")]
    TwoOpt,
}

#[derive(Args, Clone)]
pub struct BenchArgs {
    #[arg(value_enum)]
    pub protocol: Protocol,
    /// Instances (names or .dat paths); default: the paper's.
    #[arg(long, value_delimiter = ',')]
    pub instances: Vec<std::ffi::OsString>,
    /// Runs per configuration (the papers: 30 for seed 001, 10 for seed 000); default: 30
    /// for 001-restart and 001-cpu, else 10.
    #[arg(long)]
    pub runs: Option<usize>,
    /// Seed 001: block counts p of the FoundFlag runs; 0 = fill the GPU.
    #[arg(long, value_delimiter = ',', default_value = "30,60,0")]
    pub blocks: Vec<u32>,
    /// Seed 001: single-block runs for the gamma fit (0: skip them).
    #[arg(long, default_value_t = 30)]
    pub single_runs: usize,
    /// 001-cpu: the population sizes Model I tries (Model II's 128 is always run); a size the
    /// engine refuses is skipped with a note.
    #[arg(long, value_delimiter = ',', default_value = "64,128,256,512,1024,2048")]
    pub populations: Vec<u32>,
    /// 001-cpu: runs at once, each on a single thread of its own as in the paper (at most
    /// 4096; the machine's cores are the useful most).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Seed 000: B in 128 × B × k (30 = one block per GTX 285 multiprocessor).
    #[arg(long, default_value_t = 30)]
    pub base_blocks: u32,
    /// Seed 000: the multipliers k.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub k: Vec<u32>,
    /// Seed 000: the paper's rule instead of --k: k = 1, 2, … 6 until 90 % of the runs reach
    /// the optimum.
    #[arg(long, conflicts_with = "paper_k")]
    pub raise_k: bool,
    /// Seed 000: each instance at the k of the paper's column for it (the rule's outcome;
    /// --k for instances the paper did not run).
    #[arg(long)]
    pub paper_k: bool,
    /// Seeds 000 and 001: the GAs' crossover (the papers chose PMX over OX).
    #[arg(long, value_enum, default_value_t = CrossoverArg::Pmx)]
    pub crossover: CrossoverArg,
    /// Seed 000: the migration schemes: ga1 (all shuffled every 500 generations: the GPU
    /// model, GA-1 on the CPU) and ga2 (5 % exchanged every 50 generations).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "ga1")]
    pub variants: Vec<crate::bench::seed000::Variant>,
    /// Seconds a run may take before it counts as failed.
    #[arg(long, default_value = "120", value_parser = seconds)]
    pub time_limit: Duration,
    /// When a run stops besides its target and --time-limit: `time` (the default, the
    /// protocols' own: run to them) or `converged` (as `solve --stop converged`).
    #[arg(long, value_enum, default_value = "time")]
    pub stop: StopRule,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seed 003 (003-fixed, 003-target, 003-profile): local searches.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "ts")]
    pub ls: Vec<Search>,
    /// Seed 003: GPU thread mappings to run; ignored on the CPU engine.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "mata,plain")]
    pub layouts: Vec<Layout>,
    /// Seeds 002/004: generations per run (the thesis: 100).
    #[arg(long, default_value_t = 100)]
    pub generations: u64,
    /// Seed 004: topologies.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "4n,8n,16n,20n")]
    pub topologies: Vec<CgaTopology>,
    /// Seeds 002/004: local searches of the cellular GA (record: the thesis's 2-opt as its
    /// Algorithm 16 prints it, shown beside the 2opt its text describes).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "2opt,record,greedy")]
    pub cga_ls: Vec<CgaPass>,
    /// Seeds 002/004: skip the sequential CPU variant.
    #[arg(long)]
    pub no_cpu_variant: bool,
    /// Seeds 002/004 and compare: the cellular GA's grid.
    #[arg(long, default_value = "8x8", value_parser = grid)]
    pub grid: (u32, u32),
    /// Seeds 002/004 and compare: the cellular GA's GPU mapping.
    #[arg(long, value_enum, default_value = "auto")]
    pub ls_mapping: LsMapping,
    /// Seeds 002/004 and compare: the cellular GA's local-search passes per generation (1:
    /// the thesis's; 0: until a pass improves nothing).
    #[arg(long, default_value_t = 1)]
    pub ls_passes: u32,
    /// ttt: also run the multi-start tabu search on every CPU core (the alternative without
    /// a GPU). 000: also run on one CPU thread (the paper's GA-1 and GA-2), with the
    /// engine's speed-up over it. 003-fixed, 003-target on a GPU: also run the CPU twin (on --threads; 1 is the
    /// paper's CPU column), with our CPU/GPU speed-up beside the paper's.
    #[arg(long)]
    pub cpu_baseline: bool,
    /// compare, ttt: the target, in percent above the best-known value (0: the best known).
    #[arg(long, default_value_t = 0.0)]
    pub gap: f64,
    /// compare, ttt, problems: the algorithms (defaults: aco-ts,ga-islands,ga-independent,cga
    /// for compare; ts,aco-ts for ttt; auto for problems).
    #[arg(long, value_delimiter = ',')]
    pub algos: Vec<String>,
    /// Folder for the CSV and Markdown tables.
    #[arg(long, default_value = "bench-results")]
    pub out: PathBuf,
    /// problems: real files instead of the generated cases, from this list (CSV
    /// `file,problem,n,known,source`; `data/problems/benchmarks.csv` lists the TSPLIB tours
    /// and DIMACS clique graphs of at most 256 cities or vertices that
    /// `scripts/fetch-problems.sh` fetches). The time limit is per run, per k for cliques.
    #[arg(long)]
    pub files: Option<PathBuf>,
    /// problems --files: the folder the list's files are in.
    #[arg(long, default_value = "dist/problems")]
    pub files_dir: PathBuf,
    /// problems --files: the polish beside the QAP search (as `solve --polish`).
    #[arg(long, value_enum, default_value = "ils")]
    pub polish: PolishMode,
    /// compare, ttt, gaps, problems: the ACO family's options (those of `ts`, `memetic`,
    /// `aco-*` and `auto`'s colonies) for every run, as `solve` takes them; the papers'
    /// protocols set their own and refuse them.
    #[command(flatten)]
    pub aco: AcoArgs,
    /// compare, ttt, gaps, problems: `ts`'s own options for every run, as `solve` takes
    /// them; the papers' protocols refuse them.
    #[command(flatten)]
    pub ts: TsArgs,
    #[command(flatten)]
    pub device: DeviceArgs,
}
