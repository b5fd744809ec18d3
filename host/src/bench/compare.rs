//! Time to the best-known value for several algorithms on the same instances, with the
//! same runs, limits and seeds (the issue's "time to the optimum against the project's
//! other algorithms"); every run is also logged (`RunLog`).
use super::{RunLog, RunRecord, Table, engine_label, fmt_secs, load, mean_sd, runs_all};
use crate::algo::{Backend, Options};
use anyhow::Result;
use std::time::Duration;

/// `gap`: the target in percent above the best-known value. Returns the table and the log
/// of every run.
pub fn protocol(
    backends: &[Backend],
    base: &Options,
    names: &[String],
    algos: &[String],
    n_runs: usize,
    limit: Duration,
    gap: f64,
) -> Result<(Table, RunLog)> {
    for a in algos {
        crate::algo::check_name(a)?;
    }
    let mut t = Table::new(&[
        "instance",
        "target",
        "algorithm",
        "runs",
        "#reached",
        "T_avg (s)",
        "σ",
        "median (s)",
        "worst cost",
    ]);
    let (mut log, engine) = (RunLog::default(), engine_label(backends));
    for name in names {
        let (inst, known) = load(name)?;
        let target = super::within(known, gap);
        for algo in algos {
            let opts = Options { algorithm: Some(algo.clone()), target: Some(target), ..base.clone() };
            let recs = runs_all(backends, &inst, &opts, n_runs, limit)?;
            log.add(name, target, algo, &engine, base.seed, &recs);
            let ok = RunRecord::successes(&recs);
            let (m, s) = mean_sd(&ok);
            t.push(vec![
                name.clone(),
                target.to_string(),
                algo.clone(),
                recs.len().to_string(),
                ok.len().to_string(),
                fmt_secs(m),
                fmt_secs(s),
                fmt_secs(super::median(&ok)),
                recs.iter().map(|r| r.cost).max().map_or("–".into(), |c| c.to_string()),
            ]);
        }
    }
    Ok((t, log))
}
