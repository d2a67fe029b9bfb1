//! Existence proofs for candidate boxes (issue #23): a solution exists although no rational
//! point satisfies the formula.
//!
//! The idea: when the search ends on a box whose solution is irrational (`x·x = 3` leaves a
//! box around √3), no exact point check can succeed, yet the box may provably contain a
//! solution. The formula's equalities `y_j = c_j` (both bound literals of `y_j` at `c_j`
//! required) form a system `g(u) = 0` over as many *unknown* inputs `u`; every other input is
//! fixed at an exact rational (integers at integers). The Krawczyk test
//!
//! ```text
//!   K(U) = m − Y·g(m) + (I − Y·J(U))·(U − m)  ⊂  interior(U)
//! ```
//!
//! (m the midpoint of the box U, J(U) an interval enclosure of g's Jacobian over U, Y any
//! real matrix, here an approximate inverse of J at m) proves that U contains exactly one
//! zero of g, and that zero lies in K(U) ∩ U (Krawczyk 1969; Moore 1977; Neumaier,
//! *Interval Methods for Systems of Equations*, Thm. 5.1.8). Every other literal that the
//! formula needs must then hold on the *whole* region K(U) ∩ U, with the fixed inputs at
//! their values: bound literals by interval evaluation compared exactly with their rational
//! constants, Booleans by their values; every variable lies in its declared domain, every
//! integer variable is an integer. Then the zero is a solution.
//!
//! All enclosures are the contractors' `fwd_*` functions and [`Interval`]'s outwardly
//! rounded arithmetic (MPFR for the transcendental functions), the same trusted base as an
//! UNSAT answer. Derivatives are forward-mode interval differentiation; an operation that is
//! not differentiable on the region (a division whose divisor box holds 0, `abs` across 0, a
//! logarithm or even root touching 0, `min`/`max` whose arguments overlap) ends the attempt.
//!
//! Split in two: [`prove`] searches (which equalities, which inputs are unknowns, which
//! inflation of the box, the preconditioner) and is not trusted; [`check`] re-checks an
//! [`ExistenceProof`] from the formula alone and is the only judge. Only real and integer
//! arithmetic is handled: a formula with IEEE or machine-integer variables gets no proof
//! (their exact point checks are the route there).

use crate::contractors::{
    fwd_abs, fwd_cos, fwd_div, fwd_exp, fwd_exp10, fwd_exp2, fwd_log, fwd_log10, fwd_log2, fwd_max,
    fwd_min, fwd_mul, fwd_nrt, fwd_pow, fwd_sin, fwd_tan,
};
use crate::formula::{Atom, Formula, Lit, Op, Rel, Sort};
use crate::interval::Interval;
use crate::num::Rational;
use crate::var::{Var, VarMap};
use num_traits::ToPrimitive;
use std::cmp::Ordering;

/// The most equalities a proof handles (the Jacobian is dense: m² intervals per evaluation).
const MAX_EQUATIONS: usize = 32;

/// A certificate that the formula has a solution (module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct ExistenceProof {
    /// inputs fixed at exact values (reals and integers)
    pub fixed: Vec<(Var, Rational)>,
    /// Boolean inputs and their values
    pub bools: Vec<(Var, bool)>,
    /// the equalities `y = c` the zero satisfies exactly, one per unknown
    pub equations: Vec<(Var, Rational)>,
    /// the inputs solved for, and the box `U` of each
    pub unknowns: Vec<(Var, Interval)>,
    /// the preconditioner `Y` (row-major, `m × m`)
    pub preconditioner: Vec<Vec<f64>>,
}

impl ExistenceProof {
    /// The kind of proof, as reports name it: the Krawczyk test when there are equations,
    /// else interval evaluation at a rational point (the point satisfies every constraint,
    /// shown with enclosures where exact arithmetic cannot go: `sin` of a rational).
    pub fn kind(&self) -> &'static str {
        if self.unknowns.is_empty() {
            "interval evaluation"
        } else {
            "Krawczyk"
        }
    }
}

/// Why a certificate was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected(pub String);

fn reject<T>(why: impl Into<String>) -> Result<T, Rejected> {
    Err(Rejected(why.into()))
}

/// How a variable gets its value in an evaluation.
#[derive(Clone, Debug)]
enum Input {
    Num(Interval),
    Bool(bool),
}

/// The definition order and the def computing each variable.
struct Structure {
    order: Vec<usize>,
    def_of: VarMap<Option<usize>>,
}

fn structure(f: &Formula) -> Result<Structure, Rejected> {
    let n = f.vars.len();
    let mut def_of: VarMap<Option<usize>> = VarMap::from_elem(None, n);
    for (i, d) in f.defs.iter().enumerate() {
        if def_of[d.out].is_some() {
            return reject(format!("{} has two definitions", f.vars[d.out].name));
        }
        def_of[d.out] = Some(i);
    }
    for (_, info) in f.vars.iter() {
        if !matches!(info.sort, Sort::Bool | Sort::Int | Sort::Real) {
            return reject("only Boolean, integer and real variables are handled");
        }
    }
    // depth-first topological order of the definitions; a cycle ends the attempt
    let mut state = vec![0u8; f.defs.len()]; // 0 new, 1 on the stack, 2 done
    let mut order = Vec::with_capacity(f.defs.len());
    for root in 0..f.defs.len() {
        if state[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        state[root] = 1;
        while let Some((i, k)) = stack.pop() {
            if let Some(&a) = f.defs[i].args.get(k) {
                stack.push((i, k + 1));
                if let Some(j) = def_of[a] {
                    match state[j] {
                        0 => {
                            state[j] = 1;
                            stack.push((j, 0));
                        }
                        1 => return reject("cyclic definitions"),
                        _ => {}
                    }
                }
            } else {
                state[i] = 2;
                order.push(i);
            }
        }
    }
    Ok(Structure { order, def_of })
}

/// Interval values (and, with `grad`, interval gradients with respect to the unknowns) of
/// every variable.
struct Eval {
    val: VarMap<Option<Interval>>,
    bool_val: VarMap<Option<bool>>,
    grad: VarMap<Option<Vec<Interval>>>,
}

fn zero() -> Interval {
    Interval::point(0.0)
}

fn scalar(q: &Rational) -> Interval {
    Interval::from_rational(q)
}

fn axpy(acc: &mut [Interval], a: Interval, x: &[Interval]) {
    for (s, &xi) in acc.iter_mut().zip(x) {
        *s = *s + a * xi;
    }
}

/// Evaluates the definitions in `st.order` over `inputs`; `unknowns[k]` is the k-th unknown
/// (its gradient is the k-th unit vector). `Err` if an operation has no value or (with
/// gradients) no derivative on the region.
fn evaluate(
    f: &Formula,
    st: &Structure,
    inputs: &VarMap<Option<Input>>,
    unknowns: &[Var],
    with_grad: bool,
) -> Result<Eval, Rejected> {
    let n = f.vars.len();
    let m = unknowns.len();
    let mut ev = Eval {
        val: VarMap::from_elem(None, n),
        bool_val: VarMap::from_elem(None, n),
        grad: VarMap::from_elem(None, n),
    };
    for v in f.vars.keys() {
        if st.def_of[v].is_some() {
            continue;
        }
        match &inputs[v] {
            Some(Input::Num(iv)) => ev.val[v] = Some(*iv),
            Some(Input::Bool(b)) => ev.bool_val[v] = Some(*b),
            None => return reject(format!("input {} has no value", f.vars[v].name)),
        }
    }
    if with_grad {
        for (k, &u) in unknowns.iter().enumerate() {
            let mut g = vec![zero(); m];
            g[k] = Interval::point(1.0);
            ev.grad[u] = Some(g);
        }
    }
    for &i in &st.order {
        let d = &f.defs[i];
        if f.vars[d.out].sort == Sort::Bool {
            return reject("Boolean-valued definitions are not handled");
        }
        let num = |k: usize| -> Result<Interval, Rejected> {
            ev.val[d.args[k]]
                .ok_or_else(|| Rejected(format!("{} has no number", f.vars[d.args[k]].name)))
        };
        let boolean = |k: usize| -> Result<bool, Rejected> {
            ev.bool_val[d.args[k]]
                .ok_or_else(|| Rejected(format!("{} has no truth value", f.vars[d.args[k]].name)))
        };
        let differentiable = |ok: bool, what: &str| -> Result<(), Rejected> {
            if ok || !with_grad {
                Ok(())
            } else {
                reject(format!("{what} is not differentiable on the region"))
            }
        };
        // value, and the derivative as a combination Σ coef·grad(arg)
        let (value, parts): (Interval, Vec<(Interval, usize)>) = match &d.op {
            Op::Linear { coeffs, constant } => {
                let mut s = scalar(constant);
                let mut parts = Vec::new();
                for (k, c) in coeffs.iter().enumerate() {
                    let ci = scalar(c);
                    s = s + ci * num(k)?;
                    parts.push((ci, k));
                }
                (s, parts)
            }
            Op::Mul => {
                let (a, b) = (num(0)?, num(1)?);
                (fwd_mul(a, b), vec![(b, 0), (a, 1)])
            }
            Op::Pow(p) => {
                let a = num(0)?;
                let dv = match *p {
                    0 => zero(),
                    p => Interval::point(p as f64) * fwd_pow(a, p - 1),
                };
                (fwd_pow(a, *p), vec![(dv, 0)])
            }
            Op::Nrt(p) => {
                let a = num(0)?;
                // even roots of negatives are unspecified: no value there
                if *p % 2 == 0 && a.lo() < 0.0 {
                    return reject("an even root of a possibly negative number");
                }
                // x^(1/n) is differentiable where x ≠ 0
                differentiable(!a.contains_zero(), "a root at 0")?;
                let v = fwd_nrt(a, *p);
                let dv = Interval::point(1.0) / (Interval::point(*p as f64) * fwd_pow(v, p - 1));
                (v, vec![(dv, 0)])
            }
            Op::Div => {
                let (a, b) = (num(0)?, num(1)?);
                if b.contains_zero() {
                    return reject("a division whose divisor may be 0");
                }
                let v = fwd_div(a, b);
                let inv = Interval::point(1.0) / b;
                (v, vec![(inv, 0), (-(v * inv), 1)])
            }
            Op::Abs => {
                let a = num(0)?;
                let s = if a.lo() > 0.0 {
                    1.0
                } else if a.hi() < 0.0 {
                    -1.0
                } else {
                    differentiable(false, "abs at 0")?;
                    0.0
                };
                (fwd_abs(a), vec![(Interval::point(s), 0)])
            }
            Op::Min | Op::Max => {
                let (a, b) = (num(0)?, num(1)?);
                let is_min = d.op == Op::Min;
                let v = if is_min { fwd_min(a, b) } else { fwd_max(a, b) };
                // which argument is the result on the whole region
                let first = if a.hi() < b.lo() {
                    is_min
                } else if b.hi() < a.lo() {
                    !is_min
                } else {
                    differentiable(false, "min/max of overlapping arguments")?;
                    true
                };
                (v, vec![(Interval::point(1.0), if first { 0 } else { 1 })])
            }
            Op::Sin => {
                let a = num(0)?;
                (fwd_sin(a), vec![(fwd_cos(a), 0)])
            }
            Op::Cos => {
                let a = num(0)?;
                (fwd_cos(a), vec![(-fwd_sin(a), 0)])
            }
            Op::Tan => {
                let a = num(0)?;
                let v = fwd_tan(a);
                if !v.is_bounded() {
                    return reject("tan near a pole");
                }
                (v, vec![(Interval::point(1.0) + v.sqr(), 0)])
            }
            Op::Exp | Op::Exp2 | Op::Exp10 => {
                let a = num(0)?;
                let (v, ln_base) = match d.op {
                    Op::Exp => (fwd_exp(a), Interval::point(1.0)),
                    Op::Exp2 => (fwd_exp2(a), fwd_log(Interval::point(2.0))),
                    _ => (fwd_exp10(a), fwd_log(Interval::point(10.0))),
                };
                (v, vec![(v * ln_base, 0)])
            }
            Op::Log | Op::Log2 | Op::Log10 => {
                let a = num(0)?;
                if a.lo() <= 0.0 {
                    return reject("a logarithm of a possibly non-positive number");
                }
                let (v, ln_base) = match d.op {
                    Op::Log => (fwd_log(a), Interval::point(1.0)),
                    Op::Log2 => (fwd_log2(a), fwd_log(Interval::point(2.0))),
                    _ => (fwd_log10(a), fwd_log(Interval::point(10.0))),
                };
                (v, vec![(Interval::point(1.0) / (a * ln_base), 0)])
            }
            Op::Ite => {
                let k = if boolean(0)? { 1 } else { 2 };
                (num(k)?, vec![(Interval::point(1.0), k)])
            }
            Op::BoolToNum => {
                let b = boolean(0)?;
                (Interval::point(if b { 1.0 } else { 0.0 }), Vec::new())
            }
            Op::Convert => {
                let a = num(0)?;
                (a, vec![(Interval::point(1.0), 0)])
            }
            other => return reject(format!("operation {other:?} is not handled")),
        };
        if value.is_empty() {
            return reject("an operation has no value on the region");
        }
        ev.val[d.out] = Some(value);
        if with_grad {
            let mut acc = vec![zero(); m];
            let mut any = false;
            for (c, k) in parts {
                if let Some(gk) = ev.grad[d.args[k]].as_deref() {
                    axpy(&mut acc, c, gk);
                    any = true;
                }
            }
            if any {
                ev.grad[d.out] = Some(acc);
            }
        }
    }
    Ok(ev)
}

/// Exact comparison of a double with a rational.
fn cmp_f64(x: f64, q: &Rational) -> Ordering {
    if x == f64::INFINITY {
        return Ordering::Greater;
    }
    if x == f64::NEG_INFINITY {
        return Ordering::Less;
    }
    Rational::from_float(x)
        .map(|r| r.cmp(q))
        .unwrap_or(Ordering::Greater)
}

/// `true` if every value of `iv` satisfies `x rel c`.
fn surely(iv: Interval, rel: Rel, c: &Rational) -> bool {
    if iv.is_empty() {
        return false;
    }
    match rel {
        Rel::Le => match cmp_f64(iv.hi(), c) {
            Ordering::Less => true,
            Ordering::Equal => true, // hi ≤ c whether or not hi is in the set
            Ordering::Greater => false,
        },
        Rel::Lt => match cmp_f64(iv.hi(), c) {
            Ordering::Less => true,
            Ordering::Equal => iv.hi_open(),
            Ordering::Greater => false,
        },
        Rel::Ge => cmp_f64(iv.lo(), c) != Ordering::Less,
        Rel::Gt => match cmp_f64(iv.lo(), c) {
            Ordering::Greater => true,
            Ordering::Equal => iv.lo_open(),
            Ordering::Less => false,
        },
    }
}

fn negate(rel: Rel) -> Rel {
    match rel {
        Rel::Le => Rel::Gt,
        Rel::Lt => Rel::Ge,
        Rel::Ge => Rel::Lt,
        Rel::Gt => Rel::Le,
    }
}

/// A literal's bound `(var, rel, c)` with the negation folded in (`None` for Booleans).
fn bound_of(f: &Formula, l: Lit) -> Option<(Var, Rel, &Rational)> {
    match f.atom(l.atom()) {
        Atom::Bool(_) => None,
        Atom::Bound { var, rel, value } => Some((
            *var,
            if l.is_negated() { negate(*rel) } else { *rel },
            value,
        )),
    }
}

/// What a literal is on a region.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Truth {
    True,
    False,
    Open,
}

fn literal_truth(f: &Formula, l: Lit, ev: &Eval) -> Truth {
    match f.atom(l.atom()) {
        Atom::Bool(v) => match ev.bool_val[*v] {
            Some(b) if b != l.is_negated() => Truth::True,
            Some(_) => Truth::False,
            None => Truth::Open,
        },
        Atom::Bound { .. } => {
            let (v, rel, c) = bound_of(f, l).expect("bound");
            match ev.val[v] {
                Some(iv) if surely(iv, rel, c) => Truth::True,
                Some(iv) if surely(iv, negate(rel), c) => Truth::False,
                _ => Truth::Open,
            }
        }
    }
}

/// Every clause and root of `f`, roots as unit clauses.
fn all_clauses(f: &Formula) -> impl Iterator<Item = &[Lit]> {
    f.clauses
        .iter()
        .map(|c| c.as_slice())
        .chain(f.roots.iter().map(std::slice::from_ref))
}

/// Whether literal `l` is made true by an equation `y = c` the zero satisfies.
fn by_equation(f: &Formula, l: Lit, equations: &[(Var, Rational)]) -> bool {
    let Some((v, rel, c)) = bound_of(f, l) else {
        return false;
    };
    matches!(rel, Rel::Le | Rel::Ge) && equations.iter().any(|(y, k)| *y == v && k == c)
}

/// Re-checks `p` against `f` from scratch (module docs): `Ok` means `f` has a solution.
pub fn check(f: &Formula, p: &ExistenceProof) -> Result<(), Rejected> {
    let st = structure(f)?;
    let m = p.unknowns.len();
    if m != p.equations.len() || p.preconditioner.len() != m {
        return reject("the system is not square");
    }
    if p.preconditioner
        .iter()
        .any(|r| r.len() != m || r.iter().any(|x| !x.is_finite()))
    {
        return reject("malformed preconditioner");
    }
    let n = f.vars.len();
    let mut inputs: VarMap<Option<Input>> = VarMap::from_elem(None, n);
    for (v, q) in &p.fixed {
        if v.index() >= n || st.def_of[*v].is_some() {
            return reject("a fixed variable is not an input");
        }
        inputs[*v] = Some(Input::Num(scalar(q)));
    }
    for (v, b) in &p.bools {
        if v.index() >= n || st.def_of[*v].is_some() || f.vars[*v].sort != Sort::Bool {
            return reject("a Boolean value for a variable that is not a Boolean input");
        }
        inputs[*v] = Some(Input::Bool(*b));
    }
    let mut unknowns = Vec::with_capacity(m);
    for (v, u) in &p.unknowns {
        if v.index() >= n
            || st.def_of[*v].is_some()
            || f.vars[*v].sort != Sort::Real
            || inputs[*v].is_some()
            || unknowns.contains(v)
            || !u.is_bounded()
            || u.is_empty()
            || u.lo_open()
            || u.hi_open()
            || u.lo() >= u.hi()
        {
            return reject("an unknown is not a real input with a closed bounded box");
        }
        unknowns.push(*v);
    }
    for (y, _) in &p.equations {
        if y.index() >= n {
            return reject("an equation over no variable");
        }
    }
    // the Krawczyk operator: K = m − Y·g(m) + (I − Y·J(U))·(U − m)
    let mids: Vec<f64> = p
        .unknowns
        .iter()
        .map(|(_, u)| u.lo() * 0.5 + u.hi() * 0.5)
        .collect();
    let mut at_mid = inputs.clone();
    for (k, &u) in unknowns.iter().enumerate() {
        at_mid[u] = Some(Input::Num(Interval::point(mids[k])));
    }
    let ev_mid = evaluate(f, &st, &at_mid, &unknowns, false)?;
    let g_mid: Vec<Interval> = p
        .equations
        .iter()
        .map(|(y, c)| {
            ev_mid.val[*y]
                .map(|v| v - scalar(c))
                .ok_or_else(|| Rejected("an equation's variable has no value".into()))
        })
        .collect::<Result<_, _>>()?;
    let mut on_u = inputs.clone();
    for (v, u) in &p.unknowns {
        on_u[*v] = Some(Input::Num(*u));
    }
    let ev_u = evaluate(f, &st, &on_u, &unknowns, true)?;
    let no_grad = vec![zero(); m];
    let jac: Vec<&[Interval]> = p
        .equations
        .iter()
        .map(|(y, _)| ev_u.grad[*y].as_deref().unwrap_or(&no_grad))
        .collect();
    let mut region = Vec::with_capacity(m);
    for i in 0..m {
        let yrow: Vec<Interval> = p.preconditioner[i]
            .iter()
            .map(|&x| Interval::point(x))
            .collect();
        let mut k = Interval::point(mids[i]);
        for (j, gj) in g_mid.iter().enumerate() {
            k = k - yrow[j] * *gj;
        }
        for (l, (_, ul)) in p.unknowns.iter().enumerate() {
            // (I − Y·J)_{il}
            let mut e = Interval::point(if i == l { 1.0 } else { 0.0 });
            for (j, row) in jac.iter().enumerate() {
                e = e - yrow[j] * row[l];
            }
            k = k + e * (*ul - Interval::point(mids[l]));
        }
        let u = p.unknowns[i].1;
        if !(k.lo() > u.lo() && k.hi() < u.hi()) || k.is_empty() {
            return reject(format!(
                "K(U) is not inside U for {}: {k} vs {u}",
                f.vars[unknowns[i]].name
            ));
        }
        region.push(k.intersect(u));
    }
    // every needed literal on the region holding the zero
    let mut on_region = inputs;
    for (k, &u) in unknowns.iter().enumerate() {
        on_region[u] = Some(Input::Num(region[k]));
    }
    let ev = evaluate(f, &st, &on_region, &unknowns, false)?;
    for (v, info) in f.vars.iter() {
        match info.sort {
            Sort::Bool => {
                if ev.bool_val[v].is_none() {
                    // a Boolean no literal reads is unconstrained; one that is read has a value
                    continue;
                }
            }
            _ => {
                let Some(iv) = ev.val[v] else {
                    return reject(format!("{} has no value", info.name));
                };
                if let Some(lo) = &info.domain.lo {
                    if !surely(iv, if lo.strict { Rel::Gt } else { Rel::Ge }, &lo.value) {
                        return reject(format!("{} may leave its domain", info.name));
                    }
                }
                if let Some(hi) = &info.domain.hi {
                    if !surely(iv, if hi.strict { Rel::Lt } else { Rel::Le }, &hi.value) {
                        return reject(format!("{} may leave its domain", info.name));
                    }
                }
                if info.sort == Sort::Int {
                    let integral = iv.is_point() && iv.lo().fract() == 0.0 && !iv.lo_open();
                    if !integral {
                        return reject(format!("{} may not be an integer", info.name));
                    }
                }
            }
        }
    }
    for c in all_clauses(f) {
        let ok = c
            .iter()
            .any(|&l| literal_truth(f, l, &ev) == Truth::True || by_equation(f, l, &p.equations));
        if !ok {
            return reject("a clause may be false on the region");
        }
    }
    // each equation's literals are satisfied only if the equation is one of g's rows, which
    // it is by construction; its variable must depend on the unknowns for g to be square
    Ok(())
}

/// Tries to prove that `f` has a solution near the candidate box given by `boxes` (every
/// numeric variable) and `bools` (Boolean variables). `None` when no proof is found; a
/// returned proof is one [`check`] accepted.
pub fn prove(
    f: &Formula,
    boxes: &dyn Fn(Var) -> Interval,
    bools: &dyn Fn(Var) -> Option<bool>,
) -> Option<ExistenceProof> {
    let st = structure(f).ok()?;
    let n = f.vars.len();
    // 1. literals on the candidate box: the equations are the variables both of whose bounds
    //    at one constant some clause needs (no other literal of it can hold)
    let mut on_box = Eval {
        val: VarMap::from_elem(None, n),
        bool_val: VarMap::from_elem(None, n),
        grad: VarMap::from_elem(None, n),
    };
    for v in f.vars.keys() {
        if f.vars[v].sort == Sort::Bool {
            on_box.bool_val[v] = bools(v);
        } else if st.def_of[v].is_some() {
            // a computed variable pinned to a point by an equality looks as if its bounds
            // held anyway: widen tight boxes so that the equality shows as needed
            let b = boxes(v);
            let r = 1e-9 * b.lo().abs().max(b.hi().abs()).max(1.0);
            on_box.val[v] = Some(if b.is_bounded() && b.width() <= r {
                Interval::closed(b.lo() - r, b.hi() + r)
            } else {
                b
            });
        } else {
            on_box.val[v] = Some(boxes(v));
        }
    }
    let mut needed: Vec<(Var, Rel, Rational)> = Vec::new();
    for c in all_clauses(f) {
        let truths: Vec<Truth> = c.iter().map(|&l| literal_truth(f, l, &on_box)).collect();
        if truths.contains(&Truth::True) {
            continue;
        }
        let open: Vec<Lit> = c
            .iter()
            .zip(&truths)
            .filter(|(_, t)| **t == Truth::Open)
            .map(|(l, _)| *l)
            .collect();
        if let [l] = open.as_slice() {
            if let Some((v, rel, q)) = bound_of(f, *l) {
                needed.push((v, rel, q.clone()));
            }
        }
    }
    let mut equations: Vec<(Var, Rational)> = Vec::new();
    for (v, rel, q) in &needed {
        if *rel == Rel::Le
            && needed
                .iter()
                .any(|(w, r, k)| w == v && *r == Rel::Ge && k == q)
            && !equations.iter().any(|(w, k)| w == v && k == q)
        {
            equations.push((*v, q.clone()));
        }
    }
    if equations.len() > MAX_EQUATIONS {
        return None;
    }
    // 2. Booleans by their values; every real input is a candidate unknown (a point box may
    //    still be an equation's unknown: `y·y + 3 = 4` pins y to -1 while x·x = 3 leaves x
    //    irrational); integers and the real inputs not chosen are fixed, at points of their
    //    boxes that change from trial to trial (a touching inequality may hold at one)
    let mut bool_vals = Vec::new();
    let mut free: Vec<Var> = Vec::new();
    let mut ints: Vec<Var> = Vec::new();
    for v in f.vars.keys() {
        if st.def_of[v].is_some() {
            continue;
        }
        match f.vars[v].sort {
            Sort::Bool => bool_vals.push((v, bools(v).unwrap_or(false))),
            Sort::Int => ints.push(v),
            _ => free.push(v),
        }
    }
    if free.len() < equations.len() {
        return None;
    }
    for trial in 0..TRIALS {
        let mut base: VarMap<Option<Input>> = VarMap::from_elem(None, n);
        for (v, b) in &bool_vals {
            base[*v] = Some(Input::Bool(*b));
        }
        let mut fixed: Vec<(Var, Rational)> = Vec::new();
        for &v in &ints {
            let q = crate::model::trial_point(boxes(v), true, v, trial)?;
            base[v] = Some(Input::Num(scalar(&q)));
            fixed.push((v, q));
        }
        let mut points = Vec::with_capacity(free.len());
        for &v in &free {
            points.push(crate::model::trial_point(boxes(v), false, v, trial)?);
        }
        let attempt = Attempt {
            f,
            st: &st,
            equations: &equations,
            bools: &bool_vals,
            boxes,
        };
        if let Some(p) = attempt.run(&base, fixed, &free, &points) {
            return Some(p);
        }
    }
    None
}

/// Fixed-point trials per proof search (the solver's exact point checks use as many).
const TRIALS: u32 = 6;

/// One proof attempt with fixed inputs chosen.
struct Attempt<'a> {
    f: &'a Formula,
    st: &'a Structure,
    equations: &'a [(Var, Rational)],
    bools: &'a [(Var, bool)],
    boxes: &'a dyn Fn(Var) -> Interval,
}

impl Attempt<'_> {
    /// `g` and its Jacobian (midpoints, in doubles) at the point `x` of the unknowns.
    fn linearize(
        &self,
        base: &VarMap<Option<Input>>,
        unknowns: &[Var],
        x: &[f64],
    ) -> Option<(Vec<f64>, Vec<Vec<f64>>)> {
        let mut at = base.clone();
        for (k, &u) in unknowns.iter().enumerate() {
            at[u] = Some(Input::Num(Interval::point(x[k])));
        }
        let ev = evaluate(self.f, self.st, &at, unknowns, true).ok()?;
        let mid = |iv: Interval| iv.lo() * 0.5 + iv.hi() * 0.5;
        let no_grad = vec![zero(); unknowns.len()];
        let mut g = Vec::with_capacity(self.equations.len());
        let mut j = Vec::with_capacity(self.equations.len());
        for (y, c) in self.equations {
            g.push(mid(ev.val[*y]?) - c.to_f64()?);
            j.push(
                ev.grad[*y]
                    .as_deref()
                    .unwrap_or(&no_grad)
                    .iter()
                    .map(|&d| mid(d))
                    .collect(),
            );
        }
        Some((g, j))
    }

    fn run(
        &self,
        base: &VarMap<Option<Input>>,
        mut fixed: Vec<(Var, Rational)>,
        free: &[Var],
        points: &[Rational],
    ) -> Option<ExistenceProof> {
        let m = self.equations.len();
        // the unknowns: columns of the Jacobian at the trial's point, chosen by Gaussian
        // elimination with complete pivoting (the best-conditioned square subsystem)
        let mut all = base.clone();
        for (k, &v) in free.iter().enumerate() {
            all[v] = Some(Input::Num(scalar(&points[k])));
        }
        let x0: Vec<f64> = points.iter().map(|q| q.to_f64().unwrap_or(0.0)).collect();
        let (_, mut a) = self.linearize(&all, free, &x0)?;
        let mut chosen = Vec::with_capacity(m);
        let mut rows: Vec<usize> = (0..m).collect();
        for _ in 0..m {
            let mut best = (0.0f64, 0usize, 0usize);
            for &r in &rows {
                for (c, x) in a[r].iter().enumerate() {
                    if !chosen.contains(&c) && x.is_finite() && x.abs() > best.0 {
                        best = (x.abs(), r, c);
                    }
                }
            }
            let (piv, r, c) = best;
            if piv <= 0.0 {
                return None;
            }
            chosen.push(c);
            rows.retain(|&x| x != r);
            let pr = a[r].clone();
            for &o in &rows {
                let factor = a[o][c] / pr[c];
                for (x, p) in a[o].iter_mut().zip(&pr) {
                    *x -= factor * p;
                }
            }
        }
        let unknowns: Vec<Var> = chosen.iter().map(|&c| free[c]).collect();
        let mut base = base.clone();
        for (k, &v) in free.iter().enumerate() {
            if !chosen.contains(&k) {
                base[v] = Some(Input::Num(scalar(&points[k])));
                fixed.push((v, points[k].clone()));
            }
        }
        // Newton's method in doubles from the middle of the candidate box centres the
        // Krawczyk box on the zero; the test itself then needs no accuracy from it
        let box_centre: Vec<f64> = unknowns
            .iter()
            .map(|&u| {
                let b = (self.boxes)(u);
                if b.is_bounded() {
                    b.lo() * 0.5 + b.hi() * 0.5
                } else {
                    x0[free.iter().position(|w| *w == u).unwrap_or(0)]
                }
            })
            .collect();
        let mut x = box_centre.clone();
        let mut y = None;
        for _ in 0..8 {
            let (g, j) = self.linearize(&base, &unknowns, &x)?;
            let inv = invert(&j)?;
            let step: Vec<f64> = (0..m)
                .map(|i| (0..m).map(|k| inv[i][k] * g[k]).sum::<f64>())
                .collect();
            y = Some(inv);
            if step.iter().any(|s| !s.is_finite()) {
                break;
            }
            let small = step
                .iter()
                .zip(&x)
                .all(|(s, xi)| s.abs() <= 1e-15 * xi.abs().max(1e-300));
            for (xi, s) in x.iter_mut().zip(&step) {
                *xi -= s;
            }
            if small {
                break;
            }
        }
        // the preconditioner at the Newton point
        if let Some((_, j)) = self.linearize(&base, &unknowns, &x) {
            if let Some(inv) = invert(&j) {
                y = Some(inv);
            }
        }
        let y = y?;
        let widths: Vec<f64> = unknowns
            .iter()
            .map(|&u| {
                let b = (self.boxes)(u);
                if b.is_bounded() {
                    b.hi() - b.lo()
                } else {
                    0.0
                }
            })
            .collect();
        for c in [&x, &box_centre] {
            if c.iter().any(|v| !v.is_finite()) {
                continue;
            }
            // radii: relative to the value (from rounding-sized upwards), then fractions of
            // the candidate box
            let mut radii: Vec<Vec<f64>> = [1e-12, 1e-9, 1e-6, 1e-3]
                .iter()
                .map(|s| c.iter().map(|v| s * v.abs().max(1e-300)).collect())
                .collect();
            for frac in [1e-6, 1e-3, 0.5] {
                radii.push(widths.iter().map(|w| w * frac).collect());
            }
            for r in radii {
                if r.iter()
                    .any(|ri| ri.is_nan() || *ri <= 0.0 || ri.is_infinite())
                {
                    continue;
                }
                let p = ExistenceProof {
                    fixed: fixed.clone(),
                    bools: self.bools.to_vec(),
                    equations: self.equations.to_vec(),
                    unknowns: unknowns
                        .iter()
                        .enumerate()
                        .map(|(k, &u)| (u, Interval::closed(c[k] - r[k], c[k] + r[k])))
                        .collect(),
                    preconditioner: y.clone(),
                };
                if check(self.f, &p).is_ok() {
                    return Some(p);
                }
            }
        }
        None
    }
}

/// The inverse of a square matrix in doubles (Gauss–Jordan with partial pivoting); `None`
/// if it is singular. Only a preconditioner: [`check`] needs no accuracy from it.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    let mut w: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = r.clone();
            row.extend((0..m).map(|j| if i == j { 1.0 } else { 0.0 }));
            row
        })
        .collect();
    for col in 0..m {
        let piv = (col..m).max_by(|&x, &y| {
            w[x][col]
                .abs()
                .partial_cmp(&w[y][col].abs())
                .unwrap_or(Ordering::Equal)
        })?;
        if w[piv][col] == 0.0 || !w[piv][col].is_finite() {
            return None;
        }
        w.swap(col, piv);
        let p = w[col][col];
        for x in w[col].iter_mut() {
            *x /= p;
        }
        let pr = w[col].clone();
        for (r, row) in w.iter_mut().enumerate() {
            if r != col {
                let factor = row[col];
                if factor != 0.0 {
                    for (x, p) in row.iter_mut().zip(&pr) {
                        *x -= factor * p;
                    }
                }
            }
        }
    }
    let inv: Vec<Vec<f64>> = w.into_iter().map(|r| r[m..].to_vec()).collect();
    inv.iter()
        .all(|r| r.iter().all(|x| x.is_finite()))
        .then_some(inv)
}

/// The proof as text for `-v` and reports: the unknowns' boxes, the equations and the fixed
/// inputs.
pub fn describe(f: &Formula, p: &ExistenceProof) -> String {
    let mut s = format!(
        "{} existence proof: {} equation(s) over {} unknown(s)",
        p.kind(),
        p.equations.len(),
        p.unknowns.len()
    );
    for (v, u) in &p.unknowns {
        s.push_str(&format!("\n  {} in {u}", f.vars[*v].name));
    }
    for (v, c) in &p.equations {
        s.push_str(&format!("\n  equation {} = {c}", f.vars[*v].name));
    }
    for (v, q) in &p.fixed {
        s.push_str(&format!("\n  fixed {} = {q}", f.vars[*v].name));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::{Def, Domain, VarInfo, VarOrigin};
    use num_bigint::BigInt;

    fn q(n: i64) -> Rational {
        Rational::from_integer(BigInt::from(n))
    }

    fn var(f: &mut Formula, name: &str, sort: Sort) -> Var {
        f.add_var(VarInfo {
            name: name.into(),
            sort,
            domain: Domain::unbounded(),
            origin: VarOrigin::Declared { span: (0, 0) },
            fp_const: None,
        })
    }

    fn root(f: &mut Formula, v: Var, rel: Rel, c: Rational) {
        let l = f.atom_lit(Atom::Bound {
            var: v,
            rel,
            value: c,
        });
        f.roots.push(l);
    }

    /// `x·x = 3, x > 0`: x = √3, irrational.
    fn sqrt3() -> (Formula, Var, Var) {
        let mut f = Formula::new();
        let x = var(&mut f, "x", Sort::Real);
        let t = var(&mut f, "t", Sort::Real);
        f.add_def(Def {
            out: t,
            op: Op::Mul,
            args: vec![x, x],
        });
        root(&mut f, t, Rel::Le, q(3));
        root(&mut f, t, Rel::Ge, q(3));
        root(&mut f, x, Rel::Gt, q(0));
        (f, x, t)
    }

    fn boxes_sqrt3(x: Var) -> impl Fn(Var) -> Interval {
        move |v| {
            if v == x {
                Interval::closed(1.732, 1.7321)
            } else {
                Interval::closed(2.999, 3.001)
            }
        }
    }

    #[test]
    fn proves_sqrt3_and_rejects_broken_certificates() {
        let (f, x, _) = sqrt3();
        let p = prove(&f, &boxes_sqrt3(x), &|_| None).expect("a proof");
        assert_eq!(check(&f, &p), Ok(()));
        assert_eq!(p.unknowns.len(), 1);
        let u = p.unknowns[0].1;
        assert!(u.contains(3f64.sqrt()));
        // a box that misses the zero
        let mut bad = p.clone();
        bad.unknowns[0].1 = Interval::closed(1.74, 1.75);
        assert!(check(&f, &bad).is_err());
        // a useless preconditioner
        let mut bad = p.clone();
        bad.preconditioner = vec![vec![0.0]];
        assert!(check(&f, &bad).is_err());
        // the wrong constant
        let mut bad = p.clone();
        bad.equations[0].1 = q(4);
        assert!(check(&f, &bad).is_err());
    }

    /// `sin(x) >= 1/2` (and, with `strict_max`, `sin(x) > 1`) for x in the box [0.5, 1].
    fn sine(strict_max: bool) -> (Formula, Var) {
        let mut f = Formula::new();
        let x = var(&mut f, "x", Sort::Real);
        let s = var(&mut f, "s", Sort::Real);
        f.add_def(Def {
            out: s,
            op: Op::Sin,
            args: vec![x],
        });
        root(
            &mut f,
            s,
            Rel::Ge,
            Rational::new(BigInt::from(1), BigInt::from(2)),
        );
        if strict_max {
            root(&mut f, s, Rel::Gt, q(1));
        }
        (f, x)
    }

    #[test]
    fn no_equation_means_interval_evaluation_at_a_point() {
        let (f, x) = sine(false);
        let b = move |v: Var| {
            if v == x {
                Interval::closed(0.5, 1.0)
            } else {
                Interval::closed(0.4, 0.9)
            }
        };
        let p = prove(&f, &b, &|_| None).expect("a proof");
        assert_eq!(p.kind(), "interval evaluation");
        assert!(p.unknowns.is_empty() && p.fixed.len() == 1);
        assert!(check(&f, &p).is_ok());
        // sin(0.1) < 1/2: a fixed value outside the solutions is rejected
        let mut bad = p.clone();
        bad.fixed[0].1 = Rational::new(BigInt::from(1), BigInt::from(10));
        assert!(check(&f, &bad).is_err());
        // sin(x) > 1 never holds
        let (g, x) = sine(true);
        let b = move |v: Var| {
            if v == x {
                Interval::closed(1.5, 1.6)
            } else {
                Interval::closed(0.99, 1.0)
            }
        };
        assert!(prove(&g, &b, &|_| None).is_none());
    }

    #[test]
    fn the_other_sign_is_not_a_solution() {
        // x·x = 3 with x < 0 required too: the candidate box around +√3 violates x < 0
        let (mut f, x, _) = sqrt3();
        root(&mut f, x, Rel::Lt, q(0));
        assert!(prove(&f, &boxes_sqrt3(x), &|_| None).is_none());
    }

    #[test]
    fn no_real_zero_no_proof() {
        // x·x = -1 has no real solution; a box around 0 must not be proved
        let mut f = Formula::new();
        let x = var(&mut f, "x", Sort::Real);
        let t = var(&mut f, "t", Sort::Real);
        f.add_def(Def {
            out: t,
            op: Op::Mul,
            args: vec![x, x],
        });
        root(&mut f, t, Rel::Le, q(-1));
        root(&mut f, t, Rel::Ge, q(-1));
        let b = |v: Var| {
            if v == x {
                Interval::closed(-0.1, 0.1)
            } else {
                Interval::closed(-1.0, 0.01)
            }
        };
        assert!(prove(&f, &b, &|_| None).is_none());
    }

    #[test]
    fn circle_and_line_two_unknowns() {
        // x² + y² = 1, y = x: (√½, √½)
        let mut f = Formula::new();
        let x = var(&mut f, "x", Sort::Real);
        let y = var(&mut f, "y", Sort::Real);
        let x2 = var(&mut f, "x2", Sort::Real);
        let y2 = var(&mut f, "y2", Sort::Real);
        let s = var(&mut f, "s", Sort::Real);
        let d = var(&mut f, "d", Sort::Real);
        f.add_def(Def {
            out: x2,
            op: Op::Pow(2),
            args: vec![x],
        });
        f.add_def(Def {
            out: y2,
            op: Op::Pow(2),
            args: vec![y],
        });
        f.add_def(Def {
            out: s,
            op: Op::Linear {
                coeffs: vec![q(1), q(1)],
                constant: q(0),
            },
            args: vec![x2, y2],
        });
        f.add_def(Def {
            out: d,
            op: Op::Linear {
                coeffs: vec![q(1), q(-1)],
                constant: q(0),
            },
            args: vec![x, y],
        });
        for (v, c) in [(s, 1), (d, 0)] {
            root(&mut f, v, Rel::Le, q(c));
            root(&mut f, v, Rel::Ge, q(c));
        }
        let r = std::f64::consts::FRAC_1_SQRT_2;
        let b = move |v: Var| {
            if v == x || v == y {
                Interval::closed(r - 1e-3, r + 1e-3)
            } else if v == s {
                Interval::closed(0.99, 1.01)
            } else if v == d {
                Interval::closed(-1e-3, 1e-3)
            } else {
                Interval::closed(0.49, 0.51)
            }
        };
        let p = prove(&f, &b, &|_| None).expect("a proof");
        assert_eq!(p.unknowns.len(), 2);
        assert!(check(&f, &p).is_ok());
    }

    #[test]
    fn inequalities_must_hold_on_the_whole_region() {
        // x·x = 2 and x ≤ 1.41421356 (just below √2 = 1.41421356237...): no solution
        let mut f = Formula::new();
        let x = var(&mut f, "x", Sort::Real);
        let t = var(&mut f, "t", Sort::Real);
        f.add_def(Def {
            out: t,
            op: Op::Mul,
            args: vec![x, x],
        });
        root(&mut f, t, Rel::Le, q(2));
        root(&mut f, t, Rel::Ge, q(2));
        root(
            &mut f,
            x,
            Rel::Le,
            Rational::new(BigInt::from(141421356), BigInt::from(100000000)),
        );
        root(&mut f, x, Rel::Gt, q(0));
        let b = move |v: Var| {
            if v == x {
                // [1.414213, 1.41421356], written so as not to look like √2
                Interval::closed(1_414_213.0 / 1e6, 141_421_356.0 / 1e8)
            } else {
                Interval::closed(1.99, 2.01)
            }
        };
        assert!(prove(&f, &b, &|_| None).is_none());
    }
}
