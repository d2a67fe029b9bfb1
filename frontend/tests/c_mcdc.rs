//! `icpic3 deadcode --criterion decision|condition|mcdc` on the bundled unit
//! `examples/c/mcdc/unit.c`, against answers derived by hand below; every REACHABLE MC/DC pair
//! is checked again here, independently of the tool, by evaluating the decision on both test
//! cases' inputs with C's short-circuit rules.

use std::process::Command;

fn gcc_available() -> bool {
    let ok = |c: &str| {
        Command::new(c)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    ok("gcc") && ok("cpp")
}

fn unit_c() -> String {
    format!("{}/../examples/c/mcdc/unit.c", env!("CARGO_MANIFEST_DIR"))
}

/// The JSON report of `deadcode --function unit --criterion C` (without the concrete runs
/// when `engines_only`: every REACHABLE then comes from an engine trace and its replay).
fn report(criterion: &str, engines_only: bool) -> serde_json::Value {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_icpic3"));
    cmd.args(["deadcode", "--format", "json", "--timeout", "20"])
        .args(["--function", "unit", "--criterion", criterion])
        .arg(unit_c());
    if engines_only {
        cmd.env("ICPIC3_NO_CONCRETE_RUNS", "1");
    }
    let o = cmd.output().expect("icpic3 runs");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// `r += ...` never overflows (r <= 1 + 2 + 4 + 16 + 0 + 1): the signed-overflow checks of
/// the unit are DEAD under every criterion.
const OVERFLOW_DEAD: [&str; 6] = ["7:9", "9:9", "11:9", "12:5", "14:9", "13:28"];

/// Every goal of the report is expected (`LINE:COL KIND STATUS`) and no expected goal is
/// missing; UNKNOWN is never accepted (each goal here is decided in well under a second).
fn check(v: &serde_json::Value, expected: &[(&str, &str, &str)]) {
    let goals = v["goals"].as_array().unwrap();
    let mut want: Vec<(String, String, String)> = expected
        .iter()
        .map(|(p, k, s)| (p.to_string(), k.to_string(), s.to_string()))
        .collect();
    want.extend(
        OVERFLOW_DEAD
            .iter()
            .map(|p| (p.to_string(), "signed-overflow".into(), "DEAD".into())),
    );
    assert_eq!(goals.len(), want.len(), "{v}");
    for g in goals {
        let at = format!("{}:{}", g["line"], g["column"]);
        let kind = g["kind"].as_str().unwrap();
        let Some((_, _, status)) = want.iter().find(|(p, k, _)| *p == at && k == kind) else {
            panic!("unexpected goal {at} {kind}: {g}");
        };
        assert_eq!(g["status"].as_str().unwrap(), status, "{at} {kind}: {g}");
    }
}

#[test]
fn decision_criterion_is_the_default_report() {
    if !gcc_available() {
        return;
    }
    // every branch outcome of the unit is taken by some input (x = 11 / 0; a = 6 / 0;
    // a = 1, b = 1 / a = 0; the loop runs twice)
    let exp = [
        ("7:9", "then", "REACHABLE"),
        ("6:9", "else", "REACHABLE"),
        ("9:9", "then", "REACHABLE"),
        ("8:9", "else", "REACHABLE"),
        ("11:9", "then", "REACHABLE"),
        ("10:9", "else", "REACHABLE"),
        ("14:9", "loop-body", "REACHABLE"),
    ];
    let v = report("decision", false);
    check(&v, &exp);
    for g in v["goals"].as_array().unwrap() {
        // the default report has no criterion fields
        assert!(
            g.get("condition").is_none() && g.get("tests").is_none(),
            "{g}"
        );
    }
}

#[test]
fn condition_criterion() {
    if !gcc_available() {
        return;
    }
    // line 6 `x > 10 && x > 5`: `x > 5` is evaluated only when x > 10, so it is never false.
    // line 8 `a > 5 && (a > 0 || b > 0)`: `a > 0` is evaluated only when a > 5 (never
    // false), and `b > 0` only when moreover a <= 0: never evaluated, both outcomes DEAD.
    // line 10 `a > 0 && (b > 0 || a > 5)`: every outcome (a = 0; a = 1, b = 1;
    // a = 1, b = 0; a = 6, b = 0). line 12 `!(b == 3)`: b = 3 / b = 0. line 13 `i < 2`:
    // true twice, then false.
    let mut exp = Vec::new();
    for (at, t, f) in [
        ("6:9", "REACHABLE", "REACHABLE"),
        ("6:19", "REACHABLE", "DEAD"),
        ("8:9", "REACHABLE", "REACHABLE"),
        ("8:19", "REACHABLE", "DEAD"),
        ("8:28", "DEAD", "DEAD"),
        ("10:9", "REACHABLE", "REACHABLE"),
        ("10:19", "REACHABLE", "REACHABLE"),
        ("10:28", "REACHABLE", "REACHABLE"),
        ("12:11", "REACHABLE", "REACHABLE"),
        ("13:21", "REACHABLE", "REACHABLE"),
    ] {
        exp.push((at, "condition-true", t));
        exp.push((at, "condition-false", f));
    }
    let v = report("condition", false);
    check(&v, &exp);
    let text = |at: &str| {
        v["goals"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| {
                format!("{}:{}", g["line"], g["column"]) == at && g.get("condition").is_some()
            })
            .map(|g| g["condition"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(text("6:19"), "x > 5");
    assert_eq!(text("8:28"), "b > 0");
}

/// The hand-derived MC/DC answers (unique cause; a condition one evaluation does not reach is
/// a don't-care). Paths are (condition values in order; - = not evaluated) -> outcome.
///
/// line 6 `x > 10 && x > 5`: paths (F, -) -> F, (T, T) -> T, (T, F) -> F.
///   `x > 10`: (T, T) / (F, -): x = 11 / x = 0, REACHABLE.
///   `x > 5`: the only pair is (T, T) / (T, F), and (T, F) needs x > 10 and x <= 5: DEAD.
/// line 8 `a > 5 && (a > 0 || b > 0)` (`a > 0` masked by `a > 5`): paths (F, -, -) -> F,
///   (T, T, -) -> T, (T, F, T) -> T, (T, F, F) -> F; the (T, F, ·) paths need a > 5 and
///   a <= 0.
///   `a > 5`: (T, T, -) / (F, -, -): a = 6 / a = 0, REACHABLE.
///   `a > 0`: only (T, T, -) / (T, F, F): DEAD.  `b > 0`: only (T, F, T) / (T, F, F): DEAD.
/// line 10 `a > 0 && (b > 0 || a > 5)`: every path is feasible, so every condition is
///   REACHABLE (`b > 0`: (T, T, -) / (T, F, F), e.g. a = 1, b = 1 / a = 1, b = 0;
///   `a > 5`: (T, F, T) / (T, F, F), e.g. a = 6, b = 0 / a = 1, b = 0).
/// line 12 `!(b == 3)` and line 13 `i < 2`: one condition each, both values: REACHABLE.
const MCDC: [(&str, &str); 10] = [
    ("6:9", "REACHABLE"),
    ("6:19", "DEAD"),
    ("8:9", "REACHABLE"),
    ("8:19", "DEAD"),
    ("8:28", "DEAD"),
    ("10:9", "REACHABLE"),
    ("10:19", "REACHABLE"),
    ("10:28", "REACHABLE"),
    ("12:11", "REACHABLE"),
    ("13:21", "REACHABLE"),
];

/// A decision of the unit as the test evaluates it: its conditions over (a, b, x) and its
/// `&&`/`||`/`!` structure.
enum T {
    C(usize),
    And(Box<T>, Box<T>),
    Or(Box<T>, Box<T>),
    Not(Box<T>),
}

/// Short-circuit evaluation: the conditions' values (None: not evaluated) and the outcome.
fn eval(t: &T, conds: &[bool], seen: &mut Vec<Option<bool>>) -> bool {
    match t {
        T::C(k) => {
            seen[*k] = Some(conds[*k]);
            conds[*k]
        }
        T::And(l, r) => eval(l, conds, seen) && eval(r, conds, seen),
        T::Or(l, r) => eval(l, conds, seen) || eval(r, conds, seen),
        T::Not(x) => !eval(x, conds, seen),
    }
}

/// The unit's decisions at lines 6, 8, 10 and 12 (each evaluated once per call).
fn decision(line: u64, a: i64, b: i64, x: i64) -> (Vec<bool>, T) {
    let c = |k| Box::new(T::C(k));
    match line {
        6 => (vec![x > 10, x > 5], T::And(c(0), c(1))),
        8 => (
            vec![a > 5, a > 0, b > 0],
            T::And(c(0), Box::new(T::Or(c(1), c(2)))),
        ),
        10 => (
            vec![a > 0, b > 0, a > 5],
            T::And(c(0), Box::new(T::Or(c(1), c(2)))),
        ),
        12 => (vec![b == 3], T::Not(c(0))),
        _ => unreachable!(),
    }
}

/// The unit's parameters (a, b, x) from a test case's inputs (in parameter order).
fn params(test: &serde_json::Value) -> (i64, i64, i64) {
    let ins = test["inputs"].as_array().unwrap();
    assert_eq!(ins.len(), 3, "{test}");
    let v = |i: usize| -> i64 {
        ins[i]["value"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap_or_else(|_| panic!("an int value: {test}"))
    };
    (v(0), v(1), v(2))
}

fn check_mcdc(engines_only: bool) {
    let v = report("mcdc", engines_only);
    let exp: Vec<(&str, &str, &str)> = MCDC.iter().map(|(p, s)| (*p, "mcdc", *s)).collect();
    check(&v, &exp);
    for g in v["goals"].as_array().unwrap() {
        if g["kind"] != "mcdc" {
            continue;
        }
        let detail = g["detail"].as_str().unwrap();
        let tests = g["tests"].as_array().unwrap();
        if g["status"] == "DEAD" {
            assert!(detail.contains("infeasible: no independence pair"), "{g}");
            assert!(tests.is_empty(), "{g}");
            continue;
        }
        // REACHABLE: two test cases, each confirmed by a gcc run of the unit
        assert_eq!(tests.len(), 2, "{g}");
        for t in tests {
            assert!(
                t["label"]
                    .as_str()
                    .unwrap()
                    .contains("confirmed by gcc replay"),
                "{g}"
            );
        }
        let line = g["line"].as_u64().unwrap();
        if line == 13 {
            continue; // the loop condition: every run evaluates it true, true, false
        }
        // the independence pair, re-derived from the inputs: the condition true in test 1
        // and false in test 2, the outcomes different, every other condition evaluated by
        // both with one value
        let (a1, b1, x1) = params(&tests[0]);
        let (a2, b2, x2) = params(&tests[1]);
        let (c1, tree) = decision(line, a1, b1, x1);
        let (c2, _) = decision(line, a2, b2, x2);
        let mut s1 = vec![None; c1.len()];
        let mut s2 = vec![None; c2.len()];
        let o1 = eval(&tree, &c1, &mut s1);
        let o2 = eval(&tree, &c2, &mut s2);
        let cond = exp_index(line, g["column"].as_u64().unwrap());
        assert_eq!((s1[cond], s2[cond]), (Some(true), Some(false)), "{g}");
        assert_ne!(o1, o2, "{g}");
        for k in 0..s1.len() {
            if let (Some(p), Some(q)) = (s1[k], s2[k]) {
                assert!(k == cond || p == q, "condition {k} differs: {g}");
            }
        }
    }
}

/// The condition's number in its decision from its column.
fn exp_index(line: u64, col: u64) -> usize {
    match (line, col) {
        (6, 9) | (8, 9) | (10, 9) | (12, 11) => 0,
        (6, 19) | (8, 19) | (10, 19) => 1,
        (8, 28) | (10, 28) => 2,
        _ => panic!("no condition at {line}:{col}"),
    }
}

#[test]
fn mcdc_criterion() {
    if !gcc_available() {
        return;
    }
    check_mcdc(false);
}

/// The same answers from the engines' traces alone: each path goal's REACHABLE comes from
/// replaying a trace through the marker build of `replay::replay` (not the concrete runs).
#[test]
fn mcdc_criterion_engines_only() {
    if !gcc_available() {
        return;
    }
    check_mcdc(true);
}

/// A chain of nine `||` has ten evaluation paths (within the cap); fourteen conditions in
/// seven `||` pairs joined by `&&` have 3^7 = 2187: UNKNOWN ("too many conditions"), no goal.
#[test]
fn mcdc_cap() {
    if !gcc_available() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("icpic3-mcdc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("cap.c");
    std::fs::write(
        &p,
        "int f(int a, int b, int c, int d, int e)\n{\n\
         if (a == 1 || a == 2 || a == 3 || a == 4 || a == 5 || a == 6 || a == 7 || a == 8 || a == 9)\n\
         return 1;\n\
         if ((a || b) && (c || d) && (e || a) && (b || c) && (d || e) && (a || c) && (b || d))\n\
         return 2;\n\
         return 0;\n}\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(["deadcode", "--format", "json", "--criterion", "mcdc"])
        .arg(&p)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    let goals = v["goals"].as_array().unwrap();
    assert_eq!(goals.len(), 9 + 14, "{v}");
    for g in goals {
        let want = if g["line"] == 3 {
            "REACHABLE"
        } else {
            "UNKNOWN"
        };
        assert_eq!(g["status"], want, "{g}");
        if want == "UNKNOWN" {
            assert!(
                g["detail"]
                    .as_str()
                    .unwrap()
                    .contains("too many conditions"),
                "{g}"
            );
        }
    }
}
