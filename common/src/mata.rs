//! Thread mappings of the move-cost computation in a block (seed 003, §5.2).
//!
//! * **MATA** (Move-Cost Adjusted Thread Assignment, Fig. 6): threads 0..T_S each own N_S
//!   consecutive moves, T_S = ⌈C/N_S⌉, and update the moves that do not touch the previous
//!   move (r, s) in O(1); they skip the others. Those 2n − 3 moves go to 2n threads starting
//!   at the next warp boundary T_L-START = ⌈T_S/32⌉·32: thread T_L-START + x computes (r, x)
//!   and thread T_L-START + n + y computes (y, s), each in O(n); threads for (r, r), (s, s)
//!   and the second copy of (r, s) do nothing. No warp mixes O(1) and O(n) work.
//! * **Plain** (the paper's non-MATA): the same T_S threads own the same moves and compute
//!   the touching ones in O(n) inline, so a warp waits for its slowest thread.
//!
//! The first iteration of a search has no previous move: every owner computes its moves in
//! O(n). A thread finds its first pair in a lookup table (`first_pair`), then walks with
//! `moves::next_pair`.
use crate::moves::{move_count, move_pair, pack_pair};

/// Largest block the kernels launch (every CUDA GPU since Fermi).
pub const MAX_THREADS: u32 = 1024;
pub const WARP: u32 = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mapping {
    Mata,
    Plain,
}

/// Thread counts of one block for problem size n and N_S moves per thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub n: u32,
    pub ns: u32,
    pub mapping: Mapping,
    /// C = n(n−1)/2.
    pub moves: u32,
    /// T_S = ⌈C/N_S⌉ threads own the moves.
    pub ts: u32,
    /// First thread of the O(n) moves (MATA), = T_S rounded up to a warp; T_S for plain.
    pub tl_start: u32,
    /// Threads per block: T_L-START + 2n (MATA) or T_S (plain).
    pub total: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    BadN(u32),
    BadNs(u32),
    TooManyThreads { threads: u32, ns: u32 },
}

impl core::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ShapeError::BadN(n) => write!(f, "n = {n} is outside 3..=256 for the local searches"),
            ShapeError::BadNs(ns) => write!(f, "N_S = {ns} must be at least 1"),
            ShapeError::TooManyThreads { threads, ns } => {
                write!(f, "N_S = {ns} needs {threads} threads per block, more than {MAX_THREADS}; raise N_S")
            }
        }
    }
}

/// The paper's N_S = n/4 (Table 4), rounded up: ⌈n/4⌉ keeps T_TOTAL ≤ 1024 for every
/// n ≤ 256 (n = 255 with ⌊n/4⌋ = 63 would need 1054 threads).
pub const fn default_ns(n: u32) -> u32 {
    n.div_ceil(4)
}

impl Shape {
    pub fn new(n: u32, ns: u32, mapping: Mapping) -> Result<Shape, ShapeError> {
        if !(3..=crate::MAX_N as u32).contains(&n) {
            return Err(ShapeError::BadN(n));
        }
        if ns == 0 {
            return Err(ShapeError::BadNs(ns));
        }
        let moves = move_count(n);
        let ts = moves.div_ceil(ns);
        let (tl_start, total) = match mapping {
            Mapping::Mata => {
                let start = ts.div_ceil(WARP) * WARP;
                (start, start + 2 * n)
            }
            Mapping::Plain => (ts, ts),
        };
        if total > MAX_THREADS {
            return Err(ShapeError::TooManyThreads { threads: total, ns });
        }
        Ok(Shape { n, ns, mapping, moves, ts, tl_start, total })
    }

    /// The paper's shape with N_S = `ns`, or with the smallest larger N_S whose block (T_TOTAL
    /// rounded up to a warp) fits `max_threads`: a kernel's register count can cap its block
    /// below 1024 threads.
    pub fn fit(n: u32, ns: u32, mapping: Mapping, max_threads: u32) -> Result<Shape, ShapeError> {
        let limit = if max_threads < MAX_THREADS { max_threads } else { MAX_THREADS };
        let mut ns = ns;
        loop {
            match Shape::new(n, ns, mapping) {
                Ok(s) if s.launched() <= limit => return Ok(s),
                Ok(s) if ns >= s.moves => return Err(ShapeError::TooManyThreads { threads: s.launched(), ns }),
                Ok(_) | Err(ShapeError::TooManyThreads { .. }) => ns += 1,
                Err(e) => return Err(e),
            }
        }
    }

    /// Threads per launched block: T_TOTAL rounded up to a whole warp, so that full-mask
    /// shuffles are defined.
    pub const fn launched(&self) -> u32 {
        self.total.div_ceil(WARP) * WARP
    }

    /// Thread t's first move (t < T_S), packed (`moves::pack_pair`): the lookup table.
    pub const fn first_pair(&self, t: u32) -> u32 {
        let (u, v) = move_pair(t * self.ns);
        pack_pair(u, v)
    }

    /// Number of moves thread t (< T_S) owns: N_S, fewer for the last thread.
    #[inline(always)]
    pub const fn owned(&self, t: u32) -> u32 {
        let start = t * self.ns;
        let end = if start + self.ns < self.moves { start + self.ns } else { self.moves };
        end - start
    }

    /// For MATA thread t ≥ T_L-START, the O(n) move it computes after move (r, s), as
    /// (u, v) with u > v, or None for the idle threads.
    #[inline(always)]
    pub const fn long_move(&self, t: u32, r: u32, s: u32) -> Option<(u32, u32)> {
        let idx = t - self.tl_start;
        let (x, y) = if idx < self.n {
            if idx == r {
                return None;
            }
            (r, idx)
        } else {
            let y = idx - self.n;
            if y >= self.n || y == s || y == r {
                return None;
            }
            (y, s)
        };
        Some(if x > y { (x, y) } else { (y, x) })
    }
}
