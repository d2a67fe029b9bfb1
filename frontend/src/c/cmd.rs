//! The command-line side of the C front end: `icpic3 solve FILE.c` (SV-COMP answers) and
//! `icpic3 deadcode FILE.c` (per-goal report), with their output formats and exit codes.

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
    env_opts: &super::env::EnvOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let start = Instant::now();
    // bad input: the compiler-style report on standard error; `unknown` (text) or the JSON
    // error document on standard output
    let bad = |e: InputError, text: &str, out: &mut dyn Write, err: &mut dyn Write| {
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
    let a = match super::svcomp_step(&f, model, opts, env_opts) {
        Ok(a) => (a, f),
        Err(e) => return bad(c_error(&e), &c_report(&e), out, err),
    };
    let (a, file) = a;
    let path = Path::new(file.paths.first().map_or("", |p| p.as_str()));
    if a.verdict == "false" && env_opts.step.is_some() && witness.is_some() {
        let _ = writeln!(
            err,
            "icpic3: no witness for --step (SV-COMP witnesses describe runs of `main`)"
        );
    } else if a.verdict == "false" {
        if let Some(w) = witness {
            let text = super::witness::violation_witness(path, model, &a);
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
        let _ = writeln!(
            out,
            "{}",
            crate::report::document(json!({"input": "c", "result": a.verdict,
                   "detail": a.detail, "inputs": inputs,
                   "undefined_functions_nondet": a.undefined_fns,
                   "assumptions": a.assumptions,
                   "time_s": start.elapsed().as_secs_f64()}))
        );
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
    }
    match a.verdict {
        "true" => EXIT_TRUE,
        "false" => EXIT_FALSE,
        _ => 0,
    }
}

/// `icpic3 deadcode FILE.c`.
#[allow(clippy::too_many_arguments)]
pub fn deadcode(
    input: &super::inputs::InputOptions,
    function: Option<&str>,
    model: DataModel,
    opts: &TsOptions,
    per_goal: Duration,
    jobs: usize,
    json_out: bool,
    env_opts: &super::env::EnvOptions,
    tests_dir: Option<&Path>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let start = Instant::now();
    let Some(file) = load(input, model, err) else {
        return crate::cli::EXIT_BAD_INPUT;
    };
    if let Some(d) = tests_dir {
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
    let mut all: Vec<DeadcodeLine> = Vec::new();
    let mut skipped = Vec::new();
    let mut undefined: Vec<String> = Vec::new();
    let mut assumptions: Vec<String> = Vec::new();
    let mut envs: Vec<(String, bool, super::env::EnvReport)> = Vec::new();
    for f in &fns {
        // the environment: a step function's loop, or the input globals of one call (not of
        // `main`, which starts the program: its globals start at their initializers)
        let plan = if env_opts.step.is_some() || f != "main" {
            match super::env::plan(&file, model, f, env_opts) {
                Ok((p, r)) => {
                    envs.push((f.clone(), p.looped, r));
                    Some(p)
                }
                Err(e) => {
                    let _ = writeln!(err, "{e} (function `{f}` skipped)");
                    skipped.push((f.clone(), e.to_string()));
                    continue;
                }
            }
        } else {
            None
        };
        match super::deadcode(&file, model, f, opts, Some(per_goal), jobs, plan.as_ref()) {
            Ok((lines, undef, assume)) => {
                all.extend(lines);
                for a in assume {
                    if !assumptions.contains(&a) {
                        assumptions.push(a);
                    }
                }
                for u in undef {
                    if !undefined.contains(&u) {
                        undefined.push(u);
                    }
                }
            }
            Err(e) => {
                let _ = writeln!(err, "{e} (function `{f}` skipped)");
                skipped.push((f.clone(), e.to_string()));
            }
        }
    }
    let all = super::merge_file_scope(all);
    let count = |s: &str| all.iter().filter(|l| l.status == s).count();
    let (dead, reach, unk) = (count("DEAD"), count("REACHABLE"), count("UNKNOWN"));
    if json_out {
        let goals: Vec<serde_json::Value> = all
            .iter()
            .map(|l| {
                let mut g = json!({
                    "file": l.pos.file, "line": l.pos.line, "column": l.pos.col,
                    "function": l.function, "kind": l.kind.name(), "status": l.status,
                    "detail": l.detail, "time_s": l.time_s,
                    "inputs": l.inputs.iter().map(|(w, v)| json!({"input": w, "value": v.c_expr()})).collect::<Vec<_>>(),
                    "test_case": l.test.as_ref().map(|t| t.json()),
                });
                super::mcdc::json_fields(l, &mut g);
                g
            })
            .collect();
        let _ = writeln!(
            out,
            "{}",
            json!({"goals": goals, "summary": {"dead": dead, "reachable": reach, "unknown": unk,
                   "undefined_functions_nondet": undefined,
                   "assumptions": assumptions,
                   "environment": envs.iter().map(|(f, looped, r)| json!({"function": f, "step": looped, "inputs": r.inputs, "parameters": r.params, "state": r.state, "volatile": r.volatile})).collect::<Vec<_>>(),
                   "skipped_functions": skipped.iter().map(|s| json!({"function": s.0, "error": s.1})).collect::<Vec<_>>()},
                   "time_s": start.elapsed().as_secs_f64(), "jobs": jobs})
        );
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
    if !skipped.is_empty() && all.is_empty() {
        return crate::cli::EXIT_BAD_INPUT;
    }
    0
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
