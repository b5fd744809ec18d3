//! The CPU twin of the cellular GA kernels: the same `common::cga` functions in the same
//! order, one rayon task per individual (`--threads 1` with `--topology random` is the
//! papers' sequential CPU variant).
use super::{Best, CgaConfig, CgaEngine, CgaSnapshot};
use crate::cpu::{AnyDense, Mats};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::site::Site;
use crate::with_mats;
use anyhow::Result;
use qapgpu_common::cga::{
    RANDOM_PARTNER_SALT, Topology, argmin, best_neighbour, crossover_cut, exchange, local_search, mox, transpose,
};
use qapgpu_common::cost::cost;
use qapgpu_common::ops::random_permutation;
use qapgpu_common::rng::Xoshiro128;
use qapgpu_common::shuffle::Shuffle;
use rayon::prelude::*;

/// The cellular GA's CPU engine: the kernels' operators on a thread pool.
pub struct CgaCpu {
    cfg: CgaConfig,
    n: usize,
    mats: Mats,
    pool: rayon::ThreadPool,
    pop: Vec<u8>,
    alt: Vec<u8>,
    costs: Vec<i64>,
    costs_alt: Vec<i64>,
    rngs: Vec<Xoshiro128>,
    best: Best,
    elite: u32,
    site: Site,
}

impl CgaCpu {
    /// The run of `cfg` on `inst`, on the pool of `--threads threads` (`algo::cpu_pool`).
    pub fn new(inst: &Instance, cfg: &CgaConfig, threads: usize) -> Result<CgaCpu> {
        anyhow::ensure!(inst.n >= 3, "{}: the cellular GA needs n ≥ 3", inst.name);
        let (n, total) = (inst.n, cfg.population());
        crate::memory::ensure_host(
            total as u128 * (2 * n as u128 + 2 * 8 + 16),
            &format!("a grid of {total} individuals on {}", inst.name),
            "--grid",
        )?;
        let pool = crate::algo::cpu_pool(threads)?;
        let site = Site::cpu(pool.current_num_threads());
        Ok(CgaCpu {
            cfg: cfg.clone(),
            n,
            mats: Mats::of(inst),
            pool,
            pop: vec![0; total * n],
            alt: vec![0; total * n],
            costs: vec![0; total],
            costs_alt: vec![0; total],
            rngs: (0..total as u64).map(|k| Xoshiro128::from_stream(cfg.seed, k)).collect(),
            best: Best { cost: i64::MAX, perm: vec![0; n], generation: 0 },
            elite: 0,
            site,
        })
    }

    /// Elite and best-so-far from the current population (the `cga_best` kernel).
    fn record(&mut self, generation: u32) {
        let k = argmin(&self.costs);
        self.elite = k as u32;
        // i64::MAX: none drawn (a stop before the first).
        if self.costs[k] < self.best.cost && self.costs[k] != i64::MAX {
            let n = self.n;
            self.best = Best { cost: self.costs[k], perm: self.pop[k * n..(k + 1) * n].to_vec(), generation };
        }
    }
}

/// Mutation, transposition (unless `elite`) and one pass of individual `row`.
#[allow(clippy::too_many_arguments)]
fn improve(
    m: &AnyDense,
    cfg: &CgaConfig,
    stop: &StopWord,
    elite: bool,
    row: &mut [u8],
    c: &mut i64,
    rng: &mut Xoshiro128,
    th: (u32, u32, u32),
) {
    // After a stop nothing changes: a mutated row's new cost is O(n²), and a 256 × 256 grid
    // of n = 256 takes a second to cost again on a few cores.
    if stop.is_set() {
        return;
    }
    if !elite {
        let changed = exchange(rng, row, th.1) | transpose(rng, row, th.2);
        if changed {
            *c = with_mats!(m, |a, b| cost(a, b, row));
        }
    }
    if stop.is_set() {
        return;
    }
    *c = with_mats!(m, |a, b| local_search(a, b, row, *c, cfg.pass, cfg.passes, || stop.is_set()));
}

impl CgaEngine for CgaCpu {
    fn site(&self) -> &Site {
        &self.site
    }

    fn threads_per_block(&self) -> u32 {
        1
    }

    fn init(&mut self) -> Result<()> {
        let n = self.n;
        let any = self.mats.dense(n);
        let stop = self.site.stop.clone();
        let work = self.pop.par_chunks_mut(n).zip(self.costs.par_iter_mut()).zip(self.rngs.par_iter_mut());
        self.pool.install(|| {
            work.for_each(|((row, c), rng)| {
                // A stop (time limit, Ctrl-C) ends the drawing: those not drawn have no cost.
                if stop.is_set() {
                    *c = i64::MAX;
                    return;
                }
                random_permutation(rng, row);
                *c = with_mats!(&any, |a, b| cost(a, b, row));
            })
        });
        self.best = Best { cost: i64::MAX, perm: vec![0; n], generation: 0 };
        self.record(0);
        Ok(())
    }

    fn generation(&mut self, g: u32) -> Result<()> {
        let (n, total, cfg) = (self.n, self.cfg.population(), self.cfg.clone());
        let th = cfg.thresholds();
        // Tournament: pop → alt.
        let phi = Shuffle::new(total as u32, cfg.seed, g as u64);
        let (pop, costs) = (&self.pop, &self.costs);
        let work = self.alt.par_chunks_mut(n).zip(self.costs_alt.par_iter_mut()).enumerate();
        self.pool.install(|| {
            work.for_each(|(k, (row, c))| {
                let j = phi.apply(k as u32) as usize;
                let src = if costs[j] < costs[k] { j } else { k };
                row.copy_from_slice(&pop[src * n..(src + 1) * n]);
                *c = costs[src];
            })
        });
        // Crossover: alt → pop.
        let psi = Shuffle::new(total as u32, cfg.seed ^ RANDOM_PARTNER_SALT, g as u64);
        let (alt, costs_alt, any, stop) = (&self.alt, &self.costs_alt, self.mats.dense(n), &*self.site.stop);
        let work = self.pop.par_chunks_mut(n).zip(self.costs.par_iter_mut()).zip(self.rngs.par_iter_mut()).enumerate();
        self.pool.install(|| {
            work.for_each(|(k, ((out, c), rng))| {
                // After a stop a cell keeps its row and cost (a child's cost is O(n²)).
                if stop.is_set() {
                    return;
                }
                let partner = match cfg.topology {
                    Topology::Random => psi.apply(k as u32),
                    t => best_neighbour(costs_alt, cfg.w, cfg.h, k as u32, t),
                } as usize;
                let parent = &alt[k * n..(k + 1) * n];
                *c = costs_alt[k];
                match crossover_cut(rng, n, th.0) {
                    Some(cut) => {
                        let mut taken = [0u8; qapgpu_common::MAX_N];
                        mox(parent, &alt[partner * n..(partner + 1) * n], cut, out, &mut taken);
                        let child = with_mats!(&any, |a, b| cost(a, b, out));
                        if child <= *c {
                            *c = child;
                        } else {
                            out.copy_from_slice(parent);
                        }
                    }
                    None => out.copy_from_slice(parent),
                }
            })
        });
        self.record(g);
        // Mutation, transposition, local search.
        let (elite, stop, any) = (self.elite as usize, self.site.stop.clone(), self.mats.dense(n));
        let work = self.pop.par_chunks_mut(n).zip(self.costs.par_iter_mut()).zip(self.rngs.par_iter_mut()).enumerate();
        self.pool
            .install(|| work.for_each(|(k, ((row, c), rng))| improve(&any, &cfg, &stop, k == elite, row, c, rng, th)));
        self.record(g);
        Ok(())
    }

    fn best(&mut self) -> Result<Best> {
        Ok(self.best.clone())
    }

    fn member_costs(&mut self) -> Result<Vec<i64>> {
        Ok(self.costs.clone())
    }

    fn put_member(&mut self, k: usize, chromosome: &[u8], cost: i64) -> Result<()> {
        let n = self.n;
        self.pop[k * n..(k + 1) * n].copy_from_slice(chromosome);
        self.costs[k] = cost;
        Ok(())
    }

    fn snapshot(&mut self) -> Result<CgaSnapshot> {
        let n = self.n;
        Ok(CgaSnapshot {
            rows: self.pop.chunks(n).map(<[u8]>::to_vec).collect(),
            costs: self.costs.clone(),
            rng: self.rngs.iter().map(|r| r.s).collect(),
            best: self.best.clone(),
            elite: self.elite,
        })
    }
}
