//! `qapgpu solve` (the default command) and `qapgpu info`.
use super::args::{DeviceArgs, SolveArgs};
use super::{INTERRUPT, catch_signals};
use crate::algo::{Backend, Options};
use crate::gpu::{Gpu, unavailable_reason};
use crate::io::{Instance, qaplib};
use crate::output::{self, Output, check_distinct, stderr_line};
use crate::run::{Observer, ProgressLine, Silent, Trace, Traced};
use crate::solution::Solution;
use anyhow::{Context, Result, bail};
use std::path::Path;

/// Planted instance of the default job: n and generator seed.
const DEFAULT_N: usize = 24;
const DEFAULT_SEED: u64 = 2024;
/// Largest `--target-gap` in percent.
const MAX_GAP: f64 = 1e6;

/// `qapgpu solve` of a QAP instance (`solve --problem`, another problem posed as a QAP, is
/// `problem::solve`).
pub fn solve(a: SolveArgs) -> Result<()> {
    if a.problem.k.is_some() || a.problem.open_tour || a.problem.polish.is_some() || a.problem.graph2.is_some() {
        bail!("--k, --open-tour, --polish and --graph2 go with --problem");
    }
    // The best-known value with where it came from (the report says).
    let given = a.known.map(|k| (k, "--known".to_string()));
    let (inst, known, input) = match &a.instance {
        Some(name) => {
            let path = qaplib::resolve(name);
            let inst = qaplib::read_dat(&path)?;
            let known = given.or_else(|| qaplib::best_known(&path, &inst).noted(a.quiet || a.json));
            (inst, known, Some(path))
        }
        None => {
            let (inst, opt, _) = Instance::planted(DEFAULT_N, DEFAULT_SEED);
            (inst, given.or(Some((opt, "the planted instance's optimum".into()))), None)
        }
    };
    let (known, known_source) = known.unzip();
    let outputs = Outputs::check(&a, input.as_deref())?;
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
    let mut opts = a.options(seed_of(&a), target, known);
    if a.device.gpu.is_none() && matches!(a.device.gpus, super::args::GpuList::Auto) {
        opts.gpus = crate::algo::policy::gpus_for(&inst, &opts.gpus);
    }
    #[cfg(feature = "mpi")]
    if crate::cluster::launched_by_mpi() {
        // Every rank solves; rank 0 alone reports the best over the ranks. Ranks on one
        // host split its GPUs unless the devices were named.
        let mut opts = opts;
        if a.device.gpu.is_none() && !matches!(a.device.gpus, super::args::GpuList::Some(_)) {
            let local = |v: &str| std::env::var(v).ok().and_then(|s| s.parse::<usize>().ok());
            if let (Some(r), Some(s)) = (local("OMPI_COMM_WORLD_LOCAL_RANK"), local("OMPI_COMM_WORLD_LOCAL_SIZE")) {
                let all: Vec<usize> = (0..crate::gpu::device_count()).collect();
                opts.gpus = crate::algo::multi::local_share(&all, r, s);
                opts.gpu = opts.gpus.first().copied().unwrap_or(0);
            }
        }
        if outputs.trace.is_some() {
            bail!("--trace: not under MPI (each rank runs its own search)");
        }
        let cluster = crate::cluster::Cluster::init()?;
        let backends = open(&opts, a.quiet || a.json || cluster.rank() != 0)?;
        settings_read(&inst, &opts, &backends)?;
        let sol = crate::solution::Solution {
            best_known_source: known_source,
            ..cluster.solve(backends, &inst, &opts, &INTERRUPT)?
        };
        return if cluster.rank() == 0 { outputs.finish(Some(&sol), None, &report(&a, &sol)?) } else { Ok(()) };
    }
    let quiet = a.quiet || a.json;
    let backends = open(&opts, quiet)?;
    settings_read(&inst, &opts, &backends)?;
    let (mut line, mut silent) = (ProgressLine::new(), Silent);
    let shown: &mut dyn Observer = if quiet { &mut silent } else { &mut line };
    let mut obs = Traced { inner: shown, trace: outputs.trace.as_ref().map(|_| Trace::default()) };
    let sol = crate::solution::Solution {
        best_known_source: known_source,
        ..crate::api::solve_on_all(&backends, &inst, &opts, &mut obs, &INTERRUPT)?
    };
    let csv = obs.trace.map(|t| t.csv(known));
    if !quiet {
        line.finish();
    }
    outputs.finish(Some(&sol), csv.as_deref(), &report(&a, &sol)?)
}

/// Refuses a GA or cellular-GA setting that the family run on `backends` would not read
/// (`algo::check_settings_for`), naming `auto`'s choice where it chose. `opts` were
/// validated by `open`, so a value out of range is named first.
fn settings_read(inst: &Instance, opts: &Options, backends: &[Backend]) -> Result<()> {
    let gpu = backends.iter().any(Backend::is_gpu);
    let family = crate::algo::resolve(inst, opts, gpu)?.name;
    crate::algo::check_settings_for(opts, family).map_err(|e| match opts.algorithm.as_deref() {
        None | Some(crate::algo::AUTO) => anyhow::anyhow!("{e} (auto's choice for {})", inst.name),
        Some(_) => e,
    })
}

/// The solution as text or JSON.
fn report(a: &SolveArgs, sol: &Solution) -> Result<String> {
    Ok(if a.json { serde_json::to_string(&sol)? + "\n" } else { sol.text() })
}

/// The output files of a solve (`--write-sln`, `--trace`), checked before the search.
pub(super) struct Outputs {
    sln: Option<Output>,
    pub trace: Option<Output>,
}

impl Outputs {
    /// Checks every output path of `a` before any search (see `crate::output`); `input` is
    /// the file the run reads, which no output may overwrite.
    pub fn check(a: &SolveArgs, input: Option<&Path>) -> Result<Outputs> {
        let inputs: Vec<&Path> = input.into_iter().collect();
        let check = |option, path: &Option<std::path::PathBuf>| {
            path.as_deref().map(|p| Output::check(option, p, &inputs)).transpose()
        };
        let outputs = Outputs { sln: check("--write-sln", &a.write_sln)?, trace: check("--trace", &a.trace)? };
        check_distinct(&[&outputs.sln, &outputs.trace].into_iter().flatten().collect::<Vec<_>>())?;
        Ok(outputs)
    }

    /// Writes the files, then prints `report` on stdout, whatever became of the files; a
    /// file that could not be written is then the error (one line for all of them). `sol`
    /// is None where no QAP was solved (a clique in a graph without edges).
    pub fn finish(&self, sol: Option<&Solution>, trace_csv: Option<&str>, report: &str) -> Result<()> {
        let mut failed = Vec::new();
        if let Some(o) = &self.sln {
            failed.push(match sol {
                Some(s) => o.write(qaplib::format_sln(s.cost, &s.perm()).as_bytes()),
                None => Err(anyhow::anyhow!(
                    "{} {}: no QAP was solved (a graph without edges), so no solution was written",
                    o.option,
                    o.path.display()
                )),
            });
        }
        if let (Some(o), Some(csv)) = (&self.trace, trace_csv) {
            failed.push(o.write(csv.as_bytes()));
        }
        // A closed stdout (`--write-sln /dev/stdout | head`) is the report's quiet exit below.
        let failed: Vec<anyhow::Error> =
            failed.into_iter().filter_map(Result::err).filter(|e| !e.is::<output::StdoutClosed>()).collect();
        let printed = output::stdout(report);
        if failed.is_empty() {
            return printed;
        }
        bail!("{}", failed.iter().map(|e| format!("{e:#}")).collect::<Vec<_>>().join("; "))
    }
}

/// The run's seed: `--seed`, else from the clock (the report prints it).
pub(super) fn seed_of(a: &SolveArgs) -> u64 {
    a.seed.unwrap_or_else(clock_seed)
}

/// A seed from the clock, where none was given.
pub(super) fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
}

/// Checks `opts`, opens its devices (saying why there is no GPU, or why one is skipped,
/// unless `quiet`) and installs the handler of SIGINT, SIGTERM and SIGHUP.
pub(super) fn open(opts: &Options, quiet: bool) -> Result<Vec<Backend>> {
    opts.validate()?;
    let backends = Backend::open_all(opts, |why| {
        if !quiet {
            stderr_line(format_args!("note: {why}"));
        }
    })?;
    catch_signals()?;
    Ok(backends)
}

pub fn info(d: &DeviceArgs) -> Result<()> {
    let text = match unavailable_reason(d.ptx.as_deref()) {
        Some(why) => format!("GPU engine unavailable: {why}\n"),
        None => {
            let opts = d.options(1);
            let mut text = String::new();
            for &k in &opts.gpus {
                let g = Gpu::open(k, d.ptx.as_deref())?;
                text += &format!("GPU {k}: {} — {:?}\nstart-up: {}\n", g.describe(), g.limits, g.startup.describe());
            }
            text
        }
    };
    output::stdout(text + &crate::gpu::embedded_code())
}
