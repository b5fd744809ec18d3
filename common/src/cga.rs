//! The cellular GA of seeds 002 and 004 (PGAGrid): a population on a toroidal W×H grid,
//! the elitist binary tournament against a partner drawn through a random permutation φ,
//! partner choice by neighbourhood, MOX, exchange mutation, transposition, and the 2-opt
//! and greedy 2-opt passes. Plain functions, run by the kernels and the CPU twin alike.
//!
//! A generation (Algorithm 18 of 004), for every individual i at once:
//! 1. tournament: i takes φ(i)'s row when φ(i) is strictly better;
//! 2. crossover: with p_c, MOX of i and the best neighbour k of i (a random partner for the
//!    papers' CPU variant); the child replaces i when it is as good or better;
//! 3. elitism: the best individual (lowest index among equals) is kept out of step 4;
//! 4. exchange mutation (p_m) and transposition (p_t);
//! 5. one 2-opt or greedy 2-opt pass.
//!
//! Steps 1 and 2 read the previous step's population only (synchronous generations).
use crate::elem::Elem;
use crate::matrix::Matrix;
use crate::moves::{delta_full, move_count, next_pair};
use crate::rng::Xoshiro128;

/// Neighbourhoods on the toroidal grid (004 §3.4, Figs. 3.10 and 3.11), plus the papers'
/// CPU variant, which pairs individuals at random.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Topology {
    /// Von Neumann: the 4 cells at Manhattan distance 1.
    N4 = 0,
    /// Moore: the 8 cells at Chebyshev distance 1.
    N8 = 1,
    /// The 16 cells at Chebyshev distance exactly 2.
    N16 = 2,
    /// 4n ∪ 16n.
    N20 = 3,
    /// No grid: the partner of i is ψ(i) for a random permutation ψ (the CPU variant).
    Random = 4,
}

const N4: [(i8, i8); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
const N8: [(i8, i8); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
const N16: [(i8, i8); 16] = [
    (-2, -2),
    (-1, -2),
    (0, -2),
    (1, -2),
    (2, -2),
    (-2, -1),
    (2, -1),
    (-2, 0),
    (2, 0),
    (-2, 1),
    (2, 1),
    (-2, 2),
    (-1, 2),
    (0, 2),
    (1, 2),
    (2, 2),
];
const N20: [(i8, i8); 20] = [
    (0, -1),
    (-1, 0),
    (1, 0),
    (0, 1),
    (-2, -2),
    (-1, -2),
    (0, -2),
    (1, -2),
    (2, -2),
    (-2, -1),
    (2, -1),
    (-2, 0),
    (2, 0),
    (-2, 1),
    (2, 1),
    (-2, 2),
    (-1, 2),
    (0, 2),
    (1, 2),
    (2, 2),
];

impl Topology {
    /// (dx, dy) of each neighbour, in the order ties are broken.
    pub const fn offsets(self) -> &'static [(i8, i8)] {
        match self {
            Topology::N4 => &N4,
            Topology::N8 => &N8,
            Topology::N16 => &N16,
            Topology::N20 => &N20,
            Topology::Random => &[],
        }
    }

    /// The topology of `CgaParams::topology` (`Topology as u32`).
    pub const fn from_u32(v: u32) -> Topology {
        match v {
            0 => Topology::N4,
            1 => Topology::N8,
            2 => Topology::N16,
            3 => Topology::N20,
            _ => Topology::Random,
        }
    }
}

/// The cell at (dx, dy) from `cell` on the toroidal w × h grid (cells row-major).
#[inline(always)]
pub const fn neighbour(w: u32, h: u32, cell: u32, dx: i8, dy: i8) -> u32 {
    let (x, y) = ((cell % w) as i64, (cell / w) as i64);
    let nx = (x + dx as i64).rem_euclid(w as i64) as u32;
    let ny = (y + dy as i64).rem_euclid(h as i64) as u32;
    ny * w + nx
}

/// The neighbour of `cell` with the lowest cost (the first in `offsets` order among
/// equals); the cell itself where wrapping brings an offset back onto it is skipped, and a
/// cell with no other neighbour is its own partner.
#[inline(always)]
pub fn best_neighbour(costs: &[i64], w: u32, h: u32, cell: u32, topology: Topology) -> u32 {
    let mut best = cell;
    let mut best_cost = i64::MAX;
    for &(dx, dy) in topology.offsets() {
        let k = neighbour(w, h, cell, dx, dy);
        if k != cell && costs[k as usize] < best_cost {
            best = k;
            best_cost = costs[k as usize];
        }
    }
    best
}

/// MOX, the modified order crossover of 004 §3.4: the child keeps `p1` before `cut`, then
/// takes the genes of `p2` that are not among them, in `p2`'s order. `taken` is n bytes of
/// work space. `cut` ≤ n.
#[inline(always)]
pub fn mox(p1: &[u8], p2: &[u8], cut: usize, child: &mut [u8], taken: &mut [u8]) {
    let n = p1.len();
    taken[..n].fill(0);
    for i in 0..cut {
        child[i] = p1[i];
        taken[p1[i] as usize] = 1;
    }
    let mut at = cut;
    for &g in p2 {
        if taken[g as usize] == 0 {
            child[at] = g;
            at += 1;
        }
    }
}

/// Exchange mutation with probability `threshold` (`Xoshiro128::chance`): two random genes
/// swap (the same gene twice changes nothing). Returns whether it fired.
#[inline(always)]
pub fn exchange(rng: &mut Xoshiro128, p: &mut [u8], threshold: u32) -> bool {
    if !rng.chance(threshold) {
        return false;
    }
    let n = p.len() as u32;
    let (x, y) = (rng.below(n) as usize, rng.below(n) as usize);
    p.swap(x, y);
    true
}

/// Transposition with probability `threshold`: the genes between two random points
/// (inclusive) are reversed. Returns whether it fired.
#[inline(always)]
pub fn transpose(rng: &mut Xoshiro128, p: &mut [u8], threshold: u32) -> bool {
    if !rng.chance(threshold) {
        return false;
    }
    let n = p.len() as u32;
    let (x, y) = (rng.below(n) as usize, rng.below(n) as usize);
    let (lo, hi) = if x <= y { (x, y) } else { (y, x) };
    p[lo..=hi].reverse();
    true
}

/// The crossover of individual `i`: with probability `pc_threshold`, MOX with `partner` at a
/// cut uniform in [0, n−1]. Returns the cut, or None when no crossover happens.
#[inline(always)]
pub fn crossover_cut(rng: &mut Xoshiro128, n: usize, pc_threshold: u32) -> Option<usize> {
    rng.chance(pc_threshold).then(|| rng.below(n as u32) as usize)
}

/// Local searches of the cellular GA, one pass per generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Pass {
    /// Evaluate every swap, apply the best improving one.
    TwoOpt = 0,
    /// Scan the swaps in order, applying each improving one at once.
    Greedy = 1,
    /// The thesis's Algorithm 16 as printed (its "2-opt"): the swaps in order on the
    /// permutation as it stands, each applied when its Δ is below the last applied Δ (the
    /// first: below 0). Its text describes `TwoOpt`; its listing does this.
    Record = 2,
}

/// Swaps between two looks at the stop signal in a pass, the kernels' and the CPU twin's.
pub const PASS_STOP_POLL: u32 = 64;

/// One 2-opt pass: the best improving swap (lowest Δ, then the lowest move number) is
/// applied. Swaps are scanned in `moves` numbering. `stop` is asked every
/// `PASS_STOP_POLL` swaps; when it says true the pass applies the best swap seen so far.
/// Returns the new cost.
pub fn two_opt_pass<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &mut [u8],
    cost: i64,
    stop: impl Fn() -> bool,
) -> i64 {
    let (mut best, mut pick) = (0i64, (0u32, 0u32));
    let (mut u, mut v) = (1u32, 0u32);
    for k in 0..move_count(p.len() as u32) {
        if k % PASS_STOP_POLL == PASS_STOP_POLL - 1 && stop() {
            break;
        }
        let d = delta_full(a, b, p, u as usize, v as usize);
        if d < best {
            (best, pick) = (d, (u, v));
        }
        (u, v) = next_pair(u, v);
    }
    if best < 0 {
        p.swap(pick.0 as usize, pick.1 as usize);
    }
    cost + best
}

/// One greedy 2-opt pass: the swaps in `moves` numbering, each applied as soon as it
/// improves the permutation as it stands (`record`: as soon as its Δ is below the last
/// applied Δ, `Pass::Record`); `stop` is asked as in `two_opt_pass` and ends the pass.
/// Returns the new cost.
pub fn greedy_pass<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &mut [u8],
    cost: i64,
    record: bool,
    stop: impl Fn() -> bool,
) -> i64 {
    let mut cost = cost;
    let mut threshold = 0i64;
    let (mut u, mut v) = (1u32, 0u32);
    for k in 0..move_count(p.len() as u32) {
        if k % PASS_STOP_POLL == PASS_STOP_POLL - 1 && stop() {
            break;
        }
        let d = delta_full(a, b, p, u as usize, v as usize);
        if d < threshold {
            p.swap(u as usize, v as usize);
            cost += d;
            if record {
                threshold = d;
            }
        }
        (u, v) = next_pair(u, v);
    }
    cost
}

/// `passes` for "until a pass improves nothing" (a local optimum of the swap neighbourhood).
pub const TO_LOCAL_OPTIMUM: u32 = 0;

/// The local search of one individual in one generation: `passes` passes of `pass` (the
/// thesis: 1), or passes until one improves nothing (`TO_LOCAL_OPTIMUM`); the stop ends it
/// after the pass it interrupts. Returns the new cost.
pub fn local_search<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &mut [u8],
    cost: i64,
    pass: Pass,
    passes: u32,
    stop: impl Fn() -> bool,
) -> i64 {
    let mut cost = cost;
    let mut done = 0u32;
    loop {
        let before = cost;
        cost = match pass {
            Pass::TwoOpt => two_opt_pass(a, b, p, cost, &stop),
            Pass::Greedy => greedy_pass(a, b, p, cost, false, &stop),
            Pass::Record => greedy_pass(a, b, p, cost, true, &stop),
        };
        done += 1;
        if cost >= before || done == passes || stop() {
            return cost;
        }
    }
}

/// The best-so-far of a cellular GA run: the only thing the host reads each generation.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct CgaBest {
    /// The best cost so far (`i64::MAX` before any).
    pub cost: i64,
    /// Generation at which `cost` was first reached (0: the initial population).
    pub generation: u32,
    /// Index of the best individual after the last crossover (kept out of mutation).
    pub elite: u32,
    /// Its permutation (first n bytes).
    pub perm: [u8; crate::MAX_N],
}
const _: () = assert!(size_of::<CgaBest>() == 272);

impl Default for CgaBest {
    fn default() -> Self {
        CgaBest { cost: i64::MAX, generation: 0, elite: 0, perm: [0; crate::MAX_N] }
    }
}

/// Index of the lowest cost (the first among equals). `costs` is not empty.
#[inline(always)]
pub fn argmin(costs: &[i64]) -> usize {
    let mut k = 0;
    for (j, &c) in costs.iter().enumerate() {
        if c < costs[k] {
            k = j;
        }
    }
    k
}

/// Salt of the permutation ψ that pairs individuals at random (`Topology::Random`), so
/// that it differs from the tournament's φ of the same generation.
pub const RANDOM_PARTNER_SALT: u64 = 0xC6A4_A793_5BD1_E995;
