//! Parses every `.hys` file of the public corpus (`shared/benchmarks/hys-public`, see its
//! `SOURCES.md`) and checks the printer round trip on each.
//!
//! The corpus directory is `$ICPIC3_BENCHMARKS/hys-public`, by default
//! `<workspace>/../shared/benchmarks/hys-public`. A missing corpus fails the test.

use frontend::diag::{Diagnostic, SourceMap};
use frontend::hys::{parser, printer};
mod common;

use common::{collect, corpus_dir};
use std::path::Path;
use std::time::{Duration, Instant};

const EXPECTED_FILES: usize = 8962;

enum Outcome {
    Parsed,
    Failed(Diagnostic),
}

struct Checked {
    rel: String,
    text: String,
    outcome: Outcome,
    parse_time: Duration,
}

/// Parses a file, and for a parsed file checks `parse(print(ast)) == ast` up to spans.
fn check(root: &Path, path: &Path) -> Checked {
    let rel = path
        .strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/");
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{rel}: cannot read as UTF-8 text: {e}"));
    let t0 = Instant::now();
    let parsed = parser::parse(&text);
    let parse_time = t0.elapsed();
    let outcome = match parsed {
        Err(d) => Outcome::Failed(d),
        Ok(mut a) => {
            let printed = printer::print(&a);
            let mut b = parser::parse(&printed).unwrap_or_else(|d| {
                panic!(
                    "{rel}: the printed file does not parse: {}",
                    SourceMap::new("<printed>", &printed).render(&d)
                )
            });
            a.strip_spans();
            b.strip_spans();
            assert!(a == b, "{rel}: round trip changed the AST");
            Outcome::Parsed
        }
    };
    Checked {
        rel,
        text,
        outcome,
        parse_time,
    }
}

#[test]
fn corpus_parses_and_round_trips() {
    let root = corpus_dir();
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    assert_eq!(
        files.len(),
        EXPECTED_FILES,
        "expected {EXPECTED_FILES} .hys files under {}",
        root.display()
    );

    let start = Instant::now();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let chunk = files.len().div_ceil(threads);
    let results: Vec<Checked> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                let root = &root;
                std::thread::Builder::new()
                    // the default test-thread stack: the parser and printer must not need more
                    .stack_size(2 << 20)
                    .spawn_scoped(s, move || {
                        part.iter().map(|p| check(root, p)).collect::<Vec<_>>()
                    })
                    .expect("spawn")
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker thread panicked"))
            .collect()
    });
    let elapsed = start.elapsed();

    let mut parsed = 0;
    let mut ode = 0;
    let mut parse_time = Duration::ZERO;
    let mut bytes = 0;
    for c in &results {
        parse_time += c.parse_time;
        bytes += c.text.len();
        let in_crn = c.rel.starts_with("crn-synthesis-max1s/");
        match &c.outcome {
            Outcome::Parsed => {
                assert!(!in_crn, "{}: an iSAT-ODE file parsed", c.rel);
                parsed += 1;
            }
            Outcome::Failed(d) => {
                let rendered = SourceMap::new(&c.rel, &c.text).render(d);
                let at = &c.text[d.span.start as usize..];
                assert!(in_crn, "{rendered}");
                if c.rel.ends_with("/lotka.hys") {
                    // the `%%%` header on line 1
                    assert!(
                        rendered.starts_with(&format!("{}:1:1: ", c.rel)),
                        "{rendered}"
                    );
                    assert!(at.starts_with("%%%"), "{rendered}");
                    assert!(d.message.contains("--"), "{rendered}");
                } else if c.rel.ends_with("sixreactionnetwork.hys") {
                    let ode_error = d.message.contains("`d.") && at.starts_with("d.");
                    let bracket_error = d.message.contains("bracket") && at.starts_with(')');
                    assert!(ode_error || bracket_error, "{rendered}");
                    ode += 1;
                } else {
                    assert!(d.message.contains("`d."), "{rendered}");
                    assert!(d.message.contains("iSAT-ODE"), "{rendered}");
                    assert!(at.starts_with("d."), "{rendered}");
                    ode += 1;
                }
            }
        }
    }
    assert_eq!(parsed, EXPECTED_FILES - 30);
    assert_eq!(ode, 29);
    println!(
        "parsed {parsed} of {} files ({:.1} MB) in {:.2?} of parse time; with the round trip \
         {:.2?} wall clock on {threads} threads",
        results.len(),
        bytes as f64 / 1e6,
        parse_time,
        elapsed
    );
}
