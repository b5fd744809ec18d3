//! Vertex orders of a graph that keep neighbours close, the construction heuristics of the
//! linear arrangement and of partitioning (cut into equal blocks): Cuthill–McKee (breadth
//! first from a vertex of least degree, neighbours by increasing degree) and the spectral
//! order (by the Fiedler vector of the graph's Laplacian, found by power iteration).
use super::graph::Graph;
use std::collections::VecDeque;

/// Weighted neighbour lists of `g` (repeated edges summed).
pub fn neighbours(g: &Graph) -> Vec<Vec<(usize, i64)>> {
    let w = g.weights();
    (0..g.n).map(|u| (0..g.n).filter(|&v| w[u * g.n + v] != 0).map(|v| (v, w[u * g.n + v])).collect()).collect()
}

/// The Cuthill–McKee order: each component breadth first from a vertex of least degree,
/// neighbours visited by increasing degree.
pub fn cuthill_mckee(g: &Graph) -> Vec<usize> {
    let nb = neighbours(g);
    let mut seen = vec![false; g.n];
    let mut order = Vec::with_capacity(g.n);
    while order.len() < g.n {
        let root = (0..g.n).filter(|&v| !seen[v]).min_by_key(|&v| (nb[v].len(), v)).expect("a vertex is left");
        seen[root] = true;
        let mut queue = VecDeque::from([root]);
        while let Some(u) = queue.pop_front() {
            order.push(u);
            let mut next: Vec<usize> = nb[u].iter().map(|&(v, _)| v).filter(|&v| !seen[v]).collect();
            next.sort_by_key(|&v| (nb[v].len(), v));
            for v in next {
                seen[v] = true;
                queue.push_back(v);
            }
        }
    }
    order
}

/// Power-iteration steps for the Fiedler vector.
const SPECTRAL_STEPS: usize = 300;

/// The vertices by their entry in an approximate Fiedler vector (the Laplacian's
/// eigenvector of the second least eigenvalue): power iteration on c·I − L, kept
/// orthogonal to the constant vector, from a deterministic start.
pub fn spectral(g: &Graph) -> Vec<usize> {
    let n = g.n;
    let nb = neighbours(g);
    let degree: Vec<f64> = nb.iter().map(|l| l.iter().map(|&(_, w)| w as f64).sum()).collect();
    let c = 2.0 * degree.iter().cloned().fold(0.0, f64::max) + 1.0;
    let mut x: Vec<f64> = (0..n).map(|i| ((i * 7919 % 1009) as f64) / 1009.0 - 0.5).collect();
    for _ in 0..SPECTRAL_STEPS {
        let mean = x.iter().sum::<f64>() / n as f64;
        x.iter_mut().for_each(|v| *v -= mean);
        // y = (c·I − L)·x = c·x − D·x + W·x
        let mut y: Vec<f64> = (0..n).map(|i| (c - degree[i]) * x[i]).collect();
        for (i, l) in nb.iter().enumerate() {
            for &(j, w) in l {
                y[i] += w as f64 * x[j];
            }
        }
        let norm = y.iter().map(|v| v * v).sum::<f64>().sqrt().max(f64::MIN_POSITIVE);
        x = y.into_iter().map(|v| v / norm).collect();
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]).then(a.cmp(&b)));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(n: usize) -> Graph {
        // A path whose labels are shuffled by i ↦ 7i mod n.
        let label = |i: usize| (7 * i) % n;
        Graph { n, edges: (0..n - 1).map(|i| (label(i), label(i + 1), 1)).collect() }
    }

    fn length(g: &Graph, order: &[usize]) -> i64 {
        let mut pos = vec![0usize; g.n];
        for (p, &v) in order.iter().enumerate() {
            pos[v] = p;
        }
        g.edges.iter().map(|&(u, v, w)| w * (pos[u] as i64 - pos[v] as i64).abs()).sum()
    }

    #[test]
    fn orders_lay_a_path_out_straight() {
        let g = path(30);
        assert_eq!(length(&g, &cuthill_mckee(&g)), 29);
        assert_eq!(length(&g, &spectral(&g)), 29);
    }
}
