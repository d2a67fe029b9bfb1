//! C-level traces of a confirmed run (`solve --trace`, `deadcode --trace`): the program's
//! text gets a logging call after every assignment it executes (`x = e;`, `a[i] += e;`,
//! `s.f++;`, a block-scope declaration with an initializer), the program is built and run by
//! gcc with the confirmed run's inputs ([`super::replay::replay_traced`]), and the log is read
//! back as `file:line: lvalue = value` per executed assignment, in execution order, per call
//! of the step function under `--step`. So the trace is what the compiled program did, not
//! the solver's model of it; the traced run must reach the same goal, or no trace is shown.
//!
//! Only what can be logged without changing the run is logged: the lvalue is read again
//! after the assignment, so its address must not depend on anything the statement changes
//! (see [`Points::assignment`]). Not shown: assignments inside a larger expression whose
//! value is used (`if ((x = f()) > 0)`), declarations in a `for` header, `static` locals and
//! file-scope initializers, and values that are pointers, aggregates, `long double` or
//! 128-bit integers.

use super::parse::{Pos, Source};
use super::replay::{replay_traced, InputValue, Replay, TraceSetup};
use super::CFile;
use lang_c::ast::{
    BinaryOperator, BinaryOperatorExpression, BlockItem, CallExpression, Declaration,
    DeclarationSpecifier, DeclaratorKind, Expression, ForInitializer, ForStatement, MemberOperator,
    Statement, StorageClassSpecifier, UnaryOperator, UnaryOperatorExpression,
};
use lang_c::span::{Node, Span};
use lang_c::visit::Visit;

/// Records a trace keeps at most (a long loop before the goal would otherwise print millions
/// of lines); the trace says when it was cut. `ICPIC3_TRACE_MAX=N` sets another limit (the
/// tests check the cut with a small one).
pub const MAX_ENTRIES: usize = 10_000;

fn max_entries() -> usize {
    std::env::var("ICPIC3_TRACE_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(MAX_ENTRIES)
}

/// A place in the text where a logging call was inserted: which lvalue, where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracePoint {
    pub pos: Pos,
    /// the lvalue as written (whitespace collapsed)
    pub lvalue: String,
}

/// Index of a [`TracePoint`] (the id the logging call writes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointId(pub usize);

/// A logged value, by the C type the program stored it with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceValue {
    /// any integer type up to `long`/`unsigned int` (also `char`, `_Bool`, enums, bit-fields)
    Signed(i64),
    /// `unsigned long`, `unsigned long long`
    Unsigned(u64),
    /// `float`, by its bits
    F32(u32),
    /// `double`, by its bits
    F64(u64),
}

impl TraceValue {
    /// The value as C's `printf` prints it: integers in decimal, `float` as `%.9g` and
    /// `double` as `%.17g` (digits enough to read the same value back).
    pub fn decimal(&self) -> String {
        match *self {
            TraceValue::Signed(v) => v.to_string(),
            TraceValue::Unsigned(v) => v.to_string(),
            TraceValue::F32(b) => format_g(f64::from(f32::from_bits(b)), 9),
            TraceValue::F64(b) => format_g(f64::from_bits(b), 17),
        }
    }

    /// Floats: the exact value as C's `%a` prints it (a `float` is promoted to `double`, as
    /// in a `printf` call); `None` for integers.
    pub fn hex(&self) -> Option<String> {
        match *self {
            TraceValue::F32(b) => Some(format_a(f64::from(f32::from_bits(b)))),
            TraceValue::F64(b) => Some(format_a(f64::from_bits(b))),
            _ => None,
        }
    }

    /// `3`, `0.100000001 (0x1.99999ap-4)`, or for a NaN (whose `%a` says nothing more)
    /// `nan (bits 0x7fc00000)`.
    pub fn text(&self) -> String {
        match *self {
            TraceValue::F32(b) if f32::from_bits(b).is_nan() => {
                format!("{} (bits 0x{b:08x})", self.decimal())
            }
            TraceValue::F64(b) if f64::from_bits(b).is_nan() => {
                format!("{} (bits 0x{b:016x})", self.decimal())
            }
            _ => match self.hex() {
                Some(h) => format!("{} ({h})", self.decimal()),
                None => self.decimal(),
            },
        }
    }
}

/// One executed assignment.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceEntry {
    /// under `--step`: the call of the step function it happened in (1 is the first; 0 is
    /// before the first call: the init function); `None` for a run of `main`
    pub step: Option<u64>,
    pub pos: Pos,
    pub lvalue: String,
    pub value: TraceValue,
}

/// The assignments of a confirmed run, in execution order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CTrace {
    pub entries: Vec<TraceEntry>,
    /// the run assigned more than [`MAX_ENTRIES`] times: only the first are kept
    pub truncated: bool,
    /// under `--step`: the calls of the step function the run started (the last one reached
    /// the goal); `None` for a run of `main`
    pub steps: Option<u64>,
}

impl CTrace {
    /// The text form: `  file:line: lvalue = value` per entry, a `step N:` line before the
    /// entries of each call of a step function (`before the first step:` for the init
    /// function's), and a last line when the trace was cut.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let line = |e: &TraceEntry| {
            format!(
                "  {}:{}: {} = {}\n",
                e.pos.file,
                e.pos.line,
                e.lvalue,
                e.value.text()
            )
        };
        match self.steps {
            None => self.entries.iter().for_each(|e| s.push_str(&line(e))),
            Some(n) => {
                // every step gets its header, also one that assigned nothing (a run of such
                // steps: one line); a cut trace up to the last step it shows
                let last = self.entries.last().and_then(|e| e.step).unwrap_or(0);
                let n = if self.truncated { last } else { n };
                let mut rest = &self.entries[..];
                let mut empty_from: Option<u64> = None;
                for k in 0..=n {
                    let len = rest.iter().take_while(|e| e.step == Some(k)).count();
                    let (of_k, later) = rest.split_at(len);
                    rest = later;
                    if k == 0 {
                        if !of_k.is_empty() {
                            s.push_str("before the first step:\n");
                        }
                    } else if of_k.is_empty() {
                        empty_from.get_or_insert(k);
                    } else {
                        if let Some(a) = empty_from.take() {
                            s.push_str(&empty_steps(a, k - 1));
                        }
                        s.push_str(&format!("step {k}:\n"));
                    }
                    of_k.iter().for_each(|e| s.push_str(&line(e)));
                }
                if let Some(a) = empty_from {
                    s.push_str(&empty_steps(a, n));
                }
            }
        }
        if self.truncated {
            s.push_str(&format!(
                "  (trace cut after the first {} assignments)\n",
                self.entries.len()
            ));
        }
        s
    }

    /// The JSON form: `[{"file", "line", "var", "value", "hex"?, "step"?}]`.
    pub fn json(&self) -> serde_json::Value {
        let v: Vec<serde_json::Value> = self
            .entries
            .iter()
            .map(|e| {
                let mut o = serde_json::json!({"file": e.pos.file, "line": e.pos.line,
                    "var": e.lvalue, "value": e.value.decimal()});
                if let Some(h) = e.value.hex() {
                    o["hex"] = serde_json::json!(h);
                }
                if let Some(k) = e.step {
                    o["step"] = serde_json::json!(k);
                }
                o
            })
            .collect();
        serde_json::Value::Array(v)
    }
}

/// The header of steps `a` to `b` that assigned nothing.
fn empty_steps(a: u64, b: u64) -> String {
    if a == b {
        format!("step {a}:\n  (no assignment)\n")
    } else {
        format!("steps {a} to {b}:\n  (no assignment)\n")
    }
}

/// Runs the program with `inputs` (a confirmed run's) and logging calls at every assignment
/// in the input files; `goals` are the replay's goals, one of which the run must reach again:
/// `reached`, when the confirmed run said which (an index into `cfg.goals`). The error says
/// why there is no trace.
pub fn trace_run(
    file: &CFile,
    cfg: &super::cfg::Cfg,
    goals: &[usize],
    reached: Option<usize>,
    inputs: &[InputValue],
    lp64: bool,
) -> Result<CTrace, String> {
    let points = points(file);
    let setup = TraceSetup {
        ins: points.ins,
        max_records: max_entries(),
    };
    let (r, log) = replay_traced(&file.source.text, cfg, goals, inputs, lp64, &setup);
    match r {
        // the logging must not have changed the run: the same goal first
        Replay::Confirmed(Some(i)) if reached.is_some() && goals.get(i).copied() != reached => {
            Err("the traced run reached another goal than the confirmed run".into())
        }
        Replay::Confirmed(_) => parse_log(
            &log,
            &points.points,
            cfg.env.as_ref().is_some_and(|e| e.looped),
        ),
        Replay::NotReached(why) => Err(format!(
            "the traced run did not reach the goal again: {why}"
        )),
        Replay::Unavailable(why) => Err(why),
        Replay::Covered(_) => Err("internal error: coverage".into()),
    }
}

/// Reads the log of a traced run (see [`super::replay`]'s `push_trace_functions`).
fn parse_log(log: &str, points: &[TracePoint], stepped: bool) -> Result<CTrace, String> {
    let mut t = CTrace::default();
    let mut step = stepped.then_some(0u64);
    t.steps = step;
    let bad = |l: &str| format!("internal error: unreadable trace record `{l}`");
    for l in log.lines() {
        if l == "X" {
            t.truncated = true;
            break;
        }
        let mut it = l.split(' ');
        let (Some(kind), Some(id), Some(hex), None) = (it.next(), it.next(), it.next(), it.next())
        else {
            return Err(bad(l));
        };
        let id: usize = id.parse().map_err(|_| bad(l))?;
        let raw = u64::from_str_radix(hex, 16).map_err(|_| bad(l))?;
        let value = match kind {
            "S" => {
                step = Some(raw);
                t.steps = Some(raw);
                continue;
            }
            "i" => TraceValue::Signed(raw as i64),
            "u" => TraceValue::Unsigned(raw),
            "f" => TraceValue::F32(u32::try_from(raw).map_err(|_| bad(l))?),
            "d" => TraceValue::F64(raw),
            _ => return Err(bad(l)),
        };
        let p = points.get(PointId(id).0).ok_or_else(|| bad(l))?;
        t.entries.push(TraceEntry {
            step,
            pos: p.pos.clone(),
            lvalue: p.lvalue.clone(),
            value,
        });
    }
    Ok(t)
}

/// The logging calls of a program: the points and the insertions into its text.
struct Points<'a> {
    src: &'a Source,
    /// the input files: assignments in other files (system headers' inline functions) are
    /// not logged
    files: &'a [String],
    points: Vec<TracePoint>,
    ins: Vec<(usize, (u8, usize, u8), String)>,
}

fn points(file: &CFile) -> Points<'_> {
    let mut p = Points {
        src: &file.source,
        files: &file.paths,
        points: Vec::new(),
        ins: Vec::new(),
    };
    p.visit_translation_unit(&file.unit);
    p
}

impl<'a> Points<'a> {
    /// A new point for the lvalue at `lv`, or `None` when the place is not in an input file.
    fn point(&mut self, at: usize, lv: &Span) -> Option<PointId> {
        let pos = self.src.pos(at);
        if !self.files.contains(&pos.file) {
            return None;
        }
        let text = self.src.text.get(lv.start..lv.end)?;
        let lvalue = text.split_whitespace().collect::<Vec<_>>().join(" ");
        self.points.push(TracePoint { pos, lvalue });
        Some(PointId(self.points.len() - 1))
    }

    /// The logging call of `id` reading the lvalue at `lv` (its text, in parentheses).
    fn call(&self, id: PointId, lv: &Span) -> String {
        format!(
            "__ICPIC3_T({}, ({}))",
            id.0,
            &self.src.text[lv.start..lv.end]
        )
    }

    /// An expression whose value is discarded (an expression statement, a `for` header's
    /// first or third part, an operand of such a comma expression): an assignment or
    /// increment in it becomes `(E, __ICPIC3_T(id, (LV)))`.
    fn discarded(&mut self, e: &Node<Expression>) {
        match &e.node {
            Expression::Comma(items) => {
                for x in items.iter() {
                    self.discarded(x);
                }
            }
            Expression::BinaryOperator(b) if is_assign(&b.node.operator.node) => {
                self.assignment(&e.span, &b.node.lhs, Some(&b.node.rhs));
            }
            Expression::UnaryOperator(u) if is_incdec(&u.node.operator.node) => {
                self.assignment(&e.span, &u.node.operand, None);
            }
            _ => {}
        }
    }

    /// `lv = rhs` (or `lv++`, without `rhs`) at `whole`. The lvalue is read again after the
    /// assignment, so it must read the object the assignment wrote: no side effects in the
    /// lvalue itself, and either its address is fixed (a variable, or `.` fields of one) or
    /// nothing in the right side can change what the address depends on (no call, no
    /// assignment, no increment).
    fn assignment(&mut self, whole: &Span, lv: &Node<Expression>, rhs: Option<&Node<Expression>>) {
        if !pure(&lv.node) {
            return;
        }
        if !fixed_address(&lv.node) && rhs.is_some_and(has_effects) {
            return;
        }
        let Some(id) = self.point(whole.start, &lv.span) else {
            return;
        };
        let call = self.call(id, &lv.span);
        // the parentheses nest inside every other insertion at the same offsets (a start
        // with a smaller end, an end with a larger start: see `replay`'s order keys)
        self.ins.push((whole.start, (0, whole.end, 0), "(".into()));
        self.ins
            .push((whole.end, (1, whole.start, 1), format!(", {call})")));
    }

    /// A block-scope declaration: a logging statement after it for every declarator with an
    /// initializer (not for `static`/`extern`/`typedef`: their initializer is not run there).
    fn declaration(&mut self, d: &Declaration, span: &Span) {
        let skip = d.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c) if matches!(c.node,
                StorageClassSpecifier::Static | StorageClassSpecifier::Extern
                    | StorageClassSpecifier::Typedef | StorageClassSpecifier::ThreadLocal))
        });
        if skip {
            return;
        }
        let mut calls = String::new();
        for id in &d.declarators {
            if id.node.initializer.is_none() {
                continue;
            }
            let DeclaratorKind::Identifier(name) = &id.node.declarator.node.kind.node else {
                continue;
            };
            let Some(pid) = self.point(id.span.start, &name.span) else {
                continue;
            };
            calls.push_str(&format!(" {};", self.call(pid, &name.span)));
        }
        if !calls.is_empty() {
            // after the declaration's `;`: an end (left of any start at that offset)
            self.ins.push((span.end, (1, span.start, 0), calls));
        }
    }
}

impl<'ast> Visit<'ast> for Points<'_> {
    fn visit_statement(&mut self, s: &'ast Statement, span: &'ast Span) {
        if let Statement::Expression(Some(e)) = s {
            self.discarded(e);
        }
        lang_c::visit::visit_statement(self, s, span);
    }

    fn visit_for_statement(&mut self, f: &'ast ForStatement, span: &'ast Span) {
        if let ForInitializer::Expression(e) = &f.initializer.node {
            self.discarded(e);
        }
        if let Some(e) = &f.step {
            self.discarded(e);
        }
        lang_c::visit::visit_for_statement(self, f, span);
    }

    fn visit_block_item(&mut self, b: &'ast BlockItem, span: &'ast Span) {
        if let BlockItem::Declaration(d) = b {
            self.declaration(&d.node, &d.span);
        }
        lang_c::visit::visit_block_item(self, b, span);
    }
}

fn is_assign(op: &BinaryOperator) -> bool {
    use BinaryOperator::*;
    matches!(
        op,
        Assign
            | AssignMultiply
            | AssignDivide
            | AssignModulo
            | AssignPlus
            | AssignMinus
            | AssignShiftLeft
            | AssignShiftRight
            | AssignBitwiseAnd
            | AssignBitwiseXor
            | AssignBitwiseOr
    )
}

fn is_incdec(op: &UnaryOperator) -> bool {
    use UnaryOperator::*;
    matches!(
        op,
        PostIncrement | PostDecrement | PreIncrement | PreDecrement
    )
}

/// An lvalue that reads the same object when evaluated again: variables, constants, fields,
/// indexing, `*`, arithmetic and casts; no call, assignment, increment or comma.
fn pure(e: &Expression) -> bool {
    match e {
        Expression::Identifier(_) | Expression::Constant(_) => true,
        Expression::Member(m) => pure(&m.node.expression.node),
        Expression::BinaryOperator(b) => {
            !is_assign(&b.node.operator.node) && pure(&b.node.lhs.node) && pure(&b.node.rhs.node)
        }
        Expression::UnaryOperator(u) => {
            !is_incdec(&u.node.operator.node) && pure(&u.node.operand.node)
        }
        Expression::Cast(c) => pure(&c.node.expression.node),
        _ => false,
    }
}

/// A variable or a `.` field of one: the address does not depend on any value.
fn fixed_address(e: &Expression) -> bool {
    match e {
        Expression::Identifier(_) => true,
        Expression::Member(m) => {
            m.node.operator.node == MemberOperator::Direct && fixed_address(&m.node.expression.node)
        }
        _ => false,
    }
}

/// Does evaluating `e` call a function, assign, increment or run a statement?
fn has_effects(e: &Node<Expression>) -> bool {
    struct Effects(bool);
    impl<'ast> Visit<'ast> for Effects {
        fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
            self.0 = true;
            lang_c::visit::visit_call_expression(self, c, span);
        }
        fn visit_binary_operator_expression(
            &mut self,
            b: &'ast BinaryOperatorExpression,
            span: &'ast Span,
        ) {
            self.0 |= is_assign(&b.operator.node);
            lang_c::visit::visit_binary_operator_expression(self, b, span);
        }
        fn visit_unary_operator_expression(
            &mut self,
            u: &'ast UnaryOperatorExpression,
            span: &'ast Span,
        ) {
            self.0 |= is_incdec(&u.operator.node);
            lang_c::visit::visit_unary_operator_expression(self, u, span);
        }
        fn visit_statement(&mut self, s: &'ast Statement, span: &'ast Span) {
            self.0 = true;
            lang_c::visit::visit_statement(self, s, span);
        }
    }
    let mut v = Effects(false);
    v.visit_expression(&e.node, &e.span);
    v.0
}

/// C's `%.{prec}g` of a `double` (glibc's output: shortest of fixed and exponent form, no
/// trailing zeros, `inf`/`nan`).
pub fn format_g(v: f64, prec: usize) -> String {
    let sign = if v.is_sign_negative() { "-" } else { "" };
    if v.is_nan() {
        return format!("{sign}nan");
    }
    if v.is_infinite() {
        return format!("{sign}inf");
    }
    if v == 0.0 {
        return format!("{sign}0");
    }
    let a = v.abs();
    let p = prec.max(1);
    // the decimal exponent after rounding to `p` significant digits
    let e = format!("{:.*e}", p - 1, a);
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let x: i64 = exp.parse().unwrap_or(0);
    let strip = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if x < -4 || x >= p as i64 {
        let es = if x < 0 { "-" } else { "+" };
        format!("{sign}{}e{es}{:02}", strip(mant), x.abs())
    } else {
        let decimals = (p as i64 - 1 - x).max(0) as usize;
        format!("{sign}{}", strip(&format!("{a:.decimals$}")))
    }
}

/// C's `%a` of a `double` (glibc's output: `0x1.999999999999ap-4`, `0x0p+0`, subnormals as
/// `0x0.…p-1022`, `inf`/`nan`).
pub fn format_a(v: f64) -> String {
    let sign = if v.is_sign_negative() { "-" } else { "" };
    if v.is_nan() {
        return format!("{sign}nan");
    }
    if v.is_infinite() {
        return format!("{sign}inf");
    }
    let bits = v.to_bits();
    let frac = bits & ((1u64 << 52) - 1);
    let bexp = ((bits >> 52) & 0x7ff) as i64;
    if bexp == 0 && frac == 0 {
        return format!("{sign}0x0p+0");
    }
    let (lead, exp) = if bexp == 0 {
        (0, -1022)
    } else {
        (1, bexp - 1023)
    };
    let digits = format!("{frac:013x}");
    let digits = digits.trim_end_matches('0');
    let dot = if digits.is_empty() { "" } else { "." };
    let es = if exp < 0 { "-" } else { "+" };
    format!("{sign}0x{lead}{dot}{digits}p{es}{}", exp.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_forms_of_known_values() {
        // glibc's printf("%a"/"%.9g"/"%.17g") of these values, by hand
        assert_eq!(format_a(f64::from(0.1f32)), "0x1.99999ap-4");
        assert_eq!(format_a(0.1), "0x1.999999999999ap-4");
        assert_eq!(format_a(1.0), "0x1p+0");
        assert_eq!(format_a(-2.5), "-0x1.4p+1");
        assert_eq!(format_a(0.0), "0x0p+0");
        assert_eq!(format_a(-0.0), "-0x0p+0");
        assert_eq!(format_a(f64::from_bits(1)), "0x0.0000000000001p-1022");
        assert_eq!(format_g(f64::from(0.1f32), 9), "0.100000001");
        assert_eq!(format_g(0.1, 17), "0.10000000000000001");
        assert_eq!(format_g(1e20, 17), "1e+20");
        assert_eq!(format_g(123456.0, 9), "123456");
        assert_eq!(format_g(1.5e-5, 17), "1.5e-05");
        assert_eq!(format_g(1.0 / 3.0 * 1e-5, 17), "3.3333333333333333e-06");
        assert_eq!(format_g(0.0001, 9), "0.0001");
        assert_eq!(format_g(-3.0, 9), "-3");
        assert_eq!(format_g(f64::INFINITY, 9), "inf");
        assert_eq!(TraceValue::F32(0x7fc0_0000).text(), "nan (bits 0x7fc00000)");
        assert_eq!(TraceValue::F32(0xff80_0000).text(), "-inf (-inf)");
    }

    fn pt(line: usize, lv: &str) -> TracePoint {
        TracePoint {
            pos: Pos {
                file: "u.c".into(),
                line,
                col: 1,
            },
            lvalue: lv.into(),
        }
    }

    #[test]
    fn log_records_read_back_with_steps_and_the_cut() {
        let points = [pt(3, "x"), pt(4, "f")];
        // init assigns x = -1; step 1 assigns f = 1.5f; steps 2..4 nothing; step 5 x = 2
        let log = "i 0 ffffffffffffffff\nS 0 1\nf 1 3fc00000\nS 0 2\nS 0 3\nS 0 4\nS 0 5\ni 0 2\n";
        let t = parse_log(log, &points, true).unwrap();
        assert_eq!(t.steps, Some(5));
        assert!(!t.truncated);
        assert_eq!(t.entries[0].value, TraceValue::Signed(-1));
        assert_eq!(t.entries[1].step, Some(1));
        assert_eq!(
            t.text(),
            "before the first step:\n  u.c:3: x = -1\nstep 1:\n  u.c:4: f = 1.5 (0x1.8p+0)\nsteps 2 to 4:\n  (no assignment)\nstep 5:\n  u.c:3: x = 2\n"
        );
        // the cut: the `X` record ends the log
        let t = parse_log("u 0 ffffffffffffffff\nX\n", &points, false).unwrap();
        assert!(t.truncated);
        assert_eq!(t.entries.len(), 1);
        assert_eq!(t.entries[0].value.decimal(), "18446744073709551615");
        assert!(t
            .text()
            .ends_with("(trace cut after the first 1 assignments)\n"));
        // a record the harness cannot write is an error, not a guess
        assert!(parse_log("i 7 1\n", &points, false).is_err());
        assert!(parse_log("f 0 1ffffffff\n", &points, false).is_err());
    }
}
