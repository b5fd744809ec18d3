//! The walks' launches on the GPU: what the ACO engine (`algo::aco::gpu::AcoGpu`) does in
//! walk mode (`AcoConfig::walk`), kept here, beside the family that runs it.
//!
//! From `--algo ts` to its kernels, four files:
//! 1. `host/src/algo/ts/mod.rs`: the family (`TS`), its options (`TsOptions`) and its driver
//!    (`TsSolver`), which runs the walks of `walk_engine`, an `AcoGpu` in walk mode.
//! 2. `host/src/algo/ts/gpu.rs`, this file: the walk launches (`walk_launches`) and the
//!    regroupings. The kernel the walks launch is the plan's (`search::plan` picks it in
//!    `AcoGpu::new` for `Role::Walk`; `Kernels::ls`).
//! 3. `common/src/search/kernels.rs`: the table naming every local-search kernel with its
//!    body and role: the walks' `ts_walk_*`, `ts_split_walk_*`, `ts_sums_fast_walk_*`,
//!    `ts_sums_fast_walk_narrow_*`, and the `ls_sums_*` of either role.
//! 4. `device/src/search/kernels.rs`: the entries, instantiated from that table.
//!
//! The regrouping kernels this file launches (`ts_rank_walks`, `ts_regroup_walks`,
//! `ts_take_donors`) are in `device/src/ts/mod.rs`, the perturbation's (`ts_perturb_walks_*`)
//! in `device/src/ts/perturb.rs`. The rest of the engine (the parameter
//! block, the colony's buffers, the best, the waits) is `AcoGpu`'s, whose `AcoEngine`
//! methods hand the walks' steps to the methods here. `algo::aco::gpu` declares the walks'
//! buffers and kernels (`WalkBuffers`, `WalkKernels`) with the rest of the engine's state,
//! and imports nothing from `ts`: this file sizes, allocates, loads and uses them. The CPU
//! twin is `ts::cpu`.
use crate::algo::aco::gpu::{AcoGpu, WalkBuffers, WalkKernels};
use anyhow::Result;
use cudarc::driver::{CudaFunction, CudaStream, LaunchConfig};
use qapgpu_common::elem::ElemWidth;
use qapgpu_common::narrow_tabu;

/// Threads per block of the regrouping kernels (a walk's rank: one barrier count per this
/// many walks).
const REGROUP_THREADS: u32 = 128;

impl WalkBuffers {
    /// The buffers of m walks (`walk`) with rows of `stride` and `kept_tables` bytes of
    /// tables H, zeroed, in the order the engine has always allocated them.
    pub(crate) fn alloc(
        s: &std::sync::Arc<CudaStream>,
        walk: bool,
        m: usize,
        stride: usize,
        kept_tables: usize,
    ) -> Result<WalkBuffers> {
        Ok(WalkBuffers {
            walks: s.alloc_zeros(if walk { m } else { 1 })?,
            winners: s.alloc_zeros(if walk { 2 * m } else { 1 })?,
            tables: s.alloc_zeros(kept_tables.max(1))?,
            tables_ok: s.alloc_zeros(m)?,
            donor_slots: s.alloc_zeros(if walk { m } else { 1 })?,
            elite_rows: s.alloc_zeros(if walk { m * stride } else { 1 })?,
            elite_costs: s.alloc_zeros(if walk { m } else { 1 })?,
            elite_tables: s.alloc_zeros(kept_tables.max(1))?,
            elite_ok: s.alloc_zeros(if walk { m } else { 1 })?,
        })
    }
}

impl WalkKernels {
    /// The four kernels, each by `load`, the perturbation's for matrices of width `w`.
    pub(crate) fn load(load: impl Fn(&str) -> Result<CudaFunction>, w: ElemWidth) -> Result<WalkKernels> {
        Ok(WalkKernels {
            rank: load("ts_rank_walks")?,
            regroup: load("ts_regroup_walks")?,
            take_donors: load("ts_take_donors")?,
            perturb: load(match w {
                ElemWidth::U16 => "ts_perturb_walks_u16",
                _ => "ts_perturb_walks_i32",
            })?,
        })
    }
}

impl AcoGpu {
    /// One walk launch of `cfg.ls_iterations` moves of every walk, the plan's kernel on
    /// blocks `c`. On 2-byte tabu entries, launches of at most `narrow_tabu::LAUNCH_MAX`
    /// moves (`narrow_tabu_fits`); the walks go on from one to the next as from one launch.
    pub(crate) fn walk_launches(&mut self, c: LaunchConfig) -> Result<()> {
        self.walks_clean = false;
        // The launch takes the donors `regroup` left (`ls::Unit::begin`).
        self.donors_pending = false;
        let most = if self.layout.tabu_entry == 2 { narrow_tabu::LAUNCH_MAX } else { u32::MAX };
        let mut left = self.cfg.ls_iterations;
        loop {
            let moves = left.min(most);
            self.launch_with(|k| &k.ls, c, moves)?;
            left -= moves;
            if left == 0 {
                break;
            }
        }
        Ok(())
    }

    /// Walks start afresh (their tabu matrices are reset at iteration 0, their tables
    /// rebuilt), unless nothing has run since they last did.
    pub(crate) fn clear_walks(&mut self) -> Result<()> {
        if !std::mem::replace(&mut self.walks_clean, true) {
            self.gpu.stream.memset_zeros(&mut self.buf.walk.walks)?;
            self.gpu.stream.memset_zeros(&mut self.buf.walk.tables_ok)?;
            // No walk takes a donor from before the fresh start.
            self.gpu.stream.memset_zeros(&mut self.buf.walk.donor_slots)?;
            self.donors_pending = false;
        }
        Ok(())
    }

    /// `AcoEngine::regroup`: one launch queued behind the walks, no wait: `ts_rank_walks`,
    /// whose donors the next walk launch takes. A kernel of its own that moved the solutions
    /// cost 6–7 µs and a launch gap a regrouping (docs/benchmarks-record.md, "Launch costs").
    pub(crate) fn regroup_walks(&mut self, elite: u32) -> Result<()> {
        anyhow::ensure!(self.cfg.walk, "only walks regroup");
        self.take_donors()?;
        let c = self.per_walk();
        self.launch_with(|k| &k.walk.rank, c, elite.clamp(1, self.cfg.ants))?;
        self.donors_pending = true;
        Ok(())
    }

    /// `AcoEngine::currents`: polled to the end of the queue first (`poll_stream`), then
    /// copied.
    pub(crate) fn walk_currents(&mut self) -> Result<(Vec<u8>, usize, Vec<i64>)> {
        self.take_donors()?;
        self.poll_stream(|| false)?;
        let s = &self.gpu.stream;
        let rows = s.clone_dtoh(&self.buf.cants)?;
        let stride = rows.len() / self.cfg.ants as usize;
        Ok((rows, stride, s.clone_dtoh(&self.buf.cant_costs)?))
    }

    /// `AcoEngine::regroup_ranked`: the ranking copied to the device, then
    /// `ts_regroup_walks`.
    pub(crate) fn regroup_walks_ranked(&mut self, winners: &[u32], elite: u32) -> Result<()> {
        anyhow::ensure!(self.cfg.walk && winners.len() == 2 * self.cfg.ants as usize, "only walks regroup");
        self.take_donors()?;
        self.gpu.stream.memcpy_htod(winners, &mut self.buf.walk.winners)?;
        let c = self.per_walk();
        self.launch_with(|k| &k.walk.regroup, c, elite.clamp(1, self.cfg.ants))
    }

    /// Walks regrouped by `regroup` take their donors' copies now (`ts_take_donors`), so
    /// that the host reads or writes them as regrouped; the next walk launch would have.
    pub(crate) fn take_donors(&mut self) -> Result<()> {
        if std::mem::take(&mut self.donors_pending) {
            let c = self.per_walk();
            self.launch(|k| &k.walk.take_donors, c)?;
        }
        Ok(())
    }

    /// `AcoEngine::perturb_walks`: the donors taken (`take_donors`), then
    /// `ts_perturb_walks_*` queued, no wait: the walks outside the best `elite` of the last
    /// ranking make `swaps` random exchanges each, re-costed on the device.
    pub(crate) fn perturb_regrouped(&mut self, elite: u32, swaps: u32, round: u32) -> Result<()> {
        anyhow::ensure!(self.cfg.walk, "only walks are perturbed");
        self.take_donors()?;
        self.walks_clean = false;
        let c = self.per_ant_block();
        self.launch_words(|k| &k.walk.perturb, c, &[elite.clamp(1, self.cfg.ants), swaps, round])
    }

    /// Every walk's moves so far, for `put_units` to patch (empty where the units are ants).
    pub(crate) fn walk_counts(&self) -> Result<Vec<u32>> {
        Ok(if self.cfg.walk { self.gpu.stream.clone_dtoh(&self.buf.walk.walks)? } else { Vec::new() })
    }

    /// `put_units`' patched `walk_counts` written back (the walks given a unit start with a
    /// fresh tabu memory).
    pub(crate) fn put_walk_counts(&mut self, walks: &[u32]) -> Result<()> {
        if self.cfg.walk {
            let s = &self.gpu.stream;
            s.memcpy_htod(walks, &mut self.buf.walk.walks)?;
            // Every kept table is rebuilt at the next launch (the others' too: one memset).
            s.memset_zeros(&mut self.buf.walk.tables_ok)?;
        }
        Ok(())
    }

    /// One block of `REGROUP_THREADS` a walk: the regrouping kernels' launch.
    fn per_walk(&self) -> LaunchConfig {
        LaunchConfig { grid_dim: (self.cfg.ants, 1, 1), block_dim: (REGROUP_THREADS, 1, 1), shared_mem_bytes: 0 }
    }
}
