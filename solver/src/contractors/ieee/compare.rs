//! Contractors for IEEE comparisons (`<`, `<=`, `feq`), identity (`=`), and the
//! classification predicates (`isnan isinf iszero issubnormal isnormal isneg`).
//!
//! The idea: a comparison is a Boolean-valued definition `b = (x REL y)`; forward says which
//! values `b` can take ([`BoolPoss`]), backward narrows `x` and `y` given `b`. IEEE
//! comparisons are false whenever a NaN is involved and treat `-0 == +0`, so they are
//! decided on *values*: the least and greatest non-NaN values of each domain (which are
//! attained, [`super::lattice::key_hull`]). A true comparison bounds each side by the other's
//! extreme value (`x < y` ⇒ `x < max y`, `y > min x`), strictly on the float lattice; a false
//! one keeps NaN and, when the other side may be NaN, everything. Identity (SMT-LIB `=`) is
//! set intersection on the exact representation (NaN = NaN, `-0 ≠ +0`); its negation, like
//! `not feq`, removes a value only when the other side is that single value. A class
//! predicate intersects the domain with the class (or its complement), written as a few
//! convex domains whose hull is taken.

use super::lattice::{key_hull, key_val};
use super::FpDom;
use crate::num::{ieee, FpFormat};

/// Which values a Boolean definition can take.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoolPoss {
    pub can_true: bool,
    pub can_false: bool,
}

const NONE: BoolPoss = BoolPoss {
    can_true: false,
    can_false: false,
};

/// The least and greatest non-NaN values of `d` (zeros as `0.0`).
fn vals(d: &FpDom) -> Option<(f64, f64)> {
    key_hull(d).map(|(a, b)| (key_val(d.fmt, a), key_val(d.fmt, b)))
}

/// The value of the float next above the value `v` (both zeros count as one value).
fn above(f: FpFormat, v: f64) -> f64 {
    let b = ieee::from_f64(f, v).expect("a float of the format");
    ieee::to_f64(f, ieee::next_up(f, b)) + 0.0
}

/// The value of the float next below the value `v`.
fn below(f: FpFormat, v: f64) -> f64 {
    let b = ieee::from_f64(f, v).expect("a float of the format");
    ieee::to_f64(f, ieee::next_down(f, b)) + 0.0
}

/// `d`'s non-NaN values in `[lo, hi]` (zero flags of `d` kept), without NaN.
fn values_in(d: &FpDom, lo: f64, hi: f64) -> FpDom {
    d.intersect(&FpDom::range(d.fmt, lo, hi))
}

/// `d` contains a zero of either sign.
fn has_zero(d: &FpDom) -> bool {
    d.contains(0) || d.contains(ieee::neg(d.fmt, 0))
}

/// `d`, without its zeros unless `keep`.
fn no_zero_unless(d: &FpDom, keep: bool) -> FpDom {
    if keep {
        *d
    } else {
        FpDom {
            neg_zero: false,
            pos_zero: false,
            ..*d
        }
        .normalized()
    }
}

/// `d`'s non-NaN values only.
fn no_nan(d: &FpDom) -> FpDom {
    FpDom { nan: false, ..*d }.normalized()
}

/// `d` with NaN added back if `nan` and `d` had it.
fn with_nan(v: FpDom, d: &FpDom, nan: bool) -> FpDom {
    FpDom {
        nan: nan && d.nan,
        ..v
    }
}

/// The strict/non-strict order comparisons share their shape: `true` iff
/// `x < y` (strict) or `x <= y`.
fn fwd_order(strict: bool, x: &FpDom, y: &FpDom) -> BoolPoss {
    if x.is_empty() || y.is_empty() {
        return NONE;
    }
    let nan = x.nan || y.nan;
    match (vals(x), vals(y)) {
        (Some((xl, xh)), Some((yl, yh))) => BoolPoss {
            can_true: if strict { xl < yh } else { xl <= yh },
            can_false: nan || if strict { xh >= yl } else { xh > yl },
        },
        _ => BoolPoss {
            can_true: false,
            can_false: true,
        },
    }
}

fn bwd_order(strict: bool, result: bool, x: &FpDom, y: &FpDom) -> (FpDom, FpDom) {
    let f = x.fmt;
    let empty = (FpDom::empty(f), FpDom::empty(y.fmt));
    if x.is_empty() || y.is_empty() {
        return empty;
    }
    let (vx, vy) = (vals(x), vals(y));
    if result {
        // both non-NaN, x < y (or x <= y)
        let (Some((xl, _)), Some((_, yh))) = (vx, vy) else {
            return empty;
        };
        // x < y needs a float strictly between: none above +inf or below -inf
        if strict && (xl == f64::INFINITY || yh == f64::NEG_INFINITY) {
            return empty;
        }
        let (xmax, ymin) = if strict {
            (below(f, yh), above(f, xl))
        } else {
            (yh, xl)
        };
        let nx = values_in(&no_nan(x), f64::NEG_INFINITY, xmax);
        let ny = values_in(&no_nan(y), ymin, f64::INFINITY);
        if nx.is_empty() || ny.is_empty() {
            return empty;
        }
        (nx, ny)
    } else {
        // a NaN on either side, or x >= y (x > y)
        let nx = match (vy, y.nan) {
            (_, true) => *x,
            (Some((yl, _)), false) => {
                // x > +inf is impossible: only NaN is left then
                let vals = if !strict && yl == f64::INFINITY {
                    FpDom::empty(f)
                } else {
                    let lo = if strict { yl } else { above(f, yl) };
                    values_in(x, lo, f64::INFINITY)
                };
                with_nan(vals, x, true)
            }
            (None, false) => unreachable!("y is not empty"),
        };
        let ny = match (vx, x.nan) {
            (_, true) => *y,
            (Some((_, xh)), false) => {
                let vals = if !strict && xh == f64::NEG_INFINITY {
                    FpDom::empty(f)
                } else {
                    let hi = if strict { xh } else { below(f, xh) };
                    values_in(y, f64::NEG_INFINITY, hi)
                };
                with_nan(vals, y, true)
            }
            (None, false) => unreachable!("x is not empty"),
        };
        if nx.is_empty() || ny.is_empty() {
            return empty;
        }
        (nx, ny)
    }
}

/// Which values `x < y` (IEEE: false with NaN) can take.
pub fn fwd_lt(x: &FpDom, y: &FpDom) -> BoolPoss {
    fwd_order(true, x, y)
}

/// The new domains of `x`, `y` given `(x < y) = result`.
pub fn bwd_lt(result: bool, x: &FpDom, y: &FpDom) -> (FpDom, FpDom) {
    bwd_order(true, result, x, y)
}

/// Which values `x <= y` (IEEE: false with NaN) can take.
pub fn fwd_le(x: &FpDom, y: &FpDom) -> BoolPoss {
    fwd_order(false, x, y)
}

/// The new domains of `x`, `y` given `(x <= y) = result`.
pub fn bwd_le(result: bool, x: &FpDom, y: &FpDom) -> (FpDom, FpDom) {
    bwd_order(false, result, x, y)
}

/// Which values IEEE `x == y` (false with NaN, `-0 == +0`) can take.
pub fn fwd_eq(x: &FpDom, y: &FpDom) -> BoolPoss {
    if x.is_empty() || y.is_empty() {
        return NONE;
    }
    match (vals(x), vals(y)) {
        (Some((xl, xh)), Some((yl, yh))) => BoolPoss {
            // every non-zero float between the ends is a member, so the overlap of the value
            // ranges has a common member unless it is the value 0 alone
            can_true: xl.max(yl) < xh.min(yh)
                || (xl.max(yl) == xh.min(yh) && (xl.max(yl) != 0.0 || has_zero(x) && has_zero(y))),
            // false is impossible only for one single value on both sides and no NaN
            can_false: x.nan || y.nan || !(xl == xh && yl == yh && xl == yl),
        },
        _ => BoolPoss {
            can_true: false,
            can_false: true,
        },
    }
}

/// `d` without the value `v` (both zeros if `v == 0`), as far as the representation allows:
/// at the ends of the range, or the zero flags.
fn remove_value(d: &FpDom, v: f64) -> FpDom {
    let f = d.fmt;
    if v == 0.0 {
        return FpDom {
            neg_zero: false,
            pos_zero: false,
            ..*d
        }
        .normalized();
    }
    let Some((lo, hi)) = vals(d) else {
        return *d;
    };
    let mut r = *d;
    if lo == v {
        r.lo = above(f, v);
    }
    if hi == v {
        r.hi = below(f, v);
    }
    r.normalized()
}

/// The new domains of `x`, `y` given `feq(x, y) = result`.
pub fn bwd_eq(result: bool, x: &FpDom, y: &FpDom) -> (FpDom, FpDom) {
    let empty = (FpDom::empty(x.fmt), FpDom::empty(y.fmt));
    if x.is_empty() || y.is_empty() {
        return empty;
    }
    let (vx, vy) = (vals(x), vals(y));
    if result {
        let (Some((xl, xh)), Some((yl, yh))) = (vx, vy) else {
            return empty;
        };
        // a zero equals only a zero
        let nx = values_in(&no_zero_unless(&no_nan(x), has_zero(y)), yl, yh);
        let ny = values_in(&no_zero_unless(&no_nan(y), has_zero(x)), xl, xh);
        if nx.is_empty() || ny.is_empty() {
            return empty;
        }
        (nx, ny)
    } else {
        // x is removed only if every y equals it: y a single value, no NaN
        let single = |d: &FpDom, v: Option<(f64, f64)>| match v {
            Some((l, h)) if !d.nan && l == h => Some(l),
            _ => None,
        };
        let nx = single(y, vy).map_or(*x, |v| remove_value(x, v));
        let ny = single(x, vx).map_or(*y, |v| remove_value(y, v));
        if nx.is_empty() || ny.is_empty() {
            return empty;
        }
        (nx, ny)
    }
}

/// Which values identity `x = y` (NaN = NaN, `-0 ≠ +0`) can take.
pub fn fwd_same(x: &FpDom, y: &FpDom) -> BoolPoss {
    if x.is_empty() || y.is_empty() {
        return NONE;
    }
    let px = x.as_point();
    BoolPoss {
        can_true: !x.intersect(y).is_empty(),
        can_false: px.is_none() || px != y.as_point(),
    }
}

/// `d` without the single float `p`, as far as the representation allows.
fn remove_float(d: &FpDom, p: u64) -> FpDom {
    let f = d.fmt;
    if f.is_nan(p) {
        return FpDom { nan: false, ..*d }.normalized();
    }
    if ieee::is_zero(f, p) {
        let mut r = *d;
        if f.is_negative(p) {
            r.neg_zero = false;
        } else {
            r.pos_zero = false;
        }
        return r.normalized();
    }
    remove_value(d, ieee::to_f64(f, p))
}

/// The new domains of `x`, `y` given `(x = y) = result` (identity).
pub fn bwd_same(result: bool, x: &FpDom, y: &FpDom) -> (FpDom, FpDom) {
    let empty = (FpDom::empty(x.fmt), FpDom::empty(y.fmt));
    if x.is_empty() || y.is_empty() {
        return empty;
    }
    let (nx, ny) = if result {
        let m = x.intersect(y);
        (m, m)
    } else {
        (
            y.as_point().map_or(*x, |p| remove_float(x, p)),
            x.as_point().map_or(*y, |p| remove_float(y, p)),
        )
    };
    if nx.is_empty() || ny.is_empty() {
        return empty;
    }
    (nx, ny)
}

/// The classification predicates (semantics of `ieee::is_*`; `Neg` is the sign bit of a
/// non-NaN value, so `isneg(-0)` holds and `isneg(NaN)` does not).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FpClass {
    Nan,
    Inf,
    Zero,
    Subnormal,
    Normal,
    Neg,
}

/// The set of floats where `c` is `result`, as convex domains (their union is exact).
fn class_parts(f: FpFormat, c: FpClass, result: bool) -> Vec<FpDom> {
    let v = |bits: u64| ieee::to_f64(f, bits);
    let inf = f64::INFINITY;
    let max = v(f.max_finite_bits());
    let min_sub = v(1);
    let max_sub = v((1u64 << (f.precision() - 1)) - 1);
    let min_norm = v(1u64 << (f.precision() - 1));
    let nan = FpDom::nan_only(f);
    let r = |lo: f64, hi: f64| FpDom::range(f, lo, hi);
    let point = |x: f64| r(x, x);
    match (c, result) {
        (FpClass::Nan, true) => vec![nan],
        (FpClass::Nan, false) => vec![r(-inf, inf)],
        (FpClass::Inf, true) => vec![point(-inf), point(inf)],
        (FpClass::Inf, false) => vec![nan, r(-max, max)],
        (FpClass::Zero, true) => vec![r(0.0, 0.0)],
        (FpClass::Zero, false) => vec![nan, r(-inf, -min_sub), r(min_sub, inf)],
        (FpClass::Subnormal, true) => vec![r(-max_sub, -min_sub), r(min_sub, max_sub)],
        (FpClass::Subnormal, false) => {
            vec![nan, r(-inf, -min_norm), r(0.0, 0.0), r(min_norm, inf)]
        }
        (FpClass::Normal, true) => vec![r(-max, -min_norm), r(min_norm, max)],
        (FpClass::Normal, false) => vec![nan, point(-inf), r(-max_sub, max_sub), point(inf)],
        (FpClass::Neg, true) => vec![FpDom {
            pos_zero: false,
            ..r(-inf, 0.0)
        }],
        (FpClass::Neg, false) => vec![
            nan,
            FpDom {
                neg_zero: false,
                ..r(0.0, inf)
            },
        ],
    }
}

/// `x ∩ (union of parts)`, as the hull of the pieces.
fn meet_parts(x: &FpDom, parts: &[FpDom]) -> FpDom {
    parts
        .iter()
        .fold(FpDom::empty(x.fmt), |acc, p| acc.hull(&x.intersect(p)))
}

/// Which values the predicate `c(x)` can take.
pub fn fwd_class(c: FpClass, x: &FpDom) -> BoolPoss {
    BoolPoss {
        can_true: !meet_parts(x, &class_parts(x.fmt, c, true)).is_empty(),
        can_false: !meet_parts(x, &class_parts(x.fmt, c, false)).is_empty(),
    }
}

/// The new domain of `x` given `c(x) = result`.
pub fn bwd_class(c: FpClass, result: bool, x: &FpDom) -> FpDom {
    meet_parts(x, &class_parts(x.fmt, c, result))
}
