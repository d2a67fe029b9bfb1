//! 32-bit targets (issue #20, part 4): ILP32 answers confirmed by a `gcc -m32` replay,
//! `--target x86_64|i386|arm32` (ARM: plain `char` unsigned), and the word-size `#error`
//! checks of generated code naming the data model to use. Expected answers are derived by
//! hand next to each program; DEAD answers over a `char` are checked against gcc runs of every
//! one of its 256 values, REACHABLE inputs against a gcc run of the program with them.

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

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("icpic3-targets-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let p = dir().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `gcc -m32` builds and runs 32-bit programs here (`scripts/setup.sh` installs
/// gcc-multilib): required, since ILP32 answers are confirmed with it.
fn require_m32() {
    // one probe per call: the tests run in parallel threads of one process, and a shared
    // file would be rewritten while another thread runs it ("text file busy")
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let src = temp_file(
        &format!("m32_{k}.c"),
        "#include <stdint.h>\n#include <math.h>\nint main(void) { return sizeof(long) == 4 ? 0 : 1; }\n",
    );
    let exe = dir().join(format!("m32_{k}"));
    let built = Command::new("gcc")
        .args(["-m32", "-O0"])
        .arg(&src)
        .arg("-lm")
        .arg("-o")
        .arg(&exe)
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        built && Command::new(&exe).status().is_ok_and(|s| s.success()),
        "gcc -m32 cannot build 32-bit programs: install gcc-multilib (scripts/setup.sh)"
    );
}

/// `deadcode --format json` with the concrete-run prepass off (every REACHABLE comes from an
/// engine's trace and its gcc replay).
fn deadcode(args: &[&str]) -> Vec<serde_json::Value> {
    let mut a = vec!["deadcode", "--timeout", "20", "--format", "json"];
    a.extend_from_slice(args);
    let o = icpic3(&a, &[("ICPIC3_NO_CONCRETE_RUNS", "1")]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "stdout: {out}\nstderr: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    v["goals"].as_array().unwrap().clone()
}

fn goal<'a>(goals: &'a [serde_json::Value], line: u64, kind: &str) -> &'a serde_json::Value {
    let m: Vec<&serde_json::Value> = goals
        .iter()
        .filter(|g| g["line"] == line && g["kind"] == kind)
        .collect();
    assert_eq!(m.len(), 1, "goal {line} {kind} in {goals:?}");
    m[0]
}

/// Compiles `src` with `flags` and a `main` of the oracle's own that feeds `input` to every
/// `__VERIFIER_nondet_*()` call; the exit code (the program's `main` is renamed).
fn gcc_run(src: &Path, flags: &[&str], nondet: &str, input: &str, tag: &str) -> i32 {
    let text = std::fs::read_to_string(src).unwrap();
    let prog = dir().join(format!("oracle_{tag}.c"));
    std::fs::write(
        &prog,
        format!(
            "#define main program_main\n{text}\n#undef main\n\
             {nondet} {{ return {input}; }}\nint main(void) {{ return program_main(); }}\n"
        ),
    )
    .unwrap();
    let exe = dir().join(format!("oracle_{tag}"));
    let o = Command::new("gcc")
        .args(["-std=gnu11", "-O0", "-w"])
        .args(flags)
        .arg(&prog)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    Command::new(&exe).status().unwrap().code().unwrap_or(-1)
}

/// A branch that depends on `long` being 32 bits: `u + 1` wraps to 0 for u = ULONG_MAX =
/// 4294967295 in ILP32 (REACHABLE), never for that value in LP64 (DEAD: u == 4294967295 there
/// gives u + 1 = 4294967296). The ILP32 trace is only confirmed by a replay built with -m32
/// (a 64-bit build computes 4294967296 and misses the goal).
#[test]
fn ilp32_answer_is_replayed_with_m32() {
    if !gcc_available() {
        return;
    }
    require_m32();
    let p = temp_file(
        "ulong_wrap.c",
        "extern unsigned long __VERIFIER_nondet_ulong(void);\n\
         int main(void) {\n\
         \x20 unsigned long u = __VERIFIER_nondet_ulong();\n\
         \x20 if (u == 4294967295UL) {\n\
         \x20   if (u + 1 == 0) return 7;\n\
         \x20 }\n\
         \x20 return 0;\n\
         }\n",
    );
    let ilp32 = deadcode(&["--data-model", "ilp32", p.to_str().unwrap()]);
    let g = goal(&ilp32, 5, "then");
    assert_eq!(g["status"], "REACHABLE", "{g}");
    assert!(
        g["detail"]
            .as_str()
            .unwrap()
            .contains("confirmed by gcc replay"),
        "{g}"
    );
    let v = g["inputs"][0]["value"].as_str().unwrap().to_string();
    assert_eq!(v, "4294967295", "{g}");
    // the independent check: the 32-bit build returns 7 with that input, the 64-bit one not
    let nd = "unsigned long __VERIFIER_nondet_ulong(void)";
    assert_eq!(gcc_run(&p, &["-m32"], nd, &format!("{v}UL"), "m32"), 7);
    assert_eq!(gcc_run(&p, &[], nd, &format!("{v}UL"), "m64"), 0);
    // the same text in LP64 and with --target i386 / x86_64
    let lp64 = deadcode(&["--data-model", "lp64", p.to_str().unwrap()]);
    assert_eq!(goal(&lp64, 5, "then")["status"], "DEAD");
    let i386 = deadcode(&["--target", "i386", p.to_str().unwrap()]);
    assert_eq!(goal(&i386, 5, "then")["status"], "REACHABLE");
    let x64 = deadcode(&["--target", "x86_64", p.to_str().unwrap()]);
    assert_eq!(goal(&x64, 5, "then")["status"], "DEAD");
}

/// `--target arm32`: plain `char` is unsigned, so `c < 0` and `(char)200 < 0` are false for
/// every value (DEAD), while on x86-64 both are reachable (c = -1; (char)200 is -56).
/// `CHAR_MIN` (from `<limits.h>`, preprocessed with -funsigned-char) is 0 there.
#[test]
fn arm32_plain_char_is_unsigned() {
    if !gcc_available() {
        return;
    }
    require_m32();
    let p = temp_file(
        "plain_char.c",
        "#include <limits.h>\n\
         extern char __VERIFIER_nondet_char(void);\n\
         int main(void) {\n\
         \x20 char c = __VERIFIER_nondet_char();\n\
         \x20 char k = (char)200;\n\
         \x20 int r = 0;\n\
         \x20 if (c < 0) r += 1;\n\
         \x20 if (k < 0) r += 2;\n\
         \x20 if (CHAR_MIN < 0) r += 4;\n\
         \x20 return r;\n\
         }\n",
    );
    let arm = deadcode(&["--target", "arm32", p.to_str().unwrap()]);
    for line in [7, 8, 9] {
        assert_eq!(goal(&arm, line, "then")["status"], "DEAD", "line {line}");
    }
    let g = goal(&arm, 7, "else");
    assert_eq!(g["status"], "REACHABLE", "{g}");
    assert!(
        g["inputs"][0]["value"]
            .as_str()
            .unwrap()
            .parse::<i64>()
            .unwrap()
            >= 0
    );
    // the oracle: every value of the 8-bit char through the ARM-like build never takes a
    // `then` (the exit code is 0 for all 256)
    let nd = "char __VERIFIER_nondet_char(void)";
    let text = std::fs::read_to_string(&p).unwrap();
    let prog = dir().join("all_chars.c");
    std::fs::write(
        &prog,
        format!(
            "#define main program_main\n{text}\n#undef main\nstatic int cur;\n{nd} {{ return (char)cur; }}\n\
             int main(void) {{ for (cur = 0; cur < 256; cur++) if (program_main() != 0) return 1; return 0; }}\n"
        ),
    )
    .unwrap();
    let exe = dir().join("all_chars");
    assert!(Command::new("gcc")
        .args(["-m32", "-funsigned-char", "-O0", "-w"])
        .arg(&prog)
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap()
        .success());
    assert_eq!(Command::new(&exe).status().unwrap().code(), Some(0));
    // x86-64: all three `then` branches are reachable, confirmed by the replay
    let x64 = deadcode(&["--target", "x86_64", p.to_str().unwrap()]);
    let g = goal(&x64, 7, "then");
    assert_eq!(g["status"], "REACHABLE", "{g}");
    let v = g["inputs"][0]["value"].as_str().unwrap().to_string();
    assert!(v.parse::<i64>().unwrap() < 0, "{g}");
    assert_eq!(goal(&x64, 8, "then")["status"], "REACHABLE");
    assert_eq!(goal(&x64, 9, "then")["status"], "REACHABLE");
    // gcc: with that input, c < 0, (char)200 < 0 and CHAR_MIN < 0 on x86-64
    assert_eq!(gcc_run(&p, &[], nd, &v, "x64"), 7);
}

/// Embedded Coder's word-size check fails under LP64: the error names the data model that
/// preprocesses cleanly, at the `#error`'s position, with exit code 1. A check of plain
/// `char`'s signedness names --target arm32. `--target` and `--data-model` conflict.
#[test]
fn word_size_error_names_the_data_model() {
    if !gcc_available() {
        return;
    }
    require_m32();
    temp_file(
        "unit_private.h",
        "#include <limits.h>\n\
         #if ( UINT_MAX != (0xFFFFFFFFU) ) || ( INT_MAX != (0x7FFFFFFF) )\n\
         #error Code was generated for compiler with different sized uint/int. \\\n\
         Consider adjusting Test hardware word size settings.\n\
         #endif\n\
         #if ( ULONG_MAX != (0xFFFFFFFFUL) ) || ( LONG_MAX != (0x7FFFFFFFL) )\n\
         #error Code was generated for compiler with different sized ulong/long. \\\n\
         Consider adjusting Test hardware word size settings.\n\
         #endif\n",
    );
    let unit = temp_file(
        "unit.c",
        "#include \"unit_private.h\"\nint unit_step(int x) { if (x > 3) return 1; return 0; }\n",
    );
    let u = unit.to_str().unwrap();
    let o = icpic3(&["deadcode", u], &[]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("unit_private.h:7:2: #error"), "{err}");
    assert!(
        err.contains("`long` and pointers are 32 bits: run with --data-model ilp32"),
        "{err}"
    );
    let o = icpic3(&["solve", u], &[]);
    assert_eq!(o.status.code(), Some(1));
    // under ILP32 the unit is analysed
    for model in [["--data-model", "ilp32"], ["--target", "arm32"]] {
        let goals = deadcode(&[model[0], model[1], u]);
        assert_eq!(goal(&goals, 2, "then")["status"], "REACHABLE");
    }
    // a check that plain char is unsigned (TargetLink-style)
    let tl = temp_file(
        "tl_unit.c",
        "#include <limits.h>\n#if CHAR_MIN != 0\n#error \"plain char must be unsigned\"\n#endif\n\
         int tl_step(int x) { if (x > 3) return 1; return 0; }\n",
    );
    let o = icpic3(&["deadcode", tl.to_str().unwrap()], &[]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("tl_unit.c:3:2: #error"), "{err}");
    assert!(err.contains("plain `char` is unsigned"), "{err}");
    assert!(err.contains("run with --target arm32"), "{err}");
    // both options at once: a usage error
    let o = icpic3(
        &["deadcode", "--target", "arm32", "--data-model", "lp64", u],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
}

/// `--target arm32` lays structs out as ARM EABI does: `double` and `long long` aligned to 8
/// (sizeof 16 and 16), where i386 aligns them to 4 (12 and 12). The `else` branch on arm32 is
/// confirmed by a replay built with `-m32 -malign-double` (with plain `-m32` it is not
/// reached); gcc itself is the oracle for both layouts.
#[test]
fn arm32_struct_layout() {
    if !gcc_available() {
        return;
    }
    require_m32();
    let p = temp_file(
        "arm_layout.c",
        "extern int __VERIFIER_nondet_int(void);\n\
         struct s { int a; double d; };\n\
         struct t { char c; long long x; };\n\
         int main(void) {\n\
         \x20 int k = __VERIFIER_nondet_int();\n\
         \x20 if (sizeof(struct s) + sizeof(struct t) != 32 + k) return 1;\n\
         \x20 return 0;\n\
         }\n",
    );
    let nd = "int __VERIFIER_nondet_int(void)";
    // gcc: with k = 0, the ARM-like build takes the `else` (0), the i386 build the `then` (1)
    assert_eq!(gcc_run(&p, &["-m32", "-malign-double"], nd, "0", "al8"), 0);
    assert_eq!(gcc_run(&p, &["-m32"], nd, "0", "al4"), 1);
    let arm = deadcode(&["--target", "arm32", p.to_str().unwrap()]);
    let g = goal(&arm, 6, "else");
    assert_eq!(g["status"], "REACHABLE", "{g}");
    assert_eq!(g["inputs"][0]["value"], "0", "{g}");
    let i386 = deadcode(&["--target", "i386", p.to_str().unwrap()]);
    let g = goal(&i386, 6, "else");
    assert_eq!(g["status"], "REACHABLE", "{g}");
    assert_eq!(g["inputs"][0]["value"], "-8", "{g}");
}
