//! SATISFIABLE by an existence proof (issue #23): a solution whose values are irrational has
//! no exact point, so the answer rests on a re-checked Krawczyk test (or on interval
//! evaluation at a rational point). The oracles are hand derivations: √3 lies in the printed
//! box, and the problems made unsatisfiable by a bound just past √3 must never be SATISFIABLE.

mod common;

use std::process::Output;

fn run(name: &str, text: &str, args: &[&str]) -> Output {
    common::solve_text("existence", name, text, args)
}

const SQRT3: &str = "DECL\n  float [-10, 10] x;\n  float [-10, 10] y;\nEXPR\n  x * x = 3;\n  \
                     x > 0;\n  y * y + x * x = 4;\n  y < 0;\n";

#[test]
fn an_irrational_solution_is_proved_and_its_box_holds_it() {
    let out = run("sqrt3.hys", SQRT3, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(10), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"], "SATISFIABLE");
    assert_eq!(v["proof"]["kind"], "Krawczyk");
    let bound =
        |var: &str, end: &str| -> f64 { v["box"][var][end].as_str().unwrap().parse().unwrap() };
    // x = √3 (1.7320508075688772935...), y = -1 (y² = 4 - 3)
    let sqrt3 = 3f64.sqrt();
    assert!(
        bound("x", "lo") <= sqrt3 && sqrt3 <= bound("x", "hi"),
        "{v}"
    );
    assert!(bound("x", "hi") - bound("x", "lo") < 1e-6, "{v}");
    assert!(bound("y", "lo") <= -1.0 && -1.0 <= bound("y", "hi"), "{v}");
    // the text form says so
    let out = run("sqrt3.hys", SQRT3, &["-v"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.starts_with("SATISFIABLE\n"), "{stdout}");
    assert!(
        stdout.contains("Krawczyk existence proof: 2 equation(s) over 2 unknown(s)"),
        "{stdout}"
    );
    assert!(stderr.contains("existence proof"), "{stderr}");
}

#[test]
fn just_past_the_root_is_never_satisfiable() {
    // 1.7320508075688772 < √3 = 1.73205080756887729... < 1.7320508075688773: x·x = 3 with
    // x > 0 and x beyond either has no solution, though the boxes touch it
    for (rel, bound) in [(">=", "1.7320508075688773"), ("<=", "1.7320508075688772")] {
        let text = format!(
            "DECL\n  float [-10, 10] x;\nEXPR\n  x * x = 3;\n  x > 0;\n  x {rel} {bound};\n"
        );
        let out = run("past.hys", &text, &[]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            !stdout.starts_with("SATISFIABLE"),
            "{rel} {bound}: {stdout}"
        );
    }
}

#[test]
fn smtlib_says_sat_and_explains_the_missing_model() {
    let text = "(set-logic QF_NRA)\n(declare-const x Real)\n(assert (= (* x x) 2.0))\n\
                (assert (< x 0))\n(check-sat)\n(get-value (x))\n(assert (> x 0))\n(check-sat)\n";
    let out = run("sqrt2.smt2", text, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut lines = stdout.lines();
    assert_eq!(lines.next(), Some("sat"), "{stdout}");
    let err = lines.next().unwrap_or_default();
    assert!(
        err.starts_with("(error") && err.contains("existence was proved"),
        "{stdout}"
    );
    // x < 0 and x > 0 together: unsat (or at worst unknown), never sat
    assert_ne!(lines.next(), Some("sat"), "{stdout}");
}
