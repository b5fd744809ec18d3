//! GA kernels of seeds 000 (island GA) and 001 (independent runs with restarts).
//!
//! # Thread mapping
//! One block is one subpopulation of N individuals (N = blockDim.x, a multiple of 32); one
//! thread is one individual: thread i owns row i of pool P and row i of pool W in dynamic
//! shared memory, its cost in a register, and its RNG stream in four registers.
use core::slice;
use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use qapgpu_common::cost::row_cost;
use qapgpu_common::elem::Elem;
use qapgpu_common::ga::{Crossover, breed, fresh, pick_partner};
use qapgpu_common::layout::{SCRATCH_HEADER, SCRATCH_PER_WARP};
use qapgpu_common::matrix::Matrix;
use qapgpu_common::ops::random_permutation;
use qapgpu_common::params::{
    FLAG_A_IN_CONST, FLAG_B_IN_SHARED, FLAG_COUNT_ATOMIC, FLAG_CROSSOVER_OX, FLAG_PER_BLOCK_TARGET, GaParams,
    MigrateParams, RunControl,
};
use qapgpu_common::rng::Xoshiro128;

use crate::intrinsics::*;
use crate::matrices::{DevElem, View};
use crate::rngs::{load_rng, store_rng};
use crate::stop;

/// Copies `words` 4-byte words with the whole block, thread t taking words t, t+N, …:
/// consecutive threads touch consecutive words, so global accesses coalesce.
#[inline(always)]
unsafe fn block_copy_words(dst: *mut u32, src: *const u32, words: usize) {
    let (tid, step) = (thread_idx_x() as usize, block_dim_x() as usize);
    let mut w = tid;
    while w < words {
        unsafe { *dst.add(w) = *src.add(w) };
        w += step;
    }
}

/// Block-wide best cost, the lowest index holding it, and how many individuals hold it.
/// Every thread gets the same triple. Two variants, chosen by `FLAG_COUNT_ATOMIC`:
/// shared-memory atomics (seed 001) or warp shuffles plus `bar.red.popc`.
#[inline(always)]
unsafe fn block_best(cost: i64, scratch: u64, atomic: bool) -> (i64, u32, u32) {
    let tid = thread_idx_x();
    // Earlier readers of the scratch area must be done before it is written again.
    sync_threads();
    if atomic {
        let (best_at, count_at, idx_at) = (scratch, scratch + 8, scratch + 12);
        unsafe {
            if tid == 0 {
                st_shared_i64(best_at, i64::MAX);
                st_shared_u32(count_at, 0);
                st_shared_u32(idx_at, u32::MAX);
            }
            sync_threads();
            atomic_min_shared_i64(best_at, cost);
            sync_threads();
            let best = ld_shared_i64(best_at);
            if cost == best {
                atomic_add_shared_u32(count_at, 1);
                atomic_min_shared_u32(idx_at, tid);
            }
            sync_threads();
            (best, ld_shared_u32(idx_at), ld_shared_u32(count_at))
        }
    } else {
        let (mut c, mut idx) = (cost, tid);
        let mut off = 16;
        while off > 0 {
            let (oc, oi) = (shfl_down_i64(c, off), shfl_down_u32(idx, off));
            if oc < c || (oc == c && oi < idx) {
                (c, idx) = (oc, oi);
            }
            off >>= 1;
        }
        let warps = block_dim_x() / 32;
        let slot = |w: u32| scratch + (SCRATCH_HEADER + w * SCRATCH_PER_WARP) as u64;
        unsafe {
            if tid % 32 == 0 {
                st_shared_i64(slot(tid / 32), c);
                st_shared_u32(slot(tid / 32) + 8, idx);
            }
            sync_threads();
            let (mut best, mut best_idx) = (i64::MAX, u32::MAX);
            for w in 0..warps {
                let (wc, wi) = (ld_shared_i64(slot(w)), ld_shared_u32(slot(w) + 8));
                if wc < best || (wc == best && wi < best_idx) {
                    (best, best_idx) = (wc, wi);
                }
            }
            let count = sync_threads_count(cost == best);
            (best, best_idx, count)
        }
    }
}

/// Keeps the block's best-ever individual in global memory (restarts would lose it).
#[inline(always)]
unsafe fn save_best(p: &GaParams, blk: usize, row: &[u8], cost: i64) {
    let best = (p.best_cost as *mut i64).wrapping_add(blk);
    unsafe {
        if cost < *best {
            *best = cost;
            let dst = (p.best_perm as *mut u8).add(blk * p.layout.stride as usize);
            for (k, &g) in row.iter().enumerate() {
                *dst.add(k) = g;
            }
        }
    }
}

/// FoundFlag: the first thread of the grid to reach the target claims the flag and
/// publishes its permutation; everyone else only reads the flag.
#[inline(always)]
unsafe fn report_found(p: &GaParams, blk: usize, row: &[u8], cost: i64) {
    if p.flags & FLAG_PER_BLOCK_TARGET != 0 {
        // Only this block stops; its best-ever row (saved at its next check) holds the solution.
        let stamp = unsafe { AtomicU64::from_ptr((p.block_times as *mut u64).add(blk)) };
        if stamp.compare_exchange(0, global_timer_ns().max(1), Ordering::Relaxed, Ordering::Relaxed).is_ok() {
            unsafe { save_best(p, blk, row, cost) };
        }
        return;
    }
    let control = p.control as *mut RunControl;
    let flag = unsafe { AtomicU32::from_ptr(&raw mut (*control).found) };
    if flag.compare_exchange(0, 1, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
        unsafe {
            (*control).found_block = blk as u32;
            (*control).found_cost = cost;
            for (k, &g) in row.iter().enumerate() {
                (*control).found_perm[k] = g;
            }
        }
    }
}

/// FoundFlag set by any block, or (per-block runs) this block's own success.
#[inline(always)]
unsafe fn stop_requested(p: &GaParams, control: *const RunControl, blk: usize) -> bool {
    unsafe {
        core::ptr::read_volatile(&raw const (*control).found) != 0
            || (p.flags & FLAG_PER_BLOCK_TARGET != 0
                && core::ptr::read_volatile((p.block_times as *const u64).add(blk)) != 0)
    }
}

/// `generations` generations of every subpopulation, starting from and ending with the
/// state in global memory.
#[inline(always)]
unsafe fn run<E: Elem, A: Matrix<E>, B: Matrix<E>>(p: &GaParams, a: A, b: B) {
    let tid = thread_idx_x() as usize;
    let blk = block_idx_x() as usize;
    let (n, subpop, stride) = (p.n as usize, p.subpop as usize, p.layout.stride as usize);
    let total = p.blocks as usize * subpop;
    let gidx = blk * subpop + tid;
    let smem = shared_generic();
    let scratch = shared_base() + p.layout.scratch_offset as u64;
    let atomic = p.flags & FLAG_COUNT_ATOMIC != 0;
    let pool_p = unsafe { smem.add(p.layout.p_offset as usize) };
    let my_row = unsafe { pool_p.add(tid * stride) };
    let my_child = unsafe { smem.add(p.layout.w_offset as usize + tid * stride) };
    let control = p.control as *const RunControl;
    let crossover = if p.flags & FLAG_CROSSOVER_OX != 0 { Crossover::Ox } else { Crossover::Pmx };

    unsafe {
        let pop = (p.pop as *mut u8).add(blk * subpop * stride);
        block_copy_words(pool_p as *mut u32, pop as *const u32, subpop * stride / 4);
        if p.flags & FLAG_B_IN_SHARED != 0 {
            let bytes = n * n * core::mem::size_of::<E>();
            block_copy_words(smem.add(p.layout.b_offset as usize) as *mut u32, p.b as *const u32, bytes.div_ceil(4));
        }
    }
    let mut rng = unsafe { load_rng(p.rng as *const u32, gidx, total) };
    let mut my_cost = unsafe { *(p.costs as *const i64).add(gidx) };
    sync_threads();

    for g in 0..p.generations {
        // Doubles as the barrier that publishes last generation's replacements.
        let stop =
            sync_threads_or(tid == 0 && (unsafe { stop_requested(p, control, blk) } || stop::stop_requested(p.stop)));
        if stop {
            break;
        }
        let j = pick_partner(&mut rng, tid, subpop);
        let child_cost = unsafe {
            let parent = slice::from_raw_parts(my_row, n);
            let partner = slice::from_raw_parts(pool_p.add(j * stride), n);
            let child = slice::from_raw_parts_mut(my_child, n);
            breed(&mut rng, parent, partner, child, &a, &b, p.pm_threshold, crossover)
        };
        // Every partner read of P is done before anyone replaces its row.
        sync_threads();
        let row = unsafe { slice::from_raw_parts_mut(my_row, n) };
        if child_cost < my_cost {
            row.copy_from_slice(unsafe { slice::from_raw_parts(my_child, n) });
            my_cost = child_cost;
        }
        if my_cost <= p.target {
            unsafe { report_found(p, blk, row, my_cost) };
        }
        if (g + 1) % p.restart_interval == 0 {
            let (best, best_idx, count) = unsafe { block_best(my_cost, scratch, atomic) };
            if tid as u32 == best_idx {
                unsafe { save_best(p, blk, row, best) };
            }
            if p.restart_count != 0 && count >= p.restart_count {
                my_cost = fresh(&mut rng, row, &a, &b);
                if tid == 0 {
                    unsafe { *(p.restarts as *mut u32).add(blk) += 1 };
                }
            }
        }
    }

    let (best, best_idx, _) = unsafe { block_best(my_cost, scratch, atomic) };
    if tid as u32 == best_idx {
        unsafe { save_best(p, blk, slice::from_raw_parts(my_row, n), best) };
    }
    unsafe {
        let pop = (p.pop as *mut u8).add(blk * subpop * stride);
        block_copy_words(pop as *mut u32, pool_p as *const u32, subpop * stride / 4);
        *(p.costs as *mut i64).add(gidx) = my_cost;
        store_rng(p.rng as *mut u32, gidx, total, &rng);
    }
}

#[inline(always)]
unsafe fn generations<E: DevElem>(p: *const GaParams) {
    let p = unsafe { &*p };
    let n = p.n as usize;
    let b_shared = View::<E, _>::shared(shared_base() + p.layout.b_offset as u64, n);
    let (a_global, b_global) = (View::<E, _>::global(p.a, n), View::<E, _>::global(p.b, n));
    unsafe {
        match (p.flags & FLAG_A_IN_CONST != 0, p.flags & FLAG_B_IN_SHARED != 0) {
            (true, true) => run(p, View::<E, _>::const_a(n), b_shared),
            (true, false) => run(p, View::<E, _>::const_a(n), b_global),
            (false, true) => run(p, a_global, b_shared),
            (false, false) => run(p, a_global, b_global),
        }
    }
}

/// Rows of an individual's cost between two looks at the host's stop word in `init`.
const INIT_STOP_ROWS: usize = 16;

/// Seeds every individual's RNG stream from the run seed and draws a random individual
/// (`ga::fresh`: a random permutation, then its cost). The stop word is read first and then
/// every `INIT_STOP_ROWS` rows of the cost: 65536 subpopulations of 128 at n = 256 took 5.7 s
/// to draw on an H100 (every B read from global memory), and their random permutations
/// alone, 2n scattered accesses each, 0.1 s. A stop leaves the individuals not yet costed
/// at i64::MAX, which the host takes for "not drawn".
#[inline(always)]
unsafe fn init<E: DevElem>(p: *const GaParams) {
    let p = unsafe { &*p };
    let (n, subpop, stride) = (p.n as usize, p.subpop as usize, p.layout.stride as usize);
    let total = p.blocks as usize * subpop;
    let gidx = block_idx_x() as usize * subpop + thread_idx_x() as usize;
    let mut rng = Xoshiro128::from_stream(p.seed, gidx as u64);
    let row = unsafe { slice::from_raw_parts_mut((p.pop as *mut u8).add(gidx * stride), n) };
    let (a, b) = (View::<E, _>::global(p.a, n), View::<E, _>::global(p.b, n));
    let mut cost = i64::MAX;
    if !stop::stop_requested(p.stop) {
        random_permutation(&mut rng, row);
        cost = 0;
        for i in 0..n {
            if i % INIT_STOP_ROWS == INIT_STOP_ROWS - 1 && stop::stop_requested(p.stop) {
                cost = i64::MAX;
                break;
            }
            cost += row_cost(&a, &b, row, i);
        }
    }
    unsafe {
        if gidx == 0 {
            (*(p.control as *mut RunControl)).start_ns = global_timer_ns();
        }
        *(p.costs as *mut i64).add(gidx) = cost;
        store_rng(p.rng as *mut u32, gidx, total, &rng);
    }
}

macro_rules! ga_kernels {
    ($t:ty, $init:ident, $gens:ident) => {
        /// Initialises the population of a GA run.
        ///
        /// # Safety
        /// `p` points to a `GaParams` whose buffers are allocated for `blocks × subpop`
        /// individuals; launch with grid = blocks, block = subpop threads, no shared memory.
        ///
        /// # Thread mapping
        /// One thread per individual slot.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $init(p: *const GaParams) {
            unsafe { init::<$t>(p) }
        }

        /// Runs `p.generations` generations of every subpopulation (restarts, FoundFlag).
        ///
        /// # Safety
        /// As the init kernel, with `p.layout.total` bytes of dynamic shared memory, and
        /// `QAP_CONST_A` filled when `FLAG_A_IN_CONST` is set.
        ///
        /// # Thread mapping
        /// Block = subpopulation, thread = individual (see the module docs).
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $gens(p: *const GaParams) {
            unsafe { generations::<$t>(p) }
        }
    };
}
ga_kernels!(u16, ga_init_u16, ga_generations_u16);
ga_kernels!(i32, ga_init_i32, ga_generations_i32);

/// Island migration (seed 000): every individual is copied from one global buffer to the
/// other, to the slot its route gives it (`shuffle::Migration`: all shuffled, or GA-2's few
/// exchanged and the rest in place).
///
/// # Safety
/// `p` points to a `MigrateParams` whose buffers hold `migration.total` rows of `stride`
/// bytes and `migration.total` costs; `src` and `dst` do not overlap.
///
/// # Thread mapping
/// One thread per route, any block size; threads past `migration.total` return.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn ga_migrate(p: *const MigrateParams) {
    let p = unsafe { &*p };
    let k = block_idx_x() * block_dim_x() + thread_idx_x();
    if k >= p.migration.total {
        return;
    }
    let (x, y) = p.migration.route(k);
    let (x, y) = (x as usize, y as usize);
    let words = p.stride as usize / 4;
    unsafe {
        let src = (p.src_pop as *const u32).add(x * words);
        let dst = (p.dst_pop as *mut u32).add(y * words);
        for w in 0..words {
            *dst.add(w) = *src.add(w);
        }
        *(p.dst_costs as *mut i64).add(y) = *(p.src_costs as *const i64).add(x);
    }
}
