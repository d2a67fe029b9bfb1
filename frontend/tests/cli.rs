//! The command-line contract (language doc Part C): output, error format and exit codes, run
//! against the real `icpic3` binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn icpic3(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(args)
        .output()
        .expect("icpic3 runs")
}

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("icpic3-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

fn example(name: &str) -> String {
    format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn check_summarises_a_transition_system() {
    let out = icpic3(&["check", &example("thermostat.hys")]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("transition system"), "{stdout}");
    assert!(
        stdout.contains("variables: 1 boole, 2 float (real), 1 int, 1 static"),
        "{stdout}"
    );
    assert!(stdout.contains("constraints: 11"), "{stdout}");
    assert!(stdout.contains("TRANS: 3 definition(s)"), "{stdout}");
    assert!(stdout.contains("warnings: 0"), "{stdout}");
}

#[test]
fn check_json_is_one_object_with_the_counts() {
    let out = icpic3(&["check", "--format", "json", &example("circle_line.hys")]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(v["form"], "formula (EXPR)");
    assert_eq!(v["constraints"], 4);
    assert_eq!(v["variables"]["int"], 1);
    assert_eq!(v["variables"]["float (real)"], 2);
    assert!(v["lowered"]["EXPR"]["definitions"].as_u64().unwrap() > 0);
}

#[test]
fn syntax_errors_are_file_line_col_with_exit_1() {
    let p = temp_file("bad.hys", b"DECL\n  int [0, 3] x;\nEXPR\n  x > 1 ;;\n");
    let out = icpic3(&["check", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    let expected_prefix = format!("{}:4:", p.display());
    assert!(err.starts_with(&expected_prefix), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn semantic_errors_are_reported_all_with_positions() {
    let p = temp_file(
        "undeclared.hys",
        b"DECL\n  float [0, 1] x;\nEXPR\n  y > 1;\n  x' > 0;\n",
    );
    let out = icpic3(&["check", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(&format!("{}:4:3:", p.display())),
        "{err}"
    );
    assert!(
        lines[1].starts_with(&format!("{}:5:3:", p.display())),
        "{err}"
    );
}

#[test]
fn warnings_go_to_stderr_and_do_not_fail() {
    let p = temp_file(
        "warn.hys",
        b"DECL\n  float [0, 1] x;\nEXPR\n  0 <= x <= 1;\n",
    );
    let out = icpic3(&["check", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!("{}:4:", p.display())) && err.contains("warning:"),
        "{err}"
    );
    assert!(text(&out.stdout).contains("warnings: 1"));
    let quiet = icpic3(&["check", "-n", p.to_str().unwrap()]);
    assert!(quiet.stderr.is_empty());
}

#[test]
fn unreadable_and_non_utf8_files_are_bad_input() {
    let out = icpic3(&["check", "/nonexistent/file.hys"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot read file"));
    let p = temp_file("latin1.hys", b"DECL\n  boole b;\nEXPR\n  b; -- caf\xe9\n");
    let out = icpic3(&["check", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!("{}:4:12: file is not valid UTF-8", p.display())),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(icpic3(&[]).status.code(), Some(2));
    assert_eq!(icpic3(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(icpic3(&["check"]).status.code(), Some(2));
    assert_eq!(
        icpic3(&["check", "--format", "xml", "f.hys"]).status.code(),
        Some(2)
    );
    let help = icpic3(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(text(&help.stdout).contains("check"));
}

#[test]
fn dump_prints_the_lowered_problem_and_the_source() {
    let out = icpic3(&["dump", &example("float_1e20.hys")]);
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    // 1e20 is a double; `big + 1.0` is an IEEE addition, rounding to nearest even.
    assert!(s.contains("fadd[RNE](big, "), "{s}");
    assert!(s.contains("feq(sum, big)"), "{s}");
    assert!(s.contains("-- TRANS"), "{s}");
    let src = icpic3(&["dump", "--source", &example("float_1e20.hys")]);
    assert_eq!(src.status.code(), Some(0));
    let printed = temp_file("printed.hys", &src.stdout);
    // The printed source is itself a valid file with the same summary.
    let a = icpic3(&["check", &example("float_1e20.hys")]);
    let b = icpic3(&["check", printed.to_str().unwrap()]);
    assert_eq!(b.status.code(), Some(0));
    let strip = |o: &Output| {
        text(&o.stdout)
            .lines()
            .skip(1)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&a), strip(&b));
}

#[test]
fn deeply_nested_input_is_an_error_not_a_crash() {
    let mut src = String::from("DECL\n  float [0, 1] x;\nEXPR\n  ");
    src.push_str(&"(".repeat(200_000));
    src.push_str("x > 0");
    src.push_str(&")".repeat(200_000));
    src.push_str(";\n");
    let p = temp_file("deep.hys", src.as_bytes());
    let out = icpic3(&["check", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with(&format!("{}:4:", p.display())));
}

#[test]
fn long_chains_check_fine() {
    let mut src = String::from("DECL\n  float [0, 1] x;\nEXPR\n  x");
    for _ in 0..200_000 {
        src.push_str(" + x");
    }
    src.push_str(" >= 0;\n");
    let p = temp_file("chain.hys", src.as_bytes());
    let out = icpic3(&["check", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn solve_unsatisfiable_exits_20() {
    let p = temp_file(
        "unsat.hys",
        b"DECL\n  float [-10, 10] x, y;\nEXPR\n  x^2 + y^2 < 1;\n  x * y > 1;\n",
    );
    let out = icpic3(&["solve", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(20), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().next(), Some("UNSATISFIABLE"));
}

#[test]
fn solve_satisfiable_prints_a_validated_model() {
    let p = temp_file(
        "sat.hys",
        b"DECL\n  int [0, 20] a, b, c;\n  boole on;\nEXPR\n  a * a + b * b = c * c;\n  a > 2;\n  b > a;\n  on <-> c > 10;\n",
    );
    let out = icpic3(&["solve", "-v", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(10), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let mut lines = s.lines();
    assert_eq!(lines.next(), Some("SATISFIABLE"));
    // iSAT3 style: `name:` then an indented point interval; check the model ourselves.
    let value = |name: &str| -> i64 {
        let i = s.find(&format!("\n{name}:\n")).expect("variable printed");
        let line = s[i..].lines().nth(2).unwrap().trim();
        assert!(line.ends_with("-- point interval"), "{line}");
        line.trim_start_matches('[')
            .split(',')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let (a, b, c) = (value("a"), value("b"), value("c"));
    assert_eq!(a * a + b * b, c * c);
    assert!(a > 2 && b > a);
    let on = s.contains("on:\n  true");
    assert_eq!(on, c > 10, "{s}");
}

#[test]
fn solve_candidate_and_json() {
    // x = sqrt(2) has no rational solution: a box, never SATISFIABLE.
    let p = temp_file(
        "cand.hys",
        b"DECL\n  float [0, 10] x;\nEXPR\n  x * x = 2;\n",
    );
    let out = icpic3(&["solve", "--format", "json", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["result"], "CANDIDATE SOLUTION");
    assert_eq!(v["engine"], "icp");
    assert!(v["time_s"].as_f64().unwrap() >= 0.0);
    let lo: f64 = v["box"]["x"]["lo"].as_str().unwrap().parse().unwrap();
    let hi: f64 = v["box"]["x"]["hi"].as_str().unwrap().parse().unwrap();
    assert!(lo <= std::f64::consts::SQRT_2 && std::f64::consts::SQRT_2 <= hi);
    assert!(v["stats"]["propagations"].as_u64().is_some());
}

#[test]
fn solve_with_transcendental_constraints_validates_with_mpfr() {
    let p = temp_file(
        "trans.hys",
        b"DECL\n  float [-10, 10] x, y;\nEXPR\n  sin(x) > 0.9;\n  exp(y) < 0.5;\n  x * y > 1;\n",
    );
    let out = icpic3(&["solve", "--format", "json", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(10), "{}", text(&out.stdout));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let num = |name: &str| -> f64 {
        let s = v["model"][name].as_str().unwrap();
        match s.split_once('/') {
            Some((n, d)) => n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap(),
            None => s.parse().unwrap(),
        }
    };
    let (x, y) = (num("x"), num("y"));
    assert!(x.sin() > 0.9 && y.exp() < 0.5 && x * y > 1.0, "x={x} y={y}");
}

#[test]
fn solve_timeout_and_bad_options() {
    let p = temp_file("t.hys", b"DECL\n  float [0, 1] x;\nEXPR\n  x > 0.5;\n");
    let path = p.to_str().unwrap();
    assert_eq!(
        icpic3(&["solve", "--timeout", "-1", path]).status.code(),
        Some(2)
    );
    assert_eq!(
        icpic3(&["solve", "--msw", "-1", path]).status.code(),
        Some(2)
    );
    assert_eq!(
        icpic3(&["solve", "--timeout", "5", path]).status.code(),
        Some(10)
    );
}

#[test]
fn solve_transition_systems_is_unknown_until_the_engines_exist() {
    let out = icpic3(&["solve", &example("thermostat.hys")]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout).lines().next(), Some("UNKNOWN"));
    assert!(text(&out.stderr).contains("engines"));
}
