//! The machine-readable `deadcode` reports beside the text and JSON ones: streamed JSON lines
//! (`--format jsonl`), SARIF 2.1.0 (`--format sarif`), an lcov tracefile (`--format lcov`),
//! plus the progress line on a terminal, the SIGINT/SIGTERM handling and the exit codes of
//! `--fail-on-dead` and of an interrupted run (docs/c-frontend.md, "Reports for CI and
//! editors"). The HTML report is [`super::html`].

use super::cfg::GoalKind;
use super::DeadcodeLine;
use serde_json::{json, Value};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Instant;

/// `deadcode --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    Text,
    Json,
    Jsonl,
    Sarif,
    Lcov,
}

/// What `deadcode` writes and how it exits.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    pub format: ReportFormat,
    /// `--html DIR`: also write `DIR/index.html`
    pub html: Option<PathBuf>,
    /// `--fail-on-dead`: exit with [`EXIT_DEAD`] when some goal is DEAD
    pub fail_on_dead: bool,
    /// `--trace`: each REACHABLE goal's run as C assignments (text and `--format json`)
    pub trace: bool,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            format: ReportFormat::Text,
            html: None,
            trace: false,
            fail_on_dead: false,
        }
    }
}

/// The version of the `--format jsonl` line objects (`"format_version"` in every line).
pub const FORMAT_VERSION: u32 = 1;

/// `deadcode --fail-on-dead`: some goal is DEAD. The code of `solve`'s `false` (the analysis
/// found what the command looks for); 0 stays "nothing found or not known", 1–3 errors.
pub const EXIT_DEAD: i32 = 10;

/// The signal that interrupted the run (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Installs the SIGINT/SIGTERM handlers (once per process): the first signal asks the goal
/// loop and every engine to stop ([`ic3::engine::request_stop`]) so that the run ends with
/// the goals decided so far; a second one ends the process at once (exit 128 + signal).
pub fn install_signal_handlers() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            // SAFETY: the handler only loads and stores atomics and calls `_exit`, all
            // async-signal-safe.
            let r = unsafe {
                signal_hook::low_level::register(sig, move || {
                    if ic3::engine::stop_requested() {
                        signal_hook::low_level::exit(128 + sig);
                    }
                    SIGNAL.store(sig, Ordering::SeqCst);
                    ic3::engine::stop_flag().store(true, Ordering::SeqCst);
                })
            };
            if let Err(e) = r {
                eprintln!("icpic3: cannot install the handler of signal {sig}: {e}");
            }
        }
    });
}

/// The signal that interrupted the run, if one did (`None` when the stop was requested
/// otherwise, or not at all).
pub fn interrupted_by() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The name of a signal number (`SIGINT`, `SIGTERM`).
pub fn signal_name(sig: i32) -> String {
    match sig {
        signal_hook::consts::SIGINT => "SIGINT".into(),
        signal_hook::consts::SIGTERM => "SIGTERM".into(),
        s => format!("signal {s}"),
    }
}

/// One goal of `--format json` (and of a `--format jsonl` goal line).
pub fn goal_json(l: &DeadcodeLine) -> Value {
    let mut g = json!({
        "file": l.pos.file, "line": l.pos.line, "column": l.pos.col,
        "function": l.function, "kind": l.kind.name(), "status": l.status,
        "detail": l.detail, "time_s": l.time_s,
        "inputs": l.inputs.iter().map(|(w, v)| json!({"input": w, "value": v.c_expr()})).collect::<Vec<_>>(),
        "test_case": l.test.as_ref().map(|t| t.json()),
    });
    match &l.trace {
        Some(Ok(t)) => {
            g["c_trace"] = t.json();
            g["c_trace_truncated"] = json!(t.truncated);
        }
        Some(Err(why)) => g["c_trace_error"] = json!(why),
        None => {}
    }
    super::mcdc::json_fields(l, &mut g);
    g
}

/// A `--format jsonl` goal line: `{"type": "goal", "format_version": 1, ...goal_json}`.
pub fn jsonl_goal(l: &DeadcodeLine) -> String {
    let mut g = goal_json(l);
    if let Some(o) = g.as_object_mut() {
        o.insert("type".into(), json!("goal"));
        o.insert("format_version".into(), json!(FORMAT_VERSION));
    }
    g.to_string()
}

/// The engine that proved a DEAD goal, from its detail (`proved unreachable (ENGINE)`).
pub fn proof_engine(detail: &str) -> Option<&str> {
    let at = detail.find("proved unreachable (")? + "proved unreachable (".len();
    let rest = &detail[at..];
    // up to the matching parenthesis
    let mut depth = 1;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&rest[..i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Is a goal of this kind a coverage goal (a branch outcome or a condition value), whose DEAD
/// is dead code? The others (error calls and undefined-behaviour checks) are problems when
/// REACHABLE and proved absent when DEAD.
pub fn is_coverage_kind(k: GoalKind) -> bool {
    !(k.is_ub() || k == GoalKind::Error)
}

/// The goal kinds in report order, for SARIF's rules.
fn rule_kinds() -> Vec<(&'static str, bool, &'static str)> {
    // (kind, coverage goal, what its DEAD/REACHABLE means)
    vec![
        ("then", true, "the then-branch of an `if`"),
        (
            "else",
            true,
            "the else-branch of an `if` (at the condition when there is no `else`)",
        ),
        ("case", true, "a `case` of a `switch`"),
        (
            "default",
            true,
            "the `default` of a `switch` (also an implicit one)",
        ),
        ("loop-body", true, "entry into a loop's body"),
        (
            "condition-true",
            true,
            "an atomic condition evaluates to true (`--criterion condition`)",
        ),
        (
            "condition-false",
            true,
            "an atomic condition evaluates to false (`--criterion condition`)",
        ),
        (
            "mcdc",
            true,
            "an MC/DC independence pair of a condition (`--criterion mcdc`)",
        ),
        (
            "error-call",
            false,
            "a call of `reach_error()`/`__VERIFIER_error()`/`abort()`-like error function",
        ),
        ("signed-overflow", false, "signed integer overflow"),
        (
            "division-by-zero",
            false,
            "integer division or remainder by zero",
        ),
        (
            "float-to-int-out-of-range",
            false,
            "conversion of a floating value out of the integer type's range",
        ),
        (
            "invalid-shift",
            false,
            "a shift by a negative amount or by the type's width or more",
        ),
        (
            "array-index-out-of-bounds",
            false,
            "an array index out of bounds",
        ),
        (
            "invalid-pointer-access",
            false,
            "a read or write through a null, dangling or out-of-object pointer",
        ),
    ]
}

/// A file path as a URI reference: relative paths stay relative (to `%SRCROOT%`, the working
/// directory), absolute ones become `file://` URIs; bytes outside RFC 3986's unreserved set
/// and `/` are percent-encoded.
fn path_uri(path: &str) -> (String, bool) {
    let mut s = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    if path.starts_with('/') {
        (format!("file://{s}"), true)
    } else {
        (s, false)
    }
}

/// The run's facts that the reports carry beside the goals.
pub struct RunFacts<'a> {
    pub time_s: f64,
    pub jobs: usize,
    pub interrupted: Option<i32>,
    pub exit_code: i32,
    pub undefined: &'a [String],
    pub assumptions: &'a [String],
    pub skipped: &'a [(String, String)],
}

/// `--format sarif`: one SARIF 2.1.0 log with one run. Every goal is a result of the rule of
/// its kind (`deadcode/KIND`), located at the goal's file, line and column, with the
/// function as logical location:
/// - a DEAD branch goal (dead code) is `kind: fail`, `level: warning`, with the proof engine;
/// - a REACHABLE error call or undefined-behaviour check is `kind: fail`, `level: error`,
///   with the test case (the inputs of the confirmed run);
/// - a REACHABLE branch goal and a DEAD error call/UB check are `kind: pass` (`level: none`),
///   with the test case or the proof engine;
/// - UNKNOWN is `kind: review` (`level: none`) with the reason.
///
/// `properties` of each result: `status`, `detail`, `function`, `time_s`, and `engine` (DEAD)
/// or `test_case`/`inputs` (REACHABLE).
pub fn sarif(lines: &[DeadcodeLine], facts: &RunFacts) -> Value {
    let kinds = rule_kinds();
    let rules: Vec<Value> = kinds
        .iter()
        .map(|(k, coverage, what)| {
            let (short, full, level) = if *coverage {
                (
                    format!("Dead code: {what} can never be taken"),
                    format!("Goal `{k}`: {what}. DEAD (proved never taken) is reported as a warning; REACHABLE (confirmed by running the gcc-compiled program on the test case) passes; UNKNOWN asks for review."),
                    "warning",
                )
            } else {
                (
                    format!("Reachable: {what}"),
                    format!("Goal `{k}`: {what}. REACHABLE (confirmed by running the gcc-compiled program on the test case) is reported as an error; DEAD (proved impossible) passes; UNKNOWN asks for review."),
                    "error",
                )
            };
            json!({
                "id": format!("deadcode/{k}"),
                "name": k.split('-').map(|w| {
                    let mut c = w.chars();
                    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
                }).collect::<String>(),
                "shortDescription": {"text": short},
                "fullDescription": {"text": full},
                "defaultConfiguration": {"level": level},
                "properties": {"goal_kind": k, "coverage_goal": coverage},
            })
        })
        .collect();
    let mut relative = false;
    let results: Vec<Value> = lines
        .iter()
        .map(|l| {
            let k = l.kind.name();
            let idx = kinds.iter().position(|x| x.0 == k);
            let coverage = is_coverage_kind(l.kind);
            let what = idx.map_or(k, |i| kinds[i].2);
            let (kind, level, text) = match (l.status, coverage) {
                ("DEAD", true) => (
                    "fail",
                    "warning",
                    format!(
                        "Dead code: {what} is never taken in `{}` ({})",
                        l.function, l.detail
                    ),
                ),
                ("DEAD", false) => (
                    "pass",
                    "none",
                    format!("Cannot happen in `{}`: {what} ({})", l.function, l.detail),
                ),
                ("REACHABLE", true) => (
                    "pass",
                    "none",
                    format!(
                        "Covered in `{}`: {what} is reached {}",
                        l.function, l.detail
                    ),
                ),
                ("REACHABLE", false) => (
                    "fail",
                    "error",
                    format!("Reachable in `{}`: {what}, {}", l.function, l.detail),
                ),
                _ => (
                    "review",
                    "none",
                    format!("Not decided in `{}`: {what} ({})", l.function, l.detail),
                ),
            };
            let (uri, absolute) = path_uri(&l.pos.file);
            relative |= !absolute;
            let mut art = json!({"uri": uri});
            if !absolute {
                art["uriBaseId"] = json!("SRCROOT");
            }
            let mut props = json!({
                "status": l.status, "detail": l.detail, "function": l.function,
                "time_s": l.time_s,
            });
            if l.status == "DEAD" {
                if let Some(e) = proof_engine(&l.detail) {
                    props["engine"] = json!(e);
                }
            }
            if l.status == "REACHABLE" {
                let g = goal_json(l);
                props["inputs"] = g["inputs"].clone();
                if !g["test_case"].is_null() {
                    props["test_case"] = g["test_case"].clone();
                }
                if let Some(t) = g.get("tests") {
                    props["tests"] = t.clone();
                }
            }
            if let Some(c) = &l.condition {
                props["condition"] = json!(c);
            }
            let mut r = json!({
                "ruleId": format!("deadcode/{k}"),
                "kind": kind,
                "level": level,
                "message": {"text": text},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": art,
                        "region": {"startLine": l.pos.line.max(1), "startColumn": l.pos.col.max(1)},
                    },
                    "logicalLocations": [{"name": l.function, "kind": "function"}],
                }],
                "properties": props,
            });
            if let Some(i) = idx {
                r["ruleIndex"] = json!(i);
            }
            r
        })
        .collect();
    let mut run = json!({
        "tool": {"driver": {
            "name": "icpic3",
            "semanticVersion": env!("CARGO_PKG_VERSION"),
            "version": env!("CARGO_PKG_VERSION"),
            "rules": rules,
        }},
        "invocations": [{
            "executionSuccessful": facts.interrupted.is_none(),
            "exitCode": facts.exit_code,
            "toolExecutionNotifications": facts.skipped.iter().map(|(f, e)| json!({
                "level": "warning",
                "message": {"text": format!("function `{f}` skipped: {e}")},
            })).chain(facts.interrupted.map(|s| json!({
                "level": "warning",
                "message": {"text": format!("interrupted by {}: the goals not decided by then are UNKNOWN", signal_name(s))},
            }))).collect::<Vec<_>>(),
            "properties": {
                "time_s": facts.time_s, "jobs": facts.jobs,
                "interrupted": facts.interrupted.map(signal_name),
                "undefined_functions_nondet": facts.undefined,
                "assumptions": facts.assumptions,
            },
        }],
        "results": results,
        "columnKind": "unicodeCodePoints",
    });
    if relative {
        let cwd = std::env::current_dir()
            .ok()
            .map(|d| d.to_string_lossy().to_string())
            .unwrap_or_else(|| "/".into());
        let (mut uri, _) = path_uri(&cwd);
        if !uri.ends_with('/') {
            uri.push('/');
        }
        if !uri.starts_with("file://") {
            uri = format!("file:///{uri}");
        }
        run["originalUriBaseIds"] = json!({"SRCROOT": {"uri": uri}});
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    })
}

/// `--format lcov`: a tracefile with one `SF` section per source file. The counts are those
/// of icpic3's test cases: per branch goal (then, else, case, default, loop-body; with
/// `--criterion condition` the condition values) one `BRDA:LINE,0,N,TAKEN` at the goal's
/// line (`N` numbers the goals of that line): REACHABLE `1` (the confirmed test case takes
/// it), DEAD `-` (proved never executed, by any run), UNKNOWN `0` (not taken by any test case
/// found, not proved dead either). Line records: `DA:LINE,1` for a line with a REACHABLE goal,
/// `DA:LINE,0` for a line whose goals are all DEAD, none for the others. Error calls,
/// undefined-behaviour checks and MC/DC pairs are not coverage records and are left out.
pub fn lcov(lines: &[DeadcodeLine]) -> String {
    let mut files: Vec<&str> = Vec::new();
    for l in lines {
        if !files.contains(&l.pos.file.as_str()) {
            files.push(&l.pos.file);
        }
    }
    let mut s = String::from("TN:icpic3_deadcode\n");
    for f in files {
        let mut goals: Vec<&DeadcodeLine> = lines
            .iter()
            .filter(|l| l.pos.file == f && is_coverage_kind(l.kind) && l.kind != GoalKind::Mcdc)
            .collect();
        if goals.is_empty() {
            continue;
        }
        goals.sort_by_key(|l| (l.pos.line, l.pos.col));
        s.push_str(&format!("SF:{f}\n"));
        let mut found = 0;
        let mut hit = 0;
        let mut i = 0;
        let mut da: Vec<(usize, bool)> = Vec::new();
        while i < goals.len() {
            let line = goals[i].pos.line;
            let same: Vec<&&DeadcodeLine> = goals[i..]
                .iter()
                .take_while(|l| l.pos.line == line)
                .collect();
            for (n, l) in same.iter().enumerate() {
                let taken = match l.status {
                    "REACHABLE" => "1",
                    "DEAD" => "-",
                    _ => "0",
                };
                found += 1;
                if l.status == "REACHABLE" {
                    hit += 1;
                }
                s.push_str(&format!("BRDA:{line},0,{n},{taken}\n"));
            }
            if same.iter().any(|l| l.status == "REACHABLE") {
                da.push((line, true));
            } else if same.iter().all(|l| l.status == "DEAD") {
                da.push((line, false));
            }
            i += same.len();
        }
        s.push_str(&format!("BRF:{found}\nBRH:{hit}\n"));
        for (line, ran) in &da {
            s.push_str(&format!("DA:{line},{}\n", u8::from(*ran)));
        }
        s.push_str(&format!(
            "LF:{}\nLH:{}\nend_of_record\n",
            da.len(),
            da.iter().filter(|x| x.1).count()
        ));
    }
    s
}

/// The progress line on standard error (only when it is a terminal): goals done/total,
/// DEAD/REACHABLE/UNKNOWN so far, elapsed time; redrawn in place, erased at the end.
pub struct Progress {
    on: bool,
    start: Instant,
    pub total: usize,
    pub dead: usize,
    pub reachable: usize,
    pub unknown: usize,
    /// functions analysed / to analyse
    pub function: (usize, usize),
    shown: bool,
}

impl Progress {
    pub fn new(start: Instant, functions: usize) -> Progress {
        Progress {
            on: std::io::stderr().is_terminal(),
            start,
            total: 0,
            dead: 0,
            reachable: 0,
            unknown: 0,
            function: (0, functions),
            shown: false,
        }
    }
    pub fn count(&mut self, status: &str) {
        match status {
            "DEAD" => self.dead += 1,
            "REACHABLE" => self.reachable += 1,
            _ => self.unknown += 1,
        }
    }
    /// The text of the line.
    pub fn text(&self) -> String {
        let done = self.dead + self.reachable + self.unknown;
        let more = if self.function.0 < self.function.1 {
            "+"
        } else {
            ""
        };
        let fns = if self.function.1 > 1 {
            format!(" (function {}/{})", self.function.0.max(1), self.function.1)
        } else {
            String::new()
        };
        format!(
            "deadcode: {done}/{}{more} goals{fns}: {} DEAD, {} REACHABLE, {} UNKNOWN; {:.0} s",
            self.total,
            self.dead,
            self.reachable,
            self.unknown,
            self.start.elapsed().as_secs_f64()
        )
    }
    pub fn draw(&mut self) {
        if self.on {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r{}\x1b[K", self.text());
            let _ = e.flush();
            self.shown = true;
        }
    }
    /// Erases the line (before another message, and at the end).
    pub fn clear(&mut self) {
        if self.on && self.shown {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r\x1b[K");
            let _ = e.flush();
            self.shown = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proof_engine_of_details() {
        assert_eq!(proof_engine("proved unreachable (ic3)"), Some("ic3"));
        assert_eq!(
            proof_engine("proved unreachable (k-induction (k = 2))"),
            Some("k-induction (k = 2)")
        );
        assert_eq!(proof_engine("by a concrete run"), None);
    }

    #[test]
    fn uris() {
        assert_eq!(path_uri("a b/c.c"), ("a%20b/c.c".to_string(), false));
        assert_eq!(path_uri("/x/y.c"), ("file:///x/y.c".to_string(), true));
    }
}
