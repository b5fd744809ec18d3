//! `--algo auto`, the default: the algorithm and its settings from the instance's
//! measurable features (n and the dominance of its matrices), never from its name. The
//! rule follows the measurements of docs/benchmarks-record.md ("`auto`: a colony for time to target",
//! one H200, and the later sections on an H100), where every choice below ended lowest
//! within 1 s and reached the targets of issue 10 first or, where it says so, nearly as
//! soon:
//!
//! * n ≤ 40: the multi-start tabu search (`ts`), whatever the structure, with its own
//!   defaults there (`ts::walk_threads`, `ts::default_regroup`).
//! * Uniform random data (both dominances below `LOW_DOMINANCE`, the tai*a class) up to
//!   n = `ts::UNIFORM_REGROUP_MAX_N`: `ts` too, whose walks then go with the winners all run
//!   long (`ts::uniform_regroup_every`), above n = 64 onto an elite kept diverse
//!   (`ts::regroup_distance`). Within 1 s on the H100 they end lower than the colony below
//!   on tai50a, tai60a, tai80a and tai100a (0.109, 0.306, 0.402 and 0.312 % against 0.337,
//!   0.366, 0.512 and 0.439 %, means over seeds 1–8 or 1–16). 1 % above the optimum comes as
//!   soon on tai50a and tai60a, and 16–39 % later on tai80a and tai100a (29 and 33 ms against
//!   25 and 24 ms, still 32× or more ahead of issue 10's Ro-TS column; docs/benchmarks-record.md, "Go
//!   with the winners all along on tai*a" and "A diverse elite"). Not on
//!   the CPU: a handful of walks there cannot go with the winners, and the colony below
//!   ended lower on tai50a within 1 s on two cores (0.38–0.79 % against 1.17–1.37 %, seeds
//!   1–3).
//! * Larger uniform random data (n above `ts::UNIFORM_REGROUP_MAX_N`, none in the shared
//!   QAPLIB set, so not measured with `ts`): `aco-ts` with Table 4's class (i) colony but
//!   searches of `UNIFORM_LS_FACTOR`·n moves, and one wave of ants (`--one-wave`, m = every
//!   block the GPU holds at once: 2n ants took as long an iteration at n = 80 and 100 and
//!   ended higher within 1 s, docs/benchmarks-record.md, "Whole waves"). This was the rule on tai50a to
//!   tai100a before the one above (tai100a: 1 % above the optimum in 0.092 s, Table 4's
//!   colony 0.139 s).
//! * Larger, structured data (a dominance of at least `LOW_DOMINANCE`, the tai*b class):
//!   `aco-ts` with class (iv)'s γ, one wave of ants, searches of `STRUCTURED_LS_FACTOR`·n
//!   moves and a tenure drawn per tabu entry. tai80b's optimum in 0.27 s (Table 4's colony
//!   0.67 s), tai100b's in 0.34 s (0.96 s), 0.2 % above tai150b's in 1.6 s (8.7 s).
//!
//! Both run the sums layout (`Layout::Sums`; split where it does not apply or fit), which
//! makes the same moves as seed 003's MATA sooner, except structured data above
//! n = `STRUCTURED_SPLIT_N`, which runs MATA unless the sums plan is on the fast path
//! (tai150b: 2-byte tabu entries, the pairs in global memory, one ant an SM; 0.2 % above
//! the optimum in 0.28 s against MATA's 0.65 s, docs/benchmarks-record.md "The sums fast path for
//! tai150b").
//!
//! n = 2 goes to `ga-independent` (the local searches need n ≥ 3). Settings the user gave
//! are kept (`tune` fills only unset ones).
use super::Options;
use super::aco::{Class, Layout};
use crate::io::Instance;

/// Largest n for which `ts` is chosen.
pub const TS_ANY_N: usize = 40;
/// Dominance (100·σ/μ of a matrix's entries, in %) below which data looks uniform random:
/// tai*a have 59–63 % in both matrices, the structured tai*b over 300 % in one.
pub const LOW_DOMINANCE: f64 = 100.0;
/// IT_TS on uniform data, in n: twice Table 4's 16n (longer searches found 1 % above the
/// optimum sooner on tai50a–tai100a; 2n–8n later).
pub const UNIFORM_LS_FACTOR: u32 = 32;
/// Largest n of structured data that runs the split family's layouts (sums, or split): with
/// split, tai80b and tai100b reached their optimum 20–26 % sooner than with MATA, the same
/// 264-ant colony; on tai150b the larger one-wave colony took 2.5 times as long as MATA's
/// 132 ants to 0.2 % (split) and 3.9 times (sums: 1.98 s against 0.51 s).
pub const STRUCTURED_SPLIT_N: usize = 128;
/// IT_TS on structured data, in n: short searches, so that pheromone and donors recombine
/// the ants' bests four times as often as with Table 4's 4n (n beat 2n and 4n on tai80b,
/// tai100b and tai150b).
pub const STRUCTURED_LS_FACTOR: u32 = 1;

/// 100 · standard deviation / |mean| of the entries; infinite for a zero mean (a matrix of
/// zeros or one balanced around 0, as posed problems have, is not uniform random data).
pub fn dominance(m: &[i64]) -> f64 {
    let n = m.len() as f64;
    let mean = m.iter().map(|&x| x as f64).sum::<f64>() / n;
    if mean == 0.0 {
        return f64::INFINITY;
    }
    let var = m.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / n;
    100.0 * var.sqrt() / mean.abs()
}

/// The larger dominance of the two matrices.
pub fn max_dominance(inst: &Instance) -> f64 {
    dominance(&inst.a).max(dominance(&inst.b))
}

/// The family for `inst` on the GPU (`gpu`) or the CPU, and why, in words.
pub fn choose(inst: &Instance, gpu: bool) -> (&'static str, String) {
    let n = inst.n;
    if n < 3 {
        return ("ga-independent", format!("n = {n}: no local search below 3"));
    }
    if n <= TS_ANY_N {
        return ("ts", format!("n = {n} ≤ {TS_ANY_N}"));
    }
    let d = max_dominance(inst);
    let data = if d < LOW_DOMINANCE { "uniform" } else { "structured" };
    if d < LOW_DOMINANCE && n <= super::ts::UNIFORM_REGROUP_MAX_N {
        if gpu {
            return (
                "ts",
                format!("n = {n}, max dominance {d:.0} %: uniform data, n ≤ {}", super::ts::UNIFORM_REGROUP_MAX_N),
            );
        }
        return ("aco-ts", format!("n = {n}, max dominance {d:.0} %: uniform data, on the CPU"));
    }
    ("aco-ts", format!("n = {n}, max dominance {d:.0} %: {data} data"))
}

/// Whether `inst` looks like uniform random data: both dominances below `LOW_DOMINANCE`.
pub fn is_uniform(inst: &Instance) -> bool {
    max_dominance(inst) < LOW_DOMINANCE
}

/// `opts` with `auto`'s settings for its choice filled in where the user left them unset
/// (module docs).
pub fn tune(inst: &Instance, opts: &Options, gpu: bool) -> Options {
    let mut tuned = opts.clone();
    if choose(inst, gpu).0 != "aco-ts" {
        return tuned;
    }
    let n = inst.n as u32;
    let x = &mut tuned.aco;
    // The sums layout runs the same searches soonest (docs/benchmarks-record.md, "The sums layout"),
    // then split; both fit more ants per SM than MATA: a one-wave colony of structured data
    // grows with them, which cost tai150b time (264 split ants against MATA's 132). So MATA
    // there, unless sums runs its fast path (one ant an SM, as MATA: tai150b to 0.2 % in
    // 0.28 s against 0.65 s). Where sums does not apply or fit, the engine settles on split.
    let uniform = is_uniform(inst);
    if x.layout.is_none() {
        x.layout = Some(Layout::Sums);
        if uniform || inst.n <= STRUCTURED_SPLIT_N {
            x.settle_layout = true;
        } else {
            x.sums_if_fast = true;
        }
    }
    if uniform {
        x.class.get_or_insert(Class::Random);
        x.ls_iterations.get_or_insert(UNIFORM_LS_FACTOR * n);
        // One wave: every ant the GPU runs at once. A cAS iteration lasts as long as its
        // slowest SM, so ants that leave some SMs a block short of the others cost the
        // wave's time anyway (tai80a's 2n = 160 ants on 132 SMs took as long as 264).
        x.ants.get_or_insert(super::aco::MAX_ANTS);
        x.one_wave.get_or_insert(true);
    } else {
        x.class.get_or_insert(Class::RealLifeLike);
        x.one_wave.get_or_insert(true);
        x.ls_iterations.get_or_insert(STRUCTURED_LS_FACTOR * n);
        x.tenure_per_move.get_or_insert(false);
    }
    tuned
}
