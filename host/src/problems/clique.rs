//! Maximum clique as a QAP (004 §2.1.3): for a size k, D is the adjacency of G (locations
//! are vertices) and F = −(adjacency of K_k plus n − k isolated vertices), so a permutation
//! costs −2·(edges among the vertices in the k clique slots) and G has a k-clique exactly
//! when the optimum is −k(k − 1) = −k² + k. `search` walks k up (or down) with a solver.
use super::graph::Graph;
use super::plateau::{Adjacency, Plateau, degeneracy_order, greedy_by_core, greedy_by_degree, grown_along};
use super::polish::Polish;
use super::{Answer, Kind, Misfit, Posed, ProblemError, first_misfit, matrix, option_error, qap};
use crate::io::Instance;
use serde::Serialize;
use std::sync::{Arc, Mutex};

/// Whether a graph has a k-clique, posed as a QAP.
#[derive(Debug)]
pub struct Clique {
    /// The graph.
    pub graph: Graph,
    /// The clique size asked for.
    pub k: usize,
    inst: Instance,
}

impl Clique {
    /// The QAP of a k-clique in `graph`.
    pub fn new(graph: Graph, k: usize) -> Result<Clique, ProblemError> {
        let n = graph.n;
        if n < 2 {
            return Err(option_error("clique", "the graph has 1 vertex: its largest clique is that vertex"));
        }
        if !(2..=n).contains(&k) {
            return Err(option_error("--k", format!("clique size {k} is outside 2..={n} (the graph's vertices)")));
        }
        let adj = graph.adjacency();
        let f = matrix(n, |i, j| if i != j && i < k && j < k { -1 } else { 0 });
        let d = matrix(n, |i, j| i64::from(adj[i * n + j]));
        let inst = qap(format!("clique{k}"), n, f, d, "clique")?;
        Ok(Clique { graph, k, inst })
    }
}

/// The size of `vertices` (0-based) as a clique of `g`, or why it is not one.
pub fn check_clique(g: &Graph, vertices: &[usize]) -> Result<i64, String> {
    let adj = g.adjacency();
    match first_misfit(vertices, g.n) {
        Some(Misfit::OutOfRange(v)) => return Err(format!("vertex {} does not exist", v + 1)),
        Some(Misfit::Repeated(v)) => return Err(format!("vertex {} is listed twice", v + 1)),
        None => {}
    }
    for (x, &u) in vertices.iter().enumerate() {
        for &v in &vertices[x + 1..] {
            if !adj[u * g.n + v] {
                return Err(format!("vertices {} and {} are not adjacent", u + 1, v + 1));
            }
        }
    }
    Ok(vertices.len() as i64)
}

impl Posed for Clique {
    fn kind(&self) -> Kind {
        Kind::Clique
    }
    fn qap(&self) -> &Instance {
        &self.inst
    }
    fn target(&self) -> Option<i64> {
        Some(-((self.k * (self.k - 1)) as i64))
    }
    fn answer(&self, perm: &[u16]) -> Answer {
        let chosen: Vec<usize> = perm[..self.k.min(perm.len())].iter().map(|&v| v as usize).collect();
        answer_of(&self.graph, chosen)
    }
    fn starts(&self) -> Vec<Vec<u16>> {
        let adj = Adjacency::of(&self.graph);
        [greedy_by_degree(&adj), greedy_by_core(&adj)].iter().map(|c| slots_of(&adj, c, self.k)).collect()
    }
    fn polish(&self, seed: u64) -> Option<Box<dyn Polish>> {
        Some(Box::new(CliquePolish::new(&self.graph, self.k, seed, Arc::default())))
    }
}

/// The QAP permutation that puts `clique` in the k clique slots: its first k vertices,
/// then (where it is smaller) the vertices with the most neighbours among those already
/// in, then every other vertex.
pub fn slots_of(adj: &Adjacency, clique: &[usize], k: usize) -> Vec<u16> {
    let n = adj.n();
    let mut chosen: Vec<usize> = clique.iter().copied().take(k).collect();
    let mut used = vec![false; n];
    for &v in &chosen {
        used[v] = true;
    }
    while chosen.len() < k {
        let v = (0..n)
            .filter(|&v| !used[v])
            .max_by_key(|&v| (chosen.iter().filter(|&&u| adj.adjacent(u, v)).count(), std::cmp::Reverse(v)))
            .expect("k ≤ n");
        used[v] = true;
        chosen.push(v);
    }
    chosen.extend((0..n).filter(|&v| !used[v]));
    chosen.into_iter().map(|v| v as u16).collect()
}

/// The clique problem's polish: the plateau search (`plateau::Plateau`) for a k-clique,
/// from the QAP's clique slots where they hold a larger clique than its own, else going on
/// from where it stopped. The largest clique it finds is shared (`largest`), so that a
/// search over k can skip the sizes it has reached.
pub struct CliquePolish {
    adj: Arc<Adjacency>,
    k: usize,
    search: Plateau,
    largest: Arc<Mutex<Vec<usize>>>,
}

impl CliquePolish {
    /// The polish of k-cliques of `g`, sharing its largest clique through `largest`.
    pub fn new(g: &Graph, k: usize, seed: u64, largest: Arc<Mutex<Vec<usize>>>) -> CliquePolish {
        let adj = Arc::new(Adjacency::of(g));
        let search = Plateau::new(adj.clone(), &[], seed);
        CliquePolish { adj, k, search, largest }
    }
}

impl Polish for CliquePolish {
    fn describe(&self) -> &'static str {
        "add and 1-swap plateau moves with vertex penalties and perturbations (phased local search)"
    }

    fn improve(&mut self, perm: &[u16], iterate: bool, stop: &dyn Fn() -> bool) -> Vec<u16> {
        let slots: Vec<usize> = perm.iter().take(self.k).map(|&v| v as usize).collect();
        if grown_along(&self.adj, &slots).len() > self.search.best.len() {
            self.search.restart(&slots);
        }
        if iterate {
            self.search.run(self.k, stop);
        } else {
            self.search.descend(self.k, stop);
        }
        let best = self.search.best.clone();
        let mut largest = self.largest.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if best.len() > largest.len() {
            largest.clone_from(&best);
        }
        slots_of(&self.adj, &best, self.k)
    }
}

fn answer_of(g: &Graph, mut vertices: Vec<usize>) -> Answer {
    vertices.sort_unstable();
    let shown: Vec<usize> = vertices.iter().map(|v| v + 1).collect();
    let drawing = format!("{:<16} {}\n", "vertices", shown.iter().map(usize::to_string).collect::<Vec<_>>().join(" "));
    Answer::checked("clique", "clique_size", check_clique(g, &vertices), 0).with("vertices", &shown).drawn(drawing)
}

/// A clique of `g` grown greedily along `order` (vertices, 0-based): each vertex joins where
/// it is adjacent to every vertex already in (None for an empty order).
fn greedy_along(g: &Graph, order: &[u16]) -> Option<Vec<usize>> {
    let order: Vec<usize> = order.iter().map(|&v| v as usize).collect();
    let clique = grown_along(&Adjacency::of(g), &order);
    (!clique.is_empty()).then_some(clique)
}

/// Which way `search` walks k.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, Serialize)]
pub enum Direction {
    #[default]
    /// From k = 2 up, while the solver finds a k-clique.
    Up,
    /// From an upper bound (the degeneracy + 1) down, until the solver finds one.
    Down,
}

/// One attempt of the search: the k tried and whether the solver reached −k(k−1).
#[derive(Clone, Debug, Serialize)]
pub struct Attempt {
    /// The clique size tried.
    pub k: usize,
    /// Whether the solver reached −k(k−1).
    pub found: bool,
    /// Seconds the attempt took.
    pub seconds: f64,
}

/// The largest clique the search found, and its attempts.
pub struct Found {
    /// The largest clique found, as an answer.
    pub answer: Answer,
    /// Every attempt, in order.
    pub attempts: Vec<Attempt>,
    /// The permutation of the last successful attempt's QAP, and its k.
    pub best: Option<(usize, Vec<u16>)>,
}

/// An upper bound on the clique number: the degeneracy (largest k-core's k) + 1.
pub fn upper_bound(g: &Graph) -> usize {
    degeneracy_order(&Adjacency::of(g)).1 + 1
}

/// Walks k in `direction` (or tries `fixed` alone), asking `attempt` to solve each k's QAP
/// to its target −k(k−1); `attempt` returns the permutation it ended with and whether it
/// reached the target. Every reported clique is checked on `g`.
pub fn search(
    g: &Graph,
    fixed: Option<usize>,
    direction: Direction,
    mut attempt: impl FnMut(&Clique) -> anyhow::Result<(Vec<u16>, bool)>,
) -> anyhow::Result<Found> {
    let mut attempts = Vec::new();
    let mut best: Option<(usize, Vec<u16>)> = None;
    // The last attempt's permutation, for the clique shown where no k is reached.
    let mut last: Vec<u16> = Vec::new();
    if g.edges.is_empty() || g.n < 2 {
        return Ok(Found { answer: answer_of(g, vec![0]), attempts, best });
    }
    let ub = upper_bound(g).min(g.n);
    let ks: Vec<usize> = match (fixed, direction) {
        (Some(k), _) => vec![k],
        (None, Direction::Up) => (2..=ub).collect(),
        (None, Direction::Down) => (2..=ub).rev().collect(),
    };
    for k in ks {
        let problem = Clique::new(g.clone(), k)?;
        let started = std::time::Instant::now();
        let (perm, found) = attempt(&problem)?;
        attempts.push(Attempt { k, found, seconds: started.elapsed().as_secs_f64() });
        last.clone_from(&perm);
        if found {
            anyhow::ensure!(problem.answer(&perm).valid, "the solver reported a {k}-clique that is not one");
            best = Some((k, perm));
            if direction == Direction::Down || fixed.is_some() {
                break;
            }
        } else if direction == Direction::Up {
            break;
        }
    }
    let answer = match &best {
        Some((k, perm)) => answer_of(g, perm[..*k].iter().map(|&v| v as usize).collect()),
        None => {
            // No k reached: the largest clique the greedy pass finds along the last attempt's
            // permutation (its chosen vertices first), at least an edge, and said so: the
            // report must not read as the k asked for.
            let clique = greedy_along(g, &last).filter(|c| c.len() >= 2).unwrap_or_else(|| {
                let &(u, v, _) = &g.edges[0];
                vec![u, v]
            });
            let asked = fixed.map_or("no clique of the k tried".to_string(), |k| format!("no {k}-clique"));
            let note = format!("{asked} found; shown: a clique grown greedily along the last search's answer");
            let answer = answer_of(g, clique);
            let drawing = format!("{:<16} {note}\n{}", "note", answer.drawing);
            answer.with("found", false).with("note", &note).drawn(drawing)
        }
    };
    let answer = answer.with("upper_bound", ub).with("attempts", &attempts);
    Ok(Found { answer, attempts, best })
}
