//! `out = a / b`, total: when `b = 0` the value of `out` is unspecified (any real).
//!
//! Forward: if `b` can be 0, `out` can be anything — the whole line (a real `b = 0` point
//! exists in the box, so nothing tighter is sound). Otherwise ordinary interval division.
//! Backward for `a`: if `b` can be 0, every `a` has a partner (`b = 0`, any `out`), so no
//! contraction; otherwise `a = out·b`. Backward for `b`: `b = 0` always survives if it is in
//! `b`'s box; a `b ≠ 0` needs `a = out·b`, i.e. `b = a / out` — and if `0 ∈ out` and `0 ∈ a`
//! every `b` works (`0 = 0·b`); if `0 ∈ out` but `0 ∉ a`, `out = 0` is impossible and `b`
//! lies in the extended quotient `a / (out \ {0})`.

use super::{any_empty, cut_union};
use crate::interval::Interval;

/// Encloses `{out : ∃ a, b in their boxes, out = a / b}` (all reals when `0 ∈ b`).
#[inline]
pub fn fwd_div(a: Interval, b: Interval) -> Interval {
    if a.is_empty() || b.is_empty() {
        return Interval::EMPTY;
    }
    if b.contains_zero() {
        return Interval::ENTIRE;
    }
    a / b
}

/// The new box of `a` in `out = a / b`.
pub fn bwd_div_a(out: Interval, a: Interval, b: Interval) -> Interval {
    if any_empty(&[out, a, b]) {
        return Interval::EMPTY;
    }
    if b.contains_zero() {
        return a;
    }
    a.intersect(out * b)
}

/// The new box of `b` in `out = a / b`.
pub fn bwd_div_b(out: Interval, a: Interval, b: Interval) -> Interval {
    if any_empty(&[out, a, b]) {
        return Interval::EMPTY;
    }
    if out.contains_zero() && a.contains_zero() {
        return b;
    }
    let [p, q] = a.div_pieces(out);
    let nonzero = cut_union(b, p, q);
    if b.contains_zero() {
        nonzero.hull(Interval::point(0.0))
    } else {
        nonzero
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(lo: f64, hi: f64) -> Interval {
        Interval::closed(lo, hi)
    }

    #[test]
    fn division_by_zero_is_unconstrained() {
        assert_eq!(fwd_div(c(1.0, 2.0), c(0.0, 1.0)), Interval::ENTIRE);
        assert_eq!(
            fwd_div(c(1.0, 2.0), Interval::new(0.0, true, 1.0, false)),
            Interval::at_least(1.0, false)
        );
        assert_eq!(
            bwd_div_a(c(5.0, 6.0), c(-1.0, 1.0), c(-1.0, 1.0)),
            c(-1.0, 1.0)
        );
        assert_eq!(
            bwd_div_a(c(5.0, 6.0), c(-100.0, 100.0), c(1.0, 2.0)),
            c(5.0, 12.0)
        );
        // out ∈ [5,6], a ∈ [1,2]: b ∈ [1/6, 2/5], or b = 0
        let b = bwd_div_b(c(5.0, 6.0), c(1.0, 2.0), c(-1.0, 1.0));
        assert!(b.contains(0.0) && b.contains(0.39) && !b.contains(0.4) && b.lo() == 0.0);
        let b = bwd_div_b(c(5.0, 6.0), c(1.0, 2.0), c(0.25, 1.0));
        // RU(2/5) is the double 0.4 (which is above 2/5), open
        assert_eq!(b, Interval::new(0.25, false, 0.4, true));
        // 0 ∈ out and 0 ∈ a: any b
        assert_eq!(
            bwd_div_b(c(-1.0, 1.0), c(0.0, 1.0), c(3.0, 4.0)),
            c(3.0, 4.0)
        );
    }
}
