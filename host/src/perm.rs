//! Permutations as the host holds them: `u16` genes, so that every family's answer has one
//! type up to n = `WIDE_MAX_N`. The engines of n ≤ 256 (`u8` rows on the device and in
//! `common`) convert at their boundary with `widen` and `narrow`.

/// A u8 engine's row as the host's permutation.
pub fn widen(p: &[u8]) -> Vec<u16> {
    p.iter().map(|&g| u16::from(g)).collect()
}

/// The host's permutation as a u8 engine's row. Every value must be below 256: the u8
/// engines refuse n above `qapgpu_common::MAX_N` before they run.
pub fn narrow(p: &[u16]) -> Vec<u8> {
    p.iter().map(|&g| u8::try_from(g).expect("a u8 engine's permutation has values below 256")).collect()
}

/// Whether `perm` is a permutation of 0..n.
pub fn is_permutation<G: Copy + Into<u32>>(perm: &[G], n: usize) -> bool {
    let mut seen = vec![false; n];
    perm.len() == n
        && perm.iter().all(|&x| {
            let x = x.into() as usize;
            x < n && !std::mem::replace(&mut seen[x], true)
        })
}

/// A u8 engine's (cost, row) as the host's.
pub fn widen_best((cost, p): (i64, Vec<u8>)) -> (i64, Vec<u16>) {
    (cost, widen(&p))
}
