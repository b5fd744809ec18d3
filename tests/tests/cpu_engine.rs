//! The CPU engine finds the optimum of small QAPLIB instances within a bounded budget.
use qapgpu::algo::ga::cpu::CpuEngine;
use qapgpu::algo::ga::{GaConfig, GaEngine, GaSolver, Mode};
use qapgpu::bench;
use qapgpu::io::qaplib;
use qapgpu::run::{Limits, Silent, run};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn solve(name: &str, algo: Mode) -> (i64, i64, u64) {
    let (inst, known) = bench::load(name).unwrap();
    let mut cfg = GaConfig::paper(algo);
    cfg.target = known;
    cfg.blocks = 8;
    cfg.seed = 11;
    let e = CpuEngine::new(&inst, &cfg, 2).unwrap();
    let mut solver = GaSolver::new(Box::new(e), cfg);
    // The budget is in generations (and a generous wall-clock guard), not a timing assertion.
    let limits = Limits { time_limit: Some(Duration::from_secs(120)), known: Some(known) };
    let out = run(&mut solver, &limits, &mut Silent, &AtomicBool::new(false)).unwrap();
    assert_eq!(inst.cost(&out.perm), out.cost);
    (out.cost, known, out.counters.iterations)
}

#[test]
fn independent_runs_reach_the_optimum_of_small_instances() {
    for name in ["nug12", "chr12a", "had12"] {
        let (cost, known, gens) = solve(name, Mode::Independent);
        assert_eq!(cost, known, "{name}: stopped at {cost} after {gens} generations");
        assert!(gens <= 200_000, "{name}: {gens} generations");
    }
}

#[test]
fn island_ga_reaches_the_optimum_of_nug12() {
    let (cost, known, _) = solve("nug12", Mode::Islands);
    assert_eq!(cost, known);
}

#[test]
fn same_seed_same_population() {
    let inst = qaplib::read_dat(&qaplib::resolve("had12")).unwrap();
    let mut cfg = GaConfig::paper(Mode::Islands);
    cfg.blocks = 3;
    cfg.b_rate = Some(0.6);
    let snap = |threads| {
        let mut e = CpuEngine::new(&inst, &cfg, threads).unwrap();
        e.init().unwrap();
        e.advance(100).unwrap();
        e.migrate(0).unwrap();
        e.advance(50).unwrap();
        e.snapshot().unwrap()
    };
    // Subpopulations are independent between migrations: thread count cannot change results.
    assert_eq!(snap(1), snap(2));
}

/// The multi-start robust tabu search (`ts`) on the CPU, one walk per thread, reaches the
/// optimum of small and medium instances, and stops at the target inside a launch.
/// `ts` on two CPU threads, to `target`, with a generous wall-clock guard.
fn ts_on_cpu(target: i64) -> qapgpu::Options {
    qapgpu::Options {
        algorithm: Some("ts".into()),
        engine: qapgpu::EngineChoice::Cpu,
        threads: 2,
        target: Some(target),
        seed: 5,
        time_limit: Some(Duration::from_secs(120)),
        ..qapgpu::Options::default()
    }
}

#[test]
fn multi_start_tabu_search_reaches_the_optimum() {
    for name in ["nug12", "els19", "kra30a", "tai25b"] {
        let (inst, known) = bench::load(name).unwrap();
        let sol = qapgpu::solve(&inst, &ts_on_cpu(known)).unwrap();
        assert_eq!(sol.cost, known, "{name}");
        assert_eq!(sol.algorithm, "ts");
    }
}

/// `walks` tabu walks of 30 moves a launch on tai25b, on the CPU engine, from random starts.
fn tai25b_walks(walks: u32) -> (qapgpu::Instance, i64, qapgpu::algo::aco::cpu::AcoCpu) {
    tai25b_walks_with(walks, |_| {})
}

/// `tai25b_walks` with `tweak` applied to the walks' settings.
fn tai25b_walks_with(
    walks: u32,
    tweak: impl FnOnce(&mut qapgpu::algo::aco::AcoConfig),
) -> (qapgpu::Instance, i64, qapgpu::algo::aco::cpu::AcoCpu) {
    use qapgpu::algo::aco::{AcoConfig, AcoEngine, Class};
    let (inst, known) = bench::load("tai25b").unwrap();
    let mut cfg = AcoConfig::paper(qapgpu_common::ls::LsKind::Tabu, inst.n as u32, Class::Random);
    (cfg.walk, cfg.ants, cfg.ls_iterations, cfg.aspiration) = (true, walks, 30, 5 * 25 * 25);
    tweak(&mut cfg);
    let mut e = qapgpu::algo::aco::cpu::AcoCpu::new(&inst, &cfg, 2).unwrap();
    e.random_ants().unwrap();
    (inst, known, e)
}

/// `ts`'s walks on the CPU run as the Ro-TS code we measure against does (`policy::CPU_TABU_START`,
/// `CPU_TENURE_LAW`, `CPU_TENURE_PER_MOVE`) unless the user sets the tenures; the engine
/// honours the start it is given, and the two starts part where the long-term aspiration
/// first differs (from move 4n² on): walks of 3,200 moves on tai25b (5n² = 3,125).
#[test]
fn cpu_walks_start_their_tabu_matrices_staggered() {
    use qapgpu::algo::aco::AcoEngine;
    use qapgpu_common::ls::{TabuStart, TenureLaw};
    let (inst, known) = bench::load("tai25b").unwrap();
    let cpu = qapgpu::Backend::Cpu { threads: 2 };
    let cfg = qapgpu::algo::ts::walk_config(&cpu, &inst, &ts_on_cpu(known)).unwrap();
    assert_eq!((cfg.tabu_start, cfg.tenure_law, cfg.tenure_per_move), (TabuStart::Staggered, TenureLaw::Cubic, true));
    let mut mine = ts_on_cpu(known);
    (mine.aco.tenure_law, mine.aco.tenure_per_move) = (Some(TenureLaw::Mixed), Some(false));
    let cfg = qapgpu::algo::ts::walk_config(&cpu, &inst, &mine).unwrap();
    assert_eq!((cfg.tenure_law, cfg.tenure_per_move), (TenureLaw::Mixed, false), "the user's tenures are kept");
    let walked = |start: TabuStart| {
        let (_, _, mut e) = tai25b_walks_with(4, |cfg| (cfg.tabu_start, cfg.ls_iterations) = (start, 3_200));
        e.local_search().unwrap();
        e.snapshot().unwrap().cants
    };
    assert_eq!(walked(TabuStart::Staggered), walked(TabuStart::Staggered));
    assert_ne!(walked(TabuStart::Staggered), walked(TabuStart::Flat));
}

/// `ts --regroup-every` on the CPU engine: the walks outside the elite take the elite's
/// current solutions by the rule of `ls::donor_rank`, and a run that regroups still reaches
/// the optimum and says so in its report.
#[test]
fn walks_regroup_onto_the_elite() {
    use qapgpu::algo::aco::AcoEngine;
    let (inst, known, mut e) = tai25b_walks(10);
    e.local_search().unwrap();
    let before = e.snapshot().unwrap();
    e.regroup(3).unwrap();
    let after = e.snapshot().unwrap();
    let mut order: Vec<usize> = (0..10).collect();
    order.sort_by_key(|&k| (before.cant_costs[k], k));
    let mut moved = 0;
    for (rank, &k) in order.iter().enumerate() {
        let from = if rank < 3 { k } else { order[(rank - 3) % 3] };
        assert_eq!(
            (&after.cants[k], after.cant_costs[k]),
            (&before.cants[from], before.cant_costs[from]),
            "walk {k}, rank {rank}"
        );
        moved += usize::from(from != k);
    }
    assert_eq!(moved, 7);
    let mut opts = ts_on_cpu(known);
    (opts.aco.ants, opts.ts.regroup_every) = (Some(8), Some(20));
    let sol = qapgpu::solve(&inst, &opts).unwrap();
    assert_eq!(sol.cost, known);
    assert!(sol.layout.contains("restarting from theirs every 20 moves 8 times"), "{}", sol.layout);
    // Only ts regroups, and the share must be in (0, 1]: one-line errors naming the option.
    let colony = qapgpu::Options { algorithm: Some("aco-ts".into()), ..opts.clone() };
    let e = qapgpu::solve(&inst, &colony).unwrap_err().to_string();
    assert!(e.contains("--regroup-every") && e.contains("aco-ts"), "{e}");
    let mut zero = opts.clone();
    zero.ts.regroup_keep = Some(0.0);
    let e = qapgpu::solve(&inst, &zero).unwrap_err().to_string();
    assert!(e.contains("--regroup-keep"), "{e}");
}

/// `--regroup-distance` on the CPU engine: the walks outside a diverse elite
/// (`ts::elite::diverse_winners`) take its solutions by the rule of `ls::donor_rank`, and a
/// run that regroups so reaches the optimum and says so in its report.
#[test]
fn walks_regroup_onto_a_diverse_elite() {
    use qapgpu::algo::aco::AcoEngine;
    use qapgpu::algo::ts::elite::diverse_winners;
    use qapgpu_common::ls::donor_rank;
    let (inst, known, mut e) = tai25b_walks(12);
    for round in 0..3 {
        e.local_search().unwrap();
        let (rows, stride, costs) = e.currents().unwrap();
        let (winners, elite) = diverse_winners(&rows, stride, 25, &costs, 4, 13);
        e.regroup_ranked(&winners, elite).unwrap();
        let (after, _, after_costs) = e.currents().unwrap();
        let mut moved = 0;
        for k in 0..12 {
            let from = donor_rank(winners[k], elite).map_or(k, |d| winners[12 + d as usize] as usize);
            assert_eq!(
                (&after[k * stride..k * stride + 25], after_costs[k]),
                (&rows[from * stride..from * stride + 25], costs[from]),
                "round {round}, walk {k}"
            );
            moved += usize::from(from != k);
        }
        assert_eq!(moved, 12 - elite as usize, "round {round}");
    }
    let mut opts = ts_on_cpu(known);
    (opts.aco.ants, opts.ts.regroup_every, opts.ts.regroup_distance) = (Some(8), Some(20), Some(0.5));
    let sol = qapgpu::solve(&inst, &opts).unwrap();
    assert_eq!(sol.cost, known);
    assert!(sol.layout.contains("at least 13 positions from every better one's"), "{}", sol.layout);
    let mut colony = qapgpu::Options { algorithm: Some("aco-ts".into()), ..opts };
    colony.ts.regroup_every = None;
    let err = qapgpu::solve(&inst, &colony).unwrap_err().to_string();
    assert!(err.contains("--regroup-distance") && err.contains("aco-ts"), "{err}");
}

/// `--regroup-perturb` on the CPU engine: after a regrouping (ranked by the engine or by the
/// host), the walks outside the elite stand a few swaps from their donors' solutions
/// (`AcoEngine::perturb_walks`), at their exact costs, and the elite as they were; a run that
/// regroups so reaches the optimum and says so in its report; only ts takes it.
#[test]
fn walks_regroup_onto_perturbed_copies_of_the_elite() {
    use qapgpu::algo::aco::AcoEngine;
    use qapgpu::algo::ts::elite::diverse_winners;
    use qapgpu_common::ls::donor_rank;
    let (inst, known, mut e) = tai25b_walks(12);
    for round in 0..4 {
        e.local_search().unwrap();
        let (rows, stride, costs) = e.currents().unwrap();
        // Rounds 0 and 2 ranked by the engine (the best 4 by cost), 1 and 3 by the host.
        let (winners, elite) = diverse_winners(&rows, stride, 25, &costs, 4, 0);
        if round % 2 == 0 {
            e.regroup(4).unwrap();
        } else {
            e.regroup_ranked(&winners, elite).unwrap();
        }
        e.perturb_walks(elite, 2, round).unwrap();
        let (after, _, after_costs) = e.currents().unwrap();
        let mut moved_any = false;
        for k in 0..12 {
            let row = &after[k * stride..k * stride + 25];
            assert_eq!(after_costs[k], inst.cost(row), "round {round}, walk {k}: the exact cost");
            match donor_rank(winners[k], elite) {
                Some(d) => {
                    let from = winners[12 + d as usize] as usize;
                    let donor = &rows[from * stride..from * stride + 25];
                    let moved = row.iter().zip(donor).filter(|(x, y)| x != y).count();
                    assert!(moved <= 4, "round {round}, walk {k}: {moved} positions from its donor");
                    moved_any |= moved > 0;
                }
                None => assert_eq!(row, &rows[k * stride..k * stride + 25], "round {round}, elite walk {k}"),
            }
        }
        assert!(moved_any, "round {round}: the starts are perturbed");
    }
    // A stop before any regrouping ranked the walks (the target reached in the first
    // segment): nothing moves, and the run ends with its answer.
    let (_, _, mut fresh) = tai25b_walks(12);
    fresh.site().stop.set();
    fresh.perturb_walks(4, 2, 0).unwrap();
    let (nug, nug_known) = bench::load("nug12").unwrap();
    let mut first = ts_on_cpu(nug_known);
    (first.ts.regroup_every, first.ts.regroup_perturb) = (Some(1 << 20), Some(0.2));
    assert_eq!(qapgpu::solve(&nug, &first).unwrap().cost, nug_known);
    let mut opts = ts_on_cpu(known);
    (opts.aco.ants, opts.ts.regroup_every, opts.ts.regroup_perturb) = (Some(8), Some(20), Some(0.2));
    let sol = qapgpu::solve(&inst, &opts).unwrap();
    assert_eq!(sol.cost, known);
    assert!(sol.layout.contains("restarting from theirs after 3 random swaps every 20 moves"), "{}", sol.layout);
    let mut colony = qapgpu::Options { algorithm: Some("aco-ts".into()), ..opts.clone() };
    colony.ts.regroup_every = None;
    let err = qapgpu::solve(&inst, &colony).unwrap_err().to_string();
    assert!(err.contains("--regroup-perturb") && err.contains("aco-ts"), "{err}");
    opts.ts.regroup_perturb = Some(1.5);
    let err = qapgpu::solve(&inst, &opts).unwrap_err().to_string();
    assert!(err.contains("--regroup-perturb"), "{err}");
    // Walks that do not regroup (the CPU's default; the wide path) refuse it, not ignore it.
    let mut plain = ts_on_cpu(known);
    plain.ts.regroup_perturb = Some(0.2);
    let err = qapgpu::solve(&inst, &plain).unwrap_err().to_string();
    assert!(err.contains("--regroup-perturb") && err.contains("do not regroup"), "{err}");
    let err = qapgpu::solve(&qapgpu_tests::zeros(257), &plain).unwrap_err().to_string();
    assert!(err.contains("--regroup-perturb") && err.contains("above n = 256"), "{err}");
    // The wide walks refuse every regrouping setting, not only this one.
    let mut wide = ts_on_cpu(0);
    wide.ts.regroup_every = Some(64);
    let err = qapgpu::solve(&qapgpu_tests::zeros(257), &wide).unwrap_err().to_string();
    assert!(err.contains("--regroup-every") && err.contains("drop --regroup-every"), "{err}");
    // An elite of every walk leaves none to perturb.
    opts.ts.regroup_perturb = Some(0.2);
    opts.ts.regroup_keep = Some(1.0);
    let err = qapgpu::solve(&inst, &opts).unwrap_err().to_string();
    assert!(err.contains("--regroup-perturb") && err.contains("--regroup-keep"), "{err}");
}

/// `--restart-after`: walks whose own bests stall for that many moves start afresh from
/// random solutions; the run's best never rises, and it is the cost of its permutation.
/// Only ts restarts.
#[test]
fn ts_walks_restart_after_a_stall_and_keep_the_best() {
    use qapgpu::algo::{Backend, build};
    let (inst, _) = bench::load("tai40a").unwrap();
    let mut opts = ts_on_cpu(0);
    // 100 moves a launch: each `advance` is 100 moves of every walk.
    (opts.aco.ls_iterations, opts.ts.restart_after) = (Some(100), Some(200));
    let mut s = build(&Backend::Cpu { threads: 2 }, &inst, &opts).unwrap();
    assert!(
        s.info().layout.contains("from random solutions after 200 moves without a new best"),
        "{}",
        s.info().layout
    );
    s.init().unwrap();
    let mut last = s.best().unwrap().0;
    for _ in 0..60 {
        s.advance().unwrap();
        let (cost, perm) = s.best().unwrap();
        assert!(cost <= last);
        assert_eq!(cost, inst.cost(&perm));
        last = cost;
    }
    let restarts = s.counters().unwrap().restarts;
    // A fresh start improves on its first launch, so at most one restart every 3 launches.
    assert!((1..=20).contains(&restarts), "{restarts} restarts in 60 launches");
    let never = qapgpu::Options {
        ts: qapgpu::algo::ts::TsOptions { restart_after: Some(0), ..opts.ts.clone() },
        ..opts.clone()
    };
    let mut s = build(&Backend::Cpu { threads: 2 }, &inst, &never).unwrap();
    s.init().unwrap();
    for _ in 0..20 {
        s.advance().unwrap();
    }
    assert_eq!(s.counters().unwrap().restarts, 0);
    let colony = qapgpu::Options { algorithm: Some("aco-ts".into()), ..opts };
    let e = build(&Backend::Cpu { threads: 2 }, &inst, &colony).err().unwrap().to_string();
    assert!(e.contains("--restart-after") && e.contains("aco-ts"), "{e}");
}

/// `--restart-cycle`: every walk starts afresh after the cycle's moves, each cycle twice as
/// long as the last, with the launches cut to end where a cycle does, at most
/// `MAX_CYCLE_RESTARTS` times; the run's best never rises, and it is the cost of its
/// permutation. Only ts restarts.
#[test]
fn ts_walks_restart_in_cycles_that_double() {
    use qapgpu::algo::{Backend, build};
    let (inst, _) = bench::load("tai40a").unwrap();
    let mut opts = ts_on_cpu(0);
    // Cycles of 100, 200, 400, 800 and 1600 moves, in launches of at most 64: 2, 4, 7, 13 and
    // 26 launches, then the last population runs on.
    assert_eq!(qapgpu::algo::policy::MAX_CYCLE_RESTARTS, 4);
    (opts.aco.ls_iterations, opts.ts.restart_cycle) = (Some(64), Some(100));
    let mut s = build(&Backend::Cpu { threads: 2 }, &inst, &opts).unwrap();
    assert!(
        s.info()
            .layout
            .contains("from random solutions after 100 moves, each later cycle twice as long, at most 4 times"),
        "{}",
        s.info().layout
    );
    s.init().unwrap();
    let mut last = s.best().unwrap().0;
    // `init` made the first launch.
    for step in 2..=70 {
        s.advance().unwrap();
        let (cost, perm) = s.best().unwrap();
        assert!(cost <= last);
        assert_eq!(cost, inst.cost(&perm));
        last = cost;
        let c = s.counters().unwrap();
        let want = match step {
            ..=1 => 0,
            2..=5 => 1,
            6..=12 => 2,
            13..=25 => 3,
            _ => 4,
        };
        assert_eq!(c.restarts, want, "after launch {step}");
        if step == 13 {
            assert_eq!(c.iterations, 2 * (100 + 200 + 400), "two walks' moves in three cycles");
        }
    }
    let colony = qapgpu::Options { algorithm: Some("aco-ts".into()), ..opts };
    let e = build(&Backend::Cpu { threads: 2 }, &inst, &colony).err().unwrap().to_string();
    assert!(e.contains("--restart-cycle") && e.contains("aco-ts"), "{e}");
}

/// Several devices, one run (`algo::multi`), with CPU "devices": every family reaches the
/// target, the report names both devices, and the device that reaches the target stops the
/// other inside its launch (walks of 2³¹ − 1 moves per launch would otherwise run on).
#[test]
fn several_devices_share_the_target_stop() {
    use qapgpu::algo::Backend;
    use qapgpu::api::solve_on_all;
    use qapgpu::run::Silent;
    let devices = [Backend::Cpu { threads: 1 }, Backend::Cpu { threads: 1 }];
    let (inst, known) = bench::load("nug12").unwrap();
    for algo in ["ts", "aco-ts", "ga-independent", "cga"] {
        let opts = qapgpu::Options {
            algorithm: Some(algo.into()),
            target: Some(known),
            seed: 3,
            time_limit: Some(Duration::from_secs(60)),
            ..qapgpu::Options::default()
        };
        let sol = solve_on_all(&devices, &inst, &opts, &mut Silent, &AtomicBool::new(false)).unwrap();
        assert_eq!(sol.cost, known, "{algo}");
        assert!(sol.device.starts_with("2 devices"), "{algo}: {}", sol.device);
    }
    let (big, opt, _) = qapgpu::Instance::planted(48, 4);
    let mut opts = qapgpu::Options {
        algorithm: Some("ts".into()),
        target: Some(opt),
        seed: 1,
        time_limit: Some(Duration::from_secs(100)),
        ..qapgpu::Options::default()
    };
    opts.aco.ls_iterations = Some(i32::MAX as u32);
    let sol = solve_on_all(&devices, &big, &opts, &mut Silent, &AtomicBool::new(false)).unwrap();
    assert_eq!(sol.cost, opt);
    assert!(sol.elapsed_s < 50.0, "the other device was not stopped: {} s", sol.elapsed_s);
}

/// The memetic hybrid on the CPU: its breedings restart the worst quarter of the walks from
/// children (16 walks: 4 children every 4 launches), costs stay exact, the best never
/// worsens, and it reaches kra30a's optimum.
#[test]
fn memetic_breeds_and_reaches_the_optimum() {
    use qapgpu::algo::{Backend, build};
    let (inst, known) = bench::load("tai40a").unwrap();
    let opts = qapgpu::Options { algorithm: Some("memetic".into()), seed: 2, ..qapgpu::Options::default() };
    let mut s = build(&Backend::Cpu { threads: 2 }, &inst, &opts).unwrap();
    s.init().unwrap();
    let mut last = s.best().unwrap().0;
    for _ in 0..7 {
        s.advance().unwrap();
        let (c, p) = s.best().unwrap();
        assert!(c <= last && c == inst.cost(&p) && c >= known);
        last = c;
    }
    assert_eq!(s.counters().unwrap().restarts, 8, "two breedings of 4 children");
    let (inst, known) = bench::load("kra30a").unwrap();
    let opts = qapgpu::Options {
        algorithm: Some("memetic".into()),
        target: Some(known),
        seed: 1,
        engine: qapgpu::algo::EngineChoice::Cpu,
        time_limit: Some(Duration::from_secs(120)),
        ..qapgpu::Options::default()
    };
    assert_eq!(qapgpu::solve(&inst, &opts).unwrap().cost, known);
}

/// `auto` sets its colonies for time to target: structured data (tai80b) one wave of ants,
/// IT_TS = n, class iv, a tenure per entry; uniform data above n = 100 IT_TS = 32n and one
/// wave. On the GPU, uniform data from n = 41 to 100 (tai50a, tai80a) and every n ≤ 40 go to
/// `ts`, which `tune` leaves alone; on the CPU uniform data above n = 40 keeps the colony, and
/// n = 37–40 runs Table 4's class (i) colony. It
/// keeps what the user set, and `--one-wave` on the CPU cuts m to one ant per thread.
#[test]
fn auto_tunes_the_colony_on_structured_data() {
    use qapgpu::algo::{Backend, auto, build, policy};
    let (b80, _) = bench::load("tai80b").unwrap();
    let (a80, _) = bench::load("tai80a").unwrap();
    let opts = qapgpu::Options::default();
    assert_eq!(auto::choose(&b80, true).0, "aco-ts");
    assert_eq!(auto::choose(&a80, true).0, "ts");
    // n = 37–40: the walks on the GPU, Table 4's class (i) colony on the CPU; n ≤ 36 the
    // walks on both.
    let (a40, _) = bench::load("tai40a").unwrap();
    let (b35, _) = bench::load("tai35b").unwrap();
    assert_eq!((auto::choose(&a40, true).0, auto::choose(&a40, false).0), ("ts", "aco-ts"));
    assert_eq!((auto::choose(&b35, true).0, auto::choose(&b35, false).0), ("ts", "ts"));
    let t40 = auto::tune(&a40, &opts, false);
    assert_eq!((t40.aco.ls_iterations, t40.aco.one_wave, t40.aco.ants), (Some(640), Some(false), None));
    assert!(matches!(t40.aco.class, Some(qapgpu::algo::aco::Class::Random)));
    assert!(policy::is_uniform(&a80) && !policy::is_uniform(&b80));
    let t = auto::tune(&b80, &opts, true);
    assert_eq!((t.aco.one_wave, t.aco.ls_iterations, t.aco.tenure_per_move), (Some(true), Some(80), Some(false)));
    assert!(matches!(t.aco.class, Some(qapgpu::algo::aco::Class::RealLifeLike)));
    assert_eq!(auto::tune(&a80, &opts, true).aco.ls_iterations, None);
    // Structured data: sums settling at n ≤ 128; above, sums only where it runs the fast
    // path on the GPU (tai150b), else MATA. A layout the user chose is kept.
    use qapgpu::algo::aco::{Layout, LayoutRule};
    assert_eq!(
        (t.aco.layout, auto::layout_rule(&b80, &opts, true)),
        (Some(Layout::Sums), LayoutRule::Settle { chosen: false })
    );
    let (b150, _) = bench::load("tai150b").unwrap();
    let t150 = auto::tune(&b150, &opts, true);
    assert_eq!((t150.aco.layout, auto::layout_rule(&b150, &opts, true)), (Some(Layout::Sums), LayoutRule::SumsIfFast));
    let mut split = opts.clone();
    split.aco.layout = Some(Layout::Split);
    assert_eq!(
        (auto::tune(&b150, &split, true).aco.layout, auto::layout_rule(&b150, &split, true)),
        (Some(Layout::Split), LayoutRule::Kept)
    );
    assert_eq!(auto::layout_rule(&a80, &opts, true), LayoutRule::Kept);
    // Uniform data above n = 100: the colony (a random instance of n = 101 with tai*a's
    // entries, 0 to 99).
    let mut rng = qapgpu_common::rng::Xoshiro128::from_stream(7, 0);
    let entries =
        |rng: &mut qapgpu_common::rng::Xoshiro128| (0..101 * 101).map(|_| rng.below(100) as i64).collect::<Vec<i64>>();
    let a101 = qapgpu::io::Instance::new("uniform101", 101, entries(&mut rng), entries(&mut rng)).unwrap();
    assert!(policy::is_uniform(&a101));
    assert_eq!(auto::choose(&a101, true).0, "aco-ts");
    let t = auto::tune(&a101, &opts, true);
    assert_eq!(
        (t.aco.one_wave, t.aco.ls_iterations, t.aco.tenure_per_move, t.aco.ants),
        (Some(true), Some(3232), None, Some(qapgpu::algo::aco::MAX_ANTS))
    );
    assert!(matches!(t.aco.class, Some(qapgpu::algo::aco::Class::Random)));
    let (a50, _) = bench::load("tai50a").unwrap();
    assert_eq!(auto::choose(&a50, true).0, "ts");
    assert_eq!(auto::tune(&a40, &opts, true).aco.ls_iterations, None);
    // On the CPU the colony keeps uniform data above n = 40, tuned as above n = 100, and
    // structured data above n = 40 (on 16 cores the colony ended lower than `ts` on tai50b
    // and tai60b, `algo::policy`).
    assert_eq!((auto::choose(&a50, false).0, auto::choose(&a80, false).0), ("aco-ts", "aco-ts"));
    let (b50, _) = bench::load("tai50b").unwrap();
    let (b60, _) = bench::load("tai60b").unwrap();
    assert_eq!(
        (auto::choose(&b50, false).0, auto::choose(&b60, false).0, auto::choose(&b80, false).0),
        ("aco-ts", "aco-ts", "aco-ts")
    );
    assert_eq!((auto::choose(&b50, true).0, auto::choose(&b60, true).0), ("aco-ts", "aco-ts"));
    assert_eq!(auto::tune(&a80, &opts, false).aco.ls_iterations, Some(32 * 80));
    let mut mine = qapgpu::Options::default();
    mine.aco.ls_iterations = Some(77);
    assert_eq!(auto::tune(&b80, &mine, true).aco.ls_iterations, Some(77));
    let s = build(&Backend::Cpu { threads: 2 }, &b80, &opts).unwrap();
    assert_eq!(s.info().blocks, 2, "one wave on two CPU threads");
    let paper = qapgpu::Options { algorithm: Some("aco-ts".into()), ..qapgpu::Options::default() };
    assert_eq!(build(&Backend::Cpu { threads: 2 }, &b80, &paper).unwrap().info().blocks, 320, "Table 4: m = 4n");
}

/// `bench compare` logs every run (`bench::RunLog`, `compare-runs.csv`): a row a run, with
/// the run's own seed, its time to the target where it reached it, and its re-costed cost,
/// matching the summary's counts.
#[test]
fn compare_logs_every_run_beside_its_summary() {
    use qapgpu::algo::Backend;
    let base = qapgpu::Options { seed: 7, threads: 2, ..qapgpu::Options::default() };
    let names = vec!["nug12".to_string()];
    let algos = vec!["ts".to_string(), "aco-ts".to_string()];
    let cpu = [Backend::Cpu { threads: 2 }];
    let (table, log) = bench::compare::protocol(&cpu, &base, &names, &algos, 3, Duration::from_secs(60), 0.0).unwrap();
    let (_, known) = bench::load("nug12").unwrap();
    let csv = log.csv();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("instance,target,algorithm,engine,seed,time to target (s),elapsed (s),cost"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 6, "{csv}");
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r[..4], ["nug12", &known.to_string(), algos[i / 3].as_str(), "CPU"], "{csv}");
        assert_eq!(r[4], (7 + i % 3).to_string(), "seeds count up from the base seed");
        let cost: i64 = r[7].parse().unwrap();
        let t: f64 = r[5].parse().unwrap_or_else(|_| panic!("run {i} did not reach nug12's optimum: {csv}"));
        assert_eq!(cost, known);
        assert!(t >= 0.0 && t <= r[6].parse::<f64>().unwrap(), "{csv}");
    }
    // The summary counts the same runs.
    for row in &table.rows {
        assert_eq!((row[3].as_str(), row[4].as_str()), ("3", "3"), "{:?}", row);
    }
    let dir = std::env::temp_dir().join(format!("qapgpu-runlog-{}", std::process::id()));
    log.write(&dir, "compare").unwrap();
    assert_eq!(std::fs::read_to_string(dir.join("compare-runs.csv")).unwrap(), csv);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Grey patterns (`policy::null_swap_rich`): from n = 151 on the GPU, `auto` runs the walks,
/// which skip the null swaps and regroup all along; below, and on the CPU, the colony.
#[test]
fn auto_runs_the_walks_on_large_grey_patterns_on_the_gpu() {
    use qapgpu::algo::{auto, policy};
    let (g256, g64) = (qapgpu_tests::grey(256, 92), qapgpu_tests::grey(64, 13));
    assert!(g256.null_swap_share() >= policy::NULL_SWAP_SHARE, "{}", g256.null_swap_share());
    assert!(policy::null_swap_rich(&g256) && !policy::null_swap_rich(&g64));
    assert_eq!((auto::choose(&g256, true).0, auto::choose(&g256, false).0), ("ts", "aco-ts"));
    assert_eq!(auto::choose(&g64, true).0, "aco-ts");
}
