//! A mutation fuzzer for the SMT-LIB and VMT front end (s-expression reader → elaboration →
//! IR → lowering), on stable Rust. Inputs are benchmark files (`smtlib-status`, the VMT
//! transition systems) and a few built-in seeds, mutated at byte and token level and spliced.
//! Every input runs as a script (`check-sat` elaborated and lowered, not solved) and as a VMT
//! file. A failure is a panic or an input that takes longer than `--timeout-ms`; failing
//! inputs are written to the artifacts directory and the run exits non-zero.
//!
//! cargo run --release -p frontend --example fuzz_smtlib -- --inputs 100000

use frontend::smtlib::{script, vmt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const SEEDS: &[&str] = &[
    "(set-logic QF_LIA)(declare-fun x () Int)(assert (= (mod x 3) (div x (- 2))))(check-sat)(get-model)",
    "(declare-const a Float32)(assert (fp.lt (fp.add RNE a (fp #b0 #b01111111 #b00000000000000000000000)) ((_ to_fp 8 24) RTZ 0.5)))(check-sat)",
    "(declare-fun b () (_ BitVec 8))(assert (bvslt (bvsmod b #x03) ((_ extract 7 0) (concat b b))))(push 1)(check-sat)(pop 1)",
    "(define-fun f ((x Real) (y Real)) Real (let ((z (* x y))) (ite (> z 0.0) (/ z x) (sin y))))(declare-const r Real)(assert (! (> (f r 2.0) 1e-3) :named n))(check-sat)",
    "(declare-fun x () Int)(declare-fun xn () Int)(define-fun s () Int (! x :next xn))(define-fun i () Bool (! (= x 0) :init true))(define-fun t () Bool (! (= xn (+ x 1)) :trans true))(define-fun p () Bool (! (< x 5) :invar-property 0))",
];

#[path = "common/hostile.rs"]
mod hostile;
#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

const TOKENS: &[&str] = &[
    "(",
    ")",
    " ",
    "(_ bv3 8)",
    "#b1",
    "#x",
    "|",
    "\"",
    ":next",
    ":init",
    ":trans",
    ":invar-property",
    ":named",
    "(let ((",
    "!",
    "_",
    "(_ +zero 8 24)",
    "RNE",
    "fp.min",
    "div",
    "mod",
    "/",
    "0",
    "-1",
    "1e400",
    "0.5",
    "(push 1)",
    "(pop 2)",
    "(check-sat)",
    "(get-model)",
    "(get-value (x))",
    "(assert ",
    "ite",
    "Float64",
    "(_ BitVec 64)",
    "bvashr",
    "to_fp",
    "fp.to_sbv",
    "((_ to_fp 11 53) RNE ",
    "(exit)",
    "(reset)",
    "define-fun",
    "declare-fun",
];

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    if rng.below(50) == 0 {
        // a hostile shape (issue #24), sometimes mutated further
        let h = hostile::smtlib(rng).into_bytes();
        if rng.below(2) == 0 {
            return h;
        }
        return mutate(rng, &[h]);
    }
    let mut v = seeds[rng.below(seeds.len())].clone();
    for _ in 0..1 + rng.below(4) {
        let n = v.len();
        match rng.below(7) {
            0 if n > 0 => {
                let i = rng.below(n);
                v[i] = rng.next() as u8;
            }
            1 if n > 0 => {
                let i = rng.below(n);
                let len = 1 + rng.below(16.min(n - i));
                v.drain(i..i + len);
            }
            2 => {
                let i = rng.below(n + 1);
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                v.splice(i..i, t.iter().copied());
            }
            3 if n > 0 => {
                let a = rng.below(n);
                let b = (a + 1 + rng.below(64)).min(n);
                let chunk: Vec<u8> = v[a..b].to_vec();
                let i = rng.below(n + 1);
                v.splice(i..i, chunk);
            }
            4 => {
                let other = &seeds[rng.below(seeds.len())];
                let cut = rng.below(v.len() + 1);
                let from = rng.below(other.len() + 1);
                v.truncate(cut);
                v.extend_from_slice(&other[from..]);
            }
            5 if n > 0 => {
                // swap a parenthesis for another character
                if let Some(i) = (0..8)
                    .map(|_| rng.below(n))
                    .find(|&i| v[i] == b'(' || v[i] == b')')
                {
                    v[i] = if v[i] == b'(' { b')' } else { b'(' };
                }
            }
            _ => {
                let i = rng.below(n + 1);
                v.insert(i, b"()|#:;\n\"-."[rng.below(10)]);
            }
        }
    }
    v
}

fn run_one(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let opts = script::ScriptOptions {
        config: solver::SolverConfig::default(),
        timeout: Some(Duration::from_millis(10)),
        verbose: 0,
        dry_run: true,
        engine: frontend::solve_cmd::ExprEngine::Portfolio,
        refine: false,
    };
    let mut out = Vec::new();
    let mut err = Vec::new();
    // the front-end phases stop at a deadline, as under `--timeout` (issue #24)
    solver::budget::set_deadline(Some(std::time::Instant::now() + Duration::from_millis(200)));
    let _ = script::run("fuzz.smt2", &text, &opts, &mut out, &mut err);
    if let vmt::VmtLoad::Ok(c) = vmt::load(&text) {
        let _ = frontend::hys::lower::lower(&c);
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "smt2" || x == "vmt") {
            out.push(p);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut inputs: u64 = 20_000;
    let mut seed: u64 = 0x5eed_5417;
    let mut timeout = Duration::from_millis(2000);
    let mut max_seed = 20_000usize;
    let mut artifacts = PathBuf::from("fuzz-artifacts-smtlib");
    let mut i = 0;
    while i < args.len() {
        let val = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--inputs" => inputs = val.parse().unwrap_or(inputs),
            "--seed" => seed = val.parse().unwrap_or(seed),
            "--timeout-ms" => timeout = Duration::from_millis(val.parse().unwrap_or(2000)),
            "--max-seed-size" => max_seed = val.parse().unwrap_or(max_seed),
            "--artifacts" => artifacts = PathBuf::from(val),
            _ => {
                eprintln!("usage: fuzz_smtlib [--inputs N] [--seed N] [--timeout-ms MS] [--max-seed-size BYTES] [--artifacts DIR]");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    let base = std::env::var_os("ICPIC3_BENCHMARKS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/benchmarks"));
    let mut files = Vec::new();
    collect(&base.join("smtlib-status"), &mut files);
    collect(&base.join("transition-systems/vmt"), &mut files);
    files.sort();
    let mut seeds: Vec<Vec<u8>> = SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect();
    for f in files {
        if let Ok(b) = std::fs::read(&f) {
            if b.len() <= max_seed {
                seeds.push(b);
            }
        }
    }
    eprintln!("fuzz_smtlib: {} seeds, {inputs} inputs", seeds.len());
    // the command's own stack size (main.rs), so deep nesting behaves as in the program
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            std::panic::set_hook(Box::new(|_| {}));
            let mut rng = Rng(seed | 1);
            let mut failures = 0u64;
            let start = Instant::now();
            for n in 0..inputs {
                let input = if (n as usize) < seeds.len() {
                    seeds[n as usize].clone()
                } else {
                    mutate(&mut rng, &seeds)
                };
                let t0 = Instant::now();
                let r = std::panic::catch_unwind(|| run_one(&input));
                let kind = if r.is_err() {
                    Some("panic")
                } else if t0.elapsed() > timeout {
                    Some("slow")
                } else {
                    None
                };
                if let Some(kind) = kind {
                    failures += 1;
                    let _ = std::fs::create_dir_all(&artifacts);
                    let p = artifacts.join(format!("{kind}-{n}.smt2"));
                    let _ = std::fs::write(&p, &input);
                    eprintln!("fuzz_smtlib: {kind} on input {n}: {}", p.display());
                }
                if n > 0 && n % 5000 == 0 {
                    eprintln!(
                        "fuzz_smtlib: {n} inputs, {failures} failures, {:.0} s",
                        start.elapsed().as_secs_f64()
                    );
                }
            }
            failures
        })
        .expect("worker thread");
    let failures = worker.join().unwrap_or(1);
    eprintln!("fuzz_smtlib: done, {failures} failures");
    std::process::exit(if failures == 0 { 0 } else { 1 });
}
