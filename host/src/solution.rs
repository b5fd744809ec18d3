//! The result of a solve: its permutation re-costed on the host in 64 bits, with how it
//! was found, as text or JSON.
use crate::io::Instance;
use crate::run::{Outcome, SolverInfo, StopRule, Stopped, gap_percent};
use anyhow::{Result, ensure};
use serde::Serialize;

/// The answer of a solve and how it was found (`text` or JSON).
#[derive(Serialize, Debug, Clone)]
pub struct Solution {
    /// The instance's name.
    pub instance: String,
    /// Problem size.
    pub n: usize,
    /// The family that ran (what `auto` chose, where it chose).
    pub algorithm: String,
    /// "gpu" or "cpu".
    pub engine: String,
    /// The device, in words.
    pub device: String,
    /// The run's seed.
    pub seed: u64,
    /// `Σ a[i][j]·b[p(i)][p(j)]` of `permutation`, recomputed on the host.
    pub cost: i64,
    /// 1-based, QAPLIB order: `permutation[i]` is the location of facility i + 1.
    pub permutation: Vec<u32>,
    /// The target, where one was given.
    pub target: Option<i64>,
    /// The best-known value, where one is known.
    pub best_known: Option<i64>,
    /// Where `best_known` came from: the bks.csv or .sln file, `--known`, or the planted
    /// instance's optimum; None where no one said (a library caller's `Options::known`).
    pub best_known_source: Option<String>,
    /// Gap of `cost` to `best_known`, in percent.
    pub gap_percent: Option<f64>,
    /// Seconds to the target, where it was reached.
    pub time_to_target_s: Option<f64>,
    /// Seconds of search (after set-up: context, module, buffers).
    pub elapsed_s: f64,
    /// Generations or cAS iterations (`unit`).
    pub iterations: u64,
    /// What `iterations` counts.
    pub unit: String,
    /// Restarts during the run.
    pub restarts: u64,
    /// Local-search move evaluations (O(1) updates and O(n) recomputations alike) and the
    /// seconds the local-search launches took; 0 for families without one.
    pub move_evaluations: u64,
    /// Seconds the local-search launches took.
    pub local_search_s: f64,
    /// Iteration (generation) that found `cost`, where the family records it.
    pub found_at_iteration: Option<u64>,
    /// Blocks (subpopulations or ants).
    pub blocks: u32,
    /// Threads per block.
    pub threads_per_block: u32,
    /// The matrices' element type ("u16", "u32" or "i32").
    pub element_width: String,
    /// Stopped by Ctrl-C, SIGTERM or SIGHUP: the best solution so far.
    pub interrupted: bool,
    /// Why the run stopped: "time limit", "target", "converged", "proven optimal" (the exact
    /// method solved it; `algorithm` is then "exact"), "interrupted", "budget" (the
    /// family's own: `--max-ls-iterations`, `--max-generations`) or "asked" (an observer set
    /// the stop word).
    pub stopped: Stopped,
    /// The stop rule the run had (`--stop`): "time" or "converged".
    pub stop_rule: StopRule,
    /// Seconds into the run of its last improvement, as the `converged` rule saw it (None
    /// under the `time` rule and for a proven optimum).
    pub last_improvement_s: Option<f64>,
    /// Seconds into the run at which the family's search began (after a failed attempt of
    /// the exact method; 0 without one; None under the `time` rule and for a proven optimum):
    /// the `converged` rule waits its factor times the search's own time to the last
    /// improvement, or to the walks' settling where that came later.
    pub search_start_s: Option<f64>,
    /// How blocks and threads are used, in words.
    pub layout: String,
    /// Seconds the GPU engine spent before its first launch (context and module), once per
    /// opened backend; None on the CPU.
    pub startup_s: Option<f64>,
    /// What that start-up was, in words (which machine code or PTX was loaded).
    pub startup: Option<String>,
    /// Why `--algo auto` (the default) chose `algorithm`; None when it was given.
    pub auto: Option<String>,
}

impl Solution {
    /// Builds the solution after checking the permutation and recomputing its cost on the
    /// host: an engine's wrong answer is an error, never a report.
    pub fn new(
        inst: &Instance,
        out: &Outcome,
        info: &SolverInfo,
        seed: u64,
        target: Option<i64>,
        known: Option<i64>,
    ) -> Result<Solution> {
        ensure!(
            out.perm.len() == inst.n && crate::perm::is_permutation(&out.perm, inst.n),
            "{} on {}: the engine returned an invalid permutation",
            info.algorithm,
            info.engine
        );
        let cost = inst.cost(&out.perm);
        ensure!(cost == out.cost, "cost mismatch: the engine reported {} but the permutation costs {cost}", out.cost);
        Ok(Solution {
            instance: inst.name.clone(),
            n: inst.n,
            algorithm: info.algorithm.into(),
            engine: info.engine.into(),
            device: info.device.clone(),
            seed,
            cost,
            permutation: out.perm.iter().map(|&g| g as u32 + 1).collect(),
            target,
            best_known: known,
            best_known_source: None,
            gap_percent: gap_percent(cost, known),
            time_to_target_s: out.time_to_target_s,
            elapsed_s: out.elapsed_s,
            iterations: out.counters.iterations,
            unit: out.counters.unit.into(),
            restarts: out.counters.restarts,
            move_evaluations: out.counters.evaluations,
            local_search_s: out.counters.search_seconds,
            found_at_iteration: out.counters.best_at,
            blocks: info.blocks,
            threads_per_block: info.threads_per_block,
            element_width: inst.width.name().into(),
            interrupted: out.interrupted,
            stopped: out.stopped,
            // `solve_on_all` sets the rule it ran; an outcome of the `converged` rule says so.
            stop_rule: if out.last_improvement_s.is_some() || out.stopped == Stopped::ProvenOptimal {
                StopRule::Converged
            } else {
                StopRule::Time
            },
            last_improvement_s: out.last_improvement_s,
            search_start_s: out.search_start_s,
            layout: info.layout.clone(),
            startup_s: None,
            startup: None,
            auto: None,
        })
    }

    /// Why the run stopped, in words: the reason of `stopped` and what it means.
    pub fn stopped_text(&self) -> String {
        let rule = format!(" (--stop {})", self.stop_rule.name());
        match self.stopped {
            Stopped::TimeLimit => format!("time limit{rule}: best solution so far"),
            Stopped::Target => format!("target{rule}"),
            Stopped::Converged => {
                let at = self.last_improvement_s.unwrap_or(0.0);
                let from = self.search_start_s.unwrap_or(0.0);
                let exact = if from > 0.0 {
                    format!("; the search began after {from:.3} s of the exact method")
                } else {
                    String::new()
                };
                format!(
                    "converged{rule}: no improvement for {:.3} s after the last one at {at:.3} s ({}× the search's time to it or to the walks' settling{exact})",
                    (self.elapsed_s - at).max(0.0),
                    crate::algo::policy::CONVERGED_FACTOR
                )
            }
            Stopped::ProvenOptimal => format!("proven optimal{rule}: solved exactly by branch and bound on the CPU"),
            Stopped::Interrupted => "interrupted (SIGINT, SIGTERM or SIGHUP): best solution so far".into(),
            Stopped::Budget => {
                format!("budget{rule}: the family's own limit (--max-ls-iterations, --max-generations)")
            }
            Stopped::Asked => format!("asked{rule}: the stop word was set from outside the run loop"),
        }
    }

    /// The 0-based permutation (`perm[i]` is facility i's location).
    pub fn perm(&self) -> Vec<u16> {
        self.permutation.iter().map(|&g| (g - 1) as u16).collect()
    }

    /// The report as text, one field a line.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let line = |s: &mut String, k: &str, v: String| s.push_str(&format!("{k:<16} {v}\n"));
        line(&mut s, "instance", format!("{} (n = {}, {} elements)", self.instance, self.n, self.element_width));
        let why = self.auto.as_ref().map_or(String::new(), |w| format!(" (auto: {w})"));
        line(&mut s, "algorithm", format!("{}{why} on {} — {}", self.algorithm, self.engine, self.device));
        line(&mut s, "layout", self.layout.clone());
        if let Some(st) = &self.startup {
            line(&mut s, "start-up", st.clone());
        }
        line(&mut s, "seed", self.seed.to_string());
        let gap = match (self.gap_percent, self.best_known) {
            (Some(g), Some(k)) => {
                let from = self.best_known_source.as_ref().map_or(String::new(), |f| format!(", from {f}"));
                format!("  (gap {g:.4}% to best known {k}{from})")
            }
            _ => String::new(),
        };
        line(&mut s, "cost", format!("{}{gap}  [re-checked on the host in 64-bit]", self.cost));
        if let Some(t) = self.target {
            let reached = self
                .time_to_target_s
                .map_or("not reached".to_string(), |t| format!("reached in {} s", crate::bench::fmt_secs(t)));
            line(&mut s, "target", format!("{t}: {reached}"));
        }
        let restarts = if self.restarts > 0 { format!(", {} restarts", self.restarts) } else { String::new() };
        line(&mut s, "elapsed", format!("{:.3} s, {} {}{restarts}", self.elapsed_s, self.iterations, self.unit));
        if self.move_evaluations > 0 && self.local_search_s > 0.0 {
            let rate = self.move_evaluations as f64 / self.local_search_s;
            line(
                &mut s,
                "moves",
                format!(
                    "{:.3e} move costs in {:.3} s of local search: {rate:.3e}/s",
                    self.move_evaluations as f64, self.local_search_s
                ),
            );
        }
        line(&mut s, "stopped", self.stopped_text());
        let perm: Vec<String> = self.permutation.iter().map(u32::to_string).collect();
        line(&mut s, "permutation", perm.join(" "));
        s
    }
}
