//! An instance on the host (i64 entries), and its device form with the narrowest element type.
use crate::qaplib::ErrorKind;
use qapgpu_common::cost::fits_i64;
use qapgpu_common::elem::{Elem, ElemWidth};

#[derive(Debug, Clone)]
pub struct Instance {
    pub name: String,
    pub n: usize,
    /// Flow matrix, row-major: cost = Σ a[i][j]·b[p(i)][p(j)].
    pub a: Vec<i64>,
    pub b: Vec<i64>,
    pub width: ElemWidth,
}

impl Instance {
    /// Checks that one 32-bit element type holds every entry and that no cost can overflow
    /// 64 bits.
    pub fn new(name: String, n: usize, a: Vec<i64>, b: Vec<i64>) -> Result<Instance, (ErrorKind, String)> {
        let (lo, hi) = a.iter().chain(&b).fold((i64::MAX, i64::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        let width = ElemWidth::for_range(lo, hi).ok_or((
            ErrorKind::OutOfRange,
            format!("entries span {lo}..={hi}, which no 32-bit element type holds (mixing negatives with values over 2³¹−1)"),
        ))?;
        let max_abs = |m: &[i64]| m.iter().map(|v| v.unsigned_abs()).max().unwrap_or(0);
        if !fits_i64(n, max_abs(&a), max_abs(&b)) {
            return Err((
                ErrorKind::Overflow,
                format!("max(2n², 16(n+1))·max|A|·max|B| ≥ 2⁶³ for n = {n}: costs or move costs could overflow 64 bits"),
            ));
        }
        Ok(Instance { name, n, a, b, width })
    }

    /// Exact cost of a 0-based permutation, evaluated in i64 on the original entries.
    pub fn cost(&self, p: &[u8]) -> i64 {
        assert_eq!(p.len(), self.n);
        let n = self.n;
        let mut total = 0i64;
        for i in 0..n {
            let (arow, brow) = (&self.a[i * n..(i + 1) * n], &self.b[p[i] as usize * n..(p[i] as usize + 1) * n]);
            for j in 0..n {
                total += arow[j] * brow[p[j] as usize];
            }
        }
        total
    }

    /// The embedded default: a planted instance with a known optimum (see `common::planted`).
    pub fn planted(n: usize, seed: u64) -> (Instance, i64, Vec<u8>) {
        let (mut a, mut b, mut sol) = (vec![0u16; n * n], vec![0u16; n * n], vec![0u8; n]);
        let opt = qapgpu_common::planted::generate(n, 35, seed, &mut a, &mut b, &mut sol);
        let widen = |m: Vec<u16>| m.into_iter().map(i64::from).collect();
        let inst = Instance::new(format!("planted{n}"), n, widen(a), widen(b)).expect("planted entries are small");
        (inst, opt, sol)
    }

    /// The matrices in the instance's element type `E` (which must be `self.width`'s).
    pub fn typed<E: DeviceElem + TryFrom<i64>>(&self) -> (Vec<E>, Vec<E>) {
        assert_eq!(E::WIDTH, self.width, "typed() must be called with the instance's width");
        let conv = |m: &[i64]| m.iter().map(|&x| E::try_from(x).ok().expect("width holds every entry")).collect();
        (conv(&self.a), conv(&self.b))
    }
}

/// Element types that can be copied to the GPU as raw bytes.
pub trait DeviceElem: Elem + cudarc::driver::DeviceRepr + std::fmt::Debug {}
impl DeviceElem for u16 {}
impl DeviceElem for u32 {}
impl DeviceElem for i32 {}
