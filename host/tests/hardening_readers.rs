//! The readers' part of issue 37's sweep, each defect as a case that failed before its fix:
//! special files (devices, FIFOs, endless pipes) are refused or read no further than n
//! allows, never grown into memory or waited on; the first number is read whole across the
//! 4 KiB header window; a second TSPLIB DIMENSION is an error; an engine's missing
//! permutation is an error, not a panic; a best-known value of another n is not used, and
//! the report says where the one used came from; `bench gaps` stops on an unreadable
//! instance; file names need not be UTF-8. Every run has a deadline, so a hang fails the
//! test instead of stalling the suite.
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn qapgpu() -> Command {
    Command::new(env!("CARGO_BIN_EXE_qapgpu"))
}

/// A fresh folder of this test process for `case`.
fn folder(case: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qapgpu-readers-{}-{case}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The bundled QAPLIB folder (the tests run without ../shared).
fn bundled(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/qaplib").join(file)
}

/// Waits for `child` at most `secs` seconds; past them it is killed and the test fails.
fn finish(mut child: Child, secs: u64, what: &str) -> Output {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {secs} s (killed)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Runs `cmd` (stdin closed) with a deadline.
fn run(mut cmd: Command, secs: u64, what: &str) -> Output {
    let child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    finish(child, secs, what)
}

/// Exit code 1 or 2 (not a panic's 101, not a signal), one line on stderr containing every
/// needle.
fn assert_one_line_error(out: &Output, needles: &[&str], what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(1 | 2)), "{what}: exit {:?}, stderr {err}", out.status);
    assert_eq!(err.trim_end().lines().count(), 1, "{what}: one line, got {err}");
    for needle in needles {
        assert!(err.contains(needle), "{what}: `{err}` should mention `{needle}`");
    }
}

/// A random n×n `.dat` text (entries 0..9), after `lead`.
fn dat_text(lead: &str, n: usize) -> String {
    let mut x = 12345u64;
    let mut s = format!("{lead}{n}\n");
    for _ in 0..2 * n {
        let row: Vec<String> = (0..n)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((x >> 33) % 10).to_string()
            })
            .collect();
        s += &(row.join(" ") + "\n");
    }
    s
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
}

/// Issue 37, item 1: `/dev/zero` and `/dev/urandom`, named or through a link, for every
/// reader: refused at once as devices (they grew to 23.7 GB before).
#[cfg(unix)]
#[test]
fn devices_are_refused_unread_by_every_reader() {
    let dir = folder("devices");
    let link = dir.join("zero.dat");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let link = link.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["solve", "/dev/zero"],
        &["solve", "/dev/urandom"],
        &["solve", link],
        &["solve", "--problem", "tsp", "/dev/zero"],
        &["solve", "--problem", "lap", "/dev/zero"],
        &["solve", "--problem", "gpp", "/dev/urandom"],
        &["bench", "compare", "--instances", "/dev/zero", "--runs", "1"],
    ];
    for args in cases {
        let mut cmd = qapgpu();
        cmd.args(*args).args(["--engine", "cpu", "--time-limit", "1"]).current_dir(&dir);
        let out = run(cmd, 20, &args.join(" "));
        let file = args.iter().find(|a| a.starts_with('/')).unwrap();
        assert_one_line_error(&out, &[file, "is a device, not a file"], &args.join(" "));
    }
}

/// Issue 37, item 1: a FIFO that no one writes to blocked `solve` and `bench gaps`
/// forever; it is refused without being opened.
#[cfg(unix)]
#[test]
fn a_named_pipe_is_refused_without_waiting_for_a_writer() {
    let dir = folder("fifo");
    let fifo = dir.join("f.dat");
    mkfifo(&fifo);
    let mut cmd = qapgpu();
    cmd.args(["solve", "f.dat", "--engine", "cpu", "--time-limit", "1"]).current_dir(&dir);
    assert_one_line_error(&run(cmd, 20, "solve f.dat"), &["f.dat", "is a named pipe (FIFO)"], "solve FIFO");
    // In the QAPLIB folder, beside a good instance and a link to a device: bench gaps names
    // both and stops.
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.dat")).unwrap();
    std::fs::copy(bundled("nug12.dat"), dir.join("nug12.dat")).unwrap();
    std::fs::copy(bundled("bks.csv"), dir.join("bks.csv")).unwrap();
    let mut cmd = qapgpu();
    cmd.args(["bench", "gaps", "--engine", "cpu", "--runs", "1", "--time-limit", "0.2", "--algos", "ts", "--out"])
        .arg(dir.join("out"))
        .env("QAPLIB_DIR", &dir);
    assert_one_line_error(
        &run(cmd, 60, "bench gaps with a FIFO"),
        &["f.dat: is a named pipe (FIFO)", "zero.dat: is a device"],
        "bench gaps FIFO",
    );
}

/// Issue 37, item 1: `(echo 256; yes 1) | qapgpu solve /dev/stdin` read without end; it
/// stops at the bound n = 256 allows (8 MiB and a little), with an error.
#[cfg(unix)]
#[test]
fn an_endless_pipe_stops_at_the_bound_of_its_n() {
    use std::io::Write;
    let mut child = qapgpu()
        .args(["solve", "/dev/stdin", "--engine", "cpu", "--time-limit", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // As `(echo 256; yes 1)`, up to 64 MiB (what the unbounded reader took until it ended).
    let writer = std::thread::spawn(move || {
        let chunk = "1\n".repeat(32 << 10);
        let mut sent = stdin.write(b"256\n").unwrap_or(0);
        while sent < 64 << 20 {
            match stdin.write_all(chunk.as_bytes()) {
                Ok(()) => sent += chunk.len(),
                Err(_) => break,
            }
        }
        sent
    });
    let out = finish(child, 60, "endless pipe");
    let sent = writer.join().unwrap();
    assert_one_line_error(
        &out,
        &["/dev/stdin", "longer than the 8392768 bytes that 131073 numbers for n = 256 can take"],
        "endless pipe",
    );
    assert!(sent < 12 << 20, "{sent} bytes were taken from the pipe: the bound is 8392768 and a pipe's buffer");
}

/// A `.dat` piped to `/dev/stdin` (or a shell's `<(…)`) is still read: pipes are refused
/// only past their bound.
#[cfg(unix)]
#[test]
fn a_dat_file_through_a_pipe_is_read() {
    use std::io::Write;
    let mut child = qapgpu()
        .args(["solve", "/dev/stdin", "--engine", "cpu", "--time-limit", "5", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&std::fs::read(bundled("nug12.dat")).unwrap()).unwrap();
    let out = finish(child, 60, "nug12 through a pipe");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["n"], 12);
}

/// Issue 37, item 7: with 4,094 blanks before it, the 256 of an n = 256 file crossed the
/// 4 KiB window and read as 25.
#[test]
fn a_first_number_across_the_4_kib_window_is_read_whole() {
    let dir = folder("window");
    for blanks in [4093, 4094, 4095, 4096] {
        let path = dir.join(format!("lead{blanks}.dat"));
        std::fs::write(&path, dat_text(&" ".repeat(blanks), 256)).unwrap();
        let inst = qapgpu::io::qaplib::read_dat(&path).unwrap_or_else(|e| panic!("{blanks} blanks: {e}"));
        assert_eq!(inst.n, 256, "{blanks} blanks");
    }
    // More blanks than the window is no QAPLIB file.
    let path = dir.join("lead5000.dat");
    std::fs::write(&path, dat_text(&" ".repeat(5000), 256)).unwrap();
    let e = qapgpu::io::qaplib::read_dat(&path).unwrap_err();
    assert!(e.to_string().contains("no number in the first 4 KiB"), "{e}");
}

/// Issue 37, item 2: a TSPLIB DIMENSION repeated after the coordinates panicked (index out
/// of bounds) where it grew, and dropped cities silently where it shrank; a second
/// DIMENSION is now an error naming the file, the line and the conflict.
#[test]
fn a_second_tsplib_dimension_is_an_error_naming_the_file() {
    let dir = folder("tsplib");
    let cities: String = (1..=8).map(|i| format!("{i} {} {}\n", i % 4, i / 4)).collect();
    let text = |again: &str| {
        format!(
            "NAME : t\nTYPE : TSP\nDIMENSION : 8\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n{cities}{again}EOF\n"
        )
    };
    for (again, needle) in [
        ("DIMENSION : 10\n", "DIMENSION 10 contradicts the DIMENSION 8"),
        ("DIMENSION : 6\n", "DIMENSION 6 contradicts the DIMENSION 8"),
    ] {
        let path = dir.join("t.tsp");
        std::fs::write(&path, text(again)).unwrap();
        let e = qapgpu::problems::tsplib::read(&path).unwrap_err().to_string();
        assert!(e.contains(needle) && e.contains("t.tsp") && !e.contains('\n'), "{again}: {e}");
        let out = run(
            {
                let mut c = qapgpu();
                c.args(["solve", "--problem", "tsp"]).arg(&path).args(["--engine", "cpu", "--time-limit", "1"]);
                c
            },
            30,
            again,
        );
        assert_one_line_error(&out, &[needle], again);
    }
    // The same DIMENSION again is no less out of place.
    let path = dir.join("same.tsp");
    std::fs::write(&path, text("DIMENSION : 8\n")).unwrap();
    let e = qapgpu::problems::tsplib::read(&path).unwrap_err().to_string();
    assert!(e.contains("same.tsp: line 14: DIMENSION 8 repeats"), "{e}");
    // Once, before the sections, as TSPLIB has it.
    std::fs::write(&path, text("")).unwrap();
    assert_eq!(qapgpu::problems::tsplib::read(&path).unwrap().n, 8);
}

/// Issue 37, item 2: `bench compare … --time-limit 1e-9` hit the assertion of
/// `Instance::cost` when an engine stopped before it had a permutation (ga-islands); the
/// bench now checks what came back, as `solve` does. (Whether an engine returns its best
/// initial solution for so short a limit is the engines' part of the issue: a valid run or
/// a one-line error both pass here, a panic does not.)
#[test]
fn a_missing_permutation_is_an_error_not_a_panic() {
    let inst = qapgpu::io::qaplib::read_dat(&bundled("nug12.dat")).unwrap();
    let e = inst.checked_cost::<u16>(&[]).unwrap_err();
    assert!(e.to_string().contains("no permutation for nug12 (n = 12)"), "{e}");
    assert!(inst.checked_cost(&[0u16; 12]).is_err());
    assert_eq!(inst.checked_cost(&(0..12).collect::<Vec<u8>>()).unwrap(), inst.cost(&(0..12).collect::<Vec<u8>>()));
    let dir = folder("tiny-limit");
    let mut cmd = qapgpu();
    cmd.args(["bench", "compare", "--instances"])
        .arg(bundled("tai100a.dat"))
        .args(["--algos", "ga-islands", "--runs", "1", "--time-limit", "1e-9", "--engine", "cpu", "--out"])
        .arg(dir.join("out"));
    let out = run(cmd, 60, "bench compare 1e-9");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked") && out.status.code() != Some(101), "{err}");
    if !out.status.success() {
        assert_one_line_error(&out, &["ga-islands returned"], "bench compare 1e-9");
    }
}

/// Issue 37, item 6: a user's own 6×6 `nug12.dat` took QAPLIB's nug12 value (n = 12) from
/// bks.csv, said "target 578 reached" and a gap of −56.7 %. A value of another n is passed
/// over with a note; the one used is reported with its file.
#[test]
fn a_best_known_value_of_another_n_is_not_used() {
    let dir = folder("bks");
    std::fs::write(dir.join("nug12.dat"), dat_text("", 6)).unwrap();
    std::fs::write(dir.join("bks.csv"), "instance,n,best_known,proven_optimal\nnug12,12,578,yes\n").unwrap();
    let solve = |extra: &[&str]| {
        let mut cmd = qapgpu();
        cmd.args(["solve", "nug12.dat", "--engine", "cpu", "--time-limit", "0.3", "--seed", "1"])
            .args(extra)
            .current_dir(&dir)
            .env("QAPLIB_DIR", &dir);
        run(cmd, 30, "user's nug12")
    };
    let out = solve(&["--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["best_known", "target", "gap_percent", "best_known_source"] {
        assert!(v[key].is_null(), "{key} should be null: {v}");
    }
    let out = solve(&[]);
    let (text, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!text.contains("578") && !text.contains("gap -"), "{text}");
    assert!(
        err.contains("nug12 has n = 12 there, but this nug12 has n = 6: its best-known value 578 is not used"),
        "{err}"
    );
    // A .sln of another n is passed over too; one of the right n is used, and named.
    std::fs::write(dir.join("nug12.sln"), "12 578\n1 2 3 4 5 6 7 8 9 10 11 12\n").unwrap();
    let v: serde_json::Value = serde_json::from_slice(&solve(&["--json"]).stdout).unwrap();
    assert!(v["best_known"].is_null(), "{v}");
    std::fs::write(dir.join("bks.csv"), "instance,n,best_known,proven_optimal\nnug12,12,578,yes\nnug12,6,1,no\n")
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&solve(&["--json"]).stdout).unwrap();
    assert_eq!(v["best_known"], 1, "{v}");
    assert!(v["best_known_source"].as_str().is_some_and(|s| s.ends_with("bks.csv")), "{v}");
    let text = String::from_utf8_lossy(&solve(&["--known", "1"]).stdout).into_owned();
    assert!(text.contains("to best known 1, from --known"), "{text}");
    // The library's look-up says the same.
    let path = dir.join("nug12.dat");
    let inst = qapgpu::io::qaplib::read_dat(&path).unwrap();
    let found = qapgpu::io::qaplib::best_known(&path, &inst).found.unwrap();
    assert_eq!((found.value, found.source), (1, dir.join("bks.csv")));
}

/// Issue 37, item 7: `bench gaps` left unreadable instances out (and printed NaN means
/// over none) with exit 0. It reads every instance of the folder first and stops, naming
/// each file it cannot read; a folder with nothing to measure is an error too.
#[test]
fn bench_gaps_stops_on_an_unreadable_instance() {
    let dir = folder("gaps");
    std::fs::copy(bundled("nug12.dat"), dir.join("nug12.dat")).unwrap();
    std::fs::copy(bundled("bks.csv"), dir.join("bks.csv")).unwrap();
    std::fs::write(dir.join("broken.dat"), "5\n1 2\n").unwrap();
    let gaps = || {
        let mut cmd = qapgpu();
        cmd.args(["bench", "gaps", "--engine", "cpu", "--runs", "1", "--time-limit", "0.2", "--algos", "ts", "--out"])
            .arg(dir.join("out"))
            .env("QAPLIB_DIR", &dir);
        run(cmd, 60, "bench gaps")
    };
    assert_one_line_error(
        &gaps(),
        &["broken.dat", "expected 1 + 2·n² = 51 numbers", "cannot be read"],
        "bench gaps, broken file",
    );
    std::fs::remove_file(dir.join("broken.dat")).unwrap();
    let out = gaps();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("NaN"), "{}", String::from_utf8_lossy(&out.stdout));
    std::fs::remove_file(dir.join("nug12.dat")).unwrap();
    assert_one_line_error(&gaps(), &["no instance with a best-known value"], "bench gaps, empty folder");
}

/// Issue 37, item 7: file names that are not UTF-8 were refused by the argument parser.
#[cfg(unix)]
#[test]
fn file_names_need_not_be_utf8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = folder("names");
    let dat = dir.join(OsStr::from_bytes(b"\xffnug.dat"));
    std::fs::copy(bundled("nug12.dat"), &dat).unwrap();
    std::fs::copy(bundled("nug12.sln"), dir.join(OsStr::from_bytes(b"\xffnug.sln"))).unwrap();
    let mut cmd = qapgpu();
    cmd.arg("solve").arg(&dat).args(["--engine", "cpu", "--time-limit", "5", "--json"]);
    let out = run(cmd, 60, "solve, non-UTF-8 name");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["best_known"], 578, "from the .sln of the same name: {v}");
    let mut cmd = qapgpu();
    cmd.args([
        "bench",
        "compare",
        "--algos",
        "ts",
        "--runs",
        "1",
        "--time-limit",
        "2",
        "--engine",
        "cpu",
        "--instances",
    ])
    .arg(&dat)
    .arg("--out")
    .arg(dir.join("out"));
    let out = run(cmd, 60, "bench compare, non-UTF-8 name");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let tsp = dir.join(OsStr::from_bytes(b"\xfe.tsp"));
    std::fs::write(
        &tsp,
        "TYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n3 1 1\n4 0 1\nEOF\n",
    )
    .unwrap();
    let mut cmd = qapgpu();
    cmd.args(["solve", "--problem", "tsp"]).arg(&tsp).args(["--engine", "cpu", "--time-limit", "2", "--quiet"]);
    let out = run(cmd, 60, "solve --problem tsp, non-UTF-8 name");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // An error names such a file too, in one line.
    let missing = dir.join(OsStr::from_bytes(b"\xfdmissing.dat"));
    let mut cmd = qapgpu();
    cmd.arg("solve").arg(&missing).args(["--engine", "cpu"]);
    assert_one_line_error(
        &run(cmd, 30, "missing non-UTF-8 name"),
        &["missing.dat", "cannot read"],
        "missing non-UTF-8 name",
    );
}
