//! `deadcode --function F` on entry functions the replay harness cannot call directly (issue
//! #20, part 6): a `static` F, an F whose name a system header declares with another type,
//! a file that also defines `main`; and the goals outside every function (file scope), which
//! are reported once however many functions are analysed. Expected answers are derived by
//! hand next to each program; every REACHABLE answer's inputs are checked once more by an
//! independent gcc build of the program with a `main` of the test's own that calls F with
//! those inputs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn icpic3(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_icpic3"));
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("icpic3 runs")
}

fn gcc_available() -> bool {
    let ok = |c: &str| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    ok("gcc") && ok("cpp")
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("icpic3-entry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `deadcode --format json` (engines only when `engines_only`: every REACHABLE then comes from
/// a solver trace and its replay through the harness); the goals and the whole document.
fn deadcode(args: &[&str], engines_only: bool) -> (Vec<serde_json::Value>, serde_json::Value) {
    let mut a = vec!["deadcode", "--timeout", "20", "--format", "json"];
    a.extend_from_slice(args);
    let env: &[(&str, &str)] = if engines_only {
        &[("ICPIC3_NO_CONCRETE_RUNS", "1")]
    } else {
        &[]
    };
    let o = icpic3(&a, env);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "stdout: {out}\nstderr: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    (v["goals"].as_array().unwrap().clone(), v)
}

fn goal<'a>(goals: &'a [serde_json::Value], line: u64, kind: &str) -> &'a serde_json::Value {
    let m: Vec<&serde_json::Value> = goals
        .iter()
        .filter(|g| g["line"] == line && g["kind"] == kind)
        .collect();
    assert_eq!(m.len(), 1, "goal {line} {kind} in {goals:?}");
    m[0]
}

/// The independent oracle: `src` compiled by gcc with the program's own `main` renamed and a
/// `main` that calls `call` (a C expression); returns the exit code.
fn gcc_run(dir_name: &str, src: &Path, call: &str) -> i32 {
    let dir = std::env::temp_dir().join(format!(
        "icpic3-entry-oracle-{}-{dir_name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(src).unwrap();
    let prog = dir.join("oracle.c");
    std::fs::write(
        &prog,
        format!(
            "#define main program_main\n{text}\n#undef main\nint main(void) {{ return {call}; }}\n"
        ),
    )
    .unwrap();
    let exe = dir.join("oracle");
    let o = Command::new("gcc")
        .args(["-std=gnu11", "-O0", "-w"])
        .arg(&prog)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    Command::new(&exe).status().unwrap().code().unwrap_or(-1)
}

fn int_input(g: &serde_json::Value, k: usize) -> i64 {
    g["inputs"][k]["value"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("an integer input in {g}"))
}

/// A `static` entry function in a file that also defines `main` (with parameters, calling
/// it): the harness in its own translation unit cannot call `f` by name; before the
/// trampoline both goals stayed UNKNOWN ("gcc could not build the replay: ... ld returned 1").
#[test]
fn static_entry_function_with_main_in_the_file() {
    if !gcc_available() {
        return;
    }
    // f returns 1 on its `then` branch (n > 1000), 0 on its `else`
    let p = temp_file(
        "static_entry.c",
        "#include <stdio.h>\n\
         static int calls;\n\
         static int f(int n, const int *lim) {\n\
         \x20 calls = calls + 1;\n\
         \x20 if (n > 1000 && *lim < 5) return 1;\n\
         \x20 return 0;\n\
         }\n\
         int main(int argc, char **argv) {\n\
         \x20 int l = 3; (void)argv;\n\
         \x20 printf(\"%d\\n\", f(argc, &l));\n\
         \x20 return 0;\n\
         }\n",
    );
    for engines_only in [true, false] {
        let (goals, _) = deadcode(&["--function", "f", p.to_str().unwrap()], engines_only);
        for kind in ["then", "else"] {
            let g = goal(&goals, 5, kind);
            assert_eq!(g["status"], "REACHABLE", "{kind} ({engines_only}): {g}");
            assert_eq!(g["function"], "f");
            // inputs: n, then the cell of *lim
            let (n, lim) = (int_input(g, 0), int_input(g, 1));
            let want = if kind == "then" { 1 } else { 0 };
            let got = gcc_run(
                &format!("static-{kind}-{engines_only}"),
                &p,
                &format!("f({n}, &(int){{{lim}}})"),
            );
            assert_eq!(got, want, "{kind}: f({n}, &{lim}) by gcc");
        }
    }
}

/// An entry function named like a C library function that the harness's headers declare with
/// another type (`index` in `<string.h>`): the harness's own prototype clashed and the
/// replay did not build.
#[test]
fn entry_function_named_like_a_library_function() {
    if !gcc_available() {
        return;
    }
    let p = temp_file(
        "index_entry.c",
        "int index(int k) {\n  if (k == 77) return 1;\n  return 0;\n}\nint main(void) { return index(3); }\n",
    );
    let (goals, _) = deadcode(&["--function", "index", p.to_str().unwrap()], true);
    let g = goal(&goals, 2, "then");
    assert_eq!(g["status"], "REACHABLE", "{g}");
    assert_eq!(int_input(g, 0), 77, "{g}");
    assert_eq!(gcc_run("index", &p, "index(77)"), 1);
}

/// Goals outside every function (here: the constant expressions of `<sys/select.h>`'s array
/// sizes, included through `<stdlib.h>`, and a global initializer's division) were reported
/// once per analysed function with an empty function name. Now once each, in
/// `<file scope>`.
#[test]
fn file_scope_goals_are_reported_once() {
    if !gcc_available() {
        return;
    }
    // no `main`: all three functions are analysed
    let p = temp_file(
        "file_scope.c",
        "#include <stdlib.h>\n\
         static const int table[4] = { 8 / 2, 1, 2, 3 };\n\
         int a(int x) { if (x > 3) return table[0]; return 0; }\n\
         int b(int x) { if (x < -3) return 1; return 2; }\n\
         int c(int x) { return x == 5 ? 1 : 0; }\n",
    );
    let (goals, v) = deadcode(&[p.to_str().unwrap()], false);
    let scope: Vec<&serde_json::Value> = goals
        .iter()
        .filter(|g| g["function"] == "<file scope>")
        .collect();
    assert!(
        !scope.is_empty(),
        "the division in the initializer is a goal: {goals:?}"
    );
    // each file-scope goal once
    let mut keys: Vec<String> = scope
        .iter()
        .map(|g| format!("{}:{}:{} {}", g["file"], g["line"], g["column"], g["kind"]))
        .collect();
    let n = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), n, "{keys:?}");
    // no goal with an empty function name, every goal of a function once
    assert!(goals.iter().all(|g| g["function"] != ""), "{goals:?}");
    // the functions of the system headers (glibc's `__bswap_16`, `__uint16_identity`) are not
    // analysed: none skipped, no goal of theirs
    assert_eq!(
        v["summary"]["skipped_functions"]
            .as_array()
            .map(|a| a.len()),
        Some(0),
        "{v}"
    );
    assert!(
        goals
            .iter()
            .all(|g| ["a", "b", "c", "<file scope>"].contains(&g["function"].as_str().unwrap())),
        "{goals:?}"
    );
    // `8 / 2` never divides by zero: DEAD (the constant divisor 2)
    let div = goal(&goals, 2, "division-by-zero");
    assert_eq!(div["status"], "DEAD", "{div}");
    assert_eq!(div["function"], "<file scope>");
    assert_eq!(goal(&goals, 3, "then")["status"], "REACHABLE");
    assert_eq!(goal(&goals, 4, "then")["status"], "REACHABLE");
    let total = v["summary"]["dead"].as_u64().unwrap()
        + v["summary"]["reachable"].as_u64().unwrap()
        + v["summary"]["unknown"].as_u64().unwrap();
    assert_eq!(
        total as usize,
        goals.len(),
        "the summary counts each goal once"
    );
}
