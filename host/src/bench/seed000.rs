//! Seed 000, Table 1: the island GA with total population 128 × B × k; T_avg and #OPT.
use super::{RunRecord, Table, fmt, load, mean_sd, ratio, runs};
use crate::algo::{Backend, Options, ga};
use anyhow::Result;
use std::time::Duration;

/// GPU (GTX 285) total population multiplier k (128 × 30 × k), #OPT of 10, T_avg (s);
/// CPU GA-1 (single thread) T_avg (s).
pub const PAPER: &[(&str, u32, u32, f64, f64)] = &[
    ("tai20b", 1, 10, 0.064, 0.428),
    ("tai25b", 1, 10, 0.169, 1.386),
    ("kra30a", 5, 10, 2.002, 9.651),
    ("kra30b", 5, 9, 1.332, 23.399),
    ("tai30b", 3, 10, 0.947, 22.649),
    ("tai35b", 4, 10, 2.510, 22.649),
    ("ste36b", 4, 10, 3.337, 33.274),
    ("tai40b", 1, 10, 1.088, 6.016),
];

/// The protocol over `names` with `base_blocks` × each k; per-run limits are the paper's
/// (15 s tai20b, 30 s tai25b, 120 s otherwise), capped by `cap`.
pub fn protocol(
    backend: &Backend,
    base: &Options,
    names: &[String],
    base_blocks: u32,
    ks: &[u32],
    n_runs: usize,
    cap: Duration,
) -> Result<Table> {
    let mut t = Table::new(&[
        "instance",
        "total population",
        "runs",
        "#OPT",
        "T_avg (s)",
        "σ",
        "paper population",
        "paper #OPT",
        "paper T_avg",
        "paper/ours",
    ]);
    for name in names {
        let (inst, known) = load(name)?;
        let paper = PAPER.iter().find(|r| r.0 == name.as_str());
        let limit = Duration::from_secs(match name.as_str() {
            "tai20b" => 15,
            "tai25b" => 30,
            _ => 120,
        })
        .min(cap);
        for &k in ks {
            let mut opts = Options { algorithm: Some(ga::ISLANDS.name.into()), target: Some(known), ..base.clone() };
            opts.ga.blocks = base_blocks * k;
            let ok = RunRecord::successes(&runs(backend, &inst, &opts, n_runs, limit)?);
            let (m, s) = mean_sd(&ok);
            t.push(vec![
                name.clone(),
                format!("128×{base_blocks}×{k}"),
                n_runs.to_string(),
                ok.len().to_string(),
                fmt(m),
                fmt(s),
                paper.map_or("–".into(), |r| format!("128×30×{}", r.1)),
                paper.map_or("–".into(), |r| r.2.to_string()),
                paper.map_or("–".into(), |r| fmt(r.3)),
                ratio(paper.map(|r| r.3), m),
            ]);
        }
    }
    Ok(t)
}
