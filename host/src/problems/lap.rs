//! The (minimum) linear arrangement problem as a QAP (004 §2.1.3): place the n vertices of
//! a graph on the positions 0..n−1 of a line so that Σ w(u,v)·|pos u − pos v| is least.
//! F holds each edge's weight once (row u, column v), facilities are vertices, locations
//! positions with d_ij = |i − j|: a permutation costs exactly the arrangement's length.
use super::graph::Graph;
use super::{Answer, Kind, Misfit, Posed, ProblemError, first_misfit, matrix, qap};
use crate::io::Instance;

/// The linear arrangement of a graph, posed as a QAP.
#[derive(Debug)]
pub struct Lap {
    /// The graph.
    pub graph: Graph,
    inst: Instance,
    /// Known optimal length (a generated instance's), if any.
    pub optimum: Option<i64>,
}

impl Lap {
    /// The QAP of `graph`'s linear arrangement.
    pub fn new(graph: Graph) -> Result<Lap, ProblemError> {
        let n = graph.n;
        if n < 2 {
            return Err(super::option_error("lap", "the graph has 1 vertex: nothing to arrange"));
        }
        let mut f = vec![0i64; n * n];
        for &(u, v, w) in &graph.edges {
            f[u * n + v] += w;
        }
        let d = matrix(n, |i, j| (i as i64 - j as i64).abs());
        let inst = qap("lap".into(), n, f, d, "lap")?;
        Ok(Lap { graph, inst, optimum: None })
    }
}

/// The arrangement's length (`pos[v]`: the position of vertex v), or why `pos` is not an
/// arrangement of the vertices on 0..n−1.
pub fn check_arrangement(g: &Graph, pos: &[usize]) -> Result<i64, String> {
    if pos.len() != g.n {
        return Err(format!("{} positions for {} vertices", pos.len(), g.n));
    }
    match first_misfit(pos, g.n) {
        Some(Misfit::OutOfRange(p)) => return Err(format!("position {p} is outside 0..{}", g.n)),
        Some(Misfit::Repeated(p)) => return Err(format!("position {p} holds two vertices")),
        None => {}
    }
    Ok(g.edges.iter().map(|&(u, v, w)| w * (pos[u] as i64 - pos[v] as i64).abs()).sum())
}

impl Posed for Lap {
    fn kind(&self) -> Kind {
        Kind::Lap
    }
    fn qap(&self) -> &Instance {
        &self.inst
    }
    fn target(&self) -> Option<i64> {
        self.optimum
    }
    fn cost_of_measure(&self, length: i64) -> Option<i64> {
        Some(length)
    }
    fn starts(&self) -> Vec<Vec<u16>> {
        // An order lists the vertices along the line; the QAP's permutation is each vertex's
        // position.
        let position = |order: Vec<usize>| {
            let mut pos = vec![0u16; order.len()];
            for (p, v) in order.into_iter().enumerate() {
                pos[v] = p as u16;
            }
            pos
        };
        vec![position(super::orders::cuthill_mckee(&self.graph)), position(super::orders::spectral(&self.graph))]
    }
    fn polish(&self, seed: u64) -> Option<Box<dyn super::polish::Polish>> {
        Some(Box::new(super::graph_polish::ArrangementPolish::new(&self.graph, seed)))
    }
    fn answer(&self, perm: &[u16]) -> Answer {
        let pos: Vec<usize> = perm.iter().map(|&p| p as usize).collect();
        let mut order = vec![0usize; self.graph.n];
        for (v, &p) in pos.iter().enumerate() {
            if p < order.len() {
                order[p] = v + 1;
            }
        }
        let drawing = format!("{:<16} {}\n", "line", order.iter().map(usize::to_string).collect::<Vec<_>>().join(" "));
        Answer::checked("lap", "arrangement_length", check_arrangement(&self.graph, &pos), i64::MAX)
            .with("position", &pos)
            .with("order", &order)
            .drawn(drawing)
    }
}
