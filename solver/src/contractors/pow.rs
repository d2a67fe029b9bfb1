//! `out = a^n` (n >= 0), `out = nrt(a, n)` (n >= 1) and `out = sqrt(a)` = `nrt(a, 2)`.
//!
//! Powers are total. Backward for `a` in `out = a^n`: odd `n` is a bijection, `a = nrt(out)`;
//! even `n` gives `a = ±nrt(out ∩ [0, ∞))`, two mirrored pieces cut by `a`'s box separately
//! (so `a ∈ [1, 5]` with `out ∈ [4, 9]` gives `[2, 3]`, not a hull across zero); `n = 0`
//! makes `out = 1`, leaving `a` free.
//!
//! Roots: odd roots of negatives are negative (a bijection again). Even roots of negatives are
//! unspecified (any real), so forward is only informative when `a ⊆ [0, ∞)`, backward keeps
//! every negative `a` (each has a partner `out`), and nonnegative `a` must be `out^n` for some
//! `out >= 0` in `out`'s box. `nrt(a, 0)` has no meaning and is treated as unspecified
//! everywhere.

use super::{any_empty, cut_union};
use crate::interval::Interval;

/// Encloses `{a^n}`.
#[inline]
pub fn fwd_pow(a: Interval, n: u32) -> Interval {
    a.pow(n)
}

/// The new box of `a` in `out = a^n`.
pub fn bwd_pow_a(out: Interval, a: Interval, n: u32) -> Interval {
    if any_empty(&[out, a]) {
        return Interval::EMPTY;
    }
    match n {
        0 if out.contains(1.0) => a,
        0 => Interval::EMPTY,
        _ if n & 1 == 1 => a.intersect(out.nrt(n)),
        _ => {
            // nrt of an even degree takes the part of out that is >= 0
            let r = out.nrt(n);
            cut_union(a, r, -r)
        }
    }
}

/// Encloses `{out : ∃ a in its box, out = nrt(a, n)}` — all reals when an even root of a
/// negative value (or `n = 0`) is possible.
#[inline]
pub fn fwd_nrt(a: Interval, n: u32) -> Interval {
    if a.is_empty() {
        return Interval::EMPTY;
    }
    if n == 0 || (n & 1 == 0 && a.lo() < 0.0) {
        return Interval::ENTIRE;
    }
    a.nrt(n)
}

/// The new box of `a` in `out = nrt(a, n)`.
pub fn bwd_nrt_a(out: Interval, a: Interval, n: u32) -> Interval {
    if any_empty(&[out, a]) {
        return Interval::EMPTY;
    }
    if n == 0 {
        return a;
    }
    if n & 1 == 1 {
        return a.intersect(out.pow(n));
    }
    let defined = a.intersect(out.nonneg_part().pow(n));
    a.neg_part().hull(defined)
}

/// Encloses `{out : ∃ a, out = sqrt(a)}` (all reals if `a < 0` is possible).
#[inline]
pub fn fwd_sqrt(a: Interval) -> Interval {
    fwd_nrt(a, 2)
}

/// The new box of `a` in `out = sqrt(a)`.
#[inline]
pub fn bwd_sqrt_a(out: Interval, a: Interval) -> Interval {
    bwd_nrt_a(out, a, 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(lo: f64, hi: f64) -> Interval {
        Interval::closed(lo, hi)
    }

    #[test]
    fn even_powers_keep_the_excluded_side_out() {
        assert_eq!(bwd_pow_a(c(4.0, 9.0), c(1.0, 5.0), 2), c(2.0, 3.0));
        assert_eq!(bwd_pow_a(c(4.0, 9.0), c(-5.0, -1.0), 2), c(-3.0, -2.0));
        assert_eq!(bwd_pow_a(c(4.0, 9.0), c(-5.0, 5.0), 2), c(-3.0, 3.0));
        assert_eq!(bwd_pow_a(c(-9.0, -4.0), c(-5.0, 5.0), 2), Interval::EMPTY);
        assert_eq!(bwd_pow_a(c(-27.0, 8.0), c(-5.0, 5.0), 3), c(-3.0, 2.0));
        assert_eq!(bwd_pow_a(c(2.0, 3.0), c(-5.0, 5.0), 0), Interval::EMPTY);
        assert_eq!(bwd_pow_a(c(1.0, 3.0), c(-5.0, 5.0), 0), c(-5.0, 5.0));
    }

    #[test]
    fn even_roots_of_negatives_are_free() {
        assert_eq!(fwd_sqrt(c(4.0, 9.0)), c(2.0, 3.0));
        assert_eq!(fwd_sqrt(c(-1.0, 9.0)), Interval::ENTIRE);
        assert_eq!(fwd_nrt(c(-8.0, 27.0), 3), c(-2.0, 3.0));
        // out ∈ [2,3]: a ∈ [4,9] or a < 0
        assert_eq!(bwd_sqrt_a(c(2.0, 3.0), c(-1.0, 100.0)), c(-1.0, 9.0));
        assert_eq!(bwd_sqrt_a(c(2.0, 3.0), c(0.0, 100.0)), c(4.0, 9.0));
        assert_eq!(bwd_sqrt_a(c(-3.0, -2.0), c(0.0, 100.0)), Interval::EMPTY);
        assert_eq!(bwd_nrt_a(c(-2.0, 1.0), c(-100.0, 100.0), 3), c(-8.0, 1.0));
    }
}
