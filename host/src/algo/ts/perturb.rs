//! Perturbed regroupings (`--regroup-perturb`): iterated tabu search inside "go with the
//! winners". A walk that takes an elite walk's solution at a regrouping takes it after a few
//! random exchanges (`ops::random_swaps`), so that the walks sent to one elite walk search
//! around it rather than from its very solution. On the host, between two walk launches, for
//! both engines (`AcoEngine::restart_walks` then moves the solutions).
use crate::cpu::Mats;
use crate::io::Instance;
use crate::with_mats;
use qapgpu_common::ls::donor_rank;
use qapgpu_common::ops::random_swaps;
use qapgpu_common::rng::Xoshiro128;

/// The RNG stream of the perturbations, apart from every walk's and the GA's.
const PERTURB_STREAM: u64 = u64::MAX - 11;

/// Exchanges a perturbation makes for a share `share` of n: ⌈share·n / 2⌉ (a swap moves two
/// facilities), at least one; None for a share of 0.
pub fn swaps_for(share: f64, n: usize) -> Option<usize> {
    (share > 0.0).then(|| ((share * n as f64 / 2.0).ceil() as usize).max(1))
}

/// The perturbation's state: its strength, the matrices for the exact cost changes, and its
/// random stream (one per run, drawn in walk order: a run repeats for its seed).
pub struct Perturb {
    /// Exchanges a perturbation makes.
    pub swaps: usize,
    mats: Mats,
    n: usize,
    rng: Xoshiro128,
}

impl Perturb {
    /// `swaps` exchanges a perturbation on `inst`, the stream drawn from the run's `seed`.
    pub fn new(inst: &Instance, swaps: usize, seed: u64) -> Perturb {
        Perturb { swaps, mats: Mats::of(inst), n: inst.n, rng: Xoshiro128::from_stream(seed, PERTURB_STREAM) }
    }

    /// The starts of the walks outside the elite, as `elite::diverse_winners` ranked them
    /// (`winners`, elite `elite`): each its donor's current solution (`rows`, `stride` bytes
    /// apart, costs `costs`) after `swaps` random exchanges, with its exact cost.
    pub fn starts(
        &mut self,
        rows: &[u8],
        stride: usize,
        costs: &[i64],
        winners: &[u32],
        elite: u32,
    ) -> Vec<(usize, Vec<u8>, i64)> {
        let (m, n) = (costs.len(), self.n);
        let any = self.mats.dense(n);
        (0..m)
            .filter_map(|k| {
                let d = donor_rank(winners[k], elite)?;
                let from = winners[m + d as usize] as usize;
                let mut p = rows[from * stride..from * stride + n].to_vec();
                let change = with_mats!(&any, |a, b| random_swaps(&mut self.rng, a, b, &mut p, self.swaps));
                Some((k, p, costs[from] + change))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{Perturb, swaps_for};
    use crate::algo::ts::elite::diverse_winners;
    use crate::io::Instance;
    use qapgpu_common::ls::donor_rank;

    #[test]
    fn a_share_of_n_gives_half_as_many_swaps_and_at_least_one() {
        assert_eq!(swaps_for(0.0, 80), None);
        assert_eq!(swaps_for(0.1, 80), Some(4));
        assert_eq!(swaps_for(0.25, 100), Some(13));
        assert_eq!(swaps_for(0.001, 12), Some(1));
        assert_eq!(swaps_for(1.0, 7), Some(4));
    }

    #[test]
    fn walks_outside_the_elite_start_near_their_donor_at_its_exact_cost() {
        let (inst, _, _) = Instance::planted(12, 5);
        let n = inst.n;
        // Four walks (stride n + 1): 0 and 2 elite, 1 and 3 outside.
        let rows: Vec<u8> =
            (0..4u8).flat_map(|k| (0..n as u8).map(move |i| (i + 3 * k) % n as u8).chain([0])).collect();
        let costs: Vec<i64> = (0..4).map(|k| inst.cost(&rows[k * (n + 1)..k * (n + 1) + n])).collect();
        let (winners, e) = diverse_winners(&rows, n + 1, n, &costs, 2, 0);
        let mut perturb = Perturb::new(&inst, 3, 7);
        let starts = perturb.starts(&rows, n + 1, &costs, &winners, e);
        assert_eq!(starts.len(), 2, "the two walks outside the elite");
        let mut moved_any = false;
        for (k, p, cost) in &starts {
            assert!(winners[*k] >= e, "walk {k} is outside the elite");
            assert_eq!(*cost, inst.cost(p), "walk {k}'s cost is exact");
            assert!(crate::perm::is_permutation(p, n));
            let donor = donor_rank(winners[*k], e).map(|d| winners[4 + d as usize] as usize).expect("a donor");
            let moved = p.iter().zip(&rows[donor * (n + 1)..]).filter(|(x, y)| x != y).count();
            assert!(moved <= 6, "walk {k}: {moved} positions from its donor, at most two a swap");
            moved_any |= moved > 0;
        }
        assert!(moved_any, "the starts are perturbed");
        // The same seed draws the same starts.
        assert_eq!(Perturb::new(&inst, 3, 7).starts(&rows, n + 1, &costs, &winners, e), starts);
    }
}
