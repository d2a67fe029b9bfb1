//! C syntax tree → control-flow graph ([`super::cfg`]) of one entry function, with calls
//! inlined, C's conversions made explicit, and goals for every branch outcome, every error call
//! and every operation with possible undefined behaviour.
//!
//! Anything outside the supported subset is an error with the position of the construct;
//! nothing is translated approximately.

use super::cfg::*;
use super::parse::{CError, Source};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashMap;

mod units;
pub use units::Units;

/// The data model: `long` is 64 bits (LP64, default) or 32 bits (ILP32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataModel {
    Lp64,
    Ilp32,
}

#[derive(Clone, Copy)]
enum Binding {
    Var(usize),
    Const(i128),
    /// a fixed-size array: its elements are the variables `base .. base + len`
    Array(usize, usize),
}

/// An assignable place.
enum Place {
    Var(usize),
    /// element `index` (of type `ity`) of the array `base .. base + len`, and the
    /// variables the index expression read
    Elem(usize, usize, E, Ty, Vec<usize>),
}

struct FnCtx {
    name: String,
    ret: Option<(usize, Ty)>,
    exit: usize,
}

struct SwitchCtx {
    cases: Vec<(i128, usize)>,
    default: Option<usize>,
}

pub struct Lowerer<'a> {
    src: &'a Source,
    model: DataModel,
    pub cfg: Cfg,
    typedefs: Vec<HashMap<String, Ty>>,
    scopes: Vec<HashMap<String, Binding>>,
    volatile: Vec<bool>,
    functions: HashMap<String, &'a Node<FunctionDefinition>>,
    statics: HashMap<usize, Binding>,
    fn_stack: Vec<FnCtx>,
    breaks: Vec<usize>,
    continues: Vec<usize>,
    switches: Vec<SwitchCtx>,
    /// end of the chain that initialises globals and static locals
    ginit: usize,
    counter: usize,
    /// record goals for branch outcomes (deadcode) or only error calls / UB
    pub branch_goals: bool,
    /// file-scope names whose declaration is outside the subset: an error only when used
    /// (system headers declare structs, pointers, ... that a program need not use)
    poisoned_vars: HashMap<String, CError>,
    poisoned_types: HashMap<String, CError>,
    /// the translation units: file scopes, functions and prototypes per unit
    tu: units::TuState<'a>,
}

type R<T> = Result<T, CError>;

fn is_error_fn(n: &str) -> bool {
    n == "reach_error" || n == "__VERIFIER_error"
}

impl<'a> Lowerer<'a> {
    fn err<T>(&self, span: Span, msg: impl Into<String>) -> R<T> {
        Err(self.src.err(span.start, msg))
    }

    fn fresh_var(&mut self, c_name: &str, ty: Ty) -> usize {
        self.counter += 1;
        let clean: String = c_name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let hys = format!("c{}_{}", self.counter, clean);
        self.cfg.vars.push(VarInfo {
            hys,
            c_name: c_name.to_string(),
            ty,
            is_temp: false,
        });
        self.volatile.push(false);
        self.cfg.vars.len() - 1
    }

    fn goal(&mut self, kind: GoalKind, off: usize, instrument: Instrument) -> usize {
        let function = self
            .fn_stack
            .last()
            .map(|f| f.name.clone())
            .unwrap_or_default();
        self.cfg.goals.push(Goal {
            kind,
            pos: self.src.pos(off),
            function,
            instrument,
            ub_stmt: None,
            ub_sig: None,
        });
        self.cfg.goals.len() - 1
    }

    // ---------------------------------------------------------------- types

    fn lookup_typedef(&self, n: &str) -> Option<Ty> {
        self.typedefs.iter().rev().find_map(|m| m.get(n).copied())
    }

    /// The type named by declaration specifiers; also registers enumerators.
    fn spec_type<'s>(
        &mut self,
        specs: impl Iterator<Item = &'s TypeSpecifier>,
        span: Span,
    ) -> R<Ty> {
        let (mut void, mut chr, mut short, mut int, mut long, mut flt, mut dbl) =
            (false, false, false, false, 0, false, false);
        let (mut signed, mut unsigned, mut bool_) = (false, false, false);
        let mut named: Option<Ty> = None;
        let mut any = false;
        for s in specs {
            any = true;
            match s {
                TypeSpecifier::Void => void = true,
                TypeSpecifier::Char => chr = true,
                TypeSpecifier::Short => short = true,
                TypeSpecifier::Int => int = true,
                TypeSpecifier::Long => long += 1,
                TypeSpecifier::Float => flt = true,
                TypeSpecifier::Double => dbl = true,
                TypeSpecifier::Signed => signed = true,
                TypeSpecifier::Unsigned => unsigned = true,
                TypeSpecifier::Bool => bool_ = true,
                TypeSpecifier::TypedefName(n) => match self.lookup_typedef(&n.node.name) {
                    Some(t) => named = Some(t),
                    None => return self.poisoned_use(&n.node.name, n.span),
                },
                TypeSpecifier::Enum(e) => {
                    let mut next: i128 = 0;
                    for en in &e.node.enumerators {
                        if let Some(x) = &en.node.expression {
                            next = self.const_int(x)?;
                        }
                        if let Some(s) = self.scopes.last_mut() {
                            s.insert(en.node.identifier.node.name.clone(), Binding::Const(next));
                        }
                        next += 1;
                    }
                    named = Some(INT);
                }
                TypeSpecifier::Struct(_) => {
                    return self.err(span, "structs and unions are not supported")
                }
                _ => return self.err(span, "unsupported type specifier"),
            }
        }
        if let Some(t) = named {
            return Ok(t);
        }
        if !any {
            return self.err(
                span,
                "missing type specifier (implicit int is not supported)",
            );
        }
        if void {
            return Ok(Ty::Void);
        }
        if bool_ {
            return Ok(Ty::Bool);
        }
        if flt {
            return Ok(Ty::F32);
        }
        if dbl {
            if long > 0 {
                return self.err(span, "`long double` is not supported");
            }
            return Ok(Ty::F64);
        }
        let _ = int;
        let bits = if chr {
            8
        } else if short {
            16
        } else if long == 1 {
            self.cfg.model_sensitive = true;
            match self.model {
                DataModel::Lp64 => 64,
                DataModel::Ilp32 => 32,
            }
        } else if long >= 2 {
            64
        } else {
            32
        };
        let _ = signed;
        Ok(Ty::Int {
            bits,
            signed: !unsigned,
        })
    }

    fn decl_specs(&mut self, specs: &[Node<DeclarationSpecifier>], span: Span) -> R<DeclInfo> {
        let mut info = DeclInfo::default();
        let mut ts = Vec::new();
        for s in specs {
            match &s.node {
                DeclarationSpecifier::StorageClass(c) => match c.node {
                    StorageClassSpecifier::Typedef => info.typedef = true,
                    StorageClassSpecifier::Static => info.is_static = true,
                    StorageClassSpecifier::Extern => info.is_extern = true,
                    StorageClassSpecifier::Auto | StorageClassSpecifier::Register => {}
                    StorageClassSpecifier::ThreadLocal => {
                        return self.err(c.span, "_Thread_local is not supported")
                    }
                },
                DeclarationSpecifier::TypeSpecifier(t) => ts.push(t.node.clone()),
                DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Volatile => {
                    info.volatile = true
                }
                _ => {}
            }
        }
        info.ty = self.spec_type(ts.iter(), span)?;
        Ok(info)
    }

    fn type_name(&mut self, t: &Node<TypeName>) -> R<Ty> {
        let mut ts = Vec::new();
        for s in &t.node.specifiers {
            if let SpecifierQualifier::TypeSpecifier(x) = &s.node {
                ts.push(x.node.clone());
            }
        }
        let ty = self.spec_type(ts.iter(), t.span)?;
        if let Some(d) = &t.node.declarator {
            if !d.node.derived.is_empty() {
                return self.err(d.span, "pointer and array types are not supported");
            }
        }
        Ok(ty)
    }

    fn const_int(&mut self, e: &Node<Expression>) -> R<i128> {
        let mut dummy = self.cfg.new_node();
        let start = dummy;
        let (v, ty) = self.expr(e, &mut dummy)?;
        if dummy != start || !ty.is_int() {
            return self.err(e.span, "an integer constant expression is required here");
        }
        match fold_int(&v) {
            Some(x) => Ok(x),
            None => self.err(e.span, "an integer constant expression is required here"),
        }
    }

    // ---------------------------------------------------------------- entry

    /// Lowers `entry` (the whole run starts with the initialisation of globals).
    pub fn lower_program(
        src: &'a Source,
        unit: &'a TranslationUnit,
        units: &Units,
        model: DataModel,
        entry: &str,
        branch_goals: bool,
    ) -> R<Cfg> {
        let mut l = Lowerer {
            src,
            model,
            cfg: Cfg::default(),
            typedefs: vec![HashMap::new()],
            scopes: vec![HashMap::new()],
            volatile: Vec::new(),
            functions: HashMap::new(),
            statics: HashMap::new(),
            fn_stack: Vec::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            ginit: 0,
            counter: 0,
            branch_goals,
            poisoned_vars: HashMap::new(),
            poisoned_types: HashMap::new(),
            tu: units::TuState::new(units),
        };
        l.cfg.function = entry.to_string();
        let e = l.cfg.new_node();
        l.cfg.entry = e;
        l.cfg.stop = l.cfg.new_node();
        l.ginit = e;
        for d in &unit.0 {
            l.switch_unit(l.tu.unit_of(d.span.start));
            match &d.node {
                ExternalDeclaration::Declaration(decl) => {
                    if let Err(e) = l.global_decl(decl) {
                        l.poison(decl, e);
                    }
                }
                ExternalDeclaration::StaticAssert(_) => {}
                ExternalDeclaration::FunctionDefinition(f) => {
                    let name = declarator_name(&f.node.declarator.node).unwrap_or_default();
                    l.functions.insert(name, f);
                }
            }
        }
        l.link_units(unit, entry)?;
        let Some(f) = l.functions.get(entry).copied() else {
            return Err(src.err(0, format!("no function `{entry}` is defined")));
        };
        let body = l.cfg.new_node();
        let stop = l.cfg.stop;
        // parameters of the entry function are inputs
        l.fn_stack.push(FnCtx {
            name: entry.to_string(),
            ret: None,
            exit: stop,
        });
        let params = l.params(f)?;
        l.cfg.entry_params = params.iter().map(|p| p.1).collect();
        l.cfg.entry_ret = l.ret_type(f)?;
        l.scopes.push(HashMap::new());
        let mut cur = body;
        for (name, ty, span) in params {
            let v = l.fresh_var(&name, ty);
            let site = l.cfg.nondets.len();
            l.cfg.nondets.push(NondetSite {
                var: v,
                ty,
                what: format!("parameter {name}"),
                fed: true,
                pos: src.pos(span.start),
                ret_pos: src.pos(span.end.saturating_sub(1)),
            });
            let n = l.cfg.new_node();
            l.cfg.edge(cur, n, Ins::Havoc(v, site));
            cur = n;
            l.scopes.last_mut().unwrap().insert(name, Binding::Var(v));
        }
        let end = l.stmt(&f.node.statement, cur)?;
        l.cfg.edge(end, stop, Ins::Skip);
        l.scopes.pop();
        l.fn_stack.pop();
        let g = l.ginit;
        l.cfg.edge(g, body, Ins::Skip);
        Ok(l.cfg)
    }

    /// Remembers the names of a file-scope declaration that could not be translated.
    fn poison(&mut self, d: &Node<Declaration>, e: CError) {
        let typedef = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Typedef)
        });
        for id in &d.node.declarators {
            if let Some(name) = declarator_name(&id.node.declarator.node) {
                if typedef {
                    self.poisoned_types.insert(name, e.clone());
                } else {
                    self.poisoned_vars.insert(name, e.clone());
                }
            }
        }
    }

    fn poisoned_use<T>(&self, name: &str, span: Span) -> R<T> {
        match self
            .poisoned_vars
            .get(name)
            .or_else(|| self.poisoned_types.get(name))
        {
            Some(e) => self.err(
                span,
                format!("`{name}` is declared with a construct that is not supported: {e}"),
            ),
            None => self.err(span, format!("undeclared identifier `{name}`")),
        }
    }

    fn params(&mut self, f: &Node<FunctionDefinition>) -> R<Vec<(String, Ty, Span)>> {
        let d = &f.node.declarator.node;
        let mut out = Vec::new();
        for dd in &d.derived {
            match &dd.node {
                DerivedDeclarator::Function(fd) => {
                    if fd.node.ellipsis == Ellipsis::Some {
                        return self.err(dd.span, "variadic functions are not supported");
                    }
                    for p in &fd.node.parameters {
                        let info = self.decl_specs(&p.node.specifiers, p.span)?;
                        if let Some(pd) = &p.node.declarator {
                            if !pd.node.derived.is_empty() {
                                return self.err(
                                    pd.span,
                                    "pointer and array parameters are not supported",
                                );
                            }
                            let Some(n) = declarator_name(&pd.node) else {
                                if info.ty == Ty::Void {
                                    continue;
                                }
                                return self.err(pd.span, "unnamed parameter");
                            };
                            if info.ty == Ty::Void {
                                return self.err(pd.span, "parameter of type void");
                            }
                            out.push((n, info.ty, pd.span));
                        } else if info.ty != Ty::Void {
                            return self.err(p.span, "unnamed parameter");
                        }
                    }
                }
                DerivedDeclarator::KRFunction(ps) => {
                    if !ps.is_empty() {
                        return self.err(dd.span, "K&R-style parameter lists are not supported");
                    }
                }
                _ => return self.err(dd.span, "functions returning pointers are not supported"),
            }
        }
        Ok(out)
    }

    fn ret_type(&mut self, f: &Node<FunctionDefinition>) -> R<Ty> {
        Ok(self.decl_specs(&f.node.specifiers, f.span)?.ty)
    }

    // ---------------------------------------------------------------- declarations

    fn global_decl(&mut self, d: &Node<Declaration>) -> R<()> {
        let info = self.decl_specs(&d.node.specifiers, d.span)?;
        for id in &d.node.declarators {
            let dec = &id.node.declarator.node;
            let Some(name) = declarator_name(dec) else {
                continue;
            };
            let is_fn = dec.derived.iter().any(|x| {
                matches!(
                    x.node,
                    DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
                )
            });
            if is_fn {
                continue; // a prototype
            }
            if info.is_extern && id.node.initializer.is_none() && self.scopes[0].contains_key(&name)
            {
                continue; // declared (or defined) before in this translation unit
            }
            if info.typedef {
                if !dec.derived.is_empty() {
                    return self.err(id.span, "pointer and array typedefs are not supported");
                }
                self.typedefs[0].insert(name, info.ty);
                continue;
            }
            if self.array_len(dec)?.is_some() {
                if info.is_extern && id.node.initializer.is_none() {
                    return self.err(id.span, "extern arrays are not supported");
                }
                let (b, _) = self.array_decl(&name, &info, dec, id, true)?;
                self.scopes[0].insert(name, b);
                continue;
            }
            if !dec.derived.is_empty() {
                return self.err(id.span, "global pointers are not supported");
            }
            if info.ty == Ty::Void {
                return self.err(id.span, "variable of type void");
            }
            let v = self.fresh_var(&name, info.ty);
            self.volatile[v] = info.volatile;
            self.scopes[0].insert(name, Binding::Var(v));
            if info.is_extern && id.node.initializer.is_none() {
                // defined elsewhere: any value
                let site = self.cfg.nondets.len();
                self.cfg.nondets.push(NondetSite {
                    var: v,
                    ty: info.ty,
                    what: format!("extern {}", self.cfg.vars[v].c_name),
                    fed: false,
                    pos: self.src.pos(id.span.start),
                    ret_pos: self.src.pos(id.span.end.saturating_sub(1)),
                });
                let n = self.cfg.new_node();
                let g = self.ginit;
                self.cfg.edge(g, n, Ins::Havoc(v, site));
                self.ginit = n;
                continue;
            }
            self.init_static(v, info.ty, id.node.initializer.as_ref())?;
        }
        Ok(())
    }

    /// `v = init` (or 0) on the global initialisation chain.
    fn init_static(&mut self, v: usize, ty: Ty, init: Option<&Node<Initializer>>) -> R<()> {
        let mut cur = self.ginit;
        let val = match init {
            None => zero(ty),
            Some(i) => {
                let Initializer::Expression(e) = &i.node else {
                    return self.err(i.span, "initializer lists are not supported");
                };
                let (x, t) = self.expr(e, &mut cur)?;
                self.convert_operand(x, t, ty, &mut cur, e.span, Some(e.span))?
            }
        };
        let n = self.cfg.new_node();
        self.cfg.edge(cur, n, Ins::Assign(v, val));
        self.ginit = n;
        Ok(())
    }

    fn local_decl(&mut self, d: &Node<Declaration>, mut cur: usize) -> R<usize> {
        let info = self.decl_specs(&d.node.specifiers, d.span)?;
        for id in &d.node.declarators {
            let dec = &id.node.declarator.node;
            let Some(name) = declarator_name(dec) else {
                continue;
            };
            if dec.derived.iter().any(|x| {
                matches!(
                    x.node,
                    DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
                )
            }) {
                continue;
            }
            if info.typedef {
                if !dec.derived.is_empty() {
                    return self.err(id.span, "pointer and array typedefs are not supported");
                }
                self.typedefs.last_mut().unwrap().insert(name, info.ty);
                continue;
            }
            if !dec.derived.is_empty() && self.array_len(dec)?.is_none() {
                return self.err(id.span, "local pointers are not supported");
            }
            if info.ty == Ty::Void {
                return self.err(id.span, "variable of type void");
            }
            if info.is_extern {
                return self.err(id.span, "block-scope extern declarations are not supported");
            }
            if info.is_static && self.array_len(dec)?.is_some() {
                let b = match self.statics.get(&id.span.start) {
                    Some(b) => *b,
                    None => {
                        let saved = std::mem::replace(&mut self.scopes, vec![HashMap::new()]);
                        self.scopes[0] = saved[0].clone();
                        let r = self.array_decl(&name, &info, dec, id, true);
                        self.scopes = saved;
                        let (b, _) = r?;
                        self.statics.insert(id.span.start, b);
                        b
                    }
                };
                self.scopes.last_mut().unwrap().insert(name, b);
                continue;
            }
            if self.array_len(dec)?.is_some() {
                let (b, c2) = self.array_decl_local(&name, &info, dec, id, cur)?;
                self.scopes.last_mut().unwrap().insert(name, b);
                cur = c2;
                continue;
            }
            if info.is_static {
                let v = match self.statics.get(&id.span.start) {
                    Some(Binding::Var(v)) => *v,
                    Some(_) => return self.err(id.span, "internal error: static"),
                    None => {
                        let v = self.fresh_var(&name, info.ty);
                        self.volatile[v] = info.volatile;
                        self.statics.insert(id.span.start, Binding::Var(v));
                        // evaluated once, at program start, in file scope
                        let saved = std::mem::replace(&mut self.scopes, vec![HashMap::new()]);
                        self.scopes[0] = saved[0].clone();
                        let r = self.init_static(v, info.ty, id.node.initializer.as_ref());
                        self.scopes = saved;
                        r?;
                        v
                    }
                };
                self.scopes
                    .last_mut()
                    .unwrap()
                    .insert(name, Binding::Var(v));
                continue;
            }
            let v = self.fresh_var(&name, info.ty);
            self.volatile[v] = info.volatile;
            if let Some(i) = &id.node.initializer {
                let Initializer::Expression(e) = &i.node else {
                    return self.err(i.span, "initializer lists are not supported");
                };
                // the new name is in scope in its own initializer (C), but an initializer that
                // reads it is indeterminate anyway: declare first
                self.scopes
                    .last_mut()
                    .unwrap()
                    .insert(name, Binding::Var(v));
                let (x, t) = self.expr(e, &mut cur)?;
                let x = self.convert_operand(x, t, info.ty, &mut cur, e.span, Some(e.span))?;
                cur = self.assign_edge(cur, v, x);
            } else {
                // indeterminate until assigned (also on every later entry of the block)
                self.scopes
                    .last_mut()
                    .unwrap()
                    .insert(name, Binding::Var(v));
                let n = self.cfg.new_node();
                self.cfg.edge(cur, n, Ins::Forget(v));
                cur = n;
            }
        }
        Ok(cur)
    }

    /// `Some(n)` for `T a[n]` (n a constant expression, 1 ..= 4096); `None` for a
    /// declarator without derivations; an error for other derived declarators.
    fn array_len(&mut self, dec: &Declarator) -> R<Option<usize>> {
        match dec.derived.as_slice() {
            [] => Ok(None),
            [d] => match &d.node {
                DerivedDeclarator::Array(a) => match &a.node.size {
                    ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                        let n = self.const_int(e)?;
                        if !(1..=4096).contains(&n) {
                            return self.err(e.span, "array sizes from 1 to 4096 are supported");
                        }
                        Ok(Some(n as usize))
                    }
                    _ => self.err(a.span, "arrays need a constant size"),
                },
                _ => Ok(None),
            },
            _ => Ok(None),
        }
    }

    /// The initial values of an array: the items of an initializer list (the rest zero).
    fn array_init_values(
        &mut self,
        init: Option<&Node<Initializer>>,
        n: usize,
        ty: Ty,
        cur: &mut usize,
    ) -> R<Option<Vec<E>>> {
        let Some(i) = init else {
            return Ok(None);
        };
        let Initializer::List(items) = &i.node else {
            return self.err(i.span, "an array needs an initializer list");
        };
        if items.len() > n {
            return self.err(i.span, "too many initializers");
        }
        let mut vals = Vec::new();
        for it in items {
            if !it.node.designation.is_empty() {
                return self.err(it.span, "designated initializers are not supported");
            }
            let Initializer::Expression(e) = &it.node.initializer.node else {
                return self.err(it.span, "nested initializer lists are not supported");
            };
            let (x, t) = self.expr(e, cur)?;
            vals.push(self.convert_operand(x, t, ty, cur, e.span, Some(e.span))?);
        }
        while vals.len() < n {
            vals.push(zero(ty));
        }
        Ok(Some(vals))
    }

    /// A global or static array: elements initialised on the initialisation chain.
    fn array_decl(
        &mut self,
        name: &str,
        info: &DeclInfo,
        dec: &Declarator,
        id: &Node<InitDeclarator>,
        _static: bool,
    ) -> R<(Binding, usize)> {
        let n = self.array_len(dec)?.unwrap_or(1);
        if info.volatile || info.ty == Ty::Void {
            return self.err(id.span, "volatile or void arrays are not supported");
        }
        let base = self.cfg.vars.len();
        for k in 0..n {
            self.fresh_var(&format!("{name}_{k}"), info.ty);
        }
        let mut cur = self.ginit;
        let vals = self
            .array_init_values(id.node.initializer.as_ref(), n, info.ty, &mut cur)?
            .unwrap_or_else(|| vec![zero(info.ty); n]);
        for (k, x) in vals.into_iter().enumerate() {
            cur = self.assign_edge(cur, base + k, x);
        }
        self.ginit = cur;
        Ok((Binding::Array(base, n), cur))
    }

    /// A local array: initialised where it is declared, indeterminate without initializer.
    fn array_decl_local(
        &mut self,
        name: &str,
        info: &DeclInfo,
        dec: &Declarator,
        id: &Node<InitDeclarator>,
        mut cur: usize,
    ) -> R<(Binding, usize)> {
        let n = self.array_len(dec)?.unwrap_or(1);
        if info.volatile || info.ty == Ty::Void || info.is_extern {
            return self.err(id.span, "volatile, void or extern arrays are not supported");
        }
        let base = self.cfg.vars.len();
        for k in 0..n {
            self.fresh_var(&format!("{name}_{k}"), info.ty);
        }
        match self.array_init_values(id.node.initializer.as_ref(), n, info.ty, &mut cur)? {
            Some(vals) => {
                for (k, x) in vals.into_iter().enumerate() {
                    cur = self.assign_edge(cur, base + k, x);
                }
            }
            None => {
                for k in 0..n {
                    let nn = self.cfg.new_node();
                    self.cfg.edge(cur, nn, Ins::Forget(base + k));
                    cur = nn;
                }
            }
        }
        Ok((Binding::Array(base, n), cur))
    }

    /// `a[i]` as a place: the index is evaluated and checked against the bounds.
    fn element(
        &mut self,
        arr: &Node<Expression>,
        idx: &Node<Expression>,
        cur: &mut usize,
        span: Span,
    ) -> R<Place> {
        let Expression::Identifier(i) = &arr.node else {
            return self.err(span, "only named arrays can be indexed");
        };
        let Some(Binding::Array(base, n)) = self.lookup(&i.node.name) else {
            return self.err(span, format!("`{}` is not an array", i.node.name));
        };
        let (x, t) = self.expr(idx, cur)?;
        if !t.is_int() {
            return self.err(idx.span, "an array index must be an integer");
        }
        let it = promote(t);
        let x = conv(x, t, it);
        let (_, hi) = it.range();
        let mut bad = E::False;
        if it.is_signed_int() {
            bad = E::Cmp(Rel::Lt, it, x.clone().b(), E::Int(it, 0).b());
        }
        if (n as i128) <= hi {
            bad = bad.or(E::Cmp(
                Rel::Ge,
                it,
                x.clone().b(),
                E::Int(it, n as i128).b(),
            ));
        }
        self.check(GoalKind::Bounds, bad, cur, span);
        let mut reads = std::collections::HashSet::new();
        vars_of(&x, &mut reads);
        // a non-constant index is evaluated once
        let x = match fold_int(&x) {
            Some(_) => x,
            None => {
                let v = self.fresh_var("index", it);
                self.cfg.vars[v].is_temp = true;
                *cur = self.assign_edge(*cur, v, x);
                E::Var(v)
            }
        };
        Ok(Place::Elem(base, n, x, it, reads.into_iter().collect()))
    }

    fn place_ty(&self, p: &Place) -> Ty {
        match p {
            Place::Var(v) | Place::Elem(v, ..) => self.cfg.vars[*v].ty,
        }
    }

    /// The variables a place stands for (for the evaluation-order check).
    fn place_vars(p: &Place) -> Vec<usize> {
        match p {
            Place::Var(v) => vec![*v],
            Place::Elem(b, n, ..) => (*b..*b + *n).collect(),
        }
    }

    fn read_place(&mut self, p: &Place, cur: &mut usize, span: Span) -> E {
        match p {
            Place::Var(v) => self.read_var(*v, cur, span),
            Place::Elem(base, n, x, it, _) => match fold_int(x) {
                Some(k) if (0..*n as i128).contains(&k) => E::Var(base + k as usize),
                Some(_) => E::Var(*base), // out of bounds: undefined behaviour, checked
                None => {
                    let ty = self.cfg.vars[*base].ty;
                    let mut e = E::Var(base + n - 1);
                    for k in (0..n - 1).rev() {
                        let c = E::Cmp(Rel::Eq, *it, x.clone().b(), E::Int(*it, k as i128).b());
                        e = E::Ite(ty, c.b(), E::Var(base + k).b(), e.b());
                    }
                    self.bounded(e, ty, cur)
                }
            },
        }
    }

    fn write_place(&mut self, p: &Place, val: E, cur: &mut usize) -> E {
        match p {
            Place::Var(v) => {
                *cur = self.assign_edge(*cur, *v, val);
                E::Var(*v)
            }
            Place::Elem(base, n, x, it, _) => match fold_int(x) {
                Some(k) if (0..*n as i128).contains(&k) => {
                    let v = base + k as usize;
                    *cur = self.assign_edge(*cur, v, val);
                    E::Var(v)
                }
                Some(_) => E::Var(*base), // out of bounds: undefined behaviour, checked
                None => {
                    let ty = self.cfg.vars[*base].ty;
                    let t = self.fresh_var("stored", ty);
                    self.cfg.vars[t].is_temp = true;
                    *cur = self.assign_edge(*cur, t, val);
                    for k in 0..*n {
                        let c = E::Cmp(Rel::Eq, *it, x.clone().b(), E::Int(*it, k as i128).b());
                        let e = E::Ite(ty, c.b(), E::Var(t).b(), E::Var(base + k).b());
                        *cur = self.assign_edge(*cur, base + k, e);
                    }
                    E::Var(t)
                }
            },
        }
    }

    fn assign_edge(&mut self, cur: usize, v: usize, x: E) -> usize {
        let n = self.cfg.new_node();
        self.cfg.edge(cur, n, Ins::Assign(v, x));
        n
    }

    // ---------------------------------------------------------------- statements

    /// The statement after a `case`/`default` label: entered from the switch's dispatch node
    /// `n` or by falling through from `cur`; its goal is that the statement executes.
    fn labeled_body(
        &mut self,
        n: usize,
        cur: usize,
        kind: GoalKind,
        off: usize,
        inner: &Node<Statement>,
    ) -> R<usize> {
        let entry = self.cfg.new_node();
        self.cfg.edge(n, entry, Ins::Skip);
        self.cfg.edge(cur, entry, Ins::Skip);
        let start = self.cfg.new_node();
        let g = if self.branch_goals {
            Ins::Goal(self.goal(
                kind,
                off,
                Instrument::WrapStmt(inner.span.start, inner.span.end),
            ))
        } else {
            Ins::Skip
        };
        self.cfg.edge(entry, start, g);
        self.stmt(inner, start)
    }

    fn stmt(&mut self, s: &Node<Statement>, cur: usize) -> R<usize> {
        match &s.node {
            Statement::Compound(items) => {
                self.scopes.push(HashMap::new());
                self.typedefs.push(HashMap::new());
                let mut c = cur;
                let mut r = Ok(());
                for it in items {
                    let first_goal = self.cfg.goals.len();
                    let x = match &it.node {
                        BlockItem::Declaration(d) => self.local_decl(d, c),
                        BlockItem::StaticAssert(_) => Ok(c),
                        BlockItem::Statement(st) => self.stmt(st, c),
                    };
                    // gcc's sanitizer reports some checks (an operation with a constant
                    // operand, a negation) at the declared name or the `=` instead of the
                    // operator: the innermost block item of each check is kept for the replay
                    for g in &mut self.cfg.goals[first_goal..] {
                        if let Instrument::Ub(a, b) = g.instrument {
                            if g.ub_stmt.is_none() && a >= it.span.start && b <= it.span.end {
                                g.ub_stmt = Some((it.span.start, it.span.end));
                            }
                        }
                    }
                    match x {
                        Ok(n) => c = n,
                        Err(e) => {
                            r = Err(e);
                            break;
                        }
                    }
                }
                self.scopes.pop();
                self.typedefs.pop();
                r.map(|_| c)
            }
            Statement::Expression(None) => Ok(cur),
            Statement::Expression(Some(e)) => {
                let mut c = cur;
                self.expr(e, &mut c)?;
                Ok(c)
            }
            Statement::If(i) => {
                let t = self.cfg.new_node();
                let f = self.cfg.new_node();
                self.cond(&i.node.condition, cur, t, f)?;
                let join = self.cfg.new_node();
                let ts = &i.node.then_statement;
                let t_start = self.cfg.new_node();
                let tg = if self.branch_goals {
                    let g = self.goal(
                        GoalKind::Then,
                        ts.span.start,
                        Instrument::WrapStmt(ts.span.start, ts.span.end),
                    );
                    Ins::Goal(g)
                } else {
                    Ins::Skip
                };
                self.cfg.edge(t, t_start, tg);
                let t_end = self.stmt(ts, t_start)?;
                self.cfg.edge(t_end, join, Ins::Skip);
                let f_start = self.cfg.new_node();
                match &i.node.else_statement {
                    Some(es) => {
                        let fg = if self.branch_goals {
                            let g = self.goal(
                                GoalKind::Else,
                                es.span.start,
                                Instrument::WrapStmt(es.span.start, es.span.end),
                            );
                            Ins::Goal(g)
                        } else {
                            Ins::Skip
                        };
                        self.cfg.edge(f, f_start, fg);
                        let f_end = self.stmt(es, f_start)?;
                        self.cfg.edge(f_end, join, Ins::Skip);
                    }
                    None => {
                        let fg = if self.branch_goals {
                            // reported at the condition
                            let c = &i.node.condition;
                            let g = self.goal(
                                GoalKind::Else,
                                c.span.start,
                                Instrument::ElseAfter(ts.span.start, ts.span.end),
                            );
                            Ins::Goal(g)
                        } else {
                            Ins::Skip
                        };
                        self.cfg.edge(f, join, fg);
                    }
                }
                Ok(join)
            }
            Statement::While(w) => {
                let head = self.cfg.new_node();
                self.cfg.loop_head[head] = true;
                self.cfg.edge(cur, head, Ins::Skip);
                let body = self.cfg.new_node();
                let exit = self.cfg.new_node();
                self.cond(&w.node.expression, head, body, exit)?;
                let b_start = self.loop_body_goal(body, &w.node.statement);
                self.breaks.push(exit);
                self.continues.push(head);
                let r = self.stmt(&w.node.statement, b_start);
                self.breaks.pop();
                self.continues.pop();
                let b_end = r?;
                self.cfg.edge(b_end, head, Ins::Skip);
                Ok(exit)
            }
            Statement::DoWhile(w) => {
                let head = self.cfg.new_node();
                self.cfg.loop_head[head] = true;
                self.cfg.edge(cur, head, Ins::Skip);
                let b_start = self.loop_body_goal(head, &w.node.statement);
                let exit = self.cfg.new_node();
                let cont = self.cfg.new_node();
                self.breaks.push(exit);
                self.continues.push(cont);
                let r = self.stmt(&w.node.statement, b_start);
                self.breaks.pop();
                self.continues.pop();
                let b_end = r?;
                self.cfg.edge(b_end, cont, Ins::Skip);
                self.cond(&w.node.expression, cont, head, exit)?;
                Ok(exit)
            }
            Statement::For(f) => {
                self.scopes.push(HashMap::new());
                self.typedefs.push(HashMap::new());
                let r = self.for_stmt(f, cur);
                self.scopes.pop();
                self.typedefs.pop();
                r
            }
            Statement::Break => match self.breaks.last() {
                Some(&b) => {
                    self.cfg.edge(cur, b, Ins::Skip);
                    Ok(self.cfg.new_node())
                }
                None => self.err(s.span, "`break` outside a loop or switch"),
            },
            Statement::Continue => match self.continues.last() {
                Some(&c) => {
                    self.cfg.edge(cur, c, Ins::Skip);
                    Ok(self.cfg.new_node())
                }
                None => self.err(s.span, "`continue` outside a loop"),
            },
            Statement::Return(e) => {
                let (ret, exit) = {
                    let f = self.fn_stack.last().unwrap();
                    (f.ret, f.exit)
                };
                let mut c = cur;
                if let Some(e) = e {
                    let (x, t) = self.expr(e, &mut c)?;
                    if let Some((rv, rt)) = ret {
                        let x = self.convert_operand(x, t, rt, &mut c, e.span, Some(e.span))?;
                        c = self.assign_edge(c, rv, x);
                    }
                }
                self.cfg.edge(c, exit, Ins::Skip);
                Ok(self.cfg.new_node())
            }
            Statement::Switch(sw) => self.switch_stmt(sw, cur),
            Statement::Labeled(l) => match &l.node.label.node {
                Label::Identifier(_) => self.stmt(&l.node.statement, cur),
                Label::Case(e) => {
                    let v = self.const_int(e)?;
                    let n = self.cfg.new_node();
                    let Some(sw) = self.switches.last_mut() else {
                        return self.err(s.span, "`case` outside a switch");
                    };
                    sw.cases.push((v, n));
                    self.labeled_body(n, cur, GoalKind::Case, s.span.start, &l.node.statement)
                }
                Label::Default => {
                    let n = self.cfg.new_node();
                    let Some(sw) = self.switches.last_mut() else {
                        return self.err(s.span, "`default` outside a switch");
                    };
                    sw.default = Some(n);
                    self.labeled_body(n, cur, GoalKind::Default, s.span.start, &l.node.statement)
                }
                Label::CaseRange(_) => self.err(s.span, "case ranges are not supported"),
            },
            Statement::Goto(_) => self.err(s.span, "`goto` is not supported"),
            Statement::Asm(_) => self.err(s.span, "inline assembly is not supported"),
        }
    }

    fn loop_body_goal(&mut self, from: usize, body: &Node<Statement>) -> usize {
        let n = self.cfg.new_node();
        let g = if self.branch_goals {
            Ins::Goal(self.goal(
                GoalKind::LoopBody,
                body.span.start,
                Instrument::WrapStmt(body.span.start, body.span.end),
            ))
        } else {
            Ins::Skip
        };
        self.cfg.edge(from, n, g);
        n
    }

    fn for_stmt(&mut self, f: &Node<ForStatement>, cur: usize) -> R<usize> {
        let mut c = cur;
        match &f.node.initializer.node {
            ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
            ForInitializer::Expression(e) => {
                self.expr(e, &mut c)?;
            }
            ForInitializer::Declaration(d) => c = self.local_decl(d, c)?,
        }
        let head = self.cfg.new_node();
        self.cfg.loop_head[head] = true;
        self.cfg.edge(c, head, Ins::Skip);
        let body = self.cfg.new_node();
        let exit = self.cfg.new_node();
        match &f.node.condition {
            Some(e) => self.cond(e, head, body, exit)?,
            None => self.cfg.edge(head, body, Ins::Skip),
        }
        let b_start = self.loop_body_goal(body, &f.node.statement);
        let step = self.cfg.new_node();
        self.breaks.push(exit);
        self.continues.push(step);
        let r = self.stmt(&f.node.statement, b_start);
        self.breaks.pop();
        self.continues.pop();
        let b_end = r?;
        self.cfg.edge(b_end, step, Ins::Skip);
        let mut s = step;
        if let Some(e) = &f.node.step {
            self.expr(e, &mut s)?;
        }
        self.cfg.edge(s, head, Ins::Skip);
        Ok(exit)
    }

    fn switch_stmt(&mut self, sw: &Node<SwitchStatement>, cur: usize) -> R<usize> {
        let mut c = cur;
        let (x, t) = self.expr(&sw.node.expression, &mut c)?;
        if !t.is_int() {
            return self.err(sw.node.expression.span, "switch on a non-integer");
        }
        let pt = promote(t);
        let x = conv(x, t, pt);
        let tmp = self.fresh_var("switch", pt);
        c = self.assign_edge(c, tmp, x);
        let exit = self.cfg.new_node();
        self.switches.push(SwitchCtx {
            cases: Vec::new(),
            default: None,
        });
        self.breaks.push(exit);
        let body_start = self.cfg.new_node(); // unreachable: code before the first label
        let r = self.stmt(&sw.node.statement, body_start);
        self.breaks.pop();
        let ctx = self.switches.pop().unwrap();
        let end = r?;
        self.cfg.edge(end, exit, Ins::Skip);
        // dispatch: first matching case, else default, else past the switch
        let mut at = c;
        let (lo, hi) = pt.range();
        for (v, n) in &ctx.cases {
            let cv = wrap(*v, pt);
            let _ = (lo, hi);
            let eq = E::Cmp(Rel::Eq, pt, E::Var(tmp).b(), E::Int(pt, cv).b());
            let next = self.cfg.new_node();
            self.cfg.edge(at, *n, Ins::Assume(eq.clone()));
            self.cfg.edge(at, next, Ins::Assume(eq.negate()));
            at = next;
        }
        match ctx.default {
            Some(d) => self.cfg.edge(at, d, Ins::Skip),
            None => self.cfg.edge(at, exit, Ins::Skip),
        }
        Ok(exit)
    }

    // ---------------------------------------------------------------- conditions

    /// Branches from `cur` to `t` if `e` is true (non-zero), else to `f`, with C's
    /// short-circuit evaluation.
    fn cond(&mut self, e: &Node<Expression>, cur: usize, t: usize, f: usize) -> R<()> {
        match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalAnd => {
                let mid = self.cfg.new_node();
                self.cond(&b.node.lhs, cur, mid, f)?;
                self.cond(&b.node.rhs, mid, t, f)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalOr => {
                let mid = self.cfg.new_node();
                self.cond(&b.node.lhs, cur, t, mid)?;
                self.cond(&b.node.rhs, mid, t, f)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.cond(&u.node.operand, cur, f, t)
            }
            _ => {
                let mut c = cur;
                let b = self.cond_value(e, &mut c)?;
                match b {
                    E::True => self.cfg.edge(c, t, Ins::Skip),
                    E::False => self.cfg.edge(c, f, Ins::Skip),
                    b => {
                        self.cfg.edge(c, t, Ins::Assume(b.clone()));
                        self.cfg.edge(c, f, Ins::Assume(b.negate()));
                    }
                }
                Ok(())
            }
        }
    }

    /// A condition without control flow (comparisons directly, anything else `!= 0`).
    fn cond_value(&mut self, e: &Node<Expression>, cur: &mut usize) -> R<E> {
        let (x, t) = self.expr(e, cur)?;
        truth(x, t).ok_or_else(|| self.src.err(e.span.start, "a scalar condition is required"))
    }

    // ---------------------------------------------------------------- expressions

    fn lookup(&self, n: &str) -> Option<Binding> {
        self.scopes.iter().rev().find_map(|m| m.get(n).copied())
    }

    /// Reads variable `v` (a volatile read is a fresh input).
    fn read_var(&mut self, v: usize, cur: &mut usize, span: Span) -> E {
        if self.volatile[v] {
            let ty = self.cfg.vars[v].ty;
            let c_name = self.cfg.vars[v].c_name.clone();
            let tmp = self.fresh_var(&format!("volatile_{c_name}"), ty);
            let site = self.cfg.nondets.len();
            self.cfg.nondets.push(NondetSite {
                var: tmp,
                ty,
                what: format!("read of volatile {c_name}"),
                fed: false,
                pos: self.src.pos(span.start),
                ret_pos: self.src.pos(span.end.saturating_sub(1)),
            });
            let n = self.cfg.new_node();
            self.cfg.edge(*cur, n, Ins::Havoc(tmp, site));
            *cur = n;
            return E::Var(tmp);
        }
        E::Var(v)
    }

    fn lvalue(&mut self, e: &Node<Expression>, cur: &mut usize) -> R<Place> {
        match &e.node {
            Expression::Identifier(i) => match self.lookup(&i.node.name) {
                Some(Binding::Var(v)) => Ok(Place::Var(v)),
                Some(Binding::Const(_)) => {
                    self.err(e.span, "an enumeration constant is not assignable")
                }
                Some(Binding::Array(..)) => self.err(e.span, "an array is not assignable"),
                None => self.poisoned_use(&i.node.name, e.span),
            },
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.element(&b.node.lhs, &b.node.rhs, cur, e.span)
            }
            _ => self.err(
                e.span,
                "unsupported assignment target (only scalar variables and array elements)",
            ),
        }
    }

    /// Lowers an operand and records which variables its side effects write and which
    /// variables it reads (in its edges and in its value).
    fn expr_tracked(&mut self, e: &Node<Expression>, cur: &mut usize) -> R<((E, Ty), Effects)> {
        let n0 = self.cfg.nodes.len();
        let c0 = *cur;
        let k0 = self.cfg.nodes[c0].len();
        let r = self.expr(e, cur)?;
        let mut eff = Effects::default();
        let mut edges: Vec<&Edge> = self.cfg.nodes[c0][k0..].iter().collect();
        for n in n0..self.cfg.nodes.len() {
            edges.extend(self.cfg.nodes[n].iter());
        }
        for ed in edges {
            match &ed.ins {
                Ins::Assign(v, x) => {
                    eff.w.insert(*v);
                    vars_of(x, &mut eff.r);
                }
                Ins::Havoc(v, _) | Ins::Forget(v) => {
                    eff.w.insert(*v);
                }
                Ins::Assume(x) | Ins::Check(_, x) => vars_of(x, &mut eff.r),
                Ins::Skip | Ins::Goal(_) => {}
            }
        }
        vars_of(&r.0, &mut eff.r);
        Ok((r, eff))
    }

    /// Both operands of a binary operator, left to right, rejecting an order dependence.
    fn operands(
        &mut self,
        l: &Node<Expression>,
        r: &Node<Expression>,
        cur: &mut usize,
        span: Span,
    ) -> R<((E, Ty), (E, Ty))> {
        if !has_effects(&l.node) && !has_effects(&r.node) {
            let a = self.expr(l, cur)?;
            let b = self.expr(r, cur)?;
            return Ok((a, b));
        }
        let (a, ea) = self.expr_tracked(l, cur)?;
        let (b, eb) = self.expr_tracked(r, cur)?;
        self.check_order(&ea, &eb, span)?;
        Ok((a, b))
    }

    /// C leaves the order of the operands' side effects open (unsequenced or indeterminately
    /// sequenced): when one operand writes a variable the other reads or writes, the result
    /// may depend on the compiler, so such code is not translated.
    fn check_order(&self, a: &Effects, b: &Effects, span: Span) -> R<()> {
        let clash =
            a.w.iter()
                .find(|v| b.r.contains(v) || b.w.contains(v))
                .or_else(|| b.w.iter().find(|v| a.r.contains(v)));
        if let Some(&v) = clash {
            return self.err(
                span,
                format!(
                    "the order of evaluation of the side effects on `{}` is not specified by C (not supported)",
                    self.cfg.vars[v].c_name
                ),
            );
        }
        Ok(())
    }

    /// Lowers an expression: side effects become edges from `cur` on; returns the value.
    pub fn expr(&mut self, e: &Node<Expression>, cur: &mut usize) -> R<(E, Ty)> {
        match &e.node {
            Expression::Identifier(i) => match self.lookup(&i.node.name) {
                Some(Binding::Var(v)) => {
                    let ty = self.cfg.vars[v].ty;
                    Ok((self.read_var(v, cur, e.span), ty))
                }
                Some(Binding::Const(c)) => Ok((E::Int(INT, c), INT)),
                Some(Binding::Array(..)) => self.err(
                    e.span,
                    "an array is only supported with an index (no pointer decay)",
                ),
                None => self.poisoned_use(&i.node.name, e.span),
            },
            Expression::Constant(c) => self.constant(c),
            Expression::UnaryOperator(u) => self.unary(u, cur, e.span),
            Expression::Cast(c) => {
                let to = self.type_name(&c.node.type_name)?;
                let (x, t) = self.expr(&c.node.expression, cur)?;
                if to == Ty::Void {
                    return Ok((E::True, Ty::Void));
                }
                let x =
                    self.convert_operand(x, t, to, cur, e.span, Some(c.node.expression.span))?;
                Ok((x, to))
            }
            Expression::BinaryOperator(b) => self.binary(b, cur, e.span),
            Expression::Conditional(c) => {
                let t = self.cfg.new_node();
                let f = self.cfg.new_node();
                self.cond(&c.node.condition, *cur, t, f)?;
                let mut tc = t;
                let (a, ta) = self.expr(&c.node.then_expression, &mut tc)?;
                let mut fc = f;
                let (b, tb) = self.expr(&c.node.else_expression, &mut fc)?;
                let join = self.cfg.new_node();
                if ta == Ty::Void || tb == Ty::Void {
                    self.cfg.edge(tc, join, Ins::Skip);
                    self.cfg.edge(fc, join, Ins::Skip);
                    *cur = join;
                    return Ok((E::True, Ty::Void));
                }
                let rt = arith_conv(ta, tb);
                let tmp = self.fresh_var("cond", rt);
                let a = self.convert(a, ta, rt, &mut tc, e.span)?;
                let b = self.convert(b, tb, rt, &mut fc, e.span)?;
                self.cfg.edge(tc, join, Ins::Assign(tmp, a));
                self.cfg.edge(fc, join, Ins::Assign(tmp, b));
                *cur = join;
                Ok((E::Var(tmp), rt))
            }
            Expression::Comma(es) => {
                let mut last = (E::True, Ty::Void);
                for x in es.iter() {
                    last = self.expr(x, cur)?;
                }
                Ok(last)
            }
            Expression::Call(c) => self.call(c, cur, e.span),
            Expression::SizeOfTy(t) => {
                let ty = self.type_name(&t.node.0)?;
                Ok((
                    E::Int(self.size_t(), (ty.bits() / 8) as i128),
                    self.size_t(),
                ))
            }
            Expression::SizeOfVal(_) => {
                self.err(e.span, "`sizeof` of an expression is not supported")
            }
            Expression::Statement(_) => self.err(e.span, "statement expressions are not supported"),
            Expression::StringLiteral(_) => self.err(e.span, "string literals are not supported"),
            _ => self.err(e.span, "unsupported expression"),
        }
    }

    fn size_t(&mut self) -> Ty {
        self.cfg.model_sensitive = true;
        Ty::Int {
            bits: match self.model {
                DataModel::Lp64 => 64,
                DataModel::Ilp32 => 32,
            },
            signed: false,
        }
    }

    fn constant(&mut self, c: &Node<Constant>) -> R<(E, Ty)> {
        match &c.node {
            Constant::Integer(i) => {
                let radix = match i.base {
                    IntegerBase::Decimal => 10,
                    IntegerBase::Octal => 8,
                    IntegerBase::Hexadecimal => 16,
                    IntegerBase::Binary => 2,
                };
                let digits = i.number.trim_start_matches("0x").trim_start_matches("0X");
                let digits = if radix == 2 {
                    digits.trim_start_matches("0b").trim_start_matches("0B")
                } else {
                    digits
                };
                let Ok(v) =
                    u128::from_str_radix(if digits.is_empty() { "0" } else { digits }, radix)
                else {
                    return self.err(c.span, "integer constant too large");
                };
                if i.suffix.imaginary {
                    return self.err(c.span, "imaginary constants are not supported");
                }
                if i.suffix.size == IntegerSize::Long {
                    self.cfg.model_sensitive = true;
                }
                let long_bits = match self.model {
                    DataModel::Lp64 => 64u8,
                    DataModel::Ilp32 => 32,
                };
                let min_bits = match i.suffix.size {
                    IntegerSize::Int => 32,
                    IntegerSize::Long => long_bits,
                    IntegerSize::LongLong => 64,
                };
                // C11 6.4.4.1: the first type of the list that can represent the value
                let mut cands = Vec::new();
                for bits in [32u8, long_bits, 64] {
                    if bits < min_bits {
                        continue;
                    }
                    if !i.suffix.unsigned {
                        cands.push(Ty::Int { bits, signed: true });
                    }
                    if i.suffix.unsigned || radix != 10 {
                        cands.push(Ty::Int {
                            bits,
                            signed: false,
                        });
                    }
                }
                for t in cands {
                    let (_, hi) = t.range();
                    if v <= hi as u128 {
                        return Ok((E::Int(t, v as i128), t));
                    }
                }
                self.err(c.span, "integer constant too large for any integer type")
            }
            Constant::Float(f) => {
                if f.suffix.imaginary {
                    return self.err(c.span, "imaginary constants are not supported");
                }
                let ty = match f.suffix.format {
                    FloatFormat::Float => Ty::F32,
                    FloatFormat::Double => Ty::F64,
                    _ => return self.err(c.span, "`long double` constants are not supported"),
                };
                let bits = match f.base {
                    FloatBase::Decimal => {
                        // Rust's parsing is correctly rounded (round to nearest even)
                        let s: &str = &f.number;
                        match ty {
                            Ty::F32 => s.parse::<f32>().ok().map(|x| x.to_bits() as u64),
                            _ => s.parse::<f64>().ok().map(|x| x.to_bits()),
                        }
                    }
                    FloatBase::Hexadecimal => parse_hex_float(&f.number, ty),
                };
                match bits {
                    Some(b) => Ok((E::Fp(ty, b), ty)),
                    None => self.err(c.span, "malformed floating constant"),
                }
            }
            Constant::Character(s) => match char_value(s) {
                Some(v) => Ok((E::Int(INT, v), INT)),
                None => self.err(c.span, "unsupported character constant"),
            },
        }
    }

    fn unary(
        &mut self,
        u: &Node<UnaryOperatorExpression>,
        cur: &mut usize,
        span: Span,
    ) -> R<(E, Ty)> {
        use UnaryOperator as U;
        let op = u.node.operator.node.clone();
        match op {
            U::PreIncrement | U::PreDecrement | U::PostIncrement | U::PostDecrement => {
                let place = self.lvalue(&u.node.operand, cur)?;
                let vt = self.place_ty(&place);
                let old = self.read_place(&place, cur, span);
                let bop = if matches!(op, U::PreIncrement | U::PostIncrement) {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                if vt == Ty::Bool {
                    return self.err(span, "++/-- on _Bool is not supported");
                }
                // keep the old value for the postfix forms
                let saved = self.fresh_var("old", vt);
                *cur = self.assign_edge(*cur, saved, old);
                let (r, rt) = self.arith(bop, E::Var(saved), vt, E::Int(INT, 1), INT, cur, span)?;
                let nv = self.convert(r, rt, vt, cur, span)?;
                let stored = self.write_place(&place, nv, cur);
                if matches!(op, U::PreIncrement | U::PreDecrement) {
                    Ok((stored, vt))
                } else {
                    Ok((E::Var(saved), vt))
                }
            }
            U::Plus => {
                let (x, t) = self.expr(&u.node.operand, cur)?;
                self.scalar(t, span)?;
                let pt = promote(t);
                Ok((conv(x, t, pt), pt))
            }
            U::Minus => {
                let (x, t) = self.expr(&u.node.operand, cur)?;
                self.scalar(t, span)?;
                let pt = promote(t);
                let x = conv(x, t, pt);
                if pt.is_signed_int() {
                    let (lo, _) = pt.range();
                    let c = E::Cmp(Rel::Eq, pt, x.clone().b(), E::Int(pt, lo).b());
                    self.check(GoalKind::Overflow, c, cur, span);
                    self.sign_check("neg", None, None);
                }
                Ok((E::Neg(pt, x.b()), pt))
            }
            U::Complement => {
                let (x, t) = self.expr(&u.node.operand, cur)?;
                if !t.is_int() {
                    return self.err(span, "~ needs an integer operand");
                }
                let pt = promote(t);
                Ok((E::BitNot(pt, conv(x, t, pt).b()), pt))
            }
            U::Negate => {
                let b = self.cond_value(&u.node.operand, cur)?;
                Ok((E::OfCond(INT, b.negate().b()), INT))
            }
            U::Address | U::Indirection => self.err(span, "pointers are not supported"),
        }
    }

    fn scalar(&self, t: Ty, span: Span) -> R<()> {
        if t == Ty::Void {
            return self.err(span, "a value of type void is used");
        }
        Ok(())
    }

    fn check(&mut self, kind: GoalKind, c: E, cur: &mut usize, span: Span) {
        self.check_with(kind, c, cur, span, Instrument::Ub(span.start, span.end));
    }

    /// Records the operation of the check just added (if it was added: a check whose
    /// condition is false is left out).
    fn sign_check(&mut self, op: &'static str, lhs: Option<i128>, rhs: Option<i128>) {
        if let Some(g) = self.cfg.goals.last_mut() {
            if g.ub_sig.is_none() && matches!(g.instrument, Instrument::Ub(..)) {
                g.ub_sig = Some(UbSig { op, lhs, rhs });
            }
        }
    }

    fn check_with(&mut self, kind: GoalKind, c: E, cur: &mut usize, span: Span, ins: Instrument) {
        if c == E::False {
            return;
        }
        let g = self.goal(kind, span.start, ins);
        let n = self.cfg.new_node();
        self.cfg.edge(*cur, n, Ins::Check(g, c));
        *cur = n;
    }

    /// `a op b` with the usual arithmetic conversions and undefined-behaviour checks.
    #[allow(clippy::too_many_arguments)]
    fn arith(
        &mut self,
        op: BinOp,
        a: E,
        ta: Ty,
        b: E,
        tb: Ty,
        cur: &mut usize,
        span: Span,
    ) -> R<(E, Ty)> {
        self.scalar(ta, span)?;
        self.scalar(tb, span)?;
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            if !ta.is_int() || !tb.is_int() {
                return self.err(span, "shift of a non-integer");
            }
            let pa = promote(ta);
            let pb = promote(tb);
            let a = conv(a, ta, pa);
            let b = conv(b, tb, pb);
            let lits = (int_lit(&a), int_lit(&b));
            let w = pa.bits() as i128;
            let mut bad = E::Cmp(
                Rel::Ge,
                pb,
                b.clone().b(),
                E::Int(pb, w.min(pb.range().1)).b(),
            );
            if pb.is_signed_int() {
                bad = bad.or(E::Cmp(Rel::Lt, pb, b.clone().b(), E::Int(pb, 0).b()));
            }
            let n = conv(b, pb, pa);
            let r = E::Bin(op, pa, a.clone().b(), n.clone().b());
            if op == BinOp::Shl && pa.is_signed_int() {
                // a negative left operand, or a result that does not fit
                let back = E::Bin(BinOp::Shr, pa, r.clone().b(), n.b());
                bad = bad
                    .or(E::Cmp(Rel::Lt, pa, a.clone().b(), E::Int(pa, 0).b()))
                    .or(E::Cmp(Rel::Ne, pa, back.b(), a.b()))
                    .or(E::Cmp(Rel::Lt, pa, r.clone().b(), E::Int(pa, 0).b()));
            }
            self.check(GoalKind::Shift, bad, cur, span);
            let op = if op == BinOp::Shl { "<<" } else { ">>" };
            self.sign_check(op, lits.0, lits.1);
            return Ok((self.bounded(r, pa, cur), pa));
        }
        let rt = arith_conv(ta, tb);
        if rt.is_float() && matches!(op, BinOp::Rem | BinOp::And | BinOp::Or | BinOp::Xor) {
            return self.err(span, "this operator needs integer operands");
        }
        let a = conv(a, ta, rt);
        let b = conv(b, tb, rt);
        if rt.is_int() {
            if matches!(op, BinOp::Div | BinOp::Rem) {
                let z = E::Cmp(Rel::Eq, rt, b.clone().b(), E::Int(rt, 0).b());
                self.check(GoalKind::DivZero, z, cur, span);
                if rt.is_signed_int() {
                    let (lo, _) = rt.range();
                    let o = E::Cmp(Rel::Eq, rt, a.clone().b(), E::Int(rt, lo).b()).and(E::Cmp(
                        Rel::Eq,
                        rt,
                        b.clone().b(),
                        E::Int(rt, -1).b(),
                    ));
                    self.check(GoalKind::Overflow, o, cur, span);
                    let o = if op == BinOp::Div { "/" } else { "%" };
                    self.sign_check(o, int_lit(&a), int_lit(&b));
                }
            }
            if rt.is_signed_int() && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
                let o = overflow(op, rt, &a, &b);
                self.check(GoalKind::Overflow, o, cur, span);
                let o = match op {
                    BinOp::Add => "+",
                    BinOp::Sub => "-",
                    _ => "*",
                };
                self.sign_check(o, int_lit(&a), int_lit(&b));
            }
        }
        let r = E::Bin(op, rt, a.b(), b.b());
        Ok((self.bounded(r, rt, cur), rt))
    }

    /// Keeps expression trees small: a large one is stored in a temporary first (evaluated
    /// here, where C evaluates it), so checks that copy operands stay linear in size.
    fn bounded(&mut self, e: E, t: Ty, cur: &mut usize) -> E {
        if e_size(&e, 0) <= 64 {
            return e;
        }
        let v = self.fresh_var("tmp", t);
        self.cfg.vars[v].is_temp = true;
        *cur = self.assign_edge(*cur, v, e);
        E::Var(v)
    }

    fn compare(&mut self, rel: Rel, a: E, ta: Ty, b: E, tb: Ty, span: Span) -> R<E> {
        self.scalar(ta, span)?;
        self.scalar(tb, span)?;
        let rt = arith_conv(ta, tb);
        Ok(E::Cmp(rel, rt, conv(a, ta, rt).b(), conv(b, tb, rt).b()))
    }

    fn binary(
        &mut self,
        b: &Node<BinaryOperatorExpression>,
        cur: &mut usize,
        span: Span,
    ) -> R<(E, Ty)> {
        use BinaryOperator as B;
        let op = b.node.operator.node.clone();
        let arith_op = |o: &B| -> Option<BinOp> {
            Some(match o {
                B::Multiply | B::AssignMultiply => BinOp::Mul,
                B::Divide | B::AssignDivide => BinOp::Div,
                B::Modulo | B::AssignModulo => BinOp::Rem,
                B::Plus | B::AssignPlus => BinOp::Add,
                B::Minus | B::AssignMinus => BinOp::Sub,
                B::ShiftLeft | B::AssignShiftLeft => BinOp::Shl,
                B::ShiftRight | B::AssignShiftRight => BinOp::Shr,
                B::BitwiseAnd | B::AssignBitwiseAnd => BinOp::And,
                B::BitwiseXor | B::AssignBitwiseXor => BinOp::Xor,
                B::BitwiseOr | B::AssignBitwiseOr => BinOp::Or,
                _ => return None,
            })
        };
        match op {
            B::Index => {
                let p = self.element(&b.node.lhs, &b.node.rhs, cur, span)?;
                let ty = self.place_ty(&p);
                Ok((self.read_place(&p, cur, span), ty))
            }
            B::LogicalAnd | B::LogicalOr => {
                let t = self.cfg.new_node();
                let f = self.cfg.new_node();
                let whole = Node {
                    node: Expression::BinaryOperator(Box::new(b.clone())),
                    span,
                };
                self.cond(&whole, *cur, t, f)?;
                let tmp = self.fresh_var("logic", INT);
                let join = self.cfg.new_node();
                self.cfg.edge(t, join, Ins::Assign(tmp, E::Int(INT, 1)));
                self.cfg.edge(f, join, Ins::Assign(tmp, E::Int(INT, 0)));
                *cur = join;
                Ok((E::Var(tmp), INT))
            }
            B::Less
            | B::Greater
            | B::LessOrEqual
            | B::GreaterOrEqual
            | B::Equals
            | B::NotEquals => {
                let ((x, tx), (y, ty)) = self.operands(&b.node.lhs, &b.node.rhs, cur, span)?;
                let rel = match op {
                    B::Less => Rel::Lt,
                    B::Greater => Rel::Gt,
                    B::LessOrEqual => Rel::Le,
                    B::GreaterOrEqual => Rel::Ge,
                    B::Equals => Rel::Eq,
                    _ => Rel::Ne,
                };
                let c = self.compare(rel, x, tx, y, ty, span)?;
                Ok((E::OfCond(INT, c.b()), INT))
            }
            B::Assign => {
                let place = self.lvalue(&b.node.lhs, cur)?;
                let vt = self.place_ty(&place);
                let (x, tx) = if has_effects(&b.node.rhs.node) {
                    let (x, eb) = self.expr_tracked(&b.node.rhs, cur)?;
                    // the store is sequenced after both operands are evaluated: only a write
                    // of the same place (or of the index) by the right side is a problem
                    let mut ea = Effects::default();
                    for v in Self::place_vars(&place) {
                        ea.r.insert(v);
                    }
                    if let Place::Elem(_, _, ix, _, reads) = &place {
                        vars_of(ix, &mut ea.r);
                        ea.r.extend(reads.iter().copied());
                    }
                    let clash = eb.w.iter().any(|v| ea.r.contains(v));
                    if clash {
                        self.check_order(&eb, &ea, span)?;
                    }
                    x
                } else {
                    self.expr(&b.node.rhs, cur)?
                };
                let x = self.convert_operand(x, tx, vt, cur, span, Some(b.node.rhs.span))?;
                let stored = self.write_place(&place, x, cur);
                Ok((stored, vt))
            }
            ref o if arith_op(o).is_some() => {
                let aop = arith_op(o).unwrap();
                let compound = matches!(
                    o,
                    B::AssignMultiply
                        | B::AssignDivide
                        | B::AssignModulo
                        | B::AssignPlus
                        | B::AssignMinus
                        | B::AssignShiftLeft
                        | B::AssignShiftRight
                        | B::AssignBitwiseAnd
                        | B::AssignBitwiseXor
                        | B::AssignBitwiseOr
                );
                if compound {
                    let place = self.lvalue(&b.node.lhs, cur)?;
                    let vt = self.place_ty(&place);
                    let old = self.read_place(&place, cur, span);
                    let (y, ty) = if has_effects(&b.node.rhs.node) {
                        let (y, eb) = self.expr_tracked(&b.node.rhs, cur)?;
                        let mut ea = Effects::default();
                        // the place is read before and written after the right side: only a
                        // write of it by the right side is a problem
                        for v in Self::place_vars(&place) {
                            ea.r.insert(v);
                        }
                        self.check_order(&ea, &eb, span)?;
                        y
                    } else {
                        self.expr(&b.node.rhs, cur)?
                    };
                    let (r, rt) = self.arith(aop, old, vt, y, ty, cur, span)?;
                    let nv = self.convert(r, rt, vt, cur, span)?;
                    let stored = self.write_place(&place, nv, cur);
                    Ok((stored, vt))
                } else {
                    let ((x, tx), (y, ty)) = self.operands(&b.node.lhs, &b.node.rhs, cur, span)?;
                    self.arith(aop, x, tx, y, ty, cur, span)
                }
            }
            _ => self.err(span, "unsupported operator"),
        }
    }

    /// Conversion with C's rules; a float → integer conversion out of range is undefined
    /// behaviour (its own goal).
    fn convert(&mut self, x: E, from: Ty, to: Ty, cur: &mut usize, span: Span) -> R<E> {
        self.convert_operand(x, from, to, cur, span, None)
    }

    /// [`Self::convert`] where the converted value is the C expression at `operand` (the
    /// replay can then check a float → integer conversion exactly, see
    /// [`Instrument::ConvCheck`]).
    fn convert_operand(
        &mut self,
        x: E,
        from: Ty,
        to: Ty,
        cur: &mut usize,
        span: Span,
        operand: Option<Span>,
    ) -> R<E> {
        if from == Ty::Void || to == Ty::Void {
            return self.err(span, "a value of type void is used");
        }
        if from.is_float() && to.is_int() && to != Ty::Bool {
            let (lo, hi) = to.range();
            // in range iff lo - 1 < x < hi + 1 (truncation toward zero); hi + 1 is a power of
            // two; lo - 1 is -1 or -(2^k + 1), which is exact in the format when 2^k + 1
            // fits its significand (k < 24 for float, k < 53 for double); otherwise no value
            // of the format lies strictly between lo - 1 and lo, and lo <= x is the same
            let sig = if from == Ty::F32 { 24 } else { 53 };
            let lo_exact = lo == 0 || (-lo) < (1i128 << sig);
            let (lo_rel, lo_b) = if lo_exact {
                (Rel::Gt, (lo - 1) as f64)
            } else {
                (Rel::Ge, lo as f64)
            };
            let hi_b = (hi + 1) as f64;
            let mk = |v: f64| match from {
                Ty::F32 => E::Fp(from, (v as f32).to_bits() as u64),
                _ => E::Fp(from, v.to_bits()),
            };
            let ok = E::Cmp(lo_rel, from, x.clone().b(), mk(lo_b).b()).and(E::Cmp(
                Rel::Lt,
                from,
                x.clone().b(),
                mk(hi_b).b(),
            ));
            let ins = match operand {
                Some(o) => Instrument::ConvCheck {
                    start: o.start,
                    end: o.end,
                    from,
                    lo,
                    hi,
                },
                None => Instrument::None,
            };
            self.check_with(GoalKind::ConvRange, ok.negate(), cur, span, ins);
        }
        Ok(conv(x, from, to))
    }

    fn call(&mut self, c: &Node<CallExpression>, cur: &mut usize, span: Span) -> R<(E, Ty)> {
        let Expression::Identifier(id) = &c.node.callee.node else {
            return self.err(span, "only direct calls are supported");
        };
        let name = id.node.name.as_str();
        let args = &c.node.arguments;
        if is_error_fn(name) {
            let g = self.goal(
                GoalKind::Error,
                span.start,
                Instrument::WrapExpr(span.start, span.end),
            );
            let stop = self.cfg.stop;
            self.cfg.edge(*cur, stop, Ins::Goal(g));
            *cur = self.cfg.new_node();
            return Ok((E::True, Ty::Void));
        }
        if let Some(f) = self.functions.get(name).copied() {
            return self.inline(name, f, args, cur, span);
        }
        if let Some(t) = name.strip_prefix("__VERIFIER_nondet_") {
            let ty = match self.nondet_type(t) {
                Some(ty) => ty,
                None => return self.err(span, format!("unsupported nondet function `{name}`")),
            };
            let v = self.fresh_var(&format!("nondet_{t}"), ty);
            let site = self.cfg.nondets.len();
            self.cfg.nondets.push(NondetSite {
                var: v,
                ty,
                what: format!("{name}()"),
                fed: true,
                pos: self.src.pos(span.start),
                ret_pos: self.src.pos(span.end.saturating_sub(1)),
            });
            let n = self.cfg.new_node();
            self.cfg.edge(*cur, n, Ins::Havoc(v, site));
            *cur = n;
            return Ok((E::Var(v), ty));
        }
        match name {
            "abort" | "exit" | "_exit" | "__assert_fail" => {
                for a in args {
                    self.expr(a, cur).ok();
                }
                let stop = self.cfg.stop;
                self.cfg.edge(*cur, stop, Ins::Skip);
                *cur = self.cfg.new_node();
                Ok((E::True, Ty::Void))
            }
            "__VERIFIER_assume" | "assume_abort_if_not" => {
                self.nargs(args, 1, span)?;
                let ok = self.cfg.new_node();
                let stop = self.cfg.stop;
                self.cond(&args[0], *cur, ok, stop)?;
                *cur = ok;
                Ok((E::True, Ty::Void))
            }
            "__VERIFIER_assert" => {
                self.nargs(args, 1, span)?;
                let ok = self.cfg.new_node();
                let bad = self.cfg.new_node();
                self.cond(&args[0], *cur, ok, bad)?;
                let g = self.goal(GoalKind::Error, span.start, Instrument::None);
                let stop = self.cfg.stop;
                self.cfg.edge(bad, stop, Ins::Goal(g));
                *cur = ok;
                Ok((E::True, Ty::Void))
            }
            "fabs" | "fabsf" | "sqrt" | "sqrtf" | "isnan" | "isinf" | "__builtin_isnan"
            | "__builtin_isinf" | "__isnan" | "__isnanf" | "__isinf" | "__isinff" => {
                self.nargs(args, 1, span)?;
                let (x, t) = self.expr(&args[0], cur)?;
                let ft = match name {
                    "fabs" | "sqrt" => Ty::F64,
                    "fabsf" | "sqrtf" => Ty::F32,
                    _ => {
                        if !t.is_float() {
                            return self.err(span, format!("`{name}` of a non-float"));
                        }
                        t
                    }
                };
                let x = self.convert(x, t, ft, cur, span)?;
                Ok(match name {
                    "fabs" | "fabsf" => (E::Fabs(ft, x.b()), ft),
                    "sqrt" | "sqrtf" => (E::Sqrt(ft, x.b()), ft),
                    n if n.contains("nan") => (E::OfCond(INT, E::IsNan(x.b()).b()), INT),
                    _ => (E::OfCond(INT, E::IsInf(x.b()).b()), INT),
                })
            }
            "__builtin_isinf_sign" => {
                self.nargs(args, 1, span)?;
                let (x, t) = self.expr(&args[0], cur)?;
                if !t.is_float() {
                    return self.err(span, format!("`{name}` of a non-float"));
                }
                let neg = E::Cmp(Rel::Lt, t, x.clone().b(), zero(t).b());
                let v = E::Ite(
                    INT,
                    E::IsInf(x.b()).b(),
                    E::Ite(INT, neg.b(), E::Int(INT, -1).b(), E::Int(INT, 1).b()).b(),
                    E::Int(INT, 0).b(),
                );
                Ok((v, INT))
            }
            "fmin" | "fmax" | "fminf" | "fmaxf" => {
                self.nargs(args, 2, span)?;
                let ft = if name.ends_with('f') {
                    Ty::F32
                } else {
                    Ty::F64
                };
                let (x, tx) = self.expr(&args[0], cur)?;
                let x = self.convert(x, tx, ft, cur, span)?;
                let (y, ty) = self.expr(&args[1], cur)?;
                let y = self.convert(y, ty, ft, cur, span)?;
                let choice = self.fresh_var("zero_choice", Ty::Void);
                Ok((
                    E::MinMax(name.starts_with("fmax"), ft, x.b(), y.b(), choice),
                    ft,
                ))
            }
            "__builtin_inff" | "__builtin_huge_valf" => {
                Ok((E::Fp(Ty::F32, f32::INFINITY.to_bits() as u64), Ty::F32))
            }
            "__builtin_inf" | "__builtin_huge_val" => {
                Ok((E::Fp(Ty::F64, f64::INFINITY.to_bits()), Ty::F64))
            }
            "__builtin_nanf" => Ok((E::Fp(Ty::F32, f32::NAN.to_bits() as u64), Ty::F32)),
            "__builtin_nan" => Ok((E::Fp(Ty::F64, f64::NAN.to_bits()), Ty::F64)),
            _ => self.undefined_call(name, args, cur, span),
        }
    }

    fn nargs(&self, args: &[Node<Expression>], n: usize, span: Span) -> R<()> {
        if args.len() != n {
            return self.err(
                span,
                format!("expected {n} argument(s), found {}", args.len()),
            );
        }
        Ok(())
    }

    fn nondet_type(&mut self, t: &str) -> Option<Ty> {
        if t.contains("long") && !t.contains("longlong") && !t.contains("long_long") {
            self.cfg.model_sensitive = true;
        }
        let long_bits = match self.model {
            DataModel::Lp64 => 64,
            DataModel::Ilp32 => 32,
        };
        let i = |bits: u8, signed: bool| Some(Ty::Int { bits, signed });
        match t {
            "float" => Some(Ty::F32),
            "double" => Some(Ty::F64),
            "bool" | "_Bool" => Some(Ty::Bool),
            "char" => i(8, true),
            "uchar" | "unsigned_char" => i(8, false),
            "short" => i(16, true),
            "ushort" | "unsigned_short" => i(16, false),
            "int" => i(32, true),
            "uint" | "unsigned_int" | "unsigned" => i(32, false),
            "long" => i(long_bits, true),
            "ulong" | "unsigned_long" => i(long_bits, false),
            "longlong" | "long_long" => i(64, true),
            "ulonglong" | "unsigned_long_long" => i(64, false),
            _ => None,
        }
    }

    fn inline(
        &mut self,
        name: &str,
        f: &'a Node<FunctionDefinition>,
        args: &[Node<Expression>],
        cur: &mut usize,
        span: Span,
    ) -> R<(E, Ty)> {
        if self.fn_stack.iter().any(|x| x.name == name) {
            return self.err(span, format!("recursive call of `{name}` is not supported"));
        }
        if self.fn_stack.len() > 64 {
            return self.err(span, "calls nested too deeply");
        }
        let params = self.in_unit_of(f, |l| l.params(f))?;
        if params.len() != args.len() {
            return self.err(
                span,
                format!(
                    "`{name}` takes {} argument(s), {} given",
                    params.len(),
                    args.len()
                ),
            );
        }
        let rt = self.in_unit_of(f, |l| l.ret_type(f))?;
        // arguments, in the caller's scope, left to right
        let mut vals = Vec::new();
        let mut effs: Vec<Effects> = Vec::new();
        let track = args.iter().any(|a| has_effects(&a.node));
        for (a, (_, pty, _)) in args.iter().zip(&params) {
            let (x, t) = if track {
                let (xt, eff) = self.expr_tracked(a, cur)?;
                for earlier in &effs {
                    self.check_order(earlier, &eff, a.span)?;
                }
                effs.push(eff);
                xt
            } else {
                self.expr(a, cur)?
            };
            let x = self.convert_operand(x, t, *pty, cur, a.span, Some(a.span))?;
            vals.push(x);
        }
        let caller_unit = self.enter_unit_of(f);
        let saved_scopes = std::mem::take(&mut self.scopes);
        self.scopes.push(saved_scopes[0].clone());
        self.scopes.push(HashMap::new());
        let saved_td = self.typedefs.split_off(1);
        let saved_b = std::mem::take(&mut self.breaks);
        let saved_c = std::mem::take(&mut self.continues);
        let saved_s = std::mem::take(&mut self.switches);
        for ((pname, pty, _), x) in params.iter().zip(vals) {
            let v = self.fresh_var(pname, *pty);
            *cur = self.assign_edge(*cur, v, x);
            self.scopes
                .last_mut()
                .unwrap()
                .insert(pname.clone(), Binding::Var(v));
        }
        let ret = if rt == Ty::Void {
            None
        } else {
            Some((self.fresh_var(&format!("{name}_ret"), rt), rt))
        };
        let exit = self.cfg.new_node();
        self.fn_stack.push(FnCtx {
            name: name.to_string(),
            ret,
            exit,
        });
        let r = self.stmt(&f.node.statement, *cur);
        self.fn_stack.pop();
        // globals declared or changed meanwhile stay visible (static locals are in `statics`)
        let mut restored = saved_scopes;
        restored[0] = self.scopes[0].clone();
        self.scopes = restored;
        self.typedefs.extend(saved_td);
        self.breaks = saved_b;
        self.continues = saved_c;
        self.switches = saved_s;
        self.switch_unit(caller_unit);
        let end = r?;
        self.cfg.edge(end, exit, Ins::Skip);
        *cur = exit;
        Ok(match ret {
            Some((v, t)) => (E::Var(v), t),
            None => (E::True, Ty::Void),
        })
    }
}

/// Variables an operand writes and reads.
#[derive(Default)]
struct Effects {
    w: std::collections::HashSet<usize>,
    r: std::collections::HashSet<usize>,
}

/// Can the expression write a variable (assignment, `++`/`--`, a call of anything but a
/// nondet function)? Syntactic and conservative.
fn has_effects(e: &Expression) -> bool {
    match e {
        Expression::Identifier(_)
        | Expression::Constant(_)
        | Expression::StringLiteral(_)
        | Expression::SizeOfTy(_)
        | Expression::SizeOfVal(_)
        | Expression::AlignOf(_)
        | Expression::OffsetOf(_) => false,
        Expression::Call(c) => match &c.node.callee.node {
            Expression::Identifier(i) if i.node.name.starts_with("__VERIFIER_nondet_") => {
                c.node.arguments.iter().any(|a| has_effects(&a.node))
            }
            _ => true,
        },
        Expression::UnaryOperator(u) => {
            matches!(
                u.node.operator.node,
                UnaryOperator::PreIncrement
                    | UnaryOperator::PreDecrement
                    | UnaryOperator::PostIncrement
                    | UnaryOperator::PostDecrement
            ) || has_effects(&u.node.operand.node)
        }
        Expression::Cast(c) => has_effects(&c.node.expression.node),
        Expression::BinaryOperator(b) => {
            use BinaryOperator as B;
            matches!(
                b.node.operator.node,
                B::Assign
                    | B::AssignMultiply
                    | B::AssignDivide
                    | B::AssignModulo
                    | B::AssignPlus
                    | B::AssignMinus
                    | B::AssignShiftLeft
                    | B::AssignShiftRight
                    | B::AssignBitwiseAnd
                    | B::AssignBitwiseXor
                    | B::AssignBitwiseOr
            ) || has_effects(&b.node.lhs.node)
                || has_effects(&b.node.rhs.node)
        }
        Expression::Conditional(c) => {
            has_effects(&c.node.condition.node)
                || has_effects(&c.node.then_expression.node)
                || has_effects(&c.node.else_expression.node)
        }
        Expression::Comma(es) => es.iter().any(|x| has_effects(&x.node)),
        _ => true,
    }
}

/// Number of nodes of an expression (counting stops early past 1000).
fn e_size(e: &E, acc: usize) -> usize {
    if acc > 1000 {
        return acc;
    }
    let acc = acc + 1;
    match e {
        E::Var(_) | E::Int(..) | E::Fp(..) | E::True | E::False => acc,
        E::Bin(_, _, a, b) | E::Cmp(_, _, a, b) | E::And(a, b) | E::Or(a, b) => {
            e_size(b, e_size(a, acc))
        }
        E::MinMax(_, _, a, b, _) => e_size(b, e_size(a, acc)),
        E::Neg(_, a)
        | E::BitNot(_, a)
        | E::Conv(_, _, a)
        | E::Not(a)
        | E::OfCond(_, a)
        | E::Fabs(_, a)
        | E::Sqrt(_, a)
        | E::IsNan(a)
        | E::IsInf(a) => e_size(a, acc),
        E::Ite(_, c, a, b) => e_size(b, e_size(a, e_size(c, acc))),
    }
}

/// The variables an expression reads.
fn vars_of(e: &E, out: &mut std::collections::HashSet<usize>) {
    match e {
        E::Var(v) => {
            out.insert(*v);
        }
        E::Int(..) | E::Fp(..) | E::True | E::False => {}
        E::Bin(_, _, a, b) | E::Cmp(_, _, a, b) | E::And(a, b) | E::Or(a, b) => {
            vars_of(a, out);
            vars_of(b, out);
        }
        E::MinMax(_, _, a, b, c) => {
            vars_of(a, out);
            vars_of(b, out);
            out.insert(*c);
        }
        E::Neg(_, a)
        | E::BitNot(_, a)
        | E::Conv(_, _, a)
        | E::Not(a)
        | E::OfCond(_, a)
        | E::Fabs(_, a)
        | E::Sqrt(_, a)
        | E::IsNan(a)
        | E::IsInf(a) => vars_of(a, out),
        E::Ite(_, c, a, b) => {
            vars_of(c, out);
            vars_of(a, out);
            vars_of(b, out);
        }
    }
}

#[derive(Default)]
struct DeclInfo {
    ty: Ty,
    typedef: bool,
    is_static: bool,
    is_extern: bool,
    volatile: bool,
}

impl Default for Ty {
    fn default() -> Ty {
        INT
    }
}

pub fn declarator_name(d: &Declarator) -> Option<String> {
    match &d.kind.node {
        DeclaratorKind::Identifier(i) => Some(i.node.name.clone()),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

/// Integer promotion (C11 6.3.1.1): types narrower than int become int.
pub fn promote(t: Ty) -> Ty {
    match t {
        Ty::Bool => INT,
        Ty::Int { bits, .. } if bits < 32 => INT,
        t => t,
    }
}

/// The usual arithmetic conversions (C11 6.3.1.8) on two types.
pub fn arith_conv(a: Ty, b: Ty) -> Ty {
    if a == Ty::F64 || b == Ty::F64 {
        return Ty::F64;
    }
    if a == Ty::F32 || b == Ty::F32 {
        return Ty::F32;
    }
    let (a, b) = (promote(a), promote(b));
    let (
        Ty::Int {
            bits: ba,
            signed: sa,
        },
        Ty::Int {
            bits: bb,
            signed: sb,
        },
    ) = (a, b)
    else {
        return INT;
    };
    if sa == sb {
        return Ty::Int {
            bits: ba.max(bb),
            signed: sa,
        };
    }
    let (ub, sbits) = if sa { (bb, ba) } else { (ba, bb) };
    if ub >= sbits {
        Ty::Int {
            bits: ub,
            signed: false,
        }
    } else {
        // the signed type is wider, so it represents every value of the unsigned one
        Ty::Int {
            bits: sbits,
            signed: true,
        }
    }
}

/// The zero of a type.
pub fn zero(t: Ty) -> E {
    match t {
        Ty::F32 | Ty::F64 => E::Fp(t, 0),
        _ => E::Int(t, 0),
    }
}

/// `x != 0` as a condition.
pub fn truth(x: E, t: Ty) -> Option<E> {
    if let E::OfCond(_, c) = x {
        return Some(*c);
    }
    match t {
        Ty::Void => None,
        _ => Some(E::Cmp(Rel::Ne, t, x.b(), zero(t).b())),
    }
}

/// Two's-complement wrap of `v` into integer type `t`.
pub fn wrap(v: i128, t: Ty) -> i128 {
    let bits = t.bits();
    if t == Ty::Bool {
        return (v != 0) as i128;
    }
    let m = 1i128 << bits;
    let mut r = v.rem_euclid(m);
    if t.is_signed_int() && r >= m / 2 {
        r -= m;
    }
    r
}

/// Conversion without checks (the checks are added by [`Lowerer::convert`]).
pub fn conv(x: E, from: Ty, to: Ty) -> E {
    if from == to {
        return x;
    }
    if let (E::Int(_, v), true) = (&x, to.is_int()) {
        return E::Int(to, wrap(*v, to));
    }
    if to == Ty::Bool {
        return match truth(x, from) {
            Some(c) => E::OfCond(Ty::Bool, c.b()),
            None => E::Int(Ty::Bool, 0),
        };
    }
    if let E::OfCond(_, c) = x {
        if to.is_int() {
            return E::OfCond(to, c);
        }
        return E::Conv(to, INT, E::OfCond(INT, c).b());
    }
    E::Conv(to, from, x.b())
}

/// The condition that `a op b` overflows in signed type `t`.
fn overflow(op: BinOp, t: Ty, a: &E, b: &E) -> E {
    let (lo, hi) = t.range();
    if t.bits() <= 32 {
        let w = Ty::Int {
            bits: 64,
            signed: true,
        };
        let r = E::Bin(op, w, conv(a.clone(), t, w).b(), conv(b.clone(), t, w).b());
        return E::Cmp(Rel::Gt, w, r.clone().b(), E::Int(w, hi).b()).or(E::Cmp(
            Rel::Lt,
            w,
            r.b(),
            E::Int(w, lo).b(),
        ));
    }
    let zero = || E::Int(t, 0).b();
    let r = E::Bin(op, t, a.clone().b(), b.clone().b());
    match op {
        BinOp::Add => {
            let pos = E::Cmp(Rel::Ge, t, a.clone().b(), zero())
                .and(E::Cmp(Rel::Ge, t, b.clone().b(), zero()))
                .and(E::Cmp(Rel::Lt, t, r.clone().b(), zero()));
            let neg = E::Cmp(Rel::Lt, t, a.clone().b(), zero())
                .and(E::Cmp(Rel::Lt, t, b.clone().b(), zero()))
                .and(E::Cmp(Rel::Ge, t, r.b(), zero()));
            pos.or(neg)
        }
        BinOp::Sub => {
            let pos = E::Cmp(Rel::Ge, t, a.clone().b(), zero())
                .and(E::Cmp(Rel::Lt, t, b.clone().b(), zero()))
                .and(E::Cmp(Rel::Lt, t, r.clone().b(), zero()));
            let neg = E::Cmp(Rel::Lt, t, a.clone().b(), zero())
                .and(E::Cmp(Rel::Ge, t, b.clone().b(), zero()))
                .and(E::Cmp(Rel::Ge, t, r.b(), zero()));
            pos.or(neg)
        }
        _ => {
            let m1 = || E::Int(t, -1).b();
            let min = || E::Int(t, lo).b();
            let special = E::Cmp(Rel::Eq, t, a.clone().b(), m1())
                .and(E::Cmp(Rel::Eq, t, b.clone().b(), min()))
                .or(E::Cmp(Rel::Eq, t, b.clone().b(), m1()).and(E::Cmp(
                    Rel::Eq,
                    t,
                    a.clone().b(),
                    min(),
                )));
            let q = E::Bin(BinOp::Div, t, r.b(), a.clone().b());
            let general = E::Cmp(Rel::Ne, t, a.clone().b(), zero()).and(E::Cmp(
                Rel::Ne,
                t,
                q.b(),
                b.clone().b(),
            ));
            special.or(general)
        }
    }
}

/// Value of a constant integer expression (after lowering).
fn fold_int(e: &E) -> Option<i128> {
    Some(match e {
        E::Int(_, v) => *v,
        E::Neg(t, x) => wrap(-fold_int(x)?, *t),
        E::Conv(t, _, x) if t.is_int() => wrap(fold_int(x)?, *t),
        E::Bin(op, t, a, b) => {
            let (a, b) = (fold_int(a)?, fold_int(b)?);
            let r = match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a.checked_mul(b)?,
                BinOp::Div if b != 0 => a / b,
                BinOp::Rem if b != 0 => a % b,
                BinOp::And => a & b,
                BinOp::Or => a | b,
                BinOp::Xor => a ^ b,
                BinOp::Shl if (0..64).contains(&b) => a.checked_shl(b as u32)?,
                BinOp::Shr if (0..64).contains(&b) => a >> b,
                _ => return None,
            };
            wrap(r, *t)
        }
        _ => return None,
    })
}

fn parse_hex_float(s: &str, ty: Ty) -> Option<u64> {
    let s = s.trim_start_matches("0x").trim_start_matches("0X");
    let (mant, exp) = match s.find(['p', 'P']) {
        Some(i) => (&s[..i], s[i + 1..].parse::<i64>().ok()?),
        None => (s, 0),
    };
    let (ip, fp) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    // exact value = digits * 2^(exp - 4*len(fp)); round via big rationals
    let digits = format!("{ip}{fp}");
    let m = num_bigint::BigInt::parse_bytes(
        if digits.is_empty() {
            b"0"
        } else {
            digits.as_bytes()
        },
        16,
    )?;
    let e2 = exp - 4 * fp.len() as i64;
    let q = if e2 >= 0 {
        solver::num::Rational::from_integer(m << (e2 as usize))
    } else {
        solver::num::Rational::new(m, num_bigint::BigInt::from(1) << ((-e2) as usize))
    };
    round_rational(&q, ty)
}

fn round_rational(q: &solver::num::Rational, ty: Ty) -> Option<u64> {
    let fmt = match ty {
        Ty::F32 => solver::num::FpFormat::F32,
        _ => solver::num::FpFormat::F64,
    };
    Some(fmt.round_rational(q, solver::num::RoundingMode::Rne))
}

fn char_value(s: &str) -> Option<i128> {
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    let v = if let Some(esc) = inner.strip_prefix('\\') {
        match esc {
            "n" => 10,
            "t" => 9,
            "r" => 13,
            "0" => 0,
            "\\" => 92,
            "'" => 39,
            "\"" => 34,
            "a" => 7,
            "b" => 8,
            "f" => 12,
            "v" => 11,
            _ => return None,
        }
    } else {
        let mut cs = inner.chars();
        let c = cs.next()?;
        if cs.next().is_some() || !c.is_ascii() {
            return None;
        }
        c as i128
    };
    Some(v)
}

/// The value of an integer constant operand.
fn int_lit(e: &E) -> Option<i128> {
    match e {
        E::Int(_, v) => Some(*v),
        _ => None,
    }
}
