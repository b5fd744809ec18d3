//! Command-line arguments and their mapping onto `Options`. Types are parsed here; ranges
//! are checked once, by `Options::validate`, for the CLI and the library alike.
use crate::algo::aco::{AcoOptions, Class, Layout};
use crate::algo::ga::{CountMethod, GaOptions};
use crate::algo::{EngineChoice, FAMILIES, Options};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

/// Most seconds `--time-limit` takes (about 31 years).
const MAX_SECONDS: f64 = 1e9;

/// `--time-limit`: a positive, finite number of seconds.
fn seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s.parse().map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(v > 0.0 && v <= MAX_SECONDS) {
        return Err(format!("must be in (0, {MAX_SECONDS:e}] seconds"));
    }
    Ok(Duration::from_secs_f64(v))
}

/// `--algo`: the registry's names, with their descriptions in `--help`.
fn algorithms() -> PossibleValuesParser {
    PossibleValuesParser::new(FAMILIES.iter().map(|f| PossibleValue::new(f.name).help(f.about)))
}

#[derive(Args, Clone)]
pub struct DeviceArgs {
    /// GPU engine, CPU engine, or auto (GPU when usable).
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: EngineChoice,
    /// CPU threads (0: all cores; 1: the papers' single-thread CPU column; at most 256).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// CUDA device ordinal.
    #[arg(long, default_value_t = 0)]
    pub gpu: usize,
    /// PTX module to load instead of the one embedded at build time.
    #[arg(long)]
    pub ptx: Option<PathBuf>,
}

impl DeviceArgs {
    /// The options of a run on this device (the rest default).
    pub fn options(&self, seed: u64) -> Options {
        Options { engine: self.engine, threads: self.threads, gpu: self.gpu, ptx: self.ptx.clone(), seed, ..Options::default() }
    }
}

#[derive(Args, Clone)]
pub struct GaArgs {
    /// Individuals per subpopulation (threads per block), a multiple of 32 in [32, 1024].
    #[arg(long, default_value_t = 128)]
    subpop: u32,
    /// Subpopulations (blocks); 0 fills the GPU (or 4 per CPU thread).
    #[arg(long, default_value_t = 0)]
    blocks: u32,
    /// Mutation rate p_m, in [0, 1].
    #[arg(long, default_value_t = 0.1, allow_negative_numbers = true)]
    pm: f64,
    /// B_rate of the restart strategy, in (0, 1].
    #[arg(long, default_value_t = 0.6, allow_negative_numbers = true)]
    b_rate: f64,
    /// Turn restarts off (default for ga-islands, as in seed 000).
    #[arg(long, conflicts_with = "restart")]
    no_restart: bool,
    /// Turn restarts on for ga-islands.
    #[arg(long)]
    restart: bool,
    /// Generations between B_count checks.
    #[arg(long, default_value_t = 50)]
    restart_interval: u32,
    /// G_interval: generations between island migrations (a multiple of --restart-interval).
    #[arg(long, default_value_t = 500)]
    migration_interval: u32,
    /// How the GPU counts B_count.
    #[arg(long, value_enum, default_value = "reduce")]
    count: CountMethod,
}

impl GaArgs {
    fn options(&self) -> GaOptions {
        GaOptions {
            subpop: self.subpop,
            blocks: self.blocks,
            pm: self.pm,
            b_rate: self.b_rate,
            restarts: if self.no_restart { Some(false) } else if self.restart { Some(true) } else { None },
            restart_interval: self.restart_interval,
            migration_interval: self.migration_interval,
            count: self.count,
        }
    }
}

/// Seed 003's settings; unset ones come from its Table 4 for the instance's class.
#[derive(Args, Clone)]
pub struct AcoArgs {
    /// Thread mapping of the local search's move costs.
    #[arg(long, value_enum, default_value = "mata")]
    layout: Layout,
    /// Instance class for Table 4's defaults (default: iv for taiNNb, i otherwise).
    #[arg(long, value_enum)]
    class: Option<Class>,
    /// m: units (ants); one block each on the GPU. Default n (class i) or 4n (class iv).
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
    /// T_list-size of the robust tabu search (tenure T·r³). Default n.
    #[arg(long)]
    tabu_list: Option<u32>,
    /// N_S: O(1) moves per thread. Default ⌈n/4⌉.
    #[arg(long)]
    ns: Option<u32>,
    /// IT_TOTAL: stop after this many local-search iterations in all (Table 5 uses n·50000).
    #[arg(long)]
    max_ls_iterations: Option<u64>,
}

impl AcoArgs {
    fn options(&self) -> AcoOptions {
        AcoOptions {
            layout: self.layout,
            class: self.class,
            ants: self.ants,
            rho: self.rho,
            gamma: self.gamma,
            ls_iterations: self.ls_iterations,
            tabu_list: self.tabu_list,
            ns: self.ns,
            max_ls_iterations: self.max_ls_iterations,
        }
    }
}

#[derive(Args, Clone)]
pub struct SolveArgs {
    /// A QAPLIB .dat file, or a name looked up in $QAPLIB_DIR (default ../shared/qaplib).
    /// Without one: the embedded planted instance (n = 24, optimum known by construction).
    pub instance: Option<String>,
    /// Algorithm (default: aco-ts, the fastest to targets as measured; ga-independent for n = 2).
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
    #[command(flatten)]
    pub ga: GaArgs,
    #[command(flatten)]
    pub aco: AcoArgs,
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
            ga: self.ga.options(),
            aco: self.aco.options(),
            ..self.device.options(seed)
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Protocol {
    /// Seed 001, Tables II/III: independent runs, 1 block vs p blocks, gamma model.
    #[value(name = "001")]
    Independent,
    /// Seed 000, Table 1: island GA with total population 128 × B × k.
    #[value(name = "000")]
    Islands,
    /// Seed 003, Table 5: ACO + tabu search for IT_TOTAL = n·50000 iterations or the optimum.
    #[value(name = "003-fixed")]
    AcoFixed,
    /// Seed 003, Table 6: ACO + tabu search / 2-opt to the acceptable cost.
    #[value(name = "003-target")]
    AcoTarget,
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
    pub instances: Vec<String>,
    /// Runs per configuration (the papers: 30 for seed 001, 10 for seed 000).
    #[arg(long, default_value_t = 10)]
    pub runs: usize,
    /// Seed 001: block counts p of the FoundFlag runs; 0 = fill the GPU.
    #[arg(long, value_delimiter = ',', default_value = "30,60,0")]
    pub blocks: Vec<u32>,
    /// Seed 001: single-block runs for the gamma fit (0: skip them).
    #[arg(long, default_value_t = 30)]
    pub single_runs: usize,
    /// Seed 000: B in 128 × B × k (30 = one block per GTX 285 multiprocessor).
    #[arg(long, default_value_t = 30)]
    pub base_blocks: u32,
    /// Seed 000: the multipliers k.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub k: Vec<u32>,
    /// Seconds a run may take before it counts as failed.
    #[arg(long, default_value = "120", value_parser = seconds)]
    pub time_limit: Duration,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seed 003: local searches.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "ts")]
    pub ls: Vec<Search>,
    /// Seed 003: GPU thread mappings to run; ignored on the CPU engine.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "mata,plain")]
    pub layouts: Vec<Layout>,
    /// Folder for the CSV and Markdown tables.
    #[arg(long, default_value = "bench-results")]
    pub out: PathBuf,
    #[command(flatten)]
    pub device: DeviceArgs,
}
