//! The one run loop that drives every solver (every family on every engine): target, time
//! limit, Ctrl-C, progress observers and the outcome.
pub mod observer;
pub mod stop;

pub use observer::{Observer, Progress, ProgressLine, Silent, Trace, Traced, gap_percent};

use anyhow::Result;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use stop::{StopWord, with_watchdog};

/// What a solver says about itself in reports.
#[derive(Clone, Debug)]
pub struct SolverInfo {
    /// Registry name, e.g. "aco-ts".
    pub algorithm: &'static str,
    /// "gpu" or "cpu".
    pub engine: &'static str,
    /// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)", "CPU, 16 threads".
    pub device: String,
    /// How blocks and threads are used, in words.
    pub layout: String,
    /// Blocks (subpopulations or ants) and threads per block.
    pub blocks: u32,
    /// Threads per block (1 on the CPU).
    pub threads_per_block: u32,
}

/// Counters of a run so far.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counters {
    /// Generations (GAs) or cAS iterations (ACO): `unit` says which.
    pub iterations: u64,
    /// What `iterations` counts: "generations", "cAS iterations", "tabu moves (all walks)".
    pub unit: &'static str,
    /// Restarts so far (0 where a family has none).
    pub restarts: u64,
    /// Local-search move evaluations and the seconds spent in local searches (0 where a
    /// family has none).
    pub evaluations: u64,
    /// Seconds spent in local searches (0 where a family has none).
    pub search_seconds: f64,
    /// Iteration at which the best solution so far was found, where a family records it.
    pub best_at: Option<u64>,
}

/// Whether a solver can go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advance {
    /// It can take another step.
    Continue,
    /// Its own budget (e.g. IT_TOTAL) is spent.
    Exhausted,
}

/// One algorithm on one engine, built by `algo::build` from one options value. The run
/// loop calls `init` once, then `advance` until a stop; every call may end early when
/// `stop_word` is set.
pub trait Solver: Send {
    /// What runs where, for reports.
    fn info(&self) -> SolverInfo;
    /// The word the run loop sets to stop the work in flight.
    fn stop_word(&self) -> Arc<StopWord>;
    /// Draws the initial solutions.
    fn init(&mut self) -> Result<()>;
    /// One slice of work (a launch of generations, a cAS iteration).
    fn advance(&mut self) -> Result<Advance>;
    /// The solution that reached the solver's target, once one has.
    fn found(&mut self) -> Result<Option<(i64, Vec<u8>)>>;
    /// The best solution so far.
    fn best(&mut self) -> Result<(i64, Vec<u8>)>;
    /// The run's counters so far.
    fn counters(&mut self) -> Result<Counters>;
    /// Takes in a solution found elsewhere (another device's or process's best): it
    /// replaces the solver's worst member when it is better than that and not already there.
    /// Returns whether it was taken.
    fn immigrate(&mut self, cost: i64, perm: &[u8]) -> Result<bool>;
}

/// When a run stops, besides its target.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this long (None: no limit).
    pub time_limit: Option<Duration>,
    /// Best-known value, for gaps only.
    pub known: Option<i64>,
}

/// What a run ended with.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The best cost found.
    pub cost: i64,
    /// Its permutation (0-based).
    pub perm: Vec<u8>,
    /// Seconds to the target, where it was reached.
    pub time_to_target_s: Option<f64>,
    /// Seconds of search.
    pub elapsed_s: f64,
    /// The run's counters at its end.
    pub counters: Counters,
    /// Stopped by `interrupt` (on the command line: SIGINT, SIGTERM or SIGHUP).
    pub interrupted: bool,
}

/// Seconds between two progress reports.
const PROGRESS_EVERY_S: f64 = 0.25;

/// Runs `solver` from fresh solutions until its target, the time limit, its own budget or
/// `interrupt`. The clock starts just before the initial solutions are drawn: context
/// creation, module loading, the engine's buffers, clearing the stop word and starting the
/// watchdog thread come before and are not counted (the time limit counts from before the
/// watchdog, so it is never late).
pub fn run(
    solver: &mut dyn Solver,
    limits: &Limits,
    obs: &mut dyn Observer,
    interrupt: &AtomicBool,
) -> Result<Outcome> {
    let word = solver.stop_word();
    word.clear();
    let deadline = limits.time_limit.and_then(|t| Instant::now().checked_add(t));
    let mut start = Instant::now();
    let found = with_watchdog(&word, deadline, interrupt, || -> Result<_> {
        start = Instant::now();
        solver.init()?;
        let (mut last_progress, mut last_exchange) = (0.0, 0.0);
        let exchange_every = obs.exchange_every_s();
        let trace = obs.wants_trace();
        if trace {
            obs.trace(start.elapsed().as_secs_f64(), solver.best()?.0);
        }
        loop {
            if let Some(f) = solver.found()? {
                return Ok(Some((start.elapsed().as_secs_f64(), f)));
            }
            if word.is_set() || deadline.is_some_and(|d| Instant::now() >= d) || solver.advance()? == Advance::Exhausted
            {
                return Ok(None);
            }
            let elapsed = start.elapsed().as_secs_f64();
            if trace {
                obs.trace(elapsed, solver.best()?.0);
            }
            if exchange_every.is_some_and(|e| elapsed - last_exchange >= e) {
                last_exchange = elapsed;
                if let Some((cost, perm)) = obs.exchange(&solver.best()?) {
                    solver.immigrate(cost, &perm)?;
                }
            }
            if elapsed - last_progress >= PROGRESS_EVERY_S {
                last_progress = elapsed;
                progress(solver, obs, elapsed, limits.known)?;
            }
        }
    })?;
    let elapsed_s = start.elapsed().as_secs_f64();
    let (cost, perm) = match &found {
        Some((_, f)) => f.clone(),
        None => solver.best()?,
    };
    let counters = solver.counters()?;
    obs.progress(&Progress {
        elapsed_s,
        iterations: counters.iterations,
        best: cost,
        known: limits.known,
        restarts: counters.restarts,
        unit: counters.unit,
    });
    // Ctrl-C during the run, even when the work it cut short had reached the target.
    let interrupted = interrupt.load(Ordering::Relaxed);
    Ok(Outcome { cost, perm, time_to_target_s: found.map(|f| f.0), elapsed_s, counters, interrupted })
}

fn progress(solver: &mut dyn Solver, obs: &mut dyn Observer, elapsed_s: f64, known: Option<i64>) -> Result<()> {
    let (best, _) = solver.best()?;
    let c = solver.counters()?;
    obs.progress(&Progress { elapsed_s, iterations: c.iterations, best, known, restarts: c.restarts, unit: c.unit });
    Ok(())
}
