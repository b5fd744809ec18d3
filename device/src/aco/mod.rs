//! The cunning ant system kernels of seed 003 (its Table 1), besides the local search
//! (`ls.rs`): initial ants, c-ant construction, the best-so-far, and the four pheromone
//! kernels. Each applies one `qapgpu_common::aco` function per thread.
use core::slice;

use qapgpu_common::MAX_N;
use qapgpu_common::aco::{Bounds, clamp, construct, lay_row};
use qapgpu_common::cost::cost;
use qapgpu_common::ls::Candidate;
use qapgpu_common::ops::random_permutation;
use qapgpu_common::params::{AcoBest, AcoParams};
use qapgpu_common::rng::Xoshiro128;

use crate::batch::of_block;
use crate::block::{block_argmin, block_copy_bytes, block_cost};
use crate::intrinsics::*;
use crate::matrices::{DevElem, View};
use crate::rngs::{load_rng, store_rng};

#[inline(always)]
fn global_thread() -> usize {
    (block_idx_x() * block_dim_x() + thread_idx_x()) as usize
}

/// The cost of `row`, a permutation in shared memory at `shared_generic()`, summed by the
/// whole block (`block::block_cost`); the warps' sums meet in the scratch after the row's
/// `MAX_N` bytes. Every thread gets the total.
/// Shared by the initial c-ants and the perturbed walks (`ts::perturb`).
///
/// # Safety
/// Every thread of a block of a multiple of 32 threads calls it (full-warp shuffles and
/// barriers); `row.len()` is `p.n`; the dynamic shared memory has `MAX_N` bytes and
/// `LS_SCRATCH_PER_WARP` a warp after them; `p.a` and `p.b` are n × n of `E`.
#[inline(always)]
pub(crate) unsafe fn block_row_cost<E: DevElem>(p: &AcoParams, row: &[u8]) -> i64 {
    let n = p.n as usize;
    let (a, b) = (View::<E, _>::global(p.a, n), View::<E, _>::global(p.b, n));
    unsafe { block_cost(&a, &b, row, shared_base() + MAX_N as u64) }
}

/// Step 3: seeds ant k's RNG stream and draws a random c-ant; no unit has a best yet. Thread
/// 0 draws the permutation into shared memory (one thread per ant spent 80 µs on 792 ants of
/// tai35b in its serial O(n²) cost), and the block sums its cost terms
/// (`cost::strided_cost`), whose loads a warp an ant waited out one row after another.
#[inline(always)]
unsafe fn init<E: DevElem>(p: &AcoParams) {
    let (k, n, m) = (block_idx_x() as usize, p.n as usize, p.m as usize);
    let tid = thread_idx_x() as usize;
    // Whole blocks leave together: the barriers below need every thread.
    if k >= m {
        return;
    }
    let row = unsafe { slice::from_raw_parts_mut(shared_generic(), n) };
    if tid == 0 {
        let mut rng = Xoshiro128::from_stream(p.seed, k as u64);
        random_permutation(&mut rng, row);
        unsafe {
            *(p.ant_costs as *mut i64).add(k) = i64::MAX;
            store_rng(p.rng as *mut u32, k, m, &rng);
        }
    }
    sync_threads();
    unsafe { block_copy_bytes((p.cants as *mut u8).add(k * p.stride as usize), row.as_ptr(), n) };
    let c = unsafe { block_row_cost::<E>(p, row) };
    if tid == 0 {
        unsafe { *(p.cant_costs as *mut i64).add(k) = c };
    }
}

/// Step 6: c-ant k from its unit's best ant (the donor) and τ.
#[inline(always)]
unsafe fn build<E: DevElem>(p: &AcoParams) {
    let (k, n, m, stride) = (global_thread(), p.n as usize, p.m as usize, p.stride as usize);
    if k >= m {
        return;
    }
    let mut rng = unsafe { load_rng(p.rng as *const u32, k, m) };
    let (mut marked, mut free) = ([0u8; MAX_N], [0u8; MAX_N]);
    unsafe {
        let donor = slice::from_raw_parts((p.ants as *const u8).add(k * stride), n);
        let tau = slice::from_raw_parts(p.tau as *const f32, n * n);
        let out = slice::from_raw_parts_mut((p.cants as *mut u8).add(k * stride), n);
        construct(&mut rng, donor, tau, p.gamma_threshold, out, &mut marked[..n], &mut free[..n]);
        let c = cost(&View::<E, _>::global(p.a, n), &View::<E, _>::global(p.b, n), out);
        *(p.cant_costs as *mut i64).add(k) = c;
        store_rng(p.rng as *mut u32, k, m, &rng);
    }
}

macro_rules! ant_kernels {
    ($t:ty, $init:ident, $construct:ident) => {
        /// Random initial c-ants (step 3 of Fig. 2) and their costs.
        ///
        /// # Safety
        /// `p` points to an `AcoParams` with buffers for `m` ants; launch ≥ m blocks of a
        /// multiple of 32 threads (`INIT_THREADS`) with `MAX_N` bytes of dynamic shared
        /// memory and `LS_SCRATCH_PER_WARP` a warp after them.
        ///
        /// # Thread mapping
        /// One block per ant (its permutation in the shared row); blocks past m return. In a
        /// batch launch, block y is instance y (`crate::batch::of_block`).
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $init(p: *const AcoParams) {
            unsafe { init::<$t>(of_block(p)) }
        }

        /// Construct_solutions (step 6): one c-ant per unit from its donor and τ.
        ///
        /// # Safety
        /// As the init kernel; τ holds n² values.
        ///
        /// # Thread mapping
        /// One thread per ant (the paper used one single-thread block per ant).
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $construct(p: *const AcoParams) {
            unsafe { build::<$t>(&*p) }
        }
    };
}
ant_kernels!(u16, aco_init_u16, aco_construct_u16);
ant_kernels!(i32, aco_init_i32, aco_construct_i32);

/// The best unit ant (lowest index among equals) becomes the best-so-far when it is
/// strictly better: the one value the host reads every iteration.
///
/// # Safety
/// `p` points to an `AcoParams` (an array of them, one per `blockIdx.y`, in a batch launch);
/// launch one block of whole warps (per instance) with `LS_SCRATCH_PER_WARP` bytes of
/// dynamic shared memory a warp.
///
/// # Thread mapping
/// Block y is instance y (`crate::batch::of_block`). Thread t scans the costs k ≡ t (mod T);
/// a block argmin (the lowest index among equal
/// costs, as `aco::best_unit`) picks the unit, and thread i copies byte i of its ant. One
/// thread scanning 792 costs took 71 µs of every launch.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn aco_best(p: *const AcoParams) {
    let p = unsafe { of_block(p) };
    if block_idx_x() != 0 {
        return;
    }
    let (tid, threads) = (thread_idx_x() as usize, block_dim_x() as usize);
    let mut c = Candidate::NONE;
    let mut k = tid;
    while k < p.m as usize {
        let x = Candidate { delta: unsafe { *(p.ant_costs as *const i64).add(k) }, tag: k as u32 };
        if x.better(&c) {
            c = x;
        }
        k += threads;
    }
    let win = unsafe { block_argmin(c, shared_base()) };
    let best = p.best as *mut AcoBest;
    // Every thread reads the old cost before any thread writes the new one.
    let better = win.delta < unsafe { (*best).cost };
    sync_threads();
    if better {
        let src = unsafe { (p.ants as *const u8).add(win.tag as usize * p.stride as usize) };
        let mut i = tid;
        while i < p.n as usize {
            unsafe { (*best).perm[i] = *src.add(i) };
            i += threads;
        }
        if tid == 0 {
            unsafe { (*best).cost = win.delta };
        }
    }
}

/// τ element of this thread in an n × n grid (block = facility row, thread = location).
#[inline(always)]
unsafe fn tau_cell(p: &AcoParams) -> Option<*mut f32> {
    let (i, j, n) = (block_idx_x() as usize, thread_idx_x() as usize, p.n as usize);
    if i >= n || j >= n {
        return None;
    }
    Some(unsafe { (p.tau as *mut f32).add(i * n + j) })
}

/// Initialize_pheromone_density: τ = τ_init.
///
/// # Safety
/// `p` points to an `AcoParams` with an n² τ; launch grid n, block n.
///
/// # Thread mapping
/// One thread per τ cell.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn aco_tau_init(p: *const AcoParams) {
    let p = unsafe { &*p };
    if let Some(t) = unsafe { tau_cell(p) } {
        unsafe { *t = p.tau_init };
    }
}

/// Evaporate_pheromone: τ ← ρ τ (Eq. 1's first term).
///
/// # Safety
/// As `aco_tau_init`.
///
/// # Thread mapping
/// One thread per τ cell.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn aco_evaporate(p: *const AcoParams) {
    let p = unsafe { &*p };
    if let Some(t) = unsafe { tau_cell(p) } {
        unsafe { *t *= p.rho };
    }
}

/// Lay_pheromone: every unit's best ant lays 1/C* on its assignments (Eq. 2). One thread
/// per facility row adds the m deposits in unit order, so the f32 sums are reproducible
/// (atomics would add them in any order).
///
/// # Safety
/// `p` points to an `AcoParams`; launch ≥ n threads in total.
///
/// # Thread mapping
/// One thread per facility (a row of τ); threads past n return.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn aco_lay(p: *const AcoParams) {
    let p = unsafe { &*p };
    let (i, n, m) = (global_thread(), p.n as usize, p.m as usize);
    if i >= n {
        return;
    }
    unsafe {
        let row = slice::from_raw_parts_mut((p.tau as *mut f32).add(i * n), n);
        let ants = slice::from_raw_parts(p.ants as *const u8, m * p.stride as usize);
        let costs = slice::from_raw_parts(p.ant_costs as *const i64, m);
        lay_row(row, i, ants, p.stride as usize, costs);
    }
}

/// Max_min_pheromone: τ clamped to [τ_min, τ_max].
///
/// # Safety
/// As `aco_tau_init`.
///
/// # Thread mapping
/// One thread per τ cell.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn aco_clamp(p: *const AcoParams) {
    let p = unsafe { &*p };
    if let Some(t) = unsafe { tau_cell(p) } {
        unsafe { *t = clamp(*t, Bounds { min: p.tau_min, max: p.tau_max }) };
    }
}
