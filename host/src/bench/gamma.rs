//! Seed 001's analytical model: fit a gamma distribution to single-block run times and
//! predict the mean time of p independent blocks, M(p) = ∫₀^∞ (1 − F(t))^p dt (Eqs. 2–5).
//! Fig. 6's comparison: least-squares fits of a gamma and of a normal distribution to the
//! empirical distribution of the run times, censored runs included in its denominator.
use super::mean_sd;
use super::ttt::ttt_points;
use statrs::distribution::{ContinuousCDF, Normal};
use statrs::function::gamma::{checked_gamma_lr, digamma};

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

    /// F(t), the probability of a time at most `t` (NaN where k or t/θ is 0 or infinite).
    pub fn cdf(&self, t: f64) -> f64 {
        if t <= 0.0 { 0.0 } else { checked_gamma_lr(self.shape, t / self.scale).unwrap_or(f64::NAN) }
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

/// A normal distribution, by its mean and standard deviation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NormalFit {
    /// μ.
    pub mean: f64,
    /// σ.
    pub sd: f64,
}

impl NormalFit {
    /// F(t) (NaN for σ ≤ 0).
    pub fn cdf(&self, t: f64) -> f64 {
        Normal::new(self.mean, self.sd).map_or(f64::NAN, |d| d.cdf(t))
    }
}

/// The fewest runs that reached the target a least-squares fit takes.
pub const MIN_FIT_RUNS: usize = 5;

/// Least-squares fits of the empirical distribution of run times, as seed 001 compares them
/// (Fig. 6). The i-th fastest of the runs that reached the target stands at (i − ½)/R, R
/// counting every run: a run censored at the time limit is slower than all of them, so the
/// points are those of the full sample, and the fits use no censored time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CdfFits {
    /// R: the runs, censored ones included.
    pub runs: usize,
    /// The runs censored at the time limit.
    pub censored: usize,
    /// The gamma distribution of least squares.
    pub gamma: GammaFit,
    /// Its residual sum of squares.
    pub gamma_rss: f64,
    /// The normal distribution of least squares.
    pub normal: NormalFit,
    /// Its residual sum of squares.
    pub normal_rss: f64,
}

impl CdfFits {
    /// Fits `times` (of the runs that reached the target) out of `runs`; None with fewer
    /// than `MIN_FIT_RUNS` times or all of them equal.
    pub fn fit(times: &[f64], runs: usize) -> Option<CdfFits> {
        let mut xs: Vec<f64> = times.iter().copied().filter(|t| t.is_finite() && *t > 0.0).collect();
        xs.sort_by(f64::total_cmp);
        let (m, s) = mean_sd(&xs);
        if xs.len() < MIN_FIT_RUNS || s <= 0.0 {
            return None;
        }
        let points = ttt_points(&xs, runs.max(xs.len()));
        let gamma_of = |p: [f64; 2]| GammaFit { shape: p[0].exp(), scale: p[1].exp() };
        let normal_of = |p: [f64; 2]| NormalFit { mean: p[0], sd: p[1].exp() };
        // k within e^±14: the incomplete gamma function's series is slow beyond. Starts: the
        // moments of the uncensored times.
        let gamma_rss =
            |p: [f64; 2]| if p[0].abs() > 14.0 { f64::INFINITY } else { rss(&points, |t| gamma_of(p).cdf(t)) };
        let g = nelder_mead(gamma_rss, [(m * m / (s * s)).ln(), (s * s / m).ln()], [0.5; 2]);
        let n = nelder_mead(|p| rss(&points, |t| normal_of(p).cdf(t)), [m, s.ln()], [s / 2.0, 0.5]);
        let (gamma, normal) = (gamma_of(g), normal_of(n));
        Some(CdfFits {
            runs: runs.max(xs.len()),
            censored: runs.saturating_sub(xs.len()),
            gamma,
            gamma_rss: rss(&points, |t| gamma.cdf(t)),
            normal,
            normal_rss: rss(&points, |t| normal.cdf(t)),
        })
    }

    /// The distribution with the smaller residual sum of squares: "gamma" or "normal".
    pub fn better(&self) -> &'static str {
        if self.gamma_rss <= self.normal_rss { "gamma" } else { "normal" }
    }
}

/// Σ (F(t) − p)² over the points (t, p); +∞ where F is not a number.
fn rss(points: &[(f64, f64)], cdf: impl Fn(f64) -> f64) -> f64 {
    let r: f64 = points.iter().map(|&(t, p)| (cdf(t) - p).powi(2)).sum();
    if r.is_nan() { f64::INFINITY } else { r }
}

/// `a + w (b − a)`, coordinate by coordinate.
fn toward(a: [f64; 2], b: [f64; 2], w: f64) -> [f64; 2] {
    [a[0] + w * (b[0] - a[0]), a[1] + w * (b[1] - a[1])]
}

/// A Nelder–Mead simplex in the plane: three points and their values.
struct Simplex {
    x: [[f64; 2]; 3],
    v: [f64; 3],
}

impl Simplex {
    fn new(f: &impl Fn([f64; 2]) -> f64, at: [f64; 2], step: [f64; 2]) -> Simplex {
        let x = [at, [at[0] + step[0], at[1]], [at[0], at[1] + step[1]]];
        Simplex { x, v: x.map(f) }
    }

    /// Orders the points best first; whether the simplex has shrunk to a point.
    fn sort(&mut self) -> bool {
        let mut order = [0, 1, 2];
        order.sort_by(|&i, &j| self.v[i].total_cmp(&self.v[j]));
        (self.x, self.v) = (order.map(|i| self.x[i]), order.map(|i| self.v[i]));
        let [b, p, q] = self.x;
        let size = (0..2).map(|k| (p[k] - b[k]).abs().max((q[k] - b[k]).abs())).fold(0.0, f64::max);
        size < 1e-12 * (1.0 + b[0].abs() + b[1].abs())
    }

    /// One step on a sorted simplex: the worst point reflected through the others'
    /// centroid, the reflection expanded or contracted, or the simplex shrunk to the best.
    fn step(&mut self, f: &impl Fn([f64; 2]) -> f64) {
        let (x, v) = (self.x, self.v);
        let c = toward(x[0], x[1], 0.5);
        let r = toward(c, x[2], -1.0);
        let fr = f(r);
        let new = if fr < v[0] {
            let e = toward(c, x[2], -2.0);
            let fe = f(e);
            if fe < fr { (e, fe) } else { (r, fr) }
        } else if fr < v[1] {
            (r, fr)
        } else {
            let k = toward(c, x[2], if fr < v[2] { -0.5 } else { 0.5 });
            let fk = f(k);
            if fk >= fr.min(v[2]) {
                for i in 1..3 {
                    self.x[i] = toward(x[0], x[i], 0.5);
                    self.v[i] = f(self.x[i]);
                }
                return;
            }
            (k, fk)
        };
        (self.x[2], self.v[2]) = new;
    }
}

/// The minimum of `f` near `start` by the Nelder–Mead simplex, first steps `step`,
/// restarted once from its answer (a collapsed simplex can stop short of the minimum).
fn nelder_mead(f: impl Fn([f64; 2]) -> f64, start: [f64; 2], step: [f64; 2]) -> [f64; 2] {
    let mut best = start;
    for _ in 0..2 {
        let mut s = Simplex::new(&f, best, step);
        for _ in 0..4000 {
            if s.sort() {
                break;
            }
            s.step(&f);
        }
        s.sort();
        best = s.x[0];
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::distribution::Gamma;

    /// The (i − ½)/R quantiles of `inverse`: a sample without sampling noise.
    fn quantiles(runs: usize, inverse: impl Fn(f64) -> f64) -> Vec<f64> {
        (0..runs).map(|i| inverse((i as f64 + 0.5) / runs as f64)).collect()
    }

    fn gamma_sample(shape: f64, scale: f64, runs: usize) -> Vec<f64> {
        let d = Gamma::new(shape, 1.0 / scale).unwrap();
        quantiles(runs, |p| d.inverse_cdf(p))
    }

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs()
    }

    #[test]
    fn least_squares_recovers_a_gamma_sample() {
        let fits = CdfFits::fit(&gamma_sample(2.0, 3.0, 100), 100).unwrap();
        assert!(close(fits.gamma.shape, 2.0, 1e-3) && close(fits.gamma.scale, 3.0, 1e-3), "{fits:?}");
        assert!(fits.gamma_rss < 1e-8, "{fits:?}");
        assert_eq!((fits.runs, fits.censored, fits.better()), (100, 0, "gamma"));
    }

    #[test]
    fn censored_runs_count_in_the_distribution_but_not_as_times() {
        // The slowest 20 of 100 runs hit the time limit: the fit of the other 80 still finds
        // the whole sample's distribution.
        let sample = gamma_sample(1.5, 10.0, 100);
        let fits = CdfFits::fit(&sample[..80], 100).unwrap();
        assert!(close(fits.gamma.shape, 1.5, 1e-3) && close(fits.gamma.scale, 10.0, 1e-3), "{fits:?}");
        assert_eq!((fits.runs, fits.censored), (100, 20));
        // Fitting the 80 as if they were all the runs gives a faster distribution.
        assert!(CdfFits::fit(&sample[..80], 80).unwrap().gamma.mean() < 0.8 * fits.gamma.mean());
    }

    #[test]
    fn least_squares_recovers_a_normal_sample() {
        let d = Normal::new(20.0, 2.0).unwrap();
        let fits = CdfFits::fit(&quantiles(60, |p| d.inverse_cdf(p)), 60).unwrap();
        assert!(close(fits.normal.mean, 20.0, 1e-4) && close(fits.normal.sd, 2.0, 1e-3), "{fits:?}");
        assert_eq!(fits.better(), "normal");
    }

    #[test]
    fn a_skewed_sample_is_fitted_better_by_the_gamma() {
        // Exponential and log-normal run times: skewed to the right, as seed 001's are.
        let exponential = quantiles(30, |p| -(1.0 - p).ln());
        let z = Normal::new(0.0, 0.8).unwrap();
        let lognormal = quantiles(30, |p| z.inverse_cdf(p).exp());
        for sample in [exponential, lognormal] {
            let fits = CdfFits::fit(&sample, 30).unwrap();
            assert_eq!(fits.better(), "gamma", "{fits:?}");
            assert!(fits.gamma_rss < 0.5 * fits.normal_rss, "{fits:?}");
        }
    }

    #[test]
    fn too_few_or_equal_times_are_not_fitted() {
        assert_eq!(CdfFits::fit(&[1.0, 2.0, 3.0, 4.0], 30), None);
        assert_eq!(CdfFits::fit(&[2.0; 10], 10), None);
    }
}
