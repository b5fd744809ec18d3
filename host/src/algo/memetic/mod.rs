//! `memetic`: a population method whose offspring are improved by the GPU tabu search (seed
//! 000's future work, items 4–5). The population is the `ts` walks' bests; the walks are
//! the improvement step. Every `policy::BREED_EVERY` launches, the worst quarter of the walks
//! restart, with a fresh tabu memory, from children of two parents drawn by binary
//! tournament among the other walks' bests, made by uniform-like crossover (UX, which keeps
//! what the parents share: `common::ops::ux`). Nothing else changes between launches: the
//! walks keep running on the device, the target is checked inside the search.
//!
//! Above n = 256 the population is the wide path's walks (`ts::wide`); there a restarted
//! walk first rebuilds its Δ table (O(n³)), so a breeding waits until every walk has built
//! its table again (`Walks::ready`).
//!
//! `memetic` has no settings of its own: its walks take the local search's
//! (`aco::AcoOptions`), and its breeding the policy table's rows (`BREED_EVERY`,
//! `BREED_ONE_IN`, `MEMETIC_CPU_WALKS`); `ts`'s regrouping and restarts are refused
//! (`ts::TsOptions::check_family`).
use super::policy::{BREED_EVERY, BREED_ONE_IN, MEMETIC_CPU_WALKS};
use super::ts::wide::WideTs;
use super::ts::{TsSolver, walk_engine};
use super::{Backend, Family, Options};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::run::{Advance, Counters, Solver, SolverInfo};
use anyhow::Result;
use qapgpu_common::ops::ux;
use qapgpu_common::rng::Xoshiro128;
use std::sync::Arc;

/// The registry's line of `--algo memetic`.
pub const MEMETIC: Family = Family {
    name: "memetic",
    about: "memetic hybrid: the GPU tabu-search walks as a population, the worst restarted from UX children of tournament parents",
    min_n: 3,
    max_n: qapgpu_common::WIDE_MAX_N,
    build,
};

fn build(backend: &Backend, inst: &Instance, opts: &Options) -> Result<Box<dyn Solver>> {
    let mut o = opts.clone();
    if matches!(backend, Backend::Cpu { .. }) {
        o.aco.ants = Some(opts.aco.ants.unwrap_or(MEMETIC_CPU_WALKS));
    }
    let ts: Box<dyn Walks> = if inst.n > qapgpu_common::MAX_N {
        Box::new(super::ts::wide::walks(backend, inst, &o)?)
    } else {
        Box::new(TsSolver::new(walk_engine(backend, inst, &o)?, opts.target))
    };
    let rng = Xoshiro128::from_stream(opts.seed, u64::MAX - 7);
    Ok(Box::new(MemeticSolver { ts, inst: inst.clone(), rng, launches: 0, children: 0 }))
}

/// The walks `memetic` breeds: `ts`'s (n ≤ 256) or the wide path's.
pub trait Walks: Solver {
    /// Every walk's best solution (rows of n) and its cost.
    fn archive(&mut self) -> Result<(Vec<u16>, Vec<i64>)>;
    /// Each (walk, permutation, cost) of `units`: the walk restarts from the permutation with
    /// a fresh tabu memory.
    fn put_units(&mut self, units: &[(usize, Vec<u16>, i64)]) -> Result<()>;
    /// Whether a breeding may come now.
    fn ready(&mut self) -> Result<bool> {
        Ok(true)
    }
}

impl Walks for TsSolver {
    fn archive(&mut self) -> Result<(Vec<u16>, Vec<i64>)> {
        let (rows, costs) = self.engine().archive()?;
        Ok((crate::perm::widen(&rows), costs))
    }
    fn put_units(&mut self, units: &[(usize, Vec<u16>, i64)]) -> Result<()> {
        let narrow: Vec<(usize, Vec<u8>, i64)> =
            units.iter().map(|(k, p, c)| (*k, crate::perm::narrow(p), *c)).collect();
        self.engine().put_units(&narrow)
    }
}

impl Walks for WideTs {
    fn archive(&mut self) -> Result<(Vec<u16>, Vec<i64>)> {
        let costs = self.engine().best_costs()?;
        let mut rows = Vec::with_capacity(costs.len() * self.n());
        for k in 0..costs.len() {
            rows.extend(self.engine().best_of(k)?);
        }
        Ok((rows, costs))
    }
    fn put_units(&mut self, units: &[(usize, Vec<u16>, i64)]) -> Result<()> {
        units.iter().try_for_each(|(k, p, c)| self.engine().restart(*k, p, *c))
    }
    /// Once every walk has built its Δ table (a restarted walk builds it again).
    fn ready(&mut self) -> Result<bool> {
        self.engine().built()
    }
}

/// The `ts` driver, with a breeding every `BREED_EVERY` launches.
pub struct MemeticSolver {
    ts: Box<dyn Walks>,
    /// For the children's exact costs.
    inst: Instance,
    rng: Xoshiro128,
    launches: u64,
    children: u64,
}

/// The walks that restart (the worst quarter by best cost, at least one when there are two
/// or more walks) and the ranked rest they draw parents from.
pub fn split_by_rank(costs: &[i64]) -> (Vec<usize>, Vec<usize>) {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&k| (costs[k], k));
    let replace = if costs.len() >= 2 { (costs.len() / BREED_ONE_IN).max(1) } else { 0 };
    let keep = order.len() - replace;
    (order[keep..].to_vec(), order[..keep].to_vec())
}

impl MemeticSolver {
    /// One breeding: the worst walks restart from UX children of tournament parents.
    fn breed(&mut self) -> Result<()> {
        let n = self.inst.n;
        let (ants, costs) = self.ts.archive()?;
        let (worst, parents) = split_by_rank(&costs);
        if parents.len() < 2 {
            return Ok(());
        }
        let (mut child, mut taken, mut left) = (vec![0u16; n], vec![0u8; n], vec![0u16; n]);
        let mut units = Vec::with_capacity(worst.len());
        for w in worst {
            let mut pick = || {
                let (x, y) = (
                    parents[self.rng.below(parents.len() as u32) as usize],
                    parents[self.rng.below(parents.len() as u32) as usize],
                );
                if costs[x] <= costs[y] { x } else { y }
            };
            let (a, b) = (pick(), pick());
            ux(&mut self.rng, &ants[a * n..(a + 1) * n], &ants[b * n..(b + 1) * n], &mut child, &mut taken, &mut left);
            units.push((w, child.clone(), self.inst.cost(&child)));
            self.children += 1;
        }
        // One round trip for all the children (a GPU engine took five copies a child).
        self.ts.put_units(&units)
    }
}

impl Solver for MemeticSolver {
    fn info(&self) -> SolverInfo {
        let mut info = self.ts.info();
        info.algorithm = MEMETIC.name;
        info.layout = format!(
            "{}; every {BREED_EVERY} launches the worst quarter restart from UX children of tournament parents",
            info.layout
        );
        info
    }

    fn stop_word(&self) -> Arc<StopWord> {
        self.ts.stop_word()
    }

    fn init(&mut self) -> Result<()> {
        self.ts.init()?;
        (self.launches, self.children) = (1, 0); // init ran the first launch
        Ok(())
    }

    fn advance(&mut self) -> Result<Advance> {
        self.ts.advance()?;
        self.launches += 1;
        if self.launches.is_multiple_of(BREED_EVERY) && !self.ts.stop_word().is_set() && self.ts.ready()? {
            self.breed()?;
        }
        Ok(Advance::Continue)
    }

    fn found(&mut self) -> Result<Option<(i64, Vec<u16>)>> {
        self.ts.found()
    }

    fn best(&mut self) -> Result<(i64, Vec<u16>)> {
        self.ts.best()
    }

    fn counters(&mut self) -> Result<Counters> {
        Ok(Counters { restarts: self.children, ..self.ts.counters()? })
    }

    fn immigrate(&mut self, cost: i64, perm: &[u16]) -> Result<bool> {
        self.ts.immigrate(cost, perm)
    }

    /// As its walks: above 256, until every walk has built its Δ table.
    fn settling(&self) -> bool {
        self.ts.settling()
    }
}

#[cfg(test)]
mod tests {
    use super::split_by_rank;

    #[test]
    fn the_worst_quarter_restarts_and_the_rest_are_parents() {
        let (worst, rest) = split_by_rank(&[5, 1, 9, 3, 7, 2, 8, 4]);
        assert_eq!(worst, [6, 2]); // costs 8 and 9
        assert_eq!(rest, [1, 5, 3, 7, 0, 4]);
        assert_eq!(split_by_rank(&[3, 1]), (vec![0], vec![1]));
        assert_eq!(split_by_rank(&[3]), (vec![], vec![0]));
    }
}
