//! Swaps that cannot change the cost, left out of the tabu searches.
//!
//! Two facilities whose rows and columns of A are equal (`a[r][k] = a[s][k]` and
//! `a[k][r] = a[k][s]` for every k) are interchangeable: swapping their locations leaves
//! every cost term where it was, whatever the permutation. So are two locations whose rows
//! and columns of B are equal. Grey-pattern instances are made of such classes (tai64c,
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

/// Whether rows and columns `i` and `j` of the n × n matrix of entries `m(i, j)` are equal.
fn same_class(m: &impl Fn(usize, usize) -> i64, n: usize, i: usize, j: usize) -> bool {
    (0..n).all(|k| m(i, k) == m(j, k) && m(k, i) == m(k, j))
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

/// The classes of the instance of entries `a(i, j)` and `b(i, j)` (`2n` bytes into `out`), or false where no swap is null (then
/// `out` is not to be used). Of the two sides, only as many classes are kept as leave a
/// swap that is not null from every permutation: where the null swaps of the two sides could
/// cover all n(n − 1)/2, the locations' classes are dropped, and where the facilities' alone
/// do (every facility alike: every permutation costs the same), none is kept.
///
/// # Panics
/// Where n is above 256 or `out` is shorter than `2n`.
pub fn classes(a: impl Fn(usize, usize) -> i64, b: impl Fn(usize, usize) -> i64, n: usize, out: &mut [u8]) -> bool {
    assert!(n <= 256 && out.len() >= 2 * n);
    let all = (n * (n - 1) / 2) as u64;
    let (fac, loc) = out[..2 * n].split_at_mut(n);
    let f = side_classes(&a, n, fac);
    let mut l = side_classes(&b, n, loc);
    if f >= all {
        return false;
    }
    if f + l >= all {
        for (x, c) in loc.iter_mut().enumerate() {
            *c = x as u8;
        }
        l = 0;
    }
    f + l > 0
}

/// The swaps of n that `classes` (`2n` bytes, as `classes` writes them) call null whatever
/// the permutation (the facilities' classes), and at most as many more through the
/// locations' (those depend on it): the share is at least the first count over n(n − 1)/2.
pub fn facility_null_swaps(classes: &[u8], n: usize) -> u64 {
    (0..n).map(|i| (0..i).filter(|&j| classes[j] == classes[i]).count() as u64).sum()
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
        assert!(classes(at(&a, n), at(&b, n), n, &mut out));
        assert_eq!(&out[..n], &[0, 0, 0, 3, 3, 3, 3, 3]);
        assert!(is_null(&out, n, 1, 2, 5, 7));
        assert!(!is_null(&out, n, 2, 3, 0, 1));
    }

    #[test]
    fn a_swap_of_one_class_never_changes_the_cost() {
        let n = 8;
        let a = grey(n, 3);
        let b: [i32; 64] = core::array::from_fn(|x| ((x * 7919) % 13) as i32);
        let (am, bm) = (at(&a, n), at(&b, n));
        let mut out = [0u8; 16];
        assert!(classes(&am, &bm, n, &mut out));
        let cost = |p: &[u8]| -> i64 {
            let mut c = 0;
            for i in 0..n {
                for j in 0..n {
                    c += am(i, j) * bm(p[i] as usize, p[j] as usize);
                }
            }
            c
        };
        let p = [5u8, 2, 7, 0, 3, 6, 1, 4];
        for u in 0..n {
            for v in 0..u {
                let mut q = p;
                q.swap(u, v);
                if is_null(&out, n, u, v, p[u] as usize, p[v] as usize) {
                    assert_eq!(cost(&q), cost(&p), "swap ({u}, {v})");
                }
            }
        }
    }

    #[test]
    fn every_facility_alike_keeps_no_class() {
        let n = 4;
        let a = [1i32; 16];
        let b: [i32; 16] = core::array::from_fn(|x| x as i32);
        let mut out = [0u8; 8];
        assert!(!classes(at(&a, n), at(&b, n), n, &mut out));
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
        assert!(classes(at(&a, n), at(&b, n), n, &mut out));
        assert_eq!(&out[n..], &[0, 1, 2, 3]);
    }

    #[test]
    fn distinct_rows_have_no_class() {
        let n = 4;
        let a: [i32; 16] = core::array::from_fn(|x| x as i32);
        let mut out = [0u8; 8];
        assert!(!classes(at(&a, n), at(&a, n), n, &mut out));
    }
}
