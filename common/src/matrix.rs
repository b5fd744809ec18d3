//! Read access to an n×n row-major matrix. The host uses slices; the kernels implement the
//! same trait over constant, shared or global memory.
use crate::elem::Elem;

/// An n×n matrix of entries `E`, read entry by entry.
pub trait Matrix<E: Elem> {
    /// Element (i, j); callers keep `i, j < n`.
    fn at(&self, i: usize, j: usize) -> E;
}

/// A row-major matrix in a slice of length n².
#[derive(Clone, Copy, Debug)]
pub struct Dense<'a, E> {
    /// The n² entries, row after row.
    pub data: &'a [E],
    /// Rows (and columns).
    pub n: usize,
}

impl<'a, E: Elem> Dense<'a, E> {
    /// The matrix of `data`; panics unless it holds n² entries.
    pub fn new(data: &'a [E], n: usize) -> Self {
        assert_eq!(data.len(), n * n, "matrix must hold n² elements");
        Dense { data, n }
    }
}

impl<E: Elem> Matrix<E> for Dense<'_, E> {
    #[inline(always)]
    fn at(&self, i: usize, j: usize) -> E {
        debug_assert!(i < self.n && j < self.n);
        // SAFETY: `new` checked that data holds n² elements, and every caller (the
        // operators of this crate) indexes with facilities and locations below n.
        unsafe { *self.data.get_unchecked(i * self.n + j) }
    }
}
