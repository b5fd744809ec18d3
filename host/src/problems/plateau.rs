//! Cliques in their own terms: greedy constructions (by degree, by core number) and a
//! plateau search over cliques with add and 1-swap moves, vertex penalties and
//! perturbations, in phases that select by penalty, at random and by degree, after the
//! dynamic and phased local searches of Pullan and Hoos (JAIR 25, 2006; JAIR 32, 2008).
//! Vertex sets are bit sets of n ≤ 256.
use super::graph::Graph;
use qapgpu_common::rng::Xoshiro128;
use std::sync::Arc;

/// Words of a vertex set.
const WORDS: usize = qapgpu_common::MAX_N / 64;
type Set = [u64; WORDS];

fn has(s: &Set, v: usize) -> bool {
    s[v / 64] >> (v % 64) & 1 == 1
}

fn put(s: &mut Set, v: usize) {
    s[v / 64] |= 1 << (v % 64);
}

fn drop_from(s: &mut Set, v: usize) {
    s[v / 64] &= !(1 << (v % 64));
}

fn count(s: &Set) -> usize {
    s.iter().map(|w| w.count_ones() as usize).sum()
}

fn members(s: &Set) -> impl Iterator<Item = usize> + '_ {
    s.iter().enumerate().flat_map(|(k, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                k * 64 + b
            })
        })
    })
}

/// A graph as neighbour sets.
#[derive(Clone)]
pub struct Adjacency {
    n: usize,
    nb: Vec<Set>,
    degree: Vec<usize>,
}

impl Adjacency {
    /// The neighbour sets of `g` (n ≤ 256).
    pub fn of(g: &Graph) -> Adjacency {
        let mut nb = vec![[0u64; WORDS]; g.n];
        for &(u, v, _) in &g.edges {
            put(&mut nb[u], v);
            put(&mut nb[v], u);
        }
        let degree = nb.iter().map(count).collect();
        Adjacency { n: g.n, nb, degree }
    }

    /// Whether u and v are adjacent.
    pub fn adjacent(&self, u: usize, v: usize) -> bool {
        has(&self.nb[u], v)
    }

    /// Vertices.
    pub fn n(&self) -> usize {
        self.n
    }
}

/// The clique grown along `order`: each vertex joins where it is adjacent to all before it.
pub fn grown_along(adj: &Adjacency, order: &[usize]) -> Vec<usize> {
    let mut clique: Vec<usize> = Vec::new();
    for &v in order {
        if v < adj.n && clique.iter().all(|&u| u != v && adj.adjacent(u, v)) {
            clique.push(v);
        }
    }
    clique
}

/// The clique grown from `seed`: each step adds the candidate (adjacent to every vertex in)
/// with the most neighbours among the candidates.
pub fn greedy_from(adj: &Adjacency, seed: usize) -> Vec<usize> {
    let mut clique = vec![seed];
    let mut cand = adj.nb[seed];
    while let Some(v) = members(&cand).max_by_key(|&v| {
        let within: usize = (0..WORDS).map(|k| (adj.nb[v][k] & cand[k]).count_ones() as usize).sum();
        (within, std::cmp::Reverse(v))
    }) {
        clique.push(v);
        for (c, &a) in cand.iter_mut().zip(&adj.nb[v]) {
            *c &= a;
        }
    }
    clique
}

/// The best of the greedy cliques from every vertex (`greedy_from`: by degree within the
/// candidates).
pub fn greedy_by_degree(adj: &Adjacency) -> Vec<usize> {
    (0..adj.n).map(|v| greedy_from(adj, v)).max_by_key(Vec::len).unwrap_or_default()
}

/// A degeneracy order (each vertex the one of least degree among those left, ties to the
/// lower index) and the degeneracy (the largest such degree).
pub fn degeneracy_order(adj: &Adjacency) -> (Vec<usize>, usize) {
    let n = adj.n;
    let mut degree = adj.degree.clone();
    let mut gone = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut degeneracy = 0;
    for _ in 0..n {
        let u = (0..n).filter(|&u| !gone[u]).min_by_key(|&u| degree[u]).expect("a vertex is left");
        degeneracy = degeneracy.max(degree[u]);
        gone[u] = true;
        order.push(u);
        for v in members(&adj.nb[u]) {
            if !gone[v] {
                degree[v] -= 1;
            }
        }
    }
    (order, degeneracy)
}

/// The clique grown along the vertices from the highest core number down (the reverse of a
/// degeneracy order): each joins where it is adjacent to all before it.
pub fn greedy_by_core(adj: &Adjacency) -> Vec<usize> {
    let (mut order, _) = degeneracy_order(adj);
    order.reverse();
    grown_along(adj, &order)
}

/// The larger of the greedy cliques by degree and by core number: what the constructions
/// alone give.
pub fn best_greedy(adj: &Adjacency) -> Vec<usize> {
    [greedy_by_degree(adj), greedy_by_core(adj)].into_iter().max_by_key(Vec::len).unwrap_or_default()
}

/// How a phase of the plateau search picks among equal candidates, and how it perturbs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Select {
    /// At random; perturbs by adding a random vertex (dropping its non-neighbours).
    Random,
    /// Least penalty; perturbs down to the last vertex added.
    Penalty,
    /// Most neighbours; perturbs as `Random`.
    Degree,
}

/// Perturbations a phase lasts, in turn: random, penalty, degree (the phased local search's
/// 50, 50, 100).
const PHASES: [(Select, u32); 3] = [(Select::Random, 50), (Select::Penalty, 50), (Select::Degree, 100)];
/// Penalty updates between two decreases of every penalty (the penalty delay).
const PENALTY_DELAY: u32 = 2;
/// Steps between two looks at the stop condition.
const STOP_POLL: u32 = 256;

/// The plateau search's state: the clique, each vertex's count of clique vertices it is not
/// adjacent to, penalties, the best clique so far.
pub struct Plateau {
    adj: Arc<Adjacency>,
    clique: Set,
    list: Vec<usize>,
    missing: Vec<u32>,
    penalty: Vec<u32>,
    rng: Xoshiro128,
    /// The largest clique found.
    pub best: Vec<usize>,
    /// Moves (adds and swaps) so far.
    pub steps: u64,
}

impl Plateau {
    /// A search on `adj` from `start` (any vertices: the clique kept is grown greedily from
    /// them, in their order).
    pub fn new(adj: Arc<Adjacency>, start: &[usize], seed: u64) -> Plateau {
        let n = adj.n;
        let mut s = Plateau {
            adj,
            clique: [0; WORDS],
            list: Vec::new(),
            missing: vec![0; n],
            penalty: vec![0; n],
            rng: Xoshiro128::from_stream(seed, 0xC1u64),
            best: Vec::new(),
            steps: 0,
        };
        s.restart(start);
        s
    }

    /// Starts again from `start` (penalties kept).
    pub fn restart(&mut self, start: &[usize]) {
        self.clique = [0; WORDS];
        self.list.clear();
        self.missing.fill(0);
        for &v in start {
            if v < self.adj.n && !has(&self.clique, v) && self.missing[v] == 0 {
                self.add(v);
            }
        }
        self.note_best();
    }

    fn add(&mut self, v: usize) {
        put(&mut self.clique, v);
        self.list.push(v);
        let nb = &self.adj.nb[v];
        for (u, m) in self.missing.iter_mut().enumerate() {
            if u != v && !has(nb, u) {
                *m += 1;
            }
        }
        self.steps += 1;
    }

    fn remove(&mut self, v: usize) {
        drop_from(&mut self.clique, v);
        self.list.retain(|&x| x != v);
        let nb = &self.adj.nb[v];
        for (u, m) in self.missing.iter_mut().enumerate() {
            if u != v && !has(nb, u) {
                *m -= 1;
            }
        }
    }

    fn note_best(&mut self) {
        if self.list.len() > self.best.len() {
            self.best = self.list.clone();
        }
    }

    /// The vertex outside the clique with `missing` = `m` (and not `barred`) that `how`
    /// picks, ties at random.
    fn pick(&mut self, m: u32, how: Select, barred: &Set) -> Option<usize> {
        let mut chosen = None;
        let mut key = u64::MAX;
        let mut ties = 0u32;
        for v in 0..self.adj.n {
            if self.missing[v] != m || has(&self.clique, v) || has(barred, v) {
                continue;
            }
            let k = match how {
                Select::Random => 0,
                Select::Penalty => u64::from(self.penalty[v]),
                Select::Degree => (self.adj.n - self.adj.degree[v]) as u64,
            };
            if k < key {
                (key, ties, chosen) = (k, 1, Some(v));
            } else if k == key {
                ties += 1;
                if self.rng.below(ties) == 0 {
                    chosen = Some(v);
                }
            }
        }
        chosen
    }

    /// Adds while a vertex is adjacent to the whole clique, then swaps (a vertex adjacent to
    /// all but one comes in, that one goes) while no add is possible, no vertex swapped out
    /// comes back, and the clique keeps a vertex of the one the plateau began with.
    fn climb(&mut self, how: Select, target: usize, stop: &dyn Fn() -> bool) {
        let adj = self.adj.clone();
        let mut barred: Set = [0; WORDS];
        let mut polls = 0u32;
        loop {
            while let Some(v) = self.pick(0, how, &barred) {
                self.add(v);
                if self.list.len() >= target {
                    self.note_best();
                    return;
                }
            }
            self.note_best();
            let began = self.clique;
            loop {
                polls += 1;
                if polls.is_multiple_of(STOP_POLL) && stop() {
                    return;
                }
                let Some(v) = self.pick(1, how, &barred) else { return };
                let out = self.list.iter().copied().find(|&u| !adj.adjacent(u, v)).expect("one non-neighbour");
                self.remove(out);
                put(&mut barred, out);
                self.add(v);
                if self.pick(0, how, &barred).is_some() {
                    break;
                }
                if (0..WORDS).all(|k| began[k] & self.clique[k] == 0) {
                    return;
                }
            }
        }
    }

    /// One climb (adds, then 1-swaps on the plateau) from the current clique, by degree.
    pub fn descend(&mut self, target: usize, stop: &dyn Fn() -> bool) {
        self.climb(Select::Degree, target, stop);
    }

    /// The plateau search until a clique of `target` vertices or `stop`; the largest clique
    /// found is `best`.
    pub fn run(&mut self, target: usize, stop: &dyn Fn() -> bool) {
        let mut updates = 0u32;
        'phases: loop {
            for &(how, length) in &PHASES {
                for _ in 0..length {
                    if self.best.len() >= target || stop() {
                        break 'phases;
                    }
                    self.climb(how, target, stop);
                    if self.best.len() >= target {
                        break 'phases;
                    }
                    if how == Select::Penalty {
                        for &v in &self.list {
                            self.penalty[v] += 1;
                        }
                        updates += 1;
                        if updates.is_multiple_of(PENALTY_DELAY) {
                            for p in &mut self.penalty {
                                *p = p.saturating_sub(1);
                            }
                        }
                    }
                    self.perturb(how);
                }
            }
        }
    }

    fn perturb(&mut self, how: Select) {
        let adj = self.adj.clone();
        if how == Select::Penalty {
            let last = *self.list.last().expect("a clique has a vertex");
            let others: Vec<usize> = self.list.iter().copied().filter(|&u| u != last).collect();
            for u in others {
                self.remove(u);
            }
        } else {
            let v = self.rng.below(self.adj.n as u32) as usize;
            if has(&self.clique, v) {
                return;
            }
            let others: Vec<usize> = self.list.iter().copied().filter(|&u| !adj.adjacent(u, v)).collect();
            for u in others {
                self.remove(u);
            }
            self.add(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::generate::planted_clique;

    fn is_clique(adj: &Adjacency, c: &[usize]) -> bool {
        c.iter().enumerate().all(|(i, &u)| c[i + 1..].iter().all(|&v| adj.adjacent(u, v)))
    }

    #[test]
    fn greedy_cliques_are_cliques() {
        let (g, _) = planted_clique(60, 50, 10, 3);
        let adj = Adjacency::of(&g);
        for c in [greedy_by_degree(&adj), greedy_by_core(&adj), greedy_from(&adj, 5)] {
            assert!(is_clique(&adj, &c) && c.len() >= 2, "{c:?}");
        }
    }

    #[test]
    fn plateau_search_finds_a_planted_clique() {
        let (g, planted) = planted_clique(120, 50, 16, 9);
        let adj = Adjacency::of(&g);
        let mut s = Plateau::new(Arc::new(adj.clone()), &[0], 1);
        let steps = std::cell::Cell::new(0u32);
        s.run(planted.len(), &|| {
            steps.set(steps.get() + 1);
            steps.get() > 200_000
        });
        assert!(is_clique(&adj, &s.best));
        assert_eq!(s.best.len(), 16);
        // The missing counts stay those of the clique.
        for v in 0..adj.n {
            let m = s.list.iter().filter(|&&u| u != v && !adj.adjacent(u, v)).count() as u32;
            assert_eq!(s.missing[v], m);
        }
    }
}
