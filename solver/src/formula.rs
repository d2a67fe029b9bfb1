//! The lowered problem the solver consumes (paper §2.3; what iSAT3's `--dump-hys-problem`
//! shows): every arithmetic operation becomes one *definition* `out = op(args)` over a fresh
//! auxiliary variable, every arithmetic relation becomes a simple *bound atom* `x ~ c` on such
//! a variable, and the Boolean structure becomes Tseitin clauses over atoms.
//!
//! Definitions hold unconditionally. That is only sound because every [`Op`] is *total*: where
//! the mathematical function is undefined (division by zero, `log` of a non-positive number, an
//! even root of a negative number, a NaN converted to an integer) the result is an unspecified
//! value of the output's sort, as in SMT-LIB. Language rules that make a whole constraint false
//! instead (an `int` value that does not fit a machine type) are expressed by the front end as
//! extra atoms conjoined to the constraint, never by a definition.
//!
//! The Tseitin encoding is full (both directions) and the top-level constraints are kept as
//! separate [`Formula::roots`], so an engine can assert the formula (`∧ roots`) or its negation
//! (`∨ ¬roots`, needed by GeNTR for ¬T) over the same clauses. The negation is exact when every
//! definition is deterministic, see [`Op::is_deterministic`].

use crate::num::{format_rational, FpFormat, IntType, Rational, RoundingMode};
use crate::var::{Var, VarMap};
use std::collections::HashMap;
use std::fmt::{self, Write as _};

/// The sort (type) of a variable.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Sort {
    Bool,
    /// mathematical integers (`int [a, b]`)
    Int,
    /// mathematical reals (`float [a, b]` in iSAT naming)
    Real,
    /// IEEE-754 binary floats (`fp32`, `fp64`)
    Fp(FpFormat),
    /// machine integers (`int8` ... `uint64`)
    MachineInt(IntType),
}

impl Sort {
    pub fn name(self) -> String {
        match self {
            Sort::Bool => "boole".into(),
            Sort::Int => "int".into(),
            Sort::Real => "real".into(),
            Sort::Fp(f) => f.name().into(),
            Sort::MachineInt(t) => t.name(),
        }
    }
    /// Sorts whose values are integers (bounds on them are rounded to integers).
    pub fn is_integral(self) -> bool {
        matches!(self, Sort::Int | Sort::MachineInt(_))
    }
}

/// One end of a domain: a rational value, open (`strict`) or closed.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Bound {
    pub value: Rational,
    pub strict: bool,
}

/// The declared domain of a numeric variable. `None` ends are unbounded. For `Fp` variables a
/// domain with both ends present means "finite values in that range only" (no NaN, no
/// infinities); an `Fp` domain with no ends is the full IEEE domain. Machine integers are
/// always also limited by their type.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Domain {
    pub lo: Option<Bound>,
    pub hi: Option<Bound>,
}

impl Domain {
    pub fn unbounded() -> Domain {
        Domain { lo: None, hi: None }
    }
    pub fn closed(lo: Rational, hi: Rational) -> Domain {
        Domain {
            lo: Some(Bound {
                value: lo,
                strict: false,
            }),
            hi: Some(Bound {
                value: hi,
                strict: false,
            }),
        }
    }
    pub fn point(v: Rational) -> Domain {
        Domain::closed(v.clone(), v)
    }
    pub fn is_unbounded(&self) -> bool {
        self.lo.is_none() && self.hi.is_none()
    }
}

/// Where a variable comes from; used to map answers back to the source.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum VarOrigin {
    /// declared by the user; the span of its declaration
    Declared { span: (u32, u32) },
    /// an auxiliary variable for the value of the sub-expression at `span`
    Aux { span: (u32, u32) },
    /// a constant operand, as a variable with a point domain
    Constant,
    /// a Tseitin variable for a Boolean sub-formula at `span`
    Tseitin { span: (u32, u32) },
}

#[derive(Clone, PartialEq, Debug)]
pub struct VarInfo {
    pub name: String,
    pub sort: Sort,
    pub domain: Domain,
    pub origin: VarOrigin,
    /// For `Fp` constants: the exact bit pattern (the domain alone cannot say -0 or NaN).
    pub fp_const: Option<u64>,
}

/// Relation of a simple bound atom `x ~ c`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Rel {
    Le,
    Lt,
    Ge,
    Gt,
}

impl Rel {
    pub fn symbol(self) -> &'static str {
        match self {
            Rel::Le => "<=",
            Rel::Lt => "<",
            Rel::Ge => ">=",
            Rel::Gt => ">",
        }
    }
    /// The relation of the negated atom: `¬(x <= c)` is `x > c`.
    pub fn negate(self) -> Rel {
        match self {
            Rel::Le => Rel::Gt,
            Rel::Lt => Rel::Ge,
            Rel::Ge => Rel::Lt,
            Rel::Gt => Rel::Le,
        }
    }
    /// The relation with the sides swapped: `c <= x` is `x >= c`.
    pub fn flip(self) -> Rel {
        match self {
            Rel::Le => Rel::Ge,
            Rel::Lt => Rel::Gt,
            Rel::Ge => Rel::Le,
            Rel::Gt => Rel::Lt,
        }
    }
    pub fn holds(self, ord: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            Rel::Le => ord != Greater,
            Rel::Lt => ord == Less,
            Rel::Ge => ord != Less,
            Rel::Gt => ord == Greater,
        }
    }
}

/// An atom of the Boolean abstraction: a Boolean variable, or a simple bound `var rel value`
/// on a numeric (int, real or machine-int) variable. IEEE comparisons are definitions with a
/// Boolean output, because NaN makes them non-monotone.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Atom {
    Bool(Var),
    Bound { var: Var, rel: Rel, value: Rational },
}

/// Index of an atom in [`Formula::atoms`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct AtomId(pub u32);

/// A literal over atoms: `2·atom + negated`, so negation is one bit flip.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Lit(pub u32);

impl Lit {
    pub fn new(atom: AtomId, negated: bool) -> Lit {
        Lit(atom.0 << 1 | negated as u32)
    }
    pub fn atom(self) -> AtomId {
        AtomId(self.0 >> 1)
    }
    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

/// A primitive operation. Each is total (see the module docs); the output sort is the sort of
/// the definition's `out` variable.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    // --- mathematical integers and reals (Bool arguments are not allowed: see BoolToNum) ---
    /// `out = Σ coeffs[i]·args[i] + constant`
    Linear {
        coeffs: Vec<Rational>,
        constant: Rational,
    },
    /// `out = a·b`
    Mul,
    /// `out = a^n`, n ≥ 0
    Pow(u32),
    /// `out = a^(1/n)`, n ≥ 1; odd roots of negatives are negative; even roots of negatives
    /// unspecified
    Nrt(u32),
    /// `out = a / b`; unspecified when b = 0
    Div,
    Abs,
    Min,
    Max,
    Sin,
    Cos,
    /// unspecified at the poles
    Tan,
    Exp,
    Exp2,
    Exp10,
    /// natural logarithm; unspecified for a ≤ 0
    Log,
    Log2,
    Log10,
    /// `out = if a then b else c` (a Boolean; b, c and out of one sort, any sort)
    Ite,
    /// `out = if a then 1 else 0` (Booleans used in arithmetic)
    BoolToNum,
    /// `out = a`, exactly (conversion between Int/Real/MachineInt sorts); unspecified if the
    /// value does not fit the output's machine type, so the front end adds a fit condition
    Convert,

    // --- IEEE-754 (operands and output of one format) ---
    FAdd(RoundingMode),
    FSub(RoundingMode),
    FMul(RoundingMode),
    FDiv(RoundingMode),
    FSqrt(RoundingMode),
    /// `out = a·b + c` with one rounding
    FFma(RoundingMode),
    FNeg,
    FAbs,
    /// IEEE minNum/maxNum: a NaN operand is ignored
    FMin,
    FMax,
    /// `out = round(a)` into the output's format, from any fp, Int, Real or machine int
    ToFp(RoundingMode),
    /// C cast from fp to an integer sort: truncation toward zero; unspecified for NaN,
    /// infinities and values out of the output's range
    FpToInt,
    /// the exact value of a finite float; unspecified for NaN and infinities
    FpToReal,
    /// `out` (a machine integer of the format's width) = the IEEE-754 encoding of `a`, read
    /// as an unsigned pattern (a signed output holds the same bits); NaN gives the canonical
    /// quiet NaN pattern (there is one NaN value)
    FpToBits,
    /// `out` (fp) = the float whose encoding is the bit pattern of `a` (a machine integer
    /// of the format's width, signed or unsigned); every NaN pattern gives NaN
    FpOfBits,
    /// Bool out: IEEE `<`, `<=`, `==` (false when either operand is NaN; -0 == +0)
    FLt,
    FLe,
    FEq,
    /// Bool out: identity (SMT-LIB `=`): NaN = NaN holds, -0 = +0 does not
    FSame,
    IsNan,
    IsInf,
    IsZero,
    IsSubnormal,
    IsNormal,
    IsNeg,

    // --- machine integers (operands and output of one type) ---
    /// wrap-around `+ - *` and negation
    BvAdd,
    BvSub,
    BvMul,
    BvNeg,
    /// C `/` and `%` (truncating); unspecified when the divisor is 0
    BvDiv,
    BvRem,
    BvAnd,
    BvOr,
    BvXor,
    BvNot,
    /// shift by `b` bits (any integer sort); unspecified if b < 0 or b ≥ width
    BvShl,
    /// arithmetic for signed, logical for unsigned types
    BvShr,
    /// wrap-around conversion between machine integer types
    BvCast,
}

impl Op {
    /// `true` when the output is a function of the arguments everywhere, including where the
    /// result is "unspecified" — which it then is not. Such definitions may be negated
    /// through their Tseitin roots (¬T) soundly.
    pub fn is_deterministic(&self) -> bool {
        !matches!(
            self,
            Op::Nrt(_)
                | Op::Div
                | Op::Tan
                | Op::Log
                | Op::Log2
                | Op::Log10
                | Op::Convert
                | Op::FpToInt
                | Op::FpToReal
                | Op::BvDiv
                | Op::BvRem
                | Op::BvShl
                | Op::BvShr
        )
    }

    /// Operations with an IEEE operand or an IEEE result (arithmetic, conversions to and
    /// from IEEE formats, IEEE relations and classes).
    pub fn is_ieee(&self) -> bool {
        matches!(
            self,
            Op::FAdd(_)
                | Op::FSub(_)
                | Op::FMul(_)
                | Op::FDiv(_)
                | Op::FSqrt(_)
                | Op::FFma(_)
                | Op::FNeg
                | Op::FAbs
                | Op::FMin
                | Op::FMax
                | Op::ToFp(_)
                | Op::FpToInt
                | Op::FpToReal
                | Op::FpToBits
                | Op::FpOfBits
                | Op::FLt
                | Op::FLe
                | Op::FEq
                | Op::FSame
                | Op::IsNan
                | Op::IsInf
                | Op::IsZero
                | Op::IsSubnormal
                | Op::IsNormal
                | Op::IsNeg
        )
    }

    pub fn name(&self) -> String {
        use Op::*;
        let rm = |name: &str, m: &RoundingMode| format!("{name}[{}]", m.name());
        match self {
            Linear { .. } => "linear".into(),
            Mul => "*".into(),
            Pow(n) => format!("^{n}"),
            Nrt(n) => format!("nrt{n}"),
            Div => "/".into(),
            Abs => "abs".into(),
            Min => "min".into(),
            Max => "max".into(),
            Sin => "sin".into(),
            Cos => "cos".into(),
            Tan => "tan".into(),
            Exp => "exp".into(),
            Exp2 => "exp2".into(),
            Exp10 => "exp10".into(),
            Log => "log".into(),
            Log2 => "log2".into(),
            Log10 => "log10".into(),
            Ite => "ite".into(),
            BoolToNum => "bool2num".into(),
            Convert => "convert".into(),
            FAdd(m) => rm("fadd", m),
            FSub(m) => rm("fsub", m),
            FMul(m) => rm("fmul", m),
            FDiv(m) => rm("fdiv", m),
            FSqrt(m) => rm("fsqrt", m),
            FFma(m) => rm("ffma", m),
            FNeg => "fneg".into(),
            FAbs => "fabs".into(),
            FMin => "fmin".into(),
            FMax => "fmax".into(),
            ToFp(m) => rm("to_fp", m),
            FpToInt => "fp_to_int".into(),
            FpToReal => "to_real".into(),
            FpToBits => "fp_bits".into(),
            FpOfBits => "fp_of_bits".into(),
            FLt => "flt".into(),
            FLe => "fle".into(),
            FEq => "feq".into(),
            FSame => "fsame".into(),
            IsNan => "isnan".into(),
            IsInf => "isinf".into(),
            IsZero => "iszero".into(),
            IsSubnormal => "issubnormal".into(),
            IsNormal => "isnormal".into(),
            IsNeg => "isneg".into(),
            BvAdd => "bvadd".into(),
            BvSub => "bvsub".into(),
            BvMul => "bvmul".into(),
            BvNeg => "bvneg".into(),
            BvDiv => "bvdiv".into(),
            BvRem => "bvrem".into(),
            BvAnd => "bitand".into(),
            BvOr => "bitor".into(),
            BvXor => "bitxor".into(),
            BvNot => "bitnot".into(),
            BvShl => "shl".into(),
            BvShr => "shr".into(),
            BvCast => "bvcast".into(),
        }
    }
}

/// A definition `out = op(args)`; holds unconditionally.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Def {
    pub out: Var,
    pub op: Op,
    pub args: Vec<Var>,
}

/// A lowered problem: variables, definitions, atoms, Tseitin clauses and root literals.
/// The formula denotes `∃ aux. ∧defs ∧ ∧clauses ∧ ∧roots` with every variable in its domain.
#[derive(Clone, Debug, Default)]
pub struct Formula {
    pub vars: VarMap<VarInfo>,
    pub defs: Vec<Def>,
    pub atoms: Vec<Atom>,
    /// Tseitin definitions: always asserted.
    pub clauses: Vec<Vec<Lit>>,
    /// One literal per top-level constraint (a conjunction of two bounds contributes two).
    pub roots: Vec<Lit>,
    atom_index: HashMap<Atom, AtomId>,
}

impl Formula {
    pub fn new() -> Formula {
        Formula::default()
    }

    pub fn add_var(&mut self, info: VarInfo) -> Var {
        self.vars.push(info)
    }

    /// The literal of `atom` (interned: equal atoms share an id).
    pub fn atom_lit(&mut self, atom: Atom) -> Lit {
        if let Some(&id) = self.atom_index.get(&atom) {
            return Lit::new(id, false);
        }
        let id = AtomId(self.atoms.len() as u32);
        self.atoms.push(atom.clone());
        self.atom_index.insert(atom, id);
        Lit::new(id, false)
    }

    pub fn bool_lit(&mut self, v: Var) -> Lit {
        self.atom_lit(Atom::Bool(v))
    }

    pub fn atom(&self, a: AtomId) -> &Atom {
        &self.atoms[a.0 as usize]
    }

    pub fn add_def(&mut self, def: Def) {
        self.defs.push(def);
    }

    pub fn add_clause(&mut self, clause: Vec<Lit>) {
        self.clauses.push(clause);
    }

    pub fn add_root(&mut self, lit: Lit) {
        self.roots.push(lit);
    }

    /// This formula with every strict top-level bound on a real variable also required to
    /// hold with `margin` to spare: a root `x > c` adds the root `x >= c + margin`, `x < c`
    /// adds `x <= c - margin`. The result has the same variables, so a model of it is a model
    /// of `self` (a pure strengthening: roots are only added). Used to look for a witness away
    /// from a corner where the strict constraints touch (issue #23): there the unstrengthened
    /// search narrows to boxes in which no point satisfies them. `None` when there is no such
    /// root (the strengthening would be the formula itself).
    pub fn with_strict_margin(&self, margin: &Rational) -> Option<Formula> {
        let mut g = self.clone();
        let mut added = 0usize;
        for &root in &self.roots {
            let Atom::Bound { var, rel, value } = self.atom(root.atom()) else {
                continue;
            };
            // integers and machine types have their own strictness (x > 2 is x >= 3)
            if self.vars[*var].sort != Sort::Real {
                continue;
            }
            let rel = if root.is_negated() {
                rel.negate()
            } else {
                *rel
            };
            let tightened = match rel {
                Rel::Gt => Atom::Bound {
                    var: *var,
                    rel: Rel::Ge,
                    value: value + margin,
                },
                Rel::Lt => Atom::Bound {
                    var: *var,
                    rel: Rel::Le,
                    value: value - margin,
                },
                Rel::Ge | Rel::Le => continue,
            };
            let l = g.atom_lit(tightened);
            g.add_root(l);
            added += 1;
        }
        (added > 0).then_some(g)
    }

    /// Copies `g` into this formula: each variable of `g` bound in `bind` (`(var of g, var
    /// here)`) is that variable here, every other one a fresh copy named `name@tag`;
    /// definitions, atoms and clauses follow. Returns `g`'s roots as literals here (not
    /// asserted). Used to unroll a transition system into one formula.
    pub fn append(&mut self, g: &Formula, bind: &[(Var, Var)], tag: &str) -> Vec<Lit> {
        let mut map: VarMap<Option<Var>> = VarMap::new();
        for _ in g.vars.iter() {
            map.push(None);
        }
        for &(a, b) in bind {
            map[a] = Some(b);
        }
        for (v, info) in g.vars.iter() {
            if map[v].is_none() {
                let mut copy = info.clone();
                copy.name = format!("{}@{tag}", info.name);
                map[v] = Some(self.add_var(copy));
            }
        }
        let m = |v: Var| map[v].expect("every variable is mapped");
        for d in &g.defs {
            self.add_def(Def {
                out: m(d.out),
                op: d.op.clone(),
                args: d.args.iter().map(|&a| m(a)).collect(),
            });
        }
        let lits: Vec<Lit> = g
            .atoms
            .iter()
            .map(|a| {
                let a2 = match a {
                    Atom::Bool(v) => Atom::Bool(m(*v)),
                    Atom::Bound { var, rel, value } => Atom::Bound {
                        var: m(*var),
                        rel: *rel,
                        value: value.clone(),
                    },
                };
                self.atom_lit(a2)
            })
            .collect();
        let tr = |l: Lit| {
            let x = lits[l.atom().0 as usize];
            if l.is_negated() {
                !x
            } else {
                x
            }
        };
        for c in &g.clauses {
            let c2 = c.iter().map(|&l| tr(l)).collect();
            self.add_clause(c2);
        }
        g.roots.iter().map(|&l| tr(l)).collect()
    }

    /// Counts used by `icpic3 check`.
    pub fn stats(&self) -> FormulaStats {
        let mut s = FormulaStats::default();
        for v in self.vars.values() {
            let declared = matches!(v.origin, VarOrigin::Declared { .. });
            let slot = match v.sort {
                Sort::Bool => &mut s.bool_vars,
                Sort::Int => &mut s.int_vars,
                Sort::Real => &mut s.real_vars,
                Sort::Fp(_) => &mut s.fp_vars,
                Sort::MachineInt(_) => &mut s.machine_int_vars,
            };
            if declared {
                *slot += 1;
            }
            match v.origin {
                VarOrigin::Declared { .. } => {}
                VarOrigin::Aux { .. } => s.aux_vars += 1,
                VarOrigin::Constant => s.constant_vars += 1,
                VarOrigin::Tseitin { .. } => s.tseitin_vars += 1,
            }
        }
        s.definitions = self.defs.len();
        s.atoms = self.atoms.len();
        s.clauses = self.clauses.len();
        s.roots = self.roots.len();
        s
    }

    pub fn lit_to_string(&self, lit: Lit) -> String {
        let mut out = String::new();
        let neg = lit.is_negated();
        match self.atom(lit.atom()) {
            Atom::Bool(v) => {
                if neg {
                    out.push('!');
                }
                out.push_str(&self.vars[*v].name);
            }
            Atom::Bound { var, rel, value } => {
                let rel = if neg { rel.negate() } else { *rel };
                let _ = write!(
                    out,
                    "{} {} {}",
                    self.vars[*var].name,
                    rel.symbol(),
                    format_rational(value)
                );
            }
        }
        out
    }

    pub fn def_to_string(&self, d: &Def) -> String {
        let name = |v: Var| self.vars[v].name.clone();
        let args: Vec<String> = d.args.iter().map(|&a| name(a)).collect();
        let rhs = match &d.op {
            Op::Linear { coeffs, constant } => {
                let mut s = String::new();
                for (i, (c, a)) in coeffs.iter().zip(&args).enumerate() {
                    let c = format_rational(c);
                    if i > 0 {
                        s.push_str(" + ");
                    }
                    if c == "1" {
                        s.push_str(a);
                    } else {
                        let _ = write!(s, "{c}*{a}");
                    }
                }
                let k = format_rational(constant);
                if k != "0" || coeffs.is_empty() {
                    if !coeffs.is_empty() {
                        s.push_str(" + ");
                    }
                    s.push_str(&k);
                }
                s
            }
            Op::Mul => format!("{} * {}", args[0], args[1]),
            Op::Div => format!("{} / {}", args[0], args[1]),
            Op::Pow(n) => format!("{} ^ {n}", args[0]),
            Op::Nrt(n) => format!("nrt({}, {n})", args[0]),
            op => format!("{}({})", op.name(), args.join(", ")),
        };
        format!("{} = {}", name(d.out), rhs)
    }
}

/// Sizes of a formula, as `icpic3 check` reports them.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct FormulaStats {
    pub bool_vars: usize,
    pub int_vars: usize,
    pub real_vars: usize,
    pub fp_vars: usize,
    pub machine_int_vars: usize,
    pub aux_vars: usize,
    pub constant_vars: usize,
    pub tseitin_vars: usize,
    pub definitions: usize,
    pub atoms: usize,
    pub clauses: usize,
    pub roots: usize,
}

fn fmt_bound_domain(d: &Domain, f: &mut String) {
    match &d.lo {
        None => f.push_str("(-inf"),
        Some(b) => {
            f.push(if b.strict { '(' } else { '[' });
            f.push_str(&format_rational(&b.value));
        }
    }
    f.push_str(", ");
    match &d.hi {
        None => f.push_str("+inf)"),
        Some(b) => {
            f.push_str(&format_rational(&b.value));
            f.push(if b.strict { ')' } else { ']' });
        }
    }
}

impl fmt::Display for Formula {
    /// A readable dump: variables with sorts and domains, definitions, clauses, roots.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "VARIABLES")?;
        for (v, info) in self.vars.iter() {
            let mut dom = String::new();
            match info.sort {
                Sort::Bool => {}
                Sort::Fp(fmt) if info.domain.is_unbounded() => {
                    if let Some(bits) = info.fp_const {
                        let _ = write!(dom, " = 0x{bits:x}");
                        if let Some(q) = fmt.to_rational(bits) {
                            let _ = write!(dom, " ({})", format_rational(&q));
                        }
                    }
                }
                _ => {
                    dom.push(' ');
                    fmt_bound_domain(&info.domain, &mut dom);
                }
            }
            let kind = match info.origin {
                VarOrigin::Declared { .. } => "",
                VarOrigin::Aux { .. } => "  -- aux",
                VarOrigin::Constant => "  -- constant",
                VarOrigin::Tseitin { .. } => "  -- tseitin",
            };
            writeln!(
                f,
                "  v{} {} : {}{}{}",
                v.0,
                info.name,
                info.sort.name(),
                dom,
                kind
            )?;
        }
        writeln!(f, "DEFINITIONS")?;
        for d in &self.defs {
            writeln!(f, "  {};", self.def_to_string(d))?;
        }
        writeln!(f, "CLAUSES")?;
        for c in &self.clauses {
            let lits: Vec<String> = c.iter().map(|&l| self.lit_to_string(l)).collect();
            writeln!(f, "  {};", lits.join(" or "))?;
        }
        writeln!(f, "ROOTS")?;
        for &r in &self.roots {
            writeln!(f, "  {};", self.lit_to_string(r))?;
        }
        Ok(())
    }
}
