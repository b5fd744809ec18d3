//! Time to the best-known value for several algorithms on the same instances, with the
//! same runs, limits and seeds (the issue's "time to the optimum against the project's
//! other algorithms").
use super::{RunRecord, Table, fmt, load, mean_sd, runs};
use crate::algo::{Backend, Options, family};
use anyhow::Result;
use std::time::Duration;

pub fn protocol(backend: &Backend, base: &Options, names: &[String], algos: &[String], n_runs: usize, limit: Duration) -> Result<Table> {
    for a in algos {
        family(a)?;
    }
    let mut t = Table::new(&["instance", "algorithm", "runs", "#reached", "T_avg (s)", "σ", "median (s)", "worst cost"]);
    for name in names {
        let (inst, known) = load(name)?;
        for algo in algos {
            let opts = Options { algorithm: Some(algo.clone()), target: Some(known), ..base.clone() };
            let recs = runs(backend, &inst, &opts, n_runs, limit)?;
            let ok = RunRecord::successes(&recs);
            let (m, s) = mean_sd(&ok);
            t.push(vec![
                name.clone(),
                algo.clone(),
                recs.len().to_string(),
                ok.len().to_string(),
                fmt(m),
                fmt(s),
                fmt(super::median(&ok)),
                recs.iter().map(|r| r.cost).max().map_or("–".into(), |c| c.to_string()),
            ]);
        }
    }
    Ok(t)
}
