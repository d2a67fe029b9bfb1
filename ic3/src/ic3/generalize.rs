//! Generalizing blocked cubes (paper §2.4.1–§2.4.4): ANALYZE by literal rotation with bound
//! generalization, ungeneralization against `I`, and GENERALIZE, which pushes a blocked cube
//! to the highest frame where it is still blocked, with the `+ld` / `+ldonce` literal
//! dropping.
//!
//! The idea of literal rotation (§2.4.1): the solver applies assumptions one at a time as
//! pseudo-decisions, each followed by full BCP+ICP, so the failed set depends on the order.
//! After an UNSAT answer the solver names `l_j`, the false assumption on the lowest level,
//! and the pseudo-decisions it depends on; re-solving with `(l_j, l'_1, …, l'_m)` — the core
//! with `l_j` first — often shrinks it further, and up to `m + 1` rotations are tried. Each
//! failed bound is replaced by the weakest bound that still fails (§2.4.2), which the solver
//! reads off its bound implications. Only the monotone formula `F_i ∧ ¬ĉ_old ∧ T ∧ ĉ'` is used
//! (iSAT3+IC3's original choice): its `¬ĉ_old` never changes, so every subset of a failed set
//! is checked against one formula.
//!
//! Why a generalized cube `g ⊇ c` (fewer or weaker literals) may be blocked at level `i + 1`
//! when `F_i ∧ ¬c ∧ T ∧ g'` is UNSAT: `¬g ⊆ ¬c`, so `F_i ∧ ¬g ∧ T ∧ g'` is UNSAT too — `¬g`
//! is inductive relative to `F_i` — provided `g` contains no initial state; ungeneralization
//! (§2.4.3) restores that by adding back literals of `c`, which is disjoint from `I`.

use super::cube::{CLit, Cube, Step};
use super::frames::{init_roots, new_state};
use super::stats::Ic3Stats;
use super::Ic3;
use crate::engine::Limits;
use crate::ts::TransitionSystem;
use solver::lit::Lit;
use solver::{Rational, Rel};
use solver::{SolveResult, Solver, SolverConfig};
use std::collections::HashMap;
use std::time::Instant;

/// Bisection steps per bound literal in [`Ic3::weaken_bounds`].
pub const WEAKEN_PROBES: usize = 8;

/// A simple value strictly between `good` and `bad` (an integer for integral sorts), nearer
/// the middle: the shortest decimal in the middle half, else the exact midpoint.
fn between(good: &Rational, bad: &Rational, integral: bool) -> Option<Rational> {
    let (lo, hi) = if good < bad { (good, bad) } else { (bad, good) };
    let two = Rational::from_integer(2.into());
    let mid = (lo + hi) / &two;
    if integral {
        let m = mid.floor();
        let m = if &m <= lo {
            m + Rational::from_integer(1.into())
        } else {
            m
        };
        return (&m > lo && &m < hi).then_some(m);
    }
    let quarter = (hi - lo) / Rational::from_integer(4.into());
    let (a, b) = (lo + &quarter, hi - &quarter);
    use num_traits::ToPrimitive;
    let q = match (a.to_f64(), b.to_f64()) {
        (Some(x), Some(y)) if x.is_finite() && y.is_finite() && x <= y => {
            solver::model::simple_point(solver::interval::Interval::closed(x, y), false)
                .filter(|q| q >= &a && q <= &b)
                .unwrap_or(mid)
        }
        _ => mid,
    };
    (&q > lo && &q < hi).then_some(q)
}

/// Literal rotation with bound generalization (§2.4.1, §2.4.2). Precondition: the last
/// `solve` of `s` was UNSAT under `prefix ++ lits`, where `lits` are `order`'s literals over
/// `step`. Returns a failed subset of `order` (weakened where bound generalization applies),
/// `l_j` first; the empty cube when `prefix` alone failed.
pub(crate) fn rotate(
    s: &mut Solver,
    step: &Step,
    prefix: &[Lit],
    (mut order, mut lits): (Vec<CLit>, Vec<Lit>),
    how: Rotation,
    stats: &mut Ic3Stats,
) -> Vec<CLit> {
    let Rotation {
        rotation,
        bound_gen,
    } = how;
    let mut rounds = 0usize;
    loop {
        let failed: HashMap<Lit, Lit> = s
            .failed_assumptions()
            .iter()
            .map(|f| (f.lit, f.weakest))
            .collect();
        let pivot = s.failed_pivot();
        let mut first: Option<CLit> = None;
        let mut rest: Vec<CLit> = Vec::new();
        for (c, l) in order.iter().zip(&lits) {
            let Some(&w) = failed.get(l) else { continue };
            let kept = if bound_gen && w != *l {
                step.clit(s, w).unwrap_or_else(|| c.clone())
            } else {
                c.clone()
            };
            if Some(*l) == pivot && first.is_none() {
                first = Some(kept);
            } else {
                rest.push(kept);
            }
        }
        let mut next: Vec<CLit> = first.into_iter().collect();
        next.extend(rest);
        rounds += 1;
        // the paper rotates up to m + 1 times; a round that changes nothing ends it early
        if !rotation || next.is_empty() || rounds > next.len() || next == order {
            return next;
        }
        let next_lits = step.lits(s, &next);
        let mut a = prefix.to_vec();
        a.extend_from_slice(&next_lits);
        stats.solver_calls += 1;
        stats.rotations += 1;
        if !s.solve(&a).is_unsat() {
            // a limit hit (or a solver that disagrees with its own core): keep the last
            // cube known to be blocked
            return order;
        }
        order = next;
        lits = next_lits;
    }
}

/// What literal rotation does (the `rotation` and `bound_gen` options).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rotation {
    pub rotation: bool,
    pub bound_gen: bool,
}

/// Literal dropping (§2.4.1): removes the literals of `cur` one at a time, keeping each
/// removal for which `still_blocked` holds of the smaller cube.
pub(crate) fn drop_each(
    mut cur: Vec<CLit>,
    mut still_blocked: impl FnMut(&[CLit]) -> bool,
) -> Vec<CLit> {
    let mut k = 0;
    while k < cur.len() {
        let mut trial = cur.clone();
        trial.remove(k);
        if still_blocked(&trial) {
            cur = trial;
        } else {
            k += 1;
        }
    }
    cur
}

/// `I(s)` alone, for the initiation checks of cubes (§2.4.3: a lemma must not exclude an
/// initial state) and for finding the initial state inside a proof obligation.
pub struct InitSolver {
    pub s: Solver,
    pub step: Step,
}

impl InitSolver {
    pub fn new(
        ts: &TransitionSystem,
        config: &SolverConfig,
        limits: &Limits,
    ) -> Result<InitSolver, String> {
        let mut s = limits.solver(config)?;
        let v = new_state(ts, &mut s);
        for r in init_roots(ts, &mut s, &v)? {
            s.add_clause(&[r]);
        }
        let step = Step::new(&s, v);
        Ok(InitSolver { s, step })
    }

    /// `I(s) ∧ c(s)`.
    pub fn solve(&mut self, c: &[CLit]) -> (SolveResult, Vec<Lit>) {
        let lits = self.step.lits(&mut self.s, c);
        (self.s.solve(&lits), lits)
    }
}

/// What checking a cube against `I` found.
pub(crate) enum Initiation {
    /// `I ∧ c` is UNSAT
    Disjoint,
    /// `I ∧ c` has a model (exact state if the solver found one)
    Meets(Option<Vec<solver::Value>>),
    /// no answer (a limit, an unsupported construct)
    Unknown(String),
}

impl Ic3<'_> {
    /// How this run rotates literals.
    pub(crate) fn rotation(&self) -> Rotation {
        Rotation {
            rotation: self.cfg.rotation,
            bound_gen: self.cfg.bound_gen,
        }
    }

    /// Checks `I(s) ∧ c(s)`.
    pub(crate) fn initiation(&mut self, c: &Cube) -> Initiation {
        self.stats.solver_calls += 1;
        match self.init.solve(&c.0).0 {
            SolveResult::Unsat => Initiation::Disjoint,
            SolveResult::Sat(m) => Initiation::Meets(self.init.step.values(&m)),
            SolveResult::Candidate(_) => Initiation::Meets(None),
            SolveResult::Unknown(why) => Initiation::Unknown(why),
        }
    }

    /// Ungeneralization (§2.4.3): `g` meets `I`, `orig ⊆ g` does not; adds back a small set of
    /// `orig`'s literals that makes `g` disjoint from `I` (literal rotation on
    /// `I ∧ g ∧ (orig \ g)` with `g`'s literals first, then, with `+ld`, dropping of the added
    /// literals one by one). Returns `orig` itself when the solver cannot answer.
    fn ungeneralize(&mut self, g: Cube, orig: &Cube) -> Cube {
        self.stats.ungeneralized += 1;
        let extra: Vec<CLit> = orig
            .0
            .iter()
            .filter(|l| !g.0.contains(l))
            .cloned()
            .collect();
        // I(s) ∧ g(s) ∧ extra(s): g's literals are a fixed prefix (they must not be weakened:
        // the cube was blocked with them); the added literals of `orig` are rotated and
        // weakened to the weakest bound that still excludes I (§2.4.2 applied to §2.4.3)
        let prefix = self.init.step.lits(&mut self.init.s, &g.0);
        let order = self.shuffled(&Cube(extra));
        let lits = self.init.step.lits(&mut self.init.s, &order);
        let mut a = prefix.clone();
        a.extend_from_slice(&lits);
        self.stats.solver_calls += 1;
        if !self.init.s.solve(&a).is_unsat() {
            return orig.clone();
        }
        let how = self.rotation();
        let mut added = rotate(
            &mut self.init.s,
            &self.init.step,
            &prefix,
            (order, lits),
            how,
            &mut self.stats,
        );
        if self.cfg.ld {
            // I(s) ∧ g(s) ∧ added(s) without one added literal
            added = drop_each(added, |trial| {
                self.stats.solver_calls += 1;
                let mut c = g.0.clone();
                c.extend_from_slice(trial);
                self.init.solve(&c).0.is_unsat()
            });
        }
        let mut lits = g.0;
        lits.extend(added);
        let c = Cube::new(lits);
        // the result must be disjoint from I: if the solver's core was not enough, fall
        // back to the original cube
        match self.initiation(&c) {
            Initiation::Disjoint => c,
            _ => orig.clone(),
        }
    }

    /// ANALYZE (§2.4.4): literal rotation with bound generalization on the UNSAT query just
    /// answered in frame solver `solver` (assumptions `prefix ++ lits` for `order`), then
    /// ungeneralization if the result meets `I`.
    pub(crate) fn analyze(
        &mut self,
        solver: usize,
        prefix: &[Lit],
        order: Vec<CLit>,
        lits: Vec<Lit>,
        orig: &Cube,
    ) -> Cube {
        let how = self.rotation();
        let fs = self.frames.solver(solver);
        let core = rotate(
            &mut fs.s,
            &fs.next,
            prefix,
            (order, lits),
            how,
            &mut self.stats,
        );
        let g = Cube::new(core);
        match self.initiation(&g) {
            Initiation::Disjoint => g,
            _ => self.ungeneralize(g, orig),
        }
    }

    /// Literal dropping (§2.4.1) on the query `F_i ∧ ¬orig ∧ T ∧ g'`: each literal is removed
    /// if the query stays UNSAT and the cube stays disjoint from `I`.
    fn drop_literals(&mut self, i: usize, g: Cube, orig: &Cube) -> Cube {
        let q = self.frames.begin(i, Some(orig));
        let cur = drop_each(g.0, |trial| {
            self.stats.solver_calls += 1;
            // F_i ∧ ¬orig ∧ T ∧ trial'
            self.frames.solve_next(&q, trial).0.is_unsat()
                && matches!(
                    self.initiation(&Cube::new(trial.to_vec())),
                    Initiation::Disjoint
                )
        });
        self.frames.end(q);
        Cube::new(cur)
    }

    /// Bound weakening by probing (§3.3: wherever a literal is checked for removal, a weaker
    /// bound may be checked instead): each bound literal of `g` is moved toward its
    /// variable's declared range end, galloping then bisecting — at most [`WEAKEN_PROBES`]
    /// queries
    /// `F_i ∧ ¬orig ∧ T ∧ g'` with the weaker bound, each kept if the query stays UNSAT and
    /// the cube stays disjoint from `I`. Literal rotation only weakens a bound when the solver
    /// implied its negation through a bound implication; a bound refuted by a chain of ICP
    /// deductions is not weakened by it, and real-valued systems then learn lemmas one sliver
    /// at a time (`x > 0.49`, `x > 0.499`, …).
    fn weaken_bounds(&mut self, i: usize, g: Cube, orig: &Cube) -> Cube {
        let mut cur = g.0;
        let q = self.frames.begin(i, Some(orig));
        for idx in 0..cur.len() {
            let CLit::Bound { var, rel, value } = cur[idx].clone() else {
                continue;
            };
            let upper = matches!(rel, Rel::Le | Rel::Lt);
            // the bound the rest of the query implies by propagation: the literal fails
            // because it asks for more, and the negation of the implied bound is the weakest
            // literal that fails the same way (§2.4.2) — one query instead of a search
            let (rel, value) = match self.implied_weakening(&q, &mut cur, idx) {
                Some(CLit::Bound { rel, value, .. }) => (rel, value),
                _ => (rel, value),
            };
            let sv = &self.ts.state[var];
            let far = if upper { &sv.domain.hi } else { &sv.domain.lo };
            let Some(far) = far.as_ref().map(|b| b.value.clone()) else {
                continue;
            };
            let integral = super::cube::integral(&sv.sort);
            // galloping from the literal's own value (steps 1, 2, 4, … toward the range end;
            // below 1 where the range is narrower), then bisection once a step failed
            let toward = |x: &Rational, d: &Rational| if upper { x + d } else { x - d };
            let span = if upper { &far - &value } else { &value - &far };
            let one = Rational::from_integer(1.into());
            let two = Rational::from_integer(2.into());
            let mut step = if span > one { one } else { &span / &two };
            let mut good = value;
            let mut bad: Option<Rational> = None;
            for _ in 0..WEAKEN_PROBES {
                let cand = match &bad {
                    None => toward(&good, &step),
                    Some(b) => match between(&good, b, integral) {
                        Some(m) => m,
                        None => break,
                    },
                };
                let beyond = if upper { cand >= far } else { cand <= far };
                if beyond || cand == good {
                    bad = Some(far.clone());
                    continue;
                }
                let mut trial = cur.clone();
                trial[idx] = CLit::Bound {
                    var,
                    rel,
                    value: cand.clone(),
                };
                self.stats.solver_calls += 1;
                let (r, _) = self.frames.solve_next(&q, &trial);
                if r.is_unsat()
                    && matches!(self.initiation(&Cube(trial.clone())), Initiation::Disjoint)
                {
                    cur = trial;
                    good = cand;
                    step = &step * &two;
                } else {
                    bad = Some(cand);
                }
            }
        }
        self.frames.end(q);
        Cube::new(cur)
    }

    /// The weakest form of bound literal `cur[idx]` that fails by propagation alone (see
    /// [`Solver::implied_boxes`](solver::Solver::implied_boxes)), installed in `cur` when it
    /// is weaker, keeps the query UNSAT and the cube disjoint from `I`.
    fn implied_weakening(
        &mut self,
        q: &super::frames::Query,
        cur: &mut [CLit],
        idx: usize,
    ) -> Option<CLit> {
        let CLit::Bound { var, rel, .. } = cur[idx] else {
            return None;
        };
        let rest: Vec<CLit> = (0..cur.len())
            .filter(|&k| k != idx)
            .map(|k| cur[k].clone())
            .collect();
        let b = self.frames.implied_next(q, &rest, var)?;
        // `x <= v` fails against an implied lower end: `x < lo` (closed) or `x <= lo` (open)
        let (end, open) = if matches!(rel, Rel::Le | Rel::Lt) {
            (b.lo(), b.lo_open())
        } else {
            (b.hi(), b.hi_open())
        };
        let value = Rational::from_float(end).filter(|_| end.is_finite())?;
        let rel = match (rel, open) {
            (Rel::Le | Rel::Lt, true) => Rel::Le,
            (Rel::Le | Rel::Lt, false) => Rel::Lt,
            (_, true) => Rel::Ge,
            (_, false) => Rel::Gt,
        };
        let cand = CLit::Bound { var, rel, value };
        if cand == cur[idx] || !cand.implied_by(&cur[idx]) {
            return None;
        }
        let mut trial = cur.to_vec();
        trial[idx] = cand.clone();
        self.stats.solver_calls += 1;
        // F_i ∧ ¬orig ∧ T ∧ trial'
        let (r, _) = self.frames.solve_next(q, &trial);
        if r.is_unsat() && matches!(self.initiation(&Cube(trial)), Initiation::Disjoint) {
            cur[idx] = cand.clone();
            Some(cand)
        } else {
            None
        }
    }

    /// GENERALIZE (§2.4.4) for cube `c`, blocked relative to `F_i`: the query
    /// `F_i ∧ ¬c ∧ T ∧ c'` was just answered UNSAT in query `q` with `order`'s literals `lits`.
    /// Returns the generalized cube and the level of its lemma (`i + 1` or higher).
    pub(crate) fn generalize(
        &mut self,
        q: super::frames::Query,
        i: usize,
        c: &Cube,
        order: Vec<CLit>,
        lits: Vec<Lit>,
        rec: u32,
    ) -> (Cube, usize) {
        let t0 = Instant::now();
        let prefix = q.frame_assumptions.clone();
        let mut g = self.analyze(q.solver, &prefix, order, lits, c);
        self.frames.end(q);
        if self.first_term < self.ts.state.len() {
            if let Some((h, level)) = self.relational_lemma(i, c) {
                let h = if self.cfg.bound_gen && self.cfg.weaken {
                    self.weaken_bounds(level - 1, h, c)
                } else {
                    h
                };
                self.stats.relational += 1;
                return self.finish_generalization(t0, c, h, level);
            }
        }
        if self.cfg.ld {
            g = self.drop_literals(i, g, c);
        }
        // push to the highest frame where it stays blocked
        let mut level = i + 1;
        while level < self.frames.top() {
            // F_level ∧ ¬c ∧ T ∧ g'
            let q = self.frames.begin(level, Some(c));
            let order = self.shuffled(&g);
            self.stats.solver_calls += 1;
            let (r, lits) = self.frames.solve_next(&q, &order);
            if !r.is_unsat() {
                self.frames.end(q);
                break;
            }
            let prefix = q.frame_assumptions.clone();
            g = self.analyze(q.solver, &prefix, order, lits, c);
            self.frames.end(q);
            if self.cfg.ld {
                g = self.drop_literals(level, g, c);
            }
            level += 1;
        }
        if self.cfg.ldonce {
            g = self.drop_literals(level - 1, g, c);
        }
        if self.cfg.ig {
            // §3.4 step 2: inductive generalization (with Down()/CTG), see `ctg`
            g = self.inductive_generalize(g, level - 1, rec);
        }
        if self.cfg.bound_gen && self.cfg.weaken {
            g = self.weaken_bounds(level - 1, g, c);
        }
        self.finish_generalization(t0, c, g, level)
    }

    /// Statistics of one generalization (reduction and bound-generalization rates); returns
    /// its result.
    fn finish_generalization(
        &mut self,
        t0: Instant,
        c: &Cube,
        g: Cube,
        level: usize,
    ) -> (Cube, usize) {
        self.stats.blocked += 1;
        if !c.is_empty() {
            self.stats.red_rate_sum += (c.len().saturating_sub(g.len())) as f64 / c.len() as f64;
        }
        self.stats.gen_lits += g.len() as u64;
        self.stats.boundgen_lits += g.0.iter().filter(|l| !c.0.contains(l)).count() as u64;
        self.stats.gen_time += t0.elapsed();
        (g, level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solver::formula::{Domain, Sort};
    use solver::Var;

    /// The example of §2.4.1: clauses (¬l1∨l3) (¬l1∨l4) (¬l1∨l5) (¬l5∨¬l6) (¬l2∨l6)
    /// (¬l3∨¬l4∨l6) with assumptions (l2, l1). Assumed in that order, both look responsible;
    /// rotation puts the failed l1 first and finds {l1} alone.
    fn paper_example() -> (Solver, Step, Vec<CLit>) {
        let mut s = Solver::new(SolverConfig::default()).unwrap();
        let vars: Vec<Var> = (0..6)
            .map(|_| s.new_var(Sort::Bool, &Domain::unbounded()))
            .collect();
        let l: Vec<Lit> = vars.iter().map(|&v| s.bool_lit(v).unwrap()).collect();
        for c in [
            vec![!l[0], l[2]],
            vec![!l[0], l[3]],
            vec![!l[0], l[4]],
            vec![!l[4], !l[5]],
            vec![!l[1], l[5]],
            vec![!l[2], !l[3], l[5]],
        ] {
            s.add_clause(&c);
        }
        let step = Step::new(&s, vars);
        let order = vec![
            CLit::Bool { var: 1, val: true },
            CLit::Bool { var: 0, val: true },
        ];
        (s, step, order)
    }

    #[test]
    fn literal_rotation_finds_l1_alone() {
        let (mut s, step, order) = paper_example();
        let lits = step.lits(&mut s, &order);
        assert!(s.solve(&lits).is_unsat());
        // without rotation the core of the order (l2, l1) keeps both literals
        let mut stats = Ic3Stats::default();
        let plain = Rotation {
            rotation: false,
            bound_gen: true,
        };
        let once = rotate(
            &mut s,
            &step,
            &[],
            (order.clone(), lits.clone()),
            plain,
            &mut stats,
        );
        assert_eq!(once.len(), 2, "{once:?}");
        assert!(s.solve(&lits).is_unsat());
        let full = Rotation {
            rotation: true,
            bound_gen: true,
        };
        let core = rotate(&mut s, &step, &[], (order, lits), full, &mut stats);
        assert_eq!(core, vec![CLit::Bool { var: 0, val: true }]);
        assert!(stats.rotations >= 1);
    }

    #[test]
    fn between_stays_strictly_inside() {
        let q = |n: i64, d: i64| Rational::new(n.into(), d.into());
        let m = between(&q(1, 2), &q(10, 1), false).unwrap();
        assert!(m > q(1, 2) && m < q(10, 1));
        let m = between(&q(10, 1), &q(3, 1), true).unwrap();
        assert!(m > q(3, 1) && m < q(10, 1) && m.is_integer());
        assert!(between(&q(3, 1), &q(4, 1), true).is_none());
    }
}
