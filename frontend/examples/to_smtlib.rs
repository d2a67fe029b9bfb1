//! Prints the SMT-LIB 2 script of a `.hys` file's lowered problem (EXPR form), for running
//! the same problem through Z3 or Bitwuzla (benchmarks/scripts/smt_peers.py).
//!
//!     cargo run -p frontend --example to_smtlib -- FILE.hys > FILE.smt2
//!
//! Exit codes follow icpic3's: 1 for bad input (or a construct SMT-LIB cannot express, or a
//! transition system), 2 for bad usage.

use frontend::hys::{load, Lowered};
use frontend::smtlib_out::to_smtlib;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path] = args.as_slice() else {
        eprintln!("usage: to_smtlib FILE.hys");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let loaded = match load(&text) {
        Ok(l) => l,
        Err(diags) => {
            for d in diags {
                eprintln!("{path}: {}", d.message);
            }
            std::process::exit(1);
        }
    };
    let Lowered::Expr(f) = &loaded.lowered else {
        eprintln!("{path}: a transition system; only the EXPR form has an SMT-LIB script");
        std::process::exit(1);
    };
    match to_smtlib(f) {
        Ok(s) => print!("{s}"),
        Err(e) => {
            eprintln!("{path}: cannot print as SMT-LIB: {e}");
            std::process::exit(1);
        }
    }
}
