//! Several processes, one run, through MPI (the `mpi` feature; `mpirun -np N qapgpu solve
//! …`): every rank solves on its own devices with its own seeds, and the ranks agree every
//! few milliseconds, by one collective, on whether any of them is done (target reached,
//! limit or Ctrl-C) — then all stop, the best solution over the ranks goes to rank 0, and
//! rank 0 alone reports. Every `EXCHANGE_POLLS` polls the ranks pass their bests along a
//! ring (rank r to r + 1), and a rank whose predecessor's best beats its own gives it to its
//! solver as an immigrant (the island model across processes). All MPI calls are made by
//! each rank's main thread; the search runs on another and meets it through a `Mailbox`.
use crate::algo::{Backend, Options};
use crate::api::solve_on_all;
use crate::io::Instance;
use crate::run::Observer;
use crate::solution::Solution;
use anyhow::{Context, Result};
use mpi::collective::SystemOperation;
use mpi::traits::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often the ranks agree on whether one is done.
const POLL: Duration = Duration::from_millis(5);
/// Polls between two ring exchanges of the ranks' bests (50 ms).
const EXCHANGE_POLLS: u32 = 10;

/// Where the search thread and the MPI thread meet: the search's best so far (outbox) and
/// an immigrant from the ring (inbox).
#[derive(Default)]
struct Boxes {
    outbox: Option<(i64, Vec<u16>)>,
    inbox: Option<(i64, Vec<u16>)>,
    /// Immigrants handed to the solver.
    delivered: i64,
}

/// The search thread's observer: posts the best, collects the immigrant.
struct Mailbox(Arc<Mutex<Boxes>>);

impl Observer for Mailbox {
    fn exchange_every_s(&self) -> Option<f64> {
        Some(POLL.as_secs_f64() * EXCHANGE_POLLS as f64 / 2.0)
    }
    fn exchange(&mut self, best: &(i64, Vec<u16>)) -> Option<(i64, Vec<u16>)> {
        let mut b = self.0.lock().unwrap_or_else(|p| p.into_inner());
        b.outbox = Some(best.clone());
        let immigrant = b.inbox.take();
        b.delivered += i64::from(immigrant.is_some());
        immigrant
    }
}

/// Whether this process was started by an MPI launcher (so the run is a cluster run).
pub fn launched_by_mpi() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"].iter().any(|v| std::env::var_os(v).is_some())
}

/// The universe; dropping it finalises MPI.
pub struct Cluster {
    universe: mpi::environment::Universe,
}

impl Cluster {
    /// Initialises MPI (once a process).
    pub fn init() -> Result<Cluster> {
        Ok(Cluster { universe: mpi::initialize().context("MPI could not be initialised")? })
    }
    /// This process's rank in the world communicator.
    pub fn rank(&self) -> i32 {
        self.universe.world().rank()
    }
    /// The number of ranks.
    pub fn size(&self) -> i32 {
        self.universe.world().size()
    }

    /// Solves on every rank (rank r with seeds r·2³² apart) and returns, on rank 0, the best
    /// solution over the ranks (on the others, their own).
    pub fn solve(
        &self,
        backends: Vec<Backend>,
        inst: &Instance,
        opts: &Options,
        interrupt: &'static AtomicBool,
    ) -> Result<Solution> {
        let world = self.universe.world();
        let rank = world.rank();
        let stop = Arc::new(AtomicBool::new(false));
        let o = Options { seed: opts.seed.wrapping_add((rank as u64) << 32), ..opts.clone() };
        let (inst2, flag) = (inst.clone(), stop.clone());
        let boxes = Arc::new(Mutex::new(Boxes::default()));
        let mut mailbox = Mailbox(boxes.clone());
        let worker = std::thread::spawn(move || solve_on_all(&backends, &inst2, &o, &mut mailbox, &flag));
        let (size, n) = (world.size(), inst.n);
        let (next, prev) = (world.process_at_rank((rank + 1) % size), world.process_at_rank((rank + size - 1) % size));
        // Done here: the search ended; done anywhere: stop.
        for poll in 1u32.. {
            std::thread::sleep(POLL);
            if size > 1 && poll % EXCHANGE_POLLS == 0 {
                // [cost, genes…] as i64s; cost i64::MAX before the search has a best.
                let mut msg = vec![i64::MAX; n + 1];
                if let Some((c, p)) = &boxes.lock().unwrap_or_else(|p| p.into_inner()).outbox {
                    msg[0] = *c;
                    msg[1..].iter_mut().zip(p).for_each(|(m, &g)| *m = g as i64);
                }
                let mut got = vec![0i64; n + 1];
                mpi::point_to_point::send_receive_into(&msg[..], &next, &mut got[..], &prev);
                let mut b = boxes.lock().unwrap_or_else(|p| p.into_inner());
                if got[0] < b.outbox.as_ref().map_or(i64::MAX, |o| o.0) {
                    b.inbox = Some((got[0], got[1..].iter().map(|&g| g as u16).collect()));
                }
            }
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
        anyhow::ensure!(
            best != i64::MAX,
            "every rank failed; rank {rank}: {:#}",
            mine.err().map_or(String::new(), |e| format!("{e:#}"))
        );
        let candidate = if cost == best { rank } else { i32::MAX };
        let mut owner = 0i32;
        world.all_reduce_into(&candidate, &mut owner, SystemOperation::min());
        let n = inst.n;
        let mut perm = vec![0u16; n];
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
        let delivered = boxes.lock().unwrap_or_else(|p| p.into_inner()).delivered;
        let mut all_delivered = 0i64;
        world.all_reduce_into(&delivered, &mut all_delivered, SystemOperation::sum());
        let mut sol = mine?;
        if rank == 0 {
            // Re-costed here, as every reported permutation is.
            sol.cost = inst.cost(&perm);
            sol.permutation = perm.iter().map(|&g| g as u32 + 1).collect();
            sol.time_to_target_s = (time >= 0.0).then_some(time);
            // The stop that reached this rank from another is not a Ctrl-C.
            sol.interrupted = interrupt.load(Ordering::Relaxed);
            sol.gap_percent = crate::run::gap_percent(sol.cost, sol.best_known);
            sol.device = format!(
                "{} MPI ranks (best from rank {owner}; bests passed along a ring of ranks every {} ms, {all_delivered} taken in); rank 0: {}",
                world.size(),
                POLL.as_millis() * EXCHANGE_POLLS as u128,
                sol.device
            );
        }
        Ok(sol)
    }
}
