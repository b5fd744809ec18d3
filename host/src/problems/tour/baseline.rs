//! The yardstick a tour search must beat: the best nearest-neighbour tour improved by
//! plain 2-opt (every pair of links tried, first improvement, to a local optimum). On
//! asymmetric distances a reversed segment is costed in its new direction.
use super::construct::best_nearest_neighbour;
use crate::problems::tsplib::TspData;

/// The best nearest-neighbour tour, then 2-opt to a local optimum.
pub fn nearest_neighbour_two_opt(d: &TspData) -> Vec<usize> {
    let n = d.n;
    let mut t = best_nearest_neighbour(d);
    'improve: loop {
        // fwd[i]: the length of t[0..=i] along the tour; bwd[i]: the same walked backwards.
        let mut fwd = vec![0i64; n];
        let mut bwd = vec![0i64; n];
        for i in 1..n {
            fwd[i] = fwd[i - 1] + d.d(t[i - 1], t[i]);
            bwd[i] = bwd[i - 1] + d.d(t[i], t[i - 1]);
        }
        for i in 0..n - 2 {
            for j in i + 2..n {
                if i == 0 && j == n - 1 {
                    continue;
                }
                // Reverse t[i+1..=j]: links (t_i, t_i+1) and (t_j, t_j+1) become (t_i, t_j)
                // and (t_i+1, t_j+1), and the segment's links turn round.
                let next = t[(j + 1) % n];
                let inner = (bwd[j] - bwd[i + 1]) - (fwd[j] - fwd[i + 1]);
                let delta = d.d(t[i], t[j]) + d.d(t[i + 1], next) - d.d(t[i], t[i + 1]) - d.d(t[j], next) + inner;
                if delta < 0 {
                    t[i + 1..=j].reverse();
                    continue 'improve;
                }
            }
        }
        return t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::tour::construct::length;

    #[test]
    fn two_opt_never_lengthens_the_nearest_neighbour_tour() {
        let n = 40;
        let mut dist = vec![0i64; n * n];
        for i in 0..n {
            for j in 0..n {
                dist[i * n + j] = ((i * 37 + j * 11) % 97) as i64 + if i == j { 0 } else { 1 };
            }
        }
        let d = TspData { name: "x".into(), n, dist, weight_type: "EXPLICIT".into(), coords: None };
        let nn = length(&d, &best_nearest_neighbour(&d));
        let t = nearest_neighbour_two_opt(&d);
        let mut s = t.clone();
        s.sort_unstable();
        assert_eq!(s, (0..n).collect::<Vec<_>>());
        assert!(length(&d, &t) <= nn);
    }
}
