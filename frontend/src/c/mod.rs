//! The C front end: `icpic3 solve FILE.c` (SV-COMP `unreach-call`) and
//! `icpic3 deadcode FILE.c` (one reachability goal per branch outcome). See
//! `docs/c-frontend.md` for the supported subset and every semantic decision.

pub mod cfg;
pub mod cmd;
pub mod encode;
pub mod env;
pub mod html;
pub mod inputs;
pub mod loop_inv;
pub mod lower;
pub mod mcdc;
pub mod mem;
pub mod parse;
pub mod replay;
pub mod report;
pub mod trace;
pub mod witness;

use crate::hys::{self, Lowered};
use crate::ts_cmd::{self, TsOptions};
use cfg::{Cfg, GoalKind, Ty};
use encode::{Encoded, Selection};
pub use lower::DataModel;
use parse::{CError, Source};
use replay::{InputValue, Replay};
use solver::model::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// A preprocessed, parsed C program: one or several translation units, their preprocessed
/// texts concatenated (see [`lower::Units`]).
pub struct CFile {
    pub source: Source,
    pub unit: lang_c::ast::TranslationUnit,
    pub units: lower::Units,
    /// the input files, in order
    pub paths: Vec<String>,
}

/// Preprocesses and parses `path`.
pub fn load(path: &Path, model: DataModel) -> Result<CFile, CError> {
    let input = inputs::UnitInput {
        path: path.to_path_buf(),
        flags: vec![],
        dir: None,
    };
    load_units(&[input], model, false)
}

/// Preprocesses each unit with its flags and parses the concatenation.
pub fn load_units(
    units: &[inputs::UnitInput],
    model: DataModel,
    undefined_nondet: bool,
) -> Result<CFile, CError> {
    load_units_for(units, model, Abi::default(), undefined_nondet)
}

/// What a `--target` changes besides the data model (all off: x86-64 and i386).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Abi {
    /// plain `char` is unsigned: `cpp -funsigned-char` (so `CHAR_MIN` and
    /// `__CHAR_UNSIGNED__` match), the lowering's `char`, the replay's `-funsigned-char`
    pub unsigned_char: bool,
    /// ARM EABI layout: `double` and 64-bit integers aligned to 8 inside structs (the
    /// replay's `-malign-double`)
    pub arm_eabi: bool,
}

/// [`load_units`] for a target ([`Abi`]: `--target arm32`).
pub fn load_units_for(
    units: &[inputs::UnitInput],
    model: DataModel,
    abi: Abi,
    undefined_nondet: bool,
) -> Result<CFile, CError> {
    let unsigned_char = abi.unsigned_char;
    let mut texts = Vec::new();
    let mut paths = Vec::new();
    for u in units {
        let name = u.path.display().to_string();
        let at_start = |m: String| CError {
            pos: parse::Pos {
                file: name.clone(),
                line: 1,
                col: 1,
            },
            msg: m,
        };
        if !u
            .dir
            .as_deref()
            .unwrap_or(Path::new("."))
            .join(&u.path)
            .is_file()
        {
            return Err(at_start("no such file".into()));
        }
        let flags: Vec<String> = unsigned_char
            .then(|| "-funsigned-char".to_string())
            .into_iter()
            .chain(u.flags.iter().cloned())
            .collect();
        let text = parse::preprocess(&u.path, model == DataModel::Ilp32, &flags, u.dir.as_deref())
            .map_err(|m| {
                let e = cpp_error(&name, &m)
                    .unwrap_or_else(|| at_start(format!("the C preprocessor failed: {m}")));
                target_hint(e, &m, u, model, unsigned_char)
            })?;
        texts.push(text);
        paths.push(name);
    }
    let (text, starts) = parse::concat_units(&texts);
    let source = Source::new(text, paths.first().map_or("", |p| p.as_str()));
    let unit = parse::parse(&source)?;
    Ok(CFile {
        source,
        unit,
        units: lower::Units {
            starts,
            undefined_nondet,
            unsigned_char,
            arm_eabi: abi.arm_eabi,
        },
        paths,
    })
}

/// A `cpp` failure on an `#error` directive: the word-size checks of generated code
/// (Embedded Coder's `<model>_private.h`: `#if ( ULONG_MAX != (0xFFFFFFFFUL) ) || ( LONG_MAX
/// != (0x7FFFFFFFL) )` / `#error Code was generated for compiler with different sized
/// ulong/long...`; TargetLink's and hand-written checks of `CHAR_MIN`, `INT_MAX`...) fail
/// under the wrong data model. The unit is preprocessed again under the other targets; the
/// first that passes is named in the error (`--data-model`/`--target`).
fn target_hint(
    mut e: CError,
    stderr: &str,
    u: &inputs::UnitInput,
    model: DataModel,
    unsigned_char: bool,
) -> CError {
    if !stderr.contains("#error") {
        return e;
    }
    let other = match model {
        DataModel::Lp64 => DataModel::Ilp32,
        DataModel::Ilp32 => DataModel::Lp64,
    };
    let option = |m: DataModel, uc: bool| match (m, uc) {
        (DataModel::Lp64, false) => Some("--data-model lp64 (or --target x86_64)"),
        (DataModel::Ilp32, false) => Some(
            "--data-model ilp32 (or --target i386; --target arm32 where plain `char` is unsigned)",
        ),
        (DataModel::Ilp32, true) => Some("--target arm32"),
        // no preset has a 64-bit `long` and an unsigned plain `char`
        (DataModel::Lp64, true) => None,
    };
    let passes = |m: DataModel, uc: bool| {
        let flags: Vec<String> = uc
            .then(|| "-funsigned-char".to_string())
            .into_iter()
            .chain(u.flags.iter().cloned())
            .collect();
        parse::preprocess(&u.path, m == DataModel::Ilp32, &flags, u.dir.as_deref()).is_ok()
    };
    let long_is = |m: DataModel| match m {
        DataModel::Ilp32 => "`long` and pointers are 32 bits",
        DataModel::Lp64 => "`long` and pointers are 64 bits",
    };
    let char_is = |uc: bool| {
        if uc {
            "plain `char` is unsigned"
        } else {
            "plain `char` is signed"
        }
    };
    // the nearest change first: the data model, the signedness of `char`, both
    let hint = if passes(other, unsigned_char) {
        option(other, unsigned_char).map(|o| format!("{}: run with {o}", long_is(other)))
    } else if passes(model, !unsigned_char) {
        match option(model, !unsigned_char) {
            Some(o) => Some(format!("{}: run with {o}", char_is(!unsigned_char))),
            None if passes(other, !unsigned_char) => option(other, !unsigned_char).map(|o| {
                format!(
                    "{} (a preset with that exists only for 32-bit targets): run with {o}",
                    char_is(!unsigned_char)
                )
            }),
            None => None,
        }
    } else if passes(other, !unsigned_char) {
        option(other, !unsigned_char).map(|o| {
            format!(
                "{} and {}: run with {o}",
                long_is(other),
                char_is(!unsigned_char)
            )
        })
    } else {
        None
    };
    if let Some(h) = hint {
        e.msg = format!(
            "{}; the code was generated for a target where {h} (it preprocesses cleanly there)",
            e.msg
        );
        return e;
    }
    if stderr.contains("different sized") {
        e.msg = format!(
            "{}; this is a word-size check of generated code, and no other data model (--data-model lp64|ilp32, --target x86_64|i386|arm32) preprocesses cleanly either",
            e.msg
        );
    }
    e
}

/// The first `FILE:LINE:COL: [fatal ]error: message` line of `cpp`'s standard error, as an
/// error at that position.
fn cpp_error(unit: &str, stderr: &str) -> Option<CError> {
    stderr.lines().find_map(|l| {
        let (head, msg) = l
            .split_once(": fatal error: ")
            .or_else(|| l.split_once(": error: "))?;
        let mut it = head.rsplitn(3, ':');
        let col = it.next()?.parse().ok()?;
        let line = it.next()?.parse().ok()?;
        let file = it.next()?.to_string();
        Some(CError {
            pos: parse::Pos { file, line, col },
            msg: format!("{msg} (the C preprocessor failed on {unit})"),
        })
    })
}

/// Names of the functions defined in the file, in order (not those a system header defines,
/// such as glibc's `static inline __bswap_16` in `<stdlib.h>`: they are not the program's).
pub fn functions(f: &CFile) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    f.unit
        .0
        .iter()
        .filter_map(|d| match &d.node {
            lang_c::ast::ExternalDeclaration::FunctionDefinition(fd)
                if !in_system_header(&f.source.text, fd.span.start) =>
            {
                lower::declarator_name(&fd.node.declarator.node)
            }
            _ => None,
        })
        .filter(|n| seen.insert(n.clone()))
        .collect()
}

/// Is byte `off` of the preprocessed text in a system header? The last line marker before it
/// (`# LINE "FILE" FLAGS`) carries flag 3 (cpp marks the headers of system directories so).
fn in_system_header(text: &str, off: usize) -> bool {
    let Some(before) = text.get(..off) else {
        return false;
    };
    before
        .lines()
        .rev()
        .find(|l| l.starts_with("# ") && l.contains('"'))
        .and_then(|l| l.rsplit_once('"'))
        .is_some_and(|(_, flags)| flags.split_whitespace().any(|x| x == "3"))
}

/// Lowers function `entry` (never panics: a panic is an internal error).
pub fn lower_fn(
    f: &CFile,
    model: DataModel,
    entry: &str,
    branch_goals: bool,
) -> Result<Cfg, CError> {
    lower_with(f, model, entry, branch_goals, None)
}

/// Lowers `entry` in an environment (`env::plan`): a step function's loop, or the input
/// globals fed before one call.
pub fn lower_with(
    f: &CFile,
    model: DataModel,
    entry: &str,
    branch_goals: bool,
    plan: Option<&lower::EnvPlan>,
) -> Result<Cfg, CError> {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        lower::Lowerer::lower_program(
            &f.source,
            &f.unit,
            &f.units,
            model,
            entry,
            branch_goals,
            plan,
        )
    }));
    match r {
        Ok(x) => x.map(|mut cfg| {
            cfg.entry_end = entry_end(f, entry);
            cfg.unsigned_char = f.units.unsigned_char;
            cfg.arm_eabi = f.units.arm_eabi;
            if cfg.unsigned_char {
                cfg.assumptions.push(
                    "plain `char` is unsigned (--target arm32; the replay is built with gcc -funsigned-char)"
                        .into(),
                );
            }
            cfg
        }),
        Err(_) => Err(f
            .source
            .err(0, "internal error while translating the C program")),
    }
}

/// The end of the entry function's definition in the concatenated text (the replay's
/// trampoline goes there): the one definition of that name, or the one without `static` if
/// several units define it.
fn entry_end(f: &CFile, entry: &str) -> Option<usize> {
    use lang_c::ast::{DeclarationSpecifier, ExternalDeclaration, StorageClassSpecifier};
    let defs: Vec<&lang_c::span::Node<lang_c::ast::FunctionDefinition>> = f
        .unit
        .0
        .iter()
        .filter_map(|d| match &d.node {
            ExternalDeclaration::FunctionDefinition(fd)
                if lower::declarator_name(&fd.node.declarator.node).as_deref() == Some(entry) =>
            {
                Some(fd)
            }
            _ => None,
        })
        .collect();
    let is_static = |fd: &lang_c::span::Node<lang_c::ast::FunctionDefinition>| {
        fd.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c)
                if c.node == StorageClassSpecifier::Static)
        })
    };
    let pick: Vec<_> = if defs.len() > 1 {
        defs.into_iter().filter(|d| !is_static(d)).collect()
    } else {
        defs
    };
    match pick.as_slice() {
        [one] => Some(one.span.end),
        _ => None,
    }
}

/// The answer for one set of goals.
#[derive(Debug)]
pub enum GoalAnswer {
    /// no selected goal is reachable (and no selected UB check fires)
    Unreachable {
        engine: String,
        /// the loop invariants the engine's certificate gives (IC3's; none from BMC or
        /// k-induction)
        loops: loop_inv::Projection,
    },
    /// reached, with the inputs in the order the program reads them, confirmed by replay
    Reached {
        inputs: Vec<(String, InputValue)>,
        /// per input: the position of the call's closing parenthesis
        ret_pos: Vec<parse::Pos>,
        steps: usize,
        /// the goal the replay reached (when known)
        which: Option<usize>,
    },
    /// the engines found undefined behaviour before the goal
    UndefinedBehaviour {
        at: String,
    },
    Unknown {
        why: String,
    },
}

/// Solves one selection of goals of `cfg`: encode, lower, run the engines, extract and
/// replay the inputs.
pub fn solve_goals(
    file: &CFile,
    cfg: &Cfg,
    sel: &Selection,
    replay_goals: &[usize],
    opts: &TsOptions,
    lp64: bool,
) -> GoalAnswer {
    let enc = match encode::encode(cfg, sel) {
        Ok(e) => e,
        Err(why) => return GoalAnswer::Unknown { why },
    };
    solve_encoded(file, cfg, &enc, replay_goals, opts, lp64)
}

fn solve_encoded(
    file: &CFile,
    cfg: &Cfg,
    enc: &Encoded,
    replay_goals: &[usize],
    opts: &TsOptions,
    lp64: bool,
) -> GoalAnswer {
    if std::env::var_os("ICPIC3_DUMP_HYS").is_some() {
        eprintln!("{}", enc.hys());
    }
    let lowered = match hys::lower::lower(&enc.system) {
        Ok(l) => l,
        Err(_) if solver::budget::stopped().is_some() => {
            let stop = solver::budget::stopped().expect("checked");
            return GoalAnswer::Unknown {
                why: stop.text().to_string(),
            };
        }
        Err(d) => {
            return GoalAnswer::Unknown {
                why: format!(
                    "internal error: the generated transition system does not lower: {}",
                    d.message
                ),
            };
        }
    };
    let Lowered::Transition(ts) = &lowered else {
        return GoalAnswer::Unknown {
            why: "internal error: not a transition system".into(),
        };
    };
    let mut answer = ts_cmd::solve_ts(&enc.system, ts, opts);
    let r = &mut answer.result;
    match r.verdict {
        ic3::Verdict::Safe => {
            if let Some(inv) = r.invariant.clone() {
                if let Err(e) = ts_cmd::check_printed_invariant(&enc.hys(), ts, &inv, opts) {
                    return GoalAnswer::Unknown {
                        why: format!("the invariant did not check: {e}"),
                    };
                }
            }
            let loops = match &r.invariant {
                Some(inv) => loop_inv::project(cfg, enc, &inv.cubes),
                None => loop_inv::Projection::default(),
            };
            GoalAnswer::Unreachable {
                engine: r.engine.to_string(),
                loops,
            }
        }
        ic3::Verdict::Unsafe => {
            let Some(trace) = r.trace.clone() else {
                return GoalAnswer::Unknown {
                    why: "UNSAFE without a trace".into(),
                };
            };
            let (pc_i, hit_i, ub_i) = (enc.pc.index(), enc.hit.index(), enc.ub.index());
            let last = trace.last().cloned().unwrap_or_default();
            let is_true = |v: Option<&Value>| matches!(v, Some(Value::Bool(true)));
            if !is_true(last.get(hit_i)) && !is_true(last.get(ub_i)) {
                return GoalAnswer::Unknown {
                    why: "internal error: the trace does not end in a target state".into(),
                };
            }
            // inputs in program order
            let mut inputs = Vec::new();
            let mut ret_pos = Vec::new();
            for step in trace.iter().take(trace.len().saturating_sub(1)) {
                let pc = match step.get(pc_i) {
                    Some(Value::Num(q)) if q.is_integer() => {
                        num_traits::ToPrimitive::to_usize(q.numer()).unwrap_or(usize::MAX)
                    }
                    _ => {
                        return GoalAnswer::Unknown {
                            why: "trace without pc".into(),
                        }
                    }
                };
                let Some(b) = enc.blocks.get(pc) else {
                    return GoalAnswer::Unknown {
                        why: "trace with a bad pc".into(),
                    };
                };
                for s in &b.sites {
                    let (gi, vi) = (s.taken.index(), s.value.index());
                    if !is_true(step.get(gi)) {
                        continue;
                    }
                    let ns = &cfg.nondets[s.site];
                    if !ns.fed {
                        // not an input of the harness (an `extern` variable such as
                        // <math.h>'s `signgam`, a volatile read): the replay runs with the
                        // program's own value and must still reach the goal
                        continue;
                    }
                    let v = match (step.get(vi), ns.ty) {
                        (Some(Value::Fp(bits)), t) if t.is_float() => InputValue::Bits(t, *bits),
                        (Some(Value::Num(q)), t) if q.is_integer() => {
                            let Some(x) = num_traits::ToPrimitive::to_i128(q.numer()) else {
                                return GoalAnswer::Unknown {
                                    why: "input out of range".into(),
                                };
                            };
                            InputValue::Int(t, x)
                        }
                        _ => {
                            return GoalAnswer::Unknown {
                                why: "trace without an input value".into(),
                            }
                        }
                    };
                    inputs.push((format!("{} at {}", ns.what, ns.pos), v));
                    ret_pos.push(ns.ret_pos.clone());
                }
            }
            // undefined behaviour anywhere on the trace (also in the step that reaches the
            // goal): the program's behaviour from there on is not defined by C
            if trace.iter().any(|s| is_true(s.get(ub_i))) {
                return GoalAnswer::UndefinedBehaviour {
                    at: format!("after {} step(s)", trace.len().saturating_sub(1)),
                };
            }
            let vals: Vec<InputValue> = inputs.iter().map(|x| x.1.clone()).collect();
            match replay::replay(&file.source.text, cfg, replay_goals, &vals, lp64, false) {
                Replay::Confirmed(which) => GoalAnswer::Reached {
                    which: which.and_then(|i| replay_goals.get(i).copied()),
                    inputs,
                    ret_pos,
                    steps: trace.len().saturating_sub(1),
                },
                Replay::NotReached(why) => GoalAnswer::Unknown {
                    why: format!("a trace was found but its replay did not confirm it: {why}"),
                },
                Replay::Covered(_) => GoalAnswer::Unknown {
                    why: "internal error: coverage".into(),
                },
                Replay::Unavailable(why) => GoalAnswer::Unknown {
                    why: format!("a trace was found but could not be replayed: {why}"),
                },
            }
        }
        _ => GoalAnswer::Unknown {
            why: r
                .note
                .clone()
                .unwrap_or_else(|| r.verdict.text().to_string()),
        },
    }
}

/// SV-COMP `unreach-call` for `main`: `true`, `false` or `unknown` with an explanation.
pub struct SvcompAnswer {
    pub verdict: &'static str,
    pub detail: String,
    pub inputs: Vec<(String, InputValue)>,
    pub input_ret_pos: Vec<parse::Pos>,
    pub error_pos: Option<parse::Pos>,
    /// functions no input file defines, treated as returning nondeterministic values
    pub undefined_fns: Vec<String>,
    /// the translation's semantic choices a `true` rests on (`Cfg::assumptions`)
    pub assumptions: Vec<String>,
    /// `false` with `--trace`: the assignments of the confirmed run, or why there are none
    pub trace: Option<Result<trace::CTrace, String>>,
    /// `true`: the loops of the program and the invariants the proof gives for them
    /// (correctness witnesses)
    pub loops: Vec<cfg::LoopSite>,
    pub loop_invariants: loop_inv::Projection,
}

pub fn svcomp(path: &Path, model: DataModel, opts: &TsOptions) -> Result<SvcompAnswer, CError> {
    let file = load(path, model)?;
    svcomp_file(&file, model, opts)
}

/// [`svcomp`] of a loaded program (one or several translation units).
pub fn svcomp_file(
    file: &CFile,
    model: DataModel,
    opts: &TsOptions,
) -> Result<SvcompAnswer, CError> {
    svcomp_entry(file, model, opts, "main", None, false)
}

/// `solve --step NAME`: is an error call (or undefined behaviour) reachable in some step of
/// the unit in its environment (see [`env`])?
pub fn svcomp_step(
    file: &CFile,
    model: DataModel,
    opts: &TsOptions,
    env_opts: &env::EnvOptions,
    want_trace: bool,
) -> Result<SvcompAnswer, CError> {
    let Some(step) = env_opts.step.as_deref() else {
        return svcomp_entry(file, model, opts, "main", None, want_trace);
    };
    let (plan, _) = env::plan(file, model, step, env_opts)?;
    svcomp_entry(file, model, opts, step, Some(&plan), want_trace)
}

fn svcomp_entry(
    file: &CFile,
    model: DataModel,
    opts: &TsOptions,
    entry: &str,
    plan: Option<&lower::EnvPlan>,
    want_trace: bool,
) -> Result<SvcompAnswer, CError> {
    let cfg = lower_with(file, model, entry, false, plan)?;
    let undef: Vec<String> = cfg.undefined_fns.iter().map(|f| f.0.clone()).collect();
    let errors: Vec<usize> = (0..cfg.goals.len())
        .filter(|&g| cfg.goals[g].kind == GoalKind::Error)
        .collect();
    let ub: Vec<usize> = (0..cfg.goals.len())
        .filter(|&g| cfg.goals[g].kind.is_ub())
        .collect();
    let unknown = |d: String| SvcompAnswer {
        verdict: "unknown",
        detail: d,
        inputs: vec![],
        input_ret_pos: vec![],
        error_pos: None,
        undefined_fns: undef.clone(),
        assumptions: cfg.assumptions.clone(),
        trace: None,
        loops: vec![],
        loop_invariants: loop_inv::Projection::default(),
    };
    if errors.is_empty() && ub.is_empty() {
        return Ok(SvcompAnswer {
            verdict: "true",
            detail: "no error call in the program".into(),
            inputs: vec![],
            input_ret_pos: vec![],
            error_pos: None,
            undefined_fns: undef.clone(),
            assumptions: cfg.assumptions.clone(),
            trace: None,
            loops: cfg.loops.clone(),
            loop_invariants: loop_inv::Projection::default(),
        });
    }
    let sel = Selection {
        hit: errors.clone(),
        ub,
    };
    let lp64 = model == DataModel::Lp64;
    Ok(match solve_goals(file, &cfg, &sel, &errors, opts, lp64) {
        GoalAnswer::Unreachable { engine, loops } => SvcompAnswer {
            verdict: "true",
            detail: format!("no error call and no undefined behaviour is reachable ({engine})"),
            inputs: vec![],
            input_ret_pos: vec![],
            error_pos: None,
            undefined_fns: undef.clone(),
            assumptions: cfg.assumptions.clone(),
            trace: None,
            loops: cfg.loops.clone(),
            loop_invariants: loops,
        },
        GoalAnswer::Reached { inputs, ret_pos, steps, which } => SvcompAnswer {
            // the confirmed run once more, with every assignment logged
            trace: want_trace.then(|| {
                let vals: Vec<InputValue> = inputs.iter().map(|x| x.1.clone()).collect();
                // `which` is already a goal of `cfg` (the replay's index mapped back)
                trace::trace_run(file, &cfg, &errors, which, &vals, lp64)
            }),
            input_ret_pos: ret_pos,
            verdict: "false",
            detail: match env::test_case(&cfg, &inputs.iter().map(|x| x.1.clone()).collect::<Vec<_>>()) {
                Some(t) => format!("an error call is reached in call {} of `{entry}`; confirmed by replaying the unit and its environment compiled by gcc", t.steps.len()),
                None => format!("an error call is reached after {steps} step(s); confirmed by replaying the C program compiled by gcc"),
            },
            inputs,
            error_pos: which.map(|g| cfg.goals[g].pos.clone()),
            undefined_fns: undef.clone(),
            assumptions: vec![],
            loops: vec![],
            loop_invariants: loop_inv::Projection::default(),
        },
        GoalAnswer::UndefinedBehaviour { at } => unknown(format!("undefined behaviour (signed overflow, division by zero, invalid shift or conversion) is reachable {at}")),
        GoalAnswer::Unknown { why } => unknown(why),
    })
}

/// Status, detail and inputs of one goal.
type GoalLine = (&'static str, String, Vec<(String, InputValue)>);

/// One line of the dead-code report.
pub struct DeadcodeLine {
    pub pos: parse::Pos,
    pub kind: GoalKind,
    pub function: String,
    pub status: &'static str,
    pub detail: String,
    pub inputs: Vec<(String, InputValue)>,
    /// wall-clock seconds spent on this goal's own solver call (0 for a goal answered by the
    /// replay of another goal's inputs)
    pub time_s: f64,
    /// a REACHABLE goal of a step function: its inputs by step
    pub test: Option<env::TestCase>,
    /// `--criterion condition|mcdc`: the condition's text
    pub condition: Option<String>,
    /// `--criterion mcdc`, REACHABLE: the two test cases of the independence pair (label,
    /// inputs)
    pub tests: Vec<(String, Vec<(String, InputValue)>)>,
    /// `deadcode --trace`, REACHABLE: the assignments of the run, or why there are none
    pub trace: Option<Result<trace::CTrace, String>>,
}

/// `deadcode --trace`: the C trace of each REACHABLE goal of `entry` among `lines` (the
/// goal's confirmed inputs run once more with every assignment logged; see [`trace`]). An
/// MC/DC line, whose answer rests on two runs, gets none.
pub fn add_goal_traces(
    file: &CFile,
    model: DataModel,
    entry: &str,
    plan: Option<&lower::EnvPlan>,
    lines: &mut [DeadcodeLine],
) -> Result<(), CError> {
    // the goals as `deadcode_with` lowered them
    let cfg = lower_with(
        file,
        model,
        entry,
        mcdc::current() == mcdc::Criterion::Decision,
        plan,
    )?;
    let lp64 = model == DataModel::Lp64;
    for l in lines
        .iter_mut()
        .filter(|l| l.status == "REACHABLE" && l.tests.is_empty())
    {
        // every copy of the goal (a function inlined at several calls)
        let goals: Vec<usize> = (0..cfg.goals.len())
            .filter(|&g| {
                let x = &cfg.goals[g];
                x.pos == l.pos && x.kind == l.kind && x.function == l.function
            })
            .collect();
        if goals.is_empty() {
            l.trace = Some(Err("internal error: the goal is not in the program".into()));
            continue;
        }
        let vals: Vec<InputValue> = l.inputs.iter().map(|x| x.1.clone()).collect();
        l.trace = Some(trace::trace_run(file, &cfg, &goals, None, &vals, lp64));
    }
    Ok(())
}

/// Shared state of the goal workers of one `deadcode` call.
struct GoalBoard {
    answers: Vec<Option<GoalLine>>,
    /// a worker has taken the goal (its solver call runs or has finished)
    taken: Vec<bool>,
    time_s: Vec<f64>,
    /// the goal's line was handed to [`DeadcodeHooks::decided`]
    told: Vec<bool>,
}

/// Observers of one [`deadcode_with`] call (streaming reports, progress lines); called from
/// the goal workers' threads.
#[derive(Default, Clone, Copy)]
pub struct DeadcodeHooks<'a> {
    /// the number of report lines of the function (before [`merge_file_scope`]) is known;
    /// called once, before any [`DeadcodeHooks::decided`] (with `--criterion condition|mcdc`
    /// only at the end, when the lines are combined from the goals)
    pub started: Option<&'a (dyn Fn(usize) + Sync)>,
    /// a goal's report line is final (called once per line, in the order the answers come)
    pub decided: Option<&'a (dyn Fn(&DeadcodeLine) + Sync)>,
}

/// The detail of a goal left unanswered because the run was interrupted.
pub const NOT_ANALYSED_INTERRUPTED: &str = "not analysed: the run was interrupted (SIGINT/SIGTERM)";

/// `icpic3 deadcode`: every branch outcome, error call and UB check of `entry`. Independent
/// goals are checked by `jobs` worker threads at once (each goal's solver call runs the
/// engine portfolio); the result is in goal (source) order whatever the schedule.
/// The goals of one function, the undefined functions taken as nondet, the assumptions.
pub type DeadcodeResult = (Vec<DeadcodeLine>, Vec<String>, Vec<String>);

pub fn deadcode(
    file: &CFile,
    model: DataModel,
    entry: &str,
    opts: &TsOptions,
    per_goal: Option<Duration>,
    jobs: usize,
    plan: Option<&lower::EnvPlan>,
) -> Result<DeadcodeResult, CError> {
    let hooks = DeadcodeHooks::default();
    deadcode_with(file, model, entry, opts, per_goal, jobs, plan, hooks)
}

/// [`deadcode`] with observers. Once [`ic3::engine::stop_requested`] (SIGINT/SIGTERM), no
/// further goal is started, the running solver calls stop at their next check, and the goals
/// without an answer are UNKNOWN ([`NOT_ANALYSED_INTERRUPTED`]).
#[allow(clippy::too_many_arguments)]
pub fn deadcode_with(
    file: &CFile,
    model: DataModel,
    entry: &str,
    opts: &TsOptions,
    per_goal: Option<Duration>,
    jobs: usize,
    plan: Option<&lower::EnvPlan>,
    hooks: DeadcodeHooks<'_>,
) -> Result<DeadcodeResult, CError> {
    // `--criterion condition|mcdc` replaces the branch goals (see `mcdc`)
    let criterion = mcdc::current();
    let cfg = lower_with(
        file,
        model,
        entry,
        criterion == mcdc::Criterion::Decision,
        plan,
    )?;
    let lp64 = model == DataModel::Lp64;
    let n = cfg.goals.len();
    // a function inlined several times has one goal per call: they are reported as one goal
    // (REACHABLE if some call reaches it, DEAD if none does)
    let key = |g: usize| {
        let x = &cfg.goals[g];
        (x.pos.clone(), x.kind, x.function.clone())
    };
    let mut reps: Vec<usize> = Vec::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for g in 0..n {
        match reps.iter().position(|&r| key(r) == key(g)) {
            Some(i) => members[i].push(g),
            None => {
                reps.push(g);
                members.push(vec![g]);
            }
        }
    }
    let m = reps.len();
    let stopped = ic3::engine::stop_requested;
    let looped = cfg.env.as_ref().is_some_and(|e| e.looped);
    // the report line of goal `gi` with this answer
    let line_of = |gi: usize, a: Option<GoalLine>, time_s: f64| -> DeadcodeLine {
        let (status, detail, inputs) = a.unwrap_or_else(|| {
            let why = if stopped() {
                NOT_ANALYSED_INTERRUPTED
            } else {
                "not analysed"
            };
            ("UNKNOWN", why.into(), vec![])
        });
        let goal = &cfg.goals[reps[gi]];
        let vals: Vec<InputValue> = inputs.iter().map(|x| x.1.clone()).collect();
        let test = (status == "REACHABLE")
            .then(|| env::test_case(&cfg, &vals))
            .flatten();
        DeadcodeLine {
            test,
            pos: goal.pos.clone(),
            kind: goal.kind,
            function: goal.function.clone(),
            status,
            detail,
            inputs,
            time_s,
            condition: None,
            tests: vec![],
            trace: None,
        }
    };
    // streaming: the goals' lines are told as their answers become final (branch goals; the
    // condition and MC/DC lines are combined from several goals at the end). A long test case
    // of a step function may still be shortened: told at the end.
    let stream = hooks
        .decided
        .filter(|_| criterion == mcdc::Criterion::Decision);
    let tell = |b: &mut GoalBoard, gi: usize, out: &mut Vec<DeadcodeLine>| {
        if stream.is_none() || b.told[gi] {
            return;
        }
        let l = line_of(gi, b.answers[gi].clone(), b.time_s[gi]);
        if looped && l.test.as_ref().is_some_and(|t| t.steps.len() > SHORT_STEPS) {
            return;
        }
        b.told[gi] = true;
        out.push(l);
    };
    let told = |lines: Vec<DeadcodeLine>| {
        if let Some(f) = stream {
            for l in &lines {
                f(l);
            }
        }
    };
    if let (Some(f), mcdc::Criterion::Decision) = (hooks.started, criterion) {
        f(m);
    }
    // status per goal; a goal passed by a confirmed run of another goal's inputs is
    // REACHABLE without a solver call of its own
    let board = std::sync::Mutex::new(GoalBoard {
        answers: vec![None; m],
        taken: vec![false; m],
        time_s: vec![0.0; m],
        told: vec![false; m],
    });
    let lock = || board.lock().unwrap_or_else(|e| e.into_inner());
    // concrete runs first: the compiled program on all-zero and pseudo-random inputs, every
    // goal observed; each goal a run reaches is REACHABLE with that run's inputs (the run
    // is the confirmation), only the others go to the engines
    // (skipped, with its gcc builds, when every goal lies outside the functions: file-scope
    // goals only, which another analysed function's run covers as well)
    let own_goals = cfg.goals.iter().any(|g| !g.function.is_empty());
    if m > 0 && own_goals && !stopped() && std::env::var_os("ICPIC3_NO_CONCRETE_RUNS").is_none() {
        let all: Vec<usize> = (0..n).collect();
        let rep_of: Vec<usize> = {
            let mut r = vec![0; n];
            for (i, ms) in members.iter().enumerate() {
                for &g in ms {
                    r[g] = i;
                }
            }
            r
        };
        // first pseudo-random runs; then, round by round, mutations of the inputs of the
        // runs that reached a goal first (a goal deep in a mode machine is often a small
        // change away from one reached already)
        // rounds: a batch of pseudo-random runs (the next batch only while the previous round
        // reached some goal first, at most CONCRETE_RUNS in all) plus mutations of the inputs
        // of each run that reached a goal first in the previous round
        let mut round = 0;
        let mut random_done = 0u64;
        let mut random_on = true;
        let mut next_seed = 1u64 << 40;
        let more = |fresh: &[replay::Hit]| -> Vec<replay::Feed> {
            round += 1;
            let mut feeds = Vec::new();
            if stopped() {
                return feeds;
            }
            if round > 3 && fresh.is_empty() {
                random_on = false;
            }
            if random_on && random_done < CONCRETE_RUNS {
                let n = CONCRETE_BATCH.min(CONCRETE_RUNS - random_done);
                feeds.extend((random_done..random_done + n).map(replay::Feed::Random));
                random_done += n;
            }
            if round > MUTATION_ROUNDS {
                return feeds;
            }
            // the longest input prefixes first (the deepest runs), each once
            let mut bases: Vec<&Vec<InputValue>> = fresh
                .iter()
                .map(|h| &h.inputs)
                .filter(|v| !v.is_empty())
                .collect();
            bases.sort_by_key(|v| std::cmp::Reverse(v.len()));
            bases.dedup();
            let mut mutations = 0;
            for v in bases {
                for _ in 0..MUTATIONS_PER_HIT {
                    feeds.push(replay::Feed::Mutate(v.clone(), next_seed));
                    next_seed += 1;
                }
                mutations += MUTATIONS_PER_HIT;
                if mutations >= MUTATIONS_PER_ROUND {
                    break;
                }
            }
            feeds
        };
        let runs = replay::observe_with(
            &file.source.text,
            &cfg,
            &all,
            lp64,
            Some(CONCRETE_BUDGET),
            more,
        );
        if let (Err(e), true) = (&runs, std::env::var_os("ICPIC3_DEBUG_CONCRETE").is_some()) {
            eprintln!("concrete runs unavailable: {e}");
        }
        if let Ok(res) = runs {
            if std::env::var_os("ICPIC3_DEBUG_CONCRETE").is_some() {
                let mut_runs = res
                    .iter()
                    .filter(|r| matches!(r.0, replay::Feed::Mutate(..)))
                    .count();
                eprintln!(
                    "concrete runs: {} ({} mutations), {} goal hits",
                    res.len(),
                    mut_runs,
                    res.iter().map(|r| r.1.len()).sum::<usize>()
                );
            }
            let mut b = lock();
            for (feed, hits) in res {
                for h in hits {
                    let gi = rep_of[h.goal];
                    if b.answers[gi].is_some() {
                        continue;
                    }
                    let run = match &feed {
                        replay::Feed::Random(0) => "a concrete run with every input 0".to_string(),
                        replay::Feed::Random(s) => {
                            format!("a concrete run with pseudo-random inputs (seed {s})")
                        }
                        replay::Feed::Mutate(_, s) => format!(
                            "a concrete run with the inputs of another run, mutated (seed {s})"
                        ),
                        _ => "a concrete run".to_string(),
                    };
                    let detail = observed_detail(&h.how, &run);
                    let inputs = concrete_inputs(&h.inputs);
                    b.answers[gi] = Some(("REACHABLE", detail, inputs));
                }
            }
            let mut lines = Vec::new();
            for gi in 0..m {
                if b.answers[gi].is_some() {
                    tell(&mut b, gi, &mut lines);
                }
            }
            drop(b);
            told(lines);
        }
    }
    let worker = || loop {
        // the first goal (in source order) that is neither answered nor taken
        let gi = {
            let mut b = lock();
            if stopped() {
                return;
            }
            let Some(gi) = (0..m).find(|&i| !b.taken[i] && b.answers[i].is_none()) else {
                return;
            };
            b.taken[gi] = true;
            gi
        };
        let t0 = Instant::now();
        let sel = Selection {
            hit: members[gi].clone(),
            ub: vec![],
        };
        let mut o = TsOptions {
            linear_auto: false,
            log: opts.log.clone(),
            ic3: opts.ic3.clone(),
            solver: opts.solver.clone(),
            ..*opts
        };
        if let Some(t) = per_goal {
            o.timeout = Some(o.timeout.map_or(t, |x| x.min(t)));
        }
        let a = solve_goals(file, &cfg, &sel, &members[gi], &o, lp64);
        let line: GoalLine = match a {
            GoalAnswer::Unreachable { engine, .. } => {
                ("DEAD", format!("proved unreachable ({engine})"), vec![])
            }
            GoalAnswer::Reached { inputs, steps, .. } => {
                // the same inputs may reach other open goals: run them once with every open
                // goal observed (also those another worker is still solving)
                let open: Vec<usize> = {
                    let b = lock();
                    (0..m)
                        .filter(|&x| x != gi && b.answers[x].is_none())
                        .collect()
                };
                if !open.is_empty() {
                    let vals: Vec<InputValue> = inputs.iter().map(|x| x.1.clone()).collect();
                    // every member of each open goal (an inlined function's copies)
                    let goals: Vec<(usize, usize)> = open
                        .iter()
                        .flat_map(|&x| members[x].iter().map(move |&g| (x, g)))
                        .collect();
                    let gs: Vec<usize> = goals.iter().map(|x| x.1).collect();
                    // the trace's inputs padded with zeros, then mutations of them and
                    // of the runs that reach further goals
                    let mut round = 0;
                    let mut seed = 1u64 << 32;
                    let more = |fresh: &[replay::Hit]| -> Vec<replay::Feed> {
                        round += 1;
                        let base: Vec<Vec<InputValue>> = if round == 1 {
                            vec![vals.clone()]
                        } else if round <= MUTATION_ROUNDS {
                            fresh.iter().map(|h| h.inputs.clone()).collect()
                        } else {
                            vec![]
                        };
                        let mut feeds = Vec::new();
                        if round == 1 {
                            feeds.push(replay::Feed::Padded(vals.clone()));
                        }
                        for v in base.into_iter().filter(|v| !v.is_empty()) {
                            for _ in 0..MUTATIONS_PER_HIT {
                                seed += 1;
                                feeds.push(replay::Feed::Mutate(v.clone(), seed));
                            }
                            if feeds.len() >= MUTATIONS_PER_ROUND / 4 {
                                break;
                            }
                        }
                        feeds
                    };
                    if let Ok(runs) = replay::observe_with(
                        &file.source.text,
                        &cfg,
                        &gs,
                        lp64,
                        Some(Duration::from_secs(5)),
                        more,
                    ) {
                        let mut b = lock();
                        let mut lines = Vec::new();
                        for (feed, h) in runs
                            .into_iter()
                            .flat_map(|(f, hs)| hs.into_iter().map(move |h| (f.clone(), h)))
                        {
                            let Some(&(other, _)) = goals.get(h.goal) else {
                                continue;
                            };
                            if b.answers[other].is_none() {
                                let at = &cfg.goals[reps[gi]].pos;
                                let run = match feed {
                                    replay::Feed::Mutate(_, s) => format!(
                                        "a concrete run with the inputs found for {at}, mutated (seed {s})"
                                    ),
                                    _ if h.padded => format!(
                                        "the inputs found for {at}, then 0 for every further input"
                                    ),
                                    _ => format!("the inputs found for {at}"),
                                };
                                let detail = observed_detail(&h.how, &run);
                                let ins = if h.padded || matches!(feed, replay::Feed::Mutate(..)) {
                                    concrete_inputs(&h.inputs)
                                } else {
                                    inputs.clone()
                                };
                                b.answers[other] = Some(("REACHABLE", detail, ins));
                                // a goal another worker is solving is told when it finishes
                                if !b.taken[other] {
                                    tell(&mut b, other, &mut lines);
                                }
                            }
                        }
                        drop(b);
                        told(lines);
                    }
                }
                ("REACHABLE", reached_detail(&cfg, steps, &inputs), inputs)
            }
            GoalAnswer::UndefinedBehaviour { at } => {
                ("UNKNOWN", format!("undefined behaviour {at}"), vec![])
            }
            GoalAnswer::Unknown { why } => ("UNKNOWN", why, vec![]),
        };
        let mut b = lock();
        b.time_s[gi] = t0.elapsed().as_secs_f64();
        match &b.answers[gi] {
            None => b.answers[gi] = Some(line),
            // another worker's confirmed run passed this goal while it was being solved:
            // that concrete run stands (a DEAD here would contradict it)
            Some(prev) if prev.0 == "REACHABLE" && line.0 == "DEAD" => {
                let detail = format!("internal inconsistency: proved unreachable, but {}", prev.1);
                b.answers[gi] = Some(("UNKNOWN", detail, vec![]));
            }
            Some(_) => {}
        }
        let mut lines = Vec::new();
        tell(&mut b, gi, &mut lines);
        drop(b);
        told(lines);
    };
    let workers = jobs.clamp(1, m.max(1));
    if workers == 1 {
        worker();
    } else {
        std::thread::scope(|s| {
            for _ in 0..workers {
                s.spawn(worker);
            }
        });
    }
    let mut b = board.into_inner().unwrap_or_else(|e| e.into_inner());
    if !stopped() {
        shorten_test_cases(file, &cfg, &members, &mut b.answers, opts, per_goal, lp64);
    }
    let told_before = std::mem::take(&mut b.told);
    let lines: Vec<DeadcodeLine> = b
        .answers
        .into_iter()
        .zip(b.time_s)
        .enumerate()
        .map(|(gi, (a, time_s))| line_of(gi, a, time_s))
        .collect();
    let lines = if criterion == mcdc::Criterion::Decision {
        // the lines not told yet: unanswered, or with a shortened test case
        if let Some(f) = stream {
            for (l, _) in lines.iter().zip(&told_before).filter(|(_, &t)| !t) {
                f(l);
            }
        }
        lines
    } else {
        let lines = mcdc::finish(&cfg, lines);
        if let Some(f) = hooks.started {
            f(lines.len());
        }
        if let Some(f) = hooks.decided {
            for l in &lines {
                f(l);
            }
        }
        lines
    };
    Ok((
        lines,
        cfg.undefined_fns.iter().map(|f| f.0.clone()).collect(),
        cfg.assumptions.clone(),
    ))
}

/// The detail of a goal the engines reached: the calls of a step function, else the steps
/// of the translated program.
fn reached_detail(cfg: &Cfg, steps: usize, inputs: &[(String, InputValue)]) -> String {
    let vals: Vec<InputValue> = inputs.iter().map(|x| x.1.clone()).collect();
    match (env::test_case(cfg, &vals), cfg.env.as_ref()) {
        (Some(t), Some(e)) => format!(
            "in call {} of `{}`, confirmed by gcc replay",
            t.steps.len(),
            e.step
        ),
        _ => format!("after {steps} step(s), confirmed by gcc replay"),
    }
}

/// Test cases longer than this many steps (from a concrete run) are shortened by BMC.
const SHORT_STEPS: usize = 10;

/// Time for shortening test cases, per goal and in all.
const SHORTEN_PER_GOAL: Duration = Duration::from_secs(3);
const SHORTEN_BUDGET: Duration = Duration::from_secs(30);

/// A step function's goal that a concrete run reached after many steps gets the shortest
/// test case BMC finds within a few seconds (confirmed by the gcc replay like any other);
/// the concrete run's stands when BMC finds none.
fn shorten_test_cases(
    file: &CFile,
    cfg: &Cfg,
    members: &[Vec<usize>],
    answers: &mut [Option<GoalLine>],
    opts: &TsOptions,
    per_goal: Option<Duration>,
    lp64: bool,
) {
    if !cfg.env.as_ref().is_some_and(|e| e.looped) {
        return;
    }
    let start = Instant::now();
    for (gi, a) in answers.iter_mut().enumerate() {
        let Some(("REACHABLE", _, inputs)) = a.as_ref().map(|x| (x.0, &x.1, &x.2)) else {
            continue;
        };
        let vals: Vec<InputValue> = inputs.iter().map(|x| x.1.clone()).collect();
        let Some(old) = env::test_case(cfg, &vals) else {
            continue;
        };
        if old.steps.len() <= SHORT_STEPS {
            continue;
        }
        let left = SHORTEN_BUDGET.saturating_sub(start.elapsed());
        if left.is_zero() {
            break;
        }
        let t = SHORTEN_PER_GOAL
            .min(left)
            .min(per_goal.unwrap_or(SHORTEN_PER_GOAL));
        let o = TsOptions {
            linear_auto: false,
            engine: ts_cmd::Engine::Bmc,
            timeout: Some(t),
            log: opts.log.clone(),
            ic3: opts.ic3.clone(),
            solver: opts.solver.clone(),
            ..*opts
        };
        let sel = Selection {
            hit: members[gi].clone(),
            ub: vec![],
        };
        if let GoalAnswer::Reached { inputs, steps, .. } =
            solve_goals(file, cfg, &sel, &members[gi], &o, lp64)
        {
            let vals: Vec<InputValue> = inputs.iter().map(|x| x.1.clone()).collect();
            if env::test_case(cfg, &vals).is_some_and(|n| n.steps.len() < old.steps.len()) {
                let d = reached_detail(cfg, steps, &inputs);
                *a = Some((
                    "REACHABLE",
                    format!(
                        "{d} (BMC's test case, shorter than the concrete run's of {} calls)",
                        old.steps.len()
                    ),
                    inputs,
                ));
            }
        }
    }
}

/// The function name reported for goals outside every function (global initializers, the
/// constant expressions of file-scope declarations).
pub const FILE_SCOPE: &str = "<file scope>";

/// Several analysed functions' reports concatenated: a goal outside every function (a global
/// initializer's, a file-scope declaration's) is in each function's program and was answered
/// once per function; it is reported once, as function [`FILE_SCOPE`], at its first place.
/// That code runs the same way before every entry function, so one analysis's answer holds
/// for all: REACHABLE if some analysis confirmed a run that reaches it, else DEAD if some
/// proved it unreachable (REACHABLE and DEAD together would be an internal inconsistency:
/// UNKNOWN), else UNKNOWN. Goals inside functions are kept per analysed function.
pub fn merge_file_scope(lines: Vec<DeadcodeLine>) -> Vec<DeadcodeLine> {
    let mut out: Vec<DeadcodeLine> = Vec::new();
    // per merged goal: its index in `out` and the statuses seen
    // per merged goal: its key, its index in `out`, whether two answers contradicted
    let mut seen: Vec<((parse::Pos, GoalKind), usize, bool)> = Vec::new();
    for mut l in lines {
        if !l.function.is_empty() {
            out.push(l);
            continue;
        }
        l.function = FILE_SCOPE.to_string();
        let key = (l.pos.clone(), l.kind);
        let Some(k) = seen.iter().position(|x| x.0 == key) else {
            seen.push((key, out.len(), false));
            out.push(l);
            continue;
        };
        let (_, i, clash) = &mut seen[k];
        let prev = &mut out[*i];
        if *clash {
            continue;
        }
        match (prev.status, l.status) {
            ("REACHABLE", "DEAD") | ("DEAD", "REACHABLE") => {
                let (r, d) = if prev.status == "REACHABLE" {
                    (prev.detail.clone(), l.detail.clone())
                } else {
                    (l.detail.clone(), prev.detail.clone())
                };
                *clash = true;
                prev.status = "UNKNOWN";
                prev.detail = format!(
                    "internal inconsistency: {d} in one analysed function's program, but reached {r} in another's"
                );
                prev.inputs.clear();
            }
            ("UNKNOWN", "REACHABLE" | "DEAD") => *prev = l,
            _ => {}
        }
    }
    out
}

/// Concrete runs of the `deadcode` prepass (seed 0: every input 0; then pseudo-random).
const CONCRETE_RUNS: u64 = 1024;

/// Pseudo-random runs per round.
const CONCRETE_BATCH: u64 = 128;

/// Rounds of mutation runs after the pseudo-random ones, mutations per newly reached goal and
/// at most per round.
const MUTATION_ROUNDS: usize = 8;
const MUTATIONS_PER_HIT: usize = 16;
const MUTATIONS_PER_ROUND: usize = 512;

/// Time budget of the concrete runs (compilation excluded).
const CONCRETE_BUDGET: Duration = Duration::from_secs(10);

/// The detail of a goal reached by a concrete run.
fn observed_detail(how: &replay::Observed, run: &str) -> String {
    match how {
        replay::Observed::Marker => format!("by {run} (confirmed by gcc replay)"),
        replay::Observed::Sanitizer(msg) => {
            format!("by {run}: gcc's -fsanitize build reported `{msg}` at this operation")
        }
        replay::Observed::ExactCheck => format!(
            "by {run}: the converted value was out of range (exact check in the compiled program)"
        ),
    }
}

/// Inputs of a concrete run, named by their position and type.
fn concrete_inputs(vals: &[InputValue]) -> Vec<(String, InputValue)> {
    vals.iter()
        .enumerate()
        .map(|(i, v)| {
            let t = match v {
                InputValue::Bits(t, _) | InputValue::Int(t, _) => *t,
            };
            (format!("#{} ({})", i + 1, ty_name(t)), v.clone())
        })
        .collect()
}

/// The C type name of a value's type (for reports).
pub fn ty_name(t: Ty) -> String {
    t.c_name()
}
