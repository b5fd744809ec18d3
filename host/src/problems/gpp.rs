//! Graph partitioning into k equal parts as a QAP (004 §2.1.3): F is block diagonal with k
//! negative complete blocks of n/k slots (facilities are slots), D the weighted adjacency
//! of G (locations are vertices). A permutation costs −2·(weight of the edges inside the
//! parts), so the least cost is the least cut: cut = W + cost/2 for total weight W.
use super::graph::Graph;
use super::{Answer, Kind, Posed, ProblemError, matrix, option_error, qap};
use crate::io::Instance;

/// Partitioning a graph into equal parts with the least cut, posed as a QAP.
#[derive(Debug)]
pub struct Gpp {
    /// The graph.
    pub graph: Graph,
    /// The number of parts, k.
    pub parts: usize,
    inst: Instance,
    /// Known least cut (a generated instance's), if any.
    pub optimum: Option<i64>,
}

impl Gpp {
    /// The QAP of `graph` cut into `parts` equal parts.
    pub fn new(graph: Graph, parts: usize) -> Result<Gpp, ProblemError> {
        let n = graph.n;
        if parts < 2 || parts > n || !n.is_multiple_of(parts) {
            return Err(option_error(
                "--k",
                format!("{n} vertices do not split into {parts} equal parts (k ≥ 2 must divide n)"),
            ));
        }
        let size = n / parts;
        let f = matrix(n, |i, j| if i != j && i / size == j / size { -1 } else { 0 });
        let inst = qap(format!("gpp{parts}"), n, f, graph.weights(), "gpp")?;
        Ok(Gpp { graph, parts, inst, optimum: None })
    }
}

/// The cut weight of `part` (`part[v]` in 0..k for each vertex), or why it is not a
/// partition into k equal parts.
pub fn check_partition(g: &Graph, k: usize, part: &[usize]) -> Result<i64, String> {
    if part.len() != g.n {
        return Err(format!("{} vertices assigned, the graph has {}", part.len(), g.n));
    }
    let mut sizes = vec![0usize; k];
    for (v, &p) in part.iter().enumerate() {
        if p >= k {
            return Err(format!("vertex {} is in part {}, outside 1..={k}", v + 1, p + 1));
        }
        sizes[p] += 1;
    }
    if let Some(p) = sizes.iter().position(|&s| s != g.n / k) {
        return Err(format!("part {} has {} vertices, not {}", p + 1, sizes[p], g.n / k));
    }
    Ok(g.edges.iter().filter(|&&(u, v, _)| part[u] != part[v]).map(|e| e.2).sum())
}

impl Posed for Gpp {
    fn kind(&self) -> Kind {
        Kind::Gpp
    }
    fn qap(&self) -> &Instance {
        &self.inst
    }
    fn target(&self) -> Option<i64> {
        self.optimum.and_then(|c| self.cost_of_measure(c))
    }
    fn cost_of_measure(&self, cut: i64) -> Option<i64> {
        self.graph.total_weight().checked_sub(cut)?.checked_mul(-2)
    }
    fn starts(&self) -> Vec<Vec<u16>> {
        // Each order cut into equal consecutive blocks.
        [super::orders::cuthill_mckee(&self.graph), super::orders::spectral(&self.graph)]
            .into_iter()
            .map(|order| order.into_iter().map(|v| v as u16).collect())
            .collect()
    }
    fn polish(&self, seed: u64) -> Option<Box<dyn super::polish::Polish>> {
        Some(Box::new(super::graph_polish::PartitionPolish::new(&self.graph, self.parts, seed)))
    }
    fn answer(&self, perm: &[u16]) -> Answer {
        let size = self.graph.n / self.parts;
        let mut part = vec![usize::MAX; self.graph.n];
        for (slot, &v) in perm.iter().enumerate() {
            if (v as usize) < part.len() {
                part[v as usize] = slot / size;
            }
        }
        let parts: Vec<Vec<usize>> =
            (0..self.parts).map(|p| (0..self.graph.n).filter(|&v| part[v] == p).map(|v| v + 1).collect()).collect();
        let drawing: String = parts
            .iter()
            .enumerate()
            .map(|(p, vs)| {
                format!(
                    "{:<16} {}\n",
                    format!("part {}", p + 1),
                    vs.iter().map(usize::to_string).collect::<Vec<_>>().join(" ")
                )
            })
            .collect();
        Answer::checked("gpp", "cut", check_partition(&self.graph, self.parts, &part), i64::MAX)
            .with("parts", &parts)
            .drawn(drawing)
    }
}
