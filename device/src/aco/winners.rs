//! "Go with the winners" for the `ts` walks (`qapgpu_common::ls::donor_rank`). A kernel
//! queued between two walk launches ranks the walks by current cost and copies the elite's
//! starts aside; every walk outside the elite then starts its next launch from an elite
//! walk's copy (`ls::Unit::begin`), so that the regrouping costs no launch of its own
//! (`ts_take_donors` hands the copies over where the host reads the walks before that
//! launch). Where the host ranks the walks (a diverse elite), `ts_regroup_walks` moves the
//! solutions. All of them leave everything as it is once the stop word is set (the run's
//! target or the host's stop), as the CPU engine does.
use qapgpu_common::ls::{donor_rank, ranks_before};
use qapgpu_common::params::{AcoParams, LS_DELTA_I32};

use super::ls::donor_slot;
use crate::block::{block_copy_bytes, block_copy_pipelined};
use crate::intrinsics::*;
use crate::stop::block_stop_requested;

/// u32 words of a walk's kept table H.
#[inline(always)]
fn table_words(p: &AcoParams) -> usize {
    (p.n * p.n) as usize * if p.flags & LS_DELTA_I32 != 0 { 1 } else { 2 }
}

/// Writes walk k's rank by current cost (`ls::ranks_before`) to `winners[k]`, and k to
/// `winners[m + rank]` where the rank is the elite's. An elite walk copies its current
/// solution, cost and kept table (with its mark) to the elite slot of its rank; a walk
/// outside the elite writes the slot of its donor (`ls::donor_rank`) plus 1 to
/// `donor_slots[k]`, the others 0. `elite`: how many walks go on (1 to m), an argument of
/// the launch, not of the block, so that no copy to the device comes between two kernels.
///
/// # Safety
/// `p.cant_costs` i64[m], `p.winners` u32[2m], `p.donor_slots` u32[m] and the elite's
/// slots (`AcoParams::elite_rows`) device buffers; grid = m blocks, block a multiple of 32
/// threads.
///
/// # Thread mapping
/// Block k = walk k; thread t compares walk k with the walks j ≡ t (mod T), and barrier
/// counts (`sync_threads_count`), one a bit, sum the threads' counts. An elite block's
/// threads copy bytes (and table words) i, i + T, …
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn ts_rank_walks(p: *const AcoParams, elite: u32) {
    let p = unsafe { &*p };
    if block_stop_requested(p.stop) {
        return;
    }
    let (k, tid, threads) = (block_idx_x() as usize, thread_idx_x() as usize, block_dim_x() as usize);
    let m = p.m as usize;
    let costs = p.cant_costs as *const i64;
    let mine = unsafe { *costs.add(k) };
    // This thread's count over the walks j ≡ t (mod T), four costs loaded before they are
    // compared. One load and one barrier a round of T walks waited out a global-memory
    // latency each: 6.2 µs for tai35b's 1056 walks on the H100, 4.5 µs this way
    // (BENCHMARKS.md, "Launch costs").
    let before = |j: usize, c: i64| u32::from(ranks_before(c, j, mine, k));
    let (mut own, mut j) = (0u32, tid);
    while j + 3 * threads < m {
        let c = unsafe { (*costs.add(j), *costs.add(j + threads), *costs.add(j + 2 * threads), *costs.add(j + 3 * threads)) };
        own += before(j, c.0) + before(j + threads, c.1) + before(j + 2 * threads, c.2) + before(j + 3 * threads, c.3);
        j += 4 * threads;
    }
    while j < m {
        own += before(j, unsafe { *costs.add(j) });
        j += threads;
    }
    // The block's sum, one barrier count a bit of the counts (at most ⌈m / T⌉ each): no
    // shared memory.
    let (most, mut rank, mut bit) = (m.div_ceil(threads) as u32, 0u32, 0);
    while most >> bit != 0 {
        rank += sync_threads_count(own >> bit & 1 != 0) << bit;
        bit += 1;
    }
    // `rank` is the block's: every thread has the barriers' sums.
    if rank < elite {
        let (r, stride) = (rank as usize, p.stride as usize);
        unsafe {
            block_copy_bytes((p.elite_rows as *mut u8).add(r * stride), (p.cants as *const u8).add(k * stride), p.n as usize);
            if p.elite_tables != 0 {
                let words = table_words(p);
                block_copy_pipelined((p.elite_tables as *mut u32).add(r * words), (p.tables as *const u32).add(k * words), words);
            }
        }
    }
    if tid == 0 {
        let winners = p.winners as *mut u32;
        unsafe {
            *winners.add(k) = rank;
            *(p.donor_slots as *mut u32).add(k) = donor_rank(rank, elite).map_or(0, |d| d + 1);
            if rank < elite {
                let r = rank as usize;
                *winners.add(m + r) = k as u32;
                *(p.elite_costs as *mut i64).add(r) = mine;
                if p.elite_tables != 0 {
                    *(p.elite_ok as *mut u32).add(r) = *(p.tables_ok as *const u32).add(k);
                }
            }
        }
    }
}

/// Walk k, regrouped by `ts_rank_walks` and not yet launched since, takes its donor's copy
/// now, as its next launch would: the solution, cost, kept table and mark, and iteration 0,
/// which clears its tabu matrix at the next launch. For the host's reads and writes of the
/// walks between a regrouping and the launch after it. With the stop word set it only
/// clears its slot, as a launch would.
///
/// # Safety
/// As `ts_rank_walks`, after it on the same stream, with `p.walks` u32[m], `p.tables_ok`
/// u32[m] and `p.tables` 0 or the kept tables.
///
/// # Thread mapping
/// Block k = walk k; thread i copies bytes (and table words) i, i + T, … Only the slots are
/// read and only walk k written.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn ts_take_donors(p: *const AcoParams) {
    let p = unsafe { &*p };
    let k = block_idx_x() as usize;
    let Some(d) = donor_slot(p, k) else {
        return;
    };
    let stopped = block_stop_requested(p.stop);
    if !stopped {
        let stride = p.stride as usize;
        unsafe {
            block_copy_bytes((p.cants as *mut u8).add(k * stride), (p.elite_rows as *const u8).add(d * stride), p.n as usize);
            if p.elite_tables != 0 {
                let words = table_words(p);
                block_copy_pipelined((p.tables as *mut u32).add(k * words), (p.elite_tables as *const u32).add(d * words), words);
            }
        }
    }
    // Every thread has read the slot before thread 0 clears it.
    sync_threads();
    if thread_idx_x() == 0 {
        unsafe {
            if !stopped {
                *(p.cant_costs as *mut i64).add(k) = *(p.elite_costs as *const i64).add(d);
                *(p.walks as *mut u32).add(k) = 0;
                if p.elite_tables != 0 {
                    *(p.tables_ok as *mut u32).add(k) = *(p.elite_ok as *const u32).add(d);
                }
            }
            *(p.donor_slots as *mut u32).add(k) = 0;
        }
    }
}

/// Walk k, ranked outside the best `elite` by the host (`winners`), takes the current solution and
/// cost of the elite walk `ls::donor_rank` names (and its kept table H, where walks keep
/// theirs) and starts afresh from it: iteration 0, which clears its tabu matrix at the next
/// walk launch (`Unit::begin`). Its best so far stays its own.
///
/// # Safety
/// As `ts_rank_walks`, after it on the same stream, with `p.cants` u8[m][stride],
/// `p.walks` u32[m], and `p.tables` (with `p.tables_ok`) 0 or the kept tables.
///
/// # Thread mapping
/// Block k = walk k; thread i copies bytes i, i + T, … of the solution. Elite walks are
/// only read and the others only written, so the blocks need no order among them.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn ts_regroup_walks(p: *const AcoParams, elite: u32) {
    let p = unsafe { &*p };
    if block_stop_requested(p.stop) {
        return;
    }
    let (k, m, stride) = (block_idx_x() as usize, p.m as usize, p.stride as usize);
    let winners = p.winners as *const u32;
    let Some(d) = donor_rank(unsafe { *winners.add(k) }, elite) else {
        return;
    };
    let from = unsafe { *winners.add(m + d as usize) } as usize;
    let cants = p.cants as *mut u8;
    unsafe { block_copy_bytes(cants.add(k * stride), cants.add(from * stride), p.n as usize) };
    if p.tables != 0 {
        // The donor's table H is its solution's: the walk takes it rather than rebuilding it.
        let words = table_words(p);
        let tables = p.tables as *mut u32;
        unsafe { block_copy_pipelined(tables.add(k * words), tables.add(from * words), words) };
    }
    if thread_idx_x() == 0 {
        unsafe {
            let costs = p.cant_costs as *mut i64;
            *costs.add(k) = *costs.add(from);
            *(p.walks as *mut u32).add(k) = 0;
            if p.tables != 0 {
                let ok = p.tables_ok as *mut u32;
                *ok.add(k) = *ok.add(from);
            }
        }
    }
}
