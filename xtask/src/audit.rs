//! `cargo xtask audit`: where every byte of the GA kernel goes for one n and one GPU.
use crate::ptx::{find_ptxas, ptxas_report};
use crate::{flag, root};
use qapgpu_common::elem::ElemWidth;
use qapgpu_common::layout::{self, CONST_A_CAPACITY, GaLayout, Placement, SCRATCH_HEADER, SCRATCH_PER_WARP};
use qapgpu_common::params::{GaParams, MigrateParams, RunControl};

/// The audit's options, each followed by its value.
const FLAGS: [&str; 13] = [
    "--n",
    "--arch",
    "--subpop",
    "--width",
    "--kernel",
    "--ls",
    "--layout",
    "--ns",
    "--delta",
    "--role",
    "--split-threads",
    "--ls-mapping",
    "--grid",
];

/// Every argument is a known option with a value, given once.
fn check_flags(args: &[String]) -> Result<(), String> {
    for (i, pair) in args.chunks(2).enumerate() {
        let name = pair[0].as_str();
        if !FLAGS.contains(&name) {
            return Err(format!("unknown option `{name}`; audit takes {}", FLAGS.join(", ")));
        }
        if pair.get(1).is_none_or(|v| v.starts_with("--")) {
            return Err(format!("{name} needs a value"));
        }
        if args.chunks(2).take(i).any(|p| p[0] == name) {
            return Err(format!("{name} is given twice"));
        }
    }
    Ok(())
}

pub fn audit(args: &[String]) -> Result<(), String> {
    check_flags(args)?;
    let n: u32 = flag(args, "--n").ok_or("audit needs --n N")?.parse().map_err(|_| "--n takes an integer")?;
    let arch = flag(args, "--arch").unwrap_or("sm_90");
    let subpop: u32 = flag(args, "--subpop").unwrap_or("128").parse().map_err(|_| "--subpop takes an integer")?;
    let width = match flag(args, "--width").unwrap_or("u16") {
        "u16" => ElemWidth::U16,
        "i32" => ElemWidth::I32,
        w => return Err(format!("--width {w}: expected u16 or i32 (the GPU kernels' element types)")),
    };
    match flag(args, "--kernel").unwrap_or("ga") {
        "ls" => return crate::audit_ls::audit(args, n, arch, width),
        "cga" => return crate::audit_cga::audit(args, n, arch, width.name()),
        "ga" => {}
        k => return Err(format!("--kernel {k}: expected ga, ls or cga")),
    }
    let cc: u32 = arch.trim_start_matches("sm_").parse().map_err(|_| format!("bad arch {arch}"))?;
    let lim = layout::limits(cc).ok_or(format!("no limits known for {arch}"))?;
    let lay = GaLayout::new(n, subpop, width, &lim).map_err(|e| e.to_string())?;

    println!("GA kernel (seeds 000/001) — n = {n}, subpopulation N = {subpop}, elements {}, {arch}", width.name());
    println!("one block = one subpopulation, one thread = one individual ({subpop} threads, {} warps)\n", subpop / 32);
    println!(
        "dynamic shared memory per block: {} B of {} B available to one block (opt-in limit)",
        lay.dynamic_shared, lim.shared_per_block_optin
    );
    let pad = lay.stride - n;
    let row = |name: &str, r: layout::Region, what: String| {
        println!("  [{:>6}, {:>6})  {:>6} B  {name:<9} {what}", r.offset, r.end(), r.bytes);
    };
    let why = format!(
        "{} rows × {} B: {n} genes (u8) + {pad} B padding; {} words per row, odd, so a warp reading gene k of its 32 rows hits 32 banks",
        subpop,
        lay.stride,
        lay.stride / 4
    );
    row("pool P", lay.p_pool, why.clone());
    row("pool W", lay.w_pool, "children, same shape as P".into());
    let mut at = lay.w_pool.end();
    if let Some(b) = lay.b_matrix {
        if b.offset > at {
            row("padding", layout::Region { offset: at, bytes: b.offset - at }, "align matrix B to 16 B".into());
        }
        row(
            "matrix B",
            b,
            format!("{n}×{n} {} (row-major), read at B[p(i)][p(j)]: divergent, so shared beats constant", width.name()),
        );
        at = b.end();
    } else {
        println!(
            "  matrix B ({} B) does not fit beside the pools: read from global memory (ld.global.nc, L1-cached)",
            lay.matrix_bytes
        );
    }
    if lay.scratch.offset > at {
        row("padding", layout::Region { offset: at, bytes: lay.scratch.offset - at }, "align scratch to 16 B".into());
    }
    row(
        "scratch",
        lay.scratch,
        format!(
            "{SCRATCH_HEADER} B atomic cells (best i64, count u32, index u32) + {} warps × {SCRATCH_PER_WARP} B (warp min cost, index)",
            subpop / 32
        ),
    );

    println!("\nconstant memory:");
    println!(
        "  QAP_CONST_A    {CONST_A_CAPACITY} B declared (one bank); matrix A needs {} B → A in {}",
        lay.matrix_bytes,
        lay.a_placement.name()
    );
    if lay.a_placement == Placement::Constant {
        println!("                 read at A[i][j] with the same (i, j) across a warp: one broadcast per warp");
    }
    println!("  kernel params  8 B: one pointer to GaParams ({} B, in global memory)", size_of::<GaParams>());

    println!("\nglobal memory for B blocks (per block):");
    println!(
        "  population     {} B  ({subpop} × {} B rows, copied to/from pool P with coalesced words)",
        subpop * lay.stride,
        lay.stride
    );
    println!("  costs          {} B  (i64 each)", subpop * 8);
    println!("  rng states     {} B  (xoshiro128**, 4 × u32, structure of arrays)", subpop * 16);
    println!("  best-ever      {} B  (i64 cost + one row)", 8 + lay.stride);
    println!("  restarts       4 B");
    println!(
        "  + per run: RunControl {} B, MigrateParams {} B, matrices 2 × {} B",
        size_of::<RunControl>(),
        size_of::<MigrateParams>(),
        lay.matrix_bytes
    );

    let ptx = root().join("target/ptx/qapgpu.ptx");
    let kernel = format!("ga_generations_{}", width.name());
    match find_ptxas() {
        Some(ptxas) if ptx.is_file() => {
            let report = ptxas_report(&ptxas, &ptx, arch)?;
            println!("\nptxas -v for {arch} (from {}):", ptx.display());
            println!(
                "  {:<22} {:>5} {:>7} {:>13} {:>12}  constant banks",
                "kernel", "regs", "stack", "spill st/ld", "static smem"
            );
            for k in &report {
                println!(
                    "  {:<22} {:>5} {:>6}B {:>6}/{:<6} {:>11}B  {}",
                    k.name, k.registers, k.stack, k.spill_stores, k.spill_loads, k.shared_static, k.constant
                );
            }
            if let Some(k) = report.iter().find(|k| k.name == kernel) {
                let (blocks, limiter) =
                    layout::blocks_per_sm(&lim, subpop, lay.dynamic_shared + k.shared_static, k.registers);
                println!(
                    "\noccupancy of {kernel}: {blocks} blocks per SM ({} threads of {}), limited by {limiter}",
                    blocks * subpop,
                    lim.max_threads_per_sm
                );
                println!(
                    "  shared: {} B per SM / ({} B + {} B reserved) per block; registers: {} per thread",
                    lim.shared_per_sm, lay.dynamic_shared, lim.reserved_per_block, k.registers
                );
                println!("  spills: {}", k.spills());
            }
        }
        Some(_) => println!("\n(no target/ptx/qapgpu.ptx: run `cargo xtask build-ptx` for registers and occupancy)"),
        None => println!("\n(ptxas not found: pip install nvidia-cuda-nvcc, for registers and occupancy)"),
    }
    Ok(())
}
