//! Exact IEEE-754 binary32/binary64 operations in all five rounding modes (language doc
//! Part B.2), on raw bit patterns (`u64`; binary32 in the low 32 bits).
//!
//! The idea: every operation is "compute the exact real result, then round it once", as IEEE
//! 754-2008 §4.3 defines it. This module is the *exact path*: finite operands become big
//! rationals, the result is rounded by [`FpFormat::round_rational`], and the special cases
//! (NaN, infinities, signed zeros) follow the standard's tables. It is slow (big-integer
//! arithmetic) but obviously right; the contractors and the model validator use it through
//! the same functions, and a faster path may replace the body of a function as long as the
//! bit-exact tests against the independent reference keep passing.
//!
//! Decisions where IEEE 754-2008 leaves a choice (documented in hys-language.md Part D):
//! - every NaN result is the canonical quiet NaN of the format ([`FpFormat::nan_bits`]);
//!   NaN payloads and signs carry no meaning anywhere in icpic3;
//! - `fmin`/`fmax` are minNum/maxNum with IEEE 754-2019's order of zeros: `-0 < +0`, so
//!   `fmin(-0, +0) = -0` and `fmax(-0, +0) = +0` (2008 allows either);
//! - an exact zero sum `x + (-x)` is `+0`, or `-0` when rounding toward negative (§6.3).

use super::{FpFormat, Rational, RoundingMode};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

fn sign_mask(f: FpFormat) -> u64 {
    1u64 << (f.total_bits() - 1)
}

fn zero(f: FpFormat, neg: bool) -> u64 {
    if neg {
        sign_mask(f)
    } else {
        0
    }
}

fn inf(f: FpFormat, neg: bool) -> u64 {
    zero(f, neg) | f.inf_bits()
}

/// A float in an exact, case-split form.
enum Cls {
    Nan,
    Inf(bool),
    Zero(bool),
    /// finite non-zero value
    Num(Rational),
}

fn classify(f: FpFormat, x: u64) -> Cls {
    if f.is_nan(x) {
        Cls::Nan
    } else if f.is_inf(x) {
        Cls::Inf(f.is_negative(x))
    } else if x & !sign_mask(f) == 0 {
        Cls::Zero(f.is_negative(x))
    } else {
        Cls::Num(f.to_rational(x).expect("finite"))
    }
}

/// Rounds a non-zero exact result.
fn round_nonzero(f: FpFormat, rm: RoundingMode, q: &Rational) -> u64 {
    debug_assert!(!q.is_zero());
    f.round_rational(q, rm)
}

/// The sign of an exact zero sum of two operands that are not both zeros of one sign.
fn exact_zero_sum(f: FpFormat, rm: RoundingMode) -> u64 {
    zero(f, rm == RoundingMode::Rtn)
}

/// `-x`: flips the sign bit (also of zeros; NaN stays NaN).
pub fn neg(f: FpFormat, x: u64) -> u64 {
    if f.is_nan(x) {
        return f.nan_bits();
    }
    x ^ sign_mask(f)
}

/// `|x|`: clears the sign bit.
pub fn abs(f: FpFormat, x: u64) -> u64 {
    if f.is_nan(x) {
        return f.nan_bits();
    }
    x & !sign_mask(f)
}

/// `x + y` rounded in mode `rm`.
pub fn add(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> u64 {
    match (classify(f, x), classify(f, y)) {
        (Cls::Nan, _) | (_, Cls::Nan) => f.nan_bits(),
        (Cls::Inf(a), Cls::Inf(b)) => {
            if a == b {
                inf(f, a)
            } else {
                f.nan_bits()
            }
        }
        (Cls::Inf(a), _) | (_, Cls::Inf(a)) => inf(f, a),
        (Cls::Zero(a), Cls::Zero(b)) => {
            if a == b {
                zero(f, a)
            } else {
                exact_zero_sum(f, rm)
            }
        }
        // x + 0 is x exactly (x finite non-zero, already a float of the format)
        (Cls::Zero(_), Cls::Num(_)) => y,
        (Cls::Num(_), Cls::Zero(_)) => x,
        (Cls::Num(a), Cls::Num(b)) => {
            let s = a + b;
            if s.is_zero() {
                exact_zero_sum(f, rm)
            } else {
                round_nonzero(f, rm, &s)
            }
        }
    }
}

/// `x - y` rounded in mode `rm` (= `x + (-y)`, also for signed zeros).
pub fn sub(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> u64 {
    add(f, rm, x, neg(f, y))
}

/// `x · y` rounded in mode `rm`.
pub fn mul(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> u64 {
    let s = f.is_negative(x) != f.is_negative(y);
    match (classify(f, x), classify(f, y)) {
        (Cls::Nan, _) | (_, Cls::Nan) => f.nan_bits(),
        (Cls::Inf(_), Cls::Zero(_)) | (Cls::Zero(_), Cls::Inf(_)) => f.nan_bits(),
        (Cls::Inf(_), _) | (_, Cls::Inf(_)) => inf(f, s),
        (Cls::Zero(_), _) | (_, Cls::Zero(_)) => zero(f, s),
        (Cls::Num(a), Cls::Num(b)) => round_nonzero(f, rm, &(a * b)),
    }
}

/// `x / y` rounded in mode `rm`.
pub fn div(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> u64 {
    let s = f.is_negative(x) != f.is_negative(y);
    match (classify(f, x), classify(f, y)) {
        (Cls::Nan, _) | (_, Cls::Nan) => f.nan_bits(),
        (Cls::Inf(_), Cls::Inf(_)) | (Cls::Zero(_), Cls::Zero(_)) => f.nan_bits(),
        (Cls::Inf(_), _) => inf(f, s),
        (_, Cls::Inf(_)) => zero(f, s),
        (Cls::Zero(_), _) => zero(f, s),
        // division by zero: the exact infinity (§7.3)
        (_, Cls::Zero(_)) => inf(f, s),
        (Cls::Num(a), Cls::Num(b)) => round_nonzero(f, rm, &(a / b)),
    }
}

/// `√x` rounded in mode `rm`; `√(-0) = -0`, NaN for negative `x`.
pub fn sqrt(f: FpFormat, rm: RoundingMode, x: u64) -> u64 {
    match classify(f, x) {
        Cls::Nan | Cls::Inf(true) => f.nan_bits(),
        Cls::Inf(false) => x,
        Cls::Zero(_) => x,
        Cls::Num(q) if q.is_negative() => f.nan_bits(),
        Cls::Num(q) => round_nonzero(f, rm, &sqrt_proxy(f, &q)),
    }
}

/// A rational that rounds like `√q` in every mode, for a positive float value `q`.
///
/// `q = M·2^E` with an integer `M`; with `E` made even, `√q = √(M·4^k)·2^(E/2-k)`. Let
/// `s = ⌊√(M·4^k)⌋` with at least `precision + 3` bits. If `s² = M·4^k` the root is exact;
/// otherwise it lies strictly inside `(s, s+1)·2^(E/2-k)`, an open interval that contains no
/// float and no midpoint between floats (those are multiples of at least 4 units there), so
/// `(s + ½)·2^(E/2-k)` rounds the same way in every mode.
fn sqrt_proxy(f: FpFormat, q: &Rational) -> Rational {
    // q = numer / 2^t (a float's denominator is a power of two)
    let n = q.numer().clone();
    let d = q.denom().clone();
    let t = d.bits() as i64 - 1;
    debug_assert!(d == BigInt::one() << t as usize);
    let (mut m, mut e) = (n, -t);
    if e.rem_euclid(2) != 0 {
        m <<= 1usize;
        e -= 1;
    }
    // choose k with s = isqrt(m·4^k) of at least precision + 3 bits
    let want = 2 * (f.precision() as i64 + 3);
    let k = ((want - m.bits() as i64).max(0) + 1) / 2;
    let scaled = &m << (2 * k) as usize;
    let s = scaled.sqrt();
    let exact = &s * &s == scaled;
    let (num, exp) = if exact {
        (s, e / 2 - k)
    } else {
        ((s << 1usize) + BigInt::one(), e / 2 - k - 1)
    };
    if exp >= 0 {
        Rational::from_integer(num << exp as usize)
    } else {
        Rational::new(num, BigInt::one() << (-exp) as usize)
    }
}

/// `x·y + z` with a single rounding in mode `rm` (IEEE fusedMultiplyAdd).
pub fn fma(f: FpFormat, rm: RoundingMode, x: u64, y: u64, z: u64) -> u64 {
    let ps = f.is_negative(x) != f.is_negative(y);
    let (cx, cy, cz) = (classify(f, x), classify(f, y), classify(f, z));
    if matches!(cx, Cls::Nan) || matches!(cy, Cls::Nan) || matches!(cz, Cls::Nan) {
        return f.nan_bits();
    }
    // the exact product, as a class
    let prod = match (cx, cy) {
        (Cls::Inf(_), Cls::Zero(_)) | (Cls::Zero(_), Cls::Inf(_)) => return f.nan_bits(),
        (Cls::Inf(_), _) | (_, Cls::Inf(_)) => Cls::Inf(ps),
        (Cls::Zero(_), _) | (_, Cls::Zero(_)) => Cls::Zero(ps),
        (Cls::Num(a), Cls::Num(b)) => Cls::Num(a * b),
        _ => unreachable!("NaN handled above"),
    };
    match (prod, cz) {
        (Cls::Inf(a), Cls::Inf(b)) => {
            if a == b {
                inf(f, a)
            } else {
                f.nan_bits()
            }
        }
        (Cls::Inf(a), _) | (_, Cls::Inf(a)) => inf(f, a),
        (Cls::Zero(a), Cls::Zero(b)) => {
            if a == b {
                zero(f, a)
            } else {
                exact_zero_sum(f, rm)
            }
        }
        (Cls::Zero(_), Cls::Num(_)) => z,
        (Cls::Num(p), Cls::Zero(_)) => round_nonzero(f, rm, &p),
        (Cls::Num(p), Cls::Num(c)) => {
            let s = p + c;
            if s.is_zero() {
                exact_zero_sum(f, rm)
            } else {
                round_nonzero(f, rm, &s)
            }
        }
        _ => unreachable!("NaN handled above"),
    }
}

/// Conversion between formats (`to_fp32`/`to_fp64` of a float), rounding in mode `rm`.
pub fn convert(from: FpFormat, to: FpFormat, rm: RoundingMode, x: u64) -> u64 {
    match classify(from, x) {
        Cls::Nan => to.nan_bits(),
        Cls::Inf(s) => inf(to, s),
        Cls::Zero(s) => zero(to, s),
        Cls::Num(q) => round_nonzero(to, rm, &q),
    }
}

/// A rational (an integer, a real, a machine integer's value) rounded into format `f`;
/// zero becomes `+0`.
pub fn from_rational(f: FpFormat, rm: RoundingMode, q: &Rational) -> u64 {
    f.round_rational(q, rm)
}

/// C's cast to an integer: truncation toward zero; `None` for NaN and infinities (the caller
/// checks the target type's range).
pub fn to_integer_trunc(f: FpFormat, x: u64) -> Option<BigInt> {
    f.to_rational(x).map(|q| q.trunc().to_integer())
}

/// The IEEE order of two floats: `None` if either is NaN; `-0` equals `+0`.
pub fn compare(f: FpFormat, x: u64, y: u64) -> Option<Ordering> {
    if f.is_nan(x) || f.is_nan(y) {
        return None;
    }
    Some(ord_key(f, x).cmp(&ord_key(f, y)))
}

/// IEEE `x < y` (false with a NaN).
pub fn lt(f: FpFormat, x: u64, y: u64) -> bool {
    compare(f, x, y) == Some(Ordering::Less)
}

/// IEEE `x <= y` (false with a NaN).
pub fn le(f: FpFormat, x: u64, y: u64) -> bool {
    matches!(compare(f, x, y), Some(Ordering::Less | Ordering::Equal))
}

/// IEEE `x == y` (C `==`): false with a NaN, `-0 == +0`.
pub fn eq(f: FpFormat, x: u64, y: u64) -> bool {
    compare(f, x, y) == Some(Ordering::Equal)
}

/// Identity (SMT-LIB `=`): every NaN is the same value, `-0` and `+0` differ.
pub fn same(f: FpFormat, x: u64, y: u64) -> bool {
    if f.is_nan(x) || f.is_nan(y) {
        return f.is_nan(x) && f.is_nan(y);
    }
    x == y
}

/// The total order used by `fmin`/`fmax`: IEEE order with `-0 < +0`.
fn min_max_cmp(f: FpFormat, x: u64, y: u64) -> Ordering {
    ord_key(f, x)
        .cmp(&ord_key(f, y))
        .then_with(|| f.is_negative(y).cmp(&f.is_negative(x)))
}

/// minNum: a NaN operand is ignored; `fmin(-0, +0) = -0`.
pub fn min(f: FpFormat, x: u64, y: u64) -> u64 {
    match (f.is_nan(x), f.is_nan(y)) {
        (true, true) => f.nan_bits(),
        (true, false) => y,
        (false, true) => x,
        (false, false) => {
            if min_max_cmp(f, x, y) == Ordering::Greater {
                y
            } else {
                x
            }
        }
    }
}

/// maxNum: a NaN operand is ignored; `fmax(-0, +0) = +0`.
pub fn max(f: FpFormat, x: u64, y: u64) -> u64 {
    match (f.is_nan(x), f.is_nan(y)) {
        (true, true) => f.nan_bits(),
        (true, false) => y,
        (false, true) => x,
        (false, false) => {
            if min_max_cmp(f, x, y) == Ordering::Less {
                y
            } else {
                x
            }
        }
    }
}

pub fn is_zero(f: FpFormat, x: u64) -> bool {
    x & !sign_mask(f) == 0
}

/// Non-zero with the smallest exponent field (gradual underflow).
pub fn is_subnormal(f: FpFormat, x: u64) -> bool {
    let mag = x & !sign_mask(f);
    mag != 0 && mag >> (f.precision() - 1) == 0
}

/// Finite, non-zero, not subnormal.
pub fn is_normal(f: FpFormat, x: u64) -> bool {
    !f.is_nan(x) && !f.is_inf(x) && !is_zero(f, x) && !is_subnormal(f, x)
}

/// The sign bit of a non-NaN value (`isneg(-0)` holds); false for NaN, as SMT-LIB's
/// `fp.isNegative`.
pub fn is_neg(f: FpFormat, x: u64) -> bool {
    !f.is_nan(x) && f.is_negative(x)
}

/// A key that orders non-NaN floats by value: `key(x) < key(y)` iff `x < y`, both zeros map
/// to 0, `±inf` to the ends. Consecutive floats have consecutive keys (except that the two
/// zeros share one), so the key counts floats; contractors search the float lattice on it.
pub fn ord_key(f: FpFormat, x: u64) -> i64 {
    debug_assert!(!f.is_nan(x));
    let mag = (x & !sign_mask(f)) as i64;
    if f.is_negative(x) {
        -mag
    } else {
        mag
    }
}

/// The float with key `k` (`+0` for 0); `k` must lie within `±key(+inf)`.
pub fn from_ord_key(f: FpFormat, k: i64) -> u64 {
    debug_assert!(k.unsigned_abs() <= f.inf_bits());
    if k < 0 {
        sign_mask(f) | k.unsigned_abs()
    } else {
        k as u64
    }
}

/// The next float above `x` by value (`+inf` stays); both zeros go to the smallest
/// positive subnormal.
pub fn next_up(f: FpFormat, x: u64) -> u64 {
    let k = ord_key(f, x);
    if k == f.inf_bits() as i64 {
        x
    } else {
        from_ord_key(f, k + 1)
    }
}

/// The next float below `x` by value (`-inf` stays).
pub fn next_down(f: FpFormat, x: u64) -> u64 {
    let k = ord_key(f, x);
    if k == -(f.inf_bits() as i64) {
        x
    } else {
        from_ord_key(f, k - 1)
    }
}

/// The value of a float as an `f64` (exact: every binary32 value is a binary64 value).
pub fn to_f64(f: FpFormat, x: u64) -> f64 {
    match f {
        FpFormat::F64 => f64::from_bits(x),
        FpFormat::F32 => f32::from_bits(x as u32) as f64,
    }
}

/// The bits of an `f64` value in format `f`, if it is a float of that format (NaN maps to
/// the canonical NaN).
pub fn from_f64(f: FpFormat, v: f64) -> Option<u64> {
    if v.is_nan() {
        return Some(f.nan_bits());
    }
    match f {
        FpFormat::F64 => Some(v.to_bits()),
        FpFormat::F32 => {
            let s = v as f32;
            (s as f64 == v).then_some(s.to_bits() as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use RoundingMode::*;

    const F: FpFormat = FpFormat::F64;

    fn b(x: f64) -> u64 {
        x.to_bits()
    }
    fn v(x: u64) -> f64 {
        f64::from_bits(x)
    }
    fn same_f64(got: u64, want: f64) -> bool {
        if want.is_nan() {
            F.is_nan(got)
        } else {
            got == want.to_bits()
        }
    }

    const SPECIAL: [f64; 16] = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.1,
        -2.5,
        3.0,
        1e308,
        -1e308,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];

    /// Round to nearest even is what the hardware computes: the exact path must agree on all
    /// pairs of special values.
    #[test]
    fn nearest_even_matches_hardware_on_special_values() {
        for &x in &SPECIAL {
            for &y in &SPECIAL {
                assert!(same_f64(add(F, Rne, b(x), b(y)), x + y), "{x} + {y}");
                assert!(same_f64(sub(F, Rne, b(x), b(y)), x - y), "{x} - {y}");
                assert!(same_f64(mul(F, Rne, b(x), b(y)), x * y), "{x} * {y}");
                assert!(same_f64(div(F, Rne, b(x), b(y)), x / y), "{x} / {y}");
                for &z in &SPECIAL {
                    assert!(
                        same_f64(fma(F, Rne, b(x), b(y), b(z)), x.mul_add(y, z)),
                        "fma({x}, {y}, {z})"
                    );
                }
            }
            assert!(same_f64(sqrt(F, Rne, b(x)), x.sqrt()), "sqrt {x}");
        }
    }

    #[test]
    fn paper_footnote_one() {
        // 1e20 + 1 = 1e20 in binary64
        assert_eq!(add(F, Rne, b(1e20), b(1.0)), b(1e20));
        assert_eq!(add(F, Rtp, b(1e20), b(1.0)), next_up(F, b(1e20)));
    }

    #[test]
    fn directed_rounding_brackets_and_signs_of_zero() {
        let (x, y) = (b(1.0), b(3.0));
        let lo = div(F, Rtn, x, y);
        let hi = div(F, Rtp, x, y);
        assert_eq!(next_up(F, lo), hi);
        assert_eq!(div(F, Rtz, x, y), lo);
        assert_eq!(div(F, Rtz, neg(F, x), y), neg(F, lo));
        // exact zero sums: +0, but -0 toward negative
        assert_eq!(sub(F, Rne, x, x), b(0.0));
        assert_eq!(sub(F, Rtn, x, x), b(-0.0));
        assert_eq!(add(F, Rtn, b(-0.0), b(0.0)), b(-0.0));
        assert_eq!(add(F, Rtp, b(-0.0), b(-0.0)), b(-0.0));
        // underflow keeps the sign
        assert_eq!(mul(F, Rne, b(-5e-324), b(0.25)), b(-0.0));
        assert_eq!(mul(F, Rtn, b(-5e-324), b(0.25)), b(-5e-324));
        // overflow depends on the direction
        assert_eq!(mul(F, Rtz, b(1e308), b(10.0)), b(f64::MAX));
        assert_eq!(mul(F, Rna, b(1e308), b(10.0)), b(f64::INFINITY));
        assert_eq!(mul(F, Rtn, b(1e308), b(10.0)), b(f64::MAX));
        assert_eq!(mul(F, Rtn, b(-1e308), b(10.0)), b(f64::NEG_INFINITY));
    }

    #[test]
    fn ties_away_differs_from_ties_even() {
        // 2^53 + 1 is a tie between 2^53 and 2^53 + 2
        let two53 = b(9007199254740992.0);
        assert_eq!(add(F, Rne, two53, b(1.0)), two53);
        assert_eq!(add(F, Rna, two53, b(1.0)), b(9007199254740994.0));
        // binary32: 1 + 2^-24 is a tie
        let f = FpFormat::F32;
        let one = 1.0f32.to_bits() as u64;
        let tiny = (2.0f32).powi(-24).to_bits() as u64;
        assert_eq!(add(f, Rne, one, tiny), one);
        assert_eq!(add(f, Rna, one, tiny), next_up(f, one));
    }

    #[test]
    fn sqrt_is_correctly_rounded() {
        assert_eq!(sqrt(F, Rne, b(4.0)), b(2.0));
        assert_eq!(sqrt(F, Rne, b(-0.0)), b(-0.0));
        assert!(F.is_nan(sqrt(F, Rne, b(-1.0))));
        let lo = sqrt(F, Rtn, b(2.0));
        let hi = sqrt(F, Rtp, b(2.0));
        assert_eq!(next_up(F, lo), hi);
        assert_eq!(v(sqrt(F, Rne, b(2.0))), 2f64.sqrt());
        // subnormal input
        assert_eq!(v(sqrt(F, Rne, b(5e-324))), 5e-324f64.sqrt());
        let f = FpFormat::F32;
        assert_eq!(
            sqrt(f, Rne, 2.0f32.to_bits() as u64),
            2f32.sqrt().to_bits() as u64
        );
    }

    #[test]
    fn comparisons_identity_and_min_max() {
        let nan = F.nan_bits();
        assert!(!lt(F, nan, b(1.0)) && !le(F, nan, nan) && !eq(F, nan, nan));
        assert!(same(F, nan, nan) && !same(F, b(0.0), b(-0.0)));
        assert!(eq(F, b(0.0), b(-0.0)) && le(F, b(-0.0), b(0.0)));
        assert_eq!(min(F, b(0.0), b(-0.0)), b(-0.0));
        assert_eq!(max(F, b(-0.0), b(0.0)), b(0.0));
        assert_eq!(min(F, nan, b(2.0)), b(2.0));
        assert_eq!(max(F, b(2.0), nan), b(2.0));
        assert!(F.is_nan(min(F, nan, nan)));
    }

    #[test]
    fn conversions() {
        let f = FpFormat::F32;
        assert_eq!(convert(F, f, Rne, b(0.1)), 0.1f32.to_bits() as u64);
        assert_eq!(convert(F, f, Rtz, b(1e300)), f32::MAX.to_bits() as u64);
        assert_eq!(convert(F, f, Rne, b(-0.0)), (-0.0f32).to_bits() as u64);
        assert_eq!(
            convert(f, F, Rne, 0.1f32.to_bits() as u64),
            b(0.1f32 as f64)
        );
        assert_eq!(to_integer_trunc(F, b(-2.7)), Some(BigInt::from(-2)));
        assert_eq!(to_integer_trunc(F, b(f64::INFINITY)), None);
    }

    #[test]
    fn keys_count_floats() {
        assert_eq!(ord_key(F, b(0.0)), 0);
        assert_eq!(ord_key(F, b(-0.0)), 0);
        assert_eq!(next_up(F, b(-0.0)), b(5e-324));
        assert_eq!(next_down(F, b(0.0)), b(-5e-324));
        assert_eq!(next_up(F, b(f64::MAX)), b(f64::INFINITY));
        assert_eq!(next_up(F, b(f64::INFINITY)), b(f64::INFINITY));
        assert_eq!(next_down(F, b(-5e-324)), b(-1e-323));
        for x in [-1.5, -5e-324, 0.0, 1.0, f64::MAX] {
            assert_eq!(from_ord_key(F, ord_key(F, b(x))), b(x));
            assert!(v(next_up(F, b(x))) > x);
        }
        assert!(is_subnormal(F, b(5e-324)) && !is_subnormal(F, b(0.0)));
        assert!(is_normal(F, b(f64::MIN_POSITIVE)) && !is_normal(F, b(f64::INFINITY)));
        assert!(is_neg(F, b(-0.0)) && !is_neg(F, F.nan_bits()));
    }
}
