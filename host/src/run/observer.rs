//! Observers of a run (argmin-style): progress lines, logs, benchmarks' traces.
use std::io::{IsTerminal, Write};

/// The state of a run, as observers see it.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Seconds since the search began.
    pub elapsed_s: f64,
    /// Generations or cAS iterations so far (`unit` says which).
    pub iterations: u64,
    /// The best cost so far.
    pub best: i64,
    /// The best-known value, where one is given.
    pub known: Option<i64>,
    /// Restarts so far.
    pub restarts: u64,
    /// What `iterations` counts.
    pub unit: &'static str,
}

impl Progress {
    /// The gap of `best` to `known` (`gap_percent`).
    pub fn gap_percent(&self) -> Option<f64> {
        gap_percent(self.best, self.known)
    }
}

/// 100 (cost − known) / |known| (above the known value is a positive gap, for negative
/// costs too), None without a non-zero best-known value.
pub fn gap_percent(cost: i64, known: Option<i64>) -> Option<f64> {
    known.filter(|&k| k != 0).map(|k| 100.0 * (cost as f64 - k as f64) / (k as f64).abs())
}

/// Watches a run.
pub trait Observer {
    /// Sees the run's progress, about every quarter of a second.
    fn progress(&mut self, _p: &Progress) {}
    /// Seconds between two `exchange` calls; None (the default): the observer takes part in
    /// no exchange.
    fn exchange_every_s(&self) -> Option<f64> {
        None
    }
    /// Sees the run's best so far and may hand back an immigrant from outside (another
    /// process's best, `cluster`), which the run loop gives to the solver.
    fn exchange(&mut self, _best: &(i64, Vec<u16>)) -> Option<(i64, Vec<u16>)> {
        None
    }
    /// Whether the run loop should report the best cost after every step (`trace`): one
    /// small read from the device per step, so only convergence plots ask for it.
    fn wants_trace(&self) -> bool {
        false
    }
    /// The best cost at `elapsed_s` seconds into the run, after a step.
    fn trace(&mut self, _elapsed_s: f64, _best: i64) {}
}

/// Records the best cost after every step where it improved: a convergence curve.
#[derive(Default)]
pub struct Trace {
    /// (seconds, best cost) at every improvement.
    pub points: Vec<(f64, i64)>,
}

impl Observer for Trace {
    fn wants_trace(&self) -> bool {
        true
    }
    fn trace(&mut self, elapsed_s: f64, best: i64) {
        if self.points.last().is_none_or(|&(_, b)| best < b) {
            self.points.push((elapsed_s, best));
        }
    }
}

impl Trace {
    /// The points as CSV: `seconds,best,gap_percent` (the gap empty without a best-known
    /// value).
    pub fn csv(&self, known: Option<i64>) -> String {
        let mut s = String::from("seconds,best,gap_percent\n");
        for &(t, best) in &self.points {
            let gap = gap_percent(best, known).map_or(String::new(), |g| format!("{g:.4}"));
            s.push_str(&format!("{t:.6},{best},{gap}\n"));
        }
        s
    }
}

/// Another observer's output, and the convergence curve beside it where `trace` is Some
/// (`solve --trace`).
pub struct Traced<'a> {
    /// The observer that reports.
    pub inner: &'a mut dyn Observer,
    /// The convergence curve, where one is asked for.
    pub trace: Option<Trace>,
}

impl Observer for Traced<'_> {
    fn progress(&mut self, p: &Progress) {
        self.inner.progress(p);
    }
    fn exchange_every_s(&self) -> Option<f64> {
        self.inner.exchange_every_s()
    }
    fn exchange(&mut self, best: &(i64, Vec<u16>)) -> Option<(i64, Vec<u16>)> {
        self.inner.exchange(best)
    }
    fn wants_trace(&self) -> bool {
        self.trace.is_some() || self.inner.wants_trace()
    }
    fn trace(&mut self, elapsed_s: f64, best: i64) {
        self.inner.trace(elapsed_s, best);
        if let Some(t) = self.trace.as_mut() {
            t.trace(elapsed_s, best);
        }
    }
}

/// No output (benchmarks, --quiet, the library API).
pub struct Silent;
impl Observer for Silent {}

/// A live line on stderr: best cost, gap, iteration rate, restarts.
pub struct ProgressLine {
    tty: bool,
    last: f64,
}

impl ProgressLine {
    /// A line on stderr: redrawn on a terminal, one line every two seconds in a log.
    pub fn new() -> Self {
        ProgressLine { tty: std::io::stderr().is_terminal(), last: -1.0 }
    }
    /// Ends the line (where stderr is a terminal).
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
        let rate = p.iterations as f64 / p.elapsed_s.max(1e-9);
        let restarts = if p.restarts > 0 { format!(" | restarts {}", p.restarts) } else { String::new() };
        let line = format!(
            "[{:>7.2}s] best {}{gap} | {} {} ({rate:.3e}/s){restarts}",
            p.elapsed_s, p.best, p.iterations, p.unit
        );
        let mut err = std::io::stderr().lock();
        let _ = if self.tty { write!(err, "\r{line}\x1b[K") } else { writeln!(err, "{line}") };
    }
}
