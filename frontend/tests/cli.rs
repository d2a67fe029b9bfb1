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

/// `solve --format json` output: exactly one JSON object, on one line, with
/// `format_version` 1 and the verdict in `result` (docs D.6).
fn verdict_and_json(stdout: &[u8]) -> serde_json::Value {
    let t = text(stdout);
    assert_eq!(t.lines().count(), 1, "one line: {t}");
    let v: serde_json::Value = serde_json::from_str(&t).expect("one JSON document");
    assert_eq!(v["format_version"], 1, "{t}");
    let verdicts = [
        "SAFE",
        "UNSAFE",
        "SATISFIABLE",
        "UNSATISFIABLE",
        "CANDIDATE SOLUTION",
        "UNKNOWN",
    ];
    assert!(
        verdicts.contains(&v["result"].as_str().unwrap_or("")),
        "{t}"
    );
    v
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
    // each error: its `FILE:LINE:COL: error:` line, the source line and the caret line
    let lines: Vec<&str> = err.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert_eq!(err.lines().count(), 6, "{err}");
    assert!(err.contains(" 4 |   y > 1;\n   |   ^\n"), "{err}");
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
    // x = sqrt(2), a double root of (x² - 2)² = 0: no rational solution, and no existence
    // proof either (the derivative vanishes there): a box, never SATISFIABLE. (The simple
    // root of x·x = 2 is proved: tests/existence.rs.)
    let p = temp_file(
        "cand.hys",
        b"DECL\n  float [0, 10] x;\nEXPR\n  x^4 - 4 * x^2 + 4 = 0;\n",
    );
    let out = icpic3(&["solve", "--format", "json", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = verdict_and_json(&out.stdout);
    assert_eq!(v["result"], "CANDIDATE SOLUTION");
    assert_eq!(v["engine"], "icp");
    assert!(v["time_s"].as_f64().unwrap() >= 0.0);
    let lo: f64 = v["box"]["x"]["lo"].as_str().unwrap().parse().unwrap();
    let hi: f64 = v["box"]["x"]["hi"].as_str().unwrap().parse().unwrap();
    // a candidate box is only where refutation stopped (near, not necessarily around, √2)
    assert!(0.0 <= lo && lo <= hi && hi <= 10.0 && (hi - 2f64.sqrt()).abs() < 0.1);
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
    let v: serde_json::Value = verdict_and_json(&out.stdout);
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

fn suite(name: &str) -> String {
    format!("{}/../examples/ts-suite/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn solve_transition_system_safe_exits_20() {
    for engine in ["portfolio", "kind"] {
        let out = icpic3(&["solve", "--engine", engine, &example("thermostat.hys")]);
        assert_eq!(out.status.code(), Some(20), "stderr: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout).lines().next(), Some("SAFE"));
    }
}

#[test]
fn solve_transition_system_unsafe_prints_the_trace_isat3_style() {
    let out = icpic3(&["solve", "--engine", "bmc", &suite("u_manual_sample2.hys")]);
    assert_eq!(out.status.code(), Some(10), "stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "UNSAFE");
    // the iSAT3 manual's trace: x@5 = 3.625
    assert_eq!(
        lines[1..5],
        [
            "x@0:",
            "    [0.5, 0.5] -- point interval",
            "jump@0:",
            "    false"
        ]
    );
    assert!(
        stdout.contains("x@5:\n    [3.625, 3.625] -- point interval"),
        "{stdout}"
    );
}

#[test]
fn solve_transition_system_json_has_the_trace() {
    let out = icpic3(&["solve", "--format", "json", &suite("u_fibonacci.hys")]);
    assert_eq!(out.status.code(), Some(10));
    let v: serde_json::Value = verdict_and_json(&out.stdout);
    assert_eq!(v["result"], "UNSAFE");
    assert_eq!(v["depth"], 10);
    assert!(v["time_s"].is_number() && v["engine"].is_string());
    let trace = v["trace"].as_array().expect("trace");
    assert_eq!(trace.len(), 11);
    assert_eq!(trace[10]["a"], "55");
    assert_eq!(trace[10]["b"], "89");
}

#[test]
fn solve_transition_system_depth_limit_is_unknown() {
    let f = suite("u_counter_int_60.hys");
    let out = icpic3(&["solve", "--engine", "bmc", "--max-depth", "59", &f]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout).lines().next(), Some("UNKNOWN"));
    let out = icpic3(&[
        "solve",
        "--engine",
        "bmc",
        "--start-depth",
        "60",
        "--max-depth",
        "60",
        &f,
    ]);
    assert_eq!(out.status.code(), Some(10));
    // -v -v: one progress line per depth on stderr, the verdict stays first on stdout
    let out = icpic3(&["solve", "--engine", "bmc", "-v", "-v", &f]);
    assert_eq!(text(&out.stdout).lines().next(), Some("UNSAFE"));
    let err = text(&out.stderr);
    assert!(err.contains("bmc: depth 59 is UNSATISFIABLE"), "{err}");
    assert!(err.contains("bmc: depth 60 is SATISFIABLE"), "{err}");
}

#[test]
fn solve_transition_system_start_depth_does_not_hide_shallow_targets() {
    // all runs end after 10 steps; a start depth beyond that must not turn the reachable
    // n = 10 (depth 10) into SAFE
    let f = suite("u_reached_before_dying.hys");
    let out = icpic3(&["solve", "--engine", "bmc", "--start-depth", "15", &f]);
    assert_eq!(out.status.code(), Some(10), "stdout: {}", text(&out.stdout));
}

#[test]
fn solve_transition_system_timeout_is_honoured_within_a_second() {
    // SAFE, but BMC alone never decides it (runs never end)
    let p = temp_file(
        "hold.hys",
        b"DECL float [0, 35] x; INIT x = 0; TRANS x' = x + 10 or x' = x; \
          TARGET x > 30 and x < 31;",
    );
    let t0 = std::time::Instant::now();
    let out = icpic3(&[
        "solve",
        "--engine",
        "bmc",
        "--timeout",
        "1",
        p.to_str().unwrap(),
    ]);
    let took = t0.elapsed().as_secs_f64();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout).lines().next(), Some("UNKNOWN"));
    assert!(took < 2.0, "took {took} s");
}

#[test]
fn ic3_prints_an_invariant_that_check_certificate_accepts() {
    // x counts 0, 2, 4, … and wraps at 10: odd values are unreachable
    let p = temp_file(
        "even.hys",
        b"DECL int [0, 20] x; INIT x = 0; TRANS x < 10 -> x' = x + 2; x >= 10 -> x' = 0; \
          TARGET x = 7;",
    );
    for frames in ["single", "per-frame"] {
        let out = icpic3(&[
            "solve",
            "--engine",
            "ic3",
            "--config",
            "ind0",
            "--frames",
            frames,
            "--check-certificate",
            p.to_str().unwrap(),
        ]);
        let t = text(&out.stdout);
        assert_eq!(out.status.code(), Some(20), "{t}");
        let mut lines = t.lines();
        assert_eq!(lines.next(), Some("SAFE"));
        assert!(
            lines.next().unwrap().starts_with("-- inductive invariant"),
            "{t}"
        );
        assert!(t.contains("x "), "{t}");
        assert!(t.contains("-- certificate checked"), "{t}");
    }
    let out = icpic3(&[
        "solve",
        "--engine",
        "ic3",
        "--format",
        "json",
        "--config",
        "ind2+abort",
        p.to_str().unwrap(),
    ]);
    let j: serde_json::Value = verdict_and_json(&out.stdout);
    assert_eq!(j["result"], "SAFE");
    assert_eq!(j["engine"], "ic3");
    assert!(j["invariant"].as_array().is_some());
    assert!(j["engine_stats"]["ic3_solver_calls"].as_f64().unwrap() > 0.0);
}

#[test]
fn solve_engine_usage_errors_exit_2() {
    let f = example("thermostat.hys");
    let out = icpic3(&["solve", "--engine", "ic3", "--config", "ind0+ctg", &f]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("need +ig"));
    let out = icpic3(&["solve", "--engine", "ic3", "--config", "bmc", &f]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("indK"));
    assert_eq!(
        icpic3(&["solve", "--engine", "foo", &f]).status.code(),
        Some(2)
    );
    let out = icpic3(&["solve", "--start-depth", "5", "--max-depth", "3", &f]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--max-depth"));
}

/// `--engine bitblast` decides a relational float problem that interval propagation cannot
/// (`x + 1 = x` on `|x| < 2^24`), the portfolio says which engine answered, and the model of
/// a satisfiable one is printed as bits.
#[test]
fn bitblast_engine_and_portfolio_on_expr_problems() {
    let unsat = example("floats/x_plus_one_fp32_small.hys");
    let o = icpic3(&["solve", "--engine", "bitblast", "--timeout", "30", &unsat]);
    assert_eq!(text(&o.stdout).lines().next(), Some("UNSATISFIABLE"));
    assert_eq!(o.status.code(), Some(20));
    let o = icpic3(&["solve", "--format", "json", "--timeout", "30", &unsat]);
    let v = verdict_and_json(&o.stdout);
    assert_eq!(v["result"], "UNSATISFIABLE");
    assert_eq!(v["engine"], "bitblast");
    let sat = example("floats/nan_not_self_equal.hys");
    let o = icpic3(&["solve", "--engine", "bitblast", "--format", "json", &sat]);
    let v = verdict_and_json(&o.stdout);
    assert_eq!(v["result"], "SATISFIABLE");
    assert_eq!(v["engine"], "bitblast");
    let bits = v["model"]["x"]["bits"].as_str().expect("bits");
    let bits = u64::from_str_radix(bits.trim_start_matches("0x"), 16).unwrap();
    assert!(f64::from_bits(bits).is_nan(), "{v}");
    // a problem outside the circuits' reach: UNKNOWN with the reason, never a guess
    let real = temp_file("real.hys", b"DECL float [0, 1] x; EXPR x * x = 0.5;");
    let o = icpic3(&["solve", "--engine", "bitblast", real.to_str().unwrap()]);
    assert_eq!(text(&o.stdout).lines().next(), Some("UNKNOWN"));
    assert!(text(&o.stderr).contains("bit-blasting does not support"));
    // transition systems: `icp` is a usage error, `bitblast` is BMC by bit-blasting
    let ts = example("thermostat.hys");
    let o = icpic3(&["solve", "--engine", "icp", &ts]);
    assert_eq!(o.status.code(), Some(2));
}

/// `--engine bitblast` on a transition system: BMC over circuits finds the machine-integer
/// wrap-around counterexample with an exactly replayed trace at the same depth as ICP's BMC,
/// and declines real-valued systems with the reason.
#[test]
fn bitblast_bmc_on_transition_systems() {
    let f = example("ts-suite/u_int8_wraps.hys");
    let o = icpic3(&["solve", "--engine", "bitblast", "--format", "json", &f]);
    let v = verdict_and_json(&o.stdout);
    assert_eq!(v["result"], "UNSAFE");
    assert_eq!(v["engine"], "bmc-bitblast");
    assert_eq!(o.status.code(), Some(10));
    let o2 = icpic3(&["solve", "--engine", "bmc", "--format", "json", &f]);
    let v2 = verdict_and_json(&o2.stdout);
    assert_eq!(v["depth"], v2["depth"], "both BMCs find the shortest trace");
    let real = example("ts-suite/u_real_counter_past_2_24.hys");
    let o = icpic3(&["solve", "--engine", "bitblast", &real]);
    assert_eq!(text(&o.stdout).lines().next(), Some("UNKNOWN"));
    assert!(text(&o.stderr).contains("bit-blasting does not support"));
}

/// `dump --format dimacs`: the header counts the clauses that follow, and the comment lines
/// name the bits of each declared variable.
#[test]
fn dump_dimacs_of_a_float_problem() {
    let f = example("floats/x_plus_one_fp32_small.hys");
    let o = icpic3(&["dump", "--format", "dimacs", &f]);
    assert_eq!(o.status.code(), Some(0));
    let t = text(&o.stdout);
    let x = t
        .lines()
        .find(|l| l.starts_with("c x lsb-first "))
        .expect("x's bits");
    assert_eq!(x.split_whitespace().count(), 3 + 32);
    let header = t.lines().find(|l| l.starts_with("p cnf ")).expect("header");
    let n: usize = header.split_whitespace().nth(3).unwrap().parse().unwrap();
    let clauses = t.lines().filter(|l| l.ends_with(" 0")).count();
    assert_eq!(n, clauses);
    assert!(n > 100);
    let o = icpic3(&["dump", "--format", "dimacs", &example("thermostat.hys")]);
    assert_eq!(o.status.code(), Some(1));
}

/// Issue #24 items 5 and 6: any positive `--timeout` is accepted and saturates (it panicked
/// converting 1e308 to a `Duration`); a UTF-8 byte-order mark does not make an `.smt2` or
/// `.hys` file an error.
#[test]
fn huge_timeouts_saturate_and_a_bom_is_skipped() {
    let f = temp_file(
        "tiny.hys",
        b"DECL\n  float [0, 10] x;\nEXPR\n  x * x = 4;\n",
    );
    for t in ["1e308", "99999999999999999999", "inf"] {
        let o = icpic3(&["solve", "--timeout", t, f.to_str().unwrap()]);
        assert!(
            matches!(o.status.code(), Some(0 | 10 | 20)),
            "--timeout {t}: {:?} {}",
            o.status.code(),
            text(&o.stderr)
        );
        assert!(!text(&o.stdout).is_empty());
    }
    let o = icpic3(&["solve", "--timeout", "nan", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let bom = temp_file(
        "bom.smt2",
        b"\xEF\xBB\xBF(set-logic QF_LRA)\n(declare-fun x () Real)\n(assert (> x 1.0))\n(check-sat)\n",
    );
    let o = icpic3(&["solve", bom.to_str().unwrap()]);
    assert_eq!(
        text(&o.stdout).lines().next(),
        Some("sat"),
        "{}",
        text(&o.stderr)
    );
    let bom = temp_file(
        "bom.hys",
        b"\xEF\xBB\xBFDECL\n  float [0, 10] x;\nEXPR\n  x * x = 4;\n",
    );
    let o = icpic3(&["solve", bom.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(10), "{}", text(&o.stderr));
}

#[test]
fn version_names_the_commit() {
    let out = icpic3(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    let v = text(&out.stdout);
    let want = format!("icpic3 {} (commit ", env!("CARGO_PKG_VERSION"));
    assert!(v.starts_with(&want), "{v}");
    let commit = v[want.len()..].trim_end().trim_end_matches(')');
    assert!(
        commit == "unknown" || commit.bytes().all(|b| b.is_ascii_hexdigit()),
        "{v}"
    );
    // built from a git checkout: the commit is the checkout's (build.rs reruns on a commit)
    let head = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    if let Some(h) = head.ok().filter(|h| h.status.success()) {
        assert_eq!(commit, text(&h.stdout).trim(), "{v}");
    }
}

/// `icpic3` with `input` on standard input.
fn icpic3_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("icpic3 runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

const HYS_UNSAT: &[u8] = b"-- x cannot exceed 3\nDECL\n  int [0, 3] x;\nEXPR\n  x > 5;\n";
const SMT_SAT: &[u8] = b"; a script\n(declare-const x Int)\n(assert (> x 2))\n(check-sat)\n";
const C_FALSE: &[u8] = b"extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
int main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x == 7) reach_error();\n  return 0;\n}\n";

#[test]
fn files_without_an_extension_are_read_by_their_content() {
    let hys = temp_file("model", HYS_UNSAT);
    let smt = temp_file("script", SMT_SAT);
    let c = temp_file("program", C_FALSE);
    let vmt = temp_file(
        "system",
        b"(declare-fun x () Int)\n(declare-fun x.n () Int)\n\
          (define-fun sv () Int (! x :next x.n))\n\
          (define-fun init () Bool (! (= x 0) :init true))\n\
          (define-fun trans () Bool (! (= x.n (+ x 1)) :trans true))\n\
          (define-fun prop () Bool (! (< x 3) :invar-property 0))\n",
    );
    let solve = |p: &PathBuf| icpic3(&["solve", p.to_str().unwrap()]);
    let o = solve(&hys);
    assert_eq!(
        (text(&o.stdout).lines().next(), o.status.code()),
        (Some("UNSATISFIABLE"), Some(20))
    );
    let o = solve(&smt);
    assert_eq!(
        (text(&o.stdout).as_str(), o.status.code()),
        ("sat\n", Some(10))
    );
    // x = 0, 1, 2, 3 reaches x >= 3 in three steps
    let o = solve(&vmt);
    assert_eq!(
        (text(&o.stdout).lines().next(), o.status.code()),
        (Some("UNSAFE"), Some(10))
    );
    let o = solve(&c);
    assert_eq!(
        (text(&o.stdout).lines().next(), o.status.code()),
        (Some("false"), Some(10)),
        "{}",
        text(&o.stderr)
    );
    // check reports each kind as what it is (not "missing DECL")
    let check = |p: &PathBuf| {
        let o = icpic3(&["check", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    assert!(check(&hys).contains(": formula (EXPR)"));
    let s = check(&smt);
    assert!(
        s.contains(": SMT-LIB script") && s.contains("check-sat: 1"),
        "{s}"
    );
    assert!(check(&vmt).contains(": transition system (VMT)"));
    let s = check(&c);
    assert!(
        s.contains(": C program") && s.contains("functions: main"),
        "{s}"
    );
    // --lang overrides the content: the SMT-LIB script is no .hys file
    let o = icpic3(&["check", "--lang", "hys", smt.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).starts_with(&format!("{}:", smt.display())),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn check_of_a_c_file_checks_c() {
    let ok = temp_file("ok.c", C_FALSE);
    let o = icpic3(&["check", ok.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let s = text(&o.stdout);
    assert!(s.contains("functions: main") && s.contains("main: "), "{s}");
    assert!(!text(&o.stderr).contains("DECL"));
    let j = icpic3(&["check", "--format", "json", ok.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).expect("one JSON object");
    assert_eq!(v["form"], "C program");
    assert_eq!(v["lowered"][0]["function"], "main");
    // a C error: FILE:LINE:COL, the line and a caret, exit 1
    let bad = temp_file("bad.c", b"int main(void) {\n  return y;\n}\n");
    let o = icpic3(&["check", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.starts_with(&format!("{}:2:", bad.display())), "{err}");
    assert!(
        err.contains("error:") && err.contains(" 2 |   return y;"),
        "{err}"
    );
}

#[test]
fn standard_input_is_read_by_its_content_or_lang() {
    let o = icpic3_stdin(&["solve", "-"], HYS_UNSAT);
    assert_eq!(
        (text(&o.stdout).lines().next(), o.status.code()),
        (Some("UNSATISFIABLE"), Some(20))
    );
    let o = icpic3_stdin(&["check", "-"], HYS_UNSAT);
    assert!(
        text(&o.stdout).starts_with("<stdin>: formula (EXPR)"),
        "{}",
        text(&o.stdout)
    );
    let o = icpic3_stdin(&["solve", "-"], SMT_SAT);
    assert_eq!(
        (text(&o.stdout).as_str(), o.status.code()),
        ("sat\n", Some(10))
    );
    let o = icpic3_stdin(&["smt"], SMT_SAT);
    assert_eq!(
        (text(&o.stdout).as_str(), o.status.code()),
        ("sat\n", Some(10))
    );
    let o = icpic3_stdin(&["check", "-"], SMT_SAT);
    assert!(
        text(&o.stdout).starts_with("<stdin>: SMT-LIB script"),
        "{}",
        text(&o.stdout)
    );
    // errors name <stdin> with the line and column
    let o = icpic3_stdin(&["solve", "-"], b"DECL\n  int [0, 3] x;\nEXPR\n  y > 1;\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).starts_with("<stdin>:4:3: error:"),
        "{}",
        text(&o.stderr)
    );
    // blanks and comments only: an empty script
    let o = icpic3_stdin(&["solve", "-"], b"; nothing to do\n\n");
    assert_eq!(
        (o.stdout.len(), o.status.code()),
        (0, Some(0)),
        "{}",
        text(&o.stderr)
    );
    // C needs a file (the preprocessor reads it): a usage error, not a parse error
    let o = icpic3_stdin(&["solve", "-"], C_FALSE);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("C input is read from files"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn smt_reads_a_named_script_and_dump_refuses_other_languages() {
    let smt = temp_file("named.smt2", SMT_SAT);
    let o = icpic3(&["smt", smt.to_str().unwrap()]);
    assert_eq!(
        (text(&o.stdout).as_str(), o.status.code()),
        ("sat\n", Some(10))
    );
    // `smt` reads SMT-LIB whatever the name says
    let hys_named = temp_file("script.hys", SMT_SAT);
    let o = icpic3(&["smt", hys_named.to_str().unwrap()]);
    assert_eq!(
        (text(&o.stdout).as_str(), o.status.code()),
        ("sat\n", Some(10))
    );
    let o = icpic3(&["smt", "--engine", "bmc"]);
    assert_eq!(o.status.code(), Some(2));
    let o = icpic3(&["dump", smt.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("not SMT-LIB input"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn diagnostics_are_coloured_only_when_asked_or_on_a_terminal() {
    let bad = temp_file("colour.hys", b"DECL\n  int [0, 3] x;\nEXPR\n  y > 1;\n");
    let f = bad.to_str().unwrap();
    // piped standard error, --color auto (the default): no escapes
    let plain = icpic3(&["check", f]);
    assert_eq!(plain.status.code(), Some(1));
    assert!(!plain.stderr.contains(&0x1b), "{}", text(&plain.stderr));
    let always = icpic3(&["check", "--color", "always", f]);
    assert_eq!(always.status.code(), Some(1));
    let err = text(&always.stderr);
    assert!(err.contains("\x1b[1;31merror:\x1b[0m"), "{err:?}");
    assert!(err.contains("\x1b[1;32m^\x1b[0m"), "{err:?}");
    // the same report without the escapes
    let stripped = err
        .replace("\x1b[1m", "")
        .replace("\x1b[1;31m", "")
        .replace("\x1b[1;32m", "")
        .replace("\x1b[0m", "");
    assert_eq!(stripped, text(&plain.stderr));
    let never = icpic3(&["--color", "never", "check", f]);
    assert!(!never.stderr.contains(&0x1b));
    // a global flag: also before the subcommand, and on every subcommand
    let o = icpic3(&["--color", "always", "solve", f]);
    assert!(o.stderr.contains(&0x1b));
}

/// Without `--linear`, a transition system with an unbounded integer state variable (VMT) gets
/// the exact simplex and one whose numbers all have ranges (`.hys`) keeps ICP alone; an
/// explicit `--linear` wins. Read from the JSON statistics: the simplex counts its checks.
#[test]
fn transition_systems_get_the_simplex_only_over_unbounded_numbers() {
    // x and y grow together from 0; x - y <= 0 holds in every state (SAFE either way)
    let vmt = temp_file(
        "unbounded.vmt",
        b"(declare-fun x () Int)\n(declare-fun x.n () Int)\n\
          (declare-fun y () Int)\n(declare-fun y.n () Int)\n\
          (define-fun sx () Int (! x :next x.n))\n\
          (define-fun sy () Int (! y :next y.n))\n\
          (define-fun init () Bool (! (and (= x 0) (= y 0)) :init true))\n\
          (define-fun trans () Bool (! (and (= x.n (+ x 1)) (= y.n (+ y 1))) :trans true))\n\
          (define-fun prop () Bool (! (<= (- x y) 0) :invar-property 0))\n",
    );
    let checks = |args: &[&str]| -> (String, u64) {
        let o = icpic3(args);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
        (
            v["result"].as_str().unwrap_or("").to_string(),
            v["stats"]["simplex_checks"]
                .as_u64()
                .expect("simplex_checks"),
        )
    };
    let vmt = vmt.to_str().unwrap();
    let thermostat = example("thermostat.hys");
    let (r, n) = checks(&["solve", "--format", "json", "--timeout", "20", vmt]);
    assert!(r == "SAFE" && n > 0, "VMT default: {r}, {n} simplex checks");
    // interval propagation alone does not prove x - y <= 0 over unbounded integers in
    // seconds (UNKNOWN at 20 s in a debug build), hence the short limit
    let (r, n) = checks(&[
        "solve",
        "--linear",
        "icp",
        "--format",
        "json",
        "--timeout",
        "2",
        vmt,
    ]);
    assert!(
        (r == "SAFE" || r == "UNKNOWN") && n == 0,
        "VMT --linear icp: {r}, {n} simplex checks"
    );
    let (r, n) = checks(&["solve", "--format", "json", "--timeout", "20", &thermostat]);
    assert!(
        r == "SAFE" && n == 0,
        "bounded .hys default: {r}, {n} simplex checks"
    );
}
