//! SMT-LIB 2 output of a lowered problem ([`solver::Formula`], the EXPR form), so that other
//! solvers (Z3, Bitwuzla) can decide exactly the problem icpic3 decides.
//!
//! Every variable is declared with its sort (`fp32`/`fp64` as `(_ FloatingPoint 8 24)` /
//! `(_ FloatingPoint 11 53)`, machine integers as bit-vectors, `int`/reals as `Int`/`Real`),
//! its domain is asserted, every definition becomes `(assert (= out (op args)))`, every clause
//! an `or` of literals and every root an assertion.
//!
//! Where the two semantics differ, the output follows icpic3's (language doc Part B, D.4):
//! - "Unspecified" results (division by zero, `to_int32` of NaN/inf/out-of-range floats,
//!   `to_real` of NaN/inf, out-of-range shifts, an `int` that does not fit a machine type) are a
//!   *fresh unconstrained variable per definition*, never SMT-LIB's fixed or functional
//!   choices (`bvudiv` by 0 is all ones; `fp.to_sbv` and `/` are functions, so two
//!   occurrences on equal arguments would have to agree, which icpic3 does not require).
//! - `fmin(-0, +0) = -0` and `fmax(-0, +0) = +0` (IEEE 754-2019); SMT-LIB leaves the sign
//!   open, so the zero case is spelled out with `ite`.
//! - C's `/` and `%` on signed machine integers truncate toward zero: `bvsdiv`/`bvsrem`;
//!   `shr` is arithmetic on signed types (`bvashr`), logical on unsigned ones (`bvlshr`).
//!
//! Transcendental functions (`sin`, `exp`, ...) have no SMT-LIB counterpart: [`to_smtlib`]
//! returns an error naming them.
//!
//! Relations between two machine integers are lowered through their exact values as `Int`
//! (never a wrapping subtraction). When every `Int` in the problem is such a value (no
//! declared `int`/real variable; only conversions from machine integers, linear forms,
//! Boolean 0/1 and `ite` of them), the `Int`s are printed as bit-vectors wide enough that no
//! operation can overflow (bounds computed from the definitions), so the script stays in
//! `QF_BVFP`, which Bitwuzla decides and Z3 bit-blasts far faster than `bv2nat`.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use solver::formula::{Atom, Bound, Def, Domain, Formula, Lit, Op, Rel, Sort, VarOrigin};
use solver::num::{ieee, FpFormat, IntType, Rational, RoundingMode};
use solver::Var;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The VMT form of a transition system: state variables `x` with their next-state copies
/// `x.next` (`:next`), INIT as `:init`, TRANS as `:trans`, and the reachability of TARGET as
/// the invariant `(not .bad)` of a fresh Boolean state variable `.bad` that may only be true
/// in a TARGET state (`.bad => TARGET` in INIT, `.bad.next => TARGET(next)` in TRANS): a
/// TARGET state is reachable exactly when `.bad` is. The auxiliary variables of each section
/// (definitions, Tseitin variables) are inputs named after their section (`init.h#3`), so
/// they are free in every step, as existential variables of the section should be. Int stays
/// Int (no bit-vector encoding); otherwise each section is printed as [`to_smtlib`] prints a
/// formula, with the same semantics.
pub fn to_vmt(ts: &ic3::TransitionSystem) -> Result<String, String> {
    let state: Vec<(String, String, Sort)> = ts
        .state
        .iter()
        .map(|v| (symbol(&v.name), symbol(&format!("{}.next", v.name)), v.sort))
        .collect();
    let section =
        |f: &Formula, maps: &[(&[Var], bool)], prefix: &str| -> Result<(String, String), String> {
            let mut p = Printer::new(f);
            p.int_bv = None;
            p.fresh_prefix = format!("{prefix}.");
            for (v, info) in f.vars.iter() {
                if let Some(slot) = p.names.get_mut(v.0 as usize) {
                    *slot = symbol(&format!("{prefix}.{}", info.name));
                }
            }
            for (vars, next) in maps {
                for (i, &v) in vars.iter().enumerate() {
                    let (c, n, _) = &state[i];
                    if let Some(slot) = p.names.get_mut(v.0 as usize) {
                        *slot = if *next { n.clone() } else { c.clone() };
                    }
                    if let Some(k) = p.skip_decl.get_mut(v.0 as usize) {
                        *k = true;
                    }
                }
            }
            p.run()?;
            let conj: Vec<&str> = p
                .body
                .lines()
                .filter_map(|l| l.strip_prefix("(assert ").and_then(|x| x.strip_suffix(')')))
                .collect();
            let body = match conj.len() {
                0 => "true".to_string(),
                1 => conj[0].to_string(),
                _ => format!("(and {})", conj.join(" ")),
            };
            Ok((p.decls, body))
        };
    let (d_init, init) = section(&ts.init, &[(&ts.init_vars, false)], "init")?;
    let (d_trans, trans) = section(
        &ts.trans,
        &[(&ts.trans_current, false), (&ts.trans_next, true)],
        "trans",
    )?;
    let (d_t0, target0) = section(&ts.target, &[(&ts.target_vars, false)], "target")?;
    let (d_t1, target1) = section(&ts.target, &[(&ts.target_vars, true)], "targetnext")?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "; a transition system of icpic3 in VMT form (lowered sections), see frontend/src/smtlib_out.rs"
    );
    for (i, (c, n, sort)) in state.iter().enumerate() {
        let st = sort_text(*sort, None);
        let _ = writeln!(s, "(declare-fun {c} () {st})");
        let _ = writeln!(s, "(declare-fun {n} () {st})");
        let _ = writeln!(s, "(define-fun .sv{i} () {st} (! {c} :next {n}))");
    }
    s.push_str(
        "(declare-fun .bad () Bool)
(declare-fun .bad.next () Bool)
",
    );
    s.push_str(
        "(define-fun .svbad () Bool (! .bad :next .bad.next))
",
    );
    for d in [&d_init, &d_trans, &d_t0, &d_t1] {
        s.push_str(d);
    }
    let _ = writeln!(
        s,
        "(define-fun .init () Bool (! (and {init} (=> .bad {target0})) :init true))"
    );
    let _ = writeln!(
        s,
        "(define-fun .trans () Bool (! (and {trans} (=> .bad.next {target1})) :trans true))"
    );
    s.push_str(
        "(define-fun .prop () Bool (! (not .bad) :invar-property 0))
",
    );
    Ok(s)
}

/// The SMT-LIB script of `f`: declarations, domain and definition assertions, clauses, roots,
/// then `(check-sat)`. `Err` names a construct SMT-LIB cannot express.
pub fn to_smtlib(f: &Formula) -> Result<String, String> {
    let mut p = Printer::new(f);
    p.run()?;
    Ok(p.finish())
}

struct Printer<'a> {
    f: &'a Formula,
    /// the width of the bit-vectors standing for `Int` values, when they are printed so
    int_bv: Option<u32>,
    names: Vec<String>,
    decls: String,
    body: String,
    n_fresh: usize,
    /// variables declared elsewhere (VMT state variables)
    skip_decl: Vec<bool>,
    /// prefix of the fresh variables' names (one per section in VMT output)
    fresh_prefix: String,
}

fn fp_sort(fmt: FpFormat) -> &'static str {
    match fmt {
        FpFormat::F32 => "(_ FloatingPoint 8 24)",
        FpFormat::F64 => "(_ FloatingPoint 11 53)",
    }
}

fn sort_text(s: Sort, int_bv: Option<u32>) -> String {
    match s {
        Sort::Int if int_bv.is_some() => format!("(_ BitVec {})", int_bv.unwrap_or(0)),
        Sort::Bool => "Bool".into(),
        Sort::Int => "Int".into(),
        Sort::Real => "Real".into(),
        Sort::Fp(f) => fp_sort(f).into(),
        Sort::MachineInt(t) => format!("(_ BitVec {})", t.bits),
    }
}

fn rm_text(rm: RoundingMode) -> &'static str {
    rm.name()
}

/// An SMT-LIB symbol for a variable name: plain when it is a simple symbol, else `|...|`.
fn symbol(name: &str) -> String {
    let simple = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c));
    if simple {
        name.into()
    } else {
        // `|` and `\` cannot occur in a quoted symbol; icpic3's names never contain them.
        format!("|{}|", name.replace(['|', '\\'], "_"))
    }
}

/// An integer literal (`(- 5)` for negatives).
fn int_lit(n: &BigInt) -> String {
    if n.is_negative() {
        format!("(- {})", -n)
    } else {
        n.to_string()
    }
}

/// A Real literal: `2.0`, `(/ 1.0 3.0)`, `(- (/ 1.0 3.0))`.
fn real_lit(q: &Rational) -> String {
    let a = q.abs();
    let body = if a.denom().is_one() {
        format!("{}.0", a.numer())
    } else {
        format!("(/ {}.0 {}.0)", a.numer(), a.denom())
    };
    if q.is_negative() {
        format!("(- {body})")
    } else {
        body
    }
}

/// A literal of `sort` with value `q` (integral for Int).
fn num_lit(sort: Sort, q: &Rational) -> String {
    match sort {
        Sort::Int => int_lit(&q.to_integer()),
        _ => real_lit(q),
    }
}

/// The bit-vector literal of integer `v` (wrapped into `t`'s width).
fn bv_lit(t: IntType, v: &BigInt) -> String {
    let m = BigInt::one() << t.bits as usize;
    let u = v.mod_floor(&m);
    format!("(_ bv{u} {})", t.bits)
}

/// The fp literal of a bit pattern of format `fmt`.
fn fp_lit(fmt: FpFormat, bits: u64) -> String {
    let (e, p) = (fmt.exponent_bits() as usize, fmt.precision() as usize);
    if fmt.is_nan(bits) {
        return format!("(_ NaN {e} {p})");
    }
    let frac = p - 1;
    let sign = bits >> (e + frac) & 1;
    let exp = (bits >> frac) & ((1u64 << e) - 1);
    let man = bits & ((1u64 << frac) - 1);
    format!("(fp #b{sign} #b{exp:0e$b} #b{man:0frac$b})")
}

impl<'a> Printer<'a> {
    fn new(f: &'a Formula) -> Printer<'a> {
        // Names are unique in icpic3's lowering; a clash (never expected) gets the index.
        let mut count: HashMap<&str, usize> = HashMap::new();
        for info in f.vars.values() {
            *count.entry(info.name.as_str()).or_default() += 1;
        }
        let names = f
            .vars
            .iter()
            .map(|(v, info)| {
                if count[info.name.as_str()] > 1 {
                    symbol(&format!("{}@{}", info.name, v.0))
                } else {
                    symbol(&info.name)
                }
            })
            .collect();
        Printer {
            f,
            int_bv: int_bv_width(f),
            names,
            decls: String::new(),
            body: String::new(),
            n_fresh: 0,
            skip_decl: vec![false; f.vars.len()],
            fresh_prefix: String::new(),
        }
    }

    fn name(&self, v: Var) -> &str {
        &self.names[v.0 as usize]
    }

    fn sort(&self, v: Var) -> Sort {
        self.f.vars[v].sort
    }

    /// The signed type of the bit-vectors standing for `Int` values (bv mode only).
    fn int_type(&self) -> IntType {
        IntType {
            bits: self.int_bv.unwrap_or(64) as u8,
            signed: true,
        }
    }

    fn int_bv_lit(&self, k: &BigInt) -> String {
        bv_lit(self.int_type(), k)
    }

    fn assert(&mut self, e: String) {
        let _ = writeln!(self.body, "(assert {e})");
    }

    /// A fresh unconstrained value of `sort`: an unspecified result.
    fn fresh(&mut self, sort: Sort) -> String {
        self.fresh_as(sort, "unspecified")
    }

    /// A fresh variable of `sort` named `{what}#n`.
    fn fresh_as(&mut self, sort: Sort, what: &str) -> String {
        self.n_fresh += 1;
        let n = symbol(&format!("{}{what}#{}", self.fresh_prefix, self.n_fresh));
        let _ = writeln!(
            self.decls,
            "(declare-fun {n} () {})",
            sort_text(sort, self.int_bv)
        );
        n
    }

    /// Variable `v` as a term of sort `to` (Int widened to Real where a Real is needed).
    fn term_as(&self, v: Var, to: Sort) -> String {
        let n = self.name(v).to_string();
        if self.sort(v) == Sort::Int && to == Sort::Real {
            format!("(to_real {n})")
        } else {
            n
        }
    }

    fn finish(self) -> String {
        let logic = self.logic();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "; the lowered problem of icpic3 (one definition per operation), see frontend/src/smtlib_out.rs"
        );
        let _ = writeln!(s, "(set-logic {logic})");
        s.push_str(&self.decls);
        s.push_str(&self.body);
        s.push_str("(check-sat)\n");
        s
    }

    /// The smallest standard logic for the sorts used (ALL when arithmetic is mixed in).
    fn logic(&self) -> &'static str {
        let (mut fp, mut bv, mut arith) = (false, false, false);
        for info in self.f.vars.values() {
            match info.sort {
                Sort::Fp(_) => fp = true,
                Sort::MachineInt(_) => bv = true,
                Sort::Int if self.int_bv.is_some() => bv = true,
                Sort::Int | Sort::Real => arith = true,
                Sort::Bool => {}
            }
        }
        // conversions into Int/Real have outputs of those sorts, so `arith` covers them
        match (fp, bv, arith) {
            (_, _, true) => "ALL",
            (true, true, false) => "QF_BVFP",
            (true, false, false) => "QF_FP",
            (false, true, false) => "QF_BV",
            (false, false, false) => "QF_UF",
        }
    }

    fn run(&mut self) -> Result<(), String> {
        let f = self.f;
        for (v, info) in f.vars.iter() {
            if self.skip_decl.get(v.0 as usize).copied().unwrap_or(false) {
                continue;
            }
            let n = self.name(v).to_string();
            let _ = writeln!(
                self.decls,
                "(declare-fun {n} () {})",
                sort_text(info.sort, self.int_bv)
            );
        }
        for (v, info) in f.vars.iter() {
            self.domain(v, info.sort, &info.domain, info.fp_const, &info.origin)?;
        }
        for d in &f.defs {
            self.def(d)?;
        }
        for c in &f.clauses {
            let e = if c.is_empty() {
                "false".to_string()
            } else {
                let lits: Vec<String> = c.iter().map(|&l| self.lit(l)).collect::<Result<_, _>>()?;
                if lits.len() == 1 {
                    lits[0].clone()
                } else {
                    format!("(or {})", lits.join(" "))
                }
            };
            self.assert(e);
        }
        for &r in &f.roots {
            let e = self.lit(r)?;
            self.assert(e);
        }
        Ok(())
    }

    // ------------------------------------------------------------------ domains

    fn domain(
        &mut self,
        v: Var,
        sort: Sort,
        d: &Domain,
        fp_const: Option<u64>,
        origin: &VarOrigin,
    ) -> Result<(), String> {
        let n = self.name(v).to_string();
        match sort {
            Sort::Bool => {}
            Sort::Real => {
                if let Some(b) = &d.lo {
                    let op = if b.strict { "<" } else { "<=" };
                    self.assert(format!("({op} {} {n})", real_lit(&b.value)));
                }
                if let Some(b) = &d.hi {
                    let op = if b.strict { "<" } else { "<=" };
                    self.assert(format!("({op} {n} {})", real_lit(&b.value)));
                }
            }
            Sort::Int if self.int_bv.is_some() => {
                // only constants have Int domains then (see `int_bv_width`)
                if let (Some(lo), Some(hi)) = (&d.lo, &d.hi) {
                    if lo.value == hi.value && lo.value.is_integer() {
                        let e = format!("(= {n} {})", self.int_bv_lit(&lo.value.to_integer()));
                        self.assert(e);
                    }
                }
            }
            Sort::Int => {
                // integral, non-strict ends: `int (0, 3)` is 1 <= n <= 2
                if let Some(b) = &d.lo {
                    let k = integral_bound(&b.value, b.strict, true);
                    self.assert(format!("(<= {} {n})", int_lit(&k)));
                }
                if let Some(b) = &d.hi {
                    let k = integral_bound(&b.value, b.strict, false);
                    self.assert(format!("(<= {n} {})", int_lit(&k)));
                }
            }
            Sort::MachineInt(t) => {
                if let Some(b) = &d.lo {
                    if let Some(e) = self.machine_bound(&n, t, b, true) {
                        self.assert(e);
                    }
                }
                if let Some(b) = &d.hi {
                    if let Some(e) = self.machine_bound(&n, t, b, false) {
                        self.assert(e);
                    }
                }
            }
            Sort::Fp(fmt) => {
                if let Some(bits) = fp_const {
                    // a constant: its exact bits (the domain cannot say -0 or NaN)
                    self.assert(format!("(= {n} {})", fp_lit(fmt, bits)));
                    return Ok(());
                }
                if matches!(origin, VarOrigin::Constant) && d.is_unbounded() {
                    return Err(format!("fp constant {n} without its bits"));
                }
                if d.is_unbounded() {
                    return Ok(());
                }
                // a range admits only the finite floats inside it (Part B.1)
                self.assert(format!("(not (fp.isNaN {n}))"));
                self.assert(format!("(not (fp.isInfinite {n}))"));
                if let Some(b) = &d.lo {
                    let e = fp_bound(&n, fmt, b, true);
                    self.assert(e);
                }
                if let Some(b) = &d.hi {
                    let e = fp_bound(&n, fmt, b, false);
                    self.assert(e);
                }
            }
        }
        Ok(())
    }

    /// `lo <= x` / `x <= hi` for a machine integer, with the bound made integral and clamped
    /// to the type (`None` when the type implies it).
    fn machine_bound(&self, n: &str, t: IntType, b: &Bound, lower: bool) -> Option<String> {
        let k = integral_bound(&b.value, b.strict, lower);
        let (min, max) = (t.min_value(), t.max_value());
        if lower {
            if k <= min {
                return None;
            }
            if k > max {
                return Some("false".into());
            }
            Some(format!("({} {} {n})", le_op(t), bv_lit(t, &k)))
        } else {
            if k >= max {
                return None;
            }
            if k < min {
                return Some("false".into());
            }
            Some(format!("({} {n} {})", le_op(t), bv_lit(t, &k)))
        }
    }

    // ------------------------------------------------------------------ literals

    fn lit(&self, l: Lit) -> Result<String, String> {
        let a = self.atom(self.f.atom(l.atom()))?;
        Ok(if l.is_negated() {
            format!("(not {a})")
        } else {
            a
        })
    }

    fn atom(&self, a: &Atom) -> Result<String, String> {
        match a {
            Atom::Bool(v) => Ok(self.name(*v).to_string()),
            Atom::Bound { var, rel, value } => {
                let n = self.name(*var).to_string();
                let sort = self.sort(*var);
                match sort {
                    Sort::Real => Ok(format!("({} {n} {})", rel.symbol(), real_lit(value))),
                    Sort::Int | Sort::MachineInt(_) => {
                        // x <= c  <=>  x <= floor(c), x < c <=> x <= ceil(c) - 1, ...
                        let (upper, k) = match rel {
                            Rel::Le => (true, value.floor().to_integer()),
                            Rel::Lt => (true, value.ceil().to_integer() - 1),
                            Rel::Ge => (false, value.ceil().to_integer()),
                            Rel::Gt => (false, value.floor().to_integer() + 1),
                        };
                        match sort {
                            Sort::MachineInt(t) => Ok(machine_atom(&n, t, upper, &k)),
                            Sort::Int if self.int_bv.is_some() => {
                                Ok(machine_atom(&n, self.int_type(), upper, &k))
                            }
                            _ => Ok(if upper {
                                format!("(<= {n} {})", int_lit(&k))
                            } else {
                                format!("(>= {n} {})", int_lit(&k))
                            }),
                        }
                    }
                    s => Err(format!("a bound atom on a {} variable", s.name())),
                }
            }
        }
    }

    // ------------------------------------------------------------------ definitions

    fn def(&mut self, d: &Def) -> Result<(), String> {
        if self.int_bv.is_some() && self.sort(d.out) == Sort::Int {
            let rhs = self.int_bv_def(d)?;
            let out = self.name(d.out).to_string();
            self.assert(format!("(= {out} {rhs})"));
            return Ok(());
        }
        let out_sort = self.sort(d.out);
        let out = self.name(d.out).to_string();
        let a: Vec<String> = d.args.iter().map(|&x| self.name(x).to_string()).collect();
        let arity = |n: usize| -> Result<(), String> {
            if d.args.len() == n {
                Ok(())
            } else {
                Err(format!("{} with {} operands", d.op.name(), d.args.len()))
            }
        };
        let fmt_of = |v: Var| match self.sort(v) {
            Sort::Fp(f) => Ok(f),
            s => Err(format!("an fp operation on a {} operand", s.name())),
        };
        let rhs = match &d.op {
            Op::Linear { coeffs, constant } => {
                if coeffs.len() != d.args.len() {
                    return Err("linear definition with mismatched coefficients".into());
                }
                let mut terms: Vec<String> = coeffs
                    .iter()
                    .zip(&d.args)
                    .map(|(c, &x)| {
                        let t = self.term_as(x, out_sort);
                        if c.is_one() {
                            t
                        } else {
                            format!("(* {} {t})", num_lit(out_sort, c))
                        }
                    })
                    .collect();
                if !constant.is_zero() || terms.is_empty() {
                    terms.push(num_lit(out_sort, constant));
                }
                if terms.len() == 1 {
                    terms.pop().unwrap_or_default()
                } else {
                    format!("(+ {})", terms.join(" "))
                }
            }
            Op::Mul => {
                arity(2)?;
                format!(
                    "(* {} {})",
                    self.term_as(d.args[0], out_sort),
                    self.term_as(d.args[1], out_sort)
                )
            }
            Op::Pow(n) => {
                arity(1)?;
                let x = self.term_as(d.args[0], out_sort);
                match n {
                    0 => num_lit(out_sort, &Rational::one()),
                    1 => x,
                    _ => format!("(* {})", vec![x; *n as usize].join(" ")),
                }
            }
            Op::Nrt(n) => {
                arity(1)?;
                // out^n = a (out >= 0 for even n); an even root of a negative number is
                // unspecified: then nothing constrains out
                let x = self.term_as(d.args[0], Sort::Real);
                let pow = format!("(* {})", vec![out.clone(); *n as usize].join(" "));
                let e = if n % 2 == 0 {
                    format!("(or (< {x} 0.0) (and (>= {out} 0.0) (= {pow} {x})))")
                } else {
                    format!("(= {pow} {x})")
                };
                self.assert(e);
                return Ok(());
            }
            Op::Div => {
                arity(2)?;
                let (x, y) = (
                    self.term_as(d.args[0], Sort::Real),
                    self.term_as(d.args[1], Sort::Real),
                );
                let u = self.fresh(out_sort);
                format!("(ite (= {y} 0.0) {u} (/ {x} {y}))")
            }
            Op::Abs => {
                arity(1)?;
                let x = self.term_as(d.args[0], out_sort);
                let z = num_lit(out_sort, &Rational::zero());
                format!("(ite (>= {x} {z}) {x} (- {x}))")
            }
            Op::Min | Op::Max => {
                arity(2)?;
                let (x, y) = (
                    self.term_as(d.args[0], out_sort),
                    self.term_as(d.args[1], out_sort),
                );
                let op = if d.op == Op::Min { "<=" } else { ">=" };
                format!("(ite ({op} {x} {y}) {x} {y})")
            }
            Op::Sin
            | Op::Cos
            | Op::Tan
            | Op::Exp
            | Op::Exp2
            | Op::Exp10
            | Op::Log
            | Op::Log2
            | Op::Log10 => {
                return Err(format!(
                    "`{}` has no SMT-LIB counterpart (transcendental function)",
                    d.op.name()
                ))
            }
            Op::Ite => {
                arity(3)?;
                format!(
                    "(ite {} {} {})",
                    a[0],
                    self.term_as(d.args[1], out_sort),
                    self.term_as(d.args[2], out_sort)
                )
            }
            Op::BoolToNum => {
                arity(1)?;
                let (one, zero) = (
                    num_lit(out_sort, &Rational::one()),
                    num_lit(out_sort, &Rational::zero()),
                );
                format!("(ite {} {one} {zero})", a[0])
            }
            Op::Convert => {
                arity(1)?;
                self.convert(d.args[0], out_sort)?
            }
            Op::FAdd(rm) | Op::FSub(rm) | Op::FMul(rm) | Op::FDiv(rm) => {
                arity(2)?;
                let op = match d.op {
                    Op::FAdd(_) => "fp.add",
                    Op::FSub(_) => "fp.sub",
                    Op::FMul(_) => "fp.mul",
                    _ => "fp.div",
                };
                format!("({op} {} {} {})", rm_text(*rm), a[0], a[1])
            }
            Op::FSqrt(rm) => {
                arity(1)?;
                format!("(fp.sqrt {} {})", rm_text(*rm), a[0])
            }
            Op::FFma(rm) => {
                arity(3)?;
                format!("(fp.fma {} {} {} {})", rm_text(*rm), a[0], a[1], a[2])
            }
            Op::FNeg => {
                arity(1)?;
                format!("(fp.neg {})", a[0])
            }
            Op::FAbs => {
                arity(1)?;
                format!("(fp.abs {})", a[0])
            }
            Op::FMin | Op::FMax => {
                arity(2)?;
                // fmin(-0, +0) = -0, fmax(-0, +0) = +0: SMT-LIB leaves the sign open
                let (x, y) = (&a[0], &a[1]);
                let (op, pick) = if d.op == Op::FMin {
                    ("fp.min", format!("(ite (fp.isNegative {x}) {x} {y})"))
                } else {
                    ("fp.max", format!("(ite (fp.isNegative {x}) {y} {x})"))
                };
                format!("(ite (and (fp.isZero {x}) (fp.isZero {y})) {pick} ({op} {x} {y}))")
            }
            Op::ToFp(rm) => {
                arity(1)?;
                let Sort::Fp(to) = out_sort else {
                    return Err("to_fp into a non-fp sort".into());
                };
                let idx = format!("{} {}", to.exponent_bits(), to.precision());
                let x = &a[0];
                let rm = rm_text(*rm);
                match self.sort(d.args[0]) {
                    Sort::Fp(_) | Sort::Real => format!("((_ to_fp {idx}) {rm} {x})"),
                    Sort::Int => format!("((_ to_fp {idx}) {rm} (to_real {x}))"),
                    Sort::MachineInt(t) if t.signed => format!("((_ to_fp {idx}) {rm} {x})"),
                    Sort::MachineInt(_) => format!("((_ to_fp_unsigned {idx}) {rm} {x})"),
                    Sort::Bool => return Err("to_fp of a Boolean".into()),
                }
            }
            Op::FpToInt => {
                arity(1)?;
                let fmt = fmt_of(d.args[0])?;
                let x = &a[0];
                match out_sort {
                    Sort::MachineInt(t) => {
                        // C's cast: truncation; NaN, infinities and values whose truncation
                        // is outside the type are unspecified (a fresh value)
                        let ok = fits_after_trunc(x, fmt, t);
                        let conv = if t.signed { "fp.to_sbv" } else { "fp.to_ubv" };
                        let u = self.fresh(out_sort);
                        format!("(ite {ok} ((_ {conv} {}) RTZ {x}) {u})", t.bits)
                    }
                    Sort::Int => {
                        let r = format!("(fp.to_real {x})");
                        let u = self.fresh(out_sort);
                        format!(
                            "(ite (or (fp.isNaN {x}) (fp.isInfinite {x})) {u} (ite (>= {r} 0.0) (to_int {r}) (- (to_int (- {r})))))"
                        )
                    }
                    s => return Err(format!("fp_to_int into a {}", s.name())),
                }
            }
            Op::FpToBits => {
                // SMT-LIB has no fp -> bit-vector reinterpretation: a fresh pattern `b` with
                // `((_ to_fp e s) b) = x` is x's encoding (unique for every non-NaN x: `=`
                // is identity, so -0 and +0 differ); NaN gives the canonical pattern
                arity(1)?;
                let fmt = fmt_of(d.args[0])?;
                let Sort::MachineInt(t) = out_sort else {
                    return Err("fp_bits into a non-machine-integer sort".into());
                };
                let x = &a[0];
                let b = self.fresh_as(out_sort, "bits");
                let idx = format!("{} {}", fmt.exponent_bits(), fmt.precision());
                self.assert(format!("(= ((_ to_fp {idx}) {b}) {x})"));
                let nan = bv_lit(t, &BigInt::from(fmt.nan_bits()));
                format!("(ite (fp.isNaN {x}) {nan} {b})")
            }
            Op::FpOfBits => {
                arity(1)?;
                let Sort::Fp(fmt) = out_sort else {
                    return Err("fp_of_bits into a non-fp sort".into());
                };
                let idx = format!("{} {}", fmt.exponent_bits(), fmt.precision());
                format!("((_ to_fp {idx}) {})", a[0])
            }
            Op::FpToReal => {
                arity(1)?;
                let x = &a[0];
                let u = self.fresh(out_sort);
                format!("(ite (or (fp.isNaN {x}) (fp.isInfinite {x})) {u} (fp.to_real {x}))")
            }
            Op::FLt | Op::FLe | Op::FEq | Op::FSame => {
                arity(2)?;
                let op = match d.op {
                    Op::FLt => "fp.lt",
                    Op::FLe => "fp.leq",
                    Op::FEq => "fp.eq",
                    // SMT-LIB `=` is identity: NaN = NaN, -0 != +0
                    _ => "=",
                };
                format!("({op} {} {})", a[0], a[1])
            }
            Op::IsNan | Op::IsInf | Op::IsZero | Op::IsSubnormal | Op::IsNormal | Op::IsNeg => {
                arity(1)?;
                let op = match d.op {
                    Op::IsNan => "fp.isNaN",
                    Op::IsInf => "fp.isInfinite",
                    Op::IsZero => "fp.isZero",
                    Op::IsSubnormal => "fp.isSubnormal",
                    Op::IsNormal => "fp.isNormal",
                    // false for NaN, as icpic3's isneg
                    _ => "fp.isNegative",
                };
                format!("({op} {})", a[0])
            }
            Op::BvAdd | Op::BvSub | Op::BvMul | Op::BvAnd | Op::BvOr | Op::BvXor => {
                arity(2)?;
                let op = match d.op {
                    Op::BvAdd => "bvadd",
                    Op::BvSub => "bvsub",
                    Op::BvMul => "bvmul",
                    Op::BvAnd => "bvand",
                    Op::BvOr => "bvor",
                    _ => "bvxor",
                };
                format!("({op} {} {})", a[0], a[1])
            }
            Op::BvNeg | Op::BvNot => {
                arity(1)?;
                let op = if d.op == Op::BvNeg { "bvneg" } else { "bvnot" };
                format!("({op} {})", a[0])
            }
            Op::BvDiv | Op::BvRem => {
                arity(2)?;
                let t = machine(out_sort)?;
                // C truncating division and remainder; a zero divisor is unspecified (not
                // SMT-LIB's bvudiv-by-0 = all ones)
                let op = match (d.op == Op::BvDiv, t.signed) {
                    (true, true) => "bvsdiv",
                    (true, false) => "bvudiv",
                    (false, true) => "bvsrem",
                    (false, false) => "bvurem",
                };
                let u = self.fresh(out_sort);
                format!(
                    "(ite (= {} {}) {u} ({op} {} {}))",
                    a[1],
                    bv_lit(t, &BigInt::zero()),
                    a[0],
                    a[1]
                )
            }
            Op::BvShl | Op::BvShr => {
                arity(2)?;
                let t = machine(out_sort)?;
                let (ok, amount) = self.shift_amount(d.args[1], t)?;
                let op = match (d.op == Op::BvShl, t.signed) {
                    (true, _) => "bvshl",
                    (false, true) => "bvashr",
                    (false, false) => "bvlshr",
                };
                let u = self.fresh(out_sort);
                format!("(ite {ok} ({op} {} {amount}) {u})", a[0])
            }
            Op::BvCast => {
                arity(1)?;
                let to = machine(out_sort)?;
                let from = machine(self.sort(d.args[0]))?;
                resize(&a[0], from, to.bits)
            }
        };
        self.assert(format!("(= {out} {rhs})"));
        Ok(())
    }

    /// A definition with an `Int` output in bv mode (the kinds `int_bv_width` admits).
    fn int_bv_def(&self, d: &Def) -> Result<String, String> {
        let a: Vec<String> = d.args.iter().map(|&x| self.name(x).to_string()).collect();
        let w = self.int_bv.unwrap_or(64);
        Ok(match (&d.op, d.args.as_slice()) {
            (Op::Linear { coeffs, constant }, args) if coeffs.len() == args.len() => {
                let mut terms: Vec<String> = coeffs
                    .iter()
                    .zip(&a)
                    .map(|(c, x)| {
                        if c.is_one() {
                            x.clone()
                        } else {
                            format!("(bvmul {} {x})", self.int_bv_lit(&c.to_integer()))
                        }
                    })
                    .collect();
                if !constant.is_zero() || terms.is_empty() {
                    terms.push(self.int_bv_lit(&constant.to_integer()));
                }
                let mut e = terms.remove(0);
                for t in terms {
                    e = format!("(bvadd {e} {t})");
                }
                e
            }
            (Op::BoolToNum, [_]) => format!(
                "(ite {} {} {})",
                a[0],
                self.int_bv_lit(&BigInt::one()),
                self.int_bv_lit(&BigInt::zero())
            ),
            (Op::Ite, [_, _, _]) => format!("(ite {} {} {})", a[0], a[1], a[2]),
            (Op::Convert, [x]) => match self.sort(*x) {
                Sort::MachineInt(t) => resize(&a[0], t, w as u8),
                Sort::Int => a[0].clone(),
                s => return Err(format!("convert from {} in bit-vector mode", s.name())),
            },
            _ => return Err(format!("{} in bit-vector mode", d.op.name())),
        })
    }

    /// `Convert`: the exact value of an Int/Real/machine-integer variable in another of these
    /// sorts; into a machine type it is unspecified when the value does not fit.
    fn convert(&mut self, x: Var, to: Sort) -> Result<String, String> {
        let n = self.name(x).to_string();
        let from = self.sort(x);
        // the value as an Int term
        let int_of = |n: &str| -> Result<String, String> {
            match from {
                Sort::Int => Ok(n.to_string()),
                Sort::MachineInt(t) => Ok(machine_value(n, t)),
                s => Err(format!("convert from a {} into an integer sort", s.name())),
            }
        };
        Ok(match to {
            Sort::Real => match from {
                Sort::Real => n,
                _ => format!("(to_real {})", int_of(&n)?),
            },
            Sort::Int => int_of(&n)?,
            Sort::MachineInt(t) => {
                if let Sort::MachineInt(s) = from {
                    // a value of one machine type that fits another: a resize keeps it
                    let v = machine_value(&n, s);
                    let u = self.fresh(to);
                    let fits = format!(
                        "(and (<= {} {v}) (<= {v} {}))",
                        int_lit(&t.min_value()),
                        int_lit(&t.max_value())
                    );
                    return Ok(format!("(ite {fits} {} {u})", resize(&n, s, t.bits)));
                }
                if self.int_bv.is_some() && from == Sort::Int {
                    // a wide bit-vector value that fits the type: its low bits
                    let it = self.int_type();
                    let fits = format!(
                        "(and (bvsle {} {n}) (bvsle {n} {}))",
                        bv_lit(it, &t.min_value()),
                        bv_lit(it, &t.max_value())
                    );
                    let u = self.fresh(to);
                    return Ok(format!(
                        "(ite {fits} ((_ extract {} 0) {n}) {u})",
                        t.bits - 1
                    ));
                }
                let v = int_of(&n)?;
                let u = self.fresh(to);
                let fits = format!(
                    "(and (<= {} {v}) (<= {v} {}))",
                    int_lit(&t.min_value()),
                    int_lit(&t.max_value())
                );
                format!("(ite {fits} ((_ int2bv {}) {v}) {u})", t.bits)
            }
            s => return Err(format!("convert into a {}", s.name())),
        })
    }

    /// A shift amount in `t`'s width and the condition `0 <= b < width` under which the shift
    /// is specified.
    fn shift_amount(&self, b: Var, t: IntType) -> Result<(String, String), String> {
        let n = self.name(b).to_string();
        let w = BigInt::from(t.bits);
        match self.sort(b) {
            Sort::MachineInt(s) => {
                let v = machine_value(&n, s);
                let ok = format!("(and (<= 0 {v}) (< {v} {}))", int_lit(&w));
                // pure bit-vector form when the amount has the value's type (Bitwuzla has no
                // Int): 0 <= b < width
                let ok = if s == t {
                    let lt = if t.signed { "bvslt" } else { "bvult" };
                    let zero = bv_lit(t, &BigInt::zero());
                    let ge0 = if t.signed {
                        format!("(bvsle {zero} {n})")
                    } else {
                        "true".into()
                    };
                    format!("(and {ge0} ({lt} {n} {}))", bv_lit(t, &w))
                } else {
                    ok
                };
                Ok((ok, resize(&n, s, t.bits)))
            }
            Sort::Int => Ok((
                format!("(and (<= 0 {n}) (< {n} {}))", int_lit(&w)),
                format!("((_ int2bv {}) {n})", t.bits),
            )),
            s => Err(format!("a shift amount of sort {}", s.name())),
        }
    }
}

fn machine(s: Sort) -> Result<IntType, String> {
    match s {
        Sort::MachineInt(t) => Ok(t),
        s => Err(format!(
            "a machine-integer operation with a {} result",
            s.name()
        )),
    }
}

fn le_op(t: IntType) -> &'static str {
    if t.signed {
        "bvsle"
    } else {
        "bvule"
    }
}

/// `x <= k` (upper) or `x >= k` for a machine integer, as a bit-vector comparison, or a
/// constant when `k` is outside the type.
fn machine_atom(n: &str, t: IntType, upper: bool, k: &BigInt) -> String {
    let (min, max) = (t.min_value(), t.max_value());
    if upper {
        if *k >= max {
            return "true".into();
        }
        if *k < min {
            return "false".into();
        }
        format!("({} {n} {})", le_op(t), bv_lit(t, k))
    } else {
        if *k <= min {
            return "true".into();
        }
        if *k > max {
            return "false".into();
        }
        format!("({} {} {n})", le_op(t), bv_lit(t, k))
    }
}

/// The integer value of a bit-vector term read as type `t` (an Int term).
fn machine_value(n: &str, t: IntType) -> String {
    if t.signed {
        let m = BigInt::one() << t.bits as usize;
        format!(
            "(ite (bvslt {n} {}) (- (bv2nat {n}) {m}) (bv2nat {n}))",
            bv_lit(t, &BigInt::zero())
        )
    } else {
        format!("(bv2nat {n})")
    }
}

/// Wrap-around conversion to `bits` bits (C's conversion between integer types): truncate,
/// or extend by the source's signedness.
fn resize(x: &str, from: IntType, bits: u8) -> String {
    use std::cmp::Ordering::*;
    match bits.cmp(&from.bits) {
        Equal => x.to_string(),
        Less => format!("((_ extract {} 0) {x})", bits - 1),
        Greater => {
            let ext = if from.signed {
                "sign_extend"
            } else {
                "zero_extend"
            };
            format!("((_ {ext} {}) {x})", bits - from.bits)
        }
    }
}

/// The integer `k` with `x >= k` ⟺ the bound (lower), or `x <= k` (upper), for integer `x`.
fn integral_bound(v: &Rational, strict: bool, lower: bool) -> BigInt {
    if lower {
        if strict {
            v.floor().to_integer() + 1
        } else {
            v.ceil().to_integer()
        }
    } else if strict {
        v.ceil().to_integer() - 1
    } else {
        v.floor().to_integer()
    }
}

/// `lo <= x` / `x <= hi` for a float of a range (Part B.1), with the bound moved to the
/// nearest float inside: floats satisfy `x >= lo` exactly when `x >= RTP(lo)`.
fn fp_bound(n: &str, fmt: FpFormat, b: &Bound, lower: bool) -> String {
    let rm = if lower {
        RoundingMode::Rtp
    } else {
        RoundingMode::Rtn
    };
    let bits = ieee::from_rational(fmt, rm, &b.value);
    let exact = fmt.to_rational(bits).is_some_and(|q| q == b.value);
    let op = if b.strict && exact { "fp.lt" } else { "fp.leq" };
    let lit = fp_lit(fmt, bits);
    if lower {
        format!("({op} {lit} {n})")
    } else {
        format!("({op} {n} {lit})")
    }
}

/// The condition under which C's cast of float `x` to `t` is specified: `x` is finite and
/// `min - 1 < x < max + 1`, with the ends moved to floats of the format.
fn fits_after_trunc(x: &str, fmt: FpFormat, t: IntType) -> String {
    let lo = Rational::from_integer(t.min_value() - 1);
    let hi = Rational::from_integer(t.max_value() + 1);
    let b_lo = ieee::from_rational(fmt, RoundingMode::Rtp, &lo);
    let b_hi = ieee::from_rational(fmt, RoundingMode::Rtn, &hi);
    let lo_exact = fmt.to_rational(b_lo).is_some_and(|q| q == lo);
    let hi_exact = fmt.to_rational(b_hi).is_some_and(|q| q == hi);
    let lo_op = if lo_exact { "fp.lt" } else { "fp.leq" };
    let hi_op = if hi_exact { "fp.lt" } else { "fp.leq" };
    // NaN fails both comparisons; the ends are finite, so infinities fail one
    format!(
        "(and ({lo_op} {} {x}) ({hi_op} {x} {}))",
        fp_lit(fmt, b_lo),
        fp_lit(fmt, b_hi)
    )
}

/// Whether every `Int` of `f` is an exact value computed from machine integers (see the
/// module docs), and then the bit-vector width that holds every such value and every partial
/// sum of their linear forms without overflow. `None`: print `Int` as `Int`.
fn int_bv_width(f: &Formula) -> Option<u32> {
    // magnitude bound (max |value|) of each Int variable
    let mut bound: HashMap<Var, BigInt> = HashMap::new();
    for (v, info) in f.vars.iter() {
        match info.sort {
            Sort::Real => return None,
            Sort::Int => match info.origin {
                VarOrigin::Constant => {
                    let (lo, hi) = (info.domain.lo.as_ref()?, info.domain.hi.as_ref()?);
                    if lo.value != hi.value || !lo.value.is_integer() {
                        return None;
                    }
                    bound.insert(v, lo.value.to_integer().abs());
                }
                VarOrigin::Aux { .. } => {}
                _ => return None,
            },
            _ => {}
        }
    }
    let mut max = BigInt::one();
    let mut any = false;
    for d in &f.defs {
        if f.vars[d.out].sort != Sort::Int {
            continue;
        }
        any = true;
        let arg = |x: &Var| bound.get(x).cloned();
        let b = match (&d.op, d.args.as_slice()) {
            (Op::Linear { coeffs, constant }, args) => {
                if !constant.is_integer() || coeffs.iter().any(|c| !c.is_integer()) {
                    return None;
                }
                let mut s = constant.to_integer().abs();
                for (c, x) in coeffs.iter().zip(args) {
                    // terms are Int variables (Booleans come through BoolToNum)
                    s += c.to_integer().abs() * arg(x)?;
                }
                s
            }
            (Op::BoolToNum, [_]) => BigInt::one(),
            (Op::Ite, [_, x, y]) => arg(x)?.max(arg(y)?),
            (Op::Convert, [x]) => match f.vars[*x].sort {
                Sort::MachineInt(t) => t.min_value().abs().max(t.max_value()),
                _ => return None,
            },
            _ => return None,
        };
        max = max.max(b.clone());
        bound.insert(d.out, b);
    }
    // every Int must be defined before use (the lowering's order): otherwise give up
    if f.vars
        .iter()
        .any(|(v, i)| i.sort == Sort::Int && !bound.contains_key(&v))
    {
        return None;
    }
    // sign bit plus magnitude bits; a multiple of 8 keeps the literals readable
    let bits = (max.bits() as u32 + 1).div_ceil(8) * 8;
    (any && bits <= 128).then_some(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(
            fp_lit(FpFormat::F32, 1.0f32.to_bits() as u64),
            "(fp #b0 #b01111111 #b00000000000000000000000)"
        );
        assert_eq!(
            fp_lit(FpFormat::F64, FpFormat::F64.nan_bits()),
            "(_ NaN 11 53)"
        );
        let i8t = IntType {
            bits: 8,
            signed: true,
        };
        assert_eq!(bv_lit(i8t, &BigInt::from(-1)), "(_ bv255 8)");
        assert_eq!(
            real_lit(&Rational::new((-1).into(), 3.into())),
            "(- (/ 1.0 3.0))"
        );
        assert_eq!(int_lit(&BigInt::from(-4)), "(- 4)");
        assert_eq!(symbol("x"), "x");
        assert_eq!(symbol("h#1"), "|h#1|");
        assert_eq!(symbol("fp32:0x3dcccccd"), "|fp32:0x3dcccccd|");
        assert_eq!(symbol("0.5"), "|0.5|");
    }

    #[test]
    fn cast_ranges_move_to_floats() {
        let i32t = IntType {
            bits: 32,
            signed: true,
        };
        // -2^31 - 1 and 2^31 are not binary32 neighbours of anything exact but -2^31 and
        // 2^31: x >= -2^31 and x < 2^31
        let c = fits_after_trunc("x", FpFormat::F32, i32t);
        let m = fp_lit(FpFormat::F32, (-2147483648.0f32).to_bits() as u64);
        let p = fp_lit(FpFormat::F32, 2147483648.0f32.to_bits() as u64);
        assert_eq!(c, format!("(and (fp.leq {m} x) (fp.lt x {p}))"));
        // in binary64 both -2^31 - 1 and 2^31 are exact
        let c = fits_after_trunc("x", FpFormat::F64, i32t);
        let m = fp_lit(FpFormat::F64, (-2147483649.0f64).to_bits());
        let p = fp_lit(FpFormat::F64, 2147483648.0f64.to_bits());
        assert_eq!(c, format!("(and (fp.lt {m} x) (fp.lt x {p}))"));
    }
}
