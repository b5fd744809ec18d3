//! "Go with the winners" for the `ts` walks (`qapgpu_common::ls::donor_rank`). A kernel
//! queued between two walk launches ranks the walks by current cost and copies the elite's
//! starts aside; every walk outside the elite then starts its next launch from an elite
//! walk's copy (`ls::Unit::begin`), so that the regrouping costs no launch of its own
//! (`ts_take_donors` hands the copies over where the host reads the walks before that
//! launch). Where the host ranks the walks (a diverse elite), `ts_regroup_walks` moves the
//! solutions. All of them leave everything as it is once the stop word is set (the run's
//! target or the host's stop), as the CPU engine does. `perturb` perturbs the walks a
//! regrouping moved (`--regroup-perturb`).
pub mod perturb;
pub mod wide;

use qapgpu_common::ls::{donor_rank, ranks_before};
use qapgpu_common::params::{AcoParams, LS_DELTA_I32};

use crate::block::{block_copy_bytes, block_copy_pipelined};
use crate::intrinsics::*;
use crate::search::donor_slot;
use crate::stop::block_stop_requested;

/// u32 words of a walk's kept table H.
#[inline(always)]
fn table_words(p: &AcoParams) -> usize {
    (p.n * p.n) as usize * if p.flags & LS_DELTA_I32 != 0 { 1 } else { 2 }
}

/// Where walks' starts are kept, in one layout: the walks' own (`cants`, `cant_costs`,
/// `tables`, `tables_ok`) or the elite's copies (`elite_rows`, …). The host gives the elite
/// tables exactly where walks keep theirs (`p.tables` nonzero).
#[derive(Clone, Copy)]
struct Starts {
    rows: u64,
    costs: u64,
    tables: u64,
    ok: u64,
}

impl Starts {
    #[inline(always)]
    fn walks(p: &AcoParams) -> Starts {
        Starts { rows: p.cants, costs: p.cant_costs, tables: p.tables, ok: p.tables_ok }
    }

    #[inline(always)]
    fn elite(p: &AcoParams) -> Starts {
        Starts { rows: p.elite_rows, costs: p.elite_costs, tables: p.elite_tables, ok: p.elite_ok }
    }
}

/// Start `from` of `src` becomes start `to` of `dst`: the solution and the kept table H
/// (the solution's, so it need not be rebuilt) copied by the block, the cost and the
/// table's mark by thread 0.
/// Pitfall: every thread of the block calls it; the writes are published at the kernel's end.
#[inline(always)]
unsafe fn copy_start(p: &AcoParams, src: Starts, from: usize, dst: Starts, to: usize) {
    let stride = p.stride as usize;
    let tables = p.tables != 0;
    unsafe {
        block_copy_bytes(
            (dst.rows as *mut u8).add(to * stride),
            (src.rows as *const u8).add(from * stride),
            p.n as usize,
        );
        if tables {
            let words = table_words(p);
            block_copy_pipelined(
                (dst.tables as *mut u32).add(to * words),
                (src.tables as *const u32).add(from * words),
                words,
            );
        }
        if thread_idx_x() == 0 {
            *(dst.costs as *mut i64).add(to) = *(src.costs as *const i64).add(from);
            if tables {
                *(dst.ok as *mut u32).add(to) = *(src.ok as *const u32).add(from);
            }
        }
    }
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
    // (docs/benchmarks-record.md, "Launch costs").
    let before = |j: usize, c: i64| u32::from(ranks_before(c, j, mine, k));
    let (mut own, mut j) = (0u32, tid);
    while j + 3 * threads < m {
        let c = unsafe {
            (*costs.add(j), *costs.add(j + threads), *costs.add(j + 2 * threads), *costs.add(j + 3 * threads))
        };
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
        unsafe { copy_start(p, Starts::walks(p), k, Starts::elite(p), rank as usize) };
    }
    if tid == 0 {
        let winners = p.winners as *mut u32;
        unsafe {
            *winners.add(k) = rank;
            *(p.donor_slots as *mut u32).add(k) = donor_rank(rank, elite).map_or(0, |d| d + 1);
            if rank < elite {
                *winners.add(m + rank as usize) = k as u32;
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
        unsafe { copy_start(p, Starts::elite(p), d, Starts::walks(p), k) };
    }
    // Every thread has read the slot before thread 0 clears it.
    sync_threads();
    if thread_idx_x() == 0 {
        unsafe {
            if !stopped {
                *(p.walks as *mut u32).add(k) = 0;
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
    let (k, m) = (block_idx_x() as usize, p.m as usize);
    let winners = p.winners as *const u32;
    let Some(d) = donor_rank(unsafe { *winners.add(k) }, elite) else {
        return;
    };
    let from = unsafe { *winners.add(m + d as usize) } as usize;
    unsafe { copy_start(p, Starts::walks(p), from, Starts::walks(p), k) };
    if thread_idx_x() == 0 {
        unsafe { *(p.walks as *mut u32).add(k) = 0 };
    }
}
