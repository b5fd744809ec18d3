//! The adversarial sweep of issue 37 as a table of cases that CI runs on the CPU engine: a
//! shell command, the exit it must give, the text its one-line error must name (or, for a
//! result, the instance its JSON permutation is re-costed against), and the seconds it may
//! take. Every case also must not panic, abort, be killed, or outlive its deadline.
//!
//! In a command, `$Q` is the qapgpu binary and `$T` a folder of fixtures (`fixtures`).
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a case must give.
enum Expect {
    /// Exit 0 with a JSON report on stdout whose permutation re-costs, on the host, to its
    /// cost on the named instance file (relative to `$T`).
    Solves(&'static str),
    /// Exit 0; stdout is anything (a pose, a report cut by a pipe).
    Quiet,
    /// A non-zero exit (1 or 2) and one line on stderr naming this text.
    Error(&'static str),
}

struct Case {
    name: &'static str,
    command: &'static str,
    expect: Expect,
    /// Wall-clock seconds the command may take, process start included.
    seconds: f64,
}

const fn case(name: &'static str, command: &'static str, expect: Expect, seconds: f64) -> Case {
    Case { name, command, expect, seconds }
}

use Expect::{Error, Quiet, Solves};

/// The sweep. Grouped as the issue groups its defects.
const CASES: &[Case] = &[
    // 1. Unbounded reads of special files.
    case("dev-zero", "$Q solve /dev/zero --engine cpu", Error("/dev/zero"), 5.0),
    case("dev-urandom", "$Q solve /dev/urandom --engine cpu", Error("/dev/urandom"), 5.0),
    case(
        "stdin-endless",
        "(echo 256; yes 1) | $Q solve /dev/stdin --engine cpu --time-limit 1",
        Error("/dev/stdin"),
        10.0,
    ),
    case("tsp-dev-zero", "$Q solve --problem tsp /dev/zero --engine cpu", Error("/dev/zero"), 5.0),
    case("lap-dev-zero", "$Q solve --problem lap /dev/zero --engine cpu", Error("/dev/zero"), 5.0),
    case("gpp-dev-zero", "$Q solve --problem gpp /dev/zero --engine cpu", Error("/dev/zero"), 5.0),
    case(
        "compare-dev-zero",
        "$Q bench compare --engine cpu --instances /dev/zero --runs 1 --time-limit 0.1",
        Error("/dev/zero"),
        5.0,
    ),
    case("fifo", "$Q solve $T/fifo.dat --engine cpu --time-limit 1", Error("fifo.dat"), 5.0),
    case(
        "gaps-zero-link",
        "QAPLIB_DIR=$T/zero-lib $Q bench gaps --engine cpu --time-limit 0.1",
        Error("zero.dat"),
        10.0,
    ),
    case("gaps-fifo", "QAPLIB_DIR=$T/fifo-lib $Q bench gaps --engine cpu --time-limit 0.1", Error("fifo"), 10.0),
    // 2. Panics.
    case(
        "pose-pipe",
        "set -o pipefail; $Q pose queens --k 16 | head -c 10 >/dev/null; s=${PIPESTATUS[0]}; [ $s = 0 ] || [ $s = 141 ]",
        Quiet,
        5.0,
    ),
    case("solve-pipe", "$Q solve nug12 --engine cpu --time-limit 1 | true", Quiet, 5.0),
    case(
        "bench-pipe",
        "$Q bench compare --engine cpu --instances nug12 --runs 1 --time-limit 0.2 --out $T/cmp | head -c 1 >/dev/null",
        Quiet,
        5.0,
    ),
    case(
        "bench-out-unwritable",
        "$Q bench compare --engine cpu --instances nug12 --runs 1 --time-limit 5 --out /dev/full/x",
        Error("--out"),
        2.0,
    ),
    case(
        "tsplib-dimension-after",
        "$Q solve --problem tsp $T/dim-after.tsp --engine cpu --time-limit 0.2",
        Error("DIMENSION"),
        5.0,
    ),
    case(
        "tsplib-dimension-shrinks",
        "$Q solve --problem tsp $T/dim-shrinks.tsp --engine cpu --time-limit 0.2",
        Error("DIMENSION"),
        5.0,
    ),
    // 3. Short limits.
    case("ts-1e-9", "$Q solve $T/nug12.dat --engine cpu --algo ts --time-limit 1e-9 --json", Solves("nug12.dat"), 5.0),
    case(
        "aco-ts-1e-9",
        "$Q solve $T/nug12.dat --engine cpu --algo aco-ts --time-limit 1e-9 --json",
        Solves("nug12.dat"),
        5.0,
    ),
    case(
        "aco-2opt-1e-9",
        "$Q solve $T/nug12.dat --engine cpu --algo aco-2opt --time-limit 1e-9 --json",
        Solves("nug12.dat"),
        5.0,
    ),
    case(
        "islands-1e-9",
        "$Q solve $T/nug12.dat --engine cpu --algo ga-islands --time-limit 1e-9 --json",
        Solves("nug12.dat"),
        5.0,
    ),
    case(
        "independent-1e-9",
        "$Q solve $T/nug12.dat --engine cpu --algo ga-independent --time-limit 1e-9 --json",
        Solves("nug12.dat"),
        5.0,
    ),
    case(
        "memetic-1e-9",
        "$Q solve $T/nug12.dat --engine cpu --algo memetic --time-limit 1e-9 --json",
        Solves("nug12.dat"),
        5.0,
    ),
    case(
        "cga-1e-9",
        "$Q solve $T/nug12.dat --engine cpu --algo cga --time-limit 1e-9 --json",
        Solves("nug12.dat"),
        5.0,
    ),
    case("auto-1ms-256", "$Q solve $T/r256.dat --engine cpu --time-limit 0.001 --json", Solves("r256.dat"), 5.0),
    case(
        "memetic-1ms-256",
        "$Q solve $T/r256.dat --engine cpu --algo memetic --time-limit 0.001 --json",
        Solves("r256.dat"),
        5.0,
    ),
    case(
        "islands-1ms-256",
        "$Q solve $T/r256.dat --engine cpu --algo ga-islands --time-limit 0.001 --json",
        Solves("r256.dat"),
        5.0,
    ),
    case(
        "ttt-1e-9",
        "$Q bench ttt --engine cpu --instances nug12 --runs 1 --time-limit 1e-9 --out $T/ttt",
        Quiet,
        10.0,
    ),
    // 4. Set-up that the limit must reach.
    case(
        "independent-huge",
        "$Q solve $T/r256.dat --engine cpu --algo ga-independent --subpop 1024 --blocks 1024 --time-limit 1 --json",
        Solves("r256.dat"),
        6.0,
    ),
    case(
        "islands-65536-blocks",
        "$Q solve $T/r256.dat --engine cpu --algo ga-islands --blocks 65536 --time-limit 1 --json",
        Solves("r256.dat"),
        6.0,
    ),
    case(
        "cga-256-grid",
        "$Q solve $T/r256.dat --engine cpu --algo cga --grid 256x256 --time-limit 1 --json",
        Solves("r256.dat"),
        6.0,
    ),
    case(
        "aco-65536-ants",
        "$Q solve $T/r256.dat --engine cpu --algo aco-ts --ants 65536 --ls-iterations 2147483647 --time-limit 1 --json",
        Solves("r256.dat"),
        6.0,
    ),
    // 5. Results lost.
    case(
        "sln-no-folder",
        "$Q solve $T/nug12.dat --engine cpu --time-limit 60 --write-sln /nodir/x.sln",
        Error("/nodir/x.sln"),
        3.0,
    ),
    case(
        "sln-dev-full",
        "$Q solve $T/nug12.dat --engine cpu --time-limit 60 --write-sln /dev/full",
        Error("/dev/full"),
        3.0,
    ),
    case(
        "trace-dev-full",
        "$Q solve $T/nug12.dat --engine cpu --time-limit 60 --trace /dev/full",
        Error("/dev/full"),
        3.0,
    ),
    case(
        "sln-is-input",
        "$Q solve $T/nug12.dat --engine cpu --time-limit 1 --write-sln $T/nug12.dat",
        Error("nug12.dat"),
        3.0,
    ),
    case(
        "sigterm",
        "$Q solve $T/r256.dat --engine cpu --time-limit 60 --json > $T/term.json & p=$!; sleep 1; kill -TERM $p; wait $p; cat $T/term.json",
        Solves("r256.dat"),
        5.0,
    ),
    case(
        "sighup",
        "$Q solve $T/r256.dat --engine cpu --time-limit 60 --json > $T/hup.json & p=$!; sleep 1; kill -HUP $p; wait $p; cat $T/hup.json",
        Solves("r256.dat"),
        5.0,
    ),
    // 6. A best-known value from the wrong file.
    case("bks-wrong-n", "$Q solve $T/own/nug12.dat --engine cpu --time-limit 0.5 --json", Solves("own/nug12.dat"), 5.0),
    // 7. Smaller defects.
    case(
        "gpp-target-overflow",
        "$Q solve --problem gpp $T/c4.txt --engine cpu --target 9223372036854775807",
        Error("--target"),
        3.0,
    ),
    case("header-window", "$Q solve $T/blanks.dat --engine cpu --time-limit 0.2 --json", Solves("blanks.dat"), 5.0),
    case("bench-000-k-0", "$Q bench 000 --engine cpu --k 0", Error("--k"), 3.0),
    case("bench-runs-0", "$Q bench compare --engine cpu --instances nug12 --runs 0 --out $T/cmp", Error("--runs"), 3.0),
    case(
        "ulimit-huge-population",
        "ulimit -v 2000000; $Q solve $T/r256.dat --engine cpu --algo ga-independent --subpop 1024 --blocks 8192 --time-limit 1",
        Error("memory"),
        5.0,
    ),
];

/// A random instance with entries 0..99 (xorshift, seed 7).
fn random_dat(n: usize) -> String {
    let mut x: u64 = 7;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % 100
    };
    let mut s = format!("{n}\n");
    for _ in 0..2 * n {
        s.push_str(&(0..n).map(|_| next().to_string()).collect::<Vec<_>>().join(" "));
        s.push('\n');
    }
    s
}

/// The fixtures the commands name, in a fresh folder.
fn fixtures() -> PathBuf {
    let t = std::env::temp_dir().join(format!("qapgpu-sweep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&t);
    for d in ["", "own", "zero-lib", "fifo-lib"] {
        std::fs::create_dir_all(t.join(d)).unwrap();
    }
    let nug12 = qapgpu::io::qaplib::qaplib_dir().join("nug12.dat");
    std::fs::copy(&nug12, t.join("nug12.dat")).unwrap();
    std::fs::write(t.join("r256.dat"), random_dat(256)).unwrap();
    // A user's own 6×6 file named like a QAPLIB instance, beside a bks.csv for n = 12.
    std::fs::write(t.join("own/nug12.dat"), random_dat(6)).unwrap();
    std::fs::write(t.join("own/bks.csv"), "instance,n,best_known,proven_optimal\nnug12,12,578,yes\n").unwrap();
    // The first number crossing the 4 KiB window: 4,094 blanks, then n.
    std::fs::write(t.join("blanks.dat"), " ".repeat(4094) + &random_dat(16)).unwrap();
    std::os::unix::fs::symlink("/dev/zero", t.join("zero-lib/zero.dat")).unwrap();
    for fifo in [t.join("fifo.dat"), t.join("fifo-lib/fifo.dat")] {
        let ok = Command::new("mkfifo").arg(&fifo).status().unwrap().success();
        assert!(ok, "mkfifo {}", fifo.display());
    }
    let coords = |k: usize| (0..k).map(|i| format!("{} {} {}\n", i + 1, i * 7 % 10, i * 3 % 10)).collect::<String>();
    let tsp = |before: &str, after: &str| {
        format!(
            "NAME : t\nTYPE : TSP\n{before}EDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n{}{after}EOF\n",
            coords(8)
        )
    };
    std::fs::write(t.join("dim-after.tsp"), tsp("DIMENSION : 8\n", "DIMENSION : 8\n")).unwrap();
    std::fs::write(t.join("dim-shrinks.tsp"), tsp("DIMENSION : 8\n", "DIMENSION : 6\n")).unwrap();
    std::fs::write(t.join("c4.txt"), "4 4\n1 2\n2 3\n3 4\n4 1\n").unwrap();
    t
}

/// Runs `command` in its own process group, killed with the group at `deadline`.
fn run(command: &str, fixtures: &Path, deadline: Duration) -> (Option<i32>, String, String, f64, bool) {
    let t0 = Instant::now();
    let child = Command::new("bash")
        .args(["-c", command])
        .env("Q", env!("CARGO_BIN_EXE_qapgpu"))
        .env("T", fixtures)
        .env_remove("QAPLIB_DIR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let killer = std::thread::spawn(move || {
        let end = Instant::now() + deadline;
        while Instant::now() < end {
            std::thread::sleep(Duration::from_millis(20));
            // SAFETY: signal 0 only probes whether the group still exists.
            if unsafe { libc::kill(-pid, 0) } != 0 {
                return false;
            }
        }
        // SAFETY: the group is this case's own (process_group(0) above).
        unsafe { libc::kill(-pid, libc::SIGKILL) };
        true
    });
    let out = child.wait_with_output().unwrap();
    let seconds = t0.elapsed().as_secs_f64();
    let killed = killer.join().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        seconds,
        killed,
    )
}

/// Why the JSON report `stdout` does not hold a valid permutation of `dat` costing what it says.
fn recost(stdout: &str, dat: &Path) -> Result<(), String> {
    let v: serde_json::Value =
        serde_json::from_str(stdout.trim()).map_err(|e| format!("no JSON report ({e}): {stdout}"))?;
    let inst = qapgpu::io::qaplib::read_dat(dat).map_err(|e| e.to_string())?;
    let perm: Vec<usize> =
        v["permutation"].as_array().ok_or("no permutation")?.iter().map(|x| x.as_u64().unwrap_or(0) as usize).collect();
    let mut seen = vec![false; inst.n];
    for &p in &perm {
        if p == 0 || p > inst.n || std::mem::replace(&mut seen[p - 1], true) {
            return Err(format!("not a permutation of 1..={}: {perm:?}", inst.n));
        }
    }
    if perm.len() != inst.n {
        return Err(format!("{} entries for n = {}", perm.len(), inst.n));
    }
    let cost: i64 = (0..inst.n)
        .flat_map(|i| (0..inst.n).map(move |j| (i, j)))
        .map(|(i, j)| inst.a[i * inst.n + j] * inst.b[(perm[i] - 1) * inst.n + perm[j] - 1])
        .sum();
    match v["cost"].as_i64() {
        Some(c) if c == cost => Ok(()),
        c => Err(format!("reported cost {c:?}, re-costed {cost}")),
    }
}

#[test]
fn the_sweep() {
    let t = fixtures();
    let mut failures = Vec::new();
    for c in CASES {
        // Twice the allowance before the group is killed, so an overrun is measured.
        let (code, stdout, stderr, seconds, killed) =
            run(c.command, &t, Duration::from_secs_f64(2.0 * c.seconds + 2.0));
        let why = if killed {
            Some(format!("killed after {seconds:.1} s (a hang, or far past its limit)"))
        } else if stderr.contains("panicked") || matches!(code, Some(101) | None) {
            Some(format!("panic or signal (exit {code:?}): {stderr}"))
        } else if seconds > c.seconds {
            Some(format!("took {seconds:.2} s, more than {} s", c.seconds))
        } else {
            match &c.expect {
                Solves(_) if code != Some(0) => Some(format!("exit {code:?}: {stderr}")),
                Solves(dat) => recost(&stdout, &t.join(dat)).err(),
                Quiet if code != Some(0) => Some(format!("exit {code:?}: {stderr}")),
                Quiet => None,
                Error(_) if !matches!(code, Some(1 | 2)) => {
                    Some(format!("exit {code:?}, wanted 1 or 2; stderr: {stderr}"))
                }
                Error(needle) if stderr.trim_end().lines().count() != 1 || !stderr.contains(needle) => {
                    Some(format!("wanted one line naming `{needle}`, got: {stderr}"))
                }
                Error(_) => None,
            }
        };
        if let Some(why) = why {
            failures.push(format!("{}: `{}`: {why}", c.name, c.command));
        }
    }
    let _ = std::fs::remove_dir_all(&t);
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), CASES.len(), failures.join("\n"));
}
