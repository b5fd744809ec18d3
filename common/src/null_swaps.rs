//! Swaps that cannot change the cost, left out of the tabu searches.
//!
//! Two facilities r and s whose exchange leaves A as it is (`a[r][k] = a[s][k]` and
//! `a[k][r] = a[k][s]` for every other k, `a[r][r] = a[s][s]` and `a[r][s] = a[s][r]`) are
//! interchangeable: swapping their locations leaves the cost where it was, whatever the
//! permutation. So are two locations whose exchange leaves B as it is. "Alike" is an
//! equivalence (a transposition that fixes A, composed with another, fixes it), so each
//! index is compared with the first member of each class only. Grey-pattern instances are
//! made of such classes (tai64c,
//! tai256c: one class of 92 "black" facilities and one of 164 "white" ones, so that 17,552
//! of tai256c's 32,640 swaps are null), as are the esc instances' facilities without flow
//! and the padded nodes of graph matching.
//!
//! A robust tabu search at a local minimum takes the best authorised move, and a null swap
//! (Δ = 0) beats every worsening one: the walk turns over interchangeable facilities and
//! never leaves the minimum but by long-term aspiration. The searches therefore skip a move
//! of Δ = 0 whose two facilities, or whose two locations, are of one class (`is_null`).
//!
//! A class is given by its first member's index (u8: n ≤ 256), `2n` bytes in all: the
//! facilities' classes, then the locations'. A side without classes holds 0, 1, …, n − 1.
//! `classes` keeps at least one swap that is not null from every permutation (see there), so
//! a search always has a move to take.

/// Whether exchanging indices `i` and `j` leaves the n × n matrix of entries `m(i, j)` as it
/// is: equal diagonals, `m(i, j) = m(j, i)`, and equal rows and columns off i and j.
fn same_class(m: &impl Fn(usize, usize) -> i64, n: usize, i: usize, j: usize) -> bool {
    m(i, i) == m(j, j)
        && m(i, j) == m(j, i)
        && (0..n).filter(|&k| k != i && k != j).all(|k| m(i, k) == m(j, k) && m(k, i) == m(k, j))
}

/// Writes the classes of `m`'s indices into `out` (n bytes: each index's first equal one)
/// and returns the swaps that are null on this side, Σ c(c − 1)/2 over the class sizes c.
/// O(n²) a class and index pair compared: at most O(n³), done once a run.
fn side_classes(m: &impl Fn(usize, usize) -> i64, n: usize, out: &mut [u8]) -> u64 {
    let mut null = 0u64;
    for i in 0..n {
        out[i] = i as u8;
        // Compare with the first member of each earlier class only.
        if let Some(j) = (0..i).find(|&j| out[j] as usize == j && same_class(m, n, i, j)) {
            out[i] = j as u8;
        }
        null += (0..i).filter(|&j| out[j] == out[i]).count() as u64;
    }
    null
}

/// The classes of the instance of entries `a(i, j)` and `b(i, j)` (`2n` bytes into `out`)
/// and how many swaps the facilities' classes make null whatever the permutation (the
/// locations' make more, which ones depending on it); None where no swap is null (then `out`
/// is not to be used). Of the two sides, only as many classes are kept as leave a
/// swap that is not null from every permutation: where the null swaps of the two sides could
/// cover all n(n − 1)/2, the locations' classes are dropped, and where the facilities' alone
/// do (every facility alike: every permutation costs the same), none is kept.
///
/// # Panics
/// Where n is above 256 or `out` is shorter than `2n`.
pub fn classes(
    a: impl Fn(usize, usize) -> i64,
    b: impl Fn(usize, usize) -> i64,
    n: usize,
    out: &mut [u8],
) -> Option<u64> {
    assert!(n <= 256 && out.len() >= 2 * n);
    let all = (n * (n - 1) / 2) as u64;
    let (fac, loc) = out[..2 * n].split_at_mut(n);
    let f = side_classes(&a, n, fac);
    let mut l = side_classes(&b, n, loc);
    if f >= all {
        return None;
    }
    if f + l >= all {
        for (x, c) in loc.iter_mut().enumerate() {
            *c = x as u8;
        }
        l = 0;
    }
    (f + l > 0).then_some(f)
}

/// Whether swapping the locations `pu` and `pv` of facilities `u` and `v` is null by
/// `classes` (`2n` bytes, as `classes` writes them).
#[inline(always)]
pub fn is_null(classes: &[u8], n: usize, u: usize, v: usize, pu: usize, pv: usize) -> bool {
    classes[u] == classes[v] || classes[n + pu] == classes[n + pv]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(m: &[i32], n: usize) -> impl Fn(usize, usize) -> i64 + '_ {
        move |i, j| m[i * n + j] as i64
    }

    /// A grey pattern: facilities 0..k black (a = 1 between them), the rest white.
    fn grey(n: usize, k: usize) -> [i32; 64] {
        let mut a = [0i32; 64];
        for i in 0..k {
            for j in 0..k {
                a[i * n + j] = 1;
            }
        }
        a
    }

    #[test]
    fn grey_pattern_has_two_facility_classes() {
        let n = 8;
        let a = grey(n, 3);
        let b: [i32; 64] = core::array::from_fn(|x| ((x / n) as i32 - (x % n) as i32).abs() * (1 + (x % 5) as i32));
        let mut out = [0u8; 16];
        assert_eq!(classes(at(&a, n), at(&b, n), n, &mut out), Some(3 + 10));
        assert_eq!(&out[..n], &[0, 0, 0, 3, 3, 3, 3, 3]);
        assert!(is_null(&out, n, 1, 2, 5, 7));
        assert!(!is_null(&out, n, 2, 3, 0, 1));
    }

    #[test]
    fn a_swap_of_one_class_never_changes_the_cost() {
        // Facilities 0..3 alike (a clique with a zero diagonal: alike only off themselves),
        // and locations 4 and 5 alike in B; both sides kept (3 + 1 null swaps of 28).
        let n = 8;
        let a: [i32; 64] = core::array::from_fn(|x| {
            let (i, j) = (x / n, x % n);
            match (i == j, i < 3, j < 3) {
                (true, _, _) => 0,
                (false, true, true) => 5,
                (false, true, false) => (j * 3 % 11) as i32,
                (false, false, true) => (i * 7 % 11) as i32,
                _ => ((i * 7 + j * 3) % 11) as i32,
            }
        });
        let b: [i32; 64] = core::array::from_fn(|x| {
            let (i, j) = (x / n, x % n);
            let (i, j) = (if i == 5 { 4 } else { i }, if j == 5 { 4 } else { j });
            if x / n == x % n { 1 } else { ((i * 13 + j * 13 + i * j) % 17) as i32 + 2 }
        });
        let (am, bm) = (at(&a, n), at(&b, n));
        let mut out = [0u8; 16];
        assert_eq!(classes(&am, &bm, n, &mut out), Some(3));
        assert_eq!(&out[..n], &[0, 0, 0, 3, 4, 5, 6, 7]);
        assert_eq!(&out[n..], &[0, 1, 2, 3, 4, 4, 6, 7]);
        let cost = |p: &[u8]| -> i64 {
            let mut c = 0;
            for i in 0..n {
                for j in 0..n {
                    c += am(i, j) * bm(p[i] as usize, p[j] as usize);
                }
            }
            c
        };
        let (mut checked, mut changed) = (0, 0);
        for p in [[5u8, 2, 7, 0, 3, 6, 1, 4], [4, 5, 0, 1, 2, 3, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7]] {
            for u in 0..n {
                for v in 0..u {
                    let mut q = p;
                    q.swap(u, v);
                    if is_null(&out, n, u, v, p[u] as usize, p[v] as usize) {
                        assert_eq!(cost(&q), cost(&p), "swap ({u}, {v}) of {p:?}");
                        checked += 1;
                    } else if cost(&q) != cost(&p) {
                        changed += 1;
                    }
                }
            }
        }
        // Each permutation: the 3 facility swaps and the one between the facilities on 4 and
        // 5, but for the second, which puts facilities 0 and 1 there: one swap null twice.
        assert_eq!(checked, 4 + 3 + 4);
        assert!(changed > 0);
    }

    #[test]
    fn every_facility_alike_keeps_no_class() {
        let n = 4;
        let a = [1i32; 16];
        let b: [i32; 16] = core::array::from_fn(|x| x as i32);
        let mut out = [0u8; 8];
        assert_eq!(classes(at(&a, n), at(&b, n), n, &mut out), None);
    }

    #[test]
    fn locations_dropped_where_both_sides_could_cover_every_swap() {
        // Facilities 0..3 alike (3 null swaps), locations 0..3 alike (3): 6 = n(n − 1)/2.
        let n = 4;
        let mut a = [0i32; 16];
        let mut b = [0i32; 16];
        for i in 0..3 {
            for j in 0..3 {
                a[i * n + j] = 1;
                b[i * n + j] = 2;
            }
        }
        let mut out = [0u8; 8];
        assert_eq!(classes(at(&a, n), at(&b, n), n, &mut out), Some(3));
        assert_eq!(&out[n..], &[0, 1, 2, 3]);
    }

    #[test]
    fn distinct_rows_have_no_class() {
        let n = 4;
        let a: [i32; 16] = core::array::from_fn(|x| x as i32);
        let mut out = [0u8; 8];
        assert_eq!(classes(at(&a, n), at(&a, n), n, &mut out), None);
    }
}
