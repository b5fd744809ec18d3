//! Perturbed regroupings (`--regroup-perturb`) on the device: after a regrouping, each walk
//! that took an elite walk's solution makes a few random exchanges of it, re-costed by its
//! block, so that the walks sent to one elite walk search around it rather than from its
//! very solution (iterated tabu search's perturbation). Queued behind the regrouping, with
//! no round trip to the host; the CPU engine's twin is `AcoCpu::perturb_regrouped`.
use core::slice;

use qapgpu_common::ls::{donor_rank, perturb_rng};
use qapgpu_common::ops::random_exchanges;
use qapgpu_common::params::AcoParams;

use crate::aco::block_row_cost;
use crate::block::block_copy_bytes;
use crate::intrinsics::*;
use crate::matrices::DevElem;
use crate::stop::block_stop_requested;

/// Walk k, outside the best `elite` of the last ranking (`winners`, as `ts_rank_walks` or
/// the host wrote it) and holding its donor's solution, makes `swaps` random exchanges of it
/// (`ops::random_exchanges`, stream `ls::perturb_rng(seed, round, k)`); its block sums the
/// new cost. Iteration 0 and a cleared table mark: a fresh tabu memory and a rebuilt table
/// at the next launch. Its best so far stays its own.
#[inline(always)]
unsafe fn perturb<E: DevElem>(p: &AcoParams, elite: u32, swaps: u32, round: u32) {
    if block_stop_requested(p.stop) {
        return;
    }
    let (k, n, m) = (block_idx_x() as usize, p.n as usize, p.m as usize);
    let tid = thread_idx_x() as usize;
    if k >= m || donor_rank(unsafe { *(p.winners as *const u32).add(k) }, elite.clamp(1, p.m)).is_none() {
        return;
    }
    let row = unsafe { slice::from_raw_parts_mut(shared_generic(), n) };
    let cant = unsafe { (p.cants as *mut u8).add(k * p.stride as usize) };
    unsafe { block_copy_bytes(row.as_mut_ptr(), cant, n) };
    sync_threads();
    if tid == 0 {
        random_exchanges(&mut perturb_rng(p.seed, round, k as u32), row, swaps);
    }
    sync_threads();
    let c = unsafe { block_row_cost::<E>(p, row) };
    unsafe { block_copy_bytes(cant, row.as_ptr(), n) };
    if tid == 0 {
        unsafe {
            *(p.cant_costs as *mut i64).add(k) = c;
            *(p.walks as *mut u32).add(k) = 0;
            if p.tables != 0 {
                *(p.tables_ok as *mut u32).add(k) = 0;
            }
        }
    }
}

macro_rules! perturb_kernel {
    ($t:ty, $name:ident) => {
        /// The perturbation of the walks a regrouping moved (`perturb`), matrices of `$t`.
        ///
        /// # Safety
        /// `p` points to an `AcoParams` in walk mode, after `ts_rank_walks` and
        /// `ts_take_donors` (or `ts_regroup_walks`) on the same stream: `winners` u32[2m]
        /// ranks the walks, and every walk outside the elite holds its donor's solution.
        /// Launch m blocks of a multiple of 32 threads with `MAX_N` bytes of dynamic shared
        /// memory and `LS_SCRATCH_PER_WARP` a warp after them (the init kernels' launch).
        ///
        /// # Thread mapping
        /// Block k = walk k. Thread 0 draws the exchanges in the shared row; thread t sums
        /// the cost terms t, t + T, … (`cost::strided_cost`) and the block adds them up;
        /// thread i copies bytes i, i + T, … Only walk k is read and written.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(p: *const AcoParams, elite: u32, swaps: u32, round: u32) {
            unsafe { perturb::<$t>(&*p, elite, swaps, round) }
        }
    };
}
perturb_kernel!(u16, ts_perturb_walks_u16);
perturb_kernel!(i32, ts_perturb_walks_i32);
