//! The generalization cache (`+cache`; IC3CFA papers, "generalization contexts" and their
//! "upper bound" rule).
//!
//! The idea: frames only grow stronger, so a cube `g` found inductive relative to `F_b` at
//! some time stays inductive relative to any frame that has since become at least as strong
//! as that `F_b` was — and every cube inside `g` is then blocked by `g` without a query
//! (`F ∧ ¬g ∧ T ∧ g'` is UNSAT for the old frame, hence for the stronger one). For boxes,
//! "inside" is a containment test ([`Cube::contains`]). Each lemma added at level `j` is
//! recorded with the ids of the lemmas that made up `F_{j-1}` at that moment; later, "`F_a`
//! is at least as strong" holds when all those lemmas have since reached level `a` or
//! higher ([`Frames::still_stronger`](super::frames::Frames::still_stronger)). The cube's
//! own lemma is left out of its record: `¬g` holding relative to the rest of `F_{j-1}` is
//! what the query showed, whether or not `¬g` was already a lemma.
//!
//! In IC3 with delta-encoded frames most such hits are already found by syntactic blocking
//! (a lemma at a level `>= i` that contains the cube); the cache adds the cases where the
//! frame has grown past the lemma's own level — a lemma that propagation has not yet
//! pushed, or could not push before the rest of its frame moved up — in three places:
//! blocking an obligation (`ic3::block`), a literal-dropping trial of inductive
//! generalization (`ic3::ctg`), and pushing a lemma (`ic3::propagate`).
//!
//! Why it stays sound: a hit only ever adds a lemma `¬g` at level `a + 1` for a `g` that is
//! disjoint from `I` (it was a lemma) and inductive relative to `F_a` by the argument above;
//! the final invariant is re-checked from scratch anyway (`ic3::certificate`). Bounded LRU:
//! the least recently used entry goes first.

use super::cube::Cube;
use super::Ic3;
use std::collections::VecDeque;

/// One generalization context: `g` was inductive relative to `F_b` made of `frame`.
struct Entry {
    g: Cube,
    b: usize,
    frame: Vec<u32>,
}

/// The bounded LRU of generalization contexts (most recent first).
pub struct GenCache {
    cap: usize,
    entries: VecDeque<Entry>,
}

impl GenCache {
    pub fn new(cap: usize) -> GenCache {
        GenCache {
            cap: cap.max(1),
            entries: VecDeque::new(),
        }
    }

    fn insert(&mut self, g: Cube, b: usize, frame: Vec<u32>) {
        self.entries.retain(|e| e.g != g);
        self.entries.push_front(Entry { g, b, frame });
        self.entries.truncate(self.cap);
    }

    /// The most recent `g` that contains `c` and for which `valid(b, frame)` holds (moved to
    /// the front).
    fn find(&mut self, c: &Cube, valid: impl Fn(usize, &[u32]) -> bool) -> Option<Cube> {
        let k = self
            .entries
            .iter()
            .position(|e| e.g.contains(c) && valid(e.b, &e.frame))?;
        let e = self.entries.remove(k)?;
        let g = e.g.clone();
        self.entries.push_front(e);
        Some(g)
    }
}

impl Ic3<'_> {
    /// Records that `g` is inductive relative to `F_b` as it is now (`+cache` only).
    pub(crate) fn cache_insert(&mut self, g: &Cube, b: usize) {
        if !self.cfg.cache {
            return;
        }
        let frame = self.frames.snapshot(b, g);
        self.cache.insert(g.clone(), b, frame);
    }

    /// An earlier generalization that contains `c` and is inductive relative to `F_a` as it
    /// is now: `¬g` may be added at level `a + 1` without a query.
    pub(crate) fn cache_lookup(&mut self, c: &Cube, a: usize) -> Option<Cube> {
        if !self.cfg.cache {
            return None;
        }
        self.stats.cache_lookups += 1;
        let frames = &self.frames;
        let g = self
            .cache
            .find(c, |b, frame| frames.still_stronger(a, b, frame))?;
        self.stats.cache_hits += 1;
        Some(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ic3::cube::CLit;
    use solver::{Rational, Rel};

    fn le(var: usize, v: i64) -> CLit {
        CLit::Bound {
            var,
            rel: Rel::Le,
            value: Rational::from_integer(v.into()),
        }
    }

    #[test]
    fn containment_validity_and_lru_order() {
        let mut c = GenCache::new(2);
        // g1: x <= 5 (built against a frame of lemmas 1, 2), g2: y <= 3
        c.insert(Cube::new(vec![le(0, 5)]), 1, vec![1, 2]);
        c.insert(Cube::new(vec![le(1, 3)]), 1, vec![]);
        let inside = Cube::new(vec![le(0, 4), le(1, 9)]);
        // x <= 4 ∧ y <= 9 lies in g1, not in g2
        assert_eq!(
            c.find(&inside, |_, _| true),
            Some(Cube::new(vec![le(0, 5)]))
        );
        // the frame condition is checked on the entry's own record
        assert_eq!(c.find(&inside, |_, f| f.is_empty()), None);
        // g1 is now the most recent: a third entry evicts g2
        c.insert(Cube::new(vec![le(2, 0)]), 1, vec![]);
        assert_eq!(c.entries.len(), 2);
        assert!(c.find(&Cube::new(vec![le(1, 1)]), |_, _| true).is_none());
        assert!(c.find(&Cube::new(vec![le(0, 1)]), |_, _| true).is_some());
        // re-inserting a cube replaces its entry
        c.insert(Cube::new(vec![le(0, 5)]), 2, vec![7]);
        assert_eq!(c.entries.len(), 2);
        assert!(c.find(&inside, |b, f| b == 2 && f == [7]).is_some());
    }
}
