//! Problem instances with a known optimum or a known solution, generated (no third-party
//! data): the examples, the tests and `bench problems` use them. Vertex and city labels
//! are shuffled so that the identity permutation is not the answer.
use super::graph::Graph;
use qapgpu_common::rng::Xoshiro128;

fn shuffled(n: usize, rng: &mut Xoshiro128) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        v.swap(i, rng.below(i as u32 + 1) as usize);
    }
    v
}

/// Cities on a w × h grid with spacing `step` (w·h even, both ≥ 2), shuffled. Every edge is
/// at least `step` long under EUC_2D and a boustrophedon tour uses only such edges, so
/// the optimal tour is w·h·step long. Returns the cities and that length.
pub fn grid_cities(w: usize, h: usize, step: i64, seed: u64) -> (Vec<(i64, i64)>, i64) {
    assert!(w >= 2 && h >= 2 && (w * h).is_multiple_of(2), "the grid needs w, h ≥ 2 and w·h even");
    let mut rng = Xoshiro128::from_stream(seed, 0x7359);
    let order = shuffled(w * h, &mut rng);
    let cities = order.iter().map(|&c| ((c % w) as i64 * step, (c / w) as i64 * step)).collect();
    (cities, (w * h) as i64 * step)
}

/// A random graph G(n, percent/100) with a clique planted on k random vertices.
/// Returns the graph and the clique's vertices (0-based, sorted).
pub fn planted_clique(n: usize, percent: u32, k: usize, seed: u64) -> (Graph, Vec<usize>) {
    let mut rng = Xoshiro128::from_stream(seed, 0xC119);
    let mut clique: Vec<usize> = shuffled(n, &mut rng)[..k].to_vec();
    clique.sort_unstable();
    let mut inside = vec![false; n];
    for &v in &clique {
        inside[v] = true;
    }
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if (inside[u] && inside[v]) || rng.below(100) < percent {
                edges.push((u, v, 1));
            }
        }
    }
    (Graph { n, edges }, clique)
}

/// The cycle C_n with shuffled labels: its minimum linear arrangement is 2(n − 1)
/// (every arrangement of a cycle has length ≥ 2(n − 1); the line order attains it).
pub fn shuffled_cycle(n: usize, seed: u64) -> (Graph, i64) {
    let mut rng = Xoshiro128::from_stream(seed, 0xC1C1);
    let label = shuffled(n, &mut rng);
    let edges = (0..n).map(|i| (label[i], label[(i + 1) % n], 1)).collect();
    (Graph { n, edges }, 2 * (n as i64 - 1))
}

/// `parts` cliques of `size` vertices joined in a ring by one edge between consecutive
/// cliques (two between the cliques when parts = 2), labels shuffled. With size − 1 ≥ the
/// ring's edges, the least cut into `parts` equal parts is the ring: a partition that is
/// not the cliques splits one, cutting a(size − a) ≥ size − 1 of its edges. Returns the
/// graph and that cut.
pub fn ring_of_cliques(parts: usize, size: usize, seed: u64) -> (Graph, i64) {
    let ring = if parts == 2 { 2 } else { parts };
    assert!(parts >= 2 && size >= 2 && size > ring, "the ring must be the cheapest cut");
    let mut rng = Xoshiro128::from_stream(seed, 0x6199);
    let label = shuffled(parts * size, &mut rng);
    let mut edges = Vec::new();
    for p in 0..parts {
        for a in 0..size {
            for b in a + 1..size {
                edges.push((label[p * size + a], label[p * size + b], 1));
            }
        }
    }
    for p in 0..parts {
        let q = (p + 1) % parts;
        if parts == 2 && p == 1 {
            edges.push((label[p * size + 1], label[q * size + 1], 1));
        } else {
            edges.push((label[p * size], label[q * size], 1));
        }
    }
    (Graph { n: parts * size, edges }, ring as i64)
}

/// A random graph G1 = G(n, percent/100) and a graph G2 that packs with it: each pair that
/// is not an edge of G1 is an edge of G2 with probability keep/100, and G2's labels are
/// shuffled by σ. σ (vertex v of G1 → σ(v) of G2, 0-based) sends no edge of G1 onto an
/// edge of G2, so the packing's QAP has optimum 0. Returns G1, G2 and σ.
pub fn packable_pair(n: usize, percent: u32, keep: u32, seed: u64) -> (Graph, Graph, Vec<usize>) {
    let mut rng = Xoshiro128::from_stream(seed, 0x9ac4);
    let sigma = shuffled(n, &mut rng);
    let (mut e1, mut e2) = (Vec::new(), Vec::new());
    for u in 0..n {
        for v in u + 1..n {
            if rng.below(100) < percent {
                e1.push((u, v, 1));
            } else if rng.below(100) < keep {
                e2.push((sigma[u], sigma[v], 1));
            }
        }
    }
    (Graph { n, edges: e1 }, Graph { n, edges: e2 }, sigma)
}
