//! Shared helpers of icpic3's benchmark runner and criterion benches.

pub mod runner;

use std::path::{Path, PathBuf};

/// The directory of the shared benchmark sets: `$ICPIC3_BENCHMARKS`, or `../shared/benchmarks`
/// next to the repository.
pub fn benchmarks_dir() -> PathBuf {
    std::env::var_os("ICPIC3_BENCHMARKS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/benchmarks"))
}

/// Every file below `dir` whose name ends in `.ext`, sorted.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(p) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&p) else {
            continue;
        };
        for e in rd.flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == ext) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
