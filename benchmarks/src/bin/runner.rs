//! `runner`: runs solver configurations on benchmark suites (see `benchmarks/README.md`).

use benchmarks::runner::cli::{main_with, Args};
use clap::Parser;

fn main() {
    std::process::exit(main_with(Args::parse()));
}
