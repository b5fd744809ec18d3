//! Helpers for the integration tests, and the harness of the binaries with GPU cases.
use std::path::PathBuf;

pub mod harness;

/// The QAPLIB folder (`qaplib_dir()`: $QAPLIB_DIR, ../shared/qaplib, else the shipped
/// data/qaplib).
pub fn qaplib() -> PathBuf {
    qapgpu::io::qaplib::qaplib_dir()
}

/// The solution file of the instance `dat`: the `.sln` beside it, else the repository's copy
/// (`data/qaplib`), since a QAPLIB_DIR of `.dat` files and `bks.csv` alone (what
/// scripts/fetch-qaplib.sh writes) has none.
pub fn sln_of(dat: &std::path::Path) -> Option<PathBuf> {
    let beside = dat.with_extension("sln");
    let shipped = qapgpu::io::qaplib::bundled_dir().join(beside.file_name()?);
    [beside, shipped].into_iter().find(|p| p.is_file())
}

/// Every `.dat` in the QAPLIB folder, sorted.
pub fn dat_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(qaplib())
        .unwrap_or_else(|e| panic!("{}: {e} (set QAPLIB_DIR)", qaplib().display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "dat"))
        .collect();
    v.sort();
    v
}

/// The GPU for a GPU case. The harness runs these cases only where a GPU can be used, so
/// this fails, saying why, only for a case forced to run (`--include-ignored`) without one.
pub fn gpu() -> qapgpu::gpu::Gpu {
    if let Some(why) = qapgpu::gpu::unavailable_reason(None) {
        panic!("this test needs a GPU: {why}");
    }
    qapgpu::gpu::Gpu::open(0, None).expect("opening the GPU")
}

use qapgpu::io::Instance;

/// An i32 instance: negative flows exercise the signed kernels.
pub fn negatives() -> Instance {
    let n = 17;
    let a = (0..n * n).map(|k| ((k * 7919) % 201) as i64 - 100).collect();
    let b = (0..n * n).map(|k| ((k * 104729) % 97) as i64).collect();
    Instance::new("neg17", n, a, b).unwrap()
}

/// A grey-pattern instance as Taillard poses them (tai64c, tai256c): facilities 0..k black
/// (a = 1 between two of them, diagonal included), the others white; B pseudo-random,
/// symmetric, zero diagonal. Its swaps within a colour are null (`common::null_swaps`).
pub fn grey(n: usize, k: usize) -> Instance {
    let a = (0..n * n).map(|x| i64::from(x / n < k && x % n < k)).collect();
    let entry = |i: usize, j: usize| if i == j { 0 } else { ((i.min(j) * 7919 + i.max(j) * 104729) % 23) as i64 + 1 };
    let b = (0..n * n).map(|x| entry(x / n, x % n)).collect();
    Instance::new(format!("grey{n}"), n, a, b).unwrap()
}

/// `grey(n, k)` with A and B exchanged: the locations 0..k are alike, and so are the others,
/// so that the null swaps are those of two facilities on locations of one colour.
pub fn grey_locations(n: usize, k: usize) -> Instance {
    let g = grey(n, k);
    Instance::new(format!("grey-locations{n}"), n, g.b, g.a).unwrap()
}

/// Every flow zero: every permutation is optimal (cost 0) and no move ever improves.
pub fn zeros(n: usize) -> Instance {
    let b = (0..n * n).map(|k| (k % 7) as i64).collect();
    Instance::new(format!("zeros{n}"), n, vec![0; n * n], b).unwrap()
}

/// A small instance of pseudo-random entries below `max`.
pub fn small(n: usize, max: i64) -> Instance {
    let a = (0..n * n).map(|k| ((k * 7919 + 13) as i64 * 31) % max).collect();
    let b = (0..n * n).map(|k| ((k * 104729 + 7) as i64 * 17) % max).collect();
    Instance::new(format!("small{n}"), n, a, b).unwrap()
}

/// Entries of about 2²⁷, so that costs come within a few powers of two of the 64-bit
/// limit (the largest the overflow check lets through at n = 12).
pub fn near_limit() -> Instance {
    let n = 12;
    let big = 1i64 << 27;
    let a = (0..n * n).map(|k| big - ((k * 7919) % 1000) as i64).collect();
    let b = (0..n * n).map(|k| big - ((k * 104729) % 997) as i64).collect();
    Instance::new("near-limit12", n, a, b).unwrap()
}

/// `inst` with the matrix of `side` made symmetric, (m + mᵀ)/2 rounded down (diagonal kept),
/// so that the sums mapping (`sums::Side`) applies to it.
pub fn symmetrised(inst: &Instance, side: qapgpu_common::sums::Side) -> Instance {
    let n = inst.n;
    let sym = |m: &[i64]| (0..n * n).map(|k| (m[k] + m[(k % n) * n + k / n]).div_euclid(2)).collect::<Vec<i64>>();
    let (a, b) = match side {
        qapgpu_common::sums::Side::A => (sym(&inst.a), inst.b.clone()),
        qapgpu_common::sums::Side::B => (inst.a.clone(), sym(&inst.b)),
    };
    Instance::new(format!("{}-sym-{side:?}", inst.name), n, a, b).unwrap()
}

/// An instance with entries `base_a + x` in A and `base_b + x` in B, x below the matrix's
/// `span`, from a seed (xorshift).
pub fn offset_instance(n: usize, base_a: i64, span_a: i64, base_b: i64, span_b: i64, seed: u64) -> Instance {
    let mut x = seed | 1;
    let mut next = |span: i64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % span.max(1) as u64) as i64
    };
    let a = (0..n * n).map(|_| base_a + next(span_a)).collect();
    let b = (0..n * n).map(|_| base_b + next(span_b)).collect();
    Instance::new(format!("offset{n}"), n, a, b).unwrap()
}

/// `inst` with zeros on both diagonals.
pub fn zero_diagonals(inst: &Instance) -> Instance {
    let n = inst.n;
    let clear = |m: &[i64]| m.iter().enumerate().map(|(k, &v)| if k % (n + 1) == 0 { 0 } else { v }).collect();
    Instance::new(format!("{}-zero-diagonals", inst.name), n, clear(&inst.a), clear(&inst.b)).unwrap()
}

/// Uniform entries 0..100 from `seed` (xorshift): both matrices symmetric with zero diagonals
/// (as tai*a), or every entry drawn.
pub fn uniform(n: usize, seed: u64, symmetric: bool) -> Instance {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % 100) as i64
    };
    let mut m = || {
        let mut m = vec![0i64; n * n];
        for i in 0..n {
            for j in 0..n {
                if !symmetric {
                    m[i * n + j] = next();
                } else if j > i {
                    let v = next();
                    (m[i * n + j], m[j * n + i]) = (v, v);
                }
            }
        }
        m
    };
    let (a, b) = (m(), m());
    Instance::new(format!("random{n}-{seed}"), n, a, b).unwrap()
}
