//! qapgpu: Quadratic Assignment Problem metaheuristics on NVIDIA GPUs, and the same
//! operators on the CPU.
//!
//! * `solve(&Instance, &Options) -> Solution` is the library API (`api`);
//! * `algo` holds the families (one folder each: settings, driver, GPU and CPU engine)
//!   and their registry; `run` the one run loop that drives them all;
//! * `problems` poses other problems as QAPs (TSP, linear arrangement, clique, graph
//!   partitioning, chessboards) and reads their answers back, checked;
//! * `io` reads and writes QAPLIB files; `gpu` and `cpu` hold what every family's engines
//!   share; `bench` the papers' protocols; `cli` the `qapgpu` command.
pub mod algo;
pub mod api;
pub mod bench;
pub mod cli;
pub mod cpu;
pub mod gpu;
pub mod io;
pub mod memory;
pub mod problems;
pub mod run;
pub mod site;
pub mod solution;

pub use algo::{Backend, EngineChoice, Options};
pub use api::{solve, solve_on};
pub use io::{Instance, InstanceError};
pub use solution::Solution;
