//! `bench gaps`: every instance of the QAPLIB folder that has a best-known value, solved
//! for a fixed time each (the "within 1 s per instance" measurement): the final gap to the
//! best known per algorithm, and the means over all instances and over the tai*a class.
use super::{RunRecord, Table, load, mean_sd, runs_all};
use crate::algo::{Backend, Options};
use crate::io::qaplib;
use anyhow::Result;
use std::time::Duration;

/// Instance names of the QAPLIB folder with a best-known value, smallest n first.
pub fn all_instances() -> Vec<String> {
    let mut v: Vec<(usize, String)> = std::fs::read_dir(qaplib::qaplib_dir())
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            let name = p.file_stem()?.to_string_lossy().into_owned();
            (p.extension()? == "dat").then_some(())?;
            let inst = qaplib::read_dat(&p).ok()?;
            qaplib::best_known(&p, &inst.name)?;
            Some((inst.n, name))
        })
        .collect();
    v.sort();
    v.into_iter().map(|(_, n)| n).collect()
}

/// `run::gap_percent`, and 100·cost for a best-known value of 0.
fn gap(cost: i64, known: i64) -> f64 {
    crate::run::gap_percent(cost, Some(known)).unwrap_or(100.0 * cost as f64)
}

pub fn protocol(backends: &[Backend], base: &Options, names: &[String], algos: &[String], n_runs: usize, limit: Duration) -> Result<Table> {
    for a in algos {
        crate::algo::check_name(a)?;
    }
    let mut header = vec!["instance".to_string(), "n".into(), "best known".into()];
    header.extend(algos.iter().map(|a| format!("{a} gap %")));
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut t = Table::new(&header);
    let mut sums: Vec<(Vec<f64>, Vec<f64>)> = vec![(Vec::new(), Vec::new()); algos.len()];
    for name in names {
        let (inst, known) = load(name)?;
        let mut row = vec![name.clone(), inst.n.to_string(), known.to_string()];
        for (k, algo) in algos.iter().enumerate() {
            let opts = Options { algorithm: Some(algo.clone()), target: Some(known), ..base.clone() };
            let recs: Vec<RunRecord> = runs_all(backends, &inst, &opts, n_runs, limit)?;
            let gaps: Vec<f64> = recs.iter().map(|r| gap(r.cost, known)).collect();
            let (m, _) = mean_sd(&gaps);
            sums[k].0.push(m);
            if name.starts_with("tai") && name.ends_with('a') {
                sums[k].1.push(m);
            }
            row.push(format!("{m:.3}"));
        }
        t.push(row);
    }
    for (label, pick) in [("mean, all", 0), ("mean, tai*a", 1)] {
        let mut row = vec![label.to_string(), String::new(), String::new()];
        for s in &sums {
            let v = if pick == 0 { &s.0 } else { &s.1 };
            row.push(format!("{:.4}", mean_sd(v).0));
        }
        t.push(row);
    }
    Ok(t)
}
