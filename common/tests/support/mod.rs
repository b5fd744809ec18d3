//! Helpers shared by the integration tests of `common`.
use qapgpu_common::ops::random_permutation;
use qapgpu_common::rng::Xoshiro128;

/// A random permutation of 0..n from `seed`.
pub fn perm(n: usize, seed: u64) -> Vec<u8> {
    let mut p = vec![0u8; n];
    random_permutation(&mut Xoshiro128::from_stream(seed, 7), &mut p);
    p
}

/// Two n×n matrices of entries in [−1000, 1000] from `seed`.
pub fn matrices(n: usize, seed: u64) -> (Vec<i32>, Vec<i32>) {
    let mut r = Xoshiro128::from_stream(seed, 99);
    let mut m = || (0..n * n).map(|_| r.below(2001) as i32 - 1000).collect::<Vec<_>>();
    (m(), m())
}
