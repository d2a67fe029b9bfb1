//! Relational cube literals (issue #22 item 2): bounds over linear terms of state variables,
//! such as `a + b <= 500`, next to the boxes of [`super::cube`].
//!
//! The idea: a box lemma excludes states one slice of values at a time, so an invariant such
//! as `a + b = N` takes a lemma per value of `a`. A bound on the *term* `a + b` says it in two
//! lemmas. Each chosen term `t = Σ cᵢ·xᵢ` (integer coefficients, over integer or real state
//! variables of one sort) becomes a defined state variable of an augmented system: INIT,
//! TRANS (current and next state) and TARGET each get the definition `t - Σ cᵢ·xᵢ = 0` (a
//! fresh auxiliary with the point domain 0, so every definition has its own output). Every
//! solver copy of a step — frame solvers, GeNTR's `¬T`, the initial-state solver, lifting,
//! the fresh solvers of the certificate check — then holds `t` exactly as the sum, and a cube
//! literal `t <= q` is an ordinary [`super::cube::CLit::Bound`] on that slot: literal
//! rotation, bound generalization and weakening, literal dropping, CTG and the cache work on
//! it unchanged, and the solver reads a failed term bound back like any other
//! ([`super::cube::Step::clit`]).
//!
//! Why the augmented system answers the original question: in every run of the augmented
//! system each term slot equals its sum (INIT and TRANS define it in every state), so its
//! runs are the original runs with the sums attached, and TARGET is reached in one iff in
//! the other. Its invariants are invariants of the original system with each term slot read
//! as its sum — which is how the lemmas print (the slot's name is the sum's text), so the
//! front end's `--check-certificate` re-reads them over the *original* system. Counterexamples
//! are validated by [`TermValidator`] (the original validator on the original slots, and each
//! term slot equal to its sum) and then projected to the original state.
//!
//! Which terms (in this order, at most [`crate::config::Ic3Config::max_terms`]; each over
//! variables with bounded declared ranges unless the solver has the simplex): (a) the
//! system's own sums and differences — each linear definition of INIT, TRANS or TARGET over
//! two or more state variables of one step, e.g. TARGET's `a + b`; (b) octagonal `x + y` and
//! `x - y`, first for the pairs of state variables that occur together in one definition,
//! then for the other pairs of one sort in state order. With `+farkas`, terms read from the
//! simplex's Farkas explanations are added on a restart ([`mined`]).

use super::cube::{CLit, Cube};
use super::generalize::Initiation;
use super::Ic3;
use crate::engine::{EngineResult, Validator, Verdict};
use crate::replay::trace_ok;
use crate::ts::{StateVar, TransitionSystem};
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use solver::formula::{Bound, Def, Domain, Formula, Op, Sort, VarInfo, VarOrigin};
use solver::model::Value;
use solver::{Rational, Var};
use std::collections::{BTreeSet, HashMap};

/// A linear term `Σ cᵢ·xᵢ` over state variables: integer coefficients with no common factor,
/// the first one positive, sorted by state index, at least two variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinearTerm {
    /// (state index, coefficient), coefficients non-zero integers
    pub coeffs: Vec<(usize, Rational)>,
}

impl LinearTerm {
    /// The normal form of `Σ cᵢ·xᵢ` (scaled so that coefficients are coprime integers, the
    /// first positive; a term and its negation are one term, its bounds say both
    /// directions). `None` with fewer than two distinct variables.
    pub fn normal(mut coeffs: Vec<(usize, Rational)>) -> Option<LinearTerm> {
        coeffs.sort_by_key(|(i, _)| *i);
        let mut merged: Vec<(usize, Rational)> = Vec::new();
        for (i, c) in coeffs {
            match merged.last_mut() {
                Some((j, d)) if *j == i => *d += c,
                _ => merged.push((i, c)),
            }
        }
        merged.retain(|(_, c)| !c.is_zero());
        if merged.len() < 2 {
            return None;
        }
        // × lcm of the denominators, ÷ gcd of the numerators, sign of the first
        let lcm = merged
            .iter()
            .fold(num_bigint::BigInt::one(), |a, (_, c)| a.lcm(c.denom()));
        let ints: Vec<num_bigint::BigInt> = merged
            .iter()
            .map(|(_, c)| (c * Rational::from_integer(lcm.clone())).to_integer())
            .collect();
        let g = ints
            .iter()
            .fold(num_bigint::BigInt::zero(), |a, n| a.gcd(n));
        let sign = if ints[0].is_negative() { -1 } else { 1 };
        let coeffs = merged
            .iter()
            .zip(ints)
            .map(|((i, _), n)| (*i, Rational::from_integer(n * sign / &g)))
            .collect();
        Some(LinearTerm { coeffs })
    }

    /// `.hys` text over the state variables' names, e.g. `a + b`, `x - 2*y`; an IEEE
    /// variable as its exact value, `to_real(x) - to_real(y)` (the float operation `x - y`
    /// would round).
    pub fn text(&self, state: &[StateVar]) -> String {
        let mut s = String::new();
        for (k, (i, c)) in self.coeffs.iter().enumerate() {
            let name = match state[*i].sort {
                Sort::Fp(_) => format!("to_real({})", state[*i].name),
                _ => state[*i].name.clone(),
            };
            let mag = c.abs();
            if k == 0 {
                if c.is_negative() {
                    s.push('-');
                }
            } else {
                s.push_str(if c.is_negative() { " - " } else { " + " });
            }
            if !mag.is_one() {
                s.push_str(&format!("{mag}*"));
            }
            s.push_str(&name);
        }
        s
    }

    /// The term's value at a state (`None` unless every variable has a numeric value; an IEEE
    /// value counts as its exact real, NaN and infinities as none).
    pub fn eval(&self, state: &[StateVar], vals: &[Value]) -> Option<Rational> {
        let mut sum = Rational::zero();
        for (i, c) in &self.coeffs {
            match (vals.get(*i)?, state.get(*i).map(|sv| sv.sort)) {
                (Value::Num(q), _) => sum += c * q,
                (Value::Fp(bits), Some(Sort::Fp(f))) => sum += c * f.to_rational(*bits)?,
                _ => return None,
            }
        }
        Some(sum)
    }

    /// The hull of the term over the declared domains (an end is missing when a variable's
    /// domain is unbounded that way); open ends kept open.
    fn domain(&self, state: &[StateVar]) -> Domain {
        let mut lo = Some((Rational::zero(), false));
        let mut hi = Some((Rational::zero(), false));
        for (i, c) in &self.coeffs {
            let d = &state[*i].domain;
            let (below, above) = if c.is_positive() {
                (&d.lo, &d.hi)
            } else {
                (&d.hi, &d.lo)
            };
            let add = |acc: Option<(Rational, bool)>, b: &Option<Bound>| {
                let (s, open) = acc?;
                let b = b.as_ref()?;
                Some((s + c * &b.value, open || b.strict))
            };
            lo = add(lo, below);
            hi = add(hi, above);
        }
        let end = |e: Option<(Rational, bool)>| e.map(|(value, strict)| Bound { value, strict });
        Domain {
            lo: end(lo),
            hi: end(hi),
        }
    }
}

/// The sorts a term may combine: integers, reals, or IEEE values of any format read as their
/// exact reals (`to_real`; a float term's slot is a real). Machine integers wrap, so their
/// sums are not linear in their values.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Class {
    Int,
    Real,
    Float,
}

fn class(sort: Sort) -> Option<Class> {
    match sort {
        Sort::Int => Some(Class::Int),
        Sort::Real => Some(Class::Real),
        Sort::Fp(_) => Some(Class::Float),
        _ => None,
    }
}

/// Whether the state variables of `t` are IEEE values (its slot is then a real, the sum of
/// their exact values).
fn is_float(t: &LinearTerm, state: &[StateVar]) -> bool {
    t.coeffs
        .iter()
        .any(|(i, _)| class(state[*i].sort) == Some(Class::Float))
}

/// The solver configuration for a system augmented by `terms`: float terms relate rounded
/// results, so their solvers get the simplex's rounded rows (`solver::simplex::rounding`);
/// otherwise `config` as it is.
pub fn solver_for(
    config: &solver::SolverConfig,
    terms: &[LinearTerm],
    state: &[StateVar],
) -> solver::SolverConfig {
    if terms.iter().any(|t| is_float(t, state)) {
        config.with_rounded_rows()
    } else {
        config.clone()
    }
}

/// The most variables a float computation's linear form keeps, and the largest normalised
/// coefficient of a float term the system computes (a double constant such as
/// `1.470767736573` normalises to 53-bit integers that bound nothing usefully).
const MAX_FORM_VARS: usize = 8;
const MAX_FLOAT_COEFF: i64 = 1 << 20;

/// A float computation's linear form: (state index, role) → coefficient.
type Form = std::collections::BTreeMap<(usize, u8), Rational>;

/// The linear form of each definition's output over the state variables of `slot`, reading
/// IEEE operations as if exact (`fl(fl(3·x)/4 + fl(y/4))` as `3/4·x + 1/4·y`): which state
/// variables a float computation combines, and how. `None` where the output is not such a
/// form (a product of two variables, an `ite`, an input). Definitions whose arguments are
/// defined later are read as not linear (no recursion over deep C expression chains).
fn float_forms(f: &Formula, slot: &HashMap<Var, (usize, u8)>) -> Vec<Option<Form>> {
    let mut memo: HashMap<Var, Option<Form>> = HashMap::new();
    let constant = |v: Var| -> Option<Rational> {
        let info = &f.vars[v];
        if info.origin != VarOrigin::Constant {
            return None;
        }
        match (&info.domain.lo, &info.domain.hi) {
            (Some(lo), Some(hi)) if lo.value == hi.value => Some(lo.value.clone()),
            _ => None,
        }
    };
    let mut out = Vec::with_capacity(f.defs.len());
    for d in &f.defs {
        let form_of = |v: Var, memo: &HashMap<Var, Option<Form>>| -> Option<Form> {
            if let Some(&k) = slot.get(&v) {
                return Some(Form::from([(k, Rational::one())]));
            }
            if constant(v).is_some() {
                return Some(Form::new());
            }
            memo.get(&v).cloned().flatten()
        };
        let scale =
            |m: Form, k: &Rational| -> Form { m.into_iter().map(|(x, c)| (x, c * k)).collect() };
        let sum = |mut a: Form, b: Form| -> Form {
            for (x, c) in b {
                *a.entry(x).or_default() += c;
            }
            a.retain(|_, c| !c.is_zero());
            a
        };
        let arg = |k: usize| d.args.get(k).copied();
        let one = Rational::one();
        let form = match &d.op {
            Op::FAdd(_) | Op::FSub(_) => {
                let a = arg(0).and_then(|a| form_of(a, &memo));
                let b = arg(1).and_then(|b| form_of(b, &memo));
                match (a, b) {
                    (Some(a), Some(b)) if matches!(d.op, Op::FAdd(_)) => Some(sum(a, b)),
                    (Some(a), Some(b)) => Some(sum(a, scale(b, &-one))),
                    _ => None,
                }
            }
            Op::FMul(_) => {
                let (a, b) = (arg(0), arg(1));
                match (a.and_then(constant), b.and_then(constant)) {
                    (_, Some(k)) => a.and_then(|a| form_of(a, &memo)).map(|m| scale(m, &k)),
                    (Some(k), None) => b.and_then(|b| form_of(b, &memo)).map(|m| scale(m, &k)),
                    _ => None,
                }
            }
            Op::FDiv(_) => match arg(1).and_then(constant).filter(|k| !k.is_zero()) {
                Some(k) => arg(0)
                    .and_then(|a| form_of(a, &memo))
                    .map(|m| scale(m, &(one / k))),
                None => None,
            },
            Op::FNeg => arg(0)
                .and_then(|a| form_of(a, &memo))
                .map(|m| scale(m, &-one)),
            Op::ToFp(_) | Op::FpToReal => arg(0).and_then(|a| form_of(a, &memo)),
            Op::Linear { coeffs, .. } => {
                let mut acc = Some(Form::new());
                for (a, c) in d.args.iter().zip(coeffs) {
                    acc = match (acc, form_of(*a, &memo)) {
                        (Some(m), Some(x)) => Some(sum(m, scale(x, c))),
                        _ => None,
                    };
                }
                acc
            }
            _ => None,
        }
        .filter(|m| m.len() <= MAX_FORM_VARS);
        memo.insert(d.out, form.clone());
        out.push(form);
    }
    out
}

/// A formula's copies of the state, each with its role (0: current, 1: TRANS's next).
type Roles<'a> = Vec<(&'a Vec<Var>, u8)>;

/// The terms of (a) and (b) (see the module documentation), at most `max` of them.
///
/// With `floats`, IEEE state variables take part too (as their exact reals): the system's own
/// float computations read as linear forms ([`float_forms`]) give terms and pairs like
/// linear definitions do. Their consecution needs the simplex's rounded rows
/// (`solver::simplex::rounding`); interval propagation alone loses the relation.
pub fn choose(
    ts: &TransitionSystem,
    max: usize,
    unbounded_ok: bool,
    floats: bool,
) -> Vec<LinearTerm> {
    // inputs (a next value TRANS leaves free) take no part: a bound on a term over an input
    // is never inductive, and every such slot costs queries (VMT's `.inputVar.0` took half of
    // dillig28's twelve slots)
    let carried = ts.carried();
    let usable = |i: usize| {
        carried[i]
            && match class(ts.state[i].sort) {
                Some(Class::Float) => floats,
                Some(_) => true,
                None => false,
            }
    };
    let same_class = |i: usize, j: usize| class(ts.state[i].sort) == class(ts.state[j].sort);
    let mut own: Vec<LinearTerm> = Vec::new();
    let mut pairs: BTreeSet<(usize, usize)> = BTreeSet::new();
    // one formula's variables → state index; TRANS's current and next copies separately,
    // so that a definition over `a` and `b'` is not read as a sum of one state
    let maps: [(&Formula, Roles); 3] = [
        (&ts.init, vec![(&ts.init_vars, 0)]),
        (&ts.trans, vec![(&ts.trans_current, 0), (&ts.trans_next, 1)]),
        (&ts.target, vec![(&ts.target_vars, 0)]),
    ];
    for (f, roles) in maps {
        let mut slot: HashMap<Var, (usize, u8)> = HashMap::new();
        for (vars, role) in roles {
            for (i, &v) in vars.iter().enumerate() {
                if usable(i) {
                    slot.insert(v, (i, role));
                }
            }
        }
        for d in &f.defs {
            let here: Vec<(usize, u8)> =
                d.args.iter().filter_map(|a| slot.get(a)).copied().collect();
            let idx: BTreeSet<usize> = here.iter().map(|(i, _)| *i).collect();
            let idx: Vec<usize> = idx.into_iter().collect();
            for (k, &i) in idx.iter().enumerate() {
                for &j in &idx[k + 1..] {
                    if same_class(i, j) {
                        pairs.insert((i, j));
                    }
                }
            }
            let Op::Linear { coeffs, .. } = &d.op else {
                continue;
            };
            // every non-constant argument a state variable of one step, all of one sort
            let mut term = Vec::new();
            let mut role = None;
            let mut ok = true;
            for (a, c) in d.args.iter().zip(coeffs) {
                match slot.get(a) {
                    Some(&(i, r)) if role.is_none_or(|x| x == r) => {
                        role = Some(r);
                        term.push((i, c.clone()));
                    }
                    None if f.vars[*a].origin == VarOrigin::Constant => {}
                    _ => ok = false,
                }
            }
            let one_sort = term.windows(2).all(|w| same_class(w[0].0, w[1].0));
            if ok && one_sort {
                if let Some(t) = LinearTerm::normal(term) {
                    if !own.contains(&t) {
                        own.push(t);
                    }
                }
            }
        }
        if floats {
            for form in float_forms(f, &slot).into_iter().flatten() {
                let float_only = form
                    .keys()
                    .all(|(i, _)| class(ts.state[*i].sort) == Some(Class::Float));
                if form.len() < 2 || !float_only {
                    continue;
                }
                let idx: BTreeSet<usize> = form.keys().map(|(i, _)| *i).collect();
                let idx: Vec<usize> = idx.into_iter().collect();
                for (k, &i) in idx.iter().enumerate() {
                    for &j in &idx[k + 1..] {
                        pairs.insert((i, j));
                    }
                }
                // a form over one step is a term the system computes (`y + 2·z`)
                let roles: BTreeSet<u8> = form.keys().map(|(_, r)| *r).collect();
                if roles.len() != 1 {
                    continue;
                }
                let term = form.into_iter().map(|((i, _), c)| (i, c)).collect();
                let small = |t: &LinearTerm| {
                    let limit = Rational::from_integer(MAX_FLOAT_COEFF.into());
                    t.coeffs.iter().all(|(_, c)| c.abs() <= limit)
                };
                if let Some(t) = LinearTerm::normal(term).filter(small) {
                    if !own.contains(&t) {
                        own.push(t);
                    }
                }
            }
        }
    }
    // then the remaining pairs of one sort, in state order: `a' = a - 1` and `b' = b + 1`
    // under one guard relate `a` and `b` without any definition holding both
    let numeric: Vec<usize> = (0..ts.state.len()).filter(|&i| usable(i)).collect();
    let mut rest: Vec<(usize, usize)> = Vec::new();
    for (k, &i) in numeric.iter().enumerate() {
        for &j in &numeric[k + 1..] {
            if same_class(i, j) && !pairs.contains(&(i, j)) {
                rest.push((i, j));
            }
        }
    }
    let mut out = own;
    for (i, j) in pairs.into_iter().chain(rest) {
        if out.len() >= max {
            break;
        }
        for sign in [1, -1] {
            let t = LinearTerm::normal(vec![
                (i, Rational::one()),
                (j, Rational::from_integer(sign.into())),
            ]);
            if let Some(t) = t {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
    }
    // only terms over bounded ranges unless the simplex is on (`unbounded_ok`): over
    // unbounded (or VMT's unbounded integer) variables the extra definitions sent interval
    // propagation alone into long chains of small contractions — on lustre/two_counters.vmt
    // the first query of `ind0+rel` ran out of time where `ind0` answers in 0.03 s
    // (measured, benchmarks/RESULTS.md); the simplex decides such linear queries exactly
    out.retain(|t| {
        let d = t.domain(&ts.state);
        unbounded_ok || (d.lo.is_some() && d.hi.is_some())
    });
    out.truncate(max);
    // slots in reverse priority: literal dropping tries lower slots first, so the system's
    // own terms are the last literals to go
    out.reverse();
    out
}

/// The most terms `+farkas` adds from the simplex's conflicts.
pub const MAX_MINED: usize = 8;

/// `+farkas` (issue #22 item 2): terms read from the Farkas combinations of the simplex's
/// conflicts in IC3's frame solvers. Each combination's state part (over one step of the
/// augmented system, see `Frames::take_farkas`) is a direction along which the simplex
/// refuted a query; read over the original state (a term slot of `chosen` expanded into its
/// sum) it is a term, kept when it combines at least two variables of one class, is new, and
/// has coefficients no larger than a float term's (2^20 after normalising). The most frequent
/// first, at most `max`.
pub fn mined(
    state: &[StateVar],
    chosen: &[LinearTerm],
    parts: &[Vec<(usize, Rational)>],
    max: usize,
) -> Vec<LinearTerm> {
    let n = state.len();
    let mut count: HashMap<LinearTerm, usize> = HashMap::new();
    let mut order: Vec<LinearTerm> = Vec::new();
    let limit = Rational::from_integer(MAX_FLOAT_COEFF.into());
    for part in parts {
        let mut coeffs: Vec<(usize, Rational)> = Vec::new();
        for (i, c) in part {
            if *i < n {
                coeffs.push((*i, c.clone()));
            } else if let Some(t) = chosen.get(i - n) {
                coeffs.extend(t.coeffs.iter().map(|(j, d)| (*j, c * d)));
            }
        }
        let Some(t) = LinearTerm::normal(coeffs) else {
            continue;
        };
        let classes: BTreeSet<Option<Class>> = t
            .coeffs
            .iter()
            .map(|(i, _)| class(state[*i].sort))
            .collect();
        if classes.len() != 1 || classes.contains(&None) {
            continue;
        }
        if chosen.contains(&t) || t.coeffs.iter().any(|(_, c)| c.abs() > limit) {
            continue;
        }
        let k = count.entry(t.clone()).or_insert(0);
        if *k == 0 {
            order.push(t);
        }
        *k += 1;
    }
    // most frequent first; ties in the order first seen
    order.sort_by_key(|t| std::cmp::Reverse(count[t]));
    order.truncate(max);
    order
}

/// The system with one defined state variable per term, appended after the original state
/// (slot `n + j` is term `j`; see the module documentation).
pub fn augment(ts: &TransitionSystem, terms: &[LinearTerm]) -> TransitionSystem {
    let mut a = ts.clone();
    for t in terms {
        let sort = if is_float(t, &ts.state) {
            Sort::Real
        } else {
            ts.state[t.coeffs[0].0].sort
        };
        let sv = StateVar {
            name: t.text(&ts.state),
            sort,
            domain: t.domain(&ts.state),
            is_static: t.coeffs.iter().all(|(i, _)| ts.state[*i].is_static),
            span: ts.state[t.coeffs[0].0].span,
        };
        let slot_init = define(&mut a.init, &sv, t, &ts.init_vars, &ts.state);
        a.init_vars.push(slot_init);
        let cur = define(&mut a.trans, &sv, t, &ts.trans_current, &ts.state);
        a.trans_current.push(cur);
        let next_name = StateVar {
            name: format!("({})'", sv.name),
            ..sv.clone()
        };
        let next = define(&mut a.trans, &next_name, t, &ts.trans_next, &ts.state);
        a.trans_next.push(next);
        let tg = define(&mut a.target, &sv, t, &ts.target_vars, &ts.state);
        a.target_vars.push(tg);
        a.state.push(sv);
    }
    a
}

/// Adds the slot variable of `t` to `f`, defined as `slot = Σ cᵢ·xᵢ` over the formula's
/// copies `vars` of the state; returns the slot. The slot is the definition's output, so
/// a point check computes it from the state (a definition `0 = slot - Σ` would leave all
/// three free, and the solver's candidate points almost never met it exactly). A solver
/// that instantiates several formulas on one step gets several definitions of one slot:
/// the first computes it, the others are constraints (`Solver::add_formula_with`). An IEEE
/// variable enters the sum as its exact real, through a `to_real` auxiliary (unspecified for
/// NaN and infinities: there the slot is free, which the validator accepts).
fn define(f: &mut Formula, sv: &StateVar, t: &LinearTerm, vars: &[Var], state: &[StateVar]) -> Var {
    let args: Vec<Var> = t
        .coeffs
        .iter()
        .map(|(i, _)| {
            let v = vars[*i];
            if class(state[*i].sort) != Some(Class::Float) {
                return v;
            }
            let r = f.add_var(VarInfo {
                name: format!("to_real({})", state[*i].name),
                sort: Sort::Real,
                domain: Domain::unbounded(),
                origin: VarOrigin::Aux { span: sv.span },
                fp_const: None,
            });
            f.add_def(Def {
                out: r,
                op: Op::FpToReal,
                args: vec![v],
            });
            r
        })
        .collect();
    let slot = f.add_var(VarInfo {
        name: sv.name.clone(),
        sort: sv.sort,
        domain: sv.domain.clone(),
        origin: VarOrigin::Aux { span: sv.span },
        fp_const: None,
    });
    f.add_def(Def {
        out: slot,
        op: Op::Linear {
            coeffs: t.coeffs.iter().map(|(_, c)| c.clone()).collect(),
            constant: Rational::zero(),
        },
        args,
    });
    slot
}

/// An answer of IC3 on the augmented system as an answer for `ts`: traces and boxes cut to
/// the original state (an UNSAFE trace replayed again against `val` on `ts`, so the answer
/// never rests on the augmentation), the invariant's typed cubes limited to the box lemmas
/// (their consumers, the C front end's loop invariants, index the original state; every
/// lemma holds on its own in every reachable state, so a subset is still true there). The
/// printed lemmas stay as they are: term slots print as their sums.
pub fn project(mut r: EngineResult, ts: &TransitionSystem, val: &dyn Validator) -> EngineResult {
    let n = ts.state.len();
    if let Some(trace) = r.trace.as_mut() {
        for step in trace.iter_mut() {
            step.truncate(n);
        }
        if r.verdict == Verdict::Unsafe && !trace_ok(ts, val, trace) {
            let mut u = EngineResult::unknown(
                r.engine,
                "+rel: the counterexample of the augmented system does not replay on the \
                 original one",
                r.stats,
            );
            u.extra_stats = r.extra_stats;
            return u;
        }
    }
    if let Some(boxes) = r.boxes.as_mut() {
        for step in boxes.iter_mut() {
            step.truncate(n);
        }
    }
    if let Some(inv) = r.invariant.as_mut() {
        inv.cubes.retain(|c| c.0.iter().all(|l| l.var() < n));
    }
    r
}

/// The original validator on the original slots of an augmented state, and each term slot
/// equal to its sum; completions fill the term slots from the sums.
pub struct TermValidator<'a> {
    pub inner: &'a dyn Validator,
    /// the original state
    pub state: &'a [StateVar],
    pub terms: &'a [LinearTerm],
}

impl TermValidator<'_> {
    /// Every slot holds its sum; a float term whose sum is undefined (a NaN or infinite
    /// variable) leaves its slot free, as `to_real` does.
    fn sums_hold(&self, s: &[Value]) -> bool {
        let n = self.state.len();
        s.len() == n + self.terms.len()
            && self.terms.iter().enumerate().all(|(j, t)| {
                match (&s[n + j], t.eval(self.state, s)) {
                    (Value::Num(q), Some(v)) => *q == v,
                    (_, None) => is_float(t, self.state),
                    _ => false,
                }
            })
    }

    fn fill(&self, s: &mut [Value]) {
        for (j, t) in self.terms.iter().enumerate() {
            if let Some(v) = t.eval(self.state, s) {
                s[self.state.len() + j] = Value::Num(v);
            }
        }
    }
}

impl Validator for TermValidator<'_> {
    fn init(&self, s: &[Value]) -> bool {
        let n = self.state.len();
        self.sums_hold(s) && self.inner.init(&s[..n])
    }
    fn trans(&self, s: &[Value], t: &[Value]) -> bool {
        let n = self.state.len();
        self.sums_hold(s) && self.sums_hold(t) && self.inner.trans(&s[..n], &t[..n])
    }
    fn target(&self, s: &[Value]) -> bool {
        let n = self.state.len();
        self.sums_hold(s) && self.inner.target(&s[..n])
    }
    fn complete_init(&self, s: &mut [Value]) {
        let n = self.state.len();
        self.inner.complete_init(&mut s[..n]);
        self.fill(s);
    }
    fn complete_trans(&self, s: &[Value], t: &mut [Value]) {
        let n = self.state.len();
        self.inner.complete_trans(&s[..n], &mut t[..n]);
        self.fill(t);
    }
}

impl Ic3<'_> {
    /// With `+rel`: a lemma over one linear term for cube `c`, blocked relative to `F_i`. For
    /// each term slot of `c` (the system's own terms first), the cubes of its upper bound
    /// alone, its lower bound alone, then both, are tried; one that is disjoint from `I` and
    /// still blocked at `F_i` (`F_i ∧ ¬c ∧ T ∧ g'` UNSAT, so `¬g` is inductive relative to
    /// `F_i` as in GENERALIZE) is pushed to the highest frame where it stays blocked, and
    /// the candidate that gets highest wins (ties: the first). Returns the cube and its
    /// lemma's level. Why it pays: literal rotation keeps whichever literal fails first,
    /// and against the one-point frame `F_0` every term fails, including those (like
    /// `a - b` in a counter system) that no frame but the first keeps blocked; the height a
    /// candidate reaches tells the inductive term (`a + b`) from the accidental one.
    pub(crate) fn relational_lemma(&mut self, i: usize, c: &Cube) -> Option<(Cube, usize)> {
        let first_term = self.first_term;
        let mut slots: Vec<usize> =
            c.0.iter()
                .map(|l| l.var())
                .filter(|&v| v >= first_term)
                .collect();
        slots.dedup();
        slots.reverse();
        let mut best: Option<(Cube, usize)> = None;
        for slot in slots {
            let both: Vec<CLit> = c.0.iter().filter(|l| l.var() == slot).cloned().collect();
            let mut cands: Vec<Cube> = both.iter().map(|l| Cube::new(vec![l.clone()])).collect();
            if both.len() > 1 {
                cands.push(Cube::new(both));
            }
            for g in cands {
                if self.limits.hit().is_some() {
                    return best;
                }
                if !matches!(self.initiation(&g), Initiation::Disjoint) {
                    continue;
                }
                let mut level = i;
                while level < self.frames.top() {
                    // F_level ∧ ¬c ∧ T ∧ g'
                    let q = self.frames.begin(level, Some(c));
                    self.stats.solver_calls += 1;
                    let (r, _) = self.frames.solve_next(&q, &g.0);
                    self.frames.end(q);
                    if !r.is_unsat() {
                        break;
                    }
                    level += 1;
                }
                if level == i {
                    continue;
                }
                let top = level >= self.frames.top();
                if best.as_ref().is_none_or(|(_, l)| level > *l) {
                    best = Some((g, level));
                }
                if top {
                    return best;
                }
                // the first blocked candidate of a slot is its best: the others only add
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64) -> Rational {
        Rational::from_integer(n.into())
    }

    #[test]
    fn normal_form_scales_and_signs() {
        // -2a + 4b  is  a - 2b
        let t = LinearTerm::normal(vec![(1, q(4)), (0, q(-2))]).unwrap();
        assert_eq!(t.coeffs, vec![(0, q(1)), (1, q(-2))]);
        // a/2 + b/3  is  3a + 2b
        let h = Rational::new(1.into(), 2.into());
        let th = Rational::new(1.into(), 3.into());
        let t = LinearTerm::normal(vec![(0, h), (1, th)]).unwrap();
        assert_eq!(t.coeffs, vec![(0, q(3)), (1, q(2))]);
        // one variable, or terms that cancel, are no relation
        assert!(LinearTerm::normal(vec![(0, q(1)), (0, q(2))]).is_none());
        assert!(LinearTerm::normal(vec![(0, q(1)), (1, q(1)), (1, q(-1))]).is_none());
    }

    #[test]
    fn mined_terms_expand_slots_and_skip_what_is_known() {
        let sv = |name: &str, sort: Sort| StateVar {
            name: name.into(),
            sort,
            domain: Domain::unbounded(),
            is_static: false,
            span: (0, 0),
        };
        let state = vec![
            sv("k", Sort::Int),
            sv("a2", Sort::Int),
            sv("a3", Sort::Int),
            sv("r", Sort::Real),
            sv("b", Sort::Bool),
        ];
        // slot 5 is the chosen term k + a2
        let chosen = vec![LinearTerm::normal(vec![(0, q(1)), (1, q(1))]).unwrap()];
        let parts = vec![
            // 2·(k + a2) − 2·a3 (the slot, expanded): k + a2 − a3, seen twice
            vec![(5, q(2)), (2, q(-2))],
            vec![(0, q(1)), (1, q(1)), (2, q(-1))],
            // k + a2 itself is chosen already
            vec![(0, q(3)), (1, q(3))],
            // a2 − a3 once
            vec![(1, q(1)), (2, q(-1))],
            // an integer and a real, and a Boolean: no term of one class
            vec![(0, q(1)), (3, q(1))],
            vec![(0, q(1)), (4, q(1))],
            // cancels to one variable
            vec![(5, q(1)), (1, q(-1))],
        ];
        let got = mined(&state, &chosen, &parts, 8);
        let text: Vec<String> = got.iter().map(|t| t.text(&state)).collect();
        assert_eq!(text, vec!["k + a2 - a3", "a2 - a3"]);
        assert_eq!(mined(&state, &chosen, &parts, 1).len(), 1);
    }

    #[test]
    fn hull_of_the_declared_domains() {
        let sv = |name: &str, lo: i64, hi: i64| StateVar {
            name: name.into(),
            sort: Sort::Int,
            domain: Domain::closed(q(lo), q(hi)),
            is_static: false,
            span: (0, 0),
        };
        let state = vec![sv("a", 0, 10), sv("b", -5, 20)];
        let t = LinearTerm::normal(vec![(0, q(1)), (1, q(-2))]).unwrap();
        assert_eq!(t.text(&state), "a - 2*b");
        let d = t.domain(&state);
        // a - 2b over a in [0, 10], b in [-5, 20]: [0 - 40, 10 + 10]
        assert_eq!(d, Domain::closed(q(-40), q(20)));
        let vals = vec![Value::Num(q(3)), Value::Num(q(4))];
        assert_eq!(t.eval(&state, &vals), Some(q(-5)));
    }
}
