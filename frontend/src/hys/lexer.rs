//! The `.hys` lexer (language doc A.2): a streaming tokenizer; whitespace, comments,
//! identifiers and numbers are recognized with nom.
//!
//! Lexical decisions where the language doc is silent:
//! - Whitespace is space, tab, CR, LF, vertical tab and form feed; a UTF-8 byte-order mark at
//!   the very start is skipped. Any other character outside a comment (including non-ASCII
//!   letters and NUL) is an error at its position.
//! - `--` starts a comment to the end of the line, also directly after an operator:
//!   `3 -- 1` is `3` and a comment (iSAT3 0.02 agrees).
//! - Operators are lexed by maximal munch, like iSAT3 0.02: `x<-1` is `x <- 1` (reverse
//!   implication, a type error later), not `x < -1`; `<->` beats `<-`; `!=` beats `!`;
//!   `&&` beats `&`.
//! - `//`, `#` and `%` (e.g. `%%%` header lines) are errors that say comments start with `--`.
//! - `d.X` (iSAT-ODE derivative syntax) is reported as unsupported iSAT-ODE syntax.

use crate::diag::{Diagnostic, Span};
use nom::bytes::complete::{tag, take_till, take_while, take_while1};
use nom::character::complete::satisfy;
use nom::combinator::recognize;
use nom::{IResult, Parser};

use super::number;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tok {
    /// identifiers and keywords (the parser classifies words)
    Ident,
    Num,
    LParen,
    RParen,
    LBrack,
    RBrack,
    LBrace,
    RBrace,
    Comma,
    Semi,
    /// `'`
    Prime,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Caret,
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
    /// `->`
    Arrow,
    /// `<->`
    DArrow,
    /// `<-`
    LArrow,
    /// `!`
    Bang,
    /// `&&`
    AmpAmp,
    /// `&`
    Amp,
    /// `||`
    PipePipe,
    Eof,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Token {
    pub kind: Tok,
    pub span: Span,
}

pub struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

type R<'a> = IResult<&'a str, &'a str>;

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\x0b' | '\x0c')
}

/// One run of whitespace or one `--` comment.
fn trivia(i: &str) -> R<'_> {
    if i.starts_with("--") {
        recognize((tag("--"), take_till(|c| c == '\n'))).parse(i)
    } else {
        take_while1(is_space).parse(i)
    }
}

/// `[A-Za-z_][A-Za-z0-9_]*`
pub fn identifier(i: &str) -> R<'_> {
    recognize((
        satisfy(|c| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ))
    .parse(i)
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Lexer<'a> {
        let pos = if src.starts_with('\u{FEFF}') { 3 } else { 0 };
        Lexer { src, pos }
    }

    pub fn src(&self) -> &'a str {
        self.src
    }

    /// The source text of a token.
    pub fn text(&self, t: Token) -> &'a str {
        &self.src[t.span.start as usize..t.span.end as usize]
    }

    fn skip_trivia(&mut self) {
        let mut rest = &self.src[self.pos..];
        while let Ok((r, _)) = trivia(rest) {
            rest = r;
        }
        self.pos = self.src.len() - rest.len();
    }

    fn token(&mut self, kind: Tok, len: usize) -> Result<Token, Diagnostic> {
        let start = self.pos;
        self.pos += len;
        Ok(Token {
            kind,
            span: Span::new(start, self.pos),
        })
    }

    fn error(&self, start: usize, end: usize, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(Span::new(start, end), msg)
    }

    pub fn next_token(&mut self) -> Result<Token, Diagnostic> {
        self.skip_trivia();
        let rest = &self.src[self.pos..];
        let bytes = rest.as_bytes();
        let Some(&b) = bytes.first() else {
            return Ok(Token {
                kind: Tok::Eof,
                span: Span::new(self.src.len(), self.src.len()),
            });
        };
        let next = bytes.get(1).copied();
        let start = self.pos;
        use Tok::*;
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let len = identifier(rest)
                    .map(|(r, _)| rest.len() - r.len())
                    .unwrap_or(1);
                self.check_ode(&rest[..len], len)?;
                self.token(Ident, len)
            }
            b'0'..=b'9' => match number::scan(rest) {
                Ok(len) => self.token(Num, len),
                Err(e) => Err(self.error(start + e.start, start + e.end, e.message)),
            },
            b'.' if next.is_some_and(|c| c.is_ascii_digit()) => {
                let len = 1 + rest[1..]
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len() - 1);
                Err(self.error(
                    start,
                    start + len,
                    format!(
                        "a number must start with a digit: write `0{}`",
                        &rest[..len]
                    ),
                ))
            }
            b'(' => self.token(LParen, 1),
            b')' => self.token(RParen, 1),
            b'[' => self.token(LBrack, 1),
            b']' => self.token(RBrack, 1),
            b'{' => self.token(LBrace, 1),
            b'}' => self.token(RBrace, 1),
            b',' => self.token(Comma, 1),
            b';' => self.token(Semi, 1),
            b'\'' => self.token(Prime, 1),
            b'+' => self.token(Plus, 1),
            b'-' if next == Some(b'>') => self.token(Arrow, 2),
            b'-' => self.token(Minus, 1),
            b'*' => self.token(Star, 1),
            b'/' if next == Some(b'/') => Err(self.error(
                start,
                start + 2,
                "`//` is not a comment in .hys files; comments start with `--`",
            )),
            b'/' => self.token(Slash, 1),
            b'%' => self.token(Percent, 1),
            b'^' => self.token(Caret, 1),
            b'<' if rest.starts_with("<->") => self.token(DArrow, 3),
            b'<' if next == Some(b'-') => self.token(LArrow, 2),
            b'<' if next == Some(b'=') => self.token(Le, 2),
            b'<' => self.token(Lt, 1),
            b'>' if next == Some(b'=') => self.token(Ge, 2),
            b'>' => self.token(Gt, 1),
            b'=' if next == Some(b'=') => Err(self.error(
                start,
                start + 2,
                "`==` is not an operator; equality is written `=`",
            )),
            b'=' => self.token(Eq, 1),
            b'!' if next == Some(b'=') => self.token(Ne, 2),
            b'!' => self.token(Bang, 1),
            b'&' if next == Some(b'&') => self.token(AmpAmp, 2),
            b'&' => self.token(Amp, 1),
            b'|' if next == Some(b'|') => self.token(PipePipe, 2),
            b'|' => Err(self.error(
                start,
                start + 1,
                "unexpected character `|` (`||` and `or` are disjunction)",
            )),
            b'#' => Err(self.error(
                start,
                start + 1,
                format!("unexpected `{}` (comments start with `--`)", char::from(b)),
            )),
            _ => {
                let c = rest.chars().next().unwrap_or('\u{FFFD}');
                let shown: String = if c.is_control() || c.is_whitespace() {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                };
                Err(self.error(
                    start,
                    start + c.len_utf8(),
                    format!("unexpected character `{shown}`"),
                ))
            }
        }
    }

    /// `d.X`: iSAT-ODE's derivative notation (`d.X / d.time = ...`), not part of iSAT3.
    fn check_ode(&self, word: &str, len: usize) -> Result<(), Diagnostic> {
        let after = &self.src[self.pos + len..];
        if word == "d" && after.starts_with('.') {
            if let Ok((_, var)) = identifier(&after[1..]) {
                let end = self.pos + len + 1 + var.len();
                return Err(self.error(
                    self.pos,
                    end,
                    format!(
                        "iSAT-ODE derivative `d.{var}` is not supported (`d.X / d.time` ODE \
                         constraints need iSAT-ODE)"
                    ),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(Tok, &str)> {
        let mut lx = Lexer::new(src);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token().unwrap();
            if t.kind == Tok::Eof {
                return out;
            }
            out.push((t.kind, lx.text(t)));
        }
    }

    fn first_error(src: &str) -> Diagnostic {
        let mut lx = Lexer::new(src);
        loop {
            match lx.next_token() {
                Ok(t) if t.kind == Tok::Eof => panic!("no error in {src:?}"),
                Ok(_) => {}
                Err(d) => return d,
            }
        }
    }

    #[test]
    fn operators_maximal_munch() {
        use Tok::*;
        assert_eq!(
            kinds("x<-1"),
            vec![(Ident, "x"), (LArrow, "<-"), (Num, "1")]
        );
        assert_eq!(
            kinds("a<->b<=c!=d>=e->f&&g&h||i!j"),
            vec![
                (Ident, "a"),
                (DArrow, "<->"),
                (Ident, "b"),
                (Le, "<="),
                (Ident, "c"),
                (Ne, "!="),
                (Ident, "d"),
                (Ge, ">="),
                (Ident, "e"),
                (Arrow, "->"),
                (Ident, "f"),
                (AmpAmp, "&&"),
                (Ident, "g"),
                (Amp, "&"),
                (Ident, "h"),
                (PipePipe, "||"),
                (Ident, "i"),
                (Bang, "!"),
                (Ident, "j"),
            ]
        );
        assert_eq!(
            kinds("x < -1"),
            vec![(Ident, "x"), (Lt, "<"), (Minus, "-"), (Num, "1")]
        );
    }

    #[test]
    fn comments_and_whitespace() {
        use Tok::*;
        assert_eq!(
            kinds("3 -- 1\n+2"),
            vec![(Num, "3"), (Plus, "+"), (Num, "2")]
        );
        assert_eq!(kinds("a--b"), vec![(Ident, "a")]);
        assert_eq!(kinds("a -->b\r\n\tc\x0c"), vec![(Ident, "a"), (Ident, "c")]);
        assert_eq!(kinds("\u{FEFF}x -- ä ü €\n"), vec![(Ident, "x")]);
        assert_eq!(kinds("x'"), vec![(Ident, "x"), (Prime, "'")]);
        assert_eq!(kinds("-- only a comment"), vec![]);
    }

    #[test]
    fn lexical_errors() {
        let d = first_error("a // b");
        assert_eq!(d.span, Span::new(2, 4));
        assert!(d.message.contains("`--`"));
        assert_eq!(first_error("# X").span, Span::new(0, 1));
        assert_eq!(first_error("x # y").span, Span::new(2, 3));
        assert!(first_error("x = .5").message.contains("`0.5`"));
        assert_eq!(first_error("x = .5").span, Span::new(4, 6));
        assert!(first_error("x == 1").message.contains("`=`"));
        assert!(first_error("a | b").message.contains("`|`"));
        let d = first_error("x \0");
        assert_eq!(d.span, Span::new(2, 3));
        assert!(d.message.contains("\\u{0}"), "{}", d.message);
        let d = first_error("x é");
        assert_eq!(d.span, Span::new(2, 4));
        assert!(d.message.contains('é'));
        assert!(first_error("a.b").message.contains("`.`"));
    }

    #[test]
    fn ode_derivative() {
        let d = first_error("(d.X / d.time = 1)");
        assert_eq!(d.span, Span::new(1, 4));
        assert!(d.message.contains("`d.X`"), "{}", d.message);
        assert!(d.message.contains("iSAT-ODE"));
    }
}
