//! The local searches of seed 003 on one solution: robust tabu search (§4.2) and 2-opt with
//! the best-improvement rule (§6.3), as the sequential CPU twin of the kernel in
//! `device::ls`. Both scan the swap neighbourhood, keep the move-cost table Δ (Eq. 4 for
//! moves touching the previous move, Eq. 5 for the others) and pick the move with the
//! smallest `Candidate` key, so a block's argmin and this loop choose the same move.
use crate::elem::Elem;
use crate::matrix::Matrix;
use crate::moves::{delta_full, delta_update, move_count, next_pair, pack_pair, touches, unpack_pair};
use crate::rng::Xoshiro128;

/// A move as seen by the argmin: inadmissible moves (taboo and not aspired) rank after every
/// admissible one, then by Δ, then by move number; the smallest key wins. The tabu search
/// falls back on the best inadmissible move only when every move is taboo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub delta: i64,
    /// Bit 31: inadmissible; bits 15..8: u; bits 7..0: v (`moves::pack_pair`).
    pub tag: u32,
}

impl Candidate {
    pub const NONE: Candidate = Candidate { delta: i64::MAX, tag: u32::MAX };

    #[inline(always)]
    pub const fn new(delta: i64, u: u32, v: u32, admissible: bool) -> Candidate {
        Candidate { delta, tag: pack_pair(u, v) | if admissible { 0 } else { 1 << 31 } }
    }

    /// The total order of the argmin (a strict "less than").
    #[inline(always)]
    pub const fn better(&self, o: &Candidate) -> bool {
        let (fa, fb) = (self.tag >> 31, o.tag >> 31);
        fa < fb || (fa == fb && (self.delta < o.delta || (self.delta == o.delta && self.tag < o.tag)))
    }

    #[inline(always)]
    pub const fn pair(&self) -> (u32, u32) {
        unpack_pair(self.tag)
    }
}

/// Tabu entries are the iteration until which a (facility, location) assignment is taboo;
/// a never-used entry holds this.
pub const TABU_FREE: i32 = -1;

/// Uniform f32 in [0, 1) from 24 random bits (exact, identical on host and GPU).
#[inline(always)]
pub fn uniform_f32(rng: &mut Xoshiro128) -> f32 {
    (rng.next() >> 8) as f32 * (1.0 / 16_777_216.0)
}

/// Robust tabu tenure T_list-size · r³, r uniform in [0, 1) (seed 003 §4.2, after [25]).
#[inline(always)]
pub fn tenure(rng: &mut Xoshiro128, list_size: u32) -> i32 {
    let r = uniform_f32(rng);
    (list_size as f32 * (r * r * r)) as i32
}

/// Move (u, v) is authorised unless it puts both facilities back on locations each left
/// less than its tenure ago: `until_u` = tabu[u][φ(v)], `until_v` = tabu[v][φ(u)].
#[inline(always)]
pub const fn authorized(until_u: i32, until_v: i32, iter: i32) -> bool {
    until_u < iter || until_v < iter
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LsKind {
    Tabu,
    TwoOpt,
}

/// What one local search returns: the best solution's cost (its permutation is in `best`
/// for the tabu search, in `p` for 2-opt) and how many iterations (full neighbourhood
/// scans) ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LsResult {
    pub cost: i64,
    pub iterations: u32,
}

/// Work space of one search: Δ table (C entries) and tabu matrix (n² entries, facility-major).
pub struct Scratch<'s> {
    pub delta: &'s mut [i64],
    pub tabu: &'s mut [i32],
}

/// `target` of a local search that has none: no cost reaches it.
pub const NO_TARGET: i64 = i64::MIN;

/// Robust tabu search from `p` (cost `cost`) for `iterations` moves; the best solution
/// met goes to `best`. Draws two tenures per move from `rng`. `stop` is asked after every
/// move; when it says true the search ends there with its best so far. (The kernel polls
/// the host's stop word every `STOP_POLL_ITERATIONS` moves, a poll being a bus read: the
/// two agree move for move until a stop, which ends the run.) The search also ends as
/// soon as its best reaches `target` (`NO_TARGET`: never).
#[allow(clippy::too_many_arguments)]
pub fn tabu_search<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &mut [u8],
    cost: i64,
    target: i64,
    iterations: u32,
    list_size: u32,
    rng: &mut Xoshiro128,
    scratch: Scratch,
    best: &mut [u8],
    stop: impl Fn() -> bool,
) -> LsResult {
    let n = p.len();
    let Scratch { delta, tabu } = scratch;
    tabu[..n * n].fill(TABU_FREE);
    best.copy_from_slice(p);
    let (mut cur, mut best_cost) = (cost, cost);
    let mut last = None;
    for it in 0..iterations as i32 {
        let mut pick = Candidate::NONE;
        let scanned = scan(a, b, p, last, delta, &stop, |d, u, v| {
            let (ui, vi) = (u as usize, v as usize);
            let ok = authorized(tabu[ui * n + p[vi] as usize], tabu[vi * n + p[ui] as usize], it) || cur + d < best_cost;
            let c = Candidate::new(d, u, v, ok);
            if c.better(&pick) {
                pick = c;
            }
        });
        if !scanned {
            return LsResult { cost: best_cost, iterations: it as u32 };
        }
        let (r, s) = pick.pair();
        let (ru, su) = (r as usize, s as usize);
        tabu[ru * n + p[ru] as usize] = it + tenure(rng, list_size);
        tabu[su * n + p[su] as usize] = it + tenure(rng, list_size);
        p.swap(ru, su);
        cur += pick.delta;
        if cur < best_cost {
            best_cost = cur;
            best.copy_from_slice(p);
        }
        last = Some((r, s));
        if best_cost <= target || stop() {
            return LsResult { cost: best_cost, iterations: it as u32 + 1 };
        }
    }
    LsResult { cost: best_cost, iterations }
}

/// Moves between two polls of the host's stop word by a local-search kernel (about a
/// millisecond at n = 256, little overhead at n = 12).
pub const STOP_POLL_ITERATIONS: i32 = 16;

/// 2-opt with the best-improvement rule: at most `iterations` improving swaps, stopping
/// at a local minimum, at `target` or when `stop` says so (asked after every move, as in
/// `tabu_search`). `p` ends as the result.
#[allow(clippy::too_many_arguments)]
pub fn two_opt<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &mut [u8],
    cost: i64,
    target: i64,
    iterations: u32,
    delta: &mut [i64],
    stop: impl Fn() -> bool,
) -> LsResult {
    let mut cur = cost;
    let mut last = None;
    for it in 0..iterations {
        let mut pick = Candidate::NONE;
        let scanned = scan(a, b, p, last, delta, &stop, |d, u, v| {
            let c = Candidate::new(d, u, v, true);
            if c.better(&pick) {
                pick = c;
            }
        });
        if !scanned {
            return LsResult { cost: cur, iterations: it };
        }
        if pick.delta >= 0 {
            return LsResult { cost: cur, iterations: it + 1 };
        }
        let (r, s) = pick.pair();
        p.swap(r as usize, s as usize);
        cur += pick.delta;
        last = Some((r, s));
        if cur <= target || stop() {
            return LsResult { cost: cur, iterations: it + 1 };
        }
    }
    LsResult { cost: cur, iterations }
}

/// Moves of a first scan (O(n) each) between two looks at the stop signal.
const FRESH_SCAN_POLL: usize = 1024;

/// Brings Δ up to date for the current `p` after move `last` (None: the first scan) and
/// calls `visit(Δ, u, v)` for every move in numbering order. A first scan costs O(n³), so
/// it asks `stop` every `FRESH_SCAN_POLL` moves and returns false when it gave up.
#[inline(always)]
fn scan<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &[u8],
    last: Option<(u32, u32)>,
    delta: &mut [i64],
    stop: &impl Fn() -> bool,
    mut visit: impl FnMut(i64, u32, u32),
) -> bool {
    let (mut u, mut v) = (1u32, 0u32);
    for (k, d) in delta[..move_count(p.len() as u32) as usize].iter_mut().enumerate() {
        *d = match last {
            Some((r, s)) if !touches(u, v, r, s) => {
                delta_update(a, b, p, *d, r as usize, s as usize, u as usize, v as usize)
            }
            _ => {
                if last.is_none() && k % FRESH_SCAN_POLL == FRESH_SCAN_POLL - 1 && stop() {
                    return false;
                }
                delta_full(a, b, p, u as usize, v as usize)
            }
        };
        visit(*d, u, v);
        (u, v) = next_pair(u, v);
    }
    true
}
