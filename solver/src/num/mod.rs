//! Exact numbers: big rationals for constants and validation, the IEEE-754 formats and
//! machine-integer types of the `.hys` extension (Part B), and exact conversion between
//! rationals and IEEE values in every rounding mode.

mod fp;
pub mod ieee;

pub use fp::{FpFormat, RoundingMode};

use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// An exact rational number.
pub type Rational = num_rational::BigRational;

/// A two's-complement (signed) or unsigned machine integer type of `bits` bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct IntType {
    pub bits: u8,
    pub signed: bool,
}

impl IntType {
    pub const fn new(bits: u8, signed: bool) -> IntType {
        IntType { bits, signed }
    }
    /// The smallest value of the type.
    pub fn min_value(self) -> BigInt {
        if self.signed {
            -(BigInt::one() << (self.bits as usize - 1))
        } else {
            BigInt::zero()
        }
    }
    /// The largest value of the type.
    pub fn max_value(self) -> BigInt {
        if self.signed {
            (BigInt::one() << (self.bits as usize - 1)) - 1
        } else {
            (BigInt::one() << self.bits as usize) - 1
        }
    }
    pub fn contains(self, v: &BigInt) -> bool {
        *v >= self.min_value() && *v <= self.max_value()
    }
    /// `v` reduced modulo 2^bits into the type's range (C's conversion to unsigned, and
    /// two's-complement wrap-around for signed types).
    pub fn wrap(self, v: &BigInt) -> BigInt {
        let modulus = BigInt::one() << self.bits as usize;
        let mut r = v % &modulus;
        if r.is_negative() {
            r += &modulus;
        }
        if self.signed && r > self.max_value() {
            r -= modulus;
        }
        r
    }
    /// The `.hys` name of the type (`int32`, `uint8`, ...).
    pub fn name(self) -> String {
        format!("{}int{}", if self.signed { "" } else { "u" }, self.bits)
    }
}

/// `true` when `q` is an integer.
pub fn is_integral(q: &Rational) -> bool {
    q.denom().is_one()
}

/// Formats a rational exactly: an integer, a terminating decimal, or `n/d`.
pub fn format_rational(q: &Rational) -> String {
    if q.denom().is_one() {
        return q.numer().to_string();
    }
    // A fraction terminates in decimal iff its (reduced) denominator is 2^a 5^b.
    let mut d = q.denom().clone();
    let two = BigInt::from(2);
    let five = BigInt::from(5);
    let (mut a, mut b) = (0u32, 0u32);
    while (&d % &two).is_zero() {
        d /= &two;
        a += 1;
    }
    while (&d % &five).is_zero() {
        d /= &five;
        b += 1;
    }
    if !d.is_one() || a.max(b) > 60 {
        return format!("{}/{}", q.numer(), q.denom());
    }
    let digits = a.max(b);
    let scaled = q * Rational::from_integer(BigInt::from(10).pow(digits));
    let n = scaled.to_integer();
    let neg = n.is_negative();
    let s = n.abs().to_string();
    let s = if s.len() <= digits as usize {
        format!("{}{}", "0".repeat(digits as usize + 1 - s.len()), s)
    } else {
        s
    };
    let (int, frac) = s.split_at(s.len() - digits as usize);
    let frac = frac.trim_end_matches('0');
    format!("{}{}.{}", if neg { "-" } else { "" }, int, frac)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Rational {
        Rational::new(BigInt::from(n), BigInt::from(d))
    }

    #[test]
    fn formats_rationals_exactly() {
        assert_eq!(format_rational(&q(3, 1)), "3");
        assert_eq!(format_rational(&q(-1, 8)), "-0.125");
        assert_eq!(format_rational(&q(1, 3)), "1/3");
        assert_eq!(format_rational(&q(7, 100)), "0.07");
        assert_eq!(format_rational(&q(-5, 2)), "-2.5");
    }

    #[test]
    fn int_types_wrap_like_c() {
        let u8t = IntType::new(8, false);
        let i8t = IntType::new(8, true);
        assert_eq!(u8t.wrap(&BigInt::from(-1)), BigInt::from(255));
        assert_eq!(i8t.wrap(&BigInt::from(128)), BigInt::from(-128));
        assert_eq!(i8t.wrap(&BigInt::from(-129)), BigInt::from(127));
        assert_eq!(i8t.min_value(), BigInt::from(-128));
        assert_eq!(IntType::new(64, false).max_value(), BigInt::from(u64::MAX));
    }
}
