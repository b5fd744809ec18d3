//! A generated instance whose optimum is known by construction: the embedded default of the
//! solver, since no QAPLIB file may ship with the project.
//!
//! Construction (a planted solution, in the spirit of Li & Pardalos' generator): draw a
//! random sparse flow graph G (a[i][j] in 1..=9 on its arcs, 0 elsewhere) and a hidden
//! permutation π. Distances are b[k][l] = c + e[k][l] with e[k][l] = 0 on the images
//! (π(i), π(j)) of G's arcs and e[k][l] in 1..=99 elsewhere (b[k][k] = 0).
//! Then cost(p) = c·Σa + Σ a[i][j]·e[p(i)][p(j)] ≥ c·Σa for every p, with equality at π:
//! the optimum is c·Σa, and finding it means embedding G into the zero pattern of e.
use crate::gene::Gene;
use crate::ops::random_permutation;
use crate::rng::Xoshiro128;

/// Additive constant of the distances: it makes the optimum non-zero, so gaps are defined.
pub const OFFSET: u16 = 10;

/// Fills `a` and `b` (n² each, row-major) and `solution` (n); returns the optimal cost.
/// `density_percent` is the share of arcs in G.
pub fn generate<G: Gene>(
    n: usize,
    density_percent: u32,
    seed: u64,
    a: &mut [u16],
    b: &mut [u16],
    solution: &mut [G],
) -> i64 {
    assert!(a.len() == n * n && b.len() == n * n && solution.len() == n);
    let mut rng = Xoshiro128::from_stream(seed, 0x0050_4C41_4E54_4544);
    random_permutation(&mut rng, solution);
    // Arcs of G and the distances they force to c.
    for x in b.iter_mut() {
        *x = u16::MAX; // "not yet fixed"
    }
    let mut flow_sum = 0i64;
    for i in 0..n {
        for j in 0..n {
            let arc = i != j && rng.below(100) < density_percent;
            a[i * n + j] = if arc { 1 + rng.below(9) as u16 } else { 0 };
            if arc {
                flow_sum += a[i * n + j] as i64;
                b[solution[i].at() * n + solution[j].at()] = OFFSET;
            }
        }
    }
    for k in 0..n {
        for l in 0..n {
            let x = &mut b[k * n + l];
            if k == l {
                *x = 0;
            } else if *x == u16::MAX {
                *x = OFFSET + 1 + rng.below(99) as u16;
            }
        }
    }
    OFFSET as i64 * flow_sum
}
