//! `cargo xtask build-ptx`: device crate → PTX, then ptxas checks.
use crate::ptx_split;
use crate::ptxas::fetch_ptxas;
pub use crate::ptxas::find_ptxas;
use crate::{flag, root, run};
use qapgpu_common::search::kernels::{Budget, KernelId, budget};
use std::path::{Path, PathBuf};
use std::process::Command;

pub const DEFAULT_ARCH: &str = "sm_70";
/// ptxas 13 no longer assembles for Volta (sm_70), so checks start at Turing.
/// Every architecture whose machine code is embedded is checked against the budgets below.
pub const DEFAULT_CHECKS: &str = "sm_75,sm_80,sm_90,sm_100,sm_120";

/// Registers a kernel outside the local search may use on every checked architecture
/// (prefix of its name, budget; the local search's kernels take theirs from their table,
/// `qapgpu_common::search::kernels::budget`). A budget fixes a block shape: the GA's
/// 128-thread blocks fit 5 per SM at ≤ 96. An edit that crosses one would silently change
/// launches (the GA fills the GPU with fewer blocks), so the build fails instead. The
/// cellular GA's local search launches up to `CGA_MOVE_THREADS` = 512 threads: ≤ 128. The
/// regrouping kernels' 128-thread blocks (one a walk) fit 8 an SM, a walk launch's wave, at
/// ≤ 64 (`ts_rank_walks` also copies the elite's starts aside: 56–64 registers); the
/// perturbation (`ts_perturb_walks_`) runs on the init kernels' blocks, as few registers.
pub const REGISTER_BUDGET: &[(&str, u32)] = &[
    ("ga_generations_", 96),
    ("aco_construct_", 72),
    ("ga_init_", 64),
    ("aco_init_", 64),
    ("cga_local_search_", 128),
    ("cga_crossover_", 96),
    ("ts_rank_walks", 64),
    ("ts_regroup_walks", 64),
    ("ts_take_donors", 64),
    ("ts_perturb_walks_", 64),
];

/// The local-search kernel `name`'s budget, from the kernel table (None: not one).
fn ls_budget(name: &str) -> Option<Budget> {
    KernelId::named(name).map(|id| budget(id.kernel().body, id.kernel().role))
}

/// The registers kernel `name` may use: its table's budget, or its `REGISTER_BUDGET` row.
fn register_budget(name: &str) -> Option<u32> {
    ls_budget(name).map(|b| b.registers).or_else(|| for_kernel(REGISTER_BUDGET, name))
}

/// Bytes of spill stores and loads a thread of kernel `name` may have on `arch`: the local
/// search's from its table (about a quarter above what the caps cost; sm_12x apart, where
/// ptxas 13 spills 1.3–3.8 times as much at one cap and no such GPU was lent to measure
/// other caps); none for every other kernel.
fn spill_allowance(arch: &str, name: &str) -> u32 {
    ls_budget(name).map_or(0, |b| if arch.starts_with("sm_12") { b.spill_sm12x } else { b.spill })
}

/// The figure a table of kernel-name prefixes (`REGISTER_BUDGET`) gives the kernel `name`:
/// its first matching row's (None: no row).
fn for_kernel(table: &[(&str, u32)], name: &str) -> Option<u32> {
    table.iter().find(|(prefix, _)| name.starts_with(prefix)).map(|&(_, v)| v)
}

/// Inserts `.maxnreg` after the parameter list of every local-search entry: its table's
/// register budget, honoured by ptxas and by the driver's JIT alike.
fn cap_registers(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len() + 256);
    let mut cap = None;
    for line in ptx.split_inclusive('\n') {
        if let Some(name) = line.trim_start().strip_prefix(".visible .entry ") {
            cap = name.split(['(', ' ', '\n']).next().and_then(ls_budget).map(|b| b.registers);
        }
        if line.trim_end() == "{"
            && let Some(r) = cap.take()
        {
            out.push_str(&format!(".maxnreg {r}\n"));
        }
        out.push_str(line);
    }
    out
}

/// Builds the PTX and returns its path (target/ptx/qapgpu-<arch>.ptx).
pub fn build_ptx(args: &[String]) -> Result<PathBuf, String> {
    let arch = flag(args, "--arch").unwrap_or(DEFAULT_ARCH);
    let checks = flag(args, "--check").unwrap_or(DEFAULT_CHECKS);
    check_arch_name(arch)?;
    let root = root();
    // One build at a time in a tree: another one's clean-up of stale cubins would remove
    // this one's (a pip install beside a `cargo xtask build-ptx`).
    std::fs::create_dir_all(root.join("target")).map_err(|e| e.to_string())?;
    let lock =
        std::fs::File::create(root.join("target/build-ptx.lock")).map_err(|e| format!("target/build-ptx.lock: {e}"))?;
    if lock.try_lock().is_err() {
        eprintln!("waiting for another `cargo xtask build-ptx` in this tree to finish …");
        lock.lock().map_err(|e| format!("target/build-ptx.lock: {e}"))?;
    }
    let target_dir = root.join("target/device").join(arch);
    // build-std needs rust-src and the pinned nightly; the cdylib + LTO + no-op linker trick
    // gives one PTX module from --emit=asm without the llvm-bitcode-linker.
    let mut cmd = Command::new("cargo");
    cmd.current_dir(root.join("device"))
        .env_remove("RUSTFLAGS")
        .env("CARGO_TARGET_NVPTX64_NVIDIA_CUDA_RUSTFLAGS", format!("-C target-cpu={arch} -C linker=/bin/true"))
        .args(["rustc", "--release", "--target", "nvptx64-nvidia-cuda", "-Zbuild-std=core", "--target-dir"])
        .arg(&target_dir)
        .args(["--", "--emit=asm"]);
    run(&mut cmd)?;
    let asm = target_dir.join("nvptx64-nvidia-cuda/release/deps/qapgpu_device.s");
    let out_dir = root.join("target/ptx");
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    let out = out_dir.join(format!("qapgpu-{arch}.ptx"));
    let ptx = std::fs::read_to_string(&asm).map_err(|e| format!("{}: {e}", asm.display()))?;
    let ptx = cap_registers(&ptx);
    let modules = ptx_split::split(&ptx)?;
    let write = |path: PathBuf, text: &str| std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()));
    write(out.clone(), &ptx)?;
    write(out_dir.join("qapgpu.ptx"), &ptx)?;
    write(out_dir.join(MODULES_FILE), &ptx_split::render(&modules))?;
    eprintln!(
        "PTX written to {} (and target/ptx/qapgpu.ptx; the host embeds its {} modules, {MODULES_FILE})",
        out.display(),
        modules.len()
    );

    // Machine code is assembled again only where the PTX or the checks changed since the
    // last success, which the stamp records.
    let stamp_path = out_dir.join("checked.stamp");
    let stamp = format!("{:016x} {checks}", fnv1a(ptx.as_bytes()));
    let all_there = EMBEDDED_ARCHS
        .iter()
        .filter(|a| checks.split(',').any(|c| c == **a))
        .all(|a| cubin_path(&out_dir, a).is_file());
    if all_there && std::fs::read_to_string(&stamp_path).is_ok_and(|s| s == stamp) {
        eprintln!("PTX unchanged since its last check ({checks}): machine code kept");
        return Ok(out);
    }
    // Machine code of an older PTX must never be embedded beside a newer one.
    let _ = std::fs::remove_file(&stamp_path);
    remove_cubins(&out_dir);
    let required = args.iter().any(|a| a == "--require-ptxas");
    let ptxas = match find_ptxas() {
        Some(p) => p,
        None if args.iter().any(|a| a == "--no-fetch") => {
            let why = format!("ptxas not found: {}", crate::ptxas::BY_HAND);
            return if required { Err(why) } else { warn_no_machine_code(&why, out) };
        }
        None => match fetch_ptxas() {
            Ok(p) => p,
            Err(why) if required => return Err(why),
            Err(why) => return warn_no_machine_code(&why, out),
        },
    };
    let verbose = args.iter().any(|a| a == "--verbose");
    let mut resources = String::new();
    for check in checks.split(',') {
        match check_arch(&ptxas, &out, &out_dir, check, verbose) {
            Ok(report) => resources += &ls_resources(check, &report),
            Err(e) => {
                // No machine code that failed its checks is left for the host to embed.
                remove_cubins(&out_dir);
                return Err(e);
            }
        }
    }
    write_resources(&root, &resources)?;
    write(stamp_path, &stamp)?;
    Ok(out)
}

/// Where the planner's tests read the local-search kernels' registers as ptxas gave them
/// (`common::search::plan`'s tests), one line a kernel and architecture.
pub const RESOURCES_FILE: &str = "common/src/search/ptxas-resources.txt";

/// The lines of `RESOURCES_FILE` for architecture `arch`: `arch kernel registers`.
fn ls_resources(arch: &str, report: &[KernelReport]) -> String {
    report
        .iter()
        .filter(|k| KernelId::named(&k.name).is_some())
        .map(|k| format!("{arch} {} {}\n", k.name, k.registers))
        .collect()
}

/// Writes `RESOURCES_FILE` where the registers changed, and says so: the planner's tests
/// then check the plans on what this build's kernels need.
fn write_resources(root: &Path, lines: &str) -> Result<(), String> {
    let path = root.join(RESOURCES_FILE);
    let text = format!(
        "# Registers ptxas 13 gave each local-search kernel (arch, kernel, registers),\n# written by `cargo xtask build-ptx`; the planner's unit tests read it.\n{lines}"
    );
    if std::fs::read_to_string(&path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("the local-search kernels' registers changed: {RESOURCES_FILE} rewritten (commit it with the kernels)");
    Ok(())
}

/// The file of PTX modules, one a kernel or a group of kernels (`ptx_split`).
pub const MODULES_FILE: &str = "qapgpu.modules.ptx";

/// FNV-1a, 64 bits: the PTX's fingerprint in the stamp.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// Without ptxas the PTX still serves: the GPU JIT-compiles it at first use.
fn warn_no_machine_code(why: &str, out: PathBuf) -> Result<PathBuf, String> {
    eprintln!("warning: {why}");
    eprintln!(
        "warning: no machine code embedded: a GPU will JIT-compile each kernel's PTX the first time a run loads it"
    );
    Ok(out)
}

/// Assembles `ptx` for `check` (keeping the cubin where the host embeds it) and fails on a
/// kernel over its register budget or spill allowance.
fn check_arch(
    ptxas: &Path,
    ptx: &Path,
    out_dir: &Path,
    check: &str,
    verbose: bool,
) -> Result<Vec<KernelReport>, String> {
    check_arch_name(check)?;
    // The assemblies of the embedded architectures are kept: the host embeds
    // them so that no GPU of those families JIT-compiles the PTX at start-up.
    let report = if EMBEDDED_ARCHS.contains(&check) {
        assemble(ptxas, ptx, check, &cubin_path(out_dir, check))?
    } else {
        ptxas_report(ptxas, ptx, check)?
    };
    let spills: Vec<_> = report.iter().filter(|k| k.spill_stores + k.spill_loads > 0).collect();
    for k in report.iter().filter(|_| verbose) {
        eprintln!(
            "  {:<22} {:>3} registers, {:>4} B stack, spills {} B stores / {} B loads",
            k.name, k.registers, k.stack, k.spill_stores, k.spill_loads
        );
    }
    for k in &spills {
        let allowed = spill_allowance(check, &k.name);
        if k.spill_stores + k.spill_loads > allowed {
            return Err(format!(
                "{} spills {} B stores and {} B loads on {check}, over its allowance of {allowed} B (xtask/src/ptx.rs, or common/src/search/kernels.rs)",
                k.name, k.spill_stores, k.spill_loads
            ));
        }
    }

    for k in &report {
        if let Some(budget) = register_budget(&k.name).filter(|&b| k.registers > b) {
            return Err(format!(
                "{} uses {} registers on {check}, over its budget of {budget} (xtask/src/ptx.rs)",
                k.name, k.registers
            ));
        }
    }
    // One line an architecture; --verbose lists every kernel.
    eprintln!(
        "ptxas {check}: {} kernels assembled, each within its register budget and spill allowance ({} spill)",
        report.len(),
        spills.len()
    );
    Ok(report)
}

/// Architectures whose machine code (cubin) the host embeds beside the PTX (a cubin runs on
/// GPUs of the same major version and an equal or higher minor one; others JIT the PTX).
/// Turing, Ampere (and Ada, sm_89, through sm_80), Hopper, Blackwell data-centre (sm_100,
/// sm_103) and Blackwell consumer (sm_120, sm_121): ptxas 13's oldest is sm_75. Keep in step
/// with `host/build.rs` and `host::gpu::EMBEDDED_CUBINS`.
pub const EMBEDDED_ARCHS: [&str; 5] = ["sm_75", "sm_80", "sm_90", "sm_100", "sm_120"];

/// Removes every embedded architecture's cubin from `dir`.
fn remove_cubins(dir: &Path) {
    for arch in EMBEDDED_ARCHS {
        let _ = std::fs::remove_file(cubin_path(dir, arch));
    }
}

pub fn cubin_path(dir: &Path, arch: &str) -> PathBuf {
    dir.join(format!("qapgpu.{arch}.cubin"))
}

fn check_arch_name(arch: &str) -> Result<(), String> {
    let ok = arch.strip_prefix("sm_").is_some_and(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit()));
    if ok { Ok(()) } else { Err(format!("architecture `{arch}` is not of the form sm_XX")) }
}

#[derive(Debug, Default, Clone)]
pub struct KernelReport {
    pub name: String,
    pub registers: u32,
    pub stack: u32,
    pub spill_stores: u32,
    pub spill_loads: u32,
    pub shared_static: u32,
    pub constant: String,
}

impl KernelReport {
    /// The kernel's spills as the audits print them: "none", or its stores and loads.
    pub fn spills(&self) -> String {
        if self.spill_stores + self.spill_loads == 0 {
            "none".to_string()
        } else {
            format!("{} B stores, {} B loads", self.spill_stores, self.spill_loads)
        }
    }
}

/// Runs `ptxas -v` and parses its per-kernel resource lines.
pub fn ptxas_report(ptxas: &Path, ptx: &Path, arch: &str) -> Result<Vec<KernelReport>, String> {
    let tmp = std::env::temp_dir().join(format!("qapgpu-{arch}-{}.cubin", std::process::id()));
    let report = assemble(ptxas, ptx, arch, &tmp);
    let _ = std::fs::remove_file(&tmp);
    report
}

/// Assembles `ptx` for `arch` into the cubin `out` and reads ptxas's per-kernel report.
pub fn assemble(ptxas: &Path, ptx: &Path, arch: &str, out_cubin: &Path) -> Result<Vec<KernelReport>, String> {
    let out = Command::new(ptxas)
        .args(["-v", "-O3", &format!("-arch={arch}"), "-o"])
        .arg(out_cubin)
        .arg(ptx)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", ptxas.display()))?;
    let text = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!("ptxas failed for {arch}:\n{text}"));
    }
    Ok(parse_report(&text))
}

/// ptxas's `-v` text, one report per entry function. Stack and spills come from the
/// "Function properties for NAME" line of the entry itself: ptxas also prints one for every
/// function a kernel calls (the panic handlers, 0 bytes each) after the kernel's own, and
/// taking the last one seen reported every kernel as spill-free.
pub fn parse_report(text: &str) -> Vec<KernelReport> {
    let num = |s: &str, before: &str| -> u32 {
        s.split(before).next().and_then(|h| h.split_whitespace().last()).and_then(|t| t.parse().ok()).unwrap_or(0)
    };
    let mut kernels = Vec::new();
    let mut cur: Option<KernelReport> = None;
    // The function the last "Function properties" line named.
    let mut properties_of = String::new();
    for line in text.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            if let Some(k) = cur.take() {
                kernels.push(k);
            }
            cur = Some(KernelReport { name: rest.split('\'').next().unwrap_or("").to_string(), ..Default::default() });
        } else if let Some(name) = line.split("Function properties for ").nth(1) {
            properties_of = name.trim().to_string();
        } else if let Some(k) = cur.as_mut() {
            if line.contains("bytes stack frame") {
                if properties_of == k.name {
                    k.stack = num(line, "bytes stack frame");
                    k.spill_stores = num(line, "bytes spill stores");
                    k.spill_loads = num(line, "bytes spill loads");
                }
            } else if line.contains("Used") && line.contains("registers") {
                k.registers = num(line, "registers");
                if line.contains("bytes smem") {
                    k.shared_static = num(line, "bytes smem");
                }
                k.constant = line
                    .split(',')
                    .filter(|p| p.contains("cmem"))
                    .map(|p| p.trim().to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
            }
        }
    }
    kernels.extend(cur);
    kernels
}

#[cfg(test)]
mod tests {
    use super::parse_report;

    /// ptxas 13's order: the kernel's properties, then those of the functions it calls.
    const SAMPLE: &str = "ptxas info    : 288 bytes gmem
ptxas info    : Compiling entry function 'ts_sums_walk_u16' for 'sm_90'
ptxas info    : Function properties for ts_sums_walk_u16
    272 bytes stack frame, 2036 bytes spill stores, 2980 bytes spill loads
ptxas info    : Used 64 registers, used 1 barriers, 272 bytes cumulative stack size
ptxas info    : Compile time = 483.513 ms
ptxas info    : Function properties for _RNvNtCsbSE61zFgCyu_4core9panicking9panic_fmt
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'aco_best' for 'sm_90'
ptxas info    : Function properties for aco_best
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 24 registers, used 1 barriers, 528 bytes cumulative stack size, 16 bytes smem
";

    #[test]
    fn a_called_function_does_not_overwrite_the_kernel_s_spills() {
        let r = parse_report(SAMPLE);
        assert_eq!(r.len(), 2);
        assert_eq!(
            (r[0].name.as_str(), r[0].registers, r[0].stack, r[0].spill_stores, r[0].spill_loads),
            ("ts_sums_walk_u16", 64, 272, 2036, 2980)
        );
        assert_eq!(
            (r[1].name.as_str(), r[1].registers, r[1].spill_stores, r[1].shared_static),
            ("aco_best", 24, 0, 16)
        );
    }
}
