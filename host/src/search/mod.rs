//! The host side of the local search (`qapgpu_common::search`): the planner's request for
//! an instance and a colony's (or walks') configuration, the kernels' resources as the
//! driver reports them, and the table's kernels loaded by name. The engines that run
//! searches (`algo::aco::gpu`, for seed 003's colony, `ts` and `memetic`) take their kernel
//! and memory plan from here only.
use crate::algo::aco::{AcoConfig, Layout};
use crate::gpu::Gpu;
use crate::io::Instance;
use anyhow::{Context, Result, anyhow};
use cudarc::driver::CudaFunction;
use cudarc::driver::sys::CUfunction_attribute;
use qapgpu_common::delta::DeltaWidth;
use qapgpu_common::ls::LsKind;
use qapgpu_common::mata::Mapping;
use qapgpu_common::narrow_tabu;
use qapgpu_common::search::kernels::{KernelId, Role};
use qapgpu_common::search::plan::{self, Plan, PlanError, Request, Resources};

/// The planner's request for `cfg`'s searches (or walks) on `inst`, with `cfg`'s layout
/// kept as it is (`settle: false`).
pub fn request(inst: &Instance, cfg: &AcoConfig) -> Request {
    Request {
        n: inst.n as u32,
        elem: inst.width,
        delta: if cfg.wide_delta { DeltaWidth::I64 } else { inst.delta_width() },
        role: if cfg.walk { Role::Walk } else { Role::Search },
        tabu_search: cfg.ls == LsKind::Tabu,
        mapping: cfg.layout.mapping(),
        settle: false,
        chosen: true,
        sums_only_if_fast: false,
        symmetric_side: inst.sums_side().is_some(),
        ns: cfg.ns,
        split_threads: cfg.split_threads,
        narrow_tabu: narrow_tabu_fits(cfg),
    }
}

/// The layout of a thread mapping.
pub fn layout_of(mapping: Mapping) -> Layout {
    match mapping {
        Mapping::Mata => Layout::Mata,
        Mapping::Plain => Layout::Plain,
        Mapping::Split => Layout::Split,
        Mapping::Sums => Layout::Sums,
    }
}

/// Kernel `id` of the table, loaded (JIT-compiled where its module has no machine code).
pub fn load(gpu: &Gpu, id: KernelId) -> Result<CudaFunction> {
    let name = id.kernel().name;
    gpu.module.load_function(name).with_context(|| format!("kernel {name} missing from the PTX"))
}

/// What kernel `id` needs of an SM, from the driver (which knows the code it loaded).
pub fn resources(gpu: &Gpu, id: KernelId) -> Result<Resources> {
    let f = load(gpu, id)?;
    let attr = |a| f.get_attribute(a).map(|v| v as u32);
    Ok(Resources {
        registers: attr(CUfunction_attribute::CU_FUNC_ATTRIBUTE_NUM_REGS)?,
        max_threads: attr(CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
    })
}

/// The plan of `req` on `gpu` (`search::plan::plan`).
pub fn plan(gpu: &Gpu, req: &Request) -> Result<std::result::Result<Plan, PlanError>> {
    plan::plan(req, &gpu.limits, &mut |id| resources(gpu, id))
}

/// `plan`, as one error a user reads: named after the instance, the options it concerns and
/// what to try.
pub fn plan_or_explain(gpu: &Gpu, inst: &Instance, req: &Request) -> Result<Plan> {
    plan(gpu, req)?.map_err(|e| {
        let name = &inst.name;
        match e {
            PlanError::SplitThreads { asked, max } => anyhow!(
                "--split-threads {asked}: the {} kernel runs 1 to {max} threads per block",
                plan::mapping_name(req.mapping)
            ),
            PlanError::NoSymmetricSide => {
                anyhow!("{name}: --layout sums needs A or B symmetric, and neither is; use --layout split")
            }
            PlanError::TablesTooLarge { .. } => anyhow!("{name}: {e}; use --layout mata"),
            _ => anyhow!("{name}: {e}"),
        }
    })
}

/// Whether every search of `cfg` keeps its tabu entries within 2 bytes of its launch's base
/// (`narrow_tabu::fits`): a walk's launches are split at `narrow_tabu::LAUNCH_MAX` moves
/// (`AcoGpu::walk_launches`), and a c-ant's search is one launch of `ls_iterations` moves
/// with no long-term aspiration.
pub fn narrow_tabu_fits(cfg: &AcoConfig) -> bool {
    let longest = cfg.tenure().longest();
    if cfg.walk {
        narrow_tabu::fits(cfg.aspiration, narrow_tabu::LAUNCH_MAX, longest)
    } else {
        narrow_tabu::fits(0, cfg.ls_iterations, longest)
    }
}
