//! Randomized differential test of linear reasoning (issue #22, the simplex beside ICP)
//! against Z3 as the independent oracle: small random QF_LIA and QF_LRA problems over
//! *unbounded* variables (where ICP alone crawls), with some disjunctions so that simplex
//! conflicts meet CDCL backjumping. icpic3 must never contradict Z3: no `sat` where Z3 says
//! `unsat` (its models are checked exactly anyway) and, above all, no `unsat` where Z3 says
//! `sat`. icpic3's `unknown` is allowed, but the simplex must decide most unsatisfiable
//! problems, and more of them than ICP alone (`--linear icp`, also run on them and also held
//! to Z3's answers), so that the test cannot pass by answering nothing or without the simplex.
//!
//! Z3 runs from Python (`$ICPIC3_PYTHON`, scripts/test.sh sets it to scripts/setup.sh's
//! target/pyenv, which has z3-solver) through scripts/tests/z3_answers.py.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

fn num(n: i64) -> String {
    if n < 0 {
        format!("(- {})", -n)
    } else {
        n.to_string()
    }
}

/// One random problem: 2–4 variables, 3–6 assertions of `Σ a·x ~ c` over at least two
/// variables (a in −3..3, c in −10..10, reals also with fractional constants), about a third
/// of them disjunctions.
fn problem(rng: &mut Rng, int: bool) -> String {
    let n = rng.range(2, 4) as usize;
    let sort = if int { "Int" } else { "Real" };
    let mut s = format!("(set-logic {})\n", if int { "QF_LIA" } else { "QF_LRA" });
    for i in 0..n {
        s += &format!("(declare-fun x{i} () {sort})\n");
    }
    let atom = |rng: &mut Rng| -> String {
        // two or more variables per term: bounds on sums of unbounded variables, which ICP
        // cannot narrow to single variables (so ICP alone refutes few of these)
        let k = rng.range(2, n as i64) as usize;
        let mut terms = Vec::new();
        for i in 0..n {
            if terms.len() < k && rng.range(0, 1) == 0 || n - i <= k - terms.len() {
                let a = [-3, -2, -1, 1, 1, 2, 3][rng.range(0, 6) as usize];
                terms.push(if a == 1 {
                    format!("x{i}")
                } else {
                    format!("(* {} x{i})", num(a))
                });
            }
        }
        let lhs = if terms.len() == 1 {
            terms[0].clone()
        } else {
            format!("(+ {})", terms.join(" "))
        };
        let c = num(rng.range(-10, 10));
        let rhs = if !int && rng.range(0, 2) == 0 {
            format!("(/ {c} {})", rng.range(2, 5))
        } else {
            c
        };
        let op = ["<=", "<", ">=", ">", "="][rng.range(0, 4) as usize];
        format!("({op} {lhs} {rhs})")
    };
    for _ in 0..rng.range(3, 6) {
        if rng.range(0, 2) == 0 {
            let (a, b) = (atom(rng), atom(rng));
            s += &format!("(assert (or {a} {b}))\n");
        } else {
            let a = atom(rng);
            s += &format!("(assert {a})\n");
        }
    }
    s + "(check-sat)\n"
}

fn z3_answers(files: &[PathBuf]) -> HashMap<PathBuf, String> {
    let python = std::env::var("ICPIC3_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/tests/z3_answers.py");
    let out = Command::new(&python)
        .arg(&script)
        .args(files)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    assert!(
        out.status.success(),
        "Z3 oracle failed (z3-solver comes with scripts/setup.sh: \
         ICPIC3_PYTHON=target/pyenv/bin/python):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let (f, a) = l.rsplit_once(' ')?;
            Some((PathBuf::from(f), a.to_string()))
        })
        .collect()
}

fn icpic3_answer(file: &Path, linear: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(["solve", "--timeout", "2", "--linear", linear])
        .arg(file)
        .output()
        .expect("icpic3 runs");
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !err.contains("panicked") && !err.contains("internal error"),
        "{}: {err}",
        file.display()
    );
    out.lines()
        .find(|l| matches!(*l, "sat" | "unsat" | "unknown"))
        .unwrap_or_else(|| panic!("{}: no answer in {out:?} / {err}", file.display()))
        .to_string()
}

#[test]
fn random_linear_problems_agree_with_z3() {
    let dir = std::env::temp_dir().join(format!("icpic3-simplex-z3-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x005e_ed1c_91c3);
    let mut files = Vec::new();
    for i in 0..60 {
        let p = dir.join(format!("p{i:02}.smt2"));
        std::fs::write(&p, problem(&mut rng, i % 2 == 0)).unwrap();
        files.push(p);
    }
    let z3 = z3_answers(&files);
    let (mut z3_unsat, mut decided_unsat, mut decided_sat, mut icp_unsat) = (0, 0, 0, 0);
    let mut wrong = Vec::new();
    for f in &files {
        let want = z3
            .get(f)
            .unwrap_or_else(|| panic!("no Z3 answer for {}", f.display()));
        // ICP alone too on the unsatisfiable ones (it stops at candidates quickly): the
        // simplex must make the difference
        let linears: &[&str] = if want == "unsat" {
            &["simplex", "icp"]
        } else {
            &["simplex"]
        };
        for &linear in linears {
            let got = icpic3_answer(f, linear);
            match (got.as_str(), want.as_str(), linear) {
                ("unsat", "unsat", "simplex") => decided_unsat += 1,
                ("unsat", "unsat", _) => icp_unsat += 1,
                ("sat", "sat", _) => decided_sat += 1,
                ("unknown", _, _) | (_, "unknown", _) => {}
                _ => wrong.push(format!(
                    "{} (--linear {linear}): icpic3 {got}, Z3 {want}\n{}",
                    f.display(),
                    std::fs::read_to_string(f).unwrap()
                )),
            }
        }
        if want == "unsat" {
            z3_unsat += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        wrong.is_empty(),
        "disagreements with Z3:\n{}",
        wrong.join("\n")
    );
    eprintln!(
        "{} problems: Z3 unsat {z3_unsat}; icpic3 unsat {decided_unsat} (ICP alone \
         {icp_unsat}), sat {decided_sat}",
        files.len()
    );
    assert!(
        decided_unsat > icp_unsat,
        "the simplex should refute problems ICP alone cannot: {decided_unsat} vs {icp_unsat}"
    );
    assert!(
        z3_unsat >= 10,
        "the generator should give unsatisfiable problems"
    );
    assert!(
        decided_unsat * 10 >= z3_unsat * 9,
        "the simplex should decide at least 90% of the unsatisfiable problems: \
         {decided_unsat} of {z3_unsat}"
    );
}

/// One random integer problem built to have rational but (usually) no integer points: a
/// *divisible* constraint `g·k < Σ (g·a)·x < g·(k + 1)` (as `<=` over the integers inside)
/// over two to four unbounded variables, every coefficient a multiple of `g` in 2..5 (written
/// out, so no single variable's interval shows it: ICP alone cannot narrow any of them), and
/// sometimes the same part spread over two sums, `t = Σ (g·a)·x` first, plus one or two random
/// constraints over all the variables. Returned in two versions: over `Int` and the same text
/// over `Real`, so that Z3 can confirm both halves.
fn rational_only_problem(rng: &mut Rng) -> (String, String) {
    let n = rng.range(2, 4) as usize;
    let g = rng.range(2, 5);
    let k = rng.range(-4, 4);
    let mut body = String::new();
    let vars: Vec<usize> = (0..n).filter(|_| rng.range(0, 3) > 0).collect();
    let vars = if vars.len() < 2 { vec![0, 1] } else { vars };
    let terms: Vec<String> = vars
        .iter()
        .map(|&i| {
            let a = [-3, -2, -1, 1, 2, 3][rng.range(0, 5) as usize];
            format!("(* {} x{i})", num(g * a))
        })
        .collect();
    let sum = format!("(+ {})", terms.join(" "));
    let (lo, hi) = (g * k + 1, g * k + g - 1);
    if rng.range(0, 1) == 0 {
        body += &format!(
            "(assert (and (<= {} {sum}) (<= {sum} {})))\n",
            num(lo),
            num(hi)
        );
    } else {
        body += &format!("(assert (= t {sum}))\n");
        body += &format!("(assert (<= {} t))\n(assert (<= t {}))\n", num(lo), num(hi));
    }
    for _ in 0..rng.range(1, 2) {
        let mut terms = Vec::new();
        for i in 0..n {
            let a = rng.range(-3, 3);
            if a != 0 {
                terms.push(format!("(* {} x{i})", num(a)));
            }
        }
        if terms.len() < 2 {
            continue;
        }
        let op = ["<=", ">="][rng.range(0, 1) as usize];
        body += &format!(
            "(assert ({op} (+ {}) {}))\n",
            terms.join(" "),
            num(rng.range(-10, 10))
        );
    }
    let version = |sort: &str, logic: &str| {
        let mut s = format!("(set-logic {logic})\n(declare-fun t () {sort})\n");
        for i in 0..n {
            s += &format!("(declare-fun x{i} () {sort})\n");
        }
        s + &body + "(check-sat)\n"
    };
    (version("Int", "QF_LIA"), version("Real", "QF_LRA"))
}

#[test]
fn integer_problems_with_only_rational_points_are_refuted() {
    let dir = std::env::temp_dir().join(format!("icpic3-simplex-int-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x0123_4567_89ab);
    let (mut ints, mut reals) = (Vec::new(), Vec::new());
    for i in 0..30 {
        let (pi, pr) = rational_only_problem(&mut rng);
        let (fi, fr) = (
            dir.join(format!("i{i:02}.smt2")),
            dir.join(format!("r{i:02}.smt2")),
        );
        std::fs::write(&fi, pi).unwrap();
        std::fs::write(&fr, pr).unwrap();
        ints.push(fi);
        reals.push(fr);
    }
    let z3 = z3_answers(&[ints.clone(), reals.clone()].concat());
    let (mut rational_only, mut refuted, mut icp_refuted) = (0, 0, 0);
    let mut wrong = Vec::new();
    for (fi, fr) in ints.iter().zip(&reals) {
        let (zi, zr) = (z3[fi].as_str(), z3[fr].as_str());
        let only_rational = zi == "unsat" && zr == "sat";
        rational_only += only_rational as u32;
        for linear in ["simplex", "icp"] {
            let got = icpic3_answer(fi, linear);
            match (got.as_str(), zi) {
                ("unsat", "unsat") if only_rational => {
                    if linear == "simplex" {
                        refuted += 1
                    } else {
                        icp_refuted += 1
                    }
                }
                ("unknown", _) | (_, "unknown") => {}
                (a, b) if a == b => {}
                _ => wrong.push(format!(
                    "{} (--linear {linear}): icpic3 {got}, Z3 {zi}\n{}",
                    fi.display(),
                    std::fs::read_to_string(fi).unwrap()
                )),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        wrong.is_empty(),
        "disagreements with Z3:\n{}",
        wrong.join("\n")
    );
    eprintln!(
        "{} integer problems, {rational_only} with rational points only (Z3); refuted: \
         simplex {refuted}, ICP alone {icp_refuted}",
        ints.len()
    );
    assert!(
        rational_only >= 10,
        "the generator should give problems with only rational points: {rational_only}"
    );
    assert!(
        refuted * 10 >= rational_only * 9,
        "the simplex's integer reasoning should refute at least 90% of them: \
         {refuted} of {rational_only}"
    );
    assert!(
        refuted > icp_refuted,
        "interval splitting alone should not get there: {refuted} vs {icp_refuted}"
    );
}
