//! `--engine float-inv` (ic3::float_inv): invariants guessed from a C program's constants,
//! pruned to an inductive core and proved exactly. Each `true` program has its invariant
//! derived by hand in its comment (monotone rounding, float saturation, the rate limiter's
//! branch tests); the answer must come with the loop invariant in the correctness witness
//! (the front end re-checks the printed clauses before it answers `true`). The program whose
//! tempting bound is false is run by gcc to the error, and neither float-inv nor the
//! portfolio may call it `true`.

use std::path::PathBuf;
use std::process::Command;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/float_inv")
        .join(name)
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("icpic3-float-inv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `solve --engine ENGINE --witness W FILE`: the first line of stdout and the witness text.
fn solve(engine: &str, file: &str) -> (String, String) {
    let w = tmp(&format!("{file}.{engine}.yml"));
    let out = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(["solve", "--engine", engine, "--timeout", "15", "--witness"])
        .arg(&w)
        .arg(data(file))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panick"), "{stderr}");
    let first = stdout.lines().next().unwrap_or("").to_string();
    let witness = std::fs::read_to_string(&w).unwrap_or_default();
    (format!("{first}\n{stdout}{stderr}"), witness)
}

fn proves(file: &str, invariant_parts: &[&str]) {
    let (out, witness) = solve("float-inv", file);
    assert!(out.starts_with("true\n"), "{file}: {out}");
    assert!(out.contains("(float-inv)"), "{file}: {out}");
    for part in invariant_parts {
        assert!(
            witness.contains(part),
            "{file}: the witness lacks `{part}`:\n{witness}"
        );
    }
}

#[test]
fn monotone_filter_stays_in_the_input_range() {
    // x' = 0.5x + 0.25y + 0.25in with x, y, in in [-1, 1]: every term is monotone in its
    // variable and the corner gives exactly 1, so [-1, 1] is closed under the rounded step
    proves(
        "filter_box.c",
        &["(x <= 1e0 || x != x)", "(x >= -1e0 || x != x)"],
    );
}

#[test]
fn float_counter_saturates() {
    // fl(2^24 + 1) = 2^24: z <= 2^24 is inductive in binary32
    proves("saturate.c", &["(z <= 1.6777216e7 || z != z)"]);
}

#[test]
fn rate_limiter_is_bounded() {
    // y' is x in [-8, 8], or s - d where x - s <= -d (so s - d >= x >= -8 up to rounding,
    // and s - d <= s <= 9), or s + d likewise: |y| <= 9 is inductive
    proves(
        "rate_limit.c",
        &["(y <= 9e0 || y != y)", "(y >= -9e0 || y != y)"],
    );
}

#[test]
fn false_bound_is_not_proved() {
    // gcc: three iterations take z from 2^24 - 2 to 2^24 + 1 (exact in binary64)
    let exe = tmp("saturate_false");
    let harness = tmp("harness.c");
    std::fs::write(
        &harness,
        "#include <stdlib.h>\n#include <stdio.h>\n\
         static int n;\n\
         int __VERIFIER_nondet_int(void) { return n++ < 3; }\n\
         void reach_error(void) { puts(\"reach_error\"); exit(1); }\n",
    )
    .unwrap();
    let cc = Command::new("gcc")
        .arg(data("saturate_false.c"))
        .arg(&harness)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("gcc runs");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    assert!(
        String::from_utf8_lossy(&run.stdout).contains("reach_error"),
        "the gcc run reaches the error"
    );
    // float-inv tries z <= 16777216 (a constant of the program) and must drop it
    let (out, _) = solve("float-inv", "saturate_false.c");
    assert!(out.starts_with("unknown\n"), "{out}");
    let (out, _) = solve("portfolio", "saturate_false.c");
    assert!(
        out.starts_with("false\n") || out.starts_with("unknown\n"),
        "{out}"
    );
}

#[test]
fn too_many_guesses_stop_before_they_are_built() {
    // 63 locations × 120 carried floats × ~800 signed constants: hundreds of thousands of
    // guesses, ~200 MB as cubes. float-inv must count them and give up within a 150 MB limit
    // instead of building them first (generated TargetLink code once hit the memory limit
    // that way and lost the whole dead-code run).
    let mut c = String::from(
        "extern float __VERIFIER_nondet_float(void);\nextern void reach_error(void);\n\
         int main(void) {\n",
    );
    for i in 0..120 {
        c += &format!("  float v{i} = 0.0f;\n");
    }
    c += "  int st = 0;\n  while (1) {\n    float in = __VERIFIER_nondet_float();\n\
          if (!(in >= -1.0f && in <= 1.0f)) return 0;\n    switch (st) {\n";
    let mut k = 0;
    for s in 0..63 {
        c += &format!("    case {s}:\n");
        for j in 0..7 {
            let v = (s * 7 + j) % 120;
            c += &format!("      v{v} = v{v} * 0.5f + in * {}.25f;\n", k + 1);
            k = (k + 1) % 400;
        }
        c += &format!("      st = {}; break;\n", (s + 1) % 63);
    }
    c += "    default: return 0;\n    }\n    if (v0 > 1000000.0f) reach_error();\n  }\n}\n";
    let file = tmp("many_guesses.c");
    std::fs::write(&file, c).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(["solve", "--engine", "float-inv", "--timeout", "20"])
        .args(["--memory-mb", "150", "-v"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.starts_with("unknown\n"),
        "{:?} {stdout}{stderr}",
        out.status
    );
    assert!(!stderr.contains("memory limit"), "{stderr}");
    // the reason is the verbose note under the answer
    assert!(stdout.contains("more than 20000 candidates"), "{stdout}");
}
