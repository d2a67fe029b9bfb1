//! Clause storage and watch lists (MiniSat-style two-watched-literal scheme, paper §2.3 (2)).
//!
//! The idea: a clause is a slice of solver literals whose first two positions are the
//! watched ones. A literal's watch list holds the clauses that watch it, each with a *blocker*
//! (another literal of the clause): if the blocker is true the clause is satisfied and is not
//! even looked at. Clauses are addressed by a `CRef` index that stays valid until the clause
//! is deleted; deleted slots are reused.

use crate::lit::Lit;

/// Index of a clause in the [`ClauseDb`].
pub type CRef = u32;

#[derive(Clone, Debug)]
pub struct Clause {
    pub lits: Vec<Lit>,
    pub learnt: bool,
    /// literal block distance when learned (number of decision levels among its literals)
    pub lbd: u32,
    pub activity: f32,
    pub deleted: bool,
}

/// A watch-list entry.
#[derive(Clone, Copy, Debug)]
pub struct Watcher {
    pub cref: CRef,
    pub blocker: Lit,
}

#[derive(Clone, Debug, Default)]
pub struct ClauseDb {
    pub clauses: Vec<Clause>,
    free: Vec<CRef>,
    pub num_learnt: usize,
    pub num_original: usize,
    pub cla_inc: f32,
}

impl ClauseDb {
    pub fn new() -> Self {
        ClauseDb {
            cla_inc: 1.0,
            ..Default::default()
        }
    }

    /// Stores a clause (at least two literals) and returns its reference.
    pub fn alloc(&mut self, lits: Vec<Lit>, learnt: bool, lbd: u32) -> CRef {
        debug_assert!(lits.len() >= 2);
        let c = Clause {
            lits,
            learnt,
            lbd,
            activity: 0.0,
            deleted: false,
        };
        if learnt {
            self.num_learnt += 1;
        } else {
            self.num_original += 1;
        }
        if let Some(r) = self.free.pop() {
            self.clauses[r as usize] = c;
            r
        } else {
            self.clauses.push(c);
            (self.clauses.len() - 1) as CRef
        }
    }

    /// Marks a clause deleted; its slot is reused once no watcher refers to it (the caller
    /// removes the watchers first, see [`ClauseDb::release`]).
    pub fn delete(&mut self, r: CRef) {
        let c = &mut self.clauses[r as usize];
        if c.deleted {
            return;
        }
        c.deleted = true;
        if c.learnt {
            self.num_learnt -= 1;
        } else {
            self.num_original -= 1;
        }
        c.lits = Vec::new();
    }

    /// Makes the slots of deleted clauses reusable (call after purging watch lists).
    pub fn release(&mut self, refs: &[CRef]) {
        self.free.extend_from_slice(refs);
    }

    #[inline]
    pub fn get(&self, r: CRef) -> &Clause {
        &self.clauses[r as usize]
    }

    /// The literals of a clause, for taking them out before deletion.
    pub fn get_lits_mut(&mut self, r: CRef) -> &mut Vec<Lit> {
        &mut self.clauses[r as usize].lits
    }

    pub fn bump(&mut self, r: CRef) {
        let c = &mut self.clauses[r as usize];
        c.activity += self.cla_inc;
        if c.activity > 1e20 {
            for c in self.clauses.iter_mut() {
                c.activity *= 1e-20;
            }
            self.cla_inc *= 1e-20;
        }
    }

    pub fn decay(&mut self, decay: f64) {
        self.cla_inc /= decay as f32;
        if self.cla_inc > 1e20 {
            for c in self.clauses.iter_mut() {
                c.activity *= 1e-20;
            }
            self.cla_inc *= 1e-20;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lit::AtomId;

    #[test]
    fn slots_are_reused_after_release() {
        let mut db = ClauseDb::new();
        let l = |i| Lit::pos(AtomId(i));
        let a = db.alloc(vec![l(0), l(1)], false, 0);
        let b = db.alloc(vec![l(1), l(2), l(3)], true, 2);
        assert_eq!((db.num_original, db.num_learnt), (1, 1));
        db.delete(b);
        db.delete(b);
        assert_eq!(db.num_learnt, 0);
        assert!(db.get(b).deleted);
        db.release(&[b]);
        let c = db.alloc(vec![l(4), l(5)], true, 2);
        assert_eq!(c, b);
        assert_ne!(a, c);
        assert_eq!(db.get(c).lits.len(), 2);
    }
}
