//! Matrix element types. The host picks the narrowest one that holds every entry of an
//! instance (u16 when it can: half the bytes of shared and constant memory).

/// Element width tag, stored in parameter blocks and printed by the audit.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElemWidth {
    /// `u16` entries, 2 bytes each.
    U16 = 0,
    /// `u32` entries, 4 bytes each.
    U32 = 1,
    /// `i32` entries, 4 bytes each.
    I32 = 2,
}

impl ElemWidth {
    /// Bytes per element.
    pub const fn bytes(self) -> usize {
        match self {
            ElemWidth::U16 => 2,
            ElemWidth::U32 | ElemWidth::I32 => 4,
        }
    }
    /// The element type's Rust name: "u16", "u32" or "i32".
    pub const fn name(self) -> &'static str {
        match self {
            ElemWidth::U16 => "u16",
            ElemWidth::U32 => "u32",
            ElemWidth::I32 => "i32",
        }
    }
    /// Whether this width holds every value in `min..=max`.
    pub const fn holds(self, min: i64, max: i64) -> bool {
        match self {
            ElemWidth::U16 => min >= 0 && max <= u16::MAX as i64,
            ElemWidth::U32 => min >= 0 && max <= u32::MAX as i64,
            ElemWidth::I32 => min >= i32::MIN as i64 && max <= i32::MAX as i64,
        }
    }
    /// The narrowest width holding every value in `min..=max`, i32 before u32 (the same bytes,
    /// and the GPU kernels' type).
    pub const fn for_range(min: i64, max: i64) -> Option<ElemWidth> {
        if ElemWidth::U16.holds(min, max) {
            Some(ElemWidth::U16)
        } else if ElemWidth::I32.holds(min, max) {
            Some(ElemWidth::I32)
        } else if ElemWidth::U32.holds(min, max) {
            Some(ElemWidth::U32)
        } else {
            None
        }
    }

    /// Whether the GPU kernels take matrices of this width: u16 and i32. Entries of
    /// 2^31 to 2^32 − 1 (u32 only) run on the CPU engines: kernels of a third type would
    /// add a third of the PTX for instances no library holds (docs/search.md).
    pub const fn on_gpu(self) -> bool {
        !matches!(self, ElemWidth::U32)
    }
}

/// A matrix element. `mul_wide` is exact as long as the host has checked that
/// costs and move costs fit in 64 bits (see `cost::fits_i64`), which it does before any run.
pub trait Elem: Copy + Default + Send + Sync + 'static {
    /// The width tag of this type.
    const WIDTH: ElemWidth;
    /// The value as an `i64`.
    fn to_i64(self) -> i64;
    /// The product `a * b` as an `i64`.
    fn mul_wide(a: Self, b: Self) -> i64;
}

impl Elem for u16 {
    const WIDTH: ElemWidth = ElemWidth::U16;
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn mul_wide(a: Self, b: Self) -> i64 {
        // 16×16 bits fits u32: one 32-bit multiply instead of a 64-bit one on the GPU.
        (a as u32 * b as u32) as i64
    }
}

impl Elem for u32 {
    const WIDTH: ElemWidth = ElemWidth::U32;
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn mul_wide(a: Self, b: Self) -> i64 {
        (a as u64 * b as u64) as i64
    }
}

impl Elem for i32 {
    const WIDTH: ElemWidth = ElemWidth::I32;
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn mul_wide(a: Self, b: Self) -> i64 {
        a as i64 * b as i64
    }
}
