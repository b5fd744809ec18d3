//! The harness of the test binaries with GPU cases (`harness = false` in Cargo.toml), on
//! libtest-mimic: a list of cases, each saying whether it needs the GPU and which QAPLIB
//! instances it loads. A case that cannot run here (no GPU, an instance not found) is
//! reported as ignored, not passed, and one line after the run says how many were skipped
//! and why: `N GPU tests skipped: <reason>`, `N tests skipped: QAPLIB instance X not found
//! (set QAPLIB_DIR)`. The other cases of the binary run as usual. Forced to run
//! (`--include-ignored`, `--ignored`), such a case fails with that reason.
use libtest_mimic::{Arguments, Failed, FormatSetting, Trial};
use std::collections::BTreeMap;
use std::process::ExitCode;

/// One test: its name, its body, whether it needs the GPU and the QAPLIB instances it loads.
pub struct Case {
    name: &'static str,
    body: fn(),
    gpu: bool,
    instances: &'static [&'static str],
}

/// The case of the test function `f`, named after it.
#[macro_export]
macro_rules! case {
    ($f:ident) => {
        $crate::harness::Case::new(stringify!($f), $f)
    };
}

impl Case {
    pub fn new(name: &'static str, body: fn()) -> Self {
        Case { name, body, gpu: false, instances: &[] }
    }

    /// The case needs the GPU (its body calls `crate::gpu()`).
    pub fn gpu(self) -> Self {
        Case { gpu: true, ..self }
    }

    /// The QAPLIB instances the case loads by name.
    pub fn qaplib(self, instances: &'static [&'static str]) -> Self {
        Case { instances, ..self }
    }

    /// Why the case cannot run here: the summary line's text after the count, and the
    /// message of a forced run.
    fn obstacle(&self, no_gpu: Option<&str>) -> Option<(String, String)> {
        if let (true, Some(why)) = (self.gpu, no_gpu) {
            return Some((format!("GPU tests skipped: {why}"), format!("this test needs a GPU: {why}")));
        }
        let missing = self.instances.iter().find(|name| !qapgpu::io::qaplib::resolve(name).is_file())?;
        let path = qapgpu::io::qaplib::resolve(missing);
        Some((
            format!("tests skipped: QAPLIB instance {missing} not found (set QAPLIB_DIR)"),
            format!("QAPLIB instance {missing} not found: {} (set QAPLIB_DIR)", path.display()),
        ))
    }
}

/// Runs `cases` with the command line's options (filters, `--list`, `--ignored`,
/// `--test-threads`, ...), then prints a line per reason for the cases skipped; the exit
/// code is libtest's.
pub fn run(cases: Vec<Case>) -> ExitCode {
    let args = Arguments::from_args();
    let no_gpu = if cases.iter().any(|c| c.gpu) { qapgpu::gpu::unavailable_reason(None) } else { None };
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    let trials = cases
        .into_iter()
        .map(|case| {
            let obstacle = case.obstacle(no_gpu.as_deref());
            let body = case.body;
            let forced = obstacle.as_ref().map(|(_, message)| message.clone());
            let trial = Trial::test(case.name, move || match forced {
                Some(message) => Err(Failed::from(message)),
                None => {
                    body();
                    Ok(())
                }
            })
            .with_ignored_flag(obstacle.is_some());
            if let Some((line, _)) = obstacle
                && args.is_ignored(&trial)
                && !args.is_filtered_out(&trial)
            {
                *skipped.entry(line).or_default() += 1;
            }
            trial
        })
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    if !args.list {
        for (line, count) in skipped {
            // JSON output keeps stdout to its own lines.
            if matches!(args.format, Some(FormatSetting::Json)) {
                eprintln!("{count} {line}");
            } else {
                println!("{count} {line}");
            }
        }
    }
    conclusion.exit_code()
}
