//! The per-thread random number generator: xoshiro128** (Blackman & Vigna).
//!
//! 16 bytes of state and only 32-bit operations, so it lives in four registers of a GPU
//! thread. Every individual slot of every subpopulation has its own stream, seeded from one
//! run seed and the slot's global index, which is what makes a kernel and its CPU twin agree.
use core::convert::Infallible;
use rand_core::{SeedableRng, TryRng};

/// One xoshiro128** stream: its 16 bytes of state.
#[repr(C)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xoshiro128 {
    /// The state (never all zero).
    pub s: [u32; 4],
}

/// SplitMix64 finaliser: a bijective 64-bit mix.
#[inline(always)]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of a run's `start`-th fresh start (0: the run's seed itself): a kernel that seeds
/// its streams from one seed and the unit's index draws the same starts again unless each
/// start has a seed of its own.
#[inline(always)]
pub const fn start_seed(seed: u64, start: u64) -> u64 {
    if start == 0 { seed } else { mix64(seed ^ mix64(start.wrapping_mul(0xD1B5_4A32_D192_ED03))) }
}

impl Xoshiro128 {
    /// Stream `stream` of the run seeded with `seed`: independent-looking streams for
    /// neighbouring indices (SplitMix64 over a mixed key, as the xoshiro authors advise).
    #[inline(always)]
    pub fn from_stream(seed: u64, stream: u64) -> Self {
        let key = mix64(seed ^ mix64(stream.wrapping_add(0x632B_E59B_D9B4_E019)));
        let x = mix64(key.wrapping_add(0x9E37_79B9_7F4A_7C15));
        let y = mix64(key.wrapping_add(0x3C6E_F372_FE94_F82A));
        let mut s = [x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32];
        if s == [0; 4] {
            s[0] = 1; // the all-zero state is the one fixed point of xoshiro
        }
        Xoshiro128 { s }
    }

    /// The next 32-bit output (one step of xoshiro128**).
    #[inline(always)]
    #[allow(clippy::should_implement_trait)] // the generator's step, not an iterator: it never ends.
    pub fn next(&mut self) -> u32 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 9;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(11);
        result
    }

    /// Uniform in `0..k` by Lemire's multiply-shift (no division; bias below k/2³², which is
    /// under 10⁻⁷ for every k used here). `k > 0`.
    #[inline(always)]
    pub fn below(&mut self, k: u32) -> u32 {
        ((self.next() as u64 * k as u64) >> 32) as u32
    }

    /// True with probability `threshold / 2³²` (see `ga::probability_threshold`).
    #[inline(always)]
    pub fn chance(&mut self, threshold: u32) -> bool {
        self.next() < threshold
    }
}

impl TryRng for Xoshiro128 {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.next())
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let lo = self.next() as u64;
        Ok(lo | (self.next() as u64) << 32)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(4) {
            let w = self.next().to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
        Ok(())
    }
}

impl SeedableRng for Xoshiro128 {
    type Seed = [u8; 16];
    fn from_seed(seed: [u8; 16]) -> Self {
        let mut s = [0u32; 4];
        for (w, c) in s.iter_mut().zip(seed.chunks_exact(4)) {
            *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        if s == [0; 4] {
            s[0] = 1;
        }
        Xoshiro128 { s }
    }
}
