//! SMT-LIB 2.6 solver options, logics and `get-info` keys (standard §4.1.7, §4.2.1, §4.2.6):
//! which ones icpic3 honours, which it answers `unsupported`, and what `get-option` reports.
//!
//! The standard lets a solver answer `unsupported` to an option it does not know, or to a
//! value of a standard option it cannot honour (`:produce-proofs true`); a value of the wrong
//! kind (`:print-success 7`) is an error. icpic3 deviates from the standard's defaults in one
//! place, as Z3 and cvc5 do: `:print-success` is `false` until set, so a script prints only
//! answers.

use super::elab::{bad, R};
use super::sexpr::{SExpr, SKind};

/// Where a stream of responses goes (`:regular-output-channel`).
#[derive(Debug)]
pub enum Channel {
    Stdout,
    Stderr,
    /// a file named by the script, opened for appending (as the standard prescribes, output
    /// is added to what the file holds)
    File(String, std::fs::File),
}

impl Channel {
    /// The SMT-LIB string naming the channel (`get-option`).
    pub fn name(&self) -> &str {
        match self {
            Channel::Stdout => "stdout",
            Channel::Stderr => "stderr",
            Channel::File(n, _) => n,
        }
    }
}

/// The option values a script has set (or their defaults).
#[derive(Debug)]
pub struct Options {
    pub print_success: bool,
    /// recorded for `get-option`; icpic3 keeps a model after every `sat` either way
    pub produce_models: bool,
    /// recorded for `get-option`; the engines are deterministic, so every seed is honoured
    pub random_seed: u64,
    /// recorded for `get-option`; diagnostics on standard error do not depend on it
    pub verbosity: u64,
    pub regular_output: Channel,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            print_success: false,
            produce_models: false,
            random_seed: 0,
            verbosity: 0,
            regular_output: Channel::Stdout,
        }
    }
}

/// The response to `set-option`: `success` (printed only under `:print-success`), or
/// `unsupported` (always printed).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SetResponse {
    Success,
    Unsupported,
}

/// The standard's `produce-*` style flags icpic3 cannot honour when `true` (no proofs, unsat
/// cores, assignments or assertion lists); `false` is their default and always accepted.
const ONLY_FALSE: &[&str] = &[
    "produce-proofs",
    "produce-unsat-cores",
    "produce-unsat-assumptions",
    "produce-assignments",
    "produce-assertions",
    "interactive-mode",
    "global-declarations",
];

fn bool_value(v: &SExpr, key: &str) -> R<bool> {
    match v.symbol() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => bad(v.span, format!(":{key} takes true or false")),
    }
}

fn numeral_value(v: &SExpr, key: &str) -> R<u64> {
    match &v.kind {
        SKind::Numeral(n) => n
            .parse()
            .or_else(|_| bad(v.span, format!(":{key}: numeral too large"))),
        _ => bad(v.span, format!(":{key} takes a numeral")),
    }
}

impl Options {
    /// `(set-option :key value)`.
    pub fn set(&mut self, key: &str, value: &SExpr) -> R<SetResponse> {
        use SetResponse::*;
        Ok(match key {
            "print-success" => {
                self.print_success = bool_value(value, key)?;
                Success
            }
            "produce-models" => {
                self.produce_models = bool_value(value, key)?;
                Success
            }
            k if ONLY_FALSE.contains(&k) => {
                if bool_value(value, key)? {
                    Unsupported
                } else {
                    Success
                }
            }
            "random-seed" => {
                self.random_seed = numeral_value(value, key)?;
                Success
            }
            "verbosity" => {
                self.verbosity = numeral_value(value, key)?;
                Success
            }
            // no resource counting other than time and memory (Part C's limits)
            "reproducible-resource-limit" => {
                if numeral_value(value, key)? == 0 {
                    Success
                } else {
                    Unsupported
                }
            }
            "regular-output-channel" => {
                let SKind::Str(name) = &value.kind else {
                    return bad(value.span, ":regular-output-channel takes a string");
                };
                self.regular_output = match name.as_str() {
                    "stdout" => Channel::Stdout,
                    "stderr" => Channel::Stderr,
                    file => match std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(file)
                    {
                        Ok(f) => Channel::File(file.to_string(), f),
                        Err(e) => return bad(value.span, format!("cannot open '{file}': {e}")),
                    },
                };
                Success
            }
            // diagnostics always go to standard error
            "diagnostic-output-channel" => match &value.kind {
                SKind::Str(name) if name == "stderr" => Success,
                SKind::Str(_) => Unsupported,
                _ => return bad(value.span, ":diagnostic-output-channel takes a string"),
            },
            _ => Unsupported,
        })
    }

    /// `(get-option :key)`: the value as SMT-LIB text, `None` for `unsupported`.
    pub fn get(&self, key: &str) -> Option<String> {
        let b = |v: bool| if v { "true" } else { "false" }.to_string();
        Some(match key {
            "print-success" => b(self.print_success),
            "produce-models" => b(self.produce_models),
            k if ONLY_FALSE.contains(&k) => b(false),
            "random-seed" => self.random_seed.to_string(),
            "verbosity" => self.verbosity.to_string(),
            "reproducible-resource-limit" => "0".into(),
            "regular-output-channel" => format!("\"{}\"", self.regular_output.name()),
            "diagnostic-output-channel" => "\"stderr\"".into(),
            _ => return None,
        })
    }
}

/// Is `name` a logic icpic3 knows: `ALL`, or a name built as the SMT-LIB logics are (an
/// optional `QF_`, then any of `A`/`AX`, `UF`, `BV`, `FP`, `DT`, `S` in this order, then an
/// optional arithmetic part `IDL`, `RDL`, `LIA`, `LRA`, `LIRA`, `NIA`, `NRA`, `NIRA`, or cvc5's
/// `NRAT`, reals with transcendental functions, which icpic3 decides)? Theories
/// icpic3 does not decide (arrays, uninterpreted functions, datatypes, strings, quantifiers)
/// are still accepted: an assertion that uses them is dropped (language doc E.1), which
/// keeps `unsat` sound and turns `sat` into `unknown`. Anything else (`HORN`, `QF_NRA_ODE`,
/// a typo) is not a logic icpic3 knows.
pub fn known_logic(name: &str) -> bool {
    if name == "ALL" {
        return true;
    }
    let mut rest = name.strip_prefix("QF_").unwrap_or(name);
    if rest.is_empty() {
        return false;
    }
    for part in [&["AX", "A"][..], &["UF"], &["BV"], &["FP"], &["DT"], &["S"]] {
        if let Some(p) = part.iter().find(|p| rest.starts_with(**p)) {
            rest = &rest[p.len()..];
        }
    }
    matches!(
        rest,
        "" | "IDL" | "RDL" | "LIA" | "LRA" | "LIRA" | "NIA" | "NRA" | "NIRA" | "NRAT"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_logic_names_are_known_and_others_are_not() {
        for l in [
            "ALL", "QF_LRA", "QF_NIA", "QF_FP", "QF_BVFP", "QF_FPLRA", "QF_ABVFP", "QF_AUFBV",
            "QF_UFLIA", "QF_SLIA", "UFDTLIA", "AUFLIRA", "QF_AX", "QF_UF", "QF_RDL", "LRA",
            "QF_NRAT",
        ] {
            assert!(known_logic(l), "{l}");
        }
        for l in [
            "",
            "QF_",
            "HORN",
            "QF_NRA_ODE",
            "QF_LRAX",
            "qf_lra",
            "QF_FPBV",
            "ALL_SUPPORTED",
        ] {
            assert!(!known_logic(l), "{l}");
        }
    }
}
