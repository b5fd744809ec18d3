//! Every local-search kernel, instantiated from the one table
//! (`qapgpu_common::ls_kernel_list!`): a body (`Body`) in a role (`Role`) for one element
//! type. The host loads them by the table's names, and `cargo xtask build-ptx` caps their
//! registers and checks their spills from the same table (`search::kernels::budget`).
use qapgpu_common::params::AcoParams;

use super::ls::{Mata, run, run_fast};
use super::split::Split;
use super::sums::Sums;
use crate::batch::of_block;

/// One body's dispatch: the general bodies through `ls::run` (move-cost type and
/// matrices' memory picked per launch from the plan's flags), the fast path's through
/// `ls::run_fast` (`NARROW`, `GPAIRS` fixed at compile time). A kernel of both roles
/// (`Role::Either`) is the general body's with `WALK` false: its bodies read the role from
/// the launch's `LS_WALK` flag (`ls::walk_launch`).
macro_rules! body {
    (Mata, $t:ty, $walk:literal, $p:expr, $moves:expr) => {
        run::<Mata, $t, $walk>($p, $moves)
    };
    (Split, $t:ty, $walk:literal, $p:expr, $moves:expr) => {
        run::<Split, $t, $walk>($p, $moves)
    };
    (Sums, $t:ty, $walk:literal, $p:expr, $moves:expr) => {
        run::<Sums, $t, $walk>($p, $moves)
    };
    (SumsFast, $t:ty, $walk:literal, $p:expr, $moves:expr) => {
        run_fast::<Sums, $t, $walk, false, false>($p, $moves)
    };
    (SumsFastNarrow, $t:ty, $walk:literal, $p:expr, $moves:expr) => {
        run_fast::<Sums, $t, $walk, true, false>($p, $moves)
    };
    (SumsFastNarrowGlobalPairs, $t:ty, $walk:literal, $p:expr, $moves:expr) => {
        run_fast::<Sums, $t, $walk, true, true>($p, $moves)
    };
}

/// One entry of the table.
macro_rules! kernel {
    ($name:ident, Wide, Walk, $t:ty) => {
        #[doc = concat!("`moves` more moves of every wide walk (n above 256), ", stringify!($t), " matrices")]
        /// (`qapgpu_common::wide::wide_walk` on the CPU; `crate::ts::wide`).
        ///
        /// # Safety
        /// `p` points to a `WideParams` whose arrays hold `m` walks of n (the host's
        /// `WidePlan`); launch `m` blocks of a multiple of 32 threads with the plan's
        /// `shared_bytes` of dynamic shared memory.
        ///
        /// # Thread mapping
        /// Block = walk; threads stride over the Δ table's moves (scan) and over the
        /// facilities x (terms, touched rows); thread 0 applies each move.
        ///
        /// # Registers
        /// `qapgpu_common::search::kernels::budget` (capped in the PTX by xtask).
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(p: *const qapgpu_common::wide::WideParams, moves: u32) {
            unsafe { crate::ts::wide::walk::<$t>(&*p, moves) }
        }
    };
    ($name:ident, $body:ident, Search, $t:ty) => {
        #[doc = concat!("The local search of every c-ant on the `", stringify!($body), "` body (`Body::", stringify!($body), "`), ", stringify!($t), " matrices,")]
        /// then step 8 of cAS: the result replaces its unit's best ant when it is as good or
        /// better.
        ///
        /// # Safety
        /// `p` points to an `AcoParams` whose buffers are allocated for `m` ants, and whose
        /// `layout` and `flags` come from a plan that names this kernel
        /// (`qapgpu_common::search::plan`); launch with one block an ant (a wave of them),
        /// the plan's `shape.launched()` threads a block and `layout.total` bytes of dynamic
        /// shared memory.
        ///
        /// # Thread mapping
        /// Block = ant; threads map to moves as the body's module says (`ls`, `split`,
        /// `sums`).
        ///
        /// # Registers
        /// `qapgpu_common::search::kernels::budget` (capped in the PTX by xtask).
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(p: *const AcoParams) {
            unsafe { body!($body, $t, false, &*p, (*p).ls_iterations) }
        }
    };
    ($name:ident, $body:ident, Either, $t:ty) => {
        either_kernel!($name, $body, $t);
    };
    ($name:ident, $body:ident, Walk, $t:ty) => {
        #[doc = concat!("`moves` more moves of every walk on the `", stringify!($body), "` body (`Body::", stringify!($body), "`), ", stringify!($t), " matrices:")]
        /// robust tabu search going on from launch to launch (`ls::tabu_walk` on the CPU),
        /// from its c-ant, with its tabu matrix in `p.tabu` and its iteration count in
        /// `p.walks`; the current solution goes back to the c-ant, the best to the unit's ant.
        ///
        /// # Safety
        /// As the search kernels, with `p.tabu` holding m·n² i32 and `p.walks` m u32 (zero
        /// before a walk's first launch, when its tabu matrix is all `TABU_FREE`). A batch
        /// launch (`crate::batch`) gives an array of such blocks, one per `blockIdx.y`.
        ///
        /// # Thread mapping
        /// Block x = walk of instance y (`crate::batch::of_block`); threads map to moves as
        /// the body's module says.
        ///
        /// # Registers
        /// `qapgpu_common::search::kernels::budget` (capped in the PTX by xtask).
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(p: *const AcoParams, moves: u32) {
            unsafe { body!($body, $t, true, of_block(p), moves) }
        }
    };
}

macro_rules! either_kernel {
    ($name:ident, $body:ident, $t:ty) => {
        #[doc = concat!("The local search of every c-ant, or `moves` more moves of every walk where the launch's")]
        #[doc = concat!("`LS_WALK` flag says so, on the `", stringify!($body), "` body (`Body::", stringify!($body), "`), ", stringify!($t), " matrices.")]
        /// A search is followed by step 8 of cAS; a walk goes on from launch to launch as the
        /// walk kernels' docs say.
        ///
        /// # Safety
        /// As the search kernels (`moves` = `p.ls_iterations`) or the walk kernels, as
        /// `LS_WALK` says.
        ///
        /// # Thread mapping
        /// Block = ant or walk; threads map to moves as the body's module says.
        ///
        /// # Registers
        /// `qapgpu_common::search::kernels::budget` (capped in the PTX by xtask).
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(p: *const AcoParams, moves: u32) {
            unsafe { body!($body, $t, false, of_block(p), moves) }
        }
    };
}

macro_rules! define {
    ($(($name:ident, $body:ident, $role:ident, $t:ty)),* $(,)?) => {
        $(kernel!($name, $body, $role, $t);)*
    };
}

qapgpu_common::ls_kernel_list!(define);
