//! The thread mappings of seed 003 cover every move exactly once, for n = 3..=256, for
//! the first scan and after every kind of previous move.
use qapgpu_common::mata::{Mapping, Shape, default_ns};
use qapgpu_common::moves::{move_count, move_index, move_pair, next_pair, touches, unpack_pair};

#[test]
fn move_numbering_round_trips() {
    let mut k = 0;
    for u in 1..256 {
        for v in 0..u {
            assert_eq!(move_index(u, v), k);
            assert_eq!(move_pair(k), (u, v));
            if k + 1 < move_count(256) {
                assert_eq!(next_pair(u, v), move_pair(k + 1));
            }
            k += 1;
        }
    }
    assert_eq!(k, move_count(256));
}

/// How many times each move is computed by the block in one scan after move (r, s)
/// (None: the first scan).
fn coverage(shape: &Shape, last: Option<(u32, u32)>) -> Vec<u32> {
    let mut seen = vec![0u32; shape.moves as usize];
    for t in 0..shape.total.div_ceil(32) * 32 {
        if t < shape.owners {
            let (mut u, mut v) = unpack_pair(shape.first_pair(t));
            for j in 0..shape.owned(t) {
                assert_eq!(move_index(u, v), t * shape.ns + j, "lookup table and walk disagree");
                let long = last.is_none_or(|(r, s)| touches(u, v, r, s));
                if !long || shape.mapping == Mapping::Plain || last.is_none() {
                    seen[move_index(u, v) as usize] += 1;
                }
                (u, v) = next_pair(u, v);
            }
        } else if shape.mapping == Mapping::Mata
            && t >= shape.tl_start
            && t < shape.total
            && let Some((r, s)) = last
            && let Some((u, v)) = shape.long_move(t, r, s)
        {
            assert!(u > v && touches(u, v, r, s), "thread {t} got ({u}, {v}) after ({r}, {s})");
            seen[move_index(u, v) as usize] += 1;
        }
    }
    seen
}

#[test]
fn every_move_exactly_once() {
    for n in 3..=256u32 {
        for mapping in [Mapping::Mata, Mapping::Plain] {
            let shape = Shape::new(n, default_ns(n), mapping).unwrap();
            assert!(shape.total <= 1024, "n = {n}: {} threads", shape.total);
            if mapping == Mapping::Mata {
                assert_eq!(shape.tl_start % 32, 0);
                assert!(shape.tl_start >= shape.owners);
                assert_eq!(shape.total, shape.tl_start + 2 * n);
            }
            // The first scan, then previous moves at the corners, the middle and random spots.
            let mut lasts = vec![None, Some((1, 0)), Some((n - 1, 0)), Some((n - 1, n - 2)), Some((n / 2 + 1, n / 2))];
            let mut x = n * 7919;
            for _ in 0..4 {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let u = 1 + (x >> 8) % (n - 1);
                lasts.push(Some((u, (x >> 20) % u)));
            }
            for last in lasts {
                let seen = coverage(&shape, last);
                for (k, &c) in seen.iter().enumerate() {
                    assert_eq!(
                        c,
                        1,
                        "n = {n}, {mapping:?}, after {last:?}: move {:?} computed {c} times",
                        move_pair(k as u32)
                    );
                }
            }
        }
    }
}

#[test]
fn shape_matches_the_paper() {
    // Table 3 sizes and N_S = n/4: n = 40 → C = 780, N_S = 10, T_S = 78, T_L-START = 96.
    let s = Shape::new(40, 10, Mapping::Mata).unwrap();
    assert_eq!((s.moves, s.owners, s.tl_start, s.total), (780, 78, 96, 176));
    let p = Shape::new(40, 10, Mapping::Plain).unwrap();
    assert_eq!((p.owners, p.total), (78, 78));
    assert!(Shape::new(256, 16, Mapping::Mata).is_err(), "2040 threads cannot be one block");
    assert!(Shape::new(2, 1, Mapping::Mata).is_err());
}

/// The split mapping: the touching moves are exactly the moves that share a facility with
/// (r, s), each once, and the O(1) share is the rest (`touches`); every move is priced once.
#[test]
fn split_mapping_prices_every_move_once() {
    use qapgpu_common::mata::touching_move;
    for n in [3u32, 4, 5, 12, 35, 64, 256] {
        for (r, s) in [(1, 0), (n - 1, 0), (n - 1, n - 2), (n / 2 + 1, n / 2)] {
            let mut seen = vec![0u32; move_count(n) as usize];
            for m in 0..2 * n - 3 {
                let (u, v) = touching_move(n, r, s, m);
                assert!(u > v && u < n, "n = {n}: touching move {m} after ({r}, {s}) is ({u}, {v})");
                assert!(touches(u, v, r, s), "n = {n}: ({u}, {v}) does not touch ({r}, {s})");
                seen[move_index(u, v) as usize] += 1;
            }
            for k in 0..move_count(n) {
                let (u, v) = move_pair(k);
                if !touches(u, v, r, s) {
                    seen[k as usize] += 1;
                }
            }
            assert!(
                seen.iter().all(|&c| c == 1),
                "n = {n}, last ({r}, {s}): a move priced {:?} times",
                seen.iter().find(|&&c| c != 1)
            );
        }
    }
}

/// Split shapes: whole warps, groups of a power of two up to 32 (and n) that stay inside a
/// warp, a lookup table of every move; the group size fits the touching moves to the block.
#[test]
fn split_shapes() {
    use qapgpu_common::mata::{split_lanes, split_threads, walk_split_threads};
    for n in 3..=256u32 {
        for threads in [32, 64, 160, 320, 512, 1024] {
            let s = Shape::split(n, threads);
            assert_eq!((s.mapping, s.ns, s.owners, s.total % 32), (Mapping::Split, 1, move_count(n), 0));
            assert!(
                s.lanes.is_power_of_two() && s.lanes <= 32 && s.lanes <= n.max(1),
                "n = {n}, T = {threads}: {} lanes",
                s.lanes
            );
            assert_eq!(s.lanes, split_lanes(n, s.total));
        }
        for t in [split_threads(n, 1024), walk_split_threads(n, 1024), split_threads(n, 96)] {
            assert!(t % 32 == 0 && (32..=512).contains(&t), "n = {n}: {t} threads");
        }
        assert_eq!(Shape::fit(n, 1, Mapping::Split, 1024).unwrap().total, split_threads(n, 1024));
    }
    // tai35b's walks: 160 threads, pairs of lanes (the 67 touching moves in one round of 18
    // terms; groups of 4 would take 2 rounds of 9 and two shuffle steps).
    assert_eq!((walk_split_threads(35, 1024), split_lanes(35, 160)), (160, 2));
    assert_eq!(split_threads(100, 1024), 512);
}

/// Blocks per SM count whole warps per register-file partition, as the driver does: the
/// MATA walks of tai35b (104 registers, 192 threads) fit two blocks an H100 SM, not three
/// (Nsight Compute's "Block Limit Registers" for that launch), and the split walks (64
/// registers, 160 threads) six.
#[test]
fn blocks_per_sm_count_register_partitions() {
    use qapgpu_common::layout::{blocks_per_sm, limits, max_threads_for_registers, warps_for_registers};
    let h100 = limits(90).unwrap();
    assert_eq!(warps_for_registers(&h100, 104), 16);
    assert_eq!(blocks_per_sm(&h100, 192, 0, 104), (2, "registers"));
    assert_eq!(blocks_per_sm(&h100, 160, 0, 64), (6, "registers"));
    assert_eq!(blocks_per_sm(&h100, 640, 0, 72).0, 1);
    assert_eq!(max_threads_for_registers(&h100, 72), 896);
    assert_eq!(max_threads_for_registers(&h100, 32), 1024);
}

/// Sums shapes: at least one thread per location of the table (T ≥ n), whole warps, no
/// lanes, every move in the lookup table.
#[test]
fn sums_shapes_cover_every_location() {
    for n in 3..=256u32 {
        for threads in [32, 64, 160, 512, 1024] {
            let s = Shape::split_family(n, threads, Mapping::Sums);
            assert!(
                s.total >= n && s.total >= threads.min(1024) && s.total.is_multiple_of(32),
                "n = {n}, T = {threads}: {} threads",
                s.total
            );
            assert_eq!((s.mapping, s.lanes, s.owners), (Mapping::Sums, 1, move_count(n)));
        }
    }
}
