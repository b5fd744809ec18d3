//! `qapgpu pose` and `qapgpu solve --problem`: another problem posed as a QAP, solved with
//! any family and engine, its answer decoded and checked in the problem's own terms.
use super::args::{PoseArgs, ProblemArgs, SolveArgs};
use super::INTERRUPT;
use crate::io::qaplib;
use crate::problems::{self, Answer, Kind, Posed, Spec, clique, graph};
use crate::run::{Observer, ProgressLine, Silent};
use crate::solution::Solution;
use anyhow::{Context, Result, bail};
use std::path::PathBuf;

fn spec(kind: Kind, file: Option<PathBuf>, k: Option<usize>, open_tour: bool) -> Result<Spec> {
    if kind.is_board() && file.is_some() {
        bail!("{}: a board problem takes --k, not a FILE", kind.name());
    }
    if open_tour && kind != Kind::Knight {
        bail!("--open-tour: only for the knight's tour");
    }
    Ok(Spec { file, k, open_tour })
}

pub fn pose(a: PoseArgs) -> Result<()> {
    let spec = spec(a.problem, a.file, a.k, a.open_tour)?;
    let posed = problems::pose(a.problem, &spec).with_context(|| a.problem.name())?;
    let text = qaplib::format_dat(posed.qap());
    match &a.output {
        Some(p) => qaplib::write_dat(p, posed.qap())?,
        None => print!("{text}"),
    }
    if let (Some(p), Some(t)) = (&a.output, posed.target()) {
        eprintln!("{}: n = {}, a permutation of cost {t} is a solution", p.display(), posed.qap().n);
    }
    Ok(())
}

/// The report of a solved problem: the QAP's solution, then the problem's answer.
/// (No QAP was solved for a graph without edges: its largest clique is one vertex.)
fn report(a: &SolveArgs, sol: Option<&Solution>, answer: &Answer) -> Result<()> {
    if a.json {
        let v = serde_json::json!({ "answer": answer, "qap": sol });
        println!("{v}");
    } else {
        print!("{}{}", sol.map_or(String::new(), Solution::text), answer.text());
    }
    Ok(())
}

pub fn solve(a: SolveArgs, kind: Kind) -> Result<()> {
    let ProblemArgs { k, open_tour, clique_search, .. } = a.problem.clone();
    if a.target_gap.is_some() {
        bail!("--target-gap: not with --problem (give --target or --known in the problem's terms: a tour length, a cut)");
    }
    let spec = spec(kind, a.instance.as_ref().map(PathBuf::from), k, open_tour)?;
    let seed = super::solve::seed_of(&a);
    let quiet = a.quiet || a.json;
    let backends = super::solve::open(&a.options(seed, None, None), quiet)?;
    let mut line = ProgressLine::new();
    let obs: &mut dyn Observer = if quiet { &mut Silent } else { &mut line };
    if kind == Kind::Clique {
        let file = spec.file.as_deref().context("clique: needs a graph FILE")?;
        let g = graph::read(file).context("clique")?;
        let mut last: Option<Solution> = None;
        let found = clique::search(&g, spec.k, clique_search, |problem| {
            let target = problem.target();
            let opts = a.options(seed, target, target);
            let sol = crate::api::solve_on_all(&backends, problem.qap(), &opts, obs, &INTERRUPT)?;
            if !quiet {
                eprintln!("clique k = {}: {} in {:.3} s", problem.k, if sol.time_to_target_s.is_some() { "found" } else { "not found" }, sol.elapsed_s);
            }
            let reached = sol.time_to_target_s.is_some();
            let perm = sol.perm();
            if reached || last.is_none() {
                last = Some(sol);
            }
            Ok((perm, reached))
        })?;
        return report(&a, last.as_ref(), &found.answer);
    }
    let posed = problems::pose(kind, &spec).with_context(|| kind.name())?;
    let measure = |v: Option<i64>, opt: &str| -> Result<Option<i64>> {
        v.map(|m| posed.cost_of_measure(m).with_context(|| format!("{opt}: {} has its own target (a valid answer)", kind.name()))).transpose()
    };
    let known = measure(a.known, "--known")?.or(posed.target());
    // Without a target, stop at the known value, as `solve` does.
    let target = measure(a.target, "--target")?.or(known);
    let opts = a.options(seed, target, known);
    let sol = crate::api::solve_on_all(&backends, posed.qap(), &opts, obs, &INTERRUPT)?;
    if !quiet {
        line.finish();
    }
    if let Some(p) = &a.write_sln {
        qaplib::write_sln(p, sol.cost, &sol.perm())?;
    }
    let answer = posed.answer(&sol.perm());
    report(&a, Some(&sol), &answer)
}
