//! What a GA engine is (CPU or GPU), and the settings both share.
use anyhow::Result;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
pub enum Algo {
    /// Independent subpopulations with B_count restarts and FoundFlag (seed 001).
    #[value(name = "ga-independent")]
    #[serde(rename = "ga-independent")]
    GaIndependent,
    /// Island GA: every individual shuffled across subpopulations every G_interval (seed 000).
    #[value(name = "ga-islands")]
    #[serde(rename = "ga-islands")]
    GaIslands,
    /// Cunning ant system with robust tabu search on the GPU, MATA mapping (seed 003).
    #[value(name = "aco-ts")]
    #[serde(rename = "aco-ts")]
    AcoTs,
    /// Cunning ant system with best-improvement 2-opt (seed 003, experiment 2).
    #[value(name = "aco-2opt")]
    #[serde(rename = "aco-2opt")]
    Aco2Opt,
}

impl Algo {
    pub fn name(self) -> &'static str {
        match self {
            Algo::GaIndependent => "ga-independent",
            Algo::GaIslands => "ga-islands",
            Algo::AcoTs => "aco-ts",
            Algo::Aco2Opt => "aco-2opt",
        }
    }

    /// The local search of an ACO algorithm, None for the GAs.
    pub fn local_search(self) -> Option<qapgpu_common::ls::LsKind> {
        use qapgpu_common::ls::LsKind;
        match self {
            Algo::AcoTs => Some(LsKind::Tabu),
            Algo::Aco2Opt => Some(LsKind::TwoOpt),
            Algo::GaIndependent | Algo::GaIslands => None,
        }
    }
}

/// How the B_count of the restart strategy is computed on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CountMethod {
    /// Shared-memory atomics, as in seed 001.
    Atomic,
    /// Warp shuffles and a counting barrier (bar.red.popc); measured faster (BENCHMARKS.md).
    Reduce,
}

#[derive(Clone, Debug)]
pub struct GaConfig {
    pub algo: Algo,
    /// Individuals per subpopulation (threads per block): 128 in the papers.
    pub subpop: u32,
    /// Number of subpopulations (blocks); 0 = enough to fill the GPU / one per CPU core ×4.
    pub blocks: u32,
    /// Mutation rate p_m.
    pub pm: f64,
    /// Restart when ⌈N·B_rate⌉ individuals share the best cost; None disables restarts.
    pub b_rate: Option<f64>,
    /// Generations between B_count checks (50 in seed 001).
    pub restart_interval: u32,
    /// Generations between migrations in island mode (G_interval = 500 in seed 000).
    pub migration_interval: u32,
    pub count: CountMethod,
    pub seed: u64,
    /// Stop when an individual costs this much or less (i64::MIN: never).
    pub target: i64,
    /// Every block is a run of its own that stops alone at the target (GPU only): R
    /// single-block runs at once, for seed 001's single-block distribution.
    pub per_block_target: bool,
}

impl GaConfig {
    /// The papers' parameters for `algo`: N = 128, p_m = 0.1, restarts (B_rate = 0.6,
    /// checked every 50 generations) for independent runs, shuffling every 500 for islands.
    pub fn paper(algo: Algo) -> GaConfig {
        GaConfig {
            algo,
            subpop: 128,
            blocks: 0,
            pm: 0.1,
            b_rate: match algo {
                Algo::GaIndependent => Some(0.6),
                Algo::GaIslands | Algo::AcoTs | Algo::Aco2Opt => None,
            },
            restart_interval: 50,
            migration_interval: 500,
            count: CountMethod::Reduce,
            seed: 1,
            target: i64::MIN,
            per_block_target: false,
        }
    }

    pub fn restart_count(&self) -> u32 {
        self.b_rate.map_or(0, |r| qapgpu_common::ga::restart_count(self.subpop, r))
    }
}

/// The population state, for comparing a kernel with its CPU twin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Rows of n genes, subpopulation after subpopulation.
    pub rows: Vec<Vec<u8>>,
    pub costs: Vec<i64>,
    pub rng: Vec<[u32; 4]>,
    pub best_costs: Vec<i64>,
    pub restarts: Vec<u32>,
}

/// A GA engine: a population of `blocks × subpop` individuals that advances generations.
pub trait GaEngine {
    /// Where it runs, for reports ("NVIDIA H100 80GB HBM3", "CPU, 16 threads").
    fn device(&self) -> String;
    fn blocks(&self) -> u32;
    /// Draws the initial population (seeded per individual slot).
    fn init(&mut self) -> Result<()>;
    /// Runs `gens` generations (a multiple of the restart interval); returns early once some
    /// individual reaches the target.
    fn advance(&mut self, gens: u32) -> Result<()>;
    /// Island migration number `epoch`.
    fn migrate(&mut self, epoch: u64) -> Result<()>;
    /// The individual that reached the target, if any.
    fn found(&mut self) -> Result<Option<(i64, Vec<u8>)>>;
    /// The best individual seen so far (also across restarts).
    fn best(&mut self) -> Result<(i64, Vec<u8>)>;
    fn restarts(&mut self) -> Result<u64>;
    fn snapshot(&mut self) -> Result<Snapshot>;
    /// Per-block runs: seconds from the initial population to each block's success.
    fn block_times(&mut self) -> Result<Vec<Option<f64>>> {
        anyhow::bail!("per-block runs need the GPU engine")
    }
}
