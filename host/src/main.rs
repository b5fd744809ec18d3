//! `host`: the qapgpu command line. With no arguments it solves the embedded default
//! instance (planted, optimum known) on the GPU when there is one, else on the CPU.
use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use host::aco::{AcoConfig, AcoEngine, Class, Layout};
use host::aco_cpu::AcoCpu;
use host::aco_gpu::AcoGpu;
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

/// Seed 003's settings; unset ones come from its Table 4 for the instance's class.
#[derive(Args, Clone)]
struct AcoArgs {
    /// Thread mapping of the local search's move costs.
    #[arg(long, value_enum, default_value = "mata")]
    layout: Layout,
    /// Instance class for Table 4's defaults (default: iv for taiNNb, i otherwise).
    #[arg(long, value_enum)]
    class: Option<Class>,
    /// m: units (ants); one block each on the GPU. Default n (class i) or 4n (class iv).
    #[arg(long)]
    ants: Option<u32>,
    /// ρ: pheromone kept per iteration.
    #[arg(long)]
    rho: Option<f64>,
    /// γ: share of a c-ant sampled from τ (the rest comes from its donor).
    #[arg(long)]
    gamma: Option<f64>,
    /// IT_TS or IT_2OPT: iterations of one local search. Default 16n (class i) or 4n (iv).
    #[arg(long)]
    ls_iterations: Option<u32>,
    /// T_list-size of the robust tabu search (tenure T·r³). Default n.
    #[arg(long)]
    tabu_list: Option<u32>,
    /// N_S: O(1) moves per thread. Default n/4.
    #[arg(long)]
    ns: Option<u32>,
    /// IT_TOTAL: stop after this many local-search iterations in all (Table 5 uses n·50000).
    #[arg(long)]
    max_ls_iterations: Option<u64>,
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
    aco: AcoArgs,
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
    /// Seed 003, Table 5: ACO + tabu search for IT_TOTAL = n·50000 iterations or the optimum.
    #[value(name = "003-fixed")]
    AcoFixed,
    /// Seed 003, Table 6: ACO + tabu search / 2-opt to the acceptable cost.
    #[value(name = "003-target")]
    AcoTarget,
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
    /// Seed 003: local searches (ts, 2opt).
    #[arg(long, value_delimiter = ',', default_value = "ts")]
    ls: Vec<String>,
    /// Seed 003: GPU thread mappings to run (mata, plain); ignored on the CPU engine.
    #[arg(long, value_delimiter = ',', default_value = "mata,plain")]
    layouts: Vec<Layout>,
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
    let gpu = pick_gpu(&a.device, a.quiet || a.json)?;
    ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130); // a second Ctrl-C does not wait
        }
    })
    .context("installing the Ctrl-C handler")?;
    let limits = Limits { target, time_limit: Some(Duration::from_secs_f64(a.time_limit)), known };
    let mut line = ProgressLine::new();
    let obs: &mut dyn runner::Observer = if a.quiet || a.json { &mut Silent } else { &mut line };
    let engine_name = if gpu.is_some() { "gpu" } else { "cpu" };
    let (out, report) = if let Some(ls) = a.algo.local_search() {
        let cfg = aco_config(ls, &a.aco, &inst, seed);
        let mut engine = make_aco_engine(&gpu, a.device.threads, &inst, &cfg)?;
        let out = runner::run_aco(engine.as_mut(), inst.n, &limits, a.aco.max_ls_iterations, obs, &STOP)?;
        let mut report = Report::new(&inst, &out, a.algo.name(), engine_name, engine.device(), seed, target, known, cfg.ants, engine.threads_per_block())?;
        report.layout = aco_layout_text(&cfg, engine.as_ref());
        (out, report)
    } else {
        let cfg = ga_config(a.algo, &a.ga, seed, target);
        let mut engine = make_engine(&gpu, a.device.threads, &inst, &cfg)?;
        let out = runner::run(engine.as_mut(), &cfg, &limits, obs, &STOP)?;
        let report = Report::new(&inst, &out, a.algo.name(), engine_name, engine.device(), seed, target, known, engine.blocks(), cfg.subpop)?;
        (out, report)
    };
    if !(a.quiet || a.json) {
        line.finish();
    }
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

/// Table 4 of seed 003 for the instance's class, with the command line's overrides.
fn aco_config(ls: qapgpu_common::ls::LsKind, x: &AcoArgs, inst: &Instance, seed: u64) -> AcoConfig {
    let class = x.class.unwrap_or_else(|| Class::of(&inst.name));
    let mut cfg = AcoConfig::paper(ls, inst.n as u32, class);
    cfg.layout = x.layout;
    cfg.seed = seed;
    cfg.ants = x.ants.unwrap_or(cfg.ants);
    cfg.rho = x.rho.unwrap_or(cfg.rho);
    cfg.gamma = x.gamma.unwrap_or(cfg.gamma);
    cfg.ls_iterations = x.ls_iterations.unwrap_or(cfg.ls_iterations);
    cfg.tabu_list_size = x.tabu_list.unwrap_or(cfg.tabu_list_size);
    cfg.ns = x.ns.unwrap_or(cfg.ns);
    cfg
}

fn make_aco_engine(gpu: &Option<Gpu>, threads: usize, inst: &Instance, cfg: &AcoConfig) -> Result<Box<dyn AcoEngine>> {
    if !(0.0..1.0).contains(&cfg.rho) {
        bail!("--rho must be in [0, 1)");
    }
    if !(0.0..=1.0).contains(&cfg.gamma) {
        bail!("--gamma must be in [0, 1]");
    }
    Ok(match gpu {
        Some(g) => Box::new(AcoGpu::new(g.clone(), inst, cfg)?),
        None => Box::new(AcoCpu::new(inst, cfg, threads)?),
    })
}

fn aco_layout_text(cfg: &AcoConfig, e: &dyn AcoEngine) -> String {
    let ls = match cfg.ls {
        qapgpu_common::ls::LsKind::Tabu => format!("tabu search, IT_TS = {}, T_list = {}", cfg.ls_iterations, cfg.tabu_list_size),
        qapgpu_common::ls::LsKind::TwoOpt => format!("2-opt, IT_2OPT = {}", cfg.ls_iterations),
    };
    let threads = e.threads_per_block();
    let mapping = if threads > 1 { format!(", {} layout, {threads} threads per ant", cfg.layout.name()) } else { String::new() };
    format!("{} ants (units), ρ = {}, γ = {}; {ls}{mapping}", cfg.ants, cfg.rho, cfg.gamma)
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
            Protocol::AcoFixed | Protocol::AcoTarget => host::bench003::PAPER_T6.iter().map(|r| r.0).collect(),
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
        Protocol::AcoFixed | Protocol::AcoTarget => {
            use host::bench003::{Column, protocol_003};
            use qapgpu_common::ls::LsKind;
            let searches = a
                .ls
                .iter()
                .map(|s| match s.as_str() {
                    "ts" => Ok(LsKind::Tabu),
                    "2opt" => Ok(LsKind::TwoOpt),
                    other => Err(anyhow::anyhow!("--ls {other}: expected ts or 2opt")),
                })
                .collect::<Result<Vec<_>>>()?;
            let columns: Vec<Column> = if gpu.is_some() { a.layouts.iter().map(|&l| Column::Gpu(l)).collect() } else { vec![Column::Cpu] };
            let make_aco: &host::bench003::AcoFactory = &|inst, cfg| make_aco_engine(&gpu, threads, inst, cfg);
            protocol_003(make_aco, a.protocol == Protocol::AcoFixed, &names, &searches, &columns, a.runs, limit, a.seed)?
        }
    };
    let title = match a.protocol {
        Protocol::Independent => "seed 001 protocol (independent runs, restarts, FoundFlag)",
        Protocol::Islands => "seed 000 protocol (island GA, shuffle every 500 generations)",
        Protocol::AcoFixed => "seed 003 Table 5 protocol (IT_TOTAL = n·50000 or the optimum)",
        Protocol::AcoTarget => "seed 003 Table 6 protocol (time to the acceptable cost)",
    };
    let md = format!("### {title}\n\ndevice: {device}; runs: {}; time limit per run: {} s\n\n{}", a.runs, a.time_limit, table.markdown());
    std::fs::create_dir_all(&a.out).with_context(|| format!("{}: cannot create", a.out.display()))?;
    let stem = match a.protocol {
        Protocol::Independent => "seed001",
        Protocol::Islands => "seed000",
        Protocol::AcoFixed => "seed003-table5",
        Protocol::AcoTarget => "seed003-table6",
    };
    std::fs::write(a.out.join(format!("{stem}.md")), &md)?;
    std::fs::write(a.out.join(format!("{stem}.csv")), table.csv())?;
    println!("{md}");
    Ok(())
}
