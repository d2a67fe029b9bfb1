//! rel-inv (issue #22): relational candidate invariants per location of a VMT program whose
//! program counter is a tuple of Boolean state variables, pruned to an inductive core and
//! re-checked.
//!
//! The program (locations as bits `b0 b1 b2`): `l0` sets `x = y = 0`; `l1` either increments
//! `x` and goes to `l2`, or goes to `l3`; `l2` adds `step` to `y` and returns to `l1`; `l3`
//! decrements `x` through `l4` (which decrements `y`) while `x != 0`, and goes to the error
//! location `l7` when `x = 0` but `y != 0`. By hand, with `step = 1`: `x - y` is 0 at `l1`
//! and `l3`, 1 at `l2` and -1 at `l4` in every run (each move keeps these), so at `l3`
//! `x = 0` implies `y = 0` and `l7` is unreachable. With `step = 2` it is reachable: `l0`,
//! `l1` (x = 1), `l2`, `l1` (y = 2), `l3`, `l4` (x = 0), `l3` (y = 1), `l7`. The invariant
//! relates two unbounded integers differently at each location: box IC3 does not prove it
//! in 10 s, and the candidates without locations (float-inv) are not inductive.

mod common;

fn at(loc: u32, next: bool) -> String {
    let bits: Vec<String> = (0..3)
        .map(|k| {
            let name = format!("b{k}{}", if next { "n" } else { "" });
            if loc >> k & 1 == 1 {
                name
            } else {
                format!("(not {name})")
            }
        })
        .collect();
    format!("(and {})", bits.join(" "))
}

fn program(step: u32) -> String {
    let keep = "(= xn x) (= yn y)";
    let moves = [
        format!("(and {} (= xn 0) (= yn 0) {})", at(0, false), at(1, true)),
        format!(
            "(and {} c (= xn (+ x 1)) (= yn y) {})",
            at(1, false),
            at(2, true)
        ),
        format!("(and {} (not c) {keep} {})", at(1, false), at(3, true)),
        format!(
            "(and {} (= xn x) (= yn (+ y {step})) {})",
            at(2, false),
            at(1, true)
        ),
        format!(
            "(and {} (not (= x 0)) (= xn (- x 1)) (= yn y) {})",
            at(3, false),
            at(4, true)
        ),
        format!(
            "(and {} (= x 0) (not (= y 0)) {keep} {})",
            at(3, false),
            at(7, true)
        ),
        format!(
            "(and {} (= x 0) (= y 0) {keep} {})",
            at(3, false),
            at(3, true)
        ),
        format!(
            "(and {} (= xn x) (= yn (- y 1)) {})",
            at(4, false),
            at(3, true)
        ),
        format!("(and {} {keep} {})", at(7, false), at(7, true)),
    ];
    let mut out = String::new();
    for b in ["b0", "b1", "b2"] {
        out += &format!(
            "(declare-fun {b} () Bool)\n(declare-fun {b}n () Bool)\n\
             (define-fun .{b} () Bool (! {b} :next {b}n))\n"
        );
    }
    for v in ["x", "y"] {
        out += &format!(
            "(declare-fun {v} () Int)\n(declare-fun {v}n () Int)\n\
             (define-fun .{v} () Int (! {v} :next {v}n))\n"
        );
    }
    out += "(declare-fun c () Bool)\n";
    out += &format!(
        "(define-fun init () Bool (! {} :init true))\n",
        at(0, false)
    );
    out += &format!(
        "(define-fun trans () Bool (! (or {}) :trans true))\n",
        moves.join("\n  ")
    );
    out += &format!(
        "(define-fun prop () Bool (! (not {}) :invar-property 0))\n",
        at(7, false)
    );
    out
}

/// `icpic3 solve --engine ENGINE --check-certificate` on the program with `step`: exit code,
/// standard output, standard error.
fn solve(engine: &str, step: u32) -> (i32, String, String) {
    let out = common::solve_text(
        "rel-inv",
        &format!("step{step}.vmt"),
        &program(step),
        &["--engine", engine, "--timeout", "30", "--check-certificate"],
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// SAFE with a printed invariant that relates `x` and `y` per location and that the front
/// end re-checked over the original system (`--check-certificate`: a SAFE whose printed
/// clauses do not check is not given).
#[test]
fn relational_guesses_per_boolean_location_prove_the_program() {
    let (code, out, err) = solve("rel-inv", 1);
    assert_eq!(out.lines().next(), Some("SAFE"), "{out}\n{err}");
    assert_eq!(code, 20, "{out}\n{err}");
    assert!(
        out.contains("x - y <= 0") && out.contains("x - y >= 0"),
        "{out}"
    );
    // every lemma is a clause over the location bits and one bound
    assert!(
        out.lines().any(|l| l.contains("b0") && l.contains("x - y")),
        "{out}"
    );
    // without locations the guesses are too weak: the same candidates everywhere
    let (_, out, err) = solve("float-inv", 1);
    assert_eq!(out.lines().next(), Some("UNKNOWN"), "{out}\n{err}");
}

/// With `step = 2` the error location is reachable (the run in the module comment):
/// rel-inv must not answer SAFE, and the portfolio finds and replays the run.
#[test]
fn an_unsafe_program_is_never_proved() {
    let (_, out, err) = solve("rel-inv", 2);
    assert_eq!(out.lines().next(), Some("UNKNOWN"), "{out}\n{err}");
    let (code, out, err) = solve("portfolio", 2);
    assert_eq!(out.lines().next(), Some("UNSAFE"), "{out}\n{err}");
    assert_eq!(code, 10, "{out}\n{err}");
}

/// Two binary32 variables averaged toward each other, both moved by the same input:
/// `x' = fl(fl(0.75·x) + fl(0.25·y)) + u`, `y' = fl(fl(0.25·x) + fl(0.75·y)) + u` (each `+`
/// rounded), `u ∈ [-1, 1]`, both kept in `[0, 100]`. `d = x - y` (exact) becomes
/// `d/2 + e`, with `|e|` a few gaps at 100 (2^-17 each), so `|d| <= 1` is inductive and the
/// target `|fl(x - y)| > threshold` is unreachable for `threshold = 1` (from `y = x`). Interval
/// propagation bounds `x'` and `y'` separately, each moved by `u`: the relation needs the
/// simplex's rounded rows. With `u` on `x` only and `threshold = 1.5` (the `lag` variant) the
/// target is reachable in three steps with `u = 1`: `d` = 1, 1.5, 1.75 (all exact in binary32).
fn averaging(threshold: &str, lag: bool) -> String {
    let (init, uy) = if lag {
        ("x = 0.0;  y = 0.0;", "")
    } else {
        ("x >= 0.0;  x <= 100.0;  y = x;", " + u'")
    };
    format!(
        "DECL\n  fp32 x, y, u;\nINIT\n  {init}\nTRANS\n  u' >= -1.0;  u' <= 1.0;\n  \
         x' = 0.75 * x + 0.25 * y + u';\n  y' = 0.25 * x + 0.75 * y{uy};\n  \
         x' >= 0.0;  x' <= 100.0;  y' >= 0.0;  y' <= 100.0;\nTARGET\n  \
         x - y > {threshold} or y - x > {threshold};\n"
    )
}

fn solve_floats(text: &str, engine: &str, timeout: &str) -> (i32, String, String) {
    let out = common::solve_text(
        "rel-inv-fp",
        &format!("{engine}.hys"),
        text,
        &[
            "--engine",
            engine,
            "--timeout",
            timeout,
            "--check-certificate",
        ],
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// rel-inv proves the averaging system with lemmas over `to_real(x) - to_real(y)` (exact
/// reals, printed so that they re-read with that meaning), re-checked by the front end;
/// float-inv's box guesses alone are not inductive.
#[test]
fn float_terms_with_rounded_rows_prove_the_averaging_filter() {
    let text = averaging("1.0", false);
    let (code, out, err) = solve_floats(&text, "rel-inv", "60");
    assert_eq!(out.lines().next(), Some("SAFE"), "{out}\n{err}");
    assert_eq!(code, 20, "{out}\n{err}");
    assert!(out.contains("to_real(x) - to_real(y)"), "{out}");
    assert!(out.contains("-- certificate checked:"), "{out}");
    let (_, out, err) = solve_floats(&text, "float-inv", "5");
    assert_eq!(out.lines().next(), Some("UNKNOWN"), "{out}\n{err}");
}

/// The lagging variant reaches its target (the run in `averaging`'s comment): rel-inv must
/// not answer SAFE, and the portfolio finds and replays the run.
#[test]
fn a_reachable_float_target_is_never_proved() {
    let text = averaging("1.5", true);
    let (_, out, err) = solve_floats(&text, "rel-inv", "30");
    assert_eq!(out.lines().next(), Some("UNKNOWN"), "{out}\n{err}");
    let (code, out, err) = solve_floats(&text, "portfolio", "30");
    assert_eq!(out.lines().next(), Some("UNSAFE"), "{out}\n{err}");
    assert_eq!(code, 10, "{out}\n{err}");
}
