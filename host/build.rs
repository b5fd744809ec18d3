//! Embeds the PTX built by `cargo xtask build-ptx` (target/ptx/qapgpu.ptx, or $QAPGPU_PTX)
//! so the release binary runs alone on a GPU machine. Without it the binary still builds;
//! its GPU engine then asks for `--ptx` or a rebuild.
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let ptx = std::env::var_os("QAPGPU_PTX")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../target/ptx/qapgpu.ptx"));
    println!("cargo:rerun-if-env-changed=QAPGPU_PTX");
    println!("cargo:rerun-if-changed={}", ptx.display());
    let text = std::fs::read_to_string(&ptx).unwrap_or_default();
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("qapgpu.ptx");
    std::fs::write(out, text).unwrap();
}
