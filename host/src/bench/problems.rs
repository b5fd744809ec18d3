//! `bench problems`: other problems posed as QAPs, on generated instances whose optimum or
//! whose solution is known by construction (`problems::generate`; no third-party data),
//! solved to that target on the chosen engine and on the CPU, every answer decoded and
//! checked in the problem's terms.
use super::{RunRecord, Table, fmt, median, runs};
use crate::algo::{Backend, Options};
use crate::problems::chess::{Knight, Piece, Placement};
use crate::problems::clique::Clique;
use crate::problems::gpp::Gpp;
use crate::problems::lap::Lap;
use crate::problems::tsp::Tsp;
use crate::problems::{Posed, generate, tsplib};
use anyhow::{Result, ensure};
use std::path::Path;
use std::time::Duration;

/// One benchmark case: a posed problem with a target, and what is known about it.
pub struct Case {
    /// The case's name in the table.
    pub label: String,
    /// The problem, posed as a QAP.
    pub posed: Box<dyn Posed>,
    /// The known optimum or the known existence of a solution, in words.
    pub known: String,
}

fn tsp_grid(w: usize, h: usize) -> Result<Case> {
    let (cities, opt) = generate::grid_cities(w, h, 10, 7);
    let text = tsplib::format_euc2d(&format!("grid{w}x{h}"), "generated", &cities);
    let mut t = Tsp::new(tsplib::parse(Path::new("generated"), &text)?)?;
    t.optimum = Some(opt);
    Ok(Case {
        label: format!("{w}×{h} grid cities (EUC_2D)"),
        posed: Box::new(t),
        known: format!("optimal tour {opt}"),
    })
}

/// The cases: TSP, linear arrangement, clique, partitioning, and the four boards.
pub fn cases() -> Result<Vec<Case>> {
    let mut v = vec![tsp_grid(6, 8)?, tsp_grid(10, 10)?];
    for n in [32, 64] {
        let (g, opt) = generate::shuffled_cycle(n, 3);
        let mut l = Lap::new(g)?;
        l.optimum = Some(opt);
        v.push(Case {
            label: format!("cycle C{n}, labels shuffled"),
            posed: Box::new(l),
            known: format!("minimum length {opt}"),
        });
    }
    for (n, k) in [(64, 12), (128, 16)] {
        let (g, _) = generate::planted_clique(n, 50, k, 5);
        v.push(Case {
            label: format!("G({n}, 1/2) + planted {k}-clique"),
            posed: Box::new(Clique::new(g, k)?),
            known: format!("a {k}-clique exists"),
        });
    }
    for (parts, size) in [(2, 16), (4, 16)] {
        let (g, cut) = generate::ring_of_cliques(parts, size, 11);
        let mut p = Gpp::new(g, parts)?;
        p.optimum = Some(cut);
        v.push(Case {
            label: format!("{parts} rings of K{size}, {parts} parts"),
            posed: Box::new(p),
            known: format!("least cut {cut}"),
        });
    }
    for k in [6, 8] {
        v.push(Case {
            label: format!("closed knight's tour {k}×{k}"),
            posed: Box::new(Knight::new(k, true)?),
            known: "a closed tour exists (k even ≥ 6)".into(),
        });
    }
    v.push(Case {
        label: "open knight's tour 5×5".into(),
        posed: Box::new(Knight::new(5, false)?),
        known: "an open tour exists (k ≥ 5)".into(),
    });
    for (piece, k, what) in [
        (Piece::Queen, 8, "92 solutions"),
        (Piece::Queen, 16, "solutions exist (k ≥ 4)"),
        (Piece::Rook, 8, "8! solutions"),
        (Piece::Bishop, 8, "14 bishops fit (2k − 2)"),
    ] {
        let p = Placement::new(piece, k)?;
        v.push(Case { label: format!("{} {k}×{k}", p.qap().name), posed: Box::new(p), known: what.into() });
    }
    Ok(v)
}

/// Runs reaching the target with an answer the checker accepts, and their median time.
fn cell(records: &[RunRecord], posed: &dyn Posed) -> Result<(usize, f64)> {
    let mut times = Vec::new();
    for r in records {
        if let Some(t) = r.reached {
            let a = posed.answer(&r.perm);
            ensure!(
                a.valid,
                "{}: a run reached the target with an answer the checker rejects: {:?}",
                posed.qap().name,
                a.defect
            );
            times.push(t);
        }
    }
    Ok((times.len(), median(&times)))
}

/// `engines`: the bench's backend and, unless it is the CPU already, the CPU's.
pub fn protocol(
    engines: &[(&str, &Backend)],
    base: &Options,
    algos: &[String],
    n_runs: usize,
    limit: Duration,
) -> Result<Table> {
    for a in algos {
        crate::algo::check_name(a)?;
    }
    let mut header = vec!["problem".to_string(), "instance".into(), "n".into(), "known".into(), "algorithm".into()];
    for (name, _) in engines {
        header.push(format!("{name} reached"));
        header.push(format!("{name} median (s)"));
    }
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut t = Table::new(&header);
    for case in cases()? {
        let inst = case.posed.qap();
        let target = case.posed.target();
        for algo in algos {
            let mut row = vec![
                case.posed.kind().name().to_string(),
                case.label.clone(),
                inst.n.to_string(),
                case.known.clone(),
                algo.clone(),
            ];
            for (_, backend) in engines {
                let opts = Options { algorithm: Some(algo.clone()), target, known: target, ..base.clone() };
                let recs = runs(backend, inst, &opts, n_runs, limit)?;
                let (ok, med) = cell(&recs, case.posed.as_ref())?;
                row.push(format!("{ok}/{}", recs.len()));
                row.push(fmt(med));
            }
            t.push(row);
        }
    }
    Ok(t)
}
