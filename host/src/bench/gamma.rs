//! Seed 001's analytical model: fit a gamma distribution to single-block run times and
//! predict the mean time of p independent blocks, M(p) = ∫₀^∞ (1 − F(t))^p dt (Eqs. 2–5).
use statrs::function::gamma::{digamma, gamma_lr};

/// A gamma distribution, by its shape k and scale θ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GammaFit {
    /// k.
    pub shape: f64,
    /// θ.
    pub scale: f64,
}

impl GammaFit {
    /// Maximum-likelihood fit (the paper fitted by least squares on the histogram; MLE uses
    /// every run time and needs no binning). Needs at least two positive, not all equal, times.
    pub fn fit(times: &[f64]) -> Option<GammaFit> {
        let xs: Vec<f64> = times.iter().copied().filter(|&t| t > 0.0).collect();
        if xs.len() < 2 {
            return None;
        }
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let mean_log = xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64;
        let s = mean.ln() - mean_log;
        if s <= 1e-12 {
            return None;
        }
        // Minka's starting point, then Newton on ln k − ψ(k) = s.
        let mut k = (3.0 - s + ((s - 3.0).powi(2) + 24.0 * s).sqrt()) / (12.0 * s);
        for _ in 0..50 {
            let f = k.ln() - digamma(k) - s;
            let h = 1e-6 * k;
            let df = ((k + h).ln() - digamma(k + h) - (k - h).ln() + digamma(k - h)) / (2.0 * h);
            let next = (k - f / df).max(k / 10.0);
            if (next - k).abs() < 1e-12 * k {
                k = next;
                break;
            }
            k = next;
        }
        Some(GammaFit { shape: k, scale: mean / k })
    }

    /// Its mean, kθ.
    pub fn mean(&self) -> f64 {
        self.shape * self.scale
    }

    /// F(t), the probability of a time at most `t`.
    pub fn cdf(&self, t: f64) -> f64 {
        if t <= 0.0 { 0.0 } else { gamma_lr(self.shape, t / self.scale) }
    }

    /// M(p): expected time until the first of p independent blocks succeeds.
    pub fn mean_of_min(&self, p: u32) -> f64 {
        let surv = |t: f64| (1.0 - self.cdf(t)).powi(p as i32);
        let mut hi = self.mean();
        while surv(hi) > 1e-12 {
            hi *= 2.0;
        }
        // Composite Simpson on [0, hi]; the integrand is smooth and decreasing.
        let steps = 20_000;
        let h = hi / steps as f64;
        let mut acc = surv(0.0) + surv(hi);
        for k in 1..steps {
            acc += surv(k as f64 * h) * if k % 2 == 1 { 4.0 } else { 2.0 };
        }
        acc * h / 3.0
    }
}
