//! `out = exp(a)`, `exp2(a)`, `exp10(a)`, `log(a)`, `log2(a)`, `log10(a)`.
//!
//! The idea: all six are strictly increasing, so the image of `⟨lo, hi⟩` is
//! `⟨f(lo), f(hi)⟩` and the preimage of an output box is the image under the inverse
//! function. Each finite end goes through MPFR's correctly rounded point enclosure
//! ([`super::transcendental::point_enclosure`]): the lower end is `RD(f(lo))`, the upper `RU(f(hi))`. An end is closed
//! only when the value is a double (exact) *and* the argument end is attained — an inexact
//! end lies strictly outside the image, and by strict monotonicity an exact value at an open
//! argument end is not attained either. Infinite ends map to the limits: `exp(-inf) = 0` and
//! `log(0+) = -inf`, both open (never attained), so `exp` of a box unbounded below is `(0, …`.
//!
//! Logarithms are *unspecified* (any real) for `a <= 0` ([`crate::formula`]). Forward, a box
//! reaching `<= 0` therefore gives all reals. Backward, every `a <= 0` stays possible whatever
//! `out` is: the new box is `a ∩ (exp(out) ∪ (-inf, 0])`, the preimage cut by `a` before the
//! hull with `a`'s nonpositive part — exactly `a ∩ exp(out)` when `a ⊆ (0, ∞)`.
//! Exponentials are total: backward is `a ∩ log(out ∩ (0, ∞))`, empty when `out <= 0`.

use super::transcendental::{end_enclosures, lower_end, upper_end, Transcendental};
use super::{any_empty, cut_union};
use crate::interval::Interval;

/// The image of `a` under the strictly increasing `f`, for `a` inside `f`'s domain (all reals
/// for the exponentials, `(0, ∞)` for the logarithms).
fn increasing_image(f: Transcendental, a: Interval) -> Interval {
    if a.is_empty() {
        return Interval::EMPTY;
    }
    // the limit at the left edge of the domain: exp → 0, log → -inf; never attained
    let (edge, limit) = if f.is_log() {
        (0.0, f64::NEG_INFINITY)
    } else {
        (f64::NEG_INFINITY, 0.0)
    };
    let (elo, ehi) = end_enclosures(f, a);
    let lo = match elo {
        Some(e) if a.lo() != edge => lower_end(e, !a.lo_open()),
        _ => (limit, true),
    };
    // an upper end without a value can only be +inf (or a bug): +inf is the sound answer
    let hi = match ehi {
        Some(e) => upper_end(e, !a.hi_open()),
        None => (f64::INFINITY, true),
    };
    Interval::new(lo.0, lo.1, hi.0, hi.1)
}

/// `{a : f(a) ∈ out}` for an exponential `f` with inverse `inv`: `inv(out ∩ (0, ∞))`.
fn exp_preimage(inv: Transcendental, out: Interval) -> Interval {
    increasing_image(inv, out.intersect(Interval::at_least(0.0, true)))
}

fn bwd_exponential(inv: Transcendental, out: Interval, a: Interval) -> Interval {
    if any_empty(&[out, a]) {
        return Interval::EMPTY;
    }
    a.intersect(exp_preimage(inv, out))
}

fn fwd_logarithm(f: Transcendental, a: Interval) -> Interval {
    if a.is_empty() {
        return Interval::EMPTY;
    }
    // any a <= 0 in the box has an unspecified (arbitrary) image
    if !a.intersect(Interval::at_most(0.0, false)).is_empty() {
        return Interval::ENTIRE;
    }
    increasing_image(f, a)
}

/// `a ∩ (inv(out) ∪ (-inf, 0])` for a logarithm with inverse `inv` (see the module docs).
fn bwd_logarithm(inv: Transcendental, out: Interval, a: Interval) -> Interval {
    if any_empty(&[out, a]) {
        return Interval::EMPTY;
    }
    cut_union(a, increasing_image(inv, out), Interval::at_most(0.0, false))
}

/// Encloses `{exp(a)}`.
pub fn fwd_exp(a: Interval) -> Interval {
    increasing_image(Transcendental::Exp, a)
}

/// Encloses `{2^a}`.
pub fn fwd_exp2(a: Interval) -> Interval {
    increasing_image(Transcendental::Exp2, a)
}

/// Encloses `{10^a}`.
pub fn fwd_exp10(a: Interval) -> Interval {
    increasing_image(Transcendental::Exp10, a)
}

/// Encloses `{log(a)}`; all reals if the box reaches `a <= 0` (unspecified there).
pub fn fwd_log(a: Interval) -> Interval {
    fwd_logarithm(Transcendental::Log, a)
}

/// Encloses `{log2(a)}`; all reals if the box reaches `a <= 0`.
pub fn fwd_log2(a: Interval) -> Interval {
    fwd_logarithm(Transcendental::Log2, a)
}

/// Encloses `{log10(a)}`; all reals if the box reaches `a <= 0`.
pub fn fwd_log10(a: Interval) -> Interval {
    fwd_logarithm(Transcendental::Log10, a)
}

/// The new box of `a` in `out = exp(a)`: `a ∩ log(out ∩ (0, ∞))`.
pub fn bwd_exp_a(out: Interval, a: Interval) -> Interval {
    bwd_exponential(Transcendental::Log, out, a)
}

/// The new box of `a` in `out = 2^a`.
pub fn bwd_exp2_a(out: Interval, a: Interval) -> Interval {
    bwd_exponential(Transcendental::Log2, out, a)
}

/// The new box of `a` in `out = 10^a`.
pub fn bwd_exp10_a(out: Interval, a: Interval) -> Interval {
    bwd_exponential(Transcendental::Log10, out, a)
}

/// The new box of `a` in `out = log(a)`: `a ∩ (exp(out) ∪ (-inf, 0])`.
pub fn bwd_log_a(out: Interval, a: Interval) -> Interval {
    bwd_logarithm(Transcendental::Exp, out, a)
}

/// The new box of `a` in `out = log2(a)`.
pub fn bwd_log2_a(out: Interval, a: Interval) -> Interval {
    bwd_logarithm(Transcendental::Exp2, out, a)
}

/// The new box of `a` in `out = log10(a)`.
pub fn bwd_log10_a(out: Interval, a: Interval) -> Interval {
    bwd_logarithm(Transcendental::Exp10, out, a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::E;

    const INF: f64 = f64::INFINITY;

    fn c(lo: f64, hi: f64) -> Interval {
        Interval::closed(lo, hi)
    }

    #[test]
    fn exact_points_stay_points() {
        assert_eq!(fwd_exp(c(0.0, 0.0)), c(1.0, 1.0));
        assert_eq!(fwd_log(c(1.0, 1.0)), c(0.0, 0.0));
        assert_eq!(fwd_exp2(c(-2.0, 10.0)), c(0.25, 1024.0));
        assert_eq!(fwd_exp10(c(0.0, 3.0)), c(1.0, 1000.0));
        assert_eq!(fwd_log2(c(0.5, 64.0)), c(-1.0, 6.0));
        assert_eq!(fwd_log10(c(1.0, 1e22)), c(0.0, 22.0));
        // open exact ends stay open: exp is strictly increasing
        assert_eq!(
            fwd_exp2(Interval::new(0.0, true, 1.0, false)),
            Interval::new(1.0, true, 2.0, false)
        );
    }

    #[test]
    fn inexact_ends_are_outward_and_open() {
        let e = fwd_exp(c(0.0, 1.0));
        assert_eq!(e, Interval::new(1.0, false, E.next_up(), true));
        let l = fwd_log(c(1.0, E));
        // log(RN(e)) is just below 1: the upper end is RU of it
        assert!(l.lo() == 0.0 && !l.lo_open() && l.hi_open() && l.hi() <= 1.0);
    }

    #[test]
    fn infinite_ends_map_to_limits() {
        assert_eq!(fwd_exp(Interval::ENTIRE), Interval::open(0.0, INF));
        assert_eq!(
            fwd_exp(Interval::at_most(0.0, false)),
            Interval::new(0.0, true, 1.0, false)
        );
        assert_eq!(fwd_log(Interval::open(0.0, INF)), Interval::ENTIRE);
        assert_eq!(
            fwd_log(Interval::at_least(1.0, false)),
            Interval::at_least(0.0, false)
        );
        assert_eq!(fwd_exp(c(1000.0, 2000.0)), Interval::open(f64::MAX, INF));
        assert_eq!(
            fwd_exp(c(-2000.0, -1000.0)),
            Interval::open(0.0, f64::from_bits(1))
        );
        assert_eq!(fwd_exp(Interval::EMPTY), Interval::EMPTY);
    }

    #[test]
    fn logs_of_nonpositive_boxes_are_free() {
        assert_eq!(fwd_log(c(-1.0, 1.0)), Interval::ENTIRE);
        assert_eq!(fwd_log10(c(0.0, 1.0)), Interval::ENTIRE);
        assert_eq!(fwd_log2(c(-3.0, -1.0)), Interval::ENTIRE);
        assert_eq!(
            fwd_log(Interval::new(0.0, true, 1.0, false)),
            Interval::at_most(0.0, false)
        );
        // log(a) ∈ [0, 1] with a ∈ [-5, 10]: a ∈ [1, e] or a <= 0 (unspecified there)
        let b = bwd_log_a(c(0.0, 1.0), c(-5.0, 10.0));
        assert_eq!(b.lo(), -5.0);
        assert!(b.hi() >= E && b.hi() <= E.next_up());
        assert_eq!(bwd_log_a(c(0.0, 1.0), c(5.0, 10.0)), Interval::EMPTY);
        assert_eq!(
            bwd_log2_a(c(1.0, 3.0), Interval::new(0.0, true, 100.0, false)),
            c(2.0, 8.0)
        );
        // a = 0 itself is unspecified, hence feasible
        assert_eq!(bwd_log2_a(c(1.0, 3.0), c(0.0, 100.0)), c(0.0, 8.0));
        // out empty: nothing is possible, not even the unspecified values
        assert_eq!(bwd_log_a(Interval::EMPTY, c(-5.0, 10.0)), Interval::EMPTY);
    }

    #[test]
    fn backward_exponentials() {
        let b = bwd_exp_a(c(1.0, E), c(-10.0, 10.0));
        assert_eq!((b.lo(), b.lo_open()), (0.0, false));
        assert!(b.hi_open() && b.hi() >= 1.0 - 1e-15 && b.hi() <= 1.0 + 1e-15);
        assert!(b.contains_rational(&crate::Rational::from_float(0.999_999_999).unwrap()));
        assert_eq!(bwd_exp_a(c(-2.0, 0.0), c(-10.0, 10.0)), Interval::EMPTY);
        assert_eq!(bwd_exp2_a(c(-2.0, 4.0), c(-10.0, 10.0)), c(-10.0, 2.0));
        assert_eq!(
            bwd_exp10_a(Interval::open(0.0, 100.0), Interval::ENTIRE),
            Interval::at_most(2.0, true)
        );
        assert_eq!(bwd_exp_a(Interval::ENTIRE, c(3.0, 4.0)), c(3.0, 4.0));
    }
}
