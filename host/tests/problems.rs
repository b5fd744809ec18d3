//! Other problems posed as QAPs: every reduction against brute force on tiny instances
//! (the QAP optimum is the problem's optimum), checkers on right and wrong answers, the
//! readers on good and malformed files, and small instances solved on the CPU engine.
use qapgpu::io::Instance;
use qapgpu::problems::chess::{self, Knight, Piece, Placement};
use qapgpu::problems::clique::{self, Clique, Direction};
use qapgpu::problems::gpp::{self, Gpp};
use qapgpu::problems::graph::{self, Graph};
use qapgpu::problems::lap::{self, Lap};
use qapgpu::problems::tsp::{self, Tsp};
use qapgpu::problems::{Posed, generate, tsplib};
use qapgpu::{EngineChoice, Options, solve};
use qapgpu_common::rng::Xoshiro128;
use std::path::Path;
use std::time::Duration;

/// Calls `f` on every permutation of 0..n (Heap's algorithm).
fn each_permutation(n: usize, mut f: impl FnMut(&[u16])) {
    let mut p: Vec<u16> = (0..n as u16).collect();
    let mut c = vec![0usize; n];
    f(&p);
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                p.swap(0, i)
            } else {
                p.swap(c[i], i)
            }
            f(&p);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}

/// The QAP's optimum and one optimal permutation, by enumeration.
fn qap_optimum(inst: &Instance) -> (i64, Vec<u16>) {
    let mut best = (i64::MAX, Vec::new());
    each_permutation(inst.n, |p| {
        let c = inst.cost(p);
        if c < best.0 {
            best = (c, p.to_vec());
        }
    });
    best
}

fn random_graph(n: usize, percent: u32, max_w: u32, seed: u64) -> Graph {
    let mut rng = Xoshiro128::from_stream(seed, 1);
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if rng.below(100) < percent {
                edges.push((u, v, 1 + rng.below(max_w) as i64));
            }
        }
    }
    Graph { n, edges }
}

fn tsp_of(cities: &[(i64, i64)]) -> Tsp {
    let text = tsplib::format_euc2d("t", "test", cities);
    Tsp::new(tsplib::parse(Path::new("t.tsp"), &text).unwrap()).unwrap()
}

#[test]
fn tsp_reduction_matches_brute_force() {
    for seed in 0..3 {
        let mut rng = Xoshiro128::from_stream(seed, 2);
        let cities: Vec<(i64, i64)> = (0..7).map(|_| (rng.below(100) as i64, rng.below(100) as i64)).collect();
        let t = tsp_of(&cities);
        let mut best = i64::MAX;
        each_permutation(7, |p| {
            let tour: Vec<usize> = p.iter().map(|&c| c as usize).collect();
            best = best.min(tsp::check_tour(&t.data, &tour).unwrap());
        });
        let (opt, perm) = qap_optimum(t.qap());
        assert_eq!(opt, best, "seed {seed}");
        let a = t.answer(&perm);
        assert!(a.valid && a.value == best, "{a:?}");
    }
}

#[test]
fn asymmetric_tsp_costs_the_directed_tour() {
    let text = "NAME: a\nTYPE: ATSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 9\n9 0 1\n1 9 0\nEOF\n";
    let t = Tsp::new(tsplib::parse(Path::new("a.atsp"), text).unwrap()).unwrap();
    assert_eq!(t.qap().cost(&[0u16, 1, 2]), 3);
    assert_eq!(t.qap().cost(&[0u16, 2, 1]), 27);
    assert_eq!(qap_optimum(t.qap()).0, 3);
}

/// A TYPE line with words after the type, as TSPLIB's si175 has (`TSP (M.~Hofmeister)`), is
/// read; a TYPE whose first word is another is refused, naming it.
#[test]
fn tsp_type_is_the_first_word_of_its_line() {
    let with = |ty: &str| {
        format!(
            "NAME: s\nTYPE: {ty}\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2\n1 0 3\n2 3 0\nEOF\n"
        )
    };
    assert!(tsplib::parse(Path::new("s.tsp"), &with("TSP (M.~Hofmeister)")).is_ok());
    let e = tsplib::parse(Path::new("s.tsp"), &with("HCP (a tour)")).unwrap_err().to_string();
    assert!(e.contains("HCP (a tour)") && e.contains("not a TSP"), "{e}");
}

/// A k that no attempt reaches: the answer says so (`found` false, a note naming k) and shows
/// a clique grown greedily along the last attempt's permutation, checked on the graph.
#[test]
fn a_clique_size_not_reached_is_said_not_shown_as_found() {
    let (g, planted) = generate::planted_clique(30, 30, 6, 4);
    let order: Vec<u16> =
        planted.iter().map(|&v| v as u16).chain((0..30u16).filter(|v| !planted.contains(&(*v as usize)))).collect();
    let found = clique::search(&g, Some(12), Direction::Up, |_| Ok((order.clone(), false))).unwrap();
    let a = &found.answer;
    assert!(a.valid && a.value >= 6, "{a:?}");
    assert_eq!(a.fields["found"], false);
    assert!(a.fields["note"].as_str().unwrap().contains("no 12-clique"), "{a:?}");
    assert!(a.drawing.contains("no 12-clique"), "{}", a.drawing);
}

#[test]
fn linear_arrangement_matches_brute_force() {
    for seed in 0..3 {
        let g = random_graph(7, 50, 5, seed);
        let l = Lap::new(g.clone()).unwrap();
        let mut best = i64::MAX;
        each_permutation(7, |p| {
            let pos: Vec<usize> = p.iter().map(|&x| x as usize).collect();
            best = best.min(lap::check_arrangement(&g, &pos).unwrap());
        });
        let (opt, perm) = qap_optimum(l.qap());
        assert_eq!(opt, best, "seed {seed}");
        assert_eq!(l.answer(&perm).value, best);
    }
}

/// The clique number by enumerating vertex subsets.
fn clique_number(g: &Graph) -> usize {
    (0u32..1 << g.n)
        .filter_map(|mask| {
            let vs: Vec<usize> = (0..g.n).filter(|&v| mask >> v & 1 == 1).collect();
            clique::check_clique(g, &vs).ok().map(|_| vs.len())
        })
        .max()
        .unwrap()
}

#[test]
fn clique_reduction_matches_brute_force() {
    for seed in 0..3 {
        let g = random_graph(8, 55, 1, seed);
        let omega = clique_number(&g);
        assert!(clique::upper_bound(&g) >= omega);
        for k in 2..=8 {
            let c = Clique::new(g.clone(), k).unwrap();
            let (opt, perm) = qap_optimum(c.qap());
            assert_eq!(opt == c.target().unwrap(), k <= omega, "seed {seed}, k = {k}, ω = {omega}, optimum {opt}");
            if k <= omega {
                let a = c.answer(&perm);
                assert!(a.valid && a.value == k as i64, "{a:?}");
            }
        }
    }
}

#[test]
fn partitioning_matches_brute_force() {
    for (seed, parts) in [(0, 2), (1, 2), (2, 4)] {
        let g = random_graph(8, 50, 4, seed);
        let p = Gpp::new(g.clone(), parts).unwrap();
        // Every assignment of the 8 vertices to parts, equal sizes only.
        let mut best = i64::MAX;
        for code in 0..(parts as u32).pow(8) {
            let part: Vec<usize> = (0..8).map(|v| (code / (parts as u32).pow(v) % parts as u32) as usize).collect();
            if let Ok(cut) = gpp::check_partition(&g, parts, &part) {
                best = best.min(cut);
            }
        }
        let (opt, perm) = qap_optimum(p.qap());
        let a = p.answer(&perm);
        assert!(a.valid && a.value == best, "seed {seed}: {a:?}, brute force {best}");
        assert_eq!(p.cost_of_measure(best), Some(opt));
    }
}

/// Whether `piece` has a valid placement on a k×k board, by enumerating square subsets.
fn placement_exists(piece: Piece, k: usize) -> bool {
    (0u32..1 << (k * k)).any(|mask| {
        let sq: Vec<usize> = (0..k * k).filter(|&s| mask >> s & 1 == 1).collect();
        chess::check_placement(piece, k, &sq).is_ok()
    })
}

#[test]
fn board_placements_match_brute_force() {
    for piece in [Piece::Rook, Piece::Queen, Piece::Bishop] {
        for k in 2..=3 {
            let p = Placement::new(piece, k).unwrap();
            let (opt, perm) = qap_optimum(p.qap());
            assert_eq!(opt == 0, placement_exists(piece, k), "{piece:?} on {k}×{k}: optimum {opt}");
            assert_eq!(p.answer(&perm).valid, opt == 0);
        }
    }
    // Queens: none on 2×2 and 3×3.
    assert!(!placement_exists(Piece::Queen, 3) && placement_exists(Piece::Bishop, 3));
}

#[test]
fn knight_tours_match_brute_force() {
    // No tour on 2×2 or 3×3 (the centre of 3×3 has no knight move): optimum > 0.
    for k in 2..=3 {
        for closed in [true, false] {
            let t = Knight::new(k, closed).unwrap();
            let (opt, perm) = qap_optimum(t.qap());
            assert!(opt > 0 && !t.answer(&perm).valid, "k = {k}");
        }
    }
}

#[test]
fn checkers_reject_wrong_answers() {
    let t = tsp_of(&[(0, 0), (3, 0), (3, 4), (0, 4)]);
    assert_eq!(tsp::check_tour(&t.data, &[0, 1, 2, 3]), Ok(14));
    assert!(tsp::check_tour(&t.data, &[0, 1, 1, 3]).unwrap_err().contains("twice"));
    assert!(tsp::check_tour(&t.data, &[0, 1, 2]).is_err());
    assert!(tsp::check_tour(&t.data, &[0, 1, 2, 4]).is_err());

    let g = Graph { n: 4, edges: vec![(0, 1, 1), (1, 2, 1), (0, 2, 1), (2, 3, 2)] };
    assert_eq!(lap::check_arrangement(&g, &[0, 1, 2, 3]), Ok(1 + 1 + 2 + 2));
    assert!(lap::check_arrangement(&g, &[0, 1, 1, 3]).is_err());
    assert!(lap::check_arrangement(&g, &[0, 1, 2, 4]).is_err());

    assert_eq!(clique::check_clique(&g, &[0, 1, 2]), Ok(3));
    assert!(clique::check_clique(&g, &[1, 2, 3]).unwrap_err().contains("not adjacent"));
    assert!(clique::check_clique(&g, &[1, 1]).is_err());

    assert_eq!(gpp::check_partition(&g, 2, &[0, 0, 1, 1]), Ok(2)); // edges 1–2 and 0–2 cross, weight 1 each
    assert!(gpp::check_partition(&g, 2, &[0, 0, 0, 1]).unwrap_err().contains("has 3 vertices"));
    assert!(gpp::check_partition(&g, 2, &[0, 0, 2, 1]).is_err());

    // 4 queens: b4 d3 a2 c1 is a solution; moving one onto a diagonal is not.
    let ok = [1, 7, 8, 14];
    // Columns 1, 3, 2, 0: only the queens on d3 and c2 share a diagonal.
    assert_eq!(chess::check_placement(Piece::Queen, 4, &ok), Ok(4));
    assert!(chess::check_placement(Piece::Queen, 4, &[1, 7, 10, 12]).unwrap_err().contains("diagonal"));
    assert!(chess::check_placement(Piece::Rook, 4, &[0, 1, 10, 15]).unwrap_err().contains("row"));
    assert!(chess::check_placement(Piece::Rook, 4, &[0, 5, 10]).is_err());
    assert!(chess::check_placement(Piece::Bishop, 3, &[0, 2, 6, 4]).unwrap_err().contains("diagonal"));

    // A closed 6×6 tour found by the solver, then broken.
    let knight = Knight::new(6, true).unwrap();
    let sol = solve(knight.qap(), &cpu(0, 11, 60)).unwrap();
    let tour: Vec<usize> = sol.perm().iter().map(|&s| s as usize).collect();
    assert_eq!(chess::check_knight_tour(6, true, &tour), Ok(36));
    let mut swapped = tour.clone();
    swapped.swap(0, 1);
    assert!(chess::check_knight_tour(6, true, &swapped).unwrap_err().contains("not a knight move"));
    assert!(chess::check_knight_tour(6, true, &tour[..35]).is_err());
}

fn cpu(target: i64, seed: u64, seconds: u64) -> Options {
    Options {
        engine: EngineChoice::Cpu,
        target: Some(target),
        seed,
        time_limit: Some(Duration::from_secs(seconds)),
        ..Options::default()
    }
}

#[test]
fn generated_instances_are_solved_and_checked_on_the_cpu() {
    // Grid cities: the optimal tour is known.
    let (cities, opt) = generate::grid_cities(6, 4, 10, 3);
    let t = tsp_of(&cities);
    let sol = solve(t.qap(), &cpu(opt, 1, 60)).unwrap();
    let a = t.answer(&sol.perm());
    assert!(a.valid && a.value == opt, "{a:?}");

    // A planted clique in G(40, 1/2), found by walking k up.
    let (g, planted) = generate::planted_clique(40, 50, 10, 9);
    assert_eq!(clique::check_clique(&g, &planted), Ok(10));
    let found = clique::search(&g, None, Direction::Up, |c| {
        let sol = solve(c.qap(), &cpu(c.target().unwrap(), 2, 20)).unwrap();
        Ok((sol.perm(), sol.time_to_target_s.is_some()))
    })
    .unwrap();
    assert!(found.answer.valid && found.answer.value >= 10, "{:?}", found.answer);

    // Ring of cliques and a shuffled cycle: least cut and arrangement known.
    let (g, cut) = generate::ring_of_cliques(3, 6, 4);
    let p = Gpp::new(g, 3).unwrap();
    let sol = solve(p.qap(), &cpu(p.cost_of_measure(cut).unwrap(), 3, 60)).unwrap();
    assert_eq!(p.answer(&sol.perm()).value, cut);
    let (g, len) = generate::shuffled_cycle(20, 5);
    let l = Lap::new(g).unwrap();
    let sol = solve(l.qap(), &cpu(len, 4, 60)).unwrap();
    assert_eq!(l.answer(&sol.perm()).value, len);

    // 8 queens, cost 0.
    let q = Placement::new(Piece::Queen, 8).unwrap();
    let sol = solve(q.qap(), &cpu(0, 5, 60)).unwrap();
    assert_eq!(sol.cost, 0);
    assert!(q.answer(&sol.perm()).valid);
}

#[test]
fn closed_knight_tour_on_8x8_is_found_on_the_cpu() {
    let k = Knight::new(8, true).unwrap();
    let sol = solve(k.qap(), &cpu(0, 1, 120)).unwrap();
    assert_eq!(sol.cost, 0, "no closed tour within 120 s");
    let a = k.answer(&sol.perm());
    assert!(a.valid, "{a:?}");
}

#[test]
fn tsplib_distances_follow_the_definitions() {
    let p = Path::new("x.tsp");
    let coords = |ty: &str, c: &str| {
        format!("NAME: x\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: {ty}\nNODE_COORD_SECTION\n{c}EOF\n")
    };
    // EUC_2D rounds, CEIL_2D rounds up: 3-4-5 triangle scaled, and 1.5 → 2 / 2.
    let e = tsplib::parse(p, &coords("EUC_2D", "1 0 0\n2 3 4\n3 1.5 0\n")).unwrap();
    assert_eq!((e.d(0, 1), e.d(0, 2)), (5, 2));
    let c = tsplib::parse(p, &coords("CEIL_2D", "1 0 0\n2 3 4.1\n3 1.2 0\n")).unwrap();
    assert_eq!((c.d(0, 1), c.d(0, 2)), (6, 2));
    // ATT: sqrt(100/10) = 3.16, nint 3 < 3.16 → 4; sqrt(1000/10) = 10 exactly → 10.
    let a = tsplib::parse(p, &coords("ATT", "1 0 0\n2 10 0\n3 0 31.6227766\n")).unwrap();
    assert_eq!((a.d(0, 1), a.d(0, 2)), (4, 10));
    // GEO: one degree of longitude on the equator is 6378.388·π/180 = 111.3 km → 112.
    let g = tsplib::parse(p, &coords("GEO", "1 0 0\n2 0 1\n3 0.30 0\n")).unwrap();
    assert_eq!(g.d(0, 1), 112);
    // 0.30 is 30 minutes = half a degree of latitude: 55.7 → 56.
    assert_eq!(g.d(0, 2), 56);
    // Explicit triangles give the same symmetric matrix.
    let full = "0 1 2 3\n1 0 4 5\n2 4 0 6\n3 5 6 0";
    let forms = [
        ("FULL_MATRIX", full),
        ("UPPER_ROW", "1 2 3 4 5 6"),
        ("LOWER_ROW", "1 2 4 3 5 6"),
        ("UPPER_DIAG_ROW", "0 1 2 3 0 4 5 0 6 0"),
        ("LOWER_DIAG_ROW", "0 1 0 2 4 0 3 5 6 0"),
        ("UPPER_COL", "1 2 4 3 5 6"),
    ];
    let mut first = None;
    for (fmt, body) in forms {
        let text = format!(
            "NAME: e\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: {fmt}\nEDGE_WEIGHT_SECTION\n{body}\nEOF\n"
        );
        let d = tsplib::parse(p, &text).unwrap().dist;
        assert_eq!(*first.get_or_insert(d.clone()), d, "{fmt}");
    }
}

#[test]
fn malformed_files_get_one_line_errors_naming_the_file() {
    let p = Path::new("bad.tsp");
    let head = "NAME: b\nTYPE: TSP\n";
    let cases = [
        (format!("{head}DIMENSION: 300\n"), "DIMENSION 300"),
        (format!("{head}DIMENSION: 2\n"), "DIMENSION 2"),
        (format!("{head}DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_3D\n"), "EUC_3D"),
        (format!("{head}DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n"), "ends before"),
        (
            format!("{head}DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 x 1\n3 1 1\n"),
            "not a coordinate",
        ),
        (format!("{head}DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n1 1 1\n3 1 1\n"), "twice"),
        (format!("{head}DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\n"), "no NODE_COORD_SECTION"),
        ("NAME: b\nTYPE: CVRP\n".into(), "not a TSP"),
        (
            format!(
                "{head}DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FUNCTION\nEDGE_WEIGHT_SECTION\n1\n"
            ),
            "not supported",
        ),
        (
            format!(
                "{head}DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 2\n"
            ),
            "ends after 2",
        ),
        (format!("{head}HELLO: 3\n"), "unknown keyword"),
    ];
    for (text, needle) in cases {
        let e = tsplib::parse(p, &text).unwrap_err().to_string();
        assert!(e.starts_with("bad.tsp: ") && e.contains(needle) && !e.contains('\n'), "{needle}: {e}");
    }
    let g = Path::new("bad.clq");
    let cases = [
        ("e 1 2\np edge 3 1\n", "before the `p edge"),
        ("p edge 3 1\ne 1 4\n", "larger than the 3"),
        ("p edge 300 1\n", "300 vertices"),
        ("p edge 3 1\ne 1\n", "expected `e u v`"),
        ("p edge 3 1\nq 1 2\n", "not a DIMACS line"),
        ("1 2\n0 1\n", "vertex 0"),
        ("1 2 x\n", "not an integer weight"),
        ("1 2 0\n", "weight 0"),
        ("# nothing\n", "no edges"),
    ];
    for (text, needle) in cases {
        let e = graph::parse(g, text).unwrap_err().to_string();
        assert!(e.starts_with("bad.clq: ") && e.contains(needle) && !e.contains('\n'), "{needle}: {e}");
    }
    assert!(Gpp::new(random_graph(9, 50, 1, 1), 2).unwrap_err().to_string().contains("equal parts"));
    assert!(Placement::new(Piece::Queen, 17).unwrap_err().to_string().starts_with("--k: "));
}

#[test]
fn graph_formats_read_back() {
    let g = random_graph(12, 40, 9, 3);
    let back = graph::parse(Path::new("g.txt"), &graph::format_edge_list(&g)).unwrap();
    assert_eq!(back.edges, g.edges);
    let d = graph::parse(Path::new("g.clq"), &graph::format_dimacs(&g, "test")).unwrap();
    assert_eq!((d.n, d.edges.len()), (12, g.edges.len()));
    assert!(d.edges.iter().all(|e| e.2 == 1));
}

/// The example files of the README, generated here: the test fails when a file differs
/// from what the generator writes (`QAPGPU_BLESS=1` rewrites them).
#[test]
fn example_files_are_the_generated_instances() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/problems");
    let (cities, opt) = generate::grid_cities(6, 4, 10, 3);
    let (cycle, len) = generate::shuffled_cycle(12, 5);
    let (planted, clique) = generate::planted_clique(40, 50, 10, 9);
    let (rings, cut) = generate::ring_of_cliques(3, 6, 4);
    let members: Vec<String> = clique.iter().map(|v| (v + 1).to_string()).collect();
    let files = [
        (
            "grid24.tsp",
            tsplib::format_euc2d(
                "grid24",
                &format!("6 x 4 grid, spacing 10, generated by qapgpu; optimal tour {opt}"),
                &cities,
            ),
        ),
        (
            "cycle12.txt",
            format!(
                "# the cycle C12, labels shuffled, generated by qapgpu; minimum linear arrangement {len}\n{}",
                graph::format_edge_list(&cycle)
            ),
        ),
        (
            "planted40.clq",
            graph::format_dimacs(
                &planted,
                &format!("G(40, 1/2) with a planted 10-clique on {}, generated by qapgpu", members.join(" ")),
            ),
        ),
        (
            "rings18.txt",
            format!(
                "# three K6 joined in a ring, labels shuffled, generated by qapgpu; least cut into 3 parts {cut}\n{}",
                graph::format_edge_list(&rings)
            ),
        ),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        if std::env::var_os("QAPGPU_BLESS").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap_or_default(), text, "{name} (QAPGPU_BLESS=1 rewrites it)");
    }
}

/// The packing example pair: G(24, 1/2) and a relabelled random half of its complement, so
/// the pair packs (`QAPGPU_BLESS=1` rewrites the files).
#[test]
fn packing_example_files_are_the_generated_pair() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/problems");
    let (g1, g2, _) = generate::packable_pair(24, 50, 50, 4);
    let note = "generated by qapgpu: G1 = G(24, 1/2), G2 = a relabelled random half of G1's complement; they pack";
    let files =
        [("pack24-g1.clq", graph::format_dimacs(&g1, note)), ("pack24-g2.clq", graph::format_dimacs(&g2, note))];
    for (name, text) in files {
        let path = dir.join(name);
        if std::env::var_os("QAPGPU_BLESS").is_some() {
            std::fs::write(&path, &text).unwrap();
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap_or_default(), text, "{name} (QAPGPU_BLESS=1 rewrites it)");
    }
}

/// `solve --problem packing G1 --graph2 G2` on the CPU engine: the example pair packs and
/// the mapping reported is checked here against the files; a missing or malformed second
/// graph is a one-line error naming it.
#[test]
fn packing_is_solved_from_two_graph_files_on_the_cpu() {
    use qapgpu::problems::packing;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/problems");
    let (g1, g2) = (dir.join("pack24-g1.clq"), dir.join("pack24-g2.clq"));
    let host = || std::process::Command::new(env!("CARGO_BIN_EXE_qapgpu"));
    let out = host()
        .args(["solve", "--problem", "packing"])
        .arg(&g1)
        .arg("--graph2")
        .arg(&g2)
        .args(["--engine", "cpu", "--seed", "1", "--time-limit", "60", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let a = &v["answer"];
    assert_eq!((&a["packing"], &a["value"], &v["qap"]["cost"]), (&true.into(), &0.into(), &0.into()), "{v}");
    let map: Vec<usize> = a["mapping"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize - 1).collect();
    let (g1r, g2r) = (graph::read(&g1).unwrap(), graph::read(&g2).unwrap());
    assert_eq!(packing::check_packing(&g1r, &g2r, &map), Ok(0));

    let tmp = std::env::temp_dir().join(format!("qapgpu-packing-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let bad = tmp.join("bad.clq");
    std::fs::write(&bad, "p edge 3 1\ne 1 7\n").unwrap();
    let cases: [(&[&Path], &str); 2] = [(&[&g1], "--graph2"), (&[&g1, &bad], "larger than the 3")];
    for (files, needle) in cases {
        let mut cmd = host();
        cmd.args(["solve", "--problem", "packing", "--engine", "cpu", "--quiet"]).arg(files[0]);
        if let Some(g2) = files.get(1) {
            cmd.arg("--graph2").arg(g2);
        }
        let out = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{needle}: {err}");
        assert!(err.trim_end().lines().count() == 1 && err.contains("packing") && err.contains(needle), "{err}");
        if files.len() == 2 {
            assert!(err.contains(&bad.display().to_string()), "{err}");
        }
    }
}
