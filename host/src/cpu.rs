//! What every family's CPU engine shares: the matrices in the instance's element type (the
//! width the GPU uses) and the rayon pool.
use crate::io::Instance;
use anyhow::{Context, Result};
use qapgpu_common::elem::ElemWidth;
use qapgpu_common::matrix::Dense;

/// Element-typed copies of the matrices.
pub enum Mats {
    /// A and B in u16.
    U16(Vec<u16>, Vec<u16>),
    /// A and B in u32.
    U32(Vec<u32>, Vec<u32>),
    /// A and B in i32.
    I32(Vec<i32>, Vec<i32>),
}

impl Mats {
    /// `inst`'s matrices in its element type.
    pub fn of(inst: &Instance) -> Mats {
        match inst.width {
            ElemWidth::U16 => {
                let (a, b) = inst.typed();
                Mats::U16(a, b)
            }
            ElemWidth::U32 => {
                let (a, b) = inst.typed();
                Mats::U32(a, b)
            }
            ElemWidth::I32 => {
                let (a, b) = inst.typed();
                Mats::I32(a, b)
            }
        }
    }

    /// Row-major views of A and B for n × n.
    pub fn dense(&self, n: usize) -> AnyDense<'_> {
        match self {
            Mats::U16(a, b) => AnyDense::U16(Dense::new(a, n), Dense::new(b, n)),
            Mats::U32(a, b) => AnyDense::U32(Dense::new(a, n), Dense::new(b, n)),
            Mats::I32(a, b) => AnyDense::I32(Dense::new(a, n), Dense::new(b, n)),
        }
    }
}

/// The matrices in their element type, so closures stay non-generic (`with_mats!`).
pub enum AnyDense<'a> {
    /// A and B in u16.
    U16(Dense<'a, u16>, Dense<'a, u16>),
    /// A and B in u32.
    U32(Dense<'a, u32>, Dense<'a, u32>),
    /// A and B in i32.
    I32(Dense<'a, i32>, Dense<'a, i32>),
}

/// Runs `$body` with `$a`, `$b` bound to the typed matrices of an `AnyDense`.
#[macro_export]
macro_rules! with_mats {
    ($any:expr, |$a:ident, $b:ident| $body:expr) => {
        match $any {
            $crate::cpu::AnyDense::U16($a, $b) => $body,
            $crate::cpu::AnyDense::U32($a, $b) => $body,
            $crate::cpu::AnyDense::I32($a, $b) => $body,
        }
    };
}

/// A pool of `threads` workers (0: one per core).
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    pool_for("--threads", threads)
}

/// A pool of `threads` workers (0: one per core) set by `option`, which an error names.
pub fn pool_for(option: &str, threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .with_context(|| format!("{option} {threads}: cannot start the threads"))
}
