//! Exact constant arithmetic on rationals, with a guard against blow-up.
//!
//! `define`s, range bounds, exponents and constant sub-expressions are folded exactly. A result
//! whose numerator or denominator would need more than [`MAX_CONST_BITS`] bits is an error
//! ("constant too large") instead of a computation that never ends (`2^1000000000`).

use super::ast::BinOp;
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use solver::num::Rational;

/// Largest size, in bits, of the numerator or the denominator of a folded constant.
pub const MAX_CONST_BITS: u64 = 100_000;

/// Why a constant could not be folded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FoldError {
    DivisionByZero,
    TooLarge,
}

impl FoldError {
    pub fn message(&self) -> String {
        match self {
            FoldError::DivisionByZero => "division by zero in a constant expression".into(),
            FoldError::TooLarge => format!(
                "constant too large (more than {MAX_CONST_BITS} bits in numerator or denominator)"
            ),
        }
    }
}

/// Size in bits of the larger of numerator and denominator.
pub fn bits(q: &Rational) -> u64 {
    q.numer().bits().max(q.denom().bits())
}

fn guard(q: Rational) -> Result<Rational, FoldError> {
    if bits(&q) > MAX_CONST_BITS {
        Err(FoldError::TooLarge)
    } else {
        Ok(q)
    }
}

/// `a op b` for the arithmetic operators `+ - * /` (and `^`, see [`pow`]).
pub fn binary(op: BinOp, a: &Rational, b: &Rational) -> Result<Rational, FoldError> {
    match op {
        BinOp::Add => guard(a + b),
        BinOp::Sub => guard(a - b),
        BinOp::Mul => guard(a * b),
        BinOp::Div => {
            if b.is_zero() {
                Err(FoldError::DivisionByZero)
            } else {
                guard(a / b)
            }
        }
        BinOp::Pow => match exponent(b) {
            Some(n) => pow(a, &n),
            None => Err(FoldError::TooLarge),
        },
        _ => Err(FoldError::TooLarge),
    }
}

/// The value of `b` as an exponent: a non-negative integer.
pub fn exponent(b: &Rational) -> Option<BigInt> {
    (b.is_integer() && !b.is_negative()).then(|| b.to_integer())
}

/// `a^n`, exactly; an error when the result would be too large.
pub fn pow(a: &Rational, n: &BigInt) -> Result<Rational, FoldError> {
    if n.is_zero() {
        return Ok(Rational::one());
    }
    if a.is_zero() || *a == Rational::one() {
        return Ok(a.clone());
    }
    if *a == -Rational::one() {
        let odd = (n % 2u32) == BigInt::one();
        return Ok(if odd { a.clone() } else { Rational::one() });
    }
    // |a| != 0, 1: every power grows the numerator or the denominator by at least one bit
    // per factor (bits(a) >= 2 or the denominator is >= 2), so n itself must be small.
    let n = n
        .to_u64()
        .filter(|&n| n <= MAX_CONST_BITS)
        .ok_or(FoldError::TooLarge)?;
    let per_factor = bits(a).saturating_sub(1).max(1);
    if per_factor.saturating_mul(n) > MAX_CONST_BITS {
        return Err(FoldError::TooLarge);
    }
    let n32 = n as u32; // n <= MAX_CONST_BITS < 2^32
    let num = num_traits::pow::Pow::pow(a.numer(), n32);
    let den = num_traits::pow::Pow::pow(a.denom(), n32);
    guard(Rational::new(num, den))
}

/// `|a|`
pub fn abs(a: &Rational) -> Rational {
    a.abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64) -> Rational {
        Rational::from_integer(BigInt::from(n))
    }

    #[test]
    fn folds_exactly() {
        assert_eq!(
            binary(BinOp::Div, &q(7), &q(2)).unwrap(),
            Rational::new(7.into(), 2.into())
        );
        assert_eq!(binary(BinOp::Pow, &q(2), &q(10)).unwrap(), q(1024));
        assert_eq!(
            binary(BinOp::Pow, &Rational::new(1.into(), 2.into()), &q(3)).unwrap(),
            Rational::new(1.into(), 8.into())
        );
        assert_eq!(
            binary(BinOp::Pow, &q(-1), &q(1_000_000_001)).unwrap(),
            q(-1)
        );
        assert_eq!(binary(BinOp::Pow, &q(0), &q(0)).unwrap(), q(1));
        assert_eq!(
            binary(BinOp::Div, &q(1), &q(0)),
            Err(FoldError::DivisionByZero)
        );
    }

    #[test]
    fn refuses_blow_up_quickly() {
        let t = std::time::Instant::now();
        assert_eq!(
            binary(BinOp::Pow, &q(2), &q(1_000_000_000)),
            Err(FoldError::TooLarge)
        );
        let big = pow(&q(10), &BigInt::from(10_000_000_000u64));
        assert_eq!(big, Err(FoldError::TooLarge));
        // 2^99999 fits (100,000 bits), 2^100000 does not (100,001 bits)
        assert!(pow(&q(2), &BigInt::from(99_999)).is_ok());
        assert_eq!(pow(&q(2), &BigInt::from(100_000)), Err(FoldError::TooLarge));
        // repeated squaring of a large constant stops at the limit
        let mut x = q(3);
        let mut err = None;
        for _ in 0..40 {
            match binary(BinOp::Mul, &x, &x) {
                Ok(y) => x = y,
                Err(e) => {
                    err = Some(e);
                    break;
                }
            }
        }
        assert_eq!(err, Some(FoldError::TooLarge));
        assert!(t.elapsed().as_secs() < 5);
    }
}
