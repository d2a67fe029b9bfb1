//! Generalizing proof obligations with the negated transition relation, GeNTR (paper §2.4.5).
//!
//! The idea: the predecessor query found a state `e` and a successor `p` with `T(e, p)`, so
//! `e(s0) ∧ ¬T(s0,s1) ∧ p(s1)` is UNSAT. Literal rotation on the `e` literals of that query
//! keeps only those that force `T`: every state of the reduced cube `ê` then has `p` as a
//! successor. Lifting (`ê ∧ T ∧ ¬ĉ'`) would need `T` to be left-total, which a relation is
//! not, so it is not used for proof obligations.
//!
//! `p` is the exact successor state, not the successor obligation's cube: `ê ∧ ¬T ∧ ĉ'` is
//! satisfiable as soon as `ĉ` holds a state `e` cannot reach. Because every state of each
//! obligation reaches the recorded successor state of the next, a chain of obligations that
//! meets `I` is a real run, which the exact replay then confirms.
//!
//! `¬T` is TRANS's Tseitin roots negated, `∨ ¬r`, with TRANS's definitions kept. Definitions
//! are total functions, except operations with unspecified values (e.g. `x / 0`), for which
//! `∃aux. defs ∧ ¬roots` is weaker than `¬T` — an UNSAT answer is still a proof that `T`
//! holds. Lemma literals are never derived from this solver.

use super::cube::{Cube, Step};
use super::frames::{add_trans, new_state};
use super::generalize::{drop_each, rotate};
use super::Ic3;
use crate::engine::Limits;
use crate::ts::TransitionSystem;
use solver::lit::Lit;
use solver::solve::Roots;
use solver::Value;
use solver::{Solver, SolverConfig};
use std::time::Instant;

/// `¬T(s0, s1)` in its own solver.
pub struct LiftSolver {
    pub s: Solver,
    pub cur: Step,
    pub next: Step,
}

impl LiftSolver {
    pub fn new(
        ts: &TransitionSystem,
        config: &SolverConfig,
        limits: &Limits,
    ) -> Result<LiftSolver, String> {
        let mut s = limits.solver(config)?;
        let a = new_state(ts, &mut s);
        let b = new_state(ts, &mut s);
        let roots = add_trans(ts, &mut s, &a, &b, Roots::Leave)?;
        let neg: Vec<Lit> = roots.iter().map(|&r| !r).collect();
        s.add_clause(&neg);
        let cur = Step::new(&s, a);
        let next = Step::new(&s, b);
        Ok(LiftSolver { s, cur, next })
    }
}

impl Ic3<'_> {
    /// GeNTR: a sub-cube of the state cube `e` every state of which has the successor `p`.
    /// Returns `e` unchanged when `e(s0) ∧ ¬T ∧ p(s1)` is not refuted.
    pub(crate) fn gentr(&mut self, e: Cube, p: &Cube) -> Cube {
        if !self.cfg.gentr || e.is_empty() {
            return e;
        }
        let t0 = Instant::now();
        self.stats.gentr_calls += 1;
        let prefix = self.lift.next.lits(&mut self.lift.s, &p.0);
        let order = self.shuffled(&e);
        let lits = self.lift.cur.lits(&mut self.lift.s, &order);
        let mut a = prefix.clone();
        a.extend_from_slice(&lits);
        self.stats.solver_calls += 1;
        // e(s0) ∧ ¬T(s0,s1) ∧ p(s1)
        if !self.lift.s.solve(&a).is_unsat() {
            self.stats.gentr_time += t0.elapsed();
            return e;
        }
        let how = self.rotation();
        let core = rotate(
            &mut self.lift.s,
            &self.lift.cur,
            &prefix,
            (order, lits),
            // a weaker bound is no sub-cube of the predecessor any more, which is fine for
            // GeNTR (every state of the result still reaches p)
            how,
            &mut self.stats,
        );
        let g = if self.cfg.ld {
            // e(s0) ∧ ¬T ∧ p(s1) without one literal of e
            drop_each(core, |trial| {
                let tl = self.lift.cur.lits(&mut self.lift.s, trial);
                let mut a = prefix.clone();
                a.extend_from_slice(&tl);
                self.stats.solver_calls += 1;
                self.lift.s.solve(&a).is_unsat()
            })
        } else {
            core
        };
        let g = Cube::new(g);
        if !e.is_empty() {
            self.stats.gentr_red_sum += e.len().saturating_sub(g.len()) as f64 / e.len() as f64;
        }
        self.stats.gentr_time += t0.elapsed();
        g
    }

    /// Lifting (§3.2, `+lf`), for CTG and Down() predecessors only: a sub-cube of the state
    /// `pre` every state of which has all its successors inside `c` — `e(s0) ∧ T ∧ ¬c(s1)`
    /// UNSAT, then literal rotation on `e`. `None` when the state does not lift (`T` is a
    /// relation: some successor of `pre` leaves `c`). A lifted cube may hold states without
    /// any successor, which are no predecessors of `c`; a CTG may (it is only blocked after
    /// its own check), a proof obligation may not — hence GeNTR there.
    pub(crate) fn lift(&mut self, pre: &[Value], c: &Cube) -> Option<Cube> {
        let t0 = Instant::now();
        let e = Cube::of_point(&self.ts.state, pre);
        let q = self.frames.begin_lift(c);
        let order = self.shuffled(&e);
        self.stats.solver_calls += 1;
        // e(s0) ∧ T(s0,s1) ∧ ¬c(s1)
        let (r, lits) = self.frames.solve_cur(&q, &order);
        let out = if r.is_unsat() {
            let how = self.rotation();
            let prefix = q.frame_assumptions.clone();
            let fs = self.frames.solver(q.solver);
            let core = rotate(
                &mut fs.s,
                &fs.cur,
                &prefix,
                (order, lits),
                how,
                &mut self.stats,
            );
            self.stats.lifted += 1;
            Some(Cube::new(core))
        } else {
            None
        };
        self.frames.end(q);
        self.stats.gentr_time += t0.elapsed();
        out
    }
}
