//! The transcendental operations `sin cos tan exp exp2 exp10 log log2 log10`: the selector
//! shared by their two contractor families ([`super::exp_log`], [`super::trig`]) and their
//! correctly rounded point enclosures.
//!
//! The idea: MPFR rounds every one of these functions *correctly* in a chosen direction, so
//! evaluating `f(x)` for a double `x` at 53 bits with `Round::Down` gives `RD(f(x))`, the
//! largest double `<= f(x)`, and its ternary value says whether it was exact; the next
//! value up is then `RU(f(x))`. Those two doubles are the tightest enclosure of `f(x)`, one
//! ulp wide, and they are *equal* exactly when `f(x)` is a double (`exp(0) = 1`,
//! `log2(8) = 3`, `sin(0) = 0`, ...), which is how contractors decide whether an end may be
//! closed. Results beyond the double range come out as `MAX`/`inf` and `0`/`MIN_SUB`
//! (`mpfr_get_d` with a directed mode), still enclosing.
//!
//! Contractor functions take the selector through [`fwd_transcendental`] and
//! [`bwd_transcendental_a`] when a caller holds an [`Op`] rather than a specific function;
//! [`super::check_transcendental`] is the slow, high-precision checker.

use super::{exp_log, trig};
use crate::formula::Op;
use crate::interval::Interval;
use rug::float::Round;
use rug::Float;
use std::cmp::Ordering;

/// One of the nine transcendental operations of [`Op`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Transcendental {
    Sin,
    Cos,
    /// unspecified at the poles `π/2 + kπ`
    Tan,
    Exp,
    Exp2,
    Exp10,
    /// natural logarithm; unspecified for `x <= 0`
    Log,
    Log2,
    Log10,
}

impl Transcendental {
    /// All nine, in [`Op`] order.
    pub const ALL: [Transcendental; 9] = [
        Transcendental::Sin,
        Transcendental::Cos,
        Transcendental::Tan,
        Transcendental::Exp,
        Transcendental::Exp2,
        Transcendental::Exp10,
        Transcendental::Log,
        Transcendental::Log2,
        Transcendental::Log10,
    ];

    /// The selector for a transcendental [`Op`], `None` for any other operation.
    pub fn from_op(op: &Op) -> Option<Transcendental> {
        Some(match op {
            Op::Sin => Transcendental::Sin,
            Op::Cos => Transcendental::Cos,
            Op::Tan => Transcendental::Tan,
            Op::Exp => Transcendental::Exp,
            Op::Exp2 => Transcendental::Exp2,
            Op::Exp10 => Transcendental::Exp10,
            Op::Log => Transcendental::Log,
            Op::Log2 => Transcendental::Log2,
            Op::Log10 => Transcendental::Log10,
            _ => return None,
        })
    }

    /// The corresponding [`Op`].
    pub fn op(self) -> Op {
        match self {
            Transcendental::Sin => Op::Sin,
            Transcendental::Cos => Op::Cos,
            Transcendental::Tan => Op::Tan,
            Transcendental::Exp => Op::Exp,
            Transcendental::Exp2 => Op::Exp2,
            Transcendental::Exp10 => Op::Exp10,
            Transcendental::Log => Op::Log,
            Transcendental::Log2 => Op::Log2,
            Transcendental::Log10 => Op::Log10,
        }
    }

    /// `log`, `log2` or `log10` (unspecified for arguments `<= 0`).
    pub fn is_log(self) -> bool {
        matches!(
            self,
            Transcendental::Log | Transcendental::Log2 | Transcendental::Log10
        )
    }
}

/// `f(v)` in place, rounded in direction `r`, with MPFR's ternary value.
fn apply(f: Transcendental, v: &mut Float, r: Round) -> Ordering {
    match f {
        Transcendental::Sin => v.sin_round(r),
        Transcendental::Cos => v.cos_round(r),
        Transcendental::Tan => v.tan_round(r),
        Transcendental::Exp => v.exp_round(r),
        Transcendental::Exp2 => v.exp2_round(r),
        Transcendental::Exp10 => v.exp10_round(r),
        Transcendental::Log => v.ln_round(r),
        Transcendental::Log2 => v.log2_round(r),
        Transcendental::Log10 => v.log10_round(r),
    }
}

/// `(RD(f(x)), RU(f(x)))`: the largest double `<= f(x)` and the smallest `>= f(x)`, equal iff
/// `f(x)` is a double. `None` where there is no value to enclose: `x` not finite, or a
/// logarithm of `x <= 0` (unspecified). Beyond the double range the pair is `(MAX, inf)` or
/// `(0, 2^-1074)` (and mirrored), which still encloses.
pub fn point_enclosure(f: Transcendental, x: f64) -> Option<PointEnclosure> {
    if !x.is_finite() || (f.is_log() && x <= 0.0) {
        return None;
    }
    // 53 bits hold x exactly; MPFR's exponent range is far wider than a double's, so the
    // result at 53 bits is RD(f(x)) in the 53-bit format with unbounded exponent. Rounding
    // that down again to a double (subnormal, or MAX on overflow) is still RD(f(x)): the
    // doubles are a subset of the 53-bit floats, and directed roundings compose.
    let mut v = Float::with_val(53, x);
    let ternary = apply(f, &mut v, Round::Down);
    if v.is_nan() {
        return None;
    }
    let lo = v.to_f64_round(Round::Down);
    if ternary != Ordering::Equal {
        // inexact: the exact value lies strictly between v and its 53-bit successor
        v.next_up();
    }
    let hi = v.to_f64_round(Round::Up);
    // never -0.0 ends (the interval type normalizes, but keep the pair canonical too)
    Some((lo + 0.0, hi + 0.0))
}

/// `(RD, RU)` of a value, as returned by [`point_enclosure`].
pub type PointEnclosure = (f64, f64);

/// The point enclosures at both ends of a nonempty box, evaluated once for a point box.
pub(crate) fn end_enclosures(
    f: Transcendental,
    a: Interval,
) -> (Option<PointEnclosure>, Option<PointEnclosure>) {
    let lo = point_enclosure(f, a.lo());
    let hi = if a.is_point() {
        lo
    } else {
        point_enclosure(f, a.hi())
    };
    (lo, hi)
}

/// A lower interval end from a point enclosure: the rounded-down value, closed only when it
/// is exact (`lo == hi`) and the argument end producing it is attained.
#[inline]
pub(crate) fn lower_end((lo, hi): PointEnclosure, attained: bool) -> (f64, bool) {
    (lo, !(lo == hi && attained))
}

/// An upper interval end from a point enclosure (mirror of [`lower_end`]).
#[inline]
pub(crate) fn upper_end((lo, hi): PointEnclosure, attained: bool) -> (f64, bool) {
    (hi, !(lo == hi && attained))
}

/// The enclosure of `f(x)` for a double as an interval: a point when exact, else the open
/// one-ulp interval `(RD, RU)`; `None` as for [`point_enclosure`].
pub fn point_interval(f: Transcendental, x: f64) -> Option<Interval> {
    let e = point_enclosure(f, x)?;
    let (lo, lo_open) = lower_end(e, true);
    let (hi, hi_open) = upper_end(e, true);
    Some(Interval::new(lo, lo_open, hi, hi_open))
}

/// Encloses `{f(a)}` (all reals where `f` is unspecified somewhere in `a`).
pub fn fwd_transcendental(f: Transcendental, a: Interval) -> Interval {
    match f {
        Transcendental::Sin => trig::fwd_sin(a),
        Transcendental::Cos => trig::fwd_cos(a),
        Transcendental::Tan => trig::fwd_tan(a),
        Transcendental::Exp => exp_log::fwd_exp(a),
        Transcendental::Exp2 => exp_log::fwd_exp2(a),
        Transcendental::Exp10 => exp_log::fwd_exp10(a),
        Transcendental::Log => exp_log::fwd_log(a),
        Transcendental::Log2 => exp_log::fwd_log2(a),
        Transcendental::Log10 => exp_log::fwd_log10(a),
    }
}

/// The new box of `a` in `out = f(a)`.
pub fn bwd_transcendental_a(f: Transcendental, out: Interval, a: Interval) -> Interval {
    match f {
        Transcendental::Sin => trig::bwd_sin_a(out, a),
        Transcendental::Cos => trig::bwd_cos_a(out, a),
        Transcendental::Tan => trig::bwd_tan_a(out, a),
        Transcendental::Exp => exp_log::bwd_exp_a(out, a),
        Transcendental::Exp2 => exp_log::bwd_exp2_a(out, a),
        Transcendental::Exp10 => exp_log::bwd_exp10_a(out, a),
        Transcendental::Log => exp_log::bwd_log_a(out, a),
        Transcendental::Log2 => exp_log::bwd_log2_a(out, a),
        Transcendental::Log10 => exp_log::bwd_log10_a(out, a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Transcendental::*;

    #[test]
    fn exact_values_are_points() {
        let cases = [
            (Exp, 0.0, 1.0),
            (Exp2, 3.0, 8.0),
            (Exp2, -1074.0, f64::from_bits(1)),
            (Exp10, 2.0, 100.0),
            (Exp10, 22.0, 1e22),
            (Log, 1.0, 0.0),
            (Log2, 0.125, -3.0),
            (Log10, 1000.0, 3.0),
            (Sin, 0.0, 0.0),
            (Cos, 0.0, 1.0),
            (Tan, 0.0, 0.0),
        ];
        for (f, x, v) in cases {
            assert_eq!(point_enclosure(f, x), Some((v, v)), "{f:?}({x})");
            assert_eq!(point_interval(f, x), Some(Interval::point(v)));
        }
    }

    #[test]
    fn inexact_values_are_one_ulp() {
        let (lo, hi) = point_enclosure(Exp, 1.0).unwrap();
        assert_eq!(lo, std::f64::consts::E);
        assert_eq!(hi, lo.next_up());
        let (lo, hi) = point_enclosure(Sin, 1e300).unwrap();
        assert!(lo < hi && lo.next_up() == hi && lo.abs() <= 1.0);
        // 10^23 is not a double
        let (lo, hi) = point_enclosure(Exp10, 23.0).unwrap();
        assert!(lo < 1e23 + 1e7 && lo.next_up() == hi);
        assert!(point_interval(Log, 2.0).unwrap().lo_open());
    }

    #[test]
    fn out_of_range_and_unspecified() {
        assert_eq!(
            point_enclosure(Exp, 1000.0),
            Some((f64::MAX, f64::INFINITY))
        );
        assert_eq!(point_enclosure(Exp, 1e300), Some((f64::MAX, f64::INFINITY)));
        assert_eq!(
            point_enclosure(Exp, -1000.0),
            Some((0.0, f64::from_bits(1)))
        );
        assert_eq!(point_enclosure(Exp, -1e300), Some((0.0, f64::from_bits(1))));
        assert_eq!(
            point_enclosure(Exp2, -1075.0),
            Some((0.0, f64::from_bits(1)))
        );
        assert_eq!(point_enclosure(Log, 0.0), None);
        assert_eq!(point_enclosure(Log10, -1.0), None);
        assert_eq!(point_enclosure(Sin, f64::INFINITY), None);
        assert_eq!(point_enclosure(Exp, f64::NAN), None);
        let (lo, hi) = point_enclosure(Log, f64::from_bits(1)).unwrap();
        assert!(lo < -744.0 && lo.next_up() == hi);
    }

    #[test]
    fn ops_round_trip() {
        for f in Transcendental::ALL {
            assert_eq!(Transcendental::from_op(&f.op()), Some(f));
        }
        assert_eq!(Transcendental::from_op(&Op::Mul), None);
    }
}
