//! The native part of the `qapgpu` Python package: one solve on matrices given as flat
//! row-major i64 lists, with the GIL released while it runs and Ctrl-C turned into a stop
//! (then `KeyboardInterrupt`); and the QAPLIB reader. `qapgpu/__init__.py` holds scipy's
//! call (array checks, dtypes, `maximize`, the result object) on top of these.
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qapgpu::algo::{Backend, EngineChoice, Options};
use qapgpu::api::solve_on_all;
use qapgpu::io::{Instance, qaplib};
use qapgpu::run::{Observer, Progress, Silent};
use std::sync::{Arc, Mutex};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The progress callback: called with (best cost, seconds) about every 0.25 s and at the
/// end; a true return value, or an exception, stops the search with its best so far.
struct Callback {
    cb: Py<PyAny>,
    stop: Arc<AtomicBool>,
}

impl Observer for Callback {
    fn progress(&mut self, p: &Progress) {
        let stop = Python::with_gil(|py| match self.cb.call1(py, (p.best, p.elapsed_s)) {
            Ok(v) => v.is_truthy(py).unwrap_or(true),
            Err(e) => {
                e.print(py);
                true
            }
        });
        if stop {
            self.stop.store(true, Ordering::SeqCst);
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
    if let Some((k, b, n)) = cache.as_ref() {
        if *k == key {
            return Ok((b.clone(), n.clone()));
        }
    }
    let notes = Mutex::new(Vec::new());
    let backends = Backend::open_all(opts, |why| notes.lock().unwrap_or_else(|p| p.into_inner()).push(why.to_string()))?;
    let notes = notes.into_inner().unwrap_or_else(|p| p.into_inner());
    *cache = Some((key, backends.clone(), notes.clone()));
    Ok((backends, notes))
}

/// Solves the QAP of the n×n matrices `a` and `b` (row-major) and returns a dict with the
/// permutation (0-based: `perm[i]` is facility i's location), its cost and how it ran.
#[pyfunction]
#[pyo3(signature = (a, b, n, algo=None, engine="auto", time_limit=10.0, target=None, seed=None, gpus=None, threads=0, return_on_interrupt=false, callback=None))]
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
) -> PyResult<Bound<'py, PyDict>> {
    let inst = Instance::new("python", n, a, b).map_err(value_error)?;
    if !(time_limit > 0.0 && time_limit <= 1e9) {
        return Err(value_error(format!("time_limit = {time_limit}: must be in (0, 1e9] seconds")));
    }
    let engine = match engine {
        "auto" => EngineChoice::Auto,
        "gpu" => EngineChoice::Gpu,
        "cpu" => EngineChoice::Cpu,
        other => return Err(value_error(format!("engine = {other:?}: one of \"auto\", \"gpu\", \"cpu\""))),
    };
    let seed = seed.unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64));
    let gpus = gpus.unwrap_or_else(|| (0..qapgpu::gpu::device_count()).collect());
    let opts = Options {
        algorithm: algo,
        engine,
        threads,
        gpu: gpus.first().copied().unwrap_or(0),
        gpus,
        seed,
        target,
        time_limit: Some(Duration::from_secs_f64(time_limit)),
        ..Options::default()
    };
    opts.validate().map_err(value_error)?;
    let (backends, notes) = opened(&opts).map_err(value_error)?;
    let interrupt = Arc::new(AtomicBool::new(false));
    // The solve runs on its own thread; this one waits for its answer without the GIL and,
    // every 50 ms without one, takes the GIL back to look for Ctrl-C (Python only sees
    // signals on its main thread).
    let flag = interrupt.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let answer = match callback {
            Some(cb) => solve_on_all(&backends, &inst, &opts, &mut Callback { cb, stop: flag.clone() }, &flag),
            None => solve_on_all(&backends, &inst, &opts, &mut Silent, &flag),
        };
        let _ = tx.send(answer);
    });
    let rx = Mutex::new(rx); // shared with the GIL-free closure (a receiver is not Sync)
    let mut interrupted = None;
    let answer = loop {
        match py.allow_threads(|| rx.lock().unwrap_or_else(|p| p.into_inner()).recv_timeout(Duration::from_millis(50))) {
            Ok(answer) => break answer,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    interrupt.store(true, Ordering::SeqCst);
                    interrupted = Some(e);
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Err(value_error("the solver's thread panicked")),
        }
    };
    let sol = answer.map_err(value_error)?;
    if let Some(e) = interrupted {
        if !return_on_interrupt {
            return Err(if e.is_instance_of::<PyKeyboardInterrupt>(py) { e } else { PyKeyboardInterrupt::new_err("interrupted") });
        }
    }
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
    d.set_item("notes", notes)?;
    Ok(d)
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

/// Whether the GPU engine can run here, and if not why.
#[pyfunction]
fn gpu_unavailable_reason() -> Option<String> {
    qapgpu::gpu::unavailable_reason(None)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(read_qaplib, m)?)?;
    m.add_function(wrap_pyfunction!(write_qaplib, m)?)?;
    m.add_function(wrap_pyfunction!(gpu_unavailable_reason, m)?)?;
    Ok(())
}
