//! `out = a · b`.
//!
//! Forward is interval multiplication. Backward for `a`: `a = out / b` wherever `b ≠ 0`; where
//! `b = 0` the product is 0, so if both `b` and `out` can be 0 every `a` has a partner and
//! nothing can be removed. Otherwise `b = 0` contributes nothing (0 ∉ out) and `a` lies in
//! the extended quotient `out / (b \ {0})`, whose two pieces are cut by `a`'s box separately.

use super::{any_empty, cut_union};
use crate::interval::Interval;

/// Encloses `{a·b}`.
#[inline]
pub fn fwd_mul(a: Interval, b: Interval) -> Interval {
    a * b
}

/// The new box of `a` in `out = a·b`.
pub fn bwd_mul_a(out: Interval, a: Interval, b: Interval) -> Interval {
    if any_empty(&[out, a, b]) {
        return Interval::EMPTY;
    }
    if b.contains_zero() && out.contains_zero() {
        return a;
    }
    let [p, q] = out.div_pieces(b);
    cut_union(a, p, q)
}

/// The new box of `b` in `out = a·b` (multiplication commutes).
#[inline]
pub fn bwd_mul_b(out: Interval, a: Interval, b: Interval) -> Interval {
    bwd_mul_a(out, b, a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(lo: f64, hi: f64) -> Interval {
        Interval::closed(lo, hi)
    }

    #[test]
    fn zero_divisor_cases() {
        // 0 ∈ b and 0 ∈ out: a unconstrained
        assert_eq!(
            bwd_mul_a(c(-1.0, 1.0), c(-5.0, 5.0), c(0.0, 1.0)),
            c(-5.0, 5.0)
        );
        // out ∈ [1,2], b ∈ [-1,1]: |a| >= 1, and the gap (-1, 1) survives only as a hull
        assert_eq!(
            bwd_mul_a(c(1.0, 2.0), c(0.5, 5.0), c(-1.0, 1.0)),
            c(1.0, 5.0)
        );
        assert_eq!(
            bwd_mul_a(c(1.0, 2.0), c(-5.0, 5.0), c(-1.0, 1.0)),
            c(-5.0, 5.0)
        );
        // b = [0,0] and 0 ∉ out: no solution
        assert_eq!(
            bwd_mul_a(c(1.0, 2.0), c(-5.0, 5.0), c(0.0, 0.0)),
            Interval::EMPTY
        );
        // ordinary case
        assert_eq!(
            bwd_mul_a(c(2.0, 6.0), c(-10.0, 10.0), c(2.0, 2.0)),
            c(1.0, 3.0)
        );
        assert_eq!(
            bwd_mul_b(c(2.0, 6.0), c(2.0, 2.0), c(-10.0, 10.0)),
            c(1.0, 3.0)
        );
    }
}
