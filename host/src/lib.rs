//! qapgpu: Quadratic Assignment Problem metaheuristics on NVIDIA GPUs, and the same
//! operators on the CPU.
//!
//! Minimise Σ a\[i\]\[j\]·b\[p(i)\]\[p(j)\] over permutations p (facility i at location
//! p(i)). [`solve`] takes an [`Instance`] (matrices in memory, or a QAPLIB file through
//! [`io::qaplib`]) and [`Options`] (algorithm, engine, time limit, target, seed, each
//! family's settings) and returns a [`Solution`] whose cost is recomputed on the host:
//!
//! ```
//! use qapgpu::{EngineChoice, Instance, Options, solve};
//! use std::time::Duration;
//! // Three facilities on a line of three locations; flows and distances row-major.
//! let flows = vec![0, 5, 2, 5, 0, 3, 2, 3, 0];
//! let distances = vec![0, 1, 2, 1, 0, 1, 2, 1, 0];
//! let inst = Instance::new("line3", 3, flows, distances)?;
//! let opts = Options {
//!     engine: EngineChoice::Cpu, // `Auto` (the default) takes the GPU when there is one
//!     target: Some(24),          // stop as soon as this cost is reached
//!     time_limit: Some(Duration::from_secs(5)),
//!     seed: 7,
//!     ..Options::default()       // algorithm: `auto`, chosen from the instance's features
//! };
//! let sol = solve(&inst, &opts)?;
//! assert_eq!(sol.cost, 24); // the pair with the largest flow side by side
//! assert_eq!(inst.cost(&sol.perm()), 24);
//! println!("{} by {} on {}", sol.cost, sol.algorithm, sol.device);
//! # anyhow::Ok(())
//! ```
//!
//! Progress and cancellation: [`solve_on`] takes an opened [`Backend`] (one GPU context
//! shared by many solves), an [`run::Observer`] called with the best so far, and an
//! `AtomicBool` that stops the run with its best solution when set (from another thread or
//! a signal handler):
//!
//! ```
//! use qapgpu::run::{Observer, Progress};
//! use qapgpu::{Backend, EngineChoice, Instance, Options, solve_on};
//! use std::sync::atomic::AtomicBool;
//! struct Log(Vec<i64>);
//! impl Observer for Log {
//!     fn progress(&mut self, p: &Progress) { self.0.push(p.best) }
//! }
//! let (inst, optimum, _) = Instance::planted(16, 3); // a generated instance, optimum known
//! let opts = Options { engine: EngineChoice::Cpu, target: Some(optimum), ..Options::default() };
//! let backend = Backend::open(&opts, |_| {})?;
//! let mut log = Log(Vec::new());
//! let sol = solve_on(&backend, &inst, &opts, &mut log, &AtomicBool::new(false))?;
//! assert_eq!(sol.cost, optimum);
//! assert_eq!(log.0.last(), Some(&optimum)); // the final progress report
//! # anyhow::Ok(())
//! ```
//!
//! Other problems are posed as QAPs by [`problems`] (TSP, linear arrangement, clique,
//! graph partitioning, chessboards), whose answers come back decoded and checked.
//!
//! * `algo` holds the families (one folder each: settings, driver, GPU and CPU engine)
//!   and their registry, `auto`'s rule and the several-devices driver; `run` the one run
//!   loop that drives them all;
//! * `io` reads and writes QAPLIB files; `gpu` and `cpu` hold what every family's engines
//!   share; `bench` the papers' protocols; `cli` the `qapgpu` command.
#![warn(missing_docs)]

pub mod algo;
pub mod api;
pub mod batch;
pub mod bench;
pub mod cli;
#[cfg(feature = "mpi")]
pub mod cluster;
pub mod cpu;
pub mod gpu;
pub mod io;
pub mod memory;
pub mod output;
pub mod perm;
pub mod problems;
pub mod run;
pub mod search;
pub mod site;
pub mod solution;

pub use algo::{Backend, EngineChoice, Options};
pub use api::{solve, solve_on, solve_on_all};
pub use io::{Instance, InstanceError};
pub use solution::Solution;
