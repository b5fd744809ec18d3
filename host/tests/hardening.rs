//! The faults a new user's tries turned up (issue 7), each as a case: bad option values
//! and files get a one-line error naming the option or file, never a panic or an abort;
//! a byte-order mark is accepted; a file is not read past what its n allows.
use std::path::PathBuf;
use std::process::{Command, Output};

fn qapgpu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qapgpu")).args(args).output().unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qapgpu-hardening-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Exit code 1 or 2 (not a panic's 101 or a signal), one line on stderr containing `needle`.
fn assert_one_line_error(out: &Output, needle: &str, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(1 | 2)), "{what}: exit {:?}, stderr {err}", out.status);
    assert_eq!(err.trim_end().lines().count(), 1, "{what}: one line, got {err}");
    assert!(err.contains(needle), "{what}: `{err}` should mention `{needle}`");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

#[test]
fn bad_option_values_get_one_line_errors_naming_the_option() {
    let cases: &[(&[&str], &str)] = &[
        (&["--migration-interval", "0"], "--migration-interval"),
        (&["--gpus", "x"], "--gpus"),
        (&["--gpus", "0,,1"], "--gpus"),
        (&["--gpus", "1", "--gpu", "0"], "--gpu"),
        (&["--algo", "simplex"], "--algo"),
        (&["--migration-interval", "75"], "multiple of --restart-interval"),
        (&["--restart-interval", "0"], "--restart-interval"),
        (&["--time-limit", "inf"], "--time-limit"),
        (&["--time-limit", "1e308"], "--time-limit"),
        (&["--time-limit", "0"], "--time-limit"),
        (&["--time-limit", "-3"], "--time-limit"),
        (&["--time-limit", "nan"], "--time-limit"),
        (&["--pm", "2"], "--pm"),
        (&["--pm", "-1"], "--pm"),
        (&["--pm", "nan"], "--pm"),
        (&["--b-rate", "2"], "--b-rate"),
        (&["--b-rate", "-1"], "--b-rate"),
        (&["--b-rate", "nan"], "--b-rate"),
        (&["--target-gap", "-5"], "--target-gap"),
        (&["--target-gap", "nan"], "--target-gap"),
        (&["--target-gap", "inf"], "--target-gap"),
        (&["--subpop", "7"], "--subpop"),
        (&["--subpop", "4294967264"], "--subpop"),
        (&["--blocks", "1000000"], "--blocks"),
        (&["--blocks", "4000000000"], "--blocks"),
        (&["--ants", "4000000000"], "--ants"),
        (&["--ants", "0"], "--ants"),
        (&["--ns", "0"], "--ns"),
        (&["--tabu-list", "0"], "--tabu-list"),
        (&["--regroup-distance", "1.5"], "--regroup-distance"),
        (&["--regroup-distance", "nan"], "--regroup-distance"),
        (&["--regroup-distance", "-0.5"], "--regroup-distance"),
        (&["--regroup-keep", "-0.1"], "--regroup-keep"),
        (&["--regroup-perturb", "-0.1"], "--regroup-perturb"),
        (&["--regroup-perturb", "1.5"], "--regroup-perturb"),
        (&["--ls-iterations", "0"], "--ls-iterations"),
        (&["--ls-iterations", "4294967295"], "--ls-iterations"),
        (&["--max-ls-iterations", "0"], "--max-ls-iterations"),
        (&["--rho", "1"], "--rho"),
        (&["--rho", "nan"], "--rho"),
        (&["--gamma", "1.5"], "--gamma"),
        (&["--threads", "100000"], "--threads"),
        (&["--algo", "simplex"], "--algo"),
        (&["--algo", "cga", "--grid", "0x8"], "--grid"),
        (&["--algo", "cga", "--grid", "300x300"], "--grid"),
        (&["--algo", "cga", "--grid", "8by8"], "--grid"),
        (&["--algo", "cga", "--pc", "2"], "--pc"),
        (&["--algo", "cga", "--pt", "nan"], "--pt"),
        (&["--algo", "cga", "--pm", "-0.5"], "--pm"),
        (&["--algo", "cga", "--max-generations", "0"], "--max-generations"),
    ];
    for (args, needle) in cases {
        let mut all = vec!["--engine", "cpu", "--quiet", "--time-limit", "5"];
        all.extend_from_slice(args);
        assert_one_line_error(&qapgpu(&all), needle, &args.join(" "));
    }
    // The ACO options that `bench compare` passes to every run are checked as `solve` checks them.
    for (args, needle) in [(&["--regroup-keep", "5"][..], "--regroup-keep"), (&["--rho", "nan"][..], "--rho")] {
        let mut all =
            vec!["bench", "compare", "--engine", "cpu", "--runs", "1", "--instances", "nug12", "--algos", "ts"];
        all.extend_from_slice(args);
        assert_one_line_error(&qapgpu(&all), needle, &args.join(" "));
    }
    // A paper's protocol sets its own: an ACO option there is refused, not ignored.
    let out = qapgpu(&["bench", "003-target", "--engine", "cpu", "--runs", "1", "--instances", "nug12", "--ants", "8"]);
    assert_one_line_error(
        &out,
        "bench 003-target: a paper's protocol sets its own ACO and ts options",
        "bench 003-target --ants 8",
    );
    // So is --effort, which names ts's defaults.
    let out =
        qapgpu(&["bench", "003-target", "--engine", "cpu", "--runs", "1", "--instances", "nug12", "--effort", "long"]);
    assert_one_line_error(&out, "--effort", "bench 003-target --effort long");
    // An effort that does not exist is refused in one line naming the option.
    assert_one_line_error(&qapgpu(&["solve", "nug12", "--effort", "longer"]), "--effort", "solve --effort longer");
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let path = temp("bom.dat");
    std::fs::write(&path, "\u{feff}3\n0 1 2\n1 0 1\n2 1 0\n0 5 2\n5 0 3\n2 3 0\n").unwrap();
    let out = qapgpu(&[path.to_str().unwrap(), "--engine", "cpu", "--json", "--time-limit", "5", "--target", "0"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn n_is_checked_before_the_file_is_read() {
    // n = 100000 followed by 8 MB: refused on n alone.
    let path = temp("huge-n.dat");
    let mut text = String::from("100000\n");
    text.push_str(&"0 ".repeat(4 << 20));
    std::fs::write(&path, text).unwrap();
    let out = qapgpu(&[path.to_str().unwrap(), "--engine", "cpu", "--quiet"]);
    assert_one_line_error(&out, "n = 100000 exceeds the limit of 2048", "n = 100000");
}

#[test]
fn a_file_longer_than_its_n_allows_is_refused_unread() {
    let path = temp("long.dat");
    let mut text = String::from("12\n");
    text.push_str(&" ".repeat(1 << 20));
    std::fs::write(&path, text).unwrap();
    let out = qapgpu(&[path.to_str().unwrap(), "--engine", "cpu", "--quiet"]);
    assert_one_line_error(&out, "more than 289 numbers for n = 12 can take", "long file");
    let sln = temp("long.sln");
    std::fs::write(&sln, format!("3 10 1 2 3{}", " ".repeat(1 << 20))).unwrap();
    let e = qapgpu::io::qaplib::read_sln(&sln).unwrap_err();
    assert!(e.to_string().contains("more than 5 numbers"), "{e}");
}

#[test]
fn tiny_and_degenerate_instances_solve_on_the_cpu() {
    let cases = [
        ("two.dat", "2\n0 3\n3 0\n0 5\n5 0\n"),
        ("three.dat", "3\n0 1 2\n1 0 1\n2 1 0\n0 5 2\n5 0 3\n2 3 0\n"),
        ("zeros.dat", "4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 1 2 3\n1 0 1 2\n2 1 0 1\n3 2 1 0\n"),
    ];
    for (name, text) in cases {
        let path = temp(name);
        std::fs::write(&path, text).unwrap();
        // The default family, and every family that takes the size.
        let mut algos = vec![None, Some("ga-independent"), Some("ga-islands")];
        if !name.starts_with("two") {
            algos.extend([Some("aco-ts"), Some("aco-2opt"), Some("cga")]);
        }
        for algo in algos {
            let mut args =
                vec![path.to_str().unwrap(), "--engine", "cpu", "--json", "--time-limit", "0.5", "--seed", "3"];
            if let Some(a) = algo {
                args.extend(["--algo", a]);
            }
            let out = qapgpu(&args);
            assert!(out.status.success(), "{name} {algo:?}: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
    let path = temp("two-aco.dat");
    std::fs::write(&path, cases[0].1).unwrap();
    let out = qapgpu(&[path.to_str().unwrap(), "--engine", "cpu", "--algo", "aco-ts"]);
    assert_one_line_error(&out, "n = 2 is below 3 for aco-ts", "aco-ts on n = 2");
}
