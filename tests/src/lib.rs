//! Helpers for the integration tests.
use std::path::PathBuf;

/// The QAPLIB folder ($QAPLIB_DIR or ../shared/qaplib beside the workspace).
pub fn qaplib() -> PathBuf {
    host::qaplib::qaplib_dir()
}

/// Every `.dat` in the QAPLIB folder, sorted.
pub fn dat_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(qaplib())
        .unwrap_or_else(|e| panic!("{}: {e} (set QAPLIB_DIR)", qaplib().display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "dat"))
        .collect();
    v.sort();
    v
}

/// Why GPU tests cannot run here, printed when they skip.
pub fn gpu_skip_reason() -> Option<String> {
    host::gpu::unavailable_reason(None)
}

/// The GPU for GPU tests, or None after printing why they skip.
pub fn gpu() -> Option<host::gpu::Gpu> {
    match gpu_skip_reason() {
        Some(why) => {
            eprintln!("SKIPPED (no GPU): {why}");
            None
        }
        None => Some(host::gpu::Gpu::open(0, None).expect("opening the GPU")),
    }
}
