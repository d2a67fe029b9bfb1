//! `fmod`/`fmodf` (docs/c-frontend.md "Semantic decisions"): the enclosure the lowering
//! states must contain every value glibc's fmod returns. gcc computes fmod of many argument
//! pairs (random magnitudes and signs, quotients of 1 to 2^1000, zeros, infinities, NaN,
//! subnormals); one program per pair asks whether `fmod(x, y)` can be exactly gcc's result
//! (same value, zero signs included; any NaN for a NaN): `solve` must never answer `true`
//! (the error call unreachable). The exact part of the encoding must bite: a value one ulp
//! off gcc's in the quotient-1 range is `true`, and so are the enclosure's facts over all
//! inputs.

use std::path::PathBuf;
use std::process::Command;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("icpic3-cfmod-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn gcc_available() -> bool {
    Command::new("gcc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A small deterministic generator (no dependency).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
}

fn pairs64() -> Vec<(f64, f64)> {
    let mut g = Lcg(19);
    let mut v = vec![
        (0.0, 3.0),
        (-0.0, 3.0),
        (5.0, 0.0),
        (f64::INFINITY, 2.0),
        (2.5, f64::INFINITY),
        (-2.5, f64::NEG_INFINITY),
        (f64::NAN, 1.0),
        (1.0, f64::NAN),
        (6.0, 3.0),
        (-6.0, 3.0),
        (-6.0, -2.0),
        (5.0, -5.0),
        (1e300, 1e-300),
        (-1e300, 3.0),
        (4.9e-324, 1.0),
        (1.0, 4.9e-324),
        (1e-310, 3e-311),
        (f64::MAX, 0.1),
        (0.3, 0.1),
        (-7.25, 0.5),
    ];
    for _ in 0..30 {
        let m1 = (g.next() % (1 << 40)) as f64 + 1.0;
        let m2 = (g.next() % (1 << 40)) as f64 + 1.0;
        let e1 = (g.next() % 80) as i32 - 40;
        let de = (g.next() % 12) as i32 - 2;
        let x = m1
            * 2f64.powi(e1 + de)
            * if g.next().is_multiple_of(2) {
                1.0
            } else {
                -1.0
            };
        let y = m2
            * 2f64.powi(e1)
            * if g.next().is_multiple_of(2) {
                1.0
            } else {
                -1.0
            };
        v.push((x, y));
    }
    v
}

fn pairs32() -> Vec<(f32, f32)> {
    let mut g = Lcg(7);
    let mut v = vec![
        (-0.0f32, 1.5f32),
        (7.0, 0.0),
        (3.5, f32::INFINITY),
        (f32::NAN, 2.0),
        (-9.0, 3.0),
        (1e30, 7e-30),
        (0.7, 0.1),
    ];
    for _ in 0..15 {
        let m1 = (g.next() % (1 << 20)) as f32 + 1.0;
        let m2 = (g.next() % (1 << 20)) as f32 + 1.0;
        let e1 = (g.next() % 40) as i32 - 20;
        let de = (g.next() % 10) as i32 - 2;
        let x = m1
            * 2f32.powi(e1 + de)
            * if g.next().is_multiple_of(2) {
                1.0
            } else {
                -1.0
            };
        let y = m2
            * 2f32.powi(e1)
            * if g.next().is_multiple_of(2) {
                1.0
            } else {
                -1.0
            };
        v.push((x, y));
    }
    v
}

/// gcc's fmod results as bit patterns.
fn gcc_results(p64: &[(f64, f64)], p32: &[(f32, f32)]) -> (Vec<u64>, Vec<u32>) {
    let mut body = String::from(
        "#include <stdio.h>\n#include <string.h>\n#include <math.h>\n\
         static double d(unsigned long long b) { double x; memcpy(&x, &b, 8); return x; }\n\
         static float f(unsigned b) { float x; memcpy(&x, &b, 4); return x; }\n\
         int main(void) { volatile double r; volatile float s; unsigned long long b; unsigned c; double rr; float ss;\n",
    );
    for (x, y) in p64 {
        body += &format!(
            "r = fmod(d({:#x}ULL), d({:#x}ULL)); rr = r; memcpy(&b, &rr, 8); printf(\"%llx\\n\", b);\n",
            x.to_bits(),
            y.to_bits()
        );
    }
    for (x, y) in p32 {
        body += &format!(
            "s = fmodf(f({:#x}u), f({:#x}u)); ss = s; memcpy(&c, &ss, 4); printf(\"%x\\n\", c);\n",
            x.to_bits(),
            y.to_bits()
        );
    }
    body += "return 0; }\n";
    let src = dir().join("gcc_fmod.c");
    std::fs::write(&src, body).unwrap();
    let exe = dir().join("gcc_fmod");
    let o = Command::new("gcc")
        .args(["-O0", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg("-lm")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(Command::new(&exe).output().unwrap().stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let r64 = lines[..p64.len()]
        .iter()
        .map(|l| u64::from_str_radix(l, 16).unwrap())
        .collect();
    let r32 = lines[p64.len()..]
        .iter()
        .map(|l| u32::from_str_radix(l, 16).unwrap())
        .collect();
    (r64, r32)
}

/// A check that `var` can equal gcc's result (a NaN: any NaN; a zero: with its sign).
fn can_equal(var: &str, is_nan: bool, is_zero: bool, neg: bool, lit: &str) -> String {
    if is_nan {
        format!("if (isnan({var})) reach_error();")
    } else if is_zero {
        format!(
            "if ({var} == 0 && {}__builtin_signbit({var})) reach_error();",
            if neg { "" } else { "!" }
        )
    } else {
        format!("if ({var} == {lit}) reach_error();")
    }
}

const HEADER: &str = "#include <math.h>\nextern void reach_error(void);\n\
    static double d(unsigned long long b) { union { unsigned long long u; double x; } v; v.u = b; return v.x; }\n\
    static float f(unsigned b) { union { unsigned u; float x; } v; v.u = b; return v.x; }\n";

/// `solve` on one check (`main`'s body): its first output line.
fn solve(name: &str, body: &str) -> String {
    let src = dir().join(name);
    std::fs::write(
        &src,
        format!("{HEADER}int main(void) {{ {body} return 0; }}\n"),
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(["solve", "--timeout", "10"])
        .arg(&src)
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_string()
}

#[test]
fn fmod_enclosure_contains_gcc_results() {
    if !gcc_available() {
        return;
    }
    let p64 = pairs64();
    let p32 = pairs32();
    let (r64, r32) = gcc_results(&p64, &p32);
    // (file, check, must be `true`)
    let mut checks: Vec<(String, String, bool)> = Vec::new();
    for (k, ((x, y), r)) in p64.iter().zip(&r64).enumerate() {
        let rv = f64::from_bits(*r);
        let lit = format!("d({r:#x}ULL)");
        let call = format!(
            "double r = fmod(d({:#x}ULL), d({:#x}ULL));",
            x.to_bits(),
            y.to_bits()
        );
        let test = can_equal("r", rv.is_nan(), rv == 0.0, rv.is_sign_negative(), &lit);
        checks.push((format!("d{k}.c"), format!("{call} {test}"), false));
        // one ulp away from gcc's result where the quotient is 1: excluded exactly
        if rv.is_finite() && rv != 0.0 && x.abs() >= y.abs() && x.abs() < 2.0 * y.abs() {
            let off = r + 1;
            checks.push((
                format!("d{k}_ulp.c"),
                format!("{call} if (r == d({off:#x}ULL)) reach_error();"),
                true,
            ));
        }
    }
    for (k, ((x, y), r)) in p32.iter().zip(&r32).enumerate() {
        let rv = f32::from_bits(*r);
        let lit = format!("f({r:#x}u)");
        let call = format!(
            "float r = fmodf(f({:#x}u), f({:#x}u));",
            x.to_bits(),
            y.to_bits()
        );
        let test = can_equal("r", rv.is_nan(), rv == 0.0, rv.is_sign_negative(), &lit);
        checks.push((format!("f{k}.c"), format!("{call} {test}"), false));
    }
    // the enclosure's facts themselves, over all inputs
    checks.push((
        "facts.c".into(),
        "double x = d(0), y = d(0); extern double __VERIFIER_nondet_double(void); x = __VERIFIER_nondet_double(); y = __VERIFIER_nondet_double();\n\
         double r = fmod(x, y); if (!isnan(r) && !isinf(y) && fabs(r) >= fabs(y)) reach_error();\n\
         if (x > 0 && r < 0) reach_error(); if (x < 0 && r > 0) reach_error(); if (!isnan(r) && fabs(r) > fabs(x)) reach_error();".into(),
        true,
    ));
    let mut failures = Vec::new();
    let mut exact = 0;
    for (file, body, must_hold) in &checks {
        let got = solve(file, body);
        if *must_hold {
            exact += 1;
            if got != "true" {
                failures.push(format!(
                    "{file}: expected true (excluded), got {got}: {body}"
                ));
            }
        } else if got == "true" {
            failures.push(format!("{file}: gcc's result excluded: {body}"));
        }
    }
    assert!(exact > 1, "no quotient-1 check at all");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
