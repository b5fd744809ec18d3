//! `qapgpu bench PROTOCOL`: a paper's protocol over instances, printed and written as CSV
//! and Markdown.
use super::args::{BenchArgs, CgaTopology, Protocol, Search};
use crate::algo::aco::AcoOptions;
use crate::algo::cga::Pass;
use crate::algo::ts::TsOptions;
use crate::algo::{Backend, Options};
use crate::bench::{Table, compare, problems, seed000, seed001, seed003, seed004, ttt};
use crate::io::qaplib;
use anyhow::Result;
use clap::ValueEnum;
use qapgpu_common::ls::LsKind;

pub fn bench(a: BenchArgs) -> Result<()> {
    let runs = a.runs.unwrap_or(a.protocol.default_runs());
    check_counts(&a, runs)?;
    crate::bench::check_out_dir(&a.out)?;
    let mut base = a.device.options(a.seed);
    base.cga.grid = a.grid;
    base.cga.mapping = a.ls_mapping;
    base.cga.passes = a.ls_passes;
    base.stop = a.stop;
    base.ga.crossover = a.crossover;
    // The papers' protocols set their own ACO options; the others run every run with these.
    let (aco, ts) = (a.aco.options(), a.ts.options());
    if a.protocol.is_papers() {
        anyhow::ensure!(
            aco == AcoOptions::default() && ts == TsOptions::default(),
            "bench {}: a paper's protocol sets its own ACO and ts options (--ants, --layout, --split-threads, --effort, …); they apply to compare, ttt, gaps and problems",
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
            Protocol::Restart001 => seed001::restart::TABLE_I.iter().map(|r| r.0).collect(),
            Protocol::Cpu001 => seed001::cpu::TABLE_III.iter().map(|r| r.0).collect(),
            Protocol::Islands => seed000::PAPER.iter().map(|r| r.name).collect(),
            Protocol::AcoFixed | Protocol::AcoTarget => seed003::PAPER_T6.iter().map(|r| r.instance).collect(),
            Protocol::AcoProfile => seed003::PAPER_T2.iter().map(|r| r.instance).collect(),
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
    let mut context =
        format!("device: {}; runs: {}; time limit per run: {} s", devices.join(" + "), runs, limit.as_secs_f64());
    if a.crossover != crate::algo::ga::CrossoverArg::Pmx {
        context += "; crossover OX (the papers': PMX)";
    }
    if matches!(a.protocol, Protocol::Cellular002 | Protocol::Cellular004) {
        let seed002 = a.protocol == Protocol::Cellular002;
        let plan = seed004::Plan {
            instances: names,
            topologies: if seed002 { vec![CgaTopology::N4, CgaTopology::N8] } else { a.topologies.clone() }
                .iter()
                .map(|t| t.topology())
                .collect(),
            passes: if seed002 { vec![Pass::Greedy] } else { a.cga_ls.iter().map(|p| p.pass()).collect() },
            runs,
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
    if let Some(md) = seed001_protocols(&a, &backends, &base, &names, runs, &context)? {
        crate::output::stdout(format!("{md}\n"))?;
        return Ok(());
    }
    let table = match a.protocol {
        Protocol::Islands => {
            let one_thread = Backend::Cpu { threads: 1 };
            let mut engines = vec![(crate::bench::engine_label(&backends[..1]), &backend)];
            anyhow::ensure!(
                !(a.cpu_baseline && !backend.is_gpu()),
                "--cpu-baseline adds one CPU thread beside the GPU: give --engine gpu, or --engine cpu --threads 1 alone"
            );
            if a.cpu_baseline {
                engines.push(("CPU 1 thread".into(), &one_thread));
            }
            let plan = seed000::Plan {
                names: &names,
                base_blocks: a.base_blocks,
                ks: &a.k,
                raise_k: a.raise_k,
                paper_k: a.paper_k,
                variants: &a.variants,
                runs,
                cap: limit,
            };
            seed000::protocol(&engines, &base, &plan)?
        }
        Protocol::AcoFixed | Protocol::AcoTarget | Protocol::AcoProfile => {
            let plan = seed003::Plan {
                fixed: a.protocol != Protocol::AcoTarget,
                instances: names,
                searches: a
                    .ls
                    .iter()
                    .map(|s| match s {
                        Search::Ts => LsKind::Tabu,
                        Search::TwoOpt => LsKind::TwoOpt,
                    })
                    .collect(),
                layouts: a.layouts.clone(),
                runs,
                limit,
            };
            if a.protocol == Protocol::AcoProfile {
                seed003::profile(&backend, &base, &plan)?
            } else {
                let cpu = Backend::Cpu { threads: a.device.threads };
                seed003::protocol(&backends, a.cpu_baseline.then_some(&cpu), &base, &plan)?
            }
        }
        Protocol::Compare => {
            crate::algo::check_range("--gap", a.gap, 0.0, 100.0)?;
            let (table, log) = compare::protocol(
                &backends,
                &base,
                &names,
                &algos(&a, &["aco-ts", "ga-islands", "ga-independent", "cga"]),
                runs,
                limit,
                a.gap,
            )?;
            log.write(&a.out, "compare")?;
            table
        }
        Protocol::Problems if a.files.is_some() => {
            let list = a.files.as_deref().expect("checked");
            let cases = crate::bench::problem_files::read_list(list, &a.files_dir)?;
            crate::bench::problem_files::protocol(&backends, &base, &cases, runs, limit, a.polish)?
        }
        Protocol::Problems => {
            let cpu = Backend::Cpu { threads: a.device.threads };
            let mut engines = vec![(if backend.is_gpu() { "GPU" } else { "CPU" }, &backend)];
            if backend.is_gpu() {
                engines.push(("CPU", &cpu));
            }
            problems::protocol(&engines, &base, &algos(&a, &["auto"]), runs, limit)?
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
                runs,
                limit,
                a.gap,
                &a.out,
            )?
        }
        Protocol::Gaps => {
            crate::bench::gaps::protocol(&backends, &base, &names, &algos(&a, &["auto", "aco-ts"]), runs, limit)?
        }
        Protocol::Independent
        | Protocol::Restart001
        | Protocol::Cpu001
        | Protocol::Cellular002
        | Protocol::Cellular004 => unreachable!("handled above"),
    };
    let (title, stem) = match a.protocol {
        Protocol::Islands => (
            "seed 000 protocol (island GA; GA1: all shuffled every 500 generations, GA2: 5 % exchanged every 50)",
            "seed000",
        ),
        Protocol::AcoFixed => ("seed 003 Table 5 protocol (IT_TOTAL = n·50000 or the optimum)", "seed003-table5"),
        Protocol::AcoProfile => (
            "seed 003 Table 2 protocol (time split of cAS: construction, local search, trail update; Table 5's runs)",
            "seed003-table2",
        ),
        Protocol::AcoTarget => ("seed 003 Table 6 protocol (time to the acceptable cost)", "seed003-table6"),
        Protocol::Compare => ("time to the best-known value, algorithm against algorithm", "compare"),
        Protocol::Gaps => ("final gap to the best known within the time limit, every instance", "gaps"),
        Protocol::Ttt => ("time to target, with time-to-target plots (ttt-INSTANCE.svg)", "ttt"),
        Protocol::Problems => {
            ("other problems posed as QAPs: runs reaching the known optimum or a valid answer, checked", "problems")
        }
        Protocol::Independent
        | Protocol::Restart001
        | Protocol::Cpu001
        | Protocol::Cellular002
        | Protocol::Cellular004 => unreachable!("handled above"),
    };
    crate::output::stdout(format!("{}\n", table.write(&a.out, stem, title, &context)?))?;
    Ok(())
}

/// The seed 001 protocols, which write several tables or plots: their Markdown (None for
/// another protocol).
fn seed001_protocols(
    a: &BenchArgs,
    backends: &[Backend],
    base: &Options,
    names: &[String],
    runs: usize,
    context: &str,
) -> Result<Option<String>> {
    let (limit, out) = (a.time_limit, a.out.as_path());
    Ok(Some(match a.protocol {
        Protocol::Independent => {
            let (table, fits) = seed001::protocol(backends, base, names, &a.blocks, a.single_runs, runs, limit, out)?;
            let title = "seed 001 protocol (independent runs, restarts, FoundFlag)";
            let fig6 = "seed 001, Fig. 6: least-squares fits of the single-block times (fit-INSTANCE.svg)";
            let fit_context = format!(
                "{context}; the empirical distribution of {} single-block runs, the i-th fastest at (i − ½)/R with R counting the runs censored at the time limit, fitted by a gamma and by a normal distribution function (least squares)",
                a.single_runs
            );
            let table = table.write(out, "seed001", title, context)?;
            // No single-block runs (--single-runs 0): nothing to fit, no empty table.
            if a.single_runs == 0 {
                table
            } else {
                table + "\n" + &fits.write(out, "seed001-fits", fig6, &fit_context)?
            }
        }
        Protocol::Restart001 => {
            let table = seed001::restart::protocol(&backends[0], base, names, runs, limit)?;
            let title = "seed 001, Table I: effect of the restart strategy (single-block runs)";
            table.write(
                out,
                "seed001-restart",
                title,
                &format!("{context}; a failed run did not reach the target within the time limit"),
            )?
        }
        Protocol::Cpu001 => {
            let tables = seed001::cpu::protocol(base, names, &a.populations, runs, limit, a.jobs)?;
            let title = "seed 001, Table III: one population on one CPU thread (Model I: tuned size; Model II: 128)";
            let context = format!(
                "{context}; the engine: the CPU engine on one thread a run, whatever --engine says; {} run(s) at once",
                a.jobs
            );
            Table::write_all(out, "seed001-cpu", title, &context, &tables)?
        }
        _ => return Ok(None),
    }))
}

/// The counts of a protocol, each at least 1 (`--runs 0` printed empty tables, `--k 0` ran
/// a "128×30×0" population), and the populations they make within `--blocks`' range.
fn check_counts(a: &BenchArgs, runs: usize) -> Result<()> {
    let at_least_one = |option: &str, v: u64| -> Result<()> {
        anyhow::ensure!(v >= 1, "{option} = {v}: must be at least 1");
        Ok(())
    };
    at_least_one("--runs", runs as u64)?;
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
    crate::algo::check_range("--single-runs", a.single_runs as f64, 0.0, most as f64)?;
    crate::algo::check_range("--jobs", a.jobs as f64, 1.0, 4096.0)?;
    anyhow::ensure!(
        a.jobs == 1 || a.protocol == Protocol::Cpu001,
        "--jobs = {}: only 001-cpu runs several runs at once (the other protocols time one run at a time)",
        a.jobs
    );
    Ok(())
}

/// `--algos`, or the protocol's default.
fn algos(a: &BenchArgs, default: &[&str]) -> Vec<String> {
    if a.algos.is_empty() { default.iter().map(|s| s.to_string()).collect() } else { a.algos.clone() }
}
