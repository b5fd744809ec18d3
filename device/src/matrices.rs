//! Matrix views over the three memories the GA kernel can read A and B from.
//! They implement `qapgpu_common::matrix::Matrix`, so `common::cost` runs on them unchanged.
use core::arch::{asm, global_asm};
use core::marker::PhantomData;
use qapgpu_common::elem::Elem;
use qapgpu_common::ls::{Candidate, NARROW_NONE, from_narrow, narrow_key};
use qapgpu_common::matrix::Matrix;

// Matrix A when it fits (layout::CONST_A_CAPACITY bytes); the host fills it through
// cuModuleGetGlobal. A is read with the same (i, j) by every thread of a warp at once:
// the constant cache broadcasts such reads.
global_asm!(".visible .const .align 16 .b8 QAP_CONST_A[65536];");

/// Element loads from each state space.
pub trait DevElem: Elem {
    /// Pitfall: `addr` is a constant-window address; the data must not change during the launch.
    unsafe fn ld_const(addr: u64) -> Self;
    /// Pitfall: `addr` is a shared-window address.
    unsafe fn ld_shared(addr: u64) -> Self;
    /// Read-only (non-coherent) global load. Pitfall: only for data no thread writes.
    unsafe fn ld_global_nc(addr: u64) -> Self;
    /// Pitfall: `addr` is a 32-bit shared-window address (`intrinsics::ld_shared32_u32`).
    unsafe fn ld_shared32(addr: u32) -> Self;
}

macro_rules! dev_elem {
    ($t:ty, $ptx:literal, $class:ident) => {
        impl DevElem for $t {
            #[inline(always)]
            unsafe fn ld_const(addr: u64) -> Self {
                let r: $t;
                unsafe { asm!(concat!("ld.const.", $ptx, " {r}, [{a}];"), r = out($class) r, a = in(reg64) addr, options(pure, nomem, nostack)) };
                r
            }
            #[inline(always)]
            unsafe fn ld_shared(addr: u64) -> Self {
                let r: $t;
                unsafe { asm!(concat!("ld.shared.", $ptx, " {r}, [{a}];"), r = out($class) r, a = in(reg64) addr, options(pure, readonly, nostack)) };
                r
            }
            #[inline(always)]
            unsafe fn ld_global_nc(addr: u64) -> Self {
                let r: $t;
                unsafe { asm!(concat!("ld.global.nc.", $ptx, " {r}, [{a}];"), r = out($class) r, a = in(reg64) addr, options(pure, nomem, nostack)) };
                r
            }
            #[inline(always)]
            unsafe fn ld_shared32(addr: u32) -> Self {
                let r: $t;
                unsafe { asm!(concat!("ld.shared.", $ptx, " {r}, [{a}];"), r = out($class) r, a = in(reg32) addr, options(pure, readonly, nostack)) };
                r
            }
        }
    };
}
dev_elem!(u16, "u16", reg16);
dev_elem!(u32, "u32", reg32);
dev_elem!(i32, "s32", reg32);

/// Start of `QAP_CONST_A` in the constant window.
#[inline(always)]
fn const_a_base() -> u64 {
    let r: u64;
    unsafe { asm!("mov.u64 {r}, QAP_CONST_A;", r = out(reg64) r, options(pure, nomem, nostack)) };
    r
}

/// A row-major n×n matrix at a base address of one state space.
#[derive(Clone, Copy)]
pub struct View<E, S> {
    base: u64,
    n: usize,
    _m: PhantomData<(E, S)>,
}

#[derive(Clone, Copy)]
pub struct Const;
#[derive(Clone, Copy)]
pub struct Shared;
#[derive(Clone, Copy)]
pub struct Global;

impl<E> View<E, Const> {
    pub fn const_a(n: usize) -> Self {
        View { base: const_a_base(), n, _m: PhantomData }
    }
}
impl<E> View<E, Shared> {
    pub fn shared(addr: u64, n: usize) -> Self {
        View { base: addr, n, _m: PhantomData }
    }
}
impl<E> View<E, Global> {
    pub fn global(ptr: u64, n: usize) -> Self {
        View { base: ptr, n, _m: PhantomData }
    }
}

/// A matrix whose entries a kernel reads by address (`View` over any of the three memories):
/// entry (i, j) is at `base() + (i·n + j)·size_of::<E>()`, so a loop can step along a row
/// or a column by adding a stride instead of recomputing i·n + j.
pub trait DevMatrix<E: DevElem>: Matrix<E> {
    /// The matrix is in shared memory, where `load_window` reads it.
    const SHARED: bool;
    fn base(&self) -> u64;
    /// The entry at a 32-bit shared-window address (`base() as u32` plus an offset), which a
    /// loop steps with one add. Pitfall: only where `SHARED` (elsewhere it reads the wrong
    /// address); `addr` inside this matrix.
    unsafe fn load_window(&self, addr: u32) -> E;
    /// The entry at `addr`. Pitfall: `addr` must be inside this matrix.
    unsafe fn load(&self, addr: u64) -> E;
    /// Entry x of the row-major array (x = i·n + j), the index in 32 bits: ptxas keeps
    /// such an index into shared memory in one register, where 64-bit address arithmetic
    /// costs a pair. Pitfall: x < n².
    #[inline(always)]
    unsafe fn load_index(&self, x: u32) -> E {
        unsafe { self.load(self.base() + x as u64 * core::mem::size_of::<E>() as u64) }
    }
}

macro_rules! view_matrix {
    ($space:ty, $load:ident, $shared:literal) => {
        impl<E: DevElem> Matrix<E> for View<E, $space> {
            #[inline(always)]
            fn at(&self, i: usize, j: usize) -> E {
                let addr = self.base + ((i * self.n + j) * core::mem::size_of::<E>()) as u64;
                // SAFETY: callers index inside the n×n matrix that the host placed there.
                unsafe { self.load(addr) }
            }
        }

        impl<E: DevElem> DevMatrix<E> for View<E, $space> {
            const SHARED: bool = $shared;
            #[inline(always)]
            fn base(&self) -> u64 {
                self.base
            }
            #[inline(always)]
            unsafe fn load_window(&self, addr: u32) -> E {
                unsafe { if $shared { E::ld_shared32(addr) } else { self.load(addr as u64) } }
            }
            #[inline(always)]
            unsafe fn load(&self, addr: u64) -> E {
                unsafe { E::$load(addr) }
            }
        }
    };
}
view_matrix!(Const, ld_const, false);
view_matrix!(Shared, ld_shared, true);
view_matrix!(Global, ld_global_nc, false);

/// A move cost (`MoveCost`: i32 or i64) in shared memory and across a warp.
pub trait DevCost: qapgpu_common::delta::MoveCost {
    const BYTES: u64;
    /// Pitfall: `addr` is a shared-window address, aligned to `BYTES`.
    unsafe fn ld_shared(addr: u64) -> Self;
    /// Pitfall: as `ld_shared`.
    unsafe fn st_shared(addr: u64, v: Self);
    /// At a 32-bit shared-window address (`intrinsics::ld_shared32_u32`). Pitfall: as `ld_shared`.
    unsafe fn ld_shared32(addr: u32) -> Self;
    /// Pitfall: as `ld_shared32`.
    unsafe fn st_shared32(addr: u32, v: Self);
    /// `__shfl_down_sync` over the full warp. Pitfall: as `intrinsics::shfl_down_u32`.
    fn shfl_down(self, off: u32) -> Self;

    /// The largest Δ below `room` (a difference of costs), saturated to this type, so that
    /// Δ < room is `Δ ≤ ceiling(room)`: one compare in the move-cost type. Exact for i32
    /// because no Δ reaches i32::MIN (the host picks i32 only where |Δ| ≤ i32::MAX).
    fn ceiling(room: i64) -> Self;
    fn at_most(self, c: Self) -> bool;

    /// How a thread keeps its best move in an argmin: one u64 where Δ is an i32
    /// (`ls::narrow_key`, one compare and two shuffles a step), else a `Candidate`.
    type Key: Copy;
    const NONE: Self::Key;
    fn key(class: u32, d: Self, u: u32, v: u32) -> Self::Key;
    /// `Candidate::better` on keys.
    fn less(a: &Self::Key, b: &Self::Key) -> bool;
    /// Pitfall: as `shfl_down`.
    fn shfl_down_key(k: Self::Key, off: u32) -> Self::Key;
    /// `__shfl_sync` of a key from lane `src`. Pitfall: as `shfl_down`.
    fn shfl_idx_key(k: Self::Key, src: u32) -> Self::Key;
    /// A key in an argmin slot (`layout::LS_SCRATCH_PER_WARP`: 12 bytes at most).
    /// Pitfall: `addr` is a shared-window address, 8-aligned.
    unsafe fn st_key(addr: u64, k: Self::Key);
    /// Pitfall: as `st_key`.
    unsafe fn ld_key(addr: u64) -> Self::Key;
    fn candidate(k: Self::Key) -> Candidate;
}

impl DevCost for i32 {
    const BYTES: u64 = 4;
    #[inline(always)]
    unsafe fn ld_shared(addr: u64) -> i32 {
        unsafe { crate::intrinsics::ld_shared_u32(addr) as i32 }
    }
    #[inline(always)]
    unsafe fn st_shared(addr: u64, v: i32) {
        unsafe { crate::intrinsics::st_shared_u32(addr, v as u32) }
    }
    #[inline(always)]
    unsafe fn ld_shared32(addr: u32) -> i32 {
        unsafe { crate::intrinsics::ld_shared32_u32(addr) as i32 }
    }
    #[inline(always)]
    unsafe fn st_shared32(addr: u32, v: i32) {
        unsafe { crate::intrinsics::st_shared32_u32(addr, v as u32) }
    }
    #[inline(always)]
    fn shfl_down(self, off: u32) -> i32 {
        crate::intrinsics::shfl_down_u32(self as u32, off) as i32
    }
    #[inline(always)]
    fn ceiling(room: i64) -> i32 {
        room.saturating_sub(1).clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }
    #[inline(always)]
    fn at_most(self, c: i32) -> bool {
        self <= c
    }
    type Key = u64;
    const NONE: u64 = NARROW_NONE;
    #[inline(always)]
    fn key(class: u32, d: i32, u: u32, v: u32) -> u64 {
        narrow_key(class, d, u, v)
    }
    #[inline(always)]
    fn less(a: &u64, b: &u64) -> bool {
        a < b
    }
    #[inline(always)]
    fn shfl_down_key(k: u64, off: u32) -> u64 {
        crate::intrinsics::shfl_down_i64(k as i64, off) as u64
    }
    #[inline(always)]
    fn shfl_idx_key(k: u64, src: u32) -> u64 {
        crate::intrinsics::shfl_idx_i64(k as i64, src) as u64
    }
    #[inline(always)]
    unsafe fn st_key(addr: u64, k: u64) {
        unsafe { crate::intrinsics::st_shared_i64(addr, k as i64) }
    }
    #[inline(always)]
    unsafe fn ld_key(addr: u64) -> u64 {
        unsafe { crate::intrinsics::ld_shared_i64(addr) as u64 }
    }
    #[inline(always)]
    fn candidate(k: u64) -> Candidate {
        from_narrow(k)
    }
}

impl DevCost for i64 {
    const BYTES: u64 = 8;
    #[inline(always)]
    unsafe fn ld_shared(addr: u64) -> i64 {
        unsafe { crate::intrinsics::ld_shared_i64(addr) }
    }
    #[inline(always)]
    unsafe fn st_shared(addr: u64, v: i64) {
        unsafe { crate::intrinsics::st_shared_i64(addr, v) }
    }
    #[inline(always)]
    unsafe fn ld_shared32(addr: u32) -> i64 {
        unsafe { crate::intrinsics::ld_shared32_i64(addr) }
    }
    #[inline(always)]
    unsafe fn st_shared32(addr: u32, v: i64) {
        unsafe { crate::intrinsics::st_shared32_i64(addr, v) }
    }
    #[inline(always)]
    fn shfl_down(self, off: u32) -> i64 {
        crate::intrinsics::shfl_down_i64(self, off)
    }
    #[inline(always)]
    fn ceiling(room: i64) -> i64 {
        room.saturating_sub(1)
    }
    #[inline(always)]
    fn at_most(self, c: i64) -> bool {
        self <= c
    }
    type Key = Candidate;
    const NONE: Candidate = Candidate::NONE;
    #[inline(always)]
    fn key(class: u32, d: i64, u: u32, v: u32) -> Candidate {
        Candidate::ranked(d, u, v, class)
    }
    #[inline(always)]
    fn less(a: &Candidate, b: &Candidate) -> bool {
        a.better(b)
    }
    #[inline(always)]
    fn shfl_down_key(k: Candidate, off: u32) -> Candidate {
        Candidate {
            delta: crate::intrinsics::shfl_down_i64(k.delta, off),
            tag: crate::intrinsics::shfl_down_u32(k.tag, off),
        }
    }
    #[inline(always)]
    fn shfl_idx_key(k: Candidate, src: u32) -> Candidate {
        Candidate {
            delta: crate::intrinsics::shfl_idx_i64(k.delta, src),
            tag: crate::intrinsics::shfl_idx_u32(k.tag, src),
        }
    }
    #[inline(always)]
    unsafe fn st_key(addr: u64, k: Candidate) {
        unsafe {
            crate::intrinsics::st_shared_i64(addr, k.delta);
            crate::intrinsics::st_shared_u32(addr + 8, k.tag);
        }
    }
    #[inline(always)]
    unsafe fn ld_key(addr: u64) -> Candidate {
        unsafe {
            Candidate { delta: crate::intrinsics::ld_shared_i64(addr), tag: crate::intrinsics::ld_shared_u32(addr + 8) }
        }
    }
    #[inline(always)]
    fn candidate(k: Candidate) -> Candidate {
        k
    }
}
