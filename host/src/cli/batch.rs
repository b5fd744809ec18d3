//! `qapgpu solve-batch`: many instances, each solved on its own by one call of
//! `batch::solve_batch`, with one line (or one JSON object) an instance on standard output,
//! the same rows in `--out` (CSV or JSON lines), and a summary on standard error.
//!
//! Every input is read, and `--out` checked, before any search: a file that cannot be read
//! is a one-line error naming it. Ctrl-C (SIGTERM, SIGHUP) ends every search with its best
//! so far, which is then printed and written as a finished batch's would be.
use super::args::{algorithms, seconds};
use super::solve::clock_seed;
use super::{INTERRUPT, catch_signals};
use crate::algo::aco::AcoOptions;
use crate::algo::policy::EXACT_MAX_N;
use crate::algo::{Backend, EngineChoice, Options};
use crate::io::input::read_text;
use crate::io::{Instance, qaplib};
use crate::output::{self, Output, stderr_line};
use crate::run::{StopRule, gap_percent};
use crate::solution::Solution;
use anyhow::{Context, Result, bail, ensure};
use clap::Args;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Most bytes a list of paths may take (`-`, `--list`): a million paths of 64 bytes.
const LIST_BYTES: u64 = 64 << 20;
/// The path that stands for standard input in the arguments and in `--list`.
const STDIN: &str = "-";

#[derive(Args, Clone)]
pub struct BatchArgs {
    /// QAPLIB .dat files, folders (every *.dat file in one, by name), instance names (looked
    /// up as `solve` looks them up), and `-`: a list of paths on standard input, one a line.
    #[arg(value_name = "PATH")]
    pub inputs: Vec<PathBuf>,
    /// A file that lists paths (files, folders or names), one a line, relative to the
    /// working directory; blank lines and lines starting with # are skipped. `-`: standard
    /// input.
    #[arg(long, value_name = "FILE")]
    pub list: Option<PathBuf>,
    /// Algorithm of every instance (default: auto, chosen from each instance's features).
    #[arg(long, value_parser = algorithms())]
    pub algo: Option<String>,
    /// GPU engine, CPU engine (one instance per thread), or auto (GPU when usable).
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: EngineChoice,
    /// Seconds each instance's search may take. On the GPU the instances of one size search
    /// together, so it bounds their group too.
    #[arg(long, default_value = "10", value_parser = seconds, allow_negative_numbers = true)]
    pub time_limit: Duration,
    // `stop_help`.
    #[arg(long, value_enum, default_value = "converged", help = stop_help())]
    pub stop: StopRule,
    /// The batch's seed (default: from the clock); each instance runs with its own seed
    /// drawn from it, which its row shows.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Walks (ts) or ants (the colonies) per instance (default: the family's for each n).
    #[arg(long)]
    pub ants: Option<u32>,
    /// CPU engine: instances solved at once, one a thread (0: all cores; at most 256).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// The CUDA device the batch runs on.
    #[arg(long, default_value_t = 0)]
    pub gpu: usize,
    /// One JSON object a line on stdout, an instance each: `solve --json`'s fields, after
    /// `file`, the path read.
    #[arg(long)]
    pub json: bool,
    /// Also write the rows to FILE, whole or not at all: JSON lines where its name ends in
    /// .json, .jsonl or .ndjson, else CSV (file, instance, n, cost, best_known, gap_percent,
    /// algorithm, engine, seed, elapsed_s, stopped, stop_rule, interrupted, permutation).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// No notes and no summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--stop`'s help, with the exact method's bound from the policy table.
fn stop_help() -> String {
    format!(
        "When each instance stops besides --time-limit: `converged` (the default) also stops once its search has converged, and solves n ≤ {EXACT_MAX_N} exactly on the CPU; `time` runs every instance to the limit. A best-known value is not a target here: it only gives the gap"
    )
}

/// An instance read for the batch: its file, and its best-known value with where that
/// came from (`qaplib::best_known`, as `solve` looks it up).
struct Read {
    path: PathBuf,
    inst: Instance,
    known: Option<(i64, String)>,
}

/// `qapgpu solve-batch`.
pub fn solve_batch(a: BatchArgs) -> Result<()> {
    let quiet = a.quiet;
    let (files, lists) = gather(&a)?;
    let read = files
        .into_iter()
        .map(|path| {
            let inst = qaplib::read_dat(&path)?;
            let known = qaplib::best_known(&path, &inst).noted(quiet || a.json);
            Ok(Read { path, inst, known })
        })
        .collect::<Result<Vec<_>>>()?;
    let inputs: Vec<&Path> = read.iter().map(|r| r.path.as_path()).chain(lists.iter().map(PathBuf::as_path)).collect();
    let out = a.out.as_deref().map(|p| Output::check("--out", p, &inputs)).transpose()?;
    let opts = Options {
        algorithm: a.algo.clone(),
        engine: a.engine,
        threads: a.threads,
        gpu: a.gpu,
        gpus: vec![a.gpu],
        seed: a.seed.unwrap_or_else(clock_seed),
        time_limit: Some(a.time_limit),
        stop: a.stop,
        aco: AcoOptions { ants: a.ants, ..AcoOptions::default() },
        ..Options::default()
    };
    opts.validate()?;
    let backend = Backend::open(&opts, |why| {
        if !quiet {
            stderr_line(format_args!("note: {why}"));
        }
    })?;
    catch_signals()?;
    let instances: Vec<Instance> = read.iter().map(|r| r.inst.clone()).collect();
    let started = Instant::now();
    let sols = crate::batch::solve_batch(&backend, &instances, &opts, &INTERRUPT)?;
    let seconds = started.elapsed().as_secs_f64();
    ensure!(sols.len() == read.len(), "the batch returned {} solutions for {} instances", sols.len(), read.len());
    let rows: Vec<Row> = read
        .iter()
        .zip(sols)
        .map(|(r, sol)| {
            let (known, source) = r.known.clone().unzip();
            let sol = Solution {
                best_known: known,
                best_known_source: source,
                gap_percent: gap_percent(sol.cost, known),
                ..sol
            };
            Row { file: r.path.display().to_string(), sol }
        })
        .collect();
    // The file first, then stdout (a closed pipe there still leaves the file), then the
    // summary; a file that could not be written is the error.
    let written = out.as_ref().map_or(Ok(()), |o| o.write(file_text(o, &rows)?.as_bytes()));
    let printed = output::stdout(if a.json { json_lines(&rows)? } else { table(&rows) });
    if !quiet {
        stderr_line(format_args!("{}", summary(&rows, seconds, &backend)));
    }
    printed.and(written)
}

/// The instance files of the arguments and of `--list`, in order, and the lists read (which
/// `--out` may not overwrite).
fn gather(a: &BatchArgs) -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let (mut files, mut lists, mut stdin_read) = (Vec::new(), Vec::new(), false);
    let mut list = |path: &Path, what: String, files: &mut Vec<PathBuf>| -> Result<()> {
        let stdin = path == Path::new(STDIN);
        if stdin {
            ensure!(!stdin_read, "{what}: standard input is read once (`-` is given twice)");
            stdin_read = true;
        }
        let source = if stdin { Path::new("/dev/stdin") } else { path };
        let text = read_text(source, LIST_BYTES).map_err(|f| anyhow::anyhow!("{what}: {f}"))?;
        let before = files.len();
        for (k, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            expand(Path::new(line), files).with_context(|| format!("{what}, line {}", k + 1))?;
        }
        ensure!(files.len() > before, "{what}: lists no path");
        if !stdin {
            lists.push(path.to_path_buf());
        }
        Ok(())
    };
    for p in &a.inputs {
        if p == Path::new(STDIN) {
            list(p, "- (the list on standard input)".into(), &mut files)?;
        } else {
            expand(p, &mut files)?;
        }
    }
    if let Some(p) = &a.list {
        list(p, format!("--list {}", p.display()), &mut files)?;
    }
    ensure!(
        !files.is_empty(),
        "solve-batch: no instance given: name .dat files, folders, `-` (a list on standard input) or --list FILE"
    );
    Ok((files, lists))
}

/// Adds `path` to `files`: every *.dat file of a folder, sorted by name (none is an error),
/// else the file, or the instance a bare name stands for (`qaplib::resolve`).
fn expand(path: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    if !path.is_dir() {
        files.push(qaplib::resolve(path));
        return Ok(());
    }
    let cannot = |e: std::io::Error| anyhow::anyhow!("{}: cannot list the folder: {e}", path.display());
    let mut found = Vec::new();
    for entry in std::fs::read_dir(path).map_err(cannot)? {
        let p = entry.map_err(cannot)?.path();
        if p.extension().is_some_and(|e| e == "dat") {
            found.push(p);
        }
    }
    if found.is_empty() {
        bail!("{}: a folder without a .dat file", path.display());
    }
    found.sort();
    files.extend(found);
    Ok(())
}

/// One instance's answer: the file read and `solve --json`'s fields.
#[derive(Serialize)]
struct Row {
    file: String,
    #[serde(flatten)]
    sol: Solution,
}

/// One JSON object a line.
fn json_lines(rows: &[Row]) -> Result<String> {
    let mut s = String::new();
    for r in rows {
        s += &serde_json::to_string(r)?;
        s.push('\n');
    }
    Ok(s)
}

/// `--out`'s bytes: JSON lines for a `.json`, `.jsonl` or `.ndjson` file, else CSV.
fn file_text(out: &Output, rows: &[Row]) -> Result<String> {
    let json = out
        .path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["json", "jsonl", "ndjson"].iter().any(|j| e.eq_ignore_ascii_case(j)));
    if json { json_lines(rows) } else { Ok(csv(rows)) }
}

/// The CSV columns (`--out`'s help lists them).
const CSV_HEADER: &str = "file,instance,n,cost,best_known,gap_percent,algorithm,engine,seed,elapsed_s,stopped,stop_rule,interrupted,permutation";

/// The rows as CSV, a header first; the permutation 1-based, its entries separated by spaces.
fn csv(rows: &[Row]) -> String {
    let mut s = format!("{CSV_HEADER}\n");
    for Row { file, sol } in rows {
        let perm: Vec<String> = sol.permutation.iter().map(u32::to_string).collect();
        let fields = [
            file.clone(),
            sol.instance.clone(),
            sol.n.to_string(),
            sol.cost.to_string(),
            sol.best_known.map_or(String::new(), |k| k.to_string()),
            sol.gap_percent.map_or(String::new(), |g| format!("{g:.6}")),
            sol.algorithm.clone(),
            sol.engine.clone(),
            sol.seed.to_string(),
            format!("{:.6}", sol.elapsed_s),
            sol.stopped.name().to_string(),
            sol.stop_rule.name().to_string(),
            sol.interrupted.to_string(),
            perm.join(" "),
        ];
        s += &fields.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(",");
        s.push('\n');
    }
    s
}

/// A CSV field, quoted (RFC 4180) where it holds a comma, a quote or a line break.
fn csv_field(f: &str) -> String {
    if f.contains([',', '"', '\n', '\r']) { format!("\"{}\"", f.replace('"', "\"\"")) } else { f.to_string() }
}

/// The rows as an aligned table with a header: instance, n, cost, best known, gap, seconds,
/// why it stopped, the algorithm and the file.
fn table(rows: &[Row]) -> String {
    let header = ["instance", "n", "cost", "best known", "gap %", "seconds", "stopped", "algorithm", "file"];
    let cells: Vec<[String; 9]> = rows
        .iter()
        .map(|Row { file, sol }| {
            [
                sol.instance.clone(),
                sol.n.to_string(),
                sol.cost.to_string(),
                sol.best_known.map_or("-".into(), |k| k.to_string()),
                sol.gap_percent.map_or("-".into(), |g| format!("{g:.4}")),
                format!("{:.3}", sol.elapsed_s),
                sol.stopped.name().to_string(),
                sol.algorithm.clone(),
                file.clone(),
            ]
        })
        .collect();
    let width = |k: usize| cells.iter().map(|c| c[k].chars().count()).chain([header[k].len()]).max().unwrap_or(0);
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    // Text columns to the left, numbers to the right; the last column unpadded.
    let line = |cells: &[&str]| {
        let mut s = String::new();
        for (k, c) in cells.iter().enumerate() {
            let pad = widths[k].saturating_sub(c.chars().count());
            match k {
                8 => s += c,
                1..=5 => s += &format!("{}{c}  ", " ".repeat(pad)),
                _ => s += &format!("{c}{}  ", " ".repeat(pad)),
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut s = line(&header);
    for c in &cells {
        s += &line(&c.iter().map(String::as_str).collect::<Vec<_>>());
    }
    s
}

/// The batch in one line: instances, seconds, where they ran, the mean gap over those with a
/// best-known value, and how many a Ctrl-C cut short.
fn summary(rows: &[Row], seconds: f64, backend: &Backend) -> String {
    let on = match backend {
        Backend::Gpu(g) => format!("GPU {}", g.describe()),
        Backend::Cpu { threads } => format!("the CPU engine, {} threads", crate::algo::cpu_threads(*threads)),
    };
    let gaps: Vec<f64> = rows.iter().filter_map(|r| r.sol.gap_percent).collect();
    let gap = if gaps.is_empty() {
        "no best-known value to compare with".to_string()
    } else {
        let at = rows.iter().filter(|r| r.sol.best_known.is_some_and(|k| r.sol.cost == k)).count();
        format!(
            "mean gap {:.4} % over the {} with a best-known value ({at} at it)",
            gaps.iter().sum::<f64>() / gaps.len() as f64,
            gaps.len()
        )
    };
    let cut = rows.iter().filter(|r| r.sol.interrupted).count();
    let cut = if cut > 0 { format!("; {cut} interrupted: their best so far") } else { String::new() };
    format!("solve-batch: {} instances in {seconds:.3} s on {on}; {gap}{cut}", rows.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_where_they_must_be() {
        assert_eq!(csv_field("a/b.dat"), "a/b.dat");
        assert_eq!(csv_field("a,b.dat"), "\"a,b.dat\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
    }
}
