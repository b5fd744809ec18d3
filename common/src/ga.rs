//! One individual's share of a generation of the base GA model (seeds 000 and 001):
//! partner j ≠ i at random, one PMX (or OX) child, swap mutation with p_m, evaluation.
//! A GPU thread runs this for its individual; the CPU engine loops over individuals.
use crate::cost::cost;
use crate::elem::Elem;
use crate::matrix::Matrix;
use crate::ops::{cut_points, ox, pmx, random_permutation, swap_mutation};
use crate::rng::Xoshiro128;

/// Probability p in [0, 1] as a threshold for `Xoshiro128::chance` (p = 1 gives 2³² − 1).
pub fn probability_threshold(p: f64) -> u32 {
    let t = p.clamp(0.0, 1.0) * 4_294_967_296.0;
    if t >= u32::MAX as f64 { u32::MAX } else { t as u32 }
}

/// Number of best-cost copies that makes a subpopulation restart: ⌈N · B_rate⌉.
pub fn restart_count(subpop: u32, b_rate: f64) -> u32 {
    let c = subpop as f64 * b_rate;
    let f = c as u32;
    if (f as f64) < c { f + 1 } else { f }
}

/// Index of individual i's partner, uniform over the other `subpop − 1` slots.
#[inline(always)]
pub fn pick_partner(rng: &mut Xoshiro128, i: usize, subpop: usize) -> usize {
    let j = rng.below(subpop as u32 - 1) as usize;
    if j >= i { j + 1 } else { j }
}

/// The crossover of the base GA model: PMX, the papers' choice, or OX, which they tried
/// first and found "much worse" on QAPs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Crossover {
    /// Partially mapped crossover (`ops::pmx`).
    #[default]
    Pmx,
    /// Order crossover (`ops::ox`).
    Ox,
}

/// Steps 3–5 for one individual: child = crossover(parent, partner) then swap mutation;
/// returns the child's cost. Both crossovers draw the same cut points.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn breed<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    rng: &mut Xoshiro128,
    parent: &[u8],
    partner: &[u8],
    child: &mut [u8],
    a: &A,
    b: &B,
    pm_threshold: u32,
    crossover: Crossover,
) -> i64 {
    let (lo, hi) = cut_points(rng, parent.len());
    match crossover {
        Crossover::Pmx => pmx(parent, partner, child, lo, hi),
        Crossover::Ox => ox(parent, partner, child, lo, hi),
    }
    swap_mutation(rng, child, pm_threshold);
    cost(a, b, child)
}

/// A fresh random individual (initialisation and restarts); returns its cost.
#[inline(always)]
pub fn fresh<E: Elem, A: Matrix<E>, B: Matrix<E>>(rng: &mut Xoshiro128, row: &mut [u8], a: &A, b: &B) -> i64 {
    random_permutation(rng, row);
    cost(a, b, row)
}
