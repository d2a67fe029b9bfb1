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
            let cubes = std::mem::take(&mut self.frames.lemmas[j]);
            let mut stay = Vec::new();
            for c in cubes {
                if let Some(why) = self.limits.hit() {
                    return Err(super::Stop::Unknown(why.to_string()));
                }
                // F_j ∧ T ∧ c'   (is the lemma ¬c inductive relative to F_j?)
                let q = self.frames.begin(j, None);
                self.stats.solver_calls += 1;
                let (r, _) = self.frames.solve_next(&q, &c.0);
                self.frames.end(q);
                match r {
                    SolveResult::Unsat => {
                        self.stats.pushed += 1;
                        self.frames.push_lemma(c, j);
                    }
                    SolveResult::Unknown(why) => return Err(super::Stop::Unknown(why)),
                    _ => stay.push(c),
                }
            }
            self.frames.lemmas[j] = stay;
            if self.frames.lemmas[j].is_empty() {
                return Ok(Some(j));
            }
        }
        Ok(None)
    }
}
