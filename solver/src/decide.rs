//! Decisions (paper §2.3 (1): "the decision heuristics is adapted to – besides deciding
//! existing literals – perform interval splits by dynamically generating new simple bound
//! literals and deciding them").
//!
//! The idea, in this order:
//! 1. decide the *decidable* atoms — Boolean variables and the bound atoms of original
//!    clauses and assumptions — by VSIDS activity with saved phases (for a bound atom that is
//!    a split at a value the formula cares about);
//! 2. then split a variable (VSIDS over variables, bumped through its bound atoms in
//!    conflicts) whose interval is still wider than `msw` (reals) or not a point (integers),
//!    at a fresh bound literal (before that, an exact point check may end the search early);
//! 3. when nothing can be split, decide a literal of a learned clause that is still open
//!    (bound atoms of learned clauses are not decided in step 1: they carry the fine values
//!    ICP derived, and splitting at them makes slivers);
//! 4. on a full assignment that fails the exact check, *refine*: pin input reals to short
//!    dyadic points below `msw` (a bounded number of times), so that ICP narrows the rest
//!    around an exactly checkable point.
//!
//! Split points: `0` when the interval straddles zero (sign splits help products); for a
//! positive interval spanning more than six binary orders of magnitude, a power of two near
//! the geometric middle (so `[1, 1e300]` takes ~10 splits to narrow, not ~1000); towards an
//! infinite end, 16 times the finite end; otherwise the middle, moved to the double with the
//! fewest significant bits in the middle half of the interval (short dyadic points make
//! exact point checks cheap and answers readable). Integers split at an integer.

use crate::bound_table::{BoundAtom, Lb, Ub};
use crate::config::SplitPhase;
use crate::lit::{AtomId, Lit};
use crate::solve::{AtomKind, Solver, VarKind};
use crate::var::Var;

/// The double with the fewest significant bits in `[a, b]` (finite, `a <= b`).
pub(crate) fn simplest_dyadic(a: f64, b: f64) -> f64 {
    if a <= 0.0 && 0.0 <= b {
        return 0.0;
    }
    let m = a.abs().max(b.abs());
    let e = m.log2().floor() as i32 + 1;
    for k in 0..1100 {
        let step = 2f64.powi(e - k);
        if step == 0.0 {
            break;
        }
        let c = (a / step).ceil() * step;
        if c <= b && c >= a {
            return c;
        }
    }
    a
}

/// A split value strictly inside `(lo, hi)` for a real variable (`None` if no double lies
/// strictly inside), or an integer `c` with `lo <= c < hi` for an integer variable.
pub(crate) fn split_value(lo: f64, hi: f64, int: bool) -> Option<f64> {
    if lo.is_nan() || hi.is_nan() || lo >= hi {
        return None;
    }
    let c = if lo < 0.0 && hi > 0.0 {
        0.0
    } else if lo.is_finite() && hi.is_finite() {
        if lo > 0.0 && hi / lo > 64.0 {
            2f64.powi(((lo.log2() + hi.log2()) / 2.0).round() as i32)
        } else if hi < 0.0 && lo / hi > 64.0 {
            -2f64.powi(((lo.abs().log2() + hi.abs().log2()) / 2.0).round() as i32)
        } else {
            let w4 = hi * 0.25 - lo * 0.25;
            simplest_dyadic(lo + w4, hi - w4)
        }
    } else if lo.is_finite() {
        // [lo, +inf) with lo >= 0
        if lo < 1.0 {
            1.0
        } else {
            (lo * 16.0).min(f64::MAX)
        }
    } else if hi.is_finite() {
        if hi > -1.0 {
            -1.0
        } else {
            (hi * 16.0).max(-f64::MAX)
        }
    } else {
        0.0
    };
    if int {
        let c = c.floor();
        if c >= lo && c < hi {
            return Some(c);
        }
        let m = (lo * 0.5 + hi * 0.5).floor();
        if m >= lo && m < hi {
            return Some(m);
        }
        return if lo.is_finite() { Some(lo) } else { None };
    }
    if c > lo && c < hi {
        return Some(c);
    }
    let m = lo * 0.5 + hi * 0.5;
    if m > lo && m < hi {
        Some(m)
    } else if lo.next_up() < hi && lo.is_finite() {
        Some(lo.next_up())
    } else {
        None
    }
}

/// A float `c` of format `f` with `lo <= c < hi` to split the value range `[lo, hi]` of an
/// IEEE variable at (`None` for a single float): `0` (or just below) across zero; else the
/// double with the fewest significant bits in the middle half of the range *counted in
/// floats*, so that `[1, 1e300]` and `[-inf, +inf]` both take at most 64 splits to a point.
pub(crate) fn fp_split_value(f: crate::num::FpFormat, lo: f64, hi: f64) -> Option<f64> {
    use crate::icp_fp::bits_of;
    use crate::num::ieee;
    if lo.is_nan() || hi.is_nan() || lo >= hi {
        return None;
    }
    if lo < 0.0 && hi > 0.0 {
        return Some(0.0);
    }
    if lo < 0.0 && hi == 0.0 {
        return Some(-ieee::to_f64(f, 1));
    }
    let (kl, kh) = (
        ieee::ord_key(f, bits_of(f, lo)) as i128,
        ieee::ord_key(f, bits_of(f, hi)) as i128,
    );
    let w = kh - kl;
    let at = |k: i128| ieee::to_f64(f, ieee::from_ord_key(f, k as i64));
    let (a, b) = (at(kl + w / 4), at(kh - w / 4));
    let simple = if a.is_finite() && b.is_finite() {
        let c = simplest_dyadic(a, b);
        ieee::from_f64(f, c).map(|_| c)
    } else {
        None
    };
    match simple {
        Some(c) if lo <= c && c < hi => Some(c + 0.0),
        // kl + w/2 < kh for w >= 1
        _ => Some(at(kl + w / 2) + 0.0),
    }
}

impl Solver {
    /// The next decision among the relevant atoms, or `None` when all are assigned.
    pub(crate) fn pick_literal(&mut self) -> Option<Lit> {
        while let Some(a) = self.atom_heap.pop() {
            let a = AtomId(a);
            if self.value[a.index()] != 0 || !self.decidable[a.index()] {
                continue;
            }
            let positive = match self.phase[a.index()] {
                1 => true,
                -1 => false,
                _ => match self.atom_kind[a.index()] {
                    AtomKind::Bool(_) => false,
                    AtomKind::Bound(i) => {
                        let b = &self.bound_atoms[i as usize];
                        self.default_split_phase(b.if_true.v)
                    }
                },
            };
            return Some(Lit::new(a, !positive));
        }
        None
    }

    /// Whether a fresh split at `c` decides `x <= c` first.
    fn default_split_phase(&self, c: f64) -> bool {
        match self.config.split_phase {
            SplitPhase::Lower => true,
            SplitPhase::Upper => false,
            SplitPhase::TowardZero => c >= 0.0,
        }
    }

    /// The next interval split, or `None` when no variable can be split any more.
    pub(crate) fn pick_split(&mut self) -> Option<Lit> {
        // branch and bound first: an integer the simplex's rational point leaves fractional
        if let Some((v, c)) = self.simplex_branch() {
            if let Some(l) = self.split_at(BoundAtom::int(v, c), c) {
                self.stats.simplex_branches += 1;
                return Some(l);
            }
        }
        while let Some(v) = self.var_heap.pop() {
            let v = Var(v);
            if let Some(l) = self.split_lit(v) {
                // a split variable may need more splits below this one: it stays a candidate
                // (unsplittable variables leave the heap until backtracking widens them)
                self.var_heap.insert(v.0);
                return Some(l);
            }
        }
        None
    }

    /// A literal of a clause that no assigned literal satisfies (only learned clauses over
    /// non-decidable bound atoms can be left so), the most active of its unassigned ones.
    pub(crate) fn pick_open_clause(&mut self) -> Option<Lit> {
        for c in &self.db.clauses {
            if c.deleted || c.lits.iter().any(|&l| self.lit_true(l)) {
                continue;
            }
            let best = c
                .lits
                .iter()
                .copied()
                .filter(|&l| !self.lit_false(l))
                .max_by(|&a, &b| {
                    let (x, y) = (
                        self.atom_heap.activity[a.atom().index()],
                        self.atom_heap.activity[b.atom().index()],
                    );
                    x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal)
                });
            if best.is_some() {
                return best;
            }
        }
        None
    }

    /// Below the splitting width: pins an input real variable (one no definition computes)
    /// to a short dyadic point of its box, as two decisions `x <= c` then `x >= c`, so that
    /// ICP narrows the computed variables around an exactly checkable point. `None` when the
    /// per-call budget is used up or every input is a point.
    pub(crate) fn pick_refinement(&mut self) -> Option<Lit> {
        if self.refinements >= self.config.point_refinements {
            return None;
        }
        if let Some((v, c)) = self.refine_target.take() {
            let b = self.ibox(v);
            if b.hi() == c && !b.hi_open() && b.lo() < c {
                let lit = self.lower_lit(v, Lb::new(c, false));
                if self.lit_value(lit) == crate::lit::LBool::Undef {
                    self.refinements += 1;
                    return Some(lit);
                }
            }
        }
        // the widest input first; one whose box has no room for a point is skipped
        let mut cands: Vec<(Var, f64)> = self
            .vars
            .keys()
            .filter(|&v| self.vars[v].kind == VarKind::Real && self.vars[v].defined_by.is_none())
            .filter_map(|v| {
                let b = self.ibox(v);
                (!b.is_empty() && !b.is_point() && b.is_bounded()).then(|| (v, b.width()))
            })
            .collect();
        cands.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
        for (v, _) in cands {
            let b = self.ibox(v);
            let (lo, hi) = (b.lo(), b.hi());
            let w4 = hi * 0.25 - lo * 0.25;
            let c = simplest_dyadic(lo + w4, hi - w4);
            let (lit, target) = if c > lo && c < hi {
                (self.upper_lit(v, Ub::new(c, false)), Some((v, c)))
            } else if c == lo && !b.lo_open() {
                (self.upper_lit(v, Ub::new(c, false)), None)
            } else if c == hi && !b.hi_open() {
                (self.lower_lit(v, Lb::new(c, false)), None)
            } else {
                continue;
            };
            if self.lit_value(lit) != crate::lit::LBool::Undef {
                continue;
            }
            self.refinements += 1;
            self.refine_target = target;
            return Some(lit);
        }
        None
    }

    /// A split literal for `v` if its interval is wide enough.
    fn split_lit(&mut self, v: Var) -> Option<Lit> {
        let kind = self.vars[v].kind;
        if let VarKind::Fp(f) = kind {
            // NaN or not first, then the value, then the sign of a zero
            let fl = self.vars[v].fp.expect("IEEE variables have flags");
            let nan = Lit::pos(self.vars[fl.nan].bool_atom.expect("bool"));
            // a flag in its saved phase, false by default (not NaN, positive)
            let flag = |s: &mut Self, l: Lit| {
                s.stats.splits += 1;
                if s.phase[l.atom().index()] == 1 {
                    l
                } else {
                    !l
                }
            };
            if self.lit_value(nan) == crate::lit::LBool::Undef {
                return Some(flag(self, nan));
            }
            let (lo, hi) = (self.lb[v].0.v, self.ub[v].0.v);
            let neg = Lit::pos(self.vars[fl.neg].bool_atom.expect("bool"));
            if lo == hi && lo == 0.0 && self.lit_value(neg) == crate::lit::LBool::Undef {
                return Some(flag(self, neg));
            }
            let c = fp_split_value(f, lo, hi)?;
            return self.split_at(BoundAtom::fp(v, c, f), c);
        }
        let iv = self.ibox(v);
        if iv.is_empty() {
            return None;
        }
        let (lo, hi) = (iv.lo(), iv.hi());
        let c = match kind {
            VarKind::Int => split_value(lo, hi, true)?,
            VarKind::Real => {
                if iv.width() <= self.config.msw {
                    return None;
                }
                split_value(lo, hi, false)?
            }
            _ => return None,
        };
        let ba = if kind == VarKind::Int {
            BoundAtom::int(v, c)
        } else {
            BoundAtom::real(v, c, false)
        };
        self.split_at(ba, c)
    }

    /// The decision of a split at `c` by the fresh (or existing) atom `ba`, in its saved
    /// phase or the default split phase.
    fn split_at(&mut self, ba: BoundAtom, c: f64) -> Option<Lit> {
        let a = self.intern_internal_atom(ba);
        if self.value[a.index()] != 0 {
            // cannot happen for a point strictly inside; never decide an assigned atom
            return None;
        }
        let positive = match self.phase[a.index()] {
            1 => true,
            -1 => false,
            _ => self.default_split_phase(c),
        };
        self.stats.splits += 1;
        Some(Lit::new(a, !positive))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_values_are_inside_and_sensible() {
        assert_eq!(split_value(-1000.0, 1000.0, false), Some(0.0));
        assert_eq!(split_value(0.0, 1000.0, false), Some(512.0));
        assert_eq!(split_value(1.0, 1e300, false), Some(2f64.powi(498)));
        assert_eq!(split_value(3.0, f64::INFINITY, false), Some(48.0));
        assert_eq!(
            split_value(f64::NEG_INFINITY, f64::INFINITY, false),
            Some(0.0)
        );
        assert_eq!(split_value(f64::NEG_INFINITY, -2.0, false), Some(-32.0));
        assert_eq!(split_value(-4.0, 4.0, true), Some(0.0));
        assert_eq!(split_value(1.0, 2.0, true), Some(1.0));
        assert_eq!(split_value(2.0, 2.0, true), None);
        let x = 1.0f64;
        assert_eq!(split_value(x, x.next_up(), false), None);
        assert_eq!(
            split_value(x, x.next_up().next_up(), false),
            Some(x.next_up())
        );
        for (lo, hi) in [(0.1, 0.2), (1.0, 1.5), (-7.3, -7.2), (1e-300, 2e-300)] {
            let c = split_value(lo, hi, false).unwrap();
            assert!(lo < c && c < hi, "{lo} {hi} {c}");
        }
        assert_eq!(simplest_dyadic(0.3, 0.7), 0.5);
        assert_eq!(simplest_dyadic(1.1, 1.3), 1.25);
    }
}
