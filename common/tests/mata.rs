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
        if t < shape.ts {
            let (mut u, mut v) = unpack_pair(shape.first_pair(t));
            for j in 0..shape.owned(t) {
                assert_eq!(move_index(u, v), t * shape.ns + j, "lookup table and walk disagree");
                let long = last.is_none_or(|(r, s)| touches(u, v, r, s));
                if !long || shape.mapping == Mapping::Plain || last.is_none() {
                    seen[move_index(u, v) as usize] += 1;
                }
                (u, v) = next_pair(u, v);
            }
        } else if shape.mapping == Mapping::Mata && t >= shape.tl_start && t < shape.total {
            if let Some((r, s)) = last {
                if let Some((u, v)) = shape.long_move(t, r, s) {
                    assert!(u > v && touches(u, v, r, s), "thread {t} got ({u}, {v}) after ({r}, {s})");
                    seen[move_index(u, v) as usize] += 1;
                }
            }
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
                assert!(shape.tl_start >= shape.ts);
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
                    assert_eq!(c, 1, "n = {n}, {mapping:?}, after {last:?}: move {:?} computed {c} times", move_pair(k as u32));
                }
            }
        }
    }
}

#[test]
fn shape_matches_the_paper() {
    // Table 3 sizes and N_S = n/4: n = 40 → C = 780, N_S = 10, T_S = 78, T_L-START = 96.
    let s = Shape::new(40, 10, Mapping::Mata).unwrap();
    assert_eq!((s.moves, s.ts, s.tl_start, s.total), (780, 78, 96, 176));
    let p = Shape::new(40, 10, Mapping::Plain).unwrap();
    assert_eq!((p.ts, p.total), (78, 78));
    assert!(Shape::new(256, 16, Mapping::Mata).is_err(), "2040 threads cannot be one block");
    assert!(Shape::new(2, 1, Mapping::Mata).is_err());
}
