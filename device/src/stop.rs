//! The host's stop word: one u32 in device memory that the host overwrites through the
//! copy engine (on a stream of its own) while kernels run, when the time limit passes or
//! Ctrl-C arrives.

/// Whether the host asked to stop (`word` = 0: no stop word, never).
/// Pitfall: the load must be volatile (an L2 read each time; a plain load may be hoisted
/// out of the loop or served from L1), and one thread per block should poll and hand the
/// answer to the others through a barrier (`sync_threads_or`).
#[inline(always)]
pub fn stop_requested(word: u64) -> bool {
    read_stop(word) != 0
}

/// Issues the volatile read of `word` now and returns it for a later test (`!= 0`: stop):
/// a kernel that reads it at the start of an iteration's work and tests it at the
/// iteration's barrier hides the read's latency and can poll every iteration.
/// Pitfall: as `stop_requested`; the value is as old as the read.
#[inline(always)]
pub fn read_stop(word: u64) -> u32 {
    // SAFETY: the host keeps the word allocated for every launch it passes it to.
    if word == 0 { 0 } else { unsafe { core::ptr::read_volatile(word as *const u32) } }
}

/// Whether the host asked to stop, the same answer in every thread of the block: thread 0
/// reads the word and a barrier hands its answer round (a word read by each thread could
/// differ between them). Pitfall: a barrier, so every thread of the block must call it.
#[inline(always)]
pub fn block_stop_requested(word: u64) -> bool {
    crate::intrinsics::sync_threads_or(crate::intrinsics::thread_idx_x() == 0 && stop_requested(word))
}

/// Asks every block polling `word` to stop (a search that reached the run's target does) and
/// says whether this call was the first to: the word was still 0, and now holds
/// `STOP_BY_HIT`; that search alone leaves its result in `AcoParams::hit`. Pitfall: one
/// thread of the block calls it; the host's stop (1) set before makes every claim fail,
/// which only loses the early report.
#[inline(always)]
pub fn claim_stop(word: u64) -> bool {
    // SAFETY: as in `stop_requested`.
    word != 0
        && unsafe { crate::intrinsics::atomic_cas_global_u32(word as *mut u32, 0, qapgpu_common::params::STOP_BY_HIT) }
            == 0
}
