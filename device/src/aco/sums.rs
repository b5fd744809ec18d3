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
use core::marker::PhantomData;
use core::slice;

use qapgpu_common::moves::delta_offset_in;
use qapgpu_common::params::{AcoParams, LS_SUMS_SIDE_B, LS_ZERO_DIAGONAL};
use qapgpu_common::sums::{SUM_ROWS, Side, delta_from_sums, facility_factor, location_factor, sum_entries, zero_diagonal_offset};

use super::ls::{Search, run};
use super::split::{Pending, Pricer, Tables, drive, family_kernels};
use crate::intrinsics::*;
use crate::matrices::{DevCost, DevElem, DevMatrix};

/// The sums mapping, as the module docs describe.
struct Sums;

impl Search for Sums {
    #[inline(always)]
    unsafe fn search<E: DevElem, D: DevCost, const WALK: bool, M: DevMatrix<E>>(p: &AcoParams, a: &M, b: &M) {
        let side = if p.flags & LS_SUMS_SIDE_B != 0 { Side::B } else { Side::A };
        let (tid, threads) = (thread_idx_x(), block_dim_x());
        let pricer = SumsPricer {
            elem: PhantomData,
            a,
            b,
            n: p.n,
            moves: p.moves,
            side,
            zero_diagonal: p.flags & LS_ZERO_DIAGONAL != 0,
            col: tid % p.n,
            group: tid / p.n,
            groups: threads / p.n,
            perm: p.layout.perm,
        };
        unsafe { drive::<D, WALK, _>(p, &pricer) }
    }
}

struct SumsPricer<'m, E, M> {
    elem: PhantomData<E>,
    a: &'m M,
    b: &'m M,
    n: u32,
    moves: u32,
    side: Side,
    zero_diagonal: bool,
    /// This thread's location, row group and the number of groups (module docs).
    col: u32,
    group: u32,
    groups: u32,
    /// φ's offset in the block's shared memory.
    perm: u32,
}

impl<E: DevElem, M: DevMatrix<E>> SumsPricer<'_, E, M> {
    #[inline(always)]
    fn entry<D: DevCost>(&self, t: &Tables, i: u32, l: u32) -> u64 {
        t.sums + D::BYTES * (i * self.n + l) as u64
    }
}

impl<E: DevElem, D: DevCost, M: DevMatrix<E>> Pricer<D> for SumsPricer<'_, E, M> {
    /// H from φ (`sums::sum_entries`, which the CPU twin's `sum_entry` is checked against):
    /// column `col` of the rows of this thread's group, `SUM_ROWS` rows a pass (one row a
    /// pass read φ and β three times as often).
    #[inline(always)]
    unsafe fn start(&self, t: &Tables) {
        if self.group >= self.groups {
            return;
        }
        // φ through the generic window, only while no thread writes it (before the first move).
        let phi = unsafe { slice::from_raw_parts(shared_generic().add(self.perm as usize), self.n as usize) };
        let (n, step) = (self.n as usize, self.groups as usize);
        let mut i = self.group as usize;
        while i < n {
            let count = (n - i).div_ceil(step).min(SUM_ROWS);
            let h: [D; SUM_ROWS] = sum_entries(self.a, self.b, self.side, phi, i, step, count, self.col as usize);
            for (j, &e) in h.iter().enumerate() {
                if j < count {
                    unsafe { D::st_shared(self.entry::<D>(t, (i + j * step) as u32, self.col), e) };
                }
            }
            i += SUM_ROWS * step;
        }
    }

    #[inline(always)]
    unsafe fn facility(&self, _: &Tables, _: &Pending, _: u32, _: u32) {}

    /// H += (α_r· − α_s·)ᵀ(β_{φ'r ·} − β_{φ's ·}): one multiply-add per entry.
    #[inline(always)]
    unsafe fn update(&self, t: &Tables, m: &Pending) {
        if self.group >= self.groups {
            return;
        }
        let (a, b, side) = (self.a, self.b, self.side);
        let along: D = location_factor(b, side, m.pr as usize, m.ps as usize, self.col as usize);
        let mut i = self.group;
        while i < self.n {
            let at = self.entry::<D>(t, i, self.col);
            let across: D = facility_factor(a, side, m.r as usize, m.s as usize, i as usize);
            unsafe { D::st_shared(at, D::ld_shared(at).add(across.mul(along))) };
            i += self.groups;
        }
    }

    #[inline(always)]
    unsafe fn price(&self, t: &Tables, _: Option<Pending>, consider: &mut impl FnMut(D, u32, u32)) {
        let (a, b, side) = (self.a, self.b, self.side);
        let mut k = thread_idx_x();
        while k < self.moves {
            let (u, v) = unsafe { t.pair(k) };
            let (pu, pv) = unsafe { (t.phi(u), t.phi(v)) };
            let h = |i: u32, l: u32| unsafe { D::ld_shared(self.entry::<D>(t, i, l)) };
            let (us, vs, ps, qs) = (u as usize, v as usize, pu as usize, pv as usize);
            let offset = if self.zero_diagonal { zero_diagonal_offset(a, b, side, us, vs, ps, qs) } else { delta_offset_in(a, b, us, vs, ps, qs) };
            let d = delta_from_sums(h(u, pv), h(u, pu), h(v, pv), h(v, pu), offset);
            consider(d, u, v);
            k += block_dim_x();
        }
    }
}

family_kernels!(
    Sums,
    "sums",
    "`p.layout` a sums plan (`LS_SUMS`: pairs and H in shared memory), A or B symmetric as `LS_SUMS_SIDE_B` says, zero diagonals where `LS_ZERO_DIAGONAL` says so, and T ≥ n",
    (u16, aco_sums_search_u16, ts_sums_walk_u16),
    (u32, aco_sums_search_u32, ts_sums_walk_u32),
    (i32, aco_sums_search_i32, ts_sums_walk_i32)
);
