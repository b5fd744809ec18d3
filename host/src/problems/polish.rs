//! Improvement in a posed problem's own terms, beside the QAP search.
//!
//! Each problem that has one gives a `Polish`: a local search over its answer (2-opt and
//! Or-opt for tours, add and 1-swap moves for cliques, pair swaps between parts for a
//! partition, adjacent swaps for an arrangement), iterated with kicks under `Mode::Ils`.
//! `Hybrid` runs it on a thread of its own while the QAP search runs: `Polishing`, an
//! observer of the run loop, offers it the search's best every `EXCHANGE_S` and hands the
//! search the polish's better answers back as immigrants, after the problem's construction
//! heuristics' starts (`Posed::starts`), one a step. The search and the polish thus work on
//! each other's best; the report says what each ended with.
use crate::io::Instance;
use crate::run::{Observer, Progress};
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What improves a posed problem's answer (`--polish`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The problem's local search, iterated with kicks all along the run (the default).
    #[default]
    Ils,
    /// The problem's local search to a local optimum, on the starts and on each better
    /// answer of the QAP search.
    Descent,
    /// None: the QAP search alone (with the construction heuristics' starts).
    None,
}

/// A problem's own improvement of its QAP's permutations.
pub trait Polish: Send {
    /// What it does, in words, for the report.
    fn describe(&self) -> &'static str;
    /// A permutation of the same QAP at least as good as `perm` in the problem's terms: a
    /// local optimum (`iterate` false), or the best of an iterated search run until `stop`.
    fn improve(&mut self, perm: &[u16], iterate: bool, stop: &dyn Fn() -> bool) -> Vec<u16>;
}

/// Seconds between two exchanges of the run loop with the polish.
pub const EXCHANGE_S: f64 = 0.02;
/// Longest stretch of the iterated search between two looks at the search's offers.
const ROUND: Duration = Duration::from_millis(50);

/// A costed permutation of the QAP.
type Costed = (i64, Vec<u16>);

#[derive(Default)]
struct Shared {
    /// The search's best, offered and not yet taken up.
    offered: Option<Costed>,
    /// The polish's best so far.
    best: Option<Costed>,
    /// The best start, after the local search (what the constructions alone give).
    start: Option<i64>,
    /// Rounds of improvement so far.
    rounds: u64,
}

/// What the polish did, for the report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// `--polish`.
    pub mode: Mode,
    /// What the polish does, in words.
    pub method: &'static str,
    /// QAP cost of the best construction after the local search.
    pub start_cost: Option<i64>,
    /// QAP cost of the polish's best.
    pub polished_cost: Option<i64>,
    /// Answers of the polish the QAP search took in as immigrants.
    pub immigrants_taken: u64,
    /// Rounds of improvement.
    pub rounds: u64,
}

/// The polish, on a thread of its own while a QAP search runs.
pub struct Hybrid {
    mode: Mode,
    method: &'static str,
    shared: Arc<Mutex<Shared>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

fn lock(m: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Hybrid {
    /// Starts `polish` on `inst`'s QAP from `starts` (permutations; the best after the local
    /// search is where it goes on from). `Mode::None` starts nothing.
    pub fn start(inst: &Instance, mut polish: Box<dyn Polish>, starts: Vec<Vec<u16>>, mode: Mode) -> Hybrid {
        let method = match mode {
            Mode::Ils => polish.describe(),
            Mode::Descent => polish.describe().split(", iterated").next().unwrap_or_default(),
            Mode::None => "none: the QAP search with the constructions' starts",
        };
        let shared = Arc::new(Mutex::new(Shared::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = (mode != Mode::None).then(|| {
            let (shared, stop, inst) = (shared.clone(), stop.clone(), inst.clone());
            std::thread::spawn(move || run(&inst, polish.as_mut(), starts, mode, &shared, &stop))
        });
        Hybrid { mode, method, shared, stop, thread }
    }

    /// The polish's best so far.
    pub fn best(&self) -> Option<Costed> {
        lock(&self.shared).best.clone()
    }

    fn offer(&self, best: &Costed) {
        let mut s = lock(&self.shared);
        let better = |c: &Option<Costed>| c.as_ref().is_none_or(|o| best.0 < o.0);
        if better(&s.offered) && better(&s.best) {
            s.offered = Some(best.clone());
        }
    }

    /// Stops the thread (it ends within one look at its stop flag); its report and its best
    /// answer. `taken`: its answers the search took in.
    pub fn finish(mut self, taken: u64) -> (Report, Option<Costed>) {
        self.halt();
        let s = lock(&self.shared);
        let report = Report {
            mode: self.mode,
            method: self.method,
            start_cost: s.start,
            polished_cost: s.best.as_ref().map(|b| b.0),
            immigrants_taken: taken,
            rounds: s.rounds,
        };
        (report, s.best.clone())
    }
}

impl Hybrid {
    /// Stops the thread and waits for it (once; a polish that panicked leaves the search's
    /// answer standing).
    fn halt(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Hybrid {
    fn drop(&mut self) {
        self.halt();
    }
}

/// The polish thread: the starts to local optima, then rounds of improvement from the best
/// known (its own or the search's offer, whichever is better) until stopped.
fn run(
    inst: &Instance,
    polish: &mut dyn Polish,
    starts: Vec<Vec<u16>>,
    mode: Mode,
    shared: &Mutex<Shared>,
    stop: &AtomicBool,
) {
    let stopped = || stop.load(Ordering::Relaxed);
    let mut best: Option<Costed> = None;
    let keep = |best: &mut Option<Costed>, perm: Vec<u16>| {
        let cost = inst.cost(&perm);
        if best.as_ref().is_none_or(|b| cost < b.0) {
            *best = Some((cost, perm));
            lock(shared).best = best.clone();
        }
    };
    for s in starts {
        if stopped() {
            break;
        }
        let p = polish.improve(&s, false, &stopped);
        keep(&mut best, p);
    }
    lock(shared).start = best.as_ref().map(|b| b.0);
    while !stopped() {
        let offer = lock(shared).offered.take();
        let from = match (offer, &best) {
            (Some(o), Some(b)) if o.0 < b.0 => o.1,
            (Some(o), None) => o.1,
            (_, Some(b)) if mode == Mode::Ils => b.1.clone(),
            _ => {
                // Descent waits for the search's next better answer.
                std::thread::sleep(Duration::from_millis(2));
                continue;
            }
        };
        let round = Instant::now();
        let until = || stopped() || round.elapsed() >= ROUND;
        let p = polish.improve(&from, mode == Mode::Ils, &until);
        keep(&mut best, p);
        lock(shared).rounds += 1;
    }
}

/// The run loop's side of the polish: wraps the observer the run would have had, offers the
/// polish the search's best, and hands the search the starts, then the polish's better
/// answers.
pub struct Polishing<'o> {
    inner: &'o mut dyn Observer,
    hybrid: Option<&'o Hybrid>,
    starts: VecDeque<Costed>,
    handed: i64,
    /// The polish's answers the search took in so far.
    pub taken: u64,
}

impl<'o> Polishing<'o> {
    /// `starts`: the constructions' permutations, each handed to the search once.
    pub fn new(
        inst: &Instance,
        inner: &'o mut dyn Observer,
        hybrid: Option<&'o Hybrid>,
        starts: &[Vec<u16>],
    ) -> Polishing<'o> {
        let starts = starts.iter().map(|p| (inst.cost(p), p.clone())).collect();
        Polishing { inner, hybrid, starts, handed: i64::MAX, taken: 0 }
    }
}

impl Observer for Polishing<'_> {
    fn progress(&mut self, p: &Progress) {
        self.inner.progress(p);
    }
    fn exchange_every_s(&self) -> Option<f64> {
        Some(self.inner.exchange_every_s().map_or(EXCHANGE_S, |e| e.min(EXCHANGE_S)))
    }
    fn exchange(&mut self, best: &Costed) -> Option<Costed> {
        if self.inner.exchange_every_s().is_some()
            && let Some(from_outside) = self.inner.exchange(best)
        {
            return Some(from_outside);
        }
        if let Some(s) = self.starts.pop_front() {
            return Some(s);
        }
        let hybrid = self.hybrid?;
        hybrid.offer(best);
        let polished = hybrid.best().filter(|p| p.0 < best.0 && p.0 < self.handed)?;
        self.handed = polished.0;
        self.taken += 1;
        Some(polished)
    }
    fn wants_trace(&self) -> bool {
        self.inner.wants_trace()
    }
    fn trace(&mut self, elapsed_s: f64, best: i64) {
        self.inner.trace(elapsed_s, best);
    }
}
