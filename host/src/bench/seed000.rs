//! Seed 000, Table 1: the island GA with total population 128 × B × k; #OPT and T_avg, for
//! the GPU model, GA-1 (the same model on one CPU thread) and GA-2 (5 % of the individuals
//! exchanged every 50 generations), with the GPU's speed-up over each.
use super::{RunRecord, Table, fmt, load, mean_sd, median, ratio, runs};
use crate::algo::{Backend, Options, ga};
use anyhow::Result;
use std::time::Duration;

/// One cell group of the paper's Table 1: the multiplier k of 128 × 30 × k, #OPT of 10,
/// T_avg and its standard deviation (s).
#[derive(Clone, Copy, Debug)]
pub struct PaperCell {
    /// k of 128 × 30 × k.
    pub k: u32,
    /// Runs of 10 that found the optimum.
    pub opt: u32,
    /// Mean time of those runs (s).
    pub t_avg: f64,
    /// Its standard deviation (s).
    pub sd: f64,
}

/// A row of Table 1: the GPU (GTX 285), GA-1 and GA-2 (one thread of an i7 965).
#[derive(Clone, Copy, Debug)]
pub struct PaperRow {
    /// The instance.
    pub name: &'static str,
    /// The GTX 285.
    pub gpu: PaperCell,
    /// GA-1: the GPU's model on one CPU thread.
    pub ga1: PaperCell,
    /// GA-2: 5 % exchanged every 50 generations, one CPU thread.
    pub ga2: PaperCell,
}

const fn cell(k: u32, opt: u32, t_avg: f64, sd: f64) -> PaperCell {
    PaperCell { k, opt, t_avg, sd }
}

/// Table 1 as printed (its tai35b CPU cells repeat tai30b's; they are kept as printed).
pub const PAPER: &[PaperRow] = &[
    PaperRow {
        name: "tai20b",
        gpu: cell(1, 10, 0.064, 0.005),
        ga1: cell(1, 10, 0.428, 0.039),
        ga2: cell(1, 10, 0.422, 0.042),
    },
    PaperRow {
        name: "tai25b",
        gpu: cell(1, 10, 0.169, 0.015),
        ga1: cell(1, 10, 1.386, 0.135),
        ga2: cell(1, 10, 1.286, 0.145),
    },
    PaperRow {
        name: "kra30a",
        gpu: cell(5, 10, 2.002, 1.741),
        ga1: cell(2, 9, 9.651, 4.541),
        ga2: cell(4, 9, 11.870, 3.115),
    },
    PaperRow {
        name: "kra30b",
        gpu: cell(5, 9, 1.332, 0.732),
        ga1: cell(5, 8, 23.399, 11.492),
        ga2: cell(4, 9, 16.745, 11.164),
    },
    PaperRow {
        name: "tai30b",
        gpu: cell(3, 10, 0.947, 0.576),
        ga1: cell(3, 10, 22.649, 6.830),
        ga2: cell(1, 10, 7.203, 6.274),
    },
    PaperRow {
        name: "tai35b",
        gpu: cell(4, 10, 2.510, 0.740),
        ga1: cell(3, 10, 22.649, 6.830),
        ga2: cell(1, 10, 7.203, 6.274),
    },
    PaperRow {
        name: "ste36b",
        gpu: cell(4, 10, 3.337, 1.056),
        ga1: cell(4, 10, 33.274, 13.062),
        ga2: cell(2, 10, 14.675, 3.836),
    },
    PaperRow {
        name: "tai40b",
        gpu: cell(1, 10, 1.088, 0.087),
        ga1: cell(1, 9, 6.016, 0.486),
        ga2: cell(1, 10, 5.811, 0.482),
    },
];

/// The migration scheme of a row of Table 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Variant {
    /// Every individual shuffled every 500 generations: the GPU model, and GA-1 on the CPU.
    Ga1,
    /// 5 % of the individuals exchanged every 50 generations: GA-2.
    Ga2,
}

impl Variant {
    /// `opts` with this variant's migration.
    fn apply(self, opts: &mut Options) {
        (opts.ga.migration_fraction, opts.ga.migration_interval) = match self {
            Variant::Ga1 => (1.0, 500),
            Variant::Ga2 => (0.05, 50),
        };
    }

    /// The paper's cell this variant on this engine is compared with, and its name.
    fn paper(self, row: &PaperRow, gpu: bool) -> (PaperCell, &'static str) {
        match (self, gpu) {
            (Variant::Ga1, true) => (row.gpu, "GPU"),
            (Variant::Ga1, false) => (row.ga1, "GA-1"),
            (Variant::Ga2, _) => (row.ga2, "GA-2"),
        }
    }
}

/// What the protocol runs: the instances, the populations and the variants.
pub struct Plan<'a> {
    /// The instances.
    pub names: &'a [String],
    /// B in 128 × B × k.
    pub base_blocks: u32,
    /// The multipliers k, unless `raise_k`.
    pub ks: &'a [u32],
    /// The paper's rule: k = 1, 2, … 6 until #OPT ≥ 9 of 10 (90 % of the runs).
    pub raise_k: bool,
    /// Each instance at the k the paper's column reports (the rule's outcome there).
    pub paper_k: bool,
    /// The migration schemes.
    pub variants: &'a [Variant],
    /// Runs per configuration.
    pub runs: usize,
    /// Caps the paper's per-run limits (15 s tai20b, 30 s tai25b, 120 s otherwise).
    pub cap: Duration,
}

/// The result of one configuration: #OPT, T_avg, σ and the median generations to the target.
struct Measured {
    opt: usize,
    t_avg: f64,
    sd: f64,
    generations: f64,
}

fn measure(
    backend: &Backend,
    opts: &Options,
    inst: &crate::io::Instance,
    plan: &Plan,
    limit: Duration,
) -> Result<Measured> {
    let records = runs(backend, inst, opts, plan.runs, limit)?;
    let ok = RunRecord::successes(&records);
    let (t_avg, sd) = mean_sd(&ok);
    let gens: Vec<f64> = records.iter().filter(|r| r.reached.is_some()).map(|r| r.iterations as f64).collect();
    Ok(Measured { opt: ok.len(), t_avg, sd, generations: median(&gens) })
}

/// The protocol on `engines` (label, backend): the first is the one whose speed-up over the
/// others is reported (the GPU over one CPU thread, as the paper's last two columns).
pub fn protocol(engines: &[(String, &Backend)], base: &Options, plan: &Plan) -> Result<Table> {
    let mut t = Table::new(&[
        "instance",
        "engine",
        "variant",
        "total population",
        "runs",
        "#OPT",
        "T_avg (s)",
        "σ",
        "median generations (to 50)",
        "paper column",
        "paper population",
        "paper #OPT",
        "paper T_avg",
        "paper/ours",
        "speed-up of the first engine (ours)",
        "speed-up of the GPU (paper)",
    ]);
    for name in plan.names {
        let (inst, known) = load(name)?;
        let paper = PAPER.iter().find(|r| r.name == name.as_str());
        let limit = Duration::from_secs(match name.as_str() {
            "tai20b" => 15,
            "tai25b" => 30,
            _ => 120,
        })
        .min(plan.cap);
        for &variant in plan.variants {
            let mut first_t_avg = None;
            for (e, (label, backend)) in engines.iter().enumerate() {
                let cell = paper.map(|r| variant.paper(r, backend.is_gpu()));
                let ks: Vec<u32> = match cell {
                    _ if plan.raise_k => (1..=6).collect(),
                    Some((c, _)) if plan.paper_k => vec![c.k],
                    _ => plan.ks.to_vec(),
                };
                let mut last = f64::NAN;
                for &k in &ks {
                    let mut opts =
                        Options { algorithm: Some(ga::ISLANDS.name.into()), target: Some(known), ..base.clone() };
                    opts.ga.blocks = plan.base_blocks * k;
                    variant.apply(&mut opts);
                    let m = measure(backend, &opts, &inst, plan, limit)?;
                    let all_reached = m.opt == plan.runs;
                    let speed_up =
                        if e > 0 { engine_speed_up(first_t_avg, m.t_avg, all_reached) } else { "–".into() };
                    let paper_speed_up = match (paper, cell) {
                        (Some(r), Some((c, _))) if !backend.is_gpu() => ratio(Some(c.t_avg), r.gpu.t_avg),
                        _ => "–".into(),
                    };
                    t.push(vec![
                        name.clone(),
                        label.clone(),
                        format!("{variant:?}").to_uppercase(),
                        format!("128×{}×{k}", plan.base_blocks),
                        plan.runs.to_string(),
                        m.opt.to_string(),
                        fmt(m.t_avg),
                        fmt(m.sd),
                        if m.generations.is_finite() { format!("{:.0}", m.generations) } else { "–".into() },
                        cell.map_or("–".into(), |c| c.1.to_string()),
                        cell.map_or("–".into(), |c| format!("128×30×{}", c.0.k)),
                        cell.map_or("–".into(), |c| c.0.opt.to_string()),
                        cell.map_or("–".into(), |c| format!("{} ± {}", fmt(c.0.t_avg), fmt(c.0.sd))),
                        // A mean over the runs that reached the optimum is no time of the
                        // protocol's when others were cut off: no ratio then.
                        if all_reached { ratio(cell.map(|c| c.0.t_avg), m.t_avg) } else { "–".into() },
                        speed_up,
                        paper_speed_up,
                    ]);
                    // Only a complete first engine's time is a time to compare with.
                    last = if all_reached { m.t_avg } else { f64::NAN };
                    if plan.raise_k && m.opt * 10 >= plan.runs * 9 {
                        break;
                    }
                }
                if e == 0 && last.is_finite() {
                    first_t_avg = Some(last);
                }
            }
        }
    }
    Ok(t)
}

/// The first engine's speed-up over this one (`first`: the first engine's T_avg, where every
/// run of it reached the optimum): only where every run of this one did too (`all_reached`),
/// since a mean over the runs that reached it is no time of the protocol's when others were
/// cut off.
fn engine_speed_up(first: Option<f64>, t_avg: f64, all_reached: bool) -> String {
    match first {
        Some(first) if all_reached => ratio(Some(t_avg), first),
        _ => "–".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_speed_up_needs_every_run_of_both_engines() {
        assert_eq!(engine_speed_up(Some(0.5), 2.0, true), ratio(Some(2.0), 0.5));
        assert_ne!(engine_speed_up(Some(0.5), 2.0, true), "–");
        assert_eq!(engine_speed_up(Some(0.5), 2.0, false), "–");
        assert_eq!(engine_speed_up(None, 2.0, true), "–");
    }

    #[test]
    fn the_paper_speed_ups_follow_from_its_times() {
        // Table 1 prints GA-1 / GPU and GA-2 / GPU: 6.7 and 6.6 for tai20b, 17.6 and 12.6 for kra30b.
        let row = |n: &str| *PAPER.iter().find(|r| r.name == n).unwrap();
        for (n, ga1, ga2) in [("tai20b", 6.7, 6.6), ("kra30b", 17.6, 12.6), ("tai40b", 5.5, 5.3)] {
            let r = row(n);
            assert!((r.ga1.t_avg / r.gpu.t_avg - ga1).abs() < 0.05, "{n}");
            assert!((r.ga2.t_avg / r.gpu.t_avg - ga2).abs() < 0.05, "{n}");
        }
    }

    #[test]
    fn each_variant_is_compared_with_its_own_column() {
        let r = PAPER[2];
        assert_eq!(Variant::Ga1.paper(&r, true).1, "GPU");
        assert_eq!(Variant::Ga1.paper(&r, false).1, "GA-1");
        assert_eq!(Variant::Ga2.paper(&r, false).0.k, 4);
        let mut o = Options::default();
        Variant::Ga2.apply(&mut o);
        assert_eq!((o.ga.migration_fraction, o.ga.migration_interval), (0.05, 50));
    }
}
