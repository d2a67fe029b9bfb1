//! Loop invariants in C from an IC3 certificate (correctness witnesses, format 2.0).
//!
//! The certificate's lemmas `L` hold in every state of every run before the run reaches
//! the target (`ic3::ic3::certificate`); with a SAFE answer no run reaches it, so `L` and
//! `not hit and not ub` hold in every reachable state. A loop's head is a cut point of the
//! encoding, `pc = p`, and the state there holds the C variables' values when control is
//! at the loop's condition. So each lemma with `pc = p`, `hit = false`, `ub = false`
//! substituted is an invariant of the loop, if its remaining literals can be said in C.
//!
//! A lemma is a clause; a literal that C cannot state (a translation temporary, a variable
//! not in scope at the loop, a float's sign bit) cannot be dropped from it (that would make
//! the clause stronger), so the whole clause is dropped instead (the conjunction gets
//! weaker: still true). A float bound is stated with `|| x != x`, weaker than the bound
//! whatever the solver's cube literal says of NaN.

use super::cfg::{Cfg, LoopSite, Ty};
use super::encode::{Encoded, StateId};
use super::parse::Pos;
use ic3::ic3::cube::{CLit, Cube};
use solver::{Rational, Rel};
use std::collections::HashMap;

/// The invariant of one loop as a C expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInvariant {
    /// the `while` / `for` keyword
    pub pos: Pos,
    pub function: String,
    /// a side-effect-free C expression over the variables in scope at the loop
    pub value: String,
}

/// What the certificate says of each loop, and the loops it could say nothing of.
#[derive(Clone, Debug, Default)]
pub struct Projection {
    pub invariants: Vec<LoopInvariant>,
    /// loops without an invariant, each with why (stated on standard error)
    pub skipped: Vec<String>,
}

/// A clause literal after substituting the loop head's pc and the flags.
enum Lit {
    True,
    False,
    C(String),
    /// C cannot state it
    Unstated,
}

/// The certificate's lemmas projected on each `while` / `for` loop head of `cfg`.
pub fn project(cfg: &Cfg, enc: &Encoded, cubes: &[Cube]) -> Projection {
    let mut out = Projection::default();
    let mut sites_at: HashMap<(String, usize, usize), usize> = HashMap::new();
    for l in &cfg.loops {
        *sites_at
            .entry((l.pos.file.clone(), l.pos.line, l.pos.col))
            .or_default() += 1;
    }
    // state index -> C variable index
    let c_var: HashMap<StateId, usize> = enc
        .var_id
        .iter()
        .enumerate()
        .map(|(i, &s)| (s, i))
        .collect();
    for site in &cfg.loops {
        let key = (site.pos.file.clone(), site.pos.line, site.pos.col);
        if sites_at[&key] > 1 {
            // one source loop, several heads (a function inlined at several calls): the
            // invariant would be the disjunction of the heads' projections
            out.skipped.push(format!(
                "{}: the loop is entered from several calls (no invariant stated)",
                site.pos
            ));
            continue;
        }
        let Some(&p) = enc.pc_of_node.get(&site.head) else {
            continue;
        };
        let mut clauses: Vec<String> = Vec::new();
        for cube in cubes {
            if let Some(c) = clause_at(cfg, enc, site, &c_var, p, cube) {
                if !clauses.contains(&c) {
                    clauses.push(c);
                }
            }
        }
        if clauses.is_empty() {
            out.skipped.push(format!(
                "{}: no lemma of the certificate can be stated in C at this loop",
                site.pos
            ));
            continue;
        }
        out.invariants.push(LoopInvariant {
            pos: site.pos.clone(),
            function: site.function.clone(),
            value: clauses.join(" && "),
        });
    }
    out
}

/// The lemma `not cube` at the loop head `pc = p` as a C clause; `None` when it is true
/// there or cannot be stated.
fn clause_at(
    cfg: &Cfg,
    enc: &Encoded,
    site: &LoopSite,
    c_var: &HashMap<StateId, usize>,
    p: usize,
    cube: &Cube,
) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for l in &cube.0 {
        match negated_lit(cfg, enc, site, c_var, p, l) {
            Lit::True => return None,
            Lit::Unstated => return None,
            Lit::False => {}
            Lit::C(s) => {
                if !parts.contains(&s) {
                    parts.push(s)
                }
            }
        }
    }
    if parts.is_empty() {
        // false at this head: the head is unreachable, and `0` is its invariant
        return Some("0".into());
    }
    Some(if parts.len() == 1 {
        parts.pop().expect("one")
    } else {
        format!("({})", parts.join(" || "))
    })
}

/// The literal `not l` at the loop head.
fn negated_lit(
    cfg: &Cfg,
    enc: &Encoded,
    site: &LoopSite,
    c_var: &HashMap<StateId, usize>,
    p: usize,
    l: &CLit,
) -> Lit {
    let var = StateId(l.var() as u32);
    let truth = |b: bool| if b { Lit::True } else { Lit::False };
    if var == enc.pc {
        return match l {
            CLit::Bound { rel, value, .. } => truth(holds(
                rel.negate(),
                &Rational::from_integer((p as i64).into()),
                value,
            )),
            _ => Lit::Unstated,
        };
    }
    if var == enc.hit || var == enc.ub {
        // false in every reachable state: `not (flag = val)` holds iff val is true
        return match l {
            CLit::Bool { val, .. } => truth(*val),
            _ => Lit::Unstated,
        };
    }
    let Some(&v) = c_var.get(&var) else {
        return Lit::Unstated;
    };
    let Some(name) = site
        .vars
        .iter()
        .find(|(_, i)| *i == v)
        .map(|(n, _)| n.as_str())
    else {
        return Lit::Unstated;
    };
    let ty = cfg.vars[v].ty;
    match l {
        CLit::Bound { rel, value, .. } => bound_c(name, ty, rel.negate(), value),
        CLit::Nan { val, .. } if ty.is_float() => Lit::C(if *val {
            format!("{name} == {name}")
        } else {
            format!("{name} != {name}")
        }),
        _ => Lit::Unstated,
    }
}

/// `a rel b` on rationals.
fn holds(rel: Rel, a: &Rational, b: &Rational) -> bool {
    match rel {
        Rel::Le => a <= b,
        Rel::Lt => a < b,
        Rel::Ge => a >= b,
        Rel::Gt => a > b,
    }
}

/// `name rel value` in C for a variable of type `ty`.
fn bound_c(name: &str, ty: Ty, rel: Rel, value: &Rational) -> Lit {
    let (lo, hi, signed, bits) = match ty {
        Ty::Bool => (0i128, 1i128, false, 8u32),
        Ty::Int { bits, signed } => {
            let bits = bits as u32;
            if signed {
                (
                    -(1i128 << (bits - 1)),
                    (1i128 << (bits - 1)) - 1,
                    true,
                    bits,
                )
            } else {
                (0, (1i128 << bits) - 1, false, bits)
            }
        }
        Ty::F32 | Ty::F64 => return float_bound(name, rel, value),
        Ty::Void => return Lit::Unstated,
    };
    // the integer form: `x <= n` or `x >= n`
    let (upper, n) = match rel {
        Rel::Le => (true, value.floor()),
        Rel::Lt => (true, value.ceil() - Rational::from_integer(1.into())),
        Rel::Ge => (false, value.ceil()),
        Rel::Gt => (false, value.floor() + Rational::from_integer(1.into())),
    };
    let Some(n) = num_traits::ToPrimitive::to_i128(n.numer()) else {
        // far outside every C type's range
        return truth_of_far(upper, n.numer().sign() == num_bigint::Sign::Minus);
    };
    // a bound at or beyond the type's end says nothing (or nothing possible): decided here,
    // so every constant written below lies inside the variable's type
    if upper {
        if n >= hi {
            return Lit::True;
        }
        if n < lo {
            return Lit::False;
        }
    } else {
        if n <= lo {
            return Lit::True;
        }
        if n > hi {
            return Lit::False;
        }
    }
    let op = if upper { "<=" } else { ">=" };
    Lit::C(format!("{name} {op} {}", int_const(n, signed, bits)))
}

/// A bound beyond any 128-bit value: `x <= huge` is true, `x <= -huge` false, and so on.
fn truth_of_far(upper: bool, negative: bool) -> Lit {
    if upper != negative {
        Lit::True
    } else {
        Lit::False
    }
}

/// A C constant of value `n` whose type compares correctly with the variable's type
/// (an unsigned suffix for unsigned variables, whose comparisons convert to unsigned).
fn int_const(n: i128, signed: bool, bits: u32) -> String {
    let suffix = match (signed, bits > 32) {
        (true, false) => "",
        (true, true) => "LL",
        (false, false) => "U",
        (false, true) => "ULL",
    };
    if signed && n == -(1i128 << (bits - 1)) {
        // `-N` negates the constant `N`, which must itself fit a type: the type's minimum
        // is written `(-(N - 1) - 1)`
        format!("(-{}{suffix} - 1)", -(n + 1))
    } else if n < 0 {
        format!("-{}{suffix}", -n)
    } else {
        format!("{n}{suffix}")
    }
}

/// `x rel c` for a float variable, with `c` a float's exact value: a double constant that
/// reads back exactly, and `|| x != x` (NaN), which makes it no stronger than the lemma.
fn float_bound(name: &str, rel: Rel, value: &Rational) -> Lit {
    let Some(f) = rational_to_f64_exact(value) else {
        return Lit::Unstated;
    };
    let op = match rel {
        Rel::Le => "<=",
        Rel::Lt => "<",
        Rel::Ge => ">=",
        Rel::Gt => ">",
    };
    Lit::C(format!("({name} {op} {f:e} || {name} != {name})"))
}

fn rational_to_f64_exact(q: &Rational) -> Option<f64> {
    let f = num_traits::ToPrimitive::to_f64(q)?;
    (f.is_finite() && Rational::from_float(f).as_ref() == Some(q)).then_some(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64) -> Rational {
        Rational::from_integer(n.into())
    }

    fn text(l: Lit) -> String {
        match l {
            Lit::True => "TRUE".into(),
            Lit::False => "FALSE".into(),
            Lit::C(s) => s,
            Lit::Unstated => "?".into(),
        }
    }

    #[test]
    fn integer_bounds_stay_inside_the_type() {
        let int = Ty::Int {
            bits: 32,
            signed: true,
        };
        let u8t = Ty::Int {
            bits: 8,
            signed: false,
        };
        assert_eq!(text(bound_c("x", int, Rel::Le, &q(5))), "x <= 5");
        assert_eq!(text(bound_c("x", int, Rel::Lt, &q(5))), "x <= 4");
        assert_eq!(text(bound_c("x", int, Rel::Ge, &q(-3))), "x >= -3");
        assert_eq!(
            text(bound_c("x", int, Rel::Le, &q(-(1i64 << 31)))),
            "x <= (-2147483647 - 1)"
        );
        // an unsigned variable is never negative: the bound decides itself
        assert_eq!(text(bound_c("u", u8t, Rel::Ge, &q(-3))), "TRUE");
        assert_eq!(text(bound_c("u", u8t, Rel::Le, &q(-1))), "FALSE");
        assert_eq!(text(bound_c("u", u8t, Rel::Le, &q(7))), "u <= 7U");
        assert_eq!(text(bound_c("x", int, Rel::Le, &q(1i64 << 40))), "TRUE");
    }

    #[test]
    fn float_bounds_admit_nan_and_read_back_exactly() {
        let v = Rational::from_float(0.1f32 as f64).expect("finite");
        let s = text(float_bound("f", Rel::Le, &v));
        assert_eq!(s, format!("(f <= {:e} || f != f)", 0.1f32 as f64));
        let c: f64 = s["(f <= ".len()..s.find(" ||").expect("or")]
            .parse()
            .expect("number");
        assert_eq!(c, 0.1f32 as f64);
    }
}
