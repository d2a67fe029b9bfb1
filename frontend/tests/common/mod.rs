//! Locating the shared benchmark corpus from the integration tests.
//!
//! The corpus directory is `$ICPIC3_BENCHMARKS`, by default `<workspace>/../shared/benchmarks`
//! (where CI puts it). A missing corpus fails the test that needs it, with a clear message:
//! a test that skips silently would pass without testing anything.

#![allow(dead_code)] // each test binary uses a part of this module

use std::path::{Path, PathBuf};

/// `<benchmarks>/<sub>`, asserted to exist.
pub fn benchmark_dir(sub: &str) -> PathBuf {
    let base = match std::env::var_os("ICPIC3_BENCHMARKS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/benchmarks"),
    };
    let dir = base.join(sub);
    assert!(
        dir.is_dir(),
        "the benchmark corpus is missing: {} is not a directory (set ICPIC3_BENCHMARKS to \
         the directory that contains hys-public/)",
        dir.display()
    );
    dir
}

/// The public `.hys` corpus.
pub fn corpus_dir() -> PathBuf {
    benchmark_dir("hys-public")
}

/// Every `.hys` file below `dir` (unsorted).
pub fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read directory {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|x| x == "hys") {
            out.push(path);
        }
    }
}

/// Options for re-checking a printed IC3 invariant (`check_printed_invariant`): IC3 with its
/// defaults, certificate check on, 20 s.
pub fn certificate_check_options() -> frontend::ts_cmd::TsOptions {
    frontend::ts_cmd::TsOptions {
        linear_auto: false,
        engine: frontend::ts_cmd::Engine::Ic3,
        solver: solver::SolverConfig::default(),
        start_depth: 0,
        max_depth: None,
        timeout: Some(std::time::Duration::from_secs(20)),
        memory_mb: None,
        log: ic3::engine::quiet(),
        ic3: ic3::Ic3Config::default(),
        check_certificate: true,
    }
}

/// `icpic3 solve ARGS FILE` on `text` written to a fresh file `name` in a per-process
/// directory named after `tag`.
pub fn solve_text(tag: &str, name: &str, text: &str, args: &[&str]) -> std::process::Output {
    let dir = std::env::temp_dir().join(format!("icpic3-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    std::process::Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .arg("solve")
        .args(args)
        .arg(&p)
        .output()
        .unwrap()
}
