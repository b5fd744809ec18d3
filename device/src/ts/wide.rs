//! The wide path's walk kernel: `moves` more moves of every robust tabu walk above n = 256,
//! one block a walk, every table in global memory (`qapgpu_common::wide`, whose
//! `wide_walk` is the CPU twin: the same move at every step).
//!
//! A move's work, in block-wide phases separated by barriers:
//! 1. the pending move's per-facility terms (Eq. 5), one facility a thread;
//! 2. one pass over the Δ table, a move a thread in strides of the block: Eq. 5's update
//!    where the move does not touch the pending one, then the argmin (tabu entries read
//!    only where `wide::must_class` says);
//! 3. thread 0 applies the chosen move (tabu entries, the swap in shared memory);
//! 4. the moves touching it, rows r and s of the table, recomputed from Eq. 4: a thread a
//!    facility x, a loop over k reading row k of A, Aᵀ, B and Bᵀ (coalesced or within one
//!    row), so that no load strides down a column.
//!
//! The Δ table's build (Eq. 4 for every move, O(n³)) runs the same rows two at a time
//! (`wide::build_step`), a step per unit of the launch's budget, so a launch's length stays
//! about `moves` moves' work and the stop word is read between steps.
use qapgpu_common::ls::{Candidate, Tenure, TenureLaw, move_class};
use qapgpu_common::moves::{
    delta_offset_in, delta_update_terms, facility_terms, move_count, move_index, move_pair, touches,
};
use qapgpu_common::rng::Xoshiro128;
use qapgpu_common::wide::{
    NO_MOVE, WideParams, build_step, must_class, pack_move, unpack_move, wide_candidate, wide_pair,
    wide_scratch_offset, wide_shared_base,
};

use crate::block::block_argmin;
use crate::intrinsics::*;
use crate::matrices::{DevElem, DevMatrix, Global, View};
use crate::stop::{claim_stop, read_stop};

/// Facilities x a thread keeps in Eq. 4's rows (`Walk::rows`): n ≤ `MAX_X` × threads
/// (`WidePlan`: 2048 with 512 threads).
const MAX_X: usize = 4;

/// What every thread of a walk's block reads in its phases.
struct Walk<E: DevElem> {
    n: usize,
    a: View<E, Global>,
    b: View<E, Global>,
    at: u64,
    /// B_φ (b[φ(i)][φ(j)] at (i, j)) and its transpose: B permuted by the walk's solution, so
    /// that Eq. 4's loop reads rows of them in order instead of gathering B's entries.
    bp: *mut E,
    bpt: *mut E,
    /// The current solution in shared memory (generic pointer).
    p: *mut u16,
    /// The terms: shared or the walk's global rows (generic pointer).
    terms: *mut [i64; 4],
    delta: *mut i64,
    tabu: *mut i32,
    /// The argmin's scratch (shared window).
    scratch: u64,
}

impl<E: DevElem> Walk<E> {
    #[inline(always)]
    fn gene(&self, i: usize) -> usize {
        // SAFETY: i < n, inside the block's solution.
        unsafe { *self.p.add(i) as usize }
    }

    #[inline(always)]
    fn entry(base: u64, idx: usize) -> i64 {
        // SAFETY: idx < n², inside the matrix the host placed at `base`.
        unsafe { E::ld_global_nc(base + (idx * core::mem::size_of::<E>()) as u64).to_i64() }
    }

    /// Entry `idx` of the walk's matrix at `base` (`Walk::bp`, `Walk::bpt`), which the block
    /// writes: a coherent load.
    #[inline(always)]
    fn own(base: *const E, idx: usize) -> i64 {
        // SAFETY: idx < n², inside the walk's matrix.
        unsafe { (*base.add(idx)).to_i64() }
    }

    /// Rows r and s of the Δ table for the block's solution (Eq. 4): every move (r, x) and
    /// (s, x), or with `build` only those with x below the row. r = s: row r alone. The
    /// loop runs k outside: each thread keeps the sums of its (at most `MAX_X`) facilities x
    /// in registers, reads the eight entries of row k at r and s once (the same for every
    /// thread: broadcasts), and row k of A, Aᵀ, B_φ and B_φᵀ at its x (coalesced).
    /// Pitfall: every thread of the block calls it; the writes are published at the next barrier.
    #[inline(always)]
    unsafe fn rows(&self, r: usize, s: usize, build: bool) {
        let n = self.n;
        let (tid, step) = (thread_idx_x() as usize, block_dim_x() as usize);
        let (pr, ps) = (self.gene(r), self.gene(s));
        let two = r != s;
        let need_r = |x: usize| if build { x < r } else { x != r };
        let need_s = |x: usize| two && if build { x < s } else { x != s && x != r };
        let (mut dr, mut ds) = ([0i64; MAX_X], [0i64; MAX_X]);
        for j in 0..MAX_X {
            let x = tid + j * step;
            if x < n {
                let px = self.gene(x);
                if need_r(x) {
                    dr[j] = delta_offset_in::<i64, E, _, _>(&self.a, &self.b, r, x, pr, px);
                }
                if need_s(x) {
                    ds[j] = delta_offset_in::<i64, E, _, _>(&self.a, &self.b, s, x, ps, px);
                }
            }
        }
        let (a, at) = (self.a.base(), self.at);
        for k in 0..n {
            let row = k * n;
            let (akr, ark) = (Self::entry(a, row + r), Self::entry(at, row + r));
            let (bkr, brk) = (Self::own(self.bp, row + r), Self::own(self.bpt, row + r));
            let (aks, ask) = (Self::entry(a, row + s), Self::entry(at, row + s));
            let (bks, bsk) = (Self::own(self.bp, row + s), Self::own(self.bpt, row + s));
            for j in 0..MAX_X {
                let x = tid + j * step;
                if x < n {
                    let (akx, axk) = (Self::entry(a, row + x), Self::entry(at, row + x));
                    let (bkx, bxk) = (Self::own(self.bp, row + x), Self::own(self.bpt, row + x));
                    dr[j] += (akr - akx) * (bkx - bkr) + (ark - axk) * (bxk - brk);
                    ds[j] += (aks - akx) * (bkx - bks) + (ask - axk) * (bxk - bsk);
                }
            }
        }
        let at_move =
            |u: usize, v: usize| if u > v { move_index(u as u32, v as u32) } else { move_index(v as u32, u as u32) };
        for j in 0..MAX_X {
            let x = tid + j * step;
            // SAFETY: move numbers are below move_count(n), inside the walk's table.
            unsafe {
                if x < n && need_r(x) {
                    *self.delta.add(at_move(r, x) as usize) = dr[j];
                }
                if x < n && need_s(x) {
                    *self.delta.add(at_move(s, x) as usize) = ds[j];
                }
            }
        }
    }

    /// B_φ and B_φᵀ of the block's solution (`Walk::bp`): the walk's start, and after a restart.
    /// Pitfall: every thread calls it; a barrier must follow before they are read.
    #[inline(always)]
    unsafe fn fill_permuted_b(&self) {
        let n = self.n;
        let b = self.b.base();
        let mut idx = thread_idx_x() as usize;
        while idx < n * n {
            let (pi, pj) = (self.gene(idx / n), self.gene(idx % n));
            // SAFETY: idx < n², inside the walk's matrices; pi, pj < n.
            unsafe {
                *self.bp.add(idx) = E::ld_global_nc(b + ((pi * n + pj) * core::mem::size_of::<E>()) as u64);
                *self.bpt.add(idx) = E::ld_global_nc(b + ((pj * n + pi) * core::mem::size_of::<E>()) as u64);
            }
            idx += block_dim_x() as usize;
        }
    }

    /// B_φ and B_φᵀ after the swap of r and s: their rows r and s change places, then their
    /// columns r and s. Pitfall: every thread calls it (it has a barrier; another must follow).
    #[inline(always)]
    unsafe fn swap_permuted_b(&self, r: usize, s: usize) {
        let n = self.n;
        let (tid, step) = (thread_idx_x() as usize, block_dim_x() as usize);
        // SAFETY: every index is below n², inside the walk's matrices.
        unsafe {
            let mut j = tid;
            while j < n {
                core::ptr::swap(self.bp.add(r * n + j), self.bp.add(s * n + j));
                core::ptr::swap(self.bpt.add(r * n + j), self.bpt.add(s * n + j));
                j += step;
            }
            sync_threads();
            let mut j = tid;
            while j < n {
                core::ptr::swap(self.bp.add(j * n + r), self.bp.add(j * n + s));
                core::ptr::swap(self.bpt.add(j * n + r), self.bpt.add(j * n + s));
                j += step;
            }
        }
    }

    /// The terms of the pending move (r, s) on the block's solution, a facility a thread.
    /// Pitfall: every thread calls it; a barrier must follow before they are read.
    #[inline(always)]
    unsafe fn put_terms(&self, r: usize, s: usize) {
        let (pr, ps) = (self.gene(r), self.gene(s));
        let mut x = thread_idx_x() as usize;
        while x < self.n {
            let t = facility_terms::<i64, E, _, _>(&self.a, &self.b, r, s, x, self.gene(x), pr, ps);
            // SAFETY: x < n, inside the terms.
            unsafe { *self.terms.add(x) = t };
            x += block_dim_x() as usize;
        }
    }

    /// One pass over the Δ table: Eq. 5 for the pending move (if any) where it does not
    /// touch the move, then the block's best candidate (`wide_walk`'s rule).
    /// Pitfall: every thread calls it (the argmin has barriers).
    #[inline(always)]
    unsafe fn scan(&self, last: Option<(u32, u32)>, now: i32, aspiration: i32, room: i64) -> Candidate {
        let n = self.n;
        let count = move_count(n as u32);
        let step = block_dim_x();
        let mut k = thread_idx_x();
        let (mut u, mut v) = if k < count { move_pair(k) } else { (0, 0) };
        let mut pick = Candidate::NONE;
        while k < count {
            // SAFETY: k < move_count(n), inside the walk's table; u, v < n.
            unsafe {
                let slot = self.delta.add(k as usize);
                let mut d = *slot;
                if let Some((r, s)) = last
                    && !touches(u, v, r, s)
                {
                    d = delta_update_terms(d, &*self.terms.add(u as usize), &*self.terms.add(v as usize));
                    *slot = d;
                }
                if must_class(&pick, d, now, aspiration) {
                    let (ui, vi) = (u as usize, v as usize);
                    // Entries hold until + 1 (`WideParams::tabu`).
                    let class = move_class(
                        (*self.tabu.add(ui * n + self.gene(vi))).wrapping_sub(1),
                        (*self.tabu.add(vi * n + self.gene(ui))).wrapping_sub(1),
                        now,
                        d < room,
                        aspiration,
                    );
                    let c = wide_candidate(d, u, v, class);
                    if c.better(&pick) {
                        pick = c;
                    }
                }
            }
            k += step;
            v += step;
            while v >= u {
                v -= u;
                u += 1;
            }
        }
        unsafe { block_argmin(pick, self.scratch) }
    }
}

/// The tenure law of `WideParams::tenure_law`.
#[inline(always)]
fn law(code: u32) -> TenureLaw {
    match code {
        0 => TenureLaw::Cubic,
        1 => TenureLaw::Uniform,
        _ => TenureLaw::Mixed,
    }
}

/// Whether the host asked to stop or a walk reached the target, the same answer in every
/// thread (a barrier).
#[inline(always)]
fn stop_asked(word: u64) -> bool {
    sync_threads_or(thread_idx_x() == 0 && read_stop(word) != 0)
}

/// The body of the `ts_wide_walk_*` kernels (`search::kernels`, `Body::Wide`) for element
/// type `E`.
/// Pitfall: as the kernels' `# Safety`.
#[inline(always)]
pub unsafe fn walk<E: DevElem>(p: &WideParams, moves: u32) {
    let (n, w) = (p.n as usize, block_idx_x() as usize);
    let tid = thread_idx_x() as usize;
    let nn = n * n;
    let shared = shared_generic();
    let base = wide_shared_base(p.n, block_dim_x());
    let terms = if p.terms == 0 {
        unsafe { shared.add(base as usize) as *mut [i64; 4] }
    } else {
        unsafe { (p.terms as *mut [i64; 4]).add(w * n) }
    };
    let ctx = Walk::<E> {
        n,
        a: View::global(p.a, n),
        b: View::global(p.b, n),
        at: p.at,
        bp: unsafe { (p.bp as *mut E).add(w * nn) },
        bpt: unsafe { (p.bpt as *mut E).add(w * nn) },
        p: shared as *mut u16,
        terms,
        delta: unsafe { (p.delta as *mut i64).add(w * move_count(p.n) as usize) },
        tabu: unsafe { (p.tabu as *mut i32).add(w * nn) },
        scratch: shared_base() + wide_scratch_offset(p.n) as u64,
    };
    // SAFETY: every per-walk array has m rows (`WideParams`); w < m.
    unsafe {
        let row = (p.perms as *mut u16).add(w * n);
        let best_row = (p.bests as *mut u16).add(w * n);
        let mut i = tid;
        while i < n {
            *ctx.p.add(i) = *row.add(i);
            i += block_dim_x() as usize;
        }
        let cost = (p.costs as *mut i64).add(w);
        let best_cost = (p.best_costs as *mut i64).add(w);
        let done = (p.done as *mut u32).add(w);
        let built = (p.built as *mut u32).add(w);
        let pending = (p.pending as *mut u32).add(w);
        let rng_at = (p.rngs as *mut Xoshiro128).add(w);
        let (mut cur, mut best, mut it_done, mut steps, mut last) = (*cost, *best_cost, *done, *built, *pending);
        let mut rng = if tid == 0 { (*rng_at).clone() } else { Xoshiro128 { s: [1, 0, 0, 0] } };
        let tenure =
            Tenure { list_size: p.tenure_list, per_move: p.tenure_per_move != 0, law: law(p.tenure_law) }.of_unit(w);
        sync_threads();
        let mut budget = moves;
        let mut made = 0u32;
        if steps == 0 && budget > 0 {
            ctx.fill_permuted_b();
            sync_threads();
        }
        while let Some((lo, hi)) = build_step(p.n, steps) {
            if budget == 0 || stop_asked(p.stop) {
                budget = 0;
                break;
            }
            ctx.rows(lo as usize, hi as usize, true);
            sync_threads();
            steps += 1;
            budget -= 1;
        }
        while made < budget && best > p.target && !stop_asked(p.stop) {
            let now = it_done as i32;
            let prior = (last != NO_MOVE).then(|| unpack_move(last));
            if let Some((r, s)) = prior {
                ctx.put_terms(r as usize, s as usize);
                sync_threads();
            }
            // A new best is a move with cur + Δ < best, i.e. Δ < best − cur.
            let pick = ctx.scan(prior, now, p.aspiration, best - cur);
            if p.descent != 0 && pick.delta >= 0 {
                // A local minimum: the pending move's update is done, none is due.
                last = NO_MOVE;
                break;
            }
            let (r, s) = wide_pair(&pick);
            let (ru, su) = (r as usize, s as usize);
            if tid == 0 {
                let (tr, ts) = tenure.draw(&mut rng);
                *ctx.tabu.add(ru * n + ctx.gene(ru)) = now.wrapping_add(tr).wrapping_add(1);
                *ctx.tabu.add(su * n + ctx.gene(su)) = now.wrapping_add(ts).wrapping_add(1);
            }
            // Every thread has read the solution for the argmin; now swap it.
            sync_threads();
            if tid == 0 {
                let (gr, gs) = (*ctx.p.add(ru), *ctx.p.add(su));
                *ctx.p.add(ru) = gs;
                *ctx.p.add(su) = gr;
            }
            ctx.swap_permuted_b(ru, su);
            sync_threads();
            cur += pick.delta;
            if cur < best {
                best = cur;
                let mut i = tid;
                while i < n {
                    *best_row.add(i) = *ctx.p.add(i);
                    i += block_dim_x() as usize;
                }
            }
            ctx.rows(ru, su, false);
            sync_threads();
            last = pack_move(r, s);
            it_done = it_done.wrapping_add(1);
            made += 1;
            if best <= p.target && tid == 0 {
                claim_stop(p.stop);
            }
        }
        let mut i = tid;
        while i < n {
            *row.add(i) = *ctx.p.add(i);
            i += block_dim_x() as usize;
        }
        if tid == 0 {
            (*cost, *best_cost, *done, *built, *pending) = (cur, best, it_done, steps, last);
            *(p.moved as *mut u32).add(w) = made;
            *rng_at = rng;
        }
    }
}
