//! Conflict analysis (paper §2.3 (3): "a 1UIP conflict analysis is performed by analyzing
//! the implication graph") and the final conflict over assumptions (paper §2.4.1 steps 2–4,
//! §2.4.2).
//!
//! The idea: every assigned literal has a reason whose *antecedents* are true literals
//! assigned before it — the other literals of a clause (negated), the stronger bound of a
//! bound implication, or the bound literals an ICP deduction used. A conflict is a set of
//! true literals that cannot hold together. Resolving the current-level literals back to the
//! first unique implication point gives the learned clause (the negations of the cut), which
//! is then minimized recursively: a literal is dropped if all its antecedents are (recursively)
//! in the clause or at level 0.
//!
//! For a failed assumption, the graph is walked back from the failed literal on the lowest
//! level to the pseudo-decisions it depends on. A bound assumption reached only through bound
//! implications (`x <= 5` assumed, only the implied `x <= 7` used) is reported with the
//! weakest bound that was used; a failed bound assumption whose negation was implied by a
//! stronger bound (`¬(x <= 5)` implied by `x > 9`) is reported as the negation of that bound
//! (`x <= 9`).

use crate::lit::{AtomId, Lit};
use crate::solve::{AtomKind, Conflict, FailedAssumption, Reason, Solver};
use std::cmp::Ordering;

const SEEN_SOURCE: u8 = 1;
const SEEN_REMOVABLE: u8 = 2;
const SEEN_FAILED: u8 = 3;

impl Solver {
    /// The antecedents (true literals) of the reason of trail literal `p`, appended to `out`.
    pub(crate) fn antecedents(&self, p: Lit, out: &mut Vec<Lit>) {
        match self.reason[p.atom().index()] {
            Reason::None | Reason::Given => {}
            Reason::Clause(c) => {
                for &l in &self.db.get(c).lits {
                    if l != p {
                        out.push(!l);
                    }
                }
            }
            Reason::Implied(from) => out.push(from),
            Reason::Theory { start, len } => {
                out.extend_from_slice(&self.theory_arena[start as usize..(start + len) as usize])
            }
        }
    }

    /// The true literals of a conflict.
    fn conflict_lits(&self, c: Conflict, out: &mut Vec<Lit>) {
        match c {
            Conflict::Clause(cr) => out.extend(self.db.get(cr).lits.iter().map(|&l| !l)),
            Conflict::Lits => out.extend_from_slice(&self.confl_lits),
        }
    }

    fn bump_atom(&mut self, a: AtomId) {
        self.atom_heap.bump(a.0);
        if let AtomKind::Bound(i) = self.atom_kind[a.index()] {
            let v = self.bound_core[i as usize].var;
            self.var_heap.bump(v.0);
        }
    }

    /// Analyses a conflict at the current level (backtracking first if the conflict lies
    /// entirely below it). Returns the learned clause (asserting literal first, a literal of
    /// the backjump level second) and the backjump level; `None` if the conflict is at level 0.
    pub(crate) fn analyze(&mut self, confl: Conflict) -> Option<(Vec<Lit>, u32, u32)> {
        let mut lits = Vec::new();
        self.conflict_lits(confl, &mut lits);
        let max_level = lits
            .iter()
            .map(|l| self.level[l.atom().index()])
            .max()
            .unwrap_or(0);
        if max_level == 0 {
            return None;
        }
        if max_level < self.decision_level() {
            self.backtrack(max_level);
        }
        if let Conflict::Clause(c) = confl {
            if self.db.get(c).learnt {
                self.db.bump(c);
            }
        }
        let cur = self.decision_level();
        let mut learnt: Vec<Lit> = vec![Lit::UNDEF];
        let mut path = 0u32;
        let mut index = self.trail.len();
        let mut p;
        let mut ante = lits;
        loop {
            for &q in &ante {
                let a = q.atom().index();
                if self.seen[a] == 0 && self.level[a] > 0 {
                    self.seen[a] = SEEN_SOURCE;
                    self.bump_atom(q.atom());
                    if self.level[a] >= cur {
                        path += 1;
                    } else {
                        learnt.push(!q);
                    }
                }
            }
            // next literal of the current level on the trail
            loop {
                index -= 1;
                p = self.trail[index];
                if self.seen[p.atom().index()] != 0 {
                    break;
                }
            }
            self.seen[p.atom().index()] = 0;
            path -= 1;
            if path == 0 {
                break;
            }
            ante.clear();
            self.antecedents(p, &mut ante);
            if let Reason::Clause(c) = self.reason[p.atom().index()] {
                if self.db.get(c).learnt {
                    self.db.bump(c);
                }
            }
        }
        learnt[0] = !p;
        // recursive minimization
        self.analyze_toclear.clear();
        for l in &learnt[1..] {
            self.analyze_toclear.push(l.atom());
        }
        let abstract_levels = learnt[1..].iter().fold(0u64, |acc, l| {
            acc | 1u64 << (self.level[l.atom().index()] & 63)
        });
        let mut keep = vec![learnt[0]];
        for &l in &learnt[1..] {
            let a = l.atom().index();
            let decision = matches!(self.reason[a], Reason::None | Reason::Given);
            if decision || !self.redundant(!l, abstract_levels) {
                keep.push(l);
            }
        }
        for &a in &self.analyze_toclear {
            self.seen[a.index()] = 0;
        }
        self.analyze_toclear.clear();
        let mut learnt = keep;
        // backjump level: the highest level among the rest, which goes to position 1
        let mut bt = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for i in 2..learnt.len() {
                if self.level[learnt[i].atom().index()] > self.level[learnt[best].atom().index()] {
                    best = i;
                }
            }
            learnt.swap(1, best);
            bt = self.level[learnt[1].atom().index()];
        }
        // LBD: distinct levels
        let mut levels: Vec<u32> = learnt
            .iter()
            .map(|l| self.level[l.atom().index()])
            .collect();
        levels.sort_unstable();
        levels.dedup();
        Some((learnt, bt, levels.len() as u32))
    }

    /// Whether the true literal `p` (whose negation is in the learned clause) is implied by
    /// literals of the clause and level-0 facts (iterative DFS; marks are cached in `seen`).
    fn redundant(&mut self, p: Lit, abstract_levels: u64) -> bool {
        let mut stack: Vec<(Lit, Vec<Lit>, usize)> = Vec::new();
        let mut ante = Vec::new();
        self.antecedents(p, &mut ante);
        stack.push((p, ante, 0));
        while let Some((q, ante, i)) = stack.last_mut() {
            if *i == ante.len() {
                // all antecedents of q are redundant
                let a = q.atom().index();
                if self.seen[a] == 0 {
                    self.seen[a] = SEEN_REMOVABLE;
                    self.analyze_toclear.push(q.atom());
                }
                stack.pop();
                continue;
            }
            let r = ante[*i];
            *i += 1;
            let a = r.atom().index();
            if self.level[a] == 0 || self.seen[a] == SEEN_SOURCE || self.seen[a] == SEEN_REMOVABLE {
                continue;
            }
            let decision = matches!(self.reason[a], Reason::None | Reason::Given);
            if decision
                || self.seen[a] == SEEN_FAILED
                || (abstract_levels & (1u64 << (self.level[a] & 63))) == 0
            {
                // fail: mark everything on the stack as failed
                for (s, _, _) in &stack {
                    let sa = s.atom().index();
                    if self.seen[sa] == 0 {
                        self.seen[sa] = SEEN_FAILED;
                        self.analyze_toclear.push(s.atom());
                    }
                }
                if self.seen[a] == 0 {
                    self.seen[a] = SEEN_FAILED;
                    self.analyze_toclear.push(r.atom());
                }
                return false;
            }
            let mut next = Vec::new();
            self.antecedents(r, &mut next);
            stack.push((r, next, 0));
        }
        true
    }

    /// After the assumption at position `idx` was found false: selects the false assumption
    /// on the lowest level among those not yet applied (§2.4.1 step 3), walks the implication
    /// graph back to the pseudo-decisions it depends on (step 4), and fills `self.failed` in
    /// assumption order with the weakest failing bounds (§2.4.2).
    pub(crate) fn analyze_final(&mut self, idx: usize) {
        self.failed.clear();
        // step 3: the false assumption on the lowest level
        let mut j = idx;
        for k in idx..self.assumptions.len() {
            let l = self.assumptions[k];
            if self.lit_false(l)
                && self.level[l.atom().index()] < self.level[self.assumptions[j].atom().index()]
            {
                j = k;
            }
        }
        let failed_lit = self.assumptions[j];
        self.failed_pivot = Some(failed_lit);
        let neg = !failed_lit;
        // the pseudo-decisions: assumption index by decision level (level k+1 = assumption k
        // when it was applied, or an empty level when it already held)
        let nlev = self.decision_level() as usize;
        let mut level_assumption: Vec<Option<usize>> = vec![None; nlev + 1];
        for (k, slot) in level_assumption.iter_mut().enumerate().skip(1) {
            let start = self.trail_lim[k - 1] as usize;
            if start < self.trail.len() {
                let first = self.trail[start];
                if self.level[first.atom().index()] as usize == k
                    && self.reason[first.atom().index()] == Reason::None
                    && k - 1 < self.assumptions.len()
                    && self.assumptions[k - 1] == first
                {
                    *slot = Some(k - 1);
                }
            }
        }
        let is_pseudo = |s: &Self, l: Lit| -> Option<usize> {
            let a = l.atom().index();
            let lv = s.level[a] as usize;
            if lv == 0 || s.reason[a] != Reason::None {
                return None;
            }
            level_assumption.get(lv).copied().flatten()
        };
        // weakest replacement of the failed literal itself
        let mut weakest_failed = failed_lit;
        let mut start_lit = neg;
        if let Reason::Implied(from) = self.reason[neg.atom().index()] {
            weakest_failed = !from;
            start_lit = from;
        }
        // per assumption index: used directly, or only through bound implications (then the
        // tightest implied literal used)
        let n = self.assumptions.len();
        let mut direct = vec![false; n];
        let mut via: Vec<Option<Lit>> = vec![None; n];
        let mut marked: Vec<AtomId> = Vec::new();
        let mut stack = vec![start_lit];
        if self.level[start_lit.atom().index()] > 0 {
            while let Some(q) = stack.pop() {
                let a = q.atom().index();
                if self.seen[a] != 0 {
                    continue;
                }
                self.seen[a] = 1;
                marked.push(q.atom());
                if let Some(k) = is_pseudo(self, q) {
                    direct[k] = true;
                    continue;
                }
                if let Reason::Implied(from) = self.reason[a] {
                    if let Some(k) = is_pseudo(self, from) {
                        // used only through this weaker bound (so far)
                        via[k] = Some(match via[k] {
                            None => q,
                            Some(prev) => self.tighter_of(prev, q),
                        });
                        continue;
                    }
                }
                let mut ante = Vec::new();
                self.antecedents(q, &mut ante);
                for r in ante {
                    if self.level[r.atom().index()] > 0 && self.seen[r.atom().index()] == 0 {
                        stack.push(r);
                    }
                }
            }
        }
        for a in marked {
            self.seen[a.index()] = 0;
        }
        let mut out: Vec<(usize, FailedAssumption)> = Vec::new();
        out.push((
            j,
            FailedAssumption {
                lit: failed_lit,
                weakest: weakest_failed,
            },
        ));
        for k in 0..n {
            if k == j {
                continue;
            }
            let lit = self.assumptions[k];
            if direct[k] {
                out.push((k, FailedAssumption { lit, weakest: lit }));
            } else if let Some(w) = via[k] {
                out.push((k, FailedAssumption { lit, weakest: w }));
            }
        }
        out.sort_by_key(|&(k, _)| k);
        self.failed = out.into_iter().map(|(_, f)| f).collect();
        // the user keeps these literals: their atoms must never be recycled
        for f in &self.failed {
            self.internal[f.weakest.atom().index()] = false;
        }
    }

    /// Of two same-direction bound literals on one variable, the tighter.
    fn tighter_of(&self, a: Lit, b: Lit) -> Lit {
        let (Some(ba), Some(bb)) = (self.bound_of(a.atom()), self.bound_of(b.atom())) else {
            return a;
        };
        let a_tighter = if a.is_negated() {
            ba.if_false.cmp_tightness(bb.if_false) != Ordering::Less
        } else {
            ba.if_true.cmp_tightness(bb.if_true) != Ordering::Greater
        };
        if a_tighter {
            a
        } else {
            b
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::SolverConfig;
    use crate::lit::Lit;
    use crate::solve::{Reason, Solver};

    fn setup(n: usize) -> (Solver, Vec<Lit>) {
        let mut s = Solver::new(SolverConfig::default()).unwrap();
        let l = (0..n)
            .map(|_| {
                let v = s.new_bool();
                s.bool_lit(v).unwrap()
            })
            .collect();
        (s, l)
    }

    #[test]
    fn first_uip_clause_and_backjump_level() {
        // level 1: a; level 2: b; level 3: c -> d (c, a), e (c, b) -> conflict (¬d ∨ ¬e)
        let (mut s, l) = setup(5);
        let (a, b, c, d, e) = (l[0], l[1], l[2], l[3], l[4]);
        s.add_clause(&[!c, !a, d]);
        s.add_clause(&[!c, !b, e]);
        s.add_clause(&[!d, !e]);
        for x in [a, b, c] {
            s.new_decision_level();
            s.assign(x, Reason::None).unwrap();
            if x != c {
                assert!(s.bcp().is_ok());
            }
        }
        let confl = s.bcp().unwrap_err();
        let (learnt, bt, lbd) = s.analyze(confl).unwrap();
        // the UIP is the decision c: learned ¬c ∨ ¬a ∨ ¬b, backjump to level 2
        assert_eq!(learnt[0], !c);
        let mut rest = learnt[1..].to_vec();
        rest.sort();
        let mut want = vec![!a, !b];
        want.sort();
        assert_eq!(rest, want);
        assert_eq!(bt, 2);
        assert_eq!(learnt[1], !b, "a literal of the backjump level second");
        assert_eq!(lbd, 3);
        assert!(s.seen.iter().all(|&x| x == 0), "seen flags are cleared");
    }

    #[test]
    fn minimization_removes_implied_literals() {
        // level 1: a -> b; level 2: c -> d (c, b) -> conflict with (¬c ∨ ¬a ∨ ¬d). The 1-UIP
        // clause ¬c ∨ ¬a ∨ ¬b loses ¬b, which a implies
        let (mut s, l) = setup(4);
        let (a, b, c, d) = (l[0], l[1], l[2], l[3]);
        s.add_clause(&[!a, b]);
        s.add_clause(&[!c, !b, d]);
        s.add_clause(&[!c, !a, !d]);
        s.new_decision_level();
        s.assign(a, Reason::None).unwrap();
        assert!(s.bcp().is_ok());
        s.new_decision_level();
        s.assign(c, Reason::None).unwrap();
        let confl = s.bcp().unwrap_err();
        let (learnt, bt, _) = s.analyze(confl).unwrap();
        assert_eq!(learnt, vec![!c, !a]);
        assert_eq!(bt, 1);
    }
}
