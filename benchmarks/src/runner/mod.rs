//! The benchmark runner behind `cargo run -p benchmarks --release --bin runner`: every
//! measurement of the project (solved counts, time ratios, zero wrong answers) goes through
//! it. See `benchmarks/README.md`.

pub mod cli;
pub mod exec;
pub mod report;
pub mod suite;
pub mod table;
pub mod verdict;
