//! Simple bound atoms and the per-variable ordered bound table (paper §2.3: "simple bound
//! literals", "bound-implication clauses generated lazily").
//!
//! The idea: a bound atom `x <= c` (or `x < c`) is an ordinary atom for the CDCL core. Its
//! positive literal asserts an *upper* bound on `x`, its negative literal (`x > c`, `x >= c`)
//! a *lower* bound. Bound values are `f64` with a strictness flag ([`Ub`], [`Lb`]); each
//! atom stores the bound it imposes in each polarity and, separately, the *threshold* at
//! which the current bounds of `x` imply it. For atoms whose constant is a double the two
//! coincide. For an input constant that is not a double (`x <= 1/3`) the atom keeps the exact
//! rational and asserts an over-approximation in both polarities: true ⇒ `x < up`, false ⇒
//! `x > down` (`down < 1/3 < up` adjacent doubles), and it is implied true only once
//! `x <= down`, implied false only once `x >= up`. No real solution is ever lost.
//!
//! Integer variables only have atoms `x <= k` with integer `k` (`x < 3` is stored as
//! `x <= 2`), whose negation is the closed bound `x >= k + 1`.
//!
//! The table keeps the *relevant* atoms of a variable (those occurring in clauses or
//! assumptions) sorted by their implication thresholds, so that when a bound of `x` tightens
//! from `old` to `new`, the atoms that have just become implied are one contiguous range: the
//! solver assigns them with the *bound implication* `new ⇒ atom` as reason, remembering the
//! literal they came from (bound generalization, paper §2.4.2, needs it).

use crate::lit::AtomId;
use crate::num::{FpFormat, Rational, RoundingMode};
use num_traits::{One, Zero};
use std::cmp::Ordering;
use std::ops::Range;

/// An upper bound `x <= v` (`strict`: `x < v`). `v` may be `+inf` (no bound; then strict).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Ub {
    pub v: f64,
    pub strict: bool,
}

/// A lower bound `x >= v` (`strict`: `x > v`). `v` may be `-inf` (no bound; then strict).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Lb {
    pub v: f64,
    pub strict: bool,
}

impl Ub {
    pub const NONE: Ub = Ub {
        v: f64::INFINITY,
        strict: true,
    };
    #[inline]
    pub fn new(v: f64, strict: bool) -> Ub {
        Ub { v: v + 0.0, strict }
    }
    /// Orders upper bounds from tightest to loosest: `x < 3` before `x <= 3` before `x < 4`.
    #[inline]
    pub fn cmp_tightness(self, o: Ub) -> Ordering {
        self.v.total_cmp(&o.v).then((!self.strict).cmp(&!o.strict))
    }
    /// `self` implies `o` (is at least as tight).
    #[inline]
    pub fn implies(self, o: Ub) -> bool {
        self.cmp_tightness(o) != Ordering::Greater
    }
}

impl Lb {
    pub const NONE: Lb = Lb {
        v: f64::NEG_INFINITY,
        strict: true,
    };
    #[inline]
    pub fn new(v: f64, strict: bool) -> Lb {
        Lb { v: v + 0.0, strict }
    }
    /// Orders lower bounds from loosest to tightest: `x >= 3` before `x > 3` before `x >= 4`.
    #[inline]
    pub fn cmp_tightness(self, o: Lb) -> Ordering {
        self.v.total_cmp(&o.v).then(self.strict.cmp(&o.strict))
    }
    /// `self` implies `o` (is at least as tight).
    #[inline]
    pub fn implies(self, o: Lb) -> bool {
        self.cmp_tightness(o) != Ordering::Less
    }
}

/// `lb` and `ub` admit no real together.
#[inline]
pub fn bounds_empty(lb: Lb, ub: Ub) -> bool {
    lb.v > ub.v || (lb.v == ub.v && (lb.strict || ub.strict))
}

/// The exact meaning of an atom whose constant is not a double: `x <= value` (`x < value`
/// when `strict`).
#[derive(Clone, Debug, PartialEq)]
pub struct ExactBound {
    pub value: Rational,
    pub strict: bool,
}

/// A bound atom on a theory variable (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct BoundAtom {
    pub var: crate::var::Var,
    /// what the positive literal asserts
    pub if_true: Ub,
    /// what the negative literal asserts
    pub if_false: Lb,
    /// the positive literal is implied once the current upper bound implies this
    pub implied_true_at: Ub,
    /// the negative literal is implied once the current lower bound implies this
    pub implied_false_at: Lb,
    /// `None`: the atom means exactly `x <= if_true.v` (`<` if strict). `Some`: the exact
    /// rational constraint this atom over-approximates.
    pub exact: Option<Box<ExactBound>>,
}

/// How to build a bound atom from a relation and a constant.
impl BoundAtom {
    /// An atom that means exactly `if_true` (and its negation exactly `if_false`).
    fn exact_pair(var: crate::var::Var, ub: Ub, lb: Lb) -> BoundAtom {
        BoundAtom {
            var,
            if_true: ub,
            if_false: lb,
            implied_true_at: ub,
            implied_false_at: lb,
            exact: None,
        }
    }

    /// `x <= v` (`x < v` if `strict`) on a real variable, for a double `v`. For an integral
    /// variable use [`BoundAtom::from_rational`].
    pub fn real(var: crate::var::Var, v: f64, strict: bool) -> BoundAtom {
        let ub = Ub::new(v, strict);
        let lb = Lb::new(v, !strict);
        BoundAtom::exact_pair(var, ub, lb)
    }

    /// `x <= k` on an integral variable for a double integer `k`.
    pub fn int(var: crate::var::Var, k: f64) -> BoundAtom {
        let ub = Ub::new(k, false);
        // k + 1 is exact below 2^53; beyond, the open bound `x > k` is a sound stand-in
        let next = k + 1.0;
        let lb = if next - 1.0 == k && next != k {
            Lb::new(next, false)
        } else {
            Lb::new(k, true)
        };
        BoundAtom::exact_pair(var, ub, lb)
    }

    /// `x <= c` on the value of an IEEE variable of format `fmt`, for a float `c < +inf` of
    /// that format. Like integers, float values are a discrete set: the negation is the
    /// closed bound `x >= next float above c`, so splitting ends at single floats and no
    /// bound is ever strict. (Both zeros are the value 0; their sign is a separate flag.)
    pub fn fp(var: crate::var::Var, c: f64, fmt: FpFormat) -> BoundAtom {
        use crate::num::ieee;
        debug_assert!(c < f64::INFINITY && ieee::from_f64(fmt, c).is_some());
        let bits = ieee::from_f64(fmt, c + 0.0).unwrap_or(0);
        let above = ieee::to_f64(fmt, ieee::next_up(fmt, bits));
        let ub = Ub::new(c, false);
        let lb = Lb::new(above, false);
        BoundAtom::exact_pair(var, ub, lb)
    }

    /// `x <= q` (`x < q` if `strict`) for an exact rational. Integral variables round the
    /// constant to an integer first (`x < 2.5` → `x <= 2`); a constant that is not a double
    /// gives an over-approximating atom that keeps the rational (see the module docs).
    pub fn from_rational(
        var: crate::var::Var,
        q: &Rational,
        strict: bool,
        integral: bool,
    ) -> BoundAtom {
        let (q, strict) = if integral {
            let k = if strict {
                // x < q  ⇔  x <= ceil(q) - 1
                q.ceil() - Rational::one()
            } else {
                q.floor()
            };
            (k, false)
        } else {
            (q.clone(), strict)
        };
        let f = FpFormat::F64;
        let down = f64::from_bits(f.round_rational(&q, RoundingMode::Rtn));
        let up = f64::from_bits(f.round_rational(&q, RoundingMode::Rtp));
        if down == up && down.is_finite() {
            return if integral {
                BoundAtom::int(var, down)
            } else {
                BoundAtom::real(var, down, strict)
            };
        }
        // not a double (or beyond the finite range): over-approximate in both polarities
        let exact = Some(Box::new(ExactBound { value: q, strict }));
        BoundAtom {
            var,
            if_true: Ub::new(up, true),
            if_false: Lb::new(down, true),
            implied_true_at: Ub::new(down, false),
            implied_false_at: Lb::new(up, false),
            exact,
        }
    }

    /// The exact constraint of the positive literal: `(value, strict)` for `x <= value`
    /// (`<` when strict).
    pub fn exact_constraint(&self) -> (Rational, bool) {
        match &self.exact {
            Some(e) => (e.value.clone(), e.strict),
            None => (
                Rational::from_float(self.if_true.v).unwrap_or_else(Rational::zero),
                self.if_true.strict,
            ),
        }
    }

    /// Whether the positive literal holds at a value given as a double (an IEEE variable's
    /// value, `±inf` included; the atom is then one of [`BoundAtom::fp`]).
    pub fn holds_at_f64(&self, x: f64) -> bool {
        debug_assert!(self.exact.is_none());
        if self.if_true.strict {
            x < self.if_true.v
        } else {
            x <= self.if_true.v
        }
    }

    /// Whether the positive literal holds at the exact value `x`.
    pub fn holds_at(&self, x: &Rational) -> bool {
        if self.exact.is_none() && !self.if_true.v.is_finite() {
            // only `x < +inf` (always) or `x < -inf` (never) can be stored like this
            return self.if_true.v > 0.0;
        }
        let (c, strict) = self.exact_constraint();
        if strict {
            x < &c
        } else {
            x <= &c
        }
    }
}

/// What assignment needs of a bound atom, packed in 24 bytes for the hot path (the full
/// [`BoundAtom`] is 80 bytes; with many atoms the difference is cache misses).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundCore {
    pub var: crate::var::Var,
    pub true_strict: bool,
    pub false_strict: bool,
    pub t: f64,
    pub f: f64,
}

impl BoundCore {
    pub fn of(b: &BoundAtom) -> BoundCore {
        BoundCore {
            var: b.var,
            true_strict: b.if_true.strict,
            false_strict: b.if_false.strict,
            t: b.if_true.v,
            f: b.if_false.v,
        }
    }
    #[inline]
    pub fn if_true(&self) -> Ub {
        Ub {
            v: self.t,
            strict: self.true_strict,
        }
    }
    #[inline]
    pub fn if_false(&self) -> Lb {
        Lb {
            v: self.f,
            strict: self.false_strict,
        }
    }
}

/// The relevant bound atoms of one variable, sorted by their implication thresholds.
#[derive(Clone, Debug, Default)]
pub struct BoundTable {
    /// by `implied_true_at`, tightest first
    by_ub: Vec<(Ub, AtomId)>,
    /// by `implied_false_at`, loosest first
    by_lb: Vec<(Lb, AtomId)>,
}

impl BoundTable {
    /// Registers a relevant atom.
    pub fn insert(&mut self, atom: AtomId, b: &BoundAtom) {
        let u = b.implied_true_at;
        let i = self
            .by_ub
            .partition_point(|(k, _)| k.cmp_tightness(u) != Ordering::Greater);
        self.by_ub.insert(i, (u, atom));
        let l = b.implied_false_at;
        let j = self
            .by_lb
            .partition_point(|(k, _)| k.cmp_tightness(l) != Ordering::Greater);
        self.by_lb.insert(j, (l, atom));
    }

    /// Unregisters an atom (it must have been inserted with the same bounds).
    pub fn remove(&mut self, atom: AtomId, b: &BoundAtom) {
        let u = b.implied_true_at;
        let start = self
            .by_ub
            .partition_point(|(k, _)| k.cmp_tightness(u) == Ordering::Less);
        if let Some(off) = self.by_ub[start..].iter().position(|&(_, a)| a == atom) {
            self.by_ub.remove(start + off);
        }
        let l = b.implied_false_at;
        let start = self
            .by_lb
            .partition_point(|(k, _)| k.cmp_tightness(l) == Ordering::Less);
        if let Some(off) = self.by_lb[start..].iter().position(|&(_, a)| a == atom) {
            self.by_lb.remove(start + off);
        }
    }

    pub fn len(&self) -> usize {
        self.by_ub.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_ub.is_empty()
    }

    /// Positions in [`BoundTable::ub_atom`] of the atoms whose positive literal becomes
    /// implied when the upper bound tightens from `old` to `new`: thresholds `t` with
    /// `new ⇒ t` and not `old ⇒ t`.
    pub fn newly_true(&self, new: Ub, old: Ub) -> Range<usize> {
        let start = self
            .by_ub
            .partition_point(|(k, _)| k.cmp_tightness(new) == Ordering::Less);
        let end = self
            .by_ub
            .partition_point(|(k, _)| k.cmp_tightness(old) == Ordering::Less);
        start..end.max(start)
    }

    /// Positions in [`BoundTable::lb_atom`] of the atoms whose negative literal becomes
    /// implied when the lower bound tightens from `old` to `new`.
    pub fn newly_false(&self, new: Lb, old: Lb) -> Range<usize> {
        let start = self
            .by_lb
            .partition_point(|(k, _)| k.cmp_tightness(old) != Ordering::Greater);
        let end = self
            .by_lb
            .partition_point(|(k, _)| k.cmp_tightness(new) != Ordering::Greater);
        start..end.max(start)
    }

    #[inline]
    pub fn ub_atom(&self, i: usize) -> AtomId {
        self.by_ub[i].1
    }

    #[inline]
    pub fn lb_atom(&self, i: usize) -> AtomId {
        self.by_lb[i].1
    }

    /// Candidates for a decision on this variable: the relevant atoms not implied true by
    /// `ub` whose threshold is not below `lb`, tightest last. A candidate may still be
    /// implied false (at the boundary) or assigned; the caller checks its value.
    pub fn undecided(&self, lb: Lb, ub: Ub) -> impl Iterator<Item = AtomId> + '_ {
        let start = self
            .by_ub
            .partition_point(|(k, _)| k.cmp_tightness(ub) == Ordering::Less);
        self.by_ub[..start]
            .iter()
            .rev()
            .take_while(move |(k, _)| k.v >= lb.v)
            .map(|&(_, a)| a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::var::Var;
    use num_bigint::BigInt;

    fn q(n: i64, d: i64) -> Rational {
        Rational::new(BigInt::from(n), BigInt::from(d))
    }

    #[test]
    fn tightness_orders() {
        let le3 = Ub::new(3.0, false);
        let lt3 = Ub::new(3.0, true);
        let le4 = Ub::new(4.0, false);
        assert!(lt3.implies(le3) && le3.implies(le4) && !le4.implies(le3));
        assert!(le3.implies(Ub::NONE));
        let ge3 = Lb::new(3.0, false);
        let gt3 = Lb::new(3.0, true);
        assert!(gt3.implies(ge3) && !ge3.implies(gt3) && ge3.implies(Lb::NONE));
        assert!(bounds_empty(gt3, le3));
        assert!(!bounds_empty(ge3, le3));
        assert!(bounds_empty(Lb::new(4.0, false), le3));
        assert!(!bounds_empty(Lb::NONE, Ub::NONE));
        assert_eq!(Ub::new(-0.0, false).v.to_bits(), 0);
    }

    #[test]
    fn atoms_from_rationals() {
        let x = Var(0);
        // exact double
        let a = BoundAtom::from_rational(x, &q(1, 2), false, false);
        assert_eq!(a.if_true, Ub::new(0.5, false));
        assert_eq!(a.if_false, Lb::new(0.5, true));
        assert!(a.exact.is_none());
        // integer rounding: x < 2.5 -> x <= 2, negation x >= 3
        let b = BoundAtom::from_rational(x, &q(5, 2), true, true);
        assert_eq!(b.if_true, Ub::new(2.0, false));
        assert_eq!(b.if_false, Lb::new(3.0, false));
        let c = BoundAtom::from_rational(x, &q(3, 1), true, true);
        assert_eq!(c.if_true, Ub::new(2.0, false));
        // not a double: over-approximation in both polarities
        let t = BoundAtom::from_rational(x, &q(1, 3), false, false);
        let down = t.if_false.v;
        let up = t.if_true.v;
        assert!(t.if_true.strict && t.if_false.strict);
        assert_eq!(down.next_up(), up);
        assert!(Rational::from_float(down).unwrap() < q(1, 3));
        assert!(Rational::from_float(up).unwrap() > q(1, 3));
        assert_eq!(t.implied_true_at, Ub::new(down, false));
        assert_eq!(t.implied_false_at, Lb::new(up, false));
        assert!(t.holds_at(&q(1, 3)) && !t.holds_at(&(q(1, 3) + q(1, 1_000_000))));
        let s = BoundAtom::from_rational(x, &q(1, 3), true, false);
        assert!(!s.holds_at(&q(1, 3)));
    }

    #[test]
    fn implication_ranges() {
        let x = Var(0);
        let mut t = BoundTable::default();
        let atoms: Vec<BoundAtom> = [1.0, 2.0, 3.0, 5.0]
            .iter()
            .map(|&v| BoundAtom::real(x, v, false))
            .collect();
        for (i, a) in atoms.iter().enumerate() {
            t.insert(AtomId(i as u32), a);
        }
        let lt3 = BoundAtom::real(x, 3.0, true);
        t.insert(AtomId(9), &lt3);
        // ub from +inf to <= 3: x<=3, x<=5 become true (not x<3)
        let r = t.newly_true(Ub::new(3.0, false), Ub::NONE);
        let got: Vec<u32> = r.map(|i| t.ub_atom(i).0).collect();
        assert_eq!(got, vec![2, 3]);
        // then to < 3: x < 3 becomes true too
        let r = t.newly_true(Ub::new(3.0, true), Ub::new(3.0, false));
        let got: Vec<u32> = r.map(|i| t.ub_atom(i).0).collect();
        assert_eq!(got, vec![9]);
        // then to <= 1.5: x<=2 (and x<3 already done) -> only atom 1
        let r = t.newly_true(Ub::new(2.0, false), Ub::new(3.0, true));
        let got: Vec<u32> = r.map(|i| t.ub_atom(i).0).collect();
        assert_eq!(got, vec![1]);
        // lb from -inf to > 2: x<=1, x<=2 false
        let r = t.newly_false(Lb::new(2.0, true), Lb::NONE);
        let got: Vec<u32> = r.map(|i| t.lb_atom(i).0).collect();
        assert_eq!(got, vec![0, 1]);
        // to >= 3: x < 3 false (its negation is x >= 3), x <= 3 not yet
        let r = t.newly_false(Lb::new(3.0, false), Lb::new(2.0, true));
        let got: Vec<u32> = r.map(|i| t.lb_atom(i).0).collect();
        assert_eq!(got, vec![9]);
        let r = t.newly_false(Lb::new(3.0, true), Lb::new(3.0, false));
        let got: Vec<u32> = r.map(|i| t.lb_atom(i).0).collect();
        assert_eq!(got, vec![2]);
        // nothing when the bound does not move
        assert!(t.newly_true(Ub::NONE, Ub::NONE).is_empty());
        // undecided atoms inside (2, 5): x<3, x<=3
        let und: Vec<u32> = t
            .undecided(Lb::new(2.0, true), Ub::new(5.0, false))
            .map(|a| a.0)
            .collect();
        assert!(und.contains(&2) && und.contains(&9) && und.len() == 3);
    }
}
