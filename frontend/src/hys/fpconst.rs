//! IEEE-754 arithmetic on constants (round to nearest, ties to even), computed exactly with
//! rationals: used to fold constant sub-expressions in an fp context (`fp32 x; x + (0.1 + 0.2)`
//! adds the binary32 sum of the binary32 constants 0.1 and 0.2, as the operators of the
//! context's type are IEEE operations), and to normalise fp ranges to float endpoints.

use num_traits::Zero;
use solver::num::{FpFormat, Rational, RoundingMode};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FpBin {
    Add,
    Sub,
    Mul,
    Div,
}

fn sign_mask(f: FpFormat) -> u64 {
    1u64 << (f.total_bits() - 1)
}

/// `-x` (exact: flips the sign bit, also of zeros and NaNs).
pub fn neg(f: FpFormat, x: u64) -> u64 {
    x ^ sign_mask(f)
}

/// The float nearest to `q` (ties to even).
pub fn round(f: FpFormat, q: &Rational) -> u64 {
    f.round_rational(q, RoundingMode::Rne)
}

/// `a op b` in format `f`, rounding to nearest even, with IEEE's rules for zeros, infinities
/// and NaN (the result NaN is the canonical quiet NaN).
pub fn binary(f: FpFormat, op: FpBin, a: u64, b: u64) -> u64 {
    let (a, b) = match op {
        FpBin::Sub => (a, neg(f, b)),
        _ => (a, b),
    };
    let nan = f.nan_bits();
    if f.is_nan(a) || f.is_nan(b) {
        return nan;
    }
    let sa = f.is_negative(a);
    let sb = f.is_negative(b);
    let inf = |neg: bool| {
        if neg {
            f.inf_bits() | sign_mask(f)
        } else {
            f.inf_bits()
        }
    };
    let zero = |neg: bool| if neg { sign_mask(f) } else { 0 };
    let (ia, ib) = (f.is_inf(a), f.is_inf(b));
    let (qa, qb) = (f.to_rational(a), f.to_rational(b));
    match op {
        FpBin::Add | FpBin::Sub => {
            if ia && ib {
                return if sa == sb { a } else { nan };
            }
            if ia {
                return a;
            }
            if ib {
                return b;
            }
            let (Some(qa), Some(qb)) = (qa, qb) else {
                return nan;
            };
            let s = qa + qb;
            if s.is_zero() {
                // exact zero sum: -0 only for (-0) + (-0) in round-to-nearest
                return zero(sa && sb && f.to_rational(a).is_some_and(|q| q.is_zero()));
            }
            round(f, &s)
        }
        FpBin::Mul => {
            let neg_result = sa != sb;
            let za = qa.as_ref().is_some_and(|q| q.is_zero());
            let zb = qb.as_ref().is_some_and(|q| q.is_zero());
            if (ia && zb) || (ib && za) {
                return nan;
            }
            if ia || ib {
                return inf(neg_result);
            }
            let (Some(qa), Some(qb)) = (qa, qb) else {
                return nan;
            };
            let p = qa * qb;
            if p.is_zero() {
                return zero(neg_result);
            }
            round(f, &p)
        }
        FpBin::Div => {
            let neg_result = sa != sb;
            let za = qa.as_ref().is_some_and(|q| q.is_zero());
            let zb = qb.as_ref().is_some_and(|q| q.is_zero());
            if (ia && ib) || (za && zb) {
                return nan;
            }
            if ia {
                return inf(neg_result);
            }
            if ib {
                return zero(neg_result);
            }
            if zb {
                return inf(neg_result);
            }
            let (Some(qa), Some(qb)) = (qa, qb) else {
                return nan;
            };
            let d = qa / qb;
            if d.is_zero() {
                return zero(neg_result);
            }
            round(f, &d)
        }
    }
}

/// The smallest float of `f` that is `>= q` (`> q` if `strict`), if it is finite.
pub fn float_at_or_above(f: FpFormat, q: &Rational, strict: bool) -> Option<Rational> {
    let mut bits = f.round_rational(q, RoundingMode::Rtp);
    let mut v = f.to_rational(bits)?;
    if strict && v == *q {
        bits = next_up(f, bits);
        v = f.to_rational(bits)?;
    }
    Some(v)
}

/// The largest float of `f` that is `<= q` (`< q` if `strict`), if it is finite.
pub fn float_at_or_below(f: FpFormat, q: &Rational, strict: bool) -> Option<Rational> {
    float_at_or_above(f, &-q.clone(), strict).map(|v| -v)
}

/// The next float above a finite `x` (towards +infinity).
fn next_up(f: FpFormat, x: u64) -> u64 {
    let mag = x & !sign_mask(f);
    if mag == 0 {
        1 // smallest positive subnormal, from either zero
    } else if f.is_negative(x) {
        x - 1
    } else {
        x + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn q(n: i64, d: i64) -> Rational {
        Rational::new(BigInt::from(n), BigInt::from(d))
    }

    #[test]
    fn matches_native_doubles() {
        let f = FpFormat::F64;
        let vals = [
            0.1,
            0.2,
            -0.0,
            0.0,
            1e308,
            -1e308,
            3.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            5e-324,
            -2.5,
            f64::NAN,
        ];
        for &a in &vals {
            for &b in &vals {
                for (op, native) in [
                    (FpBin::Add, a + b),
                    (FpBin::Sub, a - b),
                    (FpBin::Mul, a * b),
                    (FpBin::Div, a / b),
                ] {
                    let got = f64::from_bits(binary(f, op, a.to_bits(), b.to_bits()));
                    if native.is_nan() {
                        assert!(got.is_nan(), "{a} {op:?} {b}");
                    } else {
                        assert_eq!(got.to_bits(), native.to_bits(), "{a} {op:?} {b}");
                    }
                }
            }
        }
    }

    #[test]
    fn float_neighbours_of_rationals() {
        let f = FpFormat::F32;
        let tenth = q(1, 10);
        let up = float_at_or_above(f, &tenth, false).unwrap();
        assert_eq!(f.round_rational(&up, RoundingMode::Rne), 0x3dcccccd);
        let dn = float_at_or_below(f, &tenth, false).unwrap();
        assert_eq!(f.round_rational(&dn, RoundingMode::Rne), 0x3dcccccc);
        let one = q(1, 1);
        assert_eq!(float_at_or_above(f, &one, false), Some(one.clone()));
        assert!(float_at_or_above(f, &one, true).unwrap() > one);
        assert!(float_at_or_below(f, &one, true).unwrap() < one);
        assert_eq!(float_at_or_above(f, &q(0, 1), true), f.to_rational(1));
        let huge = Rational::from_integer(BigInt::from(10).pow(40));
        assert_eq!(float_at_or_above(f, &huge, false), None);
    }
}
