//! Cubes over state variables, independent of any one solver (paper §2.4: a cube is a
//! conjunction of simple bound literals and Boolean literals; its negation is a lemma).
//!
//! The idea: a [`CLit`] names a state variable by its index in
//! [`crate::TransitionSystem::state`] and carries an exact constant, so one cube can be turned
//! into literals of any solver that holds a copy of the state ([`Step::lits`]) — the frame
//! solvers, the GeNTR solver over `¬T`, the initial-state solver, the fresh solvers of the
//! certificate check — and a literal the solver reports back (a failed assumption, its weakest
//! bound) is read back with [`Step::clit`]. An IEEE variable's cube literals are bounds on its
//! float value plus its NaN and sign flags (a box alone cannot say NaN or `-0`).

use super::bound_text::bound_text;
use crate::ts::{StateVar, TransitionSystem};
use solver::formula::Sort;
use solver::lit::Lit;
use solver::model::{Model, Value};
use solver::num::{ieee, FpFormat};
use solver::{LitInfo, Rational, Rel, Solver, Var};
use std::cmp::Ordering;
use std::collections::HashMap;

/// One literal of a cube over state variable `var` (an index into the state).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CLit {
    /// a Boolean state variable has this value
    Bool { var: usize, val: bool },
    /// `x rel value` on a numeric state variable (IEEE: on its float value)
    Bound {
        var: usize,
        rel: Rel,
        value: Rational,
    },
    /// an IEEE variable is NaN (`val`) or not
    Nan { var: usize, val: bool },
    /// an IEEE variable's sign bit
    Neg { var: usize, val: bool },
}

impl CLit {
    pub fn var(&self) -> usize {
        match self {
            CLit::Bool { var, .. }
            | CLit::Bound { var, .. }
            | CLit::Nan { var, .. }
            | CLit::Neg { var, .. } => *var,
        }
    }

    /// upper bound (`<=`, `<`)?
    fn is_upper(rel: Rel) -> bool {
        matches!(rel, Rel::Le | Rel::Lt)
    }

    /// An order that groups a variable's literals: variable, kind, direction.
    fn key(&self) -> (usize, u8) {
        match self {
            CLit::Bool { var, .. } => (*var, 0),
            CLit::Nan { var, .. } => (*var, 1),
            CLit::Neg { var, .. } => (*var, 2),
            CLit::Bound { var, rel, .. } => (*var, if Self::is_upper(*rel) { 3 } else { 4 }),
        }
    }

    /// `self` holds in every state where `other` holds (same variable, kind and direction,
    /// and `other` at least as tight).
    pub fn implied_by(&self, other: &CLit) -> bool {
        match (self, other) {
            (
                CLit::Bound {
                    var: a,
                    rel: ra,
                    value: qa,
                },
                CLit::Bound {
                    var: b,
                    rel: rb,
                    value: qb,
                },
            ) => {
                if a != b || Self::is_upper(*ra) != Self::is_upper(*rb) {
                    return false;
                }
                let strict_a = matches!(ra, Rel::Lt | Rel::Gt);
                let strict_b = matches!(rb, Rel::Lt | Rel::Gt);
                let ord = qb.cmp(qa);
                let tighter = if Self::is_upper(*ra) {
                    ord == Ordering::Less
                } else {
                    ord == Ordering::Greater
                };
                tighter || (ord == Ordering::Equal && (strict_b || !strict_a))
            }
            _ => self == other,
        }
    }
}

/// A cube: a conjunction of [`CLit`]s, kept sorted by variable (at most one literal per
/// variable, kind and direction).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cube(pub Vec<CLit>);

impl Cube {
    pub fn new(mut lits: Vec<CLit>) -> Cube {
        lits.sort_by_key(|l| l.key());
        // of two literals with one key keep the tighter (they come from one failed set or
        // from a cube plus an added literal)
        let mut out: Vec<CLit> = Vec::with_capacity(lits.len());
        for l in lits {
            match out.last_mut() {
                Some(prev) if prev.key() == l.key() => {
                    if prev.implied_by(&l) {
                        *prev = l;
                    }
                }
                _ => out.push(l),
            }
        }
        Cube(out)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every state of `other` is a state of `self` (so the lemma `¬self` implies `¬other`):
    /// each literal of `self` is implied by one of `other`.
    pub fn contains(&self, other: &Cube) -> bool {
        self.0
            .iter()
            .all(|l| other.0.iter().any(|m| l.implied_by(m)))
    }

    /// The cube of an exact state (one value per state variable); unknown values leave the
    /// variable unconstrained.
    pub fn of_point(state: &[StateVar], vals: &[Value]) -> Cube {
        let mut lits = Vec::new();
        for (i, (sv, v)) in state.iter().zip(vals).enumerate() {
            match v {
                Value::Bool(b) => lits.push(CLit::Bool { var: i, val: *b }),
                Value::Num(q) => {
                    lits.push(CLit::Bound {
                        var: i,
                        rel: Rel::Ge,
                        value: q.clone(),
                    });
                    lits.push(CLit::Bound {
                        var: i,
                        rel: Rel::Le,
                        value: q.clone(),
                    });
                }
                Value::Fp(bits) => {
                    let Sort::Fp(f) = sv.sort else { continue };
                    lits.extend(fp_point(i, f, *bits));
                }
                Value::Unknown => {}
            }
        }
        Cube::new(lits)
    }

    /// The box of a model over a step's variables (a candidate: no exact point).
    pub fn of_box(state: &[StateVar], m: &Model, step: &[Var]) -> Cube {
        let mut lits = Vec::new();
        for (i, (sv, &v)) in state.iter().zip(step).enumerate() {
            if sv.sort == Sort::Bool {
                if let Some(Some(b)) = m.bools.get(v) {
                    lits.push(CLit::Bool { var: i, val: *b });
                }
                continue;
            }
            if let Some(Some(d)) = m.fp.get(v) {
                if !d.has_values() {
                    if d.nan {
                        lits.push(CLit::Nan { var: i, val: true });
                    }
                    continue;
                }
                if !d.nan {
                    lits.push(CLit::Nan { var: i, val: false });
                }
            }
            let Some(b) = m.boxes.get(v) else { continue };
            let b = *b;
            if b.lo().is_finite() {
                if let Some(q) = Rational::from_float(b.lo()) {
                    let rel = if b.lo_open() { Rel::Gt } else { Rel::Ge };
                    lits.push(CLit::Bound {
                        var: i,
                        rel,
                        value: q,
                    });
                }
            }
            if b.hi().is_finite() {
                if let Some(q) = Rational::from_float(b.hi()) {
                    let rel = if b.hi_open() { Rel::Lt } else { Rel::Le };
                    lits.push(CLit::Bound {
                        var: i,
                        rel,
                        value: q,
                    });
                }
            }
        }
        Cube::new(lits)
    }

    /// The lemma `¬cube` in `.hys` syntax over the state variables' names, e.g.
    /// `x > 3 or !b or isnan(y)` (`false` for the empty cube).
    pub fn lemma_text(&self, ts: &TransitionSystem) -> String {
        if self.0.is_empty() {
            return "false".into();
        }
        // `isnan(x)` among the disjuncts already covers a bound's NaN part
        let nan_said = |var: usize| self.0.contains(&CLit::Nan { var, val: false });
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|l| lit_text(ts, l, true, nan_said(l.var())))
            .collect();
        parts.join(" or ")
    }

    /// The cube in `.hys` syntax, e.g. `x <= 3 and b`.
    pub fn text(&self, ts: &TransitionSystem) -> String {
        if self.0.is_empty() {
            return "true".into();
        }
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|l| lit_text(ts, l, false, false))
            .collect();
        parts.join(" and ")
    }
}

/// The literals that fix IEEE state variable `var` to the float `bits`.
fn fp_point(var: usize, f: FpFormat, bits: u64) -> Vec<CLit> {
    if f.is_nan(bits) {
        return vec![CLit::Nan { var, val: true }];
    }
    let mut out = vec![
        CLit::Nan { var, val: false },
        CLit::Neg {
            var,
            val: f.is_negative(bits),
        },
    ];
    let x = ieee::to_f64(f, bits);
    let max = ieee::to_f64(f, f.max_finite_bits());
    if x == f64::INFINITY {
        out.push(CLit::Bound {
            var,
            rel: Rel::Gt,
            value: Rational::from_float(max).expect("finite"),
        });
    } else if x == f64::NEG_INFINITY {
        out.push(CLit::Bound {
            var,
            rel: Rel::Lt,
            value: Rational::from_float(-max).expect("finite"),
        });
    } else {
        let q = Rational::from_float(x).expect("finite");
        out.push(CLit::Bound {
            var,
            rel: Rel::Ge,
            value: q.clone(),
        });
        out.push(CLit::Bound {
            var,
            rel: Rel::Le,
            value: q,
        });
    }
    out
}

fn lit_text(ts: &TransitionSystem, l: &CLit, negate: bool, nan_said: bool) -> String {
    let name = |i: usize| ts.state[i].name.clone();
    match l {
        CLit::Bool { var, val } => {
            if *val != negate {
                name(*var)
            } else {
                format!("!{}", name(*var))
            }
        }
        CLit::Nan { var, val } => {
            if *val != negate {
                format!("isnan({})", name(*var))
            } else {
                format!("!isnan({})", name(*var))
            }
        }
        CLit::Neg { var, val } => {
            if *val != negate {
                format!("isneg({})", name(*var))
            } else {
                format!("!isneg({})", name(*var))
            }
        }
        CLit::Bound { var, rel, value } => {
            let rel = if negate { rel.negate() } else { *rel };
            bound_text(&name(*var), ts.state[*var].sort, rel, value, nan_said)
        }
    }
}

/// Integers and machine integers: bounds between integers mean the next integer inward.
pub fn integral(sort: &Sort) -> bool {
    sort.is_integral() || matches!(sort, Sort::MachineInt(_))
}

/// Where a role of a state variable sits in one solver: the step vector of a state copy
/// (`s0`, `s1`, …) with the reverse map from solver variables to state slots.
#[derive(Clone, Debug)]
pub struct Step {
    pub vars: Vec<Var>,
    slots: HashMap<Var, Slot>,
}

#[derive(Clone, Copy, Debug)]
enum Slot {
    Value(usize),
    Nan(usize),
    Neg(usize),
}

impl Step {
    pub fn new(s: &Solver, vars: Vec<Var>) -> Step {
        let mut slots = HashMap::new();
        for (i, &v) in vars.iter().enumerate() {
            slots.insert(v, Slot::Value(i));
            if let Some((nan, neg)) = s.fp_flag_lits(v) {
                for (l, slot) in [(nan, Slot::Nan(i)), (neg, Slot::Neg(i))] {
                    if let Some(LitInfo::Bool(fv, _)) = s.lit_info(l) {
                        slots.insert(fv, slot);
                    }
                }
            }
        }
        Step { vars, slots }
    }

    /// The solver literal of a cube literal.
    pub fn lit(&self, s: &mut Solver, l: &CLit) -> Lit {
        match l {
            CLit::Bool { var, val } => {
                let b = s.bool_lit(self.vars[*var]).expect("Boolean state variable");
                if *val {
                    b
                } else {
                    !b
                }
            }
            CLit::Bound { var, rel, value } => s.bound_lit(self.vars[*var], *rel, value),
            CLit::Nan { var, val } | CLit::Neg { var, val } => {
                let (nan, neg) = s
                    .fp_flag_lits(self.vars[*var])
                    .expect("IEEE state variable");
                let f = if matches!(l, CLit::Nan { .. }) {
                    nan
                } else {
                    neg
                };
                if *val {
                    f
                } else {
                    !f
                }
            }
        }
    }

    /// The solver literals of a cube, in its order.
    pub fn lits(&self, s: &mut Solver, c: &[CLit]) -> Vec<Lit> {
        c.iter().map(|l| self.lit(s, l)).collect()
    }

    /// The lemma `¬c` at this step: the clause of the cube's negated literals.
    pub fn clause(&self, s: &mut Solver, c: &Cube) -> Vec<Lit> {
        c.0.iter().map(|l| !self.lit(s, l)).collect()
    }

    /// The cube literal of a solver literal over this step (`None` for other literals).
    pub fn clit(&self, s: &Solver, l: Lit) -> Option<CLit> {
        match s.lit_info(l)? {
            LitInfo::Bool(v, val) => match self.slots.get(&v)? {
                Slot::Value(i) => Some(CLit::Bool { var: *i, val }),
                Slot::Nan(i) => Some(CLit::Nan { var: *i, val }),
                Slot::Neg(i) => Some(CLit::Neg { var: *i, val }),
            },
            LitInfo::Bound(v, rel, value) => match self.slots.get(&v)? {
                Slot::Value(i) => Some(CLit::Bound {
                    var: *i,
                    rel,
                    value,
                }),
                _ => None,
            },
        }
    }

    /// The exact values of this step in a SAT model (`None` if the model has no point).
    pub fn values(&self, m: &Model) -> Option<Vec<Value>> {
        let p = m.point.as_ref()?;
        Some(
            self.vars
                .iter()
                .map(|&v| p.get(v).cloned().unwrap_or(Value::Unknown))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::bound_text::integer_bound;
    use super::*;

    fn q(n: i64) -> Rational {
        Rational::from_integer(n.into())
    }

    #[test]
    fn integer_bounds_print_as_integers() {
        let h = Rational::new(1.into(), 2.into());
        let five_h = Rational::new(5.into(), 2.into());
        // b < 0.5 is b <= 0; b >= 0.5 is b >= 1; b > 2.5 is b >= 3; b <= 2.5 is b <= 2
        assert_eq!(integer_bound(Rel::Lt, &h), (Rel::Le, q(0)));
        assert_eq!(integer_bound(Rel::Ge, &h), (Rel::Ge, q(1)));
        assert_eq!(integer_bound(Rel::Gt, &five_h), (Rel::Ge, q(3)));
        assert_eq!(integer_bound(Rel::Le, &five_h), (Rel::Le, q(2)));
        // integer values: strict bounds move by one, closed ones stay
        assert_eq!(integer_bound(Rel::Lt, &q(3)), (Rel::Le, q(2)));
        assert_eq!(integer_bound(Rel::Gt, &q(3)), (Rel::Ge, q(4)));
        assert_eq!(integer_bound(Rel::Le, &q(3)), (Rel::Le, q(3)));
    }

    fn b(var: usize, rel: Rel, n: i64) -> CLit {
        CLit::Bound {
            var,
            rel,
            value: q(n),
        }
    }

    #[test]
    fn implication_between_bounds() {
        assert!(b(0, Rel::Le, 5).implied_by(&b(0, Rel::Le, 3)));
        assert!(!b(0, Rel::Le, 3).implied_by(&b(0, Rel::Le, 5)));
        assert!(b(0, Rel::Le, 5).implied_by(&b(0, Rel::Lt, 5)));
        assert!(!b(0, Rel::Lt, 5).implied_by(&b(0, Rel::Le, 5)));
        assert!(b(0, Rel::Ge, 1).implied_by(&b(0, Rel::Gt, 1)));
        assert!(!b(0, Rel::Ge, 1).implied_by(&b(0, Rel::Le, 0)));
        assert!(!b(0, Rel::Le, 5).implied_by(&b(1, Rel::Le, 3)));
    }

    #[test]
    fn containment_of_boxes() {
        let big = Cube::new(vec![b(0, Rel::Le, 9)]);
        let small = Cube::new(vec![b(0, Rel::Le, 3), b(0, Rel::Ge, 1), b(1, Rel::Le, 0)]);
        assert!(big.contains(&small));
        assert!(!small.contains(&big));
        assert!(Cube::default().contains(&small));
    }

    #[test]
    fn new_keeps_the_tighter_of_one_direction() {
        let c = Cube::new(vec![b(0, Rel::Le, 9), b(0, Rel::Le, 3), b(0, Rel::Ge, 1)]);
        assert_eq!(c.len(), 2);
        assert!(c.0.contains(&b(0, Rel::Le, 3)));
    }
}
