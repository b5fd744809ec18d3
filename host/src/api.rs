//! The library entry points: solve an instance (from a QAPLIB file or from matrices in
//! memory) with one options value.
//!
//! ```no_run
//! use qapgpu::{Instance, Options, solve};
//! let (a, b) = (vec![0, 3, 3, 0], vec![0, 5, 5, 0]);
//! let inst = Instance::new("tiny", 2, a, b)?;
//! let sol = solve(&inst, &Options { target: Some(30), ..Options::default() })?;
//! assert_eq!(sol.cost, 30);
//! # anyhow::Ok(())
//! ```
//!
//! Each family's settings are a field of `Options`: `ga`, `aco` (the colony, and the local
//! search that `ts` and `memetic` share), `ts` (its regrouping and restarts) and `cga`. Unset
//! ones take the papers' values or the policy table's (`algo::policy`):
//!
//! ```no_run
//! use qapgpu::algo::{aco::AcoOptions, ts::TsOptions};
//! use qapgpu::{Options, solve};
//! let inst = qapgpu::io::qaplib::read_dat(std::path::Path::new("data/qaplib/tai35b.dat"))?;
//! let opts = Options {
//!     algorithm: Some("ts".into()),
//!     aco: AcoOptions { ls_iterations: Some(1024), ..AcoOptions::default() }, // moves per launch
//!     ts: TsOptions { regroup_every: Some(64), ..TsOptions::default() },      // --regroup-every 64
//!     ..Options::default()
//! };
//! println!("{}", solve(&inst, &opts)?.cost);
//! # anyhow::Ok(())
//! ```
use crate::algo::{self, Backend, Options};
use crate::io::Instance;
use crate::run::{self, Limits, Observer, Silent, Stopped, Stopping};
use crate::solution::Solution;
use anyhow::Result;
use std::sync::atomic::AtomicBool;

/// Solves `inst` with `opts` (GPU when usable under `EngineChoice::Auto`, else CPU) and
/// returns the best solution found, re-costed on the host. `Solution::stopped` says why the
/// run ended; under `StopRule::Converged` (`opts.stop`) a small instance is solved exactly
/// on the CPU (`stopped` is then `ProvenOptimal`) and a larger one stops once converged.
pub fn solve(inst: &Instance, opts: &Options) -> Result<Solution> {
    let backend = Backend::open(opts, |_| {})?;
    solve_on(&backend, inst, opts, &mut Silent, &AtomicBool::new(false))
}

/// As `solve`, on an opened backend (so that many solves share one GPU context), with an
/// observer and an interrupt flag (Ctrl-C) that stops the run with its best so far.
pub fn solve_on(
    backend: &Backend,
    inst: &Instance,
    opts: &Options,
    obs: &mut dyn Observer,
    interrupt: &AtomicBool,
) -> Result<Solution> {
    solve_on_all(std::slice::from_ref(backend), inst, opts, obs, interrupt)
}

/// As `solve_on`, on several devices at once (`Backend::open_all`): one independent search
/// per device, the first to reach the target stops them all (`algo::multi`).
pub fn solve_on_all(
    backends: &[Backend],
    inst: &Instance,
    opts: &Options,
    obs: &mut dyn Observer,
    interrupt: &AtomicBool,
) -> Result<Solution> {
    let mut solver = algo::build_on(backends, inst, opts)?;
    let limits = Limits { time_limit: opts.time_limit, known: opts.known };
    let stopping = Stopping::of(opts.stop, inst, opts.target, backends.iter().any(Backend::is_gpu));
    let out = run::run_until(solver.as_mut(), &limits, &stopping, obs, interrupt)?;
    // A proven optimum came from the exact method, not from the family's solver.
    let info = if out.stopped == Stopped::ProvenOptimal { run::exact::info() } else { solver.info() };
    let mut sol = Solution::new(inst, &out, &info, opts.seed, opts.target, opts.known)?;
    sol.stop_rule = opts.stop;
    if out.stopped != Stopped::ProvenOptimal && matches!(opts.algorithm.as_deref(), None | Some(crate::algo::AUTO)) {
        sol.auto = Some(crate::algo::auto::choose(inst, backends.first().is_some_and(Backend::is_gpu)).1);
    }
    if let Some(Backend::Gpu(g)) = backends.first() {
        (sol.startup_s, sol.startup) = (Some(g.startup.seconds()), Some(g.startup.describe()));
    }
    Ok(sol)
}
