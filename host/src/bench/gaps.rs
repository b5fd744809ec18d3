//! `bench gaps`: every instance of the QAPLIB folder that has a best-known value, solved
//! for a fixed time each (the "within 1 s per instance" measurement): the final gap to the
//! best known per algorithm, and the means over all instances and over the tai*a class.
use super::{RunRecord, Table, load, mean_sd, runs_all};
use crate::algo::{Backend, Options};
use crate::io::qaplib;
use anyhow::{Context, Result, ensure};
use std::time::Duration;

/// Instance names of the QAPLIB folder with a best-known value, smallest n first.
///
/// Every `.dat` of the folder is read first, through the bounded input path: one that
/// cannot be (a device, a FIFO, a broken file) stops the protocol before any run, with an
/// error that names each such file, rather than a row left out of a table that claims
/// "every instance". An instance without a best-known value of its n has no gap to
/// measure: it is left out, and counted in a note on stderr.
pub fn all_instances() -> Result<Vec<String>> {
    let dir = qaplib::qaplib_dir();
    let listing = std::fs::read_dir(&dir)
        .with_context(|| format!("bench gaps: cannot list the QAPLIB folder {}", dir.display()))?;
    let (mut found, mut unreadable, mut without) = (Vec::new(), Vec::new(), 0usize);
    for entry in listing {
        let p = entry.with_context(|| format!("bench gaps: cannot list the QAPLIB folder {}", dir.display()))?.path();
        if p.extension().is_none_or(|e| e != "dat") {
            continue;
        }
        match qaplib::read_dat(&p) {
            Err(e) => unreadable.push(e.to_string()),
            Ok(inst) if qaplib::best_known(&p, &inst).value().is_some() => {
                // The file's name, or (not UTF-8) its path, which the tables then show.
                let name =
                    p.file_stem().and_then(|s| s.to_str()).map_or_else(|| qaplib::name_of(p.as_os_str()), String::from);
                found.push((inst.n, name));
            }
            Ok(_) => without += 1,
        }
    }
    unreadable.sort();
    ensure!(
        unreadable.is_empty(),
        "bench gaps: {} .dat file(s) of {} cannot be read, so no table of every instance can be made: {} (move them away, or name the instances with --instances)",
        unreadable.len(),
        dir.display(),
        unreadable.join("; ")
    );
    if without > 0 {
        eprintln!(
            "note: bench gaps: {without} instance(s) of {} without a best-known value for their n (bks.csv or .sln) are left out",
            dir.display()
        );
    }
    ensure!(!found.is_empty(), "bench gaps: no instance with a best-known value in {}", dir.display());
    found.sort();
    Ok(found.into_iter().map(|(_, n)| n).collect())
}

/// `run::gap_percent`, and 100·cost for a best-known value of 0.
fn gap(cost: i64, known: i64) -> f64 {
    crate::run::gap_percent(cost, Some(known)).unwrap_or(100.0 * cost as f64)
}

/// The table: each instance of `names` solved `n_runs` times by each of `algos` for `limit`,
/// the mean gap per algorithm, then the means over all instances and over the tai*a class.
pub fn protocol(
    backends: &[Backend],
    base: &Options,
    names: &[String],
    algos: &[String],
    n_runs: usize,
    limit: Duration,
) -> Result<Table> {
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
            // A mean over no instance (no tai*a among them) is no number.
            row.push(if v.is_empty() { "–".into() } else { format!("{:.4}", mean_sd(v).0) });
        }
        t.push(row);
    }
    Ok(t)
}
