//! The policy table: every tuned default and threshold of `auto`'s rule, of `auto`'s
//! colonies, of `ts` and of `memetic`, each row with the measurement that set it. `auto`
//! reads its rule from here, `ts` and `memetic` their defaults, and the command line its help
//! text, so that no other place restates a number.
//!
//! The citations name sections of [the record of trials](../../../docs/benchmarks-record.md)
//! ("the record") by their titles; [BENCHMARKS.md](../../../BENCHMARKS.md) has the tables
//! that sum them up. The values that reproduce a seed paper stay with their family and say
//! so: seed 003's Table 4 in `aco::AcoConfig::paper`, the GAs' in `ga::GaOptions::default`,
//! the cellular GA's in `cga::CgaOptions::default`.
//!
//! The table reads the families' types (`aco::Class`, `aco::Layout`) and no family's
//! code; every family that needs a row reads it from here.
use super::aco::{Class, Layout, MAX_ANTS};
use crate::io::Instance;
use qapgpu_common::ls::{TabuStart, TenureLaw};

// ---------------------------------------------------------------------------------------
// The data's class: uniform random or structured.
// ---------------------------------------------------------------------------------------

/// Dominance (100·σ/μ of a matrix's entries, in %) below which data looks uniform random:
/// tai*a have 59–63 % in both matrices, the structured tai*b over 300 % in one (the record,
/// "`auto`: a colony for time to target").
pub const LOW_DOMINANCE: f64 = 100.0;

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

/// Whether `inst` looks like uniform random data: both dominances below `LOW_DOMINANCE`.
pub fn is_uniform(inst: &Instance) -> bool {
    max_dominance(inst) < LOW_DOMINANCE
}

// ---------------------------------------------------------------------------------------
// `auto`'s rule (`auto::choose`).
// ---------------------------------------------------------------------------------------

/// Largest n for which `auto` runs `ts` on the GPU, whatever the data (on the CPU up to
/// `CPU_TS_MAX_N`): the walks reached every target of issue 10 up to n = 40 first (the record, "`auto`: a colony for time to target", and
/// "Two hundred runs a target").
pub const TS_ANY_N: usize = 40;

/// Largest n for which `auto` runs `ts` on the CPU; from here up to `TS_ANY_N` it runs
/// `CPU_SMALL_COLONY`. On 16 idle cores of an H100 host's Xeon, 1 s, seeds 1–8 (the record,
/// "The CPU at n = 40: the colony"), mean gap %, `ts` (the walks, one a core) against the
/// colony: tho40 0.0202 against **0.0027** (6 of 8 at the best known; 16 Ro-TS runs on the
/// same cores: 0.0209 and 0.0195 in two rounds), tai40a 0.437 against **0.392** (Ro-TS
/// 0.495); seconds to the optimum, every run there: lipa40b 0.0024 against 0.0039, lipa40a
/// **0.014** against 0.055. tai40b's optimum came in every run with either; class (i) took
/// as long as the walks on the development machine's two cores (1.21 against 1.17 s, seeds
/// 1–6; `--algo aco-ts`'s class (iv) for taiNNb names, measured on the 16 cores, 0.09
/// against 0.35 s, is not what `auto` runs). Below, the walks came sooner (ste36b **0.032**
/// against 0.108 s with Table 4's class (i)); no instance of n = 37–39 is in QAPLIB. On the
/// GPU the walks run up to `TS_ANY_N`.
pub const CPU_TS_MAX_N: usize = 36;

/// Share of null swaps (`Instance::null_swap_share`: two facilities alike, as in Taillard's
/// grey patterns) from which `auto` runs `ts` on the GPU above n = `NULL_SWAP_MIN_N`, its
/// walks skipping them and going with the winners all along onto a diverse elite
/// (`ts::null_swap_regroup`). tai256c (0.538 of its swaps) at 10 s, seeds 1–8, on an H100:
/// these walks **0.0098 %** (6 of 8 at the best known), the walks without regrouping
/// 0.064 %; seeds 1–4: the colony `auto` ran before 0.136 % (0.072 % with its searches
/// skipping the null swaps too); the record, "Null swaps".
pub const NULL_SWAP_SHARE: f64 = 0.25;

/// Smallest n for `NULL_SWAP_SHARE`'s rule: the walks are off the fast path, which does not
/// skip null swaps, from n = 151 on every GPU measured (tai150b's c-ants are its largest).
/// QAPLIB's smaller instances with many null swaps reach their optimum within 1 ms on the
/// GPU as `auto` runs them (esc32e, esc32g, esc64a, esc128, tai64c; the record, "Null swaps").
pub const NULL_SWAP_MIN_N: usize = 151;

/// Whether `auto` and `ts`'s defaults treat `inst` as made of interchangeable facilities
/// (`NULL_SWAP_SHARE`, `NULL_SWAP_MIN_N`).
pub fn null_swap_rich(inst: &Instance) -> bool {
    inst.n >= NULL_SWAP_MIN_N && inst.null_swap_share() >= NULL_SWAP_SHARE
}

/// Largest n of uniform random data for which `auto` runs `ts` on the GPU, and where its
/// walks regroup all along by default (`DEFAULT_REGROUP_MAX_N` + 1 up to this n): the largest
/// measured (tai100a; the record, "Go with the winners all along on tai*a" and "A diverse
/// elite").
pub const UNIFORM_REGROUP_MAX_N: usize = 100;

// ---------------------------------------------------------------------------------------
// `auto`'s colonies for `aco-ts` (`auto::tune`), tuned for time to target, not seed 003's
// Table 4.
// ---------------------------------------------------------------------------------------

/// One of `auto`'s colonies: the settings `auto::tune` fills where the user left them unset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Colony {
    /// The Table 4 class the rest of the settings (ρ, γ, m) come from.
    pub class: Class,
    /// IT_TS, in n.
    pub ls_factor: u32,
    /// m, before `one_wave` cuts it (None: Table 4's).
    pub ants: Option<u32>,
    /// m cut to the ants the device runs at once (`--one-wave`).
    pub one_wave: bool,
    /// One tenure draw per move (None: Table 4's, one per move).
    pub tenure_per_move: Option<bool>,
    /// The layout, settled on the GPU where it does not run or fit (`aco::LayoutRule`).
    pub layout: Layout,
}

/// The colony for uniform random data (tai*a) above the n where `auto` runs `ts`:
/// class (i) with searches of 32n moves, twice Table 4's 16n (longer searches found 1 %
/// above the optimum sooner on tai50a–tai100a; 2n–8n later; tai100a: 1 % above the optimum
/// in 0.092 s, Table 4's colony 0.139 s), and one wave of ants: every block the GPU holds at
/// once (2n ants took as long an iteration at n = 80 and 100 and ended higher within 1 s; a
/// cAS iteration lasts as long as its slowest SM, so tai80a's 160 ants on 132 SMs took as
/// long as 264). The record, "`auto`: a colony for time to target", and "Go with the winners,
/// and where the colony stops on tai*a" ("Whole waves for the colony on uniform data").
pub const UNIFORM_COLONY: Colony = Colony {
    class: Class::Random,
    ls_factor: 32,
    ants: Some(MAX_ANTS),
    one_wave: true,
    tenure_per_move: None,
    layout: Layout::Sums,
};

/// The colony for structured data (tai*b) above n = `TS_ANY_N`: class (iv)'s γ, one wave of
/// ants, searches of n moves, so that pheromone and donors recombine the ants' bests four
/// times as often as with Table 4's 4n (n beat 2n and 4n on tai80b, tai100b and tai150b), and
/// a tenure drawn per tabu entry (Taillard's, shorter; it won on tai150b). tai80b's optimum in
/// 0.27 s (Table 4's colony 0.67 s), tai100b's in 0.34 s (0.96 s), 0.2 % above tai150b's in
/// 1.6 s (8.7 s). The record, "`auto`: a colony for time to target".
pub const STRUCTURED_COLONY: Colony = Colony {
    class: Class::RealLifeLike,
    ls_factor: 1,
    ants: None,
    one_wave: true,
    tenure_per_move: Some(false),
    layout: Layout::Sums,
};

/// The colony `auto` runs on the CPU for n above `CPU_TS_MAX_N` up to `TS_ANY_N`, whatever
/// the data and the name: Table 4's class (i) colony (m = n ants, searches of 16n moves, a
/// tenure drawn per move), as `--algo aco-ts` runs it by default on every name but taiNNb
/// (`CPU_TS_MAX_N`'s measurements).
pub const CPU_SMALL_COLONY: Colony = Colony {
    class: Class::Random,
    ls_factor: 16,
    ants: None,
    one_wave: false,
    tenure_per_move: None,
    layout: Layout::Sums,
};

/// Largest n of structured data whose colony runs the split family's layouts (sums, or
/// split) wherever they fit: with split, tai80b and tai100b reached their optimum 20–26 %
/// sooner than with MATA, the same 264-ant colony; on tai150b the larger one-wave colony took
/// 2.5 times as long as MATA's 132 ants to 0.2 % (split) and 3.9 times (sums: 1.98 s against
/// 0.51 s). Above it the colony runs MATA unless the sums plan is on the fast path (one ant an
/// SM, as MATA: tai150b to 0.2 % in 0.28 s against 0.65 s). The record, "The split layout: a
/// faster iteration", "The sums layout: every move in O(1)" and "The sums fast path for
/// tai150b".
pub const STRUCTURED_SPLIT_N: usize = 128;

// ---------------------------------------------------------------------------------------
// `ts`: the walks (`ts::walk_engine`, `ts::walk_threads`).
// ---------------------------------------------------------------------------------------

/// Moves of every walk per launch (`--ls-iterations`): long enough that a launch's fresh Δ
/// scan and its host round trip are small, short enough for a progress line; the target and
/// the stop word end a launch early anyway (the record, "The fast path (issue 10): a
/// multi-start tabu search on the GPU, `auto`, start-up").
pub const LAUNCH_ITERATIONS: u32 = 2048;

/// Ro-TS (Taillard's 2006 code, not tuned here): the tabu duration is r³ times this many n
/// (r uniform in [0, 1)), and `TENURE_PER_MOVE` says how it is drawn (the record, "The fast
/// path (issue 10)").
pub const TENURE_FACTOR: u32 = 8;

/// Ro-TS (Taillard's 2006 code, not tuned here): an assignment unused for this many n²
/// iterations is aspired. Shorter aspirations (16n to 64n moves) did worse but on tai100a
/// (the record, "Launch costs, and five more ways at tai80a").
pub const ASPIRATION_FACTOR: u32 = 5;

/// What a CPU walk's fresh tabu matrix holds: the staggered start of the Ro-TS code we
/// measure against, so that under the long-term aspiration the unused assignments come due
/// one by one, not all at iteration 5n² at once. A few CPU walks each run far past 5n²
/// moves, and there it paid: `ts` on two cores for 1 s (seeds 201–212), tai60b 3.263 %
/// against 0.821 % (Welch t = 3.45) and tai50b 0.650 % against 0.337 %, n ≤ 40 within the
/// spread; single walks reached tai25b's optimum in a median 7,390 moves against 13,668
/// (`hit_quantiles`). The GPU's walks start flat: there the staggered start changed nothing
/// from tai60a up nor on the structured targets, and of tai40a and tai50a made the first a
/// little lower and the second higher (the record, "Taillard's staggered tabu start on the
/// GPU").
pub const CPU_TABU_START: TabuStart = TabuStart::Staggered;

/// The CPU walks' tenures: T·r³ with T = 8n, one draw a move for both entries, as the Ro-TS
/// code we measure against draws them (didoudiaz/QAP-codes `rots-qap.c`), where the GPU's
/// walks take `TENURE_LAW` and `TENURE_PER_MOVE`. On two cores for 1 s (seeds 201–212,
/// staggered start) it ended lower than the GPU's mixed law on all seven instances up to
/// n = 60 measured, none by more than the spread of 12 seeds: tai35b 0.009 % against
/// 0.057 %, tai40b 0.004 against 0.012 %, tho40 0.038 against 0.045 %, tai40a 0.679 against
/// 0.733 %, tai50b 0.241 against 0.337 %, tai60b 0.694 against 0.821 %; on tai50a to tai80a
/// within 6 % of it, where `auto` runs a colony on the CPU (the record, "The CPU's walks as
/// the Ro-TS code runs them"). Above n = 256 the wide path's walks keep the GPU's law on
/// both engines (not measured); `memetic`'s CPU walks take these (not measured either).
pub const CPU_TENURE_LAW: TenureLaw = TenureLaw::Cubic;

/// See `CPU_TENURE_LAW`: one tenure draw a move on the CPU.
pub const CPU_TENURE_PER_MOVE: bool = true;

// (No `ts` for structured data above n = 40 on the CPU. On two cores its walks had ended
// lower on average than the colony within 1 s on tai50b and tai60b, so the sixth session of
// 2026-11-26 gave them n ≤ 60. On 16 cores of the four-H100 host's Xeon, 8 seeds against 16
// Ro-TS runs on the same cores (`CORES=16 SEEDS=8 scripts/bench-cpu-rots.sh`), the colony
// ended lower than Ro-TS on both (tai50b 0.000 against 0.020 %, tai60b 0.050 against
// 0.103 %), the walks higher (0.079 against 0.039 %, 1.467 against 0.417 %). Each walk makes
// about 12 000 moves a second there, a third of a core of the development machine. The
// record, "Issue 43 at 10 s, and the CPU criterion on 16 cores".)

/// The walks draw a tenure per tabu entry, as Taillard's code does (not `aco-ts`'s one per
/// move, which brought the colony to seed 003's errors: the record, "Table 5: IT_TOTAL =
/// n·50000 local-search iterations, or the optimum").
pub const TENURE_PER_MOVE: bool = false;

/// Half the walks draw as Taillard's 2006 code does (T·r³, T = 8n), half as his 1991 Ro-TS
/// did (uniform around T/4 = 2n): on the small structured targets the uniform walks hit the
/// optimum sooner (tai35b: median 0.7 ms against 1.1 ms) but now and then not for thousands
/// of moves (tai40b), and on tai*a the cubic ones do better (the record, "The start of a
/// solve, and a tenure portfolio for `ts`").
pub const TENURE_LAW: TenureLaw = TenureLaw::Mixed;

/// The walks' layout where the user does not choose one: sums, the same moves as MATA's
/// sooner, settled on the GPU where it does not apply or fit (the record, "The sums layout:
/// every move in O(1)").
pub const TS_LAYOUT: Layout = Layout::Sums;

/// Most threads a walk has on structured data (a matrix dominance of at least
/// `LOW_DOMINANCE`) up to n = `STRUCTURED_WALK_MAX_N`: there the first hit comes from many
/// walks more than from fast ones. Over 200 runs a target on the H100 (the record, "Two
/// hundred runs a target"), 128 threads reached tai35b's optimum in 0.90 ms against 1.03 ms
/// with the quarter-thread rule's 160, and tai40b's in 1.32 ms against 3.46 ms with its 224;
/// tai25b, kra30a, kra30b, tai30b and ste36b were within noise of their best from 128 up.
/// Uniform data keeps the rule (`mata::walk_split_threads`): tai40a reached 1 % above the
/// optimum in 0.73 ms with its 224 threads, 0.88 ms with 128.
pub const STRUCTURED_WALK_THREADS: u32 = 128;

/// Largest n where `STRUCTURED_WALK_THREADS` applies (`TS_ANY_N`, where `auto` runs `ts`):
/// above it fewer, faster walks win again (40 runs: tai50b's optimum in 0.229 s with 128
/// threads against 0.128 s with the rule's 320, tai60b's in 0.88 s against 0.21 s; the
/// record, "Two hundred runs a target").
pub const STRUCTURED_WALK_MAX_N: usize = TS_ANY_N;

// ---------------------------------------------------------------------------------------
// `ts`: "go with the winners" (`ts::default_regroup`, `ts::Regroup`).
// ---------------------------------------------------------------------------------------

/// The share of the walks the others regroup onto (`--regroup-keep`, `ls::donor_rank`). On
/// the CPU twin of 792 tai35b walks (`examples/go_with_winners.rs`, 12 trials each) the first
/// walk reached the optimum after 296 moves on average without it and after 140–154 with a
/// quarter kept every 30–50 moves. On the GPU (H100, the record, "Go with the winners, and
/// where the colony stops on tai*a"), 8 rounds of 32 moves cut tai40b's time to the optimum
/// from 4.2 to 0.51 ms and tai30b's from 0.69 to 0.49 ms, but cost the smallest targets
/// 0.03–0.1 ms and left tai35b no shorter (one seed in 20 took 36 ms); regrouping all along
/// crowded the walks into one region. Regrouping inside one cooperative launch, with no
/// launch boundary a round, gave the same times (`docs/trials/regroup-in-launch.patch`, the
/// record, "Go with the winners inside one launch"), though the twin's 40-trial figures say
/// eight rounds of 32 halve the moves. Those GPU figures were means of 20 runs, too few to see
/// the gain on tai35b: over 200 runs (the record, "Two hundred runs a target") it was there
/// (`DEFAULT_REGROUP_EVERY`).
pub const REGROUP_KEEP: f64 = 0.25;

/// `ts`'s regrouping where the command line does not set it, on the GPU for n from
/// `DEFAULT_REGROUP_MIN_N` to `DEFAULT_REGROUP_MAX_N` (where `auto` runs `ts`): every
/// `DEFAULT_REGROUP_EVERY` moves, `DEFAULT_REGROUP_ROUNDS` times on uniform data and
/// `STRUCTURED_REGROUP_ROUNDS` on structured data, then plain walks. Over 200 runs a target on
/// the H100 (the record, "Two hundred runs a target"), 4 rounds of 32 moves took tai35b's
/// optimum from 0.90 to 0.67 ms (σ from 0.74 to 0.25), tai40b's from 1.33 to 0.55 ms,
/// tai30b's from 0.57 to 0.40 ms and tai40a's 1 % from 0.73 to 0.62 ms, and cost kra30a,
/// kra30b and ste36b 0.04–0.08 ms (each still at least 68× its issue-10 Ro-TS time). 16 moves
/// a round gave runs of tens of ms (the walks crowd into one region); 48 moves, 6 rounds and a
/// share of 1/8 were no better.
pub const DEFAULT_REGROUP_EVERY: u32 = 32;

/// The rounds of `DEFAULT_REGROUP_EVERY` moves on uniform data (`is_uniform`), n from
/// `DEFAULT_REGROUP_MIN_N` to `DEFAULT_REGROUP_MAX_N`: tai40a's 1 % took 0.534 ms with 4
/// rounds against 0.664 ms with 2 (the record, "Two hundred runs a target", and "A regrouping
/// without a launch of its own, and two rounds on structured data").
pub const DEFAULT_REGROUP_ROUNDS: u32 = 4;

/// The rounds on structured data (not `is_uniform`). Since a regrouping costs no launch of
/// its own, over 2000 runs on the H100 tai35b's optimum took 0.503 ms on average with 2 rounds
/// and no restart cycle against 0.564 ms with 4 rounds and cycles of 256 moves (3 rounds
/// 0.526–0.531 ms, 1 round 0.571 ms), and no run took 2 ms: the walks no longer crowd, so the
/// restart cycles have nothing to cut (0.512 ms with them). Over 500–1000 runs kra30b took
/// 0.280 ms against 0.321, tai30b 0.325 against 0.333, kra30a, ste36b and tai40b within 3 %
/// (the record, "A regrouping without a launch of its own, and two rounds on structured
/// data").
pub const STRUCTURED_REGROUP_ROUNDS: u32 = 2;

/// Smallest n where the walks regroup a few rounds by default: below n = 30 they reach their
/// targets within a few hundred moves anyway, and the rounds' relaunches only cost (tai25b
/// 0.15 → 0.17 ms over 200 runs, 0.14 → 0.21 ms over the issue's 10; the record, "Two hundred
/// runs a target").
pub const DEFAULT_REGROUP_MIN_N: usize = 30;

/// Largest n where the walks regroup a few rounds by default: `TS_ANY_N`, where `auto` runs
/// `ts` whatever the data (the record, "Two hundred runs a target").
pub const DEFAULT_REGROUP_MAX_N: usize = TS_ANY_N;

/// `ts`'s regrouping on uniform random data (`is_uniform`) above n = `DEFAULT_REGROUP_MAX_N`
/// up to `UNIFORM_REGROUP_MAX_N`, on the GPU: every `UNIFORM_REGROUP_EVERY_SMALL` moves up to
/// n = `UNIFORM_REGROUP_SMALL_N`, every `UNIFORM_REGROUP_EVERY` above, all run long. There the
/// walks are the population of one search, which ends lower than the colony `auto` ran before
/// on all four shared tai*a above n = 40. Means over seeds 1–16 (tai80a, tai100a) or 1–8
/// (tai50a, tai60a) on the H100 (the record, "Go with the winners all along on tai*a"), gap
/// after 1 s in %, for regroupings every 512 / 640 / 768 / 896 / 1024 moves, and the colony
/// (`aco-ts --class i --ls-iterations 32n --one-wave`):
///
/// | instance | 512 | 640 | 768 | 896 | 1024 | colony |
/// |---|---|---|---|---|---|---|
/// | tai50a | | | 0.158 | | **0.109** | 0.337 |
/// | tai60a | | | 0.344 | | **0.306** | 0.366 |
/// | tai80a | 0.538 | 0.499 | **0.445** | 0.495 | 0.514 | 0.512 |
/// | tai100a | 0.399 | 0.378 | 0.359 | **0.346** | 0.382 | 0.439 |
///
/// (The elite by cost alone; above n = 64 it is now also kept diverse,
/// `UNIFORM_REGROUP_DISTANCE`.) Every 1536 or 2048 moves ended tai80a and tai100a as high as
/// walks that never regroup (about 0.7 %): between two rounds a walk must stay close enough
/// to where it started for its cost to say something about that region. So the rounds are as
/// long as the best measured for the n around them.
pub const UNIFORM_REGROUP_EVERY: u32 = 768;

/// Moves between two regroupings on uniform data up to n = `UNIFORM_REGROUP_SMALL_N`
/// (tai50a, tai60a: the table of `UNIFORM_REGROUP_EVERY`).
pub const UNIFORM_REGROUP_EVERY_SMALL: u32 = 1024;

/// Largest n of uniform data that regroups every `UNIFORM_REGROUP_EVERY_SMALL` moves, and
/// above which the elite is kept diverse (`UNIFORM_REGROUP_DISTANCE`; the record, "Go with
/// the winners all along on tai*a" and "A diverse elite").
pub const UNIFORM_REGROUP_SMALL_N: usize = 64;

/// Moves between two regroupings on uniform data of size n (`UNIFORM_REGROUP_EVERY`).
pub fn uniform_regroup_every(n: usize) -> u32 {
    if n <= UNIFORM_REGROUP_SMALL_N { UNIFORM_REGROUP_EVERY_SMALL } else { UNIFORM_REGROUP_EVERY }
}

/// The elite's least distance where the walks regroup all along on uniform data from n =
/// `UNIFORM_REGROUP_SMALL_N` + 1 to `UNIFORM_REGROUP_MAX_N`, as a share of n
/// (`--regroup-distance`, `ts::regroup_distance`). There the population otherwise settles
/// within half a second in one region: over seeds 1–32 on the H100, within 1 s, tai80a ended
/// 0.414 % above the best known against 0.475 %, tai100a 0.320 % against 0.374 %, and random
/// uniform instances of n = 72 and 90 (seeds 1–8) closer to the best cost seen (0.065 and
/// 0.040 % against 0.145 and 0.102 %). Shares of 0.45 and 0.55 did as well (seeds 1–16), 0.25
/// and 0.65 no better than none, 0.8 worse; on tai50a (0.256 % against 0.109 %) and tai60a
/// (0.326 against 0.306 %) it did not pay (the record, "A diverse elite").
pub const UNIFORM_REGROUP_DISTANCE: f64 = 0.5;

/// Seconds of a time limit from which `--effort auto` takes the long budget's settings
/// (`ts::Effort`): they were measured at 10 s (`LONG_RESTART_AFTER`).
pub const LONG_EFFORT_MIN_SECONDS: f64 = 10.0;

/// At the long effort, where the walks regroup all along on uniform data (n = 41–100 on the
/// GPU), every walk restarts from a random solution after this many moves without a new best
/// of the walks' own bests (`--restart-after`; the run's best is kept). Within 10 s on one
/// H100, seeds 1–8 (`scripts/bench-taia.sh`, study `tune10`; the record, "Issue 43 at 10 s"),
/// mean gap % on tai60a / tai80a / tai100a:
///
/// | setting | tai60a | tai80a | tai100a | mean |
/// |---|---|---|---|---|
/// | as at 1 s (no restarts; distance 0.5 above n = 64) | 0.255 | 0.341 | 0.244 | 0.280 |
/// | `--restart-after 131072` | **0.149** | 0.307 | 0.225 | **0.227** |
/// | `--restart-after 262144` | 0.178 | 0.309 | 0.233 | 0.240 |
/// | `--restart-cycle 131072` | 0.170 | 0.317 | **0.203** | 0.230 |
/// | `--regroup-distance 0.7` | 0.158 | **0.296** | 0.242 | 0.232 |
/// | `--regroup-every 2048` (8 rounds, then none) | 0.287 | 0.663 | 0.652 | 0.534 |
/// | 4 islands of 66 walks on the one GPU | 0.153 | 0.368 | 0.228 | 0.250 |
///
/// At 1 s the walks make about 200 000 moves each at n = 80 (tai80a on the H100), so these
/// restarts seldom fire there; at 10 s they stall for seconds after the first 0.1–0.8 s, and a restart is a new
/// draw of the region the population settles in.
pub const LONG_RESTART_AFTER: u32 = 131_072;

/// At the long effort, the elite's least distance as a share of n where the walks regroup
/// all along on uniform data up to n = `UNIFORM_REGROUP_SMALL_N` (n = 41–64 on the GPU, where
/// 1-s runs keep none; above, `UNIFORM_REGROUP_DISTANCE` at either effort): in the table of
/// `LONG_RESTART_AFTER` it took tai60a from 0.255 to 0.158 %, and with the restarts tai60a
/// to its best-known value in 5 of 10 runs of 60 s (none without either). With the restarts
/// above n = 64 it ended higher than the restarts alone (the record, "Issue 43 at 10 s").
pub const LONG_REGROUP_DISTANCE: f64 = 0.7;

/// At the long effort, moves between two regroupings where the walks regroup all along on
/// uniform data (n = 41–100 on the GPU; `uniform_regroup_every` at 1 s, tuned there). Within
/// 10 s on four H100s of one host (`scripts/bench-taia.sh`, study `tune10`, the settings
/// interleaved seed by seed; the record, "The regrouping period at 10 s"), mean gap %:
///
/// | setting | tai60a | tai80a | tai100a | seeds |
/// |---|---|---|---|---|
/// | as at 1 s (1024 up to n = 64, 768 above) | 0.146 | 0.307 | 0.219 | 1–16 |
/// | every 512 | **0.093** | **0.286** | **0.196** | 1–16 |
/// | every 384 | 0.085 | 0.285 | 0.202 | 9–16 (as at 1 s: 0.158, 0.306, 0.214) |
/// | every 1024 | 0.134 | 0.323 | 0.201 | 1–8 (as at 1 s: 0.134, 0.307, 0.225) |
/// | elite share 0.125 | 0.067 | 0.307 | 0.216 | 1–16 |
/// | elite share 0.5 | 0.218 | 0.531 | 0.463 | 1–8 |
///
/// Every 512 was chosen on seeds 1–8 among five settings; on the held-out seeds 9–16 it was
/// lower than the old period on all three means again (0.119, 0.289, 0.198 against 0.158,
/// 0.306, 0.214; lower in 15 of the 24 runs), but no single instance is significant there
/// (Mann–Whitney p = 0.078, 0.71, 0.44): a consistent, small gain, largest on tai60a, not a
/// proven one on tai80a and tai100a. tai50a (seeds 1–8) 0.0066 % with 7 runs at the best-known value,
/// against 0.0367 % and 4; wil100 and lipa80a reached theirs in every run either way (wil100
/// in 0.82 against 0.87 s on average). The walks make 3–6 % fewer moves (more round trips
/// for the diverse ranking).
pub const LONG_REGROUP_EVERY: u32 = 512;

/// The share of n in which a walk's start is perturbed when it takes an elite walk's
/// solution (`--regroup-perturb`, `ts::perturb`): none by default. Within 10 s on two H100s
/// of one host, seeds 1–16, at the long effort (`scripts/bench-taia.sh`, study `tune10`; the
/// record, "Perturbed regroupings" and "The perturbation on the device"), mean gap %, with
/// the perturbation on the device (`ts_perturb_walks_*`, queued behind the regrouping; the
/// walks keep 98–100 % of their moves):
///
/// | setting | tai50a | tai60a | tai80a | tai100a |
/// |---|---|---|---|---|
/// | none (the default) | 0.025 | 0.152 | 0.307 | 0.220 |
/// | 0.1 (4 swaps at n = 80) | | 0.137 | 0.286 | **0.204** |
/// | 0.25 (10 swaps at n = 80) | **0.022** | **0.136** | 0.310 | 0.207 |
/// | 0.5 | | 0.182 | **0.274** | 0.211 |
///
/// No setting differs from none at the 5 % level on any instance (Mann–Whitney, lowest p =
/// 0.09: tai80a at 0.5). The host-side version before it (the previous session's lease,
/// which also covered two random uniform instances) lost 9–27 % of the moves to its round trip and gave the same
/// picture: 0.92–0.95 of the gap, no instance significant. At 1 s it gained nothing (the
/// record, "Perturbed copies"). The other instances a default would reach (wil50, wil100,
/// lipa*) are not in the development set and were not measured with it.
pub const REGROUP_PERTURB: f64 = 0.0;

/// Most launches (and regroupings) queued by one `advance`: the host sees that a walk reached
/// the target only when it reads the best after them, and every launch queued behind the hit
/// still costs its blocks' start and exit (the record, "Go with the winners, and where the
/// colony stops on tai*a").
pub const MAX_SEGMENTS: u32 = 8;

/// Regroupings a run makes where `--regroup-every` is given without `--regroup-rounds`:
/// those of its first `advance` (`MAX_SEGMENTS`). Regrouping all along crowds the walks into
/// one region (the record, "Go with the winners, and where the colony stops on tai*a").
pub const REGROUP_ROUNDS: u32 = MAX_SEGMENTS;

// ---------------------------------------------------------------------------------------
// `ts`: restarts (`ts::restart_cycle`; `--restart-after` has no default).
// ---------------------------------------------------------------------------------------

/// The walks' first cycle where they restart by default (`ts::restart_cycle`): on the GPU
/// where they regroup `DEFAULT_REGROUP_ROUNDS` rounds (uniform data, n from
/// `DEFAULT_REGROUP_MIN_N` to `DEFAULT_REGROUP_MAX_N`), 4 rounds of 32 moves and 128 moves on.
/// The figures below were taken on tai35b when structured data, too, regrouped 4 rounds; with
/// its 2 rounds now the cycles no longer pay there (`STRUCTURED_REGROUP_ROUNDS`). Over 2000
/// runs on the H100, tai35b's optimum took 0.605 ms on average without restarts and 0.583 ms
/// with cycles doubling from 256 (σ 0.87 against 0.28 ms: the 1 % of runs whose walks crowd
/// far from the optimum after the rounds, and took about 10 ms, start over instead); doubling
/// from 160 did worse (0.634 ms), and a trial build with cycles of one fixed length no better.
/// tai25b, tai30b, tai40b, ste36b, kra30a, kra30b and tai40a's 1 % were within noise (the
/// record, "Restarts that draw new starts, and restart cycles for n = 30 to 40").
pub const DEFAULT_RESTART_CYCLE: u32 = 256;

/// Most restarts by the cycle rule (`--restart-cycle`): after cycles of M, 2M, 4M and 8M
/// moves (3840 moves at M = 256, about 20 ms of tai35b's walks), the last population runs on,
/// so a run for quality over seconds keeps one population nearly all along (the record,
/// "Restarts that draw new starts, and restart cycles for n = 30 to 40").
pub const MAX_CYCLE_RESTARTS: u64 = 4;

// ---------------------------------------------------------------------------------------
// `memetic` (measured as it stands, not tuned: the record, "The memetic hybrid (`--algo
// memetic`)").
// ---------------------------------------------------------------------------------------

/// Launches of every walk between two breedings: within 1 s about 6 breedings at n = 60 (the
/// record, "The memetic hybrid (`--algo memetic`)").
pub const BREED_EVERY: u64 = 4;

/// One walk in this many (the worst quarter by best cost, at least one) restarts from a
/// child at a breeding (the record, "The memetic hybrid (`--algo memetic`)").
pub const BREED_ONE_IN: usize = 4;

/// Walks of a CPU population unless `--ants` says otherwise: one per thread is too few to
/// breed from (not measured).
pub const MEMETIC_CPU_WALKS: u32 = 16;

// ---------------------------------------------------------------------------------------
// The `converged` stop rule (`run::StopRule::Converged`, `--stop converged`, the default of
// `solve` where no target is known). Set on the CPU of the development machine and chosen
// to be conservative; to be checked against the 1-s gaps bench on the GPU
// (`bench gaps --runs 1 --time-limit 1`, with `--stop converged` against `--stop time`),
// which must match within noise.
// ---------------------------------------------------------------------------------------

/// Largest n that the `converged` rule first tries to solve exactly (`run::exact`: branch and
/// bound with the Gilmore–Lawler bound, on the CPU). On the 2-core development machine
/// (`solve --engine cpu`) every QAPLIB instance of n = 12 was proven optimal within 117
/// (chr12a, 2 ms) to 24 700 nodes (tai12b, 0.05 s; nug12 16 500 nodes, 0.05 s), tai10a and
/// tai10b within 1 900 and 10 800 nodes: sooner than a run converges (`CONVERGED_FLOOR_S`).
/// The nodes grow about fivefold an n, so n = 13 would often run out of `EXACT_NODE_BUDGET`.
pub const EXACT_MAX_N: usize = 12;

/// SMs a walk of the wide path (`ts` above n = 256) by default: one walk for every 4 SMs.
/// A walk's speed is its block's (its moves a second did not rise with fewer walks), and a
/// 10-s run gains more from deeper walks than from more of them: on an H200 (132 SMs),
/// random n = 1000 ended at the same cost with 33 and 66 walks and 0.016 % higher with
/// 132; n = 2000 0.011 % higher with 66 and 0.097 % with 132 than with 33
/// (docs/benchmarks-record.md, "The wide path").
pub const WIDE_SMS_PER_WALK: u32 = 4;

/// Nodes after which the exact method gives up and the family's search runs instead: twice
/// the most an n = 12 instance of QAPLIB took (about 0.1 s on the development machine, less
/// than the `converged` rule's floor).
pub const EXACT_NODE_BUDGET: u64 = 50_000;

/// The exact method's nodes where the search runs on a GPU, which converges sooner: in a
/// Python session on the H100 host (`scripts/bench-python-stop.py`, 5 calls each), calls on
/// had12, nug12, rou12, tai10b, tai12a and tai12b proven optimal on its CPU took 26–140 ms
/// (tai10b: 10 800 nodes in about 35 ms), while the GPU search converged on every n ≤ 20
/// within 6–9 ms a call, at the optimum. About 5 ms of nodes on that CPU; an instance not
/// proven within them is searched.
pub const EXACT_GPU_NODE_BUDGET: u64 = 1_500;

/// The `converged` rule stops a run after no improvement for this many times the time to its
/// last improvement. Set on the CPU first (replaying the traces of `solve --trace`, `auto`,
/// seed 2, 10 s, of kra30b, tai30b, tai35b, ste36b, tai40a, tai40b, tho40, tai50a, tai50b,
/// tai60a, tai80a and tai100a on the 2-core development machine, with 1-s, 3-s and 10-s
/// limits: 8 lost nothing but tai40a's 10-s improvement after a plateau from 0.1 s to 3.3 s,
/// where 4 and 5 also lost kra30b's optimum at 3 and 10 s), then checked on the traces of
/// every instance of `../shared/qaplib` (`scripts/bench-stop.sh gpu|cpu`, 1 s, 3 seeds on an
/// H100 and 2 on its host's 16 cores, replayed by `scripts/replay-stop.py`; the record,
/// "The converged rule on the GPU"): on the CPU's traces 3 and 4 lost tai35b, tai40b (4.5 %)
/// and tai50b's last improvements, 6 and 8 nothing; on the GPU's, structured data never
/// waited more than 2.2 times its time to an improvement.
pub const CONVERGED_FACTOR: f64 = 8.0;

/// Seconds without improvement below which the `converged` rule never stops a run on uniform
/// random data (`is_uniform`) above n = `CONVERGED_PLATEAU_MIN_N`: on the H100's traces (as
/// above) tai40a, tai50a, tai60a and tai80a waited up to 31 times their time to an
/// improvement (tai60a: from 0.014 s to 0.442 s), which no factor keeps; with this floor and
/// the factor, no run of the 39 instances ended above its 1-s cost.
pub const CONVERGED_FLOOR_S: f64 = 0.5;

/// Uniform random data above this n gets `CONVERGED_FLOOR_S`: the plateaus above were
/// measured from n = 40 (tai40a); tai12a to tai17a and rou12 reached their optimum in the
/// first launch. Everywhere else the factor alone decides, so that a small instance returns
/// within milliseconds of its optimum.
pub const CONVERGED_PLATEAU_MIN_N: usize = 31;

/// The `converged` rule's floor for `inst` (`CONVERGED_FLOOR_S` or none).
pub fn converged_floor_s(inst: &Instance) -> f64 {
    if inst.n >= CONVERGED_PLATEAU_MIN_N && is_uniform(inst) { CONVERGED_FLOOR_S } else { 0.0 }
}

/// Solver steps (launches, cAS iterations, generations) without improvement below which the
/// `converged` rule never stops a run, where steps are long (large n on the CPU).
pub const CONVERGED_MIN_STEPS: u64 = 4;

/// Moves of `ts`'s first long launch under the `converged` rule; each next one makes as many
/// as all before it, up to the launch's moves (`LAUNCH_ITERATIONS`). The rule sees a run's
/// best after each launch: with launches of 2048 moves from the start, every instance of
/// n ≤ 30 reached its optimum in the first (5–7 ms on the H100, 10–90 ms on 16 CPU cores)
/// and the rule could not tell sooner.
pub const CONVERGED_RAMP_MOVES: u32 = 64;

/// The `converged` rule counts a `ts` run's time to its last improvement from no earlier
/// than when its walks have made this many moves in all, and each `CONVERGED_SETTLE_PER_N`·n
/// (`Solver::settling`): the rule was validated on traces whose first reading came after
/// 16 walks of 2048 moves (16 CPU cores), and the improvements of the walks' first descent
/// say nothing of how long the search needs. Without it, tai40b on 2 CPU cores stopped 5.4 %
/// above its optimum after 64 ms, having improved at 3 ms. Below n = `CONVERGED_SETTLE_N`
/// the moves shrink with the neighbourhood, as (n / `CONVERGED_SETTLE_N`)² (`settle_moves`).
pub const CONVERGED_SETTLE_MOVES: u64 = 16 * 2048;

/// The n at which `CONVERGED_SETTLE_MOVES` was set (tai40b).
pub const CONVERGED_SETTLE_N: usize = 40;

/// The moves in all of `CONVERGED_SETTLE_MOVES` for an instance of size n.
pub fn settle_moves(n: usize) -> u64 {
    let r = (n.min(CONVERGED_SETTLE_N) as u64).pow(2);
    (CONVERGED_SETTLE_MOVES * r).div_ceil((CONVERGED_SETTLE_N as u64).pow(2))
}

/// Moves of each walk, per unit of n, before the `converged` rule's clock starts (its first
/// descent from a random start takes about n/2 improving moves).
pub const CONVERGED_SETTLE_PER_N: u64 = 2;

/// Most seconds between two reads of the best cost by the `converged` rule (one small read
/// from the device, between steps); a young run is read every twentieth of its age, so that
/// one of milliseconds is read every step. The rule's clock is late by at most this and one
/// step.
pub const CONVERGED_POLL_S: f64 = 0.01;

// ---------------------------------------------------------------------------------------
// Batches (`batch`, `qapgpu solve-batch`, `quadratic_assignment_batch`).
// ---------------------------------------------------------------------------------------

/// Fewest walks an instance of a GPU batch gets by default (`batch::gpu`); a small batch
/// gets more, the GPU's resident blocks shared among its instances. On one H100, 5000 random
/// n = 30 instances for 1 s each (`scripts/bench-batch-walks.sh`, 4835bda): 1, 2, 4, 8 and 16
/// walks an instance ended within 0.03 % of one another in mean cost (16 and 1 lowest, 2
/// highest) and within 2.2–2.5 s of wall time; every count ran to the limit. No count pays
/// over another; 4 is kept.
pub const BATCH_MIN_WALKS: usize = 4;

// ---------------------------------------------------------------------------------------
// Several GPUs (`--gpus auto`, the default of `solve`).
// ---------------------------------------------------------------------------------------

/// Smallest n that `solve` runs on every GPU by default (`--gpus auto`). On two H100s
/// (BENCHMARKS.md, "Two H100s of one host"): every run of n ≤ 40 lost on two GPUs (tai35b,
/// kra30b and tai40a: 0.45–0.70× the speed of one, runs of under a millisecond, which the
/// second device's thread and the cross-device stop outweigh); at n = 50–60, `ts` and
/// `aco-ts` on tai50b and tai60b gained 4–19 % but `auto` on tai60a (1 %, 4 ms) lost 38 %;
/// from n = 80 every run gained (tai80a, tai100a 1.3×; tai80b, tai100b 1.05–1.08×; the 10-s
/// gaps of tai80a and tai100a fell from 0.429/0.273 % to 0.375/0.207 %).
pub const MULTI_GPU_MIN_N: usize = 80;

/// The GPUs of `all` (the machine's, in order) that a solve of `inst` runs on by default:
/// every one from n = `MULTI_GPU_MIN_N`, else the first.
pub fn gpus_for(inst: &Instance, all: &[usize]) -> Vec<usize> {
    if inst.n >= MULTI_GPU_MIN_N { all.to_vec() } else { all.iter().take(1).copied().collect() }
}

#[cfg(test)]
mod tests {
    use super::{MULTI_GPU_MIN_N, gpus_for, settle_moves};
    use crate::io::Instance;

    fn zeros(n: usize) -> Instance {
        Instance::new("zeros", n, vec![0; n * n], vec![0; n * n]).unwrap()
    }

    #[test]
    fn every_gpu_only_from_the_size_where_runs_gained() {
        let all = [0, 1, 2, 3];
        assert_eq!(gpus_for(&zeros(MULTI_GPU_MIN_N - 1), &all), vec![0]);
        assert_eq!(gpus_for(&zeros(MULTI_GPU_MIN_N), &all), all.to_vec());
        assert_eq!(gpus_for(&zeros(10), &[]), Vec::<usize>::new());
    }

    #[test]
    fn the_settling_grows_with_the_neighbourhood_up_to_n_40() {
        assert_eq!(settle_moves(40), super::CONVERGED_SETTLE_MOVES);
        assert_eq!(settle_moves(400), super::CONVERGED_SETTLE_MOVES);
        assert_eq!(settle_moves(20), super::CONVERGED_SETTLE_MOVES / 4);
        assert!(settle_moves(3) >= 1);
    }
}
