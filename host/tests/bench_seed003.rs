//! `bench 003-profile`, `003-fixed` and `003-target` on the CPU engine (issue 42): the time
//! split of seed 003's Table 2, and the tables' cells where no run reached its target or a
//! run was cut off by the time limit. Small instances and short limits: a few seconds in all.
mod support;

use std::path::PathBuf;
use std::process::Command;
use support::{assert_one_line_error, column as cell, fresh_dir, read_csv, run_bench};

/// Runs `qapgpu bench ARGS --out DIR` on the CPU engine on one thread; returns stdout and
/// the folder.
fn bench(args: &[&str], name: &str) -> (String, PathBuf) {
    let dir = fresh_dir(&format!("bench003-{name}"));
    let stdout = run_bench(&[args, &["--engine", "cpu", "--threads", "1"]].concat(), &dir);
    let lower = stdout.to_lowercase();
    assert!(!lower.contains("nan") && !lower.contains("inf"), "bench {args:?} printed NaN or inf:\n{stdout}");
    // A CPU run labels its engine so; the paper's columns name the paper's machines.
    assert!(!stdout.contains("GPU"), "bench {args:?} on the CPU:\n{stdout}");
    (stdout, dir)
}

/// The CSV's header and the row of `instance`, as cells.
fn csv_row(path: &std::path::Path, instance: &str) -> (Vec<String>, Vec<String>) {
    let mut rows = read_csv(path);
    let at =
        rows.iter().skip(1).position(|r| r[0] == instance).unwrap_or_else(|| panic!("no {instance} row in {rows:?}"));
    let row = rows.swap_remove(at + 1);
    (rows.swap_remove(0), row)
}

#[test]
fn the_profile_splits_a_run_into_the_papers_steps() {
    let (stdout, dir) = bench(&["003-profile", "--instances", "tai12b", "--runs", "1", "--time-limit", "1"], "profile");
    assert!(stdout.contains("seed 003 Table 2") && stdout.contains("CPU 1 thread"), "{stdout}");
    let (header, row) = csv_row(&dir.join("seed003-table2.csv"), "tai12b");
    let number = |c: &str| cell(&header, &row, c).parse::<f64>().unwrap_or_else(|e| panic!("{c}: {e} in {row:?}"));
    let parts = ["construction", "local search", "trail update", "other"];
    let percent: f64 = parts.iter().map(|p| number(&format!("{p} %"))).sum();
    assert!((percent - 100.0).abs() < 0.01, "the shares sum to {percent}: {row:?}");
    let seconds: f64 = parts.iter().map(|p| number(&format!("{p} (s)"))).sum();
    let run = number("run (s)");
    // "other" is the rest of the run: the cells add up to it, to within their rounding.
    assert!(run > 0.0 && (seconds - run).abs() <= 0.01 * run + 5e-4, "steps {seconds} s, run {run} s: {row:?}");
    assert!(number("local search (s)") > 0.0, "{row:?}");
    // tai12b is none of Table 2's instances: no paper figures.
    assert_eq!(cell(&header, &row, "paper TS % (i7 965 1 thread)"), "–");
    // One of them (Table 2's tai40a), cut off at once, is split too, beside the paper.
    let (stdout, dir) = bench(&["003-profile", "--instances", "tai40a", "--runs", "1", "--time-limit", "0.2"], "t40");
    let (header, row) = csv_row(&dir.join("seed003-table2.csv"), "tai40a");
    assert_eq!(cell(&header, &row, "paper TS % (i7 965 1 thread)"), "99.992", "{stdout}");
    assert_eq!(cell(&header, &row, "paper construction % (i7 965 1 thread)"), "0.007");
    assert_eq!(cell(&header, &row, "#cut off"), "1");
}

#[test]
fn no_run_at_the_target_gives_a_dash_and_a_cut_off_run_no_ratio() {
    // Table 6 with 2-opt on tai40a for 0.05 s: no run reaches 1 % above the best known.
    let args = ["003-target", "--instances", "tai40a", "--ls", "2opt", "--runs", "1", "--time-limit", "0.05"];
    let (stdout, dir) = bench(&args, "target");
    let (header, row) = csv_row(&dir.join("seed003-table6.csv"), "tai40a");
    assert_eq!(cell(&header, &row, "#reached"), "0", "{stdout}");
    assert_eq!(cell(&header, &row, "#cut off"), "1");
    assert!(cell(&header, &row, "T_avg (s)").starts_with("> "), "{row:?}");
    assert_eq!(cell(&header, &row, "paper T_avg (s) i7 965 1 thread"), "7.7");
    assert_eq!(cell(&header, &row, "paper/ours"), "–");
    // Table 5 on tai40a for 0.05 s: cut off before IT_TOTAL, so no T_avg and no ratio.
    let args = ["003-fixed", "--instances", "tai40a,tai12b", "--runs", "1", "--time-limit", "0.05"];
    let (stdout, dir) = bench(&args, "fixed");
    let (header, row) = csv_row(&dir.join("seed003-table5.csv"), "tai40a");
    assert_eq!(cell(&header, &row, "#cut off"), "1", "{stdout}");
    assert!(cell(&header, &row, "T_avg (s)").starts_with("> "), "{row:?}");
    assert_eq!(cell(&header, &row, "paper/ours"), "–");
    assert_eq!(cell(&header, &row, "paper T_avg (s) i7 965 1 thread"), "74.4");
    assert_eq!(cell(&header, &row, "paper avg error % i7 965 1 thread"), "0.31");
    assert_eq!(cell(&header, &row, "engine"), "CPU 1 thread");
    // Cut off, its cAS iterations are a lower bound, as its T_avg is.
    assert!(cell(&header, &row, "cAS iterations (mean)").starts_with("> "), "{row:?}");
    // tai12b reaches its optimum at once: a mean, no cut-off.
    let (header, row) = csv_row(&dir.join("seed003-table5.csv"), "tai12b");
    assert_eq!(cell(&header, &row, "#cut off"), "0", "{stdout}");
    assert!(cell(&header, &row, "T_avg (s)").parse::<f64>().is_ok(), "{row:?}");
    // Its cAS iterations are counted; the paper has no row to imply them from.
    // The random ants' round is the first cAS iteration.
    assert!(cell(&header, &row, "cAS iterations (mean)").parse::<f64>().is_ok_and(|x| x >= 1.0), "{row:?}");
    assert_eq!(cell(&header, &row, "paper cAS iterations (implied by its CPU times)"), "–");
}

#[test]
fn the_profile_sets_its_own_aco_options() {
    let out = Command::new(env!("CARGO_BIN_EXE_qapgpu"))
        .args(["bench", "003-profile", "--engine", "cpu", "--runs", "1", "--instances", "tai12b", "--ants", "8"])
        .output()
        .unwrap();
    assert_one_line_error(&out, &["bench 003-profile: a paper's protocol sets its own ACO and ts options"], "--ants 8");
}
