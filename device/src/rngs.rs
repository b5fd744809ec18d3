//! Per-thread RNG state in global memory, structure of arrays (u32[4][total]) so that the
//! loads and stores of consecutive threads coalesce.
use qapgpu_common::rng::Xoshiro128;

/// Loads stream `idx` of `total`.
#[inline(always)]
pub unsafe fn load_rng(base: *const u32, idx: usize, total: usize) -> Xoshiro128 {
    unsafe {
        Xoshiro128 {
            s: [*base.add(idx), *base.add(total + idx), *base.add(2 * total + idx), *base.add(3 * total + idx)],
        }
    }
}

/// Stores stream `idx` of `total`.
#[inline(always)]
pub unsafe fn store_rng(base: *mut u32, idx: usize, total: usize, rng: &Xoshiro128) {
    for k in 0..4 {
        unsafe { *base.add(k * total + idx) = rng.s[k] };
    }
}
