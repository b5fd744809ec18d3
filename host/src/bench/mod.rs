//! The one benchmark harness (instances, timed runs through the registry, statistics,
//! tables as CSV and Markdown) and one file per paper's protocol, each printing the
//! paper's table format beside its published numbers.
pub mod compare;
pub mod gamma;
pub mod gaps;
pub mod literature;
pub mod problem_files;
pub mod problems;
pub mod seed000;
pub mod seed001;
pub mod seed003;
pub mod seed004;
pub mod ttt;
pub mod wilcoxon;

use crate::algo::{self, Backend, Options};
use crate::io::{Instance, qaplib};
use crate::run::{self, Limits, Silent, Stopped, Stopping, Trace};
use anyhow::{Context, Result, ensure};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// An instance and its best-known value (bks.csv or .sln).
pub fn load(name: &str) -> Result<(Instance, i64)> {
    let path = qaplib::resolve(name);
    let inst = qaplib::read_dat(&path)?;
    let found = qaplib::best_known(&path, &inst);
    for note in &found.notes {
        eprintln!("note: {note}");
    }
    let known = found
        .value()
        .with_context(|| format!("{name}: no best-known value for n = {} in bks.csv or a .sln", inst.n))?;
    Ok((inst, known))
}

/// A random instance of size `n` whose entries are uniform in 0..100, from `seed` (the kind
/// scripts/random-dat.py writes, not its numbers): the n = 256 case of the hardening tests.
pub fn random_instance(n: usize, seed: u64) -> Instance {
    let mut rng = qapgpu_common::rng::Xoshiro128::from_stream(seed, 0);
    let mut matrix = || (0..n * n).map(|_| i64::from(rng.below(100))).collect::<Vec<i64>>();
    let (a, b) = (matrix(), matrix());
    Instance::new(format!("random{n}"), n, a, b).expect("entries below 100 fit every width")
}

/// `known` raised by `percent` %, rounded down: an acceptable cost.
pub fn within(known: i64, percent: f64) -> i64 {
    known + (known as f64 * percent / 100.0).floor() as i64
}

/// Mean and sample standard deviation (NaN for no values).
pub fn mean_sd(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let m = xs.iter().sum::<f64>() / xs.len() as f64;
    let var = if xs.len() > 1 { xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64 } else { 0.0 };
    (m, var.sqrt())
}

/// Median (NaN for no values).
pub fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 { v[m] } else { (v[m - 1] + v[m]) / 2.0 }
}

/// Median and median absolute deviation (unscaled), as the thesis reports them.
pub fn median_mad(xs: &[f64]) -> (f64, f64) {
    let m = median(xs);
    let dev: Vec<f64> = xs.iter().map(|x| (x - m).abs()).collect();
    (m, median(&dev))
}

/// `cell` as one CSV field: quoted, with its quotes doubled, where it holds a comma, a
/// quote or a line break.
fn csv_cell(cell: &str) -> std::borrow::Cow<'_, str> {
    if cell.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", cell.replace('"', "\"\"")).into()
    } else {
        cell.into()
    }
}

/// A table cell: "–" for NaN, 3 decimals below 10, 2 above.
pub fn fmt(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else if x < 10.0 {
        format!("{x:.3}")
    } else {
        format!("{x:.2}")
    }
}

/// Seconds: `fmt`, with a fourth decimal below 0.1 s, where the targets of issue 10 are
/// reached within a millisecond or two, and a sixth below 0.01 s (three digits of a
/// sub-millisecond time: 0.000653).
pub fn fmt_secs(x: f64) -> String {
    if x < 0.01 {
        format!("{x:.6}")
    } else if x < 0.1 {
        format!("{x:.4}")
    } else {
        fmt(x)
    }
}

/// Paper time over ours, "–" without a paper value or without a time of ours (NaN: no run
/// reached its target; a time that is not positive and finite gives no ratio either).
pub fn ratio(paper: Option<f64>, ours: f64) -> String {
    match paper {
        Some(p) if ours.is_finite() && ours > 0.0 && p.is_finite() => format!("{:.1}×", p / ours),
        _ => "–".into(),
    }
}

/// The device counts a multi-device protocol compares: 1, 2, 4, … up to `available`, and
/// `available` itself.
pub fn device_counts(available: usize) -> Vec<usize> {
    let mut v: Vec<usize> =
        std::iter::successors(Some(1usize), |c| Some(c * 2)).take_while(|&c| c < available).collect();
    v.push(available.max(1));
    v
}

/// One run of a protocol.
#[derive(Clone, Debug)]
pub struct RunRecord {
    /// Seconds to the target, None when not reached within the limit.
    pub reached: Option<f64>,
    /// Seconds the run took.
    pub elapsed: f64,
    /// The run's final cost.
    pub cost: i64,
    /// Local-search move evaluations (`Counters::evaluations`).
    pub evaluations: u64,
    /// Seconds spent in local searches (`Counters::search_seconds`).
    pub search_seconds: f64,
    /// Blocks the solver used (a filled GPU's count when 0 was asked).
    pub blocks: u32,
    /// Iteration that found the final cost, where the family records it.
    pub best_at: Option<u64>,
    /// Iterations the run made (`Counters::iterations`: generations for the GAs).
    pub iterations: u64,
    /// The final permutation (0-based).
    pub perm: Vec<u16>,
    /// (seconds, best cost) at every improvement, when the protocol asked for a trace.
    pub trace: Vec<(f64, i64)>,
    /// Why the run stopped: a run cut off by the time limit (`Stopped::TimeLimit`) reached
    /// neither its target nor its own budget.
    pub stopped: Stopped,
}

impl RunRecord {
    /// The times to target of the runs that reached it.
    pub fn successes(runs: &[RunRecord]) -> Vec<f64> {
        runs.iter().filter_map(|r| r.reached).collect()
    }
}

/// `runs` runs of `opts` (seeds `opts.seed`, `opts.seed + 1`, …), each limited to `limit`.
/// Every permutation is re-costed on the host.
pub fn runs(
    backend: &Backend,
    inst: &Instance,
    opts: &Options,
    runs: usize,
    limit: Duration,
) -> Result<Vec<RunRecord>> {
    runs_all(std::slice::from_ref(backend), inst, opts, runs, limit)
}

/// As `runs`, each run on every device of `backends` at once (`algo::multi`) when there
/// are several.
pub fn runs_all(
    backends: &[Backend],
    inst: &Instance,
    opts: &Options,
    runs: usize,
    limit: Duration,
) -> Result<Vec<RunRecord>> {
    runs_traced(backends, inst, opts, runs, limit, false)
}

/// As `runs_all`; with `trace`, each record carries its convergence curve (the best cost
/// read after every step: one extra small read per step).
pub fn runs_traced(
    backends: &[Backend],
    inst: &Instance,
    opts: &Options,
    runs: usize,
    limit: Duration,
    trace: bool,
) -> Result<Vec<RunRecord>> {
    let stop = AtomicBool::new(false);
    let mut out = Vec::with_capacity(runs);
    for r in 0..runs {
        let o = Options { seed: opts.seed.wrapping_add(r as u64), time_limit: Some(limit), ..opts.clone() };
        let mut solver = algo::build_on(backends, inst, &o)?;
        let limits = Limits { time_limit: o.time_limit, known: None };
        let mut curve = Trace::default();
        let stopping = Stopping::of(o.stop, inst, o.target, backends.iter().any(algo::Backend::is_gpu));
        let res = if trace {
            run::run_until(solver.as_mut(), &limits, &stopping, &mut curve, &stop)?
        } else {
            run::run_until(solver.as_mut(), &limits, &stopping, &mut Silent, &stop)?
        };
        let cost =
            inst.checked_cost(&res.perm).map_err(|e| anyhow::anyhow!("{} returned {e}", solver.info().algorithm))?;
        ensure!(cost == res.cost, "{}: engine cost mismatch", inst.name);
        out.push(RunRecord {
            reached: res.time_to_target_s,
            elapsed: res.elapsed_s,
            cost: res.cost,
            evaluations: res.counters.evaluations,
            search_seconds: res.counters.search_seconds,
            blocks: solver.info().blocks,
            best_at: res.counters.best_at,
            iterations: res.counters.iterations,
            perm: res.perm,
            trace: curve.points,
            stopped: res.stopped,
        });
    }
    Ok(out)
}

/// The engine of `backends` in a table's words: "GPU", "K GPUs" or "CPU".
pub fn engine_label(backends: &[Backend]) -> String {
    match (&backends[0], backends.len()) {
        (Backend::Gpu(_), 1) => "GPU".to_string(),
        (Backend::Gpu(_), k) => format!("{k} GPUs"),
        _ => "CPU".to_string(),
    }
}

/// Every run of a protocol, a row each, written as `<stem>-runs.csv` beside its tables: the
/// distribution behind a mean (its tail; a TTT plot drawn elsewhere). The time to the
/// target is empty for a run that did not reach it.
pub struct RunLog(Table);

impl Default for RunLog {
    fn default() -> RunLog {
        RunLog(Table::new(&[
            "instance",
            "target",
            "algorithm",
            "engine",
            "seed",
            "time to target (s)",
            "elapsed (s)",
            "cost",
        ]))
    }
}

impl RunLog {
    /// The runs `recs` of `algorithm` on `engine`, whose seeds count up from `first_seed`
    /// (`runs_traced`).
    pub fn add(
        &mut self,
        instance: &str,
        target: i64,
        algorithm: &str,
        engine: &str,
        first_seed: u64,
        recs: &[RunRecord],
    ) {
        for (i, r) in recs.iter().enumerate() {
            let seed = first_seed.wrapping_add(i as u64).to_string();
            let reached = r.reached.map_or(String::new(), |t| t.to_string());
            self.0.rows.push(vec![
                instance.into(),
                target.to_string(),
                algorithm.into(),
                engine.into(),
                seed,
                reached,
                r.elapsed.to_string(),
                r.cost.to_string(),
            ]);
        }
    }

    /// The rows so far (header first), as the CSV has them.
    pub fn csv(&self) -> String {
        self.0.csv()
    }

    /// Writes `<stem>-runs.csv` into `dir`.
    pub fn write(&self, dir: &Path, stem: &str) -> Result<()> {
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
        let path = dir.join(format!("{stem}-runs.csv"));
        write_file(&path, self.csv())
    }
}

/// A result file, replaced whole (`output::replace`): a failed or concurrent write leaves
/// the previous one intact.
fn write_file(path: &Path, text: impl AsRef<[u8]>) -> Result<()> {
    crate::output::replace(path, text.as_ref()).with_context(|| format!("--out {}: cannot write it", path.display()))
}

/// Fails at once, before any run, where `--out`'s folder cannot be made or written.
pub fn check_out_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("--out {}: cannot create the folder", dir.display()))?;
    let probe = dir.join(format!(".qapgpu-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").with_context(|| format!("--out {}: cannot write in the folder", dir.display()))?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

/// A results table, written as Markdown or CSV.
pub struct Table {
    /// The column names.
    pub header: Vec<String>,
    /// The rows, one cell per column.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// An empty table with these columns.
    pub fn new(header: &[&str]) -> Table {
        Table { header: header.iter().map(|s| s.to_string()).collect(), rows: Vec::new() }
    }

    /// Adds a row and prints it on stderr at once (long protocols show progress).
    pub fn push(&mut self, row: Vec<String>) {
        eprintln!("{}", row.join(" | "));
        self.rows.push(row);
    }

    /// The table in Markdown.
    pub fn markdown(&self) -> String {
        let mut s = format!("| {} |\n|{}\n", self.header.join(" | "), "---|".repeat(self.header.len()));
        for r in &self.rows {
            s += &format!("| {} |\n", r.join(" | "));
        }
        s
    }

    /// The table as CSV (RFC 4180: a cell with a comma, a quote or a line break is quoted).
    pub fn csv(&self) -> String {
        let line = |cells: &[String]| cells.iter().map(|c| csv_cell(c)).collect::<Vec<_>>().join(",") + "\n";
        let mut s = line(&self.header);
        for r in &self.rows {
            s += &line(r);
        }
        s
    }

    /// Writes several tables: one Markdown file `<stem>.md` with each under its heading,
    /// and one CSV per table, `<stem>-<key>.csv`. Returns the Markdown.
    pub fn write_all(
        dir: &Path,
        stem: &str,
        title: &str,
        context: &str,
        tables: &[(String, String, Table)],
    ) -> Result<String> {
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
        let mut md = format!("### {title}\n\n{context}\n");
        for (key, heading, t) in tables {
            md += &format!("\n#### {heading}\n\n{}", t.markdown());
            write_file(&dir.join(format!("{stem}-{key}.csv")), t.csv())?;
        }
        write_file(&dir.join(format!("{stem}.md")), &md)?;
        Ok(md)
    }

    /// Writes `<stem>.md` (with `title` and `context`) and `<stem>.csv` into `dir`, and
    /// returns the Markdown.
    pub fn write(&self, dir: &Path, stem: &str, title: &str, context: &str) -> Result<String> {
        let md = format!("### {title}\n\n{context}\n\n{}", self.markdown());
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
        write_file(&dir.join(format!("{stem}.md")), &md)?;
        write_file(&dir.join(format!("{stem}.csv")), self.csv())?;
        Ok(md)
    }
}

#[cfg(test)]
mod tests {
    use super::Table;

    #[test]
    fn csv_quotes_cells_with_commas_and_quotes() {
        let mut t = Table::new(&["engine", "best (generation)"]);
        t.push(vec!["CPU, 2 threads".into(), "say \"hi\"".into()]);
        assert_eq!(t.csv(), "engine,best (generation)\n\"CPU, 2 threads\",\"say \"\"hi\"\"\"\n");
    }
}
