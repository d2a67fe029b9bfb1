//! Contractors: pure interval functions for the primitive definitions `out = op(args)`.
//!
//! The idea: a definition is a relation between boxes, and ICP narrows each variable's box to
//! (an enclosure of) its *projection*: the values for which the other variables have values in
//! their boxes satisfying the relation. Per family:
//! - `fwd_*(args) -> Interval` encloses the image `{op(args)}`; the output's new box is
//!   `out ∩ fwd_*(args)`.
//! - `bwd_*_x(out, …) -> Interval` is the new box of argument `x`: its old box intersected with
//!   a superset of `{x : ∃ others in their boxes, op(args) ∈ out}`. It is never larger than
//!   the old box, and empty means the definition has no solution in the boxes.
//!
//! Soundness lives in [`Interval`]'s outward rounding; the functions here only get the set
//! algebra right. Points where an operation is undefined follow the total semantics of
//! [`crate::formula`]: the output is *arbitrary* there (division by 0, even roots of negative
//! numbers), so such points constrain nothing. An empty input box gives an empty result.
//! [`check`] is the independent slow checker: exact rational evaluation of the same relations.
//! The transcendental operations ([`exp_log`], [`trig`], sharing [`transcendental`]) use
//! MPFR's correctly rounded functions; their checker is [`check_transcendental`] (exact where
//! the value is rational, high-precision MPFR interval evaluation elsewhere). Machine integers
//! ([`bv`]) work on exact integer intervals; their checker is [`check_bv`] (big integers).

pub mod absminmax;
pub mod bv;
pub mod check;
pub mod check_bv;
pub mod check_transcendental;
pub mod div;
pub mod exp_log;
pub mod ieee;
pub mod linear;
pub mod mul;
pub mod pow;
pub mod transcendental;
pub mod trig;

pub use crate::interval::Interval;
pub use absminmax::{
    bwd_abs_a, bwd_max_a, bwd_max_b, bwd_min_a, bwd_min_b, fwd_abs, fwd_max, fwd_min,
};
pub use div::{bwd_div_a, bwd_div_b, fwd_div};
pub use exp_log::{
    bwd_exp10_a, bwd_exp2_a, bwd_exp_a, bwd_log10_a, bwd_log2_a, bwd_log_a, fwd_exp, fwd_exp10,
    fwd_exp2, fwd_log, fwd_log10, fwd_log2,
};
pub use linear::{bwd_linear, fwd_linear, LinearCoeffs};
pub use mul::{bwd_mul_a, bwd_mul_b, fwd_mul};
pub use pow::{bwd_nrt_a, bwd_pow_a, bwd_sqrt_a, fwd_nrt, fwd_pow, fwd_sqrt};
pub use transcendental::{bwd_transcendental_a, fwd_transcendental, Transcendental};
pub use trig::{bwd_cos_a, bwd_sin_a, bwd_tan_a, fwd_cos, fwd_sin, fwd_tan};

/// `true` if any box is empty (then every contraction is empty).
#[inline]
pub(crate) fn any_empty(boxes: &[Interval]) -> bool {
    boxes.iter().any(|b| b.is_empty())
}

/// `target ∩ (p ∪ q)`, kept as tight as a single interval can be: each piece is cut by the
/// target box before the hull, so a piece outside the box leaves no gap-filling behind.
#[inline]
pub(crate) fn cut_union(target: Interval, p: Interval, q: Interval) -> Interval {
    target.intersect(p).hull(target.intersect(q))
}
