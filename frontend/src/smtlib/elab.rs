//! Elaboration of SMT-LIB terms into the checker's typed IR ([`crate::hys::ir`]), so the
//! `.hys` lowering, the exact model validation and the trace replay are reused unchanged.
//!
//! Terms are first built in an arena of their own (a DAG: `let`, `define-fun` and macro
//! parameters share sub-terms). When a problem is assembled ([`Elab::build`]) every shared
//! non-leaf term becomes a fresh variable `@sN` with the definition `@sN = term`, so the IR
//! stays a tree of linear size whatever the sharing.
//!
//! SMT-LIB semantics that differ from icpic3's operations are encoded exactly (language doc
//! Part E):
//! - `div`/`mod` are Euclidean: fresh Int `q`, `r` with `a = b·q + r ∧ 0 ≤ r ≤ |b| - 1`
//!   when `b ≠ 0`; at `b = 0` they are left free (an over-approximation of the
//!   uninterpreted-but-functional value) and a model with `b = 0` is never reported `sat`.
//! - `to_int` is floor (fresh Int `k`, `k ≤ x < k + 1`); `/` by zero is the solver's
//!   unspecified division (any value), which the validation never accepts.
//! - `fp.min`/`fp.max` of `+0` and `-0` may give either zero; `fp.isNegative` and
//!   `fp.isPositive` are false on NaN.
//! - bit-vectors of width 8, 16, 32, 64 are unsigned machine integers; signed operations go
//!   through wrap-around casts; division by zero and over-long shifts get SMT-LIB's values.
//!
//! Anything else is *unsupported*: an assertion that uses it is dropped, so `unsat` is
//! still sound (a subset of the assertions is unsatisfiable) but `sat` becomes `unknown`.

use super::sexpr::{SExpr, SKind};
use crate::diag::{Diagnostic, Span};
use crate::hys::ast::TypeKind;
use crate::hys::check::DeclaredVar;
use crate::hys::ir::{BoolOp, Constraint, Ir, Node, NodeId, NodeKind, RelOp};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use solver::formula::{Domain, Op, Sort};
use solver::num::{ieee, FpFormat, IntType, Rational, RoundingMode};
use std::collections::{HashMap, HashSet};

pub type TId = u32;

/// `fp.min`/`fp.max` (true for min) of two operands, by [`Elab::fkey`].
type MinMaxKey = (bool, (u8, u64), (u8, u64));

/// An elaboration failure: bad input (an SMT-LIB error) or an unsupported construct.
#[derive(Clone, Debug)]
pub enum E {
    Bad(Diagnostic),
    Unsup(Span, String),
}

pub type R<T> = Result<T, E>;

pub fn bad<T>(span: Span, msg: impl Into<String>) -> R<T> {
    Err(E::Bad(Diagnostic::error(span, msg)))
}
pub fn unsup<T>(span: Span, msg: impl Into<String>) -> R<T> {
    Err(E::Unsup(span, msg.into()))
}

/// A sort as SMT-LIB sees it: a solver sort or `RoundingMode`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ty {
    S(Sort),
    Rm,
}

/// An elaborated term.
#[derive(Clone, Copy, Debug)]
pub enum Val {
    T(TId, Sort),
    Rm(RoundingMode),
    /// a rounding mode chosen by a term: an Int in 0..=4 indexing [`RoundingMode::ALL`]
    RmT(TId),
}

/// A rounding-mode argument.
#[derive(Clone, Copy, Debug)]
pub enum RmArg {
    C(RoundingMode),
    T(TId),
}

#[derive(Clone, Debug)]
pub enum Sym {
    Var(u32, Sort),
    /// VMT: the next-state copy of a state variable
    Next(u32, Sort),
    Term(TId, Sort),
    Rm(RoundingMode),
    /// a rounding mode chosen by a term (see [`Val::RmT`])
    RmT(TId),
    Macro {
        params: Vec<(String, Ty)>,
        ret: Ty,
        body: SExpr,
    },
    /// a symbol whose declaration or definition is unsupported
    Unsup(String),
}

pub fn bv(bits: u8) -> Sort {
    Sort::MachineInt(IntType::new(bits, false))
}
fn signed(bits: u8) -> Sort {
    Sort::MachineInt(IntType::new(bits, true))
}
fn bv_width(s: Sort) -> Option<u8> {
    match s {
        Sort::MachineInt(t) if !t.signed => Some(t.bits),
        _ => None,
    }
}
fn supported_width(w: u64) -> Option<u8> {
    matches!(w, 8 | 16 | 32 | 64).then_some(w as u8)
}
fn fp_format(e: u64, s: u64) -> Option<FpFormat> {
    match (e, s) {
        (8, 24) => Some(FpFormat::F32),
        (11, 53) => Some(FpFormat::F64),
        _ => None,
    }
}
fn q(n: i64) -> Rational {
    Rational::from_integer(n.into())
}
pub fn sort_name(s: Sort) -> String {
    match s {
        Sort::Bool => "Bool".into(),
        Sort::Int => "Int".into(),
        Sort::Real => "Real".into(),
        Sort::Fp(FpFormat::F32) => "(_ FloatingPoint 8 24)".into(),
        Sort::Fp(FpFormat::F64) => "(_ FloatingPoint 11 53)".into(),
        Sort::MachineInt(t) => format!("(_ BitVec {})", t.bits),
    }
}
fn ty_name(t: Ty) -> String {
    match t {
        Ty::S(s) => sort_name(s),
        Ty::Rm => "RoundingMode".into(),
    }
}

pub fn rounding_mode(name: &str) -> Option<RoundingMode> {
    Some(match name {
        "RNE" | "roundNearestTiesToEven" => RoundingMode::Rne,
        "RNA" | "roundNearestTiesToAway" => RoundingMode::Rna,
        "RTP" | "roundTowardPositive" => RoundingMode::Rtp,
        "RTN" | "roundTowardNegative" => RoundingMode::Rtn,
        "RTZ" | "roundTowardZero" => RoundingMode::Rtz,
        _ => return None,
    })
}

/// Parses a numeral or decimal into an exact rational.
pub fn parse_decimal(s: &str) -> Option<Rational> {
    if let Some(k) = s.find(['e', 'E']) {
        let m = parse_decimal(&s[..k])?;
        let e: i64 = s[k + 1..].parse().ok()?;
        if e.unsigned_abs() > 100_000 {
            return None;
        }
        let p =
            Rational::from_integer(num_traits::pow(BigInt::from(10), e.unsigned_abs() as usize));
        return Some(if e < 0 { m / p } else { m * p });
    }
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    if int.is_empty() || !int.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if !frac.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let digits: BigInt = format!("{int}{frac}").parse().ok()?;
    let den = num_traits::pow(BigInt::from(10), frac.len());
    Some(Rational::new(digits, den))
}

/// Where a symbol resolves, and the variables' definitions and sat conditions.
pub struct Elab {
    /// the term arena: children are ids into it
    pub nodes: Vec<Node>,
    uses: Vec<u32>,
    pub vars: Vec<DeclaredVar>,
    names: HashSet<String>,
    /// definitions attached to a variable (fresh variables of encodings)
    var_defs: HashMap<u32, Vec<TId>>,
    /// conditions that must hold in a model for `sat` (exceptional cases excluded)
    var_conds: HashMap<u32, Vec<TId>>,
    named: HashMap<TId, u32>,
    minmax_memo: HashMap<MinMaxKey, TId>,
    /// VMT annotations met while elaborating: (keyword, annotated term, span)
    pub annotations: Vec<(String, TId, Span)>,
    /// per node: it is emitted as a shared variable (computed by [`Elab::plan`])
    shared: Vec<bool>,
    /// command-level scopes (`push`/`pop`), innermost last
    pub global: Vec<HashMap<String, Sym>>,
    /// `let`/macro-parameter scopes, innermost last
    locals: Locals,
    pub sort_aliases: Vec<HashMap<String, SExpr>>,
    fresh: u32,
    depth: usize,
}

const MAX_ELAB_DEPTH: usize = 20_000;

/// Ackermann constraints are added for groups of at most this many terms (quadratic).
const MAX_ACKERMANN_TERMS: usize = 40;

/// Shared terms up to this many nodes are copied rather than named.
const COPY_LIMIT: u32 = 12;

impl Default for Elab {
    fn default() -> Self {
        Elab::new()
    }
}

impl Elab {
    pub fn new() -> Elab {
        Elab {
            nodes: Vec::new(),
            uses: Vec::new(),
            vars: Vec::new(),
            names: HashSet::new(),
            var_defs: HashMap::new(),
            var_conds: HashMap::new(),
            named: HashMap::new(),
            minmax_memo: HashMap::new(),
            annotations: Vec::new(),
            shared: Vec::new(),
            global: vec![HashMap::new()],
            locals: Locals::default(),
            sort_aliases: vec![HashMap::new()],
            fresh: 0,
            depth: 0,
        }
    }

    // ---------------------------------------------------------------- arena

    fn mk(&mut self, kind: NodeKind, sort: Sort, span: Span) -> TId {
        let id = self.nodes.len() as TId;
        self.nodes.push(Node { kind, sort, span });
        self.uses.push(0);
        id
    }
    fn t(&mut self, kind: NodeKind, sort: Sort, span: Span) -> Val {
        Val::T(self.mk(kind, sort, span), sort)
    }
    fn num(&mut self, v: Rational, sort: Sort, span: Span) -> TId {
        self.mk(NodeKind::Num(v), sort, span)
    }
    fn boolc(&mut self, b: bool, span: Span) -> TId {
        self.mk(NodeKind::Bool(b), Sort::Bool, span)
    }
    fn not(&mut self, a: TId, span: Span) -> TId {
        self.mk(NodeKind::Not(a), Sort::Bool, span)
    }
    fn b2(&mut self, op: BoolOp, a: TId, b: TId, span: Span) -> TId {
        self.mk(NodeKind::Bool2(op, a, b), Sort::Bool, span)
    }
    fn rel(&mut self, op: RelOp, a: TId, b: TId, span: Span) -> TId {
        self.mk(NodeKind::Rel(op, a, b), Sort::Bool, span)
    }
    fn op(&mut self, op: Op, args: Vec<TId>, sort: Sort, span: Span) -> TId {
        self.mk(NodeKind::Op(op, args), sort, span)
    }
    fn ite(&mut self, c: TId, a: TId, b: TId, sort: Sort, span: Span) -> TId {
        self.mk(NodeKind::Ite(c, a, b), sort, span)
    }
    /// A reference to a bound term (counts toward sharing).
    fn reference(&mut self, t: TId) {
        if let Some(u) = self.uses.get_mut(t as usize) {
            *u += 1;
        }
    }
    /// Marks a term an encoding uses more than once, so it is shared rather than copied.
    fn share(&mut self, t: TId) {
        if let Some(u) = self.uses.get_mut(t as usize) {
            *u = (*u).max(2);
        }
    }
    fn const_value(&self, t: TId) -> Option<&Rational> {
        match &self.nodes[t as usize].kind {
            NodeKind::Num(v) => Some(v),
            _ => None,
        }
    }

    // ---------------------------------------------------------------- variables

    fn unique_name(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 1;
        while self.names.contains(&name) {
            k += 1;
            name = format!("{base}!{k}");
        }
        self.names.insert(name.clone());
        name
    }

    /// A new declared variable (a user's constant or a fresh one).
    pub fn new_var(&mut self, base: &str, sort: Sort, span: Span) -> u32 {
        let name = self.unique_name(base);
        let (kind, domain) = match sort {
            Sort::Bool => (TypeKind::Boole, Domain::unbounded()),
            Sort::Int => (TypeKind::Int, Domain::unbounded()),
            Sort::Real => (TypeKind::Real, Domain::unbounded()),
            Sort::Fp(FpFormat::F32) => (TypeKind::Fp32, Domain::unbounded()),
            Sort::Fp(FpFormat::F64) => (TypeKind::Fp64, Domain::unbounded()),
            Sort::MachineInt(t) => (
                TypeKind::Machine(t),
                Domain::closed(
                    Rational::from_integer(t.min_value()),
                    Rational::from_integer(t.max_value()),
                ),
            ),
        };
        let id = self.vars.len() as u32;
        self.vars.push(DeclaredVar {
            name,
            kind,
            sort,
            domain,
            is_static: false,
            span,
        });
        id
    }

    fn fresh_var(&mut self, prefix: &str, sort: Sort, span: Span) -> (u32, TId) {
        self.fresh += 1;
        let v = self.new_var(&format!("@{prefix}{}", self.fresh), sort, span);
        let t = self.var_node(v, sort, false, span);
        (v, t)
    }

    fn var_node(&mut self, var: u32, sort: Sort, primed: bool, span: Span) -> TId {
        self.mk(NodeKind::Var { var, primed }, sort, span)
    }

    fn add_def(&mut self, var: u32, def: TId) {
        self.var_defs.entry(var).or_default().push(def);
    }
    fn add_cond(&mut self, var: u32, cond: TId) {
        self.var_conds.entry(var).or_default().push(cond);
    }

    // ---------------------------------------------------------------- symbols

    pub fn define(&mut self, name: &str, sym: Sym, span: Span) -> R<()> {
        if self.global.iter().any(|s| s.contains_key(name)) || is_reserved(name) {
            return bad(span, format!("symbol '{name}' is already declared"));
        }
        if let Some(scope) = self.global.last_mut() {
            scope.insert(name.to_string(), sym);
        }
        Ok(())
    }

    fn lookup(&self, name: &str) -> Option<&Sym> {
        if let Some(x) = self.locals.map.get(name).and_then(|v| v.last()) {
            return Some(x);
        }
        for s in self.global.iter().rev() {
            if let Some(x) = s.get(name) {
                return Some(x);
            }
        }
        None
    }

    pub fn push_scope(&mut self) {
        self.global.push(HashMap::new());
        self.sort_aliases.push(HashMap::new());
    }
    pub fn pop_scope(&mut self) {
        if self.global.len() > 1 {
            self.global.pop();
            self.sort_aliases.pop();
        }
    }

    // ---------------------------------------------------------------- sorts

    pub fn sort(&self, s: &SExpr) -> R<Ty> {
        self.sort_depth(s, 0)
    }

    fn sort_depth(&self, s: &SExpr, depth: usize) -> R<Ty> {
        if depth > 100 {
            return bad(s.span, "sort definitions nest too deeply");
        }
        match &s.kind {
            SKind::Symbol(n) => {
                match n.as_str() {
                    "Bool" => return Ok(Ty::S(Sort::Bool)),
                    "Int" => return Ok(Ty::S(Sort::Int)),
                    "Real" => return Ok(Ty::S(Sort::Real)),
                    "Float32" => return Ok(Ty::S(Sort::Fp(FpFormat::F32))),
                    "Float64" => return Ok(Ty::S(Sort::Fp(FpFormat::F64))),
                    "RoundingMode" => return Ok(Ty::Rm),
                    "Float16" | "Float128" => {
                        return unsup(s.span, format!("sort {n} (only Float32 and Float64)"))
                    }
                    _ => {}
                }
                for a in self.sort_aliases.iter().rev() {
                    if let Some(def) = a.get(n) {
                        return self.sort_depth(def, depth + 1);
                    }
                }
                bad(s.span, format!("unknown sort '{n}'"))
            }
            SKind::List(l) => {
                let idx = |i: usize| -> R<u64> {
                    match l.get(i).map(|x| &x.kind) {
                        Some(SKind::Numeral(n)) => n
                            .parse::<u64>()
                            .or_else(|_| unsup(s.span, "index too large")),
                        _ => bad(s.span, "malformed indexed sort"),
                    }
                };
                match (
                    l.first().and_then(|h| h.symbol()),
                    l.get(1).and_then(|x| x.symbol()),
                ) {
                    (Some("_"), Some("BitVec")) if l.len() == 3 => {
                        let w = idx(2)?;
                        match supported_width(w) {
                            Some(w) => Ok(Ty::S(bv(w))),
                            None if w == 0 => bad(s.span, "bit-vector width 0"),
                            None => unsup(
                                s.span,
                                format!("bit-vectors of width {w} (only 8, 16, 32, 64)"),
                            ),
                        }
                    }
                    (Some("_"), Some("FloatingPoint")) if l.len() == 4 => {
                        let (e, m) = (idx(2)?, idx(3)?);
                        match fp_format(e, m) {
                            Some(f) => Ok(Ty::S(Sort::Fp(f))),
                            None if e < 2 || m < 2 => bad(s.span, "malformed floating-point sort"),
                            None => unsup(
                                s.span,
                                format!(
                                    "floating-point format ({e}, {m}) (only Float32 and Float64)"
                                ),
                            ),
                        }
                    }
                    (Some("Array"), _) => unsup(s.span, "arrays"),
                    _ => unsup(s.span, format!("sort {}", s.describe())),
                }
            }
            _ => bad(s.span, "malformed sort"),
        }
    }

    // ---------------------------------------------------------------- terms

    /// Elaborates a term that must have a value sort (not `RoundingMode`).
    pub fn term(&mut self, e: &SExpr) -> R<(TId, Sort)> {
        match self.elab(e)? {
            Val::T(t, s) => Ok((t, s)),
            Val::Rm(_) | Val::RmT(_) => bad(e.span, "a rounding mode is not a value here"),
        }
    }

    pub fn formula(&mut self, e: &SExpr) -> R<TId> {
        let (t, s) = self.term(e)?;
        if s != Sort::Bool {
            return bad(
                e.span,
                format!("expected a Bool term, found {}", sort_name(s)),
            );
        }
        Ok(t)
    }

    pub fn elab(&mut self, e: &SExpr) -> R<Val> {
        if self.depth >= MAX_ELAB_DEPTH {
            return unsup(e.span, "terms nested too deeply");
        }
        // the time and memory limits, once per term elaborated (macro expansion included);
        // the script asks `solver::budget::stopped()` for the typed reason
        if let Err(stop) = solver::budget::check() {
            return bad(e.span, stop.text());
        }
        self.depth += 1;
        let r = self.elab_inner(e);
        self.depth -= 1;
        r
    }

    fn elab_inner(&mut self, e: &SExpr) -> R<Val> {
        let span = e.span;
        match &e.kind {
            SKind::Numeral(n) => {
                let v = parse_decimal(n)
                    .ok_or_else(|| E::Bad(Diagnostic::error(span, "bad numeral")))?;
                Ok(self.t(NodeKind::Num(v), Sort::Int, span))
            }
            SKind::Decimal(n) => {
                let v = parse_decimal(n)
                    .ok_or_else(|| E::Bad(Diagnostic::error(span, "bad decimal")))?;
                Ok(self.t(NodeKind::Num(v), Sort::Real, span))
            }
            SKind::Hex(h) => {
                let w = h.len() * 4;
                let v = BigInt::parse_bytes(h.as_bytes(), 16).unwrap_or_default();
                self.bv_literal(v, w, span)
            }
            SKind::Binary(b) => {
                let w = b.len();
                let v = BigInt::parse_bytes(b.as_bytes(), 2).unwrap_or_default();
                self.bv_literal(v, w, span)
            }
            SKind::Str(_) => unsup(span, "strings"),
            SKind::Keyword(_) => bad(span, "unexpected keyword"),
            SKind::Symbol(name) => self.symbol(name, span),
            SKind::List(items) => self.app(items, span),
        }
    }

    fn bv_literal(&mut self, v: BigInt, w: usize, span: Span) -> R<Val> {
        match supported_width(w as u64) {
            Some(w) => Ok(self.t(NodeKind::Num(Rational::from_integer(v)), bv(w), span)),
            None => unsup(
                span,
                format!("bit-vectors of width {w} (only 8, 16, 32, 64)"),
            ),
        }
    }

    fn symbol(&mut self, name: &str, span: Span) -> R<Val> {
        if let Some(sym) = self.lookup(name).cloned() {
            return match sym {
                Sym::Var(v, s) => Ok(Val::T(self.var_node(v, s, false, span), s)),
                Sym::Next(v, s) => Ok(Val::T(self.var_node(v, s, true, span), s)),
                Sym::Term(t, s) => {
                    self.reference(t);
                    Ok(Val::T(t, s))
                }
                Sym::Rm(m) => Ok(Val::Rm(m)),
                Sym::RmT(t) => {
                    self.reference(t);
                    Ok(Val::RmT(t))
                }
                Sym::Macro { params, .. } if params.is_empty() => self.apply_macro(name, &[], span),
                Sym::Macro { .. } => bad(span, format!("'{name}' needs arguments")),
                Sym::Unsup(why) => unsup(span, why),
            };
        }
        match name {
            "true" => Ok(Val::T(self.boolc(true, span), Sort::Bool)),
            "false" => Ok(Val::T(self.boolc(false, span), Sort::Bool)),
            "pi" | "real.pi" => unsup(span, "the constant pi"),
            _ => {
                // dReal writes negative constants as `-2.5`
                if let Some(v) = name.strip_prefix('-').and_then(parse_decimal) {
                    let sort = if name.contains(['.', 'e', 'E']) {
                        Sort::Real
                    } else {
                        Sort::Int
                    };
                    return Ok(self.t(NodeKind::Num(-v), sort, span));
                }
                if let Some(m) = rounding_mode(name) {
                    return Ok(Val::Rm(m));
                }
                bad(span, format!("unknown constant '{name}'"))
            }
        }
    }

    fn apply_macro(&mut self, name: &str, args: &[Val], span: Span) -> R<Val> {
        let Some(Sym::Macro { params, ret, body }) = self.lookup(name).cloned() else {
            return bad(span, format!("unknown function '{name}'"));
        };
        if params.len() != args.len() {
            return bad(
                span,
                format!(
                    "'{name}' takes {} argument(s), {} given",
                    params.len(),
                    args.len()
                ),
            );
        }
        let mut scope = HashMap::new();
        for ((p, ty), a) in params.iter().zip(args) {
            let sym = match (ty, a) {
                (Ty::Rm, Val::Rm(m)) => Sym::Rm(*m),
                (Ty::Rm, Val::RmT(t)) => Sym::RmT(*t),
                (Ty::S(s), Val::T(t, st)) if s == st || (arith(*s) && arith(*st)) => {
                    Sym::Term(*t, *s)
                }
                _ => {
                    return bad(
                        span,
                        format!("argument '{p}' of '{name}' must have sort {}", ty_name(*ty)),
                    )
                }
            };
            scope.insert(p.clone(), sym);
        }
        let mut fresh = Locals::default();
        fresh.push(scope);
        let saved = std::mem::replace(&mut self.locals, fresh);
        let r = self.elab(&body);
        self.locals = saved;
        let v = r?;
        match (ret, v) {
            (Ty::Rm, Val::Rm(_) | Val::RmT(_)) => Ok(v),
            (Ty::S(s), Val::T(_, st)) if s == st || (arith(s) && arith(st)) => Ok(v),
            _ => bad(span, format!("'{name}' does not return {}", ty_name(ret))),
        }
    }

    fn app(&mut self, items: &[SExpr], span: Span) -> R<Val> {
        let Some(head) = items.first() else {
            return bad(span, "empty application");
        };
        match &head.kind {
            SKind::Symbol(h) => match h.as_str() {
                "let" => return self.let_(items, span),
                "!" => return self.annotated(items, span),
                "forall" | "exists" => return unsup(span, "quantifiers"),
                "match" => return unsup(span, "match"),
                "_" => return self.indexed_constant(items, span),
                // its arguments are bit strings of any width: read them as literals
                "fp" if self.lookup("fp").is_none() => return self.fp_literal(&items[1..], span),
                _ => {}
            },
            SKind::List(l) => {
                // ((_ f i...) args) or ((as ...) ...)
                if l.first().and_then(|x| x.symbol()) == Some("_") {
                    let mut args = Vec::with_capacity(items.len() - 1);
                    for a in &items[1..] {
                        args.push(self.elab(a)?);
                    }
                    return self.indexed_app(l, &items[1..], &args, span);
                }
                return unsup(span, format!("application of {}", head.describe()));
            }
            _ => return bad(head.span, "a function name is expected"),
        }
        let name = head.symbol().unwrap_or_default().to_string();
        let mut args = Vec::with_capacity(items.len() - 1);
        for a in &items[1..] {
            args.push(self.elab(a)?);
        }
        if let Some(sym) = self.lookup(&name) {
            return match sym {
                Sym::Macro { .. } => self.apply_macro(&name, &args, span),
                Sym::Unsup(why) => unsup(span, why.clone()),
                _ => bad(head.span, format!("'{name}' is not a function")),
            };
        }
        self.builtin(&name, &items[1..], &args, span)
    }

    fn let_(&mut self, items: &[SExpr], span: Span) -> R<Val> {
        let (Some(binds), Some(body), 3) = (
            items.get(1).and_then(|b| b.list()),
            items.get(2),
            items.len(),
        ) else {
            return bad(span, "malformed let");
        };
        let mut scope = HashMap::new();
        for b in binds {
            let Some([n, t]) = b.list().and_then(|l| <&[SExpr; 2]>::try_from(l).ok()) else {
                return bad(b.span, "malformed let binding");
            };
            let Some(n) = n.symbol() else {
                return bad(b.span, "malformed let binding");
            };
            let sym = match self.elab(t)? {
                Val::T(t, s) => Sym::Term(t, s),
                Val::Rm(m) => Sym::Rm(m),
                Val::RmT(t) => Sym::RmT(t),
            };
            if scope.insert(n.to_string(), sym).is_some() {
                return bad(b.span, format!("'{n}' is bound twice"));
            }
        }
        self.locals.push(scope);
        let r = self.elab(body);
        self.locals.pop();
        r
    }

    fn annotated(&mut self, items: &[SExpr], span: Span) -> R<Val> {
        let Some(t) = items.get(1) else {
            return bad(span, "malformed annotation");
        };
        let v = self.elab(t)?;
        let mut i = 2;
        while i < items.len() {
            match &items[i].kind {
                SKind::Keyword(k) if k == "named" => {
                    let Some(n) = items.get(i + 1).and_then(|x| x.symbol()) else {
                        return bad(items[i].span, ":named needs a symbol");
                    };
                    let sym = match v {
                        Val::T(t, s) => Sym::Term(t, s),
                        Val::Rm(m) => Sym::Rm(m),
                        Val::RmT(t) => Sym::RmT(t),
                    };
                    self.define(n, sym, items[i + 1].span)?;
                    i += 2;
                }
                SKind::Keyword(k) => {
                    if let ("init" | "trans" | "invar-property" | "live-property", Val::T(t, _)) =
                        (k.as_str(), v)
                    {
                        self.annotations.push((k.clone(), t, items[i].span));
                    }
                    i += 1;
                    if i < items.len() && !matches!(items[i].kind, SKind::Keyword(_)) {
                        i += 1;
                    }
                }
                _ => return bad(items[i].span, "attribute expected"),
            }
        }
        Ok(v)
    }

    fn indexed_constant(&mut self, items: &[SExpr], span: Span) -> R<Val> {
        let name = items.get(1).and_then(|x| x.symbol()).unwrap_or("");
        let nums: Vec<Option<BigInt>> = items
            .get(2..)
            .unwrap_or(&[])
            .iter()
            .map(|x| match &x.kind {
                SKind::Numeral(n) => n.parse().ok(),
                _ => None,
            })
            .collect();
        let num = |i: usize| nums.get(i).cloned().flatten();
        if let Some(v) = name.strip_prefix("bv") {
            if let (Ok(v), Some(w), 3) = (v.parse::<BigInt>(), num(0), items.len()) {
                let w = w.to_u64().unwrap_or(0);
                let Some(w) = supported_width(w) else {
                    return unsup(
                        span,
                        format!("bit-vectors of width {w} (only 8, 16, 32, 64)"),
                    );
                };
                let t = IntType::new(w, false);
                return Ok(self.t(
                    NodeKind::Num(Rational::from_integer(t.wrap(&v))),
                    bv(w),
                    span,
                ));
            }
            return bad(span, "malformed bit-vector constant");
        }
        let (Some(e), Some(s), 4) = (num(0), num(1), items.len()) else {
            return bad(span, format!("unknown indexed constant '{name}'"));
        };
        let Some(f) = fp_format(e.to_u64().unwrap_or(0), s.to_u64().unwrap_or(0)) else {
            return unsup(
                span,
                "floating-point formats other than Float32 and Float64",
            );
        };
        let bits = match name {
            "+zero" => 0,
            "-zero" => 1u64 << (f.total_bits() - 1),
            "+oo" => f.inf_bits(),
            "-oo" => f.inf_bits() | (1u64 << (f.total_bits() - 1)),
            "NaN" => f.nan_bits(),
            _ => return bad(span, format!("unknown indexed constant '{name}'")),
        };
        Ok(self.t(NodeKind::Fp(bits), Sort::Fp(f), span))
    }

    // ------------------------------------------------------------- argument helpers

    fn vals(&self, args: &[Val], span: Span) -> R<Vec<(TId, Sort)>> {
        args.iter()
            .map(|a| match a {
                Val::T(t, s) => Ok((*t, *s)),
                Val::Rm(_) | Val::RmT(_) => bad(span, "unexpected rounding mode"),
            })
            .collect()
    }

    fn arity(name: &str, args: &[Val], n: usize, span: Span) -> R<()> {
        if args.len() != n {
            return bad(
                span,
                format!("'{name}' takes {n} argument(s), {} given", args.len()),
            );
        }
        Ok(())
    }

    fn bools(&self, name: &str, args: &[Val], span: Span) -> R<Vec<TId>> {
        let v = self.vals(args, span)?;
        if v.iter().any(|(_, s)| *s != Sort::Bool) {
            return bad(span, format!("'{name}' needs Bool arguments"));
        }
        Ok(v.into_iter().map(|(t, _)| t).collect())
    }

    /// Int/Real arguments; the result sort is Real when any is Real.
    fn ariths(&self, name: &str, args: &[Val], span: Span) -> R<(Vec<TId>, Sort)> {
        let v = self.vals(args, span)?;
        if v.is_empty() || v.iter().any(|(_, s)| !arith(*s)) {
            return bad(span, format!("'{name}' needs Int or Real arguments"));
        }
        let sort = if v.iter().any(|(_, s)| *s == Sort::Real) {
            Sort::Real
        } else {
            Sort::Int
        };
        Ok((v.into_iter().map(|(t, _)| t).collect(), sort))
    }

    fn ints(&self, name: &str, args: &[Val], span: Span) -> R<Vec<TId>> {
        let v = self.vals(args, span)?;
        if v.iter().any(|(_, s)| *s != Sort::Int) {
            return bad(span, format!("'{name}' needs Int arguments"));
        }
        Ok(v.into_iter().map(|(t, _)| t).collect())
    }

    /// Arguments of one fp format (after `skip` rounding-mode arguments).
    fn fps(&self, name: &str, args: &[Val], span: Span) -> R<(Vec<TId>, FpFormat)> {
        let v = self.vals(args, span)?;
        let f = match v.first() {
            Some((_, Sort::Fp(f))) => *f,
            _ => return bad(span, format!("'{name}' needs floating-point arguments")),
        };
        if v.iter().any(|(_, s)| *s != Sort::Fp(f)) {
            return bad(
                span,
                format!("'{name}' needs arguments of one floating-point sort"),
            );
        }
        Ok((v.into_iter().map(|(t, _)| t).collect(), f))
    }

    fn bvs(&self, name: &str, args: &[Val], span: Span) -> R<(Vec<TId>, u8)> {
        let v = self.vals(args, span)?;
        let w = match v.first().and_then(|(_, s)| bv_width(*s)) {
            Some(w) => w,
            None => return bad(span, format!("'{name}' needs bit-vector arguments")),
        };
        if v.iter().any(|(_, s)| *s != bv(w)) {
            return bad(span, format!("'{name}' needs bit-vectors of one width"));
        }
        Ok((v.into_iter().map(|(t, _)| t).collect(), w))
    }

    fn rm(&self, name: &str, a: Option<&Val>, span: Span) -> R<RmArg> {
        match a {
            Some(Val::Rm(m)) => Ok(RmArg::C(*m)),
            Some(Val::RmT(t)) => Ok(RmArg::T(*t)),
            _ => bad(span, format!("'{name}' needs a rounding mode first")),
        }
    }

    /// An operation under a rounding mode: one application for a constant mode, an `ite`
    /// over the five modes for a mode chosen by a term (the operands are shared).
    fn rounded(
        &mut self,
        m: RmArg,
        operands: &[TId],
        sort: Sort,
        span: Span,
        make: impl Fn(&mut Self, RoundingMode) -> TId,
    ) -> TId {
        match m {
            RmArg::C(m) => make(self, m),
            RmArg::T(t) => {
                self.share(t);
                operands.iter().for_each(|&x| self.share(x));
                let mut acc = make(self, RoundingMode::Rtz);
                for (i, &mode) in RoundingMode::ALL.iter().enumerate().rev().skip(1) {
                    let k = self.num(q(i as i64), Sort::Int, span);
                    let c = self.rel(RelOp::Eq, t, k, span);
                    let x = make(self, mode);
                    acc = self.ite(c, x, acc, sort, span);
                }
                acc
            }
        }
    }

    /// The Int index of a rounding-mode value.
    fn rm_index(&mut self, v: &Val, span: Span) -> Option<TId> {
        match v {
            Val::Rm(m) => {
                let i = RoundingMode::ALL.iter().position(|x| x == m).unwrap_or(0);
                Some(self.num(q(i as i64), Sort::Int, span))
            }
            Val::RmT(t) => Some(*t),
            Val::T(..) => None,
        }
    }

    /// A declared rounding-mode constant: an Int in 0..=4.
    pub fn rm_var(&mut self, name: &str, span: Span) -> Sym {
        let v = self.new_var(name, Sort::Int, span);
        let t = self.var_node(v, Sort::Int, false, span);
        let lo = self.num(q(0), Sort::Int, span);
        let hi = self.num(q(4), Sort::Int, span);
        let a = self.rel(RelOp::Ge, t, lo, span);
        let b = self.rel(RelOp::Le, t, hi, span);
        let d = self.b2(BoolOp::And, a, b, span);
        self.add_def(v, d);
        Sym::RmT(t)
    }

    /// Left-associative fold.
    fn fold(&mut self, ts: &[TId], f: impl Fn(&mut Self, TId, TId) -> TId) -> TId {
        let mut acc = ts[0];
        for &t in &ts[1..] {
            acc = f(self, acc, t);
        }
        acc
    }

    /// Conjunction of `f(a_i, a_{i+1})` over a chain.
    fn chain(&mut self, ts: &[TId], span: Span, f: impl Fn(&mut Self, TId, TId) -> TId) -> TId {
        if ts.len() > 2 {
            for &t in &ts[1..ts.len() - 1] {
                self.share(t);
            }
        }
        let mut acc: Option<TId> = None;
        for w in ts.windows(2) {
            let c = f(self, w[0], w[1]);
            acc = Some(match acc {
                None => c,
                Some(a) => self.b2(BoolOp::And, a, c, span),
            });
        }
        acc.unwrap_or_else(|| self.boolc(true, span))
    }

    // ------------------------------------------------------------- built-in functions

    fn builtin(&mut self, name: &str, raw: &[SExpr], args: &[Val], span: Span) -> R<Val> {
        let n = args.len();
        let b = Sort::Bool;
        match name {
            "not" => {
                Self::arity(name, args, 1, span)?;
                let a = self.bools(name, args, span)?;
                Ok(Val::T(self.not(a[0], span), b))
            }
            "and" | "or" | "xor" | "=>" => {
                let a = self.bools(name, args, span)?;
                if a.is_empty() {
                    return Ok(Val::T(self.boolc(name == "and", span), b));
                }
                if a.len() == 1 && name != "=>" {
                    return Ok(Val::T(a[0], b));
                }
                if a.len() < 2 {
                    return bad(span, "'=>' needs two or more arguments");
                }
                let t = match name {
                    "and" => self.fold(&a, |s, x, y| s.b2(BoolOp::And, x, y, span)),
                    "or" => self.fold(&a, |s, x, y| s.b2(BoolOp::Or, x, y, span)),
                    "xor" => self.fold(&a, |s, x, y| s.b2(BoolOp::Xor, x, y, span)),
                    _ => {
                        // right-associative
                        let mut acc = a[a.len() - 1];
                        for &x in a[..a.len() - 1].iter().rev() {
                            acc = self.b2(BoolOp::Impl, x, acc, span);
                        }
                        acc
                    }
                };
                Ok(Val::T(t, b))
            }
            "=" | "distinct" => {
                if n < 2 {
                    return bad(span, format!("'{name}' needs two or more arguments"));
                }
                if matches!(args.first(), Some(Val::Rm(_) | Val::RmT(_))) {
                    return self.rm_equal(name, args, span);
                }
                let v = self.vals(args, span)?;
                let s0 = v[0].1;
                let ok = v.iter().all(|(_, s)| *s == s0 || (arith(*s) && arith(s0)));
                if !ok {
                    return bad(span, format!("'{name}' needs arguments of one sort"));
                }
                let ts: Vec<TId> = v.iter().map(|x| x.0).collect();
                let eq = |s: &mut Self, x: TId, y: TId| {
                    if s0 == Sort::Bool {
                        s.b2(BoolOp::Iff, x, y, span)
                    } else {
                        s.rel(RelOp::Eq, x, y, span)
                    }
                };
                if name == "distinct" && ts.len() > 2 {
                    ts.iter().for_each(|&t| self.share(t));
                }
                let t = if name == "=" {
                    self.chain(&ts, span, eq)
                } else {
                    let mut acc: Option<TId> = None;
                    for i in 0..ts.len() {
                        for j in i + 1..ts.len() {
                            let e = eq(self, ts[i], ts[j]);
                            let d = self.not(e, span);
                            acc = Some(match acc {
                                None => d,
                                Some(a) => self.b2(BoolOp::And, a, d, span),
                            });
                        }
                    }
                    acc.unwrap_or_else(|| self.boolc(true, span))
                };
                Ok(Val::T(t, b))
            }
            "ite" => {
                Self::arity(name, args, 3, span)?;
                if let Val::T(c, Sort::Bool) = args[0] {
                    let (x, y) = (args[1], args[2]);
                    if let (Some(a), Some(b)) = (self.rm_index(&x, span), self.rm_index(&y, span)) {
                        return Ok(Val::RmT(self.ite(c, a, b, Sort::Int, span)));
                    }
                }
                let v = self.vals(args, span)?;
                if v[0].1 != Sort::Bool {
                    return bad(span, "the condition of 'ite' must be Bool");
                }
                let (s1, s2) = (v[1].1, v[2].1);
                let sort = if s1 == s2 {
                    s1
                } else if arith(s1) && arith(s2) {
                    Sort::Real
                } else {
                    return bad(span, "the branches of 'ite' must have one sort");
                };
                Ok(Val::T(self.ite(v[0].0, v[1].0, v[2].0, sort, span), sort))
            }
            // ---------------- Int / Real
            "+" | "*" => {
                let (a, s) = self.ariths(name, args, span)?;
                let t = if name == "+" {
                    self.fold(&a, |e, x, y| e.mk(NodeKind::Add(x, y), s, span))
                } else {
                    self.fold(&a, |e, x, y| e.mk(NodeKind::Mul(x, y), s, span))
                };
                Ok(Val::T(t, s))
            }
            "-" => {
                let (a, s) = self.ariths(name, args, span)?;
                let t = if a.len() == 1 {
                    self.mk(NodeKind::Neg(a[0]), s, span)
                } else {
                    self.fold(&a, |e, x, y| e.mk(NodeKind::Sub(x, y), s, span))
                };
                Ok(Val::T(t, s))
            }
            "/" => {
                let (a, _) = self.ariths(name, args, span)?;
                if a.len() < 2 {
                    return bad(span, "'/' needs two or more arguments");
                }
                let t = self.fold(&a, |e, x, y| e.mk(NodeKind::Div(x, y), Sort::Real, span));
                Ok(Val::T(t, Sort::Real))
            }
            "div" | "mod" => {
                Self::arity(name, args, 2, span)?;
                let a = self.ints(name, args, span)?;
                let (qt, rt) = self.euclid(a[0], a[1], span);
                Ok(Val::T(if name == "div" { qt } else { rt }, Sort::Int))
            }
            "abs" => {
                Self::arity(name, args, 1, span)?;
                let (a, s) = self.ariths(name, args, span)?;
                Ok(Val::T(self.op(Op::Abs, a, s, span), s))
            }
            "min" | "max" => {
                let (a, s) = self.ariths(name, args, span)?;
                let op = if name == "min" { Op::Min } else { Op::Max };
                let t = self.fold(&a, |e, x, y| e.op(op.clone(), vec![x, y], s, span));
                Ok(Val::T(t, s))
            }
            "to_real" => {
                Self::arity(name, args, 1, span)?;
                let (a, _) = self.ariths(name, args, span)?;
                // an Int value is a Real value; keep the node (its sort only tells integrality)
                Ok(Val::T(a[0], Sort::Real))
            }
            "to_int" | "is_int" => {
                Self::arity(name, args, 1, span)?;
                let (a, _) = self.ariths(name, args, span)?;
                self.share(a[0]);
                let (kv, k) = self.fresh_var("k", Sort::Int, span);
                // k <= x < k + 1
                let one = self.num(q(1), Sort::Int, span);
                let k1 = self.mk(NodeKind::Add(k, one), Sort::Int, span);
                let lo = self.rel(RelOp::Le, k, a[0], span);
                let hi = self.rel(RelOp::Lt, a[0], k1, span);
                let d = self.b2(BoolOp::And, lo, hi, span);
                self.add_def(kv, d);
                if name == "to_int" {
                    Ok(Val::T(k, Sort::Int))
                } else {
                    Ok(Val::T(self.rel(RelOp::Eq, a[0], k, span), b))
                }
            }
            "<" | "<=" | ">" | ">=" => {
                let v = self.vals(args, span)?;
                if v.len() < 2 {
                    return bad(span, format!("'{name}' needs two or more arguments"));
                }
                let (a, _) = self.ariths(name, args, span)?;
                let op = match name {
                    "<" => RelOp::Lt,
                    "<=" => RelOp::Le,
                    ">" => RelOp::Gt,
                    _ => RelOp::Ge,
                };
                Ok(Val::T(
                    self.chain(&a, span, |e, x, y| e.rel(op, x, y, span)),
                    b,
                ))
            }
            "^" | "pow" => {
                Self::arity(name, args, 2, span)?;
                let (a, s) = self.ariths(name, args, span)?;
                let Some(k) = self.const_value(a[1]).cloned() else {
                    return unsup(span, "powers with a variable exponent");
                };
                if !k.is_integer() || k.abs() > q(1000) {
                    return unsup(span, "powers with a non-integer or huge exponent");
                }
                let k = k.to_integer().to_i64().unwrap_or(0);
                let base = a[0];
                let p = match k.unsigned_abs() {
                    0 => self.num(q(1), s, span),
                    1 => base,
                    m => self.mk(NodeKind::Pow(base, m as u32), s, span),
                };
                if k < 0 {
                    let one = self.num(q(1), Sort::Real, span);
                    return Ok(Val::T(
                        self.mk(NodeKind::Div(one, p), Sort::Real, span),
                        Sort::Real,
                    ));
                }
                Ok(Val::T(p, s))
            }
            "sin" | "cos" | "tan" | "exp" | "log" | "sqrt" => {
                Self::arity(name, args, 1, span)?;
                let (a, _) = self.ariths(name, args, span)?;
                let op = match name {
                    "sin" => Op::Sin,
                    "cos" => Op::Cos,
                    "tan" => Op::Tan,
                    "exp" => Op::Exp,
                    "log" => Op::Log,
                    _ => Op::Nrt(2),
                };
                Ok(Val::T(self.op(op, a, Sort::Real, span), Sort::Real))
            }
            "sinh" | "cosh" | "tanh" => {
                // exact identities over exp
                Self::arity(name, args, 1, span)?;
                let (a, _) = self.ariths(name, args, span)?;
                let r = Sort::Real;
                self.share(a[0]);
                let ex = self.op(Op::Exp, vec![a[0]], r, span);
                let neg = self.mk(NodeKind::Neg(a[0]), r, span);
                let emx = self.op(Op::Exp, vec![neg], r, span);
                self.share(ex);
                self.share(emx);
                let t = match name {
                    "sinh" | "cosh" => {
                        let k = if name == "sinh" {
                            NodeKind::Sub(ex, emx)
                        } else {
                            NodeKind::Add(ex, emx)
                        };
                        let s = self.mk(k, r, span);
                        let two = self.num(q(2), r, span);
                        self.mk(NodeKind::Div(s, two), r, span)
                    }
                    _ => {
                        let num = self.mk(NodeKind::Sub(ex, emx), r, span);
                        let den = self.mk(NodeKind::Add(ex, emx), r, span);
                        self.mk(NodeKind::Div(num, den), r, span)
                    }
                };
                Ok(Val::T(t, r))
            }
            // ---------------- floating point
            "fp" => self.fp_literal(raw, span),
            "fp.abs" | "fp.neg" => {
                Self::arity(name, args, 1, span)?;
                let (a, f) = self.fps(name, args, span)?;
                let op = if name == "fp.abs" { Op::FAbs } else { Op::FNeg };
                Ok(Val::T(self.op(op, a, Sort::Fp(f), span), Sort::Fp(f)))
            }
            "fp.add" | "fp.sub" | "fp.mul" | "fp.div" => {
                Self::arity(name, args, 3, span)?;
                let m = self.rm(name, args.first(), span)?;
                let (a, f) = self.fps(name, &args[1..], span)?;
                let s = Sort::Fp(f);
                let t = self.rounded(m, &a, s, span, |e, m| {
                    let op = match name {
                        "fp.add" => Op::FAdd(m),
                        "fp.sub" => Op::FSub(m),
                        "fp.mul" => Op::FMul(m),
                        _ => Op::FDiv(m),
                    };
                    e.op(op, a.clone(), s, span)
                });
                Ok(Val::T(t, s))
            }
            "fp.fma" => {
                Self::arity(name, args, 4, span)?;
                let m = self.rm(name, args.first(), span)?;
                let (a, f) = self.fps(name, &args[1..], span)?;
                let s = Sort::Fp(f);
                let t = self.rounded(m, &a, s, span, |e, m| e.op(Op::FFma(m), a.clone(), s, span));
                Ok(Val::T(t, s))
            }
            "fp.sqrt" => {
                Self::arity(name, args, 2, span)?;
                let m = self.rm(name, args.first(), span)?;
                let (a, f) = self.fps(name, &args[1..], span)?;
                let s = Sort::Fp(f);
                let t = self.rounded(m, &a, s, span, |e, m| {
                    e.op(Op::FSqrt(m), a.clone(), s, span)
                });
                Ok(Val::T(t, s))
            }
            "fp.rem" | "fp.roundToIntegral" => unsup(span, format!("'{name}'")),
            "fp.min" | "fp.max" => {
                Self::arity(name, args, 2, span)?;
                let (a, f) = self.fps(name, args, span)?;
                Ok(Val::T(
                    self.fp_minmax(name == "fp.min", a[0], a[1], f, span),
                    Sort::Fp(f),
                ))
            }
            "fp.leq" | "fp.lt" | "fp.geq" | "fp.gt" | "fp.eq" => {
                if n < 2 {
                    return bad(span, format!("'{name}' needs two or more arguments"));
                }
                let (a, _) = self.fps(name, args, span)?;
                let t = self.chain(&a, span, |e, x, y| match name {
                    "fp.leq" => e.rel(RelOp::Le, x, y, span),
                    "fp.lt" => e.rel(RelOp::Lt, x, y, span),
                    "fp.geq" => e.rel(RelOp::Ge, x, y, span),
                    "fp.gt" => e.rel(RelOp::Gt, x, y, span),
                    _ => e.op(Op::FEq, vec![x, y], Sort::Bool, span),
                });
                Ok(Val::T(t, b))
            }
            "fp.isNormal" | "fp.isSubnormal" | "fp.isZero" | "fp.isInfinite" | "fp.isNaN"
            | "fp.isNegative" | "fp.isPositive" => {
                Self::arity(name, args, 1, span)?;
                let (a, _) = self.fps(name, args, span)?;
                self.share(a[0]);
                let p = |e: &mut Self, op: Op| e.op(op, vec![a[0]], Sort::Bool, span);
                let t = match name {
                    "fp.isNormal" => p(self, Op::IsNormal),
                    "fp.isSubnormal" => p(self, Op::IsSubnormal),
                    "fp.isZero" => p(self, Op::IsZero),
                    "fp.isInfinite" => p(self, Op::IsInf),
                    "fp.isNaN" => p(self, Op::IsNan),
                    _ => {
                        let nan = p(self, Op::IsNan);
                        let notnan = self.not(nan, span);
                        let neg = p(self, Op::IsNeg);
                        let sign = if name == "fp.isNegative" {
                            neg
                        } else {
                            self.not(neg, span)
                        };
                        self.b2(BoolOp::And, notnan, sign, span)
                    }
                };
                Ok(Val::T(t, b))
            }
            "fp.to_real" => {
                Self::arity(name, args, 1, span)?;
                let (a, _) = self.fps(name, args, span)?;
                Ok(Val::T(
                    self.op(Op::FpToReal, a, Sort::Real, span),
                    Sort::Real,
                ))
            }
            // ---------------- bit-vectors
            "bvadd" | "bvmul" | "bvand" | "bvor" | "bvxor" => {
                let (a, w) = self.bvs(name, args, span)?;
                if a.len() < 2 {
                    return bad(span, format!("'{name}' needs two or more arguments"));
                }
                let op = match name {
                    "bvadd" => Op::BvAdd,
                    "bvmul" => Op::BvMul,
                    "bvand" => Op::BvAnd,
                    "bvor" => Op::BvOr,
                    _ => Op::BvXor,
                };
                let t = self.fold(&a, |e, x, y| e.op(op.clone(), vec![x, y], bv(w), span));
                Ok(Val::T(t, bv(w)))
            }
            "bvsub" | "bvnand" | "bvnor" | "bvxnor" => {
                Self::arity(name, args, 2, span)?;
                let (a, w) = self.bvs(name, args, span)?;
                let s = bv(w);
                let t = match name {
                    "bvsub" => self.op(Op::BvSub, a, s, span),
                    _ => {
                        let op = match name {
                            "bvnand" => Op::BvAnd,
                            "bvnor" => Op::BvOr,
                            _ => Op::BvXor,
                        };
                        let x = self.op(op, a, s, span);
                        self.op(Op::BvNot, vec![x], s, span)
                    }
                };
                Ok(Val::T(t, s))
            }
            "bvneg" | "bvnot" => {
                Self::arity(name, args, 1, span)?;
                let (a, w) = self.bvs(name, args, span)?;
                let op = if name == "bvneg" {
                    Op::BvNeg
                } else {
                    Op::BvNot
                };
                Ok(Val::T(self.op(op, a, bv(w), span), bv(w)))
            }
            "bvudiv" | "bvurem" | "bvsdiv" | "bvsrem" | "bvsmod" | "bvshl" | "bvlshr"
            | "bvashr" => {
                Self::arity(name, args, 2, span)?;
                let (a, w) = self.bvs(name, args, span)?;
                Ok(Val::T(self.bv_binary(name, a[0], a[1], w, span), bv(w)))
            }
            "bvult" | "bvule" | "bvugt" | "bvuge" | "bvslt" | "bvsle" | "bvsgt" | "bvsge" => {
                Self::arity(name, args, 2, span)?;
                let (mut a, w) = self.bvs(name, args, span)?;
                if name.starts_with("bvs") {
                    for x in a.iter_mut() {
                        *x = self.op(Op::BvCast, vec![*x], signed(w), span);
                    }
                }
                let op = match &name[3..] {
                    "lt" => RelOp::Lt,
                    "le" => RelOp::Le,
                    "gt" => RelOp::Gt,
                    _ => RelOp::Ge,
                };
                Ok(Val::T(self.rel(op, a[0], a[1], span), b))
            }
            "concat" => {
                Self::arity(name, args, 2, span)?;
                let v = self.vals(args, span)?;
                let (Some(wa), Some(wb)) = (bv_width(v[0].1), bv_width(v[1].1)) else {
                    return bad(span, "'concat' needs bit-vector arguments");
                };
                let Some(w) = supported_width(wa as u64 + wb as u64) else {
                    return unsup(span, "bit-vector widths other than 8, 16, 32, 64");
                };
                let s = bv(w);
                let hi = self.op(Op::BvCast, vec![v[0].0], s, span);
                let lo = self.op(Op::BvCast, vec![v[1].0], s, span);
                let k = self.num(q(wb as i64), s, span);
                let sh = self.op(Op::BvShl, vec![hi, k], s, span);
                Ok(Val::T(self.op(Op::BvOr, vec![sh, lo], s, span), s))
            }
            "bvcomp" | "bvuaddo" | "bvsaddo" | "bvumulo" | "bvsmulo" | "bvusubo" | "bvssubo"
            | "bvsdivo" | "bvnego" => unsup(span, format!("'{name}'")),
            "select" | "store" => unsup(span, "arrays"),
            "arctan" | "arcsin" | "arccos" | "atan" | "asin" | "acos" | "atan2" | "arctan2"
            | "cot" | "sec" | "csc" | "arccot" | "arcsec" | "arccsc" | "exp2" | "log2" => {
                unsup(span, format!("'{name}'"))
            }
            // an unknown function is most likely another solver's extension (`int.pow2`,
            // `piand`): the assertion is dropped rather than the script refused
            _ => unsup(span, format!("unknown function '{name}'")),
        }
    }

    fn rm_equal(&mut self, name: &str, args: &[Val], span: Span) -> R<Val> {
        let mut ts = Vec::new();
        for a in args {
            match self.rm_index(a, span) {
                Some(t) => ts.push(t),
                None => return bad(span, format!("'{name}' needs arguments of one sort")),
            }
        }
        let t = if name == "=" {
            self.chain(&ts, span, |e, x, y| e.rel(RelOp::Eq, x, y, span))
        } else {
            ts.iter().for_each(|&t| self.share(t));
            let mut acc = self.boolc(true, span);
            for i in 0..ts.len() {
                for j in i + 1..ts.len() {
                    let d = self.rel(RelOp::Ne, ts[i], ts[j], span);
                    acc = self.b2(BoolOp::And, acc, d, span);
                }
            }
            acc
        };
        Ok(Val::T(t, Sort::Bool))
    }

    /// Euclidean `(div a b)`, `(mod a b)`: fresh `q`, `r` with their definitions.
    fn euclid(&mut self, a: TId, b: TId, span: Span) -> (TId, TId) {
        self.share(b);
        let (qv, qt) = self.fresh_var("q", Sort::Int, span);
        let (rv, rt) = self.fresh_var("r", Sort::Int, span);
        let i = Sort::Int;
        // a = b*q + r
        let bq = match self.const_value(b).cloned() {
            Some(c) => {
                let c = self.num(c, i, span);
                self.mk(NodeKind::Mul(c, qt), i, span)
            }
            None => self.mk(NodeKind::Mul(b, qt), i, span),
        };
        let sum = self.mk(NodeKind::Add(bq, rt), i, span);
        let eq = self.rel(RelOp::Eq, a, sum, span);
        let zero = self.num(q(0), i, span);
        let lo = self.rel(RelOp::Ge, rt, zero, span);
        // r < |b|
        let absb = match self.const_value(b).cloned() {
            Some(c) => self.num(c.abs(), i, span),
            None => self.op(Op::Abs, vec![b], i, span),
        };
        let hi = self.rel(RelOp::Lt, rt, absb, span);
        let d1 = self.b2(BoolOp::And, eq, lo, span);
        let def = self.b2(BoolOp::And, d1, hi, span);
        let bz = self.rel(RelOp::Eq, b, zero, span);
        let def = match self.const_value(b) {
            Some(c) if !c.is_zero() => def,
            _ => self.b2(BoolOp::Or, bz, def, span),
        };
        self.add_def(qv, def);
        self.add_def(rv, def);
        if self.const_value(b).is_none_or(|c| c.is_zero()) {
            let nz = self.not(bz, span);
            self.add_cond(qv, nz);
            self.add_cond(rv, nz);
        }
        (qt, rt)
    }

    /// `fp.min`/`fp.max`: IEEE minNum/maxNum, except that `+0`/`-0` give either zero.
    /// A key identifying a term for functional consistency: variables by number (each
    /// reference is a node of its own), other terms by node.
    fn fkey(&self, t: TId) -> (u8, u64) {
        match &self.nodes[t as usize].kind {
            NodeKind::Var { var, primed } => (1 + *primed as u8, *var as u64),
            NodeKind::Fp(bits) => (3, *bits),
            _ => (0, t as u64),
        }
    }

    fn fp_minmax(&mut self, min: bool, a: TId, b: TId, f: FpFormat, span: Span) -> TId {
        // the same application gives the same zero (functional consistency)
        let key = (min, self.fkey(a), self.fkey(b));
        if let Some(&t) = self.minmax_memo.get(&key) {
            self.share(t);
            return t;
        }
        let t = self.fp_minmax_new(min, a, b, f, span);
        self.minmax_memo.insert(key, t);
        t
    }

    fn fp_minmax_new(&mut self, min: bool, a: TId, b: TId, f: FpFormat, span: Span) -> TId {
        let s = Sort::Fp(f);
        self.share(a);
        self.share(b);
        let op = if min { Op::FMin } else { Op::FMax };
        let m = self.op(op, vec![a, b], s, span);
        let za = self.op(Op::IsZero, vec![a], Sort::Bool, span);
        let zb = self.op(Op::IsZero, vec![b], Sort::Bool, span);
        let same = self.rel(RelOp::Eq, a, b, span);
        let diff = self.not(same, span);
        let z2 = self.b2(BoolOp::And, za, zb, span);
        let mixed = self.b2(BoolOp::And, z2, diff, span);
        let (zv, zt) = self.fresh_var("z", s, span);
        let zz = self.op(Op::IsZero, vec![zt], Sort::Bool, span);
        self.add_def(zv, zz);
        let nm = self.not(mixed, span);
        self.add_cond(zv, nm);
        self.ite(mixed, zt, m, s, span)
    }

    fn all_ones(&mut self, w: u8, span: Span) -> TId {
        let t = IntType::new(w, false);
        self.num(Rational::from_integer(t.max_value()), bv(w), span)
    }

    fn bv_binary(&mut self, name: &str, a: TId, b: TId, w: u8, span: Span) -> TId {
        let s = bv(w);
        let ss = signed(w);
        self.share(a);
        self.share(b);
        let zero = self.num(q(0), s, span);
        let bz = self.rel(RelOp::Eq, b, zero, span);
        match name {
            "bvudiv" => {
                let d = self.op(Op::BvDiv, vec![a, b], s, span);
                let ones = self.all_ones(w, span);
                self.ite(bz, ones, d, s, span)
            }
            "bvurem" => {
                let d = self.op(Op::BvRem, vec![a, b], s, span);
                self.ite(bz, a, d, s, span)
            }
            "bvsdiv" | "bvsrem" | "bvsmod" => {
                let sa = self.op(Op::BvCast, vec![a], ss, span);
                let sb = self.op(Op::BvCast, vec![b], ss, span);
                let szero = self.num(q(0), ss, span);
                let r = match name {
                    "bvsdiv" => {
                        let d = self.op(Op::BvDiv, vec![sa, sb], ss, span);
                        let d = self.op(Op::BvCast, vec![d], s, span);
                        // by zero: 1 for a negative dividend, all ones otherwise
                        let neg = self.rel(RelOp::Lt, sa, szero, span);
                        let one = self.num(q(1), s, span);
                        let ones = self.all_ones(w, span);
                        let z = self.ite(neg, one, ones, s, span);
                        return self.ite(bz, z, d, s, span);
                    }
                    _ => self.op(Op::BvRem, vec![sa, sb], ss, span),
                };
                let r = if name == "bvsmod" {
                    // sign of the divisor: r + b when r != 0 and signs differ
                    let rz = self.rel(RelOp::Eq, r, szero, span);
                    let rn = self.rel(RelOp::Lt, r, szero, span);
                    let bn = self.rel(RelOp::Lt, sb, szero, span);
                    let differ = self.b2(BoolOp::Xor, rn, bn, span);
                    let nrz = self.not(rz, span);
                    let fix = self.b2(BoolOp::And, nrz, differ, span);
                    let sum = self.op(Op::BvAdd, vec![r, sb], ss, span);
                    self.ite(fix, sum, r, ss, span)
                } else {
                    r
                };
                let r = self.op(Op::BvCast, vec![r], s, span);
                self.ite(bz, a, r, s, span)
            }
            _ => {
                // shifts: a count >= width gives 0 (or the sign fill for bvashr)
                let wc = self.num(q(w as i64), s, span);
                let big = self.rel(RelOp::Ge, b, wc, span);
                match name {
                    "bvshl" | "bvlshr" => {
                        let op = if name == "bvshl" {
                            Op::BvShl
                        } else {
                            Op::BvShr
                        };
                        let sh = self.op(op, vec![a, b], s, span);
                        self.ite(big, zero, sh, s, span)
                    }
                    _ => {
                        let sa = self.op(Op::BvCast, vec![a], ss, span);
                        let sh = self.op(Op::BvShr, vec![sa, b], ss, span);
                        let sh = self.op(Op::BvCast, vec![sh], s, span);
                        let szero = self.num(q(0), ss, span);
                        let neg = self.rel(RelOp::Lt, sa, szero, span);
                        let ones = self.all_ones(w, span);
                        let fill = self.ite(neg, ones, zero, s, span);
                        self.ite(big, fill, sh, s, span)
                    }
                }
            }
        }
    }

    fn fp_literal(&mut self, raw: &[SExpr], span: Span) -> R<Val> {
        let lit = |e: &SExpr| -> Option<(BigInt, usize)> {
            match &e.kind {
                SKind::Binary(b) => Some((BigInt::parse_bytes(b.as_bytes(), 2)?, b.len())),
                SKind::Hex(h) => Some((BigInt::parse_bytes(h.as_bytes(), 16)?, h.len() * 4)),
                SKind::List(l) if l.len() == 3 && l[0].symbol() == Some("_") => {
                    let v: BigInt = l[1].symbol()?.strip_prefix("bv")?.parse().ok()?;
                    let w: usize = match &l[2].kind {
                        SKind::Numeral(n) => n.parse().ok()?,
                        _ => return None,
                    };
                    if w == 0 || w > 64 || v.bits() > w as u64 {
                        return None;
                    }
                    Some((v, w))
                }
                _ => None,
            }
        };
        if raw.len() != 3 {
            return bad(span, "'fp' takes 3 arguments");
        }
        let (Some((s, ws)), Some((e, we)), Some((m, wm))) =
            (lit(&raw[0]), lit(&raw[1]), lit(&raw[2]))
        else {
            return unsup(span, "'fp' of non-literal bit-vectors");
        };
        if ws != 1 {
            return bad(span, "the sign of 'fp' is one bit");
        }
        let Some(f) = fp_format(we as u64, wm as u64 + 1) else {
            return unsup(
                span,
                "floating-point formats other than Float32 and Float64",
            );
        };
        let bits = (s << (we + wm)) | (e << wm) | m;
        let bits = bits.to_u64().unwrap_or(0);
        Ok(self.t(NodeKind::Fp(bits), Sort::Fp(f), span))
    }

    fn indexed_app(&mut self, ix: &[SExpr], raw: &[SExpr], args: &[Val], span: Span) -> R<Val> {
        let name = ix.get(1).and_then(|x| x.symbol()).unwrap_or("").to_string();
        let nums: Vec<u64> = ix[2.min(ix.len())..]
            .iter()
            .filter_map(|x| match &x.kind {
                SKind::Numeral(n) => n.parse().ok(),
                _ => None,
            })
            .collect();
        if nums.len() + 2 != ix.len() {
            return bad(span, format!("malformed indexed function '{name}'"));
        }
        match name.as_str() {
            "to_fp" | "to_fp_unsigned" => {
                let (Some(&e), Some(&s), 2) = (nums.first(), nums.get(1), nums.len()) else {
                    return bad(span, "malformed to_fp");
                };
                let Some(f) = fp_format(e, s) else {
                    return unsup(
                        span,
                        "floating-point formats other than Float32 and Float64",
                    );
                };
                let out = Sort::Fp(f);
                if args.len() == 1 {
                    // reinterpretation of a bit pattern
                    let v = self.vals(args, span)?;
                    if let Some(val) = self.const_value(v[0].0).cloned() {
                        if bv_width(v[0].1) == Some(f.total_bits() as u8) {
                            // the pattern (two's complement if the value is signed)
                            let mask: BigInt = (BigInt::one() << f.total_bits()) - 1;
                            let bits = (val.to_integer() & mask).to_u64().unwrap_or(0);
                            let bits = ieee::of_bits(f, bits);
                            return Ok(self.t(NodeKind::Fp(bits), out, span));
                        }
                    }
                    let _ = raw;
                    if name == "to_fp" && bv_width(v[0].1) == Some(f.total_bits() as u8) {
                        let t = self.op(Op::FpOfBits, vec![v[0].0], out, span);
                        return Ok(Val::T(t, out));
                    }
                    return bad(
                        span,
                        format!(
                            "to_fp of one argument needs a bit-vector of width {}",
                            f.total_bits()
                        ),
                    );
                }
                Self::arity(&name, args, 2, span)?;
                let m = self.rm(&name, args.first(), span)?;
                let v = self.vals(&args[1..], span)?;
                let (x, xs) = v[0];
                let x = match xs {
                    Sort::MachineInt(t) if name == "to_fp" => {
                        self.op(Op::BvCast, vec![x], signed(t.bits), span)
                    }
                    Sort::MachineInt(_) => x,
                    Sort::Int | Sort::Real | Sort::Fp(_) if name == "to_fp" => {
                        if let (Some(c), RmArg::C(m)) = (self.const_value(x).cloned(), m) {
                            let bits = ieee::from_rational(f, m, &c);
                            return Ok(self.t(NodeKind::Fp(bits), out, span));
                        }
                        x
                    }
                    _ => return bad(span, format!("bad argument of '{name}'")),
                };
                let t = self.rounded(m, &[x], out, span, |e, m| {
                    e.op(Op::ToFp(m), vec![x], out, span)
                });
                Ok(Val::T(t, out))
            }
            "fp.to_ubv" | "fp.to_sbv" => {
                Self::arity(&name, args, 2, span)?;
                let Some(w) = nums.first().and_then(|w| supported_width(*w)) else {
                    return unsup(span, "bit-vector widths other than 8, 16, 32, 64");
                };
                let m = self.rm(&name, args.first(), span)?;
                if !matches!(m, RmArg::C(RoundingMode::Rtz)) {
                    return unsup(
                        span,
                        format!("'{name}' with a rounding mode other than RTZ"),
                    );
                }
                let (a, _) = self.fps(&name, &args[1..], span)?;
                let t = if name == "fp.to_ubv" {
                    self.op(Op::FpToInt, a, bv(w), span)
                } else {
                    let x = self.op(Op::FpToInt, a, signed(w), span);
                    self.op(Op::BvCast, vec![x], bv(w), span)
                };
                Ok(Val::T(t, bv(w)))
            }
            "zero_extend" | "sign_extend" => {
                Self::arity(&name, args, 1, span)?;
                let (a, w) = self.bvs(&name, args, span)?;
                let k = nums.first().copied().unwrap_or(0);
                if k == 0 {
                    return Ok(Val::T(a[0], bv(w)));
                }
                let Some(to) = supported_width(w as u64 + k) else {
                    return unsup(span, "bit-vector widths other than 8, 16, 32, 64");
                };
                let t = if name == "zero_extend" {
                    self.op(Op::BvCast, a, bv(to), span)
                } else {
                    let x = self.op(Op::BvCast, a, signed(w), span);
                    let x = self.op(Op::BvCast, vec![x], signed(to), span);
                    self.op(Op::BvCast, vec![x], bv(to), span)
                };
                Ok(Val::T(t, bv(to)))
            }
            "extract" => {
                Self::arity(&name, args, 1, span)?;
                let (a, w) = self.bvs(&name, args, span)?;
                let (Some(&hi), Some(&lo)) = (nums.first(), nums.get(1)) else {
                    return bad(span, "malformed extract");
                };
                if hi < lo || hi >= w as u64 {
                    return bad(span, "extract indices out of range");
                }
                let Some(to) = supported_width(hi - lo + 1) else {
                    return unsup(span, "bit-vector widths other than 8, 16, 32, 64");
                };
                let mut x = a[0];
                if lo > 0 {
                    let k = self.num(q(lo as i64), bv(w), span);
                    x = self.op(Op::BvShr, vec![x, k], bv(w), span);
                }
                if to != w {
                    x = self.op(Op::BvCast, vec![x], bv(to), span);
                }
                Ok(Val::T(x, bv(to)))
            }
            _ => unsup(span, format!("indexed function '{name}'")),
        }
    }

    // ------------------------------------------------------------- assembling a problem

    /// Functional consistency of the operations SMT-LIB leaves unspecified but functional
    /// (`/` by a divisor that may be 0, `fp.to_sbv`/`fp.to_ubv`/`fp.to_real` of NaN, infinities
    /// or out-of-range values), which the solver treats as any value per occurrence: for
    /// every two such terms reachable from `roots` with the same operation, sorts and equal
    /// operands, their results are equal (Ackermann's reduction). These are consequences of
    /// SMT-LIB's semantics, so adding them keeps every model and refutes more. At most
    /// [`MAX_ACKERMANN_TERMS`] terms per group (otherwise that group gets none: still sound).
    pub fn ackermann(&mut self, roots: &[TId]) -> Vec<TId> {
        let n = self.nodes.len();
        let mut seen = vec![false; n];
        let mut stack: Vec<TId> = roots.to_vec();
        let mut groups: HashMap<(u8, Sort, Sort), Vec<TId>> = HashMap::new();
        let mut kids = Vec::new();
        while let Some(t) = stack.pop() {
            let i = t as usize;
            if i >= n || seen[i] {
                continue;
            }
            seen[i] = true;
            let node = &self.nodes[i];
            let key = match &node.kind {
                NodeKind::Div(_, b) if self.const_value(*b).is_none_or(|c| c.is_zero()) => {
                    Some((0u8, node.sort, self.nodes[*b as usize].sort))
                }
                NodeKind::Op(Op::FpToInt, a) if a.len() == 1 => {
                    Some((1, node.sort, self.nodes[a[0] as usize].sort))
                }
                NodeKind::Op(Op::FpToReal, a) if a.len() == 1 => {
                    Some((2, node.sort, self.nodes[a[0] as usize].sort))
                }
                _ => None,
            };
            if let Some(k) = key {
                groups.entry(k).or_default().push(t);
            }
            kids.clear();
            node.kind.operands(&mut kids);
            stack.extend(kids.iter().copied());
        }
        let mut out = Vec::new();
        let mut keys: Vec<_> = groups.keys().copied().collect();
        keys.sort_by_key(|k| (k.0, groups[k].first().copied()));
        for k in keys {
            let mut g = groups[&k].clone();
            g.sort_unstable();
            if g.len() < 2 || g.len() > MAX_ACKERMANN_TERMS {
                continue;
            }
            for i in 0..g.len() {
                for j in i + 1..g.len() {
                    let (x, y) = (g[i], g[j]);
                    let mut ax = Vec::new();
                    let mut ay = Vec::new();
                    self.nodes[x as usize].kind.operands(&mut ax);
                    self.nodes[y as usize].kind.operands(&mut ay);
                    if ax.len() != ay.len() {
                        continue;
                    }
                    let span = self.nodes[x as usize].span;
                    for &t in ax.iter().chain(ay.iter()).chain([x, y].iter()) {
                        self.share(t);
                    }
                    let mut premise = self.boolc(true, span);
                    for (&p, &q2) in ax.iter().zip(ay.iter()) {
                        let e = self.rel(RelOp::Eq, p, q2, span);
                        premise = self.b2(BoolOp::And, premise, e, span);
                    }
                    let concl = self.rel(RelOp::Eq, x, y, span);
                    out.push(self.b2(BoolOp::Impl, premise, concl, span));
                }
            }
        }
        out
    }

    /// Emits the IR of `roots` (Bool terms) as constraints of one section, followed by the
    /// definitions of every shared term and fresh variable they reach. Returns the
    /// constraints and the sat conditions (as extra constraints, not to be lowered).
    pub fn build(&mut self, ir: &mut Ir, roots: &[TId]) -> (Vec<Constraint>, Vec<Constraint>) {
        self.plan();
        let mut out = Vec::new();
        let mut conds = Vec::new();
        let mut seen_vars: HashSet<u32> = HashSet::new();
        // work items: (root term, defining variable for a shared term)
        let mut work: Vec<(TId, Option<u32>)> = roots.iter().rev().map(|&r| (r, None)).collect();
        let mut cond_work: Vec<TId> = Vec::new();
        while let Some((root, named)) = work.pop() {
            if solver::budget::check_now().is_err() {
                // the caller sees `solver::budget::stopped()`; what was built is dropped
                return (out, conds);
            }
            let c = self.emit(ir, root, named, &mut seen_vars, &mut work, &mut cond_work);
            out.push(c);
        }
        // conditions: their variables' definitions are already in (they reach the same vars)
        let mut extra = Vec::new();
        while let Some(t) = cond_work.pop() {
            let c = self.emit(ir, t, None, &mut seen_vars, &mut extra, &mut cond_work);
            conds.push(c);
        }
        while let Some((root, named)) = extra.pop() {
            let c = self.emit(ir, root, named, &mut seen_vars, &mut extra, &mut cond_work);
            out.push(c);
        }
        (out, conds)
    }

    /// Decides which terms become shared variables: those referenced more than once whose
    /// tree (with the shared terms below as leaves) has more than [`COPY_LIMIT`] nodes;
    /// smaller ones are copied, which keeps the IR within `COPY_LIMIT` times the input.
    fn plan(&mut self) {
        let n = self.nodes.len();
        let mut size = vec![1u32; n];
        self.shared = vec![false; n];
        let mut kids = Vec::new();
        for t in 0..n {
            kids.clear();
            self.nodes[t].kind.operands(&mut kids);
            let mut s: u32 = 1;
            for &k in &kids {
                let k = k as usize;
                if k < t {
                    s = s.saturating_add(if self.shared[k] { 1 } else { size[k] });
                }
            }
            size[t] = s;
            self.shared[t] = self.uses[t] >= 2 && s > COPY_LIMIT && !kids.is_empty();
        }
    }

    fn named_var(&mut self, t: TId) -> u32 {
        if let Some(&v) = self.named.get(&t) {
            return v;
        }
        let n = &self.nodes[t as usize];
        let (sort, span) = (n.sort, n.span);
        self.fresh += 1;
        let v = self.new_var(&format!("@s{}", self.fresh), sort, span);
        self.named.insert(t, v);
        v
    }

    fn emit(
        &mut self,
        ir: &mut Ir,
        root: TId,
        named: Option<u32>,
        seen_vars: &mut HashSet<u32>,
        work: &mut Vec<(TId, Option<u32>)>,
        cond_work: &mut Vec<TId>,
    ) -> Constraint {
        let first = ir.len() as NodeId;
        // post-order copy: (term, expanded?)
        let mut stack: Vec<(TId, bool)> = vec![(root, false)];
        let mut done: Vec<NodeId> = Vec::new();
        let mut kids = Vec::new();
        while let Some((t, expanded)) = stack.pop() {
            let is_root = t == root && named.is_some() && stack.is_empty() && !expanded;
            let node = self.nodes[t as usize].clone();
            if !expanded {
                if !is_root && self.shared.get(t as usize).copied().unwrap_or(false) {
                    let v = self.named_var(t);
                    if seen_vars.insert(v) {
                        work.push((t, Some(v)));
                    }
                    done.push(ir.push(
                        NodeKind::Var {
                            var: v,
                            primed: false,
                        },
                        node.sort,
                        node.span,
                    ));
                    continue;
                }
                if let NodeKind::Var { var, .. } = node.kind {
                    if seen_vars.insert(var) {
                        if let Some(d) = self.var_defs.get(&var) {
                            work.extend(d.iter().map(|&d| (d, None)));
                        }
                        if let Some(c) = self.var_conds.get(&var) {
                            cond_work.extend(c.iter().copied());
                        }
                    }
                }
                kids.clear();
                node.kind.operands(&mut kids);
                if kids.is_empty() {
                    done.push(ir.push(node.kind, node.sort, node.span));
                    continue;
                }
                stack.push((t, true));
                for &k in kids.iter().rev() {
                    stack.push((k, false));
                }
                continue;
            }
            kids.clear();
            node.kind.operands(&mut kids);
            let start = done.len() - kids.len();
            let ids: Vec<NodeId> = done.drain(start..).collect();
            let kind = remap(&node.kind, &ids);
            done.push(ir.push(kind, node.sort, node.span));
        }
        let mut top = done.pop().unwrap_or(0);
        let n = &self.nodes[root as usize];
        let (sort, span) = (n.sort, n.span);
        if let Some(v) = named {
            let var = ir.push(
                NodeKind::Var {
                    var: v,
                    primed: false,
                },
                sort,
                span,
            );
            top = if sort == Sort::Bool {
                ir.push(NodeKind::Bool2(BoolOp::Iff, var, top), Sort::Bool, span)
            } else {
                ir.push(NodeKind::Rel(RelOp::Eq, var, top), Sort::Bool, span)
            };
        }
        Constraint {
            first,
            end: ir.len() as NodeId,
            root: top,
            span,
        }
    }

    /// `not (t1 and ... and tn)`
    pub fn negated_conjunction(&mut self, ts: &[TId]) -> TId {
        let span = ts
            .first()
            .map(|&t| self.nodes[t as usize].span)
            .unwrap_or_default();
        let mut acc = self.boolc(true, span);
        for &t in ts {
            acc = self.b2(BoolOp::And, acc, t, span);
        }
        self.not(acc, span)
    }

    pub fn is_bool(&self, t: TId) -> bool {
        self.nodes[t as usize].sort == Sort::Bool
    }
}

fn remap(kind: &NodeKind, ids: &[NodeId]) -> NodeKind {
    use NodeKind::*;
    match kind {
        Bool(_) | Num(_) | Fp(_) | Var { .. } => kind.clone(),
        BoolToNum(_) => BoolToNum(ids[0]),
        Not(_) => Not(ids[0]),
        Neg(_) => Neg(ids[0]),
        Pow(_, k) => Pow(ids[0], *k),
        FitConvert(_) => FitConvert(ids[0]),
        Bool2(op, _, _) => Bool2(*op, ids[0], ids[1]),
        Rel(op, _, _) => Rel(*op, ids[0], ids[1]),
        Add(..) => Add(ids[0], ids[1]),
        Sub(..) => Sub(ids[0], ids[1]),
        Mul(..) => Mul(ids[0], ids[1]),
        Div(..) => Div(ids[0], ids[1]),
        Ite(..) => Ite(ids[0], ids[1], ids[2]),
        Op(op, _) => Op(op.clone(), ids.to_vec()),
    }
}

/// `let` and macro-parameter bindings: one stack of bindings per name, so a lookup costs the
/// same however deeply `let`s nest.
#[derive(Default)]
struct Locals {
    map: HashMap<String, Vec<Sym>>,
    frames: Vec<Vec<String>>,
}

impl Locals {
    fn push(&mut self, scope: HashMap<String, Sym>) {
        let mut names = Vec::with_capacity(scope.len());
        for (n, s) in scope {
            self.map.entry(n.clone()).or_default().push(s);
            names.push(n);
        }
        self.frames.push(names);
    }
    fn pop(&mut self) {
        for n in self.frames.pop().unwrap_or_default() {
            if let Some(v) = self.map.get_mut(&n) {
                v.pop();
                if v.is_empty() {
                    self.map.remove(&n);
                }
            }
        }
    }
}

pub fn arith(s: Sort) -> bool {
    matches!(s, Sort::Int | Sort::Real)
}

fn is_reserved(name: &str) -> bool {
    matches!(
        name,
        "true" | "false" | "let" | "!" | "_" | "as" | "forall" | "exists" | "match" | "par"
    )
}

/// An SMT-LIB rendering of an exact value of a sort.
pub fn value_text(sort: Sort, v: &crate::hys::eval::PointValue) -> String {
    use crate::hys::eval::PointValue;
    match (sort, v) {
        (_, PointValue::Bool(b)) => b.to_string(),
        (Sort::Fp(f), PointValue::Fp(bits)) => {
            let m = f.precision() - 1;
            let e = f.exponent_bits();
            let sign = bits >> (m + e) & 1;
            let ex = (bits >> m) & ((1u64 << e) - 1);
            let man = bits & ((1u64 << m) - 1);
            format!(
                "(fp #b{sign} #b{ex:0ew$b} #b{man:0mw$b})",
                ew = e as usize,
                mw = m as usize
            )
        }
        (Sort::MachineInt(t), PointValue::Num(x)) => {
            let n = t.wrap(&x.to_integer());
            let w = t.bits as usize;
            let s = n.to_str_radix(2);
            format!("#b{}{s}", "0".repeat(w.saturating_sub(s.len())))
        }
        (Sort::Int, PointValue::Num(x)) => {
            let n = x.to_integer();
            if n.is_negative() {
                format!("(- {})", -n)
            } else {
                n.to_string()
            }
        }
        (_, PointValue::Num(x)) => {
            let neg = x.is_negative();
            let a = x.abs();
            let body = if a.denom().is_one() {
                format!("{}.0", a.numer())
            } else {
                format!("(/ {}.0 {}.0)", a.numer(), a.denom())
            };
            if neg {
                format!("(- {body})")
            } else {
                body
            }
        }
        _ => "?".into(),
    }
}
