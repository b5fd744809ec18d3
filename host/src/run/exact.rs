//! Small instances solved exactly on the CPU: a depth-first branch and bound with the
//! Gilmore–Lawler bound, which the run loop tries before the metaheuristic under the
//! `converged` stop rule (`StopRule::Converged`) up to `policy::EXACT_MAX_N`.
//!
//! A node fixes some facilities to locations. Its bound is the cost among the fixed ones
//! plus a linear assignment problem over the free ones: putting free facility i on free
//! location j costs a\[i\]\[i\]·b\[j\]\[j\], its exact interactions with the fixed facilities
//! (both directions), and the smallest scalar product of i's free row of A with j's free
//! row of B (A's entries ascending against B's descending), a lower bound on i's row of the
//! free–free cost whatever the rest does. The assignment problem is solved by the Hungarian
//! method; its dual gives every child a bound before the child is built (the parent's bound
//! plus the reduced cost of the child's pair), so most children are cut unseen. The next
//! facility to fix is the one with the fewest children left after that cut. The start's
//! upper bound comes from a 2-opt descent from a few starts. Costs are i64 throughout:
//! `Instance::new` proves that no sum of n² products overflows.
use crate::io::Instance;

/// An optimal solution and the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Optimum {
    /// The optimal cost (`Instance::cost` of `perm`).
    pub cost: i64,
    /// An optimal permutation (0-based: `perm[i]` is facility i's location).
    pub perm: Vec<u8>,
    /// Nodes whose bound was computed.
    pub nodes: u64,
}

/// What the counters of a proven run count (`Counters::unit`).
pub const UNIT: &str = "branch-and-bound nodes";

/// What a report says of the exact method (`Solution::algorithm` "exact").
pub fn info() -> crate::run::SolverInfo {
    crate::run::SolverInfo {
        algorithm: "exact",
        engine: "cpu",
        device: crate::site::cpu_device(1),
        layout: "branch and bound with the Gilmore–Lawler bound, one CPU thread".into(),
        blocks: 1,
        threads_per_block: 1,
    }
}

/// Largest n `solve` takes (locations are bits of a u32; the run loop's limit is far lower,
/// `policy::EXACT_MAX_N`).
pub const MAX_N: usize = 32;

/// Solves `inst` exactly, or gives up (None) once `node_budget` bounds have been computed or
/// `stop()` says so (asked at the first node and every 64 after). n must be at most `MAX_N`.
pub fn solve(inst: &Instance, node_budget: u64, stop: &dyn Fn() -> bool) -> Option<Optimum> {
    let n = inst.n;
    assert!(n <= MAX_N, "exact: n = {n} is above {MAX_N}");
    let (cost, perm) = upper_bound(inst);
    let mut s = Search {
        inst,
        n,
        best: cost,
        best_perm: perm,
        loc: vec![u8::MAX; n],
        nodes: 0,
        budget: node_budget,
        stop,
        gave_up: false,
    };
    let linear = vec![0i64; n * n];
    s.node(0, 0, &linear, 0);
    (!s.gave_up).then_some(Optimum { cost: s.best, perm: s.best_perm, nodes: s.nodes })
}

/// The search's state: the incumbent, the partial assignment and the budget.
struct Search<'a> {
    inst: &'a Instance,
    n: usize,
    best: i64,
    best_perm: Vec<u8>,
    /// Location of each facility, `u8::MAX` where free.
    loc: Vec<u8>,
    nodes: u64,
    budget: u64,
    stop: &'a dyn Fn() -> bool,
    gave_up: bool,
}

impl Search<'_> {
    /// The node where the facilities with a location are fixed, `used` has their locations'
    /// bits, `fixed` is their cost among themselves and `linear[i·n + j]` the interactions of
    /// free facility i on free location j with them.
    fn node(&mut self, depth: usize, used: u32, linear: &[i64], fixed: i64) {
        let (n, a, b) = (self.n, &self.inst.a, &self.inst.b);
        if depth == n {
            if fixed < self.best {
                self.best = fixed;
                self.best_perm = self.loc.clone();
            }
            return;
        }
        self.nodes += 1;
        if self.nodes > self.budget || (self.nodes % 64 == 1 && (self.stop)()) {
            self.gave_up = true;
            return;
        }
        let fac: Vec<usize> = (0..n).filter(|&i| self.loc[i] == u8::MAX).collect();
        let locs: Vec<usize> = (0..n).filter(|&j| used & (1 << j) == 0).collect();
        let m = fac.len();
        // Free rows, sorted, each without its diagonal: A's ascending, B's descending (rows of
        // m − 1 in one buffer each).
        let w = m - 1;
        let rows = |mat: &[i64], idx: &[usize], desc: bool| -> Vec<i64> {
            let mut v = Vec::with_capacity(m * w);
            for &r in idx {
                let at = v.len();
                v.extend(idx.iter().filter(|&&c| c != r).map(|&c| mat[r * n + c]));
                let row = &mut v[at..];
                if desc {
                    row.sort_unstable_by(|x, y| y.cmp(x));
                } else {
                    row.sort_unstable();
                }
            }
            v
        };
        let (ra, rb) = (rows(a, &fac, false), rows(b, &locs, true));
        let mut c = vec![0i64; m * m];
        for (x, &i) in fac.iter().enumerate() {
            let ar = &ra[x * w..(x + 1) * w];
            for (y, &j) in locs.iter().enumerate() {
                let prod: i64 = ar.iter().zip(&rb[y * w..(y + 1) * w]).map(|(p, q)| p * q).sum();
                c[x * m + y] = a[i * n + i] * b[j * n + j] + linear[i * n + j] + prod;
            }
        }
        let lap = hungarian(&c, m);
        let bound = fixed + lap.cost;
        if bound >= self.best {
            return;
        }
        // The facility with the fewest children whose bound from the dual stays below the
        // incumbent: it cuts the tree nearest the root.
        let reduced = |x: usize, y: usize| c[x * m + y] - lap.u[x] - lap.v[y];
        let survivors = |x: usize| (0..m).filter(|&y| bound + reduced(x, y) < self.best).count();
        let Some(x) = (0..m).min_by_key(|&x| survivors(x)) else { return };
        let mut kids: Vec<(i64, usize)> =
            (0..m).map(|y| (bound + reduced(x, y), y)).filter(|&(lb, _)| lb < self.best).collect();
        kids.sort_unstable();
        let f = fac[x];
        let mut next = linear.to_vec();
        for (lb, y) in kids {
            if lb >= self.best {
                continue; // the incumbent improved since the list was made
            }
            let l = locs[y];
            // The child's fixed cost, and the interactions of every other free facility with f.
            let child_fixed = fixed + a[f * n + f] * b[l * n + l] + linear[f * n + l];
            for &i in &fac {
                if i == f {
                    continue;
                }
                for &j in &locs {
                    if j != l {
                        next[i * n + j] = linear[i * n + j] + a[i * n + f] * b[j * n + l] + a[f * n + i] * b[l * n + j];
                    }
                }
            }
            self.loc[f] = l as u8;
            self.node(depth + 1, used | (1 << l), &next, child_fixed);
            self.loc[f] = u8::MAX;
            if self.gave_up {
                return;
            }
        }
    }
}

/// A solved linear assignment problem: its optimal cost and a dual (u, v) with
/// u\[x\] + v\[y\] ≤ c\[x\]\[y\] and Σu + Σv = cost.
struct Lap {
    cost: i64,
    u: Vec<i64>,
    v: Vec<i64>,
}

/// The Hungarian method (shortest augmenting paths with potentials) on the m×m row-major
/// matrix `c`.
fn hungarian(c: &[i64], m: usize) -> Lap {
    if m == 0 {
        return Lap { cost: 0, u: Vec::new(), v: Vec::new() };
    }
    // 1-based rows and columns; column 0 is the augmenting path's root.
    let (mut u, mut v) = (vec![0i64; m + 1], vec![0i64; m + 1]);
    let (mut row_of, mut way) = (vec![0usize; m + 1], vec![0usize; m + 1]);
    let (mut minv, mut used) = (vec![i64::MAX; m + 1], vec![false; m + 1]);
    for i in 1..=m {
        row_of[0] = i;
        let mut j0 = 0;
        minv.fill(i64::MAX);
        used.fill(false);
        loop {
            used[j0] = true;
            let i0 = row_of[j0];
            let (mut delta, mut j1) = (i64::MAX, 0);
            for j in 1..=m {
                if !used[j] {
                    let cur = c[(i0 - 1) * m + j - 1] - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=m {
                if used[j] {
                    u[row_of[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if row_of[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            row_of[j0] = row_of[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let cost = (1..=m).map(|j| c[(row_of[j] - 1) * m + j - 1]).sum();
    Lap { cost, u: u[1..].to_vec(), v: v[1..].to_vec() }
}

/// A good start for the bound: the best of a 2-opt descent (first improvement) from the
/// identity and from a few seeded random permutations.
fn upper_bound(inst: &Instance) -> (i64, Vec<u8>) {
    let n = inst.n;
    let mut rng = qapgpu_common::rng::Xoshiro128::from_stream(0x51a7, 0);
    let mut best: Option<(i64, Vec<u8>)> = None;
    for start in 0..8 {
        let mut p: Vec<u8> = (0..n as u8).collect();
        if start > 0 {
            for i in (1..n).rev() {
                p.swap(i, rng.below(i as u32 + 1) as usize);
            }
        }
        let mut cost = inst.cost(&p);
        let mut improved = true;
        while improved {
            improved = false;
            for r in 0..n {
                for s in r + 1..n {
                    p.swap(r, s);
                    let c = inst.cost(&p);
                    if c < cost {
                        cost = c;
                        improved = true;
                    } else {
                        p.swap(r, s);
                    }
                }
            }
        }
        if best.as_ref().is_none_or(|b| cost < b.0) {
            best = Some((cost, p));
        }
    }
    best.expect("eight starts")
}

/// The optimum by enumerating every permutation (Heap's algorithm), for tests: n! costs.
pub fn brute_force(inst: &Instance) -> (i64, Vec<u8>) {
    let n = inst.n;
    let mut p: Vec<u8> = (0..n as u8).collect();
    let mut best = (inst.cost(&p), p.clone());
    let mut c = vec![0usize; n];
    let mut i = 1;
    while i < n {
        if c[i] < i {
            p.swap(if i % 2 == 0 { 0 } else { c[i] }, i);
            let cost = inst.cost(&p);
            if cost < best.0 {
                best = (cost, p.clone());
            }
            c[i] += 1;
            i = 1;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::{brute_force, hungarian, solve};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The Hungarian method's cost is the smallest over all assignments, and its dual is
        /// feasible and tight.
        #[test]
        fn hungarian_is_optimal(m in 1usize..=6, seed in any::<u64>()) {
            let mut rng = qapgpu_common::rng::Xoshiro128::from_stream(seed, 0);
            let c: Vec<i64> = (0..m * m).map(|_| i64::from(rng.below(100)) - 30).collect();
            let lap = hungarian(&c, m);
            prop_assert_eq!(lap.cost, lap_by_enumeration(&c, m));
            for x in 0..m {
                for y in 0..m {
                    prop_assert!(lap.u[x] + lap.v[y] <= c[x * m + y]);
                }
            }
            prop_assert_eq!(lap.u.iter().sum::<i64>() + lap.v.iter().sum::<i64>(), lap.cost);
        }
    }

    /// The smallest Σ c[x][p(x)] over every permutation p of 0..m.
    fn lap_by_enumeration(c: &[i64], m: usize) -> i64 {
        fn go(c: &[i64], m: usize, x: usize, used: u32, sum: i64) -> i64 {
            if x == m {
                return sum;
            }
            (0..m)
                .filter(|&y| used & (1 << y) == 0)
                .map(|y| go(c, m, x + 1, used | (1 << y), sum + c[x * m + y]))
                .min()
                .unwrap()
        }
        go(c, m, 0, 0, 0)
    }

    #[test]
    fn a_random_n9_instance() {
        let inst = crate::bench::random_instance(9, 3);
        let opt = solve(&inst, u64::MAX, &|| false).unwrap();
        assert_eq!(opt.cost, brute_force(&inst).0);
    }

    #[test]
    fn gives_up_when_told() {
        let inst = crate::bench::random_instance(10, 1);
        assert!(solve(&inst, 3, &|| false).is_none());
        assert!(solve(&inst, u64::MAX, &|| true).is_none());
    }
}
