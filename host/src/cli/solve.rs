//! `qapgpu solve` (the default command) and `qapgpu info`.
use super::args::{DeviceArgs, SolveArgs};
use super::{INTERRUPT, catch_ctrl_c};
use crate::algo::{Backend, Options};
use crate::gpu::{Gpu, unavailable_reason};
use crate::io::{Instance, qaplib};
use crate::run::{Observer, ProgressLine, Silent, Trace, Traced};
use anyhow::{Context, Result, bail};

/// Planted instance of the default job: n and generator seed.
const DEFAULT_N: usize = 24;
const DEFAULT_SEED: u64 = 2024;
/// Largest `--target-gap` in percent.
const MAX_GAP: f64 = 1e6;

pub fn solve(a: SolveArgs) -> Result<()> {
    if let Some(kind) = a.problem.problem {
        return super::problem::solve(a, kind);
    }
    if a.problem.k.is_some() || a.problem.open_tour {
        bail!("--k and --open-tour go with --problem");
    }
    // The best-known value with where it came from (the report says).
    let given = a.known.map(|k| (k, "--known".to_string()));
    let (inst, known) = match &a.instance {
        Some(name) => {
            let path = qaplib::resolve(name);
            let inst = qaplib::read_dat(&path)?;
            let known = given.or_else(|| qaplib::best_known(&path, &inst).noted(a.quiet || a.json));
            (inst, known)
        }
        None => {
            let (inst, opt, _) = Instance::planted(DEFAULT_N, DEFAULT_SEED);
            (inst, given.or(Some((opt, "the planted instance's optimum".into()))))
        }
    };
    let (known, known_source) = known.unzip();
    let target = match (a.target, a.target_gap) {
        (Some(t), _) => Some(t),
        (None, Some(g)) => {
            if !(0.0..=MAX_GAP).contains(&g) {
                bail!("--target-gap = {g}: must be in [0, {MAX_GAP:e}] percent");
            }
            let k = known.context("--target-gap needs a best-known value: none in bks.csv or .sln; pass --known")?;
            Some(k.saturating_add((k.unsigned_abs() as f64 * g / 100.0).floor() as i64))
        }
        // Without a target, stop at the best-known value when there is one.
        (None, None) => known,
    };
    let opts = a.options(seed_of(&a), target, known);
    #[cfg(feature = "mpi")]
    if crate::cluster::launched_by_mpi() {
        // Every rank solves; rank 0 alone reports the best over the ranks. Ranks on one
        // host split its GPUs unless the devices were named.
        let mut opts = opts;
        if a.device.gpu.is_none() && matches!(a.device.gpus, super::args::GpuList::All) {
            let local = |v: &str| std::env::var(v).ok().and_then(|s| s.parse::<usize>().ok());
            if let (Some(r), Some(s)) = (local("OMPI_COMM_WORLD_LOCAL_RANK"), local("OMPI_COMM_WORLD_LOCAL_SIZE")) {
                opts.gpus = crate::algo::multi::local_share(&opts.gpus, r, s);
                opts.gpu = opts.gpus.first().copied().unwrap_or(0);
            }
        }
        let cluster = crate::cluster::Cluster::init()?;
        let backends = open(&opts, a.quiet || a.json || cluster.rank() != 0)?;
        let sol = crate::solution::Solution { best_known_source: known_source, ..cluster.solve(backends, &inst, &opts, &INTERRUPT)? };
        return if cluster.rank() == 0 { report(&a, &sol) } else { Ok(()) };
    }
    let quiet = a.quiet || a.json;
    let backends = open(&opts, quiet)?;
    // Made now, so that a path that cannot be written stops the run before it starts.
    let trace_file = a.trace.as_ref().map(|p| std::fs::File::create(p).with_context(|| format!("--trace {}: cannot write it", p.display()))).transpose()?;
    let (mut line, mut silent) = (ProgressLine::new(), Silent);
    let shown: &mut dyn Observer = if quiet { &mut silent } else { &mut line };
    let mut obs = Traced { inner: shown, trace: a.trace.as_ref().map(|_| Trace::default()) };
    let sol = crate::solution::Solution { best_known_source: known_source, ..crate::api::solve_on_all(&backends, &inst, &opts, &mut obs, &INTERRUPT)? };
    if let (Some(mut f), Some(t), Some(path)) = (trace_file, &obs.trace, &a.trace) {
        use std::io::Write;
        f.write_all(t.csv(known).as_bytes()).with_context(|| format!("--trace {}: cannot write it", path.display()))?;
    }
    if !quiet {
        line.finish();
    }
    report(&a, &sol)
}

/// The solution as text or JSON, and its .sln file when asked.
fn report(a: &SolveArgs, sol: &crate::solution::Solution) -> Result<()> {
    if let Some(p) = &a.write_sln {
        qaplib::write_sln(p, sol.cost, &sol.perm())?;
    }
    if a.json {
        println!("{}", serde_json::to_string(&sol)?);
    } else {
        print!("{}", sol.text());
    }
    Ok(())
}

/// The run's seed: `--seed`, else from the clock (the report prints it).
pub(super) fn seed_of(a: &SolveArgs) -> u64 {
    a.seed.unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64))
}

/// Checks `opts`, opens its devices (saying why there is no GPU, or why one is skipped,
/// unless `quiet`) and installs the Ctrl-C handler.
pub(super) fn open(opts: &Options, quiet: bool) -> Result<Vec<Backend>> {
    opts.validate()?;
    let backends = Backend::open_all(opts, |why| {
        if !quiet {
            eprintln!("note: {why}");
        }
    })?;
    catch_ctrl_c()?;
    Ok(backends)
}

pub fn info(d: &DeviceArgs) -> Result<()> {
    match unavailable_reason(d.ptx.as_deref()) {
        Some(why) => println!("GPU engine unavailable: {why}"),
        None => {
            let opts = d.options(1);
            for &k in &opts.gpus {
                let g = Gpu::open(k, d.ptx.as_deref())?;
                println!("GPU {k}: {} — {:?}", g.describe(), g.limits);
                println!("start-up: {}", g.startup.describe());
            }
        }
    }
    Ok(())
}
