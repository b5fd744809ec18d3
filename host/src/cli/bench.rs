//! `qapgpu bench PROTOCOL`: a paper's protocol over instances, printed and written as CSV
//! and Markdown.
use super::args::{BenchArgs, Protocol, Search};
use crate::algo::Backend;
use crate::bench::{seed000, seed001, seed003};
use crate::io::qaplib;
use anyhow::Result;
use qapgpu_common::ls::LsKind;

pub fn bench(a: BenchArgs) -> Result<()> {
    let base = a.device.options(a.seed);
    base.validate()?;
    let backend = Backend::open(&base, |why| eprintln!("note: {why}; running the CPU engine"))?;
    let names: Vec<String> = if !a.instances.is_empty() {
        a.instances.clone()
    } else {
        let from: Vec<&str> = match a.protocol {
            Protocol::Independent => seed001::PAPER.iter().map(|r| r.0).collect(),
            Protocol::Islands => seed000::PAPER.iter().map(|r| r.0).collect(),
            Protocol::AcoFixed | Protocol::AcoTarget => seed003::PAPER_T6.iter().map(|r| r.0).collect(),
        };
        from.into_iter().filter(|n| qaplib::resolve(n).is_file()).map(String::from).collect()
    };
    let limit = a.time_limit;
    let table = match a.protocol {
        Protocol::Independent => seed001::protocol(&backend, &base, &names, &a.blocks, a.single_runs, a.runs, limit)?,
        Protocol::Islands => seed000::protocol(&backend, &base, &names, a.base_blocks, &a.k, a.runs, limit)?,
        Protocol::AcoFixed | Protocol::AcoTarget => {
            let searches: Vec<LsKind> = a
                .ls
                .iter()
                .map(|s| match s {
                    Search::Ts => LsKind::Tabu,
                    Search::TwoOpt => LsKind::TwoOpt,
                })
                .collect();
            seed003::protocol(&backend, &base, a.protocol == Protocol::AcoFixed, &names, &searches, &a.layouts, a.runs, limit)?
        }
    };
    let (title, stem) = match a.protocol {
        Protocol::Independent => ("seed 001 protocol (independent runs, restarts, FoundFlag)", "seed001"),
        Protocol::Islands => ("seed 000 protocol (island GA, shuffle every 500 generations)", "seed000"),
        Protocol::AcoFixed => ("seed 003 Table 5 protocol (IT_TOTAL = n·50000 or the optimum)", "seed003-table5"),
        Protocol::AcoTarget => ("seed 003 Table 6 protocol (time to the acceptable cost)", "seed003-table6"),
    };
    let context = format!("device: {}; runs: {}; time limit per run: {} s", backend.describe(), a.runs, limit.as_secs_f64());
    println!("{}", table.write(&a.out, stem, title, &context)?);
    Ok(())
}
