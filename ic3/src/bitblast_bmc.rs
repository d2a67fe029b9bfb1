//! BMC by bit-blasting: the unrolling `INIT(s0) ∧ TRANS(s0,s1) ∧ … ∧ TARGET(sk)` as one
//! formula per depth, decided by `solver::bitblast` (IEEE and machine-integer circuits, CDCL).
//!
//! The idea: the ICP-based BMC of [`crate::bmc`] enumerates boxes, which is slow on floats
//! whose values hinge on rounding (a C loop accumulating `0.1f`); circuits make the same depth
//! one SAT problem. The engine only looks for counterexamples — an UNSAT depth proves nothing
//! about longer runs — and every trace it reports is validated exactly: each step in its
//! declared domain, static variables unchanged, INIT, TRANS and TARGET *true* under the
//! [`Validator`] (the original constraints, bit-exact). A model that fails the validation (it
//! may rest on a value the language leaves unspecified) is dropped and the search goes on.
//! Each depth is encoded afresh (the bit-blaster is not incremental), so the engine suits the
//! shallow and medium depths where ICP's box enumeration is the bottleneck.

use crate::config::BmcConfig;
use crate::engine::{EngineResult, Limits, Log, Validator, Verdict};
use crate::replay::in_domain;
use crate::ts::TransitionSystem;
use solver::bitblast::{self, Outcome};
use solver::formula::{Formula, VarInfo, VarOrigin};
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

pub fn bitblast_bmc(
    ts: &TransitionSystem,
    cfg: &BmcConfig,
    limits: &Limits,
    val: &dyn Validator,
    log: &Log,
) -> EngineResult {
    if let Err(e) = supported(ts) {
        return EngineResult::unknown(
            NAME,
            format!("bit-blasting does not support {e}"),
            Stats::default(),
        );
    }
    let bl = bitblast::Limits {
        deadline: limits.deadline,
        interrupt: Some(limits.interrupt.clone()),
    };
    let mut dropped = 0usize;
    let mut k = cfg.start_depth;
    loop {
        if let Some(why) = limits.hit() {
            return EngineResult::unknown(NAME, format!("{why} at depth {k}"), Stats::default());
        }
        let t0 = Instant::now();
        let (f, steps) = unroll(ts, k);
        let (outcome, size) = bitblast::solve(&f, &bl);
        let secs = t0.elapsed().as_secs_f64();
        match outcome {
            Outcome::Unsat => {
                log(format!(
                    "{NAME}: depth {k} is UNSATISFIABLE ({} variables, {} clauses, {secs:.6} s)",
                    size.vars, size.clauses
                ));
            }
            Outcome::Sat(point) => {
                let trace: Vec<Vec<Value>> = steps
                    .iter()
                    .map(|s| s.iter().map(|&v| point[v].clone()).collect())
                    .collect();
                if validate(ts, &trace, val) {
                    log(format!(
                        "{NAME}: depth {k} is SATISFIABLE, trace replayed exactly ({secs:.6} s)"
                    ));
                    return EngineResult {
                        verdict: Verdict::Unsafe,
                        engine: NAME,
                        depth: Some(k),
                        trace: Some(trace),
                        boxes: None,
                        note: None,
                        stats: Stats::default(),
                        invariant: None,
                        extra_stats: vec![("bitblast_dropped_models", dropped.to_string())],
                    };
                }
                dropped += 1;
                log(format!(
                    "{NAME}: depth {k}: the model does not replay exactly; dropped ({secs:.6} s)"
                ));
            }
            Outcome::Unknown(why) => {
                return EngineResult::unknown(NAME, format!("depth {k}: {why}"), Stats::default())
            }
            Outcome::Unsupported(why) => {
                return EngineResult::unknown(
                    NAME,
                    format!("bit-blasting does not support {why}"),
                    Stats::default(),
                )
            }
        }
        if cfg.max_depth == Some(k) {
            return EngineResult {
                depth: cfg.max_depth,
                ..EngineResult::unknown(
                    NAME,
                    format!("no counterexample up to depth {k} (the --max-depth limit)"),
                    Stats::default(),
                )
            };
        }
        k += 1;
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
