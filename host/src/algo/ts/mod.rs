//! `ts`: a device-resident multi-start robust tabu search. Hundreds to thousands of
//! independent Ro-TS walks, one block each, every walk going on from launch to launch with
//! its own tabu matrix, iteration count and best (the `ts_walk` kernels, `ls::tabu_walk` on
//! the CPU); no construction, no pheromone, no host work between launches but reading the
//! best. The run's target is checked inside the search: the block that reaches it writes
//! the stop word and every walk stops at its next poll.
//!
//! The engines are the ACO family's (`algo::aco::{gpu, cpu}`) in walk mode
//! (`AcoConfig::walk`): the same buffers and thread mappings; by default the sums layout
//! where it applies (`aco::gpu::settle_layout`).
use super::aco::{self, AcoConfig, AcoEngine, Layout};
use super::{Backend, Family, Options};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::run::{Advance, Counters, Solver, SolverInfo};
use anyhow::Result;
use qapgpu_common::ls::{LsKind, TenureLaw};
use qapgpu_common::mata::{MAX_THREADS, walk_split_threads};
use std::sync::Arc;

pub const TS: Family = Family {
    name: "ts",
    about: "multi-start robust tabu search: one walk per block, going on from launch to launch, the GPU filled",
    min_n: 3,
    build,
};

/// Moves of every walk per launch (`--ls-iterations`): long enough that a launch's fresh Δ
/// scan and its host round trip are small, short enough for a progress line; the target and
/// the stop word end a launch early anyway.
pub const LAUNCH_ITERATIONS: u32 = 2048;

/// Ro-TS (Taillard's 2006 code): the tabu duration is r³ times this many n (r uniform in
/// [0, 1), one draw per entry), and an assignment unused for this many n² iterations is
/// aspired.
pub const TENURE_FACTOR: u32 = 8;
/// Half the walks draw as Taillard's 2006 code does (T·r³, T = 8n), half as his 1991 Ro-TS
/// did (uniform around T/4 = 2n): on the small structured targets the uniform walks hit
/// the optimum sooner (tai35b: median 0.7 ms against 1.1 ms) but now and then not for
/// thousands of moves (tai40b), and on tai*a the cubic ones do better (BENCHMARKS.md).
pub const TENURE_LAW: TenureLaw = TenureLaw::Mixed;
pub const ASPIRATION_FACTOR: u32 = 5;

fn build(backend: &Backend, inst: &Instance, opts: &Options) -> Result<Box<dyn Solver>> {
    Ok(Box::new(TsSolver::new(walk_engine(backend, inst, opts)?, opts.target)))
}

/// The walks of `opts` on `backend`: Ro-TS settings, the GPU filled (one walk per CPU
/// thread on the CPU). Shared with `memetic`, whose population they are.
pub fn walk_engine(backend: &Backend, inst: &Instance, opts: &Options) -> Result<Box<dyn AcoEngine>> {
    let mut cfg = AcoConfig::from_options(LsKind::Tabu, inst, opts);
    cfg.walk = true;
    cfg.layout = opts.aco.layout.unwrap_or(Layout::Sums);
    cfg.split_threads = opts.aco.split_threads.or(Some(walk_split_threads(inst.n as u32, MAX_THREADS)));
    cfg.ls_iterations = opts.aco.ls_iterations.unwrap_or(LAUNCH_ITERATIONS);
    // Taillard's Ro-TS settings: tenures r³·8n (in half the walks), long-term aspiration
    // after 5n² iterations.
    let n = inst.n as u32;
    cfg.tabu_list_size = opts.aco.tabu_list.unwrap_or(TENURE_FACTOR * n);
    cfg.aspiration = ASPIRATION_FACTOR * n * n;
    // Taillard's code draws each entry's tenure.
    cfg.tenure_per_move = opts.aco.tenure_per_move.unwrap_or(false);
    cfg.tenure_law = opts.aco.tenure_law.unwrap_or(TENURE_LAW);
    match backend {
        Backend::Gpu(g) => {
            aco::gpu::settle_layout(g, inst, &mut cfg, opts.aco.layout.is_some())?;
            // By default the GPU filled: as many walks as its SMs hold at once, one wave
            // (`AcoConfig::one_wave`, applied by the engine from the layout it plans).
            if opts.aco.ants.is_none() {
                (cfg.ants, cfg.one_wave) = (aco::MAX_ANTS, true);
            }
        }
        // One walk per CPU thread: the multi-start tabu search on all cores.
        Backend::Cpu { threads } => cfg.ants = opts.aco.ants.unwrap_or((if *threads == 0 { rayon::current_num_threads() } else { *threads }) as u32),
    }
    aco::engine(backend, inst, &cfg)
}

/// The driver: random starts, then one launch of every walk per `advance`.
pub struct TsSolver {
    engine: Box<dyn AcoEngine>,
    target: Option<i64>,
}

impl TsSolver {
    pub fn new(engine: Box<dyn AcoEngine>, target: Option<i64>) -> TsSolver {
        TsSolver { engine, target }
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
        let mapping = if threads > 1 { format!(", {} layout, {threads} threads per walk{}", cfg.layout.name(), self.engine.memory()) } else { String::new() };
        SolverInfo {
            algorithm: "ts",
            engine: self.engine.site().engine,
            device: self.engine.site().device.clone(),
            layout: format!("{} walks of robust tabu search, T_list = {}, {}, {} moves per launch{mapping}", cfg.ants, cfg.tabu_list_size, cfg.tenure_rule(), cfg.ls_iterations),
            blocks: cfg.ants,
            threads_per_block: threads,
        }
    }

    fn stop_word(&self) -> Arc<StopWord> {
        self.engine.site().stop.clone()
    }

    fn init(&mut self) -> Result<()> {
        self.engine.random_ants()?;
        self.advance().map(|_| ())
    }

    fn advance(&mut self) -> Result<Advance> {
        self.engine.local_search()?;
        self.engine.update_best()?;
        Ok(Advance::Continue)
    }

    fn found(&mut self) -> Result<Option<(i64, Vec<u8>)>> {
        aco::reached(self.engine.as_mut(), self.target)
    }

    fn best(&mut self) -> Result<(i64, Vec<u8>)> {
        self.engine.best()
    }

    fn counters(&mut self) -> Result<Counters> {
        let st = self.engine.ls_stats();
        Ok(Counters { iterations: st.iterations, unit: "tabu moves (all walks)", restarts: 0, evaluations: st.evaluations, search_seconds: st.seconds, best_at: None })
    }

    /// The worst walk restarts from the immigrant with a fresh tabu memory.
    fn immigrate(&mut self, cost: i64, perm: &[u8]) -> Result<bool> {
        aco::immigrate(self.engine.as_mut(), cost, perm)
    }
}
