//! Seed 001, Table I: the effect of the restart strategy. Per instance, single-block runs
//! (one subpopulation of 128: the paper emulated one GPU block on one CPU thread) without
//! restarts, then with them, each stopping at the acceptable cost or at the time limit;
//! #OPT, and T_avg, Min and Max of the runs that reached it, the paper's beside.
use super::{reached, single_block_times};
use crate::algo::{Backend, Options};
use crate::bench::{Table, fmt, fmt_secs, mean_sd, ratio};
use anyhow::Result;
use std::time::Duration;

/// One side of a Table I row: #OPT out of 30, then T_avg, Min and Max of those runs in
/// seconds (NaN: the paper's "-", no run reached the target).
pub type Side = (usize, f64, f64, f64);

const NONE: Side = (0, f64::NAN, f64::NAN, f64::NAN);

/// The paper's runs per instance.
pub const PAPER_RUNS: usize = 30;

/// Table I (Intel Core i7 965, one block emulated, p_m = 0.1): per instance, without
/// restarts, then with them (B_rate = 0.6, checked every 50 generations).
pub const TABLE_I: &[(&str, Side, Side)] = &[
    ("tai25b", (6, 0.07, 0.05, 0.10), (30, 0.07, 0.05, 3.77)),
    ("kra30a", (1, 0.27, 0.27, 0.27), (30, 10.03, 0.27, 61.13)),
    ("kra30b", NONE, (30, 25.20, 0.45, 92.24)),
    ("tai30b", NONE, (30, 3.96, 0.39, 12.53)),
    ("kra32", NONE, (30, 10.70, 0.33, 59.52)),
    ("tai35b", NONE, (30, 29.69, 2.53, 137.72)),
    ("ste36b", NONE, (30, 17.00, 0.73, 45.10)),
    ("tai40b", (1, 0.30, 0.30, 0.30), (30, 6.96, 0.30, 20.96)),
    ("tai50b", NONE, (30, 48.07, 1.12, 147.37)),
];

/// The protocol over `names`: `n_runs` single-block runs (`single_block_times`: on a GPU all
/// at once, one block each, each stopping alone at the target) without and with restarts,
/// each run capped at `limit`.
pub fn protocol(backend: &Backend, base: &Options, names: &[String], n_runs: usize, limit: Duration) -> Result<Table> {
    let mut t = Table::new(&[
        "instance",
        "restarts",
        "runs",
        "#OPT",
        "failed (time limit)",
        "T_avg (s)",
        "Min (s)",
        "Max (s)",
        "paper #OPT (of 30)",
        "paper T_avg",
        "paper Min",
        "paper Max",
        "paper/ours T_avg",
    ]);
    for name in names {
        let (inst, opts) = super::case(name, base)?;
        let paper = TABLE_I.iter().find(|r| r.0 == name.as_str());
        for restarts in [false, true] {
            let mut o = opts.clone();
            o.ga.restarts = Some(restarts);
            let times = single_block_times(backend, &inst, &o, n_runs, limit)?;
            t.push(row(name, restarts, &times, paper.map(|r| if restarts { r.2 } else { r.1 })));
        }
    }
    Ok(t)
}

/// A row: ours from `times` (None: failed at the time limit), the paper's `side`. The
/// paper/ours ratio only where every run of both reached the target: a mean over the
/// successes of a censored sample is no time to compare.
fn row(name: &str, restarts: bool, times: &[Option<f64>], side: Option<Side>) -> Vec<String> {
    let (ok, failed) = reached(times);
    let (mean, _) = mean_sd(&ok);
    let complete = failed == 0 && !ok.is_empty();
    let paper_mean = side.filter(|s| s.0 == PAPER_RUNS && complete).map(|s| s.1);
    let cell = |x: Option<f64>| x.map_or("–".into(), fmt);
    let mut r = vec![
        name.into(),
        if restarts { "yes" } else { "no" }.into(),
        times.len().to_string(),
        ok.len().to_string(),
        failed.to_string(),
        fmt_secs(mean),
        fmt_secs(ok.iter().copied().fold(f64::NAN, f64::min)),
        fmt_secs(ok.iter().copied().fold(f64::NAN, f64::max)),
    ];
    r.push(side.map_or("–".into(), |s| s.0.to_string()));
    r.extend([cell(side.map(|s| s.1)), cell(side.map(|s| s.2)), cell(side.map(|s| s.3))]);
    r.push(if paper_mean.is_some() { ratio(paper_mean, mean) } else { "–".into() });
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transcription_holds_together() {
        for &(name, off, on) in TABLE_I {
            assert_eq!(on.0, PAPER_RUNS, "with restarts every run reached the target: {name}");
            for s in [off, on] {
                assert_eq!(s.0 == 0, s.1.is_nan(), "{name}");
                // A mean of #OPT times from Min to Max lies within these bounds (0.01 s of
                // rounding), except tai25b's with restarts as printed: 0.07 where 29 runs
                // of 0.05 s and one of 3.77 s make 0.174 at least (Table III: 0.82).
                let n = s.0 as f64;
                let (lo, hi) = ((s.2 * (n - 1.0) + s.3) / n, (s.2 + s.3 * (n - 1.0)) / n);
                let fits = s.0 == 0 || (lo - 0.01 <= s.1 && s.1 <= hi + 0.01);
                assert_eq!(fits, !(name == "tai25b" && s == on), "{name}: {s:?}");
            }
        }
        assert!(TABLE_I.iter().any(|r| r.0 == "kra32"));
    }

    #[test]
    fn censored_rows_get_no_ratio() {
        let side = Some((30, 1.0, 0.5, 2.0));
        let all = row("x", true, &[Some(0.5), Some(1.5)], side);
        assert_eq!((all[3].as_str(), all[4].as_str(), all[12].as_str()), ("2", "0", "1.0×"));
        let one_failed = row("x", true, &[Some(0.5), None], side);
        assert_eq!((one_failed[3].as_str(), one_failed[4].as_str(), one_failed[12].as_str()), ("1", "1", "–"));
        let paper_failed = row("x", false, &[Some(0.5)], Some((1, 0.3, 0.3, 0.3)));
        assert_eq!(paper_failed[12], "–");
    }
}
