//! Which language an input is written in: by `--lang`, else by the file name's extension,
//! else by its content (language doc D.6). The content rule looks at the first token after
//! blanks and comments: `(` is SMT-LIB (VMT when the text carries VMT's `:next`, `:init`,
//! `:trans` or `:invar-property` annotations), a `.hys` section keyword is `.hys`, anything
//! else is C.

use std::path::Path;

/// An input language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// the iSAT3 language with icpic3's machine types (`DECL` ... `EXPR` or
    /// `INIT`/`TRANS`/`TARGET`)
    Hys,
    /// an SMT-LIB 2.6 script (`check-sat` answered as `sat`/`unsat`/`unknown`)
    Smt2,
    /// a VMT transition system (SMT-LIB with `:next`/`:init`/`:trans` annotations)
    Vmt,
    /// C translation units (preprocessed with cpp; SV-COMP's unreach-call)
    C,
}

impl Lang {
    /// The language a file name says, if it says one.
    pub fn by_extension(path: &Path) -> Option<Lang> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "hys" => Lang::Hys,
            // (not `.smt`: SMT-LIB 1 files; their `(benchmark` reads as SMT-LIB 2 by content
            // and is reported as an unknown command)
            "smt2" => Lang::Smt2,
            "vmt" => Lang::Vmt,
            "c" | "i" => Lang::C,
            _ => return None,
        })
    }

    /// The language of a whole text (see the module comment).
    pub fn by_content(text: &str) -> Lang {
        // the whole text is there: a keyword at its very end is complete
        let start = match first_token(text) {
            Start::Undecided => first_token(&format!("{text}\n")),
            s => s,
        };
        match start {
            Start::Paren if has_vmt_annotation(text) => Lang::Vmt,
            Start::Paren => Lang::Smt2,
            Start::HysSection => Lang::Hys,
            Start::Other | Start::Undecided => Lang::C,
        }
    }

    /// The name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Hys => ".hys",
            Lang::Smt2 => "SMT-LIB",
            Lang::Vmt => "VMT",
            Lang::C => "C",
        }
    }
}

/// How a text starts, after blanks and comments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// `(`: SMT-LIB or VMT
    Paren,
    /// `DECL` (or another `.hys` section keyword)
    HysSection,
    /// any other token
    Other,
    /// only blanks and comments so far (a stream may go on)
    Undecided,
}

/// The first token of `text` after blanks and the comments of the four languages: `;` (SMT-LIB)
/// and `--` (`.hys`) to the end of the line, `//` and `/* */` (C).
pub fn first_token(text: &str) -> Start {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if b[i].is_ascii_whitespace() {
            i += 1;
        } else if rest.starts_with(b";") || rest.starts_with(b"--") || rest.starts_with(b"//") {
            match rest.iter().position(|&c| c == b'\n') {
                Some(n) => i += n + 1,
                None => return Start::Undecided,
            }
        } else if rest.starts_with(b"/*") {
            match text[i + 2..].find("*/") {
                Some(n) => i += n + 4,
                None => return Start::Undecided,
            }
        } else if b[i] == b'(' {
            return Start::Paren;
        } else {
            let word: String = text[i..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let complete = i + word.len() < b.len();
            return match word.as_str() {
                "DECL" | "EXPR" | "INIT" | "TRANS" | "TARGET" if complete => Start::HysSection,
                // a prefix of a section keyword at the end of what has arrived: wait for more
                w if !complete && "DECL".starts_with(w) => Start::Undecided,
                _ => Start::Other,
            };
        }
    }
    Start::Undecided
}

/// Does the text use one of VMT's annotations as an attribute (`:next` etc. followed by a
/// blank or a parenthesis)?
fn has_vmt_annotation(text: &str) -> bool {
    [":next", ":init", ":trans", ":invar-property"]
        .iter()
        .any(|k| {
            text.match_indices(k).any(|(at, _)| {
                let after = text[at + k.len()..].chars().next();
                let before = text[..at].chars().next_back();
                after.is_some_and(|c| c.is_whitespace() || c == ')')
                    && before.is_some_and(|c| c.is_whitespace() || c == '(')
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_decides_when_the_name_does_not() {
        assert_eq!(Lang::by_content("DECL int [0,1] x; EXPR x > 0;"), Lang::Hys);
        assert_eq!(
            Lang::by_content("-- a model\n\nDECL\n int [0,1] x;\nEXPR x > 0;"),
            Lang::Hys
        );
        assert_eq!(
            Lang::by_content("; comment\n(set-logic QF_LRA)\n(check-sat)"),
            Lang::Smt2
        );
        assert_eq!(
            Lang::by_content(
                "(declare-fun x () Int)\n(declare-fun x.n () Int)\n\
                 (define-fun sv () Int (! x :next x.n))\n(define-fun i () Bool (! (= x 0) :init true))"
            ),
            Lang::Vmt
        );
        // a keyword inside a name is no annotation
        assert_eq!(Lang::by_content("(declare-const a:next Int)"), Lang::Smt2);
        assert_eq!(
            Lang::by_content("/* header */\n#include <math.h>\nint main(void) { return 0; }"),
            Lang::C
        );
        assert_eq!(Lang::by_content("// c\nint DECL;"), Lang::C);
        assert_eq!(Lang::by_content("DECLARE"), Lang::C);
    }

    #[test]
    fn a_stream_is_undecided_until_its_first_token_is_complete() {
        assert_eq!(first_token(""), Start::Undecided);
        assert_eq!(first_token("; only a comment"), Start::Undecided);
        assert_eq!(first_token("/* open"), Start::Undecided);
        assert_eq!(first_token("DE"), Start::Undecided);
        assert_eq!(first_token("DECL\n"), Start::HysSection);
        assert_eq!(first_token("  ("), Start::Paren);
        assert_eq!(first_token("int"), Start::Other);
    }

    #[test]
    fn extensions() {
        assert_eq!(Lang::by_extension(Path::new("a/b.HYS")), Some(Lang::Hys));
        assert_eq!(Lang::by_extension(Path::new("x.smt2")), Some(Lang::Smt2));
        assert_eq!(Lang::by_extension(Path::new("x.vmt")), Some(Lang::Vmt));
        assert_eq!(Lang::by_extension(Path::new("x.i")), Some(Lang::C));
        assert_eq!(Lang::by_extension(Path::new("Makefile")), None);
        assert_eq!(Lang::by_extension(Path::new("x.txt")), None);
    }
}
