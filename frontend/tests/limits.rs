//! Issue #24: limits that hold on hostile input. Each case runs the `icpic3` binary with its
//! limits and asserts the exit status, the elapsed time (`--timeout` + a generous margin: the
//! test guards against hangs and crashes, not speed) and the peak resident memory of the
//! child (`wait4`'s `ru_maxrss`, within `--memory-mb` + 10 %). The cases run one at a time so
//! that their times and memory do not disturb each other.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// How long a run may take beyond its `--timeout` before the test calls it a hang. The
/// contract is 2 s; the margin covers a loaded machine.
const MARGIN: Duration = Duration::from_secs(4);

struct Run {
    code: i32,
    elapsed: Duration,
    peak_mb: u64,
    stdout: String,
    stderr: String,
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("icpic3-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Runs the binary; kills it (and fails) when it outlives `budget`. The child is reaped by
/// `wait4` (which also gives its peak RSS), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run(args: &[&str], budget: Duration) -> Run {
    let out_path = tmp(&format!("out-{}", args.join("_").replace('/', "_")));
    let err_path = out_path.with_extension("err");
    let start = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"))
        .spawn()
        .expect("spawn icpic3");
    let pid = child.id() as libc::pid_t;
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid out-parameter for wait4
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break (status, usage);
        }
        assert!(r == 0, "wait4 failed for {args:?}");
        if start.elapsed() > budget {
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("icpic3 {args:?} still running after {budget:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let elapsed = start.elapsed();
    assert!(
        libc::WIFEXITED(status),
        "icpic3 {args:?} was killed by signal {}",
        libc::WTERMSIG(status)
    );
    Run {
        code: libc::WEXITSTATUS(status),
        elapsed,
        peak_mb: usage.ru_maxrss as u64 / 1024,
        stdout: std::fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
    }
}

/// Asserts the contract of issue #24 for one run and returns it.
fn limited(args: &[&str], timeout_s: u64, memory_mb: u64, codes: &[i32]) -> Run {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let budget = Duration::from_secs(timeout_s) + MARGIN;
    let r = run(args, budget + Duration::from_secs(20));
    eprintln!(
        "icpic3 {}: exit {}, {:.2} s, {} MB",
        args.join(" "),
        r.code,
        r.elapsed.as_secs_f64(),
        r.peak_mb
    );
    assert!(
        codes.contains(&r.code),
        "icpic3 {args:?}: exit {}\n{}\n{}",
        r.code,
        r.stdout,
        r.stderr
    );
    assert!(
        r.elapsed <= budget,
        "icpic3 {args:?} took {:?} (limit {timeout_s} s)",
        r.elapsed
    );
    assert!(
        r.peak_mb * 10 <= memory_mb * 11,
        "icpic3 {args:?} peaked at {} MB (limit {memory_mb} MB)",
        r.peak_mb
    );
    r
}

/// Removes a (large) generated input when the test ends, also on failure.
struct Remove(PathBuf);

impl Drop for Remove {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).expect("write input");
}

/// A formula of about `mb` megabytes: hundreds of thousands of clauses.
fn big_hys(mb: usize) -> PathBuf {
    let p = tmp(&format!("big{mb}.hys"));
    if p.exists() {
        return p;
    }
    let mut s = String::from("DECL\n  int [0, 1000] ");
    s += &(0..1000)
        .map(|i| format!("x{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    s += ";\nEXPR\n";
    let mut i = 0u64;
    while s.len() < mb << 20 {
        let (a, b, c) = (i * 7 % 1000, i * 13 % 997, i * 31 % 991);
        s += &format!(
            "  x{a} + x{b} >= {} or x{c} - x{a} < {} or x{a} * x{c} > {};\n",
            i % 1000,
            i % 500,
            i % 99991
        );
        i += 1;
    }
    write(&p, &s);
    p
}

fn big_smt2(mb: usize) -> PathBuf {
    let p = tmp(&format!("big{mb}.smt2"));
    if p.exists() {
        return p;
    }
    let mut s = String::from("(set-logic QF_NIA)\n");
    for i in 0..1000 {
        s += &format!("(declare-const x{i} Int)\n");
    }
    let mut i = 0u64;
    while s.len() < mb << 20 {
        let (a, b, c) = (i * 7 % 1000, i * 13 % 997, i * 31 % 991);
        s += &format!(
            "(assert (or (>= (+ x{a} x{b}) {}) (< (- x{c} x{a}) {}) (> (* x{a} x{c}) {})))\n",
            i % 1000,
            i % 500,
            i % 99991
        );
        i += 1;
    }
    s += "(check-sat)\n";
    write(&p, &s);
    p
}

#[test]
fn huge_exponent_ends_within_the_timeout() {
    let p = tmp("pow.hys");
    write(&p, "DECL float [0, 10] x; EXPR x^1000000000 > 2;\n");
    let r = limited(
        &["solve", "--timeout", "2", p.to_str().unwrap()],
        2,
        4096,
        &[0, 10, 20],
    );
    assert!(!r.stdout.is_empty());
}

#[test]
fn nested_doubling_macros_end_within_the_timeout() {
    let p = tmp("macros.smt2");
    let mut s = String::from(
        "(set-logic QF_LRA)\n(declare-const x Real)\n(define-fun f0 ((y Real)) Real (+ y y))\n",
    );
    for k in 1..=19 {
        s += &format!(
            "(define-fun f{k} ((y Real)) Real (f{} (f{} y)))\n",
            k - 1,
            k - 1
        );
    }
    s += "(assert (> (f19 x) 1.0))\n(check-sat)\n";
    write(&p, &s);
    let r = limited(
        &["solve", "--timeout", "2", p.to_str().unwrap()],
        2,
        4096,
        &[0],
    );
    assert_eq!(r.stdout.trim(), "unknown", "{}", r.stderr);
    // and with a memory limit instead of a timeout
    let r = limited(
        &["solve", "--memory-mb", "200", p.to_str().unwrap()],
        10,
        200,
        &[0],
    );
    assert_eq!(r.stdout.trim(), "unknown", "{}", r.stderr);
}

#[test]
fn huge_push_counts_are_errors() {
    let p = tmp("push.smt2");
    write(&p, "(push 4294967296)\n(check-sat)\n");
    let r = limited(
        &[
            "solve",
            "--timeout",
            "2",
            "--memory-mb",
            "200",
            p.to_str().unwrap(),
        ],
        2,
        200,
        &[1],
    );
    assert!(
        r.stderr.contains(":1:1: error: push: at most"),
        "{}",
        r.stderr
    );
}

#[test]
fn big_inputs_end_at_the_time_and_memory_limits() {
    for p in [big_hys(50), big_smt2(50)] {
        let _cleanup = Remove(p.clone());
        let f = p.to_str().unwrap();
        limited(&["solve", "--timeout", "1", f], 1, 4096, &[0]);
        limited(&["solve", "--memory-mb", "200", f], 10, 200, &[0]);
        limited(&["check", "--memory-mb", "200", f], 10, 200, &[0, 1]);
        // the maximum input size: a clear error before anything is parsed
        let r = limited(&["solve", "--max-input-mb", "10", f], 1, 4096, &[1]);
        assert!(r.stderr.contains("maximum input size"), "{}", r.stderr);
    }
}

#[test]
fn huge_timeouts_saturate() {
    let p = tmp("small.hys");
    write(&p, "DECL int [0, 10] x; EXPR x > 2;\n");
    let r = limited(
        &["solve", "--timeout", "1e308", p.to_str().unwrap()],
        1,
        4096,
        &[10],
    );
    assert_eq!(r.stdout.lines().next(), Some("SATISFIABLE"));
}

#[test]
fn devices_are_refused() {
    for dev in ["/dev/zero", "/dev/urandom"] {
        if !Path::new(dev).exists() {
            continue;
        }
        let r = limited(
            &["solve", "--timeout", "2", "--memory-mb", "200", dev],
            2,
            200,
            &[1],
        );
        assert!(r.stderr.contains("character device"), "{}", r.stderr);
        limited(&["check", dev], 2, 4096, &[1]);
    }
}

#[test]
fn a_fifo_without_writer_ends_at_the_timeout() {
    let p = tmp("nowriter.hys");
    let _ = std::fs::remove_file(&p);
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path
    if unsafe { libc::mkfifo(c.as_ptr(), 0o600) } != 0 {
        return; // no FIFOs here
    }
    let r = limited(
        &["solve", "--timeout", "1", p.to_str().unwrap()],
        1,
        4096,
        &[0],
    );
    assert_eq!(r.stdout.trim(), "UNKNOWN");
    // with a writer, the pipe is read like a file
    let path = p.clone();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .expect("open fifo");
        let _ = f.write_all(b"DECL int [0, 10] x; EXPR x > 2;\n");
    });
    let r = limited(
        &["solve", "--timeout", "5", p.to_str().unwrap()],
        5,
        4096,
        &[10],
    );
    let _ = writer.join();
    assert_eq!(r.stdout.lines().next(), Some("SATISFIABLE"));
}

/// A large C file (10 MB of branches): preprocessing and parsing cannot be interrupted from
/// inside, so they run under the command's deadline (cpp is killed, the parser's wait ends);
/// the translation and the encoder poll it. Before, `--timeout 1` took 15 s here.
#[test]
fn a_large_c_file_ends_at_the_timeout() {
    if std::process::Command::new("cpp")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no C preprocessor (scripts/setup.sh installs gcc)");
        return;
    }
    let p = tmp("big.c");
    let _cleanup = Remove(p.clone());
    let mut text =
        String::from("extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n");
    for k in 0..40 {
        text += &format!("int f{k}(int x) {{\n");
        for i in 0..5000 {
            text += &format!("  if (x == {i}) x = x * 3 + {i}; else x = x + 1;\n");
        }
        text += "  return x;\n}\n";
    }
    text += "int main(void) { int x = __VERIFIER_nondet_int(); if (f0(x) == 12345) reach_error(); return 0; }\n";
    write(&p, &text);
    let r = limited(
        &["solve", "--timeout", "1", p.to_str().unwrap()],
        1,
        4096,
        &[0],
    );
    assert!(r.stdout.starts_with("unknown"), "{}", r.stdout);
    // the translation of a smaller one stops at the deadline too
    let q = tmp("long.c");
    let _cleanup_q = Remove(q.clone());
    let mut text = String::from("extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) { int x = __VERIFIER_nondet_int();\n");
    for i in 0..20000 {
        text += &format!("  if (x == {i}) x = x * 3 + {i}; else x = x + 1;\n");
    }
    text += "  if (x == 12345) reach_error(); return 0; }\n";
    write(&q, &text);
    let r = limited(
        &["solve", "--timeout", "2", q.to_str().unwrap()],
        2,
        4096,
        &[0],
    );
    assert!(r.stdout.starts_with("unknown"), "{}", r.stdout);
}
