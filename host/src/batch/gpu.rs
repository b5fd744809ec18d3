//! The GPU's batch engine (being written: for now one instance after another).
use crate::algo::{Backend, Options};
use crate::gpu::Gpu;
use crate::io::Instance;
use crate::solution::Solution;
use anyhow::Result;
use std::sync::atomic::AtomicBool;

/// Every instance of `instances` on `gpu`.
pub fn solve(gpu: &Gpu, instances: &[Instance], opts: &Options, interrupt: &AtomicBool) -> Result<Vec<Solution>> {
    let backend = Backend::Gpu(gpu.clone());
    instances.iter().enumerate().map(|(k, inst)| super::solve_one(&backend, inst, opts, k, interrupt)).collect()
}
