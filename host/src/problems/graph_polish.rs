//! The polishes of the graph layouts: pair swaps between parts for a partition into equal
//! parts (Kernighan–Lin's move, best first) and adjacent swaps for a linear arrangement,
//! each iterated with small random kicks, a kick's result kept where it is no worse.
use super::graph::Graph;
use super::orders::neighbours;
use super::polish::Polish;
use qapgpu_common::rng::Xoshiro128;

/// Kicks between two looks at the stop condition.
const STOP_POLL: u32 = 16;

/// Partitioning's polish: vertices swap parts where that lowers the cut.
pub struct PartitionPolish {
    n: usize,
    parts: usize,
    w: Vec<i64>,
    rng: Xoshiro128,
}

impl PartitionPolish {
    /// The polish of `g` cut into `parts` equal parts.
    pub fn new(g: &Graph, parts: usize, seed: u64) -> PartitionPolish {
        PartitionPolish { n: g.n, parts, w: g.weights(), rng: Xoshiro128::from_stream(seed, 0x6770) }
    }

    /// `conn[v·k + p]`: the weight from v to part p.
    fn connections(&self, part: &[usize]) -> Vec<i64> {
        let (n, k) = (self.n, self.parts);
        let mut conn = vec![0i64; n * k];
        for u in 0..n {
            for v in 0..n {
                conn[u * k + part[v]] += self.w[u * n + v];
            }
        }
        conn
    }

    fn swap(&self, part: &mut [usize], conn: &mut [i64], u: usize, v: usize) {
        let (n, k) = (self.n, self.parts);
        let (pu, pv) = (part[u], part[v]);
        for x in 0..n {
            conn[x * k + pu] += self.w[x * n + v] - self.w[x * n + u];
            conn[x * k + pv] += self.w[x * n + u] - self.w[x * n + v];
        }
        part.swap(u, v);
    }

    /// How much the cut falls when u and v (in different parts) swap.
    fn gain(&self, part: &[usize], conn: &[i64], u: usize, v: usize) -> i64 {
        let (n, k) = (self.n, self.parts);
        let (pu, pv) = (part[u], part[v]);
        conn[u * k + pv] - conn[u * k + pu] + conn[v * k + pu] - conn[v * k + pv] - 2 * self.w[u * n + v]
    }

    /// Best-first swaps until none lowers the cut; returns the cut's change.
    fn descend(&self, part: &mut [usize], conn: &mut [i64]) -> i64 {
        let n = self.n;
        let mut change = 0;
        loop {
            let mut best = (0i64, 0usize, 0usize);
            for u in 0..n {
                for v in u + 1..n {
                    if part[u] == part[v] {
                        continue;
                    }
                    let gain = self.gain(part, conn, u, v);
                    if gain > best.0 {
                        best = (gain, u, v);
                    }
                }
            }
            if best.0 <= 0 {
                return change;
            }
            self.swap(part, conn, best.1, best.2);
            change -= best.0;
        }
    }
}

impl Polish for PartitionPolish {
    fn describe(&self) -> &'static str {
        "pair swaps between parts, best first (Kernighan–Lin's move), iterated with random swaps"
    }

    fn improve(&mut self, perm: &[u16], iterate: bool, stop: &dyn Fn() -> bool) -> Vec<u16> {
        let (n, k) = (self.n, self.parts);
        let size = n / k;
        let mut part = vec![0usize; n];
        for (slot, &v) in perm.iter().enumerate() {
            part[v as usize] = slot / size;
        }
        let mut conn = self.connections(&part);
        let mut cut = self.descend(&mut part, &mut conn);
        let (mut best, mut best_cut) = (part.clone(), cut);
        let mut kicks = 0u32;
        while iterate && !(kicks.is_multiple_of(STOP_POLL) && stop()) {
            kicks += 1;
            let saved = (part.clone(), conn.clone(), cut);
            for _ in 0..2 {
                let u = self.rng.below(n as u32) as usize;
                let v = self.rng.below(n as u32) as usize;
                if part[u] != part[v] {
                    let gain = self.gain(&part, &conn, u, v);
                    self.swap(&mut part, &mut conn, u, v);
                    cut -= gain;
                }
            }
            cut += self.descend(&mut part, &mut conn);
            if cut <= best_cut {
                (best, best_cut) = (part.clone(), cut);
            } else {
                (part, conn, cut) = saved;
            }
        }
        slots_of_parts(&best, k)
    }
}

/// The QAP permutation of a partition: part 0's vertices in its slots, then part 1's, …
pub fn slots_of_parts(part: &[usize], parts: usize) -> Vec<u16> {
    (0..parts).flat_map(|p| (0..part.len()).filter(move |&v| part[v] == p)).map(|v| v as u16).collect()
}

/// The linear arrangement's polish: neighbours on the line swap places where that
/// shortens the arrangement.
pub struct ArrangementPolish {
    graph: Graph,
    nb: Vec<Vec<(usize, i64)>>,
    rng: Xoshiro128,
}

impl ArrangementPolish {
    /// The polish of `g`'s arrangements.
    pub fn new(g: &Graph, seed: u64) -> ArrangementPolish {
        ArrangementPolish { graph: g.clone(), nb: neighbours(g), rng: Xoshiro128::from_stream(seed, 0x1a9) }
    }

    /// The arrangement's length (`pos` is always an arrangement here).
    fn length(&self, pos: &[usize]) -> i64 {
        super::lap::check_arrangement(&self.graph, pos).expect("swaps and reversals keep an arrangement")
    }

    /// The change of length when the vertices at positions i and i + 1 swap.
    fn delta(&self, order: &[usize], pos: &[usize], i: usize) -> i64 {
        let (a, b) = (order[i], order[i + 1]);
        let moved = |v: usize, from: usize, to: usize, other: usize| -> i64 {
            self.nb[v]
                .iter()
                .filter(|&&(u, _)| u != other)
                .map(|&(u, w)| w * ((pos[u] as i64 - to as i64).abs() - (pos[u] as i64 - from as i64).abs()))
                .sum()
        };
        moved(a, i, i + 1, b) + moved(b, i + 1, i, a)
    }

    fn swap_at(order: &mut [usize], pos: &mut [usize], i: usize) {
        order.swap(i, i + 1);
        pos[order[i]] = i;
        pos[order[i + 1]] = i + 1;
    }

    /// Adjacent swaps until none shortens the arrangement; returns the change of length.
    fn descend(&self, order: &mut [usize], pos: &mut [usize]) -> i64 {
        let mut change = 0;
        loop {
            let mut improved = false;
            for i in 0..order.len() - 1 {
                let d = self.delta(order, pos, i);
                if d < 0 {
                    Self::swap_at(order, pos, i);
                    change += d;
                    improved = true;
                }
            }
            if !improved {
                return change;
            }
        }
    }
}

impl Polish for ArrangementPolish {
    fn describe(&self) -> &'static str {
        "adjacent swaps, iterated with random short reversals"
    }

    fn improve(&mut self, perm: &[u16], iterate: bool, stop: &dyn Fn() -> bool) -> Vec<u16> {
        let n = perm.len();
        let mut pos: Vec<usize> = perm.iter().map(|&p| p as usize).collect();
        let mut order = vec![0usize; n];
        for (v, &p) in pos.iter().enumerate() {
            order[p] = v;
        }
        self.descend(&mut order, &mut pos);
        let mut len = self.length(&pos);
        let (mut best, mut best_len) = (pos.clone(), len);
        let mut kicks = 0u32;
        while iterate && n > 2 && !(kicks.is_multiple_of(STOP_POLL) && stop()) {
            kicks += 1;
            let saved = (order.clone(), pos.clone(), len);
            let i = self.rng.below(n as u32 - 1) as usize;
            let span = 2 + self.rng.below(6) as usize;
            let j = (i + span).min(n - 1);
            order[i..=j].reverse();
            for (p, &v) in order.iter().enumerate().take(j + 1).skip(i) {
                pos[v] = p;
            }
            self.descend(&mut order, &mut pos);
            len = self.length(&pos);
            if len <= best_len {
                (best, best_len) = (pos.clone(), len);
            } else {
                (order, pos, len) = saved;
            }
        }
        best.into_iter().map(|p| p as u16).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::generate::{ring_of_cliques, shuffled_cycle};
    use crate::problems::gpp::check_partition;
    use crate::problems::lap::check_arrangement;

    #[test]
    fn partition_polish_reaches_the_ring_cut() {
        let (g, cut) = ring_of_cliques(3, 6, 4);
        let mut p = PartitionPolish::new(&g, 3, 1);
        let start: Vec<u16> = (0..18).collect();
        let kicks = std::cell::Cell::new(0);
        let out = p.improve(&start, true, &|| {
            kicks.set(kicks.get() + 1);
            kicks.get() > 200
        });
        let mut part = vec![0; 18];
        for (slot, &v) in out.iter().enumerate() {
            part[v as usize] = slot / 6;
        }
        assert_eq!(check_partition(&g, 3, &part), Ok(cut));
    }

    #[test]
    fn arrangement_polish_shortens_and_stays_a_permutation() {
        let (g, best) = shuffled_cycle(24, 5);
        let mut p = ArrangementPolish::new(&g, 2);
        let start: Vec<u16> = (0..24).collect();
        let before = check_arrangement(&g, &(0..24).collect::<Vec<_>>()).unwrap();
        let kicks = std::cell::Cell::new(0);
        let out = p.improve(&start, true, &|| {
            kicks.set(kicks.get() + 1);
            kicks.get() > 500
        });
        let pos: Vec<usize> = out.iter().map(|&p| p as usize).collect();
        let len = check_arrangement(&g, &pos).unwrap();
        assert!(len <= before && len >= best, "{len} from {before}, optimum {best}");
    }
}
