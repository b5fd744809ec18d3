//! The cellular GA's last steps of a generation on one individual per block: exchange
//! mutation and transposition (not for the elite), then 2-opt or greedy 2-opt passes (one,
//! the thesis's, or `CgaParams::passes`, or until a pass improves nothing) in one of two
//! thread mappings.
//!
//! # Thread mapping
//! Block k is individual k; its permutation sits in shared memory. Thread 0 alone mutates
//! and transposes (a few random draws from k's stream, as the CPU twin). `gene` mapping
//! (the thesis's): for each swap in `moves` numbering, thread t adds the terms of genes
//! t, t + T, …, and a block-wide sum gives Δ. `move` mapping: thread t owns the moves
//! t, t + T, …, computes their Δ in O(n), and (greedy) keeps them in a table updated in
//! O(1) after each applied swap; a block argmin finds the best (2-opt) or the first
//! improving move at or after the scan position (greedy), so both mappings give exactly
//! the sequential `cga::two_opt_pass` / `cga::greedy_pass`.
use core::slice;

use qapgpu_common::cga::{CgaBest, PASS_STOP_POLL, Pass, exchange, transpose};
use qapgpu_common::cost::{swap_delta_base, swap_delta_term};
use qapgpu_common::elem::Elem;
use qapgpu_common::ls::Candidate;
use qapgpu_common::matrix::Matrix;
use qapgpu_common::moves::{
    delta_full, delta_update, move_count, move_index, move_pair, next_pair, pack_pair, touches,
};
use qapgpu_common::params::{CGA_DELTA_SHARED, CGA_MOVE_MAPPING, CgaParams};

use super::population;
use crate::block::{block_argmin, block_copy_bytes, block_cost, block_sum_i64};
use crate::intrinsics::*;
use crate::matrices::{DevElem, View};
use crate::rngs::{load_rng, store_rng};
use crate::stop::stop_requested;

/// Swaps (gene mapping) or applied moves (move mapping) between two polls of the stop word.
const STOP_POLL: u32 = PASS_STOP_POLL;

/// The move `steps` places after (u, v) in numbering order.
#[inline(always)]
fn advance_pair(u: u32, v: u32, steps: u32) -> (u32, u32) {
    let (mut u, mut v) = (u, v + steps);
    while v >= u {
        v -= u;
        u += 1;
    }
    (u, v)
}

/// Thread 0 swaps genes r and s; the barrier publishes it.
#[inline(always)]
unsafe fn apply(perm: *mut u8, r: u32, s: u32) {
    if thread_idx_x() == 0 {
        unsafe { core::ptr::swap(perm.add(r as usize), perm.add(s as usize)) };
    }
    sync_threads();
}

/// One pass with one thread per gene: Δ of every swap as a block-wide sum.
#[inline(always)]
unsafe fn gene_pass<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &CgaParams,
    perm: *mut u8,
    mut cost: i64,
    scratch: u64,
) -> i64 {
    let (n, tid, step) = (p.n as usize, thread_idx_x() as usize, block_dim_x() as usize);
    let (greedy, record) = (p.pass != Pass::TwoOpt as u32, p.pass == Pass::Record as u32);
    let (mut best, mut pick) = (0i64, (0u32, 0u32));
    let (mut u, mut v) = (1u32, 0u32);
    for k in 0..move_count(p.n) {
        let view = unsafe { slice::from_raw_parts(perm as *const u8, n) };
        let mut part = if tid == 0 { swap_delta_base(a, b, view, u as usize, v as usize) } else { 0 };
        let mut g = tid;
        while g < n {
            part += swap_delta_term(a, b, view, u as usize, v as usize, g);
            g += step;
        }
        let d = unsafe { block_sum_i64(part, scratch) };
        if greedy {
            // `best` is the threshold: 0, or (Record) the last applied Δ.
            if d < best {
                unsafe { apply(perm, u, v) };
                cost += d;
                if record {
                    best = d;
                }
            }
        } else if d < best {
            (best, pick) = (d, (u, v));
        }
        if k % STOP_POLL == STOP_POLL - 1 && sync_threads_or(tid == 0 && stop_requested(p.stop)) {
            break;
        }
        (u, v) = next_pair(u, v);
    }
    if !greedy && best < 0 {
        unsafe { apply(perm, pick.0, pick.1) };
        cost += best;
    }
    cost
}

/// One pass with one thread per move.
#[inline(always)]
unsafe fn move_pass<E: Elem, A: Matrix<E>, B: Matrix<E>>(
    a: &A,
    b: &B,
    p: &CgaParams,
    perm: *mut u8,
    mut cost: i64,
    scratch: u64,
    delta: *mut i64,
) -> i64 {
    let (n, tid, step) = (p.n as usize, thread_idx_x(), block_dim_x());
    let moves = move_count(p.n);
    let view = || unsafe { slice::from_raw_parts(perm as *const u8, n) };
    let first = if tid < moves { move_pair(tid) } else { (0, 0) };
    if p.pass == Pass::TwoOpt as u32 {
        let mut c = Candidate::NONE;
        let (mut k, (mut u, mut v)) = (tid, first);
        while k < moves {
            let d = delta_full(a, b, view(), u as usize, v as usize);
            let o = Candidate::new(d, u, v, true);
            if o.better(&c) {
                c = o;
            }
            k += step;
            (u, v) = advance_pair(u, v, step);
        }
        let pick = unsafe { block_argmin(c, scratch) };
        if pick.delta < 0 {
            let (r, s) = pick.pair();
            sync_threads(); // every thread has read the argmin slots
            unsafe { apply(perm, r, s) };
            cost += pick.delta;
        }
        return cost;
    }
    // Greedy and Record: the table of every move's Δ for the permutation as it stands;
    // a move is taken when its Δ is below `threshold` (0, or Record's last applied Δ).
    let record = p.pass == Pass::Record as u32;
    let mut threshold = 0i64;
    let (mut k, (mut u, mut v)) = (tid, first);
    while k < moves {
        unsafe { *delta.add(k as usize) = delta_full(a, b, view(), u as usize, v as usize) };
        k += step;
        (u, v) = advance_pair(u, v, step);
    }
    sync_threads();
    // This thread's first move at or after the scan position.
    let (mut cur, mut cur_pair) = (tid, first);
    let mut applied = 0u32;
    loop {
        let mut c = Candidate::NONE;
        let (mut k, (mut u, mut v)) = (cur, cur_pair);
        while k < moves {
            if unsafe { *delta.add(k as usize) } < threshold {
                c = Candidate { delta: -1, tag: pack_pair(u, v) };
                break;
            }
            k += step;
            (u, v) = advance_pair(u, v, step);
        }
        let pick = unsafe { block_argmin(c, scratch) };
        if pick.delta == Candidate::NONE.delta {
            break;
        }
        let (r, s) = pick.pair();
        let at = move_index(r, s);
        let d = unsafe { *delta.add(at as usize) };
        sync_threads(); // Δ(r, s) and the argmin slots are read before anything changes
        unsafe { apply(perm, r, s) };
        cost += d;
        if record {
            threshold = d;
        }
        // Moves after (r, s) are brought up to date for the new permutation.
        while cur <= at {
            cur += step;
            cur_pair = advance_pair(cur_pair.0, cur_pair.1, step);
        }
        let (mut k, (mut u, mut v)) = (cur, cur_pair);
        while k < moves {
            let slot = unsafe { delta.add(k as usize) };
            unsafe {
                *slot = if touches(u, v, r, s) {
                    delta_full(a, b, view(), u as usize, v as usize)
                } else {
                    delta_update(a, b, view(), *slot, r as usize, s as usize, u as usize, v as usize)
                };
            }
            k += step;
            (u, v) = advance_pair(u, v, step);
        }
        applied += 1;
        if sync_threads_or(tid == 0 && applied % STOP_POLL == 0 && stop_requested(p.stop)) {
            break;
        }
    }
    cost
}

#[inline(always)]
unsafe fn run<E: DevElem>(p: &CgaParams) {
    let (tid, blk, total) = (thread_idx_x(), block_idx_x() as usize, population(p));
    if blk >= total {
        return;
    }
    let n = p.n as usize;
    let (a, b) = (View::<E, _>::global(p.a, n), View::<E, _>::global(p.b, n));
    let smem = shared_generic();
    let lay = &p.layout;
    let scratch = shared_base() + lay.scratch as u64;
    let perm = unsafe { smem.add(lay.perm as usize) };
    let row = unsafe { (p.pop as *mut u8).add(blk * p.stride as usize) };
    unsafe { block_copy_bytes(perm, row, n) };
    let mut cost = unsafe { *(p.costs as *const i64).add(blk) };
    let elite = unsafe { (*(p.best as *const CgaBest)).elite } as usize;
    sync_threads();
    if blk != elite {
        let mut changed = false;
        if tid == 0 {
            let mut rng = unsafe { load_rng(p.rng as *const u32, blk, total) };
            let view = unsafe { slice::from_raw_parts_mut(perm, n) };
            changed = exchange(&mut rng, view, p.pm_threshold);
            changed |= transpose(&mut rng, view, p.pt_threshold);
            unsafe { store_rng(p.rng as *mut u32, blk, total, &rng) };
        }
        if sync_threads_or(changed) {
            cost = unsafe { block_cost(&a, &b, slice::from_raw_parts(perm as *const u8, n), scratch) };
        }
    }
    let delta = unsafe {
        if p.flags & CGA_DELTA_SHARED != 0 {
            smem.add(lay.delta as usize) as *mut i64
        } else {
            (p.delta as *mut i64).add(blk * move_count(p.n) as usize)
        }
    };
    // `p.passes` passes, or until one improves nothing (`cga::local_search` on the CPU);
    // every thread holds the same cost, so every thread leaves the loop together.
    let mut done = 0u32;
    loop {
        let before = cost;
        cost = if p.flags & CGA_MOVE_MAPPING != 0 {
            unsafe { move_pass(&a, &b, p, perm, cost, scratch, delta) }
        } else {
            unsafe { gene_pass(&a, &b, p, perm, cost, scratch) }
        };
        done += 1;
        if sync_threads_or(cost >= before || done == p.passes || (tid == 0 && stop_requested(p.stop))) {
            break;
        }
    }
    sync_threads();
    unsafe {
        block_copy_bytes(row, perm, n);
        if tid == 0 {
            *(p.costs as *mut i64).add(blk) = cost;
        }
    }
}

macro_rules! ls_kernel {
    ($t:ty, $name:ident) => {
        /// Exchange mutation and transposition of every individual but the elite, then one
        /// 2-opt or greedy 2-opt pass (`gene` or `move` mapping).
        ///
        /// # Safety
        /// `p` points to a `CgaParams` whose buffers hold P = w·h individuals and whose
        /// `best.elite` was set by `cga_best`; launch grid = P, block = `CgaLayout::threads`
        /// (a multiple of 32), with `p.layout.total` bytes of dynamic shared memory.
        ///
        /// # Thread mapping
        /// Block = individual; threads map to genes or moves as the module docs say.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(p: *const CgaParams) {
            unsafe { run::<$t>(&*p) }
        }
    };
}
ls_kernel!(u16, cga_local_search_u16);
ls_kernel!(i32, cga_local_search_i32);
