//! Project automation in plain Rust (`cargo xtask <command>`), rust-analyzer style.
mod audit;
mod audit_cga;
mod audit_ls;
mod ptx;
mod ptx_split;
mod ptxas;

use std::path::PathBuf;
use std::process::{Command, ExitCode};

const HELP: &str = "\
cargo xtask <command> [options]

commands:
  build-ptx [--arch sm_XX] [--check sm_A,sm_B,...] [--require-ptxas] [--no-fetch] [--verbose]
        Build the device crate to PTX (default --arch sm_70) into target/ptx/qapgpu.ptx and
        its split into one module a kernel, target/ptx/qapgpu.modules.ptx, which the host
        embeds (a GPU without machine code JIT-compiles only the kernels a run loads). Then
        assemble it with ptxas for each --check arch (default sm_75,sm_80,sm_90,sm_100,sm_120,
        whose cubins the host embeds), failing on errors, spills over a kernel's allowance or
        a kernel over its register budget. ptxas comes from $PTXAS, the PATH or pip's
        nvidia-cuda-nvcc; where none is found it is fetched (that wheel, from PyPI, into
        target/tools/cuda-nvcc) unless --no-fetch. Without ptxas the build goes on with a
        warning (PTX only), or fails with --require-ptxas. Unchanged PTX is not assembled again.
        --verbose lists every kernel's registers, stack and spills.
  audit --n N [--arch sm_XX] [--subpop N] [--width u16|i32]
        [--kernel ga|ls|cga] [--ls ts|2opt] [--layout mata|plain|split|sums] [--ns N] [--delta i32|i64]
        [--role walk|search] [--split-threads T] [--ls-mapping gene|move] [--grid WxH]
        Where every byte goes for the GA kernel (ls: the local search as the planner plans it,
        a ts walk or with --role search a c-ant's; cga: the cellular GA's kernels) at problem
        size n: the kernel chosen, shared-memory pools,
        strides, padding, matrix placement, constant memory, and from ptxas -v the
        registers, spills, stack of each kernel and the resulting blocks per SM.
  dist  Build the release binary with the PTX embedded, and the GPU test binaries, into
        dist/ (ignored by git), stripped, and packed in dist/pack/bundle.tar.xz: carry
        dist/pack and dist/qaplib to a GPU machine and run scripts/unpack-dist.sh there.
  ci    What CI runs: rustfmt and clippy (warnings as errors), build-ptx (with the ptxas
        check), the README's test command, then the Python package installed from python/
        and its pytest suite.
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("build-ptx") => ptx::build_ptx(&args[1..]).map(|_| ()),
        Some("audit") => audit::audit(&args[1..]),
        Some("dist") => dist(),
        Some("ci") => ci(),
        Some("help" | "--help" | "-h") | None => {
            print!("{HELP}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{HELP}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (xtask lives one level below it).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Value of `--name VALUE` in `args`.
pub fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(String::as_str)
}

pub fn run(cmd: &mut Command) -> Result<(), String> {
    eprintln!("$ {cmd:?}");
    let status = cmd.status().map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{cmd:?} failed with {status}")) }
}

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

/// Test binaries that need a GPU; `dist` copies them beside the binary.
const GPU_TESTS: [&str; 8] = [
    "gpu_twin",
    "aco_twin",
    "cga_twin",
    "time_limits",
    "multi_device",
    "hardening_limits_gpu",
    "batch_engine",
    "wide_twin",
];

fn dist() -> Result<(), String> {
    ptx::build_ptx(&[])?;
    run(cargo().current_dir(root()).args(["build", "--release", "-p", "host"]))?;
    let dist = root().join("dist");
    std::fs::create_dir_all(&dist).map_err(|e| e.to_string())?;
    std::fs::copy(root().join("target/release/qapgpu"), dist.join("qapgpu"))
        .map_err(|e| format!("copy qapgpu: {e}"))?;
    std::fs::copy(root().join("target/ptx/qapgpu.ptx"), dist.join("qapgpu.ptx")).map_err(|e| e.to_string())?;
    // The GPU tests, built as the README's test command builds them.
    let out = cargo()
        .current_dir(root())
        .args(["test", "--release", "-p", "qapgpu-tests", "--no-run", "--message-format=json"])
        .output()
        .map_err(|e| format!("cargo test --no-run: {e}"))?;
    if !out.status.success() {
        return Err(format!("cargo test --no-run failed:\n{}", String::from_utf8_lossy(&out.stderr)));
    }
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Some(name) = GPU_TESTS.iter().find(|t| line.contains(&format!("\"name\":\"{t}\""))) else { continue };
        let Some(exe) = line.split("\"executable\":\"").nth(1).and_then(|r| r.split('"').next()) else { continue };
        std::fs::copy(exe, dist.join(name)).map_err(|e| format!("copy {exe}: {e}"))?;
    }
    // Line tables are for local debugging; stripped, everything fits one device transfer.
    for f in GPU_TESTS.iter().chain(&["qapgpu"]) {
        let _ = Command::new("strip").arg(dist.join(f)).status();
    }
    // The same files in one xz tarball: every binary embeds the PTX and five cubins (about
    // 50 MB), together far past what one transfer to a device machine takes (64 MiB). A
    // dictionary larger than one binary lets xz store the embedded kernels once.
    let pack = dist.join("pack");
    std::fs::create_dir_all(&pack).map_err(|e| e.to_string())?;
    let files: Vec<&str> = GPU_TESTS.iter().copied().chain(["qapgpu", "qapgpu.ptx"]).collect();
    let out = pack.join("bundle.tar.xz");
    let script = format!(
        "set -o pipefail; tar cf - {} | xz -T1 --lzma2=preset=6,dict=256MiB > '{}'",
        files.join(" "),
        out.display()
    );
    run(Command::new("bash").current_dir(&dist).args(["-c", &script]))?;
    eprintln!(
        "dist/ holds qapgpu, qapgpu.ptx and the GPU tests {}; dist/pack/bundle.tar.xz all of them (scripts/unpack-dist.sh)",
        GPU_TESTS.join(", ")
    );
    Ok(())
}

/// Formatting (rustfmt.toml) in the three workspaces and clippy with warnings as errors in
/// the root workspace and python/, as `.ci/run` checks them.
fn lint() -> Result<(), String> {
    run(cargo().current_dir(root()).args(["fmt", "--all", "--check"]))?;
    for workspace in ["device", "python"] {
        run(cargo().current_dir(root().join(workspace)).args(["fmt", "--check"]))?;
    }
    let clippy = ["--all-targets", "--release", "--", "-D", "warnings"];
    run(cargo().current_dir(root()).args(["clippy", "--workspace"]).args(clippy))?;
    run(cargo().current_dir(root().join("python")).arg("clippy").args(clippy))
}

/// The README's test command; `.ci/run` and `cargo xtask ci` both call it.
pub const TEST_COMMAND: [&str; 3] = ["test", "--workspace", "--release"];

fn ci() -> Result<(), String> {
    lint()?;
    ptx::build_ptx(&["--require-ptxas".to_string()])?;
    run(cargo().current_dir(root()).args(TEST_COMMAND))?;
    // The Python package, as `.ci/run` installs and tests it.
    let pip = |args: &[&str]| {
        let mut c = Command::new("python3");
        c.current_dir(root()).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).args(args);
        run(&mut c)
    };
    pip(&["maturin", "pytest", "numpy", "scipy"])?;
    pip(&["./python"])?;
    run(Command::new("python3").current_dir(root()).args([
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "python/tests",
    ]))
}
