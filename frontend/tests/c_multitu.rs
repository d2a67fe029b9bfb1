//! Several translation units and a build's preprocessor flags (`icpic3 solve A.c B.c`,
//! `-I`, `-D`, `-U`, `-include`, `--compile-commands`, `--undefined-functions`). Every
//! expected answer is derived by hand in the comment next to it; every `false` / REACHABLE is
//! confirmed by the tool's gcc replay (which compiles and links each unit separately).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn icpic3(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(args)
        .output()
        .expect("icpic3 runs")
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

/// A fresh directory with the given files.
fn tree(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("icpic3-mtu-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (p, text) in files {
        let p = dir.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn text(o: &Output) -> (String, String, i32) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

/// `deadcode --format json`: (line, kind, status, file name) per goal, and the summary.
fn deadcode_json(args: &[&str]) -> (Vec<(usize, String, String, String)>, serde_json::Value) {
    let mut a = vec!["deadcode", "--timeout", "10", "--format", "json"];
    a.extend_from_slice(args);
    let o = icpic3(&a);
    let (out, err, code) = text(&o);
    assert_eq!(code, 0, "stdout: {out}\nstderr: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let goals = v["goals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let file = g["file"].as_str().unwrap();
            (
                g["line"].as_u64().unwrap() as usize,
                g["kind"].as_str().unwrap().to_string(),
                g["status"].as_str().unwrap().to_string(),
                Path::new(file)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            )
        })
        .collect();
    (goals, v["summary"].clone())
}

fn status_of(
    goals: &[(usize, String, String, String)],
    file: &str,
    line: usize,
    kind: &str,
) -> String {
    let m: Vec<&String> = goals
        .iter()
        .filter(|g| g.3 == file && g.0 == line && g.1 == kind)
        .map(|g| &g.2)
        .collect();
    assert_eq!(m.len(), 1, "goal {file}:{line} {kind} in {goals:?}");
    m[0].clone()
}

const LIB_H: &str = "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int lib_scale(int x);
extern int shared;
";

// a.c and b.c each have a `static int count` and a `static int helper`; `shared` is defined in
// a.c and declared `extern` (through lib.h) in b.c.
const A_C: &str = r#"#include "lib.h"
static int count = 0;
static int helper(int x) { return x + 1; }
int shared = 7;
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < -1000 || x > 1000) return 0;
  count = helper(x);
  int y = lib_scale(x);
  if (y == 30) {
    if (count == 11) reach_error();
  }
  if (shared != 7) reach_error();
  return 0;
}
"#;

const B_C: &str = r#"#include "lib.h"
static int count = 100;
static int helper(int x) { return x * 3; }
int lib_scale(int x) {
  count++;
  if (count != 101) reach_error();
  return helper(x) + shared - 7;
}
"#;

#[test]
fn call_across_units_with_static_names_and_an_extern_global() {
    if !gcc_available() {
        return;
    }
    let d = tree("two", &[("lib.h", LIB_H), ("a.c", A_C), ("b.c", B_C)]);
    let (a, b) = (d.join("a.c"), d.join("b.c"));
    // a.c's helper(x) = x + 1 and b.c's helper(x) = 3x (each unit its own static); shared = 7 in
    // both units, so lib_scale(x) = 3x; y == 30 iff x == 10, and then a.c's count = 11: the
    // error call is reached with input 10 (and only with 10).
    let (out, err, code) = text(&icpic3(&["solve", "--timeout", "30", &s(&a), &s(&b)]));
    assert_eq!(code, 10, "stdout: {out}\nstderr: {err}");
    assert!(out.starts_with("false"), "{out}");
    assert!(out.contains("= 10\n"), "{out}");
    let (goals, _) = deadcode_json(&[&s(&a), &s(&b)]);
    // line 11: count == 11 whenever y == 30 → its error call is REACHABLE, its else DEAD
    assert_eq!(status_of(&goals, "a.c", 11, "error-call"), "REACHABLE");
    assert_eq!(status_of(&goals, "a.c", 11, "else"), "DEAD");
    // line 13: shared is the one `int shared = 7` of a.c, never written → DEAD
    assert_eq!(status_of(&goals, "a.c", 13, "error-call"), "DEAD");
    // b.c line 6: b.c's count starts at 100 and lib_scale runs once → always 101 → DEAD
    assert_eq!(status_of(&goals, "b.c", 6, "error-call"), "DEAD");
    // a goal in the other unit's function is reported at its own file
    assert_eq!(status_of(&goals, "b.c", 6, "else"), "REACHABLE");
}

#[test]
fn entry_function_in_another_unit() {
    if !gcc_available() {
        return;
    }
    let d = tree("entry", &[("lib.h", LIB_H), ("a.c", A_C), ("b.c", B_C)]);
    // lib_scale called once with an arbitrary x: count 100 → 101, the check never fails; the
    // function has no branch on x
    let (goals, _) = deadcode_json(&[
        "--function",
        "lib_scale",
        &s(&d.join("a.c")),
        &s(&d.join("b.c")),
    ]);
    assert_eq!(status_of(&goals, "b.c", 6, "error-call"), "DEAD");
    assert!(goals.iter().all(|g| g.3 == "b.c"), "{goals:?}");
    // helper's x * 3 overflows for |x| > 715827882 (a run of the gcc build with the sanitizer)
    assert_eq!(status_of(&goals, "b.c", 3, "signed-overflow"), "REACHABLE");
}

const LIMIT_C: &str = r#"extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
#ifdef LIMIT
  if (x > LIMIT) x = LIMIT;
#endif
  if (x > 100) reach_error();
  return 0;
}
"#;

#[test]
fn defines_change_which_branch_is_dead() {
    if !gcc_available() {
        return;
    }
    let d = tree("defines", &[("limit.c", LIMIT_C)]);
    let f = s(&d.join("limit.c"));
    // with LIMIT 50, x <= 50 after the clamp: x > 100 is impossible → true (exit 20)
    let (out, _, code) = text(&icpic3(&["solve", "-DLIMIT=50", &f]));
    assert_eq!((code, out.lines().next()), (20, Some("true")), "{out}");
    // without LIMIT (or -U after -D) x = 101 reaches the error → false (exit 10)
    let (out, _, code) = text(&icpic3(&["solve", &f]));
    assert_eq!((code, out.lines().next()), (10, Some("false")), "{out}");
    let (out, _, code) = text(&icpic3(&["solve", "-D", "LIMIT=50", "-U", "LIMIT", &f]));
    assert_eq!((code, out.lines().next()), (10, Some("false")), "{out}");
    // LIMIT 200: x = 101 still passes the clamp → the then-branch of line 8 is REACHABLE
    let (goals, _) = deadcode_json(&["-DLIMIT=200", &f]);
    assert_eq!(status_of(&goals, "limit.c", 8, "then"), "REACHABLE");
    let (goals, _) = deadcode_json(&["-DLIMIT=50", &f]);
    assert_eq!(status_of(&goals, "limit.c", 8, "then"), "DEAD");
}

#[test]
fn include_dir_and_forced_include() {
    if !gcc_available() {
        return;
    }
    let d = tree(
        "incl",
        &[
            ("inc/params.h", "#define THRESHOLD 7\n"),
            ("forced.h", "#define OFFSET 3\n"),
            (
                "m.c",
                "#include \"params.h\"\nextern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x == THRESHOLD + OFFSET) reach_error();\n  return 0;\n}\n",
            ),
        ],
    );
    let m = s(&d.join("m.c"));
    let inc = s(&d.join("inc"));
    let forced = s(&d.join("forced.h"));
    // x == 7 + 3: the error call needs input 10
    let (out, err, code) = text(&icpic3(&["solve", "-I", &inc, "-include", &forced, &m]));
    assert_eq!(code, 10, "stdout: {out}\nstderr: {err}");
    assert!(out.contains("= 10\n"), "{out}");
    // without -I the header is not found: the preprocessor's error with the #include position
    let (out, err, code) = text(&icpic3(&["solve", "-include", &forced, &m]));
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("m.c:1:10:") && err.contains("params.h"),
        "{err}"
    );
}

#[test]
fn compile_commands_database() {
    if !gcc_available() {
        return;
    }
    let d = tree(
        "ccdb",
        &[
            ("include/cfg.h", "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint gain(int x);\n"),
            (
                "src/main.c",
                "#include \"cfg.h\"\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x < 0 || x > 100) return 0;\n  if (gain(x) == MODE * 12) reach_error();\n  return 0;\n}\n",
            ),
            ("src/gain.c", "#include \"cfg.h\"\nint gain(int x) { return x * FACTOR; }\n"),
        ],
    );
    let db = format!(
        r#"[
  {{"directory": "{dir}", "command": "/usr/bin/cc -Iinclude -DMODE=2 -std=gnu99 -o main.o -c src/main.c", "file": "src/main.c"}},
  {{"directory": "{dir}", "arguments": ["cc", "-I", "include", "-DFACTOR=4", "-c", "src/gain.c"], "file": "src/gain.c"}}
]"#,
        dir = s(&d)
    );
    std::fs::write(d.join("compile_commands.json"), db).unwrap();
    let cc = s(&d.join("compile_commands.json"));
    // gain(x) = 4x == 2 * 12 iff x == 6
    let (out, err, code) = text(&icpic3(&["solve", "--compile-commands", &cc]));
    assert_eq!(code, 10, "stdout: {out}\nstderr: {err}");
    assert!(out.contains("= 6\n"), "{out}");
    let (goals, _) = deadcode_json(&["--compile-commands", &cc]);
    assert_eq!(status_of(&goals, "main.c", 5, "error-call"), "REACHABLE");
    // the command-line flags come after the database's: -DMODE=3 wins (4x == 36 → x = 9)
    let main = s(&d.join("src/main.c"));
    let gain = s(&d.join("src/gain.c"));
    let (out, _, code) = text(&icpic3(&[
        "solve",
        "--compile-commands",
        &cc,
        "-DMODE=3",
        &main,
        &gain,
    ]));
    assert_eq!(code, 10, "{out}");
    assert!(out.contains("= 9\n"), "{out}");
    // a broken database: its name and the JSON error's line:col, exit 1
    std::fs::write(d.join("bad.json"), "[\n  {\"directory\": \"x\",\n").unwrap();
    let (_, err, code) = text(&icpic3(&[
        "deadcode",
        "--compile-commands",
        &s(&d.join("bad.json")),
    ]));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("bad.json:3:"), "{err}");
}

const SENSOR_C: &str = "extern void reach_error(void);
int read_sensor(int channel);
double read_temp(void);
void log_value(int v);
int main(void) {
  int a = read_sensor(3);
  log_value(a);
  if (a == 1234) reach_error();
  if (read_temp() > 100.5) reach_error();
  return 0;
}
";

#[test]
fn undefined_functions() {
    if !gcc_available() {
        return;
    }
    let d = tree("undef", &[("sensor.c", SENSOR_C)]);
    let f = s(&d.join("sensor.c"));
    // the first call of a function no file defines is at line 6, column 11
    let (out, err, code) = text(&icpic3(&["solve", &f]));
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("sensor.c:6:11: error: call of `read_sensor`, which no input file defines (give the file that defines it, or --undefined-functions nondet)"),
        "{err}"
    );
    let (out, err, code) = text(&icpic3(&["deadcode", &f]));
    assert_eq!(code, 1, "{out}{err}");
    // nondet: read_sensor returns any int; 1234 reaches the first error call (the replay's
    // stub of read_sensor hands out the logged value)
    let (out, err, code) = text(&icpic3(&["solve", "--undefined-functions", "nondet", &f]));
    assert_eq!(code, 10, "stdout: {out}\nstderr: {err}");
    assert!(out.contains("input read_sensor() at"), "{out}");
    assert!(out.contains("read_sensor, log_value"), "{out}");
    let (goals, summary) = deadcode_json(&["--undefined-functions", "nondet", &f]);
    assert_eq!(status_of(&goals, "sensor.c", 8, "error-call"), "REACHABLE");
    // read_temp() returns any double: 200.0 > 100.5
    assert_eq!(status_of(&goals, "sensor.c", 9, "error-call"), "REACHABLE");
    let names: Vec<&str> = summary["undefined_functions_nondet"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["read_sensor", "log_value", "read_temp"]);
}

#[test]
fn input_errors_and_usage() {
    // a missing file: its name, exit 1
    let (_, err, code) = text(&icpic3(&["deadcode", "/nonexistent/x.c"]));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("/nonexistent/x.c: no such file"), "{err}");
    // no file at all: usage, exit 2
    let (_, _, code) = text(&icpic3(&["deadcode"]));
    assert_eq!(code, 2);
    let (_, _, code) = text(&icpic3(&["solve", "a.hys", "b.hys"]));
    assert_eq!(code, 2);
}

#[test]
fn extern_array_and_global_defined_in_another_unit() {
    if !gcc_available() {
        return;
    }
    let d = tree(
        "externs",
        &[
            (
                "ea.c",
                "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nextern const int table[3];\nextern int counter;\nvoid bump(void);\nint main(void) {\n  int i = __VERIFIER_nondet_int();\n  bump();\n  if (i >= 0 && i < 3 && table[i] == 42 && counter == 6) reach_error();\n  return 0;\n}\n",
            ),
            ("eb.c", "const int table[3] = {1, 42, 3};\nint counter = 5;\nvoid bump(void) { counter++; }\n"),
        ],
    );
    let (a, b) = (s(&d.join("ea.c")), s(&d.join("eb.c")));
    // table[1] == 42 and counter 5 + 1 == 6: input 1, whatever the order of the files
    for files in [[&a, &b], [&b, &a]] {
        let (out, err, code) = text(&icpic3(&["solve", files[0], files[1]]));
        assert_eq!(code, 10, "stdout: {out}\nstderr: {err}");
        assert!(out.contains("ea.c:7:11 = 1\n"), "{out}");
    }
}
