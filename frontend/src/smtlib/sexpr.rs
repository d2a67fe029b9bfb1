//! The SMT-LIB 2.6 s-expression reader: tokens with byte spans, no panic on any input.
//!
//! Iterative (an explicit stack), so nesting depth is bounded only by [`MAX_DEPTH`], which
//! keeps the recursive passes after it (elaboration, `Drop`) within the command's stack.

use crate::diag::{Diagnostic, Span};

/// Deeper nesting is refused with an error.
pub const MAX_DEPTH: usize = 20_000;

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SKind {
    /// a simple or `|quoted|` symbol (quotes removed)
    Symbol(String),
    /// `:name`
    Keyword(String),
    /// a numeral `0`, `42`
    Numeral(String),
    /// a decimal `0.5`
    Decimal(String),
    /// `#x..` (hex digits)
    Hex(String),
    /// `#b..` (binary digits)
    Binary(String),
    /// `"..."` (with `""` unescaped)
    Str(String),
    List(Vec<SExpr>),
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SExpr {
    pub kind: SKind,
    pub span: Span,
}

impl SExpr {
    pub fn symbol(&self) -> Option<&str> {
        match &self.kind {
            SKind::Symbol(s) => Some(s),
            _ => None,
        }
    }
    pub fn list(&self) -> Option<&[SExpr]> {
        match &self.kind {
            SKind::List(l) => Some(l),
            _ => None,
        }
    }
    /// The head symbol of a list.
    pub fn head(&self) -> Option<&str> {
        self.list().and_then(|l| l.first()).and_then(|h| h.symbol())
    }
    /// Short text for messages.
    pub fn describe(&self) -> String {
        match &self.kind {
            SKind::Symbol(s) | SKind::Numeral(s) | SKind::Decimal(s) => s.clone(),
            SKind::Keyword(s) => format!(":{s}"),
            SKind::Hex(s) => format!("#x{s}"),
            SKind::Binary(s) => format!("#b{s}"),
            SKind::Str(s) => format!("{s:?}"),
            SKind::List(l) => match l.first() {
                Some(h) => format!("({} ...)", h.describe()),
                None => "()".into(),
            },
        }
    }
}

fn is_symbol_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"~!@$%^&*_-+=<>.?/".contains(&c)
}

/// Reads every top-level s-expression of `text`.
pub fn parse(text: &str) -> Result<Vec<SExpr>, Diagnostic> {
    let b = text.as_bytes();
    let mut i = 0usize;
    let mut top = Vec::new();
    // open lists: (start offset, elements)
    let mut stack: Vec<(usize, Vec<SExpr>)> = Vec::new();
    let err = |s: usize, e: usize, m: &str| Diagnostic::error(Span::new(s, e), m.to_string());
    while i < b.len() {
        let c = b[i];
        let start = i;
        // the time and memory limits, once per token (issue #24)
        if let Err(stop) = solver::budget::check() {
            return Err(err(start, start + 1, stop.text()));
        }
        let atom = match c {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => {
                i += 1;
                continue;
            }
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' => {
                if stack.len() >= MAX_DEPTH {
                    return Err(err(start, start + 1, "nesting too deep"));
                }
                stack.push((start, Vec::new()));
                i += 1;
                continue;
            }
            b')' => {
                i += 1;
                let Some((s, items)) = stack.pop() else {
                    return Err(err(start, i, "unexpected ')'"));
                };
                SExpr {
                    kind: SKind::List(items),
                    span: Span::new(s, i),
                }
            }
            b'|' => {
                i += 1;
                while i < b.len() && b[i] != b'|' {
                    if b[i] == b'\\' {
                        return Err(err(i, i + 1, "'\\' is not allowed in a quoted symbol"));
                    }
                    i += 1;
                }
                if i >= b.len() {
                    return Err(err(start, start + 1, "unterminated quoted symbol"));
                }
                i += 1;
                SExpr {
                    kind: SKind::Symbol(text[start + 1..i - 1].to_string()),
                    span: Span::new(start, i),
                }
            }
            b'"' => {
                i += 1;
                let mut s = String::new();
                let mut seg = i;
                loop {
                    if i >= b.len() {
                        return Err(err(start, start + 1, "unterminated string literal"));
                    }
                    if b[i] == b'"' {
                        s.push_str(&text[seg..i]);
                        if i + 1 < b.len() && b[i + 1] == b'"' {
                            s.push('"');
                            i += 2;
                            seg = i;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    i += 1;
                }
                SExpr {
                    kind: SKind::Str(s),
                    span: Span::new(start, i),
                }
            }
            b'#' => {
                i += 1;
                let kind = match b.get(i) {
                    Some(b'x') => {
                        i += 1;
                        let s = i;
                        while i < b.len() && b[i].is_ascii_hexdigit() {
                            i += 1;
                        }
                        SKind::Hex(text[s..i].to_string())
                    }
                    Some(b'b') => {
                        i += 1;
                        let s = i;
                        while i < b.len() && (b[i] == b'0' || b[i] == b'1') {
                            i += 1;
                        }
                        SKind::Binary(text[s..i].to_string())
                    }
                    _ => return Err(err(start, i, "expected #x or #b")),
                };
                let empty = matches!(&kind, SKind::Hex(s) | SKind::Binary(s) if s.is_empty());
                if empty || (i < b.len() && is_symbol_char(b[i])) {
                    return Err(err(start, i.max(start + 1), "malformed bit-vector literal"));
                }
                SExpr {
                    kind,
                    span: Span::new(start, i),
                }
            }
            b':' => {
                i += 1;
                while i < b.len() && is_symbol_char(b[i]) {
                    i += 1;
                }
                SExpr {
                    kind: SKind::Keyword(text[start + 1..i].to_string()),
                    span: Span::new(start, i),
                }
            }
            c if c.is_ascii_digit() => {
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let mut decimal = false;
                if i < b.len() && b[i] == b'.' {
                    i += 1;
                    let s = i;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                    if i == s {
                        return Err(err(start, i, "malformed decimal"));
                    }
                    decimal = true;
                }
                // dReal writes `7.4e-4`, `1e3`
                if i + 1 < b.len() && (b[i] == b'e' || b[i] == b'E') {
                    let mut j = i + 1;
                    if b[j] == b'-' || b[j] == b'+' {
                        j += 1;
                    }
                    if j < b.len() && b[j].is_ascii_digit() {
                        while j < b.len() && b[j].is_ascii_digit() {
                            j += 1;
                        }
                        i = j;
                        decimal = true;
                    }
                }
                if i < b.len() && is_symbol_char(b[i]) {
                    return Err(err(start, i + 1, "malformed numeral"));
                }
                let s = text[start..i].to_string();
                SExpr {
                    kind: if decimal {
                        SKind::Decimal(s)
                    } else {
                        SKind::Numeral(s)
                    },
                    span: Span::new(start, i),
                }
            }
            c if is_symbol_char(c) => {
                while i < b.len() && is_symbol_char(b[i]) {
                    i += 1;
                }
                SExpr {
                    kind: SKind::Symbol(text[start..i].to_string()),
                    span: Span::new(start, i),
                }
            }
            _ => {
                let mut e = start + 1;
                while e < b.len() && !text.is_char_boundary(e) {
                    e += 1;
                }
                return Err(err(start, e, "unexpected character"));
            }
        };
        match stack.last_mut() {
            Some((_, items)) => items.push(atom),
            None => top.push(atom),
        }
    }
    if let Some((s, _)) = stack.last() {
        return Err(err(*s, *s + 1, "unclosed '('"));
    }
    Ok(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_atoms_and_lists_with_spans() {
        let t = "(assert (< x 1.5)) ; c\n(set-info :status |a b|) #b0101 #xfF \"q\"\"\"";
        let v = parse(t).unwrap();
        assert_eq!(v.len(), 5);
        assert_eq!(v[0].head(), Some("assert"));
        assert_eq!(v[0].span, Span::new(0, 18));
        let inner = &v[0].list().unwrap()[1];
        assert_eq!(inner.list().unwrap()[2].kind, SKind::Decimal("1.5".into()));
        assert_eq!(
            v[1].list().unwrap()[1].kind,
            SKind::Keyword("status".into())
        );
        assert_eq!(v[1].list().unwrap()[2].kind, SKind::Symbol("a b".into()));
        assert_eq!(v[2].kind, SKind::Binary("0101".into()));
        assert_eq!(v[3].kind, SKind::Hex("fF".into()));
        assert_eq!(v[4].kind, SKind::Str("q\"".into()));
    }

    #[test]
    fn errors_have_positions() {
        assert_eq!(parse("(a (b)").unwrap_err().span.start, 0);
        assert_eq!(parse("a)").unwrap_err().span.start, 1);
        assert_eq!(parse("(x 01a)").unwrap_err().span.start, 3);
        assert_eq!(parse("|abc").unwrap_err().span.start, 0);
        assert!(parse("#q").is_err());
        assert!(parse("(\u{e9})").is_err());
        let deep = "(".repeat(MAX_DEPTH + 1);
        assert!(parse(&deep).is_err());
    }
}
