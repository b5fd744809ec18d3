//! The ACO kernels (construction, tabu search and 2-opt in both thread mappings, pheromone)
//! against their CPU twin: same seed, bit-identical ants, costs, τ and RNG states. These
//! tests need a GPU; without one they are reported as ignored, with the reason
//! (`qapgpu_tests::harness`).
use qapgpu::algo::aco::cpu::AcoCpu;
use qapgpu::algo::aco::gpu::AcoGpu;
use qapgpu::algo::aco::{self, AcoConfig, AcoEngine, AcoSolver, Class, Layout};
use qapgpu::algo::ts::elite::diverse_winners;
use qapgpu::gpu::Gpu;
use qapgpu::io::Instance;
use qapgpu::io::qaplib;
use qapgpu_common::delta::DeltaWidth;
use qapgpu_common::layout::{LsLayout, Placement};
use qapgpu_common::ls::{LsKind, TenureLaw};
use qapgpu_common::narrow_tabu;
use qapgpu_common::sums::Side;
use qapgpu_tests::{case, gpu, grey, grey_locations, near_limit, negatives, small, symmetrised, zeros};

/// Every layout that runs on `inst`: the sums one needs a symmetric side.
fn layouts(inst: &Instance) -> Vec<Layout> {
    let mut all = vec![Layout::Mata, Layout::Plain, Layout::Split];
    if inst.sums_side().is_some() {
        all.push(Layout::Sums);
    }
    all
}

fn load(name: &str) -> Instance {
    qaplib::read_dat(&qaplib::resolve(name)).unwrap()
}

/// Runs init and `iterations` cAS iterations on both engines, comparing every state.
fn twin(
    g: &Gpu,
    inst: &Instance,
    ls: LsKind,
    layout: Layout,
    ants: u32,
    ls_iterations: u32,
    iterations: usize,
) -> AcoGpu {
    twin_with(g, inst, ls, layout, ants, ls_iterations, iterations, false)
}

/// `twin`, with the GPU's move costs in i64 whatever the instance allows when `wide_delta`.
#[allow(clippy::too_many_arguments)]
fn twin_with(
    g: &Gpu,
    inst: &Instance,
    ls: LsKind,
    layout: Layout,
    ants: u32,
    ls_iterations: u32,
    iterations: usize,
    wide_delta: bool,
) -> AcoGpu {
    let mut cfg = AcoConfig::paper(ls, inst.n as u32, Class::of(&inst.name));
    cfg.layout = layout;
    cfg.wide_delta = wide_delta;
    cfg.ants = ants;
    cfg.ls_iterations = ls_iterations;
    cfg.seed = 4242;
    let mut gpu = AcoGpu::new(g.clone(), inst, &cfg).unwrap();
    cfg.skip_null_swaps = gpu.skips_null_swaps();
    let mut cpu = AcoCpu::new(inst, &cfg, 2).unwrap();
    let what = format!("{} {ls:?} {layout:?}", inst.name);
    let compare = |gpu: &mut AcoGpu, cpu: &mut AcoCpu, step: &str| {
        let (s1, s2) = (gpu.snapshot().unwrap(), cpu.snapshot().unwrap());
        assert_eq!(s1.cant_costs, s2.cant_costs, "{what} {step}: c-ant costs differ");
        assert_eq!(s1.cants, s2.cants, "{what} {step}: c-ants differ");
        assert_eq!(s1.ls_iterations, s2.ls_iterations, "{what} {step}: local-search lengths differ");
        assert_eq!(s1.ants, s2.ants, "{what} {step}: unit bests differ");
        assert_eq!(s1.ant_costs, s2.ant_costs, "{what} {step}: unit best costs differ");
        assert_eq!(s1.rng, s2.rng, "{what} {step}: RNG states differ");
        assert_eq!(s1.tau_bits, s2.tau_bits, "{what} {step}: pheromone differs");
        assert_eq!(s1.best, s2.best, "{what} {step}: best-so-far differs");
        for (p, &c) in s1.ants.iter().zip(&s1.ant_costs) {
            assert_eq!(inst.cost(p), c, "{what} {step}: a unit best's cost is wrong");
        }
    };
    let n = inst.n;
    aco::init(&mut gpu, n).unwrap();
    aco::init(&mut cpu, n).unwrap();
    compare(&mut gpu, &mut cpu, "after init");
    for it in 0..iterations {
        aco::iterate(&mut gpu, n).unwrap();
        aco::iterate(&mut cpu, n).unwrap();
        compare(&mut gpu, &mut cpu, &format!("after iteration {it}"));
    }
    let (c, p) = gpu.best().unwrap();
    assert_eq!(inst.cost(&p), c);
    gpu
}

fn small_instances_every_width_mapping_and_search() {
    let g = gpu();
    // The symmetrised copies put the sums mapping's table on either side, with and without
    // zero diagonals (neg17's diagonal is not zero).
    for inst in [
        load("nug12"),
        load("els19"),
        negatives(),
        symmetrised(&negatives(), Side::A),
        symmetrised(&negatives(), Side::B),
    ] {
        for ls in [LsKind::Tabu, LsKind::TwoOpt] {
            for layout in layouts(&inst) {
                twin(&g, &inst, ls, layout, 8, 3 * inst.n as u32, 3);
            }
        }
    }
    // The colony's searches on the fast path too (`split::drive`'s `FAST`).
    let e = twin(&g, &load("nug12"), LsKind::Tabu, Layout::Sums, 8, 36, 2);
    assert!(e.layout.fast_path(), "nug12's colony is off the fast path: {:?}", e.layout);
}

fn paper_sized_instances() {
    let g = gpu();
    // tai40a: class (i) settings; tai50b: class (iv); tai150b: Δ and tabu in shared memory.
    twin(&g, &load("tai40a"), LsKind::Tabu, Layout::Mata, 40, 200, 2);
    twin(&g, &load("tai50b"), LsKind::Tabu, Layout::Plain, 24, 100, 2);
    twin(&g, &load("tai50b"), LsKind::TwoOpt, Layout::Mata, 24, 200, 2);
    let e = twin(&g, &load("tai150b"), LsKind::Tabu, Layout::Mata, 6, 60, 1);
    assert_eq!(e.layout.delta_placement, Placement::Shared);
    // The split mapping: several rounds of O(n) groups, and 2-opt to a local minimum.
    twin(&g, &load("tai40a"), LsKind::Tabu, Layout::Split, 40, 200, 2);
    twin(&g, &load("tai50b"), LsKind::TwoOpt, Layout::Split, 24, 200, 2);
    twin(&g, &load("tai150b"), LsKind::Tabu, Layout::Split, 6, 60, 1);
    // The sums mapping: tai40a's symmetric A and B, tai50b's symmetric A only.
    twin(&g, &load("tai40a"), LsKind::Tabu, Layout::Sums, 40, 200, 2);
    twin(&g, &load("tai50b"), LsKind::TwoOpt, Layout::Sums, 24, 200, 2);
    twin(&g, &load("tai50b"), LsKind::Tabu, Layout::Sums, 24, 100, 2);
    // tai100b's c-ants on the fast path with 2-byte tabu entries (`narrow_tabu`), where
    // 4-byte ones would leave the tabu matrix in global memory.
    let e = twin(&g, &load("tai100b"), LsKind::Tabu, Layout::Sums, 6, 100, 2);
    assert!(
        e.layout.fast_path() && e.layout.tabu_entry == 2,
        "tai100b's searches are off the narrow kernels: {:?}",
        e.layout
    );
    // tai150b's c-ants on the fast path with the moves' pairs read from global memory.
    let e = twin(&g, &load("tai150b"), LsKind::Tabu, Layout::Sums, 6, 60, 1);
    assert!(
        e.layout.fast_path() && !e.layout.pairs_shared,
        "tai150b's searches are off the global-pairs kernels: {:?}",
        e.layout
    );
}

fn n_256_uses_global_memory_and_a_larger_ns() {
    let g = gpu();
    let (inst, _, _) = Instance::planted(256, 5);
    // i64 move costs (261 KB per ant) do not fit a block's shared memory; i32 ones do where
    // the GPU has 130 KB (sm_80, sm_90).
    let e = twin_with(&g, &inst, LsKind::Tabu, Layout::Mata, 3, 40, 1, true);
    assert_eq!(e.layout.delta_placement, Placement::Global);
    assert_eq!(e.layout.tabu_placement, Placement::Global);
    assert_eq!(e.layout.ab_placement, Placement::Global);
    assert!(e.threads_per_block() <= 1024);
    let e = twin(&g, &inst, LsKind::Tabu, Layout::Mata, 3, 40, 1);
    assert_eq!(e.layout.delta_width, DeltaWidth::I32);
    assert_eq!(e.layout.tabu_placement, Placement::Global);
    // Split: its tables fit beside an i32 Δ table; with i64 costs they do not, and the
    // engine says so instead of launching.
    let e = twin(&g, &inst, LsKind::Tabu, Layout::Split, 3, 40, 1);
    assert_eq!(e.layout.delta_placement, Placement::Shared);
    // Sums: the planted instance's matrices are not symmetric; its symmetrised copy's
    // i32 table (256 KB) does not fit a block, and the engine says so instead of launching.
    let sym = symmetrised(&inst, Side::A);
    let mut cfg = AcoConfig::paper(LsKind::Tabu, 256, Class::Random);
    cfg.layout = Layout::Sums;
    let err = AcoGpu::new(g.clone(), &inst, &cfg).err().expect("no symmetric side");
    assert!(err.to_string().contains("--layout split"), "{err}");
    let err = AcoGpu::new(g.clone(), &sym, &cfg).err().expect("a 256 KB table cannot fit a block");
    assert!(err.to_string().contains("--layout mata"), "{err}");
    let mut cfg = AcoConfig::paper(LsKind::Tabu, 256, Class::Random);
    (cfg.layout, cfg.wide_delta) = (Layout::Split, true);
    let err = AcoGpu::new(g.clone(), &inst, &cfg).err().expect("an i64 split plan at n = 256 cannot run");
    assert!(err.to_string().contains("--layout mata"), "{err}");
}

fn move_costs_in_i32_or_i64_with_the_matrices_in_either_memory() {
    let g = gpu();
    // i32 where the bound allows, and forced i64; A and B in shared memory at n = 40, in
    // global memory at n = 150 with i64 costs (Δ and A, B do not fit beside each other).
    let (tai40a, tai150b, wide) = (load("tai40a"), load("tai150b"), small(12, 60_000));
    for (inst, forced) in [(&tai40a, false), (&tai40a, true), (&tai150b, false), (&tai150b, true), (&wide, false)] {
        for layout in layouts(inst) {
            let e = twin_with(&g, inst, LsKind::Tabu, layout, 12, 3 * inst.n as u32, 2, forced);
            let expect = if forced { DeltaWidth::I64 } else { inst.delta_width() };
            assert_eq!(e.layout.delta_width, expect, "{}", inst.name);
        }
    }
    assert_eq!(wide.delta_width(), DeltaWidth::I64);
    let e = twin(&g, &tai40a, LsKind::Tabu, Layout::Mata, 4, 40, 1);
    assert_eq!((e.layout.delta_width, e.layout.ab_placement), (DeltaWidth::I32, Placement::Shared));
}

fn gpu_reaches_the_optimum_of_small_instances() {
    let g = gpu();
    for name in ["nug12", "tai20b"] {
        let inst = load(name);
        let known = qaplib::best_known(&qaplib::resolve(name), &inst).value().unwrap();
        let mut cfg = AcoConfig::paper(LsKind::Tabu, inst.n as u32, Class::of(name));
        cfg.seed = 3;
        let e = AcoGpu::new(g.clone(), &inst, &cfg).unwrap();
        let mut solver = AcoSolver::new(Box::new(e), inst.n, Some(known), None);
        let limits = qapgpu::run::Limits { time_limit: Some(std::time::Duration::from_secs(60)), known: Some(known) };
        let out = qapgpu::run::run(&mut solver, &limits, &mut qapgpu::run::Silent, &Default::default()).unwrap();
        assert_eq!(out.cost, known, "{name}: stopped at {} after {} iterations", out.cost, out.counters.iterations);
        assert_eq!(inst.cost(&out.perm), known);
    }
}

fn degenerate_instances_match_their_cpu_twin() {
    let g = gpu();
    // All-zero flows: no move ever improves, so a tabu search returns its start. n = 3: the
    // smallest neighbourhood. Costs near 2⁶³.
    for inst in [
        zeros(12),
        small(3, 50),
        near_limit(),
        symmetrised(&near_limit(), Side::B),
        symmetrised(&small(3, 50), Side::A),
    ] {
        for ls in [LsKind::Tabu, LsKind::TwoOpt] {
            for layout in layouts(&inst) {
                twin(&g, &inst, ls, layout, 6, 4 * inst.n as u32, 3);
            }
        }
    }
}

/// Grey patterns (`common::null_swaps`): the walks off the fast path skip the swaps of two
/// alike facilities (`grey`) or of two facilities on alike locations (`grey_locations`), on
/// both engines alike (n = 40, and 256 with the tabu matrix in global memory); the c-ants'
/// searches take them, on both engines alike. (The CPU engine's walks end elsewhere when
/// they take them: `local_search`'s `the_walks_skip_null_swaps_unless_told_not_to`.)
fn null_swaps_skipped_as_on_the_cpu() {
    let g = gpu();
    let skips = |inst: &Instance, layout: Layout, walks: u32, per_launch: u32, aspiration: u32| {
        let cfg = walk_config(inst, layout, walks, per_launch, aspiration, TenureLaw::Cubic);
        AcoGpu::new(g.clone(), inst, &cfg).unwrap().skips_null_swaps()
    };
    let grey40 = grey(40, 14);
    for layout in [Layout::Mata, Layout::Plain, Layout::Split] {
        let e = twin(&g, &grey40, LsKind::Tabu, layout, 8, 200, 2);
        assert!(!e.skips_null_swaps(), "grey40 {layout:?}: the c-ants' searches skipped null swaps");
    }
    for inst in [grey40, grey_locations(40, 14)] {
        for layout in [Layout::Mata, Layout::Split, Layout::Sums] {
            twin_walks(&g, &inst, layout, 8, 300, 3, 4 * 40);
            let off_fast_path = layout != Layout::Sums;
            assert_eq!(skips(&inst, layout, 8, 300, 4 * 40), off_fast_path, "{} {layout:?} walks", inst.name);
        }
    }
    let grey256 = grey(256, 92);
    twin(&g, &grey256, LsKind::Tabu, Layout::Mata, 3, 60, 1);
    // MATA's walks do not fit a block at n = 256 (104 registers a thread); `ts` runs split.
    twin_walks(&g, &grey256, Layout::Split, 4, 200, 2, 0);
    assert!(skips(&grey256, Layout::Split, 4, 200, 0), "grey256 split walks: no null swap skipped");
}

/// The walks' states on the GPU (`s1`) and the CPU (`s2`) are the same: current and best
/// solutions, their costs, RNG states.
fn walks_agree(s1: &aco::AcoSnapshot, s2: &aco::AcoSnapshot, what: &str) {
    assert_eq!(s1.cants, s2.cants, "{what}: current solutions differ");
    assert_eq!(s1.cant_costs, s2.cant_costs, "{what}: current costs differ");
    assert_eq!(s1.ants, s2.ants, "{what}: walk bests differ");
    assert_eq!(s1.ant_costs, s2.ant_costs, "{what}: walk best costs differ");
    assert_eq!(s1.rng, s2.rng, "{what}: RNG states differ");
}

/// The `ts` family's walks (tabu search going on from launch to launch, Taillard's
/// long-term aspiration) against their CPU twin, over several launches: tabu matrices and
/// iteration counts carried between launches must agree for the moves to agree.
fn twin_walks(g: &Gpu, inst: &Instance, layout: Layout, walks: u32, per_launch: u32, launches: usize, aspiration: u32) {
    twin_walks_with(g, inst, layout, walks, per_launch, launches, aspiration, TenureLaw::Cubic);
}

/// The walks' settings of `twin_walks_with`.
fn walk_config(
    inst: &Instance,
    layout: Layout,
    walks: u32,
    per_launch: u32,
    aspiration: u32,
    law: TenureLaw,
) -> AcoConfig {
    let mut cfg = AcoConfig::paper(LsKind::Tabu, inst.n as u32, Class::Random);
    cfg.tenure_law = law;
    (cfg.layout, cfg.ants, cfg.ls_iterations, cfg.seed) = (layout, walks, per_launch, 77);
    (cfg.walk, cfg.aspiration, cfg.tabu_list_size) = (true, aspiration, 8 * inst.n as u32);
    cfg
}

/// `twin_walks` with the tenure law `law`; the GPU's memory plan.
#[allow(clippy::too_many_arguments)]
fn twin_walks_with(
    g: &Gpu,
    inst: &Instance,
    layout: Layout,
    walks: u32,
    per_launch: u32,
    launches: usize,
    aspiration: u32,
    law: TenureLaw,
) -> LsLayout {
    let mut cfg = walk_config(inst, layout, walks, per_launch, aspiration, law);
    let mut gpu = AcoGpu::new(g.clone(), inst, &cfg).unwrap();
    cfg.skip_null_swaps = gpu.skips_null_swaps();
    let mut cpu = AcoCpu::new(inst, &cfg, 2).unwrap();
    gpu.random_ants().unwrap();
    cpu.random_ants().unwrap();
    for launch in 0..launches {
        if launch == 2 {
            // Walks restarted between launches (memetic's children), all in one call: the
            // GPU's batched copy must leave every other walk where it stood.
            let n = inst.n;
            let (id, rev): (Vec<u8>, Vec<u8>) = ((0..n as u8).collect(), (0..n as u8).rev().collect());
            let units = vec![(1, id.clone(), inst.cost(&id)), (walks as usize - 1, rev.clone(), inst.cost(&rev))];
            gpu.put_units(&units).unwrap();
            cpu.put_units(&units).unwrap();
        }
        gpu.local_search().unwrap();
        cpu.local_search().unwrap();
        let (s1, s2) = (gpu.snapshot().unwrap(), cpu.snapshot().unwrap());
        let what = format!("{} {layout:?} walks, {law:?} tenures, launch {launch}", inst.name);
        walks_agree(&s1, &s2, &what);
        for ((p, &c), (q, &d)) in s1.cants.iter().zip(&s1.cant_costs).zip(s1.ants.iter().zip(&s1.ant_costs)) {
            assert_eq!((inst.cost(p), inst.cost(q)), (c, d), "{what}: a cost is wrong");
        }
    }
    gpu.layout
}

fn walks_go_on_across_launches_as_on_the_cpu() {
    let g = gpu();
    // Short aspiration so that it acts within the test; tabu in shared memory (n = 12, 25)
    // and in global memory (tai150b); every element width.
    for inst in [load("nug12"), load("tai25b"), negatives(), symmetrised(&negatives(), Side::B)] {
        for layout in layouts(&inst) {
            twin_walks(&g, &inst, layout, 12, 5 * inst.n as u32, 4, 3 * inst.n as u32);
        }
        twin_walks_with(&g, &inst, Layout::Split, 12, 5 * inst.n as u32, 4, 3 * inst.n as u32, TenureLaw::Uniform);
    }
    twin_walks_with(&g, &load("tai35b"), Layout::Sums, 12, 200, 3, 100, TenureLaw::Uniform);
    // The portfolio: even walks cubic, odd ones uniform (each resolved by its block index),
    // on the kernels' fast path: i32 move costs, A, B and the tabu matrix in shared memory,
    // every move classed without a branch (`split::drive`'s `FAST`).
    let fast = twin_walks_with(&g, &load("tai35b"), Layout::Sums, 12, 200, 3, 100, TenureLaw::Mixed);
    assert!(fast.fast_path(), "tai35b's walks are off the fast path: {fast:?}");
    // Tables in rows of n + 1 (n a multiple of 8): the fast path's padded kernels.
    for name in ["esc16a", "tai80a"] {
        let padded = twin_walks_with(&g, &load(name), Layout::Sums, 12, 200, 3, 100, TenureLaw::Mixed);
        assert!(
            padded.fast_path() && padded.row == padded.n + 1,
            "{name}'s walks are off the padded kernels: {padded:?}"
        );
    }
    // Tabu entries of 2 bytes (`narrow_tabu`): tai100a in rows of n, a symmetric n = 96 in
    // rows of n + 1; launches longer than `narrow_tabu::LAUNCH_MAX` moves, which the host
    // splits, and an aspiration that acts within them.
    let narrow = twin_walks_with(&g, &load("tai100a"), Layout::Sums, 12, 200, 3, 100, TenureLaw::Mixed);
    assert!(
        narrow.fast_path() && narrow.tabu_entry == 2 && narrow.row == 100,
        "tai100a's walks are off the narrow kernels: {narrow:?}"
    );
    let long = twin_walks_with(
        &g,
        &load("tai100a"),
        Layout::Sums,
        4,
        narrow_tabu::LAUNCH_MAX + 904,
        2,
        3000,
        TenureLaw::Mixed,
    );
    assert_eq!(long.tabu_entry, 2);
    let sym96 = symmetrised(&small(96, 100), Side::A);
    let padded = twin_walks_with(&g, &sym96, Layout::Sums, 12, 200, 3, 100, TenureLaw::Mixed);
    assert!(
        padded.fast_path() && padded.tabu_entry == 2 && padded.row == 97,
        "n = 96's walks are off the narrow padded kernels: {padded:?}"
    );
    twin_walks_with(&g, &load("nug12"), Layout::Mata, 12, 60, 3, 36, TenureLaw::Mixed);
    twin_walks(&g, &load("tai150b"), Layout::Mata, 3, 40, 3, 60);
    twin_walks(&g, &load("tai150b"), Layout::Split, 3, 40, 3, 60);
    twin_walks(&g, &load("tai150b"), Layout::Sums, 3, 40, 3, 60);
    // All-zero flows, n = 3, costs near 2⁶³.
    for inst in [zeros(12), small(3, 50), near_limit(), symmetrised(&near_limit(), Side::A)] {
        for layout in layouts(&inst).into_iter().filter(|&l| l != Layout::Plain) {
            twin_walks(&g, &inst, layout, 6, 4 * inst.n as u32, 3, 2 * inst.n as u32);
        }
    }
}

/// Walks that regroup onto the best `elite` after every launch ("go with the winners", the
/// GPU's default for `ts`) against their CPU twin: the ranks, the donors, the fresh tabu
/// matrices and the launches after them. The regrouped solutions are also checked against
/// the rule itself, so that an engine that did not regroup could not pass.
/// `min_distance`: the elite is chosen on the host (`ts::elite::diverse_winners`, from each
/// engine's own `currents`) and both engines regroup by that ranking (`regroup_ranked`).
/// Without it, every other regrouping is not read back before the next launch, which then
/// takes the donors itself (`ls::Unit::begin`), as in a run; the walks after that launch
/// must be the twin's.
#[allow(clippy::too_many_arguments)]
fn twin_regroup(
    g: &Gpu,
    inst: &Instance,
    layout: Layout,
    walks: u32,
    elite: u32,
    per_launch: u32,
    launches: usize,
    min_distance: Option<usize>,
) {
    let mut cfg = AcoConfig::paper(LsKind::Tabu, inst.n as u32, Class::Random);
    cfg.tenure_law = TenureLaw::Mixed;
    (cfg.layout, cfg.ants, cfg.ls_iterations, cfg.seed) = (layout, walks, per_launch, 91);
    (cfg.walk, cfg.aspiration, cfg.tabu_list_size) = (true, 5 * (inst.n * inst.n) as u32, 8 * inst.n as u32);
    let mut gpu = AcoGpu::new(g.clone(), inst, &cfg).unwrap();
    cfg.skip_null_swaps = gpu.skips_null_swaps();
    let mut cpu = AcoCpu::new(inst, &cfg, 2).unwrap();
    gpu.random_ants().unwrap();
    cpu.random_ants().unwrap();
    let mut unread = false;
    for launch in 0..=launches {
        gpu.local_search().unwrap();
        cpu.local_search().unwrap();
        let what = format!(
            "{} {layout:?} walks regrouped onto {elite} of {walks} (distance {min_distance:?}), launch {launch}",
            inst.name
        );
        if std::mem::take(&mut unread) {
            let (s1, s2) = (gpu.snapshot().unwrap(), cpu.snapshot().unwrap());
            walks_agree(&s1, &s2, &format!("{what}, which took the donors"));
        }
        if launch == launches {
            break;
        }
        let before = cpu.snapshot().unwrap();
        // The walk of each rank, and how many of them are elite.
        let (order, kept): (Vec<usize>, u32) = match min_distance {
            None if launch % 2 == 1 => {
                gpu.regroup(elite).unwrap();
                cpu.regroup(elite).unwrap();
                unread = true;
                continue;
            }
            None => {
                gpu.regroup(elite).unwrap();
                cpu.regroup(elite).unwrap();
                let mut order: Vec<usize> = (0..walks as usize).collect();
                order.sort_by_key(|&k| (before.cant_costs[k], k));
                (order, elite)
            }
            Some(d) => {
                let (n, m) = (inst.n, walks as usize);
                let ((rows_g, stride_g, costs_g), (rows_c, stride_c, costs_c)) =
                    (gpu.currents().unwrap(), cpu.currents().unwrap());
                assert_eq!(costs_g, costs_c, "{what}: current costs");
                assert!(
                    (0..m).all(|k| rows_g[k * stride_g..k * stride_g + n] == rows_c[k * stride_c..k * stride_c + n]),
                    "{what}: current solutions"
                );
                let (winners, e) = diverse_winners(&rows_c, stride_c, n, &costs_c, elite as usize, d);
                assert_eq!((winners.clone(), e), diverse_winners(&rows_g, stride_g, n, &costs_g, elite as usize, d));
                gpu.regroup_ranked(&winners, e).unwrap();
                cpu.regroup_ranked(&winners, e).unwrap();
                let mut order = vec![0; m];
                (0..m).for_each(|k| order[winners[k] as usize] = k);
                (order, e)
            }
        };
        let (s1, s2) = (gpu.snapshot().unwrap(), cpu.snapshot().unwrap());
        walks_agree(&s1, &s2, &what);
        for (rank, &k) in order.iter().enumerate() {
            let from = if rank < kept as usize { k } else { order[(rank - kept as usize) % kept as usize] };
            assert_eq!(
                (&s2.cants[k], s2.cant_costs[k]),
                (&before.cants[from], before.cant_costs[from]),
                "{what}: walk {k} (rank {rank})"
            );
        }
    }
}

fn walks_regroup_as_on_the_cpu() {
    let g = gpu();
    // tai80a: tables in rows of n + 1, copied to and from the elite's rows of n; tai100a:
    // 2-byte tabu entries, fresh after a regrouping.
    for (inst, layout) in [
        (load("tai35b"), Layout::Sums),
        (load("tai80a"), Layout::Sums),
        (load("tai100a"), Layout::Sums),
        (load("tai25b"), Layout::Split),
        (load("nug12"), Layout::Mata),
    ] {
        let n = inst.n as u32;
        twin_regroup(&g, &inst, layout, 40, 10, 2 * n, 4, None);
        // A diverse elite, chosen on the host: half of n apart.
        twin_regroup(&g, &inst, layout, 40, 10, 2 * n, 4, Some(inst.n.div_ceil(2)));
    }
    // Every walk ties at cost 0: ranks by index. One elite walk: all take its solution.
    twin_regroup(&g, &zeros(12), Layout::Split, 16, 4, 20, 3, None);
    twin_regroup(&g, &load("tai25b"), Layout::Sums, 24, 1, 50, 3, None);
    // Farther apart than n: one elite walk.
    twin_regroup(&g, &load("tai25b"), Layout::Sums, 24, 6, 50, 3, Some(26));
}

/// Perturbed regroupings (`--regroup-perturb`): after a regrouping ranked on the device
/// (even launches) or by the host (odd ones, a diverse elite), both engines perturb the walks
/// it moved (`perturb_walks`: `ts_perturb_walks_*` against `AcoCpu::perturb_regrouped`). The
/// walks must agree after each step, every walk's cost must be its solution's, and the GPU's
/// walks, their marks cleared, must rebuild their tables from solutions they have not seen.
fn twin_perturbed(g: &Gpu, inst: &Instance, layout: Layout, walks: u32, elite: u32, swaps: u32) {
    let n = inst.n;
    let mut cfg = AcoConfig::paper(LsKind::Tabu, n as u32, Class::Random);
    cfg.tenure_law = TenureLaw::Mixed;
    (cfg.layout, cfg.ants, cfg.ls_iterations, cfg.seed) = (layout, walks, 2 * n as u32, 93);
    (cfg.walk, cfg.aspiration, cfg.tabu_list_size) = (true, 5 * (n * n) as u32, 8 * n as u32);
    let mut gpu = AcoGpu::new(g.clone(), inst, &cfg).unwrap();
    cfg.skip_null_swaps = gpu.skips_null_swaps();
    let mut cpu = AcoCpu::new(inst, &cfg, 2).unwrap();
    gpu.random_ants().unwrap();
    cpu.random_ants().unwrap();
    for launch in 0..4u32 {
        gpu.local_search().unwrap();
        cpu.local_search().unwrap();
        let what = format!("{} {layout:?} walks perturbed by {swaps} swaps, launch {launch}", inst.name);
        walks_agree(&gpu.snapshot().unwrap(), &cpu.snapshot().unwrap(), &what);
        let e = if launch % 2 == 0 {
            gpu.regroup(elite).unwrap();
            cpu.regroup(elite).unwrap();
            elite
        } else {
            let (rows, stride, costs) = cpu.currents().unwrap();
            let (winners, e) = diverse_winners(&rows, stride, n, &costs, elite as usize, n / 4);
            gpu.regroup_ranked(&winners, e).unwrap();
            cpu.regroup_ranked(&winners, e).unwrap();
            e
        };
        gpu.perturb_walks(e, swaps, launch).unwrap();
        cpu.perturb_walks(e, swaps, launch).unwrap();
        let (s1, s2) = (gpu.snapshot().unwrap(), cpu.snapshot().unwrap());
        walks_agree(&s1, &s2, &format!("{what}, perturbed"));
        for k in 0..walks as usize {
            assert_eq!(s1.cant_costs[k], inst.cost(&s1.cants[k]), "{what}: walk {k}'s cost");
        }
    }
    gpu.local_search().unwrap();
    cpu.local_search().unwrap();
    walks_agree(
        &gpu.snapshot().unwrap(),
        &cpu.snapshot().unwrap(),
        &format!("{} {layout:?}, the last launch", inst.name),
    );
}

fn walks_regroup_perturbed_as_on_the_cpu() {
    let g = gpu();
    // tai80a: padded tables rebuilt; tai100a: 2-byte tabu entries; tai25b: split (all three
    // of u16 entries); entries beyond u16: the i32 kernel.
    for (inst, layout) in [
        (load("tai80a"), Layout::Sums),
        (load("tai100a"), Layout::Sums),
        (load("tai25b"), Layout::Split),
        (small(30, 100_000), Layout::Split),
    ] {
        twin_perturbed(&g, &inst, layout, 40, 10, inst.n.div_ceil(8) as u32);
    }
}

/// A search that reaches the run's target leaves its result in mapped host memory
/// (`TargetHit`): `update_best` returns it while the launch still runs, and it is the
/// search's own (its permutation costs what it says, at or below the target). The kernels
/// it left running end before the counts are read, and the next run from fresh starts
/// clears the hit and reaches the target again, in every layout of the walks and in a
/// colony's local search.
fn a_hit_reaches_the_host_before_the_launch_ends() {
    let g = gpu();
    for name in ["tai25b", "nug12"] {
        let inst = load(name);
        let known = qaplib::best_known(&qaplib::resolve(name), &inst).value().unwrap();
        for layout in layouts(&inst) {
            for walk in [true, false] {
                let mut cfg = AcoConfig::paper(LsKind::Tabu, inst.n as u32, Class::of(name));
                (cfg.layout, cfg.ants, cfg.seed, cfg.target) = (layout, 64, 5, known);
                // Launches far longer than a hit takes: only the stop ends them.
                (cfg.walk, cfg.ls_iterations, cfg.tabu_list_size) =
                    (walk, if walk { 1 << 20 } else { 4096 }, 8 * inst.n as u32);
                let what = format!("{name} {layout:?} {}", if walk { "walks" } else { "colony" });
                let mut e = AcoGpu::new(g.clone(), &inst, &cfg).unwrap();
                for run in 0..2 {
                    e.site().stop.clear();
                    let mut cost = i64::MAX;
                    if walk {
                        e.random_ants().unwrap();
                        e.local_search().unwrap();
                        cost = e.update_best().unwrap();
                    } else {
                        aco::init(&mut e, inst.n).unwrap();
                        for _ in 0..50 {
                            cost = e.best().unwrap().0;
                            if cost <= known {
                                break;
                            }
                            aco::iterate(&mut e, inst.n).unwrap();
                        }
                    }
                    assert_eq!(cost, known, "{what}, run {run}: no hit");
                    let (c, p) = e.best().unwrap();
                    assert_eq!((c, inst.cost(&p)), (known, known), "{what}, run {run}: the hit's permutation");
                    assert!(e.ls_stats().unwrap().iterations > 0, "{what}, run {run}: no moves counted");
                    // Settled: the device's own best is the hit's cost too.
                    assert_eq!(e.snapshot().unwrap().best, known, "{what}, run {run}: the device's best");
                }
            }
        }
    }
}

/// Every fresh start of the walks draws new solutions (`rng::start_seed`): the init kernel
/// seeds each walk's stream from the run's seed, so a restart that kept it would draw, and
/// walk, the first start's solutions again. The first start is the run seed's, as on the CPU.
fn a_fresh_start_draws_new_solutions() {
    let g = gpu();
    let inst = load("tai35b");
    let mut cfg = AcoConfig::paper(LsKind::Tabu, inst.n as u32, Class::of(&inst.name));
    (cfg.layout, cfg.ants, cfg.seed, cfg.walk) = (Layout::Sums, 16, 9, true);
    let mut gpu = AcoGpu::new(g.clone(), &inst, &cfg).unwrap();
    let mut cpu = AcoCpu::new(&inst, &cfg, 2).unwrap();
    gpu.random_ants().unwrap();
    cpu.random_ants().unwrap();
    let first = gpu.snapshot().unwrap();
    assert_eq!(first.cants, cpu.snapshot().unwrap().cants, "the first start is the seed's");
    for start in 1..3 {
        gpu.random_ants().unwrap();
        let again = gpu.snapshot().unwrap();
        for (k, (p, &c)) in again.cants.iter().zip(&again.cant_costs).enumerate() {
            assert_eq!(inst.cost(p), c, "start {start}, walk {k}: cost");
            assert_ne!(p, &first.cants[k], "start {start}, walk {k}: the first start's solution again");
        }
    }
}

fn main() -> std::process::ExitCode {
    qapgpu_tests::harness::run(vec![
        case!(small_instances_every_width_mapping_and_search).gpu().qaplib(&["nug12", "els19"]),
        case!(paper_sized_instances).gpu().qaplib(&["tai40a", "tai50b", "tai100b", "tai150b"]),
        case!(n_256_uses_global_memory_and_a_larger_ns).gpu(),
        case!(move_costs_in_i32_or_i64_with_the_matrices_in_either_memory).gpu().qaplib(&["tai40a", "tai150b"]),
        case!(gpu_reaches_the_optimum_of_small_instances).gpu().qaplib(&["nug12", "tai20b"]),
        case!(degenerate_instances_match_their_cpu_twin).gpu(),
        case!(null_swaps_skipped_as_on_the_cpu).gpu(),
        case!(walks_go_on_across_launches_as_on_the_cpu)
            .gpu()
            .qaplib(&["nug12", "tai25b", "tai35b", "esc16a", "tai80a", "tai100a", "tai150b"]),
        case!(walks_regroup_as_on_the_cpu).gpu().qaplib(&["nug12", "tai25b", "tai35b", "tai80a", "tai100a"]),
        case!(walks_regroup_perturbed_as_on_the_cpu).gpu().qaplib(&["tai25b", "tai80a", "tai100a"]),
        case!(a_hit_reaches_the_host_before_the_launch_ends).gpu().qaplib(&["nug12", "tai25b"]),
        case!(a_fresh_start_draws_new_solutions).gpu().qaplib(&["tai35b"]),
    ])
}
