//! The cellular GA of seeds 002 and 004 (PGAGrid): settings, the engine interface both
//! engines implement (`gpu.rs`, `cpu.rs`), and the driver that runs one generation per
//! `advance` (Algorithm 18 of 004; the operators are `qapgpu_common::cga`).
pub mod cpu;
pub mod gpu;

use super::{Backend, Family, Options, check_range};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::run::{Advance, Counters, Solver, SolverInfo};
use crate::site::Site;
use anyhow::{Result, bail};
pub use qapgpu_common::cga::{Pass, Topology};
use qapgpu_common::ga::probability_threshold;
use std::sync::Arc;

/// `cga`: PGAGrid, the cellular GA (seeds 002, 004).
pub const CGA: Family = Family {
    name: "cga",
    about: "cellular GA on a toroidal grid with 2-opt or greedy 2-opt, PGAGrid (seeds 002, 004)",
    min_n: 3,
    max_n: qapgpu_common::MAX_N,
    build: |b, i, o| {
        let cfg = CgaConfig::from_options(o);
        // The thesis's chromosome maps locations to facilities (004 §3.1): its operators
        // (MOX, transposition, the passes' swap order) act on that permutation, so the
        // engines run on the dual instance and the driver hands back the inverse.
        Ok(Box::new(CgaSolver::new(engine(b, &i.dual(), &cfg)?, cfg, o.target)))
    },
};

/// Thread mapping of the local search's swaps (`--ls-mapping`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LsMapping {
    /// `gene` for greedy 2-opt, `move` for 2-opt: the faster of each (docs/benchmarks-record.md).
    #[default]
    Auto,
    /// One thread per gene, each swap's Δ a block-wide sum (the thesis's).
    Gene,
    /// One thread per move, O(n) and O(1) Δ formulas, a table in shared memory.
    Move,
}

impl LsMapping {
    /// The mapping `Auto` stands for with `pass`.
    pub fn resolve(self, pass: Pass) -> LsMapping {
        match (self, pass) {
            (LsMapping::Auto, Pass::Greedy | Pass::Record) => LsMapping::Gene,
            (LsMapping::Auto, Pass::TwoOpt) => LsMapping::Move,
            (m, _) => m,
        }
    }
}

/// The cellular GA's settings of `Options` (the command line's `--ls` … `--max-generations`).
#[derive(Clone, Debug)]
pub struct CgaOptions {
    /// The local search: 2-opt or greedy 2-opt (`--ls`).
    pub pass: Pass,
    /// The neighbourhood on the grid (`--topology`).
    pub topology: Topology,
    /// Grid width and height: the population is w·h.
    pub grid: (u32, u32),
    /// Crossover probability p_c (`--pc`).
    pub pc: f64,
    /// None: 0.01, the papers' p_m (the GAs of seeds 000/001 use 0.1).
    pub pm: Option<f64>,
    /// Transposition probability p_t (`--pt`).
    pub pt: f64,
    /// Thread mapping of the local search's swaps (`--ls-mapping`).
    pub mapping: LsMapping,
    /// Local-search passes per individual and generation (the thesis: 1;
    /// `TO_LOCAL_OPTIMUM` = 0: until a pass improves nothing).
    pub passes: u32,
    /// Stop after this many generations (the papers: 100).
    pub max_generations: Option<u64>,
}

impl Default for CgaOptions {
    fn default() -> Self {
        CgaOptions {
            pass: Pass::Greedy,
            topology: Topology::N8,
            grid: (8, 8),
            pc: 0.6,
            pm: None,
            pt: 0.4,
            mapping: LsMapping::Auto,
            passes: 1,
            max_generations: None,
        }
    }
}

/// Most individuals `--grid` takes.
pub const MAX_POPULATION: u32 = 1 << 16;

impl CgaOptions {
    /// Where `family` is not the cellular GA, a setting changed from its default would be
    /// silently ignored: the one-line error names its option (`GaOptions::check_family`).
    pub fn check_family(&self, family: &str) -> Result<()> {
        if family == CGA.name {
            return Ok(());
        }
        let d = CgaOptions::default();
        let changed = [
            ("--ls", self.pass != d.pass),
            ("--topology", self.topology != d.topology),
            ("--grid", self.grid != d.grid),
            ("--pc", self.pc != d.pc),
            ("--pt", self.pt != d.pt),
            ("--ls-mapping", self.mapping != d.mapping),
            ("--ls-passes", self.passes != d.passes),
            ("--max-generations", self.max_generations.is_some()),
        ];
        match changed.iter().find(|c| c.1) {
            // The colony's local search is chosen by its family's name.
            Some(("--ls", _)) if family.starts_with("aco") => {
                bail!("--ls: only --algo cga reads it, not {family} (the colony with 2-opt is --algo aco-2opt)")
            }
            Some((option, _)) => bail!("{option}: only --algo cga reads it, not {family}"),
            None => Ok(()),
        }
    }

    /// Checks every value; the error names the command-line option.
    pub fn validate(&self) -> Result<()> {
        let (w, h) = self.grid;
        if w == 0 || h == 0 || w as u64 * h as u64 > MAX_POPULATION as u64 {
            bail!("--grid = {w}x{h}: width and height must be at least 1, with at most {MAX_POPULATION} cells");
        }
        check_range("--pc", self.pc, 0.0, 1.0)?;
        if let Some(pm) = self.pm {
            check_range("--pm", pm, 0.0, 1.0)?;
        }
        check_range("--pt", self.pt, 0.0, 1.0)?;
        if self.max_generations == Some(0) {
            bail!("--max-generations must be at least 1");
        }
        Ok(())
    }
}

/// The settings of one cellular GA run, as the engines take them.
#[derive(Clone, Debug)]
pub struct CgaConfig {
    /// The local search: 2-opt or greedy 2-opt.
    pub pass: Pass,
    /// The neighbourhood on the grid.
    pub topology: Topology,
    /// Grid width.
    pub w: u32,
    /// Grid height.
    pub h: u32,
    /// Crossover probability p_c.
    pub pc: f64,
    /// Mutation probability p_m.
    pub pm: f64,
    /// Transposition probability p_t.
    pub pt: f64,
    /// Thread mapping of the local search's swaps (never `Auto`).
    pub mapping: LsMapping,
    /// Local-search passes per generation (`CgaOptions::passes`).
    pub passes: u32,
    /// Seed of every random stream of the run.
    pub seed: u64,
    /// Stop after this many generations (None: no limit).
    pub max_generations: Option<u64>,
}

impl CgaConfig {
    /// The thesis's settings (§4.2): 8×8 grid, p_c = 0.6, p_m = 0.01, p_t = 0.4.
    pub fn paper(pass: Pass, topology: Topology) -> CgaConfig {
        CgaConfig {
            pass,
            topology,
            w: 8,
            h: 8,
            pc: 0.6,
            pm: 0.01,
            pt: 0.4,
            mapping: LsMapping::Auto.resolve(pass),
            passes: 1,
            seed: 1,
            max_generations: Some(100),
        }
    }

    /// The settings `o` asks for.
    pub fn from_options(o: &Options) -> CgaConfig {
        let c = &o.cga;
        CgaConfig {
            pass: c.pass,
            topology: c.topology,
            w: c.grid.0,
            h: c.grid.1,
            pc: c.pc,
            pm: c.pm.unwrap_or(0.01),
            pt: c.pt,
            mapping: c.mapping.resolve(c.pass),
            passes: c.passes,
            seed: o.seed,
            max_generations: c.max_generations,
        }
    }

    /// Individuals: w·h.
    pub fn population(&self) -> usize {
        self.w as usize * self.h as usize
    }

    /// (p_c, p_m, p_t) as `Xoshiro128::chance` thresholds.
    pub fn thresholds(&self) -> (u32, u32, u32) {
        (probability_threshold(self.pc), probability_threshold(self.pm), probability_threshold(self.pt))
    }

    /// The settings in one line, for reports.
    pub fn describe(&self) -> String {
        let topo = match self.topology {
            Topology::N4 => "4n",
            Topology::N8 => "8n",
            Topology::N16 => "16n",
            Topology::N20 => "20n",
            Topology::Random => "random couples",
        };
        let pass = match self.pass {
            Pass::TwoOpt => "2-opt",
            Pass::Greedy => "greedy 2-opt",
            Pass::Record => "2-opt as the thesis's Algorithm 16",
        };
        let passes = match self.passes {
            qapgpu_common::cga::TO_LOCAL_OPTIMUM => " to a local optimum each generation".to_string(),
            1 => String::new(),
            k => format!(", {k} passes per generation"),
        };
        format!(
            "{}×{} grid, {topo}, p_c = {}, p_m = {}, p_t = {}; {pass}{passes}",
            self.w, self.h, self.pc, self.pm, self.pt
        )
    }
}

/// σ⁻¹: `inverse(σ)[σ[i]] = i`.
pub fn inverse(p: &[u8]) -> Vec<u8> {
    let mut q = vec![0u8; p.len()];
    for (i, &x) in p.iter().enumerate() {
        q[x as usize] = i as u8;
    }
    q
}

/// The best-so-far of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Best {
    /// Its cost.
    pub cost: i64,
    /// Its permutation.
    pub perm: Vec<u8>,
    /// Generation that found it (0: the initial population).
    pub generation: u32,
}

/// The population state, for comparing the kernels with their CPU twin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CgaSnapshot {
    /// Each cell's row of n genes.
    pub rows: Vec<Vec<u8>>,
    /// Each cell's cost.
    pub costs: Vec<i64>,
    /// Each cell's random stream.
    pub rng: Vec<[u32; 4]>,
    /// The best so far.
    pub best: Best,
    /// The cell kept out of mutation.
    pub elite: u32,
}

/// A cellular GA engine: a population of w·h individuals that advances a generation at a time.
pub trait CgaEngine: Send {
    /// Where it runs; its stop word ends a generation's local searches early.
    fn site(&self) -> &Site;
    /// Threads per block of the local search (1 on the CPU).
    fn threads_per_block(&self) -> u32;
    /// Draws the initial population (generation 0).
    fn init(&mut self) -> Result<()>;
    /// Runs generation number `generation` (1 for the first).
    fn generation(&mut self, generation: u32) -> Result<()>;
    /// The best so far.
    fn best(&mut self) -> Result<Best>;
    /// The population state.
    fn snapshot(&mut self) -> Result<CgaSnapshot>;
    /// Every cell's cost.
    fn member_costs(&mut self) -> Result<Vec<i64>>;
    /// Cell `k` becomes `chromosome` (location → facility) of cost `cost`: an immigrant.
    fn put_member(&mut self, k: usize, chromosome: &[u8], cost: i64) -> Result<()>;
}

/// Builds the engine of `cfg` on `backend`.
pub fn engine(backend: &Backend, inst: &Instance, cfg: &CgaConfig) -> Result<Box<dyn CgaEngine>> {
    Ok(match backend {
        Backend::Gpu(g) => Box::new(gpu::CgaGpu::new(g.clone(), inst, cfg)?),
        Backend::Cpu { threads } => Box::new(cpu::CgaCpu::new(inst, cfg, *threads)?),
    })
}

/// The driver: one generation per `advance`, up to `max_generations`. Its engine works on
/// the dual instance (location → facility chromosomes); `best` and `found` answer in the
/// original's terms (facility → location).
pub struct CgaSolver {
    engine: Box<dyn CgaEngine>,
    cfg: CgaConfig,
    target: Option<i64>,
    generations: u64,
    best: Option<Best>,
}

impl CgaSolver {
    /// The driver of `engine` with the settings `cfg`, stopping at `target`.
    pub fn new(engine: Box<dyn CgaEngine>, cfg: CgaConfig, target: Option<i64>) -> CgaSolver {
        CgaSolver { engine, cfg, target, generations: 0, best: None }
    }

    fn refresh(&mut self) -> Result<&Best> {
        let mut b = self.engine.best()?;
        b.perm = inverse(&b.perm);
        Ok(self.best.insert(b))
    }
}

impl Solver for CgaSolver {
    fn info(&self) -> SolverInfo {
        let threads = self.engine.threads_per_block();
        let mapping = if threads > 1 {
            format!(", {:?} mapping, {threads} threads per individual", self.cfg.mapping).to_lowercase()
        } else {
            String::new()
        };
        SolverInfo {
            algorithm: CGA.name,
            engine: self.engine.site().engine,
            device: self.engine.site().device.clone(),
            layout: format!("{}{mapping}", self.cfg.describe()),
            blocks: self.cfg.population() as u32,
            threads_per_block: threads,
        }
    }

    fn stop_word(&self) -> Arc<StopWord> {
        self.engine.site().stop.clone()
    }

    fn init(&mut self) -> Result<()> {
        self.generations = 0;
        self.engine.init()?;
        self.refresh()?;
        Ok(())
    }

    fn advance(&mut self) -> Result<Advance> {
        if self.cfg.max_generations.is_some_and(|m| self.generations >= m) {
            return Ok(Advance::Exhausted);
        }
        self.generations += 1;
        self.engine.generation(self.generations as u32)?;
        self.refresh()?;
        Ok(Advance::Continue)
    }

    fn found(&mut self) -> Result<Option<(i64, Vec<u16>)>> {
        let t = self.target;
        Ok(self.best.as_ref().filter(|b| t.is_some_and(|t| b.cost <= t)).map(|b| (b.cost, crate::perm::widen(&b.perm))))
    }

    fn best(&mut self) -> Result<(i64, Vec<u16>)> {
        // Read back after init and after every generation; only a call before init reads.
        let b = match &self.best {
            Some(b) => b,
            None => self.refresh()?,
        };
        Ok((b.cost, crate::perm::widen(&b.perm)))
    }

    fn counters(&mut self) -> Result<Counters> {
        let at = self.best.as_ref().map(|b| b.generation as u64);
        Ok(Counters { iterations: self.generations, unit: "generations", best_at: at, ..Counters::default() })
    }

    /// The immigrant (facility → location) replaces the grid's worst cell, as a chromosome
    /// of the dual.
    fn immigrate(&mut self, cost: i64, perm: &[u16]) -> Result<bool> {
        match super::multi::worst_slot(&self.engine.member_costs()?, cost) {
            Some(k) => self.engine.put_member(k, &inverse(&crate::perm::narrow(perm)), cost).map(|_| true),
            None => Ok(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::inverse;
    use crate::io::Instance;

    #[test]
    fn the_dual_costs_a_permutation_what_its_inverse_costs() {
        let (inst, _, _) = Instance::planted(12, 4);
        let sigma: Vec<u8> = vec![3, 7, 0, 11, 5, 1, 9, 2, 10, 4, 8, 6];
        let p = inverse(&sigma);
        assert_eq!(inverse(&p), sigma);
        assert_eq!(inst.dual().cost(&sigma), inst.cost(&p));
    }
}
