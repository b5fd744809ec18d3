//! Many independent QAPs at once (`solve_batch`): the graph-matching user's thousands of
//! small instances, each answered as `api::solve` would answer it alone, in one call.
//!
//! * **On a GPU**, instances of the same size and plan run together (`gpu::BatchGpu`): every
//!   launch runs `walks` robust tabu walks (blocks) of every instance still searching, the
//!   instance in the grid's y index, each block reading its instance's own parameter block.
//!   The kernels are `ts`'s (the plan's walk kernel, `aco_init_*`, `aco_best`); only their
//!   grid is new. Instances whose plan needs memory outside the block (large n) are solved one
//!   after another by `api::solve_on`, each filling the GPU alone.
//! * **On the CPU**, one instance per core at a time, each by `api::solve_on` on one thread.
//!
//! Each instance stops as a lone solve would: under `StopRule::Converged` (the default of the
//! Python call) once its search has converged (`Convergence`, counted in each walk's moves
//! on the GPU, where all instances share the clock) or proven optimal (n ≤ 12), under
//! `StopRule::Time` at the time limit; `time_limit` bounds each instance's search, and so the
//! batch's on the GPU, where they run together. Every answer is re-costed on the host.
pub mod gpu;

use crate::algo::{Backend, Options};
use crate::api;
use crate::io::Instance;
use crate::run::Silent;
use crate::solution::Solution;
use anyhow::{Context, Result};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The seed of instance `k` of a batch run with `seed`: each instance its own stream.
pub fn instance_seed(seed: u64, k: usize) -> u64 {
    seed.wrapping_add((k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Solves every instance of `instances` with `opts` on `backend` (the GPU's batch engine
/// where it applies, else one `api::solve_on` an instance), and returns one solution per
/// instance, in order. `interrupt` (Ctrl-C) ends every search with its best so far.
pub fn solve_batch(
    backend: &Backend,
    instances: &[Instance],
    opts: &Options,
    interrupt: &AtomicBool,
) -> Result<Vec<Solution>> {
    opts.validate()?;
    if backend.is_gpu()
        && let Some(big) = instances.iter().find(|i| i.n > qapgpu_common::MAX_N)
    {
        anyhow::bail!(
            "{}: n = {} is above {} for the GPU batch (a block's walks of bytes); solve it alone, or the batch with --engine cpu",
            big.name,
            big.n,
            qapgpu_common::MAX_N
        );
    }
    match backend {
        Backend::Gpu(g) => gpu::solve(g, instances, opts, interrupt),
        Backend::Cpu { threads } => solve_cpu(*threads, instances, opts, interrupt),
    }
}

/// One instance per thread at a time, on `threads` threads (0: every core), each taking the
/// next instance when done. Plain threads, not a rayon pool: each instance's CPU engine runs
/// on a pool of its own, and a rayon worker waiting on another pool's `install` runs its own
/// pool's queued tasks meanwhile (another whole instance), which stalled the first for
/// seconds.
fn solve_cpu(threads: usize, instances: &[Instance], opts: &Options, interrupt: &AtomicBool) -> Result<Vec<Solution>> {
    let workers = crate::algo::cpu_threads(threads).min(instances.len()).max(1);
    // `auto` on one thread would pick a colony of one ant for structured data from n = 50,
    // which the `converged` rule stopped early (tai50b 1.8-8.1 % above in a batch of QAPLIB
    // files); the walks (`ts`) settle before the rule's clock starts, as on the GPU.
    let opts = &match opts.algorithm.as_deref() {
        None | Some(crate::algo::AUTO) => Options { algorithm: Some(crate::algo::ts::TS.name.into()), ..opts.clone() },
        _ => opts.clone(),
    };
    let next = AtomicUsize::new(0);
    let one = Backend::Cpu { threads: 1 };
    let mut out: Vec<Option<Result<Solution>>> = (0..instances.len()).map(|_| None).collect();
    let answers = Mutex::new(&mut out);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(inst) = instances.get(k) else { break };
                    let sol = solve_one(&one, inst, opts, k, interrupt);
                    answers.lock().unwrap_or_else(|p| p.into_inner())[k] = Some(sol);
                }
            });
        }
    });
    out.into_iter().map(|s| s.expect("every instance taken")).collect()
}

/// Instance `k` alone on `backend`, with its own seed.
pub(crate) fn solve_one(
    backend: &Backend,
    inst: &Instance,
    opts: &Options,
    k: usize,
    interrupt: &AtomicBool,
) -> Result<Solution> {
    let opts = Options { seed: instance_seed(opts.seed, k), ..opts.clone() };
    api::solve_on(backend, inst, &opts, &mut Silent, interrupt).with_context(|| format!("instance {k} ({})", inst.name))
}
