//! Running an SMT-LIB 2.6 script (`icpic3 solve FILE.smt2`, language doc Part E).
//!
//! One answer per `check-sat`: `sat` only with a model validated exactly against the
//! original assertions (and outside every case SMT-LIB leaves unspecified), `unsat` from the
//! solver's refutation (sound even when unsupported assertions were dropped), otherwise
//! `unknown` with the reason on standard error. The first erroneous command prints
//! `(error "FILE:LINE:COL: message")` and ends the run with exit code 1.

use super::elab::{self, bad, Elab, Sym, Ty, Val, E, R};
use super::options::{self, Channel, SetResponse};
use super::sexpr::{self, SExpr, SKind};
use crate::diag::{Diagnostic, SourceMap, Span};
use crate::hys::ast::SectionKind;
use crate::hys::check::{Checked, CheckedSection};
use crate::hys::eval::{self, PointValue, Truth};
use crate::hys::ir::Ir;
use crate::hys::lower::{self, Lowered};
use crate::report::InputError;
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
    /// adaptive refinement after a candidate (`solve_cmd::Refinement`)
    pub refine: bool,
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

/// One `check-sat` answered: where the command is, the answer, and why `unknown`.
#[derive(Clone, Debug)]
pub struct CheckSatAnswer {
    pub line: usize,
    pub column: usize,
    pub answer: Answer,
    pub reason: Option<String>,
}

struct Run<'a> {
    el: Elab,
    /// assertion levels (`push`/`pop`)
    levels: Vec<Vec<Assertion>>,
    model: Option<Vec<PointValue>>,
    /// the last `sat` rests on an existence proof: a model exists but has irrational values
    proved_only: bool,
    opts: &'a ScriptOptions,
    start: Instant,
    /// the options the script set (`set-option`)
    options: options::Options,
    last: Option<Answer>,
    /// every `check-sat` so far (the JSON report)
    answers: Vec<CheckSatAnswer>,
    /// the last command was a `check-sat` that answered `unknown`
    answered_unknown: bool,
    /// the run stopped at the time or memory limit
    stopped: bool,
    /// commands run (`icpic3 check`)
    commands: usize,
    /// assertions dropped as unsupported, where and why (`icpic3 check` warns of them)
    dropped: Vec<(Span, String)>,
}

/// What one command did to the run.
enum Flow {
    Go,
    Exit,
    Fail(InputError),
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
    match execute(name, text, opts, out, err) {
        Ok(run) => run.exit_code(),
        Err(_) => crate::cli::EXIT_BAD_INPUT,
    }
}

/// The script's result for `--format json`: the last `check-sat`'s answer, every
/// `check-sat` with its place, and the responses of the other commands as SMT-LIB text; or
/// the first error. Diagnostics go to `err` as in [`run`].
pub fn run_json(
    name: &str,
    text: &str,
    opts: &ScriptOptions,
    err: &mut dyn Write,
) -> Result<(serde_json::Value, i32), InputError> {
    let mut out = Vec::new();
    let run = execute(name, text, opts, &mut out, err)?;
    let answers: Vec<serde_json::Value> = run
        .answers
        .iter()
        .map(|a| {
            serde_json::json!({"line": a.line, "column": a.column, "answer": a.answer.text(),
                               "reason": a.reason})
        })
        .collect();
    let v = serde_json::json!({
        "input": "smtlib",
        "result": run.last.map_or("none", Answer::text),
        "check_sat": answers,
        "responses": String::from_utf8_lossy(&out),
        "time_s": run.start.elapsed().as_secs_f64(),
    });
    Ok((v, run.exit_code()))
}

/// What `icpic3 check` reports of a script.
pub struct ScriptSummary {
    pub commands: usize,
    pub check_sats: usize,
    /// the assertions a `check-sat` would drop (language doc E.1), as warnings
    pub dropped: Vec<Diagnostic>,
}

/// `icpic3 check FILE.smt2`: runs every command without solving (each `check-sat` elaborated
/// and lowered, then answered by nothing); the first error is reported on `err` in the
/// compiler's form, as `solve` reports it.
pub fn check(name: &str, text: &str, err: &mut dyn Write) -> Result<ScriptSummary, InputError> {
    let opts = ScriptOptions {
        config: SolverConfig::default(),
        timeout: None,
        verbose: 0,
        dry_run: true,
        engine: solve_cmd::ExprEngine::Portfolio,
        refine: false,
    };
    // the responses (`unknown` per check-sat, `(error ...)`) are not what check prints
    let run = execute(name, text, &opts, &mut std::io::sink(), err)?;
    Ok(ScriptSummary {
        commands: run.commands,
        check_sats: run.answers.len(),
        dropped: run
            .dropped
            .iter()
            .map(|(span, why)| Diagnostic::warning(*span, why.clone()))
            .collect(),
    })
}

fn execute<'a>(
    name: &str,
    text: &str,
    opts: &'a ScriptOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Run<'a>, InputError> {
    let sm = SourceMap::new(name, text);
    let mut run = Run::new(opts);
    let cmds = match sexpr::parse(text) {
        Ok(c) => c,
        Err(d) if solver::budget::stopped().is_some() => {
            run.stop(d.span, &sm, out, err);
            return Ok(run);
        }
        Err(d) => return Err(report_error(&sm, &d, out, err)),
    };
    for c in &cmds {
        match run.exec(c, text, &sm, out, err) {
            Flow::Go => {}
            Flow::Exit => break,
            Flow::Fail(e) => return Err(e),
        }
    }
    Ok(run)
}

/// Reads a script from `input` and answers each command as soon as it is complete (the
/// answer flushed before the next line is read), as portfolio frameworks drive solvers over
/// a pipe. Positions are in the text read so far; `name` stands for the stream (`<stdin>`).
pub fn run_stream(
    name: &str,
    input: &mut dyn std::io::BufRead,
    opts: &ScriptOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let mut text = String::new();
    let mut done = 0usize;
    let mut run = Run::new(opts);
    let mut line = Vec::new();
    loop {
        while let Some(len) = next_command_len(&text[done..]) {
            let end = done + len;
            let parsed = sexpr::parse(&text[done..end]);
            let sm = SourceMap::new(name, &text);
            let cmds = match parsed {
                Ok(cmds) => cmds,
                Err(mut d) => {
                    d.span = shifted(d.span, done);
                    report_error(&sm, &d, out, err);
                    return crate::cli::EXIT_BAD_INPUT;
                }
            };
            for mut c in cmds {
                shift(&mut c, done);
                match run.exec(&c, &text, &sm, out, err) {
                    Flow::Go => {}
                    Flow::Exit => return run.exit_code(),
                    Flow::Fail(_) => return crate::cli::EXIT_BAD_INPUT,
                }
            }
            let _ = out.flush();
            done = end;
        }
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => match std::str::from_utf8(&line) {
                Ok(l) => text.push_str(l),
                Err(_) => {
                    let at = text.len();
                    text.push_str(&String::from_utf8_lossy(&line));
                    let sm = SourceMap::new(name, &text);
                    let d = Diagnostic::error(Span::new(at, at), "the input is not valid UTF-8");
                    report_error(&sm, &d, out, err);
                    return crate::cli::EXIT_BAD_INPUT;
                }
            },
            Err(e) => {
                let _ = writeln!(err, "{name}: cannot read: {e}");
                return crate::cli::EXIT_BAD_INPUT;
            }
        }
    }
    // the end of the input: what is left is blanks and comments, or an unfinished command
    if let Err(mut d) = sexpr::parse(&text[done..]) {
        d.span = shifted(d.span, done);
        let sm = SourceMap::new(name, &text);
        report_error(&sm, &d, out, err);
        return crate::cli::EXIT_BAD_INPUT;
    }
    run.exit_code()
}

/// The length of the first complete top-level s-expression of `s` (with the blanks and
/// comments before it), or `None` while it is unfinished. A top-level atom counts as
/// complete at the delimiter after it (the reader then reports it).
fn next_command_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                // a string; `""` inside is an escaped quote
                i += 1;
                loop {
                    match b.get(i) {
                        None => return None,
                        Some(b'"') if b.get(i + 1) == Some(&b'"') => i += 2,
                        Some(b'"') => break,
                        Some(_) => i += 1,
                    }
                }
            }
            b'|' => {
                i += 1;
                while b.get(i) != Some(&b'|') {
                    if i >= b.len() {
                        return None;
                    }
                    i += 1;
                }
            }
            b'(' => depth += 1,
            b')' => {
                if depth <= 1 {
                    // `)` at the top level is an error the reader reports
                    return Some(i + 1);
                }
                depth -= 1;
            }
            c if c.is_ascii_whitespace() => {}
            _ if depth == 0 => {
                while i < b.len() && !b[i].is_ascii_whitespace() && !b"();".contains(&b[i]) {
                    i += 1;
                }
                return (i < b.len()).then_some(i);
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn shifted(s: Span, by: usize) -> Span {
    Span::new(s.start as usize + by, s.end as usize + by)
}

/// Moves every span of `e` by `by` bytes (iteratively: nesting can be deep).
fn shift(e: &mut SExpr, by: usize) {
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        x.span = shifted(x.span, by);
        if let SKind::List(l) = &mut x.kind {
            stack.extend(l.iter_mut());
        }
    }
}

/// Prints a bad-input diagnostic: `(error "FILE:LINE:COL: message")` on standard output, the
/// compiler-style report on standard error.
fn report_error(
    sm: &SourceMap<'_>,
    d: &Diagnostic,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> InputError {
    let _ = writeln!(out, "(error \"{}\")", sm.render(d).replace('"', "\"\""));
    let _ = writeln!(err, "{}", sm.report(d));
    InputError::at(sm, d)
}

fn is_check_sat(c: &SExpr) -> bool {
    matches!(c.head(), Some("check-sat" | "check-sat-assuming"))
}

fn is_query(c: &SExpr) -> bool {
    matches!(
        c.head(),
        Some("get-model" | "get-value" | "get-info" | "get-option")
    )
}

/// `(set-option :regular-output-channel ...)`: its response goes to the channel it sets.
fn is_output_option(c: &SExpr) -> bool {
    c.head() == Some("set-option")
        && matches!(args_of(c).first().map(|x| &x.kind),
                    Some(SKind::Keyword(k)) if k == "regular-output-channel")
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

impl<'a> Run<'a> {
    fn new(opts: &'a ScriptOptions) -> Run<'a> {
        Run {
            el: Elab::new(),
            levels: vec![Vec::new()],
            model: None,
            proved_only: false,
            opts,
            start: Instant::now(),
            options: options::Options::default(),
            last: None,
            answers: Vec::new(),
            answered_unknown: false,
            stopped: false,
            commands: 0,
            dropped: Vec::new(),
        }
    }

    /// Out of time or memory in a front-end phase (reading, elaboration, macro expansion,
    /// lowering): `unknown` (unless a check-sat just said so), the reason at the command on
    /// stderr, and the script ends there with exit code 0.
    fn stop(&mut self, span: Span, sm: &SourceMap<'_>, out: &mut dyn Write, err: &mut dyn Write) {
        let why = solver::budget::stopped().map_or("stopped", |s| s.text());
        if !self.answered_unknown {
            let _ = writeln!(out, "unknown");
        }
        let d = Diagnostic::error(span, format!("{why}: the script stops here"));
        let _ = writeln!(err, "{}", sm.render(&d));
        let _ = out.flush();
        self.stopped = true;
    }

    /// Part E.3: the last `check-sat`'s code, 0 without one.
    fn exit_code(&self) -> i32 {
        if self.stopped {
            return crate::cli::EXIT_OK;
        }
        self.last.map_or(crate::cli::EXIT_OK, Answer::exit_code)
    }

    /// Runs one command and sends its responses to the regular output channel
    /// (`:regular-output-channel`; standard output unless the script chose another). A
    /// command that changes the channel answers on the new one.
    fn exec(
        &mut self,
        c: &SExpr,
        text: &str,
        sm: &SourceMap<'_>,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Flow {
        if matches!(self.options.regular_output, Channel::Stdout) && !is_output_option(c) {
            return self.exec_on(c, text, sm, out, err);
        }
        let mut responses = Vec::new();
        let flow = self.exec_on(c, text, sm, &mut responses, err);
        let written = match &mut self.options.regular_output {
            Channel::Stdout => out.write_all(&responses).and_then(|_| out.flush()),
            Channel::Stderr => err.write_all(&responses).and_then(|_| err.flush()),
            Channel::File(_, f) => f.write_all(&responses).and_then(|_| f.flush()),
        };
        if let Err(e) = written {
            let _ = writeln!(
                err,
                "icpic3: cannot write to {}: {e}",
                self.options.regular_output.name()
            );
        }
        flow
    }

    /// Runs one command and reports its errors: a failed query (no model yet, an
    /// unsupported term) is reported and the script goes on, as SMT-LIB solvers do; any
    /// other error ends the run.
    fn exec_on(
        &mut self,
        c: &SExpr,
        text: &str,
        sm: &SourceMap<'_>,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Flow {
        if solver::budget::check_now().is_err() {
            self.stop(c.span, sm, out, err);
            return Flow::Exit;
        }
        self.commands += 1;
        let r = self.command(c, text, out, err);
        self.answered_unknown = matches!(self.last, Some(Answer::Unknown)) && is_check_sat(c);
        if r.is_err() && solver::budget::stopped().is_some() {
            self.stop(c.span, sm, out, err);
            return Flow::Exit;
        }
        let e = match r {
            Ok(true) => return Flow::Go,
            Ok(false) => return Flow::Exit,
            Err(E::Bad(d)) => d,
            Err(E::Unsup(span, why)) => Diagnostic::error(span, format!("unsupported: {why}")),
        };
        let failure = report_error(sm, &e, out, err);
        let _ = out.flush();
        if is_query(c) {
            Flow::Go
        } else {
            Flow::Fail(failure)
        }
    }

    fn ok(&self, out: &mut dyn Write) {
        if self.options.print_success {
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
            // SMT-LIB 2.6 §4.2.1: a logic the solver does not know is answered `unsupported`
            // (and the script goes on: what matters is what the terms use)
            "set-logic" => {
                let name = symbol_arg(c, 0)?;
                if a.len() != 1 {
                    return bad(c.span, "malformed set-logic");
                }
                if options::known_logic(name) {
                    self.ok(out);
                } else {
                    let _ = writeln!(out, "unsupported");
                }
            }
            "set-info" => {
                if !matches!(a.first().map(|x| &x.kind), Some(SKind::Keyword(_))) || a.len() > 2 {
                    return bad(c.span, "malformed set-info");
                }
                self.ok(out);
            }
            "set-option" => {
                let (Some(SKind::Keyword(k)), Some(v), 2) =
                    (a.first().map(|x| &x.kind), a.get(1), a.len())
                else {
                    return bad(
                        c.span,
                        "malformed set-option: a keyword and a value are expected",
                    );
                };
                match self.options.set(k, v)? {
                    SetResponse::Success => self.ok(out),
                    SetResponse::Unsupported => {
                        let _ = writeln!(out, "unsupported");
                    }
                }
            }
            "get-option" => {
                let (Some(SKind::Keyword(k)), 1) = (a.first().map(|x| &x.kind), a.len()) else {
                    return bad(c.span, "malformed get-option: a keyword is expected");
                };
                match self.options.get(k) {
                    Some(v) => {
                        let _ = writeln!(out, "{v}");
                    }
                    None => {
                        let _ = writeln!(out, "unsupported");
                    }
                }
            }
            "get-info" => match a.first().map(|x| &x.kind) {
                Some(SKind::Keyword(k)) if k == "reason-unknown" => {
                    let Some(why) = self
                        .answers
                        .last()
                        .filter(|x| x.answer == Answer::Unknown)
                        .map(|x| x.reason.clone().unwrap_or_else(|| "incomplete".into()))
                    else {
                        return bad(c.span, "the last check-sat did not answer unknown");
                    };
                    let _ = writeln!(out, "(:reason-unknown \"{}\")", why.replace('"', "\"\""));
                }
                Some(SKind::Keyword(k)) if k == "name" => {
                    let _ = writeln!(out, "(:name \"icpic3\")");
                }
                Some(SKind::Keyword(k)) if k == "version" => {
                    let _ = writeln!(out, "(:version \"{}\")", env!("CARGO_PKG_VERSION"));
                }
                Some(SKind::Keyword(k)) if k == "error-behavior" => {
                    let _ = writeln!(out, "(:error-behavior immediate-exit)");
                }
                Some(SKind::Keyword(k)) if k == "authors" => {
                    let _ = writeln!(out, "(:authors \"the icpic3 developers\")");
                }
                Some(SKind::Keyword(k)) if k == "assertion-stack-levels" => {
                    let _ = writeln!(out, "(:assertion-stack-levels {})", self.levels.len() - 1);
                }
                // a keyword icpic3 does not answer (`:all-statistics`, other solvers' keys)
                Some(SKind::Keyword(_)) if a.len() == 1 => {
                    let _ = writeln!(out, "unsupported");
                }
                _ => return bad(c.span, "malformed get-info: a keyword is expected"),
            },
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
                        self.dropped.push((span, format!("unsupported: {why}")));
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
                let _ = out.flush();
                let (l, col) = SourceMap::new("", text).line_col(c.span.start);
                // (a dry run has nothing to explain: `icpic3 check`, the fuzzer)
                if let (Some(w), false) = (&why, self.opts.dry_run) {
                    let _ = writeln!(
                        err,
                        "icpic3: check-sat at line {l}, column {col}: unknown: {w}"
                    );
                }
                self.last = Some(ans);
                self.answers.push(CheckSatAnswer {
                    line: l,
                    column: col,
                    answer: ans,
                    reason: why,
                });
            }
            "get-model" => {
                let Some(m) = &self.model else {
                    return bad(c.span, self.no_model());
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
                    return bad(c.span, self.no_model());
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
            | "get-unsat-assumptions" => {
                let _ = writeln!(out, "unsupported");
            }
            "echo" => {
                let (Some(SKind::Str(s)), 1) = (a.first().map(|x| &x.kind), a.len()) else {
                    return bad(c.span, "malformed echo: a string is expected");
                };
                let _ = writeln!(out, "\"{}\"", s.replace('"', "\"\""));
            }
            "reset" => {
                self.el = Elab::new();
                self.levels = vec![Vec::new()];
                self.model = None;
                self.proved_only = false;
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
        self.proved_only = false;
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
            refine: self.opts.refine,
        };
        let answer = solve_cmd::solve_expr(&checked, &f, &so);
        match answer.verdict {
            Verdict::Unsatisfiable => (Answer::Unsat, None),
            Verdict::Satisfiable if answer.proof.is_some() => {
                if !dropped.is_empty() {
                    return (
                        Answer::Unknown,
                        Some(format!(
                            "a solution was proved without {} unsupported assertion(s): {}",
                            dropped.len(),
                            dropped[0]
                        )),
                    );
                }
                // a solution exists, but its values are irrational: there is no exact model
                // for get-model/get-value
                self.model = None;
                self.proved_only = true;
                (Answer::Sat, None)
            }
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

    /// Why `get-model`/`get-value` have nothing to show.
    fn no_model(&self) -> &'static str {
        if self.proved_only {
            "no model is available: the solution's existence was proved (Krawczyk test or \
             interval evaluation), but not at an exact model"
        } else {
            "no model is available"
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
