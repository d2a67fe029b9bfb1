//! The certificate of a SAFE answer and its independent check in fresh solvers (paper §2.2:
//! `I ⇒ F`, `F ∧ T ⇒ F'`, `F ⇒ P`; for the `indK` suffix of §2.4.6 the K-step form below).
//!
//! The certificate is a set of lemmas `L = ¬c_1 ∧ … ∧ ¬c_n` (clauses over bound and Boolean
//! literals of the state variables) and the suffix length `K`. With `Inv = L ∧ ¬TARGET` it
//! claims:
//!
//! 1. `I ⇒ L`                                           (initiation, per lemma: `I ∧ c_j` UNSAT)
//! 2. `Inv(s0) ∧ T(s0,s1) ⇒ L(s1)`                      (consecution, per lemma)
//! 3. `Inv(s0) ∧ T(s0,s1) ∧ ¬TG(s1) ∧ … ∧ T(sK,sK+1) ∧ TG(sK+1)` is UNSAT, with `L` also
//!    assumed at `s1 … sK+1`
//! 4. no run of length `0 … K` reaches the target       (BMC)
//!
//! A *distinct-state* certificate (k-induction's, `crate::kind`) claims 3 only for paths whose
//! states `s0 … sK+1` are pairwise distinct (the simple-path constraints).
//!
//! Why that proves SAFE: take a shortest run reaching the target, of length `n`. Its states
//! before the last avoid the target, and by 1 and 2 they all satisfy `L`, so they lie in `Inv`;
//! by 2 once more the last state satisfies `L` too. If `n ≥ K + 1`, the states from `n - K - 1`
//! on form the path that 3 excludes (`L` at each of them is true, so assuming it there
//! excludes nothing that could happen: it only spares the solver re-deriving `L` by
//! consecution, which k-induction under lemmas, `crate::kind`, relies on); so `n ≤ K`,
//! which 4 excludes. A shortest run has no repeated state (cutting the loop would give a
//! shorter one), so its last `K + 2` states are pairwise distinct and the distinct-state form
//! of 3 excludes them just the same. For `K = 0`, 2 and 3 say `Inv` is inductive and 4 says
//! `I ⇒ ¬TARGET`: `Inv` is an ordinary inductive invariant.
//!
//! Each condition is checked in a solver of its own, built from the transition system and the
//! lemmas alone — nothing of the IC3 run (frames, learned clauses, activation literals)
//! is reused. `¬TARGET` in the antecedent is TARGET's roots negated, which can only mean more
//! states than `¬TARGET`: an UNSAT answer still proves the condition.

use super::cube::{Cube, Step};
use crate::engine::Limits;
use crate::ts::TransitionSystem;
use crate::unroll::Unrolling;
use solver::lit::Lit;
use solver::solve::Roots;
use solver::{Formula, SolveResult, Solver, SolverConfig, Var};

/// A SAFE certificate.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// the lemmas `¬c` as their cubes `c`
    pub lemmas: Vec<Cube>,
    /// the suffix length `K`
    pub suffix: usize,
    /// condition 3 only over pairwise distinct states
    pub distinct: bool,
}

impl Certificate {
    /// The lemmas `L` in `.hys` syntax, one clause per line (the invariant is `L ∧ ¬TARGET`).
    pub fn lines(&self, ts: &TransitionSystem) -> Vec<String> {
        self.lemmas
            .iter()
            .map(|c| format!("{};", c.lemma_text(ts)))
            .collect()
    }

    /// The answer's invariant: the printed lemmas, the suffix form, and the cubes.
    pub fn invariant(self, ts: &TransitionSystem) -> crate::engine::Invariant {
        crate::engine::Invariant {
            lines: self.lines(ts),
            suffix: self.suffix,
            distinct: self.distinct,
            cubes: self.lemmas,
        }
    }
}

/// What the check did.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckReport {
    /// fresh solvers built
    pub solvers: usize,
    /// queries answered UNSAT
    pub queries: usize,
}

/// The lemma part `L` of an invariant, in one of two forms: IC3's cubes, or a formula over
/// the state variables (the printed invariant parsed back by the front end, which makes
/// `--check-certificate` independent of the cube-to-literal translation).
pub enum Lemmas<'a> {
    Cubes(&'a [Cube]),
    /// a formula and the variable of each state variable in it
    Formula(&'a Formula, &'a [Var]),
}

impl Lemmas<'_> {
    /// Instantiates `L` at a step of `s`: literals that all hold iff `L` does.
    fn roots(&self, s: &mut Solver, step: &[Var]) -> Result<Vec<Lit>, String> {
        match self {
            Lemmas::Cubes(cubes) => {
                let st = Step::new(s, step.to_vec());
                let mut roots = Vec::with_capacity(cubes.len());
                for c in cubes.iter() {
                    // r ⇔ ¬c: (¬r ∨ ¬l_1 ∨ … ∨ ¬l_n) and (r ∨ l_i) for each i
                    let r = s.new_activation();
                    let mut long = vec![!r];
                    long.extend(st.clause(s, c));
                    s.add_clause(&long);
                    for l in st.lits(s, &c.0) {
                        s.add_clause(&[r, l]);
                    }
                    roots.push(r);
                }
                Ok(roots)
            }
            Lemmas::Formula(f, vars) => {
                let bind: Vec<(Var, Var)> = vars.iter().zip(step).map(|(&a, &b)| (a, b)).collect();
                Ok(s.add_formula_with(f, &bind, Roots::Leave)?.roots)
            }
        }
    }
}

fn expect_unsat(s: &mut Solver, what: &str, rep: &mut CheckReport) -> Result<(), String> {
    match s.solve(&[]) {
        SolveResult::Unsat => {
            rep.queries += 1;
            Ok(())
        }
        SolveResult::Sat(_) => Err(format!("certificate rejected: {what} is satisfiable")),
        SolveResult::Candidate(_) => Err(format!(
            "certificate not confirmed: {what} is not refuted (a candidate solution)"
        )),
        SolveResult::Unknown(why) => Err(format!("certificate not checked: {what}: {why}")),
    }
}

/// `¬TARGET` at step `k` of an unrolling (TARGET's roots negated).
fn assert_not_target(u: &Unrolling, s: &mut Solver, k: usize) -> Result<(), String> {
    let neg: Vec<Lit> = u.target_at(s, k)?.iter().map(|&r| !r).collect();
    s.add_clause(&neg);
    Ok(())
}

/// TARGET at step `k` of an unrolling.
fn assert_target(u: &Unrolling, s: &mut Solver, k: usize) -> Result<(), String> {
    for r in u.target_at(s, k)? {
        s.add_clause(&[r]);
    }
    Ok(())
}

/// Checks conditions 1–4 (see the module documentation), each in a fresh solver.
pub fn check(
    ts: &TransitionSystem,
    lemmas: &Lemmas,
    suffix: usize,
    config: &SolverConfig,
    limits: &Limits,
) -> Result<CheckReport, String> {
    check_path(ts, lemmas, suffix, false, config, limits)
}

/// [`check`], with condition 3 over pairwise distinct states when `distinct`.
pub fn check_path(
    ts: &TransitionSystem,
    lemmas: &Lemmas,
    suffix: usize,
    distinct: bool,
    config: &SolverConfig,
    limits: &Limits,
) -> Result<CheckReport, String> {
    let mut rep = CheckReport::default();
    // 1. I(s) ∧ ¬L(s)
    {
        let mut s = limits.solver(config)?;
        rep.solvers += 1;
        let u = Unrolling::new(ts, &mut s);
        u.assert_init(&mut s)?;
        let neg: Vec<Lit> = lemmas
            .roots(&mut s, &u.states[0])?
            .iter()
            .map(|&r| !r)
            .collect();
        s.add_clause(&neg);
        expect_unsat(&mut s, "I ∧ ¬L (initiation)", &mut rep)?;
    }
    // 2. L(s0) ∧ ¬TG(s0) ∧ T(s0,s1) ∧ ¬L(s1)
    {
        let mut s = limits.solver(config)?;
        rep.solvers += 1;
        let mut u = Unrolling::new(ts, &mut s);
        for r in lemmas.roots(&mut s, &u.states[0])? {
            s.add_clause(&[r]);
        }
        assert_not_target(&u, &mut s, 0)?;
        u.push_step(&mut s)?;
        let neg: Vec<Lit> = lemmas
            .roots(&mut s, &u.states[1])?
            .iter()
            .map(|&r| !r)
            .collect();
        s.add_clause(&neg);
        expect_unsat(&mut s, "L ∧ ¬TARGET ∧ T ∧ ¬L' (consecution)", &mut rep)?;
    }
    // 3. L(s0) ∧ ¬TG(s0) ∧ T(s0,s1) ∧ L(s1) ∧ ¬TG(s1) ∧ … ∧ T(sK,sK+1) ∧ L(sK+1) ∧ TG(sK+1)
    {
        let mut s = limits.solver(config)?;
        rep.solvers += 1;
        let mut u = Unrolling::new(ts, &mut s);
        for j in 0..=suffix {
            for r in lemmas.roots(&mut s, &u.states[j])? {
                s.add_clause(&[r]);
            }
            assert_not_target(&u, &mut s, j)?;
            u.push_step(&mut s)?;
        }
        for r in lemmas.roots(&mut s, &u.states[suffix + 1])? {
            s.add_clause(&[r]);
        }
        if distinct {
            for j in 1..=suffix + 1 {
                crate::kind::add_distinct_from_earlier(ts, &mut s, &u.states, j);
            }
        }
        assert_target(&u, &mut s, suffix + 1)?;
        expect_unsat(
            &mut s,
            &format!(
                "L ∧ ¬TARGET ∧ (TARGET reached in exactly {} steps{})",
                suffix + 1,
                if distinct { ", distinct states" } else { "" }
            ),
            &mut rep,
        )?;
    }
    // 4. I(s0) ∧ T(s0,s1) ∧ … ∧ TG(sn) for n = 0 … K
    for n in 0..=suffix {
        let mut s = limits.solver(config)?;
        rep.solvers += 1;
        let mut u = Unrolling::new(ts, &mut s);
        u.assert_init(&mut s)?;
        for _ in 0..n {
            u.push_step(&mut s)?;
        }
        assert_target(&u, &mut s, n)?;
        expect_unsat(
            &mut s,
            &format!("a run of length {n} to the target"),
            &mut rep,
        )?;
    }
    Ok(rep)
}
