//! Independent confirmation of a reachable goal: the original (preprocessed) C text, with one
//! marker call inserted at the goal, is compiled by gcc (`-O0`, SSE arithmetic, no
//! contraction: exact IEEE binary32/binary64 as the C standard's Annex F prescribes) and run
//! with the trace's nondet values; the goal counts as reached only if the marker runs.

use super::cfg::{Cfg, Instrument, Ty};
use std::fmt::Write as _;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A nondet value: raw bits (floats) or the two's-complement integer.
#[derive(Clone, Debug, PartialEq)]
pub enum InputValue {
    Bits(Ty, u64),
    Int(Ty, i128),
}

impl InputValue {
    fn raw(&self) -> u64 {
        match self {
            InputValue::Bits(_, b) => *b,
            InputValue::Int(_, v) => *v as u64,
        }
    }
    /// C text of the value (`0x1.8p+1f`, `-3`, `NAN`...).
    pub fn c_text(&self) -> String {
        match self {
            InputValue::Bits(Ty::F32, b) => {
                let f = f32::from_bits(*b as u32);
                if f.is_nan() {
                    format!("NAN (bits 0x{b:08x})")
                } else {
                    format!("{f:e}f (bits 0x{b:08x})")
                }
            }
            InputValue::Bits(_, b) => {
                let f = f64::from_bits(*b);
                if f.is_nan() {
                    format!("NAN (bits 0x{b:016x})")
                } else {
                    format!("{f:e} (bits 0x{b:016x})")
                }
            }
            InputValue::Int(_, v) => v.to_string(),
        }
    }
    /// The value as a C expression (for witnesses).
    pub fn c_expr(&self) -> String {
        // NaN and the infinities have no literal: the <math.h> macros
        fn float(nan: bool, inf: bool, positive: bool, finite: impl FnOnce() -> String) -> String {
            match (nan, inf, positive) {
                (true, _, _) => "NAN".into(),
                (false, true, true) => "INFINITY".into(),
                (false, true, false) => "-INFINITY".into(),
                _ => finite(),
            }
        }
        match self {
            InputValue::Bits(Ty::F32, b) => {
                let f = f32::from_bits(*b as u32);
                float(f.is_nan(), f.is_infinite(), f > 0.0, || format!("{f:e}f"))
            }
            InputValue::Bits(_, b) => {
                let f = f64::from_bits(*b);
                float(f.is_nan(), f.is_infinite(), f > 0.0, || format!("{f:e}"))
            }
            InputValue::Int(_, v) => v.to_string(),
        }
    }
}

/// The outcome of a replay.
#[derive(Debug, PartialEq, Eq)]
pub enum Replay {
    /// the goal was reached; which of the instrumented goals (index into `goals`, when fewer
    /// than 100 were instrumented)
    Confirmed(Option<usize>),
    /// coverage mode: the instrumented goals (indices into `goals`) the run passed, each
    /// with whether it was reached only after the inputs were padded with zeros
    Covered(Vec<(usize, bool)>),
    NotReached(String),
    Unavailable(String),
}

/// `G<id> T` (the goal was reached within the trace's inputs) or `G<id> P` (after the
/// inputs ran out and were padded with zeros).
fn parse_cover_line(l: &str) -> Option<(usize, bool)> {
    let rest = l.strip_prefix('G')?;
    let (id, how) = rest.split_once(' ')?;
    Some((id.parse().ok()?, how.trim() == "P"))
}

fn tmpdir() -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    std::env::temp_dir().join(format!("icpic3-replay-{}-{n}", std::process::id()))
}

const NONDET_TYPES: &[(&str, &str)] = &[
    ("char", "char"),
    ("uchar", "unsigned char"),
    ("short", "short"),
    ("ushort", "unsigned short"),
    ("int", "int"),
    ("uint", "unsigned int"),
    ("unsigned_int", "unsigned int"),
    ("long", "long"),
    ("ulong", "unsigned long"),
    ("longlong", "long long"),
    ("ulonglong", "unsigned long long"),
    ("bool", "_Bool"),
];

/// Runs the program to see whether goal `goal` is reached with `inputs` (in the order the
/// program asks for them). `goals` are the goals to instrument (all get the marker, the
/// program exits with 77 at the first one).
pub fn replay(
    text: &str,
    cfg: &Cfg,
    goals: &[usize],
    inputs: &[InputValue],
    lp64: bool,
    cover: bool,
) -> Replay {
    if !lp64 && cfg.model_sensitive {
        return Replay::Unavailable(
            "ILP32 program uses `long`/`sizeof`; no 32-bit C compiler configured to replay it"
                .into(),
        );
    }
    // insertions into the preprocessed text: (offset, order key, text)
    let mut ins: Vec<(usize, (u8, usize, u8), String)> = Vec::new();
    let marker = if cover {
        "__icpic3_cover"
    } else {
        "__icpic3_goal"
    };
    for (gi, &g) in goals.iter().enumerate() {
        let id = if cover { gi } else { gi.min(99) };
        let mark = format!("{marker}({id});");
        // at one offset: ends before starts (left to right); of two starts the outer one
        // (larger end; the `else` form outside the plain one over the same statement) to
        // the left; of two ends the outer one (smaller start) to the right. Insertions at
        // one offset are made right to left, so the key orders them by insertion.
        match cfg.goals[g].instrument {
            Instrument::WrapStmt(a, b) => {
                ins.push((a, (0, b, 0), format!("{{{mark} ")));
                ins.push((b, (1, a, 1), " }".into()));
            }
            Instrument::ElseAfter(a, b) => {
                ins.push((a, (0, b, 1), "{ ".into()));
                ins.push((b, (1, a, 0), format!(" }} else {{{mark}}}")));
            }
            Instrument::WrapExpr(a, b) => {
                ins.push((a, (0, b, 0), format!("({marker}({id}), ")));
                ins.push((b, (1, a, 1), ")".into()));
            }
            Instrument::None => {
                if cover {
                    continue;
                }
                return Replay::Unavailable(format!(
                    "the goal at {} cannot be observed in the C text",
                    cfg.goals[g].pos
                ));
            }
        }
    }
    ins.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    let mut prog = text.to_string();
    for (off, _, s) in ins {
        if off > prog.len() || !prog.is_char_boundary(off) {
            return Replay::Unavailable("instrumentation offset out of range".into());
        }
        prog.insert_str(off, &s);
    }
    let mut header = String::from("void __icpic3_goal(int);\nvoid __icpic3_cover(int);\n");
    if cfg.function != "main" {
        header.push_str("#define main __icpic3_original_main\n");
    }
    let prog = format!("{header}{prog}");
    // the harness
    let mut h = String::new();
    h.push_str("#include <stdint.h>\n#include <string.h>\n#include <unistd.h>\n");
    let vals: Vec<String> = inputs
        .iter()
        .map(|v| format!("0x{:x}ULL", v.raw()))
        .collect();
    let _ = writeln!(
        h,
        "static const unsigned long long icv[] = {{ {}0 }};\nstatic const int icn = {};\nstatic int ick = 0;",
        vals.iter().map(|v| format!("{v}, ")).collect::<String>(),
        inputs.len()
    );
    if cover {
        // coverage: past the trace's inputs the run goes on with 0 for every further input
        // (a concrete run all the same; the report says which goals needed the padding)
        h.push_str(
            "static unsigned long long icnext(void) { if (ick >= icn) { ick++; return 0; } return icv[ick++]; }\n",
        );
    } else {
        h.push_str(
            "static unsigned long long icnext(void) { if (ick >= icn) _exit(3); return icv[ick++]; }\n",
        );
    }
    h.push_str("float __VERIFIER_nondet_float(void) { uint32_t u = (uint32_t)icnext(); float f; memcpy(&f, &u, 4); return f; }\n");
    h.push_str("double __VERIFIER_nondet_double(void) { uint64_t u = icnext(); double d; memcpy(&d, &u, 8); return d; }\n");
    for (n, t) in NONDET_TYPES {
        let _ = writeln!(
            h,
            "{t} __VERIFIER_nondet_{n}(void) {{ return ({t})icnext(); }}"
        );
    }
    h.push_str("void __icpic3_goal(int id) { _exit(100 + id); }\n");
    let _ = writeln!(
        h,
        "static unsigned char iccov[{}];\nvoid __icpic3_cover(int id) {{ if (!iccov[id]) {{ char b[32]; int n = 0; int v = id; char t[16]; int k = 0; iccov[id] = 1; do {{ t[k++] = (char)('0' + v % 10); v /= 10; }} while (v); b[n++] = 'G'; while (k) b[n++] = t[--k]; b[n++] = ' '; b[n++] = ick > icn ? 'P' : 'T'; b[n++] = '\\n'; (void)!write(2, b, n); }} }}",
        goals.len().max(1)
    );
    h.push_str("void __assert_fail(const char *a, const char *b, unsigned int c, const char *d) { (void)a; (void)b; (void)c; (void)d; _exit(78); }\n");
    h.push_str("__attribute__((weak)) void __VERIFIER_error(void) { _exit(78); }\n");
    h.push_str("__attribute__((weak)) void reach_error(void) { _exit(78); }\n");
    // weak: a definition in the program wins
    h.push_str("__attribute__((weak)) void __VERIFIER_assume(int c) { if (!c) _exit(4); }\n");
    h.push_str("__attribute__((weak)) void assume_abort_if_not(int c) { if (!c) _exit(4); }\n");
    if cfg.function != "main" {
        let cty = |t: Ty| match t {
            Ty::Void => "void".to_string(),
            t => t.c_name(),
        };
        let ps: Vec<String> = cfg.entry_params.iter().map(|t| cty(*t)).collect();
        let _ = writeln!(
            h,
            "{} {}({});",
            cty(cfg.entry_ret),
            cfg.function,
            if ps.is_empty() {
                "void".into()
            } else {
                ps.join(", ")
            }
        );
        h.push_str("int main(void) {\n");
        let mut args = Vec::new();
        for (i, t) in cfg.entry_params.iter().enumerate() {
            let get = match t {
                Ty::F32 => "__VERIFIER_nondet_float()".to_string(),
                Ty::F64 => "__VERIFIER_nondet_double()".to_string(),
                t => format!("({})icnext()", t.c_name()),
            };
            let _ = writeln!(h, "  {} a{i} = {get};", cty(*t));
            args.push(format!("a{i}"));
        }
        let _ = writeln!(
            h,
            "  {}({});\n  return 0;\n}}",
            cfg.function,
            args.join(", ")
        );
    }
    let dir = tmpdir();
    if std::fs::create_dir_all(&dir).is_err() {
        return Replay::Unavailable("cannot create a temporary directory".into());
    }
    let r = compile_and_run(&dir, &prog, &h, cover);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

fn compile_and_run(dir: &std::path::Path, prog: &str, harness: &str, cover: bool) -> Replay {
    let p = dir.join("prog.c");
    let hp = dir.join("harness.c");
    let exe = dir.join("prog");
    if std::fs::write(&p, prog).is_err() || std::fs::write(&hp, harness).is_err() {
        return Replay::Unavailable("cannot write the replay files".into());
    }
    let out = Command::new("gcc")
        .args([
            "-std=gnu11",
            "-O0",
            "-w",
            "-fno-builtin",
            "-ffp-contract=off",
            "-fexcess-precision=standard",
            "-frounding-math",
            "-fsignaling-nans",
            "-mfpmath=sse",
            "-msse2",
        ])
        .arg(&p)
        .arg(&hp)
        .arg("-lm")
        .arg("-o")
        .arg(&exe)
        .output();
    match out {
        Err(e) => return Replay::Unavailable(format!("cannot run gcc: {e}")),
        Ok(o) if !o.status.success() => {
            let msg = String::from_utf8_lossy(&o.stderr);
            let first = msg
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or("")
                .to_string();
            return Replay::Unavailable(format!("gcc could not build the replay: {first}"));
        }
        Ok(_) => {}
    }
    let child = Command::new(&exe)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return Replay::Unavailable(format!("cannot run the replay: {e}")),
    };
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(st)) => {
                let mut err = String::new();
                if let Some(mut e) = child.stderr.take() {
                    let _ = e.read_to_string(&mut err);
                }
                if cover {
                    let hit: Vec<(usize, bool)> =
                        err.lines().filter_map(parse_cover_line).collect();
                    return Replay::Covered(hit);
                }
                return match st.code() {
                    Some(c) if (100..200).contains(&c) => {
                        Replay::Confirmed(Some((c - 100) as usize).filter(|&i| i < 99))
                    }
                    Some(3) => Replay::NotReached(
                        "the run asked for more inputs than the trace has".into(),
                    ),
                    Some(c) => Replay::NotReached(format!(
                        "the run ended with exit code {c} before the goal"
                    )),
                    None => {
                        Replay::NotReached("the run was ended by a signal before the goal".into())
                    }
                };
            }
            Ok(None) => {
                // a coverage run padded with zeros may loop for ever: 2 s are enough there
                let limit = if cover { 2 } else { 20 };
                if start.elapsed() > Duration::from_secs(limit) {
                    let _ = child.kill();
                    let _ = child.wait();
                    if cover {
                        // what was printed before the limit still counts
                        let mut err = String::new();
                        if let Some(mut e) = child.stderr.take() {
                            let _ = e.read_to_string(&mut err);
                        }
                        let hit = err.lines().filter_map(parse_cover_line).collect();
                        return Replay::Covered(hit);
                    }
                    return Replay::NotReached("the run did not finish within 20 s".into());
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Replay::Unavailable(format!("waiting for the replay: {e}")),
        }
    }
}
