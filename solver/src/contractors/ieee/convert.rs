//! Contractors for conversions: fp → fp (`to_fp32`/`to_fp64` of a float), real/int → fp
//! (`Op::ToFp` from a numeric variable), fp → int (`Op::FpToInt`, C truncation) and fp → real
//! (`Op::FpToReal`, the exact value).
//!
//! The idea: every conversion is monotone. fp → fp rounding keeps zero signs and infinities,
//! so it runs on the lattice engine with one piece ([`super::lattice`]). Rounding a real is
//! monotone in the total float order (a tiny negative real rounds to `-0` or a negative
//! subnormal, zero to `+0`): forward rounds the two ends; backward needs, for each float
//! `p`, the exact set `D(p) = {r : round(r) <= p}`, a half-line `(-inf, b)` or `(-inf, b]`
//! whose end `b` is a float (directed modes) or the midpoint between `p` and its successor
//! (nearest modes; a tie goes to the even neighbour, or away from zero), with the overflow
//! threshold `max + ulp/2` as the midpoint to a virtual `2^(emax+1)`. Then the reals rounding
//! into `[zl, zh]` are `D(zh) \ D(pred zl)`, rounded outward into an [`Interval`].
//! Truncation and the exact value are monotone too; NaN and infinities (and, for
//! truncation, out-of-range values, which the solver handles through the output's type
//! range) give an unspecified result, so whenever they are possible forward says nothing,
//! and backward keeps them as long as the output has any value at all.

use super::lattice::{bwd, float_at_least, float_at_most, fwd, key_hull, key_ninf, key_pinf};
use super::lattice::{from_tkey, key_val, tkey, Acc, Split};
use super::FpDom;
use crate::interval::Interval;
use crate::num::{ieee, FpFormat, Rational, RoundingMode};
use num_bigint::BigInt;
use num_traits::One;

/// Encloses `{convert(x)}` into format `to`.
pub fn fwd_convert(rm: RoundingMode, to: FpFormat, x: &FpDom) -> FpDom {
    let from = x.fmt;
    fwd(to, [x], [Split::Whole], |[a]| {
        ieee::convert(from, to, rm, a)
    })
}

/// The new domain of `x` in `z = convert(x)` (`z.fmt` is the target format).
pub fn bwd_convert_x(rm: RoundingMode, z: &FpDom, x: &FpDom) -> FpDom {
    let (from, to) = (x.fmt, z.fmt);
    bwd(
        z,
        [x],
        0,
        [Split::Whole],
        |[a]| ieee::convert(from, to, rm, a),
        |z, _| z,
    )
}

/// `2^(emax+1)`: the virtual float beyond the largest finite one, where rounding overflows.
fn beyond_max(f: FpFormat) -> Rational {
    Rational::from_integer(BigInt::one() << (f.emax() + 1) as usize)
}

/// A real far beyond the format's range on the side `neg` (rounds like `±inf` would).
fn huge(f: FpFormat, neg: bool) -> Rational {
    let h = beyond_max(f) * Rational::from_integer(BigInt::from(4));
    if neg {
        -h
    } else {
        h
    }
}

/// `r` rounded into `f` (an `f64` real, not NaN; infinite = beyond every float).
fn round_f64(f: FpFormat, rm: RoundingMode, r: f64) -> u64 {
    if r.is_infinite() {
        return ieee::from_rational(f, rm, &huge(f, r < 0.0));
    }
    if f == FpFormat::F64 {
        return (r + 0.0).to_bits(); // a double is a binary64 float; a real zero is +0
    }
    ieee::from_rational(f, rm, &Rational::from_float(r).expect("finite"))
}

/// Encloses `{round(r) : r ∈ a}` in format `to` (never NaN; zero rounds to `+0`).
pub fn fwd_round_real(rm: RoundingMode, to: FpFormat, a: Interval) -> FpDom {
    if a.is_empty() {
        return FpDom::empty(to);
    }
    let mut acc = Acc::new();
    acc.add_bits(to, round_f64(to, rm, a.lo()));
    acc.add_bits(to, round_f64(to, rm, a.hi()));
    acc.dom(to)
}

/// `D(p) = {r : round(r) <= p}` in the total order (`-0 < +0`).
enum Below {
    All,
    Nothing,
    /// `r < b` (open) or `r <= b`
    Up(Rational, bool),
}

/// The exact value of key `k` as a rational, `±2^(emax+1)` for the infinities.
fn key_rat(f: FpFormat, k: i64) -> Rational {
    if k == key_pinf(f) {
        beyond_max(f)
    } else if k == key_ninf(f) {
        -beyond_max(f)
    } else {
        f.to_rational(from_tkey(f, k)).expect("finite")
    }
}

fn below_set(f: FpFormat, rm: RoundingMode, p: i64) -> Below {
    use RoundingMode::*;
    let (ni, pi) = (key_ninf(f), key_pinf(f));
    if p == pi {
        return Below::All;
    }
    if p == -1 {
        // -0: exactly the negative reals that round to a zero or below (a real zero is +0)
        return Below::Up(Rational::from_integer(BigInt::from(0)), true);
    }
    let q = p + 1;
    match rm {
        // round down: round(r) <= p iff r < succ(p) (RTN never reaches +inf)
        Rtn => {
            if q == pi {
                Below::All
            } else {
                Below::Up(key_rat(f, q), true)
            }
        }
        // round up: round(r) <= p iff r <= p (RTP never reaches -inf)
        Rtp => {
            if p == ni {
                Below::Nothing
            } else {
                Below::Up(key_rat(f, p), false)
            }
        }
        // toward zero: down on the positive side, up on the negative side
        Rtz => {
            if p >= 0 {
                if q == pi {
                    Below::All
                } else {
                    Below::Up(key_rat(f, q), true)
                }
            } else if p == ni {
                Below::Nothing
            } else {
                Below::Up(key_rat(f, p), false)
            }
        }
        Rne | Rna => {
            let m = (key_rat(f, p) + key_rat(f, q)) / Rational::from_integer(BigInt::from(2));
            let pb = from_tkey(f, p);
            // does the tie at m round to p?
            let tie_to_p = match rm {
                Rne => pb & 1 == 0, // adjacent floats differ in the last bit; inf is even
                _ => m < Rational::from_integer(BigInt::from(0)), // away from zero
            };
            Below::Up(m, !tie_to_p)
        }
    }
}

/// The new box of the real `a` in `z = round(a)`: the reals of `a` that round into `z`
/// (integers only if `integral`).
pub fn bwd_round_real_a(rm: RoundingMode, z: &FpDom, a: Interval, integral: bool) -> Interval {
    let f = z.fmt;
    let Some((zl, zh)) = key_hull(z) else {
        return Interval::EMPTY;
    };
    if a.is_empty() {
        return Interval::EMPTY;
    }
    // upper: round(r) <= zh
    let hi = match below_set(f, rm, zh) {
        Below::All => None,
        Below::Nothing => return Interval::EMPTY,
        Below::Up(b, open) => Some((b, open)),
    };
    // lower: not round(r) <= pred(zl)
    let lo = if zl == key_ninf(f) {
        None
    } else {
        match below_set(f, rm, zl - 1) {
            Below::All => return Interval::EMPTY,
            Below::Nothing => None,
            Below::Up(b, open) => Some((b, !open)),
        }
    };
    let r = Interval::from_bounds(
        lo.as_ref().map(|(b, s)| (b, *s)),
        hi.as_ref().map(|(b, s)| (b, *s)),
    )
    .intersect(a);
    if integral {
        r.round_integral()
    } else {
        r
    }
}

/// `x ∩ {NaN, -inf, +inf}`: the floats whose conversion result is unspecified.
fn unspecified_part(x: &FpDom) -> FpDom {
    let f = x.fmt;
    let inf = |v: f64| x.intersect(&FpDom::range(f, v, v));
    FpDom::nan_only(f)
        .intersect(x)
        .hull(&inf(f64::NEG_INFINITY))
        .hull(&inf(f64::INFINITY))
}

/// `true` if `x` may be NaN or infinite.
fn may_be_unspecified(x: &FpDom) -> bool {
    !unspecified_part(x).is_empty()
}

/// The finite values of `x` in `[lo, hi]` (value bounds, floats of the format or not).
fn finite_in(x: &FpDom, lo: u64, hi: u64) -> FpDom {
    let f = x.fmt;
    let (l, h) = (ieee::to_f64(f, lo), ieee::to_f64(f, hi));
    let max = ieee::to_f64(f, f.max_finite_bits());
    x.intersect(&FpDom::range(f, l.max(-max), h.min(max)))
}

/// The least float of `f` above `v` (`>` if `strict`, else `>=`), as bits.
fn least_above(f: FpFormat, v: f64, strict: bool) -> u64 {
    let b = float_at_least(f, v);
    if strict && ieee::to_f64(f, b) == v {
        ieee::next_up(f, b)
    } else {
        b
    }
}

/// The greatest float of `f` below `v` (`<` if `strict`, else `<=`), as bits.
fn greatest_below(f: FpFormat, v: f64, strict: bool) -> u64 {
    let b = float_at_most(f, v);
    if strict && ieee::to_f64(f, b) == v {
        ieee::next_down(f, b)
    } else {
        b
    }
}

/// Encloses `{trunc(x)}` (C cast to an integer, before the type's range is applied); the
/// whole line if `x` may be NaN or infinite (the result is unspecified there).
pub fn fwd_fp_to_int(x: &FpDom) -> Interval {
    if x.is_empty() {
        return Interval::EMPTY;
    }
    if may_be_unspecified(x) {
        return Interval::ENTIRE;
    }
    let (a, b) = key_hull(x).expect("non-empty, no NaN");
    let f = x.fmt;
    Interval::closed(key_val(f, a).trunc(), key_val(f, b).trunc())
}

/// The new domain of `x` in `out = trunc(x)`: the finite floats truncating into `out`, and
/// NaN/infinities (unspecified result) if `out` has an integer at all.
pub fn bwd_fp_to_int_x(out: Interval, x: &FpDom) -> FpDom {
    let f = x.fmt;
    let ints = out.round_integral();
    if ints.is_empty() || x.is_empty() {
        return FpDom::empty(f);
    }
    // 2^53: beyond it every double (and every float of either format) is an integer, so
    // trunc(x) >= L is x >= L there, and L - 1 need not be computed.
    const EXACT: f64 = 9007199254740992.0;
    let (l, u) = (ints.lo(), ints.hi());
    // trunc(x) >= L: x >= L for L >= 1 (or huge), x > L - 1 for L <= 0
    let lo = if l == f64::NEG_INFINITY {
        ieee::neg(f, f.inf_bits())
    } else if l >= 1.0 || l <= -EXACT {
        least_above(f, l, false)
    } else {
        least_above(f, l - 1.0, true)
    };
    // trunc(x) <= U: x < U + 1 for U >= 0, x <= U for U <= -1 (or huge)
    let hi = if u == f64::INFINITY {
        f.inf_bits()
    } else if u <= -1.0 || u >= EXACT {
        greatest_below(f, u, false)
    } else {
        greatest_below(f, u + 1.0, true)
    };
    finite_in(x, lo, hi).hull(&unspecified_part(x))
}

/// [`fwd_fp_to_int`] for an output of integer type `[lo, hi]` (integral ends): a finite `x`
/// whose truncation is outside the type is unspecified too (language doc Part B.2), so
/// whenever that, NaN or an infinity is possible the result is the whole type.
pub fn fwd_fp_to_int_typed(x: &FpDom, lo: f64, hi: f64) -> Interval {
    let ty = Interval::closed(lo, hi);
    let t = fwd_fp_to_int(x);
    if t.is_empty() || t.is_subset(ty) {
        t
    } else {
        ty
    }
}

/// [`bwd_fp_to_int_x`] for an output of integer type `[lo, hi]`: besides the floats that
/// truncate into `out`, every float with an unspecified result (NaN, infinities, and finite
/// floats truncating outside the type) stays as long as `out` holds a value of the type.
pub fn bwd_fp_to_int_x_typed(out: Interval, x: &FpDom, lo: f64, hi: f64) -> FpDom {
    let f = x.fmt;
    let out = out.intersect(Interval::closed(lo, hi));
    let inside = bwd_fp_to_int_x(out, x);
    if out.round_integral().is_empty() {
        return inside; // empty
    }
    // trunc(x) > hi ⇔ x >= hi + 1 (hi >= 0) ; trunc(x) < lo ⇔ x <= lo - 1 (lo <= 0); the
    // type ends are integers of at most 64 bits, so `± 1` is exact or the ends are so large
    // that the floats there are integers and `>= hi + 1` is `> hi`
    let above = if hi >= 9007199254740992.0 {
        least_above(f, hi, true)
    } else {
        least_above(f, hi + 1.0, false)
    };
    let below = if lo <= -9007199254740992.0 {
        greatest_below(f, lo, true)
    } else {
        greatest_below(f, lo - 1.0, false)
    };
    let max = ieee::to_f64(f, f.max_finite_bits());
    let high = x.intersect(&FpDom::range(f, ieee::to_f64(f, above).min(max), max));
    let low = x.intersect(&FpDom::range(f, -max, ieee::to_f64(f, below).max(-max)));
    let high = if ieee::to_f64(f, above) > max {
        FpDom::empty(f)
    } else {
        high
    };
    let low = if ieee::to_f64(f, below) < -max {
        FpDom::empty(f)
    } else {
        low
    };
    inside.hull(&high).hull(&low).hull(&unspecified_part(x))
}

/// Encloses the exact values `{x}` of the finite floats; the whole line if `x` may be NaN or
/// infinite (unspecified there).
pub fn fwd_to_real(x: &FpDom) -> Interval {
    if x.is_empty() {
        return Interval::EMPTY;
    }
    if may_be_unspecified(x) {
        return Interval::ENTIRE;
    }
    let (a, b) = key_hull(x).expect("non-empty, no NaN");
    Interval::closed(key_val(x.fmt, a), key_val(x.fmt, b))
}

/// The new domain of `x` in `out = to_real(x)`: the finite floats in `out`, and
/// NaN/infinities if `out` is not empty.
pub fn bwd_to_real_x(out: Interval, x: &FpDom) -> FpDom {
    let f = x.fmt;
    if out.is_empty() || x.is_empty() {
        return FpDom::empty(f);
    }
    let lo = if out.lo() == f64::NEG_INFINITY {
        ieee::neg(f, f.inf_bits())
    } else {
        least_above(f, out.lo(), out.lo_open())
    };
    let hi = if out.hi() == f64::INFINITY {
        f.inf_bits()
    } else {
        greatest_below(f, out.hi(), out.hi_open())
    };
    if tkey(f, lo) > tkey(f, hi) {
        return unspecified_part(x);
    }
    finite_in(x, lo, hi).hull(&unspecified_part(x))
}
