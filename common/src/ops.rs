//! Permutation operators of the GAs, on `u8` rows (gene k = location of facility k).
//! Each draws its random numbers in a fixed order, which the kernels and the CPU engine share.
use crate::gene::Gene;
use crate::rng::Xoshiro128;

/// Fills `p` with a uniformly random permutation of `0..p.len()` (Fisher–Yates).
#[inline(always)]
pub fn random_permutation<G: Gene>(rng: &mut Xoshiro128, p: &mut [G]) {
    for (k, g) in p.iter_mut().enumerate() {
        *g = G::of(k);
    }
    for k in (1..p.len()).rev() {
        let j = rng.below(k as u32 + 1) as usize;
        p.swap(k, j);
    }
}

/// Uniform-like crossover (UX, Misevicius): the child keeps every gene on which the parents
/// agree; elsewhere, position by position, a parent's gene drawn at random when it is still
/// free (else the other's when free); the positions left get the genes left, in random
/// order. `taken` (n bytes: bit 0 of entry g, gene g is taken; bit 1 of entry i, position i
/// is filled) and `left` (n genes) are work space.
#[inline(always)]
pub fn ux<G: Gene>(rng: &mut Xoshiro128, p1: &[G], p2: &[G], child: &mut [G], taken: &mut [u8], left: &mut [G]) {
    const GENE: u8 = 1;
    const FILLED: u8 = 2;
    let n = p1.len();
    taken[..n].fill(0);
    for i in 0..n {
        if p1[i] == p2[i] {
            child[i] = p1[i];
            taken[i] |= FILLED;
            taken[p1[i].at()] |= GENE;
        }
    }
    for i in 0..n {
        if taken[i] & FILLED != 0 {
            continue;
        }
        let (first, second) = if rng.below(2) == 0 { (p1[i], p2[i]) } else { (p2[i], p1[i]) };
        for g in [first, second] {
            if taken[g.at()] & GENE == 0 {
                child[i] = g;
                taken[i] |= FILLED;
                taken[g.at()] |= GENE;
                break;
            }
        }
    }
    let mut count = 0;
    for (g, &t) in taken[..n].iter().enumerate() {
        if t & GENE == 0 {
            left[count] = G::of(g);
            count += 1;
        }
    }
    for k in (1..count).rev() {
        let j = rng.below(k as u32 + 1) as usize;
        left.swap(k, j);
    }
    let mut next = 0;
    for i in 0..n {
        if taken[i] & FILLED == 0 {
            child[i] = left[next];
            next += 1;
        }
    }
}

/// Two distinct cut points in `0..=n`, as the segment `lo..hi` (never empty). `n ≥ 1`.
#[inline(always)]
pub fn cut_points(rng: &mut Xoshiro128, n: usize) -> (usize, usize) {
    let a = rng.below(n as u32 + 1) as usize;
    let mut b = rng.below(n as u32) as usize;
    if b >= a {
        b += 1;
    }
    if a < b { (a, b) } else { (b, a) }
}

/// Partially mapped crossover producing one child: start from `p1`, then for each position
/// k of the segment swap the gene `p2[k]` into place (the formulation of seed 001, Fig. 7).
/// The child carries `p2`'s segment and keeps `p1`'s genes elsewhere, moved only where the
/// segment displaced them.
#[inline(always)]
pub fn pmx(p1: &[u8], p2: &[u8], child: &mut [u8], lo: usize, hi: usize) {
    child.copy_from_slice(p1);
    for k in lo..hi {
        let v = p2[k];
        if child[k] != v {
            // Positions lo..k already hold p2[lo..k], which differ from v: the search skips them.
            let mut j = 0;
            while child[j] != v {
                j += 1;
            }
            child.swap(k, j);
        }
    }
}

/// Order crossover (OX, Oliver, Smith and Holland 1987) producing one child, the operator
/// seeds 000 and 001 tried against PMX: the child carries `p2`'s segment `lo..hi` in place;
/// the positions from `hi` on (wrapping round) get `p1`'s other genes in the order they
/// follow `hi` in `p1`. As in `pmx`, `p2` gives the segment and `p1` the rest.
#[inline(always)]
pub fn ox(p1: &[u8], p2: &[u8], child: &mut [u8], lo: usize, hi: usize) {
    let n = p1.len();
    let mut in_segment = [0u32; crate::MAX_N / 32];
    child[lo..hi].copy_from_slice(&p2[lo..hi]);
    for &g in &p2[lo..hi] {
        in_segment[g as usize / 32] |= 1 << (g % 32);
    }
    let (mut write, mut read) = (hi, hi);
    for _ in 0..n {
        if read == n {
            read = 0;
        }
        let g = p1[read];
        read += 1;
        if in_segment[g as usize / 32] & (1 << (g % 32)) == 0 {
            if write == n {
                write = 0;
            }
            child[write] = g;
            write += 1;
        }
    }
}

/// Swap mutation: with probability `threshold / 2³²`, exchange two distinct random genes.
#[inline(always)]
pub fn swap_mutation(rng: &mut Xoshiro128, p: &mut [u8], threshold: u32) -> bool {
    if !rng.chance(threshold) || p.len() < 2 {
        return false;
    }
    let n = p.len() as u32;
    let a = rng.below(n);
    let mut b = rng.below(n - 1);
    if b >= a {
        b += 1;
    }
    p.swap(a as usize, b as usize);
    true
}

/// A perturbation of iterated local search: `swaps` exchanges of two distinct random
/// facilities' locations in `p`, each drawn as `swap_mutation` draws one. The caller
/// re-costs `p` (on the GPU a block sums the n² terms, where a Δ a swap would be thread 0's
/// serial work). `p.len()` ≥ 2.
pub fn random_exchanges<G: Gene>(rng: &mut Xoshiro128, p: &mut [G], swaps: u32) {
    let n = p.len() as u32;
    for _ in 0..swaps {
        let r = rng.below(n);
        let mut s = rng.below(n - 1);
        if s >= r {
            s += 1;
        }
        p.swap(r as usize, s as usize);
    }
}

/// True when `p` is a permutation of `0..p.len()`.
pub fn is_permutation(p: &[u8]) -> bool {
    let mut seen = [false; crate::MAX_N];
    p.len() <= crate::MAX_N
        && p.iter().all(|&g| {
            let g = g as usize;
            g < p.len() && !core::mem::replace(&mut seen[g], true)
        })
}
