//! `deadcode --html DIR`: the report people read.

use super::report::RunFacts;
use super::DeadcodeLine;

/// The page `DIR/index.html`.
pub fn page(_lines: &[DeadcodeLine], _facts: &RunFacts) -> String {
    String::new()
}
