//! A valid answer from the moment a solver is built. A run stopped before an engine's
//! first step ends (a time limit of a nanosecond, Ctrl-C during set-up) may find no
//! costed solution in the engine yet; the solvers `algo::build` returns hold a start of
//! their own, the identity permutation costed on the host, and answer with it wherever the
//! engine's best is not a costed permutation or is worse.
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::run::{Advance, Counters, Solver, SolverInfo};
use anyhow::Result;
use std::sync::Arc;

pub use crate::perm::is_permutation;

/// The better of an engine's `best` and `start`: `best` when it is a permutation of n with
/// a cost (engines mark "none yet" with `i64::MAX`) and no worse than `start`.
pub fn or_start(best: (i64, Vec<u16>), start: &(i64, Vec<u16>)) -> (i64, Vec<u16>) {
    if best.0 != i64::MAX && best.0 <= start.0 && is_permutation(&best.1, start.1.len()) { best } else { start.clone() }
}

/// The identity permutation of `inst` and its cost.
pub fn identity(inst: &Instance) -> (i64, Vec<u16>) {
    let perm: Vec<u16> = (0..inst.n).map(|i| i as u16).collect();
    (inst.cost(&perm), perm)
}

/// `inner` with a start of its own (`or_start`).
pub struct Started {
    inner: Box<dyn Solver>,
    start: (i64, Vec<u16>),
}

/// `inner`, answering with `inst`'s identity permutation until it has a better one.
pub fn started(inner: Box<dyn Solver>, inst: &Instance) -> Box<dyn Solver> {
    Box::new(Started { inner, start: identity(inst) })
}

impl Solver for Started {
    fn info(&self) -> SolverInfo {
        self.inner.info()
    }
    fn stop_word(&self) -> Arc<StopWord> {
        self.inner.stop_word()
    }
    fn init(&mut self) -> Result<()> {
        self.inner.init()
    }
    fn advance(&mut self) -> Result<Advance> {
        self.inner.advance()
    }
    fn found(&mut self) -> Result<Option<(i64, Vec<u16>)>> {
        // Only a permutation counts as reaching the target.
        Ok(self.inner.found()?.filter(|f| is_permutation(&f.1, self.start.1.len())))
    }
    fn best(&mut self) -> Result<(i64, Vec<u16>)> {
        Ok(or_start(self.inner.best()?, &self.start))
    }
    fn counters(&mut self) -> Result<Counters> {
        self.inner.counters()
    }
    fn immigrate(&mut self, cost: i64, perm: &[u16]) -> Result<bool> {
        self.inner.immigrate(cost, perm)
    }
    fn settling(&self) -> bool {
        self.inner.settling()
    }
}

#[cfg(test)]
mod tests {
    use super::{is_permutation, or_start};

    #[test]
    fn only_costed_permutations_replace_the_start() {
        let start = (100, vec![0, 1, 2]);
        assert!(is_permutation(&[2u16, 0, 1], 3));
        assert!(!is_permutation(&[0u16, 0, 1], 3));
        assert!(!is_permutation(&[0u16, 1, 3], 3));
        assert!(!is_permutation(&[0u16, 1], 3));
        assert_eq!(or_start((90, vec![2, 0, 1]), &start), (90, vec![2, 0, 1]));
        assert_eq!(or_start((i64::MAX, vec![0, 0, 0]), &start), start);
        assert_eq!(or_start((50, vec![0, 0, 0]), &start), start);
        assert_eq!(or_start((120, vec![2, 0, 1]), &start), start);
        assert_eq!(or_start((80, vec![]), &start), start);
    }
}
