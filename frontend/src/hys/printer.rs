//! Pretty-printer for `.hys` ASTs: canonical spellings ([`BinOp::symbol`], `!` for `not`),
//! `Paren` nodes with their bracket kind, numbers by their original text.
//!
//! Parentheses are inserted only where precedence or associativity require them, so an AST
//! built by the parser prints back to text that parses to the same AST (up to spans), and an
//! AST built by a program (without `Paren` nodes) prints to text with the same meaning.
//! Printing is iterative: deep trees cannot overflow the stack.
//!
//! Special cases: a unary minus before an operand that starts with `-` is printed `- -x` (`--`
//! would start a comment); the argument of a call without parentheses (`abs x`) that would
//! start with `(` is put in `[ ]` (`abs [a + b]`), because `abs (...)` is a parenthesized
//! call.

use super::ast::*;
use super::parser::{close_char, open_char};
use std::fmt::Write as _;

/// The whole file: `DECL`, one declaration per line, then the sections, one constraint per
/// line.
pub fn print(file: &HysFile) -> String {
    let mut out = String::new();
    out.push_str("DECL\n");
    for d in &file.decls {
        out.push_str("  ");
        match d {
            Decl::Var {
                is_static,
                ty,
                names,
                ..
            } => {
                if *is_static {
                    out.push_str("static ");
                }
                out.push_str(&type_name(ty.kind));
                if let Some(r) = &ty.range {
                    out.push_str(if r.lo_open { " (" } else { " [" });
                    write_expr(&mut out, &r.lo, Ctx::Top);
                    out.push_str(", ");
                    write_expr(&mut out, &r.hi, Ctx::Top);
                    out.push(if r.hi_open { ')' } else { ']' });
                }
                for (i, n) in names.iter().enumerate() {
                    out.push_str(if i == 0 { " " } else { ", " });
                    out.push_str(&n.name);
                }
            }
            Decl::Define { name, value, .. } => {
                out.push_str("define ");
                out.push_str(&name.name);
                out.push_str(" = ");
                write_expr(&mut out, value, Ctx::Top);
            }
        }
        out.push_str(";\n");
    }
    for s in file.sections() {
        out.push_str(s.kind.keyword());
        out.push('\n');
        for c in &s.constraints {
            out.push_str("  ");
            write_expr(&mut out, c, Ctx::Top);
            out.push_str(";\n");
        }
    }
    out
}

/// One expression.
pub fn print_expr(e: &Expr) -> String {
    let mut out = String::new();
    write_expr(&mut out, e, Ctx::Top);
    out
}

/// The declaration keyword of a type.
pub fn type_name(k: TypeKind) -> String {
    match k {
        TypeKind::Boole => "boole".to_string(),
        TypeKind::Int => "int".to_string(),
        TypeKind::Real => "float".to_string(),
        TypeKind::Fp32 => "fp32".to_string(),
        TypeKind::Fp64 => "fp64".to_string(),
        TypeKind::Machine(t) => t.name(),
    }
}

/// The canonical spelling of a prefix operator.
pub fn unop_symbol(op: UnOp) -> &'static str {
    match op {
        UnOp::Neg => "-",
        UnOp::Plus => "+",
        UnOp::Not => "!",
    }
}

/// Where an expression is printed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ctx {
    /// anywhere brackets or `;` delimit it
    Top,
    /// left operand of a binary operator
    Left(BinOp),
    /// right operand of a binary operator
    Right(BinOp),
    /// operand of a prefix operator; `pow_pos`: the prefix operator is in the right operand
    /// of `^`, where it binds only a primary
    Prefix { pow_pos: bool },
}

enum Form {
    /// needs no parentheses anywhere
    Atom,
    /// prefix operator or call without parentheses (precedence level 8)
    Prefix,
    Bin(BinOp),
}

/// Whether a call is printed without parentheses (`abs x`): only possible with one
/// argument, for a function that takes one.
fn bare_call(func: Func, args: &[Expr], parenthesized: bool) -> bool {
    !parenthesized && args.len() == 1 && func.arity().0 == 1
}

fn form(e: &Expr) -> Form {
    match &e.kind {
        ExprKind::Unary(..) => Form::Prefix,
        ExprKind::Call {
            func,
            args,
            parenthesized,
        } if bare_call(*func, args, *parenthesized) => Form::Prefix,
        ExprKind::Binary(op, ..) => Form::Bin(*op),
        _ => Form::Atom,
    }
}

/// Whether `e` printed in `ctx` must be put in parentheses to parse back as `e`.
fn needs_parens(e: &Expr, ctx: Ctx) -> bool {
    match (form(e), ctx) {
        (Form::Atom, _) | (_, Ctx::Top) => false,
        // `(-x)^2`: `-x^2` would be `-(x^2)`
        (Form::Prefix, Ctx::Left(BinOp::Pow)) => true,
        (Form::Prefix, _) => false,
        (Form::Bin(inner), Ctx::Left(op)) => {
            if op == BinOp::Pow {
                inner != BinOp::Pow
            } else {
                inner.level() < op.level()
            }
        }
        // all binary operators are left-associative
        (Form::Bin(inner), Ctx::Right(op)) => op == BinOp::Pow || inner.level() <= op.level(),
        (Form::Bin(inner), Ctx::Prefix { pow_pos }) => pow_pos || inner != BinOp::Pow,
    }
}

/// Whether a prefix operator printed in `ctx` is in the right operand of `^`.
fn pow_pos(ctx: Ctx) -> bool {
    matches!(ctx, Ctx::Right(BinOp::Pow) | Ctx::Prefix { pow_pos: true })
}

/// The first character `e` prints as in `ctx`.
fn leading_char(mut e: &Expr, mut ctx: Ctx) -> Option<char> {
    loop {
        if needs_parens(e, ctx) {
            return Some('(');
        }
        return match &e.kind {
            ExprKind::Num { text, .. } => text.chars().next(),
            ExprKind::Bool(b) => Some(if *b { 't' } else { 'f' }),
            ExprKind::Name { name, .. } => name.chars().next(),
            ExprKind::RoundingMode(m) => m.name().chars().next(),
            ExprKind::Unary(op, _) => unop_symbol(*op).chars().next(),
            ExprKind::Call { func, .. } => func.name().chars().next(),
            ExprKind::Paren(b, _) => Some(open_char(*b)),
            ExprKind::Binary(op, l, _) => {
                ctx = Ctx::Left(*op);
                e = l;
                continue;
            }
        };
    }
}

enum Task<'a> {
    Expr(&'a Expr, Ctx),
    Str(&'static str),
    Char(char),
}

fn write_expr(out: &mut String, e: &Expr, ctx: Ctx) {
    let mut tasks = vec![Task::Expr(e, ctx)];
    while let Some(task) = tasks.pop() {
        let (e, ctx) = match task {
            Task::Str(s) => {
                out.push_str(s);
                continue;
            }
            Task::Char(c) => {
                out.push(c);
                continue;
            }
            Task::Expr(e, ctx) => (e, ctx),
        };
        if needs_parens(e, ctx) {
            out.push('(');
            tasks.push(Task::Char(')'));
            tasks.push(Task::Expr(e, Ctx::Top));
            continue;
        }
        match &e.kind {
            ExprKind::Num { text, .. } => out.push_str(text),
            ExprKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            ExprKind::Name { name, primed } => {
                out.push_str(name);
                if *primed {
                    out.push('\'');
                }
            }
            ExprKind::RoundingMode(m) => out.push_str(m.name()),
            ExprKind::Unary(op, x) => {
                let inner = Ctx::Prefix {
                    pow_pos: pow_pos(ctx),
                };
                out.push_str(unop_symbol(*op));
                if *op == UnOp::Neg && leading_char(x, inner) == Some('-') {
                    out.push(' '); // `--` starts a comment
                }
                tasks.push(Task::Expr(x, inner));
            }
            ExprKind::Paren(b, x) => {
                out.push(open_char(*b));
                tasks.push(Task::Char(close_char(*b)));
                tasks.push(Task::Expr(x, Ctx::Top));
            }
            ExprKind::Binary(op, l, r) => {
                tasks.push(Task::Expr(r, Ctx::Right(*op)));
                tasks.push(Task::Str(" "));
                tasks.push(Task::Str(op.symbol()));
                tasks.push(Task::Str(" "));
                tasks.push(Task::Expr(l, Ctx::Left(*op)));
            }
            ExprKind::Call {
                func,
                args,
                parenthesized,
            } => {
                let _ = write!(out, "{}", func.name());
                match args.as_slice() {
                    [arg] if bare_call(*func, args, *parenthesized) => {
                        out.push(' ');
                        let inner = Ctx::Prefix {
                            pow_pos: pow_pos(ctx),
                        };
                        if leading_char(arg, inner) == Some('(') {
                            // `abs (...)` would be a parenthesized call
                            out.push('[');
                            tasks.push(Task::Char(']'));
                            tasks.push(Task::Expr(arg, Ctx::Top));
                        } else {
                            tasks.push(Task::Expr(arg, inner));
                        }
                    }
                    _ => {
                        out.push('(');
                        tasks.push(Task::Char(')'));
                        for (i, a) in args.iter().enumerate().rev() {
                            tasks.push(Task::Expr(a, Ctx::Top));
                            if i > 0 {
                                tasks.push(Task::Str(", "));
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::hys::parser::{parse, parse_expr};
    use num_bigint::BigInt;
    use proptest::prelude::*;
    use proptest::sample::select;
    use solver::num::{IntType, Rational, RoundingMode};

    fn x(kind: ExprKind) -> Expr {
        Expr::new(kind, Span::default())
    }
    fn name(n: &str) -> Expr {
        x(ExprKind::Name {
            name: n.to_string(),
            primed: false,
        })
    }
    fn int(v: i64) -> Expr {
        x(ExprKind::Num {
            text: v.to_string(),
            value: Rational::from_integer(BigInt::from(v)),
        })
    }
    fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        x(ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }
    fn un(op: UnOp, a: Expr) -> Expr {
        x(ExprKind::Unary(op, Box::new(a)))
    }
    fn call(func: Func, args: Vec<Expr>, parenthesized: bool) -> Expr {
        x(ExprKind::Call {
            func,
            args,
            parenthesized,
        })
    }
    fn paren(b: Bracket, a: Expr) -> Expr {
        x(ExprKind::Paren(b, Box::new(a)))
    }

    fn reparse(e: &Expr) -> Expr {
        let text = print_expr(e);
        let mut r = parse_expr(&text).unwrap_or_else(|d| panic!("{text:?}: {}", d.message));
        r.strip_spans();
        r
    }

    /// `o` and `r` are equal except for parentheses that the printer had to add to `o`
    /// (round ones, and square ones around the argument of a call without parentheses).
    fn same(o: &Expr, r: &Expr) -> bool {
        use ExprKind::*;
        match (&o.kind, &r.kind) {
            (Paren(b1, o2), Paren(b2, r2)) if b1 == b2 => same(o2, r2),
            (_, Paren(Bracket::Round, r2)) => same(o, r2),
            (Unary(a, o2), Unary(b, r2)) => a == b && same(o2, r2),
            (Binary(a, ol, or), Binary(b, rl, rr)) => a == b && same(ol, rl) && same(or, rr),
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
            ) => {
                f1 == f2
                    && p1 == p2
                    && a1.len() == a2.len()
                    && a1.iter().zip(a2).all(|(o, r)| {
                        same(o, r)
                            || (!p1 && matches!(&r.kind, Paren(Bracket::Square, r2) if same(o, r2)))
                    })
            }
            _ => o == r,
        }
    }

    #[test]
    fn canonical_spellings() {
        let e = parse_expr("a && b || !c & d xnor e implies f iff g <- not h").unwrap();
        assert_eq!(
            print_expr(&e),
            "a and b or !c and d nxor e -> f <-> g <- !h"
        );
        let e = parse_expr("{a} * [b] + (c)").unwrap();
        assert_eq!(print_expr(&e), "{a} * [b] + (c)");
        let e = parse_expr("x'=0x1.8p+1*1E+2").unwrap();
        assert_eq!(print_expr(&e), "x' = 0x1.8p+1 * 1E+2");
    }

    #[test]
    fn inserts_parentheses_only_where_needed() {
        use BinOp::*;
        let (a, b, c) = (name("a"), name("b"), name("c"));
        let cases = [
            (
                bin(Mul, bin(Add, a.clone(), b.clone()), c.clone()),
                "(a + b) * c",
            ),
            (
                bin(Add, bin(Mul, a.clone(), b.clone()), c.clone()),
                "a * b + c",
            ),
            (
                bin(Sub, a.clone(), bin(Sub, b.clone(), c.clone())),
                "a - (b - c)",
            ),
            (
                bin(Sub, bin(Sub, a.clone(), b.clone()), c.clone()),
                "a - b - c",
            ),
            (
                bin(Pow, a.clone(), bin(Pow, b.clone(), c.clone())),
                "a ^ (b ^ c)",
            ),
            (
                bin(Pow, bin(Pow, a.clone(), b.clone()), c.clone()),
                "a ^ b ^ c",
            ),
            (bin(Pow, un(UnOp::Neg, a.clone()), int(2)), "(-a) ^ 2"),
            (un(UnOp::Neg, bin(Pow, a.clone(), int(2))), "-a ^ 2"),
            (un(UnOp::Neg, un(UnOp::Neg, a.clone())), "- -a"),
            (un(UnOp::Neg, int(1)), "-1"),
            (un(UnOp::Not, bin(Eq, a.clone(), int(3))), "!(a = 3)"),
            (bin(Eq, un(UnOp::Not, a.clone()), int(3)), "!a = 3"),
            (
                bin(Pow, int(2), un(UnOp::Neg, bin(Pow, a.clone(), int(2)))),
                "2 ^ -(a ^ 2)",
            ),
            (bin(Pow, int(2), un(UnOp::Neg, a.clone())), "2 ^ -a"),
            (bin(Le, bin(Le, int(0), a.clone()), int(1)), "0 <= a <= 1"),
            (bin(Le, int(0), bin(Le, a.clone(), int(1))), "0 <= (a <= 1)"),
            (
                bin(Impl, a.clone(), bin(Iff, b.clone(), c.clone())),
                "a -> (b <-> c)",
            ),
            (
                bin(And, bin(Or, a.clone(), b.clone()), c.clone()),
                "(a or b) and c",
            ),
            (call(Func::Abs, vec![a.clone()], false), "abs a"),
            (
                call(Func::Abs, vec![bin(Add, a.clone(), b.clone())], false),
                "abs [a + b]",
            ),
            (
                call(Func::Abs, vec![paren(Bracket::Round, a.clone())], false),
                "abs [(a)]",
            ),
            (
                call(
                    Func::Abs,
                    vec![bin(Pow, paren(Bracket::Round, a.clone()), int(2))],
                    false,
                ),
                "abs [(a) ^ 2]",
            ),
            (
                call(Func::Abs, vec![un(UnOp::Neg, a.clone())], false),
                "abs -a",
            ),
            (
                bin(Pow, call(Func::Abs, vec![a.clone()], false), int(2)),
                "(abs a) ^ 2",
            ),
            (
                bin(Pow, call(Func::Abs, vec![a.clone()], true), int(2)),
                "abs(a) ^ 2",
            ),
            // no bare form for two arguments
            (call(Func::Min, vec![a.clone()], false), "min(a)"),
            (
                call(
                    Func::FAdd,
                    vec![
                        a.clone(),
                        b.clone(),
                        x(ExprKind::RoundingMode(RoundingMode::Rne)),
                    ],
                    true,
                ),
                "fadd(a, b, RNE)",
            ),
        ];
        for (e, text) in cases {
            assert_eq!(print_expr(&e), text);
            if e.span == Span::default() && text != "min(a)" {
                let r = reparse(&e);
                assert!(same(&e, &r), "{text}: {r:?}");
            }
        }
    }

    #[test]
    fn prints_declarations() {
        let lo = un(UnOp::Neg, int(3));
        let f = HysFile {
            decls: vec![
                Decl::Var {
                    is_static: true,
                    ty: TypeSpec {
                        kind: TypeKind::Machine(IntType::new(16, false)),
                        range: Some(RangeSpec {
                            lo_open: true,
                            lo,
                            hi: bin(BinOp::Mul, name("N"), int(2)),
                            hi_open: false,
                            span: Span::default(),
                        }),
                        span: Span::default(),
                    },
                    names: vec![
                        Ident {
                            name: "u".into(),
                            span: Span::default(),
                        },
                        Ident {
                            name: "v".into(),
                            span: Span::default(),
                        },
                    ],
                    span: Span::default(),
                },
                Decl::Define {
                    name: Ident {
                        name: "N".into(),
                        span: Span::default(),
                    },
                    value: int(4),
                    span: Span::default(),
                },
            ],
            body: Body::Expr(Section {
                kind: SectionKind::Expr,
                span: Span::default(),
                constraints: vec![bin(BinOp::Gt, name("u"), name("v"))],
            }),
        };
        let text = print(&f);
        assert_eq!(
            text,
            "DECL\n  static uint16 (-3, N * 2] u, v;\n  define N = 4;\nEXPR\n  u > v;\n"
        );
        let mut g = parse(&text).unwrap();
        g.strip_spans();
        assert_eq!(g, f);
    }

    // ----- property tests -------------------------------------------------------------

    fn arb_name() -> impl Strategy<Value = String> {
        "[a-zA-Z_][a-zA-Z0-9_]{0,5}".prop_filter("reserved", |s| !is_reserved(s))
    }

    fn num(text: String, value: Rational) -> Expr {
        x(ExprKind::Num { text, value })
    }

    fn pow_q(base: i64, e: i32) -> Rational {
        let b = Rational::from_integer(BigInt::from(base));
        let p = num_traits::pow(b, e.unsigned_abs() as usize);
        if e < 0 {
            p.recip()
        } else {
            p
        }
    }

    fn arb_leaf() -> impl Strategy<Value = Expr> {
        prop_oneof![
            (0u64..1_000_000).prop_map(|v| num(v.to_string(), Rational::from_integer(v.into()))),
            (0u32..1000, 1usize..4, 0u32..1000).prop_map(|(i, k, f)| {
                let f = f % 10u32.pow(k as u32);
                let value = Rational::from_integer(i.into())
                    + Rational::new(f.into(), BigInt::from(10u32.pow(k as u32)));
                num(format!("{i}.{f:0k$}"), value)
            }),
            (1i64..100, -20i32..20, any::<bool>()).prop_map(|(m, e, upper)| {
                let marker = if upper { 'E' } else { 'e' };
                num(
                    format!("{m}{marker}{e}"),
                    Rational::from_integer(m.into()) * pow_q(10, e),
                )
            }),
            (1i64..0xffff, -10i32..10).prop_map(|(m, e)| {
                num(
                    format!("0x{m:X}p{e}"),
                    Rational::from_integer(m.into()) * pow_q(2, e),
                )
            }),
            (1i64..0xffff, 0u32..16).prop_map(|(m, f)| {
                let value = Rational::from_integer(m.into()) + Rational::new(f.into(), 16.into());
                num(format!("0x{m:x}.{f:x}p+0"), value)
            }),
            any::<bool>().prop_map(|b| x(ExprKind::Bool(b))),
            (arb_name(), any::<bool>())
                .prop_map(|(name, primed)| x(ExprKind::Name { name, primed })),
            select(RoundingMode::ALL.to_vec()).prop_map(|m| x(ExprKind::RoundingMode(m))),
        ]
    }

    const BINOPS: [BinOp; 21] = {
        use BinOp::*;
        [
            Impl, Iff, RevImpl, Or, Nor, Xor, Nxor, And, Nand, Lt, Le, Eq, Ne, Ge, Gt, Add, Sub,
            Mul, Div, Rem, Pow,
        ]
    };

    fn one_arg_funcs() -> Vec<Func> {
        [
            "abs",
            "sin",
            "cos",
            "tan",
            "exp",
            "exp2",
            "exp10",
            "log",
            "log2",
            "log10",
            "sqrt",
            "fabs",
            "isnan",
            "isinf",
            "iszero",
            "issubnormal",
            "isnormal",
            "isneg",
            "to_fp32",
            "to_fp64",
            "to_real",
            "to_int",
            "to_int8",
            "to_uint64",
            "bitnot",
            "fp_bits",
            "fp32_of_bits",
            "fp64_of_bits",
        ]
        .iter()
        .map(|n| Func::from_name(n).unwrap())
        .collect()
    }

    fn multi_arg_funcs() -> Vec<Func> {
        [
            "min", "max", "nrt", "pow", "ite", "fadd", "fsub", "fmul", "fdiv", "fsqrt", "ffma",
            "fmin", "fmax", "feq", "bitand", "bitor", "bitxor", "shl", "shr", "to_fp64",
        ]
        .iter()
        .map(|n| Func::from_name(n).unwrap())
        .collect()
    }

    fn arb_expr() -> impl Strategy<Value = Expr> {
        arb_leaf().prop_recursive(6, 64, 4, |inner| {
            prop_oneof![
                (
                    select(vec![UnOp::Neg, UnOp::Plus, UnOp::Not]),
                    inner.clone()
                )
                    .prop_map(|(op, a)| un(op, a)),
                (select(BINOPS.to_vec()), inner.clone(), inner.clone())
                    .prop_map(|(op, a, b)| bin(op, a, b)),
                (
                    select(vec![Bracket::Round, Bracket::Square, Bracket::Curly]),
                    inner.clone()
                )
                    .prop_map(|(b, a)| paren(b, a)),
                (select(one_arg_funcs()), inner.clone(), any::<bool>()).prop_map(|(f, a, p)| call(
                    f,
                    vec![a],
                    p
                )),
                (
                    select(multi_arg_funcs()),
                    proptest::collection::vec(inner, 2..=2)
                )
                    .prop_flat_map(|(f, args)| {
                        let (lo, hi) = f.arity();
                        let args2 = args.clone();
                        (lo.max(1)..=hi).prop_map(move |n| {
                            let mut a: Vec<Expr> = args2.iter().cycle().take(n).cloned().collect();
                            a.truncate(n);
                            call(f, a, true)
                        })
                    }),
            ]
        })
    }

    fn arb_type() -> impl Strategy<Value = TypeKind> {
        select(vec![
            TypeKind::Boole,
            TypeKind::Int,
            TypeKind::Real,
            TypeKind::Fp32,
            TypeKind::Fp64,
            TypeKind::Machine(IntType::new(8, true)),
            TypeKind::Machine(IntType::new(32, false)),
        ])
    }

    fn arb_decl() -> impl Strategy<Value = Decl> {
        let s = Span::default();
        let ident = move || arb_name().prop_map(move |name| Ident { name, span: s });
        prop_oneof![
            (
                any::<bool>(),
                arb_type(),
                any::<(bool, bool, bool)>(),
                arb_expr(),
                arb_expr(),
                proptest::collection::vec(ident(), 1..4)
            )
                .prop_map(
                    move |(is_static, kind, (has, lo_open, hi_open), lo, hi, names)| {
                        let range = match kind {
                            TypeKind::Boole => None,
                            TypeKind::Int | TypeKind::Real => Some(()),
                            _ => has.then_some(()),
                        }
                        .map(|()| RangeSpec {
                            lo_open,
                            lo,
                            hi,
                            hi_open,
                            span: s,
                        });
                        Decl::Var {
                            is_static,
                            ty: TypeSpec {
                                kind,
                                range,
                                span: s,
                            },
                            names,
                            span: s,
                        }
                    }
                ),
            (ident(), arb_expr()).prop_map(move |(name, value)| Decl::Define {
                name,
                value,
                span: s
            }),
        ]
    }

    fn arb_file() -> impl Strategy<Value = HysFile> {
        let section = |kind| {
            proptest::collection::vec(arb_expr(), 0..4).prop_map(move |constraints| Section {
                kind,
                span: Span::default(),
                constraints,
            })
        };
        let body = prop_oneof![
            section(SectionKind::Expr).prop_map(Body::Expr),
            (
                section(SectionKind::Init),
                section(SectionKind::Trans),
                section(SectionKind::Target)
            )
                .prop_map(|(init, trans, target)| Body::Transition {
                    init,
                    trans,
                    target
                }),
        ];
        (proptest::collection::vec(arb_decl(), 0..4), body)
            .prop_map(|(decls, body)| HysFile { decls, body })
    }

    fn same_file(a: &HysFile, b: &HysFile) -> bool {
        let decls_same = a.decls.len() == b.decls.len()
            && a.decls.iter().zip(&b.decls).all(|pair| match pair {
                (
                    Decl::Var {
                        is_static: s1,
                        ty: t1,
                        names: n1,
                        ..
                    },
                    Decl::Var {
                        is_static: s2,
                        ty: t2,
                        names: n2,
                        ..
                    },
                ) => {
                    s1 == s2
                        && t1.kind == t2.kind
                        && n1 == n2
                        && match (&t1.range, &t2.range) {
                            (None, None) => true,
                            (Some(r1), Some(r2)) => {
                                r1.lo_open == r2.lo_open
                                    && r1.hi_open == r2.hi_open
                                    && same(&r1.lo, &r2.lo)
                                    && same(&r1.hi, &r2.hi)
                            }
                            _ => false,
                        }
                }
                (
                    Decl::Define {
                        name: n1,
                        value: v1,
                        ..
                    },
                    Decl::Define {
                        name: n2,
                        value: v2,
                        ..
                    },
                ) => n1 == n2 && same(v1, v2),
                _ => false,
            });
        let (sa, sb) = (a.sections(), b.sections());
        decls_same
            && sa.len() == sb.len()
            && sa.iter().zip(&sb).all(|(s, t)| {
                s.kind == t.kind
                    && s.constraints.len() == t.constraints.len()
                    && s.constraints
                        .iter()
                        .zip(&t.constraints)
                        .all(|(c, d)| same(c, d))
            })
    }

    /// Fragments for random token soup, valid and invalid.
    const FRAGMENTS: &[&str] = &[
        " ", "\n", "\r\n", "\t", "(", ")", "[", "]", "{", "}", ",", ";", ";", "'", "x", "y1", "_z",
        "d", ".", "d.x", "1", "0.5", "1e-3", "0x1.8p+1", "0x1F", "5.", ".5", "1e99999", "-", "--",
        "-- c\n", "+", "*", "/", "//", "^", "<", "<=", "=", "==", "!=", ">=", ">", "->", "<-",
        "<->", "!", "&&", "&", "||", "|", "and", "or", "nand", "nor", "xor", "nxor", "impl", "iff",
        "not", "true", "false", "abs", "min", "sin", "nrt", "fadd", "RNE", "DECL", "EXPR", "INIT",
        "TRANS", "TARGET", "define", "static", "boole", "int", "float", "fp32", "int8", "[0, 1]",
        "(0, 1]", "%", "#", "é", "\u{0}", "\u{FEFF}", "real",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn random_expressions_round_trip(e in arb_expr()) {
            let text = print_expr(&e);
            let mut r = parse_expr(&text).map_err(|d| {
                TestCaseError::fail(format!("{text:?} does not parse: {}", d.message))
            })?;
            r.strip_spans();
            prop_assert!(same(&e, &r), "{} reparsed as {}", text, print_expr(&r));
            // what the parser produces prints back exactly
            let text2 = print_expr(&r);
            prop_assert_eq!(&text2, &text);
            let mut r2 = parse_expr(&text2).unwrap();
            r2.strip_spans();
            prop_assert_eq!(r2, r);
        }

        #[test]
        fn random_files_round_trip(f in arb_file()) {
            let text = print(&f);
            let mut g = parse(&text).map_err(|d| {
                TestCaseError::fail(format!("{text:?} does not parse: {}", d.message))
            })?;
            g.strip_spans();
            prop_assert!(same_file(&f, &g), "{}", text);
            let mut h = parse(&print(&g)).unwrap();
            h.strip_spans();
            prop_assert_eq!(h, g);
        }

        #[test]
        fn token_soup_never_panics(
            header in any::<bool>(),
            parts in proptest::collection::vec(select(FRAGMENTS.to_vec()), 0..40),
        ) {
            let mut text = String::new();
            if header {
                text.push_str("DECL\n float [0, 1] x, y1; boole _z;\nEXPR\n");
            }
            for p in parts {
                text.push_str(p);
            }
            check_any_input(&text)?;
        }

        #[test]
        fn arbitrary_text_never_panics(text in ".{0,200}") {
            check_any_input(&text)?;
            check_any_input(&format!("DECL\nEXPR\n{text}"))?;
        }
    }

    fn check_any_input(text: &str) -> Result<(), TestCaseError> {
        for result in [parse(text).map(|_| ()), parse_expr(text).map(|_| ())] {
            if let Err(d) = result {
                prop_assert!(d.span.start <= d.span.end);
                prop_assert!(d.span.end as usize <= text.len());
                prop_assert!(text.is_char_boundary(d.span.start as usize));
                prop_assert!(!d.message.is_empty());
            }
        }
        if let Ok(mut f) = parse(text) {
            let printed = print(&f);
            let mut g = parse(&printed).map_err(|d| {
                TestCaseError::fail(format!("{printed:?} does not parse: {}", d.message))
            })?;
            f.strip_spans();
            g.strip_spans();
            prop_assert_eq!(f, g);
        }
        Ok(())
    }
}
