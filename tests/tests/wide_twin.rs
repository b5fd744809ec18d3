//! The wide path (`ts` above n = 256): `wide::wide_walk` makes the moves of the walks below
//! 256 (`ls::tabu_walk`), keeps its costs exact on degenerate data, and the GPU's kernel
//! makes the CPU twin's moves at n = 300 and 1024. Without a GPU the GPU cases are reported
//! as ignored, with the reason.
use qapgpu::algo::Options;
use qapgpu::algo::aco::AcoOptions;
use qapgpu::algo::ts::wide::WideEngine;
use qapgpu::algo::ts::wide::cpu::{CpuWalk, WideCpu};
use qapgpu::algo::ts::wide::gpu::WideGpu;
use qapgpu::io::Instance;
use qapgpu_common::elem::Elem;
use qapgpu_common::ls::{NO_TARGET, Scratch, TABU_FREE, Tenure, TenureLaw, WalkState, tabu_walk, two_opt};
use qapgpu_common::matrix::Dense;
use qapgpu_common::moves::move_count;
use qapgpu_common::ops::random_permutation;
use qapgpu_common::rng::Xoshiro128;
use qapgpu_common::wide::{WideMats, WideRule};
use qapgpu_tests::{case, gpu, offset_instance, uniform as random, zeros};

/// A, B, Aᵀ and Bᵀ of `inst` in the element type `E`.
fn typed_mats<E: Elem + TryFrom<i64>>(inst: &Instance) -> [Vec<E>; 4] {
    let ((a, b), (at, bt)) = (inst.typed::<E>(), inst.transposed().typed::<E>());
    [a, b, at, bt]
}

/// One wide walk of `inst` from `start`, run in launches of `chunks` (build steps count in
/// them) until it has made `moves` moves: its current solution, cost and best cost.
fn wide<E: Elem + TryFrom<i64>>(
    inst: &Instance,
    start: &[u16],
    rng: &Xoshiro128,
    tenure: Tenure,
    aspiration: i32,
    moves: u32,
    chunks: &[u32],
) -> (Vec<u16>, i64, i64) {
    let n = inst.n;
    let [a, b, at, bt] = typed_mats::<E>(inst);
    let (a, b, at, bt) = (Dense::new(&a, n), Dense::new(&b, n), Dense::new(&at, n), Dense::new(&bt, n));
    let m = WideMats { a: &a, b: &b, at: &at, bt: &bt };
    let rule = WideRule { target: NO_TARGET, tenure, aspiration, descent: false };
    let mut w = CpuWalk::from_start(start.to_vec(), inst.cost(start), rng.clone(), rule);
    let mut made = 0;
    for &c in chunks.iter().cycle() {
        if made == moves {
            break;
        }
        made += w.launch(&m, c.min(moves - made), || false);
        let ((p, cost), (best, best_cost)) = (w.current(), w.best());
        assert_eq!(inst.cost(p), cost, "{}: the current cost after {made} moves", inst.name);
        assert_eq!(inst.cost(best), best_cost, "{}: the best cost after {made} moves", inst.name);
    }
    let (p, cost) = w.current();
    (p.to_vec(), cost, w.best().1)
}

/// Below 256 the wide walk makes `ls::tabu_walk`'s moves, whatever its launches' lengths.
fn wide_walk_makes_the_moves_of_tabu_walk() {
    for (inst, aspiration) in [(random(40, 1, true), 0), (random(40, 2, false), 5 * 1600), (random(23, 3, false), 200)]
    {
        let n = inst.n;
        let (a, b) = inst.typed::<u16>();
        let (a8, b8) = (Dense::new(&a, n), Dense::new(&b, n));
        let mut rng = Xoshiro128::from_stream(7, n as u64);
        let mut p8 = vec![0u8; n];
        random_permutation(&mut rng, &mut p8);
        let start: Vec<u16> = p8.iter().map(|&g| g as u16).collect();
        let tenure = Tenure { list_size: 8 * n as u32, per_move: false, law: TenureLaw::Uniform };
        let mut best8 = p8.clone();
        let (mut delta, mut tabu) = (vec![0i64; move_count(n as u32) as usize], vec![TABU_FREE; n * n]);
        let cost = inst.cost(&p8);
        let w = WalkState { p: &mut p8, cost, done: 0, best: &mut best8, best_cost: cost };
        let mut rng8 = rng.clone();
        let (cur, r) = tabu_walk(
            &a8,
            &b8,
            w,
            NO_TARGET,
            3000,
            tenure,
            aspiration,
            &mut rng8,
            Scratch { delta: &mut delta, tabu: &mut tabu, null_swaps: &[] },
            || false,
        );
        let one = wide::<u16>(&inst, &start, &rng, tenure, aspiration, 3000, &[5000]);
        let chunked = wide::<u16>(&inst, &start, &rng, tenure, aspiration, 3000, &[700, 1, 13, 2299]);
        let p8: Vec<u16> = p8.iter().map(|&g| g as u16).collect();
        assert_eq!(one, (p8, cur, r.cost), "{}", inst.name);
        assert_eq!(chunked, one, "{}: launches of other lengths", inst.name);
    }
}

/// Costs stay exact above 256 on uniform, all-zero and signed data.
fn wide_walk_costs_stay_exact_at_300() {
    let tenure = Tenure { list_size: 8 * 300, per_move: false, law: TenureLaw::Cubic };
    let start = |n: usize| {
        let mut p = vec![0u16; n];
        random_permutation(&mut Xoshiro128::from_stream(1, 2), &mut p);
        p
    };
    let rng = Xoshiro128::from_stream(3, 4);
    for inst in [random(300, 5, true), zeros(300)] {
        wide::<u16>(&inst, &start(300), &rng, tenure, 0, 60, &[40, 7]);
    }
    let signed = offset_instance(257, -50, 100, -1000, 30_000, 9);
    wide::<i32>(&signed, &start(257), &rng, tenure, 5 * 257 * 257, 60, &[33]);
}

/// `WideGpu` and `WideCpu` (4 walks each), launched in different lengths until every walk
/// has made `moves` moves (with `descent`: until every walk is at its local minimum): the
/// same best cost and solution in every walk.
fn same_walks_as(inst: &Instance, moves: u64, descent: bool) {
    let opts = Options { seed: 11, aco: AcoOptions { ants: Some(4), ..AcoOptions::default() }, ..Options::default() };
    let mut g = WideGpu::new(gpu(), inst, &opts, descent).unwrap();
    let mut c = WideCpu::new(inst, &opts, 0, descent).unwrap();
    let run = |e: &mut dyn WideEngine, chunk: u64| {
        let mut made = 0;
        while made < 4 * moves {
            let k = e.launch(((4 * moves - made) / 4).min(chunk) as u32).unwrap();
            if descent && k == 0 && e.built().unwrap() {
                break;
            }
            made += k;
        }
    };
    run(&mut g, 97);
    run(&mut c, 40);
    assert_eq!(g.best_costs().unwrap(), c.best_costs().unwrap(), "{}", inst.name);
    for k in 0..4 {
        let p = g.best_of(k).unwrap();
        assert_eq!(p, c.best_of(k).unwrap(), "{}: walk {k}", inst.name);
        assert_eq!(inst.cost(&p), g.best_costs().unwrap()[k], "{}: walk {k}", inst.name);
    }
}

fn same_walks(inst: &Instance, moves: u64) {
    same_walks_as(inst, moves, false);
}

fn gpu_wide_walks_make_the_cpu_moves_at_300() {
    same_walks(&random(300, 21, true), 300);
    same_walks(&random(300, 22, false), 300);
    same_walks(&zeros(300), 50);
    same_walks(&offset_instance(300, -50, 100, -1000, 30_000, 9), 300);
    // The descent of `aco-2opt` above 256, to every walk's local minimum.
    same_walks_as(&random(300, 24, false), 100_000, true);
}

fn gpu_wide_walks_make_the_cpu_moves_at_1024() {
    same_walks(&random(1024, 23, true), 100);
}

/// The wide walk's descent (`aco-2opt` above 256) makes `ls::two_opt`'s moves to the same
/// local minimum.
fn wide_descent_is_two_opt() {
    for inst in [random(40, 4, true), random(37, 5, false)] {
        let n = inst.n;
        let (a, b) = inst.typed::<u16>();
        let (a8, b8) = (Dense::new(&a, n), Dense::new(&b, n));
        let mut p8 = vec![0u8; n];
        random_permutation(&mut Xoshiro128::from_stream(9, n as u64), &mut p8);
        let start: Vec<u16> = p8.iter().map(|&g| g as u16).collect();
        let mut delta = vec![0i64; move_count(n as u32) as usize];
        let c8 = inst.cost(&p8);
        let r = two_opt(&a8, &b8, &mut p8, c8, NO_TARGET, u32::MAX, &mut delta, || false);
        let [_, _, at, bt] = typed_mats::<u16>(&inst);
        let (at, bt) = (Dense::new(&at, n), Dense::new(&bt, n));
        let m = WideMats { a: &a8, b: &b8, at: &at, bt: &bt };
        let rule = WideRule {
            target: NO_TARGET,
            tenure: Tenure { list_size: 0, per_move: true, law: TenureLaw::Cubic },
            aspiration: 0,
            descent: true,
        };
        let mut w = CpuWalk::from_start(start.clone(), inst.cost(&start), Xoshiro128::from_stream(1, 1), rule);
        let mut made = 0;
        loop {
            let k = w.launch(&m, 7, || false);
            made += k;
            if k == 0 && w.built() {
                break;
            }
        }
        let (p, cost) = w.current();
        let p8: Vec<u16> = p8.iter().map(|&g| g as u16).collect();
        assert_eq!((p.to_vec(), cost), (p8, r.cost), "{}", inst.name);
        assert_eq!(made + 1, r.iterations, "{}: moves, and the pass that found no improvement", inst.name);
    }
}

/// `aco-ts` and `aco-2opt` above 256: the colony on the wide walks answers, on the CPU.
fn colonies_run_above_256_on_the_cpu() {
    let inst = random(260, 41, false);
    for algo in ["aco-ts", "aco-2opt"] {
        let opts = Options {
            algorithm: Some(algo.into()),
            engine: qapgpu::algo::EngineChoice::Cpu,
            seed: 3,
            stop: qapgpu::run::StopRule::Time,
            time_limit: Some(std::time::Duration::from_secs(3)),
            aco: AcoOptions { ants: Some(4), ls_iterations: Some(100), ..AcoOptions::default() },
            ..Options::default()
        };
        let backend = qapgpu::algo::Backend::Cpu { threads: 0 };
        let sol = qapgpu::solve_on(
            &backend,
            &inst,
            &opts,
            &mut qapgpu::run::Silent,
            &std::sync::atomic::AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!(inst.cost(&sol.perm()), sol.cost, "{algo}");
        assert!(sol.iterations >= 1, "{algo}: no cAS iteration in 3 s: {}", sol.layout);
        assert!(sol.elapsed_s <= 3.0 + 0.15, "{algo}: {} s", sol.elapsed_s);
    }
}

/// `memetic` above 256 breeds the wide walks once they have built their tables.
fn memetic_breeds_the_wide_walks_on_the_cpu() {
    let inst = random(260, 31, true);
    let opts = Options {
        algorithm: Some("memetic".into()),
        engine: qapgpu::algo::EngineChoice::Cpu,
        seed: 2,
        stop: qapgpu::run::StopRule::Time,
        time_limit: Some(std::time::Duration::from_secs(4)),
        aco: AcoOptions { ants: Some(4), ..AcoOptions::default() },
        ..Options::default()
    };
    let backend = qapgpu::algo::Backend::Cpu { threads: 0 };
    let sol =
        qapgpu::solve_on(&backend, &inst, &opts, &mut qapgpu::run::Silent, &std::sync::atomic::AtomicBool::new(false))
            .unwrap();
    assert_eq!(inst.cost(&sol.perm()), sol.cost);
    assert!(sol.restarts > 0, "no child in 4 s: {}", sol.layout);
}

fn main() -> std::process::ExitCode {
    qapgpu_tests::harness::run(vec![
        case!(wide_walk_makes_the_moves_of_tabu_walk),
        case!(wide_walk_costs_stay_exact_at_300),
        case!(memetic_breeds_the_wide_walks_on_the_cpu),
        case!(wide_descent_is_two_opt),
        case!(colonies_run_above_256_on_the_cpu),
        case!(gpu_wide_walks_make_the_cpu_moves_at_300).gpu(),
        case!(gpu_wide_walks_make_the_cpu_moves_at_1024).gpu(),
    ])
}
