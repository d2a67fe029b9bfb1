//! Stronger generalization (paper §3, procedure CTG of §3.4): inductive generalization
//! `+ig`, Down() `+j`, counterexamples to generalization `+ctg`, with CTG and Down()
//! predecessors generalized by GeNTR or, with `+lf`, by lifting.
//!
//! The idea (§3.1): once GENERALIZE has pushed a blocked cube `ĉ` to its highest level
//! `i + 1`, each literal `l` is tried for removal against formula 3,
//! `F_i ∧ ¬ĉ' ∧ T ∧ ĉ''` with `ĉ' = ĉ \ {l}`. Unlike the dropping of §2.4.4, the literal
//! leaves the clause `¬ĉ'` too: the check is relative induction of the smaller clause
//! itself, which is not monotone (a SAT answer may turn UNSAT with fewer literals).
//! A SAT answer names a predecessor `d̂` of `ĉ'` inside `F_i ∧ ¬ĉ'`:
//! - `+ctg` (§3.2): if `d̂` has no `F_{i-1}`-predecessor, it is a counterexample to
//!   generalization that can be blocked right away — GENERALIZE(`d̂`, `i - 1`) one recursion
//!   level deeper learns `¬d̂` — and the drop is tried again, up to `maxCTGs` CTGs in a row
//!   and `maxRecDepth` levels of recursion;
//! - `+j` (§3.1.2, Down()): otherwise `ĉ'` is joined with `d̂` (the smallest cube of bound
//!   literals holding both) and tried again, until the join meets `I`.
//! - `+exctg` (EXCTG paper, Algorithm 4): a CTG that has an `F_{i-1}`-predecessor `p̂` of its
//!   own is not given up at once: `p̂` is blocked first (recursively, one level lower), then
//!   the CTG is tried again — all under one budget of `EXCTG_LIMIT` blocking attempts per
//!   CTG, so `EXCTG_LIMIT = 1` is plain CTG. DynAMic (`ic3::dynamic`) sets `maxCTGs` and
//!   `EXCTG_LIMIT` per cube.
//!
//! Every UNSAT answer is ANALYZEd (rotation, bound generalization, ungeneralization).
//!
//! Why this stays sound: each lemma still comes from an UNSAT relative-induction query of a
//! cube disjoint from `I` (checked before every query) — `¬ĉ'` from formula 3, a CTG's `¬d̂`
//! from `F_{i-1} ∧ ¬d̂ ∧ T ∧ d̂'`. How the predecessors are generalized (GeNTR, lifting) only
//! decides which cubes are *tried*; a lifted cube holding non-predecessors can only cost a
//! dropped literal (§3.2 "Generalizing CTGs").

use super::block::Transition;
use super::cube::Cube;
use super::generalize::Initiation;
use super::Ic3;
use solver::SolveResult;
use std::time::Instant;

/// Joins tried for one dropped literal before it is given up: a join only weakens, but over
/// the reals a bound can be weakened toward its limit many times (the paper stops only when
/// the join meets `I`).
pub const MAX_JOINS: u32 = 16;

/// The join `ĉ ⊔ d̂` (§3.1.2): the literals both cubes share and, per variable and direction,
/// the weaker of two bounds — the smallest cube of bound literals containing both.
pub fn join(c: &Cube, d: &Cube) -> Cube {
    let mut out = Vec::new();
    for a in &c.0 {
        for b in &d.0 {
            if a.implied_by(b) {
                out.push(a.clone());
                break;
            }
            if b.implied_by(a) {
                out.push(b.clone());
                break;
            }
        }
    }
    Cube::new(out)
}

impl Ic3<'_> {
    /// §3.4 GENERALIZE step 2 for `g`, blocked relative to `F_i`: tries to drop each literal
    /// (in a shuffled order) through the CTG procedure. `rec`: the CTG recursion depth.
    pub(crate) fn inductive_generalize(&mut self, mut g: Cube, i: usize, rec: u32) -> Cube {
        let t0 = Instant::now();
        let order = self.drop_order(&g);
        for l in order {
            if g.len() <= 1 || self.limits.hit().is_some() {
                break;
            }
            if !g.0.contains(&l) {
                continue; // weakened or dropped by an earlier ANALYZE
            }
            let trial = Cube::new(g.0.iter().filter(|x| **x != l).cloned().collect());
            if let Some(h) = self.ctg_down(i, trial, rec) {
                g = h;
            }
        }
        if rec == 0 {
            self.stats.addgen_time += t0.elapsed();
        }
        g
    }

    /// Procedure CTG of §3.4 for the trial cube `c` at `F_i`: `Some(cube)` when `c` (or a
    /// join of it) is blocked relative to `F_i`, ANALYZEd; `None` when the literal stays.
    fn ctg_down(&mut self, i: usize, mut c: Cube, rec: u32) -> Option<Cube> {
        let mut ctgs = 0u32;
        let mut joins = 0u32;
        loop {
            if self.limits.hit().is_some() {
                return None;
            }
            // a cube that meets I can never be a lemma
            if !matches!(self.initiation(&c), Initiation::Disjoint) {
                return None;
            }
            // an earlier generalization holding the trial cube, still inductive relative to
            // F_i: it is the result (`ic3::cache`)
            if let Some(g) = self.cache_lookup(&c, i) {
                return Some(g);
            }
            // F_i ∧ ¬c ∧ T ∧ c'   (formula 3)
            let q = self.frames.begin(i, Some(&c));
            let order = self.shuffled(&c);
            self.stats.solver_calls += 1;
            let (r, lits) = self.frames.solve_next(&q, &order);
            let m = match r {
                SolveResult::Unsat => {
                    let prefix = q.frame_assumptions.clone();
                    let g = self.analyze(q.solver, &prefix, order, lits, &c);
                    self.frames.end(q);
                    return Some(g);
                }
                SolveResult::Sat(m) | SolveResult::Candidate(m) => m,
                SolveResult::Unknown(_) => {
                    self.frames.end(q);
                    return None;
                }
            };
            let t = self.transition_of(q, &m);
            let effort = self.effort;
            if !(effort.ctg || self.cfg.join) || rec > self.cfg.max_rec_depth {
                return None;
            }
            let d = self.ctg_cube(t, &c);
            if effort.ctg && ctgs < effort.max_ctgs && i > 0 {
                let mut budget = effort.exctg_limit;
                if self.block_ctg(i - 1, &d, &mut budget, rec) {
                    ctgs += 1;
                    continue;
                }
            }
            if !self.cfg.join || joins >= MAX_JOINS {
                return None;
            }
            let joined = join(&c, &d);
            if joined == c {
                return None;
            }
            ctgs = 0;
            joins += 1;
            self.stats.joins += 1;
            c = joined;
        }
    }

    /// The cube of a CTG / Down() predecessor: lifted (`+lf`) or GeNTR-generalized from the
    /// exact state, the model's box without one.
    fn ctg_cube(&mut self, t: Transition, c: &Cube) -> Cube {
        let Transition {
            pre,
            post,
            box_cube,
        } = t;
        let Some(pre) = pre else {
            return box_cube;
        };
        if self.cfg.lf {
            if let Some(d) = self.lift(&pre, c) {
                return d;
            }
        }
        let e = Cube::of_point(&self.ts.state, &pre);
        match post {
            Some(post) => {
                let p = Cube::of_point(&self.ts.state, &post);
                self.gentr(e, &p)
            }
            None => e,
        }
    }

    /// `+ctg`: blocks the CTG `d` at level `j + 1` when it is disjoint from `I` and has no
    /// `F_j`-predecessor, learning GENERALIZE(`d`, `j`) one recursion level deeper.
    /// EXCTG (`exctg_block` of Algorithm 4): while `d` has an `F_j`-predecessor `p` and the
    /// shared `budget` of blocking attempts lasts, `p` is blocked first at level `j`
    /// (recursively) and `d` tried again. Each round either returns or spends budget, so the
    /// recursion ends; with `budget = 1` this is plain CTG.
    fn block_ctg(&mut self, j: usize, d: &Cube, budget: &mut u32, rec: u32) -> bool {
        if d.is_empty() || !matches!(self.initiation(d), Initiation::Disjoint) {
            return false;
        }
        loop {
            if self.limits.hit().is_some() {
                return false;
            }
            // F_j ∧ ¬d ∧ T ∧ d'
            let q = self.frames.begin(j, Some(d));
            let order = self.shuffled(d);
            self.stats.solver_calls += 1;
            let (r, lits) = self.frames.solve_next(&q, &order);
            let m = match r {
                SolveResult::Unsat => {
                    let (g, level) = self.generalize(q, j, d, order, lits, rec + 1);
                    self.add_lemma(g, level);
                    self.stats.ctgs += 1;
                    return true;
                }
                SolveResult::Sat(m) | SolveResult::Candidate(m) => m,
                SolveResult::Unknown(_) => {
                    self.frames.end(q);
                    return false;
                }
            };
            // a predecessor in F_0 = I: d is reachable, never blockable
            if *budget <= 1 || j == 0 {
                self.frames.end(q);
                return false;
            }
            let t = self.transition_of(q, &m);
            let p = self.ctg_cube(t, d);
            *budget -= 1;
            self.stats.exctg_preds += 1;
            if !self.block_ctg(j - 1, &p, budget, rec) {
                return false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ic3::cube::CLit;
    use solver::{Rational, Rel};

    fn b(var: usize, rel: Rel, v: i64) -> CLit {
        CLit::Bound {
            var,
            rel,
            value: Rational::from_integer(v.into()),
        }
    }

    #[test]
    fn join_keeps_common_literals_and_the_weaker_bounds() {
        // c: x <= 5 ∧ y >= 2 ∧ p;  d: x <= 7 ∧ y >= 3 ∧ z <= 1 ∧ ¬p
        let c = Cube::new(vec![
            b(0, Rel::Le, 5),
            b(1, Rel::Ge, 2),
            CLit::Bool { var: 3, val: true },
        ]);
        let d = Cube::new(vec![
            b(0, Rel::Le, 7),
            b(1, Rel::Ge, 3),
            b(2, Rel::Le, 1),
            CLit::Bool { var: 3, val: false },
        ]);
        let j = join(&c, &d);
        assert_eq!(j, Cube::new(vec![b(0, Rel::Le, 7), b(1, Rel::Ge, 2)]));
        // the join holds both cubes
        assert!(j.contains(&c) && j.contains(&d));
        // joining with a cube that shares nothing gives the empty cube (all states)
        assert!(join(&c, &Cube::new(vec![b(2, Rel::Ge, 0)])).is_empty());
    }
}
