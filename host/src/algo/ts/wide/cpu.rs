//! The wide walks on the CPU: one walk a worker, each `wide::wide_walk` (the kernel's twin)
//! on its own tables.
use super::{WideConfig, WideEngine, start};
use crate::algo::Options;
use crate::cpu::{AnyDense, Mats};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::site::Site;
use anyhow::Result;
use qapgpu_common::elem::Elem;
use qapgpu_common::ls::TABU_FREE;
use qapgpu_common::matrix::{Dense, Matrix};
use qapgpu_common::moves::move_count;
use qapgpu_common::rng::Xoshiro128;
use qapgpu_common::wide::{NO_MOVE, WideMats, WideRule, WideTables, WideWalk, build_steps, wide_walk};
use rayon::prelude::*;
use std::sync::Arc;

/// One walk of the wide path on the CPU and its tables, between calls of `wide::wide_walk`.
pub struct CpuWalk {
    p: Vec<u16>,
    cost: i64,
    best: Vec<u16>,
    best_cost: i64,
    done: u32,
    built: u32,
    pending: u32,
    rng: Xoshiro128,
    delta: Vec<i64>,
    tabu: Vec<i32>,
    terms: Vec<[i64; 4]>,
    rule: WideRule,
}

impl CpuWalk {
    /// A walk from `start` (of cost `cost`) with generator `rng` and the rule `rule`; its
    /// Δ table is built by its first launches.
    pub fn from_start(start: Vec<u16>, cost: i64, rng: Xoshiro128, rule: WideRule) -> CpuWalk {
        let n = start.len();
        CpuWalk {
            best: start.clone(),
            p: start,
            cost,
            best_cost: cost,
            done: 0,
            built: 0,
            pending: NO_MOVE,
            rng,
            delta: vec![0; move_count(n as u32) as usize],
            tabu: vec![TABU_FREE; n * n],
            terms: vec![[0; 4]; n],
            rule,
        }
    }

    /// Walk k of `cfg` on `inst`: its own random start (`start`) and tenures.
    fn new(inst: &Instance, cfg: &WideConfig, k: usize) -> CpuWalk {
        let (p, rng) = start(inst.n, cfg.seed, k);
        let cost = inst.cost(&p);
        let rule = WideRule {
            target: cfg.target,
            tenure: cfg.tenure.of_unit(k),
            aspiration: cfg.aspiration,
            descent: cfg.descent,
        };
        CpuWalk::from_start(p, cost, rng, rule)
    }

    /// The walk starts again from `perm` (of cost `cost`): tabu memory cleared, Δ rebuilt.
    pub fn restart(&mut self, perm: &[u16], cost: i64) {
        self.p.copy_from_slice(perm);
        self.best.copy_from_slice(perm);
        (self.cost, self.best_cost, self.built, self.pending) = (cost, cost, 0, NO_MOVE);
        self.tabu.fill(TABU_FREE);
    }

    /// Up to `moves` more moves (or build steps) on the matrices `m` (`wide::wide_walk`);
    /// returns the moves made.
    pub fn launch<E: Elem, A: Matrix<E>, B: Matrix<E>>(
        &mut self,
        m: &WideMats<A, B>,
        moves: u32,
        stop: impl Fn() -> bool,
    ) -> u32 {
        let state = WideWalk {
            p: &mut self.p,
            cost: &mut self.cost,
            best: &mut self.best,
            best_cost: &mut self.best_cost,
            done: &mut self.done,
            built: &mut self.built,
            pending: &mut self.pending,
        };
        let tables = WideTables { delta: &mut self.delta, tabu: &mut self.tabu, terms: &mut self.terms };
        wide_walk(m, state, tables, &self.rule, moves, &mut self.rng, stop)
    }

    /// The current solution and its cost.
    pub fn current(&self) -> (&[u16], i64) {
        (&self.p, self.cost)
    }

    /// The best solution met and its cost.
    pub fn best(&self) -> (&[u16], i64) {
        (&self.best, self.best_cost)
    }

    /// Whether its Δ table is built (`wide::build_steps`).
    pub fn built(&self) -> bool {
        self.built >= build_steps(self.p.len() as u32)
    }
}

/// `moves` more moves of every walk, a walk a task of the pool; returns the moves made.
fn all<E: Elem>(walks: &mut [CpuWalk], m: &WideMats<Dense<E>, Dense<E>>, moves: u32, stop: &StopWord) -> u64 {
    walks.par_iter_mut().map(|w| u64::from(w.launch(m, moves, || stop.is_set()))).sum()
}

/// The wide walks on the CPU.
pub struct WideCpu {
    pool: rayon::ThreadPool,
    site: Site,
    mats: Mats,
    /// Aᵀ and Bᵀ.
    transposed: Mats,
    n: usize,
    walks: Vec<CpuWalk>,
}

impl WideCpu {
    /// One walk a worker of `threads` (0: one per core), or `--ants` walks.
    pub fn new(inst: &Instance, opts: &Options, threads: usize, descent: bool) -> Result<WideCpu> {
        let pool = crate::algo::cpu_pool(threads)?;
        let m = opts.aco.ants.map_or(pool.current_num_threads(), |a| a as usize).max(1);
        let n = inst.n as u128;
        let per_walk = move_count(inst.n as u32) as u128 * 8 + n * n * 4 + n * 32 + 4 * n;
        crate::memory::ensure_host(m as u128 * per_walk, &format!("{m} walks of n = {n}"), "--ants or --threads")?;
        let cfg = WideConfig::of(inst, opts, descent);
        let walks = (0..m).map(|k| CpuWalk::new(inst, &cfg, k)).collect();
        let site = Site::cpu(pool.current_num_threads());
        Ok(WideCpu { pool, site, mats: Mats::of(inst), transposed: Mats::of(&inst.transposed()), n: inst.n, walks })
    }
}

impl WideEngine for WideCpu {
    fn site(&self) -> (&'static str, String) {
        (self.site.engine, self.site.device.clone())
    }
    fn stop_word(&self) -> Arc<StopWord> {
        self.site.stop.clone()
    }
    fn threads(&self) -> u32 {
        1
    }
    fn walks(&self) -> u32 {
        self.walks.len() as u32
    }
    fn memory(&self) -> String {
        String::new()
    }

    fn launch(&mut self, moves: u32) -> Result<u64> {
        let (n, stop) = (self.n, &self.site.stop);
        let walks = &mut self.walks;
        let made = self.pool.install(|| match (self.mats.dense(n), self.transposed.dense(n)) {
            (AnyDense::U16(a, b), AnyDense::U16(at, bt)) => {
                all(walks, &WideMats { a: &a, b: &b, at: &at, bt: &bt }, moves, stop)
            }
            (AnyDense::U32(a, b), AnyDense::U32(at, bt)) => {
                all(walks, &WideMats { a: &a, b: &b, at: &at, bt: &bt }, moves, stop)
            }
            (AnyDense::I32(a, b), AnyDense::I32(at, bt)) => {
                all(walks, &WideMats { a: &a, b: &b, at: &at, bt: &bt }, moves, stop)
            }
            _ => unreachable!("an instance and its transpose have one element type"),
        });
        Ok(made)
    }

    fn best_costs(&mut self) -> Result<Vec<i64>> {
        Ok(self.walks.iter().map(|w| w.best().1).collect())
    }

    fn best_of(&mut self, k: usize) -> Result<Vec<u16>> {
        Ok(self.walks[k].best().0.to_vec())
    }

    fn built(&mut self) -> Result<bool> {
        Ok(self.walks.iter().all(CpuWalk::built))
    }

    fn restart(&mut self, k: usize, perm: &[u16], cost: i64) -> Result<()> {
        self.walks[k].restart(perm, cost);
        Ok(())
    }
}
