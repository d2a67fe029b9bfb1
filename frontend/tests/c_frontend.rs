//! The C front end (`icpic3 solve FILE.c`, `icpic3 deadcode FILE.c`): C semantics (each
//! program's verdict is derived by hand from the C standard and x86-64 gcc), error positions,
//! and the dead-code reports of the bundled examples.

use std::path::PathBuf;
use std::process::{Command, Output};

fn icpic3(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(args)
        .output()
        .expect("icpic3 runs")
}

fn temp_c(name: &str, body: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("icpic3-c-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let text = format!(
        "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
         extern unsigned int __VERIFIER_nondet_uint(void);\nextern float __VERIFIER_nondet_float(void);\n\
         extern double __VERIFIER_nondet_double(void);\nextern void __VERIFIER_assume(int);\n\
         double sqrt(double);\n{body}\n"
    );
    std::fs::write(&p, text).unwrap();
    p
}

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

/// The front end needs the system C preprocessor.
fn cpp_available() -> bool {
    Command::new("cpp")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn solve(name: &str, body: &str, model: &str) -> (String, String, i32) {
    let p = temp_c(name, body);
    let o = icpic3(&[
        "solve",
        "--timeout",
        "20",
        "--data-model",
        model,
        p.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let first = out.lines().next().unwrap_or("").to_string();
    (
        first,
        out + &String::from_utf8_lossy(&o.stderr),
        o.status.code().unwrap_or(-1),
    )
}

/// (name, program, expected verdict in LP64). `false` needs gcc for the replay.
const CASES: &[(&str, &str, &str)] = &[
    // a float compared with a double constant is promoted: 0.1f != 0.1
    ("float_vs_double", "int main(void) { float x = 0.1f; if (x == 0.1) reach_error(); return 0; }", "true"),
    ("float_vs_double_ne", "int main(void) { float x = 0.1f; if (x != 0.1) reach_error(); return 0; }", "false"),
    ("float_vs_float", "int main(void) { float x = 0.1f; if (x == 0.1f) reach_error(); return 0; }", "false"),
    // integer promotion: unsigned char + unsigned char is an int
    ("promotion", "int main(void) { unsigned char a = 200, b = 100; int c = a + b; if (c != 300) reach_error(); return 0; }", "true"),
    ("narrowing_wraps", "int main(void) { unsigned char a = 200, b = 100; unsigned char s = a + b; if (s != 44) reach_error(); return 0; }", "true"),
    // usual arithmetic conversions: -1 becomes UINT_MAX
    ("signed_vs_unsigned", "int main(void) { unsigned int u = 1; int i = -1; if (i < u) reach_error(); return 0; }", "true"),
    // C division and remainder truncate toward zero
    ("div_rem", "int main(void) { int a = -7; if (a / 2 != -3 || a % 2 != -1) reach_error(); return 0; }", "true"),
    // float -> int truncates
    ("trunc", "int main(void) { double d = -2.7; int i = (int)d; if (i != -2) reach_error(); return 0; }", "true"),
    // unsigned arithmetic wraps around
    ("unsigned_wrap", "int main(void) { unsigned int x = __VERIFIER_nondet_uint(); if (x > 0u) { unsigned int y = x + 1u; if (y == 0u) reach_error(); } return 0; }", "false"),
    // signed overflow is undefined behaviour: never `true`, never `false`
    ("signed_overflow", "int main(void) { int x = __VERIFIER_nondet_int(); if (x > 0) { int y = x + 1; if (y < 0) reach_error(); } return 0; }", "unknown"),
    ("signed_overflow_no_error", "int main(void) { int x = __VERIFIER_nondet_int(); int y = x * 2; return y; }", "unknown"),
    // out-of-range float -> int conversion is undefined behaviour
    ("conv_range", "int main(void) { float f = __VERIFIER_nondet_float(); int i = (int)f; return i; }", "unknown"),
    ("conv_range_ok", "int main(void) { float f = __VERIFIER_nondet_float(); __VERIFIER_assume(f > -1000.0f && f < 1000.0f); int i = (int)f; if (i > 999) reach_error(); return 0; }", "true"),
    // switch with fall-through and default
    ("switch_fall", "int main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x >= 0 && x <= 3); int r = 0;\n switch (x) { case 0: r += 1; case 1: r += 2; break; case 2: r = 10; break; default: r = 20; }\n if (r == 1) reach_error(); return 0; }", "true"),
    ("switch_fall_reach", "int main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x >= 0 && x <= 3); int r = 0;\n switch (x) { case 0: r += 1; case 1: r += 2; break; case 2: r = 10; break; default: r = 20; }\n if (r == 3) reach_error(); return 0; }", "false"),
    // loops with continue and break
    ("loop_sum", "int main(void) { int i; int s = 0; for (i = 0; i < 10; i++) { if (i == 5) continue; if (i == 8) break; s += i; } if (s != 23) reach_error(); return 0; }", "true"),
    ("loop_sum_reach", "int main(void) { int i; int s = 0; for (i = 0; i < 10; i++) { if (i == 5) continue; if (i == 8) break; s += i; } if (s == 23) reach_error(); return 0; }", "false"),
    ("do_while", "int main(void) { int n = 0; do { n++; } while (n < 0); if (n != 1) reach_error(); return 0; }", "true"),
    // short-circuit: the assignment only happens when x > 0
    ("short_circuit", "int main(void) { int c = 0; int x = __VERIFIER_nondet_int(); if (x > 0 && (c = 1)) { } if (x <= 0 && c == 1) reach_error(); return 0; }", "true"),
    ("conditional", "int main(void) { int x = __VERIFIER_nondet_int(); int a = x > 5 ? 1 : 2; if (x > 5 && a == 2) reach_error(); return 0; }", "true"),
    // inlined calls, static locals keep their value across calls
    ("static_local", "int counter(void) { static int n = 0; n++; return n; }\nint main(void) { counter(); counter(); if (counter() != 3) reach_error(); return 0; }", "true"),
    ("globals", "double acc = 1.5;\nvoid add(double v) { acc += v; }\nint main(void) { add(0.25); add(0.25); if (acc != 2.0) reach_error(); return 0; }", "true"),
    // conversion to _Bool: anything non-zero (also NaN) is 1
    ("bool_conv", "int main(void) { _Bool b = 0.5; double z = 0.0; _Bool n = z / z; if (!b || !n) reach_error(); return 0; }", "true"),
    // NaN is the only value unequal to itself
    ("nan_self", "int main(void) { double x = __VERIFIER_nondet_double(); if (x != x) reach_error(); return 0; }", "false"),
    // binary32: 1e20f + 1 rounds back to 1e20f (over the reals it would not)
    ("big_plus_one", "int main(void) { float big = 1e20f; if (big + 1.0f != big) reach_error(); return 0; }", "true"),
    // 16777216 + 1 is a tie that rounds to even in binary32
    ("float_counter", "int main(void) { float x = 16777200.0f; int i; for (i = 0; i < 30; i++) { x = x + 1.0f; } if (x > 16777216.0f) reach_error(); return 0; }", "true"),
    // enum, typedef, compound assignment, casts
    ("enum_typedef", "typedef float real;\nenum e { A = 3, B, C = 10 };\nint main(void) { real r = 2.0f; r *= B; if ((int)r != 8 || C != 10) reach_error(); return 0; }", "true"),
    // sqrt is correctly rounded: sqrt(4) is exactly 2
    ("sqrt_exact", "int main(void) { double x = sqrt(4.0); if (x != 2.0) reach_error(); return 0; }", "true"),
    // system headers declare structs and pointers: only their use is an error
    ("headers", "#include <stdio.h>\n#include <stdint.h>\n#include <math.h>\nint main(void) { int32_t a = 5; uint8_t b = 250; double x = fabs(-2.0);\n if (a + b != 255 || x != 2.0 || isnan(x) || isinf(x) || !isinf(INFINITY) || !isnan(NAN)) reach_error(); return 0; }", "true"),
    // an assignment whose right side calls a function reading the target is well defined
    ("assign_with_call", "float sq(float v) { return v * v; }\nint main(void) { float x = 3.0f; x = x - sq(x) / 9.0f; x += sq(x); if (x != 6.0f) reach_error(); return 0; }", "true"),
    // fixed-size arrays: initializer lists (the rest zero), constant and variable indices
    ("array_const", "int main(void) { int a[3] = {1, 2, 3}; if (a[0] + a[1] + a[2] != 6) reach_error(); return 0; }", "true"),
    ("array_loop", "int main(void) { double t[4] = {0.5, 1.5, 2.5}; double s = 0; int i; for (i = 0; i < 4; i++) s += t[i]; if (s != 4.5) reach_error(); return 0; }", "true"),
    ("array_store", "int main(void) { int i = __VERIFIER_nondet_int(); __VERIFIER_assume(i >= 0 && i < 4); int a[4] = {10, 20, 30, 40}; a[i] = 0; a[i]++; if (a[0] + a[1] + a[2] + a[3] == 91) reach_error(); return 0; }", "false"),
    ("array_store_dead", "int main(void) { int i = __VERIFIER_nondet_int(); __VERIFIER_assume(i >= 0 && i < 4); int a[4] = {10, 20, 30, 40}; a[i] = 0; if (a[0] + a[1] + a[2] + a[3] == 95) reach_error(); return 0; }", "true"),
    ("array_out_of_bounds", "int main(void) { int i = __VERIFIER_nondet_int(); int a[4] = {0}; return a[i]; }", "unknown"),
    ("array_global_zero", "float g[5];\nint main(void) { if (g[4] != 0.0f) reach_error(); return 0; }", "true"),
    ("lookup_table", "static const float tab[5] = {0.0f, 0.5f, 1.0f, 2.0f, 4.0f};\nint main(void) { float x = __VERIFIER_nondet_float(); __VERIFIER_assume(x >= 0.0f && x <= 3.99f);\n int k = (int)x; float y = tab[k] + (x - k) * (tab[k + 1] - tab[k]); if (y > 3.99f) reach_error(); return 0; }", "true"),
    ("lookup_table_reach", "static const float tab[5] = {0.0f, 0.5f, 1.0f, 2.0f, 4.0f};\nint main(void) { float x = __VERIFIER_nondet_float(); __VERIFIER_assume(x >= 0.0f && x <= 3.99f);\n int k = (int)x; float y = tab[k] + (x - k) * (tab[k + 1] - tab[k]); if (y > 3.9f) reach_error(); return 0; }", "false"),
    // LP64: long is 64 bits, so -1L < 1u holds (the unsigned converts to long)
    ("long_lp64", "int main(void) { long l = -1; unsigned int u = 1; if (l < u) reach_error(); return 0; }", "false"),
];

#[test]
fn c_semantics_verdicts() {
    if !cpp_available() {
        return;
    }
    let gcc = gcc_available();
    let mut failures = Vec::new();
    for (name, body, expected) in CASES {
        if *expected == "false" && !gcc {
            continue;
        }
        let (v, all, code) = solve(&format!("{name}.c"), body, "lp64");
        let want_code = match *expected {
            "true" => 20,
            "false" => 10,
            _ => 0,
        };
        if v != *expected || code != want_code {
            failures.push(format!(
                "{name}: expected {expected}, got {v} (exit {code})\n{all}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn data_model_ilp32() {
    if !cpp_available() {
        return;
    }
    // ILP32: long is 32 bits, so -1L converts to UINT_MAX and the comparison is false
    let (v, all, _) = solve(
        "long_ilp32.c",
        "int main(void) { long l = -1; unsigned int u = 1; if (l < u) reach_error(); return 0; }",
        "ilp32",
    );
    assert_eq!(v, "true", "{all}");
}

#[test]
fn false_comes_with_replayed_inputs_and_a_witness() {
    if !gcc_available() {
        return;
    }
    let p = temp_c(
        "witness.c",
        "int main(void) { float x = __VERIFIER_nondet_float(); __VERIFIER_assume(x > 1.0f && x < 2.0f);\n  if (x * x > 3.99f) reach_error();\n  return 0; }",
    );
    let w = p.with_extension("yml");
    let o = icpic3(&[
        "solve",
        "--witness",
        w.to_str().unwrap(),
        p.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(out.lines().next(), Some("false"), "{out}");
    assert_eq!(o.status.code(), Some(10));
    assert!(out.contains("input __VERIFIER_nondet_float()"), "{out}");
    let y = std::fs::read_to_string(&w).expect("witness written");
    assert!(y.contains("entry_type: \"violation_sequence\""), "{y}");
    assert!(y.contains("type: \"function_return\""), "{y}");
    assert!(y.contains("type: \"target\""), "{y}");
    assert!(
        y.contains("line: 9"),
        "the target is the reach_error call on line 9:\n{y}"
    );
}

#[test]
fn bad_c_is_reported_with_its_position() {
    if !cpp_available() {
        return;
    }
    let p = temp_c("syntax.c", "int main(void) { int x = ; return 0; }");
    let o = icpic3(&["solve", p.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("syntax.c:8:"),
        "position of the error in the original file: {err}"
    );
    // unsupported: long double (x86 extended precision)
    let p = temp_c(
        "ptr.c",
        "int main(void) {\n  int a = 1;\n  long double d = a;\n  return a; }",
    );
    let o = icpic3(&["solve", p.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("ptr.c:10:") && err.contains("not supported"),
        "{err}"
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).lines().next(),
        Some("unknown")
    );
    // deadcode: the function is skipped with the message
    let o = icpic3(&["deadcode", p.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        err.contains("ptr.c:10:") && err.contains("skipped"),
        "{err}"
    );
    // the order of side effects on a global is not specified by C
    let p = temp_c(
        "order.c",
        "int g = 0;\nint f(void) { g = g + 1; return g; }\nint main(void) { int x = g + f(); if (x == 2) reach_error(); return 0; }",
    );
    let o = icpic3(&["solve", p.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        err.contains("order.c:10:26") && err.contains("`g`"),
        "{err}"
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).lines().next(),
        Some("unknown")
    );
    // recursion
    let p = temp_c(
        "rec.c",
        "int f(int n) { return n > 0 ? f(n - 1) : 0; }\nint main(void) { return f(3); }",
    );
    let o = icpic3(&["solve", p.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        err.contains("rec.c:8:") && err.contains("recursive"),
        "{err}"
    );
}

#[test]
fn garbage_never_panics() {
    if !cpp_available() {
        return;
    }
    let inputs: &[&str] = &[
        "",
        "int",
        "}}}}",
        "int main(void) { return 0",
        "int main(void) { switch (1) { case 1.5: break; } }",
        "int main(void) { break; }",
        "int main(void) { int a[3]; return a[0]; }",
        "struct s { int x; }; int main(void) { return 0; }",
        "int main(void) { return 1 / 0; }",
        "int main(void) { long double x = 1.0L; return 0; }",
        "int main(void) { goto l; l: return 0; }",
        "\u{0}\u{1}\u{2}",
        "int main(void) { return 99999999999999999999999999999999999999999; }",
        "int main(void) { int x = 1 << 40; return x; }",
        "int main(void) { char c = 'ab'; return c; }",
    ];
    for (i, t) in inputs.iter().enumerate() {
        let dir = std::env::temp_dir().join(format!("icpic3-c-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(format!("garbage{i}.c"));
        std::fs::write(&p, t).unwrap();
        for cmd in ["solve", "deadcode"] {
            let o = icpic3(&[cmd, "--timeout", "5", p.to_str().unwrap()]);
            let code = o.status.code();
            assert!(
                matches!(code, Some(0) | Some(1) | Some(10) | Some(20)),
                "{cmd} on {t:?}: exit {code:?}\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(!err.contains("panicked"), "{cmd} on {t:?}: {err}");
        }
    }
}

fn example(name: &str) -> String {
    format!("{}/../examples/c/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `examples/c/expected.txt`: `FILE LINE:COL KIND STATUS` per goal, hand-verified.
fn expected(file: &str) -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(example("expected.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0] == file).then(|| (f[1].to_string(), f[2].to_string(), f[3].to_string()))
        })
        .collect()
}

fn deadcode_json(file: &str, timeout: &str) -> serde_json::Value {
    let o = icpic3(&[
        "deadcode",
        "--format",
        "json",
        "--timeout",
        timeout,
        &example(file),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// Every goal of the report is in the expectations with the same kind; a DEAD or REACHABLE
/// answer must match the hand-verified status (UNKNOWN is allowed only where `allow_unknown`).
fn check_report(file: &str, timeout: &str, allow_unknown: bool) {
    if !gcc_available() {
        return;
    }
    let exp = expected(file);
    let v = deadcode_json(file, timeout);
    let goals = v["goals"].as_array().unwrap();
    assert_eq!(goals.len(), exp.len(), "number of goals of {file}: {v}");
    for g in goals {
        let at = format!("{}:{}", g["line"], g["column"]);
        let kind = g["kind"].as_str().unwrap();
        let status = g["status"].as_str().unwrap();
        let Some((_, _, want)) = exp.iter().find(|(p, k, _)| *p == at && k == kind) else {
            panic!("unexpected goal {at} {kind} in {file}");
        };
        if status == "UNKNOWN" && allow_unknown {
            continue;
        }
        assert_eq!(status, want, "{file} {at} {kind}: {g}");
        // a concrete run may reach a goal (a loop body) before its first input
        if status == "REACHABLE" && !g["detail"].as_str().unwrap().contains("concrete run") {
            assert!(!g["inputs"].as_array().unwrap().is_empty(), "{g}");
        }
    }
}

#[test]
fn deadcode_clamp_filter() {
    check_report("clamp_filter.c", "20", false);
}

#[test]
fn deadcode_mode_switch() {
    // the deepest goals need 8 steps; UNKNOWN is allowed there under a short limit, but no
    // answer may contradict the hand-verified status
    check_report("mode_switch.c", "4", true);
}

/// Random C expressions over int, unsigned, float, double, long long, short and unsigned
/// char (promotions, usual arithmetic conversions, casts, comparisons, `?:`, bitwise
/// operators), evaluated by gcc on x86-64 (SSE, exact IEEE); icpic3 must prove that each
/// result is exactly gcc's (`true`) and reach the error when one check is inverted (`false`).
#[test]
fn random_expressions_agree_with_gcc() {
    if !gcc_available() {
        return;
    }
    for seed in [1u64, 2, 3] {
        let mut rng = Rng(seed.wrapping_mul(0x9e3779b97f4a7c15) | 1);
        let mut decls = String::new();
        let mut checks = Vec::new();
        for i in 0..25 {
            let (e, k) = gen(&mut rng, 3);
            decls.push_str(&format!("  {} r{i} = {e};\n", k.c()));
            checks.push(k);
        }
        let vars = "  int a = -37; unsigned int u = 4000000000u; float f = 0.1f; double d = -2.5e-3;\n  long long l = -1234567LL; short s = -300; unsigned char c = 250;\n";
        // gcc's values
        let mut pr = String::from("#include <stdio.h>\nint main(void) {\n");
        pr.push_str(vars);
        pr.push_str(&decls);
        for (i, k) in checks.iter().enumerate() {
            pr.push_str(&match k {
                K::F | K::D => format!("  printf(\"%a\\n\", (double)r{i});\n"),
                K::U => format!("  printf(\"%llu\\n\", (unsigned long long)r{i});\n"),
                _ => format!("  printf(\"%lld\\n\", (long long)r{i});\n"),
            });
        }
        pr.push_str("  return 0;\n}\n");
        let dir = std::env::temp_dir().join(format!("icpic3-c-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join(format!("gen{seed}.c"));
        let exe = dir.join(format!("gen{seed}"));
        std::fs::write(&src, &pr).unwrap();
        let o = Command::new("gcc")
            .args(["-O0", "-ffp-contract=off", "-w", "-o"])
            .arg(&exe)
            .arg(&src)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = Command::new(&exe).output().unwrap();
        let vals: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(vals.len(), checks.len());
        let cond = |i: usize, k: &K, v: &str, negate: bool| -> String {
            let (eq, ne) = if negate { ("!=", "==") } else { ("==", "!=") };
            match (k, v.trim_start_matches('-')) {
                (K::F | K::D, "nan") => format!("r{i} {eq} r{i}"),
                (K::F | K::D, "inf") => {
                    let s = if v.starts_with('-') { "-" } else { "" };
                    format!("r{i} {ne} ({})({s}1.0 / 0.0)", k.c())
                }
                (K::F | K::D, _) => format!("r{i} {ne} ({})({v})", k.c()),
                (K::U, _) => format!("r{i} {ne} ({})({v}ULL)", k.c()),
                _ => format!("r{i} {ne} ({})({v}LL)", k.c()),
            }
        };
        let mut prog = String::from("int main(void) {\n");
        prog.push_str(vars);
        prog.push_str(&decls);
        for (i, k) in checks.iter().enumerate() {
            prog.push_str(&format!(
                "  if ({}) reach_error();\n",
                cond(i, k, &vals[i], false)
            ));
        }
        prog.push_str("  return 0;\n}\n");
        let (v, all, _) = solve(&format!("agree{seed}.c"), &prog, "lp64");
        assert_eq!(
            v, "true",
            "seed {seed}: icpic3 disagrees with gcc on\n{prog}\ngcc: {vals:?}\n{all}"
        );
        // the inverted check of the last result is reachable
        let last = checks.len() - 1;
        let mut prog2 = String::from("int main(void) {\n");
        prog2.push_str(vars);
        prog2.push_str(&decls);
        prog2.push_str(&format!(
            "  if ({}) reach_error();\n  return 0;\n}}\n",
            cond(last, &checks[last], &vals[last], true)
        ));
        let (v, all, _) = solve(&format!("disagree{seed}.c"), &prog2, "lp64");
        assert_eq!(v, "false", "seed {seed}:\n{prog2}\n{all}");
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[derive(Clone, Copy, PartialEq)]
enum K {
    I,
    U,
    F,
    D,
    L,
}

impl K {
    fn c(self) -> &'static str {
        match self {
            K::I => "int",
            K::U => "unsigned int",
            K::F => "float",
            K::D => "double",
            K::L => "long long",
        }
    }
    fn is_int(self) -> bool {
        matches!(self, K::I | K::U | K::L)
    }
}

fn conv(a: K, b: K) -> K {
    if a == K::D || b == K::D {
        K::D
    } else if a == K::F || b == K::F {
        K::F
    } else if a == K::L || b == K::L {
        K::L
    } else if a == K::U || b == K::U {
        K::U
    } else {
        K::I
    }
}

fn leaf(r: &mut Rng) -> (String, K) {
    let v: &[(&str, K)] = &[
        ("a", K::I),
        ("u", K::U),
        ("f", K::F),
        ("d", K::D),
        ("l", K::L),
        ("s", K::I),
        ("c", K::I),
        ("7", K::I),
        ("-3", K::I),
        ("3000000000u", K::U),
        ("1.5f", K::F),
        ("0.1f", K::F),
        ("16777217.0f", K::F),
        ("0.1", K::D),
        ("1e-3", K::D),
        ("-2.5", K::D),
        ("3.0e10", K::D),
        ("0x1.8p-3", K::D),
        ("2251799813685247LL", K::L),
        ("1e38f", K::F),
    ];
    let (s, k) = v[r.pick(v.len() as u64) as usize];
    (s.to_string(), k)
}

fn gen(r: &mut Rng, depth: u32) -> (String, K) {
    if depth == 0 || r.pick(4) == 0 {
        return leaf(r);
    }
    match r.pick(10) {
        0..=2 => {
            let (x, kx) = gen(r, depth - 1);
            let (y, ky) = gen(r, depth - 1);
            let op = if r.pick(2) == 0 { "+" } else { "-" };
            (format!("({x} {op} {y})"), conv(kx, ky))
        }
        3 => {
            let (x, kx) = leaf(r);
            let (y, ky) = leaf(r);
            // no signed overflow: the 2^51 - 1 constant only in sums (sums stay below 2^53: the solver cannot pin int64 values beyond 2^53, it answers unknown there)
            let op = if x.ends_with("LL") || y.ends_with("LL") {
                "+"
            } else {
                "*"
            };
            (format!("({x} {op} {y})"), conv(kx, ky))
        }
        4 => {
            let (x, kx) = gen(r, depth - 1);
            let (y, ky) = gen(r, depth - 1);
            let k = conv(kx, ky);
            if k.is_int() {
                (format!("({x} % 7)"), conv(kx, K::I))
            } else {
                (format!("({x} / {y})"), k)
            }
        }
        5 => {
            let (x, _) = gen(r, depth - 1);
            let (y, _) = gen(r, depth - 1);
            let op = ["<", "<=", "==", "!=", ">", ">="][r.pick(6) as usize];
            (format!("({x} {op} {y})"), K::I)
        }
        6 => {
            let (c, _) = gen(r, depth - 1);
            let (x, kx) = gen(r, depth - 1);
            let (y, ky) = gen(r, depth - 1);
            (format!("(({c}) > 0 ? {x} : {y})"), conv(kx, ky))
        }
        7 => {
            let (x, kx) = gen(r, depth - 1);
            match r.pick(4) {
                0 => (format!("((float)({x}))"), K::F),
                1 => (format!("((double)({x}))"), K::D),
                2 if kx.is_int() => (format!("((unsigned char)({x}))"), K::I),
                3 if kx.is_int() => (format!("((unsigned int)({x}))"), K::U),
                _ => (format!("((double)({x}))"), K::D),
            }
        }
        8 => {
            let (x, kx) = gen(r, depth - 1);
            let (y, ky) = gen(r, depth - 1);
            if kx.is_int() && ky.is_int() {
                let op = ["&", "|", "^"][r.pick(3) as usize];
                (format!("({x} {op} {y})"), conv(kx, ky))
            } else {
                (format!("({x} + {y})"), conv(kx, ky))
            }
        }
        _ => {
            let (x, kx) = gen(r, depth - 1);
            match r.pick(3) {
                0 => (format!("(!{x})"), K::I),
                1 if kx == K::U => (format!("(~{x})"), K::U),
                _ => (format!("(-({x}))"), kx),
            }
        }
    }
}

/// Unbraced and nested statements, `else if`, fall-through cases: every branch goal is
/// reachable, so every instrumentation of the C text (one goal, and all open goals at once
/// for coverage) must compile and observe its goal.
#[test]
fn deadcode_instrumentation_of_unbraced_code() {
    if !gcc_available() {
        return;
    }
    let p = temp_c(
        "unbraced.c",
        "int main(void) {\n  int x = __VERIFIER_nondet_int();\n  int y = 0, k;\n  for (k = 0; k < 2; k++)\n    if (x > 5)\n      if (x < 10) y = 1;\n  if (x == 7) y = 2; else if (x == 8) y = 3;\n  switch (x) { case 1: case 2: y = 4; break; default: ; }\n  while (y > 100) y--;\n  return y;\n}",
    );
    // with the concrete-run prepass, and without it (then the engines' traces and their
    // coverage replays answer)
    for prepass in [true, false] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_icpic3"));
        cmd.args(["deadcode", "--format", "json", "--timeout", "20"])
            .arg(&p);
        if !prepass {
            cmd.env("ICPIC3_NO_CONCRETE_RUNS", "1");
        }
        let o = cmd.output().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
        let goals = v["goals"].as_array().unwrap();
        let mut covered = 0;
        for g in goals {
            let kind = g["kind"].as_str().unwrap();
            let status = g["status"].as_str().unwrap();
            let want = match (kind, g["line"].as_u64()) {
                ("signed-overflow", _) => "DEAD",
                // `while (y > 100)`: y <= 4
                ("loop-body", Some(16)) => "DEAD",
                ("then", Some(16)) => "DEAD",
                _ => "REACHABLE",
            };
            assert_eq!(status, want, "{g}");
            if g["detail"]
                .as_str()
                .unwrap()
                .contains("the inputs found for")
            {
                covered += 1;
            }
        }
        assert!(goals.len() >= 14, "{v}");
        if prepass {
            continue;
        }
        assert!(
            covered >= 3,
            "coverage replays confirm several goals at once: {v}"
        );
    }
}

/// `examples/c/suite/expected.txt`: `FILE LINE:COL KIND STATUS [unknown-ok]` per goal.
fn suite_expected() -> Vec<(String, String, String, String, bool)> {
    let text = std::fs::read_to_string(example("suite/expected.txt")).unwrap();
    text.lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert!(
                f.len() == 4 || (f.len() == 5 && f[4] == "unknown-ok"),
                "{l}"
            );
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].to_string(),
                f[3].to_string(),
                f.len() == 5,
            )
        })
        .collect()
}

/// The float-pitfall suite: every goal of every file gets its hand-derived status (UNKNOWN
/// only where marked `unknown-ok`), every file's goal list is exactly the expected one, and
/// every REACHABLE answer comes with inputs. Per-goal timeout 3 s.
#[test]
fn deadcode_suite() {
    if !gcc_available() {
        return;
    }
    let exp = suite_expected();
    let mut files: Vec<String> = exp.iter().map(|e| e.0.clone()).collect();
    files.dedup();
    let on_disk = std::fs::read_dir(example("suite"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "c"))
        .count();
    assert!(files.len() >= 20, "{files:?}");
    assert_eq!(files.len(), on_disk, "every suite file has expectations");
    let start = std::time::Instant::now();
    let mut unknown = 0;
    for file in &files {
        let o = icpic3(&[
            "deadcode",
            "--format",
            "json",
            "--timeout",
            "3",
            &example(&format!("suite/{file}")),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{file}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
        let goals = v["goals"].as_array().unwrap();
        let mine: Vec<_> = exp.iter().filter(|e| &e.0 == file).collect();
        let text = std::fs::read_to_string(example(&format!("suite/{file}"))).unwrap();
        let has_inputs = text.contains("__VERIFIER_nondet");
        assert_eq!(goals.len(), mine.len(), "number of goals of {file}: {v}");
        for g in goals {
            let at = format!("{}:{}", g["line"], g["column"]);
            let kind = g["kind"].as_str().unwrap();
            let status = g["status"].as_str().unwrap();
            let Some(e) = mine.iter().find(|e| e.1 == at && e.2 == kind) else {
                panic!("unexpected goal {at} {kind} in {file}");
            };
            assert!(g["time_s"].as_f64().is_some(), "per-goal time: {g}");
            if status == "UNKNOWN" && e.4 {
                unknown += 1;
                continue;
            }
            assert_eq!(status, e.3, "{file} {at} {kind}: {g}");
            // a solver's trace reads inputs; a concrete run may reach a goal (a loop body)
            // before its first input
            let concrete = g["detail"].as_str().unwrap().contains("concrete run");
            if status == "REACHABLE" && has_inputs && !concrete {
                assert!(!g["inputs"].as_array().unwrap().is_empty(), "{g}");
            }
        }
    }
    eprintln!(
        "suite: {} files, {} goals, {unknown} tolerated UNKNOWN, {:.1} s",
        files.len(),
        exp.len(),
        start.elapsed().as_secs_f64()
    );
}

/// The 319-line controller: 115 goals, a few minutes with 2 cores, so not in CI
/// (`cargo test --release -p frontend --test c_frontend -- --ignored`). Every DEAD or
/// REACHABLE answer must match the hand-derived status.
#[test]
#[ignore]
fn deadcode_controller() {
    check_report("controller.c", "20", true);
}

/// `<math.h>` declares `extern int signgam;`: an unused extern is not a harness input, so the
/// double input of this program is replayed with its own value (before the fix the extern's
/// value was fed to the first nondet call and the answer was `unknown`).
#[test]
fn math_h_extern_does_not_shift_replay_inputs() {
    if !gcc_available() || !cpp_available() {
        return;
    }
    let (first, all, code) = solve(
        "math_h_extern.c",
        "#include <math.h>\nextern double __VERIFIER_nondet_double(void);\nextern void reach_error(void);\n\
         int main(void) { double x = __VERIFIER_nondet_double(); if (x > 1.0 && !isnan(sqrt(x))) reach_error(); return 0; }\n",
        "lp64",
    );
    assert_eq!(first, "false", "{all}");
    assert_eq!(code, 10, "{all}");
    assert!(all.contains("input __VERIFIER_nondet_double()"), "{all}");
}

/// Goals in parallel: the report (order, positions, kinds, statuses) is the same with one
/// and with three workers, and every goal has its own time.
#[test]
fn deadcode_jobs_do_not_change_the_report() {
    if !gcc_available() {
        return;
    }
    let run = |jobs: &str| {
        let o = icpic3(&[
            "deadcode",
            "--format",
            "json",
            "--timeout",
            "20",
            "--jobs",
            jobs,
            &example("clamp_filter.c"),
        ]);
        assert_eq!(o.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["jobs"].as_u64(), Some(jobs.parse().unwrap()));
        v["goals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                assert!(g["time_s"].as_f64().unwrap() >= 0.0, "{g}");
                format!(
                    "{}:{} {} {}",
                    g["line"], g["column"], g["kind"], g["status"]
                )
            })
            .collect::<Vec<_>>()
    };
    let one = run("1");
    assert_eq!(one.len(), 12);
    assert_eq!(one, run("3"));
    let text = icpic3(&["deadcode", "--jobs", "0", &example("clamp_filter.c")]);
    assert_eq!(text.status.code(), Some(2), "--jobs 0 is a usage error");
}

/// Engine traces and their coverage runs, without the concrete-run prepass: every goal of a
/// function inlined at two calls (the `else` of an `if` without `else` shares one place in the
/// text: its replay used to insert the `} else { marker }` once per copy, which gcc rejected),
/// the signed overflow of `x * 2` confirmed by the sanitizer build, the dead overflow proved.
#[test]
fn engine_traces_without_prepass_inlined_goals_and_ub() {
    if !gcc_available() {
        return;
    }
    let p = temp_c(
        "inlined_twice.c",
        "static int f(int x) { int r = 0; if (x > 5) { r = x * 2; } if (x > 1000000) { r = 7; } return r; }\n\
         int main(void) { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int();\n\
         if (b < 0 || b > 100) return 0; return f(a) + f(b); }\n",
    );
    let o = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(["deadcode", "--format", "json", "--timeout", "10"])
        .arg(&p)
        .env("ICPIC3_NO_CONCRETE_RUNS", "1")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    let goals = v["goals"].as_array().unwrap();
    let status = |line: u64, col: u64, kind: &str| -> String {
        goals
            .iter()
            .find(|g| g["line"] == line && g["column"] == col && g["kind"] == kind)
            .unwrap_or_else(|| panic!("goal {line}:{col} {kind} in {v}"))["status"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(goals.len(), 8, "{v}");
    for g in goals {
        // the prepass is off: a run of its own never answers
        assert!(
            !g["detail"]
                .as_str()
                .unwrap()
                .starts_with("by a concrete run with pseudo-random"),
            "{g}"
        );
    }
    // temp_c puts seven declarations first: f is on line 8
    assert_eq!(status(8, 45, "then"), "REACHABLE", "{v}");
    assert_eq!(status(8, 38, "else"), "REACHABLE", "{v}");
    assert_eq!(status(8, 51, "signed-overflow"), "REACHABLE", "{v}"); // a = 2^30
    assert_eq!(status(8, 77, "then"), "REACHABLE", "{v}");
    assert_eq!(status(8, 64, "else"), "REACHABLE", "{v}");
    assert_eq!(status(10, 23, "then"), "REACHABLE", "{v}");
    assert_eq!(status(10, 5, "else"), "REACHABLE", "{v}");
    assert_eq!(status(10, 40, "signed-overflow"), "DEAD", "{v}"); // f(a) + f(b) <= 2^31 - 2 + 200
}
