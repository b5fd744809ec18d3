//! The native part of the `qapgpu` Python package: one solve on matrices given as flat
//! row-major i64 lists, and a batch of them (`solve_batch`), with the GIL released while it
//! runs and Ctrl-C turned into a stop (then `KeyboardInterrupt`); and the QAPLIB reader. `qapgpu/__init__.py` holds scipy's
//! call (array checks, dtypes, `maximize`, the result object) on top of these.
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use qapgpu::algo::ts::Effort;
use qapgpu::algo::{Backend, EngineChoice, Options};
use qapgpu::api::solve_on_all;
use qapgpu::batch::solve_batch as solve_batch_on;
use qapgpu::io::{Instance, qaplib};
use qapgpu::run::{Observer, Progress, StopRule, Stopped};
use qapgpu::solution::Solution;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// How long the watch waits, once `maxiter` steps are done, for the watchdog to stop the
/// solver (it looks at the interrupt flag every 2 ms).
const MAXITER_WAIT: Duration = Duration::from_millis(6);

/// What watches a run: the caller's progress callback, a start handed to the solver after
/// its first step, and a bound on its steps.
struct Watch {
    /// `callback(best, seconds)`, about every 0.25 s and at the end; a true return value
    /// stops the search with its best so far.
    cb: Option<Py<PyAny>>,
    /// The callback's exception: it stops the search and is re-raised once the run is over.
    error: Option<PyErr>,
    /// The run's interrupt flag, which a callback's stop (or exception) sets.
    stop: Arc<AtomicBool>,
    /// A start (cost, permutation), handed to the solver as an immigrant after its first step.
    start: Option<(i64, Vec<u16>)>,
    /// Stop after this many steps of the run loop (`maxiter`).
    max_steps: Option<u64>,
    /// Steps seen so far (`trace` is called once before the first step, then after each).
    traced: Option<u64>,
    /// What stopped the run early, if the watch did: "callback" or "maxiter".
    stopped_by: Option<&'static str>,
}

impl Observer for Watch {
    fn progress(&mut self, p: &Progress) {
        let Some(cb) = &self.cb else { return };
        if self.error.is_some() {
            return;
        }
        let stop = Python::with_gil(|py| cb.call1(py, (p.best, p.elapsed_s)).and_then(|v| v.is_truthy(py)));
        match stop {
            Ok(false) => return,
            Ok(true) => self.stopped_by = self.stopped_by.or(Some("callback")),
            Err(e) => self.error = Some(e),
        }
        self.stop.store(true, Ordering::SeqCst);
    }
    fn exchange_every_s(&self) -> Option<f64> {
        self.start.as_ref().map(|_| 0.0)
    }
    fn exchange(&mut self, _best: &(i64, Vec<u16>)) -> Option<(i64, Vec<u16>)> {
        self.start.take()
    }
    fn wants_trace(&self) -> bool {
        self.max_steps.is_some()
    }
    fn trace(&mut self, _elapsed_s: f64, _best: i64) {
        let steps = self.traced.map_or(0, |s| s + 1);
        self.traced = Some(steps);
        if self.max_steps.is_some_and(|m| steps >= m) && self.stopped_by.is_none() {
            self.stopped_by = Some("maxiter");
            // The run's watchdog turns the flag into the solver's stop word within a tick
            // (2 ms); waiting for it here keeps the next step from starting.
            self.stop.store(true, Ordering::SeqCst);
            std::thread::sleep(MAXITER_WAIT);
        }
    }
}

/// Devices opened by an earlier call, kept so that a Python session pays CUDA's start-up
/// (context, module) once: the key is what selects them, the notes say why there is no GPU.
type Opened = ((EngineChoice, Vec<usize>, usize), Vec<Backend>, Vec<String>);
static OPENED: Mutex<Option<Opened>> = Mutex::new(None);

/// The devices `opts` asks for, opened once per session and selection.
fn opened(opts: &Options) -> anyhow::Result<(Vec<Backend>, Vec<String>)> {
    let key = (opts.engine, opts.gpus.clone(), opts.threads);
    let mut cache = OPENED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((k, b, n)) = cache.as_ref()
        && *k == key
    {
        return Ok((b.clone(), n.clone()));
    }
    let notes = Mutex::new(Vec::new());
    let backends =
        Backend::open_all(opts, |why| notes.lock().unwrap_or_else(|p| p.into_inner()).push(why.to_string()))?;
    let notes = notes.into_inner().unwrap_or_else(|p| p.into_inner());
    *cache = Some((key, backends.clone(), notes.clone()));
    Ok((backends, notes))
}

/// The options of a call, from the values Python passes through, checked as every call
/// checks them (each error a `ValueError` naming the argument).
#[allow(clippy::too_many_arguments)]
fn options(
    algo: Option<String>,
    engine: &str,
    time_limit: f64,
    target: Option<i64>,
    seed: Option<u64>,
    gpus: Option<Vec<usize>>,
    threads: usize,
    stop: Option<&str>,
) -> PyResult<Options> {
    if !(time_limit > 0.0 && time_limit <= 1e9) {
        return Err(value_error(format!("time_limit = {time_limit}: must be in (0, 1e9] seconds")));
    }
    let engine = match engine {
        "auto" => EngineChoice::Auto,
        "gpu" => EngineChoice::Gpu,
        "cpu" => EngineChoice::Cpu,
        other => return Err(value_error(format!("engine = {other:?}: one of \"auto\", \"gpu\", \"cpu\""))),
    };
    let stop = match stop {
        None => StopRule::default_for(target),
        Some("time") => StopRule::Time,
        Some("converged") => StopRule::Converged,
        Some(other) => return Err(value_error(format!("stop = {other:?}: one of \"time\", \"converged\""))),
    };
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    });
    let gpus = gpus.unwrap_or_else(|| (0..host_gpu::device_count()).collect());
    let opts = Options {
        algorithm: algo,
        engine,
        threads,
        gpu: gpus.first().copied().unwrap_or(0),
        gpus,
        seed,
        target,
        stop,
        // Below a nanosecond, as on the command line, the limit is one nanosecond.
        time_limit: Some(Duration::from_secs_f64(time_limit).max(Duration::from_nanos(1))),
        ..Options::default()
    };
    opts.validate().map_err(value_error)?;
    Ok(opts)
}

/// Runs `work` on a thread of its own while this one waits for its answer without the GIL
/// and, every 50 ms without one, takes the GIL back to look for Ctrl-C (Python only sees
/// signals on its main thread). A signal sets `interrupt`, which ends the search with its
/// best so far; its exception comes back beside the answer. `first` is the GPU whose
/// context the thread takes: the devices were opened on the caller's thread, and some
/// engines issue driver calls that take the thread's current context.
fn detached<T: Send + 'static>(
    py: Python<'_>,
    first: Option<&Backend>,
    interrupt: &AtomicBool,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<(T, Option<PyErr>)> {
    let ctx = match first {
        Some(Backend::Gpu(g)) => Some(g.ctx.clone()),
        _ => None,
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        if let Some(ctx) = ctx {
            let _ = ctx.bind_to_thread();
        }
        let _ = tx.send(work());
    });
    let rx = Mutex::new(rx); // shared with the GIL-free closure (a receiver is not Sync)
    let mut interrupted = None;
    loop {
        match py.allow_threads(|| rx.lock().unwrap_or_else(|p| p.into_inner()).recv_timeout(Duration::from_millis(50)))
        {
            Ok(answer) => return Ok((answer, interrupted)),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    interrupt.store(true, Ordering::SeqCst);
                    interrupted = Some(e);
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Err(value_error("the solver's thread panicked"));
            }
        }
    }
}

/// The exception a Ctrl-C raises: Python's own `KeyboardInterrupt`, or one made for it where
/// the signal handler raised something else.
fn keyboard_interrupt(py: Python<'_>, e: PyErr) -> PyErr {
    if e.is_instance_of::<PyKeyboardInterrupt>(py) { e } else { PyKeyboardInterrupt::new_err("interrupted") }
}

/// A solution as the dict `qapgpu/__init__.py` reads: the permutation (0-based: `perm[i]` is
/// facility i's location), its cost and how it ran. `stopped_by` is the watch's own stop
/// ("maxiter", "callback"), where it stopped the run and no Ctrl-C did (`ctrl_c`).
fn solution_dict<'py>(
    py: Python<'py>,
    sol: &Solution,
    notes: &[String],
    stopped_by: Option<&'static str>,
    ctrl_c: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("perm", sol.perm().iter().map(|&g| g as usize).collect::<Vec<_>>())?;
    d.set_item("cost", sol.cost)?;
    d.set_item("algorithm", &sol.algorithm)?;
    d.set_item("engine", &sol.engine)?;
    d.set_item("device", &sol.device)?;
    d.set_item("seed", sol.seed)?;
    d.set_item("time_to_target", sol.time_to_target_s)?;
    d.set_item("elapsed", sol.elapsed_s)?;
    d.set_item("iterations", sol.iterations)?;
    d.set_item("unit", &sol.unit)?;
    d.set_item("interrupted", sol.interrupted)?;
    d.set_item("notes", notes.to_vec())?;
    d.set_item("stopped_by", stopped_by)?;
    // The watch's own stop (maxiter, the callback) sets the interrupt flag, which the loop
    // reads as an interruption: its reason is the watch's (Ctrl-C's stays "interrupted"; a
    // callback's True at the final report, once the run had ended, changes nothing).
    let stopped = match stopped_by {
        Some(by) if !ctrl_c && matches!(sol.stopped, Stopped::Interrupted | Stopped::Asked) => by,
        _ => sol.stopped.name(),
    };
    d.set_item("stopped", stopped)?;
    d.set_item("stop_rule", sol.stop_rule.name())?;
    d.set_item("last_improvement_s", sol.last_improvement_s)?;
    d.set_item("search_start_s", sol.search_start_s)?;
    Ok(d)
}

/// Solves the QAP of the n×n matrices `a` and `b` (row-major) and returns a dict with the
/// permutation (0-based: `perm[i]` is facility i's location), its cost and how it ran.
/// `start` (a permutation) is handed to the search after its first step; `max_steps` ends
/// the run after that many steps; an exception in `callback` stops the search and is
/// raised here once it has ended. `stop` is the stop rule ("time" or "converged"; None: the
/// library's default for the target, `StopRule::default_for`): the run goes through
/// `run::run_until` (`api::solve_on_all`), and the dict says why it stopped (`stopped`: the
/// loop's reason, or "maxiter" / "callback" where the watch stopped it), under which rule
/// (`stop_rule`) and when the `converged` rule last saw an improvement (`last_improvement_s`).
#[pyfunction]
#[pyo3(signature = (a, b, n, algo=None, engine="auto", time_limit=10.0, target=None, seed=None, gpus=None, threads=0, return_on_interrupt=false, callback=None, start=None, max_steps=None, stop=None, effort=None))]
#[allow(clippy::too_many_arguments)]
fn solve<'py>(
    py: Python<'py>,
    a: Vec<i64>,
    b: Vec<i64>,
    n: usize,
    algo: Option<String>,
    engine: &str,
    time_limit: f64,
    target: Option<i64>,
    seed: Option<u64>,
    gpus: Option<Vec<usize>>,
    threads: usize,
    return_on_interrupt: bool,
    callback: Option<Py<PyAny>>,
    start: Option<Vec<usize>>,
    max_steps: Option<u64>,
    stop: Option<&str>,
    effort: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let inst = Instance::new("python", n, a, b).map_err(value_error)?;
    let start = match start {
        Some(p) => {
            let perm: Vec<u16> = p.iter().map(|&g| u16::try_from(g).unwrap_or(u16::MAX)).collect();
            Some((inst.checked_cost(&perm).map_err(|e| value_error(format!("start: {e}")))?, perm))
        }
        None => None,
    };
    let named = gpus.is_some();
    let mut opts = options(algo, engine, time_limit, target, seed, gpus, threads, stop)?;
    opts.ts.effort = match effort {
        None | Some("auto") => Effort::Auto,
        Some("short") => Effort::Short,
        Some("long") => Effort::Long,
        Some(other) => return Err(value_error(format!("effort = {other:?}: one of \"auto\", \"short\", \"long\""))),
    };
    let (mut backends, notes) = opened(&opts).map_err(value_error)?;
    // Unless named, every GPU from n = 80 and one below, as the command line's `--gpus auto`
    // (`policy::gpus_for`); every device stays open for the session's next calls.
    if !named {
        backends.truncate(qapgpu::algo::policy::gpus_for(&inst, &opts.gpus).len().max(1));
    }
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = interrupt.clone();
    let first = backends.first().cloned();
    let ((answer, error, stopped_by), interrupted) = detached(py, first.as_ref(), &interrupt, move || {
        let mut watch =
            Watch { cb: callback, error: None, stop: flag.clone(), start, max_steps, traced: None, stopped_by: None };
        let answer = solve_on_all(&backends, &inst, &opts, &mut watch, &flag);
        (answer, watch.error, watch.stopped_by)
    })?;
    // The callback's exception, now that the search has ended and its thread is done.
    if let Some(e) = error {
        return Err(e);
    }
    let sol = answer.map_err(value_error)?;
    let ctrl_c = interrupted.is_some();
    if let Some(e) = interrupted
        && !return_on_interrupt
    {
        return Err(keyboard_interrupt(py, e));
    }
    solution_dict(py, &sol, &notes, stopped_by, ctrl_c)
}

/// Little-endian i64s from `bytes` (numpy's `astype('<i8').tobytes()`), which must hold
/// `n·n` of them.
fn matrix(name: &str, bytes: &[u8], n: usize) -> PyResult<Vec<i64>> {
    if bytes.len() != n * n * 8 {
        return Err(value_error(format!(
            "{name}: {} bytes, but an {n}×{n} matrix of int64 takes {}",
            bytes.len(),
            n * n * 8
        )));
    }
    Ok(bytes.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap_or_default())).collect())
}

/// Solves many QAPs at once (`qapgpu::batch::solve_batch`): `instances` are (A, B, n), each
/// matrix n×n int64 as little-endian bytes, and `names` their names (for errors and
/// results). One dict each, in order, as `solve` returns it; each instance's seed is drawn
/// from `seed` (`batch::instance_seed`). The batch runs on the first device `gpus` opens
/// (or the CPU, one instance per thread). Ctrl-C ends every search with its best so far and
/// raises `KeyboardInterrupt` unless `return_on_interrupt`.
#[pyfunction]
#[pyo3(signature = (instances, names, algo=None, engine="auto", time_limit=10.0, seed=None, gpus=None, threads=0, return_on_interrupt=false, stop=None))]
#[allow(clippy::too_many_arguments)]
fn solve_batch<'py>(
    py: Python<'py>,
    instances: Vec<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, usize)>,
    names: Vec<String>,
    algo: Option<String>,
    engine: &str,
    time_limit: f64,
    seed: Option<u64>,
    gpus: Option<Vec<usize>>,
    threads: usize,
    return_on_interrupt: bool,
    stop: Option<&str>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    if names.len() != instances.len() {
        return Err(value_error(format!("{} names for {} instances", names.len(), instances.len())));
    }
    let insts = instances
        .iter()
        .zip(&names)
        .map(|((a, b, n), name)| {
            let (a, b) =
                (matrix(&format!("{name}: A"), a.as_bytes(), *n)?, matrix(&format!("{name}: B"), b.as_bytes(), *n)?);
            Instance::new(name.clone(), *n, a, b).map_err(|e| value_error(format!("{name}: {e}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let opts = options(algo, engine, time_limit, None, seed, gpus, threads, stop)?;
    let (backends, notes) = opened(&opts).map_err(value_error)?;
    let backend = backends.into_iter().next().ok_or_else(|| value_error("gpus: no device opened"))?;
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = interrupt.clone();
    let first = backend.clone();
    let (answer, interrupted) =
        detached(py, Some(&first), &interrupt, move || solve_batch_on(&backend, &insts, &opts, &flag))?;
    let sols = answer.map_err(value_error)?;
    if let Some(e) = interrupted
        && !return_on_interrupt
    {
        return Err(keyboard_interrupt(py, e));
    }
    sols.iter().map(|sol| solution_dict(py, sol, &notes, None, false)).collect()
}

/// The seed instance `k` of a batch seeded `seed` runs with (`batch::instance_seed`).
#[pyfunction]
fn instance_seed(seed: u64, k: usize) -> u64 {
    qapgpu::batch::instance_seed(seed, k)
}

/// Reads a QAPLIB .dat file: (n, A, B), the matrices flat and row-major.
#[pyfunction]
fn read_qaplib(path: std::path::PathBuf) -> PyResult<(usize, Vec<i64>, Vec<i64>)> {
    let inst = qaplib::read_dat(&path).map_err(value_error)?;
    Ok((inst.n, inst.a, inst.b))
}

/// Writes the n×n matrices `a` and `b` (row-major) as a QAPLIB .dat file, after the checks
/// every instance gets.
#[pyfunction]
fn write_qaplib(path: std::path::PathBuf, n: usize, a: Vec<i64>, b: Vec<i64>) -> PyResult<()> {
    let inst = Instance::new(path.display().to_string(), n, a, b).map_err(value_error)?;
    qaplib::write_dat(&path, &inst).map_err(value_error)
}

/// The algorithms `method` may name besides "auto" (the registry's, in `--help`'s order).
#[pyfunction]
fn algorithms() -> Vec<&'static str> {
    qapgpu::algo::FAMILIES.iter().map(|f| f.name).collect()
}

/// Whether the GPU engine can run here, and if not why.
#[pyfunction]
fn gpu_unavailable_reason() -> Option<String> {
    host_gpu::unavailable_reason()
}

/// What this extension reads of the host crate's `gpu` module, in one place: whether the GPU
/// engine runs, the machine code the host embeds and what a GPU would load of it. A rename
/// there (per-kernel modules, more cubins) is one edit here.
mod host_gpu {
    /// Why a solve with `engine="auto"` runs the CPU engine, or None when it runs the GPU's.
    pub fn unavailable_reason() -> Option<String> {
        qapgpu::gpu::unavailable_reason(None)
    }

    /// CUDA devices the driver reports (0 without a driver).
    pub fn device_count() -> usize {
        qapgpu::gpu::device_count()
    }

    /// Bytes of PTX embedded (0: none, a CPU-only build).
    pub fn ptx_bytes() -> usize {
        qapgpu::gpu::EMBEDDED_PTX.len()
    }

    /// `EMBEDDED_CUBINS`' architectures and sizes, computed by the compiler: a `const` is
    /// copied where it is used, and reading the array at run time put a second copy of every
    /// cubin (39 MB) into this extension.
    const CUBIN_SIZES: [(u32, usize); qapgpu::gpu::EMBEDDED_CUBINS.len()] = {
        let cubins = qapgpu::gpu::EMBEDDED_CUBINS;
        let mut sizes = [(0, 0); qapgpu::gpu::EMBEDDED_CUBINS.len()];
        let mut i = 0;
        while i < sizes.len() {
            sizes[i] = (cubins[i].0, cubins[i].1.len());
            i += 1;
        }
        sizes
    };

    /// The embedded machine code: (architecture as major·10 + minor, bytes), each present.
    pub fn cubins() -> Vec<(u32, usize)> {
        CUBIN_SIZES.iter().copied().filter(|&(_, len)| len > 0).collect()
    }

    /// What a GPU of compute capability `arch` (major·10 + minor) loads, in the words of
    /// `Startup::code`: an embedded cubin, else the PTX compiled by the driver (also where
    /// `QAPGPU_JIT=1` asks for that).
    pub fn code_for(arch: u32) -> String {
        let jit_only = qapgpu::gpu::jit_forced();
        match qapgpu::gpu::cubin_to_load(arch) {
            Some((a, _)) => format!("sm_{a} machine code"),
            None if ptx_bytes() > 0 && jit_only => {
                format!("PTX, JIT-compiled for sm_{arch} ({}=1)", qapgpu::gpu::JIT_ENV)
            }
            None if ptx_bytes() > 0 => format!("PTX, JIT-compiled for sm_{arch}"),
            None => "nothing: no PTX embedded".into(),
        }
    }
}

/// One GPU as the driver describes it, read without creating a context (no module is
/// loaded, so nothing is JIT-compiled): ordinal, name, compute capability and memory.
struct GpuFacts {
    ordinal: usize,
    name: String,
    major: i32,
    minor: i32,
    memory: usize,
}

/// Every GPU the driver reports, and its version ("12.8"); none without a driver.
fn gpu_facts() -> Result<(Vec<GpuFacts>, Option<String>), String> {
    use cudarc::driver::result::{self, device};
    use cudarc::driver::sys::CUdevice_attribute as Attr;
    let count = host_gpu::device_count();
    if count == 0 {
        return Ok((Vec::new(), None));
    }
    let err = |e: cudarc::driver::DriverError| e.to_string();
    result::init().map_err(err)?;
    let mut version = 0;
    // SAFETY: the driver is loaded and initialised (device_count found devices); the
    // pointer is to a live c_int.
    let driver = (unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) }.result().is_ok())
        .then(|| format!("{}.{}", version / 1000, version % 1000 / 10));
    let mut gpus = Vec::with_capacity(count);
    for ordinal in 0..count {
        let dev = device::get(ordinal as i32).map_err(err)?;
        // SAFETY: `dev` was returned by `device::get`.
        let (major, minor, memory) = unsafe {
            (
                device::get_attribute(dev, Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR).map_err(err)?,
                device::get_attribute(dev, Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR).map_err(err)?,
                device::total_mem(dev).map_err(err)?,
            )
        };
        gpus.push(GpuFacts { ordinal, name: device::get_name(dev).map_err(err)?, major, minor, memory });
    }
    Ok((gpus, driver))
}

/// Which engine a solve with `engine="auto"` uses and why, the GPUs, and the machine code
/// this package carries (see `qapgpu.info`'s docstring for the keys).
#[pyfunction]
fn info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let reason = host_gpu::unavailable_reason();
    let d = PyDict::new(py);
    d.set_item("engine", if reason.is_none() { "gpu" } else { "cpu" })?;
    d.set_item("reason", &reason)?;
    let list = pyo3::types::PyList::empty(py);
    let (gpus, driver) = match gpu_facts() {
        Ok(found) => found,
        Err(e) => {
            d.set_item("gpu_error", e)?;
            (Vec::new(), None)
        }
    };
    for g in &gpus {
        let arch = (g.major * 10 + g.minor) as u32;
        let gd = PyDict::new(py);
        gd.set_item("ordinal", g.ordinal)?;
        gd.set_item("name", &g.name)?;
        gd.set_item("compute_capability", format!("{}.{}", g.major, g.minor))?;
        gd.set_item("arch", format!("sm_{arch}"))?;
        gd.set_item("memory_bytes", g.memory)?;
        gd.set_item("code", host_gpu::code_for(arch))?;
        list.append(gd)?;
    }
    d.set_item("gpus", list)?;
    d.set_item("driver", driver)?;
    d.set_item("ptx_bytes", host_gpu::ptx_bytes())?;
    let cubins = PyDict::new(py);
    for (arch, bytes) in host_gpu::cubins() {
        cubins.set_item(format!("sm_{arch}"), bytes)?;
    }
    d.set_item("cubins", cubins)?;
    Ok(d)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(info, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_batch, m)?)?;
    m.add_function(wrap_pyfunction!(instance_seed, m)?)?;
    m.add_function(wrap_pyfunction!(read_qaplib, m)?)?;
    m.add_function(wrap_pyfunction!(write_qaplib, m)?)?;
    m.add_function(wrap_pyfunction!(gpu_unavailable_reason, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    Ok(())
}
