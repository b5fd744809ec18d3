//! The wide path: the `ts` family's robust tabu walks above n = `MAX_N`, up to
//! `WIDE_MAX_N`, with `u16` rows and every table in global memory. This module is the
//! path's one definition: the parameter block the host hands the kernel (`WideParams`), the
//! plan of its memory (`WidePlan`), the order of its moves (`wide_candidate`), and the CPU
//! twin of the kernel `device::ts::wide` (`wide_walk`), which chooses the same move at
//! every step.
//!
//! A walk keeps its Δ table (one entry per move, i64) from launch to launch, so a launch
//! never pays Eq. 4's O(n³) rebuild: the table is built once (`build_step`, rows in pairs,
//! resumable between launches), and each move then costs O(n²):
//! * the moves that share a facility with the last move (r, s) are recomputed from Eq. 4,
//!   rows r and s together (`touched rows`);
//! * the others are brought up to date by Eq. 5 from the per-facility terms of (r, s)
//!   (`moves::swap_terms`), fused with the next move's scan (one pass over the table).
//!
//! The last move's Eq. 5 update is the next scan's, so a walk ends a launch with its last
//! move `pending` and the next launch starts with that pass.
//!
//! A move's two tabu entries are read only where its class can change the choice
//! (`must_class`): below `aspiration` iterations, a move whose Δ is not below the thread's
//! pick cannot win, so most of the scattered tabu reads are skipped.
use crate::elem::Elem;
use crate::gene::Gene;
use crate::ls::{AUTHORIZED, Candidate, Tenure, move_class};
use crate::matrix::Matrix;
use crate::moves::{delta_offset_in, delta_update_terms, move_count, move_index, next_pair, swap_terms, touches};
use crate::rng::Xoshiro128;
use bytemuck::{Pod, Zeroable};

/// A walk's `pending` word when it has no move whose Eq. 5 update is still due.
pub const NO_MOVE: u32 = u32::MAX;

/// Bits of each facility in a wide candidate's tag (n ≤ 2¹¹ = `WIDE_MAX_N`).
const PAIR_BITS: u32 = 11;
const PAIR_MASK: u32 = (1 << PAIR_BITS) - 1;

/// Move (u, v) of class `class` and cost `delta`, as the wide path ranks it: the class in
/// bits 31..30 of the tag as `Candidate` has it, then u and v in 11 bits each, so that the
/// tag's order is still the order of move numbers (`Candidate::better`).
#[inline(always)]
pub const fn wide_candidate(delta: i64, u: u32, v: u32, class: u32) -> Candidate {
    Candidate { delta, tag: class << 30 | u << PAIR_BITS | v }
}

/// The move (u, v) of a `wide_candidate`.
#[inline(always)]
pub const fn wide_pair(c: &Candidate) -> (u32, u32) {
    ((c.tag >> PAIR_BITS) & PAIR_MASK, c.tag & PAIR_MASK)
}

/// A move packed for the `pending` word: (u, v) → u · 2¹⁶ + v.
#[inline(always)]
pub const fn pack_move(u: u32, v: u32) -> u32 {
    u << 16 | v
}

/// The (u, v) of `pack_move`.
#[inline(always)]
pub const fn unpack_move(x: u32) -> (u32, u32) {
    (x >> 16, x & 0xFFFF)
}

/// Whether a move of cost `delta`, met after `pick` in move order, needs its class (two tabu
/// reads) to know whether it beats `pick`. It does not where `pick` is authorised or aspired,
/// `delta` is not below `pick`'s, and no long-term aspiration can hold yet (`now` below
/// `aspiration`, or none): such a move is at best authorised, and aspired by a new best only
/// if `pick` is too; with Δ and then move number ranking it after `pick`, it loses.
#[inline(always)]
pub const fn must_class(pick: &Candidate, delta: i64, now: i32, aspiration: i32) -> bool {
    !(pick.tag >> 30 <= AUTHORIZED && delta >= pick.delta && (aspiration == 0 || now < aspiration))
}

/// Rows of the Δ table built at build step `step` (`built` steps done): rows 1 + step and
/// n − 1 − step together (each row u holds the moves (u, v), v < u), so that every step has
/// n moves; the middle row alone where they meet. None once all rows are built.
#[inline(always)]
pub const fn build_step(n: u32, step: u32) -> Option<(u32, u32)> {
    if 1 + step > n - 1 - if step < n - 1 { step } else { n - 1 } {
        return None;
    }
    Some((1 + step, n - 1 - step))
}

/// Build steps of a whole Δ table: ⌈(n − 1)/2⌉.
#[inline(always)]
pub const fn build_steps(n: u32) -> u32 {
    n / 2
}

/// The host's parameter block of the wide walk kernel (`device::ts::wide`), one launch of
/// every walk; every pointer is a device address. Walk k owns row k of every per-walk array.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct WideParams {
    /// Problem size.
    pub n: u32,
    /// Walks (blocks).
    pub m: u32,
    /// Taillard's long-term aspiration, in iterations (0: none, `ls::move_class`).
    pub aspiration: i32,
    /// The tenure law's list size T (`ls::Tenure`).
    pub tenure_list: u32,
    /// The tenure law (`ls::TenureLaw` as 0 cubic, 1 uniform, 2 mixed).
    pub tenure_law: u32,
    /// 1: one draw for both entries of a move.
    pub tenure_per_move: u32,
    /// 1: a descent (seed 003's best-improvement 2-opt): a walk stops where no move
    /// improves (with no tabu and no aspiration: T = 0 and `aspiration` 0).
    pub descent: u32,
    /// Padding (the next field is 8-aligned).
    pub _pad: u32,
    /// A walk stops once its best is at or below this (`ls::NO_TARGET`: never).
    pub target: i64,
    /// The host's stop word (u32; 0: none).
    pub stop: u64,
    /// A, B and Aᵀ, n² elements each, shared by the walks.
    pub a: u64,
    /// See `a`.
    pub b: u64,
    /// Aᵀ.
    pub at: u64,
    /// Each walk's B_φ (b[φ(i)][φ(j)] at (i, j)), m × n² elements, which the kernel keeps
    /// up to date: Eq. 4's rows read it in order instead of gathering B's entries.
    pub bp: u64,
    /// Each walk's B_φᵀ, as `bp`.
    pub bpt: u64,
    /// Current solutions: m rows of n u16.
    pub perms: u64,
    /// Each walk's best solution: m rows of n u16.
    pub bests: u64,
    /// Current costs, m i64.
    pub costs: u64,
    /// Best costs, m i64.
    pub best_costs: u64,
    /// Iterations done, m u32 (the tabu entries' clock).
    pub done: u64,
    /// Build steps of the Δ table done, m u32 (`build_step`).
    pub built: u64,
    /// Each walk's `pending` move, m u32 (`NO_MOVE`, or `pack_move`).
    pub pending: u64,
    /// Moves each walk made in the last launch, m u32.
    pub moved: u64,
    /// The walks' generators, m × 16 bytes (`Xoshiro128`).
    pub rngs: u64,
    /// Δ tables: m × `move_count(n)` i64.
    pub delta: u64,
    /// Tabu matrices: m × n² i32, facility-major, each entry the iteration until which the
    /// assignment is taboo plus 1 (0: free, so that a zeroed matrix is all free).
    pub tabu: u64,
    /// Eq. 5's per-facility terms, m × n × 4 i64, where the plan puts them in global memory
    /// (0: in the block's shared memory, `WidePlan::terms_shared`).
    pub terms: u64,
}

/// Dynamic shared memory the wide kernel's block needs beside the terms: its current
/// solution (n u16, rounded to 16 bytes) and the argmin's scratch.
pub const fn wide_shared_base(n: u32, threads: u32) -> u32 {
    wide_scratch_offset(n) + threads / 32 * crate::layout::LS_SCRATCH_PER_WARP
}

/// Where the argmin's scratch starts in the block's shared memory: after its solution (n
/// u16, rounded to 16 bytes).
pub const fn wide_scratch_offset(n: u32) -> u32 {
    (2 * n).div_ceil(16) * 16
}

/// Where the wide walk's memory goes for n, `threads` a block and `optin` bytes of shared
/// memory a block may use, and how much each walk holds in global memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WidePlan {
    /// Problem size.
    pub n: u32,
    /// Threads a block.
    pub threads: u32,
    /// The terms (n × 32 bytes) in shared memory; else each walk's own in global memory.
    pub terms_shared: bool,
    /// Dynamic shared memory a block uses.
    pub shared_bytes: u32,
    /// Global memory of one walk: Δ table, tabu matrix, B_φ and B_φᵀ, two solutions, state,
    /// and the terms where they are global.
    pub walk_bytes: u64,
    /// Global memory shared by the walks: A, B and Aᵀ, of `elem_bytes` each entry.
    pub matrix_bytes: u64,
}

impl WidePlan {
    /// The plan (n from `MAX_N` + 1 … `WIDE_MAX_N` is the path's range, but any n ≥ 2 plans).
    pub const fn new(n: u32, threads: u32, elem_bytes: u32, optin: u32) -> WidePlan {
        let base = wide_shared_base(n, threads);
        let terms = n * 32;
        let terms_shared = base + terms <= optin;
        let shared_bytes = if terms_shared { base + terms } else { base };
        let nn = n as u64 * n as u64;
        let mut walk_bytes =
            move_count(n) as u64 * 8 + nn * 4 + 2 * nn * elem_bytes as u64 + 2 * 2 * n as u64 + 8 * 2 + 4 * 4 + 16;
        if !terms_shared {
            walk_bytes += n as u64 * 32;
        }
        WidePlan { n, threads, terms_shared, shared_bytes, walk_bytes, matrix_bytes: 3 * nn * elem_bytes as u64 }
    }

    /// Bytes the plan holds on the device for `m` walks.
    pub const fn device_bytes(&self, m: u32) -> u64 {
        self.matrix_bytes + m as u64 * self.walk_bytes
    }
}

/// A wide walk's state between calls, as the kernel keeps it in global memory.
pub struct WideWalk<'w, G: Gene> {
    /// The current solution.
    pub p: &'w mut [G],
    /// Its cost.
    pub cost: &'w mut i64,
    /// The best solution the walk has met.
    pub best: &'w mut [G],
    /// Its cost.
    pub best_cost: &'w mut i64,
    /// Iterations done.
    pub done: &'w mut u32,
    /// Build steps done (`build_step`).
    pub built: &'w mut u32,
    /// The move whose Eq. 5 update is due (`NO_MOVE`: none).
    pub pending: &'w mut u32,
}

/// A wide walk's tables: Δ (`move_count(n)` entries), the tabu matrix (n², facility-major)
/// and the terms (n; also the rows' work space, free once a move's update is done).
pub struct WideTables<'s> {
    /// Δ table, by move number.
    pub delta: &'s mut [i64],
    /// Tabu matrix.
    pub tabu: &'s mut [i32],
    /// Eq. 5's per-facility terms of the pending move.
    pub terms: &'s mut [[i64; 4]],
}

/// The settings of a wide walk's moves.
#[derive(Clone, Copy, Debug)]
pub struct WideRule {
    /// The walk stops once its best is at or below this.
    pub target: i64,
    /// Tenures of this walk (`Tenure::of_unit` resolved).
    pub tenure: Tenure,
    /// Long-term aspiration (`ls::move_class`).
    pub aspiration: i32,
    /// A descent: stop where the best move does not improve (`WideParams::descent`).
    pub descent: bool,
}

/// The matrices of a wide walk: A, B and their transposes (rows of Aᵀ and Bᵀ are columns
/// of A and B, so that Eq. 4's loops over a row read memory in order).
pub struct WideMats<'m, A, B> {
    /// A.
    pub a: &'m A,
    /// B.
    pub b: &'m B,
    /// Aᵀ.
    pub at: &'m A,
    /// Bᵀ.
    pub bt: &'m B,
}

/// Rows r and s of the Δ table for `p` (Eq. 4, `moves::delta_offset_in` plus every
/// facility k's term): every move (r, x) and (s, x), or with `build` those with x below the
/// row; r = s: row r alone. The loop runs k outside and x inside, reading row k of A and Aᵀ
/// and row φ(k) of B and Bᵀ, as the kernel's threads do; `acc` (n entries) is work space.
/// `stop` is asked every `ROWS_POLL` rows k (two rows take tens of ms on a CPU at n = 2048);
/// false: it said stop, and the table's rows r and s are not written.
#[allow(clippy::too_many_arguments)]
pub fn rows<G: Gene, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    m: &WideMats<A, B>,
    p: &[G],
    r: usize,
    s: usize,
    build: bool,
    delta: &mut [i64],
    acc: &mut [[i64; 4]],
    stop: &impl Fn() -> bool,
) -> bool {
    let n = p.len();
    let (pr, ps) = (p[r].at(), p[s].at());
    let need = |row: usize, x: usize| if build { x < row } else { x != row && (row == r || x != r) };
    let two = r != s;
    for x in 0..n {
        let px = p[x].at();
        acc[x][0] = if need(r, x) { delta_offset_in::<i64, E, A, B>(m.a, m.b, r, x, pr, px) } else { 0 };
        acc[x][1] = if two && need(s, x) { delta_offset_in::<i64, E, A, B>(m.a, m.b, s, x, ps, px) } else { 0 };
    }
    let e = |v: E| v.to_i64();
    for k in 0..n {
        if k % ROWS_POLL == ROWS_POLL - 1 && stop() {
            return false;
        }
        let pk = p[k].at();
        let (akr, ark, bkr, brk) = (e(m.a.at(k, r)), e(m.at.at(k, r)), e(m.b.at(pk, pr)), e(m.bt.at(pk, pr)));
        let (aks, ask, bks, bsk) = (e(m.a.at(k, s)), e(m.at.at(k, s)), e(m.b.at(pk, ps)), e(m.bt.at(pk, ps)));
        for (x, t) in acc.iter_mut().enumerate().take(n) {
            let px = p[x].at();
            let (akx, axk, bkx, bxk) = (e(m.a.at(k, x)), e(m.at.at(k, x)), e(m.b.at(pk, px)), e(m.bt.at(pk, px)));
            t[0] += (akr - akx) * (bkx - bkr) + (ark - axk) * (bxk - brk);
            if two {
                t[1] += (aks - akx) * (bkx - bks) + (ask - axk) * (bxk - bsk);
            }
        }
    }
    let at_move =
        |u: usize, v: usize| if u > v { move_index(u as u32, v as u32) } else { move_index(v as u32, u as u32) };
    for (x, t) in acc.iter().enumerate().take(n) {
        if need(r, x) {
            delta[at_move(r, x) as usize] = t[0];
        }
        if two && need(s, x) {
            delta[at_move(s, x) as usize] = t[1];
        }
    }
    true
}

/// Rows k between two looks at the stop signal in `rows` on the CPU.
const ROWS_POLL: usize = 64;

/// Up to `moves` more moves of the walk `w` (after finishing its Δ table's build, where that
/// is not done: each build step costs about a move's work, and counts as one), as one block
/// of `device::ts::wide` makes them. Returns the moves made; stops early once the walk's
/// best reaches `rule.target` or `stop` says so (asked after every move and build step, and every `ROWS_POLL` rows k within them).
#[allow(clippy::too_many_arguments)]
pub fn wide_walk<G: Gene, E: Elem, A: Matrix<E>, B: Matrix<E>>(
    m: &WideMats<A, B>,
    w: WideWalk<G>,
    t: WideTables,
    rule: &WideRule,
    moves: u32,
    rng: &mut Xoshiro128,
    stop: impl Fn() -> bool,
) -> u32 {
    let n = w.p.len();
    let mut budget = moves;
    while let Some((lo, hi)) = build_step(n as u32, *w.built) {
        if budget == 0 || stop() {
            return 0;
        }
        if !rows(m, w.p, lo as usize, hi as usize, true, t.delta, t.terms, &stop) {
            return 0;
        }
        *w.built += 1;
        budget -= 1;
    }
    let mut cur = *w.cost;
    for it in 0..budget {
        if *w.best_cost <= rule.target || stop() {
            return it;
        }
        let now = *w.done as i32;
        let last = (*w.pending != NO_MOVE).then(|| unpack_move(*w.pending));
        if let Some((r, s)) = last {
            swap_terms(m.a, m.b, w.p, r as usize, s as usize, t.terms);
        }
        let mut pick = Candidate::NONE;
        let (mut u, mut v) = (1u32, 0u32);
        for d in t.delta[..move_count(n as u32) as usize].iter_mut() {
            if let Some((r, s)) = last
                && !touches(u, v, r, s)
            {
                *d = delta_update_terms(*d, &t.terms[u as usize], &t.terms[v as usize]);
            }
            if must_class(&pick, *d, now, rule.aspiration) {
                let (ui, vi) = (u as usize, v as usize);
                let class = move_class(
                    t.tabu[ui * n + w.p[vi].at()],
                    t.tabu[vi * n + w.p[ui].at()],
                    now,
                    cur + *d < *w.best_cost,
                    rule.aspiration,
                );
                let c = wide_candidate(*d, u, v, class);
                if c.better(&pick) {
                    pick = c;
                }
            }
            (u, v) = next_pair(u, v);
        }
        if rule.descent && pick.delta >= 0 {
            // A local minimum; the pass did the pending move's update.
            *w.pending = NO_MOVE;
            return it;
        }
        let (r, s) = wide_pair(&pick);
        let (ru, su) = (r as usize, s as usize);
        let (tr, ts) = rule.tenure.draw(rng);
        t.tabu[ru * n + w.p[ru].at()] = now.wrapping_add(tr);
        t.tabu[su * n + w.p[su].at()] = now.wrapping_add(ts);
        w.p.swap(ru, su);
        cur += pick.delta;
        if cur < *w.best_cost {
            *w.best_cost = cur;
            w.best.copy_from_slice(w.p);
        }
        *w.cost = cur;
        *w.done = w.done.wrapping_add(1);
        if !rows(m, w.p, ru, su, false, t.delta, t.terms, &stop) {
            // Stopped within the move's rows: the table is rebuilt if the walk goes on.
            (*w.built, *w.pending) = (0, NO_MOVE);
            return it + 1;
        }
        *w.pending = pack_move(r, s);
    }
    budget
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ls::{ASPIRED, TABOO};
    use crate::moves::move_pair;

    #[test]
    fn wide_tags_order_as_move_numbers() {
        let n = 2048u32;
        for k in [0u32, 1, 2, 1000, 1_000_000, move_count(n) - 2] {
            let (u, v) = move_pair(k);
            let (u2, v2) = move_pair(k + 1);
            let c = wide_candidate(5, u, v, AUTHORIZED);
            assert_eq!(wide_pair(&c), (u, v));
            assert!(c.better(&wide_candidate(5, u2, v2, AUTHORIZED)));
            assert!(wide_candidate(9, u2, v2, ASPIRED).better(&c));
            assert!(c.better(&wide_candidate(-9, u, v, TABOO)));
        }
    }

    #[test]
    fn build_steps_cover_every_row_once() {
        for n in [2u32, 3, 4, 5, 257, 300, 2048] {
            let mut seen = [0u8; 2048];
            for step in 0..build_steps(n) {
                let (lo, hi) = build_step(n, step).unwrap();
                seen[lo as usize] += 1;
                if hi != lo {
                    seen[hi as usize] += 1;
                }
            }
            assert_eq!(build_step(n, build_steps(n)), None, "n = {n}");
            assert!(seen[1..n as usize].iter().all(|&c| c == 1), "n = {n}");
            assert_eq!(seen[0], 0);
        }
    }

    #[test]
    fn a_skipped_class_never_wins() {
        let pick = wide_candidate(-3, 7, 2, AUTHORIZED);
        for class in [ASPIRED, AUTHORIZED, TABOO] {
            for d in [-3i64, 0, 5] {
                // What `must_class` skips: Δ not below, no long-term aspiration; a new best
                // (ASPIRED) with such a Δ would make `pick` one too, so only the others occur.
                if !must_class(&pick, d, 10, 1000) && class != ASPIRED {
                    assert!(!wide_candidate(d, 9, 1, class).better(&pick));
                }
            }
        }
        assert!(must_class(&pick, -4, 10, 1000));
        assert!(must_class(&pick, 5, 1000, 1000));
        assert!(must_class(&Candidate::NONE, 5, 10, 1000));
    }

    #[test]
    fn plans_fit_the_optin_or_move_the_terms_out() {
        let p = WidePlan::new(2048, 1024, 4, 232_448);
        assert!(p.terms_shared);
        let q = WidePlan::new(2048, 1024, 4, 65_536);
        assert!(!q.terms_shared && q.shared_bytes <= 65_536);
        assert_eq!(q.walk_bytes, p.walk_bytes + 2048 * 32);
        // Δ 16 MiB, tabu 16 MiB, B_φ and B_φᵀ 32 MiB a walk at n = 2048 (i32 entries).
        assert!(p.walk_bytes > 64 << 20 && p.walk_bytes < 65 << 20);
    }
}
