//! The table of local-search kernels: every entry the device defines
//! (`device::search`), the host loads (`host::search`) and `cargo xtask build-ptx` caps and
//! budgets. One list, `ls_kernel_list!`, feeds all three, so no kernel name is built at run
//! time and `grep` finds each name where it is defined, loaded and checked.
//!
//! A kernel is a search body (`Body`) in one role (`Role`) for one matrix element type.
//! Only variants that measurably pay are kept; `Body`'s docs give each one's reason, and
//! docs/search.md the measurements.
use crate::elem::ElemWidth;

/// What a kernel's threads run: the thread mapping and the memory it expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Body {
    /// Seed 003's MATA (and the plain mapping): a Δ table, A and B in shared or global
    /// memory, i32 or i64 move costs. Runs every instance up to n = 256.
    Mata,
    /// The split mapping: one move's Eq. 5 terms over a warp's lanes (asymmetric data,
    /// where the sums mapping cannot run; faster than MATA up to n ≈ 100).
    Split,
    /// The sums mapping, general form: the table H gives every move in O(1) (A or B
    /// symmetric); any placement, i32 or i64 move costs.
    Sums,
    /// The sums mapping's fast path: i32 move costs, A, B, H and a tabu matrix of 4-byte
    /// entries all in shared memory; rows of n or n + 1 (`LsLayout::row`).
    SumsFast,
    /// The fast path with 2-byte tabu entries (`narrow_tabu`), where 4-byte ones would leave
    /// the tabu matrix in global memory or cost a block an SM (n = 95 to 109 for walks, to
    /// 150 for c-ants).
    SumsFastNarrow,
    /// `SumsFastNarrow` reading each move's pair from global memory, for plans where the
    /// shared table of pairs does not fit: c-ant searches at n = 140 to 150 (tai150b). Its
    /// own kernel: the same choice made at run time in one kernel cost tai150b's c-ants
    /// 15 % of their move costs a second (docs/search.md). Searches only: a walk's entries
    /// fit 2 bytes only up to n = 109, where the pairs always fit in shared memory.
    SumsFastNarrowGlobalPairs,
    /// The wide path (`wide`): n above 256 to `WIDE_MAX_N`, u16 solutions, the Δ and tabu
    /// tables in global memory, a walk a block. Its kernels take a `WideParams`, not an
    /// `AcoParams`: the only body for n above 256, so no choice among bodies is made there.
    Wide,
}

impl Body {
    /// The body's name in logs and the audit.
    pub const fn name(self) -> &'static str {
        match self {
            Body::Mata => "mata",
            Body::Split => "split",
            Body::Sums => "sums",
            Body::SumsFast => "sums, fast path",
            Body::SumsFastNarrow => "sums, fast path, 2-byte tabu entries",
            Body::SumsFastNarrowGlobalPairs => "sums, fast path, 2-byte tabu entries, pairs in global memory",
            Body::Wide => "wide: u16 solutions, tables in global memory",
        }
    }

    /// Whether the body is one of the fast path's (`LsLayout::fast_path`).
    pub const fn fast(self) -> bool {
        matches!(self, Body::SumsFast | Body::SumsFastNarrow | Body::SumsFastNarrowGlobalPairs)
    }
}

/// Who launches a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Seed 003's local search of every c-ant: one launch of `ls_iterations` moves.
    Search,
    /// A walk of `ts` (or `memetic`, or a colony in walk mode) that goes on from launch to
    /// launch, its tabu matrix and table kept in global memory between launches.
    Walk,
    /// Either, as the launch's `LS_WALK` flag says: the general sums body, where one kernel
    /// for both roles made the move costs a second of each within 2 % of two (the split
    /// body's searches lost 8.6 % so: two kernels there; docs/search.md).
    Either,
}

impl Role {
    /// Whether a kernel of this role takes the launch's moves as its second parameter.
    pub const fn takes_moves(self) -> bool {
        !matches!(self, Role::Search)
    }
}

/// One kernel of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LsKernel {
    /// The PTX entry's name.
    pub name: &'static str,
    /// What its threads run.
    pub body: Body,
    /// Who launches it.
    pub role: Role,
    /// Its matrices' element type.
    pub elem: ElemWidth,
}

/// A kernel's index in `LS_KERNELS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelId(pub u8);

impl KernelId {
    /// The kernel's row of the table.
    pub fn kernel(self) -> &'static LsKernel {
        &LS_KERNELS[self.0 as usize]
    }

    /// The kernel that runs `body` in `role` (Search or Walk) on `elem` matrices: its own,
    /// or one that serves either role (None: no such variant).
    pub fn find(body: Body, role: Role, elem: ElemWidth) -> Option<KernelId> {
        LS_KERNELS
            .iter()
            .position(|k| k.body == body && (k.role == role || k.role == Role::Either) && k.elem == elem)
            .map(|i| KernelId(i as u8))
    }

    /// The kernel named `name` (None: not a local-search kernel).
    pub fn named(name: &str) -> Option<KernelId> {
        LS_KERNELS.iter().position(|k| k.name == name).map(|i| KernelId(i as u8))
    }
}

/// The list of local-search kernels: `(entry name, Body, Role, element type)`. The device
/// instantiates each (`device::search::kernels`), `LS_KERNELS` names them for the host and
/// xtask. Element types: u16 (half the shared memory) and i32; an instance whose entries
/// need u32 above 2^31 − 1 runs on the CPU (`ElemWidth::on_gpu`).
#[macro_export]
macro_rules! ls_kernel_list {
    ($then:ident) => {
        $then! {
            (aco_local_search_u16, Mata, Search, u16),
            (aco_local_search_i32, Mata, Search, i32),
            (ts_walk_u16, Mata, Walk, u16),
            (ts_walk_i32, Mata, Walk, i32),
            (aco_split_search_u16, Split, Search, u16),
            (aco_split_search_i32, Split, Search, i32),
            (ts_split_walk_u16, Split, Walk, u16),
            (ts_split_walk_i32, Split, Walk, i32),
            (ls_sums_u16, Sums, Either, u16),
            (ls_sums_i32, Sums, Either, i32),
            (aco_sums_fast_search_u16, SumsFast, Search, u16),
            (aco_sums_fast_search_i32, SumsFast, Search, i32),
            (ts_sums_fast_walk_u16, SumsFast, Walk, u16),
            (ts_sums_fast_walk_i32, SumsFast, Walk, i32),
            (aco_sums_fast_search_narrow_u16, SumsFastNarrow, Search, u16),
            (aco_sums_fast_search_narrow_i32, SumsFastNarrow, Search, i32),
            (ts_sums_fast_walk_narrow_u16, SumsFastNarrow, Walk, u16),
            (ts_sums_fast_walk_narrow_i32, SumsFastNarrow, Walk, i32),
            (aco_sums_fast_search_narrow_global_pairs_u16, SumsFastNarrowGlobalPairs, Search, u16),
            (aco_sums_fast_search_narrow_global_pairs_i32, SumsFastNarrowGlobalPairs, Search, i32),
            (ts_wide_walk_u16, Wide, Walk, u16),
            (ts_wide_walk_i32, Wide, Walk, i32),
        }
    };
}

macro_rules! table {
    ($(($name:ident, $body:ident, $role:ident, $t:ty)),* $(,)?) => {
        /// Every local-search kernel (`ls_kernel_list!`).
        pub const LS_KERNELS: &[LsKernel] = &[$(LsKernel {
            name: stringify!($name),
            body: Body::$body,
            role: Role::$role,
            elem: <$t as $crate::elem::Elem>::WIDTH,
        }),*];
    };
}
ls_kernel_list!(table);

/// What `cargo xtask build-ptx` holds a kernel to on every checked architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// `.maxnreg` written into the PTX (honoured by ptxas and the driver's JIT): it fixes
    /// the block shapes the planner can launch.
    pub registers: u32,
    /// Bytes of spill stores and loads a thread may have (ptxas 13, sm_75 to sm_100).
    pub spill: u32,
    /// The same on sm_12x, where ptxas 13 spills 1.3 to 3.8 times as much at one cap.
    pub spill_sm12x: u32,
}

/// The budget of a body in a role. Registers: seed 003's search at 72 (two 448-thread
/// blocks of n = 100 an SM: tai100b 17 % faster to the optimum on an H200); the MATA walks
/// at 104 (four bodies; ptxas gave them 128 uncapped); the split and sums kernels at 64 (8
/// warps a register-file partition: three 320-thread walks of n = 35 an SM); the wide walk at
/// 128 (one 512-thread block an SM, as its walks run: at 64 the eight sums a thread of its
/// rows spilled 1 KB). Spills: about
/// a quarter above what the caps cost when each was set, so that an edit that grows them
/// fails the build (docs/benchmarks-record.md, "Register cap", "Spills", "A fast path for
/// the sums walks", "Launch costs again").
pub const fn budget(body: Body, role: Role) -> Budget {
    let (registers, spill, spill_sm12x) = match (body, role) {
        (Body::Mata, Role::Search) => (72, 2560, 1280),
        (Body::Mata, Role::Walk | Role::Either) => (104, 512, 1600),
        (Body::Split, Role::Search) => (64, 3072, 2112),
        (Body::Split, _) => (64, 4608, 4992),
        (Body::Sums, _) => (64, 7168, 7680),
        (Body::Wide, _) => (128, 800, 1600),
        (_, Role::Search) => (64, 1024, 1280),
        (_, Role::Walk | Role::Either) => (64, 1792, 2304),
    };
    Budget { registers, spill, spill_sm12x }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_body_and_role_has_a_kernel_per_gpu_element_type_but_the_walk_with_global_pairs() {
        for body in [Body::Mata, Body::Split, Body::Sums, Body::SumsFast, Body::SumsFastNarrow] {
            for role in [Role::Search, Role::Walk] {
                for elem in [ElemWidth::U16, ElemWidth::I32] {
                    let id = KernelId::find(body, role, elem).unwrap();
                    assert_eq!(KernelId::named(id.kernel().name), Some(id));
                    assert!(id.kernel().name.ends_with(elem.name()));
                }
            }
        }
        assert!(KernelId::find(Body::SumsFastNarrowGlobalPairs, Role::Search, ElemWidth::I32).is_some());
        assert!(KernelId::find(Body::SumsFastNarrowGlobalPairs, Role::Walk, ElemWidth::I32).is_none());
        // One kernel serves both roles of the general sums body.
        let sums = KernelId::find(Body::Sums, Role::Search, ElemWidth::U16);
        assert_eq!(sums, KernelId::find(Body::Sums, Role::Walk, ElemWidth::U16));
        assert!(sums.unwrap().kernel().role.takes_moves());
        assert!(!KernelId::find(Body::Split, Role::Search, ElemWidth::U16).unwrap().kernel().role.takes_moves());
        assert!(LS_KERNELS.iter().all(|k| k.elem != ElemWidth::U32));
        assert_eq!(LS_KERNELS.len(), 22);
    }

    #[test]
    fn names_are_unique() {
        for (i, k) in LS_KERNELS.iter().enumerate() {
            assert!(LS_KERNELS[i + 1..].iter().all(|o| o.name != k.name), "{}", k.name);
        }
    }
}
