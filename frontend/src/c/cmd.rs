//! The command-line side of the C front end: `icpic3 solve FILE.c` (SV-COMP answers) and
//! `icpic3 deadcode FILE.c` (per-goal report), with their output formats and exit codes.

use super::report::{ReportFormat, ReportOptions};
use super::{DataModel, DeadcodeLine};
use crate::report::InputError;
use crate::ts_cmd::TsOptions;
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

pub const EXIT_FALSE: i32 = 10;
pub const EXIT_TRUE: i32 = 20;

/// Is this a C file (`.c` or preprocessed `.i`)?
pub fn is_c_file(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "i"))
}

/// `icpic3 solve FILE.c`: first line `true`, `false` or `unknown` (SV-COMP `unreach-call`).
#[allow(clippy::too_many_arguments)]
pub fn solve(
    input: &super::inputs::InputOptions,
    model: DataModel,
    opts: &TsOptions,
    witness: Option<&Path>,
    json_out: bool,
    want_trace: bool,
    env_opts: &super::env::EnvOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let start = Instant::now();
    // bad input: the compiler-style report on standard error; `unknown` (text) or the JSON
    // error document on standard output
    let bad = |e: InputError, text: &str, out: &mut dyn Write, err: &mut dyn Write| {
        if let Some(stop) = solver::budget::stopped() {
            // out of time or memory while preprocessing, parsing or translating: not bad
            // input but `unknown` (issue #24)
            let _ = writeln!(err, "{text}");
            if json_out {
                let v =
                    serde_json::json!({"input": "c", "result": "unknown", "limit": stop.text()});
                let _ = writeln!(out, "{}", crate::report::document(v));
            } else {
                let _ = writeln!(out, "unknown\n-- {}", stop.text());
            }
            return crate::cli::EXIT_OK;
        }
        let _ = writeln!(err, "{text}");
        if json_out {
            let _ = writeln!(out, "{}", crate::report::document(e.json()));
        } else {
            let _ = writeln!(out, "unknown");
        }
        crate::cli::EXIT_BAD_INPUT
    };
    let f = match load_checked(input, model) {
        Ok(f) => f,
        Err(LoadError::Inputs(e)) => {
            let file = input.files.first().map(|p| p.display().to_string());
            let ie = InputError::unplaced(file.as_deref().unwrap_or(""), e.clone());
            return bad(ie, &format!("icpic3: {e}"), out, err);
        }
        Err(LoadError::C(e)) => return bad(c_error(&e), &c_report(&e), out, err),
    };
    let a = match super::svcomp_step(&f, model, opts, env_opts, want_trace) {
        Ok(a) => (a, f),
        Err(e) => return bad(c_error(&e), &c_report(&e), out, err),
    };
    let (a, file) = a;
    let path = Path::new(file.paths.first().map_or("", |p| p.as_str()));
    if matches!(a.verdict, "false" | "true") && env_opts.step.is_some() && witness.is_some() {
        let _ = writeln!(
            err,
            "icpic3: no witness for --step (SV-COMP witnesses describe runs of `main`)"
        );
    } else if let Some(w) = witness {
        let written = match a.verdict {
            "false" => Some(super::witness::violation_witness(path, model, &a)),
            "true" => Some(super::witness::correctness_witness(path, model, &a)),
            _ => None,
        };
        if let Some((text, notes)) = written {
            for n in notes {
                let _ = writeln!(err, "icpic3: witness: {n}");
            }
            if let Err(e) = std::fs::write(w, text) {
                let _ = writeln!(err, "icpic3: cannot write the witness {}: {e}", w.display());
            }
        }
    }
    if json_out {
        let inputs: Vec<serde_json::Value> = a
            .inputs
            .iter()
            .map(|(w, v)| json!({"input": w, "value": v.c_expr(), "text": v.c_text()}))
            .collect();
        // one JSON document, the verdict in `result` (docs D.6)
        let mut doc = json!({"input": "c", "result": a.verdict,
               "detail": a.detail, "inputs": inputs,
               "undefined_functions_nondet": a.undefined_fns,
               "assumptions": a.assumptions,
               "time_s": start.elapsed().as_secs_f64()});
        match &a.trace {
            Some(Ok(t)) => {
                doc["c_trace"] = t.json();
                doc["c_trace_truncated"] = json!(t.truncated);
            }
            Some(Err(why)) => doc["c_trace_error"] = json!(why),
            None => {}
        }
        let _ = writeln!(out, "{}", crate::report::document(doc));
    } else {
        let _ = writeln!(out, "{}", a.verdict);
        let _ = writeln!(out, "-- {}", a.detail);
        if !a.undefined_fns.is_empty() {
            let _ = writeln!(
                out,
                "-- undefined functions treated as returning nondeterministic values: {}",
                a.undefined_fns.join(", ")
            );
        }
        for x in &a.assumptions {
            let _ = writeln!(out, "-- assumes: {x}");
        }
        for (w, v) in &a.inputs {
            let _ = writeln!(out, "input {w} = {}", v.c_text());
        }
        match &a.trace {
            Some(Ok(t)) => {
                let _ = writeln!(
                    out,
                    "trace: the assignments of the confirmed gcc run, in order"
                );
                let _ = write!(out, "{}", t.text());
            }
            Some(Err(why)) => {
                let _ = writeln!(out, "trace: not available: {why}");
            }
            None => {}
        }
    }
    match a.verdict {
        "true" => EXIT_TRUE,
        "false" => EXIT_FALSE,
        _ => 0,
    }
}

/// `icpic3 check FILE.c`: preprocesses and parses the units, then translates `main` (or, when
/// there is none, every function) as `solve` and `deadcode` would, without solving anything.
/// Prints the functions with their control-flow nodes, goals (decision outcomes, error
/// calls, undefined-behaviour checks) and variables; the first error in the compiler's form
/// (exit 1).
pub fn check(
    input: &super::inputs::InputOptions,
    model: DataModel,
    json_out: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let f = match load_checked(input, model) {
        Ok(f) => f,
        Err(LoadError::Inputs(e)) => {
            let _ = writeln!(err, "icpic3: {e}");
            return crate::cli::EXIT_BAD_INPUT;
        }
        Err(LoadError::C(e)) => {
            let _ = writeln!(err, "{}", c_report(&e));
            return crate::cli::EXIT_BAD_INPUT;
        }
    };
    let functions = super::functions(&f);
    let entries: Vec<&String> = match functions.iter().find(|n| *n == "main") {
        Some(m) => vec![m],
        None => functions.iter().collect(),
    };
    let mut lowered = Vec::new();
    for name in entries {
        match super::lower_fn(&f, model, name, true) {
            Ok(cfg) => lowered.push((name.clone(), cfg)),
            Err(e) => {
                let _ = writeln!(err, "{}", c_report(&e));
                return crate::cli::EXIT_BAD_INPUT;
            }
        }
    }
    let files = f.paths.join(", ");
    if json_out {
        let fns: Vec<serde_json::Value> = lowered
            .iter()
            .map(|(n, cfg)| {
                json!({"function": n, "nodes": cfg.nodes.len(), "goals": cfg.goals.len(),
                       "variables": cfg.vars.len()})
            })
            .collect();
        let v = json!({"file": files, "form": "C program", "functions": functions,
                       "lowered": fns});
        let _ = writeln!(out, "{v}");
    } else {
        let _ = writeln!(out, "{files}: C program");
        let _ = writeln!(out, "functions: {}", functions.join(", "));
        for (n, cfg) in &lowered {
            let _ = writeln!(
                out,
                "{n}: {} control-flow nodes, {} goals, {} variables",
                cfg.nodes.len(),
                cfg.goals.len(),
                cfg.vars.len()
            );
        }
    }
    crate::cli::EXIT_OK
}

/// What the analysis thread of `deadcode` tells the thread that writes the report.
enum Event {
    /// a function's report lines are known (their number)
    Started(usize),
    /// a goal's line is final: its status and, with `--format jsonl`, its JSON line (`None`
    /// for a file-scope goal, which is merged across the analysed functions at the end)
    Goal(&'static str, Option<String>),
    /// a message for standard error
    Message(String),
    /// the analysis of the next function starts
    Function,
}

/// The collected answers of every analysed function.
#[derive(Default)]
struct Analysis {
    all: Vec<DeadcodeLine>,
    skipped: Vec<(String, String)>,
    undefined: Vec<String>,
    assumptions: Vec<String>,
    envs: Vec<(String, bool, super::env::EnvReport)>,
}

/// Analyses the functions in turn, telling `tx` what is decided as it is.
#[allow(clippy::too_many_arguments)]
fn analyse(
    file: &super::CFile,
    fns: &[String],
    model: DataModel,
    opts: &TsOptions,
    per_goal: Duration,
    jobs: usize,
    env_opts: &super::env::EnvOptions,
    jsonl: bool,
    want_trace: bool,
    tx: &std::sync::mpsc::Sender<Event>,
) -> Analysis {
    let mut a = Analysis::default();
    let tx_goal = std::sync::Mutex::new(tx.clone());
    let started = |n: usize| {
        let _ = tx_goal
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(Event::Started(n));
    };
    let decided = |l: &DeadcodeLine| {
        let line = (jsonl && !l.function.is_empty()).then(|| super::report::jsonl_goal(l));
        let _ = tx_goal
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(Event::Goal(l.status, line));
    };
    let hooks = super::DeadcodeHooks {
        started: Some(&started),
        decided: Some(&decided),
    };
    for f in fns {
        let _ = tx.send(Event::Function);
        // the environment: a step function's loop, or the input globals of one call (not of
        // `main`, which starts the program: its globals start at their initializers)
        let plan = if env_opts.step.is_some() || f != "main" {
            match super::env::plan(file, model, f, env_opts) {
                Ok((p, r)) => {
                    a.envs.push((f.clone(), p.looped, r));
                    Some(p)
                }
                Err(e) => {
                    let _ = tx.send(Event::Message(format!("{e} (function `{f}` skipped)")));
                    a.skipped.push((f.clone(), e.to_string()));
                    continue;
                }
            }
        } else {
            None
        };
        match super::deadcode_with(
            file,
            model,
            f,
            opts,
            Some(per_goal),
            jobs,
            plan.as_ref(),
            hooks,
        ) {
            Ok((mut lines, undef, assume)) => {
                if want_trace {
                    if let Err(e) =
                        super::add_goal_traces(file, model, f, plan.as_ref(), &mut lines)
                    {
                        let _ = tx.send(Event::Message(format!("{e} (no traces for `{f}`)")));
                    }
                }
                a.all.extend(lines);
                for x in assume {
                    if !a.assumptions.contains(&x) {
                        a.assumptions.push(x);
                    }
                }
                for u in undef {
                    if !a.undefined.contains(&u) {
                        a.undefined.push(u);
                    }
                }
            }
            Err(e) => {
                let _ = tx.send(Event::Message(format!("{e} (function `{f}` skipped)")));
                a.skipped.push((f.clone(), e.to_string()));
            }
        }
    }
    a
}

/// Stack of the analysis thread (as `main`'s command thread: syntax trees are deep).
const ANALYSIS_STACK: usize = 256 << 20;

/// `icpic3 deadcode FILE.c`.
#[allow(clippy::too_many_arguments)]
pub fn deadcode(
    input: &super::inputs::InputOptions,
    function: Option<&str>,
    model: DataModel,
    opts: &TsOptions,
    per_goal: Duration,
    jobs: usize,
    report: &ReportOptions,
    env_opts: &super::env::EnvOptions,
    tests_dir: Option<&Path>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let start = Instant::now();
    super::report::install_signal_handlers();
    let json_out = report.format == ReportFormat::Json;
    let jsonl = report.format == ReportFormat::Jsonl;
    // the traces appear in the text and JSON reports only (the jsonl lines go out as goals
    // are decided, before any trace; SARIF, lcov and HTML have no place for them)
    let want_trace = report.trace && (json_out || report.format == ReportFormat::Text);
    if report.trace && !want_trace {
        let _ = writeln!(
            err,
            "icpic3: --trace applies to the text and json formats (ignored)"
        );
    }
    let Some(file) = load(input, model, err) else {
        return crate::cli::EXIT_BAD_INPUT;
    };
    if let Some(d) = tests_dir {
        if let Err(e) = std::fs::create_dir_all(d) {
            let _ = writeln!(err, "icpic3: cannot create {}: {e}", d.display());
            return crate::cli::EXIT_BAD_INPUT;
        }
    }
    if let Some(d) = &report.html {
        if let Err(e) = std::fs::create_dir_all(d) {
            let _ = writeln!(err, "icpic3: cannot create {}: {e}", d.display());
            return crate::cli::EXIT_BAD_INPUT;
        }
    }
    let fns: Vec<String> = match (env_opts.step.as_deref(), function) {
        (Some(f), _) | (None, Some(f)) => vec![f.to_string()],
        (None, None) => {
            let all = super::functions(&file);
            if all.iter().any(|f| f == "main") {
                vec!["main".to_string()]
            } else {
                all
            }
        }
    };
    // the analysis runs in a thread of its own; this one writes what is decided as it comes
    // (`--format jsonl`) and the progress line
    let criterion = super::mcdc::current();
    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    let mut progress = super::report::Progress::new(start, fns.len());
    let analysis = std::thread::scope(|s| {
        let (file, fns) = (&file, &fns);
        let worker = std::thread::Builder::new()
            .name("deadcode".into())
            .stack_size(ANALYSIS_STACK)
            .spawn_scoped(s, move || {
                super::mcdc::with_criterion(criterion, || {
                    analyse(
                        file, fns, model, opts, per_goal, jobs, env_opts, jsonl, want_trace, &tx,
                    )
                })
            });
        let worker = match worker {
            Ok(w) => w,
            Err(e) => {
                let _ = writeln!(err, "icpic3: cannot start the analysis thread: {e}");
                return None;
            }
        };
        loop {
            match rx.recv_timeout(Duration::from_millis(500)) {
                Ok(Event::Started(n)) => progress.total += n,
                Ok(Event::Function) => progress.function.0 += 1,
                Ok(Event::Goal(status, line)) => {
                    progress.count(status);
                    if let Some(l) = line {
                        let _ = writeln!(out, "{l}");
                        let _ = out.flush();
                    }
                }
                Ok(Event::Message(m)) => {
                    progress.clear();
                    let _ = writeln!(err, "{m}");
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
            progress.draw();
        }
        progress.clear();
        Some(worker.join())
    });
    let Analysis {
        all,
        skipped,
        undefined,
        assumptions,
        envs,
    } = match analysis {
        Some(Ok(a)) => a,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        None => return crate::cli::EXIT_INTERNAL,
    };
    let interrupted = super::report::interrupted_by();
    let all = super::merge_file_scope(all);
    let count = |s: &str| all.iter().filter(|l| l.status == s).count();
    let (dead, reach, unk) = (count("DEAD"), count("REACHABLE"), count("UNKNOWN"));
    let code = if !skipped.is_empty() && all.is_empty() {
        crate::cli::EXIT_BAD_INPUT
    } else if let Some(sig) = interrupted {
        128 + sig
    } else if report.fail_on_dead && dead > 0 {
        super::report::EXIT_DEAD
    } else {
        0
    };
    let summary = || {
        json!({"dead": dead, "reachable": reach, "unknown": unk,
               "undefined_functions_nondet": undefined,
               "assumptions": assumptions,
               "environment": envs.iter().map(|(f, looped, r)| json!({"function": f, "step": looped, "inputs": r.inputs, "parameters": r.params, "state": r.state, "volatile": r.volatile})).collect::<Vec<_>>(),
               "skipped_functions": skipped.iter().map(|s| json!({"function": s.0, "error": s.1})).collect::<Vec<_>>()})
    };
    let facts = super::report::RunFacts {
        time_s: start.elapsed().as_secs_f64(),
        jobs,
        interrupted,
        exit_code: code,
        undefined: &undefined,
        assumptions: &assumptions,
        skipped: &skipped,
    };
    if let Some(d) = &report.html {
        let page = super::html::page(&all, &facts);
        let path = d.join("index.html");
        if let Err(e) = std::fs::write(&path, page) {
            let _ = writeln!(err, "icpic3: cannot write {}: {e}", path.display());
        }
    }
    if let Some(sig) = interrupted {
        let _ = writeln!(
            err,
            "icpic3: interrupted by {}: {dead} DEAD, {reach} REACHABLE, {unk} UNKNOWN (the goals not decided by then are UNKNOWN)",
            super::report::signal_name(sig)
        );
    }
    if jsonl {
        // the file-scope goals, merged across the analysed functions, then the summary
        for l in all.iter().filter(|l| l.function == super::FILE_SCOPE) {
            let _ = writeln!(out, "{}", super::report::jsonl_goal(l));
        }
        let _ = writeln!(
            out,
            "{}",
            json!({"type": "summary", "format_version": super::report::FORMAT_VERSION,
                   "goals": all.len(), "summary": summary(),
                   "interrupted": interrupted.map(super::report::signal_name),
                   "exit_code": code,
                   "time_s": start.elapsed().as_secs_f64(), "jobs": jobs})
        );
        let _ = out.flush();
    } else if report.format == ReportFormat::Sarif {
        let doc = super::report::sarif(&all, &facts);
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        );
    } else if report.format == ReportFormat::Lcov {
        let _ = write!(out, "{}", super::report::lcov(&all));
    } else if json_out {
        let goals: Vec<serde_json::Value> = all.iter().map(super::report::goal_json).collect();
        let mut doc = json!({"goals": goals, "summary": summary(),
                   "time_s": start.elapsed().as_secs_f64(), "jobs": jobs});
        if let Some(sig) = interrupted {
            doc["interrupted"] = json!(super::report::signal_name(sig));
        }
        let _ = writeln!(out, "{doc}");
    } else {
        for l in &all {
            let _ = writeln!(
                out,
                "{}  {}  ({:.2} s)  ({} in {}) {}",
                l.pos,
                l.status,
                l.time_s,
                l.kind.name(),
                l.function,
                l.detail
            );
            match &l.test {
                Some(t) => {
                    let _ = writeln!(out, "    test case: {} step(s)", t.steps.len());
                    if !t.setup.is_empty() {
                        let _ = writeln!(out, "    before the first step: {}", pairs(&t.setup));
                    }
                    // a long run: its start and the steps that lead to the goal
                    let n = t.steps.len();
                    for (k, s) in t.steps.iter().enumerate() {
                        if n > 10 && k == 2 {
                            let _ = writeln!(out, "    steps 3 to {}: omitted here (--tests DIR and --format json have every step)", n - 5);
                        }
                        if n <= 10 || k < 2 || k >= n - 5 {
                            let _ = writeln!(out, "    step {}: {}", k + 1, pairs(s));
                        }
                    }
                }
                None => {
                    for (w, v) in &l.inputs {
                        let _ = writeln!(out, "    input {w} = {}", v.c_text());
                    }
                }
            }
            match &l.trace {
                Some(Ok(t)) => {
                    let _ = writeln!(out, "    trace: the assignments of the run, in order");
                    for line in t.text().lines() {
                        let _ = writeln!(out, "    {line}");
                    }
                }
                Some(Err(why)) => {
                    let _ = writeln!(out, "    trace: not available: {why}");
                }
                None => {}
            }
            // an MC/DC pair: both test cases, labelled
            for (label, inputs) in &l.tests {
                let _ = writeln!(out, "    {label}");
                for (w, v) in inputs {
                    let _ = writeln!(out, "      input {w} = {}", v.c_text());
                }
            }
        }
        for (f, looped, r) in &envs {
            let list = |v: &[String]| {
                if v.is_empty() {
                    "none".to_string()
                } else {
                    v.join(", ")
                }
            };
            if *looped {
                let _ = writeln!(
                    out,
                    "environment of step function {f}: inputs (fresh every step): {}",
                    list(&r.inputs)
                );
                let _ = writeln!(
                    out,
                    "environment of step function {f}: parameters (one value per run): {}",
                    list(&r.params)
                );
            } else {
                let _ = writeln!(
                    out,
                    "environment of {f}: inputs (arbitrary at the call): {}",
                    list(&r.inputs)
                );
            }
            let _ = writeln!(
                out,
                "environment of {f}: state (written by the unit): {}",
                list(&r.state)
            );
            if !r.volatile.is_empty() {
                let _ = writeln!(
                    out,
                    "environment of {f}: volatile (any value at every read): {}",
                    r.volatile.join(", ")
                );
            }
        }
        if !undefined.is_empty() {
            let _ = writeln!(
                out,
                "undefined functions treated as returning nondeterministic values: {}",
                undefined.join(", ")
            );
        }
        for a in &assumptions {
            let _ = writeln!(out, "assumes: {a}");
        }
        if let Some(sig) = interrupted {
            let _ = writeln!(
                out,
                "interrupted by {}: the goals not decided by then are UNKNOWN",
                super::report::signal_name(sig)
            );
        }
        let _ = writeln!(
            out,
            "summary: {} goal(s): {dead} DEAD, {reach} REACHABLE, {unk} UNKNOWN; {} function(s) skipped; {:.2} s with {jobs} job(s)",
            all.len(),
            skipped.len(),
            start.elapsed().as_secs_f64()
        );
    }
    if let Some(d) = tests_dir {
        for l in all.iter().filter(|l| l.status == "REACHABLE") {
            let csv = match &l.test {
                Some(t) => t.csv(),
                None => flat_csv(&l.inputs),
            };
            let stem: String = Path::new(&l.pos.file)
                .file_name()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            let name = format!("{stem}_{}_{}_{}.csv", l.pos.line, l.pos.col, l.kind.name());
            if let Err(e) = std::fs::write(d.join(&name), csv) {
                let _ = writeln!(err, "icpic3: cannot write {}: {e}", d.join(&name).display());
            }
        }
    }
    code
}

/// `a = 1, b = 2.5`
fn pairs(v: &[(String, super::replay::InputValue)]) -> String {
    v.iter()
        .map(|(n, x)| format!("{n} = {}", x.c_text()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The test case of a goal without a step loop: one row, one column per input.
fn flat_csv(inputs: &[(String, super::replay::InputValue)]) -> String {
    let q = super::env::csv_field;
    let head: Vec<String> = inputs.iter().map(|x| q(&x.0)).collect();
    let row: Vec<String> = inputs.iter().map(|x| q(&x.1.c_text())).collect();
    format!("{}\n{}\n", head.join(","), row.join(","))
}

/// Resolves the input files and loads them (the error is written to `err`).
/// Why the C input did not load: the inputs (files, compile commands) or the program.
enum LoadError {
    Inputs(String),
    C(super::parse::CError),
}

fn load_checked(
    input: &super::inputs::InputOptions,
    model: DataModel,
) -> Result<super::CFile, LoadError> {
    let units = input.units().map_err(LoadError::Inputs)?;
    let abi = super::Abi {
        unsigned_char: input.unsigned_char,
        arm_eabi: input.arm_eabi,
    };
    super::load_units_for(&units, model, abi, input.undefined_nondet).map_err(LoadError::C)
}

fn load(
    input: &super::inputs::InputOptions,
    model: DataModel,
    err: &mut dyn Write,
) -> Option<super::CFile> {
    match load_checked(input, model) {
        Ok(f) => Some(f),
        Err(LoadError::Inputs(e)) => {
            let _ = writeln!(err, "icpic3: {e}");
            None
        }
        Err(LoadError::C(e)) => {
            let _ = writeln!(err, "{e}");
            None
        }
    }
}

/// A C error as `solve` reports it: compiler style, with the source line and a caret when
/// the position is in a readable file.
fn c_report(e: &super::parse::CError) -> String {
    if e.pos.line == 0 {
        return e.to_string();
    }
    crate::diag::report_at(&e.pos.file, e.pos.line, e.pos.col, &e.msg)
}

fn c_error(e: &super::parse::CError) -> InputError {
    InputError {
        file: e.pos.file.clone(),
        line: (e.pos.line > 0).then_some(e.pos.line),
        column: (e.pos.line > 0 && e.pos.col > 0).then_some(e.pos.col),
        message: e.msg.clone(),
    }
}
