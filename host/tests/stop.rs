//! The stop rule (`--stop time|converged`, `Options::stop`): small instances proven optimal
//! by the exact method (checked against brute force), a run on an easy instance that stops
//! once converged, `--stop time` that runs to the limit, and why a run stopped in the text,
//! the JSON and the library's result. Bounds on time are generous: performance belongs to
//! the benchmarks.
use proptest::prelude::*;
use qapgpu::algo::{Backend, EngineChoice, Options};
use qapgpu::io::Instance;
use qapgpu::run::exact::{brute_force, solve as exact};
use qapgpu::run::{Silent, StopRule, Stopped};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

fn host() -> Command {
    Command::new(env!("CARGO_BIN_EXE_qapgpu"))
}

/// Instances of n = 2..=8 with entries in -20..60: negative, zero and repeated entries,
/// asymmetric matrices, non-zero diagonals.
fn instances() -> impl Strategy<Value = Instance> {
    (2usize..=8).prop_flat_map(|n| {
        (prop::collection::vec(-20i64..60, n * n), prop::collection::vec(-20i64..60, n * n))
            .prop_map(move |(a, b)| Instance::new("random", n, a, b).unwrap())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// Branch and bound finds brute force's optimum, and its permutation costs it.
    #[test]
    fn the_exact_method_matches_brute_force(inst in instances()) {
        let opt = exact(&inst, u64::MAX, &|| false).expect("no budget to run out of");
        prop_assert_eq!(opt.cost, brute_force(&inst).0);
        prop_assert_eq!(inst.cost(&opt.perm), opt.cost);
    }
}

/// A folder of its own, with `name`.dat written from `inst` and no best-known
/// value beside it.
fn dat_without_known(test: &str, inst: &Instance) -> PathBuf {
    // A folder a call: the tests run at once, and two may write the same instance.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let k = CALLS.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("qapgpu-stop-{test}-{}-{k}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.dat", inst.name));
    let row = |m: &[i64]| {
        m.chunks(inst.n).map(|r| r.iter().map(i64::to_string).collect::<Vec<_>>().join(" ")).collect::<Vec<_>>()
    };
    let text = format!("{}\n\n{}\n\n{}\n", inst.n, row(&inst.a).join("\n"), row(&inst.b).join("\n"));
    std::fs::write(&path, text).unwrap();
    path
}

/// An instance of the repository's data as a file without a best-known value, under another
/// name (bks.csv of the QAPLIB folder knows an instance by its name).
fn without_known(name: &str) -> PathBuf {
    let inst = qapgpu::io::qaplib::read_dat(&qapgpu::io::qaplib::resolve(name)).unwrap();
    dat_without_known(name, &inst.renamed(format!("unknown-{name}")))
}

fn solve_json(path: &Path, extra: &[&str]) -> serde_json::Value {
    let out = host()
        .arg(path)
        .args(["--engine", "cpu", "--json", "--seed", "3"])
        .args(extra)
        .env("QAPLIB_DIR", qapgpu::io::qaplib::qaplib_dir())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn without_a_target_nug12_is_done_well_before_its_limit() {
    let v = solve_json(&without_known("nug12"), &["--time-limit", "10"]);
    assert_eq!(v["stop_rule"], "converged", "{v}");
    assert!(v["target"].is_null(), "{v}");
    // n = 12: proven optimal by branch and bound (or, were its node budget spent, converged).
    assert!(["proven optimal", "converged"].contains(&v["stopped"].as_str().unwrap()), "{v}");
    assert_eq!(v["cost"], 578, "{v}");
    assert!(v["elapsed_s"].as_f64().unwrap() < 5.0, "{v}");
}

#[test]
fn without_a_target_had20_stops_once_converged() {
    let v = solve_json(&without_known("had20"), &["--time-limit", "30"]);
    assert_eq!(v["stopped"], "converged", "{v}");
    assert_eq!(v["stop_rule"], "converged", "{v}");
    let (elapsed, last) = (v["elapsed_s"].as_f64().unwrap(), v["last_improvement_s"].as_f64().unwrap());
    assert!(last <= elapsed && elapsed < 25.0, "{v}");
    // No improvement for the factor times the time to the last one (structured data: no floor).
    assert!(elapsed - last >= qapgpu::algo::policy::CONVERGED_FACTOR * last, "{v}");
}

#[test]
fn stop_time_runs_to_the_limit() {
    let v = solve_json(&without_known("nug12"), &["--time-limit", "1.5", "--stop", "time"]);
    assert_eq!(v["stopped"], "time limit", "{v}");
    assert_eq!(v["stop_rule"], "time", "{v}");
    assert!(v["elapsed_s"].as_f64().unwrap() >= 1.45, "{v}");
    assert!(v["last_improvement_s"].is_null(), "{v}");
}

#[test]
fn with_a_known_value_the_default_runs_to_the_target() {
    // nug12 of data/qaplib has its best-known value beside it: the target, and `time`.
    let v = solve_json(Path::new("nug12"), &["--time-limit", "60"]);
    assert_eq!(v["stop_rule"], "time", "{v}");
    assert_eq!(v["stopped"], "target", "{v}");
    assert_eq!(v["cost"], 578, "{v}");
}

#[test]
fn small_instances_are_proven_optimal_and_reported_so() {
    let inst = qapgpu::bench::random_instance(8, 11);
    let path = dat_without_known("small", &inst);
    let v = solve_json(&path, &["--time-limit", "10"]);
    assert_eq!(v["stopped"], "proven optimal", "{v}");
    assert_eq!(v["algorithm"], "exact", "{v}");
    assert_eq!(v["cost"], brute_force(&inst).0, "{v}");
    assert!(v["elapsed_s"].as_f64().unwrap() < 5.0, "{v}");
    // The text report says it too.
    let out = host().arg(&path).args(["--engine", "cpu", "--quiet", "--time-limit", "10"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l.starts_with("stopped") && l.contains("proven optimal")), "{text}");
    // `--stop time` keeps today's search, to its target.
    let v = solve_json(&path, &["--time-limit", "10", "--stop", "time", "--target", &brute_force(&inst).0.to_string()]);
    assert_eq!(v["stopped"], "target", "{v}");
    assert_ne!(v["algorithm"], "exact", "{v}");
}

#[test]
fn the_library_says_why_a_run_stopped() {
    let backend = Backend::Cpu { threads: 2 };
    let inst = qapgpu::bench::random_instance(9, 5);
    let solve = |opts: &Options| qapgpu::solve_on(&backend, &inst, opts, &mut Silent, &AtomicBool::new(false)).unwrap();
    let base =
        Options { engine: EngineChoice::Cpu, seed: 2, time_limit: Some(Duration::from_secs(10)), ..Options::default() };
    // The library's default is `time`: to the limit.
    let short = solve(&Options { time_limit: Some(Duration::from_millis(300)), ..base.clone() });
    assert_eq!(short.stopped, Stopped::TimeLimit);
    assert_eq!(short.stop_rule, StopRule::Time);
    let proven = solve(&Options { stop: StopRule::Converged, ..base.clone() });
    assert_eq!(proven.stopped, Stopped::ProvenOptimal);
    assert_eq!(proven.cost, brute_force(&inst).0);
    assert_eq!(inst.cost(&proven.perm()), proven.cost);
    // The shortest limit stops the exact method too, with a valid answer.
    let big = qapgpu::bench::random_instance(12, 7);
    let opts = Options { stop: StopRule::Converged, time_limit: Some(Duration::from_nanos(1)), ..base.clone() };
    let cut = qapgpu::solve_on(&backend, &big, &opts, &mut Silent, &AtomicBool::new(false)).unwrap();
    assert!([Stopped::TimeLimit, Stopped::ProvenOptimal].contains(&cut.stopped), "{:?}", cut.stopped);
    assert_eq!(big.cost(&cut.perm()), cut.cost);
    // A proven optimum at the target reached it.
    let target = solve(&Options { stop: StopRule::Converged, target: Some(proven.cost), ..base });
    assert_eq!(target.stopped, Stopped::ProvenOptimal);
    assert!(target.time_to_target_s.is_some());
}

#[test]
fn bench_keeps_its_protocol_and_takes_stop() {
    let out = host().args(["bench", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--stop") && help.contains("[default: time]"), "{help}");
    let out = host().args(["solve", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--stop") && help.contains("converged"), "{help}");
}
