//! The local searches of seed 003 on one solution: robust tabu search (§4.2) and 2-opt with
//! the best-improvement rule (§6.3), as the sequential CPU twin of the kernel in
//! `device::ls`. Both scan the swap neighbourhood, keep the move-cost table Δ (Eq. 4 for
//! moves touching the previous move, Eq. 5 for the others) and pick the move with the
//! smallest `Candidate` key, so a block's argmin and this loop choose the same move.
use crate::elem::Elem;
use crate::matrix::Matrix;
use crate::moves::{
    delta_full, delta_update_terms, move_count, next_pair, pack_pair, swap_terms, touches, unpack_pair,
};
use crate::null_swaps::is_null;
use crate::rng::Xoshiro128;

/// A move as seen by the argmin: by class first (`ASPIRED`, then `AUTHORIZED`, then
/// `TABOO`), then by Δ, then by move number; the smallest key wins. The tabu search falls
/// back on the best taboo move only when every move is taboo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The move's cost Δ.
    pub delta: i64,
    /// Bits 31..30: the class; bits 15..8: u; bits 7..0: v (`moves::pack_pair`).
    pub tag: u32,
}

/// Move classes, best first. Seed 003's search has two: admissible (a new best, or
/// authorised) and taboo. Taillard's Ro-TS puts moves aspired by its long-term memory (an
/// assignment unused for `aspiration` iterations) and new bests before the authorised ones.
pub const ASPIRED: u32 = 0;
/// Moves that are authorised (not taboo) but not aspired.
pub const AUTHORIZED: u32 = 1;
/// Moves still taboo, picked only when every move is.
pub const TABOO: u32 = 2;

/// The class of a move whose tabu entries are `until_u`, `until_v` at iteration `now`;
/// `aspiration` = 0 turns the long-term aspiration off (seed 003's two classes).
///
/// One formula serves both: with `aspiration` = 0 an assignment is forgotten as soon as it
/// is not taboo, so every authorized move is ASPIRED and the others TABOO, as seed 003 has
/// it (a branch on `aspiration` = 0 cost the GPU's walks both paths, predicated, a move).
#[inline(always)]
pub const fn move_class(until_u: i32, until_v: i32, now: i32, new_best: bool, aspiration: i32) -> u32 {
    let until = if until_u < until_v { until_u } else { until_v };
    class_of_earlier(until, now, new_best, aspiration)
}

/// `move_class` from the earlier of the two entries: "either entry is below x" is "their
/// minimum is below x", so one minimum and two compares class a move (the GPU's walks class
/// every move this way, without a branch).
#[inline(always)]
pub const fn class_of_earlier(until: i32, now: i32, new_best: bool, aspiration: i32) -> u32 {
    if new_best || until < now.wrapping_sub(aspiration) {
        ASPIRED
    } else if until < now {
        AUTHORIZED
    } else {
        TABOO
    }
}

impl Candidate {
    /// A key every move beats: the argmin's starting value.
    pub const NONE: Candidate = Candidate { delta: i64::MAX, tag: u32::MAX };

    /// Move (u, v) with cost `delta`, of class `ASPIRED` when `admissible`, else `TABOO`.
    #[inline(always)]
    pub const fn new(delta: i64, u: u32, v: u32, admissible: bool) -> Candidate {
        Candidate::ranked(delta, u, v, if admissible { ASPIRED } else { TABOO })
    }

    /// Move (u, v) with cost `delta`, of class `class`.
    #[inline(always)]
    pub const fn ranked(delta: i64, u: u32, v: u32, class: u32) -> Candidate {
        Candidate { delta, tag: pack_pair(u, v) | class << 30 }
    }

    /// The total order of the argmin (a strict "less than").
    #[inline(always)]
    pub const fn better(&self, o: &Candidate) -> bool {
        let (fa, fb) = (self.tag >> 30, o.tag >> 30);
        fa < fb || (fa == fb && (self.delta < o.delta || (self.delta == o.delta && self.tag < o.tag)))
    }

    /// The move (u, v) of the tag.
    #[inline(always)]
    pub const fn pair(&self) -> (u32, u32) {
        unpack_pair(self.tag)
    }
}

/// A candidate whose Δ fits an i32, packed in one u64 whose unsigned order is
/// `Candidate::better`'s: the class in bits 63..62, Δ + 2³¹ in bits 47..16, the packed pair
/// (`moves::pack_pair`) in bits 15..0. An argmin then compares and shuffles one word.
/// `NARROW_NONE` is `Candidate::NONE`'s.
pub const NARROW_NONE: u64 = u64::MAX;

/// The narrow key of move (u, v) of class `class` with cost `delta` (see `NARROW_NONE`).
#[inline(always)]
pub const fn narrow_key(class: u32, delta: i32, u: u32, v: u32) -> u64 {
    ((class as u64) << 62) | (((delta as u32 ^ 0x8000_0000) as u64) << 16) | pack_pair(u, v) as u64
}

/// The `Candidate` of a `narrow_key`.
#[inline(always)]
pub const fn from_narrow(key: u64) -> Candidate {
    if key == NARROW_NONE {
        return Candidate::NONE;
    }
    let delta = ((key >> 16) as u32 ^ 0x8000_0000) as i32 as i64;
    Candidate { delta, tag: (key & 0xFFFF) as u32 | ((key >> 62) as u32) << 30 }
}

/// Tabu entries are the iteration until which a (facility, location) assignment is taboo;
/// a never-used entry holds this (`TabuStart::Flat`).
pub const TABU_FREE: i32 = -1;

/// What a walk's fresh tabu matrix holds (`TabuStart::fill`). Every start puts every entry
/// below the first iteration, so every move is authorised; they differ only in when, under
/// the long-term aspiration A, the entries never used come due.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TabuStart {
    /// Every entry `TABU_FREE`: all the unused assignments come due at iteration A at once,
    /// and a burst of aspired moves follows. The GPU's walks start so (their kernels know
    /// no other start); `Staggered` measured there gained nothing overall
    /// (docs/benchmarks-record.md, "Taillard's staggered tabu start on the GPU").
    #[default]
    Flat,
    /// The Ro-TS code's start (it sets entry (i, j) to −(n·i + j)), here −1 − entry: the
    /// entries come due one by one over the n² iterations before A. The CPU's walks start
    /// so (`policy::CPU_TABU_START`).
    Staggered,
}

impl TabuStart {
    /// The fresh value of `entry` (facility · n + location).
    #[inline(always)]
    pub const fn entry(self, entry: usize) -> i32 {
        match self {
            TabuStart::Flat => TABU_FREE,
            TabuStart::Staggered => -1 - entry as i32,
        }
    }

    /// Fills `tabu` (n² entries, facility-major) with a fresh matrix.
    pub fn fill(self, tabu: &mut [i32]) {
        for (entry, t) in tabu.iter_mut().enumerate() {
            *t = self.entry(entry);
        }
    }
}

/// Uniform f32 in [0, 1) from 24 random bits (exact, identical on host and GPU).
#[inline(always)]
pub fn uniform_f32(rng: &mut Xoshiro128) -> f32 {
    (rng.next() >> 8) as f32 * (1.0 / 16_777_216.0)
}

/// Robust tabu tenure T_list-size · r³, r uniform in [0, 1) (seed 003 §4.2, after [25]).
#[inline(always)]
pub fn tenure(rng: &mut Xoshiro128, list_size: u32) -> i32 {
    let r = uniform_f32(rng);
    (list_size as f32 * (r * r * r)) as i32
}

/// The distribution of one tenure draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TenureLaw {
    /// T · r³, r uniform in [0, 1) (seed 003 §4.2): mean T/4, often near zero.
    Cubic,
    /// Uniform integer in [⌊0.9·T⌋, ⌊1.1·T⌋] (Taillard's Ro-TS code, `unif(9n/10, 11n/10)`
    /// with T = n): never short, so a walk cannot undo a move within about T iterations.
    Uniform,
    /// A portfolio over the units (`Tenure::of_unit`): even units `Cubic` with T, odd units
    /// `Uniform` with T/4 (the same mean tenure). On tai35b and tai40b the uniform walks
    /// reach the optimum sooner when they do, the cubic ones more surely over long walks
    /// (`hit_quantiles`, docs/benchmarks-record.md).
    Mixed,
}

/// The range [⌊0.9·T⌋, ⌊1.1·T⌋] of `TenureLaw::Uniform` for T = `list_size`.
#[inline(always)]
pub const fn uniform_tenure_range(list_size: u32) -> (u32, u32) {
    (list_size * 9 / 10, list_size * 11 / 10)
}

/// A uniform tenure in `uniform_tenure_range` (`TenureLaw::Uniform`).
#[inline(always)]
pub fn uniform_tenure(rng: &mut Xoshiro128, list_size: u32) -> i32 {
    let (lo, hi) = uniform_tenure_range(list_size);
    (lo + rng.below(hi - lo + 1)) as i32
}

/// How a move's two tabu entries get their tenures: each its own draw (`per_move` false,
/// Taillard's code) or one draw for both (the reading of seed 003 §4.2, "the taboo list
/// size T_list-size · r³", one per iteration), from `law` with T = `list_size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tenure {
    /// T, the list size of the law.
    pub list_size: u32,
    /// One draw for both of a move's entries (else one draw each).
    pub per_move: bool,
    /// The distribution of the draws.
    pub law: TenureLaw,
}

impl Tenure {
    /// The rule unit `k` (ant or walk) draws from: `Mixed` resolved, any other law as it is.
    #[inline(always)]
    pub fn of_unit(self, k: usize) -> Tenure {
        match self.law {
            TenureLaw::Mixed if k.is_multiple_of(2) => Tenure { law: TenureLaw::Cubic, ..self },
            TenureLaw::Mixed => Tenure { law: TenureLaw::Uniform, list_size: (self.list_size / 4).max(1), ..self },
            _ => self,
        }
    }

    /// One draw of the law (`Mixed` draws as a unit of its own would: resolve it first with
    /// `of_unit`).
    #[inline(always)]
    pub fn one(self, rng: &mut Xoshiro128) -> i32 {
        match self.law {
            TenureLaw::Cubic | TenureLaw::Mixed => tenure(rng, self.list_size),
            TenureLaw::Uniform => uniform_tenure(rng, self.list_size),
        }
    }

    /// The longest tenure any unit's draws can give (`narrow_tabu::fits`).
    pub const fn longest(self) -> u32 {
        let uniform = uniform_tenure_range(self.list_size).1;
        if uniform > self.list_size { uniform } else { self.list_size }
    }

    /// The tenures of the facilities r and s of the chosen move, r's first.
    #[inline(always)]
    pub fn draw(self, rng: &mut Xoshiro128) -> (i32, i32) {
        let t = self.one(rng);
        (t, if self.per_move { t } else { self.one(rng) })
    }
}

/// Move (u, v) is authorised unless it puts both facilities back on locations each left
/// less than its tenure ago: `until_u` = tabu[u][φ(v)], `until_v` = tabu[v][φ(u)].
#[inline(always)]
pub const fn authorized(until_u: i32, until_v: i32, iter: i32) -> bool {
    until_u < iter || until_v < iter
}

/// Which local search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LsKind {
    /// Robust tabu search (`tabu_search`).
    Tabu,
    /// 2-opt with the best-improvement rule (`two_opt`).
    TwoOpt,
}

/// What one local search returns: the best solution's cost (its permutation is in `best`
/// for the tabu search, in `p` for 2-opt) and how many iterations (full neighbourhood
/// scans) ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LsResult {
    /// The best solution's cost.
    pub cost: i64,
    /// Iterations that ran.
    pub iterations: u32,
}

/// Work space of one search: Δ table (C entries) and tabu matrix (n² entries, facility-major),
/// with the instance's null swaps, which the tabu search skips.
pub struct Scratch<'s> {
    /// The Δ table, one entry per move.
    pub delta: &'s mut [i64],
    /// The tabu matrix, n² entries, facility-major.
    pub tabu: &'s mut [i32],
    /// The classes of `null_swaps::classes` (2n bytes), or empty: no swap is skipped.
    pub null_swaps: &'s [u8],
}

/// `target` of a local search that has none: no cost reaches it.
pub const NO_TARGET: i64 = i64::MIN;

/// Robust tabu search from `p` (cost `cost`) for `iterations` moves; the best solution
/// met goes to `best`. Draws the tenures of each move from `rng` (`Tenure::draw`). `stop` is asked after every
/// move; when it says true the search ends there with its best so far. (The seed-003
/// kernels poll the host's stop word every `STOP_POLL_ITERATIONS` moves, the split ones every move, a poll being a bus read: the
/// two agree move for move until a stop, which ends the run.) The search also ends as
/// soon as its best reaches `target` (`NO_TARGET`: never).
#[allow(clippy::too_many_arguments)]
pub fn tabu_search<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &mut [u8],
    cost: i64,
    target: i64,
    iterations: u32,
    tenure: Tenure,
    rng: &mut Xoshiro128,
    scratch: Scratch,
    best: &mut [u8],
    stop: impl Fn() -> bool,
) -> LsResult {
    let n = p.len();
    scratch.tabu[..n * n].fill(TABU_FREE);
    best.copy_from_slice(p);
    let walk = WalkState { p, cost, done: 0, best, best_cost: cost };
    tabu_walk(a, b, walk, target, iterations, tenure, 0, rng, scratch, stop).1
}

/// A tabu walk that goes on over several calls (the `ts` family's multi-start Ro-TS): the
/// current solution and its cost, the iterations done before (tabu entries hold absolute
/// iteration numbers), and the best the walk has met. The tabu matrix in `Scratch` is the
/// walk's own and is not reset between calls; the Δ table is rebuilt at each call's start.
pub struct WalkState<'w> {
    /// The current solution.
    pub p: &'w mut [u8],
    /// The current solution's cost.
    pub cost: i64,
    /// Iterations done before this call.
    pub done: u32,
    /// The best solution the walk has met.
    pub best: &'w mut [u8],
    /// The best solution's cost.
    pub best_cost: i64,
}

/// `iterations` more moves of the walk `w` (see `tabu_search` for `target` and `stop`), with
/// Taillard's long-term aspiration after `aspiration` iterations (0: none, `move_class`).
/// Returns the walk's current cost and the best cost with this call's iterations.
#[allow(clippy::too_many_arguments)]
pub fn tabu_walk<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    w: WalkState,
    target: i64,
    iterations: u32,
    tenure: Tenure,
    aspiration: i32,
    rng: &mut Xoshiro128,
    scratch: Scratch,
    stop: impl Fn() -> bool,
) -> (i64, LsResult) {
    let WalkState { p, cost, done, best, mut best_cost } = w;
    let n = p.len();
    let Scratch { delta, tabu, null_swaps } = scratch;
    let mut cur = cost;
    let mut last = None;
    let mut terms: Terms = [[0; 4]; crate::MAX_N];
    for it in 0..iterations as i32 {
        let now = (done as i32).wrapping_add(it);
        let mut pick = Candidate::NONE;
        let scanned = scan(a, b, p, last, delta, &mut terms, &stop, |d, u, v| {
            let (ui, vi) = (u as usize, v as usize);
            if d == 0 && !null_swaps.is_empty() && is_null(null_swaps, n, ui, vi, p[ui] as usize, p[vi] as usize) {
                return;
            }
            let class = move_class(
                tabu[ui * n + p[vi] as usize],
                tabu[vi * n + p[ui] as usize],
                now,
                cur + d < best_cost,
                aspiration,
            );
            let c = Candidate::ranked(d, u, v, class);
            if c.better(&pick) {
                pick = c;
            }
        });
        if !scanned {
            return (cur, LsResult { cost: best_cost, iterations: it as u32 });
        }
        let (r, s) = pick.pair();
        let (ru, su) = (r as usize, s as usize);
        let (tr, ts) = tenure.draw(rng);
        tabu[ru * n + p[ru] as usize] = now + tr;
        tabu[su * n + p[su] as usize] = now + ts;
        p.swap(ru, su);
        cur += pick.delta;
        if cur < best_cost {
            best_cost = cur;
            best.copy_from_slice(p);
        }
        last = Some((r, s));
        if best_cost <= target || stop() {
            return (cur, LsResult { cost: best_cost, iterations: it as u32 + 1 });
        }
    }
    (cur, LsResult { cost: best_cost, iterations })
}

/// "Go with the winners" (Aldous and Vazirani) for the `ts` walks: from time to time the
/// walks are ranked by their current cost, and every walk outside the best `elite` restarts,
/// its tabu memory cleared, from the current solution of an elite walk. Most walks from a
/// random start need thousands of moves to reach a structured instance's optimum and a few
/// need a hundred (docs/benchmarks-record.md); the low walks are more often on their way, so copying
/// them buys more of the lucky starts. Whether walk `j` of current cost `cj` ranks before
/// walk `k` of cost `ck`: lower cost first, ties by index (a strict order, so every rank is
/// taken once).
#[inline(always)]
pub fn ranks_before(cj: i64, j: usize, ck: i64, k: usize) -> bool {
    rank_key(cj, j) < rank_key(ck, k)
}

/// The key walks rank by (`ranks_before`): lower current cost first, then lower index.
#[inline(always)]
pub fn rank_key(cost: i64, walk: usize) -> (i64, usize) {
    (cost, walk)
}

/// The rank of the walk whose solution the walk of rank `rank` takes when the walks
/// regroup onto the best `elite` (≥ 1): None for the elite, which go on; the others take
/// the elite's solutions in turn.
#[inline(always)]
pub fn donor_rank(rank: u32, elite: u32) -> Option<u32> {
    (rank >= elite).then(|| (rank - elite) % elite)
}

/// The random stream of walk `walk`'s perturbation at regrouping `round` of a run of seed
/// `seed` (`--regroup-perturb`): apart from every walk's own stream and the GA's, the same
/// on both engines within a run's first start, so that the GPU's kernel and the CPU engine
/// perturb alike (the GPU seeds each fresh start anew, `rng::start_seed`; `round` counts on,
/// so no stream repeats on either).
#[inline(always)]
pub fn perturb_rng(seed: u64, round: u32, walk: u32) -> Xoshiro128 {
    const PERTURB_SALT: u64 = 0x5045_5254_5552_4221;
    Xoshiro128::from_stream(seed ^ PERTURB_SALT, (u64::from(round) << 32) | u64::from(walk))
}

/// Moves between two polls of the host's stop word by a local-search kernel (about a
/// millisecond at n = 256, little overhead at n = 12).
pub const STOP_POLL_ITERATIONS: i32 = 16;

/// Moves between two polls for n: every move from n = 128 up, where a move takes long
/// enough (a few ms for 16 at n = 256 with the plain mapping) that 16 would overrun a
/// time limit by more than its 50 ms.
#[inline(always)]
pub const fn stop_poll_interval(n: usize) -> i32 {
    if n >= 128 { 1 } else { STOP_POLL_ITERATIONS }
}

/// 2-opt with the best-improvement rule: at most `iterations` improving swaps, stopping
/// at a local minimum, at `target` or when `stop` says so (asked after every move, as in
/// `tabu_search`). `p` ends as the result.
#[allow(clippy::too_many_arguments)]
pub fn two_opt<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &mut [u8],
    cost: i64,
    target: i64,
    iterations: u32,
    delta: &mut [i64],
    stop: impl Fn() -> bool,
) -> LsResult {
    let mut cur = cost;
    let mut last = None;
    let mut terms: Terms = [[0; 4]; crate::MAX_N];
    for it in 0..iterations {
        let mut pick = Candidate::NONE;
        let scanned = scan(a, b, p, last, delta, &mut terms, &stop, |d, u, v| {
            let c = Candidate::new(d, u, v, true);
            if c.better(&pick) {
                pick = c;
            }
        });
        if !scanned {
            return LsResult { cost: cur, iterations: it };
        }
        if pick.delta >= 0 {
            return LsResult { cost: cur, iterations: it + 1 };
        }
        let (r, s) = pick.pair();
        p.swap(r as usize, s as usize);
        cur += pick.delta;
        last = Some((r, s));
        if cur <= target || stop() {
            return LsResult { cost: cur, iterations: it + 1 };
        }
    }
    LsResult { cost: cur, iterations }
}

/// Moves of a first scan (O(n) each) between two looks at the stop signal: about 30 µs at
/// n = 256, so that a stop reaches the scans of 256 CPU threads sharing two cores within a
/// few ms (1024 took 85 ms there). The kernels do not scan this way.
const FRESH_SCAN_POLL: usize = 128;

/// Eq. 5's factors for every facility after a move (`moves::swap_terms`): work space of
/// `scan`, one per search rather than per move (8 KB to clear).
type Terms = [[i64; 4]; crate::MAX_N];

/// Brings Δ up to date for the current `p` after move `last` (None: the first scan) and
/// calls `visit(Δ, u, v)` for every move in numbering order. A first scan costs O(n³), so
/// it asks `stop` every `FRESH_SCAN_POLL` moves and returns false when it gave up.
// Each argument is a separate input of the scan (matrices, solution, last move, work tables,
// stop, visitor); a struct for them would only move the list.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn scan<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &[u8],
    last: Option<(u32, u32)>,
    delta: &mut [i64],
    terms: &mut Terms,
    stop: &impl Fn() -> bool,
    mut visit: impl FnMut(i64, u32, u32),
) -> bool {
    let (mut u, mut v) = (1u32, 0u32);
    if let Some((r, s)) = last {
        swap_terms(a, b, p, r as usize, s as usize, terms);
    }
    for (k, d) in delta[..move_count(p.len() as u32) as usize].iter_mut().enumerate() {
        *d = match last {
            Some((r, s)) if !touches(u, v, r, s) => delta_update_terms(*d, &terms[u as usize], &terms[v as usize]),
            _ => {
                if last.is_none() && k % FRESH_SCAN_POLL == FRESH_SCAN_POLL - 1 && stop() {
                    return false;
                }
                delta_full(a, b, p, u as usize, v as usize)
            }
        };
        visit(*d, u, v);
        (u, v) = next_pair(u, v);
    }
    true
}
