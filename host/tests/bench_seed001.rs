//! Issue 42: seed 001's Table I (`bench 001-restart`), Table III (`bench 001-cpu`) and
//! Fig. 6's least-squares fits (`bench 001`), each a few seconds on the CPU engine.
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::{assert_one_line_error, column, fresh_dir, read_csv, run_bench};

/// Runs `qapgpu bench ARGS --engine cpu` into a fresh folder and returns it with stdout;
/// the run must succeed.
fn bench(name: &str, args: &[&str]) -> (PathBuf, String) {
    let dir = fresh_dir(&format!("seed001-{name}"));
    let stdout = run_bench(&[args, &["--engine", "cpu"]].concat(), &dir);
    (dir, stdout)
}

/// The rows of a CSV the bench wrote (header first), each with the header's cell count.
fn csv(dir: &Path, file: &str) -> Vec<Vec<String>> {
    read_csv(&dir.join(file))
}

/// The cell of `row` under the column `name` of `rows`' header.
fn cell<'a>(rows: &'a [Vec<String>], row: &'a [String], name: &str) -> &'a str {
    column(&rows[0], row, name)
}

#[test]
fn table_i_runs_without_and_with_restarts() {
    let (dir, md) = bench("restart", &["001-restart", "--instances", "tai12b", "--runs", "2", "--time-limit", "1"]);
    let rows = csv(&dir, "seed001-restart.csv");
    assert_eq!(rows.len(), 3, "{md}");
    for (row, restarts) in rows[1..].iter().zip(["no", "yes"]) {
        assert_eq!((row[0].as_str(), cell(&rows, row, "restarts")), ("tai12b", restarts));
        let (ok, failed): (usize, usize) =
            (cell(&rows, row, "#OPT").parse().unwrap(), cell(&rows, row, "failed (time limit)").parse().unwrap());
        assert_eq!(ok + failed, 2, "{row:?}");
    }
    assert!(md.contains("Table I"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn table_i_gives_no_ratio_for_censored_runs() {
    // tai25b is one of the paper's; a 50-ms cap censors runs (all without restarts, as a
    // rule): their rows get no paper/ours ratio.
    let (dir, _) = bench("censored", &["001-restart", "--instances", "tai25b", "--runs", "2", "--time-limit", "0.05"]);
    let rows = csv(&dir, "seed001-restart.csv");
    for row in &rows[1..] {
        let failed: usize = cell(&rows, row, "failed (time limit)").parse().unwrap();
        let ratio = cell(&rows, row, "paper/ours T_avg");
        assert_eq!(failed > 0 || cell(&rows, row, "restarts") == "no", ratio == "–", "{row:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn table_iii_sweeps_population_sizes() {
    // 2048: refused by the engine while --subpop stops at 1024, run once it does not.
    let (dir, md) = bench(
        "cpu",
        &["001-cpu", "--instances", "tai12b", "--runs", "2", "--time-limit", "1", "--populations", "64,2048"],
    );
    let sizes = csv(&dir, "seed001-cpu-sizes.csv");
    let listed: Vec<&str> = sizes[1..].iter().map(|r| cell(&sizes, r, "population")).collect();
    assert_eq!(listed, ["64", "128", "2048"], "Model II's 128 is always run: {md}");
    let model = |size: &str| cell(&sizes, sizes.iter().find(|r| r[1] == size).unwrap(), "model").to_string();
    assert!(model("128").ends_with("II"), "{md}");
    assert!(model("2048") == "refused by the engine" || cell(&sizes, &sizes[3], "runs") == "2", "{md}");
    let models = csv(&dir, "seed001-cpu-models.csv");
    assert_eq!(models.len(), 2, "{md}");
    assert_eq!(cell(&models, &models[1], "Model II #OPT"), "2 of 2", "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn seed_001_fits_the_single_block_times() {
    let args =
        ["001", "--instances", "tai12b", "--runs", "1", "--blocks", "2", "--single-runs", "8", "--time-limit", "1"];
    let (dir, md) = bench("fits", &args);
    let fits = csv(&dir, "seed001-fits.csv");
    assert_eq!(fits.len(), 2, "{md}");
    assert_eq!(cell(&fits, &fits[1], "runs"), "8");
    assert!(["gamma", "normal"].contains(&cell(&fits, &fits[1], "better fit")), "{md}");
    let svg = std::fs::read_to_string(dir.join("fit-tai12b.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("gamma") && svg.contains("normal"));
    assert!(dir.join("seed001.csv").is_file() && md.contains("Fig. 6"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_single_block_runs_print_no_fits() {
    let args =
        ["001", "--instances", "tai12b", "--runs", "1", "--blocks", "2", "--single-runs", "0", "--time-limit", "1"];
    let (dir, md) = bench("no-fits", &args);
    assert!(dir.join("seed001.csv").is_file() && md.contains("seed 001 protocol"), "{md}");
    assert!(!md.contains("Fig. 6") && !dir.join("seed001-fits.csv").exists(), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn zero_runs_and_no_sizes_are_refused() {
    let dir = std::env::temp_dir().join(format!("qapgpu-seed001-refused-{}", std::process::id()));
    for (args, needle) in
        [(&["001-restart", "--runs", "0"][..], "--runs"), (&["001-cpu", "--populations", ""][..], "--populations")]
    {
        let out = Command::new(env!("CARGO_BIN_EXE_qapgpu"))
            .arg("bench")
            .args(args)
            .args(["--engine", "cpu", "--instances", "tai12b", "--out"])
            .arg(&dir)
            .output()
            .unwrap();
        assert_one_line_error(&out, &[needle], &args.join(" "));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
