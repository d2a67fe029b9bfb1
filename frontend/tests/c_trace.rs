//! C-level traces (`solve --trace`, `deadcode --trace`; docs/c-frontend.md "C-level
//! traces"): the assignments of the confirmed gcc run as `file:line: lvalue = value`. The
//! expected traces are derived by hand in the programs' comments and here, or printed by the
//! program itself (`float_oracle.c` built by gcc with `-DORACLE` prints every value with
//! glibc's `printf`): never taken from the tool's own output.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/trace")
        .join(name)
        .display()
        .to_string()
}

fn icpic3(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(args)
        .output()
        .expect("icpic3 runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).to_string(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

fn json(args: &[&str]) -> (i32, Value) {
    let (code, out, err) = icpic3(args);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("no JSON ({e}): {out}{err}"));
    (code, v)
}

/// A trace entry as the test expects it: line, lvalue, decimal value, hex (floats).
type Entry = (u64, String, String, Option<String>);

fn entries(trace: &Value) -> Vec<Entry> {
    trace
        .as_array()
        .unwrap_or_else(|| panic!("c_trace is an array: {trace}"))
        .iter()
        .map(|e| {
            (
                e["line"].as_u64().unwrap(),
                e["var"].as_str().unwrap().to_string(),
                e["value"].as_str().unwrap().to_string(),
                e["hex"].as_str().map(str::to_string),
            )
        })
        .collect()
}

fn e(line: u64, var: &str, value: &str, hex: Option<&str>) -> Entry {
    (line, var.into(), value.into(), hex.map(str::to_string))
}

/// `main_svcomp.c` with n = 7 (the only input that reaches the error), by hand: 0.1f is
/// 0x3dcccccd = 0x1.99999ap-4, twice that 0x1.99999ap-3 (0.200000003 to 9 digits); 1.0 / 3
/// is 0x1.5555555555555p-2 (0.33333333333333331 to 17 digits); the loop's `i` goes 0..3 and
/// `a[i] = i * 7`. The `for` header's `i = 0` and `i++` are logged at line 15.
fn main_svcomp_expected() -> Vec<Entry> {
    vec![
        e(7, "n", "7", None),
        e(9, "t", "0.100000001", Some("0x1.99999ap-4")),
        e(12, "p.x", "8", None),
        e(13, "p.f", "0.200000003", Some("0x1.99999ap-3")),
        e(15, "i", "0", None),
        e(16, "a[i]", "0", None),
        e(15, "i", "1", None),
        e(16, "a[i]", "7", None),
        e(15, "i", "2", None),
        e(16, "a[i]", "14", None),
        e(15, "i", "3", None),
        e(17, "d", "0.33333333333333331", Some("0x1.5555555555555p-2")),
        e(18, "n", "12", None),
    ]
}

#[test]
fn false_answer_shows_the_hand_derived_run() {
    let f = data("main_svcomp.c");
    let (code, v) = json(&["solve", "--trace", "--format", "json", &f]);
    assert_eq!(code, 10, "{v}");
    assert_eq!(v["result"], "false", "{v}");
    assert_eq!(entries(&v["c_trace"]), main_svcomp_expected(), "{v}");
    assert_eq!(v["c_trace_truncated"], false);
    for x in v["c_trace"].as_array().unwrap() {
        assert!(
            x["file"].as_str().unwrap().ends_with("main_svcomp.c"),
            "{x}"
        );
        assert!(x.get("step").is_none(), "no steps in a run of main: {x}");
    }
    // the text form: the same entries, one per line after the inputs
    let (code, out, _) = icpic3(&["solve", "--trace", &f]);
    assert_eq!(code, 10);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "false", "{out}");
    let at = lines
        .iter()
        .position(|l| *l == "trace: the assignments of the confirmed gcc run, in order")
        .unwrap_or_else(|| panic!("no trace in {out}"));
    let want: Vec<String> = main_svcomp_expected()
        .into_iter()
        .map(|(l, var, val, hex)| match hex {
            Some(h) => format!("  {f}:{l}: {var} = {val} ({h})"),
            None => format!("  {f}:{l}: {var} = {val}"),
        })
        .collect();
    assert_eq!(lines[at + 1..].to_vec(), want, "{out}");
    // without --trace the output is what it was (docs/hys-language.md's contract)
    let (_, plain, _) = icpic3(&["solve", &f]);
    assert!(!plain.contains("trace:"), "{plain}");
    assert_eq!(plain.lines().count(), 3, "{plain}");
}

/// ILP32 (`gcc -m32`, which has no `__int128`): the same run, the same trace.
#[test]
fn ilp32_trace_is_the_same_run() {
    let f = data("main_svcomp.c");
    let (code, v) = json(&[
        "solve",
        "--trace",
        "--data-model",
        "ilp32",
        "--format",
        "json",
        &f,
    ]);
    assert_eq!(code, 10, "{v}");
    assert_eq!(entries(&v["c_trace"]), main_svcomp_expected(), "{v}");
}

/// Builds `float_oracle.c` with `-DORACLE` (each assignment followed on its line by a `printf`
/// of the value) with the replay's IEEE flags, runs it, returns its lines as entries.
fn oracle_entries(src: &str) -> Vec<Entry> {
    let dir = std::env::temp_dir().join(format!("icpic3-c-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe: PathBuf = dir.join("oracle");
    let o = Command::new("gcc")
        .args([
            "-DORACLE",
            "-std=gnu11",
            "-O0",
            "-ffp-contract=off",
            "-fexcess-precision=standard",
            "-mfpmath=sse",
            "-msse2",
        ])
        .arg(src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("gcc runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let run = Command::new(&exe).output().expect("the oracle runs");
    let _ = std::fs::remove_dir_all(&dir);
    let out = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(out.ends_with("reach_error\n"), "{out}");
    out.lines()
        .filter(|l| *l != "reach_error")
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            (
                w[0].parse().unwrap(),
                w[1].to_string(),
                w[2].to_string(),
                w.get(3).map(|s| s.to_string()),
            )
        })
        .collect()
}

#[test]
fn float_values_are_exactly_what_printf_prints() {
    let f = data("float_oracle.c");
    let want = oracle_entries(&f);
    // 6 before the loop, 4 per iteration (3), 1 after
    assert_eq!(want.len(), 6 + 4 * 3 + 1, "{want:?}");
    let (code, v) = json(&["solve", "--trace", "--format", "json", &f]);
    assert_eq!(code, 10, "{v}");
    assert_eq!(entries(&v["c_trace"]), want, "{v}");
}

/// `step3.c` by hand for the inputs the answer reports: `init` sets count = 0 and
/// level = 0.25; a call with in != 0 adds it to count and doubles level (exact in binary32),
/// a call with in == 0 assigns nothing.
#[test]
fn step_function_trace_has_a_header_per_step() {
    let f = data("step3.c");
    let args = ["solve", "--trace", "--step", "step", "--init", "init"];
    let (code, v) = json(&[&args[..], &["--format", "json", &f]].concat());
    assert_eq!(code, 10, "{v}");
    let ins: Vec<i64> = v["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["value"].as_str().unwrap().parse().unwrap())
        .collect();
    // three doublings of 0.25 before level > 1: at least three calls
    assert!(ins.len() >= 3, "{v}");
    let hex = |x: f32| {
        let b = x.to_bits();
        let exp = ((b >> 23) & 0xff) as i32 - 127;
        assert_eq!(b & 0x7f_ffff, 0, "only powers of two here");
        format!("0x1p{}{}", if exp < 0 { "-" } else { "+" }, exp.abs())
    };
    let dec = |x: f32| {
        let s = format!("{x}");
        s.strip_suffix(".0").unwrap_or(&s).to_string()
    };
    let mut want: Vec<(u64, u64, String, String, Option<String>)> = vec![
        (0, 7, "count".into(), "0".into(), None),
        (0, 7, "level".into(), "0.25".into(), Some(hex(0.25))),
    ];
    let (mut count, mut level) = (0i64, 0.25f32);
    for (k, &x) in ins.iter().enumerate() {
        if x == 0 {
            continue;
        }
        count += x;
        level *= 2.0;
        let k = k as u64 + 1;
        want.push((k, 10, "count".into(), count.to_string(), None));
        want.push((k, 11, "level".into(), dec(level), Some(hex(level))));
    }
    let got: Vec<(u64, u64, String, String, Option<String>)> = v["c_trace"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["step"].as_u64().unwrap(),
                x["line"].as_u64().unwrap(),
                x["var"].as_str().unwrap().to_string(),
                x["value"].as_str().unwrap().to_string(),
                x["hex"].as_str().map(str::to_string),
            )
        })
        .collect();
    assert_eq!(got, want, "{v}");
    assert_eq!(count, 7, "the run reaches the error");
    // text: the init's assignments, then one header per call, in order
    let (_, out, _) = icpic3(&[&args[..], &[f.as_str()]].concat());
    let heads: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("step") || l.starts_with("before"))
        .collect();
    let mut want_heads = vec!["before the first step:".to_string()];
    want_heads.extend((1..=ins.len()).map(|k| format!("step {k}:")));
    assert_eq!(heads, want_heads, "{out}");
}

/// `lvalue_rule.c`: `a[k] = twice(1);` is not logged (a call on the right may change what
/// the lvalue's address depends on); `a[k + 1] = k + 2;` and `x = twice(3);` are, and so is
/// `g = 2 * v` in each call of `twice`.
#[test]
fn an_lvalue_whose_address_the_statement_may_change_is_not_logged() {
    let f = data("lvalue_rule.c");
    let (code, v) = json(&["solve", "--trace", "--format", "json", &f]);
    assert_eq!(code, 10, "{v}");
    let want = vec![
        e(10, "k", "1", None),
        e(5, "g", "2", None),
        e(12, "a[k + 1]", "3", None),
        e(5, "g", "6", None),
        e(13, "x", "6", None),
    ];
    assert_eq!(entries(&v["c_trace"]), want, "{v}");
}

/// A long run is cut (10,000 entries by default; 5 here): the first entries, flagged.
#[test]
fn a_long_trace_is_cut_and_says_so() {
    let f = data("main_svcomp.c");
    let o = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(["solve", "--trace", "--format", "json", &f])
        .env("ICPIC3_TRACE_MAX", "5")
        .output()
        .expect("icpic3 runs");
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["result"], "false", "{v}");
    assert_eq!(entries(&v["c_trace"]), main_svcomp_expected()[..5].to_vec());
    assert_eq!(v["c_trace_truncated"], true, "{v}");
    let o = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(["solve", "--trace", &f])
        .env("ICPIC3_TRACE_MAX", "5")
        .output()
        .expect("icpic3 runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.ends_with("  (trace cut after the first 5 assignments)\n"),
        "{out}"
    );
}

#[test]
fn deadcode_trace_of_the_reachable_error_call() {
    let f = data("main_svcomp.c");
    let (_, v) = json(&[
        "deadcode",
        "--trace",
        "--format",
        "json",
        "--timeout",
        "20",
        &f,
    ]);
    let goal = v["goals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["kind"] == "error-call")
        .unwrap_or_else(|| panic!("an error-call goal: {v}"));
    assert_eq!(goal["status"], "REACHABLE", "{goal}");
    assert_eq!(goal["line"], 19);
    assert_eq!(entries(&goal["c_trace"]), main_svcomp_expected(), "{goal}");
    // DEAD goals have no trace
    for g in v["goals"].as_array().unwrap() {
        if g["status"] != "REACHABLE" {
            assert!(g.get("c_trace").is_none(), "{g}");
        }
    }
}

/// `deadcode --format jsonl` streams goal lines before any trace exists: `--trace` is
/// refused there with a message, and no line carries a trace.
#[test]
fn deadcode_trace_is_for_text_and_json_only() {
    let f = data("lvalue_rule.c");
    let (_, out, err) = icpic3(&[
        "deadcode",
        "--trace",
        "--format",
        "jsonl",
        "--timeout",
        "10",
        &f,
    ]);
    assert!(
        err.contains("--trace applies to the text and json formats (ignored)"),
        "{err}"
    );
    assert!(out.lines().count() > 1, "{out}");
    assert!(!out.contains("c_trace"), "{out}");
}
