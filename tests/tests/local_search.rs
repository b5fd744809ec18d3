//! Move costs against full re-evaluation on every shared instance, and the sequential
//! local searches (the CPU twin of the kernel) on real instances.
use qapgpu::io::Instance;
use qapgpu::io::qaplib;
use qapgpu_common::elem::{Elem, ElemWidth};
use qapgpu_common::ls::{NO_TARGET, Scratch, Tenure, TenureLaw, tabu_search, two_opt};
use qapgpu_common::matrix::Dense;
use qapgpu_common::moves::{delta_full, delta_update, delta_update_terms, move_count, move_pair, swap_terms};
use qapgpu_common::ops::random_permutation;
use qapgpu_common::rng::Xoshiro128;
use qapgpu_tests::dat_files;

/// Eq. 4 for every move (or 3000 sampled ones for large n) of random permutations, and
/// Eq. 5 after a random previous move (directly, and from `swap_terms` as the CPU engine's
/// scan computes it), against cost differences computed from scratch.
fn check_deltas<E: Elem>(inst: &Instance, a: &[E], b: &[E]) {
    let n = inst.n;
    if n < 3 {
        return;
    }
    let (a, b) = (Dense::new(a, n), Dense::new(b, n));
    let mut rng = Xoshiro128::from_stream(5, n as u64);
    let c = move_count(n as u32);
    for _ in 0..2 {
        let mut p = vec![0u8; n];
        random_permutation(&mut rng, &mut p);
        let base = inst.cost(&p);
        let moves: Vec<u32> = if c <= 2000 { (0..c).collect() } else { (0..3000).map(|_| rng.below(c)).collect() };
        // Previous move (r, s), and the table before it.
        let (r, s) = move_pair(rng.below(c));
        let (r, s) = (r as usize, s as usize);
        let mut after = p.clone();
        after.swap(r, s);
        let after_cost = inst.cost(&after);
        let mut terms = vec![[0i64; 4]; n];
        swap_terms(&a, &b, &after, r, s, &mut terms);
        for &k in &moves {
            let (u, v) = move_pair(k);
            let (u, v) = (u as usize, v as usize);
            let mut q = p.clone();
            q.swap(u, v);
            let d = delta_full(&a, &b, &p, u, v);
            assert_eq!(d, inst.cost(&q) - base, "{}: Eq. 4 for ({u}, {v})", inst.name);
            if [u, v].iter().all(|x| *x != r && *x != s) {
                let mut q2 = after.clone();
                q2.swap(u, v);
                let d2 = delta_update(&a, &b, &after, d, r, s, u, v);
                assert_eq!(d2, inst.cost(&q2) - after_cost, "{}: Eq. 5 for ({u}, {v}) after ({r}, {s})", inst.name);
                assert_eq!(
                    delta_update_terms(d, &terms[u], &terms[v]),
                    d2,
                    "{}: Eq. 5 from swap_terms for ({u}, {v})",
                    inst.name
                );
            }
        }
    }
}

#[test]
fn deltas_match_full_evaluation_on_every_instance() {
    let files = dat_files();
    assert!(!files.is_empty());
    for f in files {
        let inst = qaplib::read_dat(&f).unwrap();
        match inst.width {
            ElemWidth::U16 => {
                let (a, b) = inst.typed::<u16>();
                check_deltas(&inst, &a, &b)
            }
            ElemWidth::U32 => {
                let (a, b) = inst.typed::<u32>();
                check_deltas(&inst, &a, &b)
            }
            ElemWidth::I32 => {
                let (a, b) = inst.typed::<i32>();
                check_deltas(&inst, &a, &b)
            }
        }
    }
}

fn load(name: &str) -> Instance {
    qaplib::read_dat(&qaplib::resolve(name)).unwrap()
}

#[test]
fn tabu_search_returns_its_best_and_never_worsens() {
    let inst = load("tai40a");
    let (a, b) = inst.typed::<u16>();
    let (a, b) = (Dense::new(&a, 40), Dense::new(&b, 40));
    let mut rng = Xoshiro128::from_stream(9, 0);
    let mut p = vec![0u8; 40];
    random_permutation(&mut rng, &mut p);
    let start = inst.cost(&p);
    let (mut delta, mut tabu, mut best) = (vec![0; 780], vec![0; 1600], vec![0u8; 40]);
    let r = tabu_search(
        &a,
        &b,
        &mut p,
        start,
        NO_TARGET,
        640,
        Tenure { list_size: 40, per_move: false, law: TenureLaw::Cubic },
        &mut rng,
        Scratch { delta: &mut delta, tabu: &mut tabu, null_swaps: &[] },
        &mut best,
        || false,
    );
    assert_eq!(r.cost, inst.cost(&best));
    assert!(r.cost < start);
    // A 2-opt from the tabu search's result cannot find more than a local minimum lets it.
    let two = two_opt(&a, &b, &mut best, r.cost, NO_TARGET, 10_000, &mut delta, || false);
    assert_eq!(two.cost, inst.cost(&best));
    assert!(two.cost <= r.cost);
}

#[test]
fn two_opt_stops_at_a_local_minimum() {
    let inst = load("tai50b");
    match inst.width {
        ElemWidth::U16 => {
            let (a, b) = inst.typed::<u16>();
            two_opt_case(&inst, &a, &b)
        }
        ElemWidth::U32 => {
            let (a, b) = inst.typed::<u32>();
            two_opt_case(&inst, &a, &b)
        }
        ElemWidth::I32 => {
            let (a, b) = inst.typed::<i32>();
            two_opt_case(&inst, &a, &b)
        }
    }
}

fn two_opt_case<E: Elem>(inst: &Instance, a: &[E], b: &[E]) {
    let n = inst.n;
    let (a, b) = (Dense::new(a, n), Dense::new(b, n));
    let mut rng = Xoshiro128::from_stream(3, 1);
    let mut p = vec![0u8; n];
    random_permutation(&mut rng, &mut p);
    let mut delta = vec![0; move_count(n as u32) as usize];
    let start = inst.cost(&p);
    let r = two_opt(&a, &b, &mut p, start, NO_TARGET, 100_000, &mut delta, || false);
    assert_eq!(r.cost, inst.cost(&p));
    assert!(r.iterations < 100_000, "ended by the rule, not the cap");
    for k in 0..move_count(n as u32) {
        let (u, v) = move_pair(k);
        assert!(delta_full(&a, &b, &p, u as usize, v as usize) >= 0, "improving move ({u}, {v}) left");
    }
}

/// The cellular GA's local search: one pass is one greedy pass; passes to a local optimum
/// leave no improving swap, for both kinds of pass; costs stay exact.
#[test]
fn cellular_passes_to_a_local_optimum_leave_no_improving_swap() {
    use qapgpu_common::cga::{Pass, TO_LOCAL_OPTIMUM, greedy_pass, local_search};
    let inst = load("tai35b");
    assert_eq!(inst.width, ElemWidth::U16);
    let (a, b) = inst.typed::<u16>();
    let (a, b) = (Dense::new(&a, inst.n), Dense::new(&b, inst.n));
    let mut rng = Xoshiro128::from_stream(8, 2);
    let mut start = vec![0u8; inst.n];
    random_permutation(&mut rng, &mut start);
    let c0 = inst.cost(&start);
    let (mut once, mut one_pass) = (start.clone(), start.clone());
    assert_eq!(
        local_search(&a, &b, &mut once, c0, Pass::Greedy, 1, || false),
        greedy_pass(&a, &b, &mut one_pass, c0, false, || false)
    );
    assert_eq!(once, one_pass);
    for pass in [Pass::Greedy, Pass::TwoOpt] {
        let mut p = start.clone();
        let c = local_search(&a, &b, &mut p, c0, pass, TO_LOCAL_OPTIMUM, || false);
        assert_eq!(c, inst.cost(&p), "{pass:?}");
        assert!(c < c0);
        for k in 0..move_count(inst.n as u32) {
            let (u, v) = move_pair(k);
            assert!(delta_full(&a, &b, &p, u as usize, v as usize) >= 0, "{pass:?}: improving move ({u}, {v}) left");
        }
    }
}

#[test]
fn cpu_aco_reaches_the_optimum_of_small_instances() {
    use qapgpu::algo::aco::cpu::AcoCpu;
    use qapgpu::algo::aco::{AcoConfig, AcoSolver, Class};
    use qapgpu::run::{Limits, Silent, run};
    use qapgpu_common::ls::LsKind;
    for (name, ls) in [("nug12", LsKind::Tabu), ("tai20b", LsKind::Tabu), ("nug12", LsKind::TwoOpt)] {
        let inst = load(name);
        let known = qaplib::best_known(&qaplib::resolve(name), &inst).value().unwrap();
        let mut cfg = AcoConfig::paper(ls, inst.n as u32, Class::of(name));
        cfg.seed = 11;
        let e = AcoCpu::new(&inst, &cfg, 2).unwrap();
        // The budget is in local-search iterations (IT_TOTAL), not in seconds.
        let mut solver = AcoSolver::new(Box::new(e), inst.n, Some(known), Some(inst.n as u64 * 50_000));
        let limits = Limits { time_limit: None, known: Some(known) };
        let out = run(&mut solver, &limits, &mut Silent, &Default::default()).unwrap();
        assert_eq!(out.cost, known, "{name} {ls:?}: {} after {} iterations", out.cost, out.counters.iterations);
        assert_eq!(inst.cost(&out.perm), known);
    }
}

/// A tabu walk split into launches is the same walk as in one go (the Δ table rebuilt at a
/// launch's start holds the same values), with and without the long-term aspiration; and
/// Taillard's aspiration takes a walk on tai25b to the optimum where seed 003's two classes
/// do not within the same moves.
#[test]
fn a_walk_split_into_launches_is_the_same_walk() {
    use qapgpu_common::ls::{TABU_FREE, WalkState, tabu_walk};
    let inst = qaplib::read_dat(&qaplib::resolve("tai25b")).unwrap();
    let n = inst.n;
    let a: Vec<i32> = inst.a.iter().map(|&x| x as i32).collect();
    let b: Vec<i32> = inst.b.iter().map(|&x| x as i32).collect();
    let (a, b) = (Dense::new(&a, n), Dense::new(&b, n));
    let walk = |chunks: &[u32], aspiration: i32| {
        let mut rng = Xoshiro128::from_stream(3, 0);
        let mut p = vec![0u8; n];
        random_permutation(&mut rng, &mut p);
        let (mut cur, mut best, mut best_cost, mut done) = (inst.cost(&p), p.clone(), i64::MAX, 0u32);
        let (mut delta, mut tabu) = (vec![0i64; move_count(n as u32) as usize], vec![TABU_FREE; n * n]);
        for &k in chunks {
            let bc = best_cost.min(cur);
            if cur < best_cost {
                best.copy_from_slice(&p);
            }
            let w = WalkState { p: &mut p, cost: cur, done, best: &mut best, best_cost: bc };
            let (c, r) = tabu_walk(
                &a,
                &b,
                w,
                NO_TARGET,
                k,
                Tenure { list_size: 8 * n as u32, per_move: false, law: TenureLaw::Cubic },
                aspiration,
                &mut rng,
                Scratch { delta: &mut delta, tabu: &mut tabu, null_swaps: &[] },
                || false,
            );
            (cur, best_cost, done) = (c, r.cost, done + r.iterations);
            assert_eq!(inst.cost(&p), cur);
            assert_eq!(inst.cost(&best), best_cost);
        }
        (p, cur, best_cost)
    };
    for aspiration in [0, 5 * (n * n) as i32] {
        assert_eq!(
            walk(&[30_000], aspiration),
            walk(&[7_000, 3, 10_000, 12_997], aspiration),
            "aspiration {aspiration}"
        );
    }
    let optimum = 344_355_646;
    assert_eq!(walk(&[30_000], 5 * (n * n) as i32).2, optimum, "Ro-TS with long-term aspiration");
    assert!(walk(&[30_000], 0).2 > optimum, "without it the walk stays away from the optimum");
}

/// `Tenure::draw`: one draw serves both entries per move (and takes one number from the
/// stream), a draw per entry takes two; tenures stay below the list size.
#[test]
fn tenure_rules_draw_once_or_twice() {
    use qapgpu_common::rng::Xoshiro128;
    let (mut once, mut twice) = (Xoshiro128::from_stream(7, 0), Xoshiro128::from_stream(7, 0));
    let mut differ = 0;
    for _ in 0..1000 {
        let (r, s) = Tenure { list_size: 50, per_move: true, law: TenureLaw::Cubic }.draw(&mut once);
        assert_eq!(r, s);
        let (x, y) = Tenure { list_size: 50, per_move: false, law: TenureLaw::Cubic }.draw(&mut twice);
        assert!((0..50).contains(&x) && (0..50).contains(&y) && (0..50).contains(&r));
        differ += (x != y) as u32;
    }
    assert!(differ > 500, "entries drew the same tenure {} times in 1000", 1000 - differ);
    let (mut a, mut b) = (Xoshiro128::from_stream(7, 0), Xoshiro128::from_stream(7, 0));
    Tenure { list_size: 50, per_move: true, law: TenureLaw::Cubic }.draw(&mut a);
    b.next();
    assert_eq!(a.next(), b.next(), "one number per move");
    let (mut a, mut b) = (Xoshiro128::from_stream(7, 0), Xoshiro128::from_stream(7, 0));
    Tenure { list_size: 50, per_move: false, law: TenureLaw::Cubic }.draw(&mut a);
    b.next();
    b.next();
    assert_eq!(a.next(), b.next(), "two numbers per move");
}

/// The split kernel's packed keys (`ls::narrow_key`) order moves as `Candidate::better`
/// does, and unpack to the same candidate, for every class and Δ an i32 holds.
#[test]
fn narrow_keys_order_as_candidates() {
    use qapgpu_common::ls::{Candidate, NARROW_NONE, from_narrow, narrow_key};
    let deltas = [i32::MIN, i32::MIN + 1, -70_000, -5, -1, 0, 1, 7, 65_536, i32::MAX - 1, i32::MAX];
    let pairs = [(1, 0), (2, 1), (35, 0), (35, 34), (255, 254)];
    let mut all = vec![];
    for class in 0..3 {
        for &d in &deltas {
            for &(u, v) in &pairs {
                let c = Candidate::ranked(d as i64, u, v, class);
                let k = narrow_key(class, d, u, v);
                assert_eq!(from_narrow(k), c);
                all.push((c, k));
            }
        }
    }
    all.push((Candidate::NONE, NARROW_NONE));
    assert_eq!(from_narrow(NARROW_NONE), Candidate::NONE);
    for (a, ka) in &all {
        for (b, kb) in &all {
            assert_eq!(a.better(b), ka < kb, "{a:?} against {b:?}");
        }
    }
}

/// `TenureLaw::Mixed`: even units draw T·r³ with T, odd units uniformly around T/4, and the
/// other laws are the same for every unit.
#[test]
fn the_mixed_law_alternates_over_units() {
    use qapgpu_common::rng::Xoshiro128;
    let mixed = Tenure { list_size: 80, per_move: false, law: TenureLaw::Mixed };
    for k in [0, 2, 10] {
        assert_eq!(mixed.of_unit(k), Tenure { law: TenureLaw::Cubic, ..mixed });
    }
    for k in [1, 3, 11] {
        assert_eq!(mixed.of_unit(k), Tenure { law: TenureLaw::Uniform, list_size: 20, ..mixed });
    }
    let mut rng = Xoshiro128::from_stream(3, 0);
    for _ in 0..1000 {
        let (x, y) = mixed.of_unit(1).draw(&mut rng);
        assert!((18..=22).contains(&x) && (18..=22).contains(&y), "odd units draw in [18, 22]: {x}, {y}");
    }
    let uniform = Tenure { law: TenureLaw::Uniform, ..mixed };
    assert_eq!((uniform.of_unit(0), uniform.of_unit(1)), (uniform, uniform));
}

/// `move_class` with no long-term aspiration (0) is seed 003's two classes: ASPIRED when
/// the move gives a new best or is authorized (one of its two assignments is free), else
/// TABOO; and with it, a move whose assignment went unused for longer is ASPIRED.
#[test]
fn move_classes_with_and_without_aspiration() {
    use qapgpu_common::ls::{ASPIRED, AUTHORIZED, TABOO, authorized, move_class};
    let untils = [i32::MIN, -1, 0, 5, 99, 100, 101, 250, i32::MAX];
    for now in [0, 100, 1_000_000, i32::MAX] {
        for &u in &untils {
            for &v in &untils {
                for new_best in [false, true] {
                    let two = if new_best || authorized(u, v, now) { ASPIRED } else { TABOO };
                    assert_eq!(move_class(u, v, now, new_best, 0), two, "until {u}, {v} at {now}");
                }
            }
        }
    }
    // With aspiration 50 at iteration 100: an entry below 50 is forgotten.
    assert_eq!(move_class(49, 200, 100, false, 50), ASPIRED);
    assert_eq!(move_class(60, 200, 100, false, 50), AUTHORIZED);
    assert_eq!(move_class(150, 200, 100, false, 50), TABOO);
    assert_eq!(move_class(150, 200, 100, true, 50), ASPIRED);
}

/// Both fresh tabu matrices (`TabuStart`) authorise every move at the first iteration;
/// under the long-term aspiration A the flat one's entries all come due at iteration A,
/// the staggered one's one at a time over the n² iterations before it: k of them at
/// iteration A − n² + k.
#[test]
fn fresh_tabu_matrices_come_due_at_once_or_one_entry_at_a_time() {
    use qapgpu_common::ls::{ASPIRED, AUTHORIZED, TabuStart, class_of_earlier};
    let n = 7usize;
    let aspiration = 5 * (n * n) as i32;
    let due = |start: TabuStart, now: i32| {
        let mut tabu = vec![0; n * n];
        start.fill(&mut tabu);
        assert!(tabu.iter().all(|&t| class_of_earlier(t, 0, false, 0) == ASPIRED));
        assert!(tabu.iter().all(|&t| class_of_earlier(t, 0, false, aspiration) == AUTHORIZED));
        tabu.iter().filter(|&&t| class_of_earlier(t, now, false, aspiration) == ASPIRED).count()
    };
    for k in 0..=(n * n) {
        let now = aspiration - (n * n) as i32 + k as i32;
        assert_eq!(due(TabuStart::Staggered, now), k, "staggered, at iteration {now}");
        assert_eq!(due(TabuStart::Flat, now), if now > aspiration - 1 { n * n } else { 0 }, "flat, at iteration {now}");
    }
}

/// `move_class` classes a move from the earlier of its two entries (`class_of_earlier`);
/// that is the rule as Taillard states it for each entry, over every order of the entries,
/// iterations near the ends of i32 (where `now − aspiration` wraps) and aspirations of 0 to
/// i32::MAX.
#[test]
fn the_earlier_entry_classes_a_move_as_both_entries_do() {
    use qapgpu_common::ls::{ASPIRED, AUTHORIZED, TABOO, move_class};
    let per_entry = |u: i32, v: i32, now: i32, new_best: bool, aspiration: i32| {
        let forgotten = now.wrapping_sub(aspiration);
        if new_best || u < forgotten || v < forgotten {
            ASPIRED
        } else if u < now || v < now {
            AUTHORIZED
        } else {
            TABOO
        }
    };
    let values = [i32::MIN, i32::MIN + 1, -6125, -1, 0, 1, 49, 50, 99, 100, 101, 6125, 1 << 30, i32::MAX - 1, i32::MAX];
    for &now in &values {
        for aspiration in [0, 1, 50, 6125, i32::MAX] {
            for &u in &values {
                for &v in &values {
                    for new_best in [false, true] {
                        assert_eq!(
                            move_class(u, v, now, new_best, aspiration),
                            per_entry(u, v, now, new_best, aspiration),
                            "until {u}, {v} at {now}, aspiration {aspiration}"
                        );
                    }
                }
            }
        }
    }
}

/// At a local minimum of a grey-pattern instance, a robust tabu search's next move is a
/// null swap (Δ = 0 beats every worsening move) unless the instance's classes are given;
/// with them it moves a black facility against a white one (`common::null_swaps`).
#[test]
fn tabu_search_leaves_a_local_minimum_by_a_swap_that_is_not_null() {
    let inst = qapgpu_tests::grey(40, 14);
    let classes = inst.null_swap_classes().expect("a grey pattern has classes");
    assert_eq!(classes.iter().take(40).filter(|&&c| c == 0).count(), 14, "{classes:?}");
    let (a, b) = inst.typed::<u16>();
    let (a, b) = (Dense::new(&a, 40), Dense::new(&b, 40));
    let mut rng = Xoshiro128::from_stream(5, 0);
    let mut start = vec![0u8; 40];
    random_permutation(&mut rng, &mut start);
    let (mut delta, mut tabu, mut best) = (vec![0; 780], vec![0; 1600], vec![0u8; 40]);
    let c = inst.cost(&start);
    let c0 = two_opt(&a, &b, &mut start, c, NO_TARGET, 100_000, &mut delta, || false).cost;
    for null_swaps in [&[][..], &classes[..]] {
        let mut p = start.clone();
        let tenure = Tenure { list_size: 40, per_move: false, law: TenureLaw::Cubic };
        let scratch = Scratch { delta: &mut delta, tabu: &mut tabu, null_swaps };
        tabu_search(&a, &b, &mut p, c0, NO_TARGET, 1, tenure, &mut rng, scratch, &mut best, || false);
        let moved: Vec<usize> = (0..40).filter(|&i| p[i] != start[i]).collect();
        assert_eq!(moved.len(), 2, "one swap");
        let cost = inst.cost(&p);
        if null_swaps.is_empty() {
            assert_eq!(cost, c0, "without classes the search takes a swap of Δ = 0");
            assert_eq!(classes[moved[0]], classes[moved[1]], "without classes: a null swap, {moved:?}");
        } else {
            assert_ne!(classes[moved[0]], classes[moved[1]], "a null swap was taken: {moved:?}");
            assert!(cost >= c0, "2-opt left a local minimum");
        }
    }
}

/// esc16a's facilities without flow are alike (17 swaps): every swap its classes call null leaves the
/// cost where it was, from any permutation.
#[test]
fn null_swaps_of_esc16a_never_change_the_cost() {
    let inst = load("esc16a");
    let n = inst.n;
    let c = inst.null_swap_classes().expect("esc16a has facilities without flow");
    let mut rng = Xoshiro128::from_stream(3, 0);
    let mut p = vec![0u8; n];
    let mut checked = 0;
    for _ in 0..50 {
        random_permutation(&mut rng, &mut p);
        let cost = inst.cost(&p);
        for u in 0..n {
            for v in 0..u {
                if qapgpu_common::null_swaps::is_null(&c, n, u, v, p[u] as usize, p[v] as usize) {
                    let mut q = p.clone();
                    q.swap(u, v);
                    assert_eq!(inst.cost(&q), cost, "swap ({u}, {v}) of {p:?}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 50 * 17, "esc16a has 17 null swaps");
}

/// The CPU engine's walks skip null swaps (facilities alike, or locations alike) unless told
/// not to, and then end elsewhere; the c-ants' searches never skip them.
#[test]
fn the_walks_skip_null_swaps_unless_told_not_to() {
    use qapgpu::algo::aco::cpu::AcoCpu;
    use qapgpu::algo::aco::{AcoConfig, AcoEngine, Class};
    use qapgpu_common::ls::LsKind;
    for inst in [qapgpu_tests::grey(40, 14), qapgpu_tests::grey_locations(40, 14)] {
        let c = inst.null_swap_classes().unwrap();
        let (facilities, locations) = c.split_at(40);
        let side_alike = |s: &[u8]| s.iter().enumerate().any(|(i, &x)| x as usize != i);
        assert!(side_alike(facilities) != side_alike(locations), "{}: one side alike", inst.name);
        let end = |skip: bool, walk: bool| {
            let mut cfg = AcoConfig::paper(LsKind::Tabu, 40, Class::Random);
            (cfg.ants, cfg.ls_iterations, cfg.seed, cfg.walk, cfg.skip_null_swaps) = (4, 600, 5, walk, skip);
            let mut e = AcoCpu::new(&inst, &cfg, 2).unwrap();
            assert_eq!(e.skips_null_swaps(), skip && walk, "{}", inst.name);
            e.random_ants().unwrap();
            e.local_search().unwrap();
            let s = e.snapshot().unwrap();
            for (p, &cost) in s.cants.iter().zip(&s.cant_costs) {
                assert_eq!(inst.cost(p), cost, "{}", inst.name);
            }
            s.cants
        };
        assert_ne!(end(true, true), end(false, true), "{}: the walks took the same moves", inst.name);
        assert_eq!(end(true, false), end(false, false), "{}: the c-ants' searches differ", inst.name);
    }
}
