//! The independent slow checker: the relations of the contractor families evaluated exactly
//! on rational points.
//!
//! The idea: contractors are trusted only because they agree with this module, which shares
//! no code with them — no intervals, no floating point, only `Rational` arithmetic and
//! exact comparisons. Tests use it on random points, and a `check-deductions` mode can use it
//! to validate points behind a deduction. Roots are decided without computing them: `v` is
//! the `n`-th root of `a` iff `v^n = a` (and `v >= 0` for even `n`), and `v` lies below the
//! root iff `v^n < a` (odd `n`, or `v >= 0` for even `n`), because `v ↦ v^n` is strictly
//! increasing there.

use crate::formula::Op;
use crate::interval::Interval;
use crate::num::Rational;
use num_traits::{Signed, Zero};
use std::cmp::Ordering;

/// The largest exact power [`pow`] computes, in bits of numerator and denominator together
/// (a few milliseconds of work; `x^1000000000` would take hours and gigabytes).
pub const MAX_POW_BITS: u64 = 1 << 20;

/// `a^n` exactly (`a^0 = 1`, also for `a = 0`); `None` when the result would have more than
/// [`MAX_POW_BITS`] bits (it is then neither computed nor needed: a caller treats the value as
/// unknown).
pub fn pow(a: &Rational, n: u32) -> Option<Rational> {
    use num_traits::One;
    if n == 0 || a.is_zero() || a.is_one() {
        return Some(if n == 0 { Rational::one() } else { a.clone() });
    }
    if *a == -Rational::one() {
        return Some(if n.is_multiple_of(2) {
            Rational::one()
        } else {
            a.clone()
        });
    }
    let bits = a.numer().bits() + a.denom().bits();
    if bits.saturating_mul(u64::from(n)) > MAX_POW_BITS {
        return None;
    }
    Some(num_traits::pow(a.clone(), n as usize))
}

/// `Σ coeffs[i]·xs[i] + k`; `None` on an arity mismatch.
pub fn eval_linear(coeffs: &[Rational], k: &Rational, xs: &[Rational]) -> Option<Rational> {
    if coeffs.len() != xs.len() {
        return None;
    }
    Some(
        coeffs
            .iter()
            .zip(xs)
            .fold(k.clone(), |acc, (c, x)| acc + c * x),
    )
}

/// The value of a *deterministic* operation of these families at a point: `Linear`, `Mul`,
/// `Pow`, `Abs`, `Min`, `Max`, and `Div` with a nonzero divisor. `None` when the value is
/// unspecified or not rational in general (`Div` by 0, `Nrt`), for other operations, and on
/// an arity mismatch.
pub fn eval(op: &Op, args: &[Rational]) -> Option<Rational> {
    match (op, args) {
        (Op::Linear { coeffs, constant }, xs) => eval_linear(coeffs, constant, xs),
        (Op::Mul, [a, b]) => Some(a * b),
        (Op::Pow(n), [a]) => pow(a, *n),
        (Op::Div, [a, b]) if !b.is_zero() => Some(a / b),
        (Op::Abs, [a]) => Some(a.abs()),
        (Op::Min, [a, b]) => Some(a.min(b).clone()),
        (Op::Max, [a, b]) => Some(a.max(b).clone()),
        _ => None,
    }
}

/// The root is unspecified: `n = 0`, or even `n` and `a < 0`.
fn nrt_unspecified(a: &Rational, n: u32) -> bool {
    n == 0 || (n & 1 == 0 && a.is_negative())
}

/// Compares `v` with the real `n`-th root of `a`; `None` when the root is unspecified (`n = 0`,
/// or even `n` and `a < 0`) or `v^n` is too large to compute ([`pow`]).
pub fn cmp_nrt(v: &Rational, a: &Rational, n: u32) -> Option<Ordering> {
    if nrt_unspecified(a, n) {
        return None;
    }
    if n & 1 == 0 && v.is_negative() {
        return Some(Ordering::Less);
    }
    Some(pow(v, n)?.cmp(a))
}

/// Whether the `n`-th root of `a` lies in `iv` (decided exactly, also for irrational roots);
/// `None` when the root is unspecified.
pub fn nrt_in(iv: Interval, a: &Rational, n: u32) -> Option<bool> {
    cmp_nrt(&Rational::zero(), a, n)?;
    if iv.is_empty() {
        return Some(false);
    }
    let end = |x: f64| Rational::from_float(x).unwrap_or_default();
    let lo_ok = !iv.lo().is_finite()
        || match cmp_nrt(&end(iv.lo()), a, n)? {
            Ordering::Less => true,
            Ordering::Equal => !iv.lo_open(),
            Ordering::Greater => false,
        };
    let hi_ok = !iv.hi().is_finite()
        || match cmp_nrt(&end(iv.hi()), a, n)? {
            Ordering::Greater => true,
            Ordering::Equal => !iv.hi_open(),
            Ordering::Less => false,
        };
    Some(lo_ok && hi_ok)
}

/// Whether `out = op(args)` holds exactly, with the total semantics of [`Op`]: unspecified
/// results (division by 0, even roots of negatives, `nrt(_, 0)`) hold for every `out`.
/// `None` for operations outside these families and on an arity mismatch.
pub fn holds(op: &Op, args: &[Rational], out: &Rational) -> Option<bool> {
    match (op, args) {
        (Op::Div, [_, b]) if b.is_zero() => Some(true),
        (Op::Nrt(n), [a]) if nrt_unspecified(a, *n) => Some(true),
        // `None` when `out^n` is too large to compute: undecided, not "holds"
        (Op::Nrt(n), [a]) => cmp_nrt(out, a, *n).map(|o| o == Ordering::Equal),
        _ => eval(op, args).map(|v| v == *out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn q(n: i64) -> Rational {
        Rational::from_integer(BigInt::from(n))
    }

    #[test]
    fn huge_powers_are_not_computed() {
        assert_eq!(pow(&q(2), 1_000_000_000), None);
        assert_eq!(pow(&q(1), u32::MAX), Some(q(1)));
        assert_eq!(pow(&q(-1), 1_000_000_001), Some(q(-1)));
        assert_eq!(pow(&q(0), u32::MAX), Some(q(0)));
        assert_eq!(pow(&q(3), 4), Some(q(81)));
        assert_eq!(holds(&Op::Pow(1_000_000_000), &[q(2)], &q(7)), None);
        assert_eq!(holds(&Op::Nrt(1_000_000_000), &[q(7)], &q(2)), None);
        assert_eq!(holds(&Op::Nrt(2), &[q(-7)], &q(2)), Some(true));
    }

    #[test]
    fn exact_relations() {
        assert_eq!(holds(&Op::Mul, &[q(2), q(3)], &q(6)), Some(true));
        assert_eq!(holds(&Op::Div, &[q(2), q(0)], &q(17)), Some(true));
        assert_eq!(holds(&Op::Div, &[q(6), q(3)], &q(2)), Some(true));
        assert_eq!(holds(&Op::Nrt(3), &[q(-8)], &q(-2)), Some(true));
        assert_eq!(holds(&Op::Nrt(2), &[q(4)], &q(-2)), Some(false));
        assert_eq!(holds(&Op::Nrt(2), &[q(-4)], &q(5)), Some(true));
        assert_eq!(holds(&Op::Pow(0), &[q(0)], &q(1)), Some(true));
        assert_eq!(holds(&Op::Min, &[q(0), q(-1)], &q(-1)), Some(true));
        assert_eq!(holds(&Op::Sin, &[q(0)], &q(0)), None);
        let lin = Op::Linear {
            coeffs: vec![q(2), q(-1)],
            constant: q(1),
        };
        assert_eq!(holds(&lin, &[q(3), q(4)], &q(3)), Some(true));
        assert_eq!(holds(&lin, &[q(3)], &q(3)), None);
        // sqrt(2) ∈ [1.41, 1.42], ∉ [1.5, 2]
        assert_eq!(nrt_in(Interval::closed(1.41, 1.42), &q(2), 2), Some(true));
        assert_eq!(nrt_in(Interval::closed(1.5, 2.0), &q(2), 2), Some(false));
        assert_eq!(nrt_in(Interval::open(2.0, 3.0), &q(8), 3), Some(false));
        assert_eq!(nrt_in(Interval::closed(-2.0, 3.0), &q(-8), 3), Some(true));
        assert_eq!(nrt_in(Interval::EMPTY, &q(-8), 2), None);
    }
}
