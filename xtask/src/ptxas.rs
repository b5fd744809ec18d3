//! Finding `ptxas`, and fetching it where it is missing: the `nvidia-cuda-nvcc` wheel from
//! PyPI holds ptxas 13 and installs on machines without CUDA, so `cargo xtask build-ptx`
//! can embed machine code on any machine with Python and pip.
use crate::root;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The wheel fetched: the ptxas whose spills and registers the budgets in `ptx.rs` were set
/// against (13.5); another minor version may allocate differently and fail the checks.
pub const PACKAGE: &str = "nvidia-cuda-nvcc==13.5.*";

/// Where a fetched wheel goes (under target/, so `cargo clean` removes it).
pub fn fetch_dir() -> PathBuf {
    root().join("target/tools/cuda-nvcc")
}

/// `bin/ptxas` under one of the package folders of an `nvidia` namespace directory
/// (the wheel puts it in nvidia/cu13/bin, older ones in nvidia/cuda_nvcc/bin).
fn ptxas_in(nvidia: &Path) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(nvidia).ok()?.filter_map(|e| Some(e.ok()?.path())).collect();
    dirs.sort();
    dirs.into_iter().map(|d| d.join("bin/ptxas")).find(|p| p.is_file())
}

/// ptxas from `$PTXAS`, the PATH, pip's nvidia-cuda-nvcc in the default Python, or an
/// earlier fetch into `fetch_dir()`, in that order.
pub fn find_ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTXAS") {
        return Some(PathBuf::from(p));
    }
    if Command::new("ptxas").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return Some(PathBuf::from("ptxas"));
    }
    let from_python = Command::new("python3")
        .args(["-c", "import nvidia; print('\\n'.join(nvidia.__path__))"])
        .output()
        .ok()
        .and_then(|out| String::from_utf8_lossy(&out.stdout).lines().find_map(|d| ptxas_in(Path::new(d))));
    if from_python.is_some() {
        return from_python;
    }
    ptxas_in(&fetch_dir().join("nvidia"))
}

/// What to do by hand when ptxas can neither be found nor fetched.
pub const BY_HAND: &str = "install it with `python3 -m pip install nvidia-cuda-nvcc` (or the CUDA toolkit), or set PTXAS to its path, then run `cargo xtask build-ptx` again";

/// Installs the nvidia-cuda-nvcc wheel into `fetch_dir()` with pip and returns its ptxas;
/// Err says why not (offline, no Python or pip) and what to do instead.
pub fn fetch_ptxas() -> Result<PathBuf, String> {
    let dir = fetch_dir();
    eprintln!(
        "ptxas not found: fetching it (the nvidia-cuda-nvcc wheel from PyPI, about 150 MB installed) into {} …",
        dir.display()
    );
    let out = Command::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--upgrade",
            "--retries",
            "2",
            "--target",
        ])
        .arg(&dir)
        .arg(PACKAGE)
        .output()
        .map_err(|e| format!("ptxas not found, and python3 cannot be run to fetch it ({e}): {BY_HAND}"))?;
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr);
        let last = why.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("pip failed");
        return Err(format!("ptxas not found, and pip could not fetch nvidia-cuda-nvcc ({}): {BY_HAND}", last.trim()));
    }
    ptxas_in(&dir.join("nvidia"))
        .ok_or_else(|| format!("the nvidia-cuda-nvcc wheel in {} has no bin/ptxas: {BY_HAND}", dir.display()))
}
