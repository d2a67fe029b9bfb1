//! `deadcode --step`: a unit in its environment (docs/c-frontend.md "Step functions"). The
//! units in `examples/c/step/` state their hand-derived answers in their header comments;
//! each expectation below says why. A REACHABLE goal is confirmed by the tool's gcc replay of
//! the init + step loop; the chart's test case is also replayed here by a driver of our own
//! (gcc, the CSV values, the goal's visible effect), independent of the tool's harness.

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn unit(name: &str) -> String {
    root()
        .join("examples/c/step")
        .join(name)
        .display()
        .to_string()
}

/// Runs `deadcode --format json` and returns the goals as (line, kind) → (status, goal).
fn deadcode(args: &[&str]) -> (HashMap<(u64, String), String>, Value) {
    let mut all = vec!["deadcode", "--format", "json", "--timeout", "60"];
    all.extend_from_slice(args);
    let o = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(&all)
        .output()
        .expect("icpic3 runs");
    let out = String::from_utf8_lossy(&o.stdout);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| {
        panic!(
            "no JSON ({e}): {out}\n{}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    let mut m = HashMap::new();
    for g in v["goals"].as_array().unwrap() {
        let key = (
            g["line"].as_u64().unwrap(),
            g["kind"].as_str().unwrap().to_string(),
        );
        let s = g["status"].as_str().unwrap().to_string();
        // two goals of one kind on a line: keep the more informative (never happens in
        // these units; asserted)
        assert!(m.insert(key.clone(), s).is_none(), "two goals at {key:?}");
    }
    (m, v)
}

fn expect(m: &HashMap<(u64, String), String>, line: u64, kind: &str, status: &str, why: &str) {
    let got = m.get(&(line, kind.to_string()));
    assert_eq!(
        got.map(|s| s.as_str()),
        Some(status),
        "{kind} at line {line}: {why}; all goals: {m:?}"
    );
}

fn gcc_m32() -> bool {
    let dir = std::env::temp_dir().join(format!("icpic3-step-m32-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("p.c");
    std::fs::write(&src, "int main(void) { return 0; }\n").unwrap();
    Command::new("gcc")
        .args(["-m32", "-o"])
        .arg(dir.join("p"))
        .arg(&src)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The chart in both data models: every goal reachable in some number of steps except the
/// state no transition enters and the counter overflow (the counter stops at 3).
fn chart_expectations(m: &HashMap<(u64, String), String>) {
    expect(m, 20, "then", "REACHABLE", "first activation, step 1");
    expect(m, 23, "else", "REACHABLE", "step 2: the chart is active");
    expect(m, 26, "then", "REACHABLE", "step 2 with enable > 0.5");
    expect(
        m,
        31,
        "then",
        "REACHABLE",
        "step 3 from Armed with speed > 10",
    );
    expect(
        m,
        34,
        "else",
        "REACHABLE",
        "step 3 from Armed with speed <= 10",
    );
    expect(m, 39, "then", "REACHABLE", "Active with count < 3");
    expect(
        m,
        41,
        "else",
        "REACHABLE",
        "Active from step 7 on, count = 3",
    );
    expect(
        m,
        44,
        "then",
        "REACHABLE",
        "count >= 2 and speed < 1: step 5",
    );
    expect(m, 50, "then", "DEAD", "is_c1 is only ever 0..3");
    expect(m, 40, "signed-overflow", "DEAD", "count stops at 3");
}

#[test]
fn chart_goal_needs_five_steps() {
    let dir = std::env::temp_dir().join(format!("icpic3-step-tests-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.display().to_string();
    let (m, v) = deadcode(&[
        &unit("chart.c"),
        "--step",
        "chart_step",
        "--init",
        "chart_initialize",
        "--tests",
        &d,
    ]);
    chart_expectations(&m);
    // the report names the inputs and the state
    let env = &v["summary"]["environment"][0];
    assert_eq!(env["step"], Value::Bool(true));
    let inputs: Vec<&str> = env["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(inputs, ["chart_U.enable", "chart_U.speed"]);
    let state = env["state"].as_array().unwrap();
    assert!(state.iter().any(|x| x == "chart_DW"), "{env}");
    // the goal's test case: at least five steps (hand-derived minimum), each with both inputs
    let goal = v["goals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["line"] == 44 && g["kind"] == "then")
        .unwrap();
    let steps = goal["test_case"]["steps"].as_array().unwrap();
    assert!(steps.len() >= 5, "a test case of {} steps", steps.len());
    assert!(steps.iter().all(|s| s.as_array().unwrap().len() == 2));
    // the CSV: replayed here by a driver of our own
    let tag = format!("_44_{}_then.csv", goal["column"]);
    let csv = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .find(|e| e.file_name().to_string_lossy().ends_with(&tag))
        .expect("a CSV for the goal at line 44");
    let text = std::fs::read_to_string(csv.path()).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("step,chart_U.enable,chart_U.speed"));
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(|x| x.to_string()).collect())
        .collect();
    assert!(rows.len() >= 5);
    let mut driver = String::from(
        "#include <stdlib.h>\n#include <stdio.h>\n\
         typedef struct { double enable; double speed; } U;\n\
         typedef struct { double cmd; } Y;\n\
         extern U chart_U; extern Y chart_Y;\n\
         void chart_step(void); void chart_initialize(void);\n\
         int main(void) {\n  chart_initialize();\n",
    );
    for r in &rows {
        driver.push_str(&format!(
            "  chart_U.enable = strtod(\"{}\", 0); chart_U.speed = strtod(\"{}\", 0); chart_Y.cmd = 0; chart_step();\n  if (chart_Y.cmd == 1.0) return 0;\n",
            r[1], r[2]
        ));
    }
    driver.push_str("  return 1;\n}\n");
    let dp = dir.join("driver.c");
    std::fs::write(&dp, driver).unwrap();
    let exe = dir.join("driver");
    let b = Command::new("gcc")
        .arg(&dp)
        .arg(unit("chart.c"))
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    let st = Command::new(&exe).status().unwrap();
    assert!(st.success(), "the test case does not reach the goal");
}

#[test]
fn chart_one_call_cannot_reach_the_goal() {
    // --function: one call from the initial state (the inputs arbitrary): the chart is
    // inactive, so only the activation branch runs
    let (m, v) = deadcode(&[&unit("chart.c"), "--function", "chart_step"]);
    expect(&m, 20, "then", "REACHABLE", "the activation");
    expect(
        &m,
        44,
        "then",
        "DEAD",
        "one call never leaves the activation",
    );
    let env = &v["summary"]["environment"][0];
    assert_eq!(env["step"], Value::Bool(false));
    assert_eq!(env["inputs"].as_array().unwrap().len(), 2, "{env}");
}

#[test]
fn targetlink_unit_with_input_globals_and_static_state() {
    let (m, v) = deadcode(&[&unit("tl_unit.c"), "--step", "Sa1_logic"]);
    expect(&m, 16, "then", "REACHABLE", "enable set");
    expect(&m, 20, "else", "REACHABLE", "enable clear");
    expect(&m, 24, "then", "REACHABLE", "three enabled steps");
    expect(
        &m,
        27,
        "then",
        "REACHABLE",
        "latched and angle > 45: step 3",
    );
    expect(&m, 32, "then", "DEAD", "the counter stops at 10");
    expect(&m, 18, "signed-overflow", "DEAD", "the counter stops at 10");
    let env = &v["summary"]["environment"][0];
    let inputs: Vec<&str> = env["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(inputs, ["Sa1_Angle", "Sa1_Enable"]);
}

fn pi_expectations(m: &HashMap<(u64, String), String>) {
    expect(m, 14, "then", "REACHABLE", "not saturated: step 1");
    expect(m, 14, "else", "REACHABLE", "saturated in step 1, step 2");
    expect(m, 25, "then", "REACHABLE", "leaving saturation: step 2");
    expect(m, 30, "then", "DEAD", "pi_sat is 0 or 1");
}

#[test]
fn pi_regulator_with_a_static_saturation_flag() {
    let (m, _) = deadcode(&[&unit("pi_reg.c"), "--step", "pi_step"]);
    pi_expectations(&m);
}

#[test]
fn calibration_parameter_and_input_override() {
    // one value of K_limit per run: negative calibrations reach the inner branch
    let (m, v) = deadcode(&[
        &unit("calib.c"),
        "--step",
        "cal_step",
        "--params",
        "K_limit",
    ]);
    expect(
        &m,
        13,
        "then",
        "REACHABLE",
        "K_limit < 0 and cal_in above it",
    );
    expect(&m, 19, "then", "DEAD", "K_limit > 100 and < 20");
    let env = &v["summary"]["environment"][0];
    assert_eq!(env["parameters"][0], "K_limit");
    // the calibration's value is in the test case, before the first step
    let g = v["goals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["line"] == 13 && g["kind"] == "then")
        .unwrap();
    let setup = g["test_case"]["setup"].as_array().unwrap();
    assert_eq!(setup.len(), 1);
    assert!(setup[0]["input"].as_str().unwrap().contains("K_limit"));
    // only cal_in is an input: K_limit keeps its initializer 50
    let (m, _) = deadcode(&[&unit("calib.c"), "--step", "cal_step", "--inputs", "cal_in"]);
    expect(&m, 13, "then", "DEAD", "K_limit = 50 is not negative");
    expect(&m, 11, "then", "REACHABLE", "cal_in > 50");
}

#[test]
fn units_in_ilp32_with_m32_replays() {
    assert!(
        gcc_m32(),
        "gcc cannot build 32-bit programs: scripts/setup.sh installs gcc-multilib"
    );
    let (m, _) = deadcode(&[
        &unit("chart.c"),
        "--data-model",
        "ilp32",
        "--step",
        "chart_step",
        "--init",
        "chart_initialize",
    ]);
    chart_expectations(&m);
    let (m, _) = deadcode(&[
        &unit("pi_reg.c"),
        "--data-model",
        "ilp32",
        "--step",
        "pi_step",
    ]);
    pi_expectations(&m);
}

#[test]
fn unknown_names_are_errors() {
    let o = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args([
            "deadcode",
            &unit("calib.c"),
            "--step",
            "cal_step",
            "--params",
            "no_such_global",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0));
    assert!(err.contains("no_such_global"), "{err}");
    let o = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(["deadcode", &unit("calib.c"), "--step", "no_such_step"])
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no_such_step"));
}

#[test]
fn solve_step_answers_the_error_call_over_steps() {
    // armed in step 1 (speed > 5), then the counter reaches 3 in steps 2..4: the error call
    // needs four calls; the counter stops at 5, so `count > 5` never holds
    let dir = std::env::temp_dir().join(format!("icpic3-step-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let body = |reachable: bool| {
        format!(
            "extern void reach_error(void);\ndouble in_speed;\nstatic int armed, count;\n\
             void unit_step(void) {{\n  if (!armed) {{ if (in_speed > 5.0) armed = 1; }}\n  \
             else {{ if (count < 5) count++; }}\n  {}\n  if (count > 5) reach_error();\n}}\n",
            if reachable {
                "if (count >= 3 && in_speed < 0.0) reach_error();"
            } else {
                ""
            }
        )
    };
    for (reachable, verdict, code) in [(true, "false", 10), (false, "true", 20)] {
        let p = dir.join(format!("unit_{reachable}.c"));
        std::fs::write(&p, body(reachable)).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_icpic3"))
            .args(["solve", "--timeout", "60", "--step", "unit_step"])
            .arg(&p)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(out.lines().next(), Some(verdict), "{out}");
        assert_eq!(o.status.code(), Some(code), "{out}");
        if reachable {
            assert!(out.contains("call 4 of `unit_step`"), "{out}");
        }
    }
    // one call of main does not exist here: without --step the file has no main
    let o = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(["solve"])
        .arg(dir.join("unit_true.c"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
}
