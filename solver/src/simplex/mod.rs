//! Exact linear reasoning beside ICP (issue #22, item 1): a general simplex over the query's
//! linear definitions refutes bound combinations that interval propagation only approaches
//! in many small steps (over unbounded integers and reals, ICP on `x + y = z` crawls).
//!
//! The idea: every linear definition `out = Σ aᵢ·argᵢ + c` whose variables are all integers or
//! reals becomes a tableau row `s = Σ aᵢ·argᵢ − out` for a fresh slack `s` fixed at `−c`
//! ([`tableau`]). At each fixpoint of BCP+ICP the solver's current bounds of the tableau's
//! problem variables are copied into the tableau (each with the bound literal that set it,
//! see `Solver::lb`), and [`tableau::Tableau::check`] looks for a rational point. If there is
//! none, the certificate's bound literals cannot hold together: they become a conflict
//! (`Conflict::Lits`) that the normal 1UIP analysis turns into a learned clause. Bounds are
//! read from the solver on every check, so backtracking needs nothing here (the tableau keeps
//! its rows and assignment; a looser bound is still satisfied by it).
//!
//! Soundness: the rows are consequences of definitions that hold unconditionally, the bounds
//! are implied by their literals, and the refutation is over the rationals, which contain the
//! integers — a relaxation, so a conflict is sound for integer variables too (the CDCL search
//! splits integer intervals anyway, which plays the role of branch and bound). Every conflict
//! is re-checked exactly, independently of the tableau, in `check-deductions` builds
//! ([`certify`]). No bounds are propagated to ICP; besides conflicts, the last feasible
//! assignment is offered to the exact point check as a candidate point
//! ([`Solver::simplex_point`]), which the check validates like any other point.

#[cfg(any(test, feature = "check-deductions"))]
pub(crate) mod certify;
pub(crate) mod tableau;

use crate::bound_table::{Lb, Ub};
use crate::formula::Op;
use crate::lit::Lit;
use crate::num::Rational;
use crate::solve::{Conflict, Solver, VarKind};
use crate::var::Var;
use num_traits::{One, Zero};
use std::collections::HashMap;
use tableau::{DeltaRat, Feasibility, TBound, TVar, Tableau};

/// Pivots one check may make before it gives up (claiming nothing); keeps a check's cost
/// bounded on large tableaux where exact rationals grow.
const MAX_PIVOTS_PER_CHECK: u64 = 2000;

/// A problem variable of the tableau and the solver bounds last copied into it, with the
/// literals that set them (a bound of the same value may later come from another literal,
/// after backtracking: the explanation must name the literal that is true now).
#[derive(Clone, Debug)]
struct Linked {
    var: Var,
    tvar: TVar,
    lb: (Lb, Lit),
    ub: (Ub, Lit),
}

/// The simplex state the solver keeps (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct LinearState {
    tab: Tableau<Lit>,
    tvar_of: HashMap<Var, TVar>,
    linked: Vec<Linked>,
    /// slack → the index of the definition whose row it is (for certificates)
    slack_def: HashMap<TVar, u32>,
    /// definitions of `Solver::defs` already looked at
    defs_seen: usize,
    /// bounds changed since the last check that ended feasible or gave up
    dirty: bool,
    /// the last check found the bounds feasible (its assignment is a candidate point)
    feasible: bool,
}

/// `x` as an exact lower bound for the tableau (`None`: unbounded).
fn lower_of(lb: Lb) -> Option<DeltaRat> {
    if !lb.v.is_finite() {
        return None;
    }
    let c = Rational::from_float(lb.v)?;
    let k = if lb.strict {
        Rational::one()
    } else {
        Rational::zero()
    };
    Some(DeltaRat::new(c, k))
}

fn upper_of(ub: Ub) -> Option<DeltaRat> {
    if !ub.v.is_finite() {
        return None;
    }
    let c = Rational::from_float(ub.v)?;
    let k = if ub.strict {
        -Rational::one()
    } else {
        Rational::zero()
    };
    Some(DeltaRat::new(c, k))
}

impl LinearState {
    fn tvar(&mut self, v: Var) -> TVar {
        if let Some(&t) = self.tvar_of.get(&v) {
            return t;
        }
        let t = self.tab.new_var();
        self.tvar_of.insert(v, t);
        self.linked.push(Linked {
            var: v,
            tvar: t,
            lb: (Lb::NONE, Lit::UNDEF),
            ub: (Ub::NONE, Lit::UNDEF),
        });
        self.dirty = true;
        t
    }
}

impl Solver {
    /// Whether definition `d` is a linear equation over integers and reals only.
    fn is_tableau_def(&self, d: usize) -> bool {
        let def = &self.defs[d];
        let num = |v: Var| matches!(self.vars[v].kind, VarKind::Int | VarKind::Real);
        match &def.op {
            Op::Linear { coeffs, .. } => {
                coeffs.len() == def.args.len() && num(def.out) && def.args.iter().all(|&a| num(a))
            }
            _ => false,
        }
    }

    /// Adds the rows of definitions added since the last call.
    fn absorb_linear_defs(&mut self) {
        let Some(mut st) = self.linear.take() else {
            return;
        };
        while st.defs_seen < self.defs.len() {
            let d = st.defs_seen;
            st.defs_seen += 1;
            if !self.is_tableau_def(d) {
                continue;
            }
            let def = &self.defs[d];
            let Op::Linear { coeffs, constant } = &def.op else {
                continue;
            };
            let mut terms: Vec<(TVar, Rational)> = Vec::with_capacity(def.args.len() + 1);
            for (a, c) in def.args.iter().zip(coeffs) {
                terms.push((st.tvar(*a), c.clone()));
            }
            terms.push((st.tvar(def.out), -Rational::one()));
            // s = Σ a·arg − out = −c, unconditionally
            let s = st.tab.add_row(&terms);
            let fixed = DeltaRat::exact(-constant.clone());
            st.tab.set_lower(
                s,
                Some(TBound {
                    value: fixed.clone(),
                    reason: None,
                }),
            );
            st.tab.set_upper(
                s,
                Some(TBound {
                    value: fixed,
                    reason: None,
                }),
            );
            st.slack_def.insert(s, d as u32);
            st.dirty = true;
        }
        self.linear = Some(st);
    }

    /// Copies the solver's current bounds of the problem variables into the tableau.
    fn sync_linear_bounds(&self, st: &mut LinearState) {
        for i in 0..st.linked.len() {
            let Linked { var, tvar, lb, ub } = st.linked[i].clone();
            let (nlb, nlit) = self.lb[var];
            let (nub, ulit) = self.ub[var];
            if (nlb, nlit) != lb {
                let b = lower_of(nlb).map(|value| TBound {
                    value,
                    reason: (!nlit.is_undef()).then_some(nlit),
                });
                st.tab.set_lower(tvar, b);
                st.linked[i].lb = (nlb, nlit);
                st.dirty = true;
            }
            if (nub, ulit) != ub {
                let b = upper_of(nub).map(|value| TBound {
                    value,
                    reason: (!ulit.is_undef()).then_some(ulit),
                });
                st.tab.set_upper(tvar, b);
                st.linked[i].ub = (nub, ulit);
                st.dirty = true;
            }
        }
    }

    /// The point the last feasible simplex check found, for the exact point check: values
    /// of the input variables (not defined by a definition) of the tableau, with δ made
    /// concrete, each inside its variable's current box (integers only where integral).
    /// The exact check decides whether it is a solution; this only proposes it.
    pub(crate) fn simplex_point(&self) -> Vec<(Var, Rational)> {
        let Some(st) = self.linear.as_ref() else {
            return Vec::new();
        };
        if !st.feasible || st.dirty {
            return Vec::new();
        }
        let delta = st.tab.concrete_delta();
        let mut out = Vec::new();
        for l in &st.linked {
            if self.vars[l.var].defined_by.is_some() {
                continue;
            }
            let v = st.tab.value(l.tvar);
            let x = &v.c + &v.k * &delta;
            let int = self.vars[l.var].kind == VarKind::Int;
            if (int && !x.is_integer()) || !self.ibox(l.var).contains_rational(&x) {
                continue;
            }
            out.push((l.var, x));
        }
        out
    }

    /// The simplex check at a BCP+ICP fixpoint: a conflict (in `confl_lits`) when the current
    /// bounds of the linear variables admit no rational point.
    pub(crate) fn linear_check(&mut self) -> Option<Conflict> {
        self.linear.as_ref()?;
        if self
            .linear
            .as_ref()
            .is_some_and(|st| st.defs_seen < self.defs.len())
        {
            self.absorb_linear_defs();
        }
        let mut st = self.linear.take()?;
        if st.tab.num_rows() == 0 {
            self.linear = Some(st);
            return None;
        }
        self.sync_linear_bounds(&mut st);
        if !st.dirty {
            self.linear = Some(st);
            return None;
        }
        self.stats.simplex_checks += 1;
        let before = st.tab.pivots;
        let answer = st.tab.check(MAX_PIVOTS_PER_CHECK, self.deadline);
        self.stats.simplex_pivots += st.tab.pivots - before;
        st.feasible = answer == Feasibility::Feasible;
        let result = match answer {
            Feasibility::Feasible | Feasibility::GaveUp => {
                st.dirty = false;
                None
            }
            Feasibility::Infeasible(cert) => {
                self.stats.simplex_conflicts += 1;
                self.confl_lits.clear();
                for &l in &cert.reasons {
                    if !self.confl_lits.contains(&l) {
                        self.confl_lits.push(l);
                    }
                }
                debug_assert!(self.confl_lits.iter().all(|&l| self.lit_true(l)));
                #[cfg(any(test, feature = "check-deductions"))]
                {
                    let mults: Vec<(u32, Rational)> = cert
                        .row
                        .iter()
                        .filter_map(|(x, a)| st.slack_def.get(x).map(|&d| (d, a.clone())))
                        .collect();
                    if let Err(why) = certify::check_conflict(self, &mults, &self.confl_lits) {
                        panic!(
                            "check-deductions: unsound simplex conflict: {why}; \
                             multipliers {mults:?}; literals {:?}",
                            self.confl_lits
                                .iter()
                                .map(|&l| self.lit_to_string(l))
                                .collect::<Vec<_>>()
                        );
                    }
                }
                Some(Conflict::Lits)
            }
        };
        self.linear = Some(st);
        result
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{LinearReasoning, SolverConfig};
    use crate::formula::{Domain, Op, Rel, Sort};
    use crate::num::Rational;
    use crate::solve::{SolveResult, Solver};
    use crate::var::Var;

    fn q(n: i64) -> Rational {
        Rational::from_integer(n.into())
    }

    fn solver(linear: LinearReasoning) -> Solver {
        let mut s = Solver::new(SolverConfig {
            linear,
            ..SolverConfig::default()
        })
        .unwrap();
        s.set_conflict_budget(Some(2000));
        s
    }

    /// `out = Σ c·x` over fresh unbounded variables of `sort`.
    fn linear(s: &mut Solver, sort: Sort, terms: &[(i64, Var)]) -> Var {
        let out = s.new_var(sort, &Domain::unbounded());
        let op = Op::Linear {
            coeffs: terms.iter().map(|t| q(t.0)).collect(),
            constant: q(0),
        };
        s.add_def(out, op, terms.iter().map(|t| t.1).collect());
        out
    }

    /// `a = x − y`, `b = y − x` over unbounded `sort` variables, with `a rel_a 0` and
    /// `b rel_b 0` as assumptions.
    fn opposite_differences(
        linear_mode: LinearReasoning,
        sort: Sort,
        rel_a: (Rel, i64),
        rel_b: (Rel, i64),
    ) -> (Solver, SolveResult) {
        let mut s = solver(linear_mode);
        let x = s.new_var(sort, &Domain::unbounded());
        let y = s.new_var(sort, &Domain::unbounded());
        let a = linear(&mut s, sort, &[(1, x), (-1, y)]);
        let b = linear(&mut s, sort, &[(-1, x), (1, y)]);
        let la = s.bound_lit(a, rel_a.0, &q(rel_a.1));
        let lb = s.bound_lit(b, rel_b.0, &q(rel_b.1));
        let r = s.solve(&[la, lb]);
        (s, r)
    }

    #[test]
    fn refutes_what_interval_propagation_cannot_over_unbounded_variables() {
        // a = x − y ≥ 1 and b = y − x ≥ 1: a + b = 0. ICP learns nothing about unbounded x, y.
        for sort in [Sort::Real, Sort::Int] {
            let (s, r) =
                opposite_differences(LinearReasoning::Simplex, sort, (Rel::Ge, 1), (Rel::Ge, 1));
            assert!(r.is_unsat(), "{sort:?}: {r:?}");
            assert!(s.stats().simplex_conflicts >= 1);
            // both assumptions are needed
            assert_eq!(s.failed_assumptions().len(), 2);
            let (_, r) =
                opposite_differences(LinearReasoning::Icp, sort, (Rel::Ge, 1), (Rel::Ge, 1));
            assert!(!r.is_unsat(), "ICP alone should not refute this: {r:?}");
        }
    }

    #[test]
    fn strict_and_non_strict_bounds_are_exact() {
        // a > 0 and b >= 0 (a = −b): unsat; a >= 0 and b >= 0: sat at x = y
        let (_, r) = opposite_differences(
            LinearReasoning::Simplex,
            Sort::Real,
            (Rel::Gt, 0),
            (Rel::Ge, 0),
        );
        assert!(r.is_unsat(), "{r:?}");
        let (s, r) = opposite_differences(
            LinearReasoning::Simplex,
            Sort::Real,
            (Rel::Ge, 0),
            (Rel::Ge, 0),
        );
        assert!(r.is_sat(), "{r:?}");
        assert_eq!(s.stats().simplex_conflicts, 0);
    }

    #[test]
    fn the_certificate_check_rejects_wrong_multipliers() {
        // a = x − y, b = y − x with a ≥ 1 and b ≥ 1 true at level 1: the multipliers (1, 1)
        // refute, (1, −1) and (1, 0) do not.
        let mut s = solver(LinearReasoning::Icp);
        let x = s.new_var(Sort::Real, &Domain::unbounded());
        let y = s.new_var(Sort::Real, &Domain::unbounded());
        let a = linear(&mut s, Sort::Real, &[(1, x), (-1, y)]);
        let b = linear(&mut s, Sort::Real, &[(-1, x), (1, y)]);
        let la = s.bound_lit(a, Rel::Ge, &q(1));
        let lb = s.bound_lit(b, Rel::Ge, &q(1));
        let lits = [la, lb];
        assert!(super::certify::check_conflict(&s, &[(0, q(1)), (1, q(1))], &lits).is_ok());
        assert!(super::certify::check_conflict(&s, &[(0, q(2)), (1, q(2))], &lits).is_ok());
        assert!(super::certify::check_conflict(&s, &[(0, q(1)), (1, q(-1))], &lits).is_err());
        assert!(super::certify::check_conflict(&s, &[(0, q(1))], &lits).is_err());
        // without b's bound nothing is refuted
        assert!(super::certify::check_conflict(&s, &[(0, q(1)), (1, q(1))], &[la]).is_err());
    }
}
