//! The local-search kernel of seed 003: robust tabu search or 2-opt on one ant per block,
//! with the MATA or the plain thread mapping (`qapgpu_common::mata`).
//!
//! # Thread mapping
//! Block k improves c-ant k. Threads 0..T_S own N_S consecutive moves each (first pair from
//! the lookup table `first_pairs`); with MATA, threads T_L-START..T_L-START+2n compute the
//! moves that touch the previous move. Every thread keeps its best `Candidate` in
//! registers; a warp-shuffle argmin, then a pass over one slot per warp in shared memory,
//! gives every thread the same chosen move. Thread 0 alone draws tenures, writes the tabu
//! matrix and swaps the permutation. The block is launched with T_TOTAL rounded up to a
//! warp so that full-mask shuffles are defined; the extra threads own no move.
//!
//! Move costs are i32 where the host proved them to fit (`LS_DELTA_I32`), else i64; A and B
//! are copied into shared memory where the layout has room (`LS_AB_SHARED`). Each kernel
//! holds the four combinations and picks one per launch.
use core::slice;

use qapgpu_common::ls::{Candidate, TABU_FREE, Tenure, TenureLaw, authorized, move_class, stop_poll_interval};
use qapgpu_common::matrix::Matrix;
use qapgpu_common::moves::{delta_full_in, delta_update, move_index, next_pair, touches, unpack_pair};
use qapgpu_common::narrow_tabu;
use qapgpu_common::null_swaps::is_null;
use qapgpu_common::params::{
    AcoBest, AcoParams, LS_AB_SHARED, LS_DELTA_I32, LS_DELTA_SHARED, LS_MATA, LS_PADDED_ROWS, LS_SUMS_BETA, LS_TABU,
    LS_TABU_SHARED, LS_TENURE_MIXED, LS_TENURE_PER_MOVE, LS_TENURE_UNIFORM, LS_WALK, TargetHit,
};
use qapgpu_common::rng::Xoshiro128;

use crate::block::{block_argmin, block_copy, block_copy_bytes};
use crate::intrinsics::*;
use crate::matrices::{DevCost, DevElem, DevMatrix, Shared, View};
use crate::rngs::{load_rng, store_rng};
use crate::stop::{block_stop_requested, claim_stop, stop_requested};

/// Whether move (u, v), facilities u and v on locations `pu` and `pv`, is a null swap by
/// the launch's classes (`AcoParams::null_swaps`, read from global memory; 0: none is).
/// Walks only: the c-ants' searches are seed 003's, and the test cost MATA's 8.7 % of its
/// moves a second on tai100a (docs/benchmarks-record.md, "Null swaps"). Called only for
/// moves of Δ = 0, so the other moves pay one compare; the address is read here rather than
/// held across the walk's loop, where it cost more spills.
///
/// # Safety
/// `p.null_swaps` is 0 or points to 2n bytes; u, v, pu, pv are below n.
#[inline(always)]
pub(super) unsafe fn null_swap(p: &AcoParams, u: u32, v: u32, pu: u32, pv: u32) -> bool {
    let at = unsafe { core::ptr::read_volatile(&p.null_swaps) };
    if at == 0 {
        return false;
    }
    let classes = unsafe { slice::from_raw_parts(at as *const u8, 2 * p.n as usize) };
    is_null(classes, p.n as usize, u as usize, v as usize, pu as usize, pv as usize)
}

/// A search body: MATA and plain here (`Mata`), the split mapping in `split.rs`.
pub(super) trait Search {
    /// Whether the body's general kernel serves both roles (`Role::Either`): off the fast
    /// path a launch is a walk's where the host set `LS_WALK`, whatever `WALK` says.
    const EITHER: bool;

    /// `moves`: the search's iterations (`p.ls_iterations`, or a walk launch's own). `NARROW`: the shared tabu matrix holds
    /// 2-byte entries (`common::narrow_tabu`; only in the fast path's narrow kernels).
    /// `GPAIRS`: the moves' pairs are read from global memory (`p.first_pairs`), not from a
    /// shared table (only in the narrow kernels for plans without one, `LsLayout::pairs`).
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
    );
}

/// Seed 003's mappings (MATA and plain), as the module docs describe.
pub(crate) struct Mata;

impl Search for Mata {
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

/// One block's search; `WALK`: the `ts` family's walk that goes on from launch to launch
/// (its own kernels, so that the seed-003 kernels keep their registers). Picks the
/// matrices' memory and the move-cost type the host's layout chose (`layout::LsLayout`).
#[inline(always)]
pub(super) unsafe fn run<S: Search, E: DevElem, const WALK: bool>(p: &AcoParams, moves: u32) {
    // A walk launch queued behind one that reached the target (or the host's stop) leaves
    // before it loads anything, as the CPU twin's walks do: `ts` queues several launches
    // between two reads of the best.
    if walk_launch::<WALK, false>(p, S::EITHER) && block_stop_requested(p.stop) {
        unsafe { leave_stopped(p) };
        return;
    }
    let n = p.n as usize;
    let narrow = p.flags & LS_DELTA_I32 != 0;
    if p.flags & LS_AB_SHARED != 0 {
        let smem = shared_generic();
        let (sa, sb) = unsafe { (smem.add(p.layout.a as usize) as *mut E, smem.add(p.layout.b as usize) as *mut E) };
        // Made visible to the block by the barrier before the first move.
        unsafe {
            block_copy(sa, p.a as *const E, n * n);
            block_copy(sb, p.b as *const E, n * n);
        }
        let at = |off: u32| View::<E, Shared>::shared(shared_base() + off as u64, n);
        let (a, b) = (at(p.layout.a), at(p.layout.b));
        if narrow {
            unsafe { S::search::<E, i32, WALK, false, false, false, _>(p, &a, &b, moves) }
        } else {
            unsafe { S::search::<E, i64, WALK, false, false, false, _>(p, &a, &b, moves) }
        }
    } else {
        let (a, b) = (View::<E, _>::global(p.a, n), View::<E, _>::global(p.b, n));
        if narrow {
            unsafe { S::search::<E, i32, WALK, false, false, false, _>(p, &a, &b, moves) }
        } else {
            unsafe { S::search::<E, i64, WALK, false, false, false, _>(p, &a, &b, moves) }
        }
    }
}

/// `run` on the fast path, in kernels of their own (`LS_DELTA_I32`, `LS_AB_SHARED` and
/// `LS_TABU_SHARED` all set, which the host checks): one body, so that ptxas allocates
/// registers for it alone. In the kernels of `run`, beside the other bodies, it spilled to
/// local memory in its iteration (docs/benchmarks-record.md, "A fast path for the sums walks"). Its
/// start repeats `run`'s on purpose: with the two shared as helpers, ptxas allocated every
/// kernel of the family differently, and the walks made 0.5–0.9 % fewer moves (tai25b,
/// tai35b, tai100a; H100, same section).
///
/// The tables' rows are `shared_row` entries apart, read at run time. `NARROW`: a tabu
/// matrix of 2-byte entries in shared memory (`LsLayout::tabu_entry`, `common::narrow_tabu`),
/// where 4-byte ones would leave it in global memory or cost a block an SM (n = 95 to 109).
/// `GPAIRS`: no shared table of pairs (`LsLayout::pairs` empty); each move's pair is read
/// from global memory (tai150b's c-ants, whose H, A, B and 2-byte tabu matrix take 225 KB,
/// and the pairs 22 KB more than an H100 gives a block).
#[inline(always)]
pub(super) unsafe fn run_fast<S: Search, E: DevElem, const WALK: bool, const NARROW: bool, const GPAIRS: bool>(
    p: &AcoParams,
    moves: u32,
) {
    if WALK && block_stop_requested(p.stop) {
        unsafe { leave_stopped(p) };
        return;
    }
    let n = p.n as usize;
    let smem = shared_generic();
    let (sa, sb) = unsafe { (smem.add(p.layout.a as usize) as *mut E, smem.add(p.layout.b as usize) as *mut E) };
    // B + Bᵀ in B's place where the host gave it (`LS_SUMS_BETA`).
    let b = if p.flags & LS_SUMS_BETA != 0 { p.b_sym } else { p.b };
    // Made visible to the block by the barrier before the first move.
    unsafe {
        block_copy(sa, p.a as *const E, n * n);
        block_copy(sb, b as *const E, n * n);
    }
    let at = |off: u32| View::<E, Shared>::shared(shared_base() + off as u64, n);
    unsafe { S::search::<E, i32, WALK, true, NARROW, GPAIRS, _>(p, &at(p.layout.a), &at(p.layout.b), moves) }
}

/// A walk launch that finds the stop word set leaves at once: no moves, and no donor taken
/// (`AcoParams::donor_slots`: a slot is never left for a later launch to take).
#[inline(always)]
unsafe fn leave_stopped(p: &AcoParams) {
    if thread_idx_x() == 0 {
        let blk = block_idx_x() as usize;
        unsafe {
            *(p.ls_iters as *mut u32).add(blk) = 0;
            if p.donor_slots != 0 {
                *(p.donor_slots as *mut u32).add(blk) = 0;
            }
        }
    }
}

/// The elite slot (`AcoParams::elite_rows`) walk `blk` starts from at this launch, where
/// `ts_rank_walks` regrouped it onto an elite walk (`AcoParams::donor_slots`).
#[inline(always)]
pub(crate) fn donor_slot(p: &AcoParams, blk: usize) -> Option<usize> {
    if p.donor_slots == 0 {
        return None;
    }
    let slot = unsafe { *(p.donor_slots as *const u32).add(blk) };
    (slot != 0).then(|| slot as usize - 1)
}

/// The tenure rule the host set (`ls::Tenure`), as unit `blk` draws from it.
#[inline(always)]
pub(super) fn tenure_rule(p: &AcoParams, blk: usize) -> Tenure {
    let law = if p.flags & LS_TENURE_MIXED != 0 {
        TenureLaw::Mixed
    } else if p.flags & LS_TENURE_UNIFORM != 0 {
        TenureLaw::Uniform
    } else {
        TenureLaw::Cubic
    };
    Tenure { list_size: p.tabu_list_size, per_move: p.flags & LS_TENURE_PER_MOVE != 0, law }.of_unit(blk)
}

/// Whether this launch is a walk's: `WALK` in kernels of one role and on the fast path, the
/// launch's `LS_WALK` flag in the general kernels of a body that serves both (`either`).
#[inline(always)]
pub(super) fn walk_launch<const WALK: bool, const FAST: bool>(p: &AcoParams, either: bool) -> bool {
    if either && !FAST { p.flags & LS_WALK != 0 } else { WALK }
}

/// Entries between two rows of H and of the tabu matrix in shared memory: n + 1 where the
/// host padded them (`LS_PADDED_ROWS`, only on the fast path), else n. A row length read at
/// run time, where the padded plans had kernels of their own: docs/search.md says what it
/// cost.
#[inline(always)]
pub(super) fn shared_row(p: &AcoParams, fast: bool) -> u32 {
    if fast && p.flags & LS_PADDED_ROWS != 0 { p.n + 1 } else { p.n }
}

/// Calls `f(i, at)` for this thread's share of the n² entries of a matrix kept in rows of
/// n in global memory (entry i) and in rows of `row` in shared memory (entry at), entries
/// tid, tid + T, …: with rows of n the plain strided loop, counted in 32 bits; else one
/// division a thread, not one an entry. Every copy between a walk's tables in global and
/// shared memory goes through it (the tabu matrix in `Unit`, H in `sums.rs`).
#[inline(always)]
pub(super) fn for_each_entry(n: u32, row: u32, mut f: impl FnMut(usize, usize)) {
    if row == n {
        let mut i = thread_idx_x();
        while i < n * n {
            f(i as usize, i as usize);
            i += block_dim_x();
        }
        return;
    }
    let (tid, threads) = (thread_idx_x(), block_dim_x());
    let (mut r, mut c) = (tid / n, tid % n);
    let (down, across) = (threads / n, threads % n);
    while r < n {
        f((r * n + c) as usize, (r * row + c) as usize);
        c += across;
        r += down;
        if c >= n {
            c -= n;
            r += 1;
        }
    }
}

/// A block's unit (ant or walk) as its search starts, read by `Unit::begin`.
pub(super) struct Unit {
    pub blk: usize,
    pub n: usize,
    pub tabu_search: bool,
    /// A `ts` walk (tabu search going on from launch to launch).
    pub walk: bool,
    pub cant: *mut u8,
    pub ant: *mut u8,
    /// The c-ant's (walk's current) cost, and the unit's best ant's.
    pub cost: i64,
    pub ant_cost: i64,
    /// A walk's best so far is its unit's best ant, unless the walk stands lower.
    pub from_ant: bool,
    /// Iterations the walk has done before this launch (0 where it took a donor's start).
    pub done: u32,
    /// The tabu matrix the search works on (shared or global memory; 2-byte entries where
    /// the kernel is `NARROW`, held above `tabu_base`).
    pub tabu: *mut i32,
    /// `narrow_tabu::base` of this search (0 unless `NARROW`).
    pub tabu_base: i32,
    pub perm: *mut u8,
    pub best: *mut u8,
}

impl Unit {
    /// Reads block `blk`'s unit and loads its permutation (and best and tabu matrix) into
    /// the search's memory. Pitfall: the caller's next barrier publishes what it wrote.
    #[inline(always)]
    pub unsafe fn begin<const NARROW: bool>(p: &AcoParams, walk_kernel: bool, row: u32) -> Unit {
        let blk = block_idx_x() as usize;
        let n = p.n as usize;
        let tabu_search = p.flags & LS_TABU != 0;
        let smem = shared_generic();
        let lay = &p.layout;
        let (perm, best) = unsafe { (smem.add(lay.perm as usize), smem.add(lay.best as usize)) };
        let tabu = unsafe {
            if p.flags & LS_TABU_SHARED != 0 {
                smem.add(lay.tabu as usize) as *mut i32
            } else {
                (p.tabu as *mut i32).add(blk * n * n)
            }
        };
        let cant = unsafe { (p.cants as *mut u8).add(blk * p.stride as usize) };
        let ant = unsafe { (p.ants as *mut u8).add(blk * p.stride as usize) };
        let walk = walk_kernel && tabu_search;
        // A walk regrouped onto an elite walk ("go with the winners") starts from the copy
        // `ts_rank_walks` took of it, with a fresh tabu memory; its best stays its own.
        let donor = if walk { donor_slot(p, blk) } else { None };
        let (start, cost, done) = match donor {
            Some(d) => unsafe {
                ((p.elite_rows as *const u8).add(d * p.stride as usize), *(p.elite_costs as *const i64).add(d), 0)
            },
            None => (
                cant as *const u8,
                unsafe { *(p.cant_costs as *const i64).add(blk) },
                if walk { unsafe { *(p.walks as *const u32).add(blk) } } else { 0 },
            ),
        };
        let ant_cost = unsafe { *(p.ant_costs as *const i64).add(blk) };
        let from_ant = walk && ant_cost <= cost;
        // The iteration the search starts at and its aspiration, as `split::drive` counts them.
        let tabu_base =
            if NARROW { narrow_tabu::base(done as i32, if walk { p.aspiration as i32 } else { 0 }) } else { 0 };
        unsafe {
            block_copy_bytes(perm, start, n);
            if tabu_search {
                // The start is the best so far until a move beats it (a search that never
                // improves, e.g. on an all-zero instance, returns it unchanged).
                block_copy_bytes(best, if from_ant { ant as *const u8 } else { start }, n);
                let kept = (p.tabu as *const i32).add(blk * n * n);
                // A walk's own matrix (fresh before its first move), copied in when the
                // search works in shared memory (in rows of `row` there).
                for_each_entry(p.n, row, |i, at| {
                    if NARROW {
                        let until = if !walk || done == 0 { TABU_FREE } else { *kept.add(i) };
                        st_shared_u16(
                            shared_base() + p.layout.tabu as u64 + 2 * at as u64,
                            narrow_tabu::encode(until, tabu_base) as u32,
                        );
                    } else {
                        *tabu.add(at) = if !walk || done == 0 {
                            TABU_FREE
                        } else if tabu != kept as *mut i32 {
                            *kept.add(i)
                        } else {
                            *tabu.add(at)
                        };
                    }
                });
            }
        }
        Unit { blk, n, tabu_search, walk, cant, ant, cost, ant_cost, from_ant, done, tabu, tabu_base, perm, best }
    }

    /// The best cost a search starts from.
    #[inline(always)]
    pub fn start_best(&self) -> i64 {
        if self.from_ant { self.ant_cost } else { self.cost }
    }

    /// Writes the search's end back: a walk's current solution and tabu matrix, step 8 of
    /// Fig. 2 (the result replaces its unit's best ant when as good or better), the costs,
    /// the iteration counts and the RNG. `cur`: the search's current cost, `best_cost`:
    /// its best (the tabu search's) — the result is `best` for a tabu search, else `perm`.
    /// `row`: the tabu matrix's row length in shared memory (`shared_row`).
    /// `hit`: thread 0 claimed the stop word on reaching the target (`stop::claim_stop`);
    /// that search writes `AcoParams::hit` before anything else. `rng` is thread
    /// `rng_owner`'s, the one that drew from it.
    /// Pitfall: contains barriers; every thread calls it after a barrier that follows the
    /// search's last write to `perm` and `best`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn finish<const NARROW: bool>(
        &self,
        p: &AcoParams,
        cur: i64,
        best_cost: i64,
        iterations: u32,
        rng: &Xoshiro128,
        rng_owner: u32,
        hit: bool,
        row: u32,
    ) {
        let (tid, blk, n) = (thread_idx_x(), self.blk, self.n);
        let (result, result_cost) = if self.tabu_search { (self.best, best_cost) } else { (self.perm, cur) };
        // The search that claimed the stop word on reaching the target (`hit`, thread 0's)
        // leaves its result for the host first: the permutation, a barrier, then the cost
        // and the flag, each store ordered before the next by a system fence.
        if p.hit != 0 && sync_threads_or(hit) {
            let h = p.hit as *mut TargetHit;
            unsafe {
                block_copy_bytes(core::ptr::addr_of_mut!((*h).perm) as *mut u8, result, n);
                fence_system();
                sync_threads();
                if tid == 0 {
                    core::ptr::write_volatile(core::ptr::addr_of_mut!((*h).cost), result_cost);
                    fence_system();
                    core::ptr::write_volatile(core::ptr::addr_of_mut!((*h).flag), 1);
                }
            }
        }
        unsafe {
            // A walk leaves where it stands (and its tabu matrix) for the next launch.
            block_copy_bytes(self.cant, if self.walk { self.perm } else { result }, n);
            let kept = (p.tabu as *mut i32).add(blk * n * n);
            if self.walk && NARROW {
                let window = shared_base() + p.layout.tabu as u64;
                for_each_entry(p.n, row, |i, at| {
                    *kept.add(i) = narrow_tabu::decode(ld_shared_u16(window + 2 * at as u64) as u16, self.tabu_base)
                });
            } else if self.walk && self.tabu != kept {
                for_each_entry(p.n, row, |i, at| *kept.add(i) = *self.tabu.add(at));
            }
            // Step 8 of Fig. 2: the c-ant replaces its unit's best when it is as good or better.
            let ant_cost = (p.ant_costs as *mut i64).add(blk);
            if result_cost <= *ant_cost {
                block_copy_bytes(self.ant, result, n);
            }
            sync_threads();
            if tid == 0 {
                if result_cost <= *ant_cost {
                    *ant_cost = result_cost;
                }
                *(p.cant_costs as *mut i64).add(blk) = if self.walk { cur } else { result_cost };
                *(p.ls_iters as *mut u32).add(blk) = iterations;
                reduce_add_global_u64(core::ptr::addr_of_mut!((*(p.best as *mut AcoBest)).ls_total), iterations as u64);
                if self.walk {
                    *(p.walks as *mut u32).add(blk) = self.done.wrapping_add(iterations);
                    // Its donor taken, if it had one (a store, not a flag kept in a register
                    // through the moves).
                    if p.donor_slots != 0 {
                        *(p.donor_slots as *mut u32).add(blk) = 0;
                    }
                }
            }
            if tid == rng_owner {
                store_rng(p.rng as *mut u32, blk, p.m as usize, rng);
            }
        }
    }
}

/// The search itself, with move costs in `D` and the matrices read through `M`.
#[inline(always)]
unsafe fn search<E: DevElem, D: DevCost, const WALK: bool, M: Matrix<E>>(p: &AcoParams, a: &M, b: &M, moves: u32) {
    let tid = thread_idx_x();
    let n = p.n as usize;
    let mata = p.flags & LS_MATA != 0;
    let lay = &p.layout;
    let scratch = shared_base() + lay.scratch as u64;
    let unit = unsafe { Unit::begin::<false>(p, WALK, p.n) };
    let (tabu_search, walk, tabu, perm_ptr, best_ptr) = (unit.tabu_search, unit.walk, unit.tabu, unit.perm, unit.best);
    let delta = unsafe {
        if p.flags & LS_DELTA_SHARED != 0 {
            shared_generic().add(lay.delta as usize) as *mut D
        } else {
            (p.delta as *mut D).add(unit.blk * p.moves as usize)
        }
    };
    let (cost, done) = (unit.cost, unit.done);
    let aspiration = if walk { p.aspiration as i32 } else { 0 };
    let poll = stop_poll_interval(n);
    let owner = tid < p.owners;
    let first = if owner { unsafe { *(p.first_pairs as *const u16).add(tid as usize) as u32 } } else { 0 };
    let k0 = tid * p.ns;
    let owned = if owner { (p.moves - k0).min(p.ns) } else { 0 };
    let mut rng = unsafe { load_rng(p.rng as *const u32, unit.blk, p.m as usize) };
    let (mut cur, mut best_cost) = (cost, unit.start_best());
    let (mut r, mut s, mut fresh) = (0u32, 0u32, true);
    let mut iterations = moves;
    // Thread 0: this block claimed the stop word on reaching the target (`Unit::finish`).
    let mut hit = false;
    sync_threads();

    for it in 0..moves as i32 {
        // Tabu entries hold absolute iteration numbers: a walk counts on from `done`.
        let now = if walk { (done as i32).wrapping_add(it) } else { it };
        let perm = unsafe { slice::from_raw_parts(perm_ptr as *const u8, n) };
        let mut pick = Candidate::NONE;
        let mut consider = |d: i64, u: u32, v: u32| {
            if walk && d == 0 && unsafe { null_swap(p, u, v, perm[u as usize] as u32, perm[v as usize] as u32) } {
                return;
            }
            let c = if walk {
                let until = unsafe {
                    (
                        *tabu.add(u as usize * n + perm[v as usize] as usize),
                        *tabu.add(v as usize * n + perm[u as usize] as usize),
                    )
                };
                Candidate::ranked(d, u, v, move_class(until.0, until.1, now, cur + d < best_cost, aspiration))
            } else {
                // Seed 003's two classes (`move_class` with no aspiration), as they were
                // written before the walks: the kernel keeps its registers.
                let ok = !tabu_search
                    || cur + d < best_cost
                    || unsafe {
                        authorized(
                            *tabu.add(u as usize * n + perm[v as usize] as usize),
                            *tabu.add(v as usize * n + perm[u as usize] as usize),
                            now,
                        )
                    };
                Candidate::new(d, u, v, ok)
            };
            if c.better(&pick) {
                pick = c;
            }
        };
        if owner {
            let (mut u, mut v) = unpack_pair(first);
            for j in 0..owned {
                let slot = unsafe { delta.add((k0 + j) as usize) };
                if !fresh && !touches(u, v, r, s) {
                    let d = delta_update(a, b, perm, unsafe { *slot }, r as usize, s as usize, u as usize, v as usize);
                    unsafe { *slot = d };
                    consider(d.to_i64(), u, v);
                } else if fresh || !mata {
                    let d: D = delta_full_in(a, b, perm, u as usize, v as usize);
                    unsafe { *slot = d };
                    consider(d.to_i64(), u, v);
                }
                (u, v) = next_pair(u, v);
            }
        } else if mata && !fresh && tid >= p.tl_start {
            let shape = qapgpu_common::mata::Shape {
                n: p.n,
                ns: p.ns,
                mapping: qapgpu_common::mata::Mapping::Mata,
                moves: p.moves,
                owners: p.owners,
                tl_start: p.tl_start,
                total: p.tl_start + 2 * p.n,
                lanes: 1,
            };
            if let Some((u, v)) = shape.long_move(tid, r, s) {
                let d: D = delta_full_in(a, b, perm, u as usize, v as usize);
                unsafe { *delta.add(move_index(u, v) as usize) = d };
                consider(d.to_i64(), u, v);
            }
        }
        let pick = unsafe { block_argmin(pick, scratch) };
        if !tabu_search && pick.delta >= 0 {
            iterations = it as u32 + 1;
            break;
        }
        (r, s) = pick.pair();
        fresh = false;
        if tid == 0 {
            unsafe {
                if tabu_search {
                    let (tr, ts) = tenure_rule(p, unit.blk).draw(&mut rng);
                    *tabu.add(r as usize * n + *perm_ptr.add(r as usize) as usize) = now + tr;
                    *tabu.add(s as usize * n + *perm_ptr.add(s as usize) as usize) = now + ts;
                }
                let (pr, ps) = (*perm_ptr.add(r as usize), *perm_ptr.add(s as usize));
                *perm_ptr.add(r as usize) = ps;
                *perm_ptr.add(s as usize) = pr;
            }
        }
        cur += pick.delta;
        // Publishes the swap (and frees the argmin slots for the next iteration), and
        // whether the host asked to stop.
        let stop = sync_threads_or(tid == 0 && it % poll == poll - 1 && stop_requested(p.stop));
        if tabu_search && cur < best_cost {
            best_cost = cur;
            unsafe { block_copy_bytes(best_ptr, perm_ptr, n) };
        }
        // The run's target: this block is done, and the others stop at their next poll.
        // (`cur` and `best_cost` are the same in every thread: the branch is uniform.)
        let reached = if tabu_search { best_cost } else { cur } <= p.target;
        if reached && tid == 0 {
            hit = claim_stop(p.stop);
        }
        if stop || reached {
            iterations = it as u32 + 1;
            break;
        }
    }
    sync_threads();
    unsafe { unit.finish::<false>(p, cur, best_cost, iterations, &rng, 0, hit, p.n) };
}
