//! The `qapgpu` command: `solve` (the default; `--problem` for other problems),
//! `solve-batch`, `bench`, `pose`, `info`. Every error is one line
//! on stderr naming the file or option at fault.
mod args;
mod batch;
mod bench;
mod problem;
mod solve;

use crate::output::{StdoutClosed, stderr_line};
use args::{BenchArgs, DeviceArgs, PoseArgs, SolveArgs};
use clap::error::ErrorKind;
use clap::{Parser, Subcommand};
use std::sync::OnceLock;
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
    /// Solve many instances, each on its own (files, folders of .dat files, or a list): a
    /// row an instance on stdout (--json: a JSON object a line), --out as CSV or JSON lines,
    /// and a summary on stderr.
    SolveBatch(batch::BatchArgs),
    /// Run a paper's protocol over instances and print its table.
    Bench(BenchArgs),
    /// Write another problem (TSP, linear arrangement, clique, partitioning, packing, chessboards)
    /// as a QAPLIB .dat file.
    Pose(PoseArgs),
    /// Show the GPU the GPU engine would use.
    Info(DeviceArgs),
}

/// Set by Ctrl-C, SIGTERM or SIGHUP; the run loop stops with the best solution so far.
static INTERRUPT: AtomicBool = AtomicBool::new(false);

/// Runs the command line; returns the exit code (0, 1 for a failed command, 2 for bad
/// arguments).
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            let _ = e.print();
            return 0;
        }
        Err(e) => {
            // clap's first line names the option and the value; its tips follow on more
            // lines. The values a closed list allows join the one line.
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("error: bad arguments");
            match e.get(clap::error::ContextKind::ValidValue) {
                Some(clap::error::ContextValue::Strings(values)) => {
                    stderr_line(format_args!("{first} (possible values: {})", values.join(", ")))
                }
                _ => stderr_line(format_args!("{first}")),
            }
            return 2;
        }
    };
    let result = match cli.cmd {
        Some(Cmd::Solve(a)) => solve_command(a),
        None => solve_command(cli.solve),
        Some(Cmd::SolveBatch(a)) => batch::solve_batch(a),
        Some(Cmd::Bench(a)) => bench::bench(a),
        Some(Cmd::Pose(a)) => problem::pose(a),
        Some(Cmd::Info(d)) => solve::info(&d),
    };
    match result {
        Ok(()) => 0,
        // A reader that closed the pipe wants no more: no message, SIGPIPE's status.
        Err(e) if e.is::<StdoutClosed>() => 141,
        Err(e) => {
            let text = format!("{e:#}");
            stderr_line(format_args!("error: {}", text.replace('\n', " ")));
            1
        }
    }
}

/// `solve`: a QAP instance, or another problem posed as a QAP (`--problem`).
fn solve_command(a: SolveArgs) -> anyhow::Result<()> {
    match a.problem.problem {
        Some(kind) => problem::solve(a, kind),
        None => solve::solve(a),
    }
}

/// Installs the handler of SIGINT (Ctrl-C), SIGTERM and SIGHUP: the first stops the run
/// (the best so far is printed and the outputs written), a second exits at once. A signal
/// that was ignored when the process started (`nohup`'s SIGHUP, SIGINT in a background
/// job) stays ignored. Installed once a process; later calls return the first's result.
/// A second signal this soon after the first is taken as a copy of it, not as "exit now".
const SECOND_SIGNAL_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

fn catch_signals() -> anyhow::Result<()> {
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();
    let installed = INSTALLED.get_or_init(|| {
        let signals = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];
        let ignored: Vec<libc::c_int> = signals.into_iter().filter(|&s| is_ignored(s)).collect();
        static FIRST: OnceLock<std::time::Instant> = OnceLock::new();
        ctrlc::set_handler(|| {
            if INTERRUPT.swap(true, Ordering::SeqCst) {
                // `timeout -s INT` and a shell's job control send one signal to the process
                // and again to its group: a copy within the grace is the same request.
                if FIRST.get().is_some_and(|t| t.elapsed() < SECOND_SIGNAL_GRACE) {
                    return;
                }
                std::process::exit(130);
            }
            let _ = FIRST.set(std::time::Instant::now());
        })
        .map_err(|e| format!("installing the handler of SIGINT, SIGTERM and SIGHUP: {e}"))?;
        for s in ignored {
            // SAFETY: sets a standard disposition of a signal; no handler runs.
            unsafe { libc::signal(s, libc::SIG_IGN) };
        }
        Ok(())
    });
    installed.clone().map_err(anyhow::Error::msg)
}

/// Whether `signal`'s disposition is SIG_IGN.
fn is_ignored(signal: libc::c_int) -> bool {
    // SAFETY: reads the disposition only (no new action); `old` is a plain C struct.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_IGN
    }
}
