//! The cunning ant system (cAS, seed 003 §3): c-ant construction from a donor and
//! pheromone sampling, and the MAX–MIN pheromone update of Eqs. 1–2.
//!
//! τ is an n×n f32 matrix, facility-major: τ[i][ℓ] is the desire to put facility i on
//! location ℓ. Every f32 operation here runs in the same order on host and GPU (IEEE, no
//! contraction), so the kernels and the CPU twin keep bit-identical pheromone.
use crate::gene::Gene;
use crate::ls::uniform_f32;
use crate::rng::Xoshiro128;

/// Step 6: builds a c-ant in `out` from the donor `donor` (its unit's best ant): each
/// facility is resampled with probability γ (`gamma_threshold`, so E(l_s) = n·γ; at least
/// two, or the c-ant would be its donor), the others keep the donor's location. The freed
/// locations go to the resampled facilities, in random order, by roulette on τ.
/// `marked` and `free` are work space of n genes.
pub fn construct<G: Gene>(
    rng: &mut Xoshiro128,
    donor: &[G],
    tau: &[f32],
    gamma_threshold: u32,
    out: &mut [G],
    marked: &mut [G],
    free: &mut [G],
) {
    let n = donor.len();
    out.copy_from_slice(donor);
    let mut ls = 0;
    for i in 0..n {
        if rng.chance(gamma_threshold) {
            marked[ls] = G::of(i);
            ls += 1;
        }
    }
    while ls < 2 {
        let i = G::of(rng.below(n as u32) as usize);
        if !marked[..ls].contains(&i) {
            marked[ls] = i;
            ls += 1;
        }
    }
    for j in (1..ls).rev() {
        let x = rng.below(j as u32 + 1) as usize;
        marked.swap(j, x);
    }
    for j in 0..ls {
        free[j] = donor[marked[j].at()];
    }
    let mut left = ls;
    for &f in &marked[..ls] {
        let f = f.at();
        let row = &tau[f * n..(f + 1) * n];
        let mut sum = 0.0f32;
        for &l in &free[..left] {
            sum += row[l.at()];
        }
        let x = uniform_f32(rng) * sum;
        let (mut q, mut acc) = (0, row[free[0].at()]);
        while acc <= x && q + 1 < left {
            q += 1;
            acc += row[free[q].at()];
        }
        out[f] = free[q];
        free[q] = free[left - 1];
        left -= 1;
    }
}

/// Eq. 2: what unit k's best ant lays on each of its assignments, 1/C* (costs below 1,
/// which no QAPLIB instance has, lay as much as cost 1).
#[inline(always)]
pub fn deposit(cost: i64) -> f32 {
    1.0 / (if cost < 1 { 1 } else { cost }) as f32
}

/// Lays the pheromone of every unit's best ant on facility i's row, units in order.
/// `ants` holds m rows of `stride` genes.
#[inline(always)]
pub fn lay_row<G: Gene>(row: &mut [f32], i: usize, ants: &[G], stride: usize, costs: &[i64]) {
    for (k, &c) in costs.iter().enumerate() {
        row[ants[k * stride + i].at()] += deposit(c);
    }
}

/// Threads of the GPU's init kernel, a block an ant (`device::aco`): the ant's n² cost terms
/// spread over them (`cost::strided_cost`), where a warp an ant summed whole rows, one load
/// after another a lane (O(n²/32) loads a lane at n = 256). tai35b's 1056 walks: 10.7 µs
/// against 11.1 on the H100 (docs/benchmarks-record.md, "Launch costs again, β in B's place").
pub const INIT_THREADS: u32 = 128;

/// Threads of the GPU's best-so-far kernel, one block (`device::aco::aco_best`).
pub const BEST_THREADS: u32 = 1024;

/// The unit whose best ant costs least (the first among equals), and that cost. `costs`
/// is not empty.
#[inline(always)]
pub fn best_unit(costs: &[i64]) -> (usize, i64) {
    let (mut k, mut c) = (0, costs[0]);
    for (j, &x) in costs.iter().enumerate() {
        if x < c {
            (k, c) = (j, x);
        }
    }
    (k, c)
}

/// MAX–MIN bounds for the current best-so-far cost (MMAS, Stützle & Hoos):
/// τ_max = m / ((1 − ρ) · C_best), τ_min = τ_max (1 − p^(1/n)) / ((n/2 − 1) p^(1/n)).
/// Computed once on the host per iteration and handed to both engines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// τ_min.
    pub min: f32,
    /// τ_max.
    pub max: f32,
}

/// `t` held within `b`.
#[inline(always)]
pub fn clamp(t: f32, b: Bounds) -> f32 {
    if t < b.min {
        b.min
    } else if t > b.max {
        b.max
    } else {
        t
    }
}
