//! The engine portfolio (DESIGN §3 `portfolio`): several engines on threads, the first
//! definite answer wins.
//!
//! The idea: every engine runs on its own thread with its own solvers and one shared
//! interrupt flag. The first SAFE or UNSAFE (both already validated by the engine: UNSAFE only
//! after exact replay) is the answer; the flag is set and every solver of the other engines
//! returns `Unknown("interrupted")` at its next check. If no engine is definite, the best
//! answer is kept (CANDIDATE SOLUTION over UNKNOWN). A CANDIDATE SOLUTION does not end the
//! portfolio — another engine may still prove SAFE or replay a trace (BMC and k-induction
//! themselves go on past a candidate depth, issue #23 item 3): with a deadline the others get
//! the remaining time; without one they only get as long again as the candidate took (at
//! least [`CANDIDATE_GRACE_MIN`]), so that a candidate answer does not wait forever. The deadline is watched here as well as
//! inside the solvers: once it has passed, the portfolio answers UNKNOWN within a fraction of
//! a second even if an engine is busy outside a solver call (the thread is then left to stop
//! on the flag).

use crate::bmc::bmc;
use crate::config::{EngineKind, PortfolioConfig};
use crate::engine::{EngineResult, Limits, Log, Validator, Verdict};
use crate::kind::kind;
use crate::ts::TransitionSystem;
use solver::solve::Stats;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the portfolio looks at the caller's limits while waiting.
const POLL: Duration = Duration::from_millis(20);
/// How long engines get to report after the deadline or an outer interrupt.
const GRACE: Duration = Duration::from_millis(300);
/// The least time the other engines get after a candidate.
pub const CANDIDATE_GRACE_MIN: Duration = Duration::from_secs(1);
/// Engines' threads get a large stack (the solver's analysis recurses over reasons).
const STACK: usize = 256 << 20;

fn rank(v: Verdict) -> u8 {
    match v {
        Verdict::Safe | Verdict::Unsafe => 3,
        Verdict::Candidate => 2,
        Verdict::Unknown => 1,
    }
}

/// Runs the configured engines in parallel; see the module documentation.
pub fn portfolio(
    ts: Arc<TransitionSystem>,
    cfg: &PortfolioConfig,
    limits: &Limits,
    val: Arc<dyn Validator>,
    log: Log,
) -> EngineResult {
    if let Err(e) = cfg.validate().and_then(|_| ts.validate()) {
        return EngineResult::unknown("portfolio", e, Stats::default());
    }
    // the engines' own flag (set when one of them wins), raised at once if the caller's is
    let flag = Arc::new(AtomicBool::new(limits.interrupt.load(Ordering::Relaxed)));
    let inner = Limits {
        deadline: limits.deadline,
        interrupt: flag.clone(),
        memory_kb: limits.memory_kb,
        calls: Default::default(),
        memory_out: Default::default(),
    };
    let (tx, rx) = mpsc::channel::<EngineResult>();
    let mut started = 0usize;
    let engines = cfg.engines_for(&ts);
    if engines != cfg.engines {
        let names: Vec<&str> = engines.iter().map(|e| e.name()).collect();
        log(format!(
            "portfolio: the system reinterprets float bits; engines {}",
            names.join(", ")
        ));
    }
    for e in engines {
        let (ts, val, log, inner, tx) = (
            ts.clone(),
            val.clone(),
            log.clone(),
            inner.clone(),
            tx.clone(),
        );
        let (bc, kc, ic) = (cfg.bmc.clone(), cfg.kind.clone(), cfg.ic3.clone());
        let spawned = std::thread::Builder::new()
            .name(e.name().into())
            .stack_size(STACK)
            .spawn(move || {
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match e {
                    EngineKind::Bmc => bmc(&ts, &bc, &inner, val.as_ref(), &log),
                    EngineKind::Kind => kind(&ts, &kc, &inner, val.as_ref(), &log),
                    EngineKind::Ic3 => crate::ic3::ic3(&ts, &ic, &inner, val.as_ref(), &log),
                    EngineKind::BmcBitblast => {
                        crate::bitblast_bmc::bitblast_bmc(&ts, &bc, &inner, val.as_ref(), &log)
                    }
                    EngineKind::KindBitblast => {
                        safe_stages(&ts, &kc, &ic, &inner, val.as_ref(), &log)
                    }
                }));
                let r = run.unwrap_or_else(|_| {
                    EngineResult::unknown(
                        e.name(),
                        "internal error in the engine",
                        Stats::default(),
                    )
                });
                let _ = tx.send(r);
            });
        if spawned.is_ok() {
            started += 1;
        }
    }
    drop(tx);
    if started == 0 {
        return EngineResult::unknown(
            "portfolio",
            "could not start any engine thread",
            Stats::default(),
        );
    }
    let mut best: Option<EngineResult> = None;
    let mut finished = 0usize;
    let mut stop_at: Option<Instant> = None;
    let started_at = Instant::now();
    let mut candidate_until: Option<Instant> = None;
    loop {
        match rx.recv_timeout(POLL) {
            Ok(r) => {
                finished += 1;
                if r.verdict.is_definite() {
                    flag.store(true, Ordering::Relaxed);
                    return r;
                }
                // with a deadline the others keep the remaining time (a candidate is no
                // reason to stop: one of them may still replay a trace or prove SAFE);
                // without one, a grace period bounds the wait
                if r.verdict == Verdict::Candidate
                    && candidate_until.is_none()
                    && limits.deadline.is_none()
                {
                    let took = started_at.elapsed();
                    candidate_until = Some(Instant::now() + took.max(CANDIDATE_GRACE_MIN));
                }
                // an engine that was only interrupted says less than the one that stopped it
                let interrupted =
                    |e: &EngineResult| e.note.as_deref().is_some_and(|n| n.contains("interrupted"));
                if best.as_ref().is_none_or(|b| {
                    rank(r.verdict) > rank(b.verdict)
                        || (rank(r.verdict) == rank(b.verdict)
                            && interrupted(b)
                            && !interrupted(&r))
                }) {
                    best = Some(r);
                }
                if finished == started {
                    break;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if stop_at.is_none() && (limits.hit().is_some() || inner.hit().is_some()) {
            flag.store(true, Ordering::Relaxed);
            stop_at = Some(Instant::now() + GRACE);
        }
        if stop_at.is_some_and(|t| Instant::now() >= t)
            || candidate_until.is_some_and(|t| Instant::now() >= t)
        {
            break;
        }
    }
    flag.store(true, Ordering::Relaxed);
    match best {
        // a candidate, or an engine's own reason for UNKNOWN (depth, memory or time limit)
        Some(b) => b,
        None => EngineResult::unknown(
            "portfolio",
            limits.hit().or_else(|| inner.hit()).unwrap_or("time limit"),
            Stats::default(),
        ),
    }
}

/// The fourth thread (`kind-bitblast`): stages that only prove SAFE, each in turn within its
/// own budget; the first SAFE ends the thread and the others' reasons are logged.
///
/// First bit-blasted k-induction (quick where it applies: DEAD goals of relational float
/// guards), then the guessed invariants (`float-inv`). Where the IC3 member has the simplex
/// (VMT's unbounded integer programs; `TsOptions::for_system`) both bit-blasting stages end at
/// once, and box IC3 on the IC3 thread learns `x <= n` one value at a time; there the thread
/// goes on with relational guesses per Boolean location for at most
/// [`crate::float_inv::REL_BUDGET`] (`rel-inv`: `x = y` at the right locations of
/// `ctigar/dillig28.c`, which IC3 `+rel` does not reach in 10 s, guessed whole and proved in
/// under a second), and then spends the remaining time on IC3 with relational lemmas
/// (`ctigar/simple.c`: UNKNOWN at 10 s with boxes, SAFE with `+rel` in 0.6 s).
fn safe_stages(
    ts: &TransitionSystem,
    kc: &crate::config::KindConfig,
    ic: &crate::config::Ic3Config,
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
) -> EngineResult {
    let rel = relational_member(ic);
    type Stage<'a> = Box<dyn FnOnce() -> EngineResult + 'a>;
    let mut stages: Vec<Stage> = vec![
        Box::new(|| crate::bitblast_bmc::bitblast_kind(ts, 2, Duration::from_secs(5), limits, log)),
        Box::new(|| {
            crate::float_inv::float_inv(ts, &kc.solver, crate::float_inv::BUDGET, limits, log)
        }),
    ];
    if let Some(rc) = &rel {
        stages.push(Box::new(move || {
            crate::float_inv::rel_inv(
                ts,
                &rc.solver,
                rc.max_terms,
                crate::float_inv::REL_BUDGET,
                limits,
                val,
                log,
            )
        }));
    }
    let mut last = None;
    for stage in stages {
        let r = stage();
        if r.verdict == Verdict::Safe {
            return r;
        }
        log(format!(
            "{}: {}",
            r.engine,
            r.note.as_deref().unwrap_or_default()
        ));
        last = Some(r);
    }
    match (rel, last) {
        (Some(rc), _) => crate::ic3::ic3(ts, &rc, limits, val, log),
        (None, Some(r)) => r,
        (None, None) => EngineResult::unknown("kind-bitblast", "no stage ran", Stats::default()),
    }
}

/// The fourth thread's IC3 after the bit-blasting stages: the IC3 member's configuration with
/// relational lemmas, when that member runs the simplex and is not relational already.
fn relational_member(ic: &crate::config::Ic3Config) -> Option<crate::config::Ic3Config> {
    (ic.solver.linear == solver::LinearReasoning::Simplex && !ic.relational).then(|| {
        crate::config::Ic3Config {
            relational: true,
            ..ic.clone()
        }
    })
}
