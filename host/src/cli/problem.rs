//! `qapgpu pose` and `qapgpu solve --problem`: another problem posed as a QAP, solved with
//! any family and engine, its answer decoded and checked in the problem's own terms.
use super::INTERRUPT;
use super::args::{PoseArgs, ProblemArgs, SolveArgs};
use super::solve::Outputs;
use crate::io::qaplib;
use crate::output::{self, Output, stderr_line};
use crate::problems::solve::Polished;
use crate::problems::{self, Answer, Kind, Spec, graph, polish};
use crate::run::{Observer, ProgressLine, Silent, Trace, Traced};
use crate::solution::Solution;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

fn spec(kind: Kind, file: Option<PathBuf>, graph2: Option<PathBuf>, k: Option<usize>, open_tour: bool) -> Result<Spec> {
    if kind.is_board() && file.is_some() {
        bail!("{}: a board problem takes --k, not a FILE", kind.name());
    }
    if open_tour && kind != Kind::Knight {
        bail!("--open-tour: only for the knight's tour");
    }
    match (kind, &graph2) {
        (Kind::Packing, None) => bail!("packing: needs the second graph, --graph2 FILE (FILE is the first)"),
        (_, Some(_)) if kind != Kind::Packing => bail!("--graph2: only for packing (its second graph)"),
        _ => {}
    }
    Ok(Spec { file, graph2, k, open_tour })
}

/// Refuses an output that is packing's second graph, which `Outputs::check` does not know
/// of (it checks FILE).
fn not_graph2(graph2: Option<&Path>, outputs: &[(&str, &Option<PathBuf>)]) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let Some(input) = graph2.and_then(|g| std::fs::metadata(g).ok()) else { return Ok(()) };
    for (option, path) in outputs {
        let Some(path) = path else { continue };
        if std::fs::metadata(path).is_ok_and(|m| m.dev() == input.dev() && m.ino() == input.ino()) {
            let g2 = graph2.map_or(String::new(), |g| g.display().to_string());
            bail!("{option} {}: is the input file {g2}; it would be overwritten", path.display());
        }
    }
    Ok(())
}

pub fn pose(a: PoseArgs) -> Result<()> {
    let spec = spec(a.problem, a.file, a.graph2, a.k, a.open_tour)?;
    let inputs: Vec<&Path> = spec.file.iter().chain(&spec.graph2).map(PathBuf::as_path).collect();
    let out = a.output.as_deref().map(|p| Output::check("--output", p, &inputs)).transpose()?;
    let posed = problems::pose(a.problem, &spec).with_context(|| a.problem.name())?;
    let text = qaplib::format_dat(posed.qap());
    let Some(out) = out else { return output::stdout(text) };
    out.write(text.as_bytes())?;
    if let Some(t) = posed.target() {
        stderr_line(format_args!(
            "{}: n = {}, a permutation of cost {t} is a solution",
            out.path.display(),
            posed.qap().n
        ));
    }
    Ok(())
}

/// The report of a solved problem: the QAP's solution, then the problem's answer, then
/// what the polish did. (No QAP was solved for a graph without edges: its largest clique
/// is one vertex.)
fn report(a: &SolveArgs, sol: Option<&Solution>, answer: &Answer, polished: Option<&Polished>) -> String {
    if a.json {
        let mut v = serde_json::json!({ "answer": answer, "qap": sol });
        if let Some(p) = polished {
            v["polish"] = serde_json::to_value(&p.report).expect("the report serialises");
            v["answer_from"] = (if p.from_polish { "polish" } else { "search" }).into();
        }
        return v.to_string() + "\n";
    }
    let mut text = sol.map_or(String::new(), Solution::text);
    if let Some(p) = polished {
        let r = &p.report;
        let cost = |c: Option<i64>| c.map_or("none".to_string(), |c| c.to_string());
        let mode = format!("{:?}", r.mode).to_lowercase();
        text += &format!("{:<16} {mode}: {}\n", "polish", r.method);
        if r.mode != polish::Mode::None {
            text += &format!(
                "{:<16} best start {} (QAP cost, after the local search), polish {}, search {}; {} of the polish's answers taken in by the search\n",
                "polish costs",
                cost(r.start_cost),
                cost(r.polished_cost),
                cost(sol.map(|s| s.cost)),
                r.immigrants_taken
            );
        }
        let from = if p.from_polish {
            "the polish (the search's cost and permutation above are its own; --write-sln writes the answer)"
        } else {
            "the QAP search (with the polish's answers it took in)"
        };
        text += &format!("{:<16} {from}\n", "answer from");
    }
    text + &answer.text()
}

/// What a solved problem shows: the QAP search's solution (None where no QAP was solved),
/// the one written as the .sln where it differs (the polish's answer), the answer, and
/// what the polish did.
struct Shown<'s> {
    sol: Option<&'s Solution>,
    written: Option<&'s Solution>,
    answer: &'s Answer,
    polished: Option<&'s Polished>,
}

/// Writes the outputs (the answer's permutation as the .sln) and prints the report; an
/// answer that is not valid (a board with attacking pieces, a broken tour) is then an
/// error, after the best found was shown.
fn finish(a: &SolveArgs, kind: Kind, outputs: &Outputs, trace_csv: Option<&str>, shown: Shown) -> Result<()> {
    let text = report(a, shown.sol, shown.answer, shown.polished);
    outputs.finish(shown.written.or(shown.sol), trace_csv, &text)?;
    if let Some(why) = &shown.answer.defect {
        bail!("{}: the best answer found is not valid: {why}", kind.name());
    }
    Ok(())
}

pub fn solve(a: SolveArgs, kind: Kind) -> Result<()> {
    let ProblemArgs { k, open_tour, clique_search, polish: mode, graph2, .. } = a.problem.clone();
    let mode = mode.unwrap_or_default();
    if a.target_gap.is_some() {
        bail!(
            "--target-gap: not with --problem (give --target or --known in the problem's terms: a tour length, a cut)"
        );
    }
    let spec = spec(kind, a.instance.as_ref().map(PathBuf::from), graph2, k, open_tour)?;
    if a.trace.is_some() && kind == Kind::Clique && k.is_none() {
        bail!("--trace: not with a clique search, which solves one QAP for each k (give --k for one)");
    }
    not_graph2(spec.graph2.as_deref(), &[("--write-sln", &a.write_sln), ("--trace", &a.trace)])?;
    let outputs = Outputs::check(&a, spec.file.as_deref())?;
    // Posed, and its targets checked, before any device opens (a clique is posed for each k).
    let posed = (kind != Kind::Clique).then(|| problems::pose(kind, &spec).with_context(|| kind.name())).transpose()?;
    let measure = |v: Option<i64>, opt: &str| -> Result<Option<i64>> {
        let (Some(m), Some(posed)) = (v, &posed) else { return Ok(None) };
        match posed.cost_of_measure(m) {
            Some(cost) => Ok(Some(cost)),
            None if kind.has_own_target() => bail!("{opt}: {} has its own target (a valid answer)", kind.name()),
            None => bail!("{opt} {m}: out of range (as a cost of {}'s QAP it does not fit in 64 bits)", kind.name()),
        }
    };
    let known = measure(a.known, "--known")?.or(posed.as_ref().and_then(|p| p.target()));
    // Without a target, stop at the known value, as `solve` does.
    let target = measure(a.target, "--target")?.or(known);
    let seed = super::solve::seed_of(&a);
    let quiet = a.quiet || a.json;
    let base = a.options(seed, None, None);
    let backends = super::solve::open(&base, quiet)?;
    // `auto` picks per posed QAP inside the search, never a GA or the cellular GA (but the
    // GA below n = 3): its settings are checked against `auto` itself (`open` has validated
    // the values).
    crate::algo::check_settings_for(&base, a.algo.as_deref().unwrap_or(crate::algo::AUTO))?;
    let (mut line, mut silent) = (ProgressLine::new(), Silent);
    let shown: &mut dyn Observer = if quiet { &mut silent } else { &mut line };
    let mut obs = Traced { inner: shown, trace: outputs.trace.as_ref().map(|_| Trace::default()) };
    let Some(posed) = posed else {
        let file = spec.file.as_deref().context("clique: needs a graph FILE")?;
        let g = graph::read(file).context("clique")?;
        let options = |target: Option<i64>| a.options(seed, target, target);
        let walk =
            problems::solve::CliqueWalk { backends: &backends, options: &options, seed, mode, quiet, up_to: None };
        let (found, last, polished) = walk.run(&g, spec.k, clique_search, &mut obs, &INTERRUPT)?;
        let csv = obs.trace.map(|t| t.csv(last.as_ref().and_then(|s| s.best_known)));
        let shown = Shown { sol: last.as_ref(), written: None, answer: &found.answer, polished: polished.as_ref() };
        return finish(&a, kind, &outputs, csv.as_deref(), shown);
    };
    let opts = a.options(seed, target, known);
    let solved = problems::solve::posed(&backends, posed.as_ref(), &opts, mode, &mut obs, &INTERRUPT)?;
    let csv = obs.trace.map(|t| t.csv(known));
    if !quiet {
        line.finish();
    }
    let written = solved.from_polish().then(|| solved.written());
    let answer = posed.answer(&solved.perm);
    let shown = Shown {
        sol: Some(&solved.sol),
        written: written.as_ref(),
        answer: &answer,
        polished: solved.polished.as_ref(),
    };
    finish(&a, kind, &outputs, csv.as_deref(), shown)
}
