//! Where a GPU's kernels come from: the embedded machine code of its architecture, loaded
//! whole at start-up (0.2 s), or else PTX modules of one kernel each (`cargo xtask
//! build-ptx` splits them, `xtask/src/ptx_split.rs`), each JIT-compiled the first time a run
//! asks for one of its kernels, so that a run pays only for the kernels it uses.
use anyhow::{Context, Result, anyhow};
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream, CudaViewMut};
use cudarc::nvrtc::Ptx;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// The line that opens each module of a split PTX file (`xtask/src/ptx_split.rs`).
const MARKER: &str = "//@qapgpu-module";

/// One PTX module of a split file: the kernels it holds, the variables the host may write
/// in it, and its text.
#[derive(Debug, Clone, PartialEq)]
pub struct PtxPart<'a> {
    /// Names of the kernels (`.entry`) the module holds.
    pub entries: Vec<&'a str>,
    /// Names of the variables in the module that the host may write.
    pub globals: Vec<&'a str>,
    /// The module's PTX text, without its marker line.
    pub text: &'a str,
}

/// The modules of a split PTX file; None where `text` is not split (one plain module).
pub fn parts(text: &str) -> Option<Vec<PtxPart<'_>>> {
    if !text.starts_with(MARKER) {
        return None;
    }
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(body) = rest.strip_prefix(MARKER) {
        let (head, after) = body.split_once('\n').unwrap_or((body, ""));
        let end = after.find(&format!("\n{MARKER}")).map_or(after.len(), |k| k + 1);
        let list = |key: &str| -> Vec<&str> {
            head.split_whitespace()
                .find_map(|f| f.strip_prefix(key))
                .map_or(Vec::new(), |v| v.split(',').filter(|s| !s.is_empty()).collect())
        };
        out.push(PtxPart { entries: list("entries="), globals: list("globals="), text: &after[..end] });
        rest = &after[end..];
    }
    Some(out)
}

/// What the JIT compiled during a run: seconds and kernels' modules.
#[derive(Debug, Default, Clone, Copy)]
pub struct JitLog {
    /// Seconds spent JIT-compiling.
    pub seconds: f64,
    /// Modules compiled.
    pub modules: usize,
}

enum Source {
    /// One module, loaded at start-up: machine code, or a PTX file given whole.
    Whole(Arc<CudaModule>),
    /// Split PTX, each part loaded (JIT-compiled) on first use.
    Split { parts: Vec<PtxPart<'static>>, loaded: Vec<OnceLock<Arc<CudaModule>>> },
}

/// The kernels of one CUDA context (`Gpu::module`).
pub struct Kernels {
    ctx: Arc<CudaContext>,
    source: Source,
    jit: Arc<Mutex<JitLog>>,
}

impl Kernels {
    /// Kernels from one module loaded whole.
    pub fn whole(ctx: Arc<CudaContext>, module: Arc<CudaModule>) -> Kernels {
        Kernels { ctx, source: Source::Whole(module), jit: Arc::default() }
    }

    /// Kernels from split PTX, compiled as they are asked for.
    pub fn split(ctx: Arc<CudaContext>, parts: Vec<PtxPart<'static>>) -> Kernels {
        let loaded = parts.iter().map(|_| OnceLock::new()).collect();
        Kernels { ctx, source: Source::Split { parts, loaded }, jit: Arc::default() }
    }

    /// Whether the kernels come from split PTX, compiled as they are asked for.
    pub fn split_ptx(&self) -> bool {
        matches!(self.source, Source::Split { .. })
    }

    /// The record of JIT compilations, shared with `Startup` for the report.
    pub fn jit_log(&self) -> Arc<Mutex<JitLog>> {
        self.jit.clone()
    }

    /// The module holding the kernel or variable `name`, JIT-compiling it on first use.
    fn module_of(&self, name: &str, is_global: bool) -> Result<&Arc<CudaModule>> {
        let (parts, loaded) = match &self.source {
            Source::Whole(m) => return Ok(m),
            Source::Split { parts, loaded } => (parts, loaded),
        };
        let k = parts
            .iter()
            .position(|p| if is_global { p.globals.contains(&name) } else { p.entries.contains(&name) })
            .ok_or_else(|| anyhow!("kernel {name} missing from the PTX"))?;
        if let Some(m) = loaded[k].get() {
            return Ok(m);
        }
        let t = Instant::now();
        let module = self
            .ctx
            .load_module(Ptx::from_src(parts[k].text))
            .with_context(|| format!("JIT-compiling the PTX of {}", parts[k].entries.join(", ")))?;
        // Two threads may compile the same part at once; both results are valid.
        let module = loaded[k].get_or_init(|| module);
        let mut log = self.jit.lock().unwrap_or_else(|e| e.into_inner());
        log.seconds += t.elapsed().as_secs_f64();
        log.modules += 1;
        Ok(module)
    }

    /// The kernel `name`, JIT-compiling its module on first use.
    pub fn load_function(&self, name: &str) -> Result<CudaFunction> {
        self.module_of(name, false)?.load_function(name).with_context(|| format!("kernel {name} missing from the PTX"))
    }

    /// The device variable `name` (a `.visible` global the host writes).
    pub fn get_global<'a>(&'a self, name: &str, stream: &'a Arc<CudaStream>) -> Result<CudaViewMut<'a, u8>> {
        self.module_of(name, true)?
            .get_global(name, stream)
            .with_context(|| format!("variable {name} missing from the PTX"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_file_gives_its_parts_and_a_plain_file_none() {
        let text = "//@qapgpu-module entries=a globals=\n.version 7.0\n.visible .entry a()\n{\n}\n//@qapgpu-module entries=b,c globals=G\n.version 7.0\n.visible .const .b8 G[4];\n";
        let p = parts(text).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].entries.as_slice(), p[0].globals.len()), (&["a"][..], 0));
        assert_eq!(p[0].text, ".version 7.0\n.visible .entry a()\n{\n}\n");
        assert_eq!((p[1].entries.as_slice(), p[1].globals.as_slice()), (&["b", "c"][..], &["G"][..]));
        assert!(p[1].text.ends_with("G[4];\n"));
        assert_eq!(parts(".version 7.0\n"), None);
        assert_eq!(parts("").map(|p| p.len()), None);
    }
}
