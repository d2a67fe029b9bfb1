//! The independent slow checker for the transcendental operations, on *rational* points.
//!
//! The idea: decide `f(x) ∈ out` without the contractors' code. Two tools, both exact in
//! what they claim:
//! - **Number theory** says when `f(x)` is rational at all. For rational `x`: `exp(x)`,
//!   `sin(x)`, `cos(x)`, `tan(x)` are transcendental unless `x = 0` (Lindemann–Weierstrass),
//!   so is `log(x)` unless `x = 1`; `2^x`, `10^x` are rational iff `x` is an integer, and
//!   `log2(x)`, `log10(x)` iff `x` is an integral power of the base (unique factorization:
//!   `r^q = b^p` with `gcd(p, q) = 1` forces `q = 1` for `b = 2, 10`). [`exact_value`] returns
//!   those rational values; [`holds`] decides `out = f(x)` exactly for rational `out` from it.
//! - **Interval evaluation at high precision** encloses an irrational value: `x` is rounded
//!   outward into MPFR floats (≥ 200 bits, more for large `|x|`), and the value is built from
//!   `exp`, `ln`, `sin`, `cos` and the constants `ln 2`, `ln 10` with every operation rounded
//!   outward — `2^x = exp(x·ln 2)`, `log10 x = ln x / ln 10`, `tan = sin / cos`, and `sin`,
//!   `cos` over the tiny argument interval by their Lipschitz bound 1 — deliberately *not*
//!   MPFR's `exp2`, `log10`, `tan` that the contractors use. [`definitely_in`] raises the
//!   precision a few times until the enclosure lies inside or outside the target interval.
//!
//! Unspecified values (`log` of `x <= 0`) satisfy every output, so they are "in" any
//! nonempty interval; a caller relating two definitions with the same argument must keep
//! their values consistent itself.

use super::transcendental::Transcendental;
use crate::interval::Interval;
use crate::num::Rational;
use num_bigint::{BigInt, Sign};
use num_traits::{One, Signed, ToPrimitive, Zero};
use rug::float::{Constant, Round};
use rug::{Float, Integer};

/// The largest exponent for which [`exact_value`] builds `2^k`, `10^k` as rationals.
const MAX_EXACT_EXP: u64 = 1 << 16;

/// The precision (bits after the binary point of the argument) [`definitely_in`] starts at,
/// and how many doublings it tries before giving up.
pub const START_PREC: u32 = 200;
const PREC_DOUBLINGS: u32 = 4;

/// What is known about `f(x)` at a rational point.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `f` is unspecified at `x` (any real).
    Unspecified,
    /// `f(x)` is this rational.
    Exact(Rational),
    /// `lo <= f(x) <= hi`, and `f(x)` is not a double: irrational, or `2^x`, `10^x` at an
    /// integer too large for [`Value::Exact`] (`|x| > 2^16`, far outside the double range).
    Between(Float, Float),
}

fn bigint_to_rug(b: &BigInt) -> Integer {
    let (sign, digits) = b.to_u32_digits();
    let i = Integer::from_digits(&digits, rug::integer::Order::Lsf);
    if sign == Sign::Minus {
        -i
    } else {
        i
    }
}

fn rational_to_rug(q: &Rational) -> rug::Rational {
    rug::Rational::from((bigint_to_rug(q.numer()), bigint_to_rug(q.denom())))
}

/// `k` if `q = base^k` for an integer `k` (`base` 2 or 10), else `None`.
fn log_exact(q: &Rational, base: u32) -> Option<i64> {
    if !q.is_positive() {
        return None;
    }
    let (n, d) = (q.numer(), q.denom());
    // q = base^k: k >= 0 with d = 1, or k < 0 with n = 1
    let (m, sign) = if d.is_one() {
        (n, 1)
    } else if n.is_one() {
        (d, -1)
    } else {
        return None;
    };
    // base^k has exactly k factors of 2 (base 2 or 10)
    let k = m.trailing_zeros().unwrap_or(0);
    if base == 2 {
        return (m.bits() == k + 1).then_some(sign * k as i64);
    }
    // 10^k has floor(k·log2 10) + 1 bits: reject cheaply before building 10^k (which then
    // costs no more than m's own size)
    let expect = (k as f64 * std::f64::consts::LOG2_10) as u64 + 1;
    if m.bits().abs_diff(expect) > 1 {
        return None;
    }
    (*m == BigInt::from(10u32).pow(u32::try_from(k).ok()?)).then_some(sign * k as i64)
}

/// `base^k` as a rational.
fn power(base: u32, k: i64) -> Rational {
    let p = BigInt::from(base).pow(k.unsigned_abs() as u32);
    if k >= 0 {
        Rational::from_integer(p)
    } else {
        Rational::new(BigInt::one(), p)
    }
}

/// `f(x)` when it is rational, `None` when it is irrational, unspecified, or an integral
/// power too large to build (`|x| > 2^16` for `2^x`, `10^x`).
pub fn exact_value(f: Transcendental, x: &Rational) -> Option<Rational> {
    use Transcendental::*;
    let zero = x.is_zero();
    match f {
        Exp | Sin | Cos | Tan if zero => Some(Rational::from_integer(BigInt::from(
            (f == Exp || f == Cos) as i32,
        ))),
        Log if x.is_one() => Some(Rational::zero()),
        Exp2 | Exp10 if x.is_integer() => {
            let k = x.to_integer().to_i64()?;
            if k.unsigned_abs() > MAX_EXACT_EXP {
                return None;
            }
            Some(power(if f == Exp2 { 2 } else { 10 }, k))
        }
        Log2 => log_exact(x, 2).map(|k| Rational::from_integer(BigInt::from(k))),
        Log10 => log_exact(x, 10).map(|k| Rational::from_integer(BigInt::from(k))),
        _ => None,
    }
}

/// Whether `out = f(x)` holds exactly: always for unspecified points; for the others only
/// when `f(x)` is rational and equal to `out` (an irrational value is never a rational
/// `out`).
pub fn holds(f: Transcendental, x: &Rational, out: &Rational) -> bool {
    if f.is_log() && !x.is_positive() {
        return true;
    }
    if matches!(f, Transcendental::Exp2 | Transcendental::Exp10) && x.is_integer() {
        // out = base^x, decided from out's form (2^x itself may be too large to build)
        let base = if f == Transcendental::Exp2 { 2 } else { 10 };
        return log_exact(out, base).is_some_and(|k| BigInt::from(k) == x.to_integer());
    }
    exact_value(f, x).is_some_and(|v| v == *out)
}

/// An enclosure `[lo, hi]` of a real in MPFR floats, rounded outward by every operation.
#[derive(Clone, Debug)]
struct Iv {
    lo: Float,
    hi: Float,
}

impl Iv {
    fn point_of(prec: u32, x: &rug::Rational) -> Iv {
        Iv {
            lo: Float::with_val_round(prec, x, Round::Down).0,
            hi: Float::with_val_round(prec, x, Round::Up).0,
        }
    }

    fn constant_ln(prec: u32, n: u32) -> Iv {
        if n == 2 {
            return Iv {
                lo: Float::with_val_round(prec, Constant::Log2, Round::Down).0,
                hi: Float::with_val_round(prec, Constant::Log2, Round::Up).0,
            };
        }
        Iv::point_of(prec, &rug::Rational::from(n)).ln_monotone(prec)
    }

    fn prec(&self) -> u32 {
        self.lo.prec()
    }

    /// `g` applied to both bounds for an increasing `g`.
    fn monotone(&self, prec: u32, g: impl Fn(&mut Float, Round)) -> Iv {
        let mut lo = Float::with_val(prec, &self.lo);
        let mut hi = Float::with_val(prec, &self.hi);
        g(&mut lo, Round::Down);
        g(&mut hi, Round::Up);
        Iv { lo, hi }
    }

    fn exp_monotone(&self, prec: u32) -> Iv {
        self.monotone(prec, |v, r| {
            v.exp_round(r);
        })
    }

    fn ln_monotone(&self, prec: u32) -> Iv {
        self.monotone(prec, |v, r| {
            v.ln_round(r);
        })
    }

    /// The smallest and largest of the four products (or quotients) of the bounds.
    fn four(&self, o: &Iv, prec: u32, div: bool) -> Iv {
        let op = |a: &Float, b: &Float, r: Round| {
            if div {
                Float::with_val_round(prec, a / b, r).0
            } else {
                Float::with_val_round(prec, a * b, r).0
            }
        };
        let pairs = [
            (&self.lo, &o.lo),
            (&self.lo, &o.hi),
            (&self.hi, &o.lo),
            (&self.hi, &o.hi),
        ];
        let lo = pairs
            .iter()
            .map(|(a, b)| op(a, b, Round::Down))
            .reduce(|a, b| if b < a { b } else { a })
            .expect("four pairs");
        let hi = pairs
            .iter()
            .map(|(a, b)| op(a, b, Round::Up))
            .reduce(|a, b| if b > a { b } else { a })
            .expect("four pairs");
        Iv { lo, hi }
    }

    fn contains_zero(&self) -> bool {
        self.lo <= 0 && self.hi >= 0
    }

    /// `sin` or `cos` over the interval: the value at the lower bound, widened by the width
    /// (both have Lipschitz constant 1), clipped to `[-1, 1]`.
    fn sin_cos(&self, prec: u32, cos: bool) -> Iv {
        let w = Float::with_val_round(prec, &self.hi - &self.lo, Round::Up).0;
        let at = |r: Round| {
            let mut v = Float::with_val(prec, &self.lo);
            if cos {
                v.cos_round(r);
            } else {
                v.sin_round(r);
            }
            v
        };
        let mut lo = Float::with_val_round(prec, &at(Round::Down) - &w, Round::Down).0;
        let mut hi = Float::with_val_round(prec, &at(Round::Up) + &w, Round::Up).0;
        if lo < -1 {
            lo = Float::with_val(prec, -1);
        }
        if hi > 1 {
            hi = Float::with_val(prec, 1);
        }
        Iv { lo, hi }
    }

    fn is_ordered(&self) -> bool {
        !self.lo.is_nan() && !self.hi.is_nan() && self.lo <= self.hi
    }
}

/// A rough `log2 |x|` for choosing the precision (large arguments need more bits for
/// `sin`/`cos`, whose argument interval must stay much narrower than 1).
fn magnitude_bits(x: &Rational) -> u32 {
    let b = x.numer().bits() as i64 - x.denom().bits() as i64;
    b.clamp(0, 1 << 24) as u32
}

/// An enclosure of `f(x)` computed with `prec` bits *after the binary point of `x`* (the
/// working precision adds `log2 |x|`, so that `sin(1e300)` is as tight as `sin(1)`); see the
/// module docs. `Exact` where `f(x)` is rational, `Unspecified` for logarithms of `x <= 0`.
/// `None` when `x` exceeds MPFR's exponent range or `cos` cannot be separated from 0 at
/// this precision (`tan` next to a pole).
pub fn enclose(f: Transcendental, x: &Rational, prec: u32) -> Option<Value> {
    use Transcendental::*;
    if f.is_log() && !x.is_positive() {
        return Some(Value::Unspecified);
    }
    if let Some(v) = exact_value(f, x) {
        return Some(Value::Exact(v));
    }
    let prec = prec.max(64).saturating_add(magnitude_bits(x));
    let xi = Iv::point_of(prec, &rational_to_rug(x));
    if !xi.lo.is_finite() || !xi.hi.is_finite() {
        return None;
    }
    let r = match f {
        Exp => xi.exp_monotone(prec),
        Exp2 => xi
            .four(&Iv::constant_ln(prec, 2), prec, false)
            .exp_monotone(prec),
        Exp10 => xi
            .four(&Iv::constant_ln(prec, 10), prec, false)
            .exp_monotone(prec),
        Log | Log2 | Log10 => {
            if xi.lo <= 0 {
                return None;
            }
            let l = xi.ln_monotone(prec);
            match f {
                Log => l,
                Log2 => l.four(&Iv::constant_ln(prec, 2), prec, true),
                _ => l.four(&Iv::constant_ln(prec, 10), prec, true),
            }
        }
        Sin => xi.sin_cos(prec, false),
        Cos => xi.sin_cos(prec, true),
        Tan => {
            let c = xi.sin_cos(prec, true);
            if c.contains_zero() {
                return None;
            }
            xi.sin_cos(prec, false).four(&c, prec, true)
        }
    };
    debug_assert!(r.prec() >= 64);
    r.is_ordered().then_some(Value::Between(r.lo, r.hi))
}

/// Whether `f(x) ∈ out`: `Some(true)` when proven inside, `Some(false)` when proven outside,
/// `None` when the precision budget (200 bits and up, doubled four times) did not decide.
/// Unspecified points are inside every nonempty `out`.
pub fn definitely_in(f: Transcendental, x: &Rational, out: Interval) -> Option<bool> {
    if out.is_empty() {
        return Some(false);
    }
    let mut prec = START_PREC;
    for _ in 0..=PREC_DOUBLINGS {
        match enclose(f, x, prec) {
            Some(Value::Unspecified) => return Some(true),
            Some(Value::Exact(v)) => return Some(out.contains_rational(&v)),
            Some(Value::Between(lo, hi)) => {
                if let Some(d) = decide(&lo, &hi, out) {
                    return Some(d);
                }
            }
            None => {}
        }
        prec = prec.saturating_mul(2);
    }
    None
}

/// `[lo, hi] ⊆ out` → true, disjoint → false, else undecided, for a value that is not a
/// double: it differs from both ends of `out`, so a bound equal to an end decides either way
/// whatever the end's kind (`exp(-10^400) ∈ (0, 1)` from the enclosure `[0, 2^-2^30]`).
fn decide(lo: &Float, hi: &Float, out: Interval) -> Option<bool> {
    let lo_inside = out.lo() == f64::NEG_INFINITY || *lo >= out.lo();
    let hi_inside = out.hi() == f64::INFINITY || *hi <= out.hi();
    if lo_inside && hi_inside {
        return Some(true);
    }
    let below = out.lo() != f64::NEG_INFINITY && *hi <= out.lo();
    let above = out.hi() != f64::INFINITY && *lo >= out.hi();
    if below || above {
        return Some(false);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use Transcendental::*;

    fn q(n: i64, d: i64) -> Rational {
        Rational::new(BigInt::from(n), BigInt::from(d))
    }

    fn c(lo: f64, hi: f64) -> Interval {
        Interval::closed(lo, hi)
    }

    #[test]
    fn rational_values_are_exact() {
        assert_eq!(exact_value(Exp, &q(0, 1)), Some(q(1, 1)));
        assert_eq!(exact_value(Cos, &q(0, 1)), Some(q(1, 1)));
        assert_eq!(exact_value(Sin, &q(0, 1)), Some(q(0, 1)));
        assert_eq!(exact_value(Log, &q(1, 1)), Some(q(0, 1)));
        assert_eq!(exact_value(Exp2, &q(-3, 1)), Some(q(1, 8)));
        assert_eq!(exact_value(Exp10, &q(2, 1)), Some(q(100, 1)));
        assert_eq!(exact_value(Log2, &q(1, 1024)), Some(q(-10, 1)));
        assert_eq!(exact_value(Log10, &q(1, 1000)), Some(q(-3, 1)));
        assert_eq!(exact_value(Log10, &q(1, 1)), Some(q(0, 1)));
        assert_eq!(exact_value(Log10, &q(20, 1)), None);
        assert_eq!(exact_value(Log2, &q(3, 4)), None);
        assert_eq!(exact_value(Exp2, &q(1, 2)), None);
        assert_eq!(exact_value(Exp, &q(1, 1)), None);
        assert!(holds(Log, &q(-1, 1), &q(42, 1)));
        assert!(holds(Exp, &q(0, 1), &q(1, 1)));
        assert!(!holds(Exp, &q(1, 1), &q(1, 1)));
        assert!(holds(Log2, &q(8, 1), &q(3, 1)));
        assert!(!holds(Log2, &q(8, 1), &q(4, 1)));
        assert!(holds(Exp10, &q(-2, 1), &q(1, 100)));
        assert!(!holds(Exp10, &q(-2, 1), &q(1, 200)));
        // 2^100000: rational but not built; decided through the output's form
        let big = Rational::from_integer(BigInt::from(100_000));
        let two_big = Rational::from_integer(BigInt::one() << 100_000usize);
        assert!(holds(Exp2, &big, &two_big));
        assert!(!holds(Exp2, &big, &(two_big.clone() * q(2, 1))));
        assert!(!holds(Exp2, &big, &(two_big + q(1, 1))));
        let ten_big = Rational::from_integer(BigInt::from(10).pow(100_000));
        assert!(holds(Exp10, &big, &ten_big));
        assert_eq!(log_exact(&(ten_big * q(1, 3)), 10), None);
    }

    #[test]
    fn enclosures_decide_membership() {
        assert_eq!(definitely_in(Sin, &q(1, 1), c(0.841, 0.842)), Some(true));
        assert_eq!(definitely_in(Sin, &q(1, 1), c(0.842, 0.9)), Some(false));
        // RN(e) is just below e
        let e = std::f64::consts::E;
        assert_eq!(definitely_in(Exp, &q(1, 1), c(e, e.next_up())), Some(true));
        assert_eq!(
            definitely_in(Exp, &q(1, 1), c(e.next_down(), e)),
            Some(false)
        );
        assert_eq!(definitely_in(Exp2, &q(1, 2), c(1.414, 1.415)), Some(true));
        assert_eq!(definitely_in(Exp10, &q(1, 2), c(3.162, 3.163)), Some(true));
        assert_eq!(definitely_in(Log10, &q(2, 1), c(0.301, 0.302)), Some(true));
        assert_eq!(definitely_in(Log2, &q(3, 1), c(1.584, 1.585)), Some(true));
        assert_eq!(definitely_in(Tan, &q(1, 1), c(1.557, 1.558)), Some(true));
        assert_eq!(definitely_in(Cos, &q(3, 1), c(-0.99, -0.98)), Some(true));
        // 355/226 is 1.3e-7 past π/2: tan is huge and negative
        assert_eq!(definitely_in(Tan, &q(355, 226), c(-1e7, -1e6)), Some(true));
        // exact values against open and closed ends
        assert_eq!(definitely_in(Log2, &q(8, 1), c(3.0, 3.0)), Some(true));
        assert_eq!(
            definitely_in(Log2, &q(8, 1), Interval::open(3.0, 4.0)),
            Some(false)
        );
        // unspecified: any nonempty output
        assert_eq!(definitely_in(Log, &q(0, 1), c(7.0, 7.0)), Some(true));
        assert_eq!(definitely_in(Log, &q(0, 1), Interval::EMPTY), Some(false));
        // sin(1e22) = -0.8522008497671888..., needs argument reduction of 1e22
        let x = Rational::from_float(1e22).unwrap();
        assert_eq!(definitely_in(Sin, &x, c(-0.852201, -0.8522008)), Some(true));
        // beyond the double range
        let huge = Rational::from_integer(BigInt::from(10).pow(400));
        assert_eq!(definitely_in(Exp, &huge, c(0.0, f64::MAX)), Some(false));
        assert_eq!(
            definitely_in(Exp, &-huge, Interval::open(0.0, 1e-300)),
            Some(true)
        );
        // a value that is no double, touching a double end from outside, is disjoint
        let lo = match enclose(Sin, &q(1, 1), 200) {
            Some(Value::Between(lo, _)) => lo.to_f64_round(Round::Down),
            v => panic!("{v:?}"),
        };
        assert_eq!(definitely_in(Sin, &q(1, 1), c(-1.0, lo)), Some(false));
        assert_eq!(definitely_in(Sin, &q(1, 1), c(lo, 1.0)), Some(true));
    }
}

/// What is known about `f(x)` at a rational point, with exact rational ends: the form the
/// front end's model validation uses (it does not depend on MPFR itself).
#[derive(Clone, Debug, PartialEq)]
pub enum RationalEnclosure {
    /// `f` is unspecified at `x` (any real)
    Unspecified,
    /// `f(x)` is this rational
    Exact(Rational),
    /// `lo <= f(x) <= hi` (and `f(x)` is neither end: it is irrational or not a double)
    Between(Rational, Rational),
}

/// [`enclose`] at [`START_PREC`] bits, with the MPFR ends converted exactly to rationals.
pub fn enclose_rational(f: Transcendental, x: &Rational) -> Option<RationalEnclosure> {
    Some(match enclose(f, x, START_PREC)? {
        Value::Unspecified => RationalEnclosure::Unspecified,
        Value::Exact(q) => RationalEnclosure::Exact(q),
        Value::Between(lo, hi) => {
            RationalEnclosure::Between(float_to_rational(&lo)?, float_to_rational(&hi)?)
        }
    })
}

/// The exact value of a finite MPFR number.
fn float_to_rational(f: &Float) -> Option<Rational> {
    let (m, e) = f.to_integer_exp()?;
    let m = BigInt::parse_bytes(format!("{m:x}").as_bytes(), 16)?;
    let e = i64::from(e);
    let two = BigInt::from(2);
    Some(if e >= 0 {
        Rational::from_integer(m * num_traits::pow(two, usize::try_from(e).ok()?))
    } else {
        Rational::new(m, num_traits::pow(two, usize::try_from(-e).ok()?))
    })
}

#[cfg(test)]
mod rational_enclosure_tests {
    use super::*;

    #[test]
    fn enclosures_have_exact_rational_ends() {
        let one = Rational::from_integer(BigInt::from(1));
        let Some(RationalEnclosure::Between(lo, hi)) = enclose_rational(Transcendental::Exp, &one)
        else {
            panic!("e is irrational");
        };
        // e = 2.718281828459045235360287...
        let e_lo = Rational::new(
            BigInt::from(2718281828459045235i64),
            BigInt::from(10).pow(18),
        );
        let e_hi = Rational::new(
            BigInt::from(2718281828459045236i64),
            BigInt::from(10).pow(18),
        );
        assert!(e_lo < lo && lo < hi && hi < e_hi, "{lo} {hi}");
        let zero = Rational::from_integer(BigInt::from(0));
        assert_eq!(
            enclose_rational(Transcendental::Sin, &zero),
            Some(RationalEnclosure::Exact(zero.clone()))
        );
        assert_eq!(
            enclose_rational(Transcendental::Log, &-one),
            Some(RationalEnclosure::Unspecified)
        );
    }
}
