//! IEEE operations as linear rows with a rounding margin (issue #22, item 3): the simplex's
//! view of `x' = fl(0.75·x + 0.25·y)`, so that a relation such as `x' − y' = (x − y)/2 ± ε`
//! follows from the rows instead of from interval propagation, which loses the correlation
//! between `x` and `y` and cannot bound `x' − y'` better than the difference of two boxes.
//!
//! The idea: an operation whose exact result is linear in its operands (`a + b`, `a − b`,
//! `k·a` and `a / k` for a constant `k`, `−a`, a conversion `round(a)`, `to_real(a)`) is the
//! row `s = Σ cᵢ·argᵢ − out`; its slack `s` is the rounding error `exact − rounded`. The slack
//! has no bounds (the row says nothing) until the *guard* of the row holds: the result `out`
//! is not NaN and lies in a finite box `[lo, hi]` with `M = max(|lo|, |hi|)` below the
//! format's largest finite float. Then `|s| < ulp(M)`, the gap between `M` rounded up to the
//! format and the next float, and the slack gets the bounds `[−ulp(M), ulp(M)]` with the
//! guard's literals (`¬nan(out)`, `out`'s lower and upper bound literals) as their reasons.
//!
//! Why that is sound, for every rounding mode (argued in hys-language D.9): a finite result
//! `v = fl(z)` that did not overflow is one of the two floats around the exact `z`, so
//! `|v − z|` is at most the gap between `v` and a neighbour, and gaps grow with magnitude:
//! at most the gap above `M` when `|v| ≤ M`. Overflow is excluded because `M` is below the
//! largest finite float (a directed mode may round an overflowing `z` to that float, with an
//! unbounded error). A finite, non-NaN result also has finite, non-NaN operands (NaN and
//! infinities propagate through these operations), so the operands' value variables hold
//! their real values. `to_real(a)` is exact, guarded by `a` itself (it is unspecified for
//! NaN and infinities). A result in the subnormal range has the subnormal spacing as its gap,
//! which covers underflow to zero.

use crate::formula::Op;
use crate::num::{ieee, FpFormat, Rational, RoundingMode};
use crate::solve::{Solver, VarKind};
use crate::var::Var;
use num_traits::One;

/// An operation's row: `Σ coeffs − out` is the rounding error, bounded while `guard` is a
/// finite non-NaN value; `format` is the format whose gap bounds the error (`None`: exact).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Relaxation {
    /// the operands with their coefficients, then the output with −1
    pub terms: Vec<(Var, Rational)>,
    pub guard: Var,
    pub format: Option<FpFormat>,
}

/// The fixed, finite, non-zero value of a constant operand (its level-0 bounds meet).
fn constant(s: &Solver, v: Var) -> Option<Rational> {
    let (lo, hi) = (s.root_lb[v].v, s.root_ub[v].v);
    (lo == hi && lo.is_finite() && lo != 0.0)
        .then(|| Rational::from_float(lo))
        .flatten()
}

/// The row of definition `d` when its operation is linear up to rounding (see the module
/// documentation), else `None`.
pub(crate) fn relaxation(s: &Solver, d: usize) -> Option<Relaxation> {
    let def = &s.defs[d];
    let fp = |v: Var| match s.vars[v].kind {
        VarKind::Fp(f) => Some(f),
        _ => None,
    };
    let one = Rational::one();
    let out = (def.out, -one.clone());
    let rounded = |args: Vec<(Var, Rational)>| -> Option<Relaxation> {
        let f = fp(def.out)?;
        let mut terms = args;
        terms.push(out.clone());
        Some(Relaxation {
            terms,
            guard: def.out,
            format: Some(f),
        })
    };
    let a = def.args.first().copied();
    let b = def.args.get(1).copied();
    match (&def.op, a, b) {
        (Op::FAdd(_), Some(a), Some(b)) => rounded(vec![(a, one.clone()), (b, one)]),
        (Op::FSub(_), Some(a), Some(b)) => rounded(vec![(a, one.clone()), (b, -one)]),
        (Op::FMul(_), Some(a), Some(b)) => match (constant(s, a), constant(s, b)) {
            (_, Some(k)) => rounded(vec![(a, k)]),
            (Some(k), None) => rounded(vec![(b, k)]),
            (None, None) => None,
        },
        (Op::FDiv(_), Some(a), Some(b)) => {
            let k = constant(s, b)?;
            rounded(vec![(a, one / k)])
        }
        (Op::FNeg, Some(a), _) => {
            // exact, but the value variables are real numbers only for finite values
            let mut r = rounded(vec![(a, -one)])?;
            r.format = None;
            Some(r)
        }
        (Op::ToFp(_), Some(a), None) => matches!(
            s.vars[a].kind,
            VarKind::Fp(_) | VarKind::Int | VarKind::Real
        )
        .then(|| rounded(vec![(a, one)]))
        .flatten(),
        (Op::FpToReal, Some(a), None) => {
            if fp(a).is_none() || s.vars[def.out].kind != VarKind::Real {
                return None;
            }
            Some(Relaxation {
                terms: vec![(a, one.clone()), out],
                guard: a,
                format: None,
            })
        }
        _ => None,
    }
}

/// The gap above `m ≥ 0` in format `f` (see the module documentation), as a double (exact:
/// a power of two); `None` when `m` is not below the largest finite float.
pub(crate) fn gap_above(f: FpFormat, m: f64) -> Option<f64> {
    let q = Rational::from_float(m)?;
    let up = f.round_rational(&q, RoundingMode::Rtp);
    let next = ieee::next_up(f, up);
    if f.is_inf(next) || f.is_nan(up) {
        return None;
    }
    let g = ieee::to_f64(f, next) - ieee::to_f64(f, up);
    (g > 0.0 && g.is_finite()).then_some(g)
}

/// The same bound in exact rationals, for the independent re-check: the gap above
/// `max(|lo|, |hi|)` in `f`.
#[cfg(any(test, feature = "check-deductions"))]
pub(crate) fn exact_gap(f: FpFormat, lo: &Rational, hi: &Rational) -> Option<Rational> {
    use num_traits::{Signed, Zero};
    let m = lo.abs().max(hi.abs());
    let up = f.round_rational(&m, RoundingMode::Rtp);
    let next = ieee::next_up(f, up);
    let g = f.to_rational(next)? - f.to_rational(up)?;
    (g > Rational::zero()).then_some(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_by_hand() {
        // binary32: the floats in [1, 2) are 2^-23 apart, [2, 4) 2^-22; 2 itself is followed
        // by 2 + 2^-22
        let p = |e: i32| 2f64.powi(e);
        assert_eq!(gap_above(FpFormat::F32, 1.0), Some(p(-23)));
        assert_eq!(gap_above(FpFormat::F32, 1.5), Some(p(-23)));
        assert_eq!(gap_above(FpFormat::F32, 2.0), Some(p(-22)));
        // 0.1 is no float: rounded up first, still in [2^-4, 2^-3)
        assert_eq!(gap_above(FpFormat::F32, 0.1), Some(p(-27)));
        // zero and the subnormals: the subnormal spacing
        assert_eq!(gap_above(FpFormat::F32, 0.0), Some(p(-149)));
        assert_eq!(gap_above(FpFormat::F64, 0.0), Some(p(-1074)));
        assert_eq!(gap_above(FpFormat::F64, 16.0), Some(p(-48)));
        // the largest finite float has no finite float above it
        assert_eq!(gap_above(FpFormat::F64, f64::MAX), None);
        assert_eq!(gap_above(FpFormat::F32, f32::MAX as f64), None);
        // the exact version agrees
        let q = |x: f64| Rational::from_float(x).unwrap();
        assert_eq!(exact_gap(FpFormat::F32, &q(-1.5), &q(1.0)), Some(q(p(-23))));
        assert_eq!(exact_gap(FpFormat::F32, &q(-3.0), &q(2.0)), Some(q(p(-22))));
    }
}
