//! Source spans and diagnostics (`FILE:LINE:COL: message`).

use std::fmt;

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

    /// `FILE:LINE:COL: message` (warnings say so).
    pub fn render(&self, d: &Diagnostic) -> String {
        let (line, col) = self.line_col(d.span.start);
        match d.severity {
            Severity::Error => format!("{}:{}:{}: {}", self.name, line, col, d.message),
            Severity::Warning => format!("{}:{}:{}: warning: {}", self.name, line, col, d.message),
        }
    }
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
}
