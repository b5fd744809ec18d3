//! The walks on the CPU: what the ACO family's CPU engine (`algo::aco::cpu::AcoCpu`) does in
//! walk mode (`AcoConfig::walk`), as the GPU's walk and regrouping kernels do it (`ts::gpu`):
//! one walk a rayon task, each going on from launch to launch (`ls::tabu_walk`).
use crate::algo::aco::cpu::AcoCpu;
use crate::algo::aco::{AcoConfig, ranking};
use crate::run::stop::StopWord;
use crate::with_mats;
use anyhow::Result;
use qapgpu_common::cost::cost;
use qapgpu_common::elem::Elem;
use qapgpu_common::ls::{Scratch, WalkState, donor_rank, perturb_rng, rank_key, tabu_walk};
use qapgpu_common::matrix::Dense;
use qapgpu_common::moves::move_count;
use qapgpu_common::ops::random_exchanges;
use qapgpu_common::rng::Xoshiro128;
use rayon::prelude::*;

impl AcoCpu {
    /// One launch of every walk (`AcoConfig::walk`), as the `ts_walk` kernels do it.
    pub(crate) fn walk_all(&mut self, cfg: &AcoConfig, stop: &StopWord) {
        let n = self.n;
        let any = self.mats.dense(n);
        let null_swaps = &self.null_swaps[..];
        let work = self
            .cants
            .par_chunks_mut(n)
            .zip(self.cant_costs.par_iter_mut())
            .zip(self.rngs.par_iter_mut())
            .zip(self.ants.par_chunks_mut(n))
            .zip(self.ant_costs.par_iter_mut())
            .zip(self.ls_iters.par_iter_mut())
            .zip(self.tabu.par_chunks_mut(n * n))
            .zip(self.walks.par_iter_mut())
            .enumerate();
        self.pool.install(|| {
            work.for_each(|(unit, (((((((p, c), rng), ant), ant_cost), iters), tabu), done))| {
                let walk = Walk { unit, p, cost: c, rng, ant, ant_cost, iters, tabu, done, null_swaps };
                with_mats!(&any, |a, b| walk_one(a, b, cfg, stop, walk))
            })
        });
    }

    /// `AcoEngine::regroup`, as `ts_rank_walks` and `ts_regroup_walks`: walks ranked by
    /// `ls::rank_key`, then `regroup_walks_ranked` (the donors of `ls::donor_rank`).
    pub(crate) fn regroup_walks(&mut self, elite: u32) -> Result<()> {
        let m = self.cfg.ants as usize;
        let elite = elite.clamp(1, m as u32);
        let mut order: Vec<usize> = (0..m).collect();
        order.sort_unstable_by_key(|&k| rank_key(self.cant_costs[k], k));
        self.regroup_walks_ranked(&ranking(&order, elite as usize), elite)
    }

    /// `AcoEngine::currents`: the walks' current solutions (rows of n) and costs.
    pub(crate) fn walk_currents(&mut self) -> Result<(Vec<u8>, usize, Vec<i64>)> {
        Ok((self.cants.clone(), self.n, self.cant_costs.clone()))
    }

    /// `AcoEngine::regroup_ranked`, as `ts_regroup_walks`: every walk outside the elite
    /// takes its donor's solution with a fresh tabu memory.
    pub(crate) fn regroup_walks_ranked(&mut self, winners: &[u32], elite: u32) -> Result<()> {
        let (n, m) = (self.n, self.cfg.ants as usize);
        anyhow::ensure!(self.cfg.walk && winners.len() == 2 * m, "only walks regroup");
        if self.site.stop.is_set() {
            return Ok(());
        }
        self.winners = winners.to_vec();
        let elite = elite.clamp(1, m as u32);
        for k in 0..m {
            if let Some(d) = donor_rank(winners[k], elite) {
                let from = winners[m + d as usize] as usize;
                self.cants.copy_within(from * n..(from + 1) * n, k * n);
                self.cant_costs[k] = self.cant_costs[from];
                self.walks[k] = 0;
            }
        }
        Ok(())
    }

    /// `AcoEngine::perturb_walks`, as `ts_perturb_walks_*`: each walk outside the best
    /// `elite` of the last ranking makes `swaps` random exchanges (the stream of the run's
    /// seed, as the GPU's first start draws it) and is re-costed.
    pub(crate) fn perturb_regrouped(&mut self, elite: u32, swaps: u32, round: u32) -> Result<()> {
        let (n, m) = (self.n, self.cfg.ants as usize);
        // A stop (the target, the time limit) may come before the first regrouping ranked
        // anything: then, as on the GPU, nothing moves.
        if self.site.stop.is_set() {
            return Ok(());
        }
        anyhow::ensure!(self.cfg.walk && self.winners.len() == 2 * m, "only regrouped walks are perturbed");
        let (elite, any) = (elite.clamp(1, m as u32), self.mats.dense(n));
        for k in 0..m {
            if donor_rank(self.winners[k], elite).is_some() {
                let p = &mut self.cants[k * n..(k + 1) * n];
                random_exchanges(&mut perturb_rng(self.cfg.seed, round, k as u32), p, swaps);
                self.cant_costs[k] = with_mats!(&any, |a, b| cost(a, b, p));
                self.walks[k] = 0;
            }
        }
        Ok(())
    }
}

/// One walk's state in the CPU engine.
struct Walk<'w> {
    /// The walk's index (its block on the GPU).
    unit: usize,
    p: &'w mut [u8],
    cost: &'w mut i64,
    rng: &'w mut Xoshiro128,
    ant: &'w mut [u8],
    ant_cost: &'w mut i64,
    iters: &'w mut u32,
    tabu: &'w mut [i32],
    done: &'w mut u32,
    /// The swaps the search skips (`AcoCpu::null_swaps`).
    null_swaps: &'w [u8],
}

/// `cfg.ls_iterations` more moves of one walk and step 8, as a `ts_walk` block does them.
fn walk_one<E: Elem>(a: &Dense<E>, b: &Dense<E>, cfg: &AcoConfig, stop: &StopWord, w: Walk) {
    if stop.is_set() {
        *w.iters = 0;
        return;
    }
    if *w.done == 0 {
        cfg.tabu_start.fill(w.tabu);
    }
    // The walk's best so far is its unit's best ant, unless the walk stands lower.
    let from_ant = *w.ant_cost <= *w.cost;
    let mut best = if from_ant { w.ant.to_vec() } else { w.p.to_vec() };
    let best_cost = if from_ant { *w.ant_cost } else { *w.cost };
    let mut delta = vec![0i64; move_count(w.p.len() as u32) as usize];
    let state = WalkState { p: w.p, cost: *w.cost, done: *w.done, best: &mut best, best_cost };
    let scratch = Scratch { delta: &mut delta, tabu: w.tabu, null_swaps: w.null_swaps };
    let (cur, r) = tabu_walk(
        a,
        b,
        state,
        cfg.target,
        cfg.ls_iterations,
        cfg.tenure().of_unit(w.unit),
        cfg.aspiration as i32,
        w.rng,
        scratch,
        || stop.is_set(),
    );
    *w.cost = cur;
    *w.iters = r.iterations;
    *w.done = w.done.wrapping_add(r.iterations);
    if r.cost <= cfg.target {
        stop.set();
    }
    if r.cost <= *w.ant_cost {
        *w.ant_cost = r.cost;
        w.ant.copy_from_slice(&best);
    }
}
