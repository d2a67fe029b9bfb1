//! Common monomial factors of polynomial sums (issue #23): `h = Σ cᵢ·mᵢ` over real monomials
//! that all contain `x0^k` becomes `h = x0^k · (Σ cᵢ·mᵢ/x0^k)`.
//!
//! Why: at a corner where a factor vanishes, interval evaluation of the expanded sum cannot
//! see the sign of the rest. `-2·x0¹⁵ + 12·x0¹⁵·x1 - 24·x0¹⁵·x1² > 0` with `x0 ∈ (0, ε]` has
//! a positive term for every `ε` (each term's range touches 0 from one side), so ICP never
//! refutes it, however narrow the boxes; the factored `x0¹⁵ · (-2 + 12·x1 - 24·x1²)` is a
//! product of `(0, ε¹⁵]` and a range below `-1/2` once `x1` is split, which is negative.
//!
//! The rewrite is an identity of real polynomials, so the factored formula is *equivalent* to
//! the original and either answer of a search on it holds for the original. That identity is
//! not taken on trust: [`check`] expands the old and the new definition of every rewritten
//! variable into polynomials over the base variables, independently of how [`factor`] built
//! them, and compares them exactly; [`factor`] returns only formulas [`check`] accepted.

use crate::formula::{Def, Domain, Formula, Op, Sort, VarInfo, VarOrigin};
use crate::num::Rational;
use crate::var::Var;
use num_traits::{One, Zero};
use std::collections::{BTreeMap, HashMap};

/// A monomial: base variable → exponent (exponents ≥ 1).
pub type Monomial = BTreeMap<Var, u32>;
/// A polynomial: monomial → nonzero coefficient.
pub type Polynomial = BTreeMap<Monomial, Rational>;

/// Definitions by output variable.
fn defs_by_out(f: &Formula) -> HashMap<Var, &Def> {
    f.defs.iter().map(|d| (d.out, d)).collect()
}

/// `v` as a scaled monomial `k·m` over base variables: through `Mul` and `Pow` definitions
/// and one-argument `Linear` scalings (`-2·x`, how the front end lowers a coefficient inside a
/// product) of real variables; any other real variable is a base variable. `None` outside
/// the reals.
fn monomial(f: &Formula, defs: &HashMap<Var, &Def>, v: Var) -> Option<(Rational, Monomial)> {
    if f.vars[v].sort != Sort::Real {
        return None;
    }
    match defs.get(&v) {
        Some(Def {
            op: Op::Mul, args, ..
        }) => {
            let (k, mut m) = monomial(f, defs, args[0])?;
            let (l, n) = monomial(f, defs, args[1])?;
            for (x, e) in n {
                *m.entry(x).or_insert(0) += e;
            }
            Some((k * l, m))
        }
        Some(Def {
            op: Op::Pow(n),
            args,
            ..
        }) if *n >= 1 => {
            let (k, m) = monomial(f, defs, args[0])?;
            let k = num_traits::pow(k, *n as usize);
            Some((k, m.into_iter().map(|(x, e)| (x, e * n)).collect()))
        }
        Some(Def {
            op: Op::Linear { coeffs, constant },
            args,
            ..
        }) if args.len() == 1 && constant.is_zero() && !coeffs[0].is_zero() => {
            let (k, m) = monomial(f, defs, args[0])?;
            Some((k * &coeffs[0], m))
        }
        _ => Some((Rational::one(), Monomial::from([(v, 1)]))),
    }
}

/// `v` expanded into a polynomial over base variables: through `Linear`, `Mul` and `Pow`
/// definitions of real variables (the checker's own expansion, a different route from
/// [`monomial`]). `None` for anything else defined (a `sin`, a division) above a base.
pub fn expand(f: &Formula, v: Var) -> Option<Polynomial> {
    expand_in(f, &defs_by_out(f), v)
}

fn expand_in(f: &Formula, defs: &HashMap<Var, &Def>, v: Var) -> Option<Polynomial> {
    if f.vars[v].sort != Sort::Real {
        return None;
    }
    let Some(d) = defs.get(&v) else {
        return Some(Polynomial::from([(
            Monomial::from([(v, 1)]),
            Rational::one(),
        )]));
    };
    match &d.op {
        Op::Linear { coeffs, constant } => {
            let mut p = Polynomial::new();
            if !constant.is_zero() {
                p.insert(Monomial::new(), constant.clone());
            }
            for (c, &a) in coeffs.iter().zip(&d.args) {
                for (m, k) in expand_in(f, defs, a)? {
                    add_term(&mut p, m, c * k);
                }
            }
            Some(p)
        }
        Op::Mul => Some(mul(
            &expand_in(f, defs, d.args[0])?,
            &expand_in(f, defs, d.args[1])?,
        )),
        Op::Pow(n) => {
            let b = expand_in(f, defs, d.args[0])?;
            let mut p = Polynomial::from([(Monomial::new(), Rational::one())]);
            for _ in 0..*n {
                p = mul(&p, &b);
            }
            Some(p)
        }
        // a base variable that happens to be defined otherwise is not expanded
        _ => Some(Polynomial::from([(
            Monomial::from([(v, 1)]),
            Rational::one(),
        )])),
    }
}

fn add_term(p: &mut Polynomial, m: Monomial, c: Rational) {
    let e = p.entry(m).or_insert_with(Rational::zero);
    *e += c;
    if e.is_zero() {
        p.retain(|_, c| !c.is_zero());
    }
}

fn mul(a: &Polynomial, b: &Polynomial) -> Polynomial {
    let mut p = Polynomial::new();
    for (ma, ca) in a {
        for (mb, cb) in b {
            let mut m = ma.clone();
            for (x, e) in mb {
                *m.entry(*x).or_insert(0) += e;
            }
            add_term(&mut p, m, ca * cb);
        }
    }
    p
}

/// Checks that every variable defined in `original` has, in `factored`, a definition that
/// expands to the same polynomial whenever it expands in `original` and its definition was
/// changed; the other definitions must be unchanged, the roots, atoms and clauses identical.
/// Returns how many definitions were rewritten, or why the check failed.
pub fn check(original: &Formula, factored: &Formula) -> Result<usize, String> {
    if original.roots != factored.roots
        || original.atoms != factored.atoms
        || original.clauses != factored.clauses
    {
        return Err("roots, atoms or clauses differ".into());
    }
    for (v, info) in original.vars.iter() {
        if factored.vars.len() <= v.index() || factored.vars[v] != *info {
            return Err(format!("variable {} changed", info.name));
        }
    }
    let new_defs = defs_by_out(factored);
    let mut rewritten = 0;
    for d in &original.defs {
        let Some(n) = new_defs.get(&d.out) else {
            return Err(format!("{} lost its definition", original.vars[d.out].name));
        };
        if *n == d {
            continue;
        }
        let old = expand(original, d.out);
        let new = expand(factored, d.out);
        match (old, new) {
            (Some(a), Some(b)) if a == b => rewritten += 1,
            _ => {
                return Err(format!(
                    "the new definition of {} is not the same polynomial",
                    original.vars[d.out].name
                ))
            }
        }
    }
    // every added definition defines a new variable (one definition per variable)
    let old_outs: std::collections::HashSet<Var> = original.defs.iter().map(|d| d.out).collect();
    let added = factored.defs.len() - original.defs.len();
    let fresh = factored
        .defs
        .iter()
        .filter(|d| !old_outs.contains(&d.out))
        .count();
    if fresh != added || new_defs.len() != factored.defs.len() {
        return Err("a variable has two definitions".into());
    }
    Ok(rewritten)
}

/// The formula with every zero-constant `Linear` definition over at least two real monomials
/// that share a common factor rewritten as that factor times the quotient sum (module docs).
/// `None` when there is nothing to rewrite (or, defensively, when [`check`] rejects the
/// result).
pub fn factor(f: &Formula) -> Option<Formula> {
    let defs = defs_by_out(f);
    let mut g = f.clone();
    g.defs.clear();
    let mut fresh = 0u32;
    for d in &f.defs {
        match common_factor(f, &defs, d) {
            Some((common, quotients)) => {
                let Op::Linear { coeffs, .. } = &d.op else {
                    unreachable!("common_factor only accepts Linear")
                };
                let span = match f.vars[d.out].origin {
                    VarOrigin::Aux { span } => span,
                    _ => (0, 0),
                };
                let mut new_var = |g: &mut Formula| {
                    fresh += 1;
                    g.add_var(VarInfo {
                        name: format!("{}#f{fresh}", f.vars[d.out].name),
                        sort: Sort::Real,
                        domain: Domain::unbounded(),
                        origin: VarOrigin::Aux { span },
                        fp_const: None,
                    })
                };
                let p = build(&mut g, &common, &mut new_var).expect("a common factor is not 1");
                let mut args = Vec::new();
                let mut qcoeffs = Vec::new();
                let mut constant = Rational::zero();
                for (c, (k, q)) in coeffs.iter().zip(&quotients) {
                    match build(&mut g, q, &mut new_var) {
                        Some(x) => {
                            args.push(x);
                            qcoeffs.push(c * k);
                        }
                        None => constant += c * k,
                    }
                }
                let q = new_var(&mut g);
                g.defs.push(Def {
                    out: q,
                    op: Op::Linear {
                        coeffs: qcoeffs,
                        constant,
                    },
                    args,
                });
                g.defs.push(Def {
                    out: d.out,
                    op: Op::Mul,
                    args: vec![p, q],
                });
            }
            None => g.defs.push(d.clone()),
        }
    }
    if g.defs.len() == f.defs.len() {
        return None;
    }
    check(f, &g).ok().filter(|&n| n > 0).map(|_| g)
}

/// For `d = Σ cᵢ·kᵢ·mᵢ` (no constant, ≥ 2 real scaled-monomial arguments): the greatest
/// common monomial of the `mᵢ` when it is not 1, and each argument's `kᵢ` and quotient.
fn common_factor(
    f: &Formula,
    defs: &HashMap<Var, &Def>,
    d: &Def,
) -> Option<(Monomial, Vec<(Rational, Monomial)>)> {
    let Op::Linear { constant, .. } = &d.op else {
        return None;
    };
    if !constant.is_zero() || d.args.len() < 2 || f.vars[d.out].sort != Sort::Real {
        return None;
    }
    let monos: Vec<(Rational, Monomial)> = d
        .args
        .iter()
        .map(|&a| monomial(f, defs, a))
        .collect::<Option<_>>()?;
    let mut common = monos[0].1.clone();
    for (_, m) in &monos[1..] {
        common = common
            .into_iter()
            .filter_map(|(x, e)| m.get(&x).map(|&k| (x, e.min(k))))
            .collect();
    }
    if common.is_empty() {
        return None;
    }
    let quotients = monos
        .iter()
        .map(|(k, m)| {
            let q = m
                .iter()
                .filter_map(|(x, &e)| {
                    let left = e - common.get(x).copied().unwrap_or(0);
                    (left > 0).then_some((*x, left))
                })
                .collect();
            (k.clone(), q)
        })
        .collect();
    Some((common, quotients))
}

/// A variable equal to the monomial `m`, built from fresh `Pow` and `Mul` definitions (a base
/// variable itself when `m` is one with exponent 1); `None` for the empty monomial 1.
fn build(
    g: &mut Formula,
    m: &Monomial,
    new_var: &mut impl FnMut(&mut Formula) -> Var,
) -> Option<Var> {
    let mut acc: Option<Var> = None;
    for (&x, &e) in m {
        let factor = if e == 1 {
            x
        } else {
            let p = new_var(g);
            g.defs.push(Def {
                out: p,
                op: Op::Pow(e),
                args: vec![x],
            });
            p
        };
        acc = Some(match acc {
            None => factor,
            Some(a) => {
                let prod = new_var(g);
                g.defs.push(Def {
                    out: prod,
                    op: Op::Mul,
                    args: vec![a, factor],
                });
                prod
            }
        });
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::{Atom, Rel};

    fn real(f: &mut Formula, name: &str) -> Var {
        f.add_var(VarInfo {
            name: name.into(),
            sort: Sort::Real,
            domain: Domain::closed(
                Rational::from_integer((-10).into()),
                Rational::from_integer(10.into()),
            ),
            origin: VarOrigin::Declared { span: (0, 0) },
            fp_const: None,
        })
    }

    fn aux(f: &mut Formula, name: &str, op: Op, args: Vec<Var>) -> Var {
        let v = f.add_var(VarInfo {
            name: name.into(),
            sort: Sort::Real,
            domain: Domain::unbounded(),
            origin: VarOrigin::Aux { span: (0, 0) },
            fp_const: None,
        });
        f.add_def(Def { out: v, op, args });
        v
    }

    fn q(n: i64) -> Rational {
        Rational::from_integer(n.into())
    }

    /// `h = x²·y - 3·x² ` (hand derivation: `x²·(y - 3)`), with the root `h > 0`.
    fn sample() -> (Formula, Var, Var, Var) {
        let mut f = Formula::new();
        let x = real(&mut f, "x");
        let y = real(&mut f, "y");
        let x2 = aux(&mut f, "x2", Op::Pow(2), vec![x]);
        let x2y = aux(&mut f, "x2y", Op::Mul, vec![y, x2]);
        let h = aux(
            &mut f,
            "h",
            Op::Linear {
                coeffs: vec![q(1), q(-3)],
                constant: q(0),
            },
            vec![x2y, x2],
        );
        let l = f.atom_lit(Atom::Bound {
            var: h,
            rel: Rel::Gt,
            value: q(0),
        });
        f.add_root(l);
        (f, x, y, h)
    }

    #[test]
    fn factors_out_the_common_monomial() {
        let (f, x, y, h) = sample();
        let g = factor(&f).expect("x² is common");
        assert_eq!(check(&f, &g), Ok(1));
        // the new definition of h is a product whose first factor expands to x²
        let d = g.defs.iter().find(|d| d.out == h).unwrap();
        assert_eq!(d.op, Op::Mul);
        let p = expand(&g, d.args[0]).unwrap();
        assert_eq!(p, Polynomial::from([(Monomial::from([(x, 2)]), q(1))]));
        let rest = expand(&g, d.args[1]).unwrap();
        let want = Polynomial::from([(Monomial::from([(y, 1)]), q(1)), (Monomial::new(), q(-3))]);
        assert_eq!(rest, want);
    }

    #[test]
    fn coefficients_inside_products_are_factored_too() {
        // the front end lowers `-2*x*x + 3*x*y` as `x·(-2·x) + x·(3·y)` (hand: x·(-2·x + 3·y))
        let mut f = Formula::new();
        let x = real(&mut f, "x");
        let y = real(&mut f, "y");
        let lin = |c: i64| Op::Linear {
            coeffs: vec![q(c)],
            constant: q(0),
        };
        let m2x = aux(&mut f, "m2x", lin(-2), vec![x]);
        let a = aux(&mut f, "a", Op::Mul, vec![x, m2x]);
        let p3y = aux(&mut f, "p3y", lin(3), vec![y]);
        let b = aux(&mut f, "b", Op::Mul, vec![x, p3y]);
        let h = aux(
            &mut f,
            "h",
            Op::Linear {
                coeffs: vec![q(1), q(1)],
                constant: q(0),
            },
            vec![a, b],
        );
        let g = factor(&f).expect("x is common");
        let d = g.defs.iter().find(|d| d.out == h).unwrap();
        assert_eq!(
            expand(&g, d.args[0]).unwrap(),
            Polynomial::from([(Monomial::from([(x, 1)]), q(1))])
        );
        assert_eq!(
            expand(&g, d.args[1]).unwrap(),
            Polynomial::from([
                (Monomial::from([(x, 1)]), q(-2)),
                (Monomial::from([(y, 1)]), q(3)),
            ])
        );
    }

    #[test]
    fn nothing_to_factor() {
        let mut f = Formula::new();
        let x = real(&mut f, "x");
        let y = real(&mut f, "y");
        aux(
            &mut f,
            "h",
            Op::Linear {
                coeffs: vec![q(1), q(1)],
                constant: q(0),
            },
            vec![x, y],
        );
        assert!(factor(&f).is_none());
    }

    #[test]
    fn a_wrong_factorisation_is_rejected() {
        let (f, _, _, h) = sample();
        let mut g = factor(&f).unwrap();
        // break the quotient: its constant -3 becomes -2 (x²·(y - 2) ≠ x²·y - 3·x²)
        let d = g.defs.iter().find(|d| d.out == h).unwrap().clone();
        let qd = g.defs.iter_mut().find(|e| e.out == d.args[1]).unwrap();
        let Op::Linear { constant, .. } = &mut qd.op else {
            panic!("the quotient is a Linear definition")
        };
        *constant = q(-2);
        assert!(check(&f, &g).is_err());
        // and a root that changed is rejected too
        let mut g2 = factor(&f).unwrap();
        g2.roots.clear();
        assert!(check(&f, &g2).is_err());
    }
}
