//! Seed 003's protocols, printed beside its published numbers (GTX 480, i7 965 on one
//! thread):
//!
//! * Table 2 (`003-profile`): the time split of cAS over its steps (construction, local
//!   search, trail update), in seconds and in % of the run, under Table 5's conditions.
//! * Table 5 (`003-fixed`): IT_TOTAL = n·50000 local-search iterations or the best-known
//!   cost, whichever comes first; T_avg and average error.
//! * Table 6 (`003-target`): time to the acceptable cost (1 % above the best known for
//!   class (i), the best known for class (iv) up to n = 100, 0.2 % for tai150b); T_avg.
//!
//! A run cut off by the time limit (before its target, and in Table 5 before IT_TOTAL) is
//! counted in its own column; a T_avg with such a run in it is only a lower bound ("> x"),
//! and gives no ratio or speed-up.
use super::gamma::GammaFit;
use super::{RunRecord, Table, device_counts, fmt, fmt_secs, load, mean_sd, ratio, runs_all, within};
use crate::algo::aco::{self, AcoConfig, AcoSolver, Class, Layout, PhaseTimes};
use crate::algo::multi::Model;
use crate::algo::{Backend, Options};
use crate::io::Instance;
use crate::run::{self, Limits, Silent, Stopped, Stopping};
use anyhow::{Result, ensure};
use qapgpu_common::ls::LsKind;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One row of Table 2 (i7 965, one thread): the share of the run's time, in %, of the
/// construction of solutions, of the tabu search, and of the trail update.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaperT2 {
    /// The QAPLIB instance.
    pub instance: &'static str,
    /// Construction of solutions, %.
    pub construction: f64,
    /// Tabu search, %.
    pub tabu_search: f64,
    /// Updating the trail, %.
    pub trail: f64,
}

/// Table 2, as printed.
pub const PAPER_T2: &[PaperT2] = &[
    PaperT2 { instance: "tai40a", construction: 0.007, tabu_search: 99.992, trail: 0.001 },
    PaperT2 { instance: "tai50a", construction: 0.005, tabu_search: 99.994, trail: 0.000 },
    PaperT2 { instance: "tai60a", construction: 0.004, tabu_search: 99.996, trail: 0.000 },
    PaperT2 { instance: "tai80a", construction: 0.002, tabu_search: 99.997, trail: 0.000 },
    PaperT2 { instance: "tai100a", construction: 0.002, tabu_search: 99.998, trail: 0.000 },
    PaperT2 { instance: "tai50b", construction: 0.022, tabu_search: 99.976, trail: 0.002 },
    PaperT2 { instance: "tai60b", construction: 0.017, tabu_search: 99.982, trail: 0.001 },
    PaperT2 { instance: "tai80b", construction: 0.011, tabu_search: 99.988, trail: 0.001 },
    PaperT2 { instance: "tai100b", construction: 0.008, tabu_search: 99.991, trail: 0.000 },
    PaperT2 { instance: "tai150b", construction: 0.005, tabu_search: 99.995, trail: 0.000 },
];

/// One row of Table 5.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaperT5 {
    /// The QAPLIB instance.
    pub instance: &'static str,
    /// T_avg in s: GPU MATA, GPU non-MATA, CPU (the order of `Column::index`).
    pub t_avg: [f64; 3],
    /// Average error %: GPU, CPU.
    pub error: [f64; 2],
    /// Speed-up in T_avg: CPU/MATA, CPU/non-MATA (as printed, from unrounded times).
    pub speedup: [f64; 2],
}

/// Table 5, as printed.
pub const PAPER_T5: &[PaperT5] = &[
    PaperT5 { instance: "tai40a", t_avg: [4.4, 27.8, 74.4], error: [0.29, 0.31], speedup: [16.7, 2.7] },
    PaperT5 { instance: "tai50a", t_avg: [6.8, 42.6, 144.1], error: [0.49, 0.45], speedup: [21.0, 3.4] },
    PaperT5 { instance: "tai60a", t_avg: [11.9, 74.6, 253.7], error: [0.54, 0.52], speedup: [21.3, 3.4] },
    PaperT5 { instance: "tai80a", t_avg: [42.9, 143.9, 612.6], error: [0.51, 0.50], speedup: [14.3, 4.3] },
    PaperT5 { instance: "tai100a", t_avg: [89.9, 372.5, 1246.6], error: [0.55, 0.51], speedup: [13.9, 3.3] },
    PaperT5 { instance: "tai50b", t_avg: [0.3, 1.5, 6.318], error: [0.0, 0.0], speedup: [22.8, 4.1] },
    PaperT5 { instance: "tai60b", t_avg: [0.5, 3.1, 15.656], error: [0.0, 0.0], speedup: [30.3, 5.0] },
    PaperT5 { instance: "tai80b", t_avg: [8.8, 30.7, 138.684], error: [0.0, 0.0], speedup: [15.7, 4.5] },
    PaperT5 { instance: "tai100b", t_avg: [16.7, 72.6, 373.03], error: [0.0, 0.0], speedup: [22.3, 5.1] },
    PaperT5 { instance: "tai150b", t_avg: [367.7, 1715.9, 5088.874], error: [0.12, 0.21], speedup: [13.8, 2.97] },
];

/// The cAS iterations the paper's one-thread CPU runs of class (iv) instance `name` made on
/// average, implied by Table 5: a class (iv) run costs the same per tabu iteration as the
/// class (i) run of the same n, which spends all of IT_TOTAL = 50000n, so it made
/// T_b / T_a · 50000n tabu iterations, m · IT_TS = 16n² a cAS iteration (Table 4). tai50b:
/// 6.318 / 144.1 · 3125 / 50 = 2.7. None where Table 5 has no class (i) row of that n.
pub fn paper_implied_iterations(name: &str) -> Option<f64> {
    let b = PAPER_T5.iter().find(|r| r.instance == name && name.ends_with('b'))?;
    let twin = format!("{}a", name.strip_suffix('b')?);
    let a = PAPER_T5.iter().find(|r| r.instance == twin)?;
    let n: f64 = name.trim_start_matches("tai").trim_end_matches('b').parse().ok()?;
    Some(b.t_avg[2] / a.t_avg[2] * 3125.0 / n)
}

/// One row pair of Table 6.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaperT6 {
    /// The QAPLIB instance.
    pub instance: &'static str,
    /// The acceptable error, %.
    pub acceptable: f64,
    /// T_avg in s with tabu search: GPU MATA, GPU non-MATA, CPU.
    pub ts: [f64; 3],
    /// T_avg in s with 2-opt: GPU MATA, GPU non-MATA, CPU.
    pub two_opt: [f64; 3],
    /// Speed-up in T_avg, CPU/GPU with MATA: tabu search, 2-opt (as printed).
    pub speedup: [f64; 2],
}

/// Table 6, as printed.
pub const PAPER_T6: &[PaperT6] = &[
    PaperT6 {
        instance: "tai40a",
        acceptable: 1.0,
        ts: [0.1, 0.6, 2.0],
        two_opt: [0.5, 2.0, 7.7],
        speedup: [22.8, 16.7],
    },
    PaperT6 {
        instance: "tai50a",
        acceptable: 1.0,
        ts: [0.4, 2.5, 9.9],
        two_opt: [7.2, 31.3, 398.5],
        speedup: [25.4, 55.5],
    },
    PaperT6 {
        instance: "tai60a",
        acceptable: 1.0,
        ts: [1.0, 5.5, 23.3],
        two_opt: [25.7, 150.7, 697.4],
        speedup: [22.7, 27.1],
    },
    PaperT6 {
        instance: "tai80a",
        acceptable: 1.0,
        ts: [3.2, 12.1, 56.7],
        two_opt: [261.1, 719.4, 3872.7],
        speedup: [17.7, 14.8],
    },
    PaperT6 {
        instance: "tai100a",
        acceptable: 1.0,
        ts: [7.1, 29.5, 108.6],
        two_opt: [909.9, 4337.0, 20062.5],
        speedup: [15.3, 22.0],
    },
    PaperT6 {
        instance: "tai50b",
        acceptable: 0.0,
        ts: [0.3, 1.5, 6.3],
        two_opt: [0.2, 1.6, 5.0],
        speedup: [23.2, 22.5],
    },
    PaperT6 {
        instance: "tai60b",
        acceptable: 0.0,
        ts: [0.5, 3.1, 15.7],
        two_opt: [0.5, 4.4, 11.4],
        speedup: [31.2, 21.4],
    },
    PaperT6 {
        instance: "tai80b",
        acceptable: 0.0,
        ts: [8.1, 30.8, 138.7],
        two_opt: [6.8, 39.0, 121.6],
        speedup: [17.1, 17.9],
    },
    PaperT6 {
        instance: "tai100b",
        acceptable: 0.0,
        ts: [16.2, 66.9, 373.0],
        two_opt: [11.8, 69.2, 280.1],
        speedup: [23.1, 23.6],
    },
    PaperT6 {
        instance: "tai150b",
        acceptable: 0.2,
        ts: [138.6, 697.4, 1815.1],
        two_opt: [98.8, 612.8, 1596.8],
        speedup: [13.1, 16.2],
    },
];

/// Acceptable cost of Table 6: 1 % above the best known for class (i), 0.2 % for tai150b,
/// the best known otherwise.
pub fn acceptable(name: &str, known: i64) -> i64 {
    let pct = match (name, Class::of(name)) {
        ("tai150b", _) => 0.2,
        (_, Class::Random) => 1.0,
        (_, Class::RealLifeLike) => 0.0,
    };
    within(known, pct)
}

/// Where a configuration runs: a GPU layout, or the CPU twin; and on how many devices, in
/// which multi-device model (1 and independent: one device).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The GPU engine, in this thread mapping.
    Gpu(Layout),
    /// The CPU engine.
    Cpu,
}

/// One row's devices: the first `count` backends, sharing the run by `model`.
#[derive(Clone, Copy, Debug)]
struct Devices {
    count: usize,
    model: Model,
}

impl Column {
    /// The row's engine in words: the GPU layout, or the CPU engine with its threads
    /// (`cpu`: `cpu_label`'s "CPU 1 thread").
    fn label(self, cpu: &str) -> String {
        match self {
            Column::Gpu(Layout::Mata) => "GPU MATA".into(),
            Column::Gpu(Layout::Plain) => "GPU non-MATA".into(),
            Column::Gpu(Layout::Split) => "GPU split".into(),
            Column::Gpu(Layout::Sums) => "GPU sums".into(),
            Column::Cpu => cpu.into(),
        }
    }
    /// The paper's column (the split and sums layouts are ours: none).
    fn index(self) -> Option<usize> {
        match self {
            Column::Gpu(Layout::Mata) => Some(0),
            Column::Gpu(Layout::Plain) => Some(1),
            Column::Gpu(Layout::Split | Layout::Sums) => None,
            Column::Cpu => Some(2),
        }
    }
}

/// The CPU engine of `b` as a row's engine, threads included ("CPU 1 thread"; no comma,
/// which the CSV would take for a separator).
fn cpu_label(b: &Backend) -> String {
    let threads = match b {
        Backend::Cpu { threads } => crate::algo::cpu_threads(*threads).min(crate::algo::cores()),
        Backend::Gpu(_) => 0,
    };
    format!("CPU {threads} thread{}", if threads == 1 { "" } else { "s" })
}

/// What the paper ran a table's rows on, for its headers: the GTX 480, the i7 965 on one
/// thread, or each row's.
fn paper_machine(columns: &[Column]) -> &'static str {
    match (columns.contains(&Column::Cpu), columns.iter().any(|c| *c != Column::Cpu)) {
        (true, false) => "i7 965 1 thread",
        (false, _) => "GTX 480",
        (true, true) => "GTX 480 or i7 965 as the row's engine",
    }
}

/// A configuration's T_avg: the mean of complete runs, or a lower bound where a run was
/// cut off before its end (its time counted as it stopped: the true mean is higher).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mean {
    /// Every run ended by itself (its target, or IT_TOTAL in Table 5).
    Complete(f64),
    /// At least one run was cut off (the time limit): the mean is above this.
    Censored(f64),
}

impl Mean {
    /// The mean of `times`, where `complete` says which runs ended by themselves.
    pub fn of(times: &[f64], complete: &[bool]) -> Mean {
        let m = mean_sd(times).0;
        if complete.iter().all(|&c| c) { Mean::Complete(m) } else { Mean::Censored(m) }
    }

    /// The mean, only where it is one (complete, finite and positive): what a ratio, a gain
    /// or a speed-up may be taken of.
    pub fn value(self) -> Option<f64> {
        match self {
            Mean::Complete(m) if m.is_finite() && m > 0.0 => Some(m),
            _ => None,
        }
    }

    /// Its table cell: the mean (`fmt_secs`: sub-millisecond means keep three digits), "> x"
    /// for a lower bound, "–" for none.
    pub fn cell(self) -> String {
        match self {
            Mean::Complete(m) if m.is_finite() => fmt_secs(m),
            Mean::Censored(m) if m.is_finite() => format!("> {}", fmt_secs(m)),
            _ => "–".into(),
        }
    }

    /// The paper's time over this one ("–" where this is no mean, `ratio`).
    pub fn ratio(self, paper: Option<f64>) -> String {
        ratio(paper, self.value().unwrap_or(f64::NAN))
    }
}

/// A paper's figure as the paper prints it (74.4, 6.318, 2.97, 0.0), at least one decimal.
pub fn as_printed(x: f64) -> String {
    let s = format!("{x}");
    if s.contains('.') { s } else { s + ".0" }
}

/// `fmt` of a finite number, "–" for NaN or inf.
fn finite(x: f64) -> String {
    if x.is_finite() { fmt(x) } else { "–".into() }
}

/// `slow` over `fast` as a speed-up ("16.7×"), "–" unless both are complete means.
pub fn speedup(slow: Mean, fast: Mean) -> String {
    ratio(slow.value(), fast.value().unwrap_or(f64::NAN))
}

/// What the runs of one configuration give.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Runs.
    pub runs: usize,
    /// Runs that reached the target.
    pub reached: usize,
    /// Runs cut off before their end (`Cell::of`).
    pub cut_off: usize,
    /// T_avg: every run's time in Table 5 (to IT_TOTAL or the optimum), the time to the
    /// target in Table 6.
    pub mean: Mean,
    /// The sample standard deviation of complete runs (NaN where censored).
    pub sd: f64,
    /// The runs' times, where every run is complete (the gamma fit's sample).
    pub complete_times: Option<Vec<f64>>,
    /// The mean error of the final costs, % above `known`.
    pub error: f64,
    /// Move evaluations a second in the local searches.
    pub evals_per_s: f64,
    /// The mean of the runs' cAS iterations (to the target, IT_TOTAL or the cut-off), the
    /// random ants' round counted as the first (the paper's IT_ACO).
    pub iterations: f64,
}

impl Cell {
    /// The cell of runs `recs` of Table 5 (`fixed`) or 6 on an instance of best-known
    /// value `known`. A run is complete when it reached its target or, in Table 5, spent
    /// IT_TOTAL (`Stopped::Budget`); any other stop (the time limit, `--stop converged`,
    /// an interruption) cut it off.
    pub fn of(recs: &[RunRecord], known: i64, fixed: bool) -> Cell {
        let complete: Vec<bool> =
            recs.iter().map(|r| r.reached.is_some() || (fixed && r.stopped == Stopped::Budget)).collect();
        let times: Vec<f64> =
            recs.iter().map(|r| if fixed { r.elapsed } else { r.reached.unwrap_or(r.elapsed) }).collect();
        let mean = Mean::of(&times, &complete);
        let all = matches!(mean, Mean::Complete(_));
        let errors: Vec<f64> = recs.iter().map(|r| 100.0 * (r.cost - known) as f64 / known.max(1) as f64).collect();
        let (evals, secs) = recs.iter().fold((0u64, 0f64), |(e, s), r| (e + r.evaluations, s + r.search_seconds));
        Cell {
            runs: recs.len(),
            reached: recs.iter().filter(|r| r.reached.is_some()).count(),
            cut_off: complete.iter().filter(|&&c| !c).count(),
            mean,
            sd: if all { mean_sd(&times).1 } else { f64::NAN },
            complete_times: all.then_some(times),
            error: mean_sd(&errors).0,
            evals_per_s: if secs > 0.0 { evals as f64 / secs } else { f64::NAN },
            iterations: mean_sd(&recs.iter().map(|r| r.iterations as f64).collect::<Vec<_>>()).0,
        }
    }
}

/// What `protocol` runs: Table 5 (`fixed`) or 6, on which instances, local searches and
/// layouts, how many runs of at most how long.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Table 5 (IT_TOTAL or the optimum), else Table 6 (the acceptable cost).
    pub fixed: bool,
    /// The instances, by name or path.
    pub instances: Vec<String>,
    /// The local searches (tabu search, 2-opt).
    pub searches: Vec<LsKind>,
    /// The GPU thread mappings (GPU backends only).
    pub layouts: Vec<Layout>,
    /// Runs per configuration.
    pub runs: usize,
    /// The time limit of a run.
    pub limit: Duration,
}

/// The options of one configuration: Table 4 for the instance's class, the family of `ls`,
/// and Table 5's stop (`fixed`: IT_TOTAL = n·50000 or the best known) or Table 6's
/// (the acceptable cost). Returns them with the target.
fn setup(base: &Options, name: &str, inst: &Instance, known: i64, ls: LsKind, col: Column, fixed: bool) -> Options {
    let n = inst.n as u64;
    let (target, it_total) = if fixed { (known, Some(n * 50_000)) } else { (acceptable(name, known), None) };
    let family = match ls {
        LsKind::Tabu => aco::TABU.name,
        LsKind::TwoOpt => aco::TWO_OPT.name,
    };
    let mut opts = Options { algorithm: Some(family.into()), target: Some(target), ..base.clone() };
    opts.aco.class = Some(Class::of(name));
    opts.aco.max_ls_iterations = it_total;
    if let Column::Gpu(l) = col {
        opts.aco.layout = Some(l);
    }
    opts
}

fn ls_name(ls: LsKind) -> &'static str {
    match ls {
        LsKind::Tabu => "TS",
        LsKind::TwoOpt => "2-opt",
    }
}

/// The paper's T_avg, error and CPU/GPU speed-up for a one-device row (none for our own
/// layouts, and Table 5 has tabu search only). The speed-up of a GPU row is the CPU's over
/// its layout's (Table 6 gives MATA's only); of the CPU row, the CPU's over MATA's.
fn paper_of(name: &str, ls: LsKind, col: Column, fixed: bool) -> (Option<f64>, Option<f64>, Option<f64>) {
    let Some(i) = col.index() else { return (None, None, None) };
    if fixed {
        let Some(r) = PAPER_T5.iter().find(|r| r.instance == name).filter(|_| ls == LsKind::Tabu) else {
            return (None, None, None);
        };
        let error = r.error[usize::from(col == Column::Cpu)];
        let speedup = if col == Column::Cpu { r.speedup[0] } else { r.speedup[i] };
        (Some(r.t_avg[i]), Some(error), Some(speedup))
    } else {
        let Some(r) = PAPER_T6.iter().find(|r| r.instance == name) else { return (None, None, None) };
        let (t, s) = match ls {
            LsKind::Tabu => (r.ts, r.speedup[0]),
            LsKind::TwoOpt => (r.two_opt, r.speedup[1]),
        };
        (Some(t[i]), None, (i != 1).then_some(s))
    }
}

/// Tables 5 and 6 (`plan.fixed`: Table 5 (IT_TOTAL or optimum), else Table 6 (acceptable
/// cost)). The columns are the GPU layouts on a GPU backend, the CPU twin otherwise;
/// `cpu` adds the CPU twin beside the GPU layouts (run first), and with it our own CPU/GPU
/// speed-up. With several `backends`, each GPU configuration also runs on 2, 4, … and all
/// of them in the three models (independent colonies, islands, one colony master/slave),
/// with the gain over one device and seed 001's model M(p) fitted to the one-device times:
/// the expected fastest of p independent one-device runs, what p devices would give with no
/// overhead and no exchange.
pub fn protocol(backends: &[Backend], cpu: Option<&Backend>, base: &Options, plan: &Plan) -> Result<Table> {
    let fixed = plan.fixed;
    let (cpu_backend, gpu) = match &backends[0] {
        Backend::Gpu(_) => (cpu, true),
        Backend::Cpu { .. } => (Some(&backends[0]), false),
    };
    let mut columns: Vec<Column> = Vec::new();
    if cpu_backend.is_some() {
        columns.push(Column::Cpu);
    }
    if gpu {
        columns.extend(plan.layouts.iter().map(|&l| Column::Gpu(l)));
    }
    let cpu_label = cpu_backend.map(cpu_label).unwrap_or_default();
    let both = gpu && cpu_backend.is_some();
    let machine = paper_machine(&columns);
    let mut setups = vec![Devices { count: 1, model: Model::Independent }];
    for count in device_counts(backends.len()).into_iter().filter(|&c| c > 1) {
        for model in [Model::Independent, Model::Islands, Model::MasterSlave] {
            setups.push(Devices { count, model });
        }
    }
    let paper_t = format!("paper T_avg (s) {machine}");
    let paper_error = format!("paper avg error % {machine}");
    let paper_speedup = if fixed {
        "paper speed-up i7 965 / GTX 480 (the row's layout; MATA on the CPU row)"
    } else {
        "paper speed-up i7 965 / GTX 480 MATA"
    };
    let mut header = vec![
        "instance",
        "LS",
        "engine",
        "devices",
        "runs",
        "#reached",
        "#cut off",
        "T_avg (s)",
        "σ",
        "avg error %",
        "move evals/s",
        "cAS iterations (mean)",
        "gain vs 1 device",
        "M(devices) (s)",
        &paper_t,
        "paper/ours",
    ];
    if fixed {
        header.push(&paper_error);
        header.push("paper cAS iterations (implied by its CPU times)");
    }
    header.push(paper_speedup);
    if both {
        header.push("ours speed-up CPU / GPU (the row's layout)");
    }
    let mut t = Table::new(&header);
    for name in &plan.instances {
        let (inst, known) = load(name)?;
        for &ls in &plan.searches {
            // The CPU row's T_avg, for our speed-up on the GPU rows.
            let mut cpu_mean = None;
            for &col in &columns {
                let (on, counts): (Vec<Backend>, &[Devices]) = match col {
                    Column::Cpu => (vec![cpu_backend.expect("a CPU column has its backend").clone()], &setups[..1]),
                    Column::Gpu(_) => (backends.to_vec(), &setups),
                };
                let (mut one_device, mut fit) = (Mean::Complete(f64::NAN), None);
                for d in counts {
                    let mut opts = setup(base, name, &inst, known, ls, col, fixed);
                    opts.multi = d.model;
                    let recs = runs_all(&on[..d.count], &inst, &opts, plan.runs, plan.limit)?;
                    let cell = Cell::of(&recs, known, fixed);
                    if d.count == 1 {
                        one_device = cell.mean;
                        fit = cell.complete_times.as_deref().and_then(GammaFit::fit);
                        if col == Column::Cpu {
                            cpu_mean = Some(cell.mean);
                        }
                    }
                    // The seeds publish one device only.
                    let (paper, paper_err, paper_up) =
                        if d.count == 1 { paper_of(name, ls, col, fixed) } else { (None, None, None) };
                    let mut row = vec![
                        name.clone(),
                        ls_name(ls).into(),
                        col.label(&cpu_label),
                        if d.count == 1 { "1".into() } else { format!("{} ({})", d.count, d.model.name()) },
                        cell.runs.to_string(),
                        cell.reached.to_string(),
                        cell.cut_off.to_string(),
                        cell.mean.cell(),
                        if cell.sd.is_finite() { fmt_secs(cell.sd) } else { "–".into() },
                        format!("{:.3}", cell.error),
                        if cell.evals_per_s.is_finite() { format!("{:.3e}", cell.evals_per_s) } else { "–".into() },
                        // A run cut off would have made more: a lower bound, as T_avg's.
                        if cell.cut_off > 0 {
                            format!("> {:.1}", cell.iterations)
                        } else {
                            format!("{:.1}", cell.iterations)
                        },
                        match (one_device.value(), cell.mean.value()) {
                            (Some(one), Some(m)) => finite(one / m),
                            _ => "–".into(),
                        },
                        fit.map(|f| f.mean_of_min(d.count as u32))
                            .filter(|m| m.is_finite())
                            .map_or("–".into(), fmt_secs),
                        paper.map_or("–".into(), as_printed),
                        cell.mean.ratio(paper),
                    ];
                    if fixed {
                        row.push(paper_err.map_or("–".into(), as_printed));
                        let implied = paper_implied_iterations(name).filter(|_| d.count == 1 && ls == LsKind::Tabu);
                        row.push(implied.map_or("–".into(), |x| format!("{x:.1}")));
                    }
                    row.push(paper_up.map_or("–".into(), |x| format!("{}×", as_printed(x))));
                    if both {
                        row.push(match (col, cpu_mean) {
                            (Column::Gpu(_), Some(c)) if d.count == 1 => speedup(c, cell.mean),
                            _ => "–".into(),
                        });
                    }
                    t.push(row);
                }
            }
        }
    }
    Ok(t)
}

/// One profiled run (`profile_runs`).
#[derive(Clone, Debug)]
pub struct Profiled {
    /// The run's seconds, from its first random ants (as every protocol times a run).
    pub elapsed: f64,
    /// Seconds to the target, where it was reached.
    pub reached: Option<f64>,
    /// Why it stopped.
    pub stopped: Stopped,
    /// Its final cost.
    pub cost: i64,
    /// The seconds of each step of Fig. 2.
    pub phases: PhaseTimes,
}

/// `n_runs` runs of the colony of `opts` with local search `ls` on `backend` (seeds
/// `opts.seed`, `opts.seed + 1`, …, each limited to `limit`), each step timed
/// (`AcoSolver::profiled`: on a GPU, one wait after each step). Every permutation is
/// re-costed on the host. The colony's engine only: n up to 256.
pub fn profile_runs(
    backend: &Backend,
    inst: &Instance,
    opts: &Options,
    ls: LsKind,
    n_runs: usize,
    limit: Duration,
) -> Result<Vec<Profiled>> {
    ensure!(
        inst.n <= qapgpu_common::MAX_N,
        "{}: n = {} is above {}: the profile times the colony's own engine, which runs up to n = {}",
        inst.name,
        inst.n,
        qapgpu_common::MAX_N,
        qapgpu_common::MAX_N
    );
    let interrupt = AtomicBool::new(false);
    let mut out = Vec::with_capacity(n_runs);
    for r in 0..n_runs {
        let o = Options { seed: opts.seed.wrapping_add(r as u64), time_limit: Some(limit), ..opts.clone() };
        o.validate()?;
        let mut cfg = AcoConfig::from_options(ls, inst, &o);
        aco::settle(backend, inst, &mut cfg)?;
        let engine = aco::engine(backend, inst, &cfg)?;
        let mut solver = AcoSolver::new(engine, inst.n, o.target, o.aco.max_ls_iterations).profiled();
        let limits = Limits { time_limit: o.time_limit, known: None };
        let stopping = Stopping::of(o.stop, inst, o.target, backend.is_gpu());
        let res = run::run_until(&mut solver, &limits, &stopping, &mut Silent, &interrupt)?;
        let cost = inst.checked_cost(&res.perm).map_err(|e| anyhow::anyhow!("{} returned {e}", cfg.algo_name()))?;
        ensure!(cost == res.cost, "{}: engine cost mismatch", inst.name);
        out.push(Profiled {
            elapsed: res.elapsed_s,
            reached: res.time_to_target_s,
            stopped: res.stopped,
            cost,
            phases: solver.phases().expect("the solver is profiled"),
        });
    }
    Ok(out)
}

/// The time split of runs `recs`: each step's mean seconds a run, and its share of all
/// their time in % ("other": the rest of the run, the best-so-far fold and the run loop's
/// checks). NaN shares where the runs took no time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    /// Mean seconds a run: the run, construction, local search, trail update, other.
    pub seconds: [f64; 5],
    /// % of the runs' time: construction, local search, trail update, other.
    pub percent: [f64; 4],
}

impl Split {
    /// The split of `recs` (at least one).
    pub fn of(recs: &[Profiled]) -> Split {
        let total = recs.iter().fold(PhaseTimes::default(), |acc, r| acc.add(&r.phases));
        let elapsed: f64 = recs.iter().map(|r| r.elapsed).sum();
        let steps = total.construction + total.local_search + total.trail;
        let parts = [total.construction, total.local_search, total.trail, (elapsed - steps).max(0.0)];
        let k = recs.len().max(1) as f64;
        let pct = |x: f64| if elapsed > 0.0 { 100.0 * x / elapsed } else { f64::NAN };
        Split {
            seconds: [elapsed / k, parts[0] / k, parts[1] / k, parts[2] / k, parts[3] / k],
            percent: parts.map(pct),
        }
    }
}

/// A share in % with three decimals, as Table 2 prints them ("–" for none).
pub fn fmt_percent(x: f64) -> String {
    if x.is_finite() { format!("{x:.3}") } else { "–".into() }
}

/// Table 2: the time split of cAS over its steps, per instance, under Table 5's
/// conditions (IT_TOTAL = n·50000 or the optimum, or the time limit: a run cut off still
/// splits its time), with the paper's shares beside ours (tabu search only; the paper's
/// were measured on the i7 965 on one thread, `--engine cpu --threads 1`). On a GPU each
/// step is timed to the end of its launches (one wait after each step, which only a
/// profiled run makes), so the run is a little slower than an unprofiled one.
pub fn profile(backend: &Backend, base: &Options, plan: &Plan) -> Result<Table> {
    let columns: Vec<Column> = match backend {
        Backend::Gpu(_) => plan.layouts.iter().map(|&l| Column::Gpu(l)).collect(),
        Backend::Cpu { .. } => vec![Column::Cpu],
    };
    let cpu_label = cpu_label(backend);
    let mut t = Table::new(&[
        "instance",
        "LS",
        "engine",
        "runs",
        "#cut off",
        "run (s)",
        "construction (s)",
        "construction %",
        "local search (s)",
        "local search %",
        "trail update (s)",
        "trail update %",
        "other (s)",
        "other %",
        "paper construction % (i7 965 1 thread)",
        "paper TS % (i7 965 1 thread)",
        "paper trail update % (i7 965 1 thread)",
    ]);
    for name in &plan.instances {
        let (inst, known) = load(name)?;
        for &ls in &plan.searches {
            for &col in &columns {
                let opts = setup(base, name, &inst, known, ls, col, true);
                let recs = profile_runs(backend, &inst, &opts, ls, plan.runs, plan.limit)?;
                let cut_off = recs.iter().filter(|r| r.reached.is_none() && r.stopped != Stopped::Budget).count();
                let split = Split::of(&recs);
                let paper = PAPER_T2.iter().find(|r| r.instance == name.as_str()).filter(|_| ls == LsKind::Tabu);
                let mut row = vec![
                    name.clone(),
                    ls_name(ls).into(),
                    col.label(&cpu_label),
                    recs.len().to_string(),
                    cut_off.to_string(),
                    fmt_secs(split.seconds[0]),
                ];
                for (s, p) in split.seconds[1..].iter().zip(split.percent) {
                    row.push(fmt_secs(*s));
                    row.push(fmt_percent(p));
                }
                for p in [paper.map(|r| r.construction), paper.map(|r| r.tabu_search), paper.map(|r| r.trail)] {
                    row.push(p.map_or("–".into(), fmt_percent));
                }
                t.push(row);
            }
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(reached: Option<f64>, elapsed: f64, stopped: Stopped) -> RunRecord {
        RunRecord {
            reached,
            elapsed,
            cost: 110,
            evaluations: 1000,
            search_seconds: elapsed,
            blocks: 1,
            best_at: None,
            iterations: 1,
            perm: vec![0, 1, 2],
            trace: Vec::new(),
            stopped,
        }
    }

    /// A row's cells that come from numbers: none may read NaN or inf.
    fn no_nan(cells: &[String]) {
        for c in cells {
            let l = c.to_lowercase();
            assert!(!l.contains("nan") && !l.contains("inf"), "{cells:?}");
        }
    }

    #[test]
    fn ratio_gives_none_without_a_time_of_ours() {
        assert_eq!(ratio(Some(4.0), 2.0), "2.0×");
        assert_eq!(ratio(None, 2.0), "–");
        assert_eq!(ratio(Some(4.0), f64::NAN), "–");
        assert_eq!(ratio(Some(4.0), 0.0), "–");
        assert_eq!(ratio(Some(4.0), f64::INFINITY), "–");
    }

    #[test]
    fn none_reached_prints_a_dash_not_nan() {
        // Table 6: no run reached its target within the limit.
        let recs = [record(None, 1.0, Stopped::TimeLimit), record(None, 1.0, Stopped::TimeLimit)];
        let c = Cell::of(&recs, 100, false);
        assert_eq!((c.reached, c.cut_off), (0, 2));
        assert_eq!(c.mean, Mean::Censored(1.0));
        assert_eq!(c.mean.cell(), "> 1.000");
        assert_eq!(c.mean.ratio(Some(0.1)), "–");
        assert_eq!(speedup(Mean::Complete(2.0), c.mean), "–");
        assert!(c.complete_times.is_none());
        no_nan(&[c.mean.cell(), c.mean.ratio(Some(0.1)), fmt(c.sd), format!("{:.3}", c.error)]);
        // No run at all (a mean of nothing).
        assert_eq!(Mean::of(&[], &[]).cell(), "–");
        assert_eq!(Mean::of(&[], &[]).ratio(Some(1.0)), "–");
    }

    #[test]
    fn a_cut_off_run_gives_no_speed_up() {
        // Table 5: one run spent IT_TOTAL, one reached the optimum, one was cut off.
        let recs = [
            record(None, 2.0, Stopped::Budget),
            record(Some(1.0), 1.0, Stopped::Target),
            record(None, 3.0, Stopped::TimeLimit),
        ];
        let c = Cell::of(&recs, 100, true);
        assert_eq!((c.runs, c.reached, c.cut_off), (3, 1, 1));
        assert_eq!(c.mean, Mean::Censored(2.0));
        assert_eq!(c.mean.cell(), "> 2.000");
        assert_eq!(c.mean.value(), None);
        assert_eq!(c.mean.ratio(Some(4.4)), "–");
        assert_eq!(speedup(Mean::Complete(74.4), c.mean), "–");
        assert_eq!(speedup(c.mean, Mean::Complete(1.0)), "–");
        assert!(c.sd.is_nan() && fmt(c.sd) == "–");
        // Without the cut-off run the same protocol gives a mean, a ratio and a speed-up.
        let c = Cell::of(&recs[..2], 100, true);
        assert_eq!((c.cut_off, c.mean), (0, Mean::Complete(1.5)));
        assert_eq!(c.mean.ratio(Some(3.0)), "2.0×");
        assert_eq!(speedup(Mean::Complete(15.0), c.mean), "10.0×");
        assert_eq!(c.complete_times.as_deref(), Some(&[2.0, 1.0][..]));
        // Table 6 counts a run that spent a budget and missed the target as cut off.
        assert_eq!(Cell::of(&recs[..2], 100, false).cut_off, 1);
    }

    #[test]
    fn implied_iterations_come_from_the_same_n_class_i_row() {
        // 6.318 / 144.1 · 3125 / 50 and 373.03 / 1246.6 · 3125 / 100.
        let x = paper_implied_iterations("tai50b").unwrap();
        assert!((x - 2.740).abs() < 1e-3, "{x}");
        let x = paper_implied_iterations("tai100b").unwrap();
        assert!((x - 9.351).abs() < 1e-3, "{x}");
        // No class (i) row of n = 150; class (i) rows themselves run the whole budget.
        assert_eq!(paper_implied_iterations("tai150b"), None);
        assert_eq!(paper_implied_iterations("tai50a"), None);
        assert_eq!(paper_implied_iterations("nug30"), None);
    }

    #[test]
    fn cell_iterations_are_the_runs_mean() {
        let mut recs = [record(Some(1.0), 1.0, Stopped::Target), record(None, 2.0, Stopped::Budget)];
        recs[0].iterations = 3;
        recs[1].iterations = 39;
        assert_eq!(Cell::of(&recs, 100, true).iterations, 21.0);
    }

    #[test]
    fn paper_columns_follow_the_rows_engine() {
        let (t, e, s) = paper_of("tai40a", LsKind::Tabu, Column::Cpu, true);
        assert_eq!((t, e, s), (Some(74.4), Some(0.31), Some(16.7)));
        let (t, e, s) = paper_of("tai40a", LsKind::Tabu, Column::Gpu(Layout::Plain), true);
        assert_eq!((t, e, s), (Some(27.8), Some(0.29), Some(2.7)));
        assert_eq!(paper_of("tai40a", LsKind::TwoOpt, Column::Cpu, true), (None, None, None));
        let (t, e, s) = paper_of("tai50a", LsKind::TwoOpt, Column::Cpu, false);
        assert_eq!((t, e, s), (Some(398.5), None, Some(55.5)));
        assert_eq!(paper_of("tai50a", LsKind::Tabu, Column::Gpu(Layout::Plain), false), (Some(2.5), None, None));
        assert_eq!(paper_of("tai50a", LsKind::Tabu, Column::Gpu(Layout::Split), false), (None, None, None));
        assert_eq!(paper_machine(&[Column::Cpu]), "i7 965 1 thread");
        let printed: Vec<String> = [74.4, 6.318, 5088.874, 4337.0, 0.0, 2.97, 21.0].map(as_printed).into();
        assert_eq!(printed, ["74.4", "6.318", "5088.874", "4337.0", "0.0", "2.97", "21.0"]);
        assert_eq!(cpu_label(&Backend::Cpu { threads: 1 }), "CPU 1 thread");
        // Every table lists the same ten instances.
        let names = |v: Vec<&str>| v.join(",");
        let t2 = names(PAPER_T2.iter().map(|r| r.instance).collect());
        assert_eq!(t2, names(PAPER_T5.iter().map(|r| r.instance).collect()));
        assert_eq!(t2, names(PAPER_T6.iter().map(|r| r.instance).collect()));
        // Table 2's rows each sum to 100 % (as printed, to within its rounding).
        for r in PAPER_T2 {
            assert!((r.construction + r.tabu_search + r.trail - 100.0).abs() < 0.0015, "{r:?}");
        }
    }

    #[test]
    fn the_steps_times_sum_to_the_runs_time() {
        // Class (i) settings on a random n = 20, one thread, no target: runs to the limit.
        let inst = crate::bench::random_instance(20, 3);
        let base = Options { threads: 1, ..Options::default() };
        let backend = Backend::Cpu { threads: 1 };
        let recs = profile_runs(&backend, &inst, &base, LsKind::Tabu, 2, Duration::from_millis(300)).unwrap();
        for r in &recs {
            let p = r.phases;
            assert_eq!(r.stopped, Stopped::TimeLimit);
            assert!(p.construction > 0.0 && p.local_search > 0.0 && p.trail > 0.0 && p.best > 0.0, "{p:?}");
            // Every step falls within the run; together they are nearly all of it (the run
            // loop's checks between them take microseconds; 10 % leaves room for a busy
            // machine's scheduling).
            assert!(p.total() <= r.elapsed, "{p:?} vs {}", r.elapsed);
            assert!(p.total() >= 0.9 * r.elapsed, "{p:?} vs {}", r.elapsed);
            assert!(p.local_search > 0.5 * r.elapsed, "{p:?} vs {}", r.elapsed);
        }
        let split = Split::of(&recs);
        let sum: f64 = split.percent.iter().sum();
        assert!((sum - 100.0).abs() < 1e-9, "{split:?}");
        assert!((split.seconds[1..].iter().sum::<f64>() - split.seconds[0]).abs() < 1e-9, "{split:?}");
        assert_eq!(fmt_percent(f64::NAN), "–");
        assert_eq!(fmt_percent(99.99249), "99.992");
    }

    #[test]
    fn an_unprofiled_colony_records_no_steps() {
        let inst = crate::bench::random_instance(12, 5);
        let cfg = AcoConfig::paper(LsKind::Tabu, 12, Class::Random);
        let engine = aco::engine(&Backend::Cpu { threads: 1 }, &inst, &cfg).unwrap();
        assert_eq!(AcoSolver::new(engine, 12, None, None).phases(), None);
    }
}
