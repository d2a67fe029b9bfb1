//! VMT transition systems (SMT-LIB with `:next`, `:init`, `:trans`, `:invar-property`
//! annotations; language doc Part E) as a checked transition system, so the `.hys` lowering,
//! the engines and the trace replay are reused.
//!
//! Every declared constant with a `:next` partner is a state variable whose partner is its
//! primed copy; every other one is an input, modelled as a state variable that no
//! transition constrains (so it is free in every step). INIT is the conjunction of the
//! `:init` terms, TRANS of the `:trans` terms, TARGET the negation of the conjunction of the
//! `:invar-property` terms. Anything unsupported makes the whole problem UNKNOWN.

use super::elab::{bad, Elab, Sym, Ty, E, R};
use super::sexpr::{self, SExpr, SKind};
use crate::diag::{Diagnostic, Span};
use crate::hys::ast::SectionKind;
use crate::hys::check::{Checked, CheckedSection};
use crate::hys::ir::{Ir, NodeKind};
use solver::formula::Sort;
use std::collections::HashMap;

/// The outcome of reading a VMT file.
pub enum VmtLoad {
    Ok(Checked),
    /// bad input
    Error(Diagnostic),
    /// well-formed, but uses something icpic3 cannot decide exactly
    Unsupported(Span, String),
}

/// Collects `(! cur :next nxt)` pairs anywhere in `e`.
fn next_pairs(e: &SExpr, out: &mut Vec<(String, String)>) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        let Some(l) = e.list() else { continue };
        if l.first().and_then(|h| h.symbol()) == Some("!") {
            if let Some(cur) = l.get(1).and_then(|x| x.symbol()) {
                for w in l.windows(2) {
                    if let (SKind::Keyword(k), Some(n)) = (&w[0].kind, w[1].symbol()) {
                        if k == "next" {
                            out.push((n.to_string(), cur.to_string()));
                        }
                    }
                }
            }
        }
        stack.extend(l.iter());
    }
}

pub fn load(text: &str) -> VmtLoad {
    match load_inner(text) {
        Ok(c) => VmtLoad::Ok(c),
        Err(E::Bad(d)) => VmtLoad::Error(d),
        Err(E::Unsup(s, w)) => VmtLoad::Unsupported(s, w),
    }
}

fn load_inner(text: &str) -> R<Checked> {
    let cmds = sexpr::parse(text).map_err(E::Bad)?;
    let mut pairs = Vec::new();
    for c in &cmds {
        next_pairs(c, &mut pairs);
    }
    let next_of: HashMap<String, String> = pairs.into_iter().collect();
    let mut el = Elab::new();
    // declarations first: current-state variables and inputs, then the next-state copies
    let mut decls: Vec<(&SExpr, &str, &SExpr)> = Vec::new();
    for c in &cmds {
        let a = c.list().map_or(&[][..], |l| &l[1.min(l.len())..]);
        match c.head() {
            Some("declare-fun") if a.len() == 3 => {
                if !a[1].list().is_some_and(|p| p.is_empty()) {
                    return super::elab::unsup(c.span, "uninterpreted functions");
                }
                let Some(n) = a[0].symbol() else {
                    return bad(c.span, "a symbol is expected");
                };
                decls.push((c, n, &a[2]));
            }
            Some("declare-const") if a.len() == 2 => {
                let Some(n) = a[0].symbol() else {
                    return bad(c.span, "a symbol is expected");
                };
                decls.push((c, n, &a[1]));
            }
            Some("declare-fun" | "declare-const") => return bad(c.span, "malformed declaration"),
            _ => {}
        }
    }
    let mut vars: HashMap<String, (u32, Sort)> = HashMap::new();
    for (c, n, s) in &decls {
        if next_of.contains_key(*n) {
            continue;
        }
        let Ty::S(sort) = el.sort(s)? else {
            return super::elab::unsup(c.span, "rounding-mode variables");
        };
        let v = el.new_var(n, sort, c.span);
        el.define(n, Sym::Var(v, sort), c.span)?;
        vars.insert(n.to_string(), (v, sort));
    }
    for (c, n, s) in &decls {
        let Some(cur) = next_of.get(*n) else { continue };
        let Some(&(v, sort)) = vars.get(cur) else {
            return bad(
                c.span,
                format!("'{n}' is the next state of the undeclared '{cur}'"),
            );
        };
        if el.sort(s)? != Ty::S(sort) {
            return bad(c.span, format!("'{n}' and '{cur}' have different sorts"));
        }
        el.define(n, Sym::Next(v, sort), c.span)?;
    }
    for c in &cmds {
        let a = c.list().map_or(&[][..], |l| &l[1.min(l.len())..]);
        match c.head() {
            Some("declare-fun" | "declare-const" | "set-info" | "set-logic" | "set-option") => {}
            Some("define-fun") => {
                if a.len() != 4 || !a[1].list().is_some_and(|p| p.is_empty()) {
                    return super::elab::unsup(c.span, "define-fun with parameters in VMT");
                }
                let Some(n) = a[0].symbol() else {
                    return bad(c.span, "a symbol is expected");
                };
                let Ty::S(sort) = el.sort(&a[2])? else {
                    return super::elab::unsup(c.span, "rounding-mode definitions");
                };
                let (t, s) = el.term(&a[3])?;
                if s != sort && !(super::elab::arith(s) && super::elab::arith(sort)) {
                    return bad(c.span, "the body does not have the declared sort");
                }
                el.define(n, Sym::Term(t, sort), a[0].span)?;
            }
            Some("define-sort") if a.len() == 3 && a[1].list().is_some_and(|p| p.is_empty()) => {
                if let (Some(n), Some(m)) = (a[0].symbol(), el.sort_aliases.last_mut()) {
                    m.insert(n.to_string(), a[2].clone());
                }
            }
            Some("assert") if a.len() == 1 => {
                // plain assertions constrain every state (an invariant of the system)
                let t = el.formula(&a[0])?;
                el.annotations.push(("assert".into(), t, c.span));
            }
            Some("check-sat" | "exit" | "get-model") => {}
            _ => return bad(c.span, "unexpected command in a VMT file"),
        }
    }
    let mut init = Vec::new();
    let mut trans = Vec::new();
    let mut props = Vec::new();
    let mut asserts = Vec::new();
    for (k, t, span) in el.annotations.clone() {
        if !el.is_bool(t) {
            return bad(span, format!(":{k} needs a Bool term"));
        }
        match k.as_str() {
            "init" => init.push(t),
            "trans" => trans.push(t),
            "invar-property" => props.push(t),
            "assert" => asserts.push(t),
            _ => return super::elab::unsup(span, "live properties"),
        }
    }
    if props.is_empty() {
        return bad(Span::default(), "no :invar-property in the file");
    }
    // an assertion holds in every state of a path: in INIT (step 0), in TRANS on the current
    // state (steps 0..k-1) and in TARGET (step k)
    init.extend(asserts.iter().copied());
    trans.extend(asserts.iter().copied());
    let mut target = vec![el.negated_conjunction(&props)];
    target.extend(asserts.iter().copied());
    let mut ir = Ir::default();
    let mut sections = Vec::new();
    for (kind, roots) in [
        (SectionKind::Init, init),
        (SectionKind::Trans, trans),
        (SectionKind::Target, target),
    ] {
        let (cs, conds) = el.build(&mut ir, &roots);
        if !conds.is_empty() {
            return super::elab::unsup(
                Span::default(),
                "operations with unspecified cases (div, mod, fp.min, ...) in a transition system",
            );
        }
        // next-state copies only in TRANS
        if kind != SectionKind::Trans {
            for c in &cs {
                for id in c.first..c.end {
                    if let NodeKind::Var { primed: true, .. } = ir.node(id).kind {
                        return bad(c.span, "a next-state variable outside :trans");
                    }
                }
            }
        }
        sections.push(CheckedSection {
            kind,
            span: Span::default(),
            constraints: cs,
        });
    }
    Ok(Checked::from_parts(el.vars.clone(), ir, sections, true))
}
