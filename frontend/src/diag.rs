//! Source spans and diagnostics: `FILE:LINE:COL: error: message` with the source line and a
//! caret under the column, as gcc, clang and rustc print them.

use std::cell::Cell;
use std::fmt;

thread_local! {
    /// Diagnostics of this thread are coloured (`--color`; the command line decides, from
    /// whether standard error is a terminal and `NO_COLOR`). Per thread: the command runs on
    /// one thread, and tests that call the command line in-process run side by side.
    static COLOR: Cell<bool> = const { Cell::new(false) };
}

/// Colours the diagnostics this thread prints from now on (or stops colouring them).
pub fn set_color(on: bool) {
    COLOR.with(|c| c.set(on));
}

/// Are this thread's diagnostics coloured?
pub fn color() -> bool {
    COLOR.with(Cell::get)
}

/// The SGR escape codes of the diagnostics, as gcc colours them: the position bold, `error:`
/// bold red, `warning:` bold magenta, the caret line bold green.
mod sgr {
    pub const BOLD: &str = "\x1b[1m";
    pub const ERROR: &str = "\x1b[1;31m";
    pub const WARNING: &str = "\x1b[1;35m";
    pub const CARET: &str = "\x1b[1;32m";
    pub const RESET: &str = "\x1b[0m";
}

/// `text` in the colour `code` when this thread colours diagnostics, else as it is.
fn paint(code: &str, text: &str) -> String {
    if color() {
        format!("{code}{text}{}", sgr::RESET)
    } else {
        text.to_string()
    }
}

/// `FILE:LINE:COL: error: message` (or `warning:`), coloured when diagnostics are.
fn headline(file: &str, line: usize, col: usize, severity: Severity, message: &str) -> String {
    let (tag, code) = match severity {
        Severity::Error => ("error:", sgr::ERROR),
        Severity::Warning => ("warning:", sgr::WARNING),
    };
    format!(
        "{} {} {message}",
        paint(sgr::BOLD, &format!("{file}:{line}:{col}:")),
        paint(code, tag)
    )
}

/// A byte range `[start, end)` in a source file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
    pub fn pair(self) -> (u32, u32) {
        (self.start, self.end)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Severity {
    Error,
    Warning,
}

/// An error or warning at a place in the source.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Span,
    pub message: String,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            span,
            message: message.into(),
        }
    }
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            span,
            message: message.into(),
        }
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Maps byte offsets to 1-based line and column numbers (columns count characters).
pub struct SourceMap<'a> {
    pub name: &'a str,
    pub text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> SourceMap<'a> {
    pub fn new(name: &'a str, text: &'a str) -> SourceMap<'a> {
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        SourceMap {
            name,
            text,
            line_starts,
        }
    }

    /// 1-based (line, column) of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = (offset as usize).min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let mut end = offset;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let col = self.text[start..end].chars().count() + 1;
        (line + 1, col)
    }

    /// One line, `FILE:LINE:COL: message` (warnings say so): for messages inside other text
    /// (SMT-LIB's `(error "...")`, JSON).
    pub fn render(&self, d: &Diagnostic) -> String {
        let (line, col) = self.line_col(d.span.start);
        match d.severity {
            Severity::Error => format!("{}:{}:{}: {}", self.name, line, col, d.message),
            Severity::Warning => format!("{}:{}:{}: warning: {}", self.name, line, col, d.message),
        }
    }
}

impl SourceMap<'_> {
    /// The diagnostic as a compiler prints it on standard error: `FILE:LINE:COL: error:
    /// message` (or `warning:`), then the source line and a caret under the column (`~`
    /// under the rest of the span on that line). No trailing newline.
    pub fn report(&self, d: &Diagnostic) -> String {
        let (line, col) = self.line_col(d.span.start);
        let head = headline(self.name, line, col, d.severity, &d.message);
        let start = self.line_starts[line - 1];
        let src = self.text[start..].split('\n').next().unwrap_or("");
        let src = src.strip_suffix('\r').unwrap_or(src);
        // the span's width on this line, in characters (at least one)
        let end = (d.span.end as usize).clamp(d.span.start as usize, start + src.len());
        let (_, end_col) = self.line_col(end as u32);
        let width = end_col.saturating_sub(col).max(1);
        match caret_lines(line, col, width, src) {
            Some(tail) => format!("{head}\n{tail}"),
            None => head,
        }
    }
}

/// A located message for `FILE:LINE:COL: error: message` when the caller has the position but
/// no [`SourceMap`] (C errors, files that cannot be decoded): reads the line from the file.
pub fn report_at(file: &str, line: usize, col: usize, message: &str) -> String {
    let head = headline(file, line, col, Severity::Error, message);
    let src = std::fs::read(file).ok().and_then(|b| {
        let text = String::from_utf8_lossy(&b).into_owned();
        text.split('\n')
            .nth(line.checked_sub(1)?)
            .map(|l| l.trim_end_matches('\r').to_string())
    });
    match src.and_then(|s| caret_lines(line, col, 1, &s)) {
        Some(tail) => format!("{head}\n{tail}"),
        None => head,
    }
}

/// ` LINE | source` and `      | ^~~` (tabs before the column kept, so the caret lines up);
/// `None` for an empty line or a column beyond its end plus one.
fn caret_lines(line: usize, col: usize, width: usize, src: &str) -> Option<String> {
    let n = src.chars().count();
    if src.trim().is_empty() || col == 0 || col > n + 1 {
        return None;
    }
    let gutter = line.to_string().len();
    let pad: String = src
        .chars()
        .take(col - 1)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let width = width.min((n + 1).saturating_sub(col)).max(1);
    let marks = paint(sgr::CARET, &format!("^{}", "~".repeat(width - 1)));
    Some(format!(" {line} | {src}\n {:gutter$} | {pad}{marks}", ""))
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based() {
        let text = "DECL\n  int [0,1] x;\nEXPR\nx > ä;";
        let sm = SourceMap::new("f.hys", text);
        assert_eq!(sm.line_col(0), (1, 1));
        assert_eq!(sm.line_col(7), (2, 3));
        let pos = text.find('ä').unwrap() as u32;
        assert_eq!(sm.line_col(pos), (4, 5));
        assert_eq!(sm.line_col(pos + 2), (4, 6));
        let d = Diagnostic::error(Span::new(7, 8), "boom");
        assert_eq!(sm.render(&d), "f.hys:2:3: boom");
    }

    #[test]
    fn reports_show_the_line_and_a_caret() {
        let text = "DECL\n\tint [0,1] xyz;\nEXPR\nx > 1;";
        let sm = SourceMap::new("f.hys", text);
        let at = text.find("xyz").unwrap();
        let d = Diagnostic::error(Span::new(at, at + 3), "boom");
        assert_eq!(
            sm.report(&d),
            "f.hys:2:12: error: boom\n 2 | \tint [0,1] xyz;\n   | \t          ^~~"
        );
        let w = Diagnostic::warning(Span::new(0, 0), "careful");
        assert_eq!(
            sm.report(&w),
            "f.hys:1:1: warning: careful\n 1 | DECL\n   | ^"
        );
        // at the end of the text (a missing token): the caret one past the last character
        let e = Diagnostic::error(Span::new(text.len(), text.len()), "end");
        assert_eq!(
            sm.report(&e),
            "f.hys:4:7: error: end\n 4 | x > 1;\n   |       ^"
        );
        // an empty line: no source lines
        let sm = SourceMap::new("g.hys", "\n");
        assert_eq!(
            sm.report(&Diagnostic::error(Span::new(0, 0), "x")),
            "g.hys:1:1: error: x"
        );
    }

    #[test]
    fn colours_only_when_asked() {
        let text = "DECL\n  int [0,1] x;";
        let sm = SourceMap::new("f.hys", text);
        let d = Diagnostic::error(Span::new(7, 10), "boom");
        let plain = sm.report(&d);
        assert!(!plain.contains('\x1b'), "{plain:?}");
        set_color(true);
        let coloured = sm.report(&d);
        let w = sm.report(&Diagnostic::warning(Span::new(0, 0), "careful"));
        set_color(false);
        assert_eq!(
            coloured,
            "\x1b[1mf.hys:2:3:\x1b[0m \x1b[1;31merror:\x1b[0m boom\n 2 |   int [0,1] x;\n   |   \x1b[1;32m^~~\x1b[0m"
        );
        assert!(w.contains("\x1b[1;35mwarning:\x1b[0m careful"), "{w:?}");
        // without the escapes it is the plain report
        let stripped = coloured
            .replace("\x1b[1m", "")
            .replace("\x1b[1;31m", "")
            .replace("\x1b[1;32m", "")
            .replace("\x1b[0m", "");
        assert_eq!(stripped, plain);
    }
}
