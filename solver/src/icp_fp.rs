//! IEEE-754 variables in the solver, and the propagators of the IEEE operations (issue #4,
//! points 1–2; language doc Part B).
//!
//! The idea: an IEEE variable is three solver variables. Its *value* is an ordinary numeric
//! variable whose bound literals range over the floats of its format (`±inf` included as
//! closed ends, see [`BoundAtom::fp`]): like integers, floats are a discrete set, so a bound
//! and its negation are both closed, splits narrow down to single floats and every answer is
//! exact. Two Boolean *flags* carry what the value line cannot: `nan` (the variable is NaN)
//! and `neg` (its sign bit, which only matters for zero — `-0` and `+0` are the same value).
//! A NaN is canonical — value 0, `neg` false — so that each float is exactly one assignment
//! of the three, and five clauses per variable tie them together:
//! `nan ⇒ x <= 0`, `nan ⇒ x >= 0`, `nan ⇒ ¬neg`, `x > 0 ⇒ ¬neg`, `x < 0 ⇒ neg`.
//!
//! Propagators read each variable's [`FpDom`] from its bounds and flags, contract with the
//! pure functions of [`crate::contractors::ieee`], and post the difference as bound and flag
//! literals. The reason of every deduction is the set of bound and flag literals of all the
//! propagator's variables (as for the other non-linear operations). Progress on a value
//! bound is measured in floats (keys of the float lattice), so that a chain of one-float
//! steps (think `x < y ∧ y < x` from wide boxes) stops after a few steps and leaves the
//! rest to splitting — the minimal progress rule of [`crate::config`] in float units.

use crate::bound_table::BoundAtom;
use crate::contractors::ieee::{self as fc, BoolPoss, FpClass, FpDom};
use crate::formula::{Op, Sort};
use crate::icp_bv::{int_iv, to_interval};
use crate::interval::Interval;
use crate::lit::{LBool, Lit};
use crate::num::{ieee, FpFormat, IntType, Rational, RoundingMode};
use crate::solve::{Conflict, FpFlags, Solver, VarKind};
use crate::var::Var;

/// The largest float of `f` that is `<= q` (`< q` if `strict`), as a double; `-inf` if no
/// finite float is.
pub(crate) fn float_at_or_below(f: FpFormat, q: &Rational, strict: bool) -> f64 {
    let bits = f.round_rational(q, RoundingMode::Rtn);
    let v = ieee::to_f64(f, bits);
    if strict && v.is_finite() && Rational::from_float(v).as_ref() == Some(q) {
        ieee::to_f64(f, ieee::next_down(f, bits))
    } else {
        v + 0.0
    }
}

/// Binary IEEE arithmetic.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum FpBin {
    Add,
    Sub,
    Mul,
    Div,
}

/// IEEE relations with a Boolean output.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum FpRel {
    Lt,
    Le,
    Eq,
    Same,
}

/// How an IEEE propagator contracts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum FpProp {
    /// `out = a ∘ b`
    Bin(FpBin, RoundingMode),
    /// `out = a·b + c`
    Fma(RoundingMode),
    Sqrt(RoundingMode),
    Neg,
    Abs,
    Min,
    Max,
    /// fp → fp of another (or the same) format
    Convert(RoundingMode),
    /// an `int`, real or machine-integer value rounded into a format
    RoundReal(RoundingMode),
    /// fp → integer sort (C truncation)
    ToInt,
    /// fp → real (the exact value)
    ToReal,
    /// fp → its bit pattern, a machine integer of the format's width (`fp_bits`)
    ToBits(IntType),
    /// a machine integer's bit pattern → the float it encodes (`fp32_of_bits`, ...)
    OfBits(IntType),
    /// Boolean `out = rel(a, b)`
    Rel(FpRel),
    /// Boolean `out = class(a)`
    Class(FpClass),
    /// `out = if a then b else c` over IEEE values
    Ite,
}

/// The propagator kind of an IEEE operation, or `None` if `op` is not one (or the sorts
/// do not fit).
pub(crate) fn make_fp_prop(s: &Solver, out: Var, op: &Op, args: &[Var]) -> Option<FpProp> {
    let kind = |v: Var| s.vars[v].kind;
    let is_fp = |v: Var| matches!(kind(v), VarKind::Fp(_));
    let is_num = |v: Var| matches!(kind(v), VarKind::Int | VarKind::Real);
    let is_bool = |v: Var| kind(v) == VarKind::Bool;
    let same_fmt = |vs: &[Var]| {
        vs.iter()
            .all(|&v| s.vars[v].sort == s.vars[out].sort && is_fp(v))
    };
    let n = args.len();
    let p = match op {
        Op::FAdd(rm) => FpProp::Bin(FpBin::Add, *rm),
        Op::FSub(rm) => FpProp::Bin(FpBin::Sub, *rm),
        Op::FMul(rm) => FpProp::Bin(FpBin::Mul, *rm),
        Op::FDiv(rm) => FpProp::Bin(FpBin::Div, *rm),
        Op::FFma(rm) => FpProp::Fma(*rm),
        Op::FSqrt(rm) => FpProp::Sqrt(*rm),
        Op::FNeg => FpProp::Neg,
        Op::FAbs => FpProp::Abs,
        Op::FMin => FpProp::Min,
        Op::FMax => FpProp::Max,
        Op::ToFp(rm) if n == 1 && is_fp(args[0]) => FpProp::Convert(*rm),
        Op::ToFp(rm) if n == 1 && is_num(args[0]) => FpProp::RoundReal(*rm),
        Op::FpToInt => FpProp::ToInt,
        Op::FpToReal => FpProp::ToReal,
        Op::FpToBits => match s.vars[out].sort {
            Sort::MachineInt(t) => FpProp::ToBits(t),
            _ => return None,
        },
        Op::FpOfBits if n == 1 => match s.vars[args[0]].sort {
            Sort::MachineInt(t) => FpProp::OfBits(t),
            _ => return None,
        },
        Op::FLt => FpProp::Rel(FpRel::Lt),
        Op::FLe => FpProp::Rel(FpRel::Le),
        Op::FEq => FpProp::Rel(FpRel::Eq),
        Op::FSame => FpProp::Rel(FpRel::Same),
        Op::IsNan => FpProp::Class(FpClass::Nan),
        Op::IsInf => FpProp::Class(FpClass::Inf),
        Op::IsZero => FpProp::Class(FpClass::Zero),
        Op::IsSubnormal => FpProp::Class(FpClass::Subnormal),
        Op::IsNormal => FpProp::Class(FpClass::Normal),
        Op::IsNeg => FpProp::Class(FpClass::Neg),
        Op::Ite if n == 3 && is_fp(out) => FpProp::Ite,
        _ => return None,
    };
    let ok = match p {
        FpProp::Bin(..) | FpProp::Min | FpProp::Max => n == 2 && same_fmt(args),
        FpProp::Fma(_) => n == 3 && same_fmt(args),
        FpProp::Sqrt(_) | FpProp::Neg | FpProp::Abs => n == 1 && same_fmt(args),
        FpProp::Convert(_) | FpProp::RoundReal(_) => is_fp(out),
        FpProp::ToInt => n == 1 && is_fp(args[0]) && kind(out) == VarKind::Int,
        FpProp::ToReal => n == 1 && is_fp(args[0]) && kind(out) == VarKind::Real,
        FpProp::Rel(_) => {
            n == 2 && is_bool(out) && is_fp(args[0]) && s.vars[args[0]].sort == s.vars[args[1]].sort
        }
        FpProp::Class(_) => n == 1 && is_bool(out) && is_fp(args[0]),
        FpProp::ToBits(t) => {
            n == 1 && matches!(kind(args[0]), VarKind::Fp(f) if f.total_bits() == t.bits as u32)
        }
        FpProp::OfBits(t) => matches!(kind(out), VarKind::Fp(f) if f.total_bits() == t.bits as u32),
        FpProp::Ite => is_bool(args[0]) && same_fmt(&args[1..]),
    };
    ok.then_some(p)
}

impl Solver {
    /// Creates the flags of a new IEEE value variable `v` and the clauses that tie them to it
    /// (module docs), then asserts its declared domain.
    pub(crate) fn init_fp_var(&mut self, v: Var, f: FpFormat, domain: &crate::formula::Domain) {
        let nan = self.new_bool();
        let neg = self.new_bool();
        self.vars[v].fp = Some(FpFlags { nan, neg });
        let nan_l = self.flag_lit(nan);
        let neg_l = self.flag_lit(neg);
        let min_sub = ieee::to_f64(f, 1);
        let le0 = Lit::pos(self.intern_bound_atom(BoundAtom::fp(v, 0.0, f)));
        let lt0 = Lit::pos(self.intern_bound_atom(BoundAtom::fp(v, -min_sub, f)));
        self.add_clause(&[!nan_l, le0]);
        self.add_clause(&[!nan_l, !lt0]);
        self.add_clause(&[!nan_l, !neg_l]);
        self.add_clause(&[le0, !neg_l]);
        self.add_clause(&[!lt0, neg_l]);
        // the two sign atoms are encoding, not choices the formula cares about: deciding
        // them would pin every float to 0 first (the split phase goes toward zero)
        // The flags, too, are decided by the split heuristic of the variable, not by VSIDS:
        // so they are still open when the first exact point checks run, and those can try
        // NaN and signed zeros (decide.rs, `fp_input_point`).
        for l in [le0, lt0, nan_l, neg_l] {
            self.decidable[l.atom().index()] = false;
        }
        self.assert_domain(v, domain);
    }

    fn flag_lit(&self, b: Var) -> Lit {
        Lit::pos(self.vars[b].bool_atom.expect("flag is Boolean"))
    }

    /// Asserts that IEEE variable `v` is exactly the float `bits` (constants: the domain
    /// alone cannot say `-0` or NaN).
    pub(crate) fn assert_fp_point(&mut self, v: Var, bits: u64) {
        for l in self.fp_point_lits(v, bits) {
            self.add_clause(&[l]);
        }
    }

    /// Assumption literals that fix IEEE variable `v` to exactly the float `bits` (its
    /// value bounds and both flags); empty for a variable of another sort.
    pub fn fp_point_lits(&mut self, v: Var, bits: u64) -> Vec<Lit> {
        let (VarKind::Fp(f), Some(fl)) = (self.vars[v].kind, self.vars[v].fp) else {
            return Vec::new();
        };
        let nan_l = self.flag_lit(fl.nan);
        let neg_l = self.flag_lit(fl.neg);
        if f.is_nan(bits) {
            return vec![nan_l];
        }
        let mut out = vec![!nan_l];
        let x = ieee::to_f64(f, bits);
        if x < f64::INFINITY {
            out.push(Lit::pos(self.intern_bound_atom(BoundAtom::fp(v, x, f))));
        }
        if x > f64::NEG_INFINITY {
            let below = ieee::to_f64(f, ieee::next_down(f, bits));
            out.push(!Lit::pos(
                self.intern_bound_atom(BoundAtom::fp(v, below, f)),
            ));
        }
        out.push(if f.is_negative(bits) { neg_l } else { !neg_l });
        out
    }

    /// The current domain of IEEE variable `v`.
    pub(crate) fn fp_dom(&self, v: Var) -> FpDom {
        let (VarKind::Fp(f), Some(fl)) = (self.vars[v].kind, self.vars[v].fp) else {
            unreachable!("fp_dom of a non-IEEE variable")
        };
        let nan = self.bool_value(fl.nan);
        if nan == LBool::True {
            return FpDom::nan_only(f);
        }
        let neg = self.bool_value(fl.neg);
        let (mut lo, mut hi) = (self.lb[v].0.v, self.ub[v].0.v);
        // a known sign bit bounds the non-NaN values (the clauses do too, once BCP ran)
        match neg {
            LBool::True => hi = hi.min(0.0),
            LBool::False => lo = lo.max(0.0),
            LBool::Undef => {}
        }
        FpDom {
            fmt: f,
            nan: nan != LBool::False,
            lo,
            hi,
            neg_zero: neg != LBool::False,
            pos_zero: neg != LBool::True,
        }
        .normalized()
    }

    /// Pushes the bound literals of `v` and, for an IEEE variable, its flag literals.
    fn push_fp_reason(&mut self, v: Var) {
        self.push_bounds(v, true, true);
        if let Some(fl) = self.vars[v].fp {
            self.push_bounds(fl.nan, true, true);
            self.push_bounds(fl.neg, true, true);
        }
    }

    /// Fills `reason_buf` with the literals of all variables of propagator `p`.
    fn fp_reason(&mut self, p: u32) {
        self.reason_buf.clear();
        let n = self.props[p as usize].args.len();
        let out = self.props[p as usize].out;
        self.push_fp_reason(out);
        for i in 0..n {
            let a = self.props[p as usize].args[i];
            self.push_fp_reason(a);
        }
    }

    /// Assigns `lit` with the reason in `reason_buf` (committed once per deduction).
    fn fp_assign(
        &mut self,
        lit: Lit,
        committed: &mut Option<crate::solve::Reason>,
    ) -> Result<(), Conflict> {
        match self.lit_value(lit) {
            LBool::True => Ok(()),
            LBool::False => {
                self.confl_lits.clear();
                self.confl_lits.extend_from_slice(&self.reason_buf);
                self.confl_lits.push(!lit);
                Err(Conflict::Lits)
            }
            LBool::Undef => {
                let r = match committed {
                    Some(r) => *r,
                    None => {
                        let r = self.commit_reason();
                        *committed = Some(r);
                        r
                    }
                };
                self.stats.icp_contractions += 1;
                self.assign(lit, r)
            }
        }
    }

    /// A conflict over `reason_buf` (it holds the literals of every variable involved).
    fn fp_conflict(&mut self) -> Conflict {
        self.confl_lits.clear();
        self.confl_lits.extend_from_slice(&self.reason_buf);
        Conflict::Lits
    }

    /// Narrows IEEE variable `v` to `d` (intersected with its current domain), with the
    /// reason of propagator `p`. The reason is built only if something is posted.
    fn post_fp(&mut self, p: u32, v: Var, d: &FpDom) -> Result<(), Conflict> {
        let cur = self.fp_dom(v);
        let new = cur.intersect(d);
        let (VarKind::Fp(f), Some(fl)) = (self.vars[v].kind, self.vars[v].fp) else {
            unreachable!("post_fp on a non-IEEE variable")
        };
        let mut lits: Vec<Lit> = Vec::new();
        if new.is_empty() {
            self.fp_reason(p);
            return Err(self.fp_conflict());
        }
        let nan_l = self.flag_lit(fl.nan);
        let neg_l = self.flag_lit(fl.neg);
        if cur.nan && !new.nan {
            lits.push(!nan_l);
        }
        if !new.has_values() {
            if cur.has_values() {
                lits.push(nan_l);
            }
        } else {
            // the value variable also holds the canonical NaN's 0 while NaN is possible
            let (lo, hi) = if new.nan {
                (new.lo.min(0.0), new.hi.max(0.0))
            } else {
                (new.lo, new.hi)
            };
            let (clo, chi) = (self.lb[v].0.v, self.ub[v].0.v);
            if lo > clo && self.fp_progress(v, f, clo, lo, chi) {
                let below = ieee::to_f64(f, ieee::next_down(f, bits_of(f, lo)));
                let a = self.intern_internal_atom(BoundAtom::fp(v, below, f));
                lits.push(!Lit::pos(a));
            }
            if hi < chi && self.fp_progress(v, f, chi, hi, clo) {
                let a = self.intern_internal_atom(BoundAtom::fp(v, hi, f));
                lits.push(Lit::pos(a));
            }
            if lits.len() > usize::from(cur.nan && !new.nan) {
                self.count_step(v);
            }
            let zero_in = new.lo <= 0.0 && 0.0 <= new.hi;
            let can_neg = new.lo < 0.0 || (zero_in && new.neg_zero);
            let can_pos = new.nan || new.hi > 0.0 || (zero_in && new.pos_zero);
            if !can_neg {
                lits.push(!neg_l);
            }
            if !can_pos {
                lits.push(neg_l);
            }
        }
        lits.retain(|&l| self.lit_value(l) != LBool::True);
        if lits.is_empty() {
            return Ok(());
        }
        #[cfg(feature = "check-deductions")]
        self.check_fp_deduction(p, v, &|val| match val {
            crate::model::Value::Fp(b) => new.contains(*b),
            _ => true,
        });
        self.fp_reason(p);
        let mut committed = None;
        for l in lits {
            self.fp_assign(l, &mut committed)?;
        }
        Ok(())
    }

    /// Whether moving a bound of `v` from `old` to `new` (the other end at `other`) is
    /// worth a literal: always from an infinite end, else at least `mpr` of the width
    /// counted in floats (and at least one float). Against an infinite *other* end every
    /// step counts, unless `v` moved many times since the last decision: then `±inf` counts
    /// as a float of the width, which stops crawls such as `s' = s + 0.5` against `s' = s`
    /// walking `s` up one half at a time over `[11070, inf)` (millions of ICP runs).
    fn fp_progress(&self, v: Var, f: FpFormat, old: f64, new: f64, other: f64) -> bool {
        if !old.is_finite() {
            return true;
        }
        if !other.is_finite() && !self.crawling(v) {
            return true;
        }
        let key = |x: f64| ieee::ord_key(f, bits_of(f, x)) as f64;
        let width = (key(old) - key(other)).abs();
        let step = (key(old) - key(new)).abs();
        step >= 1.0 && step >= self.config.mpr * width
    }

    /// Narrows the numeric variable `v` to `iv` with the reason of propagator `p`.
    fn post_num_fp(&mut self, p: u32, v: Var, iv: Interval) -> Result<(), Conflict> {
        let cur = self.ibox(v);
        let cut = cur.intersect(iv);
        if cut == cur {
            return Ok(());
        }
        #[cfg(feature = "check-deductions")]
        self.check_fp_deduction(p, v, &|val| match val {
            crate::model::Value::Num(q) => iv.contains_rational(q),
            _ => true,
        });
        self.fp_reason(p);
        self.post_with_reason(p, v, iv)
    }

    /// Decides a Boolean output from its possibilities, or returns its value.
    fn post_bool(&mut self, p: u32, out: Var, poss: BoolPoss) -> Result<LBool, Conflict> {
        let l = self.flag_lit(out);
        let val = self.lit_value(l);
        let want = match (poss.can_true, poss.can_false) {
            (true, true) => return Ok(val),
            (false, false) => {
                self.fp_reason(p);
                return Err(self.fp_conflict());
            }
            (true, false) => l,
            (false, true) => !l,
        };
        if self.lit_value(want) == LBool::True {
            return Ok(val);
        }
        #[cfg(feature = "check-deductions")]
        {
            let keep = poss;
            self.check_fp_deduction(p, out, &|val| match val {
                crate::model::Value::Bool(b) => {
                    if *b {
                        keep.can_true
                    } else {
                        keep.can_false
                    }
                }
                _ => true,
            });
        }
        self.fp_reason(p);
        let mut committed = None;
        self.fp_assign(want, &mut committed)?;
        Ok(self.lit_value(l))
    }

    /// Runs IEEE propagator `p` once: forward, then backward for each argument on the
    /// narrowed boxes.
    pub(crate) fn run_fp(&mut self, p: u32, kind: FpProp) -> Result<(), Conflict> {
        let out = self.props[p as usize].out;
        let args = self.props[p as usize].args.clone();
        match kind {
            FpProp::Bin(op, rm) => {
                let (a, b) = (args[0], args[1]);
                let (x, y) = (self.fp_dom(a), self.fp_dom(b));
                let z = match op {
                    FpBin::Add => fc::fwd_add(rm, &x, &y),
                    FpBin::Sub => fc::fwd_sub(rm, &x, &y),
                    FpBin::Mul => fc::fwd_mul(rm, &x, &y),
                    FpBin::Div => fc::fwd_div(rm, &x, &y),
                };
                self.post_fp(p, out, &z)?;
                let z = self.fp_dom(out);
                let nx = match op {
                    FpBin::Add => fc::bwd_add_x(rm, &z, &x, &y),
                    FpBin::Sub => fc::bwd_sub_x(rm, &z, &x, &y),
                    FpBin::Mul => fc::bwd_mul_x(rm, &z, &x, &y),
                    FpBin::Div => fc::bwd_div_x(rm, &z, &x, &y),
                };
                self.post_fp(p, a, &nx)?;
                let x = self.fp_dom(a);
                let y = self.fp_dom(b);
                let ny = match op {
                    FpBin::Add => fc::bwd_add_y(rm, &z, &x, &y),
                    FpBin::Sub => fc::bwd_sub_y(rm, &z, &x, &y),
                    FpBin::Mul => fc::bwd_mul_y(rm, &z, &x, &y),
                    FpBin::Div => fc::bwd_div_y(rm, &z, &x, &y),
                };
                self.post_fp(p, b, &ny)
            }
            FpProp::Fma(rm) => {
                let (a, b, c) = (args[0], args[1], args[2]);
                let (x, y, w) = (self.fp_dom(a), self.fp_dom(b), self.fp_dom(c));
                self.post_fp(p, out, &fc::fwd_fma(rm, &x, &y, &w))?;
                let z = self.fp_dom(out);
                self.post_fp(p, a, &fc::bwd_fma_a(rm, &z, &x, &y, &w))?;
                let x = self.fp_dom(a);
                self.post_fp(p, b, &fc::bwd_fma_b(rm, &z, &x, &y, &w))?;
                let y = self.fp_dom(b);
                self.post_fp(p, c, &fc::bwd_fma_c(rm, &z, &x, &y, &w))
            }
            FpProp::Sqrt(rm) => {
                let a = args[0];
                let x = self.fp_dom(a);
                self.post_fp(p, out, &fc::fwd_sqrt(rm, &x))?;
                let z = self.fp_dom(out);
                self.post_fp(p, a, &fc::bwd_sqrt_x(rm, &z, &x))
            }
            FpProp::Neg | FpProp::Abs => {
                let a = args[0];
                let x = self.fp_dom(a);
                let neg = kind == FpProp::Neg;
                let z = if neg {
                    fc::fwd_neg(&x)
                } else {
                    fc::fwd_abs(&x)
                };
                self.post_fp(p, out, &z)?;
                let z = self.fp_dom(out);
                let nx = if neg {
                    fc::bwd_neg_x(&z, &x)
                } else {
                    fc::bwd_abs_x(&z, &x)
                };
                self.post_fp(p, a, &nx)
            }
            FpProp::Min | FpProp::Max => {
                let (a, b) = (args[0], args[1]);
                let (x, y) = (self.fp_dom(a), self.fp_dom(b));
                let min = kind == FpProp::Min;
                let z = if min {
                    fc::fwd_min(&x, &y)
                } else {
                    fc::fwd_max(&x, &y)
                };
                self.post_fp(p, out, &z)?;
                let z = self.fp_dom(out);
                let nx = if min {
                    fc::bwd_min_x(&z, &x, &y)
                } else {
                    fc::bwd_max_x(&z, &x, &y)
                };
                self.post_fp(p, a, &nx)?;
                let x = self.fp_dom(a);
                let ny = if min {
                    fc::bwd_min_y(&z, &x, &y)
                } else {
                    fc::bwd_max_y(&z, &x, &y)
                };
                self.post_fp(p, b, &ny)
            }
            FpProp::Convert(rm) => {
                let a = args[0];
                let Sort::Fp(to) = self.vars[out].sort else {
                    unreachable!("checked by make_fp_prop")
                };
                let x = self.fp_dom(a);
                self.post_fp(p, out, &fc::fwd_convert(rm, to, &x))?;
                let z = self.fp_dom(out);
                self.post_fp(p, a, &fc::bwd_convert_x(rm, &z, &x))
            }
            FpProp::RoundReal(rm) => {
                let a = args[0];
                let Sort::Fp(to) = self.vars[out].sort else {
                    unreachable!("checked by make_fp_prop")
                };
                let ab = self.ibox(a);
                self.post_fp(p, out, &fc::fwd_round_real(rm, to, ab))?;
                let z = self.fp_dom(out);
                let integral = self.vars[a].kind == VarKind::Int;
                let na = fc::bwd_round_real_a(rm, &z, self.ibox(a), integral);
                self.post_num_fp(p, a, na)
            }
            FpProp::ToInt | FpProp::ToReal => {
                let a = args[0];
                let x = self.fp_dom(a);
                // a machine type makes truncations outside its range unspecified too (Part
                // B.2); its ends as doubles rounded *inward*, so that every float whose
                // truncation leaves the type counts as unspecified
                let ty = match self.vars[out].sort {
                    Sort::MachineInt(t) if kind == FpProp::ToInt => {
                        let f = FpFormat::F64;
                        let lo = Rational::from_integer(t.min_value());
                        let hi = Rational::from_integer(t.max_value());
                        Some((
                            ieee::to_f64(f, f.round_rational(&lo, RoundingMode::Rtp)),
                            ieee::to_f64(f, f.round_rational(&hi, RoundingMode::Rtn)),
                        ))
                    }
                    _ => None,
                };
                let iv = match (kind, ty) {
                    (FpProp::ToInt, Some((lo, hi))) => fc::fwd_fp_to_int_typed(&x, lo, hi),
                    (FpProp::ToInt, None) => fc::fwd_fp_to_int(&x),
                    _ => fc::fwd_to_real(&x),
                };
                self.post_num_fp(p, out, iv)?;
                let ob = self.ibox(out);
                let nx = match (kind, ty) {
                    (FpProp::ToInt, Some((lo, hi))) => fc::bwd_fp_to_int_x_typed(ob, &x, lo, hi),
                    (FpProp::ToInt, None) => fc::bwd_fp_to_int_x(ob, &x),
                    _ => fc::bwd_to_real_x(ob, &x),
                };
                self.post_fp(p, a, &nx)
            }
            FpProp::ToBits(t) => {
                let a = args[0];
                let x = self.fp_dom(a);
                let u = fc::fwd_fp_bits(t, &x, int_iv(self.ibox(out)));
                self.post_num_fp(p, out, to_interval(u))?;
                let u = int_iv(self.ibox(out));
                let x = self.fp_dom(a);
                self.post_fp(p, a, &fc::bwd_fp_bits_x(t, u, &x))
            }
            FpProp::OfBits(t) => {
                let a = args[0];
                let Sort::Fp(f) = self.vars[out].sort else {
                    unreachable!("checked by make_fp_prop")
                };
                let u = int_iv(self.ibox(a));
                self.post_fp(p, out, &fc::fwd_fp_of_bits(f, t, u))?;
                let z = self.fp_dom(out);
                let u = int_iv(self.ibox(a));
                self.post_num_fp(p, a, to_interval(fc::bwd_fp_of_bits_u(t, &z, u)))
            }
            FpProp::Rel(rel) if args[0] == args[1] => {
                // `rel(x, x)`: the two operands are one float, which two independent domains
                // cannot express (`x != x` is the NaN test of C); only NaN-ness matters
                let a = args[0];
                let x = self.fp_dom(a);
                let poss = match rel {
                    FpRel::Lt => BoolPoss {
                        can_true: false,
                        can_false: true,
                    },
                    FpRel::Same => BoolPoss {
                        can_true: true,
                        can_false: false,
                    },
                    FpRel::Le | FpRel::Eq => BoolPoss {
                        can_true: x.has_values(),
                        can_false: x.nan,
                    },
                };
                let r = match self.post_bool(p, out, poss)? {
                    LBool::Undef => return Ok(()),
                    v => v == LBool::True,
                };
                if matches!(rel, FpRel::Le | FpRel::Eq) {
                    let nx = fc::bwd_class(FpClass::Nan, !r, &x);
                    self.post_fp(p, a, &nx)?;
                }
                Ok(())
            }
            FpProp::Rel(rel) => {
                let (a, b) = (args[0], args[1]);
                let (x, y) = (self.fp_dom(a), self.fp_dom(b));
                let poss = match rel {
                    FpRel::Lt => fc::fwd_lt(&x, &y),
                    FpRel::Le => fc::fwd_le(&x, &y),
                    FpRel::Eq => fc::fwd_eq(&x, &y),
                    FpRel::Same => fc::fwd_same(&x, &y),
                };
                let r = match self.post_bool(p, out, poss)? {
                    LBool::Undef => return Ok(()),
                    v => v == LBool::True,
                };
                let (nx, ny) = match rel {
                    FpRel::Lt => fc::bwd_lt(r, &x, &y),
                    FpRel::Le => fc::bwd_le(r, &x, &y),
                    FpRel::Eq => fc::bwd_eq(r, &x, &y),
                    FpRel::Same => fc::bwd_same(r, &x, &y),
                };
                self.post_fp(p, a, &nx)?;
                self.post_fp(p, b, &ny)
            }
            FpProp::Class(c) => {
                let a = args[0];
                let x = self.fp_dom(a);
                let r = match self.post_bool(p, out, fc::fwd_class(c, &x))? {
                    LBool::Undef => return Ok(()),
                    v => v == LBool::True,
                };
                self.post_fp(p, a, &fc::bwd_class(c, r, &x))
            }
            FpProp::Ite => {
                let (c, b, e) = (args[0], args[1], args[2]);
                match self.bool_value(c) {
                    LBool::Undef => {
                        let (z, x, y) = (self.fp_dom(out), self.fp_dom(b), self.fp_dom(e));
                        let (zx, zy) = (z.intersect(&x), z.intersect(&y));
                        if zx.is_empty() || zy.is_empty() {
                            // the branch that cannot hold decides the condition
                            let poss = BoolPoss {
                                can_true: !zx.is_empty(),
                                can_false: !zy.is_empty(),
                            };
                            self.post_bool(p, c, poss)?;
                            return Ok(());
                        }
                        self.post_fp(p, out, &x.hull(&y))
                    }
                    v => {
                        let branch = if v == LBool::True { b } else { e };
                        let x = self.fp_dom(branch);
                        self.post_fp(p, out, &x)?;
                        let z = self.fp_dom(out);
                        self.post_fp(p, branch, &z)
                    }
                }
            }
        }
    }
}

/// The bits of a double that is a float of format `f` (zeros as `+0`).
pub(crate) fn bits_of(f: FpFormat, x: f64) -> u64 {
    ieee::from_f64(f, x + 0.0).unwrap_or_else(|| {
        debug_assert!(false, "{x} is not a float of {f:?}");
        f.round_rational(
            &Rational::from_float(x).unwrap_or_default(),
            RoundingMode::Rne,
        )
    })
}

#[cfg(feature = "check-deductions")]
impl Solver {
    /// The independent check of an IEEE deduction (feature `check-deductions`): random
    /// argument tuples from the current domains (which are exactly the deduction's reason)
    /// are evaluated with the exact operations; every tuple whose result lies in the
    /// output's domain is a solution inside the boxes, and the deduction about `v` must
    /// keep `v`'s value in it. Panics with the counterexample otherwise.
    fn check_fp_deduction(&mut self, p: u32, v: Var, keeps: &dyn Fn(&crate::model::Value) -> bool) {
        use crate::model::{eval_def, Eval, Value};
        let out = self.props[p as usize].out;
        let args = self.props[p as usize].args.clone();
        let def = &self.defs[self.props[p as usize].def as usize];
        let op = def.op.clone();
        let arg_sorts: Vec<Sort> = args.iter().map(|&a| self.vars[a].sort).collect();
        let out_sort = self.vars[out].sort;
        let mut seed = self.stats.icp_runs.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..64 {
            let mut vals: Vec<Value> = Vec::with_capacity(args.len());
            for (i, &a) in args.iter().enumerate() {
                // a variable that occurs twice has one value
                if let Some(j) = args[..i].iter().position(|&b| b == a) {
                    let x = vals[j].clone();
                    vals.push(x);
                    continue;
                }
                match self.sample_value(a, next()) {
                    Some(x) => vals.push(x),
                    None => return,
                }
            }
            let refs: Vec<&Value> = vals.iter().collect();
            let o = match eval_def(&op, &refs, &arg_sorts, out_sort) {
                Eval::Num(q) => Value::Num(q),
                Eval::Fp(b) => Value::Fp(b),
                Eval::Bool(b) => Value::Bool(b),
                Eval::Any | Eval::Fail => continue,
            };
            if !self.value_in_domain(out, &o) {
                continue;
            }
            let x = if v == out {
                &o
            } else {
                match args.iter().position(|&a| a == v) {
                    Some(i) => &vals[i],
                    None => continue,
                }
            };
            assert!(
                keeps(x),
                "IEEE deduction on v{} by {} removes the solution {:?} -> {:?}",
                v.0,
                op.name(),
                vals,
                o
            );
        }
    }

    /// A random value of variable `v` in its current domain (ends and special values
    /// weighted in).
    fn sample_value(&self, v: Var, r: u64) -> Option<crate::model::Value> {
        use crate::model::Value;
        Some(match self.vars[v].kind {
            VarKind::Bool => Value::Bool(match self.bool_value(v) {
                LBool::True => true,
                LBool::False => false,
                LBool::Undef => r & 1 == 1,
            }),
            VarKind::Fp(f) => {
                let d = self.fp_dom(v);
                if d.nan && (!d.has_values() || r.is_multiple_of(8)) {
                    return Some(Value::Fp(f.nan_bits()));
                }
                if !d.has_values() {
                    return None;
                }
                let (kl, kh) = (
                    ieee::ord_key(f, bits_of(f, d.lo)) as i128,
                    ieee::ord_key(f, bits_of(f, d.hi)) as i128,
                );
                let k = match (r >> 3) % 4 {
                    0 => kl,
                    1 => kh,
                    _ => kl + ((r >> 5) as i128 % (kh - kl + 1)),
                };
                let mut bits = ieee::from_ord_key(f, k as i64);
                if ieee::is_zero(f, bits) && (r >> 2) & 1 == 1 {
                    bits = ieee::neg(f, bits);
                }
                if !d.contains(bits) {
                    bits = ieee::neg(f, bits);
                }
                if !d.contains(bits) {
                    return None;
                }
                Value::Fp(bits)
            }
            VarKind::Int | VarKind::Real => {
                let b = self.ibox(v);
                let int = self.vars[v].kind == VarKind::Int;
                let pick = match (r >> 3) % 3 {
                    0 if b.lo().is_finite() => b.lo(),
                    1 if b.hi().is_finite() => b.hi(),
                    _ => b.split_point()?,
                };
                let q = Rational::from_float(if int { pick.round() } else { pick })?;
                if !b.contains_rational(&q) {
                    return None;
                }
                Value::Num(q)
            }
            VarKind::Unsupported => return None,
        })
    }

    fn value_in_domain(&self, v: Var, x: &crate::model::Value) -> bool {
        use crate::model::Value;
        match x {
            Value::Fp(b) => self.fp_dom(v).contains(*b),
            Value::Num(q) => self.ibox(v).contains_rational(q),
            Value::Bool(b) => match self.bool_value(v) {
                LBool::True => *b,
                LBool::False => !*b,
                LBool::Undef => true,
            },
            Value::Unknown => false,
        }
    }
}
