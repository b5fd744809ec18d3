//! Solving a posed problem: the QAP search with the problem's construction heuristics'
//! starts and its polish beside it (`polish::Hybrid`), the answer the better of the two;
//! and the clique search over k with the same (`CliqueWalk`). The command line and `bench
//! problems` both run these.
use super::graph::Graph;
use super::plateau::{Adjacency, best_greedy};
use super::polish::{self, Hybrid, Mode, Polishing};
use super::{Posed, clique};
use crate::algo::{Backend, Options};
use crate::output::stderr_line;
use crate::run::Observer;
use crate::solution::Solution;
use anyhow::Result;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// What the polish added: its report, and whether the answer is its (else the search's).
#[derive(Clone, Debug)]
pub struct Polished {
    /// The polish's report.
    pub report: polish::Report,
    /// Whether the answer is the polish's.
    pub from_polish: bool,
}

/// A posed problem solved: the QAP search's solution, the answer's permutation and QAP
/// cost (the better of the search's and the polish's), and the polish's report.
pub struct Solved {
    /// The QAP search's solution, as it ended.
    pub sol: Solution,
    /// The answer's permutation.
    pub perm: Vec<u16>,
    /// Its QAP cost, recomputed on the host.
    pub cost: i64,
    /// What the polish did (None where the problem has none).
    pub polished: Option<Polished>,
}

impl Solved {
    /// Whether the answer is the polish's rather than the search's.
    pub fn from_polish(&self) -> bool {
        self.polished.as_ref().is_some_and(|p| p.from_polish)
    }

    /// The search's solution with the answer's permutation and cost, for a .sln file.
    pub fn written(&self) -> Solution {
        let mut w = self.sol.clone();
        w.cost = self.cost;
        w.permutation = self.perm.iter().map(|&g| u32::from(g) + 1).collect();
        w
    }
}

/// Solves `posed` with `opts`: the search gets the problem's starts, and its polish runs
/// beside it under `mode`.
pub fn posed(
    backends: &[Backend],
    posed: &dyn Posed,
    opts: &Options,
    mode: Mode,
    obs: &mut dyn Observer,
    interrupt: &AtomicBool,
) -> Result<Solved> {
    let inst = posed.qap();
    let starts = posed.starts();
    let hybrid = posed.polish(opts.seed).map(|p| Hybrid::start(inst, p, starts.clone(), mode));
    let mut polishing = Polishing::new(inst, obs, hybrid.as_ref(), &starts);
    let sol = crate::api::solve_on_all(backends, inst, opts, &mut polishing, interrupt)?;
    let taken = polishing.taken;
    let finished = hybrid.map(|h| h.finish(taken));
    let better = finished.as_ref().and_then(|f| f.1.clone()).filter(|b| b.0 < sol.cost);
    let polished = finished.map(|(report, _)| Polished { report, from_polish: better.is_some() });
    let (cost, perm) = better.unwrap_or_else(|| (sol.cost, sol.perm()));
    Ok(Solved { sol, perm, cost, polished })
}

/// A clique search's settings (`CliqueWalk::run`).
pub struct CliqueWalk<'w> {
    /// The devices.
    pub backends: &'w [Backend],
    /// The options of the QAP of a k with this target.
    pub options: &'w dyn Fn(Option<i64>) -> Options,
    /// The polish's seed.
    pub seed: u64,
    /// `--polish`.
    pub mode: Mode,
    /// No line on stderr per k.
    pub quiet: bool,
    /// No k above this is tried (a bench that knows ω).
    pub up_to: Option<usize>,
}

impl CliqueWalk<'_> {
    /// Walks k (`clique::search`). The greedy constructions give a first clique; each k that
    /// the constructions or the polish have reached already is found without a QAP run; the
    /// others run the QAP search with the plateau search beside it. Returns the search, the
    /// last QAP solution (the last that reached its k, else the first) and that run's
    /// polish report.
    pub fn run(
        &self,
        g: &Graph,
        k: Option<usize>,
        direction: clique::Direction,
        obs: &mut dyn Observer,
        interrupt: &AtomicBool,
    ) -> Result<(clique::Found, Option<Solution>, Option<Polished>)> {
        let adj = Adjacency::of(g);
        let largest = Arc::new(Mutex::new(best_greedy(&adj)));
        let (mut last, mut polished): (Option<Solution>, Option<Polished>) = (None, None);
        let (mut reached_by, mut searched) = ("", false);
        let mut found = clique::search(g, k, direction, |problem| {
            let k = problem.k;
            if interrupt.load(Ordering::Relaxed) || self.up_to.is_some_and(|u| k > u) {
                // Stopped, or past the bench's ω: no further k is tried.
                return Ok((Vec::new(), false));
            }
            let have = largest.lock().unwrap_or_else(PoisonError::into_inner).clone();
            if have.len() >= k {
                reached_by = if searched { "polish" } else { "construction" };
                if !self.quiet {
                    stderr_line(format_args!("clique k = {k}: found by the {reached_by} (a {}-clique)", have.len()));
                }
                return Ok((clique::slots_of(&adj, &have, k), true));
            }
            let target = problem.target();
            let opts = (self.options)(target);
            let starts = vec![clique::slots_of(&adj, &have, k)];
            let polish = Box::new(clique::CliquePolish::new(g, k, self.seed, largest.clone()));
            let hybrid = Hybrid::start(problem.qap(), polish, starts.clone(), self.mode);
            let mut polishing = Polishing::new(problem.qap(), obs, Some(&hybrid), &starts);
            let sol = crate::api::solve_on_all(self.backends, problem.qap(), &opts, &mut polishing, interrupt)?;
            let taken = polishing.taken;
            let (report, best) = hybrid.finish(taken);
            let by_polish = best.filter(|b| target.is_some_and(|t| b.0 <= t));
            let by_search = sol.time_to_target_s.is_some();
            let reached = by_search || by_polish.is_some();
            if !self.quiet {
                let how = match (by_search, reached) {
                    (false, true) => "found by the polish",
                    (true, _) => "found",
                    _ => "not found",
                };
                stderr_line(format_args!("clique k = {k}: {how} in {:.3} s", sol.elapsed_s));
            }
            let perm = match by_polish {
                Some((_, p)) if !by_search => p,
                _ => sol.perm(),
            };
            searched = true;
            if reached {
                reached_by = if !by_search || taken > 0 { "polish" } else { "search" };
            }
            // The report and the solution shown are those of one k.
            if reached || last.is_none() {
                last = Some(sol);
                polished = Some(Polished { report, from_polish: !by_search && reached });
            }
            Ok((perm, reached))
        })?;
        if !reached_by.is_empty() {
            found.answer = found.answer.with("reached_by", reached_by);
        }
        Ok((found, last, polished))
    }
}
