//! The run loop shared by every engine and algorithm: launches of generations, island
//! migrations, target and time limits, Ctrl-C, and progress observers.
use crate::aco::{self, AcoEngine};
use crate::engine::{Algo, GaConfig, GaEngine};
use anyhow::Result;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub elapsed_s: f64,
    pub generations: u64,
    pub best: i64,
    pub known: Option<i64>,
    pub restarts: u64,
    /// What `generations` counts ("generations", "cAS iterations").
    pub unit: &'static str,
}

impl Progress {
    pub fn gap_percent(&self) -> Option<f64> {
        gap_percent(self.best, self.known)
    }
}

pub fn gap_percent(cost: i64, known: Option<i64>) -> Option<f64> {
    known.filter(|&k| k != 0).map(|k| 100.0 * (cost - k) as f64 / k as f64)
}

/// Watches a run (argmin-style observers): progress lines, logs, benchmarks' traces.
pub trait Observer {
    fn progress(&mut self, _p: &Progress) {}
}

/// No output (benchmarks, --quiet).
pub struct Silent;
impl Observer for Silent {}

/// A live line on stderr: best cost, gap, generations per second, restarts.
pub struct ProgressLine {
    tty: bool,
    last: f64,
}

impl ProgressLine {
    pub fn new() -> Self {
        ProgressLine { tty: std::io::stderr().is_terminal(), last: -1.0 }
    }
    pub fn finish(&self) {
        if self.tty {
            eprintln!();
        }
    }
}

impl Default for ProgressLine {
    fn default() -> Self {
        Self::new()
    }
}

impl Observer for ProgressLine {
    fn progress(&mut self, p: &Progress) {
        // On a terminal the line is redrawn; in a log, one line every two seconds.
        if !self.tty && p.elapsed_s - self.last < 2.0 {
            return;
        }
        self.last = p.elapsed_s;
        let gap = p.gap_percent().map_or(String::new(), |g| format!(" (gap {g:.3}%)"));
        let line = if p.unit == GENERATIONS {
            let rate = p.generations as f64 / p.elapsed_s.max(1e-9);
            format!(
                "[{:>7.2}s] best {}{gap} | {:.3e} gen/s | {} generations | restarts {}",
                p.elapsed_s, p.best, rate, p.generations, p.restarts
            )
        } else {
            format!("[{:>7.2}s] best {}{gap} | {} {}", p.elapsed_s, p.best, p.generations, p.unit)
        };
        let mut err = std::io::stderr().lock();
        let _ = if self.tty { write!(err, "\r{line}\x1b[K") } else { writeln!(err, "{line}") };
    }
}

#[derive(Clone, Debug)]
pub struct Limits {
    /// Stop when the best cost is at most this.
    pub target: Option<i64>,
    pub time_limit: Option<Duration>,
    /// Best-known value, for gaps only.
    pub known: Option<i64>,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub cost: i64,
    pub perm: Vec<u8>,
    pub time_to_target_s: Option<f64>,
    pub elapsed_s: f64,
    pub generations: u64,
    pub restarts: u64,
    pub interrupted: bool,
    /// What `generations` counts.
    pub unit: &'static str,
}

pub const GENERATIONS: &str = "generations";
pub const CAS_ITERATIONS: &str = "cAS iterations";

/// Seconds a launch should take: long enough to hide launch overhead, short enough for a
/// responsive time limit and progress line. FoundFlag ends a launch early, so the time to
/// target does not depend on it.
const LAUNCH_GOAL_S: f64 = 0.05;

/// Runs `engine` from a fresh population until the target, the time limit or `stop`.
/// The clock starts before the population is drawn (setup such as context creation and
/// module loading comes before and is not counted).
pub fn run(engine: &mut dyn GaEngine, cfg: &GaConfig, limits: &Limits, obs: &mut dyn Observer, stop: &AtomicBool) -> Result<Outcome> {
    anyhow::ensure!(cfg.restart_interval > 0, "the restart interval must be positive");
    anyhow::ensure!(
        cfg.algo != Algo::GaIslands || cfg.migration_interval % cfg.restart_interval == 0,
        "the migration interval must be a multiple of the restart interval ({})",
        cfg.restart_interval
    );
    let start = Instant::now();
    engine.init()?;
    let mut generations = 0u64;
    let mut chunk = cfg.restart_interval;
    let mut epoch = 0u64;
    let mut last_progress = 0.0;
    let mut found = None;
    let mut interrupted = false;
    loop {
        let mut gens = chunk;
        if cfg.algo == Algo::GaIslands {
            let done = (generations % cfg.migration_interval as u64) as u32;
            gens = gens.min(cfg.migration_interval - done);
        }
        let t0 = Instant::now();
        engine.advance(gens)?;
        let dt = t0.elapsed().as_secs_f64();
        generations += gens as u64;
        if let Some(f) = engine.found()? {
            found = Some((start.elapsed().as_secs_f64(), f));
            break;
        }
        if cfg.algo == Algo::GaIslands && generations % cfg.migration_interval as u64 == 0 {
            engine.migrate(epoch)?;
            epoch += 1;
        }
        // Grow or shrink launches toward LAUNCH_GOAL_S, in whole restart intervals.
        if dt < LAUNCH_GOAL_S / 2.0 && chunk < (1 << 20) {
            chunk *= 2;
        } else if dt > LAUNCH_GOAL_S * 2.0 && chunk > cfg.restart_interval {
            chunk = (chunk / 2).max(cfg.restart_interval) / cfg.restart_interval * cfg.restart_interval;
        }
        let elapsed = start.elapsed().as_secs_f64();
        if elapsed - last_progress >= 0.25 {
            last_progress = elapsed;
            let (best, _) = engine.best()?;
            obs.progress(&Progress { elapsed_s: elapsed, generations, best, known: limits.known, restarts: engine.restarts()?, unit: GENERATIONS });
        }
        if stop.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        if limits.time_limit.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
    }
    let elapsed_s = start.elapsed().as_secs_f64();
    let (cost, perm) = match &found {
        Some((_, f)) => f.clone(),
        None => engine.best()?,
    };
    let restarts = engine.restarts()?;
    obs.progress(&Progress { elapsed_s, generations, best: cost, known: limits.known, restarts, unit: GENERATIONS });
    Ok(Outcome { cost, perm, time_to_target_s: found.map(|f| f.0), elapsed_s, generations, restarts, interrupted, unit: GENERATIONS })
}

/// Per-block runs (`GaConfig::per_block_target`): every block is an independent run that
/// stops alone at the target. Returns each block's time to target (None: not within the
/// time limit).
pub fn run_per_block(engine: &mut dyn GaEngine, cfg: &GaConfig, time_limit: Duration) -> Result<Vec<Option<f64>>> {
    anyhow::ensure!(cfg.per_block_target && cfg.algo == Algo::GaIndependent, "per-block runs are independent runs");
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

/// Runs the cunning ant system of `engine` (seed 003, Fig. 2) until the target, the time
/// limit, `max_ls_iterations` local-search iterations in total (the paper's IT_TOTAL,
/// counted as m · IT_ACO · IT_LS, checked after each cAS iteration), or `stop`.
pub fn run_aco(
    engine: &mut dyn AcoEngine,
    n: usize,
    limits: &Limits,
    max_ls_iterations: Option<u64>,
    obs: &mut dyn Observer,
    stop: &AtomicBool,
) -> Result<Outcome> {
    let start = Instant::now();
    aco::init(engine, n)?;
    let cfg = engine.config().clone();
    let per_iteration = cfg.ants as u64 * cfg.ls_iterations as u64;
    let (mut iterations, mut budget_used) = (0u64, per_iteration);
    let mut found = None;
    let mut interrupted = false;
    let mut last_progress = 0.0;
    loop {
        let (best, _) = engine.best()?;
        let elapsed = start.elapsed().as_secs_f64();
        if limits.target.is_some_and(|t| best <= t) {
            found = Some(elapsed);
            break;
        }
        if elapsed - last_progress >= 0.25 {
            last_progress = elapsed;
            obs.progress(&Progress { elapsed_s: elapsed, generations: iterations, best, known: limits.known, restarts: 0, unit: CAS_ITERATIONS });
        }
        if stop.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        if limits.time_limit.is_some_and(|t| start.elapsed() >= t) || max_ls_iterations.is_some_and(|m| budget_used >= m) {
            break;
        }
        aco::iterate(engine, n)?;
        iterations += 1;
        budget_used += per_iteration;
    }
    let elapsed_s = start.elapsed().as_secs_f64();
    let (cost, perm) = engine.best()?;
    obs.progress(&Progress { elapsed_s, generations: iterations, best: cost, known: limits.known, restarts: 0, unit: CAS_ITERATIONS });
    Ok(Outcome { cost, perm, time_to_target_s: found, elapsed_s, generations: iterations, restarts: 0, interrupted, unit: CAS_ITERATIONS })
}
