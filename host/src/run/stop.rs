//! The stop word every engine polls while it works, and the watchdog that sets it when the
//! time limit passes or Ctrl-C arrives, so that a run stops inside a long launch or a long
//! local search instead of after it.
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A copy of the stop word in device memory, which kernels poll (`GaParams::stop`).
pub trait DeviceMirror: Send + Sync {
    /// Writes `value` while kernels may be running (`wait`: until it has landed).
    fn write(&self, value: u32, wait: bool);
    /// The device address kernels poll.
    fn device_ptr(&self) -> u64;
}

/// 0 = go on, 1 = stop. CPU engines read the host word; GPU engines give it a device
/// mirror (`Gpu::stop_word`) that their kernels poll.
pub struct StopWord {
    flag: AtomicU32,
    mirror: Option<Box<dyn DeviceMirror>>,
}

impl StopWord {
    /// A word for CPU engines.
    pub fn host() -> StopWord {
        StopWord { flag: AtomicU32::new(0), mirror: None }
    }

    /// A word with a device copy for GPU engines.
    pub fn mirrored(mirror: Box<dyn DeviceMirror>) -> StopWord {
        StopWord { flag: AtomicU32::new(0), mirror: Some(mirror) }
    }

    /// Asks every engine reading this word to stop (callable while kernels run).
    pub fn set(&self) {
        self.flag.store(1, Ordering::SeqCst);
        if let Some(m) = &self.mirror {
            m.write(1, false);
        }
    }

    /// Lets work go on again; call only when no kernel runs.
    pub fn clear(&self) {
        self.flag.store(0, Ordering::SeqCst);
        if let Some(m) = &self.mirror {
            m.write(0, true);
        }
    }

    /// Whether a stop is asked for.
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed) != 0
    }

    /// The device address kernels poll (0 without a mirror: kernels never stop early).
    pub fn device_ptr(&self) -> u64 {
        self.mirror.as_ref().map_or(0, |m| m.device_ptr())
    }
}

/// How often the watchdog looks at the clock and at Ctrl-C.
const TICK: Duration = Duration::from_millis(2);

/// Runs `body` while a watchdog thread sets `word` once `deadline` passes or `interrupt`
/// is raised. The watchdog ends with `body`.
pub fn with_watchdog<R>(
    word: &StopWord,
    deadline: Option<Instant>,
    interrupt: &AtomicBool,
    body: impl FnOnce() -> R,
) -> R {
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if interrupt.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                    word.set();
                    return;
                }
                let left = deadline.map_or(TICK, |d| d.saturating_duration_since(Instant::now()));
                std::thread::sleep(left.min(TICK));
            }
        });
        let r = body();
        done.store(true, Ordering::Relaxed);
        r
    })
}
