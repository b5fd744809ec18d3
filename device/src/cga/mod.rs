//! The cellular GA of seeds 002/004 (PGAGrid): one generation is five launches with no
//! host round trip — tournament, crossover, best (elite), local search with mutation and
//! transposition (`ls.rs`), best again. The cheap operators map one thread to one
//! individual and apply the `qapgpu_common::cga` functions; the local search maps a block
//! to an individual.
use core::slice;

use qapgpu_common::MAX_N;
use qapgpu_common::cga::{CgaBest, RANDOM_PARTNER_SALT, Topology, best_neighbour, crossover_cut, mox};
use qapgpu_common::cost::cost;
use qapgpu_common::ops::random_permutation;
use qapgpu_common::params::CgaParams;
use qapgpu_common::rng::Xoshiro128;
use qapgpu_common::shuffle::Shuffle;

use crate::intrinsics::*;
use crate::matrices::{DevElem, View};
use crate::rngs::{load_rng, store_rng};

mod ls;

#[inline(always)]
fn global_thread() -> usize {
    (block_idx_x() * block_dim_x() + thread_idx_x()) as usize
}

#[inline(always)]
fn population(p: &CgaParams) -> usize {
    (p.w * p.h) as usize
}

/// Row `k` of the population buffer at `base`.
#[inline(always)]
unsafe fn row<'a>(p: &CgaParams, base: u64, k: usize) -> &'a mut [u8] {
    unsafe { slice::from_raw_parts_mut((base as *mut u8).add(k * p.stride as usize), p.n as usize) }
}

/// Random individual k and its cost; seeds k's RNG stream.
#[inline(always)]
unsafe fn init<E: DevElem>(p: &CgaParams) {
    let (k, n, total) = (global_thread(), p.n as usize, population(p));
    if k >= total {
        return;
    }
    let mut rng = Xoshiro128::from_stream(p.seed, k as u64);
    let r = unsafe { row(p, p.pop, k) };
    random_permutation(&mut rng, r);
    let c = cost(&View::<E, _>::global(p.a, n), &View::<E, _>::global(p.b, n), r);
    unsafe {
        *(p.costs as *mut i64).add(k) = c;
        store_rng(p.rng as *mut u32, k, total, &rng);
    }
}

/// Crossover of individual k with its partner (best neighbour, or ψ(k) for the random
/// pairing) from the tournament's output `pop_alt`; the child (or k unchanged) goes to `pop`.
#[inline(always)]
unsafe fn cross<E: DevElem>(p: &CgaParams) {
    let (k, n, total) = (global_thread(), p.n as usize, population(p));
    if k >= total {
        return;
    }
    let costs_alt = unsafe { slice::from_raw_parts(p.costs_alt as *const i64, total) };
    let partner = match Topology::from_u32(p.topology) {
        Topology::Random => {
            Shuffle::new(total as u32, p.seed ^ RANDOM_PARTNER_SALT, p.generation as u64).apply(k as u32)
        }
        t => best_neighbour(costs_alt, p.w, p.h, k as u32, t),
    } as usize;
    let mut rng = unsafe { load_rng(p.rng as *const u32, k, total) };
    let (parent, mate, out) = unsafe { (row(p, p.pop_alt, k), row(p, p.pop_alt, partner), row(p, p.pop, k)) };
    let mut c = costs_alt[k];
    match crossover_cut(&mut rng, n, p.pc_threshold) {
        Some(cut) => {
            let mut taken = [0u8; MAX_N];
            mox(parent, mate, cut, out, &mut taken);
            let child = cost(&View::<E, _>::global(p.a, n), &View::<E, _>::global(p.b, n), out);
            if child <= c {
                c = child;
            } else {
                out.copy_from_slice(parent);
            }
        }
        None => out.copy_from_slice(parent),
    }
    unsafe {
        *(p.costs as *mut i64).add(k) = c;
        store_rng(p.rng as *mut u32, k, total, &rng);
    }
}

macro_rules! cga_kernels {
    ($t:ty, $init:ident, $cross:ident) => {
        /// Random initial individuals and their costs.
        ///
        /// # Safety
        /// `p` points to a `CgaParams` whose buffers hold P = w·h individuals; launch ≥ P
        /// threads in all, no shared memory.
        ///
        /// # Thread mapping
        /// One thread per individual; threads past P return.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $init(p: *const CgaParams) {
            unsafe { init::<$t>(&*p) }
        }

        /// Crossover (MOX with the best neighbour, p_c) and neutral replacement, from
        /// `pop_alt` into `pop`.
        ///
        /// # Safety
        /// As the init kernel; `pop_alt` and `costs_alt` hold the tournament's output.
        ///
        /// # Thread mapping
        /// One thread per individual; threads past P return.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $cross(p: *const CgaParams) {
            unsafe { cross::<$t>(&*p) }
        }
    };
}
cga_kernels!(u16, cga_init_u16, cga_crossover_u16);
cga_kernels!(i32, cga_init_i32, cga_crossover_i32);

/// Elitist binary tournament: individual k of `pop_alt` becomes φ(k) of `pop` when φ(k) is
/// strictly better, else k itself; φ is this generation's keyed permutation, computed by
/// every thread on the device.
///
/// # Safety
/// `p` points to a `CgaParams`; launch ≥ P threads in all, no shared memory.
///
/// # Thread mapping
/// One thread per individual; threads past P return.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn cga_tournament(p: *const CgaParams) {
    let p = unsafe { &*p };
    let (k, total) = (global_thread(), population(p));
    if k >= total {
        return;
    }
    let j = Shuffle::new(total as u32, p.seed, p.generation as u64).apply(k as u32) as usize;
    unsafe {
        let costs = p.costs as *const i64;
        let src = if *costs.add(j) < *costs.add(k) { j } else { k };
        row(p, p.pop_alt, k).copy_from_slice(row(p, p.pop, src));
        *(p.costs_alt as *mut i64).add(k) = *costs.add(src);
    }
}

/// The best individual of `pop` (lowest index among equals) becomes the elite of this
/// generation and, when strictly better, the best-so-far.
///
/// # Safety
/// `p` points to a `CgaParams`; launch one block of 32 threads.
///
/// # Thread mapping
/// Each lane scans a stride of the costs; lane 0 merges the 32 minima.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn cga_best(p: *const CgaParams) {
    let p = unsafe { &*p };
    if block_idx_x() != 0 {
        return;
    }
    let total = population(p);
    let costs = unsafe { slice::from_raw_parts(p.costs as *const i64, total) };
    let lane = thread_idx_x() as usize;
    let mut k = lane.min(total - 1);
    let mut i = lane;
    while i < total {
        if costs[i] < costs[k] {
            k = i;
        }
        i += 32;
    }
    // Lowest cost, then lowest index, across the warp.
    let mut c = costs[k];
    let mut off = 16;
    while off > 0 {
        let (oc, ok) = (shfl_down_i64(c, off), shfl_down_u32(k as u32, off) as usize);
        if oc < c || (oc == c && ok < k) {
            (c, k) = (oc, ok);
        }
        off >>= 1;
    }
    if lane == 0 {
        unsafe {
            let best = p.best as *mut CgaBest;
            (*best).elite = k as u32;
            if c < (*best).cost {
                (*best).cost = c;
                (*best).generation = p.generation;
                let dst = &mut *best;
                dst.perm[..p.n as usize].copy_from_slice(row(p, p.pop, k));
            }
        }
    }
}
