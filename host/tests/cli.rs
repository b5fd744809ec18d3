//! The command line: the default job, JSON output, and one-line errors for bad files.
use std::process::Command;

fn host() -> Command {
    Command::new(env!("CARGO_BIN_EXE_qapgpu"))
}

#[test]
fn default_job_solves_the_embedded_instance_and_prints_json() {
    let out = host().args(["--engine", "cpu", "--json", "--seed", "4", "--time-limit", "60"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "instance",
        "n",
        "algorithm",
        "engine",
        "device",
        "seed",
        "cost",
        "permutation",
        "target",
        "time_to_target_s",
        "elapsed_s",
    ] {
        assert!(v.get(key).is_some(), "missing {key} in {v}");
    }
    assert_eq!(v["instance"], "planted24");
    assert_eq!(v["cost"], v["target"], "the planted optimum is reached: {v}");
    assert_eq!(v["permutation"].as_array().unwrap().len(), 24);
}

#[test]
fn bad_files_give_one_line_errors_naming_the_file() {
    let dir = std::env::temp_dir().join(format!("qapgpu-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("empty.dat", "", "empty file"),
        ("word.dat", "2 0 1 1 0 0 1 one 0", "is not an integer"),
        ("zero.dat", "0", "n = 0"),
        ("big.dat", "2049", "exceeds the limit of 2048"),
        ("short.dat", "2 0 1 1 0 0 1 1", "expected 1 + 2·n² = 9 numbers"),
        ("range.dat", "2 0 1 1 0 0 5000000000 1 0", "out of range"),
    ];
    for (name, text, needle) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = host().arg(&path).args(["--engine", "cpu", "--quiet"]).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: one line, got {err}");
        assert!(err.contains(&path.display().to_string()) && err.contains(needle), "{name}: {err}");
    }
    let missing = host().arg(dir.join("missing.dat")).args(["--engine", "cpu"]).output().unwrap();
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"));
}

#[test]
fn the_cellular_ga_reaches_the_optimum_of_els19_on_the_cpu() {
    let out = host()
        .args([
            "els19",
            "--algo",
            "cga",
            "--engine",
            "cpu",
            "--json",
            "--seed",
            "2",
            "--max-generations",
            "100",
            "--time-limit",
            "60",
        ])
        .env("QAPLIB_DIR", qapgpu::io::qaplib::qaplib_dir())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["cost"], 17212548, "{v}");
    assert!(v["found_at_iteration"].as_u64().is_some_and(|g| g <= 100), "{v}");
}

#[test]
fn ctrl_c_stops_a_long_local_search_and_prints_the_best_so_far() {
    // One local search of 2³¹ − 1 iterations: only the stop word can end it in time.
    let child = host()
        .args([
            "nug12",
            "--algo",
            "aco-ts",
            "--engine",
            "cpu",
            "--json",
            "--seed",
            "1",
            "--ls-iterations",
            "2147483647",
            "--time-limit",
            "60",
            "--target",
            "0",
        ])
        .env("QAPLIB_DIR", qapgpu::io::qaplib::qaplib_dir())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: signals the child this test spawned and still owns.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["interrupted"], true, "{v}");
    assert_eq!(v["permutation"].as_array().unwrap().len(), 12);
    // Search started after start-up, so it ran for less than the 1.5 s before the signal,
    // plus the stop's latency.
    assert!(v["elapsed_s"].as_f64().unwrap() < 1.55, "{v}");
}

#[test]
fn problems_are_solved_decoded_and_checked() {
    let out = host()
        .args(["solve", "--problem", "queens", "--k", "8", "--engine", "cpu", "--seed", "3", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["answer"]["valid"], true, "{v}");
    assert_eq!(v["answer"]["squares"].as_array().unwrap().len(), 8);
    assert_eq!(v["qap"]["cost"], 0);

    let tsp = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/problems/grid24.tsp");
    let out = host()
        .args(["solve", "--problem", "tsp", tsp, "--known", "240", "--engine", "cpu", "--seed", "1", "--quiet"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("tour_length      240") && text.contains("valid (checked"), "{text}");
}

#[test]
fn pose_writes_a_qaplib_file_that_reads_back() {
    let dir = std::env::temp_dir().join(format!("qapgpu-pose-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dat = dir.join("knight6.dat");
    let out = host().args(["pose", "knight", "--k", "6", "-o"]).arg(&dat).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The posed file solves as any QAPLIB file: a closed tour costs 0.
    let out = host().arg(&dat).args(["--engine", "cpu", "--target", "0", "--seed", "2", "--json"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["n"].as_u64(), v["cost"].as_i64()), (Some(36), Some(0)), "{v}");
}

#[test]
fn bad_problem_inputs_give_one_line_errors_naming_the_file_and_problem() {
    let dir = std::env::temp_dir().join(format!("qapgpu-prob-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("tsp", "bad.tsp", "NAME: x\nTYPE: TSP\nDIMENSION: 999\n", "DIMENSION 999"),
        ("clique", "bad.clq", "p edge 4 1\ne 1 9\n", "larger than the 4"),
        ("lap", "bad.txt", "1 two\n", "not a vertex number"),
        ("gpp", "odd.txt", "1 2\n2 3\n", "equal parts"),
    ];
    for (problem, name, text, needle) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = host()
            .args(["solve", "--problem", problem])
            .arg(&path)
            .args(["--engine", "cpu", "--quiet"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: one line, got {err}");
        assert!(err.contains(problem) && err.contains(needle), "{name}: {err}");
        if problem != "gpp" {
            assert!(err.contains(&path.display().to_string()), "{name}: {err}");
        }
    }
    let out = host().args(["solve", "--problem", "queens", "--k", "20", "--engine", "cpu"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(1) && err.contains("--k") && err.contains("2..=16"), "{err}");
}

#[test]
fn trace_writes_the_convergence_as_csv_ending_at_the_reported_cost() {
    let dir = std::env::temp_dir().join(format!("qapgpu-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("trace.csv");
    let out = host()
        .args(["--engine", "cpu", "--json", "--seed", "4", "--time-limit", "60", "--trace"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("seconds,best,gap_percent"));
    let rows: Vec<(f64, i64)> = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 3, "{l}");
            (f[0].parse().unwrap(), f[1].parse().unwrap())
        })
        .collect();
    assert!(!rows.is_empty(), "{text}");
    assert!(rows.windows(2).all(|w| w[0].0 <= w[1].0 && w[1].1 < w[0].1), "times rise and costs fall: {text}");
    assert_eq!(rows.last().unwrap().1, v["cost"].as_i64().unwrap(), "{text}");

    let bad = host()
        .args(["--engine", "cpu", "--quiet", "--trace"])
        .arg(dir.join("no-such-dir").join("t.csv"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.trim_end().lines().count() == 1 && err.contains("--trace") && err.contains("no-such-dir"), "{err}");
}

/// A setting of the GAs or the cellular GA given to another family would be ignored: the
/// run is refused in one line naming the option and the family that would have run
/// (`auto`'s choice included); the families that read it take it.
#[test]
fn another_familys_settings_are_refused_in_one_line() {
    let refused = [
        (&["--algo", "ts", "--crossover", "ox"][..], "--crossover", "ts"),
        (&["--crossover", "ox"], "--crossover", "not ts (auto's choice for planted24)"),
        (&["--algo", "aco-ts", "--grid", "4x4"], "--grid", "aco-ts"),
        (&["--algo", "memetic", "--migration-fraction", "0.05"], "--migration-fraction", "memetic"),
        (&["--algo", "cga", "--subpop", "64"], "--subpop", "cga"),
        (&["--algo", "ga-islands", "--ls", "record"], "--ls", "ga-islands"),
        (&["--algo", "ts", "--pm", "0.2"], "--pm", "and cga read it, not ts"),
        (&["--algo", "ts", "--blocks", "8"], "--blocks", "not ts; --ants sets the walks of ts"),
        (&["--algo", "cga", "--blocks", "8"], "--blocks", "ga-islands read it, not cga"),
        (&["--algo", "ga-independent", "--migration-fraction", "0.5"], "--migration-fraction", "ga-independent"),
        (&["--algo", "aco-ts", "--regroup-keep", "0.5"], "--regroup-keep", "aco-ts"),
        (&["--algo", "aco-ts", "--ls", "2opt"], "--ls", "--algo aco-2opt"),
        (&["--problem", "queens", "--k", "8", "--grid", "4x4"], "--grid", "not auto"),
    ];
    for (args, option, family) in refused {
        let out = host().args(["solve", "--engine", "cpu", "--time-limit", "0.2", "-q"]).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(option) && err.contains(family), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: no search, no report");
    }
    let taken = [
        &["--algo", "ga-islands", "--crossover", "ox", "--migration-fraction", "0.05"][..],
        &["--algo", "cga", "--pm", "0.05", "--grid", "4x4"],
        &["--algo", "ts", "--crossover", "pmx"],
        &["--algo", "ts", "--ants", "4"],
        &["--algo", "ga-independent", "--restart-interval", "100"],
        &["--problem", "queens", "--k", "8", "--algo", "cga", "--grid", "4x4"],
    ];
    for args in taken {
        let out = host().args(["solve", "--engine", "cpu", "--time-limit", "0.2", "-q"]).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
