//! An instance on the host (i64 entries), and the narrowest element type that holds it.
use qapgpu_common::cost::fits_i64;
use qapgpu_common::delta::{DeltaWidth, move_cost_bound};
use qapgpu_common::elem::{Elem, ElemWidth};
use qapgpu_common::gene::Gene;
use qapgpu_common::sums::Side;
use std::fmt;
use std::sync::OnceLock;

/// Why an input cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file could not be opened, read or written.
    Io,
    /// No number at all.
    Empty,
    /// A token that is not an integer, or text that is not UTF-8.
    NotANumber,
    /// n outside 2..=256.
    BadSize,
    /// More bytes than n numbers can take.
    TooLarge,
    /// Not as many numbers as n calls for.
    TokenCount,
    /// A number outside what its place takes.
    OutOfRange,
    /// Entries so large that costs or move costs could overflow 64 bits.
    Overflow,
    /// Positions that are not a permutation of 0..n.
    NotAPermutation,
    /// Two inputs that disagree (no reader gives it now).
    Mismatch,
}

/// An instance that cannot be built, with the reason in one line.
#[derive(Debug, Clone)]
pub struct InstanceError {
    /// What kind of fault.
    pub kind: ErrorKind,
    /// The reason, in one line.
    pub message: String,
}

impl fmt::Display for InstanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InstanceError {}

fn error(kind: ErrorKind, message: String) -> InstanceError {
    InstanceError { kind, message }
}

/// A QAP instance: minimise `Σ a[i][j]·b[p(i)][p(j)]` over permutations p.
///
/// Build it with `new` (or `dual`, `transposed`, `renamed`) and do not change `n`, `a`, `b`
/// or `width` afterwards: what it computes from them once (`null_swap_classes`) is kept.
#[derive(Clone)]
pub struct Instance {
    /// Its name, for reports (a file's stem).
    pub name: String,
    /// Problem size.
    pub n: usize,
    /// Flow matrix, row-major.
    pub a: Vec<i64>,
    /// Distance matrix, row-major.
    pub b: Vec<i64>,
    /// The smallest element type that holds every entry (`ElemWidth::for_range`).
    pub width: ElemWidth,
    /// `null_swaps`, computed once: `auto`, `ts`'s defaults and the engine each ask, and
    /// adversarial data make it O(n³).
    null_swaps: OnceLock<Option<(Vec<u8>, u64)>>,
}

impl fmt::Debug for Instance {
    /// The data, not what was computed from it (so two equal instances print alike).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Instance")
            .field("name", &self.name)
            .field("n", &self.n)
            .field("a", &self.a)
            .field("b", &self.b)
            .field("width", &self.width)
            .finish_non_exhaustive()
    }
}

impl Instance {
    /// An instance from two row-major n×n matrices. Checks n (2..=`WIDE_MAX_N`), the lengths, that one
    /// 32-bit element type holds every entry, and that no cost or move cost can overflow
    /// 64 bits.
    pub fn new(name: impl Into<String>, n: usize, a: Vec<i64>, b: Vec<i64>) -> Result<Instance, InstanceError> {
        let name = name.into();
        if !(2..=qapgpu_common::WIDE_MAX_N).contains(&n) {
            return Err(error(
                ErrorKind::BadSize,
                format!("n = {n} is outside 2..={} (the wide path's largest n)", qapgpu_common::WIDE_MAX_N),
            ));
        }
        for (m, v) in [("A", &a), ("B", &b)] {
            if v.len() != n * n {
                return Err(error(
                    ErrorKind::TokenCount,
                    format!("matrix {m} has {} entries, n² = {} expected", v.len(), n * n),
                ));
            }
        }
        let (lo, hi) = a.iter().chain(&b).fold((i64::MAX, i64::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        let width = ElemWidth::for_range(lo, hi).ok_or_else(|| {
            error(
                ErrorKind::OutOfRange,
                format!("entries span {lo}..={hi}, which no 32-bit element type holds (mixing negatives with values over 2³¹−1)"),
            )
        })?;
        let max_abs = |m: &[i64]| m.iter().map(|v| v.unsigned_abs()).max().unwrap_or(0);
        if !fits_i64(n, max_abs(&a), max_abs(&b)) {
            return Err(error(
                ErrorKind::Overflow,
                format!(
                    "max(2n², 16(n+1))·max|A|·max|B| ≥ 2⁶³ for n = {n}: costs or move costs could overflow 64 bits"
                ),
            ));
        }
        Ok(Instance::built(name, n, a, b, width))
    }

    /// An instance from checked parts, with nothing computed yet.
    fn built(name: String, n: usize, a: Vec<i64>, b: Vec<i64>, width: ElemWidth) -> Instance {
        Instance { name, n, a, b, width, null_swaps: OnceLock::new() }
    }

    /// The same instance under another name (reports and bks.csv know it by its name).
    pub fn renamed(&self, name: impl Into<String>) -> Instance {
        Instance { name: name.into(), ..self.clone() }
    }

    /// `cost` of what may not be a permutation of 0..n (what an engine returned): an error,
    /// not a panic, where it is not one.
    pub fn checked_cost<G: Gene + Into<u32>>(&self, p: &[G]) -> Result<i64, InstanceError> {
        if !crate::perm::is_permutation(p, self.n) {
            let what = if p.is_empty() {
                "no permutation".to_string()
            } else {
                format!("{} values that are not a permutation", p.len())
            };
            return Err(error(ErrorKind::NotAPermutation, format!("{what} for {} (n = {})", self.name, self.n)));
        }
        Ok(self.cost(p))
    }

    /// Exact cost of a 0-based permutation, evaluated in i64 on the original entries.
    /// Panics where `p` is not n long (`checked_cost` does not).
    pub fn cost<G: Gene>(&self, p: &[G]) -> i64 {
        assert_eq!(p.len(), self.n);
        let n = self.n;
        let mut total = 0i64;
        for i in 0..n {
            let (arow, brow) = (&self.a[i * n..(i + 1) * n], &self.b[p[i].at() * n..(p[i].at() + 1) * n]);
            for j in 0..n {
                total += arow[j] * brow[p[j].at()];
            }
        }
        total
    }

    /// The classes of the swaps a tabu search skips (`null_swaps::classes`: 2n bytes), or
    /// None where no swap is null or n is above `MAX_N` (the wide path has no classes).
    pub fn null_swap_classes(&self) -> Option<Vec<u8>> {
        self.null_swaps().map(|(classes, _)| classes.clone())
    }

    /// The classes of `null_swap_classes` and the swaps their facilities' make null
    /// (`null_swaps::classes`).
    fn null_swaps(&self) -> Option<&(Vec<u8>, u64)> {
        let n = self.n;
        self.null_swaps
            .get_or_init(|| {
                if n > qapgpu_common::MAX_N {
                    return None;
                }
                let mut out = vec![0u8; 2 * n];
                let (a, b) = (|i: usize, j: usize| self.a[i * n + j], |i: usize, j: usize| self.b[i * n + j]);
                qapgpu_common::null_swaps::classes(a, b, n, &mut out).map(|facility_swaps| (out, facility_swaps))
            })
            .as_ref()
    }

    /// The share of the swaps that are null whatever the permutation (`null_swaps`: two
    /// facilities alike); 0 where none is, where every facility is alike (no class is kept:
    /// every permutation costs the same) or where n is above `MAX_N`. tai256c: 0.538.
    pub fn null_swap_share(&self) -> f64 {
        let n = self.n;
        self.null_swaps().map_or(0.0, |&(_, facility_swaps)| facility_swaps as f64 / (n * (n - 1) / 2) as f64)
    }

    /// The narrowest integer type that holds every move cost Δ (`delta::move_cost_bound`):
    /// i32 for most QAPLIB instances.
    pub fn delta_width(&self) -> DeltaWidth {
        DeltaWidth::holding(move_cost_bound(self.n, &self.a, &self.b))
    }

    /// Which matrix the sums mapping's table symmetrises (`sums::Side`): A where A is
    /// symmetric, else B where B is; None where neither is (the mapping then does not apply).
    pub fn sums_side(&self) -> Option<Side> {
        Side::of(symmetric(self.n, &self.a), symmetric(self.n, &self.b))
    }

    /// B + Bᵀ where A is symmetric (`sums::Side::A`), both diagonals are zero and the
    /// instance's element type holds every sum: the β that the fast sums kernels then read
    /// in one load instead of two (`LS_SUMS_BETA`). None otherwise.
    pub fn sums_beta(&self) -> Option<Vec<i64>> {
        let n = self.n;
        if self.sums_side() != Some(Side::A) || !self.zero_diagonals() {
            return None;
        }
        let beta: Vec<i64> = (0..n * n).map(|x| self.b[x] + self.b[(x % n) * n + x / n]).collect();
        let (lo, hi) = beta.iter().fold((i64::MAX, i64::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        self.width.holds(lo, hi).then_some(beta)
    }

    /// Both diagonals are zero (the sums mapping's short offset, `sums::zero_diagonal_offset`).
    pub fn zero_diagonals(&self) -> bool {
        (0..self.n).all(|i| self.a[i * self.n + i] == 0 && self.b[i * self.n + i] == 0)
    }

    /// The embedded default: a planted instance with a known optimum (see `common::planted`).
    /// Returns the instance, its optimum and an optimal permutation.
    pub fn planted(n: usize, seed: u64) -> (Instance, i64, Vec<u16>) {
        let (mut a, mut b, mut sol) = (vec![0u16; n * n], vec![0u16; n * n], vec![0u16; n]);
        let opt = qapgpu_common::planted::generate(n, 35, seed, &mut a, &mut b, &mut sol);
        let widen = |m: Vec<u16>| m.into_iter().map(i64::from).collect();
        let inst = Instance::new(format!("planted{n}"), n, widen(a), widen(b)).expect("planted entries are small");
        (inst, opt, sol)
    }

    /// The same problem seen from the locations: A and B exchanged. A permutation σ of the
    /// dual (location → facility) costs what σ⁻¹ (facility → location) costs here.
    pub fn dual(&self) -> Instance {
        Instance::built(self.name.clone(), self.n, self.b.clone(), self.a.clone(), self.width)
    }

    /// The same instance with A and B transposed (Aᵀ and Bᵀ): the wide path reads their rows
    /// where Eq. 4 runs down a column.
    pub fn transposed(&self) -> Instance {
        let t = |m: &[i64]| (0..self.n * self.n).map(|x| m[(x % self.n) * self.n + x / self.n]).collect();
        Instance::built(self.name.clone(), self.n, t(&self.a), t(&self.b), self.width)
    }

    /// The matrices in the instance's element type `E` (which must be `self.width`'s).
    pub fn typed<E: Elem + TryFrom<i64>>(&self) -> (Vec<E>, Vec<E>) {
        assert_eq!(E::WIDTH, self.width, "typed() must be called with the instance's width");
        (in_width(&self.a), in_width(&self.b))
    }
}

/// `values` in the element type `E`. Panics where an entry does not fit: callers pass an
/// instance's matrices in its own width, or values checked against it (`ElemWidth::holds`).
pub fn in_width<E: Elem + TryFrom<i64>>(values: &[i64]) -> Vec<E> {
    values.iter().map(|&x| E::try_from(x).ok().expect("width holds every entry")).collect()
}

/// m = mᵀ for the n×n row-major `m`.
fn symmetric(n: usize, m: &[i64]) -> bool {
    (0..n).all(|i| (0..i).all(|j| m[i * n + j] == m[j * n + i]))
}
