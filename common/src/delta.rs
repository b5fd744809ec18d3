//! The integer type a move cost Δ is computed and stored in. i64 always holds it
//! (`cost::fits_i64`); i32 holds it where `move_cost_bound` proves that every Δ of the
//! instance fits, and then halves the Δ table and replaces 64-bit multiplies (several
//! instructions on a GPU) by 32-bit ones.
//!
//! The arithmetic wraps: in two's complement, sums, differences and products are exact
//! modulo 2³², so a result that fits in an i32 is exact whatever its intermediate terms
//! did. Only final move costs need the bound.
use crate::elem::Elem;

/// Width of the move costs, as the host chose it for an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaWidth {
    /// 32-bit move costs.
    I32,
    /// 64-bit move costs.
    I64,
}

impl DeltaWidth {
    /// Bytes per move cost.
    pub const fn bytes(self) -> u32 {
        match self {
            DeltaWidth::I32 => 4,
            DeltaWidth::I64 => 8,
        }
    }

    /// "i32" or "i64".
    pub const fn name(self) -> &'static str {
        match self {
            DeltaWidth::I32 => "i32",
            DeltaWidth::I64 => "i64",
        }
    }

    /// The narrowest width that holds every move cost bounded by `bound` in absolute value.
    pub fn holding(bound: u128) -> DeltaWidth {
        if bound <= i32::MAX as u128 { DeltaWidth::I32 } else { DeltaWidth::I64 }
    }
}

/// A bound on |Δ| over every swap of an n-facility instance with row-major matrices `a` and
/// `b` (A the flows between facilities, B the distances between locations).
///
/// Taillard's formula (Eq. 4 of seed 003, `cost::swap_delta`) writes Δ(r, s) as a sum of
/// products (a difference of two A entries) × (a difference of two B entries):
/// (a_rr − a_ss)(…) + (a_rs − a_sr)(…) + Σ_{k ≠ r, s} [(a_kr − a_ks)(…) + (a_rk − a_sk)(…)].
/// Every B difference is at most range(B), so |Δ(r, s)| ≤ range(B) · spread_A(r, s), the
/// sum of the absolute A differences; and the same with the roles of A and B exchanged (B's
/// differences are between the locations φ(r), φ(s) and the others). The bound is the
/// smaller of the two maxima. O(n³).
pub fn move_cost_bound(n: usize, a: &[i64], b: &[i64]) -> u128 {
    let range = |m: &[i64]| {
        let (lo, hi) = m.iter().fold((i64::MAX, i64::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        (hi as i128 - lo as i128) as u128
    };
    (range(b) * max_spread(n, a)).min(range(a) * max_spread(n, b))
}

/// max over r < s of |m_rr − m_ss| + |m_rs − m_sr| + Σ_{k ≠ r, s} (|m_kr − m_ks| + |m_rk − m_sk|).
///
/// Both sums run over contiguous rows (the column sums of r against every s at once, row
/// by row), so that they vectorise: about 10 ms instead of 50 at n = 256. Entries are 32-bit
/// values (an `Instance`'s), so every sum fits an i64 (at most 2n·2³³).
fn max_spread(n: usize, m: &[i64]) -> u128 {
    let at = |i: usize, j: usize| m[i * n + j];
    let row = |i: usize| &m[i * n..(i + 1) * n];
    let mut best = 0i64;
    // cols[s] = Σ_k |m_kr − m_ks| over every k, for the r at hand.
    let mut cols = [0i64; crate::MAX_N];
    for r in 0..n {
        cols[..n].fill(0);
        for k in 0..n {
            let (mk, mkr) = (row(k), at(k, r));
            for (c, &x) in cols[r + 1..n].iter_mut().zip(&mk[r + 1..]) {
                *c += (mkr - x).abs();
            }
        }
        #[allow(clippy::needless_range_loop)] // s indexes the rows and entries of m as well as cols.
        for s in r + 1..n {
            let rows: i64 = row(r).iter().zip(row(s)).map(|(x, y)| (x - y).abs()).sum();
            // The sums ran over k = r and k = s too; Eq. 4 has the two diagonal terms there.
            let at_rs = (at(r, r) - at(r, s)).abs()
                + (at(s, r) - at(s, s)).abs()
                + (at(r, r) - at(s, r)).abs()
                + (at(r, s) - at(s, s)).abs();
            let diagonal = (at(r, r) - at(s, s)).abs() + (at(r, s) - at(s, r)).abs();
            best = best.max(cols[s] + rows - at_rs + diagonal);
        }
    }
    best as u128
}

/// A move cost's integer type (i64 or i32), with the wrapping ring operations the Δ
/// formulas use.
pub trait MoveCost: Copy + Default + PartialEq + Send + Sync + 'static {
    /// A matrix entry, reduced modulo 2^bits.
    fn of<E: Elem>(e: E) -> Self;
    /// Wrapping sum.
    fn add(self, o: Self) -> Self;
    /// Wrapping difference.
    fn sub(self, o: Self) -> Self;
    /// Wrapping product.
    fn mul(self, o: Self) -> Self;
    /// The value, widened to i64.
    fn to_i64(self) -> i64;
}

macro_rules! move_cost {
    ($t:ty) => {
        impl MoveCost for $t {
            #[inline(always)]
            fn of<E: Elem>(e: E) -> $t {
                e.to_i64() as $t
            }
            #[inline(always)]
            fn add(self, o: $t) -> $t {
                self.wrapping_add(o)
            }
            #[inline(always)]
            fn sub(self, o: $t) -> $t {
                self.wrapping_sub(o)
            }
            #[inline(always)]
            fn mul(self, o: $t) -> $t {
                self.wrapping_mul(o)
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self as i64
            }
        }
    };
}
move_cost!(i64);
move_cost!(i32);
