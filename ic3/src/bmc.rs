//! Incremental bounded model checking (Biere, Cimatti, Clarke, Zhu, "Symbolic Model Checking
//! without BDDs", TACAS 1999; incremental form as in Eén & Sörensson 2003), with iSAT3's
//! verdicts.
//!
//! The idea: one solver holds `I(s0) ∧ T(s0,s1) ∧ … ∧ T(sk-1,sk)`, extended by one copy of
//! TRANS per depth (see [`crate::unroll`]). The target at depth `k` is guarded by a fresh
//! activation literal `a_k` (clauses `¬a_k ∨ r` for TARGET's roots `r` at step `k`) and the
//! depth is checked by solving under the assumption `a_k`; an UNSAT depth releases `a_k` for
//! good. Learned clauses carry over from depth to depth; nothing is re-encoded.
//!
//! Verdicts, as iSAT3 gives them: a model at depth `k` is replayed exactly
//! ([`crate::replay`]) — UNSAFE with the trace if that succeeds; otherwise the boxes are kept
//! as a candidate and the search goes on with the next depth ([`Pending`]: a deeper trace
//! that replays answers UNSAFE, every other end answers CANDIDATE SOLUTION with the first
//! candidate's boxes); SAFE when no run of length `k` exists at all (`I ∧ T^k` is unsatisfiable:
//! every run dies out, iSAT3's "target is never reachable") after every shorter depth was
//! refuted; UNKNOWN at the depth limit, on a time limit or interrupt, and when the solver
//! cannot answer a depth (an unsupported construct).

use crate::certificate::confirm_runs_end;
use crate::config::BmcConfig;
use crate::engine::{add_stats, EngineResult, Limits, Log, Validator, Verdict};
use crate::replay::{boxes_of, replay};
use crate::ts::TransitionSystem;
use crate::unroll::Unrolling;
use solver::solve::Stats;
use solver::{SolveResult, Solver, SolverConfig};
use std::time::Instant;

/// What checking one depth found.
pub(crate) enum DepthOutcome {
    /// no counterexample of exactly this length
    NoCex,
    /// no run of this length exists at all (so none of any greater length)
    RunsEnd,
    /// a model whose trace did not replay exactly (CANDIDATE SOLUTION with its boxes): the
    /// depth's target is released and the search may go on ([`Pending`])
    Candidate(Box<EngineResult>),
    /// UNSAFE or UNKNOWN: the engine stops with this answer
    Answer(Box<EngineResult>),
}

/// How many depths a search goes on past its first candidate when neither a time limit nor
/// a depth limit bounds it (so that a system of candidates only still gets an answer).
pub const CANDIDATE_LOOKAHEAD: usize = 10;

/// The first unvalidated candidate of a depth-by-depth search, kept while deeper depths are
/// tried (issue #23 item 3): an unvalidated depth is no reason to stop, since a deeper one
/// may have a trace that replays. A later UNSAFE wins; every other end of the search (time,
/// depth limit, runs ending, an unanswerable depth) answers this candidate — never SAFE,
/// since its depth was not refuted.
#[derive(Default)]
pub(crate) struct Pending {
    first: Option<(usize, EngineResult)>,
}

impl Pending {
    /// Keeps the candidate of depth `k` unless an earlier one is kept.
    pub fn record(&mut self, k: usize, r: EngineResult) {
        if self.first.is_none() {
            self.first = Some((k, r));
        }
    }

    pub fn is_some(&self) -> bool {
        self.first.is_some()
    }

    /// With no time or depth limit, the search ends [`CANDIDATE_LOOKAHEAD`] depths after
    /// the first candidate.
    pub fn lookahead_done(&self, k: usize, limits: &Limits, max_depth: Option<usize>) -> bool {
        match &self.first {
            Some((j, _)) => {
                limits.deadline.is_none() && max_depth.is_none() && k >= j + CANDIDATE_LOOKAHEAD
            }
            None => false,
        }
    }

    /// The search ended (`why`) after depth `searched` without a replayed trace: the kept
    /// candidate, with the statistics of the whole search, or `otherwise` when there is none.
    pub fn answer(self, searched: usize, why: &str, otherwise: EngineResult) -> EngineResult {
        match self.first {
            Some((j, mut c)) => {
                c.stats = otherwise.stats;
                let first = c.note.take().unwrap_or_default();
                let past = if searched > j {
                    format!("no replayable trace at depths {} to {searched}", j + 1)
                } else {
                    "no deeper depth searched".to_string()
                };
                c.note = Some(format!("{first}; {past} ({why})"));
                c
            }
            None => otherwise,
        }
    }
}

/// The base-case solver shared by BMC and k-induction: `I(s0) ∧ T(s0,s1) ∧ …` in one solver.
pub(crate) struct Base<'a> {
    ts: &'a TransitionSystem,
    pub s: Solver,
    pub u: Unrolling<'a>,
    engine: &'static str,
}

impl<'a> Base<'a> {
    /// `I(s0)` in a fresh solver armed with the limits.
    pub fn new(
        ts: &'a TransitionSystem,
        config: &SolverConfig,
        limits: &Limits,
        engine: &'static str,
    ) -> Result<Base<'a>, String> {
        let mut s = limits.solver(config)?;
        let u = Unrolling::new(ts, &mut s);
        u.assert_init(&mut s)?;
        Ok(Base { ts, s, u, engine })
    }

    /// Adds `T(sk, sk+1)`.
    pub fn push_step(&mut self) -> Result<(), String> {
        self.u.push_step(&mut self.s)
    }

    /// Checks whether the target is reachable in exactly `depth()` steps.
    pub fn check(&mut self, val: &dyn Validator, limits: &Limits, log: &Log) -> DepthOutcome {
        let k = self.u.depth();
        let t0 = Instant::now();
        let act = self.s.new_activation();
        let roots = match self.u.target_at(&mut self.s, k) {
            Ok(r) => r,
            Err(e) => {
                return DepthOutcome::Answer(Box::new(EngineResult::unknown(
                    self.engine,
                    format!("internal error instantiating TARGET: {e}"),
                    *self.s.stats(),
                )))
            }
        };
        for r in roots {
            self.s.add_clause_under(act, &[r]);
        }
        // I(s0) ∧ T(s0,s1) ∧ … ∧ T(sk-1,sk) ∧ TARGET(sk)
        let result = self.s.solve(&[act]);
        let took = t0.elapsed();
        let secs = took.as_secs_f64();
        let name = self.engine;
        match result {
            SolveResult::Unsat => {
                log(format!("{name}: depth {k} is UNSATISFIABLE ({secs:.6} s)"));
                let target_needed = self.s.failed_assumptions().iter().any(|f| f.lit == act);
                self.s.release(act);
                // I(s0) ∧ T(s0,s1) ∧ … ∧ T(sk-1,sk): asked only when the refutation did not
                // use the target, i.e. when all runs may have died out
                if !target_needed && self.s.solve(&[]).is_unsat() {
                    log(format!("{name}: no run of length {k} exists"));
                    return DepthOutcome::RunsEnd;
                }
                DepthOutcome::NoCex
            }
            SolveResult::Sat(m) | SolveResult::Candidate(m) => {
                match replay(self.ts, &mut self.s, &self.u, &[act], &m, took, val, limits) {
                    Ok(trace) => {
                        log(format!(
                            "{name}: depth {k} is SATISFIABLE, trace replayed exactly ({secs:.6} s)"
                        ));
                        DepthOutcome::Answer(Box::new(EngineResult {
                            verdict: Verdict::Unsafe,
                            engine: name,
                            depth: Some(k),
                            trace: Some(trace),
                            boxes: None,
                            note: None,
                            stats: *self.s.stats(),
                            invariant: None,
                            extra_stats: Vec::new(),
                        }))
                    }
                    Err(why) => {
                        log(format!(
                            "{name}: depth {k} is a CANDIDATE SOLUTION ({secs:.6} s): {why}"
                        ));
                        // not a refutation: the depth's target is set aside, not negated
                        self.s.release(act);
                        DepthOutcome::Candidate(Box::new(EngineResult {
                            verdict: Verdict::Candidate,
                            engine: name,
                            depth: Some(k),
                            trace: None,
                            boxes: Some(boxes_of(self.ts, &m, &self.u)),
                            note: Some(format!("depth {k}: {why}")),
                            stats: *self.s.stats(),
                            invariant: None,
                            extra_stats: Vec::new(),
                        }))
                    }
                }
            }
            SolveResult::Unknown(why) => {
                log(format!("{name}: depth {k} is UNKNOWN ({why})"));
                DepthOutcome::Answer(Box::new(EngineResult::unknown(
                    name,
                    format!("depth {k}: {why}"),
                    *self.s.stats(),
                )))
            }
        }
    }
}

/// Either every depth of the range was refuted, or an answer.
enum Range {
    Exhausted(Stats),
    Answer(EngineResult),
}

fn bmc_range(
    ts: &TransitionSystem,
    cfg: &BmcConfig,
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
) -> Range {
    const NAME: &str = "bmc";
    let mut b = match Base::new(ts, &cfg.solver, limits, NAME) {
        Ok(b) => b,
        Err(e) => return Range::Answer(EngineResult::unknown(NAME, e, Stats::default())),
    };
    let mut k = 0usize;
    let mut pending = Pending::default();
    loop {
        if let Some(why) = limits.hit() {
            return Range::Answer(pending.answer(
                k.saturating_sub(1),
                why,
                EngineResult::unknown(NAME, format!("{why} at depth {k}"), *b.s.stats()),
            ));
        }
        if k > 0 {
            if let Err(e) = b.push_step() {
                return Range::Answer(pending.answer(
                    k - 1,
                    &e,
                    EngineResult::unknown(NAME, e.clone(), *b.s.stats()),
                ));
            }
        }
        if k >= cfg.start_depth {
            match b.check(val, limits, log) {
                DepthOutcome::NoCex => {}
                DepthOutcome::Candidate(r) => {
                    log(format!("{NAME}: depth {k}: candidate kept, going on"));
                    pending.record(k, *r);
                }
                DepthOutcome::Answer(r) if r.verdict == Verdict::Unsafe => {
                    return Range::Answer(*r)
                }
                DepthOutcome::Answer(r) => {
                    let why = r.note.clone().unwrap_or_default();
                    return Range::Answer(pending.answer(k.saturating_sub(1), &why, *r));
                }
                DepthOutcome::RunsEnd if pending.is_some() => {
                    // no SAFE: the candidate's depth was not refuted
                    let stats = *b.s.stats();
                    return Range::Answer(pending.answer(
                        k,
                        "no run of this length exists",
                        EngineResult::unknown(NAME, "", stats),
                    ));
                }
                DepthOutcome::RunsEnd => {
                    let mut stats = *b.s.stats();
                    if let Err(e) = confirm_runs_end(ts, k, &cfg.solver, limits) {
                        return Range::Answer(EngineResult::unknown(NAME, e, stats));
                    }
                    if cfg.start_depth > 0 {
                        // the depths below --start-depth were skipped: a run shorter than k
                        // could still reach the target, so refute those depths first
                        let below = BmcConfig {
                            start_depth: 0,
                            max_depth: Some(cfg.start_depth - 1),
                            solver: cfg.solver.clone(),
                        };
                        match bmc_range(ts, &below, limits, val, log) {
                            Range::Exhausted(s2) => add_stats(&mut stats, &s2),
                            Range::Answer(r) => return Range::Answer(r),
                        }
                    }
                    return Range::Answer(EngineResult {
                        verdict: Verdict::Safe,
                        engine: NAME,
                        depth: Some(k),
                        trace: None,
                        boxes: None,
                        note: Some(format!(
                            "no run of length {k} exists (every run ends earlier), and no \
                             shorter run reaches the target"
                        )),
                        stats,
                        invariant: None,
                        extra_stats: Vec::new(),
                    });
                }
            }
        }
        if cfg.max_depth == Some(k) {
            if pending.is_some() {
                let stats = *b.s.stats();
                return Range::Answer(pending.answer(
                    k,
                    "the --max-depth limit",
                    EngineResult::unknown(NAME, "", stats),
                ));
            }
            return Range::Exhausted(*b.s.stats());
        }
        if pending.lookahead_done(k, limits, cfg.max_depth) {
            let stats = *b.s.stats();
            return Range::Answer(pending.answer(
                k,
                "no time or depth limit given: the search stops this many depths past the first candidate",
                EngineResult::unknown(NAME, "", stats),
            ));
        }
        k += 1;
    }
}

/// Runs BMC from `cfg.start_depth` to `cfg.max_depth`.
pub fn bmc(
    ts: &TransitionSystem,
    cfg: &BmcConfig,
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
) -> EngineResult {
    if let Err(e) = cfg.validate().and_then(|_| ts.validate()) {
        return EngineResult::unknown("bmc", e, Stats::default());
    }
    match bmc_range(ts, cfg, limits, val, log) {
        Range::Answer(r) => r,
        Range::Exhausted(stats) => EngineResult {
            depth: cfg.max_depth,
            ..EngineResult::unknown(
                "bmc",
                format!(
                    "no counterexample up to depth {} (the --max-depth limit)",
                    cfg.max_depth.unwrap_or(0)
                ),
                stats,
            )
        },
    }
}
