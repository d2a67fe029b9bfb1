//! Runs the bit-blasting CDCL solver (`solver::bitblast::sat`) on DIMACS CNF files, for
//! comparing it against other SAT solvers on the CNF that `icpic3 dump --format dimacs`
//! writes: `cargo run --release -p solver --example sat_dimacs -- FILE.cnf [...]`.
//! Runs bounded variable elimination first, as the encoder does (`--no-elim`: not).
//! Prints one line per file: answer, seconds, conflicts, variables eliminated. A SAT model
//! is extended to the eliminated variables and checked against every original clause (exit
//! code 1 if it violates one).

use solver::bitblast::elim::eliminate;
use solver::bitblast::sat::{Sat, SatAnswer};

fn parse(text: &str) -> Result<(usize, Vec<Vec<u32>>), String> {
    let mut n = 0usize;
    let mut clauses = Vec::new();
    let mut cur = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') || line.starts_with('%') {
            continue;
        }
        if let Some(rest) = line.strip_prefix('p') {
            let f: Vec<&str> = rest.split_whitespace().collect();
            n = f.get(1).and_then(|s| s.parse().ok()).ok_or("bad p line")?;
            continue;
        }
        for tok in line.split_whitespace() {
            let x: i64 = tok.parse().map_err(|_| format!("bad literal {tok}"))?;
            if x == 0 {
                clauses.push(std::mem::take(&mut cur));
            } else {
                let v = x.unsigned_abs() as usize;
                if v > n {
                    return Err(format!("literal {x} beyond {n} variables"));
                }
                cur.push(2 * v as u32 + (x < 0) as u32);
            }
        }
    }
    Ok((n + 1, clauses))
}

fn main() {
    let mut bad = false;
    let no_elim = std::env::args().any(|a| a == "--no-elim");
    for path in std::env::args().skip(1).filter(|a| a != "--no-elim") {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        };
        let (n, clauses) = match parse(&text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        };
        let t = std::time::Instant::now();
        let (reduced, elim) = if no_elim {
            (clauses.clone(), Default::default())
        } else {
            eliminate(n, clauses.clone(), &vec![false; n])
        };
        let eliminated = elim.eliminated().count();
        let mut s = Sat::new(n);
        let mut ok = true;
        for c in &reduced {
            ok &= s.add_clause(c);
        }
        let ans = if ok { s.solve(&[]) } else { SatAnswer::Unsat };
        let secs = t.elapsed().as_secs_f64();
        if ans == SatAnswer::Sat {
            let mut model: Vec<bool> = (0..n).map(|v| s.model_value(v)).collect();
            elim.extend(&mut model);
            let holds = clauses
                .iter()
                .all(|c| c.iter().any(|&l| model[(l >> 1) as usize] == (l & 1 == 0)));
            if !holds {
                bad = true;
                println!("{path}: MODEL VIOLATES A CLAUSE");
            }
        }
        println!(
            "{path}: {ans:?} {secs:.2} s, {} conflicts, {eliminated} of {} variables eliminated, {} -> {} clauses",
            s.conflicts,
            n - 1,
            clauses.len(),
            reduced.len()
        );
    }
    if bad {
        std::process::exit(1);
    }
}
