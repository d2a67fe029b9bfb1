//! Preprocessing (the system `cpp`) and parsing (the `lang-c` crate) of a C file, and the map
//! from byte offsets of the preprocessed text back to `file:line:col` of the original files
//! through the `# LINE "FILE"` markers that `cpp` writes.

use lang_c::ast::TranslationUnit;
use lang_c::driver::{parse_preprocessed, Config, Flavor};
use std::path::Path;
use std::process::{Command, Stdio};

/// A position in an original source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    pub file: String,
    pub line: usize,
    pub col: usize,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// An error with a position (`FILE:LINE:COL: message`).
#[derive(Clone, Debug)]
pub struct CError {
    pub pos: Pos,
    pub msg: String,
}

impl std::fmt::Display for CError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.pos, self.msg)
    }
}

/// The preprocessed text and its line map.
pub struct Source {
    pub text: String,
    /// per line of `text` (0-based): the original file index and line (1-based);
    /// marker lines map to themselves
    lines: Vec<(usize, usize)>,
    /// byte offset of the start of each line of `text`
    starts: Vec<usize>,
    pub files: Vec<String>,
}

impl Source {
    pub fn new(text: String, main_file: &str) -> Source {
        let mut files = vec![main_file.to_string()];
        let mut lines = Vec::new();
        let mut starts = Vec::new();
        let mut cur_file = 0usize;
        let mut cur_line = 1usize;
        let mut off = 0usize;
        for l in text.split('\n') {
            starts.push(off);
            off += l.len() + 1;
            if let Some((n, f)) = line_marker(l) {
                lines.push((cur_file, cur_line));
                cur_file = match files.iter().position(|x| *x == f) {
                    Some(i) => i,
                    None => {
                        files.push(f);
                        files.len() - 1
                    }
                };
                cur_line = n;
            } else {
                lines.push((cur_file, cur_line));
                cur_line += 1;
            }
        }
        Source {
            text,
            lines,
            starts,
            files,
        }
    }

    /// The original position of byte `off` of the preprocessed text (columns count bytes,
    /// 1-based).
    /// The preprocessed text of a span (for messages), shortened to 60 characters.
    pub fn text_of(&self, span: lang_c::span::Span) -> String {
        let t = self.text.get(span.start..span.end).unwrap_or("?");
        let t: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
        if t.chars().count() > 60 {
            t.chars().take(57).collect::<String>() + "..."
        } else {
            t
        }
    }

    /// The offset of the last non-blank byte before `end`: a span's last character (the
    /// parser's spans of calls can run on over the blanks that follow, as in `f() ;`, and a
    /// witness waypoint must name the closing parenthesis itself).
    pub fn last_char_before(&self, end: usize) -> usize {
        let b = self.text.as_bytes();
        let mut i = end.min(b.len());
        while i > 0 && b[i - 1].is_ascii_whitespace() {
            i -= 1;
        }
        i.saturating_sub(1)
    }

    pub fn pos(&self, off: usize) -> Pos {
        let i = match self.starts.binary_search(&off) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let (f, line) = self.lines.get(i).copied().unwrap_or((0, 1));
        let col = off.saturating_sub(self.starts.get(i).copied().unwrap_or(0)) + 1;
        Pos {
            file: self.files.get(f).cloned().unwrap_or_default(),
            line,
            col,
        }
    }

    pub fn err(&self, off: usize, msg: impl Into<String>) -> CError {
        CError {
            pos: self.pos(off),
            msg: msg.into(),
        }
    }
}

/// `# 12 "file.c" 1 3` (also `#line 12 "file.c"`): the line number and file name.
fn line_marker(l: &str) -> Option<(usize, String)> {
    let rest = l.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let n: usize = digits.parse().ok()?;
    let rest = rest[digits.len()..].trim_start();
    let name = rest.strip_prefix('"')?;
    let end = name.find('"')?;
    Some((n, name[..end].to_string()))
}

/// The line that separates two translation units in the concatenated preprocessed text
/// (a line marker, so the parser and the position map take it as one).
pub const UNIT_SEPARATOR: &str = "# 1 \"<icpic3 translation unit>\"\n";

/// Runs the C preprocessor on `path` (`cpp` with gcc's predefined macros for the data model),
/// with `flags` (`-I`, `-D`, `-U`, `-include`, `-std=`) and in directory `dir` if given.
pub fn preprocess(
    path: &Path,
    ilp32: bool,
    flags: &[String],
    dir: Option<&Path>,
) -> Result<String, String> {
    let mut cmd = Command::new("cpp");
    cmd.arg("-std=gnu11");
    if ilp32 {
        cmd.arg("-m32");
        // i386's <stddef.h> puts a `__float128` member into `max_align_t`; the parser does
        // not know the type: it becomes `long double` (unsupported wherever it is used)
        cmd.arg("-D__float128=long double");
    }
    cmd.args(flags);
    cmd.arg(path);
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd
        .spawn()
        .map_err(|e| format!("cannot run the C preprocessor `cpp`: {e}"))?;
    let pid = child.id();
    // the command's deadline (issue #24): cpp is killed when it passes
    let out = within_deadline(
        move || child.wait_with_output(),
        || {
            // SAFETY: kill(2) on the child's own pid; at worst the child has already exited
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        },
    )
    .ok_or_else(|| "time limit".to_string())?
    .map_err(|e| format!("cannot run the C preprocessor `cpp`: {e}"))?;
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr);
        return Err(msg.trim().to_string());
    }
    String::from_utf8(out.stdout).map_err(|_| "preprocessed text is not UTF-8".to_string())
}

/// Runs `work` on a thread of its own and waits for it until the command's deadline
/// (`solver::budget::deadline`, issue #24). At the deadline `on_timeout` runs (to stop an
/// external process), the budget records the stop, and `None` is returned; the thread is left
/// to finish on its own (the command ends at once). Without a deadline this just waits.
fn within_deadline<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
    on_timeout: impl FnOnce(),
) -> Option<T> {
    let deadline = solver::budget::deadline();
    let (tx, rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("icpic3-cfront".into())
        .stack_size(256 << 20)
        .spawn(move || {
            let _ = tx.send(work());
        });
    if spawned.is_err() {
        return None;
    }
    let r = match deadline {
        None => rx.recv().ok(),
        Some(d) => rx
            .recv_timeout(d.saturating_duration_since(std::time::Instant::now()))
            .ok(),
    };
    if r.is_none() {
        on_timeout();
        solver::budget::stop(solver::budget::Stop::Time);
    }
    r
}

/// Concatenates the preprocessed texts of several translation units (separated by
/// [`UNIT_SEPARATOR`]); returns the text and the byte offset where each unit starts.
pub fn concat_units(texts: &[String]) -> (String, Vec<usize>) {
    let mut text = String::new();
    let mut starts = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        if i > 0 {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(UNIT_SEPARATOR);
        }
        starts.push(text.len());
        text.push_str(t);
    }
    (text, starts)
}

/// Splits a (possibly instrumented) concatenated text back into its translation units.
pub fn split_units(text: &str) -> Vec<&str> {
    text.split(UNIT_SEPARATOR).collect()
}

/// Parses preprocessed text. Never panics: a panic inside the parser is reported as an error.
pub fn parse(src: &Source) -> Result<TranslationUnit, CError> {
    let config = Config {
        cpp_command: String::new(),
        cpp_options: vec![],
        flavor: Flavor::GnuC11,
    };
    let text = src.text.clone();
    // on a thread of its own, so that the command's deadline can end the wait (the parser
    // itself cannot be interrupted); deep syntax trees need the command thread's stack size
    let run = move || std::panic::catch_unwind(move || parse_preprocessed(&config, text));
    let Some(r) = within_deadline(run, || {}) else {
        return Err(src.err(0, "time limit"));
    };
    match r {
        Ok(Ok(p)) => Ok(p.unit),
        Ok(Err(e)) => {
            let mut exp: Vec<&str> = e.expected.iter().copied().collect();
            exp.sort_unstable();
            exp.truncate(12);
            Err(src.err(
                e.offset,
                format!("syntax error, expected one of: {}", exp.join(" ")),
            ))
        }
        Err(_) => Err(src.err(0, "internal error in the C parser")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_markers_map_back() {
        let text = "# 1 \"a.c\"\nint x;\n# 7 \"b.h\" 1\nint y;\n  int z;\n".to_string();
        let s = Source::new(text, "a.c");
        let off = s.text.find("int y").unwrap();
        assert_eq!(s.pos(off).to_string(), "b.h:7:1");
        let off = s.text.find("int z").unwrap();
        assert_eq!(s.pos(off).to_string(), "b.h:8:3");
        let off = s.text.find("int x").unwrap();
        assert_eq!(s.pos(off).to_string(), "a.c:1:1");
    }
}
