//! `qapgpu solve-batch` (issue 39, item 5): inputs from files, folders and lists, the rows on
//! stdout as a table or JSON lines, `--out` as CSV or JSON lines written whole, and the
//! project's bar for bad input (one line naming the file or option, no panic), a closed pipe
//! and Ctrl-C. Everything runs on the CPU engine with the instances the repository ships.
use qapgpu::io::qaplib;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::text;

/// The small shipped instances (n ≤ 20) the tests solve.
const SMALL: [&str; 8] = ["chr12a", "had12", "nug12", "tai12b", "esc16a", "els19", "had20", "tai20b"];

fn qapgpu() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_qapgpu"));
    c.env("QAPLIB_DIR", bundled());
    c
}

/// The instances shipped with the repository.
fn bundled() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/qaplib")
}

/// A fresh folder for one test.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qapgpu-batch-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A folder holding copies of `names` from the shipped instances, with the shipped bks.csv.
fn small_folder(test: &str, names: &[&str]) -> PathBuf {
    let dir = folder(test).join("instances");
    std::fs::create_dir_all(&dir).unwrap();
    for name in names {
        std::fs::copy(bundled().join(format!("{name}.dat")), dir.join(format!("{name}.dat"))).unwrap();
    }
    std::fs::copy(bundled().join("bks.csv"), dir.join("bks.csv")).unwrap();
    dir
}

/// `solve-batch` on the CPU engine with a short limit (unless `args` set one), then `args`.
fn batch(args: &[&str]) -> Command {
    let mut c = qapgpu();
    c.args(["solve-batch", "--engine", "cpu", "--seed", "7"]);
    if !args.contains(&"--time-limit") {
        c.args(["--time-limit", "0.3"]);
    }
    c.args(args);
    c
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Exit 1 or 2, one line on stderr holding every needle, nothing on stdout, no panic.
fn assert_one_line_error(out: &Output, needles: &[&str], what: &str) {
    support::assert_one_line_error(out, needles, what);
    assert!(out.stdout.is_empty(), "{what}: stdout `{}`", text(&out.stdout));
}

/// Checks one JSON row against its file: a permutation of the instance's n whose cost is
/// the row's, recomputed here.
fn check_row(v: &serde_json::Value) -> (String, i64) {
    let file = v["file"].as_str().unwrap_or_else(|| panic!("no file in {v}"));
    let inst = qaplib::read_dat(Path::new(file)).unwrap();
    let perm: Vec<u8> = v["permutation"].as_array().unwrap().iter().map(|g| (g.as_u64().unwrap() - 1) as u8).collect();
    let mut seen = perm.clone();
    seen.sort_unstable();
    assert_eq!(seen, (0..inst.n as u8).collect::<Vec<_>>(), "not a permutation: {v}");
    assert_eq!(v["cost"].as_i64().unwrap(), inst.cost(&perm), "{v}");
    assert_eq!(v["n"].as_u64().unwrap() as usize, inst.n, "{v}");
    (v["instance"].as_str().unwrap().to_string(), v["cost"].as_i64().unwrap())
}

fn json_rows(stdout: &[u8]) -> Vec<serde_json::Value> {
    text(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line: {e}: `{l}`")))
        .collect()
}

#[test]
fn a_folder_of_small_instances_gives_one_json_line_each_in_order() {
    let dir = small_folder("json", &SMALL);
    let out = batch(&["--json", s(&dir)]).output().unwrap();
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    let rows = json_rows(&out.stdout);
    let mut sorted = SMALL.to_vec();
    sorted.sort_unstable();
    let names: Vec<String> = rows.iter().map(|v| check_row(v).0).collect();
    assert_eq!(names, sorted, "every *.dat of the folder, by name");
    for v in &rows {
        // `solve --json`'s fields, the best-known value from the folder's bks.csv.
        for key in ["algorithm", "engine", "seed", "elapsed_s", "stopped", "stop_rule", "best_known", "gap_percent"] {
            assert!(v.get(key).is_some(), "missing {key} in {v}");
        }
        assert_eq!(v["engine"], "cpu", "{v}");
        assert_eq!(v["stop_rule"], "converged", "the default: {v}");
        assert!(v["best_known"].as_i64().is_some(), "{v}");
        assert!(v["gap_percent"].as_f64().unwrap() >= 0.0, "{v}");
        assert!(v["elapsed_s"].as_f64().unwrap() < 5.0, "--time-limit 0.3 bounds each search: {v}");
        if v["n"].as_u64().unwrap() <= 12 {
            assert_eq!(v["stopped"], "proven optimal", "{v}");
            assert_eq!(v["gap_percent"].as_f64().unwrap(), 0.0, "{v}");
        } else {
            // Each instance searched for itself, as a lone solve would (none left waiting
            // while its thread ran another).
            assert!(v["iterations"].as_u64().unwrap() > 0, "{v}");
        }
    }
    let seeds: std::collections::HashSet<u64> = rows.iter().map(|v| v["seed"].as_u64().unwrap()).collect();
    assert_eq!(seeds.len(), rows.len(), "each instance its own seed");
    // The summary: one line on stderr.
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("8 instances") && err.contains("mean gap"), "{err}");
}

#[test]
fn the_table_names_every_instance_and_quiet_leaves_stderr_empty() {
    let dir = small_folder("table", &["nug12", "had12"]);
    let out = batch(&["--quiet", &format!("{}/nug12.dat", s(&dir)), s(&bundled().join("had12.dat"))]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 3, "a header and a row each: {table}");
    assert!(lines[0].starts_with("instance") && lines[0].contains("gap %"), "{table}");
    assert!(lines[1].starts_with("nug12") && lines[1].contains(" 578 "), "{table}");
    assert!(lines[2].starts_with("had12") && lines[2].contains(" 1652 "), "{table}");
}

#[test]
fn lists_come_from_a_file_or_standard_input_and_names_are_looked_up() {
    let dir = folder("lists");
    let list = dir.join("list.txt");
    std::fs::write(&list, format!("# the batch\n\n{}\n  nug12  \n", s(&bundled().join("chr12a.dat")))).unwrap();
    let out = batch(&["--json", "--list", s(&list), "had12"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let names: Vec<String> = json_rows(&out.stdout).iter().map(|v| check_row(v).0).collect();
    assert_eq!(names, ["had12", "chr12a", "nug12"], "the arguments, then the list");

    let mut child =
        batch(&["--json", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"tai12b\nnug12\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let names: Vec<String> = json_rows(&out.stdout).iter().map(|v| check_row(v).0).collect();
    assert_eq!(names, ["tai12b", "nug12"]);
}

#[test]
fn bad_inputs_are_one_line_errors_naming_the_file() {
    let dir = folder("bad");
    let missing = dir.join("missing.dat");
    assert_one_line_error(&batch(&[s(&missing)]).output().unwrap(), &[s(&missing), "cannot read"], "missing file");

    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(empty.join("notes.txt"), "no instance here").unwrap();
    assert_one_line_error(
        &batch(&[s(&empty)]).output().unwrap(),
        &[s(&empty), "without a .dat file"],
        "a folder without .dat files",
    );

    // A broken file among good ones stops the batch before any search, naming it.
    let mixed = small_folder("bad-mixed", &["nug12"]);
    let broken = mixed.join("broken.dat");
    std::fs::write(&broken, "3 1 2 3").unwrap();
    assert_one_line_error(
        &batch(&[s(&mixed)]).output().unwrap(),
        &[s(&broken), "expected 1 + 2·n² = 19 numbers"],
        "a broken file in a folder",
    );

    let list = dir.join("list.txt");
    std::fs::write(&list, format!("{}\n{}\n", s(&bundled().join("nug12.dat")), s(&missing))).unwrap();
    assert_one_line_error(
        &batch(&["--list", s(&list)]).output().unwrap(),
        &[s(&missing), "cannot read"],
        "a missing file in a list",
    );
    let none = dir.join("no-list.txt");
    assert_one_line_error(&batch(&["--list", s(&none)]).output().unwrap(), &["--list", s(&none)], "a missing list");
    let blank = dir.join("blank.txt");
    std::fs::write(&blank, "# nothing\n\n").unwrap();
    assert_one_line_error(&batch(&["--list", s(&blank)]).output().unwrap(), &["--list", "lists no path"], "empty list");
    assert_one_line_error(&batch(&["--list", "/dev/zero"]).output().unwrap(), &["/dev/zero", "device"], "a device");
    assert_one_line_error(
        &batch(&["-", "-"]).stdin(Stdio::null()).output().unwrap(),
        &["standard input"],
        "stdin twice or empty",
    );
    assert_one_line_error(&batch(&[]).output().unwrap(), &["no instance given"], "no input at all");
}

#[test]
fn bad_options_are_one_line_errors_naming_the_option() {
    let nug12 = bundled().join("nug12.dat");
    for (args, needle) in [
        (vec!["--threads", "999"], "--threads"),
        (vec!["--time-limit", "0"], "--time-limit"),
        (vec!["--time-limit", "soon"], "--time-limit"),
        (vec!["--stop", "never"], "--stop"),
        (vec!["--algo", "simplex"], "--algo"),
        (vec!["--ants", "0"], "--ants"),
        (vec!["--engine", "tpu"], "--engine"),
    ] {
        let mut all = args.clone();
        all.push(s(&nug12));
        assert_one_line_error(&batch(&all).output().unwrap(), &[needle], &format!("{args:?}"));
    }
}

#[test]
fn out_is_checked_before_the_search_and_written_whole() {
    let dir = small_folder("out", &["nug12", "had12", "esc16a"]);
    let results = folder("out-results");
    // A folder that does not exist, and an input file, are refused before any search.
    let nowhere = results.join("no/such/folder/rows.csv");
    let started = Instant::now();
    let out = batch(&["--time-limit", "30", "--stop", "time", "--out", s(&nowhere), s(&dir)]).output().unwrap();
    assert_one_line_error(&out, &["--out", s(&nowhere)], "--out in a missing folder");
    assert!(started.elapsed() < Duration::from_secs(10), "checked before the 30-s searches");
    let input = dir.join("nug12.dat");
    assert_one_line_error(&batch(&["--out", s(&input), s(&dir)]).output().unwrap(), &["--out", "input file"], "input");

    // CSV: a header and a row an instance; nothing else left in the folder.
    let csv = results.join("rows.csv");
    std::fs::write(&csv, "the previous file\n").unwrap();
    let out = batch(&["--quiet", "--out", s(&csv), s(&dir)]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert!(lines[0].starts_with("file,instance,n,cost,best_known,gap_percent,"), "{written}");
    assert_eq!(lines.len(), 4, "{written}");
    let row: Vec<&str> = lines.iter().find(|l| l.contains("nug12.dat")).unwrap().split(',').collect();
    assert_eq!((row[1], row[2], row[4]), ("nug12", "12", "578"), "{written}");
    let n12: Vec<u32> = row[13].split(' ').map(|g| g.parse().unwrap()).collect();
    assert_eq!(n12.len(), 12, "{written}");
    let left: Vec<String> =
        std::fs::read_dir(&results).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(left, ["rows.csv"], "no temporary file left");

    // JSON lines by the file's name.
    let jsonl = results.join("rows.jsonl");
    let out = batch(&["--quiet", "--out", s(&jsonl), s(&dir)]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows = json_rows(std::fs::read(&jsonl).unwrap().as_slice());
    assert_eq!(rows.len(), 3);
    rows.iter().for_each(|v| drop(check_row(v)));
    assert!(text(&out.stdout).starts_with("instance"), "stdout keeps the table");

    // A read-only file is refused before the search, and left as it was.
    let locked = results.join("locked.csv");
    std::fs::write(&locked, "kept\n").unwrap();
    let mut perm = std::fs::metadata(&locked).unwrap().permissions();
    perm.set_readonly(true);
    std::fs::set_permissions(&locked, perm).unwrap();
    assert_one_line_error(&batch(&["--out", s(&locked), s(&dir)]).output().unwrap(), &["--out", "read-only"], "ro");
    assert_eq!(std::fs::read_to_string(&locked).unwrap(), "kept\n");
}

#[test]
fn a_closed_stdout_pipe_is_a_quiet_exit() {
    let dir = small_folder("pipe", &["nug12", "had12"]);
    let csv = dir.join("../rows.csv");
    let mut child = batch(&["--out", s(&csv), s(&dir)]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert!(!err.contains("panicked") && !err.contains("error"), "stderr `{err}`");
    assert!(matches!(out.status.code(), Some(0 | 141)), "{:?} {err}", out.status);
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 3, "--out is written all the same");
}

/// Waits for `child` at most `secs`; kills it and fails past that.
fn wait(mut child: Child, secs: f64) -> Output {
    let end = Instant::now() + Duration::from_secs_f64(secs);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > end {
            let _ = child.kill();
            panic!("still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut out = Output { status: child.wait().unwrap(), stdout: Vec::new(), stderr: Vec::new() };
    child.stdout.take().unwrap().read_to_end(&mut out.stdout).unwrap();
    child.stderr.take().unwrap().read_to_end(&mut out.stderr).unwrap();
    out
}

#[test]
fn ctrl_c_prints_every_instance_with_its_best_so_far() {
    // Two 30-s searches (n = 19 and 20: no exact method) on one thread each.
    let dir = small_folder("sigint", &["els19", "had20"]);
    let child = batch(&["--json", "--stop", "time", "--time-limit", "30", s(&dir)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: signals the child this test spawned and still owns.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let out = wait(child, 20.0);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{:?}: {err}", out.status);
    let rows = json_rows(&out.stdout);
    assert_eq!(rows.len(), 2, "{err}");
    for v in &rows {
        check_row(v);
        assert_eq!(v["interrupted"], true, "{v}");
    }
    assert!(err.contains("interrupted"), "the summary says so: {err}");
}
