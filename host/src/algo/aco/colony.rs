//! Master/slave over several devices (`--multi master-slave`, Tsutsui's multi-GPU cAS): one
//! colony whose m ants are split over the devices. Each device constructs, searches and
//! archives its share (steps 6–8, in its own host thread); the host is the master that holds
//! the one τ: it gathers every device's archive, lays their pheromone in unit order with the
//! functions the kernels use (`cpu::pheromone`), and sends τ back to every device. With one
//! device this is exactly the single-device colony (test `colony_on_one_device_is_the_colony`).
use super::{AcoConfig, AcoEngine, LsStats, cpu, engine};
use crate::algo::multi::{FanOut, device_seed, each_live};
use crate::algo::{Backend, Options, resolve};
use crate::io::Instance;
use crate::run::stop::StopWord;
use crate::run::{Advance, Counters, Solver, SolverInfo};
use anyhow::{Result, bail};
use qapgpu_common::ls::LsKind;
use std::sync::Arc;

/// The ants of unit counts `m` split over `devices`: as even as can be, none empty.
pub fn split(m: u32, devices: usize) -> Vec<u32> {
    let d = (devices as u32).min(m).max(1);
    (0..d).map(|k| m / d + u32::from(k < m % d)).collect()
}

/// The master/slave colony of `opts` (aco-ts or aco-2opt) over `backends`.
pub fn build(backends: &[Backend], inst: &Instance, opts: &Options) -> Result<Box<dyn Solver>> {
    opts.validate()?;
    let ls = match resolve(inst, opts, backends.iter().any(Backend::is_gpu))?.name {
        "aco-ts" => LsKind::Tabu,
        "aco-2opt" => LsKind::TwoOpt,
        other => bail!(
            "--multi master-slave splits one ant colony over the devices: it takes --algo aco-ts or aco-2opt, not {other}"
        ),
    };
    if inst.n > qapgpu_common::MAX_N {
        bail!(
            "{}: n = {} is above {} for --multi master-slave (its colony is split over devices as rows of bytes); use --multi islands",
            inst.name,
            inst.n,
            qapgpu_common::MAX_N
        );
    }
    let cfg = AcoConfig::from_options(ls, inst, opts);
    let shares = split(cfg.ants, backends.len());
    let mut devices = Vec::with_capacity(shares.len());
    for (k, (b, &ants)) in backends.iter().zip(&shares).enumerate() {
        let c = AcoConfig { ants, seed: device_seed(cfg.seed, k), ..cfg.clone() };
        devices.push(Some((format!("device {k} ({})", b.describe()), engine(b, inst, &c)?)));
    }
    let words = devices.iter().flatten().map(|d| d.1.site().stop.clone()).collect();
    Ok(Box::new(Colony {
        devices,
        cfg,
        n: inst.n,
        tau: vec![0.0; inst.n * inst.n],
        word: Arc::new(StopWord::mirrored(Box::new(FanOut(words)))),
        target: opts.target,
        max_ls_iterations: opts.aco.max_ls_iterations,
        iterations: 0,
        best: (i64::MAX, Vec::new()),
    }))
}

/// The master/slave colony's driver: the devices' engines and the master's τ.
pub struct Colony {
    /// (label, engine); None once a device has failed (its ants are lost, the colony goes on).
    devices: Vec<Option<(String, Box<dyn AcoEngine>)>>,
    /// The whole colony's settings (m = every device's ants).
    cfg: AcoConfig,
    n: usize,
    /// The master's τ.
    tau: Vec<f32>,
    word: Arc<StopWord>,
    target: Option<i64>,
    max_ls_iterations: Option<u64>,
    /// cAS iterations so far, the random ants' round the first: each spends
    /// `per_iteration` of IT_TOTAL.
    iterations: u64,
    best: (i64, Vec<u8>),
}

impl Colony {
    fn live(&mut self) -> impl Iterator<Item = &mut Box<dyn AcoEngine>> {
        self.devices.iter_mut().flatten().map(|d| &mut d.1)
    }

    /// Steps on every device at once, then the master's pheromone update (from τ_init on
    /// the first iteration).
    fn iterate(&mut self, first: bool) -> Result<()> {
        let target = self.target;
        let words: Vec<Arc<StopWord>> = self.live().map(|e| e.site().stop.clone()).collect();
        each_live(&mut self.devices, |e| {
            if first {
                e.random_ants()?;
            } else {
                e.construct()?;
            }
            e.local_search()?;
            let best = e.update_best()?;
            if target.is_some_and(|t| best <= t) {
                words.iter().for_each(|w| w.set()); // the others stop at their next poll
            }
            Ok(())
        })?;
        let (mut ants, mut costs, mut best) = (Vec::new(), Vec::new(), std::mem::take(&mut self.best));
        for e in self.live() {
            let (a, c) = e.archive()?;
            ants.extend(a);
            costs.extend(c);
            let b = e.best()?;
            if b.0 < best.0 {
                best = b;
            }
        }
        self.best = best;
        let bounds = self.cfg.bounds(self.n, self.best.0);
        cpu::pheromone(&mut self.tau, self.n, self.cfg.rho as f32, first.then_some(bounds.max), &ants, &costs, bounds);
        let tau = &self.tau;
        each_live(&mut self.devices, |e| e.set_tau(tau))
    }

    fn per_iteration(&self) -> u64 {
        self.cfg.ants as u64 * self.cfg.ls_iterations as u64
    }
}

impl Solver for Colony {
    fn info(&self) -> SolverInfo {
        let live: Vec<&Box<dyn AcoEngine>> = self.devices.iter().flatten().map(|d| &d.1).collect();
        let shares: Vec<String> = live.iter().map(|e| e.config().ants.to_string()).collect();
        let names: Vec<String> = live.iter().map(|e| e.site().device.clone()).collect();
        let ls = match self.cfg.ls {
            LsKind::Tabu => format!(
                "tabu search, IT_TS = {}, T_list = {}, {}",
                self.cfg.ls_iterations,
                self.cfg.tabu_list_size,
                self.cfg.tenure_rule()
            ),
            LsKind::TwoOpt => format!("2-opt, IT_2OPT = {}", self.cfg.ls_iterations),
        };
        SolverInfo {
            algorithm: self.cfg.algo_name(),
            engine: live[0].site().engine,
            device: format!("{} devices: {}", live.len(), names.join(" + ")),
            layout: format!(
                "one colony of {} ants split over the devices ({}), τ kept by the host (master/slave), ρ = {}, γ = {}; {ls}",
                self.cfg.ants,
                shares.join(" + "),
                self.cfg.rho,
                self.cfg.gamma
            ),
            blocks: live.iter().map(|e| e.config().ants).sum(),
            threads_per_block: live[0].threads_per_block(),
        }
    }

    fn stop_word(&self) -> Arc<StopWord> {
        self.word.clone()
    }

    fn init(&mut self) -> Result<()> {
        // The random ants' round is the first cAS iteration (`AcoSolver::init`).
        (self.iterations, self.best) = (1, (i64::MAX, Vec::new()));
        self.iterate(true)
    }

    fn advance(&mut self) -> Result<Advance> {
        if self.max_ls_iterations.is_some_and(|m| self.iterations * self.per_iteration() >= m) {
            return Ok(Advance::Exhausted);
        }
        self.iterate(false)?;
        self.iterations += 1;
        Ok(Advance::Continue)
    }

    fn found(&mut self) -> Result<Option<(i64, Vec<u16>)>> {
        Ok(self.target.is_some_and(|t| self.best.0 <= t).then(|| crate::perm::widen_best(self.best.clone())))
    }

    fn best(&mut self) -> Result<(i64, Vec<u16>)> {
        if self.best.1.is_empty() {
            bail!("the colony has no solution yet");
        }
        Ok(crate::perm::widen_best(self.best.clone()))
    }

    fn counters(&mut self) -> Result<Counters> {
        let st: Vec<LsStats> = self.live().map(|e| e.ls_stats()).collect::<Result<_>>()?;
        Ok(Counters {
            iterations: self.iterations,
            unit: "cAS iterations",
            restarts: 0,
            evaluations: st.iter().map(|s| s.evaluations).sum(),
            search_seconds: st.iter().map(|s| s.seconds).fold(0.0, f64::max),
            best_at: None,
        })
    }

    /// The immigrant replaces the worst ant of the first device that takes it.
    fn immigrate(&mut self, cost: i64, perm: &[u16]) -> Result<bool> {
        for e in self.live() {
            if super::immigrate(e.as_mut(), cost, &crate::perm::narrow(perm))? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn ants_split_evenly_and_no_device_is_empty() {
        assert_eq!(split(10, 3), [4, 3, 3]);
        assert_eq!(split(8, 2), [4, 4]);
        assert_eq!(split(2, 4), [1, 1]);
        assert_eq!(split(5, 1), [5]);
    }
}
