//! The time limit and Ctrl-C hold inside long launches and long local searches, at every
//! n up to 2048 and for option values that make one step very long: a run returns within
//! 5 % or 50 ms (whichever is larger) of its limit, on each engine. Without a GPU the GPU
//! case is reported as ignored, with the reason. One test per engine, so that no other test
//! of this binary competes for the cores while a limit is measured.
use qapgpu::algo::aco::AcoOptions;
use qapgpu::algo::ts::TsOptions;
use qapgpu::algo::{Backend, EngineChoice, Options};
use qapgpu::io::{Instance, qaplib};
use qapgpu::run::Silent;
use qapgpu::solve_on;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

fn slack(limit: f64) -> f64 {
    (0.05 * limit).max(0.05)
}

fn check_limit(backend: &Backend, inst: &Instance, opts: &Options, what: &str) {
    let limit = opts.time_limit.unwrap().as_secs_f64();
    let sol =
        solve_on(backend, inst, opts, &mut Silent, &AtomicBool::new(false)).unwrap_or_else(|e| panic!("{what}: {e:#}"));
    assert!(sol.elapsed_s <= limit + slack(limit), "{what}: a {limit} s limit returned after {:.3} s", sol.elapsed_s);
    assert_eq!(inst.cost(&sol.perm()), sol.cost, "{what}");
}

fn check_interrupt(backend: &Backend, inst: &Instance, opts: &Options, after: f64, what: &str) {
    let flag = AtomicBool::new(false);
    let sol = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_secs_f64(after));
            flag.store(true, Ordering::SeqCst);
        });
        solve_on(backend, inst, opts, &mut Silent, &flag).unwrap()
    });
    assert!(sol.interrupted, "{what}: not marked interrupted");
    assert!(
        sol.elapsed_s <= after + slack(after),
        "{what}: Ctrl-C after {after} s returned after {:.3} s",
        sol.elapsed_s
    );
}

/// The slow cases: every family at n = 256, and one local search of 2³¹ − 1 iterations.
fn cases(engine: EngineChoice) -> Vec<(Instance, Options, String)> {
    let (big, _, _) = Instance::planted(256, 9);
    let (huge, _, _) = Instance::planted(2048, 9);
    let nug12 = qaplib::read_dat(&qaplib::resolve("nug12")).unwrap();
    let base =
        Options { engine, seed: 5, time_limit: Some(Duration::from_secs(1)), target: Some(0), ..Options::default() };
    let mut v = Vec::new();
    for algo in ["aco-ts", "aco-2opt", "ga-independent", "ga-islands", "cga", "ts"] {
        v.push((big.clone(), Options { algorithm: Some(algo.into()), ..base.clone() }, format!("{algo} n = 256")));
    }
    // The wide path at its largest n: a walk's Δ table is built over many launches, then
    // each move costs O(n²).
    v.push((huge, Options { algorithm: Some("ts".into()), ..base.clone() }, "ts n = 2048 (the wide path)".into()));
    // Walks that regroup onto a diverse elite read their solutions after every launch of
    // 2048 moves (the host waits on them).
    let diverse = TsOptions {
        regroup_every: Some(2048),
        regroup_rounds: Some(0),
        regroup_distance: Some(0.5),
        ..TsOptions::default()
    };
    v.push((
        big.clone(),
        Options { algorithm: Some("ts".into()), ts: diverse, ..base.clone() },
        "ts n = 256 --regroup-every 2048 --regroup-distance 0.5".into(),
    ));
    let endless = Options {
        algorithm: Some("aco-ts".into()),
        time_limit: Some(Duration::from_secs(2)),
        aco: AcoOptions { ls_iterations: Some(i32::MAX as u32), ..AcoOptions::default() },
        ..base.clone()
    };
    v.push((nug12.clone(), endless, "aco-ts nug12 --ls-iterations 2147483647".into()));
    if engine == EngineChoice::Cpu {
        v.push((
            nug12,
            Options { algorithm: Some("aco-ts".into()), threads: 256, ..base },
            "aco-ts nug12 --threads 256".into(),
        ));
    }
    v
}

fn cpu_engine_honours_time_limit_and_interrupt() {
    let backend = Backend::Cpu { threads: 0 };
    for (inst, opts, what) in cases(EngineChoice::Cpu) {
        check_limit(&backend, &inst, &opts, &format!("cpu {what}"));
    }
    let (big, _, _) = Instance::planted(256, 9);
    let (huge, _, _) = Instance::planted(2048, 9);
    let opts =
        Options { algorithm: Some("aco-ts".into()), engine: EngineChoice::Cpu, target: Some(0), ..Options::default() };
    check_interrupt(&backend, &big, &opts, 0.5, "cpu aco-ts n = 256");
    let ts = Options { algorithm: Some("ts".into()), ..opts };
    check_interrupt(&backend, &huge, &ts, 0.5, "cpu ts n = 2048");
}

fn gpu_engine_honours_time_limit_and_interrupt() {
    let g = qapgpu_tests::gpu();
    let backend = Backend::Gpu(g);
    for (inst, opts, what) in cases(EngineChoice::Gpu) {
        check_limit(&backend, &inst, &opts, &format!("gpu {what}"));
    }
    let (big, _, _) = Instance::planted(256, 9);
    let (huge, _, _) = Instance::planted(2048, 9);
    for algo in ["aco-ts", "ga-independent"] {
        let opts =
            Options { algorithm: Some(algo.into()), engine: EngineChoice::Gpu, target: Some(0), ..Options::default() };
        check_interrupt(&backend, &big, &opts, 0.5, &format!("gpu {algo} n = 256"));
    }
    let ts = Options { algorithm: Some("ts".into()), engine: EngineChoice::Gpu, target: Some(0), ..Options::default() };
    check_interrupt(&backend, &huge, &ts, 0.5, "gpu ts n = 2048");
}

fn main() -> std::process::ExitCode {
    use qapgpu_tests::case;
    qapgpu_tests::harness::run(vec![
        case!(cpu_engine_honours_time_limit_and_interrupt).qaplib(&["nug12"]),
        case!(gpu_engine_honours_time_limit_and_interrupt).gpu().qaplib(&["nug12"]),
    ])
}
