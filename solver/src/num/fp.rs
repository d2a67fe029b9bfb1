//! IEEE-754 binary formats and exact rounding of rationals into them.
//!
//! A constant written in decimal (`0.1`) in an fp context means the float nearest to the
//! exact rational (language doc Part B.2); this module computes it exactly in every rounding
//! mode, with subnormals and overflow as IEEE 754-2008 prescribes.

use super::Rational;
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// An IEEE-754 binary interchange format.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FpFormat {
    /// binary32 (`float` in C, `fp32` in `.hys`)
    F32,
    /// binary64 (`double` in C, `fp64` in `.hys`)
    F64,
}

/// The five IEEE-754 rounding-direction attributes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RoundingMode {
    /// roundTiesToEven
    Rne,
    /// roundTiesToAway
    Rna,
    /// roundTowardPositive
    Rtp,
    /// roundTowardNegative
    Rtn,
    /// roundTowardZero
    Rtz,
}

impl RoundingMode {
    pub const ALL: [RoundingMode; 5] = [
        RoundingMode::Rne,
        RoundingMode::Rna,
        RoundingMode::Rtp,
        RoundingMode::Rtn,
        RoundingMode::Rtz,
    ];
    pub fn name(self) -> &'static str {
        match self {
            RoundingMode::Rne => "RNE",
            RoundingMode::Rna => "RNA",
            RoundingMode::Rtp => "RTP",
            RoundingMode::Rtn => "RTN",
            RoundingMode::Rtz => "RTZ",
        }
    }
}

impl FpFormat {
    /// Significand precision in bits, including the hidden bit.
    pub fn precision(self) -> u32 {
        match self {
            FpFormat::F32 => 24,
            FpFormat::F64 => 53,
        }
    }
    pub fn exponent_bits(self) -> u32 {
        match self {
            FpFormat::F32 => 8,
            FpFormat::F64 => 11,
        }
    }
    pub fn total_bits(self) -> u32 {
        1 + self.exponent_bits() + self.precision() - 1
    }
    pub fn emax(self) -> i64 {
        (1i64 << (self.exponent_bits() - 1)) - 1
    }
    pub fn emin(self) -> i64 {
        1 - self.emax()
    }
    pub fn name(self) -> &'static str {
        match self {
            FpFormat::F32 => "fp32",
            FpFormat::F64 => "fp64",
        }
    }
    fn bias(self) -> i64 {
        self.emax()
    }
    fn frac_bits(self) -> u32 {
        self.precision() - 1
    }
    fn sign_mask(self) -> u64 {
        1u64 << (self.total_bits() - 1)
    }
    /// Bit pattern of +infinity.
    pub fn inf_bits(self) -> u64 {
        ((1u64 << self.exponent_bits()) - 1) << self.frac_bits()
    }
    /// Bit pattern of the largest finite value.
    pub fn max_finite_bits(self) -> u64 {
        self.inf_bits() - 1
    }
    /// The canonical quiet NaN.
    pub fn nan_bits(self) -> u64 {
        self.inf_bits() | (1u64 << (self.frac_bits() - 1))
    }
    pub fn is_nan(self, bits: u64) -> bool {
        let mag = bits & !self.sign_mask();
        mag > self.inf_bits()
    }
    pub fn is_inf(self, bits: u64) -> bool {
        bits & !self.sign_mask() == self.inf_bits()
    }
    pub fn is_negative(self, bits: u64) -> bool {
        bits & self.sign_mask() != 0
    }

    /// The exact value of a finite float; `None` for infinities and NaN.
    pub fn to_rational(self, bits: u64) -> Option<Rational> {
        if self.is_nan(bits) || self.is_inf(bits) {
            return None;
        }
        let neg = self.is_negative(bits);
        let mag = bits & !self.sign_mask();
        let biased = (mag >> self.frac_bits()) as i64;
        let frac = mag & ((1u64 << self.frac_bits()) - 1);
        let (m, e) = if biased == 0 {
            (frac, self.emin() - self.frac_bits() as i64)
        } else {
            (
                frac | (1u64 << self.frac_bits()),
                biased - self.bias() - self.frac_bits() as i64,
            )
        };
        let m = BigInt::from(m);
        let v = if e >= 0 {
            Rational::from_integer(m << e as usize)
        } else {
            Rational::new(m, BigInt::one() << (-e) as usize)
        };
        Some(if neg { -v } else { v })
    }

    /// The float of this format that `q` rounds to in mode `rm` (IEEE 754-2008 §4.3: overflow
    /// to infinity or to the largest finite value depending on the direction, gradual
    /// underflow). Zero rounds to +0.
    pub fn round_rational(self, q: &Rational, rm: RoundingMode) -> u64 {
        if q.is_zero() {
            return 0;
        }
        let neg = q.is_negative();
        let sign = if neg { self.sign_mask() } else { 0 };
        let n = q.numer().abs();
        let d = q.denom().clone();
        let p = self.precision() as i64;
        // e = floor(log2 |q|)
        let mut e = n.bits() as i64 - d.bits() as i64;
        if !ge_pow2(&n, &d, e) {
            e -= 1;
        }
        let e_eff = e.max(self.emin());
        // m = |q| / 2^(e_eff - p + 1), split into integer part and remainder.
        let shift = e_eff - p + 1;
        let (num, den) = if shift >= 0 {
            (n, d << shift as usize)
        } else {
            (n << (-shift) as usize, d)
        };
        let (mut m, r) = num.div_rem(&den);
        let round_up = if r.is_zero() {
            false
        } else {
            let twice = &r << 1usize;
            match rm {
                RoundingMode::Rtz => false,
                RoundingMode::Rtp => !neg,
                RoundingMode::Rtn => neg,
                RoundingMode::Rne => match twice.cmp(&den) {
                    std::cmp::Ordering::Greater => true,
                    std::cmp::Ordering::Less => false,
                    std::cmp::Ordering::Equal => m.is_odd(),
                },
                RoundingMode::Rna => twice >= den,
            }
        };
        let mut e_eff = e_eff;
        if round_up {
            m += 1;
            if m.bits() as i64 > p {
                m >>= 1usize;
                e_eff += 1;
            }
        }
        if e_eff > self.emax() {
            let to_inf = match rm {
                RoundingMode::Rne | RoundingMode::Rna => true,
                RoundingMode::Rtz => false,
                RoundingMode::Rtp => !neg,
                RoundingMode::Rtn => neg,
            };
            return sign
                | if to_inf {
                    self.inf_bits()
                } else {
                    self.max_finite_bits()
                };
        }
        let m = m.to_u64().expect("significand fits in 64 bits");
        if m >> self.frac_bits() == 0 {
            // subnormal (or rounded to zero)
            return sign | m;
        }
        let biased = (e_eff + self.bias()) as u64;
        sign | (biased << self.frac_bits()) | (m & ((1u64 << self.frac_bits()) - 1))
    }
}

/// `n / d >= 2^e` for positive `n`, `d`.
fn ge_pow2(n: &BigInt, d: &BigInt, e: i64) -> bool {
    debug_assert!(n.sign() == Sign::Plus && d.sign() == Sign::Plus);
    if e >= 0 {
        *n >= d << e as usize
    } else {
        (n << (-e) as usize) >= *d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn r(x: f64) -> Rational {
        Rational::from_float(x).unwrap()
    }

    #[test]
    fn decimal_constants_round_to_nearest() {
        let tenth = Rational::new(BigInt::from(1), BigInt::from(10));
        assert_eq!(
            FpFormat::F64.round_rational(&tenth, RoundingMode::Rne),
            0.1f64.to_bits()
        );
        assert_eq!(
            FpFormat::F32.round_rational(&tenth, RoundingMode::Rne),
            0.1f32.to_bits() as u64
        );
        let big = Rational::from_integer(BigInt::from(10).pow(20));
        assert_eq!(
            FpFormat::F64.round_rational(&big, RoundingMode::Rne),
            1e20f64.to_bits()
        );
        let big1 = &big + Rational::one();
        assert_eq!(
            FpFormat::F64.round_rational(&big1, RoundingMode::Rne),
            1e20f64.to_bits()
        );
    }

    #[test]
    fn overflow_and_underflow_follow_direction() {
        let huge = Rational::from_integer(BigInt::from(10).pow(400));
        let f = FpFormat::F64;
        assert_eq!(
            f.round_rational(&huge, RoundingMode::Rne),
            f64::INFINITY.to_bits()
        );
        assert_eq!(
            f.round_rational(&huge, RoundingMode::Rtz),
            f64::MAX.to_bits()
        );
        assert_eq!(
            f.round_rational(&-huge.clone(), RoundingMode::Rtp),
            (-f64::MAX).to_bits()
        );
        let tiny = Rational::new(BigInt::one(), BigInt::from(10).pow(400));
        assert_eq!(f.round_rational(&tiny, RoundingMode::Rne), 0);
        assert_eq!(f.round_rational(&tiny, RoundingMode::Rtp), 1); // smallest subnormal
        assert_eq!(
            f.round_rational(&-tiny, RoundingMode::Rtn),
            (-f64::from_bits(1)).to_bits()
        );
    }

    proptest! {
        #[test]
        fn f64_values_round_trip(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assume!(x.is_finite() && x != 0.0);
            let q = FpFormat::F64.to_rational(bits).unwrap();
            prop_assert_eq!(&q, &r(x));
            for rm in RoundingMode::ALL {
                prop_assert_eq!(FpFormat::F64.round_rational(&q, rm), bits);
            }
        }

        #[test]
        fn f32_rounding_matches_native_nearest(bits in any::<u64>()) {
            // A random double rounded to binary32 by the hardware (round to nearest even).
            let x = f64::from_bits(bits);
            prop_assume!(x.is_finite() && x != 0.0);
            let q = r(x);
            let native = x as f32;
            prop_assert_eq!(FpFormat::F32.round_rational(&q, RoundingMode::Rne), native.to_bits() as u64);
            // Directed modes bracket the value.
            let dn = FpFormat::F32.round_rational(&q, RoundingMode::Rtn);
            let up = FpFormat::F32.round_rational(&q, RoundingMode::Rtp);
            let dn = f32::from_bits(dn as u32) as f64;
            let up = f32::from_bits(up as u32) as f64;
            prop_assert!(dn <= x && x <= up);
        }
    }
}
