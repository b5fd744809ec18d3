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

/// One island migration: where each of `total` individuals goes. Seed 000's model (and its
/// GA-1) moves them all (`movers == total`: individual k goes to `order.apply(k)`); its GA-2
/// exchanges only `movers` of them, drawn at random, among themselves (5 % every 50
/// generations). It travels to the device inside `params::MigrateParams`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Migration {
    /// The order among the movers (over `0..movers`).
    pub order: Shuffle,
    /// Which individuals move: those at `pick.apply(k)` for `k < movers` (over `0..total`).
    pub pick: Shuffle,
    /// How many individuals take part.
    pub movers: u32,
    /// Individuals in all blocks.
    pub total: u32,
}

impl Migration {
    /// Migration number `epoch` of the run seeded with `seed`, among `movers` of `total`
    /// individuals (`1 ≤ movers ≤ total`). With `movers == total` it is the shuffle seed 000
    /// has always used, so earlier runs replay unchanged.
    pub fn new(total: u32, movers: u32, seed: u64, epoch: u64) -> Self {
        let movers = movers.clamp(1, total.max(1));
        Migration {
            order: Shuffle::new(movers, seed, epoch),
            pick: Shuffle::new(total, mix64(seed ^ 0x6A09_E667_F3BC_C908), epoch),
            movers,
            total,
        }
    }

    /// Route `k < total`: the individual that moves, and the slot it moves to. Over every k
    /// the routes form a permutation of `0..total`.
    #[inline(always)]
    pub fn route(&self, k: u32) -> (u32, u32) {
        if self.movers >= self.total {
            return (k, self.order.apply(k));
        }
        let from = self.pick.apply(k);
        let to = if k < self.movers { self.pick.apply(self.order.apply(k)) } else { from };
        (from, to)
    }
}
