//! The swap neighbourhood of the tabu search and 2-opt (seed 003, §4.3): move numbering and
//! move costs.
//!
//! Move (u, v) with u > v exchanges the locations of facilities u and v. Moves are numbered
//! row by row of the strict lower triangle (seed 003, Fig. 4): k = u(u−1)/2 + v, so
//! k = 0 is (1, 0), k = 1 is (2, 0), k = 2 is (2, 1), … and the order of k is the
//! lexicographic order of (u, v). Every cost fits an i64 (`cost::fits_i64` bounds them); the
//! kernels keep them in i32 where `delta::move_cost_bound` proves that enough.
use crate::cost::{swap_delta, swap_delta_in};
use crate::delta::MoveCost;
use crate::elem::Elem;
use crate::matrix::Matrix;

/// |N(φ)| = n(n−1)/2.
#[inline(always)]
pub const fn move_count(n: u32) -> u32 {
    n * (n - 1) / 2
}

/// Number of move (u, v); `u > v`.
#[inline(always)]
pub const fn move_index(u: u32, v: u32) -> u32 {
    u * (u - 1) / 2 + v
}

/// The move numbered k, as (u, v) with u > v.
pub const fn move_pair(k: u32) -> (u32, u32) {
    // u is the largest integer with u(u−1)/2 ≤ k; start from a float-free estimate.
    let mut u = 1;
    while (u + 1) * u / 2 <= k {
        u += 1;
    }
    (u, k - u * (u - 1) / 2)
}

/// The move after (u, v) in numbering order.
#[inline(always)]
pub const fn next_pair(u: u32, v: u32) -> (u32, u32) {
    if v + 1 == u { (u + 1, 0) } else { (u, v + 1) }
}

/// Packs (u, v) into 16 bits (n ≤ 256): the order of packed values is the order of k.
#[inline(always)]
pub const fn pack_pair(u: u32, v: u32) -> u32 {
    (u << 8) | v
}

#[inline(always)]
pub const fn unpack_pair(x: u32) -> (u32, u32) {
    ((x >> 8) & 0xFF, x & 0xFF)
}

/// True when move (u, v) shares a facility with the previous move (r, s): its cost must
/// then be recomputed in O(n) (Eq. 4); otherwise the O(1) update (Eq. 5) applies.
#[inline(always)]
pub const fn touches(u: u32, v: u32, r: u32, s: u32) -> bool {
    u == r || u == s || v == r || v == s
}

/// Δ(φ, r, s) in O(n): Eq. 4 of seed 003 (Taillard's formula for asymmetric matrices).
#[inline(always)]
pub fn delta_full<E: Elem, A: Matrix<E>, B: Matrix<E>>(a: &A, b: &B, p: &[u8], r: usize, s: usize) -> i64 {
    swap_delta(a, b, p, r, s)
}

/// `delta_full` in the move-cost type `D` (i32 where the instance's bound allows it).
#[inline(always)]
pub fn delta_full_in<D: MoveCost, E: Elem, A: Matrix<E>, B: Matrix<E>>(a: &A, b: &B, p: &[u8], r: usize, s: usize) -> D {
    swap_delta_in::<D, E, A, B>(a, b, p, r, s)
}

/// Δ(φ', u, v) in O(1) from Δ(φ, u, v), where φ' is φ after the move (r, s) and
/// {u, v} ∩ {r, s} = ∅ (Eq. 5 of seed 003, after Taillard). `p` is φ', already swapped.
/// Computed in the type of `old` (exact when it holds the result: `delta`'s module docs).
///
/// The paper prints b_{φ'(u)φ'(v)} as the second term of the last factor; the identity
/// holds with b_{φ'(v)φ'(s)} (Taillard's code), which the tests check against Eq. 4.
#[inline(always)]
pub fn delta_update<E: Elem, D: MoveCost, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &[u8],
    old: D,
    r: usize,
    s: usize,
    u: usize,
    v: usize,
) -> D {
    let ai = |i: usize, j: usize| D::of(a.at(i, j));
    let bi = |i: usize, j: usize| D::of(b.at(i, j));
    let (pr, ps, pu, pv) = (p[r] as usize, p[s] as usize, p[u] as usize, p[v] as usize);
    let row = ai(r, u).sub(ai(r, v)).add(ai(s, v)).sub(ai(s, u));
    let col = ai(u, r).sub(ai(v, r)).add(ai(v, s)).sub(ai(u, s));
    let brow = bi(ps, pu).sub(bi(ps, pv)).add(bi(pr, pv)).sub(bi(pr, pu));
    let bcol = bi(pu, ps).sub(bi(pv, ps)).add(bi(pv, pr)).sub(bi(pu, pr));
    old.add(row.mul(brow)).add(col.mul(bcol))
}

/// Per-facility terms of Eq. 5 after the move (r, s), on φ' (already swapped): for facility
/// x, (a_rx − a_sx, a_xr − a_xs, b_{φ'(s)φ'(x)} − b_{φ'(r)φ'(x)}, b_{φ'(x)φ'(s)} − b_{φ'(x)φ'(r)}).
/// Eq. 5's four factors are differences of these between u and v, so `delta_update_terms`
/// gives the same Δ as `delta_update` from two rows of this table instead of 16 matrix
/// entries: O(n) once per move instead of 16 scattered loads per move (the CPU engine's
/// scan is bound by those loads).
#[inline(always)]
pub fn swap_terms<E: Elem, A: Matrix<E>, B: Matrix<E>>(a: &A, b: &B, p: &[u8], r: usize, s: usize, out: &mut [[i64; 4]]) {
    let (pr, ps) = (p[r] as usize, p[s] as usize);
    for ((x, &px), t) in p.iter().enumerate().zip(out.iter_mut()) {
        let px = px as usize;
        *t = [
            a.at(r, x).to_i64() - a.at(s, x).to_i64(),
            a.at(x, r).to_i64() - a.at(x, s).to_i64(),
            b.at(ps, px).to_i64() - b.at(pr, px).to_i64(),
            b.at(px, ps).to_i64() - b.at(px, pr).to_i64(),
        ];
    }
}

/// `delta_update` from the rows of u and v in `swap_terms`' table.
#[inline(always)]
pub fn delta_update_terms(old: i64, tu: &[i64; 4], tv: &[i64; 4]) -> i64 {
    old + (tu[0] - tv[0]) * (tu[2] - tv[2]) + (tu[1] - tv[1]) * (tu[3] - tv[3])
}
