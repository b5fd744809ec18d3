//! Graph packing as a QAP (004 §2.1.3, problem 5, after Bollobás): graphs G1 and G2 on n
//! vertices (the smaller padded with isolated vertices) pack when a bijection σ of their
//! vertices sends no edge of G1 onto an edge of G2. F is the adjacency of G1 (facilities are
//! G1's vertices), D that of G2 (locations are G2's vertices), so a permutation p costs
//! Σ_ij a_ij·b_p(i)p(j) = 2·(edges of G1 sent onto edges of G2): the graphs pack exactly
//! when the optimum is 0. Edge weights are ignored and a repeated edge counts once.
use super::graph::{Graph, MAX_VERTICES};
use super::polish::Polish;
use super::{Answer, Kind, Misfit, Posed, ProblemError, first_misfit, matrix, option_error, qap};
use crate::io::Instance;
use qapgpu_common::rng::Xoshiro128;

/// Whether two graphs pack, posed as a QAP.
#[derive(Debug)]
pub struct Packing {
    /// G1, placed (facilities).
    pub g1: Graph,
    /// G2, placed onto (locations).
    pub g2: Graph,
    /// Vertices of the QAP: the larger of the two graphs' counts.
    pub n: usize,
    /// G1's and G2's adjacency, padded to n (the QAP's F and D as 0/1).
    a1: Vec<bool>,
    a2: Vec<bool>,
    inst: Instance,
}

/// The 0/1 adjacency of `g` on `n` ≥ g.n vertices (the rest isolated).
fn padded(g: &Graph, n: usize) -> Vec<bool> {
    let mut a = vec![false; n * n];
    for &(u, v, _) in &g.edges {
        a[u * n + v] = true;
        a[v * n + u] = true;
    }
    a
}

/// Distinct edges of an adjacency matrix.
fn edge_count(a: &[bool]) -> i64 {
    a.iter().filter(|&&x| x).count() as i64 / 2
}

impl Packing {
    /// The QAP of packing `g2` with `g1`.
    pub fn new(g1: Graph, g2: Graph) -> Result<Packing, ProblemError> {
        let n = g1.n.max(g2.n);
        if n < 2 {
            return Err(option_error("packing", "both graphs have 1 vertex: nothing to place"));
        }
        if n > MAX_VERTICES {
            return Err(option_error("packing", format!("{n} vertices: a QAP takes at most {MAX_VERTICES}")));
        }
        let (a1, a2) = (padded(&g1, n), padded(&g2, n));
        let f = matrix(n, |i, j| i64::from(a1[i * n + j]));
        let d = matrix(n, |i, j| i64::from(a2[i * n + j]));
        let inst = qap("packing".into(), n, f, d, "packing")?;
        Ok(Packing { g1, g2, n, a1, a2, inst })
    }

    /// The fewest collisions any bijection can have: the edges beyond the n(n − 1)/2 vertex
    /// pairs (0 where they fit).
    pub fn least_collisions(&self) -> i64 {
        let n = self.n;
        let pairs = (n * (n - 1) / 2) as i64;
        (edge_count(&self.a1) + edge_count(&self.a2) - pairs).max(0)
    }
}

/// G1's edges (0-based, u < v) that `map` (a bijection of 0..n) sends onto edges of G2, in
/// the adjacencies `a1`, `a2` (n × n).
fn colliding(a1: &[bool], a2: &[bool], n: usize, map: &[usize]) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
        .filter(|&(u, v)| a1[u * n + v] && a2[map[u] * n + map[v]])
        .collect()
}

/// The number of G1's edges that `map` (vertex v of G1 → vertex map[v] of G2, 0-based, both
/// padded to n = the larger count) sends onto edges of G2, or why `map` is not a bijection.
pub fn check_packing(g1: &Graph, g2: &Graph, map: &[usize]) -> Result<i64, String> {
    let n = g1.n.max(g2.n);
    if map.len() != n {
        return Err(format!("{} vertices mapped, the graphs have {n}", map.len()));
    }
    match first_misfit(map, n) {
        Some(Misfit::OutOfRange(v)) => return Err(format!("vertex {} of G2 does not exist", v + 1)),
        Some(Misfit::Repeated(v)) => return Err(format!("vertex {} of G2 receives two vertices", v + 1)),
        None => {}
    }
    Ok(colliding(&padded(g1, n), &padded(g2, n), n, map).len() as i64)
}

/// Vertices by degree in `a` (n × n), highest first (`high`) or lowest first; ties by index.
fn by_degree(a: &[bool], n: usize, high: bool) -> Vec<usize> {
    let deg = |v: usize| a[v * n..(v + 1) * n].iter().filter(|&&x| x).count();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| if high { (usize::MAX - deg(v), v) } else { (deg(v), v) });
    order
}

impl Posed for Packing {
    fn kind(&self) -> Kind {
        Kind::Packing
    }
    fn qap(&self) -> &Instance {
        &self.inst
    }
    fn target(&self) -> Option<i64> {
        // A bijection at the bound is optimal; 0 (a packing) wherever the edges fit.
        Some(2 * self.least_collisions())
    }
    fn cost_of_measure(&self, collisions: i64) -> Option<i64> {
        collisions.checked_mul(2)
    }
    fn starts(&self) -> Vec<Vec<u16>> {
        let (n, a1, a2) = (self.n, &self.a1, &self.a2);
        let (high1, low2) = (by_degree(a1, n, true), by_degree(a2, n, false));
        // G1's busiest vertices on G2's quietest.
        let mut paired = vec![0u16; n];
        for (&u, &x) in high1.iter().zip(&low2) {
            paired[u] = x as u16;
        }
        // Greedy: G1's vertices by degree, each on the free vertex of G2 where it collides
        // least with its neighbours already placed (the quietest first among equals).
        let mut greedy = vec![usize::MAX; n];
        let mut free = low2.clone();
        for &u in &high1 {
            let hits = |x: usize| {
                (0..n).filter(|&w| a1[u * n + w] && greedy[w] != usize::MAX && a2[x * n + greedy[w]]).count()
            };
            let at = (0..free.len()).min_by_key(|&k| hits(free[k])).expect("a free vertex is left");
            greedy[u] = free.remove(at);
        }
        vec![paired, greedy.into_iter().map(|x| x as u16).collect()]
    }
    fn polish(&self, seed: u64) -> Option<Box<dyn Polish>> {
        Some(Box::new(PackingPolish::new(self, seed)))
    }
    fn answer(&self, perm: &[u16]) -> Answer {
        let map: Vec<usize> = perm.iter().map(|&x| x as usize).collect();
        let verdict = check_packing(&self.g1, &self.g2, &map);
        let least = self.least_collisions();
        let mut drawing = match verdict {
            Ok(0) => format!("{:<16} found: no edge of G1 lands on an edge of G2\n", "packing"),
            Ok(c) => {
                let why = if least > 0 {
                    format!("at least {least} must: the two graphs' edges outnumber the vertex pairs")
                } else {
                    "a packing may still exist".into()
                };
                format!("{:<16} not found: {c} edges of G1 land on edges of G2 ({why})\n", "packing")
            }
            Err(_) => String::new(),
        };
        let shown = |x: usize| x + 1;
        let mapping: Vec<usize> = map.iter().take(self.g1.n).map(|&x| shown(x)).collect();
        let collisions: Vec<[usize; 2]> = match verdict {
            Ok(c) if c > 0 => {
                colliding(&self.a1, &self.a2, self.n, &map).into_iter().map(|(u, v)| [shown(u), shown(v)]).collect()
            }
            _ => Vec::new(),
        };
        let arrows: Vec<String> = mapping.iter().enumerate().map(|(u, x)| format!("{}→{x}", u + 1)).collect();
        drawing += &format!("{:<16} {}\n", "mapping", arrows.join(" "));
        if !collisions.is_empty() {
            let line: Vec<String> =
                collisions.iter().map(|&[u, v]| format!("{u}–{v}→{}–{}", mapping[u - 1], mapping[v - 1])).collect();
            drawing += &format!("{:<16} {}\n", "collisions", line.join(" "));
        }
        let (n1, n2) = (self.g1.n, self.g2.n);
        if n1 != n2 {
            let (small, k) = if n1 < n2 { ("G1", n1) } else { ("G2", n2) };
            drawing += &format!("{:<16} {small} padded with isolated vertices {}..={}\n", "padding", k + 1, self.n);
        }
        Answer::checked("packing", "colliding_edges", verdict.clone(), i64::MAX)
            .with("packing", verdict == Ok(0))
            .with("mapping", &mapping)
            .with("collisions", &collisions)
            .with("least_possible", least)
            .drawn(drawing)
    }
}

/// Steps a vertex that moved stays put: TENURE plus up to as many again, at random.
const TENURE: u32 = 3;

/// Packing's polish: two of G1's vertices swap places on G2 where that lowers the
/// collisions, iterated as a tabu walk: the best swap of a colliding vertex each step (ties
/// at random), the two vertices then staying put for a few steps unless a swap beats the
/// best.
pub struct PackingPolish {
    nb1: Vec<Vec<usize>>,
    a2: Vec<bool>,
    floor: i64,
    rng: Xoshiro128,
}

impl PackingPolish {
    /// The polish of `p`'s bijections.
    pub fn new(p: &Packing, seed: u64) -> PackingPolish {
        let n = p.n;
        let nb1 = (0..n).map(|u| (0..n).filter(|&w| p.a1[u * n + w]).collect()).collect();
        let (a2, floor) = (p.a2.clone(), p.least_collisions());
        PackingPolish { nb1, a2, floor, rng: Xoshiro128::from_stream(seed, 0x9ac) }
    }

    fn hit(&self, x: usize, y: usize) -> i64 {
        i64::from(self.a2[x * self.nb1.len() + y])
    }

    fn collisions(&self, p: &[usize]) -> i64 {
        (0..p.len()).map(|u| self.nb1[u].iter().map(|&w| self.hit(p[u], p[w])).sum::<i64>()).sum::<i64>() / 2
    }

    fn collides(&self, p: &[usize], u: usize) -> bool {
        self.nb1[u].iter().any(|&w| self.hit(p[u], p[w]) == 1)
    }

    /// The change of collisions when u and v swap places.
    fn delta(&self, p: &[usize], u: usize, v: usize) -> i64 {
        let moved = |a: usize, b: usize| -> i64 {
            self.nb1[a].iter().filter(|&&w| w != b).map(|&w| self.hit(p[b], p[w]) - self.hit(p[a], p[w])).sum()
        };
        moved(u, v) + moved(v, u)
    }

    /// Swaps that lower the collisions, first found, until none does (or `stop`); returns
    /// the change.
    fn descend(&self, p: &mut [usize], stop: &dyn Fn() -> bool) -> i64 {
        let n = p.len();
        let mut change = 0;
        loop {
            let mut improved = false;
            for u in 0..n {
                if !self.collides(p, u) {
                    continue;
                }
                if let Some((d, v)) = (0..n).filter(|&v| v != u).map(|v| (self.delta(p, u, v), v)).find(|c| c.0 < 0) {
                    p.swap(u, v);
                    change += d;
                    improved = true;
                }
            }
            if !improved || stop() {
                return change;
            }
        }
    }

    /// The best swap (change, u, v) of a colliding vertex u, ties at random, skipping
    /// vertices still staying put (`tabu[v] ≥ step`) unless the swap beats `best`.
    fn best_swap(&mut self, p: &[usize], c: i64, best: i64, tabu: &[u64], step: u64) -> Option<(i64, usize, usize)> {
        let n = p.len();
        let (mut pick, mut ties) = (None::<(i64, usize, usize)>, 0u32);
        let colliding: Vec<usize> = (0..n).filter(|&u| self.collides(p, u)).collect();
        for u in colliding {
            for v in (0..n).filter(|&v| v != u) {
                let d = self.delta(p, u, v);
                if (tabu[u] >= step || tabu[v] >= step) && c + d >= best {
                    continue;
                }
                match pick {
                    Some((e, _, _)) if d > e => continue,
                    Some((e, _, _)) if d == e => ties += 1,
                    _ => ties = 1,
                }
                if self.rng.below(ties) == 0 {
                    pick = Some((d, u, v));
                }
            }
        }
        pick
    }
}

impl Polish for PackingPolish {
    fn describe(&self) -> &'static str {
        "swaps of two vertices' places that lower the collisions, iterated as a tabu walk from the colliding vertices"
    }

    fn improve(&mut self, perm: &[u16], iterate: bool, stop: &dyn Fn() -> bool) -> Vec<u16> {
        let mut p: Vec<usize> = perm.iter().map(|&x| x as usize).collect();
        let mut c = self.collisions(&p) + self.descend(&mut p, stop);
        let (mut best, mut best_c) = (p.clone(), c);
        let mut tabu = vec![0u64; p.len()];
        let mut step = 0u64;
        while iterate && best_c > self.floor && !stop() {
            step += 1;
            let Some((d, u, v)) = self.best_swap(&p, c, best_c, &tabu, step) else { continue };
            p.swap(u, v);
            c += d;
            let tenure = u64::from(TENURE + self.rng.below(TENURE));
            (tabu[u], tabu[v]) = (step + tenure, step + tenure);
            if c < best_c {
                (best, best_c) = (p.clone(), c);
            }
        }
        best.into_iter().map(|x| x as u16).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::generate::packable_pair;
    use crate::{EngineChoice, Options};
    use std::time::Duration;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Graph {
        Graph { n, edges: edges.iter().map(|&(u, v)| (u, v, 1)).collect() }
    }

    /// A triangle 0–1–2 with a pendant edge 2–3 (4 edges on 4 vertices).
    fn paw() -> Graph {
        graph(4, &[(0, 1), (1, 2), (0, 2), (2, 3)])
    }

    fn cpu(target: i64, seed: u64, seconds: f64) -> Options {
        Options {
            engine: EngineChoice::Cpu,
            target: Some(target),
            seed,
            time_limit: Some(Duration::from_secs_f64(seconds)),
            ..Options::default()
        }
    }

    /// Every permutation of 0..n, for n ≤ 7.
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        let grow =
            |p: Vec<usize>| (0..n).filter(|x| !p.contains(x)).map(|x| [&p[..], &[x]].concat()).collect::<Vec<_>>();
        (0..n).fold(vec![Vec::new()], |all, _| all.into_iter().flat_map(grow).collect())
    }

    #[test]
    fn cost_is_twice_the_collisions() {
        // A path 0–1–2 on a triangle 0–1–2 plus a vertex 3: each edge placed on the triangle
        // collides, an edge placed on 3 does not.
        let p = Packing::new(graph(3, &[(0, 1), (1, 2)]), graph(4, &[(0, 1), (1, 2), (0, 2)])).unwrap();
        assert_eq!(p.n, 4);
        assert_eq!(p.qap().cost(&[0u16, 1, 2, 3]), 4);
        assert_eq!(check_packing(&p.g1, &p.g2, &[0, 1, 2, 3]), Ok(2));
        assert_eq!(p.qap().cost(&[3u16, 0, 1, 2]), 2);
        assert_eq!(p.qap().cost(&[0u16, 3, 1, 2]), 0);
        let a = p.answer(&[0, 3, 1, 2]);
        assert!(a.valid && a.value == 0 && a.fields["packing"] == true, "{a:?}");
        assert_eq!(a.fields["mapping"], serde_json::json!([1, 4, 2]));
        assert!(a.drawing.contains("padding") && a.drawing.contains("G1"), "{}", a.drawing);
        // Every permutation of a random pair: the QAP's cost is twice the checked collisions.
        let (g1, g2, _) = packable_pair(6, 40, 50, 3);
        let p = Packing::new(g1, g2).unwrap();
        for map in permutations(6) {
            let perm: Vec<u16> = map.iter().map(|&x| x as u16).collect();
            assert_eq!(p.qap().cost(&perm), 2 * check_packing(&p.g1, &p.g2, &map).unwrap());
        }
    }

    #[test]
    fn checker_rejects_what_is_not_a_bijection() {
        let g = paw();
        assert!(check_packing(&g, &g, &[0, 1, 2]).unwrap_err().contains("3 vertices mapped"));
        assert!(check_packing(&g, &g, &[0, 1, 1, 3]).unwrap_err().contains("two vertices"));
        assert!(check_packing(&g, &g, &[0, 1, 2, 4]).unwrap_err().contains("does not exist"));
        let a = Packing::new(g.clone(), g).unwrap().answer(&[0, 1, 1, 3]);
        assert!(!a.valid && a.defect.is_some(), "{a:?}");
    }

    #[test]
    fn a_packable_pair_reaches_zero_on_the_cpu() {
        let (g1, g2, planted) = packable_pair(24, 50, 60, 7);
        assert_eq!(check_packing(&g1, &g2, &planted), Ok(0));
        let p = Packing::new(g1, g2).unwrap();
        assert_eq!(p.target(), Some(0));
        let sol = crate::solve(p.qap(), &cpu(0, 1, 30.0)).unwrap();
        let a = p.answer(&sol.perm());
        assert!(sol.cost == 0 && a.valid && a.value == 0 && a.fields["packing"] == true, "{a:?}");
    }

    #[test]
    fn two_paws_never_pack() {
        // 4 + 4 edges on 6 vertex pairs: at least 2 collide, whatever the bijection.
        let p = Packing::new(paw(), paw()).unwrap();
        assert_eq!(p.least_collisions(), 2);
        let best = permutations(4).iter().map(|m| check_packing(&p.g1, &p.g2, m).unwrap()).min();
        assert_eq!(best, Some(2));
        let sol = crate::solve(p.qap(), &cpu(0, 2, 0.5)).unwrap();
        let a = p.answer(&sol.perm());
        assert!(sol.cost == 4 && a.valid && a.value == 2 && a.fields["packing"] == false, "{a:?}");
        assert!(a.drawing.contains("at least 2 must"), "{}", a.drawing);
    }

    #[test]
    fn starts_and_polish_are_bijections_and_the_polish_packs() {
        let (g1, g2, _) = packable_pair(24, 50, 50, 11);
        let p = Packing::new(g1, g2).unwrap();
        let starts = p.starts();
        for s in &starts {
            let map: Vec<usize> = s.iter().map(|&x| x as usize).collect();
            assert!(check_packing(&p.g1, &p.g2, &map).is_ok());
        }
        let mut polish = PackingPolish::new(&p, 5);
        let looks = std::cell::Cell::new(0);
        let out = polish.improve(&starts[1], true, &|| {
            looks.set(looks.get() + 1);
            looks.get() > 200_000
        });
        assert_eq!(p.qap().cost(&out), 0, "after {} looks at the stop", looks.get());
    }
}
