//! Tiny wrappers over PTX special registers and instructions, each with its pitfall.
use core::arch::{asm, global_asm};

// Dynamic shared memory: one block-sized array whose size is given at launch.
global_asm!(".extern .shared .align 16 .b8 QAP_DYN_SHARED[];");

/// `threadIdx.x`.
#[inline(always)]
pub fn thread_idx_x() -> u32 {
    unsafe { core::arch::nvptx::_thread_idx_x() as u32 }
}

/// `blockIdx.x`.
#[inline(always)]
pub fn block_idx_x() -> u32 {
    unsafe { core::arch::nvptx::_block_idx_x() as u32 }
}

/// `blockIdx.y`: the instance of a batch launch (`params::of_block`), 0 elsewhere.
#[inline(always)]
pub fn block_idx_y() -> u32 {
    unsafe { core::arch::nvptx::_block_idx_y() as u32 }
}

/// `blockDim.x`.
#[inline(always)]
pub fn block_dim_x() -> u32 {
    unsafe { core::arch::nvptx::_block_dim_x() as u32 }
}

/// `%globaltimer`: nanoseconds, shared by all SMs.
/// Pitfall: its resolution is about a microsecond on some GPUs; never use it for short
/// intervals inside a kernel.
#[inline(always)]
pub fn global_timer_ns() -> u64 {
    let r: u64;
    unsafe { asm!("mov.u64 {r}, %globaltimer;", r = out(reg64) r, options(nomem, nostack)) };
    r
}

/// `__syncthreads()`.
/// Pitfall: every thread of the block must reach the same barrier; a barrier inside a
/// branch that some threads skip hangs or corrupts the block.
#[inline(always)]
pub fn sync_threads() {
    unsafe { core::arch::nvptx::_syncthreads() }
}

/// `__syncthreads_or(pred)`: a barrier that also returns whether any thread passed true.
/// Pitfall: as `sync_threads`, and the result is only uniform because it comes out of the
/// barrier: use it for block-wide decisions (break out of a loop that holds barriers).
#[inline(always)]
pub fn sync_threads_or(pred: bool) -> bool {
    let r: u32;
    unsafe {
        asm!(
            "{{ .reg .pred p, q; setp.ne.u32 p, {x}, 0; bar.red.or.pred q, 0, p; selp.u32 {r}, 1, 0, q; }}",
            x = in(reg32) pred as u32, r = out(reg32) r, options(nostack)
        );
    }
    r != 0
}

/// `__syncthreads_count(pred)`: a barrier that returns how many threads passed true.
/// Pitfall: as `sync_threads`.
#[inline(always)]
pub fn sync_threads_count(pred: bool) -> u32 {
    let r: u32;
    unsafe {
        asm!(
            "{{ .reg .pred p; setp.ne.u32 p, {x}, 0; bar.red.popc.u32 {r}, 0, p; }}",
            x = in(reg32) pred as u32, r = out(reg32) r, options(nostack)
        );
    }
    r
}

/// `__shfl_down_sync(0xffffffff, v, delta)`.
/// Pitfall: the full mask requires all 32 lanes to execute it; lanes past the end of the
/// warp get their own value back. The asm is deliberately not `pure`: a pure asm may be
/// sunk into a branch that only some lanes take (LLVM moved a block sum's shuffles under
/// `if lane == 0`, and the block hung), while a side-effecting one stays where all lanes
/// run it.
#[inline(always)]
pub fn shfl_down_u32(v: u32, delta: u32) -> u32 {
    let r: u32;
    unsafe {
        asm!("shfl.sync.down.b32 {r}, {v}, {d}, 0x1f, 0xffffffff;",
            r = out(reg32) r, v = in(reg32) v, d = in(reg32) delta, options(nomem, nostack));
    }
    r
}

/// `__shfl_sync(0xffffffff, v, src)`: every lane gets lane `src`'s `v`.
/// Pitfall: as `shfl_down_u32` (full mask, every lane executes it; not `pure`).
#[inline(always)]
pub fn shfl_idx_u32(v: u32, src: u32) -> u32 {
    let r: u32;
    unsafe {
        asm!("shfl.sync.idx.b32 {r}, {v}, {s}, 0x1f, 0xffffffff;",
            r = out(reg32) r, v = in(reg32) v, s = in(reg32) src, options(nomem, nostack));
    }
    r
}

/// 64-bit `shfl_idx_u32`. Pitfall: as `shfl_idx_u32`.
#[inline(always)]
pub fn shfl_idx_i64(v: i64, src: u32) -> i64 {
    let lo = shfl_idx_u32(v as u32, src) as u64;
    let hi = shfl_idx_u32((v as u64 >> 32) as u32, src) as u64;
    (lo | hi << 32) as i64
}

/// 64-bit shuffle down, as two 32-bit shuffles. Pitfall: as `shfl_down_u32`.
#[inline(always)]
pub fn shfl_down_i64(v: i64, delta: u32) -> i64 {
    let lo = shfl_down_u32(v as u32, delta) as u64;
    let hi = shfl_down_u32((v as u64 >> 32) as u32, delta) as u64;
    (lo | hi << 32) as i64
}

/// Address of the dynamic shared array in the shared window (for `ld.shared`/`atom.shared`).
/// Pitfall: not a generic pointer; dereferencing it from Rust reads global memory.
#[inline(always)]
pub fn shared_base() -> u64 {
    let r: u64;
    unsafe { asm!("mov.u64 {r}, QAP_DYN_SHARED;", r = out(reg64) r, options(pure, nomem, nostack)) };
    r
}

/// Generic pointer to the dynamic shared array, usable by ordinary Rust loads and stores.
/// Pitfall: generic accesses cost a little more than `ld.shared`; keep the hot loads on
/// `shared_base` addresses.
#[inline(always)]
pub fn shared_generic() -> *mut u8 {
    let r: u64;
    unsafe {
        asm!("cvta.shared.u64 {r}, QAP_DYN_SHARED;", r = out(reg64) r, options(pure, nomem, nostack));
    }
    r as *mut u8
}

/// `atomicAdd` on a global u64 whose old value nobody reads (`red`, no return trip).
/// Pitfall: `addr` is a global (generic) address, not a shared one.
#[inline(always)]
pub unsafe fn reduce_add_global_u64(addr: *mut u64, v: u64) {
    unsafe { asm!("red.global.add.u64 [{a}], {v};", a = in(reg64) addr, v = in(reg64) v, options(nostack)) };
}

/// `atomicCAS` on a global u32: writes `value` where the word holds `compare`, and returns
/// what it held. Pitfall: `addr` is a global (generic) address; the exchange is atomic
/// among the device's threads, not against the host's copies to the word.
#[inline(always)]
pub unsafe fn atomic_cas_global_u32(addr: *mut u32, compare: u32, value: u32) -> u32 {
    let r: u32;
    unsafe {
        asm!("atom.global.cas.b32 {r}, [{a}], {c}, {v};", r = out(reg32) r, a = in(reg64) addr, c = in(reg32) compare, v = in(reg32) value, options(nostack));
    }
    r
}

/// `__threadfence_system()`: this thread's earlier writes (and those a barrier made its own)
/// reach the host before its later ones. Pitfall: slow (a round trip to the system); once a
/// run, not once a move.
#[inline(always)]
pub fn fence_system() {
    unsafe { asm!("fence.sc.sys;", options(nostack)) };
}

/// `atomicMin` on a shared i64. Pitfall: needs a shared-window address, not a generic one.
#[inline(always)]
pub unsafe fn atomic_min_shared_i64(addr: u64, v: i64) {
    unsafe { asm!("atom.shared.min.s64 _, [{a}], {v};", a = in(reg64) addr, v = in(reg64) v, options(nostack)) };
}

/// `atomicMin` on a shared u32. Pitfall: as `atomic_min_shared_i64`.
#[inline(always)]
pub unsafe fn atomic_min_shared_u32(addr: u64, v: u32) {
    unsafe { asm!("atom.shared.min.u32 _, [{a}], {v};", a = in(reg64) addr, v = in(reg32) v, options(nostack)) };
}

/// `atomicAdd` on a shared u32. Pitfall: as `atomic_min_shared_i64`.
#[inline(always)]
pub unsafe fn atomic_add_shared_u32(addr: u64, v: u32) {
    unsafe { asm!("red.shared.add.u32 [{a}], {v};", a = in(reg64) addr, v = in(reg32) v, options(nostack)) };
}

/// Plain shared loads and stores on shared-window addresses.
/// Pitfall: no ordering with other threads without a barrier.
#[inline(always)]
pub unsafe fn ld_shared_i64(addr: u64) -> i64 {
    let r: i64;
    unsafe { asm!("ld.shared.s64 {r}, [{a}];", r = out(reg64) r, a = in(reg64) addr, options(readonly, nostack)) };
    r
}

#[inline(always)]
pub unsafe fn ld_shared_u32(addr: u64) -> u32 {
    let r: u32;
    unsafe { asm!("ld.shared.u32 {r}, [{a}];", r = out(reg32) r, a = in(reg64) addr, options(readonly, nostack)) };
    r
}

#[inline(always)]
pub unsafe fn st_shared_i64(addr: u64, v: i64) {
    unsafe { asm!("st.shared.s64 [{a}], {v};", a = in(reg64) addr, v = in(reg64) v, options(nostack)) };
}

#[inline(always)]
pub unsafe fn st_shared_u32(addr: u64, v: u32) {
    unsafe { asm!("st.shared.u32 [{a}], {v};", a = in(reg64) addr, v = in(reg32) v, options(nostack)) };
}

/// Loads and stores at a 32-bit shared-window address (`shared_base() as u32` plus an
/// offset): a loop that steps such an address keeps it in one register and one add, where
/// a 64-bit address takes a pair and an add with carry. Pitfall: as `ld_shared_i64`; the
/// address is a window address, never a generic one; `addr` 4-byte aligned.
#[inline(always)]
pub unsafe fn ld_shared32_u32(addr: u32) -> u32 {
    let r: u32;
    unsafe { asm!("ld.shared.u32 {r}, [{a}];", r = out(reg32) r, a = in(reg32) addr, options(readonly, nostack)) };
    r
}

/// Pitfall: as `ld_shared32_u32`.
#[inline(always)]
pub unsafe fn st_shared32_u32(addr: u32, v: u32) {
    unsafe { asm!("st.shared.u32 [{a}], {v};", a = in(reg32) addr, v = in(reg32) v, options(nostack)) };
}

/// Pitfall: as `ld_shared32_u32`; `addr` 8-byte aligned.
#[inline(always)]
pub unsafe fn ld_shared32_i64(addr: u32) -> i64 {
    let r: i64;
    unsafe { asm!("ld.shared.s64 {r}, [{a}];", r = out(reg64) r, a = in(reg32) addr, options(readonly, nostack)) };
    r
}

/// Pitfall: as `ld_shared32_i64`.
#[inline(always)]
pub unsafe fn st_shared32_i64(addr: u32, v: i64) {
    unsafe { asm!("st.shared.s64 [{a}], {v};", a = in(reg32) addr, v = in(reg64) v, options(nostack)) };
}

/// Byte load, zero-extended. Pitfall: as `ld_shared_i64`.
#[inline(always)]
pub unsafe fn ld_shared_u8(addr: u64) -> u32 {
    let r: u32;
    unsafe { asm!("ld.shared.u8 {r}, [{a}];", r = out(reg32) r, a = in(reg64) addr, options(readonly, nostack)) };
    r
}

/// Stores the low byte of `v`. Pitfall: as `ld_shared_i64`.
#[inline(always)]
pub unsafe fn st_shared_u8(addr: u64, v: u32) {
    unsafe { asm!("st.shared.u8 [{a}], {v};", a = in(reg64) addr, v = in(reg32) v, options(nostack)) };
}

/// 16-bit load, zero-extended. Pitfall: as `ld_shared_i64`; `addr` 2-byte aligned.
#[inline(always)]
pub unsafe fn ld_shared_u16(addr: u64) -> u32 {
    let r: u32;
    unsafe { asm!("ld.shared.u16 {r}, [{a}];", r = out(reg32) r, a = in(reg64) addr, options(readonly, nostack)) };
    r
}

/// Stores the low 16 bits of `v`. Pitfall: as `ld_shared_u16`.
#[inline(always)]
pub unsafe fn st_shared_u16(addr: u64, v: u32) {
    unsafe { asm!("st.shared.u16 [{a}], {v};", a = in(reg64) addr, v = in(reg32) v, options(nostack)) };
}
