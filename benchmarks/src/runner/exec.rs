//! Running one solver process under a wall-clock and a memory limit, and measuring it.
//!
//! Each run is its own process group (so a timeout kills the solver and anything it
//! started), with `RLIMIT_AS` set in the child between fork and exec, standard output and
//! error redirected to files (no pipe can fill up and block the solver, and no reader thread
//! can hang on a descendant that keeps a pipe open), and CPU time and peak RSS taken from
//! `wait4`'s `rusage`, which covers the process and every descendant it waited for.

use super::verdict::Exit;
use std::fs::File;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A configuration's command line with `{file}` and `{timeout}` placeholders.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    words: Vec<String>,
}

impl Template {
    /// Splits a command template into words the way a POSIX shell would for plain words,
    /// single quotes, double quotes and backslashes. There is no shell: pipes, redirections
    /// and variables need an explicit `sh -c '...'`.
    pub fn parse(s: &str) -> Result<Template, String> {
        let mut words = Vec::new();
        let mut cur = String::new();
        let mut in_word = false;
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            match c {
                '\'' => {
                    in_word = true;
                    loop {
                        match chars.next() {
                            Some('\'') => break,
                            Some(c) => cur.push(c),
                            None => return Err(format!("unterminated ' in: {s}")),
                        }
                    }
                }
                '"' => {
                    in_word = true;
                    loop {
                        match chars.next() {
                            Some('"') => break,
                            Some('\\') => match chars.next() {
                                Some(c @ ('"' | '\\' | '$' | '`')) => cur.push(c),
                                Some(c) => {
                                    cur.push('\\');
                                    cur.push(c);
                                }
                                None => return Err(format!("unterminated \" in: {s}")),
                            },
                            Some(c) => cur.push(c),
                            None => return Err(format!("unterminated \" in: {s}")),
                        }
                    }
                }
                '\\' => {
                    in_word = true;
                    match chars.next() {
                        Some(c) => cur.push(c),
                        None => return Err(format!("trailing \\ in: {s}")),
                    }
                }
                c if c.is_whitespace() => {
                    if in_word {
                        words.push(std::mem::take(&mut cur));
                        in_word = false;
                    }
                }
                c => {
                    in_word = true;
                    cur.push(c);
                }
            }
        }
        if in_word {
            words.push(cur);
        }
        if words.is_empty() {
            return Err("empty command".to_string());
        }
        if !words.iter().any(|w| w.contains("{file}")) {
            return Err(format!("command has no {{file}} placeholder: {s}"));
        }
        Ok(Template { words })
    }

    /// The argument vector for one problem; each placeholder is replaced inside its word, so
    /// a path with spaces stays one argument.
    pub fn instantiate(&self, file: &Path, timeout_s: f64) -> Vec<String> {
        let file = file.display().to_string();
        // Solvers take whole seconds; round up so that their own limit is never the tighter one.
        let timeout = format!("{}", timeout_s.ceil() as u64);
        self.words
            .iter()
            .map(|w| w.replace("{file}", &file).replace("{timeout}", &timeout))
            .collect()
    }

    pub fn program(&self) -> &str {
        &self.words[0]
    }
}

/// Limits of one run.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub timeout: Duration,
    /// `RLIMIT_AS` in MiB (address space, not RSS); `None` = no limit.
    pub memory_mb: Option<u64>,
}

/// What the runner measured about one process.
#[derive(Debug, Clone)]
pub struct Measured {
    pub exit: Exit,
    pub timed_out: bool,
    pub wall_s: f64,
    pub cpu_s: f64,
    pub peak_mb: f64,
    pub stdout: String,
    pub stderr: String,
}

/// Output beyond this is not read: verdicts are on the first or a late short line, and
/// millions of runs must not hold megabytes each.
const OUTPUT_CAP: u64 = 4 << 20;

fn read_capped(path: &Path) -> String {
    let mut buf = Vec::new();
    if let Ok(f) = File::open(path) {
        let _ = f.take(OUTPUT_CAP).read_to_end(&mut buf);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

fn errno() -> std::io::Error {
    std::io::Error::last_os_error()
}

/// Runs `argv` to completion or to the wall-clock limit. `scratch` is a path prefix for the
/// two output files, which are removed afterwards.
pub fn run(
    argv: &[String],
    limits: Limits,
    scratch: &Path,
    slot: Option<usize>,
) -> std::io::Result<Measured> {
    let out_path = scratch.with_extension("out");
    let err_path = scratch.with_extension("err");
    let out_file = File::create(&out_path)?;
    let err_file = File::create(&err_path)?;
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(out_file)
        .stderr(err_file)
        .process_group(0);
    let memory_bytes = limits.memory_mb.map(|mb| mb.saturating_mul(1 << 20));
    // SAFETY: between fork and exec only async-signal-safe calls are allowed; setrlimit is
    // one, and the closure touches nothing but copies of plain integers.
    unsafe {
        cmd.pre_exec(move || {
            // No core files: a crashing solver on thousands of problems would fill the disk.
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            // If the runner itself is killed outright, its solvers must not run on unwatched.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
            if let Some(b) = memory_bytes {
                let lim = libc::rlimit {
                    rlim_cur: b as libc::rlim_t,
                    rlim_max: b as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let child = cmd.spawn()?;
    let pid = child.id() as libc::pid_t;
    // The child is reaped below with wait4 (for its rusage), never through `child`.
    drop(child);
    if let Some(s) = slot {
        guard::register(s, pid);
    }

    let (done_tx, done_rx) = mpsc::channel::<()>();
    let timeout = limits.timeout;
    let watchdog = std::thread::spawn(move || {
        if let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(timeout) {
            // SAFETY: plain syscall. The group id cannot have been reused: its leader is not
            // reaped before this thread has been joined.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            true
        } else {
            false
        }
    });

    // Wait for the exit without reaping (WNOWAIT), so the pid and process group stay ours
    // until the watchdog is stopped and the group is cleaned up.
    loop {
        // SAFETY: siginfo_t is plain data, filled by the kernel.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 {
            break;
        }
        let e = errno();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    let wall = start.elapsed();
    let _ = done_tx.send(());
    let timed_out = watchdog.join().unwrap_or(false);
    // Descendants left running by a solver that exited would compete with later runs.
    // SAFETY: plain syscall on our own (not yet reaped) process group.
    unsafe { libc::kill(-pid, libc::SIGKILL) };
    if let Some(s) = slot {
        guard::clear(s);
    }

    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data, filled by the kernel.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            break;
        }
        let e = errno();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    let exit = if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    let measured = Measured {
        exit,
        timed_out,
        wall_s: wall.as_secs_f64(),
        cpu_s: tv(usage.ru_utime) + tv(usage.ru_stime),
        // Linux reports ru_maxrss in KiB.
        peak_mb: usage.ru_maxrss as f64 / 1024.0,
        stdout: read_capped(&out_path),
        stderr: read_capped(&err_path),
    };
    let _ = std::fs::remove_file(&out_path);
    let _ = std::fs::remove_file(&err_path);
    Ok(measured)
}

/// Kills the running solvers when the runner is interrupted. Every solver runs in its own
/// process group, so a Ctrl-C on the terminal reaches only the runner; without this, the
/// solvers would run on with no watchdog left to stop them.
pub mod guard {
    use std::sync::atomic::{AtomicI32, Ordering};

    /// Process groups of running solvers, one slot per worker thread (0 = free).
    static ACTIVE: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
    pub const SLOTS: usize = 256;

    pub fn register(slot: usize, pgid: libc::pid_t) {
        ACTIVE[slot % SLOTS].store(pgid, Ordering::SeqCst);
    }

    pub fn clear(slot: usize) {
        ACTIVE[slot % SLOTS].store(0, Ordering::SeqCst);
    }

    extern "C" fn on_signal(sig: libc::c_int) {
        // Only async-signal-safe work here: atomic loads, kill, signal, raise.
        for a in &ACTIVE {
            let pg = a.load(Ordering::SeqCst);
            if pg > 0 {
                // SAFETY: plain syscalls.
                unsafe { libc::kill(-pg, libc::SIGKILL) };
            }
        }
        // SAFETY: restore the default action and die of the same signal, as expected.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    /// Installs the handler for SIGINT, SIGTERM and SIGHUP.
    pub fn install() {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: the handler is async-signal-safe (see above).
            unsafe { libc::signal(sig, handler) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_words_and_placeholders() {
        let t = Template::parse(r#"/bin/solver -I  'a b' "c \"d\"" e\ f --t={timeout} {file}"#)
            .unwrap();
        assert_eq!(
            t.instantiate(Path::new("/x/my file.hys"), 2.5),
            [
                "/bin/solver",
                "-I",
                "a b",
                "c \"d\"",
                "e f",
                "--t=3",
                "/x/my file.hys"
            ]
        );
        assert_eq!(t.program(), "/bin/solver");
        assert!(Template::parse("solver x").is_err());
        assert!(Template::parse("solver '{file}").is_err());
        assert!(Template::parse("   ").is_err());
    }

    fn scratch(tag: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("icpic3-exec-{}-{tag}", std::process::id()))
    }

    fn sh(script: &str, timeout_ms: u64, memory_mb: Option<u64>, tag: &str) -> Measured {
        let argv = ["sh", "-c", script].map(String::from);
        let limits = Limits {
            timeout: Duration::from_millis(timeout_ms),
            memory_mb,
        };
        run(&argv, limits, &scratch(tag), None).unwrap()
    }

    #[test]
    fn captures_output_and_exit_code() {
        let m = sh("echo SAFE; echo oops >&2; exit 20", 5000, Some(512), "exit");
        assert_eq!(m.exit, Exit::Code(20));
        assert!(!m.timed_out);
        assert_eq!(m.stdout, "SAFE\n");
        assert_eq!(m.stderr, "oops\n");
        assert!(m.peak_mb > 0.0);
        assert!(!scratch("exit").with_extension("out").exists());
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        // The background sleep would keep running if only the shell were killed.
        let t = Instant::now();
        let m = sh("sleep 30 & sleep 30; echo late", 300, None, "timeout");
        assert!(m.timed_out);
        assert_eq!(m.exit, Exit::Signal(libc::SIGKILL));
        assert!(m.wall_s >= 0.3 && t.elapsed() < Duration::from_secs(5));
        assert_eq!(m.stdout, "");
    }

    #[test]
    fn cpu_time_is_measured() {
        let m = sh(
            "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done",
            20000,
            None,
            "cpu",
        );
        assert_eq!(m.exit, Exit::Code(0));
        assert!(m.cpu_s > 0.01, "{}", m.cpu_s);
        assert!(m.cpu_s <= m.wall_s * 1.1 + 0.01);
    }

    #[test]
    fn signals_are_reported() {
        let m = sh("kill -SEGV $$", 5000, None, "signal");
        assert_eq!(m.exit, Exit::Signal(libc::SIGSEGV));
        assert!(!m.timed_out);
    }
}
