//! Exact IEEE-754 binary32/binary64 operations in all five rounding modes (language doc
//! Part B.2), on raw bit patterns (`u64`; binary32 in the low 32 bits).
//!
//! The idea: every operation is "compute the exact real result, then round it once", as IEEE
//! 754-2008 §4.3 defines it. Two implementations of that, behind one set of functions:
//! - [`exact`], the *exact path*: finite operands become big rationals, the result is rounded
//!   by [`FpFormat::round_rational`], and the special cases (NaN, infinities, signed zeros)
//!   follow the standard's tables. Slow (big-integer arithmetic, ~5–20 µs) but obviously
//!   right;
//! - [`fast`], the *fast path*: native binary64 arithmetic plus error-free transformations
//!   (tens of millions of operations per second), for the cases where its proof applies
//!   (finite non-zero operands, results away from overflow and from the subnormal range);
//!   it declines the rest.
//!
//! The public functions ([`add`], [`mul`], ...) try the fast path and fall back to the exact
//! one; the contractors and the model validator use them. Both are checked bit for bit
//! against an independent MPFR reference (`num::ieee_ref`, compiled for tests and with the
//! `reference` feature; the `ieee_diff` example runs millions of inputs).
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

/// `fp_bits(x)`: the IEEE-754 encoding of `x` as an unsigned pattern of the format's width.
/// Floats are already their encodings, except that there is one NaN value: every NaN gives
/// the canonical quiet NaN pattern (`0x7fc00000`, `0x7ff8000000000000`).
pub fn to_bits(f: FpFormat, x: u64) -> u64 {
    if f.is_nan(x) {
        return f.nan_bits();
    }
    x
}

/// `fpNN_of_bits(u)`: the float encoded by the low `f.total_bits()` bits of `u` (higher bits
/// are ignored, so a sign-extended signed pattern works too); every NaN pattern gives NaN
/// (returned canonical).
pub fn of_bits(f: FpFormat, u: u64) -> u64 {
    let u = if f.total_bits() == 64 {
        u
    } else {
        u & ((1u64 << f.total_bits()) - 1)
    };
    to_bits(f, u)
}

/// `x + y` rounded in mode `rm`.
pub fn add(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> u64 {
    fast::add(f, rm, x, y).unwrap_or_else(|| exact::add(f, rm, x, y))
}

/// `x - y` rounded in mode `rm` (= `x + (-y)`, also for signed zeros).
pub fn sub(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> u64 {
    add(f, rm, x, neg(f, y))
}

/// `x · y` rounded in mode `rm`.
pub fn mul(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> u64 {
    fast::mul(f, rm, x, y).unwrap_or_else(|| exact::mul(f, rm, x, y))
}

/// `x / y` rounded in mode `rm`.
pub fn div(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> u64 {
    fast::div(f, rm, x, y).unwrap_or_else(|| exact::div(f, rm, x, y))
}

/// `√x` rounded in mode `rm`; `√(-0) = -0`, NaN for negative `x`.
pub fn sqrt(f: FpFormat, rm: RoundingMode, x: u64) -> u64 {
    fast::sqrt(f, rm, x).unwrap_or_else(|| exact::sqrt(f, rm, x))
}

/// `x·y + z` with a single rounding in mode `rm` (IEEE fusedMultiplyAdd).
pub fn fma(f: FpFormat, rm: RoundingMode, x: u64, y: u64, z: u64) -> u64 {
    fast::fma(f, rm, x, y, z).unwrap_or_else(|| exact::fma(f, rm, x, y, z))
}

/// Conversion between formats (`to_fp32`/`to_fp64` of a float), rounding in mode `rm`.
pub fn convert(from: FpFormat, to: FpFormat, rm: RoundingMode, x: u64) -> u64 {
    fast::convert(from, to, rm, x).unwrap_or_else(|| exact::convert(from, to, rm, x))
}

/// The fast path: native binary64 arithmetic (IEEE round-to-nearest-even on x86-64 SSE2)
/// plus error-free transformations that give the exact result's position relative to the
/// nearest-even result; one step along the float lattice then gives the directed modes,
/// and an exact tie test gives ties-to-away. Each function returns `None` where its proof
/// does not apply (specials, results near overflow or underflow, ...); the caller then
/// uses [`exact`]. The proofs are sketched at each function; the differential tests
/// (`num::ieee_ref`, the `ieee_diff` example) check them against MPFR.
///
/// Facts used (Handbook of Floating-Point Arithmetic, Muller et al., ch. 4–5):
/// - TwoSum (Knuth): for floats `a`, `b` and `s = RN(a + b)`, the six-operation sequence
///   below yields `e` with `s + e = a + b` exactly, provided no operation overflows
///   (underflow is harmless: sums and differences of floats are exact when subnormal).
/// - Product error: `ab - RN(ab)` is a float when `e_a + e_b ≥ e_min + p - 1`, and then
///   `fma(a, b, -RN(ab))` returns it exactly (a correctly rounded fma of a representable
///   value is exact). `f64::mul_add` is a correctly rounded fma (the FMA instruction, or
///   glibc's correctly rounded software `fma` on targets without it).
/// - Division and square-root remainders: for `q = RN(a/b)`, `a - qb` is a float, and for
///   `q = RN(√a)`, `a - q²` is a float, barring underflow (Boldo & Daumas, "Representable
///   correcting terms for possibly underflowing floating point operations", ARITH 2003);
///   so `fma(-q, b, a)` and `fma(-q, q, a)` are exact.
/// - A midpoint `m` between two adjacent normal binary64 values has an odd part of 54 bits;
///   `a/b = m` would make the odd part of `a` (odd part of `m`) · (odd part of `b`) at least
///   2^53, too many bits for a float, and `√a = m` would make it that of `m²` (≥ 107 bits).
///   So outside the subnormal range (where midpoints can have few bits), RNA = RNE for `/`
///   and `√`.
pub mod fast {
    use super::{FpFormat, RoundingMode};
    use std::cmp::Ordering;
    use RoundingMode::*;

    /// 2^-968: products, quotients and roots at least this large keep their error terms
    /// above binary64's subnormal quantum 2^-1074 (see each function).
    const TINY: f64 = f64::from_bits((1023 - 968) << 52);
    /// 2^-960: the smallest dividend / radicand handled, for the same reason.
    const TINY_OPERAND: f64 = f64::from_bits((1023 - 960) << 52);
    /// 2^1020: operands of TwoSum below this cannot overflow in any of its six steps.
    const BIG: f64 = f64::from_bits((1023 + 1020) << 52);

    /// The next binary64 above a non-NaN `x` (from ±0: the smallest subnormal).
    fn up64(x: f64) -> f64 {
        let b = x.to_bits();
        if x == 0.0 {
            f64::from_bits(1)
        } else if b >> 63 == 0 {
            f64::from_bits(b + 1)
        } else {
            f64::from_bits(b - 1)
        }
    }

    fn down64(x: f64) -> f64 {
        -up64(-x)
    }

    /// `s + e = a + b` exactly (TwoSum); `|a|, |b| < 2^1020` so nothing overflows.
    fn two_sum(a: f64, b: f64) -> (f64, f64) {
        let s = a + b;
        let bb = s - a;
        let e = (a - (s - bb)) + (b - bb);
        (s, e)
    }

    /// The correctly rounded result in mode `rm`, given `s = RN(v)` (non-zero, finite) of an
    /// exact value `v`, the side of `s` on which `v` lies (`Greater`: `v > s`), and whether
    /// `v` is exactly the midpoint between `s` and its neighbour on that side.
    ///
    /// `v` lies strictly between `s` and that neighbour `n` (RN is within half a gap), so
    /// RTP/RTN/RTZ pick `s` or `n` by direction; on a tie RNE picked the even one of the two,
    /// RNA takes the one of larger magnitude; off a tie both nearest modes agree with `s`.
    /// If `s` is ±max and `v` beyond it, `n` is ±inf: the IEEE overflow result of RTP/RTN.
    fn adjust64(rm: RoundingMode, s: f64, side: Ordering, tie: bool) -> f64 {
        debug_assert!(s != 0.0 && s.is_finite());
        let n = match side {
            Ordering::Equal => return s,
            Ordering::Greater => up64(s),
            Ordering::Less => down64(s),
        };
        match rm {
            Rne => s,
            Rna => {
                if tie && n.abs() > s.abs() {
                    n
                } else {
                    s
                }
            }
            Rtp => {
                if side == Ordering::Greater {
                    n
                } else {
                    s
                }
            }
            Rtn => {
                if side == Ordering::Less {
                    n
                } else {
                    s
                }
            }
            // toward zero: n when v is nearer zero than s, i.e. v on the zero side of s
            Rtz => {
                if (side == Ordering::Less) == (s > 0.0) {
                    n
                } else {
                    s
                }
            }
        }
    }

    /// The side and tie test from an exact error term `e = v - s`: a tie iff `2e` is the
    /// gap `n - s` to the neighbour on `e`'s side (both exact: `n - s` is one ulp of
    /// adjacent floats, `2e` is tiny; if `n` is ±inf the gap is not finite: no tie, and the
    /// tie at max + half an ulp cannot occur because RN would have overflowed).
    fn adjust64_err(rm: RoundingMode, s: f64, e: f64) -> f64 {
        let side = e.partial_cmp(&0.0).expect("finite error");
        let tie = rm == Rna && side != Ordering::Equal && {
            let n = if e > 0.0 { up64(s) } else { down64(s) };
            n - s == 2.0 * e
        };
        adjust64(rm, s, side, tie)
    }

    /// Finite and non-zero.
    fn regular(x: f64) -> bool {
        x.is_finite() && x != 0.0
    }

    /// `a + b` for finite non-zero `|a|, |b| < 2^1020`: TwoSum is exact (no overflow), and
    /// `|s| ≤ 2^1021` so `s` is not ±inf. `s = 0` only on exact cancellation (`a = -b`; a
    /// sum that rounds to zero is exact), whose sign is fixed by §6.3.
    fn add64(rm: RoundingMode, a: f64, b: f64) -> Option<f64> {
        if !(regular(a) && regular(b) && a.abs() < BIG && b.abs() < BIG) {
            return None;
        }
        let (s, e) = two_sum(a, b);
        if s == 0.0 {
            return Some(if rm == Rtn { -0.0 } else { 0.0 });
        }
        Some(adjust64_err(rm, s, e))
    }

    /// `a · b` when `2^-968 ≤ |p| ≤ max` for `p = RN(ab)`: `p` is normal, so it is the
    /// unbounded-exponent rounding. With `a = A·2^α`, `b = B·2^β` (integers `A, B < 2^53`),
    /// either `AB < 2^53` and the product is exact (error 0), or `p`'s ulp `2^(e_p - 52)` is
    /// at least `2^(α+β)`; so the error `ab - p` is a multiple of `2^(α+β)` below half an ulp
    /// of `p`, i.e. at most 52 significant bits, and `α + β ≥ e_p - 106 ≥ -1074` (`AB <
    /// 2^106`; rounding may lift `p` one binade) puts it on binary64's grid: a float, which
    /// the fma returns exactly.
    fn mul64(rm: RoundingMode, a: f64, b: f64) -> Option<f64> {
        if !(regular(a) && regular(b)) {
            return None;
        }
        let p = a * b;
        if !(p.abs() >= TINY && p.is_finite()) {
            return None;
        }
        if rm == Rne {
            return Some(p);
        }
        let e = a.mul_add(b, -p);
        Some(adjust64_err(rm, p, e))
    }

    /// `a / b` when `|a| ≥ 2^-960` and `2^-968 ≤ |q| ≤ max`: the remainder `r = a - qb` is
    /// a float (Boldo–Daumas; it is a multiple of the quanta of `q·b`, at least
    /// `2^(e_q + e_b - 104) ≥ 2^(e_a - 106) ≥ 2^-1066`), so the fma returns it exactly, and
    /// `a/b - q = r/b` has the sign of `r·b`. `q` is normal: no tie (module doc).
    fn div64(rm: RoundingMode, a: f64, b: f64) -> Option<f64> {
        if !(regular(a) && regular(b) && a.abs() >= TINY_OPERAND) {
            return None;
        }
        let q = a / b;
        if !(q.abs() >= TINY && q.is_finite()) {
            return None;
        }
        if rm == Rne || rm == Rna {
            return Some(q);
        }
        let r = (-q).mul_add(b, a);
        let side = if r == 0.0 {
            Ordering::Equal
        } else if (r > 0.0) == (b > 0.0) {
            Ordering::Greater
        } else {
            Ordering::Less
        };
        Some(adjust64(rm, q, side, false))
    }

    /// `√a` for finite `a ≥ 2^-960`: `q = RN(√a)` is normal, `r = a - q²` is a float (its
    /// quantum is at least `2^(2e_q - 104) ≥ 2^-1066`), and `√a - q = r / (√a + q)` has the
    /// sign of `r`. No tie (module doc).
    fn sqrt64(rm: RoundingMode, a: f64) -> Option<f64> {
        if !(a.is_finite() && a >= TINY_OPERAND) {
            return None;
        }
        let q = a.sqrt();
        if rm == Rne || rm == Rna {
            return Some(q);
        }
        let r = (-q).mul_add(q, a);
        let side = r.partial_cmp(&0.0).expect("finite remainder");
        Some(adjust64(rm, q, side, false))
    }

    /// Adds `b` to the nonoverlapping expansion `e[..len]` (components in increasing
    /// magnitude, summing exactly to the value; Shewchuk's Grow-Expansion with zero
    /// elimination, "Adaptive precision floating-point arithmetic", 1997). Exact while no
    /// TwoSum overflows; the sign of the value is the sign of the last component.
    fn grow(e: &mut [f64; 6], len: &mut usize, b: f64) {
        let mut q = b;
        let mut k = 0;
        for i in 0..*len {
            let (s, err) = two_sum(q, e[i]);
            if err != 0.0 {
                e[k] = err;
                k += 1;
            }
            q = s;
        }
        if q != 0.0 {
            e[k] = q;
            k += 1;
        }
        *len = k;
    }

    /// `fma(a, b, c)` for finite non-zero operands. `s` = the native fused multiply-add,
    /// correctly rounded to nearest even; RNE takes it when it is normal (no subnormal or
    /// overflow range, no zero sign rules). The other modes need the side of the exact
    /// `v = ab + c` relative to `s`: with `p = RN(ab)` and its exact error `pe` (as in
    /// `mul64`, `|p| ≥ 2^-968`), `v - s = p + pe + c - s` exactly, a sum of four floats whose
    /// sign an expansion gives exactly (all magnitudes below 2^1020: no TwoSum overflows).
    /// RNA's tie test adds minus half the gap to `s`'s neighbour on that side (exact: `|s|
    /// ≥ 2^-968`, so the gap is at least 2^-1020) and asks for zero.
    fn fma64(rm: RoundingMode, a: f64, b: f64, c: f64) -> Option<f64> {
        if !(regular(a) && regular(b) && regular(c)) {
            return None;
        }
        let s = a.mul_add(b, c);
        if rm == Rne {
            return (s.is_finite() && s.abs() >= f64::MIN_POSITIVE).then_some(s);
        }
        let p = a * b;
        if !(s.abs() >= TINY && s.abs() < BIG && p.abs() >= TINY && p.abs() < BIG && c.abs() < BIG)
        {
            return None;
        }
        let pe = a.mul_add(b, -p);
        let mut e = [0.0; 6];
        let mut n = 0;
        for t in [p, pe, c, -s] {
            grow(&mut e, &mut n, t);
        }
        let side = if n == 0 {
            Ordering::Equal
        } else {
            sign_of(e[n - 1])
        };
        let tie = rm == Rna && side != Ordering::Equal && {
            let nb = if side == Ordering::Greater {
                up64(s)
            } else {
                down64(s)
            };
            nb.is_finite() && {
                grow(&mut e, &mut n, -(nb - s) / 2.0);
                n == 0
            }
        };
        Some(adjust64(rm, s, side, tie))
    }

    /// Rounds into binary32 an exact value `v` given as `hi = RN64(v)` (a non-zero finite
    /// double) and the sign of `v - hi` (`|v - hi| ≤` half an ulp of `hi` in binary64).
    ///
    /// `r = RN32(hi)` by the hardware conversion; `d = hi - r` is exact (Sterbenz: `hi`
    /// lies within half a binary32 gap of `r`, so within `[r/2, 2r]`, also for subnormal
    /// `r`). `v` is on the side of `r` given by `d` (or by `t` when `d = 0`), strictly
    /// inside the gap to the neighbour `n` there. Since `d` is a multiple of `hi`'s binary64
    /// ulp and `|v - hi|` at most half of it, `|v - r|` compares with the half gap as `|d|`
    /// does, except when `|d|` is exactly the half gap: then `v` is a tie if `t = 0`, past
    /// the midpoint (nearest: `n`) if `t` points away from `r`, before it (nearest: `r`)
    /// otherwise. Declines when `r` is 0, ±inf or ±max (whose neighbour is infinite).
    fn round_to_f32(rm: RoundingMode, hi: f64, t: Ordering) -> Option<f32> {
        let r = hi as f32;
        if r == 0.0 || r.abs() >= f32::MAX {
            return None;
        }
        let d = hi - r as f64;
        let side = match d.partial_cmp(&0.0).expect("finite") {
            Ordering::Equal => t,
            o => o,
        };
        let rb = r.to_bits();
        let n = match side {
            Ordering::Equal => return Some(r),
            // one step up / down in value on the bit patterns (r is not 0, inf or max)
            Ordering::Greater => f32::from_bits(if r > 0.0 { rb + 1 } else { rb - 1 }),
            Ordering::Less => f32::from_bits(if r > 0.0 { rb - 1 } else { rb + 1 }),
        };
        let toward_n = |b: bool| if b { n } else { r };
        Some(match rm {
            Rtp => toward_n(side == Ordering::Greater),
            Rtn => toward_n(side == Ordering::Less),
            Rtz => toward_n((side == Ordering::Less) == (r > 0.0)),
            Rne | Rna => {
                let half = (n as f64 - r as f64).abs() / 2.0; // exact: binary32 values
                match d.abs().partial_cmp(&half).expect("finite") {
                    Ordering::Less => r,
                    Ordering::Greater => return None, // impossible: r = RN32(hi)
                    Ordering::Equal => {
                        if t == Ordering::Equal {
                            // a tie: the hardware took the even one, which is r
                            if rm == Rne || r.abs() > n.abs() {
                                r
                            } else {
                                n
                            }
                        } else {
                            // t and d point the same way: past the midpoint
                            let past = (t == Ordering::Greater) == (d > 0.0);
                            toward_n(past)
                        }
                    }
                }
            }
        })
    }

    fn sign_of(x: f64) -> Ordering {
        x.partial_cmp(&0.0).expect("finite")
    }

    fn f32_of(x: u64) -> f64 {
        f32::from_bits(x as u32) as f64
    }
    fn bits32(r: Option<f32>) -> Option<u64> {
        r.map(|v| v.to_bits() as u64)
    }

    // binary32 operations run in binary64, where their operands' exponents (2^-149 ..
    // 2^128) are far from binary64's overflow and underflow: sums are TwoSum-exact, products
    // of two 24-bit significands are exact, quotient and root remainders are exact.

    fn add32(rm: RoundingMode, a: f64, b: f64) -> Option<u64> {
        if !(regular(a) && regular(b)) {
            return None;
        }
        let (s, e) = two_sum(a, b);
        if s == 0.0 {
            return Some(if rm == Rtn { 0x8000_0000 } else { 0 });
        }
        bits32(round_to_f32(rm, s, sign_of(e)))
    }

    fn mul32(rm: RoundingMode, a: f64, b: f64) -> Option<u64> {
        if !(regular(a) && regular(b)) {
            return None;
        }
        bits32(round_to_f32(rm, a * b, Ordering::Equal))
    }

    fn div32(rm: RoundingMode, a: f64, b: f64) -> Option<u64> {
        if !(regular(a) && regular(b)) {
            return None;
        }
        let q = a / b;
        let r = (-q).mul_add(b, a);
        let t = if r == 0.0 {
            Ordering::Equal
        } else if (r > 0.0) == (b > 0.0) {
            Ordering::Greater
        } else {
            Ordering::Less
        };
        bits32(round_to_f32(rm, q, t))
    }

    fn sqrt32(rm: RoundingMode, a: f64) -> Option<u64> {
        if !(a.is_finite() && a > 0.0) {
            return None;
        }
        let q = a.sqrt();
        let r = (-q).mul_add(q, a);
        bits32(round_to_f32(rm, q, sign_of(r)))
    }

    /// The product is exact in binary64 (48 bits); TwoSum of it and `c` is exact.
    fn fma32(rm: RoundingMode, a: f64, b: f64, c: f64) -> Option<u64> {
        if !(regular(a) && regular(b) && regular(c)) {
            return None;
        }
        let (s, e) = two_sum(a * b, c);
        if s == 0.0 {
            return None;
        }
        bits32(round_to_f32(rm, s, sign_of(e)))
    }

    /// C's truncation of a finite value below 2^63 in magnitude: `trunc` is exact and the
    /// truncated value is an integer that `as i64` converts exactly.
    pub fn trunc_i64(f: FpFormat, x: u64) -> Option<i64> {
        let v = match f {
            FpFormat::F64 => f64::from_bits(x),
            FpFormat::F32 => f32_of(x),
        };
        (v.abs() < 9_223_372_036_854_775_808.0).then(|| v.trunc() as i64)
    }

    pub fn add(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> Option<u64> {
        match f {
            FpFormat::F64 => add64(rm, f64::from_bits(x), f64::from_bits(y)).map(f64::to_bits),
            FpFormat::F32 => add32(rm, f32_of(x), f32_of(y)),
        }
    }

    pub fn mul(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> Option<u64> {
        match f {
            FpFormat::F64 => mul64(rm, f64::from_bits(x), f64::from_bits(y)).map(f64::to_bits),
            FpFormat::F32 => mul32(rm, f32_of(x), f32_of(y)),
        }
    }

    pub fn div(f: FpFormat, rm: RoundingMode, x: u64, y: u64) -> Option<u64> {
        match f {
            FpFormat::F64 => div64(rm, f64::from_bits(x), f64::from_bits(y)).map(f64::to_bits),
            FpFormat::F32 => div32(rm, f32_of(x), f32_of(y)),
        }
    }

    pub fn sqrt(f: FpFormat, rm: RoundingMode, x: u64) -> Option<u64> {
        match f {
            FpFormat::F64 => sqrt64(rm, f64::from_bits(x)).map(f64::to_bits),
            FpFormat::F32 => sqrt32(rm, f32_of(x)),
        }
    }

    pub fn fma(f: FpFormat, rm: RoundingMode, x: u64, y: u64, z: u64) -> Option<u64> {
        match f {
            FpFormat::F64 => {
                fma64(rm, f64::from_bits(x), f64::from_bits(y), f64::from_bits(z)).map(f64::to_bits)
            }
            FpFormat::F32 => fma32(rm, f32_of(x), f32_of(y), f32_of(z)),
        }
    }

    /// binary32 → binary64 is exact (NaN: the canonical NaN); binary64 → binary32 rounds a
    /// finite non-zero value with `t = 0`.
    pub fn convert(from: FpFormat, to: FpFormat, rm: RoundingMode, x: u64) -> Option<u64> {
        match (from, to) {
            (FpFormat::F32, FpFormat::F64) => {
                let v = f32_of(x);
                Some(if v.is_nan() {
                    to.nan_bits()
                } else {
                    v.to_bits()
                })
            }
            (FpFormat::F64, FpFormat::F32) => {
                let v = f64::from_bits(x);
                if !regular(v) {
                    return None;
                }
                bits32(round_to_f32(rm, v, Ordering::Equal))
            }
            _ => None,
        }
    }
}

/// The exact path: every operation computed as the exact rational result rounded once by
/// [`FpFormat::round_rational`]. The public functions of this module's parent use it where
/// the fast path does not apply; tests compare the two and an independent reference.
pub mod exact {
    use super::*;

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

    /// C's truncating cast via the exact rational value.
    pub fn to_integer_trunc(f: FpFormat, x: u64) -> Option<BigInt> {
        f.to_rational(x).map(|q| q.trunc().to_integer())
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
    match fast::trunc_i64(f, x) {
        Some(v) => Some(BigInt::from(v)),
        None => exact::to_integer_trunc(f, x),
    }
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

    #[test]
    fn bit_reinterpretation_matches_rust() {
        let f = FpFormat::F32;
        for v in [
            0.0f32,
            -0.0,
            1.5,
            -2.25,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
        ] {
            let b = v.to_bits() as u64;
            assert_eq!(to_bits(f, b), b);
            assert_eq!(of_bits(f, b), b);
        }
        assert_eq!(to_bits(f, 0xffc0_0001), 0x7fc0_0000);
        assert_eq!(of_bits(f, 0x7f80_0001), f.nan_bits());
        assert_eq!(
            of_bits(f, 0xffff_ffff_bf80_0000),
            (-1.0f32).to_bits() as u64
        );
        let d = FpFormat::F64;
        assert_eq!(
            to_bits(d, f64::NAN.to_bits() | 1 << 63),
            0x7ff8_0000_0000_0000
        );
        assert_eq!(to_bits(d, (-0.0f64).to_bits()), 1 << 63);
        assert_eq!(of_bits(d, 0x7ff0_0000_0000_0001), d.nan_bits());
    }

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
