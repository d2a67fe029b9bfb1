//! Verdicts, expected answers, reading a verdict from a solver's output, and the
//! correct/wrong classification every measurement of the project rests on.

use std::fmt;

/// What one run answered, in icpic3's vocabulary (language doc Part C) plus the runner's own
/// outcomes for runs that gave no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    Sat,
    Unsat,
    Safe,
    Unsafe,
    Candidate,
    Unknown,
    /// Killed at the wall-clock limit.
    Timeout,
    /// Ran out of the memory limit (recognised from the allocator's complaint on stderr).
    Memout,
    /// Crash, unexpected exit code, or no verdict in the output.
    Error,
}

/// Whether a definite verdict claims a witness exists (a model or a trace: SATISFIABLE,
/// UNSAFE) or that none exists (UNSATISFIABLE, SAFE). Correctness is judged on this, so a
/// transition system answered in SAT/UNSAT terms (SMT-LIB peers, EXPR encodings) still counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Polarity {
    Witness,
    NoWitness,
}

impl Verdict {
    pub const ALL: [Verdict; 9] = [
        Verdict::Sat,
        Verdict::Unsat,
        Verdict::Safe,
        Verdict::Unsafe,
        Verdict::Candidate,
        Verdict::Unknown,
        Verdict::Timeout,
        Verdict::Memout,
        Verdict::Error,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Sat => "SATISFIABLE",
            Verdict::Unsat => "UNSATISFIABLE",
            Verdict::Safe => "SAFE",
            Verdict::Unsafe => "UNSAFE",
            Verdict::Candidate => "CANDIDATE SOLUTION",
            Verdict::Unknown => "UNKNOWN",
            Verdict::Timeout => "TIMEOUT",
            Verdict::Memout => "MEMOUT",
            Verdict::Error => "ERROR",
        }
    }

    pub fn polarity(self) -> Option<Polarity> {
        match self {
            Verdict::Sat | Verdict::Unsafe => Some(Polarity::Witness),
            Verdict::Unsat | Verdict::Safe => Some(Polarity::NoWitness),
            _ => None,
        }
    }

    pub fn is_definite(self) -> bool {
        self.polarity().is_some()
    }

    /// Reads a verdict name as the runner writes it (the inverse of `as_str`).
    pub fn from_name(s: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// The exit code icpic3 must give with this verdict (Part C), for the six solver verdicts.
    fn contract_exit_code(self) -> Option<i32> {
        match self {
            Verdict::Sat | Verdict::Unsafe => Some(10),
            Verdict::Unsat | Verdict::Safe => Some(20),
            Verdict::Candidate | Verdict::Unknown => Some(0),
            _ => None,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a run is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Definite verdict agreeing with a definite expectation.
    Correct,
    /// Definite verdict contradicting a definite expectation.
    Wrong,
    /// Definite verdict, but the problem has no definite expected answer to check it against.
    Unchecked,
    /// CANDIDATE SOLUTION, UNKNOWN, TIMEOUT or MEMOUT: no claim made, never wrong.
    Unresolved,
    /// The run failed (crash, bad exit code, no verdict); never wrong, but reported.
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Correct => "correct",
            Status::Wrong => "wrong",
            Status::Unchecked => "unchecked",
            Status::Unresolved => "unresolved",
            Status::Error => "error",
        }
    }

    /// Solved for PAR-2 and time ratios: a definite answer that is not known to be wrong.
    pub fn is_solved(self) -> bool {
        matches!(self, Status::Correct | Status::Unchecked)
    }
}

/// Scores a verdict against the expected answer (`None` = no definite expectation).
pub fn classify(expected: Option<Verdict>, got: Verdict) -> Status {
    if got == Verdict::Error {
        return Status::Error;
    }
    let Some(p) = got.polarity() else {
        return Status::Unresolved;
    };
    match expected.and_then(Verdict::polarity) {
        None => Status::Unchecked,
        Some(e) if e == p => Status::Correct,
        Some(_) => Status::Wrong,
    }
}

/// Reads an expected answer written in any of the benchmark sets' vocabularies: the verdict
/// words, SMT-LIB `sat`/`unsat`, iSAT3's lines (`UNSAFE [target is reachable ...]`), the
/// manual's `SATISFIABLE, a=3 ...`. `Ok(None)` for the explicit non-answers (`unknown`,
/// `timeout`, `error`, `CANDIDATE SOLUTION`, dReal's `delta-sat`, empty); `Err` for anything
/// unrecognised, so that a typo in a list file is not silently an absent expectation.
pub fn parse_expected(s: &str) -> Result<Option<Verdict>, String> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    match lower.as_str() {
        "" | "-" | "unknown" | "timeout" | "error" | "none" => return Ok(None),
        "sat" => return Ok(Some(Verdict::Sat)),
        "unsat" => return Ok(Some(Verdict::Unsat)),
        _ => {}
    }
    if lower.starts_with("delta-sat") {
        // dReal's answer: satisfiable after relaxing every constraint, not exact sat.
        return Ok(None);
    }
    match verdict_at_line_start(t) {
        Some(v) if v.is_definite() => Ok(Some(v)),
        Some(_) => Ok(None),
        None => Err(format!("unrecognised expected answer '{t}'")),
    }
}

/// Normalises a recorded iSAT3 answer (`isat3_0.02_verdict` of the manifests) to a short
/// word: the verdict, `NO_VERDICT`, or `PARSE_ERROR` (the manifests record isat3's error
/// message, which starts with `isat3:`).
pub fn normalise_isat3_record(s: &str) -> Option<String> {
    let t = s.trim();
    if t.is_empty() {
        return None;
    }
    if let Some(v) = verdict_at_line_start(t) {
        return Some(v.as_str().to_string());
    }
    if t.starts_with("NO_VERDICT") {
        return Some("NO_VERDICT".to_string());
    }
    if t.starts_with("isat3:") {
        return Some("PARSE_ERROR".to_string());
    }
    Some(t.to_string())
}

/// The verdict words in the order they must be tried: longest first, so that `UNSATISFIABLE`
/// is never read as `SATISFIABLE` nor `UNSAFE` as `SAFE`.
const WORDS: [(&str, Verdict); 6] = [
    ("UNSATISFIABLE", Verdict::Unsat),
    ("CANDIDATE SOLUTION", Verdict::Candidate),
    ("SATISFIABLE", Verdict::Sat),
    ("UNKNOWN", Verdict::Unknown),
    ("UNSAFE", Verdict::Unsafe),
    ("SAFE", Verdict::Safe),
];

/// The verdict word a line starts with, if it is followed by the end of the line or a
/// non-word character (iSAT3 writes `SATISFIABLE [satisfiable with ...]`).
fn verdict_at_line_start(line: &str) -> Option<Verdict> {
    let line = line.trim_start();
    for (w, v) in WORDS {
        if let Some(rest) = line.strip_prefix(w) {
            if rest
                .chars()
                .next()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '@'))
            {
                return Some(v);
            }
        }
    }
    None
}

/// How the problem's answer is phrased by SMT-LIB solvers: for CHC problems (Horn clauses)
/// `sat` means an invariant exists, i.e. SAFE; everywhere else `sat` is SATISFIABLE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SmtlibMeaning {
    #[default]
    Plain,
    Chc,
}

/// Where a verdict was found in the output; only the contract form is cross-checked
/// against the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The first line is exactly a verdict (icpic3's contract).
    FirstLine,
    /// The last line that starts with a verdict word (iSAT3 style, also with `-v`).
    VerdictLine,
    /// A line that is exactly `sat`, `unsat`, `unknown` (SMT-LIB solvers).
    Smtlib,
    /// The `result` field of one JSON object (icpic3 `--format json`).
    Json,
}

/// Finds the verdict in a solver's standard output.
pub fn parse_output(stdout: &str, meaning: SmtlibMeaning) -> Option<(Verdict, Source)> {
    let lines: Vec<&str> = stdout
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if let Some(first) = lines.iter().find(|l| !l.trim().is_empty()) {
        if let Some((_, v)) = WORDS.iter().find(|(w, _)| *w == first.trim()) {
            return Some((*v, Source::FirstLine));
        }
        if first.trim_start().starts_with('{') {
            let start = stdout.find('{').unwrap_or(0);
            let mut stream = serde_json::Deserializer::from_str(&stdout[start..])
                .into_iter::<serde_json::Value>();
            if let Some(Ok(obj)) = stream.next() {
                let result = obj.get("result").and_then(|r| r.as_str()).unwrap_or("");
                if let Some((_, v)) = WORDS.iter().find(|(w, _)| *w == result) {
                    return Some((*v, Source::Json));
                }
            }
        }
    }
    if let Some(v) = lines.iter().rev().find_map(|l| verdict_at_line_start(l)) {
        return Some((v, Source::VerdictLine));
    }
    for l in &lines {
        let t = l.trim();
        let v = match t {
            "sat" if meaning == SmtlibMeaning::Chc => Verdict::Safe,
            "unsat" if meaning == SmtlibMeaning::Chc => Verdict::Unsafe,
            "sat" => Verdict::Sat,
            "unsat" => Verdict::Unsat,
            "unknown" | "timeout" => Verdict::Unknown,
            // dReal: satisfiable up to a relaxation delta, the analogue of a candidate box.
            _ if t.starts_with("delta-sat") => Verdict::Candidate,
            _ => continue,
        };
        return Some((v, Source::Smtlib));
    }
    None
}

/// How a process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exit::Code(c) => write!(f, "{c}"),
            Exit::Signal(s) => write!(f, "signal {s}"),
        }
    }
}

/// Allocation-failure messages of the runtimes the solvers are written in (Rust, C++, glibc,
/// shells, Python, gnulib-based tools), as printed when `RLIMIT_AS` refuses memory.
const MEMORY_MESSAGES: [&str; 7] = [
    "memory allocation of",
    "bad_alloc",
    "out of memory",
    "cannot allocate memory",
    "cannot allocate",
    "memoryerror",
    "memory exhausted",
];

/// The verdict of a finished (not timed-out) run, with a note explaining any ERROR.
///
/// Accepted exit codes are 0, 10 and 20 (icpic3's contract; iSAT3 and SMT-LIB solvers exit 0
/// with an answer). When the exit code is 10 or 20 it must match the verdict's polarity, and
/// a verdict printed before a crash does not count: a process that misbehaves is an ERROR
/// whatever it printed.
pub fn judge_run(
    stdout: &str,
    stderr: &str,
    exit: Exit,
    memory_limited: bool,
    meaning: SmtlibMeaning,
) -> (Verdict, String) {
    let parsed = parse_output(stdout, meaning);
    let stderr_lower = stderr.to_ascii_lowercase();
    let failed_for_memory =
        memory_limited && MEMORY_MESSAGES.iter().any(|m| stderr_lower.contains(m));
    let first_err = stderr
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let code = match exit {
        Exit::Code(c) => c,
        Exit::Signal(s) => {
            if failed_for_memory {
                return (
                    Verdict::Memout,
                    format!("killed by signal {s}: {first_err}"),
                );
            }
            return (Verdict::Error, format!("killed by signal {s}"));
        }
    };
    if ![0, 10, 20].contains(&code) {
        if failed_for_memory {
            return (Verdict::Memout, format!("exit {code}: {first_err}"));
        }
        return (Verdict::Error, format!("exit {code}: {first_err}"));
    }
    let Some((v, source)) = parsed else {
        if failed_for_memory {
            return (Verdict::Memout, first_err.to_string());
        }
        return (
            Verdict::Error,
            format!("no verdict in the output (exit {code})"),
        );
    };
    if code != 0 && source == Source::FirstLine && v.contract_exit_code() != Some(code) {
        return (
            Verdict::Error,
            format!("exit code {code} contradicts the printed verdict {v}"),
        );
    }
    (v, String::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    #[test]
    fn icpic3_first_line_contract() {
        let out = "UNSATISFIABLE\nstats: 12 conflicts\n";
        assert_eq!(
            parse_output(out, SmtlibMeaning::Plain),
            Some((Unsat, Source::FirstLine))
        );
        assert_eq!(
            parse_output("CANDIDATE SOLUTION\nx in [1, 2]\n", SmtlibMeaning::Plain),
            Some((Candidate, Source::FirstLine))
        );
        // The JSON format: verdict line, then one object that mentions other verdict words.
        // `--format json` of a transition system: the object alone
        assert_eq!(
            parse_output(
                "{\"depth\":2,\"result\":\"UNSAFE\",\"note\":\"SAFE never\"}\n",
                SmtlibMeaning::Plain
            ),
            Some((Verdict::Unsafe, Source::Json))
        );
        let json = "SAFE\n{\"result\":\"SAFE\",\"note\":\"UNSAFE never\"}\n";
        assert_eq!(
            parse_output(json, SmtlibMeaning::Plain),
            Some((Safe, Source::FirstLine))
        );
    }

    #[test]
    fn isat3_style_lines() {
        let cases = [
            (
                "SATISFIABLE [satisfiable with all values in the given intervals]\n",
                Sat,
            ),
            ("UNSATISFIABLE\n", Unsat),
            (
                "CANDIDATE SOLUTION [given intervals may or may not contain a solution]\n",
                Candidate,
            ),
            (
                "UNSAFE [target is reachable with all values in the given intervals]\n",
                Unsafe,
            ),
            ("SAFE [target is unreachable]\n", Safe),
        ];
        for (out, want) in cases {
            let got = parse_output(out, SmtlibMeaning::Plain).map(|(v, _)| v);
            assert_eq!(got, Some(want), "{out}");
        }
        // Verbose output: the last verdict line wins, variable dumps do not count.
        let verbose = "opening 'x.hys' for reading\nSAFE_x@5:\n    [1, 2]\nUNSAFE [target is reachable]\nx@5:\n  [3.625, 3.625]\nUNSAFE [target is reachable]\n";
        assert_eq!(
            parse_output(verbose, SmtlibMeaning::Plain),
            Some((Unsafe, Source::VerdictLine))
        );
        assert_eq!(
            parse_output("SATISFIABLEX\nUNSAFEly\n", SmtlibMeaning::Plain),
            None
        );
    }

    #[test]
    fn smtlib_lines() {
        let p = |s| parse_output(s, SmtlibMeaning::Plain).map(|(v, _)| v);
        assert_eq!(p("sat\n(model (define-fun x () Real 1.0))\n"), Some(Sat));
        assert_eq!(p("unsat\n"), Some(Unsat));
        assert_eq!(p("unknown\n"), Some(Unknown));
        assert_eq!(p("delta-sat with delta = 0.001\n"), Some(Candidate));
        assert_eq!(p("(error \"line 3: unsat core not available\")\n"), None);
        let c = |s| parse_output(s, SmtlibMeaning::Chc).map(|(v, _)| v);
        assert_eq!(c("sat\n"), Some(Safe));
        assert_eq!(c("unsat\n"), Some(Unsafe));
    }

    #[test]
    fn wrong_answer_classification() {
        assert_eq!(classify(Some(Unsat), Sat), Status::Wrong);
        assert_eq!(classify(Some(Safe), Unsafe), Status::Wrong);
        assert_eq!(classify(Some(Sat), Unsat), Status::Wrong);
        assert_eq!(classify(Some(Unsafe), Safe), Status::Wrong);
        // Polarity decides across vocabularies (an SMT-LIB peer on a safety problem).
        assert_eq!(classify(Some(Safe), Unsat), Status::Correct);
        assert_eq!(classify(Some(Unsafe), Sat), Status::Correct);
        assert_eq!(classify(Some(Sat), Sat), Status::Correct);
        assert_eq!(classify(Some(Unsat), Unsat), Status::Correct);
        for v in [Candidate, Unknown, Timeout, Memout] {
            for e in [Some(Sat), Some(Unsat), Some(Safe), None] {
                assert_eq!(classify(e, v), Status::Unresolved, "{v} vs {e:?}");
            }
        }
        assert_eq!(classify(Some(Sat), Error), Status::Error);
        assert_eq!(classify(None, Sat), Status::Unchecked);
        assert_eq!(classify(None, Safe), Status::Unchecked);
    }

    #[test]
    fn expected_vocabularies() {
        assert_eq!(parse_expected("sat"), Ok(Some(Sat)));
        assert_eq!(parse_expected("unsat"), Ok(Some(Unsat)));
        assert_eq!(parse_expected("UNSAFE"), Ok(Some(Unsafe)));
        assert_eq!(
            parse_expected("UNSAFE at depth 5 (depths 0-4 UNSAT), x@5 = 3.625"),
            Ok(Some(Unsafe))
        );
        assert_eq!(parse_expected("SATISFIABLE, a=3 b=4 c=5"), Ok(Some(Sat)));
        assert_eq!(parse_expected("delta-sat with delta = 0.001"), Ok(None));
        assert_eq!(parse_expected("timeout"), Ok(None));
        assert_eq!(parse_expected("CANDIDATE SOLUTION"), Ok(None));
        assert!(parse_expected("unsatisfiable-ish").is_err());
    }

    #[test]
    fn isat3_records() {
        let n = |s| normalise_isat3_record(s);
        assert_eq!(
            n("UNSAFE [target is reachable with all values in the given intervals]").as_deref(),
            Some("UNSAFE")
        );
        assert_eq!(
            n("NO_VERDICT(10s wall, heavily loaded host)").as_deref(),
            Some("NO_VERDICT")
        );
        assert_eq!(
            n("isat3: undeclared variable 'd'").as_deref(),
            Some("PARSE_ERROR")
        );
        assert_eq!(n(""), None);
    }

    #[test]
    fn exit_codes_and_errors() {
        let p = SmtlibMeaning::Plain;
        assert_eq!(
            judge_run("SATISFIABLE\n", "", Exit::Code(10), false, p).0,
            Sat
        );
        // iSAT3 exits 0 with its answer.
        assert_eq!(
            judge_run("UNSATISFIABLE\n", "", Exit::Code(0), false, p).0,
            Unsat
        );
        // Contract violation: exit 20 with a witness verdict.
        let (v, note) = judge_run("SATISFIABLE\n", "", Exit::Code(20), false, p);
        assert_eq!(v, Error);
        assert!(note.contains("contradicts"), "{note}");
        // Bad input, panic, crash, silence.
        assert_eq!(
            judge_run("", "f.hys:1:2: bad", Exit::Code(1), false, p),
            (Error, "exit 1: f.hys:1:2: bad".to_string())
        );
        assert_eq!(judge_run("UNSAT\n", "", Exit::Code(101), false, p).0, Error);
        assert_eq!(
            judge_run("UNSATISFIABLE\n", "", Exit::Signal(11), false, p).0,
            Error
        );
        assert_eq!(judge_run("", "", Exit::Code(0), false, p).0, Error);
        // Memory exhaustion is recognised only when a limit was set.
        let oom = "memory allocation of 1048576 bytes failed\n";
        assert_eq!(judge_run("", oom, Exit::Signal(6), true, p).0, Memout);
        assert_eq!(judge_run("", oom, Exit::Signal(6), false, p).0, Error);
        assert_eq!(
            judge_run(
                "",
                "bash: xrealloc: cannot allocate 1 bytes",
                Exit::Code(2),
                true,
                p
            )
            .0,
            Memout
        );
    }
}
