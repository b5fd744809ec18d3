//! `cargo xtask audit --kernel ls`: where every byte of the local-search kernel goes (seed
//! 003's MATA and plain mappings, or our split and sums ones) for one n and one GPU, and how its
//! threads map to moves.
use crate::ptx::{find_ptxas, ptxas_report};
use crate::{flag, root};
use qapgpu_common::delta::DeltaWidth;
use qapgpu_common::elem::ElemWidth;
use qapgpu_common::layout::{self, LS_SCRATCH_PER_WARP, Placement};
use qapgpu_common::ls::{Tenure, TenureLaw};
use qapgpu_common::mata::{Mapping, Shape, default_ns};
use qapgpu_common::narrow_tabu;
use qapgpu_common::params::{AcoBest, AcoParams};
use qapgpu_common::search::kernels::{KernelId, Role, budget};
use qapgpu_common::search::plan::{Request, Resources, plan_mapping};

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
        "split" => Mapping::Split,
        "sums" => Mapping::Sums,
        x => return Err(format!("--layout {x}: expected mata, plain, split or sums")),
    };
    let ns: u32 = match flag(args, "--ns") {
        Some(x) => x.parse().map_err(|_| "--ns takes an integer")?,
        None => default_ns(n),
    };
    // The host takes i32 move costs where the instance allows (`delta::move_cost_bound`).
    let delta = match flag(args, "--delta").unwrap_or("i32") {
        "i32" => DeltaWidth::I32,
        "i64" => DeltaWidth::I64,
        x => return Err(format!("--delta {x}: expected i32 or i64")),
    };
    let role = match flag(args, "--role").unwrap_or("walk") {
        "walk" => Role::Walk,
        "search" => Role::Search,
        x => return Err(format!("--role {x}: expected walk (ts) or search (a c-ant's)")),
    };
    // The host's rule for 2-byte tabu entries (`aco::gpu::narrow_tabu_fits`) with the
    // defaults: a walk's aspiration 5n² and launches of at most `narrow_tabu::LAUNCH_MAX`
    // moves; a c-ant's n moves and no aspiration; the mixed tenure portfolio with T = 8n.
    let tenure = Tenure { list_size: 8 * n, per_move: false, law: TenureLaw::Mixed };
    let narrow = match role {
        Role::Walk | Role::Either => narrow_tabu::fits(5 * n * n, narrow_tabu::LAUNCH_MAX, tenure.longest()),
        Role::Search => narrow_tabu::fits(0, n, tenure.longest()),
    };
    let split_threads = match flag(args, "--split-threads") {
        Some(t) => Some(t.parse().map_err(|_| "--split-threads takes an integer")?),
        None => None,
    };
    let req = Request {
        n,
        elem,
        delta,
        role,
        tabu_search: tabu,
        mapping,
        settle: false,
        chosen: true,
        sums_only_if_fast: false,
        symmetric_side: true,
        ns,
        split_threads,
        narrow_tabu: narrow,
    };
    // Registers decide the largest block, hence whether N_S must grow, and the blocks an SM
    // (as the host does): ptxas's count where it ran, else the kernel's cap.
    let ptx = root().join("target/ptx/qapgpu.ptx");
    let report = match find_ptxas() {
        Some(ptxas) if ptx.is_file() => Some(ptxas_report(&ptxas, &ptx, arch)?),
        _ => None,
    };
    let mut resources = |id: KernelId| -> Result<Resources, String> {
        let k = id.kernel();
        let registers = report
            .as_ref()
            .and_then(|r| r.iter().find(|x| x.name == k.name))
            .map_or(budget(k.body, k.role).registers, |x| x.registers);
        Ok(Resources { registers, max_threads: layout::max_threads_for_registers(&lim, registers) })
    };
    let plan = plan_mapping(&req, mapping, &lim, &mut resources)?.map_err(|e| e.to_string())?;
    let (lay, shape, max_threads) = (plan.layout, plan.layout.shape, resources(plan.kernel)?.max_threads);
    let kernel = plan.kernel.kernel().name;
    let k = report.as_ref().and_then(|r| r.iter().find(|x| x.name == kernel).cloned());
    let c = shape.moves;

    println!(
        "local-search kernel — n = {n}, {}, {} mapping, elements {width}, {arch}",
        if tabu { "robust tabu search" } else { "2-opt" },
        match mapping {
            Mapping::Mata => "MATA",
            Mapping::Plain => "plain (non-MATA)",
            Mapping::Split => "split",
            Mapping::Sums => "sums",
        }
    );
    println!(
        "kernel: {kernel} ({} body; blocks an SM by the model: {}; the planner's choice, common/src/search/plan)",
        plan.kernel.kernel().body.name(),
        plan.blocks_per_sm
    );
    if mapping == Mapping::Sums {
        println!(
            "one block = one ant; C = n(n−1)/2 = {c} moves, every one O(1) from the table H after a launch's first iteration"
        );
    } else {
        println!(
            "one block = one ant; C = n(n−1)/2 = {c} moves, {} of them O(1) and {} O(n) after each move",
            (n - 2) * (n - 3) / 2,
            2 * n - 3
        );
    }
    if mapping == Mapping::Split {
        let long = 2 * n - 3;
        println!(
            "threads: T = {} per block; thread t prices the O(1) moves k ≡ t (mod T) from Eq. 5's per-facility terms ({} rounds)",
            shape.total,
            c.div_ceil(shape.total)
        );
        println!(
            "         O(n) moves in groups of {} lanes of one warp (terms k ≡ g mod {}, shuffle-summed): {} rounds of ⌈n/{}⌉ = {} terms after a move, {} in a launch's first iteration",
            shape.lanes,
            shape.lanes,
            (long * shape.lanes).div_ceil(shape.total),
            shape.lanes,
            n.div_ceil(shape.lanes),
            (c * shape.lanes).div_ceil(shape.total)
        );
        println!("         lookup table: all {c} pairs × u16, copied into shared memory at the start of each launch");
    } else if mapping == Mapping::Sums {
        let groups = shape.total / n;
        println!(
            "threads: T = {} per block; thread t prices the moves k ≡ t (mod T) from 4 entries of H and the move's offset ({} rounds)",
            shape.total,
            c.div_ceil(shape.total)
        );
        println!(
            "         table H: thread t owns location t mod n in row group t div n ({groups} groups, {} threads idle): {} entries each, O(n) at a launch's start, one multiply-add after a move",
            shape.total - groups * n,
            n.div_ceil(groups)
        );
        println!("         lookup table: all {c} pairs × u16, copied into shared memory at the start of each launch");
    } else {
        print_seed003_threads(&shape, ns, n, kernel, max_threads, plan.registers);
    }

    println!(
        "\ndynamic shared memory per block: {} B of {} B available to one block (opt-in limit)",
        lay.dynamic_shared, lim.shared_per_block_optin
    );
    // Rows padded to n + 1 (`layout::padded_row`): what the bytes beyond n² are.
    let padding = |row: u32| {
        if row == n { String::new() } else { format!(" in rows of {row} (one column's entries in 32 banks)") }
    };
    let row = |name: &str, r: layout::Region, what: String| {
        println!("  [{:>6}, {:>6})  {:>6} B  {name:<10} {what}", r.offset, r.end(), r.bytes);
    };
    row("φ", lay.perm, format!("current permutation, {n} × u8 (location of each facility)"));
    if tabu {
        row("best φ", lay.best, "best permutation of this search".into());
    }
    row(
        "argmin",
        lay.scratch,
        format!(
            "{} warps × {LS_SCRATCH_PER_WARP} B: each warp's best (Δ i64, tag u32; split: φ of its facilities)",
            shape.launched() / 32
        ),
    );
    if mapping == Mapping::Split {
        row("pairs", lay.pairs, format!("{c} × u16: move k's (u, v)"));
        row(
            "terms",
            lay.terms,
            format!("{n} × 4 × {}: Eq. 5's factors per facility after the last move", delta.name()),
        );
    }
    if mapping == Mapping::Sums {
        if lay.pairs_shared {
            row("pairs", lay.pairs, format!("{c} × u16: move k's (u, v)"));
        } else {
            println!(
                "  pairs ({} B) do not fit beside the rest: read from global memory (first_pairs) by the fast path's kernels",
                2 * c
            );
        }
        row(
            "H",
            lay.sums,
            format!("{n}×{n} {}{}: H(i, l) = Σ_k α_ki β_(φk l), facility-major", delta.name(), padding(lay.row)),
        );
    }
    let elsewhere = |what: &str, bytes: u32| {
        println!("  {what} ({bytes} B per ant) does not fit: in global memory, {bytes} B × m ants")
    };
    if !lay.runnable() {
        println!(
            "  (the split family keeps its tables in shared memory: it cannot run this plan, and the host takes MATA)"
        );
    }
    match lay.delta_placement {
        _ if mapping == Mapping::Sums => {}
        Placement::Shared => row(
            "Δ table",
            lay.delta,
            format!(
                "{c} × {} move costs, numbered as seed 003's Fig. 4; read and written by every move each iteration",
                delta.name()
            ),
        ),
        _ => elsewhere("Δ table", lay.delta.bytes),
    }
    match lay.ab_placement {
        Placement::Shared => {
            row("A", lay.a, format!("{n}×{n} {width}, copied in at the start of each launch"));
            let what = if mapping == Mapping::Sums {
                "; on the fast path B + Bᵀ where A is symmetric, the diagonals zero and the sums fit (LS_SUMS_BETA)"
            } else {
                ""
            };
            row("B", lay.b, format!("{n}×{n} {width}: an O(1) update reads 8 entries of each{what}"));
        }
        _ => println!(
            "  A, B           read through the read-only global path (ld.global.nc, L1-cached): the paper's texture fetches"
        ),
    }
    if tabu {
        match lay.tabu_placement {
            Placement::Shared if lay.tabu_entry == 2 => row(
                "tabu",
                lay.tabu,
                format!(
                    "{n}×{n} u16{}: iteration until which facility i may not return to location ℓ, held above the launch's base (narrow_tabu)",
                    padding(lay.row)
                ),
            ),
            Placement::Shared => row(
                "tabu",
                lay.tabu,
                format!(
                    "{n}×{n} i32{}: iteration until which facility i may not return to location ℓ",
                    padding(lay.row)
                ),
            ),
            _ => elsewhere("tabu matrix", lay.tabu.bytes),
        }
    }

    println!(
        "\nglobal memory per ant: c-ant and unit best rows ({} B each), 2 costs (i64), RNG (16 B), iterations (u32)",
        n.div_ceil(16) * 16
    );
    println!(
        "  per run: τ {} B (n² f32), AcoBest {} B, AcoParams {} B, matrices 2 × n² elements",
        n * n * 4,
        size_of::<AcoBest>(),
        size_of::<AcoParams>()
    );

    match (&report, &k) {
        (Some(report), Some(k)) => {
            println!("\nptxas -v for {arch} (from {}):", ptx.display());
            println!("  {:<22} {:>5} {:>7} {:>13}", "kernel", "regs", "stack", "spill st/ld");
            for x in report.iter().filter(|x| KernelId::named(&x.name).is_some()) {
                println!(
                    "  {:<22} {:>5} {:>6}B {:>6}/{:<6}",
                    x.name, x.registers, x.stack, x.spill_stores, x.spill_loads
                );
            }
            let (blocks, limiter) =
                layout::blocks_per_sm(&lim, shape.launched(), lay.dynamic_shared + k.shared_static, k.registers);
            println!(
                "\noccupancy of {kernel}: {blocks} blocks per SM ({} threads of {}), limited by {limiter}",
                blocks * shape.launched(),
                lim.max_threads_per_sm
            );
            println!("  spills: {}", k.spills());
        }
        _ => println!(
            "\n(no ptxas or no target/ptx/qapgpu.ptx: run `cargo xtask build-ptx` with ptxas for registers and occupancy)"
        ),
    }
    Ok(())
}

/// The thread lines of seed 003's mappings (MATA and plain).
fn print_seed003_threads(shape: &Shape, ns: u32, n: u32, kernel: &str, max_threads: u32, registers: u32) {
    if shape.ns != ns {
        println!(
            "N_S raised from {ns} to {}: {kernel} has {registers} registers per thread, so a block holds at most {max_threads} threads",
            shape.ns
        );
    }
    println!(
        "threads: N_S = {} moves per thread, T_S = ⌈C/N_S⌉ = {} threads own the moves (warps 0..{})",
        shape.ns,
        shape.owners,
        shape.owners.div_ceil(32)
    );
    if shape.mapping == Mapping::Mata {
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
        println!(
            "         the moves touching the previous move are computed inline by their owners (O(n) in an O(1) warp); launched as {} threads",
            shape.launched()
        );
    }
    println!(
        "         lookup table first_pairs: {} × u16 (u·256 + v of move t·N_S) in global memory, read once per launch",
        shape.owners
    );
}
