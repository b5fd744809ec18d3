//! The cellular GA's operators (seeds 002/004): neighbourhoods on toroidal grids, MOX,
//! mutation, transposition, and the 2-opt and greedy 2-opt passes.
mod support;

use proptest::prelude::*;
use qapgpu_common::cga::{
    Topology, argmin, best_neighbour, crossover_cut, exchange, greedy_pass, mox, neighbour, transpose, two_opt_pass,
};
use qapgpu_common::cost::{cost, swap_delta, swap_delta_base, swap_delta_term};
use qapgpu_common::matrix::Dense;
use qapgpu_common::moves::{move_count, move_pair};
use qapgpu_common::ops::is_permutation;
use qapgpu_common::rng::Xoshiro128;
use std::collections::BTreeSet;
use support::{matrices, perm};

/// The neighbours of `cell` as a set (self excluded).
fn hood(t: Topology, w: u32, h: u32, cell: u32) -> BTreeSet<u32> {
    t.offsets().iter().map(|&(dx, dy)| neighbour(w, h, cell, dx, dy)).filter(|&k| k != cell).collect()
}

#[test]
fn von_neumann_and_moore_wrap_around_the_corner() {
    // Cell 0 of an 8×8 grid: row 0, column 0.
    assert_eq!(hood(Topology::N4, 8, 8, 0), BTreeSet::from([1, 7, 8, 56]));
    assert_eq!(hood(Topology::N8, 8, 8, 0), BTreeSet::from([1, 7, 8, 9, 15, 56, 57, 63]));
}

#[test]
fn the_sixteen_cells_at_distance_two() {
    // Centre of a 5×5 grid (cell 12): the ring of 16 around the inner 3×3.
    let ring = hood(Topology::N16, 5, 5, 12);
    assert_eq!(ring.len(), 16);
    let inner = hood(Topology::N8, 5, 5, 12);
    assert!(ring.is_disjoint(&inner));
    assert_eq!(ring.len() + inner.len() + 1, 25);
    let twenty = hood(Topology::N20, 5, 5, 12);
    assert_eq!(twenty, ring.union(&hood(Topology::N4, 5, 5, 12)).copied().collect());
}

#[test]
fn small_and_non_square_grids_wrap_onto_fewer_cells() {
    // On 3×4, offsets ±2 wrap onto ∓1 horizontally: the 16n ring repeats cells.
    for cell in 0..12 {
        let ring = hood(Topology::N16, 3, 4, cell);
        assert!(!ring.contains(&cell) && ring.len() < 16 && ring.iter().all(|&k| k < 12), "cell {cell}: {ring:?}");
    }
    // 1×1: nobody else, the cell is its own partner.
    assert_eq!(best_neighbour(&[5], 1, 1, 0, Topology::N8), 0);
    // 2×1: the only other cell.
    assert_eq!(best_neighbour(&[5, 9], 2, 1, 0, Topology::N20), 1);
}

#[test]
fn best_neighbour_takes_the_lowest_cost_first_in_offset_order() {
    let (w, h) = (4, 3);
    let mut costs = vec![100i64; 12];
    costs[5] = 10; // (1, 1), neighbour of 0 in 8n (dx = 1, dy = 1) only
    costs[4] = 10; // (0, 1), neighbour of 0 in 4n and 8n, earlier in 8n's order
    assert_eq!(best_neighbour(&costs, w, h, 0, Topology::N8), 4);
    costs[4] = 50;
    assert_eq!(best_neighbour(&costs, w, h, 0, Topology::N8), 5);
    assert_eq!(best_neighbour(&costs, w, h, 0, Topology::N4), 4);
}

#[test]
fn mox_on_a_worked_example() {
    // Parent 1 up to the cut, then parent 2's other genes in parent 2's order (004 §3.4).
    let (p1, p2) = ([0u8, 1, 2, 3, 4, 5, 6, 7, 8], [8u8, 2, 6, 4, 0, 1, 3, 7, 5]);
    let mut child = [0u8; 9];
    let mut taken = [0u8; 9];
    mox(&p1, &p2, 3, &mut child, &mut taken);
    assert_eq!(child, [0, 1, 2, 8, 6, 4, 3, 7, 5]);
    mox(&p1, &p2, 0, &mut child, &mut taken);
    assert_eq!(child, p2);
    mox(&p1, &p2, 9, &mut child, &mut taken);
    assert_eq!(child, p1);
}

#[test]
fn argmin_takes_the_first_of_equals() {
    assert_eq!(argmin(&[5, 3, 3, 9]), 1);
    assert_eq!(argmin(&[7]), 0);
}

proptest! {
    #[test]
    fn operators_keep_permutations(n in 3usize..=256, s1: u64, s2: u64, seed: u64) {
        let (p1, p2) = (perm(n, s1), perm(n, s2));
        let mut rng = Xoshiro128::from_stream(seed, 1);
        let cut = crossover_cut(&mut rng, n, u32::MAX).unwrap();
        prop_assert!(cut < n);
        let (mut child, mut taken) = (vec![0u8; n], vec![0u8; n]);
        mox(&p1, &p2, cut, &mut child, &mut taken);
        prop_assert!(is_permutation(&child));
        prop_assert_eq!(&child[..cut], &p1[..cut]);
        let before = child.clone();
        prop_assert!(exchange(&mut rng, &mut child, u32::MAX));
        prop_assert!(is_permutation(&child));
        prop_assert!(child.iter().zip(&before).filter(|(a, b)| a != b).count() <= 2);
        prop_assert!(transpose(&mut rng, &mut child, u32::MAX));
        prop_assert!(is_permutation(&child));
        let mut same = child.clone();
        prop_assert!(!exchange(&mut rng, &mut same, 0) && !transpose(&mut rng, &mut same, 0));
        prop_assert_eq!(same, child);
    }

    #[test]
    fn passes_return_their_cost_and_never_worsen(n in 3usize..=24, seed: u64) {
        let (a, b) = matrices(n, seed);
        let (a, b) = (Dense::new(&a, n), Dense::new(&b, n));
        let start = perm(n, seed ^ 1);
        let c0 = cost(&a, &b, &start);
        // 2-opt: exactly the best swap's Δ (the first of equals), or nothing.
        let best = (0..move_count(n as u32)).map(|k| { let (u, v) = move_pair(k); swap_delta(&a, &b, &start, u as usize, v as usize) }).min().unwrap();
        let mut p = start.clone();
        let c = two_opt_pass(&a, &b, &mut p, c0, || false);
        prop_assert_eq!(c, cost(&a, &b, &p));
        prop_assert_eq!(c, c0 + best.min(0));
        // Greedy: the sequential scan, applying each improving swap at once.
        let mut q = start.clone();
        let g = greedy_pass(&a, &b, &mut q, c0, false, || false);
        prop_assert_eq!(g, cost(&a, &b, &q));
        let mut r = start.clone();
        let mut expect = c0;
        for k in 0..move_count(n as u32) {
            let (u, v) = move_pair(k);
            let mut s = r.clone();
            s.swap(u as usize, v as usize);
            let d = cost(&a, &b, &s) - cost(&a, &b, &r);
            if d < 0 {
                r = s;
                expect += d;
            }
        }
        prop_assert_eq!(q, r);
        prop_assert_eq!(g, expect);
        prop_assert!(g <= c0 && c <= c0);
        // Record (the thesis's Algorithm 16): a swap only when its Δ is below the last taken.
        let mut q = start.clone();
        let g = greedy_pass(&a, &b, &mut q, c0, true, || false);
        let (mut r, mut expect, mut threshold) = (start.clone(), c0, 0);
        for k in 0..move_count(n as u32) {
            let (u, v) = move_pair(k);
            let mut s = r.clone();
            s.swap(u as usize, v as usize);
            let d = cost(&a, &b, &s) - cost(&a, &b, &r);
            if d < threshold {
                (r, expect, threshold) = (s, expect + d, d);
            }
        }
        prop_assert_eq!(q, r);
        prop_assert_eq!(g, expect);
    }

    #[test]
    fn swap_delta_is_its_base_plus_its_terms(n in 3usize..=30, seed: u64, r in 0usize..30, s in 0usize..30) {
        let (r, s) = (r % n, s % n);
        prop_assume!(r != s);
        let (a, b) = matrices(n, seed);
        let (a, b) = (Dense::new(&a, n), Dense::new(&b, n));
        let p = perm(n, seed);
        let parts = swap_delta_base(&a, &b, &p, r, s) + (0..n).map(|k| swap_delta_term(&a, &b, &p, r, s, k)).sum::<i64>();
        prop_assert_eq!(parts, swap_delta(&a, &b, &p, r, s));
    }
}
