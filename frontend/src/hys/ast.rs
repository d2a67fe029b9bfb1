//! The syntax tree of a `.hys` file (language doc Parts A and B), with spans.
//!
//! Parentheses are kept as [`ExprKind::Paren`] nodes: the checker's pitfall warnings need to
//! know what the user wrote (`0 <= x <= 1` versus `(0 <= x) <= 1`), and the printer reproduces
//! them, so `parse(print(ast)) == ast` up to spans ([`HysFile::strip_spans`]).

use crate::diag::Span;
use solver::num::{IntType, Rational, RoundingMode};

#[derive(Clone, PartialEq, Debug)]
pub struct HysFile {
    pub decls: Vec<Decl>,
    pub body: Body,
}

#[derive(Clone, PartialEq, Debug)]
pub enum Body {
    /// `EXPR` form: one formula to satisfy.
    Expr(Section),
    /// `INIT`, `TRANS`, `TARGET` form: a transition system.
    Transition {
        init: Section,
        trans: Section,
        target: Section,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SectionKind {
    Expr,
    Init,
    Trans,
    Target,
}

impl SectionKind {
    pub fn keyword(self) -> &'static str {
        match self {
            SectionKind::Expr => "EXPR",
            SectionKind::Init => "INIT",
            SectionKind::Trans => "TRANS",
            SectionKind::Target => "TARGET",
        }
    }
}

/// A section: its keyword and its constraints (each ended by `;` in the source).
#[derive(Clone, PartialEq, Debug)]
pub struct Section {
    pub kind: SectionKind,
    /// span of the keyword
    pub span: Span,
    pub constraints: Vec<Expr>,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, PartialEq, Debug)]
pub enum Decl {
    /// `[static] type name, name, ...;`
    Var {
        is_static: bool,
        ty: TypeSpec,
        names: Vec<Ident>,
        span: Span,
    },
    /// `define name = constexpr;`
    Define {
        name: Ident,
        value: Expr,
        span: Span,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TypeKind {
    /// `boole`
    Boole,
    /// `int`: mathematical integers (a range is required)
    Int,
    /// `float`: iSAT's name for the reals (a range is required)
    Real,
    /// `fp32`
    Fp32,
    /// `fp64`
    Fp64,
    /// `int8` ... `uint64`
    Machine(IntType),
}

#[derive(Clone, PartialEq, Debug)]
pub struct TypeSpec {
    pub kind: TypeKind,
    pub range: Option<RangeSpec>,
    pub span: Span,
}

/// `[lo, hi]`, `(lo, hi)`, `[lo, hi)`, `(lo, hi]`.
#[derive(Clone, PartialEq, Debug)]
pub struct RangeSpec {
    pub lo_open: bool,
    pub lo: Expr,
    pub hi: Expr,
    pub hi_open: bool,
    pub span: Span,
}

/// An expression node.
///
/// Long left-associative chains (`a + a + ... + a`, 100,000 terms) make trees far deeper
/// than the call stack allows for recursive code, so `Drop`, `PartialEq` and
/// [`Expr::strip_spans`] are implemented iteratively (`Clone` and `Debug` are derived and
/// recursive). Because `Expr` implements `Drop`, fields cannot be moved out of an `Expr` by
/// pattern matching; match on `&e.kind`, or use `std::mem::replace`.
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    /// A childless placeholder node (used while dismantling trees).
    fn placeholder() -> Expr {
        Expr {
            kind: ExprKind::Bool(false),
            span: Span::default(),
        }
    }

    fn has_children(&self) -> bool {
        match &self.kind {
            ExprKind::Num { .. }
            | ExprKind::Bool(_)
            | ExprKind::Name { .. }
            | ExprKind::RoundingMode(_) => false,
            ExprKind::Unary(..) | ExprKind::Binary(..) | ExprKind::Paren(..) => true,
            ExprKind::Call { args, .. } => !args.is_empty(),
        }
    }

    /// Moves the children that have children themselves out to `out`, leaving placeholders.
    fn take_subtrees(&mut self, out: &mut Vec<Expr>) {
        let mut take = |e: &mut Expr| {
            if e.has_children() {
                out.push(std::mem::replace(e, Expr::placeholder()));
            }
        };
        match &mut self.kind {
            ExprKind::Unary(_, e) | ExprKind::Paren(_, e) => take(e),
            ExprKind::Binary(_, a, b) => {
                take(a);
                take(b);
            }
            ExprKind::Call { args, .. } => args.iter_mut().for_each(&mut take),
            ExprKind::Num { .. }
            | ExprKind::Bool(_)
            | ExprKind::Name { .. }
            | ExprKind::RoundingMode(_) => {}
        }
    }
}

impl Drop for Expr {
    fn drop(&mut self) {
        // Without this, dropping a chain of 100,000 `+` overflows the stack.
        let mut stack = Vec::new();
        self.take_subtrees(&mut stack);
        while let Some(mut e) = stack.pop() {
            e.take_subtrees(&mut stack);
            // `e` now has only childless children: dropping it does not recurse further.
        }
    }
}

impl PartialEq for Expr {
    fn eq(&self, other: &Expr) -> bool {
        let mut stack: Vec<(&Expr, &Expr)> = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            if a.span != b.span {
                return false;
            }
            use ExprKind::*;
            match (&a.kind, &b.kind) {
                (Unary(o1, x1), Unary(o2, x2)) if o1 == o2 => stack.push((x1, x2)),
                (Paren(k1, x1), Paren(k2, x2)) if k1 == k2 => stack.push((x1, x2)),
                (Binary(o1, l1, r1), Binary(o2, l2, r2)) if o1 == o2 => {
                    stack.push((r1, r2));
                    stack.push((l1, l2));
                }
                (
                    Call {
                        func: f1,
                        args: a1,
                        parenthesized: p1,
                    },
                    Call {
                        func: f2,
                        args: a2,
                        parenthesized: p2,
                    },
                ) if f1 == f2 && p1 == p2 && a1.len() == a2.len() => {
                    stack.extend(a1.iter().zip(a2.iter()).rev());
                }
                (Num { .. }, Num { .. })
                | (Bool(_), Bool(_))
                | (Name { .. }, Name { .. })
                | (RoundingMode(_), RoundingMode(_)) => {
                    if a.kind != b.kind {
                        return false;
                    }
                }
                _ => return false,
            }
        }
        true
    }
}

/// Bracket kinds; they group interchangeably but must match.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bracket {
    Round,
    Square,
    Curly,
}

#[derive(Clone, PartialEq, Debug)]
pub enum ExprKind {
    /// A number as written (`text`) and its exact value.
    Num {
        text: String,
        value: Rational,
    },
    Bool(bool),
    /// A variable or `define` name; `primed` for `x'`.
    Name {
        name: String,
        primed: bool,
    },
    /// A rounding-mode keyword (`RNE RNA RTP RTN RTZ`), only meaningful as a function argument.
    RoundingMode(RoundingMode),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// A built-in function call. `parenthesized` is false for iSAT3's `abs x` form (one
    /// argument without parentheses; accepted with a warning).
    Call {
        func: Func,
        args: Vec<Expr>,
        parenthesized: bool,
    },
    Paren(Bracket, Box<Expr>),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UnOp {
    Neg,
    Plus,
    /// `not` or `!`
    Not,
}

/// Binary operators, by precedence level (language doc A.5), aliases folded.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BinOp {
    // level 1
    /// `->` `impl` `implies`
    Impl,
    /// `<->` `iff`
    Iff,
    /// `<-`
    RevImpl,
    // level 2
    /// `or` `||`
    Or,
    Nor,
    // level 3
    Xor,
    /// `nxor` `xnor`
    Nxor,
    // level 4
    /// `and` `&&` `&`
    And,
    Nand,
    // level 5
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
    // level 6
    Add,
    Sub,
    // level 7
    Mul,
    Div,
    /// `%`: C's truncating remainder, machine integers only (Part B.2)
    Rem,
    // level 9
    Pow,
}

impl BinOp {
    /// Precedence level of A.5 (1 = loosest).
    pub fn level(self) -> u8 {
        use BinOp::*;
        match self {
            Impl | Iff | RevImpl => 1,
            Or | Nor => 2,
            Xor | Nxor => 3,
            And | Nand => 4,
            Lt | Le | Eq | Ne | Ge | Gt => 5,
            Add | Sub => 6,
            Mul | Div | Rem => 7,
            Pow => 9,
        }
    }
    /// The canonical spelling the printer uses.
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Impl => "->",
            Iff => "<->",
            RevImpl => "<-",
            Or => "or",
            Nor => "nor",
            Xor => "xor",
            Nxor => "nxor",
            And => "and",
            Nand => "nand",
            Lt => "<",
            Le => "<=",
            Eq => "=",
            Ne => "!=",
            Ge => ">=",
            Gt => ">",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Pow => "^",
        }
    }
    pub fn is_relation(self) -> bool {
        self.level() == 5
    }
    pub fn is_boolean(self) -> bool {
        self.level() <= 4
    }
}

/// Built-in functions (A.4 and Part B). Their names are reserved.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Func {
    // Part A
    Abs,
    Min,
    Max,
    Sin,
    Cos,
    Tan,
    Exp,
    Exp2,
    Exp10,
    Log,
    Log2,
    Log10,
    Nrt,
    Pow,
    Sqrt,
    Ite,
    // Part B: floats
    FAdd,
    FSub,
    FMul,
    FDiv,
    FSqrt,
    FFma,
    FAbs,
    FMin,
    FMax,
    Feq,
    IsNan,
    IsInf,
    IsZero,
    IsSubnormal,
    IsNormal,
    IsNeg,
    ToFp32,
    ToFp64,
    ToReal,
    /// conversion of a machine integer to a mathematical `int` (exact)
    ToInt,
    /// `to_int8` ... `to_uint64`
    ToMachine(IntType),
    /// `fp_bits`: the IEEE encoding of an fp value as a `uint32` / `uint64`
    FpBits,
    /// `fp32_of_bits`, `fp64_of_bits`: the float a 32/64-bit pattern encodes
    Fp32OfBits,
    Fp64OfBits,
    // Part B: machine integers
    BitAnd,
    BitOr,
    BitXor,
    BitNot,
    Shl,
    Shr,
}

const MACHINE_TYPES: [(&str, IntType); 8] = [
    ("int8", IntType::new(8, true)),
    ("int16", IntType::new(16, true)),
    ("int32", IntType::new(32, true)),
    ("int64", IntType::new(64, true)),
    ("uint8", IntType::new(8, false)),
    ("uint16", IntType::new(16, false)),
    ("uint32", IntType::new(32, false)),
    ("uint64", IntType::new(64, false)),
];

/// The machine integer type named `name` (`int8` ... `uint64`).
pub fn machine_type(name: &str) -> Option<IntType> {
    MACHINE_TYPES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, t)| t)
}

impl Func {
    const SIMPLE: [(&'static str, Func); 45] = [
        ("abs", Func::Abs),
        ("min", Func::Min),
        ("max", Func::Max),
        ("sin", Func::Sin),
        ("cos", Func::Cos),
        ("tan", Func::Tan),
        ("exp", Func::Exp),
        ("exp2", Func::Exp2),
        ("exp10", Func::Exp10),
        ("log", Func::Log),
        ("log2", Func::Log2),
        ("log10", Func::Log10),
        ("nrt", Func::Nrt),
        ("pow", Func::Pow),
        ("sqrt", Func::Sqrt),
        ("ite", Func::Ite),
        ("fadd", Func::FAdd),
        ("fsub", Func::FSub),
        ("fmul", Func::FMul),
        ("fdiv", Func::FDiv),
        ("fsqrt", Func::FSqrt),
        ("ffma", Func::FFma),
        ("fabs", Func::FAbs),
        ("fmin", Func::FMin),
        ("fmax", Func::FMax),
        ("feq", Func::Feq),
        ("isnan", Func::IsNan),
        ("isinf", Func::IsInf),
        ("iszero", Func::IsZero),
        ("issubnormal", Func::IsSubnormal),
        ("isnormal", Func::IsNormal),
        ("isneg", Func::IsNeg),
        ("to_fp32", Func::ToFp32),
        ("to_fp64", Func::ToFp64),
        ("to_real", Func::ToReal),
        ("to_int", Func::ToInt),
        ("fp_bits", Func::FpBits),
        ("fp32_of_bits", Func::Fp32OfBits),
        ("fp64_of_bits", Func::Fp64OfBits),
        ("bitand", Func::BitAnd),
        ("bitor", Func::BitOr),
        ("bitxor", Func::BitXor),
        ("bitnot", Func::BitNot),
        ("shl", Func::Shl),
        ("shr", Func::Shr),
    ];

    /// The function named `name`, if it is a built-in.
    pub fn from_name(name: &str) -> Option<Func> {
        if let Some(&(_, f)) = Func::SIMPLE.iter().find(|(n, _)| *n == name) {
            return Some(f);
        }
        name.strip_prefix("to_")
            .and_then(machine_type)
            .map(Func::ToMachine)
    }

    pub fn name(self) -> String {
        match self {
            Func::ToMachine(t) => format!("to_{}", t.name()),
            f => Func::SIMPLE
                .iter()
                .find(|(_, g)| *g == f)
                .map(|(n, _)| n.to_string())
                .expect("every simple function has a name"),
        }
    }

    /// Allowed numbers of arguments (inclusive). Rounding-mode arguments count.
    pub fn arity(self) -> (usize, usize) {
        use Func::*;
        match self {
            Abs | Sin | Cos | Tan | Exp | Exp2 | Exp10 | Log | Log2 | Log10 | Sqrt => (1, 1),
            Min | Max | Nrt | Pow => (2, 2),
            Ite => (3, 3),
            FAdd | FSub | FMul | FDiv => (3, 3),
            FSqrt => (2, 2),
            FFma => (4, 4),
            FAbs | IsNan | IsInf | IsZero | IsSubnormal | IsNormal | IsNeg => (1, 1),
            FMin | FMax | Feq => (2, 2),
            ToFp32 | ToFp64 => (1, 2),
            ToReal | ToInt | ToMachine(_) => (1, 1),
            FpBits | Fp32OfBits | Fp64OfBits => (1, 1),
            BitAnd | BitOr | BitXor | Shl | Shr => (2, 2),
            BitNot => (1, 1),
        }
    }
}

/// Words that cannot be variable names: keywords, operator words, types, functions, rounding
/// modes.
pub fn is_reserved(word: &str) -> bool {
    const WORDS: [&str; 33] = [
        "DECL", "EXPR", "INIT", "TRANS", "TARGET", "define", "static", "boole", "int", "float",
        "fp32", "fp64", "and", "or", "not", "nand", "nor", "xor", "nxor", "xnor", "impl",
        "implies", "iff", "true", "false", "RNE", "RNA", "RTP", "RTN", "RTZ", "real", "bool",
        "ite",
    ];
    WORDS.contains(&word) || machine_type(word).is_some() || Func::from_name(word).is_some()
}

impl HysFile {
    /// Sets every span to the default, so trees parsed from different texts compare equal
    /// when they have the same structure (the round-trip property).
    pub fn strip_spans(&mut self) {
        for d in &mut self.decls {
            match d {
                Decl::Var {
                    ty, names, span, ..
                } => {
                    *span = Span::default();
                    ty.span = Span::default();
                    if let Some(r) = &mut ty.range {
                        r.span = Span::default();
                        r.lo.strip_spans();
                        r.hi.strip_spans();
                    }
                    for n in names {
                        n.span = Span::default();
                    }
                }
                Decl::Define { name, value, span } => {
                    *span = Span::default();
                    name.span = Span::default();
                    value.strip_spans();
                }
            }
        }
        for s in self.sections_mut() {
            s.span = Span::default();
            for c in &mut s.constraints {
                c.strip_spans();
            }
        }
    }

    pub fn sections(&self) -> Vec<&Section> {
        match &self.body {
            Body::Expr(s) => vec![s],
            Body::Transition {
                init,
                trans,
                target,
            } => vec![init, trans, target],
        }
    }

    pub fn sections_mut(&mut self) -> Vec<&mut Section> {
        match &mut self.body {
            Body::Expr(s) => vec![s],
            Body::Transition {
                init,
                trans,
                target,
            } => vec![init, trans, target],
        }
    }
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    pub fn strip_spans(&mut self) {
        // iterative: trees can be very deep (see [`Expr`])
        let mut stack: Vec<&mut Expr> = vec![self];
        while let Some(e) = stack.pop() {
            e.span = Span::default();
            match &mut e.kind {
                ExprKind::Num { .. }
                | ExprKind::Bool(_)
                | ExprKind::Name { .. }
                | ExprKind::RoundingMode(_) => {}
                ExprKind::Unary(_, x) | ExprKind::Paren(_, x) => stack.push(x),
                ExprKind::Binary(_, a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
                ExprKind::Call { args, .. } => stack.extend(args.iter_mut()),
            }
        }
    }

    /// The expression without enclosing parentheses.
    pub fn unparen(&self) -> &Expr {
        match &self.kind {
            ExprKind::Paren(_, e) => e.unparen(),
            _ => self,
        }
    }
}

/// Rounding mode named by a keyword.
pub fn rounding_mode(word: &str) -> Option<RoundingMode> {
    RoundingMode::ALL.into_iter().find(|m| m.name() == word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_names_round_trip() {
        for (name, f) in Func::SIMPLE {
            assert_eq!(Func::from_name(name), Some(f));
            assert_eq!(f.name(), name);
        }
        let f = Func::from_name("to_uint16").unwrap();
        assert_eq!(f, Func::ToMachine(IntType::new(16, false)));
        assert_eq!(f.name(), "to_uint16");
        assert!(Func::from_name("to_int7").is_none());
        assert!(is_reserved("int32") && is_reserved("sin") && !is_reserved("x"));
    }

    fn leaf(name: &str, at: u32) -> Expr {
        Expr::new(
            ExprKind::Name {
                name: name.to_string(),
                primed: false,
            },
            Span::new(at as usize, at as usize + 1),
        )
    }

    fn chain(n: usize, op: BinOp) -> Expr {
        let mut e = leaf("a", 0);
        for i in 0..n {
            let span = e.span.to(Span::new(i + 1, i + 2));
            e = Expr::new(
                ExprKind::Binary(op, Box::new(e), Box::new(leaf("b", i as u32 + 1))),
                span,
            );
        }
        e
    }

    #[test]
    fn equality_compares_everything() {
        let call = |args: Vec<Expr>, parenthesized| {
            Expr::new(
                ExprKind::Call {
                    func: Func::Min,
                    args,
                    parenthesized,
                },
                Span::new(0, 9),
            )
        };
        let a = call(vec![leaf("x", 1), chain(3, BinOp::Add)], true);
        assert_eq!(a, a.clone());
        assert_ne!(a, call(vec![leaf("x", 1), chain(3, BinOp::Sub)], true));
        assert_ne!(a, call(vec![leaf("x", 1), chain(2, BinOp::Add)], true));
        assert_ne!(a, call(vec![leaf("y", 1), chain(3, BinOp::Add)], true));
        assert_ne!(a, call(vec![leaf("x", 2), chain(3, BinOp::Add)], true));
        assert_ne!(a, call(vec![leaf("x", 1), chain(3, BinOp::Add)], false));
        assert_ne!(a, call(vec![leaf("x", 1)], true));
        let mut b = a.clone();
        b.strip_spans();
        assert_ne!(a, b);
        let mut c = a.clone();
        c.strip_spans();
        assert_eq!(b, c);
        let neg = |e| Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(e)), Span::new(0, 2));
        let not = |e| Expr::new(ExprKind::Unary(UnOp::Not, Box::new(e)), Span::new(0, 2));
        assert_ne!(neg(leaf("x", 1)), not(leaf("x", 1)));
        let paren = |k, e| Expr::new(ExprKind::Paren(k, Box::new(e)), Span::new(0, 3));
        assert_ne!(
            paren(Bracket::Round, leaf("x", 1)),
            paren(Bracket::Square, leaf("x", 1))
        );
    }

    #[test]
    fn deep_trees_drop_compare_and_strip_without_recursion() {
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(|| {
                let mut a = chain(300_000, BinOp::Mul);
                let mut b = chain(300_000, BinOp::Mul);
                assert!(a == b);
                a.strip_spans();
                assert!(a != b);
                b.strip_spans();
                assert!(a == b);
                // also deep on the right and through unary nodes and calls
                let mut e = leaf("x", 0);
                for i in 0..300_000 {
                    e = match i % 3 {
                        0 => Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(e)), Span::default()),
                        1 => Expr::new(
                            ExprKind::Binary(BinOp::Add, Box::new(leaf("y", 0)), Box::new(e)),
                            Span::default(),
                        ),
                        _ => Expr::new(
                            ExprKind::Call {
                                func: Func::Abs,
                                args: vec![e],
                                parenthesized: true,
                            },
                            Span::default(),
                        ),
                    };
                }
                drop(e);
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
