//! Propagation, PUSH of paper §2.2: every lemma of `F_j` that is inductive relative to `F_j`
//! moves to `F_j+1`, for `j = 1 … k-1`; a level left without lemmas of its own means
//! `F_j = F_j+1`, so `F_j` is an inductive invariant (fixpoint).

use super::Ic3;
use solver::SolveResult;

impl Ic3<'_> {
    /// PUSH. Returns the level `j` of a fixpoint `F_j = F_j+1`, if one is reached.
    pub(crate) fn propagate(&mut self) -> Result<Option<usize>, super::Stop> {
        let top = self.frames.top();
        for j in 1..top {
            // the lemmas stay in `lemmas[j]` until pushed: the generalization cache's record
            // of F_j must see all of them (a lemma taken out early would make F_j look
            // weaker than the frame the query ran against)
            let cubes = self.frames.lemmas[j].clone();
            for c in cubes {
                if let Some(why) = self.limits.hit() {
                    return Err(super::Stop::Unknown(why.to_string()));
                }
                if !self.frames.lemmas[j].contains(&c) {
                    continue; // subsumed by a lemma pushed before it
                }
                // an earlier generalization holding c, inductive relative to F_j as it is
                // now (`ic3::cache`): pushed without a query, in place of c
                if let Some(g) = self.cache_lookup(&c, j) {
                    self.stats.pushed += 1;
                    self.frames.lemmas[j].retain(|d| *d != c);
                    if g == c {
                        self.frames.push_lemma(c, j);
                    } else {
                        self.add_lemma(g, j + 1);
                    }
                    continue;
                }
                // F_j ∧ T ∧ c'   (is the lemma ¬c inductive relative to F_j?)
                let q = self.frames.begin(j, None);
                self.stats.solver_calls += 1;
                let (r, _) = self.frames.solve_next(&q, &c.0);
                self.frames.end(q);
                match r {
                    SolveResult::Unsat => {
                        self.stats.pushed += 1;
                        self.cache_insert(&c, j);
                        self.frames.lemmas[j].retain(|d| *d != c);
                        self.frames.push_lemma(c, j);
                    }
                    SolveResult::Unknown(why) => return Err(super::Stop::Unknown(why)),
                    _ => {}
                }
            }
            if self.frames.lemmas[j].is_empty() {
                return Ok(Some(j));
            }
        }
        Ok(None)
    }
}
