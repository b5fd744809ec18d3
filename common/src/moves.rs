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
use crate::gene::Gene;
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

/// The (u, v) that `pack_pair` packed into `x`.
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
pub fn delta_full<G: Gene, E: Elem, A: Matrix<E>, B: Matrix<E>>(a: &A, b: &B, p: &[G], r: usize, s: usize) -> i64 {
    swap_delta(a, b, p, r, s)
}

/// `delta_full` in the move-cost type `D` (i32 where the instance's bound allows it).
#[inline(always)]
pub fn delta_full_in<D: MoveCost, G: Gene, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &[G],
    r: usize,
    s: usize,
) -> D {
    swap_delta_in::<D, G, E, A, B>(a, b, p, r, s)
}

/// Δ(φ', u, v) in O(1) from Δ(φ, u, v), where φ' is φ after the move (r, s) and
/// {u, v} ∩ {r, s} = ∅ (Eq. 5 of seed 003, after Taillard). `p` is φ', already swapped.
/// Computed in the type of `old` (exact when it holds the result: `delta`'s module docs).
///
/// The paper prints b_{φ'(u)φ'(v)} as the second term of the last factor; the identity
/// holds with b_{φ'(v)φ'(s)} (Taillard's code), which the tests check against Eq. 4.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // Eq. 5's operands: both matrices, φ', the old Δ and four indices.
pub fn delta_update<G: Gene, E: Elem, D: MoveCost, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &[G],
    old: D,
    r: usize,
    s: usize,
    u: usize,
    v: usize,
) -> D {
    let ai = |i: usize, j: usize| D::of(a.at(i, j));
    let bi = |i: usize, j: usize| D::of(b.at(i, j));
    let (pr, ps, pu, pv) = (p[r].at(), p[s].at(), p[u].at(), p[v].at());
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
/// scan is bound by those loads; the split kernel builds the table in shared memory).
#[inline(always)]
pub fn swap_terms<G: Gene, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &[G],
    r: usize,
    s: usize,
    out: &mut [[i64; 4]],
) {
    let (pr, ps) = (p[r].at(), p[s].at());
    for ((x, &px), t) in p.iter().enumerate().zip(out.iter_mut()) {
        *t = facility_terms(a, b, r, s, x, px.at(), pr, ps);
    }
}

/// Facility x's row of `swap_terms` in `D`, from φ'(x) = `px`, φ'(r) = `pr` and φ'(s) = `ps`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn facility_terms<D: MoveCost, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    r: usize,
    s: usize,
    x: usize,
    px: usize,
    pr: usize,
    ps: usize,
) -> [D; 4] {
    let ai = |i: usize, j: usize| D::of(a.at(i, j));
    let bi = |i: usize, j: usize| D::of(b.at(i, j));
    [ai(r, x).sub(ai(s, x)), ai(x, r).sub(ai(x, s)), bi(ps, px).sub(bi(pr, px)), bi(px, ps).sub(bi(px, pr))]
}

/// `delta_update` from the rows of u and v in `swap_terms`' table.
#[inline(always)]
pub fn delta_update_terms(old: i64, tu: &[i64; 4], tv: &[i64; 4]) -> i64 {
    delta_update_terms_in(old, tu, tv)
}

/// `delta_update_terms` in `D` (exact where `D` holds the result).
#[inline(always)]
pub fn delta_update_terms_in<D: MoveCost>(old: D, tu: &[D; 4], tv: &[D; 4]) -> D {
    old.add(tu[0].sub(tv[0]).mul(tu[2].sub(tv[2]))).add(tu[1].sub(tv[1]).mul(tu[3].sub(tv[3])))
}

/// The part of Eq. 4 for the swap (u, v) that involves only u and v, in `D`, with
/// `pu` = φ(u) and `pv` = φ(v): Δ(φ, u, v) = this + Σ_{k ≠ u, v} `delta_term_in`(k).
#[inline(always)]
pub fn delta_base_in<D: MoveCost, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    u: usize,
    v: usize,
    pu: usize,
    pv: usize,
) -> D {
    let ai = |i: usize, j: usize| D::of(a.at(i, j));
    let bi = |i: usize, j: usize| D::of(b.at(i, j));
    (ai(u, u).sub(ai(v, v)))
        .mul(bi(pv, pv).sub(bi(pu, pu)))
        .add((ai(u, v).sub(ai(v, u))).mul(bi(pv, pu).sub(bi(pu, pv))))
}

/// Facility k's term of Eq. 4 for the swap (u, v) (k ≠ u, v; `pk` = φ(k)), in `D`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn delta_term_in<D: MoveCost, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    u: usize,
    v: usize,
    pu: usize,
    pv: usize,
    k: usize,
    pk: usize,
) -> D {
    let ai = |i: usize, j: usize| D::of(a.at(i, j));
    let bi = |i: usize, j: usize| D::of(b.at(i, j));
    (ai(k, u).sub(ai(k, v)))
        .mul(bi(pk, pv).sub(bi(pk, pu)))
        .add((ai(u, k).sub(ai(v, k))).mul(bi(pv, pk).sub(bi(pu, pk))))
}

/// `delta_base_in` less the terms `delta_term_in` would give k = u and k = v: with it, Δ is
/// this plus the terms of every k, a sum with no test on k (the split kernel's O(n) loop).
#[inline(always)]
pub fn delta_offset_in<D: MoveCost, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    u: usize,
    v: usize,
    pu: usize,
    pv: usize,
) -> D {
    let own = delta_term_in::<D, E, A, B>(a, b, u, v, pu, pv, u, pu).add(delta_term_in(a, b, u, v, pu, pv, v, pv));
    delta_base_in::<D, E, A, B>(a, b, u, v, pu, pv).sub(own)
}
