//! `host`: the qapgpu command line. With no arguments it solves the embedded default
//! instance (planted, optimum known) on the GPU when there is one, else on the CPU.
use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use host::bench::{self, EngineFactory};
use host::cpu::CpuEngine;
use host::engine::{Algo, CountMethod, GaConfig, GaEngine};
use host::gpu::{Gpu, GpuEngine, unavailable_reason};
use host::instance::Instance;
use host::qaplib;
use host::report::Report;
use host::runner::{self, Limits, ProgressLine, Silent};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(Parser)]
#[command(name = "qapgpu", version, about = "QAP metaheuristics on NVIDIA GPUs (and the same operators on the CPU)")]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    cmd: Option<Cmd>,
    #[command(flatten)]
    solve: SolveArgs,
}

#[derive(Subcommand)]
enum Cmd {
    /// Solve one instance (the default command).
    Solve(SolveArgs),
    /// Run a paper's protocol over instances and print its table.
    Bench(BenchArgs),
    /// Show the GPU the GPU engine would use.
    Info(DeviceArgs),
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EngineKind {
    /// The GPU when one is usable, else the CPU.
    Auto,
    Gpu,
    Cpu,
}

#[derive(Args, Clone)]
struct DeviceArgs {
    /// GPU engine, CPU engine, or auto (GPU when usable).
    #[arg(long, value_enum, default_value = "auto")]
    engine: EngineKind,
    /// CPU threads (0: all cores; 1: the papers' single-thread CPU column).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// CUDA device ordinal.
    #[arg(long, default_value_t = 0)]
    gpu: usize,
    /// PTX module to load instead of the one embedded at build time.
    #[arg(long)]
    ptx: Option<PathBuf>,
}

#[derive(Args, Clone)]
struct GaArgs {
    /// Individuals per subpopulation (threads per block), a multiple of 32.
    #[arg(long, default_value_t = 128)]
    subpop: u32,
    /// Subpopulations (blocks); 0 fills the GPU (or 4 per CPU thread).
    #[arg(long, default_value_t = 0)]
    blocks: u32,
    /// Mutation rate p_m.
    #[arg(long, default_value_t = 0.1)]
    pm: f64,
    /// B_rate of the restart strategy.
    #[arg(long, default_value_t = 0.6)]
    b_rate: f64,
    /// Turn restarts off (default for ga-islands, as in seed 000).
    #[arg(long, conflicts_with = "restart")]
    no_restart: bool,
    /// Turn restarts on for ga-islands.
    #[arg(long)]
    restart: bool,
    /// Generations between B_count checks.
    #[arg(long, default_value_t = 50)]
    restart_interval: u32,
    /// G_interval: generations between island migrations.
    #[arg(long, default_value_t = 500)]
    migration_interval: u32,
    /// How the GPU counts B_count.
    #[arg(long, value_enum, default_value = "reduce")]
    count: CountMethod,
}

#[derive(Args, Clone)]
struct SolveArgs {
    /// A QAPLIB .dat file, or a name looked up in $QAPLIB_DIR (default ../shared/qaplib).
    /// Without one: the embedded planted instance (n = 24, optimum known by construction).
    instance: Option<String>,
    #[arg(long, value_enum, default_value = "ga-independent")]
    algo: Algo,
    /// Stop at this cost or better.
    #[arg(long, conflicts_with = "target_gap")]
    target: Option<i64>,
    /// Stop within this percentage of the best known value.
    #[arg(long)]
    target_gap: Option<f64>,
    /// Best-known value (default: bks.csv or .sln beside the instance).
    #[arg(long)]
    known: Option<i64>,
    /// Seconds before stopping with the best found so far.
    #[arg(long, default_value_t = 60.0)]
    time_limit: f64,
    /// Run seed (default: from the clock; printed in the report).
    #[arg(long)]
    seed: Option<u64>,
    /// Print one JSON object on stdout instead of the text report.
    #[arg(long)]
    json: bool,
    /// No progress line.
    #[arg(long, short)]
    quiet: bool,
    /// Also write the solution as a QAPLIB .sln file.
    #[arg(long)]
    write_sln: Option<PathBuf>,
    #[command(flatten)]
    ga: GaArgs,
    #[command(flatten)]
    device: DeviceArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Protocol {
    /// Seed 001, Tables II/III: independent runs, 1 block vs p blocks, gamma model.
    #[value(name = "001")]
    Independent,
    /// Seed 000, Table 1: island GA with total population 128 × B × k.
    #[value(name = "000")]
    Islands,
}

#[derive(Args, Clone)]
struct BenchArgs {
    #[arg(value_enum)]
    protocol: Protocol,
    /// Instances (names or .dat paths); default: the paper's.
    #[arg(long, value_delimiter = ',')]
    instances: Vec<String>,
    /// Runs per configuration (the papers: 30 for seed 001, 10 for seed 000).
    #[arg(long, default_value_t = 10)]
    runs: usize,
    /// Seed 001: block counts p of the FoundFlag runs; 0 = fill the GPU.
    #[arg(long, value_delimiter = ',', default_value = "30,60,0")]
    blocks: Vec<u32>,
    /// Seed 001: single-block runs for the gamma fit (0: skip them).
    #[arg(long, default_value_t = 30)]
    single_runs: usize,
    /// Seed 000: B in 128 × B × k (30 = one block per GTX 285 multiprocessor).
    #[arg(long, default_value_t = 30)]
    base_blocks: u32,
    /// Seed 000: the multipliers k.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    k: Vec<u32>,
    /// Seconds a run may take before it counts as failed.
    #[arg(long, default_value_t = 120.0)]
    time_limit: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Folder for the CSV and Markdown tables.
    #[arg(long, default_value = "bench-results")]
    out: PathBuf,
    #[command(flatten)]
    device: DeviceArgs,
}

static STOP: AtomicBool = AtomicBool::new(false);

fn main() {
    let cli = Cli::parse();
    let result = match cli.cmd {
        Some(Cmd::Solve(a)) => solve(a),
        None => solve(cli.solve),
        Some(Cmd::Bench(a)) => bench_cmd(a),
        Some(Cmd::Info(d)) => info(&d),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// The GPU to use, or None for the CPU engine (with the reason printed under `auto`).
fn pick_gpu(d: &DeviceArgs, quiet: bool) -> Result<Option<Gpu>> {
    match d.engine {
        EngineKind::Cpu => Ok(None),
        EngineKind::Gpu => Ok(Some(Gpu::open(d.gpu, d.ptx.as_deref())?)),
        EngineKind::Auto => match unavailable_reason(d.ptx.as_deref()) {
            None => Ok(Some(Gpu::open(d.gpu, d.ptx.as_deref())?)),
            Some(why) => {
                if !quiet {
                    eprintln!("note: {why}; running the CPU engine");
                }
                Ok(None)
            }
        },
    }
}

fn make_engine(gpu: &Option<Gpu>, threads: usize, inst: &Instance, cfg: &GaConfig) -> Result<Box<dyn GaEngine>> {
    Ok(match gpu {
        Some(g) => Box::new(GpuEngine::new(g.clone(), inst, cfg)?),
        None => Box::new(CpuEngine::new(inst, cfg, threads)?),
    })
}

fn ga_config(algo: Algo, g: &GaArgs, seed: u64, target: Option<i64>) -> GaConfig {
    let mut cfg = GaConfig::paper(algo);
    cfg.subpop = g.subpop;
    cfg.blocks = g.blocks;
    cfg.pm = g.pm;
    cfg.restart_interval = g.restart_interval;
    cfg.migration_interval = g.migration_interval;
    cfg.count = g.count;
    cfg.seed = seed;
    cfg.target = target.unwrap_or(i64::MIN);
    if g.no_restart {
        cfg.b_rate = None;
    } else if g.restart || algo == Algo::GaIndependent {
        cfg.b_rate = Some(g.b_rate);
    }
    cfg
}

fn solve(a: SolveArgs) -> Result<()> {
    let (inst, known) = match &a.instance {
        Some(name) => {
            let path = qaplib::resolve(name);
            let inst = qaplib::read_dat(&path)?;
            let known = a.known.or_else(|| qaplib::best_known(&path, &inst.name));
            (inst, known)
        }
        None => {
            let (inst, opt, _) = Instance::planted(24, 2024);
            (inst, Some(a.known.unwrap_or(opt)))
        }
    };
    let target = match (a.target, a.target_gap) {
        (Some(t), _) => Some(t),
        (None, Some(g)) => {
            let k = known.context("--target-gap needs a best-known value: none in bks.csv or .sln; pass --known")?;
            Some(k + (k.abs() as f64 * g / 100.0).floor() as i64)
        }
        // Without a target, stop at the best-known value when there is one.
        (None, None) => known,
    };
    if !(a.time_limit > 0.0) {
        bail!("--time-limit must be positive");
    }
    let seed = a.seed.unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64));
    let cfg = ga_config(a.algo, &a.ga, seed, target);
    let gpu = pick_gpu(&a.device, a.quiet || a.json)?;
    let mut engine = make_engine(&gpu, a.device.threads, &inst, &cfg)?;
    ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130); // a second Ctrl-C does not wait
        }
    })
    .context("installing the Ctrl-C handler")?;
    let limits = Limits { target, time_limit: Some(Duration::from_secs_f64(a.time_limit)), known };
    let out = if a.quiet || a.json {
        runner::run(engine.as_mut(), &cfg, &limits, &mut Silent, &STOP)?
    } else {
        let mut line = ProgressLine::new();
        let o = runner::run(engine.as_mut(), &cfg, &limits, &mut line, &STOP)?;
        line.finish();
        o
    };
    let engine_name = if gpu.is_some() { "gpu" } else { "cpu" };
    let report = Report::new(&inst, &out, a.algo.name(), engine_name, engine.device(), seed, target, known, engine.blocks(), cfg.subpop)?;
    if let Some(p) = &a.write_sln {
        qaplib::write_sln(p, report.cost, &out.perm)?;
    }
    if a.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print!("{}", report.text());
    }
    Ok(())
}

fn info(d: &DeviceArgs) -> Result<()> {
    match unavailable_reason(d.ptx.as_deref()) {
        Some(why) => println!("GPU engine unavailable: {why}"),
        None => {
            let g = Gpu::open(d.gpu, d.ptx.as_deref())?;
            println!("{} — sm_{}, {} SMs, {:?}", g.name, g.limits.arch, g.sms, g.limits);
        }
    }
    Ok(())
}

fn bench_cmd(a: BenchArgs) -> Result<()> {
    let gpu = pick_gpu(&a.device, false)?;
    let threads = a.device.threads;
    let make: &EngineFactory = &|inst, cfg| make_engine(&gpu, threads, inst, cfg);
    let limit = Duration::from_secs_f64(a.time_limit);
    let names: Vec<String> = if !a.instances.is_empty() {
        a.instances.clone()
    } else {
        let from: Vec<&str> = match a.protocol {
            Protocol::Independent => bench::PAPER_001.iter().map(|r| r.0).collect(),
            Protocol::Islands => bench::PAPER_000.iter().map(|r| r.0).collect(),
        };
        from.into_iter().filter(|n| qaplib::resolve(n).is_file()).map(String::from).collect()
    };
    let device = match &gpu {
        Some(g) => format!("{} (sm_{}, {} SMs)", g.name, g.limits.arch, g.sms),
        None => format!("CPU, {} threads", if threads == 0 { rayon::current_num_threads() } else { threads }),
    };
    let table = match a.protocol {
        Protocol::Independent => {
            let single_runs = a.single_runs;
            // On the GPU the single-block runs execute together, one block per run (and per
            // SM): each block stops alone at the target. On the CPU they run one after another.
            let singles = |inst: &Instance, cfg: &GaConfig| -> Result<Vec<Option<f64>>> {
                let mut c = cfg.clone();
                match &gpu {
                    Some(g) => {
                        c.blocks = single_runs as u32;
                        c.per_block_target = true;
                        let mut e = GpuEngine::new(g.clone(), inst, &c)?;
                        runner::run_per_block(&mut e, &c, limit)
                    }
                    None => {
                        c.blocks = 1;
                        bench::timed_runs(make, inst, &c, single_runs, limit)
                    }
                }
            };
            bench::protocol_001(make, &singles, &names, &a.blocks, a.single_runs, a.runs, limit, a.seed)?
        }
        Protocol::Islands => bench::protocol_000(make, &names, a.base_blocks, &a.k, a.runs, limit, a.seed)?,
    };
    let title = match a.protocol {
        Protocol::Independent => "seed 001 protocol (independent runs, restarts, FoundFlag)",
        Protocol::Islands => "seed 000 protocol (island GA, shuffle every 500 generations)",
    };
    let md = format!("### {title}\n\ndevice: {device}; runs: {}; time limit per run: {} s\n\n{}", a.runs, a.time_limit, table.markdown());
    std::fs::create_dir_all(&a.out).with_context(|| format!("{}: cannot create", a.out.display()))?;
    let stem = match a.protocol {
        Protocol::Independent => "seed001",
        Protocol::Islands => "seed000",
    };
    std::fs::write(a.out.join(format!("{stem}.md")), &md)?;
    std::fs::write(a.out.join(format!("{stem}.csv")), table.csv())?;
    println!("{md}");
    Ok(())
}
