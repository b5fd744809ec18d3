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
use qapgpu_common::matrix::Dense;
use qapgpu_common::moves::move_count;
use qapgpu_common::rng::Xoshiro128;
use qapgpu_common::wide::{NO_MOVE, WideMats, WideRule, WideTables, WideWalk, build_steps, wide_walk};
use rayon::prelude::*;
use std::sync::Arc;

/// One walk and its tables.
struct Walk {
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

impl Walk {
    fn new(inst: &Instance, cfg: &WideConfig, k: usize) -> Walk {
        let n = inst.n;
        let (p, rng) = start(n, cfg.seed, k);
        let cost = inst.cost(&p);
        Walk {
            best: p.clone(),
            p,
            cost,
            best_cost: cost,
            done: 0,
            built: 0,
            pending: NO_MOVE,
            rng,
            delta: vec![0; move_count(n as u32) as usize],
            tabu: vec![TABU_FREE; n * n],
            terms: vec![[0; 4]; n],
            rule: WideRule {
                target: cfg.target,
                tenure: cfg.tenure.of_unit(k),
                aspiration: cfg.aspiration,
                descent: cfg.descent,
            },
        }
    }
}

/// `moves` more moves of every walk, a walk a task of the pool; returns the moves made.
fn all<E: Elem>(walks: &mut [Walk], m: &WideMats<Dense<E>, Dense<E>>, moves: u32, stop: &StopWord) -> u64 {
    walks
        .par_iter_mut()
        .map(|w| {
            let state = WideWalk {
                p: &mut w.p,
                cost: &mut w.cost,
                best: &mut w.best,
                best_cost: &mut w.best_cost,
                done: &mut w.done,
                built: &mut w.built,
                pending: &mut w.pending,
            };
            let tables = WideTables { delta: &mut w.delta, tabu: &mut w.tabu, terms: &mut w.terms };
            u64::from(wide_walk(m, state, tables, &w.rule, moves, &mut w.rng, || stop.is_set()))
        })
        .sum()
}

/// The wide walks on the CPU.
pub struct WideCpu {
    pool: rayon::ThreadPool,
    site: Site,
    mats: Mats,
    /// Aᵀ and Bᵀ.
    transposed: Mats,
    n: usize,
    walks: Vec<Walk>,
}

impl WideCpu {
    /// One walk a worker of `threads` (0: one per core), or `--ants` walks.
    pub fn new(inst: &Instance, opts: &Options, threads: usize, descent: bool) -> Result<WideCpu> {
        let pool = crate::algo::cpu_pool(threads)?;
        let m = opts.aco.ants.map_or(pool.current_num_threads(), |a| a as usize).max(1);
        let n = inst.n as u128;
        let per_walk = move_count(inst.n as u32) as u128 * 8 + n * n * 4 + n * 32 + 4 * n;
        crate::memory::ensure_host(m as u128 * per_walk, &format!("{m} walks of n = {n}"), "--ants or --threads")?;
        let cfg = WideConfig::of(inst, opts, m as u32, descent);
        let walks = (0..m).map(|k| Walk::new(inst, &cfg, k)).collect();
        let site = Site::cpu(pool.current_num_threads());
        let transposed = Instance::new(
            inst.name.clone(),
            inst.n,
            super::gpu::transpose(inst.n, &inst.a),
            super::gpu::transpose(inst.n, &inst.b),
        )?;
        Ok(WideCpu { pool, site, mats: Mats::of(inst), transposed: Mats::of(&transposed), n: inst.n, walks })
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
        Ok(self.walks.iter().map(|w| w.best_cost).collect())
    }

    fn best_of(&mut self, k: usize) -> Result<Vec<u16>> {
        Ok(self.walks[k].best.clone())
    }

    fn built(&mut self) -> Result<bool> {
        let steps = build_steps(self.n as u32);
        Ok(self.walks.iter().all(|w| w.built >= steps))
    }

    fn restart(&mut self, k: usize, perm: &[u16], cost: i64) -> Result<()> {
        let w = &mut self.walks[k];
        w.p.copy_from_slice(perm);
        w.best.copy_from_slice(perm);
        (w.cost, w.best_cost, w.built, w.pending) = (cost, cost, 0, NO_MOVE);
        w.tabu.fill(TABU_FREE);
        Ok(())
    }
}
