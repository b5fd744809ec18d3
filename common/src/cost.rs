//! QAP objective and move costs, always in 64 bits.
//!
//! cost(p) = Σᵢ Σⱼ a[i][j] · b[p(i)][p(j)], with p(i) the location of facility i.
use crate::delta::MoveCost;
use crate::elem::Elem;
use crate::gene::Gene;
use crate::matrix::Matrix;

/// Full O(n²) evaluation of `p` (0-based).
#[inline(always)]
pub fn cost<G: Gene, E: Elem, A: Matrix<E>, B: Matrix<E>>(a: &A, b: &B, p: &[G]) -> i64 {
    (0..p.len()).map(|i| row_cost(a, b, p, i)).sum()
}

/// Facility i's share of `cost`: Σⱼ a[i][j] · b[p(i)][p(j)].
#[inline(always)]
pub fn row_cost<G: Gene, E: Elem, A: Matrix<E>, B: Matrix<E>>(a: &A, b: &B, p: &[G], i: usize) -> i64 {
    let pi = p[i].at();
    let mut row = 0i64;
    for (j, &pj) in p.iter().enumerate() {
        row += E::mul_wide(a.at(i, j), b.at(pi, pj.at()));
    }
    row
}

/// The terms a[i][j] · b[p(i)][p(j)] of `cost` at the flat indices e = i·n + j ≡ `first`
/// (mod `step`): the threads t of a block of T sum `cost` as `strided_cost(.., t, T)`
/// (the GPU's init kernel). Four terms a pass, so that a thread's loads are in flight
/// together rather than one latency after another.
#[inline(always)]
pub fn strided_cost<G: Gene, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &[G],
    first: usize,
    step: usize,
) -> i64 {
    let n = p.len();
    let term = |e: usize| {
        let (i, j) = (e / n, e % n);
        E::mul_wide(a.at(i, j), b.at(p[i].at(), p[j].at()))
    };
    let (end, mut e) = (n * n, first);
    let mut sum = [0i64; 4];
    while e + 3 * step < end {
        sum[0] += term(e);
        sum[1] += term(e + step);
        sum[2] += term(e + 2 * step);
        sum[3] += term(e + 3 * step);
        e += 4 * step;
    }
    while e < end {
        sum[0] += term(e);
        e += step;
    }
    sum[0] + sum[1] + sum[2] + sum[3]
}

/// Change of cost when the locations of facilities r and s are exchanged, in O(n)
/// (Taillard's formula for asymmetric matrices). `r != s`.
pub fn swap_delta<G: Gene, E: Elem, A: Matrix<E>, B: Matrix<E>>(a: &A, b: &B, p: &[G], r: usize, s: usize) -> i64 {
    swap_delta_in::<i64, G, E, A, B>(a, b, p, r, s)
}

/// `swap_delta` computed in `D` (exact when `D` holds the result: `delta`'s module docs).
///
/// Written out rather than as `swap_delta_base` + Σ `swap_delta_term` (which it equals,
/// as the tests check): that form costs the local-search kernel 19 more registers on
/// sm_80, over its budget (`cargo xtask build-ptx`).
#[inline(always)]
pub fn swap_delta_in<D: MoveCost, G: Gene, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &[G],
    r: usize,
    s: usize,
) -> D {
    let (pr, ps) = (p[r].at(), p[s].at());
    let ai = |i: usize, j: usize| D::of(a.at(i, j));
    let bi = |i: usize, j: usize| D::of(b.at(i, j));
    let mut d = (ai(r, r).sub(ai(s, s)))
        .mul(bi(ps, ps).sub(bi(pr, pr)))
        .add((ai(r, s).sub(ai(s, r))).mul(bi(ps, pr).sub(bi(pr, ps))));
    for (k, &pk) in p.iter().enumerate() {
        if k == r || k == s {
            continue;
        }
        let pk = pk.at();
        d = d
            .add((ai(k, r).sub(ai(k, s))).mul(bi(pk, ps).sub(bi(pk, pr))))
            .add((ai(r, k).sub(ai(s, k))).mul(bi(ps, pk).sub(bi(pr, pk))));
    }
    d
}

/// The part of `swap_delta` that involves only r and s.
#[inline(always)]
pub fn swap_delta_base<G: Gene, E: Elem, A: Matrix<E>, B: Matrix<E>>(a: &A, b: &B, p: &[G], r: usize, s: usize) -> i64 {
    let (pr, ps) = (p[r].at(), p[s].at());
    let ai = |i: usize, j: usize| a.at(i, j).to_i64();
    let bi = |i: usize, j: usize| b.at(i, j).to_i64();
    (ai(r, r) - ai(s, s)) * (bi(ps, ps) - bi(pr, pr)) + (ai(r, s) - ai(s, r)) * (bi(ps, pr) - bi(pr, ps))
}

/// Facility k's term of `swap_delta` (0 for k = r or s): `swap_delta` is the base plus
/// the sum of the n terms, so a block can add the terms in parallel, one thread per gene.
#[inline(always)]
pub fn swap_delta_term<G: Gene, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &[G],
    r: usize,
    s: usize,
    k: usize,
) -> i64 {
    if k == r || k == s {
        return 0;
    }
    let (pr, ps, pk) = (p[r].at(), p[s].at(), p[k].at());
    let ai = |i: usize, j: usize| a.at(i, j).to_i64();
    let bi = |i: usize, j: usize| b.at(i, j).to_i64();
    (ai(k, r) - ai(k, s)) * (bi(pk, ps) - bi(pk, pr)) + (ai(r, k) - ai(s, k)) * (bi(ps, pk) - bi(pr, pk))
}

/// True when every cost, every move cost Δ and every partial sum of them fits in an i64 for
/// an instance of size n with entries bounded in absolute value by `max_a` and `max_b`:
/// a cost has n² products, Δ is a difference of two costs, and Eq. 4's running sum has at
/// most 4(n + 1) terms of at most four products each. So K·max_a·max_b < 2⁶³ with
/// K = max(2n², 16(n + 1)).
pub fn fits_i64(n: usize, max_a: u64, max_b: u64) -> bool {
    let n = n as u128;
    let k = (2 * n * n).max(16 * (n + 1));
    k.checked_mul(max_a as u128).and_then(|x| x.checked_mul(max_b as u128)).is_some_and(|x| x < (1u128 << 63))
}
