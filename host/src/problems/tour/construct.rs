//! Tours built by construction heuristics, the starts a tour search is handed: nearest
//! neighbour from every city, greedy edge (greedy arcs for an ATSP), and the order of a
//! Hilbert curve through the cities where they have coordinates. A tour lists the cities
//! (0-based) in visiting order.
use crate::problems::tsplib::TspData;

/// The nearest-neighbour tour from `start`: always on to the nearest city not yet visited
/// (ties to the lower index).
pub fn nearest_neighbour(d: &TspData, start: usize) -> Vec<usize> {
    let n = d.n;
    let mut seen = vec![false; n];
    let mut tour = Vec::with_capacity(n);
    let mut at = start;
    seen[at] = true;
    tour.push(at);
    for _ in 1..n {
        let next = (0..n).filter(|&c| !seen[c]).min_by_key(|&c| d.d(at, c)).expect("a city is left");
        seen[next] = true;
        tour.push(next);
        at = next;
    }
    tour
}

/// The length of a tour.
pub fn length(d: &TspData, tour: &[usize]) -> i64 {
    let n = tour.len();
    (0..n).map(|i| d.d(tour[i], tour[(i + 1) % n])).sum()
}

/// The best nearest-neighbour tour over every start city.
pub fn best_nearest_neighbour(d: &TspData) -> Vec<usize> {
    (0..d.n).map(|s| nearest_neighbour(d, s)).min_by_key(|t| length(d, t)).expect("n ≥ 3")
}

/// Union-find over the cities, for the greedy constructions' "no early cycle" test.
struct Sets(Vec<usize>);

impl Sets {
    fn root(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }
}

/// Greedy edge: the shortest links first, each taken where it keeps every city's degree
/// within a tour's and closes no cycle early. On symmetric distances the links are edges
/// (degree ≤ 2); on asymmetric ones they are arcs (one out, one in).
pub fn greedy_edge(d: &TspData) -> Vec<usize> {
    let n = d.n;
    let sym = d.is_symmetric();
    let mut links: Vec<(i64, usize, usize)> = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            if i != j && (!sym || i < j) {
                links.push((d.d(i, j), i, j));
            }
        }
    }
    links.sort_unstable();
    let mut sets = Sets((0..n).collect());
    // Symmetric: the (up to two) neighbours of each city. Asymmetric: next and previous.
    let mut next = vec![usize::MAX; n];
    let mut prev = vec![usize::MAX; n];
    let mut taken = 0;
    for &(_, i, j) in &links {
        if taken == n - 1 {
            break;
        }
        let free = if sym {
            (next[i] == usize::MAX || prev[i] == usize::MAX) && (next[j] == usize::MAX || prev[j] == usize::MAX)
        } else {
            next[i] == usize::MAX && prev[j] == usize::MAX
        };
        if !free || sets.root(i) == sets.root(j) {
            continue;
        }
        let (ri, rj) = (sets.root(i), sets.root(j));
        sets.0[ri] = rj;
        if sym {
            for (a, b) in [(i, j), (j, i)] {
                if next[a] == usize::MAX {
                    next[a] = b;
                } else {
                    prev[a] = b;
                }
            }
        } else {
            next[i] = j;
            prev[j] = i;
        }
        taken += 1;
    }
    if sym {
        // One path: walk it from an end (a city with one neighbour).
        let end = (0..n).find(|&c| prev[c] == usize::MAX).expect("a path has an end");
        let mut tour = vec![end];
        let (mut from, mut at) = (usize::MAX, end);
        while tour.len() < n {
            let step = if next[at] != from { next[at] } else { prev[at] };
            from = at;
            at = step;
            tour.push(at);
        }
        tour
    } else {
        let mut at = (0..n).find(|&c| prev[c] == usize::MAX).expect("a path has a start");
        let mut tour = vec![at];
        while tour.len() < n {
            at = next[at];
            tour.push(at);
        }
        tour
    }
}

/// The cities in the order of a Hilbert curve over their bounding box (None without
/// coordinates): a space-filling-curve tour.
pub fn space_filling(d: &TspData) -> Option<Vec<usize>> {
    let c = d.coords.as_ref()?;
    let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
    for &(x, y) in c {
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    let side = (hi.0 - lo.0).max(hi.1 - lo.1).max(f64::MIN_POSITIVE);
    const CELLS: u32 = 1 << 16;
    let cell = |v: f64, from: f64| (((v - from) / side * f64::from(CELLS - 1)).round() as u32).min(CELLS - 1);
    let mut keyed: Vec<(u64, usize)> =
        c.iter().enumerate().map(|(i, &(x, y))| (hilbert_index(CELLS, cell(x, lo.0), cell(y, lo.1)), i)).collect();
    keyed.sort_unstable();
    Some(keyed.into_iter().map(|(_, i)| i).collect())
}

/// The position of cell (x, y) along the Hilbert curve of a `side` × `side` grid (a power
/// of two).
fn hilbert_index(side: u32, mut x: u32, mut y: u32) -> u64 {
    let mut index = 0u64;
    let mut s = side / 2;
    while s > 0 {
        let rx = u32::from(x & s > 0);
        let ry = u32::from(y & s > 0);
        index += u64::from(s) * u64::from(s) * u64::from((3 * rx) ^ ry);
        // Rotate the quadrant so that the curve's sub-pieces line up.
        if ry == 0 {
            if rx == 1 {
                x = side - 1 - x;
                y = side - 1 - y;
            }
            std::mem::swap(&mut x, &mut y);
        }
        s /= 2;
    }
    index
}

/// Every construction's tour for `d`: the best nearest neighbour, greedy edge, and the
/// space-filling curve where there are coordinates.
pub fn starts(d: &TspData) -> Vec<Vec<usize>> {
    let mut v = vec![best_nearest_neighbour(d), greedy_edge(d)];
    v.extend(space_filling(d));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(n: usize, asym: bool) -> TspData {
        // Cities on a line, 0..n: the optimal tour has length 2(n − 1).
        let mut dist = vec![0i64; n * n];
        for i in 0..n {
            for j in 0..n {
                dist[i * n + j] = (i as i64 - j as i64).abs() + i64::from(asym && i < j);
            }
        }
        TspData { name: "line".into(), n, dist, weight_type: "EXPLICIT".into(), coords: None }
    }

    fn is_tour(t: &[usize], n: usize) -> bool {
        let mut s = t.to_vec();
        s.sort_unstable();
        s == (0..n).collect::<Vec<_>>()
    }

    #[test]
    fn constructions_give_tours() {
        for asym in [false, true] {
            let d = square(9, asym);
            for t in starts(&d) {
                assert!(is_tour(&t, 9), "{t:?}");
            }
            assert_eq!(length(&d, &nearest_neighbour(&d, 0)), if asym { 24 } else { 16 });
        }
    }

    #[test]
    fn greedy_edge_on_a_line_is_optimal() {
        let d = square(12, false);
        assert_eq!(length(&d, &greedy_edge(&d)), 22);
    }

    #[test]
    fn hilbert_order_visits_each_city_once() {
        let coords: Vec<(f64, f64)> = (0..30).map(|i| ((i * 7 % 11) as f64, (i * 5 % 13) as f64)).collect();
        let d =
            TspData { name: "p".into(), n: 30, dist: vec![0; 900], weight_type: "EUC_2D".into(), coords: Some(coords) };
        assert!(is_tour(&space_filling(&d).unwrap(), 30));
        assert_eq!(hilbert_index(2, 0, 0), 0);
        assert_eq!(hilbert_index(2, 0, 1), 1);
        assert_eq!(hilbert_index(2, 1, 1), 2);
        assert_eq!(hilbert_index(2, 1, 0), 3);
    }
}
