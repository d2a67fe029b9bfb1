//! A mutation fuzzer for the `.hys` pipeline (parse → check → lower → print → re-parse) that
//! runs on stable Rust. Inputs are arbitrary bytes, corpus files mutated at byte and token
//! level, and splices of two files. A failure is a panic, a hang (an input that takes longer
//! than `--timeout-ms`), or a broken round trip (`parse(print(ast)) != ast`); each failing
//! input is written to the artifacts directory and the run exits non-zero.
//!
//! cargo run --release -p frontend --example fuzz_hys -- --inputs 10000000

use frontend::hys::{self, parser, printer};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Options {
    inputs: u64,
    seconds: Option<f64>,
    seed: u64,
    threads: usize,
    corpus: Vec<PathBuf>,
    max_seed_size: usize,
    timeout: Duration,
    artifacts: PathBuf,
}

fn usage() -> ! {
    eprintln!(
        "usage: fuzz_hys [--inputs N] [--seconds S] [--seed N] [--threads N] [--corpus DIR]... \
         [--max-seed-size BYTES] [--timeout-ms MS] [--artifacts DIR]"
    );
    std::process::exit(2);
}

fn parse_options() -> Options {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut o = Options {
        inputs: 100_000,
        seconds: None,
        seed: 0x1c91c3,
        threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
        corpus: Vec::new(),
        max_seed_size: 4096,
        timeout: Duration::from_millis(2000),
        artifacts: root.join("target/fuzz-artifacts"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--inputs" => o.inputs = val().parse().unwrap_or_else(|_| usage()),
            "--seconds" => o.seconds = Some(val().parse().unwrap_or_else(|_| usage())),
            "--seed" => o.seed = val().parse().unwrap_or_else(|_| usage()),
            "--threads" => o.threads = val().parse().unwrap_or_else(|_| usage()),
            "--corpus" => o.corpus.push(PathBuf::from(val())),
            "--max-seed-size" => o.max_seed_size = val().parse().unwrap_or_else(|_| usage()),
            "--timeout-ms" => {
                o.timeout = Duration::from_millis(val().parse().unwrap_or_else(|_| usage()))
            }
            "--artifacts" => o.artifacts = PathBuf::from(val()),
            _ => usage(),
        }
    }
    if o.corpus.is_empty() {
        let shared = std::env::var_os("ICPIC3_BENCHMARKS")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("../shared/benchmarks"));
        o.corpus.push(shared.join("hys-public"));
        o.corpus.push(root.join("examples"));
    }
    o
}

/// Snippets that exercise what the public corpus lacks (Part B, every operator and
/// function, numbers at the edges).
const SNIPPETS: &[&str] = &[
    "DECL fp64 x, y; fp32 [0, 1] f; EXPR not feq(x, x); fadd(x, y, RTZ) < 0.1; to_fp64(f) = y;",
    "DECL int32 a; uint8 [0, 200] b; int [0, 300] n; EXPR bitand(a, 7) = 3; b + 250 < b; to_int32(n) = a; shr(a, 2) != 0;",
    "DECL fp32 x; EXPR isnan(x) or isinf(x) or iszero(x) or issubnormal(x) or isnormal(x) or isneg(x);",
    "DECL fp64 a, b, c; EXPR ffma(a, b, c, RNA) = fsqrt(a, RTP); fmin(a, b) <= fmax(b, c); fabs(a) > 1e308; to_int64(a) = to_int64(b);",
    "DECL float [-1, 1] x; int [0, 5] k; boole b; EXPR sin(x)^2 + cos(x)^2 = 1; exp(x) > log(x + 2); nrt(x, 3) < tan(x); ite(b, x, -x) = abs(x); exp2(x) + exp10(x) + log2(x + 3) + log10(x + 4) > sqrt(x + 1); min(x, k) < max(x, k) / 2;",
    "DECL define A = 0x1.8p+1; define B = A ^ 3 - 1e-3; static float [0, B] s; float (0, 1) t; INIT t = 0.5; TRANS t' = t * s; s >= 1 -> t' <= t; TARGET t > 0.99;",
    "DECL boole a, b, c; EXPR a xor b nxor c; a nand b nor c; a -> b <- c <-> a; a iff b xnor c implies a; !a && b || c & true;",
    "DECL int [-5, 5] x; EXPR 0 <= x <= 1; -x^2 < 0; abs x > 2; x != 3; {x + [x - (x)]} = 1;",
    "DECL uint64 u; int64 i; int16 h; uint32 w; EXPR to_uint64(i) = u; to_int16(w) = h; bitnot(w) = bitor(w, bitxor(w, 1)); shl(h, 3) = h * 8; u / 3 = u % 5;",
    "DECL fp64 x; fp32 y; EXPR to_fp32(x, RTN) = y; to_real(y) >= 0.5; to_fp64(y) = x; -x = x;",
    "DECL float [0, 1000000000000000000000000000000000000000000000000000] x; EXPR x = 123456789012345678901234567890.123456789012345678901234567890;",
];

/// Tokens inserted by token-level mutations.
const DICTIONARY: &[&str] = &[
    "DECL",
    "EXPR",
    "INIT",
    "TRANS",
    "TARGET",
    "define",
    "static",
    "boole",
    "int",
    "float",
    "fp32",
    "fp64",
    "int8",
    "uint64",
    "int32",
    "and",
    "or",
    "not",
    "xor",
    "nand",
    "nor",
    "nxor",
    "xnor",
    "impl",
    "implies",
    "iff",
    "->",
    "<->",
    "<-",
    "!",
    "&&",
    "&",
    "||",
    "true",
    "false",
    "<",
    "<=",
    "=",
    "!=",
    ">=",
    ">",
    "+",
    "-",
    "*",
    "/",
    "%",
    "^",
    "'",
    ";",
    ";;",
    ",",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "--",
    "\n",
    " ",
    "abs(",
    "min(",
    "max(",
    "sin(",
    "cos(",
    "tan(",
    "exp(",
    "exp2(",
    "log(",
    "log10(",
    "nrt(",
    "pow(",
    "sqrt(",
    "ite(",
    "fadd(",
    "fsub(",
    "fmul(",
    "fdiv(",
    "fsqrt(",
    "ffma(",
    "fabs(",
    "fmin(",
    "fmax(",
    "feq(",
    "isnan(",
    "to_fp32(",
    "to_fp64(",
    "to_real(",
    "to_int(",
    "to_int8(",
    "to_uint32(",
    "bitand(",
    "bitor(",
    "bitnot(",
    "shl(",
    "shr(",
    "RNE",
    "RNA",
    "RTP",
    "RTN",
    "RTZ",
    "0",
    "1",
    "-1",
    "0.5",
    "1e-3",
    "1E+2",
    "0x1.8p+1",
    "0x1p-1074",
    "1e308",
    "1e999999999",
    "1e-999999999",
    "2^1000000",
    "99999999999999999999999999",
    ".5",
    "5.",
    "x",
    "y",
    "x'",
    "d.x",
    "%%%",
    "//",
    "#",
    "\u{0}",
    "é",
    "\r\n",
];

#[path = "common/hostile.rs"]
mod hostile;
#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

fn collect_seeds(dirs: &[PathBuf], max_size: usize) -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = SNIPPETS.iter().map(|s| s.as_bytes().to_vec()).collect();
    let mut stack: Vec<PathBuf> = dirs.to_vec();
    let mut files = Vec::new();
    while let Some(p) = stack.pop() {
        if let Ok(rd) = std::fs::read_dir(&p) {
            for e in rd.flatten() {
                let path = e.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|x| x == "hys") {
                    files.push(path);
                }
            }
        }
    }
    files.sort();
    for f in files {
        if let Ok(b) = std::fs::read(&f) {
            if b.len() <= max_size {
                seeds.push(b);
            }
        }
    }
    seeds
}

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    if rng.below(50) == 0 {
        // a hostile shape (issue #24)
        return hostile::hys(rng).into_bytes();
    }
    let mode = rng.below(10);
    if mode == 0 {
        // arbitrary bytes, biased towards printable text
        let n = rng.below(300);
        return (0..n)
            .map(|_| {
                if rng.below(4) == 0 {
                    rng.next() as u8
                } else {
                    b" \n()[];,=<>+-*/^'!&|abcdexyzDECLEXPR0123456789.".to_vec()[rng.below(45)]
                }
            })
            .collect();
    }
    let mut data = seeds[rng.below(seeds.len())].clone();
    // Mostly one or two mutations, so that many inputs stay close to valid and reach the
    // checker and the lowering; sometimes many.
    let rounds = if rng.below(4) == 0 {
        1 + rng.below(8)
    } else {
        1 + rng.below(2)
    };
    for _ in 0..rounds {
        let len = data.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                data[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                data[i] = rng.next() as u8;
            }
            2 if len > 0 => {
                let a = rng.below(len);
                let b = (a + 1 + rng.below(32)).min(len);
                data.drain(a..b);
            }
            3 if len > 0 => {
                let a = rng.below(len);
                let b = (a + 1 + rng.below(64)).min(len);
                let chunk = data[a..b].to_vec();
                let at = rng.below(data.len() + 1);
                data.splice(at..at, chunk);
            }
            4..=6 => {
                let tok = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
                let at = rng.below(len + 1);
                data.splice(at..at, tok.iter().copied());
            }
            7 => {
                // splice with another seed
                let other = &seeds[rng.below(seeds.len())];
                let cut = rng.below(len + 1);
                let ocut = rng.below(other.len() + 1);
                data.truncate(cut);
                data.extend_from_slice(&other[ocut..]);
            }
            _ => {
                // repeat a bracket or operator many times (nesting and chains)
                let tok = ["(", "-", "!", "x + ", "a and ", "{", "not "][rng.below(7)];
                let n = 1 + rng.below(3000);
                let at = rng.below(len + 1);
                let rep = tok.repeat(n);
                data.splice(at..at, rep.bytes());
            }
        }
    }
    data
}

/// The input a worker is running and when it started (read by the watchdog).
type InFlight = Arc<Mutex<(Instant, Vec<u8>)>>;

#[derive(Default)]
struct Counts {
    parsed: AtomicU64,
    lowered: AtomicU64,
}

/// One input through the pipeline; `Err` describes a property violation.
fn run_one(bytes: &[u8], counts: &Counts) -> Result<(), String> {
    let text = String::from_utf8_lossy(bytes);
    // the phases stop at a deadline, as under `--timeout` (issue #24)
    solver::budget::set_deadline(Some(Instant::now() + Duration::from_millis(200)));
    if let Ok(mut ast) = parser::parse(&text) {
        counts.parsed.fetch_add(1, Ordering::Relaxed);
        let printed = printer::print(&ast);
        match parser::parse(&printed) {
            Ok(mut again) => {
                ast.strip_spans();
                again.strip_spans();
                if ast != again {
                    return Err("round trip changed the syntax tree".into());
                }
            }
            // the deadline passed while re-parsing: no verdict on the round trip
            Err(_) if solver::budget::stopped().is_some() => return Ok(()),
            Err(d) => return Err(format!("printed text does not parse: {}", d.message)),
        }
    }
    if let Ok(loaded) = hys::load(&text) {
        counts.lowered.fetch_add(1, Ordering::Relaxed);
        let _ = loaded.dump();
        if let hys::Lowered::Transition(ts) = &loaded.lowered {
            ts.validate()?;
        }
    }
    Ok(())
}

fn save_artifact(dir: &Path, kind: &str, bytes: &[u8]) -> PathBuf {
    let _ = std::fs::create_dir_all(dir);
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
    }
    let path = dir.join(format!("{kind}-{h:016x}.hys"));
    let _ = std::fs::write(&path, bytes);
    path
}

fn main() {
    let o = parse_options();
    let seeds = Arc::new(collect_seeds(&o.corpus, o.max_seed_size));
    if seeds.len() <= SNIPPETS.len() {
        eprintln!(
            "fuzz_hys: no corpus files found under {:?} (set ICPIC3_BENCHMARKS or --corpus)",
            o.corpus
        );
        std::process::exit(2);
    }
    std::panic::set_hook(Box::new(|_| {}));
    let counts = Arc::new(Counts::default());
    let claimed = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicU64::new(0));
    let failures = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let deadline = o.seconds.map(|s| start + Duration::from_secs_f64(s));
    // Per worker: the input in flight and when it started (for the watchdog).
    let in_flight: Vec<InFlight> = (0..o.threads)
        .map(|_| Arc::new(Mutex::new((Instant::now(), Vec::new()))))
        .collect();
    let mut handles = Vec::new();
    for (t, slot) in in_flight.iter().enumerate() {
        let seeds = seeds.clone();
        let counts = counts.clone();
        let claimed = claimed.clone();
        let done = done.clone();
        let failures = failures.clone();
        let stop = stop.clone();
        let slot = slot.clone();
        let artifacts = o.artifacts.clone();
        let inputs = o.inputs;
        let seed = o.seed;
        let h = std::thread::Builder::new()
            .stack_size(8 << 20) // like the main thread of the icpic3 binary
            .spawn(move || {
                let mut rng = Rng(seed ^ (t as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
                loop {
                    if stop.load(Ordering::Relaxed)
                        || claimed.fetch_add(1, Ordering::Relaxed) >= inputs
                    {
                        break;
                    }
                    let input = mutate(&mut rng, &seeds);
                    if let Ok(mut s) = slot.lock() {
                        s.0 = Instant::now();
                        s.1.clone_from(&input);
                    }
                    let result = std::panic::catch_unwind(|| run_one(&input, &counts));
                    let failure = match result {
                        Ok(Ok(())) => None,
                        Ok(Err(msg)) => Some(("roundtrip", msg)),
                        Err(p) => {
                            let msg = p
                                .downcast_ref::<&str>()
                                .map(|s| s.to_string())
                                .or_else(|| p.downcast_ref::<String>().cloned())
                                .unwrap_or_else(|| "panic".into());
                            Some(("panic", msg))
                        }
                    };
                    if let Some((kind, msg)) = failure {
                        failures.fetch_add(1, Ordering::Relaxed);
                        let path = save_artifact(&artifacts, kind, &input);
                        eprintln!(
                            "fuzz_hys: {kind}: {msg} (input saved to {})",
                            path.display()
                        );
                    }
                    if let Ok(mut s) = slot.lock() {
                        s.1.clear();
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                }
            })
            .expect("spawn fuzz worker");
        handles.push(h);
    }
    // Watchdog: a hang cannot be interrupted inside a thread, so save the input and exit.
    let mut last_report = Instant::now();
    while handles.iter().any(|h| !h.is_finished()) {
        std::thread::sleep(Duration::from_millis(50));
        for slot in &in_flight {
            if let Ok(s) = slot.lock() {
                if !s.1.is_empty() && s.0.elapsed() > o.timeout {
                    let path = save_artifact(&o.artifacts, "hang", &s.1);
                    eprintln!(
                        "fuzz_hys: hang: an input took longer than {:?} (saved to {})",
                        o.timeout,
                        path.display()
                    );
                    std::process::exit(1);
                }
            }
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            stop.store(true, Ordering::Relaxed);
        }
        if last_report.elapsed() > Duration::from_secs(30) {
            last_report = Instant::now();
            eprintln!(
                "fuzz_hys: {} inputs in {:.0} s",
                done.load(Ordering::Relaxed),
                start.elapsed().as_secs_f64()
            );
        }
    }
    for h in handles {
        let _ = h.join();
    }
    let n = done.load(Ordering::Relaxed);
    let f = failures.load(Ordering::Relaxed);
    println!(
        "fuzz_hys: {} inputs ({} seeds), {} parsed, {} lowered, {} failures, {:.1} s, {:.0} inputs/s",
        n,
        seeds.len(),
        counts.parsed.load(Ordering::Relaxed),
        counts.lowered.load(Ordering::Relaxed),
        f,
        start.elapsed().as_secs_f64(),
        n as f64 / start.elapsed().as_secs_f64()
    );
    std::process::exit(if f == 0 { 0 } else { 1 });
}
