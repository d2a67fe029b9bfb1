//! The C memory model (`frontend/src/c/mem.rs`, docs/c-frontend.md "Memory model"):
//! structs, unions with type punning, pointers, multi-dimensional arrays, `memcpy`/`memset`,
//! function pointers, and the rest of the C that embedded code uses (goto, statement
//! expressions, `sizeof` of expressions, compound literals). Each verdict is derived by hand
//! from the C standard and gcc's x86-64 / i386 (`-m32`) layout; every `false` is confirmed by
//! the tool's own gcc replay of the program.

use std::path::PathBuf;
use std::process::{Command, Output};

fn icpic3(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(args)
        .output()
        .expect("icpic3 runs")
}

fn temp_c(name: &str, body: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("icpic3-cmem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let text = format!(
        "#include <stdint.h>\n#include <string.h>\nextern void reach_error(void);\n\
         extern int __VERIFIER_nondet_int(void);\nextern double __VERIFIER_nondet_double(void);\n\
         extern float __VERIFIER_nondet_float(void);\nextern void __VERIFIER_assume(int);\n{body}\n"
    );
    std::fs::write(&p, text).unwrap();
    p
}

fn gcc_m32() -> bool {
    let dir = std::env::temp_dir().join(format!("icpic3-cmem-m32-{}", std::process::id()));
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

fn gcc_available() -> bool {
    Command::new("gcc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn solve(name: &str, body: &str, model: &str) -> (String, String) {
    let p = temp_c(name, body);
    let o = icpic3(&[
        "solve",
        "--timeout",
        "30",
        "--data-model",
        model,
        p.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let first = out.lines().next().unwrap_or("").to_string();
    (first, out + &String::from_utf8_lossy(&o.stderr))
}

/// (name, program, expected verdict in LP64, in ILP32).
const CASES: &[(&str, &str, &str, &str)] = &[
    // memcpy with a run-time size between known objects: the cells inside the first n bytes
    // are copied (bytes reinterpreted exactly), the rest keep their values
    ("memcpy_var",
     "struct P { int a; float f; short s[2]; };\n\
      int main(void) { struct P src = { 1, 2.5f, { 3, 4 } }, dst = { 0, 0.0f, { 0, 0 } }; int n = __VERIFIER_nondet_int();\n\
        if (n < 0 || n > (int)sizeof src) return 0; memcpy(&dst, &src, (unsigned)n);\n\
        if (n >= 8 && dst.f != 2.5f) reach_error(); if (n < 4 && dst.f != 0.0f) reach_error();\n\
        if (n == 12 && (dst.s[1] != 4 || dst.a != 1)) reach_error(); if (n <= 10 && dst.s[1] != 0) reach_error();\n\
        unsigned char raw[4]; float g = -1.0f; memcpy(raw, &g, (unsigned)(n > 3 ? 4 : 4)); if (raw[3] != 0xbf) reach_error(); return 0; }", "true", "true"),
    ("memcpy_var_reach",
     "struct P { int a; float f; short s[2]; };\n\
      int main(void) { struct P src = { 1, 2.5f, { 3, 4 } }, dst = { 0, 0.0f, { 0, 0 } }; int n = __VERIFIER_nondet_int();\n\
        if (n < 0 || n > (int)sizeof src) return 0; memcpy(&dst, &src, (unsigned)n); if (dst.s[0] == 3 && dst.s[1] == 0) reach_error(); return 0; }", "false", "false"),
    // char arrays from string literals (C11 6.7.9 14): the length from the literal, the NUL,
    // zeros to the end, escapes, unsigned char, members and arrays of arrays, static storage
    ("string_init",
     "struct N { char name[6]; unsigned char tag[3]; int x; };\n\
      char g[] = \"hi\\n\"; static unsigned char ug[5] = \"\\xff\" \"a\"; struct N gn = { \"abc\", \"xyz\", 7 };\n\
      int main(void) { char s[] = \"abc\"; char t[8] = \"ab\"; unsigned char u[3] = \"\\200bc\";\n\
        char names[2][4] = { \"ab\", \"cde\" }; struct N n = { \"hello\", \"\", 3 };\n\
        if (sizeof s != 4 || s[0] != 'a' || s[2] != 'c' || s[3] != 0) reach_error();\n\
        if (t[1] != 'b' || t[2] != 0 || t[7] != 0) reach_error();\n\
        if (u[0] != 128 || u[2] != 'c') reach_error();\n\
        if (sizeof g != 4 || g[2] != 10 || g[3] != 0) reach_error();\n\
        if (ug[0] != 255 || ug[1] != 'a' || ug[4] != 0) reach_error();\n\
        if (names[1][2] != 'e' || names[0][2] != 0 || names[1][3] != 0) reach_error();\n\
        if (n.name[4] != 'o' || n.name[5] != 0 || n.tag[0] != 0 || n.x != 3) reach_error();\n\
        if (gn.name[3] != 0 || gn.tag[2] != 'z' || gn.x != 7) reach_error(); return 0; }", "true", "true"),
    // the array is writable (a copy, not the literal); `char c[3] = "abc"` has no NUL
    ("string_init_reach",
     "int main(void) { char s[4] = \"abc\"; char c[3] = \"abc\"; int i = __VERIFIER_nondet_int(); __VERIFIER_assume(i >= 0 && i < 3);\n\
        s[i] = 'z'; if (s[1] == 'z' && c[2] == 'c') reach_error(); return 0; }", "false", "false"),
    // memcmp: bytes as unsigned char, the first difference decides the sign; a float's bytes
    ("memcmp",
     "int main(void) { unsigned char a[4] = { 1, 2, 3, 4 }; char b[4] = \"\\001\\002\\003\"; int x = __VERIFIER_nondet_int();\n\
        a[3] = x; b[3] = 4; int r = memcmp(a, b, 4); if (r < 0 && x == 5) reach_error();\n\
        if (r == 0 && a[3] != 4) reach_error(); if (memcmp(a, b, 3) != 0) reach_error();\n\
        char h[2] = { -1, 0 }; if (memcmp(h, \"a\", 2) <= 0) reach_error();\n\
        float f = -0.0f, g = 0.0f; if (f != g || memcmp(&f, &g, sizeof f) == 0) reach_error(); return 0; }", "true", "true"),
    ("memcmp_reach",
     "int main(void) { unsigned char a[4] = { 1, 2, 3, 4 }; char b[4] = \"\\001\\002\\003\"; int x = __VERIFIER_nondet_int();\n\
        a[3] = x; b[3] = 4; int r = memcmp(a, b, 4); if (r < 0 && x == 3) reach_error(); return 0; }", "false", "false"),
    // nested structs, member assignment through a pointer, struct copy
    ("struct_copy",
     "struct p { int x, y; }; struct r { struct p lo, hi; };\n\
      int main(void) { struct r a = { {1, 2}, {3, 4} }; struct r b = a; struct p *q = &b.hi; q->y = 9;\n\
      if (a.hi.y != 4 || b.hi.y != 9 || b.lo.x != 1) reach_error(); return 0; }", "true", "true"),
    ("struct_copy_reach",
     "struct p { int x, y; };\n\
      int main(void) { int k = __VERIFIER_nondet_int(); struct p a = { k, 2 }; struct p b = a; if (b.x == 7) reach_error(); return 0; }", "false", "false"),
    // designated initializers, the rest zero; arrays of structs with a variable index
    ("designated",
     "struct s { int a; double d; int z[3]; };\n\
      int main(void) { struct s v[2] = { [1] = { .z = { [2] = 5 }, .a = 3 } }; int i = __VERIFIER_nondet_int(); __VERIFIER_assume(i >= 0 && i < 2);\n\
      if (v[i].z[2] == 5 && v[i].a != 3) reach_error(); if (v[0].d != 0.0) reach_error(); return 0; }", "true", "true"),
    // sizeof of types and expressions: a struct with a double is 16 bytes (double aligned to
    // 8 on x86-64, to 4 on i386); long is 8 / 4
    ("sizeof_lp64",
     "struct s { int a; double d; }; int main(void) { struct s v; long l = 0; if (sizeof v != 16 || sizeof(l) != 8 || sizeof v.d != 8) reach_error(); return 0; }", "true", "false"),
    ("sizeof_ilp32",
     "struct s { int a; double d; }; int main(void) { struct s v; long l = 0; if (sizeof v != 12 || sizeof(l) != 4) reach_error(); return 0; }", "false", "true"),
    // union type punning: the bits of 1.0f; float <-> uint32_t both ways; the high word of a double
    ("union_pun",
     "union u { float f; uint32_t w; unsigned char b[4]; };\n\
      int main(void) { union u x; x.f = 1.0f; if (x.w != 0x3f800000u || x.b[3] != 0x3f || x.b[0] != 0) reach_error(); x.w = 0x40490fdbu; if (x.f < 3.14159f || x.f > 3.1416f) reach_error(); return 0; }", "true", "true"),
    ("union_pun_reach",
     "union u { float f; uint32_t w; };\n\
      int main(void) { union u x; x.f = __VERIFIER_nondet_float(); if ((x.w >> 31) == 1u && x.f > 0.0f) reach_error(); if (x.w == 0x3f800001u) reach_error(); return 0; }", "false", "false"),
    // a NaN's encoding is any NaN pattern, never assumed canonical: the error needs the
    // signalling NaN 0x7f800001 as input, which exists (so never `true`), but the harness
    // feeds icpic3's one NaN, so the trace is not confirmed: `unknown`
    ("union_pun_nan_payload",
     "union u { float f; uint32_t w; };\n\
      int main(void) { union u x; x.f = __VERIFIER_nondet_float(); if (x.w == 0x7f800001u) reach_error(); return 0; }", "unknown", "unknown"),
    // a pointer cast reads the bytes of another type
    ("pointer_cast_pun",
     "int main(void) { double d = -2.0; uint64_t w = *(uint64_t *)&d; if (w != 0xc000000000000000ULL) reach_error(); return 0; }", "true", "true"),
    // pointers: out-parameters, arithmetic and comparison inside an array, NULL
    ("out_param",
     "static void split(double x, int *ip, double *fp) { *ip = (int)x; *fp = x - *ip; }\n\
      int main(void) { double x = __VERIFIER_nondet_double(); __VERIFIER_assume(x > 0.0 && x < 100.0); int i; double f; split(x, &i, &f); if (f < 0.0 || f >= 1.0) reach_error(); return 0; }", "true", "true"),
    ("pointer_walk",
     "int main(void) { int a[5] = { 1, 2, 3, 4, 5 }; int s = 0; int *p; for (p = a; p < a + 5; p++) s += *p; int *e = &a[4]; if (s != 15 || e - a != 4) reach_error(); return 0; }", "true", "true"),
    ("null_check",
     "static int get(const int *p) { return p ? *p : -1; }\n\
      int main(void) { int v = 3; int *q = 0; if (__VERIFIER_nondet_int()) q = &v; int r = get(q); if (r != -1 && r != 3) reach_error(); if (r == 3) reach_error(); return 0; }", "false", "false"),
    // dereferencing NULL is undefined behaviour: never `true`, never `false`
    ("null_deref",
     "int main(void) { int *q = 0; int v = 1; if (__VERIFIER_nondet_int()) q = &v; return *q; }", "unknown", "unknown"),
    // multi-dimensional arrays, indexed by variables
    ("matrix",
     "int main(void) { double m[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } }; int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int(); __VERIFIER_assume(i >= 0 && i < 2 && j >= 0 && j < 3);\n\
      if (m[i][j] != 3.0 * i + j + 1.0) reach_error(); return 0; }", "true", "true"),
    // memcpy between a double and a uint64_t, and between structs; memset
    ("memcpy_memset",
     "struct s { int a; float b; };\n\
      int main(void) { double d = 0.5; uint64_t w; memcpy(&w, &d, sizeof w); struct s x = { 1, 2.0f }, y; memcpy(&y, &x, sizeof y); memset(&x, 0, sizeof x);\n\
      if (w != 0x3fe0000000000000ULL || y.b != 2.0f || x.a != 0 || x.b != 0.0f) reach_error(); return 0; }", "true", "true"),
    // function pointers: a known target, and a table indexed at run time
    ("fn_pointers",
     "static int inc(int x) { return x + 1; } static int dbl(int x) { return 2 * x; }\n\
      int main(void) { int (*f)(int) = inc; int (*tab[2])(int) = { inc, dbl }; int k = __VERIFIER_nondet_int(); __VERIFIER_assume(k >= 0 && k < 2);\n\
      int r = tab[k](5); if (f(1) != 2 || (r != 6 && r != 10)) reach_error(); if (r == 10) reach_error(); return 0; }", "false", "false"),
    // goto (forward and backward), statement expressions, compound literals
    ("goto_stmt_expr",
     "int main(void) { int n = 0; again: n++; if (n < 3) goto again; int m = ({ int t = n * 2; t + 1; }); int *p = (int[]){ 4, 5 };\n\
      if (n != 3 || m != 7 || p[1] != 5) goto bad; return 0; bad: reach_error(); return 1; }", "true", "true"),
    // a long double constant converted to double (glibc's DBL_MAX in float.h)
    ("dbl_max",
     "#include <float.h>\nint main(void) { double m = DBL_MAX; if (m != 1.7976931348623157e308) reach_error(); return 0; }", "true", "true"),
];

#[test]
fn memory_model_cases() {
    if !gcc_available() {
        return;
    }
    let m32 = gcc_m32();
    let mut failures = Vec::new();
    for (name, body, lp64, ilp32) in CASES {
        let mut runs = vec![("lp64", *lp64)];
        if m32 {
            runs.push(("ilp32", *ilp32));
        }
        for (model, want) in runs {
            let (got, all) = solve(&format!("{name}_{model}.c"), body, model);
            if got != want {
                failures.push(format!(
                    "{name} ({model}): expected {want}, got {got}\n{all}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}

/// What stays unsupported is reported with its position and the construct's name.
#[test]
fn unsupported_constructs_are_named() {
    if !gcc_available() {
        return;
    }
    let cases = [
        (
            "bitfield_addr.c",
            "struct s { unsigned a : 3; }; int main(void) { struct s v; v.a = 1; unsigned *p = &v.a; return *p; }",
            "the address of a bit-field",
        ),
        (
            "longdouble.c",
            "int main(void) { long double x = 1; return x > 0; }",
            "`long double`",
        ),
        (
            "vla.c",
            "int main(void) { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n > 0 && n < 4); int a[n]; a[0] = 1; return a[0]; }",
            "constant expression",
        ),
    ];
    for (file, body, what) in cases {
        let p = temp_c(file, body);
        let o = icpic3(&["solve", p.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{file}: {err}");
        assert!(err.contains(file) && err.contains(what), "{file}: {err}");
    }
}
