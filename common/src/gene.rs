//! The element of a permutation row: `u8` up to n = `MAX_N` (the GA populations, the
//! shared-memory kernels) and `u16` on the wide path (`wide`, n up to `WIDE_MAX_N`). The
//! cost and move-cost functions take either, so one formula serves both paths.

/// A gene: the location of one facility, as a row of a permutation holds it.
pub trait Gene: Copy + Default + PartialEq + Eq + Send + Sync + 'static {
    /// The largest n whose locations this type holds.
    const MAX_N: usize;
    /// The location as an index.
    fn at(self) -> usize;
    /// Location `i` (`i < MAX_N`).
    fn of(i: usize) -> Self;
}

macro_rules! gene {
    ($t:ty, $max:expr) => {
        impl Gene for $t {
            const MAX_N: usize = $max;
            #[inline(always)]
            fn at(self) -> usize {
                self as usize
            }
            #[inline(always)]
            fn of(i: usize) -> $t {
                i as $t
            }
        }
    };
}
gene!(u8, 256);
gene!(u16, 65_536);
