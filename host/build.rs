//! Embeds the PTX built by `cargo xtask build-ptx`, split into one module a kernel
//! (target/ptx/qapgpu.modules.ptx, or $QAPGPU_PTX), and the machine code ptxas assembled
//! from it (target/ptx/qapgpu.sm_XX.cubin), so the release binary runs alone on a GPU
//! machine without JIT-compiling. Without them the binary still builds; its GPU engine then
//! asks for `--ptx` or a rebuild (no PTX), or JIT-compiles the kernels a run uses (no cubin
//! for the GPU's architecture).
use std::path::{Path, PathBuf};

/// Keep in step with `xtask/src/ptx.rs`'s `EMBEDDED_ARCHS` and `gpu::EMBEDDED_CUBINS`.
const CUBIN_ARCHS: [&str; 5] = ["sm_75", "sm_80", "sm_90", "sm_100", "sm_120"];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let custom = std::env::var_os("QAPGPU_PTX");
    let ptx = custom.clone().map(PathBuf::from).unwrap_or_else(|| manifest.join("../target/ptx/qapgpu.modules.ptx"));
    println!("cargo:rerun-if-env-changed=QAPGPU_PTX");
    let ptx_dir = manifest.join("../target/ptx");
    watch(&ptx, custom.is_none().then_some(ptx_dir.as_path()));
    let text = std::fs::read_to_string(&ptx).unwrap_or_default();
    std::fs::write(out_dir.join("qapgpu.modules.ptx"), text).unwrap();
    for arch in CUBIN_ARCHS {
        let cubin = manifest.join(format!("../target/ptx/qapgpu.{arch}.cubin"));
        watch(&cubin, Some(&ptx_dir));
        // A custom PTX has no matching machine code.
        let bytes = if custom.is_some() { Vec::new() } else { std::fs::read(&cubin).unwrap_or_default() };
        std::fs::write(out_dir.join(format!("qapgpu.{arch}.cubin")), bytes).unwrap();
    }
}

/// Reruns this script when `file` changes. Cargo reruns a build script on every build while
/// a watched path is missing, so a file not built yet is watched through `folder`, made
/// here if need be: `cargo xtask build-ptx` writing the file changes the folder. Without a
/// folder (a custom `QAPGPU_PTX` that is missing) only the variable is watched.
fn watch(file: &Path, folder: Option<&Path>) {
    if file.exists() {
        println!("cargo:rerun-if-changed={}", file.display());
    } else if let Some(dir) = folder {
        let _ = std::fs::create_dir_all(dir);
        println!("cargo:rerun-if-changed={}", dir.display());
    }
}
