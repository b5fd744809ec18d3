//! The papers' protocols, printed in their tables' format beside their published numbers.
//!
//! * seed 001 (Table II/III): per instance, R runs of one block and of p blocks with the
//!   restart strategy, stopping at the acceptable cost; T_avg, σ, #OPT, gain_p, and the
//!   gamma model M(p) fitted to the single-block times.
//! * seed 000 (Table 1): island GA with total population 128 × B × k; T_avg and #OPT.
use crate::engine::{Algo, GaConfig, GaEngine};
use crate::gamma::GammaFit;
use crate::instance::Instance;
use crate::qaplib;
use crate::runner::{self, Limits, Silent};
use anyhow::{Context, Result};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Seed 001, Table II: T_1,avg, T_30,avg, T_60,avg and M(30), M(60) on GTX 285 GPUs (s);
/// Table III: CPU Model I (tuned population, one i7 965 thread).
pub const PAPER_001: &[(&str, f64, f64, f64, f64, f64, f64)] = &[
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

/// Seed 000, Table 1: GPU (GTX 285) total population multiplier k (128 × 30 × k), #OPT of
/// 10, T_avg (s); CPU GA-1 (single thread) T_avg (s).
pub const PAPER_000: &[(&str, u32, u32, f64, f64)] = &[
    ("tai20b", 1, 10, 0.064, 0.428),
    ("tai25b", 1, 10, 0.169, 1.386),
    ("kra30a", 5, 10, 2.002, 9.651),
    ("kra30b", 5, 9, 1.332, 23.399),
    ("tai30b", 3, 10, 0.947, 22.649),
    ("tai35b", 4, 10, 2.510, 22.649),
    ("ste36b", 4, 10, 3.337, 33.274),
    ("tai40b", 1, 10, 1.088, 6.016),
];

/// Acceptable cost of seed 001: the best known, or 0.06 % above it for tai50b.
pub fn acceptable(name: &str, known: i64) -> i64 {
    if name == "tai50b" { known + (known as f64 * 0.0006).floor() as i64 } else { known }
}

pub fn mean_sd(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let m = xs.iter().sum::<f64>() / xs.len() as f64;
    let var = if xs.len() > 1 { xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64 } else { 0.0 };
    (m, var.sqrt())
}

/// Makes engines for one instance and configuration (GPU shares one context).
pub type EngineFactory<'a> = dyn Fn(&Instance, &GaConfig) -> Result<Box<dyn GaEngine>> + 'a;

pub fn load(name: &str) -> Result<(Instance, i64)> {
    let path = qaplib::resolve(name);
    let inst = qaplib::read_dat(&path)?;
    let known = qaplib::best_known(&path, &inst.name).with_context(|| format!("{name}: no best-known value in bks.csv"))?;
    Ok((inst, known))
}

/// Times to target of `runs` runs (None: not reached within `limit`).
pub fn timed_runs(make: &EngineFactory, inst: &Instance, cfg: &GaConfig, runs: usize, limit: Duration) -> Result<Vec<Option<f64>>> {
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for r in 0..runs {
        let mut c = cfg.clone();
        c.seed = cfg.seed.wrapping_add(r as u64);
        let mut e = make(inst, &c)?;
        let limits = Limits { target: Some(c.target), time_limit: Some(limit), known: None };
        let o = runner::run(e.as_mut(), &c, &limits, &mut Silent, &stop)?;
        anyhow::ensure!(inst.cost(&o.perm) == o.cost, "{}: engine cost mismatch", inst.name);
        out.push(o.time_to_target_s);
    }
    Ok(out)
}

fn fmt(x: f64) -> String {
    if x.is_nan() { "–".into() } else if x < 10.0 { format!("{x:.3}") } else { format!("{x:.2}") }
}

pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn markdown(&self) -> String {
        let mut s = format!("| {} |\n|{}\n", self.header.join(" | "), "---|".repeat(self.header.len()));
        for r in &self.rows {
            s += &format!("| {} |\n", r.join(" | "));
        }
        s
    }
    pub fn csv(&self) -> String {
        let mut s = self.header.join(",") + "\n";
        for r in &self.rows {
            s += &(r.join(",") + "\n");
        }
        s
    }
}

/// Seed 001's protocol. `singles` holds the single-block times (from per-block runs on the
/// GPU or sequential runs on the CPU); `ps` the block counts for FoundFlag runs.
pub fn protocol_001(
    make: &EngineFactory,
    singles: &dyn Fn(&Instance, &GaConfig) -> Result<Vec<Option<f64>>>,
    names: &[String],
    ps: &[u32],
    single_runs: usize,
    runs: usize,
    limit: Duration,
    seed: u64,
) -> Result<Table> {
    let header = [
        "instance", "p", "runs", "#OPT", "T_avg (s)", "σ", "gain_p", "M(p) (s)", "Δ_p", "paper T_p", "paper M(p)", "paper/ours",
    ];
    let mut rows = Vec::new();
    for name in names {
        let (inst, known) = load(name)?;
        let mut cfg = GaConfig::paper(Algo::GaIndependent);
        cfg.target = acceptable(name, known);
        cfg.seed = seed;
        let paper = PAPER_001.iter().find(|r| r.0 == name.as_str());
        let t1 = if single_runs > 0 { singles(&inst, &cfg)? } else { Vec::new() };
        let ok1: Vec<f64> = t1.iter().flatten().copied().collect();
        let (m1, _) = mean_sd(&ok1);
        let fit = GammaFit::fit(&ok1);
        let mut row = |p: String, n_runs: usize, ok: &[f64], gain: f64, model: f64, paper_t: Option<f64>, paper_m: Option<f64>| {
            let (m, s) = mean_sd(ok);
            rows.push(vec![
                name.clone(),
                p,
                n_runs.to_string(),
                ok.len().to_string(),
                fmt(m),
                fmt(s),
                fmt(gain),
                fmt(model),
                fmt(m - model),
                paper_t.map_or("–".into(), fmt),
                paper_m.map_or("–".into(), fmt),
                paper_t.map_or("–".into(), |t| format!("{:.1}×", t / m)),
            ]);
            eprintln!("{}", rows.last().unwrap().join(" | "));
        };
        if single_runs > 0 {
            row("1".into(), t1.len(), &ok1, 1.0, fit.map_or(f64::NAN, |f| f.mean()), paper.map(|r| r.1), None);
        }
        for &p in ps {
            let mut c = cfg.clone();
            c.blocks = p;
            let times = timed_runs(make, &inst, &c, runs, limit)?;
            let ok: Vec<f64> = times.iter().flatten().copied().collect();
            let blocks = if p == 0 { make(&inst, &c)?.blocks() } else { p };
            let model = fit.map_or(f64::NAN, |f| f.mean_of_min(blocks));
            let (paper_t, paper_m) = match (paper, p) {
                (Some(r), 30) => (Some(r.2), Some(r.4)),
                (Some(r), 60) => (Some(r.3), Some(r.5)),
                _ => (None, None),
            };
            let label = if p == 0 { format!("{blocks} (fill)") } else { p.to_string() };
            row(label, times.len(), &ok, m1 / mean_sd(&ok).0, model, paper_t, paper_m);
        }
    }
    Ok(Table { header: header.iter().map(|s| s.to_string()).collect(), rows })
}

/// Seed 000's protocol: island GA, total population 128 × `base_blocks` × k.
/// Per-run limits are the paper's (15 s tai20b, 30 s tai25b, 120 s otherwise), capped by `cap`.
pub fn protocol_000(make: &EngineFactory, names: &[String], base_blocks: u32, ks: &[u32], runs: usize, cap: Duration, seed: u64) -> Result<Table> {
    let header = ["instance", "total population", "runs", "#OPT", "T_avg (s)", "σ", "paper population", "paper #OPT", "paper T_avg", "paper/ours"];
    let mut rows = Vec::new();
    for name in names {
        let (inst, known) = load(name)?;
        let paper = PAPER_000.iter().find(|r| r.0 == name.as_str());
        // The paper's per-run limits: 15 s for tai20b, 30 s for tai25b, 120 s otherwise.
        let limit = Duration::from_secs(match name.as_str() {
            "tai20b" => 15,
            "tai25b" => 30,
            _ => 120,
        })
        .min(cap);
        for &k in ks {
            let mut cfg = GaConfig::paper(Algo::GaIslands);
            cfg.target = known;
            cfg.seed = seed;
            cfg.blocks = base_blocks * k;
            let times = timed_runs(make, &inst, &cfg, runs, limit)?;
            let ok: Vec<f64> = times.iter().flatten().copied().collect();
            let (m, s) = mean_sd(&ok);
            rows.push(vec![
                name.clone(),
                format!("128×{base_blocks}×{k}"),
                runs.to_string(),
                ok.len().to_string(),
                fmt(m),
                fmt(s),
                paper.map_or("–".into(), |r| format!("128×30×{}", r.1)),
                paper.map_or("–".into(), |r| r.2.to_string()),
                paper.map_or("–".into(), |r| fmt(r.3)),
                paper.map_or("–".into(), |r| format!("{:.1}×", r.3 / m)),
            ]);
            eprintln!("{}", rows.last().unwrap().join(" | "));
        }
    }
    Ok(Table { header: header.iter().map(|s| s.to_string()).collect(), rows })
}
