//! The cellular GA kernels (tournament, crossover, elite, mutation, transposition, 2-opt and
//! greedy 2-opt in the `gene` and `move` mappings) against their CPU twin: same seed,
//! bit-identical populations, costs, RNG states and best-so-far. These tests need a GPU;
//! without one they are reported as ignored, with the reason (`qapgpu_tests::harness`).
use qapgpu::algo::cga::cpu::CgaCpu;
use qapgpu::algo::cga::gpu::CgaGpu;
use qapgpu::algo::cga::{CgaConfig, CgaEngine, LsMapping, Pass, Topology};
use qapgpu::gpu::Gpu;
use qapgpu::io::{Instance, qaplib};
use qapgpu_common::layout::Placement;
use qapgpu_tests::{case, gpu, negatives, small, zeros};

fn load(name: &str) -> Instance {
    qaplib::read_dat(&qaplib::resolve(name)).unwrap()
}

/// Init and `generations` generations on both engines, comparing every state.
fn twin(
    g: &Gpu,
    inst: &Instance,
    pass: Pass,
    topology: Topology,
    mapping: LsMapping,
    grid: (u32, u32),
    generations: u32,
) -> CgaGpu {
    twin_passes(g, inst, pass, topology, mapping, grid, generations, 1)
}

/// As `twin`, with `passes` local-search passes per generation.
#[allow(clippy::too_many_arguments)]
fn twin_passes(
    g: &Gpu,
    inst: &Instance,
    pass: Pass,
    topology: Topology,
    mapping: LsMapping,
    grid: (u32, u32),
    generations: u32,
    passes: u32,
) -> CgaGpu {
    let mut cfg = CgaConfig::paper(pass, topology);
    cfg.passes = passes;
    (cfg.w, cfg.h, cfg.mapping, cfg.seed) = (grid.0, grid.1, mapping, 99);
    // Mutation and transposition often, so that both paths run.
    (cfg.pm, cfg.pt) = (0.3, 0.5);
    let mut gpu = CgaGpu::new(g.clone(), inst, &cfg).unwrap();
    let mut cpu = CgaCpu::new(inst, &cfg, 2).unwrap();
    let what = format!("{} {pass:?} {topology:?} {mapping:?} {}x{} passes {passes}", inst.name, grid.0, grid.1);
    let compare = |gpu: &mut CgaGpu, cpu: &mut CgaCpu, step: &str| {
        let (s1, s2) = (gpu.snapshot().unwrap(), cpu.snapshot().unwrap());
        assert_eq!(s1.rng, s2.rng, "{what} {step}: RNG states differ");
        assert_eq!(s1.rows, s2.rows, "{what} {step}: populations differ");
        assert_eq!(s1.costs, s2.costs, "{what} {step}: costs differ");
        assert_eq!(s1.best, s2.best, "{what} {step}: best-so-far differs");
        assert_eq!(s1.elite, s2.elite, "{what} {step}: elite differs");
        for (p, &c) in s1.rows.iter().zip(&s1.costs) {
            assert_eq!(inst.cost(p), c, "{what} {step}: an individual's cost is wrong");
        }
    };
    gpu.init().unwrap();
    cpu.init().unwrap();
    compare(&mut gpu, &mut cpu, "after init");
    for k in 1..=generations {
        gpu.generation(k).unwrap();
        cpu.generation(k).unwrap();
        compare(&mut gpu, &mut cpu, &format!("after generation {k}"));
    }
    gpu
}

fn every_width_pass_mapping_and_topology() {
    let g = gpu();
    for inst in [load("nug12"), load("els19"), negatives()] {
        for pass in [Pass::Greedy, Pass::TwoOpt, Pass::Record] {
            for mapping in [LsMapping::Move, LsMapping::Gene] {
                for topology in [Topology::N4, Topology::N8, Topology::N16, Topology::N20, Topology::Random] {
                    twin(&g, &inst, pass, topology, mapping, (8, 8), 3);
                }
            }
        }
    }
}

fn odd_grids_and_degenerate_instances() {
    let g = gpu();
    for grid in [(5, 3), (1, 1), (2, 1), (33, 7)] {
        twin(&g, &load("had20"), Pass::Greedy, Topology::N20, LsMapping::Move, grid, 3);
    }
    for inst in [zeros(12), small(3, 50)] {
        for mapping in [LsMapping::Move, LsMapping::Gene] {
            twin(&g, &inst, Pass::Greedy, Topology::N8, mapping, (8, 8), 3);
        }
    }
}

fn large_instances_and_the_global_delta_table() {
    let g = gpu();
    let e = twin(&g, &load("tai60b"), Pass::Greedy, Topology::N8, LsMapping::Move, (8, 8), 2);
    assert_eq!(e.layout.delta_placement, Placement::Shared);
    twin(&g, &load("tai150b"), Pass::TwoOpt, Topology::N4, LsMapping::Gene, (4, 4), 1);
    let (big, _, _) = Instance::planted(256, 3);
    let e = twin(&g, &big, Pass::Greedy, Topology::N8, LsMapping::Move, (3, 3), 1);
    assert_eq!(e.layout.delta_placement, Placement::Global);
}

/// Several passes per generation, and passes until one improves nothing, in both mappings.
fn several_passes_and_passes_to_a_local_optimum() {
    let g = gpu();
    for inst in [load("nug12"), load("tai35b"), negatives()] {
        for pass in [Pass::Greedy, Pass::TwoOpt, Pass::Record] {
            for mapping in [LsMapping::Move, LsMapping::Gene] {
                for passes in [0, 3] {
                    twin_passes(&g, &inst, pass, Topology::N8, mapping, (8, 8), 3, passes);
                }
            }
        }
    }
}

fn main() -> std::process::ExitCode {
    qapgpu_tests::harness::run(vec![
        case!(every_width_pass_mapping_and_topology).gpu().qaplib(&["nug12", "els19"]),
        case!(odd_grids_and_degenerate_instances).gpu().qaplib(&["had20"]),
        case!(large_instances_and_the_global_delta_table).gpu().qaplib(&["tai60b", "tai150b"]),
        case!(several_passes_and_passes_to_a_local_optimum).gpu().qaplib(&["nug12", "tai35b"]),
    ])
}
