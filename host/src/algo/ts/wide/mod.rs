//! `ts` above n = 256: the wide path (`qapgpu_common::wide`). The walks are Taillard's
//! robust tabu search with the same settings as below 256 (tenures, long-term aspiration),
//! on `u16` solutions, each keeping its Δ table from launch to launch; one block a walk on
//! the GPU (`gpu`), one walk a worker on the CPU (`cpu`), the same moves on both.
//!
//! What the walks of n ≤ 256 have and these do not yet: regrouping ("go with the winners")
//! and the restart cycles, which were tuned only up to n = 256 (`policy`).
pub mod cpu;
pub mod gpu;

use crate::algo::policy::{ASPIRATION_FACTOR, TENURE_FACTOR, TENURE_LAW, TENURE_PER_MOVE};
use crate::algo::{Backend, Options};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::run::{Advance, Counters, Solver, SolverInfo};
use anyhow::Result;
use qapgpu_common::ls::{NO_TARGET, Tenure, TenureLaw};
use qapgpu_common::rng::Xoshiro128;
use std::sync::Arc;
use std::time::Instant;

/// What a launch of the walks should take: long enough that a launch's fixed costs (the
/// state's loads and stores, the host's read of the best costs) stay small, short enough
/// that the run loop sees improvements soon.
const LAUNCH_SECONDS: f64 = 0.02;
/// Most moves (or build steps) of a launch.
const MAX_LAUNCH_MOVES: u32 = 4096;

/// The walks' settings, as the run's options give them.
#[derive(Clone, Copy, Debug)]
pub struct WideConfig {
    /// The tenure law and list size (`Tenure::of_unit` gives each walk its own).
    pub tenure: Tenure,
    /// Taillard's long-term aspiration, in iterations.
    pub aspiration: i32,
    /// The walks stop at this cost (`NO_TARGET`: never).
    pub target: i64,
    /// Seed of the starts and the tenures.
    pub seed: u64,
    /// A descent to the first local minimum (`aco-2opt`'s search), no tabu.
    pub descent: bool,
}

impl WideConfig {
    /// `opts`'s settings for `inst`: Ro-TS's, as `ts::walk_config` sets them, or with
    /// `descent` a best-improvement descent (T = 0, no aspiration).
    pub fn of(inst: &Instance, opts: &Options, descent: bool) -> WideConfig {
        let n = inst.n as u32;
        let x = &opts.aco;
        let ro_ts = WideConfig {
            tenure: Tenure {
                list_size: x.tabu_list.unwrap_or(TENURE_FACTOR * n),
                per_move: x.tenure_per_move.unwrap_or(TENURE_PER_MOVE),
                law: x.tenure_law.unwrap_or(TENURE_LAW),
            },
            aspiration: (ASPIRATION_FACTOR as u64 * n as u64 * n as u64).min(i32::MAX as u64) as i32,
            target: opts.target.unwrap_or(NO_TARGET),
            seed: opts.seed,
            descent: false,
        };
        if descent {
            let tenure = Tenure { list_size: 0, per_move: true, law: TenureLaw::Cubic };
            return WideConfig { tenure, aspiration: 0, descent, ..ro_ts };
        }
        ro_ts
    }

    /// The code of the tenure law in `WideParams`.
    pub fn law_code(&self) -> u32 {
        match self.tenure.law {
            TenureLaw::Cubic => 0,
            TenureLaw::Uniform => 1,
            TenureLaw::Mixed => 2,
        }
    }
}

/// Walk k's start: a random permutation of its own stream, and its generator after the draw.
pub fn start(n: usize, seed: u64, k: usize) -> (Vec<u16>, Xoshiro128) {
    let mut rng = Xoshiro128::from_stream(seed, k as u64);
    let mut p = vec![0u16; n];
    qapgpu_common::ops::random_permutation(&mut rng, &mut p);
    (p, rng)
}

/// One engine of the wide walks.
pub trait WideEngine: Send {
    /// "gpu" or "cpu", and the device in words.
    fn site(&self) -> (&'static str, String);
    /// The stop word its launches poll.
    fn stop_word(&self) -> Arc<StopWord>;
    /// Threads a walk (1 on the CPU).
    fn threads(&self) -> u32;
    /// Walks.
    fn walks(&self) -> u32;
    /// Where its memory goes, in words.
    fn memory(&self) -> String;
    /// Up to `moves` more moves (or build steps) of every walk; returns the moves made.
    fn launch(&mut self, moves: u32) -> Result<u64>;
    /// Every walk's best cost.
    fn best_costs(&mut self) -> Result<Vec<i64>>;
    /// Walk k's best solution.
    fn best_of(&mut self, k: usize) -> Result<Vec<u16>>;
    /// Whether every walk has built its Δ table.
    fn built(&mut self) -> Result<bool>;
    /// Walk k starts again from `perm` (cost `cost`), its tables rebuilt.
    fn restart(&mut self, k: usize, perm: &[u16], cost: i64) -> Result<()>;
}

/// The driver: one launch of every walk an `advance`, its length set from the last one's time.
pub struct WideTs {
    engine: Box<dyn WideEngine>,
    cfg: WideConfig,
    n: usize,
    launch: u32,
    moves: u64,
    seconds: f64,
    settled: bool,
}

/// The wide walks of `opts` on `backend` for `inst` (n above 256).
pub fn build(backend: &Backend, inst: &Instance, opts: &Options) -> Result<Box<dyn Solver>> {
    Ok(Box::new(walks(backend, inst, opts)?))
}

/// The engine of the wide walks of `opts` on `backend` (`descent`: `WideConfig::descent`).
pub fn engine(backend: &Backend, inst: &Instance, opts: &Options, descent: bool) -> Result<Box<dyn WideEngine>> {
    Ok(match backend {
        Backend::Gpu(g) => Box::new(gpu::WideGpu::new(g.clone(), inst, opts, descent)?),
        Backend::Cpu { threads } => Box::new(cpu::WideCpu::new(inst, opts, *threads, descent)?),
    })
}

/// `build`'s driver, as `memetic` breeds it.
pub fn walks(backend: &Backend, inst: &Instance, opts: &Options) -> Result<WideTs> {
    let engine = engine(backend, inst, opts, false)?;
    let cfg = WideConfig::of(inst, opts, false);
    Ok(WideTs { engine, cfg, n: inst.n, launch: 1, moves: 0, seconds: 0.0, settled: false })
}

impl WideTs {
    /// The walks' engine.
    pub fn engine(&mut self) -> &mut dyn WideEngine {
        self.engine.as_mut()
    }

    /// Problem size.
    pub fn n(&self) -> usize {
        self.n
    }
}

impl Solver for WideTs {
    fn info(&self) -> SolverInfo {
        let (engine, device) = self.engine.site();
        let walks = self.engine.walks();
        SolverInfo {
            algorithm: "ts",
            engine,
            device,
            layout: format!(
                "{walks} walks of robust tabu search on the wide path (n > 256: u16 solutions, Δ tables kept between launches), T_list = {}, {} moves per launch at most{}",
                self.cfg.tenure.list_size,
                MAX_LAUNCH_MOVES,
                self.engine.memory()
            ),
            blocks: walks,
            threads_per_block: self.engine.threads(),
        }
    }

    fn stop_word(&self) -> Arc<StopWord> {
        self.engine.stop_word()
    }

    fn init(&mut self) -> Result<()> {
        Ok(())
    }

    fn advance(&mut self) -> Result<Advance> {
        let t = Instant::now();
        let made = self.engine.launch(self.launch)?;
        let dt = t.elapsed().as_secs_f64();
        self.moves += made;
        self.seconds += dt;
        // The next launch as long as `LAUNCH_SECONDS` at this one's pace (at most twice as long).
        let scaled = f64::from(self.launch) * (LAUNCH_SECONDS / dt.max(1e-6)).min(2.0);
        self.launch = (scaled as u32).clamp(1, MAX_LAUNCH_MOVES);
        if !self.settled {
            self.settled = self.engine.built()?;
        }
        Ok(Advance::Continue)
    }

    fn found(&mut self) -> Result<Option<(i64, Vec<u16>)>> {
        let best = self.best()?;
        Ok((best.0 <= self.cfg.target).then_some(best))
    }

    fn best(&mut self) -> Result<(i64, Vec<u16>)> {
        let costs = self.engine.best_costs()?;
        let (k, &c) = costs.iter().enumerate().min_by_key(|(_, c)| **c).expect("at least one walk");
        Ok((c, self.engine.best_of(k)?))
    }

    fn counters(&mut self) -> Result<Counters> {
        let per_move = qapgpu_common::moves::move_count(self.n as u32) as u64;
        Ok(Counters {
            iterations: self.moves,
            unit: "tabu moves (all walks)",
            restarts: 0,
            evaluations: self.moves * per_move,
            search_seconds: self.seconds,
            best_at: None,
        })
    }

    /// The walk of the worst best cost restarts from the immigrant, where it is better.
    fn immigrate(&mut self, cost: i64, perm: &[u16]) -> Result<bool> {
        match crate::algo::multi::worst_slot(&self.engine.best_costs()?, cost) {
            Some(k) => self.engine.restart(k, perm, cost).map(|_| true),
            None => Ok(false),
        }
    }

    /// Until every walk has built its Δ table and moved: the build makes no improvement.
    fn settling(&self) -> bool {
        !self.settled
    }
}
