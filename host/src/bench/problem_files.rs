//! `bench problems --files LIST`: real third-party problem files (TSPLIB tours, DIMACS
//! clique graphs) with their published optima, solved with the problem's starts and polish
//! (`problems::solve`). Tours run to the optimal length or the time limit, beside the
//! nearest-neighbour + 2-opt yardstick; cliques walk k up to ω, each k with the time limit.
use super::{Table, fmt, median};
use crate::algo::{Backend, Options};
use crate::problems::polish::Mode;
use crate::problems::solve::{CliqueWalk, posed};
use crate::problems::tour::{baseline, construct};
use crate::problems::tsp::Tsp;
use crate::problems::{Kind, clique, graph, plateau, tsplib};
use crate::run::Silent;
use anyhow::{Context, Result, bail, ensure};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One file of the list.
pub struct FileCase {
    /// The file.
    pub file: PathBuf,
    /// `tsp` or `clique`.
    pub kind: Kind,
    /// Cities or vertices.
    pub n: usize,
    /// The optimal tour length, or ω.
    pub known: i64,
}

/// Reads LIST (CSV: `file,problem,n,known,source`, files relative to `dir`).
pub fn read_list(list: &Path, dir: &Path) -> Result<Vec<FileCase>> {
    ensure!(
        dir.is_dir(),
        "--files-dir {}: no such folder (scripts/fetch-problems.sh fetches the files into dist/problems, from the repository root)",
        dir.display()
    );
    // The bounded reader of problem files: a device or a pipe is refused, a huge file unread.
    let text = crate::problems::read_text(list).with_context(|| format!("--files {}", list.display()))?;
    let mut cases = Vec::new();
    for (k, line) in text.lines().enumerate().skip(1).filter(|(_, l)| !l.trim().is_empty()) {
        let f: Vec<&str> = line.splitn(5, ',').collect();
        let bad = || format!("--files {}: line {}: expected `file,problem,n,known,source`", list.display(), k + 1);
        ensure!(f.len() == 5, bad());
        let kind = match f[1] {
            "tsp" => Kind::Tsp,
            "clique" => Kind::Clique,
            other => bail!("--files {}: line {}: problem `{other}` (tsp or clique)", list.display(), k + 1),
        };
        let (n, known) = (f[2].parse().ok().with_context(bad)?, f[3].parse().ok().with_context(bad)?);
        cases.push(FileCase { file: dir.join(f[0]), kind, n, known });
    }
    Ok(cases)
}

/// The protocol: `runs` runs of every case (seeds `base.seed`, + 1, …), each limited to
/// `limit` (per k for cliques).
pub fn protocol(
    backends: &[Backend],
    base: &Options,
    cases: &[FileCase],
    runs: usize,
    limit: Duration,
    mode: Mode,
) -> Result<Table> {
    let mut t = Table::new(&[
        "problem",
        "instance",
        "n",
        "known",
        "yardstick",
        "runs at known",
        "median s to known",
        "max s to known",
        "worst value",
        "worst gap %",
        "worst vs yardstick",
    ]);
    let interrupt = AtomicBool::new(false);
    for case in cases {
        let name = case.file.file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned());
        let (mut times, mut worst) = (Vec::new(), None::<i64>);
        let yardstick;
        match case.kind {
            Kind::Tsp => {
                let data = tsplib::read(&case.file)?;
                ensure!(data.n == case.n, "{}: {} cities, the list says {}", case.file.display(), data.n, case.n);
                yardstick = construct::length(&data, &baseline::nearest_neighbour_two_opt(&data));
                let tsp = Tsp::new(data)?;
                for r in 0..runs {
                    let opts = Options {
                        seed: base.seed.wrapping_add(r as u64),
                        target: Some(case.known),
                        known: Some(case.known),
                        time_limit: Some(limit),
                        ..base.clone()
                    };
                    let solved = posed(backends, &tsp, &opts, mode, &mut Silent, &interrupt)?;
                    let a = crate::problems::Posed::answer(&tsp, &solved.perm);
                    ensure!(a.valid && a.value == solved.cost, "{name}: the answer is not a tour of its cost: {a:?}");
                    if solved.cost <= case.known {
                        times.push(solved.sol.time_to_target_s.unwrap_or(solved.sol.elapsed_s));
                    }
                    worst = worst.max(Some(solved.cost));
                }
            }
            Kind::Clique => {
                let g = graph::read(&case.file)?;
                ensure!(g.n == case.n, "{}: {} vertices, the list says {}", case.file.display(), g.n, case.n);
                let adj = plateau::Adjacency::of(&g);
                yardstick = plateau::best_greedy(&adj).len() as i64;
                let omega = usize::try_from(case.known).context("ω")?;
                for r in 0..runs {
                    let seed = base.seed.wrapping_add(r as u64);
                    let options = |target: Option<i64>| Options {
                        seed,
                        target,
                        known: target,
                        time_limit: Some(limit),
                        ..base.clone()
                    };
                    let walk = CliqueWalk { backends, options: &options, seed, mode, quiet: true, up_to: Some(omega) };
                    let (found, _, _) = walk.run(&g, None, clique::Direction::Up, &mut Silent, &interrupt)?;
                    ensure!(found.answer.valid, "{name}: the clique found is not one: {:?}", found.answer);
                    let size = found.answer.value;
                    if size >= case.known {
                        times.push(found.attempts.iter().map(|a| a.seconds).sum());
                    }
                    // For cliques the worst is the smallest.
                    worst = Some(worst.map_or(-size, |w: i64| w.max(-size)));
                }
                worst = worst.map(|w| -w);
            }
            _ => bail!("{}: only tsp and clique files", case.file.display()),
        }
        let worst = worst.context("no run")?;
        let gap = 100.0 * (worst - case.known).abs() as f64 / case.known as f64;
        let versus = match case.kind {
            Kind::Clique => {
                if worst >= yardstick {
                    "≥"
                } else {
                    "<"
                }
            }
            _ => {
                if worst <= yardstick {
                    "≤"
                } else {
                    ">"
                }
            }
        };
        t.push(vec![
            case.kind.name().into(),
            name,
            case.n.to_string(),
            case.known.to_string(),
            yardstick.to_string(),
            format!("{}/{runs}", times.len()),
            fmt(median(&times)),
            fmt(times.iter().cloned().fold(f64::NAN, f64::max)),
            worst.to_string(),
            format!("{gap:.3}"),
            versus.into(),
        ]);
    }
    Ok(t)
}
