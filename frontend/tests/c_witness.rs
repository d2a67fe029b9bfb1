//! SV-COMP witnesses (format 2.0) of `solve FILE.c --witness W.yml`, checked without trusting
//! icpic3's answers: `scripts/tests/check_witnesses.py` validates every witness against the
//! format's schema (`tests/data/witness/witness-2.0.schema.json`), replays a violation
//! witness's values in the gcc-compiled program, runs gcc-compiled copies that check each
//! loop invariant at its loop head on random inputs, and has icpic3's portfolio prove the
//! invariant-checking copy. Its self-test feeds it wrong witnesses (a tightened invariant, a
//! value off by one, the `c_expression` format) and each must be caught. The interpreter is
//! `$ICPIC3_PYTHON` (scripts/test.sh sets it to the environment `scripts/setup.sh` creates:
//! jsonschema, PyYAML), else `python3`.

mod common;

use std::process::Command;

fn run_checker(self_test: bool) -> String {
    let root = format!("{}/..", env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var("ICPIC3_PYTHON").unwrap_or_else(|_| "python3".into());
    let float_task = common::benchmark_dir("svcomp-floats").join("c/float-benchs/filter1.c");
    let mut cmd = Command::new(&python);
    cmd.arg(format!("{root}/scripts/tests/check_witnesses.py"))
        .arg(env!("CARGO_BIN_EXE_icpic3"))
        .arg(format!("{}/tests/data/witness", env!("CARGO_MANIFEST_DIR")))
        .arg(float_task);
    if self_test {
        cmd.arg("--self-test");
    }
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{python} runs ({e}); scripts/setup.sh installs it"));
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{stdout}{stderr}\n(jsonschema and PyYAML come with scripts/setup.sh)"
    );
    assert!(stdout.contains("\n0 failure(s)"), "{stdout}");
    stdout
}

#[test]
fn witnesses_conform_to_format_2_0_and_hold_in_gcc_runs() {
    let out = run_checker(false);
    // the checks ran: four loop programs with invariants, the violation witness of
    // viol_inputs.c replayed, seven witnesses (4 loops, the float task, 2 violations) validated
    assert_eq!(
        out.matches("gcc runs on random inputs never find an invariant false")
            .count(),
        4,
        "{out}"
    );
    assert_eq!(out.matches("reaches reach_error").count(), 1, "{out}");
    assert_eq!(
        out.matches("validates against the 2.0 schema").count(),
        7,
        "{out}"
    );
}

#[test]
fn wrong_witnesses_are_caught() {
    let out = run_checker(true);
    assert_eq!(out.matches("ok   self-test").count(), 6, "{out}");
}
