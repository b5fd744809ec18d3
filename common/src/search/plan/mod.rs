//! The one planner of the local search: from the instance's features, the device's limits
//! and the kernels' resources, which kernel runs a search, with what block and what memory.
//! A pure function, so that every branch is tested on the CPU (the tests below, on the
//! resources ptxas gave the kernels for sm_90, `ptxas-resources.txt`).
use super::kernels::{Body, KernelId, Role};
use crate::delta::DeltaWidth;
use crate::elem::ElemWidth;
use crate::layout::{DeviceLimits, LsLayout, Placement, blocks_per_sm};
use crate::mata::{Mapping, Shape, ShapeError};

/// What the planner is asked: one search (a c-ant's) or walk, on one instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// The instance's size.
    pub n: u32,
    /// The matrices' element type (`ElemWidth::on_gpu`).
    pub elem: ElemWidth,
    /// The move costs' width: the narrowest the instance allows, or i64 where asked.
    pub delta: DeltaWidth,
    /// A c-ant's search or a walk (never `Role::Either`).
    pub role: Role,
    /// Tabu search (else 2-opt).
    pub tabu_search: bool,
    /// The thread mapping asked for.
    pub mapping: Mapping,
    /// Whether the planner may take a faster mapping than `mapping` where it runs, or a
    /// slower where `mapping` cannot (`settle`); else `mapping` is kept.
    pub settle: bool,
    /// `mapping` is the user's: settling keeps it wherever it can run at all.
    pub chosen: bool,
    /// The sums mapping only where its plan runs the fast path, else MATA (`auto`'s rule for
    /// large structured data: tai150b, docs/benchmarks-record.md, "The sums fast path for
    /// tai150b").
    pub sums_only_if_fast: bool,
    /// A or B is symmetric (`Instance::sums_side`): the sums mapping can run.
    pub symmetric_side: bool,
    /// N_S, MATA's moves a thread.
    pub ns: u32,
    /// Threads of the split and sums blocks, where the user set them.
    pub split_threads: Option<u32>,
    /// Every search keeps its tabu entries within 2 bytes of its launch's base
    /// (`narrow_tabu::fits`).
    pub narrow_tabu: bool,
}

/// What a kernel needs of an SM, as ptxas (or the driver) reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resources {
    /// Registers a thread.
    pub registers: u32,
    /// Threads a block of the kernel may have.
    pub max_threads: u32,
}

/// The planner's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The kernel that runs the plan.
    pub kernel: KernelId,
    /// The block shape and the memory of every table.
    pub layout: LsLayout,
    /// Registers a thread of the kernel that sized the plan.
    pub registers: u32,
    /// Resident blocks an SM, as the model of `layout::blocks_per_sm` counts them.
    pub blocks_per_sm: u32,
}

/// Why no plan runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// No block shape of the mapping fits the kernel's threads per block.
    Shape(ShapeError),
    /// The split or sums block asked for more threads than the kernel runs.
    SplitThreads {
        /// The threads asked (`--split-threads`).
        asked: u32,
        /// The most the kernel runs.
        max: u32,
    },
    /// The sums mapping needs A or B symmetric.
    NoSymmetricSide,
    /// The split family keeps its tables in shared memory, and they do not fit a block.
    TablesTooLarge {
        /// The mapping asked.
        mapping: Mapping,
        /// Bytes its tables need.
        bytes: u32,
    },
    /// The table has no kernel for this body, role and element type.
    NoKernel {
        /// The body the plan needs.
        body: Body,
        /// The role asked.
        role: Role,
        /// The element type asked.
        elem: ElemWidth,
    },
}

impl core::fmt::Display for PlanError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            PlanError::Shape(e) => write!(f, "{e}"),
            PlanError::SplitThreads { asked, max } => {
                write!(f, "{asked} threads per block: the kernel runs 1 to {max}")
            }
            PlanError::NoSymmetricSide => write!(f, "the sums layout needs A or B symmetric, and neither is"),
            PlanError::TablesTooLarge { mapping, bytes } => write!(
                f,
                "the {} layout needs its tables ({bytes} bytes) in shared memory, more than this GPU gives a block",
                mapping_name(mapping)
            ),
            PlanError::NoKernel { body, role, elem } => {
                write!(f, "no {role:?} kernel of the {} body for {} matrices", body.name(), elem.name())
            }
        }
    }
}

/// A mapping's name on the command line (`--layout`).
pub const fn mapping_name(m: Mapping) -> &'static str {
    match m {
        Mapping::Mata => "mata",
        Mapping::Plain => "plain",
        Mapping::Split => "split",
        Mapping::Sums => "sums",
    }
}

/// The body that runs `mapping` off the fast path.
pub const fn general_body(mapping: Mapping) -> Body {
    match mapping {
        Mapping::Mata | Mapping::Plain => Body::Mata,
        Mapping::Split => Body::Split,
        Mapping::Sums => Body::Sums,
    }
}

/// The plan of `req` on a device of limits `lim`, whose kernels need `res`. `res` is asked
/// only about the general kernel of each mapping the planner weighs (the host loads that
/// one kernel to ask the driver), and its errors come back as they are.
///
/// 1. The mapping: `req.mapping`, settled where `req.settle` (`settle`), then MATA in the
///    sums mapping's place where `req.sums_only_if_fast` and its plan is off the fast path.
/// 2. The block: the mapping's shape on its general kernel's threads per block.
/// 3. The memory: `LsLayout::new` with the blocks an SM the kernel's registers allow.
/// 4. The kernel: the general body's, or the fast path's form the memory plan asks for.
pub fn plan<E>(
    req: &Request,
    lim: &DeviceLimits,
    res: &mut dyn FnMut(KernelId) -> Result<Resources, E>,
) -> Result<Result<Plan, PlanError>, E> {
    let mut mapping = req.mapping;
    if req.settle {
        mapping = match settle(req, lim, res)? {
            Ok(m) => m,
            Err(e) => return Ok(Err(e)),
        };
    }
    if req.sums_only_if_fast && mapping == Mapping::Sums {
        let fast =
            req.symmetric_side && plan_mapping(req, Mapping::Sums, lim, res)?.is_ok_and(|p| p.layout.fast_path());
        if !fast {
            mapping = Mapping::Mata;
        }
    }
    if mapping == Mapping::Sums && !req.symmetric_side {
        return Ok(Err(PlanError::NoSymmetricSide));
    }
    let plan = match plan_mapping(req, mapping, lim, res)? {
        Ok(p) => p,
        Err(e) => return Ok(Err(e)),
    };
    if !plan.layout.runnable() {
        let bytes = plan.layout.delta.bytes + plan.layout.sums.bytes;
        return Ok(Err(PlanError::TablesTooLarge { mapping, bytes }));
    }
    Ok(Ok(plan))
}

/// The mapping `req` runs: `req.mapping` where it runs, else the fastest that does, in the
/// order sums, split, MATA, plain.
/// * Sums needs a symmetric side and its table in shared memory.
/// * Split needs its Δ table in shared memory (not at n = 256 with i64 move costs); unless
///   the user chose the mapping, it also gives way to MATA where its plan pushes A and B
///   out of shared memory and MATA's keeps them (tai150b: 5.0e10 move costs a second with
///   MATA, 4.1e10 split). Sums, too, falls back to split there.
/// * MATA gives way to plain where its 2n extra threads do not fit the kernel's block
///   (n = 256 on sm_90).
///
/// A mapping the user chose is kept where it can run at all; where it cannot, the engine
/// says why.
pub fn settle<E>(
    req: &Request,
    lim: &DeviceLimits,
    res: &mut dyn FnMut(KernelId) -> Result<Resources, E>,
) -> Result<Result<Mapping, PlanError>, E> {
    let ab_shared = |p: &Plan| p.layout.ab_placement == Placement::Shared;
    let mut mapping = req.mapping;
    if mapping == Mapping::Sums {
        let sums = if req.symmetric_side {
            plan_mapping(req, Mapping::Sums, lim, res)?.ok().filter(|p| p.layout.runnable())
        } else {
            None
        };
        match sums {
            Some(p) if req.chosen || !mata_keeps_ab(req, ab_shared(&p), lim, res)? => return Ok(Ok(mapping)),
            None if req.chosen => return Ok(Ok(mapping)),
            _ => mapping = Mapping::Split,
        }
    }
    if mapping == Mapping::Split {
        let split = match plan_mapping(req, Mapping::Split, lim, res)? {
            Ok(p) => p,
            Err(e) => return Ok(Err(e)),
        };
        if split.layout.runnable() && !mata_keeps_ab(req, ab_shared(&split), lim, res)? {
            return Ok(Ok(mapping));
        }
        mapping = Mapping::Mata;
    }
    if plan_mapping(req, mapping, lim, res)?.is_err() {
        mapping = Mapping::Plain;
        if let Err(e) = plan_mapping(req, mapping, lim, res)? {
            return Ok(Err(e));
        }
    }
    Ok(Ok(mapping))
}

/// Whether MATA's plan keeps A and B in shared memory where a plan of the split family
/// (`plan_ab`: whether it does) does not, and the user did not choose the mapping.
fn mata_keeps_ab<E>(
    req: &Request,
    plan_ab: bool,
    lim: &DeviceLimits,
    res: &mut dyn FnMut(KernelId) -> Result<Resources, E>,
) -> Result<bool, E> {
    if req.chosen || plan_ab {
        return Ok(false);
    }
    Ok(plan_mapping(req, Mapping::Mata, lim, res)?.is_ok_and(|p| p.layout.ab_placement == Placement::Shared))
}

/// The plan of `mapping` itself: steps 2 to 4 of `plan`.
pub fn plan_mapping<E>(
    req: &Request,
    mapping: Mapping,
    lim: &DeviceLimits,
    res: &mut dyn FnMut(KernelId) -> Result<Resources, E>,
) -> Result<Result<Plan, PlanError>, E> {
    let general = general_body(mapping);
    let no_kernel = |body| PlanError::NoKernel { body, role: req.role, elem: req.elem };
    let Some(id) = KernelId::find(general, req.role, req.elem) else { return Ok(Err(no_kernel(general))) };
    let r = res(id)?;
    let shape = match shape(req, mapping, r.max_threads) {
        Ok(s) => s,
        Err(e) => return Ok(Err(e)),
    };
    let (max_blocks, _) = blocks_per_sm(lim, shape.launched(), 0, r.registers);
    // A walk's tabu entries never need the pairs in global memory (`Body::SumsFastNarrow`
    // says why), and no walk kernel reads them there.
    let global_pairs = req.role == Role::Search;
    let layout =
        LsLayout::new(shape, req.tabu_search, req.delta, req.elem, max_blocks, lim, req.narrow_tabu, global_pairs);
    let body = fast_body(&layout).unwrap_or(general);
    let Some(kernel) = KernelId::find(body, req.role, req.elem) else { return Ok(Err(no_kernel(body))) };
    let (blocks, _) = blocks_per_sm(lim, shape.launched(), layout.dynamic_shared, r.registers);
    Ok(Ok(Plan { kernel, layout, registers: r.registers, blocks_per_sm: blocks }))
}

/// The fast path's body for `layout` (None: off the fast path).
pub fn fast_body(layout: &LsLayout) -> Option<Body> {
    if !layout.fast_path() {
        return None;
    }
    Some(match (layout.tabu_entry, layout.pairs_shared) {
        (2, false) => Body::SumsFastNarrowGlobalPairs,
        (2, true) => Body::SumsFastNarrow,
        _ => Body::SumsFast,
    })
}

/// The block shape of `mapping` on a kernel of at most `max_threads` threads a block: the
/// mapping's own (`Shape::fit`), or the split block `req.split_threads` asks.
pub fn shape(req: &Request, mapping: Mapping, max_threads: u32) -> Result<Shape, PlanError> {
    let shape = Shape::fit(req.n, req.ns, mapping, max_threads).map_err(PlanError::Shape)?;
    match (mapping.split_family(), req.split_threads) {
        (true, Some(t)) if (1..=max_threads).contains(&t) => Ok(Shape::split_family(req.n, t, mapping)),
        (true, Some(t)) => Err(PlanError::SplitThreads { asked: t, max: max_threads }),
        _ => Ok(shape),
    }
}

#[cfg(test)]
mod tests;
