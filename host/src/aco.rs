//! The ACO with local search of seed 003: settings (the paper's Table 4 per instance class),
//! the engine interface both engines implement, and the one cAS driver they share (Fig. 2).
use anyhow::Result;
use qapgpu_common::aco::Bounds;
use qapgpu_common::ga::probability_threshold;
use qapgpu_common::ls::LsKind;
use qapgpu_common::mata::{Mapping, default_ns};

/// Thread mapping of the move costs (`--layout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// Move-Cost Adjusted Thread Assignment: O(1) and O(n) moves in different warps.
    Mata,
    /// The paper's non-MATA: the same N_S moves per thread, O(n) ones computed inline.
    Plain,
}

impl Layout {
    pub fn mapping(self) -> Mapping {
        match self {
            Layout::Mata => Mapping::Mata,
            Layout::Plain => Mapping::Plain,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Layout::Mata => "mata",
            Layout::Plain => "plain",
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

#[derive(Clone, Debug)]
pub struct AcoConfig {
    pub ls: LsKind,
    pub layout: Layout,
    /// m: units (ants), one block each on the GPU.
    pub ants: u32,
    pub rho: f64,
    pub gamma: f64,
    /// IT_TS (tabu search) or IT_2OPT.
    pub ls_iterations: u32,
    pub tabu_list_size: u32,
    /// N_S: O(1) moves per thread.
    pub ns: u32,
    /// MMAS's p_best for τ_min.
    pub p_best: f64,
    pub seed: u64,
}

impl AcoConfig {
    /// Table 4 of seed 003 (and §6.3 for 2-opt: IT_2OPT and m as IT_TS and m).
    pub fn paper(ls: LsKind, n: u32, class: Class) -> AcoConfig {
        let (ants, gamma, ls_iterations) = match class {
            Class::Random => (n, 0.4, 16 * n),
            Class::RealLifeLike => (4 * n, 0.5, 4 * n),
        };
        AcoConfig {
            ls,
            layout: Layout::Mata,
            ants,
            rho: 0.5,
            gamma,
            ls_iterations,
            tabu_list_size: n,
            ns: default_ns(n),
            p_best: 0.005,
            seed: 1,
        }
    }

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
    pub ants: Vec<Vec<u8>>,
    pub ant_costs: Vec<i64>,
    pub cants: Vec<Vec<u8>>,
    pub cant_costs: Vec<i64>,
    pub ls_iterations: Vec<u32>,
    /// τ as raw f32 bits (bit-identical, not approximately equal).
    pub tau_bits: Vec<u32>,
    pub rng: Vec<[u32; 4]>,
    pub best: i64,
}

/// Totals of the local searches so far: iterations (neighbourhood scans), move costs
/// evaluated, and wall seconds spent in them.
#[derive(Clone, Copy, Debug, Default)]
pub struct LsStats {
    pub iterations: u64,
    pub evaluations: u64,
    pub seconds: f64,
}

/// The steps of Fig. 2 that an engine runs; `init` and `iterate` below order them.
pub trait AcoEngine {
    fn device(&self) -> String;
    fn config(&self) -> &AcoConfig;
    /// Threads per block of the local search (T_TOTAL; 1 on the CPU).
    fn threads_per_block(&self) -> u32;
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
    fn best(&mut self) -> Result<(i64, Vec<u8>)>;
    fn ls_stats(&self) -> LsStats;
    fn snapshot(&mut self) -> Result<AcoSnapshot>;
}

/// Steps 1–5: random ants, local search, and the first pheromone update from τ_0 = τ_max.
pub fn init(e: &mut dyn AcoEngine, n: usize) -> Result<()> {
    e.random_ants()?;
    e.local_search()?;
    let best = e.update_best()?;
    let bounds = e.config().bounds(n, best);
    e.pheromone(Some(bounds.max), bounds)
}

/// Steps 6–8 and 5: one cAS iteration.
pub fn iterate(e: &mut dyn AcoEngine, n: usize) -> Result<()> {
    e.construct()?;
    e.local_search()?;
    let best = e.update_best()?;
    let bounds = e.config().bounds(n, best);
    e.pheromone(None, bounds)
}
