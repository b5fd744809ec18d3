//! Results are not lost (issue 37, items 2, 5 and 7; issue 41's `--trace`): a closed pipe
//! is a quiet exit, SIGTERM and SIGHUP stop a run as Ctrl-C does, every output path is
//! checked before the search and written through a temporary file and a rename, a problem's
//! target is translated with checked arithmetic, a posed problem's answer that is not valid
//! is a failure, and `--trace` works under `--problem`.
//!
//! `QAPGPU_BIN` runs these cases against another build of `qapgpu` (the one before a fix).
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::{assert_one_line_error, text};

fn qapgpu() -> Command {
    let bin = std::env::var_os("QAPGPU_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_qapgpu").into());
    let mut c = Command::new(bin);
    c.env("QAPLIB_DIR", bundled());
    c
}

/// The instances shipped with the repository (nug12 among them).
fn bundled() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/qaplib")
}

fn run(args: &[&str]) -> Output {
    qapgpu().args(args).output().unwrap()
}

/// A fresh folder for one test.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qapgpu-outputs-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Waits for `child` at most `secs`; kills it and fails past that.
fn wait(mut child: Child, secs: f64, what: &str) -> std::process::ExitStatus {
    let end = Instant::now() + Duration::from_secs_f64(secs);
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A QAPLIB .sln of n = 12 whose permutation is one and whose cost is a number.
fn assert_sln12(path: &Path) {
    let s = std::fs::read_to_string(path).unwrap();
    let nums: Vec<i64> =
        s.split_whitespace().map(|t| t.parse().unwrap_or_else(|_| panic!("{}: `{s}`", path.display()))).collect();
    assert_eq!(nums.len(), 14, "{}: `{s}`", path.display());
    assert_eq!(nums[0], 12);
    let mut perm: Vec<i64> = nums[2..].to_vec();
    perm.sort_unstable();
    assert_eq!(perm, (1..=12).collect::<Vec<_>>(), "{}: `{s}`", path.display());
}

#[test]
fn a_closed_stdout_pipe_is_a_quiet_exit() {
    // `qapgpu pose queens --k 16 | head -c 10`: 260 kB, the reader leaves after 10 bytes.
    let mut child =
        qapgpu().args(["pose", "queens", "--k", "16"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut head = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert!(err.is_empty(), "pose | head: stderr `{err}`");
    assert!(matches!(out.status.code(), Some(0 | 141)), "pose | head: {:?}", out.status);

    // `qapgpu solve nug12 --time-limit 1 | true`, with its .sln written all the same.
    let dir = folder("pipe");
    let sln = dir.join("x.sln");
    let mut child = qapgpu()
        .args([
            "solve",
            "nug12",
            "--engine",
            "cpu",
            "--time-limit",
            "0.5",
            "--target",
            "0",
            "--seed",
            "1",
            "--write-sln",
            sln.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert!(!err.contains("panicked") && !err.contains("error"), "solve | true: stderr `{err}`");
    assert!(matches!(out.status.code(), Some(0 | 141)), "solve | true: {:?} {err}", out.status);
    assert_sln12(&sln);
}

#[test]
fn a_full_stdout_is_a_one_line_error() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = qapgpu()
        .args(["solve", "nug12", "--engine", "cpu", "--quiet", "--time-limit", "0.2", "--seed", "1"])
        .stdout(full)
        .output()
        .unwrap();
    assert_one_line_error(&out, &["standard output"], "solve > /dev/full");
}

/// Spawns a run that only a signal or its time limit ends (its target is 0), with its
/// report in files.
fn long_run(dir: &Path, limit: &str, extra: &[&str], ignore_sighup: bool) -> Child {
    let mut cmd = qapgpu();
    cmd.args(["solve", "nug12", "--engine", "cpu", "--json", "--seed", "1", "--time-limit", limit, "--target", "0"]);
    cmd.args(extra);
    cmd.stdout(std::fs::File::create(dir.join("stdout")).unwrap())
        .stderr(std::fs::File::create(dir.join("stderr")).unwrap());
    if ignore_sighup {
        // As `nohup` starts it.
        // SAFETY: between fork and exec, only sets a signal's disposition.
        unsafe {
            cmd.pre_exec(|| {
                libc::signal(libc::SIGHUP, libc::SIG_IGN);
                Ok(())
            });
        }
    }
    cmd.spawn().unwrap()
}

fn signal(child: &Child, sig: libc::c_int) {
    // SAFETY: signals the child this test spawned and still owns.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, sig) }, 0);
}

#[test]
fn sigterm_and_sighup_print_the_best_so_far_and_write_the_outputs() {
    for (name, sig) in [("SIGTERM", libc::SIGTERM), ("SIGHUP", libc::SIGHUP), ("SIGINT", libc::SIGINT)] {
        let dir = folder(&format!("signal-{name}"));
        let (sln, trace) = (dir.join("best.sln"), dir.join("trace.csv"));
        let child =
            long_run(&dir, "30", &["--write-sln", sln.to_str().unwrap(), "--trace", trace.to_str().unwrap()], false);
        std::thread::sleep(Duration::from_millis(800));
        let sent = Instant::now();
        signal(&child, sig);
        let status = wait(child, 10.0, name);
        let latency = sent.elapsed();
        let (out, err) = (
            std::fs::read_to_string(dir.join("stdout")).unwrap(),
            std::fs::read_to_string(dir.join("stderr")).unwrap(),
        );
        assert!(status.success(), "{name}: {status:?}, stderr `{err}`");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{name}: {e}: `{out}`"));
        assert_eq!(v["interrupted"], true, "{name}: {v}");
        assert_eq!(v["permutation"].as_array().unwrap().len(), 12, "{name}: {v}");
        assert_sln12(&sln);
        assert!(std::fs::read_to_string(&trace).unwrap().starts_with("seconds,best,gap_percent\n"), "{name}");
        // Within 50 ms on an idle machine; a loaded test machine gets more.
        assert!(latency < Duration::from_millis(1000), "{name}: {latency:?}");
    }
}

#[test]
fn a_sighup_ignored_at_start_stays_ignored() {
    // `nohup qapgpu solve …`: a hang-up does not stop the run.
    let dir = folder("nohup");
    let child = long_run(&dir, "1", &[], true);
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, libc::SIGHUP);
    let status = wait(child, 10.0, "nohup");
    let out = std::fs::read_to_string(dir.join("stdout")).unwrap();
    assert!(status.success(), "{status:?}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["interrupted"], false, "{v}");
    assert!(v["elapsed_s"].as_f64().unwrap() > 0.9, "{v}");
}

#[test]
fn output_paths_are_checked_before_the_search() {
    let dir = folder("paths");
    let input = dir.join("mine.dat");
    std::fs::copy(bundled().join("nug12.dat"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let (dat, sln, a_dir) = (input.to_str().unwrap(), dir.join("x.sln"), dir.to_str().unwrap());
    let sln = sln.to_str().unwrap();
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (vec!["--write-sln", "/dev/full"], vec!["--write-sln", "/dev/full"]),
        (vec!["--trace", "/dev/full"], vec!["--trace", "/dev/full"]),
        (vec!["--write-sln", "/nodir/x.sln"], vec!["--write-sln", "/nodir/x.sln"]),
        (vec!["--trace", "/nodir/t.csv"], vec!["--trace", "/nodir/t.csv"]),
        (vec!["--write-sln", a_dir], vec!["--write-sln", a_dir, "folder"]),
        (vec!["--write-sln", dat], vec!["--write-sln", "input"]),
        (vec!["--write-sln", sln, "--trace", sln], vec!["--trace", "--write-sln"]),
    ];
    for (extra, needles) in &cases {
        let mut args = vec!["solve", dat, "--engine", "cpu", "--quiet", "--time-limit", "60", "--target", "0"];
        args.extend(extra);
        let started = Instant::now();
        let out = run(&args);
        let what = extra.join(" ");
        assert_one_line_error(&out, needles, &what);
        assert!(out.stdout.is_empty(), "{what}");
        // Not after a 60-s search.
        assert!(started.elapsed() < Duration::from_secs(10), "{what}: {:?}", started.elapsed());
    }
    assert_eq!(std::fs::read(&input).unwrap(), before, "the input is untouched");
    // A posed problem's outputs and `pose --output`.
    let out = run(&[
        "solve",
        "--problem",
        "queens",
        "--k",
        "8",
        "--engine",
        "cpu",
        "--quiet",
        "--time-limit",
        "60",
        "--write-sln",
        "/nodir/q.sln",
    ]);
    assert_one_line_error(&out, &["--write-sln", "/nodir/q.sln"], "--problem --write-sln /nodir");
    let out = run(&["pose", "queens", "--k", "8", "--output", "/dev/full"]);
    assert_one_line_error(&out, &["--output", "/dev/full"], "pose --output /dev/full");
    let graph = dir.join("c4.txt");
    std::fs::write(&graph, "p edge 4 4\ne 1 2\ne 2 3\ne 3 4\ne 4 1\n").unwrap();
    let out = run(&["pose", "gpp", graph.to_str().unwrap(), "--output", graph.to_str().unwrap()]);
    assert_one_line_error(&out, &["--output", "input"], "pose --output FILE");
    // /dev/null and /dev/stdout are outputs (written directly).
    let out = run(&[
        "solve",
        "nug12",
        "--engine",
        "cpu",
        "--quiet",
        "--time-limit",
        "0.2",
        "--seed",
        "1",
        "--write-sln",
        "/dev/stdout",
        "--trace",
        "/dev/null",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("12 "), "the .sln comes first: {}", text(&out.stdout));
}

#[test]
fn a_read_only_folder_is_refused_before_the_search() {
    use std::os::unix::fs::PermissionsExt;
    let dir = folder("read-only");
    let sln = dir.join("x.sln");
    // The instance and the binary where `nobody` can read them: a clone may sit in a
    // folder only root enters (CI's `mktemp -d`).
    let open = folder("read-only-inputs");
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
    let dat = open.join("nug12.dat");
    std::fs::copy(bundled().join("nug12.dat"), &dat).unwrap();
    let args = [
        "solve",
        dat.to_str().unwrap(),
        "--engine",
        "cpu",
        "--quiet",
        "--time-limit",
        "60",
        "--target",
        "0",
        "--write-sln",
        sln.to_str().unwrap(),
    ];
    // Root writes into any folder whatever its permissions: as root the case runs as
    // `nobody` through setpriv, and is skipped where there is no setpriv.
    // SAFETY: reads the effective user id.
    let mut cmd = if unsafe { libc::geteuid() } != 0 {
        qapgpu()
    } else if Command::new("setpriv").arg("--version").output().is_ok_and(|o| o.status.success()) {
        let bin = open.join("qapgpu");
        std::fs::copy(std::env::var_os("QAPGPU_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_qapgpu").into()), &bin)
            .unwrap();
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"]).arg(bin).env("QAPLIB_DIR", bundled());
        c
    } else {
        eprintln!("skipped: running as root, which ignores a folder's permissions, and no setpriv to drop them");
        return;
    };
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    let out = cmd.args(args).output().unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let _ = std::fs::remove_dir_all(&open);
    assert_one_line_error(&out, &["--write-sln", sln.to_str().unwrap()], "read-only folder");
}

#[test]
fn outputs_are_replaced_whole_never_written_in_place() {
    let dir = folder("replace");
    let sln = dir.join("best.sln");
    std::fs::write(&sln, "previous\n").unwrap();
    // A second name for the previous file: an in-place write would change it too.
    std::fs::hard_link(&sln, dir.join("previous.sln")).unwrap();
    let out = run(&[
        "solve",
        "nug12",
        "--engine",
        "cpu",
        "--quiet",
        "--time-limit",
        "0.2",
        "--seed",
        "1",
        "--write-sln",
        sln.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_sln12(&sln);
    assert_eq!(std::fs::read_to_string(dir.join("previous.sln")).unwrap(), "previous\n");
    // Processes writing one path leave one whole file, and no temporary files.
    let shared = dir.join("shared.sln");
    for round in 0..4 {
        let children: Vec<Child> = (0..4)
            .map(|k| {
                let seed = (round * 4 + k).to_string();
                qapgpu()
                    .args([
                        "solve",
                        "nug12",
                        "--engine",
                        "cpu",
                        "--quiet",
                        "--time-limit",
                        "0.05",
                        "--target",
                        "0",
                        "--seed",
                        &seed,
                        "--write-sln",
                        shared.to_str().unwrap(),
                    ])
                    .stdout(Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            assert!(wait(c, 20.0, "concurrent writer").success());
        }
        assert_sln12(&shared);
    }
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_write_that_fails_after_the_search_still_prints_the_result() {
    let dir = folder("late-failure");
    let sln = dir.join("x.sln");
    let child = qapgpu()
        .args([
            "solve",
            "nug12",
            "--engine",
            "cpu",
            "--json",
            "--time-limit",
            "1",
            "--target",
            "0",
            "--seed",
            "1",
            "--write-sln",
            sln.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The path was checked; during the search it becomes a folder that is not empty.
    std::thread::sleep(Duration::from_millis(300));
    std::fs::create_dir_all(sln.join("in-the-way")).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_one_line_error(&out, &["--write-sln", sln.to_str().unwrap()], "late failure");
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: `{}`", text(&out.stdout)));
    assert_eq!(v["permutation"].as_array().unwrap().len(), 12, "{v}");
}

#[test]
fn a_problem_target_out_of_range_is_refused() {
    let dir = folder("gpp-target");
    let graph = dir.join("c4.txt");
    std::fs::write(&graph, "p edge 4 4\ne 1 2\ne 2 3\ne 3 4\ne 4 1\n").unwrap();
    for (option, value) in
        [("--target", "9223372036854775807"), ("--target", "-9223372036854775808"), ("--known", "9223372036854775807")]
    {
        let out = run(&[
            "solve",
            "--problem",
            "gpp",
            graph.to_str().unwrap(),
            "--engine",
            "cpu",
            "--quiet",
            "--time-limit",
            "5",
            option,
            value,
        ]);
        assert_one_line_error(&out, &[option, "out of range"], &format!("{option} {value}"));
    }
    // In range, the cut is the target: 2 for the 4-cycle.
    let out = run(&[
        "solve",
        "--problem",
        "gpp",
        graph.to_str().unwrap(),
        "--engine",
        "cpu",
        "--json",
        "--time-limit",
        "5",
        "--target",
        "2",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((&v["answer"]["measure"], &v["answer"]["value"]), (&"cut".into(), &2.into()), "{v}");
}

#[test]
fn a_posed_answer_that_is_not_valid_exits_non_zero_saying_why() {
    // A closed knight's tour of 256 squares is not found in 0.2 s.
    let out = run(&[
        "solve",
        "--problem",
        "knight",
        "--k",
        "16",
        "--engine",
        "cpu",
        "--quiet",
        "--time-limit",
        "0.2",
        "--seed",
        "1",
    ]);
    assert_one_line_error(&out, &["knight", "not valid", "not a knight move"], "knight 16 in 0.2 s");
    let report = text(&out.stdout);
    assert!(
        report.contains("NOT valid") && report.contains("permutation"),
        "the best found is printed first: {report}"
    );
}

#[test]
fn trace_works_under_problem() {
    let dir = folder("problem-trace");
    let trace = dir.join("queens.csv");
    let out = run(&[
        "solve",
        "--problem",
        "queens",
        "--k",
        "8",
        "--engine",
        "cpu",
        "--quiet",
        "--seed",
        "3",
        "--time-limit",
        "10",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let csv = std::fs::read_to_string(&trace).unwrap();
    assert!(csv.starts_with("seconds,best,gap_percent\n") && csv.lines().count() >= 2, "{csv}");
    assert!(
        csv.trim_end().ends_with(",0,") || csv.trim_end().ends_with(",0"),
        "the last point is the valid placement (cost 0): {csv}"
    );
    // A clique search solves one QAP for each k: refused, not ignored.
    let graph = dir.join("k4.txt");
    std::fs::write(&graph, "p edge 4 6\ne 1 2\ne 1 3\ne 1 4\ne 2 3\ne 2 4\ne 3 4\n").unwrap();
    let out = run(&[
        "solve",
        "--problem",
        "clique",
        graph.to_str().unwrap(),
        "--engine",
        "cpu",
        "--quiet",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_one_line_error(&out, &["--trace"], "clique search --trace");
}
