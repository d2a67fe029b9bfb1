//! Independent confirmation of a reachable goal: the original (preprocessed) C text, with one
//! marker call inserted at the goal, is compiled by gcc (`-O0`, SSE arithmetic, no
//! contraction: exact IEEE binary32/binary64 as the C standard's Annex F prescribes) and run
//! with the trace's nondet values; the goal counts as reached only if the marker runs.

use super::cfg::{
    CellShape, Cfg, EnvHarness, InitArg, Instrument, ObjShape, ParamShape, StepFeed, Ty,
};
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

/// gcc flags under which the compiled program computes exactly what the solver's semantics
/// says: IEEE binary32/binary64 on SSE, no contraction into fma, no excess precision, no
/// builtins folded at compile time, rounding and signalling NaNs respected.
const GCC_IEEE_FLAGS: [&str; 10] = [
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
];

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

/// The gcc flags of the data model: `-m32` for ILP32 (i386 with SSE2: binary32/binary64
/// arithmetic as on x86-64), when gcc can build 32-bit programs (`gcc-multilib`, installed
/// by `scripts/setup.sh`). Without it, an ILP32 program whose meaning depends on the data
/// model cannot be replayed; one that does not is replayed as a 64-bit program.
///
/// A target whose plain `char` is unsigned (`--target arm32`) adds `-funsigned-char`, the ARM
/// EABI layout (8-byte scalars aligned to 8 in structs) `-malign-double`.
fn model_flags(lp64: bool, cfg: &Cfg) -> Result<Vec<&'static str>, String> {
    let mut f = model_flags_m32(lp64, cfg)?.to_vec();
    if cfg.unsigned_char {
        f.push("-funsigned-char");
    }
    if cfg.arm_eabi {
        f.push("-malign-double");
    }
    Ok(f)
}

fn model_flags_m32(lp64: bool, cfg: &Cfg) -> Result<&'static [&'static str], String> {
    static M32: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if lp64 {
        return Ok(&[]);
    }
    let ok = *M32.get_or_init(|| {
        let dir = tmpdir();
        let src = dir.join("m32_probe.c");
        let exe = dir.join("m32_probe");
        let _ = std::fs::create_dir_all(&dir);
        let ok = std::fs::write(&src, "#include <stdint.h>\n#include <math.h>\nint main(void) { return sizeof(long) == 4 ? 0 : 1; }\n").is_ok()
            && Command::new("gcc")
                .args(["-m32", "-O0"])
                .arg(&src)
                .arg("-lm")
                .arg("-o")
                .arg(&exe)
                .output()
                .is_ok_and(|o| o.status.success())
            && Command::new(&exe).status().is_ok_and(|s| s.success());
        let _ = std::fs::remove_dir_all(&dir);
        ok
    });
    if ok {
        Ok(&["-m32"])
    } else if cfg.model_sensitive {
        Err("ILP32 program uses `long`/`sizeof`; gcc cannot build 32-bit programs here (install gcc-multilib) to replay it".into())
    } else {
        Ok(&[])
    }
}

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
    replay_in(text, cfg, goals, inputs, lp64, cover, None).0
}

/// What a traced replay adds to the plain one: the logging calls to insert into the text
/// (offset, order key, text; see [`replay`]'s insertions) and the most records to write.
pub struct TraceSetup {
    pub ins: Vec<(usize, (u8, usize, u8), String)>,
    pub max_records: usize,
}

/// [`replay`] (not in coverage mode) of the program with the logging calls of `setup`
/// inserted: the outcome and the log the run wrote (see [`super::trace`]).
pub fn replay_traced(
    text: &str,
    cfg: &Cfg,
    goals: &[usize],
    inputs: &[InputValue],
    lp64: bool,
    setup: &TraceSetup,
) -> (Replay, String) {
    let (r, log) = replay_in(text, cfg, goals, inputs, lp64, false, Some(setup));
    (r, log.unwrap_or_default())
}

/// The C side of a traced replay: the declarations every program unit gets, and the macro
/// the inserted calls use. The value's C type picks the logging function (`_Generic`; a
/// bit-field has no type `_Generic` names, `__builtin_classify_type` sees it as an integer);
/// pointers, aggregates, `long double` and 128-bit integers are not logged (`__icpic3_tx`;
/// `__int128` named only where the target has it: not under `-m32`).
const TRACE_HEADER: &str = "#ifdef __SIZEOF_INT128__\n#define __ICPIC3_I128 __int128: __icpic3_tx, unsigned __int128: __icpic3_tx,\n#else\n#define __ICPIC3_I128\n#endif\nvoid __icpic3_ti(int, long long);\nvoid __icpic3_tu(int, unsigned long long);\nvoid __icpic3_tf(int, float);\nvoid __icpic3_td(int, double);\nvoid __icpic3_tx(int, ...);\n#define __ICPIC3_T(id, v) _Generic((v), float: __icpic3_tf, double: __icpic3_td, _Bool: __icpic3_ti, char: __icpic3_ti, signed char: __icpic3_ti, short: __icpic3_ti, int: __icpic3_ti, long: __icpic3_ti, long long: __icpic3_ti, unsigned char: __icpic3_ti, unsigned short: __icpic3_ti, unsigned int: __icpic3_ti, unsigned long: __icpic3_tu, unsigned long long: __icpic3_tu, __ICPIC3_I128 default: __builtin_choose_expr(__builtin_classify_type(v) == 1, __icpic3_ti, __icpic3_tx))(id, v)\n";

/// The harness side of a traced replay: the logging functions. Each record is one line
/// `KIND ID HEX` (`i` signed, `u` unsigned, `f` binary32 bits, `d` binary64 bits, `S` the
/// start of a step with its number) written with `write(2)` at once, so a run that ends in
/// `_exit` loses nothing; after `max` records one `X` line and nothing more. `errno` is
/// restored (the logging must not change what the program sees); no floating-point
/// operation is done (the exception flags stay as the program left them).
fn push_trace_functions(h: &mut String, log: &std::path::Path, max: usize) {
    let path: String = log
        .display()
        .to_string()
        .chars()
        .flat_map(|c| match c {
            '\\' | '"' => vec!['\\', c],
            c => vec![c],
        })
        .collect();
    h.push_str("#include <fcntl.h>\n#include <errno.h>\n");
    let _ = writeln!(
        h,
        "static int ictfd = -1; static long ictn = 0;\nstatic void ictw(char k, int id, unsigned long long v) {{ int e = errno; char b[64]; int n = 0; char t[24]; int j = 0; if (ictn > {max}L) return; if (ictfd < 0) ictfd = open(\"{path}\", O_WRONLY | O_CREAT | O_TRUNC, 0600); if (ictn++ == {max}L) {{ b[n++] = 'X'; }} else {{ b[n++] = k; b[n++] = ' '; do {{ t[j++] = (char)('0' + id % 10); id /= 10; }} while (id); while (j) b[n++] = t[--j]; b[n++] = ' '; do {{ t[j++] = \"0123456789abcdef\"[v & 15]; v >>= 4; }} while (v); while (j) b[n++] = t[--j]; }} b[n++] = '\\n'; if (ictfd >= 0) (void)!write(ictfd, b, n); errno = e; }}"
    );
    h.push_str("void __icpic3_ti(int id, long long v) { ictw('i', id, (unsigned long long)v); }\n");
    h.push_str("void __icpic3_tu(int id, unsigned long long v) { ictw('u', id, v); }\n");
    h.push_str(
        "void __icpic3_tf(int id, float v) { uint32_t u; memcpy(&u, &v, 4); ictw('f', id, u); }\n",
    );
    h.push_str(
        "void __icpic3_td(int id, double v) { uint64_t u; memcpy(&u, &v, 8); ictw('d', id, u); }\n",
    );
    h.push_str("void __icpic3_tx(int id, ...) { (void)id; }\n");
    h.push_str("void __icpic3_tstep(long long s) { ictw('S', 0, (unsigned long long)s); }\n");
}

#[allow(clippy::too_many_arguments)]
fn replay_in(
    text: &str,
    cfg: &Cfg,
    goals: &[usize],
    inputs: &[InputValue],
    lp64: bool,
    cover: bool,
    trace: Option<&TraceSetup>,
) -> (Replay, Option<String>) {
    let mflags = match model_flags(lp64, cfg) {
        Ok(f) => f,
        Err(e) => return (Replay::Unavailable(e), None),
    };
    // undefined-behaviour goals: observed by the sanitizer / exact-check build
    if !cover && !goals.is_empty() && goals.iter().all(|&g| is_ub_instrument(cfg, g)) {
        if trace.is_some() {
            return (
                Replay::Unavailable("an undefined-behaviour goal has no traced replay".into()),
                None,
            );
        }
        let r = match observe(
            text,
            cfg,
            goals,
            &[Feed::Exact(inputs.to_vec())],
            lp64,
            None,
        ) {
            Err(why) => Replay::Unavailable(why),
            Ok(runs) => match runs.into_iter().next().and_then(|r| r.into_iter().next()) {
                Some(h) => Replay::Confirmed(Some(h.goal)),
                None => Replay::NotReached(
                    "the replay built with gcc's undefined-behaviour checks did not observe it"
                        .into(),
                ),
            },
        };
        return (r, None);
    }
    // insertions into the preprocessed text: (offset, order key, text)
    let mut ins: Vec<(usize, (u8, usize, u8), String)> = Vec::new();
    let marker = if cover {
        "__icpic3_cover"
    } else {
        "__icpic3_goal"
    };
    let mut done: Vec<Instrument> = Vec::new();
    // condition and path goals: instrumented together per condition / decision
    let mut dec: Vec<(Instrument, String)> = Vec::new();
    for (gi, &g) in goals.iter().enumerate() {
        // the copies of a goal in a function inlined at several calls share one place in
        // the text: instrumented once (twice would nest `else` branches into invalid C)
        if done.contains(&cfg.goals[g].instrument) {
            continue;
        }
        done.push(cfg.goals[g].instrument.clone());
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
            Instrument::Cond { .. } | Instrument::Path { .. } => {
                dec.push((cfg.goals[g].instrument.clone(), format!("{marker}({id})")));
            }
            Instrument::None | Instrument::Ub(..) | Instrument::ConvCheck { .. } => {
                if cover {
                    continue;
                }
                let why = format!(
                    "the goal at {} cannot be observed in the C text",
                    cfg.goals[g].pos
                );
                return (Replay::Unavailable(why), None);
            }
        }
    }
    push_trampoline(&mut ins, cfg);
    ins.extend(super::mcdc::insertions(&dec));
    if let Some(t) = trace {
        ins.extend(t.ins.iter().cloned());
    }
    ins.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    let mut prog = text.to_string();
    for (off, _, s) in ins {
        if off > prog.len() || !prog.is_char_boundary(off) {
            let why = "instrumentation offset out of range".to_string();
            return (Replay::Unavailable(why), None);
        }
        prog.insert_str(off, &s);
    }
    let mut header = String::from("void __icpic3_goal(int);\nvoid __icpic3_cover(int);\n");
    if super::mcdc::needs_header(&dec) {
        header.push_str(super::mcdc::HEADER);
    }
    if trace.is_some() {
        header.push_str(TRACE_HEADER);
    }
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
    push_stubs(&mut h);
    let dir = tmpdir();
    let log = dir.join("trace.log");
    if let Some(t) = trace {
        push_trace_functions(&mut h, &log, t.max_records);
    }
    push_entry_main(&mut h, cfg, trace.is_some(), |t| match t {
        Ty::F32 => "__VERIFIER_nondet_float()".to_string(),
        Ty::F64 => "__VERIFIER_nondet_double()".to_string(),
        t => format!("({})icnext()", t.c_name()),
    });
    if std::fs::create_dir_all(&dir).is_err() {
        let why = "cannot create a temporary directory".to_string();
        return (Replay::Unavailable(why), None);
    }
    let r = compile_and_run(
        &dir,
        &prog,
        &header,
        &h,
        &undefined_stubs(cfg),
        cover,
        &mflags,
        env_setters(cfg),
    );
    // no log file: the run assigned nothing before it ended
    let log = trace.map(|_| std::fs::read_to_string(&log).unwrap_or_default());
    let _ = std::fs::remove_dir_all(&dir);
    (r, log)
}

/// The environment's setter functions (none without an environment).
fn env_setters(cfg: &Cfg) -> &[(usize, String, String)] {
    cfg.env.as_ref().map_or(&[], |e| &e.setters[..])
}

/// The stubs every harness defines: error calls exit 78, failed assumptions exit 4 (weak: a
/// definition in the program wins).
fn push_stubs(h: &mut String) {
    h.push_str("void __assert_fail(const char *a, const char *b, unsigned int c, const char *d) { (void)a; (void)b; (void)c; (void)d; _exit(78); }\n");
    h.push_str("__attribute__((weak)) void __VERIFIER_error(void) { _exit(78); }\n");
    h.push_str("__attribute__((weak)) void reach_error(void) { _exit(78); }\n");
    h.push_str("__attribute__((weak)) void __VERIFIER_assume(int c) { if (!c) _exit(4); }\n");
    h.push_str("__attribute__((weak)) void assume_abort_if_not(int c) { if (!c) _exit(4); }\n");
}

/// Writes the program's translation units (`prog` split at the unit separators, `header`
/// repeated at the start of every unit after the first), the harness and the stubs of the
/// undefined functions; returns the files to compile.
fn write_sources(
    dir: &std::path::Path,
    stem: &str,
    prog: &str,
    header: &str,
    harness: &str,
    stubs: &str,
    setters: &[(usize, String, String)],
) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let fail = |_| "cannot write the replay files".to_string();
    // the harness first: linked with `--allow-multiple-definition`, its nondet functions win
    // over a program's own `__VERIFIER_nondet_int() { int v; return v; }`
    let hp = dir.join("harness.c");
    std::fs::write(&hp, harness).map_err(fail)?;
    files.push(hp);
    for (k, text) in super::parse::split_units(prog).into_iter().enumerate() {
        let p = dir.join(format!("{stem}_{k}.c"));
        // the environment's setter functions, at the end of the unit whose file scope
        // names their variables
        let mut text = text.to_string();
        for (_, _, t) in setters.iter().filter(|x| x.0 == k) {
            text.push_str(t);
        }
        if k == 0 {
            std::fs::write(&p, text).map_err(fail)?;
        } else {
            std::fs::write(&p, format!("{header}{text}")).map_err(fail)?;
        }
        files.push(p);
    }
    if !stubs.is_empty() {
        let sp = dir.join("undefined_stubs.c");
        std::fs::write(&sp, stubs).map_err(fail)?;
        files.push(sp);
    }
    Ok(files)
}

/// Definitions of the functions no input file defines (`--undefined-functions nondet`): each
/// returns the next input through the harness's nondet function of its type (a translation
/// unit of its own, so the harness's headers cannot clash with the names).
fn undefined_stubs(cfg: &Cfg) -> String {
    if cfg.undefined_fns.is_empty() {
        return String::new();
    }
    let mut h = String::from("#include <stdint.h>\n");
    // a call through a function pointer whose target is unknown (`(*api->set_switches)`) is
    // listed under its expression: no function to define (the compiled program calls
    // whatever the pointer holds)
    let ident = |n: &str| n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    for (name, t) in cfg.undefined_fns.iter().filter(|f| ident(&f.0)) {
        if *t == Ty::Void {
            let _ = writeln!(h, "void {name}() {{}}");
        } else {
            let n = nondet_name(*t);
            let ct = c_type(*t);
            let nt = match n {
                "float" => "float".to_string(),
                "double" => "double".to_string(),
                _ => NONDET_TYPES
                    .iter()
                    .find(|x| x.0 == n)
                    .map_or("int", |x| x.1)
                    .to_string(),
            };
            let _ = writeln!(
                h,
                "{nt} __VERIFIER_nondet_{n}(void);\n{ct} {name}() {{ return ({ct})__VERIFIER_nondet_{n}(); }}"
            );
        }
    }
    h
}

fn c_type(t: Ty) -> String {
    match t {
        Ty::Void => "void".to_string(),
        t => t.c_name(),
    }
}

/// For an entry function other than `main`: its declaration and a `main` that calls it with
/// one input per parameter (`arg` gives the C expression that reads it), after the
/// environment's input globals (`--function`); for a step function (`--step`), the whole
/// environment loop ([`push_env_main`]).
///
/// `trace_steps`: the loop calls `__icpic3_tstep(k)` at the start of step k (a traced replay,
/// [`replay_traced`]).
fn push_entry_main(h: &mut String, cfg: &Cfg, trace_steps: bool, arg: impl Fn(Ty) -> String) {
    if let Some(env) = cfg.env.as_ref().filter(|e| e.looped) {
        push_env_main(h, cfg, env, trace_steps, &arg);
        return;
    }
    if cfg.function == "main" {
        return;
    }
    // the parameters' C types (a pointer is passed as `void *`: the harness cannot name the
    // program's types, and the ABI passes every data pointer alike)
    let shapes = entry_shapes(cfg);
    let callee = match cfg.entry_end {
        Some(_) => trampoline_name(cfg),
        None => cfg.function.clone(),
    };
    let _ = writeln!(
        h,
        "{} {callee}({});",
        if cfg.entry_end.is_some() {
            "void".to_string()
        } else {
            c_type(cfg.entry_ret)
        },
        param_list(&shapes)
    );
    let setters: Vec<&String> = cfg
        .env
        .iter()
        .flat_map(|e| &e.step_feeds)
        .filter_map(|f| match f {
            super::cfg::StepFeed::Global(n) => Some(n),
            _ => None,
        })
        .collect();
    for n in &setters {
        let _ = writeln!(h, "void {n}(void);");
    }
    h.push_str("int main(void) {\n");
    // the input globals first, as the lowering feeds them
    for n in &setters {
        let _ = writeln!(h, "  {n}();");
    }
    let mut args = Vec::new();
    let mut n = 0usize;
    for (i, s) in shapes.iter().enumerate() {
        match s {
            ParamShape::Scalar(t) => {
                let _ = writeln!(h, "  {} a{i} = {};", c_type(*t), arg(*t));
            }
            ParamShape::Pointer(o) => {
                let name = format!("icobj{i}");
                fill_obj(h, o, &name, &mut n, &arg);
                let _ = writeln!(h, "  void *a{i} = {name};");
            }
            ParamShape::Aggregate => {
                // no C type to pass it with: the build fails and the replay is unavailable
                h.push_str("#error a struct or union parameter of the analysed function cannot be replayed\n");
            }
        }
        args.push(format!("a{i}"));
    }
    let _ = writeln!(h, "  {callee}({});\n  return 0;\n}}", args.join(", "));
}

/// The name of the trampoline the replay appends to the analysed function's definition.
fn trampoline_name(cfg: &Cfg) -> String {
    format!("__icpic3_entry_{}", cfg.function)
}

/// For an entry function other than `main` whose definition's end is known: a non-`static`
/// function inserted just after the definition (in the same translation unit, on the same
/// line) that calls it with its arguments. The harness calls the trampoline, so a `static`
/// entry function is reachable from the harness's unit, and a name that the harness's
/// system headers declare with another type (`index`) does not clash. The parameter types
/// are the harness's (gcc's `__INT32_TYPE__`... are `<stdint.h>`'s types; pointers are
/// `void *`), converted implicitly to the function's parameter types at the call.
fn push_trampoline(ins: &mut Vec<(usize, (u8, usize, u8), String)>, cfg: &Cfg) {
    use super::cfg::ParamShape;
    let Some(end) = cfg.entry_end else {
        return;
    };
    if cfg.function == "main" {
        return;
    }
    let shapes = entry_shapes(cfg);
    let ty = |t: Ty| -> String {
        match t {
            Ty::Int { bits, signed } => {
                format!("__{}INT{bits}_TYPE__", if signed { "" } else { "U" })
            }
            t => c_type(t),
        }
    };
    let params: Vec<String> = shapes
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            ParamShape::Scalar(t) => format!("{} a{i}", ty(*t)),
            _ => format!("void *a{i}"),
        })
        .collect();
    let args: Vec<String> = (0..shapes.len()).map(|i| format!("a{i}")).collect();
    // after every other insertion at this offset (the largest key goes in last: leftmost)
    ins.push((
        end,
        (2, 0, 0),
        format!(
            " void {}({}) {{ (void){}({}); }}",
            trampoline_name(cfg),
            if params.is_empty() {
                "void".to_string()
            } else {
                params.join(", ")
            },
            cfg.function,
            args.join(", ")
        ),
    ));
}

/// The analysed function's parameters as the harness builds them.
fn entry_shapes(cfg: &Cfg) -> Vec<ParamShape> {
    if cfg.entry_shapes.len() == cfg.entry_params.len() {
        cfg.entry_shapes.clone()
    } else {
        cfg.entry_params
            .iter()
            .map(|t| ParamShape::Scalar(*t))
            .collect()
    }
}

/// A prototype's parameter list: scalars by type, pointers as `void *`.
fn param_list(shapes: &[ParamShape]) -> String {
    let ps: Vec<String> = shapes
        .iter()
        .map(|s| match s {
            ParamShape::Scalar(t) => c_type(*t),
            _ => "void *".to_string(),
        })
        .collect();
    if ps.is_empty() {
        "void".into()
    } else {
        ps.join(", ")
    }
}

/// A fresh object: a zeroed, aligned buffer whose cells get the inputs in cell order (a
/// pointer cell points to a fresh object of its own, filled at that place).
fn fill_obj(h: &mut String, o: &ObjShape, name: &str, n: &mut usize, arg: &dyn Fn(Ty) -> String) {
    let _ = writeln!(
        h,
        "  static unsigned char {name}[{}] __attribute__((aligned(16)));",
        o.size.max(1)
    );
    for (off, c) in &o.cells {
        match c {
            CellShape::Scalar(t) => {
                let _ = writeln!(
                    h,
                    "  {{ {} v = {}; memcpy({name} + {off}, &v, sizeof v); }}",
                    c_type(*t),
                    arg(*t)
                );
            }
            CellShape::Pointer(sub) => {
                *n += 1;
                let sn = format!("{name}_{}", *n);
                fill_obj(h, sub, &sn, n, arg);
                let _ = writeln!(
                    h,
                    "  {{ void *v = {sn}; memcpy({name} + {off}, &v, sizeof v); }}"
                );
            }
        }
    }
}

/// Steps a replay runs at most (a step function without inputs loops until the goal).
const MAX_STEPS: u64 = 10_000_000;

/// The step environment in C, in the order the lowering feeds it (`lower::env`): the step
/// function's pointer parameters' objects, the calibration parameters, the init function,
/// then a loop of inputs and step calls.
fn push_env_main(
    h: &mut String,
    cfg: &Cfg,
    env: &EnvHarness,
    trace_steps: bool,
    arg: &dyn Fn(Ty) -> String,
) {
    let shapes = entry_shapes(cfg);
    // through the trampoline when there is one (a `static` step function)
    let (ret, step) = match cfg.entry_end {
        Some(_) if cfg.function == env.step => ("void".to_string(), trampoline_name(cfg)),
        _ => (c_type(cfg.entry_ret), env.step.clone()),
    };
    let _ = writeln!(h, "{ret} {step}({});", param_list(&shapes));
    if let Some(init) = &env.init {
        let ps: Vec<String> = env
            .init_args
            .iter()
            .map(|a| match a {
                InitArg::Scalar(t) => c_type(*t),
                _ => "void *".into(),
            })
            .collect();
        let ps = if ps.is_empty() {
            "void".into()
        } else {
            ps.join(", ")
        };
        let _ = writeln!(h, "void {init}({ps});");
    }
    for (_, n, _) in &env.setters {
        let _ = writeln!(h, "void {n}(void);");
    }
    h.push_str("int main(void) {\n");
    let mut n = 0usize;
    let mut args = Vec::new();
    for (i, s) in shapes.iter().enumerate() {
        match s {
            ParamShape::Scalar(t) => {
                let _ = writeln!(h, "  {} a{i} = 0;", c_type(*t));
                args.push(format!("a{i}"));
            }
            ParamShape::Pointer(o) => {
                fill_obj(h, o, &format!("icobj{i}"), &mut n, arg);
                args.push(format!("(void *)icobj{i}"));
            }
            ParamShape::Aggregate => {
                h.push_str(
                    "#error a struct or union parameter of the step function cannot be replayed\n",
                );
            }
        }
    }
    for p in &env.param_setters {
        let _ = writeln!(h, "  {p}();");
    }
    if let Some(init) = &env.init {
        let mut iargs = Vec::new();
        for (j, a) in env.init_args.iter().enumerate() {
            match a {
                InitArg::Scalar(t) => {
                    let _ = writeln!(h, "  {} b{j} = {};", c_type(*t), arg(*t));
                    iargs.push(format!("b{j}"));
                }
                InitArg::StepObj(k) => iargs.push(format!("(void *)icobj{k}")),
                InitArg::Fresh(o) => {
                    fill_obj(h, o, &format!("icinit{j}"), &mut n, arg);
                    iargs.push(format!("(void *)icinit{j}"));
                }
            }
        }
        let _ = writeln!(h, "  {init}({});", iargs.join(", "));
    }
    let _ = writeln!(
        h,
        "  for (long long ics = 0; ics < {MAX_STEPS}LL; ics++) {{"
    );
    if trace_steps {
        h.push_str("    __icpic3_tstep(ics + 1);\n");
    }
    for f in &env.step_feeds {
        match f {
            StepFeed::Global(name) => {
                let _ = writeln!(h, "    {name}();");
            }
            StepFeed::Arg(k, t) => {
                let _ = writeln!(h, "    a{k} = {};", arg(*t));
            }
            StepFeed::Cell(k, off, t) => {
                let _ = writeln!(
                    h,
                    "    {{ {} v = {}; memcpy(icobj{k} + {off}, &v, sizeof v); }}",
                    c_type(*t),
                    arg(*t)
                );
            }
        }
    }
    let _ = writeln!(h, "    {step}({});\n  }}\n  return 0;\n}}", args.join(", "));
}

#[allow(clippy::too_many_arguments)]
fn compile_and_run(
    dir: &std::path::Path,
    prog: &str,
    header: &str,
    harness: &str,
    stubs: &str,
    cover: bool,
    mflags: &[&str],
    setters: &[(usize, String, String)],
) -> Replay {
    let exe = dir.join("prog");
    let files = match write_sources(dir, "prog", prog, header, harness, stubs, setters) {
        Ok(f) => f,
        Err(e) => return Replay::Unavailable(e),
    };
    let out = Command::new("gcc")
        .args(GCC_IEEE_FLAGS)
        .args(mflags)
        .args(&files)
        .arg("-Wl,--allow-multiple-definition")
        // a function the analysed code never calls may be defined nowhere (another entry's
        // callee, `k_uptime_get` of an RTOS): the translation never reaches such a call, so
        // neither does the run (a position-dependent executable: in a PIE the dynamic
        // loader rejects the unresolved PLT entry before `main`)
        .arg("-Wl,--unresolved-symbols=ignore-in-object-files")
        .arg("-no-pie")
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
                .find(|l| {
                    l.contains("error") && !l.contains("collect2")
                        || l.contains("undefined reference")
                })
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

// ------------------------------------------------------------------------------------------
// Concrete runs with every goal observed: the coverage replay of a trace, the exact replay of
// an undefined-behaviour goal, and the concrete-run prepass of `deadcode`.

/// How a run of the instrumented program gets its inputs.
#[derive(Clone, Debug)]
pub enum Feed {
    /// exactly these values; the run stops when the program asks for more
    Exact(Vec<InputValue>),
    /// these values, then 0 for every further input
    Padded(Vec<InputValue>),
    /// the harness's pseudo-random generator with this seed (0: every input is 0): small
    /// and boundary values, NaN and infinities, scaled per run
    Random(u64),
    /// these values, a prefix of random length unchanged and some of the rest replaced by
    /// pseudo-random ones (seeded), continued past their end by repeating them from the
    /// start (again with replacements)
    Mutate(Vec<InputValue>, u64),
}

/// How a goal was observed in a concrete run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observed {
    /// the marker call inserted at the goal ran
    Marker,
    /// gcc's UndefinedBehaviorSanitizer reported this (its message) at the goal's operator
    Sanitizer(String),
    /// the exact range check wrapped around a float → integer conversion's operand failed
    ExactCheck,
}

/// One goal reached by one run.
#[derive(Clone, Debug)]
pub struct Hit {
    /// index into the `goals` given to [`observe`]
    pub goal: usize,
    /// the feed of the run
    pub feed: Feed,
    /// the inputs the run had read when it reached the goal (in program order)
    pub inputs: Vec<InputValue>,
    /// reached only after a [`Feed::Padded`] run's values ran out
    pub padded: bool,
    pub how: Observed,
}

fn is_ub_instrument(cfg: &Cfg, g: usize) -> bool {
    matches!(
        cfg.goals[g].instrument,
        Instrument::Ub(..) | Instrument::ConvCheck { .. }
    )
}

const MAX_INPUTS: usize = 20000;

/// Runs per forking process (see [`observe_batch`]).
const BATCH: usize = 64;

/// The nondet function of a type: its name suffix and its return type, with built-in type
/// names only.
pub fn nondet_fn(t: Ty) -> (&'static str, &'static str) {
    let n = nondet_name(t);
    let rt = match n {
        "float" => "float",
        "double" => "double",
        _ => NONDET_TYPES
            .iter()
            .find(|x| x.0 == n)
            .map_or("int", |x| x.1),
    };
    (n, rt)
}

/// The nondet function name suffix for a parameter type (the harness's generators).
fn nondet_name(t: Ty) -> &'static str {
    match t {
        Ty::Bool => "bool",
        Ty::F32 => "float",
        Ty::F64 => "double",
        Ty::Int { bits: 8, signed } => {
            if signed {
                "char"
            } else {
                "uchar"
            }
        }
        Ty::Int { bits: 16, signed } => {
            if signed {
                "short"
            } else {
                "ushort"
            }
        }
        Ty::Int { bits: 32, signed } => {
            if signed {
                "int"
            } else {
                "uint"
            }
        }
        Ty::Int { signed, .. } => {
            if signed {
                "longlong"
            } else {
                "ulonglong"
            }
        }
        Ty::Void => "int",
    }
}

/// The type of a value the harness logged under a nondet name.
fn logged_ty(name: &str, lp64: bool, unsigned_char: bool) -> Option<Ty> {
    let int = |bits: u8, signed: bool| Some(Ty::Int { bits, signed });
    match name {
        "float" => Some(Ty::F32),
        "double" => Some(Ty::F64),
        "bool" => Some(Ty::Bool),
        "char" => int(8, !unsigned_char),
        "uchar" => int(8, false),
        "short" => int(16, true),
        "ushort" => int(16, false),
        "int" => int(32, true),
        "uint" | "unsigned_int" => int(32, false),
        "long" => int(if lp64 { 64 } else { 32 }, true),
        "ulong" => int(if lp64 { 64 } else { 32 }, false),
        "longlong" => int(64, true),
        "ulonglong" => int(64, false),
        _ => None,
    }
}

fn logged_value(t: Ty, raw: u64) -> InputValue {
    match t {
        Ty::F32 => InputValue::Bits(t, raw & 0xffff_ffff),
        Ty::F64 => InputValue::Bits(t, raw),
        Ty::Bool => InputValue::Int(t, (raw != 0) as i128),
        Ty::Int { bits, signed } => {
            let b = bits as u32;
            let m = if b >= 64 {
                raw
            } else {
                raw & ((1u64 << b) - 1)
            };
            let v = if signed && b < 64 && (m >> (b - 1)) & 1 == 1 {
                m as i128 - (1i128 << b)
            } else if signed && b >= 64 {
                m as i64 as i128
            } else {
                m as i128
            };
            InputValue::Int(t, v)
        }
        Ty::Void => InputValue::Int(t, 0),
    }
}

/// The numeric constants written in the main file's part of the preprocessed text (at most
/// 64, finite, distinct): the generator's dictionary.
fn constants(text: &str) -> Vec<f64> {
    // cpp's first line marker names the main file: `# 0 "path"`
    let main_file = text
        .lines()
        .next()
        .and_then(|l| l.split('"').nth(1))
        .unwrap_or("")
        .to_string();
    let main_file = main_file.as_str();
    let src = super::parse::Source::new(text.to_string(), main_file);
    let b = text.as_bytes();
    let mut out: Vec<f64> = Vec::new();
    let mut i = 0;
    let mut line_start = 0;
    let mut in_main = false;
    while i < b.len() && out.len() < 64 {
        if i == line_start {
            // a line marker or a line of another file (a header) has no constants of ours
            in_main = b[i] != b'#' && src.pos(i).file == main_file;
        }
        let c = b[i];
        if c == b'\n' {
            i += 1;
            line_start = i;
            continue;
        }
        let prev_ident = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if in_main
            && !prev_ident
            && (c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
        {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'.'
                    || ((b[i] == b'+' || b[i] == b'-') && matches!(b[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            let tok = text[start..i].trim_end_matches(['f', 'F', 'u', 'U', 'l', 'L']);
            if let Ok(v) = tok.parse::<f64>() {
                if v.is_finite() && !out.contains(&v) {
                    out.push(v);
                }
            }
            continue;
        }
        i += 1;
    }
    out
}

/// Which goal kind a sanitizer message is about.
fn sanitizer_kind(msg: &str) -> Option<super::cfg::GoalKind> {
    use super::cfg::GoalKind as K;
    if msg.contains("signed integer overflow")
        || msg.contains("negation of")
        || msg.contains("by -1 cannot be represented")
    {
        Some(K::Overflow)
    } else if msg.contains("division by zero") {
        Some(K::DivZero)
    } else if msg.contains("shift") {
        Some(K::Shift)
    } else if msg.contains("out of bounds") {
        Some(K::Bounds)
    } else {
        None
    }
}

/// The harness of [`observe`]: the nondet functions (fed from a file, padded with zeros, or
/// generated), the goal markers, the exact conversion checks, and `main` for an entry other
/// than `main`. Every value handed out is logged (`I name hex`), every goal reached
/// (`G id`, `U id`) on standard error, in order, so the inputs read before each goal are known.
fn observe_harness(cfg: &Cfg, ngoals: usize, dict: &[f64]) -> String {
    let mut h = String::new();
    h.push_str(
        "#include <stdint.h>\n#include <string.h>\n#include <unistd.h>\n#include <stdlib.h>\n#include <stdio.h>\n",
    );
    let _ = writeln!(h, "#define ICMAX {MAX_INPUTS}L");
    // the program's own numeric constants (thresholds, limits) as a dictionary
    let _ = writeln!(
        h,
        "static const double icdict[] = {{ {}0.0 }};\nstatic const int icndict = {};",
        dict.iter().map(|d| format!("{d:e}, ")).collect::<String>(),
        dict.len()
    );
    h.push_str(
        r#"static unsigned long long *icv; static long icn = 0, ick = 0; static int icmode = -1;
static unsigned long long icst = 1; static double icscale = 1.0; static long long icscalei = 1;
static long icfix; static int iccyc, icdev, icmut, icL[16], icpal_ok[16][8]; static long icnt[16]; static unsigned long long icpal[16][8];
static unsigned long long icrand(void);
static const char *icenv_feed, *icenv_seed, *icenv_inputs; static int icenv_set;
static void icinit(void) {
  if (icmode >= 0) return;
  if (!icenv_set) { icenv_feed = getenv("ICPIC3_FEED"); icenv_seed = getenv("ICPIC3_SEED"); icenv_inputs = getenv("ICPIC3_INPUTS"); }
  const char *m = icenv_feed; icmode = m ? m[0] : 'E';
  const char *s = icenv_seed;
  unsigned long long seed = s ? strtoull(s, 0, 10) : 1;
  icst = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL; if (!icst) icst = 1;
  static const double sc[] = {1.0, 10.0, 100.0, 1000.0, 1e6, 1e10};
  icscale = sc[seed % 6]; icscalei = (long long)icscale;
  /* two of three pseudo-random runs are periodic (see icpick), with occasional deviations;
     a control loop then sees the same kind of reading in every period */
  iccyc = (int)(icrand() % 3);
  for (int t = 0; t < 16; t++) icL[t] = 1 + (int)(icrand() % 8);
  icdev = (int)(icrand() % 3) * 8;
  { static const int mu[] = {3, 8, 15, 30}; icmut = mu[icrand() % 4]; }
  if (icmode == 'M') iccyc = 0;
  const char *f = icenv_inputs;
  if (f) { FILE *fp = fopen(f, "r"); if (fp) { unsigned long long x; long cap = 0;
    while (fscanf(fp, "%llx", &x) == 1) { if (icn == cap) { cap = cap ? 2 * cap : 64; icv = realloc(icv, cap * sizeof *icv); if (!icv) _exit(6); } icv[icn++] = x; }
    fclose(fp); } }
  /* a mutation keeps a prefix of the given inputs exactly (a random length) */
  icfix = (icmode == 'M' && icn > 0) ? (long)(icrand() % (unsigned long long)(icn + 1)) : 0;
}
static void icput(const char *b, int n) { (void)!write(2, b, n); }
/* batch mode (ICPIC3_BATCH names a file of `mode seed inputs-file err-file limit-ms` lines):
   before main, fork one child per line; each child runs the program with that feed and its
   standard error in err-file and an alarm at its time limit; the parent waits, then exits */
#include <signal.h>
#include <fcntl.h>
#include <time.h>
#include <sys/wait.h>
__attribute__((constructor)) static void icbatch(void) {
  const char *bf = getenv("ICPIC3_BATCH");
  if (!bf) return;
  FILE *fp = fopen(bf, "r");
  if (!fp) _exit(7);
  static char mode[8], seed[32], inp[4096], errp[4096]; long lim;
  while (fscanf(fp, "%7s %31s %4095s %4095s %ld", mode, seed, inp, errp, &lim) == 5) {
    pid_t pid = fork();
    if (pid < 0) _exit(7);
    if (pid == 0) {
      fclose(fp);
      int fd = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0) _exit(7);
      dup2(fd, 2); close(fd);
      icenv_set = 1; icenv_feed = mode; icenv_seed = seed; icenv_inputs = strcmp(inp, "-") ? inp : 0;
      alarm((unsigned)((lim + 999) / 1000)); /* the time limit ends the child (SIGALRM) */
      return; /* on to main */
    }
    int st;
    while (waitpid(pid, &st, 0) < 0) { }
  }
  fclose(fp);
  _exit(0);
}
static void iclog(const char *t, unsigned long long v) { char b[80]; int n = snprintf(b, sizeof b, "I %s %llx\n", t, v); icput(b, n); ick++; }
static int icgenerate(void) { icinit(); if (ick >= ICMAX) _exit(5); if (icmode == 'M') return ick >= icfix && ((int)(icrand() % 100) < icmut || icn == 0); return icmode == 'R'; }
static unsigned long long icfeed(void) { if (ick < icn) return icv[ick]; if (icmode == 'E') _exit(3); if (icmode == 'M' && icn > 0) return icv[ick % icn]; return 0; }
static unsigned long long icrand(void) { icst ^= icst >> 12; icst ^= icst << 25; icst ^= icst >> 27; return icst * 2685821657736338717ULL; }
/* a constant of the program, or a neighbour of it */
static double icdictval(void) {
  double d = icdict[icrand() % (unsigned)icndict];
  switch (icrand() % 6) { case 0: return -d; case 1: return d + 1.0; case 2: return d - 1.0;
    case 3: return d * (1.0 + 1e-3) + 1e-3; case 4: return d * (1.0 - 1e-3) - 1e-3; default: return d; }
}
static long long icgen_int(long long lo, long long hi) {
  unsigned r = (unsigned)(icrand() % 100);
  if (icndict > 0 && r >= 90) { double d = icdictval(); if (d > -9e18 && d < 9e18) return (long long)d; }
  static const long long sp[] = {0, 1, -1, 2, -2, 3, 7, 8, 10, -10, 15, 16, 31, 32, 33, 63, 64, 100, -100, 127, 128, 255, 256, 1000, -1000, 32767, 65535};
  if (r < 3) return lo;
  if (r < 6) return hi;
  if (r < 30) return sp[icrand() % 27];
  return (long long)(icrand() % (2ULL * (unsigned long long)icscalei + 1ULL)) - icscalei;
}
static unsigned long long icpick(int t, unsigned long long fresh) {
  if (!iccyc) return fresh;
  /* periodic: input i repeats input i - L (of any type: a loop reads its inputs in a fixed
     order), or, per type, the type's input j repeats its input j - L_t */
  int slot = iccyc == 1 ? (int)(ick % icL[15]) : (int)(icnt[t]++ % icL[t]);
  if (iccyc == 1) t = 15;
  if (!icpal_ok[t][slot]) { icpal_ok[t][slot] = 1; icpal[t][slot] = fresh; return fresh; }
  if ((int)(icrand() % 100) < icdev) return fresh;
  return icpal[t][slot];
}
static double icgen_real(void) {
  unsigned r = (unsigned)(icrand() % 100);
  if (icndict > 0 && r >= 85) return icdictval();
  static const double sp[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 0.1, -0.1, 10.0, -10.0, 100.0, -100.0, 1000.0, -1000.0, 1e6, -1e6, 1e20, -1e20, 3e38, -3e38};
  if (r < 2) return __builtin_nan("");
  if (r < 4) return (r & 1) ? __builtin_inf() : -__builtin_inf();
  if (r < 25) return sp[icrand() % 22];
  double u = (double)(icrand() >> 11) / 9007199254740992.0;
  /* the run's scale, or (one value in three) any of them */
  static const double sc[] = {1.0, 10.0, 100.0, 1000.0, 1e6, 1e10};
  double k = icrand() % 3 ? icscale : sc[icrand() % 6];
  if (r < 60) return (2.0 * u - 1.0) * k;
  if (r < 80) return u * k;
  return (double)(long long)((2.0 * u - 1.0) * k);
}
float __VERIFIER_nondet_float(void) { uint32_t u; if (icgenerate()) { float f = (float)icgen_real(); memcpy(&u, &f, 4); u = (uint32_t)icpick(14, u); } else u = (uint32_t)icfeed(); iclog("float", u); float f; memcpy(&f, &u, 4); return f; }
double __VERIFIER_nondet_double(void) { uint64_t u; if (icgenerate()) { double d = icgen_real(); memcpy(&u, &d, 8); u = icpick(15, u); } else u = icfeed(); iclog("double", u); double d; memcpy(&d, &u, 8); return d; }
"#,
    );
    let ranges: &[(&str, &str, &str)] = &[
        ("char", "-128LL", "127LL"),
        ("uchar", "0LL", "255LL"),
        ("short", "-32768LL", "32767LL"),
        ("ushort", "0LL", "65535LL"),
        ("int", "-2147483648LL", "2147483647LL"),
        ("uint", "0LL", "4294967295LL"),
        ("unsigned_int", "0LL", "4294967295LL"),
        (
            "long",
            "(-9223372036854775807LL - 1)",
            "9223372036854775807LL",
        ),
        ("ulong", "0LL", "(long long)18446744073709551615ULL"),
        (
            "longlong",
            "(-9223372036854775807LL - 1)",
            "9223372036854775807LL",
        ),
        ("ulonglong", "0LL", "(long long)18446744073709551615ULL"),
        ("bool", "0LL", "1LL"),
    ];
    for (i, (n, t)) in NONDET_TYPES.iter().enumerate() {
        let (_, lo, hi) = ranges
            .iter()
            .find(|r| r.0 == *n)
            .copied()
            .unwrap_or(("", "0LL", "0LL"));
        // a Boolean is 0 or 1 with equal odds (icgen_int's special values are nearly all
        // nonzero)
        let gen = if *n == "bool" {
            "(icrand() & 1ULL)".to_string()
        } else {
            format!("(unsigned long long)icgen_int({lo}, {hi})")
        };
        let _ = writeln!(
            h,
            "{t} __VERIFIER_nondet_{n}(void) {{ unsigned long long u = icgenerate() ? icpick({i}, {gen}) : icfeed(); {t} v = ({t})u; iclog(\"{n}\", (unsigned long long)v); return v; }}"
        );
    }
    let _ = writeln!(
        h,
        "static unsigned char iccov[{n}], icubs[{n}];\nvoid __icpic3_cover(int id) {{ if (!iccov[id]) {{ char b[32]; int n = snprintf(b, sizeof b, \"G %d\\n\", id); iccov[id] = 1; icput(b, n); }} }}\nstatic void icub(int id) {{ if (!icubs[id]) {{ char b[32]; int n = snprintf(b, sizeof b, \"U %d\\n\", id); icubs[id] = 1; icput(b, n); }} }}",
        n = ngoals.max(1)
    );
    h.push_str("float __icpic3_cvf(int id, float v, long double lo1, long double hi1) { if (!((long double)v > lo1 && (long double)v < hi1)) icub(id); return v; }\n");
    h.push_str("double __icpic3_cvd(int id, double v, long double lo1, long double hi1) { if (!((long double)v > lo1 && (long double)v < hi1)) icub(id); return v; }\n");
    push_stubs(&mut h);
    push_entry_main(&mut h, cfg, false, |t| {
        format!("({})__VERIFIER_nondet_{}()", c_type(t), nondet_name(t))
    });
    h
}

/// One instrumented build of [`observe`]: the program text and, for the sanitizer build,
/// where each undefined-behaviour goal's operator may be reported.
struct ObserveBuild {
    /// plain `char` is unsigned (the harness logs `char` inputs as unsigned values)
    unsigned_char: bool,
    exe: PathBuf,
    /// (file, line, column) → (index into `goals`, kind, span length) of the goals whose
    /// span covers that position of the compiled text
    ub_at: UbMap,
    /// (file, line, column) → the goals of the innermost block item at that position (with
    /// the item's length instead of the goal's)
    ub_stmt: UbMap,
    /// per index into `goals`: the kind and operation of the check
    sigs: Vec<(super::cfg::GoalKind, Option<super::cfg::UbSig>)>,
}

/// (file, line, column) → (index into `goals`, kind, span length, group): goals of one group
/// are reported as one goal (same position, kind and function: the copies of an inlined
/// function, the checks of `a + b + c` that start at the same place)
type UbMap = std::collections::HashMap<
    (String, usize, usize),
    Vec<(usize, super::cfg::GoalKind, usize, usize)>,
>;

/// The group of each of `goals` (see [`UbMap`]).
fn goal_groups(cfg: &Cfg, goals: &[usize]) -> Vec<usize> {
    let key = |g: usize| {
        let x = &cfg.goals[g];
        (x.pos.clone(), x.kind, x.function.clone())
    };
    (0..goals.len())
        .map(|i| {
            (0..i)
                .find(|&j| key(goals[j]) == key(goals[i]))
                .unwrap_or(i)
        })
        .collect()
}

/// Builds the program with the goals `which` (indices into `goals`) instrumented: markers
/// for branch goals (`sanitize` false) or exact conversion checks plus gcc's
/// UndefinedBehaviorSanitizer for undefined-behaviour goals (`sanitize` true).
#[allow(clippy::too_many_arguments)]
fn observe_build(
    dir: &std::path::Path,
    text: &str,
    cfg: &Cfg,
    goals: &[usize],
    which: &[usize],
    sanitize: bool,
    harness: &str,
    mflags: &[&str],
) -> Result<ObserveBuild, String> {
    let mut ins: Vec<(usize, (u8, usize, u8), String)> = Vec::new();
    // (index into `goals`, span start, span end, innermost statement)
    type UbSpan = (usize, usize, usize, Option<(usize, usize)>);
    let mut spans: Vec<UbSpan> = Vec::new();
    let mut done: Vec<Instrument> = Vec::new();
    // condition and path goals: instrumented together per condition / decision
    let mut dec: Vec<(Instrument, String)> = Vec::new();
    for &gi in which {
        let g = goals[gi];
        // copies of one goal (an inlined function's) share one place: instrumented once
        if done.contains(&cfg.goals[g].instrument) {
            continue;
        }
        done.push(cfg.goals[g].instrument.clone());
        let mark = format!("__icpic3_cover({gi});");
        match cfg.goals[g].instrument {
            Instrument::WrapStmt(a, b) if !sanitize => {
                ins.push((a, (0, b, 0), format!("{{{mark} ")));
                ins.push((b, (1, a, 1), " }".into()));
            }
            Instrument::ElseAfter(a, b) if !sanitize => {
                ins.push((a, (0, b, 1), "{ ".into()));
                ins.push((b, (1, a, 0), format!(" }} else {{{mark}}}")));
            }
            Instrument::WrapExpr(a, b) if !sanitize => {
                ins.push((a, (0, b, 0), format!("(__icpic3_cover({gi}), ")));
                ins.push((b, (1, a, 1), ")".into()));
            }
            Instrument::Cond { .. } | Instrument::Path { .. } if !sanitize => {
                dec.push((
                    cfg.goals[g].instrument.clone(),
                    format!("__icpic3_cover({gi})"),
                ));
            }
            Instrument::ConvCheck {
                start,
                end,
                from,
                lo,
                hi,
            } if sanitize => {
                let f = if from == Ty::F32 { "f" } else { "d" };
                ins.push((start, (0, end, 0), format!("__icpic3_cv{f}({gi}, (")));
                ins.push((
                    end,
                    (1, start, 1),
                    format!("), {}.0L, {}.0L)", lo - 1, hi + 1),
                ));
            }
            Instrument::Ub(a, b) if sanitize => spans.push((gi, a, b, cfg.goals[g].ub_stmt)),
            _ => {}
        }
    }
    push_trampoline(&mut ins, cfg);
    ins.extend(super::mcdc::insertions(&dec));
    ins.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    let mut prog = text.to_string();
    for (off, _, s) in &ins {
        if *off > prog.len() || !prog.is_char_boundary(*off) {
            return Err("instrumentation offset out of range".into());
        }
        prog.insert_str(*off, s);
    }
    let mut header = String::from(
        "void __icpic3_cover(int);\nfloat __icpic3_cvf(int, float, long double, long double);\ndouble __icpic3_cvd(int, double, long double, long double);\n",
    );
    if super::mcdc::needs_header(&dec) {
        header.push_str(super::mcdc::HEADER);
    }
    if cfg.function != "main" {
        header.push_str("#define main __icpic3_original_main\n");
    }
    let prog = format!("{header}{prog}");
    // where the sanitizer may report each undefined-behaviour goal: every position of its
    // span, moved by the text inserted before it
    let mut ub_at = UbMap::new();
    let mut ub_stmt = UbMap::new();
    if !spans.is_empty() {
        let mut offs: Vec<(usize, usize)> = ins.iter().map(|(o, _, s)| (*o, s.len())).collect();
        offs.sort();
        let src = super::parse::Source::new(prog.clone(), "<replay>");
        let at = |o: usize| {
            let shift: usize = offs
                .iter()
                .take_while(|(x, _)| *x <= o)
                .map(|(_, l)| l)
                .sum();
            let p = src.pos(header.len() + o + shift);
            (p.file, p.line, p.col)
        };
        let groups = goal_groups(cfg, goals);
        for (gi, a, b, stmt) in spans {
            let kind = cfg.goals[goals[gi]].kind;
            for o in a..b.min(text.len()) {
                ub_at
                    .entry(at(o))
                    .or_default()
                    .push((gi, kind, b - a, groups[gi]));
            }
            if let Some((sa, sb)) = stmt {
                for o in sa..sb.min(text.len()) {
                    ub_stmt
                        .entry(at(o))
                        .or_default()
                        .push((gi, kind, sb - sa, groups[gi]));
                }
            }
        }
    }
    let tag = if sanitize { "ub" } else { "br" };
    let exe = dir.join(format!("prog_{tag}"));
    let files = write_sources(
        dir,
        &format!("prog_{tag}"),
        &prog,
        &header,
        harness,
        &undefined_stubs(cfg),
        env_setters(cfg),
    )?;
    let mut cmd = Command::new("gcc");
    cmd.args(GCC_IEEE_FLAGS);
    cmd.args(mflags);
    if sanitize {
        cmd.args([
            "-fsanitize=signed-integer-overflow,shift,integer-divide-by-zero,bounds",
            "-fsanitize-recover=all",
        ]);
    }
    let out = cmd
        .args(&files)
        .arg("-Wl,--allow-multiple-definition")
        // a function the analysed code never calls may be defined nowhere (another entry's
        // callee, `k_uptime_get` of an RTOS): the translation never reaches such a call, so
        // neither does the run (a position-dependent executable: in a PIE the dynamic
        // loader rejects the unresolved PLT entry before `main`)
        .arg("-Wl,--unresolved-symbols=ignore-in-object-files")
        .arg("-no-pie")
        .arg("-lm")
        .arg("-o")
        .arg(&exe)
        .output();
    match out {
        Err(e) => Err(format!("cannot run gcc: {e}")),
        Ok(o) if !o.status.success() => {
            let msg = String::from_utf8_lossy(&o.stderr);
            let first = msg
                .lines()
                .find(|l| {
                    l.contains("error") && !l.contains("collect2")
                        || l.contains("undefined reference")
                })
                .unwrap_or("")
                .to_string();
            Err(format!("gcc could not build the replay: {first}"))
        }
        Ok(_) => Ok(ObserveBuild {
            unsigned_char: cfg.unsigned_char,
            exe,
            ub_at,
            ub_stmt,
            sigs: goals
                .iter()
                .map(|&g| (cfg.goals[g].kind, cfg.goals[g].ub_sig.clone()))
                .collect(),
        }),
    }
}

/// Whether a sanitizer message fits the goal's operation: for signed overflow and shifts
/// the operator and every integer-constant operand must be the ones shown (a report of an
/// operation gcc folded from several, `x * 6` for `(x * 3) * 2`, does not fit).
fn sig_matches(msg: &str, sig: &(super::cfg::GoalKind, Option<super::cfg::UbSig>)) -> bool {
    use super::cfg::GoalKind as K;
    let (kind, sig) = sig;
    if !matches!(kind, K::Overflow | K::Shift) {
        return true;
    }
    let Some(sig) = sig else {
        return false;
    };
    let nums: Vec<i128> = msg
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == '\'')
        .filter_map(|t| t.parse::<i128>().ok())
        .collect();
    let lits_in = |shown: &[i128]| {
        sig.lhs.is_none_or(|v| shown.contains(&v)) && sig.rhs.is_none_or(|v| shown.contains(&v))
    };
    if let Some(rest) = msg.strip_prefix("signed integer overflow: ") {
        // "A op B cannot be represented in type 'T'"
        let mut w = rest.split_whitespace();
        let (Some(a), Some(op), Some(b)) = (w.next(), w.next(), w.next()) else {
            return false;
        };
        let (Ok(a), Ok(b)) = (a.parse::<i128>(), b.parse::<i128>()) else {
            return false;
        };
        return op == sig.op && lits_in(&[a, b]);
    }
    if msg.starts_with("negation of ") {
        return sig.op == "neg";
    }
    if msg.starts_with("division of ") {
        // "division of A by -1 cannot be represented"
        return (sig.op == "/" || sig.op == "%") && nums.len() >= 2 && lits_in(&nums[..2]);
    }
    if let Some(rest) = msg.strip_prefix("shift exponent ") {
        // "shift exponent B is too large for N-bit type 'T'" / "... is negative"
        let b = rest
            .split_whitespace()
            .next()
            .and_then(|t| t.parse::<i128>().ok());
        return (sig.op == "<<" || sig.op == ">>") && sig.rhs.is_none_or(|v| Some(v) == b);
    }
    if let Some(rest) = msg.strip_prefix("left shift of negative value ") {
        let a = rest
            .split_whitespace()
            .next()
            .and_then(|t| t.parse::<i128>().ok());
        return sig.op == "<<" && sig.lhs.is_none_or(|v| Some(v) == a);
    }
    if let Some(rest) = msg.strip_prefix("left shift of ") {
        // "left shift of A by B places cannot be represented in type 'T'"
        let w: Vec<&str> = rest.split_whitespace().collect();
        let a = w.first().and_then(|t| t.parse::<i128>().ok());
        let b = w.get(2).and_then(|t| t.parse::<i128>().ok());
        return sig.op == "<<"
            && sig.lhs.is_none_or(|v| Some(v) == a)
            && sig.rhs.is_none_or(|v| Some(v) == b);
    }
    false
}

/// Of the candidates of `kind`, those with the smallest span if they are all one group (one
/// reported goal), otherwise none (ambiguous).
fn innermost(
    cands: &[(usize, super::cfg::GoalKind, usize, usize)],
    kind: super::cfg::GoalKind,
) -> Vec<usize> {
    let Some(len) = cands.iter().filter(|c| c.1 == kind).map(|c| c.2).min() else {
        return vec![];
    };
    let at: Vec<_> = cands.iter().filter(|c| c.1 == kind && c.2 == len).collect();
    if at.iter().all(|c| c.3 == at[0].3) {
        at.iter().map(|c| c.0).collect()
    } else {
        vec![]
    }
}

/// Runs one build with one feed; the goals it reached, in order.
fn observe_run(
    dir: &std::path::Path,
    b: &ObserveBuild,
    feed: &Feed,
    k: usize,
    lp64: bool,
) -> Vec<Hit> {
    let _ = k;
    let errp = dir.join("err.txt");
    let inp = dir.join("in.txt");
    let (mode, given, limit) = feed_mode(feed);
    let mut cmd = Command::new(&b.exe);
    cmd.env("ICPIC3_FEED", mode.to_string())
        .env("UBSAN_OPTIONS", "print_stacktrace=0:halt_on_error=0")
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    if let Feed::Random(s) | Feed::Mutate(_, s) = feed {
        cmd.env("ICPIC3_SEED", s.to_string());
    }
    if let Some(v) = given {
        let t: String = v.iter().map(|x| format!("{:x}\n", x.raw())).collect();
        if std::fs::write(&inp, t).is_err() {
            return vec![];
        }
        cmd.env("ICPIC3_INPUTS", &inp);
    }
    let Ok(ef) = std::fs::File::create(&errp) else {
        return vec![];
    };
    cmd.stderr(Stdio::from(ef));
    let Ok(mut child) = cmd.spawn() else {
        return vec![];
    };
    let start = Instant::now();
    // most runs take about a millisecond: poll often at first
    let mut nap = Duration::from_micros(50);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) => {
                if start.elapsed() > Duration::from_secs(limit) {
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                std::thread::sleep(nap);
                nap = (nap * 2).min(Duration::from_millis(2));
            }
            Err(_) => return vec![],
        }
    }
    parse_run(b, feed, &errp, lp64)
}

/// Mode letter, given values and time limit (s) of a feed.
fn feed_mode(feed: &Feed) -> (char, Option<&Vec<InputValue>>, u64) {
    match feed {
        Feed::Exact(v) => ('E', Some(v), 20),
        Feed::Padded(v) => ('P', Some(v), 2),
        Feed::Random(0) => ('P', None, 1),
        Feed::Random(_) => ('R', None, 1),
        Feed::Mutate(v, _) => ('M', Some(v), 1),
    }
}

/// Runs one build with many feeds in one process: the harness forks a child per feed
/// before `main` (no exec and no dynamic loading per run). Per feed, the goals reached.
fn observe_batch(
    dir: &std::path::Path,
    b: &ObserveBuild,
    feeds: &[Feed],
    k0: usize,
    lp64: bool,
) -> Vec<Vec<Hit>> {
    let mut spec = String::new();
    let mut errs = Vec::new();
    let mut total_ms = 0u64;
    // the files of a batch are reused by the next one (thousands of files are slow to remove)
    let _ = k0;
    for (j, feed) in feeds.iter().enumerate() {
        let k = j;
        let errp = dir.join(format!("err{k}.txt"));
        let (mode, given, limit) = feed_mode(feed);
        let inp = match given {
            Some(v) => {
                let p = dir.join(format!("in{k}.txt"));
                let t: String = v.iter().map(|x| format!("{:x}\n", x.raw())).collect();
                if std::fs::write(&p, t).is_err() {
                    return vec![vec![]; feeds.len()];
                }
                p.display().to_string()
            }
            None => "-".to_string(),
        };
        let seed = match feed {
            Feed::Random(s) | Feed::Mutate(_, s) => *s,
            _ => 1,
        };
        let _ = writeln!(
            spec,
            "{mode} {seed} {inp} {} {}",
            errp.display(),
            limit * 1000
        );
        total_ms += limit * 1000 + 50;
        errs.push(errp);
    }
    let sp = dir.join("batch.txt");
    if std::fs::write(&sp, spec).is_err() {
        return vec![vec![]; feeds.len()];
    }
    let child = Command::new(&b.exe)
        .env("ICPIC3_BATCH", &sp)
        .env("UBSAN_OPTIONS", "print_stacktrace=0:halt_on_error=0")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    if let Ok(mut child) = child {
        let start = Instant::now();
        let mut nap = Duration::from_micros(200);
        loop {
            match child.try_wait() {
                Ok(Some(_)) | Err(_) => break,
                Ok(None) => {
                    if start.elapsed() > Duration::from_millis(total_ms + 5000) {
                        let _ = child.kill();
                        let _ = child.wait();
                        break;
                    }
                    std::thread::sleep(nap);
                    nap = (nap * 2).min(Duration::from_millis(5));
                }
            }
        }
    }
    feeds
        .iter()
        .zip(&errs)
        .map(|(f, e)| parse_run(b, f, e, lp64))
        .collect()
}

/// The goals one run reached, from its standard error (see [`observe_harness`]).
fn parse_run(b: &ObserveBuild, feed: &Feed, errp: &std::path::Path, lp64: bool) -> Vec<Hit> {
    let (mode, given, _) = feed_mode(feed);
    let err = std::fs::read(errp).unwrap_or_default();
    let err = String::from_utf8_lossy(&err);
    let ngiven = given.map_or(0, |v| v.len());
    let mut inputs: Vec<InputValue> = Vec::new();
    let mut hits: Vec<Hit> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |hits: &mut Vec<Hit>, gi: usize, how: Observed, inputs: &[InputValue]| {
        if seen.insert(gi) {
            hits.push(Hit {
                goal: gi,
                feed: feed.clone(),
                inputs: inputs.to_vec(),
                padded: inputs.len() > ngiven && mode == 'P',
                how,
            });
        }
    };
    for l in err.lines() {
        if let Some(r) = l.strip_prefix("I ") {
            let mut it = r.split(' ');
            let (Some(n), Some(x)) = (it.next(), it.next()) else {
                continue;
            };
            let (Some(t), Ok(raw)) = (
                logged_ty(n, lp64, b.unsigned_char),
                u64::from_str_radix(x, 16),
            ) else {
                continue;
            };
            inputs.push(logged_value(t, raw));
        } else if let Some(r) = l.strip_prefix("G ") {
            if let Ok(gi) = r.trim().parse::<usize>() {
                push(&mut hits, gi, Observed::Marker, &inputs);
            }
        } else if let Some(r) = l.strip_prefix("U ") {
            if let Ok(gi) = r.trim().parse::<usize>() {
                push(&mut hits, gi, Observed::ExactCheck, &inputs);
            }
        } else if let Some((loc, msg)) = l.split_once(": runtime error: ") {
            // FILE:LINE:COL
            let mut parts = loc.rsplitn(3, ':');
            let (Some(col), Some(line), Some(file)) = (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let (Ok(col), Ok(line)) = (col.parse::<usize>(), line.parse::<usize>()) else {
                continue;
            };
            let Some(kind) = sanitizer_kind(msg) else {
                continue;
            };
            let key = (file.to_string(), line, col);
            let how = Observed::Sanitizer(msg.trim().to_string());
            // the innermost goal of that kind whose span covers the reported operator; two
            // different goals with the same innermost span: ambiguous, not counted
            let covering = b.ub_at.get(&key).map_or(&[][..], |c| &c[..]);
            if covering.iter().any(|c| c.1 == kind) {
                let inner = innermost(covering, kind);
                if let Some(g) = inner.into_iter().find(|&g| sig_matches(msg, &b.sigs[g])) {
                    push(&mut hits, g, how, &inputs);
                }
                continue;
            }
            // reported elsewhere in a statement (gcc puts some checks at the declared name
            // or the `=`): the one goal of that kind whose innermost statement is the
            // innermost one there (several: ambiguous, not counted)
            let stmt = b.ub_stmt.get(&key).map_or(&[][..], |c| &c[..]);
            let inner = innermost(stmt, kind);
            if let Some(g) = inner.into_iter().find(|&g| sig_matches(msg, &b.sigs[g])) {
                push(&mut hits, g, how, &inputs);
            }
        }
    }
    hits
}

/// Runs the program once per feed with every goal of `goals` observed: branch goals (and
/// error calls) by marker calls in a build with the replay's usual flags, undefined-behaviour
/// goals in a second build with gcc's UndefinedBehaviorSanitizer (signed overflow, shifts,
/// integer division by zero, array bounds; its report must point at the goal's operator)
/// and an exact range check around each float → integer conversion's operand. Per feed, the
/// goals reached (each with the inputs read before it), in the order reached. The runs stop
/// early (fewer results than feeds) once every goal was reached or after `budget`.
///
/// The feeds come from `more`: called first with no hits, and again whenever its feeds ran
/// out, with the hits of goals first reached since its last call (to mutate their inputs);
/// no feeds: done. Each feed run is returned with its hits.
pub fn observe_with(
    text: &str,
    cfg: &Cfg,
    goals: &[usize],
    lp64: bool,
    budget: Option<Duration>,
    mut more: impl FnMut(&[Hit]) -> Vec<Feed>,
) -> Result<Vec<(Feed, Vec<Hit>)>, String> {
    let mflags = model_flags(lp64, cfg)?;
    let (ub, br): (Vec<usize>, Vec<usize>) =
        (0..goals.len()).partition(|&gi| is_ub_instrument(cfg, goals[gi]));
    let dir = tmpdir();
    if std::fs::create_dir_all(&dir).is_err() {
        return Err("cannot create a temporary directory".into());
    }
    let dict = constants(text);
    if std::env::var_os("ICPIC3_DEBUG_CONCRETE").is_some() {
        eprintln!("dictionary: {dict:?}");
    }
    let harness = observe_harness(cfg, goals.len(), &dict);
    let tc = Instant::now();
    let mut builds = Vec::new();
    let mut failure = None;
    for (which, sanitize) in [(&br, false), (&ub, true)] {
        if which.is_empty() {
            continue;
        }
        match observe_build(&dir, text, cfg, goals, which, sanitize, &harness, &mflags) {
            Ok(b) => builds.push(b),
            Err(e) => failure = Some(e),
        }
    }
    if builds.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
        return Err(failure.unwrap_or_else(|| "nothing to observe".into()));
    }
    if std::env::var_os("ICPIC3_DEBUG_CONCRETE").is_some() {
        eprintln!("builds: {:.3} s", tc.elapsed().as_secs_f64());
    }
    let start = Instant::now();
    let mut reached = vec![false; goals.len()];
    let mut out = Vec::new();
    let mut queue: std::collections::VecDeque<Feed> = more(&[]).into();
    let mut fresh: Vec<Hit> = Vec::new();
    let mut k = 0;
    loop {
        if queue.is_empty() {
            // the feeds ran out: ask for more, given the goals first reached since
            queue.extend(more(&fresh));
            fresh.clear();
            if queue.is_empty() {
                break;
            }
        }
        // stop early once every goal was reached or the time budget is spent
        if reached.iter().all(|&r| r)
            || budget.is_some_and(|b| start.elapsed() > b)
            || ic3::engine::stop_requested()
        {
            break;
        }
        // one run, or a batch of runs in one forking process
        let batch: Vec<Feed> = if queue.len() == 1 {
            queue.drain(..1).collect()
        } else {
            queue.drain(..queue.len().min(BATCH)).collect()
        };
        let mut per_feed: Vec<Vec<Hit>> = vec![Vec::new(); batch.len()];
        for b in &builds {
            if batch.len() == 1 {
                per_feed[0].extend(observe_run(&dir, b, &batch[0], k, lp64));
            } else {
                for (j, hs) in observe_batch(&dir, b, &batch, k, lp64)
                    .into_iter()
                    .enumerate()
                {
                    per_feed[j].extend(hs);
                }
            }
        }
        k += batch.len();
        for (feed, hits) in batch.into_iter().zip(per_feed) {
            for h in &hits {
                if let Some(r) = reached.get_mut(h.goal) {
                    if !*r {
                        fresh.push(h.clone());
                    }
                    *r = true;
                }
            }
            out.push((feed, hits));
        }
    }
    if std::env::var_os("ICPIC3_KEEP_REPLAY").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(out)
}

/// [`observe_with`] for a fixed list of feeds: per feed, the goals reached.
pub fn observe(
    text: &str,
    cfg: &Cfg,
    goals: &[usize],
    feeds: &[Feed],
    lp64: bool,
    budget: Option<Duration>,
) -> Result<Vec<Vec<Hit>>, String> {
    let mut first = true;
    let runs = observe_with(text, cfg, goals, lp64, budget, |_| {
        if std::mem::take(&mut first) {
            feeds.to_vec()
        } else {
            vec![]
        }
    })?;
    Ok(runs.into_iter().map(|r| r.1).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::cfg::{GoalKind, INT};
    use crate::c::DataModel;

    fn program(text: &str) -> Option<(crate::c::CFile, Cfg)> {
        if Command::new("gcc").arg("--version").output().is_err() {
            return None;
        }
        let dir = tmpdir();
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("t.c");
        std::fs::write(&p, text).unwrap();
        let f = crate::c::load(&p, DataModel::Lp64).expect("preprocesses and parses");
        let cfg = crate::c::lower_fn(&f, DataModel::Lp64, "main", true).expect("lowers");
        let _ = std::fs::remove_dir_all(&dir);
        Some((f, cfg))
    }

    const TEXT: &str = "extern int __VERIFIER_nondet_int(void);\n\
        static int f(int x) { int r = 0; if (x > 5) { r = x * 2; } return r; }\n\
        int main(void) { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int();\n\
        return f(a) + f(b); }\n";

    fn goals_at(cfg: &Cfg, kind: GoalKind, line: usize, col: usize) -> Vec<usize> {
        (0..cfg.goals.len())
            .filter(|&g| {
                let x = &cfg.goals[g];
                x.kind == kind && x.pos.line == line && x.pos.col == col
            })
            .collect()
    }

    /// The two copies of the `else` goal of an inlined `if` are one place in the text: the
    /// replay instruments it once (twice gave `else` without `if`).
    #[test]
    fn inlined_else_goal_replays() {
        let Some((f, cfg)) = program(TEXT) else {
            return;
        };
        let els = goals_at(&cfg, GoalKind::Else, 2, 38);
        assert_eq!(els.len(), 2, "{:?}", cfg.goals);
        let ins = [InputValue::Int(INT, 0), InputValue::Int(INT, 9)];
        let r = replay(&f.source.text, &cfg, &els, &ins, true, false);
        assert!(matches!(r, Replay::Confirmed(_)), "{r:?}");
    }

    /// A signed-overflow goal is confirmed only by a run whose sanitizer report is at it.
    #[test]
    fn overflow_confirmed_only_when_observed() {
        let Some((f, cfg)) = program(TEXT) else {
            return;
        };
        let mul = goals_at(&cfg, GoalKind::Overflow, 2, 51);
        assert_eq!(mul.len(), 2, "{:?}", cfg.goals);
        let big = [InputValue::Int(INT, 1 << 30), InputValue::Int(INT, 0)];
        let r = replay(&f.source.text, &cfg, &mul, &big, true, false);
        assert!(matches!(r, Replay::Confirmed(_)), "{r:?}");
        // 2^30 in the second call: the same goal (its other copy)
        let big2 = [InputValue::Int(INT, 0), InputValue::Int(INT, 1 << 30)];
        let r = replay(&f.source.text, &cfg, &mul, &big2, true, false);
        assert!(matches!(r, Replay::Confirmed(_)), "{r:?}");
        // no overflow at x * 2; f(a) + f(b) overflows instead: not this goal
        let other = [InputValue::Int(INT, 1 << 29), InputValue::Int(INT, 1 << 29)];
        let r = replay(&f.source.text, &cfg, &mul, &other, true, false);
        assert!(matches!(r, Replay::NotReached(_)), "{r:?}");
        let add = goals_at(&cfg, GoalKind::Overflow, 4, 8);
        assert_eq!(add.len(), 1, "{:?}", cfg.goals);
        let r = replay(&f.source.text, &cfg, &add, &other, true, false);
        assert!(matches!(r, Replay::Confirmed(_)), "{r:?}");
    }
}
