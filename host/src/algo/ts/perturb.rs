//! Perturbed regroupings (`--regroup-perturb`): iterated tabu search inside "go with the
//! winners". A walk that takes an elite walk's solution at a regrouping takes it after a few
//! random exchanges (`ops::random_exchanges`), so that the walks sent to one elite walk
//! search around it rather than from its very solution. Queued behind the regrouping on
//! either engine (`AcoEngine::perturb_walks`: `ts_perturb_walks_*` on the GPU, its twin
//! `AcoCpu::perturb_regrouped`), with no round trip to the host.

/// Exchanges a perturbation makes for a share `share` of n: ⌈share·n / 2⌉ (a swap moves two
/// facilities), at least one; None for a share of 0.
pub fn swaps_for(share: f64, n: usize) -> Option<u32> {
    (share > 0.0).then(|| ((share * n as f64 / 2.0).ceil() as u32).max(1))
}

#[cfg(test)]
mod tests {
    use super::swaps_for;

    #[test]
    fn a_share_of_n_gives_half_as_many_swaps_and_at_least_one() {
        assert_eq!(swaps_for(0.0, 80), None);
        assert_eq!(swaps_for(0.1, 80), Some(4));
        assert_eq!(swaps_for(0.25, 100), Some(13));
        assert_eq!(swaps_for(0.001, 12), Some(1));
        assert_eq!(swaps_for(1.0, 7), Some(4));
    }
}
