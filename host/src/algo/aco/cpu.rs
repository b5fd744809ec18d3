//! The CPU twin of the ACO kernels: the same `common::aco` and `common::ls` functions,
//! one rayon task per ant (`--threads 1`: the paper's single-thread CPU column). The `ts`
//! and `memetic` walks run on it in walk mode (`AcoConfig::walk`); their code is in
//! `algo::ts::cpu`.
use super::{AcoConfig, AcoEngine, AcoSnapshot, LsStats};
use crate::cpu::{AnyDense, Mats};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::site::Site;
use crate::with_mats;
use anyhow::Result;
use qapgpu_common::aco::{Bounds, best_unit, clamp, construct, lay_row};
use qapgpu_common::cost::cost;
use qapgpu_common::elem::Elem;
use qapgpu_common::ls::{LsKind, Scratch, TABU_FREE, tabu_search, two_opt};
use qapgpu_common::matrix::Dense;
use qapgpu_common::moves::move_count;
use qapgpu_common::ops::random_permutation;
use qapgpu_common::rng::Xoshiro128;
use rayon::prelude::*;
use std::time::Instant;

/// The CPU engine of the colony and of the walks: the kernels' operators on a pool of
/// threads, one ant (or walk) a task.
pub struct AcoCpu {
    pub(crate) cfg: AcoConfig,
    pub(crate) n: usize,
    pub(crate) mats: Mats,
    pub(crate) pool: rayon::ThreadPool,
    /// ant*_k, rows of n.
    pub(crate) ants: Vec<u8>,
    pub(crate) ant_costs: Vec<i64>,
    pub(crate) cants: Vec<u8>,
    pub(crate) cant_costs: Vec<i64>,
    pub(crate) ls_iters: Vec<u32>,
    /// Walks (`AcoConfig::walk`): each ant's tabu matrix (n² entries) and iterations done.
    pub(crate) tabu: Vec<i32>,
    pub(crate) walks: Vec<u32>,
    /// Walks: the last regrouping's ranking (`AcoEngine::regroup_ranked`'s `winners`).
    pub(crate) winners: Vec<u32>,
    pub(crate) rngs: Vec<Xoshiro128>,
    /// The classes of the swaps the walks skip (`Instance::null_swap_classes`); empty:
    /// none.
    pub(crate) null_swaps: Vec<u8>,
    tau: Vec<f32>,
    best: (i64, Vec<u8>),
    stats: LsStats,
    pub(crate) site: Site,
}

impl AcoCpu {
    /// The engine of `cfg` on `inst`, on `threads` CPU threads (0: one per core).
    pub fn new(inst: &Instance, cfg: &AcoConfig, threads: usize) -> Result<AcoCpu> {
        anyhow::ensure!(inst.n >= 3, "{}: the local searches need n ≥ 3", inst.name);
        anyhow::ensure!(cfg.ants >= 1, "the colony needs at least one ant");
        let pool = crate::algo::cpu_pool(threads)?;
        let mut cfg = cfg.clone();
        if cfg.one_wave {
            // One wave on the CPU: an ant per thread.
            cfg.ants = cfg.ants.min(crate::algo::cpu_threads(threads) as u32);
        }
        let (n, m) = (inst.n, cfg.ants as usize);
        let site = Site::cpu(pool.current_num_threads());
        // Ants, c-ants, their costs and RNGs; per worker a Δ table and a tabu matrix.
        let per_worker = 8 * qapgpu_common::moves::move_count(n as u32) as u128 + 4 * (n * n) as u128;
        let walk_tabu = if cfg.walk { m * n * n } else { 0 };
        let bytes = m as u128 * (2 * n as u128 + 2 * 8 + 4 + 16)
            + pool.current_num_threads() as u128 * per_worker
            + 4 * walk_tabu as u128;
        crate::memory::ensure_host(
            bytes,
            &format!("a colony of {m} ants on {}", inst.name),
            if cfg.walk { "--ants (walks)" } else { "--ants" },
        )?;
        Ok(AcoCpu {
            cfg: cfg.clone(),
            n,
            mats: Mats::of(inst),
            null_swaps: if cfg.skip_null_swaps && cfg.walk {
                inst.null_swap_classes().unwrap_or_default()
            } else {
                Vec::new()
            },
            pool,
            ants: vec![0; m * n],
            ant_costs: vec![i64::MAX; m],
            cants: vec![0; m * n],
            // i64::MAX: not drawn yet (`best` takes none of those).
            cant_costs: vec![i64::MAX; m],
            ls_iters: vec![0; m],
            tabu: vec![TABU_FREE; walk_tabu],
            walks: vec![0; if cfg.walk { m } else { 0 }],
            winners: Vec::new(),
            rngs: (0..m as u64).map(|k| Xoshiro128::from_stream(cfg.seed, k)).collect(),
            tau: vec![0.0; n * n],
            best: (i64::MAX, vec![0; n]),
            stats: LsStats::default(),
            site,
        })
    }

    /// Runs `f` once per ant with its c-ant, cost, RNG, unit best and cost, in parallel.
    fn per_ant<F>(&mut self, f: F)
    where
        F: Fn(usize, &AnyDense, &mut [u8], &mut i64, &mut Xoshiro128, &mut [u8], &mut i64, &mut u32) + Sync,
    {
        let n = self.n;
        let any = self.mats.dense(n);
        let work = self
            .cants
            .par_chunks_mut(n)
            .zip(self.cant_costs.par_iter_mut())
            .zip(self.rngs.par_iter_mut())
            .zip(self.ants.par_chunks_mut(n))
            .zip(self.ant_costs.par_iter_mut())
            .zip(self.ls_iters.par_iter_mut())
            .enumerate();
        self.pool.install(|| work.for_each(|(k, (((((c, cc), r), a), ac), it))| f(k, &any, c, cc, r, a, ac, it)));
    }
}

/// One local search and step 8, as the kernel does it.
#[allow(clippy::too_many_arguments)]
fn improve<E: Elem>(
    a: &Dense<E>,
    b: &Dense<E>,
    cfg: &AcoConfig,
    stop: &StopWord,
    unit: usize,
    p: &mut [u8],
    c: &mut i64,
    rng: &mut Xoshiro128,
    ant: &mut [u8],
    ant_cost: &mut i64,
    iters: &mut u32,
) {
    let n = p.len();
    if stop.is_set() {
        // The run is over: no search for the ants not started yet (a kernel's blocks see
        // the stop after a move, and a colony larger than a wave launches no more waves);
        // `best` falls back on the c-ants of a colony stopped in its first search.
        *iters = 0;
        return;
    }
    let mut delta = vec![0i64; move_count(n as u32) as usize];
    let r = match cfg.ls {
        LsKind::Tabu => {
            let mut tabu = vec![0i32; n * n];
            let mut best = vec![0u8; n];
            let r = tabu_search(
                a,
                b,
                p,
                *c,
                cfg.target,
                cfg.ls_iterations,
                cfg.tenure().of_unit(unit),
                rng,
                Scratch { delta: &mut delta, tabu: &mut tabu, null_swaps: &[] },
                &mut best,
                || stop.is_set(),
            );
            p.copy_from_slice(&best);
            r
        }
        LsKind::TwoOpt => two_opt(a, b, p, *c, cfg.target, cfg.ls_iterations, &mut delta, || stop.is_set()),
    };
    if r.cost <= cfg.target {
        // The run's target: the ants still searching stop, as the kernel's do.
        stop.set();
    }
    *c = r.cost;
    *iters = r.iterations;
    if r.cost <= *ant_cost {
        *ant_cost = r.cost;
        ant.copy_from_slice(p);
    }
}

/// Step 5 on the host, as the `aco_tau_init`, `aco_evaporate`, `aco_lay` and `aco_clamp`
/// kernels do it (the same f32 operations in the same order): τ ← τ_init when given, then
/// τ ← ρτ, the deposits of `ants` (rows of n) in unit order, and the MAX–MIN clamp.
pub fn pheromone<G: qapgpu_common::gene::Gene>(
    tau: &mut [f32],
    n: usize,
    rho: f32,
    init: Option<f32>,
    ants: &[G],
    costs: &[i64],
    bounds: Bounds,
) {
    if let Some(t0) = init {
        tau.fill(t0);
    }
    for t in tau.iter_mut() {
        *t *= rho;
    }
    for (i, row) in tau.chunks_mut(n).enumerate() {
        lay_row(row, i, ants, n, costs);
    }
    for t in tau.iter_mut() {
        *t = clamp(*t, bounds);
    }
}

impl AcoEngine for AcoCpu {
    fn site(&self) -> &Site {
        &self.site
    }
    fn config(&self) -> &AcoConfig {
        &self.cfg
    }
    fn threads_per_block(&self) -> u32 {
        1
    }
    fn skips_null_swaps(&self) -> bool {
        !self.null_swaps.is_empty()
    }

    fn random_ants(&mut self) -> Result<()> {
        self.walks.fill(0);
        let stop = self.site.stop.clone();
        self.per_ant(|_, m, p, c, rng, _, ant_cost, _| {
            *ant_cost = i64::MAX;
            // A stop (time limit, Ctrl-C) ends the drawing: 65536 ants of n = 256 take
            // seconds on a few cores. Those not drawn have no cost.
            if stop.is_set() {
                *c = i64::MAX;
                return;
            }
            random_permutation(rng, p);
            *c = with_mats!(m, |a, b| cost(a, b, p));
        });
        Ok(())
    }

    fn construct(&mut self) -> Result<()> {
        let (tau, thr) = (std::mem::take(&mut self.tau), self.cfg.gamma_threshold());
        let stop = self.site.stop.clone();
        self.per_ant(|_, m, p, c, rng, ant, _, _| {
            // After a stop the c-ant stays as the last search left it, with its cost.
            if stop.is_set() {
                return;
            }
            let n = p.len();
            let (mut marked, mut free) = (vec![0u8; n], vec![0u8; n]);
            construct(rng, ant, &tau, thr, p, &mut marked, &mut free);
            *c = with_mats!(m, |a, b| cost(a, b, p));
        });
        self.tau = tau;
        Ok(())
    }

    fn local_search(&mut self) -> Result<()> {
        let t0 = Instant::now();
        let (cfg, stop) = (self.cfg.clone(), self.site.stop.clone());
        if cfg.walk {
            self.walk_all(&cfg, &stop);
        } else {
            self.per_ant(|k, m, p, c, rng, ant, ant_cost, it| {
                with_mats!(m, |a, b| improve(a, b, &cfg, &stop, k, p, c, rng, ant, ant_cost, it))
            });
        }
        self.stats.seconds += t0.elapsed().as_secs_f64();
        let iters: u64 = self.ls_iters.iter().map(|&i| i as u64).sum();
        self.stats.iterations += iters;
        self.stats.evaluations += iters * move_count(self.n as u32) as u64;
        Ok(())
    }

    fn update_best(&mut self) -> Result<i64> {
        let n = self.n;
        let (k, c) = best_unit(&self.ant_costs);
        if c < self.best.0 {
            self.best = (c, self.ants[k * n..(k + 1) * n].to_vec());
        }
        Ok(self.best.0)
    }

    fn pheromone(&mut self, init: Option<f32>, bounds: Bounds) -> Result<()> {
        pheromone(&mut self.tau, self.n, self.cfg.rho as f32, init, &self.ants, &self.ant_costs, bounds);
        Ok(())
    }

    fn best(&mut self) -> Result<(i64, Vec<u8>)> {
        if self.best.0 == i64::MAX {
            // No search ended yet (a stop came first): the best c-ant drawn.
            let (k, &c) = self.cant_costs.iter().enumerate().min_by_key(|(_, c)| **c).expect("at least one ant");
            if c != i64::MAX {
                return Ok((c, self.cants[k * self.n..(k + 1) * self.n].to_vec()));
            }
        }
        Ok(self.best.clone())
    }

    fn ls_stats(&mut self) -> Result<LsStats> {
        Ok(self.stats)
    }

    fn snapshot(&mut self) -> Result<AcoSnapshot> {
        let n = self.n;
        Ok(AcoSnapshot {
            ants: self.ants.chunks(n).map(<[u8]>::to_vec).collect(),
            ant_costs: self.ant_costs.clone(),
            cants: self.cants.chunks(n).map(<[u8]>::to_vec).collect(),
            cant_costs: self.cant_costs.clone(),
            ls_iterations: self.ls_iters.clone(),
            tau_bits: self.tau.iter().map(|t| t.to_bits()).collect(),
            rng: self.rngs.iter().map(|r| r.s).collect(),
            best: self.best.0,
        })
    }

    fn archive(&mut self) -> Result<(Vec<u8>, Vec<i64>)> {
        Ok((self.ants.clone(), self.ant_costs.clone()))
    }

    fn unit_costs(&mut self) -> Result<Vec<i64>> {
        Ok(self.ant_costs.clone())
    }

    fn put_unit(&mut self, k: usize, perm: &[u8], cost: i64) -> Result<()> {
        let n = self.n;
        self.ants[k * n..(k + 1) * n].copy_from_slice(perm);
        self.cants[k * n..(k + 1) * n].copy_from_slice(perm);
        (self.ant_costs[k], self.cant_costs[k]) = (cost, cost);
        if let Some(done) = self.walks.get_mut(k) {
            *done = 0;
        }
        Ok(())
    }

    /// The walks' steps are `ts::cpu`'s (`regroup_walks`, `walk_currents`,
    /// `regroup_walks_ranked`, `perturb_regrouped`).
    fn regroup(&mut self, elite: u32) -> Result<()> {
        self.regroup_walks(elite)
    }

    fn currents(&mut self) -> Result<(Vec<u8>, usize, Vec<i64>)> {
        self.walk_currents()
    }

    fn regroup_ranked(&mut self, winners: &[u32], elite: u32) -> Result<()> {
        self.regroup_walks_ranked(winners, elite)
    }

    fn perturb_walks(&mut self, elite: u32, swaps: u32, round: u32) -> Result<()> {
        self.perturb_regrouped(elite, swaps, round)
    }

    fn set_ls_iterations(&mut self, moves: u32) -> Result<()> {
        self.cfg.ls_iterations = moves;
        Ok(())
    }

    fn set_tau(&mut self, tau: &[f32]) -> Result<()> {
        self.tau.copy_from_slice(tau);
        Ok(())
    }
}
