//! Properties of the shared operators, which both the kernels and the CPU engine run.
mod support;

use proptest::prelude::*;
use qapgpu_common::cost::{cost, swap_delta};
use qapgpu_common::ga::{Crossover, breed, fresh, pick_partner, probability_threshold, restart_count};
use qapgpu_common::layout::row_stride;
use qapgpu_common::matrix::Dense;
use qapgpu_common::ops::{cut_points, is_permutation, ox, pmx, random_exchanges, swap_mutation, ux};
use qapgpu_common::rng::Xoshiro128;
use qapgpu_common::shuffle::{Migration, Shuffle};
use support::{matrices, perm};

proptest! {
    #[test]
    fn ux_child_is_a_permutation_keeping_what_the_parents_share(n in 1usize..=256, s1: u64, s2: u64, s3: u64, share in 0usize..=256) {
        let p1 = perm(n, s1);
        // p2 agrees with p1 on its first `share` positions and is random elsewhere.
        let k = share.min(n);
        let mut p2 = p1.clone();
        let mut rest: Vec<u8> = p1[k..].to_vec();
        let mut rng = Xoshiro128::from_stream(s2, 1);
        for i in (1..rest.len()).rev() {
            let j = rng.below(i as u32 + 1) as usize;
            rest.swap(i, j);
        }
        p2[k..].copy_from_slice(&rest);
        let (mut child, mut taken, mut left) = (vec![0u8; n], vec![0u8; n], vec![0u8; n]);
        ux(&mut Xoshiro128::from_stream(s3, 0), &p1, &p2, &mut child, &mut taken, &mut left);
        prop_assert!(is_permutation(&child));
        for i in 0..n {
            if p1[i] == p2[i] {
                prop_assert_eq!(child[i], p1[i]);
            }
        }
    }

    #[test]
    fn random_permutation_is_a_permutation(n in 1usize..=256, seed: u64) {
        prop_assert!(is_permutation(&perm(n, seed)));
    }

    #[test]
    fn pmx_child_is_a_permutation_carrying_the_segment(n in 2usize..=256, s1: u64, s2: u64, s3: u64) {
        let (p1, p2) = (perm(n, s1), perm(n, s2));
        let (lo, hi) = cut_points(&mut Xoshiro128::from_stream(s3, 0), n);
        prop_assert!(lo < hi && hi <= n);
        let mut child = vec![0u8; n];
        pmx(&p1, &p2, &mut child, lo, hi);
        prop_assert!(is_permutation(&child));
        prop_assert_eq!(&child[lo..hi], &p2[lo..hi]);
        // Outside the segment, p1's genes stay where they were unless the segment took them.
        for k in (0..lo).chain(hi..n) {
            if !p2[lo..hi].contains(&p1[k]) {
                prop_assert_eq!(child[k], p1[k]);
            }
        }
    }

    #[test]
    fn ox_child_carries_the_segment_then_the_rest_in_order(n in 2usize..=256, s1: u64, s2: u64, s3: u64) {
        let (p1, p2) = (perm(n, s1), perm(n, s2));
        let (lo, hi) = cut_points(&mut Xoshiro128::from_stream(s3, 0), n);
        let mut child = vec![0u8; n];
        ox(&p1, &p2, &mut child, lo, hi);
        prop_assert!(is_permutation(&child));
        prop_assert_eq!(&child[lo..hi], &p2[lo..hi]);
        // From hi on, wrapping round, the other genes in p1's order from hi.
        let rest: Vec<u8> = (0..n).map(|t| p1[(hi + t) % n]).filter(|g| !p2[lo..hi].contains(g)).collect();
        let placed: Vec<u8> = (0..n - (hi - lo)).map(|t| child[(hi + t) % n]).collect();
        prop_assert_eq!(placed, rest);
    }

    #[test]
    fn swap_mutation_changes_two_genes_or_none(n in 2usize..=256, seed: u64, pm in 0.0f64..=1.0) {
        let p = perm(n, seed);
        let mut q = p.clone();
        let mutated = swap_mutation(&mut Xoshiro128::from_stream(seed, 1), &mut q, probability_threshold(pm));
        prop_assert!(is_permutation(&q));
        let diff = p.iter().zip(&q).filter(|(a, b)| a != b).count();
        prop_assert_eq!(diff, if mutated { 2 } else { 0 });
    }

    #[test]
    fn breed_returns_the_cost_of_a_valid_child(n in 2usize..=40, seed: u64) {
        let (a, b) = matrices(n, seed);
        let (a, b) = (Dense::new(&a, n), Dense::new(&b, n));
        let (p1, p2) = (perm(n, seed ^ 1), perm(n, seed ^ 2));
        let mut child = vec![0u8; n];
        for crossover in [Crossover::Pmx, Crossover::Ox] {
            let c = breed(&mut Xoshiro128::from_stream(seed, 3), &p1, &p2, &mut child, &a, &b, u32::MAX, crossover);
            prop_assert!(is_permutation(&child));
            prop_assert_eq!(c, cost(&a, &b, &child));
        }
    }

    #[test]
    fn restart_draws_valid_individuals(n in 2usize..=64, seed: u64) {
        let (a, b) = matrices(n, seed);
        let (a, b) = (Dense::new(&a, n), Dense::new(&b, n));
        let mut row = vec![0u8; n];
        let c = fresh(&mut Xoshiro128::from_stream(seed, 4), &mut row, &a, &b);
        prop_assert!(is_permutation(&row));
        prop_assert_eq!(c, cost(&a, &b, &row));
    }

    #[test]
    fn swap_delta_matches_full_evaluation(n in 3usize..=30, seed: u64, r in 0usize..30, s in 0usize..30) {
        let (r, s) = (r % n, s % n);
        prop_assume!(r != s);
        let (a, b) = matrices(n, seed);
        let (a, b) = (Dense::new(&a, n), Dense::new(&b, n));
        let p = perm(n, seed);
        let mut q = p.clone();
        q.swap(r, s);
        prop_assert_eq!(swap_delta(&a, &b, &p, r, s), cost(&a, &b, &q) - cost(&a, &b, &p));
    }

    #[test]
    fn random_exchanges_keep_a_permutation_and_move_two_positions_each(n in 2usize..=40, seed: u64, swaps in 0u32..50) {
        let p = perm(n, seed);
        let mut q = p.clone();
        random_exchanges(&mut Xoshiro128::from_stream(seed, 3), &mut q, swaps);
        prop_assert!(is_permutation(&q));
        // At most two positions moved a swap (fewer where swaps undo each other), exactly
        // two by one swap (its facilities are distinct).
        let moved = p.iter().zip(&q).filter(|(x, y)| x != y).count();
        prop_assert!(moved <= 2 * swaps as usize);
        if swaps == 1 {
            prop_assert_eq!(moved, 2);
        }
        // The stream decides the exchanges.
        let mut again = p.clone();
        random_exchanges(&mut Xoshiro128::from_stream(seed, 3), &mut again, swaps);
        prop_assert_eq!(again, q);
    }

    #[test]
    fn partner_is_never_self(subpop in 2usize..=1024, i in 0usize..1024, seed: u64) {
        let i = i % subpop;
        let j = pick_partner(&mut Xoshiro128::from_stream(seed, 5), i, subpop);
        prop_assert!(j < subpop && j != i);
    }

    #[test]
    fn shuffle_is_a_bijection(m in 1u32..5000, seed: u64, epoch in 0u64..100) {
        let s = Shuffle::new(m, seed, epoch);
        let mut seen = vec![false; m as usize];
        for x in 0..m {
            let y = s.apply(x);
            prop_assert!(y < m && !seen[y as usize]);
            seen[y as usize] = true;
        }
    }

    #[test]
    fn migration_routes_form_a_permutation_moving_only_the_movers(total in 2u32..3000, share in 0.0f64..=1.0, seed: u64, epoch in 0u64..50) {
        let movers = ((share * total as f64) as u32).clamp(1, total);
        let m = Migration::new(total, movers, seed, epoch);
        let (mut from_seen, mut to_seen) = (vec![false; total as usize], vec![false; total as usize]);
        let mut moved = 0;
        for k in 0..total {
            let (x, y) = m.route(k);
            prop_assert!(x < total && y < total && !from_seen[x as usize] && !to_seen[y as usize]);
            from_seen[x as usize] = true;
            to_seen[y as usize] = true;
            moved += u32::from(x != y);
        }
        prop_assert!(moved <= movers);
        if movers == total {
            // All of them: the shuffle seed 000's runs have always used.
            let s = Shuffle::new(total, seed, epoch);
            prop_assert!((0..total).all(|k| m.route(k) == (k, s.apply(k))));
        }
    }
}

#[test]
fn rng_streams_are_deterministic_and_distinct() {
    let draw = |seed, stream| {
        let mut r = Xoshiro128::from_stream(seed, stream);
        (0..8).map(|_| r.next()).collect::<Vec<_>>()
    };
    assert_eq!(draw(42, 3), draw(42, 3));
    assert_ne!(draw(42, 3), draw(42, 4));
    assert_ne!(draw(42, 3), draw(43, 3));
    // The reference output of xoshiro128** from state [1, 2, 3, 4].
    let mut r = Xoshiro128 { s: [1, 2, 3, 4] };
    assert_eq!([r.next(), r.next(), r.next()], [11520, 0, 5927040]);
}

#[test]
fn below_stays_in_range_and_covers_it() {
    let mut r = Xoshiro128::from_stream(1, 1);
    let mut hits = [0u32; 7];
    for _ in 0..70_000 {
        hits[r.below(7) as usize] += 1;
    }
    assert!(hits.iter().all(|&h| (9_000..11_000).contains(&h)), "{hits:?}");
}

#[test]
fn restart_count_is_the_ceiling() {
    assert_eq!(restart_count(128, 0.6), 77); // 76.8 → 77
    assert_eq!(restart_count(100, 0.5), 50);
    assert_eq!(probability_threshold(0.0), 0);
    assert_eq!(probability_threshold(1.0), u32::MAX);
}

#[test]
fn row_stride_has_an_odd_word_count() {
    for n in 1..=256 {
        let s = row_stride(n);
        assert!(s >= n && s.is_multiple_of(4) && (s / 4) % 2 == 1, "n = {n}: stride {s}");
    }
}

#[test]
fn planted_instance_optimum_is_the_brute_force_optimum() {
    let n = 7;
    for seed in 0..5 {
        let (mut a, mut b, mut sol) = (vec![0u16; n * n], vec![0u16; n * n], vec![0u8; n]);
        let opt = qapgpu_common::planted::generate(n, 35, seed, &mut a, &mut b, &mut sol);
        let (da, db) = (Dense::new(&a, n), Dense::new(&b, n));
        assert_eq!(cost(&da, &db, &sol), opt);
        // Heap's algorithm over all 5040 permutations.
        let mut p: Vec<u8> = (0..n as u8).collect();
        let mut c = vec![0usize; n];
        let mut best = cost(&da, &db, &p);
        let mut i = 0;
        while i < n {
            if c[i] < i {
                if i % 2 == 0 {
                    p.swap(0, i)
                } else {
                    p.swap(c[i], i)
                }
                best = best.min(cost(&da, &db, &p));
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        assert_eq!(best, opt, "seed {seed}");
    }
}
