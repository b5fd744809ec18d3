//! The split thread mapping of the local search (`mata::Mapping::Split`, ours; seed 003's
//! MATA and plain mappings are in `ls.rs`). The same searches — robust tabu search with or
//! without Taillard's aspiration, 2-opt — choose the same moves, move for move, as
//! `ls::tabu_walk`, `ls::tabu_search` and `ls::two_opt` on the CPU; only the work of an
//! iteration is spread differently, so that no thread computes a whole O(n) move.
//!
//! The iteration itself (`drive`: the tabu matrix, φ, the argmin, the stop poll) is the
//! split family's and serves the sums mapping too (`sums.rs`); a `Pricer` says how the
//! moves are priced, here `SplitPricer`.
//!
//! # Thread mapping
//! Block k improves c-ant k (or runs walk k) with T threads (`mata::Shape::split`). An
//! iteration has two phases and two barriers:
//! 1. The move chosen last, (r, s), is applied: thread T − 1 draws the tenures, writes the tabu
//!    matrix and swaps φ; thread t writes the rows x ≡ t (mod T) of Eq. 5's per-facility
//!    terms for the new φ (`moves::facility_terms`) and, when the move gave a new best,
//!    bytes x of the best permutation. Barrier.
//! 2. Every move is priced. The O(n) moves (every move in a launch's first iteration, else
//!    the 2n − 3 that touch (r, s), `mata::touching_move`) go to groups of `lanes`
//!    consecutive threads of one warp: thread g of a group adds the terms k ≡ g (mod lanes)
//!    of Eq. 4 and shuffles sum them. Thread t prices the other moves k ≡ t (mod T) from
//!    two rows of terms in O(1). Each thread keeps its best move as a key (`DevCost::Key`: one
//!    u64 where Δ is an i32, ordered as `Candidate::better`); a shuffle argmin leaves the
//!    warp's best in lane 0, which writes it, with φ of its two facilities, to a slot. The second barrier
//!    also carries the stop poll (every iteration: thread 0 reads the stop word as phase 2
//!    begins); then every thread reads the slots and picks the same move.
//!
//! The swap is applied at the start of the next iteration (or after the last), so no thread
//! reads φ(r) or φ(s) while thread T − 1 writes them: the winner's φ(r), φ(s) travel in its
//! slot.
use core::marker::PhantomData;

use qapgpu_common::layout::LS_SCRATCH_PER_WARP;
use qapgpu_common::ls::{ASPIRED, Candidate, class_of_earlier, move_class};
use qapgpu_common::mata::touching_move;
use qapgpu_common::moves::{delta_offset_in, delta_update_terms_in, facility_terms, move_index, touches, unpack_pair};
use qapgpu_common::narrow_tabu;
use qapgpu_common::params::AcoParams;

use super::ls::{Search, Unit, null_swap, shared_row, tenure_rule, walk_launch};
use crate::block::warp_argmin;
use crate::intrinsics::*;
use crate::matrices::{DevCost, DevElem, DevMatrix};
use crate::rngs::load_rng;
use crate::stop::{claim_stop, read_stop};

/// The split mapping, as the module docs describe.
pub(crate) struct Split;

impl Search for Split {
    const EITHER: bool = false;

    #[inline(always)]
    unsafe fn search<
        E: DevElem,
        D: DevCost,
        const WALK: bool,
        const FAST: bool,
        const NARROW: bool,
        const GPAIRS: bool,
        M: DevMatrix<E>,
    >(
        p: &AcoParams,
        a: &M,
        b: &M,
        moves: u32,
    ) {
        unsafe { search::<E, D, WALK, M>(p, a, b, moves) }
    }
}

/// Shared-window addresses of the block's tables (`layout::LsLayout`).
#[derive(Clone, Copy)]
pub(super) struct Tables {
    pub perm: u64,
    pub best: u64,
    pub slots: u64,
    pub pairs: u64,
    pub terms: u64,
    pub delta: u64,
    /// The sums mapping's table H (`sums.rs`).
    pub sums: u64,
}

impl Tables {
    #[inline(always)]
    fn of(p: &AcoParams) -> Tables {
        let (lay, sb) = (&p.layout, shared_base());
        let at = |off: u32| sb + off as u64;
        Tables {
            perm: at(lay.perm),
            best: at(lay.best),
            slots: at(lay.scratch),
            pairs: at(lay.pairs),
            terms: at(lay.terms),
            delta: at(lay.delta),
            sums: at(lay.sums),
        }
    }

    #[inline(always)]
    pub unsafe fn phi(&self, x: u32) -> u32 {
        unsafe { ld_shared_u8(self.perm + x as u64) }
    }

    #[inline(always)]
    pub unsafe fn pair(&self, k: u32) -> (u32, u32) {
        unpack_pair(unsafe { ld_shared_u16(self.pairs + 2 * k as u64) })
    }

    /// `pair`, or where `GLOBAL` move k's pair from the global table `first_pairs` (plans
    /// without a shared one).
    #[inline(always)]
    pub unsafe fn pair_in<const GLOBAL: bool>(&self, k: u32, first_pairs: u64) -> (u32, u32) {
        if GLOBAL {
            unpack_pair(unsafe { *(first_pairs as *const u16).add(k as usize) } as u32)
        } else {
            unsafe { self.pair(k) }
        }
    }

    #[inline(always)]
    unsafe fn terms<D: DevCost>(&self, x: u32) -> [D; 4] {
        let at = self.terms + 4 * D::BYTES * x as u64;
        unsafe {
            [
                D::ld_shared(at),
                D::ld_shared(at + D::BYTES),
                D::ld_shared(at + 2 * D::BYTES),
                D::ld_shared(at + 3 * D::BYTES),
            ]
        }
    }

    #[inline(always)]
    unsafe fn set_terms<D: DevCost>(&self, x: u32, t: [D; 4]) {
        let at = self.terms + 4 * D::BYTES * x as u64;
        for (i, v) in t.into_iter().enumerate() {
            unsafe { D::st_shared(at + i as u64 * D::BYTES, v) };
        }
    }

    /// The block's winner from the `warps` slots, in every thread: lane w of each warp reads
    /// slot w, and the warp reduces the keys with shuffles (one key compare a step, as in
    /// `warp_argmin`; comparing `Candidate`s here was a sixth of the walk's instructions).
    /// `SEQUENTIAL`, up to `SEQUENTIAL_SLOTS` slots: every thread reads them all instead,
    /// one after another (tai35b's four warps: half the instructions of the shuffles).
    /// Pitfall: every lane of every warp calls it.
    #[inline(always)]
    unsafe fn winner<D: DevCost, const SEQUENTIAL: bool>(&self, warps: u32) -> (Candidate, u32) {
        if SEQUENTIAL && warps <= SEQUENTIAL_SLOTS {
            let (mut k, mut at) = (unsafe { D::ld_key(self.slots) }, self.slots);
            let mut slot = self.slots;
            for _ in 1..warps {
                slot += LS_SCRATCH_PER_WARP as u64;
                let o = unsafe { D::ld_key(slot) };
                // Strictly better: the first slot wins a tie, as the lowest lane does below.
                if D::less(&o, &k) {
                    (k, at) = (o, slot);
                }
            }
            return (D::candidate(k), unsafe { ld_shared_u32(at + 12) });
        }
        let lane = thread_idx_x() % 32;
        let (mut k, mut phis) = (D::NONE, 0);
        if lane < warps {
            let slot = self.slots + (lane * LS_SCRATCH_PER_WARP) as u64;
            unsafe {
                k = D::ld_key(slot);
                phis = ld_shared_u32(slot + 12);
            }
        }
        let mut off = warps.next_power_of_two() / 2;
        while off > 0 {
            let o = D::shfl_down_key(k, off);
            let o_phis = shfl_down_u32(phis, off);
            if D::less(&o, &k) {
                (k, phis) = (o, o_phis);
            }
            off >>= 1;
        }
        (D::candidate(D::shfl_idx_key(k, 0)), shfl_idx_u32(phis, 0))
    }

    #[inline(always)]
    fn delta_at<D: DevCost>(&self, k: u32) -> u64 {
        self.delta + D::BYTES * k as u64
    }
}

/// Most argmin slots (warps) that `Tables::winner` reads one after another in every thread.
const SEQUENTIAL_SLOTS: u32 = 8;

/// The move chosen last and what applying it needs.
#[derive(Clone, Copy)]
pub(super) struct Pending {
    pub r: u32,
    pub s: u32,
    /// φ(r), φ(s) before the swap.
    pub pr: u32,
    pub ps: u32,
    /// The iteration that chose it (its tabu entries count from there).
    pub at: i32,
    /// It gave the search a new best.
    pub improved: bool,
}

/// The terms of Eq. 4 for the swap (u, v) (φ(u) = pu, φ(v) = pv) of every facility
/// k ≡ g (mod lanes), k = u and k = v included (`moves::delta_offset_in` takes those two
/// out): `moves::delta_term_in` with the four A entries and two B rows walked by address.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn group_terms<E: DevElem, D: DevCost, M: DevMatrix<E>>(
    a: &M,
    b: &M,
    t: &Tables,
    n: u32,
    (u, v): (u32, u32),
    (pu, pv): (u32, u32),
    g: u32,
    lanes: u32,
) -> D {
    let es = core::mem::size_of::<E>() as u64;
    let row = n as u64 * es;
    let (ab, bb) = (a.base(), b.base());
    // a(k, u) and a(k, v) down columns u and v; a(u, k) and a(v, k) along rows u and v.
    let mut col = ab + g as u64 * row;
    let (cu, cv) = (u as u64 * es, v as u64 * es);
    let (ru, rv) = (ab + u as u64 * row, ab + v as u64 * row);
    let mut along = g as u64 * es;
    // b(φk, pv) − b(φk, pu) in columns pv and pu; b(pv, φk) − b(pu, φk) in rows pv and pu.
    let (bcu, bcv) = (bb + pu as u64 * es, bb + pv as u64 * es);
    let (bru, brv) = (bb + pu as u64 * row, bb + pv as u64 * row);
    let (down, across) = (lanes as u64 * row, lanes as u64 * es);
    let mut d = D::default();
    let mut k = g;
    while k < n {
        let pk = unsafe { t.phi(k) } as u64;
        let e = |m: &M, addr: u64| D::of(unsafe { m.load(addr) });
        let flow_in = e(a, col + cu).sub(e(a, col + cv));
        let dist_in = e(b, bcv + pk * row).sub(e(b, bcu + pk * row));
        let flow_out = e(a, ru + along).sub(e(a, rv + along));
        let dist_out = e(b, brv + pk * es).sub(e(b, bru + pk * es));
        d = d.add(flow_in.mul(dist_in)).add(flow_out.mul(dist_out));
        col += down;
        along += across;
        k += lanes;
    }
    d
}

/// How a search of the split family prices its moves; `drive` does everything else (the
/// tabu matrix, φ, the argmin, the stop poll), so the split and sums mappings choose the
/// same moves by construction wherever they price them the same.
pub(super) trait Pricer<D: DevCost> {
    /// `facility` does something: the driver then visits every facility when it applies a
    /// move, else only to copy a new best.
    const FACILITY: bool = true;
    /// The pricer's general kernel serves both roles (`Search::EITHER`).
    const EITHER: bool;
    /// Once, after the barrier that publishes the unit's φ; the driver's next barrier
    /// publishes what it writes.
    unsafe fn start(&self, t: &Tables);
    /// Facility x's share of applying `m` (x ≡ tid mod T, `px` = φ(x) after the swap).
    unsafe fn facility(&self, t: &Tables, m: &Pending, x: u32, px: u32);
    /// The rest of applying `m`. Pitfall: no barrier inside; the driver's next one
    /// publishes the writes.
    unsafe fn update(&self, t: &Tables, m: &Pending);
    /// Calls `consider(Δ, u, v, at)` for this thread's share of the moves, every move of the
    /// neighbourhood once per block; `at`: the indices of the move's two tabu entries,
    /// (u·row + φ(v), v·row + φ(u)) with `row` the tables' row length (`LsLayout::row`),
    /// where the pricer has φ at hand, else None (the argmin computes them if it needs
    /// them). `last`: the move applied since the previous call (None at a search's start).
    /// Pitfall: every thread calls it (it may shuffle).
    unsafe fn price(
        &self,
        t: &Tables,
        last: Option<Pending>,
        consider: &mut impl FnMut(D, u32, u32, Option<(u32, u32)>),
    );
    /// Whether the walk's table outlives the launch (`AcoParams::tables`): the driver then
    /// applies the last move to it too, and calls `save`. The default keeps none.
    fn keeps(&self) -> bool {
        false
    }
    /// Writes the table out, after the barrier that follows the last move's update.
    unsafe fn save(&self, _: &Tables) {}
}

/// The split mapping's pricing: O(n) moves over groups of lanes, O(1) moves from Eq. 5's
/// per-facility terms and the Δ table (module docs).
struct SplitPricer<'m, E, M> {
    elem: PhantomData<E>,
    a: &'m M,
    b: &'m M,
    n: u32,
    moves: u32,
    lanes: u32,
}

impl<E: DevElem, D: DevCost, M: DevMatrix<E>> Pricer<D> for SplitPricer<'_, E, M> {
    const EITHER: bool = false;

    #[inline(always)]
    unsafe fn start(&self, _: &Tables) {}

    #[inline(always)]
    unsafe fn facility(&self, t: &Tables, m: &Pending, x: u32, px: u32) {
        let row: [D; 4] = facility_terms(
            self.a,
            self.b,
            m.r as usize,
            m.s as usize,
            x as usize,
            px as usize,
            m.ps as usize,
            m.pr as usize,
        );
        unsafe { t.set_terms(x, row) };
    }

    #[inline(always)]
    unsafe fn update(&self, _: &Tables, _: &Pending) {}

    #[inline(always)]
    unsafe fn price(
        &self,
        t: &Tables,
        last: Option<Pending>,
        consider: &mut impl FnMut(D, u32, u32, Option<(u32, u32)>),
    ) {
        let (tid, threads) = (thread_idx_x(), block_dim_x());
        let (a, b, nu, lanes) = (self.a, self.b, self.n, self.lanes);
        let g = tid % lanes;
        let long = if last.is_none() { self.moves } else { 2 * nu - 3 };
        let rounds = (long * lanes).div_ceil(threads);
        for round in 0..rounds {
            let m = (round * threads + tid) / lanes;
            let active = m < long;
            let (u, v) = match last {
                _ if !active => (1, 0),
                None => unsafe { t.pair(m) },
                Some(l) => touching_move(nu, l.r, l.s, m),
            };
            let mut d = D::default();
            let (pu, pv) = if active { unsafe { (t.phi(u), t.phi(v)) } } else { (0, 0) };
            if active {
                if g == 0 {
                    d = delta_offset_in(a, b, u as usize, v as usize, pu as usize, pv as usize);
                }
                d = d.add(unsafe { group_terms(a, b, t, nu, (u, v), (pu, pv), g, lanes) });
            }
            // Every lane runs the shuffles (full mask); lane g = 0 ends with the group's sum.
            let mut off = lanes / 2;
            while off > 0 {
                d = d.add(d.shfl_down(off));
                off >>= 1;
            }
            if active && g == 0 {
                unsafe { D::st_shared(t.delta_at::<D>(move_index(u, v)), d) };
                consider(d, u, v, Some((u * nu + pv, v * nu + pu)));
            }
        }
        if let Some(l) = last {
            let mut k = tid;
            while k < self.moves {
                let (u, v) = unsafe { t.pair(k) };
                if !touches(u, v, l.r, l.s) {
                    let (tu, tv) = unsafe { (t.terms::<D>(u), t.terms::<D>(v)) };
                    let slot = t.delta_at::<D>(k);
                    let d = delta_update_terms_in(unsafe { D::ld_shared(slot) }, &tu, &tv);
                    unsafe { D::st_shared(slot, d) };
                    consider(d, u, v, None);
                }
                k += threads;
            }
        }
    }
}

#[inline(always)]
unsafe fn search<E: DevElem, D: DevCost, const WALK: bool, M: DevMatrix<E>>(p: &AcoParams, a: &M, b: &M, moves: u32) {
    let pricer = SplitPricer { elem: PhantomData, a, b, n: p.n, moves: p.moves, lanes: p.lanes };
    unsafe { drive::<D, WALK, false, false, false, _>(p, &pricer, moves) }
}

/// One block's search of the split family: the iteration of the module docs, with the
/// moves priced by `pricer`.
#[inline(always)]
///
/// `FAST`: the fast path's body (`ls::run_fast`: i32 costs, A, B and the tabu matrix in
/// shared memory; the host sets `LS_TABU_SHARED` only for a tabu search). Every move is
/// classed from its two tabu entries without a branch: a warp read them for some lane on
/// nearly every move anyway, through a generic pointer and behind two tests (tai35b's
/// walks: 36 of a move's 78 instructions). The winner is read from the slots one after
/// another (`Tables::winner`).
pub(super) unsafe fn drive<
    D: DevCost,
    const WALK: bool,
    const FAST: bool,
    const NARROW: bool,
    const GPAIRS: bool,
    P: Pricer<D>,
>(
    p: &AcoParams,
    pricer: &P,
    moves: u32,
) {
    let (tid, threads) = (thread_idx_x(), block_dim_x());
    let nu = p.n;
    // The tabu matrix's rows (`LsLayout::row`): n, or n + 1 in padded plans.
    let row = if FAST { shared_row(p, true) } else { nu };
    let t = Tables::of(p);
    let walk_kernel = walk_launch::<WALK, FAST>(p, P::EITHER);
    let unit = unsafe { Unit::begin::<NARROW>(p, walk_kernel, row) };
    let (tabu_search, tabu) = (unit.tabu_search, unit.tabu);
    let aspiration = if unit.walk { p.aspiration as i32 } else { 0 };
    // `NARROW`: entries are held above this base, and moves are classed against `now - base`.
    let tabu_base = unit.tabu_base;
    // The tabu matrix's shared-window address where `FAST`.
    let tabu_window = shared_base() + p.layout.tabu as u64;
    // Plans without a shared table of pairs (`GPAIRS`) read them from global memory.
    let mut k = if GPAIRS { p.moves } else { tid };
    while k < p.moves {
        unsafe { st_shared_u16(t.pairs + 2 * k as u64, *(p.first_pairs as *const u16).add(k as usize) as u32) };
        k += threads;
    }
    let mut rng = unsafe { load_rng(p.rng as *const u32, unit.blk, p.m as usize) };
    let rule = tenure_rule(p, unit.blk);
    let (mut cur, mut best_cost) = (unit.cost, unit.start_best());
    // The move chosen last (None before the first), and whether it awaits phase 1.
    let mut last: Option<Pending> = None;
    let mut pending = false;
    let mut iterations = moves;
    // Thread 0: this block claimed the stop word on reaching the target (`Unit::finish`).
    let mut hit = false;
    sync_threads();
    unsafe { pricer.start(&t) };
    sync_threads();

    // The thread that draws the tenures, writes the tabu matrix and swaps φ: the block's
    // last, which has no share of the sums table's update wherever n does not divide T
    // (`sums.rs`), so that this serial work does not lengthen the phase's slowest warp.
    let keeper = threads - 1;
    // Phase 1: applies `m`; `price`: also the pricer's share for the next scan.
    // Pitfall: no barrier inside; the caller's next one publishes the writes.
    let apply = |m: Pending, price: bool, rng: &mut qapgpu_common::rng::Xoshiro128| {
        let mut x = if (price && P::FACILITY) || m.improved { tid } else { nu };
        while x < nu {
            let px = if x == m.r {
                m.ps
            } else if x == m.s {
                m.pr
            } else {
                unsafe { t.phi(x) }
            };
            if price {
                unsafe { pricer.facility(&t, &m, x, px) };
            }
            if m.improved {
                unsafe { st_shared_u8(t.best + x as u64, px) };
            }
            x += threads;
        }
        if price {
            unsafe { pricer.update(&t, &m) };
        }
        if tid == keeper {
            unsafe {
                if tabu_search {
                    let (tr, ts) = rule.draw(rng);
                    let (ir, is) = (m.r * row + m.pr, m.s * row + m.ps);
                    if NARROW {
                        st_shared_u16(tabu_window + 2 * ir as u64, narrow_tabu::encode(m.at + tr, tabu_base) as u32);
                        st_shared_u16(tabu_window + 2 * is as u64, narrow_tabu::encode(m.at + ts, tabu_base) as u32);
                    } else {
                        *tabu.add(ir as usize) = m.at + tr;
                        *tabu.add(is as usize) = m.at + ts;
                    }
                }
                st_shared_u8(t.perm + m.r as u64, m.ps);
                st_shared_u8(t.perm + m.s as u64, m.pr);
            }
        }
    };

    // Read once: the compiler cannot keep them across the loop's shared-memory stores.
    let (launch_iterations, target) = (moves, p.target);
    let mut it = 0;
    while it < launch_iterations {
        // Tabu entries hold absolute iteration numbers: a walk counts on from `done`.
        let now = if unit.walk { (unit.done as i32).wrapping_add(it as i32) } else { it as i32 };
        if let (Some(m), true) = (last, pending) {
            apply(m, true, &mut rng);
            pending = false;
            sync_threads();
        }

        // Phase 2: every move's cost and the warp's best candidate. Thread 0 reads the stop
        // word first and tests it at the barrier, so the read costs no wait and every
        // iteration polls (a block that reaches the target stops the others within one).
        let stop_word = if tid == 0 { read_stop(p.stop) } else { 0 };
        let mut pick = D::NONE;
        // A move gives a new best when cur + Δ < best_cost, i.e. Δ < room (both are costs, so
        // neither side overflows), i.e. Δ ≤ ceiling in the move-cost type.
        let ceiling = D::ceiling(best_cost - cur);
        // `now` as the fast path's tabu entries are held (above `tabu_base` where `NARROW`).
        let now_held = if NARROW { now.wrapping_sub(tabu_base) } else { now };
        let mut consider = |d: D, u: u32, v: u32, at: Option<(u32, u32)>| {
            // Null swaps are skipped by the walks off the fast path (`ls::null_swap`).
            if !FAST && unit.walk && d == D::default() && unsafe { null_swap(p, u, v, t.phi(u), t.phi(v)) } {
                return;
            }
            let entries = || at.unwrap_or_else(|| unsafe { (u * row + t.phi(v), v * row + t.phi(u)) });
            if FAST {
                let (iu, iv) = entries();
                let until = if NARROW {
                    unsafe {
                        (ld_shared_u16(tabu_window + 2 * iu as u64) as i32)
                            .min(ld_shared_u16(tabu_window + 2 * iv as u64) as i32)
                    }
                } else {
                    unsafe {
                        (ld_shared_u32(tabu_window + 4 * iu as u64) as i32)
                            .min(ld_shared_u32(tabu_window + 4 * iv as u64) as i32)
                    }
                };
                let c = D::key(class_of_earlier(until, now_held, d.at_most(ceiling), aspiration), d, u, v);
                if D::less(&c, &pick) {
                    pick = c;
                }
                return;
            }
            // ASPIRED is the best class, and every new best has it (`move_class`): a move
            // that cannot beat the pick as ASPIRED is dropped, and a new best is ranked,
            // before its tabu entries are read (the same choice, fewer loads).
            let best_case = D::key(ASPIRED, d, u, v);
            if !D::less(&best_case, &pick) {
                return;
            }
            pick = if !tabu_search || d.at_most(ceiling) {
                best_case
            } else {
                // Indices in 32 bits: n² < 2³², and 64-bit index arithmetic costs a move
                // a few instructions more.
                let (iu, iv) = entries();
                let until = unsafe { (*tabu.add(iu as usize), *tabu.add(iv as usize)) };
                let c = D::key(move_class(until.0, until.1, now, false, aspiration), d, u, v);
                if D::less(&c, &pick) { c } else { pick }
            };
        };
        unsafe { pricer.price(&t, last, &mut consider) };
        let pick = warp_argmin::<D>(pick);
        if tid % 32 == 0 {
            let slot = t.slots + ((tid / 32) * LS_SCRATCH_PER_WARP) as u64;
            // φ of the warp's two facilities, read before anyone swaps them (phase 1).
            let c = D::candidate(pick);
            let (u, v) = c.pair();
            let phis = if c.tag == Candidate::NONE.tag { 0 } else { unsafe { t.phi(u) | t.phi(v) << 8 } };
            unsafe {
                D::st_key(slot, pick);
                st_shared_u32(slot + 12, phis);
            }
        }
        // Publishes the slots, and whether the host asked to stop.
        let stop = sync_threads_or(stop_word != 0);
        let (win, phis) = unsafe { t.winner::<D, FAST>(threads / 32) };
        // The move and every decision below are the same in every thread (uniform branches).
        if !tabu_search && win.delta >= 0 {
            iterations = it + 1;
            break;
        }
        let (r, s) = win.pair();
        cur += win.delta;
        let improved = tabu_search && cur < best_cost;
        if improved {
            best_cost = cur;
        }
        last = Some(Pending { r, s, pr: phis & 0xFF, ps: phis >> 8, at: now, improved });
        pending = true;
        // The run's target: this block is done, and the others stop at their next poll.
        let reached = if tabu_search { best_cost } else { cur } <= target;
        if reached && tid == 0 {
            hit = claim_stop(p.stop);
        }
        if stop || reached {
            iterations = it + 1;
            break;
        }
        it += 1;
    }
    let keep = walk_kernel && pricer.keeps();
    if let (Some(m), true) = (last, pending) {
        apply(m, keep, &mut rng);
    }
    sync_threads();
    if keep {
        unsafe { pricer.save(&t) };
    }
    unsafe { unit.finish::<NARROW>(p, cur, best_cost, iterations, &rng, keeper, hit, row) };
}
