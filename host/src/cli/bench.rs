//! `qapgpu bench PROTOCOL`: a paper's protocol over instances, printed and written as CSV
//! and Markdown.
use super::args::{BenchArgs, CgaTopology, Protocol, Search};
use crate::algo::Backend;
use crate::algo::aco::AcoOptions;
use crate::algo::cga::Pass;
use crate::algo::ts::TsOptions;
use crate::bench::{Table, compare, problems, seed000, seed001, seed003, seed004, ttt};
use crate::io::qaplib;
use anyhow::Result;
use clap::ValueEnum;
use qapgpu_common::ls::LsKind;

pub fn bench(a: BenchArgs) -> Result<()> {
    check_counts(&a)?;
    crate::bench::check_out_dir(&a.out)?;
    let mut base = a.device.options(a.seed);
    base.cga.grid = a.grid;
    base.cga.mapping = a.ls_mapping;
    base.cga.passes = a.ls_passes;
    base.stop = a.stop;
    // The papers' protocols set their own ACO options; the others run every run with these.
    let (aco, ts) = (a.aco.options(), a.ts.options());
    if a.protocol.is_papers() {
        anyhow::ensure!(
            aco == AcoOptions::default() && ts == TsOptions::default(),
            "bench {}: a paper's protocol sets its own ACO options (--ants, --layout, --split-threads, …); they apply to compare, ttt, gaps and problems",
            a.protocol.to_possible_value().map_or_else(String::new, |v| v.get_name().to_string())
        );
    } else {
        (base.aco, base.ts) = (aco, ts);
    }
    base.validate()?;
    let backends = Backend::open_all(&base, |why| eprintln!("note: {why}"))?;
    let backend = backends[0].clone();
    let names: Vec<String> = if !a.instances.is_empty() {
        a.instances.iter().map(|i| qaplib::name_of(i)).collect()
    } else if a.protocol == Protocol::Gaps {
        crate::bench::gaps::all_instances()?
    } else {
        let from: Vec<&str> = match a.protocol {
            Protocol::Independent => seed001::PAPER.iter().map(|r| r.0).collect(),
            Protocol::Islands => seed000::PAPER.iter().map(|r| r.0).collect(),
            Protocol::AcoFixed | Protocol::AcoTarget => seed003::PAPER_T6.iter().map(|r| r.0).collect(),
            Protocol::Cellular002 | Protocol::Cellular004 => {
                seed004::TO_OPTIMUM.iter().chain(&seed004::FINAL_COST).copied().collect()
            }
            Protocol::Compare => vec!["tai35b", "tai40b", "nug30"],
            Protocol::Problems => vec![],
            Protocol::Ttt => vec!["tai25b", "kra30a", "tai35b", "tai40b", "tai50b"],
            Protocol::Gaps => vec![],
        };
        from.into_iter().filter(|n| qaplib::resolve(n).is_file()).map(String::from).collect()
    };
    let limit = a.time_limit;
    let devices: Vec<String> = backends.iter().map(Backend::describe).collect();
    let context =
        format!("device: {}; runs: {}; time limit per run: {} s", devices.join(" + "), a.runs, limit.as_secs_f64());
    if matches!(a.protocol, Protocol::Cellular002 | Protocol::Cellular004) {
        let seed002 = a.protocol == Protocol::Cellular002;
        let plan = seed004::Plan {
            instances: names,
            topologies: if seed002 { vec![CgaTopology::N4, CgaTopology::N8] } else { a.topologies.clone() }
                .iter()
                .map(|t| t.topology())
                .collect(),
            passes: if seed002 { vec![Pass::Greedy] } else { a.cga_ls.iter().map(|p| p.pass()).collect() },
            runs: a.runs,
            generations: a.generations,
            cpu_variant: !a.no_cpu_variant,
            limit,
        };
        let tables = seed004::protocol(&backend, &base, &plan)?;
        let (title, stem) = if seed002 {
            ("seed 002 protocol (cellular GA, 4n and 8n, greedy 2-opt; thesis values for the same cells)", "seed002")
        } else {
            (
                "seed 004 protocol (PGAGrid: four topologies, 2-opt and greedy 2-opt, CPU variant, Wilcoxon tests)",
                "seed004",
            )
        };
        let context = format!("{context}; grid {}×{}, {} generations", a.grid.0, a.grid.1, a.generations);
        crate::output::stdout(format!("{}\n", Table::write_all(&a.out, stem, title, &context, &tables)?))?;
        return Ok(());
    }
    let table = match a.protocol {
        Protocol::Independent => seed001::protocol(&backends, &base, &names, &a.blocks, a.single_runs, a.runs, limit)?,
        Protocol::Islands => seed000::protocol(&backend, &base, &names, a.base_blocks, &a.k, a.runs, limit)?,
        Protocol::AcoFixed | Protocol::AcoTarget => {
            let searches: Vec<LsKind> =
                a.ls.iter()
                    .map(|s| match s {
                        Search::Ts => LsKind::Tabu,
                        Search::TwoOpt => LsKind::TwoOpt,
                    })
                    .collect();
            seed003::protocol(
                &backends,
                &base,
                a.protocol == Protocol::AcoFixed,
                &names,
                &searches,
                &a.layouts,
                a.runs,
                limit,
            )?
        }
        Protocol::Compare => {
            crate::algo::check_range("--gap", a.gap, 0.0, 100.0)?;
            let (table, log) = compare::protocol(
                &backends,
                &base,
                &names,
                &algos(&a, &["aco-ts", "ga-islands", "ga-independent", "cga"]),
                a.runs,
                limit,
                a.gap,
            )?;
            log.write(&a.out, "compare")?;
            table
        }
        Protocol::Problems if a.files.is_some() => {
            let list = a.files.as_deref().expect("checked");
            let cases = crate::bench::problem_files::read_list(list, &a.files_dir)?;
            crate::bench::problem_files::protocol(&backends, &base, &cases, a.runs, limit, a.polish)?
        }
        Protocol::Problems => {
            let cpu = Backend::Cpu { threads: a.device.threads };
            let mut engines = vec![(if backend.is_gpu() { "GPU" } else { "CPU" }, &backend)];
            if backend.is_gpu() {
                engines.push(("CPU", &cpu));
            }
            problems::protocol(&engines, &base, &algos(&a, &["auto"]), a.runs, limit)?
        }
        Protocol::Ttt => {
            crate::algo::check_range("--gap", a.gap, 0.0, 100.0)?;
            let cpu = Backend::Cpu { threads: a.device.threads };
            ttt::protocol(
                &backends,
                a.cpu_baseline.then_some(&cpu),
                &base,
                &names,
                &algos(&a, &["ts", "aco-ts"]),
                a.runs,
                limit,
                a.gap,
                &a.out,
            )?
        }
        Protocol::Gaps => {
            crate::bench::gaps::protocol(&backends, &base, &names, &algos(&a, &["auto", "aco-ts"]), a.runs, limit)?
        }
        Protocol::Cellular002 | Protocol::Cellular004 => unreachable!("handled above"),
    };
    let (title, stem) = match a.protocol {
        Protocol::Independent => ("seed 001 protocol (independent runs, restarts, FoundFlag)", "seed001"),
        Protocol::Islands => ("seed 000 protocol (island GA, shuffle every 500 generations)", "seed000"),
        Protocol::AcoFixed => ("seed 003 Table 5 protocol (IT_TOTAL = n·50000 or the optimum)", "seed003-table5"),
        Protocol::AcoTarget => ("seed 003 Table 6 protocol (time to the acceptable cost)", "seed003-table6"),
        Protocol::Compare => ("time to the best-known value, algorithm against algorithm", "compare"),
        Protocol::Gaps => ("final gap to the best known within the time limit, every instance", "gaps"),
        Protocol::Ttt => ("time to target, with time-to-target plots (ttt-INSTANCE.svg)", "ttt"),
        Protocol::Problems => {
            ("other problems posed as QAPs: runs reaching the known optimum or a valid answer, checked", "problems")
        }
        Protocol::Cellular002 | Protocol::Cellular004 => unreachable!("handled above"),
    };
    crate::output::stdout(format!("{}\n", table.write(&a.out, stem, title, &context)?))?;
    Ok(())
}

/// The counts of a protocol, each at least 1 (`--runs 0` printed empty tables, `--k 0` ran
/// a "128×30×0" population), and the populations they make within `--blocks`' range.
fn check_counts(a: &BenchArgs) -> Result<()> {
    let at_least_one = |option: &str, v: u64| -> Result<()> {
        anyhow::ensure!(v >= 1, "{option} = {v}: must be at least 1");
        Ok(())
    };
    at_least_one("--runs", a.runs as u64)?;
    at_least_one("--base-blocks", a.base_blocks.into())?;
    at_least_one("--generations", a.generations)?;
    anyhow::ensure!(!a.k.is_empty(), "--k: give at least one multiplier");
    let most = crate::algo::ga::MAX_BLOCKS as u64;
    for &k in &a.k {
        at_least_one("--k", k.into())?;
        let blocks = a.base_blocks as u64 * k as u64;
        anyhow::ensure!(blocks <= most, "--k = {k}: --base-blocks × --k = {blocks} subpopulations, more than {most}");
    }
    anyhow::ensure!(!a.blocks.is_empty(), "--blocks: give at least one block count");
    for &p in &a.blocks {
        crate::algo::check_range("--blocks", p as f64, 0.0, most as f64)?;
    }
    crate::algo::check_range("--single-runs", a.single_runs as f64, 0.0, most as f64)
}

/// `--algos`, or the protocol's default.
fn algos(a: &BenchArgs, default: &[&str]) -> Vec<String> {
    if a.algos.is_empty() { default.iter().map(|s| s.to_string()).collect() } else { a.algos.clone() }
}
