//! Where every byte goes: the one place that computes sizes and offsets of shared, constant
//! and global memory for a kernel, given n and the GPU. `cargo xtask audit` prints these.
use crate::delta::DeltaWidth;
use crate::elem::ElemWidth;
use crate::params::GaSharedLayout;

/// Bytes of the `.const` array `QAP_CONST_A` that the GA module declares (a whole bank).
pub const CONST_A_CAPACITY: usize = 65536;
/// Bytes at the start of the GA scratch area: atomic best cost (i64), count (u32), index (u32).
pub const SCRATCH_HEADER: u32 = 16;
/// Bytes per warp in the scratch area: the warp's (min cost i64, index u32, pad u32).
pub const SCRATCH_PER_WARP: u32 = 16;

/// Per-architecture limits that decide placement and occupancy (CUDA programming guide,
/// "Technical specifications per compute capability").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceLimits {
    /// Compute capability, major × 10 + minor (90 for the H100).
    pub arch: u32,
    /// Dynamic shared memory one block may use after opting in.
    pub shared_per_block_optin: u32,
    /// Shared memory of one SM, in bytes.
    pub shared_per_sm: u32,
    /// Shared memory the system reserves for each resident block.
    pub reserved_per_block: u32,
    /// Most resident threads on one SM.
    pub max_threads_per_sm: u32,
    /// Most resident blocks on one SM.
    pub max_blocks_per_sm: u32,
    /// 32-bit registers of one SM.
    pub regs_per_sm: u32,
}

/// The limits of compute capability `arch` (70, 72, 75, 80, 86, 87, 89 or 90); None for others.
pub const fn limits(arch: u32) -> Option<DeviceLimits> {
    let (optin, per_sm, reserved, threads, blocks) = match arch {
        70 | 72 => (98_304, 98_304, 0, 2048, 32),
        75 => (65_536, 65_536, 0, 1024, 16),
        80 | 87 => (166_912, 167_936, 1024, 2048, 32),
        86 => (101_376, 102_400, 1024, 1536, 16),
        89 => (101_376, 102_400, 1024, 1536, 24),
        90 => (232_448, 233_472, 1024, 2048, 32),
        _ => return None,
    };
    Some(DeviceLimits {
        arch,
        shared_per_block_optin: optin,
        shared_per_sm: per_sm,
        reserved_per_block: reserved,
        max_threads_per_sm: threads,
        max_blocks_per_sm: blocks,
        regs_per_sm: 65_536,
    })
}

/// The GPU memory a matrix or table lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Constant memory.
    Constant,
    /// The block's dynamic shared memory.
    Shared,
    /// Global memory.
    Global,
}

impl Placement {
    /// The placement's name, as printed.
    pub const fn name(self) -> &'static str {
        match self {
            Placement::Constant => "constant",
            Placement::Shared => "shared",
            Placement::Global => "global (read-only path)",
        }
    }
}

/// A range of `bytes` bytes at `offset` in one memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Byte offset of the range's start.
    pub offset: u32,
    /// Length in bytes.
    pub bytes: u32,
}

impl Region {
    /// The offset just past the range: `offset + bytes`.
    pub const fn end(&self) -> u32 {
        self.offset + self.bytes
    }
}

/// Row stride of a `u8` individual: n rounded up to whole 4-byte words, plus one word when
/// that count is even. With an odd number of words per row, the 32 threads of a warp reading
/// gene k of their own rows hit 32 different banks.
pub const fn row_stride(n: u32) -> u32 {
    let words = n.div_ceil(4);
    let words = if words.is_multiple_of(2) { words + 1 } else { words };
    words * 4
}

const fn align(x: u32, a: u32) -> u32 {
    x.div_ceil(a) * a
}

/// Memory plan of the GA kernel (seeds 000/001) for one subpopulation per block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GaLayout {
    /// Problem size.
    pub n: u32,
    /// Individuals in a block's subpopulation.
    pub subpop: u32,
    /// Element width of the matrices.
    pub width: ElemWidth,
    /// Bytes per individual row (`row_stride(n)`).
    pub stride: u32,
    /// Population pool P: subpop rows of `stride` bytes.
    pub p_pool: Region,
    /// Working pool W (children).
    pub w_pool: Region,
    /// Matrix B when it is in shared memory.
    pub b_matrix: Option<Region>,
    /// The block's scratch: `SCRATCH_HEADER` bytes, then `SCRATCH_PER_WARP` per warp.
    pub scratch: Region,
    /// Bytes of dynamic shared memory a block uses.
    pub dynamic_shared: u32,
    /// Where A is: constant memory when it fits `CONST_A_CAPACITY`, else global.
    pub a_placement: Placement,
    /// Where B is: shared memory when it fits beside the pools, else global.
    pub b_placement: Placement,
    /// Bytes of one matrix: n² elements of `width`.
    pub matrix_bytes: u32,
}

/// Why `GaLayout::new` found no plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// n is outside 2..=`MAX_N`.
    BadN(u32),
    /// The subpopulation size is not a multiple of 32 in 32..=1024.
    BadSubpop(u32),
    /// The two pools alone exceed the block's shared memory.
    PoolsTooLarge {
        /// Bytes the pools and the scratch need.
        needed: u32,
        /// Bytes of shared memory a block may use.
        limit: u32,
    },
}

impl core::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LayoutError::BadN(n) => write!(f, "n = {n} is outside 2..=256"),
            LayoutError::BadSubpop(s) => write!(f, "subpopulation size {s} must be a multiple of 32 in 32..=1024"),
            LayoutError::PoolsTooLarge { needed, limit } => {
                write!(f, "the pools need {needed} bytes of shared memory per block, more than the {limit} available")
            }
        }
    }
}

impl GaLayout {
    /// Bytes of global memory a run of `blocks` blocks holds beside the matrices: two
    /// populations, their costs, RNG states (16 bytes an individual), and each block's best
    /// row, cost, restart count and found flag.
    pub fn global_bytes(&self, blocks: u32) -> u128 {
        let (blocks, stride) = (blocks as u128, self.stride as u128);
        let total = blocks * self.subpop as u128;
        total * (2 * stride + 2 * 8 + 16) + blocks * (stride + 8 + 4 + 8)
    }

    /// The plan for n, `subpop` individuals a block and elements of `width` on a GPU with
    /// limits `lim`, or why there is none.
    pub fn new(n: u32, subpop: u32, width: ElemWidth, lim: &DeviceLimits) -> Result<GaLayout, LayoutError> {
        if !(2..=crate::MAX_N as u32).contains(&n) {
            return Err(LayoutError::BadN(n));
        }
        if !(32..=1024).contains(&subpop) || !subpop.is_multiple_of(32) {
            return Err(LayoutError::BadSubpop(subpop));
        }
        let stride = row_stride(n);
        let pool = subpop * stride;
        let p_pool = Region { offset: 0, bytes: pool };
        let w_pool = Region { offset: pool, bytes: pool };
        let scratch_bytes = SCRATCH_HEADER + SCRATCH_PER_WARP * (subpop / 32);
        let matrix_bytes = n * n * width.bytes() as u32;
        let b_offset = align(w_pool.end(), 16);
        let with_b = align(b_offset + matrix_bytes, 16) + scratch_bytes;
        let (b_matrix, scratch_offset) = if with_b <= lim.shared_per_block_optin {
            (Some(Region { offset: b_offset, bytes: matrix_bytes }), align(b_offset + matrix_bytes, 16))
        } else {
            (None, align(w_pool.end(), 16))
        };
        let scratch = Region { offset: scratch_offset, bytes: scratch_bytes };
        if scratch.end() > lim.shared_per_block_optin {
            return Err(LayoutError::PoolsTooLarge { needed: scratch.end(), limit: lim.shared_per_block_optin });
        }
        let a_placement =
            if matrix_bytes as usize <= CONST_A_CAPACITY { Placement::Constant } else { Placement::Global };
        Ok(GaLayout {
            n,
            subpop,
            width,
            stride,
            p_pool,
            w_pool,
            b_matrix,
            scratch,
            dynamic_shared: scratch.end(),
            a_placement,
            b_placement: if b_matrix.is_some() { Placement::Shared } else { Placement::Global },
            matrix_bytes,
        })
    }

    /// The shared-memory offsets for the kernel's parameter block.
    pub fn shared(&self) -> GaSharedLayout {
        GaSharedLayout {
            stride: self.stride,
            p_offset: self.p_pool.offset,
            w_offset: self.w_pool.offset,
            b_offset: self.b_matrix.map_or(0, |r| r.offset),
            scratch_offset: self.scratch.offset,
            total: self.dynamic_shared,
        }
    }

    /// The plan's `params::FLAG_*` bits: A in constant memory, B in shared memory.
    pub fn flags(&self) -> u32 {
        let mut f = 0;
        if self.a_placement == Placement::Constant {
            f |= crate::params::FLAG_A_IN_CONST;
        }
        if self.b_placement == Placement::Shared {
            f |= crate::params::FLAG_B_IN_SHARED;
        }
        f
    }
}

/// Largest block a kernel with `regs_per_thread` registers can launch (registers are
/// allocated per warp in units of 256).
pub fn max_threads_for_registers(lim: &DeviceLimits, regs_per_thread: u32) -> u32 {
    (warps_for_registers(lim, regs_per_thread) * 32).min(1024)
}

/// Register file partitions of an SM (one per warp scheduler, every architecture since
/// Maxwell): a warp's registers come from one partition.
pub const SM_PARTITIONS: u32 = 4;

/// Warps an SM holds with `regs_per_thread` registers each: registers are allocated per
/// warp in units of 256 from one of the 4 partitions, so a partition holds whole warps
/// (the CUDA occupancy calculator's rule). Counting the SM's file as one pool overstates
/// it: 104 registers give 4 warps per partition, 16 per SM, not 19.
pub fn warps_for_registers(lim: &DeviceLimits, regs_per_thread: u32) -> u32 {
    let regs_per_warp = align(regs_per_thread.max(1) * 32, 256);
    (lim.regs_per_sm / SM_PARTITIONS / regs_per_warp) * SM_PARTITIONS
}

/// Resident blocks per SM and the resource that limits them.
pub fn blocks_per_sm(
    lim: &DeviceLimits,
    threads: u32,
    dynamic_shared: u32,
    regs_per_thread: u32,
) -> (u32, &'static str) {
    let by_threads = lim.max_threads_per_sm / threads;
    let by_shared = lim.shared_per_sm / (dynamic_shared + lim.reserved_per_block).max(1);
    let by_regs = warps_for_registers(lim, regs_per_thread) / threads.div_ceil(32);
    let mut best = (lim.max_blocks_per_sm, "blocks-per-SM limit");
    for cand in [(by_threads, "threads"), (by_shared, "shared memory"), (by_regs, "registers")] {
        if cand.0 < best.0 {
            best = cand;
        }
    }
    best
}

/// Bytes per warp of the local search's argmin scratch: (Δ i64, tag u32, pad).
pub const LS_SCRATCH_PER_WARP: u32 = 16;

/// The shared rows of the fast path's tables at n: n + 1 where n is a multiple of 8, else n.
/// Rows of n 4-byte entries put 32 consecutive rows' entries of one column in
/// 32 / gcd(n, 32) banks; rows of n + 1 (odd) in 32. On the H100 (docs/benchmarks-record.md, "Padded
/// rows") the walks made 39–43 % more moves at n = 80 (16-way conflicts gone), 72 % more at
/// n = 64 (32-way) and 2–5 % more at n = 40 (8-way); at n = 36, 50, 60 and 100 (4-way at
/// most) padding changed them by −1.3 to +2 %, within what a run-time row length cost.
pub const fn padded_row(n: u32) -> u32 {
    if n.is_multiple_of(8) { n + 1 } else { n }
}

/// Blocks an SM that `dynamic_shared` bytes a block allow.
fn blocks_by_shared(lim: &DeviceLimits, dynamic_shared: u32) -> u32 {
    lim.shared_per_sm / (dynamic_shared + lim.reserved_per_block)
}

/// Memory plan of the local-search kernel (seed 003): one block per ant.
///
/// Shared memory holds the current and best permutations and the argmin scratch, then, each
/// where it fits, in the order of how often a move touches it:
/// 1. the Δ table (every move reads and writes its entry each iteration), i64 or i32;
/// 2. A and B (an O(1) update reads 8 entries of each, at rows the last move chose);
/// 3. the tabu matrix (2 reads per move).
///
/// Items 2 and 3 go in only when they do not lower the blocks per SM below what threads
/// and registers allow (`max_blocks`): a block's search is bound by load latency, which
/// more resident blocks hide. Whatever is left out is read from global memory (A and B
/// through the read-only path, the paper's texture fetches). The exception is the sums
/// kernels' fast path, which is worth fewer blocks (`LsLayout::new`).
///
/// On the sums kernels' fast path, H and the tabu matrix have rows of n + 1 entries where n
/// is a multiple of 8 (`padded_row`, `row`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LsLayout {
    /// Problem size.
    pub n: u32,
    /// The block's thread mapping and thread counts.
    pub shape: crate::mata::Shape,
    /// Whether the search is a tabu search (with a best permutation and a tabu matrix).
    pub tabu_search: bool,
    /// Width of the move costs and of the tables that hold them.
    pub delta_width: DeltaWidth,
    /// The current permutation, n bytes in shared memory.
    pub perm: Region,
    /// The best permutation, n bytes in shared memory (empty without tabu search).
    pub best: Region,
    /// The argmin's scratch, `LS_SCRATCH_PER_WARP` bytes per warp.
    pub scratch: Region,
    /// The Δ table; offset 0 when it is in global memory.
    pub delta: Region,
    /// Matrix A; offset 0 when it is in global memory.
    pub a: Region,
    /// Matrix B; offset 0 when it is in global memory.
    pub b: Region,
    /// The tabu matrix; offset 0 when it is in global memory (empty without tabu search).
    pub tabu: Region,
    /// The split family's move pairs, 2 bytes a move, where `pairs_shared` (empty otherwise).
    pub pairs: Region,
    /// The split mapping's Eq. 5 terms, 4n entries (always shared; empty otherwise).
    pub terms: Region,
    /// The sums mapping's table H, n rows `row` entries apart (always shared; empty
    /// otherwise). The sums mapping has no Δ table (`delta` empty).
    pub sums: Region,
    /// Entries between two rows of H and of the tabu matrix in shared memory: n, or n + 1
    /// on the fast path where n is a multiple of 8 (`padded_row`; the padded kernels).
    pub row: u32,
    /// Whether the split family's pairs are in shared memory (`pairs`): always for split,
    /// and for sums but in the fast path's last resort (`LsLayout::new`), whose kernels
    /// read them from global memory.
    pub pairs_shared: bool,
    /// Bytes of a tabu entry in shared memory: 4, or 2 in a narrow plan (`narrow_tabu`; the
    /// narrow kernels). In global memory entries are 4 bytes.
    pub tabu_entry: u32,
    /// Where the Δ table is.
    pub delta_placement: Placement,
    /// Where A and B are.
    pub ab_placement: Placement,
    /// Where the tabu matrix is (global without tabu search).
    pub tabu_placement: Placement,
    /// Bytes of dynamic shared memory a block uses.
    pub dynamic_shared: u32,
}

impl LsLayout {
    /// `max_blocks`: the blocks per SM that threads and registers allow
    /// (`blocks_per_sm` with no shared memory). `narrow_tabu`: the caller checked that the
    /// searches' tabu entries fit 2 bytes (`narrow_tabu::fits`); the plan then holds them
    /// so where that puts the fast path's tabu matrix in shared memory, or more blocks on an
    /// SM (tai100a, tai100b: two walks an SM on the fast path, not two off it).
    ///
    /// Where no plan at `max_blocks` runs on the fast path, the plan with the most blocks an
    /// SM that does is taken: one walk an SM on the fast path made 1.3 to 13 times the move
    /// costs a second of two on the general kernels (or on the split and MATA layouts the
    /// host fell back to) at n = 104 to 128, and ended lower within 1 s (docs/benchmarks-record.md,
    /// "The fast path before occupancy").
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        shape: crate::mata::Shape,
        tabu_search: bool,
        delta_width: DeltaWidth,
        width: ElemWidth,
        max_blocks: u32,
        lim: &DeviceLimits,
        narrow_tabu: bool,
        global_pairs: bool,
    ) -> LsLayout {
        let at = |blocks: u32, shared_pairs: bool| {
            Self::at_blocks(shape, tabu_search, delta_width, width, blocks, lim, narrow_tabu, shared_pairs)
        };
        let first = at(max_blocks, true);
        if first.fast_path() {
            return first;
        }
        if let Some(p) = (1..max_blocks).rev().map(|b| at(b, true)).find(LsLayout::fast_path) {
            return p;
        }
        // Last, the pairs read from global memory, on 2-byte tabu entries in rows of n (the
        // kernels there are): tai150b's c-ants (H, A, B and the tabu matrix 225 KB, the
        // pairs 22 KB more than an H100 gives a block).
        if narrow_tabu && global_pairs {
            let global_pairs = |p: &LsLayout| p.fast_path() && !p.pairs_shared && p.tabu_entry == 2 && p.row == p.n;
            if let Some(p) = (1..=max_blocks).rev().map(|b| at(b, false)).find(global_pairs) {
                return p;
            }
        }
        first
    }

    /// The plan that keeps `max_blocks` blocks an SM where it can (the struct's docs).
    #[allow(clippy::too_many_arguments)]
    fn at_blocks(
        shape: crate::mata::Shape,
        tabu_search: bool,
        delta_width: DeltaWidth,
        width: ElemWidth,
        max_blocks: u32,
        lim: &DeviceLimits,
        narrow_tabu: bool,
        shared_pairs: bool,
    ) -> LsLayout {
        let wide = Self::with_entries(shape, tabu_search, delta_width, width, max_blocks, lim, 4, shared_pairs);
        if !(narrow_tabu && tabu_search) {
            return wide;
        }
        let narrow = Self::with_entries(shape, tabu_search, delta_width, width, max_blocks, lim, 2, shared_pairs);
        let blocks = |l: &LsLayout| blocks_by_shared(lim, l.dynamic_shared).min(max_blocks);
        if narrow.fast_path() && (!wide.fast_path() || blocks(&narrow) > blocks(&wide)) { narrow } else { wide }
    }

    /// The plan with tabu entries of `entry` bytes in shared memory, and the sums mapping's
    /// pairs there where `shared_pairs` (rows of n only where not).
    #[allow(clippy::too_many_arguments)]
    fn with_entries(
        shape: crate::mata::Shape,
        tabu_search: bool,
        delta_width: DeltaWidth,
        width: ElemWidth,
        max_blocks: u32,
        lim: &DeviceLimits,
        entry: u32,
        shared_pairs: bool,
    ) -> LsLayout {
        let plain =
            Self::with_row(shape, tabu_search, delta_width, width, max_blocks, lim, shape.n, entry, shared_pairs);
        // On the fast path the pricing reads column entries, H(v, φu) and the tabu entry of
        // (v, φu), for 32 consecutive v a warp: rows of 80 i32 put them in two banks
        // (16-way conflicts; docs/benchmarks-record.md, "Padded rows"). Rows of n + 1 put them in 32.
        // The padded plan runs on kernels of its own (`ts_sums_fast_walk_padded_*`), and
        // is taken only where every placement and the blocks per SM stay.
        let padded = padded_row(shape.n);
        if !plain.fast_path() || padded == shape.n || !shared_pairs {
            return plain;
        }
        let wide = Self::with_row(shape, tabu_search, delta_width, width, max_blocks, lim, padded, entry, shared_pairs);
        if wide.fast_path()
            && blocks_by_shared(lim, wide.dynamic_shared) >= blocks_by_shared(lim, plain.dynamic_shared).min(max_blocks)
        {
            wide
        } else {
            plain
        }
    }

    /// Whether the plan runs on the sums kernels' fast path: i32 move costs, A, B and the
    /// tabu matrix in shared memory (the small instances', where the time to a target is a
    /// few hundred moves). The kernels of the fast path class every move without a branch.
    pub fn fast_path(&self) -> bool {
        self.shape.mapping == crate::mata::Mapping::Sums
            && self.delta_width == DeltaWidth::I32
            && self.ab_placement == Placement::Shared
            && self.tabu_search
            && self.tabu_placement == Placement::Shared
    }

    /// The plan with rows of H and of a shared tabu matrix `row` entries apart, and tabu
    /// entries of `entry` bytes in shared memory.
    #[allow(clippy::too_many_arguments)]
    fn with_row(
        shape: crate::mata::Shape,
        tabu_search: bool,
        delta_width: DeltaWidth,
        width: ElemWidth,
        max_blocks: u32,
        lim: &DeviceLimits,
        row: u32,
        entry: u32,
        shared_pairs: bool,
    ) -> LsLayout {
        let n = shape.n;
        let perm = Region { offset: 0, bytes: n };
        let best = Region { offset: align(perm.end(), 16), bytes: if tabu_search { n } else { 0 } };
        let scratch = Region { offset: align(best.end(), 16), bytes: LS_SCRATCH_PER_WARP * shape.total.div_ceil(32) };
        let fits = |end: u32| end <= lim.shared_per_block_optin;
        let by_shared = |end: u32| blocks_by_shared(lim, end);
        // Whether `bytes` more at `at` fit a block and keep the blocks per SM.
        let keeps_occupancy =
            |at: u32, bytes: u32| fits(at + bytes) && by_shared(at + bytes) >= by_shared(at).min(max_blocks);

        // The split family's tables come first: its moves read them every iteration. The
        // sums mapping keeps no Δ table: its table of sums holds what every move needs.
        let (split, sums) = (shape.mapping == crate::mata::Mapping::Split, shape.mapping == crate::mata::Mapping::Sums);
        let pairs_shared = split || (sums && shared_pairs);
        let pairs = Region { offset: align(scratch.end(), 16), bytes: if pairs_shared { 2 * shape.moves } else { 0 } };
        let terms =
            Region { offset: align(pairs.end(), 16), bytes: if split { 4 * n * delta_width.bytes() } else { 0 } };
        let sum_table =
            Region { offset: align(terms.end(), 16), bytes: if sums { n * row * delta_width.bytes() } else { 0 } };
        let base = align(sum_table.end(), 16);
        let delta_bytes = if sums { 0 } else { shape.moves * delta_width.bytes() };
        let delta_shared = fits(base + delta_bytes);
        let delta = Region { offset: if delta_shared { base } else { 0 }, bytes: delta_bytes };
        let mut end = if delta_shared { align(delta.end(), 16) } else { base };

        let matrix_bytes = n * n * width.bytes() as u32;
        let ab_shared = keeps_occupancy(end, align(matrix_bytes, 16) + matrix_bytes);
        let (a, b) = if ab_shared {
            let a = Region { offset: end, bytes: matrix_bytes };
            let b = Region { offset: align(a.end(), 16), bytes: matrix_bytes };
            end = align(b.end(), 16);
            (a, b)
        } else {
            (Region { offset: 0, bytes: matrix_bytes }, Region { offset: 0, bytes: matrix_bytes })
        };

        let tabu_shared = tabu_search && keeps_occupancy(end, n * row * entry);
        let tabu_bytes = if tabu_shared {
            n * row * entry
        } else if tabu_search {
            n * n * 4
        } else {
            0
        };
        let tabu = Region { offset: if tabu_shared { end } else { 0 }, bytes: tabu_bytes };
        if tabu_shared {
            end = tabu.end();
        }
        let place = |s: bool| if s { Placement::Shared } else { Placement::Global };
        LsLayout {
            n,
            shape,
            tabu_search,
            delta_width,
            perm,
            best,
            scratch,
            delta,
            a,
            b,
            tabu,
            pairs,
            terms,
            sums: sum_table,
            row,
            pairs_shared,
            tabu_entry: if tabu_shared { entry } else { 4 },
            delta_placement: place(delta_shared),
            ab_placement: place(ab_shared),
            tabu_placement: if tabu_search { place(tabu_shared) } else { Placement::Global },
            dynamic_shared: end,
        }
    }

    /// The shared-memory offsets for the kernels' parameter block.
    pub fn shared(&self) -> crate::params::LsSharedLayout {
        crate::params::LsSharedLayout {
            perm: self.perm.offset,
            best: self.best.offset,
            scratch: self.scratch.offset,
            delta: self.delta.offset,
            tabu: self.tabu.offset,
            a: self.a.offset,
            b: self.b.offset,
            pairs: self.pairs.offset,
            terms: self.terms.offset,
            sums: self.sums.offset,
            total: self.dynamic_shared,
        }
    }

    /// The plan's `params::LS_*` bits: the search, the mapping, the placements, the Δ width
    /// and padded rows.
    pub fn flags(&self) -> u32 {
        use crate::params::*;
        let mut f = 0;
        if self.tabu_search {
            f |= LS_TABU;
            if self.tabu_placement == Placement::Shared {
                f |= LS_TABU_SHARED;
            }
        }
        match self.shape.mapping {
            crate::mata::Mapping::Mata => f |= LS_MATA,
            crate::mata::Mapping::Split => f |= LS_SPLIT,
            crate::mata::Mapping::Sums => f |= LS_SUMS,
            crate::mata::Mapping::Plain => {}
        }
        if self.delta_placement == Placement::Shared {
            f |= LS_DELTA_SHARED;
        }
        if self.ab_placement == Placement::Shared {
            f |= LS_AB_SHARED;
        }
        if self.delta_width == DeltaWidth::I32 {
            f |= LS_DELTA_I32;
        }
        if self.row != self.n {
            f |= LS_PADDED_ROWS;
        }
        f
    }

    /// Whether the kernels can run this plan: the split family keeps its tables in shared
    /// memory (at n = 256 an i64 Δ table does not fit; the host then takes MATA).
    pub fn runnable(&self) -> bool {
        !self.shape.mapping.split_family() || self.delta_placement == Placement::Shared
    }

    /// Bytes of global memory each ant's Δ table needs (0 when it is in shared memory).
    pub fn global_delta_bytes(&self) -> u32 {
        if self.delta_placement == Placement::Shared { 0 } else { self.delta.bytes }
    }
}

/// Global memory of a colony of m units (c-ants, or `ts`'s walks) on one local-search plan,
/// beside the matrices: the one place its sizes are computed (`LsLayout::colony_memory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColonyMemory {
    /// Bytes of the Δ tables that do not fit in shared memory (at least 1).
    pub delta_bytes: usize,
    /// i32 entries of the tabu matrices in global memory: an n² matrix a unit where walks
    /// keep theirs between launches or the plan leaves it in global memory, else 1.
    pub tabu_entries: usize,
    /// Bytes of the sums walks' tables H kept between launches (0 where none): a launch then
    /// starts from n² loads, not n³ multiply-adds, and a regrouped walk takes its donor's.
    pub kept_tables: usize,
    /// Bytes of the elite's copies: each walk's start, cost and table (walks only).
    pub elite_copies: u128,
    /// Every byte: the above, and the units' two rows (of n rounded up to 16 bytes), two
    /// costs, search count and RNG state, and τ (n² f32).
    pub total: u128,
}

impl LsLayout {
    /// The global memory of m units on this plan; `walk`: they are `ts`'s walks.
    pub fn colony_memory(&self, m: usize, walk: bool) -> ColonyMemory {
        let n = self.n as usize;
        let stride = n.div_ceil(16) * 16;
        let delta_bytes = (m * self.global_delta_bytes() as usize).max(1);
        let tabu_entries =
            if walk || (self.tabu_search && self.tabu_placement != Placement::Shared) { m * n * n } else { 1 };
        let kept_tables = if walk && self.shape.mapping == crate::mata::Mapping::Sums {
            m * n * n * self.delta_width.bytes() as usize
        } else {
            0
        };
        let elite_copies = if walk { m as u128 * (stride as u128 + 8 + 8) + kept_tables as u128 } else { 0 };
        let total = m as u128 * (2 * stride as u128 + 2 * 8 + 4 + 16)
            + delta_bytes as u128
            + 4 * tabu_entries as u128
            + 4 * (n * n) as u128
            + kept_tables as u128
            + elite_copies;
        ColonyMemory { delta_bytes, tabu_entries, kept_tables, elite_copies, total }
    }
}

/// Memory plan of the cellular GA's local-search kernel (seeds 002/004): one block per
/// individual. Thread mapping `gene` (the thesis's): one thread per gene, each swap's Δ a
/// block-wide sum; `move`: one thread per move (strided), Δ from the O(n) and O(1)
/// formulas of `moves`, kept in a table that lives in shared memory when it fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CgaLayout {
    /// Problem size.
    pub n: u32,
    /// Whether the thread mapping is `move` (else `gene`).
    pub move_mapping: bool,
    /// Threads per block.
    pub threads: u32,
    /// The individual being improved, n bytes in shared memory.
    pub perm: Region,
    /// One `LS_SCRATCH_PER_WARP` slot per warp for the reductions.
    pub scratch: Region,
    /// The `move` mapping's Δ table (C i64); offset 0 and global when it does not fit.
    pub delta: Region,
    /// Where the Δ table is (shared for the `gene` mapping, which has none).
    pub delta_placement: Placement,
    /// Bytes of dynamic shared memory a block uses.
    pub dynamic_shared: u32,
}

/// Most threads of the `move` mapping's block (registers allow 128 each at 512 threads).
pub const CGA_MOVE_THREADS: u32 = 512;

impl CgaLayout {
    /// Bytes of global memory a grid of `total` individuals holds beside the matrices: two
    /// populations in rows of n rounded up to 16 bytes, their costs, RNG states, and the
    /// `move` mapping's Δ tables (i64) where they are not in shared memory.
    pub fn global_bytes(&self, total: u32) -> u128 {
        let (total, stride) = (total as u128, self.n.div_ceil(16) as u128 * 16);
        let global_delta = if self.move_mapping && self.delta_placement == Placement::Global {
            total * crate::moves::move_count(self.n) as u128
        } else {
            1
        };
        total * (2 * stride + 2 * 8 + 16) + 8 * global_delta
    }

    /// The plan for n on a GPU with limits `lim`, for the `move` mapping where `move_mapping`.
    pub fn new(n: u32, move_mapping: bool, lim: &DeviceLimits) -> CgaLayout {
        let moves = crate::moves::move_count(n);
        let threads = if move_mapping { align(moves, 32).min(CGA_MOVE_THREADS) } else { align(n, 32).max(32) };
        let perm = Region { offset: 0, bytes: n };
        let scratch = Region { offset: align(perm.end(), 16), bytes: LS_SCRATCH_PER_WARP * threads / 32 };
        let base = align(scratch.end(), 16);
        let delta_bytes = if move_mapping { moves * 8 } else { 0 };
        let shared = move_mapping && base + delta_bytes <= lim.shared_per_block_optin;
        let delta = Region { offset: if shared { base } else { 0 }, bytes: delta_bytes };
        CgaLayout {
            n,
            move_mapping,
            threads,
            perm,
            scratch,
            delta,
            delta_placement: if shared || !move_mapping { Placement::Shared } else { Placement::Global },
            dynamic_shared: if shared { delta.end() } else { base },
        }
    }

    /// The shared-memory offsets for the kernel's parameter block.
    pub fn shared(&self) -> crate::params::CgaSharedLayout {
        crate::params::CgaSharedLayout {
            perm: self.perm.offset,
            scratch: self.scratch.offset,
            delta: self.delta.offset,
            total: self.dynamic_shared,
        }
    }

    /// The plan's `params::CGA_*` bits: the `move` mapping, its Δ table in shared memory.
    pub fn flags(&self) -> u32 {
        use crate::params::*;
        let mut f = 0;
        if self.move_mapping {
            f |= CGA_MOVE_MAPPING;
            if self.delta_placement == Placement::Shared {
                f |= CGA_DELTA_SHARED;
            }
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mata::{Mapping, Shape};

    /// The plan of a tabu search at n with `threads` a block on an H100, two blocks an SM.
    fn plan(n: u32, threads: u32, mapping: Mapping) -> LsLayout {
        plan_with(n, threads, mapping, false)
    }

    /// `plan`, where the searches' tabu entries fit 2 bytes (`narrow_tabu`).
    fn plan_with(n: u32, threads: u32, mapping: Mapping, narrow_tabu: bool) -> LsLayout {
        let shape = if mapping.split_family() {
            Shape::split_family(n, threads, mapping)
        } else {
            Shape::new(n, crate::mata::default_ns(n), mapping).unwrap()
        };
        LsLayout::new(shape, true, DeltaWidth::I32, ElemWidth::U16, 2, &limits(90).unwrap(), narrow_tabu, true)
    }

    #[test]
    fn two_byte_tabu_entries_only_where_they_bring_the_fast_path_or_blocks() {
        let lim = limits(90).unwrap();
        let blocks = |l: &LsLayout| blocks_by_shared(&lim, l.dynamic_shared).min(2);
        // n = 100: 4-byte entries run the fast path at one walk an SM only; 2-byte ones at
        // two.
        let (wide, narrow) = (plan(100, 512, Mapping::Sums), plan_with(100, 512, Mapping::Sums, true));
        assert!(wide.fast_path() && wide.tabu_entry == 4);
        assert!(narrow.fast_path() && narrow.tabu_entry == 2 && narrow.row == 100);
        assert_eq!(narrow.tabu.bytes, 100 * 100 * 2);
        assert_eq!((blocks(&wide), blocks(&narrow)), (1, 2));
        assert!(narrow.tabu.offset >= narrow.b.end() && narrow.tabu.end() == narrow.dynamic_shared);
        // n = 96 the same, and rows padded.
        let (wide, narrow) = (plan(96, 512, Mapping::Sums), plan_with(96, 512, Mapping::Sums, true));
        assert!(wide.fast_path() && blocks(&wide) == 1);
        assert!(narrow.fast_path() && blocks(&narrow) == 2 && narrow.tabu_entry == 2 && narrow.row == 97);
        // n = 104 and 128: no plan at two blocks runs the fast path, one at one block does.
        for n in [104, 128] {
            let p = plan_with(n, 512, Mapping::Sums, true);
            assert!(p.fast_path() && blocks(&p) == 1, "n = {n}: {p:?}");
        }
        // n = 150: nothing fits the fast path with the pairs in shared memory; without them,
        // 2-byte entries do, one block an SM.
        let p = plan_with(150, 512, Mapping::Sums, true);
        assert!(
            p.fast_path()
                && !p.pairs_shared
                && p.pairs.bytes == 0
                && p.tabu_entry == 2
                && p.row == 150
                && blocks(&p) == 1,
            "{p:?}"
        );
        assert!(!plan(150, 512, Mapping::Sums).fast_path() && plan(150, 512, Mapping::Sums).pairs_shared);
        // Where 4-byte entries already run the fast path at as many blocks, they stay.
        for n in [35, 80] {
            assert_eq!(plan_with(n, 512, Mapping::Sums, true), plan(n, 512, Mapping::Sums), "n = {n}");
        }
    }

    #[test]
    fn the_fast_paths_shared_rows_are_padded_at_multiples_of_8_where_the_plan_stays() {
        let sums = plan(80, 512, Mapping::Sums);
        assert!(sums.fast_path());
        assert_eq!(sums.row, 81);
        assert_eq!((sums.sums.bytes, sums.tabu.bytes), (80 * 81 * 4, 80 * 81 * 4));
        assert!(sums.tabu.offset >= sums.b.end() && sums.b.offset >= sums.sums.end(), "regions do not overlap");
        assert_eq!(plan(64, 512, Mapping::Sums).row, 65);
        assert_eq!(plan(16, 32, Mapping::Sums).row, 17);
        assert_eq!(plan(40, 224, Mapping::Sums).row, 41);
        // n not a multiple of 8 (at most 4-way conflicts), and plans off the fast path
        // (their kernels index rows of n): the split and MATA mappings, and n = 256.
        assert_eq!(plan(35, 128, Mapping::Sums).row, 35);
        assert_eq!(plan(100, 512, Mapping::Sums).row, 100);
        assert_eq!(plan(80, 512, Mapping::Split).row, 80);
        assert_eq!(plan(80, 0, Mapping::Mata).row, 80);
        let big = plan(256, 1024, Mapping::Sums);
        assert!(!big.fast_path());
        assert_eq!((big.row, big.sums.bytes), (256, 256 * 256 * 4));
    }
}
