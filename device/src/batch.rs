//! Batch launches (`host::batch::gpu`): many instances of one size and plan in one grid, the
//! instance in `blockIdx.y`, each with its own parameter block. The walk kernels, the init
//! kernels and `aco_best` take an array of `AcoParams` and read the one of their block's
//! instance; a launch of one instance (grid y = 1, every other launch) reads the first.
use qapgpu_common::params::AcoParams;

use crate::intrinsics::block_idx_y;

/// The parameter block of this block's instance: entry `blockIdx.y` of the array at `p`.
///
/// # Safety
/// `p` points to at least `gridDim.y` `AcoParams`, which outlive the launch.
#[inline(always)]
pub(crate) unsafe fn of_block<'a>(p: *const AcoParams) -> &'a AcoParams {
    unsafe { &*p.add(block_idx_y() as usize) }
}
