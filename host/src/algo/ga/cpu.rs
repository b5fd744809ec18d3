//! The CPU engine: the same operators as the kernels (common::ga), one rayon task per
//! subpopulation; with one thread it is the papers' single-thread CPU column.
use super::{GaConfig, GaEngine, Snapshot};
use crate::cpu::Mats;
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::site::Site;
use anyhow::Result;
use qapgpu_common::elem::Elem;
use qapgpu_common::ga::{Crossover, breed, fresh, pick_partner, probability_threshold};
use qapgpu_common::matrix::Dense;
use qapgpu_common::rng::Xoshiro128;
use rayon::prelude::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

struct SubPop {
    rows: Vec<u8>,
    costs: Vec<i64>,
    children: Vec<u8>,
    child_costs: Vec<i64>,
    rngs: Vec<Xoshiro128>,
    best_cost: i64,
    best_perm: Vec<u8>,
    restarts: u32,
}

/// What one subpopulation needs to run generations, independent of the element type.
struct Ctx<'a, E> {
    a: Dense<'a, E>,
    b: Dense<'a, E>,
    n: usize,
    subpop: usize,
    pm: u32,
    crossover: Crossover,
    restart_count: u32,
    interval: u32,
    target: i64,
    found: &'a AtomicBool,
    found_at: &'a Mutex<Option<(i64, Vec<u8>)>>,
    stop: &'a StopWord,
}

impl SubPop {
    fn row(&self, i: usize, n: usize) -> &[u8] {
        &self.rows[i * n..(i + 1) * n]
    }

    /// Best cost, lowest index holding it, and how many hold it (the kernel's block_best).
    fn best(&self) -> (i64, usize, u32) {
        let best = *self.costs.iter().min().unwrap();
        let idx = self.costs.iter().position(|&c| c == best).unwrap();
        (best, idx, self.costs.iter().filter(|&&c| c == best).count() as u32)
    }

    fn save_best(&mut self, n: usize) {
        let (best, idx, _) = self.best();
        // i64::MAX: none drawn (a stop during initialisation).
        if best < self.best_cost && best != i64::MAX {
            self.best_cost = best;
            self.best_perm = self.row(idx, n).to_vec();
        }
    }

    /// Mirrors `device::ga::run` generation for generation.
    fn generations<E: Elem>(&mut self, gens: u32, c: &Ctx<E>) {
        let n = c.n;
        'gens: for g in 0..gens {
            if c.found.load(Ordering::Relaxed) || c.stop.is_set() {
                break;
            }
            for i in 0..c.subpop {
                // A stop inside a generation of a large subpopulation (1024 children of
                // n = 256 take tens of ms) drops its children: the parents stay, costed.
                if c.stop.is_set() {
                    break 'gens;
                }
                let rng = &mut self.rngs[i];
                let j = pick_partner(rng, i, c.subpop);
                let child = &mut self.children[i * n..(i + 1) * n];
                let (parent, partner) = (&self.rows[i * n..(i + 1) * n], &self.rows[j * n..(j + 1) * n]);
                self.child_costs[i] = breed(rng, parent, partner, child, &c.a, &c.b, c.pm, c.crossover);
            }
            for i in 0..c.subpop {
                if self.child_costs[i] < self.costs[i] {
                    self.costs[i] = self.child_costs[i];
                    self.rows[i * n..(i + 1) * n].copy_from_slice(&self.children[i * n..(i + 1) * n]);
                }
                if self.costs[i] <= c.target && !c.found.swap(true, Ordering::Relaxed) {
                    *c.found_at.lock().unwrap() = Some((self.costs[i], self.row(i, n).to_vec()));
                }
            }
            if (g + 1) % c.interval == 0 {
                let (_, _, count) = self.best();
                self.save_best(n);
                if c.restart_count != 0 && count >= c.restart_count {
                    // Those not drawn again when a stop comes keep their rows and costs.
                    for i in 0..c.subpop {
                        if c.stop.is_set() {
                            break;
                        }
                        self.costs[i] = fresh(&mut self.rngs[i], &mut self.rows[i * n..(i + 1) * n], &c.a, &c.b);
                    }
                    self.restarts += 1;
                }
            }
        }
        self.save_best(n);
    }
}

/// The GA's CPU engine: the kernels' operators on a thread pool.
pub struct CpuEngine {
    cfg: GaConfig,
    n: usize,
    mats: Mats,
    subpops: Vec<SubPop>,
    /// Every individual was drawn: no stop came during `init` (one that did leaves some
    /// subpopulations empty, and nothing but `best` then runs until the next `init`).
    complete: bool,
    pool: rayon::ThreadPool,
    found: AtomicBool,
    found_at: Mutex<Option<(i64, Vec<u8>)>>,
    site: Site,
}

impl CpuEngine {
    /// `threads` = 0: all cores. `cfg.blocks` = 0: four subpopulations per thread.
    pub fn new(inst: &Instance, cfg: &GaConfig, threads: usize) -> Result<CpuEngine> {
        let pool = crate::algo::cpu_pool(threads)?;
        let site = Site::cpu(pool.current_num_threads());
        let mut cfg = cfg.clone();
        let lower =
            if cfg.blocks == 0 { "--threads (4 subpopulations a thread) or --subpop" } else { "--blocks or --subpop" };
        if cfg.blocks == 0 {
            cfg.blocks = 4 * crate::algo::cpu_threads(threads) as u32;
        }
        anyhow::ensure!(cfg.subpop >= 2, "a subpopulation needs at least 2 individuals");
        // Parents and children with their costs and RNG states, and islands' copy of every
        // row and cost for a migration.
        let total = cfg.blocks as u128 * cfg.subpop as u128;
        let per_individual =
            2 * inst.n as u128 + 2 * 8 + 16 + if cfg.mode == super::Mode::Islands { inst.n as u128 + 8 } else { 0 };
        crate::memory::ensure_host(
            total * per_individual + 2 * (inst.n * inst.n * 4) as u128,
            &format!("a population of {} × {} on {}", cfg.blocks, cfg.subpop, inst.name),
            lower,
        )?;
        Ok(CpuEngine {
            n: inst.n,
            mats: Mats::of(inst),
            subpops: Vec::new(),
            complete: false,
            pool,
            found: AtomicBool::new(false),
            found_at: Mutex::new(None),
            site,
            cfg,
        })
    }

    /// Threads of its pool.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `f` once per subpopulation, in parallel.
    fn each<F>(&mut self, f: F)
    where
        F: Fn(&mut SubPop, &CtxAny) + Sync,
    {
        self.on_pool(|subpops, any| subpops.par_iter_mut().for_each(|s| f(s, any)));
    }

    /// Runs `f` on the pool with the subpopulations and the context of every generation.
    fn on_pool<F>(&mut self, f: F)
    where
        F: FnOnce(&mut Vec<SubPop>, &CtxAny) + Send,
    {
        let (n, cfg) = (self.n, &self.cfg);
        let (found, found_at, stop) = (&self.found, &self.found_at, &*self.site.stop);
        let subpops = &mut self.subpops;
        macro_rules! go {
            ($a:expr, $b:expr, $variant:ident) => {{
                let ctx = Ctx {
                    a: Dense::new($a, n),
                    b: Dense::new($b, n),
                    n,
                    subpop: cfg.subpop as usize,
                    pm: probability_threshold(cfg.pm),
                    crossover: cfg.crossover,
                    restart_count: cfg.restart_count(),
                    interval: cfg.restart_interval,
                    target: cfg.target,
                    found,
                    found_at,
                    stop,
                };
                let any = CtxAny::$variant(&ctx);
                self.pool.install(|| f(subpops, &any));
            }};
        }
        match &self.mats {
            Mats::U16(a, b) => go!(a, b, U16),
            Mats::U32(a, b) => go!(a, b, U32),
            Mats::I32(a, b) => go!(a, b, I32),
        }
    }
}

/// A `Ctx` of any element type, so closures can stay non-generic.
enum CtxAny<'a, 'b> {
    U16(&'b Ctx<'a, u16>),
    U32(&'b Ctx<'a, u32>),
    I32(&'b Ctx<'a, i32>),
}

macro_rules! with_ctx {
    ($any:expr, |$c:ident| $body:expr) => {
        match $any {
            CtxAny::U16($c) => $body,
            CtxAny::U32($c) => $body,
            CtxAny::I32($c) => $body,
        }
    };
}

impl GaEngine for CpuEngine {
    fn site(&self) -> &Site {
        &self.site
    }

    fn blocks(&self) -> u32 {
        self.cfg.blocks
    }

    fn init(&mut self) -> Result<()> {
        let (n, subpop) = (self.n, self.cfg.subpop as usize);
        self.found.store(false, Ordering::Relaxed);
        *self.found_at.lock().unwrap() = None;
        let (seed, blocks) = (self.cfg.seed, self.cfg.blocks as usize);
        // Each subpopulation is set up and drawn in one task, the stop word (time limit,
        // Ctrl-C) asked before each and before every individual: 65536 subpopulations take
        // 4 GiB at n = 256, and a million individuals a minute to draw on a few cores. A
        // subpopulation a stop leaves unset is empty; individuals left undrawn cost i64::MAX.
        self.on_pool(|subpops, any| {
            *subpops = (0..blocks)
                .into_par_iter()
                .map(|blk| {
                    with_ctx!(any, |c| {
                        let size = if c.stop.is_set() { 0 } else { subpop };
                        let mut s = SubPop {
                            rows: vec![0; size * n],
                            costs: vec![i64::MAX; size],
                            children: vec![0; size * n],
                            child_costs: vec![0; size],
                            rngs: (0..size).map(|i| Xoshiro128::from_stream(seed, (blk * subpop + i) as u64)).collect(),
                            best_cost: i64::MAX,
                            best_perm: vec![],
                            restarts: 0,
                        };
                        for i in 0..size {
                            if c.stop.is_set() {
                                break;
                            }
                            s.costs[i] = fresh(&mut s.rngs[i], &mut s.rows[i * n..(i + 1) * n], &c.a, &c.b);
                        }
                        s
                    })
                })
                .collect();
        });
        self.complete = !self.site.stop.is_set();
        Ok(())
    }

    fn advance(&mut self, gens: u32) -> Result<()> {
        if !self.complete {
            return Ok(());
        }
        self.each(|s, any| with_ctx!(any, |c| s.generations(gens, c)));
        Ok(())
    }

    fn migrate(&mut self, epoch: u64) -> Result<()> {
        if !self.complete {
            return Ok(());
        }
        let (n, subpop) = (self.n, self.cfg.subpop as usize);
        let total = self.subpops.len() * subpop;
        let migration = self.cfg.migration(total as u32, epoch);
        let mut rows = vec![0u8; total * n];
        let mut costs = vec![0i64; total];
        for k in 0..total {
            // A stop while the rows are gathered leaves the population as it was.
            if k % 4096 == 0 && self.site.stop.is_set() {
                return Ok(());
            }
            let (x, y) = migration.route(k as u32);
            let (x, y) = (x as usize, y as usize);
            let (s, i) = (&self.subpops[x / subpop], x % subpop);
            rows[y * n..(y + 1) * n].copy_from_slice(s.row(i, n));
            costs[y] = s.costs[i];
        }
        for (blk, s) in self.subpops.iter_mut().enumerate() {
            s.rows.copy_from_slice(&rows[blk * subpop * n..(blk + 1) * subpop * n]);
            s.costs.copy_from_slice(&costs[blk * subpop..(blk + 1) * subpop]);
        }
        Ok(())
    }

    fn found(&mut self) -> Result<Option<(i64, Vec<u8>)>> {
        Ok(self.found_at.lock().unwrap().clone())
    }

    fn best(&mut self) -> Result<(i64, Vec<u8>)> {
        let n = self.n;
        let mut best = match self.subpops.iter().min_by_key(|s| s.best_cost) {
            Some(s) if s.best_cost != i64::MAX => (s.best_cost, s.best_perm.clone()),
            // No generation ended yet (a stop during the first): the best individual drawn.
            _ => self
                .subpops
                .iter()
                .flat_map(|s| s.costs.iter().enumerate().map(move |(i, &c)| (c, s, i)))
                .min_by_key(|x| x.0)
                .map_or((i64::MAX, Vec::new()), |(c, s, i)| (c, s.row(i, n).to_vec())),
        };
        if let Some(f) = self.found()?
            && f.0 < best.0
        {
            best = f;
        }
        Ok(best)
    }

    /// None (no immigrant is taken) while `init` was cut short.
    fn member_costs(&mut self) -> Result<Vec<i64>> {
        if !self.complete {
            return Ok(Vec::new());
        }
        Ok(self.subpops.iter().flat_map(|s| s.costs.iter().copied()).collect())
    }

    fn put_member(&mut self, k: usize, perm: &[u8], cost: i64) -> Result<()> {
        anyhow::ensure!(self.complete, "the population was not drawn (a stop came during its initialisation)");
        let (n, subpop) = (self.n, self.cfg.subpop as usize);
        let s = &mut self.subpops[k / subpop];
        let i = k % subpop;
        s.rows[i * n..(i + 1) * n].copy_from_slice(perm);
        s.costs[i] = cost;
        Ok(())
    }

    fn restarts(&mut self) -> Result<u64> {
        Ok(self.subpops.iter().map(|s| s.restarts as u64).sum())
    }

    fn snapshot(&mut self) -> Result<Snapshot> {
        let n = self.n;
        Ok(Snapshot {
            rows: self.subpops.iter().flat_map(|s| s.rows.chunks(n).map(<[u8]>::to_vec)).collect(),
            costs: self.subpops.iter().flat_map(|s| s.costs.iter().copied()).collect(),
            rng: self.subpops.iter().flat_map(|s| s.rngs.iter().map(|r| r.s)).collect(),
            best_costs: self.subpops.iter().map(|s| s.best_cost).collect(),
            restarts: self.subpops.iter().map(|s| s.restarts).collect(),
        })
    }
}
