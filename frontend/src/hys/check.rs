//! The `.hys` checker: names, declarations, ranges, `define`s, primes, sections and the type
//! rules of language doc Parts A and B. Its output, [`Checked`], holds the declared variables
//! and the constraints in a typed, resolved form ([`super::ir`]) that [`super::lower`] turns
//! into solver formulas.
//!
//! Decisions where the language doc is silent (also listed in the project docs):
//! - Constant expressions (numbers, `define`s, `+ - * / ^`, `abs`, `min`, `max`, `pow`,
//!   unary minus) are folded exactly. Used with an Int/Real operand they keep their exact
//!   value. Used with an fp or machine-integer operand they adapt to that type *as a whole*:
//!   each number (or define, or `^`/function sub-expression) in them becomes a constant of the
//!   type, and their `+ - * /` and unary minus are the type's operators, evaluated at check
//!   time (IEEE round-to-nearest-even; two's-complement wrap-around with C truncating
//!   division). So `fp32 x; x + (0.1 + 0.2)` adds fl32(fl32(0.1) + fl32(0.2)), as C does with
//!   `0.1f + 0.2f`, and `-0.0` is negative zero.
//! - `abs`, `min`, `max`, `sqrt` and the other Part A functions are errors on fp operands
//!   (the message names `fabs`, `fmin`, `fmax`, `fsqrt`) and on machine integers.
//! - `^` is an error on fp and machine integers. `to_int(e)` accepts a machine integer
//!   (exact), an `int` (identity) or an fp value (C truncation into the unbounded integers);
//!   `to_real(e)` accepts fp (exact value), int/real (identity) and machine integers (exact).
//! - Booleans are accepted as 0/1 in Int/Real arithmetic, relations, `abs`/`min`/`max`/`ite`
//!   and Part A functions, never in fp or machine-integer operations. Using a Boolean
//!   *variable* as a number is silent (`mode = 1`, `b1 + b2 + b3 = 1` are common); using any
//!   other Boolean expression (a comparison, `true`, ...) as a number gives a warning.
//! - A `/` whose divisor is the constant 0 is an error; one whose divisor's enclosure (from
//!   the declared ranges) contains 0 gives a warning. Same for `log*` (argument ≤ 0) and even
//!   roots (argument < 0): entirely outside the domain → error, partly → warning. When the
//!   enclosure is unknown no warning is given (enclosures: exact rational interval
//!   arithmetic over the declared ranges, `+ - *`, powers, `/`, `abs`, `min`, `max`, `ite`,
//!   `sin`/`cos` ∈ [-1, 1], `exp*` > 0, even roots ≥ 0; anything else is unknown).
//!   Enclosures are only computed for Int/Real expressions; a machine-integer division by
//!   anything but the constant 0 is silent.
//! - A constant division by zero is an error in every context (also fp: write
//!   `to_fp64(1) / 0` for an infinity). A finite constant that overflows an fp format gives
//!   a warning (it becomes an infinity). In a machine-integer context a constant that is not
//!   an integer or does not fit the type is an error (`-128` is one constant, so it fits
//!   `int8`); wrap-around in constant arithmetic gives a warning.
//! - fp ranges are normalised to the nearest floats inside the range; a range that contains
//!   no float of the type is an error. Machine-integer variables without a range get their
//!   type's bounds as domain. A declared variable's span is the span of its name.
//! - Where both operands are constants nothing decides an fp or machine type: `fadd(1, 2,
//!   RNE)`, `bitand(1, 2)` are errors; `ite(c, 1, 2)` is an Int (Real if a branch is not an
//!   integer) and needs `to_fp32(...)` to be compared with an fp value.
//! - `x^0` is 1, `x^1` and `nrt(x, 1)` are `x`; comparisons of two constants are folded.
//!   `to_intN(c)` of a constant must fit the type (error otherwise); `to_fp32(c, RM)` of a
//!   constant is rounded at check time in mode `RM`.
//! - Error recovery: an erroneous sub-expression or define does not cause follow-up errors;
//!   independent errors are all reported, in source order.

use super::ast::{
    BinOp, Decl, Expr, ExprKind, Func, HysFile, SectionKind, TypeKind, TypeSpec, UnOp,
};
use super::constfold::{self, FoldError};
use super::fpconst::{self, FpBin};
use super::interval::Iv;
use super::ir::{is_arith, BoolOp, Constraint, Ir, NodeId, NodeKind, RelOp};
use super::walk::{post_order, post_order_cut};
use crate::diag::{Diagnostic, Span};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};
use solver::formula::{Bound, Domain, Op, Sort};
use solver::num::{format_rational, FpFormat, IntType, Rational, RoundingMode};
use std::collections::{HashMap, HashSet};

/// A declared variable (not a `define`).
#[derive(Clone, PartialEq, Debug)]
pub struct DeclaredVar {
    pub name: String,
    pub kind: TypeKind,
    pub sort: Sort,
    /// The declared range, normalised: integer sorts have closed integer bounds; fp ranges
    /// have closed bounds that are floats of the format (finite values only); an fp variable
    /// without a range has the unbounded domain (every value, NaN and infinities included);
    /// machine integers without a range get their type's bounds; Bool is unbounded.
    pub domain: Domain,
    pub is_static: bool,
    /// span of the variable's name in its declaration
    pub span: Span,
}

/// The constraints of one section, in source order.
#[derive(Clone, Debug)]
pub struct CheckedSection {
    pub kind: SectionKind,
    pub span: Span,
    pub constraints: Vec<Constraint>,
}

/// A file that passed the checker: declarations resolved, defines folded, constraints typed.
#[derive(Clone, Debug)]
pub struct Checked {
    declared: Vec<DeclaredVar>,
    defines: Vec<(String, Rational)>,
    pub(crate) ir: Ir,
    sections: Vec<CheckedSection>,
    transition: bool,
}

impl Checked {
    /// A checked problem assembled by another front end (SMT-LIB, VMT) directly in the IR:
    /// constraints must satisfy the invariants the checker guarantees (typed nodes, operands
    /// before their nodes, each constraint's nodes contiguous).
    pub(crate) fn from_parts(
        declared: Vec<DeclaredVar>,
        ir: Ir,
        sections: Vec<CheckedSection>,
        transition: bool,
    ) -> Checked {
        Checked {
            declared,
            defines: Vec::new(),
            ir,
            sections,
            transition,
        }
    }
    pub fn is_transition_system(&self) -> bool {
        self.transition
    }
    pub fn declared(&self) -> &[DeclaredVar] {
        &self.declared
    }
    /// The `define`s with their exact values, in declaration order.
    pub fn defines(&self) -> &[(String, Rational)] {
        &self.defines
    }
    /// Top-level constraints over all sections.
    pub fn constraint_count(&self) -> usize {
        self.sections.iter().map(|s| s.constraints.len()).sum()
    }
    /// The sections: `[EXPR]` or `[INIT, TRANS, TARGET]`.
    pub fn sections(&self) -> &[CheckedSection] {
        &self.sections
    }
    /// The typed constraints.
    pub fn ir(&self) -> &Ir {
        &self.ir
    }
}

/// Checks `file`. Returns all diagnostics (errors and warnings) in source order, and the
/// checked file when there is no error.
pub fn check(file: &HysFile) -> (Option<Checked>, Vec<Diagnostic>) {
    let mut ck = Checker::new(file);
    ck.declarations(file);
    let transition = matches!(file.body, super::ast::Body::Transition { .. });
    let mut sections = Vec::new();
    for s in file.sections() {
        ck.section = s.kind;
        let mut constraints = Vec::new();
        for c in &s.constraints {
            if let Err(stop) = solver::budget::check_now() {
                // the caller asks `solver::budget::stopped()` for the typed reason
                return (None, vec![Diagnostic::error(c.span, stop.text())]);
            }
            if let Some(k) = ck.constraint(c) {
                constraints.push(k);
            }
        }
        if let Err(stop) = solver::budget::check_now() {
            return (None, vec![Diagnostic::error(s.span, stop.text())]);
        }
        sections.push(CheckedSection {
            kind: s.kind,
            span: s.span,
            constraints,
        });
    }
    let mut diags = std::mem::take(&mut ck.diags);
    diags.sort_by_key(|d| (d.span.start, d.span.end));
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    let checked = Checked {
        declared: ck.vars,
        defines: ck.defines,
        ir: ck.ir,
        sections,
        transition,
    };
    (Some(checked), diags)
}

#[derive(Clone, Debug)]
enum Symbol {
    Var(u32),
    /// `None`: its value had an error (already reported); uses are silently erroneous
    Define(Option<Rational>),
}

/// Result of checking a sub-expression.
#[derive(Clone, Debug)]
enum Typed {
    /// a typed node, with an enclosure of its value (Int/Real/Bool-as-number only)
    Node(NodeId),
    /// a numeric constant expression, folded exactly (`negzero`: it is `-0` written with
    /// unary minus, which matters in fp contexts)
    Poly { value: Rational, negzero: bool },
    /// a rounding-mode keyword
    Rm(RoundingMode, Span),
    /// an error was reported for it
    Err,
}

/// A value operand (rounding modes already rejected).
#[derive(Clone, Debug)]
enum Opnd {
    Node(NodeId),
    Poly(Rational, bool),
    Err,
}

/// Two operands brought to one kind.
enum Unified {
    /// both are constants
    Poly(Rational, Rational),
    /// Int/Real operands (Booleans converted), with enclosures
    Arith(NodeId, NodeId),
    Fp(FpFormat, NodeId, NodeId),
    Machine(IntType, NodeId, NodeId),
}

struct Checker {
    diags: Vec<Diagnostic>,
    symbols: HashMap<String, Symbol>,
    /// every name declared anywhere in DECL (for "used before its definition")
    all_defines: HashSet<String>,
    all_vars: HashSet<String>,
    vars: Vec<DeclaredVar>,
    defines: Vec<(String, Rational)>,
    ir: Ir,
    section: SectionKind,
    /// checking a define or a range bound: variables are not allowed
    const_mode: bool,
}

fn sort_of_kind(k: TypeKind) -> Sort {
    match k {
        TypeKind::Boole => Sort::Bool,
        TypeKind::Int => Sort::Int,
        TypeKind::Real => Sort::Real,
        TypeKind::Fp32 => Sort::Fp(FpFormat::F32),
        TypeKind::Fp64 => Sort::Fp(FpFormat::F64),
        TypeKind::Machine(t) => Sort::MachineInt(t),
    }
}

fn rat(n: i64) -> Rational {
    Rational::from_integer(BigInt::from(n))
}

fn q_str(q: &Rational) -> String {
    format_rational(q)
}

fn int_type_range(t: IntType) -> String {
    format!("{}..{}", t.min_value(), t.max_value())
}

/// What the user would call a sort in a message.
fn sort_name(s: Sort) -> String {
    match s {
        Sort::Real => "real".into(),
        s => s.name(),
    }
}

impl Checker {
    fn new(file: &HysFile) -> Checker {
        let mut all_defines = HashSet::new();
        let mut all_vars = HashSet::new();
        for d in &file.decls {
            match d {
                Decl::Var { names, .. } => {
                    for n in names {
                        all_vars.insert(n.name.clone());
                    }
                }
                Decl::Define { name, .. } => {
                    all_defines.insert(name.name.clone());
                }
            }
        }
        Checker {
            diags: Vec::new(),
            symbols: HashMap::new(),
            all_defines,
            all_vars,
            vars: Vec::new(),
            defines: Vec::new(),
            ir: Ir::default(),
            section: SectionKind::Expr,
            const_mode: false,
        }
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn warn(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::warning(span, msg));
    }

    fn node_sort(&self, id: NodeId) -> Sort {
        self.ir.node(id).sort
    }

    fn push(&mut self, kind: NodeKind, sort: Sort, span: Span) -> NodeId {
        self.ir.push(kind, sort, span)
    }

    // ------------------------------------------------------------------ declarations

    fn declare_name(&mut self, name: &super::ast::Ident) -> bool {
        if super::ast::is_reserved(&name.name) {
            self.error(
                name.span,
                format!("`{}` is a reserved word and cannot be declared", name.name),
            );
            return false;
        }
        if self.symbols.contains_key(&name.name) {
            self.error(name.span, format!("`{}` is already declared", name.name));
            return false;
        }
        true
    }

    fn declarations(&mut self, file: &HysFile) {
        for d in &file.decls {
            match d {
                Decl::Define { name, value, .. } => {
                    let v = self.constant(value, "a define");
                    if self.declare_name(name) {
                        // an erroneous value still declares the name (no cascades)
                        self.symbols
                            .insert(name.name.clone(), Symbol::Define(v.clone()));
                        if let Some(v) = v {
                            self.defines.push((name.name.clone(), v));
                        }
                    }
                }
                Decl::Var {
                    is_static,
                    ty,
                    names,
                    ..
                } => {
                    let domain = self.domain(ty);
                    for n in names {
                        if !self.declare_name(n) {
                            continue;
                        }
                        let id = self.vars.len() as u32;
                        self.symbols.insert(n.name.clone(), Symbol::Var(id));
                        self.vars.push(DeclaredVar {
                            name: n.name.clone(),
                            kind: ty.kind,
                            sort: sort_of_kind(ty.kind),
                            domain: domain.clone(),
                            is_static: *is_static,
                            span: n.span,
                        });
                    }
                }
            }
        }
    }

    /// Folds a constant expression (define value, range bound).
    fn constant(&mut self, e: &Expr, what: &str) -> Option<Rational> {
        self.const_mode = true;
        let t = self.expr(e);
        self.const_mode = false;
        match t {
            Typed::Poly { value, .. } => Some(value),
            Typed::Err => None,
            Typed::Node(..) | Typed::Rm(..) => {
                self.error(e.span, format!("{what} must be a numeric constant"));
                None
            }
        }
    }

    /// The normalised domain of a declaration's type (errors reported; a fallback on error).
    fn domain(&mut self, ty: &TypeSpec) -> Domain {
        let kind = ty.kind;
        let Some(r) = &ty.range else {
            return match kind {
                TypeKind::Boole => Domain::unbounded(),
                TypeKind::Int | TypeKind::Real => {
                    let (word, ex) = if kind == TypeKind::Int {
                        ("int", "int [0, 10] n;")
                    } else {
                        ("float", "float [-1, 1] x;")
                    };
                    self.error(
                        ty.span,
                        format!("`{word}` variables need a range, e.g. `{ex}`"),
                    );
                    Domain::unbounded()
                }
                TypeKind::Fp32 | TypeKind::Fp64 => Domain::unbounded(),
                TypeKind::Machine(t) => Domain::closed(
                    Rational::from_integer(t.min_value()),
                    Rational::from_integer(t.max_value()),
                ),
            };
        };
        if kind == TypeKind::Boole {
            self.error(r.span, "a `boole` variable has no range");
            return Domain::unbounded();
        }
        let lo = self.constant(&r.lo, "a range bound");
        let hi = self.constant(&r.hi, "a range bound");
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Domain::unbounded();
        };
        let empty = |this: &mut Checker| {
            this.error(r.span, "the range is empty");
            Domain::unbounded()
        };
        match kind {
            TypeKind::Boole => Domain::unbounded(),
            TypeKind::Int | TypeKind::Machine(_) => {
                let mut ok = true;
                for (v, e, which) in [(&lo, &r.lo, "lower"), (&hi, &r.hi, "upper")] {
                    if !v.is_integer() {
                        let tn = match kind {
                            TypeKind::Machine(t) => t.name(),
                            _ => "int".into(),
                        };
                        self.error(
                            e.span,
                            format!(
                                "the {which} bound {} of an `{tn}` range is not an integer",
                                q_str(v)
                            ),
                        );
                        ok = false;
                    } else if let TypeKind::Machine(t) = kind {
                        if !t.contains(&v.to_integer()) {
                            self.error(
                                e.span,
                                format!(
                                    "the {which} bound {} is outside the type `{}` ({})",
                                    q_str(v),
                                    t.name(),
                                    int_type_range(t)
                                ),
                            );
                            ok = false;
                        }
                    }
                }
                if !ok {
                    return Domain::unbounded();
                }
                let lo = if r.lo_open { lo + rat(1) } else { lo };
                let hi = if r.hi_open { hi - rat(1) } else { hi };
                if lo > hi {
                    return empty(self);
                }
                Domain::closed(lo, hi)
            }
            TypeKind::Real => {
                if lo > hi || (lo == hi && (r.lo_open || r.hi_open)) {
                    return empty(self);
                }
                Domain {
                    lo: Some(Bound {
                        value: lo,
                        strict: r.lo_open,
                    }),
                    hi: Some(Bound {
                        value: hi,
                        strict: r.hi_open,
                    }),
                }
            }
            TypeKind::Fp32 | TypeKind::Fp64 => {
                let f = if kind == TypeKind::Fp32 {
                    FpFormat::F32
                } else {
                    FpFormat::F64
                };
                let flo = fpconst::float_at_or_above(f, &lo, r.lo_open);
                let fhi = fpconst::float_at_or_below(f, &hi, r.hi_open);
                match (flo, fhi) {
                    (Some(a), Some(b)) if a <= b => Domain::closed(a, b),
                    _ => {
                        self.error(
                            r.span,
                            format!("the range contains no finite `{}` value", f.name()),
                        );
                        Domain::unbounded()
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ constraints

    fn constraint(&mut self, c: &Expr) -> Option<Constraint> {
        let first = self.ir.len() as NodeId;
        let t = self.expr(c);
        let root = match t {
            Typed::Node(id) if self.node_sort(id) == Sort::Bool => id,
            Typed::Err => return None,
            Typed::Node(id) => {
                let s = self.node_sort(id);
                self.error(
                    c.span,
                    format!(
                        "a constraint must be Boolean, but this is a {} expression",
                        sort_name(s)
                    ),
                );
                return None;
            }
            Typed::Poly { .. } => {
                self.error(c.span, "a constraint must be Boolean, but this is a number");
                return None;
            }
            Typed::Rm(..) => {
                self.error(
                    c.span,
                    "a constraint must be Boolean, but this is a rounding mode",
                );
                return None;
            }
        };
        Some(Constraint {
            first,
            end: self.ir.len() as NodeId,
            root,
            span: c.span,
        })
    }

    fn expr(&mut self, e: &Expr) -> Typed {
        post_order(e, |node, args| self.visit(node, args))
    }

    fn visit(&mut self, e: &Expr, args: Vec<Typed>) -> Typed {
        if solver::budget::check().is_err() {
            // `check` reports the stop after the constraint
            return Typed::Err;
        }
        let mut args = args.into_iter();
        let mut next = || args.next().unwrap_or(Typed::Err);
        match &e.kind {
            ExprKind::Num { value, .. } => Typed::Poly {
                value: value.clone(),
                negzero: false,
            },
            ExprKind::Bool(b) => {
                let id = self.push(NodeKind::Bool(*b), Sort::Bool, e.span);
                Typed::Node(id)
            }
            ExprKind::Name { name, primed } => self.name(e, name, *primed),
            ExprKind::RoundingMode(m) => Typed::Rm(*m, e.span),
            ExprKind::Paren(_, _) => next(),
            ExprKind::Unary(op, inner) => {
                let a = next();
                self.unary(e, *op, inner, a)
            }
            ExprKind::Binary(op, l, r) => {
                let a = next();
                let b = next();
                self.binary(e, *op, l, r, a, b)
            }
            ExprKind::Call {
                func,
                args: ast_args,
                parenthesized,
            } => {
                let vals: Vec<Typed> = (0..ast_args.len()).map(|_| next()).collect();
                if !parenthesized {
                    self.warn(
                        e.span,
                        format!(
                            "function call without parentheses: read as `{}(...)` applied to the operand that follows; write the parentheses",
                            func.name()
                        ),
                    );
                }
                self.call(e, *func, ast_args, vals)
            }
        }
    }

    fn name(&mut self, e: &Expr, name: &str, primed: bool) -> Typed {
        match self.symbols.get(name).cloned() {
            Some(Symbol::Define(None)) => Typed::Err,
            Some(Symbol::Define(Some(v))) => {
                if primed {
                    self.error(
                        e.span,
                        format!("`{name}` is a define (a constant) and cannot be primed"),
                    );
                    return Typed::Err;
                }
                Typed::Poly {
                    value: v,
                    negzero: false,
                }
            }
            Some(Symbol::Var(i)) => {
                if self.const_mode {
                    self.error(
                        e.span,
                        format!("`{name}` is a variable; a constant expression may only use numbers and earlier defines"),
                    );
                    return Typed::Err;
                }
                let v = &self.vars[i as usize];
                let (sort, is_static) = (v.sort, v.is_static);
                if primed {
                    if self.section != SectionKind::Trans {
                        self.error(
                            e.span,
                            format!(
                                "primed variable `{name}'` in {}: primes are only allowed in TRANS",
                                self.section.keyword()
                            ),
                        );
                        return Typed::Err;
                    }
                    if is_static {
                        self.error(
                            e.span,
                            format!(
                                "`{name}` is static (its value never changes) and cannot be primed"
                            ),
                        );
                        return Typed::Err;
                    }
                }
                let id = self.push(NodeKind::Var { var: i, primed }, sort, e.span);
                Typed::Node(id)
            }
            None => {
                if self.all_defines.contains(name) {
                    self.error(e.span, format!("`{name}` is used before its definition"));
                } else if self.const_mode && self.all_vars.contains(name) {
                    self.error(
                        e.span,
                        format!("`{name}` is a variable; a constant expression may only use numbers and earlier defines"),
                    );
                } else {
                    self.error(e.span, format!("undeclared name `{name}`"));
                }
                Typed::Err
            }
        }
    }

    /// A value operand; a rounding mode here is an error.
    fn operand(&mut self, t: Typed) -> Opnd {
        match t {
            Typed::Node(id) => Opnd::Node(id),
            Typed::Poly { value, negzero } => Opnd::Poly(value, negzero),
            Typed::Err => Opnd::Err,
            Typed::Rm(m, span) => {
                self.error(
                    span,
                    format!(
                        "rounding mode `{}` is only allowed as the rounding argument of an fp function (fadd, fsub, fmul, fdiv, fsqrt, ffma, to_fp32, to_fp64)",
                        m.name()
                    ),
                );
                Opnd::Err
            }
        }
    }

    /// A Boolean operand.
    fn boolean(&mut self, t: Typed, e: &Expr) -> Option<NodeId> {
        match self.operand(t) {
            Opnd::Node(id) if self.node_sort(id) == Sort::Bool => Some(id),
            Opnd::Node(id) => {
                let s = self.node_sort(id);
                self.error(
                    e.span,
                    format!("expected a Boolean, found a {} expression", sort_name(s)),
                );
                None
            }
            Opnd::Poly(..) => {
                self.error(e.span, "expected a Boolean, found a number");
                None
            }
            Opnd::Err => None,
        }
    }

    fn fold(&mut self, span: Span, r: Result<Rational, FoldError>) -> Typed {
        match r {
            Ok(value) => Typed::Poly {
                value,
                negzero: false,
            },
            Err(err) => {
                self.error(span, err.message());
                Typed::Err
            }
        }
    }

    /// A Boolean node used as a number: `BoolToNum`, with a warning unless it is a variable.
    fn bool_to_num(&mut self, id: NodeId, e: &Expr, warn: bool) -> NodeId {
        let is_var = matches!(e.unparen().kind, ExprKind::Name { .. });
        if warn && !is_var {
            self.warn(
                e.span,
                "Boolean expression used as a number (1 if true, 0 if false)",
            );
        }
        let span = self.ir.node(id).span;
        self.push(NodeKind::BoolToNum(id), Sort::Int, span)
    }

    /// A constant as an Int/Real node.
    fn num_node(&mut self, v: Rational, span: Span) -> NodeId {
        let sort = if v.is_integer() {
            Sort::Int
        } else {
            Sort::Real
        };
        self.push(NodeKind::Num(v), sort, span)
    }

    /// An Int/Real operand (Booleans converted, constants materialised).
    fn arith_operand(&mut self, o: Opnd, e: &Expr, what: &str, warn_bool: bool) -> Option<NodeId> {
        match o {
            Opnd::Err => None,
            Opnd::Poly(v, _) => Some(self.num_node(v, e.span)),
            Opnd::Node(id) => match self.node_sort(id) {
                Sort::Int | Sort::Real => Some(id),
                Sort::Bool => Some(self.bool_to_num(id, e, warn_bool)),
                s => {
                    self.error(
                        e.span,
                        format!(
                            "{what} needs an int or real operand, found {}",
                            sort_name(s)
                        ),
                    );
                    None
                }
            },
        }
    }

    /// Brings two operands of `what` (an operator or function name) to one kind.
    /// `chained_left`: the left operand is an unparenthesised relation (already warned).
    fn unify(
        &mut self,
        span: Span,
        what: &str,
        a: (Opnd, &Expr),
        b: (Opnd, &Expr),
        chained_left: bool,
    ) -> Option<Unified> {
        let (oa, ea) = a;
        let (ob, eb) = b;
        if matches!(oa, Opnd::Err) || matches!(ob, Opnd::Err) {
            return None;
        }
        let sa = match &oa {
            Opnd::Node(id) => Some(self.node_sort(*id)),
            _ => None,
        };
        let sb = match &ob {
            Opnd::Node(id) => Some(self.node_sort(*id)),
            _ => None,
        };
        // the fp or machine type that decides, if any
        let typed = match (sa, sb) {
            (Some(s @ (Sort::Fp(_) | Sort::MachineInt(_))), _) => Some(s),
            (_, Some(s @ (Sort::Fp(_) | Sort::MachineInt(_)))) => Some(s),
            _ => None,
        };
        match typed {
            None => {
                if let (Opnd::Poly(va, _), Opnd::Poly(vb, _)) = (&oa, &ob) {
                    return Some(Unified::Poly(va.clone(), vb.clone()));
                }
                let ia = self.arith_operand(oa, ea, what, !chained_left)?;
                let ib = self.arith_operand(ob, eb, what, true)?;
                Some(Unified::Arith(ia, ib))
            }
            Some(t) => {
                // every non-constant operand must have sort `t`
                for (o, e) in [(&oa, ea), (&ob, eb)] {
                    let Opnd::Node(id) = o else { continue };
                    let s = self.node_sort(*id);
                    if s == t {
                        continue;
                    }
                    if s == Sort::Bool {
                        self.error(
                            e.span,
                            format!(
                                "a Boolean cannot be used as a number in {} arithmetic (`{what}`); use ite(b, 1, 0)",
                                sort_name(t)
                            ),
                        );
                    } else {
                        let hint = match t {
                            Sort::Fp(f) => format!("to_{}(...)", f.name()),
                            Sort::MachineInt(it) => format!("to_{}(...)", it.name()),
                            _ => String::new(),
                        };
                        let (x, y) = (sa.unwrap_or(t), sb.unwrap_or(t));
                        self.error(
                            span,
                            format!(
                                "type mismatch in `{what}`: {} and {} cannot be mixed; convert explicitly, e.g. with {hint}",
                                sort_name(x),
                                sort_name(y)
                            ),
                        );
                    }
                    return None;
                }
                let ia = self.adapt(oa, ea, t)?;
                let ib = self.adapt(ob, eb, t)?;
                Some(match t {
                    Sort::Fp(f) => Unified::Fp(f, ia, ib),
                    Sort::MachineInt(it) => Unified::Machine(it, ia, ib),
                    _ => return None,
                })
            }
        }
    }

    /// Operand `o` in the fp/machine sort `t` (constants adapt; others have sort `t`).
    fn adapt(&mut self, o: Opnd, e: &Expr, t: Sort) -> Option<NodeId> {
        match o {
            Opnd::Err => None,
            Opnd::Poly(..) => self.constant_as(e, t),
            Opnd::Node(id) => Some(id),
        }
    }

    // ------------------------------------------------------------------ constants in fp / machine contexts

    /// The constant expression `e` (which folded as a constant) adapted to sort `t`
    /// (an fp format or a machine type): see the module docs.
    fn constant_as(&mut self, e: &Expr, t: Sort) -> Option<NodeId> {
        match t {
            Sort::Fp(f) => {
                let bits = self.fp_constant(e, f)?;
                Some(self.push(NodeKind::Fp(bits), t, e.span))
            }
            Sort::MachineInt(it) => {
                let v = self.machine_constant(e, it)?;
                Some(self.push(NodeKind::Num(Rational::from_integer(v)), t, e.span))
            }
            _ => None,
        }
    }

    /// Exact value of a constant sub-expression that is a leaf for fp/machine adaptation.
    fn leaf_value(&mut self, e: &Expr) -> Option<Rational> {
        // Leaves are constants that already folded once: fold again silently.
        let saved = (self.diags.len(), self.ir.len());
        let t = self.expr(e);
        self.diags.truncate(saved.0);
        self.ir.nodes.truncate(saved.1);
        match t {
            Typed::Poly { value, .. } => Some(value),
            _ => None,
        }
    }

    /// `root` (a constant expression) in fp format `f`: numbers and other leaves are rounded
    /// to nearest even, `+ - * /` are IEEE operations, unary minus flips the sign.
    fn fp_constant(&mut self, root: &Expr, f: FpFormat) -> Option<u64> {
        let mut failed = false;
        let r = post_order_cut(root, is_arith_op, |e, kids: Vec<Option<u64>>| {
            let kid = |i: usize| kids.get(i).copied().flatten();
            match &e.kind {
                ExprKind::Paren(..) | ExprKind::Unary(UnOp::Plus, _) => kid(0),
                ExprKind::Unary(UnOp::Neg, _) => kid(0).map(|b| fpconst::neg(f, b)),
                ExprKind::Binary(op, _, _) if is_arith_op(e) => {
                    let fop = match op {
                        BinOp::Add => FpBin::Add,
                        BinOp::Sub => FpBin::Sub,
                        BinOp::Mul => FpBin::Mul,
                        _ => FpBin::Div,
                    };
                    Some(fpconst::binary(f, fop, kid(0)?, kid(1)?))
                }
                _ => match self.leaf_value(e) {
                    Some(v) => Some(self.round_constant(e.span, &v, f, RoundingMode::Rne)),
                    None => {
                        failed = true;
                        None
                    }
                },
            }
        });
        if failed {
            return None;
        }
        r
    }

    /// A constant rounded into format `f`; warns when a finite constant overflows to an
    /// infinity.
    fn round_constant(&mut self, span: Span, v: &Rational, f: FpFormat, rm: RoundingMode) -> u64 {
        let bits = f.round_rational(v, rm);
        if f.is_inf(bits) {
            self.warn(
                span,
                format!(
                    "the constant overflows {}: it is rounded to {}infinity",
                    f.name(),
                    if f.is_negative(bits) { "-" } else { "+" }
                ),
            );
        }
        bits
    }

    /// `root` (a constant expression) in machine type `t`: numbers and other leaves (also
    /// negated ones, so `-128` is an `int8`) must be integers of the type; `+ - * /` and
    /// unary minus wrap around (C truncating division). Warns when wrapping changes a value.
    fn machine_constant(&mut self, root: &Expr, t: IntType) -> Option<BigInt> {
        let descend = |e: &Expr| is_arith_op(e) && !is_negated_leaf(e);
        let mut failed = false;
        let r = post_order_cut(root, descend, |e, kids: Vec<Option<BigInt>>| {
            let is_op = descend(e);
            if !is_op {
                let v = self.leaf_value(e);
                let Some(v) = v else {
                    failed = true;
                    return None;
                };
                if !v.is_integer() {
                    self.error(
                        e.span,
                        format!(
                            "the constant {} is not an integer, so it cannot be a {}",
                            q_str(&v),
                            t.name()
                        ),
                    );
                    failed = true;
                    return None;
                }
                let v = v.to_integer();
                if !t.contains(&v) {
                    self.error(
                        e.span,
                        format!(
                            "the constant {} does not fit {} ({})",
                            v,
                            t.name(),
                            int_type_range(t)
                        ),
                    );
                    failed = true;
                    return None;
                }
                return Some(v);
            }
            let mut kids = kids.into_iter();
            let a = kids.next().flatten();
            let b = kids.next().flatten();
            let exact = match &e.kind {
                ExprKind::Paren(..) | ExprKind::Unary(UnOp::Plus, _) => return a,
                ExprKind::Unary(UnOp::Neg, _) => -a?,
                ExprKind::Binary(BinOp::Add, _, _) => a? + b?,
                ExprKind::Binary(BinOp::Sub, _, _) => a? - b?,
                ExprKind::Binary(BinOp::Mul, _, _) => a? * b?,
                ExprKind::Binary(_, _, _) => {
                    let d = b?;
                    if d.is_zero() {
                        self.error(e.span, "division by zero in a constant expression");
                        failed = true;
                        return None;
                    }
                    a? / d // truncates toward zero, as C does
                }
                _ => return None,
            };
            let w = t.wrap(&exact);
            if w != exact {
                self.warn(
                    e.span,
                    format!(
                        "constant arithmetic wraps around in {}: {} becomes {}",
                        t.name(),
                        exact,
                        w
                    ),
                );
            }
            Some(w)
        });
        if failed {
            return None;
        }
        r
    }

    // ------------------------------------------------------------------ operators

    fn unary(&mut self, e: &Expr, op: UnOp, inner: &Expr, a: Typed) -> Typed {
        match op {
            UnOp::Not => match self.boolean(a, inner) {
                Some(id) => {
                    let n = self.push(NodeKind::Not(id), Sort::Bool, e.span);
                    Typed::Node(n)
                }
                None => Typed::Err,
            },
            UnOp::Plus | UnOp::Neg => {
                let neg = op == UnOp::Neg;
                if neg {
                    self.warn_neg_pow(e, inner);
                }
                match self.operand(a) {
                    Opnd::Err => Typed::Err,
                    Opnd::Poly(v, z) => {
                        if neg {
                            let negzero = if v.is_zero() { !z } else { false };
                            Typed::Poly { value: -v, negzero }
                        } else {
                            Typed::Poly {
                                value: v,
                                negzero: z,
                            }
                        }
                    }
                    Opnd::Node(id) => {
                        let sort = self.node_sort(id);
                        let (id, sort) = if sort == Sort::Bool {
                            (self.bool_to_num(id, inner, true), Sort::Int)
                        } else {
                            (id, sort)
                        };
                        if !neg {
                            return Typed::Node(id);
                        }
                        let kind = match sort {
                            Sort::Int | Sort::Real => NodeKind::Neg(id),
                            Sort::Fp(_) => NodeKind::Op(Op::FNeg, vec![id]),
                            Sort::MachineInt(_) => NodeKind::Op(Op::BvNeg, vec![id]),
                            Sort::Bool => return Typed::Err,
                        };
                        let n = self.push(kind, sort, e.span);
                        Typed::Node(n)
                    }
                }
            }
        }
    }

    /// `-x^n` with even `n`: iSAT3 0.02 reads it as `(-x)^n`.
    fn warn_neg_pow(&mut self, e: &Expr, inner: &Expr) {
        if let ExprKind::Binary(BinOp::Pow, _, exp) = &inner.kind {
            if !matches!(
                exp.unparen().kind,
                ExprKind::Num { .. } | ExprKind::Name { .. }
            ) {
                return;
            }
            if let Some(value) = self.leaf_value(exp) {
                let even = value.is_integer() && (value.to_integer() % 2u32).is_zero();
                if even && !value.is_zero() {
                    self.warn(
                        e.span,
                        format!(
                            "`-x^{0}` is read as `-(x^{0})`, but iSAT3 0.02 reads it as `(-x)^{0}`; add parentheses to make the intent explicit",
                            q_str(&value)
                        ),
                    );
                }
            }
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, l: &Expr, r: &Expr, a: Typed, b: Typed) -> Typed {
        if op.is_boolean() {
            let ia = self.boolean(a, l);
            let ib = self.boolean(b, r);
            let (Some(ia), Some(ib)) = (ia, ib) else {
                return Typed::Err;
            };
            let (bop, x, y, negate) = match op {
                BinOp::And => (BoolOp::And, ia, ib, false),
                BinOp::Nand => (BoolOp::And, ia, ib, true),
                BinOp::Or => (BoolOp::Or, ia, ib, false),
                BinOp::Nor => (BoolOp::Or, ia, ib, true),
                BinOp::Xor => (BoolOp::Xor, ia, ib, false),
                BinOp::Nxor | BinOp::Iff => (BoolOp::Iff, ia, ib, false),
                BinOp::Impl => (BoolOp::Impl, ia, ib, false),
                BinOp::RevImpl => (BoolOp::Impl, ib, ia, false),
                _ => return Typed::Err,
            };
            let mut n = self.push(NodeKind::Bool2(bop, x, y), Sort::Bool, e.span);
            if negate {
                n = self.push(NodeKind::Not(n), Sort::Bool, e.span);
            }
            return Typed::Node(n);
        }
        if op.is_relation() {
            return self.relation(e, op, l, r, a, b);
        }
        if op == BinOp::Pow {
            return self.power(e, l, r, a, b);
        }
        let oa = self.operand(a);
        let ob = self.operand(b);
        let sym = op.symbol();
        match self.unify(e.span, sym, (oa, l), (ob, r), false) {
            None => Typed::Err,
            Some(Unified::Poly(va, vb)) => self.fold(e.span, constfold::binary(op, &va, &vb)),
            Some(Unified::Arith(ia, ib)) => {
                let (sa, sb) = (self.node_sort(ia), self.node_sort(ib));
                let both_int = sa == Sort::Int && sb == Sort::Int;
                if op == BinOp::Rem {
                    self.error(
                        e.span,
                        "`%` is the remainder of machine integers (int8 ... uint64); \
                         it is not defined on int or float (real) operands",
                    );
                    return Typed::Err;
                }
                let (kind, sort) = match op {
                    BinOp::Add => (NodeKind::Add(ia, ib), both_int),
                    BinOp::Sub => (NodeKind::Sub(ia, ib), both_int),
                    BinOp::Mul => (NodeKind::Mul(ia, ib), both_int),
                    _ => {
                        if !self.check_divisor(r, ib) {
                            return Typed::Err;
                        }
                        (NodeKind::Div(ia, ib), false)
                    }
                };
                let sort = if sort { Sort::Int } else { Sort::Real };
                let n = self.push(kind, sort, e.span);
                Typed::Node(n)
            }
            Some(Unified::Fp(f, ia, ib)) => {
                if op == BinOp::Rem {
                    self.error(
                        e.span,
                        "`%` is the remainder of machine integers; it is not defined on fp operands",
                    );
                    return Typed::Err;
                }
                let o = match op {
                    BinOp::Add => Op::FAdd(RoundingMode::Rne),
                    BinOp::Sub => Op::FSub(RoundingMode::Rne),
                    BinOp::Mul => Op::FMul(RoundingMode::Rne),
                    _ => Op::FDiv(RoundingMode::Rne),
                };
                let n = self.push(NodeKind::Op(o, vec![ia, ib]), Sort::Fp(f), e.span);
                Typed::Node(n)
            }
            Some(Unified::Machine(t, ia, ib)) => {
                let o = match op {
                    BinOp::Add => Op::BvAdd,
                    BinOp::Sub => Op::BvSub,
                    BinOp::Mul => Op::BvMul,
                    _ => {
                        if matches!(&self.ir.node(ib).kind, NodeKind::Num(v) if v.is_zero()) {
                            self.error(r.span, "division by zero");
                            return Typed::Err;
                        }
                        if op == BinOp::Rem {
                            Op::BvRem
                        } else {
                            Op::BvDiv
                        }
                    }
                };
                let n = self.push(NodeKind::Op(o, vec![ia, ib]), Sort::MachineInt(t), e.span);
                Typed::Node(n)
            }
        }
    }

    /// Divisor checks: constant or always 0 → error; range containing 0 → warning.
    fn check_divisor(&mut self, r: &Expr, divisor: NodeId) -> bool {
        let iv = self.enclosure(divisor);
        if iv.is_zero_point() {
            self.error(r.span, "division by zero: the divisor is always 0");
            return false;
        }
        if iv.known_and_contains_zero() {
            self.warn(
                r.span,
                "the divisor's range contains 0; the quotient is unspecified where the divisor is 0",
            );
        }
        true
    }

    fn relation(&mut self, e: &Expr, op: BinOp, l: &Expr, r: &Expr, a: Typed, b: Typed) -> Typed {
        let rel = match op {
            BinOp::Lt => RelOp::Lt,
            BinOp::Le => RelOp::Le,
            BinOp::Eq => RelOp::Eq,
            BinOp::Ne => RelOp::Ne,
            BinOp::Ge => RelOp::Ge,
            _ => RelOp::Gt,
        };
        let oa = self.operand(a);
        let ob = self.operand(b);
        let is_bool = |this: &Self, o: &Opnd| matches!(o, Opnd::Node(id) if this.node_sort(*id) == Sort::Bool);
        // Boolean equality
        if matches!(rel, RelOp::Eq | RelOp::Ne) && is_bool(self, &oa) && is_bool(self, &ob) {
            if let (Opnd::Node(ia), Opnd::Node(ib)) = (&oa, &ob) {
                let n = self.push(NodeKind::Rel(rel, *ia, *ib), Sort::Bool, e.span);
                return Typed::Node(n);
            }
        }
        // chained relation `a < b < c`
        let chained = matches!(&l.kind, ExprKind::Binary(lop, _, _) if lop.is_relation())
            && is_bool(self, &oa);
        if chained {
            let inner = match &l.kind {
                ExprKind::Binary(lop, _, _) => lop.symbol(),
                _ => "",
            };
            self.warn(
                e.span,
                format!(
                    "chained comparison `a {inner} b {} c` is read as `(a {inner} b) {} c`, comparing the truth value (1 or 0) of `a {inner} b` with `c`; write `a {inner} b and b {} c` if that is what you mean",
                    op.symbol(),
                    op.symbol(),
                    op.symbol()
                ),
            );
        }
        match self.unify(e.span, op.symbol(), (oa, l), (ob, r), chained) {
            None => Typed::Err,
            Some(Unified::Poly(va, vb)) => {
                let holds = rel.holds(va.cmp(&vb));
                let n = self.push(NodeKind::Bool(holds), Sort::Bool, e.span);
                Typed::Node(n)
            }
            Some(Unified::Arith(ia, ib))
            | Some(Unified::Fp(_, ia, ib))
            | Some(Unified::Machine(_, ia, ib)) => {
                let n = self.push(NodeKind::Rel(rel, ia, ib), Sort::Bool, e.span);
                Typed::Node(n)
            }
        }
    }

    /// A constant non-negative integer exponent (or root degree >= `min`).
    fn exponent(&mut self, t: Typed, e: &Expr, min: u32, what: &str) -> Option<u32> {
        match self.operand(t) {
            Opnd::Err => None,
            Opnd::Poly(v, _) => {
                let ok = v.is_integer() && v >= rat(min as i64);
                if !ok {
                    let req = if min == 0 {
                        "a non-negative"
                    } else {
                        "a positive"
                    };
                    self.error(
                        e.span,
                        format!(
                            "{what} must be {req} integer constant, but it is {}",
                            q_str(&v)
                        ),
                    );
                    return None;
                }
                match v.to_integer().to_u32() {
                    Some(n) => Some(n),
                    None => {
                        self.error(e.span, format!("{what} {} is too large", q_str(&v)));
                        None
                    }
                }
            }
            Opnd::Node(..) => {
                let req = if min == 0 {
                    "a non-negative"
                } else {
                    "a positive"
                };
                self.error(
                    e.span,
                    format!("{what} must be {req} integer constant (a number or a define), not an expression over variables"),
                );
                None
            }
        }
    }

    fn power(&mut self, e: &Expr, l: &Expr, r: &Expr, a: Typed, b: Typed) -> Typed {
        let base = self.operand(a);
        // constant base: fold with an arbitrary-size exponent check
        if let (Opnd::Poly(bv, _), Typed::Poly { value: ev, .. }) = (&base, &b) {
            if constfold::exponent(ev).is_none() {
                self.error(
                    r.span,
                    format!(
                        "the exponent must be a non-negative integer constant, but it is {}",
                        q_str(ev)
                    ),
                );
                return Typed::Err;
            }
            return self.fold(e.span, constfold::binary(BinOp::Pow, bv, ev));
        }
        let n = self.exponent(b, r, 0, "the exponent");
        self.pow_node(e, l, base, n)
    }

    fn pow_node(&mut self, e: &Expr, l: &Expr, base: Opnd, n: Option<u32>) -> Typed {
        let Some(n) = n else {
            return Typed::Err;
        };
        if let Opnd::Poly(bv, _) = &base {
            return self.fold(e.span, constfold::pow(bv, &BigInt::from(n)));
        }
        if let Opnd::Node(id) = &base {
            let s = self.node_sort(*id);
            if matches!(s, Sort::Fp(_) | Sort::MachineInt(_)) {
                self.error(
                    e.span,
                    format!(
                        "`^` is not defined on {}; multiply explicitly",
                        sort_name(s)
                    ),
                );
                return Typed::Err;
            }
        }
        let Some(id) = self.arith_operand(base, l, "`^`", true) else {
            return Typed::Err;
        };
        match n {
            0 => Typed::Poly {
                value: rat(1),
                negzero: false,
            },
            1 => Typed::Node(id),
            _ => {
                let sort = self.node_sort(id);
                let k = self.push(NodeKind::Pow(id, n), sort, e.span);
                Typed::Node(k)
            }
        }
    }

    // ------------------------------------------------------------------ function calls

    fn call(&mut self, e: &Expr, func: Func, ast: &[Expr], vals: Vec<Typed>) -> Typed {
        let (lo, hi) = func.arity();
        if vals.len() < lo || vals.len() > hi {
            let n = if lo == hi {
                format!("{lo}")
            } else {
                format!("{lo} or {hi}")
            };
            self.error(
                e.span,
                format!(
                    "`{}` takes {n} argument(s), but {} were given",
                    func.name(),
                    vals.len()
                ),
            );
            return Typed::Err;
        }
        // rounding-mode argument: last position of the functions that take one
        let rm_pos = match func {
            Func::FAdd | Func::FSub | Func::FMul | Func::FDiv => Some(2),
            Func::FSqrt => Some(1),
            Func::FFma => Some(3),
            Func::ToFp32 | Func::ToFp64 => Some(1),
            _ => None,
        };
        let mut rm = RoundingMode::Rne;
        let mut ops: Vec<Opnd> = Vec::new();
        let mut bad = false;
        for (i, t) in vals.into_iter().enumerate() {
            if Some(i) == rm_pos {
                match t {
                    Typed::Rm(m, _) => rm = m,
                    Typed::Err => bad = true,
                    _ => {
                        self.error(
                            ast[i].span,
                            format!(
                                "argument {} of `{}` must be a rounding mode (RNE, RNA, RTP, RTN or RTZ)",
                                i + 1,
                                func.name()
                            ),
                        );
                        bad = true;
                    }
                }
            } else {
                let o = self.operand(t);
                if matches!(o, Opnd::Err) {
                    bad = true;
                }
                ops.push(o);
            }
        }
        if bad {
            return Typed::Err;
        }
        let name = func.name();
        match func {
            Func::Abs => {
                let a = ops.remove(0);
                if let Opnd::Poly(v, _) = &a {
                    return Typed::Poly {
                        value: constfold::abs(v),
                        negzero: false,
                    };
                }
                if self.reject_ieee(&a, &ast[0], "abs", "fabs") {
                    return Typed::Err;
                }
                let Some(id) = self.arith_operand(a, &ast[0], "abs", true) else {
                    return Typed::Err;
                };
                let sort = self.node_sort(id);
                let n = self.push(NodeKind::Op(Op::Abs, vec![id]), sort, e.span);
                Typed::Node(n)
            }
            Func::Min | Func::Max => {
                let b = ops.remove(1);
                let a = ops.remove(0);
                let is_min = func == Func::Min;
                let ieee = if is_min { "fmin" } else { "fmax" };
                if self.reject_ieee(&a, &ast[0], &name, ieee)
                    || self.reject_ieee(&b, &ast[1], &name, ieee)
                {
                    return Typed::Err;
                }
                match self.unify(e.span, &name, (a, &ast[0]), (b, &ast[1]), false) {
                    Some(Unified::Poly(va, vb)) => {
                        let v = if (va <= vb) == is_min { va } else { vb };
                        Typed::Poly {
                            value: v,
                            negzero: false,
                        }
                    }
                    Some(Unified::Arith(ia, ib)) => {
                        let int =
                            self.node_sort(ia) == Sort::Int && self.node_sort(ib) == Sort::Int;
                        let sort = if int { Sort::Int } else { Sort::Real };
                        let o = if is_min { Op::Min } else { Op::Max };
                        let n = self.push(NodeKind::Op(o, vec![ia, ib]), sort, e.span);
                        Typed::Node(n)
                    }
                    _ => Typed::Err,
                }
            }
            Func::Sin
            | Func::Cos
            | Func::Tan
            | Func::Exp
            | Func::Exp2
            | Func::Exp10
            | Func::Log
            | Func::Log2
            | Func::Log10
            | Func::Sqrt => {
                let a = ops.remove(0);
                let ieee = if func == Func::Sqrt { "fsqrt" } else { "" };
                if self.reject_ieee(&a, &ast[0], &name, ieee) {
                    return Typed::Err;
                }
                let Some(id) = self.arith_operand(a, &ast[0], &name, true) else {
                    return Typed::Err;
                };
                let o = match func {
                    Func::Sin => Op::Sin,
                    Func::Cos => Op::Cos,
                    Func::Tan => Op::Tan,
                    Func::Exp => Op::Exp,
                    Func::Exp2 => Op::Exp2,
                    Func::Exp10 => Op::Exp10,
                    Func::Log => Op::Log,
                    Func::Log2 => Op::Log2,
                    Func::Log10 => Op::Log10,
                    _ => Op::Nrt(2),
                };
                let ok = match func {
                    Func::Log | Func::Log2 | Func::Log10 => {
                        self.check_domain(&ast[0], id, &name, true)
                    }
                    Func::Sqrt => self.check_domain(&ast[0], id, &name, false),
                    _ => true,
                };
                if !ok {
                    return Typed::Err;
                }
                let n = self.push(NodeKind::Op(o, vec![id]), Sort::Real, e.span);
                Typed::Node(n)
            }
            Func::Nrt => {
                let deg = self.exponent_opnd(ops.remove(1), &ast[1], 1, "the degree of `nrt`");
                let a = ops.remove(0);
                let Some(deg) = deg else {
                    return Typed::Err;
                };
                if self.reject_ieee(&a, &ast[0], "nrt", "") {
                    return Typed::Err;
                }
                let Some(id) = self.arith_operand(a, &ast[0], "nrt", true) else {
                    return Typed::Err;
                };
                if deg == 1 {
                    return Typed::Node(id);
                }
                if deg % 2 == 0 && !self.check_domain(&ast[0], id, "nrt", false) {
                    return Typed::Err;
                }
                let n = self.push(NodeKind::Op(Op::Nrt(deg), vec![id]), Sort::Real, e.span);
                Typed::Node(n)
            }
            Func::Pow => {
                let ex = ops.remove(1);
                let base = ops.remove(0);
                if let (Opnd::Poly(bv, _), Opnd::Poly(ev, _)) = (&base, &ex) {
                    if constfold::exponent(ev).is_none() {
                        self.error(
                            ast[1].span,
                            format!("the exponent must be a non-negative integer constant, but it is {}", q_str(ev)),
                        );
                        return Typed::Err;
                    }
                    return self.fold(e.span, constfold::binary(BinOp::Pow, bv, ev));
                }
                let n = self.exponent_opnd(ex, &ast[1], 0, "the exponent");
                self.pow_node(e, &ast[0], base, n)
            }
            Func::Ite => {
                let b = ops.remove(2);
                let a = ops.remove(1);
                let c = ops.remove(0);
                self.ite(e, ast, c, a, b)
            }
            Func::FAdd | Func::FSub | Func::FMul | Func::FDiv => {
                let b = ops.remove(1);
                let a = ops.remove(0);
                let o = match func {
                    Func::FAdd => Op::FAdd(rm),
                    Func::FSub => Op::FSub(rm),
                    Func::FMul => Op::FMul(rm),
                    _ => Op::FDiv(rm),
                };
                let Some((f, ids)) = self.fp_operands(e, &name, vec![(a, &ast[0]), (b, &ast[1])])
                else {
                    return Typed::Err;
                };
                self.node(NodeKind::Op(o, ids), Sort::Fp(f), e.span)
            }
            Func::FFma => {
                let c = ops.remove(2);
                let b = ops.remove(1);
                let a = ops.remove(0);
                let Some((f, ids)) =
                    self.fp_operands(e, &name, vec![(a, &ast[0]), (b, &ast[1]), (c, &ast[2])])
                else {
                    return Typed::Err;
                };
                self.node(NodeKind::Op(Op::FFma(rm), ids), Sort::Fp(f), e.span)
            }
            Func::FSqrt | Func::FAbs => {
                let a = ops.remove(0);
                let o = if func == Func::FSqrt {
                    Op::FSqrt(rm)
                } else {
                    Op::FAbs
                };
                let Some((f, ids)) = self.fp_operands(e, &name, vec![(a, &ast[0])]) else {
                    return Typed::Err;
                };
                self.node(NodeKind::Op(o, ids), Sort::Fp(f), e.span)
            }
            Func::FMin | Func::FMax | Func::Feq => {
                let b = ops.remove(1);
                let a = ops.remove(0);
                let (o, bool_out) = match func {
                    Func::FMin => (Op::FMin, false),
                    Func::FMax => (Op::FMax, false),
                    _ => (Op::FEq, true),
                };
                let Some((f, ids)) = self.fp_operands(e, &name, vec![(a, &ast[0]), (b, &ast[1])])
                else {
                    return Typed::Err;
                };
                let sort = if bool_out { Sort::Bool } else { Sort::Fp(f) };
                self.node(NodeKind::Op(o, ids), sort, e.span)
            }
            Func::IsNan
            | Func::IsInf
            | Func::IsZero
            | Func::IsSubnormal
            | Func::IsNormal
            | Func::IsNeg => {
                let a = ops.remove(0);
                let o = match func {
                    Func::IsNan => Op::IsNan,
                    Func::IsInf => Op::IsInf,
                    Func::IsZero => Op::IsZero,
                    Func::IsSubnormal => Op::IsSubnormal,
                    Func::IsNormal => Op::IsNormal,
                    _ => Op::IsNeg,
                };
                let Some((_, ids)) = self.fp_operands(e, &name, vec![(a, &ast[0])]) else {
                    return Typed::Err;
                };
                self.node(NodeKind::Op(o, ids), Sort::Bool, e.span)
            }
            Func::ToFp32 | Func::ToFp64 => {
                let f = if func == Func::ToFp32 {
                    FpFormat::F32
                } else {
                    FpFormat::F64
                };
                let a = ops.remove(0);
                match a {
                    Opnd::Poly(v, z) => {
                        let bits = if v.is_zero() && z {
                            fpconst::neg(f, 0)
                        } else {
                            self.round_constant(ast[0].span, &v, f, rm)
                        };
                        self.node(NodeKind::Fp(bits), Sort::Fp(f), e.span)
                    }
                    Opnd::Node(id) => match self.node_sort(id) {
                        Sort::Fp(g) if g == f => Typed::Node(id),
                        Sort::Bool => {
                            self.error(
                                ast[0].span,
                                format!("`{name}` cannot convert a Boolean; use ite(b, 1, 0)"),
                            );
                            Typed::Err
                        }
                        _ => self.node(NodeKind::Op(Op::ToFp(rm), vec![id]), Sort::Fp(f), e.span),
                    },
                    Opnd::Err => Typed::Err,
                }
            }
            Func::ToReal => match ops.remove(0) {
                Opnd::Poly(v, z) => Typed::Poly {
                    value: v,
                    negzero: z,
                },
                Opnd::Node(id) => match self.node_sort(id) {
                    Sort::Int | Sort::Real => Typed::Node(id),
                    Sort::Fp(_) => {
                        self.node(NodeKind::Op(Op::FpToReal, vec![id]), Sort::Real, e.span)
                    }
                    Sort::MachineInt(_) => {
                        self.node(NodeKind::Op(Op::Convert, vec![id]), Sort::Real, e.span)
                    }
                    Sort::Bool => {
                        self.error(
                            ast[0].span,
                            "`to_real` cannot convert a Boolean; use ite(b, 1, 0)",
                        );
                        Typed::Err
                    }
                },
                Opnd::Err => Typed::Err,
            },
            Func::ToInt => match ops.remove(0) {
                Opnd::Poly(v, z) => {
                    if !v.is_integer() {
                        self.error(
                            ast[0].span,
                            format!("`to_int` of the non-integer constant {}", q_str(&v)),
                        );
                        return Typed::Err;
                    }
                    Typed::Poly {
                        value: v,
                        negzero: z,
                    }
                }
                Opnd::Node(id) => match self.node_sort(id) {
                    Sort::Int => Typed::Node(id),
                    Sort::Fp(_) => {
                        self.node(NodeKind::Op(Op::FpToInt, vec![id]), Sort::Int, e.span)
                    }
                    Sort::MachineInt(_) => {
                        self.node(NodeKind::Op(Op::Convert, vec![id]), Sort::Int, e.span)
                    }
                    s => {
                        self.error(
                            ast[0].span,
                            format!(
                                "`to_int` converts a machine integer or an fp value, not a {}",
                                sort_name(s)
                            ),
                        );
                        Typed::Err
                    }
                },
                Opnd::Err => Typed::Err,
            },
            Func::ToMachine(t) => {
                let sort = Sort::MachineInt(t);
                match ops.remove(0) {
                    Opnd::Poly(..) => match self.machine_constant(&ast[0], t) {
                        Some(v) => {
                            self.node(NodeKind::Num(Rational::from_integer(v)), sort, e.span)
                        }
                        None => Typed::Err,
                    },
                    Opnd::Node(id) => match self.node_sort(id) {
                        Sort::Fp(_) => self.node(NodeKind::Op(Op::FpToInt, vec![id]), sort, e.span),
                        Sort::MachineInt(s) if s == t => Typed::Node(id),
                        Sort::MachineInt(_) => {
                            self.node(NodeKind::Op(Op::BvCast, vec![id]), sort, e.span)
                        }
                        Sort::Int => {
                            let min = Rational::from_integer(t.min_value());
                            let max = Rational::from_integer(t.max_value());
                            let iv = self.enclosure(id);
                            let fits = matches!((&iv.lo, &iv.hi), (Some(a), Some(b)) if a.value >= min && b.value <= max);
                            let kind = if fits {
                                NodeKind::Op(Op::Convert, vec![id])
                            } else {
                                NodeKind::FitConvert(id)
                            };
                            self.node(kind, sort, e.span)
                        }
                        s => {
                            self.error(
                                ast[0].span,
                                format!("`{name}` converts an fp value, a machine integer or an int, not a {}", sort_name(s)),
                            );
                            Typed::Err
                        }
                    },
                    Opnd::Err => Typed::Err,
                }
            }
            Func::FpBits => {
                let a = ops.remove(0);
                let Some((f, ids)) = self.fp_operands(e, &name, vec![(a, &ast[0])]) else {
                    return Typed::Err;
                };
                let t = IntType::new(f.total_bits() as u8, false);
                self.node(NodeKind::Op(Op::FpToBits, ids), Sort::MachineInt(t), e.span)
            }
            Func::Fp32OfBits | Func::Fp64OfBits => {
                let f = if func == Func::Fp32OfBits {
                    FpFormat::F32
                } else {
                    FpFormat::F64
                };
                let w = f.total_bits() as u8;
                match ops.remove(0) {
                    // a constant pattern: an unsigned integer of the width, decoded now
                    Opnd::Poly(..) => {
                        match self.machine_constant(&ast[0], IntType::new(w, false)) {
                            Some(v) => {
                                let p = v.to_u64().expect("checked to fit the width");
                                self.node(
                                    NodeKind::Fp(solver::num::ieee::of_bits(f, p)),
                                    Sort::Fp(f),
                                    e.span,
                                )
                            }
                            None => Typed::Err,
                        }
                    }
                    Opnd::Node(id) => match self.node_sort(id) {
                        Sort::MachineInt(t) if t.bits == w => {
                            self.node(NodeKind::Op(Op::FpOfBits, vec![id]), Sort::Fp(f), e.span)
                        }
                        s => {
                            self.error(
                                ast[0].span,
                                format!(
                                    "`{name}` needs a uint{w} (or int{w}) operand, found {}; convert with to_uint{w}(...)",
                                    sort_name(s)
                                ),
                            );
                            Typed::Err
                        }
                    },
                    Opnd::Err => Typed::Err,
                }
            }
            Func::BitAnd | Func::BitOr | Func::BitXor => {
                let b = ops.remove(1);
                let a = ops.remove(0);
                let o = match func {
                    Func::BitAnd => Op::BvAnd,
                    Func::BitOr => Op::BvOr,
                    _ => Op::BvXor,
                };
                match self.unify(e.span, &name, (a, &ast[0]), (b, &ast[1]), false) {
                    Some(Unified::Machine(t, ia, ib)) => {
                        self.node(NodeKind::Op(o, vec![ia, ib]), Sort::MachineInt(t), e.span)
                    }
                    Some(Unified::Poly(..)) => {
                        self.error(e.span, format!("cannot tell the machine type of `{name}` with only constant operands; convert one with to_int32(...) etc."));
                        Typed::Err
                    }
                    Some(_) => {
                        self.error(e.span, format!("`{name}` needs machine-integer operands"));
                        Typed::Err
                    }
                    None => Typed::Err,
                }
            }
            Func::BitNot => {
                let a = ops.remove(0);
                match a {
                    Opnd::Node(id) if matches!(self.node_sort(id), Sort::MachineInt(_)) => {
                        let s = self.node_sort(id);
                        self.node(NodeKind::Op(Op::BvNot, vec![id]), s, e.span)
                    }
                    Opnd::Err => Typed::Err,
                    _ => {
                        self.error(ast[0].span, "`bitnot` needs a machine-integer operand");
                        Typed::Err
                    }
                }
            }
            Func::Shl | Func::Shr => {
                let n = ops.remove(1);
                let a = ops.remove(0);
                let t = match &a {
                    Opnd::Node(id) => match self.node_sort(*id) {
                        Sort::MachineInt(t) => Some(t),
                        _ => None,
                    },
                    _ => None,
                };
                let (Some(t), Opnd::Node(ia)) = (t, a) else {
                    self.error(
                        ast[0].span,
                        format!("`{name}` shifts a machine-integer operand"),
                    );
                    return Typed::Err;
                };
                let o = if func == Func::Shl {
                    Op::BvShl
                } else {
                    Op::BvShr
                };
                let ib = match n {
                    Opnd::Poly(v, _) => {
                        let ok = v.is_integer() && v >= rat(0) && v < rat(t.bits as i64);
                        if !ok {
                            self.error(
                                ast[1].span,
                                format!(
                                    "shift amount {} is not an integer in 0..{}",
                                    q_str(&v),
                                    t.bits - 1
                                ),
                            );
                            return Typed::Err;
                        }
                        self.push(NodeKind::Num(v), Sort::MachineInt(t), ast[1].span)
                    }
                    Opnd::Node(id) if self.node_sort(id) == Sort::MachineInt(t) => id,
                    Opnd::Node(id) => {
                        let s = self.node_sort(id);
                        self.error(
                            ast[1].span,
                            format!(
                                "the shift amount must be an integer constant or a {}, not a {}",
                                t.name(),
                                sort_name(s)
                            ),
                        );
                        return Typed::Err;
                    }
                    Opnd::Err => return Typed::Err,
                };
                self.node(NodeKind::Op(o, vec![ia, ib]), Sort::MachineInt(t), e.span)
            }
        }
    }

    /// An enclosure of the values of Int/Real node `root` (see [`super::interval`]),
    /// computed over the typed nodes with an explicit stack.
    fn enclosure(&self, root: NodeId) -> Iv {
        let ir = &self.ir;
        let mut stack: Vec<(NodeId, bool)> = vec![(root, false)];
        let mut vals: Vec<Iv> = Vec::new();
        let mut kids: Vec<NodeId> = Vec::new();
        while let Some((id, expanded)) = stack.pop() {
            let node = ir.node(id);
            if !expanded {
                stack.push((id, true));
                kids.clear();
                node.kind.operands(&mut kids);
                for &k in kids.iter().rev() {
                    stack.push((k, false));
                }
                continue;
            }
            kids.clear();
            node.kind.operands(&mut kids);
            let args = vals.split_off(vals.len().saturating_sub(kids.len()));
            let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
            let iv = match &node.kind {
                NodeKind::Num(v) if is_arith(node.sort) => Iv::point(v.clone()),
                NodeKind::Var { var, .. } => match self.vars.get(*var as usize) {
                    Some(v) if is_arith(v.sort) => Iv::from_domain(&v.domain),
                    _ => Iv::unknown(),
                },
                NodeKind::BoolToNum(_) => Iv::closed(rat(0), rat(1)),
                NodeKind::Add(..) => arg(0).add(&arg(1)),
                NodeKind::Sub(..) => arg(0).sub(&arg(1)),
                NodeKind::Mul(..) => arg(0).mul(&arg(1)),
                NodeKind::Div(..) => arg(0).div(&arg(1)),
                NodeKind::Neg(_) => arg(0).neg(),
                NodeKind::Pow(_, n) => arg(0).pow(*n),
                NodeKind::Ite(..) if is_arith(node.sort) => arg(1).hull(&arg(2)),
                NodeKind::Op(op, _) => match op {
                    Op::Abs => arg(0).abs(),
                    Op::Min => arg(0).min(&arg(1)),
                    Op::Max => arg(0).max(&arg(1)),
                    Op::Sin | Op::Cos => Iv::closed(rat(-1), rat(1)),
                    Op::Exp | Op::Exp2 | Op::Exp10 => Iv::above_zero(true),
                    Op::Nrt(n) if n % 2 == 0 => Iv::above_zero(false),
                    _ => Iv::unknown(),
                },
                _ => Iv::unknown(),
            };
            vals.push(iv);
        }
        vals.pop().unwrap_or_default()
    }

    fn node(&mut self, kind: NodeKind, sort: Sort, span: Span) -> Typed {
        let n = self.push(kind, sort, span);
        Typed::Node(n)
    }

    fn exponent_opnd(&mut self, o: Opnd, e: &Expr, min: u32, what: &str) -> Option<u32> {
        let t = match o {
            Opnd::Node(id) => Typed::Node(id),
            Opnd::Poly(value, negzero) => Typed::Poly { value, negzero },
            Opnd::Err => Typed::Err,
        };
        self.exponent(t, e, min, what)
    }

    /// Part A functions on fp / machine operands are errors.
    fn reject_ieee(&mut self, o: &Opnd, e: &Expr, f: &str, ieee: &str) -> bool {
        if let Opnd::Node(id) = o {
            let s = self.node_sort(*id);
            match s {
                Sort::Fp(_) => {
                    let hint = if ieee.is_empty() {
                        "convert with to_real(...) first".to_string()
                    } else {
                        format!("use `{ieee}` for the IEEE operation, or convert with to_real(...)")
                    };
                    self.error(
                        e.span,
                        format!("`{f}` is not defined on {}: {hint}", sort_name(s)),
                    );
                    return true;
                }
                Sort::MachineInt(_) => {
                    self.error(
                        e.span,
                        format!(
                            "`{f}` is not defined on {}: convert with to_int(...) first",
                            sort_name(s)
                        ),
                    );
                    return true;
                }
                _ => {}
            }
        }
        false
    }

    /// `log` (`positive`: argument > 0) or even root (argument >= 0) domain checks.
    fn check_domain(&mut self, e: &Expr, arg: NodeId, f: &str, positive: bool) -> bool {
        let iv = self.enclosure(arg);
        let (outside, partly, dom) = if positive {
            (iv.all_below_zero(true), !iv.all_above_zero(false), "> 0")
        } else {
            (iv.all_below_zero(false), !iv.all_above_zero(true), ">= 0")
        };
        let known = iv.lo.is_some();
        if outside {
            self.error(
                e.span,
                format!("the argument of `{f}` is never {dom} (its range is outside the function's domain)"),
            );
            return false;
        }
        if partly && known {
            self.warn(
                e.span,
                format!("the argument of `{f}` can be outside its domain ({dom}); the value is unspecified there"),
            );
        }
        true
    }

    /// Operands of an fp function: all of one fp format (constants adapt).
    fn fp_operands(
        &mut self,
        e: &Expr,
        name: &str,
        ops: Vec<(Opnd, &Expr)>,
    ) -> Option<(FpFormat, Vec<NodeId>)> {
        let mut f: Option<FpFormat> = None;
        for (o, _) in &ops {
            if let Opnd::Node(id) = o {
                if let Sort::Fp(g) = self.node_sort(*id) {
                    f = Some(g);
                    break;
                }
            }
        }
        let mut ids = Vec::new();
        let mut ok = true;
        let mut reported = false;
        for (o, ae) in ops {
            match (&o, f) {
                (Opnd::Err, _) => ok = false,
                (Opnd::Poly(..), None) => {
                    if !reported {
                        reported = true;
                        self.error(
                        ae.span,
                        format!("cannot tell the fp format of `{name}` with only constant operands; convert one with to_fp32(...) or to_fp64(...)"),
                    );
                    }
                    ok = false;
                }
                (Opnd::Poly(..), Some(g)) => match self.constant_as(ae, Sort::Fp(g)) {
                    Some(id) => ids.push(id),
                    None => ok = false,
                },
                (Opnd::Node(id), _) => {
                    let s = self.node_sort(*id);
                    match (s, f) {
                        (Sort::Fp(g), Some(h)) if g == h => ids.push(*id),
                        (Sort::Fp(g), Some(h)) => {
                            self.error(
                                e.span,
                                format!("type mismatch in `{name}`: {} and {} cannot be mixed; convert explicitly with to_{}(...)", g.name(), h.name(), h.name()),
                            );
                            ok = false;
                        }
                        _ => {
                            self.error(
                                ae.span,
                                format!("`{name}` needs fp operands, found {}; convert with to_fp32(...) or to_fp64(...)", sort_name(s)),
                            );
                            ok = false;
                        }
                    }
                }
            }
        }
        if !ok {
            return None;
        }
        f.map(|f| (f, ids))
    }

    fn ite(&mut self, e: &Expr, ast: &[Expr], c: Opnd, a: Opnd, b: Opnd) -> Typed {
        let ct = match c {
            Opnd::Node(id) => Typed::Node(id),
            Opnd::Poly(value, negzero) => Typed::Poly { value, negzero },
            Opnd::Err => Typed::Err,
        };
        let ic = self.boolean(ct, &ast[0]);
        let is_bool = |this: &Self, o: &Opnd| matches!(o, Opnd::Node(id) if this.node_sort(*id) == Sort::Bool);
        if is_bool(self, &a) && is_bool(self, &b) {
            let (Some(ic), Opnd::Node(ia), Opnd::Node(ib)) = (ic, a, b) else {
                return Typed::Err;
            };
            return self.node(NodeKind::Ite(ic, ia, ib), Sort::Bool, e.span);
        }
        let u = self.unify(e.span, "ite", (a, &ast[1]), (b, &ast[2]), false);
        let Some(ic) = ic else {
            return Typed::Err;
        };
        match u {
            None => Typed::Err,
            Some(Unified::Poly(va, vb)) => {
                let ia = self.num_node(va, ast[1].span);
                let ib = self.num_node(vb, ast[2].span);
                self.arith_ite(e, ic, ia, ib)
            }
            Some(Unified::Arith(ia, ib)) => self.arith_ite(e, ic, ia, ib),
            Some(Unified::Fp(f, ia, ib)) => {
                self.node(NodeKind::Ite(ic, ia, ib), Sort::Fp(f), e.span)
            }
            Some(Unified::Machine(t, ia, ib)) => {
                self.node(NodeKind::Ite(ic, ia, ib), Sort::MachineInt(t), e.span)
            }
        }
    }

    fn arith_ite(&mut self, e: &Expr, c: NodeId, a: NodeId, b: NodeId) -> Typed {
        let int = self.node_sort(a) == Sort::Int && self.node_sort(b) == Sort::Int;
        let sort = if int { Sort::Int } else { Sort::Real };
        let n = self.push(NodeKind::Ite(c, a, b), sort, e.span);
        Typed::Node(n)
    }
}

/// The operators that constant expressions keep in fp / machine contexts.
fn is_arith_op(e: &Expr) -> bool {
    matches!(
        &e.kind,
        ExprKind::Paren(..)
            | ExprKind::Unary(UnOp::Plus | UnOp::Neg, _)
            | ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, _, _)
    )
}

/// `-c` where `c` is a leaf (a number, a define, ...): one constant.
fn is_negated_leaf(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Unary(UnOp::Neg, a) => !is_arith_op(a.unparen()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    //! Errors the parser never lets through (it rejects these forms itself), checked on
    //! hand-built trees: the checker must not rely on the parser for them.
    use super::*;
    use crate::hys::ast::{Body, Ident, RangeSpec, Section};

    fn sp(a: usize, b: usize) -> Span {
        Span::new(a, b)
    }
    fn num(v: i64, at: usize) -> Expr {
        Expr::new(
            ExprKind::Num {
                text: v.to_string(),
                value: rat(v),
            },
            sp(at, at + 1),
        )
    }
    fn var_decl(kind: TypeKind, range: Option<(i64, i64)>, name: &str, at: usize) -> Decl {
        Decl::Var {
            is_static: false,
            ty: TypeSpec {
                kind,
                range: range.map(|(lo, hi)| RangeSpec {
                    lo_open: false,
                    lo: num(lo, at + 1),
                    hi: num(hi, at + 3),
                    hi_open: false,
                    span: sp(at, at + 5),
                }),
                span: sp(at, at + 5),
            },
            names: vec![Ident {
                name: name.into(),
                span: sp(at + 10, at + 10 + name.len()),
            }],
            span: sp(at, at + 20),
        }
    }
    fn file(decls: Vec<Decl>) -> HysFile {
        HysFile {
            decls,
            body: Body::Expr(Section {
                kind: SectionKind::Expr,
                span: sp(500, 504),
                constraints: vec![Expr::new(ExprKind::Bool(true), sp(505, 509))],
            }),
        }
    }
    fn errors(f: &HysFile) -> Vec<(u32, String)> {
        let (ck, d) = check(f);
        assert!(ck.is_none());
        d.into_iter().map(|d| (d.span.start, d.message)).collect()
    }

    #[test]
    fn reserved_words_cannot_be_declared() {
        let f = file(vec![
            var_decl(TypeKind::Real, Some((0, 1)), "sin", 0),
            var_decl(TypeKind::Boole, None, "RNE", 100),
            Decl::Define {
                name: Ident {
                    name: "int8".into(),
                    span: sp(207, 211),
                },
                value: num(3, 214),
                span: sp(200, 216),
            },
        ]);
        let e = errors(&f);
        assert_eq!(e.len(), 3, "{e:?}");
        assert_eq!(e[0].0, 10);
        assert_eq!(e[0].1, "`sin` is a reserved word and cannot be declared");
        assert_eq!(e[1].0, 110);
        assert!(e[1].1.contains("`RNE` is a reserved word"));
        assert_eq!(e[2].0, 207);
        assert!(e[2].1.contains("`int8` is a reserved word"));
    }

    #[test]
    fn int_and_real_need_a_range_boole_takes_none() {
        let f = file(vec![
            var_decl(TypeKind::Int, None, "n", 0),
            var_decl(TypeKind::Real, None, "x", 100),
            var_decl(TypeKind::Boole, Some((0, 1)), "b", 200),
        ]);
        let e = errors(&f);
        assert_eq!(e.len(), 3, "{e:?}");
        assert_eq!(
            e[0],
            (
                0,
                "`int` variables need a range, e.g. `int [0, 10] n;`".into()
            )
        );
        assert_eq!(
            e[1],
            (
                100,
                "`float` variables need a range, e.g. `float [-1, 1] x;`".into()
            )
        );
        assert_eq!(e[2], (200, "a `boole` variable has no range".into()));
    }

    #[test]
    fn erroneous_defines_do_not_cascade() {
        // define d = 1 / 0; then `d > 0` must not produce a second error
        let div = Expr::new(
            ExprKind::Binary(BinOp::Div, Box::new(num(1, 11)), Box::new(num(0, 15))),
            sp(11, 16),
        );
        let use_d = Expr::new(
            ExprKind::Binary(
                BinOp::Gt,
                Box::new(Expr::new(
                    ExprKind::Name {
                        name: "d".into(),
                        primed: false,
                    },
                    sp(505, 506),
                )),
                Box::new(num(0, 509)),
            ),
            sp(505, 510),
        );
        let mut f = file(vec![Decl::Define {
            name: Ident {
                name: "d".into(),
                span: sp(7, 8),
            },
            value: div,
            span: sp(0, 17),
        }]);
        if let Body::Expr(s) = &mut f.body {
            s.constraints = vec![use_d];
        }
        let e = errors(&f);
        assert_eq!(
            e,
            vec![(11, "division by zero in a constant expression".into())]
        );
    }
}
