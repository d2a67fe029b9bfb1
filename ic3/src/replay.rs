//! Exact counterexample replay (DESIGN §3 `certificate`, §5 rule 2; issue #5 point 4).
//!
//! The idea: the solver's answer for `I(s0) ∧ T(s0,s1) ∧ … ∧ TARGET(sk)` is a box per step (or
//! a point checked against the *lowered* formula). Neither is trusted. The replay walks the
//! run from the start: it picks a concrete state `s0` inside the boxes and asks the
//! [`Validator`] — the exact evaluator of the original constraints — whether INIT holds there;
//! then, step by step, a concrete next state `s(i+1)` with TRANS(s_i, s(i+1)) exactly true,
//! and finally TARGET at the last state. Every state must also lie in the declared domains
//! (integral for integer sorts) and keep the static variables' values. When the current model
//! offers no validated point for the next step, the solver is asked again with the steps
//! chosen so far fixed by *point assumptions* (`x >= q ∧ x <= q` per variable), so that the
//! remaining run is rebuilt around the concrete prefix. A step that still cannot be validated
//! ends the replay: the engine then reports CANDIDATE SOLUTION with the boxes. Each point is
//! tried as given and, failing that, *completed*: variables that INIT or TRANS determine by
//! equalities (`x' = x + u`, also under guards that hold) get the exact value computed from
//! the others by the [`Validator`] (a box rarely contains `1e20 + 1` as a simple decimal).

use crate::engine::{BoxValue, Limits, Validator};
use crate::ts::{StateVar, TransitionSystem};
use crate::unroll::Unrolling;
use solver::formula::Sort;
use solver::lit::Lit;
use solver::model::{Model, Value};
use solver::var::VarMap;
use solver::{Rel, SolveResult, Solver, Var};
use std::time::{Duration, Instant};

/// The boxes of a model, per step and state variable.
pub fn boxes_of(ts: &TransitionSystem, m: &Model, u: &Unrolling) -> Vec<Vec<BoxValue>> {
    u.states
        .iter()
        .map(|step| {
            step.iter()
                .zip(&ts.state)
                .map(|(&v, sv)| {
                    if sv.sort == Sort::Bool {
                        BoxValue::Bool(m.bools.get(v).copied().flatten())
                    } else {
                        BoxValue::Num(
                            m.boxes
                                .get(v)
                                .copied()
                                .unwrap_or(solver::interval::Interval::ENTIRE),
                        )
                    }
                })
                .collect()
        })
        .collect()
}

/// `v` lies in `sv`'s declared domain (and is of its sort: integral for integer sorts).
pub fn in_domain(sv: &StateVar, v: &Value) -> bool {
    match (sv.sort, v) {
        (Sort::Bool, Value::Bool(_)) => true,
        (Sort::Fp(f), Value::Fp(bits)) => {
            // a range holds finite floats of the range only (language doc B.1)
            if sv.domain.is_unbounded() {
                return true;
            }
            let Some(q) = f.to_rational(*bits) else {
                return false;
            };
            let lo_ok =
                sv.domain.lo.as_ref().is_none_or(
                    |b| {
                        if b.strict {
                            q > b.value
                        } else {
                            q >= b.value
                        }
                    },
                );
            let hi_ok =
                sv.domain.hi.as_ref().is_none_or(
                    |b| {
                        if b.strict {
                            q < b.value
                        } else {
                            q <= b.value
                        }
                    },
                );
            lo_ok && hi_ok
        }
        (Sort::Int | Sort::Real | Sort::MachineInt(_), Value::Num(q)) => {
            if sv.sort.is_integral() && !q.is_integer() {
                return false;
            }
            if let Sort::MachineInt(t) = sv.sort {
                if !t.contains(&q.to_integer()) {
                    return false;
                }
            }
            let lo_ok = sv.domain.lo.as_ref().is_none_or(|b| {
                if b.strict {
                    *q > b.value
                } else {
                    *q >= b.value
                }
            });
            let hi_ok = sv.domain.hi.as_ref().is_none_or(|b| {
                if b.strict {
                    *q < b.value
                } else {
                    *q <= b.value
                }
            });
            lo_ok && hi_ok
        }
        // IEEE floats have no exact values in the solver's models yet: never validated
        _ => false,
    }
}

/// Checks a whole run of concrete states exactly (every step as [`step_ok`] does): INIT at
/// the first state, TRANS between neighbours, TARGET at the last, domains and statics.
pub fn trace_ok(ts: &TransitionSystem, val: &dyn Validator, trace: &[Vec<Value>]) -> bool {
    let Some(k) = trace.len().checked_sub(1) else {
        return false;
    };
    trace.iter().enumerate().all(|(i, cur)| {
        cur.len() == ts.state.len()
            && step_ok(ts, val, i, k, i.checked_sub(1).map(|p| &trace[p]), cur)
    })
}

/// Checks step `i` of a run of length `k` exactly: domains, statics, INIT (i = 0) or
/// TRANS(prev, cur), and TARGET at the last step.
fn step_ok(
    ts: &TransitionSystem,
    val: &dyn Validator,
    i: usize,
    k: usize,
    prev: Option<&Vec<Value>>,
    cur: &[Value],
) -> bool {
    if !ts.state.iter().zip(cur).all(|(sv, v)| in_domain(sv, v)) {
        return false;
    }
    let ok = match prev {
        None => val.init(cur),
        Some(p) => {
            let statics_kept = ts
                .state
                .iter()
                .enumerate()
                .all(|(j, sv)| !sv.is_static || p[j] == cur[j]);
            statics_kept && val.trans(p, cur)
        }
    };
    ok && (i < k || val.target(cur))
}

/// The points a model offers: its exactly checked point (SAT answers), then the simple points
/// inside its boxes.
fn points_of(m: &Model) -> Vec<VarMap<Value>> {
    let mut pts = Vec::with_capacity(2);
    if let Some(p) = &m.point {
        pts.push(p.clone());
    }
    pts.push(m.point_candidates());
    pts
}

fn values(p: &VarMap<Value>, step: &[Var]) -> Vec<Value> {
    step.iter()
        .map(|&v| p.get(v).cloned().unwrap_or(Value::Unknown))
        .collect()
}

/// The point assumptions fixing `step` to `vals`.
fn point_lits(s: &mut Solver, step: &[Var], vals: &[Value], out: &mut Vec<Lit>) {
    for (&v, val) in step.iter().zip(vals) {
        match val {
            Value::Bool(b) => {
                if let Some(l) = s.bool_lit(v) {
                    out.push(if *b { l } else { !l });
                }
            }
            Value::Num(q) => {
                out.push(s.bound_lit(v, Rel::Ge, q));
                out.push(s.bound_lit(v, Rel::Le, q));
            }
            Value::Fp(bits) => out.extend(s.fp_point_lits(v, *bits)),
            Value::Unknown => {}
        }
    }
}

/// The least time a replay may spend in re-solving, and how many times the search that
/// found the model it may take beyond that: a replay that cannot find points quickly
/// rarely finds them later, and its answer (a candidate) should not wait for the deadline.
pub const REPLAY_MIN_BUDGET: Duration = Duration::from_secs(2);
pub const REPLAY_FACTOR: u32 = 4;

/// Replays the run of `model` (an answer of `s` under `base` assumptions for the unrolling
/// `u` of depth `k` with its target enabled), found by a search that took `search_time`.
/// `Ok(trace)` when every step was validated exactly; `Err(why)` otherwise. The solver's
/// deadline is narrowed to the replay's budget meanwhile and restored afterwards.
#[allow(clippy::too_many_arguments)]
pub fn replay(
    ts: &TransitionSystem,
    s: &mut Solver,
    u: &Unrolling,
    base: &[Lit],
    model: &Model,
    search_time: Duration,
    val: &dyn Validator,
    limits: &Limits,
) -> Result<Vec<Vec<Value>>, String> {
    let budget = REPLAY_MIN_BUDGET.max(search_time * REPLAY_FACTOR);
    let own = Instant::now() + budget;
    s.set_deadline(Some(limits.deadline.map_or(own, |d| d.min(own))));
    let r = replay_steps(ts, s, u, base, model, val, limits);
    s.set_deadline(limits.deadline);
    r
}

fn replay_steps(
    ts: &TransitionSystem,
    s: &mut Solver,
    u: &Unrolling,
    base: &[Lit],
    model: &Model,
    val: &dyn Validator,
    limits: &Limits,
) -> Result<Vec<Vec<Value>>, String> {
    let k = u.depth();
    let mut pts = points_of(model);
    let mut trace: Vec<Vec<Value>> = Vec::with_capacity(k + 1);
    for i in 0..=k {
        let mut resolved = false;
        loop {
            if let Some(why) = limits.hit() {
                return Err(format!("replay stopped at step {i}: {why}"));
            }
            // each point as the solver gave it, then with the values that INIT or TRANS
            // determine through equalities recomputed exactly from the others
            let chosen = pts.iter().map(|p| values(p, &u.states[i])).find_map(|c| {
                if step_ok(ts, val, i, k, trace.last(), &c) {
                    return Some(c);
                }
                let mut d = c.clone();
                match trace.last() {
                    None => val.complete_init(&mut d),
                    Some(prev) => val.complete_trans(prev, &mut d),
                }
                (d != c && step_ok(ts, val, i, k, trace.last(), &d)).then_some(d)
            });
            if let Some(c) = chosen {
                trace.push(c);
                break;
            }
            if i == 0 || resolved {
                return Err(format!(
                    "no point of the solver's boxes satisfies the original {} exactly at step {i}",
                    if i == 0 { "INIT" } else { "TRANS" }
                ));
            }
            // I(s0) ∧ T(s0,s1) ∧ … ∧ TARGET(sk) ∧ s0 = p0 ∧ … ∧ s(i-1) = p(i-1): rebuild the
            // rest of the run around the validated prefix
            let mut assumptions = base.to_vec();
            for (j, p) in trace.iter().enumerate() {
                point_lits(s, &u.states[j], p, &mut assumptions);
            }
            match s.solve(&assumptions) {
                SolveResult::Sat(m) | SolveResult::Candidate(m) => pts = points_of(&m),
                SolveResult::Unsat => {
                    return Err(format!(
                        "the validated prefix of {i} step(s) cannot be extended to the target"
                    ))
                }
                SolveResult::Unknown(why) => return Err(format!("replay at step {i}: {why}")),
            }
            resolved = true;
        }
    }
    Ok(trace)
}
