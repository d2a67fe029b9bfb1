//! The bad-state query with the k-induction suffix (paper §2.4.6).
//!
//! The idea: standard IC3 (`ind0`) asks for a state of `F_k` with a successor in TARGET. With
//! suffix length `K` (`indK`) it asks for a state of `F_k` that starts a path of `K + 1`
//! transitions ending in TARGET whose inner states avoid TARGET:
//! `F_k(s0) ∧ T(s0,s1) ∧ ¬TG(s1) ∧ … ∧ T(sK,sK+1) ∧ TG(sK+1)`. More states are bad at once,
//! like the step case of k-induction, so IC3 enumerates fewer of them. This is sound once no
//! run of length `≤ K + 1` reaches the target (checked by BMC before IC3 starts): a shortest
//! counterexample then always has such a path from a reachable state (see `certificate`).
//!
//! `+abort` (§2.4.6): when [`crate::config::Ic3Config::abort_limit`] obligations pass at one
//! frontier, the run is abandoned and IC3 starts from scratch with a suffix as long as the
//! number of frames reached (at least one more than before), so the stuck frontier's depth
//! is covered by the suffix.

use super::block::Obligation;
use super::cube::Cube;
use super::{Ic3, Stop};
use solver::SolveResult;

impl Ic3<'_> {
    /// One bad-state query on `F_k`: queues the obligation it finds (`true`), or `false`
    /// when `F_k` has no bad state.
    pub(crate) fn bad_state(&mut self, k: usize) -> Result<bool, Stop> {
        if let Some(why) = self.limits.hit() {
            return Err(Stop::Unknown(why.to_string()));
        }
        // F_k(s0) ∧ T(s0,s1) ∧ ¬TG(s1) ∧ … ∧ T(sK,sK+1) ∧ TG(sK+1)
        self.stats.solver_calls += 1;
        match self.frames.solve_bad(k) {
            SolveResult::Unsat => Ok(false),
            SolveResult::Sat(m) | SolveResult::Candidate(m) => {
                let steps = &self.frames.bad.steps;
                let pre = steps[0].values(&m);
                let mut to: Vec<_> = Vec::new();
                let mut exact = true;
                for step in &steps[1..] {
                    match step.values(&m) {
                        Some(v) => to.push(v),
                        None => exact = false,
                    }
                }
                let box_cube = Cube::of_box(&self.ts.state, &m, &steps[0].vars);
                let cube = match (&pre, exact) {
                    (Some(p), true) => {
                        let e = Cube::of_point(&self.ts.state, p);
                        let s1 = Cube::of_point(&self.ts.state, &to[0]);
                        self.gentr(e, &s1)
                    }
                    _ => box_cube,
                };
                let ob = Obligation {
                    cube,
                    level: k,
                    depth: 0,
                    next: None,
                    to: if exact { to } else { Vec::new() },
                    exact: exact && pre.is_some(),
                    act: 0,
                };
                self.new_obligation(ob)?;
                Ok(true)
            }
            SolveResult::Unknown(why) => Err(Stop::Unknown(why)),
        }
    }
}
