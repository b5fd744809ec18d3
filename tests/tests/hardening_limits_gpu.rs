//! Issue 37, parts 3 and 4, on the GPU: any time limit above 0 returns a valid permutation
//! from every family; set-up too large for its limit (65536 subpopulations, 65536 ants, a
//! 256 × 256 grid) ends within 5 % or 50 ms of it; a colony larger than one wave of blocks,
//! searched a wave a launch, is the same colony as its CPU twin's. Without a GPU the cases
//! are reported as ignored, with the reason (`qapgpu_tests::harness`). The CPU engine's
//! cases are host/tests/hardening_limits.rs.
use qapgpu::algo::aco::cpu::AcoCpu;
use qapgpu::algo::aco::gpu::AcoGpu;
use qapgpu::algo::aco::{self, AcoConfig, AcoEngine, Class, Layout};
use qapgpu::algo::{Backend, EngineChoice, Options};
use qapgpu::io::{Instance, qaplib};
use qapgpu::run::Silent;
use qapgpu_common::ls::LsKind;
use qapgpu_tests::{case, gpu};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Held by every case, so that none shares the cores while another measures a limit.
static CORES: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn cores() -> std::sync::MutexGuard<'static, ()> {
    CORES.lock().unwrap_or_else(|e| e.into_inner())
}

const FAMILIES: [&str; 8] = ["auto", "ts", "memetic", "aco-ts", "aco-2opt", "ga-islands", "ga-independent", "cga"];

/// A random instance of n = 256, entries 0..99 (the CPU cases' instance).
fn random256() -> Instance {
    qapgpu::bench::random_instance(256, 7)
}

fn solve(backend: &Backend, inst: &Instance, opts: &Options, what: &str) -> f64 {
    let sol = qapgpu::solve_on(backend, inst, opts, &mut Silent, &AtomicBool::new(false))
        .unwrap_or_else(|e| panic!("{what}: {e:#}"));
    assert_eq!(inst.cost(&sol.perm()), sol.cost, "{what}");
    sol.elapsed_s
}

fn every_family_answers_a_nanosecond_and_a_millisecond() {
    let _cores = cores();
    let backend = Backend::Gpu(gpu());
    let nug12 = qaplib::read_dat(&qaplib::resolve("nug12")).unwrap();
    for inst in [nug12, random256()] {
        for algo in FAMILIES {
            for limit in [1e-9, 1e-3] {
                let opts = Options {
                    algorithm: Some(algo.into()),
                    engine: EngineChoice::Gpu,
                    seed: 3,
                    time_limit: Some(Duration::from_secs_f64(limit)),
                    ..Options::default()
                };
                let what = format!("gpu {algo} on {} within {limit} s", inst.name);
                let elapsed = solve(&backend, &inst, &opts, &what);
                assert!(elapsed <= limit + 0.05, "{what}: returned after {elapsed:.3} s");
            }
        }
    }
}

fn set_up_ends_at_the_time_limit() {
    let _cores = cores();
    let backend = Backend::Gpu(gpu());
    let inst = random256();
    let limit = 0.5;
    let base = Options {
        engine: EngineChoice::Gpu,
        seed: 3,
        time_limit: Some(Duration::from_secs_f64(limit)),
        ..Options::default()
    };
    let with = |algo: &str, f: &dyn Fn(&mut Options)| {
        let mut o = Options { algorithm: Some(algo.into()), ..base.clone() };
        f(&mut o);
        o
    };
    let cases = [
        ("ga-islands --blocks 65536", with("ga-islands", &|o| o.ga.blocks = 65536)),
        ("ga-independent --blocks 65536", with("ga-independent", &|o| o.ga.blocks = 65536)),
        (
            "aco-ts --ants 65536 --ls-iterations 2147483647",
            with("aco-ts", &|o| (o.aco.ants, o.aco.ls_iterations) = (Some(65536), Some(i32::MAX as u32))),
        ),
        ("aco-2opt --ants 65536", with("aco-2opt", &|o| o.aco.ants = Some(65536))),
        ("ts --ants 65536", with("ts", &|o| o.aco.ants = Some(65536))),
        ("cga --grid 256x256", with("cga", &|o| o.cga.grid = (256, 256))),
    ];
    for (what, opts) in cases {
        let elapsed = solve(&backend, &inst, &opts, what);
        assert!(elapsed <= limit * 1.05 + 0.05, "gpu {what}: a {limit}-s limit returned after {elapsed:.3} s");
    }
}

/// init and two cAS iterations of a colony of two waves and a bit, on both engines, in
/// every layout: the same states bit for bit.
fn a_colony_in_waves_matches_its_cpu_twin() {
    let _cores = cores();
    let g = gpu();
    let inst = qaplib::read_dat(&qaplib::resolve("nug12")).unwrap();
    let n = inst.n;
    let mut runs = vec![
        (LsKind::Tabu, Layout::Mata),
        (LsKind::Tabu, Layout::Plain),
        (LsKind::Tabu, Layout::Split),
        (LsKind::TwoOpt, Layout::Mata),
    ];
    if inst.sums_side().is_some() {
        runs.push((LsKind::Tabu, Layout::Sums));
    }
    for (ls, layout) in runs {
        let mut cfg = AcoConfig::paper(ls, n as u32, Class::of(&inst.name));
        (cfg.layout, cfg.ls_iterations, cfg.seed) = (layout, 20, 4242);
        let wave = AcoGpu::new(g.clone(), &inst, &cfg).unwrap().wave();
        cfg.ants = (2 * wave + 10).min(aco::MAX_ANTS);
        assert!(cfg.ants > wave, "{layout:?}: a wave of {wave} blocks holds the largest colony");
        let mut gpu = AcoGpu::new(g.clone(), &inst, &cfg).unwrap();
        let mut cpu = AcoCpu::new(&inst, &cfg, 0).unwrap();
        let what = format!("{ls:?} {layout:?}, {} ants in waves of {wave}", cfg.ants);
        aco::init(&mut gpu, n).unwrap();
        aco::init(&mut cpu, n).unwrap();
        for step in 0..3 {
            let (s1, s2) = (gpu.snapshot().unwrap(), cpu.snapshot().unwrap());
            let parts = [
                ("c-ants", s1.cants == s2.cants && s1.cant_costs == s2.cant_costs),
                ("search lengths", s1.ls_iterations == s2.ls_iterations),
                ("unit bests", s1.ants == s2.ants && s1.ant_costs == s2.ant_costs),
                ("RNG states", s1.rng == s2.rng),
                ("pheromone", s1.tau_bits == s2.tau_bits),
                ("best so far", s1.best == s2.best),
            ];
            for (part, same) in parts {
                assert!(same, "{what}, step {step}: the engines' {part} differ");
            }
            aco::iterate(&mut gpu, n).unwrap();
            aco::iterate(&mut cpu, n).unwrap();
        }
    }
}

fn main() -> std::process::ExitCode {
    qapgpu_tests::harness::run(vec![
        case!(every_family_answers_a_nanosecond_and_a_millisecond).gpu().qaplib(&["nug12"]),
        case!(set_up_ends_at_the_time_limit).gpu(),
        case!(a_colony_in_waves_matches_its_cpu_twin).gpu().qaplib(&["nug12"]),
    ])
}
