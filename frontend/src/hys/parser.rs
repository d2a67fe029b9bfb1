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
            // Every other reserved word (machine types, function names) is lower-case ASCII
            // of at most 11 characters: skip the table look-ups for the common names.
            let b = w.as_bytes();
            let maybe = b.len() <= 12
                && b.iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_');
            if !maybe {
                Word::Name
            } else if let Some(t) = machine_type(w) {
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
        })
    }

    fn advance(&mut self) -> PResult<()> {
        self.prev_end = self.tok.span.end;
        self.prev_semi = self.tok.kind == Tok::Semi;
        self.tok = self.lex.next_token()?;
        Ok(())
    }

    fn text(&self) -> &'a str {
        self.lex.text(self.tok)
    }

    fn word(&self) -> Option<Word> {
        (self.tok.kind == Tok::Ident).then(|| classify(self.text()))
    }

    fn line_col(&self, offset: u32) -> String {
        let (l, c) = SourceMap::new("", self.lex.src()).line_col(offset);
        format!("{l}:{c}")
    }

    /// How the current token is named in messages.
    fn describe(&self) -> String {
        match self.tok.kind {
            Tok::Eof => "end of file".to_string(),
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

    fn push_nested(&self, stack: &mut Vec<Frame>, depth: &mut usize, f: Frame) -> PResult<()> {
        *depth += 1;
        if *depth > MAX_NESTING {
            return Err(self.error_here(format!(
                "expression nested too deeply (more than {MAX_NESTING} levels of brackets, \
                 function calls and prefix operators)"
            )));
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
                    self.push_nested(stack, &mut depth, f)?;
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
                    )?;
                    self.advance()?;
                    continue;
                }
                match t.kind {
                    Tok::Num => {
                        let text = self.text();
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
                match classify(self.text()) {
                    Word::Not => {
                        let f = Frame::Prefix {
                            op: PrefixOp::Un(UnOp::Not),
                            start: t.span.start,
                            pow_pos,
                        };
                        self.push_nested(stack, &mut depth, f)?;
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
                            self.push_nested(stack, &mut depth, f)?;
                            self.advance()?;
                        } else if func.arity().0 == 1 {
                            let f = Frame::Prefix {
                                op: PrefixOp::Func(func),
                                start: t.span.start,
                                pow_pos,
                            };
                            self.push_nested(stack, &mut depth, f)?;
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
                    Tok::Ident => match classify(self.text()) {
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
