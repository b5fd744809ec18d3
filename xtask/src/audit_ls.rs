//! `cargo xtask audit --kernel ls`: where every byte of seed 003's local-search kernel goes
//! for one n and one GPU, and how its threads map to moves.
use crate::ptx::{find_ptxas, ptxas_report};
use crate::{flag, root};
use qapgpu_common::delta::DeltaWidth;
use qapgpu_common::elem::ElemWidth;
use qapgpu_common::layout::{self, LS_SCRATCH_PER_WARP, LsLayout, Placement};
use qapgpu_common::mata::{Mapping, Shape, default_ns};
use qapgpu_common::params::{AcoBest, AcoParams};

pub fn audit(args: &[String], n: u32, arch: &str, elem: ElemWidth) -> Result<(), String> {
    let width = elem.name();
    let cc: u32 = arch.trim_start_matches("sm_").parse().map_err(|_| format!("bad arch {arch}"))?;
    let lim = layout::limits(cc).ok_or(format!("no limits known for {arch}"))?;
    let tabu = match flag(args, "--ls").unwrap_or("ts") {
        "ts" => true,
        "2opt" => false,
        x => return Err(format!("--ls {x}: expected ts or 2opt")),
    };
    let mapping = match flag(args, "--layout").unwrap_or("mata") {
        "mata" => Mapping::Mata,
        "plain" => Mapping::Plain,
        x => return Err(format!("--layout {x}: expected mata or plain")),
    };
    let ns: u32 = match flag(args, "--ns") {
        Some(x) => x.parse().map_err(|_| "--ns takes an integer")?,
        None => default_ns(n),
    };
    // Registers decide the largest block, hence whether N_S must grow (as the host does).
    let ptx = root().join("target/ptx/qapgpu.ptx");
    let kernel = format!("aco_local_search_{width}");
    let report = match find_ptxas() {
        Some(ptxas) if ptx.is_file() => Some(ptxas_report(&ptxas, &ptx, arch)?),
        _ => None,
    };
    let k = report.as_ref().and_then(|r| r.iter().find(|k| k.name == kernel).cloned());
    let max_threads = k.as_ref().map_or(1024, |k| layout::max_threads_for_registers(&lim, k.registers));
    let shape = Shape::fit(n, ns, mapping, max_threads).map_err(|e| e.to_string())?;
    // The host takes i32 move costs where the instance allows (`delta::move_cost_bound`).
    let delta = match flag(args, "--delta").unwrap_or("i32") {
        "i32" => DeltaWidth::I32,
        "i64" => DeltaWidth::I64,
        x => return Err(format!("--delta {x}: expected i32 or i64")),
    };
    let max_blocks = layout::blocks_per_sm(&lim, shape.launched(), 0, k.as_ref().map_or(1, |k| k.registers)).0;
    let lay = LsLayout::new(shape, tabu, delta, elem, max_blocks, &lim);
    let c = shape.moves;

    println!(
        "local-search kernel (seed 003) — n = {n}, {}, {} mapping, elements {width}, {arch}",
        if tabu { "robust tabu search" } else { "2-opt" },
        if mapping == Mapping::Mata { "MATA" } else { "plain (non-MATA)" }
    );
    println!("one block = one ant; C = n(n−1)/2 = {c} moves, {} of them O(1) and {} O(n) after each move", (n - 2) * (n - 3) / 2, 2 * n - 3);
    if shape.ns != ns {
        println!("N_S raised from {ns} to {}: {kernel} has {} registers per thread, so a block holds at most {max_threads} threads", shape.ns, k.as_ref().map_or(0, |k| k.registers));
    }
    println!("threads: N_S = {} moves per thread, T_S = ⌈C/N_S⌉ = {} threads own the moves (warps 0..{})", shape.ns, shape.ts, shape.ts.div_ceil(32));
    if mapping == Mapping::Mata {
        println!(
            "         T_L-START = ⌈T_S/32⌉·32 = {}: threads {}..{} compute (r, x), {}..{} compute (y, s) in O(n) (warps {}..{}); no warp mixes both kinds",
            shape.tl_start,
            shape.tl_start,
            shape.tl_start + n,
            shape.tl_start + n,
            shape.total,
            shape.tl_start / 32,
            shape.launched() / 32
        );
        println!("         T_TOTAL = T_L-START + 2n = {}, launched as {} threads", shape.total, shape.launched());
    } else {
        println!("         the moves touching the previous move are computed inline by their owners (O(n) in an O(1) warp); launched as {} threads", shape.launched());
    }
    println!("         lookup table first_pairs: {} × u16 (u·256 + v of move t·N_S) in global memory, read once per launch", shape.ts);

    println!("\ndynamic shared memory per block: {} B of {} B available to one block (opt-in limit)", lay.dynamic_shared, lim.shared_per_block_optin);
    let row = |name: &str, r: layout::Region, what: String| {
        println!("  [{:>6}, {:>6})  {:>6} B  {name:<10} {what}", r.offset, r.end(), r.bytes);
    };
    row("φ", lay.perm, format!("current permutation, {n} × u8 (location of each facility)"));
    if tabu {
        row("best φ", lay.best, "best permutation of this search".into());
    }
    row("argmin", lay.scratch, format!("{} warps × {LS_SCRATCH_PER_WARP} B: each warp's best (Δ i64, tag u32)", shape.launched() / 32));
    let elsewhere = |what: &str, bytes: u32| println!("  {what} ({bytes} B per ant) does not fit: in global memory, {bytes} B × m ants");
    match lay.delta_placement {
        Placement::Shared => row("Δ table", lay.delta, format!("{c} × {} move costs, numbered as seed 003's Fig. 4; read and written by every move each iteration", delta.name())),
        _ => elsewhere("Δ table", lay.delta.bytes),
    }
    match lay.ab_placement {
        Placement::Shared => {
            row("A", lay.a, format!("{n}×{n} {width}, copied in at the start of each launch"));
            row("B", lay.b, format!("{n}×{n} {width}: an O(1) update reads 8 entries of each"));
        }
        _ => println!("  A, B           read through the read-only global path (ld.global.nc, L1-cached): the paper's texture fetches"),
    }
    if tabu {
        match lay.tabu_placement {
            Placement::Shared => row("tabu", lay.tabu, format!("{n}×{n} i32: iteration until which facility i may not return to location ℓ")),
            _ => elsewhere("tabu matrix", lay.tabu.bytes),
        }
    }

    println!("\nglobal memory per ant: c-ant and unit best rows ({} B each), 2 costs (i64), RNG (16 B), iterations (u32)", n.div_ceil(16) * 16);
    println!("  per run: τ {} B (n² f32), AcoBest {} B, AcoParams {} B, matrices 2 × n² elements", n * n * 4, size_of::<AcoBest>(), size_of::<AcoParams>());

    match (&report, &k) {
        (Some(report), Some(k)) => {
            println!("\nptxas -v for {arch} (from {}):", ptx.display());
            println!("  {:<22} {:>5} {:>7} {:>13}", "kernel", "regs", "stack", "spill st/ld");
            for x in report.iter().filter(|x| x.name.starts_with("aco_")) {
                println!("  {:<22} {:>5} {:>6}B {:>6}/{:<6}", x.name, x.registers, x.stack, x.spill_stores, x.spill_loads);
            }
            let (blocks, limiter) = layout::blocks_per_sm(&lim, shape.launched(), lay.dynamic_shared + k.shared_static, k.registers);
            println!(
                "\noccupancy of {kernel}: {blocks} blocks per SM ({} threads of {}), limited by {limiter}",
                blocks * shape.launched(),
                lim.max_threads_per_sm
            );
            println!("  spills: {}", if k.spill_stores + k.spill_loads == 0 { "none".to_string() } else { format!("{} B stores, {} B loads", k.spill_stores, k.spill_loads) });
        }
        _ => println!("\n(no ptxas or no target/ptx/qapgpu.ptx: run `cargo xtask build-ptx` with ptxas for registers and occupancy)"),
    }
    Ok(())
}
