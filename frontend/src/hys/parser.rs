//! The `.hys` parser (language doc Parts A and B): tokens from [`super::lexer`] (nom) to the
//! AST of [`super::ast`]. Reports the first syntax error as a [`Diagnostic`] with a byte span.
//!
//! The expression parser is an operator-precedence parser with an explicit stack, so no input
//! can overflow the call stack: left-associative chains (`a + a + ... + a`) are built
//! iteratively in linear time, and brackets, function calls and prefix operators may nest at
//! most [`MAX_NESTING`] levels ("nested too deeply" beyond).
//!
//! Syntax decisions where the language doc is silent (see also the lexer and number modules):
//! - Precedence is A.5; every binary operator is left-associative, also `^` (`2^3^2` is
//!   `(2^3)^2`, as iSAT3 0.02 computes) and the relations (`0 <= x <= 1` is
//!   `(0 <= x) <= 1`). `not`/`!` are prefix operators of level 8: `not x = 3` is
//!   `(not x) = 3` (iSAT3 0.02 reads it so too).
//! - `^` binds tighter than prefix operators (`-x^2` is `-(x^2)`). Its right operand may
//!   itself start with prefix operators, which then bind only a primary: `2^-x^2` is
//!   `(2^(-x))^2`.
//! - A function name directly followed by `(` is a call with comma-separated arguments
//!   (`Call { parenthesized: true }`); `sin (x)` with a space is the same. A one-argument
//!   function followed by anything else takes one operand at prefix-operator precedence:
//!   `abs x`, `abs -x^2` (= `abs(-(x^2))`), `abs [x]` (the argument is a `[`-bracketed
//!   group) — `Call { parenthesized: false }`. Functions of two or more arguments need `(`;
//!   `min[x, y]` is an error (iSAT3 0.02 also insists on `(`).
//! - `x'` and `x '` are both a primed name; priming anything but a name (`(x)'`) is an error.
//! - Range brackets are `[`/`(` and `]`/`)` in any combination (`[0, 3)`); `{` is not a range
//!   bracket. `int` and `float` need a range, `boole` has none; the other types take an
//!   optional range.
//! - An upper-case section keyword ends the current section; inside an expression it is a
//!   missing-`;` error.

use super::ast::*;
use super::lexer::{Lexer, Tok, Token};
use super::number;
use crate::diag::{Diagnostic, SourceMap, Span};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Maximal nesting of brackets, function calls and prefix operators in one expression.
pub const MAX_NESTING: usize = 1000;

type PResult<T> = Result<T, Diagnostic>;

/// Parses a whole `.hys` file.
pub fn parse(text: &str) -> Result<HysFile, Diagnostic> {
    if text.len() >= u32::MAX as usize {
        return Err(Diagnostic::error(
            Span::new(0, 0),
            "file too large (4 GiB or more)",
        ));
    }
    let mut p = Parser::new(text)?;
    p.file()
}

/// Parses one expression (e.g. a constraint without its `;`) that must span all of `text`.
pub fn parse_expr(text: &str) -> Result<Expr, Diagnostic> {
    if text.len() >= u32::MAX as usize {
        return Err(Diagnostic::error(Span::new(0, 0), "input too large"));
    }
    let mut p = Parser::new(text)?;
    let e = p.expr()?;
    if p.tok.kind != Tok::Eof {
        return Err(p.unexpected("after the expression"));
    }
    Ok(e)
}

/// What a word (identifier token) means.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Word {
    Decl,
    Section(SectionKind),
    Define,
    Static,
    Type(TypeKind),
    Op(BinOp),
    Not,
    Bool(bool),
    Rm(solver::num::RoundingMode),
    Func(Func),
    /// reserved without a meaning of its own here (`real`, `bool`)
    Reserved,
    Name,
}

/// FNV-1a, for the parser's table of words.
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0 ^ 0xcbf2_9ce4_8422_2325;
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type WordCache<'a> = HashMap<&'a str, Word, BuildHasherDefault<Fnv>>;

/// What a word means (slow for ordinary names: the reserved-word look-ups of `ast` are linear
/// scans; the parser caches the result per distinct word).
fn classify(w: &str) -> Word {
    use BinOp::*;
    match w {
        "DECL" => Word::Decl,
        "EXPR" => Word::Section(SectionKind::Expr),
        "INIT" => Word::Section(SectionKind::Init),
        "TRANS" => Word::Section(SectionKind::Trans),
        "TARGET" => Word::Section(SectionKind::Target),
        "define" => Word::Define,
        "static" => Word::Static,
        "boole" => Word::Type(TypeKind::Boole),
        "int" => Word::Type(TypeKind::Int),
        "float" => Word::Type(TypeKind::Real),
        "fp32" => Word::Type(TypeKind::Fp32),
        "fp64" => Word::Type(TypeKind::Fp64),
        "and" => Word::Op(And),
        "or" => Word::Op(Or),
        "nand" => Word::Op(Nand),
        "nor" => Word::Op(Nor),
        "xor" => Word::Op(Xor),
        "nxor" | "xnor" => Word::Op(Nxor),
        "impl" | "implies" => Word::Op(Impl),
        "iff" => Word::Op(Iff),
        "not" => Word::Not,
        "true" => Word::Bool(true),
        "false" => Word::Bool(false),
        "RNE" | "RNA" | "RTP" | "RTN" | "RTZ" => match rounding_mode(w) {
            Some(m) => Word::Rm(m),
            None => Word::Reserved,
        },
        _ => {
            if let Some(t) = machine_type(w) {
                Word::Type(TypeKind::Machine(t))
            } else if let Some(f) = Func::from_name(w) {
                Word::Func(f)
            } else if is_reserved(w) {
                Word::Reserved
            } else {
                Word::Name
            }
        }
    }
}

fn bracket_of(t: Tok) -> Option<(Bracket, bool)> {
    match t {
        Tok::LParen => Some((Bracket::Round, true)),
        Tok::RParen => Some((Bracket::Round, false)),
        Tok::LBrack => Some((Bracket::Square, true)),
        Tok::RBrack => Some((Bracket::Square, false)),
        Tok::LBrace => Some((Bracket::Curly, true)),
        Tok::RBrace => Some((Bracket::Curly, false)),
        _ => None,
    }
}

pub(crate) fn open_char(b: Bracket) -> char {
    match b {
        Bracket::Round => '(',
        Bracket::Square => '[',
        Bracket::Curly => '{',
    }
}

pub(crate) fn close_char(b: Bracket) -> char {
    match b {
        Bracket::Round => ')',
        Bracket::Square => ']',
        Bracket::Curly => '}',
    }
}

fn binop_of_tok(t: Tok) -> Option<BinOp> {
    use BinOp::*;
    Some(match t {
        Tok::Arrow => Impl,
        Tok::DArrow => Iff,
        Tok::LArrow => RevImpl,
        Tok::PipePipe => Or,
        Tok::AmpAmp | Tok::Amp => And,
        Tok::Lt => Lt,
        Tok::Le => Le,
        Tok::Eq => Eq,
        Tok::Ne => Ne,
        Tok::Ge => Ge,
        Tok::Gt => Gt,
        Tok::Plus => Add,
        Tok::Minus => Sub,
        Tok::Star => Mul,
        Tok::Slash => Div,
        Tok::Percent => Rem,
        Tok::Caret => Pow,
        _ => return None,
    })
}

/// A prefix operator waiting for its operand.
#[derive(Clone, Copy)]
enum PrefixOp {
    Un(UnOp),
    /// one-argument function without parentheses (`abs x`)
    Func(Func),
}

/// An entry of the expression parser's stack.
enum Frame {
    /// an open bracket
    Group { bracket: Bracket, open: Span },
    /// `f(` with the arguments parsed so far
    Call {
        func: Func,
        name: Span,
        open: Span,
        args: Vec<Expr>,
    },
    /// a prefix operator; `pow_pos` when it is (part of) the right operand of `^`, where it
    /// binds only a primary
    Prefix {
        op: PrefixOp,
        start: u32,
        pow_pos: bool,
    },
    /// a binary operator and its left operand
    Binary { op: BinOp, lhs: Expr },
}

struct Parser<'a> {
    lex: Lexer<'a>,
    /// the current (not yet consumed) token
    tok: Token,
    /// end of the last consumed token
    prev_end: u32,
    /// the previous consumed token was `;`
    prev_semi: bool,
    /// reused expression stack
    stack: Vec<Frame>,
    /// classification of the words seen so far
    words: WordCache<'a>,
    /// sum of `number::exponent_bits` over the big numbers so far
    big_number_bits: u64,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> PResult<Parser<'a>> {
        let mut lex = Lexer::new(text);
        let tok = lex.next_token()?;
        Ok(Parser {
            lex,
            tok,
            prev_end: 0,
            prev_semi: false,
            stack: Vec::new(),
            words: WordCache::default(),
            big_number_bits: 0,
        })
    }

    fn advance(&mut self) -> PResult<()> {
        // the time and memory limits are polled once per token (issue #24)
        if let Err(stop) = solver::budget::check() {
            return Err(Diagnostic::error(self.tok.span, stop.text()));
        }
        self.prev_end = self.tok.span.end;
        self.prev_semi = self.tok.kind == Tok::Semi;
        self.tok = self.lex.next_token()?;
        Ok(())
    }

    fn text(&self) -> &'a str {
        self.lex.text(self.tok)
    }

    fn word(&mut self) -> Option<Word> {
        (self.tok.kind == Tok::Ident).then(|| self.classify_ident())
    }

    /// What the current identifier token means.
    fn classify_ident(&mut self) -> Word {
        let w = self.text();
        *self.words.entry(w).or_insert_with(|| classify(w))
    }

    fn line_col(&self, offset: u32) -> String {
        let (l, c) = SourceMap::new("", self.lex.src()).line_col(offset);
        format!("{l}:{c}")
    }

    /// How the current token is named in messages.
    fn describe(&self) -> String {
        match self.tok.kind {
            Tok::Eof => "end of file".to_string(),
            // `%` is the remainder operator; where it cannot be one, it is most likely a
            // comment in another tool's syntax (`%%%` lines in iSAT-ODE files).
            Tok::Percent => "`%` (comments start with `--`)".to_string(),
            _ => {
                let t = self.text();
                if t.len() > 40 {
                    let cut = (0..=40).rev().find(|&i| t.is_char_boundary(i)).unwrap_or(0);
                    format!("`{}...`", &t[..cut])
                } else {
                    format!("`{t}`")
                }
            }
        }
    }

    fn error_here(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.tok.span, msg)
    }

    fn unexpected(&self, context: &str) -> Diagnostic {
        self.error_here(format!("unexpected {} {context}", self.describe()))
    }

    /// A missing terminator, reported right after the previous token.
    fn missing_after(&self, what: &str, after: &str) -> Diagnostic {
        if let Some((_, false)) = bracket_of(self.tok.kind) {
            return self.error_here(format!(
                "unmatched closing bracket {} (no opening bracket for it)",
                self.describe()
            ));
        }
        if self.tok.kind == Tok::Prime {
            return self.error_here("unexpected `'`: only a variable name can be primed (`x'`)");
        }
        Diagnostic::error(
            Span::new(self.prev_end as usize, self.prev_end as usize),
            format!("expected {what} after {after}, found {}", self.describe()),
        )
    }

    fn expect_semi(&mut self, after: &str) -> PResult<()> {
        if self.tok.kind == Tok::Semi {
            self.advance()
        } else {
            Err(self.missing_after("`;`", after))
        }
    }

    // ----- file structure -------------------------------------------------------------

    fn file(&mut self) -> PResult<HysFile> {
        if self.word() != Some(Word::Decl) {
            let hint = if self.tok.kind == Tok::Ident && self.text().eq_ignore_ascii_case("DECL") {
                " (section keywords are upper case)"
            } else {
                ""
            };
            return Err(self.error_here(format!(
                "expected `DECL` at the start of the file, found {}{hint}",
                self.describe()
            )));
        }
        self.advance()?;
        let mut decls = Vec::new();
        loop {
            match self.word() {
                Some(Word::Section(_)) => break,
                _ if self.tok.kind == Tok::Eof => break,
                _ => decls.push(self.decl()?),
            }
        }
        let body = match self.word() {
            Some(Word::Section(SectionKind::Expr)) => {
                let s = self.section(SectionKind::Expr)?;
                Body::Expr(s)
            }
            Some(Word::Section(SectionKind::Init)) => {
                let init = self.section(SectionKind::Init)?;
                let trans = self.expect_section(SectionKind::Trans)?;
                let target = self.expect_section(SectionKind::Target)?;
                Body::Transition {
                    init,
                    trans,
                    target,
                }
            }
            Some(Word::Section(k)) => {
                return Err(self.error_here(format!(
                    "section `{}` out of order: after the declarations comes `EXPR`, or `INIT`, \
                     `TRANS`, `TARGET` in this order",
                    k.keyword()
                )))
            }
            _ => {
                return Err(self.error_here(
                    "unexpected end of file: expected a section (`EXPR`, or `INIT`, `TRANS`, \
                     `TARGET`) after the declarations",
                ))
            }
        };
        if self.tok.kind != Tok::Eof {
            // only a section keyword can end a section early
            let msg = match (&body, self.word()) {
                (Body::Expr(_), Some(Word::Section(SectionKind::Expr))) => {
                    "section `EXPR` appears twice".to_string()
                }
                (Body::Expr(_), Some(Word::Section(k))) => format!(
                    "unexpected section `{}`: a file has either an `EXPR` section or `INIT`, \
                     `TRANS`, `TARGET` sections",
                    k.keyword()
                ),
                (_, Some(Word::Section(k))) => format!(
                    "unexpected section `{}` after `TARGET` (sections come once, in the order \
                     `INIT`, `TRANS`, `TARGET`)",
                    k.keyword()
                ),
                _ => format!("unexpected {}", self.describe()),
            };
            return Err(self.error_here(msg));
        }
        Ok(HysFile { decls, body })
    }

    fn expect_section(&mut self, kind: SectionKind) -> PResult<Section> {
        match self.word() {
            Some(Word::Section(k)) if k == kind => self.section(kind),
            Some(Word::Section(k)) => Err(self.error_here(format!(
                "section `{}` out of order: expected `{}` here (sections come in the order \
                 `INIT`, `TRANS`, `TARGET`)",
                k.keyword(),
                kind.keyword()
            ))),
            _ => Err(self.error_here(format!(
                "unexpected end of file: the `{}` section is missing",
                kind.keyword()
            ))),
        }
    }

    /// A section keyword (the current token) and its constraints.
    fn section(&mut self, kind: SectionKind) -> PResult<Section> {
        let span = self.tok.span;
        self.advance()?;
        let mut constraints = Vec::new();
        loop {
            if self.tok.kind == Tok::Eof {
                break;
            }
            match self.word() {
                Some(Word::Section(_)) => break,
                Some(Word::Decl) => {
                    return Err(
                        self.error_here("`DECL` may appear only once, at the start of the file")
                    )
                }
                _ => {}
            }
            if self.tok.kind == Tok::Semi {
                return Err(self.error_here(if self.prev_semi {
                    "unexpected `;`: `;;` is an empty constraint"
                } else {
                    "unexpected `;`: empty constraint (no `;` after section keywords)"
                }));
            }
            let e = self.expr()?;
            self.expect_semi("the constraint")?;
            constraints.push(e);
        }
        Ok(Section {
            kind,
            span,
            constraints,
        })
    }

    // ----- declarations -----------------------------------------------------------------

    fn decl(&mut self) -> PResult<Decl> {
        let start = self.tok.span.start as usize;
        match self.word() {
            Some(Word::Define) => {
                self.advance()?;
                let name = self.name()?;
                if self.tok.kind != Tok::Eq {
                    return Err(self.missing_after("`=`", "the name of the `define`"));
                }
                self.advance()?;
                let value = self.expr()?;
                self.expect_semi("the `define`")?;
                Ok(Decl::Define {
                    name,
                    value,
                    span: Span::new(start, self.prev_end as usize),
                })
            }
            Some(Word::Static) => {
                self.advance()?;
                match self.word() {
                    Some(Word::Type(_)) => self.var_decl(start, true),
                    _ => Err(self.error_here(format!(
                        "expected a type after `static`, found {}",
                        self.describe()
                    ))),
                }
            }
            Some(Word::Type(_)) => self.var_decl(start, false),
            Some(Word::Reserved) if self.text() == "real" => Err(self.error_here(
                "unknown type `real`: real variables are declared `float [lo, hi] x;`",
            )),
            Some(Word::Reserved) if self.text() == "bool" => {
                Err(self
                    .error_here("unknown type `bool`: Boolean variables are declared `boole b;`"))
            }
            Some(Word::Decl) => Err(self.error_here("`DECL` may appear only once")),
            _ => Err(self.error_here(format!(
                "expected a declaration (a type such as `float`, `int`, `boole`, or `static`, \
                 `define`) or a section keyword, found {}",
                self.describe()
            ))),
        }
    }

    /// `type [range] name, ...;` with the type keyword as the current token.
    fn var_decl(&mut self, start: usize, is_static: bool) -> PResult<Decl> {
        let Some(Word::Type(kind)) = self.word() else {
            return Err(self.unexpected("(expected a type)"));
        };
        let ty_text = self.text();
        let ty_span = self.tok.span;
        self.advance()?;
        let range = match self.tok.kind {
            Tok::LBrack | Tok::LParen => Some(self.range()?),
            Tok::LBrace => {
                return Err(
                    self.error_here("a range is written with `[` or `(` and `]` or `)`, not `{`")
                )
            }
            _ => None,
        };
        match (kind, &range) {
            (TypeKind::Boole, Some(r)) => {
                return Err(Diagnostic::error(r.span, "`boole` variables take no range"))
            }
            (TypeKind::Int | TypeKind::Real, None) => {
                return Err(self.error_here(format!(
                    "`{ty_text}` needs a range, e.g. `{ty_text} [0, 10] x;`, found {}",
                    self.describe()
                )))
            }
            _ => {}
        }
        let ty = TypeSpec {
            kind,
            span: range.as_ref().map_or(ty_span, |r| ty_span.to(r.span)),
            range,
        };
        let mut names = vec![self.name()?];
        loop {
            match self.tok.kind {
                Tok::Comma => {
                    self.advance()?;
                    names.push(self.name()?);
                }
                Tok::Semi => {
                    self.advance()?;
                    break;
                }
                _ => return Err(self.missing_after("`;`", "the declaration")),
            }
        }
        Ok(Decl::Var {
            is_static,
            ty,
            names,
            span: Span::new(start, self.prev_end as usize),
        })
    }

    /// `[lo, hi]`, `(lo, hi)`, `[lo, hi)`, `(lo, hi]`
    fn range(&mut self) -> PResult<RangeSpec> {
        let open = self.tok;
        let lo_open = open.kind == Tok::LParen;
        self.advance()?;
        let lo = self.expr()?;
        if self.tok.kind != Tok::Comma {
            return Err(self.missing_after("`,`", "the lower bound of the range"));
        }
        self.advance()?;
        let hi = self.expr()?;
        let hi_open = match self.tok.kind {
            Tok::RBrack => false,
            Tok::RParen => true,
            _ => {
                return Err(self.error_here(format!(
                    "expected `]` or `)` to close the range opened at {}, found {}",
                    self.line_col(open.span.start),
                    self.describe()
                )))
            }
        };
        let span = open.span.to(self.tok.span);
        self.advance()?;
        Ok(RangeSpec {
            lo_open,
            lo,
            hi,
            hi_open,
            span,
        })
    }

    /// A name being declared.
    fn name(&mut self) -> PResult<Ident> {
        match self.word() {
            Some(Word::Name) => {
                let id = Ident {
                    name: self.text().to_string(),
                    span: self.tok.span,
                };
                self.advance()?;
                Ok(id)
            }
            Some(_) => Err(self.error_here(format!(
                "`{}` is a reserved word and cannot be used as a name",
                self.text()
            ))),
            None => Err(self.error_here(format!("expected a name, found {}", self.describe()))),
        }
    }

    // ----- expressions ------------------------------------------------------------------

    /// One expression; stops (without consuming) at the first token that cannot continue it
    /// (`;`, `,`, a closing bracket it did not open, a keyword, ...).
    fn expr(&mut self) -> PResult<Expr> {
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        let r = self.expr_with(&mut stack);
        stack.clear();
        self.stack = stack;
        r
    }

    /// Pushes a nesting frame; `at` is the span of the construct (for the error).
    fn push_nested(
        &self,
        stack: &mut Vec<Frame>,
        depth: &mut usize,
        f: Frame,
        at: Span,
    ) -> PResult<()> {
        *depth += 1;
        if *depth > MAX_NESTING {
            return Err(Diagnostic::error(
                at,
                format!(
                    "expression nested too deeply (more than {MAX_NESTING} levels of brackets, \
                 function calls and prefix operators)"
                ),
            ));
        }
        stack.push(f);
        Ok(())
    }

    fn expr_with(&mut self, stack: &mut Vec<Frame>) -> PResult<Expr> {
        // nesting depth = number of Group, Call and Prefix frames on the stack
        let mut depth = 0usize;
        'operand: loop {
            // ---- operand position: prefix operators, openers, or an atom
            let mut cur = loop {
                let t = self.tok;
                let pow_pos = matches!(
                    stack.last(),
                    Some(Frame::Binary { op: BinOp::Pow, .. })
                        | Some(Frame::Prefix { pow_pos: true, .. })
                );
                let un = match t.kind {
                    Tok::Minus => Some(UnOp::Neg),
                    Tok::Plus => Some(UnOp::Plus),
                    Tok::Bang => Some(UnOp::Not),
                    _ => None,
                };
                if let Some(op) = un {
                    let f = Frame::Prefix {
                        op: PrefixOp::Un(op),
                        start: t.span.start,
                        pow_pos,
                    };
                    self.push_nested(stack, &mut depth, f, t.span)?;
                    self.advance()?;
                    continue;
                }
                if let Some((bracket, true)) = bracket_of(t.kind) {
                    self.push_nested(
                        stack,
                        &mut depth,
                        Frame::Group {
                            bracket,
                            open: t.span,
                        },
                        t.span,
                    )?;
                    self.advance()?;
                    continue;
                }
                match t.kind {
                    Tok::Num => {
                        let text = self.text();
                        let bits = number::exponent_bits(text);
                        if bits > number::BIG_NUMBER_BITS {
                            self.big_number_bits += bits;
                            if self.big_number_bits > number::BIG_NUMBERS_BUDGET {
                                return Err(self.error_here(format!(
                                    "number too large: the numbers with huge exponents in \
                                     this file are too many (their exponents add up to more \
                                     than {} decimal digits)",
                                    number::BIG_NUMBERS_BUDGET * 3 / 10
                                )));
                            }
                        }
                        let e = Expr::new(
                            ExprKind::Num {
                                text: text.to_string(),
                                value: number::value(text),
                            },
                            t.span,
                        );
                        self.advance()?;
                        break e;
                    }
                    Tok::Ident => {}
                    Tok::RParen | Tok::RBrack | Tok::RBrace if matches!(stack.last(), Some(Frame::Call { args, .. }) if !args.is_empty()) => {
                        return Err(self.error_here(format!(
                            "expected a function argument after `,`, found {}",
                            self.describe()
                        )))
                    }
                    Tok::RParen | Tok::RBrack | Tok::RBrace
                        if matches!(
                            stack.last(),
                            Some(Frame::Group { .. } | Frame::Call { .. })
                        ) =>
                    {
                        return Err(self.error_here(format!(
                            "empty brackets: expected an expression before {}",
                            self.describe()
                        )))
                    }
                    _ => {
                        return Err(self.error_here(format!(
                            "expected an expression, found {}",
                            self.describe()
                        )))
                    }
                }
                match self.classify_ident() {
                    Word::Not => {
                        let f = Frame::Prefix {
                            op: PrefixOp::Un(UnOp::Not),
                            start: t.span.start,
                            pow_pos,
                        };
                        self.push_nested(stack, &mut depth, f, t.span)?;
                        self.advance()?;
                    }
                    Word::Func(func) => {
                        self.advance()?;
                        if self.tok.kind == Tok::LParen {
                            let f = Frame::Call {
                                func,
                                name: t.span,
                                open: self.tok.span,
                                args: Vec::new(),
                            };
                            self.push_nested(stack, &mut depth, f, t.span)?;
                            self.advance()?;
                        } else if func.arity().0 == 1 {
                            let f = Frame::Prefix {
                                op: PrefixOp::Func(func),
                                start: t.span.start,
                                pow_pos,
                            };
                            self.push_nested(stack, &mut depth, f, t.span)?;
                        } else {
                            let (lo, _) = func.arity();
                            return Err(self.error_here(format!(
                                "expected `(` after `{}`: it takes {lo} arguments, e.g. `{}(a, b)`",
                                func.name(),
                                func.name()
                            )));
                        }
                    }
                    Word::Bool(b) => {
                        self.advance()?;
                        break Expr::new(ExprKind::Bool(b), t.span);
                    }
                    Word::Rm(m) => {
                        self.advance()?;
                        break Expr::new(ExprKind::RoundingMode(m), t.span);
                    }
                    Word::Name => {
                        let name = self.text().to_string();
                        self.advance()?;
                        let mut span = t.span;
                        let primed = self.tok.kind == Tok::Prime;
                        if primed {
                            span = span.to(self.tok.span);
                            self.advance()?;
                        }
                        break Expr::new(ExprKind::Name { name, primed }, span);
                    }
                    Word::Decl | Word::Section(_) => {
                        return Err(self.error_here(format!(
                            "expected an expression, found the section keyword {}",
                            self.describe()
                        )))
                    }
                    Word::Op(_) | Word::Define | Word::Static | Word::Type(_) | Word::Reserved => {
                        return Err(self.error_here(format!(
                            "expected an expression, found the reserved word {}",
                            self.describe()
                        )))
                    }
                }
            };
            // ---- operator position
            loop {
                let t = self.tok;
                let op = match t.kind {
                    Tok::Ident => match self.classify_ident() {
                        Word::Op(op) => Some(op),
                        _ => None,
                    },
                    k => binop_of_tok(k),
                };
                if let Some(op) = op {
                    cur = reduce(stack, cur, op.level(), &mut depth);
                    stack.push(Frame::Binary { op, lhs: cur });
                    self.advance()?;
                    continue 'operand;
                }
                match t.kind {
                    Tok::RParen | Tok::RBrack | Tok::RBrace => {
                        cur = reduce(stack, cur, 0, &mut depth);
                        let close = match t.kind {
                            Tok::RParen => Bracket::Round,
                            Tok::RBrack => Bracket::Square,
                            _ => Bracket::Curly,
                        };
                        match stack.pop() {
                            None => return Ok(cur),
                            Some(Frame::Group { bracket, open }) => {
                                depth -= 1;
                                if bracket != close {
                                    return Err(self.error_here(format!(
                                        "mismatched brackets: `{}` cannot close the `{}` opened \
                                         at {}",
                                        close_char(close),
                                        open_char(bracket),
                                        self.line_col(open.start)
                                    )));
                                }
                                cur = Expr::new(
                                    ExprKind::Paren(bracket, Box::new(cur)),
                                    open.to(t.span),
                                );
                            }
                            Some(Frame::Call {
                                func,
                                name,
                                open,
                                mut args,
                            }) => {
                                depth -= 1;
                                if close != Bracket::Round {
                                    return Err(self.error_here(format!(
                                        "mismatched brackets: `{}` cannot close the `(` of \
                                         `{}(` opened at {}",
                                        close_char(close),
                                        func.name(),
                                        self.line_col(open.start)
                                    )));
                                }
                                args.push(cur);
                                cur = Expr::new(
                                    ExprKind::Call {
                                        func,
                                        args,
                                        parenthesized: true,
                                    },
                                    name.to(t.span),
                                );
                            }
                            Some(_) => return Err(self.internal()),
                        }
                        self.advance()?;
                    }
                    Tok::Comma => {
                        cur = reduce(stack, cur, 0, &mut depth);
                        match stack.last_mut() {
                            None => return Ok(cur),
                            Some(Frame::Call { args, .. }) => {
                                args.push(cur);
                                self.advance()?;
                                continue 'operand;
                            }
                            Some(Frame::Group { bracket, open }) => {
                                return Err(self.error_here(format!(
                                    "unexpected `,` inside the `{}` opened at {} (only \
                                     function arguments are separated by commas)",
                                    open_char(*bracket),
                                    self.line_col(open.start)
                                )))
                            }
                            Some(_) => return Err(self.internal()),
                        }
                    }
                    Tok::Prime => {
                        return Err(self.error_here(
                            "unexpected `'`: only a variable name can be primed (`x'`)",
                        ))
                    }
                    _ => {
                        cur = reduce(stack, cur, 0, &mut depth);
                        return match stack.last() {
                            None => Ok(cur),
                            Some(Frame::Group { bracket, open }) => {
                                Err(self.unclosed(open_char(*bracket), *open))
                            }
                            Some(Frame::Call { open, .. }) => Err(self.unclosed('(', *open)),
                            Some(_) => Err(self.internal()),
                        };
                    }
                }
            }
        }
    }

    /// A broken parser invariant, reported instead of panicking.
    fn internal(&self) -> Diagnostic {
        self.error_here("internal error in the .hys parser (please report this input)")
    }

    fn unclosed(&self, open: char, at: Span) -> Diagnostic {
        let close = match open {
            '[' => ']',
            '{' => '}',
            _ => ')',
        };
        if self.tok.kind == Tok::Eof {
            self.error_here(format!(
                "unexpected end of file: the `{open}` opened at {} is not closed",
                self.line_col(at.start)
            ))
        } else {
            self.error_here(format!(
                "expected `{close}` to close the `{open}` opened at {}, found {}",
                self.line_col(at.start),
                self.describe()
            ))
        }
    }
}

/// Pops and applies the operators on top of `stack` that bind at least as tightly as an
/// incoming binary operator of precedence `level` (0: all of them, down to the innermost
/// bracket). Left-associativity: an operator of the same level is applied first.
fn reduce(stack: &mut Vec<Frame>, mut cur: Expr, level: u8, depth: &mut usize) -> Expr {
    loop {
        let apply = match stack.last() {
            Some(Frame::Binary { op, .. }) => op.level() >= level,
            // prefix operators bind like level 8; in the right operand of `^` like level 9
            Some(Frame::Prefix { pow_pos, .. }) => (if *pow_pos { 9 } else { 8 }) >= level,
            _ => false,
        };
        if !apply {
            return cur;
        }
        match stack.pop() {
            Some(Frame::Binary { op, lhs }) => {
                let span = lhs.span.to(cur.span);
                cur = Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(cur)), span);
            }
            Some(Frame::Prefix { op, start, .. }) => {
                *depth -= 1;
                let span = Span {
                    start,
                    end: cur.span.end,
                };
                let kind = match op {
                    PrefixOp::Un(u) => ExprKind::Unary(u, Box::new(cur)),
                    PrefixOp::Func(func) => ExprKind::Call {
                        func,
                        args: vec![cur],
                        parenthesized: false,
                    },
                };
                cur = Expr::new(kind, span);
            }
            Some(other) => {
                // not reachable (checked above); put it back and stop
                stack.push(other);
                return cur;
            }
            None => return cur,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hys::printer::{print, print_expr, unop_symbol};
    use num_bigint::BigInt;
    use solver::num::{IntType, Rational, RoundingMode};
    use std::time::{Duration, Instant};

    /// S-expression view of an expression: `(op a b)`, brackets kept, `~` marks a call
    /// without parentheses.
    fn sx(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Num { text, .. } => text.clone(),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Name { name, primed } => format!("{name}{}", if *primed { "'" } else { "" }),
            ExprKind::RoundingMode(m) => m.name().to_string(),
            ExprKind::Unary(op, x) => format!("({} {})", unop_symbol(*op), sx(x)),
            ExprKind::Binary(op, l, r) => format!("({} {} {})", op.symbol(), sx(l), sx(r)),
            ExprKind::Call {
                func,
                args,
                parenthesized,
            } => {
                let args: Vec<String> = args.iter().map(sx).collect();
                let mark = if *parenthesized { "" } else { "~" };
                format!("({}{mark} {})", func.name(), args.join(" "))
            }
            ExprKind::Paren(b, x) => format!("{}{}{}", open_char(*b), sx(x), close_char(*b)),
        }
    }

    fn e(src: &str) -> String {
        match parse_expr(src) {
            Ok(x) => sx(&x),
            Err(d) => panic!("{src:?}: {}", SourceMap::new("e", src).render(&d)),
        }
    }

    fn file(src: &str) -> HysFile {
        parse(src).unwrap_or_else(|d| panic!("{}", SourceMap::new("t.hys", src).render(&d)))
    }

    /// The rendered error for `src` (`t.hys:LINE:COL: message`).
    fn err(src: &str) -> String {
        match parse(src) {
            Ok(f) => panic!("{src:?} parsed: {f:?}"),
            Err(d) => {
                assert!(d.is_error());
                assert!(d.span.start <= d.span.end && d.span.end as usize <= src.len());
                SourceMap::new("t.hys", src).render(&d)
            }
        }
    }

    fn value(src: &str) -> Rational {
        match &parse_expr(src).unwrap().kind {
            ExprKind::Num { value, .. } => value.clone(),
            k => panic!("not a number: {k:?}"),
        }
    }

    fn q(n: i64, d: i64) -> Rational {
        Rational::new(BigInt::from(n), BigInt::from(d))
    }

    fn constraints(f: &HysFile) -> Vec<String> {
        f.sections()
            .iter()
            .flat_map(|s| s.constraints.iter().map(sx))
            .collect()
    }

    /// Runs `f` on a thread with a 2 MiB stack (the default for test threads).
    fn small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap()
    }

    #[test]
    fn word_classes_agree_with_the_reserved_words() {
        let words = [
            "DECL", "EXPR", "INIT", "TRANS", "TARGET", "define", "static", "boole", "int", "float",
            "fp32", "fp64", "and", "or", "not", "nand", "nor", "xor", "nxor", "xnor", "impl",
            "implies", "iff", "true", "false", "RNE", "RNA", "RTP", "RTN", "RTZ", "real", "bool",
            "ite", "int8", "uint64", "abs", "sin", "to_fp32", "to_int16", "bitnot", "isnan", "x",
            "x0", "skoX", "Decl", "expr", "And", "rne", "to_int7", "int128", "d",
        ];
        for w in words {
            assert_eq!(classify(w) != Word::Name, is_reserved(w), "{w}");
        }
        assert_eq!(classify("xnor"), Word::Op(BinOp::Nxor));
        assert_eq!(classify("implies"), Word::Op(BinOp::Impl));
        assert_eq!(classify("float"), Word::Type(TypeKind::Real));
        assert_eq!(
            classify("uint32"),
            Word::Type(TypeKind::Machine(IntType::new(32, false)))
        );
        assert_eq!(classify("sqrt"), Word::Func(Func::Sqrt));
        assert_eq!(classify("RNA"), Word::Rm(RoundingMode::Rna));
    }

    #[test]
    fn numbers_are_exact() {
        assert_eq!(value("0x1.8p+1"), q(3, 1));
        assert_eq!(value("0x1p-3"), q(1, 8));
        assert_eq!(value("0xA.8p0"), q(21, 2));
        assert_eq!(value("0x1F"), q(31, 1));
        assert_eq!(value("1e-3"), q(1, 1000));
        assert_eq!(value("1E+2"), q(100, 1));
        assert_eq!(value("0.5"), q(1, 2));
        assert_eq!(value("42"), q(42, 1));
        let digits = "123456789".repeat(13) + "0123";
        assert_eq!(digits.len(), 121);
        let text = format!("{}.{}", &digits[..60], &digits[60..]);
        let expect = Rational::new(
            BigInt::parse_bytes(digits.as_bytes(), 10).unwrap(),
            num_traits::pow(BigInt::from(10), 61),
        );
        assert_eq!(value(&text), expect);
        // the text is kept as written
        let x = parse_expr("1E+2").unwrap();
        assert!(matches!(&x.kind, ExprKind::Num { text, .. } if text == "1E+2"));
        // negative numbers are a unary minus applied to a number
        assert_eq!(e("-1"), "(- 1)");
    }

    #[test]
    fn operator_aliases() {
        assert_eq!(e("a and b && c & d"), "(and (and (and a b) c) d)");
        assert_eq!(e("a or b || c"), "(or (or a b) c)");
        assert_eq!(e("a nand b nor c"), "(nor (nand a b) c)");
        assert_eq!(e("a xor b nxor c xnor d"), "(nxor (nxor (xor a b) c) d)");
        assert_eq!(e("a impl b -> c implies d"), "(-> (-> (-> a b) c) d)");
        assert_eq!(e("a <-> b iff c <- d"), "(<- (<-> (<-> a b) c) d)");
        assert_eq!(e("not a and !b"), "(and (! a) (! b))");
        assert_eq!(
            e("a<b<=c=d!=e>=f>g"),
            "(> (>= (!= (= (<= (< a b) c) d) e) f) g)"
        );
        assert_eq!(e("+a - -b"), "(- (+ a) (- b))");
        assert_eq!(e("a*b/c"), "(/ (* a b) c)");
        assert_eq!(e("true or false"), "(or true false)");
        assert_eq!(e("fadd(a, b, RNE)"), "(fadd a b RNE)");
        let x = parse_expr("RTZ").unwrap();
        assert_eq!(x.kind, ExprKind::RoundingMode(RoundingMode::Rtz));
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(e("-x^2"), "(- (^ x 2))");
        assert_eq!(e("a or b and c"), "(or a (and b c))");
        assert_eq!(e("a and b or c"), "(or (and a b) c)");
        assert_eq!(e("a -> b <-> c"), "(<-> (-> a b) c)");
        assert_eq!(e("0 <= x <= 1"), "(<= (<= 0 x) 1)");
        assert_eq!(e("not x = 3"), "(= (! x) 3)");
        assert_eq!(e("!x > 3 and y"), "(and (> (! x) 3) y)");
        assert_eq!(e("2^3^2"), "(^ (^ 2 3) 2)");
        assert_eq!(e("a - b - c"), "(- (- a b) c)");
        assert_eq!(e("a / b * c"), "(* (/ a b) c)");
        assert_eq!(e("a + b * c ^ d"), "(+ a (* b (^ c d)))");
        assert_eq!(e("a xor b or c and d"), "(or (xor a b) (and c d))");
        assert_eq!(e("x + 1 > y * 2 -> z"), "(-> (> (+ x 1) (* y 2)) z)");
        assert_eq!(e("- -x"), "(- (- x))");
        assert_eq!(e("-x * y"), "(* (- x) y)");
        assert_eq!(e("2^-1"), "(^ 2 (- 1))");
        assert_eq!(e("2^-x^2"), "(^ (^ 2 (- x)) 2)");
        assert_eq!(e("-x^-y^2"), "(- (^ (^ x (- y)) 2))");
        assert_eq!(e("x < -1"), "(< x (- 1))");
        // maximal munch, like iSAT3 0.02
        assert_eq!(e("x<-1"), "(<- x 1)");
        assert_eq!(e("n>500 && (a) or (b)"), "(or (and (> n 500) (a)) (b))");
    }

    #[test]
    fn brackets_group_interchangeably() {
        assert_eq!(e("[a + b] * {c}"), "(* [(+ a b)] {c})");
        assert_eq!(e("((x))"), "((x))");
        assert_eq!(e("or_1 or((a > b))"), "(or or_1 (((> a b))))");
        assert_eq!(e("!((x0 * x0) >= 1)"), "(! ((>= ((* x0 x0)) 1)))");
        let x = parse_expr(" ( a ) ").unwrap();
        assert_eq!(x.span, Span::new(1, 6));
    }

    #[test]
    fn function_calls() {
        assert_eq!(e("sin(x)"), "(sin x)");
        assert_eq!(e("sin (x) ^ 2"), "(^ (sin x) 2)");
        assert_eq!(e("nrt(x, 3)"), "(nrt x 3)");
        assert_eq!(e("pow(x + 1, 2)"), "(pow (+ x 1) 2)");
        assert_eq!(e("ite(a, min(x, y), 0)"), "(ite a (min x y) 0)");
        assert_eq!(e("to_fp32(x, RTZ)"), "(to_fp32 x RTZ)");
        assert_eq!(e("to_uint16(x)"), "(to_uint16 x)");
        assert_eq!(e("abs x"), "(abs~ x)");
        assert_eq!(e("abs x + 1"), "(+ (abs~ x) 1)");
        assert_eq!(e("abs -x^2"), "(abs~ (- (^ x 2)))");
        assert_eq!(e("abs abs x"), "(abs~ (abs~ x))");
        assert_eq!(e("abs [x - 1]"), "(abs~ [(- x 1)])");
        assert_eq!(e("2 ^ abs x ^ 2"), "(^ (^ 2 (abs~ x)) 2)");
        assert_eq!(e("exp(1)^2"), "(^ (exp 1) 2)");
        let x = parse_expr("abs (x)").unwrap();
        assert!(matches!(
            x.kind,
            ExprKind::Call {
                parenthesized: true,
                ..
            }
        ));
        assert_eq!(x.span, Span::new(0, 7));
        let x = parse_expr("abs x").unwrap();
        assert!(matches!(
            x.kind,
            ExprKind::Call {
                parenthesized: false,
                ..
            }
        ));
        assert_eq!(x.span, Span::new(0, 5));
    }

    #[test]
    fn primes() {
        assert_eq!(e("x' = x + 1"), "(= x' (+ x 1))");
        assert_eq!(e("x ' = x"), "(= x' x)");
        let x = parse_expr("jump'").unwrap();
        assert_eq!(x.span, Span::new(0, 5));
        let d = parse_expr("(x)' = 1").unwrap_err();
        assert_eq!(d.span, Span::new(3, 4));
        assert!(d.message.contains("primed"), "{}", d.message);
        assert!(parse_expr("x'' = 1")
            .unwrap_err()
            .message
            .contains("primed"));
    }

    #[test]
    fn both_file_forms() {
        let f = file(
            "DECL\n-- The range of each variable has to be bounded.\nint [1, 100] a, b, c;\n\n\
             EXPR\n-- Constraint to be solved.\na*a + b*b = c*c;\n",
        );
        assert_eq!(f.decls.len(), 1);
        assert!(matches!(&f.body, Body::Expr(s) if s.kind == SectionKind::Expr));
        assert_eq!(constraints(&f), ["(= (+ (* a a) (* b b)) (* c c))"]);

        let src = "DECL\ndefine f = 2.0;\nfloat [0, 1000] x;\nboole jump;\n\nINIT\nx = 0.5;\n\
                   !jump;\n\nTRANS\njump' <-> !jump;\n\njump -> f * x' = x;\n!jump -> x' = x + 2;\
                   \n\nTARGET\nx > 3.5;\n";
        let f = file(src);
        let Body::Transition {
            init,
            trans,
            target,
        } = &f.body
        else {
            panic!("not a transition system")
        };
        assert_eq!(init.constraints.len(), 2);
        assert_eq!(trans.constraints.len(), 3);
        assert_eq!(target.constraints.len(), 1);
        assert_eq!(
            init.span,
            Span::new(src.find("INIT").unwrap(), src.find("INIT").unwrap() + 4)
        );
        assert_eq!(sx(&trans.constraints[1]), "(-> jump (= (* f x') x))");
        match &f.decls[0] {
            Decl::Define { name, value, span } => {
                assert_eq!(name.name, "f");
                assert_eq!(sx(value), "2.0");
                assert_eq!(
                    &src[span.start as usize..span.end as usize],
                    "define f = 2.0;"
                );
            }
            d => panic!("{d:?}"),
        }

        // empty sections
        let f = file("DECL EXPR");
        assert!(matches!(&f.body, Body::Expr(s) if s.constraints.is_empty()));
        assert!(f.decls.is_empty());
        let f = file("DECL\nboole b;\nINIT\nTRANS\nTARGET\n");
        assert_eq!(f.sections().len(), 3);
        assert!(f.sections().iter().all(|s| s.constraints.is_empty()));
    }

    /// (static, type, range as (lo open, lo, hi, hi open), names)
    type VarView = (
        bool,
        TypeKind,
        Option<(bool, String, String, bool)>,
        Vec<String>,
    );

    #[test]
    fn declarations() {
        let src = "DECL\n static boole a, b;\n int [lo, hi] n;\n float[0, 1] X;\n fp32 x;\n\
                   fp64 [-1e3, 1e3] z;\n int8 i8; uint64 [0, 10] u;\n int (0,3) m;\n\
                   float [0,3) r; define N = 2 * M - -1;\n float [-N, N + 1] y;\nEXPR\n";
        let f = file(src);
        assert_eq!(f.decls.len(), 11);
        let vars: Vec<VarView> = f
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Var {
                    is_static,
                    ty,
                    names,
                    ..
                } => Some((
                    *is_static,
                    ty.kind,
                    ty.range
                        .as_ref()
                        .map(|r| (r.lo_open, sx(&r.lo), sx(&r.hi), r.hi_open)),
                    names.iter().map(|n| n.name.clone()).collect(),
                )),
                Decl::Define { .. } => None,
            })
            .collect();
        let s = |x: &str| x.to_string();
        assert_eq!(vars[0], (true, TypeKind::Boole, None, vec![s("a"), s("b")]));
        assert_eq!(
            vars[1],
            (
                false,
                TypeKind::Int,
                Some((false, s("lo"), s("hi"), false)),
                vec![s("n")]
            )
        );
        assert_eq!(vars[2].1, TypeKind::Real);
        assert_eq!(vars[2].3, vec![s("X")]);
        assert_eq!(vars[3], (false, TypeKind::Fp32, None, vec![s("x")]));
        assert_eq!(vars[4].2, Some((false, s("(- 1e3)"), s("1e3"), false)));
        assert_eq!(vars[5].1, TypeKind::Machine(IntType::new(8, true)));
        assert_eq!(vars[6].1, TypeKind::Machine(IntType::new(64, false)));
        assert_eq!(vars[7].2, Some((true, s("0"), s("3"), true)));
        assert_eq!(vars[8].2, Some((false, s("0"), s("3"), true)));
        assert_eq!(vars[9].2, Some((false, s("(- N)"), s("(+ N 1)"), false)));
        assert!(
            matches!(&f.decls[9], Decl::Define { value, .. } if sx(value) == "(- (* 2 M) (- 1))")
        );
        // spans of a declaration, its type and its names
        match &f.decls[1] {
            Decl::Var {
                ty, names, span, ..
            } => {
                let at = |s: Span| &src[s.start as usize..s.end as usize];
                assert_eq!(at(*span), "int [lo, hi] n;");
                assert_eq!(at(ty.span), "int [lo, hi]");
                assert_eq!(at(ty.range.as_ref().unwrap().span), "[lo, hi]");
                assert_eq!(at(names[0].span), "n");
            }
            d => panic!("{d:?}"),
        }
        match &f.decls[0] {
            Decl::Var { span, .. } => assert_eq!(span.start as usize, src.find("static").unwrap()),
            d => panic!("{d:?}"),
        }
    }

    #[test]
    fn real_file_quirks() {
        // several constraints on a line, Booleans compared with numbers, CRLF, tabs,
        // trailing whitespace, UTF-8 in comments, no final newline
        let src = "DECL\r\n\tboole mode_1;  \r\n\tfloat [0, 10] cb1, cb2; -- Größe ≤ 10\r\n\
                   EXPR\r\n\tcb1 = 0;cb2 = 10;\r\n\tmode_1 = 1;\r\n\t(1 < 0);\t\r\n\
                   \tcb1 > 1 or((cb1 > cb2));";
        let f = file(src);
        assert_eq!(
            constraints(&f),
            [
                "(= cb1 0)",
                "(= cb2 10)",
                "(= mode_1 1)",
                "((< 1 0))",
                "(or (> cb1 1) (((> cb1 cb2))))"
            ]
        );
    }

    #[test]
    fn crlf_positions() {
        let src = "DECL\r\n  float [0, 1] x;\r\nEXPR\r\n  x > 1\r\n  x < 0;\r\n";
        assert_eq!(
            err(src),
            "t.hys:4:8: expected `;` after the constraint, found `x`"
        );
    }

    #[test]
    fn error_positions() {
        let cases: &[(&str, &str)] = &[
            // missing `;`: reported where it belongs
            (
                "DECL\nfloat [0,1] x;\nEXPR\nx > 1\nx < 0;\n",
                "t.hys:4:6: expected `;` after the constraint, found `x`",
            ),
            (
                "DECL\nfloat [0,1] x\nfloat [0,1] y;\nEXPR\n",
                "t.hys:2:14: expected `;` after the declaration, found `float`",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nx > 1",
                "t.hys:4:6: expected `;` after the constraint, found end of file",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nx > 1\nTARGET",
                "t.hys:4:6: expected `;` after the constraint, found `TARGET`",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nx > 1;;\n",
                "t.hys:4:7: unexpected `;`: `;;` is an empty constraint",
            ),
            (
                "DECL\nEXPR;\n",
                "t.hys:2:5: unexpected `;`: empty constraint (no `;` after section keywords)",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\n  x > 1; // note\n",
                "t.hys:4:10: `//` is not a comment in .hys files; comments start with `--`",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\n  x > .5;\n",
                "t.hys:4:7: a number must start with a digit: write `0.5`",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\n  x > 5.;\n",
                "t.hys:4:8: expected digits after the decimal point of `5.` (write `5.0`)",
            ),
            (
                "DECL\nfloat [0,1] x;\nTRANS\nx' = x;\n",
                "t.hys:3:1: section `TRANS` out of order: after the declarations comes `EXPR`, \
                 or `INIT`, `TRANS`, `TARGET` in this order",
            ),
            (
                "DECL\nfloat [0,1] x;\nINIT\nx = 0;\nTARGET\nx > 1;\n",
                "t.hys:5:1: section `TARGET` out of order: expected `TRANS` here (sections \
                 come in the order `INIT`, `TRANS`, `TARGET`)",
            ),
            (
                "DECL\nfloat [0,1] x;\nINIT\nx = 0;\nTRANS\nx' = x;\n",
                "t.hys:7:1: unexpected end of file: the `TARGET` section is missing",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nx > 0;\nINIT\n",
                "t.hys:5:1: unexpected section `INIT`: a file has either an `EXPR` section or \
                 `INIT`, `TRANS`, `TARGET` sections",
            ),
            (
                "DECL\nEXPR\nEXPR\n",
                "t.hys:3:1: section `EXPR` appears twice",
            ),
            (
                "DECL\nboole b;\nINIT\nb;\nTRANS\nTARGET\nb;\nTRANS\n",
                "t.hys:8:1: unexpected section `TRANS` after `TARGET` (sections come once, in \
                 the order `INIT`, `TRANS`, `TARGET`)",
            ),
            (
                "DECL\nfloat [0,1] x;\n",
                "t.hys:3:1: unexpected end of file: expected a section (`EXPR`, or `INIT`, \
                 `TRANS`, `TARGET`) after the declarations",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\n(x + (1\n",
                "t.hys:5:1: unexpected end of file: the `(` opened at 4:6 is not closed",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nx + \n",
                "t.hys:5:1: expected an expression, found end of file",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\n  [x + (1 > 0]);\n",
                "t.hys:4:14: mismatched brackets: `]` cannot close the `(` opened at 4:8",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\n  sin(x] > 0;\n",
                "t.hys:4:8: mismatched brackets: `]` cannot close the `(` of `sin(` opened at \
                 4:6",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\n  {x > 0;\n",
                "t.hys:4:9: expected `}` to close the `{` opened at 4:3, found `;`",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\n  x > 0);\n",
                "t.hys:4:8: unmatched closing bracket `)` (no opening bracket for it)",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\n  () > 0;\n",
                "t.hys:4:4: empty brackets: expected an expression before `)`",
            ),
            (
                "DECL\n  float [0,1] x, sin;\nEXPR\n",
                "t.hys:2:18: `sin` is a reserved word and cannot be used as a name",
            ),
            (
                "DECL\n  define and = 3;\nEXPR\n",
                "t.hys:2:10: `and` is a reserved word and cannot be used as a name",
            ),
            (
                "DECL\n  boole RNE;\nEXPR\n",
                "t.hys:2:9: `RNE` is a reserved word and cannot be used as a name",
            ),
            (
                "DECL\n  float [0,1] x;\nEXPR\n  x = 1e999999999;\n",
                "t.hys:4:7: number too large: its exponent exceeds the limit of ±20000",
            ),
            (
                "DECL\n  float [0,1] x;\nEXPR\n  x = 0x1.8;\n",
                "t.hys:4:7: hexadecimal floating constant `0x1.8` needs a binary exponent, \
                 e.g. `0x1.8p0` (C99)",
            ),
            (
                "%%% X ->{k1} 2X\nDECL\n",
                "t.hys:1:1: expected `DECL` at the start of the file, found `%` (comments start with `--`)",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\n  # x > 0;\n",
                "t.hys:4:3: unexpected `#` (comments start with `--`)",
            ),
            (
                "DECL\nfloat [0,1] X;\nEXPR\n\t(d.X / d.time = 1);\n",
                "t.hys:4:3: iSAT-ODE derivative `d.X` is not supported (`d.X / d.time` ODE \
                 constraints need iSAT-ODE)",
            ),
            (
                "",
                "t.hys:1:1: expected `DECL` at the start of the file, found end of file",
            ),
            (
                "-- just a comment\nEXPR\n",
                "t.hys:2:1: expected `DECL` at the start of the file, found `EXPR`",
            ),
            (
                "decl\n",
                "t.hys:1:1: expected `DECL` at the start of the file, found `decl` (section \
                 keywords are upper case)",
            ),
            (
                "DECL\n  int n;\nEXPR\n",
                "t.hys:2:7: `int` needs a range, e.g. `int [0, 10] x;`, found `n`",
            ),
            (
                "DECL\n  float x;\nEXPR\n",
                "t.hys:2:9: `float` needs a range, e.g. `float [0, 10] x;`, found `x`",
            ),
            (
                "DECL\n  boole [0, 1] b;\nEXPR\n",
                "t.hys:2:9: `boole` variables take no range",
            ),
            (
                "DECL\n  float {0, 1} x;\nEXPR\n",
                "t.hys:2:9: a range is written with `[` or `(` and `]` or `)`, not `{`",
            ),
            (
                "DECL\n  float [0, 1} x;\nEXPR\n",
                "t.hys:2:14: expected `]` or `)` to close the range opened at 2:9, found `}`",
            ),
            (
                "DECL\n  float [0 1] x;\nEXPR\n",
                "t.hys:2:11: expected `,` after the lower bound of the range, found `1`",
            ),
            (
                "DECL\n  real [0, 1] x;\nEXPR\n",
                "t.hys:2:3: unknown type `real`: real variables are declared `float [lo, hi] x;`",
            ),
            (
                "DECL\n  x > 0;\nEXPR\n",
                "t.hys:2:3: expected a declaration (a type such as `float`, `int`, `boole`, or \
                 `static`, `define`) or a section keyword, found `x`",
            ),
            (
                "DECL\n  static define N = 1;\nEXPR\n",
                "t.hys:2:10: expected a type after `static`, found `define`",
            ),
            (
                "DECL\n  define N 1;\nEXPR\n",
                "t.hys:2:11: expected `=` after the name of the `define`, found `1`",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nx > 0;\nDECL\n",
                "t.hys:5:1: `DECL` may appear only once, at the start of the file",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nmin x > 0;\n",
                "t.hys:4:5: expected `(` after `min`: it takes 2 arguments, e.g. `min(a, b)`",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nmin[x, 1] > 0;\n",
                "t.hys:4:4: expected `(` after `min`: it takes 2 arguments, e.g. `min(a, b)`",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\n(x, 1) > 0;\n",
                "t.hys:4:3: unexpected `,` inside the `(` opened at 4:1 (only function \
                 arguments are separated by commas)",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nmin(x, ) > 0;\n",
                "t.hys:4:8: expected a function argument after `,`, found `)`",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nx | x;\n",
                "t.hys:4:3: unexpected character `|` (`||` and `or` are disjunction)",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nx > and;\n",
                "t.hys:4:5: expected an expression, found the reserved word `and`",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nx == 1;\n",
                "t.hys:4:3: `==` is not an operator; equality is written `=`",
            ),
            (
                "DECL\nfloat [0,1] x;\nEXPR\nx = 2x;\n",
                "t.hys:4:5: malformed number `2x`",
            ),
        ];
        for (src, expect) in cases {
            assert_eq!(&err(src), expect, "input {src:?}");
        }
    }

    #[test]
    fn nesting_limit() {
        // Every construct that nests counts; the limit holds on a 2 MiB stack.
        for opener in ["(", "[", "{", "- ", "+", "not ", "!", "abs ", "sin("] {
            small_stack(move || {
                let src = format!("DECL\nEXPR\n{}x;", opener.repeat(100_000));
                let d = parse(&src).unwrap_err();
                let rendered = SourceMap::new("t.hys", &src).render(&d);
                assert!(d.message.contains("nested too deeply"), "{rendered}");
                // the error is at the first construct beyond the limit
                let col = MAX_NESTING * opener.len() + 1;
                assert_eq!(rendered, format!("t.hys:3:{col}: {}", d.message));
            });
        }
        // exactly at the limit is fine
        small_stack(|| {
            let n = MAX_NESTING;
            let src = format!("DECL\nEXPR\n{}x{};", "(".repeat(n), ")".repeat(n));
            let f = parse(&src).unwrap();
            let again = parse(&print(&f)).unwrap();
            let (mut a, mut b) = (f, again);
            a.strip_spans();
            b.strip_spans();
            assert!(a == b);
        });
    }

    #[test]
    fn long_chains_are_iterative_and_linear() {
        small_stack(|| {
            let n = 100_000;
            let src = format!("DECL\nfloat [0,1] a;\nEXPR\n{}a > 0;", "a + ".repeat(n - 1));
            let t0 = Instant::now();
            let f = parse(&src).unwrap();
            let elapsed = t0.elapsed();
            assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
            // left-deep: (((a + a) + a) + ...)
            let Body::Expr(s) = &f.body else { panic!() };
            let ExprKind::Binary(BinOp::Gt, lhs, _) = &s.constraints[0].kind else {
                panic!()
            };
            let mut node: &Expr = lhs;
            let mut depth = 0;
            while let ExprKind::Binary(BinOp::Add, l, r) = &node.kind {
                assert!(matches!(r.kind, ExprKind::Name { .. }));
                node = l;
                depth += 1;
            }
            assert_eq!(depth, n - 1);
            // print, re-parse, compare and drop the deep trees without recursion
            let printed = print(&f);
            assert!(printed.contains("a + a + a"));
            let mut a = f;
            let mut b = parse(&printed).unwrap();
            a.strip_spans();
            b.strip_spans();
            assert!(a == b);
            // a 200k chain takes about twice as long, not four times (generous bound)
            let src2 = format!("DECL\nEXPR\n{}a;", "a * ".repeat(2 * n));
            let t1 = Instant::now();
            let g = parse(&src2).unwrap();
            let elapsed2 = t1.elapsed();
            drop(g);
            assert!(
                elapsed2 < elapsed * 6 + Duration::from_millis(200),
                "{elapsed:?} {elapsed2:?}"
            );
        });
        // an error after a long chain drops the partial tree safely
        small_stack(|| {
            let src = format!("DECL\nEXPR\n{}a", "a - ".repeat(100_000));
            let d = parse(&src).unwrap_err();
            assert!(d.message.contains("expected `;`"));
        });
    }

    #[test]
    fn huge_exponents_are_limited_per_file() {
        // each is fine, and a few dozen are fine
        let ok = format!("DECL\nEXPR\n{}0 > 0;", "1e-20000 + 0x1p20000 + ".repeat(10));
        let t0 = Instant::now();
        assert!(parse(&ok).is_ok());
        // a file full of them is refused quickly instead of taking minutes and gigabytes
        let src = format!("DECL\nEXPR\n{}0 > 0;", "1e-20000 + ".repeat(100_000));
        let d = parse(&src).unwrap_err();
        assert!(d.message.contains("number too large"), "{}", d.message);
        // the 16th such number exceeds the budget
        assert_eq!(
            d.span.start as usize,
            "DECL\nEXPR\n".len() + 15 * "1e-20000 + ".len()
        );
        // many exponents of everyday size are not limited
        let src = format!(
            "DECL\nEXPR\n{}0 > 0;",
            "4.9406564584124654e-324 + ".repeat(20_000)
        );
        assert!(parse(&src).is_ok());
        assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    }

    #[test]
    fn huge_inputs() {
        small_stack(|| {
            let name = "x".repeat(1 << 20);
            let src = format!("DECL\nfloat [0, 1] {name};\nEXPR\n{name} > 0;");
            let f = parse(&src).unwrap();
            assert_eq!(constraints(&f)[0].len(), (1 << 20) + 6);
            let digits = "7".repeat(number::MAX_DIGITS);
            let f = parse(&format!("DECL\nEXPR\n{digits} > 0;")).unwrap();
            assert_eq!(constraints(&f)[0].len(), number::MAX_DIGITS + 6);
            let d = parse(&format!("DECL\nEXPR\n{digits}7 > 0;")).unwrap_err();
            assert!(d.message.contains("number too large"));
            let d = parse("DECL\nEXPR\nx > 0;\0").unwrap_err();
            assert_eq!(d.span, Span::new(16, 17));
        });
    }

    #[test]
    fn printer_round_trip_of_examples() {
        let src = "DECL\n static boole a;\n int (0, 3] n;\n float[-1e3,0x1p4) x;\n\
                   define N = -2;\n fp64 z; uint8 [0, N * 2] u;\nINIT\n  a && n = 1 || !a;\n\
                   TRANS\n  x' = abs x + [x - 1] ^ 2 ^ 3;\n  n' = n + 1 <- a;\n\
                   TARGET\n  - -x < --comment\n  -abs -x;\n  fadd(x, z, RNE) > 0 xnor a;\n";
        let f = file(src);
        let printed = print(&f);
        assert_eq!(
            printed,
            "DECL\n  static boole a;\n  int (0, 3] n;\n  float [-1e3, 0x1p4) x;\n  define N = -2;\n  \
             fp64 z;\n  uint8 [0, N * 2] u;\nINIT\n  a and n = 1 or !a;\nTRANS\n  \
             x' = abs x + [x - 1] ^ 2 ^ 3;\n  n' = n + 1 <- a;\nTARGET\n  - -x < -abs -x;\n  \
             fadd(x, z, RNE) > 0 nxor a;\n"
        );
        let mut a = f;
        let mut b = file(&printed);
        a.strip_spans();
        b.strip_spans();
        assert_eq!(a, b);
        assert_eq!(
            print_expr(&parse_expr("x - (y - z)").unwrap()),
            "x - (y - z)"
        );
    }
}
