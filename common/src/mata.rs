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
//! * **Split** (ours, `device::aco::split`): the block's T threads take the O(1) moves
//!   k ≡ t (mod T), each from Eq. 5's per-facility terms, and every O(n) move is split over a
//!   group of `lanes` threads of one warp that add its terms k ≡ g (mod lanes) and reduce
//!   them with shuffles. An iteration costs about (2n² + C·c₁)/T instructions per thread
//!   instead of MATA's n·c₂ for the slowest thread.
//!
//! * **Sums** (ours, `device::aco::sums`): the split mapping's iteration with every move
//!   priced in O(1) from the table of `crate::sums` (A or B symmetric), which T ≥ n threads
//!   bring up to date after each swap: about (n² + C·c₃)/T instructions per thread.
//!
//! The first iteration of a search has no previous move: every owner computes its moves in
//! O(n). A thread finds its first pair in a lookup table (`first_pair`), then walks with
//! `moves::next_pair`.
use crate::moves::{move_count, move_pair, pack_pair};

/// Largest block the kernels launch (every CUDA GPU since Fermi).
pub const MAX_THREADS: u32 = 1024;
/// Threads per warp.
pub const WARP: u32 = 32;

/// How a block's threads share the move costs (the module's docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mapping {
    /// MATA: T_S owners update the O(1) moves, 2n more threads compute the O(n) ones.
    Mata,
    /// The paper's non-MATA: the owners compute their O(n) moves inline.
    Plain,
    /// Ours: the O(1) moves over every thread, each O(n) move split over `lanes` threads.
    Split,
    /// Ours (`device::aco::sums`, `crate::sums`): every move in O(1) from a table of sums.
    Sums,
}

impl Mapping {
    /// The split family (`device::aco::split::drive`): a block of any T threads, the move
    /// pairs and the pricer's tables in shared memory.
    pub const fn split_family(self) -> bool {
        matches!(self, Mapping::Split | Mapping::Sums)
    }
}

/// Thread counts of one block for problem size n and N_S moves per thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Problem size.
    pub n: u32,
    /// N_S, moves per owning thread.
    pub ns: u32,
    /// The thread mapping.
    pub mapping: Mapping,
    /// C = n(n−1)/2.
    pub moves: u32,
    /// T_S = ⌈C/N_S⌉ threads own the moves (the paper's T_S): the owners.
    pub owners: u32,
    /// First thread of the O(n) moves (MATA), = T_S rounded up to a warp; T_S for plain.
    pub tl_start: u32,
    /// Threads per block: T_L-START + 2n (MATA) or T_S (plain); T (split).
    pub total: u32,
    /// Split: threads that share one O(n) move (a power of two up to 32); 1 otherwise.
    pub lanes: u32,
}

/// Why no `Shape` was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// n is outside 3..=`MAX_N`.
    BadN(u32),
    /// N_S is 0.
    BadNs(u32),
    /// The block would need more than `MAX_THREADS` threads.
    TooManyThreads {
        /// Threads the block needs.
        threads: u32,
        /// The N_S that needs them.
        ns: u32,
    },
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
    /// The shape for n with N_S = `ns`; the split family ignores `ns` and takes
    /// `split_threads(n, MAX_THREADS)` threads.
    pub fn new(n: u32, ns: u32, mapping: Mapping) -> Result<Shape, ShapeError> {
        if !(3..=crate::MAX_N as u32).contains(&n) {
            return Err(ShapeError::BadN(n));
        }
        if ns == 0 {
            return Err(ShapeError::BadNs(ns));
        }
        let moves = move_count(n);
        if mapping.split_family() {
            return Ok(Shape::split_family(n, split_threads(n, MAX_THREADS), mapping));
        }
        let ts = moves.div_ceil(ns);
        let (tl_start, total) = match mapping {
            Mapping::Mata => {
                let start = ts.div_ceil(WARP) * WARP;
                (start, start + 2 * n)
            }
            Mapping::Plain | Mapping::Split | Mapping::Sums => (ts, ts),
        };
        if total > MAX_THREADS {
            return Err(ShapeError::TooManyThreads { threads: total, ns });
        }
        Ok(Shape { n, ns, mapping, moves, owners: ts, tl_start, total, lanes: 1 })
    }

    /// The split mapping with `threads` per block (rounded up to a warp, at most 1024) and
    /// the group size that costs a thread the fewest term evaluations per iteration
    /// (`split_lanes`). Its lookup table holds every move (T_S = C, N_S = 1). `3 ≤ n ≤ 256`.
    pub fn split(n: u32, threads: u32) -> Shape {
        Shape::split_family(n, threads, Mapping::Split)
    }

    /// `split`'s shape for either mapping of the split family; the sums mapping takes at
    /// least n threads (one per location of its table) and no lanes.
    pub fn split_family(n: u32, threads: u32, mapping: Mapping) -> Shape {
        let sums = mapping == Mapping::Sums;
        let threads = if sums { threads.max(n) } else { threads };
        let total = (threads.div_ceil(WARP) * WARP).clamp(WARP, MAX_THREADS);
        let moves = move_count(n);
        let lanes = if sums { 1 } else { split_lanes(n, total) };
        Shape { n, ns: 1, mapping, moves, owners: moves, tl_start: 0, total, lanes }
    }

    /// The paper's shape with N_S = `ns`, or with the smallest larger N_S whose block (T_TOTAL
    /// rounded up to a warp) fits `max_threads`: a kernel's register count can cap its block
    /// below 1024 threads.
    pub fn fit(n: u32, ns: u32, mapping: Mapping, max_threads: u32) -> Result<Shape, ShapeError> {
        let limit = if max_threads < MAX_THREADS { max_threads } else { MAX_THREADS };
        if mapping.split_family() {
            Shape::new(n, 1, mapping)?;
            return Ok(Shape::split_family(n, split_threads(n, limit), mapping));
        }
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

/// Default threads per block of the split mapping: half a thread per move, in whole warps,
/// between 64 and 512 (and `max_threads`): a colony's ants are as many as it has, so each
/// search should end soon.
pub fn split_threads(n: u32, max_threads: u32) -> u32 {
    threads_per_moves(n, 2, max_threads)
}

/// Threads per block of the split mapping for the `ts` walks: a quarter of a thread per
/// move (64 to 512). The walks fill the GPU, and more of them reach a target sooner than
/// faster ones: on tai35b 792 walks of 160 threads reached the optimum in 2.6 ms, 396 of
/// 320 in 6.4 ms (docs/benchmarks-record.md, "The split layout").
pub fn walk_split_threads(n: u32, max_threads: u32) -> u32 {
    threads_per_moves(n, 4, max_threads)
}

/// C / `moves_per_thread` threads in whole warps, between 64 and 512 (and `max_threads`).
fn threads_per_moves(n: u32, moves_per_thread: u32, max_threads: u32) -> u32 {
    let warps = |t: u32| t.div_ceil(WARP) * WARP;
    warps(move_count(n) / moves_per_thread).clamp(64, 512).min(max_threads / WARP * WARP).max(WARP)
}

/// The group size of the split mapping: the power of two g ≤ 32 (and ≤ n) that minimises
/// a thread's term evaluations for the 2n − 3 moves that touch the last swap,
/// ⌈(2n − 3)·g / T⌉ rounds of ⌈n/g⌉ terms, plus log₂ g shuffle steps; the smallest on ties.
pub fn split_lanes(n: u32, threads: u32) -> u32 {
    let long = 2 * n - 3;
    let cost = |g: u32| ((long * g).div_ceil(threads)) * (n.div_ceil(g) + g.trailing_zeros());
    let mut best = 1;
    let mut g = 2;
    while g <= 32 && g <= n {
        if cost(g) < cost(best) {
            best = g;
        }
        g *= 2;
    }
    best
}

/// The O(n) move number m (< 2n − 3) after the swap (r, s), as (u, v) with u > v: first
/// (r, x) for every x ≠ r, then (s, x) for every x ∉ {r, s}.
#[inline(always)]
pub const fn touching_move(n: u32, r: u32, s: u32, m: u32) -> (u32, u32) {
    let (f, x) = if m < n - 1 {
        (r, if m >= r { m + 1 } else { m })
    } else {
        let (lo, hi) = if r < s { (r, s) } else { (s, r) };
        let mut x = m - (n - 1);
        if x >= lo {
            x += 1;
        }
        if x >= hi {
            x += 1;
        }
        (s, x)
    };
    if f > x { (f, x) } else { (x, f) }
}
