//! `#[repr(C)]` parameter blocks shared by the host and the kernels. Each kernel takes one
//! pointer to one of these blocks in global memory (never aggregates by value).
//!
//! Every block is `bytemuck::Pod` (no padding, any bytes valid), so the host copies it to
//! and from the device without `unsafe`. The kernels read fields at fixed offsets: the
//! `size_of` assertion after each block catches a change of layout, and a field added must
//! fill the block to its alignment with an explicit `_pad` field.
use crate::shuffle::Migration;
use bytemuck::{Pod, Zeroable};

/// Matrix A is in the module's constant bank (`QAP_CONST_A`) instead of global memory.
pub const FLAG_A_IN_CONST: u32 = 1;
/// Matrix B is copied into dynamic shared memory at `GaSharedLayout::b_offset`.
pub const FLAG_B_IN_SHARED: u32 = 2;
/// B_count with shared-memory atomics (seed 001) instead of the barrier-reduction variant.
pub const FLAG_COUNT_ATOMIC: u32 = 4;
/// Each block is its own run: a block that reaches the target stamps `block_times[blk]`
/// with `%globaltimer` and stops alone (R single-block runs at once, one per SM).
pub const FLAG_PER_BLOCK_TARGET: u32 = 8;
/// The crossover is OX (`ga::Crossover::Ox`); else PMX.
pub const FLAG_CROSSOVER_OX: u32 = 16;

/// Offsets into a GA block's dynamic shared memory, from `layout::GaLayout`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct GaSharedLayout {
    /// Bytes per individual row (n rounded up so that rows start on odd 4-byte words).
    pub stride: u32,
    /// The population pool P.
    pub p_offset: u32,
    /// The working pool W (the children).
    pub w_offset: u32,
    /// Matrix B, where `FLAG_B_IN_SHARED` (else 0).
    pub b_offset: u32,
    /// The block's scratch space for reductions and counts.
    pub scratch_offset: u32,
    /// Bytes of dynamic shared memory in all.
    pub total: u32,
}
const _: () = assert!(size_of::<GaSharedLayout>() == 24);

/// Global-memory state of one GA run, as device pointers (u64), plus its settings.
///
/// Buffers (M = blocks · subpop individuals):
/// `pop` u8[M][stride], `costs` i64[M], `rng` u32[4][M] (structure of arrays, so a warp's
/// loads coalesce), `best_cost` i64[blocks], `best_perm` u8[blocks][stride],
/// `restarts` u32[blocks], `control` one `RunControl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct GaParams {
    /// Matrix A (n² entries of the element type).
    pub a: u64,
    /// Matrix B (n² entries of the element type).
    pub b: u64,
    /// u8[M][stride]: the populations, block after block.
    pub pop: u64,
    /// i64[M]: each individual's cost.
    pub costs: u64,
    /// u32[4][M]: each individual's random stream, as a structure of arrays.
    pub rng: u64,
    /// i64[blocks]: each block's best cost.
    pub best_cost: u64,
    /// u8[blocks][stride]: each block's best permutation.
    pub best_perm: u64,
    /// u32[blocks]: each block's restarts.
    pub restarts: u64,
    /// One `RunControl`.
    pub control: u64,
    /// u64[blocks]: `%globaltimer` (ns) when the block reached the target, 0 before.
    pub block_times: u64,
    /// The host's stop word (one u32 in device memory that the host overwrites while the
    /// kernel runs; 0 = none): thread 0 of each block polls it every generation and ends
    /// the launch when it is non-zero.
    pub stop: u64,
    /// The run's seed, from which every stream is drawn.
    pub seed: u64,
    /// Stop as soon as some individual costs this much or less.
    pub target: i64,
    /// Problem size.
    pub n: u32,
    /// Individuals per block.
    pub subpop: u32,
    /// Generations per launch; a multiple of `restart_interval`.
    pub generations: u32,
    /// The mutation probability as a `Xoshiro128::chance` threshold.
    pub pm_threshold: u32,
    /// Restart when at least this many individuals share the best cost; 0 disables.
    pub restart_count: u32,
    /// Generations between two checks for a restart.
    pub restart_interval: u32,
    /// FLAG_* bits.
    pub flags: u32,
    /// Blocks in the launch: one subpopulation each.
    pub blocks: u32,
    /// Where each pool sits in a block's dynamic shared memory.
    pub layout: GaSharedLayout,
}
const _: () = assert!(size_of::<GaParams>() == 160);

/// Written by the block that first reaches the target (FoundFlag of seed 001).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct RunControl {
    /// 1 once a block has reached the target.
    pub found: u32,
    /// The block that reached it.
    pub found_block: u32,
    /// The cost it reached.
    pub found_cost: i64,
    /// `%globaltimer` (ns) when the population was drawn: the zero of `block_times`.
    pub start_ns: u64,
    /// The permutation that reached it (first n bytes).
    pub found_perm: [u8; crate::MAX_N],
}
const _: () = assert!(size_of::<RunControl>() == 280);

impl Default for RunControl {
    fn default() -> Self {
        RunControl { found: 0, found_block: 0, found_cost: i64::MAX, start_ns: 0, found_perm: [0; crate::MAX_N] }
    }
}

/// Island migration (seed 000): route k of `migration` moves individual `from` of `src` to
/// slot `to` of `dst`; every individual is copied, moving or not.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct MigrateParams {
    /// u8[total][stride]: the populations migrated from.
    pub src_pop: u64,
    /// u8[total][stride]: where the migrants go.
    pub dst_pop: u64,
    /// i64[total]: the costs of `src_pop`.
    pub src_costs: u64,
    /// i64[total]: the costs of `dst_pop`.
    pub dst_costs: u64,
    /// Where each individual goes (`migration.total`: individuals in all blocks).
    pub migration: Migration,
    /// Bytes per individual row.
    pub stride: u32,
    /// Keeps the size a multiple of 8.
    pub _pad: u32,
}
const _: () = assert!(size_of::<MigrateParams>() == 96);

/// The local search is the robust tabu search (else 2-opt).
pub const LS_TABU: u32 = 1;
/// Moves are mapped to threads by MATA (else the plain layout).
pub const LS_MATA: u32 = 2;
/// The Δ table is in dynamic shared memory (else in `AcoParams::delta`).
pub const LS_DELTA_SHARED: u32 = 4;
/// The tabu matrix is in dynamic shared memory (else in `AcoParams::tabu`).
pub const LS_TABU_SHARED: u32 = 8;

/// One tenure per move for both tabu entries (`ls::Tenure::per_move`), else one per entry.
pub const LS_TENURE_PER_MOVE: u32 = 16;
/// A and B are copied into dynamic shared memory at the start of the launch (else read
/// through the read-only global path).
pub const LS_AB_SHARED: u32 = 32;
/// Move costs are i32 (`delta::move_cost_bound` proved that they fit), else i64.
pub const LS_DELTA_I32: u32 = 64;
/// Tenures are uniform in [0.9·T, 1.1·T] (`ls::TenureLaw::Uniform`, Taillard's code), not T·r³.
pub const LS_TENURE_UNIFORM: u32 = 128;
/// Tenures follow `ls::TenureLaw::Mixed`: cubic in even units, uniform in odd ones.
pub const LS_TENURE_MIXED: u32 = 4096;
/// The split thread mapping (`mata::Mapping::Split`, the `*_split_*` kernels).
pub const LS_SPLIT: u32 = 256;
/// The sums mapping (`mata::Mapping::Sums`, the `*_sums_*` kernels).
pub const LS_SUMS: u32 = 512;
/// The sums mapping's instance has zero diagonals (`sums::zero_diagonal_offset` applies).
pub const LS_ZERO_DIAGONAL: u32 = 1024;
/// The sums mapping's `sums::Side` is B (else A).
pub const LS_SUMS_SIDE_B: u32 = 2048;
/// The fast sums kernels' B in shared memory holds β = B + Bᵀ (`AcoParams::b_sym`, side A,
/// zero diagonals): one load where β took two.
pub const LS_SUMS_BETA: u32 = 8192;
/// The fast path's H and tabu matrix have rows of n + 1 entries in shared memory
/// (`LsLayout::row`), else n.
pub const LS_PADDED_ROWS: u32 = 16384;
/// The launch is a walk's (`ts`): read by the kernels that serve both roles
/// (`search::kernels::Role::Either`).
pub const LS_WALK: u32 = 32768;

/// Offsets into a local-search block's dynamic shared memory, from `layout::LsLayout`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct LsSharedLayout {
    /// The current solution.
    pub perm: u32,
    /// The best solution of the search.
    pub best: u32,
    /// The argmin's per-warp scratch.
    pub scratch: u32,
    /// The Δ table, where `LS_DELTA_SHARED`.
    pub delta: u32,
    /// The tabu matrix, where `LS_TABU_SHARED`.
    pub tabu: u32,
    /// A and B when `LS_AB_SHARED`.
    pub a: u32,
    /// Matrix B, where `LS_AB_SHARED` (`a` is A).
    pub b: u32,
    /// The split mapping: the packed pair of every move (u16[C]) and Eq. 5's per-facility
    /// terms after the last move (`[D; 4]` per facility, `moves::swap_terms`).
    pub pairs: u32,
    /// Eq. 5's per-facility terms (the split mapping).
    pub terms: u32,
    /// The sums mapping: the table H (`[D; n²]`, `sums`).
    pub sums: u32,
    /// Bytes of dynamic shared memory in all.
    pub total: u32,
}
const _: () = assert!(size_of::<LsSharedLayout>() == 44);

/// The best-so-far solution of an ACO run, the only thing the host reads each iteration.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct AcoBest {
    /// The best cost so far (`i64::MAX` before any).
    pub cost: i64,
    /// Local-search iterations of every search since the run began: each block adds its
    /// own at its end, so the host learns them with the best, in one read.
    pub ls_total: u64,
    /// Its permutation (first n bytes).
    pub perm: [u8; crate::MAX_N],
}
const _: () = assert!(size_of::<AcoBest>() == 272);

impl Default for AcoBest {
    fn default() -> Self {
        AcoBest { cost: i64::MAX, ls_total: 0, perm: [0; crate::MAX_N] }
    }
}

/// What the first local search to reach the run's target leaves for the host
/// (`AcoParams::hit`), in page-locked host memory the device writes through: the host sees
/// the hit as it happens, without waiting for the launch to end, the best kernel and a copy
/// (docs/benchmarks-record.md, "A hit reaches the host at once"). `flag` is written last: 1 when `cost`
/// and `perm` hold the hit; the host clears it before a run.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct TargetHit {
    /// 1 when `cost` and `perm` hold the hit, written last.
    pub flag: u32,
    /// Keeps `cost` on its 8-byte boundary.
    pub _pad: u32,
    /// The cost that reached the target.
    pub cost: i64,
    /// Its permutation (first n bytes).
    pub perm: [u8; crate::MAX_N],
}
const _: () = assert!(size_of::<TargetHit>() == 272);

/// The value a search that reached the run's target writes to the stop word when it is the
/// first to (`stop::claim_stop`): nonzero like the host's 1, so every poll stops, and
/// claimed once, so that one search alone writes `TargetHit`.
pub const STOP_BY_HIT: u32 = 2;

/// Global-memory state of one cAS run (seed 003) and its settings; every ACO kernel takes
/// a pointer to one of these.
///
/// Buffers (m ants, rows of `stride` bytes, C = n(n−1)/2 moves):
/// `ants` u8[m][stride] (ant*_k, the unit bests), `ant_costs` i64[m], `cants` u8[m][stride],
/// `cant_costs` i64[m], `ls_iters` u32[m] (iterations of the last local search),
/// `rng` u32[4][m], `tau` f32[n][n], `delta` i64 or i32 (`LS_DELTA_I32`) [m][C] and `tabu` i32[m][n][n] (only used
/// when not in shared memory), `first_pairs` u16[T_S] (MATA's lookup table), `best` one
/// `AcoBest`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct AcoParams {
    /// Matrix A (n² entries of the element type).
    pub a: u64,
    /// Matrix B (n² entries of the element type).
    pub b: u64,
    /// u8[m][stride]: the ants (ant*_k, each unit's best).
    pub ants: u64,
    /// i64[m]: the ants' costs.
    pub ant_costs: u64,
    /// u8[m][stride]: the cunning ants built this iteration.
    pub cants: u64,
    /// i64[m]: their costs.
    pub cant_costs: u64,
    /// u32[m]: iterations of each ant's last local search.
    pub ls_iters: u64,
    /// u32[4][m]: each ant's random stream, as a structure of arrays.
    pub rng: u64,
    /// f32[n][n]: the pheromone.
    pub tau: u64,
    /// The Δ tables in global memory, where not in shared memory.
    pub delta: u64,
    /// i32[m][n][n]: the tabu matrices in global memory, where not in shared memory.
    pub tabu: u64,
    /// u16[T_S]: MATA's lookup table.
    pub first_pairs: u64,
    /// One `AcoBest`.
    pub best: u64,
    /// The host's stop word, as `GaParams::stop`: a local search ends after the iteration
    /// in which it is seen, with its best solution so far.
    pub stop: u64,
    /// The run's seed, from which every stream is drawn.
    pub seed: u64,
    /// A local search reaching this cost writes the stop word, ending every ant's search
    /// (`ls::NO_TARGET`: none).
    pub target: i64,
    /// The `ts_walk` kernels: u32[m], the iterations each walk has done (tabu entries hold
    /// absolute iteration numbers).
    pub walks: u64,
    /// `ts_rank_walks` and `ts_regroup_walks`: u32[2][m], each walk's rank by current cost,
    /// then the elite's walks by rank (`ls::donor_rank`); `ts_perturb_walks_*` reads the
    /// ranks.
    pub winners: u64,
    /// Sums walks (`ts`): each walk's table H kept between launches, n² move costs (i32 or
    /// i64 as `LS_DELTA_I32` says) a walk, and u32[m], whether walk k's is up to date with
    /// its current solution (0: rebuild it). 0: no table is kept.
    pub tables: u64,
    /// u32[m]: whether walk k's table is up to date (0: rebuild it).
    pub tables_ok: u64,
    /// One `TargetHit` in mapped host memory (a device address), written by the search that
    /// claims the stop word on reaching the target (0: none).
    pub hit: u64,
    /// B + Bᵀ in the element type, n² entries, where `LS_SUMS_BETA` is set (else 0).
    pub b_sym: u64,
    /// Walks: u32[m], the elite slot (plus 1) whose copy walk k starts from at its next
    /// launch, 0 for none (`ts_rank_walks` writes it, the walk or `ts_take_donors` takes it
    /// and clears it).
    pub donor_slots: u64,
    /// Walks: the elite's copies as `ts_rank_walks` left them, slot r for elite rank r:
    /// current solutions u8[m][stride], costs i64[m], and, where walks keep their tables,
    /// tables (as `tables`) and their marks u32[m] (`elite_tables` 0: none).
    pub elite_rows: u64,
    /// i64[m]: the elite's costs.
    pub elite_costs: u64,
    /// The elite's tables, as `tables` (0: none).
    pub elite_tables: u64,
    /// u32[m]: the marks of `elite_tables`.
    pub elite_ok: u64,
    /// u8[2][n]: the classes of the swaps the tabu searches skip (`null_swaps::classes`:
    /// the facilities', then the locations'), in global memory; 0: none is skipped.
    pub null_swaps: u64,
    /// The `ts_walk` kernels: Taillard's long-term aspiration in iterations (`ls::move_class`;
    /// 0: none).
    pub aspiration: u32,
    /// Problem size.
    pub n: u32,
    /// Ants (or walks).
    pub m: u32,
    /// Bytes per row of `ants` and `cants`.
    pub stride: u32,
    /// IT_TS or IT_2OPT of the colony's local search. A walk launch takes its moves, and the
    /// regrouping kernels their elite, as arguments of their own: a value changed in this
    /// block is copied to the device between two kernels of a run.
    pub ls_iterations: u32,
    /// The tabu tenure's scale T.
    pub tabu_list_size: u32,
    /// N_S, C, T_S, T_L-START of `mata::Shape`.
    pub ns: u32,
    /// C = n(n−1)/2.
    pub moves: u32,
    /// T_S, the threads that own moves (`Shape::owners`).
    pub owners: u32,
    /// T_L-START.
    pub tl_start: u32,
    /// LS_* flags.
    pub flags: u32,
    /// The split mapping: threads per O(n) move (`mata::Shape::lanes`).
    pub lanes: u32,
    /// γ as a `Xoshiro128::chance` threshold.
    pub gamma_threshold: u32,
    /// ρ, the pheromone's persistence.
    pub rho: f32,
    /// Value written by the pheromone initialisation.
    pub tau_init: f32,
    /// The pheromone's lower bound.
    pub tau_min: f32,
    /// The pheromone's upper bound.
    pub tau_max: f32,
    /// Where each array sits in a local-search block's dynamic shared memory.
    pub layout: LsSharedLayout,
}
const _: () = assert!(size_of::<AcoParams>() == 336);

/// The local search's move costs are one per thread (`move` mapping) rather than one
/// block-wide sum per swap (`gene`, the thesis's).
pub const CGA_MOVE_MAPPING: u32 = 1;
/// The Δ table of the `move` mapping is in dynamic shared memory (else in `CgaParams::delta`).
pub const CGA_DELTA_SHARED: u32 = 2;

/// Offsets into a cellular-GA local-search block's dynamic shared memory
/// (`layout::CgaLayout`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct CgaSharedLayout {
    /// The individual being improved.
    pub perm: u32,
    /// Scratch space for the block's reductions.
    pub scratch: u32,
    /// The Δ table of the `move` mapping, where `CGA_DELTA_SHARED`.
    pub delta: u32,
    /// Bytes of dynamic shared memory in all.
    pub total: u32,
}
const _: () = assert!(size_of::<CgaSharedLayout>() == 16);

/// Global-memory state of one cellular GA run (seeds 002/004) and its settings; every
/// cellular-GA kernel takes a pointer to one of these.
///
/// Buffers (P = w · h individuals, rows of `stride` bytes, C = n(n−1)/2 moves): `pop` and
/// `pop_alt` u8[P][stride] (the population and the tournament's output), `costs` and
/// `costs_alt` i64[P], `rng` u32[4][P], `best` one `cga::CgaBest`, `delta` i64[P][C] (the
/// `move` mapping's Δ tables when they do not fit in shared memory), `stop` the host's stop
/// word.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct CgaParams {
    /// Matrix A (n² entries of the element type).
    pub a: u64,
    /// Matrix B (n² entries of the element type).
    pub b: u64,
    /// u8[P][stride]: the population.
    pub pop: u64,
    /// u8[P][stride]: the tournament's output.
    pub pop_alt: u64,
    /// i64[P]: the costs of `pop`.
    pub costs: u64,
    /// i64[P]: the costs of `pop_alt`.
    pub costs_alt: u64,
    /// u32[4][P]: each cell's random stream, as a structure of arrays.
    pub rng: u64,
    /// One `cga::CgaBest`.
    pub best: u64,
    /// i64[P][C]: the `move` mapping's Δ tables, where not in shared memory.
    pub delta: u64,
    /// The host's stop word, as `GaParams::stop`.
    pub stop: u64,
    /// The run's seed, from which every stream is drawn.
    pub seed: u64,
    /// Problem size.
    pub n: u32,
    /// Bytes per individual row.
    pub stride: u32,
    /// Width of the grid.
    pub w: u32,
    /// Height of the grid.
    pub h: u32,
    /// Generation being computed (1 for the first).
    pub generation: u32,
    /// `cga::Topology` as u32.
    pub topology: u32,
    /// `cga::Pass` as u32.
    pub pass: u32,
    /// CGA_* flags.
    pub flags: u32,
    /// The crossover probability as a `Xoshiro128::chance` threshold.
    pub pc_threshold: u32,
    /// The mutation probability as a `Xoshiro128::chance` threshold.
    pub pm_threshold: u32,
    /// The transposition probability as a `Xoshiro128::chance` threshold.
    pub pt_threshold: u32,
    /// Local-search passes per individual and generation (`cga::TO_LOCAL_OPTIMUM`: until
    /// one improves nothing).
    pub passes: u32,
    /// Where each array sits in a local-search block's dynamic shared memory.
    pub layout: CgaSharedLayout,
}
const _: () = assert!(size_of::<CgaParams>() == 152);
