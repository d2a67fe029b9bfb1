//! `out = |a|`, `out = min(a, b)`, `out = max(a, b)`. All exact (no rounding).
//!
//! Backward for `min`: either `a` is the minimum (`a = out` and some `b >= a` exists, i.e.
//! `a <= sup b`, open if `sup b` is not attained), or `b` is (`b ∈ out ∩ b` and `a > b`,
//! i.e. `a > inf(out ∩ b)`, always open). The two pieces are cut by `a`'s box before the
//! hull. `max` mirrors it; `abs` is `a = ±out` for the nonnegative part of `out`.

use super::{any_empty, cut_union};
use crate::interval::Interval;

/// Encloses `{|a|}`.
#[inline]
pub fn fwd_abs(a: Interval) -> Interval {
    a.abs()
}

/// The new box of `a` in `out = |a|`.
pub fn bwd_abs_a(out: Interval, a: Interval) -> Interval {
    if any_empty(&[out, a]) {
        return Interval::EMPTY;
    }
    let o = out.nonneg_part();
    cut_union(a, o, -o)
}

/// Encloses `{min(a, b)}`.
#[inline]
pub fn fwd_min(a: Interval, b: Interval) -> Interval {
    a.min(b)
}

/// Encloses `{max(a, b)}`.
#[inline]
pub fn fwd_max(a: Interval, b: Interval) -> Interval {
    a.max(b)
}

/// The new box of `a` in `out = min(a, b)`.
pub fn bwd_min_a(out: Interval, a: Interval, b: Interval) -> Interval {
    if any_empty(&[out, a, b]) {
        return Interval::EMPTY;
    }
    let a_is_min = out.intersect(Interval::at_most(b.hi(), b.hi_open()));
    let ob = out.intersect(b);
    let b_is_min = if ob.is_empty() {
        Interval::EMPTY
    } else {
        Interval::at_least(ob.lo(), true)
    };
    cut_union(a, a_is_min, b_is_min)
}

/// The new box of `b` in `out = min(a, b)` (min commutes).
#[inline]
pub fn bwd_min_b(out: Interval, a: Interval, b: Interval) -> Interval {
    bwd_min_a(out, b, a)
}

/// The new box of `a` in `out = max(a, b)`.
pub fn bwd_max_a(out: Interval, a: Interval, b: Interval) -> Interval {
    if any_empty(&[out, a, b]) {
        return Interval::EMPTY;
    }
    let a_is_max = out.intersect(Interval::at_least(b.lo(), b.lo_open()));
    let ob = out.intersect(b);
    let b_is_max = if ob.is_empty() {
        Interval::EMPTY
    } else {
        Interval::at_most(ob.hi(), true)
    };
    cut_union(a, a_is_max, b_is_max)
}

/// The new box of `b` in `out = max(a, b)`.
#[inline]
pub fn bwd_max_b(out: Interval, a: Interval, b: Interval) -> Interval {
    bwd_max_a(out, b, a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(lo: f64, hi: f64) -> Interval {
        Interval::closed(lo, hi)
    }

    #[test]
    fn min_max_abs_backward() {
        // out = min(a, b) ∈ [1, 2], b ∈ [5, 6]: b can't be the min, so a = out
        assert_eq!(
            bwd_min_a(c(1.0, 2.0), c(0.0, 10.0), c(5.0, 6.0)),
            c(1.0, 2.0)
        );
        // b ∈ [1.5, 6]: b may be the min (then a > 1.5)
        assert_eq!(
            bwd_min_a(c(1.0, 2.0), c(0.0, 10.0), c(1.5, 6.0)),
            c(1.0, 10.0)
        );
        assert_eq!(
            bwd_min_b(c(1.0, 2.0), c(5.0, 6.0), c(0.0, 10.0)),
            c(1.0, 2.0)
        );
        // b < 1 always and out ≥ 1: infeasible unless a is the min, which needs a ≤ b < 1
        assert_eq!(
            bwd_min_a(c(1.0, 2.0), c(0.0, 10.0), Interval::open(0.0, 1.0)),
            Interval::EMPTY
        );
        // with b's end 1 closed: a = 1 = b, or b = 1 is the min and any a > 1
        assert_eq!(
            bwd_min_a(c(1.0, 2.0), c(0.0, 10.0), c(0.0, 1.0)),
            c(1.0, 10.0)
        );
        assert_eq!(
            bwd_min_a(
                c(1.0, 2.0),
                c(0.0, 10.0),
                c(0.0, 1.0).intersect(c(0.0, 0.5))
            ),
            Interval::EMPTY
        );
        assert_eq!(
            bwd_max_a(c(1.0, 2.0), c(-10.0, 10.0), c(-6.0, -5.0)),
            c(1.0, 2.0)
        );
        assert_eq!(
            bwd_max_b(c(1.0, 2.0), c(-6.0, -5.0), c(-10.0, 10.0)),
            c(1.0, 2.0)
        );
        assert_eq!(bwd_abs_a(c(1.0, 2.0), c(-10.0, 1.5)), c(-2.0, 1.5));
        assert_eq!(bwd_abs_a(c(1.0, 2.0), c(-0.5, 0.5)), Interval::EMPTY);
        assert_eq!(
            bwd_abs_a(Interval::open(1.0, 2.0), c(0.0, 10.0)),
            Interval::open(1.0, 2.0)
        );
    }
}
