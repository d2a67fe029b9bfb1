//! Strategies shared by the contractor property tests.

#![allow(dead_code)] // each test binary uses a part of this module

use num_bigint::BigInt;
use proptest::prelude::*;
use solver::interval::Interval;
use solver::Rational;

/// The exact value of a finite double.
pub fn rat(x: f64) -> Rational {
    Rational::from_float(x).expect("finite")
}

/// `n / d`.
pub fn q(n: i64, d: i64) -> Rational {
    Rational::new(BigInt::from(n), BigInt::from(d))
}

/// `2^k`, exactly.
pub fn pow2(k: i64) -> Rational {
    let one = BigInt::from(1);
    if k >= 0 {
        Rational::from_integer(one << k as usize)
    } else {
        Rational::new(one, BigInt::from(1) << (-k) as usize)
    }
}

/// A double of any binade, subnormals included: a random significand scaled by `2^e`.
pub fn any_binade_double() -> impl Strategy<Value = f64> {
    (-1100i32..1024, any::<u64>(), any::<bool>()).prop_map(|(e, m, s)| {
        let x = (1.0 + (m >> 12) as f64 / (1u64 << 52) as f64) * 2f64.powi(e.max(-1074));
        if s {
            -x
        } else {
            x
        }
    })
}

/// A box with random ends (drawn from `doubles`) and kinds (sometimes infinite) and an exact
/// point in it: a rational convex combination of the ends, or a point past a finite end if
/// the other is infinite.
pub fn box_and_point(doubles: BoxedStrategy<f64>) -> impl Strategy<Value = (Interval, Rational)> {
    (
        doubles.clone(),
        doubles,
        any::<bool>(),
        any::<bool>(),
        0u8..8,
        0u64..=1000,
        1u64..=1000,
    )
        .prop_filter_map(
            "non-empty with a point",
            |(x, y, lo_open, hi_open, inf, num, den)| {
                let (lo, hi) = if x <= y { (x, y) } else { (y, x) };
                let lo = if inf == 0 { f64::NEG_INFINITY } else { lo };
                let hi = if inf == 1 { f64::INFINITY } else { hi };
                let b = Interval::new(lo, lo_open, hi, hi_open);
                if b.is_empty() {
                    return None;
                }
                let t = q((num % (den + 1)) as i64, den as i64);
                let p = match (lo.is_finite(), hi.is_finite()) {
                    (true, true) => rat(lo) + t * (rat(hi) - rat(lo)),
                    (true, false) => rat(lo) + t * q(1000, 1),
                    (false, true) => rat(hi) - t * q(1000, 1),
                    (false, false) => t,
                };
                b.contains_rational(&p).then_some((b, p))
            },
        )
}
