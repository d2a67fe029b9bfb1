//! `out = Σ c_i·x_i + k` with exact rational coefficients.
//!
//! The coefficients enter as *intervals enclosing them*, computed once per definition
//! ([`LinearCoeffs::new`]) so that the hot functions never touch a `Rational`. An enclosure is
//! a point when the coefficient is a double (the common case: 1, -1, 2, 0.5) and otherwise
//! the open interval between the two adjacent doubles. Every result then encloses the exact
//! rational relation, because interval operations are inclusion-monotone.
//!
//! Backward for `x_i`: `c_i·x_i = out - k - Σ_{j≠i} c_j·x_j =: r`, solved like a product
//! (see [`super::mul`]): a zero coefficient leaves `x_i` free if `0 ∈ r` and makes the
//! definition infeasible otherwise. Cost `O(n)` per argument.

use super::mul::bwd_mul_a;
use crate::interval::Interval;
use crate::num::Rational;

/// Enclosures of a linear definition's coefficients and constant.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearCoeffs {
    pub coeffs: Vec<Interval>,
    pub constant: Interval,
}

impl LinearCoeffs {
    /// Encloses the exact coefficients (tightest double enclosures).
    pub fn new(coeffs: &[Rational], constant: &Rational) -> LinearCoeffs {
        LinearCoeffs {
            coeffs: coeffs.iter().map(Interval::from_rational).collect(),
            constant: Interval::from_rational(constant),
        }
    }

    /// [`fwd_linear`] with these coefficients.
    #[inline]
    pub fn fwd(&self, xs: &[Interval]) -> Interval {
        fwd_linear(&self.coeffs, self.constant, xs)
    }

    /// [`bwd_linear`] with these coefficients.
    #[inline]
    pub fn bwd(&self, out: Interval, xs: &[Interval], i: usize) -> Interval {
        bwd_linear(&self.coeffs, self.constant, out, xs, i)
    }
}

/// Encloses `{Σ c_i·x_i + k}` for coefficient enclosures `coeffs` and constant enclosure `k`.
/// A length mismatch between `coeffs` and `xs` is a caller bug; the answer is then all reals
/// (sound, never a panic).
pub fn fwd_linear(coeffs: &[Interval], k: Interval, xs: &[Interval]) -> Interval {
    if coeffs.len() != xs.len() {
        return Interval::ENTIRE;
    }
    coeffs.iter().zip(xs).fold(k, |acc, (&c, &x)| acc + c * x)
}

/// The new box of `xs[i]` in `out = Σ c_j·x_j + k`. On a length mismatch or an out-of-range
/// `i` (caller bugs) the box is returned unchanged (all reals if there is none).
pub fn bwd_linear(
    coeffs: &[Interval],
    k: Interval,
    out: Interval,
    xs: &[Interval],
    i: usize,
) -> Interval {
    if coeffs.len() != xs.len() || i >= xs.len() {
        return xs.get(i).copied().unwrap_or(Interval::ENTIRE);
    }
    let mut rest = out - k;
    for (j, (&c, &x)) in coeffs.iter().zip(xs).enumerate() {
        if j != i {
            rest = rest - c * x;
        }
    }
    bwd_mul_a(rest, xs[i], coeffs[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn c(lo: f64, hi: f64) -> Interval {
        Interval::closed(lo, hi)
    }
    fn q(n: i64, d: i64) -> Rational {
        Rational::new(BigInt::from(n), BigInt::from(d))
    }

    #[test]
    fn sums_and_differences() {
        // out = x - 2y + 1
        let lc = LinearCoeffs::new(&[q(1, 1), q(-2, 1)], &q(1, 1));
        let xs = [c(0.0, 4.0), c(1.0, 2.0)];
        assert_eq!(lc.fwd(&xs), c(-3.0, 3.0));
        // out ∈ [2, 3] → x = out - 1 + 2y ∈ [3, 6] ∩ [0, 4]
        assert_eq!(lc.bwd(c(2.0, 3.0), &xs, 0), c(3.0, 4.0));
        // y = (x + 1 - out) / 2 ∈ [-1, 1.5] ∩ [1, 2]
        assert_eq!(lc.bwd(c(2.0, 3.0), &xs, 1), c(1.0, 1.5));
        // an open output bound stays open
        let o = Interval::new(2.0, true, 3.0, false);
        assert_eq!(lc.bwd(o, &xs, 0), Interval::new(3.0, true, 4.0, false));
    }

    #[test]
    fn inexact_coefficients_are_enclosed() {
        // out = x/3 with x ∈ [3, 3]: out encloses 1, tightly
        let lc = LinearCoeffs::new(&[q(1, 3)], &q(0, 1));
        let out = lc.fwd(&[c(3.0, 3.0)]);
        assert!(out.contains(1.0) && out.width() <= 4.0 * f64::EPSILON);
        let x = lc.bwd(c(1.0, 1.0), &[c(-10.0, 10.0)], 0);
        assert!(x.contains(3.0) && x.width() <= 8.0 * f64::EPSILON);
        // zero coefficient: free if the rest allows 0, else infeasible
        let z = [Interval::point(0.0)];
        assert_eq!(
            bwd_linear(&z, c(0.0, 0.0), c(-1.0, 1.0), &[c(5.0, 6.0)], 0),
            c(5.0, 6.0)
        );
        assert_eq!(
            bwd_linear(&z, c(0.0, 0.0), c(1.0, 2.0), &[c(5.0, 6.0)], 0),
            Interval::EMPTY
        );
    }
}
