//! The `runner` command line: load suites, run every (problem, configuration) pair in
//! parallel, write `results.csv` and `summary.md`, exit non-zero on any wrong answer.

use super::exec::{self, Limits, Template};
use super::report::{self, json_stats, Record, SummaryInput};
use super::suite::{self, Problem, Suite};
use super::verdict::{classify, judge_run, Status, Verdict};
use clap::Parser;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Exit code when some run answered wrongly.
pub const EXIT_WRONG: i32 = 1;
/// Exit code for bad usage or a setup failure (nothing measured).
pub const EXIT_USAGE: i32 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "runner",
    about = "Runs solver configurations on benchmark suites and scores their answers",
    after_help = "Built-in suites: nlsat-sample, nlsat, hys-transition, smtlib-status, \
transition-systems, transition-systems-chc, svcomp-floats.\n\
Exit code: 0 no wrong answer, 1 some wrong answer (listed on stderr), 2 usage/setup error."
)]
pub struct Args {
    /// A built-in suite name, a directory of problem files, an expected-answer file
    /// (MANIFEST.tsv, Z3_BOUNDED.tsv, expected.csv) or a plain list (path[<TAB>expected] per
    /// line). Repeatable.
    #[arg(long = "suite", value_name = "PATH", required = true)]
    pub suites: Vec<String>,
    /// Expected answers for the --suite directories (any format --suite accepts as a file).
    #[arg(long, value_name = "FILE")]
    pub expected: Option<PathBuf>,
    /// Keep only problems whose name contains this substring, or matches it as a glob
    /// (`*`, `?`) when it has one. Names are relative to the shared benchmark directory.
    #[arg(long, value_name = "PATTERN")]
    pub filter: Option<String>,
    /// Keep every N-th problem (after --filter), starting with the first.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub every: usize,
    /// Keep at most N problems per suite (after --every).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// A configuration: NAME=COMMAND, where COMMAND has a {file} and optionally a {timeout}
    /// placeholder (whole seconds, rounded up). Repeatable. Default:
    /// icpic3=<repo>/target/release/icpic3 solve {file}, built first.
    #[arg(long = "config", value_name = "NAME=COMMAND")]
    pub configs: Vec<String>,
    /// With the default configuration: do not run `cargo build --release -p frontend` first.
    #[arg(long)]
    pub no_build: bool,
    /// Parallel runs (default: number of cores).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Wall-clock limit per run in seconds; the process group is killed (verdict TIMEOUT).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub timeout: f64,
    /// Address-space limit per run (setrlimit RLIMIT_AS in the child); 0 = none.
    #[arg(long = "memory-mb", value_name = "MB", default_value_t = 4096)]
    pub memory_mb: u64,
    /// Result directory (default: benchmarks/results/<UTC timestamp>).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `YYYYMMDD-HHMMSS` and `YYYY-MM-DD HH:MM:SS UTC` for a time, without a date crate.
pub fn utc_stamps(t: SystemTime) -> (String, String) {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (h, mi, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        format!("{y:04}{m:02}{d:02}-{h:02}{mi:02}{s:02}"),
        format!("{y:04}-{m:02}-{d:02} {h:02}:{mi:02}:{s:02} UTC"),
    )
}

/// Parses `NAME=COMMAND`.
pub fn parse_config(s: &str) -> Result<(String, Template, String), String> {
    let (name, cmd) = s
        .split_once('=')
        .ok_or_else(|| format!("--config {s}: expected NAME=COMMAND"))?;
    let name = name.trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || "-_.+".contains(c))
    {
        return Err(format!(
            "--config {s}: the name must be non-empty letters, digits, - _ . +"
        ));
    }
    let t = Template::parse(cmd).map_err(|e| format!("--config {name}: {e}"))?;
    Ok((name.to_string(), t, cmd.trim().to_string()))
}

/// Whether a program can be started: a path that exists, or a name found on PATH.
fn program_exists(p: &str) -> bool {
    if p.contains('/') {
        return Path::new(p).is_file();
    }
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|d| d.join(p).is_file()))
        .unwrap_or(false)
}

fn default_config(no_build: bool) -> Result<String, String> {
    let root = repo_root();
    let bin = root.join("target/release/icpic3");
    if !no_build {
        // A stale binary would silently measure old code; cargo makes this a no-op when
        // nothing changed.
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        eprintln!("runner: building icpic3 (cargo build --release -p frontend --bin icpic3)");
        let st = std::process::Command::new(cargo)
            .args(["build", "--release", "-p", "frontend", "--bin", "icpic3"])
            .current_dir(&root)
            .status()
            .map_err(|e| format!("cannot run cargo to build icpic3: {e}"))?;
        if !st.success() {
            return Err("building icpic3 failed".to_string());
        }
    }
    if !bin.is_file() {
        return Err(format!(
            "{} does not exist: build it with `cargo build --release -p frontend` or give --config",
            bin.display()
        ));
    }
    let canon = std::fs::canonicalize(&bin).unwrap_or(bin);
    Ok(format!("icpic3={} solve {{file}}", canon.display()))
}

/// One (problem, configuration) pair to run.
struct Task {
    suite: usize,
    problem: Problem,
    config: usize,
}

struct Done {
    index: usize,
    record: Record,
    /// Output kept for runs worth debugging (wrong, error, memout).
    log: Option<(String, String)>,
}

/// The 1, 5 and 15 minute load averages: on a shared host they say how far wall-clock times
/// can be trusted.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn machine_lines() -> Vec<String> {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    let host = read("/proc/sys/kernel/hostname").trim().to_string();
    let cpu = read("/proc/cpuinfo")
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_default();
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let load = load_average();
    let git = std::process::Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .current_dir(repo_root())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "?".to_string());
    vec![
        format!("machine: {host}, {cores} cores, {cpu}; load average at start {load}"),
        format!("repository commit: {git}"),
    ]
}

fn log_name(r: &Record) -> String {
    let f: String = r
        .file
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{}__{}", r.config, f)
}

/// Runs one task; never fails (a run that cannot even start is an ERROR record).
fn run_task(
    task: &Task,
    suite_name: &str,
    config: &(String, Template, String),
    limits: Limits,
    scratch: &Path,
    slot: usize,
) -> (Record, Option<(String, String)>) {
    let timeout_s = limits.timeout.as_secs_f64();
    let argv = config.1.instantiate(&task.problem.path, timeout_s);
    let mut record = Record {
        suite: suite_name.to_string(),
        file: task.problem.name.clone(),
        config: config.0.clone(),
        expected: task.problem.expected,
        verdict: Verdict::Error,
        status: Status::Error,
        wall_s: 0.0,
        cpu_s: 0.0,
        peak_mb: 0.0,
        exit: String::new(),
        isat3: task.problem.isat3.clone(),
        note: String::new(),
        stats: Vec::new(),
    };
    let m = match exec::run(&argv, limits, scratch, Some(slot)) {
        Ok(m) => m,
        Err(e) => {
            record.note = format!("cannot run {}: {e}", argv[0]);
            return (record, None);
        }
    };
    record.wall_s = m.wall_s;
    record.cpu_s = m.cpu_s;
    record.peak_mb = m.peak_mb;
    record.exit = m.exit.to_string();
    record.stats = json_stats(&m.stdout);
    if m.timed_out {
        record.verdict = Verdict::Timeout;
    } else {
        let (v, note) = judge_run(
            &m.stdout,
            &m.stderr,
            m.exit,
            limits.memory_mb.is_some(),
            task.problem.meaning,
        );
        record.verdict = v;
        record.note = note;
    }
    record.status = classify(record.expected, record.verdict);
    let keep =
        matches!(record.status, Status::Wrong | Status::Error) || record.verdict == Verdict::Memout;
    let log = keep.then_some((m.stdout, m.stderr));
    (record, log)
}

/// An argument as it would have to be typed in a POSIX shell, so that the command recorded
/// in `summary.md` can be pasted to repeat the run.
pub fn shell_quote(a: &str) -> String {
    if !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The whole program; returns the exit code.
pub fn main_with(args: Args) -> i32 {
    match run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("runner: {e}");
            EXIT_USAGE
        }
    }
}

fn run(args: Args) -> Result<i32, String> {
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        return Err("--timeout must be a positive number of seconds".to_string());
    }
    if args.every == 0 {
        return Err("--every must be at least 1".to_string());
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .clamp(1, exec::guard::SLOTS);
    // Canonical, so that the solvers are given plain absolute paths.
    let root = crate::benchmarks_dir();
    let root = std::fs::canonicalize(&root).unwrap_or(root);

    // Suites.
    if args.expected.is_some() && !args.suites.iter().any(|s| Path::new(s).is_dir()) {
        eprintln!("runner: warning: --expected applies to --suite directories only; none given");
    }
    let mut suites: Vec<Suite> = Vec::new();
    for spec in &args.suites {
        let mut s = suite::load_suite(spec, args.expected.as_deref(), &root)?;
        s.problems = suite::subset(s.problems, args.filter.as_deref(), args.every, args.limit);
        let (present, missing): (Vec<Problem>, Vec<Problem>) =
            s.problems.into_iter().partition(|p| p.path.is_file());
        if !missing.is_empty() {
            eprintln!(
                "runner: warning: suite {}: {} listed files do not exist and are skipped (first: {})",
                s.name,
                missing.len(),
                missing[0].path.display()
            );
        }
        s.problems = present;
        let with_expected = s.problems.iter().filter(|p| p.expected.is_some()).count();
        eprintln!(
            "runner: suite {}: {} problems, {} with a definite expected answer",
            s.name,
            s.problems.len(),
            with_expected
        );
        suites.push(s);
    }

    // Configurations.
    let config_specs = if args.configs.is_empty() {
        vec![default_config(args.no_build)?]
    } else {
        args.configs.clone()
    };
    let mut configs: Vec<(String, Template, String)> = Vec::new();
    for c in &config_specs {
        let parsed = parse_config(c)?;
        if configs.iter().any(|(n, _, _)| *n == parsed.0) {
            return Err(format!("--config {}: name given twice", parsed.0));
        }
        if !program_exists(parsed.1.program()) {
            return Err(format!(
                "--config {}: program '{}' not found",
                parsed.0,
                parsed.1.program()
            ));
        }
        configs.push(parsed);
    }

    // Output directory.
    let started_at = SystemTime::now();
    let (stamp, human) = utc_stamps(started_at);
    let out = args.out.clone().unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("results")
            .join(&stamp)
    });
    let scratch = out.join(".scratch");
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let partial_path = out.join("results.partial.csv");
    let mut partial = std::fs::File::create(&partial_path)
        .map_err(|e| format!("{}: {e}", partial_path.display()))?;
    let _ = writeln!(partial, "{}", report::CSV_COLUMNS.join(","));

    // Tasks: each problem with every configuration in turn, so that the configurations of
    // one problem run close together in time (same machine load).
    let mut tasks = Vec::new();
    for (si, s) in suites.iter().enumerate() {
        for p in &s.problems {
            for ci in 0..configs.len() {
                tasks.push(Task {
                    suite: si,
                    problem: p.clone(),
                    config: ci,
                });
            }
        }
    }
    let total = tasks.len();
    let limits = Limits {
        timeout: Duration::from_secs_f64(args.timeout),
        memory_mb: (args.memory_mb > 0).then_some(args.memory_mb),
    };
    let mut preamble = vec![
        format!("date: {human}"),
        format!(
            "command: `{}`",
            std::env::args()
                .map(|a| shell_quote(&a))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    ];
    preamble.extend(machine_lines());
    preamble.push(format!(
        "limits: {} s wall clock per run, {} address space, {} parallel runs",
        args.timeout,
        limits
            .memory_mb
            .map(|m| format!("{m} MiB"))
            .unwrap_or_else(|| "unlimited".to_string()),
        jobs
    ));
    eprintln!(
        "runner: {} runs ({} configurations), {} jobs, timeout {} s, results in {}",
        total,
        configs.len(),
        jobs,
        args.timeout,
        out.display()
    );

    exec::guard::install();
    let tasks = Arc::new(tasks);
    let configs = Arc::new(configs);
    let suite_names: Arc<Vec<String>> = Arc::new(suites.iter().map(|s| s.name.clone()).collect());
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<Done>();
    let mut workers = Vec::new();
    for slot in 0..jobs.min(total.max(1)) {
        let (tasks, configs, names, next, tx) = (
            tasks.clone(),
            configs.clone(),
            suite_names.clone(),
            next.clone(),
            tx.clone(),
        );
        let scratch = scratch.join(format!("w{slot}"));
        workers.push(std::thread::spawn(move || loop {
            let i = next.fetch_add(1, Ordering::SeqCst);
            let Some(t) = tasks.get(i) else { break };
            let (record, log) = run_task(
                t,
                &names[t.suite],
                &configs[t.config],
                limits,
                &scratch,
                slot,
            );
            if tx
                .send(Done {
                    index: i,
                    record,
                    log,
                })
                .is_err()
            {
                break;
            }
        }));
    }
    drop(tx);

    let t0 = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let mut results: Vec<Option<Record>> = vec![None; total];
    let (mut done, mut wrong, mut errors) = (0usize, 0usize, 0usize);
    let mut last_report = Instant::now();
    for d in rx {
        done += 1;
        wrong += usize::from(d.record.status == Status::Wrong);
        errors += usize::from(d.record.status == Status::Error);
        let _ = writeln!(partial, "{}", d.record.partial_csv_line());
        if let Some((o, e)) = &d.log {
            let dir = out.join("logs");
            let _ = std::fs::create_dir_all(&dir);
            let base = dir.join(log_name(&d.record));
            let _ = std::fs::write(base.with_extension("out"), o);
            let _ = std::fs::write(base.with_extension("err"), e);
        }
        if d.record.status == Status::Wrong {
            eprintln!(
                "{}runner: WRONG: {} {}: {} (expected {})",
                if tty { "\n" } else { "" },
                d.record.config,
                d.record.file,
                d.record.verdict,
                d.record.expected.map(|v| v.as_str()).unwrap_or("-")
            );
        }
        let line = format!(
            "[{done}/{total}] {wrong} wrong, {errors} errors, elapsed {}",
            fmt_duration(t0.elapsed())
        );
        if tty {
            eprint!("\r{line}   ");
        } else if done == total || last_report.elapsed() >= Duration::from_secs(30) {
            eprintln!("{line}");
            last_report = Instant::now();
        }
        results[d.index] = Some(d.record);
    }
    if tty {
        eprintln!();
    }
    for w in workers {
        let _ = w.join();
    }
    let records: Vec<Record> = results.into_iter().flatten().collect();
    if records.len() != total {
        return Err(format!("only {} of {total} runs finished", records.len()));
    }
    preamble.push(format!(
        "runner wall time: {}; load average at end {}",
        fmt_duration(t0.elapsed()),
        load_average()
    ));

    let csv_path = out.join("results.csv");
    std::fs::write(&csv_path, report::results_csv(&records))
        .map_err(|e| format!("{}: {e}", csv_path.display()))?;
    drop(partial);
    let _ = std::fs::remove_file(&partial_path);
    let _ = std::fs::remove_dir_all(&scratch);
    let config_list: Vec<(String, String)> = configs
        .iter()
        .map(|(n, _, c)| (n.clone(), c.clone()))
        .collect();
    let summary = report::summary_markdown(&SummaryInput {
        records: &records,
        suites: &suite_names,
        configs: &config_list,
        timeout_s: args.timeout,
        preamble: &preamble,
    });
    let summary_path = out.join("summary.md");
    std::fs::write(&summary_path, &summary)
        .map_err(|e| format!("{}: {e}", summary_path.display()))?;
    println!("{summary}");
    eprintln!(
        "runner: wrote {} and {}",
        csv_path.display(),
        summary_path.display()
    );

    let wrong: Vec<&Record> = records
        .iter()
        .filter(|r| r.status == Status::Wrong)
        .collect();
    if wrong.is_empty() {
        return Ok(0);
    }
    eprintln!("runner: {} WRONG answers:", wrong.len());
    for r in wrong {
        eprintln!(
            "  {} {}: {} (expected {})",
            r.config,
            r.file,
            r.verdict,
            r.expected.map(|v| v.as_str()).unwrap_or("-")
        );
    }
    Ok(EXIT_WRONG)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_timestamps() {
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400 + 3661); // 2000-02-29 01:01:01
        assert_eq!(
            utc_stamps(t),
            (
                "20000229-010101".to_string(),
                "2000-02-29 01:01:01 UTC".to_string()
            )
        );
        assert_eq!(utc_stamps(UNIX_EPOCH).0, "19700101-000000");
    }

    #[test]
    fn config_specs() {
        let (n, t, c) = parse_config("isat3=/work/tools/isat3 -I {file}").unwrap();
        assert_eq!(n, "isat3");
        assert_eq!(c, "/work/tools/isat3 -I {file}");
        assert_eq!(
            t.instantiate(Path::new("a.hys"), 3.0),
            ["/work/tools/isat3", "-I", "a.hys"]
        );
        assert!(parse_config("no-equals-sign {file}").is_err());
        assert!(parse_config("=x {file}").is_err());
        assert!(parse_config("a b=x {file}").is_err());
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote("--timeout"), "--timeout");
        assert_eq!(
            shell_quote("isat3=/work/tools/isat3 -I {file}"),
            "'isat3=/work/tools/isat3 -I {file}'"
        );
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
