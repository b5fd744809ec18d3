//! The tour's own improvement: 2-opt (symmetric distances) and Or-opt (segments of up to
//! three cities moved, reversed too where distances are symmetric) over each city's nearest
//! neighbours, with a queue of cities whose links changed ("don't-look bits"); iterated
//! from its local optima by segment-local double-bridge kicks, keeping a kick's result when
//! it is no longer (iterated local search). A double bridge swaps two adjacent segments, so
//! it reverses nothing and serves asymmetric distances as well.
use qapgpu_common::rng::Xoshiro128;
use std::collections::VecDeque;

/// Candidate cities per city: the nearest ones.
pub const NEIGHBOURS: usize = 10;
/// Longest segment an Or-opt move takes on symmetric distances, where 2-opt does the rest.
pub const OR_MAX: usize = 3;
/// Longest segment an Or-opt move takes on asymmetric distances: without 2-opt, moving
/// longer segments (reversal-free 3-opt moves) is what gets a tour out of Or-opt's optima.
pub const OR_MAX_ASYM: usize = 40;
/// Longest segment a double-bridge kick moves (kicks stay local: long ones undo most of
/// a good tour).
pub const KICK_SPAN: u32 = 30;
/// Queue pops between two looks at the stop condition.
const STOP_POLL: u32 = 64;

/// A tour under improvement, with its length kept up to date.
pub struct TourSearch {
    n: usize,
    dist: Vec<i64>,
    sym: bool,
    /// Longest segment an Or-opt move takes.
    or_max: usize,
    /// For each city c, the cities x with the least d(c, x).
    out_nb: Vec<Vec<u16>>,
    /// For each city c, the cities x with the least d(x, c).
    in_nb: Vec<Vec<u16>>,
    t: Vec<usize>,
    pos: Vec<usize>,
    len: i64,
    queue: VecDeque<usize>,
    queued: Vec<bool>,
    rng: Xoshiro128,
    /// Kicks so far.
    pub kicks: u64,
}

fn nearest(n: usize, key: impl Fn(usize, usize) -> i64) -> Vec<Vec<u16>> {
    (0..n)
        .map(|c| {
            let mut others: Vec<usize> = (0..n).filter(|&x| x != c).collect();
            others.sort_by_key(|&x| (key(c, x), x));
            others.truncate(NEIGHBOURS);
            others.into_iter().map(|x| x as u16).collect()
        })
        .collect()
}

impl TourSearch {
    /// A search over the n×n distances `dist` (row-major, `dist[i·n + j]` from i to j),
    /// from `tour`.
    pub fn new(dist: Vec<i64>, n: usize, tour: &[usize], seed: u64) -> TourSearch {
        let sym = crate::problems::tsplib::is_symmetric(&dist, n);
        let out_nb = nearest(n, |c, x| dist[c * n + x]);
        let in_nb = if sym { out_nb.clone() } else { nearest(n, |c, x| dist[x * n + c]) };
        let mut s = TourSearch {
            n,
            dist,
            sym,
            or_max: if sym { OR_MAX } else { OR_MAX_ASYM },
            out_nb,
            in_nb,
            t: Vec::new(),
            pos: vec![0; n],
            len: 0,
            queue: VecDeque::with_capacity(n),
            queued: vec![false; n],
            rng: Xoshiro128::from_stream(seed, 0x70u64),
            kicks: 0,
        };
        s.set_tour(tour);
        s
    }

    /// Starts again from `tour`, every city queued.
    pub fn set_tour(&mut self, tour: &[usize]) {
        self.t = tour.to_vec();
        self.reindex();
        self.len = self.recount();
        self.queue.clear();
        self.queued.fill(false);
        for c in 0..self.n {
            self.push(c);
        }
    }

    /// The tour, cities in visiting order.
    pub fn tour(&self) -> &[usize] {
        &self.t
    }

    /// Its length.
    pub fn length(&self) -> i64 {
        self.len
    }

    /// Whether the distances are symmetric (2-opt and reversed Or-opt moves are used).
    pub fn is_symmetric(&self) -> bool {
        self.sym
    }

    fn d(&self, a: usize, b: usize) -> i64 {
        self.dist[a * self.n + b]
    }

    fn succ(&self, c: usize) -> usize {
        self.t[(self.pos[c] + 1) % self.n]
    }

    fn pred(&self, c: usize) -> usize {
        self.t[(self.pos[c] + self.n - 1) % self.n]
    }

    fn reindex(&mut self) {
        for (i, &c) in self.t.iter().enumerate() {
            self.pos[c] = i;
        }
    }

    fn recount(&self) -> i64 {
        (0..self.n).map(|i| self.d(self.t[i], self.t[(i + 1) % self.n])).sum()
    }

    fn push(&mut self, c: usize) {
        if !self.queued[c] {
            self.queued[c] = true;
            self.queue.push_back(c);
        }
    }

    fn push_all(&mut self, cities: &[usize]) {
        for &c in cities {
            self.push(c);
        }
    }

    /// Improving moves until no queued city has one (true), or until `stop` (false).
    pub fn descend(&mut self, stop: &dyn Fn() -> bool) -> bool {
        let mut polls = 0u32;
        while let Some(a) = self.queue.pop_front() {
            polls += 1;
            if polls.is_multiple_of(STOP_POLL) && stop() {
                self.queue.push_front(a);
                return false;
            }
            self.queued[a] = false;
            if (self.sym && self.two_opt_from(a)) || self.or_opt_from(a) {
                self.push(a);
            }
        }
        true
    }

    /// The first improving 2-opt move that links `a` to one of its neighbours.
    fn two_opt_from(&mut self, a: usize) -> bool {
        for forward in [true, false] {
            let b = if forward { self.succ(a) } else { self.pred(a) };
            let dab = self.d(a, b);
            for k in 0..self.out_nb[a].len() {
                let c = self.out_nb[a][k] as usize;
                let dac = self.d(a, c);
                if dac >= dab {
                    break;
                }
                let e = if forward { self.succ(c) } else { self.pred(c) };
                if c == b || e == a {
                    continue;
                }
                let delta = dac + self.d(b, e) - dab - self.d(c, e);
                if delta < 0 {
                    // Forward: a→b … c→e becomes a→c … b→e; backward: b→a … e→c becomes b→e … a→c.
                    let (from, to) = if forward { (self.pos[b], self.pos[c]) } else { (self.pos[a], self.pos[e]) };
                    self.reverse(from, to);
                    self.len += delta;
                    self.push_all(&[a, b, c, e]);
                    return true;
                }
            }
        }
        false
    }

    /// Reverses the cities at positions `i` to `j` (going forward, cyclic); on symmetric
    /// distances the shorter of that segment and its complement, the same tour.
    fn reverse(&mut self, i: usize, j: usize) {
        let n = self.n;
        let len = (j + n - i) % n + 1;
        let (mut i, mut j, len) = if 2 * len > n { ((j + 1) % n, (i + n - 1) % n, n - len) } else { (i, j, len) };
        for _ in 0..len / 2 {
            self.t.swap(i, j);
            self.pos[self.t[i]] = i;
            self.pos[self.t[j]] = j;
            i = (i + 1) % n;
            j = (j + n - 1) % n;
        }
    }

    /// The first improving Or-opt move of a segment of 1..=`OR_MAX` cities that starts or
    /// ends at `a`, to between a neighbour of its ends and that neighbour's next city.
    fn or_opt_from(&mut self, a: usize) -> bool {
        let n = self.n;
        for l in 1..=self.or_max.min(n.saturating_sub(3)) {
            let ends_at_a = self.t[(self.pos[a] + n - (l - 1)) % n];
            let firsts: &[usize] = if l == 1 { &[a] } else { &[a, ends_at_a] };
            for &s1 in firsts {
                if let Some((c, reversed, delta)) = self.or_move(s1, l) {
                    let (p, s2) = (self.pred(s1), self.t[(self.pos[s1] + l - 1) % n]);
                    let nx = self.succ(s2);
                    let e = self.succ(c);
                    self.move_segment(s1, l, c, reversed);
                    self.len += delta;
                    self.push_all(&[p, nx, c, e, s1, s2]);
                    return true;
                }
            }
        }
        false
    }

    /// The first improving place for the segment of `l` cities from `s1`: the city c it
    /// goes after, whether it is reversed, and the change of length.
    fn or_move(&self, s1: usize, l: usize) -> Option<(usize, bool, i64)> {
        let n = self.n;
        let at = self.pos[s1];
        let s2 = self.t[(at + l - 1) % n];
        let (p, nx) = (self.pred(s1), self.succ(s2));
        let gain = self.d(p, s1) + self.d(s2, nx) - self.d(p, nx);
        if gain <= 0 {
            return None;
        }
        let in_seg = |x: usize| (self.pos[x] + n - at) % n < l;
        // (head, tail): the segment's city linked to c, and the one linked to c's next city.
        let ways: &[(usize, usize, bool)] =
            if self.sym { &[(s1, s2, false), (s2, s1, true)] } else { &[(s1, s2, false)] };
        for &(head, tail, reversed) in ways {
            let try_at = |c: usize| -> Option<i64> {
                let e = self.succ(c);
                if in_seg(c) || in_seg(e) {
                    return None;
                }
                let add = self.d(c, head) + self.d(tail, e) - self.d(c, e);
                (add < gain).then_some(add - gain)
            };
            for &c in &self.in_nb[head] {
                let c = c as usize;
                if self.d(c, head) >= gain {
                    break;
                }
                if let Some(delta) = try_at(c) {
                    return Some((c, reversed, delta));
                }
            }
            for &e in &self.out_nb[tail] {
                let e = e as usize;
                if self.d(tail, e) >= gain {
                    break;
                }
                let c = self.pred(e);
                if let Some(delta) = try_at(c) {
                    return Some((c, reversed, delta));
                }
            }
        }
        None
    }

    /// Moves the segment of `l` cities from `s1` to just after city `c` (reversed or not).
    fn move_segment(&mut self, s1: usize, l: usize, c: usize, reversed: bool) {
        let n = self.n;
        let at = self.pos[s1];
        let seg: Vec<usize> = (0..l).map(|k| self.t[(at + k) % n]).collect();
        let mut out = Vec::with_capacity(n);
        for k in 0..n - l {
            let x = self.t[(at + l + k) % n];
            out.push(x);
            if x == c {
                if reversed {
                    out.extend(seg.iter().rev());
                } else {
                    out.extend_from_slice(&seg);
                }
            }
        }
        self.t = out;
        self.reindex();
    }

    /// A segment-local double bridge: two adjacent segments of 1..=`KICK_SPAN` cities trade
    /// places.
    fn kick(&mut self) {
        let n = self.n;
        let span = KICK_SPAN.min(((n - 2) / 2) as u32).max(1);
        let i = self.rng.below(n as u32) as usize;
        let l1 = 1 + self.rng.below(span) as usize;
        let l2 = 1 + self.rng.below(span) as usize;
        let at = |k: usize| self.t[(i + k) % n];
        let (a, b0, b1, c0, c1, e) = (at(0), at(1), at(l1), at(l1 + 1), at(l1 + l2), at(l1 + l2 + 1));
        let delta = self.d(a, c0) + self.d(c1, b0) + self.d(b1, e) - self.d(a, b0) - self.d(b1, c0) - self.d(c1, e);
        let mut out = Vec::with_capacity(n);
        out.push(a);
        out.extend((l1 + 1..=l1 + l2).map(at));
        out.extend((1..=l1).map(at));
        out.extend((l1 + l2 + 1..n).map(at));
        self.t = out;
        self.reindex();
        self.len += delta;
        self.push_all(&[a, b0, b1, c0, c1, e]);
    }

    /// Iterated local search from the current tour until `stop`: descent, then kicks, each
    /// kept where the tour is no longer. Ends on the best tour found.
    pub fn iterate(&mut self, stop: &dyn Fn() -> bool) {
        self.descend(stop);
        let mut best = self.t.clone();
        let mut best_len = self.len;
        while !stop() && self.n >= 8 {
            self.kick();
            self.kicks += 1;
            let done = self.descend(stop);
            if done && self.len <= best_len {
                best.copy_from_slice(&self.t);
                best_len = self.len;
            } else {
                self.t.copy_from_slice(&best);
                self.reindex();
                self.len = best_len;
                while let Some(c) = self.queue.pop_front() {
                    self.queued[c] = false;
                }
            }
        }
        if self.len > best_len {
            self.t.copy_from_slice(&best);
            self.reindex();
            self.len = best_len;
        }
        debug_assert_eq!(self.len, self.recount());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random(n: usize, asym: bool, seed: u64) -> Vec<i64> {
        let mut rng = Xoshiro128::from_stream(seed, 1);
        let pts: Vec<(i64, i64)> = (0..n).map(|_| (rng.below(1000) as i64, rng.below(1000) as i64)).collect();
        let mut d = vec![0i64; n * n];
        for i in 0..n {
            for j in 0..n {
                let (dx, dy) = ((pts[i].0 - pts[j].0) as f64, (pts[i].1 - pts[j].1) as f64);
                d[i * n + j] = (dx.hypot(dy)).round() as i64 + if asym { rng.below(200) as i64 } else { 0 };
            }
        }
        d
    }

    fn brute(d: &[i64], n: usize) -> i64 {
        fn go(d: &[i64], n: usize, t: &mut Vec<usize>, used: &mut [bool], len: i64, best: &mut i64) {
            if t.len() == n {
                *best = (*best).min(len + d[t[n - 1] * n + t[0]]);
                return;
            }
            for c in 1..n {
                if !used[c] {
                    let step = d[t[t.len() - 1] * n + c];
                    used[c] = true;
                    t.push(c);
                    go(d, n, t, used, len + step, best);
                    t.pop();
                    used[c] = false;
                }
            }
        }
        let mut best = i64::MAX;
        go(d, n, &mut vec![0], &mut vec![false; n], 0, &mut best);
        best
    }

    #[test]
    fn lengths_stay_exact_and_local_search_improves() {
        for (seed, asym) in [(1, false), (2, true), (3, false), (4, true)] {
            let n = 60;
            let d = random(n, asym, seed);
            let start: Vec<usize> = (0..n).collect();
            let mut s = TourSearch::new(d.clone(), n, &start, seed);
            let before = s.length();
            assert!(s.descend(&|| false));
            assert_eq!(s.length(), s.recount());
            assert!(s.length() < before);
            let kicks = std::cell::Cell::new(0);
            s.iterate(&|| {
                kicks.set(kicks.get() + 1);
                kicks.get() > 2000
            });
            assert_eq!(s.length(), s.recount());
            let mut sorted = s.tour().to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>());
        }
    }

    #[test]
    fn small_tours_reach_their_optimum() {
        for (seed, asym) in [(5, false), (6, true), (7, false), (8, true)] {
            let n = 9;
            let d = random(n, asym, seed);
            let mut s = TourSearch::new(d.clone(), n, &(0..n).collect::<Vec<_>>(), seed);
            let calls = std::cell::Cell::new(0);
            s.iterate(&|| {
                calls.set(calls.get() + 1);
                calls.get() > 3000
            });
            assert_eq!(s.length(), brute(&d, n), "seed {seed}");
        }
    }
}
