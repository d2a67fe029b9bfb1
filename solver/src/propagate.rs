//! Assignment, the trail, bound implications and Boolean constraint propagation (paper §2.3:
//! "BCP", "bound-implication clauses generated lazily").
//!
//! The idea: every assignment goes through [`Solver::assign`]. For a bound literal that
//! tightens its variable's interval it records the previous bound on the *bound trail*
//! (backtracking is a pop), checks the interval for emptiness (a conflict with the literal of
//! the opposite bound), assigns the relevant atoms that have just become implied with the
//! bound implication as reason (`Reason::Implied(lit)`, the implication clause `¬lit ∨ atom`
//! is never materialized), and schedules the propagators watching the variable. BCP then
//! processes the trail with two watched literals; ICP runs when BCP is at its fixpoint
//! ([`Solver::propagate`]).

use crate::bound_table::{bounds_empty, Lb, Ub};
use crate::clause::Watcher;
use crate::lit::{LBool, Lit};
use crate::solve::{AtomKind, BoundUndo, Conflict, Reason, Solver};
use crate::var::Var;
use std::cmp::Ordering;

impl Solver {
    #[inline]
    pub(crate) fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    pub(crate) fn new_decision_level(&mut self) {
        self.trail_lim.push(self.trail.len() as u32);
        self.bound_lim.push(self.bound_trail.len() as u32);
        self.arena_lim.push(self.theory_arena.len() as u32);
    }

    #[inline]
    pub(crate) fn lit_true(&self, l: Lit) -> bool {
        let v = self.value[l.atom().index()];
        if l.is_negated() {
            v < 0
        } else {
            v > 0
        }
    }

    #[inline]
    pub(crate) fn lit_false(&self, l: Lit) -> bool {
        let v = self.value[l.atom().index()];
        if l.is_negated() {
            v > 0
        } else {
            v < 0
        }
    }

    /// Queues every propagator that reads `v`.
    #[inline]
    pub(crate) fn schedule_var(&mut self, v: Var) {
        for k in 0..self.var_props[v].len() {
            let p = self.var_props[v][k];
            self.schedule_prop(p);
        }
    }

    #[inline]
    pub(crate) fn schedule_prop(&mut self, p: u32) {
        if !self.in_icp_queue[p as usize] {
            self.in_icp_queue[p as usize] = true;
            self.icp_queue.push_back(p);
        }
    }

    /// Assigns an unassigned literal. For a tightening bound literal: updates the bound,
    /// checks emptiness and assigns the relevant atoms it implies. On a conflict the literal
    /// stays assigned (so that conflict analysis finds it) and `Err` is returned.
    pub(crate) fn assign(&mut self, lit: Lit, reason: Reason) -> Result<(), Conflict> {
        let a = lit.atom().index();
        debug_assert_eq!(self.value[a], 0, "assigning an assigned literal");
        self.value[a] = if lit.is_negated() { -1 } else { 1 };
        self.level[a] = self.decision_level();
        self.reason[a] = reason;
        self.trail.push(lit);
        self.stats.propagations += 1;
        match self.atom_kind[a] {
            AtomKind::Bool(v) => {
                self.schedule_var(v);
                Ok(())
            }
            AtomKind::Bound(bi) => {
                let b = self.bound_core[bi as usize];
                let var = b.var;
                if !lit.is_negated() {
                    let nu = b.if_true();
                    let (old, old_lit) = self.ub[var];
                    if nu.cmp_tightness(old) != Ordering::Less {
                        return Ok(());
                    }
                    self.set_ub(var, nu, lit, old, old_lit)
                } else {
                    let nl = b.if_false();
                    let (old, old_lit) = self.lb[var];
                    if nl.cmp_tightness(old) != Ordering::Greater {
                        return Ok(());
                    }
                    self.set_lb(var, nl, lit, old, old_lit)
                }
            }
        }
    }

    fn set_ub(
        &mut self,
        var: Var,
        nu: Ub,
        lit: Lit,
        old: Ub,
        old_lit: Lit,
    ) -> Result<(), Conflict> {
        let (lb, lb_lit) = self.lb[var];
        if bounds_empty(lb, nu) {
            self.confl_lits.clear();
            self.confl_lits.push(lit);
            if !lb_lit.is_undef() {
                self.confl_lits.push(lb_lit);
            }
            return Err(Conflict::Lits);
        }
        self.bound_trail.push(BoundUndo {
            var,
            upper: true,
            v: old.v,
            strict: old.strict,
            lit: old_lit,
        });
        self.ub[var] = (nu, lit);
        if self.trail_lim.is_empty() {
            self.root_ub[var] = nu;
        }
        let range = self.tables[var].newly_true(nu, old);
        for i in range {
            let at = self.tables[var].ub_atom(i);
            match self.value[at.index()] {
                0 => {
                    self.assign(crate::lit::Lit::pos(at), Reason::Implied(lit))?;
                }
                v if v < 0 => {
                    // the implication lit ⇒ at is violated (the bounds are contradictory)
                    self.confl_lits.clear();
                    self.confl_lits.push(lit);
                    self.confl_lits.push(!crate::lit::Lit::pos(at));
                    return Err(Conflict::Lits);
                }
                _ => {}
            }
        }
        self.schedule_var(var);
        Ok(())
    }

    fn set_lb(
        &mut self,
        var: Var,
        nl: Lb,
        lit: Lit,
        old: Lb,
        old_lit: Lit,
    ) -> Result<(), Conflict> {
        let (ub, ub_lit) = self.ub[var];
        if bounds_empty(nl, ub) {
            self.confl_lits.clear();
            self.confl_lits.push(lit);
            if !ub_lit.is_undef() {
                self.confl_lits.push(ub_lit);
            }
            return Err(Conflict::Lits);
        }
        self.bound_trail.push(BoundUndo {
            var,
            upper: false,
            v: old.v,
            strict: old.strict,
            lit: old_lit,
        });
        self.lb[var] = (nl, lit);
        if self.trail_lim.is_empty() {
            self.root_lb[var] = nl;
        }
        let range = self.tables[var].newly_false(nl, old);
        for i in range {
            let at = self.tables[var].lb_atom(i);
            match self.value[at.index()] {
                0 => {
                    self.assign(!crate::lit::Lit::pos(at), Reason::Implied(lit))?;
                }
                v if v > 0 => {
                    self.confl_lits.clear();
                    self.confl_lits.push(lit);
                    self.confl_lits.push(crate::lit::Lit::pos(at));
                    return Err(Conflict::Lits);
                }
                _ => {}
            }
        }
        self.schedule_var(var);
        Ok(())
    }

    /// Undoes every level above `level`: literals (saving phases, re-inserting atoms into
    /// the decision heap), bounds (re-inserting variables into the split heap), theory
    /// reasons, and the ICP queue.
    pub(crate) fn backtrack(&mut self, level: u32) {
        if self.decision_level() <= level {
            return;
        }
        let lv = level as usize;
        let tpos = self.trail_lim[lv] as usize;
        for i in (tpos..self.trail.len()).rev() {
            let l = self.trail[i];
            let a = l.atom().index();
            self.value[a] = 0;
            self.phase[a] = if l.is_negated() { -1 } else { 1 };
            if self.decidable[a] {
                self.atom_heap.insert(a as u32);
            } else if self.internal[a] && !self.relevant[a] {
                self.garbage.push(l.atom());
            }
        }
        self.trail.truncate(tpos);
        self.qhead = tpos;
        let bpos = self.bound_lim[lv] as usize;
        if let Some(st) = self.linear.as_mut() {
            // the simplex reads only changed bounds: tell it which ones come back
            st.note_undone(bpos, &self.bound_trail[bpos..]);
        }
        for i in (bpos..self.bound_trail.len()).rev() {
            let u = self.bound_trail[i];
            if u.upper {
                self.ub[u.var] = (
                    Ub {
                        v: u.v,
                        strict: u.strict,
                    },
                    u.lit,
                );
            } else {
                self.lb[u.var] = (
                    Lb {
                        v: u.v,
                        strict: u.strict,
                    },
                    u.lit,
                );
            }
            self.var_heap.insert(u.var.0);
        }
        self.bound_trail.truncate(bpos);
        self.theory_arena.truncate(self.arena_lim[lv] as usize);
        self.trail_lim.truncate(lv);
        self.bound_lim.truncate(lv);
        self.arena_lim.truncate(lv);
        for p in self.icp_queue.drain(..) {
            self.in_icp_queue[p as usize] = false;
        }
    }

    /// Two-watched-literal BCP over the unprocessed part of the trail.
    pub(crate) fn bcp(&mut self) -> Result<(), Conflict> {
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            if !self.relevant[p.atom().index()] {
                // never in a clause: no watchers (most ICP bounds)
                continue;
            }
            let false_lit = !p;
            let mut ws = std::mem::take(&mut self.watches[false_lit.index()]);
            let mut i = 0;
            let mut j = 0;
            let mut result = Ok(());
            while i < ws.len() {
                let w = ws[i];
                i += 1;
                if self.lit_true(w.blocker) {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                let cref = w.cref;
                let (first, moved) = {
                    let value = &self.value;
                    let lit_false = |l: Lit| {
                        let v = value[l.atom().index()];
                        if l.is_negated() {
                            v > 0
                        } else {
                            v < 0
                        }
                    };
                    let c = &mut self.db.clauses[cref as usize];
                    if c.deleted {
                        // a stale watcher of a deleted clause: drop it
                        continue;
                    }
                    if c.lits[0] == false_lit {
                        c.lits.swap(0, 1);
                    }
                    let first = c.lits[0];
                    let mut moved = None;
                    let fv = value[first.atom().index()];
                    let first_true = if first.is_negated() { fv < 0 } else { fv > 0 };
                    if first != w.blocker && first_true {
                        (first, Some(None))
                    } else {
                        for k in 2..c.lits.len() {
                            if !lit_false(c.lits[k]) {
                                c.lits.swap(1, k);
                                moved = Some(Some(c.lits[1]));
                                break;
                            }
                        }
                        (first, moved)
                    }
                };
                let nw = Watcher {
                    cref,
                    blocker: first,
                };
                match moved {
                    Some(None) => {
                        ws[j] = nw;
                        j += 1;
                    }
                    Some(Some(new_watch)) => {
                        self.watches[new_watch.index()].push(nw);
                    }
                    None => {
                        ws[j] = nw;
                        j += 1;
                        if self.lit_false(first) {
                            result = Err(Conflict::Clause(cref));
                        } else if let Err(c) = self.assign(first, Reason::Clause(cref)) {
                            result = Err(c);
                        }
                        if result.is_err() {
                            while i < ws.len() {
                                ws[j] = ws[i];
                                j += 1;
                                i += 1;
                            }
                        }
                    }
                }
            }
            ws.truncate(j);
            // nothing was pushed to this list meanwhile: new watches are never false
            debug_assert!(self.watches[false_lit.index()].is_empty());
            self.watches[false_lit.index()] = ws;
            result?;
        }
        Ok(())
    }

    /// BCP to its fixpoint, then one propagator, then BCP again, until both are at their
    /// fixpoint (`None`) or a conflict arises.
    pub(crate) fn propagate(&mut self) -> Option<Conflict> {
        if let Some(c) = self.pending.take() {
            return Some(c);
        }
        let mut runs: u32 = 0;
        loop {
            if let Err(c) = self.bcp() {
                return Some(c);
            }
            let Some(p) = self.icp_queue.pop_front() else {
                // the BCP+ICP fixpoint: the simplex looks at the linear part as a whole
                return self.linear_check();
            };
            self.in_icp_queue[p as usize] = false;
            self.stats.icp_runs += 1;
            if let Err(c) = self.run_prop(p) {
                return Some(c);
            }
            runs += 1;
            if runs >= self.icp_run_cap {
                return None;
            }
            if runs.is_multiple_of(4096) && self.limit_hit().is_some() {
                // leave the rest of the fixpoint undone; the caller sees the limit next
                return None;
            }
        }
    }

    /// The value of a Boolean variable's literal, for propagators.
    #[inline]
    pub(crate) fn bool_value(&self, v: Var) -> LBool {
        match self.vars[v].bool_atom {
            Some(a) => match self.value[a.index()] {
                1 => LBool::True,
                -1 => LBool::False,
                _ => LBool::Undef,
            },
            None => LBool::Undef,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::SolverConfig;
    use crate::formula::{Domain, Rel, Sort};
    use crate::lit::{LBool, Lit};
    use crate::num::Rational;
    use crate::solve::{Conflict, Reason, Solver};

    fn q(n: i64) -> Rational {
        Rational::from_integer(n.into())
    }

    fn solver() -> Solver {
        Solver::new(SolverConfig::default()).unwrap()
    }

    fn bools(s: &mut Solver, n: usize) -> Vec<Lit> {
        (0..n)
            .map(|_| {
                let v = s.new_bool();
                s.bool_lit(v).unwrap()
            })
            .collect()
    }

    #[test]
    fn bound_implications_assign_relevant_atoms_with_their_source() {
        let mut s = solver();
        let x = s.new_var(Sort::Real, &Domain::closed(q(0), q(10)));
        let le3 = s.bound_lit(x, Rel::Le, &q(3));
        let le5 = s.bound_lit(x, Rel::Le, &q(5));
        let ge4 = s.bound_lit(x, Rel::Ge, &q(4));
        let lt3 = s.bound_lit(x, Rel::Lt, &q(3));
        let b = bools(&mut s, 1)[0];
        // make the atoms relevant (they occur in clauses)
        s.add_clause(&[b, le5, ge4, lt3]);
        s.new_decision_level();
        s.assign(le3, Reason::None).unwrap();
        // x <= 3 implies x <= 5 and not x >= 4; x < 3 stays open
        assert_eq!(s.lit_value(le5), LBool::True);
        assert_eq!(s.lit_value(ge4), LBool::False);
        assert_eq!(s.lit_value(lt3), LBool::Undef);
        assert_eq!(s.reason[le5.atom().index()], Reason::Implied(le3));
        assert_eq!(s.reason[ge4.atom().index()], Reason::Implied(le3));
        assert_eq!(s.var_box(x), crate::interval::Interval::closed(0.0, 3.0));
        // backtracking restores values and bounds
        s.backtrack(0);
        assert_eq!(s.lit_value(le5), LBool::Undef);
        assert_eq!(s.var_box(x), crate::interval::Interval::closed(0.0, 10.0));
        // a lower bound above the upper bound is a conflict with both literals
        let ge6 = s.bound_lit_f64(x, Rel::Ge, 6.0);
        s.new_decision_level();
        s.assign(le3, Reason::None).unwrap();
        s.new_decision_level();
        assert_eq!(s.assign(ge6, Reason::None), Err(Conflict::Lits));
        let mut c = s.confl_lits.clone();
        c.sort();
        let mut want = vec![ge6, le3];
        want.sort();
        assert_eq!(c, want);
    }

    #[test]
    fn bcp_propagates_units_and_finds_conflicts() {
        let mut s = solver();
        let l = bools(&mut s, 4);
        s.add_clause(&[!l[0], l[1]]);
        s.add_clause(&[!l[1], !l[2], l[3]]);
        s.add_clause(&[!l[2], !l[3]]);
        s.new_decision_level();
        s.assign(l[0], Reason::None).unwrap();
        assert!(s.bcp().is_ok());
        assert_eq!(s.lit_value(l[1]), LBool::True);
        assert_eq!(s.lit_value(l[3]), LBool::Undef);
        assert!(matches!(s.reason[l[1].atom().index()], Reason::Clause(_)));
        s.new_decision_level();
        s.assign(l[2], Reason::None).unwrap();
        assert!(matches!(s.bcp(), Err(Conflict::Clause(_))));
        // the watch lists survive the conflict: after backtracking BCP works again
        s.backtrack(1);
        assert_eq!(s.lit_value(l[2]), LBool::Undef);
        s.new_decision_level();
        s.assign(!l[2], Reason::None).unwrap();
        assert!(s.bcp().is_ok());
        s.backtrack(0);
        s.new_decision_level();
        s.assign(l[3], Reason::None).unwrap();
        assert!(s.bcp().is_ok());
        assert_eq!(s.lit_value(l[2]), LBool::False);
    }
}
