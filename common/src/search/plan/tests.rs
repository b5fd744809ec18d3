//! Every branch of the planner, on the registers ptxas 13 gave the kernels for sm_90
//! (`ptxas-resources.txt`, written by `cargo xtask build-ptx`), and an H100's limits.
use super::*;
use crate::layout::limits;
use crate::ls::{Tenure, TenureLaw};
use crate::narrow_tabu;
use crate::search::kernels::LS_KERNELS;

const CAPTURED: &str = include_str!("../ptxas-resources.txt");

/// Kernel `id`'s registers on `arch` as captured, and the block they allow.
fn captured(arch: &str, id: KernelId) -> Resources {
    let lim = limits(arch.trim_start_matches("sm_").parse().unwrap()).unwrap();
    let name = id.kernel().name;
    let registers = CAPTURED
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            (f.next()? == arch && f.next()? == name).then(|| f.next()?.parse().ok())?
        })
        .next()
        .unwrap_or_else(|| panic!("{name} on {arch} is not in ptxas-resources.txt: run cargo xtask build-ptx"));
    Resources { registers, max_threads: crate::layout::max_threads_for_registers(&lim, registers) }
}

/// A walk (`ts`) or a c-ant's search at n, u16 matrices, i32 move costs, the mapping asked
/// and kept, 2-byte tabu entries where the host's rule allows them at the defaults.
fn request(n: u32, role: Role, mapping: Mapping) -> Request {
    let longest = Tenure { list_size: 8 * n, per_move: false, law: TenureLaw::Mixed }.longest();
    let narrow_tabu = match role {
        Role::Walk | Role::Either => narrow_tabu::fits(5 * n * n, narrow_tabu::LAUNCH_MAX, longest),
        Role::Search => narrow_tabu::fits(0, n, longest),
    };
    Request {
        n,
        elem: ElemWidth::U16,
        delta: DeltaWidth::I32,
        role,
        tabu_search: true,
        mapping,
        settle: false,
        chosen: true,
        sums_only_if_fast: false,
        symmetric_side: true,
        ns: crate::mata::default_ns(n),
        split_threads: None,
        narrow_tabu,
    }
}

fn on_h100(req: &Request) -> Result<Plan, PlanError> {
    let lim = limits(90).unwrap();
    let r: Result<_, core::convert::Infallible> = plan(req, &lim, &mut |id| Ok(captured("sm_90", id)));
    r.unwrap()
}

fn settled(req: &Request) -> Result<Mapping, PlanError> {
    let lim = limits(90).unwrap();
    let r: Result<_, core::convert::Infallible> =
        settle(&Request { settle: true, ..*req }, &lim, &mut |id| Ok(captured("sm_90", id)));
    r.unwrap()
}

fn body(p: &Plan) -> Body {
    p.kernel.kernel().body
}

#[test]
fn the_captured_table_covers_every_kernel_on_every_checked_architecture() {
    for arch in ["sm_75", "sm_80", "sm_90"] {
        for (i, _) in LS_KERNELS.iter().enumerate() {
            let r = captured(arch, KernelId(i as u8));
            assert!(r.registers > 0 && r.registers <= 255);
        }
    }
}

#[test]
fn small_symmetric_walks_run_the_fast_path_in_rows_of_n_or_n_plus_1() {
    let p = on_h100(&request(35, Role::Walk, Mapping::Sums)).unwrap();
    assert_eq!((body(&p), p.layout.row, p.layout.tabu_entry), (Body::SumsFast, 35, 4));
    assert_eq!(p.kernel.kernel().name, "ts_sums_fast_walk_u16");
    // n = 80, a multiple of 8: rows of 81 on the same kernel, read at run time.
    let p = on_h100(&request(80, Role::Walk, Mapping::Sums)).unwrap();
    assert_eq!((body(&p), p.layout.row), (Body::SumsFast, 81));
    assert!(p.layout.flags() & crate::params::LS_PADDED_ROWS != 0);
    let i32s = on_h100(&Request { elem: ElemWidth::I32, ..request(35, Role::Walk, Mapping::Sums) }).unwrap();
    assert_eq!(i32s.kernel.kernel().name, "ts_sums_fast_walk_i32");
}

#[test]
fn n_100_takes_two_byte_tabu_entries_and_n_150_c_ants_the_pairs_in_global_memory() {
    let p = on_h100(&request(100, Role::Walk, Mapping::Sums)).unwrap();
    assert_eq!((body(&p), p.layout.tabu_entry), (Body::SumsFastNarrow, 2));
    let p = on_h100(&request(150, Role::Search, Mapping::Sums)).unwrap();
    assert_eq!((body(&p), p.layout.pairs_shared), (Body::SumsFastNarrowGlobalPairs, false));
    assert_eq!(p.kernel.kernel().name, "aco_sums_fast_search_narrow_global_pairs_u16");
    let p = on_h100(&request(100, Role::Search, Mapping::Sums)).unwrap();
    assert_eq!((body(&p), p.layout.pairs_shared), (Body::SumsFastNarrow, true));
    // A walk's entries do not fit 2 bytes at n = 150: the general sums kernel.
    let p = on_h100(&request(150, Role::Walk, Mapping::Sums)).unwrap();
    assert_eq!(body(&p), Body::Sums);
    assert!(!p.layout.fast_path());
}

#[test]
fn a_walk_never_plans_the_pairs_in_global_memory() {
    // Even where its entries fit 2 bytes and nothing else runs the fast path.
    let lim = limits(86).unwrap();
    for n in 90..=109 {
        let req = request(n, Role::Walk, Mapping::Sums);
        let r: Result<_, core::convert::Infallible> = plan(&req, &lim, &mut |id| Ok(captured("sm_80", id)));
        let p = r.unwrap().unwrap();
        assert_ne!(body(&p), Body::SumsFastNarrowGlobalPairs, "n = {n}");
        assert!(p.layout.pairs_shared, "n = {n}");
    }
}

#[test]
fn off_the_fast_path_every_mapping_runs_its_general_body() {
    // 2-opt keeps no tabu matrix: never the fast path.
    let p = on_h100(&Request { tabu_search: false, ..request(35, Role::Search, Mapping::Sums) }).unwrap();
    assert_eq!(body(&p), Body::Sums);
    // i64 move costs.
    let p = on_h100(&Request { delta: DeltaWidth::I64, ..request(35, Role::Walk, Mapping::Sums) }).unwrap();
    assert_eq!(body(&p), Body::Sums);
    for (mapping, want) in [(Mapping::Split, Body::Split), (Mapping::Mata, Body::Mata), (Mapping::Plain, Body::Mata)] {
        for role in [Role::Search, Role::Walk] {
            let p = on_h100(&request(50, role, mapping)).unwrap();
            let kernel_role = p.kernel.kernel().role;
            assert_eq!(body(&p), want, "{mapping:?}");
            assert!(kernel_role == role || kernel_role == Role::Either, "{mapping:?}");
            assert_eq!(p.layout.shape.mapping, mapping);
        }
    }
}

#[test]
fn settling_takes_the_fastest_mapping_that_runs() {
    let free = |n, m| Request { chosen: false, ..request(n, Role::Walk, m) };
    // Sums where a side is symmetric, split where none is.
    assert_eq!(settled(&free(35, Mapping::Sums)), Ok(Mapping::Sums));
    assert_eq!(settled(&Request { symmetric_side: false, ..free(35, Mapping::Sums) }), Ok(Mapping::Split));
    // tai150b's walks: the split family's plans push A and B out of shared memory, MATA's
    // keeps them.
    assert_eq!(settled(&Request { elem: ElemWidth::I32, ..free(150, Mapping::Sums) }), Ok(Mapping::Mata));
    // n = 256, i64 move costs: split's Δ table does not fit, and MATA's 2n threads do not
    // fit the block: plain.
    assert_eq!(settled(&Request { delta: DeltaWidth::I64, ..free(256, Mapping::Split) }), Ok(Mapping::Plain));
}

#[test]
fn a_mapping_the_user_chose_is_kept_where_it_runs_and_explained_where_not() {
    let chosen = |n, m| request(n, Role::Walk, m);
    assert_eq!(settled(&Request { elem: ElemWidth::I32, ..chosen(150, Mapping::Sums) }), Ok(Mapping::Sums));
    let no_side = Request { symmetric_side: false, ..chosen(35, Mapping::Sums) };
    assert_eq!(settled(&no_side), Ok(Mapping::Sums));
    assert_eq!(on_h100(&no_side), Err(PlanError::NoSymmetricSide));
    let big = Request { delta: DeltaWidth::I64, ..chosen(256, Mapping::Split) };
    assert!(matches!(on_h100(&big), Err(PlanError::TablesTooLarge { mapping: Mapping::Split, .. })));
    let threads = Request { split_threads: Some(4096), ..chosen(35, Mapping::Split) };
    assert!(matches!(on_h100(&threads), Err(PlanError::SplitThreads { asked: 4096, .. })));
    let p = on_h100(&Request { split_threads: Some(96), ..chosen(35, Mapping::Split) }).unwrap();
    assert_eq!(p.layout.shape.launched(), 96);
    assert!(matches!(on_h100(&chosen(1, Mapping::Mata)), Err(PlanError::Shape(_))));
}

#[test]
fn sums_only_if_fast_gives_mata_where_the_sums_plan_is_off_the_fast_path() {
    let rule = |n, role| Request { sums_only_if_fast: true, ..request(n, role, Mapping::Sums) };
    assert_eq!(body(&on_h100(&rule(150, Role::Search)).unwrap()), Body::SumsFastNarrowGlobalPairs);
    assert_eq!(on_h100(&rule(150, Role::Walk)).unwrap().layout.shape.mapping, Mapping::Mata);
    assert_eq!(body(&on_h100(&rule(35, Role::Walk)).unwrap()), Body::SumsFast);
}

#[test]
fn the_resources_asked_are_the_general_kernels_and_their_errors_come_back() {
    let lim = limits(90).unwrap();
    let mut asked = [false; 32];
    let r: Result<_, ()> = plan(&request(35, Role::Walk, Mapping::Sums), &lim, &mut |id| {
        asked[id.0 as usize] = true;
        Ok(captured("sm_90", id))
    });
    assert!(r.unwrap().is_ok());
    let names: [&str; 1] = ["ls_sums_u16"];
    for (i, k) in LS_KERNELS.iter().enumerate() {
        assert_eq!(asked[i], names.contains(&k.name), "{}", k.name);
    }
    let failed: Result<Result<Plan, PlanError>, &str> =
        plan(&request(35, Role::Walk, Mapping::Sums), &lim, &mut |_| Err("no driver"));
    assert_eq!(failed, Err("no driver"));
}

#[test]
fn a_plans_blocks_per_sm_count_its_shared_memory() {
    let p = on_h100(&request(100, Role::Walk, Mapping::Sums)).unwrap();
    let lim = limits(90).unwrap();
    let (blocks, _) = blocks_per_sm(&lim, p.layout.shape.launched(), p.layout.dynamic_shared, p.registers);
    assert_eq!(p.blocks_per_sm, blocks);
    assert_eq!(blocks, 2, "tai100's walks: two an SM on 2-byte entries");
}
