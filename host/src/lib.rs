//! qapgpu host: QAPLIB files, the CPU engine, the GPU engine (cudarc), the run loop with its
//! observers, the benchmark protocols of the papers, and the CLI built on them.
pub mod aco;
pub mod aco_cpu;
pub mod aco_gpu;
pub mod bench;
pub mod bench003;
pub mod cpu;
pub mod engine;
pub mod gamma;
pub mod gpu;
pub mod instance;
pub mod qaplib;
pub mod report;
pub mod runner;
