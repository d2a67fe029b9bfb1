//! The `icpic3` command line (language doc Part C): subcommands, output, exit codes.
//!
//! Exit codes: 10 UNSAFE/SATISFIABLE, 20 SAFE/UNSATISFIABLE, 0 CANDIDATE SOLUTION/UNKNOWN and
//! successful non-solving commands, 1 bad input (`FILE:LINE:COL: message` on stderr), 2 bad
//! usage. No input may make the program panic: `main` turns a panic into an internal error
//! (exit 3) as a last resort, and the fuzz harness makes sure it never happens.

use crate::diag::{Diagnostic, SourceMap};
use crate::hys::{self, Loaded, Lowered};
use crate::lang::{self, Lang};
use crate::report::{self, InputError};
use crate::solve_cmd;
use crate::ts_cmd;
use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;
use solver::formula::FormulaStats;
use solver::SolverConfig;
use std::cell::{Cell, RefCell};
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub const EXIT_OK: i32 = 0;
pub const EXIT_BAD_INPUT: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_INTERNAL: i32 = 3;

#[derive(Parser, Debug)]
#[command(
    name = "icpic3",
    version = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("ICPIC3_GIT_COMMIT"), ")"),
    about = "ICP-based SMT solving and IC3 model checking over reals, integers and IEEE floats"
)]
pub struct Cli {
    /// Colour diagnostics: `auto` when standard error is a terminal and NO_COLOR is not set,
    /// `always`, or `never`.
    #[arg(long, value_enum, default_value = "auto", global = true)]
    pub color: ColorArg,
    #[command(subcommand)]
    pub command: Command,
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// colours when standard error is a terminal and NO_COLOR is unset or empty
    Auto,
    /// colours whatever standard error is (also with NO_COLOR)
    Always,
    /// no colours
    Never,
}

/// Standard error of the process is a terminal: set by the binary (`main.rs`) before the
/// command runs; false for in-process callers, whose error stream is whatever they pass.
static STDERR_IS_TERMINAL: AtomicBool = AtomicBool::new(false);

/// Tells [`run`] whether the process's standard error is a terminal (`--color auto`).
pub fn set_stderr_terminal(yes: bool) {
    STDERR_IS_TERMINAL.store(yes, Ordering::Relaxed);
}

/// Whether diagnostics are coloured: `--color always`/`never`, or for `auto` a terminal on
/// standard error, NO_COLOR unset or empty (no-color.org) and TERM not `dumb`.
fn use_color(choice: ColorArg) -> bool {
    match choice {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            STDERR_IS_TERMINAL.load(Ordering::Relaxed)
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        }
    }
}

/// `--engine`: `portfolio` for both forms; `bmc`, `kind`, `ic3` for transition systems;
/// `icp`, `bitblast` for EXPR problems (and SMT-LIB scripts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// every engine that applies, in parallel; the first answer wins
    Portfolio,
    /// bounded model checking (transition systems)
    Bmc,
    /// k-induction with simple-path constraints (transition systems)
    Kind,
    /// k-induction whose induction path is constrained by relational lemmas: rel-inv's
    /// guesses pruned to those inductive relative to not TARGET (transition systems; the
    /// SAFE answer carries a re-checked invariant with a suffix)
    KindRel,
    /// IC3 in the configuration of --config (transition systems)
    Ic3,
    /// interval constraint propagation with splitting only (EXPR problems, SMT-LIB)
    Icp,
    /// bit-blasting to SAT (EXPR problems and SMT-LIB over floats and machine integers;
    /// BMC for such transition systems)
    Bitblast,
    /// invariants guessed from the system's constants, pruned to an inductive core and
    /// proved (transition systems; SAFE or UNKNOWN only)
    FloatInv,
    /// like float-inv, over the system's linear terms too (`x - y <= 0`) and per valuation
    /// of its Boolean state (transition systems; SAFE or UNKNOWN only)
    RelInv,
}

/// `smt --engine`: the engines of each `check-sat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SmtEngineArg {
    /// interval propagation and bit-blasting in parallel; the first answer wins
    Portfolio,
    /// interval constraint propagation with splitting only
    Icp,
    /// bit-blasting to SAT only (floats, machine integers, Booleans)
    Bitblast,
}

impl SmtEngineArg {
    fn engine(self) -> solve_cmd::ExprEngine {
        match self {
            SmtEngineArg::Portfolio => solve_cmd::ExprEngine::Portfolio,
            SmtEngineArg::Icp => solve_cmd::ExprEngine::Icp,
            SmtEngineArg::Bitblast => solve_cmd::ExprEngine::Bitblast,
        }
    }
}

/// `--frames`: how IC3 keeps its frames in solvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FramesArg {
    /// one solver for all frames, each frame's clauses under an activation literal
    Single,
    /// one solver per frame
    PerFrame,
}

/// `--linear`: how the solver reasons about linear constraints over integers and reals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LinearArg {
    /// interval constraint propagation only
    Icp,
    /// ICP plus an exact simplex that refutes infeasible linear bound combinations
    Simplex,
}

impl LinearArg {
    fn reasoning(self) -> solver::LinearReasoning {
        match self {
            LinearArg::Icp => solver::LinearReasoning::Icp,
            LinearArg::Simplex => solver::LinearReasoning::Simplex,
        }
    }
}

/// `--data-model` for C files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DataModelArg {
    /// `int` 32 bits, `long` and pointers 64 bits (x86-64 Linux)
    Lp64,
    /// `int`, `long` and pointers 32 bits (i386, 32-bit ARM)
    Ilp32,
}

impl DataModelArg {
    fn model(self) -> crate::c::DataModel {
        match self {
            DataModelArg::Lp64 => crate::c::DataModel::Lp64,
            DataModelArg::Ilp32 => crate::c::DataModel::Ilp32,
        }
    }
}

/// `--target` for C files: a data model and the signedness of plain `char`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TargetArg {
    /// LP64, plain `char` signed (the default; as `--data-model lp64`)
    #[value(name = "x86_64", alias = "x86-64")]
    X86_64,
    /// ILP32, plain `char` signed (as `--data-model ilp32`)
    I386,
    /// ILP32, plain `char` unsigned, `double` and 64-bit integers aligned to 8 in structs
    /// (ARM EABI); replayed with `gcc -m32 -funsigned-char -malign-double`
    Arm32,
}

/// `--undefined-functions`: what a call of a function no input file defines means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum UndefinedArg {
    /// an error naming the function and the call's position
    Error,
    /// the call returns a nondeterministic value of the prototype's return type
    Nondet,
}

/// The C input options shared by `solve` and `deadcode`.
#[derive(clap::Args, Debug, Clone)]
pub struct CInputArgs {
    /// C: add DIR to the include path of every file (`cpp -I`).
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dir: Vec<String>,
    /// C: define a macro for every file (`cpp -D`).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// C: undefine a macro for every file (`cpp -U`).
    #[arg(short = 'U', value_name = "NAME")]
    pub undefine: Vec<String>,
    /// C: include FILE at the start of every file (`cpp -include`; `-include FILE` works too).
    #[arg(long = "include", value_name = "FILE")]
    pub include: Vec<String>,
    /// C: a compile_commands.json (CMake, Bear): each file's -I/-D/-U/-include/-std flags come
    /// from it; without files on the command line, every C file it lists is an input.
    #[arg(long, value_name = "FILE")]
    pub compile_commands: Option<PathBuf>,
    /// C: a call of a function no input file defines is an error, or returns a
    /// nondeterministic value of its return type (`nondet`).
    #[arg(long, value_enum, default_value = "error")]
    pub undefined_functions: UndefinedArg,
    /// C: the target: `x86_64` (LP64, signed `char`), `i386` (ILP32, signed `char`) or
    /// `arm32` (ILP32, unsigned `char`, `double` and 64-bit integers aligned to 8 in structs,
    /// as on ARM EABI; replayed with gcc -m32 -funsigned-char -malign-double). Instead of
    /// --data-model.
    #[arg(long, value_enum, conflicts_with = "data_model")]
    pub target: Option<TargetArg>,
}

impl CInputArgs {
    fn options(&self, files: &[PathBuf]) -> crate::c::inputs::InputOptions {
        crate::c::inputs::InputOptions {
            files: files.to_vec(),
            include_dirs: self.include_dir.clone(),
            defines: self.define.clone(),
            undefines: self.undefine.clone(),
            include_files: self.include.clone(),
            compile_commands: self.compile_commands.clone(),
            undefined_nondet: self.undefined_functions == UndefinedArg::Nondet,
            unsigned_char: self.target == Some(TargetArg::Arm32),
            arm_eabi: self.target == Some(TargetArg::Arm32),
        }
    }

    /// The data model: `--target`'s, else `--data-model`'s.
    fn model(&self, data_model: DataModelArg) -> crate::c::DataModel {
        match self.target {
            Some(TargetArg::X86_64) => crate::c::DataModel::Lp64,
            Some(TargetArg::I386 | TargetArg::Arm32) => crate::c::DataModel::Ilp32,
            None => data_model.model(),
        }
    }
}

/// `deadcode`: the environment of the analysed code and where test cases go.
#[derive(clap::Args, Debug, Clone)]
pub struct EnvArgs {
    /// C: analyse step function NAME in its environment: C initializers, then the init
    /// function once, then each step fresh inputs and one call of NAME; a goal is reachable
    /// if some step reaches it (instead of --function).
    #[arg(long, value_name = "NAME", conflicts_with = "function")]
    pub step: Option<String>,
    /// C: the init function called once before the first step (with --step).
    #[arg(long, value_name = "NAME", requires = "step")]
    pub init: Option<String>,
    /// C: exactly these globals (or fields: `rtU.Speed`) are inputs, fed before every step
    /// (default: what the step function reads and the unit never writes).
    #[arg(long, value_name = "NAME,...", value_delimiter = ',')]
    pub inputs: Option<Vec<String>>,
    /// C: calibration parameters: globals that get one arbitrary value for the whole run.
    #[arg(long, value_name = "NAME,...", value_delimiter = ',')]
    pub params: Vec<String>,
    /// C: write one CSV test case per REACHABLE goal into DIR (a row per step).
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,
}

impl EnvArgs {
    fn options(&self) -> crate::c::env::EnvOptions {
        crate::c::env::EnvOptions {
            step: self.step.clone(),
            init: self.init.clone(),
            inputs: self.inputs.clone(),
            params: self.params.clone(),
        }
    }
}

/// The default of `--max-input-mb`.
pub const DEFAULT_MAX_INPUT_MB: u64 = 256;

/// `--memory-mb` and `--max-input-mb` of `check` and `dump`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct InputLimits {
    /// Memory limit in MB, from the first byte read (an error beyond it; 0 = none).
    #[arg(long, default_value_t = 4096)]
    pub memory_mb: u64,
    /// The largest input file read, in MB (a larger file is an error).
    #[arg(long, default_value_t = DEFAULT_MAX_INPUT_MB)]
    pub max_input_mb: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// readable text (solve: the verdict on the first line)
    Text,
    /// one JSON document (solve: docs/solve-json.schema.json)
    Json,
}

/// `deadcode --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeadcodeFormat {
    /// one line per goal, then a summary
    Text,
    /// one JSON document at the end
    Json,
    /// one JSON object per line: each goal as soon as it is decided, then a summary line
    Jsonl,
    /// SARIF 2.1.0 (code scanning, editors)
    Sarif,
    /// an lcov tracefile of the branch goals (genhtml, coverage viewers)
    Lcov,
}

/// `deadcode --criterion`: the coverage criterion whose goals are reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CriterionArg {
    /// every branch outcome (then/else, loop body, case, default)
    Decision,
    /// every condition of every decision true and false (short-circuit evaluation)
    Condition,
    /// per condition an independence pair (unique cause, short-circuit don't-cares)
    Mcdc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DumpFormat {
    /// an EXPR problem as an SMT-LIB 2 script (Z3, cvc5, Bitwuzla)
    Smt2,
    /// a transition system in VMT form
    Vmt,
    /// the bit-blasted CNF of an EXPR problem (floats, machine integers, Booleans)
    Dimacs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse, check and lower an input without solving it; print a summary. .hys and VMT:
    /// variables by kind, constraints, primitive constraints, warnings; SMT-LIB: every
    /// command run and every check-sat lowered (not solved); C: preprocessed, parsed, and
    /// `main` (else every function) translated.
    Check {
        /// The input (.hys, .smt2, .vmt, .c; other names by --lang or by content); `-` reads
        /// standard input (not C).
        file: PathBuf,
        /// The input language, when the file name does not say it (default: by the
        /// extension, else by the content).
        #[arg(long, value_enum)]
        lang: Option<Lang>,
        /// The summary as text or as one JSON object.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Do not print warnings.
        #[arg(short = 'n', long = "no-warnings")]
        no_warnings: bool,
        /// C files: the data model (`long` is 64 bits in LP64, 32 bits in ILP32).
        #[arg(long, value_enum, default_value = "lp64")]
        data_model: DataModelArg,
        #[command(flatten)]
        limits: InputLimits,
        #[command(flatten)]
        c_input: CInputArgs,
    },
    /// Decide a problem (.hys, SMT-LIB, VMT) or C programs (SV-COMP's unreach-call:
    /// true/false/unknown). EXPR form: SATISFIABLE (with an exactly validated model),
    /// UNSATISFIABLE, CANDIDATE SOLUTION (boxes) or UNKNOWN. Transition form: UNSAFE (with an
    /// exactly replayed trace), SAFE, CANDIDATE SOLUTION (boxes per step) or UNKNOWN. The
    /// first line of standard output is the verdict; exit code 10 / 20 / 0 / 0.
    Solve {
        /// The problem (.hys, .smt2, .vmt) or the C translation units (.c, .i; several
        /// allowed); other names by --lang or by content; `-` reads standard input (an
        /// SMT-LIB script is answered command by command as it arrives).
        files: Vec<PathBuf>,
        /// The input language, when the file name does not say it (default: by the
        /// extension, else by the content).
        #[arg(long, value_enum)]
        lang: Option<Lang>,
        /// Engine for transition systems (BMC, k-induction, IC3, or all in parallel).
        #[arg(long, value_enum, default_value = "portfolio")]
        engine: EngineArg,
        /// IC3 configuration (also the portfolio's IC3 member) in the paper's notation:
        /// `indK` (suffix length K) with any of `+abort`, `+ld`, `+ldonce`, `+ig`, `+j`,
        /// `+ctg`, `+lf`, `+exctg`, `+dynamic`, `+cache`, `+rel` (relational lemmas over
        /// linear terms such as `a + b <= 500`), `+farkas` (with `+rel`: a restart with terms
        /// read from the simplex's conflicts), e.g. `ind2+abort`; or `exctg`, `dynamic`
        /// (also followed by options: `dynamic+rel`). Default `dynamic`
        /// (= ind2+abort+ig+lf+dynamic, the best measured: benchmarks/RESULTS.md).
        #[arg(long, default_value = "dynamic")]
        config: String,
        /// IC3 frames: one solver with activation literals, or one solver per frame.
        #[arg(long, value_enum, default_value = "single")]
        frames: FramesArg,
        /// Re-check a SAFE answer's printed invariant: parse the clauses back and check
        /// initiation, consecution and safety in fresh solvers.
        #[arg(long)]
        check_certificate: bool,
        /// First BMC depth whose target is checked.
        #[arg(long, default_value_t = 0)]
        start_depth: usize,
        /// Last depth (BMC) or largest k (k-induction); UNKNOWN beyond it.
        #[arg(long)]
        max_depth: Option<usize>,
        /// Memory limit in MB for every phase and input kind, from the first byte read
        /// (UNKNOWN beyond it; 0 = none).
        #[arg(long, default_value_t = 4096)]
        memory_mb: u64,
        /// The largest input file read, in MB (a larger file is an error).
        #[arg(long, default_value_t = DEFAULT_MAX_INPUT_MB)]
        max_input_mb: u64,
        /// Minimal splitting width for real variables [default: 0.01, made narrower step
        /// by step after a candidate; a given width stays fixed].
        #[arg(long)]
        msw: Option<f64>,
        /// Minimal relative progress of an ICP contraction [default: 0.01, made smaller
        /// with the width after a candidate unless --msw is given].
        #[arg(long)]
        mpr: Option<f64>,
        /// Linear reasoning over integers and reals: ICP alone, or ICP and an exact simplex.
        /// Default: `simplex` for single problems (SMT-LIB, .hys EXPR) and for transition
        /// systems with an unbounded integer or real state variable (VMT); `icp` for systems
        /// whose numbers all have ranges and for C, where the simplex's checks over long
        /// unrollings still cost more than they save (benchmarks/RESULTS.md, issue #22).
        #[arg(long, value_enum)]
        linear: Option<LinearArg>,
        /// Wall-clock limit in seconds (UNKNOWN when it runs out).
        #[arg(long)]
        timeout: Option<f64>,
        /// C: is an error call reachable in some step of step function NAME in its
        /// environment (C initializers, --init once, then inputs and one call per step)?
        #[arg(long, value_name = "NAME")]
        step: Option<String>,
        /// C: the init function called once before the first step (with --step).
        #[arg(long, value_name = "NAME", requires = "step")]
        init: Option<String>,
        /// C, with --step: exactly these globals (or fields) are inputs.
        #[arg(
            long,
            value_name = "NAME,...",
            value_delimiter = ',',
            requires = "step"
        )]
        inputs: Option<Vec<String>>,
        /// C, with --step: calibration parameters (one value per run).
        #[arg(
            long,
            value_name = "NAME,...",
            value_delimiter = ',',
            requires = "step"
        )]
        params: Vec<String>,
        /// Print the model or the boxes (iSAT3 style); twice: also statistics and, for
        /// transition systems, one progress line per depth on standard error.
        #[arg(short, long, action = clap::ArgAction::Count)]
        verbose: u8,
        /// The answer as text (the verdict on the first line) or as one JSON document.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// C files: the data model (`long` is 64 bits in LP64, 32 bits in ILP32).
        #[arg(long, value_enum, default_value = "lp64")]
        data_model: DataModelArg,
        /// C files: write an SV-COMP witness (format 2.0, YAML): a violation witness for `false`, a
        /// correctness witness (loop invariants) for `true`.
        #[arg(long)]
        witness: Option<PathBuf>,
        /// C files, `false`: also show every assignment of the confirmed gcc run
        /// (`file:line: lvalue = value`, per step with --step; JSON: `c_trace`).
        #[arg(long)]
        trace: bool,
        #[command(flatten)]
        c_input: CInputArgs,
    },
    /// Dead-code detection in C: every branch outcome (then/else, case, loop body entry),
    /// error call and undefined-behaviour check of a function is a reachability goal; prints
    /// `file:line:col  DEAD | REACHABLE | UNKNOWN` per goal (REACHABLE with the inputs, each
    /// confirmed by running the gcc-compiled program) and a summary.
    Deadcode {
        /// The C translation units (.c, .i).
        files: Vec<PathBuf>,
        /// The function to analyse (default: `main`, or every function if there is none).
        #[arg(long)]
        function: Option<String>,
        /// The data model (`long` is 64 bits in LP64, 32 bits in ILP32).
        #[arg(long, value_enum, default_value = "lp64")]
        data_model: DataModelArg,
        /// Wall-clock limit per goal in seconds.
        #[arg(long, default_value_t = 10.0)]
        timeout: f64,
        /// Goals checked at the same time (default: the number of cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Memory limit in MB for the whole run (goals beyond it are UNKNOWN; 0 = none).
        #[arg(long, default_value_t = 4096)]
        memory_mb: u64,
        /// The report's format.
        #[arg(long, value_enum, default_value = "text")]
        format: DeadcodeFormat,
        /// Also write a readable HTML report to DIR/index.html (the source with every goal
        /// coloured, coverage per function, the test cases).
        #[arg(long, value_name = "DIR")]
        html: Option<PathBuf>,
        /// Exit with code 10 when some goal is DEAD (for CI).
        #[arg(long)]
        fail_on_dead: bool,
        /// Also show each REACHABLE goal's confirmed gcc run as C assignments
        /// (`file:line: lvalue = value`, per step with --step; text and --format json).
        #[arg(long)]
        trace: bool,
        /// The goals: branch outcomes (`decision`), each condition true and false
        /// (`condition`) or an MC/DC independence pair per condition (`mcdc`).
        #[arg(long, value_enum, default_value = "decision")]
        criterion: CriterionArg,
        #[command(flatten)]
        c_input: CInputArgs,
        #[command(flatten)]
        env: EnvArgs,
    },
    /// Print the lowered problem: variables, definitions (one per operation), Tseitin clauses
    /// and root literals; for a transition system each of INIT, TRANS and TARGET.
    Dump {
        /// The problem (.hys, or a VMT transition system); other names by --lang or by
        /// content; `-` reads standard input.
        file: PathBuf,
        /// The input language, when the file name does not say it (default: by the
        /// extension, else by the content).
        #[arg(long, value_enum)]
        lang: Option<Lang>,
        /// Print the syntax tree back as .hys text instead of the lowered problem.
        #[arg(long)]
        source: bool,
        /// Print the lowered problem for other solvers: `smt2` (an EXPR file as an SMT-LIB
        /// script) or `vmt` (a transition system in VMT form).
        #[arg(long, value_enum)]
        format: Option<DumpFormat>,
        #[command(flatten)]
        limits: InputLimits,
    },
    /// Run an SMT-LIB 2.6 script, from standard input unless a file is named, answering each
    /// command as soon as it is complete (flushed): the way portfolio frameworks drive a
    /// solver over a pipe. The same as `solve --lang smt2` (language doc E.5).
    Smt {
        /// The script; `-` or none: standard input.
        file: Option<PathBuf>,
        /// The engines of each check-sat.
        #[arg(long, value_enum, default_value = "portfolio")]
        engine: SmtEngineArg,
        /// Wall-clock limit in seconds for the whole script (each check-sat gets what is
        /// left; `unknown` when it runs out).
        #[arg(long)]
        timeout: Option<f64>,
        /// Memory limit in MB, from the first byte read (`unknown` beyond it; 0 = none).
        #[arg(long, default_value_t = 4096)]
        memory_mb: u64,
        /// The largest script file read, in MB (a larger file is an error).
        #[arg(long, default_value_t = DEFAULT_MAX_INPUT_MB)]
        max_input_mb: u64,
        /// Minimal splitting width for real variables [default: 0.01, made narrower step
        /// by step after a candidate; a given width stays fixed].
        #[arg(long)]
        msw: Option<f64>,
        /// Minimal relative progress of an ICP contraction [default: 0.01, made smaller
        /// with the width after a candidate unless --msw is given].
        #[arg(long)]
        mpr: Option<f64>,
        /// Linear reasoning over integers and reals: ICP alone, or ICP and an exact simplex
        /// (the default, as for `solve` on SMT-LIB).
        #[arg(long, value_enum)]
        linear: Option<LinearArg>,
        /// The answers as SMT-LIB text, or (for a file) one JSON document at the end.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
}

/// Runs the command line; returns the process exit code.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    // gcc's `-include FILE` (one dash) is `--include FILE` here
    let args: Vec<std::ffi::OsString> = args
        .into_iter()
        .map(|a| {
            let a: std::ffi::OsString = a.into();
            if a == "-include" {
                "--include".into()
            } else {
                a
            }
        })
        .collect();
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let text = e.render().to_string();
            if e.use_stderr() {
                let _ = write!(err, "{text}");
            } else {
                let _ = write!(out, "{text}");
            }
            return code;
        }
    };
    crate::diag::set_color(use_color(cli.color));
    set_limits(&cli.command);
    PRELOADED.with(|p| p.borrow_mut().take());
    match cli.command {
        Command::Check {
            file,
            lang,
            format,
            no_warnings,
            data_model,
            limits: _,
            c_input,
        } => {
            let c = CheckC {
                input: &c_input,
                data_model,
            };
            cmd_check(&file, lang, format, no_warnings, &c, out, err)
        }
        Command::Dump {
            file,
            lang,
            source,
            format,
            limits: _,
        } => cmd_dump(&file, lang, source, format, out, err),
        Command::Smt {
            file,
            engine,
            timeout,
            memory_mb,
            max_input_mb: _,
            msw,
            mpr,
            linear,
            format,
        } => {
            let refine = msw.is_none();
            let config = SolverConfig {
                msw: msw.unwrap_or(SolverConfig::default().msw),
                mpr: mpr.unwrap_or(SolverConfig::default().mpr),
                linear: linear.unwrap_or(LinearArg::Simplex).reasoning(),
                ..SolverConfig::default()
            };
            if let Err(e) = config.validate() {
                let _ = writeln!(err, "icpic3: {e}");
                return EXIT_USAGE;
            }
            let Ok(timeout) = timeout_arg(timeout, err) else {
                return EXIT_USAGE;
            };
            let opts = solve_cmd::Options {
                config: config.clone(),
                timeout,
                engine: engine.engine(),
                refine,
            };
            // transition systems are not read by `smt`; the options are those of `solve`
            let ts_opts = ts_cmd::TsOptions {
                linear_auto: false,
                engine: ts_cmd::Engine::Portfolio,
                solver: config,
                start_depth: 0,
                max_depth: None,
                timeout,
                memory_mb: (memory_mb > 0).then_some(memory_mb),
                log: ic3::engine::quiet(),
                ic3: ic3::Ic3Config::preset("dynamic").unwrap_or_default(),
                check_certificate: false,
            };
            let path = file.unwrap_or_else(|| PathBuf::from("-"));
            let input = match resolve_input(&path, Some(Lang::Smt2), true, err) {
                Ok(i) => i,
                Err(ResolveError::Usage) => return EXIT_USAGE,
                Err(ResolveError::Input(e)) => {
                    return input_failure(&path, Some(Lang::Smt2), e, format, out, err)
                }
            };
            cmd_solve(&input, &opts, &ts_opts, 0, format, out, err)
        }
        Command::Deadcode {
            files,
            function,
            data_model,
            timeout,
            jobs,
            memory_mb,
            format,
            html,
            fail_on_dead,
            trace,
            criterion,
            c_input,
            env,
        } => {
            if files.is_empty() && c_input.compile_commands.is_none() {
                let _ = writeln!(
                    err,
                    "icpic3: deadcode needs C files or --compile-commands FILE"
                );
                return EXIT_USAGE;
            }
            if let Some(f) = files.iter().find(|f| !is_c_input(f, None)) {
                let _ = writeln!(
                    err,
                    "icpic3: {}: deadcode takes C files (.c, .i, or C by content)",
                    f.display()
                );
                return EXIT_USAGE;
            }
            if jobs == Some(0) {
                let _ = writeln!(err, "icpic3: --jobs must be at least 1");
                return EXIT_USAGE;
            }
            let jobs =
                jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            if timeout <= 0.0 || timeout.is_nan() {
                let _ = writeln!(
                    err,
                    "icpic3: --timeout must be a positive number of seconds"
                );
                return EXIT_USAGE;
            }
            let ts_opts = ts_cmd::TsOptions {
                linear_auto: false,
                engine: ts_cmd::Engine::Portfolio,
                solver: SolverConfig::default(),
                start_depth: 0,
                max_depth: None,
                timeout: None,
                memory_mb: (memory_mb > 0).then_some(memory_mb),
                log: ic3::engine::quiet(),
                // the measured default, as for `solve` (benchmarks/RESULTS.md)
                ic3: ic3::Ic3Config::preset("dynamic").unwrap_or_default(),
                check_certificate: false,
            };
            let criterion = match criterion {
                CriterionArg::Decision => crate::c::mcdc::Criterion::Decision,
                CriterionArg::Condition => crate::c::mcdc::Criterion::Condition,
                CriterionArg::Mcdc => crate::c::mcdc::Criterion::Mcdc,
            };
            // the criterion is a thread-local setting of the C front end (see `c::mcdc`)
            crate::c::mcdc::with_criterion(criterion, || {
                crate::c::cmd::deadcode(
                    &c_input.options(&files),
                    function.as_deref(),
                    c_input.model(data_model),
                    &ts_opts,
                    saturating_secs(timeout),
                    jobs,
                    &crate::c::report::ReportOptions {
                        format: match format {
                            DeadcodeFormat::Text => crate::c::report::ReportFormat::Text,
                            DeadcodeFormat::Json => crate::c::report::ReportFormat::Json,
                            DeadcodeFormat::Jsonl => crate::c::report::ReportFormat::Jsonl,
                            DeadcodeFormat::Sarif => crate::c::report::ReportFormat::Sarif,
                            DeadcodeFormat::Lcov => crate::c::report::ReportFormat::Lcov,
                        },
                        html,
                        fail_on_dead,
                        trace,
                    },
                    &env.options(),
                    env.tests.as_deref(),
                    out,
                    err,
                )
            })
        }
        Command::Solve {
            files,
            lang,
            engine,
            config: ic3_config,
            frames,
            check_certificate,
            start_depth,
            max_depth,
            memory_mb,
            max_input_mb: _,
            msw,
            mpr,
            linear,
            timeout,
            step,
            init,
            inputs,
            params,
            verbose,
            format,
            data_model,
            witness,
            trace,
            c_input,
        } => {
            let env_opts = crate::c::env::EnvOptions {
                step,
                init,
                inputs,
                params,
            };
            let mut is_c = (!files.is_empty() && files.iter().all(|f| is_c_input(f, lang)))
                || (files.is_empty() && c_input.compile_commands.is_some());
            if !is_c && files.len() != 1 {
                let _ = writeln!(
                    err,
                    "icpic3: solve takes one .hys, .smt2 or .vmt file, `-` (standard input), or C files (.c, .i) and their flags"
                );
                return EXIT_USAGE;
            }
            // a width the user gives stays fixed (no adaptive refinement, Part C)
            let refine = msw.is_none();
            let config = SolverConfig {
                msw: msw.unwrap_or(SolverConfig::default().msw),
                mpr: mpr.unwrap_or(SolverConfig::default().mpr),
                linear: linear.unwrap_or(LinearArg::Simplex).reasoning(),
                ..SolverConfig::default()
            };
            if let Err(e) = config.validate() {
                let _ = writeln!(err, "icpic3: {e}");
                return EXIT_USAGE;
            }
            let Ok(timeout) = timeout_arg(timeout, err) else {
                return EXIT_USAGE;
            };
            let expr_engine = match engine {
                EngineArg::Icp => solve_cmd::ExprEngine::Icp,
                EngineArg::Bitblast => solve_cmd::ExprEngine::Bitblast,
                _ => solve_cmd::ExprEngine::Portfolio,
            };
            let engine = match engine {
                EngineArg::Portfolio | EngineArg::Icp => ts_cmd::Engine::Portfolio,
                EngineArg::Bitblast => ts_cmd::Engine::BmcBitblast,
                EngineArg::Bmc => ts_cmd::Engine::Bmc,
                EngineArg::Kind => ts_cmd::Engine::Kind,
                EngineArg::Ic3 => ts_cmd::Engine::Ic3,
                EngineArg::FloatInv => ts_cmd::Engine::FloatInv,
                EngineArg::RelInv => ts_cmd::Engine::RelInv,
                EngineArg::KindRel => ts_cmd::Engine::KindRel,
            };
            let mut ic3_cfg = match ic3::Ic3Config::preset(&ic3_config) {
                Ok(c) => c,
                Err(e) => {
                    let _ = writeln!(err, "icpic3: --config: {e}");
                    return EXIT_USAGE;
                }
            };
            ic3_cfg.frames = match frames {
                FramesArg::Single => ic3::FrameMode::Single,
                FramesArg::PerFrame => ic3::FrameMode::PerFrame,
            };
            // Progress lines go to the process's standard error as they happen (one line per
            // BMC depth, as iSAT3 prints them), from whichever engine thread reaches a depth;
            // the binary keeps standard error unlocked between writes (main.rs), so no thread
            // waits for another. The verdict stays the first line of standard output.
            let log: ic3::Log = if verbose > 1 {
                let t0 = std::time::Instant::now();
                Arc::new(move |line: String| {
                    eprintln!("[{:8.3} s] {line}", t0.elapsed().as_secs_f64());
                })
            } else {
                ic3::engine::quiet()
            };
            let ts_opts = ts_cmd::TsOptions {
                linear_auto: linear.is_none(),
                engine,
                solver: SolverConfig {
                    linear: linear.unwrap_or(LinearArg::Icp).reasoning(),
                    ..config.clone()
                },
                start_depth,
                max_depth,
                timeout,
                memory_mb: (memory_mb > 0).then_some(memory_mb),
                log,
                ic3: ic3_cfg,
                check_certificate,
            };
            if let Err(e) = ts_opts.configs() {
                let _ = writeln!(err, "icpic3: {e}");
                return EXIT_USAGE;
            }
            // one input that is not C by its name or --lang: read it (or the start of standard
            // input) to know its language; C by content goes to the C front end
            let mut input = None;
            if !is_c {
                match resolve_input(&files[0], lang, true, err) {
                    Ok(Input::File(_, Lang::C)) => is_c = true,
                    Ok(i) => input = Some(i),
                    Err(ResolveError::Usage) => return EXIT_USAGE,
                    Err(ResolveError::Input(e)) => {
                        return input_failure(&files[0], lang, e, format, out, err)
                    }
                }
            }
            if is_c {
                return crate::c::cmd::solve(
                    &c_input.options(&files),
                    c_input.model(data_model),
                    &ts_opts,
                    witness.as_deref(),
                    format == Format::Json,
                    trace,
                    &env_opts,
                    out,
                    err,
                );
            }
            if env_opts.step.is_some() {
                let _ = writeln!(err, "icpic3: --step is for C files");
                return EXIT_USAGE;
            }
            if trace {
                let _ = writeln!(err, "icpic3: --trace is for C files");
                return EXIT_USAGE;
            }
            let Some(input) = input else {
                return EXIT_INTERNAL;
            };
            let opts = solve_cmd::Options {
                config,
                timeout,
                engine: expr_engine,
                refine,
            };
            cmd_solve(&input, &opts, &ts_opts, verbose, format, out, err)
        }
    }
}

/// `--timeout`: a positive number of seconds, or a usage error on `err`.
fn timeout_arg(timeout: Option<f64>, err: &mut dyn Write) -> Result<Option<Duration>, ()> {
    match timeout {
        None => Ok(None),
        Some(t) if t > 0.0 && !t.is_nan() => Ok(Some(saturating_secs(t))),
        Some(t) => {
            let _ = writeln!(
                err,
                "icpic3: --timeout must be a positive number of seconds, not {t}"
            );
            Err(())
        }
    }
}

/// Is `path` a C input: by `--lang`, else by its name, else (a regular file with a name that
/// does not say) by its first token. A file that cannot be read is not C here; reading it
/// again reports why.
fn is_c_input(path: &Path, lang: Option<Lang>) -> bool {
    if let Some(l) = lang.or_else(|| Lang::by_extension(path)) {
        return l == Lang::C;
    }
    if path.as_os_str() == "-" || !path.is_file() {
        return false;
    }
    // the first 64 KiB decide (the first token; VMT's annotations do not matter here)
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(1 << 16).read_to_end(&mut head));
    read.is_ok() && Lang::by_content(&String::from_utf8_lossy(&head)) == Lang::C
}

/// A command's input, its language decided.
enum Input {
    /// a file in a language; standard input read to its end is the file `<stdin>` (its text
    /// is in [`PRELOADED`])
    File(PathBuf, Lang),
    /// an SMT-LIB script on standard input, answered command by command; what was read to
    /// see its first token comes first
    SmtStream(Vec<u8>),
}

/// Why the input could not be resolved.
enum ResolveError {
    /// reported on standard error; exit 2
    Usage,
    /// reported on standard error; bad input (exit 1) or, when a limit stopped the reading,
    /// UNKNOWN
    Input(InputError),
}

thread_local! {
    /// An input read to decide its language: a pipe or standard input cannot be read twice,
    /// so [`read_input`] takes the text from here.
    static PRELOADED: RefCell<Option<(PathBuf, String)>> = const { RefCell::new(None) };
}

/// The name standard input has in messages once it has been read to its end.
const STDIN_NAME: &str = "<stdin>";

/// Decides the language of `path` (language doc D.6): `--lang`, else the extension, else the
/// content. `-` is standard input: with `stream_smt` (solve, smt) an SMT-LIB script on it is
/// answered as it arrives; anything else on it is read to its end first (C is not read from
/// standard input: the preprocessor needs a file).
fn resolve_input(
    path: &Path,
    lang: Option<Lang>,
    stream_smt: bool,
    err: &mut dyn Write,
) -> Result<Input, ResolveError> {
    if path.as_os_str() == "-" {
        return resolve_stdin(lang, stream_smt, err);
    }
    if let Some(l) = lang.or_else(|| Lang::by_extension(path)) {
        return Ok(Input::File(path.to_path_buf(), l));
    }
    let text = read_input(path, err).map_err(ResolveError::Input)?;
    let l = Lang::by_content(&text);
    if l == Lang::C && !path.is_file() {
        // a pipe is read once: the preprocessor would find it empty
        let _ = writeln!(
            err,
            "icpic3: {}: C input is read from regular files, not from a pipe",
            path.display()
        );
        return Err(ResolveError::Usage);
    }
    set_oom_style(l);
    if l != Lang::C {
        // C is read by the preprocessor from the file itself
        PRELOADED.with(|p| *p.borrow_mut() = Some((path.to_path_buf(), text)));
    }
    Ok(Input::File(path.to_path_buf(), l))
}

fn resolve_stdin(
    lang: Option<Lang>,
    stream_smt: bool,
    err: &mut dyn Write,
) -> Result<Input, ResolveError> {
    let c_usage = |err: &mut dyn Write| {
        let _ = writeln!(
            err,
            "icpic3: C input is read from files (the preprocessor needs one), not from standard input"
        );
        ResolveError::Usage
    };
    if lang == Some(Lang::C) {
        return Err(c_usage(err));
    }
    if lang == Some(Lang::Smt2) && stream_smt {
        return Ok(Input::SmtStream(Vec::new()));
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    // the lines up to the first token: `(` without --lang is an SMT-LIB script to answer as
    // it arrives (a VMT system on standard input needs --lang vmt)
    let mut head = Vec::new();
    loop {
        let start = lang::first_token(&String::from_utf8_lossy(&head));
        if start != lang::Start::Undecided {
            if start == lang::Start::Paren && lang.is_none() && stream_smt {
                return Ok(Input::SmtStream(head));
            }
            break;
        }
        match input.read_until(b'\n', &mut head) {
            // only blanks and comments: an empty script for solve and smt
            Ok(0) if lang.is_none() && stream_smt => return Ok(Input::SmtStream(head)),
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                let _ = writeln!(err, "{STDIN_NAME}: cannot read: {e}");
                return Err(ResolveError::Input(InputError::unplaced(
                    STDIN_NAME,
                    format!("cannot read: {e}"),
                )));
            }
        }
    }
    let max = MAX_INPUT.with(Cell::get);
    let rest = (max + 1).saturating_sub(head.len() as u64);
    if let Err(e) = input.take(rest).read_to_end(&mut head) {
        let _ = writeln!(err, "{STDIN_NAME}: cannot read: {e}");
        return Err(ResolveError::Input(InputError::unplaced(
            STDIN_NAME,
            format!("cannot read: {e}"),
        )));
    }
    let mut said = Vec::new();
    let text = if head.len() as u64 > max {
        let _ = writeln!(
            said,
            "{STDIN_NAME}: cannot read file: larger than the maximum input size of {} MB \
             (--max-input-mb)",
            max >> 20
        );
        None
    } else {
        decode(STDIN_NAME, head, &mut said)
    };
    let _ = err.write_all(&said);
    let Some(text) = text else {
        let said = String::from_utf8_lossy(&said);
        return Err(ResolveError::Input(input_error_of(
            STDIN_NAME,
            said.trim_end(),
        )));
    };
    let l = lang.unwrap_or_else(|| Lang::by_content(&text));
    if l == Lang::C {
        return Err(c_usage(err));
    }
    set_oom_style(l);
    PRELOADED.with(|p| *p.borrow_mut() = Some((PathBuf::from(STDIN_NAME), text)));
    Ok(Input::File(PathBuf::from(STDIN_NAME), l))
}

/// `solve`/`smt` when the input could not be read to decide its language: as an unreadable
/// input of the language it would have had.
fn input_failure(
    path: &Path,
    lang: Option<Lang>,
    e: InputError,
    format: Format,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let lang = lang.or_else(|| Lang::by_extension(path));
    if let Some(stop) = solver::budget::stopped() {
        return report_stop(path, lang, stop, Some(format), out, err);
    }
    if format == Format::Json {
        let _ = writeln!(out, "{}", report::document(e.json()));
    }
    EXIT_BAD_INPUT
}

/// A positive number of seconds as a time limit: any size (`1e308`, `inf`) saturates at
/// about 31 years, so that a deadline `now + limit` never overflows.
fn saturating_secs(t: f64) -> Duration {
    const MAX_SECS: f64 = 1e9;
    Duration::from_secs_f64(t.min(MAX_SECS))
}

/// Reads a file as UTF-8 text, or reports why not (with the position of the first invalid
/// byte). A UTF-8 byte-order mark at the start is skipped. Reading stops at the limits
/// ([`read_limited`]); when it stops for time or memory, `solver::budget::stopped` says so.
fn read_source(path: &std::path::Path, err: &mut dyn Write) -> Option<String> {
    let name = path.display();
    let bytes = match read_limited(path) {
        Ok(b) => b,
        Err(ReadError::Io(e)) => {
            let _ = writeln!(err, "{name}: cannot read file: {e}");
            return None;
        }
        Err(ReadError::NotAFile(kind)) => {
            let _ = writeln!(
                err,
                "{name}: cannot read file: {kind}, not a regular file or a pipe"
            );
            return None;
        }
        Err(ReadError::TooLarge) => {
            let _ = writeln!(
                err,
                "{name}: cannot read file: larger than the maximum input size of {} MB \
                 (--max-input-mb)",
                MAX_INPUT.with(Cell::get) >> 20
            );
            return None;
        }
        Err(ReadError::Stopped) => {
            let why = solver::budget::stopped().map_or("a limit", |s| s.text());
            let _ = writeln!(err, "{name}: {why} reached while reading the file");
            return None;
        }
    };
    decode(&name.to_string(), bytes, err)
}

/// The bytes of an input as UTF-8 text without a byte-order mark, or the position of the first
/// invalid byte on `err`.
fn decode(name: &str, bytes: Vec<u8>, err: &mut dyn Write) -> Option<String> {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(s) => Some(s),
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
            let name = name.to_string();
            let sm = SourceMap::new(&name, &prefix);
            let (line, col) = sm.line_col(valid as u32);
            let _ = writeln!(err, "{name}:{line}:{col}: file is not valid UTF-8");
            None
        }
    }
}

/// Reads a file as [`read_source`] does; the error, typed, for the JSON report (the text
/// [`read_source`] printed goes to `err` unchanged). An input read to decide its language ([`PRELOADED`]) is not read again.
fn read_input(path: &std::path::Path, err: &mut dyn Write) -> Result<String, InputError> {
    let preloaded = PRELOADED.with(|p| {
        let mut p = p.borrow_mut();
        match p.take() {
            Some((q, text)) if q == path => Some(text),
            other => {
                *p = other;
                None
            }
        }
    });
    if let Some(text) = preloaded {
        return Ok(text);
    }
    let mut said = Vec::new();
    let text = read_source(path, &mut said);
    let _ = err.write_all(&said);
    let name = path.display().to_string();
    text.ok_or_else(|| {
        let said = String::from_utf8_lossy(&said);
        input_error_of(&name, said.trim_end())
    })
}

/// The typed error of a message `NAME: message` or `NAME:LINE:COL: message`.
fn input_error_of(name: &str, said: &str) -> InputError {
    let rest = said.strip_prefix(name).unwrap_or(said);
    let mut parts = rest.splitn(4, ':');
    let _ = parts.next();
    let (a, b) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    match (a.parse::<usize>(), b.parse::<usize>(), parts.next()) {
        (Ok(line), Ok(col), Some(msg)) => InputError {
            file: name.to_string(),
            line: Some(line),
            column: Some(col),
            message: msg.trim().to_string(),
        },
        _ => InputError::unplaced(name, rest.trim_start_matches(':').trim()),
    }
}

/// Loads a file, printing its diagnostics (compiler style); the first error on bad input.
fn load(
    path: &std::path::Path,
    show_warnings: bool,
    err: &mut dyn Write,
) -> Result<(String, Loaded, Vec<Diagnostic>), InputError> {
    let text = read_input(path, err)?;
    let name = path.display().to_string();
    let sm = SourceMap::new(&name, &text);
    match hys::load(&text) {
        Ok(loaded) => {
            let warnings = loaded.diagnostics.clone();
            if show_warnings {
                for d in &warnings {
                    let _ = writeln!(err, "{}", sm.report(d));
                }
            }
            Ok((text.clone(), loaded, warnings))
        }
        Err(diags) => {
            for d in &diags {
                if d.is_error() || show_warnings {
                    let _ = writeln!(err, "{}", sm.report(d));
                }
            }
            let first = diags.iter().find(|d| d.is_error()).or(diags.first());
            Err(match first {
                Some(d) => InputError::at(&sm, d),
                None => InputError::unplaced(&name, "the file does not load"),
            })
        }
    }
}

fn stats_json(s: &FormulaStats) -> serde_json::Value {
    json!({
        "aux_vars": s.aux_vars,
        "constant_vars": s.constant_vars,
        "tseitin_vars": s.tseitin_vars,
        "definitions": s.definitions,
        "atoms": s.atoms,
        "clauses": s.clauses,
        "roots": s.roots,
    })
}

fn stats_text(label: &str, s: &FormulaStats) -> String {
    format!(
        "{label}: {} definition(s) (primitive constraints), {} atoms, {} clauses, {} roots; \
         {} auxiliary, {} constant and {} Tseitin variables",
        s.definitions, s.atoms, s.clauses, s.roots, s.aux_vars, s.constant_vars, s.tseitin_vars
    )
}

/// The C options of `check`.
struct CheckC<'a> {
    input: &'a CInputArgs,
    data_model: DataModelArg,
}

/// An input that did not load for `check` or `dump`: a limit (exit 1 with the reason) or bad
/// input (reported already; exit 1).
fn not_loaded(path: &Path, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match solver::budget::stopped() {
        Some(stop) => report_stop(path, None, stop, None, out, err),
        None => EXIT_BAD_INPUT,
    }
}

fn cmd_check(
    path: &std::path::Path,
    lang: Option<Lang>,
    format: Format,
    no_warnings: bool,
    c: &CheckC<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let show_warnings = !no_warnings && format == Format::Text;
    let path = match resolve_input(path, lang, false, err) {
        Ok(Input::File(p, Lang::Hys)) => p,
        Ok(Input::File(p, Lang::Smt2)) => {
            return check_script(&p, format, show_warnings, out, err);
        }
        Ok(Input::File(p, Lang::Vmt)) => {
            let Some((text, checked, lowered)) = load_vmt(&p, err) else {
                return not_loaded(&p, out, err);
            };
            let problem = hys::Problem {
                checked: &checked,
                lowered: &lowered,
            };
            print_check_summary(
                &p,
                &text,
                &problem,
                "transition system (VMT)",
                &[],
                format,
                out,
            );
            return EXIT_OK;
        }
        Ok(Input::File(p, Lang::C)) => {
            let files = [p];
            let input = c.input.options(&files);
            let model = c.input.model(c.data_model);
            return crate::c::cmd::check(&input, model, format == Format::Json, out, err);
        }
        // not asked for: `check` reads standard input to its end
        Ok(Input::SmtStream(_)) => return EXIT_INTERNAL,
        Err(ResolveError::Usage) => return EXIT_USAGE,
        Err(ResolveError::Input(_)) => return not_loaded(path, out, err),
    };
    let path = path.as_path();
    let Ok((text, loaded, warnings)) = load(path, show_warnings, err) else {
        return not_loaded(path, out, err);
    };
    print_check_summary(
        path,
        &text,
        &loaded.problem(),
        loaded.summary().form,
        &warnings,
        format,
        out,
    );
    EXIT_OK
}

/// `check` of an SMT-LIB script: every command run, every check-sat lowered, none solved.
fn check_script(
    path: &Path,
    format: Format,
    show_warnings: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let Ok(text) = read_input(path, err) else {
        return not_loaded(path, out, err);
    };
    let name = path.display().to_string();
    let Ok(summary) = crate::smtlib::script::check(&name, &text, err) else {
        return not_loaded(path, out, err);
    };
    let sm = SourceMap::new(&name, &text);
    if show_warnings {
        for d in &summary.dropped {
            let _ = writeln!(err, "{}", sm.report(d));
        }
    }
    match format {
        Format::Text => {
            let _ = writeln!(out, "{name}: SMT-LIB script");
            let _ = writeln!(out, "commands: {}", summary.commands);
            let _ = writeln!(
                out,
                "check-sat: {} (each elaborated and lowered, not solved)",
                summary.check_sats
            );
            let _ = writeln!(
                out,
                "unsupported assertions: {} (dropped when solving: unsat stays sound, sat \
                 becomes unknown)",
                summary.dropped.len()
            );
        }
        Format::Json => {
            let warnings: Vec<String> = summary.dropped.iter().map(|d| sm.render(d)).collect();
            let v = json!({
                "file": name,
                "form": "SMT-LIB script",
                "commands": summary.commands,
                "check_sat": summary.check_sats,
                "warnings": warnings,
            });
            let _ = writeln!(out, "{v}");
        }
    }
    EXIT_OK
}

/// Reads, elaborates and lowers a VMT file; the diagnostic on `err` when it does not load
/// (also when it uses something unsupported: `check` and `dump` need the whole system).
fn load_vmt(path: &Path, err: &mut dyn Write) -> Option<(String, hys::check::Checked, Lowered)> {
    let text = read_input(path, err).ok()?;
    let name = path.display().to_string();
    let sm = SourceMap::new(&name, &text);
    let checked = match crate::smtlib::vmt::load(&text) {
        crate::smtlib::vmt::VmtLoad::Ok(c) => c,
        crate::smtlib::vmt::VmtLoad::Error(d) => {
            let _ = writeln!(err, "{}", sm.report(&d));
            return None;
        }
        crate::smtlib::vmt::VmtLoad::Unsupported(span, why) => {
            let d = Diagnostic::error(span, format!("unsupported: {why}"));
            let _ = writeln!(err, "{}", sm.report(&d));
            return None;
        }
    };
    match hys::lower::lower(&checked) {
        Ok(l) => Some((text, checked, l)),
        Err(d) => {
            let _ = writeln!(err, "{}", sm.report(&d));
            None
        }
    }
}

/// `check`'s summary of a checked and lowered problem.
fn print_check_summary(
    path: &Path,
    text: &str,
    problem: &hys::Problem<'_>,
    form: &str,
    warnings: &[Diagnostic],
    format: Format,
    out: &mut dyn Write,
) {
    let summary = problem.summary();
    let formulas = problem.formula_stats();
    match format {
        Format::Text => {
            let _ = writeln!(out, "{}: {form}", path.display());
            let _ = writeln!(out, "variables: {}", summary.variables_by_kind());
            let _ = writeln!(out, "constraints: {}", summary.constraints);
            for (label, s) in &formulas {
                let _ = writeln!(out, "{}", stats_text(label, s));
            }
            let _ = writeln!(out, "warnings: {}", warnings.len());
        }
        Format::Json => {
            let sections: serde_json::Map<String, serde_json::Value> = formulas
                .iter()
                .map(|(label, s)| (label.to_string(), stats_json(s)))
                .collect();
            let name = path.display().to_string();
            // the text read once (a pipe cannot be read twice)
            let sm = SourceMap::new(&name, text);
            let warnings: Vec<String> = warnings.iter().map(|d| sm.render(d)).collect();
            let v = json!({
                "file": name,
                "form": form,
                "variables": summary.kinds_json(),
                "constraints": summary.constraints,
                "lowered": sections,
                "warnings": warnings,
            });
            let _ = writeln!(out, "{v}");
        }
    }
}

fn cmd_dump(
    path: &std::path::Path,
    lang: Option<Lang>,
    source: bool,
    format: Option<DumpFormat>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let (path, lang) = match resolve_input(path, lang, false, err) {
        Ok(Input::File(p, l @ (Lang::Hys | Lang::Vmt))) => (p, l),
        Ok(Input::File(p, l)) => {
            let _ = writeln!(
                err,
                "icpic3: {}: dump prints .hys and VMT problems, not {} input",
                p.display(),
                l.name()
            );
            return EXIT_USAGE;
        }
        Ok(Input::SmtStream(_)) => return EXIT_INTERNAL,
        Err(ResolveError::Usage) => return EXIT_USAGE,
        Err(ResolveError::Input(_)) => return not_loaded(path, out, err),
    };
    let path = path.as_path();
    if lang == Lang::Vmt && source {
        let _ = writeln!(
            err,
            "icpic3: {}: --source prints .hys files back; this is VMT",
            path.display()
        );
        return EXIT_USAGE;
    }
    let (checked, lowered, loaded);
    let problem = if lang == Lang::Vmt {
        let Some((_, c, l)) = load_vmt(path, err) else {
            return not_loaded(path, out, err);
        };
        (checked, lowered) = (c, l);
        hys::Problem {
            checked: &checked,
            lowered: &lowered,
        }
    } else {
        let Ok((_text, l, _)) = load(path, false, err) else {
            return not_loaded(path, out, err);
        };
        loaded = l;
        if source {
            let _ = write!(out, "{}", hys::printer::print(&loaded.ast));
            return EXIT_OK;
        }
        loaded.problem()
    };
    if let Some(fmt) = format {
        let printed = match (fmt, problem.lowered) {
            (DumpFormat::Smt2, Lowered::Expr(f)) => crate::smtlib_out::to_smtlib(f),
            (DumpFormat::Vmt, Lowered::Transition(ts)) => crate::smtlib_out::to_vmt(ts),
            (DumpFormat::Smt2, Lowered::Transition(_)) => {
                Err("a transition system: use --format vmt".into())
            }
            (DumpFormat::Vmt, Lowered::Expr(_)) => {
                Err("a single formula (EXPR): use --format smt2".into())
            }
            (DumpFormat::Dimacs, Lowered::Expr(f)) => solver::bitblast::dimacs(f)
                .map_err(|e| format!("bit-blasting does not support {e}")),
            (DumpFormat::Dimacs, Lowered::Transition(_)) => {
                Err("a transition system: DIMACS is for EXPR problems".into())
            }
        };
        return match printed {
            Ok(s) => {
                let _ = write!(out, "{s}");
                EXIT_OK
            }
            Err(e) => {
                let _ = writeln!(err, "{}: cannot print: {e}", path.display());
                EXIT_BAD_INPUT
            }
        };
    }
    let _ = write!(out, "{}", problem.dump());
    EXIT_OK
}

fn cmd_solve(
    input: &Input,
    opts: &solve_cmd::Options,
    ts_opts: &ts_cmd::TsOptions,
    verbose: u8,
    format: Format,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let (path, lang) = match input {
        Input::File(p, l) => (p.as_path(), *l),
        Input::SmtStream(_) => (Path::new("-"), Lang::Smt2),
    };
    match solve_file(input, opts, ts_opts, verbose, format, out, err) {
        Ok(code) => code,
        // a phase stopped at the time or memory limit: UNKNOWN, not bad input
        Err(_) if solver::budget::stopped().is_some() => {
            let stop = solver::budget::stopped().expect("checked");
            report_stop(path, Some(lang), stop, Some(format), out, err)
        }
        Err(e) => {
            // the diagnostics are on standard error already; JSON gets the first error
            if format == Format::Json {
                let _ = writeln!(out, "{}", report::document(e.json()));
            }
            EXIT_BAD_INPUT
        }
    }
}

/// `solve` on one file that is not C: prints the answer, returns the exit code; bad input is
/// reported on `err` and returned.
fn solve_file(
    input: &Input,
    opts: &solve_cmd::Options,
    ts_opts: &ts_cmd::TsOptions,
    verbose: u8,
    format: Format,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, InputError> {
    let so = crate::smtlib::script::ScriptOptions {
        config: opts.config.clone(),
        timeout: opts.timeout,
        verbose,
        dry_run: false,
        engine: opts.engine,
        refine: opts.refine,
    };
    let (path, lang) = match input {
        Input::File(p, l) => (p.as_path(), *l),
        Input::SmtStream(head) => {
            // an SMT-LIB script on standard input, answered command by command (Part E.5)
            if format == Format::Json {
                let _ = writeln!(
                    err,
                    "icpic3: --format json does not apply to standard input (SMT-LIB answers)"
                );
                return Ok(EXIT_USAGE);
            }
            let stdin = std::io::stdin();
            let mut input = std::io::Cursor::new(head.as_slice()).chain(stdin.lock());
            return Ok(crate::smtlib::script::run_stream(
                STDIN_NAME, &mut input, &so, out, err,
            ));
        }
    };
    if lang == Lang::Smt2 {
        let text = match read_input(path, err) {
            Ok(t) => t,
            Err(e) if solver::budget::stopped().is_some() => {
                // out of time or memory while reading: SMT-LIB's `unknown`
                match format {
                    Format::Text => {
                        let _ = writeln!(out, "unknown");
                    }
                    Format::Json => {
                        let why = solver::budget::stopped().map_or("stopped", |s| s.text());
                        let v = json!({"input": "smtlib", "result": "unknown", "limit": why,
                                       "note": e.message});
                        let _ = writeln!(out, "{}", report::document(v));
                    }
                }
                return Ok(EXIT_OK);
            }
            Err(e) => return Err(e),
        };
        let name = path.display().to_string();
        return Ok(match format {
            Format::Text => crate::smtlib::script::run(&name, &text, &so, out, err),
            Format::Json => {
                let (v, code) = crate::smtlib::script::run_json(&name, &text, &so, err)?;
                let _ = writeln!(out, "{}", report::document(v));
                code
            }
        });
    }
    let ts_usage = |err: &mut dyn Write| {
        let _ = writeln!(
            err,
            "icpic3: --engine icp applies to EXPR problems, not transition systems"
        );
        Ok(EXIT_USAGE)
    };
    if lang == Lang::Vmt {
        if opts.engine == solve_cmd::ExprEngine::Icp {
            return ts_usage(err);
        }
        let text = read_input(path, err)?;
        let name = path.display().to_string();
        let sm = SourceMap::new(&name, &text);
        let unsupported = |d: Diagnostic, out: &mut dyn Write, err: &mut dyn Write| {
            let _ = writeln!(err, "{}", sm.report(&d));
            match format {
                Format::Text => {
                    let _ = writeln!(out, "UNKNOWN");
                }
                Format::Json => {
                    let v = json!({"input": "vmt", "result": "UNKNOWN", "note": sm.render(&d)});
                    let _ = writeln!(out, "{}", report::document(v));
                }
            }
            Ok(EXIT_OK)
        };
        let checked = match crate::smtlib::vmt::load(&text) {
            crate::smtlib::vmt::VmtLoad::Ok(c) => c,
            crate::smtlib::vmt::VmtLoad::Error(d) => {
                let _ = writeln!(err, "{}", sm.report(&d));
                return Err(InputError::at(&sm, &d));
            }
            crate::smtlib::vmt::VmtLoad::Unsupported(span, why) => {
                let d = Diagnostic::error(span, format!("unsupported: {why}"));
                return unsupported(d, out, err);
            }
        };
        let ts = match hys::lower::lower(&checked) {
            Ok(Lowered::Transition(ts)) => ts,
            Ok(Lowered::Expr(_)) => return Ok(EXIT_INTERNAL),
            Err(d) => return unsupported(d, out, err),
        };
        return Ok(solve_transition(
            None, "vmt", &checked, &ts, ts_opts, verbose, format, out, err,
        ));
    }
    let (text, loaded, _) = load(path, format == Format::Text, err)?;
    let ts = match &loaded.lowered {
        Lowered::Expr(f) => {
            let answer = solve_cmd::solve_expr(&loaded.checked, f, opts);
            return Ok(print_expr_answer(&answer, verbose, format, out, err));
        }
        Lowered::Transition(ts) => ts,
    };
    if opts.engine == solve_cmd::ExprEngine::Icp {
        return ts_usage(err);
    }
    Ok(solve_transition(
        Some(&text),
        "hys-transition",
        &loaded.checked,
        ts,
        ts_opts,
        verbose,
        format,
        out,
        err,
    ))
}

/// Solves a transition system and prints the answer; `text` is the `.hys` source (for the
/// re-check of a printed invariant), `None` for other input languages.
#[allow(clippy::too_many_arguments)]
fn solve_transition(
    text: Option<&str>,
    input_kind: &str,
    checked: &hys::check::Checked,
    ts: &ic3::TransitionSystem,
    ts_opts: &ts_cmd::TsOptions,
    verbose: u8,
    format: Format,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let mut answer = ts_cmd::solve_ts(checked, ts, ts_opts);
    if let (true, ic3::Verdict::Safe, Some(text)) =
        (ts_opts.check_certificate, answer.result.verdict, text)
    {
        if let Some(inv) = answer.result.invariant.clone() {
            let c = ts_cmd::check_printed_invariant(text, ts, &inv, ts_opts);
            if c.is_err() {
                // a SAFE whose printed evidence does not check is not given
                answer.result.verdict = ic3::Verdict::Unknown;
            }
            answer.certificate_check = Some(c);
        }
    }
    let r = &answer.result;
    match format {
        Format::Text => {
            let _ = writeln!(out, "{}", r.verdict.text());
            // the trace (UNSAFE) or the boxes (CANDIDATE SOLUTION), as iSAT3 prints them; the
            // invariant (SAFE from IC3)
            let _ = write!(out, "{}", ts_cmd::render_text(&answer));
            if let Some(n) = &r.note {
                let _ = writeln!(err, "icpic3: {}: {n}", r.engine);
            }
            if verbose > 0 {
                let depth = r.depth.map(|d| d.to_string()).unwrap_or_else(|| "-".into());
                let _ = writeln!(out, "engine: {}, depth: {depth}", r.engine);
            }
            if verbose > 1 {
                let _ = writeln!(out, "time: {:.3} s", answer.time.as_secs_f64());
                if let Some(kb) = answer.peak_rss_kb {
                    let _ = writeln!(out, "peak RSS: {kb} kB");
                }
                let _ = writeln!(out, "stats: {}", solve_cmd::stats_json(&r.stats));
                for (k, v) in &r.extra_stats {
                    let _ = writeln!(out, "{k}: {v}");
                }
            }
        }
        Format::Json => {
            // one JSON document, the verdict in `result` (docs D.6)
            let mut v = ts_cmd::render_json(&answer);
            v["input"] = json!(input_kind);
            let _ = writeln!(out, "{}", report::document(v));
        }
    }
    ts_cmd::exit_code(&answer)
}

fn print_expr_answer(
    answer: &solve_cmd::Answer,
    verbose: u8,
    format: Format,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    match format {
        Format::Text => {
            let _ = writeln!(out, "{}", answer.verdict.text());
            if let Some(n) = &answer.note {
                let _ = writeln!(err, "icpic3: {n}");
            }
            if let Some(p) = &answer.proof {
                let _ = writeln!(
                    err,
                    "icpic3: no exact point: a solution exists by an existence proof ({}; -v \
                     shows it)",
                    p.kind
                );
            }
            if verbose > 0 {
                let _ = write!(out, "{}", solve_cmd::render_text(answer));
                if let Some(p) = &answer.proof {
                    let _ = writeln!(out, "{}", p.text);
                }
            }
            if verbose > 1 {
                let _ = writeln!(out, "time: {:.3} s", answer.time.as_secs_f64());
                let _ = writeln!(out, "stats: {}", solve_cmd::stats_json(&answer.stats));
            }
        }
        Format::Json => {
            // one JSON document, the verdict in `result` (docs D.6)
            let mut v = solve_cmd::render_json(answer);
            v["input"] = json!("hys-expr");
            let _ = writeln!(out, "{}", report::document(v));
        }
    }
    answer.verdict.exit_code()
}

/// What the process prints when the allocator's hard memory threshold is passed
/// ([`out_of_memory`]): nothing and exit 1, `UNKNOWN` or `unknown` and exit 0.
static OOM_STYLE: AtomicU8 = AtomicU8::new(OOM_ERROR);
const OOM_ERROR: u8 = 0;
const OOM_UPPER: u8 = 1;
const OOM_LOWER: u8 = 2;

thread_local! {
    /// `--max-input-mb` of the running command, in bytes.
    static MAX_INPUT: Cell<u64> = const { Cell::new(DEFAULT_MAX_INPUT_MB << 20) };
}

/// Applies a command's limits (issue #24) before its first byte is read: the memory budget
/// of the process, the deadline of this thread's front-end phases, the input size limit, and
/// what a last-resort memory exhaustion prints.
fn set_limits(command: &Command) {
    let (memory_mb, timeout, max_input_mb, style) = match command {
        Command::Check { limits, .. } | Command::Dump { limits, .. } => {
            (limits.memory_mb, None, limits.max_input_mb, OOM_ERROR)
        }
        Command::Deadcode { memory_mb, .. } => (*memory_mb, None, DEFAULT_MAX_INPUT_MB, OOM_ERROR),
        Command::Solve {
            files,
            lang,
            memory_mb,
            max_input_mb,
            timeout,
            ..
        } => {
            // by the name or --lang; a language decided by content sets it again
            // (`set_oom_style`); standard input is most often SMT-LIB
            let lower = files.first().is_some_and(|f| {
                f.as_os_str() == "-"
                    || lang
                        .or_else(|| Lang::by_extension(f))
                        .is_some_and(|l| oom_style(l) == OOM_LOWER)
            });
            let t = timeout.filter(|t| *t > 0.0 && !t.is_nan());
            let style = if lower { OOM_LOWER } else { OOM_UPPER };
            (*memory_mb, t, *max_input_mb, style)
        }
        Command::Smt {
            memory_mb,
            max_input_mb,
            timeout,
            ..
        } => {
            let t = timeout.filter(|t| *t > 0.0 && !t.is_nan());
            (*memory_mb, t, *max_input_mb, OOM_LOWER)
        }
    };
    // the allocator sees the heap only: what the process already holds (code, libraries,
    // stacks) comes off the budget, so that the resident set stays within the limit
    let baseline = ic3::engine::resident_kb()
        .unwrap_or(0)
        .saturating_mul(1 << 10);
    solver::budget::set_memory_limit(
        (memory_mb > 0).then(|| memory_mb.saturating_mul(1 << 20).saturating_sub(baseline)),
    );
    solver::budget::set_deadline(timeout.map(|t| std::time::Instant::now() + saturating_secs(t)));
    MAX_INPUT.with(|m| m.set(max_input_mb.saturating_mul(1 << 20)));
    OOM_STYLE.store(style, Ordering::Relaxed);
}

/// The allocator's last resort (`main.rs`): a request passed the hard memory threshold or the
/// system refused it. Prints the command's UNKNOWN (or nothing, for commands that do not
/// solve) and a reason, and ends the process at once with exit 0 (or 1): neither an abort
/// nor the kernel's OOM killer. Allocates nothing.
pub fn out_of_memory() -> ! {
    let (verdict, code): (&[u8], i32) = match OOM_STYLE.load(Ordering::Relaxed) {
        OOM_UPPER => (b"UNKNOWN\n", EXIT_OK),
        OOM_LOWER => (b"unknown\n", EXIT_OK),
        _ => (b"", EXIT_BAD_INPUT),
    };
    let msg: &[u8] = b"icpic3: memory limit reached (--memory-mb)\n";
    // SAFETY: plain writes of static buffers to the standard descriptors, then _exit
    unsafe {
        libc::write(1, verdict.as_ptr().cast(), verdict.len());
        libc::write(2, msg.as_ptr().cast(), msg.len());
        libc::_exit(code)
    }
}

/// What the last resort prints for a solved input of language `lang`: SMT-LIB and C (SV-COMP's
/// answers) say `unknown`; .hys and VMT say UNKNOWN.
fn oom_style(lang: Lang) -> u8 {
    match lang {
        Lang::Smt2 | Lang::C => OOM_LOWER,
        Lang::Hys | Lang::Vmt => OOM_UPPER,
    }
}

/// The input's language is known now: a `solve` that runs out of memory answers in its words
/// (`check` and `dump` print no verdict).
fn set_oom_style(lang: Lang) {
    if OOM_STYLE.load(Ordering::Relaxed) != OOM_ERROR {
        OOM_STYLE.store(oom_style(lang), Ordering::Relaxed);
    }
}

/// A front-end phase stopped at a limit (`solver::budget::stopped`): `solve` answers UNKNOWN
/// (`unknown` for SMT-LIB; exit 0), `check` and `dump` fail (exit 1). The phase's
/// `FILE:LINE:COL` diagnostic is already on standard error.
fn report_stop(
    path: &std::path::Path,
    lang: Option<Lang>,
    stop: solver::budget::Stop,
    solving: Option<Format>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let _ = writeln!(err, "icpic3: {}: {} reached", path.display(), stop.text());
    match solving {
        None => EXIT_BAD_INPUT,
        Some(Format::Text) => {
            let verdict = if lang == Some(Lang::Smt2) {
                "unknown"
            } else {
                "UNKNOWN"
            };
            let _ = writeln!(out, "{verdict}");
            EXIT_OK
        }
        Some(Format::Json) => {
            let input = input_kind(lang.unwrap_or(Lang::Hys));
            let v = json!({"input": input, "result": "UNKNOWN", "limit": stop.text()});
            let _ = writeln!(out, "{}", report::document(v));
            EXIT_OK
        }
    }
}

/// The `input` field of the JSON report for an input of language `lang`.
fn input_kind(lang: Lang) -> &'static str {
    match lang {
        Lang::Smt2 => "smtlib",
        Lang::Vmt => "vmt",
        Lang::C => "c",
        Lang::Hys => "hys",
    }
}

/// Why reading an input failed.
enum ReadError {
    Io(std::io::Error),
    /// a device, socket or directory: not read
    NotAFile(&'static str),
    /// over `--max-input-mb`
    TooLarge,
    /// out of time or memory while reading (recorded in `solver::budget::stopped`)
    Stopped,
}

/// Reads a file's bytes within the limits: at most `--max-input-mb` bytes, within the memory
/// budget, and (for a pipe) without waiting past the deadline. Regular files and pipes
/// (FIFOs) are read; devices (`/dev/zero`, `/dev/urandom`, terminals) are refused.
fn read_limited(path: &std::path::Path) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let max = MAX_INPUT.with(Cell::get);
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    let ft = meta.file_type();
    let kind = if ft.is_dir() {
        Some("a directory")
    } else if ft.is_char_device() {
        Some("a character device")
    } else if ft.is_block_device() {
        Some("a block device")
    } else if ft.is_socket() {
        Some("a socket")
    } else {
        None
    };
    if let Some(k) = kind {
        return Err(ReadError::NotAFile(k));
    }
    let fifo = ft.is_fifo();
    if !fifo {
        if meta.len() > max {
            return Err(ReadError::TooLarge);
        }
        if !solver::budget::fits(meta.len() as usize) {
            solver::budget::stop(solver::budget::Stop::Memory);
            return Err(ReadError::Stopped);
        }
    }
    // a pipe is opened without blocking (no writer yet must not hang) and read by polling
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(if fifo { libc::O_NONBLOCK } else { 0 })
        .open(path)
        .map_err(ReadError::Io)?;
    let mut bytes = Vec::with_capacity(if fifo { 0 } else { meta.len() as usize });
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        if solver::budget::check_now().is_err() {
            return Err(ReadError::Stopped);
        }
        match file.read(&mut chunk) {
            // a pipe without a writer reads as empty: wait for one until the deadline
            Ok(0) if fifo && bytes.is_empty() => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(0) => break,
            Ok(n) => {
                if (bytes.len() + n) as u64 > max {
                    return Err(ReadError::TooLarge);
                }
                if !solver::budget::fits(n) {
                    solver::budget::stop(solver::budget::Stop::Memory);
                    return Err(ReadError::Stopped);
                }
                bytes.extend_from_slice(&chunk[..n]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
    Ok(bytes)
}
