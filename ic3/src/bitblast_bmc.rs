//! BMC by bit-blasting: the unrolling `INIT(s0) ∧ TRANS(s0,s1) ∧ … ∧ TARGET(sk)` as one
//! formula per depth, decided by `solver::bitblast` (IEEE and machine-integer circuits, CDCL).
//!
//! The idea: the ICP-based BMC of [`crate::bmc`] enumerates boxes, which is slow on floats
//! whose values hinge on rounding (a C loop accumulating `0.1f`); circuits make the same depth
//! one SAT problem. An UNSAT depth proves nothing about longer runs; the engine proves SAFE
//! only when every run ends (no run of some length `k` exists, and every shorter depth was
//! refuted: see [`range`] for the argument), as the ICP BMC does. Every trace it reports is
//! validated exactly: each step in its declared domain, static variables unchanged, INIT,
//! TRANS and TARGET *true* under the [`Validator`] (the original constraints, bit-exact). A
//! model that fails the validation (it may rest on a value the language leaves unspecified)
//! is dropped and the search goes on (and its depth counts as not refuted).
//! Each depth is encoded afresh (the bit-blaster is not incremental), so the engine suits the
//! shallow and medium depths where ICP's box enumeration is the bottleneck.

use crate::config::BmcConfig;
use crate::engine::{EngineResult, Limits, Log, Validator, Verdict};
use crate::replay::in_domain;
use crate::ts::TransitionSystem;
use solver::bitblast::{self, Guarded, Outcome};
use solver::formula::{Formula, Lit, VarInfo, VarOrigin};
use solver::model::Value;
use solver::solve::Stats;
use solver::Var;
use std::time::Instant;

const NAME: &str = "bmc-bitblast";

/// `k + 1` steps of state variables in `f` (static variables shared by all steps), each in
/// its declared domain.
fn step_vars(f: &mut Formula, ts: &TransitionSystem, k: usize) -> Vec<Vec<Var>> {
    let mut steps: Vec<Vec<Var>> = Vec::with_capacity(k + 1);
    for i in 0..=k {
        let step = ts
            .state
            .iter()
            .enumerate()
            .map(|(j, sv)| {
                if sv.is_static && i > 0 {
                    steps[0][j]
                } else {
                    f.add_var(VarInfo {
                        name: format!("{}@{i}", sv.name),
                        sort: sv.sort,
                        domain: sv.domain.clone(),
                        origin: VarOrigin::Declared { span: sv.span },
                        fp_const: None,
                    })
                }
            })
            .collect();
        steps.push(step);
    }
    steps
}

fn bind(vars: &[Var], step: &[Var]) -> Vec<(Var, Var)> {
    vars.iter().copied().zip(step.iter().copied()).collect()
}

/// Asserts TRANS between consecutive steps.
fn assert_trans(f: &mut Formula, ts: &TransitionSystem, steps: &[Vec<Var>]) {
    for (i, w) in steps.windows(2).enumerate() {
        let mut b = bind(&ts.trans_current, &w[0]);
        b.extend(bind(&ts.trans_next, &w[1]));
        for r in f.append(&ts.trans, &b, &format!("t{i}")) {
            f.add_root(r);
        }
    }
}

/// The unrolling of depth `k` as one formula, and the variables of each step.
pub fn unroll(ts: &TransitionSystem, k: usize) -> (Formula, Vec<Vec<Var>>) {
    let mut f = Formula::new();
    let steps = step_vars(&mut f, ts, k);
    for r in f.append(&ts.init, &bind(&ts.init_vars, &steps[0]), "init") {
        f.add_root(r);
    }
    assert_trans(&mut f, ts, &steps);
    for r in f.append(&ts.target, &bind(&ts.target_vars, &steps[k]), "target") {
        f.add_root(r);
    }
    (f, steps)
}

/// Whether every formula of `ts` has circuits.
pub fn supported(ts: &TransitionSystem) -> Result<(), String> {
    bitblast::supports(&ts.init)?;
    bitblast::supports(&ts.trans)?;
    bitblast::supports(&ts.target)
}

/// The trace's exact check (see the module docs).
fn validate(ts: &TransitionSystem, trace: &[Vec<Value>], val: &dyn Validator) -> bool {
    let in_domains = trace
        .iter()
        .all(|s| s.iter().zip(&ts.state).all(|(v, sv)| in_domain(sv, v)));
    let statics = ts
        .state
        .iter()
        .enumerate()
        .all(|(j, sv)| !sv.is_static || trace.iter().all(|s| value_eq(&s[j], &trace[0][j])));
    in_domains
        && statics
        && val.init(&trace[0])
        && trace.windows(2).all(|w| val.trans(&w[0], &w[1]))
        && val.target(trace.last().expect("a step"))
}

fn value_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Num(x), Value::Num(y)) => x == y,
        (Value::Fp(x), Value::Fp(y)) => x == y,
        _ => false,
    }
}

/// `INIT(s0) ∧ TRANS(s0,s1) ∧ … ∧ TRANS(sk-1,sk)` with TARGET's definitions and clauses
/// at step `k` appended, and TARGET's roots there returned instead of asserted (for
/// [`bitblast::solve_guarded`]).
pub fn unroll_guarded(ts: &TransitionSystem, k: usize) -> (Formula, Vec<Vec<Var>>, Vec<Lit>) {
    let mut f = Formula::new();
    let steps = step_vars(&mut f, ts, k);
    for r in f.append(&ts.init, &bind(&ts.init_vars, &steps[0]), "init") {
        f.add_root(r);
    }
    assert_trans(&mut f, ts, &steps);
    let target = f.append(&ts.target, &bind(&ts.target_vars, &steps[k]), "target");
    (f, steps, target)
}

/// `INIT(s0) ∧ TRANS(s0,s1) ∧ … ∧ TRANS(sk-1,sk)`, nothing of TARGET: the runs of length
/// `k`, each state in its declared domain.
pub fn runs(ts: &TransitionSystem, k: usize) -> Formula {
    let mut f = Formula::new();
    let steps = step_vars(&mut f, ts, k);
    for r in f.append(&ts.init, &bind(&ts.init_vars, &steps[0]), "init") {
        f.add_root(r);
    }
    assert_trans(&mut f, ts, &steps);
    f
}

/// Either every depth of the range was checked, or an answer.
enum Range {
    /// `gap`: the first depth whose model was dropped (not refuted), if any
    Exhausted {
        gap: Option<usize>,
    },
    Answer(Box<EngineResult>),
}

fn unknown_at(k: usize, why: impl std::fmt::Display) -> Range {
    Range::Answer(Box::new(EngineResult::unknown(
        NAME,
        format!("depth {k}: {why}"),
        Stats::default(),
    )))
}

/// BMC by bit-blasting on depths `start ..= max`.
///
/// SAFE when all runs end. At depth `k` the unrolling `U_k = INIT(s0) ∧ TRANS(s0,s1) ∧ … ∧
/// TRANS(sk-1,sk)` (every state in its declared domain, static variables shared) is solved
/// with TARGET(sk) under an activation bit; when that is UNSAT, `U_k` is solved again without
/// it. The argument for SAFE at `k`:
/// 1. every depth `j < k` was refuted: `U_j ∧ TARGET(sj)` UNSAT. Depths below `start` are
///    checked first; a depth whose model was dropped (it did not replay exactly) is *not*
///    refuted, and then the answer is UNKNOWN.
/// 2. `U_k` is UNSAT, confirmed by a fresh encoding of `U_k` alone ([`runs`]): the first
///    solve still holds TARGET's definitions and auxiliary domains, which could make it UNSAT
///    while `U_k` is not.
///
/// Suppose a run `s0 … sj` reached the target (INIT, each TRANS and TARGET(sj) true, every
/// state in its domain). If `j < k`, the run is a model of `U_j ∧ TARGET(sj)`, against 1. If
/// `j ≥ k`, its prefix `s0 … sk` is a model of `U_k`, against 2. So no run reaches the target.
/// Both steps rest on the bit-blaster's UNSAT, as an EXPR UNSATISFIABLE does (language doc
/// D.7): every value the language leaves unspecified is a free value in the circuits (an
/// over-approximation), and a variable or operation without a circuit makes the encoding
/// fail, so the engine answers UNKNOWN instead of approximating.
fn range(
    ts: &TransitionSystem,
    start: usize,
    max: Option<usize>,
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
) -> Range {
    let bl = bitblast::Limits {
        deadline: limits.deadline,
        interrupt: Some(limits.interrupt.clone()),
    };
    let mut dropped = 0usize;
    let mut gap: Option<usize> = None;
    let mut k = start;
    loop {
        if let Some(why) = limits.hit() {
            return Range::Answer(Box::new(EngineResult::unknown(
                NAME,
                format!("{why} at depth {k}"),
                Stats::default(),
            )));
        }
        let t0 = Instant::now();
        let (f, steps, target) = unroll_guarded(ts, k);
        let (outcome, size) = bitblast::solve_guarded(&f, &target, &bl);
        let secs = t0.elapsed().as_secs_f64();
        match outcome {
            Guarded::Unsat { rest_sat: true } => {
                log(format!(
                    "{NAME}: depth {k} is UNSATISFIABLE ({} variables, {} clauses, {secs:.6} s)",
                    size.vars, size.clauses
                ));
            }
            Guarded::Unsat { rest_sat: false } => {
                log(format!(
                    "{NAME}: depth {k} is UNSATISFIABLE and no run of length {k} exists \
                     ({secs:.6} s)"
                ));
                match bitblast::solve(&runs(ts, k), &bl).0 {
                    Outcome::Unsat => {}
                    Outcome::Sat(_) => {
                        // runs of length k exist; only TARGET's side conditions ruled them out
                        log(format!("{NAME}: runs of length {k} exist after all"));
                        if max == Some(k) {
                            return Range::Exhausted { gap };
                        }
                        k += 1;
                        continue;
                    }
                    Outcome::Unknown(w) | Outcome::Unsupported(w) => {
                        return unknown_at(k, format!("runs could not be re-checked: {w}"))
                    }
                }
                if let Some(j) = gap {
                    return unknown_at(
                        k,
                        format!(
                            "every run ends before depth {k}, but the model of depth {j} \
                             did not replay exactly"
                        ),
                    );
                }
                if start > 0 {
                    // the depths below `start` were skipped: refute them first
                    match range(ts, 0, Some(start - 1), limits, val, log) {
                        Range::Exhausted { gap: None } => {}
                        Range::Exhausted { gap: Some(j) } => {
                            return unknown_at(
                                k,
                                format!(
                                    "every run ends before depth {k}, but the model of \
                                     depth {j} did not replay exactly"
                                ),
                            )
                        }
                        Range::Answer(r) => return Range::Answer(r),
                    }
                }
                return Range::Answer(Box::new(EngineResult {
                    verdict: Verdict::Safe,
                    engine: NAME,
                    depth: Some(k),
                    trace: None,
                    boxes: None,
                    note: Some(format!(
                        "no run of length {k} exists (every run ends earlier), and no shorter \
                         run reaches the target (bit-blasted BMC)"
                    )),
                    stats: Stats::default(),
                    invariant: None,
                    extra_stats: Vec::new(),
                }));
            }
            Guarded::Sat(point) => {
                let trace: Vec<Vec<Value>> = steps
                    .iter()
                    .map(|s| s.iter().map(|&v| point[v].clone()).collect())
                    .collect();
                if validate(ts, &trace, val) {
                    log(format!(
                        "{NAME}: depth {k} is SATISFIABLE, trace replayed exactly ({secs:.6} s)"
                    ));
                    return Range::Answer(Box::new(EngineResult {
                        verdict: Verdict::Unsafe,
                        engine: NAME,
                        depth: Some(k),
                        trace: Some(trace),
                        boxes: None,
                        note: None,
                        stats: Stats::default(),
                        invariant: None,
                        extra_stats: vec![("bitblast_dropped_models", dropped.to_string())],
                    }));
                }
                dropped += 1;
                gap.get_or_insert(k);
                log(format!(
                    "{NAME}: depth {k}: the model does not replay exactly; dropped ({secs:.6} s)"
                ));
            }
            Guarded::Unknown(why) => return unknown_at(k, why),
            Guarded::Unsupported(why) => {
                return Range::Answer(Box::new(EngineResult::unknown(
                    NAME,
                    format!("bit-blasting does not support {why}"),
                    Stats::default(),
                )))
            }
        }
        if max == Some(k) {
            return Range::Exhausted { gap };
        }
        k += 1;
    }
}

/// BMC by bit-blasting from `cfg.start_depth` to `cfg.max_depth`: UNSAFE with an exactly
/// replayed trace, SAFE when every run ends (see [`range`]), UNKNOWN otherwise.
pub fn bitblast_bmc(
    ts: &TransitionSystem,
    cfg: &BmcConfig,
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
) -> EngineResult {
    if let Err(e) = cfg.validate().and_then(|_| ts.validate()) {
        return EngineResult::unknown(NAME, e, Stats::default());
    }
    if let Err(e) = supported(ts) {
        return EngineResult::unknown(
            NAME,
            format!("bit-blasting does not support {e}"),
            Stats::default(),
        );
    }
    match range(ts, cfg.start_depth, cfg.max_depth, limits, val, log) {
        Range::Answer(r) => *r,
        Range::Exhausted { .. } => {
            let k = cfg.max_depth.unwrap_or(0);
            EngineResult {
                depth: cfg.max_depth,
                ..EngineResult::unknown(
                    NAME,
                    format!("no counterexample up to depth {k} (the --max-depth limit)"),
                    Stats::default(),
                )
            }
        }
    }
}

/// The step formula of k-induction over `k + 1` states: `¬TARGET(s_i)` for `i < k`, TRANS
/// between consecutive states, `TARGET(s_k)`; every state only in its declared domain.
pub fn induction_step(ts: &TransitionSystem, k: usize) -> Formula {
    let mut f = Formula::new();
    let steps = step_vars(&mut f, ts, k);
    assert_trans(&mut f, ts, &steps);
    for (i, step) in steps[..k].iter().enumerate() {
        // ¬TARGET(s_i): one of its roots fails
        let roots = f.append(&ts.target, &bind(&ts.target_vars, step), &format!("n{i}"));
        let c: Vec<_> = roots.iter().map(|&r| !r).collect();
        f.add_clause(c);
    }
    for r in f.append(&ts.target, &bind(&ts.target_vars, &steps[k]), "target") {
        f.add_root(r);
    }
    f
}

/// k-induction by bit-blasting for small k (1 and 2): SAFE when no run of length < k reaches
/// the target (BMC) and no k-step path through non-target states enters it. Meant to be cheap
/// (each SAT call gets a share of `budget`); UNKNOWN otherwise. Both parts are UNSAT claims of
/// the bit-blaster, whose circuits are checked against the IEEE reference (`bitblast::check`).
pub fn bitblast_kind(
    ts: &TransitionSystem,
    max_k: usize,
    budget: std::time::Duration,
    limits: &Limits,
    log: &Log,
) -> EngineResult {
    const KNAME: &str = "kind-bitblast";
    if let Err(e) = supported(ts) {
        return EngineResult::unknown(
            KNAME,
            format!("bit-blasting does not support {e}"),
            Stats::default(),
        );
    }
    let end = Instant::now() + budget;
    let deadline = Some(limits.deadline.map_or(end, |d| d.min(end)));
    let bl = bitblast::Limits {
        deadline,
        interrupt: Some(limits.interrupt.clone()),
    };
    for k in 1..=max_k {
        // base: depth k-1
        let (f, _) = unroll(ts, k - 1);
        match bitblast::solve(&f, &bl).0 {
            Outcome::Unsat => {}
            Outcome::Sat(_) => {
                return EngineResult::unknown(
                    KNAME,
                    format!("depth {} may reach the target (left to BMC)", k - 1),
                    Stats::default(),
                )
            }
            Outcome::Unknown(w) | Outcome::Unsupported(w) => {
                return EngineResult::unknown(
                    KNAME,
                    format!("base {}: {w}", k - 1),
                    Stats::default(),
                )
            }
        }
        let step = induction_step(ts, k);
        match bitblast::solve(&step, &bl).0 {
            Outcome::Unsat => {
                log(format!(
                    "{KNAME}: the target is {k}-inductively unreachable"
                ));
                return EngineResult {
                    verdict: Verdict::Safe,
                    engine: KNAME,
                    depth: Some(k),
                    trace: None,
                    boxes: None,
                    note: Some(format!(
                        "no run of length < {k} reaches the target and no {k}-step path \
                         through non-target states enters it (bit-blasted k-induction)"
                    )),
                    stats: Stats::default(),
                    invariant: None,
                    extra_stats: Vec::new(),
                };
            }
            Outcome::Unknown(w) => {
                return EngineResult::unknown(KNAME, format!("step {k}: {w}"), Stats::default())
            }
            _ => log(format!("{KNAME}: step {k} is not inductive")),
        }
    }
    EngineResult::unknown(KNAME, format!("not {max_k}-inductive"), Stats::default())
}
