//! Re-checking SAFE answers in fresh solvers (DESIGN §3 `certificate`).
//!
//! The idea: BMC and k-induction reach SAFE in long-lived incremental solvers — activation
//! literals released, learned clauses carried from query to query. Before SAFE is reported,
//! the final fact is checked again from scratch, non-incrementally, in a new solver: that
//! `I(s0) ∧ T(s0,s1) ∧ … ∧ T(sk-1,sk)` is unsatisfiable (all runs end), or that the
//! k-induction step formula is. A failure of the incremental machinery then shows up as
//! UNKNOWN instead of a wrong SAFE. (The base cases below k are the BMC queries themselves.)

use crate::engine::Limits;
use crate::kind::add_distinct_from_earlier;
use crate::ts::TransitionSystem;
use crate::unroll::Unrolling;
use solver::{SolveResult, Solver, SolverConfig};

fn expect_unsat(mut s: Solver, what: &str) -> Result<(), String> {
    match s.solve(&[]) {
        SolveResult::Unsat => Ok(()),
        SolveResult::Sat(_) | SolveResult::Candidate(_) => Err(format!(
            "a fresh solver finds {what} satisfiable: the proof is withdrawn"
        )),
        SolveResult::Unknown(why) => Err(format!("{what} could not be re-checked: {why}")),
    }
}

/// `I(s0) ∧ T(s0,s1) ∧ … ∧ T(sk-1,sk)` is unsatisfiable, checked in a fresh solver.
pub fn confirm_runs_end(
    ts: &TransitionSystem,
    k: usize,
    config: &SolverConfig,
    limits: &Limits,
) -> Result<(), String> {
    let mut s = limits.solver(config)?;
    let mut u = Unrolling::new(ts, &mut s);
    u.assert_init(&mut s)?;
    for _ in 0..k {
        u.push_step(&mut s)?;
    }
    // I(s0) ∧ T(s0,s1) ∧ … ∧ T(sk-1,sk)
    expect_unsat(s, &format!("a run of length {k}"))
}

/// The k-induction step formula is unsatisfiable, checked in a fresh solver:
/// `¬TARGET(s0) ∧ … ∧ ¬TARGET(sk-1) ∧ T(s0..sk) ∧ TARGET(sk) ∧ ∧_{i<j≤k} s_i ≠ s_j`
/// (the distinctness constraints only with `simple_path`).
pub fn confirm_step(
    ts: &TransitionSystem,
    k: usize,
    simple_path: bool,
    config: &SolverConfig,
    limits: &Limits,
) -> Result<(), String> {
    let mut s = limits.solver(config)?;
    let mut u = Unrolling::new(ts, &mut s);
    for _ in 0..k {
        u.push_step(&mut s)?;
    }
    for i in 0..=k {
        let roots = u.target_at(&mut s, i)?;
        if i < k {
            let neg: Vec<_> = roots.iter().map(|&r| !r).collect();
            s.add_clause(&neg);
        } else {
            for r in roots {
                s.add_clause(&[r]);
            }
        }
    }
    if simple_path {
        for j in 1..=k {
            add_distinct_from_earlier(ts, &mut s, &u.states, j);
        }
    }
    expect_unsat(s, &format!("the {k}-induction step"))
}
