//! Large-block encoding of a [`Cfg`] into a transition system, built directly in the
//! checker's typed IR ([`Checked`]), as the SMT-LIB and VMT readers build theirs.
//!
//! Cut points are the entry, every loop head and the stop location; a program counter `pc`
//! names them. One transition executes one loop-free segment from a cut point to the next:
//! the segment's paths are executed symbolically (in topological order, with `ite` merges
//! where paths join), so one step is one formula over the current variables, fresh nondet
//! inputs and the next variables. Two Boolean flags record what the step did: `hit` (one
//! of the selected goals was reached) and `ub` (a selected undefined-behaviour check fired);
//! TARGET is `hit or ub`.
//!
//! Expressions are first built as hash-consed terms ([`Terms`]); each top-level constraint
//! is then copied into the IR as a tree (the IR keeps a constraint's nodes contiguous), so a
//! value used in several places is repeated, as it would be in text. Large values are stored
//! in temporaries instead (`SHARE_*`), measured by the length of their `.hys` spelling
//! ([`ir_print::render`]), which is also what `ICPIC3_DUMP_HYS` prints
//! ([`Encoded::hys`]). The trace of an answer maps back to C through typed ids
//! ([`StateId`]), never through names.

use super::cfg::*;
use crate::diag::Span;
use crate::hys::ast::{SectionKind, TypeKind};
use crate::hys::check::{Checked, CheckedSection, DeclaredVar};
use crate::hys::ir::{BoolOp, Constraint, Ir, NodeId, NodeKind, RelOp};
use crate::hys::ir_print;
use solver::formula::{Domain, Op, Sort};
use solver::num::{FpFormat, IntType, Rational, RoundingMode};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// Which goals the system looks for.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// goals that set `hit`
    pub hit: Vec<usize>,
    /// undefined-behaviour checks that set `ub`
    pub ub: Vec<usize>,
}

/// A state variable of the encoded system: its index among the declared variables, which is
/// also its index in the lowered system's `state` and in every trace step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub u32);

impl StateId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A nondet site executed in a block: the variable holding its value and the Boolean that
/// tells whether the step executed it.
#[derive(Clone, Copy, Debug)]
pub struct InputSite {
    pub site: usize,
    pub value: StateId,
    pub taken: StateId,
}

/// The nondet sites of one block, in execution order.
#[derive(Clone, Debug, Default)]
pub struct BlockSites {
    pub sites: Vec<InputSite>,
}

pub struct Encoded {
    /// the transition system (sections INIT, TRANS, TARGET)
    pub system: Checked,
    /// per declared variable: the C expression it stands for (comments of the printed form)
    pub notes: Vec<String>,
    /// per pc value: the block's nondet sites
    pub blocks: Vec<BlockSites>,
    pub pc: StateId,
    pub hit: StateId,
    pub ub: StateId,
    pub pc_stop: usize,
    /// per C variable (index into `Cfg::vars`): its state variable
    pub var_id: Vec<StateId>,
    /// per cut point node of the CFG: its pc value
    pub pc_of_node: HashMap<usize, usize>,
}

impl Encoded {
    /// The system as `.hys` text (inspection with `ICPIC3_DUMP_HYS`, the printed-invariant
    /// check).
    pub fn hys(&self) -> String {
        ir_print::print(
            &self.system,
            "generated from C by icpic3 (large-block encoding)",
            &self.notes,
        )
    }
}

/// Value expressions whose spelling is longer than this are stored in a temporary variable.
/// Temporaries are defined on every path of the block, which makes the solver compute them
/// even where they are not used (measured: a 2-step trace of examples/c/mode_switch.c took
/// 11 s with fp64 temporaries at 160 characters, 1 ms with expressions kept inline), so
/// values are shared only when they get very long.
const SHARE_LEN: usize = 4000;
/// Values of the translation's own temporaries (large sub-expressions) longer than this.
const SHARE_TEMP_LEN: usize = 300;
/// Conditions longer than this are stored in a Boolean temporary (cheap for the solver).
const SHARE_BOOL_LEN: usize = 160;

/// A term: an index into [`Terms`].
type T = u32;

/// Hash-consed terms over the system's variables: a [`NodeKind`] whose operands are terms,
/// with its sort and the length of its spelling.
struct Terms {
    kinds: Vec<NodeKind>,
    sorts: Vec<Sort>,
    lens: Vec<usize>,
    index: HashMap<(NodeKind, Sort), T>,
    decls: Vec<DeclaredVar>,
    notes: Vec<String>,
}

fn sort_of(t: Ty) -> Sort {
    match t {
        Ty::Void => Sort::Bool,
        Ty::Bool => Sort::MachineInt(IntType::new(8, false)),
        Ty::Int { bits, signed } => Sort::MachineInt(IntType::new(bits, signed)),
        Ty::F32 => Sort::Fp(FpFormat::F32),
        Ty::F64 => Sort::Fp(FpFormat::F64),
    }
}

fn fmt_of(t: Ty) -> FpFormat {
    if t == Ty::F32 {
        FpFormat::F32
    } else {
        FpFormat::F64
    }
}

fn q(v: i128) -> Rational {
    Rational::from_integer(v.into())
}

/// The error bound of the library functions for results of type `t`: relative `rel`
/// (8 ulps of the binade: 2^-49 for double, 2^-20 for float), absolute `tiny` (8 of the
/// smallest subnormals, rounded up: 4e-323, 1.2e-44), and the exponent of the magnitude
/// above which results may overflow (2^1020, 2^124).
fn error_bound(t: Ty) -> (Rational, Rational, u32) {
    match t {
        Ty::F32 => (decimal(95367431640625, 20), decimal(12, 45), 124),
        _ => (
            decimal(1776356839400250464677810668945312, 48),
            decimal(4, 323),
            1020,
        ),
    }
}

/// `m · 10^-e` exactly.
fn decimal(m: i128, e: u32) -> Rational {
    Rational::new(m.into(), num_bigint::BigInt::from(10u8).pow(e))
}

impl Terms {
    fn declare(&mut self, name: String, t: Ty, note: String) -> StateId {
        let (kind, domain) = match t {
            Ty::Void => (TypeKind::Boole, Domain::unbounded()),
            Ty::Bool => (
                TypeKind::Machine(IntType::new(8, false)),
                Domain::closed(q(0), q(1)),
            ),
            Ty::Int { bits, signed } => {
                let it = IntType::new(bits, signed);
                (
                    TypeKind::Machine(it),
                    Domain::closed(
                        Rational::from_integer(it.min_value()),
                        Rational::from_integer(it.max_value()),
                    ),
                )
            }
            Ty::F32 => (TypeKind::Fp32, Domain::unbounded()),
            Ty::F64 => (TypeKind::Fp64, Domain::unbounded()),
        };
        self.declare_as(name, kind, sort_of(t), domain, note)
    }

    fn declare_as(
        &mut self,
        name: String,
        kind: TypeKind,
        sort: Sort,
        domain: Domain,
        note: String,
    ) -> StateId {
        let id = StateId(self.decls.len() as u32);
        self.decls.push(DeclaredVar {
            name,
            kind,
            sort,
            domain,
            is_static: false,
            span: Span::default(),
        });
        self.notes.push(note);
        id
    }

    fn mk(&mut self, kind: NodeKind, sort: Sort) -> T {
        if let Some(&t) = self.index.get(&(kind.clone(), sort)) {
            return t;
        }
        let mut ops = Vec::new();
        kind.operands(&mut ops);
        let blank = vec![""; ops.len()];
        let decls = &self.decls;
        let var = |v: u32, primed: bool| {
            let n = &decls[v as usize].name;
            if primed {
                format!("{n}'")
            } else {
                n.clone()
            }
        };
        // a node without a spelling never comes from this encoder; count it as short
        let glue = ir_print::render(&kind, sort, &blank, &var)
            .map(|s| s.len())
            .unwrap_or(8);
        let mut len = glue + ops.iter().map(|&o| self.lens[o as usize]).sum::<usize>();
        if let Some(&l) = ops.first() {
            if ir_print::continues_chain(&kind, &self.kinds[l as usize]) {
                len -= 2; // printed without the left operand's parentheses
            }
        }
        let t = self.kinds.len() as T;
        self.kinds.push(kind.clone());
        self.sorts.push(sort);
        self.lens.push(len);
        self.index.insert((kind, sort), t);
        t
    }

    fn len(&self, t: T) -> usize {
        self.lens[t as usize]
    }
    fn sort(&self, t: T) -> Sort {
        self.sorts[t as usize]
    }

    /// `(not isnan(x)) and (not isinf(x))` for a float term `x`
    fn finite(&mut self, x: T) -> T {
        let n = self.op(Op::IsNan, Sort::Bool, vec![x]);
        let n = self.not(n);
        let i = self.op(Op::IsInf, Sort::Bool, vec![x]);
        let i = self.not(i);
        self.and(n, i)
    }

    fn var(&mut self, s: StateId, primed: bool) -> T {
        let sort = self.decls[s.index()].sort;
        self.mk(NodeKind::Var { var: s.0, primed }, sort)
    }
    fn boolean(&mut self, b: bool) -> T {
        self.mk(NodeKind::Bool(b), Sort::Bool)
    }
    fn not(&mut self, a: T) -> T {
        self.mk(NodeKind::Not(a), Sort::Bool)
    }
    fn bool2(&mut self, op: BoolOp, a: T, b: T) -> T {
        self.mk(NodeKind::Bool2(op, a, b), Sort::Bool)
    }
    fn and(&mut self, a: T, b: T) -> T {
        self.bool2(BoolOp::And, a, b)
    }
    fn or(&mut self, a: T, b: T) -> T {
        self.bool2(BoolOp::Or, a, b)
    }
    /// `a1 op a2 op ... op an`, grouped from the left as the parser groups it
    fn chain(&mut self, op: BoolOp, xs: &[T]) -> T {
        let mut acc = xs[0];
        for &x in &xs[1..] {
            acc = self.bool2(op, acc, x);
        }
        acc
    }
    fn rel(&mut self, r: RelOp, a: T, b: T) -> T {
        self.mk(NodeKind::Rel(r, a, b), Sort::Bool)
    }
    fn op(&mut self, op: Op, sort: Sort, args: Vec<T>) -> T {
        self.mk(NodeKind::Op(op, args), sort)
    }
    fn num(&mut self, v: Rational, sort: Sort) -> T {
        self.mk(NodeKind::Num(v), sort)
    }
    fn int(&mut self, v: i128) -> T {
        self.num(q(v), Sort::Int)
    }
    /// `pc = k`
    fn pc_is(&mut self, pc: StateId, k: usize, primed: bool) -> T {
        let v = self.var(pc, primed);
        let k = self.int(k as i128);
        self.rel(RelOp::Eq, v, k)
    }

    /// An integer constant of type `t` (`to_int32(5)`: the checker folds it into a constant
    /// of the type).
    fn int_const(&mut self, t: Ty, v: i128) -> T {
        match t {
            Ty::F32 | Ty::F64 => {
                let bits = if t == Ty::F32 {
                    (v as f32).to_bits() as u64
                } else {
                    (v as f64).to_bits()
                };
                self.mk(NodeKind::Fp(bits), sort_of(t))
            }
            Ty::Void => self.num(q(v), sort_of(super::cfg::INT)),
            _ => self.num(q(v), sort_of(t)),
        }
    }

    /// A float constant of type `t` from its encoding, as the checker types its exact
    /// spelling ([`ir_print::fp_literal`]): a finite non-negative value is a constant;
    /// negative values, infinities and NaN are `-`, `1/0` and `0/0` over constants.
    fn fp_const(&mut self, t: Ty, bits: u64) -> T {
        let f = fmt_of(t);
        let sort = Sort::Fp(f);
        let v = match f {
            FpFormat::F32 => f32::from_bits(bits as u32) as f64,
            _ => f64::from_bits(bits),
        };
        let lit = |this: &mut Terms, x: f64| {
            let b = match f {
                FpFormat::F32 => (x as f32).to_bits() as u64,
                _ => x.to_bits(),
            };
            this.mk(NodeKind::Fp(b), sort)
        };
        if v.is_nan() || v.is_infinite() {
            let zero = lit(self, 0.0);
            let num = lit(self, if v.is_nan() { 0.0 } else { 1.0 });
            let d = self.op(Op::FDiv(RoundingMode::Rne), sort, vec![num, zero]);
            return if v < 0.0 {
                self.op(Op::FNeg, sort, vec![d])
            } else {
                d
            };
        }
        let body = lit(self, v.abs());
        if v.is_sign_negative() {
            self.op(Op::FNeg, sort, vec![body])
        } else {
            body
        }
    }
}

struct Enc<'a> {
    cfg: &'a Cfg,
    terms: Terms,
    /// TRANS constraints in order
    trans: Vec<T>,
    temps: usize,
    pc_of: HashMap<usize, usize>,
    sel_hit: Vec<bool>,
    sel_ub: Vec<bool>,
    pc: StateId,
    hit: StateId,
    ub: StateId,
    /// state variable of each CFG variable
    var_id: Vec<StateId>,
    /// value and guard variables of each nondet site
    site_ids: Vec<(StateId, StateId)>,
    /// the guard of the current block (`pc = K`)
    guard: T,
}

type Env = BTreeMap<usize, T>;

struct Contribution {
    cond: T,
    env: Env,
}

impl<'a> Enc<'a> {
    fn temp(&mut self, t: Ty, e: T, boolean: bool) -> T {
        self.temps += 1;
        let ty = if boolean { Ty::Void } else { t };
        let id = self
            .terms
            .declare(format!("_t{}", self.temps), ty, String::new());
        let v = self.terms.var(id, false);
        // guard -> (t = e)   or   guard -> (t <-> e)
        let def = if boolean {
            self.terms.bool2(BoolOp::Iff, v, e)
        } else {
            self.terms.rel(RelOp::Eq, v, e)
        };
        let c = self.terms.bool2(BoolOp::Impl, self.guard, def);
        self.trans.push(c);
        v
    }

    fn share(&mut self, e: T, t: Ty) -> T {
        if self.terms.len(e) > SHARE_LEN {
            self.temp(t, e, false)
        } else {
            e
        }
    }

    fn share_bool(&mut self, e: T) -> T {
        if self.terms.len(e) > SHARE_BOOL_LEN {
            self.temp(Ty::Void, e, true)
        } else {
            e
        }
    }

    fn var(&mut self, v: usize, env: &Env) -> T {
        match env.get(&v) {
            Some(&t) => t,
            None => self.terms.var(self.var_id[v], false),
        }
    }

    /// The term of `e` under `env`.
    fn emit(&mut self, e: &E, env: &Env) -> T {
        match e {
            E::Var(v) => self.var(*v, env),
            E::Int(t, v) => self.terms.int_const(*t, *v),
            E::Fp(t, bits) => self.terms.fp_const(*t, *bits),
            E::Bin(op, t, a, b) => {
                let a = self.emit(a, env);
                let b = self.emit(b, env);
                let sort = self.terms.sort(a);
                let f = t.is_float();
                let rne = RoundingMode::Rne;
                let op = match op {
                    BinOp::Add if f => Op::FAdd(rne),
                    BinOp::Sub if f => Op::FSub(rne),
                    BinOp::Mul if f => Op::FMul(rne),
                    BinOp::Div if f => Op::FDiv(rne),
                    BinOp::Add => Op::BvAdd,
                    BinOp::Sub => Op::BvSub,
                    BinOp::Mul => Op::BvMul,
                    BinOp::Div => Op::BvDiv,
                    BinOp::Rem => Op::BvRem,
                    BinOp::And => Op::BvAnd,
                    BinOp::Or => Op::BvOr,
                    BinOp::Xor => Op::BvXor,
                    BinOp::Shl => Op::BvShl,
                    BinOp::Shr => Op::BvShr,
                };
                self.terms.op(op, sort, vec![a, b])
            }
            E::Neg(t, a) => {
                let a = self.emit(a, env);
                let op = if t.is_float() { Op::FNeg } else { Op::BvNeg };
                let sort = self.terms.sort(a);
                self.terms.op(op, sort, vec![a])
            }
            E::BitNot(_, a) => {
                let a = self.emit(a, env);
                let sort = self.terms.sort(a);
                self.terms.op(Op::BvNot, sort, vec![a])
            }
            E::Conv(to, _, a) => {
                let a = self.emit(a, env);
                self.convert(*to, a)
            }
            E::Cmp(rel, t, a, b) => {
                let a = self.emit(a, env);
                let b = self.emit(b, env);
                let r = match rel {
                    Rel::Lt => RelOp::Lt,
                    Rel::Le => RelOp::Le,
                    Rel::Gt => RelOp::Gt,
                    Rel::Ge => RelOp::Ge,
                    Rel::Eq => RelOp::Eq,
                    Rel::Ne => RelOp::Ne,
                };
                if t.is_float() && matches!(rel, Rel::Eq | Rel::Ne) {
                    // IEEE equality (`feq`), not identity
                    let eq = self.terms.op(Op::FEq, Sort::Bool, vec![a, b]);
                    if *rel == Rel::Ne {
                        self.terms.not(eq)
                    } else {
                        eq
                    }
                } else {
                    self.terms.rel(r, a, b)
                }
            }
            E::Not(a) => {
                let a = self.emit(a, env);
                self.terms.not(a)
            }
            E::And(a, b) => {
                let a = self.emit(a, env);
                let b = self.emit(b, env);
                self.terms.and(a, b)
            }
            E::Or(a, b) => {
                let a = self.emit(a, env);
                let b = self.emit(b, env);
                self.terms.or(a, b)
            }
            E::True => self.terms.boolean(true),
            E::False => self.terms.boolean(false),
            E::OfCond(t, c) => {
                let c = self.emit(c, env);
                let one = self.terms.int_const(*t, 1);
                let zero = self.terms.int_const(*t, 0);
                self.terms.mk(NodeKind::Ite(c, one, zero), sort_of(*t))
            }
            E::Ite(_, c, a, b) => {
                let c = self.emit(c, env);
                let a = self.emit(a, env);
                let b = self.emit(b, env);
                let sort = self.terms.sort(a);
                self.terms.mk(NodeKind::Ite(c, a, b), sort)
            }
            E::Fabs(_, a) => {
                let a = self.emit(a, env);
                let sort = self.terms.sort(a);
                self.terms.op(Op::FAbs, sort, vec![a])
            }
            E::Sqrt(_, a) => {
                let a = self.emit(a, env);
                let sort = self.terms.sort(a);
                self.terms.op(Op::FSqrt(RoundingMode::Rne), sort, vec![a])
            }
            E::MinMax(is_max, t, a, b, choice) => {
                let a = self.emit(a, env);
                let a = self.share(a, *t);
                let b = self.emit(b, env);
                let b = self.share(b, *t);
                let ch = self.terms.var(self.var_id[*choice], false);
                let sort = sort_of(*t);
                // ite(isnan(a), b, ite(isnan(b), a, ite(first, a, ite(second, b,
                //     ite(choice, a, b)))))
                let (first, second) = if *is_max {
                    (
                        self.terms.rel(RelOp::Gt, a, b),
                        self.terms.rel(RelOp::Gt, b, a),
                    )
                } else {
                    (
                        self.terms.rel(RelOp::Lt, a, b),
                        self.terms.rel(RelOp::Lt, b, a),
                    )
                };
                let nan_a = self.terms.op(Op::IsNan, Sort::Bool, vec![a]);
                let nan_b = self.terms.op(Op::IsNan, Sort::Bool, vec![b]);
                let e = self.terms.mk(NodeKind::Ite(ch, a, b), sort);
                let e = self.terms.mk(NodeKind::Ite(second, b, e), sort);
                let e = self.terms.mk(NodeKind::Ite(first, a, e), sort);
                let e = self.terms.mk(NodeKind::Ite(nan_b, a, e), sort);
                self.terms.mk(NodeKind::Ite(nan_a, b, e), sort)
            }
            E::IsNan(a) => {
                let a = self.emit(a, env);
                self.terms.op(Op::IsNan, Sort::Bool, vec![a])
            }
            E::IsInf(a) => {
                let a = self.emit(a, env);
                self.terms.op(Op::IsInf, Sort::Bool, vec![a])
            }
            E::LibmWithin(f, t, args, y) => {
                let xs: Vec<T> = args
                    .iter()
                    .map(|a| {
                        let a = self.emit(a, env);
                        self.share(a, *t)
                    })
                    .collect();
                let y = self.emit(y, env);
                self.libm_within(*f, *t, &xs, y)
            }
            E::Bits(t, a) => {
                let a = self.emit(a, env);
                let sort = Sort::MachineInt(IntType::new(t.bits() as u8, false));
                self.terms.op(Op::FpToBits, sort, vec![a])
            }
            E::FromBits(t, a) => {
                let a = self.emit(a, env);
                self.terms.op(Op::FpOfBits, sort_of(*t), vec![a])
            }
            // resolved by the lowerer before encoding
            E::Load(..) => self.terms.boolean(false),
        }
    }

    /// Conversion of `a` into type `to`: none when the sort is already `to`'s; into a float
    /// format rounds to nearest; float → integer truncates (C's cast, the lowerer checks the
    /// range); integer → integer wraps.
    fn convert(&mut self, to: Ty, a: T) -> T {
        let sort = sort_of(if to == Ty::Void { super::cfg::INT } else { to });
        let from = self.terms.sort(a);
        if from == sort {
            return a;
        }
        let op = match (sort, from) {
            (Sort::Fp(_), _) => Op::ToFp(RoundingMode::Rne),
            (_, Sort::Fp(_)) => Op::FpToInt,
            _ => Op::BvCast,
        };
        self.terms.op(op, sort, vec![a])
    }

    /// The condition of [`E::LibmWithin`]. glibc documents at most 2 ulps on x86-64 for these
    /// functions in round-to-nearest ("Known Maximum Errors in Math Functions"); the bound
    /// used is 8 ulps of the exact value's binade (2^-49 · |f| for double, 2^-20 · |f| for
    /// float) plus 8 of the smallest subnormals, so it holds with a margin. It is stated only
    /// where the arguments are finite and inside the function's domain and |f| is below
    /// 2^1020 (2^124): elsewhere (NaN, infinities, overflow, poles) the result is
    /// unconstrained. The inverse trigonometric functions are not among the solver's: see
    /// [`Enc::inverse_within`].
    fn libm_within(&mut self, f: Libm, t: Ty, xs: &[T], y: T) -> T {
        let tm = &mut self.terms;
        let r: Vec<T> = xs
            .iter()
            .map(|&x| tm.op(Op::FpToReal, Sort::Real, vec![x]))
            .collect();
        let real1 = |tm: &mut Terms, op: Op, a: T| tm.op(op, Sort::Real, vec![a]);
        let exact = match f {
            Libm::Sin => real1(tm, Op::Sin, r[0]),
            Libm::Cos => real1(tm, Op::Cos, r[0]),
            Libm::Tan => real1(tm, Op::Tan, r[0]),
            Libm::Asin | Libm::Acos | Libm::Atan | Libm::Atan2 => {
                return self.inverse_within(f, t, xs, y)
            }
            Libm::Exp => real1(tm, Op::Exp, r[0]),
            Libm::Log => real1(tm, Op::Log, r[0]),
            Libm::Log2 => real1(tm, Op::Log2, r[0]),
            Libm::Log10 => real1(tm, Op::Log10, r[0]),
            // x^y = exp(y log x) for x > 0 (the solver's pow takes constant exponents only)
            Libm::Pow => {
                let l = real1(tm, Op::Log, r[0]);
                let m = tm.mk(NodeKind::Mul(r[1], l), Sort::Real);
                real1(tm, Op::Exp, m)
            }
            Libm::Hypot => {
                let a = tm.mk(NodeKind::Pow(r[0], 2), Sort::Real);
                let b = tm.mk(NodeKind::Pow(r[1], 2), Sort::Real);
                let s = tm.mk(NodeKind::Add(a, b), Sort::Real);
                real1(tm, Op::Nrt(2), s)
            }
        };
        let fin: Vec<T> = xs.iter().map(|&x| tm.finite(x)).collect();
        let fin = tm.chain(BoolOp::And, &fin);
        let zero = tm.int(0);
        let domain = match f {
            Libm::Log | Libm::Log2 | Libm::Log10 | Libm::Pow => tm.rel(RelOp::Gt, r[0], zero),
            Libm::Asin | Libm::Acos => unreachable!("returned above"),
            _ => tm.boolean(true),
        };
        let (rel, tiny, big) = error_bound(t);
        let rel = tm.num(rel, Sort::Real);
        let tiny = tm.num(tiny, Sort::Real);
        let big = tm.num(
            Rational::from_integer(num_bigint::BigInt::from(2u8).pow(big)),
            Sort::Int,
        );
        // (not (fin and domain)) or (abs(exact) >= big)
        //   or (finite(y) and abs(to_real(y) - exact) <= rel * abs(exact) + tiny)
        let inside = tm.and(fin, domain);
        let outside = tm.not(inside);
        let abs_exact = tm.op(Op::Abs, Sort::Real, vec![exact]);
        let huge = tm.rel(RelOp::Ge, abs_exact, big);
        let fy = tm.finite(y);
        let ry = tm.op(Op::FpToReal, Sort::Real, vec![y]);
        let diff = tm.mk(NodeKind::Sub(ry, exact), Sort::Real);
        let err = tm.op(Op::Abs, Sort::Real, vec![diff]);
        let scaled = tm.mk(NodeKind::Mul(rel, abs_exact), Sort::Real);
        let bound = tm.mk(NodeKind::Add(scaled, tiny), Sort::Real);
        let close = tm.rel(RelOp::Le, err, bound);
        let ok = tm.and(fy, close);
        let a = tm.or(outside, huge);
        tm.or(a, ok)
    }

    /// The condition of [`E::LibmWithin`] for `asin`, `acos`, `atan` and `atan2`, whose
    /// exact value z the solver cannot compute: a relation that z satisfies exactly is stated
    /// for the result y with the slack the error bound allows. With |y - z| <= e (e from
    /// [`error_bound`], the same 8 ulps as for the other functions, with |z| <= pi):
    /// - asin x: sin z = x and sin is 1-Lipschitz, so |sin y - x| <= e, and |y| <= pi/2 + e;
    /// - acos x: cos z = x, so |cos y - x| <= e, and -e <= y <= pi + e;
    /// - atan x: sin z - x cos z = 0 and t -> sin t - x cos t has slope at most 1 + |x|, so
    ///   |sin y - x cos y| <= (1 + |x|) e, and |y| <= pi/2 + e;
    /// - atan2(a, b): a cos z - b sin z = 0, slope at most |a| + |b|, so
    ///   |a cos y - b sin y| <= (|a| + |b|) e, and |y| <= pi + e.
    ///
    /// Stated where the arguments are finite (and, for asin and acos, in [-1, 1]); elsewhere
    /// (NaN, infinities) the result is unconstrained. e = rel · 4 + tiny bounds rel·|z| + tiny
    /// for |z| <= pi; the ranges use 1.571 > pi/2 + e and 3.1417 > pi + e.
    fn inverse_within(&mut self, f: Libm, t: Ty, xs: &[T], y: T) -> T {
        let (rel, tiny, _) = error_bound(t);
        let tm = &mut self.terms;
        let real = |tm: &mut Terms, x: T| tm.op(Op::FpToReal, Sort::Real, vec![x]);
        let abs = |tm: &mut Terms, x: T| tm.op(Op::Abs, Sort::Real, vec![x]);
        let fin: Vec<T> = xs.iter().map(|&x| tm.finite(x)).collect();
        let mut inside = tm.chain(BoolOp::And, &fin);
        let r: Vec<T> = xs.iter().map(|&x| real(tm, x)).collect();
        let ry = real(tm, y);
        // e = rel * 4 + tiny, one constant (the checker folds constant arithmetic, and the
        // printed form must read back to the same IR)
        let e_value = rel * q(4) + tiny;
        let e = tm.num(e_value.clone(), Sort::Real);
        let minus_e = tm.num(-e_value, Sort::Real);
        let minus_half_pi = tm.num(-decimal(1571, 3), Sort::Real);
        let minus_pi = tm.num(-decimal(31417, 4), Sort::Real);
        let sin_y = tm.op(Op::Sin, Sort::Real, vec![ry]);
        let cos_y = tm.op(Op::Cos, Sort::Real, vec![ry]);
        let half_pi = tm.num(decimal(1571, 3), Sort::Real);
        let pi = tm.num(decimal(31417, 4), Sort::Real);
        let (residual, slack, lo, hi) = match f {
            Libm::Asin | Libm::Acos => {
                let one = tm.int(1);
                let minus_one = tm.int(-1);
                let ge = tm.rel(RelOp::Ge, r[0], minus_one);
                let le = tm.rel(RelOp::Le, r[0], one);
                let dom = tm.and(ge, le);
                inside = tm.and(inside, dom);
                let (g, lo, hi) = if f == Libm::Asin {
                    (sin_y, minus_half_pi, half_pi)
                } else {
                    (cos_y, minus_e, pi)
                };
                (tm.mk(NodeKind::Sub(g, r[0]), Sort::Real), e, lo, hi)
            }
            Libm::Atan => {
                let xc = tm.mk(NodeKind::Mul(r[0], cos_y), Sort::Real);
                let res = tm.mk(NodeKind::Sub(sin_y, xc), Sort::Real);
                let one = tm.int(1);
                let ax = abs(tm, r[0]);
                let k = tm.mk(NodeKind::Add(one, ax), Sort::Real);
                let slack = tm.mk(NodeKind::Mul(k, e), Sort::Real);
                (res, slack, minus_half_pi, half_pi)
            }
            _ => {
                // atan2(a, b)
                let ac = tm.mk(NodeKind::Mul(r[0], cos_y), Sort::Real);
                let bs = tm.mk(NodeKind::Mul(r[1], sin_y), Sort::Real);
                let res = tm.mk(NodeKind::Sub(ac, bs), Sort::Real);
                let aa = abs(tm, r[0]);
                let ab = abs(tm, r[1]);
                let k = tm.mk(NodeKind::Add(aa, ab), Sort::Real);
                let slack = tm.mk(NodeKind::Mul(k, e), Sort::Real);
                (res, slack, minus_pi, pi)
            }
        };
        // not inside or (finite(y) and lo <= y <= hi and |residual| <= slack)
        let outside = tm.not(inside);
        let fy = tm.finite(y);
        let above = tm.rel(RelOp::Ge, ry, lo);
        let below = tm.rel(RelOp::Le, ry, hi);
        let ares = abs(tm, residual);
        let close = tm.rel(RelOp::Le, ares, slack);
        let ok = tm.chain(BoolOp::And, &[fy, above, below, close]);
        tm.or(outside, ok)
    }

    fn merge(&mut self, contribs: Vec<Contribution>) -> (T, Env) {
        if contribs.len() == 1 {
            let c = contribs.into_iter().next().unwrap();
            return (c.cond, c.env);
        }
        let conds: Vec<T> = contribs.iter().map(|c| c.cond).collect();
        let any = self.terms.chain(BoolOp::Or, &conds);
        let reach = self.share_bool(any);
        let mut keys: Vec<usize> = contribs
            .iter()
            .flat_map(|c| c.env.keys().copied())
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let mut env = Env::new();
        for k in keys {
            let vals: Vec<T> = contribs.iter().map(|c| self.var(k, &c.env)).collect();
            if vals.iter().all(|v| *v == vals[0]) {
                env.insert(k, vals[0]);
                continue;
            }
            let sort = self.terms.sort(vals[0]);
            let mut e = *vals.last().unwrap();
            for i in (0..vals.len() - 1).rev() {
                e = self.terms.mk(NodeKind::Ite(conds[i], vals[i], e), sort);
            }
            let t = self.cfg.vars[k].ty;
            let e = self.share(e, t);
            env.insert(k, e);
        }
        (reach, env)
    }

    fn block(&mut self, cut: usize, blocks: &mut [BlockSites]) -> Result<(), String> {
        let cfg = self.cfg;
        let pc = self.pc_of[&cut];
        self.guard = self.terms.pc_is(self.pc, pc, false);
        let tt = self.terms.boolean(true);
        let ff = self.terms.boolean(false);
        let is_cut = |n: usize| n == cut || cfg.loop_head[n] || n == cfg.stop || n == cfg.entry;
        // region: nodes reached from the cut without passing through another cut point
        let mut region = vec![cut];
        let mut seen: HashMap<usize, ()> = HashMap::new();
        seen.insert(cut, ());
        let mut q = VecDeque::from([cut]);
        while let Some(n) = q.pop_front() {
            for e in &cfg.nodes[n] {
                if !is_cut(e.to) && !seen.contains_key(&e.to) {
                    seen.insert(e.to, ());
                    region.push(e.to);
                    q.push_back(e.to);
                }
            }
        }
        // topological order (Kahn)
        let mut indeg: HashMap<usize, usize> = region.iter().map(|&n| (n, 0)).collect();
        for &n in &region {
            for e in &cfg.nodes[n] {
                if !is_cut(e.to) {
                    *indeg.get_mut(&e.to).unwrap() += 1;
                }
            }
        }
        let mut order = Vec::new();
        let mut ready = VecDeque::from([cut]);
        while let Some(n) = ready.pop_front() {
            order.push(n);
            for e in &cfg.nodes[n] {
                if !is_cut(e.to) {
                    let d = indeg.get_mut(&e.to).unwrap();
                    *d -= 1;
                    if *d == 0 {
                        ready.push_back(e.to);
                    }
                }
            }
        }
        if order.len() != region.len() {
            return Err("control flow with a cycle that passes no loop head".into());
        }
        let mut incoming: HashMap<usize, Vec<Contribution>> = HashMap::new();
        let mut exits: BTreeMap<usize, Vec<Contribution>> = BTreeMap::new();
        let mut hit_terms = Vec::new();
        let mut ub_terms = Vec::new();
        let mut sites = Vec::new();
        incoming.insert(
            cut,
            vec![Contribution {
                cond: tt,
                env: Env::new(),
            }],
        );
        for &n in &order {
            // the command's deadline and memory budget (issue #24)
            if let Err(stop) = solver::budget::check() {
                return Err(stop.text().to_string());
            }
            let Some(contribs) = incoming.remove(&n) else {
                continue;
            };
            let (reach, mut env) = self.merge(contribs);
            if cfg.nodes[n].is_empty() && n != cut {
                // a dead end (cannot happen for a complete graph): the run stops
                exits.entry(cfg.stop).or_default().push(Contribution {
                    cond: reach,
                    env: env.clone(),
                });
            }
            // the last out-edge takes the environment instead of copying it: long chains of
            // assignments (initialising a large object) stay linear
            let nout = cfg.nodes[n].len();
            for (ei, e) in cfg.nodes[n].iter().enumerate() {
                let last = ei + 1 == nout;
                macro_rules! env_copy {
                    () => {
                        if last {
                            std::mem::take(&mut env)
                        } else {
                            env.clone()
                        }
                    };
                }
                let (cond, env2) = match &e.ins {
                    Ins::Skip => (reach, env_copy!()),
                    Ins::Assign(v, x) => {
                        let s = self.emit(x, &env);
                        let vi = &cfg.vars[*v];
                        let s = if vi.is_temp && self.terms.len(s) > SHARE_TEMP_LEN {
                            // a large sub-expression the translation split off: it is used
                            // several times (checks and the result)
                            self.temp(vi.ty, s, false)
                        } else {
                            self.share(s, vi.ty)
                        };
                        let mut env2 = env_copy!();
                        env2.insert(*v, s);
                        (reach, env2)
                    }
                    Ins::Assume(c) => {
                        let s = self.emit(c, &env);
                        let cond = if reach == tt {
                            s
                        } else {
                            self.terms.and(reach, s)
                        };
                        (self.share_bool(cond), env_copy!())
                    }
                    Ins::Havoc(v, site) => {
                        let (val, taken) = self.site_ids[*site];
                        // pc = K -> (taken <-> reach)
                        let g = self.terms.var(taken, false);
                        let def = self.terms.bool2(BoolOp::Iff, g, reach);
                        let c = self.terms.bool2(BoolOp::Impl, self.guard, def);
                        self.trans.push(c);
                        sites.push(InputSite {
                            site: *site,
                            value: val,
                            taken,
                        });
                        let mut env2 = env_copy!();
                        let val = self.terms.var(val, false);
                        env2.insert(*v, val);
                        (reach, env2)
                    }
                    Ins::Forget(v) => {
                        self.temps += 1;
                        let id = self.terms.declare(
                            format!("_fv{}", self.temps),
                            cfg.vars[*v].ty,
                            String::new(),
                        );
                        let mut env2 = env_copy!();
                        let val = self.terms.var(id, false);
                        env2.insert(*v, val);
                        (reach, env2)
                    }
                    Ins::Goal(g) => {
                        if self.sel_hit[*g] {
                            hit_terms.push(reach);
                        }
                        (reach, env_copy!())
                    }
                    Ins::Check(g, c) => {
                        if self.sel_hit[*g] || self.sel_ub[*g] {
                            let s = self.emit(c, &env);
                            let t = self.terms.and(reach, s);
                            if self.sel_hit[*g] {
                                hit_terms.push(t);
                            }
                            if self.sel_ub[*g] {
                                ub_terms.push(t);
                            }
                        }
                        (reach, env_copy!())
                    }
                    // resolved by the lowerer before encoding
                    Ins::Store(..) | Ins::CheckAccess(..) => {
                        return Err("internal error: unresolved pointer access".into())
                    }
                };
                if cond == ff {
                    continue;
                }
                let c = Contribution { cond, env: env2 };
                if is_cut(e.to) {
                    exits.entry(e.to).or_default().push(c);
                } else {
                    incoming.entry(e.to).or_default().push(c);
                }
            }
        }
        blocks[pc] = BlockSites { sites };
        let g = self.guard;
        let mut all = Vec::new();
        for (t, cs) in exits {
            let (cond, env) = self.merge(cs);
            all.push(cond);
            // (pc = K and cond) -> (pc' = K' and x1' = e1 and ...)
            let mut parts = vec![self.terms.pc_is(self.pc, self.pc_of[&t], true)];
            for (i, v) in cfg.vars.iter().enumerate() {
                if v.ty == Ty::Void {
                    continue; // free choice variables
                }
                let next = self.terms.var(self.var_id[i], true);
                let val = self.var(i, &env);
                parts.push(self.terms.rel(RelOp::Eq, next, val));
            }
            let lhs = self.terms.and(g, cond);
            let rhs = self.terms.chain(BoolOp::And, &parts);
            let c = self.terms.bool2(BoolOp::Impl, lhs, rhs);
            self.trans.push(c);
        }
        let c = if all.is_empty() {
            // not (pc = K)
            self.terms.not(g)
        } else {
            // pc = K -> (exit1 or exit2 or ...)
            let any = self.terms.chain(BoolOp::Or, &all);
            self.terms.bool2(BoolOp::Impl, g, any)
        };
        self.trans.push(c);
        for (flag, terms) in [(self.hit, hit_terms), (self.ub, ub_terms)] {
            // pc = K -> (hit' <-> (t1 or t2 or ...))
            let val = if terms.is_empty() {
                ff
            } else {
                self.terms.chain(BoolOp::Or, &terms)
            };
            let next = self.terms.var(flag, true);
            let def = self.terms.bool2(BoolOp::Iff, next, val);
            let c = self.terms.bool2(BoolOp::Impl, g, def);
            self.trans.push(c);
        }
        Ok(())
    }

    /// Copies term `root` into `ir` as one constraint (a tree: shared terms are repeated).
    fn constraint(&self, root: T, ir: &mut Ir) -> Result<Constraint, String> {
        let first = ir.len() as NodeId;
        let mut stack = vec![(root, false)];
        let mut done: Vec<NodeId> = Vec::new();
        let mut ops = Vec::new();
        while let Some((t, expanded)) = stack.pop() {
            // the IR is a tree, so a term shared along many paths (a variable's value after
            // 20,000 chained `if`s) is written out once per path: gigabytes, which must stop
            // at the command's deadline and memory budget like every other phase (issue #24)
            solver::budget::check().map_err(|stop| stop.text().to_string())?;
            let kind = &self.terms.kinds[t as usize];
            ops.clear();
            kind.operands(&mut ops);
            if !expanded {
                stack.push((t, true));
                for &o in ops.iter().rev() {
                    stack.push((o, false));
                }
                continue;
            }
            let args = done.split_off(done.len() - ops.len());
            let id = ir.push(
                kind.with_operands(&args),
                self.terms.sorts[t as usize],
                Span::default(),
            );
            done.push(id);
        }
        let root = done[0];
        Ok(Constraint {
            first,
            end: ir.len() as NodeId,
            root,
            span: Span::default(),
        })
    }
}

/// The transition system of `cfg` looking for the goals of `sel`.
pub fn encode(cfg: &Cfg, sel: &Selection) -> Result<Encoded, String> {
    let mut cuts = vec![cfg.entry];
    for (n, &h) in cfg.loop_head.iter().enumerate() {
        if h {
            cuts.push(n);
        }
    }
    cuts.push(cfg.stop);
    let pc_of: HashMap<usize, usize> = cuts.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let mut sel_hit = vec![false; cfg.goals.len()];
    for &g in &sel.hit {
        sel_hit[g] = true;
    }
    let mut sel_ub = vec![false; cfg.goals.len()];
    for &g in &sel.ub {
        sel_ub[g] = true;
    }
    let mut terms = Terms {
        kinds: Vec::new(),
        sorts: Vec::new(),
        lens: Vec::new(),
        index: HashMap::new(),
        decls: Vec::new(),
        notes: Vec::new(),
    };
    // declaration order: pc, hit, ub, the program's variables, the nondet sites, then the
    // temporaries as the encoding introduces them
    let pc = terms.declare_as(
        "pc".into(),
        TypeKind::Int,
        Sort::Int,
        Domain::closed(q(0), q(cuts.len() as i128 - 1)),
        String::new(),
    );
    let hit = terms.declare("hit".into(), Ty::Void, String::new());
    let ub = terms.declare("ub".into(), Ty::Void, String::new());
    let var_id: Vec<StateId> = cfg
        .vars
        .iter()
        .map(|v| terms.declare(v.hys.clone(), v.ty, v.c_name.clone()))
        .collect();
    let site_ids: Vec<(StateId, StateId)> = cfg
        .nondets
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let v = terms.declare(format!("_nd{i}"), n.ty, String::new());
            let g = terms.declare(format!("_ndr{i}"), Ty::Void, String::new());
            (v, g)
        })
        .collect();
    let mut enc = Enc {
        cfg,
        terms,
        trans: Vec::new(),
        temps: 0,
        pc_of: pc_of.clone(),
        sel_hit,
        sel_ub,
        pc,
        hit,
        ub,
        var_id: var_id.clone(),
        site_ids,
        guard: 0,
    };
    let mut blocks = vec![BlockSites::default(); cuts.len()];
    for &c in &cuts {
        if c == cfg.stop {
            continue;
        }
        enc.block(c, &mut blocks)?;
    }
    let pc_stop = pc_of[&cfg.stop];
    // not (pc = stop)
    let at_stop = enc.terms.pc_is(pc, pc_stop, false);
    let c = enc.terms.not(at_stop);
    enc.trans.push(c);
    // INIT: pc = entry, not hit, not ub
    let at_entry = enc.terms.pc_is(pc, pc_of[&cfg.entry], false);
    let h = enc.terms.var(hit, false);
    let u = enc.terms.var(ub, false);
    let not_h = enc.terms.not(h);
    let not_u = enc.terms.not(u);
    // TARGET: hit or ub
    let target = enc.terms.or(h, u);
    let mut ir = Ir::default();
    let mut sections = Vec::new();
    for (kind, roots) in [
        (SectionKind::Init, vec![at_entry, not_h, not_u]),
        (SectionKind::Trans, std::mem::take(&mut enc.trans)),
        (SectionKind::Target, vec![target]),
    ] {
        let constraints = roots
            .iter()
            .map(|&r| enc.constraint(r, &mut ir))
            .collect::<Result<Vec<_>, _>>()?;
        sections.push(CheckedSection {
            kind,
            span: Span::default(),
            constraints,
        });
    }
    let Terms { decls, notes, .. } = enc.terms;
    Ok(Encoded {
        system: Checked::from_parts(decls, ir, sections, true),
        notes,
        blocks,
        pc,
        hit,
        ub,
        pc_stop,
        var_id,
        pc_of_node: pc_of,
    })
}
