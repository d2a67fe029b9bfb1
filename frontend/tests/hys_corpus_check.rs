//! Checks and lowers every `.hys` file of the public corpus that parses
//! (`shared/benchmarks/hys-public`, see its `SOURCES.md`).
//!
//! Expectations: no checker error on any file of the iSAT3 dialect (nlsat, masterarbeit,
//! isat-dde, the manual's listings); the lowering succeeds on every checked file; transition
//! systems pass `TransitionSystem::validate()`. Lowering twice gives identical dumps.
//! Prints totals (files, warnings, definitions, atoms, clauses) and the time taken.
//!
//! The corpus directory is `$ICPIC3_BENCHMARKS/hys-public`, by default
//! `<workspace>/../shared/benchmarks/hys-public`. A missing corpus fails the test.

use frontend::diag::SourceMap;
use frontend::hys::check::check;
use frontend::hys::lower::{lower, Lowered};
use frontend::hys::parser;
mod common;

use common::{collect, corpus_dir};
use std::time::{Duration, Instant};

/// Directories whose files are iSAT3 input (the iSAT-ODE files are not).
fn isat3_dialect(rel: &str) -> bool {
    [
        "nlsat-dreal3/",
        "masterarbeit-bicycle/",
        "isat-dde-liangdzou/",
        "isat3-manual-0.02/",
    ]
    .iter()
    .any(|p| rel.starts_with(p))
}

#[derive(Default)]
struct Totals {
    files: usize,
    parsed: usize,
    checked: usize,
    transition: usize,
    warnings: usize,
    defs: usize,
    atoms: usize,
    clauses: usize,
    roots: usize,
    vars: usize,
    check_time: Duration,
    lower_time: Duration,
    slowest: (Duration, String),
}

fn add(t: &mut Totals, f: &solver::Formula) {
    let s = f.stats();
    t.defs += s.definitions;
    t.atoms += s.atoms;
    t.clauses += s.clauses;
    t.roots += s.roots;
    t.vars += f.vars.len();
}

fn dump(l: &Lowered) -> String {
    match l {
        Lowered::Expr(f) => f.to_string(),
        Lowered::Transition(ts) => format!("{}{}{}", ts.init, ts.trans, ts.target),
    }
}

#[test]
fn corpus_checks_and_lowers() {
    let root = corpus_dir();
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no .hys files under {}", root.display());
    let mut t = Totals::default();
    let mut failures: Vec<String> = Vec::new();
    let mut warned: Vec<String> = Vec::new();
    for path in &files {
        t.files += 1;
        let rel = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(path).expect("corpus file is UTF-8 text");
        let Ok(ast) = parser::parse(&text) else {
            continue;
        };
        t.parsed += 1;
        let sm = SourceMap::new(&rel, &text);
        let t0 = Instant::now();
        let (checked, diags) = check(&ast);
        let t1 = Instant::now();
        t.check_time += t1 - t0;
        let warnings: Vec<String> = diags
            .iter()
            .filter(|d| !d.is_error())
            .map(|d| sm.render(d))
            .collect();
        t.warnings += warnings.len();
        if let Some(w) = warnings.first() {
            warned.push(w.clone());
        }
        let Some(checked) = checked else {
            let first = diags.iter().find(|d| d.is_error()).map(|d| sm.render(d));
            if isat3_dialect(&rel) {
                failures.push(format!("checker error: {}", first.unwrap_or_default()));
            }
            continue;
        };
        t.checked += 1;
        let t2 = Instant::now();
        let lowered = match lower(&checked) {
            Ok(l) => l,
            Err(d) => {
                failures.push(format!("lowering error: {}", sm.render(&d)));
                continue;
            }
        };
        let el = t2.elapsed();
        t.lower_time += el;
        if el > t.slowest.0 {
            t.slowest = (el, rel.clone());
        }
        match &lowered {
            Lowered::Expr(f) => add(&mut t, f),
            Lowered::Transition(ts) => {
                t.transition += 1;
                if let Err(e) = ts.validate() {
                    failures.push(format!("{rel}: invalid transition system: {e}"));
                }
                add(&mut t, &ts.init);
                add(&mut t, &ts.trans);
                add(&mut t, &ts.target);
            }
        }
        assert_eq!(
            checked.is_transition_system(),
            matches!(lowered, Lowered::Transition(_))
        );
        // determinism, on the small files (cheap)
        if text.len() < 20_000 {
            let again = lower(&checked).expect("lowering succeeded once");
            assert_eq!(
                dump(&lowered),
                dump(&again),
                "{rel}: lowering is not deterministic"
            );
        }
    }
    println!(
        "corpus: {} files, {} parsed, {} checked ({} transition systems), {} warnings",
        t.files, t.parsed, t.checked, t.transition, t.warnings
    );
    println!(
        "lowered: {} variables, {} definitions, {} atoms, {} clauses, {} roots",
        t.vars, t.defs, t.atoms, t.clauses, t.roots
    );
    println!(
        "time: check {:.2?}, lower {:.2?}; slowest lowering {:.2?} ({})",
        t.check_time, t.lower_time, t.slowest.0, t.slowest.1
    );
    for w in warned.iter().take(10) {
        println!("  e.g. {w}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // every iSAT3-dialect file parses and checks
    assert!(t.checked >= 8932, "only {} files checked", t.checked);
}
