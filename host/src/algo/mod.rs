//! The algorithm families and their registry. Each family has a folder with its settings,
//! its driver (the `Solver` the run loop drives) and its GPU and CPU engines; adding a
//! family is that folder and one line in `FAMILIES`. Beside them: `auto`'s rule (`auto`), and
//! the policy table that holds every tuned default and threshold (`policy`).
pub mod aco;
pub mod auto;
pub mod cga;
pub mod ga;
pub mod memetic;
pub mod multi;
pub mod policy;
pub mod start;
pub mod ts;

use crate::gpu::{Gpu, unavailable_reason};
use crate::io::Instance;
use crate::run::Solver;
use anyhow::{Result, bail};
use std::path::PathBuf;
use std::time::Duration;

/// One algorithm of the registry.
pub struct Family {
    /// The `--algo` value.
    pub name: &'static str,
    /// One line for `--help`.
    pub about: &'static str,
    /// Smallest n it solves.
    pub min_n: usize,
    /// Largest n it solves: `MAX_N` for the families of u8 rows (the GAs' populations and
    /// seed 003's colony), `WIDE_MAX_N` for `ts` (the wide path above 256).
    pub max_n: usize,
    /// Builds its solver of the options on a backend.
    pub build: fn(&Backend, &Instance, &Options) -> Result<Box<dyn Solver>>,
}

/// Every algorithm, in the order `--help` lists them.
pub const FAMILIES: &[Family] =
    &[aco::TABU, aco::TWO_OPT, ga::INDEPENDENT, ga::ISLANDS, cga::CGA, ts::TS, memetic::MEMETIC];

/// `--algo auto` (and no `--algo`): the family `auto::choose` picks from the instance's
/// measurable features.
pub const AUTO: &str = "auto";

/// The registry's family of `name` (one-line error naming the choices).
pub fn family(name: &str) -> Result<&'static Family> {
    FAMILIES.iter().find(|f| f.name == name).ok_or_else(|| {
        let names: Vec<&str> = FAMILIES.iter().map(|f| f.name).collect();
        anyhow::anyhow!("--algo {name}: unknown algorithm (one of auto, {})", names.join(", "))
    })
}

/// Checks an `--algo` value: `auto` or a registry name.
pub fn check_name(name: &str) -> Result<()> {
    if name != AUTO {
        family(name)?;
    }
    Ok(())
}

/// The family `opts` asks for on `inst`: its `--algo`, or `auto`'s choice for the GPU
/// (`gpu`) or the CPU.
pub fn resolve(inst: &Instance, opts: &Options, gpu: bool) -> Result<&'static Family> {
    match opts.algorithm.as_deref() {
        None | Some(AUTO) => family(auto::choose(inst, gpu).0),
        Some(name) => family(name),
    }
}

/// Builds the solver for `opts.algorithm` (or `auto`'s choice) on `backend`: it answers
/// with a valid permutation from the moment it is built (`start::started`), however soon
/// its run stops.
pub fn build(backend: &Backend, inst: &Instance, opts: &Options) -> Result<Box<dyn Solver>> {
    opts.validate()?;
    let gpu = backend.is_gpu();
    gpu_takes(inst, gpu)?;
    let fam = resolve(inst, opts, gpu)?;
    if inst.n < fam.min_n {
        bail!(
            "{}: n = {} is below {} for {} (--algo ga-independent takes n ≥ 2)",
            inst.name,
            inst.n,
            fam.min_n,
            fam.name
        );
    }
    if inst.n > fam.max_n {
        bail!(
            "{}: n = {} is above {} for {} (its solutions are rows of bytes); --algo ts, auto, memetic, aco-ts and aco-2opt take n up to {}",
            inst.name,
            inst.n,
            fam.max_n,
            fam.name,
            qapgpu_common::WIDE_MAX_N
        );
    }
    opts.ts.check_family(fam.name)?;
    let solver = if matches!(opts.algorithm.as_deref(), None | Some(AUTO)) {
        auto::build(fam, backend, inst, opts)?
    } else {
        (fam.build)(backend, inst, opts)?
    };
    Ok(start::started(solver, inst))
}

/// The GA and cellular-GA settings changed from their defaults where `family` would not
/// read them: the one-line error names the option (`GaOptions::check_family`,
/// `CgaOptions::check_family`). The command line calls it for the family it runs; `build`
/// does not, because a protocol that runs several families (`bench compare`) sets them for
/// those that read them.
pub fn check_settings_for(opts: &Options, family: &str) -> Result<()> {
    opts.ga.check_family(family)?;
    opts.cga.check_family(family)
}

/// Whether the GPU kernels take `inst`'s entries (`ElemWidth::on_gpu`: u16 and i32) where
/// the run is on a GPU (`gpu`).
fn gpu_takes(inst: &Instance, gpu: bool) -> Result<()> {
    if gpu && !inst.width.on_gpu() {
        bail!(
            "{}: entries above 2^31 − 1 need u32 matrices, which only the CPU engines take; use --engine cpu",
            inst.name
        );
    }
    Ok(())
}

/// The solver of `opts` on one device, or on several at once (`multi`).
pub fn build_on(backends: &[Backend], inst: &Instance, opts: &Options) -> Result<Box<dyn Solver>> {
    gpu_takes(inst, backends.iter().any(Backend::is_gpu))?;
    match backends {
        [] => bail!("no device to solve on"),
        [one] => build(one, inst, opts),
        several => match opts.multi {
            multi::Model::MasterSlave => Ok(start::started(aco::colony::build(several, inst, opts)?, inst)),
            _ => multi::build_multi(several, inst, opts),
        },
    }
}

/// Which engine to run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum EngineChoice {
    /// The GPU when one is usable, else the CPU.
    #[default]
    Auto,
    /// The GPU engine (an error where none is usable).
    Gpu,
    /// The CPU engine.
    Cpu,
}

/// Where solvers run: one opened GPU (shared by every solver built on it) or the CPU.
#[derive(Clone)]
pub enum Backend {
    /// One opened GPU.
    Gpu(Gpu),
    /// The CPU engines.
    Cpu {
        /// `--threads` (0: one per core).
        threads: usize,
    },
}

/// Most CPU threads `--threads` takes (a pool of many more only costs start-up time).
pub const MAX_THREADS: usize = 256;

/// Cores this process may run on (its affinity and CPU quota), at least 1.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |c| c.get())
}

/// The threads `--threads threads` stands for (0: one per core): what sizes the CPU
/// engines' work (one walk each, one ant each in one wave, four subpopulations each).
pub fn cpu_threads(threads: usize) -> usize {
    if threads == 0 { cores() } else { threads }
}

/// The workers that run `--threads threads`: one per thread, at most one per core. More
/// workers than cores only share them, and stop late: a stop reaches each busy worker only
/// when the scheduler next runs it, and 256 workers on two cores ended a 0.3-s limit 0.1 to
/// 8 s late. The work does not depend on how many run it.
pub fn cpu_pool(threads: usize) -> Result<rayon::ThreadPool> {
    let workers = cpu_threads(threads).min(cores());
    crate::cpu::pool(workers).map_err(|e| anyhow::anyhow!("--threads {threads}: {e:#}"))
}

impl Backend {
    /// Whether it is a GPU.
    pub fn is_gpu(&self) -> bool {
        matches!(self, Backend::Gpu(_))
    }

    /// Opens the engine `opts` asks for. Under `auto`, the reason there is no GPU goes to
    /// `note` (followed by "running the CPU engine") and the CPU is used.
    pub fn open(opts: &Options, note: impl FnOnce(&str)) -> Result<Backend> {
        opts.validate()?;
        let ptx = opts.ptx.as_deref();
        Ok(match opts.engine {
            EngineChoice::Cpu => Backend::Cpu { threads: opts.threads },
            EngineChoice::Gpu => Backend::Gpu(Gpu::open(opts.gpu, ptx)?),
            EngineChoice::Auto => match unavailable_reason(ptx) {
                None => Backend::Gpu(Gpu::open(opts.gpu, ptx)?),
                Some(why) => {
                    note(&format!("{why}; running the CPU engine"));
                    Backend::Cpu { threads: opts.threads }
                }
            },
        })
    }

    /// Opens every device `opts` asks for: the GPUs of `opts.gpus` (or `opts.gpu` alone when
    /// it is empty), each in its own context; a GPU that fails to open is reported through
    /// `note` and skipped while others open. One CPU backend when the engine is the CPU.
    pub fn open_all(opts: &Options, note: impl Fn(&str)) -> Result<Vec<Backend>> {
        let first =
            Backend::open(&Options { gpu: opts.gpus.first().copied().unwrap_or(opts.gpu), ..opts.clone() }, &note);
        let Ok(Backend::Gpu(_)) = &first else { return first.map(|b| vec![b]) };
        let mut all = vec![first?];
        for &k in opts.gpus.iter().skip(1) {
            match Gpu::open(k, opts.ptx.as_deref()) {
                Ok(g) => all.push(Backend::Gpu(g)),
                Err(e) => note(&format!("GPU {k} cannot be used ({e:#}); going on without it")),
            }
        }
        Ok(all)
    }

    /// The device, in words, for reports.
    pub fn describe(&self) -> String {
        match self {
            Backend::Gpu(g) => g.describe(),
            Backend::Cpu { threads } => crate::site::cpu_device(cpu_threads(*threads).min(cores())),
        }
    }
}

/// Everything a solve can be told: the family, the engine, the stopping rule, and each
/// family's settings (unset ones take the papers' values). `validate` checks every value
/// and names the command-line option in its one-line error.
#[derive(Clone, Debug)]
pub struct Options {
    /// Registry name (`FAMILIES`) or `auto`; None: `auto`, which picks from the instance.
    pub algorithm: Option<String>,
    /// GPU, CPU, or the GPU when usable.
    pub engine: EngineChoice,
    /// CPU threads, 0 = all cores.
    pub threads: usize,
    /// CUDA device ordinal.
    pub gpu: usize,
    /// Several devices, one run (`algo::multi`): their ordinals; empty: `gpu` alone.
    pub gpus: Vec<usize>,
    /// PTX module to load instead of the embedded one.
    pub ptx: Option<PathBuf>,
    /// How several devices share one run (`--multi`).
    pub multi: multi::Model,
    /// Islands across devices: advances between two ring migrations (`--migrate-every`).
    pub migrate_every: u32,
    /// The run's seed.
    pub seed: u64,
    /// Stop at this cost or better.
    pub target: Option<i64>,
    /// Stop after this long with the best so far (None: no limit).
    pub time_limit: Option<Duration>,
    /// Best-known value, for gaps in reports.
    pub known: Option<i64>,
    /// When the run may stop besides the target and the time limit: `Time` (the default:
    /// run to them) or `Converged` (small instances solved exactly, else a stop once the run
    /// has converged). `solve` on the command line takes `StopRule::default_for(target)`.
    pub stop: crate::run::StopRule,
    /// The GAs' settings (`ga-independent`, `ga-islands`).
    pub ga: ga::GaOptions,
    /// The colony's settings and those of the local search it shares with `ts` and `memetic`.
    pub aco: aco::AcoOptions,
    /// `ts`'s own settings (regrouping, restarts).
    pub ts: ts::TsOptions,
    /// The cellular GA's settings.
    pub cga: cga::CgaOptions,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            algorithm: None,
            engine: EngineChoice::Auto,
            threads: 0,
            gpu: 0,
            gpus: Vec::new(),
            ptx: None,
            multi: multi::Model::default(),
            migrate_every: multi::DEFAULT_MIGRATE_EVERY,
            seed: 1,
            target: None,
            time_limit: Some(Duration::from_secs(60)),
            known: None,
            stop: crate::run::StopRule::Time,
            ga: ga::GaOptions::default(),
            aco: aco::AcoOptions::default(),
            ts: ts::TsOptions::default(),
            cga: cga::CgaOptions::default(),
        }
    }
}

impl Options {
    /// Checks every value; the one-line error names the command-line option.
    pub fn validate(&self) -> Result<()> {
        if let Some(a) = &self.algorithm {
            check_name(a)?;
        }
        check_range("--threads", self.threads as f64, 0.0, MAX_THREADS as f64)?;
        check_range("--migrate-every", self.migrate_every as f64, 1.0, 1e9)?;
        if self.time_limit.is_some_and(|t| t.is_zero()) {
            bail!("--time-limit must be positive");
        }
        self.ga.validate()?;
        self.aco.validate()?;
        self.ts.validate()?;
        self.cga.validate()
    }
}

/// One-line error unless `lo <= v <= hi` (NaN fails).
pub fn check_range(option: &str, v: f64, lo: f64, hi: f64) -> Result<()> {
    if !(lo..=hi).contains(&v) {
        bail!("{option} = {v}: must be in [{lo}, {hi}]");
    }
    Ok(())
}
