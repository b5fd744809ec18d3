//! The CPU twin of the ACO kernels: the same `common::aco` and `common::ls` functions,
//! one rayon task per ant (`--threads 1`: the paper's single-thread CPU column).
use crate::aco::{AcoConfig, AcoEngine, AcoSnapshot, LsStats};
use crate::cpu::Mats;
use crate::instance::Instance;
use anyhow::Result;
use qapgpu_common::aco::{Bounds, best_unit, clamp, construct, lay_row};
use qapgpu_common::cost::cost;
use qapgpu_common::elem::Elem;
use qapgpu_common::ls::{LsKind, Scratch, tabu_search, two_opt};
use qapgpu_common::matrix::Dense;
use qapgpu_common::moves::move_count;
use qapgpu_common::ops::random_permutation;
use qapgpu_common::rng::Xoshiro128;
use rayon::prelude::*;
use std::time::Instant;

pub struct AcoCpu {
    cfg: AcoConfig,
    n: usize,
    mats: Mats,
    pool: rayon::ThreadPool,
    /// ant*_k, rows of n.
    ants: Vec<u8>,
    ant_costs: Vec<i64>,
    cants: Vec<u8>,
    cant_costs: Vec<i64>,
    ls_iters: Vec<u32>,
    rngs: Vec<Xoshiro128>,
    tau: Vec<f32>,
    best: (i64, Vec<u8>),
    stats: LsStats,
}

impl AcoCpu {
    pub fn new(inst: &Instance, cfg: &AcoConfig, threads: usize) -> Result<AcoCpu> {
        anyhow::ensure!(inst.n >= 3, "{}: the local searches need n ≥ 3", inst.name);
        anyhow::ensure!(cfg.ants >= 1, "the colony needs at least one ant");
        let (n, m) = (inst.n, cfg.ants as usize);
        Ok(AcoCpu {
            cfg: cfg.clone(),
            n,
            mats: Mats::of(inst),
            pool: rayon::ThreadPoolBuilder::new().num_threads(threads).build()?,
            ants: vec![0; m * n],
            ant_costs: vec![i64::MAX; m],
            cants: vec![0; m * n],
            cant_costs: vec![0; m],
            ls_iters: vec![0; m],
            rngs: (0..m as u64).map(|k| Xoshiro128::from_stream(cfg.seed, k)).collect(),
            tau: vec![0.0; n * n],
            best: (i64::MAX, vec![0; n]),
            stats: LsStats::default(),
        })
    }

    /// Runs `f` once per ant with its c-ant, cost, RNG, unit best and cost, in parallel.
    fn per_ant<F>(&mut self, f: F)
    where
        F: Fn(&AnyDense, &mut [u8], &mut i64, &mut Xoshiro128, &mut [u8], &mut i64, &mut u32) + Sync,
    {
        let n = self.n;
        let any = match &self.mats {
            Mats::U16(a, b) => AnyDense::U16(Dense::new(a, n), Dense::new(b, n)),
            Mats::U32(a, b) => AnyDense::U32(Dense::new(a, n), Dense::new(b, n)),
            Mats::I32(a, b) => AnyDense::I32(Dense::new(a, n), Dense::new(b, n)),
        };
        let work = self
            .cants
            .par_chunks_mut(n)
            .zip(self.cant_costs.par_iter_mut())
            .zip(self.rngs.par_iter_mut())
            .zip(self.ants.par_chunks_mut(n))
            .zip(self.ant_costs.par_iter_mut())
            .zip(self.ls_iters.par_iter_mut());
        self.pool.install(|| work.for_each(|(((((c, cc), r), a), ac), it)| f(&any, c, cc, r, a, ac, it)));
    }
}

/// The matrices in their element type, so closures stay non-generic.
pub(crate) enum AnyDense<'a> {
    U16(Dense<'a, u16>, Dense<'a, u16>),
    U32(Dense<'a, u32>, Dense<'a, u32>),
    I32(Dense<'a, i32>, Dense<'a, i32>),
}

macro_rules! with_mats {
    ($any:expr, |$a:ident, $b:ident| $body:expr) => {
        match $any {
            AnyDense::U16($a, $b) => $body,
            AnyDense::U32($a, $b) => $body,
            AnyDense::I32($a, $b) => $body,
        }
    };
}

/// One local search and step 8, as the kernel does it.
#[allow(clippy::too_many_arguments)]
fn improve<E: Elem>(a: &Dense<E>, b: &Dense<E>, cfg: &AcoConfig, p: &mut [u8], c: &mut i64, rng: &mut Xoshiro128, ant: &mut [u8], ant_cost: &mut i64, iters: &mut u32) {
    let n = p.len();
    let mut delta = vec![0i64; move_count(n as u32) as usize];
    let r = match cfg.ls {
        LsKind::Tabu => {
            let mut tabu = vec![0i32; n * n];
            let mut best = vec![0u8; n];
            let r = tabu_search(a, b, p, *c, cfg.ls_iterations, cfg.tabu_list_size, rng, Scratch { delta: &mut delta, tabu: &mut tabu }, &mut best);
            p.copy_from_slice(&best);
            r
        }
        LsKind::TwoOpt => two_opt(a, b, p, *c, cfg.ls_iterations, &mut delta),
    };
    *c = r.cost;
    *iters = r.iterations;
    if r.cost <= *ant_cost {
        *ant_cost = r.cost;
        ant.copy_from_slice(p);
    }
}

impl AcoEngine for AcoCpu {
    fn device(&self) -> String {
        format!("CPU, {} threads", self.pool.current_num_threads())
    }
    fn config(&self) -> &AcoConfig {
        &self.cfg
    }
    fn threads_per_block(&self) -> u32 {
        1
    }

    fn random_ants(&mut self) -> Result<()> {
        self.per_ant(|m, p, c, rng, _, ant_cost, _| {
            random_permutation(rng, p);
            *c = with_mats!(m, |a, b| cost(a, b, p));
            *ant_cost = i64::MAX;
        });
        Ok(())
    }

    fn construct(&mut self) -> Result<()> {
        let (tau, thr) = (std::mem::take(&mut self.tau), self.cfg.gamma_threshold());
        self.per_ant(|m, p, c, rng, ant, _, _| {
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
        let cfg = self.cfg.clone();
        self.per_ant(|m, p, c, rng, ant, ant_cost, it| with_mats!(m, |a, b| improve(a, b, &cfg, p, c, rng, ant, ant_cost, it)));
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
        let n = self.n;
        if let Some(t0) = init {
            self.tau.fill(t0);
        }
        let rho = self.cfg.rho as f32;
        for t in self.tau.iter_mut() {
            *t *= rho;
        }
        for (i, row) in self.tau.chunks_mut(n).enumerate() {
            lay_row(row, i, &self.ants, n, &self.ant_costs);
        }
        for t in self.tau.iter_mut() {
            *t = clamp(*t, bounds);
        }
        Ok(())
    }

    fn best(&mut self) -> Result<(i64, Vec<u8>)> {
        Ok(self.best.clone())
    }

    fn ls_stats(&self) -> LsStats {
        self.stats
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
}
