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

fn form(e: &Expr) -> Form {
    match &e.kind {
        ExprKind::Unary(..) => Form::Prefix,
        ExprKind::Call {
            args,
            parenthesized: false,
            ..
        } if args.len() == 1 => Form::Prefix,
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
                    [arg] if !parenthesized => {
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
