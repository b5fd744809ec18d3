//! Several devices, one run: one solver per device (its own CUDA context, or its own CPU
//! pool), each advanced by its own host thread, all driven by the one run loop as a single
//! `Solver`. Every family runs this way, with distinct seeds, as independent searches (seed
//! 001's independent runs split over GPUs) or as islands: every `--migrate-every` steps each
//! device's best goes to the next device along a ring and replaces its worst member (the
//! island model of seed 000 and of Tsutsui's multi-GPU ACO). The ACO's master/slave model,
//! one colony over several devices, is `aco::colony`. The target stop reaches every device at
//! once: the device whose search reaches the target ends its launch (its kernels write its
//! stop word), and this driver sets the stop words of the others as soon as its thread sees
//! it, so their kernels stop at their next poll. A device that fails is reported and dropped;
//! the run goes on with the others.
use super::{Backend, Options, build};
use crate::io::Instance;
use crate::run::stop::{DeviceMirror, StopWord};
use crate::run::{Advance, Counters, Solver, SolverInfo};
use anyhow::{Result, bail};
use std::sync::Arc;

/// How several devices share one run (`--multi`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Model {
    /// One search per device, sharing only the stop.
    #[default]
    Independent,
    /// One search per device; bests travel along a ring of devices.
    Islands,
    /// aco-ts / aco-2opt: one colony whose ants are split over the devices (`aco::colony`).
    MasterSlave,
}

impl Model {
    /// The `--multi` value.
    pub fn name(self) -> &'static str {
        match self {
            Model::Independent => "independent",
            Model::Islands => "islands",
            Model::MasterSlave => "master-slave",
        }
    }
}

/// Islands: solver steps between two migrations.
pub const DEFAULT_MIGRATE_EVERY: u32 = 5;

/// Where an immigrant of cost `cost` goes among members of costs `costs`: the worst one,
/// when the immigrant is better than it and no member has its cost already (most likely the
/// same solution, come round the ring again).
pub fn worst_slot(costs: &[i64], cost: i64) -> Option<usize> {
    if costs.contains(&cost) {
        return None;
    }
    let (k, &worst) = costs.iter().enumerate().max_by_key(|&(k, &c)| (c, std::cmp::Reverse(k)))?;
    (cost < worst).then_some(k)
}

/// Runs `step` on every live slot's item in its own thread; a slot whose step fails (or
/// panics) is reported by its label and emptied. Fails only when no slot is left.
pub fn each_live<T: Send>(slots: &mut [Option<(String, T)>], step: impl Fn(&mut T) -> Result<()> + Sync) -> Result<()> {
    let results: Vec<Result<()>> = std::thread::scope(|s| {
        let handles: Vec<_> = slots.iter_mut().flatten().map(|(_, t)| s.spawn(|| step(t))).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(anyhow::anyhow!("the device's thread panicked"))))
            .collect()
    });
    let mut results = results.into_iter();
    let mut last_error = None;
    for slot in slots.iter_mut().filter(|d| d.is_some()) {
        if let Some(Err(e)) = results.next() {
            let label = slot.as_ref().map_or(String::new(), |d| d.0.clone());
            eprintln!("note: {label} failed: {e:#}; going on with the other devices");
            *slot = None;
            last_error = Some(e);
        }
    }
    if slots.iter().all(Option::is_none) {
        bail!("every device failed; the last: {:#}", last_error.unwrap_or_else(|| anyhow::anyhow!("no device")));
    }
    Ok(())
}

/// A stop word whose writes go to the words of every device's solver.
pub struct FanOut(pub Vec<Arc<StopWord>>);

impl DeviceMirror for FanOut {
    fn write(&self, value: u32, _wait: bool) {
        for w in &self.0 {
            if value == 0 { w.clear() } else { w.set() }
        }
    }
    fn device_ptr(&self) -> u64 {
        0
    }
}

struct Device {
    solver: Box<dyn Solver>,
    word: Arc<StopWord>,
}

/// One run on several devices, as `Model` says they share it.
pub struct MultiSolver {
    /// (label, device); None once a device has failed.
    devices: Vec<Option<(String, Device)>>,
    word: Arc<StopWord>,
    found: Option<(i64, Vec<u16>)>,
    /// Islands: steps between migrations; None: independent searches.
    migrate_every: Option<u32>,
    steps: u64,
    migrations: u64,
}

/// The seed of device k: far apart streams of the run's seed.
pub fn device_seed(seed: u64, k: usize) -> u64 {
    seed.wrapping_add((k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// One solver of `opts` per backend.
pub fn build_multi(backends: &[Backend], inst: &Instance, opts: &Options) -> Result<Box<dyn Solver>> {
    let mut solvers = Vec::with_capacity(backends.len());
    for (k, b) in backends.iter().enumerate() {
        let o = Options { seed: device_seed(opts.seed, k), ..opts.clone() };
        solvers.push((format!("device {k} ({})", b.describe()), build(b, inst, &o)?));
    }
    Ok(of_solvers(solvers, opts))
}

/// One run over `solvers` (a label and a solver a device), shared as `opts.multi` says
/// (`build_multi`'s, or solvers a test wraps: a device made to fail mid-run).
pub fn of_solvers(solvers: Vec<(String, Box<dyn Solver>)>, opts: &Options) -> Box<dyn Solver> {
    let devices: Vec<Option<(String, Device)>> = solvers
        .into_iter()
        .map(|(label, solver)| {
            let word = solver.stop_word();
            Some((label, Device { solver, word }))
        })
        .collect();
    let words = devices.iter().flatten().map(|d| d.1.word.clone()).collect();
    let migrate_every = (opts.multi == Model::Islands).then_some(opts.migrate_every.max(1));
    let word = Arc::new(StopWord::mirrored(Box::new(FanOut(words))));
    Box::new(MultiSolver { devices, word, found: None, migrate_every, steps: 0, migrations: 0 })
}

impl MultiSolver {
    fn live(&mut self) -> impl Iterator<Item = &mut Device> {
        self.devices.iter_mut().flatten().map(|d| &mut d.1)
    }

    fn words(&self) -> Vec<Arc<StopWord>> {
        self.devices.iter().flatten().map(|d| d.1.word.clone()).collect()
    }

    /// One ring migration: every live device takes the best of the live device before it. A
    /// device that fails here is reported and dropped, as in a step.
    fn migrate(&mut self) -> Result<()> {
        let bests: Vec<Option<(i64, Vec<u16>)>> = self.live().map(|d| d.solver.best().ok()).collect();
        let count = bests.len();
        for (k, slot) in self.devices.iter_mut().filter(|d| d.is_some()).enumerate() {
            let Some((cost, perm)) = &bests[(k + count - 1) % count] else { continue };
            if let Some((label, d)) = slot.as_mut()
                && let Err(e) = d.solver.immigrate(*cost, perm)
            {
                eprintln!("note: {label} failed: {e:#}; going on with the other devices");
                *slot = None;
            }
        }
        if self.devices.iter().all(Option::is_none) {
            bail!("every device failed during a migration");
        }
        self.migrations += 1;
        Ok(())
    }

    /// Records a device's solution that reached the target (the lowest cost wins).
    fn keep(&mut self, found: Vec<(i64, Vec<u16>)>) {
        for f in found {
            if self.found.as_ref().is_none_or(|g| f.0 < g.0) {
                self.found = Some(f);
            }
        }
    }

    fn best_of(&mut self, step: impl Fn(&mut Device) -> Result<Option<(i64, Vec<u16>)>>) -> Vec<(i64, Vec<u16>)> {
        self.live().filter_map(|d| step(d).ok().flatten()).collect()
    }
}

impl Solver for MultiSolver {
    fn info(&self) -> SolverInfo {
        let live: Vec<&Device> = self.devices.iter().flatten().map(|d| &d.1).collect();
        let mut info = live[0].solver.info();
        let names: Vec<String> = live.iter().map(|d| d.solver.info().device).collect();
        info.device = format!("{} devices: {}", live.len(), names.join(" + "));
        info.blocks = live.iter().map(|d| d.solver.info().blocks).sum();
        info.layout = match self.migrate_every {
            Some(k) => format!(
                "{} per device, islands (seeds apart; each device's best to the next along a ring every {k} steps)",
                info.layout
            ),
            None => format!("{} per device, independent (seeds apart)", info.layout),
        };
        info
    }

    fn stop_word(&self) -> Arc<StopWord> {
        self.word.clone()
    }

    fn init(&mut self) -> Result<()> {
        (self.found, self.steps, self.migrations) = (None, 0, 0);
        each_live(&mut self.devices, |d| d.solver.init())
    }

    fn advance(&mut self) -> Result<Advance> {
        let found = std::sync::Mutex::new(Vec::new());
        let exhausted = std::sync::atomic::AtomicUsize::new(0);
        let words = self.words();
        each_live(&mut self.devices, |d| {
            if d.solver.advance()? == Advance::Exhausted {
                exhausted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            if let Some(f) = d.solver.found()? {
                // Stop the others now rather than at the end of their launches.
                for w in &words {
                    w.set();
                }
                found.lock().expect("no thread panics holding it").push(f);
            }
            Ok(())
        })?;
        self.keep(found.into_inner().expect("no thread panics holding it"));
        self.steps += 1;
        if self.found.is_none()
            && self.migrate_every.is_some_and(|k| self.steps.is_multiple_of(k as u64))
            && !self.word.is_set()
        {
            self.migrate()?;
        }
        let live = self.devices.iter().flatten().count();
        Ok(if exhausted.into_inner() >= live { Advance::Exhausted } else { Advance::Continue })
    }

    fn found(&mut self) -> Result<Option<(i64, Vec<u16>)>> {
        if self.found.is_none() {
            let f = self.best_of(|d| d.solver.found());
            self.keep(f);
        }
        Ok(self.found.clone())
    }

    fn best(&mut self) -> Result<(i64, Vec<u16>)> {
        let mut all = self.best_of(|d| d.solver.best().map(Some));
        all.extend(self.found.clone());
        all.into_iter().min_by_key(|b| b.0).ok_or_else(|| anyhow::anyhow!("no device has a solution"))
    }

    fn counters(&mut self) -> Result<Counters> {
        let all: Vec<Counters> = self.live().filter_map(|d| d.solver.counters().ok()).collect();
        let mut c = all.first().cloned().ok_or_else(|| anyhow::anyhow!("no device left"))?;
        c.iterations = all.iter().map(|x| x.iterations).sum();
        c.evaluations = all.iter().map(|x| x.evaluations).sum();
        c.restarts = all.iter().map(|x| x.restarts).sum();
        c.search_seconds = all.iter().map(|x| x.search_seconds).fold(0.0, f64::max);
        c.best_at = None;
        Ok(c)
    }

    /// Every device takes the immigrant (from another process: `cluster`).
    fn immigrate(&mut self, cost: i64, perm: &[u16]) -> Result<bool> {
        let mut taken = false;
        for d in self.live() {
            taken |= d.solver.immigrate(cost, perm)?;
        }
        Ok(taken)
    }

    /// While any live device's run is settling.
    fn settling(&self) -> bool {
        self.devices.iter().flatten().any(|d| d.1.solver.settling())
    }
}

/// The GPUs a process of rank `rank` among `size` processes on one host takes from `gpus`:
/// every `size`-th one from its rank on, or one shared device when there are fewer GPUs
/// than processes.
pub fn local_share(gpus: &[usize], rank: usize, size: usize) -> Vec<usize> {
    if gpus.is_empty() || size <= 1 {
        return gpus.to_vec();
    }
    let mine: Vec<usize> =
        gpus.iter().copied().enumerate().filter(|(i, _)| i % size == rank % size).map(|(_, g)| g).collect();
    if mine.is_empty() { vec![gpus[rank % gpus.len()]] } else { mine }
}

#[cfg(test)]
mod tests {
    use super::{local_share, worst_slot};

    #[test]
    fn an_immigrant_replaces_the_worst_member_once() {
        assert_eq!(worst_slot(&[5, 9, 7, 9], 6), Some(1)); // the first of the worst
        assert_eq!(worst_slot(&[5, 9, 7], 9), None); // no better than the worst
        assert_eq!(worst_slot(&[5, 9, 7], 7), None); // already there
        assert_eq!(worst_slot(&[5, 9, 7], 1), Some(1));
        assert_eq!(worst_slot(&[], 1), None);
    }

    #[test]
    fn ranks_on_one_host_split_its_gpus() {
        let four = [0, 1, 2, 3];
        assert_eq!((0..2).map(|r| local_share(&four, r, 2)).collect::<Vec<_>>(), [vec![0, 2], vec![1, 3]]);
        assert_eq!((0..4).map(|r| local_share(&four, r, 4)).collect::<Vec<_>>(), [vec![0], vec![1], vec![2], vec![3]]);
        // More processes than GPUs: they share them round robin.
        assert_eq!((0..3).map(|r| local_share(&[0], r, 3)).collect::<Vec<_>>(), [vec![0], vec![0], vec![0]]);
        assert_eq!(local_share(&[0, 1], 2, 3), vec![0]);
        assert_eq!(local_share(&four, 0, 1), four.to_vec());
        assert!(local_share(&[], 1, 2).is_empty());
    }
}
