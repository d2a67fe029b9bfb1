//! Bit-blasting: the lowered formula as one propositional formula, decided by CDCL.
//!
//! The idea: interval propagation refutes a float problem box by box, so a relation such as
//! `x + 1 = x` on `|x| < 2^24` (about 2^23 floats, each its own box) or "`x - y = 0` implies
//! `x = y`" is out of its reach; a circuit for the IEEE operation makes it one SAT problem
//! that clause learning closes in milliseconds. This is what bit-precise solvers (Bitwuzla,
//! CBMC) do for every problem; here it is a second engine for the problems where all
//! variables are Booleans, IEEE floats, machine integers, or integers and reals that are
//! defined exactly from those (`to_real`, conversions, linear terms with dyadic
//! coefficients, bounded integer variables).
//!
//! Soundness (DESIGN §5): UNSAT rests on the circuits, which `tests` compares bit for bit
//! with `num::ieee` and `contractors::check_bv` on random and special points, both by
//! constant folding and through the CNF. A SAT answer comes with a point that the caller
//! validates exactly on the original constraints like every other model. Values the
//! language leaves unspecified (division by zero, `to_real` of NaN, out-of-range casts) are
//! fresh unconstrained bits, or — for real-valued terms — a "wild" flag that frees every
//! atom over the term: an over-approximation, so UNSAT stays sound and SAT is re-checked.

pub mod check;
pub mod elim;
pub mod float;
pub mod gates;
pub mod sat;

use crate::formula::{Atom, Def, Formula, Lit as FLit, Op, Rel, Sort};
use crate::model::Value;
use crate::num::{ieee, FpFormat, IntType, Rational, RoundingMode};
use crate::var::{Var, VarMap};
use gates::{Bit, Gates, Word};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// The encoding of one formula variable.
#[derive(Clone, Debug)]
pub enum Term {
    Bool(Bit),
    Fp(FpFormat, Word),
    Bv(IntType, Word),
    /// an exact integer or real: the two's-complement word times `2^-scale`; when `wild` holds
    /// the value is unspecified (atoms over it are free)
    Fix {
        w: Word,
        scale: usize,
        wild: Bit,
    },
}

/// The answer of [`solve`].
#[derive(Debug)]
pub enum Outcome {
    /// a point for every variable of the formula (to be validated by the caller)
    Sat(VarMap<Value>),
    Unsat,
    /// out of time or interrupted
    Unknown(String),
    /// the formula uses something this engine does not encode
    Unsupported(String),
}

/// Limits of a [`solve`] call.
#[derive(Clone, Default)]
pub struct Limits {
    pub deadline: Option<Instant>,
    pub interrupt: Option<Arc<AtomicBool>>,
}

/// Size of an encoding, for statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct Size {
    pub vars: u32,
    pub clauses: usize,
}

/// Encodes `f` and decides it.
pub fn solve(f: &Formula, limits: &Limits) -> (Outcome, Size) {
    let mut enc = Encoder::new(f);
    enc.limits = Some(limits.clone());
    let enc_result = enc.encode_all();
    let size = Size {
        vars: enc.g.num_vars(),
        clauses: enc.g.clauses.len(),
    };
    if let Err(e) = enc_result {
        return match enc.stopped.take() {
            Some(why) => (Outcome::Unknown(why), size),
            None => (Outcome::Unsupported(e), size),
        };
    }
    let Encoder { g, terms, .. } = enc;
    let outcome = match sat_solve(&g, limits) {
        SatResult::Unsat => Outcome::Unsat,
        SatResult::Unknown(r) => Outcome::Unknown(r),
        SatResult::Sat(model) => Outcome::Sat(read_point(f, &terms, &model)),
    };
    (outcome, size)
}

/// The answer of [`solve_guarded`].
#[derive(Debug)]
pub enum Guarded {
    /// a point of `f ∧ guarded` (to be validated by the caller)
    Sat(VarMap<Value>),
    /// `f ∧ guarded` is unsatisfiable; `rest_sat` says whether `f` alone (with the
    /// definitions, clauses and domains of every variable, the guarded literals' included)
    /// is satisfiable
    Unsat { rest_sat: bool },
    /// out of time or interrupted
    Unknown(String),
    /// the formula uses something this engine does not encode
    Unsupported(String),
}

/// Decides `f ∧ guarded` (the literals `guarded` over `f`'s atoms, asserted under one
/// activation bit); when that is unsatisfiable, decides `f` alone in the same SAT solver
/// (learned clauses kept). BMC uses it with `f` = the unrolling and `guarded` = TARGET's
/// roots: the second answer says whether any run of that length exists. Note that `f` alone
/// still holds the guarded part's definitions and domains, so "`f` alone is unsatisfiable" is
/// a claim about `f` with those: a caller that needs it without them re-checks with
/// [`solve`] on a formula that lacks them.
pub fn solve_guarded(f: &Formula, guarded: &[FLit], limits: &Limits) -> (Guarded, Size) {
    let mut enc = Encoder::new(f);
    enc.limits = Some(limits.clone());
    let mut enc_result = enc.encode_all();
    let act = enc.g.fresh();
    if enc_result.is_ok() {
        for &l in guarded {
            match enc.lit(l) {
                Ok(b) => {
                    let c = enc.g.or(!act, b);
                    enc.g.assert(c);
                }
                Err(e) => {
                    enc_result = Err(e);
                    break;
                }
            }
        }
    }
    let size = Size {
        vars: enc.g.num_vars(),
        clauses: enc.g.clauses.len(),
    };
    if let Err(e) = enc_result {
        return match enc.stopped.take() {
            Some(why) => (Guarded::Unknown(why), size),
            None => (Guarded::Unsupported(e), size),
        };
    }
    let Encoder { g, terms, .. } = enc;
    let mut s = match prepare(&g, limits, &[act]) {
        Ok(s) => s,
        Err(SatResult::Unsat) => return (Guarded::Unsat { rest_sat: false }, size),
        Err(SatResult::Unknown(r)) => return (Guarded::Unknown(r), size),
        Err(SatResult::Sat(_)) => unreachable!("prepare answers only UNSAT or UNKNOWN"),
    };
    let outcome = match s.first(&g, Some(act)) {
        SatResult::Sat(model) => Guarded::Sat(read_point(f, &terms, &model)),
        SatResult::Unknown(r) => Guarded::Unknown(r),
        SatResult::Unsat => match s.sat.solve(&[]) {
            sat::SatAnswer::Unsat => Guarded::Unsat { rest_sat: false },
            sat::SatAnswer::Sat => Guarded::Unsat { rest_sat: true },
            sat::SatAnswer::Unknown(r) => Guarded::Unknown(r),
        },
    };
    (outcome, size)
}

/// The bit-blasted CNF of `f` in DIMACS format, for external SAT solvers (`icpic3 dump
/// --format dimacs`); comment lines name the bits of every declared variable.
pub fn dimacs(f: &Formula) -> Result<String, String> {
    use std::fmt::Write as _;
    let mut enc = Encoder::new(f);
    enc.encode_all()?;
    let mut out = String::new();
    let lit = |b: Bit| -> i64 {
        let v = b.var() as i64;
        if b.is_negated() {
            -v
        } else {
            v
        }
    };
    for (v, info) in f.vars.iter() {
        if !matches!(info.origin, crate::formula::VarOrigin::Declared { .. }) {
            continue;
        }
        let bits: Vec<Bit> = match &enc.terms[v] {
            Some(Term::Bool(b)) => vec![*b],
            Some(Term::Fp(_, w)) | Some(Term::Bv(_, w)) | Some(Term::Fix { w, .. }) => w.clone(),
            None => continue,
        };
        let shown: Vec<String> = bits
            .iter()
            .map(|&b| match b.as_const() {
                Some(c) => (c as u8).to_string(),
                None => lit(b).to_string(),
            })
            .collect();
        let _ = writeln!(out, "c {} lsb-first {}", info.name, shown.join(" "));
    }
    // a constant-true bit is never in a clause; an empty clause is `1 -1` over a fresh var
    let n = enc.g.num_vars() as usize + 1;
    let _ = writeln!(out, "p cnf {} {}", n, enc.g.clauses.len());
    for c in &enc.g.clauses {
        if c.is_empty() {
            let _ = writeln!(out, "{n} 0\n-{n} 0");
            continue;
        }
        for &b in c {
            let _ = write!(out, "{} ", lit(b));
        }
        out.push_str("0\n");
    }
    Ok(out)
}

/// Whether every variable and definition of `f` has an encoding (cheap; no circuits).
pub fn supports(f: &Formula) -> Result<(), String> {
    for d in &f.defs {
        op_supported(f, d)?;
    }
    for (v, info) in f.vars.iter() {
        if matches!(info.sort, Sort::Int | Sort::Real)
            && !f.defs.iter().any(|d| d.out == v)
            && fix_range(info).is_none()
        {
            return Err(format!(
                "the unbounded {} variable `{}`",
                info.sort.name(),
                info.name
            ));
        }
    }
    for a in &f.atoms {
        if let Atom::Bound { var, .. } = a {
            if let Sort::Fp(_) = f.vars[*var].sort {
                return Err("a bound atom on an IEEE variable".into());
            }
        }
    }
    Ok(())
}

fn op_supported(f: &Formula, d: &Def) -> Result<(), String> {
    let unsupported = || Err(format!("the operation `{}`", d.op.name()));
    match &d.op {
        Op::Linear { coeffs, constant } => {
            if coeffs.iter().chain([constant]).all(is_dyadic) {
                Ok(())
            } else {
                Err("a linear term with a non-dyadic coefficient".into())
            }
        }
        Op::Mul
        | Op::Pow(_)
        | Op::Nrt(_)
        | Op::Div
        | Op::Sin
        | Op::Cos
        | Op::Tan
        | Op::Exp
        | Op::Exp2
        | Op::Exp10
        | Op::Log
        | Op::Log2
        | Op::Log10 => unsupported(),
        Op::BvShl | Op::BvShr => match d.args.get(1).map(|&a| f.vars[a].sort) {
            Some(Sort::MachineInt(_) | Sort::Int) => Ok(()),
            _ => unsupported(),
        },
        _ => Ok(()),
    }
}

fn is_dyadic(q: &Rational) -> bool {
    let d = q.denom();
    d.is_positive() && (d & (d - BigInt::one())).is_zero()
}

/// log2 of a dyadic denominator.
fn dyadic_exp(q: &Rational) -> usize {
    q.denom().bits() as usize - 1
}

/// Bits of a two's-complement word holding every integer in `[lo, hi]`.
fn signed_width(lo: &BigInt, hi: &BigInt) -> usize {
    let need = |v: &BigInt| {
        if v.is_negative() {
            // -2^k needs k+1 bits
            ((-v) - BigInt::one()).bits() as usize + 1
        } else {
            v.bits() as usize + 1
        }
    };
    need(lo).max(need(hi)).max(1)
}

/// The integer range of a bounded declared Int variable, or the dyadic point of a constant.
fn fix_range(info: &crate::formula::VarInfo) -> Option<(BigInt, BigInt, usize)> {
    let lo = info.domain.lo.as_ref()?;
    let hi = info.domain.hi.as_ref()?;
    match info.sort {
        Sort::Int => {
            let l = lo.value.ceil().to_integer();
            let h = hi.value.floor().to_integer();
            Some((l, h, 0))
        }
        Sort::Real if lo.value == hi.value && is_dyadic(&lo.value) => {
            let s = dyadic_exp(&lo.value);
            let n = (&lo.value * Rational::from_integer(BigInt::one() << s)).to_integer();
            Some((n.clone(), n, s))
        }
        _ => None,
    }
}

/// Clause count at which the encoding gives up (memory: about 100 bytes a clause).
const MAX_CLAUSES: usize = 40_000_000;

struct Encoder<'a> {
    f: &'a Formula,
    g: Gates,
    terms: VarMap<Option<Term>>,
    def_of: VarMap<Vec<usize>>,
    /// checked while encoding: large formulas take a while, and the other engine may win
    limits: Option<Limits>,
    /// why the encoding stopped early (time, interrupt, size), as opposed to unsupported
    stopped: Option<String>,
    /// per IEEE variable, a window its finite values lie in (see [`FpRange`])
    ranges: VarMap<Option<FpRange>>,
}

/// Every finite value of an IEEE term is a multiple of `2^grain` of magnitude at most
/// `2^top`. `to_real` uses the window for a narrow fixed-point word: with `x, y ∈ [1, 2]`,
/// `to_real(x - y)` needs 56 bits instead of 2,099. The window only sizes the circuit: a
/// value outside it (if the analysis were wrong) makes the term unspecified, never wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FpRange {
    pub grain: i64,
    pub top: i64,
}

impl FpRange {
    /// Every float of the format.
    pub fn full(f: FpFormat) -> FpRange {
        FpRange {
            grain: f.emin() - f.precision() as i64 + 1,
            top: f.emax() + 1,
        }
    }
    fn clamp(self, f: FpFormat) -> FpRange {
        let full = FpRange::full(f);
        FpRange {
            grain: self.grain.clamp(full.grain, full.top),
            top: self.top.clamp(full.grain, full.top),
        }
    }
    fn join(self, o: FpRange) -> FpRange {
        FpRange {
            grain: self.grain.min(o.grain),
            top: self.top.max(o.top),
        }
    }
}

/// ⌈log2 |q|⌉ for q ≠ 0 (an exponent e with |q| ≤ 2^e).
fn ceil_log2(q: &Rational) -> i64 {
    let a = q.abs();
    let mut e = a.numer().bits() as i64 - a.denom().bits() as i64 + 1;
    // adjust down while 2^(e-1) ≥ |q|
    let pow = |k: i64| {
        if k >= 0 {
            Rational::from_integer(BigInt::one() << k as usize)
        } else {
            Rational::new(BigInt::one(), BigInt::one() << (-k) as usize)
        }
    };
    while pow(e - 1) >= a {
        e -= 1;
    }
    while pow(e) < a {
        e += 1;
    }
    e
}

impl<'a> Encoder<'a> {
    fn new(f: &'a Formula) -> Encoder<'a> {
        let mut def_of: VarMap<Vec<usize>> = VarMap::new();
        let mut terms = VarMap::new();
        let mut ranges = VarMap::new();
        for _ in f.vars.iter() {
            def_of.push(Vec::new());
            terms.push(None);
            ranges.push(None);
        }
        for (i, d) in f.defs.iter().enumerate() {
            def_of[d.out].push(i);
        }
        Encoder {
            f,
            g: Gates::new(),
            terms,
            def_of,
            limits: None,
            stopped: None,
            ranges,
        }
    }

    /// The window of IEEE variable `v` (its arguments' windows are known).
    fn fp_range(&self, v: Var) -> Option<FpRange> {
        let Sort::Fp(f) = self.f.vars[v].sort else {
            return None;
        };
        let info = &self.f.vars[v];
        let full = FpRange::full(f);
        let Some(&di) = self.def_of[v].first() else {
            if let Some(bits) = info.fp_const {
                // a constant: its own last bit and magnitude
                return Some(match f.to_rational(bits) {
                    Some(q) if !q.is_zero() => {
                        let mut grain = 0i64;
                        let mut m = q.abs();
                        while !m.is_integer() {
                            m *= Rational::from_integer(2.into());
                            grain -= 1;
                        }
                        let mut n = m.to_integer();
                        while !n.is_zero() && !n.bit(0) {
                            n >>= 1;
                            grain += 1;
                        }
                        FpRange {
                            grain,
                            top: ceil_log2(&q),
                        }
                        .clamp(f)
                    }
                    // zero (and NaN, infinities: no finite value but zero matters)
                    _ => FpRange {
                        grain: full.top,
                        top: full.grain,
                    },
                });
            }
            let (Some(lo), Some(hi)) = (&info.domain.lo, &info.domain.hi) else {
                return Some(full);
            };
            let (lo, hi) = (&lo.value, &hi.value);
            let big = if lo.abs() > hi.abs() { lo } else { hi };
            let top = if big.is_zero() {
                full.grain
            } else {
                ceil_log2(big)
            };
            // away from zero, the smallest magnitude bounds the last bit from below
            let grain = if lo.is_positive() || hi.is_negative() {
                let small = if lo.abs() < hi.abs() { lo } else { hi };
                ceil_log2(small) - 1 - (f.precision() as i64 - 1)
            } else {
                full.grain
            };
            return Some(FpRange { grain, top }.clamp(f));
        };
        let d = &self.f.defs[di];
        let arg = |i: usize| d.args.get(i).and_then(|&a| self.ranges[a]).unwrap_or(full);
        let r = match &d.op {
            Op::FAdd(_) | Op::FSub(_) => {
                let (a, b) = (arg(0), arg(1));
                FpRange {
                    grain: a.grain.min(b.grain),
                    top: a.top.max(b.top) + 1,
                }
            }
            Op::FMul(_) => {
                let (a, b) = (arg(0), arg(1));
                FpRange {
                    grain: a.grain + b.grain,
                    top: a.top + b.top,
                }
            }
            Op::FFma(_) => {
                let (a, b, c) = (arg(0), arg(1), arg(2));
                FpRange {
                    grain: (a.grain + b.grain).min(c.grain),
                    top: (a.top + b.top).max(c.top) + 1,
                }
            }
            Op::FNeg | Op::FAbs => arg(0),
            Op::FMin | Op::FMax => arg(0).join(arg(1)),
            Op::Ite => arg(1).join(arg(2)),
            _ => full,
        };
        Some(r.clamp(f))
    }
    /// Err when the encoding must stop: deadline, interrupt, or size.
    fn check_limits(&mut self) -> Result<(), String> {
        let why = if self.g.clauses.len() > MAX_CLAUSES {
            Some(format!(
                "the bit-blasted formula exceeds {MAX_CLAUSES} clauses"
            ))
        } else if let Some(l) = &self.limits {
            if l.deadline.is_some_and(|d| Instant::now() >= d) {
                Some("time limit".to_string())
            } else if crate::budget::over_memory() {
                Some("memory limit".to_string())
            } else if l
                .interrupt
                .as_ref()
                .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
            {
                Some("interrupted".to_string())
            } else {
                None
            }
        } else {
            None
        };
        match why {
            Some(w) => {
                self.stopped = Some(w.clone());
                Err(w)
            }
            None => Ok(()),
        }
    }

    fn encode_all(&mut self) -> Result<(), String> {
        supports(self.f)?;
        let vars: Vec<Var> = self.f.vars.iter().map(|(v, _)| v).collect();
        for &v in &vars {
            self.term(v)?;
        }
        // further definitions of an already defined variable are equalities
        for (i, d) in self.f.defs.iter().enumerate() {
            if self.def_of[d.out].first() != Some(&i) {
                let t = self.encode_def(d)?;
                let cur = self.terms[d.out].clone().expect("encoded");
                let e = self.equal(&cur, &t)?;
                self.g.assert(e);
            }
        }
        for &v in &vars {
            self.assert_domain(v)?;
        }
        let clauses = self.f.clauses.clone();
        for c in &clauses {
            let bits: Vec<Bit> = c.iter().map(|&l| self.lit(l)).collect::<Result<_, _>>()?;
            let b = self.g.or_all(&bits);
            self.g.assert(b);
        }
        for &r in &self.f.roots {
            let b = self.lit(r)?;
            self.g.assert(b);
        }
        Ok(())
    }

    /// The term of `v`, encoding its definition (and what it depends on) first. Iterative:
    /// definition chains of unrolled systems are deep.
    fn term(&mut self, v: Var) -> Result<Term, String> {
        let mut stack = vec![v];
        while let Some(&top) = stack.last() {
            if self.terms[top].is_some() {
                stack.pop();
                continue;
            }
            let Some(&di) = self.def_of[top].first() else {
                let t = self.declared(top)?;
                self.terms[top] = Some(t);
                self.ranges[top] = self.fp_range(top);
                stack.pop();
                continue;
            };
            let d = &self.f.defs[di];
            let missing: Vec<Var> = d
                .args
                .iter()
                .copied()
                .filter(|&a| self.terms[a].is_none())
                .collect();
            if missing.is_empty() {
                self.check_limits()?;
                let t = self.encode_def(d)?;
                self.terms[top] = Some(t);
                self.ranges[top] = self.fp_range(top);
                stack.pop();
            } else {
                if missing.iter().any(|m| stack.contains(m)) {
                    return Err("a cyclic definition".into());
                }
                stack.extend(missing);
            }
        }
        Ok(self.terms[v].clone().expect("encoded"))
    }

    fn arg(&self, v: Var) -> Term {
        self.terms[v].clone().expect("arguments are encoded first")
    }

    fn declared(&mut self, v: Var) -> Result<Term, String> {
        let info = &self.f.vars[v];
        Ok(match info.sort {
            Sort::Bool => Term::Bool(self.g.fresh()),
            Sort::Fp(fmt) => match info.fp_const {
                Some(bits) => Term::Fp(fmt, float::const_float(fmt, bits)),
                None => Term::Fp(fmt, self.g.fresh_word(fmt.total_bits() as usize)),
            },
            Sort::MachineInt(t) => {
                let point = info
                    .domain
                    .lo
                    .as_ref()
                    .zip(info.domain.hi.as_ref())
                    .filter(|(l, h)| l.value == h.value && l.value.is_integer());
                match point {
                    Some((l, _)) => {
                        Term::Bv(t, Gates::const_big(t.bits as usize, &l.value.to_integer()))
                    }
                    None => Term::Bv(t, self.g.fresh_word(t.bits as usize)),
                }
            }
            Sort::Int | Sort::Real => {
                let Some((lo, hi, scale)) = fix_range(info) else {
                    return Err(format!("the unbounded variable `{}`", info.name));
                };
                let width = signed_width(&lo, &hi);
                let w = if lo == hi {
                    Gates::const_big(width, &lo)
                } else {
                    self.g.fresh_word(width)
                };
                Term::Fix {
                    w,
                    scale,
                    wild: Bit::FALSE,
                }
            }
        })
    }

    /// Asserts the declared domain of `v` (language doc B.1: a range holds numbers only).
    fn assert_domain(&mut self, v: Var) -> Result<(), String> {
        let info = &self.f.vars[v];
        let d = info.domain.clone();
        if d.is_unbounded() || info.fp_const.is_some() {
            return Ok(());
        }
        let t = self.terms[v].clone().expect("encoded");
        if let Term::Fp(fmt, x) = &t {
            let c = float::classify(&mut self.g, *fmt, x);
            self.g.assert(!c.nan);
        }
        if let Some(b) = &d.lo {
            let rel = if b.strict { Rel::Gt } else { Rel::Ge };
            let bit = self.bound(&t, rel, &b.value)?;
            self.g.assert(bit);
        }
        if let Some(b) = &d.hi {
            let rel = if b.strict { Rel::Lt } else { Rel::Le };
            let bit = self.bound(&t, rel, &b.value)?;
            self.g.assert(bit);
        }
        Ok(())
    }

    fn lit(&mut self, l: FLit) -> Result<Bit, String> {
        let b = match self.f.atom(l.atom()).clone() {
            Atom::Bool(v) => match self.term(v)? {
                Term::Bool(b) => b,
                _ => return Err("a Boolean atom on a non-Boolean variable".into()),
            },
            Atom::Bound { var, rel, value } => {
                let t = self.term(var)?;
                self.bound(&t, rel, &value)?
            }
        };
        Ok(if l.is_negated() { !b } else { b })
    }

    /// The bit of `t rel value`.
    fn bound(&mut self, t: &Term, rel: Rel, value: &Rational) -> Result<Bit, String> {
        match t {
            Term::Bool(b) => {
                let holds = |x: i64| rel.holds(Rational::from_integer(x.into()).cmp(value));
                Ok(match (holds(0), holds(1)) {
                    (true, true) => Bit::TRUE,
                    (false, false) => Bit::FALSE,
                    (true, false) => !*b,
                    (false, true) => *b,
                })
            }
            Term::Bv(ty, w) => {
                let ext = if ty.signed {
                    Gates::sext(w, w.len() + 1)
                } else {
                    Gates::zext(w, w.len() + 1)
                };
                Ok(self.int_bound(&ext, 0, rel, value))
            }
            Term::Fix { w, scale, wild } => {
                let c = self.int_bound(w, *scale, rel, value);
                let free = self.g.fresh();
                Ok(self.g.mux(*wild, free, c))
            }
            Term::Fp(fmt, x) => {
                // IEEE order against the float nearest `value` on the side the relation
                // keeps: x ≤ v iff x ≤ RTN(v), x < v iff x < RTP(v), and so on
                let rm = match rel {
                    Rel::Le | Rel::Gt => RoundingMode::Rtn,
                    Rel::Lt | Rel::Ge => RoundingMode::Rtp,
                };
                let c = float::const_float(*fmt, fmt.round_rational(value, rm));
                let g = &mut self.g;
                Ok(match rel {
                    Rel::Le => float::le(g, *fmt, x, &c),
                    Rel::Lt => float::lt(g, *fmt, x, &c),
                    Rel::Ge => float::le(g, *fmt, &c, x),
                    Rel::Gt => float::lt(g, *fmt, &c, x),
                })
            }
        }
    }

    /// `w · 2^-scale rel value` for a two's-complement word `w`.
    fn int_bound(&mut self, w: &[Bit], scale: usize, rel: Rel, value: &Rational) -> Bit {
        let c = value * Rational::from_integer(BigInt::one() << scale);
        // as a comparison with an integer: X ≤ k or X ≥ k
        let (k, le) = match rel {
            Rel::Le => (c.floor().to_integer(), true),
            Rel::Lt => (c.ceil().to_integer() - 1, true),
            Rel::Ge => (c.ceil().to_integer(), false),
            Rel::Gt => (c.floor().to_integer() + 1, false),
        };
        let n = w.len();
        let min = -(BigInt::one() << (n - 1));
        let max = (BigInt::one() << (n - 1)) - 1;
        if le {
            if k >= max {
                return Bit::TRUE;
            }
            if k < min {
                return Bit::FALSE;
            }
            let kw = Gates::const_big(n, &k);
            self.g.sle(w, &kw)
        } else {
            if k <= min {
                return Bit::TRUE;
            }
            if k > max {
                return Bit::FALSE;
            }
            let kw = Gates::const_big(n, &k);
            self.g.sle(&kw, w)
        }
    }

    /// `a = b` for two terms of one sort (a second definition of one variable).
    fn equal(&mut self, a: &Term, b: &Term) -> Result<Bit, String> {
        Ok(match (a, b) {
            (Term::Bool(x), Term::Bool(y)) => self.g.xnor(*x, *y),
            (Term::Fp(f, x), Term::Fp(_, y)) => float::same(&mut self.g, *f, x, y),
            (Term::Bv(_, x), Term::Bv(_, y)) => self.g.eq(x, y),
            (Term::Fix { .. }, Term::Fix { .. }) => {
                let (x, y, _) = self.align(a, b);
                let e = self.g.eq(&x, &y);
                let wa = fix_wild(a);
                let wb = fix_wild(b);
                let any = self.g.or(wa, wb);
                self.g.or(e, any)
            }
            _ => return Err("a variable defined twice with different sorts".into()),
        })
    }

    /// Two fixed-point terms as words of one width and scale.
    fn align(&mut self, a: &Term, b: &Term) -> (Word, Word, usize) {
        let (
            Term::Fix {
                w: wa, scale: sa, ..
            },
            Term::Fix {
                w: wb, scale: sb, ..
            },
        ) = (a, b)
        else {
            unreachable!("align of fixed-point terms")
        };
        let s = (*sa).max(*sb);
        let up = |w: &Word, from: usize| -> Word {
            let mut v = vec![Bit::FALSE; s - from];
            v.extend_from_slice(w);
            v
        };
        let (xa, xb) = (up(wa, *sa), up(wb, *sb));
        let n = xa.len().max(xb.len()) + 1;
        (Gates::sext(&xa, n), Gates::sext(&xb, n), s)
    }

    fn as_fix(&self, t: &Term) -> Result<(Word, usize, Bit), String> {
        Ok(match t {
            Term::Fix { w, scale, wild } => (w.clone(), *scale, *wild),
            Term::Bv(ty, w) => {
                let ext = if ty.signed {
                    Gates::sext(w, w.len() + 1)
                } else {
                    Gates::zext(w, w.len() + 1)
                };
                (ext, 0, Bit::FALSE)
            }
            Term::Bool(b) => (vec![*b, Bit::FALSE], 0, Bit::FALSE),
            Term::Fp(..) => return Err("an IEEE value used as a number".into()),
        })
    }

    fn encode_def(&mut self, d: &Def) -> Result<Term, String> {
        let out_sort = self.f.vars[d.out].sort;
        let args: Vec<Term> = d.args.iter().map(|&a| self.arg(a)).collect();
        let g = &mut self.g;
        let fp = |i: usize| -> Result<(FpFormat, Word), String> {
            match args.get(i) {
                Some(Term::Fp(f, w)) => Ok((*f, w.clone())),
                _ => Err(format!("`{}` expects IEEE operands", d.op.name())),
            }
        };
        let bv = |i: usize| -> Result<(IntType, Word), String> {
            match args.get(i) {
                Some(Term::Bv(t, w)) => Ok((*t, w.clone())),
                _ => Err(format!(
                    "`{}` expects machine-integer operands",
                    d.op.name()
                )),
            }
        };
        let out_fmt = match out_sort {
            Sort::Fp(f) => Some(f),
            _ => None,
        };
        let out_ty = match out_sort {
            Sort::MachineInt(t) => Some(t),
            _ => None,
        };
        let need_fmt = || out_fmt.ok_or_else(|| format!("`{}` needs an IEEE output", d.op.name()));
        let need_ty =
            || out_ty.ok_or_else(|| format!("`{}` needs a machine-integer output", d.op.name()));
        let t = match &d.op {
            Op::FAdd(rm) | Op::FSub(rm) | Op::FMul(rm) | Op::FDiv(rm) => {
                let f = need_fmt()?;
                let (_, x) = fp(0)?;
                let (_, y) = fp(1)?;
                let w = match &d.op {
                    Op::FAdd(_) => float::add(g, f, *rm, &x, &y),
                    Op::FSub(_) => float::sub(g, f, *rm, &x, &y),
                    Op::FMul(_) => float::mul(g, f, *rm, &x, &y),
                    _ => float::div(g, f, *rm, &x, &y),
                };
                Term::Fp(f, w)
            }
            Op::FSqrt(rm) => {
                let f = need_fmt()?;
                Term::Fp(f, float::sqrt(g, f, *rm, &fp(0)?.1))
            }
            Op::FFma(rm) => {
                let f = need_fmt()?;
                let w = float::fma(g, f, *rm, &fp(0)?.1, &fp(1)?.1, &fp(2)?.1);
                Term::Fp(f, w)
            }
            Op::FNeg => Term::Fp(need_fmt()?, float::neg(&fp(0)?.1)),
            Op::FAbs => Term::Fp(need_fmt()?, float::abs(&fp(0)?.1)),
            Op::FMin | Op::FMax => {
                let f = need_fmt()?;
                let (x, y) = (fp(0)?.1, fp(1)?.1);
                let w = if d.op == Op::FMin {
                    float::min(g, f, &x, &y)
                } else {
                    float::max(g, f, &x, &y)
                };
                Term::Fp(f, w)
            }
            Op::FLt | Op::FLe | Op::FEq | Op::FSame => {
                let (f, x) = fp(0)?;
                let (_, y) = fp(1)?;
                Term::Bool(match d.op {
                    Op::FLt => float::lt(g, f, &x, &y),
                    Op::FLe => float::le(g, f, &x, &y),
                    Op::FEq => float::eq(g, f, &x, &y),
                    _ => float::same(g, f, &x, &y),
                })
            }
            Op::IsNan | Op::IsInf | Op::IsZero | Op::IsSubnormal | Op::IsNormal | Op::IsNeg => {
                let (f, x) = fp(0)?;
                let c = float::classify(g, f, &x);
                Term::Bool(match d.op {
                    Op::IsNan => c.nan,
                    Op::IsInf => c.inf,
                    Op::IsZero => c.zero,
                    Op::IsSubnormal => c.subnormal,
                    Op::IsNormal => c.normal,
                    _ => c.neg,
                })
            }
            Op::ToFp(rm) => {
                let to = need_fmt()?;
                match &args[0] {
                    Term::Fp(from, x) => Term::Fp(to, float::convert(g, *from, to, *rm, x)),
                    Term::Bv(ty, w) => Term::Fp(to, float::from_int(g, to, *rm, w, ty.signed, 0)),
                    Term::Fix { w, scale, wild } => {
                        let r = float::from_int(g, to, *rm, w, true, -(*scale as i64));
                        let free = g.fresh_word(r.len());
                        Term::Fp(to, g.mux_word(*wild, &free, &r))
                    }
                    Term::Bool(_) => return Err("to_fp of a Boolean".into()),
                }
            }
            Op::FpToInt => {
                let (f, x) = fp(0)?;
                match out_sort {
                    Sort::MachineInt(t) => {
                        let (v, fits) = float::to_int_trunc(g, f, &x, t.bits as usize, t.signed);
                        g.note_unspecified(!fits);
                        let free = g.fresh_word(v.len());
                        Term::Bv(t, g.mux_word(fits, &v, &free))
                    }
                    Sort::Int => {
                        let width = f.emax() as usize + 3;
                        let (v, fits) = float::to_int_trunc(g, f, &x, width, true);
                        g.note_unspecified(!fits);
                        Term::Fix {
                            w: v,
                            scale: 0,
                            wild: !fits,
                        }
                    }
                    _ => return Err("fp_to_int into a non-integer sort".into()),
                }
            }
            // bit reinterpretation is the identity on the word, except that `fp_bits` gives
            // the canonical pattern for every NaN (a NaN word may hold any NaN pattern)
            Op::FpToBits => {
                let (f, x) = fp(0)?;
                let t = need_ty()?;
                if t.bits as u32 != f.total_bits() {
                    return Err("fp_bits into a machine type of another width".into());
                }
                Term::Bv(t, float::to_bits(g, f, &x))
            }
            Op::FpOfBits => {
                let f = need_fmt()?;
                let (t, w) = bv(0)?;
                if t.bits as u32 != f.total_bits() {
                    return Err("fp_of_bits of a machine type of another width".into());
                }
                Term::Fp(f, float::of_bits(&w))
            }
            Op::FpToReal => {
                let (f, x) = fp(0)?;
                let r = self.ranges[d.args[0]].unwrap_or(FpRange::full(f));
                let g = &mut self.g;
                let (w, special, scale) = float::to_fixed_window(g, f, &x, r.grain, r.top);
                g.note_unspecified(special);
                Term::Fix {
                    w,
                    scale,
                    wild: special,
                }
            }
            Op::Ite => {
                let Some(Term::Bool(c)) = args.first() else {
                    return Err("ite without a Boolean condition".into());
                };
                let c = *c;
                match (&args[1], &args[2]) {
                    (Term::Bool(a), Term::Bool(b)) => Term::Bool(g.mux(c, *a, *b)),
                    (Term::Fp(f, a), Term::Fp(_, b)) => Term::Fp(*f, g.mux_word(c, a, b)),
                    (Term::Bv(t, a), Term::Bv(_, b)) => Term::Bv(*t, g.mux_word(c, a, b)),
                    (a @ Term::Fix { .. }, b @ Term::Fix { .. }) => {
                        let (wa, wb, s) = self.align(a, b);
                        let g = &mut self.g;
                        let w = g.mux_word(c, &wa, &wb);
                        let wild = g.mux(c, fix_wild(a), fix_wild(b));
                        Term::Fix { w, scale: s, wild }
                    }
                    _ => return Err("ite over different sorts".into()),
                }
            }
            Op::BoolToNum => match &args[0] {
                Term::Bool(b) => match out_sort {
                    Sort::MachineInt(t) => {
                        let mut w = vec![Bit::FALSE; t.bits as usize];
                        w[0] = *b;
                        Term::Bv(t, w)
                    }
                    _ => Term::Fix {
                        w: vec![*b, Bit::FALSE],
                        scale: 0,
                        wild: Bit::FALSE,
                    },
                },
                _ => return Err("bool2num of a non-Boolean".into()),
            },
            Op::Convert => self.convert(&args[0], out_sort)?,
            Op::Linear { coeffs, constant } => self.linear(&args, coeffs, constant)?,
            Op::Abs | Op::Min | Op::Max => self.fix_minmax(&d.op, &args)?,
            Op::BvAdd | Op::BvSub | Op::BvMul | Op::BvAnd | Op::BvOr | Op::BvXor => {
                let t = need_ty()?;
                let (_, a) = bv(0)?;
                let (_, b) = bv(1)?;
                let w = match d.op {
                    Op::BvAdd => g.add(&a, &b),
                    Op::BvSub => g.sub(&a, &b),
                    Op::BvMul => g.mul_low(&a, &b),
                    Op::BvAnd => a.iter().zip(&b).map(|(&x, &y)| g.and(x, y)).collect(),
                    Op::BvOr => a.iter().zip(&b).map(|(&x, &y)| g.or(x, y)).collect(),
                    _ => a.iter().zip(&b).map(|(&x, &y)| g.xor(x, y)).collect(),
                };
                Term::Bv(t, w)
            }
            Op::BvNeg => {
                let t = need_ty()?;
                Term::Bv(t, g.neg(&bv(0)?.1))
            }
            Op::BvNot => {
                let t = need_ty()?;
                Term::Bv(t, bv(0)?.1.iter().map(|&x| !x).collect())
            }
            Op::BvDiv | Op::BvRem => {
                let t = need_ty()?;
                let (_, a) = bv(0)?;
                let (_, b) = bv(1)?;
                let w = bv_divrem(g, t, &a, &b, d.op == Op::BvDiv);
                Term::Bv(t, w)
            }
            Op::BvShl | Op::BvShr => {
                let t = need_ty()?;
                let (_, a) = bv(0)?;
                let (amt, _, _) = self.as_fix(&args[1])?;
                let g = &mut self.g;
                let n = t.bits as usize;
                // in range: 0 ≤ amt < n (else unspecified)
                let ext = Gates::sext(&amt, amt.len().max(9) + 1);
                let m = ext.len();
                let nonneg = !ext[m - 1];
                let below = g.slt(&ext, &Gates::const_word(m, n as u128));
                let ok = g.and(nonneg, below);
                let mut sbits = 1;
                while (1usize << sbits) < n {
                    sbits += 1;
                }
                let s = &ext[..sbits];
                let w = if d.op == Op::BvShl {
                    g.shl(&a, s)
                } else {
                    let fill = if t.signed { a[n - 1] } else { Bit::FALSE };
                    g.shr_sticky(&a, s, fill).0
                };
                let free = g.fresh_word(n);
                g.note_unspecified(!ok);
                Term::Bv(t, g.mux_word(ok, &w, &free))
            }
            Op::BvCast => {
                let t = need_ty()?;
                let (from, a) = bv(0)?;
                let n = t.bits as usize;
                let w = if from.signed {
                    Gates::sext(&a, n.max(a.len()))
                } else {
                    Gates::zext(&a, n.max(a.len()))
                };
                Term::Bv(t, w[..n].to_vec())
            }
            _ => return Err(format!("the operation `{}`", d.op.name())),
        };
        Ok(t)
    }

    /// `Convert`: the same number in another sort; unspecified when it does not fit.
    fn convert(&mut self, a: &Term, out: Sort) -> Result<Term, String> {
        let (w, scale, wild) = self.as_fix(a)?;
        let g = &mut self.g;
        // the integer part and whether the fraction is zero
        let frac_zero = g.is_zero(&w[..scale.min(w.len())]);
        let int: Word = if scale >= w.len() {
            vec![w[w.len() - 1]]
        } else {
            w[scale..].to_vec()
        };
        Ok(match out {
            Sort::Int => {
                g.note_unspecified(!frac_zero);
                Term::Fix {
                    w: int,
                    scale: 0,
                    wild: g.or(wild, !frac_zero),
                }
            }
            Sort::Real => Term::Fix { w, scale, wild },
            Sort::MachineInt(t) => {
                let n = t.bits as usize;
                let m = int.len().max(n) + 1;
                let x = Gates::sext(&int, m);
                let lo = Gates::const_big(m, &t.min_value());
                let hi = Gates::const_big(m, &t.max_value());
                let ge = g.sle(&lo, &x);
                let le = g.sle(&x, &hi);
                let fits = g.and_all(&[ge, le, frac_zero, !wild]);
                g.note_unspecified(!fits);
                let free = g.fresh_word(n);
                Term::Bv(t, g.mux_word(fits, &x[..n], &free))
            }
            _ => return Err("convert into a non-numeric sort".into()),
        })
    }

    /// `Σ c_i·x_i + k` with dyadic coefficients, exactly, in a word wide enough for any value.
    fn linear(
        &mut self,
        args: &[Term],
        coeffs: &[Rational],
        constant: &Rational,
    ) -> Result<Term, String> {
        let mut parts = Vec::new();
        let mut wild = Bit::FALSE;
        for (t, c) in args.iter().zip(coeffs) {
            let (w, s, wl) = self.as_fix(t)?;
            wild = self.g.or(wild, wl);
            parts.push((w, s, c.clone()));
        }
        let scale = parts
            .iter()
            .map(|(_, s, c)| s + dyadic_exp(c))
            .chain([dyadic_exp(constant)])
            .max()
            .unwrap_or(0);
        let two_s = Rational::from_integer(BigInt::one() << scale);
        // bound on the result's magnitude in units of 2^-scale
        let mut bound = (constant * &two_s).abs().to_integer();
        let mut terms = Vec::new();
        for (w, s, c) in &parts {
            // c·x = (c·2^(scale-s)) · X with X = x·2^s an integer word
            let k = (c * Rational::from_integer(BigInt::one() << (scale - s))).to_integer();
            bound += k.abs() << (w.len() - 1);
            terms.push((w.clone(), k));
        }
        let width = bound.bits() as usize + 2;
        let g = &mut self.g;
        let mut acc = Gates::const_big(width, &(constant * &two_s).to_integer());
        for (w, k) in terms {
            if k.is_zero() {
                continue;
            }
            let x = Gates::sext(&w, width);
            let prod = const_mul(g, &x, &k.abs());
            acc = if k.is_negative() {
                g.sub(&acc, &prod)
            } else {
                g.add(&acc, &prod)
            };
        }
        Ok(Term::Fix {
            w: acc,
            scale,
            wild,
        })
    }

    fn fix_minmax(&mut self, op: &Op, args: &[Term]) -> Result<Term, String> {
        if let Op::Abs = op {
            let (w, s, wild) = self.as_fix(&args[0])?;
            let g = &mut self.g;
            let x = Gates::sext(&w, w.len() + 1);
            let nx = g.neg(&x);
            let neg = x[x.len() - 1];
            return Ok(Term::Fix {
                w: g.mux_word(neg, &nx, &x),
                scale: s,
                wild,
            });
        }
        let a = self.fix_term(&args[0])?;
        let b = self.fix_term(&args[1])?;
        let (wa, wb, s) = self.align(&a, &b);
        let g = &mut self.g;
        let a_lt = g.slt(&wa, &wb);
        let take_a = if *op == Op::Min { a_lt } else { !a_lt };
        let w = g.mux_word(take_a, &wa, &wb);
        let wild = g.or(fix_wild(&a), fix_wild(&b));
        Ok(Term::Fix { w, scale: s, wild })
    }

    fn fix_term(&self, t: &Term) -> Result<Term, String> {
        let (w, scale, wild) = self.as_fix(t)?;
        Ok(Term::Fix { w, scale, wild })
    }
}

fn fix_wild(t: &Term) -> Bit {
    match t {
        Term::Fix { wild, .. } => *wild,
        _ => Bit::FALSE,
    }
}

/// `x · k` for a non-negative constant `k` (shift and add; same width).
fn const_mul(g: &mut Gates, x: &[Bit], k: &BigInt) -> Word {
    let n = x.len();
    let mut acc = vec![Bit::FALSE; n];
    for i in 0..k.bits() as usize {
        if k.bit(i as u64) && i < n {
            let sh = Gates::shl_const(x, i);
            acc = g.add(&acc, &sh);
        }
    }
    acc
}

/// C's truncating `/` or `%`; unspecified (fresh bits) for a zero divisor.
fn bv_divrem(g: &mut Gates, t: IntType, a: &[Bit], b: &[Bit], div: bool) -> Word {
    let n = a.len();
    let (sa, sb) = if t.signed {
        (a[n - 1], b[n - 1])
    } else {
        (Bit::FALSE, Bit::FALSE)
    };
    let na = g.neg(a);
    let nb = g.neg(b);
    let ma = g.mux_word(sa, &na, a);
    let mb = g.mux_word(sb, &nb, b);
    let (q, r) = g.udivrem(&ma, &mb);
    let w = if div {
        let s = g.xor(sa, sb);
        let nq = g.neg(&q);
        g.mux_word(s, &nq, &q)
    } else {
        let nr = g.neg(&r);
        g.mux_word(sa, &nr, &r)
    };
    let zero = g.is_zero(b);
    g.note_unspecified(zero);
    let free = g.fresh_word(n);
    g.mux_word(zero, &free, &w)
}

enum SatResult {
    Sat(Vec<bool>),
    Unsat,
    Unknown(String),
}

/// A SAT solver loaded with the clauses of `g` (after variable elimination).
struct Loaded {
    sat: sat::Sat,
    elim: elim::Elimination,
    n: usize,
}

/// Loads `g`'s clauses; `keep` are further bits used as assumptions (they survive
/// variable elimination). `Err` is UNSAT (found while loading) or UNKNOWN.
fn prepare(g: &Gates, limits: &Limits, keep: &[Bit]) -> Result<Loaded, SatResult> {
    let n = g.num_vars() as usize + 1;
    // the assumptions' variables must survive variable elimination
    let mut frozen = vec![false; n];
    for b in g.unspecified.iter().chain(keep).filter(|b| !b.is_const()) {
        frozen[b.var() as usize] = true;
    }
    let original: Vec<Vec<u32>> = g
        .clauses
        .iter()
        .map(|c| c.iter().map(|&b| b.0).collect())
        .collect();
    let (clauses, elim) = elim::eliminate(n, original, &frozen);
    let mut s = sat::Sat::new(n);
    s.set_limits(limits.deadline, limits.interrupt.clone());
    for c in &clauses {
        if !s.add_clause(c) {
            return Err(SatResult::Unsat);
        }
    }
    Ok(Loaded { sat: s, elim, n })
}

impl Loaded {
    /// Decides the clauses (under `extra`, if any): first avoiding every unspecified value
    /// (see `Gates::unspecified`); only the call without those assumptions may answer UNSAT.
    /// A model is re-checked against every clause before it is returned.
    fn first(&mut self, g: &Gates, extra: Option<Bit>) -> SatResult {
        let extra: Vec<u32> = extra.iter().map(|b| b.0).collect();
        let mut avoid: Vec<u32> = g
            .unspecified
            .iter()
            .filter(|b| !b.is_const())
            .map(|&b| (!b).0)
            .collect();
        avoid.extend(&extra);
        let s = &mut self.sat;
        let answer = if avoid.len() == extra.len() || g.unspecified.contains(&Bit::TRUE) {
            s.solve(&extra)
        } else {
            match s.solve(&avoid) {
                sat::SatAnswer::Unsat => s.solve(&extra),
                r => r,
            }
        };
        match answer {
            sat::SatAnswer::Unsat => SatResult::Unsat,
            sat::SatAnswer::Unknown(r) => SatResult::Unknown(r),
            sat::SatAnswer::Sat => {
                let mut model: Vec<bool> = (0..self.n).map(|v| s.model_value(v)).collect();
                self.elim.extend(&mut model);
                // the model is checked against the clauses as encoded, before elimination
                let holds = g
                    .clauses
                    .iter()
                    .all(|c| c.iter().any(|&b| bit_value(&model, b)));
                if holds {
                    SatResult::Sat(model)
                } else {
                    SatResult::Unknown("internal error: a SAT model violates a clause".into())
                }
            }
        }
    }
}

/// Decides the clauses with the plain CDCL solver of [`sat`]; a model is re-checked
/// against every clause before it is returned.
fn sat_solve(g: &Gates, limits: &Limits) -> SatResult {
    match prepare(g, limits, &[]) {
        Ok(mut s) => s.first(g, None),
        Err(r) => r,
    }
}

fn bit_value(model: &[bool], b: Bit) -> bool {
    match b.as_const() {
        Some(v) => v,
        None => model[b.var() as usize] ^ b.is_negated(),
    }
}

fn word_big(model: &[bool], w: &[Bit], signed: bool) -> BigInt {
    let mut v = BigInt::zero();
    for (i, &b) in w.iter().enumerate() {
        if bit_value(model, b) {
            v.set_bit(i as u64, true);
        }
    }
    if signed && w.last().is_some_and(|&b| bit_value(model, b)) {
        v -= BigInt::one() << w.len();
    }
    v
}

fn read_point(f: &Formula, terms: &VarMap<Option<Term>>, model: &[bool]) -> VarMap<Value> {
    let mut out = VarMap::new();
    for (v, _) in f.vars.iter() {
        let val = match &terms[v] {
            None => Value::Unknown,
            Some(Term::Bool(b)) => Value::Bool(bit_value(model, *b)),
            Some(Term::Fp(_, w)) => Value::Fp(word_big(model, w, false).to_u64().unwrap_or(0)),
            Some(Term::Bv(t, w)) => {
                Value::Num(Rational::from_integer(word_big(model, w, t.signed)))
            }
            Some(Term::Fix { w, scale, .. }) => Value::Num(Rational::new(
                word_big(model, w, true),
                BigInt::one() << *scale,
            )),
        };
        out.push(val);
    }
    out
}

/// The IEEE reference value of a float operation, for tests and callers that want to
/// re-check a circuit at a point.
pub fn reference_fp(op: &Op, f: FpFormat, args: &[u64]) -> Option<u64> {
    Some(match op {
        Op::FAdd(rm) => ieee::add(f, *rm, args[0], args[1]),
        Op::FSub(rm) => ieee::sub(f, *rm, args[0], args[1]),
        Op::FMul(rm) => ieee::mul(f, *rm, args[0], args[1]),
        Op::FDiv(rm) => ieee::div(f, *rm, args[0], args[1]),
        Op::FSqrt(rm) => ieee::sqrt(f, *rm, args[0]),
        Op::FFma(rm) => ieee::fma(f, *rm, args[0], args[1], args[2]),
        Op::FMin => ieee::min(f, args[0], args[1]),
        Op::FMax => ieee::max(f, args[0], args[1]),
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
