//! `.hys` text of a checked problem ([`Checked`]): what `ICPIC3_DUMP_HYS` shows for a
//! problem that a front end built directly in the IR (the C front end), and the text the
//! printed-invariant check parses back.
//!
//! Every node is printed fully parenthesized in the spelling the checker maps back to the
//! same node, so `check(parse(print(c)))` has the IR of `c` (up to spans) for every node kind
//! the C front end builds; `frontend/tests/c_ir.rs` checks this on the C suite. Node kinds
//! without such a spelling (IEEE operations in a rounding mode other than RNE, a few
//! primitive operations no front end writes) print as an equivalent expression or, where
//! there is none, make [`render`] fail with the operation's name.

use super::ast::SectionKind;
use super::check::{Checked, DeclaredVar};
use super::ir::{BoolOp, NodeId, NodeKind, RelOp};
use super::printer::type_name;
use num_traits::{Signed, Zero};
use solver::formula::{Domain, Op, Sort};
use solver::num::{format_rational, FpFormat, Rational, RoundingMode};

/// A hexadecimal literal of a finite non-negative double (exact).
fn hex_double(v: f64) -> String {
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let mant = bits & ((1u64 << 52) - 1);
    if exp == 0 {
        format!("0x0.{mant:013x}p-1022")
    } else {
        format!("0x1.{mant:013x}p{:+}", exp - 1023)
    }
}

/// An IEEE constant of format `f` given by its encoding, as `.hys` text (exact). A finite
/// non-negative value is one literal (`to_fp64(0x1.8000000000000p+0)`); negative values,
/// infinities and NaN are expressions over literals (`-`, `1/0`, `0/0`).
pub fn fp_literal(f: FpFormat, bits: u64) -> String {
    let (name, v) = match f {
        FpFormat::F32 => ("to_fp32", f32::from_bits(bits as u32) as f64),
        _ => ("to_fp64", f64::from_bits(bits)),
    };
    if v.is_nan() {
        return format!("({name}(0) / {name}(0))");
    }
    if v.is_infinite() {
        return if v > 0.0 {
            format!("({name}(1) / {name}(0))")
        } else {
            format!("(-({name}(1) / {name}(0)))")
        };
    }
    let body = if v == 0.0 {
        format!("{name}(0.0)")
    } else {
        format!("{name}({})", hex_double(v.abs()))
    };
    if v.is_sign_negative() {
        format!("(-{body})")
    } else {
        body
    }
}

/// An exact number as a `.hys` constant: integers as such (`(-3)` when negative); other
/// values as decimals when they terminate (`0.25`), else as a quotient (`(1/3)`). A
/// real-sorted integer gets a `.0` so that it reads back as a real constant.
fn number(q: &Rational, real: bool) -> String {
    let mut s = format_rational(&q.abs());
    if q.is_integer() && real {
        s.push_str(".0");
    } else if s.contains('/') {
        s = format!("({s})");
    }
    if q.is_negative() {
        format!("(-{s})")
    } else {
        s
    }
}

fn conv_name(sort: Sort) -> Result<String, String> {
    match sort {
        Sort::Fp(FpFormat::F32) => Ok("to_fp32".into()),
        Sort::Fp(FpFormat::F64) => Ok("to_fp64".into()),
        Sort::MachineInt(t) => Ok(format!("to_{}", t.name())),
        Sort::Real => Ok("to_real".into()),
        other => Err(format!("no conversion into {}", other.name())),
    }
}

fn rel_symbol(r: RelOp) -> &'static str {
    match r {
        RelOp::Lt => "<",
        RelOp::Le => "<=",
        RelOp::Eq => "=",
        RelOp::Ne => "!=",
        RelOp::Ge => ">=",
        RelOp::Gt => ">",
    }
}

/// The text of one node whose operands print as `args` (in operand order); `var` names a
/// declared variable. Fails for a node kind that has no `.hys` spelling.
pub fn render(
    kind: &NodeKind,
    sort: Sort,
    args: &[&str],
    var: &dyn Fn(u32, bool) -> String,
) -> Result<String, String> {
    let a = |i: usize| args.get(i).copied().unwrap_or("");
    Ok(match kind {
        NodeKind::Bool(b) => if *b { "true" } else { "false" }.to_string(),
        NodeKind::Num(q) => match sort {
            Sort::MachineInt(t) => format!("to_{}({})", t.name(), q.numer()),
            Sort::Real => number(q, true),
            _ => number(q, false),
        },
        NodeKind::Fp(bits) => match sort {
            Sort::Fp(f) => fp_literal(f, *bits),
            _ => return Err("an fp constant of a non-fp sort".into()),
        },
        NodeKind::Var { var: v, primed } => var(*v, *primed),
        NodeKind::BoolToNum(_) => format!("ite({}, 1, 0)", a(0)),
        NodeKind::Not(_) => format!("(not {})", a(0)),
        NodeKind::Bool2(op, ..) => {
            let sym = match op {
                BoolOp::And => "and",
                BoolOp::Or => "or",
                BoolOp::Xor => "xor",
                BoolOp::Iff => "<->",
                BoolOp::Impl => "->",
            };
            format!("({} {sym} {})", a(0), a(1))
        }
        NodeKind::Ite(..) => format!("ite({}, {}, {})", a(0), a(1), a(2)),
        NodeKind::Rel(r, ..) => format!("({} {} {})", a(0), rel_symbol(*r), a(1)),
        NodeKind::Add(..) => format!("({} + {})", a(0), a(1)),
        NodeKind::Sub(..) => format!("({} - {})", a(0), a(1)),
        NodeKind::Mul(..) => format!("({} * {})", a(0), a(1)),
        NodeKind::Div(..) => format!("({} / {})", a(0), a(1)),
        NodeKind::Neg(_) => format!("(-{})", a(0)),
        NodeKind::Pow(_, n) => format!("({} ^ {n})", a(0)),
        NodeKind::FitConvert(_) => format!("{}({})", conv_name(sort)?, a(0)),
        NodeKind::Op(op, _) => {
            let infix = |sym: &str| format!("({} {sym} {})", a(0), a(1));
            let call = |f: &str| format!("{f}({})", args.join(", "));
            match op {
                Op::FAdd(RoundingMode::Rne) | Op::BvAdd => infix("+"),
                Op::FSub(RoundingMode::Rne) | Op::BvSub => infix("-"),
                Op::FMul(RoundingMode::Rne) | Op::BvMul => infix("*"),
                Op::FDiv(RoundingMode::Rne) | Op::BvDiv => infix("/"),
                Op::BvRem => infix("%"),
                Op::FNeg | Op::BvNeg => format!("(-{})", a(0)),
                Op::FSqrt(RoundingMode::Rne) => format!("fsqrt({}, RNE)", a(0)),
                Op::FAbs => call("fabs"),
                Op::FEq => call("feq"),
                Op::IsNan => call("isnan"),
                Op::IsInf => call("isinf"),
                Op::FpToBits => call("fp_bits"),
                Op::FpOfBits => match sort {
                    Sort::Fp(FpFormat::F32) => call("fp32_of_bits"),
                    _ => call("fp64_of_bits"),
                },
                Op::FpToReal => call("to_real"),
                Op::ToFp(RoundingMode::Rne) | Op::FpToInt | Op::BvCast => call(&conv_name(sort)?),
                Op::BvAnd => call("bitand"),
                Op::BvOr => call("bitor"),
                Op::BvXor => call("bitxor"),
                Op::BvNot => call("bitnot"),
                Op::BvShl => call("shl"),
                Op::BvShr => call("shr"),
                Op::Abs => call("abs"),
                Op::Sin => call("sin"),
                Op::Cos => call("cos"),
                Op::Tan => call("tan"),
                Op::Exp => call("exp"),
                Op::Log => call("log"),
                Op::Log2 => call("log2"),
                Op::Log10 => call("log10"),
                Op::Nrt(2) => call("sqrt"),
                Op::Min => call("min"),
                Op::Max => call("max"),
                other => return Err(format!("the operation {other:?} has no .hys spelling")),
            }
        }
    })
}

/// `a and b and c` groups from the left: an `and` (`or`) whose left operand is an `and`
/// (`or`) prints that operand without its parentheses.
pub fn continues_chain(kind: &NodeKind, left: &NodeKind) -> bool {
    match (kind, left) {
        (NodeKind::Bool2(op, ..), NodeKind::Bool2(lop, ..)) => {
            op == lop && matches!(op, BoolOp::And | BoolOp::Or)
        }
        _ => false,
    }
}

fn unwrap_parens(s: String) -> String {
    match s.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        Some(t) => t.to_string(),
        None => s,
    }
}

/// The text of constraint node `root` (its operands are the nodes before it).
pub fn constraint_text(ck: &Checked, first: NodeId, root: NodeId) -> Result<String, String> {
    let ir = ck.ir();
    let names = ck.declared();
    let var = |v: u32, primed: bool| {
        let n = names
            .get(v as usize)
            .map(|d| d.name.as_str())
            .unwrap_or("?");
        if primed {
            format!("{n}'")
        } else {
            n.to_string()
        }
    };
    // post-order: operands have smaller ids; a constraint is a tree, so each operand's text
    // is taken (not copied) by its one user
    let mut text: Vec<String> = vec![String::new(); (root - first + 1) as usize];
    let mut ops = Vec::new();
    for id in first..=root {
        let n = ir.node(id);
        ops.clear();
        n.kind.operands(&mut ops);
        let mut args: Vec<String> = ops
            .iter()
            .map(|&o| {
                if o < first || o > id {
                    String::new()
                } else {
                    std::mem::take(&mut text[(o - first) as usize])
                }
            })
            .collect();
        if let Some(&l) = ops.first() {
            if continues_chain(&n.kind, &ir.node(l).kind) {
                args[0] = unwrap_parens(std::mem::take(&mut args[0]));
            }
        }
        let refs: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        text[(id - first) as usize] = render(&n.kind, n.sort, &refs, &var)?;
    }
    Ok(std::mem::take(&mut text[(root - first) as usize]))
}

fn domain_text(d: &DeclaredVar) -> String {
    let Domain { lo, hi } = &d.domain;
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return String::new();
    };
    if let Sort::MachineInt(t) = d.sort {
        if lo.value == Rational::from_integer(t.min_value())
            && hi.value == Rational::from_integer(t.max_value())
        {
            return String::new();
        }
    }
    let real = d.sort == Sort::Real;
    format!(
        " {}{}, {}{}",
        if lo.strict { "(" } else { "[" },
        number(&lo.value, real && !lo.value.is_zero()),
        number(&hi.value, real && !hi.value.is_zero()),
        if hi.strict { ")" } else { "]" }
    )
}

/// The whole problem as a `.hys` file. `notes[i]`, when present and not empty, is printed as
/// a comment after the declaration of variable `i`. A constraint without a spelling is printed
/// as a comment naming the reason (the text then does not mean the same problem).
pub fn print(ck: &Checked, header: &str, notes: &[String]) -> String {
    let mut out = String::new();
    if !header.is_empty() {
        out.push_str(&format!("-- {header}\n"));
    }
    out.push_str("DECL\n");
    for (i, d) in ck.declared().iter().enumerate() {
        out.push_str("  ");
        if d.is_static {
            out.push_str("static ");
        }
        out.push_str(&type_name(d.kind));
        out.push_str(&domain_text(d));
        out.push(' ');
        out.push_str(&d.name);
        out.push(';');
        if let Some(n) = notes.get(i).filter(|n| !n.is_empty()) {
            out.push_str("  -- ");
            out.push_str(&n.replace('\n', " "));
        }
        out.push('\n');
    }
    for s in ck.sections() {
        out.push_str(s.kind.keyword());
        out.push('\n');
        for c in &s.constraints {
            match constraint_text(ck, c.first, c.root) {
                Ok(t) => {
                    out.push_str("  ");
                    out.push_str(&t);
                    out.push_str(";\n");
                }
                Err(e) => out.push_str(&format!("  -- not printable: {e}\n")),
            }
        }
        if s.constraints.is_empty() && s.kind != SectionKind::Expr {
            out.push_str("  true;\n");
        }
    }
    out
}
