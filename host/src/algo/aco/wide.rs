//! The cunning ant system above n = 256: seed 003's colony (Fig. 2) on the wide path. The
//! host draws the c-ants from each unit's best ant and τ (`common::aco::construct`, the
//! kernels' own function on u16 rows), the wide walks (`ts::wide`) are the local search, one
//! walk a unit (`--ants`; the wide path's default count), and step 8 and the MAX–MIN update
//! (Eqs. 1–2) run on the host as the CPU engine runs them. `aco-ts`: each walk restarts from
//! its c-ant for IT_TS moves of robust tabu search; `aco-2opt`: a best-improvement descent to
//! its first local minimum (`WideConfig::descent`).
//!
//! A restarted walk builds its Δ table first (O(n³), `wide::build_step`), so a cAS
//! iteration costs at least that build: at n = 1000 about a second on one H200.
use super::AcoConfig;
use crate::algo::ts::wide::{WideEngine, engine};
use crate::algo::{Backend, Options};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::run::{Advance, Counters, Solver, SolverInfo};
use anyhow::Result;
use qapgpu_common::aco::{best_unit, construct};
use qapgpu_common::ls::LsKind;
use qapgpu_common::rng::Xoshiro128;
use std::sync::Arc;
use std::time::Instant;

/// Moves (or build steps) of one launch of the walks within a local search.
const LAUNCH_MOVES: u32 = 64;

/// The colony on the wide walks.
pub struct WideColony {
    walks: Box<dyn WideEngine>,
    cfg: AcoConfig,
    inst: Instance,
    /// Each unit's best ant (m rows of n) and its cost.
    ants: Vec<u16>,
    ant_costs: Vec<i64>,
    tau: Vec<f32>,
    rngs: Vec<Xoshiro128>,
    best: (i64, Vec<u16>),
    target: Option<i64>,
    iterations: u64,
    moves: u64,
    seconds: f64,
}

/// `aco-ts` or `aco-2opt` (`ls`) of `opts` on `backend` for `inst` (n above 256).
pub fn build(backend: &Backend, inst: &Instance, opts: &Options, ls: LsKind) -> Result<Box<dyn Solver>> {
    let mut cfg = AcoConfig::from_options(ls, inst, opts);
    let walks = engine(backend, inst, opts, ls == LsKind::TwoOpt)?;
    cfg.ants = walks.walks();
    let (n, m) = (inst.n, cfg.ants as usize);
    let mut rngs: Vec<Xoshiro128> =
        (0..m).map(|k| Xoshiro128::from_stream(opts.seed, 0x0043_4153 + k as u64)).collect();
    let mut ants = vec![0u16; m * n];
    let mut ant_costs = Vec::with_capacity(m);
    for (k, rng) in rngs.iter_mut().enumerate() {
        let row = &mut ants[k * n..(k + 1) * n];
        qapgpu_common::ops::random_permutation(rng, row);
        ant_costs.push(inst.cost(row));
    }
    let (k, c) = best_unit(&ant_costs);
    let best = (c, ants[k * n..(k + 1) * n].to_vec());
    let tau = vec![cfg.bounds(n, c).max; n * n];
    Ok(Box::new(WideColony {
        walks,
        cfg,
        inst: inst.clone(),
        ants,
        ant_costs,
        tau,
        rngs,
        best,
        target: opts.target,
        iterations: 0,
        moves: 0,
        seconds: 0.0,
    }))
}

impl WideColony {
    /// Step 6 and the local search: every walk restarts from its unit's c-ant and searches.
    fn search(&mut self, stop: &StopWord) -> Result<()> {
        let (n, thr) = (self.inst.n, self.cfg.gamma_threshold());
        let (mut cant, mut marked, mut free) = (vec![0u16; n], vec![0u16; n], vec![0u16; n]);
        for k in 0..self.ant_costs.len() {
            let donor = &self.ants[k * n..(k + 1) * n];
            construct(&mut self.rngs[k], donor, &self.tau, thr, &mut cant, &mut marked, &mut free);
            self.walks.restart(k, &cant, self.inst.cost(&cant))?;
        }
        let t = Instant::now();
        while !self.walks.built()? && !stop.is_set() {
            self.walks.launch(LAUNCH_MOVES)?;
        }
        let m = self.ant_costs.len() as u64;
        let mut left = u64::from(self.cfg.ls_iterations);
        while left > 0 && !stop.is_set() {
            let made = self.walks.launch(left.min(u64::from(LAUNCH_MOVES)) as u32)?;
            self.moves += made;
            // A descent ends at its local minimum: a launch with no move at all.
            if made == 0 {
                break;
            }
            left = left.saturating_sub(made.div_ceil(m));
        }
        self.seconds += t.elapsed().as_secs_f64();
        Ok(())
    }

    /// Step 8 (a walk's best replaces its unit's ant when as good or better), the best so
    /// far, and Eqs. 1–2.
    fn update(&mut self) -> Result<()> {
        let n = self.inst.n;
        let costs = self.walks.best_costs()?;
        for (k, &c) in costs.iter().enumerate() {
            if c <= self.ant_costs[k] {
                let row = self.walks.best_of(k)?;
                self.ants[k * n..(k + 1) * n].copy_from_slice(&row);
                self.ant_costs[k] = c;
            }
        }
        let (k, c) = best_unit(&self.ant_costs);
        if c < self.best.0 {
            self.best = (c, self.ants[k * n..(k + 1) * n].to_vec());
        }
        let bounds = self.cfg.bounds(n, self.best.0);
        super::cpu::pheromone(&mut self.tau, n, self.cfg.rho as f32, None, &self.ants, &self.ant_costs, bounds);
        Ok(())
    }
}

impl Solver for WideColony {
    fn info(&self) -> SolverInfo {
        let (engine, device) = self.walks.site();
        let search = match self.cfg.ls {
            LsKind::Tabu => format!("{} moves of robust tabu search", self.cfg.ls_iterations),
            LsKind::TwoOpt => "best-improvement 2-opt to a local minimum".into(),
        };
        SolverInfo {
            algorithm: self.cfg.algo_name(),
            engine,
            device,
            layout: format!(
                "{} ants, γ = {}, ρ = {}; each c-ant's local search ({search}) on a walk of the wide path (n > 256){}",
                self.cfg.ants,
                self.cfg.gamma,
                self.cfg.rho,
                self.walks.memory()
            ),
            blocks: self.cfg.ants,
            threads_per_block: self.walks.threads(),
        }
    }

    fn stop_word(&self) -> Arc<StopWord> {
        self.walks.stop_word()
    }

    fn init(&mut self) -> Result<()> {
        Ok(())
    }

    fn advance(&mut self) -> Result<Advance> {
        let stop = self.walks.stop_word();
        self.search(&stop)?;
        if !stop.is_set() {
            self.update()?;
            self.iterations += 1;
        }
        Ok(Advance::Continue)
    }

    fn found(&mut self) -> Result<Option<(i64, Vec<u16>)>> {
        let best = self.best()?;
        Ok(self.target.is_some_and(|t| best.0 <= t).then_some(best))
    }

    /// The best ant so far, or a walk's best where a stop cut a search short.
    fn best(&mut self) -> Result<(i64, Vec<u16>)> {
        let costs = self.walks.best_costs()?;
        let (k, c) = best_unit(&costs);
        if c < self.best.0 {
            return Ok((c, self.walks.best_of(k)?));
        }
        Ok(self.best.clone())
    }

    fn counters(&mut self) -> Result<Counters> {
        let per_move = qapgpu_common::moves::move_count(self.inst.n as u32) as u64;
        Ok(Counters {
            iterations: self.iterations,
            unit: "cAS iterations",
            restarts: 0,
            evaluations: self.moves * per_move,
            search_seconds: self.seconds,
            best_at: None,
        })
    }

    /// Until the first cAS iteration has ended: its walks' builds make no improvement.
    fn settling(&self) -> bool {
        self.iterations == 0
    }

    /// The immigrant replaces the worst unit's ant, where it is better.
    fn immigrate(&mut self, cost: i64, perm: &[u16]) -> Result<bool> {
        let n = self.inst.n;
        match crate::algo::multi::worst_slot(&self.ant_costs, cost) {
            Some(k) => {
                self.ants[k * n..(k + 1) * n].copy_from_slice(perm);
                self.ant_costs[k] = cost;
                Ok(true)
            }
            None => Ok(false),
        }
    }
}
