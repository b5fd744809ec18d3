//! Problems posed as QAPs answered with their own heuristics (issue 41): the construction
//! heuristics' starts and the polish beside the QAP search, on the CPU engine, through the
//! library (`problems::solve`) and the command line (`--polish`).
use qapgpu::algo::Backend;
use qapgpu::problems::clique::{self, Direction};
use qapgpu::problems::gpp::Gpp;
use qapgpu::problems::lap::Lap;
use qapgpu::problems::polish::Mode;
use qapgpu::problems::solve::{CliqueWalk, posed};
use qapgpu::problems::tour::{baseline, construct};
use qapgpu::problems::tsp::Tsp;
use qapgpu::problems::{Posed, generate, tsplib};
use qapgpu::run::Silent;
use qapgpu::{EngineChoice, Options};
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn cpu(seed: u64, seconds: f64) -> (Vec<Backend>, Options) {
    let opts = Options {
        engine: EngineChoice::Cpu,
        threads: 2,
        seed,
        time_limit: Some(Duration::from_secs_f64(seconds)),
        ..Options::default()
    };
    (vec![Backend::Cpu { threads: 2 }], opts)
}

fn grid_tsp(w: usize, h: usize) -> (Tsp, i64) {
    let (cities, opt) = generate::grid_cities(w, h, 10, 3);
    let text = tsplib::format_euc2d("grid", "generated", &cities);
    (Tsp::new(tsplib::parse(Path::new("grid"), &text).unwrap()).unwrap(), opt)
}

/// A 12 × 12 grid of cities (n = 144) reaches its optimal tour with the polish, the run
/// ending at the target; the answer is a checked tour whose length is its QAP cost.
#[test]
fn the_polish_takes_a_tour_to_its_optimum() {
    let (tsp, opt) = grid_tsp(12, 12);
    let (backends, opts) = cpu(1, 20.0);
    let opts = Options { target: Some(opt), known: Some(opt), ..opts };
    let started = Instant::now();
    let solved = posed(&backends, &tsp, &opts, Mode::Ils, &mut Silent, &AtomicBool::new(false)).unwrap();
    let answer = tsp.answer(&solved.perm);
    assert!(answer.valid && answer.value == solved.cost && solved.cost == opt, "{answer:?}");
    assert!(solved.sol.time_to_target_s.is_some(), "the run stops at the target");
    assert!(started.elapsed() < Duration::from_secs(15));
    let report = &solved.polished.as_ref().unwrap().report;
    assert_eq!(report.mode, Mode::Ils);
    assert!(report.start_cost.is_some_and(|s| s >= opt));
}

/// The yardstick (best nearest neighbour + 2-opt) is never beaten by the answer's worse:
/// every start and the polish's answer are no longer than it.
#[test]
fn answers_are_no_longer_than_nearest_neighbour_and_two_opt() {
    let (tsp, _) = grid_tsp(10, 9);
    let yard = construct::length(&tsp.data, &baseline::nearest_neighbour_two_opt(&tsp.data));
    let (backends, opts) = cpu(2, 1.0);
    let solved = posed(&backends, &tsp, &opts, Mode::Descent, &mut Silent, &AtomicBool::new(false)).unwrap();
    assert!(solved.cost <= yard, "{} > {yard}", solved.cost);
    assert_eq!(tsp.qap().cost(&solved.perm), solved.cost);
}

/// `--polish none` leaves the QAP search alone (it still gets the starts); time limits hold
/// with the polish thread beside the search.
#[test]
fn no_polish_and_the_time_limit() {
    let (tsp, _) = grid_tsp(8, 8);
    let (backends, opts) = cpu(3, 0.3);
    let started = Instant::now();
    let solved = posed(&backends, &tsp, &opts, Mode::None, &mut Silent, &AtomicBool::new(false)).unwrap();
    assert!(started.elapsed() < Duration::from_secs_f64(0.3 * 1.05 + 0.25), "{:?}", started.elapsed());
    let p = solved.polished.unwrap();
    assert_eq!((p.report.mode, p.report.polished_cost, p.from_polish), (Mode::None, None, false));
    assert!(tsp.answer(&solved.perm).valid);
}

/// Partitions and arrangements: the polish's answers are valid and reach the known optimum
/// of the generated instances.
#[test]
fn partitions_and_arrangements_are_polished_to_their_optimum() {
    let (g, cut) = generate::ring_of_cliques(4, 8, 2);
    let gpp = Gpp::new(g, 4).unwrap();
    let (backends, opts) = cpu(4, 10.0);
    let target = gpp.cost_of_measure(cut);
    let o = Options { target, known: target, ..opts.clone() };
    let solved = posed(&backends, &gpp, &o, Mode::Ils, &mut Silent, &AtomicBool::new(false)).unwrap();
    assert_eq!(gpp.answer(&solved.perm).value, cut);
    let (g, len) = generate::shuffled_cycle(40, 6);
    let lap = Lap::new(g).unwrap();
    let o = Options { target: Some(len), known: Some(len), ..opts };
    let solved = posed(&backends, &lap, &o, Mode::Ils, &mut Silent, &AtomicBool::new(false)).unwrap();
    let a = lap.answer(&solved.perm);
    assert!(a.valid && a.value == len, "{a:?}");
}

/// The clique walk finds a planted 14-clique of G(150, 1/2) with the plateau search beside
/// the QAP search, and says what reached it.
#[test]
fn the_clique_walk_finds_a_planted_clique() {
    let (g, planted) = generate::planted_clique(150, 50, 14, 7);
    let (backends, opts) = cpu(5, 10.0);
    let options = |target: Option<i64>| Options { target, known: target, ..opts.clone() };
    let walk =
        CliqueWalk { backends: &backends, options: &options, seed: 5, mode: Mode::Ils, quiet: true, up_to: Some(14) };
    let (found, _, _) = walk.run(&g, None, Direction::Up, &mut Silent, &AtomicBool::new(false)).unwrap();
    assert!(found.answer.valid && found.answer.value == planted.len() as i64, "{:?}", found.answer);
    let by = found.answer.fields["reached_by"].as_str().unwrap();
    assert!(["construction", "polish", "search"].contains(&by), "{by}");
    assert!(clique::check_clique(&g, &planted).is_ok());
}

fn host() -> Command {
    Command::new(env!("CARGO_BIN_EXE_qapgpu"))
}

/// The command line: the JSON report has the polish and where the answer came from;
/// `--polish` without `--problem` is refused in one line.
#[test]
fn the_command_line_reports_the_polish() {
    let grid = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/problems/grid24.tsp");
    let out = host()
        .args(["solve", "--problem", "tsp", grid, "--engine", "cpu", "--threads", "2", "--time-limit", "2", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["answer"]["valid"], true);
    assert_eq!(v["polish"]["mode"], "ils");
    assert!(["polish", "search"].contains(&v["answer_from"].as_str().unwrap()));
    let out = host().args(["solve", "--polish", "none", "--engine", "cpu", "--time-limit", "0.1"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("--polish"), "{err}");
}
