//! `cargo xtask audit --kernel cga`: where every byte of the cellular GA's kernels goes for
//! one n, one grid and one GPU, and how the local search's threads map to genes or moves.
use crate::ptx::{find_ptxas, ptxas_report};
use crate::{flag, root};
use qapgpu_common::cga::CgaBest;
use qapgpu_common::layout::{self, CgaLayout, LS_SCRATCH_PER_WARP, Placement};
use qapgpu_common::moves::move_count;
use qapgpu_common::params::CgaParams;

pub fn audit(args: &[String], n: u32, arch: &str, width: &str) -> Result<(), String> {
    let cc: u32 = arch.trim_start_matches("sm_").parse().map_err(|_| format!("bad arch {arch}"))?;
    let lim = layout::limits(cc).ok_or(format!("no limits known for {arch}"))?;
    let move_mapping = match flag(args, "--ls-mapping").unwrap_or("move") {
        "move" => true,
        "gene" => false,
        x => return Err(format!("--ls-mapping {x}: expected gene or move")),
    };
    let (w, h) = flag(args, "--grid")
        .unwrap_or("8x8")
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<u64>().ok()?, h.parse::<u64>().ok()?)))
        .ok_or("--grid takes WxH")?;
    let (pop, c) = (w * h, move_count(n) as u64);
    let lay = CgaLayout::new(n, move_mapping, &lim);
    let stride = (n as u64).div_ceil(16) * 16;
    println!(
        "cellular GA kernels (seeds 002/004) — n = {n}, {w}×{h} grid = {pop} individuals, elements {width}, {arch}"
    );
    println!("cga_init, cga_tournament, cga_crossover: one thread per individual, blocks of 64; cga_best: one warp");
    println!(
        "cga_local_search: one block per individual, {} threads — {}",
        lay.threads,
        if move_mapping {
            format!(
                "`move` mapping: thread t owns moves t, t + {0}, … of C = {c} ({1} per thread at most)",
                lay.threads,
                c.div_ceil(lay.threads as u64)
            )
        } else {
            format!(
                "`gene` mapping: thread t adds the terms of genes t, t + {0}, …; one block sum per swap, C = {c} sums per pass",
                lay.threads
            )
        }
    );
    println!(
        "\ndynamic shared memory per local-search block: {} B of {} B (opt-in limit)",
        lay.dynamic_shared, lim.shared_per_block_optin
    );
    let row = |name: &str, r: layout::Region, what: String| {
        println!("  [{:>6}, {:>6})  {:>6} B  {name:<8} {what}", r.offset, r.end(), r.bytes)
    };
    row("perm", lay.perm, format!("the individual, {n} genes (u8)"));
    row(
        "scratch",
        lay.scratch,
        format!(
            "{} warps × {LS_SCRATCH_PER_WARP} B: one (Δ, move) slot per warp for block sums and argmins",
            lay.threads / 32
        ),
    );
    if move_mapping {
        match lay.delta_placement {
            Placement::Shared => {
                row("delta", lay.delta, format!("Δ table, C = {c} × i64 (greedy; 2-opt keeps its best in registers)"))
            }
            _ => println!("  Δ table ({} B) does not fit: global memory, {pop} × {c} × 8 B = {} B", c * 8, pop * c * 8),
        }
    }
    println!("\nglobal memory per run:");
    println!(
        "  populations    2 × {pop} × {stride} B = {} B (pop and the tournament's pop_alt, rows padded to 16 B)",
        2 * pop * stride
    );
    println!("  costs          2 × {pop} × 8 B = {} B", 16 * pop);
    println!("  RNG            {pop} × 16 B = {} B (u32[4][P], coalesced)", 16 * pop);
    println!("  A, B           2 × n² elements ({width}), read through the read-only path");
    println!("  CgaBest {} B, CgaParams {} B", size_of::<CgaBest>(), size_of::<CgaParams>());
    let ptx = root().join("target/ptx/qapgpu.ptx");
    if let Some(ptxas) = find_ptxas().filter(|_| ptx.is_file()) {
        println!("\nptxas -v ({arch}):");
        for k in ptxas_report(&ptxas, &ptx, arch)?.iter().filter(|k| {
            k.name.starts_with("cga_")
                && (k.name.ends_with(width)
                    || !k.name.contains('_')
                    || matches!(k.name.as_str(), "cga_best" | "cga_tournament"))
        }) {
            let per_sm = layout::max_threads_for_registers(&lim, k.registers);
            println!(
                "  {:<22} {:>3} registers, {} B stack, spills {} / {} B; at most {per_sm} threads per block",
                k.name, k.registers, k.stack, k.spill_stores, k.spill_loads
            );
        }
    } else {
        println!(
            "\n(ptxas not found or no PTX: run `cargo xtask build-ptx` with nvidia-cuda-nvcc installed for registers)"
        );
    }
    Ok(())
}
