//! Block-wide reductions and copies shared by the kernels of several families. Each
//! reduction writes one slot per warp (`LS_SCRATCH_PER_WARP` bytes) at `scratch`, a
//! shared-window address.
use qapgpu_common::cost::strided_cost;
use qapgpu_common::elem::Elem;
use qapgpu_common::layout::LS_SCRATCH_PER_WARP;
use qapgpu_common::ls::Candidate;
use qapgpu_common::matrix::Matrix;

use crate::intrinsics::*;
use crate::matrices::DevCost;

/// The warp's smallest move key (`DevCost::Key`: a `Candidate` for i64 move costs, a packed
/// u64 for i32), in lane 0 (the other lanes get partial results).
/// Pitfall: every lane of the warp must call it (full-mask shuffles).
#[inline(always)]
pub fn warp_argmin<D: DevCost>(mut k: D::Key) -> D::Key {
    let mut off = 16;
    while off > 0 {
        let o = D::shfl_down_key(k, off);
        if D::less(&o, &k) {
            k = o;
        }
        off >>= 1;
    }
    k
}

/// The block-wide smallest candidate; every thread returns the same one.
/// Pitfall: contains barriers, so every thread of the block must call it.
#[inline(always)]
pub unsafe fn block_argmin(c: Candidate, scratch: u64) -> Candidate {
    let c = warp_argmin::<i64>(c);
    let tid = thread_idx_x();
    let slot = |w: u32| scratch + (w * LS_SCRATCH_PER_WARP) as u64;
    unsafe {
        if tid % 32 == 0 {
            st_shared_i64(slot(tid / 32), c.delta);
            st_shared_u32(slot(tid / 32) + 8, c.tag);
        }
        sync_threads();
        let mut best = Candidate::NONE;
        for w in 0..block_dim_x() / 32 {
            let o = Candidate { delta: ld_shared_i64(slot(w)), tag: ld_shared_u32(slot(w) + 8) };
            if o.better(&best) {
                best = o;
            }
        }
        best
    }
}

/// Copies n bytes with the block, one byte per thread.
#[inline(always)]
pub unsafe fn block_copy_bytes(dst: *mut u8, src: *const u8, n: usize) {
    unsafe { block_copy(dst, src, n) }
}

/// Copies n values of `T` with the block, one value per thread (a matrix of `T` entries
/// moves in whole entries, not bytes).
#[inline(always)]
pub unsafe fn block_copy<T: Copy>(dst: *mut T, src: *const T, n: usize) {
    let (mut i, step) = (thread_idx_x() as usize, block_dim_x() as usize);
    while i < n {
        unsafe { *dst.add(i) = *src.add(i) };
        i += step;
    }
}

/// Copies n values of `T` with the block, four loads issued a thread before their stores.
///
/// Pitfall: in `block_copy` a load followed by its store waits out the load's whole latency
/// before the next load issues (the warp issues in order, and the compiler cannot move a
/// load above a store through pointers that may alias). Worth it where a kernel is little
/// more than the copy (`ts_regroup_walks`: 7.5 → 6.4–7.4 µs, docs/benchmarks-record.md "Launch costs
/// again, β in B's place"); at a walk launch's start it did not shorten the launch
/// (docs/benchmarks-record.md, "Launch costs").
#[inline(always)]
pub unsafe fn block_copy_pipelined<T: Copy>(dst: *mut T, src: *const T, n: usize) {
    let (mut i, step) = (thread_idx_x() as usize, block_dim_x() as usize);
    unsafe {
        while i + 3 * step < n {
            let (x0, x1, x2, x3) = (*src.add(i), *src.add(i + step), *src.add(i + 2 * step), *src.add(i + 3 * step));
            *dst.add(i) = x0;
            *dst.add(i + step) = x1;
            *dst.add(i + 2 * step) = x2;
            *dst.add(i + 3 * step) = x3;
            i += 4 * step;
        }
        while i < n {
            *dst.add(i) = *src.add(i);
            i += step;
        }
    }
}

/// The sum of the warp's `x`, in lane 0 (the other lanes get partial sums).
/// Pitfall: every lane of the warp must call it (full-mask shuffles).
#[inline(always)]
pub fn warp_sum_i64(mut x: i64) -> i64 {
    let mut off = 16;
    while off > 0 {
        x += shfl_down_i64(x, off);
        off >>= 1;
    }
    x
}

/// The sum of every thread's `x`; every thread returns it.
/// Pitfall: contains barriers, so every thread of the block must call it; it ends with a
/// barrier, so the next reduction may reuse the slots at once.
#[inline(always)]
pub unsafe fn block_sum_i64(x: i64, scratch: u64) -> i64 {
    let x = warp_sum_i64(x);
    let tid = thread_idx_x();
    let slot = |w: u32| scratch + (w * LS_SCRATCH_PER_WARP) as u64;
    unsafe {
        if tid % 32 == 0 {
            st_shared_i64(slot(tid / 32), x);
        }
        sync_threads();
        let mut total = 0;
        for w in 0..block_dim_x() / 32 {
            total += ld_shared_i64(slot(w));
        }
        sync_threads();
        total
    }
}

/// The cost of `perm` summed by the whole block: thread t adds the terms t, t + T, …
/// (`cost::strided_cost`, four loads in flight a thread) and `block_sum_i64` adds the
/// threads' sums. Every thread gets the total. Shared by the colony's initial c-ants, the
/// perturbed walks and the cellular GA's mutated individuals.
///
/// # Safety
/// Every thread of a block of a multiple of 32 threads calls it (full-warp shuffles and
/// barriers); `a` and `b` are `perm.len()` × `perm.len()`; `scratch` is a shared-window
/// address with `LS_SCRATCH_PER_WARP` bytes a warp.
#[inline(always)]
pub unsafe fn block_cost<E: Elem, A: Matrix<E>, B: Matrix<E>>(a: &A, b: &B, perm: &[u8], scratch: u64) -> i64 {
    let part = strided_cost(a, b, perm, thread_idx_x() as usize, block_dim_x() as usize);
    unsafe { block_sum_i64(part, scratch) }
}
