//! What every family's GPU engine shares: the CUDA context with the qapgpu module loaded,
//! device limits, matrices as raw bytes, the mapped stop word and memory checks. cudarc
//! loads the driver at run time, so this builds and its tests run on machines without CUDA.
use crate::io::Instance;
use crate::run::stop::{DeviceMirror, StopWord};
use anyhow::{Context, Result, bail};
use bytemuck::Pod;
use cudarc::driver::sys;
use cudarc::driver::sys::CUdevice_attribute as Attr;
use cudarc::driver::{CudaContext, CudaSlice, CudaStream, DevicePtr, PinnedHostSlice};
use cudarc::nvrtc::Ptx;
use qapgpu_common::elem::{Elem, ElemWidth};
use qapgpu_common::layout::DeviceLimits;
use std::path::Path;
use std::sync::{Arc, Mutex};

mod kernels;
pub use kernels::{JitLog, Kernels, PtxPart, parts};

/// The PTX built by `cargo xtask build-ptx` before this binary, split into one module a
/// kernel (`kernels::parts`; empty if it was not built).
pub static EMBEDDED_PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/qapgpu.modules.ptx"));

/// Machine code that ptxas assembled from the same PTX at build time, by architecture
/// (major·10 + minor); empty where ptxas was missing. Keep in step with `host/build.rs` and
/// `xtask/src/ptx.rs`'s `EMBEDDED_ARCHS`.
pub const EMBEDDED_CUBINS: [(u32, &[u8]); 5] = [
    (75, include_bytes!(concat!(env!("OUT_DIR"), "/qapgpu.sm_75.cubin"))),
    (80, include_bytes!(concat!(env!("OUT_DIR"), "/qapgpu.sm_80.cubin"))),
    (90, include_bytes!(concat!(env!("OUT_DIR"), "/qapgpu.sm_90.cubin"))),
    (100, include_bytes!(concat!(env!("OUT_DIR"), "/qapgpu.sm_100.cubin"))),
    (120, include_bytes!(concat!(env!("OUT_DIR"), "/qapgpu.sm_120.cubin"))),
];

/// Set to 1, the GPU engine JIT-compiles the PTX even where machine code is embedded (to
/// measure the first start of GPUs without it, or where a driver refuses a cubin).
pub const JIT_ENV: &str = "QAPGPU_JIT";
/// Largest `--ptx` file read (the build's is about 11 MB).
const PTX_BYTES: u64 = 256 << 20;

/// What this binary carries, in a line: "kernels: PTX 11.4 MB (78 modules), machine code
/// for sm_75 (7.1 MB), …".
pub fn embedded_code() -> String {
    if EMBEDDED_PTX.is_empty() {
        return "kernels: none embedded (run `cargo xtask build-ptx` before building)\n".into();
    }
    let modules = parts(EMBEDDED_PTX).map_or(1, |p| p.len());
    let cubins: Vec<String> = EMBEDDED_CUBINS
        .iter()
        .filter(|(_, c)| !c.is_empty())
        .map(|(a, c)| format!("sm_{a} ({:.1} MB)", c.len() as f64 / 1e6))
        .collect();
    let code = if cubins.is_empty() {
        "no machine code (every kernel is JIT-compiled on first use)".to_string()
    } else {
        format!("machine code for {}", cubins.join(", "))
    };
    format!("kernels: PTX {:.1} MB ({modules} modules), {code}\n", EMBEDDED_PTX.len() as f64 / 1e6)
}

/// The embedded cubin that runs on a GPU of compute capability `arch`: same major version,
/// the highest minor not above the GPU's (a cubin does not run across major versions).
pub fn cubin_for(arch: u32) -> Option<(u32, &'static [u8])> {
    cubin_among(&EMBEDDED_CUBINS, arch)
}

fn cubin_among<'a>(cubins: &[(u32, &'a [u8])], arch: u32) -> Option<(u32, &'a [u8])> {
    cubins.iter().filter(|(a, c)| !c.is_empty() && a / 10 == arch / 10 && *a <= arch).max_by_key(|(a, _)| *a).copied()
}

/// What a GPU engine paid before its first launch.
#[derive(Clone, Debug)]
pub struct Startup {
    /// Creating the CUDA context (driver initialisation included).
    pub context_s: f64,
    /// Loading the module: a cubin load, or the JIT compilation of a whole PTX file.
    pub module_s: f64,
    /// What was loaded: "sm_90 machine code", or PTX JIT-compiled for sm_XX kernel by kernel.
    pub code: String,
    /// The kernels' JIT compilations so far, where PTX is compiled as kernels are asked for.
    pub jit: Arc<Mutex<JitLog>>,
}

impl Startup {
    /// Seconds spent so far: context, module and JIT.
    pub fn seconds(&self) -> f64 {
        self.context_s + self.module_s + self.jit_log().seconds
    }

    fn jit_log(&self) -> JitLog {
        *self.jit.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What start-up cost and what was loaded, in one line.
    pub fn describe(&self) -> String {
        let jit = self.jit_log();
        let jit = if jit.modules > 0 {
            format!(", JIT {:.3} s for {} kernel modules", jit.seconds, jit.modules)
        } else {
            String::new()
        };
        format!(
            "{:.3} s (CUDA context {:.3} s, module {:.3} s: {}{jit})",
            self.seconds(),
            self.context_s,
            self.module_s,
            self.code
        )
    }
}

/// CUDA devices the driver reports (0 without a driver).
pub fn device_count() -> usize {
    // SAFETY: only probes whether the driver library can be loaded.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return 0;
    }
    CudaContext::device_count().map_or(0, |c| c.max(0) as usize)
}

/// Why the GPU engine cannot run here, or None when it can.
pub fn unavailable_reason(ptx: Option<&Path>) -> Option<String> {
    if ptx.is_none() && EMBEDDED_PTX.is_empty() {
        return Some(
            "no PTX embedded in this binary (run `cargo xtask build-ptx` before building, or pass --ptx)".into(),
        );
    }
    // SAFETY: only probes whether the driver library can be loaded.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Some("no CUDA driver found (libcuda.so)".into());
    }
    match CudaContext::device_count() {
        Ok(0) => Some("the CUDA driver reports no device".into()),
        Ok(_) => None,
        Err(e) => Some(format!("the CUDA driver could not be initialised: {e}")),
    }
}

/// The bytes of a parameter block, to copy to the device.
pub fn bytes_of<T: Pod>(v: &T) -> &[u8] {
    bytemuck::bytes_of(v)
}

/// A parameter block read back from the bytes the device wrote (exactly `size_of::<T>()`).
pub fn from_bytes<T: Pod>(b: &[u8]) -> T {
    bytemuck::pod_read_unaligned(b)
}

/// Kernels from PTX text: a split file (`kernels::parts`) compiled kernel by kernel on first
/// use, any other PTX (a `--ptx` file, or what `QAPGPU_PTX` gave the build) loaded whole now.
fn ptx_kernels(ctx: &Arc<CudaContext>, text: &'static str) -> Result<Kernels> {
    Ok(match parts(text) {
        Some(p) => Kernels::split(ctx.clone(), p),
        None => Kernels::whole(ctx.clone(), ctx.load_module(Ptx::from_src(text)).context("loading the PTX module")?),
    })
}

/// Whether `QAPGPU_JIT=1` asks for the PTX where machine code is embedded.
pub fn jit_forced() -> bool {
    std::env::var(JIT_ENV).is_ok_and(|v| v == "1")
}

/// The embedded cubin a GPU of compute capability `arch` loads: `cubin_for`, unless
/// `QAPGPU_JIT=1` asks for the PTX.
pub fn cubin_to_load(arch: u32) -> Option<(u32, &'static [u8])> {
    cubin_for(arch).filter(|_| !jit_forced())
}

/// One GPU with the qapgpu module loaded.
#[derive(Clone)]
pub struct Gpu {
    /// Its CUDA context.
    pub ctx: Arc<CudaContext>,
    /// The stream every kernel and copy of its engines runs on.
    pub stream: Arc<CudaStream>,
    /// The kernels: machine code, or PTX compiled as kernels are asked for.
    pub module: Arc<Kernels>,
    /// The device's name, as the driver gives it.
    pub name: String,
    /// What the layouts plan within: its compute capability and per-block and per-SM limits.
    pub limits: DeviceLimits,
    /// Streaming multiprocessors.
    pub sms: u32,
    /// What opening it cost.
    pub startup: Startup,
}

impl Gpu {
    /// Opens device `ordinal` and loads the kernels (the PTX file `ptx` where given, else the embedded code).
    pub fn open(ordinal: usize, ptx: Option<&Path>) -> Result<Gpu> {
        if let Some(why) = unavailable_reason(ptx) {
            bail!("GPU engine unavailable: {why}");
        }
        let t0 = std::time::Instant::now();
        let ctx = CudaContext::new(ordinal).context("creating a CUDA context")?;
        let context_s = t0.elapsed().as_secs_f64();
        // One stream computes; the stop word's stream only copies into a word the kernels
        // read through its address. So cudarc's per-buffer events, which every launch, copy
        // and fill would wait on and record once that second stream exists, order nothing
        // here and cost each call microseconds: the buffers are created without them.
        // SAFETY: no buffer is used on two streams (above), and none exists yet.
        unsafe { ctx.disable_event_tracking() };
        // A stream of its own, not the context's null stream: engines opened on the same
        // device (`--gpus 0,0`) then run their kernels side by side, not one after another.
        let stream = ctx.new_stream().context("creating the compute stream")?;
        let (major, minor) = ctx.compute_capability()?;
        let arch = (major * 10 + minor) as u32;
        let t1 = std::time::Instant::now();
        let how = |k: &Kernels| if k.split_ptx() { " kernel by kernel" } else { "" };
        let (module, code) = match (ptx, cubin_to_load(arch)) {
            (Some(p), _) => {
                let src = crate::io::input::read_text(p, PTX_BYTES)
                    .map_err(|e| anyhow::anyhow!("{}: cannot read PTX: {e}", p.display()))?;
                // The text lives as long as the process, as the embedded one does.
                let k = ptx_kernels(&ctx, Box::leak(src.into_boxed_str()))?;
                let code = format!("{}, JIT-compiled for sm_{arch}{}", p.display(), how(&k));
                (k, code)
            }
            (None, Some((a, cubin))) => match ctx.load_module(Ptx::from_binary(cubin.to_vec())) {
                Ok(m) => (Kernels::whole(ctx.clone(), m), format!("sm_{a} machine code")),
                // A driver that refuses the cubin still takes the PTX.
                Err(_) => {
                    let k = ptx_kernels(&ctx, EMBEDDED_PTX)?;
                    let code =
                        format!("PTX, JIT-compiled for sm_{arch}{} (the driver refused sm_{a} machine code)", how(&k));
                    (k, code)
                }
            },
            (None, None) => {
                let k = ptx_kernels(&ctx, EMBEDDED_PTX)?;
                let code = format!("PTX, JIT-compiled for sm_{arch}{}", how(&k));
                (k, code)
            }
        };
        let startup = Startup { context_s, module_s: t1.elapsed().as_secs_f64(), code, jit: module.jit_log() };
        let module = Arc::new(module);
        let attr = |a: Attr| -> Result<u32> { Ok(ctx.attribute(a)? as u32) };
        let limits = DeviceLimits {
            arch,
            shared_per_block_optin: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?,
            shared_per_sm: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?,
            reserved_per_block: attr(Attr::CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK)?,
            max_threads_per_sm: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?,
            max_blocks_per_sm: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR)?,
            regs_per_sm: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR)?,
        };
        let sms = attr(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
        Ok(Gpu { name: ctx.name()?, ctx, stream, module, limits, sms, startup })
    }

    /// The device address of `s`, as parameter blocks hold it.
    pub fn ptr<T>(&self, s: &CudaSlice<T>) -> u64 {
        let (p, _sync) = s.device_ptr(&self.stream);
        p
    }

    /// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)", for reports.
    pub fn describe(&self) -> String {
        format!("{} (sm_{}, {} SMs)", self.name, self.limits.arch, self.sms)
    }

    /// Fails with a one-line error when `bytes` of device memory for `what` exceed what is
    /// free on this GPU (checked before allocating).
    pub fn ensure_free(&self, bytes: u128, what: &str) -> Result<()> {
        let (free, _total) = self.ctx.mem_get_info().context("querying free GPU memory")?;
        if bytes > free as u128 {
            bail!(
                "{what} needs {} of GPU memory, more than the {} free on {}",
                crate::memory::human(bytes),
                crate::memory::human(free as u128),
                self.name
            );
        }
        Ok(())
    }

    /// A stop word whose device copy the kernels poll; the host writes it through the copy
    /// engine on a stream of its own, so the write lands while a kernel fills every SM.
    pub fn stop_word(&self) -> Result<StopWord> {
        Ok(StopWord::mirrored(Box::new(DeviceStop::new(self)?)))
    }
}

/// One `T` in page-locked host memory that kernels write through (mapped into the device's
/// address space): the host reads what a kernel wrote while that kernel still runs, with no
/// copy and no wait on the stream. The owner must let every kernel that may write it end
/// before dropping it (a stream synchronisation).
/// `T` is `Pod`: a kernel may leave any bytes in it.
pub struct HostMapped<T: Pod> {
    host: *mut T,
    device: u64,
}

// SAFETY: the allocation is plain page-locked memory; the owner serialises the host's
// accesses, and the device's writes are ordered by the kernels' system fences.
unsafe impl<T: Pod> Send for HostMapped<T> {}

impl<T: Pod> HostMapped<T> {
    /// Allocates one `T` on `gpu`, mapped into its address space, holding `value`.
    pub fn new(gpu: &Gpu, value: T) -> Result<HostMapped<T>> {
        gpu.ctx.bind_to_thread().context("binding the CUDA context")?;
        // SAFETY: the allocation has the size of T and is written before any read.
        unsafe {
            let host = cudarc::driver::result::malloc_host(std::mem::size_of::<T>(), sys::CU_MEMHOSTALLOC_DEVICEMAP)
                .context("allocating mapped host memory")? as *mut T;
            host.write(value);
            let mut device = 0;
            if let Err(e) = sys::cuMemHostGetDevicePointer_v2(&mut device, host.cast(), 0).result() {
                let _ = cudarc::driver::result::free_host(host.cast());
                return Err(e).context("mapping host memory into the device");
            }
            Ok(HostMapped { host, device })
        }
    }

    /// The address kernels write it at.
    pub fn device_ptr(&self) -> u64 {
        self.device
    }

    /// The raw host pointer, for volatile reads and writes of single fields. Pitfall: a
    /// kernel may write any field at any time; read the field it writes last first.
    pub fn as_ptr(&self) -> *mut T {
        self.host
    }
}

impl<T: Pod> Drop for HostMapped<T> {
    fn drop(&mut self) {
        // SAFETY: allocated by `malloc_host`; the owner let every writer end (type docs).
        unsafe {
            let _ = cudarc::driver::result::free_host(self.host.cast());
        }
    }
}

/// The device copy of a stop word: one u32 in device memory, and pinned host words 0 and
/// 1 to copy from.
struct DeviceStop {
    stream: Arc<CudaStream>,
    /// Owns the allocation at `device`.
    _word: CudaSlice<u32>,
    device: u64,
    values: PinnedHostSlice<u32>,
}

// SAFETY: the copies go through the driver, which is thread-safe; `values` is written
// once, before the word is shared.
unsafe impl Sync for DeviceStop {}

impl DeviceStop {
    fn new(gpu: &Gpu) -> Result<DeviceStop> {
        // A stream of its own: its copies do not wait for the compute stream's kernels.
        let stream = gpu.ctx.new_stream().context("creating the stop word's stream")?;
        let word = stream.alloc_zeros::<u32>(1).context("allocating the stop word")?;
        // SAFETY: written below before any use.
        let mut values = unsafe { gpu.ctx.alloc_pinned::<u32>(2) }.context("allocating the stop word")?;
        values.as_mut_slice().context("allocating the stop word")?.copy_from_slice(&[0, 1]);
        let device = {
            let (p, _sync) = word.device_ptr(&stream);
            p
        };
        stream.synchronize()?;
        Ok(DeviceStop { stream, _word: word, device, values })
    }
}

impl DeviceMirror for DeviceStop {
    fn write(&self, value: u32, wait: bool) {
        let ctx = self.stream.context();
        let Ok(src) = self.values.as_ptr() else { return };
        // SAFETY: `src` points to two pinned u32 that live as long as `self`; `device` is
        // the 4-byte allocation `self.word`. A failed copy only delays the stop to the
        // run loop's next check between launches.
        unsafe {
            let _ = ctx.bind_to_thread();
            let _ = sys::cuMemcpyHtoDAsync_v2(
                self.device,
                src.add(value.min(1) as usize).cast(),
                4,
                self.stream.cu_stream(),
            );
        }
        if wait {
            let _ = self.stream.synchronize();
        }
    }

    fn device_ptr(&self) -> u64 {
        self.device
    }
}

fn element_bytes<E: Elem + TryFrom<i64> + Pod>(values: &[i64]) -> Vec<u8> {
    let typed: Vec<E> = crate::io::instance::in_width(values);
    let mut v = bytemuck::cast_slice::<E, u8>(&typed).to_vec();
    v.resize(v.len().div_ceil(16) * 16, 0); // kernels copy whole words
    v
}

/// A matrix as raw bytes of the element type `width`, padded to 16 bytes. Panics where an
/// entry does not fit `width` (an instance's own width holds its entries).
pub fn device_matrix(width: ElemWidth, values: &[i64]) -> Vec<u8> {
    match width {
        ElemWidth::U16 => element_bytes::<u16>(values),
        ElemWidth::U32 => element_bytes::<u32>(values),
        ElemWidth::I32 => element_bytes::<i32>(values),
    }
}

/// A and B as raw bytes of the instance's element type, padded to 16 bytes.
pub fn device_matrices(inst: &Instance) -> (Vec<u8>, Vec<u8>) {
    (device_matrix(inst.width, &inst.a), device_matrix(inst.width, &inst.b))
}

/// Writes member `k` of a population kept as rows of `stride` bytes (`rows`) and their costs
/// (`costs`): its first `perm.len()` genes and its cost. Used to put an immigrant in.
pub fn put_row(
    stream: &Arc<CudaStream>,
    rows: &mut CudaSlice<u8>,
    costs: &mut CudaSlice<i64>,
    stride: usize,
    k: usize,
    perm: &[u8],
    cost: i64,
) -> Result<()> {
    stream.memcpy_htod(perm, &mut rows.slice_mut(k * stride..k * stride + perm.len()))?;
    stream.memcpy_htod(&[cost], &mut costs.slice_mut(k..k + 1))?;
    stream.synchronize()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cubin_is_picked_only_within_its_major_version() {
        let code: &[u8] = &[1];
        let table = [(75, code), (80, code), (90, code), (100, code), (120, code)];
        let pick = |arch| cubin_among(&table, arch).map(|(a, _)| a);
        assert_eq!(
            [pick(75), pick(80), pick(86), pick(89), pick(90)],
            [Some(75), Some(80), Some(80), Some(80), Some(90)]
        );
        assert_eq!([pick(100), pick(103), pick(120), pick(121)], [Some(100), Some(100), Some(120), Some(120)]);
        // Older than the oldest, or a major version without machine code: the PTX is JIT-compiled.
        assert_eq!([pick(70), pick(110), pick(130)], [None, None, None]);
        // An empty cubin (ptxas was missing at build time) is never picked.
        assert_eq!(cubin_among(&[(90, &[][..])], 90), None);
    }

    #[test]
    fn the_embedded_ptx_is_split_or_absent() {
        // Empty where `cargo xtask build-ptx` did not run before the build.
        if !EMBEDDED_PTX.is_empty() {
            let parts = parts(EMBEDDED_PTX).expect("the embedded PTX is the split file");
            assert!(parts.iter().any(|p| p.entries.contains(&"aco_best")));
            assert!(parts.iter().any(|p| p.globals.contains(&"QAP_CONST_A")));
        }
    }
}
