//! The one run loop that drives every solver (every family on every engine): target, time
//! limit, Ctrl-C, the stop rule (`StopRule`: run to the limit, or stop once converged, with
//! small instances solved exactly first), progress observers and the outcome, which says
//! why the run stopped (`Stopped`).
pub mod exact;
pub mod observer;
pub mod stop;

pub use observer::{Observer, Progress, ProgressLine, Silent, Trace, Traced, gap_percent};

use crate::algo::policy::{
    CONVERGED_FACTOR, CONVERGED_MIN_STEPS, CONVERGED_POLL_S, EXACT_GPU_NODE_BUDGET, EXACT_MAX_N, EXACT_NODE_BUDGET,
};
use crate::io::Instance;
use anyhow::Result;
use serde::Serialize;
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
    fn found(&mut self) -> Result<Option<(i64, Vec<u16>)>>;
    /// The best solution so far.
    fn best(&mut self) -> Result<(i64, Vec<u16>)>;
    /// The run's counters so far.
    fn counters(&mut self) -> Result<Counters>;
    /// Takes in a solution found elsewhere (another device's or process's best): it
    /// replaces the solver's worst member when it is better than that and not already there.
    /// Returns whether it was taken.
    fn immigrate(&mut self, cost: i64, perm: &[u16]) -> Result<bool>;
    /// Whether the run has not yet done the work after which the `converged` rule's clock
    /// starts (`ts` under that rule: `policy::CONVERGED_SETTLE_MOVES`): until then each step
    /// counts as an improvement's time.
    fn settling(&self) -> bool {
        false
    }
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
    pub perm: Vec<u16>,
    /// Seconds to the target, where it was reached.
    pub time_to_target_s: Option<f64>,
    /// Seconds of search.
    pub elapsed_s: f64,
    /// The run's counters at its end.
    pub counters: Counters,
    /// Stopped by `interrupt` (on the command line: SIGINT, SIGTERM or SIGHUP).
    pub interrupted: bool,
    /// Why the run stopped.
    pub stopped: Stopped,
    /// Seconds into the run of the last improvement the `converged` rule saw (None under the
    /// `time` rule, and for a proven optimum).
    pub last_improvement_s: Option<f64>,
    /// Seconds into the run at which the search began, after a failed attempt of the exact
    /// method (None under the `time` rule and for a proven optimum): the `converged` rule
    /// times the search from there.
    pub search_start_s: Option<f64>,
}

/// When a run may stop besides its target, its time limit, its own budget and Ctrl-C
/// (`--stop`, `Options::stop`). Under `Converged`, small instances (n ≤
/// `policy::EXACT_MAX_N`) are solved exactly on the CPU first (`exact`), and otherwise the
/// run stops after no improvement for `CONVERGED_FACTOR` times the time to its last
/// improvement, and at least `CONVERGED_MIN_STEPS` steps and, on uniform random data from
/// n = `CONVERGED_PLATEAU_MIN_N`, `CONVERGED_FLOOR_S` seconds (`policy::converged_floor_s`; `Convergence`).
/// (The variants' comments are `--help`'s.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum StopRule {
    /// Run to the time limit or the target (the default of the library and of `bench`).
    #[default]
    Time,
    /// Also stop once done: a small instance when proven optimal, a larger one once its
    /// search has converged (the default of `solve` where no target is known).
    Converged,
}

impl StopRule {
    /// The command line's default: `converged` where no target is known, else `time` (run to
    /// the target or the limit).
    pub fn default_for(target: Option<i64>) -> StopRule {
        if target.is_some() { StopRule::Time } else { StopRule::Converged }
    }

    /// The rule's name, as `--stop` takes it.
    pub fn name(self) -> &'static str {
        match self {
            StopRule::Time => "time",
            StopRule::Converged => "converged",
        }
    }
}

/// Why a run stopped (the report's `stopped` line, the JSON's `stopped`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Stopped {
    /// The time limit passed.
    #[serde(rename = "time limit")]
    TimeLimit,
    /// A solution reached the target.
    #[serde(rename = "target")]
    Target,
    /// The `converged` rule: no improvement for long enough.
    #[serde(rename = "converged")]
    Converged,
    /// The exact method proved the answer optimal.
    #[serde(rename = "proven optimal")]
    ProvenOptimal,
    /// Ctrl-C, SIGTERM or SIGHUP (`interrupt`).
    #[serde(rename = "interrupted")]
    Interrupted,
    /// The solver's own budget is spent (`--max-ls-iterations`, `--max-generations`).
    #[serde(rename = "budget")]
    Budget,
    /// Something else set the stop word (an observer's own limit).
    #[serde(rename = "asked")]
    Asked,
}

impl Stopped {
    /// The reason in the words of the JSON (`time limit`, `target`, `converged`, …).
    pub fn name(self) -> &'static str {
        match self {
            Stopped::TimeLimit => "time limit",
            Stopped::Target => "target",
            Stopped::Converged => "converged",
            Stopped::ProvenOptimal => "proven optimal",
            Stopped::Interrupted => "interrupted",
            Stopped::Budget => "budget",
            Stopped::Asked => "asked",
        }
    }
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the run loop needs for a stop rule besides `Limits`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stopping<'a> {
    /// The rule.
    pub rule: StopRule,
    /// The instance, for the exact method of the `converged` rule (None: none is tried).
    pub instance: Option<&'a Instance>,
    /// The target, so that a proven optimum at or below it has a time to target.
    pub target: Option<i64>,
    /// Seconds without improvement below which the `converged` rule never stops the run
    /// (`policy::converged_floor_s` of the instance).
    pub floor_s: f64,
    /// Nodes the exact method may take before the search runs instead.
    pub node_budget: u64,
}

impl<'a> Stopping<'a> {
    /// The stopping of a solve of `inst` under `rule`, to `target`: the instance's floor, and
    /// the exact method's budget for a search on a GPU (`gpu`) or the CPU.
    pub fn of(rule: StopRule, inst: &'a Instance, target: Option<i64>, gpu: bool) -> Stopping<'a> {
        Stopping {
            rule,
            instance: Some(inst),
            target,
            floor_s: crate::algo::policy::converged_floor_s(inst),
            node_budget: exact_budget(gpu),
        }
    }
}

/// The exact method's nodes before a search on a GPU (`gpu`) or on the CPU.
pub fn exact_budget(gpu: bool) -> u64 {
    if gpu { EXACT_GPU_NODE_BUDGET } else { EXACT_NODE_BUDGET }
}

/// The `converged` rule's record of a run: its best so far, when it last improved and the
/// steps since.
#[derive(Clone, Copy, Debug)]
pub struct Convergence {
    best: i64,
    /// The last improvement's time, and the time the patience counts from (later where the
    /// run was still settling, `hold`).
    at_s: f64,
    from_s: f64,
    steps: u64,
    floor_s: f64,
}

impl Convergence {
    /// A run whose best is `best` at `elapsed_s` seconds (after its initial solutions),
    /// never converged before `floor_s` seconds without improvement.
    pub fn new(elapsed_s: f64, best: i64, floor_s: f64) -> Convergence {
        Convergence { best, at_s: elapsed_s, from_s: elapsed_s, steps: 0, floor_s }
    }

    /// One more step of the solver.
    pub fn step(&mut self) {
        self.steps += 1;
    }

    /// The best cost read at `elapsed_s`: an improvement restarts the count.
    pub fn see(&mut self, elapsed_s: f64, best: i64) {
        if best < self.best {
            (self.best, self.at_s, self.from_s, self.steps) = (best, elapsed_s, elapsed_s, 0);
        }
    }

    /// The run is still settling at `elapsed_s` (`Solver::settling`): the clock counts from
    /// now, as from an improvement.
    pub fn hold(&mut self, elapsed_s: f64) {
        (self.from_s, self.steps) = (elapsed_s, 0);
    }

    /// Seconds into the run of the last improvement seen (or of the first best read).
    pub fn last_improvement_s(&self) -> f64 {
        self.at_s
    }

    /// The seconds without improvement after which the run has converged:
    /// `CONVERGED_FACTOR` × the time to the last improvement (or to the end of the settling),
    /// at least the floor.
    pub fn patience_s(&self) -> f64 {
        (CONVERGED_FACTOR * self.from_s).max(self.floor_s)
    }

    /// Whether the run has converged at `elapsed_s`: no improvement for `patience_s` and for
    /// at least `CONVERGED_MIN_STEPS` steps.
    pub fn converged(&self, elapsed_s: f64) -> bool {
        elapsed_s - self.from_s >= self.patience_s() && self.steps >= CONVERGED_MIN_STEPS
    }
}

/// Seconds between two progress reports.
const PROGRESS_EVERY_S: f64 = 0.25;

/// Runs `solver` from fresh solutions until its target, the time limit, its own budget or
/// `interrupt` (the `time` rule: `run_until` with `Stopping::default()`).
pub fn run(
    solver: &mut dyn Solver,
    limits: &Limits,
    obs: &mut dyn Observer,
    interrupt: &AtomicBool,
) -> Result<Outcome> {
    run_until(solver, limits, &Stopping::default(), obs, interrupt)
}

/// How the loop ended.
enum Ended {
    /// The solver's target, at these seconds.
    Found(f64, (i64, Vec<u16>)),
    /// The stop word, the clock, or the solver's budget.
    Stopped(Stopped),
    /// The `converged` rule.
    Converged,
    /// The exact method's optimum.
    Proven(exact::Optimum),
}

/// Runs `solver` from fresh solutions until its target, the time limit, its own budget,
/// `interrupt` or, under `StopRule::Converged`, convergence (after trying the exact method
/// where `stopping` has the instance and n ≤ `EXACT_MAX_N`). The clock starts just before the
/// initial solutions are drawn (or the exact method starts): context creation, module
/// loading, the engine's buffers, clearing the stop word and starting the watchdog thread
/// come before and are not counted (the time limit counts from before the watchdog, so it is
/// never late).
///
/// The `converged` rule reads the solver's best every `CONVERGED_POLL_S` seconds of the run
/// (every step where an observer traces), so its time to the last improvement is late by at
/// most that and one step: the rule only waits longer. The `time` rule reads nothing more
/// than before.
pub fn run_until(
    solver: &mut dyn Solver,
    limits: &Limits,
    stopping: &Stopping,
    obs: &mut dyn Observer,
    interrupt: &AtomicBool,
) -> Result<Outcome> {
    let word = solver.stop_word();
    word.clear();
    let deadline = limits.time_limit.and_then(|t| Instant::now().checked_add(t));
    let converging = stopping.rule == StopRule::Converged;
    let mut start = Instant::now();
    let mut conv: Option<Convergence> = None;
    // Seconds the exact method took before the search: the `converged` rule times the search
    // alone (a failed exact attempt of 5 ms made small GPU runs wait 40 ms more).
    let mut search_from = 0.0;
    let ended = with_watchdog(&word, deadline, interrupt, || -> Result<_> {
        start = Instant::now();
        if converging && let Some(inst) = stopping.instance.filter(|i| i.n <= EXACT_MAX_N) {
            let stop = || word.is_set();
            if let Some(opt) = exact::solve(inst, stopping.node_budget, &stop) {
                return Ok(Ended::Proven(opt));
            }
            search_from = start.elapsed().as_secs_f64();
        }
        solver.init()?;
        let (mut last_progress, mut last_exchange, mut last_poll) = (0.0, 0.0, 0.0);
        let exchange_every = obs.exchange_every_s();
        let trace = obs.wants_trace();
        if trace || converging {
            let (elapsed, best) = (start.elapsed().as_secs_f64(), solver.best()?.0);
            if trace {
                obs.trace(elapsed, best);
            }
            if converging {
                conv = Some(Convergence::new(elapsed - search_from, best, stopping.floor_s));
            }
        }
        loop {
            if let Some(f) = solver.found()? {
                return Ok(Ended::Found(start.elapsed().as_secs_f64(), f));
            }
            if word.is_set() || deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(Ended::Stopped(if interrupt.load(Ordering::Relaxed) {
                    Stopped::Interrupted
                } else if deadline.is_some_and(|d| Instant::now() >= d) {
                    Stopped::TimeLimit
                } else {
                    Stopped::Asked
                }));
            }
            if solver.advance()? == Advance::Exhausted {
                return Ok(Ended::Stopped(Stopped::Budget));
            }
            let elapsed = start.elapsed().as_secs_f64();
            let mut seen = None;
            if trace {
                let best = solver.best()?.0;
                obs.trace(elapsed, best);
                seen = Some(best);
            }
            if let Some(c) = conv.as_mut() {
                c.step();
                if seen.is_none() && elapsed - last_poll >= CONVERGED_POLL_S.min(elapsed / 20.0) {
                    last_poll = elapsed;
                    seen = Some(solver.best()?.0);
                }
                let searched = elapsed - search_from;
                if let Some(best) = seen {
                    c.see(searched, best);
                }
                if solver.settling() {
                    c.hold(searched);
                }
                if c.converged(searched) {
                    return Ok(Ended::Converged);
                }
            }
            if exchange_every.is_some_and(|e| elapsed - last_exchange >= e) {
                last_exchange = elapsed;
                if let Some((cost, perm)) = obs.exchange(&solver.best()?) {
                    solver.immigrate(cost, &perm)?;
                    // An immigrant at the target (re-costed here) ends the run as the solver's
                    // own find would.
                    let recosted = stopping.instance.and_then(|i| i.checked_cost(&perm).ok());
                    if let (Some(t), Some(c)) = (stopping.target, recosted)
                        && c <= t
                    {
                        return Ok(Ended::Found(start.elapsed().as_secs_f64(), (c, perm)));
                    }
                }
            }
            if elapsed - last_progress >= PROGRESS_EVERY_S {
                last_progress = elapsed;
                progress(solver, obs, elapsed, limits.known)?;
            }
        }
    })?;
    let elapsed_s = start.elapsed().as_secs_f64();
    // Ctrl-C during the run, even when the work it cut short had reached the target.
    let interrupted = interrupt.load(Ordering::Relaxed);
    let last_improvement_s = conv.map(|c| c.last_improvement_s() + search_from);
    let (cost, perm, time_to_target_s, counters, stopped) = match ended {
        Ended::Proven(opt) => {
            let counters = Counters { iterations: opt.nodes, unit: exact::UNIT, ..Counters::default() };
            let reached = stopping.target.is_some_and(|t| opt.cost <= t).then_some(elapsed_s);
            (opt.cost, crate::perm::widen(&opt.perm), reached, counters, Stopped::ProvenOptimal)
        }
        Ended::Found(at, (cost, perm)) => (cost, perm, Some(at), solver.counters()?, Stopped::Target),
        other => {
            let stopped = match other {
                Ended::Stopped(s) => s,
                _ => Stopped::Converged,
            };
            let (cost, perm) = solver.best()?;
            (cost, perm, None, solver.counters()?, stopped)
        }
    };
    obs.progress(&Progress {
        elapsed_s,
        iterations: counters.iterations,
        best: cost,
        known: limits.known,
        restarts: counters.restarts,
        unit: counters.unit,
    });
    let last_improvement_s = if stopped == Stopped::ProvenOptimal { None } else { last_improvement_s };
    let search_start_s = last_improvement_s.map(|_| search_from);
    Ok(Outcome {
        cost,
        perm,
        time_to_target_s,
        elapsed_s,
        counters,
        interrupted,
        stopped,
        last_improvement_s,
        search_start_s,
    })
}

fn progress(solver: &mut dyn Solver, obs: &mut dyn Observer, elapsed_s: f64, known: Option<i64>) -> Result<()> {
    let (best, _) = solver.best()?;
    let c = solver.counters()?;
    obs.progress(&Progress { elapsed_s, iterations: c.iterations, best, known, restarts: c.restarts, unit: c.unit });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Convergence;
    use crate::algo::policy::{CONVERGED_FACTOR, CONVERGED_FLOOR_S, CONVERGED_MIN_STEPS};

    /// Steps of `dt` seconds from 1 ms to `t1`, improving at each time of `improve_at`,
    /// under a floor of `floor_s`; the time the rule stops, if it does.
    fn stops_at(t1: f64, dt: f64, improve_at: &[f64], floor_s: f64) -> Option<f64> {
        let mut c = Convergence::new(0.001, 1000, floor_s);
        let (mut t, mut best, mut next) = (0.001, 1000, 0);
        while t < t1 {
            t += dt;
            c.step();
            while next < improve_at.len() && improve_at[next] <= t {
                (best, next) = (best - 1, next + 1);
            }
            c.see(t, best);
            if c.converged(t) {
                return Some(t);
            }
        }
        None
    }

    #[test]
    fn under_the_floor_a_run_that_improves_every_few_hundred_ms_goes_on() {
        // From the first milliseconds on, an improvement every 0.4 s: never converged.
        let every: Vec<f64> = (0..25).map(|k| 0.002 + 0.4 * k as f64).collect();
        assert_eq!(stops_at(10.0, 0.001, &every, CONVERGED_FLOOR_S), None);
        // Without the floor, it stops after the first wait longer than the factor allows.
        let t = stops_at(10.0, 0.001, &every, 0.0).unwrap();
        assert!(t < 0.4, "{t}");
    }

    #[test]
    fn a_run_stops_after_the_floor_or_the_factor() {
        // Optimal at 1 ms: stops at the floor where there is one…
        let t = stops_at(10.0, 0.001, &[0.001], CONVERGED_FLOOR_S).unwrap();
        assert!((CONVERGED_FLOOR_S..CONVERGED_FLOOR_S + 0.01).contains(&t), "{t}");
        // …else within milliseconds, after the factor and the steps' floor.
        let t = stops_at(10.0, 0.001, &[0.001], 0.0).unwrap();
        assert!(t <= 0.002 * (1.0 + CONVERGED_FACTOR) + 0.001 * CONVERGED_MIN_STEPS as f64, "{t}");
        // Last improvement at 1 s: stops at (1 + factor) s.
        let t = stops_at(20.0, 0.001, &[0.5, 1.0], CONVERGED_FLOOR_S).unwrap();
        assert!((1.0 + CONVERGED_FACTOR..1.0 + CONVERGED_FACTOR + 0.01).contains(&t), "{t}");
    }

    #[test]
    fn long_steps_need_the_steps_floor() {
        // Steps of 1 s: not before CONVERGED_MIN_STEPS of them without improvement.
        let t = stops_at(100.0, 1.0, &[], 0.0).unwrap();
        assert!(t >= CONVERGED_MIN_STEPS as f64, "{t}");
    }
}
