//! The GPU genetic algorithms of seeds 000 and 001: settings, the engine interface both
//! engines implement (`gpu.rs`, `cpu.rs`), and the driver that turns an engine into a
//! `Solver` (launch slices, island migrations, FoundFlag).
pub mod cpu;
pub mod gpu;

use super::{Backend, Family, Options, check_range};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::run::{Advance, Counters, Solver, SolverInfo};
use crate::site::Site;
use anyhow::{Result, bail};
use qapgpu_common::ga::Crossover;
use qapgpu_common::shuffle::Migration;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `ga-independent`: independent runs with restarts (seed 001).
pub const INDEPENDENT: Family = Family {
    name: "ga-independent",
    about: "independent subpopulations with B_count restarts and FoundFlag (seed 001)",
    min_n: 2,
    max_n: qapgpu_common::MAX_N,
    build: |b, i, o| build(b, i, o, Mode::Independent),
};

/// `ga-islands`: the island GA (seed 000).
pub const ISLANDS: Family = Family {
    name: "ga-islands",
    about: "island GA, every individual shuffled across subpopulations every G_interval (seed 000)",
    min_n: 2,
    max_n: qapgpu_common::MAX_N,
    build: |b, i, o| build(b, i, o, Mode::Islands),
};

/// How the subpopulations interact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Independent runs with restarts (seed 001).
    Independent,
    /// Islands with migration (seed 000).
    Islands,
}

/// How the B_count of the restart strategy is computed on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum CountMethod {
    /// Shared-memory atomics, as in seed 001.
    Atomic,
    /// Warp shuffles and a counting barrier (bar.red.popc); measured faster (docs/benchmarks-record.md).
    #[default]
    Reduce,
}

/// The GA's crossover on the command line (`--crossover`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum CrossoverArg {
    /// Partially mapped crossover, the papers' choice.
    #[default]
    Pmx,
    /// Order crossover, which seeds 000 and 001 tried first and found worse on QAPs.
    Ox,
}

impl CrossoverArg {
    /// The operator the engines run.
    pub fn op(self) -> Crossover {
        match self {
            CrossoverArg::Pmx => Crossover::Pmx,
            CrossoverArg::Ox => Crossover::Ox,
        }
    }
}

/// The GA settings of `Options` (the command line's `--subpop` … `--count`).
#[derive(Clone, Debug)]
pub struct GaOptions {
    /// Individuals per subpopulation (`--subpop`).
    pub subpop: u32,
    /// 0: fill the GPU (or 4 per CPU thread).
    pub blocks: u32,
    /// Mutation rate p_m (`--pm`).
    pub pm: f64,
    /// The restarts' B_rate (`--b-rate`).
    pub b_rate: f64,
    /// None: on for ga-independent, off for ga-islands (as in the papers).
    pub restarts: Option<bool>,
    /// Generations between B_count checks (`--restart-interval`).
    pub restart_interval: u32,
    /// Generations between island migrations (`--migration-interval`).
    pub migration_interval: u32,
    /// How B_count is computed on the GPU (`--count`).
    pub count: CountMethod,
    /// The crossover (`--crossover`).
    pub crossover: CrossoverArg,
    /// Share of all individuals that an island migration moves (`--migration-fraction`):
    /// 1 shuffles them all (seed 000's model and GA-1), 0.05 is GA-2's.
    pub migration_fraction: f64,
}

impl Default for GaOptions {
    fn default() -> Self {
        GaOptions {
            subpop: 128,
            blocks: 0,
            pm: 0.1,
            b_rate: 0.6,
            restarts: None,
            restart_interval: 50,
            migration_interval: 500,
            count: CountMethod::Reduce,
            crossover: CrossoverArg::Pmx,
            migration_fraction: 1.0,
        }
    }
}

/// Most subpopulations `--blocks` takes.
pub const MAX_BLOCKS: u32 = 1 << 16;

impl GaOptions {
    /// Where `family` would not read a GA setting changed from its default (any family but
    /// the GAs; the migration settings but ga-islands), the one-line error names the option,
    /// as `TsOptions::check_family` does for `ts`'s own (`--pm` also sets the cellular GA's
    /// mutation).
    pub fn check_family(&self, family: &str) -> Result<()> {
        let d = GaOptions::default();
        let islands_only = [
            ("--migration-interval", self.migration_interval != d.migration_interval),
            ("--migration-fraction", self.migration_fraction != d.migration_fraction),
        ];
        if family == ISLANDS.name {
            return Ok(());
        }
        if let Some((option, _)) = islands_only.iter().find(|c| c.1) {
            bail!("{option}: only --algo ga-islands migrates, not {family}");
        }
        if family == INDEPENDENT.name {
            return Ok(());
        }
        if self.pm != d.pm && family != crate::algo::cga::CGA.name {
            bail!("--pm: only --algo ga-independent, ga-islands and cga read it, not {family}");
        }
        let changed = [
            ("--subpop", self.subpop != d.subpop),
            ("--blocks", self.blocks != d.blocks),
            ("--b-rate", self.b_rate != d.b_rate),
            ("--restart", self.restarts == Some(true)),
            ("--no-restart", self.restarts == Some(false)),
            ("--restart-interval", self.restart_interval != d.restart_interval),
            ("--count", self.count != d.count),
            ("--crossover", self.crossover != d.crossover),
        ];
        match changed.iter().find(|c| c.1) {
            Some((option, _)) => {
                // The walk families count their walks (blocks) with --ants.
                let walks = *option == "--blocks"
                    && [crate::algo::ts::TS.name, crate::algo::memetic::MEMETIC.name].contains(&family);
                let hint = if walks { format!("; --ants sets the walks of {family}") } else { String::new() };
                bail!("{option}: only --algo ga-independent and ga-islands read it, not {family}{hint}")
            }
            None => Ok(()),
        }
    }

    /// Checks every value; the error names the command-line option.
    pub fn validate(&self) -> Result<()> {
        // Seed 001 tunes its CPU population up to 2048; a GPU block holds at most 1024.
        if !self.subpop.is_multiple_of(32) || !(32..=2048).contains(&self.subpop) {
            bail!("--subpop = {}: must be a multiple of 32 in [32, 2048] (on the GPU: at most 1024)", self.subpop);
        }
        check_range("--blocks", self.blocks as f64, 0.0, MAX_BLOCKS as f64)?;
        check_range("--pm", self.pm, 0.0, 1.0)?;
        if !(self.b_rate > 0.0 && self.b_rate <= 1.0) {
            bail!("--b-rate = {}: must be in (0, 1]", self.b_rate);
        }
        check_range("--restart-interval", self.restart_interval as f64, 1.0, 1e6)?;
        check_range("--migration-interval", self.migration_interval as f64, 1.0, 1e9)?;
        if !(self.migration_fraction > 0.0 && self.migration_fraction <= 1.0) {
            bail!("--migration-fraction = {}: must be in (0, 1]", self.migration_fraction);
        }
        if !self.migration_interval.is_multiple_of(self.restart_interval) {
            bail!(
                "--migration-interval = {}: must be a multiple of --restart-interval ({})",
                self.migration_interval,
                self.restart_interval
            );
        }
        Ok(())
    }
}

/// The settings of one GA run, as the engines take them.
#[derive(Clone, Debug)]
pub struct GaConfig {
    /// Independent runs or islands.
    pub mode: Mode,
    /// Individuals per subpopulation (threads per block): 128 in the papers.
    pub subpop: u32,
    /// Number of subpopulations (blocks); 0 = enough to fill the GPU / 4 per CPU thread.
    pub blocks: u32,
    /// Mutation rate p_m.
    pub pm: f64,
    /// Restart when ⌈N·B_rate⌉ individuals share the best cost; None disables restarts.
    pub b_rate: Option<f64>,
    /// Generations between B_count checks (50 in seed 001).
    pub restart_interval: u32,
    /// Generations between migrations in island mode (G_interval = 500 in seed 000).
    pub migration_interval: u32,
    /// How B_count is computed on the GPU.
    pub count: CountMethod,
    /// The crossover (PMX in the papers).
    pub crossover: Crossover,
    /// Share of the individuals an island migration moves (1: all, as in seed 000).
    pub migration_fraction: f64,
    /// Seed of every random stream of the run.
    pub seed: u64,
    /// Stop when an individual costs this much or less (i64::MIN: never).
    pub target: i64,
    /// Every block is a run of its own that stops alone at the target (GPU only): R
    /// single-block runs at once, for seed 001's single-block distribution.
    pub per_block_target: bool,
}

impl GaConfig {
    /// The papers' parameters: N = 128, p_m = 0.1, restarts (B_rate = 0.6, checked every 50
    /// generations) for independent runs, shuffling every 500 for islands.
    pub fn paper(mode: Mode) -> GaConfig {
        GaConfig {
            mode,
            subpop: 128,
            blocks: 0,
            pm: 0.1,
            b_rate: (mode == Mode::Independent).then_some(0.6),
            restart_interval: 50,
            migration_interval: 500,
            count: CountMethod::Reduce,
            crossover: Crossover::Pmx,
            migration_fraction: 1.0,
            seed: 1,
            target: i64::MIN,
            per_block_target: false,
        }
    }

    /// The paper's settings with `opts`' overrides.
    pub fn from_options(mode: Mode, opts: &Options) -> GaConfig {
        let g = &opts.ga;
        let restarts = g.restarts.unwrap_or(mode == Mode::Independent);
        GaConfig {
            subpop: g.subpop,
            blocks: g.blocks,
            pm: g.pm,
            b_rate: restarts.then_some(g.b_rate),
            restart_interval: g.restart_interval,
            migration_interval: g.migration_interval,
            count: g.count,
            crossover: g.crossover.op(),
            migration_fraction: g.migration_fraction,
            seed: opts.seed,
            target: opts.target.unwrap_or(i64::MIN),
            ..GaConfig::paper(mode)
        }
    }

    /// Island migration number `epoch` over `total` individuals: all of them, or
    /// `--migration-fraction` of them (at least 2) exchanged among themselves.
    pub fn migration(&self, total: u32, epoch: u64) -> Migration {
        let movers = ((self.migration_fraction * total as f64).round() as u32).clamp(2.min(total), total);
        Migration::new(total, movers, self.seed, epoch)
    }

    /// The report's layout line: the population, the crossover, and how the subpopulations
    /// meet (restarts, or the islands' migration).
    pub fn describe(&self, blocks: u32) -> String {
        let crossover = match self.crossover {
            Crossover::Pmx => "PMX",
            Crossover::Ox => "OX",
        };
        let meeting = match self.mode {
            Mode::Islands if self.migration_fraction >= 1.0 => {
                format!("all shuffled every {} generations", self.migration_interval)
            }
            // `migration` moves at least 2, whatever the share.
            Mode::Islands => format!(
                "{:.2} % exchanged (at least 2) every {} generations",
                self.migration_fraction * 100.0,
                self.migration_interval
            ),
            Mode::Independent => "independent".to_string(),
        };
        let restarts = self.b_rate.map_or(String::new(), |r| format!(", restarts at B_rate {r}"));
        format!("{blocks} subpopulations × {}, {crossover}, p_m {}, {meeting}{restarts}", self.subpop, self.pm)
    }

    /// B_count's threshold: individuals sharing the best cost that trigger a restart (0: never).
    pub fn restart_count(&self) -> u32 {
        self.b_rate.map_or(0, |r| qapgpu_common::ga::restart_count(self.subpop, r))
    }
}

/// The population state, for comparing a kernel with its CPU twin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Rows of n genes, subpopulation after subpopulation.
    pub rows: Vec<Vec<u8>>,
    /// Each individual's cost.
    pub costs: Vec<i64>,
    /// Each individual's random stream.
    pub rng: Vec<[u32; 4]>,
    /// Each subpopulation's best cost.
    pub best_costs: Vec<i64>,
    /// Each subpopulation's restarts.
    pub restarts: Vec<u32>,
}

/// A GA engine: a population of `blocks × subpop` individuals that advances generations.
pub trait GaEngine: Send {
    /// Where it runs; its stop word ends a launch early.
    fn site(&self) -> &Site;
    /// Subpopulations.
    fn blocks(&self) -> u32;
    /// Draws the initial population (seeded per individual slot).
    fn init(&mut self) -> Result<()>;
    /// Runs `gens` generations (a multiple of the restart interval); returns early once some
    /// individual reaches the target or the stop word is set.
    fn advance(&mut self, gens: u32) -> Result<()>;
    /// Island migration number `epoch`.
    fn migrate(&mut self, epoch: u64) -> Result<()>;
    /// The individual that reached the target, if any.
    fn found(&mut self) -> Result<Option<(i64, Vec<u8>)>>;
    /// The best individual seen so far (also across restarts).
    fn best(&mut self) -> Result<(i64, Vec<u8>)>;
    /// Restarts so far, over every subpopulation.
    fn restarts(&mut self) -> Result<u64>;
    /// The population state.
    fn snapshot(&mut self) -> Result<Snapshot>;
    /// Every individual's cost, subpopulation after subpopulation.
    fn member_costs(&mut self) -> Result<Vec<i64>>;
    /// Individual `k` becomes `perm` of cost `cost`: an immigrant.
    fn put_member(&mut self, k: usize, perm: &[u8], cost: i64) -> Result<()>;
    /// Per-block runs: seconds from the initial population to each block's success.
    fn block_times(&mut self) -> Result<Vec<Option<f64>>> {
        anyhow::bail!("per-block runs need the GPU engine")
    }
}

/// Builds the engine of `cfg` on `backend`.
pub fn engine(backend: &Backend, inst: &Instance, cfg: &GaConfig) -> Result<Box<dyn GaEngine>> {
    Ok(match backend {
        Backend::Gpu(g) => Box::new(gpu::GpuEngine::new(g.clone(), inst, cfg)?),
        Backend::Cpu { threads } => Box::new(cpu::CpuEngine::new(inst, cfg, *threads)?),
    })
}

fn build(backend: &Backend, inst: &Instance, opts: &Options, mode: Mode) -> Result<Box<dyn Solver>> {
    let cfg = GaConfig::from_options(mode, opts);
    Ok(Box::new(GaSolver::new(engine(backend, inst, &cfg)?, cfg)))
}

/// Seconds a launch should take: long enough to hide launch overhead, short enough for a
/// lively progress line. FoundFlag and the stop word end a launch early, so neither the
/// time to target nor the time limit depends on it.
const LAUNCH_GOAL_S: f64 = 0.05;

/// The GA driver: launches of generations sized toward `LAUNCH_GOAL_S`, in whole restart
/// intervals, with island migrations every G_interval.
pub struct GaSolver {
    engine: Box<dyn GaEngine>,
    cfg: GaConfig,
    chunk: u32,
    generations: u64,
    epoch: u64,
}

impl GaSolver {
    /// The driver of `engine` with the settings `cfg`.
    pub fn new(engine: Box<dyn GaEngine>, cfg: GaConfig) -> GaSolver {
        GaSolver { chunk: cfg.restart_interval, engine, cfg, generations: 0, epoch: 0 }
    }
}

impl Solver for GaSolver {
    fn info(&self) -> SolverInfo {
        SolverInfo {
            algorithm: match self.cfg.mode {
                Mode::Independent => INDEPENDENT.name,
                Mode::Islands => ISLANDS.name,
            },
            engine: self.engine.site().engine,
            device: self.engine.site().device.clone(),
            layout: self.cfg.describe(self.engine.blocks()),
            blocks: self.engine.blocks(),
            threads_per_block: self.cfg.subpop,
        }
    }

    fn stop_word(&self) -> Arc<StopWord> {
        self.engine.site().stop.clone()
    }

    fn init(&mut self) -> Result<()> {
        (self.chunk, self.generations, self.epoch) = (self.cfg.restart_interval, 0, 0);
        self.engine.init()
    }

    fn advance(&mut self) -> Result<Advance> {
        let c = &self.cfg;
        let mut gens = self.chunk;
        if c.mode == Mode::Islands {
            let done = (self.generations % c.migration_interval as u64) as u32;
            gens = gens.min(c.migration_interval - done);
        }
        let t0 = Instant::now();
        self.engine.advance(gens)?;
        let dt = t0.elapsed().as_secs_f64();
        self.generations += gens as u64;
        if c.mode == Mode::Islands
            && self.generations.is_multiple_of(c.migration_interval as u64)
            && !self.engine.site().stop.is_set()
        {
            self.engine.migrate(self.epoch)?;
            self.epoch += 1;
        }
        // Grow or shrink launches toward LAUNCH_GOAL_S, in whole restart intervals.
        if dt < LAUNCH_GOAL_S / 2.0 && self.chunk < (1 << 20) {
            self.chunk *= 2;
        } else if dt > LAUNCH_GOAL_S * 2.0 && self.chunk > c.restart_interval {
            self.chunk = (self.chunk / 2).max(c.restart_interval) / c.restart_interval * c.restart_interval;
        }
        Ok(Advance::Continue)
    }

    fn found(&mut self) -> Result<Option<(i64, Vec<u16>)>> {
        Ok(self.engine.found()?.map(crate::perm::widen_best))
    }

    fn best(&mut self) -> Result<(i64, Vec<u16>)> {
        self.engine.best().map(crate::perm::widen_best)
    }

    fn counters(&mut self) -> Result<Counters> {
        Ok(Counters {
            iterations: self.generations,
            unit: "generations",
            restarts: self.engine.restarts()?,
            ..Counters::default()
        })
    }

    /// The immigrant replaces the population's worst individual.
    fn immigrate(&mut self, cost: i64, perm: &[u16]) -> Result<bool> {
        match super::multi::worst_slot(&self.engine.member_costs()?, cost) {
            Some(k) => self.engine.put_member(k, &crate::perm::narrow(perm), cost).map(|_| true),
            None => Ok(false),
        }
    }
}

/// Per-block runs (`GaConfig::per_block_target`): every block is an independent run that
/// stops alone at the target. Returns each block's time to target (None: not within the
/// time limit).
pub fn run_per_block(engine: &mut dyn GaEngine, cfg: &GaConfig, time_limit: Duration) -> Result<Vec<Option<f64>>> {
    anyhow::ensure!(cfg.per_block_target && cfg.mode == Mode::Independent, "per-block runs are independent runs");
    let start = Instant::now();
    engine.init()?;
    let mut chunk = cfg.restart_interval;
    loop {
        let t0 = Instant::now();
        engine.advance(chunk)?;
        if t0.elapsed().as_secs_f64() < LAUNCH_GOAL_S / 2.0 && chunk < (1 << 20) {
            chunk *= 2;
        }
        let times = engine.block_times()?;
        if times.iter().all(Option::is_some) || start.elapsed() >= time_limit {
            return Ok(times);
        }
    }
}
