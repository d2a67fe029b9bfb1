//! The CDCL search loop with restarts and learned-clause deletion (paper §2.3, §2.4.1).
//!
//! The idea: propagate (BCP + ICP); on a conflict learn a clause, backjump and assert; else
//! apply the next assumption as a pseudo-decision on its own level (an already true one gets
//! an empty level, a false one ends the call with the final conflict), else decide. Restarts
//! follow the Luby sequence (`restart_first · luby(i)` conflicts); every `reduce_first +
//! k·reduce_inc` conflicts the worse half of the learned clauses (by LBD, then activity) is
//! deleted, keeping clauses with LBD `<= keep_lbd` and clauses that are reasons.
//!
//! The first full assignment that fails the exact check is remembered as the call's
//! candidate; the search then refines below the splitting width for a bounded number of
//! conflicts and decisions (see [`crate::config::SolverConfig::point_refinements`]) and answers
//! that candidate if no exact point turns up (or a time/conflict limit hits first).

use crate::clause::CRef;
use crate::config::RestartPolicy;
use crate::lit::{LBool, Lit};
use crate::solve::{Reason, SolveResult, Solver};

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (0-based `i`).
pub(crate) fn luby(mut i: u64) -> u64 {
    let mut size = 1u64;
    let mut seq = 0u32;
    while size < i + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    while size - 1 != i {
        size = (size - 1) >> 1;
        seq -= 1;
        i %= size;
    }
    1u64 << seq
}

impl Solver {
    pub(crate) fn search(&mut self) -> SolveResult {
        let mut restarts = 0u64;
        let mut restart_at = self.restart_limit(restarts);
        let mut since_restart = 0u64;
        let mut steps = 0u64;
        loop {
            if let Some(confl) = self.propagate() {
                self.stats.conflicts += 1;
                self.call_conflicts += 1;
                since_restart += 1;
                let Some((learnt, bt, lbd)) = self.analyze(confl) else {
                    self.ok = false;
                    return SolveResult::Unsat;
                };
                self.backtrack(bt);
                self.learn(learnt, lbd);
                self.atom_heap.decay(self.config.var_decay);
                self.var_heap.decay(self.config.var_decay);
                self.db.decay(self.config.clause_decay);
                if let Some(why) = self.limit_hit() {
                    return self.stopped(why);
                }
                if let Some((_, limit)) = &self.saved_candidate {
                    if self.call_conflicts >= *limit {
                        return self.final_answer();
                    }
                }
                continue;
            }
            steps += 1;
            if steps.is_multiple_of(64) || self.stop_reason.is_some() {
                if let Some(why) = self.limit_hit() {
                    return self.stopped(why);
                }
            }
            if since_restart >= restart_at {
                restarts += 1;
                self.stats.restarts += 1;
                since_restart = 0;
                restart_at = self.restart_limit(restarts);
                self.backtrack(0);
                continue;
            }
            if self.stats.conflicts >= self.conflicts_to_reduce {
                self.reduce_db();
            }
            // assumptions: one pseudo-decision per level
            let dl = self.decision_level() as usize;
            if dl < self.assumptions.len() {
                let p = self.assumptions[dl];
                match self.lit_value(p) {
                    LBool::True => self.new_decision_level(),
                    LBool::False => {
                        self.analyze_final(dl);
                        return SolveResult::Unsat;
                    }
                    LBool::Undef => {
                        self.new_decision_level();
                        if let Err(c) = self.assign(p, Reason::None) {
                            self.pending = Some(c);
                        }
                    }
                }
                continue;
            }
            self.collect_garbage();
            let lit = match self.pick_literal() {
                Some(l) => Some(l),
                None => {
                    // every clause is satisfied: try an exact point before splitting on
                    if let Some(r) = self.try_early_sat() {
                        return r;
                    }
                    self.pick_split()
                }
            };
            let lit = match lit {
                Some(l) => l,
                None => {
                    // a full assignment: an exact point, else pin inputs to points (a few
                    // times), else a candidate
                    if let Some(l) = self.pick_open_clause() {
                        l
                    } else if let Some(r) = self.final_sat_if_worth_it() {
                        return r;
                    } else {
                        if self.saved_candidate.is_none() && self.unsupported.is_none() {
                            let limit = self.call_conflicts + self.config.refine_conflicts as u64;
                            self.saved_candidate = Some((self.current_model(), limit));
                        }
                        match self.pick_refinement() {
                            Some(l) => l,
                            None => return self.final_answer(),
                        }
                    }
                }
            };
            self.stats.decisions += 1;
            self.new_decision_level();
            if let Err(c) = self.assign(lit, Reason::None) {
                self.pending = Some(c);
            }
        }
    }

    /// The answer when a limit stops the search: the candidate found before, if any (it is
    /// a box ICP could not refute, which says more than "unknown"), else `Unknown`. An
    /// interrupt is always `Unknown`: whoever interrupts does not want an answer.
    fn stopped(&mut self, why: String) -> SolveResult {
        match self.saved_candidate.take() {
            Some((m, _)) if why != "interrupted" => SolveResult::Candidate(m),
            _ => SolveResult::Unknown(why),
        }
    }

    fn restart_limit(&self, i: u64) -> u64 {
        match self.config.restart {
            RestartPolicy::Luby => luby(i) * self.config.restart_first as u64,
            RestartPolicy::Never => u64::MAX,
        }
    }

    /// Adds a learned clause after backjumping and asserts its first literal.
    fn learn(&mut self, learnt: Vec<Lit>, lbd: u32) {
        self.stats.learned += 1;
        if learnt.len() == 1 {
            let l = learnt[0];
            self.make_relevant(l.atom(), false);
            if self.lit_value(l) == LBool::Undef {
                if let Err(c) = self.assign(l, Reason::None) {
                    self.pending = Some(c);
                }
            }
            return;
        }
        let first = learnt[0];
        let cref = self.db.alloc(learnt, true, lbd);
        self.attach(cref);
        if self.lit_value(first) == LBool::Undef {
            if let Err(c) = self.assign(first, Reason::Clause(cref)) {
                self.pending = Some(c);
            }
        }
        // after the assignment, so that making atoms relevant assigns nothing out of order
        for k in 0..self.db.get(cref).lits.len() {
            let a = self.db.get(cref).lits[k].atom();
            self.make_relevant(a, false);
        }
    }

    fn locked(&self, c: CRef) -> bool {
        let l = self.db.get(c).lits[0];
        self.lit_true(l) && self.reason[l.atom().index()] == Reason::Clause(c)
    }

    /// Deletes the worse half of the deletable learned clauses.
    pub(crate) fn reduce_db(&mut self) {
        self.conflicts_to_reduce = self.stats.conflicts + self.reduce_interval;
        self.reduce_interval += self.config.reduce_inc as u64;
        let keep_lbd = self.config.keep_lbd;
        let mut cands: Vec<CRef> = (0..self.db.clauses.len() as CRef)
            .filter(|&c| {
                let cl = self.db.get(c);
                cl.learnt && !cl.deleted && cl.lbd > keep_lbd && !self.locked(c)
            })
            .collect();
        cands.sort_by(|&a, &b| {
            let (ca, cb) = (self.db.get(a), self.db.get(b));
            cb.lbd.cmp(&ca.lbd).then(
                ca.activity
                    .partial_cmp(&cb.activity)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
        });
        cands.truncate(cands.len() / 2);
        if cands.is_empty() {
            return;
        }
        for &c in &cands {
            self.delete_clause(c);
        }
        self.purge_watches();
        self.db.release(&cands);
        self.stats.deleted += cands.len() as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(seq, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
