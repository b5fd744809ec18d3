//! `--algo auto`, the default: the algorithm and its settings from the instance's
//! measurable features (n and the dominance of its matrices), never from its name. The
//! rule follows the measurements of docs/benchmarks-record.md ("`auto`: a colony for time to target",
//! one H200, and the later sections on an H100), where every choice below ended lowest
//! within 1 s and reached the targets of issue 10 first or, where it says so, nearly as
//! soon:
//!
//! * n ≤ 40 (`policy::TS_ANY_N`): the multi-start tabu search (`ts`), whatever the
//!   structure, with its own defaults there (`ts::walk_threads`, `ts::default_regroup`).
//!   On the CPU only up to n = 36 (`policy::CPU_TS_MAX_N`): from n = 37 to 40 Table 4's
//!   class (i) colony (`policy::CPU_SMALL_COLONY`), which ended lower than the walks, one a
//!   core, on tho40 and tai40a within 1 s on 16 cores; both reach tai40b's and lipa40b's
//!   optimum in every run as soon, lipa40a's the colony 4 times later (0.055 against
//!   0.014 s).
//! * Uniform random data (both dominances below `policy::LOW_DOMINANCE`, the tai*a class) up
//!   to n = `policy::UNIFORM_REGROUP_MAX_N`: `ts` too, whose walks then go with the winners
//!   all run long (`policy::uniform_regroup_every`; `policy::LONG_REGROUP_EVERY` from a
//!   10-s limit, `ts::Effort`), above n = 64 onto an elite kept diverse
//!   (`ts::regroup_distance`). Within 1 s on the H100 they end lower than the colony below
//!   on tai50a, tai60a, tai80a and tai100a (0.109, 0.306, 0.402 and 0.312 % against 0.337,
//!   0.366, 0.512 and 0.439 %, means over seeds 1–8 or 1–16). 1 % above the optimum comes as
//!   soon on tai50a and tai60a, and 16–39 % later on tai80a and tai100a (29 and 33 ms against
//!   25 and 24 ms, still 32× or more ahead of issue 10's Ro-TS column; docs/benchmarks-record.md, "Go
//!   with the winners all along on tai*a" and "A diverse elite"). Not on
//!   the CPU: a handful of walks there cannot go with the winners, and the colony below
//!   ended lower on tai50a within 1 s on two cores (0.38–0.79 % against 1.17–1.37 %, seeds
//!   1–3).
//! * Larger uniform random data (n above `policy::UNIFORM_REGROUP_MAX_N`, none in the shared
//!   QAPLIB set, so not measured with `ts`): `aco-ts` with Table 4's class (i) colony but
//!   searches of 32n moves, and one wave of ants (`--one-wave`, m = every block the GPU holds
//!   at once: 2n ants took as long an iteration at n = 80 and 100 and ended higher within 1 s,
//!   docs/benchmarks-record.md, "Go with the winners, and where the colony stops on tai*a":
//!   "Whole waves for the colony on uniform data"; `policy::UNIFORM_COLONY`). This was the
//!   rule on tai50a to tai100a before the one above (tai100a: 1 % above the optimum in
//!   0.092 s, Table 4's colony 0.139 s).
//! * From n = `policy::NULL_SWAP_MIN_N`, data whose facilities are largely alike (a share
//!   of null swaps of at least `policy::NULL_SWAP_SHARE`: Taillard's grey patterns, tai256c),
//!   on the GPU: `ts`, whose walks skip the null swaps and go with the winners all along onto
//!   a diverse elite (`ts::null_swap_regroup`): tai256c 0.0098 % at 10 s over seeds 1–8
//!   against the colony's 0.136 % over seeds 1–4 (one H100; docs/benchmarks-record.md, "Null
//!   swaps").
//! * Larger, structured data (a dominance of at least `policy::LOW_DOMINANCE`, the tai*b
//!   class), on the GPU and on the CPU: `aco-ts` with class (iv)'s γ, one wave of ants, searches of n moves and a tenure
//!   drawn per tabu entry (`policy::STRUCTURED_COLONY`). tai80b's optimum in 0.27 s (Table
//!   4's colony 0.67 s), tai100b's in 0.34 s (0.96 s), 0.2 % above tai150b's in 1.6 s (8.7 s).
//!
//! Both run the sums layout (`Layout::Sums`; split where it does not apply or fit), which
//! makes the same moves as seed 003's MATA sooner, except structured data above
//! n = `policy::STRUCTURED_SPLIT_N`, which runs MATA unless the sums plan is on the fast path
//! (tai150b: 2-byte tabu entries, the pairs in global memory, one ant an SM; 0.2 % above
//! the optimum in 0.28 s against MATA's 0.65 s, docs/benchmarks-record.md "The sums fast path for
//! tai150b").
//!
//! n = 2 goes to `ga-independent` (the local searches need n ≥ 3). Settings the user gave
//! are kept (`tune` fills only unset ones). Every threshold and setting named here is a row
//! of the policy table (`algo::policy`), with the measurement behind it.
use super::aco::{self, LayoutRule};
use super::policy::{
    CPU_SMALL_COLONY, CPU_TS_MAX_N, Colony, LOW_DOMINANCE, STRUCTURED_COLONY, STRUCTURED_SPLIT_N, TS_ANY_N,
    UNIFORM_COLONY, UNIFORM_REGROUP_MAX_N, is_uniform, max_dominance, null_swap_rich,
};
use super::{Backend, Family, Options};
use crate::io::Instance;
use crate::run::Solver;
use anyhow::Result;
use qapgpu_common::ls::LsKind;

/// The family for `inst` on the GPU (`gpu`) or the CPU, and why, in words.
pub fn choose(inst: &Instance, gpu: bool) -> (&'static str, String) {
    let n = inst.n;
    if n < 3 {
        return ("ga-independent", format!("n = {n}: no local search below 3"));
    }
    if n > qapgpu_common::MAX_N {
        return ("ts", format!("n = {n} > {}: the wide path", qapgpu_common::MAX_N));
    }
    if n <= TS_ANY_N {
        let most = if gpu { TS_ANY_N } else { CPU_TS_MAX_N };
        if n <= most {
            return ("ts", format!("n = {n} ≤ {most}"));
        }
        return ("aco-ts", format!("n = {n}: {CPU_TS_MAX_N} < n ≤ {TS_ANY_N}, on the CPU"));
    }
    if gpu && null_swap_rich(inst) {
        let share = 100.0 * inst.null_swap_share();
        return ("ts", format!("n = {n}, {share:.0} % of the swaps null (facilities alike)"));
    }
    let d = max_dominance(inst);
    let data = if d < LOW_DOMINANCE { "uniform" } else { "structured" };
    if d < LOW_DOMINANCE && n <= UNIFORM_REGROUP_MAX_N {
        if gpu {
            return ("ts", format!("n = {n}, max dominance {d:.0} %: uniform data, n ≤ {UNIFORM_REGROUP_MAX_N}"));
        }
        return ("aco-ts", format!("n = {n}, max dominance {d:.0} %: uniform data, on the CPU"));
    }
    ("aco-ts", format!("n = {n}, max dominance {d:.0} %: {data} data"))
}

/// The colony `auto` runs on `inst` where it chooses `aco-ts` (up to n = `TS_ANY_N` it does
/// so on the CPU alone).
fn colony(inst: &Instance) -> Colony {
    if inst.n <= TS_ANY_N {
        CPU_SMALL_COLONY
    } else if is_uniform(inst) {
        UNIFORM_COLONY
    } else {
        STRUCTURED_COLONY
    }
}

/// `opts` with `auto`'s settings for its choice filled in where the user left them unset
/// (module docs).
pub fn tune(inst: &Instance, opts: &Options, gpu: bool) -> Options {
    let mut tuned = opts.clone();
    if choose(inst, gpu).0 != aco::TABU.name {
        return tuned;
    }
    let c = colony(inst);
    let x = &mut tuned.aco;
    // The sums layout runs the same searches soonest, then split; both fit more ants per SM
    // than MATA: a one-wave colony of structured data grows with them, which cost tai150b
    // time. So MATA there, unless sums runs its fast path (`layout_rule`).
    x.layout.get_or_insert(c.layout);
    x.class.get_or_insert(c.class);
    x.ls_iterations.get_or_insert(c.ls_factor * inst.n as u32);
    if let Some(ants) = c.ants {
        x.ants.get_or_insert(ants);
    }
    x.one_wave.get_or_insert(c.one_wave);
    if let Some(per_move) = c.tenure_per_move {
        x.tenure_per_move.get_or_insert(per_move);
    }
    tuned
}

/// What the colony's engine may do with the layout `tune` gives it on a GPU: where the user
/// chose none, settle on the fastest that runs (`aco::gpu::settle_layout`), but on
/// structured data above n = `STRUCTURED_SPLIT_N` keep sums only where it runs its fast
/// path, else MATA (one ant an SM, as MATA: tai150b to 0.2 % in 0.28 s against 0.65 s).
/// Kept otherwise, and wherever `auto` does not choose the colony.
pub fn layout_rule(inst: &Instance, opts: &Options, gpu: bool) -> LayoutRule {
    if choose(inst, gpu).0 != aco::TABU.name || opts.aco.layout.is_some() {
        LayoutRule::Kept
    } else if is_uniform(inst) || inst.n <= STRUCTURED_SPLIT_N {
        LayoutRule::Settle { chosen: false }
    } else {
        LayoutRule::SumsIfFast
    }
}

/// `auto`'s driver: the solver of `fam` (`choose`'s family, resolved by the registry) with
/// `auto`'s settings (`tune`) and, for the colony, its layout rule (`layout_rule`).
pub fn build(fam: &Family, backend: &Backend, inst: &Instance, opts: &Options) -> Result<Box<dyn Solver>> {
    let gpu = backend.is_gpu();
    let tuned = tune(inst, opts, gpu);
    if fam.name == aco::TABU.name {
        return aco::build_colony(backend, inst, &tuned, LsKind::Tabu, layout_rule(inst, opts, gpu));
    }
    (fam.build)(backend, inst, &tuned)
}
