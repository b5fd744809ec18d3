//! `--algo auto`, the default: the family from the instance's measurable features, never
//! from its name. The rule follows the time-to-target measurements of BENCHMARKS.md
//! ("`ts` against `aco-ts`", one H200): the multi-start tabu search (`ts`) reaches the
//! targets first up to n = 40 whatever the structure, and up to n = 64 on instances whose
//! matrices both have a low dominance (uniform random data, the tai*a class); the cunning
//! ant system with tabu search (`aco-ts`) is faster on larger or structured instances
//! (tai50b–tai100b, tai80a, tai100a). n = 2 goes to `ga-independent` (the local searches
//! need n ≥ 3).
use crate::io::Instance;

/// Largest n for which `ts` is chosen whatever the matrices.
pub const TS_ANY_N: usize = 40;
/// Largest n for which `ts` is chosen when both dominances are below `LOW_DOMINANCE`.
pub const TS_UNIFORM_N: usize = 64;
/// Dominance (100·σ/μ of a matrix's entries, in %) below which data looks uniform random:
/// tai*a have 59–63 % in both matrices, the structured tai*b over 300 % in one.
pub const LOW_DOMINANCE: f64 = 100.0;

/// 100 · standard deviation / |mean| of the entries; infinite for a zero mean (a matrix of
/// zeros or one balanced around 0, as posed problems have, is not uniform random data).
pub fn dominance(m: &[i64]) -> f64 {
    let n = m.len() as f64;
    let mean = m.iter().map(|&x| x as f64).sum::<f64>() / n;
    if mean == 0.0 {
        return f64::INFINITY;
    }
    let var = m.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / n;
    100.0 * var.sqrt() / mean.abs()
}

/// The family for `inst` and why, in words.
pub fn choose(inst: &Instance) -> (&'static str, String) {
    let n = inst.n;
    if n < 3 {
        return ("ga-independent", format!("n = {n}: no local search below 3"));
    }
    if n <= TS_ANY_N {
        return ("ts", format!("n = {n} ≤ {TS_ANY_N}"));
    }
    let d = dominance(&inst.a).max(dominance(&inst.b));
    if n <= TS_UNIFORM_N && d < LOW_DOMINANCE {
        return ("ts", format!("n = {n} ≤ {TS_UNIFORM_N} and dominances below {LOW_DOMINANCE} % (max {d:.0} %)"));
    }
    ("aco-ts", format!("n = {n}, max dominance {d:.0} %"))
}
