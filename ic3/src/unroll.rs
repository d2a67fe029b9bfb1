//! Unrolling a transition system into one incremental solver (Biere et al., "Bounded Model
//! Checking", 1999; the incremental form of Eén & Sörensson, "Temporal Induction by
//! Incremental SAT Solving", 2003).
//!
//! The idea: step `k` of a run is a vector of solver variables `s_k`, one per state variable,
//! created with the declared domain (iSAT3's semantics: a state outside the declared ranges
//! does not exist, so a transition that would leave a range is impossible). INIT, TRANS and
//! TARGET are instantiated with [`Solver::add_formula_with`], binding each formula's interface
//! variables (`init_vars`, `trans_current`/`trans_next`, `target_vars`) to the step vectors;
//! their auxiliaries are fresh per instance. A static variable is one solver variable shared
//! by every step (it keeps one value along a run, which TRANS's `s' = s` also says). Nothing
//! is ever re-encoded: going one step deeper adds one copy of TRANS.

use crate::ts::TransitionSystem;
use solver::lit::Lit;
use solver::solve::Roots;
use solver::{Solver, Var};

/// The step vectors of an unrolling in one solver.
pub struct Unrolling<'a> {
    ts: &'a TransitionSystem,
    /// `states[k][i]`: the solver variable of state variable `i` at step `k`
    pub states: Vec<Vec<Var>>,
}

impl<'a> Unrolling<'a> {
    /// Step 0: a fresh solver variable per state variable, in its declared domain.
    pub fn new(ts: &'a TransitionSystem, s: &mut Solver) -> Unrolling<'a> {
        let s0 = ts
            .state
            .iter()
            .map(|v| s.new_var(v.sort, &v.domain))
            .collect();
        Unrolling {
            ts,
            states: vec![s0],
        }
    }

    /// The index of the last step.
    pub fn depth(&self) -> usize {
        self.states.len() - 1
    }

    /// Asserts INIT(s_0).
    pub fn assert_init(&self, s: &mut Solver) -> Result<(), String> {
        let bind: Vec<(Var, Var)> = self
            .ts
            .init_vars
            .iter()
            .zip(&self.states[0])
            .map(|(&f, &v)| (f, v))
            .collect();
        s.add_formula_with(&self.ts.init, &bind, Roots::Assert)
            .map(|_| ())
    }

    /// Adds step `k + 1` and asserts TRANS(s_k, s_{k+1}) (k = the current depth).
    pub fn push_step(&mut self, s: &mut Solver) -> Result<(), String> {
        let cur = self.states.last().expect("step 0 exists").clone();
        let next: Vec<Var> = self
            .ts
            .state
            .iter()
            .zip(&cur)
            .map(|(v, &c)| {
                if v.is_static {
                    c
                } else {
                    s.new_var(v.sort, &v.domain)
                }
            })
            .collect();
        let mut bind: Vec<(Var, Var)> = Vec::with_capacity(2 * cur.len());
        bind.extend(
            self.ts
                .trans_current
                .iter()
                .zip(&cur)
                .map(|(&f, &v)| (f, v)),
        );
        bind.extend(self.ts.trans_next.iter().zip(&next).map(|(&f, &v)| (f, v)));
        s.add_formula_with(&self.ts.trans, &bind, Roots::Assert)?;
        self.states.push(next);
        Ok(())
    }

    /// Instantiates TARGET at step `k` without asserting it; returns its root literals (the
    /// target holds at step `k` iff all of them hold).
    pub fn target_at(&self, s: &mut Solver, k: usize) -> Result<Vec<Lit>, String> {
        let bind: Vec<(Var, Var)> = self
            .ts
            .target_vars
            .iter()
            .zip(&self.states[k])
            .map(|(&f, &v)| (f, v))
            .collect();
        s.add_formula_with(&self.ts.target, &bind, Roots::Leave)
            .map(|m| m.roots)
    }
}
