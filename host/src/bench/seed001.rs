//! Seed 001, Tables II/III: per instance, R runs of one block and of p blocks with the
//! restart strategy, stopping at the acceptable cost; T_avg, σ, #OPT, gain_p, and the gamma
//! model M(p) fitted to the single-block times, with Fig. 6's least-squares fits beside it.
//! Table I (restarts or none, `restart`) and Table III (the CPU's population sizes, `cpu`)
//! are protocols of their own.
pub mod cpu;
pub mod fits;
pub mod restart;

use super::gamma::GammaFit;
use super::{RunRecord, Table, device_counts, fmt, load, mean_sd, ratio, runs, runs_all, within};
use crate::algo::ga::{self, GaConfig, Mode, gpu::GpuEngine, run_per_block};
use crate::algo::{Backend, Options};
use crate::io::Instance;
use anyhow::Result;
use std::path::Path;
use std::time::Duration;

/// Table II: T_1,avg, T_30,avg, T_60,avg and M(30), M(60) on GTX 285 GPUs (s); Table III:
/// CPU Model I (tuned population, one i7 965 thread).
pub const PAPER: &[(&str, f64, f64, f64, f64, f64, f64)] = &[
    ("tai25b", 2.02, 0.21, 0.19, 0.03, 0.00, 0.82),
    ("kra30a", 34.25, 1.35, 0.70, 0.79, 0.34, 6.64),
    ("kra30b", 113.69, 3.17, 1.63, 2.92, 1.21, 25.20),
    ("tai30b", 14.31, 0.71, 0.46, 0.45, 0.16, 2.05),
    ("kra32", 56.18, 2.13, 1.12, 1.78, 0.83, 10.70),
    ("tai35b", 92.08, 3.67, 1.65, 3.25, 1.66, 12.16),
    ("ste36b", 70.82, 2.57, 1.35, 1.63, 0.66, 15.07),
    ("tai40b", 19.07, 1.15, 0.90, 0.46, 0.12, 4.44),
    ("tai50b", 212.55, 8.75, 4.28, 6.19, 2.72, 18.76),
];

/// An instance of the paper's protocols and the independent-run GA's options for it:
/// `base` with the acceptable cost as the target.
pub fn case(name: &str, base: &Options) -> Result<(Instance, Options)> {
    let (inst, known) = load(name)?;
    let opts =
        Options { algorithm: Some(ga::INDEPENDENT.name.into()), target: Some(acceptable(name, known)), ..base.clone() };
    Ok((inst, opts))
}

/// Acceptable cost of seed 001: the best known, or 0.06 % above it for tai50b.
pub fn acceptable(name: &str, known: i64) -> i64 {
    if name == "tai50b" { within(known, 0.06) } else { known }
}

/// The times of the runs of `times` that reached the target, in order, and how many did not
/// (None: not within the time limit; a failed run, never a time).
fn reached(times: &[Option<f64>]) -> (Vec<f64>, usize) {
    let ok: Vec<f64> = times.iter().flatten().copied().collect();
    let failed = times.len() - ok.len();
    (ok, failed)
}

/// Times of `count` single-block runs: on the GPU all at once, one block per run, each
/// stopping alone at the target; on the CPU one after another.
fn single_block_times(
    backend: &Backend,
    inst: &Instance,
    opts: &Options,
    count: usize,
    limit: Duration,
) -> Result<Vec<Option<f64>>> {
    match backend {
        Backend::Gpu(g) => {
            let mut cfg = GaConfig::from_options(Mode::Independent, opts);
            cfg.blocks = count as u32;
            cfg.per_block_target = true;
            let mut e = GpuEngine::new(g.clone(), inst, &cfg)?;
            run_per_block(&mut e, &cfg, limit)
        }
        Backend::Cpu { .. } => {
            let mut o = opts.clone();
            o.ga.blocks = 1;
            Ok(runs(backend, inst, &o, count, limit)?.iter().map(|r| r.reached).collect())
        }
    }
}

/// The protocol over `names`: `single_runs` single-block runs (on the first device) for the
/// gamma fit, then `n_runs` FoundFlag runs for each block count in `ps` (0: fill the GPU),
/// on one device and, with several `backends`, on 2, 4, … and all of them: the p blocks
/// split evenly over the devices (the paper's p = 60 on two GTX 285s), M(p) for the total.
/// Returns that table and the single-block times' least-squares fits (`fits`), whose
/// plots it writes into `out`.
#[allow(clippy::too_many_arguments)]
pub fn protocol(
    backends: &[Backend],
    base: &Options,
    names: &[String],
    ps: &[u32],
    single_runs: usize,
    n_runs: usize,
    limit: Duration,
    out: &Path,
) -> Result<(Table, Table)> {
    let backend = &backends[0];
    let mut fitted = fits::table();
    let mut t = Table::new(&[
        "instance",
        "p",
        "devices",
        "runs",
        "#OPT",
        "T_avg (s)",
        "σ",
        "gain_p",
        "M(p) (s)",
        "Δ_p",
        "paper T_p",
        "paper M(p)",
        "paper/ours",
    ]);
    for name in names {
        let (inst, opts) = case(name, base)?;
        let paper = PAPER.iter().find(|r| r.0 == name.as_str());
        let t1 =
            if single_runs > 0 { single_block_times(backend, &inst, &opts, single_runs, limit)? } else { Vec::new() };
        if single_runs > 0 {
            fits::add(&mut fitted, name, &t1, limit.as_secs_f64(), out)?;
        }
        let (ok1, _) = reached(&t1);
        let (m1, _) = mean_sd(&ok1);
        let fit = GammaFit::fit(&ok1);
        let mut row = |p: String,
                       devices: usize,
                       n: usize,
                       ok: &[f64],
                       gain: f64,
                       model: f64,
                       paper_t: Option<f64>,
                       paper_m: Option<f64>| {
            let (m, s) = mean_sd(ok);
            t.push(vec![
                name.clone(),
                p,
                devices.to_string(),
                n.to_string(),
                ok.len().to_string(),
                fmt(m),
                fmt(s),
                fmt(gain),
                fmt(model),
                fmt(m - model),
                paper_t.map_or("–".into(), fmt),
                paper_m.map_or("–".into(), fmt),
                // A mean over the runs that reached the target is no time of the protocol's
                // when others were cut off: no ratio then.
                if ok.len() == n { ratio(paper_t, m) } else { "–".into() },
            ]);
        };
        if single_runs > 0 {
            row("1".into(), 1, t1.len(), &ok1, 1.0, fit.map_or(f64::NAN, |f| f.mean()), paper.map(|r| r.1), None);
        }
        for &p in ps {
            for devices in device_counts(backends.len()) {
                if p != 0 && (p as usize) < devices {
                    continue;
                }
                let mut o = opts.clone();
                o.ga.blocks = p / devices as u32; // 0 (fill) fills every device
                let recs = runs_all(&backends[..devices], &inst, &o, n_runs, limit)?;
                let ok = RunRecord::successes(&recs);
                let blocks = recs.first().map_or(p, |r| r.blocks);
                let model = fit.map_or(f64::NAN, |f| f.mean_of_min(blocks));
                let (paper_t, paper_m) = match (paper, blocks) {
                    (Some(r), 30) => (Some(r.2), Some(r.4)),
                    (Some(r), 60) => (Some(r.3), Some(r.5)),
                    _ => (None, None),
                };
                let label = if p == 0 { format!("{blocks} (fill)") } else { blocks.to_string() };
                row(label, devices, recs.len(), &ok, m1 / mean_sd(&ok).0, model, paper_t, paper_m);
            }
        }
    }
    Ok((t, fitted))
}
