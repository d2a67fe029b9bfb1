//! Running an SMT-LIB 2.6 script (`icpic3 solve FILE.smt2`, language doc Part E).
//!
//! One answer per `check-sat`: `sat` only with a model validated exactly against the
//! original assertions (and outside every case SMT-LIB leaves unspecified), `unsat` from the
//! solver's refutation (sound even when unsupported assertions were dropped), otherwise
//! `unknown` with the reason on standard error. The first erroneous command prints
//! `(error "FILE:LINE:COL: message")` and ends the run with exit code 1.

use super::elab::{self, bad, Elab, Sym, Ty, Val, E, R};
use super::sexpr::{self, SExpr, SKind};
use crate::diag::{Diagnostic, SourceMap, Span};
use crate::hys::ast::SectionKind;
use crate::hys::check::{Checked, CheckedSection};
use crate::hys::eval::{self, PointValue, Truth};
use crate::hys::ir::Ir;
use crate::hys::lower::{self, Lowered};
use crate::solve_cmd::{self, Shown, Verdict};
use solver::formula::Sort;
use solver::SolverConfig;
use std::io::Write;
use std::time::{Duration, Instant};

pub struct ScriptOptions {
    pub config: SolverConfig,
    /// for the whole script
    pub timeout: Option<Duration>,
    pub verbose: u8,
    /// elaborate and lower every `check-sat`, but do not solve (answers `unknown`): for the
    /// fuzzer
    pub dry_run: bool,
    /// the engines of each `check-sat`
    pub engine: solve_cmd::ExprEngine,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Answer {
    Sat,
    Unsat,
    Unknown,
}

impl Answer {
    pub fn text(self) -> &'static str {
        match self {
            Answer::Sat => "sat",
            Answer::Unsat => "unsat",
            Answer::Unknown => "unknown",
        }
    }
    pub fn exit_code(self) -> i32 {
        match self {
            Answer::Sat => 10,
            Answer::Unsat => 20,
            Answer::Unknown => 0,
        }
    }
}

/// An assertion: its term, or why it was dropped.
enum Assertion {
    Term(elab::TId),
    Dropped(String),
}

struct Run<'a> {
    el: Elab,
    /// assertion levels (`push`/`pop`)
    levels: Vec<Vec<Assertion>>,
    model: Option<Vec<PointValue>>,
    opts: &'a ScriptOptions,
    start: Instant,
    print_success: bool,
    last: Option<Answer>,
}

/// The most assertion levels `push` may open (each costs a scope).
pub const MAX_LEVELS: usize = 100_000;

/// Runs `text`; returns the exit code.
pub fn run(
    name: &str,
    text: &str,
    opts: &ScriptOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let sm = SourceMap::new(name, text);
    let report = |d: &Diagnostic, out: &mut dyn Write, err: &mut dyn Write| {
        let msg = sm.render(d);
        let _ = writeln!(out, "(error \"{}\")", msg.replace('"', "\"\""));
        let _ = writeln!(err, "{msg}");
        crate::cli::EXIT_BAD_INPUT
    };
    // out of time or memory in a front-end phase (reading, elaboration, macro expansion,
    // lowering): `unknown` (unless a check-sat just said so) and the script ends there
    let stopped = |span: Span, answered: bool, out: &mut dyn Write, err: &mut dyn Write| {
        let why = solver::budget::stopped().map_or("stopped", |s| s.text());
        if !answered {
            let _ = writeln!(out, "unknown");
        }
        let d = Diagnostic::error(span, format!("{why}: the script stops here"));
        let _ = writeln!(err, "{}", sm.render(&d));
        crate::cli::EXIT_OK
    };
    let cmds = match sexpr::parse(text) {
        Ok(c) => c,
        Err(d) if solver::budget::stopped().is_some() => return stopped(d.span, false, out, err),
        Err(d) => return report(&d, out, err),
    };
    let mut run = Run {
        el: Elab::new(),
        levels: vec![Vec::new()],
        model: None,
        opts,
        start: Instant::now(),
        print_success: false,
        last: None,
    };
    let mut answered = false;
    for c in &cmds {
        if solver::budget::check_now().is_err() {
            return stopped(c.span, answered, out, err);
        }
        let r = run.command(c, text, out, err);
        answered = matches!(run.last, Some(Answer::Unknown)) && is_check_sat(c);
        if r.is_err() && solver::budget::stopped().is_some() {
            return stopped(c.span, answered, out, err);
        }
        match r {
            Ok(true) => {}
            Ok(false) => break,
            Err(E::Bad(d)) if is_query(c) => {
                // a failed query (no model yet, an unsupported term) is reported and the
                // script goes on, as SMT-LIB solvers do
                let msg = sm.render(&d);
                let _ = writeln!(out, "(error \"{}\")", msg.replace('"', "\"\""));
                let _ = writeln!(err, "{msg}");
            }
            Err(E::Unsup(span, why)) if is_query(c) => {
                let d = Diagnostic::error(span, format!("unsupported: {why}"));
                let msg = sm.render(&d);
                let _ = writeln!(out, "(error \"{}\")", msg.replace('"', "\"\""));
                let _ = writeln!(err, "{msg}");
            }
            Err(E::Bad(d)) => return report(&d, out, err),
            Err(E::Unsup(span, why)) => {
                let d = Diagnostic::error(span, format!("unsupported: {why}"));
                return report(&d, out, err);
            }
        }
        let _ = out.flush();
    }
    run.last.map_or(crate::cli::EXIT_OK, Answer::exit_code)
}

fn is_check_sat(c: &SExpr) -> bool {
    matches!(c.head(), Some("check-sat" | "check-sat-assuming"))
}

fn is_query(c: &SExpr) -> bool {
    matches!(c.head(), Some("get-model" | "get-value"))
}

fn args_of(c: &SExpr) -> &[SExpr] {
    c.list().map_or(&[], |l| &l[1.min(l.len())..])
}

fn symbol_arg(c: &SExpr, i: usize) -> R<&str> {
    args_of(c)
        .get(i)
        .and_then(|x| x.symbol())
        .ok_or_else(|| E::Bad(Diagnostic::error(c.span, "a symbol is expected")))
}

fn numeral_arg(c: &SExpr, i: usize) -> R<usize> {
    match args_of(c).get(i).map(|x| &x.kind) {
        None => Ok(1),
        Some(SKind::Numeral(n)) => n
            .parse()
            .map_err(|_| E::Bad(Diagnostic::error(c.span, "numeral too large"))),
        _ => bad(c.span, "a numeral is expected"),
    }
}

impl Run<'_> {
    fn ok(&self, out: &mut dyn Write) {
        if self.print_success {
            let _ = writeln!(out, "success");
        }
    }

    /// Executes one command; `Ok(false)` ends the script (`exit`).
    fn command(
        &mut self,
        c: &SExpr,
        text: &str,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> R<bool> {
        let Some(head) = c.head() else {
            return bad(c.span, "a command is expected");
        };
        let a = args_of(c);
        match head {
            "set-logic" | "set-info" => self.ok(out),
            "set-option" => {
                if let (Some(SKind::Keyword(k)), Some(v)) = (a.first().map(|x| &x.kind), a.get(1)) {
                    if k == "print-success" {
                        self.print_success = v.symbol() == Some("true");
                    }
                }
                self.ok(out);
            }
            "get-info" => {
                let _ = writeln!(out, "unsupported");
            }
            "declare-const" | "declare-fun" => {
                let name = symbol_arg(c, 0)?.to_string();
                let sort_e = if head == "declare-const" {
                    if a.len() != 2 {
                        return bad(c.span, "malformed declare-const");
                    }
                    &a[1]
                } else {
                    if a.len() != 3 || a[1].list().is_none() {
                        return bad(c.span, "malformed declare-fun");
                    }
                    &a[2]
                };
                let sym = if a.len() == 3 && !a[1].list().unwrap_or(&[]).is_empty() {
                    Sym::Unsup("uninterpreted functions".into())
                } else {
                    match self.el.sort(sort_e) {
                        Ok(Ty::S(s)) => {
                            let v = self.el.new_var(&name, s, a[0].span);
                            Sym::Var(v, s)
                        }
                        Ok(Ty::Rm) => self.el.rm_var(&name, a[0].span),
                        Err(E::Unsup(_, why)) => Sym::Unsup(why),
                        Err(e) => return Err(e),
                    }
                };
                self.el.define(&name, sym, a[0].span)?;
                self.ok(out);
            }
            "define-fun" | "define-const" => {
                let name = symbol_arg(c, 0)?.to_string();
                let (params, ret, body) = if head == "define-const" {
                    if a.len() != 3 {
                        return bad(c.span, "malformed define-const");
                    }
                    (&[][..], &a[1], &a[2])
                } else {
                    if a.len() != 4 || a[1].list().is_none() {
                        return bad(c.span, "malformed define-fun");
                    }
                    (a[1].list().unwrap_or(&[]), &a[2], &a[3])
                };
                let sym = self.definition(params, ret, body)?;
                self.el.define(&name, sym, a[0].span)?;
                self.ok(out);
            }
            "define-sort" => {
                let name = symbol_arg(c, 0)?.to_string();
                if a.len() != 3 || a[1].list().is_none() {
                    return bad(c.span, "malformed define-sort");
                }
                if !a[1].list().unwrap_or(&[]).is_empty() {
                    return elab::unsup(c.span, "parametric sort definitions");
                }
                if let Some(m) = self.el.sort_aliases.last_mut() {
                    m.insert(name, a[2].clone());
                }
                self.ok(out);
            }
            "push" | "pop" => {
                let n = numeral_arg(c, 0)?;
                if head == "push" {
                    // validated before anything is allocated (issue #24: `(push 4294967296)`)
                    if n > MAX_LEVELS || self.levels.len() + n > MAX_LEVELS + 1 {
                        return bad(
                            c.span,
                            format!("push: at most {MAX_LEVELS} assertion levels are supported"),
                        );
                    }
                    for _ in 0..n {
                        self.el.push_scope();
                        self.levels.push(Vec::new());
                    }
                } else {
                    if n >= self.levels.len() {
                        return bad(c.span, "pop below the first level");
                    }
                    for _ in 0..n {
                        self.el.pop_scope();
                        self.levels.pop();
                    }
                }
                self.ok(out);
            }
            "assert" => {
                if a.len() != 1 {
                    return bad(c.span, "malformed assert");
                }
                let x = match self.el.formula(&a[0]) {
                    Ok(t) => Assertion::Term(t),
                    Err(E::Unsup(span, why)) => {
                        let (l, col) = SourceMap::new("", text).line_col(span.start);
                        Assertion::Dropped(format!("{why} (line {l}, column {col})"))
                    }
                    Err(e) => return Err(e),
                };
                if let Some(l) = self.levels.last_mut() {
                    l.push(x);
                }
                self.ok(out);
            }
            "check-sat" | "check-sat-assuming" => {
                let mut extra = Vec::new();
                if head == "check-sat-assuming" {
                    let Some(lits) = a.first().and_then(|x| x.list()) else {
                        return bad(c.span, "malformed check-sat-assuming");
                    };
                    for l in lits {
                        extra.push(match self.el.formula(l) {
                            Ok(t) => Assertion::Term(t),
                            Err(E::Unsup(_, why)) => Assertion::Dropped(why),
                            Err(e) => return Err(e),
                        });
                    }
                }
                let (ans, why) = self.check_sat(extra);
                let _ = writeln!(out, "{}", ans.text());
                if let Some(w) = why {
                    let (l, col) = SourceMap::new("", text).line_col(c.span.start);
                    let _ = writeln!(
                        err,
                        "icpic3: check-sat at line {l}, column {col}: unknown: {w}"
                    );
                }
                self.last = Some(ans);
            }
            "get-model" => {
                let Some(m) = &self.model else {
                    return bad(c.span, "no model is available");
                };
                let mut vars: Vec<(u32, String, Sort)> = Vec::new();
                for s in &self.el.global {
                    for (n, sym) in s {
                        if let Sym::Var(v, sort) = sym {
                            vars.push((*v, n.clone(), *sort));
                        }
                    }
                }
                vars.sort_by_key(|x| x.0);
                let _ = writeln!(out, "(");
                for (v, n, sort) in vars {
                    let Some(val) = m.get(v as usize) else {
                        continue;
                    };
                    let _ = writeln!(
                        out,
                        "  (define-fun {} () {} {})",
                        quote(&n),
                        elab::sort_name(sort),
                        elab::value_text(sort, val)
                    );
                }
                let _ = writeln!(out, ")");
            }
            "get-value" => {
                let Some(m) = self.model.clone() else {
                    return bad(c.span, "no model is available");
                };
                let Some(terms) = a.first().and_then(|x| x.list()) else {
                    return bad(c.span, "malformed get-value");
                };
                let mut parts = Vec::new();
                for t in terms {
                    let src = text
                        .get(t.span.start as usize..t.span.end as usize)
                        .unwrap_or("?");
                    let v = self.value_of(t, &m)?;
                    parts.push(format!("({src} {v})"));
                }
                let _ = writeln!(out, "({})", parts.join(" "));
            }
            "get-assignment"
            | "get-proof"
            | "get-unsat-core"
            | "get-assertions"
            | "get-unsat-assumptions"
            | "get-option" => {
                let _ = writeln!(out, "unsupported");
            }
            "echo" => {
                if let Some(SKind::Str(s)) = a.first().map(|x| &x.kind) {
                    let _ = writeln!(out, "\"{}\"", s.replace('"', "\"\""));
                }
            }
            "reset" => {
                self.el = Elab::new();
                self.levels = vec![Vec::new()];
                self.model = None;
                self.ok(out);
            }
            "reset-assertions" => {
                while self.levels.len() > 1 {
                    self.el.pop_scope();
                    self.levels.pop();
                }
                self.levels[0].clear();
                self.ok(out);
            }
            "exit" => return Ok(false),
            "declare-sort" | "declare-datatype" | "declare-datatypes" | "define-fun-rec"
            | "define-funs-rec" => {
                return elab::unsup(c.span, format!("'{head}'"));
            }
            _ => return bad(c.span, format!("unknown command '{head}'")),
        }
        Ok(true)
    }

    fn definition(&mut self, params: &[SExpr], ret: &SExpr, body: &SExpr) -> R<Sym> {
        let ret = match self.el.sort(ret) {
            Ok(t) => t,
            Err(E::Unsup(_, why)) => return Ok(Sym::Unsup(why)),
            Err(e) => return Err(e),
        };
        let mut ps = Vec::new();
        for p in params {
            let Some([n, s]) = p.list().and_then(|l| <&[SExpr; 2]>::try_from(l).ok()) else {
                return bad(p.span, "malformed parameter");
            };
            let Some(n) = n.symbol() else {
                return bad(p.span, "malformed parameter");
            };
            match self.el.sort(s) {
                Ok(t) => ps.push((n.to_string(), t)),
                Err(E::Unsup(_, why)) => return Ok(Sym::Unsup(why)),
                Err(e) => return Err(e),
            }
        }
        if !ps.is_empty() {
            return Ok(Sym::Macro {
                params: ps,
                ret,
                body: body.clone(),
            });
        }
        match self.el.elab(body) {
            Ok(Val::T(t, s)) => match ret {
                Ty::S(r) if r == s || (elab::arith(r) && elab::arith(s)) => Ok(Sym::Term(t, r)),
                _ => bad(
                    body.span,
                    format!("the body does not have sort {}", ty_text(ret)),
                ),
            },
            Ok(Val::Rm(m)) if ret == Ty::Rm => Ok(Sym::Rm(m)),
            Ok(Val::RmT(t)) if ret == Ty::Rm => Ok(Sym::RmT(t)),
            Ok(Val::Rm(_) | Val::RmT(_)) => {
                bad(body.span, "the body does not have its declared sort")
            }
            Err(E::Unsup(_, why)) => Ok(Sym::Unsup(why)),
            Err(e) => Err(e),
        }
    }

    fn check_sat(&mut self, extra: Vec<Assertion>) -> (Answer, Option<String>) {
        self.model = None;
        if let Err(stop) = solver::budget::check_now() {
            return (Answer::Unknown, Some(stop.text().into()));
        }
        let mut roots = Vec::new();
        let mut dropped = Vec::new();
        for a in self.levels.iter().flatten().chain(extra.iter()) {
            match a {
                Assertion::Term(t) => roots.push(*t),
                Assertion::Dropped(w) => dropped.push(w.clone()),
            }
        }
        let mut ir = Ir::default();
        // Ackermann constraints are valid consequences: the solver gets them, the validation
        // of a model checks the original assertions only
        let ack = self.el.ackermann(&roots);
        let (cs, conds) = self.el.build(&mut ir, &roots);
        let (ack_cs, _) = self.el.build(&mut ir, &ack);
        let section = |constraints| CheckedSection {
            kind: SectionKind::Expr,
            span: Span::default(),
            constraints,
        };
        let with_ack: Vec<_> = cs.iter().chain(ack_cs.iter()).copied().collect();
        let for_solver = Checked::from_parts(
            self.el.vars.clone(),
            ir.clone(),
            vec![section(with_ack)],
            false,
        );
        let checked = Checked::from_parts(self.el.vars.clone(), ir, vec![section(cs)], false);
        if let Some(stop) = solver::budget::stopped() {
            return (Answer::Unknown, Some(stop.text().into()));
        }
        let f = match lower::lower(&for_solver) {
            Ok(Lowered::Expr(f)) => f,
            Ok(Lowered::Transition(_)) => return (Answer::Unknown, Some("internal error".into())),
            Err(d) => return (Answer::Unknown, Some(d.message)),
        };
        if self.opts.dry_run {
            return (Answer::Unknown, Some("dry run".into()));
        }
        // the command's deadline (set when the file was first read) when there is one
        let timeout = match solver::budget::deadline() {
            Some(d) => Some(d.saturating_duration_since(Instant::now())),
            None => self
                .opts
                .timeout
                .map(|t| t.saturating_sub(self.start.elapsed())),
        };
        if timeout == Some(Duration::ZERO) {
            return (Answer::Unknown, Some("timeout".into()));
        }
        let so = solve_cmd::Options {
            config: self.opts.config.clone(),
            timeout,
            engine: self.opts.engine,
        };
        let answer = solve_cmd::solve_expr(&checked, &f, &so);
        match answer.verdict {
            Verdict::Unsatisfiable => (Answer::Unsat, None),
            Verdict::Satisfiable => {
                let values: Vec<PointValue> = answer
                    .values
                    .iter()
                    .map(|(_, v)| match v {
                        Shown::Point(p) => p.clone(),
                        Shown::Float(_, bits) => PointValue::Fp(*bits),
                        Shown::Bool(b) => PointValue::Bool(b.unwrap_or(false)),
                        Shown::Box(_) => PointValue::Bool(false),
                    })
                    .collect();
                if !dropped.is_empty() {
                    return (
                        Answer::Unknown,
                        Some(format!(
                            "a model was found without {} unsupported assertion(s): {}",
                            dropped.len(),
                            dropped[0]
                        )),
                    );
                }
                if eval::eval_all(&checked, &conds, &values, &[]) != Truth::True {
                    return (
                        Answer::Unknown,
                        Some(
                            "the model relies on a value SMT-LIB leaves unspecified (division \
                             by zero, fp.min/fp.max of zeros of different signs)"
                                .into(),
                        ),
                    );
                }
                self.model = Some(values);
                (Answer::Sat, None)
            }
            Verdict::Candidate => {
                (
                    Answer::Unknown,
                    Some(answer.note.unwrap_or_else(|| {
                        "candidate solution (no exactly validated model)".into()
                    })),
                )
            }
            Verdict::Unknown => (
                Answer::Unknown,
                Some(answer.note.unwrap_or_else(|| "solver gave up".into())),
            ),
        }
    }

    /// The value of a term in the last model, in SMT-LIB syntax.
    fn value_of(&mut self, t: &SExpr, model: &[PointValue]) -> R<String> {
        let (root, sort) = self.el.term(t)?;
        let mut ir = Ir::default();
        let (cs, _) = self.el.build(&mut ir, &[root]);
        let Some(&c) = cs.first() else {
            return Ok("?".into());
        };
        let checked = Checked::from_parts(self.el.vars.clone(), ir, Vec::new(), false);
        let vals = eval::eval_nodes(&checked, &c, model, &[]);
        let v = match vals.last() {
            Some(eval::NodeEval::Truth(Truth::True)) => PointValue::Bool(true),
            Some(eval::NodeEval::Truth(Truth::False)) => PointValue::Bool(false),
            Some(eval::NodeEval::Num(Some(q))) => PointValue::Num(q.clone()),
            Some(eval::NodeEval::Fp(bits)) => PointValue::Fp(*bits),
            _ => return Ok("?".into()),
        };
        Ok(elab::value_text(sort, &v))
    }
}

fn ty_text(t: Ty) -> &'static str {
    match t {
        Ty::S(_) => "the declared sort",
        Ty::Rm => "RoundingMode",
    }
}

/// A symbol as SMT-LIB prints it (quoted when needed).
pub fn quote(name: &str) -> String {
    let simple = !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"~!@$%^&*_-+=<>.?/".contains(&c));
    if simple {
        name.to_string()
    } else {
        format!("|{name}|")
    }
}
