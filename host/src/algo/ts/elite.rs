//! A diverse elite for "go with the winners" (`--regroup-distance`): the walks ranked by
//! current cost as `ts_rank_walks` ranks them, but a walk joins the elite only where its
//! solution is far enough from every better elite walk's. On the host, between two walk
//! launches, for both engines (`AcoEngine::regroup_ranked` then moves the solutions).
use crate::algo::aco::ranking;
use qapgpu_common::ls::rank_key;

/// Positions where `a` and `b` differ, counting up to `cap` (enough to say "at least").
fn distance_at_least(a: &[u8], b: &[u8], cap: usize) -> bool {
    let mut d = 0;
    for (x, y) in a.iter().zip(b) {
        d += usize::from(x != y);
        if d >= cap {
            return true;
        }
    }
    d >= cap
}

/// The regrouping's ranking with a diverse elite. Walks by current cost (ties by index);
/// a walk joins the elite (at most `elite` of them) only where its solution differs from
/// every elite walk's before it in at least `min_distance` of the n positions. `rows` holds
/// the m solutions, `stride` bytes apart. Returns the ranking as `ts_rank_walks` writes it
/// (`aco::ranking`: the elite first, then the others by cost) and the elite's size (at
/// least 1).
pub fn diverse_winners(
    rows: &[u8],
    stride: usize,
    n: usize,
    costs: &[i64],
    elite: usize,
    min_distance: usize,
) -> (Vec<u32>, u32) {
    let m = costs.len();
    let row = |k: usize| &rows[k * stride..k * stride + n];
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_unstable_by_key(|&k| rank_key(costs[k], k));
    let (mut chosen, mut rest) = (Vec::with_capacity(m), Vec::with_capacity(m));
    for &k in &order {
        if chosen.len() < elite.max(1) && chosen.iter().all(|&e| distance_at_least(row(k), row(e), min_distance)) {
            chosen.push(k);
        } else {
            rest.push(k);
        }
    }
    let e = chosen.len();
    chosen.extend(rest);
    (ranking(&chosen, e), e as u32)
}

#[cfg(test)]
mod tests {
    use super::diverse_winners;
    use qapgpu_common::ls::donor_rank;

    /// Five walks of n = 4 (stride 5): 0 and 1 alike, 2 far from both, 3 a copy of 2, 4 far.
    fn walks() -> (Vec<u8>, Vec<i64>) {
        let rows = [[0, 1, 2, 3], [0, 1, 3, 2], [3, 2, 1, 0], [3, 2, 1, 0], [1, 0, 3, 2]];
        (rows.iter().flat_map(|r| r.iter().copied().chain([9])).collect(), vec![10, 11, 12, 13, 14])
    }

    #[test]
    fn the_elite_is_the_best_walks_far_from_every_better_elite_walk() {
        let (rows, costs) = walks();
        // Distance 3: 1 is within 2 of 0, 3 is 2's copy; 0, 2 and 4 are pairwise ≥ 3 apart.
        let (w, e) = diverse_winners(&rows, 5, 4, &costs, 3, 3);
        assert_eq!(e, 3);
        assert_eq!(&w[5..8], &[0, 2, 4], "elite by rank");
        assert_eq!(&w[..5], &[0, 3, 1, 4, 2], "ranks: the elite first, then the others by cost");
        // Walks 1 and 3 (ranks 3 and 4) take the solutions of elite ranks 0 and 1: walks 0, 2.
        assert_eq!(donor_rank(w[1], e).map(|d| w[5 + d as usize]), Some(0));
        assert_eq!(donor_rank(w[3], e).map(|d| w[5 + d as usize]), Some(2));
        // Distance 1: only exact copies are left out; with an elite of 2, the plain ranking.
        let (w, e) = diverse_winners(&rows, 5, 4, &costs, 2, 1);
        assert_eq!((e, &w[..7]), (2, &[0, 1, 2, 3, 4, 0, 1][..]));
        let (w, e) = diverse_winners(&rows, 5, 4, &costs, 5, 1);
        assert_eq!((e, &w[5..9]), (4, &[0, 1, 2, 4][..]), "walk 3, a copy of 2, is not elite");
        // Farther than n: the best walk alone, whose solution every other walk takes.
        let (w, e) = diverse_winners(&rows, 5, 4, &costs, 3, 5);
        assert_eq!((e, w[5]), (1, 0));
        assert!((1..5).all(|k| donor_rank(w[k], e) == Some(0)));
    }
}
