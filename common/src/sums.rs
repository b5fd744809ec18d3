//! Move costs from a table of sums (the `sums` layout, ours): Δ of every swap in O(1) from
//! an n × n table kept up to date by one rank-1 update per move, so no move is ever priced
//! in O(n) after a search's start (the split and MATA mappings price the 2n − 3 moves that
//! touch the previous one in O(n) each, 2n² facility terms an iteration).
//!
//! Where A or B is symmetric, Eq. 4's sum over k of
//! (a_ku − a_kv)(b_{φk φv} − b_{φk φu}) + (a_uk − a_vk)(b_{φv φk} − b_{φu φk})
//! is Σ_k (α_ku − α_kv)(β_{φk φv} − β_{φk φu}) with
//! * A symmetric (`Side::A`): α = A, β = B + Bᵀ;
//! * B symmetric (`Side::B`): α = A + Aᵀ, β = B.
//!
//! With H(i, l) = Σ_k α_ki β_{φk l} (facility i, location l), that sum over every k is
//! H(u, φv) − H(u, φu) − H(v, φv) + H(v, φu), and Δ(u, v) is that plus `moves::delta_offset_in`
//! (Eq. 4's own terms of u and v, less the k = u, v terms the sum counted): on
//! zero-diagonal matrices 2·α_uv·β_{φu φv} (`zero_diagonal_offset`). The swap (r, s) changes
//! H by (α_r· − α_s·)ᵀ(β_{φ'r ·} − β_{φ's ·}) with φ' after it (`facility_factor`, `location_factor`, `update_table`).
//!
//! Everything is computed in the move-cost type `D`; its arithmetic wraps, so H's entries
//! may wrap and Δ is still exact wherever it fits `D` (`delta`'s module docs).
use crate::delta::MoveCost;
use crate::elem::Elem;
use crate::matrix::Matrix;

/// Which matrix is symmetric, and so which one the table's β symmetrises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// A = Aᵀ: α = A, β = B + Bᵀ.
    A,
    /// B = Bᵀ (A not): α = A + Aᵀ, β = B.
    B,
}

impl Side {
    /// The side for an instance whose matrices are (`a_symmetric`, `b_symmetric`); None when
    /// neither is, and the table does not apply.
    pub const fn of(a_symmetric: bool, b_symmetric: bool) -> Option<Side> {
        if a_symmetric {
            Some(Side::A)
        } else if b_symmetric {
            Some(Side::B)
        } else {
            None
        }
    }
}

/// α(i, j) in `D`.
#[inline(always)]
pub fn alpha<D: MoveCost, E: Elem, A: Matrix<E>>(a: &A, side: Side, i: usize, j: usize) -> D {
    match side {
        Side::A => D::of(a.at(i, j)),
        Side::B => D::of(a.at(i, j)).add(D::of(a.at(j, i))),
    }
}

/// β(i, j) in `D`.
#[inline(always)]
pub fn beta<D: MoveCost, E: Elem, B: Matrix<E>>(b: &B, side: Side, i: usize, j: usize) -> D {
    match side {
        Side::A => D::of(b.at(i, j)).add(D::of(b.at(j, i))),
        Side::B => D::of(b.at(i, j)),
    }
}

/// H(i, l) = Σ_k α_ki β_{φk l} for the permutation `p` (O(n): a table is n² of these).
#[inline(always)]
pub fn sum_entry<D: MoveCost, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    side: Side,
    p: &[u8],
    i: usize,
    l: usize,
) -> D {
    let mut h = D::default();
    for (k, &pk) in p.iter().enumerate() {
        h = h.add(alpha::<D, E, A>(a, side, k, i).mul(beta::<D, E, B>(b, side, pk as usize, l)));
    }
    h
}

/// Rows of H that `sum_entries` computes in one pass.
pub const SUM_ROWS: usize = 8;

/// Entries (i, l) of H for the `count` ≤ `SUM_ROWS` rows i = `first` + j·`step`: entry j is
/// `sum_entry(a, b, side, p, first + j·step, l)`, in one pass over the facilities that reads
/// φ(k) and β_{φk l} once for all of them (the GPU's table build: a third of the loads of
/// `sum_entry` row by row). Entries j ≥ `count` are zero.
///
/// The rows past `count` are skipped by a branch each: computing all `SUM_ROWS` and dropping
/// the extra ones (no branch) made the walks' start slower on the H100, since most threads'
/// last pass is short (docs/benchmarks-record.md).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn sum_entries<D: MoveCost, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    side: Side,
    p: &[u8],
    first: usize,
    step: usize,
    count: usize,
    l: usize,
) -> [D; SUM_ROWS] {
    sum_entries_by(
        |k, i| alpha::<D, E, A>(a, side, k, i),
        |pk, l| beta::<D, E, B>(b, side, pk, l),
        p,
        first,
        step,
        count,
        l,
    )
}

/// `sum_entries` with α and β read through `alpha(k, i)` and `beta(φk, l)` (the GPU's fast
/// path reads β from a copy of B + Bᵀ).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn sum_entries_by<D: MoveCost>(
    alpha: impl Fn(usize, usize) -> D,
    beta: impl Fn(usize, usize) -> D,
    p: &[u8],
    first: usize,
    step: usize,
    count: usize,
    l: usize,
) -> [D; SUM_ROWS] {
    let mut h = [D::default(); SUM_ROWS];
    for (k, &pk) in p.iter().enumerate() {
        let along: D = beta(pk as usize, l);
        for (j, e) in h.iter_mut().enumerate() {
            if j < count {
                *e = e.add(alpha(k, first + j * step).mul(along));
            }
        }
    }
    h
}

/// The table of `p`, row-major by facility: `h[i·n + l]`.
pub fn sum_table<D: MoveCost, E: Elem, A: Matrix<E>, B: Matrix<E>>(a: &A, b: &B, side: Side, p: &[u8], h: &mut [D]) {
    let n = p.len();
    for (x, e) in h[..n * n].iter_mut().enumerate() {
        *e = sum_entry(a, b, side, p, x / n, x % n);
    }
}

/// The two factors of the rank-1 change of H by the swap (r, s) that took facility r from
/// location `pr` to `ps` (and s from `ps` to `pr`): for facility i, α_ri − α_si; for
/// location l, β_{ps l} − β_{pr l}. H(i, l) grows by their product.
#[inline(always)]
pub fn facility_factor<D: MoveCost, E: Elem, A: Matrix<E>>(a: &A, side: Side, r: usize, s: usize, i: usize) -> D {
    alpha::<D, E, A>(a, side, r, i).sub(alpha(a, side, s, i))
}

/// Location `l`'s factor of the move that swaps locations `pr` and `ps`: β_{ps l} − β_{pr l}.
#[inline(always)]
pub fn location_factor<D: MoveCost, E: Elem, B: Matrix<E>>(b: &B, side: Side, pr: usize, ps: usize, l: usize) -> D {
    beta::<D, E, B>(b, side, ps, l).sub(beta(b, side, pr, l))
}

/// Applies the swap (r, s) (φ(r) = `pr`, φ(s) = `ps` before it) to the table `h` of n².
pub fn update_table<D: MoveCost, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    side: Side,
    n: usize,
    (r, s): (usize, usize),
    (pr, ps): (usize, usize),
    h: &mut [D],
) {
    for i in 0..n {
        let fi: D = facility_factor(a, side, r, s, i);
        for l in 0..n {
            let e = &mut h[i * n + l];
            *e = e.add(fi.mul(location_factor(b, side, pr, ps, l)));
        }
    }
}

/// Δ(u, v) from the four table entries H(u, φv), H(u, φu), H(v, φv), H(v, φu) and the
/// move's offset.
#[inline(always)]
pub fn delta_from_sums<D: MoveCost>(u_pv: D, u_pu: D, v_pv: D, v_pu: D, offset: D) -> D {
    u_pv.sub(u_pu).sub(v_pv).add(v_pu).add(offset)
}

/// `moves::delta_offset_in` where A and B have zero diagonals: 2·α_uv·β_{φu φv}.
#[inline(always)]
pub fn zero_diagonal_offset<D: MoveCost, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    side: Side,
    u: usize,
    v: usize,
    pu: usize,
    pv: usize,
) -> D {
    offset_of(alpha::<D, E, A>(a, side, u, v), beta(b, side, pu, pv))
}

/// `zero_diagonal_offset` from α_uv and β_{φu φv} (the GPU reads them by index).
#[inline(always)]
pub fn offset_of<D: MoveCost>(alpha_uv: D, beta_uv: D) -> D {
    D::of(2u32).mul(alpha_uv).mul(beta_uv)
}
