//! Each GA kernel against its CPU twin: same seed, bit-identical populations. These tests
//! need a GPU; without one they are reported as ignored, with the reason
//! (`qapgpu_tests::harness`).
use qapgpu::algo::ga::cpu::CpuEngine;
use qapgpu::algo::ga::gpu::GpuEngine;
use qapgpu::algo::ga::{CountMethod, GaConfig, GaEngine, GaSolver, Mode, run_per_block};
use qapgpu::gpu::Gpu;
use qapgpu::io::Instance;
use qapgpu::io::qaplib;
use qapgpu_common::ga::Crossover;
use qapgpu_tests::{case, gpu, near_limit, negatives, small, zeros};

fn twin(g: &Gpu, inst: &Instance, algo: Mode, count: CountMethod, b_rate: Option<f64>) {
    let mut cfg = GaConfig::paper(algo);
    cfg.count = count;
    cfg.b_rate = b_rate;
    twin_of(g, inst, cfg);
}

fn twin_of(g: &Gpu, inst: &Instance, mut cfg: GaConfig) {
    let algo = cfg.mode;
    cfg.blocks = 6;
    cfg.seed = 77;
    let mut gpu = GpuEngine::new(g.clone(), inst, &cfg).unwrap();
    let mut cpu = CpuEngine::new(inst, &cfg, 2).unwrap();
    let both = |gpu: &mut GpuEngine, cpu: &mut CpuEngine, what: &str| {
        let (s1, s2) = (gpu.snapshot().unwrap(), cpu.snapshot().unwrap());
        assert_eq!(s1.rng, s2.rng, "{} {what}: RNG states differ", inst.name);
        assert_eq!(s1.rows, s2.rows, "{} {what}: populations differ", inst.name);
        assert_eq!(s1.costs, s2.costs, "{} {what}: costs differ", inst.name);
        assert_eq!(s1.restarts, s2.restarts, "{} {what}: restarts differ", inst.name);
        assert_eq!(s1.best_costs, s2.best_costs, "{} {what}: best costs differ", inst.name);
    };
    gpu.init().unwrap();
    cpu.init().unwrap();
    both(&mut gpu, &mut cpu, "after init");
    for step in 0..3 {
        gpu.advance(200).unwrap();
        cpu.advance(200).unwrap();
        both(&mut gpu, &mut cpu, &format!("after launch {step}"));
        if algo == Mode::Islands {
            gpu.migrate(step).unwrap();
            cpu.migrate(step).unwrap();
            both(&mut gpu, &mut cpu, &format!("after migration {step}"));
        }
    }
    for s in [&mut gpu as &mut dyn GaEngine, &mut cpu] {
        let (c, p) = s.best().unwrap();
        assert_eq!(inst.cost(&p), c);
    }
}

fn kernels_match_their_cpu_twin() {
    let g = gpu();
    let load = |n: &str| qaplib::read_dat(&qaplib::resolve(n)).unwrap();
    // u16, u32 (els19) and i32 element widths; restarts forced often by a low B_rate.
    for inst in [load("nug12"), load("els19"), negatives(), load("tai40b")] {
        for count in [CountMethod::Reduce, CountMethod::Atomic] {
            twin(&g, &inst, Mode::Independent, count, Some(0.2));
        }
        twin(&g, &inst, Mode::Islands, CountMethod::Reduce, None);
    }
}

fn ox_and_partial_migration_match_their_cpu_twin() {
    let g = gpu();
    let load = |n: &str| qaplib::read_dat(&qaplib::resolve(n)).unwrap();
    for inst in [load("nug12"), load("tai40b")] {
        let mut cfg = GaConfig::paper(Mode::Islands);
        cfg.crossover = Crossover::Ox;
        twin_of(&g, &inst, cfg.clone());
        // GA-2 of seed 000: 5 % of the individuals exchanged, with PMX and with OX.
        cfg.migration_fraction = 0.05;
        twin_of(&g, &inst, cfg.clone());
        cfg.crossover = Crossover::Pmx;
        twin_of(&g, &inst, cfg);
    }
}

fn large_n_uses_global_matrices_and_still_matches() {
    let g = gpu();
    // tai150b: A (u32, 90 KB) does not fit the constant bank; B still fits shared on sm_90.
    let inst = qaplib::read_dat(&qaplib::resolve("tai150b")).unwrap();
    twin(&g, &inst, Mode::Independent, CountMethod::Reduce, Some(0.6));
}

fn found_flag_stops_at_the_target() {
    let g = gpu();
    let (inst, known) = qapgpu::bench::load("nug12").unwrap();
    let mut cfg = GaConfig::paper(Mode::Independent);
    cfg.target = known;
    cfg.seed = 5;
    let e = GpuEngine::new(g, &inst, &cfg).unwrap();
    let mut solver = GaSolver::new(Box::new(e), cfg);
    let limits = qapgpu::run::Limits { time_limit: Some(std::time::Duration::from_secs(60)), known: None };
    let out = qapgpu::run::run(&mut solver, &limits, &mut qapgpu::run::Silent, &Default::default()).unwrap();
    assert_eq!(out.cost, known);
    assert_eq!(inst.cost(&out.perm), known);
    assert!(out.time_to_target_s.is_some());
}

fn per_block_runs_each_reach_the_target() {
    let g = gpu();
    let (inst, known) = qapgpu::bench::load("had12").unwrap();
    let mut cfg = GaConfig::paper(Mode::Independent);
    cfg.target = known;
    cfg.blocks = 16;
    cfg.per_block_target = true;
    let mut e = GpuEngine::new(g, &inst, &cfg).unwrap();
    let times = run_per_block(&mut e, &cfg, std::time::Duration::from_secs(60)).unwrap();
    assert_eq!(times.len(), 16);
    assert!(times.iter().all(|t| t.is_some_and(|t| t > 0.0)), "{times:?}");
    let snap = e.snapshot().unwrap();
    assert!(snap.best_costs.iter().all(|&c| c == known), "{:?}", snap.best_costs);
}

fn degenerate_instances_match_their_cpu_twin() {
    let g = gpu();
    // All-zero flows (every permutation optimal), the smallest sizes, and costs near 2⁶³.
    for inst in [zeros(12), small(2, 50), small(3, 50), near_limit()] {
        twin(&g, &inst, Mode::Independent, CountMethod::Reduce, Some(0.6));
        twin(&g, &inst, Mode::Islands, CountMethod::Reduce, None);
    }
}

fn main() -> std::process::ExitCode {
    qapgpu_tests::harness::run(vec![
        case!(kernels_match_their_cpu_twin).gpu().qaplib(&["nug12", "els19", "tai40b"]),
        case!(ox_and_partial_migration_match_their_cpu_twin).gpu().qaplib(&["nug12", "tai40b"]),
        case!(large_n_uses_global_matrices_and_still_matches).gpu().qaplib(&["tai150b"]),
        case!(found_flag_stops_at_the_target).gpu().qaplib(&["nug12"]),
        case!(per_block_runs_each_reach_the_target).gpu().qaplib(&["had12"]),
        case!(degenerate_instances_match_their_cpu_twin).gpu(),
    ])
}
