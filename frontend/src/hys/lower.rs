//! Lowering of a checked `.hys` file into the solver's input (iSAT3 style, like its
//! `--dump-hys-problem`): every arithmetic operation becomes one definition over a fresh
//! auxiliary variable, every arithmetic relation a simple bound atom, and the Boolean
//! structure Tseitin clauses.
//!
//! Encoding decisions (also listed in the project docs):
//! - Int/Real expressions are kept as exact linear forms `Σ cᵢ·tᵢ + k` (terms: variables,
//!   auxiliaries, Booleans as 0/1) while they are linear; a linear form becomes an auxiliary
//!   `h = Σ cᵢ·tᵢ + k` only when a non-linear operation needs it as an operand.
//! - A relation `e1 ~ e2` over Int/Real is `e1 - e2 ~ 0`. Constant: folded. One term
//!   `c·t + k`: the bound atom `t ~ -k/c` (flipped when `c < 0`); on a Boolean term
//!   (`b = 1`, `b != 0`, `b + 0 >= 1`) it is decided for `t ∈ {0, 1}` and becomes the literal
//!   `b`, `¬b`, true or false. Several terms: scaled to coprime integer coefficients with the
//!   first (in variable order) positive, `h = Σ cᵢ·tᵢ` (hash-consed, so `x - y <= 0` and
//!   `y - x >= 0` share `h`) and a bound on `h`.
//! - Bound atoms are canonical: only `x <= c` and `x < c` are atoms; `x > c`, `x >= c` are
//!   their negations. On integral sorts (Int, machine integers, Int auxiliaries) every bound
//!   is `x <= c` with integer `c` (`x < 2.5` → `x <= 2`, `x >= 3` → `¬(x <= 2)`); `x = 2.5`
//!   on them is false. `=` is `x <= c ∧ x >= c`, `!=` its negation.
//! - `x * x` is `x ^ 2` (tighter propagation, same value).
//! - Fp relations are Bool-valued definitions: `<` → `FLt`, `>` → swapped `FLt`, `<=`/`>=`
//!   → `FLe`, `=` → `FSame` (identity), `!=` → `¬FSame`.
//! - Machine-integer relations: against a constant, a bound atom on the machine-integer
//!   variable; between two non-constant operands, both are converted exactly to Int
//!   (`Convert`) and compared through an Int linear form (never a wrapping `BvSub`). An
//!   operand that is `to_intN(e)` of an Int `e` is compared through `e` itself.
//! - `to_intN(e)` of an Int `e` that may not fit (its enclosure is not inside the type):
//!   `Convert` plus the fit condition `MIN <= e <= MAX`, conjoined to the smallest enclosing
//!   Boolean atom (relation or predicate), so `not (to_int8(n) = a)` holds when `n` does not
//!   fit; inside an `ite` branch the condition only applies when the branch is taken.
//! - Constants as operands of definitions are variables with a point domain, one per value
//!   and sort (fp constants also carry their exact bits in `fp_const`; NaN and infinities
//!   have the unbounded domain). An Int value used where a Real one is required (a branch
//!   of a Real `ite`) goes through an identity `Linear` definition with a Real output.
//! - Auxiliary domains are unbounded, except `BoolToNum` outputs ([0, 1]).
//! - Static variables: TRANS gets `s' = s` (Bool: `¬(s' xor s)`; Int/Real: the linear
//!   equality; fp: `FSame`; machine integers: through `Convert` to Int), one root each.
//! - Every formula of a transition system declares all state variables first, in
//!   declaration order (TRANS: all current copies, then all next copies).
//! - Booleans used as numbers: `BoolToNum` into an Int auxiliary with domain [0, 1]
//!   (`1 - b2n(b)` for `¬b`).
//! - Boolean structure: n-ary `and`/`or` are flattened; `or` is a negated `and` (one Tseitin
//!   variable serves both polarities and `a or b` shares with `!a and !b`); `xor`/`<->` share
//!   one variable; `not` flips a literal. A constant `false` root is the literal of a Boolean
//!   constant variable `false` (clause `¬false`). A top-level conjunction contributes one
//!   root per conjunct.
//! - Auxiliary variables are named `h#N`, Tseitin variables `t#N`, next-state copies `x'`;
//!   constants by their value (`3`, `0.5`, `7:int8`, `fp32:0x3dcccccd`).

use super::check::{Checked, DeclaredVar};
use super::constfold;
use super::ir::{BoolOp, Constraint, NodeId, NodeKind, RelOp};
use super::lin::Coef;
use crate::diag::{Diagnostic, Span};
use ic3::{StateVar, TransitionSystem};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use solver::formula::{Atom, Def, Domain, Formula, Lit, Op, Rel, Sort, VarInfo, VarOrigin};
use solver::num::{format_rational, FpFormat, IntType, Rational};
use solver::Var;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The result of lowering: a single formula (EXPR form) or a transition system.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // one value per file; boxing would only complicate the API
pub enum Lowered {
    Expr(Formula),
    Transition(TransitionSystem),
}

/// Coefficients larger than this (bits) are refused (a `constant too large` error).
const MAX_COEFF_BITS: u64 = 1_000_000;

/// Lowers a checked file.
pub fn lower(checked: &Checked) -> Result<Lowered, Diagnostic> {
    let sections = checked.sections();
    if !checked.is_transition_system() {
        let mut lw = Lw::new(checked);
        lw.declare_all(false);
        for s in sections {
            lw.constraints(&s.constraints)?;
        }
        return Ok(Lowered::Expr(lw.f));
    }
    let get = |i: usize| {
        sections
            .get(i)
            .map(|s| s.constraints.as_slice())
            .unwrap_or(&[])
    };
    let state: Vec<StateVar> = checked
        .declared()
        .iter()
        .map(|d| StateVar {
            name: d.name.clone(),
            sort: d.sort,
            domain: d.domain.clone(),
            is_static: d.is_static,
            span: d.span.pair(),
        })
        .collect();

    let mut init = Lw::new(checked);
    init.declare_all(false);
    init.constraints(get(0))?;

    let mut trans = Lw::new(checked);
    trans.declare_all(false);
    trans.declare_all(true);
    trans.constraints(get(1))?;
    trans.statics()?;

    let mut target = Lw::new(checked);
    target.declare_all(false);
    target.constraints(get(2))?;

    Ok(Lowered::Transition(TransitionSystem {
        state,
        init_vars: init.cur.clone(),
        init: init.f,
        trans_current: trans.cur.clone(),
        trans_next: trans.next.clone(),
        trans: trans.f,
        target_vars: target.cur.clone(),
        target: target.f,
    }))
}

/// A term of a linear form: a numeric variable, or a (non-negated) Boolean literal read as
/// 0/1 (its `BoolToNum` auxiliary is only created when the term must become a variable).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
enum Term {
    V(Var),
    B(Lit),
}

type Lin = super::lin::Lin<Term>;

fn coef(q: &Rational) -> Coef {
    Coef::from_rational(q.clone())
}

fn too_big(l: &Lin) -> bool {
    l.max_bits() > MAX_COEFF_BITS
}

/// A Boolean value under construction.
#[derive(Clone, Debug)]
enum BVal {
    Const(bool),
    Lit(Lit),
    /// conjunction (flattened)
    And(Vec<Lit>),
    /// disjunction (flattened)
    Or(Vec<Lit>),
}

/// A numeric value under construction.
#[derive(Clone, Debug)]
enum NVal {
    /// Int/Real
    Lin(Lin),
    /// any non-Bool sort
    Var(Var),
    /// machine-integer constant
    MConst(Rational),
    /// fp constant (bits)
    Fp(u64),
}

#[derive(Clone, Debug)]
enum Val {
    B(BVal),
    /// a number, with the fit conditions of conversions inside it
    N(NVal, Vec<Lit>),
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum ConstKey {
    Num(Sort, Rational),
    Fp(FpFormat, u64),
}

fn err(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(span, msg)
}

fn too_large(span: Span) -> Diagnostic {
    err(
        span,
        format!("constant too large while normalising this expression (more than {MAX_COEFF_BITS} bits)"),
    )
}

/// A fast, deterministic hasher for the hash-consing tables (keys are small integers and
/// operations; no untrusted-input DoS concern: the tables only live during one lowering).
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

struct Lw<'a> {
    ck: &'a Checked,
    f: Formula,
    cur: Vec<Var>,
    next: Vec<Var>,
    defs: FxMap<(Op, Vec<Var>, Sort), Var>,
    consts: FxMap<ConstKey, Var>,
    ands: FxMap<Vec<Lit>, Lit>,
    xors: FxMap<(Lit, Lit), Lit>,
    ites: FxMap<(Lit, Lit, Lit), Lit>,
    lit_vars: FxMap<Lit, Var>,
    /// machine-integer auxiliaries defined as `convert(i)` of an Int variable `i`
    int_source: FxMap<Var, Var>,
    false_lit: Option<Lit>,
    n_aux: u32,
    n_tseitin: u32,
}

impl<'a> Lw<'a> {
    fn new(ck: &'a Checked) -> Lw<'a> {
        Lw {
            ck,
            f: Formula::new(),
            cur: Vec::new(),
            next: Vec::new(),
            defs: FxMap::default(),
            consts: FxMap::default(),
            ands: FxMap::default(),
            xors: FxMap::default(),
            ites: FxMap::default(),
            lit_vars: FxMap::default(),
            int_source: FxMap::default(),
            false_lit: None,
            n_aux: 0,
            n_tseitin: 0,
        }
    }

    fn declare_all(&mut self, primed: bool) {
        let vars: Vec<Var> = self
            .ck
            .declared()
            .iter()
            .map(|d: &DeclaredVar| {
                let name = if primed {
                    format!("{}'", d.name)
                } else {
                    d.name.clone()
                };
                self.f.add_var(VarInfo {
                    name,
                    sort: d.sort,
                    domain: d.domain.clone(),
                    origin: VarOrigin::Declared {
                        span: d.span.pair(),
                    },
                    fp_const: None,
                })
            })
            .collect();
        if primed {
            self.next = vars;
        } else {
            self.cur = vars;
        }
    }

    // ------------------------------------------------------------------ variables

    fn aux(&mut self, sort: Sort, domain: Domain, span: Span) -> Var {
        self.n_aux += 1;
        self.f.add_var(VarInfo {
            name: format!("h#{}", self.n_aux),
            sort,
            domain,
            origin: VarOrigin::Aux { span: span.pair() },
            fp_const: None,
        })
    }

    fn tseitin(&mut self, span: Span) -> Var {
        self.n_tseitin += 1;
        self.f.add_var(VarInfo {
            name: format!("t#{}", self.n_tseitin),
            sort: Sort::Bool,
            domain: Domain::unbounded(),
            origin: VarOrigin::Tseitin { span: span.pair() },
            fp_const: None,
        })
    }

    /// `out = op(args)`, hash-consed on (op, args, output sort).
    fn def(&mut self, op: Op, args: Vec<Var>, sort: Sort, span: Span) -> Var {
        let key = (op, args, sort);
        if let Some(&v) = self.defs.get(&key) {
            return v;
        }
        let domain = match key.0 {
            Op::BoolToNum => Domain::closed(Rational::zero(), Rational::one()),
            _ => Domain::unbounded(),
        };
        let out = self.aux(sort, domain, span);
        self.f.add_def(Def {
            out,
            op: key.0.clone(),
            args: key.1.clone(),
        });
        self.defs.insert(key, out);
        out
    }

    /// A constant of an Int/Real/machine sort as a variable with a point domain.
    fn num_const(&mut self, v: Rational, sort: Sort) -> Var {
        let key = ConstKey::Num(sort, v.clone());
        if let Some(&x) = self.consts.get(&key) {
            return x;
        }
        let name = match sort {
            Sort::MachineInt(t) => format!("{}:{}", format_rational(&v), t.name()),
            _ => format_rational(&v),
        };
        let x = self.f.add_var(VarInfo {
            name,
            sort,
            domain: Domain::point(v),
            origin: VarOrigin::Constant,
            fp_const: None,
        });
        self.consts.insert(key, x);
        x
    }

    fn fp_const(&mut self, f: FpFormat, bits: u64) -> Var {
        let key = ConstKey::Fp(f, bits);
        if let Some(&x) = self.consts.get(&key) {
            return x;
        }
        let domain = match f.to_rational(bits) {
            Some(q) => Domain::point(q),
            None => Domain::unbounded(),
        };
        let x = self.f.add_var(VarInfo {
            name: format!("{}:0x{bits:x}", f.name()),
            sort: Sort::Fp(f),
            domain,
            origin: VarOrigin::Constant,
            fp_const: Some(bits),
        });
        self.consts.insert(key, x);
        x
    }

    fn sort(&self, v: Var) -> Sort {
        self.f.vars[v].sort
    }

    fn term_sort(&self, t: Term) -> Sort {
        match t {
            Term::V(v) => self.sort(v),
            Term::B(_) => Sort::Int,
        }
    }

    fn term_var(&mut self, t: Term, span: Span) -> Var {
        match t {
            Term::V(v) => v,
            Term::B(l) => {
                let (b, _) = self.var_of_lit(l, span);
                self.def(Op::BoolToNum, vec![b], Sort::Int, span)
            }
        }
    }

    /// `h = Σ coeffs·terms + k` (no shortcut), sorted Int when everything is integral.
    fn linear_def(&mut self, l: &mut Lin, span: Span) -> Var {
        let terms = l.terms().to_vec();
        let mut args = Vec::with_capacity(terms.len());
        let mut coeffs = Vec::with_capacity(terms.len());
        let mut int = l.k.is_integer();
        for (t, c) in terms {
            int &= c.is_integer() && self.term_sort(t).is_integral();
            args.push(self.term_var(t, span));
            coeffs.push(c.to_rational());
        }
        let sort = if int { Sort::Int } else { Sort::Real };
        self.def(
            Op::Linear {
                coeffs,
                constant: l.k.to_rational(),
            },
            args,
            sort,
            span,
        )
    }

    /// A numeric value as a variable; `sort` is the value's sort (it decides the format of
    /// fp constants and the type of machine constants).
    fn var_of(&mut self, v: NVal, sort: Sort, span: Span) -> Var {
        match v {
            NVal::Var(x) => x,
            NVal::MConst(q) => self.num_const(q, sort),
            NVal::Fp(bits) => {
                let f = match sort {
                    Sort::Fp(f) => f,
                    // fp constants only ever have fp sorts (checker invariant)
                    _ => FpFormat::F64,
                };
                self.fp_const(f, bits)
            }
            NVal::Lin(mut l) => {
                if l.is_const() {
                    let s = if l.k.is_integer() {
                        Sort::Int
                    } else {
                        Sort::Real
                    };
                    return self.num_const(l.k.to_rational(), s);
                }
                if l.k.is_zero() {
                    if let [(t, c)] = l.terms() {
                        if c.is_one() {
                            let t = *t;
                            return self.term_var(t, span);
                        }
                    }
                }
                self.linear_def(&mut l, span)
            }
        }
    }

    /// Like [`Lw::var_of`], but an Int value is converted when `sort` is Real (exactly, by
    /// an identity linear definition), so the variable has exactly `sort`.
    fn var_of_sort(&mut self, mut v: NVal, sort: Sort, span: Span) -> Var {
        if sort == Sort::Real {
            if let NVal::Lin(l) = &mut v {
                if l.is_const() {
                    return self.num_const(l.k.to_rational(), Sort::Real);
                }
            }
        }
        let x = self.var_of(v, sort, span);
        if sort == Sort::Real && self.sort(x) == Sort::Int {
            return self.def(
                Op::Linear {
                    coeffs: vec![Rational::one()],
                    constant: Rational::zero(),
                },
                vec![x],
                Sort::Real,
                span,
            );
        }
        x
    }

    /// The value of a numeric variable as a value of its sort.
    fn nval_of_var(&self, x: Var) -> NVal {
        match self.sort(x) {
            Sort::Int | Sort::Real => NVal::Lin(Lin::term(Term::V(x))),
            _ => NVal::Var(x),
        }
    }

    // ------------------------------------------------------------------ Boolean structure

    fn false_lit(&mut self) -> Lit {
        if let Some(l) = self.false_lit {
            return l;
        }
        let v = self.f.add_var(VarInfo {
            name: "false".into(),
            sort: Sort::Bool,
            domain: Domain::unbounded(),
            origin: VarOrigin::Constant,
            fp_const: None,
        });
        let l = self.f.bool_lit(v);
        self.f.add_clause(vec![!l]);
        self.false_lit = Some(l);
        l
    }

    fn const_lit(&mut self, b: bool) -> Lit {
        let f = self.false_lit();
        if b {
            !f
        } else {
            f
        }
    }

    /// The literal of a conjunction (a Tseitin variable, hash-consed).
    fn and_lit(&mut self, mut lits: Vec<Lit>, span: Span) -> Lit {
        lits.sort_unstable();
        lits.dedup();
        if let Some(f) = self.false_lit {
            if lits.contains(&f) {
                return f;
            }
            lits.retain(|&l| l != !f);
        }
        // l and ¬l are adjacent after sorting
        if lits.windows(2).any(|w| w[0] == !w[1]) {
            return self.const_lit(false);
        }
        match lits.len() {
            0 => return self.const_lit(true),
            1 => return lits[0],
            _ => {}
        }
        if let Some(&t) = self.ands.get(&lits) {
            return t;
        }
        let v = self.tseitin(span);
        let t = self.f.bool_lit(v);
        let mut long = Vec::with_capacity(lits.len() + 1);
        long.push(t);
        for &l in &lits {
            self.f.add_clause(vec![!t, l]);
            long.push(!l);
        }
        self.f.add_clause(long);
        self.ands.insert(lits, t);
        t
    }

    /// Folds trivial conjunctions/disjunctions (`a and !a`, one or no operand).
    fn simplify(b: BVal) -> BVal {
        let (mut ls, is_and) = match b {
            BVal::And(ls) => (ls, true),
            BVal::Or(ls) => (ls, false),
            b => return b,
        };
        let mut sorted = ls.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.windows(2).any(|w| w[0] == !w[1]) {
            return BVal::Const(!is_and);
        }
        match sorted.len() {
            0 => BVal::Const(is_and),
            1 => BVal::Lit(sorted[0]),
            _ => {
                // keep the source order (roots), without duplicates
                if sorted.len() < ls.len() {
                    let mut seen = std::collections::HashSet::new();
                    ls.retain(|l| seen.insert(*l));
                }
                if is_and {
                    BVal::And(ls)
                } else {
                    BVal::Or(ls)
                }
            }
        }
    }

    fn lit(&mut self, b: BVal, span: Span) -> Lit {
        match Self::simplify(b) {
            BVal::Const(c) => self.const_lit(c),
            BVal::Lit(l) => l,
            BVal::And(ls) => self.and_lit(ls, span),
            BVal::Or(ls) => {
                let neg: Vec<Lit> = ls.into_iter().map(|l| !l).collect();
                !self.and_lit(neg, span)
            }
        }
    }

    fn b_not(b: BVal) -> BVal {
        match b {
            BVal::Const(c) => BVal::Const(!c),
            BVal::Lit(l) => BVal::Lit(!l),
            BVal::And(ls) => BVal::Or(ls.into_iter().map(|l| !l).collect()),
            BVal::Or(ls) => BVal::And(ls.into_iter().map(|l| !l).collect()),
        }
    }

    fn b_and(&mut self, a: BVal, b: BVal, span: Span) -> BVal {
        match (a, b) {
            (BVal::Const(false), _) | (_, BVal::Const(false)) => BVal::Const(false),
            (BVal::Const(true), x) | (x, BVal::Const(true)) => x,
            (BVal::And(mut x), BVal::And(y)) => {
                x.extend(y);
                BVal::And(x)
            }
            (BVal::And(mut x), y) => {
                let l = self.lit(y, span);
                x.push(l);
                BVal::And(x)
            }
            (x, BVal::And(mut y)) => {
                let l = self.lit(x, span);
                y.insert(0, l);
                BVal::And(y)
            }
            (x, y) => {
                let lx = self.lit(x, span);
                let ly = self.lit(y, span);
                BVal::And(vec![lx, ly])
            }
        }
    }

    /// Mirrors [`Self::b_and`] on purpose: writing it as `¬(¬a ∧ ¬b)` negates the whole
    /// accumulated literal list at every step, which makes a long `or` chain quadratic
    /// (measured: the 100,000-term chain test went from 0.6 s to 14 s).
    fn b_or(&mut self, a: BVal, b: BVal, span: Span) -> BVal {
        match (a, b) {
            (BVal::Const(true), _) | (_, BVal::Const(true)) => BVal::Const(true),
            (BVal::Const(false), x) | (x, BVal::Const(false)) => x,
            (BVal::Or(mut x), BVal::Or(y)) => {
                x.extend(y);
                BVal::Or(x)
            }
            (BVal::Or(mut x), y) => {
                let l = self.lit(y, span);
                x.push(l);
                BVal::Or(x)
            }
            (x, BVal::Or(mut y)) => {
                let l = self.lit(x, span);
                y.insert(0, l);
                BVal::Or(y)
            }
            (x, y) => {
                let lx = self.lit(x, span);
                let ly = self.lit(y, span);
                BVal::Or(vec![lx, ly])
            }
        }
    }

    fn b_xor(&mut self, a: BVal, b: BVal, span: Span) -> BVal {
        match (a, b) {
            (BVal::Const(c), x) | (x, BVal::Const(c)) => {
                if c {
                    Self::b_not(x)
                } else {
                    x
                }
            }
            (x, y) => {
                let lx = self.lit(x, span);
                let ly = self.lit(y, span);
                self.xor_lit(lx, ly, span)
            }
        }
    }

    fn xor_lit(&mut self, a: Lit, b: Lit, span: Span) -> BVal {
        let neg = a.is_negated() != b.is_negated();
        let a = Lit(a.0 & !1);
        let b = Lit(b.0 & !1);
        if a == b {
            return BVal::Const(neg);
        }
        let key = (a.min(b), a.max(b));
        let t = match self.xors.get(&key) {
            Some(&t) => t,
            None => {
                let v = self.tseitin(span);
                let t = self.f.bool_lit(v);
                let (a, b) = key;
                self.f.add_clause(vec![!t, a, b]);
                self.f.add_clause(vec![!t, !a, !b]);
                self.f.add_clause(vec![t, !a, b]);
                self.f.add_clause(vec![t, a, !b]);
                self.xors.insert(key, t);
                t
            }
        };
        BVal::Lit(if neg { !t } else { t })
    }

    fn b_ite(&mut self, c: BVal, a: BVal, b: BVal, span: Span) -> BVal {
        match (c, a, b) {
            (BVal::Const(c), a, b) => {
                if c {
                    a
                } else {
                    b
                }
            }
            (c, BVal::Const(true), b) => self.b_or(c, b, span),
            (c, BVal::Const(false), b) => self.b_and(Self::b_not(c), b, span),
            (c, a, BVal::Const(true)) => self.b_or(Self::b_not(c), a, span),
            (c, a, BVal::Const(false)) => self.b_and(c, a, span),
            (c, a, b) => {
                let mut lc = self.lit(c, span);
                let mut la = self.lit(a, span);
                let mut lb = self.lit(b, span);
                if la == lb {
                    return BVal::Lit(la);
                }
                if lc.is_negated() {
                    lc = !lc;
                    std::mem::swap(&mut la, &mut lb);
                }
                if la == !lb {
                    // ite(c, a, ¬a) = (c <-> a)
                    let x = self.xor_lit(lc, la, span);
                    return Self::b_not(x);
                }
                // a branch that is the condition itself
                if la == lc {
                    return self.b_or(BVal::Lit(lc), BVal::Lit(lb), span);
                }
                if la == !lc {
                    return self.b_and(BVal::Lit(!lc), BVal::Lit(lb), span);
                }
                if lb == lc {
                    return self.b_and(BVal::Lit(lc), BVal::Lit(la), span);
                }
                if lb == !lc {
                    return self.b_or(BVal::Lit(!lc), BVal::Lit(la), span);
                }
                let key = (lc, la, lb);
                if let Some(&t) = self.ites.get(&key) {
                    return BVal::Lit(t);
                }
                let v = self.tseitin(span);
                let t = self.f.bool_lit(v);
                self.f.add_clause(vec![!lc, !la, t]);
                self.f.add_clause(vec![lc, !lb, t]);
                self.f.add_clause(vec![!lc, la, !t]);
                self.f.add_clause(vec![lc, lb, !t]);
                self.ites.insert(key, t);
                BVal::Lit(t)
            }
        }
    }

    /// A Boolean variable equivalent to the positive form of `l`, and whether `l` is negated.
    fn var_of_lit(&mut self, l: Lit, span: Span) -> (Var, bool) {
        let neg = l.is_negated();
        let base = Lit(l.0 & !1);
        if let Atom::Bool(v) = self.f.atom(base.atom()) {
            return (*v, neg);
        }
        if let Some(&v) = self.lit_vars.get(&base) {
            return (v, neg);
        }
        let v = self.tseitin(span);
        let t = self.f.bool_lit(v);
        self.f.add_clause(vec![!t, base]);
        self.f.add_clause(vec![t, !base]);
        self.lit_vars.insert(base, v);
        (v, neg)
    }

    fn add_root(&mut self, b: BVal, span: Span) {
        let lits = match Self::simplify(b) {
            BVal::Const(true) => return,
            BVal::And(ls) => ls,
            b => vec![self.lit(b, span)],
        };
        let t = self.false_lit.map(|f| !f);
        for l in lits {
            if Some(l) != t {
                self.f.add_root(l);
            }
        }
    }

    // ------------------------------------------------------------------ relations

    fn atom(&mut self, x: Var, rel: Rel, value: Rational) -> Lit {
        self.f.atom_lit(Atom::Bound { var: x, rel, value })
    }

    /// `t op v` for a single term.
    fn bound(&mut self, t: Term, op: RelOp, v: Rational, span: Span) -> BVal {
        let x = match t {
            Term::B(l) => {
                let at0 = op.holds(Rational::zero().cmp(&v));
                let at1 = op.holds(Rational::one().cmp(&v));
                return match (at0, at1) {
                    (true, true) => BVal::Const(true),
                    (false, false) => BVal::Const(false),
                    (false, true) => BVal::Lit(l),
                    (true, false) => BVal::Lit(!l),
                };
            }
            Term::V(x) => x,
        };
        if self.sort(x).is_integral() {
            let floor = v.floor().to_integer();
            let ceil = v.ceil().to_integer();
            let le = |this: &mut Self, c: BigInt| this.atom(x, Rel::Le, Rational::from_integer(c));
            return match op {
                RelOp::Le => BVal::Lit(le(self, floor)),
                RelOp::Lt => BVal::Lit(le(self, ceil - 1)),
                RelOp::Ge => BVal::Lit(!le(self, ceil - 1)),
                RelOp::Gt => BVal::Lit(!le(self, floor)),
                RelOp::Eq | RelOp::Ne => {
                    let r = if v.is_integer() {
                        let c = v.to_integer();
                        let a = le(self, c.clone());
                        let b = !le(self, c - 1);
                        BVal::And(vec![a, b])
                    } else {
                        BVal::Const(false)
                    };
                    if op == RelOp::Ne {
                        Self::b_not(r)
                    } else {
                        r
                    }
                }
            };
        }
        let _ = span;
        match op {
            RelOp::Le => BVal::Lit(self.atom(x, Rel::Le, v)),
            RelOp::Lt => BVal::Lit(self.atom(x, Rel::Lt, v)),
            RelOp::Ge => BVal::Lit(!self.atom(x, Rel::Lt, v)),
            RelOp::Gt => BVal::Lit(!self.atom(x, Rel::Le, v)),
            RelOp::Eq | RelOp::Ne => {
                let a = self.atom(x, Rel::Le, v.clone());
                let b = !self.atom(x, Rel::Lt, v);
                let r = BVal::And(vec![a, b]);
                if op == RelOp::Ne {
                    Self::b_not(r)
                } else {
                    r
                }
            }
        }
    }

    /// `d op 0` for an Int/Real linear form.
    fn rel_lin(&mut self, op: RelOp, mut d: Lin, span: Span) -> BVal {
        if d.is_const() {
            return BVal::Const(op.holds(d.k.sign()));
        }
        if let [(t, c)] = d.terms() {
            let (t, c) = (*t, c.to_rational());
            let v = -(d.k.to_rational() / &c);
            let op = if c.is_negative() { op.swap() } else { op };
            return self.bound(t, op, v, span);
        }
        // scale to coprime integer coefficients, the first one positive
        let s = match d.terms() {
            terms
                if terms
                    .iter()
                    .all(|(_, c)| matches!(c, Coef::Small(i) if *i != i64::MIN)) =>
            {
                let mut g: i64 = 0;
                for (_, c) in terms {
                    if let Coef::Small(i) = c {
                        g = g.gcd(i);
                    }
                }
                let neg = terms.first().is_some_and(|(_, c)| c.is_negative());
                match (g, neg) {
                    (0, _) => Coef::one(),
                    (g, false) => super::lin::recip(&Coef::Small(g)).unwrap_or(Coef::one()),
                    (g, true) => super::lin::recip(&Coef::Small(g))
                        .unwrap_or(Coef::one())
                        .neg(),
                }
            }
            terms => {
                let mut lcm = BigInt::one();
                for (_, c) in terms {
                    lcm = lcm.lcm(c.to_rational().denom());
                }
                let mut gcd = BigInt::zero();
                for (_, c) in terms {
                    let n = (c.to_rational() * Rational::from_integer(lcm.clone())).to_integer();
                    gcd = gcd.gcd(&n);
                }
                let mut s = Rational::new(lcm, gcd);
                if terms.first().is_some_and(|(_, c)| c.is_negative()) {
                    s = -s;
                }
                Coef::from_rational(s)
            }
        };
        let op = if s.is_negative() { op.swap() } else { op };
        let mut d = d.scale(&s);
        let k = std::mem::replace(&mut d.k, Coef::zero());
        let h = self.linear_def(&mut d, span);
        self.bound(Term::V(h), op, -k.to_rational(), span)
    }

    // ------------------------------------------------------------------ constraints

    fn constraints(&mut self, cs: &[Constraint]) -> Result<(), Diagnostic> {
        for c in cs {
            let v = self.eval(c)?;
            let b = match v {
                Val::B(b) => b,
                // a checked constraint is Boolean
                Val::N(..) => {
                    return Err(err(c.span, "internal error: a constraint is not Boolean"))
                }
            };
            self.add_root(b, c.span);
        }
        Ok(())
    }

    /// `s' = s` for every static variable.
    fn statics(&mut self) -> Result<(), Diagnostic> {
        for (i, d) in self.ck.declared().iter().enumerate() {
            if !d.is_static {
                continue;
            }
            let (Some(&c), Some(&n)) = (self.cur.get(i), self.next.get(i)) else {
                continue;
            };
            let span = d.span;
            let b = match d.sort {
                Sort::Bool => {
                    let (lc, ln) = (self.f.bool_lit(c), self.f.bool_lit(n));
                    let x = self.xor_lit(ln, lc, span);
                    Self::b_not(x)
                }
                Sort::Int | Sort::Real => {
                    let diff = Lin::term(Term::V(n)).add(Lin::term(Term::V(c)), true);
                    self.rel_lin(RelOp::Eq, diff, span)
                }
                Sort::Fp(_) => {
                    let out = self.def(Op::FSame, vec![c.min(n), c.max(n)], Sort::Bool, span);
                    BVal::Lit(self.f.bool_lit(out))
                }
                Sort::MachineInt(_) => {
                    let ci = self.int_value(c, span);
                    let ni = self.int_value(n, span);
                    let diff = Lin::term(Term::V(ni)).add(Lin::term(Term::V(ci)), true);
                    self.rel_lin(RelOp::Eq, diff, span)
                }
            };
            self.add_root(b, span);
        }
        Ok(())
    }

    /// Lowers the nodes of one constraint bottom-up (explicit stack; only nodes reachable
    /// from the root). The IR is a tree, so the operands' values are always the top of the
    /// value stack when a node is lowered.
    fn eval(&mut self, c: &Constraint) -> Result<Val, Diagnostic> {
        let ir = &self.ck.ir;
        // (node, number of operands once expanded)
        let mut stack: Vec<(NodeId, Option<usize>)> = vec![(c.root, None)];
        let mut vals: Vec<Val> = Vec::new();
        let mut kids: Vec<NodeId> = Vec::new();
        while let Some((id, expanded)) = stack.pop() {
            let Some(n) = expanded else {
                kids.clear();
                ir.node(id).kind.operands(&mut kids);
                stack.push((id, Some(kids.len())));
                for &k in kids.iter().rev() {
                    stack.push((k, None));
                }
                continue;
            };
            let start = vals.len().saturating_sub(n);
            let v = self.node(id, Args(vals.drain(start..)))?;
            vals.push(v);
        }
        vals.pop()
            .ok_or_else(|| err(c.span, "internal error: constraint without a value"))
    }
}

/// The values of a node's operands, in order.
struct Args<'v>(std::vec::Drain<'v, Val>);

impl Args<'_> {
    fn b(&mut self, span: Span) -> Result<BVal, Diagnostic> {
        match self.0.next() {
            Some(Val::B(b)) => Ok(b),
            _ => Err(err(span, "internal error: Boolean operand expected")),
        }
    }
    fn n(&mut self, span: Span) -> Result<(NVal, Vec<Lit>), Diagnostic> {
        match self.0.next() {
            Some(Val::N(v, c)) => Ok((v, c)),
            _ => Err(err(span, "internal error: numeric operand expected")),
        }
    }
}

fn as_lin(v: NVal) -> Lin {
    match v {
        NVal::Lin(l) => l,
        NVal::Var(x) => Lin::term(Term::V(x)),
        // Int/Real values are never machine or fp constants (checker invariant)
        NVal::MConst(q) => Lin::constant(Coef::from_rational(q)),
        NVal::Fp(_) => Lin::default(),
    }
}

impl Lw<'_> {
    /// A Boolean used as a number.
    fn b2n(&mut self, b: BVal, span: Span) -> Lin {
        match b {
            BVal::Const(c) => Lin::constant(Coef::Small(c as i64)),
            b => {
                let l = self.lit(b, span);
                let neg = l.is_negated();
                let t = Lin::term(Term::B(Lit(l.0 & !1)));
                if neg {
                    // b2n(¬v) = 1 - b2n(v)
                    Lin::constant(Coef::one()).add(t, true)
                } else {
                    t
                }
            }
        }
    }

    /// `b ∧ conds`
    fn with_conds(&mut self, b: BVal, conds: Vec<Lit>, span: Span) -> BVal {
        if conds.is_empty() {
            return b;
        }
        self.b_and(b, BVal::And(conds), span)
    }

    /// Result of a numeric operation producing variable `out`.
    fn num_result(&self, out: Var, conds: Vec<Lit>) -> Val {
        Val::N(self.nval_of_var(out), conds)
    }

    fn node(&mut self, id: NodeId, mut args: Args<'_>) -> Result<Val, Diagnostic> {
        let ck = self.ck;
        let n = ck.ir.node(id);
        let (span, sort) = (n.span, n.sort);
        if let Err(stop) = solver::budget::check() {
            return Err(err(span, stop.text()));
        }
        let ir = &ck.ir;
        Ok(match &n.kind {
            NodeKind::Bool(b) => Val::B(BVal::Const(*b)),
            NodeKind::Num(q) => match sort {
                Sort::MachineInt(_) => Val::N(NVal::MConst(q.clone()), vec![]),
                _ => Val::N(NVal::Lin(Lin::constant(coef(q))), vec![]),
            },
            NodeKind::Fp(bits) => Val::N(NVal::Fp(*bits), vec![]),
            NodeKind::Var { var, primed } => {
                let map = if *primed { &self.next } else { &self.cur };
                let Some(&x) = map.get(*var as usize) else {
                    return Err(err(span, "internal error: unknown variable"));
                };
                if sort == Sort::Bool {
                    Val::B(BVal::Lit(self.f.bool_lit(x)))
                } else {
                    Val::N(self.nval_of_var(x), vec![])
                }
            }
            NodeKind::BoolToNum(_) => {
                let b = args.b(span)?;
                Val::N(NVal::Lin(self.b2n(b, span)), vec![])
            }
            NodeKind::Not(_) => Val::B(Self::b_not(args.b(span)?)),
            NodeKind::Bool2(op, _, _) => {
                let x = args.b(span)?;
                let y = args.b(span)?;
                Val::B(match op {
                    BoolOp::And => self.b_and(x, y, span),
                    BoolOp::Or => self.b_or(x, y, span),
                    BoolOp::Impl => self.b_or(Self::b_not(x), y, span),
                    BoolOp::Xor => self.b_xor(x, y, span),
                    BoolOp::Iff => {
                        let r = self.b_xor(x, y, span);
                        Self::b_not(r)
                    }
                })
            }
            NodeKind::Ite(..) => {
                let cv = args.b(span)?;
                if sort == Sort::Bool {
                    let x = args.b(span)?;
                    let y = args.b(span)?;
                    Val::B(self.b_ite(cv, x, y, span))
                } else {
                    let (x, cx) = args.n(span)?;
                    let (y, cy) = args.n(span)?;
                    self.num_ite(cv, (x, cx), (y, cy), sort, span)
                }
            }
            NodeKind::Rel(op, a, _) => {
                let sa = ir.node(*a).sort;
                if sa == Sort::Bool {
                    let x = args.b(span)?;
                    let y = args.b(span)?;
                    let r = self.b_xor(x, y, span);
                    return Ok(Val::B(if *op == RelOp::Eq { Self::b_not(r) } else { r }));
                }
                let (x, mut cx) = args.n(span)?;
                let (y, cy) = args.n(span)?;
                cx.extend(cy);
                let r = match sa {
                    Sort::Int | Sort::Real => {
                        let d = as_lin(x).add(as_lin(y), true);
                        if too_big(&d) {
                            return Err(too_large(span));
                        }
                        self.rel_lin(*op, d, span)
                    }
                    Sort::Fp(_) => {
                        let vx = self.var_of(x, sa, span);
                        let vy = self.var_of(y, sa, span);
                        self.fp_rel(*op, vx, vy, span)
                    }
                    Sort::MachineInt(_) => self.machine_rel(*op, x, y, sa, span),
                    Sort::Bool => BVal::Const(false),
                };
                Val::B(self.with_conds(r, cx, span))
            }
            NodeKind::Add(..) | NodeKind::Sub(..) => {
                let (x, mut cx) = args.n(span)?;
                let (y, cy) = args.n(span)?;
                cx.extend(cy);
                let neg = matches!(n.kind, NodeKind::Sub(..));
                Val::N(NVal::Lin(as_lin(x).add(as_lin(y), neg)), cx)
            }
            NodeKind::Neg(_) => {
                let (x, cx) = args.n(span)?;
                Val::N(NVal::Lin(as_lin(x).scale(&Coef::Small(-1))), cx)
            }
            NodeKind::Mul(a, b) => {
                let (x, mut cx) = args.n(span)?;
                let (y, cy) = args.n(span)?;
                cx.extend(cy);
                let (mut lx, mut ly) = (as_lin(x), as_lin(y));
                if lx.is_const() || ly.is_const() {
                    let (c, l) = if lx.is_const() {
                        (lx.k.clone(), ly)
                    } else {
                        (ly.k.clone(), lx)
                    };
                    let r = l.scale(&c);
                    if too_big(&r) {
                        return Err(too_large(span));
                    }
                    return Ok(Val::N(NVal::Lin(r), cx));
                }
                let sx = ir.node(*a).sort;
                let sy = ir.node(*b).sort;
                let vx = self.var_of(NVal::Lin(lx), sx, span);
                let vy = self.var_of(NVal::Lin(ly), sy, span);
                let out = if vx == vy {
                    self.def(Op::Pow(2), vec![vx], sort, span)
                } else {
                    self.def(Op::Mul, vec![vx.min(vy), vx.max(vy)], sort, span)
                };
                self.num_result(out, cx)
            }
            NodeKind::Div(a, b) => {
                let (x, mut cx) = args.n(span)?;
                let (y, cy) = args.n(span)?;
                cx.extend(cy);
                let (lx, mut ly) = (as_lin(x), as_lin(y));
                let inv = if ly.is_const() {
                    super::lin::recip(&ly.k)
                } else {
                    None
                };
                if let Some(inv) = inv {
                    let r = lx.scale(&inv);
                    if too_big(&r) {
                        return Err(too_large(span));
                    }
                    return Ok(Val::N(NVal::Lin(r), cx));
                }
                let sx = ir.node(*a).sort;
                let sy = ir.node(*b).sort;
                let vx = self.var_of(NVal::Lin(lx), sx, span);
                let vy = self.var_of(NVal::Lin(ly), sy, span);
                let out = self.def(Op::Div, vec![vx, vy], Sort::Real, span);
                self.num_result(out, cx)
            }
            NodeKind::Pow(a, k) => {
                let (x, cx) = args.n(span)?;
                let mut lx = as_lin(x);
                if lx.is_const() {
                    if let Ok(v) = constfold::pow(&lx.k.to_rational(), &BigInt::from(*k)) {
                        return Ok(Val::N(NVal::Lin(Lin::constant(Coef::from_rational(v))), cx));
                    }
                }
                let sx = ir.node(*a).sort;
                let vx = self.var_of(NVal::Lin(lx), sx, span);
                let out = match k {
                    0 => return Ok(Val::N(NVal::Lin(Lin::constant(Coef::one())), cx)),
                    1 => vx,
                    _ => self.def(Op::Pow(*k), vec![vx], sort, span),
                };
                self.num_result(out, cx)
            }
            NodeKind::Op(op, op_args) => {
                let mut vars = Vec::with_capacity(op_args.len());
                let mut conds = Vec::new();
                for &a in op_args {
                    let sa = ir.node(a).sort;
                    let (x, c) = args.n(span)?;
                    conds.extend(c);
                    vars.push(self.var_of(x, sa, span));
                }
                if matches!(op, Op::Min | Op::Max | Op::FSame) && vars.len() == 2 {
                    vars.sort_unstable();
                }
                let src = match (op, sort, vars.as_slice()) {
                    (Op::Convert, Sort::MachineInt(_), &[x]) if self.sort(x) == Sort::Int => {
                        Some(x)
                    }
                    _ => None,
                };
                let out = self.def(op.clone(), vars, sort, span);
                if let Some(x) = src {
                    self.int_source.insert(out, x);
                }
                if sort == Sort::Bool {
                    let l = self.f.bool_lit(out);
                    Val::B(self.with_conds(BVal::Lit(l), conds, span))
                } else {
                    self.num_result(out, conds)
                }
            }
            NodeKind::FitConvert(a) => {
                let (x, mut conds) = args.n(span)?;
                let t = match sort {
                    Sort::MachineInt(t) => t,
                    _ => {
                        return Err(err(
                            span,
                            "internal error: conversion to a non-machine sort",
                        ))
                    }
                };
                let l = as_lin(x);
                self.fit_conditions(&l, t, span, &mut conds);
                let sa = ir.node(*a).sort;
                let v = self.var_of(NVal::Lin(l), sa, span);
                let out = self.def(Op::Convert, vec![v], sort, span);
                if self.sort(v) == Sort::Int {
                    self.int_source.insert(out, v);
                }
                self.num_result(out, conds)
            }
        })
    }

    /// `MIN <= l <= MAX` for machine type `t`, as literals appended to `conds`.
    fn fit_conditions(&mut self, l: &Lin, t: IntType, span: Span, conds: &mut Vec<Lit>) {
        let min = Rational::from_integer(t.min_value());
        let max = Rational::from_integer(t.max_value());
        for (op, bound) in [(RelOp::Ge, min), (RelOp::Le, max)] {
            let d = l
                .clone()
                .add(Lin::constant(Coef::from_rational(bound)), true);
            match self.rel_lin(op, d, span) {
                BVal::Const(true) => {}
                b => {
                    let x = self.lit(b, span);
                    conds.push(x);
                }
            }
        }
    }

    /// The exact Int value of machine-integer variable `x`: the Int it was converted from,
    /// if it is such a conversion (where it does not fit, the enclosing atom is false anyway),
    /// else a `Convert` into Int.
    fn int_value(&mut self, x: Var, span: Span) -> Var {
        if let Some(&i) = self.int_source.get(&x) {
            return i;
        }
        self.def(Op::Convert, vec![x], Sort::Int, span)
    }

    fn fp_rel(&mut self, op: RelOp, x: Var, y: Var, span: Span) -> BVal {
        let (o, a, b, negate) = match op {
            RelOp::Lt => (Op::FLt, x, y, false),
            RelOp::Gt => (Op::FLt, y, x, false),
            RelOp::Le => (Op::FLe, x, y, false),
            RelOp::Ge => (Op::FLe, y, x, false),
            RelOp::Eq => (Op::FSame, x.min(y), x.max(y), false),
            RelOp::Ne => (Op::FSame, x.min(y), x.max(y), true),
        };
        let out = self.def(o, vec![a, b], Sort::Bool, span);
        let l = self.f.bool_lit(out);
        BVal::Lit(if negate { !l } else { l })
    }

    fn machine_rel(&mut self, op: RelOp, x: NVal, y: NVal, sort: Sort, span: Span) -> BVal {
        match (x, y) {
            (NVal::MConst(a), NVal::MConst(b)) => BVal::Const(op.holds(a.cmp(&b))),
            (x, NVal::MConst(b)) => {
                let vx = self.var_of(x, sort, span);
                self.bound(Term::V(vx), op, b, span)
            }
            (NVal::MConst(a), y) => {
                let vy = self.var_of(y, sort, span);
                self.bound(Term::V(vy), op.swap(), a, span)
            }
            (x, y) => {
                let vx = self.var_of(x, sort, span);
                let vy = self.var_of(y, sort, span);
                if vx == vy {
                    return BVal::Const(op.holds(std::cmp::Ordering::Equal));
                }
                let ix = self.int_value(vx, span);
                let iy = self.int_value(vy, span);
                let d = Lin::term(Term::V(ix)).add(Lin::term(Term::V(iy)), true);
                self.rel_lin(op, d, span)
            }
        }
    }

    fn num_ite(
        &mut self,
        c: BVal,
        (x, cx): (NVal, Vec<Lit>),
        (y, cy): (NVal, Vec<Lit>),
        sort: Sort,
        span: Span,
    ) -> Val {
        let lc = match c {
            BVal::Const(true) => return Val::N(x, cx),
            BVal::Const(false) => return Val::N(y, cy),
            c => self.lit(c, span),
        };
        // a branch's fit conditions only matter when the branch is taken
        let mut conds = Vec::with_capacity(cx.len() + cy.len());
        for l in cx {
            let b = BVal::Or(vec![!lc, l]);
            conds.push(self.lit(b, span));
        }
        for l in cy {
            let b = BVal::Or(vec![lc, l]);
            conds.push(self.lit(b, span));
        }
        let (cv, neg) = self.var_of_lit(lc, span);
        let vx = self.var_of_sort(x, sort, span);
        let vy = self.var_of_sort(y, sort, span);
        let (vx, vy) = if neg { (vy, vx) } else { (vx, vy) };
        if vx == vy {
            return self.num_result(vx, conds);
        }
        let out = self.def(Op::Ite, vec![cv, vx, vy], sort, span);
        self.num_result(out, conds)
    }
}
