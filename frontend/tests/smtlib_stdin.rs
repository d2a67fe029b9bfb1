//! `icpic3 solve -`: an SMT-LIB script on standard input, answered command by command as a
//! portfolio framework drives a solver over a pipe. The test writes one command, waits for
//! its answer, then writes the next, with standard input kept open: an implementation that
//! read to the end of the input before answering would time out here (it never hangs: every
//! read has a deadline and the child is killed on failure).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(60);

struct Solver {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Solver {
    fn start() -> Solver {
        let mut child = Command::new(env!("CARGO_BIN_EXE_icpic3"))
            .args(["solve", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("icpic3 starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Solver {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// The next line of the answer, within [`WAIT`] (the child is killed otherwise).
    fn answer(&mut self, after: &str) -> String {
        match self.lines.recv_timeout(WAIT) {
            Ok(l) => l,
            Err(e) => {
                let _ = self.child.kill();
                panic!("no answer to {after:?} while standard input stays open ({e})");
            }
        }
    }

    fn ask(&mut self, command: &str) -> String {
        self.send(command);
        self.answer(command)
    }

    /// Exit code after `(exit)` or an error, within [`WAIT`].
    fn finish(mut self) -> (i32, String) {
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let mut err = String::new();
                if let Some(mut e) = self.child.stderr.take() {
                    let _ = std::io::Read::read_to_string(&mut e, &mut err);
                }
                return (status.code().unwrap_or(-1), err);
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("icpic3 did not end");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn each_check_sat_is_answered_before_the_next_command_is_sent() {
    let mut s = Solver::start();
    s.send("(set-logic ALL)\n(declare-const x Int)\n(declare-const y Int)\n");
    s.send("(declare-const b Bool)\n(declare-const f Float32)\n");
    // a command over several lines and writes
    s.send("(assert\n");
    s.send("  (> x 2)) ; a comment (with a paren\n");
    assert_eq!(s.ask("(check-sat)\n"), "sat");
    // get-value of every declared input, also those no assertion mentions
    let v = s.ask("(get-value (x y b f))\n");
    assert!(v.starts_with("((x "), "{v}");
    let x: i64 = v["((x ".len()..]
        .split(')')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(x > 2, "{v}");
    for part in ["(y ", "(b ", "(f (fp #b"] {
        assert!(v.contains(part), "{v}");
    }
    assert_eq!(s.ask("(push 1)\n(assert (< x 0))\n(check-sat)\n"), "unsat");
    assert_eq!(s.ask("(pop 1)\n(check-sat)\n"), "sat");
    // an assertion icpic3 cannot express is dropped: `unknown`, and the reason on request
    s.send("(declare-fun g (Int) Int)\n(assert (= (g x) 7))\n");
    assert_eq!(s.ask("(check-sat)\n"), "unknown");
    let why = s.ask("(get-info :reason-unknown)\n");
    assert!(why.starts_with("(:reason-unknown \""), "{why}");
    assert!(why.contains("unsupported assertion"), "{why}");
    assert_eq!(s.ask("(echo \"still here\")\n"), "\"still here\"");
    s.send("(exit)\n");
    let (code, err) = s.finish();
    // Part E.3: the last check-sat's code (unknown: 0)
    assert_eq!(code, 0, "{err}");
}

#[test]
fn an_error_ends_the_run_with_exit_1_while_input_is_still_open() {
    let mut s = Solver::start();
    assert_eq!(
        s.ask("(declare-const x Real)\n(assert (> x 1.5))\n(check-sat)\n"),
        "sat"
    );
    let e = s.ask("(assert (> y 1))\n");
    assert!(
        e.starts_with("(error \"<stdin>:4:12: unknown constant"),
        "{e}"
    );
    let (code, err) = s.finish();
    assert_eq!(code, 1);
    // the compiler-style report: position, the line and a caret
    assert!(
        err.contains("<stdin>:4:12: error: unknown constant 'y'"),
        "{err}"
    );
    assert!(
        err.contains(" 4 | (assert (> y 1))\n   |            ^"),
        "{err}"
    );
}

#[test]
fn end_of_input_ends_the_run() {
    let mut s = Solver::start();
    assert_eq!(
        s.ask("(declare-const x Int)\n(assert (and (> x 0) (< x 0)))\n(check-sat)\n"),
        "unsat"
    );
    drop(s.stdin.take());
    assert_eq!(s.finish().0, 20);
    // an unfinished command at the end is an error
    let mut s = Solver::start();
    s.send("(check-sat");
    drop(s.stdin.take());
    let e = s.answer("an unfinished command");
    assert!(e.starts_with("(error \"<stdin>:1:1:"), "{e}");
    assert_eq!(s.finish().0, 1);
}
