//! A keyed pseudo-random permutation of `0..m`, computed independently for each index, so
//! that every GPU thread can find where its individual migrates without any sorting.
//! Four Feistel rounds on the smallest even bit width covering m, with cycle walking to
//! stay inside `0..m` (a bijection of `0..m` because the cipher is one of `0..2^bits`).
use crate::rng::mix64;

/// The keys and sizes of one shuffle; it travels to the device inside `params::MigrateParams`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Shuffle {
    /// The size of the domain, `0..m`.
    pub m: u32,
    /// Bits in each half of the Feistel cipher's block.
    pub half_bits: u32,
    /// One key per round.
    pub keys: [u32; 4],
}

impl Shuffle {
    /// The shuffle of migration number `epoch` of the run seeded with `seed`. `m ≥ 1`.
    pub fn new(m: u32, seed: u64, epoch: u64) -> Self {
        let bits = (32 - (m.max(2) - 1).leading_zeros()).max(2);
        let half_bits = bits.div_ceil(2);
        let k1 = mix64(seed ^ mix64(epoch ^ 0x5DEE_CE66_D1CE_4E5B));
        let k2 = mix64(k1);
        Shuffle { m, half_bits, keys: [k1 as u32, (k1 >> 32) as u32, k2 as u32, (k2 >> 32) as u32] }
    }

    #[inline(always)]
    fn encrypt(&self, x: u32) -> u32 {
        let mask = (1u32 << self.half_bits) - 1;
        let (mut l, mut r) = (x >> self.half_bits, x & mask);
        for &k in &self.keys {
            let f = (r ^ k).wrapping_mul(0x9E37_79B1);
            let f = (f ^ (f >> 15)).wrapping_mul(0x85EB_CA77) ^ k.rotate_left(7);
            let f = f ^ (f >> 13);
            (l, r) = (r, (l ^ f) & mask);
        }
        (l << self.half_bits) | r
    }

    /// Where index `x < m` goes.
    #[inline(always)]
    pub fn apply(&self, x: u32) -> u32 {
        let mut y = self.encrypt(x);
        while y >= self.m {
            y = self.encrypt(y);
        }
        y
    }
}
