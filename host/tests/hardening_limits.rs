//! Issue 37, parts 3, 4 and 7 (the limits), on the CPU engine: any time limit above 0
//! returns a valid permutation from every family; set-up (populations, colonies, thread
//! pools) ends at the time limit and at Ctrl-C; memory is checked against the process's own
//! limits; zero counts of `bench` are refused. Every case holds one lock, so that none
//! shares the cores while another measures a limit.
use qapgpu::algo::{Backend, EngineChoice, Options};
use qapgpu::io::Instance;
use qapgpu::run::Silent;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

static CORES: Mutex<()> = Mutex::new(());

/// Holds the cores for a timed case (a failed case leaves the lock poisoned: take it anyway).
fn cores() -> std::sync::MutexGuard<'static, ()> {
    CORES.lock().unwrap_or_else(|e| e.into_inner())
}

const FAMILIES: [&str; 8] = ["auto", "ts", "memetic", "aco-ts", "aco-2opt", "ga-islands", "ga-independent", "cga"];

fn qapgpu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qapgpu")).args(args).output().unwrap()
}

/// A path of this run in the tests' folder (removed by the case that writes there).
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join("qapgpu-limits");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{name}-{}", std::process::id()))
}

fn nug12() -> (PathBuf, Instance) {
    let path = qapgpu::io::qaplib::resolve("nug12");
    let inst = qapgpu::io::qaplib::read_dat(&path).unwrap();
    (path, inst)
}

/// A random instance of n = 256, entries 0..99 (scripts/random-dat.py's kind), and its file.
fn random256() -> (PathBuf, Instance) {
    let inst = qapgpu::bench::random_instance(256, 7);
    // The same file for every run of these tests (written whole, then renamed into place).
    let dir = std::env::temp_dir().join("qapgpu-limits");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("random256.dat");
    if !path.is_file() {
        let tmp = dir.join(format!("random256.{}.tmp", std::process::id()));
        qapgpu::io::qaplib::write_dat(&tmp, &inst).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
    }
    (path, inst)
}

/// A `solve --json` answer: its permutation (0-based), cost and elapsed seconds, checked
/// against `inst`.
fn answer(out: &Output, inst: &Instance, what: &str) -> (i64, f64) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{what}: exit {:?}, stderr {stderr}", out.status);
    let text = String::from_utf8_lossy(&out.stdout);
    let json: serde_json::Value =
        serde_json::from_str(text.lines().last().unwrap_or("")).unwrap_or_else(|e| panic!("{what}: {e}: {text}"));
    let perm: Vec<u8> =
        json["permutation"].as_array().unwrap().iter().map(|v| (v.as_u64().unwrap() - 1) as u8).collect();
    let cost = json["cost"].as_i64().unwrap();
    let mut seen = perm.clone();
    seen.sort_unstable();
    assert!(
        seen.iter().enumerate().all(|(i, &x)| x as usize == i) && seen.len() == inst.n,
        "{what}: not a permutation: {perm:?}"
    );
    assert_eq!(inst.cost(&perm), cost, "{what}: the permutation's cost");
    (cost, json["elapsed_s"].as_f64().unwrap())
}

fn solve(path: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["solve", path.to_str().unwrap(), "--engine", "cpu", "--json", "--seed", "3"];
    args.extend_from_slice(extra);
    qapgpu(&args)
}

/// Exit 1, one line on stderr naming `needle`, no panic.
fn assert_one_line_error(out: &Output, needle: &str, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{what}: exit {:?}, stderr {err}", out.status);
    assert_eq!(err.trim_end().lines().count(), 1, "{what}: one line, got {err}");
    assert!(err.contains(needle), "{what}: `{err}` should mention `{needle}`");
}

#[test]
fn every_family_answers_a_nanosecond_and_a_millisecond_with_a_valid_permutation() {
    let _cores = cores();
    let backend = Backend::Cpu { threads: 0 };
    for inst in [nug12().1, random256().1] {
        for algo in FAMILIES {
            for limit in [1e-9, 1e-3] {
                let opts = Options {
                    algorithm: Some(algo.into()),
                    engine: EngineChoice::Cpu,
                    seed: 3,
                    time_limit: Some(Duration::from_secs_f64(limit)),
                    ..Options::default()
                };
                let what = format!("{algo} on {} within {limit} s", inst.name);
                // The library call Python's `solve(options={"time_limit": 1e-3})` makes.
                let sol = qapgpu::solve_on(&backend, &inst, &opts, &mut Silent, &AtomicBool::new(false))
                    .unwrap_or_else(|e| panic!("{what}: {e:#}"));
                assert_eq!(inst.cost(&sol.perm()), sol.cost, "{what}");
                assert!(sol.elapsed_s <= limit + 0.05, "{what}: returned after {} s", sol.elapsed_s);
            }
        }
    }
}

#[test]
fn the_command_line_answers_the_shortest_limits() {
    let _cores = cores();
    let (path, inst) = nug12();
    for limit in ["1e-9", "4e-10"] {
        answer(&solve(&path, &["--algo", "ts", "--time-limit", limit]), &inst, &format!("ts --time-limit {limit}"));
    }
    let dir = temp("ttt");
    let out = qapgpu(&[
        "bench",
        "ttt",
        "--engine",
        "cpu",
        "--instances",
        "nug12",
        "--runs",
        "2",
        "--time-limit",
        "1e-9",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "bench ttt --time-limit 1e-9: {}", String::from_utf8_lossy(&out.stderr));
}

/// Each case of set-up too large for its limit ends within 5 % or 50 ms of a 0.5-s limit
/// (the JSON's elapsed seconds) with a valid answer, and the process within a second more
/// than a run of the same size that stops at once.
#[test]
fn set_up_ends_at_the_time_limit() {
    let _cores = cores();
    let (path, inst) = random256();
    let limit = 0.5;
    let cases: &[&[&str]] = &[
        &["--algo", "ga-independent", "--subpop", "1024", "--blocks", "1024"],
        &["--algo", "ga-islands", "--blocks", "65536"],
        &["--algo", "ga-islands", "--threads", "256"],
        &["--algo", "ga-independent", "--threads", "256"],
        &["--algo", "aco-ts", "--threads", "256"],
        &["--algo", "ts", "--threads", "256"],
        &["--algo", "cga", "--grid", "256x256"],
        &["--algo", "aco-ts", "--ants", "65536", "--ls-iterations", "2147483647"],
    ];
    for args in cases {
        let what = args.join(" ");
        let t0 = Instant::now();
        answer(
            &solve(&path, &[args, &["--time-limit", "1e-9"][..]].concat()),
            &inst,
            &format!("{what} --time-limit 1e-9"),
        );
        let at_once = t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        let (_, elapsed) = answer(&solve(&path, &[args, &["--time-limit", "0.5"][..]].concat()), &inst, &what);
        let wall = t0.elapsed().as_secs_f64();
        assert!(elapsed <= limit * 1.05 + 0.05, "{what}: a {limit}-s limit returned after {elapsed:.3} s");
        assert!(
            wall <= limit + at_once + 1.0,
            "{what}: the process took {wall:.2} s (one stopped at once {at_once:.2} s)"
        );
    }
}

#[test]
fn ctrl_c_reaches_the_drawing_of_a_large_population() {
    let _cores = cores();
    let (path, inst) = random256();
    let child = Command::new(env!("CARGO_BIN_EXE_qapgpu"))
        .args([
            "solve",
            path.to_str().unwrap(),
            "--engine",
            "cpu",
            "--json",
            "--algo",
            "ga-islands",
            "--blocks",
            "65536",
            "--time-limit",
            "60",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    let sent = Instant::now();
    // SAFETY: a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    let after = sent.elapsed().as_secs_f64();
    answer(&out, &inst, "Ctrl-C during the drawing of 65536 subpopulations");
    assert!(after <= 0.5, "Ctrl-C took {after:.2} s to end the run");
}

/// `ulimit -v` and `ulimit -d` in the child, then a population that needs more.
fn under_rlimit(resource: libc::__rlimit_resource_t, bytes: u64, args: &[&str]) -> Output {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_qapgpu"));
    cmd.args(args);
    // SAFETY: setrlimit is async-signal-safe, and the closure touches nothing else.
    unsafe {
        cmd.pre_exec(move || {
            let r = libc::rlimit { rlim_cur: bytes, rlim_max: bytes };
            if libc::setrlimit(resource, &r) == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
        });
    }
    cmd.output().unwrap()
}

#[test]
fn the_memory_check_sees_the_process_limits() {
    let _cores = cores();
    let (path, _) = random256();
    let args = [
        "solve",
        path.to_str().unwrap(),
        "--engine",
        "cpu",
        "--quiet",
        "--algo",
        "ga-independent",
        "--subpop",
        "1024",
        "--blocks",
        "8192",
        "--time-limit",
        "1",
    ];
    let out = under_rlimit(libc::RLIMIT_AS, 2 << 30, &args);
    assert_one_line_error(&out, "ulimit -v", "--subpop 1024 --blocks 8192 under ulimit -v 2G");
    assert_one_line_error(&out, "lower --blocks or --subpop", "--subpop 1024 --blocks 8192 under ulimit -v 2G");
    let out = under_rlimit(libc::RLIMIT_DATA, 2 << 30, &args);
    assert_one_line_error(&out, "ulimit -d", "--subpop 1024 --blocks 8192 under ulimit -d 2G");
    let colony = [
        "solve",
        path.to_str().unwrap(),
        "--engine",
        "cpu",
        "--quiet",
        "--algo",
        "ts",
        "--ants",
        "65536",
        "--time-limit",
        "1",
    ];
    assert_one_line_error(
        &under_rlimit(libc::RLIMIT_AS, 2 << 30, &colony),
        "lower --ants",
        "ts --ants 65536 under ulimit -v 2G",
    );
    let grid = [
        "solve",
        path.to_str().unwrap(),
        "--engine",
        "cpu",
        "--quiet",
        "--algo",
        "cga",
        "--grid",
        "256x256",
        "--time-limit",
        "1",
    ];
    assert_one_line_error(
        &under_rlimit(libc::RLIMIT_AS, 128 << 20, &grid),
        "lower --grid",
        "cga --grid 256x256 under ulimit -v 128M",
    );
}

#[test]
fn zero_counts_of_bench_are_refused() {
    let _cores = cores();
    let out_dir = temp("bench");
    let cases: &[(&[&str], &str)] = &[
        (&["000", "--k", "0"], "--k"),
        (&["000", "--k", "1,0"], "--k"),
        (&["000", "--base-blocks", "0"], "--base-blocks"),
        (&["000", "--k", "4000000000"], "--k"),
        (&["000", "--runs", "0"], "--runs"),
        (&["compare", "--runs", "0"], "--runs"),
        (&["ttt", "--runs", "0"], "--runs"),
        (&["gaps", "--runs", "0"], "--runs"),
        (&["001", "--blocks", "100000"], "--blocks"),
        (&["001", "--single-runs", "100000"], "--single-runs"),
        (&["004", "--generations", "0"], "--generations"),
        (&["001-cpu", "--jobs", "0"], "--jobs"),
        (&["000", "--jobs", "4"], "only 001-cpu"),
    ];
    for (args, needle) in cases {
        let mut all = vec!["bench"];
        all.extend_from_slice(args);
        all.extend([
            "--engine",
            "cpu",
            "--instances",
            "nug12",
            "--time-limit",
            "1",
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        assert_one_line_error(&qapgpu(&all), needle, &args.join(" "));
    }
}
