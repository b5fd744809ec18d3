//! The sums mapping of the local search (`mata::Mapping::Sums`, ours): the split family's
//! iteration (`split::drive`: the same searches, the same moves as `ls::tabu_walk`,
//! `ls::tabu_search` and `ls::two_opt` on the CPU) with every move priced in O(1) from the
//! table H of `qapgpu_common::sums`, kept in shared memory and brought up to date by one
//! rank-1 update a move. No move is priced in O(n) after the search's start.
//!
//! # Thread mapping
//! Block k improves c-ant k (or runs walk k) with T ≥ n threads. For the table, thread t
//! owns location l = t mod n in row group t div n (⌊T/n⌋ groups; the last T mod n threads
//! idle): it computes H(i, l) for the rows i of its group at the start (O(n) each) and
//! adds the rank-1 change after every move (one multiply-add each). Moves k ≡ t (mod T) are
//! priced from four entries of H and the move's offset. Two barriers an iteration, as in
//! `split.rs`: after the table's update, and after the argmin.
//!
//! # Fast path
//! Where move costs are i32 and A, B and the tabu matrix are in shared memory (the small
//! instances'), the host launches kernels of their own (`ts_sums_fast_walk_*`,
//! `aco_sums_fast_search_*`, through `ls::run_fast`): one body, a move classed without a
//! branch (`split::drive`'s `FAST`), two moves a pass, the zero-diagonal test outside
//! the loop, and the table's update on 32-bit window addresses, two rows a pass. Where A is
//! symmetric, both diagonals are zero and the element type holds B + Bᵀ, the host gives that
//! matrix in B's place (`LS_SUMS_BETA`, `Instance::sums_beta`): β is then one load, not two,
//! in every move's price, the update's location factor and the table's build (5–16 % more
//! moves a second on tai35b, tai40b and tai80a; docs/benchmarks-record.md, "Launch costs again, β in
//! B's place").
//!
//! # Padded rows
//! Where n is a multiple of 8, H and the tabu matrix have rows of n + 1 entries in shared
//! memory (`layout::padded_row`), on kernels of their own (`ts_sums_fast_walk_padded_*`,
//! `aco_sums_fast_search_padded_*`): the pricing reads H(v, φu) and the tabu entry (v, φu)
//! for 32 consecutive v a warp, which rows of 80 put in two banks (rows of 40 in four).
//! Their copies in global memory keep rows of n (`ls::for_each_entry` translates).
//!
//! # Two-byte tabu entries
//! Where 4-byte tabu entries would leave the tabu matrix in global memory or cost a block an
//! SM (n = 95 to 102 with u16 matrices on an H100), and the searches' entries fit 2 bytes, the matrix is held in
//! shared memory in 2-byte entries above a base (`common::narrow_tabu`), on kernels of their
//! own (`ts_sums_fast_walk_narrow_*`, `aco_sums_fast_search_narrow_*`, and `_narrow_padded_`
//! for rows of n + 1). The copies in global memory keep 4-byte entries (`ls::Unit` converts).
use core::marker::PhantomData;
use core::slice;

use qapgpu_common::moves::delta_offset_in;
use qapgpu_common::params::{AcoParams, LS_SUMS_BETA, LS_SUMS_SIDE_B, LS_ZERO_DIAGONAL};
use qapgpu_common::sums::{SUM_ROWS, Side, alpha, beta, delta_from_sums, location_factor, offset_of, sum_entries_by};

use super::ls::{Search, donor_slot, for_each_entry, shared_row, walk_launch};
use super::split::{Pending, Pricer, Tables, drive};
use crate::intrinsics::*;
use crate::matrices::{DevCost, DevElem, DevMatrix};

/// The sums mapping, as the module docs describe.
pub(crate) struct Sums;

impl Search for Sums {
    const EITHER: bool = true;

    /// The side is a type parameter of the pricer, not a flag read per move: as a flag, both
    /// sides' loads were issued (one of them predicated off) for every table entry and move.
    #[inline(always)]
    unsafe fn search<
        E: DevElem,
        D: DevCost,
        const WALK: bool,
        const FAST: bool,
        const NARROW: bool,
        const GPAIRS: bool,
        M: DevMatrix<E>,
    >(
        p: &AcoParams,
        a: &M,
        b: &M,
        moves: u32,
    ) {
        let walk = walk_launch::<WALK, FAST>(p, true);
        if p.flags & LS_SUMS_SIDE_B != 0 {
            unsafe {
                drive::<D, WALK, FAST, NARROW, GPAIRS, _>(
                    p,
                    &SumsPricer::<E, M, true, FAST, false, GPAIRS>::new::<D>(p, a, b, walk),
                    moves,
                )
            }
        } else if FAST && p.flags & LS_SUMS_BETA != 0 {
            unsafe {
                drive::<D, WALK, FAST, NARROW, GPAIRS, _>(
                    p,
                    &SumsPricer::<E, M, false, FAST, true, GPAIRS>::new::<D>(p, a, b, walk),
                    moves,
                )
            }
        } else {
            unsafe {
                drive::<D, WALK, FAST, NARROW, GPAIRS, _>(
                    p,
                    &SumsPricer::<E, M, false, FAST, false, GPAIRS>::new::<D>(p, a, b, walk),
                    moves,
                )
            }
        }
    }
}

/// `SIDE_B`: B is the symmetric matrix (`Side::B`), else A (`Side::A`). `FAST`: the fast
/// path's kernels (`ls::run_fast`), whose A is in shared memory. `BETA` (fast path, side A,
/// zero diagonals): the matrix `b` holds β = B + Bᵀ (`LS_SUMS_BETA`), one load for two.
/// H's rows are `row` entries apart in shared memory (`LsLayout::row`; its copies
/// in global memory have rows of n).
struct SumsPricer<'m, E, M, const SIDE_B: bool, const FAST: bool, const BETA: bool, const GPAIRS: bool> {
    elem: PhantomData<E>,
    /// The global table of pairs (`AcoParams::first_pairs`), read where `GPAIRS`.
    first_pairs: u64,
    a: &'m M,
    b: &'m M,
    n: u32,
    /// H's row length in shared memory (`ls::shared_row`).
    row: u32,
    moves: u32,
    zero_diagonal: bool,
    /// This thread's location, row group and the number of groups (module docs).
    col: u32,
    group: u32,
    groups: u32,
    /// φ's offset in the block's shared memory.
    perm: u32,
    /// This walk's table in global memory where walks keep theirs (0: none), and the table
    /// its start loads where that one is up to date with the start (its own, or where it
    /// took an elite walk's start, that walk's copy, `ls::donor_slot`; 0: build it). One
    /// word, not a table and a flag: a field more spilled in the moves' loop.
    kept: u64,
    start_table: u64,
    /// `AcoParams::tables_ok` of this walk.
    ok_word: u64,
}

impl<'m, E: DevElem, M: DevMatrix<E>, const SIDE_B: bool, const FAST: bool, const BETA: bool, const GPAIRS: bool>
    SumsPricer<'m, E, M, SIDE_B, FAST, BETA, GPAIRS>
{
    const SIDE: Side = if SIDE_B { Side::B } else { Side::A };
    /// How β is read from `b`: as side B's (one entry) where B is the symmetric side or holds
    /// B + Bᵀ already (`BETA`), else as side A's (B + Bᵀ, two entries).
    const BETA_SIDE: Side = if SIDE_B || BETA { Side::B } else { Side::A };

    /// The pricer of block `block_idx_x()`; a walk's (`walk`) with the table it kept
    /// (`AcoParams::tables`) where walks keep theirs.
    #[inline(always)]
    fn new<D: DevCost>(p: &AcoParams, a: &'m M, b: &'m M, walk: bool) -> Self {
        let (tid, threads, blk) = (thread_idx_x(), block_dim_x(), block_idx_x() as usize);
        let kept = if !walk || p.tables == 0 { 0 } else { p.tables + D::BYTES * (blk * (p.n * p.n) as usize) as u64 };
        let ok_word = p.tables_ok + 4 * blk as u64;
        let (table, ok) = match donor_slot(p, blk) {
            Some(d) if kept != 0 => {
                (p.elite_tables + D::BYTES * (d * (p.n * p.n) as usize) as u64, p.elite_ok + 4 * d as u64)
            }
            _ => (kept, ok_word),
        };
        let start_table = if kept != 0 && unsafe { *(ok as *const u32) } != 0 { table } else { 0 };
        SumsPricer {
            elem: PhantomData,
            first_pairs: p.first_pairs,
            a,
            b,
            n: p.n,
            row: shared_row(p, FAST),
            moves: p.moves,
            zero_diagonal: p.flags & LS_ZERO_DIAGONAL != 0,
            col: tid % p.n,
            group: tid / p.n,
            groups: threads / p.n,
            perm: p.layout.perm,
            kept,
            start_table,
            ok_word,
        }
    }

    /// H's row length in shared memory.
    #[inline(always)]
    fn row(&self) -> u32 {
        // Off the fast path rows are n: no second register for the same value.
        if FAST { self.row } else { self.n }
    }

    #[inline(always)]
    fn entry<D: DevCost>(&self, t: &Tables, i: u32, l: u32) -> u64 {
        t.sums + D::BYTES * (i * self.row() + l) as u64
    }
}

impl<
    E: DevElem,
    D: DevCost,
    M: DevMatrix<E>,
    const SIDE_B: bool,
    const FAST: bool,
    const BETA: bool,
    const GPAIRS: bool,
> Pricer<D> for SumsPricer<'_, E, M, SIDE_B, FAST, BETA, GPAIRS>
{
    const EITHER: bool = true;

    /// H from φ (`sums::sum_entries`, which the CPU twin's `sum_entry` is checked against):
    /// column `col` of the rows of this thread's group, `SUM_ROWS` rows a pass (one row a
    /// pass read φ and β three times as often).
    #[inline(always)]
    unsafe fn start(&self, t: &Tables) {
        if self.start_table != 0 {
            // The table the walk kept at its last launch's end (or its donor's copy): n²
            // loads instead of n³ multiply-adds (a quarter of a launch's start at n = 35).
            let from = self.start_table as *const D;
            for_each_entry(self.n, self.row(), |x, at| unsafe {
                D::st_shared(t.sums + D::BYTES * at as u64, *from.add(x))
            });
            return;
        }
        if self.group >= self.groups {
            return;
        }
        // φ through the generic window, only while no thread writes it (before the first move).
        let phi = unsafe { slice::from_raw_parts(shared_generic().add(self.perm as usize), self.n as usize) };
        let (n, step) = (self.n as usize, self.groups as usize);
        let mut i = self.group as usize;
        while i < n {
            let count = (n - i).div_ceil(step).min(SUM_ROWS);
            let h: [D; SUM_ROWS] = sum_entries_by(
                |k, x| alpha::<D, E, M>(self.a, Self::SIDE, k, x),
                |pk, l| beta::<D, E, M>(self.b, Self::BETA_SIDE, pk, l),
                phi,
                i,
                step,
                count,
                self.col as usize,
            );
            for (j, &e) in h.iter().enumerate() {
                if j < count {
                    unsafe { D::st_shared(self.entry::<D>(t, (i + j * step) as u32, self.col), e) };
                }
            }
            i += SUM_ROWS * step;
        }
    }

    const FACILITY: bool = false;

    #[inline(always)]
    unsafe fn facility(&self, _: &Tables, _: &Pending, _: u32, _: u32) {}

    /// H += (α_r· − α_s·)ᵀ(β_{φ'r ·} − β_{φ's ·}): one multiply-add per entry, with
    /// `sums::facility_factor` (α_ri − α_si) read down this thread's rows i by index (rows
    /// r and s of A, and its columns r and s where α = A + Aᵀ), the side fixed at compile
    /// time: this update was a quarter of the walk's instructions.
    #[inline(always)]
    unsafe fn update(&self, t: &Tables, m: &Pending) {
        if self.group >= self.groups {
            return;
        }
        let along: D = location_factor(self.b, Self::BETA_SIDE, m.pr as usize, m.ps as usize, self.col as usize);
        let (a, n, g) = (self.a, self.n, self.groups);
        if FAST && M::SHARED {
            // Window addresses stepped by adds (`DevMatrix::load_window`), two rows a pass:
            // one loop test, and row s's and the second row's addresses at fixed distances.
            let (es, bytes) = (core::mem::size_of::<E>() as u32, D::BYTES as u32);
            let base = a.base() as u32;
            let (down, down_col, down_h) = (g * es, g * n * es, g * self.row() * bytes);
            // a(r, i) and a(s, i) along rows r and s; a(i, r) and a(i, s) down columns r
            // and s, where α = A + Aᵀ.
            let mut at_r = base + (m.r * n + self.group) * es;
            let mut col_r = base + (self.group * n + m.r) * es;
            let (to_s, to_col_s) =
                ((m.s * n).wrapping_sub(m.r * n).wrapping_mul(es), m.s.wrapping_sub(m.r).wrapping_mul(es));
            let across = |at: u32, col: u32| {
                let x = D::of(unsafe { a.load_window(at) }).sub(D::of(unsafe { a.load_window(at.wrapping_add(to_s)) }));
                if SIDE_B {
                    x.add(D::of(unsafe { a.load_window(col) }))
                        .sub(D::of(unsafe { a.load_window(col.wrapping_add(to_col_s)) }))
                } else {
                    x
                }
            };
            let sums = t.sums as u32;
            // Row i < n is entry i·row + col < n·row (col < n ≤ row).
            let (mut entry, end) = (sums + (self.group * self.row() + self.col) * bytes, sums + n * self.row() * bytes);
            while entry + down_h < end {
                let (x0, x1) = (across(at_r, col_r), across(at_r + down, col_r + down_col));
                let next = entry + down_h;
                unsafe {
                    D::st_shared32(entry, D::ld_shared32(entry).add(x0.mul(along)));
                    D::st_shared32(next, D::ld_shared32(next).add(x1.mul(along)));
                }
                at_r += 2 * down;
                col_r += 2 * down_col;
                entry += 2 * down_h;
            }
            if entry < end {
                let x = across(at_r, col_r);
                unsafe { D::st_shared32(entry, D::ld_shared32(entry).add(x.mul(along))) };
            }
            return;
        }
        // Indices, not addresses, step down the rows (`DevMatrix::load_index`).
        let load = |x: u32| D::of(unsafe { a.load_index(x) });
        let (row_r, row_s) = (m.r * n, m.s * n);
        let mut col = self.group * n;
        let mut at = self.group * self.row() + self.col;
        let mut i = self.group;
        while i < n {
            // a(r, i) − a(s, i), and a(i, r) − a(i, s) where α = A + Aᵀ.
            let mut across = load(row_r + i).sub(load(row_s + i));
            if SIDE_B {
                across = across.add(load(col + m.r)).sub(load(col + m.s));
            }
            let entry = t.sums + D::BYTES * at as u64;
            unsafe { D::st_shared(entry, D::ld_shared(entry).add(across.mul(along))) };
            at += g * self.row();
            col += g * n;
            i += g;
        }
    }

    fn keeps(&self) -> bool {
        self.kept != 0
    }

    /// The table, up to date with the walk's last move, to global memory, and the walk's
    /// mark that it is.
    #[inline(always)]
    unsafe fn save(&self, t: &Tables) {
        let to = self.kept as *mut D;
        for_each_entry(self.n, self.row(), |x, at| unsafe { *to.add(x) = D::ld_shared(t.sums + D::BYTES * at as u64) });
        if thread_idx_x() == 0 {
            unsafe { *(self.ok_word as *mut u32) = 1 };
        }
    }

    /// Moves k ≡ t (mod T). On the fast path the zero-diagonal test is taken once, outside
    /// the loop (`priced`); elsewhere a move tests it, which costs the kernels that hold
    /// four bodies fewer registers.
    #[inline(always)]
    unsafe fn price(&self, t: &Tables, _: Option<Pending>, consider: &mut impl FnMut(D, u32, u32, Option<(u32, u32)>)) {
        if FAST && self.zero_diagonal {
            unsafe { self.priced::<D, true>(t, consider) }
        } else {
            unsafe { self.priced::<D, false>(t, consider) }
        }
    }
}

impl<E: DevElem, M: DevMatrix<E>, const SIDE_B: bool, const FAST: bool, const BETA: bool, const GPAIRS: bool>
    SumsPricer<'_, E, M, SIDE_B, FAST, BETA, GPAIRS>
{
    /// `Pricer::price`; on the fast path the zero-diagonal test is `ZERO_DIAGONAL`, else
    /// `self.zero_diagonal` read a move.
    #[inline(always)]
    unsafe fn priced<D: DevCost, const ZERO_DIAGONAL: bool>(
        &self,
        t: &Tables,
        consider: &mut impl FnMut(D, u32, u32, Option<(u32, u32)>),
    ) {
        let (a, b, n) = (self.a, self.b, self.n);
        let pad = self.row() - n;
        let h = |x: u32| unsafe { D::ld_shared(t.sums + D::BYTES * x as u64) };
        let el = |m: &M, x: u32| D::of(unsafe { m.load_index(x) });
        let priced = |k: u32| {
            let (u, v) = unsafe { t.pair_in::<GPAIRS>(k, self.first_pairs) };
            let (pu, pv) = unsafe { (t.phi(u), t.phi(v)) };
            let (un, vn) = (u * n, v * n);
            let offset = if (FAST && ZERO_DIAGONAL) || (!FAST && self.zero_diagonal) {
                // `sums::zero_diagonal_offset` (α and β as `sums::alpha`, `sums::beta` form
                // them), read by index from the row offsets.
                let alpha = if SIDE_B { el(a, un + v).add(el(a, vn + u)) } else { el(a, un + v) };
                let beta = if SIDE_B || BETA { el(b, pu * n + pv) } else { el(b, pu * n + pv).add(el(b, pv * n + pu)) };
                offset_of(alpha, beta)
            } else {
                delta_offset_in(a, b, u as usize, v as usize, pu as usize, pv as usize)
            };
            // H(u, φv) and H(v, φu) sit at the indices of the move's two tabu entries, in
            // rows n + pad apart (u·(n + 1) = u·n + u).
            let (ur, vr) = (un + u * pad, vn + v * pad);
            let (upv, vpu) = (ur + pv, vr + pu);
            (delta_from_sums(h(upv), h(ur + pu), h(vr + pv), h(vpu), offset), u, v, (upv, vpu))
        };
        let (mut k, threads) = (thread_idx_x(), block_dim_x());
        if FAST {
            // Two moves a pass on the fast path: the second's loads issue while the first's
            // wait (a move is one chain of dependent shared loads).
            while k + threads < self.moves {
                let ((d0, u0, v0, at0), (d1, u1, v1, at1)) = (priced(k), priced(k + threads));
                consider(d0, u0, v0, Some(at0));
                consider(d1, u1, v1, Some(at1));
                k += 2 * threads;
            }
        }
        while k < self.moves {
            let (d, u, v, at) = priced(k);
            consider(d, u, v, Some(at));
            k += threads;
        }
    }
}
