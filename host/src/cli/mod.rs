//! The `qapgpu` command: `solve` (the default; `--problem` for other problems), `bench`,
//! `pose`, `info`. Every error is one line
//! on stderr naming the file or option at fault.
mod args;
mod bench;
mod problem;
mod solve;

use args::{BenchArgs, DeviceArgs, PoseArgs, SolveArgs};
use clap::error::ErrorKind;
use clap::{Parser, Subcommand};
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Parser)]
#[command(name = "qapgpu", version, about = "QAP metaheuristics on NVIDIA GPUs (and the same operators on the CPU)")]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    cmd: Option<Cmd>,
    #[command(flatten)]
    solve: SolveArgs,
}

#[derive(Subcommand)]
enum Cmd {
    /// Solve one instance (the default command).
    Solve(SolveArgs),
    /// Run a paper's protocol over instances and print its table.
    Bench(BenchArgs),
    /// Write another problem (TSP, linear arrangement, clique, partitioning, chessboards)
    /// as a QAPLIB .dat file.
    Pose(PoseArgs),
    /// Show the GPU the GPU engine would use.
    Info(DeviceArgs),
}

/// Set by Ctrl-C; the run loop stops with the best solution so far.
static INTERRUPT: AtomicBool = AtomicBool::new(false);

/// Runs the command line; returns the exit code (0, 1 for a failed command, 2 for bad
/// arguments).
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) => {
            let _ = e.print();
            return 0;
        }
        Err(e) => {
            // clap's first line names the option and the value; its tips follow on more lines.
            let text = e.to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: bad arguments"));
            return 2;
        }
    };
    let result = match cli.cmd {
        Some(Cmd::Solve(a)) => solve::solve(a),
        None => solve::solve(cli.solve),
        Some(Cmd::Bench(a)) => bench::bench(a),
        Some(Cmd::Pose(a)) => problem::pose(a),
        Some(Cmd::Info(d)) => solve::info(&d),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            let text = format!("{e:#}");
            eprintln!("error: {}", text.replace('\n', " "));
            1
        }
    }
}

/// Installs the Ctrl-C handler: the first stops the run (best so far is printed), a second
/// exits at once.
fn catch_ctrl_c() -> anyhow::Result<()> {
    use anyhow::Context;
    ctrlc::set_handler(|| {
        if INTERRUPT.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .context("installing the Ctrl-C handler")
}
