//! IEEE-754 arithmetic on constants (round to nearest, ties to even), delegated to the
//! solver's `num::ieee` (one implementation of the IEEE rules): used to fold constant
//! sub-expressions in an fp context (`fp32 x; x + (0.1 + 0.2)` adds the binary32 sum of the
//! binary32 constants 0.1 and 0.2, as the operators of the context's type are IEEE
//! operations), and to normalise fp ranges to float endpoints.

use solver::num::{ieee, FpFormat, Rational, RoundingMode};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FpBin {
    Add,
    Sub,
    Mul,
    Div,
}

/// `-x` (exact: flips the sign bit, also of zeros; a NaN stays a NaN).
pub fn neg(f: FpFormat, x: u64) -> u64 {
    ieee::neg(f, x)
}

/// The float nearest to `q` (ties to even).
pub fn round(f: FpFormat, q: &Rational) -> u64 {
    ieee::from_rational(f, RoundingMode::Rne, q)
}

/// `a op b` in format `f`, rounding to nearest even, with IEEE's rules for zeros, infinities
/// and NaN (the result NaN is the canonical quiet NaN): the solver's IEEE operations, so
/// constant folding and solving compute the same floats.
pub fn binary(f: FpFormat, op: FpBin, a: u64, b: u64) -> u64 {
    let rm = RoundingMode::Rne;
    match op {
        FpBin::Add => ieee::add(f, rm, a, b),
        FpBin::Sub => ieee::sub(f, rm, a, b),
        FpBin::Mul => ieee::mul(f, rm, a, b),
        FpBin::Div => ieee::div(f, rm, a, b),
    }
}

/// The smallest float of `f` that is `>= q` (`> q` if `strict`), if it is finite.
pub fn float_at_or_above(f: FpFormat, q: &Rational, strict: bool) -> Option<Rational> {
    let mut bits = ieee::from_rational(f, RoundingMode::Rtp, q);
    let mut v = f.to_rational(bits)?;
    if strict && v == *q {
        bits = ieee::next_up(f, bits);
        v = f.to_rational(bits)?;
    }
    Some(v)
}

/// The largest float of `f` that is `<= q` (`< q` if `strict`), if it is finite.
pub fn float_at_or_below(f: FpFormat, q: &Rational, strict: bool) -> Option<Rational> {
    float_at_or_above(f, &-q.clone(), strict).map(|v| -v)
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
