//! Move costs in i32 (`delta::MoveCost`, the kernels' narrow path) against the i64 ones,
//! and the bound that decides between them (`delta::move_cost_bound`).
use proptest::prelude::*;
use qapgpu::io::Instance;
use qapgpu_common::delta::{DeltaWidth, move_cost_bound};
use qapgpu_common::elem::{Elem, ElemWidth};
use qapgpu_common::matrix::Dense;
use qapgpu_common::moves::{
    delta_base_in, delta_full, delta_full_in, delta_offset_in, delta_term_in, delta_update, delta_update_terms_in,
    facility_terms, move_count, move_pair,
};
use qapgpu_tests::{near_limit, negatives, offset_instance, small};

/// `move_cost_bound` written out as its docs state it, term by term.
fn reference_bound(n: usize, a: &[i64], b: &[i64]) -> u128 {
    let range = |m: &[i64]| (*m.iter().max().unwrap() as i128 - *m.iter().min().unwrap() as i128) as u128;
    let spread = |m: &[i64]| {
        let at = |i: usize, j: usize| m[i * n + j] as i128;
        let mut best = 0u128;
        for r in 0..n {
            for s in r + 1..n {
                let mut sum = (at(r, r) - at(s, s)).unsigned_abs() + (at(r, s) - at(s, r)).unsigned_abs();
                for k in (0..n).filter(|&k| k != r && k != s) {
                    sum += (at(k, r) - at(k, s)).unsigned_abs() + (at(r, k) - at(s, k)).unsigned_abs();
                }
                best = best.max(sum);
            }
        }
        best
    };
    (range(b) * spread(a)).min(range(a) * spread(b))
}

/// Every move of `p`, and every O(1) update after the move (r, s): the i64 costs are within
/// the bound, and where the bound allows i32, the i32 costs are the same numbers.
fn check<E: Elem>(inst: &Instance, a: &[E], b: &[E], p: &[u8], r: usize, s: usize) {
    let n = inst.n;
    let bound = move_cost_bound(n, &inst.a, &inst.b);
    assert_eq!(bound, reference_bound(n, &inst.a, &inst.b), "{}: the bound as its docs state it", inst.name);
    let narrow = DeltaWidth::holding(bound) == DeltaWidth::I32;
    let (a, b) = (Dense::new(a, n), Dense::new(b, n));
    let mut after = p.to_vec();
    after.swap(r, s);
    for k in 0..move_count(n as u32) {
        let (u, v) = move_pair(k);
        let (u, v) = (u as usize, v as usize);
        let wide = delta_full(&a, &b, p, u, v);
        assert!(
            wide.unsigned_abs() as u128 <= bound,
            "{}: |Δ({u}, {v})| = {} above the bound {bound}",
            inst.name,
            wide.abs()
        );
        let next = delta_update(&a, &b, &after, wide, r, s, u, v);
        // The split kernel's forms: Eq. 4 as a base plus one term per facility, Eq. 5 from
        // per-facility terms.
        let (pu, pv) = (p[u] as usize, p[v] as usize);
        let split =
            (0..n).filter(|&k| k != u && k != v).fold(delta_base_in::<i64, _, _, _>(&a, &b, u, v, pu, pv), |d, k| {
                d + delta_term_in::<i64, _, _, _>(&a, &b, u, v, pu, pv, k, p[k] as usize)
            });
        assert_eq!(split, wide, "{}: Eq. 4 as base and terms for ({u}, {v})", inst.name);
        let every_k = (0..n).fold(delta_offset_in::<i64, _, _, _>(&a, &b, u, v, pu, pv), |d, k| {
            d + delta_term_in::<i64, _, _, _>(&a, &b, u, v, pu, pv, k, p[k] as usize)
        });
        assert_eq!(every_k, wide, "{}: Eq. 4 as offset and every facility's term for ({u}, {v})", inst.name);
        if narrow {
            let every_k = (0..n).fold(delta_offset_in::<i32, _, _, _>(&a, &b, u, v, pu, pv), |d: i32, k| {
                d.wrapping_add(delta_term_in::<i32, _, _, _>(&a, &b, u, v, pu, pv, k, p[k] as usize))
            });
            assert_eq!(every_k as i64, wide, "{}: the same in i32 for ({u}, {v})", inst.name);
        }
        if ![u, v].contains(&r) && ![u, v].contains(&s) {
            let row = |x: usize| {
                facility_terms::<i64, _, _, _>(&a, &b, r, s, x, after[x] as usize, after[r] as usize, after[s] as usize)
            };
            assert_eq!(
                delta_update_terms_in(wide, &row(u), &row(v)),
                next,
                "{}: Eq. 5 from terms for ({u}, {v})",
                inst.name
            );
            if narrow {
                let row32 = |x: usize| {
                    facility_terms::<i32, _, _, _>(
                        &a,
                        &b,
                        r,
                        s,
                        x,
                        after[x] as usize,
                        after[r] as usize,
                        after[s] as usize,
                    )
                };
                assert_eq!(
                    delta_update_terms_in(wide as i32, &row32(u), &row32(v)) as i64,
                    next,
                    "{}: Eq. 5 from i32 terms for ({u}, {v})",
                    inst.name
                );
            }
        }
        if narrow {
            assert_eq!(
                delta_full_in::<i32, _, _, _, _>(&a, &b, p, u, v) as i64,
                wide,
                "{}: Eq. 4 in i32 for ({u}, {v})",
                inst.name
            );
            if ![u, v].contains(&r) && ![u, v].contains(&s) {
                assert_eq!(
                    delta_update(&a, &b, &after, wide as i32, r, s, u, v) as i64,
                    next,
                    "{}: Eq. 5 in i32 for ({u}, {v}) after ({r}, {s})",
                    inst.name
                );
            }
        }
    }
}

fn check_instance(inst: &Instance, p: &[u8], r: usize, s: usize) {
    match inst.width {
        ElemWidth::U16 => {
            let (a, b) = inst.typed::<u16>();
            check(inst, &a, &b, p, r, s)
        }
        ElemWidth::U32 => {
            let (a, b) = inst.typed::<u32>();
            check(inst, &a, &b, p, r, s)
        }
        ElemWidth::I32 => {
            let (a, b) = inst.typed::<i32>();
            check(inst, &a, &b, p, r, s)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Spans chosen around the i32 limit, entries offset far from zero (u32 entries above
    /// 2³¹ wrap when read as i32, negative i32 entries too): the bound holds, and i32
    /// arithmetic that wraps in between still ends on the i64 value.
    #[test]
    fn i32_move_costs_equal_the_i64_ones_where_the_bound_allows(
        n in 3usize..14,
        // log-uniform spans, 1 to 2¹⁸: about half the cases fit i32
        span_a in (0u32..19).prop_map(|k| 1i64 << k),
        span_b in (0u32..19).prop_map(|k| 1i64 << k),
        base in prop_oneof![Just(0i64), Just(3_000_000_000i64), Just(-1_000_000_000i64)],
        seed in any::<u64>(),
        perm_seed in any::<u64>(),
    ) {
        let base_b = if base < 0 { 0 } else { 17 };
        let inst = offset_instance(n, base, span_a, base_b, span_b, seed);
        let mut p: Vec<u8> = (0..n as u8).collect();
        let mut x = perm_seed;
        for i in (1..n).rev() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            p.swap(i, (x >> 33) as usize % (i + 1));
        }
        let (r, s) = ((x >> 20) as usize % n, (x >> 40) as usize % n);
        let s = if s == r { (r + 1) % n } else { s };
        check_instance(&inst, &p, r.max(s), r.min(s));
    }
}

#[test]
fn fixed_instances_take_the_width_their_bound_gives() {
    // Small spans far from zero: i32, though entries are near 2²⁷.
    assert_eq!(near_limit().delta_width(), DeltaWidth::I32);
    assert_eq!(negatives().delta_width(), DeltaWidth::I32);
    // Spans of 60000 at n = 12: Δ can pass 2³¹.
    assert_eq!(small(12, 60_000).delta_width(), DeltaWidth::I64);
    // One matrix constant: every Δ is 0, whatever the other holds.
    let n = 8;
    let flat =
        Instance::new("flat", n, vec![7; n * n], (0..n * n).map(|k| (k as i64 * 7919) % 2_000_000_000).collect())
            .unwrap();
    assert_eq!(move_cost_bound(n, &flat.a, &flat.b), 0);
    assert_eq!(flat.delta_width(), DeltaWidth::I32);
    let p: Vec<u8> = (0..n as u8).rev().collect();
    check_instance(&flat, &p, 5, 2);
    check_instance(&small(12, 60_000), &(0..12).collect::<Vec<u8>>(), 7, 3);
}

/// The init kernel's cost (`cost::strided_cost` summed over a block's threads) is `cost`,
/// for block sizes below, at and above n² and ones that do not divide it, and for entries
/// of every element type.
#[test]
fn strided_costs_over_a_block_sum_to_the_cost() {
    use qapgpu_common::cost::{cost, strided_cost};
    fn sums<E: Elem>(inst: &Instance, a: &[E], b: &[E]) {
        let n = inst.n;
        let (a, b) = (Dense::new(a, n), Dense::new(b, n));
        let p: Vec<u8> = (0..n).map(|i| ((i * 5 + 3) % n) as u8).collect();
        let whole = cost(&a, &b, &p);
        for threads in [1, 3, 4, 32, 37, 128, n * n + 5] {
            let total: i64 = (0..threads).map(|t| strided_cost(&a, &b, &p, t, threads)).sum();
            assert_eq!(total, whole, "{}: {threads} threads", inst.name);
        }
    }
    for inst in [small(11, 60_000), small(7, 100), near_limit(), negatives()] {
        match inst.width {
            ElemWidth::U16 => {
                let (a, b) = inst.typed::<u16>();
                sums(&inst, &a, &b)
            }
            ElemWidth::U32 => {
                let (a, b) = inst.typed::<u32>();
                sums(&inst, &a, &b)
            }
            ElemWidth::I32 => {
                let (a, b) = inst.typed::<i32>();
                sums(&inst, &a, &b)
            }
        }
    }
}
