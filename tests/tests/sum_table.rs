//! The sums mapping's algebra (`qapgpu_common::sums`): Δ of every move from four entries of
//! the table H and the move's offset equals Eq. 4, in i64 and (where the instance's bound
//! allows) in wrapping i32; the rank-1 update after a swap gives the table of the new
//! permutation; the zero-diagonal offset equals the general one where it applies; the GPU's
//! build of several rows a pass (`sum_entries`) equals the table.
use proptest::prelude::*;
use qapgpu::io::Instance;
use qapgpu_common::delta::{DeltaWidth, MoveCost};
use qapgpu_common::elem::{Elem, ElemWidth};
use qapgpu_common::matrix::Dense;
use qapgpu_common::moves::{delta_full, delta_offset_in, move_count, move_pair};
use qapgpu_common::sums::{
    SUM_ROWS, Side, delta_from_sums, sum_entries, sum_table, update_table, zero_diagonal_offset,
};
use qapgpu_tests::{near_limit, negatives, offset_instance, small, symmetrised, zero_diagonals, zeros};

/// Every move of `p` priced from H in `D`, against Eq. 4 in i64; then the table after the
/// swap (r, s), updated and rebuilt.
fn check_in<D: MoveCost + std::fmt::Debug, E: Elem>(
    inst: &Instance,
    a: &[E],
    b: &[E],
    p: &[u8],
    (r, s): (usize, usize),
) {
    let n = inst.n;
    let side = inst.sums_side().expect("a symmetric side");
    let (a, b) = (Dense::new(a, n), Dense::new(b, n));
    let mut h = vec![D::default(); n * n];
    sum_table(&a, &b, side, p, &mut h);
    for k in 0..move_count(n as u32) {
        let (u, v) = move_pair(k);
        let (u, v) = (u as usize, v as usize);
        let (pu, pv) = (p[u] as usize, p[v] as usize);
        let offset: D = delta_offset_in(&a, &b, u, v, pu, pv);
        let d = delta_from_sums(h[u * n + pv], h[u * n + pu], h[v * n + pv], h[v * n + pu], offset);
        assert_eq!(d.to_i64(), delta_full(&a, &b, p, u, v), "{} ({side:?}): Δ({u}, {v}) from the table", inst.name);
        if inst.zero_diagonals() {
            assert_eq!(
                zero_diagonal_offset::<D, _, _, _>(&a, &b, side, u, v, pu, pv),
                offset,
                "{}: the zero-diagonal offset of ({u}, {v})",
                inst.name
            );
        }
    }
    let mut after = p.to_vec();
    after.swap(r, s);
    update_table(&a, &b, side, n, (r, s), (p[r] as usize, p[s] as usize), &mut h);
    let mut fresh = vec![D::default(); n * n];
    sum_table(&a, &b, side, &after, &mut fresh);
    assert_eq!(h, fresh, "{} ({side:?}): the table after the swap ({r}, {s})", inst.name);
    // The GPU's build: SUM_ROWS rows a pass, rows first + j·step, for every row grouping the
    // kernel can have (⌊T/n⌋ groups of threads), the last pass short.
    for step in 1..=n.min(5) {
        for first in 0..step {
            let mut i = first;
            while i < n {
                let count = (n - i).div_ceil(step).min(SUM_ROWS);
                for l in 0..n {
                    let e: [D; SUM_ROWS] = sum_entries(&a, &b, side, &after, i, step, count, l);
                    for (j, &x) in e.iter().enumerate() {
                        let want = if j < count { fresh[(i + j * step) * n + l] } else { D::default() };
                        assert_eq!(
                            x,
                            want,
                            "{}: sum_entries row {} of pass {i}/{step}, column {l}",
                            inst.name,
                            i + j * step
                        );
                    }
                }
                i += SUM_ROWS * step;
            }
        }
    }
}

fn check<E: Elem>(inst: &Instance, a: &[E], b: &[E], p: &[u8], rs: (usize, usize)) {
    check_in::<i64, E>(inst, a, b, p, rs);
    if inst.delta_width() == DeltaWidth::I32 {
        check_in::<i32, E>(inst, a, b, p, rs);
    }
}

fn check_instance(inst: &Instance, p: &[u8], rs: (usize, usize)) {
    match inst.width {
        ElemWidth::U16 => {
            let (a, b) = inst.typed::<u16>();
            check(inst, &a, &b, p, rs)
        }
        ElemWidth::U32 => {
            let (a, b) = inst.typed::<u32>();
            check(inst, &a, &b, p, rs)
        }
        ElemWidth::I32 => {
            let (a, b) = inst.typed::<i32>();
            check(inst, &a, &b, p, rs)
        }
    }
}

/// A permutation and a swap from a seed.
fn perm_and_swap(n: usize, seed: u64) -> (Vec<u8>, (usize, usize)) {
    let mut p: Vec<u8> = (0..n as u8).collect();
    let mut x = seed;
    for i in (1..n).rev() {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        p.swap(i, (x >> 33) as usize % (i + 1));
    }
    let (r, s) = ((x >> 20) as usize % n, (x >> 40) as usize % n);
    (p, (r, if s == r { (r + 1) % n } else { s }))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Either side symmetric (or both), zero diagonals or not, spans from tiny to past the
    /// i32 limit, entries offset far from zero (wrapping i32 arithmetic in between).
    #[test]
    fn every_move_from_the_table_equals_eq_4(
        n in 3usize..14,
        span in (0u32..18).prop_map(|k| 1i64 << k),
        base in prop_oneof![Just(0i64), Just(3_000_000_000i64), Just(-1_000_000_000i64)],
        zero in any::<bool>(),
        sides in prop_oneof![Just(vec![Side::A]), Just(vec![Side::B]), Just(vec![Side::A, Side::B])],
        seed in any::<u64>(),
    ) {
        let inst = offset_instance(n, base, span, 17, span, seed);
        let mut inst = if zero { zero_diagonals(&inst) } else { inst };
        for side in sides {
            inst = symmetrised(&inst, side);
        }
        let (p, rs) = perm_and_swap(n, seed.rotate_left(17));
        check_instance(&inst, &p, rs);
    }
}

#[test]
fn fixed_instances_either_side() {
    for inst in [negatives(), near_limit(), small(12, 60_000), small(9, 50)] {
        for side in [Side::A, Side::B] {
            let sym = symmetrised(&inst, side);
            let (p, rs) = perm_and_swap(sym.n, 99);
            check_instance(&sym, &p, rs);
        }
    }
    // All-zero flows are symmetric: side A, whatever B holds.
    let z = zeros(12);
    assert_eq!(z.sums_side(), Some(Side::A));
    check_instance(&z, &perm_and_swap(12, 5).0, (7, 2));
    // Neither side symmetric: the mapping does not apply.
    assert_eq!(negatives().sums_side(), None);
}

/// The fast kernels' β in B's place (`Instance::sums_beta`, `LS_SUMS_BETA`): with B + Bᵀ read
/// as a plain matrix (one load, as `Side::B` reads B), the table's build, the offsets and the
/// location factors are those of side A on A and B; and the instances it does not apply to
/// get none.
#[test]
fn b_plus_b_transposed_in_b_s_place_prices_as_side_a() {
    use qapgpu_common::sums::{alpha, beta, location_factor, offset_of, sum_entries_by};
    let checked = |inst: &Instance| {
        let n = inst.n;
        let bsym = inst.sums_beta().expect("side A, zero diagonals, sums within the width");
        assert_eq!(inst.width, ElemWidth::U16);
        let (a16, b16) = inst.typed::<u16>();
        let s16: Vec<u16> = bsym.iter().map(|&x| u16::try_from(x).expect("sums_beta fits the width")).collect();
        let (a, b, s) = (Dense::new(&a16, n), Dense::new(&b16, n), Dense::new(&s16, n));
        let (p, _) = perm_and_swap(n, 7);
        for l in 0..n {
            let by: [i64; SUM_ROWS] = sum_entries_by(
                |k, i| alpha::<i64, _, _>(&a, Side::A, k, i),
                |pk, l| beta::<i64, _, _>(&s, Side::B, pk, l),
                &p,
                1,
                2,
                SUM_ROWS,
                l,
            );
            assert_eq!(
                by,
                sum_entries::<i64, _, _, _>(&a, &b, Side::A, &p, 1, 2, SUM_ROWS, l),
                "{}: column {l} of the table",
                inst.name
            );
            for (pr, ps) in [(0, n - 1), (n / 2, 1)] {
                let along = beta::<i64, _, _>(&s, Side::B, ps, l) - beta::<i64, _, _>(&s, Side::B, pr, l);
                assert_eq!(
                    along,
                    location_factor::<i64, _, _>(&b, Side::A, pr, ps, l),
                    "{}: location factor",
                    inst.name
                );
            }
        }
        for k in 0..move_count(n as u32) {
            let (u, v) = move_pair(k);
            let (u, v) = (u as usize, v as usize);
            let (pu, pv) = (p[u] as usize, p[v] as usize);
            let offset = offset_of(alpha::<i64, _, _>(&a, Side::A, u, v), beta::<i64, _, _>(&s, Side::B, pu, pv));
            assert_eq!(
                offset,
                zero_diagonal_offset::<i64, _, _, _>(&a, &b, Side::A, u, v, pu, pv),
                "{}: offset of ({u}, {v})",
                inst.name
            );
        }
    };
    let side_a = zero_diagonals(&symmetrised(&small(12, 30_000), Side::A));
    checked(&side_a);
    checked(&zero_diagonals(&symmetrised(&small(9, 50), Side::A)));
    // Sums past the element type (u16 here: entries up to 59 999), a diagonal, or B the
    // symmetric side: none.
    let wide = zero_diagonals(&symmetrised(&small(12, 60_000), Side::A));
    assert_eq!(wide.width, ElemWidth::U16);
    assert!(wide.b.iter().enumerate().any(|(x, &v)| v + wide.b[(x % 12) * 12 + x / 12] > u16::MAX as i64));
    assert_eq!(wide.sums_beta(), None);
    assert_eq!(symmetrised(&small(12, 30_000), Side::A).sums_beta(), None, "a nonzero diagonal");
    let side_b = zero_diagonals(&symmetrised(&negatives(), Side::B));
    assert_eq!(side_b.sums_side(), Some(Side::B));
    assert_eq!(side_b.sums_beta(), None);
}
