//! Where an engine runs and the stop word it obeys: what every family's engines carry, so
//! that drivers and reports ask one place.
use crate::gpu::Gpu;
use crate::run::stop::StopWord;
use anyhow::Result;
use std::sync::Arc;

/// Where an engine runs and the stop word it obeys.
pub struct Site {
    /// "gpu" or "cpu".
    pub engine: &'static str,
    /// "NVIDIA H200 (sm_90, 132 SMs)", "CPU, 16 threads".
    pub device: String,
    /// Set by the run loop's watchdog; the engine's kernels or loops poll it.
    pub stop: Arc<StopWord>,
}

impl Site {
    /// A GPU engine's site, with a stop word in device memory.
    pub fn gpu(gpu: &Gpu) -> Result<Site> {
        Ok(Site { engine: "gpu", device: gpu.describe(), stop: Arc::new(gpu.stop_word()?) })
    }

    /// A CPU engine's site for a pool of `threads` workers.
    pub fn cpu(threads: usize) -> Site {
        Site { engine: "cpu", device: cpu_device(threads), stop: Arc::new(StopWord::host()) }
    }
}

/// "CPU, 16 threads", "CPU, 1 thread": a CPU engine's device in reports.
pub fn cpu_device(threads: usize) -> String {
    format!("CPU, {threads} thread{}", if threads == 1 { "" } else { "s" })
}
