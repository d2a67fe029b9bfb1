//! The whole `.hys` pipeline in one call: parse → check → lower.

use super::ast::HysFile;
use super::check::{self, Checked};
use super::lower::{self, Lowered};
use super::parser;
use crate::diag::Diagnostic;
use serde_json::json;
use solver::formula::{FormulaStats, Sort};
use std::collections::BTreeMap;

/// A parsed, checked and lowered `.hys` file.
pub struct Loaded {
    pub ast: HysFile,
    pub checked: Checked,
    pub lowered: Lowered,
    /// warnings (errors make [`load`] fail)
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses, checks and lowers `text`. On failure returns every diagnostic found (errors and
/// warnings, in source order).
pub fn load(text: &str) -> Result<Loaded, Vec<Diagnostic>> {
    let ast = parser::parse(text).map_err(|d| vec![d])?;
    let (checked, diagnostics) = check::check(&ast);
    let Some(checked) = checked else {
        return Err(diagnostics);
    };
    let lowered = match lower::lower(&checked) {
        Ok(l) => l,
        Err(d) => {
            let mut all = diagnostics;
            all.push(d);
            return Err(all);
        }
    };
    Ok(Loaded {
        ast,
        checked,
        lowered,
        diagnostics,
    })
}

/// What `icpic3 check` reports about a file.
pub struct Summary {
    pub form: &'static str,
    /// declared variables per kind (`boole`, `int`, `real`, `fp64`, `uint8`, `static`, ...)
    pub kinds: BTreeMap<String, usize>,
    pub constraints: usize,
}

impl Summary {
    pub fn variables_by_kind(&self) -> String {
        if self.kinds.is_empty() {
            return "none".into();
        }
        self.kinds
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
    pub fn kinds_json(&self) -> serde_json::Value {
        json!(self.kinds)
    }
}

/// A checked and lowered problem, from a `.hys` file or from another language (VMT): what
/// `check` summarises and `dump` prints.
pub struct Problem<'a> {
    pub checked: &'a Checked,
    pub lowered: &'a Lowered,
}

impl Loaded {
    pub fn problem(&self) -> Problem<'_> {
        Problem {
            checked: &self.checked,
            lowered: &self.lowered,
        }
    }
    pub fn summary(&self) -> Summary {
        self.problem().summary()
    }
    pub fn formula_stats(&self) -> Vec<(&'static str, FormulaStats)> {
        self.problem().formula_stats()
    }
    pub fn dump(&self) -> String {
        self.problem().dump()
    }
}

impl Problem<'_> {
    pub fn summary(&self) -> Summary {
        let mut kinds = BTreeMap::new();
        let form = match self.lowered {
            Lowered::Expr(f) => {
                for v in f.vars.values() {
                    if matches!(v.origin, solver::VarOrigin::Declared { .. }) {
                        *kinds.entry(sort_label(v.sort)).or_insert(0) += 1;
                    }
                }
                "formula (EXPR)"
            }
            Lowered::Transition(ts) => {
                for s in &ts.state {
                    *kinds.entry(sort_label(s.sort)).or_insert(0) += 1;
                    if s.is_static {
                        *kinds.entry("static".into()).or_insert(0) += 1;
                    }
                }
                "transition system (INIT/TRANS/TARGET)"
            }
        };
        Summary {
            form,
            kinds,
            constraints: self.checked.constraint_count(),
        }
    }

    /// Sizes of the lowered formula(s), labelled by section.
    pub fn formula_stats(&self) -> Vec<(&'static str, FormulaStats)> {
        match self.lowered {
            Lowered::Expr(f) => vec![("EXPR", f.stats())],
            Lowered::Transition(ts) => vec![
                ("INIT", ts.init.stats()),
                ("TRANS", ts.trans.stats()),
                ("TARGET", ts.target.stats()),
            ],
        }
    }

    /// The lowered problem as readable text.
    pub fn dump(&self) -> String {
        match self.lowered {
            Lowered::Expr(f) => format!("-- EXPR\n{f}"),
            Lowered::Transition(ts) => {
                let mut s = String::from("-- STATE\n");
                for (i, v) in ts.state.iter().enumerate() {
                    s.push_str(&format!(
                        "  s{i} {}{} : {}  (INIT v{}, TRANS v{} -> v{}, TARGET v{})\n",
                        if v.is_static { "static " } else { "" },
                        v.name,
                        v.sort.name(),
                        ts.init_vars[i].0,
                        ts.trans_current[i].0,
                        ts.trans_next[i].0,
                        ts.target_vars[i].0
                    ));
                }
                s.push_str(&format!("-- INIT\n{}", ts.init));
                s.push_str(&format!("-- TRANS\n{}", ts.trans));
                s.push_str(&format!("-- TARGET\n{}", ts.target));
                s
            }
        }
    }
}

fn sort_label(s: Sort) -> String {
    match s {
        Sort::Real => "float (real)".into(),
        other => other.name(),
    }
}
