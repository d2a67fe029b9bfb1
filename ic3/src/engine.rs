//! What every engine shares: the verdicts of the transition form (language doc A.6, Part C),
//! an engine's answer with its trace or boxes, the limits an engine obeys (deadline and the
//! portfolio's interrupt flag), and the exact-validation hook.
//!
//! The idea (DESIGN §5 rules 2 and 3): an engine never decides UNSAFE on its own. The solver's
//! model is only a candidate; [`Validator`] — implemented by the front end with its exact
//! evaluator of the *original* constraints — must find every INIT, TRANS and TARGET
//! constraint true at concrete points before a trace counts (see `replay`). `ic3` does not
//! depend on the front end; the validator is how the two meet.

use solver::interval::Interval;
use solver::model::Value;
use solver::solve::Stats;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The verdicts of the transition form.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// the target is unreachable at every depth
    Safe,
    /// a trace reaching the target, replayed exactly
    Unsafe,
    /// a trace of boxes that may or may not contain a real run to the target
    Candidate,
    /// no answer (depth limit, time limit, interrupt, unsupported construct)
    Unknown,
}

impl Verdict {
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Safe => "SAFE",
            Verdict::Unsafe => "UNSAFE",
            Verdict::Candidate => "CANDIDATE SOLUTION",
            Verdict::Unknown => "UNKNOWN",
        }
    }
    /// Part C exit codes.
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Unsafe => 10,
            Verdict::Safe => 20,
            Verdict::Candidate | Verdict::Unknown => 0,
        }
    }
    /// SAFE and UNSAFE end a portfolio; the others do not.
    pub fn is_definite(self) -> bool {
        matches!(self, Verdict::Safe | Verdict::Unsafe)
    }
}

/// One state variable's box in a candidate trace.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BoxValue {
    Bool(Option<bool>),
    Num(Interval),
}

/// The certificate of an IC3 SAFE answer: lemmas `L` (one `.hys` clause per line) and the
/// suffix length `K`; `L ∧ ¬TARGET` admits no `K+1`-step path to the target and is closed
/// under TRANS, and no run of length `≤ K` reaches the target (see `ic3::certificate`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invariant {
    pub lines: Vec<String>,
    pub suffix: usize,
    /// the suffix condition holds for paths of pairwise distinct states only (k-induction's
    /// certificate; [`crate::ic3::certificate`])
    pub distinct: bool,
    /// the same lemmas as typed cubes (each lemma is the cube's negation), for consumers
    /// that translate them (the C front end's correctness witnesses)
    pub cubes: Vec<crate::ic3::cube::Cube>,
}

/// An engine's answer.
#[derive(Clone, Debug)]
pub struct EngineResult {
    pub verdict: Verdict,
    /// the engine that produced it (`bmc`, `kind`)
    pub engine: &'static str,
    /// UNSAFE: the trace's last step; CANDIDATE: the depth of the boxes; SAFE from
    /// k-induction: k; SAFE because all runs end: the first length no run has
    pub depth: Option<usize>,
    /// UNSAFE: exact values, `trace[k][i]` is state variable `i` at step `k`
    pub trace: Option<Vec<Vec<Value>>>,
    /// CANDIDATE: `boxes[k][i]` likewise
    pub boxes: Option<Vec<Vec<BoxValue>>>,
    /// why the answer is what it is (UNKNOWN's reason, how SAFE was shown, why a candidate
    /// could not be replayed)
    pub note: Option<String>,
    /// solver statistics, summed over the engine's solvers
    pub stats: Stats,
    /// SAFE from IC3: the invariant's lemmas and suffix (see [`Invariant`])
    pub invariant: Option<Invariant>,
    /// engine-specific statistics (`name`, value), e.g. IC3's (paper Table 1)
    pub extra_stats: Vec<(&'static str, String)>,
}

impl EngineResult {
    pub fn unknown(engine: &'static str, note: impl Into<String>, stats: Stats) -> EngineResult {
        EngineResult {
            verdict: Verdict::Unknown,
            engine,
            depth: None,
            trace: None,
            boxes: None,
            note: Some(note.into()),
            stats,
            invariant: None,
            extra_stats: Vec::new(),
        }
    }
}

/// Exact validation of concrete states against the original constraints. Each method returns
/// `true` only when every constraint of the section is *true* at the point (three-valued
/// evaluation: unknown counts as not validated). `s` and `t` hold one value per state
/// variable, in the order of [`crate::TransitionSystem::state`]. Domains and static variables
/// are checked by the replay itself.
pub trait Validator: Send + Sync {
    /// INIT(s)
    fn init(&self, s: &[Value]) -> bool;
    /// TRANS(s, t)
    fn trans(&self, s: &[Value], t: &[Value]) -> bool;
    /// TARGET(s)
    fn target(&self, s: &[Value]) -> bool;
    /// Proposes exact values for the variables of `s` that INIT determines (`x = e`, or
    /// `x >= e` and `x <= e`, given the other values) — a solver's box rarely contains the
    /// exact point `1e20 + 1` as a simple decimal. The replay still validates the result like
    /// any other point. Default: no proposal.
    fn complete_init(&self, s: &mut [Value]) {
        let _ = s;
    }
    /// Likewise for the next state `t` of TRANS(s, t) (`x' = e`, also under guards that hold).
    fn complete_trans(&self, s: &[Value], t: &mut [Value]) {
        let _ = (s, t);
    }
}

/// Where progress lines go (`-v -v`: one line per depth, as iSAT3 prints them).
pub type Log = Arc<dyn Fn(String) + Send + Sync>;

/// A log that drops everything.
pub fn quiet() -> Log {
    Arc::new(|_| {})
}

/// The limits of one engine run: a deadline and an interrupt flag that a portfolio sets when
/// another engine has answered (both are also handed to every solver the engine creates), and
/// a bound on the process's resident memory, checked by the engines between depths: every
/// depth adds a copy of TRANS, so without it an unbounded run grows without bound.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub deadline: Option<Instant>,
    pub interrupt: Arc<AtomicBool>,
    /// resident set size limit of the whole process, in kB (`None`: no limit)
    pub memory_kb: Option<u64>,
    /// calls of [`Limits::hit`], to read the memory use only every [`MEMORY_CHECK_EVERY`]th
    pub calls: Arc<AtomicU64>,
    /// set once the memory limit was exceeded (shared by the engines of a portfolio, so that
    /// all of them give that reason)
    pub memory_out: Arc<AtomicBool>,
}

/// Reading `/proc/self/status` costs about as much as checking one small depth.
pub const MEMORY_CHECK_EVERY: u64 = 64;

/// The current resident set size (`VmRSS`) of the process in kB, where the system reports it.
pub fn resident_kb() -> Option<u64> {
    proc_status_kb("VmRSS:")
}

/// The peak resident set size (`VmHWM`) of the process in kB, where the system reports it.
pub fn peak_resident_kb() -> Option<u64> {
    proc_status_kb("VmHWM:")
}

fn proc_status_kb(key: &str) -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A process-wide request to stop every engine run (set by `icpic3 deadcode`'s SIGINT/SIGTERM
/// handler): [`Limits::hit`] answers "interrupted" once it is set, so a portfolio raises its
/// engines' own flag and every solver stops at its next check.
static STOP_ALL: AtomicBool = AtomicBool::new(false);

/// Asks every engine run of the process to stop (see [`STOP_ALL`]); not undone.
pub fn request_stop() {
    STOP_ALL.store(true, Ordering::SeqCst);
}

/// Has [`request_stop`] been called (or the flag been set by a signal handler)?
pub fn stop_requested() -> bool {
    STOP_ALL.load(Ordering::Relaxed)
}

/// The flag itself, for a signal handler that sets it (async-signal-safe: a store only).
pub fn stop_flag() -> &'static AtomicBool {
    &STOP_ALL
}

impl Limits {
    /// The reason to stop now, if any.
    pub fn hit(&self) -> Option<&'static str> {
        // the deadline first: when it passes, a portfolio also sets the interrupt flag, and
        // "time limit" is the better reason
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some("time limit");
        }
        if self.memory_out.load(Ordering::Relaxed) {
            return Some("memory limit");
        }
        if solver::budget::over_memory() {
            // the allocator's count (the binary's memory budget): every engine stops
            self.memory_out.store(true, Ordering::Relaxed);
            self.interrupt.store(true, Ordering::Relaxed);
            return Some("memory limit");
        }
        if self.interrupt.load(Ordering::Relaxed) || stop_requested() {
            return Some("interrupted");
        }
        if let Some(max) = self.memory_kb {
            let n = self.calls.fetch_add(1, Ordering::Relaxed);
            if n.is_multiple_of(MEMORY_CHECK_EVERY) && resident_kb().is_some_and(|kb| kb > max) {
                // every engine of a portfolio stops, not only the one that noticed
                self.memory_out.store(true, Ordering::Relaxed);
                self.interrupt.store(true, Ordering::Relaxed);
                return Some("memory limit");
            }
        }
        None
    }
    /// A fresh solver with these limits applied.
    pub fn solver(&self, config: &solver::SolverConfig) -> Result<solver::Solver, String> {
        let mut s = solver::Solver::new(config.clone())?;
        self.arm(&mut s);
        Ok(s)
    }

    /// Applies the limits to a solver.
    pub fn arm(&self, s: &mut solver::Solver) {
        s.set_deadline(self.deadline);
        s.set_interrupt(self.interrupt.clone());
    }
}

/// Adds `b`'s counters to `a`.
pub fn add_stats(a: &mut Stats, b: &Stats) {
    a.solves += b.solves;
    a.decisions += b.decisions;
    a.splits += b.splits;
    a.conflicts += b.conflicts;
    a.propagations += b.propagations;
    a.icp_runs += b.icp_runs;
    a.icp_contractions += b.icp_contractions;
    a.learned += b.learned;
    a.deleted += b.deleted;
    a.restarts += b.restarts;
    a.point_checks += b.point_checks;
    a.point_checks_ok += b.point_checks_ok;
    a.simplex_checks += b.simplex_checks;
    a.simplex_pivots += b.simplex_pivots;
    a.simplex_conflicts += b.simplex_conflicts;
    a.simplex_int_conflicts += b.simplex_int_conflicts;
    a.simplex_branches += b.simplex_branches;
}
