//! Several devices, one run, beyond independent searches: immigrants (the islands' ring and
//! MPI's exchange) taken by every family on both engines, islands and master/slave with CPU
//! "devices" and with two contexts on one GPU, and the master/slave colony on one device
//! against the plain colony (same seed, same bests iteration by iteration), and a device made
//! to fail mid-run dropped while the run goes on (two CPU devices, two GPUs). Without a GPU
//! the GPU tests are reported as ignored, with the reason, and the CPU ones run.
use qapgpu::algo::multi::{Model, of_solvers};
use qapgpu::algo::{Backend, Options, build, build_on};
use qapgpu::api::solve_on_all;
use qapgpu::bench;
use qapgpu::io::qaplib;
use qapgpu::run::stop::StopWord;
use qapgpu::run::{self, Advance, Counters, Limits, Silent, Solver, SolverInfo, Stopped};
use qapgpu_tests::{case, gpu, sln_of};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const FAMILIES: [&str; 7] = ["aco-ts", "aco-2opt", "ga-independent", "ga-islands", "cga", "ts", "memetic"];

fn optimum(name: &str) -> (qapgpu::Instance, i64, Vec<u16>) {
    let (inst, known) = bench::load(name).unwrap();
    let sln = qaplib::read_sln(&sln_of(&qaplib::resolve(name)).unwrap_or_else(|| panic!("no .sln of {name}"))).unwrap();
    assert_eq!(inst.cost(&sln.perm), known);
    (inst, known, sln.perm)
}

/// Every family on `backend` takes the best-known solution as an immigrant after its first
/// step, keeps it (its best is the immigrant after one more step) and refuses it a second
/// time.
fn immigrant_is_kept(backend: &Backend) {
    let (inst, known, perm) = optimum("tai60a"); // no family finds its best known in one step
    for algo in FAMILIES {
        let opts = Options { algorithm: Some(algo.into()), seed: 5, ..Options::default() };
        let mut s = build(backend, &inst, &opts).unwrap();
        s.init().unwrap();
        assert!(s.best().unwrap().0 > known, "{algo}: the best known before the immigrant came");
        assert!(s.immigrate(known, &perm).unwrap(), "{algo}: the immigrant was refused");
        assert!(!s.immigrate(known, &perm).unwrap(), "{algo}: the same immigrant taken twice");
        s.advance().unwrap();
        let (cost, p) = s.best().unwrap();
        assert_eq!((cost, inst.cost(&p)), (known, known), "{algo}: the immigrant was lost");
    }
}

fn every_family_keeps_an_immigrant_on_the_cpu() {
    immigrant_is_kept(&Backend::Cpu { threads: 2 });
}

fn every_family_keeps_an_immigrant_on_the_gpu() {
    let g = gpu();
    immigrant_is_kept(&Backend::Gpu(g));
}

fn opts(algo: &str, multi: Model, target: i64, seed: u64) -> Options {
    Options {
        algorithm: Some(algo.into()),
        multi,
        migrate_every: 2,
        target: Some(target),
        seed,
        time_limit: Some(Duration::from_secs(60)),
        ..Options::default()
    }
}

/// Islands and master/slave over `devices` reach nug12's and tai12b's optima and say how
/// they ran.
fn models_reach_the_target(devices: &[Backend]) {
    for name in ["nug12", "tai12b"] {
        let (inst, known) = bench::load(name).unwrap();
        for algo in FAMILIES {
            let sol = solve_on_all(
                devices,
                &inst,
                &opts(algo, Model::Islands, known, 7),
                &mut Silent,
                &AtomicBool::new(false),
            )
            .unwrap();
            assert_eq!(sol.cost, known, "{name} {algo} islands");
            assert!(sol.layout.contains("islands"), "{algo}: {}", sol.layout);
        }
        for algo in ["aco-ts", "aco-2opt"] {
            let sol = solve_on_all(
                devices,
                &inst,
                &opts(algo, Model::MasterSlave, known, 7),
                &mut Silent,
                &AtomicBool::new(false),
            )
            .unwrap();
            assert_eq!(sol.cost, known, "{name} {algo} master/slave");
            assert!(
                sol.layout.contains("master/slave") && sol.device.starts_with("2 devices"),
                "{}; {}",
                sol.layout,
                sol.device
            );
        }
    }
    let (inst, known) = bench::load("nug12").unwrap();
    let err = build_on(devices, &inst, &opts("ga-islands", Model::MasterSlave, known, 1))
        .err()
        .expect("master/slave is for the ACO");
    assert!(err.to_string().contains("--multi master-slave"), "{err}");
}

fn islands_and_master_slave_on_two_cpu_devices() {
    models_reach_the_target(&[Backend::Cpu { threads: 1 }, Backend::Cpu { threads: 1 }]);
}

fn islands_and_master_slave_on_two_contexts_of_one_gpu() {
    gpu(); // fails, saying why, where there is no GPU
    let two = [
        Backend::Gpu(qapgpu::gpu::Gpu::open(0, None).unwrap()),
        Backend::Gpu(qapgpu::gpu::Gpu::open(0, None).unwrap()),
    ];
    models_reach_the_target(&two);
}

/// The master/slave colony on one device is the plain colony: the host's τ is the kernels'
/// (same f32 operations in the same order), so every iteration's best is the same.
fn colony_on_one_device_is_the_colony(backend: &Backend) {
    let (inst, _) = bench::load("tai30b").unwrap();
    let mut o = Options { algorithm: Some("aco-ts".into()), multi: Model::MasterSlave, seed: 9, ..Options::default() };
    o.aco.ants = Some(24);
    o.aco.ls_iterations = Some(60);
    let mut plain = build(backend, &inst, &o).unwrap();
    let mut split = qapgpu::algo::aco::colony::build(std::slice::from_ref(backend), &inst, &o).unwrap();
    plain.init().unwrap();
    split.init().unwrap();
    for it in 0..8 {
        assert_eq!(plain.best().unwrap(), split.best().unwrap(), "iteration {it}");
        plain.advance().unwrap();
        split.advance().unwrap();
    }
    assert!(split.info().layout.contains("master/slave"));
}

fn colony_on_one_cpu_device_is_the_colony() {
    colony_on_one_device_is_the_colony(&Backend::Cpu { threads: 2 });
}

fn colony_on_one_gpu_is_the_colony() {
    let g = gpu();
    colony_on_one_device_is_the_colony(&Backend::Gpu(g));
}

/// A device's solver that fails at its `fail_at`-th step, as a failed launch does.
struct FailingAt {
    inner: Box<dyn Solver>,
    steps: u32,
    fail_at: u32,
}

impl Solver for FailingAt {
    fn info(&self) -> SolverInfo {
        self.inner.info()
    }
    fn stop_word(&self) -> Arc<StopWord> {
        self.inner.stop_word()
    }
    fn init(&mut self) -> anyhow::Result<()> {
        self.inner.init()
    }
    fn advance(&mut self) -> anyhow::Result<Advance> {
        self.steps += 1;
        anyhow::ensure!(self.steps < self.fail_at, "injected fault: the device failed at step {}", self.steps);
        self.inner.advance()
    }
    fn found(&mut self) -> anyhow::Result<Option<(i64, Vec<u16>)>> {
        self.inner.found()
    }
    fn best(&mut self) -> anyhow::Result<(i64, Vec<u16>)> {
        self.inner.best()
    }
    fn counters(&mut self) -> anyhow::Result<Counters> {
        self.inner.counters()
    }
    fn immigrate(&mut self, cost: i64, perm: &[u16]) -> anyhow::Result<bool> {
        self.inner.immigrate(cost, perm)
    }
}

/// Two devices searching tai60a together for 1.5 s, independently and as islands: the second
/// fails at its fifth step, is dropped, and the run goes on with the first to its limit; the
/// answer is a permutation costing what it says, and no worse than the healthy device's best
/// at the fault.
fn a_failing_device_is_dropped(backends: &[Backend; 2]) {
    let (inst, _) = bench::load("tai60a").unwrap();
    for multi in [Model::Independent, Model::Islands] {
        let opts = Options {
            algorithm: Some("ts".into()),
            multi,
            migrate_every: 2,
            seed: 11,
            time_limit: Some(Duration::from_millis(1500)),
            ..Options::default()
        };
        let healthy = build(&backends[0], &inst, &Options { seed: 1, ..opts.clone() }).unwrap();
        let failing = FailingAt {
            inner: build(&backends[1], &inst, &Options { seed: 2, ..opts.clone() }).unwrap(),
            steps: 0,
            fail_at: 5,
        };
        let mut solver =
            of_solvers(vec![("device 0".into(), healthy), ("device 1 (fails)".into(), Box::new(failing))], &opts);
        let limits = Limits { time_limit: opts.time_limit, known: None };
        let out = run::run(solver.as_mut(), &limits, &mut Silent, &AtomicBool::new(false)).unwrap();
        assert_eq!(out.stopped, Stopped::TimeLimit, "{multi:?}: the run did not go on to its limit");
        assert!(out.elapsed_s >= 1.4, "{multi:?}: ended after {} s", out.elapsed_s);
        assert_eq!(inst.cost(&out.perm), out.cost, "{multi:?}");
        assert!(qapgpu::perm::is_permutation(&out.perm, out.perm.len()), "{multi:?}");
    }
}

fn a_failing_device_is_dropped_on_two_cpu_devices() {
    a_failing_device_is_dropped(&[Backend::Cpu { threads: 1 }, Backend::Cpu { threads: 1 }]);
}

/// On the GPUs 0 and 1 where there are two, else on two contexts of GPU 0 (said on stderr).
fn a_failing_device_is_dropped_on_two_gpus() {
    gpu();
    let second = if qapgpu::gpu::device_count() >= 2 {
        1
    } else {
        eprintln!("one GPU: the two devices are two contexts of GPU 0");
        0
    };
    a_failing_device_is_dropped(&[
        Backend::Gpu(qapgpu::gpu::Gpu::open(0, None).unwrap()),
        Backend::Gpu(qapgpu::gpu::Gpu::open(second, None).unwrap()),
    ]);
}

fn main() -> std::process::ExitCode {
    qapgpu_tests::harness::run(vec![
        case!(every_family_keeps_an_immigrant_on_the_cpu).qaplib(&["tai60a"]),
        case!(every_family_keeps_an_immigrant_on_the_gpu).gpu().qaplib(&["tai60a"]),
        case!(islands_and_master_slave_on_two_cpu_devices).qaplib(&["nug12", "tai12b"]),
        case!(islands_and_master_slave_on_two_contexts_of_one_gpu).gpu().qaplib(&["nug12", "tai12b"]),
        case!(colony_on_one_cpu_device_is_the_colony).qaplib(&["tai30b"]),
        case!(colony_on_one_gpu_is_the_colony).gpu().qaplib(&["tai30b"]),
        case!(a_failing_device_is_dropped_on_two_cpu_devices).qaplib(&["tai60a"]),
        case!(a_failing_device_is_dropped_on_two_gpus).gpu().qaplib(&["tai60a"]),
    ])
}
