//! The Wilcoxon signed-rank test for paired samples (004 §4.4), two-sided.
//!
//! Zero differences are dropped (Wilcoxon's method). With at most `EXACT_MAX` non-zero
//! differences and no ties among their absolute values, the p-value comes from the exact
//! null distribution of the rank sum; otherwise from the normal approximation with average
//! ranks and the tie correction of the variance (no continuity correction). These are the
//! choices of `scipy.stats.wilcoxon` with `zero_method="wilcox"`; the tests hold its values.
use statrs::distribution::{ContinuousCDF, Normal};

/// Most non-zero differences for the exact distribution.
pub const EXACT_MAX: usize = 25;

/// The outcome of the two-sided test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignedRank {
    /// min(T⁺, T⁻), the rank sums of the positive and negative differences.
    pub statistic: f64,
    /// The two-sided p-value.
    pub p_value: f64,
    /// Non-zero differences.
    pub n: usize,
    /// Whether `p_value` is exact (else the normal approximation: ties, or more than `EXACT_MAX` differences).
    pub exact: bool,
    /// T⁺ < T⁻: the first sample tends to be the smaller.
    pub first_smaller: bool,
}

/// The test of `x` against `y` (paired, same length).
pub fn signed_rank(x: &[f64], y: &[f64]) -> SignedRank {
    assert_eq!(x.len(), y.len(), "paired samples");
    let mut d: Vec<f64> = x.iter().zip(y).map(|(a, b)| a - b).filter(|v| *v != 0.0).collect();
    let n = d.len();
    if n == 0 {
        return SignedRank { statistic: 0.0, p_value: 1.0, n, exact: true, first_smaller: false };
    }
    d.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    // Average ranks over runs of equal |d|, and the tie correction Σ(t³ − t).
    let (mut ranks, mut ties, mut i) = (vec![0.0; n], 0.0, 0);
    while i < n {
        let mut j = i;
        while j + 1 < n && d[j + 1].abs() == d[i].abs() {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        ranks[i..=j].fill(avg);
        let t = (j - i + 1) as f64;
        ties += t * t * t - t;
        i = j + 1;
    }
    // `+ 0.0`: an empty float sum is −0.0, which would print as "-0".
    let plus: f64 = d.iter().zip(&ranks).filter(|(v, _)| **v > 0.0).map(|(_, r)| r).sum::<f64>() + 0.0;
    let total = (n * (n + 1)) as f64 / 2.0;
    let minus = total - plus;
    let statistic = plus.min(minus);
    let exact = n <= EXACT_MAX && ties == 0.0;
    let p_value = if exact {
        (2.0 * exact_cdf(n, statistic as usize)).min(1.0)
    } else {
        let nf = n as f64;
        let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - ties / 48.0;
        if var <= 0.0 {
            1.0
        } else {
            let z = (plus - total / 2.0) / var.sqrt();
            let normal = Normal::new(0.0, 1.0).expect("standard normal");
            (2.0 * normal.sf(z.abs())).min(1.0)
        }
    };
    SignedRank { statistic, p_value, n, exact, first_smaller: plus < minus }
}

/// P(T ≤ t) for the rank sum T of a random subset of {1, …, n} (each subset equally likely).
fn exact_cdf(n: usize, t: usize) -> f64 {
    let max = n * (n + 1) / 2;
    let mut count = vec![0f64; max + 1];
    count[0] = 1.0;
    for k in 1..=n {
        for s in (k..=max).rev() {
            count[s] += count[s - k];
        }
    }
    count[..=t.min(max)].iter().sum::<f64>() / 2f64.powi(n as i32)
}

/// "A ≫ B" when A is significantly smaller (better) at `alpha`, "B ≫ A" the other way,
/// "–" when the test finds no difference.
pub fn verdict(a: &str, b: &str, r: &SignedRank, alpha: f64) -> String {
    match (r.p_value < alpha, r.first_smaller) {
        (false, _) => "–".into(),
        (true, true) => format!("{a} ≫ {b}"),
        (true, false) => format!("{b} ≫ {a}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference values from scipy 1.17.1, `scipy.stats.wilcoxon(x, y)` (exact) and
    /// `wilcoxon(x, y, method="approx")` (ties or zeros).
    #[test]
    #[allow(clippy::approx_constant)] // 3.14 is a sample of scipy's example, not π.
    fn matches_scipy() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9 * b.max(1e-3);
        // No ties, no zeros: exact.
        let r = signed_rank(
            &[1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30],
            &[0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29],
        );
        assert!(r.exact && r.statistic == 5.0 && close(r.p_value, 0.0390625), "{r:?}");
        let x: Vec<f64> = (1..=10).map(f64::from).collect();
        let y: Vec<f64> = (0..10).map(|k| 11.0 + 2.0 * k as f64).collect();
        let r = signed_rank(&x, &y);
        assert!(r.exact && r.statistic == 0.0 && close(r.p_value, 0.001953125) && r.first_smaller, "{r:?}");
        // A zero and tied |d|: normal approximation with the tie correction.
        let r = signed_rank(
            &[125.0, 115.0, 130.0, 140.0, 140.0, 115.0, 140.0, 125.0, 140.0, 135.0],
            &[110.0, 122.0, 125.0, 120.0, 140.0, 124.0, 123.0, 137.0, 135.0, 145.0],
        );
        assert!(!r.exact && r.statistic == 18.0 && close(r.p_value, 0.5936305914425295), "{r:?}");
        let r = signed_rank(
            &[3.0, 5.0, 2.0, 8.0, 9.0, 4.0, 4.0, 6.0, 7.0, 1.0, 12.0, 3.0],
            &[1.0, 2.0, 2.0, 3.0, 5.0, 1.0, 2.0, 2.0, 1.0, 1.0, 4.0, 6.0],
        );
        assert!(!r.exact && r.statistic == 4.0 && close(r.p_value, 0.016184453851159696), "{r:?}");
        let r = signed_rank(
            &[5.0, 5.0, 7.0, 7.0, 9.0, 9.0, 3.0, 3.0, 4.0, 4.0],
            &[4.0, 6.0, 6.0, 8.0, 8.0, 10.0, 3.0, 3.0, 2.0, 6.0],
        );
        assert!(r.statistic == 18.0 && close(r.p_value, 1.0), "{r:?}");
    }

    #[test]
    fn identical_samples_show_no_difference() {
        let r = signed_rank(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]);
        assert_eq!((r.n, r.p_value), (0, 1.0));
        assert_eq!(verdict("8n", "4n", &r, 0.05), "–");
    }

    #[test]
    fn verdict_names_the_better_sample() {
        let x: Vec<f64> = (1..=10).map(f64::from).collect();
        let y: Vec<f64> = x.iter().map(|v| v + 100.0).collect();
        assert_eq!(verdict("8n", "4n", &signed_rank(&x, &y), 0.05), "8n ≫ 4n");
        assert_eq!(verdict("8n", "4n", &signed_rank(&y, &x), 0.05), "4n ≫ 8n");
    }
}
