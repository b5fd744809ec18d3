//! The ACO with local search of seed 003: settings (the paper's Table 4 per instance class),
//! the engine interface both engines implement (`gpu.rs`, `cpu.rs`), and the cAS driver
//! they share (Fig. 2), which the run loop drives as a `Solver`.
pub mod colony;
pub mod cpu;
pub mod gpu;
pub mod wide;

use super::{Backend, Family, Options, check_range};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::run::{Advance, Counters, Solver, SolverInfo};
use crate::site::Site;
use anyhow::{Result, bail};
use qapgpu_common::aco::Bounds;
use qapgpu_common::ga::probability_threshold;
use qapgpu_common::ls::{LsKind, NO_TARGET, TabuStart, Tenure, TenureLaw, uniform_tenure_range};
use qapgpu_common::mata::{Mapping, default_ns};
use std::sync::Arc;
use std::time::Instant;

/// The registry's line of `--algo aco-ts`.
pub const TABU: Family = Family {
    name: "aco-ts",
    about: "cunning ant system with robust tabu search on the GPU, MATA mapping (seed 003)",
    min_n: 3,
    max_n: qapgpu_common::WIDE_MAX_N,
    build: |b, i, o| build(b, i, o, LsKind::Tabu),
};

/// The registry's line of `--algo aco-2opt`.
pub const TWO_OPT: Family = Family {
    name: "aco-2opt",
    about: "cunning ant system with best-improvement 2-opt (seed 003, experiment 2)",
    min_n: 3,
    max_n: qapgpu_common::WIDE_MAX_N,
    build: |b, i, o| build(b, i, o, LsKind::TwoOpt),
};

/// The colony's settings of `Options` and those of its local search, which the `ts` and
/// `memetic` walks share (the command line's `--layout` … `--max-ls-iterations`); unset ones
/// come from Table 4 for the instance's class, or from the family's defaults (`ts`'s in the
/// policy table). `ts`'s own settings are `ts::TsOptions`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AcoOptions {
    /// None: the family's (MATA for aco-ts and aco-2opt, sums for ts).
    pub layout: Option<Layout>,
    /// None: class iv for taiNNb, class i otherwise.
    pub class: Option<Class>,
    /// m: units (ants or walks), one block each on the GPU.
    pub ants: Option<u32>,
    /// ρ: the pheromone kept per iteration.
    pub rho: Option<f64>,
    /// γ: the share of a c-ant sampled from τ.
    pub gamma: Option<f64>,
    /// IT_TS or IT_2OPT: iterations of one local search (moves per launch for the walks).
    pub ls_iterations: Option<u32>,
    /// T_list-size: the tenure's scale T.
    pub tabu_list: Option<u32>,
    /// One tenure draw per move for both tabu entries (else one per entry).
    pub tenure_per_move: Option<bool>,
    /// The tenure's distribution (`ls::TenureLaw`; None: the family's default).
    pub tenure_law: Option<TenureLaw>,
    /// MMAS's p_best for τ_min.
    pub p_best: Option<f64>,
    /// m at most the ants the device runs at once (`AcoConfig::one_wave`).
    pub one_wave: Option<bool>,
    /// N_S: O(1) moves per thread (MATA and plain).
    pub ns: Option<u32>,
    /// Threads per block of the split and sums layouts (None: `mata::split_threads`).
    pub split_threads: Option<u32>,
    /// IT_TOTAL: stop after this many local-search iterations in all.
    pub max_ls_iterations: Option<u64>,
    /// Move costs in i64 on the GPU even where i32 is proven to hold them (for comparison).
    pub wide_delta: bool,
    /// The walks take null swaps too (`AcoConfig::skip_null_swaps` false; for comparison).
    pub keep_null_swaps: bool,
}

/// Most ants `--ants` takes.
pub const MAX_ANTS: u32 = 1 << 16;

/// MMAS's p_best, which sets τ_min (`--p-best`). Seed 003 does not give it; higher τ_min
/// (p_best 0.0001) gained 0.03–0.05 points on three instances, inside the noise of 5 runs,
/// so it stays 0.005 (docs/benchmarks-record.md, "Table 5: IT_TOTAL = n·50000 local-search
/// iterations, or the optimum").
pub const P_BEST: f64 = 0.005;

impl AcoOptions {
    /// Checks every value's range; the one-line error names the command-line option.
    pub fn validate(&self) -> Result<()> {
        let opt = |name: &str, v: Option<f64>, lo: f64, hi: f64| v.map_or(Ok(()), |v| check_range(name, v, lo, hi));
        opt("--ants", self.ants.map(f64::from), 1.0, MAX_ANTS as f64)?;
        if let Some(r) = self.rho
            && !(0.0..1.0).contains(&r)
        {
            bail!("--rho = {r}: must be in [0, 1)");
        }
        opt("--gamma", self.gamma, 0.0, 1.0)?;
        if let Some(p) = self.p_best
            && !(p > 0.0 && p < 1.0)
        {
            bail!("--p-best = {p}: must be in (0, 1)");
        }
        opt("--ls-iterations", self.ls_iterations.map(f64::from), 1.0, i32::MAX as f64)?;
        opt("--tabu-list", self.tabu_list.map(f64::from), 1.0, 65535.0)?;
        opt("--ns", self.ns.map(f64::from), 1.0, qapgpu_common::moves::move_count(qapgpu_common::MAX_N as u32) as f64)?;
        opt("--max-ls-iterations", self.max_ls_iterations.map(|v| v as f64), 1.0, f64::MAX)
    }
}

/// Thread mapping of the move costs (`--layout`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// Move-Cost Adjusted Thread Assignment: O(1) and O(n) moves in different warps.
    #[default]
    Mata,
    /// The paper's non-MATA: the same N_S moves per thread, O(n) ones computed inline.
    Plain,
    /// Ours: every O(n) move split over a group of threads, O(1) moves from per-facility
    /// terms, two barriers an iteration (`device::aco::split`).
    Split,
    /// Ours: the split layout's iteration with every move in O(1) from an n×n table of sums
    /// updated by one rank-1 change a move (`device::aco::sums`); needs A or B symmetric.
    Sums,
}

impl Layout {
    /// The thread mapping of `common::mata` it stands for.
    pub fn mapping(self) -> Mapping {
        match self {
            Layout::Mata => Mapping::Mata,
            Layout::Plain => Mapping::Plain,
            Layout::Split => Mapping::Split,
            Layout::Sums => Mapping::Sums,
        }
    }
    /// Its `--layout` name.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Mata => "mata",
            Layout::Plain => "plain",
            Layout::Split => "split",
            Layout::Sums => "sums",
        }
    }
}

/// QAPLIB classes of seed 003 §6.1 that set the parameters of Table 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Class {
    /// (i) randomly generated (taiXXa and, by default, everything not class iv).
    #[value(name = "i")]
    Random,
    /// (iv) real-life like (taiXXb).
    #[value(name = "iv")]
    RealLifeLike,
}

impl Class {
    /// Class (iv) for Taillard's taiNNb instances, class (i) otherwise.
    pub fn of(name: &str) -> Class {
        let digits = name.strip_prefix("tai").and_then(|r| r.strip_suffix('b'));
        if digits.is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit())) {
            Class::RealLifeLike
        } else {
            Class::Random
        }
    }
}

/// What an engine may do with `AcoConfig::layout` on a GPU (`settle`). Internal: the
/// drivers set it, `ts`'s and `auto`'s (`auto::layout_rule`); no options struct carries it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LayoutRule {
    /// Run `layout` as it is: the user's choice for a colony, or seed 003's MATA.
    #[default]
    Kept,
    /// Where `layout` does not run or fit, take the fastest layout that does
    /// (`gpu::settle_layout`); `chosen`: the layout is the user's, kept wherever it runs at
    /// all.
    Settle {
        /// The layout is the user's.
        chosen: bool,
    },
    /// `auto`'s sums for large structured data: kept only where its plan runs the fast path
    /// (`gpu::sums_if_fast`), else MATA (tai150b: docs/benchmarks-record.md, "The sums fast
    /// path for tai150b").
    SumsIfFast,
}

/// One engine's settings, resolved from `Options` (`from_options`) and the family's driver.
#[derive(Clone, Debug, PartialEq)]
pub struct AcoConfig {
    /// Tabu search or 2-opt.
    pub ls: LsKind,
    /// The thread mapping of the move costs.
    pub layout: Layout,
    /// What the engine may do with `layout` on a GPU (set by the drivers, `LayoutRule`).
    pub layout_rule: LayoutRule,
    /// m: units (ants), one block each on the GPU.
    pub ants: u32,
    /// ρ: the pheromone kept per iteration.
    pub rho: f64,
    /// γ: the share of a c-ant sampled from τ.
    pub gamma: f64,
    /// IT_TS (tabu search) or IT_2OPT.
    pub ls_iterations: u32,
    /// T_list-size: the tenure's scale T.
    pub tabu_list_size: u32,
    /// Both tabu entries of a move get one tenure draw (`ls::Tenure::per_move`).
    pub tenure_per_move: bool,
    /// T·r³ (seed 003) or uniform in [0.9·T, 1.1·T] (Taillard's code).
    pub tenure_law: TenureLaw,
    /// m is cut to the ants the device runs at once: the blocks that fit on every SM
    /// together on a GPU, one per thread on the CPU. A colony larger than one wave waits for
    /// its last wave every iteration (m = 4n = 400 at n = 100 is 1.5 waves on an H200).
    pub one_wave: bool,
    /// N_S: O(1) moves per thread.
    pub ns: u32,
    /// Split and sums layouts: threads per block (None: `mata::split_threads`).
    pub split_threads: Option<u32>,
    /// MMAS's p_best for τ_min.
    pub p_best: f64,
    /// The run's seed.
    pub seed: u64,
    /// A local search that reaches this cost ends the iteration for every ant (the run's
    /// target; `NO_TARGET` without one).
    pub target: i64,
    /// Each ant's tabu search goes on from launch to launch (the `ts` family's walks; tabu
    /// search only) instead of starting afresh from a constructed c-ant.
    pub walk: bool,
    /// Walks: Taillard's long-term aspiration, in iterations (0: none).
    pub aspiration: u32,
    /// Walks: what a fresh tabu matrix holds (the GPU engine runs `TabuStart::Flat` only).
    pub tabu_start: TabuStart,
    /// GPU: move costs in i64 even where the instance allows i32 (`Instance::delta_width`).
    pub wide_delta: bool,
    /// The walks (`walk`) skip the instance's null swaps (`common::null_swaps`): swaps of
    /// two interchangeable facilities or locations, which a walk at a local minimum would
    /// otherwise take on and on (tai256c at 10 s: 0.061 against 0.277 %, docs/benchmarks-record.md,
    /// "Null swaps"). On the GPU, off the fast path only (`AcoGpu::skips_null_swaps`); the
    /// c-ants' searches (seed 003's) take them.
    pub skip_null_swaps: bool,
}

impl AcoConfig {
    /// Table 4 of seed 003 (and §6.3 for 2-opt: IT_2OPT and m as IT_TS and m): the paper's
    /// values, with MMAS's `P_BEST`, which the paper does not give.
    pub fn paper(ls: LsKind, n: u32, class: Class) -> AcoConfig {
        let (ants, gamma, ls_iterations) = match class {
            Class::Random => (n, 0.4, 16 * n),
            Class::RealLifeLike => (4 * n, 0.5, 4 * n),
        };
        AcoConfig {
            ls,
            layout: Layout::Mata,
            layout_rule: LayoutRule::Kept,
            ants,
            rho: 0.5,
            gamma,
            ls_iterations,
            tabu_list_size: n,
            // §4.2's "taboo list size T_list-size × r³", one draw per iteration: at Table 5's
            // budget it ends closer to the paper's errors than a draw per entry (docs/benchmarks-record.md).
            tenure_per_move: true,
            tenure_law: TenureLaw::Cubic,
            one_wave: false,
            ns: default_ns(n),
            split_threads: None,
            p_best: P_BEST,
            seed: 1,
            target: NO_TARGET,
            walk: false,
            aspiration: 0,
            tabu_start: TabuStart::Flat,
            wide_delta: false,
            skip_null_swaps: true,
        }
    }

    /// Table 4 for the instance's class, with `opts`' overrides.
    pub fn from_options(ls: LsKind, inst: &Instance, opts: &Options) -> AcoConfig {
        let x = &opts.aco;
        let class = x.class.unwrap_or_else(|| Class::of(&inst.name));
        let cfg = AcoConfig::paper(ls, inst.n as u32, class);
        AcoConfig {
            layout: x.layout.unwrap_or(cfg.layout),
            seed: opts.seed,
            ants: x.ants.unwrap_or(cfg.ants),
            rho: x.rho.unwrap_or(cfg.rho),
            gamma: x.gamma.unwrap_or(cfg.gamma),
            ls_iterations: x.ls_iterations.unwrap_or(cfg.ls_iterations),
            tabu_list_size: x.tabu_list.unwrap_or(cfg.tabu_list_size),
            tenure_per_move: x.tenure_per_move.unwrap_or(cfg.tenure_per_move),
            tenure_law: x.tenure_law.unwrap_or(cfg.tenure_law),
            p_best: x.p_best.unwrap_or(cfg.p_best),
            one_wave: x.one_wave.unwrap_or(cfg.one_wave),
            ns: x.ns.unwrap_or(cfg.ns),
            split_threads: x.split_threads,
            target: opts.target.unwrap_or(NO_TARGET),
            wide_delta: x.wide_delta,
            skip_null_swaps: !x.keep_null_swaps,
            ..cfg
        }
    }

    /// The local search's tenure rule.
    pub fn tenure(&self) -> Tenure {
        Tenure { list_size: self.tabu_list_size, per_move: self.tenure_per_move, law: self.tenure_law }
    }

    /// The tenure rule in words, for reports.
    pub fn tenure_rule(&self) -> String {
        let law = match self.tenure_law {
            TenureLaw::Cubic => format!("tenure T·r³ with T = {}", self.tabu_list_size),
            TenureLaw::Uniform => {
                let (lo, hi) = uniform_tenure_range(self.tabu_list_size);
                format!("tenure uniform in [{lo}, {hi}]")
            }
            TenureLaw::Mixed => {
                let (lo, hi) = uniform_tenure_range(self.tenure().of_unit(1).list_size);
                format!(
                    "tenure T·r³ with T = {} in even walks, uniform in [{lo}, {hi}] in odd ones",
                    self.tabu_list_size
                )
            }
        };
        format!("{law}, {}", if self.tenure_per_move { "one draw per move" } else { "one draw per entry" })
    }

    /// γ as the threshold a 32-bit draw is compared with.
    pub fn gamma_threshold(&self) -> u32 {
        probability_threshold(self.gamma)
    }

    /// MAX–MIN bounds for best-so-far cost `best` (see `common::aco::Bounds`).
    pub fn bounds(&self, n: usize, best: i64) -> Bounds {
        let max = self.ants as f64 / ((1.0 - self.rho) * best.max(1) as f64);
        let root = self.p_best.powf(1.0 / n as f64);
        let min = max * (1.0 - root) / ((n as f64 / 2.0 - 1.0).max(1.0) * root);
        Bounds { min: min as f32, max: max as f32 }
    }

    /// The registry name of its family.
    pub fn algo_name(&self) -> &'static str {
        match self.ls {
            LsKind::Tabu => "aco-ts",
            LsKind::TwoOpt => "aco-2opt",
        }
    }
}

/// Every unit's state, for comparing the kernels with their CPU twin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AcoSnapshot {
    /// Every unit's best ant (the archive).
    pub ants: Vec<Vec<u8>>,
    /// Their costs.
    pub ant_costs: Vec<i64>,
    /// Every unit's c-ant (a walk's current solution).
    pub cants: Vec<Vec<u8>>,
    /// Their costs.
    pub cant_costs: Vec<i64>,
    /// Every unit's local-search iterations so far.
    pub ls_iterations: Vec<u32>,
    /// τ as raw f32 bits (bit-identical, not approximately equal).
    pub tau_bits: Vec<u32>,
    /// Every unit's RNG state.
    pub rng: Vec<[u32; 4]>,
    /// The best-so-far cost.
    pub best: i64,
}

/// Totals of the local searches so far: iterations (neighbourhood scans), move costs
/// evaluated, and wall seconds spent in them.
#[derive(Clone, Copy, Debug, Default)]
pub struct LsStats {
    /// Neighbourhood scans.
    pub iterations: u64,
    /// Move costs evaluated.
    pub evaluations: u64,
    /// Wall seconds in the local searches.
    pub seconds: f64,
}

/// The steps of Fig. 2 that an engine runs; `init` and `iterate` below order them.
pub trait AcoEngine: Send {
    /// Where it runs; its stop word ends the local searches in flight.
    fn site(&self) -> &Site;
    /// The settings it runs.
    fn config(&self) -> &AcoConfig;
    /// Threads per block of the local search (T_TOTAL; 1 on the CPU).
    fn threads_per_block(&self) -> u32;
    /// Where the local search keeps its data, for reports (", Δ i32 in shared memory, …";
    /// empty on the CPU).
    fn memory(&self) -> String {
        String::new()
    }
    /// Whether the walks skip the instance's null swaps (`AcoConfig::skip_null_swaps`): the
    /// engine runs walks, the instance has some, and on the GPU the plan is off the fast path.
    fn skips_null_swaps(&self) -> bool;
    /// Step 3: random c-ants.
    fn random_ants(&mut self) -> Result<()>;
    /// Step 6: c-ants from donors and τ.
    fn construct(&mut self) -> Result<()>;
    /// Steps 4/7 and 8: local search of every c-ant, then unit bests.
    fn local_search(&mut self) -> Result<()>;
    /// Folds the unit bests into the best-so-far; returns its cost.
    fn update_best(&mut self) -> Result<i64>;
    /// Step 5: τ ← τ_init first when given, then evaporation, deposit and clamping.
    fn pheromone(&mut self, init: Option<f32>, bounds: Bounds) -> Result<()>;
    /// The best so far: its cost and permutation.
    fn best(&mut self) -> Result<(i64, Vec<u8>)>;
    /// The totals so far (on the GPU, after waiting for kernels an early hit left running).
    fn ls_stats(&mut self) -> Result<LsStats>;
    /// Every unit's state (for the twin tests).
    fn snapshot(&mut self) -> Result<AcoSnapshot>;
    /// The units' best ants (rows of n) and their costs: the archive the pheromone is laid
    /// from.
    fn archive(&mut self) -> Result<(Vec<u8>, Vec<i64>)>;
    /// The archive's costs alone (what an immigrant is placed by).
    fn unit_costs(&mut self) -> Result<Vec<i64>>;
    /// Unit `k`'s best ant (and, for walks, its current solution, its tabu memory cleared)
    /// becomes `perm` of cost `cost`: an immigrant.
    fn put_unit(&mut self, k: usize, perm: &[u8], cost: i64) -> Result<()>;
    /// `put_unit` for each of `units` (unit, permutation, cost); an engine may batch them.
    fn put_units(&mut self, units: &[(usize, Vec<u8>, i64)]) -> Result<()> {
        units.iter().try_for_each(|(k, perm, cost)| self.put_unit(*k, perm, *cost))
    }
    /// Walks: "go with the winners" (`ls::donor_rank`). Ranked by current cost, every walk
    /// outside the best `elite` (1 to m) restarts from an elite walk's current solution with
    /// a fresh tabu memory. Does nothing once the stop word is set. May only be queued.
    fn regroup(&mut self, elite: u32) -> Result<()>;
    /// Walks: their current solutions (m rows of the returned stride) and costs, once the
    /// work queued has ended.
    fn currents(&mut self) -> Result<(Vec<u8>, usize, Vec<i64>)>;
    /// Walks: `regroup` with the ranking given (`ranking`: `winners[k]` walk k's rank,
    /// `winners[m + r]` the walk of elite rank r < `elite`).
    fn regroup_ranked(&mut self, winners: &[u32], elite: u32) -> Result<()>;
    /// Walks, after `regroup` or `regroup_ranked`: each walk outside the best `elite` of
    /// that ranking (the walks that took an elite walk's solution) makes `swaps` random
    /// exchanges of it (`ops::random_exchanges`, stream `ls::perturb_rng(seed, round, k)`, the
    /// seed the run's, or on the GPU its current start's),
    /// its cost exact, and goes on with a fresh tabu memory; its best stays its own. Does
    /// nothing once the stop word is set. May only be queued.
    fn perturb_walks(&mut self, elite: u32, swaps: u32, round: u32) -> Result<()>;
    /// Moves of every local search (walk launch) from the next one on.
    fn set_ls_iterations(&mut self, moves: u32) -> Result<()>;
    /// Waits until the work queued so far has ended: the GPU's launches (the CPU engine's
    /// steps have ended when they return). Only the profiling driver calls it, after each
    /// step it times (`PhaseTimes`); a normal run waits only where it reads.
    fn wait(&mut self) -> Result<()> {
        Ok(())
    }
    /// τ from outside (the master of a colony split over devices).
    fn set_tau(&mut self, tau: &[f32]) -> Result<()>;
}

/// The ranking `AcoEngine::regroup_ranked` takes, from the m walks listed in rank order
/// with the first `elite` of them the elite: `winners[k]` walk k's rank, `winners[m + r]`
/// the walk of elite rank r.
pub fn ranking(order: &[usize], elite: usize) -> Vec<u32> {
    let m = order.len();
    let mut winners = vec![0u32; 2 * m];
    for (rank, &k) in order.iter().enumerate() {
        winners[k] = rank as u32;
        if rank < elite {
            winners[m + rank] = k as u32;
        }
    }
    winners
}

/// Puts an immigrant in place of the engine's worst unit (see `multi::worst_slot`).
pub fn immigrate(e: &mut dyn AcoEngine, cost: i64, perm: &[u8]) -> Result<bool> {
    match super::multi::worst_slot(&e.unit_costs()?, cost) {
        Some(k) => e.put_unit(k, perm, cost).map(|_| true),
        None => Ok(false),
    }
}

/// Wall seconds of each step of Fig. 2, summed over a run: seed 003's Table 2 (the time
/// split of cAS), measured by `AcoSolver::profiled`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseTimes {
    /// Steps 3 and 6: the random ants, then the c-ants drawn from the donors and τ.
    pub construction: f64,
    /// Steps 4/7 and 8: the local searches of every c-ant, and the unit bests.
    pub local_search: f64,
    /// Step 5: the pheromone trail update (τ_init, evaporation, deposits, clamping).
    pub trail: f64,
    /// The best-so-far fold (`update_best`): the host's read of the best each iteration.
    pub best: f64,
}

impl PhaseTimes {
    /// The seconds of every step timed.
    pub fn total(&self) -> f64 {
        self.construction + self.local_search + self.trail + self.best
    }

    /// `self` plus `other`, step by step.
    pub fn add(&self, other: &PhaseTimes) -> PhaseTimes {
        PhaseTimes {
            construction: self.construction + other.construction,
            local_search: self.local_search + other.local_search,
            trail: self.trail + other.trail,
            best: self.best + other.best,
        }
    }
}

/// Runs step `f` of `e`; with a `clock`, times it to the end of its work (`AcoEngine::wait`:
/// on a GPU, its launches) and adds the seconds to the clock's `slot`. Without one the step
/// runs as it always does: no wait, no clock read.
fn timed<T>(
    e: &mut dyn AcoEngine,
    clock: Option<&mut PhaseTimes>,
    slot: fn(&mut PhaseTimes) -> &mut f64,
    f: impl FnOnce(&mut dyn AcoEngine) -> Result<T>,
) -> Result<T> {
    let Some(clock) = clock else { return f(e) };
    let t0 = Instant::now();
    let out = f(e)?;
    e.wait()?;
    *slot(clock) += t0.elapsed().as_secs_f64();
    Ok(out)
}

/// Steps 1–5: random ants, local search, and the first pheromone update from τ_0 = τ_max.
pub fn init(e: &mut dyn AcoEngine, n: usize) -> Result<()> {
    init_timed(e, n, None)
}

/// `init`, each step timed into `clock` where one is given.
pub fn init_timed(e: &mut dyn AcoEngine, n: usize, mut clock: Option<&mut PhaseTimes>) -> Result<()> {
    timed(e, clock.as_deref_mut(), |p| &mut p.construction, |e| e.random_ants())?;
    cycle_rest(e, n, clock, true)
}

/// Steps 6–8 and 5: one cAS iteration.
pub fn iterate(e: &mut dyn AcoEngine, n: usize) -> Result<()> {
    iterate_timed(e, n, None)
}

/// `iterate`, each step timed into `clock` where one is given.
pub fn iterate_timed(e: &mut dyn AcoEngine, n: usize, mut clock: Option<&mut PhaseTimes>) -> Result<()> {
    timed(e, clock.as_deref_mut(), |p| &mut p.construction, |e| e.construct())?;
    cycle_rest(e, n, clock, false)
}

/// The local search, the best-so-far fold and step 5 of an iteration (the `first`: from
/// τ_max).
fn cycle_rest(e: &mut dyn AcoEngine, n: usize, mut clock: Option<&mut PhaseTimes>, first: bool) -> Result<()> {
    timed(e, clock.as_deref_mut(), |p| &mut p.local_search, |e| e.local_search())?;
    let best = timed(e, clock.as_deref_mut(), |p| &mut p.best, |e| e.update_best())?;
    timed(e, clock, |p| &mut p.trail, |e| lay(e, n, best, first))
}

/// Step 5 for best-so-far cost `best` (from τ_max at the `first`), unless the run has
/// stopped: τ is not read again, and 65536 ants' deposits take 0.1 s on a CPU.
fn lay(e: &mut dyn AcoEngine, n: usize, best: i64, first: bool) -> Result<()> {
    if e.site().stop.is_set() {
        return Ok(());
    }
    let bounds = e.config().bounds(n, best);
    e.pheromone(first.then_some(bounds.max), bounds)
}

/// The engine's best so far when it is at or below `target`.
pub fn reached(e: &mut dyn AcoEngine, target: Option<i64>) -> Result<Option<(i64, Vec<u8>)>> {
    let best = e.best()?;
    Ok(target.is_some_and(|t| best.0 <= t).then_some(best))
}

/// Builds the engine of `cfg` on `backend`.
pub fn engine(backend: &Backend, inst: &Instance, cfg: &AcoConfig) -> Result<Box<dyn AcoEngine>> {
    Ok(match backend {
        Backend::Gpu(g) => Box::new(gpu::AcoGpu::new(g.clone(), inst, cfg)?),
        Backend::Cpu { threads } => Box::new(cpu::AcoCpu::new(inst, cfg, *threads)?),
    })
}

/// Applies `cfg.layout_rule` on a GPU: `cfg.layout` becomes the layout the engine will run
/// (the CPU engine runs every layout's moves alike).
pub fn settle(backend: &Backend, inst: &Instance, cfg: &mut AcoConfig) -> Result<()> {
    let Backend::Gpu(g) = backend else { return Ok(()) };
    match cfg.layout_rule {
        LayoutRule::Kept => {}
        LayoutRule::Settle { chosen } => gpu::settle_layout(g, inst, cfg, chosen)?,
        LayoutRule::SumsIfFast => gpu::sums_if_fast(g, inst, cfg)?,
    }
    Ok(())
}

fn build(backend: &Backend, inst: &Instance, opts: &Options, ls: LsKind) -> Result<Box<dyn Solver>> {
    if inst.n > qapgpu_common::MAX_N {
        return wide::build(backend, inst, opts, ls);
    }
    build_colony(backend, inst, opts, ls, LayoutRule::Kept)
}

/// The colony of `opts` with local search `ls`, its layout taken by `rule` (`auto`'s
/// driver passes its own; the registry's families keep the layout).
pub fn build_colony(
    backend: &Backend,
    inst: &Instance,
    opts: &Options,
    ls: LsKind,
    rule: LayoutRule,
) -> Result<Box<dyn Solver>> {
    let mut cfg = AcoConfig::from_options(ls, inst, opts);
    cfg.layout_rule = rule;
    settle(backend, inst, &mut cfg)?;
    Ok(Box::new(AcoSolver::new(engine(backend, inst, &cfg)?, inst.n, opts.target, opts.aco.max_ls_iterations)))
}

/// The cAS driver: Fig. 2 one iteration per `advance`, until the target or IT_TOTAL
/// local-search iterations (m · IT_LS per cAS iteration, checked after each).
pub struct AcoSolver {
    engine: Box<dyn AcoEngine>,
    n: usize,
    target: Option<i64>,
    max_ls_iterations: Option<u64>,
    /// cAS iterations so far, the random ants' round the first: each spends
    /// `per_iteration` of IT_TOTAL.
    iterations: u64,
    /// The steps' seconds so far, where profiling was asked for (`profiled`).
    phases: Option<PhaseTimes>,
}

impl AcoSolver {
    /// The driver of `engine` on an instance of size `n`, until `target` or
    /// `max_ls_iterations` local-search iterations (IT_TOTAL).
    pub fn new(engine: Box<dyn AcoEngine>, n: usize, target: Option<i64>, max_ls_iterations: Option<u64>) -> AcoSolver {
        AcoSolver { engine, n, target, max_ls_iterations, iterations: 0, phases: None }
    }

    /// The same driver timing each step of Fig. 2 (`PhaseTimes`, seed 003's Table 2): after
    /// each step it waits for the step's work (on a GPU, its launches: one stream wait a
    /// step, which an unprofiled run does not make).
    pub fn profiled(mut self) -> AcoSolver {
        self.phases = Some(PhaseTimes::default());
        self
    }

    /// The steps' seconds since `init`, where the driver is `profiled`.
    pub fn phases(&self) -> Option<PhaseTimes> {
        self.phases
    }

    /// Local-search iterations of one cAS iteration.
    fn per_iteration(&self) -> u64 {
        let c = self.engine.config();
        c.ants as u64 * c.ls_iterations as u64
    }

    /// The engine it drives.
    pub fn engine(&self) -> &dyn AcoEngine {
        self.engine.as_ref()
    }
}

impl Solver for AcoSolver {
    fn info(&self) -> SolverInfo {
        let cfg = self.engine.config();
        let ls = match cfg.ls {
            LsKind::Tabu => format!(
                "tabu search, IT_TS = {}, T_list = {}, {}",
                cfg.ls_iterations,
                cfg.tabu_list_size,
                cfg.tenure_rule()
            ),
            LsKind::TwoOpt => format!("2-opt, IT_2OPT = {}", cfg.ls_iterations),
        };
        let threads = self.engine.threads_per_block();
        let mapping = if threads > 1 {
            format!(", {} layout, {threads} threads per ant{}", cfg.layout.name(), self.engine.memory())
        } else {
            String::new()
        };
        SolverInfo {
            algorithm: cfg.algo_name(),
            engine: self.engine.site().engine,
            device: self.engine.site().device.clone(),
            layout: format!("{} ants (units), ρ = {}, γ = {}; {ls}{mapping}", cfg.ants, cfg.rho, cfg.gamma),
            blocks: cfg.ants,
            threads_per_block: threads,
        }
    }

    fn stop_word(&self) -> Arc<StopWord> {
        self.engine.site().stop.clone()
    }

    fn init(&mut self) -> Result<()> {
        // The random ants' round counts as the first cAS iteration, as in the paper's
        // IT_TOTAL = m · IT_ACO · IT_TS.
        self.iterations = 1;
        if let Some(p) = self.phases.as_mut() {
            *p = PhaseTimes::default();
        }
        init_timed(self.engine.as_mut(), self.n, self.phases.as_mut())
    }

    fn advance(&mut self) -> Result<Advance> {
        if self.max_ls_iterations.is_some_and(|m| self.iterations * self.per_iteration() >= m) {
            return Ok(Advance::Exhausted);
        }
        iterate_timed(self.engine.as_mut(), self.n, self.phases.as_mut())?;
        self.iterations += 1;
        Ok(Advance::Continue)
    }

    fn found(&mut self) -> Result<Option<(i64, Vec<u16>)>> {
        Ok(reached(self.engine.as_mut(), self.target)?.map(crate::perm::widen_best))
    }

    fn best(&mut self) -> Result<(i64, Vec<u16>)> {
        self.engine.best().map(crate::perm::widen_best)
    }

    fn counters(&mut self) -> Result<Counters> {
        let st = self.engine.ls_stats()?;
        Ok(Counters {
            iterations: self.iterations,
            unit: "cAS iterations",
            restarts: 0,
            evaluations: st.evaluations,
            search_seconds: st.seconds,
            best_at: None,
        })
    }

    fn immigrate(&mut self, cost: i64, perm: &[u16]) -> Result<bool> {
        immigrate(self.engine.as_mut(), cost, &crate::perm::narrow(perm))
    }
}
