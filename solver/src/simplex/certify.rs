//! The independent re-check of a simplex conflict (DESIGN §5: every theory deduction is
//! re-checked exactly in `check-deductions` builds).
//!
//! The idea: the certificate names multipliers `μ_d` for linear definitions
//! `out_d = Σ a·arg + c_d`. Every solution satisfies `L = Σ_d μ_d·(Σ a·arg + c_d − out_d) = 0`.
//! The check recomputes `L` from the definitions themselves (not from the tableau) and shows,
//! with exact rationals, that the box the conflict literals describe (plus the level-0 bounds)
//! keeps `L` strictly away from 0: its supremum is below 0 or its infimum above 0. Nothing of
//! the simplex's own state is trusted.
//!
//! An integer conflict (GCD test, [`check_int_conflict`]) names the same kind of multipliers
//! and a set `U` of integer variables: scaled by the common denominator `m` of their
//! coefficients, `Σ_U m·a·x` is a multiple of `g = gcd(m·a)`, while `L = 0` and the box
//! confine it to a range without a multiple of `g`. Integer variables' box ends are rounded
//! to integers (`x > 2` is `x ≥ 3`), which is exact for them, in both checks.

use super::{combination, Rounding};
use crate::bound_table::{Lb, Ub};
use crate::lit::Lit;
use crate::num::Rational;
use crate::solve::{AtomKind, Solver, VarKind};
use crate::var::Var;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;

/// One end of the reason box: value and strictness (`None`: unbounded).
type End = Option<(Rational, bool)>;

/// The sum `L` over a box: `sup` (or `inf`) and whether it is only approached (a strict end
/// was used), or `None` if some variable is unbounded on the side needed.
fn extreme(
    coeffs: &BTreeMap<Var, Rational>,
    constant: &Rational,
    ends: &BTreeMap<Var, (End, End)>,
    sup: bool,
) -> Option<(Rational, bool)> {
    let mut acc = constant.clone();
    let mut strict = false;
    for (v, a) in coeffs {
        let (lo, hi) = ends.get(v)?;
        // the supremum takes the upper end for positive coefficients, the lower for negative
        let end = if a.is_positive() == sup { hi } else { lo };
        let (x, s) = end.as_ref()?;
        acc += a * x;
        strict |= *s;
    }
    Some((acc, strict))
}

/// The largest error the rounded rows of a combination can add: `Σ |μ|·gap(guard)`, each
/// guard's gap taken from its box in `ends` (see `rounding`), which must be finite, and its
/// `¬nan` literal among the conflict's literals.
fn rounding_error(
    s: &Solver,
    rounded: &[Rounding],
    ends: &BTreeMap<Var, (End, End)>,
    lits: &[Lit],
) -> Result<Rational, String> {
    let mut total = Rational::zero();
    for (mu, g, format) in rounded {
        let nan = s.vars[*g]
            .fp
            .and_then(|fl| s.bool_lit(fl.nan))
            .ok_or_else(|| format!("the guard {g:?} is not an IEEE variable"))?;
        if !lits.contains(&!nan) {
            return Err(format!("the guard {g:?} may be NaN"));
        }
        let Some((Some((lo, _)), Some((hi, _)))) = ends.get(g) else {
            return Err(format!("the guard {g:?} is not bounded on both sides"));
        };
        let gap = match format {
            None => Rational::zero(),
            Some(f) => super::rounding::exact_gap(*f, lo, hi)
                .ok_or_else(|| format!("the guard {g:?} may overflow"))?,
        };
        total += mu * gap;
    }
    Ok(total)
}

/// An integer variable's end rounded inwards: `[lo, hi]` to `[⌈lo⌉, ⌊hi⌋]`, an open
/// integral end one step in.
fn round_int(lo: End, hi: End) -> (End, End) {
    let lo = lo.map(|(x, strict)| {
        let c = x.ceil();
        let c = if strict && c == x {
            c + Rational::one()
        } else {
            c
        };
        (c, false)
    });
    let hi = hi.map(|(x, strict)| {
        let f = x.floor();
        let f = if strict && f == x {
            f - Rational::one()
        } else {
            f
        };
        (f, false)
    });
    (lo, hi)
}

/// The reason box of the variables of `coeffs`: level-0 bounds tightened by the literals
/// (each must be a bound literal), integer ends rounded.
fn reason_box(
    s: &Solver,
    coeffs: &BTreeMap<Var, Rational>,
    lits: &[Lit],
) -> Result<BTreeMap<Var, (End, End)>, String> {
    // the reason box: level-0 bounds, tightened by the literals
    let rat = |x: f64| Rational::from_float(x);
    let lo_end = |b: Lb| -> End { rat(b.v).filter(|_| b.v.is_finite()).map(|q| (q, b.strict)) };
    let hi_end = |b: Ub| -> End { rat(b.v).filter(|_| b.v.is_finite()).map(|q| (q, b.strict)) };
    let mut ends: BTreeMap<Var, (End, End)> = BTreeMap::new();
    for v in coeffs.keys() {
        ends.insert(*v, (lo_end(s.root_lb[*v]), hi_end(s.root_ub[*v])));
    }
    for &l in lits {
        let AtomKind::Bound(bi) = s.atom_kind[l.atom().index()] else {
            // a Boolean literal (a rounded row's `¬nan` guard) bounds no variable
            if matches!(s.atom_kind[l.atom().index()], AtomKind::Bool(_)) {
                continue;
            }
            return Err(format!("{} is not a bound literal", s.lit_to_string(l)));
        };
        let b = s.bound_core[bi as usize];
        let Some((lo, hi)) = ends.get_mut(&b.var) else {
            continue;
        };
        if l.is_negated() {
            let nl = lo_end(b.if_false());
            let tighter = match (&nl, &*lo) {
                (Some((x, sx)), Some((y, sy))) => x > y || (x == y && *sx && !*sy),
                (Some(_), None) => true,
                _ => false,
            };
            if tighter {
                *lo = nl;
            }
        } else {
            let nu = hi_end(b.if_true());
            let tighter = match (&nu, &*hi) {
                (Some((x, sx)), Some((y, sy))) => x < y || (x == y && *sx && !*sy),
                (Some(_), None) => true,
                _ => false,
            };
            if tighter {
                *hi = nu;
            }
        }
    }
    for (v, (lo, hi)) in ends.iter_mut() {
        if s.vars[*v].kind == VarKind::Int {
            (*lo, *hi) = round_int(lo.take(), hi.take());
        }
    }
    Ok(ends)
}

/// `Ok` when the multipliers `mults` (definition index, μ) and the conflict literals `lits`
/// refute every point, else why not.
pub(crate) fn check_conflict(
    s: &Solver,
    mults: &[(u32, Rational)],
    lits: &[Lit],
) -> Result<(), String> {
    let (coeffs, constant, rounded) = combination(s, mults)?;
    // the box covers the guards too (a guard's coefficient may cancel in L)
    let mut vars = coeffs.clone();
    for (_, g, _) in &rounded {
        vars.entry(*g).or_default();
    }
    let ends = reason_box(s, &vars, lits)?;
    let err = rounding_error(s, &rounded, &ends, lits)?;
    // L = V + e with |e| ≤ err: V's supremum below −err or its infimum above err
    let zero = Rational::zero();
    if let Some((sup, strict)) = extreme(&coeffs, &constant, &ends, true) {
        let sup = sup + &err;
        if sup < zero || (sup == zero && strict) {
            return Ok(());
        }
    }
    if let Some((inf, strict)) = extreme(&coeffs, &constant, &ends, false) {
        let inf = inf - &err;
        if inf > zero || (inf == zero && strict) {
            return Ok(());
        }
    }
    Err(format!(
        "the combination {coeffs:?} + {constant} can be 0 in the reason box {ends:?}"
    ))
}

/// `Ok` when the multipliers `mults`, the integer variables `unbounded` and the conflict
/// literals `lits` make an integer conflict (see the module docs), else why not.
pub(crate) fn check_int_conflict(
    s: &Solver,
    mults: &[(u32, Rational)],
    unbounded: &[Var],
    lits: &[Lit],
) -> Result<(), String> {
    let (coeffs, constant, rounded) = combination(s, mults)?;
    if !rounded.is_empty() {
        return Err("an integer conflict over a rounded row".into());
    }
    let ends = reason_box(s, &coeffs, lits)?;
    for v in unbounded {
        if s.vars[*v].kind != VarKind::Int {
            return Err(format!(
                "{v:?} of the divisible part is not an integer variable"
            ));
        }
    }
    let (u, rest): (BTreeMap<Var, Rational>, BTreeMap<Var, Rational>) =
        coeffs.into_iter().partition(|(v, _)| unbounded.contains(v));
    if u.is_empty() {
        return Err("the divisible part is empty".into());
    }
    let m = u.values().fold(BigInt::one(), |m, a| m.lcm(a.denom()));
    let g = u
        .values()
        .fold(BigInt::zero(), |g, a| g.gcd(&(a * &m).to_integer()));
    // Σ_U a·x = −(constant + Σ_rest a·x): the negated extremes of the rest bound it
    let Some((sup, sup_open)) = extreme(&rest, &constant, &ends, true) else {
        return Err(format!("the rest {rest:?} is unbounded above in {ends:?}"));
    };
    let Some((inf, inf_open)) = extreme(&rest, &constant, &ends, false) else {
        return Err(format!("the rest {rest:?} is unbounded below in {ends:?}"));
    };
    let mq = Rational::from_integer(m);
    let (lo, lo_open, hi, hi_open) = (-sup * &mq, sup_open, -inf * &mq, inf_open);
    let gq = Rational::from_integer(g.clone());
    let q = &lo / &gq;
    let mut k = q.ceil();
    if k == q && lo_open {
        k += Rational::one();
    }
    let first = k * &gq;
    if first < hi || (first == hi && !hi_open) {
        return Err(format!(
            "{first} is a multiple of {g} in the range [{lo}, {hi}] of the divisible part"
        ));
    }
    Ok(())
}
