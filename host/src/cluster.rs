//! Several processes, one run, through MPI (the `mpi` feature; `mpirun -np N qapgpu solve
//! …`): every rank solves on its own devices with its own seeds, and the ranks agree every
//! few milliseconds, by one collective, on whether any of them is done (target reached,
//! limit or Ctrl-C) — then all stop, the best solution over the ranks goes to rank 0, and
//! rank 0 alone reports. All MPI calls are made by each rank's main thread; the search runs
//! on another.
use crate::algo::{Backend, Options};
use crate::api::solve_on_all;
use crate::io::Instance;
use crate::run::Silent;
use crate::solution::Solution;
use anyhow::{Context, Result};
use mpi::collective::SystemOperation;
use mpi::traits::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the ranks agree on whether one is done.
const POLL: Duration = Duration::from_millis(5);

/// Whether this process was started by an MPI launcher (so the run is a cluster run).
pub fn launched_by_mpi() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"].iter().any(|v| std::env::var_os(v).is_some())
}

/// The universe; dropping it finalises MPI.
pub struct Cluster {
    universe: mpi::environment::Universe,
}

impl Cluster {
    pub fn init() -> Result<Cluster> {
        Ok(Cluster { universe: mpi::initialize().context("MPI could not be initialised")? })
    }
    pub fn rank(&self) -> i32 {
        self.universe.world().rank()
    }
    pub fn size(&self) -> i32 {
        self.universe.world().size()
    }

    /// Solves on every rank (rank r with seeds r·2³² apart) and returns, on rank 0, the best
    /// solution over the ranks (on the others, their own).
    pub fn solve(&self, backends: Vec<Backend>, inst: &Instance, opts: &Options, interrupt: &'static AtomicBool) -> Result<Solution> {
        let world = self.universe.world();
        let rank = world.rank();
        let stop = Arc::new(AtomicBool::new(false));
        let o = Options { seed: opts.seed.wrapping_add((rank as u64) << 32), ..opts.clone() };
        let (inst2, flag) = (inst.clone(), stop.clone());
        let worker = std::thread::spawn(move || solve_on_all(&backends, &inst2, &o, &mut Silent, &flag));
        // Done here: the search ended; done anywhere: stop.
        loop {
            std::thread::sleep(POLL);
            if interrupt.load(Ordering::Relaxed) {
                stop.store(true, Ordering::SeqCst);
            }
            let mine = i32::from(worker.is_finished());
            let mut any = 0i32;
            world.all_reduce_into(&mine, &mut any, SystemOperation::max());
            if any != 0 {
                stop.store(true, Ordering::SeqCst);
                break;
            }
        }
        let mine = worker.join().map_err(|_| anyhow::anyhow!("rank {rank}: the solver's thread panicked"))?;
        // A rank whose solve failed takes no part in the choice of the best.
        let cost = mine.as_ref().map_or(i64::MAX, |s| s.cost);
        let mut best = 0i64;
        world.all_reduce_into(&cost, &mut best, SystemOperation::min());
        anyhow::ensure!(best != i64::MAX, "every rank failed; rank {rank}: {:#}", mine.err().map_or(String::new(), |e| format!("{e:#}")));
        let candidate = if cost == best { rank } else { i32::MAX };
        let mut owner = 0i32;
        world.all_reduce_into(&candidate, &mut owner, SystemOperation::min());
        let n = inst.n;
        let mut perm = vec![0u8; n];
        let mut time = -1.0f64;
        if rank == owner {
            let s = mine.as_ref().expect("the owner's solve succeeded");
            perm.copy_from_slice(&s.perm());
            time = s.time_to_target_s.unwrap_or(-1.0);
        }
        let root = world.process_at_rank(owner);
        root.broadcast_into(&mut perm[..]);
        root.broadcast_into(&mut time);
        // After the collectives: a rank whose own solve failed reports that.
        let mut sol = mine?;
        if rank == 0 {
            // Re-costed here, as every reported permutation is.
            sol.cost = inst.cost(&perm);
            sol.permutation = perm.iter().map(|&g| g as u32 + 1).collect();
            sol.time_to_target_s = (time >= 0.0).then_some(time);
            sol.gap_percent = crate::run::gap_percent(sol.cost, sol.best_known);
            sol.device = format!("{} MPI ranks (best from rank {owner}); rank 0: {}", world.size(), sol.device);
        }
        Ok(sol)
    }
}
