//! C syntax tree → control-flow graph ([`super::cfg`]) of one entry function, with calls
//! inlined, C's conversions made explicit, and goals for every branch outcome, every error call
//! and every operation with possible undefined behaviour.
//!
//! Anything outside the supported subset is an error with the position of the construct;
//! nothing is translated approximately.

use super::cfg::*;
use super::mem::*;
use super::parse::{CError, Source};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashMap;

mod decision;
mod env;
mod strings;
mod units;
pub use env::EnvPlan;
pub use units::Units;

/// The data model: `long` is 64 bits (LP64, default) or 32 bits (ILP32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataModel {
    Lp64,
    Ilp32,
}

#[derive(Clone)]
enum Binding {
    /// a scalar variable (it becomes a one-cell object when its address is taken)
    Var(usize),
    Const(i128),
    /// an array, struct, union or pointer object
    Obj(ObjId),
    /// a pointer parameter or local that is never assigned after its initialisation and
    /// whose address is never taken: its value, known when it is bound
    PtrConst(PtrV),
}

/// A pointer value: the object id (0: NULL) and the byte offset, and the pointed-to type.
#[derive(Clone, Debug)]
pub struct PtrV {
    pub obj: E,
    pub off: E,
    pub to: CType,
}

/// A value of any C type.
#[derive(Clone, Debug)]
enum Val {
    S(E, Ty),
    P(PtrV),
    /// a struct or union, designated by where it is stored
    Agg(Place, CType),
}

/// An index term of an lvalue's offset: `e * stride` with `e` in `lo ..= hi`.
#[derive(Clone, Debug)]
struct IndexTerm {
    e: E,
    ty: Ty,
    stride: i128,
    lo: i128,
    hi: i128,
}

/// An assignable place.
#[derive(Clone, Debug)]
enum Place {
    Var(usize),
    /// a location in memory: byte offset `konst + Σ index terms + raw` in object `base`
    Mem {
        base: Base,
        konst: i128,
        idx: Vec<IndexTerm>,
        /// a byte offset computed by pointer arithmetic (any value)
        raw: Option<E>,
        ty: CType,
        /// variables the offset expressions read (evaluation-order check)
        reads: Vec<usize>,
    },
}

#[derive(Clone, Debug)]
enum Base {
    Obj(ObjId),
    /// the object a pointer value names, known only at run time
    Dyn(E),
}

/// A read or write through a pointer whose object is not known when it is lowered.
#[derive(Clone, Debug)]
struct DynSite {
    obj: E,
    off: E,
    leaf: Leaf,
}

struct FnCtx {
    name: String,
    ret: Option<RetSlot>,
    exit: usize,
}

#[derive(Clone)]
enum RetSlot {
    Scalar(usize, Ty),
    Ptr(usize, usize, CType),
    Agg(ObjId, CType),
}

struct SwitchCtx {
    cases: Vec<(i128, usize)>,
    default: Option<usize>,
}

pub struct Lowerer<'a> {
    src: &'a Source,
    model: DataModel,
    pub cfg: Cfg,
    typedefs: Vec<HashMap<String, CType>>,
    tags: Vec<HashMap<String, RecId>>,
    layouts: Layouts,
    objects: Vec<Object>,
    /// scalar variables that became objects (their address was taken)
    var_obj: HashMap<usize, ObjId>,
    /// objects whose address was taken (candidates of pointers resolved after lowering)
    exposed: std::collections::BTreeSet<ObjId>,
    dyn_sites: Vec<DynSite>,
    /// functions whose address was taken, by pointer id `FN_ID_BASE + k`
    fn_ids: Vec<String>,
    scopes: Vec<HashMap<String, Binding>>,
    volatile: Vec<bool>,
    functions: HashMap<String, &'a Node<FunctionDefinition>>,
    statics: HashMap<usize, Binding>,
    fn_stack: Vec<FnCtx>,
    breaks: Vec<usize>,
    continues: Vec<usize>,
    switches: Vec<SwitchCtx>,
    /// labels of the current function (goto): label name → node
    labels: Vec<HashMap<String, usize>>,
    /// end of the chain that initialises globals and static locals
    ginit: usize,
    counter: usize,
    /// record goals for branch outcomes (deadcode) or only error calls / UB
    pub branch_goals: bool,
    /// file-scope names whose declaration is outside the subset: an error only when used
    /// (system headers declare structs, pointers, ... that a program need not use)
    poisoned_vars: HashMap<String, CError>,
    poisoned_types: HashMap<String, CError>,
    /// file-scope variables with a definition (not only `extern` declarations)
    defined_globals: std::collections::HashSet<String>,
    /// functions whose address the program takes
    addr_taken_fns: std::collections::BTreeSet<String>,
    /// inside an initializer (a `const` object may be written)
    initializing: usize,
    /// inside the initializer of an object of static storage duration: a constant expression
    /// that the replay cannot instrument (no coverage-criterion goals, see `lower/decision.rs`)
    static_init: usize,
    /// a `<math.h>` function is modelled by its error bound (stated in the report)
    libm_used: bool,
    /// further semantic choices to state in the report
    notes: Vec<String>,
    /// why a struct or union definition could not be translated
    rec_errors: HashMap<RecId, CError>,
    /// the translation units: file scopes, functions and prototypes per unit
    tu: units::TuState<'a>,
    /// the last type specifier list named an enum type: whether all its enumerators are
    /// non-negative (gcc then makes it `unsigned int`), `None` inside when not known
    last_enum: Option<Option<bool>>,
    /// enum tags with that fact
    enum_tags: HashMap<String, bool>,
    /// inside `const_int` (an integer constant expression)
    const_eval: usize,
    /// typedef names of enum types with that fact
    enum_typedefs: HashMap<String, Option<bool>>,
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

    fn lookup_typedef(&self, n: &str) -> Option<CType> {
        self.typedefs.iter().rev().find_map(|m| m.get(n).cloned())
    }

    /// The type named by declaration specifiers; also registers enumerators and struct tags.
    fn spec_type<'s>(
        &mut self,
        specs: impl Iterator<Item = &'s TypeSpecifier>,
        span: Span,
    ) -> R<CType> {
        let (mut void, mut chr, mut short, mut int, mut long, mut flt, mut dbl) =
            (false, false, false, false, 0, false, false);
        let (mut signed, mut unsigned, mut bool_) = (false, false, false);
        let mut named: Option<CType> = None;
        // an enum type: whether its enumerators are all non-negative (`None`: not known)
        let mut my_enum: Option<Option<bool>> = None;
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
                    let tag = e.node.identifier.as_ref().map(|i| i.node.name.clone());
                    if e.node.enumerators.is_empty() {
                        my_enum = Some(tag.and_then(|t| self.enum_tags.get(&t).copied()));
                        named = Some(CType::S(INT));
                        continue;
                    }
                    let mut next: i128 = 0;
                    let mut any_negative = false;
                    for en in &e.node.enumerators {
                        if let Some(x) = &en.node.expression {
                            next = self.const_int(x)?;
                        }
                        any_negative |= next < 0;
                        if let Some(s) = self.scopes.last_mut() {
                            s.insert(en.node.identifier.node.name.clone(), Binding::Const(next));
                        }
                        next += 1;
                    }
                    if let Some(t) = tag {
                        self.enum_tags.insert(t, !any_negative);
                    }
                    my_enum = Some(Some(!any_negative));
                    named = Some(CType::S(INT));
                }
                TypeSpecifier::Struct(st) => named = Some(CType::Rec(self.record(st)?)),
                TypeSpecifier::TypeOf(t) => {
                    named = Some(match &t.node {
                        TypeOf::Type(tn) => self.type_name(tn)?,
                        TypeOf::Expression(e) => self.type_of(e)?,
                    })
                }
                TypeSpecifier::Complex => {
                    return self.err(span, "`_Complex` types are not supported")
                }
                TypeSpecifier::Atomic(_) => {
                    return self.err(span, "`_Atomic` types are not supported")
                }
                _ => return self.err(span, "unsupported type specifier"),
            }
        }
        self.last_enum = my_enum;
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
            return Ok(CType::S(Ty::Void));
        }
        if bool_ {
            return Ok(CType::S(Ty::Bool));
        }
        if flt {
            return Ok(CType::S(Ty::F32));
        }
        if dbl {
            if long > 0 {
                return self.err(
                    span,
                    "`long double` (x86 80-bit extended precision) is not supported",
                );
            }
            return Ok(CType::S(Ty::F64));
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
        // plain `char` (neither `signed` nor `unsigned`) is signed on x86, unsigned on ARM
        let plain_char = chr && !signed && !unsigned;
        Ok(CType::S(Ty::Int {
            bits,
            signed: if plain_char {
                !self.tu.unsigned_char()
            } else {
                !unsigned
            },
        }))
    }

    fn lookup_tag(&self, n: &str) -> Option<RecId> {
        self.tags.iter().rev().find_map(|m| m.get(n).copied())
    }

    /// A struct or union specifier: its record (declared, defined or referenced by tag).
    fn record(&mut self, st: &Node<StructType>) -> R<RecId> {
        let union = st.node.kind.node == StructKind::Union;
        let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let existing = tag.as_ref().and_then(|t| {
            if st.node.declarations.is_some() {
                // a definition declares the tag in the innermost scope
                self.tags.last().and_then(|m| m.get(t).copied())
            } else {
                self.lookup_tag(t)
            }
        });
        let id = match existing {
            Some(id) if self.layouts.records[id.0].union == union => id,
            Some(_) => return self.err(st.span, "tag used for both a struct and a union"),
            None => {
                let id = RecId(self.layouts.records.len());
                self.layouts.records.push(Record {
                    tag: tag.clone().unwrap_or_else(|| "<anonymous>".into()),
                    union,
                    fields: Vec::new(),
                    size: 0,
                    align: 1,
                    complete: false,
                });
                if let Some(t) = &tag {
                    self.tags.last_mut().unwrap().insert(t.clone(), id);
                }
                id
            }
        };
        let Some(decls) = &st.node.declarations else {
            return Ok(id);
        };
        if let Some(why) = packed_layout(&self.src.text, st.span.start, st.span.end) {
            // gcc lays such a record out without (or with less) padding: modelling it with
            // the natural layout would give wrong sizes and offsets, so it is refused
            let what = if union { "union" } else { "struct" };
            let name = tag.clone().unwrap_or_else(|| "<anonymous>".into());
            let e = self.src.err(
                st.span.start,
                format!("packed {what} `{name}` ({why}) is not supported: its layout without padding is not modelled"),
            );
            self.rec_errors.insert(id, e.clone());
            return Err(e);
        }
        if self.layouts.records[id.0].complete {
            // the same definition seen again (a header included twice in one unit is an
            // error for the C compiler anyway; an inlined function's local struct is not)
            return Ok(id);
        }
        let members = match self.record_members(id, decls) {
            Ok(m) => m,
            Err(e) => {
                // remembered: an object of this type names the reason, not "incomplete"
                self.rec_errors.insert(id, e.clone());
                return Err(e);
            }
        };
        if let Err(m) = self.layouts.complete(id, members) {
            return self.err(st.span, m);
        }
        Ok(id)
    }

    /// The members of a struct or union definition (name, type, bit-field width).
    #[allow(clippy::type_complexity)]
    fn record_members(
        &mut self,
        id: RecId,
        decls: &[Node<StructDeclaration>],
    ) -> R<Vec<(Option<String>, CType, Option<u32>)>> {
        let mut members = Vec::new();
        for d in decls {
            let StructDeclaration::Field(f) = &d.node else {
                continue;
            };
            let mut ts = Vec::new();
            for s in &f.node.specifiers {
                if let SpecifierQualifier::TypeSpecifier(x) = &s.node {
                    ts.push(x.node.clone());
                }
            }
            let base = self.spec_type(ts.iter(), f.span)?;
            // the signedness of an enum bit-field: gcc gives an enum without negative
            // enumerators the type `unsigned int`
            let enum_unsigned: Option<Option<bool>> = self.last_enum.take().or_else(|| {
                ts.iter().find_map(|t| match t {
                    TypeSpecifier::TypedefName(n) => self.enum_typedefs.get(&n.node.name).copied(),
                    _ => None,
                })
            });
            if f.node.declarators.is_empty() {
                // an anonymous struct or union member (C11)
                if matches!(base, CType::Rec(_)) {
                    members.push((None, base, None));
                }
                continue;
            }
            for sd in &f.node.declarators {
                let name = sd
                    .node
                    .declarator
                    .as_ref()
                    .and_then(|d| declarator_name(&d.node));
                if let Some(w) = &sd.node.bit_width {
                    let width = self.const_int(w)?;
                    if !(0..=64).contains(&width) {
                        return self.err(w.span, "invalid bit-field width");
                    }
                    let t = match (&base, enum_unsigned) {
                        (CType::S(Ty::Int { bits, .. }), Some(Some(true))) => CType::S(Ty::Int {
                            bits: *bits,
                            signed: false,
                        }),
                        (_, Some(None)) => {
                            return self.err(
                                w.span,
                                "a bit-field of an enum type whose enumerators are not known here is not supported",
                            )
                        }
                        _ => base.clone(),
                    };
                    let t = match &sd.node.declarator {
                        Some(dd) => self.derive_type(t, &dd.node)?,
                        None => t,
                    };
                    if let CType::S(Ty::Int { bits: 64, .. }) = t {
                        // gcc gives `long long x : W` (32 <= W < 64) a W-bit type of its own
                        if (32..64).contains(&width) {
                            return self.err(
                                w.span,
                                format!(
                                    "bit-field `{}` of a 64-bit type with a width of 32 to 63 bits is not supported",
                                    name.as_deref().unwrap_or("<unnamed>")
                                ),
                            );
                        }
                    }
                    members.push((name, t, Some(width as u32)));
                    continue;
                }
                let Some(dd) = &sd.node.declarator else {
                    continue;
                };
                let t = self.derive_type(base.clone(), &dd.node)?;
                members.push((name, t, None));
            }
        }
        let _ = id;
        Ok(members)
    }

    /// The type a declarator gives its name from the specifiers' type `base`.
    fn derive_type(&mut self, base: CType, d: &Declarator) -> R<CType> {
        let mut t = base;
        let (ptrs, suffixes): (Vec<_>, Vec<_>) = d
            .derived
            .iter()
            .partition(|x| matches!(x.node, DerivedDeclarator::Pointer(_)));
        for _ in &ptrs {
            t = CType::Ptr(Box::new(t));
        }
        for x in suffixes.iter().rev() {
            t = match &x.node {
                DerivedDeclarator::Array(a) => {
                    let n = match &a.node.size {
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                            let n = self.const_int(e)?;
                            if !(0..=1 << 24).contains(&n) {
                                return self.err(e.span, "array size out of the supported range");
                            }
                            n as usize
                        }
                        ArraySize::Unknown => 0,
                        ArraySize::VariableUnknown => {
                            return self.err(a.span, "variable-length arrays are not supported")
                        }
                    };
                    CType::Array(Box::new(t), n)
                }
                DerivedDeclarator::Function(f) => {
                    let mut params = Vec::new();
                    for p in &f.node.parameters {
                        let info = self.decl_specs(&p.node.specifiers, p.span)?;
                        let pt = match &p.node.declarator {
                            Some(pd) => self.derive_type(info.ty, &pd.node)?,
                            None => info.ty,
                        };
                        if pt.is_void() {
                            continue;
                        }
                        params.push(pt.decayed());
                    }
                    CType::Func(Box::new(FnType {
                        ret: t,
                        params,
                        variadic: f.node.ellipsis == Ellipsis::Some,
                    }))
                }
                DerivedDeclarator::KRFunction(_) => CType::Func(Box::new(FnType {
                    ret: t,
                    params: Vec::new(),
                    variadic: true,
                })),
                DerivedDeclarator::Block(_) => {
                    return self.err(x.span, "blocks (a clang extension) are not supported")
                }
                DerivedDeclarator::Pointer(_) => unreachable!(),
            };
        }
        if let DeclaratorKind::Declarator(inner) = &d.kind.node {
            return self.derive_type(t, &inner.node);
        }
        Ok(t)
    }

    /// Remembers whether a typedef name is an enum type (for bit-fields of it).
    fn note_enum_typedef(&mut self, name: &str, ty: &CType, fact: Option<Option<bool>>) {
        match fact {
            Some(f) if *ty == CType::S(INT) => {
                self.enum_typedefs.insert(name.to_string(), f);
            }
            _ => {
                self.enum_typedefs.remove(name);
            }
        }
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
                DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Const => {
                    info.is_const = true
                }
                _ => {}
            }
        }
        info.ty = self.spec_type(ts.iter(), span)?;
        info.enum_fact = self.last_enum.take().or_else(|| {
            ts.iter().find_map(|t| match t {
                TypeSpecifier::TypedefName(n) => self.enum_typedefs.get(&n.node.name).copied(),
                _ => None,
            })
        });
        Ok(info)
    }

    fn type_name(&mut self, t: &Node<TypeName>) -> R<CType> {
        let mut ts = Vec::new();
        for s in &t.node.specifiers {
            if let SpecifierQualifier::TypeSpecifier(x) = &s.node {
                ts.push(x.node.clone());
            }
        }
        let ty = self.spec_type(ts.iter(), t.span)?;
        match &t.node.declarator {
            Some(d) => self.derive_type(ty, &d.node),
            None => Ok(ty),
        }
    }

    /// The type of an expression, without evaluating it (`sizeof`, `typeof`): it is lowered
    /// into a detached piece of graph whose goals and inputs are dropped.
    fn type_of(&mut self, e: &Node<Expression>) -> R<CType> {
        let goals = self.cfg.goals.len();
        let nondets = self.cfg.nondets.len();
        let sites = self.dyn_sites.len();
        let mut dummy = self.cfg.new_node();
        let r = self.rv_nodecay(e, &mut dummy);
        self.cfg.goals.truncate(goals);
        self.cfg.nondets.truncate(nondets);
        let _ = sites;
        Ok(match r? {
            (Val::S(_, t), None) => CType::S(t),
            (Val::P(p), None) => CType::Ptr(Box::new(p.to)),
            (Val::Agg(_, t), None) => t,
            (_, Some(t)) => t,
        })
    }

    fn size_of(&mut self, t: &CType, span: Span) -> R<i128> {
        self.cfg.model_sensitive = true;
        match self.layouts.size_of(t) {
            Some(s) => Ok(s as i128),
            None => self.err(
                span,
                format!("`sizeof` of the incomplete type `{}`", self.layouts.name(t)),
            ),
        }
    }

    fn const_int(&mut self, e: &Node<Expression>) -> R<i128> {
        let mut dummy = self.cfg.new_node();
        let start = dummy;
        self.const_eval += 1;
        let r = self.expr(e, &mut dummy);
        self.const_eval -= 1;
        let (v, ty) = r?;
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
        plan: Option<&EnvPlan>,
    ) -> R<Cfg> {
        let mut l = Lowerer {
            src,
            model,
            cfg: Cfg::default(),
            typedefs: vec![HashMap::new()],
            tags: vec![HashMap::new()],
            layouts: Layouts::for_target(model, units.arm_eabi),
            objects: Vec::new(),
            var_obj: HashMap::new(),
            exposed: Default::default(),
            dyn_sites: Vec::new(),
            fn_ids: Vec::new(),
            scopes: vec![HashMap::new()],
            volatile: Vec::new(),
            functions: HashMap::new(),
            statics: HashMap::new(),
            fn_stack: Vec::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            labels: Vec::new(),
            ginit: 0,
            counter: 0,
            branch_goals,
            poisoned_vars: HashMap::new(),
            poisoned_types: HashMap::new(),
            defined_globals: Default::default(),
            addr_taken_fns: Default::default(),
            initializing: 0,
            static_init: 0,
            rec_errors: HashMap::new(),
            libm_used: false,
            notes: Vec::new(),
            tu: units::TuState::new(units),
            last_enum: None,
            enum_tags: HashMap::new(),
            const_eval: 0,
            enum_typedefs: HashMap::new(),
        };
        l.cfg.function = entry.to_string();
        l.cfg.lowered_fns.push(entry.to_string());
        let e = l.cfg.new_node();
        l.cfg.entry = e;
        l.cfg.stop = l.cfg.new_node();
        l.ginit = e;
        // functions first: a global initializer may take a function's address
        let mut all_fns = HashMap::new();
        for d in &unit.0 {
            if let ExternalDeclaration::FunctionDefinition(f) = &d.node {
                l.switch_unit(l.tu.unit_of(d.span.start));
                let name = declarator_name(&f.node.declarator.node).unwrap_or_default();
                all_fns.insert(name.clone(), f);
                l.functions.insert(name, f);
            }
        }
        l.addr_taken_fns = functions_referenced(unit, &all_fns);
        for d in &unit.0 {
            if let ExternalDeclaration::Declaration(decl) = &d.node {
                let is_extern = decl.node.specifiers.iter().any(|s| {
                    matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Extern)
                });
                for id in &decl.node.declarators {
                    if !is_extern || id.node.initializer.is_some() {
                        if let Some(n) = declarator_name(&id.node.declarator.node) {
                            l.defined_globals.insert(n);
                        }
                    }
                }
            }
        }
        for d in &unit.0 {
            if let ExternalDeclaration::Declaration(decl) = &d.node {
                l.switch_unit(l.tu.unit_of(d.span.start));
                if let Err(e) = l.global_decl(decl) {
                    l.poison(decl, e);
                }
            }
        }
        l.link_units(unit, entry)?;
        l.link_units(unit, entry)?;
        if let Some(p) = plan.filter(|p| p.looped) {
            let body = l.cfg.new_node();
            l.step_env(p, body)?;
            // after the body: the initialisation of static locals extends the chain
            let g = l.ginit;
            l.cfg.edge(g, body, Ins::Skip);
            l.resolve_dynamic()?;
            l.state_assumptions(entry, &[]);
            return Ok(l.cfg);
        }
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
        l.labels.push(HashMap::new());
        let params = l.params(f)?;
        l.cfg.entry_params = params
            .iter()
            .map(|p| p.1.scalar().unwrap_or(Ty::Void))
            .collect();
        l.cfg.entry_ret = l.ret_type(f)?.scalar().unwrap_or(Ty::Void);
        l.scopes.push(HashMap::new());
        let mut cur = body;
        let param_ptrs: Vec<String> = params
            .iter()
            .filter(|p| !matches!(p.1, CType::S(_)))
            .map(|p| p.0.clone())
            .collect();
        if let Some(p) = plan {
            l.function_env(p, f.node.declarator.span, &mut cur)?;
        }
        let mut param_objs = Vec::new();
        for (k, (name, ty, span)) in params.into_iter().enumerate() {
            let b = l.entry_param(&name, &ty, span, &mut cur)?;
            if let (CType::Ptr(_), Binding::PtrConst(p)) = (&ty, &b) {
                if let Some(id) = fold_int(&p.obj).filter(|&i| i >= 1) {
                    param_objs.push((k, ObjId(id as usize - 1), name.clone()));
                }
            }
            l.scopes.last_mut().unwrap().insert(name, b);
        }
        let start = cur;
        let end = l.stmt(&f.node.statement, cur)?;
        l.cfg.edge(end, stop, Ins::Skip);
        l.scopes.pop();
        l.fn_stack.pop();
        l.labels.pop();
        let g = l.ginit;
        l.cfg.edge(g, body, Ins::Skip);
        l.resolve_dynamic()?;
        l.record_storage(start, &param_objs);
        l.state_assumptions(entry, &param_ptrs);
        Ok(l.cfg)
    }

    /// Resolves the accesses through pointers whose object was not known when they were
    /// lowered: each becomes a choice among every exposed object (one whose address the
    /// program takes) and cell where an access of its kind fits.
    fn resolve_dynamic(&mut self) -> R<()> {
        if self.dyn_sites.is_empty() {
            return Ok(());
        }
        let mut todo = Vec::new();
        for n in 0..self.cfg.nodes.len() {
            for i in 0..self.cfg.nodes[n].len() {
                let e = &self.cfg.nodes[n][i];
                if matches!(
                    e.ins,
                    Ins::Store(..) | Ins::CheckAccess(..) | Ins::Assign(_, E::Load(..))
                ) {
                    todo.push((n, i));
                }
            }
        }
        let span0 = Span::none();
        for (n, i) in todo {
            let edge = self.cfg.nodes[n][i].clone();
            let start = self.cfg.new_node();
            self.cfg.nodes[n][i] = Edge {
                to: start,
                ins: Ins::Skip,
            };
            let mut cur = start;
            let site = match &edge.ins {
                Ins::Store(s, ..) | Ins::CheckAccess(_, s) => *s,
                Ins::Assign(_, E::Load(s, _)) => *s,
                _ => unreachable!(),
            };
            let cands = self.dyn_candidates(site);
            let ds = self.dyn_sites[site].clone();
            let cond = |o: ObjId, off: usize| {
                E::Cmp(
                    Rel::Eq,
                    OBJ_TY,
                    ds.obj.clone().b(),
                    E::Int(OBJ_TY, o.ptr_id()).b(),
                )
                .and(E::Cmp(
                    Rel::Eq,
                    OFF_TY,
                    ds.off.clone().b(),
                    E::Int(OFF_TY, off as i128).b(),
                ))
            };
            let last = match edge.ins {
                Ins::CheckAccess(g, _) => {
                    let ok = cands
                        .iter()
                        .fold(E::False, |a, (o, off)| a.or(cond(*o, *off)));
                    Ins::Check(g, ok.negate())
                }
                Ins::Assign(v, E::Load(_, part)) => {
                    let mut vals = Vec::new();
                    for (o, off) in &cands {
                        if let Some(x) = self.extract(*o, *off as i128, ds.leaf, &mut cur, span0)? {
                            vals.push((cond(*o, *off), x));
                        }
                    }
                    let (a, b) = self.select(vals, ds.leaf, true, &mut cur);
                    Ins::Assign(
                        v,
                        if part == 0 {
                            a
                        } else {
                            b.unwrap_or(E::Int(OFF_TY, 0))
                        },
                    )
                }
                Ins::Store(_, a, b) => {
                    for (o, off) in &cands {
                        if let Some(list) =
                            self.insert(*o, *off as i128, ds.leaf, &a, b.as_ref(), &mut cur, span0)?
                        {
                            let c = cond(*o, *off);
                            for (v, x) in list {
                                let vt = self.cfg.vars[v].ty;
                                let x = E::Ite(vt, c.clone().b(), x.b(), E::Var(v).b());
                                cur = self.assign_edge(cur, v, x);
                            }
                        }
                    }
                    Ins::Skip
                }
                _ => unreachable!(),
            };
            self.cfg.edge(cur, edge.to, last);
        }
        Ok(())
    }

    /// The semantic choices a DEAD answer of this translation rests on, for the report.
    fn state_assumptions(&mut self, entry: &str, param_objs: &[String]) {
        let mut a = Vec::new();
        let globals = self.scopes[0].values().any(|b| match b {
            Binding::Var(v) => !self.volatile[*v],
            Binding::Obj(o) => !self.objects[o.0].is_const,
            _ => false,
        });
        let env = self.cfg.env.as_ref();
        if let Some(e) = env.filter(|e| e.looped) {
            a.push(format!(
                "the unit runs as a loop: C initializers{}, then each step fresh values for the inputs and one call of `{}`; the environment writes nothing else (every other global and static keeps what the unit wrote); calibration parameters keep one value for the whole run",
                e.init.as_ref().map_or(String::new(), |i| format!(", then `{i}` once")),
                e.step
            ));
            if !e.init_args.is_empty()
                || e.step_feeds.iter().any(|f| matches!(f, StepFeed::Cell(..)))
                || self
                    .cfg
                    .entry_shapes
                    .iter()
                    .any(|s| matches!(s, ParamShape::Pointer(_)))
            {
                a.push(format!("the objects the pointer parameters of `{}` point to are fresh, aliased with no other, with arbitrary initial contents, and live across steps; the init function's pointer parameter of the same type points to the same object", e.step));
            }
        } else if entry != "main" && globals {
            let fed = env.is_some_and(|e| !e.step_feeds.is_empty());
            a.push(format!(
                "one call of `{entry}` from the program's initial state: every global starts at its initializer (0 without one){}",
                if fed {
                    ", except the globals taken as inputs, which have arbitrary values"
                } else {
                    "; a value a caller writes into a global before the call is not an input here"
                }
            ));
        }
        for p in param_objs {
            a.push(format!(
                "parameter `{p}` of `{entry}`: a fresh object, aliased with no other, with arbitrary contents (pointers in it point to fresh objects too)"
            ));
        }
        a.extend(self.notes.iter().cloned());
        if self.libm_used {
            a.push("`<math.h>` functions (sin, cos, tan, exp, log, log2, log10, pow, hypot) return any value within 8 ulps of the exact result (glibc documents at most 2), any value for non-finite arguments, overflow and poles; asin, acos, atan and atan2 return any value within 8 ulps of the exact result, stated through the sine and cosine of the result (sin(asin x) = x, ...)".into());
        }
        if !self.dyn_sites.is_empty() {
            a.push("a pointer whose target is known only at run time points into an object whose address the program takes".into());
        }
        if !self.layouts.records.is_empty() || !self.var_obj.is_empty() || !self.objects.is_empty()
        {
            a.push(format!(
                "object layout as gcc's on {}: little-endian, its sizes and alignment",
                match self.model {
                    DataModel::Lp64 => "x86-64 (LP64)",
                    DataModel::Ilp32 if self.layouts.align8 =>
                        "ARM EABI (ILP32, `double` and 64-bit integers aligned to 8; replayed as i386 with `-m32 -malign-double`)",
                    DataModel::Ilp32 => "i386 with SSE2 (ILP32, `-m32`)",
                }
            ));
        }
        self.cfg.assumptions = a;
    }

    /// The (object, offset) pairs an access of dynamic site `site` may hit.
    fn dyn_candidates(&self, site: usize) -> Vec<(ObjId, usize)> {
        let ds = &self.dyn_sites[site];
        if fold_int(&ds.obj) == Some(0) {
            return Vec::new();
        }
        let ps = self.layouts.ptr_size();
        let size = ds.leaf.size(ps);
        let mut out = Vec::new();
        for o in &self.exposed {
            let obj = &self.objects[o.0];
            if let Some(k) = fold_int(&ds.off) {
                if k >= 0 && (k as usize) + size <= obj.size {
                    out.push((*o, k as usize));
                }
                continue;
            }
            for c in &obj.cells {
                let fits = match (&c.kind, ds.leaf) {
                    (CellKind::Ptr(..), Leaf::Ptr) => true,
                    (CellKind::Scalar(t, _), Leaf::Scalar(_)) => Layouts::scalar_size(*t) == size,
                    _ => false,
                };
                if fits {
                    out.push((*o, c.off));
                }
            }
        }
        out
    }

    /// A parameter of the analysed function: a scalar is an input; a pointer points to a
    /// fresh object (not aliased with any other) whose contents are inputs; a struct is an
    /// object whose contents are inputs.
    fn entry_param(&mut self, name: &str, ty: &CType, span: Span, cur: &mut usize) -> R<Binding> {
        match ty {
            CType::S(t) => {
                let v = self.fresh_var(name, *t);
                self.havoc_input(v, format!("parameter {name}"), true, span, cur);
                self.cfg.entry_shapes.push(ParamShape::Scalar(*t));
                Ok(Binding::Var(v))
            }
            CType::Ptr(to) => {
                let (o, shape) =
                    self.fresh_input_object(&format!("*{name}"), to, span, cur, 0, true)?;
                self.cfg.entry_shapes.push(ParamShape::Pointer(shape));
                Ok(Binding::PtrConst(PtrV {
                    obj: E::Int(OBJ_TY, o.ptr_id()),
                    off: E::Int(OFF_TY, 0),
                    to: (**to).clone(),
                }))
            }
            _ => {
                let (o, _) = self.fresh_input_object(name, ty, span, cur, 0, false)?;
                self.cfg.entry_shapes.push(ParamShape::Aggregate);
                Ok(Binding::Obj(o))
            }
        }
    }

    /// An object of type `ty` whose scalars are inputs and whose pointers point to further
    /// fresh objects (up to a depth of 3).
    fn fresh_input_object(
        &mut self,
        name: &str,
        ty: &CType,
        span: Span,
        cur: &mut usize,
        depth: usize,
        fed: bool,
    ) -> R<(ObjId, ObjShape)> {
        let ty = match ty {
            CType::S(Ty::Void) => CType::S(Ty::Int {
                bits: 8,
                signed: false,
            }),
            t => t.clone(),
        };
        if matches!(ty, CType::Func(_)) {
            return self.err(span, format!("`{name}`: a function pointer parameter of the analysed function is not supported"));
        }
        let o = self.new_object(name, &ty, false, span)?;
        self.exposed.insert(o);
        let cells = self.objects[o.0].cells.clone();
        let mut shape = ObjShape {
            size: self.objects[o.0].size,
            cells: Vec::new(),
        };
        for c in cells {
            match c.kind {
                CellKind::Scalar(t, v) => {
                    let what = self.cfg.vars[v].c_name.to_string();
                    self.havoc_input(v, what, fed, span, cur);
                    shape.cells.push((c.off, CellShape::Scalar(t)));
                }
                CellKind::Ptr(ov, fv) => {
                    if depth >= 2 {
                        return self.err(
                            span,
                            format!("`{name}`: pointers nested more than 3 deep in a parameter of the analysed function are not supported"),
                        );
                    }
                    let pointee = self.cell_pointee(o, c.off);
                    let cn = self.cfg.vars[ov].c_name.clone();
                    let (t, sub) = self.fresh_input_object(
                        &format!("*{cn}"),
                        &pointee,
                        span,
                        cur,
                        depth + 1,
                        fed,
                    )?;
                    *cur = self.assign_edge(*cur, ov, E::Int(OBJ_TY, t.ptr_id()));
                    *cur = self.assign_edge(*cur, fv, E::Int(OFF_TY, 0));
                    shape.cells.push((c.off, CellShape::Pointer(sub)));
                }
            }
        }
        Ok((o, shape))
    }

    /// The pointed-to type of the pointer leaf at `off` of object `o`.
    fn cell_pointee(&self, o: ObjId, off: usize) -> CType {
        fn find(l: &Layouts, t: &CType, off: usize) -> Option<CType> {
            match t {
                CType::Ptr(p) if off == 0 => Some((**p).clone()),
                CType::Array(e, n) => {
                    let s = l.size_of(e)?;
                    if s == 0 || off / s >= *n {
                        return None;
                    }
                    find(l, e, off % s)
                }
                CType::Rec(r) => l.records[r.0]
                    .fields
                    .iter()
                    .filter(|f| f.off <= off)
                    .find_map(|f| find(l, &f.ty, off - f.off)),
                _ => None,
            }
        }
        find(&self.layouts, &self.objects[o.0].ty, off).unwrap_or(CType::S(Ty::Int {
            bits: 8,
            signed: false,
        }))
    }

    fn havoc_input(&mut self, v: usize, what: String, fed: bool, span: Span, cur: &mut usize) {
        let ty = self.cfg.vars[v].ty;
        let site = self.cfg.nondets.len();
        self.cfg.nondets.push(NondetSite {
            var: v,
            ty,
            what,
            fed,
            pos: self.src.pos(span.start),
            ret_pos: self.src.pos(self.src.last_char_before(span.end)),
        });
        let n = self.cfg.new_node();
        self.cfg.edge(*cur, n, Ins::Havoc(v, site));
        *cur = n;
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

    /// The parameters of a function definition (arrays and functions decay to pointers).
    fn params(&mut self, f: &Node<FunctionDefinition>) -> R<Vec<(String, CType, Span)>> {
        let d = &f.node.declarator.node;
        let mut out = Vec::new();
        // the function declarator is the last suffix of the name's declarator
        let fd = d.derived.iter().rev().find_map(|x| match &x.node {
            DerivedDeclarator::Function(fd) => Some(Ok(fd)),
            DerivedDeclarator::KRFunction(ps) if !ps.is_empty() => Some(Err(x.span)),
            _ => None,
        });
        match fd {
            None => {}
            Some(Err(sp)) => return self.err(sp, "K&R-style parameter lists are not supported"),
            Some(Ok(fd)) => {
                if fd.node.ellipsis == Ellipsis::Some {
                    return self.err(fd.span, "variadic functions are not supported");
                }
                for p in &fd.node.parameters {
                    let info = self.decl_specs(&p.node.specifiers, p.span)?;
                    if let Some(pd) = &p.node.declarator {
                        let t = self.derive_type(info.ty, &pd.node)?.decayed();
                        let Some(n) = declarator_name(&pd.node) else {
                            if t.is_void() {
                                continue;
                            }
                            return self.err(pd.span, "unnamed parameter");
                        };
                        if t.is_void() {
                            return self.err(pd.span, "parameter of type void");
                        }
                        out.push((n, t, pd.span));
                    } else if !info.ty.is_void() {
                        return self.err(p.span, "unnamed parameter");
                    }
                }
            }
        }
        Ok(out)
    }

    fn ret_type(&mut self, f: &Node<FunctionDefinition>) -> R<CType> {
        let base = self.decl_specs(&f.node.specifiers, f.span)?.ty;
        match self.derive_type(base, &f.node.declarator.node)? {
            CType::Func(ft) => Ok(ft.ret),
            _ => self.err(
                f.span,
                "internal error: a function definition without a function type",
            ),
        }
    }

    // ---------------------------------------------------------------- declarations

    fn global_decl(&mut self, d: &Node<Declaration>) -> R<()> {
        let info = self.decl_specs(&d.node.specifiers, d.span)?;
        for id in &d.node.declarators {
            let dec = &id.node.declarator.node;
            let Some(name) = declarator_name(dec) else {
                continue;
            };
            let ty = self.derive_type(info.ty.clone(), dec)?;
            if info.typedef {
                self.note_enum_typedef(&name, &ty, info.enum_fact);
                self.typedefs[0].insert(name, ty);
                continue;
            }
            if matches!(ty, CType::Func(_)) {
                continue; // a prototype
            }
            if ty.is_void() {
                return self.err(id.span, "variable of type void");
            }
            if let Some(Binding::Var(_) | Binding::Obj(_)) = self.scopes[0].get(&name) {
                // a tentative or extern declaration seen before the definition: the first
                // one created the object; a definition initialises it
                if !info.is_extern || id.node.initializer.is_some() {
                    let b = self.scopes[0].get(&name).cloned().unwrap();
                    let mut cur = self.ginit;
                    self.init_binding(&b, &ty, id.node.initializer.as_ref(), &mut cur, true)?;
                    self.ginit = cur;
                }
                continue;
            }
            let extern_only = info.is_extern && id.node.initializer.is_none();
            if extern_only && !self.has_definition(&name) {
                // defined in no unit we see: any value (an input the harness cannot feed)
                let b = self.declare_object(&name, &ty, &info, id.span)?;
                let mut cur = self.ginit;
                self.havoc_binding(&b, &name, id.span, &mut cur);
                self.ginit = cur;
                self.scopes[0].insert(name, b);
                continue;
            }
            let ty = self.complete_array(ty, id.node.initializer.as_ref());
            let b = self.declare_object(&name, &ty, &info, id.span)?;
            if info.is_static {
                self.cfg.file_statics.push(name.clone());
            }
            self.scopes[0].insert(name, b.clone());
            if extern_only {
                continue; // the definition initialises it
            }
            let mut cur = self.ginit;
            self.init_binding(&b, &ty, id.node.initializer.as_ref(), &mut cur, true)?;
            self.ginit = cur;
        }
        Ok(())
    }

    /// Is there a file-scope definition (not only `extern` declarations) of `name`?
    fn has_definition(&self, name: &str) -> bool {
        self.defined_globals.contains(name)
    }

    /// `T a[] = {...}`: the length from the initializer.
    fn complete_array(&self, ty: CType, init: Option<&Node<Initializer>>) -> CType {
        match (&ty, init) {
            (CType::Array(e, 0), Some(i)) => match &i.node {
                Initializer::List(items) => {
                    let mut n = 0usize;
                    let mut pos = 0usize;
                    for it in items {
                        if let Some(d) = it.node.designation.first() {
                            if let Designator::Index(x) = &d.node {
                                if let Some(k) = const_eval_simple(&x.node) {
                                    pos = k as usize;
                                }
                            }
                        }
                        pos += 1;
                        n = n.max(pos);
                    }
                    CType::Array(e.clone(), n.max(1))
                }
                // `char s[] = "abc";`: the characters and the NUL
                Initializer::Expression(x) => match (&**e, &x.node) {
                    (CType::S(Ty::Int { bits: 8, .. }), Expression::StringLiteral(parts)) => {
                        match self.literal_bytes(&parts.node, x.span) {
                            Ok(b) => CType::Array(e.clone(), b.len() + 1),
                            Err(_) => ty,
                        }
                    }
                    _ => ty,
                },
            },
            _ => ty,
        }
    }

    /// A binding for a new variable: a scalar variable or an object.
    fn declare_object(
        &mut self,
        name: &str,
        ty: &CType,
        info: &DeclInfo,
        span: Span,
    ) -> R<Binding> {
        match ty {
            CType::S(t) => {
                let v = self.fresh_var(name, *t);
                self.volatile[v] = info.volatile;
                Ok(Binding::Var(v))
            }
            CType::Array(_, 0) => self.err(span, format!("`{name}`: an array of unknown size")),
            _ => {
                // `const T *p`: the const qualifies the pointed-to type, not p
                let o = self.new_object(name, ty, info.is_const && !ty.is_ptr(), span)?;
                if info.volatile {
                    for c in self.objects[o.0].cells.clone() {
                        if let CellKind::Scalar(_, v) = c.kind {
                            self.volatile[v] = true;
                        }
                    }
                }
                Ok(Binding::Obj(o))
            }
        }
    }

    /// A new object of type `ty`: one variable per scalar leaf, two per pointer.
    fn new_object(&mut self, name: &str, ty: &CType, is_const: bool, span: Span) -> R<ObjId> {
        let mut leaves = Vec::new();
        if let Err(m) = self.layouts.leaves(ty, 0, name, &mut leaves) {
            if let Some(e) = self.rec_error_of(ty) {
                return self.err(
                    span,
                    format!("`{name}`: its type is declared with a construct that is not supported: {e}"),
                );
            }
            return self.err(span, format!("`{name}`: {m}"));
        }
        let Some(size) = self.layouts.size_of(ty) else {
            return self.err(span, format!("`{name}` has an incomplete type"));
        };
        let mut cells = Vec::with_capacity(leaves.len());
        for (off, leaf, path) in leaves {
            let kind = match leaf {
                Leaf::Scalar(t) => CellKind::Scalar(t, self.fresh_var(&path, t)),
                Leaf::Ptr => {
                    let ov = self.fresh_var(&format!("{path}.obj"), OBJ_TY);
                    let fv = self.fresh_var(&format!("{path}.off"), OFF_TY);
                    CellKind::Ptr(ov, fv)
                }
            };
            cells.push(Cell { off, kind });
        }
        cells.sort_by_key(|c| c.off);
        self.objects.push(Object {
            name: name.to_string(),
            ty: ty.clone(),
            size,
            cells,
            is_const,
        });
        Ok(ObjId(self.objects.len() - 1))
    }

    /// The recorded failure of a struct or union in type `t`, if any.
    fn rec_error_of(&self, t: &CType) -> Option<CError> {
        match t {
            CType::Rec(r) => self.rec_errors.get(r).cloned().or_else(|| {
                self.layouts.records[r.0]
                    .fields
                    .iter()
                    .find_map(|f| self.rec_error_of(&f.ty))
            }),
            // not through pointers: a struct may point to its own type
            CType::Array(e, _) => self.rec_error_of(e),
            _ => None,
        }
    }

    /// Every scalar of the binding gets an arbitrary value that is not a harness input.
    fn havoc_binding(&mut self, b: &Binding, name: &str, span: Span, cur: &mut usize) {
        let vars: Vec<usize> = match b {
            Binding::Var(v) => vec![*v],
            Binding::Obj(o) => self.objects[o.0]
                .cells
                .iter()
                .flat_map(Cell::vars)
                .collect(),
            _ => vec![],
        };
        for v in vars {
            let what = format!(
                "extern {}",
                if v == usize::MAX {
                    name
                } else {
                    &self.cfg.vars[v].c_name
                }
            );
            let what = what.to_string();
            self.havoc_input(v, what, false, span, cur);
        }
    }

    /// Initialises a new variable: zero (static storage) or indeterminate (automatic)
    /// without an initializer; otherwise the initializer, the rest zero.
    fn init_binding(
        &mut self,
        b: &Binding,
        ty: &CType,
        init: Option<&Node<Initializer>>,
        cur: &mut usize,
        static_storage: bool,
    ) -> R<()> {
        self.initializing += 1;
        self.static_init += static_storage as usize;
        let r = self.init_binding_inner(b, ty, init, cur, static_storage);
        self.static_init -= static_storage as usize;
        self.initializing -= 1;
        r
    }

    fn init_binding_inner(
        &mut self,
        b: &Binding,
        ty: &CType,
        init: Option<&Node<Initializer>>,
        cur: &mut usize,
        static_storage: bool,
    ) -> R<()> {
        let place = match b {
            Binding::Var(v) => Place::Var(*v),
            Binding::Obj(o) => self.obj_place(*o),
            _ => return Ok(()),
        };
        match init {
            None => {
                if static_storage {
                    self.zero_fill(&place, cur);
                } else {
                    self.forget_all(&place, cur);
                }
                Ok(())
            }
            Some(i) => match &i.node {
                Initializer::Expression(e) if !matches!(ty, CType::Array(..)) => {
                    let v = self.rv(e, cur)?;
                    let v = self.convert_val(v, ty, cur, e.span)?;
                    self.write(&place, v, cur, e.span)
                }
                Initializer::Expression(e) => {
                    if let (CType::Array(el, n), Binding::Obj(o)) = (ty, b) {
                        if self.string_init(*o, el, *n, 0, e, cur)? {
                            return Ok(());
                        }
                    }
                    self.err(
                        e.span,
                        "an array needs an initializer list or a string literal",
                    )
                }
                Initializer::List(items) => {
                    self.zero_fill(&place, cur);
                    let mut k = 0;
                    let o = match b {
                        Binding::Obj(o) => *o,
                        Binding::Var(v) => self.objectify(*v),
                        _ => unreachable!(),
                    };
                    self.fill(o, ty, 0, items, &mut k, true, cur, i.span)?;
                    if k < items.len() {
                        return self.err(items[k].span, "too many initializers");
                    }
                    Ok(())
                }
            },
        }
    }

    fn obj_place(&self, o: ObjId) -> Place {
        Place::Mem {
            base: Base::Obj(o),
            konst: 0,
            idx: Vec::new(),
            raw: None,
            ty: self.objects[o.0].ty.clone(),
            reads: Vec::new(),
        }
    }

    /// Stores zero in every scalar and NULL in every pointer of the place's object range.
    fn zero_fill(&mut self, p: &Place, cur: &mut usize) {
        for v in self.place_cells(p) {
            let t = self.cfg.vars[v].ty;
            *cur = self.assign_edge(*cur, v, zero(t));
        }
    }

    fn forget_all(&mut self, p: &Place, cur: &mut usize) {
        for v in self.place_cells(p) {
            let n = self.cfg.new_node();
            self.cfg.edge(*cur, n, Ins::Forget(v));
            *cur = n;
        }
    }

    /// The variables of a place that designates a whole object (for initialisation).
    fn place_cells(&self, p: &Place) -> Vec<usize> {
        match p {
            Place::Var(v) => vec![*v],
            Place::Mem {
                base: Base::Obj(o), ..
            } => self.objects[o.0]
                .cells
                .iter()
                .flat_map(Cell::vars)
                .collect(),
            _ => vec![],
        }
    }

    /// Fills the aggregate `ty` at byte `off` of object `o` from `items[*k..]` (C11 6.7.9:
    /// designators, brace elision; `braced`: the list belongs to this aggregate).
    #[allow(clippy::too_many_arguments)]
    fn fill(
        &mut self,
        o: ObjId,
        ty: &CType,
        off: usize,
        items: &[Node<InitializerListItem>],
        k: &mut usize,
        braced: bool,
        cur: &mut usize,
        span: Span,
    ) -> R<()> {
        let members = self.members_of(ty);
        if members.is_empty() {
            // a scalar in braces: `int x = {1};`
            if *k < items.len() {
                let it = &items[*k];
                *k += 1;
                return self.init_at(o, ty, off, &it.node.initializer, cur);
            }
            return Ok(());
        }
        let mut i = 0usize;
        while *k < items.len() {
            let it = &items[*k];
            if !it.node.designation.is_empty() {
                if !braced {
                    return Ok(());
                }
                let (mi, mt, moff) = self.designate(ty, off, &it.node.designation[0])?;
                let (mt, moff) = self.designate_rest(mt, moff, &it.node.designation[1..])?;
                self.init_at(o, &mt, moff, &it.node.initializer, cur)?;
                *k += 1;
                i = mi + 1;
                continue;
            }
            if i >= members.len() || (self.is_union(ty) && i >= 1) {
                if braced {
                    return self.err(it.span, "too many initializers");
                }
                return Ok(());
            }
            let (mt, moff) = members[i].clone();
            self.init_member(o, &mt, off + moff, items, k, cur, span)?;
            i += 1;
        }
        Ok(())
    }

    fn is_union(&self, t: &CType) -> bool {
        matches!(t, CType::Rec(r) if self.layouts.records[r.0].union)
    }

    /// The subobjects of an aggregate in initialisation order (type, offset).
    fn members_of(&self, t: &CType) -> Vec<(CType, usize)> {
        match t {
            CType::Array(e, n) => {
                let s = self.layouts.size_of(e).unwrap_or(0);
                (0..*n).map(|k| ((**e).clone(), k * s)).collect()
            }
            CType::Rec(r) => self.layouts.records[r.0]
                .fields
                .iter()
                .map(|f| (f.ty.clone(), f.off))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The member a designator names: its position, type and offset.
    fn designate(
        &mut self,
        ty: &CType,
        off: usize,
        d: &Node<Designator>,
    ) -> R<(usize, CType, usize)> {
        match (&d.node, ty) {
            (Designator::Index(e), CType::Array(el, n)) => {
                let k = self.const_int(e)?;
                if k < 0 || k as usize >= *n {
                    return self.err(e.span, "array designator out of bounds");
                }
                let s = self.layouts.size_of(el).unwrap_or(0);
                Ok((k as usize, (**el).clone(), off + k as usize * s))
            }
            (Designator::Member(m), CType::Rec(r)) => {
                let rec = &self.layouts.records[r.0];
                match rec
                    .fields
                    .iter()
                    .position(|f| f.name.as_deref() == Some(&m.node.name))
                {
                    Some(p) => Ok((p, rec.fields[p].ty.clone(), off + rec.fields[p].off)),
                    None => match self.layouts.member(*r, &m.node.name) {
                        Some((t, o)) => Ok((0, t, off + o)),
                        None => self.err(d.span, format!("no member `{}`", m.node.name)),
                    },
                }
            }
            _ => self.err(d.span, "unsupported designator"),
        }
    }

    fn designate_rest(
        &mut self,
        mut t: CType,
        mut off: usize,
        ds: &[Node<Designator>],
    ) -> R<(CType, usize)> {
        for d in ds {
            let (_, t2, o2) = self.designate(&t, off, d)?;
            t = t2;
            off = o2;
        }
        Ok((t, off))
    }

    /// One member from the list: a braced sub-list, a whole struct value, or (brace
    /// elision) as many items as its scalars need.
    #[allow(clippy::too_many_arguments)]
    fn init_member(
        &mut self,
        o: ObjId,
        mt: &CType,
        moff: usize,
        items: &[Node<InitializerListItem>],
        k: &mut usize,
        cur: &mut usize,
        span: Span,
    ) -> R<()> {
        let it = &items[*k];
        match &it.node.initializer.node {
            Initializer::List(sub) => {
                let mut j = 0;
                self.fill(o, mt, moff, sub, &mut j, true, cur, it.span)?;
                if j < sub.len() {
                    return self.err(sub[j].span, "too many initializers");
                }
                *k += 1;
                Ok(())
            }
            Initializer::Expression(e) => {
                if let (CType::Array(el, _), Expression::StringLiteral(_)) = (mt, &e.node) {
                    if matches!(**el, CType::S(Ty::Int { bits: 8, .. })) {
                        *k += 1;
                        return self.init_at(o, mt, moff, &it.node.initializer, cur);
                    }
                }
                if matches!(mt, CType::Rec(_) | CType::Array(..)) {
                    if let CType::Rec(_) = mt {
                        let t = self.type_of(e)?;
                        if t == *mt {
                            *k += 1;
                            return self.init_at(o, mt, moff, &it.node.initializer, cur);
                        }
                    }
                    return self.fill(o, mt, moff, items, k, false, cur, span);
                }
                *k += 1;
                self.init_at(o, mt, moff, &it.node.initializer, cur)
            }
        }
    }

    /// Initialises the subobject of type `t` at `off` of `o`.
    fn init_at(
        &mut self,
        o: ObjId,
        t: &CType,
        off: usize,
        init: &Node<Initializer>,
        cur: &mut usize,
    ) -> R<()> {
        match &init.node {
            Initializer::List(sub) => {
                let mut j = 0;
                self.fill(o, t, off, sub, &mut j, true, cur, init.span)?;
                if j < sub.len() {
                    return self.err(sub[j].span, "too many initializers");
                }
                Ok(())
            }
            Initializer::Expression(e) => {
                if let CType::Array(el, n) = t {
                    if self.string_init(o, el, *n, off, e, cur)? {
                        return Ok(());
                    }
                    return self.err(
                        e.span,
                        "an array needs an initializer list or a string literal",
                    );
                }
                let v = self.rv(e, cur)?;
                let v = self.convert_val(v, t, cur, e.span)?;
                let place = Place::Mem {
                    base: Base::Obj(o),
                    konst: off as i128,
                    idx: Vec::new(),
                    raw: None,
                    ty: t.clone(),
                    reads: Vec::new(),
                };
                self.write(&place, v, cur, e.span)
            }
        }
    }

    fn local_decl(&mut self, d: &Node<Declaration>, mut cur: usize) -> R<usize> {
        let info = self.decl_specs(&d.node.specifiers, d.span)?;
        for id in &d.node.declarators {
            let dec = &id.node.declarator.node;
            let Some(name) = declarator_name(dec) else {
                continue;
            };
            let ty = self.derive_type(info.ty.clone(), dec)?;
            if info.typedef {
                self.note_enum_typedef(&name, &ty, info.enum_fact);
                self.typedefs.last_mut().unwrap().insert(name, ty);
                continue;
            }
            if matches!(ty, CType::Func(_)) {
                continue;
            }
            if ty.is_void() {
                return self.err(id.span, "variable of type void");
            }
            if info.is_extern {
                match self.scopes[0].get(&name).cloned() {
                    Some(b) => {
                        self.scopes.last_mut().unwrap().insert(name, b);
                        continue;
                    }
                    None => {
                        return self.err(id.span, format!("block-scope extern declaration of `{name}`, which no file-scope declaration defines"))
                    }
                }
            }
            let ty = self.complete_array(ty, id.node.initializer.as_ref());
            if info.is_static {
                let b = match self.statics.get(&id.span.start) {
                    Some(b) => b.clone(),
                    None => {
                        let b = self.declare_object(&name, &ty, &info, id.span)?;
                        self.statics.insert(id.span.start, b.clone());
                        // evaluated once, at program start, in file scope
                        let saved = std::mem::replace(&mut self.scopes, vec![HashMap::new()]);
                        self.scopes[0] = saved[0].clone();
                        let mut g = self.ginit;
                        let r =
                            self.init_binding(&b, &ty, id.node.initializer.as_ref(), &mut g, true);
                        self.scopes = saved;
                        r?;
                        self.ginit = g;
                        b
                    }
                };
                self.scopes.last_mut().unwrap().insert(name, b);
                continue;
            }
            // a pointer that is only initialised: its value is known when bound
            if let (CType::Ptr(_), Some(i)) = (&ty, &id.node.initializer) {
                if let Initializer::Expression(e) = &i.node {
                    if !info.volatile && !self.is_reassigned(&name) {
                        let v = self.rv(e, &mut cur)?;
                        let v = self.convert_val(v, &ty, &mut cur, e.span)?;
                        if let Val::P(p) = v {
                            let p = self.freeze_ptr(p, &mut cur);
                            self.scopes
                                .last_mut()
                                .unwrap()
                                .insert(name, Binding::PtrConst(p));
                            continue;
                        }
                    }
                }
            }
            let b = self.declare_object(&name, &ty, &info, id.span)?;
            // the new name is in scope in its own initializer (C), but an initializer that
            // reads it is indeterminate anyway: declare first
            self.scopes.last_mut().unwrap().insert(name, b.clone());
            self.init_binding(&b, &ty, id.node.initializer.as_ref(), &mut cur, false)?;
        }
        Ok(cur)
    }

    /// Is the name assigned, incremented or its address taken in the current function body?
    fn is_reassigned(&self, name: &str) -> bool {
        match self.fn_stack.last() {
            Some(f) => match self.functions.get(&f.name) {
                Some(fd) => name_is_written(&fd.node.statement, name),
                None => true,
            },
            None => true,
        }
    }

    /// A pointer value whose object and offset are variables or constants (evaluated now).
    fn freeze_ptr(&mut self, p: PtrV, cur: &mut usize) -> PtrV {
        let obj = match fold_int(&p.obj) {
            Some(k) => E::Int(OBJ_TY, k),
            None if matches!(p.obj, E::Var(_)) => p.obj,
            None => {
                let v = self.fresh_var("ptr_obj", OBJ_TY);
                self.cfg.vars[v].is_temp = true;
                *cur = self.assign_edge(*cur, v, p.obj);
                E::Var(v)
            }
        };
        let off = match fold_int(&p.off) {
            Some(k) => E::Int(OFF_TY, k),
            None if matches!(p.off, E::Var(_)) => p.off,
            None => {
                let v = self.fresh_var("ptr_off", OFF_TY);
                self.cfg.vars[v].is_temp = true;
                *cur = self.assign_edge(*cur, v, p.off);
                E::Var(v)
            }
        };
        PtrV { obj, off, to: p.to }
    }

    /// The one-cell object of scalar variable `v` (created when its address is taken).
    fn objectify(&mut self, v: usize) -> ObjId {
        if let Some(o) = self.var_obj.get(&v) {
            return *o;
        }
        let t = self.cfg.vars[v].ty;
        self.objects.push(Object {
            name: self.cfg.vars[v].c_name.clone(),
            ty: CType::S(t),
            size: Layouts::scalar_size(t),
            cells: vec![Cell {
                off: 0,
                kind: CellKind::Scalar(t, v),
            }],
            is_const: false,
        });
        let o = ObjId(self.objects.len() - 1);
        self.var_obj.insert(v, o);
        o
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
        // the command's deadline and memory budget (issue #24): the caller answers `unknown`
        // when `solver::budget::stopped` says why the translation stopped
        if let Err(stop) = solver::budget::check() {
            return self.err(s.span, stop.text());
        }
        match &s.node {
            Statement::Compound(items) => {
                self.scopes.push(HashMap::new());
                self.typedefs.push(HashMap::new());
                self.tags.push(HashMap::new());
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
                self.tags.pop();
                r.map(|_| c)
            }
            Statement::Expression(None) => Ok(cur),
            Statement::Expression(Some(e)) => {
                let mut c = cur;
                self.rv(e, &mut c)?;
                Ok(c)
            }
            Statement::If(i) => {
                let t = self.cfg.new_node();
                let f = self.cfg.new_node();
                self.decision(&i.node.condition, cur, t, f)?;
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
                self.record_loop(head, s.span.start, self.scopes.len());
                self.cfg.edge(cur, head, Ins::Skip);
                let body = self.cfg.new_node();
                let exit = self.cfg.new_node();
                self.decision(&w.node.expression, head, body, exit)?;
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
                self.decision(&w.node.expression, cont, head, exit)?;
                Ok(exit)
            }
            Statement::For(f) => {
                self.scopes.push(HashMap::new());
                self.typedefs.push(HashMap::new());
                self.tags.push(HashMap::new());
                let r = self.for_stmt(f, cur);
                self.scopes.pop();
                self.typedefs.pop();
                self.tags.pop();
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
                    (f.ret.clone(), f.exit)
                };
                let mut c = cur;
                if let Some(e) = e {
                    match ret {
                        Some(RetSlot::Scalar(rv, rt)) => {
                            let (x, t) = self.expr(e, &mut c)?;
                            let x = self.convert_operand(x, t, rt, &mut c, e.span, Some(e.span))?;
                            c = self.assign_edge(c, rv, x);
                        }
                        Some(RetSlot::Ptr(ov, fv, to)) => {
                            let v = self.rv(e, &mut c)?;
                            let t = CType::Ptr(Box::new(to));
                            if let Val::P(p) = self.convert_val(v, &t, &mut c, e.span)? {
                                c = self.assign_edge(c, ov, p.obj);
                                c = self.assign_edge(c, fv, p.off);
                            }
                        }
                        Some(RetSlot::Agg(o, t)) => {
                            let v = self.rv(e, &mut c)?;
                            let v = self.convert_val(v, &t, &mut c, e.span)?;
                            let place = self.obj_place(o);
                            self.write(&place, v, &mut c, e.span)?;
                        }
                        None => {
                            self.rv(e, &mut c)?;
                        }
                    }
                }
                self.cfg.edge(c, exit, Ins::Skip);
                Ok(self.cfg.new_node())
            }
            Statement::Switch(sw) => self.switch_stmt(sw, cur),
            Statement::Labeled(l) => match &l.node.label.node {
                Label::Identifier(i) => {
                    // every label is a cut point: a backward goto makes a loop
                    let n = self.label_node(&i.node.name);
                    self.cfg.edge(cur, n, Ins::Skip);
                    self.stmt(&l.node.statement, n)
                }
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
            Statement::Goto(l) => {
                let n = self.label_node(&l.node.name);
                self.cfg.edge(cur, n, Ins::Skip);
                Ok(self.cfg.new_node())
            }
            Statement::Asm(_) => self.err(s.span, "inline assembly is not supported"),
        }
    }

    /// Records a `while` or `for` loop head for correctness witnesses: the keyword's position,
    /// the function, and the scalar variables the names of the first `scopes` scopes denote
    /// there (a variable whose address is taken lives in memory, a volatile one changes on
    /// its own: neither is a state variable that holds the C value).
    fn record_loop(&mut self, head: usize, keyword: usize, scopes: usize) {
        let function = self
            .fn_stack
            .last()
            .map(|f| f.name.clone())
            .unwrap_or_default();
        let mut visible: HashMap<String, usize> = HashMap::new();
        for m in &self.scopes[..scopes.min(self.scopes.len())] {
            for (name, b) in m {
                visible.remove(name);
                if let Binding::Var(v) = b {
                    visible.insert(name.clone(), *v);
                }
            }
        }
        let mut vars: Vec<(String, usize)> = visible
            .into_iter()
            .filter(|(_, v)| {
                !self.var_obj.contains_key(v) && !self.volatile.get(*v).copied().unwrap_or(false)
            })
            .collect();
        vars.sort();
        self.cfg.loops.push(LoopSite {
            head,
            pos: self.src.pos(keyword),
            function,
            vars,
        });
    }

    /// The node of a label of the current function (created at its first use).
    fn label_node(&mut self, name: &str) -> usize {
        if let Some(n) = self.labels.last().and_then(|m| m.get(name)) {
            return *n;
        }
        let n = self.cfg.new_node();
        self.cfg.loop_head[n] = true;
        if let Some(m) = self.labels.last_mut() {
            m.insert(name.to_string(), n);
        }
        n
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
                self.rv(e, &mut c)?;
            }
            ForInitializer::Declaration(d) => c = self.local_decl(d, c)?,
        }
        let head = self.cfg.new_node();
        self.cfg.loop_head[head] = true;
        // the names visible at the `for` keyword: not those its own clause declares
        self.record_loop(head, f.span.start, self.scopes.len() - 1);
        self.cfg.edge(c, head, Ins::Skip);
        let body = self.cfg.new_node();
        let exit = self.cfg.new_node();
        match &f.node.condition {
            Some(e) => self.decision(e, head, body, exit)?,
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
            self.rv(e, &mut s)?;
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
        match self.rv(e, cur)? {
            Val::S(x, t) => truth(x, t)
                .ok_or_else(|| self.src.err(e.span.start, "a scalar condition is required")),
            Val::P(p) => Ok(ptr_nonnull(&p)),
            Val::Agg(..) => self.err(e.span, "a struct or union used as a condition"),
        }
    }

    // ---------------------------------------------------------------- expressions

    fn lookup(&self, n: &str) -> Option<Binding> {
        self.scopes.iter().rev().find_map(|m| m.get(n).cloned())
    }

    /// Reads variable `v` (a volatile read is a fresh input).
    fn read_var(&mut self, v: usize, cur: &mut usize, span: Span) -> E {
        if self.volatile[v] {
            let ty = self.cfg.vars[v].ty;
            let c_name = self.cfg.vars[v].c_name.clone();
            let tmp = self.fresh_var(&format!("volatile_{c_name}"), ty);
            self.havoc_input(tmp, format!("read of volatile {c_name}"), false, span, cur);
            return E::Var(tmp);
        }
        E::Var(v)
    }

    /// The place an lvalue expression designates.
    fn lvalue(&mut self, e: &Node<Expression>, cur: &mut usize) -> R<Place> {
        match &e.node {
            Expression::Identifier(i) => match self.lookup(&i.node.name) {
                Some(Binding::Var(v)) => Ok(Place::Var(v)),
                Some(Binding::Obj(o)) => Ok(self.obj_place(o)),
                Some(Binding::Const(_)) => {
                    self.err(e.span, "an enumeration constant is not assignable")
                }
                Some(Binding::PtrConst(_)) => self.err(
                    e.span,
                    format!(
                        "internal error: `{}` was taken as never assigned",
                        i.node.name
                    ),
                ),
                None => self.poisoned_use(&i.node.name, e.span),
            },
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.element(&b.node.lhs, &b.node.rhs, cur, e.span)
            }
            Expression::Member(m) => self.member(m, cur, e.span),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let v = self.rv(&u.node.operand, cur)?;
                match v {
                    Val::P(p) => self.deref(p, cur, e.span),
                    _ => self.err(e.span, "`*` of a value that is not a pointer"),
                }
            }
            Expression::CompoundLiteral(c) => {
                let t = self.type_name(&c.node.type_name)?;
                let t = match t {
                    CType::Array(el, 0) => CType::Array(el, c.node.initializer_list.len().max(1)),
                    t => t,
                };
                let o = self.new_object("compound_literal", &t, false, e.span)?;
                let place = self.obj_place(o);
                self.zero_fill(&place, cur);
                let mut k = 0;
                self.fill(
                    o,
                    &t,
                    0,
                    &c.node.initializer_list,
                    &mut k,
                    true,
                    cur,
                    e.span,
                )?;
                Ok(place)
            }
            Expression::Statement(_)
            | Expression::Call(_)
            | Expression::Conditional(_)
            | Expression::Comma(_)
            | Expression::Cast(_) => match self.rv(e, cur)? {
                Val::Agg(p, _) => Ok(p),
                _ => self.err(e.span, "this expression is not an lvalue"),
            },
            _ => self.err(e.span, "unsupported assignment target"),
        }
    }

    /// `s.f` / `p->f`.
    fn member(&mut self, m: &Node<MemberExpression>, cur: &mut usize, span: Span) -> R<Place> {
        let base = match m.node.operator.node {
            MemberOperator::Direct => self.lvalue(&m.node.expression, cur)?,
            MemberOperator::Indirect => match self.rv(&m.node.expression, cur)? {
                Val::P(p) => self.deref(p, cur, span)?,
                _ => return self.err(span, "`->` on a value that is not a pointer"),
            },
        };
        let name = &m.node.identifier.node.name;
        let ty = self.place_cty(&base);
        let CType::Rec(r) = ty else {
            return self.err(
                span,
                format!(
                    "member `{name}` of a value of type `{}`, which is not a struct or union",
                    self.layouts.name(&ty)
                ),
            );
        };
        let Some((ft, off)) = self.layouts.member(r, name) else {
            return self.err(
                span,
                format!("`{}` has no member `{name}`", self.layouts.name(&ty)),
            );
        };
        Ok(match base {
            Place::Mem {
                base,
                konst,
                idx,
                raw,
                reads,
                ..
            } => Place::Mem {
                base,
                konst: konst + off as i128,
                idx,
                raw,
                ty: ft,
                reads,
            },
            Place::Var(_) => unreachable!("a scalar variable has no members"),
        })
    }

    /// The place a pointer value points to.
    fn deref(&mut self, p: PtrV, cur: &mut usize, span: Span) -> R<Place> {
        let _ = cur;
        if matches!(p.to, CType::S(Ty::Void)) {
            return self.err(span, "dereference of a `void *`");
        }
        let mut reads = std::collections::HashSet::new();
        vars_of(&p.off, &mut reads);
        vars_of(&p.obj, &mut reads);
        let base = match fold_int(&p.obj) {
            Some(0) => {
                // NULL: every access is invalid
                Base::Dyn(E::Int(OBJ_TY, 0))
            }
            Some(k) if k > 0 && (k as usize) <= self.objects.len() => {
                Base::Obj(ObjId(k as usize - 1))
            }
            Some(_) => return self.err(span, "dereference of a function pointer's target as data"),
            None => Base::Dyn(p.obj),
        };
        let (konst, raw) = match fold_int(&p.off) {
            Some(k) => (k, None),
            None => (0, Some(p.off)),
        };
        Ok(Place::Mem {
            base,
            konst,
            idx: Vec::new(),
            raw,
            ty: p.to,
            reads: reads.into_iter().collect(),
        })
    }

    /// `a[i]` (or `i[a]`) as a place: an array lvalue or a pointer, indexed; the index is
    /// evaluated and checked against the bounds.
    fn element(
        &mut self,
        arr: &Node<Expression>,
        idx: &Node<Expression>,
        cur: &mut usize,
        span: Span,
    ) -> R<Place> {
        // the array operand: an lvalue of array type, or a pointer value
        let (a, i) = {
            let t = self.type_of(arr)?;
            if matches!(t, CType::S(_)) {
                (idx, arr) // i[a]
            } else {
                (arr, idx)
            }
        };
        let at = self.type_of(a)?;
        if let CType::Array(el, n) = at {
            let p = self.lvalue(a, cur)?;
            let (x, t) = self.expr(i, cur)?;
            if !t.is_int() {
                return self.err(i.span, "an array index must be an integer");
            }
            let es = self.layouts.size_of(&el).unwrap_or(0) as i128;
            return self.index_place(p, *el, x, t, es, Some(n), cur, span);
        }
        let pv = match self.rv(a, cur)? {
            Val::P(p) => p,
            _ => {
                return self.err(
                    span,
                    "subscript of a value that is neither an array nor a pointer",
                )
            }
        };
        let (x, t) = self.expr(i, cur)?;
        if !t.is_int() {
            return self.err(i.span, "an array index must be an integer");
        }
        let el = pv.to.clone();
        let Some(es) = self.layouts.size_of(&el) else {
            return self.err(
                span,
                format!(
                    "subscript of a pointer to the incomplete type `{}`",
                    self.layouts.name(&el)
                ),
            );
        };
        let p = self.deref(pv, cur, span)?;
        self.index_place(p, el, x, t, es as i128, None, cur, span)
    }

    /// Adds index `x * es` to place `p` (of an array of `n` elements, or of a pointer).
    #[allow(clippy::too_many_arguments)]
    fn index_place(
        &mut self,
        p: Place,
        el: CType,
        x: E,
        t: Ty,
        es: i128,
        n: Option<usize>,
        cur: &mut usize,
        span: Span,
    ) -> R<Place> {
        let it = promote(t);
        let x = conv(x, t, it);
        let Place::Mem {
            base,
            konst,
            mut idx,
            raw,
            mut reads,
            ..
        } = p
        else {
            return self.err(span, "subscript of a scalar");
        };
        let mut rs = std::collections::HashSet::new();
        vars_of(&x, &mut rs);
        reads.extend(rs);
        // the index range: the array's, or what stays inside a known object
        let (lo, hi, array) = match (n, &base, &raw) {
            (Some(n), _, _) if n > 0 => (0i128, n as i128 - 1, true),
            (_, Base::Obj(o), None) => {
                let size = self.objects[o.0].size as i128;
                let lo = -(konst.div_euclid(es.max(1)));
                let hi = (size - konst - es).div_euclid(es.max(1));
                (lo, hi, false)
            }
            _ => (i128::MIN, i128::MAX, false),
        };
        if let Some(k) = fold_int(&x) {
            if (array || lo != i128::MIN) && (k < lo || k > hi) {
                let kind = if array {
                    GoalKind::Bounds
                } else {
                    GoalKind::Pointer
                };
                let ins = if array {
                    Instrument::Ub(span.start, span.end)
                } else {
                    Instrument::None
                };
                self.check_with(kind, E::True, cur, span, ins);
            }
            return Ok(Place::Mem {
                base,
                konst: konst + k * es,
                idx,
                raw,
                ty: el,
                reads,
            });
        }
        if lo == i128::MIN || raw.is_some() {
            // an unknown object or offset: the index joins the byte offset
            let term = E::Bin(
                BinOp::Mul,
                OFF_TY,
                conv(x, it, OFF_TY).b(),
                E::Int(OFF_TY, es).b(),
            );
            let raw = Some(match raw {
                Some(r) => E::Bin(BinOp::Add, OFF_TY, r.b(), term.b()),
                None => term,
            });
            return Ok(Place::Mem {
                base,
                konst,
                idx,
                raw,
                ty: el,
                reads,
            });
        }
        let (ilo, ihi) = it.range();
        let mut bad = E::False;
        if lo > ilo {
            bad = E::Cmp(Rel::Lt, it, x.clone().b(), E::Int(it, lo.max(ilo)).b());
        }
        if hi < ihi {
            bad = bad.or(E::Cmp(
                Rel::Gt,
                it,
                x.clone().b(),
                E::Int(it, hi.max(ilo)).b(),
            ));
        }
        if array {
            self.check(GoalKind::Bounds, bad, cur, span);
        } else {
            self.check_with(GoalKind::Pointer, bad, cur, span, Instrument::None);
        }
        // a non-constant index is evaluated once
        let v = self.fresh_var("index", it);
        self.cfg.vars[v].is_temp = true;
        *cur = self.assign_edge(*cur, v, x);
        let lo = lo.max(ilo);
        let hi = hi.min(ihi);
        idx.push(IndexTerm {
            e: E::Var(v),
            ty: it,
            stride: es,
            lo,
            hi,
        });
        Ok(Place::Mem {
            base,
            konst,
            idx,
            raw,
            ty: el,
            reads,
        })
    }

    fn place_cty(&self, p: &Place) -> CType {
        match p {
            Place::Var(v) => CType::S(self.cfg.vars[*v].ty),
            Place::Mem { ty, .. } => ty.clone(),
        }
    }

    /// The scalar type of a place (an error for aggregates).
    fn place_ty(&self, p: &Place) -> Ty {
        match self.place_cty(p) {
            CType::S(t) => t,
            CType::Bits { ty, width, .. } => bits_value_ty(ty, width),
            _ => Ty::Void,
        }
    }

    /// The pointer to a place (`&lvalue`, array decay).
    fn addr_of(&mut self, p: &Place, to: CType) -> PtrV {
        match p {
            Place::Var(v) => {
                let o = self.objectify(*v);
                self.exposed.insert(o);
                PtrV {
                    obj: E::Int(OBJ_TY, o.ptr_id()),
                    off: E::Int(OFF_TY, 0),
                    to,
                }
            }
            Place::Mem {
                base,
                konst,
                idx,
                raw,
                ..
            } => {
                let obj = match base {
                    Base::Obj(o) => {
                        self.exposed.insert(*o);
                        E::Int(OBJ_TY, o.ptr_id())
                    }
                    Base::Dyn(e) => e.clone(),
                };
                let mut off = E::Int(OFF_TY, *konst);
                for t in idx {
                    let term = E::Bin(
                        BinOp::Mul,
                        OFF_TY,
                        conv(t.e.clone(), t.ty, OFF_TY).b(),
                        E::Int(OFF_TY, t.stride).b(),
                    );
                    off = add_off(off, term);
                }
                if let Some(r) = raw {
                    off = add_off(off, r.clone());
                }
                PtrV { obj, off, to }
            }
        }
    }

    /// Reads a place: a scalar, a pointer, an aggregate (by reference), an array (decayed).
    fn read(&mut self, p: &Place, cur: &mut usize, span: Span) -> R<Val> {
        match self.place_cty(p) {
            CType::S(t) => {
                if let Place::Var(v) = p {
                    return Ok(Val::S(self.read_var(*v, cur, span), t));
                }
                let (x, _) = self.load_leaf(p, Leaf::Scalar(t), cur, span)?;
                Ok(Val::S(x, t))
            }
            CType::Ptr(to) => {
                let (o, f) = self.load_leaf(p, Leaf::Ptr, cur, span)?;
                Ok(Val::P(PtrV {
                    obj: o,
                    off: f.unwrap(),
                    to: *to,
                }))
            }
            CType::Array(el, _) => Ok(Val::P(self.addr_of(p, *el))),
            t @ CType::Rec(_) => Ok(Val::Agg(p.clone(), t)),
            CType::Func(_) => self.err(span, "a function type object"),
            CType::Bits { ty, bit, width } => {
                let x = self.bits_load(p, ty, bit, width, cur, span)?;
                Ok(Val::S(x, bits_value_ty(ty, width)))
            }
        }
    }

    /// The bytes a bit-field occupies, as one unsigned 64-bit word (bit `bit` of the word is
    /// the field's lowest bit).
    fn bits_bytes(&mut self, p: &Place, bit: u8, width: u8, span: Span) -> R<usize> {
        let nb = (bit as usize + width as usize).div_ceil(8);
        if nb > 8 {
            return self.err(
                span,
                "a bit-field that spans more than 8 bytes is not supported",
            );
        }
        let _ = p;
        Ok(nb)
    }

    /// The value of the field bits `field` (an unsigned 64-bit word holding the `width` bits)
    /// as the bit-field's value type: sign-extended for a signed declared type.
    fn bits_value(&mut self, field: E, ty: Ty, width: u8, cur: &mut usize) -> E {
        let vt = bits_value_ty(ty, width);
        if !ty.is_signed_int() || width == 64 {
            return conv(field, U64, vt);
        }
        let field = self.stable(field, U64, cur);
        let i64t = Ty::Int {
            bits: 64,
            signed: true,
        };
        let f = conv(field.clone(), U64, i64t);
        let neg = E::Cmp(
            Rel::Ge,
            U64,
            field.b(),
            E::Int(U64, 1i128 << (width - 1)).b(),
        );
        let v = E::Ite(
            i64t,
            neg.b(),
            E::Bin(
                BinOp::Sub,
                i64t,
                f.clone().b(),
                E::Int(i64t, 1i128 << width).b(),
            )
            .b(),
            f.b(),
        );
        conv(v, i64t, vt)
    }

    /// Reads a bit-field: its bytes, shifted and masked, sign- or zero-extended.
    fn bits_load(
        &mut self,
        p: &Place,
        ty: Ty,
        bit: u8,
        width: u8,
        cur: &mut usize,
        span: Span,
    ) -> R<E> {
        let nb = self.bits_bytes(p, bit, width, span)?;
        let mut word: Option<E> = None;
        for k in 0..nb {
            let bp = shift_place(p, k as i128, CType::S(U8));
            let (b, _) = self.load_leaf(&bp, Leaf::Scalar(U8), cur, span)?;
            let part = conv(b, U8, U64);
            let part = if k > 0 {
                E::Bin(BinOp::Shl, U64, part.b(), E::Int(U64, 8 * k as i128).b())
            } else {
                part
            };
            word = Some(match word {
                None => part,
                Some(w) => E::Bin(BinOp::Or, U64, w.b(), part.b()),
            });
        }
        let word = word.unwrap_or(E::Int(U64, 0));
        let shifted = if bit > 0 {
            E::Bin(BinOp::Shr, U64, word.b(), E::Int(U64, bit as i128).b())
        } else {
            word
        };
        let field = if width < 64 {
            E::Bin(
                BinOp::And,
                U64,
                shifted.b(),
                E::Int(U64, (1i128 << width) - 1).b(),
            )
        } else {
            shifted
        };
        Ok(self.bits_value(field, ty, width, cur))
    }

    /// Writes `x` (of type `t`) into a bit-field: converted to the declared type, then its
    /// low `width` bits replace the field's bits (the other bits of its bytes are kept).
    /// Returns the bit-field's new value (the value of the assignment expression).
    #[allow(clippy::too_many_arguments)]
    fn bits_store(
        &mut self,
        p: &Place,
        x: E,
        t: Ty,
        (ty, bit, width): (Ty, u8, u8),
        cur: &mut usize,
        span: Span,
    ) -> R<E> {
        let nb = self.bits_bytes(p, bit, width, span)?;
        let x = self.convert(x, t, ty, cur, span)?;
        let x = self.stable(x, ty, cur);
        let mask: u128 = if width >= 64 {
            u64::MAX as u128
        } else {
            (1u128 << width) - 1
        };
        let field = conv(x, ty, U64);
        let field = if width < 64 {
            E::Bin(BinOp::And, U64, field.b(), E::Int(U64, mask as i128).b())
        } else {
            field
        };
        let field = self.stable(field, U64, cur);
        // every byte's new value is computed (old bytes read) before any is written
        let mut news = Vec::new();
        for k in 0..nb {
            let bm = ((mask << bit) >> (8 * k)) & 0xff;
            let sh = 8 * k as i128 - bit as i128;
            let moved = if sh > 0 {
                E::Bin(BinOp::Shr, U64, field.clone().b(), E::Int(U64, sh).b())
            } else if sh < 0 {
                E::Bin(BinOp::Shl, U64, field.clone().b(), E::Int(U64, -sh).b())
            } else {
                field.clone()
            };
            let part = E::Bin(BinOp::And, U64, moved.b(), E::Int(U64, bm as i128).b());
            let bp = shift_place(p, k as i128, CType::S(U8));
            let nbyte = if bm == 0xff {
                part
            } else {
                let (old, _) = self.load_leaf(&bp, Leaf::Scalar(U8), cur, span)?;
                let kept = E::Bin(
                    BinOp::And,
                    U64,
                    conv(old, U8, U64).b(),
                    E::Int(U64, (0xff & !bm) as i128).b(),
                );
                E::Bin(BinOp::Or, U64, kept.b(), part.b())
            };
            let nbyte = conv(nbyte, U64, U8);
            let nbyte = self.stable(nbyte, U8, cur);
            news.push((bp, nbyte));
        }
        for (bp, nbyte) in news {
            self.store_leaf(&bp, Leaf::Scalar(U8), nbyte, None, cur, span)?;
        }
        Ok(self.bits_value(field, ty, width, cur))
    }

    /// Writes a value (already of the place's type) to a place.
    fn write(&mut self, p: &Place, v: Val, cur: &mut usize, span: Span) -> R<()> {
        if let (CType::Bits { ty, bit, width }, Val::S(x, t)) = (self.place_cty(p), &v) {
            self.bits_store(p, x.clone(), *t, (ty, bit, width), cur, span)?;
            return Ok(());
        }
        match v {
            Val::S(x, _) => {
                if let Place::Var(var) = p {
                    *cur = self.assign_edge(*cur, *var, x);
                    return Ok(());
                }
                let t = self.place_ty(p);
                self.store_leaf(p, Leaf::Scalar(t), x, None, cur, span)
            }
            Val::P(pv) => self.store_leaf(p, Leaf::Ptr, pv.obj, Some(pv.off), cur, span),
            Val::Agg(src, t) => {
                // copied leaf by leaf (a union word by word)
                let mut leaves = Vec::new();
                if let Err(m) = self.layouts.leaves(&t, 0, "", &mut leaves) {
                    return self.err(span, m);
                }
                // read everything first: source and target may overlap
                let mut vals = Vec::new();
                for (off, leaf, _) in &leaves {
                    let sp = shift_place(&src, *off as i128, leaf_cty(*leaf));
                    let (a, b) = self.load_leaf(&sp, *leaf, cur, span)?;
                    let a = self.bounded(a, leaf_ty(*leaf), cur);
                    vals.push((a, b));
                }
                for ((off, leaf, _), (a, b)) in leaves.iter().zip(vals) {
                    let dp = shift_place(p, *off as i128, leaf_cty(*leaf));
                    self.store_leaf(&dp, *leaf, a, b, cur, span)?;
                }
                Ok(())
            }
        }
    }

    /// The possible constant offsets of a place with their conditions (at most 4096).
    fn offsets(&self, p: &Place, span: Span) -> R<Vec<(E, i128)>> {
        let Place::Mem {
            base,
            konst,
            idx,
            raw,
            ..
        } = p
        else {
            return Ok(vec![(E::True, 0)]);
        };
        if let (Some(r), Base::Obj(o)) = (raw, base) {
            // a computed byte offset into a known object: the cells' offsets
            return Ok(self.objects[o.0]
                .cells
                .iter()
                .map(|c| {
                    let at = E::Int(OFF_TY, c.off as i128 - konst);
                    (
                        E::Cmp(Rel::Eq, OFF_TY, r.clone().b(), at.b()),
                        c.off as i128,
                    )
                })
                .collect());
        }
        let mut out = vec![(E::True, *konst)];
        for t in idx {
            let n = (t.hi - t.lo + 1).max(0);
            if n as usize * out.len() > 4096 {
                return self.err(
                    span,
                    "an access with more than 4096 possible targets is not supported",
                );
            }
            let mut next = Vec::new();
            for (c, o) in &out {
                for k in t.lo..=t.hi {
                    let eq = E::Cmp(Rel::Eq, t.ty, t.e.clone().b(), E::Int(t.ty, k).b());
                    next.push((c.clone().and(eq), o + k * t.stride));
                }
            }
            out = next;
        }
        Ok(out)
    }

    /// Reads a scalar (part 0) or a pointer (object id, offset) at a place.
    fn load_leaf(
        &mut self,
        p: &Place,
        leaf: Leaf,
        cur: &mut usize,
        span: Span,
    ) -> R<(E, Option<E>)> {
        let Place::Mem { base, raw, .. } = p else {
            let Place::Var(v) = p else { unreachable!() };
            return Ok((self.read_var(*v, cur, span), None));
        };
        match base {
            Base::Obj(o) => {
                let o = *o;
                let cands = self.offsets(p, span)?;
                let mut vals: Vec<(E, (E, Option<E>))> = Vec::new();
                // a computed offset may hit no cell
                let mut invalid = raw.is_some();
                for (c, off) in cands {
                    match self.extract(o, off, leaf, cur, span)? {
                        Some(v) => vals.push((c, v)),
                        None => invalid = true,
                    }
                }
                if invalid || vals.is_empty() {
                    let ok = vals.iter().fold(E::False, |a, (c, _)| a.or(c.clone()));
                    self.check_with(GoalKind::Pointer, ok.negate(), cur, span, Instrument::None);
                }
                Ok(self.select(vals, leaf, invalid, cur))
            }
            Base::Dyn(obj) => {
                let site = self.dyn_site(obj, p, leaf, cur, span);
                // the value is fixed in a variable here (resolved after lowering)
                let t = leaf_ty(leaf);
                let v = self.fresh_var("load", t);
                self.cfg.vars[v].is_temp = true;
                *cur = self.assign_edge(*cur, v, E::Load(site, 0));
                let second = if leaf == Leaf::Ptr {
                    let w = self.fresh_var("load_off", OFF_TY);
                    self.cfg.vars[w].is_temp = true;
                    *cur = self.assign_edge(*cur, w, E::Load(site, 1));
                    Some(E::Var(w))
                } else {
                    None
                };
                Ok((E::Var(v), second))
            }
        }
    }

    /// A new access through a pointer whose object is known only at run time, with its
    /// invalid-pointer goal (both resolved after lowering, `resolve_dynamic`).
    fn dyn_site(&mut self, obj: &E, p: &Place, leaf: Leaf, cur: &mut usize, span: Span) -> usize {
        let off = self.place_offset(p);
        let site = self.dyn_sites.len();
        self.dyn_sites.push(DynSite {
            obj: obj.clone(),
            off,
            leaf,
        });
        let g = self.goal(GoalKind::Pointer, span.start, Instrument::None);
        let n = self.cfg.new_node();
        self.cfg.edge(*cur, n, Ins::CheckAccess(g, site));
        *cur = n;
        site
    }

    /// The byte offset of a place as one expression.
    fn place_offset(&self, p: &Place) -> E {
        let Place::Mem {
            konst, idx, raw, ..
        } = p
        else {
            return E::Int(OFF_TY, 0);
        };
        let mut off = E::Int(OFF_TY, *konst);
        for t in idx {
            off = add_off(
                off,
                E::Bin(
                    BinOp::Mul,
                    OFF_TY,
                    conv(t.e.clone(), t.ty, OFF_TY).b(),
                    E::Int(OFF_TY, t.stride).b(),
                ),
            );
        }
        if let Some(r) = raw {
            off = add_off(off, r.clone());
        }
        off
    }

    /// An `ite` chain over the candidates (the last one, or an arbitrary value when no
    /// candidate may apply, is the default).
    fn select(
        &mut self,
        vals: Vec<(E, (E, Option<E>))>,
        leaf: Leaf,
        arbitrary_default: bool,
        cur: &mut usize,
    ) -> (E, Option<E>) {
        let t = leaf_ty(leaf);
        let mut it = vals.into_iter().rev();
        let (mut a, mut b) = if arbitrary_default {
            let v = self.fresh_var("unknown", t);
            let n = self.cfg.new_node();
            self.cfg.edge(*cur, n, Ins::Forget(v));
            *cur = n;
            let w = if leaf == Leaf::Ptr {
                let w = self.fresh_var("unknown_off", OFF_TY);
                let n = self.cfg.new_node();
                self.cfg.edge(*cur, n, Ins::Forget(w));
                *cur = n;
                Some(E::Var(w))
            } else {
                None
            };
            (E::Var(v), w)
        } else {
            match it.next() {
                Some((_, v)) => v,
                None => (zero(t), None),
            }
        };
        for (c, (x, y)) in it {
            a = E::Ite(t, c.clone().b(), x.b(), a.b());
            if let (Some(y), Some(bb)) = (y, b.take()) {
                b = Some(E::Ite(OFF_TY, c.b(), y.b(), bb.b()));
            }
        }
        let a = self.bounded(a, t, cur);
        let b = b.map(|b| self.bounded(b, OFF_TY, cur));
        (a, b)
    }

    /// The value of a leaf at constant byte offset `off` of object `o` (bit-exact
    /// reinterpretation when the access and the cells differ); `None` when the access does
    /// not lie inside the object.
    fn extract(
        &mut self,
        o: ObjId,
        off: i128,
        leaf: Leaf,
        cur: &mut usize,
        span: Span,
    ) -> R<Option<(E, Option<E>)>> {
        let ps = self.layouts.ptr_size();
        let size = leaf.size(ps) as i128;
        let obj = &self.objects[o.0];
        if off < 0 || off + size > obj.size as i128 {
            return Ok(None);
        }
        let off_u = off as usize;
        if let Some(c) = obj.cell_at(off_u).cloned() {
            match (c.kind, leaf) {
                (CellKind::Ptr(a, b), Leaf::Ptr) => return Ok(Some((E::Var(a), Some(E::Var(b))))),
                (CellKind::Scalar(u, v), Leaf::Scalar(t))
                    if Layouts::scalar_size(u) == size as usize =>
                {
                    let x = self.read_var(v, cur, span);
                    return Ok(Some((self.reinterpret(x, u, t, cur), None)));
                }
                _ => {}
            }
        }
        let Leaf::Scalar(t) = leaf else {
            return self.err(
                span,
                format!(
                    "reading the bytes of `{}` as a pointer is not supported",
                    obj.name
                ),
            );
        };
        // assembled from the overlapping cells, little-endian
        let cells: Vec<Cell> = obj
            .overlapping(off_u, size as usize, ps)
            .into_iter()
            .cloned()
            .collect();
        let covered: usize = cells
            .iter()
            .map(|c| {
                let s = c.size(ps);
                (c.off + s).min(off_u + size as usize) - c.off.max(off_u)
            })
            .sum();
        if covered != size as usize {
            return self.err(
                span,
                format!("a read of padding bytes of `{}` is not supported", obj.name),
            );
        }
        let name = obj.name.clone();
        let u64t = Ty::Int {
            bits: 64,
            signed: false,
        };
        let mut acc = E::Int(u64t, 0);
        for c in cells {
            let CellKind::Scalar(u, v) = c.kind else {
                return self.err(
                    span,
                    format!(
                        "reading the bytes of a pointer in `{name}` as a number is not supported"
                    ),
                );
            };
            let x = self.read_var(v, cur, span);
            let bits = self.bits_u64(x, u, cur);
            let (part, shift_left) = if c.off >= off_u {
                (bits, 8 * (c.off - off_u) as i128)
            } else {
                (
                    E::Bin(
                        BinOp::Shr,
                        u64t,
                        bits.b(),
                        E::Int(u64t, 8 * (off_u - c.off) as i128).b(),
                    ),
                    0,
                )
            };
            let part = if shift_left > 0 {
                E::Bin(BinOp::Shl, u64t, part.b(), E::Int(u64t, shift_left).b())
            } else {
                part
            };
            acc = if acc == E::Int(u64t, 0) {
                part
            } else {
                E::Bin(BinOp::Or, u64t, acc.b(), part.b())
            };
        }
        let w = Ty::Int {
            bits: (size * 8) as u8,
            signed: false,
        };
        let word = conv(acc, u64t, w);
        Ok(Some((self.reinterpret(word, w, t, cur), None)))
    }

    /// The bits of a scalar as a u64 (zero-extended).
    fn bits_u64(&mut self, x: E, u: Ty, cur: &mut usize) -> E {
        let u64t = Ty::Int {
            bits: 64,
            signed: false,
        };
        let w = Ty::Int {
            bits: (Layouts::scalar_size(u) * 8) as u8,
            signed: false,
        };
        let b = self.reinterpret(x, u, w, cur);
        conv(b, w, u64t)
    }

    /// The same bytes read as another scalar type of the same size.
    fn reinterpret(&mut self, x: E, from: Ty, to: Ty, cur: &mut usize) -> E {
        if from == to {
            return x;
        }
        let w = Ty::Int {
            bits: (Layouts::scalar_size(from) * 8) as u8,
            signed: false,
        };
        // the bits as an unsigned word
        let bits = if from.is_float() {
            self.float_bits(x, from, cur)
        } else {
            conv(x, from, w)
        };
        if to.is_float() {
            E::FromBits(to, bits.b())
        } else {
            conv(bits, w, to)
        }
    }

    /// The encoding of a float. icpic3 has one NaN; a C NaN has a sign and a payload, so a
    /// NaN's encoding is a choice among all NaN patterns (never assumed canonical).
    fn float_bits(&mut self, x: E, t: Ty, cur: &mut usize) -> E {
        let (w, exp, man) = match t {
            Ty::F32 => (
                Ty::Int {
                    bits: 32,
                    signed: false,
                },
                0x7f80_0000i128,
                0x007f_ffffi128,
            ),
            _ => (
                Ty::Int {
                    bits: 64,
                    signed: false,
                },
                0x7ff0_0000_0000_0000i128,
                0x000f_ffff_ffff_ffffi128,
            ),
        };
        if let E::Fp(_, b) = x {
            if !(match t {
                Ty::F32 => f32::from_bits(b as u32).is_nan(),
                _ => f64::from_bits(b).is_nan(),
            }) {
                return E::Int(w, b as i128);
            }
        }
        let x = match x {
            E::Var(_) | E::Fp(..) => x,
            other => {
                let v = self.fresh_var("fbits_arg", t);
                self.cfg.vars[v].is_temp = true;
                *cur = self.assign_edge(*cur, v, other);
                E::Var(v)
            }
        };
        let ch = self.fresh_var("nan_bits", w);
        let n = self.cfg.new_node();
        self.cfg.edge(*cur, n, Ins::Forget(ch));
        *cur = n;
        let is_nan_pattern = E::Cmp(
            Rel::Eq,
            w,
            E::Bin(BinOp::And, w, E::Var(ch).b(), E::Int(w, exp).b()).b(),
            E::Int(w, exp).b(),
        )
        .and(E::Cmp(
            Rel::Ne,
            w,
            E::Bin(BinOp::And, w, E::Var(ch).b(), E::Int(w, man).b()).b(),
            E::Int(w, 0).b(),
        ));
        let n = self.cfg.new_node();
        self.cfg.edge(*cur, n, Ins::Assume(is_nan_pattern));
        *cur = n;
        E::Ite(
            w,
            E::IsNan(x.clone().b()).b(),
            E::Var(ch).b(),
            E::Bits(t, x.b()).b(),
        )
    }

    /// Writes a scalar (or a pointer: object id and offset) at a place.
    fn store_leaf(
        &mut self,
        p: &Place,
        leaf: Leaf,
        a: E,
        b: Option<E>,
        cur: &mut usize,
        span: Span,
    ) -> R<()> {
        let Place::Mem { base, .. } = p else {
            let Place::Var(v) = p else { unreachable!() };
            *cur = self.assign_edge(*cur, *v, a);
            return Ok(());
        };
        if let Base::Obj(o) = base {
            if self.objects[o.0].is_const && !self.in_init() {
                return self.err(
                    span,
                    format!("a write into the const object `{}`", self.objects[o.0].name),
                );
            }
        }
        let t = leaf_ty(leaf);
        match base {
            Base::Obj(o) => {
                let o = *o;
                let cands = self.offsets(p, span)?;
                let single = cands.len() == 1 && cands[0].0 == E::True;
                // a value stored into one of several places is evaluated once
                let (a, b) = if single {
                    (a, b)
                } else {
                    let a = self.stable(a, t, cur);
                    (a, b.map(|b| self.stable(b, OFF_TY, cur)))
                };
                let mut ok = E::False;
                let mut assigns: Vec<(usize, E, E)> = Vec::new();
                for (c, off) in cands {
                    if let Some(list) = self.insert(o, off, leaf, &a, b.as_ref(), cur, span)? {
                        ok = ok.or(c.clone());
                        for (v, x) in list {
                            assigns.push((v, c.clone(), x));
                        }
                    }
                }
                if !single {
                    self.check_with(GoalKind::Pointer, ok.negate(), cur, span, Instrument::None);
                }
                for (v, c, x) in assigns {
                    let x = if c == E::True {
                        x
                    } else {
                        let vt = self.cfg.vars[v].ty;
                        E::Ite(vt, c.b(), x.b(), E::Var(v).b())
                    };
                    *cur = self.assign_edge(*cur, v, x);
                }
                Ok(())
            }
            Base::Dyn(obj) => {
                let a = self.stable(a, t, cur);
                let b = b.map(|b| self.stable(b, OFF_TY, cur));
                let site = self.dyn_site(obj, p, leaf, cur, span);
                let n = self.cfg.new_node();
                self.cfg.edge(*cur, n, Ins::Store(site, a, b));
                *cur = n;
                Ok(())
            }
        }
    }

    fn in_init(&self) -> bool {
        self.fn_stack.is_empty() || self.initializing > 0
    }

    /// A value fixed in a temporary unless it is a variable or a constant.
    fn stable(&mut self, x: E, t: Ty, cur: &mut usize) -> E {
        match x {
            E::Var(_) | E::Int(..) | E::Fp(..) | E::True | E::False => x,
            other => {
                let v = self.fresh_var("stored", t);
                self.cfg.vars[v].is_temp = true;
                *cur = self.assign_edge(*cur, v, other);
                E::Var(v)
            }
        }
    }

    /// The new values of the cells a write of `leaf` at `off` of `o` changes; `None` when
    /// the access does not lie inside the object.
    #[allow(clippy::too_many_arguments)]
    fn insert(
        &mut self,
        o: ObjId,
        off: i128,
        leaf: Leaf,
        a: &E,
        b: Option<&E>,
        cur: &mut usize,
        span: Span,
    ) -> R<Option<Vec<(usize, E)>>> {
        let ps = self.layouts.ptr_size();
        let size = leaf.size(ps) as i128;
        let obj = &self.objects[o.0];
        if off < 0 || off + size > obj.size as i128 {
            return Ok(None);
        }
        let off_u = off as usize;
        if let Some(c) = obj.cell_at(off_u).cloned() {
            match (c.kind, leaf) {
                (CellKind::Ptr(x, y), Leaf::Ptr) => {
                    return Ok(Some(vec![(x, a.clone()), (y, b.cloned().unwrap())]))
                }
                (CellKind::Scalar(u, v), Leaf::Scalar(t))
                    if Layouts::scalar_size(u) == size as usize =>
                {
                    let x = self.reinterpret(a.clone(), t, u, cur);
                    return Ok(Some(vec![(v, x)]));
                }
                _ => {}
            }
        }
        let Leaf::Scalar(t) = leaf else {
            return self.err(
                span,
                format!(
                    "writing a pointer over the bytes of `{}` is not supported",
                    obj.name
                ),
            );
        };
        let cells: Vec<Cell> = obj
            .overlapping(off_u, size as usize, ps)
            .into_iter()
            .cloned()
            .collect();
        let name = obj.name.clone();
        let u64t = Ty::Int {
            bits: 64,
            signed: false,
        };
        let val = self.bits_u64(a.clone(), t, cur);
        let val = self.stable(val, u64t, cur);
        let mut out = Vec::new();
        for c in cells {
            let CellKind::Scalar(u, v) = c.kind else {
                return self.err(
                    span,
                    format!("writing numbers over a pointer in `{name}` is not supported"),
                );
            };
            let cs = Layouts::scalar_size(u);
            let lo = c.off.max(off_u);
            let hi = (c.off + cs).min(off_u + size as usize);
            let len_bits = 8 * (hi - lo) as u32;
            let shift_c = 8 * (lo - c.off) as i128;
            let shift_v = 8 * (lo - off_u) as i128;
            let low_mask: u128 = if len_bits >= 64 {
                u64::MAX as u128
            } else {
                (1u128 << len_bits) - 1
            };
            let mask = (low_mask << shift_c) as u64;
            let old = self.bits_u64(E::Var(v), u, cur);
            let kept = E::Bin(BinOp::And, u64t, old.b(), E::Int(u64t, (!mask) as i128).b());
            let part = E::Bin(
                BinOp::And,
                u64t,
                E::Bin(BinOp::Shr, u64t, val.clone().b(), E::Int(u64t, shift_v).b()).b(),
                E::Int(u64t, low_mask as i128).b(),
            );
            let part = E::Bin(BinOp::Shl, u64t, part.b(), E::Int(u64t, shift_c).b());
            let nb = E::Bin(BinOp::Or, u64t, kept.b(), part.b());
            let w = Ty::Int {
                bits: (cs * 8) as u8,
                signed: false,
            };
            let nw = conv(nb, u64t, w);
            let nv = self.reinterpret(nw, w, u, cur);
            out.push((v, nv));
        }
        Ok(Some(out))
    }

    fn rv_tracked(&mut self, e: &Node<Expression>, cur: &mut usize) -> R<(Val, Effects)> {
        let n0 = self.cfg.nodes.len();
        let c0 = *cur;
        let k0 = self.cfg.nodes[c0].len();
        let r = self.rv(e, cur)?;
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
                Ins::Store(..) | Ins::CheckAccess(..) | Ins::Skip | Ins::Goal(_) => {}
            }
        }
        match &r {
            Val::S(x, _) => vars_of(x, &mut eff.r),
            Val::P(p) => {
                vars_of(&p.obj, &mut eff.r);
                vars_of(&p.off, &mut eff.r);
            }
            Val::Agg(..) => {}
        }
        Ok((r, eff))
    }

    /// Both operands of a binary operator, left to right, rejecting an order dependence.
    fn operands_v(
        &mut self,
        l: &Node<Expression>,
        r: &Node<Expression>,
        cur: &mut usize,
        span: Span,
    ) -> R<(Val, Val)> {
        if !has_effects(&l.node) && !has_effects(&r.node) {
            let a = self.rv(l, cur)?;
            let b = self.rv(r, cur)?;
            return Ok((a, b));
        }
        let (a, ea) = self.rv_tracked(l, cur)?;
        let (b, eb) = self.rv_tracked(r, cur)?;
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

    /// Lowers a scalar expression: side effects become edges from `cur` on; returns the value.
    pub fn expr(&mut self, e: &Node<Expression>, cur: &mut usize) -> R<(E, Ty)> {
        match self.rv(e, cur)? {
            Val::S(x, t) => Ok((x, t)),
            Val::P(p) => {
                // a pointer where a number is expected: only its truth value is supported
                let _ = p;
                self.err(
                    e.span,
                    "a pointer used as a number (only as a condition or in comparisons)",
                )
            }
            Val::Agg(_, t) => self.err(
                e.span,
                format!(
                    "a value of type `{}` used as a number",
                    self.layouts.name(&t)
                ),
            ),
        }
    }

    /// The value of an expression without array decay: `Some(type)` for an array.
    fn rv_nodecay(&mut self, e: &Node<Expression>, cur: &mut usize) -> R<(Val, Option<CType>)> {
        let lv = match &e.node {
            Expression::Identifier(i) => matches!(self.lookup(&i.node.name), Some(Binding::Obj(_))),
            Expression::Member(_) => true,
            Expression::BinaryOperator(b) => b.node.operator.node == BinaryOperator::Index,
            Expression::UnaryOperator(u) => u.node.operator.node == UnaryOperator::Indirection,
            _ => false,
        };
        if lv {
            let p = self.lvalue(e, cur)?;
            let t = self.place_cty(&p);
            if matches!(t, CType::Array(..)) {
                return Ok((Val::S(E::True, Ty::Void), Some(t)));
            }
            return Ok((self.read(&p, cur, e.span)?, None));
        }
        Ok((self.rv(e, cur)?, None))
    }

    /// Lowers an expression of any type: side effects become edges from `cur` on.
    fn rv(&mut self, e: &Node<Expression>, cur: &mut usize) -> R<Val> {
        match &e.node {
            Expression::Identifier(i) => match self.lookup(&i.node.name) {
                Some(Binding::Var(v)) => {
                    let ty = self.cfg.vars[v].ty;
                    Ok(Val::S(self.read_var(v, cur, e.span), ty))
                }
                Some(Binding::Const(c)) => Ok(Val::S(E::Int(INT, c), INT)),
                Some(Binding::Obj(o)) => {
                    let p = self.obj_place(o);
                    self.read(&p, cur, e.span)
                }
                Some(Binding::PtrConst(p)) => Ok(Val::P(p)),
                None => {
                    if self.functions.contains_key(&i.node.name) {
                        return Ok(Val::P(self.fn_ptr(&i.node.name)));
                    }
                    self.poisoned_use(&i.node.name, e.span)
                }
            },
            Expression::Constant(c) => {
                let (x, t) = self.constant(c)?;
                Ok(Val::S(x, t))
            }
            Expression::UnaryOperator(u) => self.unary(u, cur, e.span),
            Expression::Cast(c) => {
                let to = self.type_name(&c.node.type_name)?;
                if let (CType::S(t @ (Ty::F32 | Ty::F64)), Expression::Constant(k)) =
                    (&to, &c.node.expression.node)
                {
                    if let Constant::Float(f) = &k.node {
                        if matches!(f.suffix.format, FloatFormat::LongDouble) {
                            return match long_double_to(f, *t) {
                                Some(b) => Ok(Val::S(E::Fp(*t, b), *t)),
                                None => self.err(
                                    c.node.expression.span,
                                    "unsupported `long double` constant",
                                ),
                            };
                        }
                    }
                }
                let v = self.rv(&c.node.expression, cur)?;
                if to.is_void() {
                    return Ok(Val::S(E::True, Ty::Void));
                }
                if let (Val::S(x, t), CType::S(tt)) = (&v, &to) {
                    let x = self.convert_operand(
                        x.clone(),
                        *t,
                        *tt,
                        cur,
                        e.span,
                        Some(c.node.expression.span),
                    )?;
                    return Ok(Val::S(x, *tt));
                }
                self.cast_val(v, &to, cur, e.span)
            }
            Expression::BinaryOperator(b) => self.binary(b, cur, e.span),
            Expression::Member(_) => {
                let p = self.lvalue(e, cur)?;
                self.read(&p, cur, e.span)
            }
            Expression::CompoundLiteral(_) => {
                let p = self.lvalue(e, cur)?;
                self.read(&p, cur, e.span)
            }
            Expression::Conditional(c) => {
                let t = self.cfg.new_node();
                let f = self.cfg.new_node();
                self.decision(&c.node.condition, *cur, t, f)?;
                let mut tc = t;
                let a = self.rv(&c.node.then_expression, &mut tc)?;
                let mut fc = f;
                let b = self.rv(&c.node.else_expression, &mut fc)?;
                let join = self.cfg.new_node();
                match (a, b) {
                    (Val::S(a, ta), Val::S(b, tb)) => {
                        if ta == Ty::Void || tb == Ty::Void {
                            self.cfg.edge(tc, join, Ins::Skip);
                            self.cfg.edge(fc, join, Ins::Skip);
                            *cur = join;
                            return Ok(Val::S(E::True, Ty::Void));
                        }
                        let rt = arith_conv(ta, tb);
                        let tmp = self.fresh_var("cond", rt);
                        let a = self.convert(a, ta, rt, &mut tc, e.span)?;
                        let b = self.convert(b, tb, rt, &mut fc, e.span)?;
                        self.cfg.edge(tc, join, Ins::Assign(tmp, a));
                        self.cfg.edge(fc, join, Ins::Assign(tmp, b));
                        *cur = join;
                        Ok(Val::S(E::Var(tmp), rt))
                    }
                    (a, b) => {
                        // pointers (one may be a null pointer constant) or structs
                        let t = match (&a, &b) {
                            (Val::P(p), _) | (_, Val::P(p)) => CType::Ptr(Box::new(p.to.clone())),
                            (Val::Agg(_, t), _) => t.clone(),
                            _ => return self.err(e.span, "operands of `?:` of different kinds"),
                        };
                        let a = self.convert_val(a, &t, &mut tc, e.span)?;
                        let b = self.convert_val(b, &t, &mut fc, e.span)?;
                        match t {
                            CType::Ptr(to) => {
                                let ov = self.fresh_var("cond_obj", OBJ_TY);
                                let fv = self.fresh_var("cond_off", OFF_TY);
                                for (v, n) in [(a, tc), (b, fc)] {
                                    let Val::P(p) = v else { unreachable!() };
                                    let m = self.assign_edge(n, ov, p.obj);
                                    self.cfg.edge(m, join, Ins::Assign(fv, p.off));
                                }
                                *cur = join;
                                Ok(Val::P(PtrV {
                                    obj: E::Var(ov),
                                    off: E::Var(fv),
                                    to: *to,
                                }))
                            }
                            t => {
                                let o = self.new_object("cond", &t, false, e.span)?;
                                let place = self.obj_place(o);
                                let mut n1 = tc;
                                self.write(&place, a, &mut n1, e.span)?;
                                let mut n2 = fc;
                                self.write(&place, b, &mut n2, e.span)?;
                                self.cfg.edge(n1, join, Ins::Skip);
                                self.cfg.edge(n2, join, Ins::Skip);
                                *cur = join;
                                Ok(Val::Agg(place, t))
                            }
                        }
                    }
                }
            }
            Expression::Comma(es) => {
                let mut last = Val::S(E::True, Ty::Void);
                for x in es.iter() {
                    last = self.rv(x, cur)?;
                }
                Ok(last)
            }
            Expression::Call(c) => self.call(c, cur, e.span),
            Expression::SizeOfTy(t) => {
                let ty = self.type_name(&t.node.0)?;
                let s = self.size_of(&ty, e.span)?;
                let st = self.size_t();
                Ok(Val::S(E::Int(st, s), st))
            }
            Expression::SizeOfVal(x) => {
                let ty = self.type_of(&x.node.0)?;
                let s = self.size_of(&ty, e.span)?;
                let st = self.size_t();
                Ok(Val::S(E::Int(st, s), st))
            }
            Expression::AlignOf(t) => {
                let ty = self.type_name(&t.node.0)?;
                let a = self.layouts.align_of(&ty) as i128;
                let st = self.size_t();
                Ok(Val::S(E::Int(st, a), st))
            }
            Expression::OffsetOf(o) => {
                let ty = self.type_name(&o.node.type_name)?;
                let CType::Rec(r) = ty else {
                    return self.err(e.span, "`offsetof` of a type that is not a struct or union");
                };
                let Some((mut t, mut off)) = self
                    .layouts
                    .member(r, &o.node.designator.node.base.node.name)
                else {
                    return self.err(e.span, "`offsetof`: no such member");
                };
                for m in &o.node.designator.node.members {
                    match &m.node {
                        OffsetMember::Member(id) | OffsetMember::IndirectMember(id) => {
                            let CType::Rec(r2) = t else {
                                return self.err(m.span, "`offsetof`: not a struct");
                            };
                            let Some((t2, o2)) = self.layouts.member(r2, &id.node.name) else {
                                return self.err(m.span, "`offsetof`: no such member");
                            };
                            t = t2;
                            off += o2;
                        }
                        OffsetMember::Index(x) => {
                            let CType::Array(el, _) = t else {
                                return self.err(m.span, "`offsetof`: not an array");
                            };
                            let k = self.const_int(x)?;
                            off = (off as i128 + k * self.layouts.size_of(&el).unwrap_or(0) as i128)
                                as usize;
                            t = *el;
                        }
                    }
                }
                let st = self.size_t();
                Ok(Val::S(E::Int(st, off as i128), st))
            }
            Expression::Statement(s) => self.stmt_expr(s, cur),
            Expression::StringLiteral(s) => self.string_literal(&s.node, e.span),
            Expression::GenericSelection(_) => self.err(e.span, "`_Generic` is not supported"),
            _ => self.err(e.span, "unsupported expression"),
        }
    }

    /// A GNU statement expression `({ ...; e; })`: the value of its last expression statement.
    fn stmt_expr(&mut self, s: &Node<Statement>, cur: &mut usize) -> R<Val> {
        let Statement::Compound(items) = &s.node else {
            return self.err(s.span, "a statement expression must be a block");
        };
        self.scopes.push(HashMap::new());
        self.typedefs.push(HashMap::new());
        self.tags.push(HashMap::new());
        let r = (|| {
            let mut c = *cur;
            let mut last = Val::S(E::True, Ty::Void);
            for (k, it) in items.iter().enumerate() {
                match &it.node {
                    BlockItem::Statement(st) if k + 1 == items.len() => {
                        if let Statement::Expression(Some(x)) = &st.node {
                            last = self.rv(x, &mut c)?;
                            // a scalar is kept here, before anything after the block runs
                            if let Val::S(x, t) = last {
                                let x = if t == Ty::Void {
                                    x
                                } else {
                                    self.stable(x, t, &mut c)
                                };
                                last = Val::S(x, t);
                            }
                        } else {
                            c = self.stmt(st, c)?;
                        }
                    }
                    BlockItem::Statement(st) => c = self.stmt(st, c)?,
                    BlockItem::Declaration(d) => c = self.local_decl(d, c)?,
                    BlockItem::StaticAssert(_) => {}
                }
            }
            *cur = c;
            Ok(last)
        })();
        self.scopes.pop();
        self.typedefs.pop();
        self.tags.pop();
        r
    }

    /// The pointer to function `name`.
    fn fn_ptr(&mut self, name: &str) -> PtrV {
        let k = match self.fn_ids.iter().position(|f| f == name) {
            Some(k) => k,
            None => {
                self.fn_ids.push(name.to_string());
                self.fn_ids.len() - 1
            }
        };
        PtrV {
            obj: E::Int(OBJ_TY, FN_ID_BASE + k as i128),
            off: E::Int(OFF_TY, 0),
            to: CType::S(Ty::Void),
        }
    }

    /// Converts a value to type `to` as by assignment.
    fn convert_val(&mut self, v: Val, to: &CType, cur: &mut usize, span: Span) -> R<Val> {
        match (v, to) {
            (Val::S(x, t), CType::S(tt)) => Ok(Val::S(self.convert(x, t, *tt, cur, span)?, *tt)),
            (Val::S(x, t), CType::Bits { ty, .. }) => {
                if t.is_float() {
                    // C: undefined unless the value fits the bit-field's width
                    return self.err(
                        span,
                        "conversion of a floating-point value to a bit-field is not supported",
                    );
                }
                Ok(Val::S(self.convert(x, t, *ty, cur, span)?, *ty))
            }
            (Val::S(x, t), CType::Ptr(p)) => {
                if t.is_int() && fold_int(&x) == Some(0) {
                    return Ok(Val::P(null_ptr((**p).clone())));
                }
                self.err(
                    span,
                    "conversion of an integer to a pointer is not supported",
                )
            }
            (Val::P(pv), CType::Ptr(p)) => Ok(Val::P(PtrV {
                to: (**p).clone(),
                ..pv
            })),
            (Val::P(pv), CType::S(Ty::Bool)) => {
                Ok(Val::S(E::OfCond(Ty::Bool, ptr_nonnull(&pv).b()), Ty::Bool))
            }
            (Val::P(_), CType::S(_)) => self.err(
                span,
                "conversion of a pointer to an integer is not supported",
            ),
            (Val::Agg(p, t), to) if self.layouts.same(&t, to) => Ok(Val::Agg(p, t)),
            (v, to) => {
                let from = match &v {
                    Val::S(_, t) => t.c_name(),
                    Val::P(_) => "pointer".into(),
                    Val::Agg(_, t) => self.layouts.name(t),
                };
                self.err(
                    span,
                    format!(
                        "conversion from `{from}` to `{}` is not supported",
                        self.layouts.name(to)
                    ),
                )
            }
        }
    }

    /// An explicit cast to a non-scalar type.
    fn cast_val(&mut self, v: Val, to: &CType, cur: &mut usize, span: Span) -> R<Val> {
        match (&v, to) {
            (Val::P(_), CType::Ptr(_)) | (Val::S(..), CType::Ptr(_)) | (Val::P(_), CType::S(_)) => {
                self.convert_val(v, to, cur, span)
            }
            _ => self.convert_val(v, to, cur, span),
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
                let long_double = matches!(f.suffix.format, FloatFormat::LongDouble);
                let ty = match f.suffix.format {
                    FloatFormat::Float => Ty::F32,
                    FloatFormat::Double | FloatFormat::LongDouble => Ty::F64,
                    _ => return self.err(c.span, "this floating constant type is not supported"),
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
                    // a `long double` constant (glibc's `DBL_MAX` is `((double)1.79...e+308L)`)
                    // is taken as the double of the same value only when that is exact: then
                    // the 80-bit value and its conversion to double are that double too
                    Some(b) if long_double => {
                        let exact = f.base == FloatBase::Decimal
                            && f.number.starts_with(|c: char| c.is_ascii_digit())
                            && crate::hys::number::scan(&f.number).ok() == Some(f.number.len())
                            && crate::hys::number::exponent_bits(&f.number)
                                <= crate::hys::number::BIG_NUMBER_BITS
                            && solver::num::FpFormat::F64.to_rational(b)
                                == Some(crate::hys::number::value(&f.number));
                        if !exact {
                            return self.err(
                                c.span,
                                "a `long double` constant that is not exactly a double (x86 80-bit extended precision is not supported)",
                            );
                        }
                        Ok((E::Fp(ty, b), ty))
                    }
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

    fn unary(&mut self, u: &Node<UnaryOperatorExpression>, cur: &mut usize, span: Span) -> R<Val> {
        use UnaryOperator as U;
        let op = u.node.operator.node.clone();
        match op {
            U::PreIncrement | U::PreDecrement | U::PostIncrement | U::PostDecrement => {
                let place = self.lvalue(&u.node.operand, cur)?;
                let inc = matches!(op, U::PreIncrement | U::PostIncrement);
                if let CType::Ptr(to) = self.place_cty(&place) {
                    let Val::P(old) = self.read(&place, cur, span)? else {
                        unreachable!()
                    };
                    let old = self.freeze_ptr(old, cur);
                    let nv = self.ptr_add(
                        old.clone(),
                        E::Int(INT, if inc { 1 } else { -1 }),
                        INT,
                        span,
                    )?;
                    self.write(&place, Val::P(nv.clone()), cur, span)?;
                    let _ = to;
                    return Ok(Val::P(if matches!(op, U::PreIncrement | U::PreDecrement) {
                        nv
                    } else {
                        old
                    }));
                }
                let vt = self.place_ty(&place);
                if vt == Ty::Void {
                    return self.err(span, "++/-- of a value that is not a number or a pointer");
                }
                let Val::S(old, _) = self.read(&place, cur, span)? else {
                    unreachable!()
                };
                let bop = if inc { BinOp::Add } else { BinOp::Sub };
                if vt == Ty::Bool {
                    return self.err(span, "++/-- on _Bool is not supported");
                }
                // keep the old value for the postfix forms
                let saved = self.fresh_var("old", vt);
                *cur = self.assign_edge(*cur, saved, old);
                let (r, rt) = self.arith(bop, E::Var(saved), vt, E::Int(INT, 1), INT, cur, span)?;
                let nv = self.convert(r, rt, vt, cur, span)?;
                let nv = self.store_val(&place, Val::S(nv, vt), cur, span)?;
                if matches!(op, U::PreIncrement | U::PreDecrement) {
                    Ok(nv)
                } else {
                    Ok(Val::S(E::Var(saved), vt))
                }
            }
            U::Plus => {
                let (x, t) = self.expr(&u.node.operand, cur)?;
                self.scalar(t, span)?;
                let pt = promote(t);
                Ok(Val::S(conv(x, t, pt), pt))
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
                Ok(Val::S(E::Neg(pt, x.b()), pt))
            }
            U::Complement => {
                let (x, t) = self.expr(&u.node.operand, cur)?;
                if !t.is_int() {
                    return self.err(span, "~ needs an integer operand");
                }
                let pt = promote(t);
                Ok(Val::S(E::BitNot(pt, conv(x, t, pt).b()), pt))
            }
            U::Negate => {
                let b = self.cond_value(&u.node.operand, cur)?;
                Ok(Val::S(E::OfCond(INT, b.negate().b()), INT))
            }
            U::Address => {
                if let Expression::Identifier(i) = &u.node.operand.node {
                    if self.lookup(&i.node.name).is_none()
                        && self.functions.contains_key(&i.node.name)
                    {
                        return Ok(Val::P(self.fn_ptr(&i.node.name)));
                    }
                }
                let p = self.lvalue(&u.node.operand, cur)?;
                let t = self.place_cty(&p);
                if let CType::Bits { .. } = t {
                    return self.err(span, "the address of a bit-field");
                }
                Ok(Val::P(self.addr_of(&p, t)))
            }
            U::Indirection => {
                let v = self.rv(&u.node.operand, cur)?;
                let Val::P(p) = v else {
                    return self.err(span, "`*` of a value that is not a pointer");
                };
                if matches!(p.to, CType::Func(_))
                    || fold_int(&p.obj).is_some_and(|k| k >= FN_ID_BASE)
                {
                    return Ok(Val::P(p)); // `*f` of a function pointer is the function
                }
                let place = self.deref(p, cur, span)?;
                self.read(&place, cur, span)
            }
        }
    }

    /// `p + i` (pointer arithmetic in units of the pointed-to type).
    fn ptr_add(&mut self, p: PtrV, i: E, it: Ty, span: Span) -> R<PtrV> {
        let es = match &p.to {
            CType::S(Ty::Void) => 1, // GNU: void * arithmetic in bytes
            t => match self.layouts.size_of(t) {
                Some(s) => s as i128,
                None => return self.err(span, "arithmetic on a pointer to an incomplete type"),
            },
        };
        let term = match fold_int(&i) {
            Some(k) => E::Int(OFF_TY, k * es),
            None => E::Bin(
                BinOp::Mul,
                OFF_TY,
                conv(i, it, OFF_TY).b(),
                E::Int(OFF_TY, es).b(),
            ),
        };
        Ok(PtrV {
            obj: p.obj,
            off: add_off(p.off, term),
            to: p.to,
        })
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
        // in an integer constant expression (`-1` as an enumerator's value), a check between
        // two constants that cannot fire adds no goal (elsewhere it stays a goal, DEAD)
        if let (true, E::Cmp(rel, t, a, b)) = (self.const_eval > 0, &c) {
            if let (true, Some(x), Some(y)) = (t.is_int(), fold_int(a), fold_int(b)) {
                let holds = match rel {
                    Rel::Lt => x < y,
                    Rel::Le => x <= y,
                    Rel::Gt => x > y,
                    Rel::Ge => x >= y,
                    Rel::Eq => x == y,
                    Rel::Ne => x != y,
                };
                if !holds {
                    return;
                }
            }
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
    ) -> R<Val> {
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
                self.read(&p, cur, span)
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
                Ok(Val::S(E::Var(tmp), INT))
            }
            B::Less
            | B::Greater
            | B::LessOrEqual
            | B::GreaterOrEqual
            | B::Equals
            | B::NotEquals => {
                let (x, y) = self.operands_v(&b.node.lhs, &b.node.rhs, cur, span)?;
                let rel = match op {
                    B::Less => Rel::Lt,
                    B::Greater => Rel::Gt,
                    B::LessOrEqual => Rel::Le,
                    B::GreaterOrEqual => Rel::Ge,
                    B::Equals => Rel::Eq,
                    _ => Rel::Ne,
                };
                let c = match (x, y) {
                    (Val::S(x, tx), Val::S(y, ty)) => self.compare(rel, x, tx, y, ty, span)?,
                    (Val::P(p), Val::P(q)) => ptr_compare(rel, &p, &q),
                    (Val::P(p), Val::S(z, t)) | (Val::S(z, t), Val::P(p))
                        if t.is_int()
                            && fold_int(&z) == Some(0)
                            && matches!(rel, Rel::Eq | Rel::Ne) =>
                    {
                        let nn = ptr_nonnull(&p);
                        if rel == Rel::Eq {
                            nn.negate()
                        } else {
                            nn
                        }
                    }
                    _ => {
                        return self
                            .err(span, "comparison of a pointer with a number that is not 0")
                    }
                };
                Ok(Val::S(E::OfCond(INT, c.b()), INT))
            }
            B::Assign => {
                let place = self.lvalue(&b.node.lhs, cur)?;
                let vt = self.place_cty(&place);
                let v = if has_effects(&b.node.rhs.node) {
                    let (x, eb) = self.rv_tracked(&b.node.rhs, cur)?;
                    // the store is sequenced after both operands are evaluated: only a write
                    // of the same place (or of the index) by the right side is a problem
                    let mut ea = Effects::default();
                    for v in self.place_vars(&place) {
                        ea.r.insert(v);
                    }
                    let clash = eb.w.iter().any(|v| ea.r.contains(v));
                    if clash {
                        self.check_order(&eb, &ea, span)?;
                    }
                    x
                } else {
                    self.rv(&b.node.rhs, cur)?
                };
                let v = match (v, &vt) {
                    (Val::S(x, tx), CType::S(t)) => Val::S(
                        self.convert_operand(x, tx, *t, cur, span, Some(b.node.rhs.span))?,
                        *t,
                    ),
                    (v, _) => self.convert_val(v, &vt, cur, span)?,
                };
                self.store_val(&place, v, cur, span)
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
                    let vt = self.place_cty(&place);
                    let old = self.read(&place, cur, span)?;
                    let y = if has_effects(&b.node.rhs.node) {
                        let (y, eb) = self.rv_tracked(&b.node.rhs, cur)?;
                        let mut ea = Effects::default();
                        // the place is read before and written after the right side: only a
                        // write of it by the right side is a problem
                        for v in self.place_vars(&place) {
                            ea.r.insert(v);
                        }
                        self.check_order(&ea, &eb, span)?;
                        y
                    } else {
                        self.rv(&b.node.rhs, cur)?
                    };
                    let r = self.arith_val(aop, old, y, cur, span)?;
                    let nv = self.convert_val(r, &vt, cur, span)?;
                    self.store_val(&place, nv, cur, span)
                } else {
                    let (x, y) = self.operands_v(&b.node.lhs, &b.node.rhs, cur, span)?;
                    self.arith_val(aop, x, y, cur, span)
                }
            }
            _ => self.err(span, "unsupported operator"),
        }
    }

    /// One argument of a call, left to right: with `track`, its side effects must not clash
    /// with those of the arguments before it (`effs`), which C leaves unordered.
    fn arg_in_order(
        &mut self,
        a: &Node<Expression>,
        track: bool,
        effs: &mut Vec<Effects>,
        cur: &mut usize,
    ) -> R<Val> {
        if !track {
            return self.rv(a, cur);
        }
        let (v, eff) = self.rv_tracked(a, cur)?;
        for earlier in effs.iter() {
            self.check_order(earlier, &eff, a.span)?;
        }
        effs.push(eff);
        Ok(v)
    }

    /// Writes the value of an assignment expression and returns it (C: the value of the
    /// left operand after the assignment): the variable or cell written when there is one,
    /// so that no temporary (a state variable of the transition system) is needed.
    fn store_val(&mut self, place: &Place, v: Val, cur: &mut usize, span: Span) -> R<Val> {
        if let (CType::Bits { ty, bit, width }, Val::S(x, t)) = (self.place_cty(place), &v) {
            let nv = self.bits_store(place, x.clone(), *t, (ty, bit, width), cur, span)?;
            let nv = self.stable(nv, bits_value_ty(ty, width), cur);
            return Ok(Val::S(nv, bits_value_ty(ty, width)));
        }
        let Val::S(x, t) = v else {
            self.write(place, v.clone(), cur, span)?;
            return Ok(v);
        };
        let direct = match place {
            Place::Var(var) => Some(*var),
            Place::Mem {
                base: Base::Obj(o),
                konst,
                idx,
                raw: None,
                ..
            } if idx.is_empty() && *konst >= 0 => {
                match self.objects[o.0].cell_at(*konst as usize) {
                    Some(Cell {
                        kind: CellKind::Scalar(ct, var),
                        ..
                    }) if *ct == t && !self.volatile[*var] => Some(*var),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(var) = direct {
            self.write(place, Val::S(x, t), cur, span)?;
            return Ok(Val::S(E::Var(var), t));
        }
        let x = self.stable(x, t, cur);
        self.write(place, Val::S(x.clone(), t), cur, span)?;
        Ok(Val::S(x, t))
    }

    /// Arithmetic on values: numbers, or pointer ± integer and pointer − pointer.
    fn arith_val(&mut self, op: BinOp, x: Val, y: Val, cur: &mut usize, span: Span) -> R<Val> {
        match (x, y) {
            (Val::S(a, ta), Val::S(b, tb)) => {
                let (r, t) = self.arith(op, a, ta, b, tb, cur, span)?;
                Ok(Val::S(r, t))
            }
            (Val::P(p), Val::S(i, t)) if t.is_int() && matches!(op, BinOp::Add | BinOp::Sub) => {
                let it = promote(t);
                let i = conv(i, t, it);
                let i = if op == BinOp::Sub {
                    E::Neg(it, i.b())
                } else {
                    i
                };
                Ok(Val::P(self.ptr_add(p, i, it, span)?))
            }
            (Val::S(i, t), Val::P(p)) if t.is_int() && op == BinOp::Add => {
                let it = promote(t);
                Ok(Val::P(self.ptr_add(p, conv(i, t, it), it, span)?))
            }
            (Val::P(p), Val::P(q)) if op == BinOp::Sub => {
                let es = self.layouts.size_of(&p.to).unwrap_or(1).max(1) as i128;
                let pd = self.ptrdiff_t();
                let d = E::Bin(BinOp::Sub, OFF_TY, p.off.b(), q.off.b());
                let d = E::Bin(BinOp::Div, OFF_TY, d.b(), E::Int(OFF_TY, es).b());
                Ok(Val::S(conv(d, OFF_TY, pd), pd))
            }
            _ => self.err(
                span,
                "this operator is not supported on pointers or structs",
            ),
        }
    }

    fn ptrdiff_t(&mut self) -> Ty {
        self.cfg.model_sensitive = true;
        Ty::Int {
            bits: match self.model {
                DataModel::Lp64 => 64,
                DataModel::Ilp32 => 32,
            },
            signed: true,
        }
    }

    /// The variables a place may stand for (for the evaluation-order check).
    fn place_vars(&self, p: &Place) -> Vec<usize> {
        match p {
            Place::Var(v) => vec![*v],
            Place::Mem {
                base: Base::Obj(o),
                reads,
                konst,
                idx,
                raw: None,
                ty,
            } if idx.is_empty() => {
                // a constant offset: the cells the access overlaps
                let ps = self.layouts.ptr_size();
                let size = self.layouts.size_of(ty).unwrap_or(1);
                let mut out: Vec<usize> = self.objects[o.0]
                    .overlapping((*konst).max(0) as usize, size, ps)
                    .into_iter()
                    .flat_map(Cell::vars)
                    .collect();
                out.extend(reads.iter().copied());
                out
            }
            Place::Mem {
                base: Base::Obj(o),
                reads,
                ..
            } => {
                let mut out: Vec<usize> = self.objects[o.0]
                    .cells
                    .iter()
                    .flat_map(Cell::vars)
                    .collect();
                out.extend(reads.iter().copied());
                out
            }
            Place::Mem { reads, .. } => reads.clone(),
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

    fn call(&mut self, c: &Node<CallExpression>, cur: &mut usize, span: Span) -> R<Val> {
        let args = &c.node.arguments;
        if let Expression::Identifier(id) = &c.node.callee.node {
            if self.lookup(&id.node.name).is_none() {
                return self.call_named(&id.node.name, args, cur, span);
            }
        }
        // a call through a function pointer
        let p = match self.rv(&c.node.callee, cur)? {
            Val::P(p) => p,
            _ => return self.err(span, "a call of something that is not a function"),
        };
        if let Some(k) = fold_int(&p.obj) {
            if k >= FN_ID_BASE && ((k - FN_ID_BASE) as usize) < self.fn_ids.len() {
                let f = self.fn_ids[(k - FN_ID_BASE) as usize].clone();
                return self.call_named(&f, args, cur, span);
            }
            return self.err(
                span,
                "a call through a pointer that is not a function's address",
            );
        }
        // the targets: every function whose address the program takes, with as many
        // parameters as the call has arguments
        let mut cands: Vec<String> = self
            .addr_taken_fns
            .iter()
            .filter(|f| {
                self.functions
                    .get(*f)
                    .and_then(|fd| self.clone_params_len(fd))
                    .is_some_and(|n| n == args.len())
            })
            .cloned()
            .collect();
        cands.sort();
        if cands.is_empty() && self.tu.undefined_nondet() {
            // no known target: like a function defined nowhere (`--undefined-functions nondet`)
            let ret = match &p.to {
                CType::Func(ft) => ft.ret.clone(),
                _ => CType::S(INT),
            };
            for a in args {
                self.rv(a, cur)?;
            }
            let name = format!("(*{})", self.src.text_of(c.node.callee.span));
            let Some(rt) = ret.scalar() else {
                return self.err(span, format!("a call through `{name}`, whose targets are unknown, returning a non-scalar"));
            };
            if !self.cfg.undefined_fns.iter().any(|(n, _)| *n == name) {
                self.cfg.undefined_fns.push((name.clone(), rt));
            }
            if rt == Ty::Void {
                return Ok(Val::S(E::True, Ty::Void));
            }
            // not an input the harness can feed: the replay runs the real target
            let v = self.fresh_var("call_result", rt);
            self.havoc_input(v, format!("{name}()"), false, span, cur);
            return Ok(Val::S(E::Var(v), rt));
        }
        if cands.is_empty() {
            return self.err(span, "a call through a function pointer whose possible targets are unknown (no function with this many parameters has its address taken)");
        }
        if has_effects_any(args) {
            return self.err(span, "a call through a function pointer with side effects in its arguments is not supported");
        }
        let obj = self.stable(p.obj, OBJ_TY, cur);
        let join = self.cfg.new_node();
        let mut result: Option<(Val, Vec<usize>)> = None;
        let mut ok = E::False;
        for f in &cands {
            let id = match self.fn_ptr(f).obj {
                E::Int(_, k) => k,
                _ => unreachable!(),
            };
            let is = E::Cmp(Rel::Eq, OBJ_TY, obj.clone().b(), E::Int(OBJ_TY, id).b());
            ok = ok.or(is.clone());
            let mut c = self.cfg.new_node();
            self.cfg.edge(*cur, c, Ins::Assume(is));
            let v = self.call_named(f, args, &mut c, span)?;
            // the result, in the same variables whatever the target
            match (&v, &mut result) {
                (Val::S(x, t), None) => {
                    if *t != Ty::Void {
                        let r = self.fresh_var("call_result", *t);
                        c = self.assign_edge(c, r, x.clone());
                        result = Some((Val::S(E::Var(r), *t), vec![r]));
                    } else {
                        result = Some((Val::S(E::True, Ty::Void), vec![]));
                    }
                }
                (Val::S(x, t), Some((Val::S(_, rt), vs))) if !vs.is_empty() => {
                    let x = self.convert(x.clone(), *t, *rt, &mut c, span)?;
                    c = self.assign_edge(c, vs[0], x);
                }
                (Val::P(p), None) => {
                    let a = self.fresh_var("call_obj", OBJ_TY);
                    let b = self.fresh_var("call_off", OFF_TY);
                    c = self.assign_edge(c, a, p.obj.clone());
                    c = self.assign_edge(c, b, p.off.clone());
                    result = Some((
                        Val::P(PtrV { obj: E::Var(a), off: E::Var(b), to: p.to.clone() }),
                        vec![a, b],
                    ));
                }
                (Val::P(p), Some((Val::P(_), vs))) => {
                    c = self.assign_edge(c, vs[0], p.obj.clone());
                    c = self.assign_edge(c, vs[1], p.off.clone());
                }
                (Val::S(..), Some(_)) => {}
                _ => {
                    return self.err(span, "a call through a function pointer whose targets return structs or different kinds of values is not supported")
                }
            }
            self.cfg.edge(c, join, Ins::Skip);
        }
        // no valid target: undefined behaviour, the run ends
        let g = self.goal(GoalKind::Pointer, span.start, Instrument::None);
        let bad = self.cfg.new_node();
        self.cfg.edge(*cur, bad, Ins::Assume(ok.negate()));
        let stop = self.cfg.stop;
        let bad2 = self.cfg.new_node();
        self.cfg.edge(bad, bad2, Ins::Check(g, E::True));
        self.cfg.edge(bad2, stop, Ins::Skip);
        *cur = join;
        Ok(result.map(|r| r.0).unwrap_or(Val::S(E::True, Ty::Void)))
    }

    fn clone_params_len(&self, f: &Node<FunctionDefinition>) -> Option<usize> {
        let d = &f.node.declarator.node;
        d.derived.iter().rev().find_map(|x| match &x.node {
            DerivedDeclarator::Function(fd) => Some(
                fd.node
                    .parameters
                    .iter()
                    .filter(|p| {
                        p.node.declarator.is_some()
                            || !p.node.specifiers.iter().any(|s| {
                                matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if t.node == TypeSpecifier::Void)
                            })
                    })
                    .count(),
            ),
            DerivedDeclarator::KRFunction(ps) => Some(ps.len()),
            _ => None,
        })
    }

    /// A call of a named function: a definition (inlined), an error function, a nondet
    /// generator or a library function the front end knows.
    fn call_named(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        cur: &mut usize,
        span: Span,
    ) -> R<Val> {
        // an error function is the goal, a nondet function an input, even where the
        // program defines them (SV-COMP tasks define `int __VERIFIER_nondet_int() { int v;
        // return v; }`)
        if is_error_fn(name) || name.starts_with("__VERIFIER_nondet_") {
            let (x, t) = self.call_builtin(name, args, cur, span)?;
            return Ok(Val::S(x, t));
        }
        if let Some(f) = self.functions.get(name).copied() {
            return self.inline(name, f, args, cur, span);
        }
        match name {
            "memcpy" | "memmove" | "__builtin_memcpy" | "__builtin_memmove" => {
                return self.mem_copy(args, cur, span)
            }
            "memset" | "__builtin_memset" => return self.mem_set(args, cur, span),
            "memcmp" | "__builtin_memcmp" => return self.mem_cmp(args, cur, span),
            "printf" | "fprintf" | "puts" | "putchar" | "fputs" | "fputc" | "fflush"
            | "sprintf" | "snprintf" => {
                // output only (its value, a character count, is some int): the arguments are
                // evaluated, nothing the program can read changes
                if matches!(name, "sprintf" | "snprintf") {
                    return self.err(
                        span,
                        format!("`{name}` writes into program memory (not supported)"),
                    );
                }
                for a in args {
                    if !matches!(a.node, Expression::StringLiteral(_)) {
                        self.rv(a, cur)?;
                    }
                }
                let v = self.fresh_var(&format!("{name}_result"), INT);
                let n = self.cfg.new_node();
                self.cfg.edge(*cur, n, Ins::Forget(v));
                *cur = n;
                return Ok(Val::S(E::Var(v), INT));
            }
            "__builtin_expect" => {
                self.nargs(args, 2, span)?;
                let v = self.rv(&args[0], cur)?;
                self.rv(&args[1], cur)?;
                return Ok(v);
            }
            _ => {}
        }
        if let Some(v) = self.undefined_ptr_call(name, args, cur, span)? {
            return Ok(v);
        }
        let (x, t) = self.call_builtin(name, args, cur, span)?;
        Ok(Val::S(x, t))
    }

    /// The object a pointer argument of a function defined nowhere points to gets arbitrary
    /// contents (the function may write through it).
    fn havoc_pointee(&mut self, p: &PtrV, cur: &mut usize) {
        let note = "a function defined nowhere changes no variable of the program except the object a pointer argument points to when that object is known at the call".to_string();
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
        if let Some(k) = fold_int(&p.obj) {
            if k >= 1 && (k as usize) <= self.objects.len() {
                let o = ObjId(k as usize - 1);
                if !self.objects[o.0].is_const {
                    let place = self.obj_place(o);
                    self.forget_all(&place, cur);
                }
            }
        }
    }

    fn call_builtin(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        cur: &mut usize,
        span: Span,
    ) -> R<(E, Ty)> {
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
                ret_pos: self.src.pos(self.src.last_char_before(span.end)),
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
            n if Libm::from_c(n).is_some() => {
                let (f, ft, arity) = Libm::from_c(n).unwrap();
                self.nargs(args, arity, span)?;
                let mut xs = Vec::new();
                for a in args {
                    let (x, t) = self.expr(a, cur)?;
                    let x = self.convert(x, t, ft, cur, a.span)?;
                    xs.push(self.stable(x, ft, cur));
                }
                // the result: any value within the documented error bound of the exact one
                let y = self.fresh_var(&format!("{n}_result"), ft);
                let nd = self.cfg.new_node();
                self.cfg.edge(*cur, nd, Ins::Forget(y));
                *cur = nd;
                let within = E::LibmWithin(f, ft, xs, E::Var(y).b());
                let nd = self.cfg.new_node();
                self.cfg.edge(*cur, nd, Ins::Assume(within));
                *cur = nd;
                self.libm_used = true;
                Ok((E::Var(y), ft))
            }
            "__builtin_signbit" | "__builtin_signbitf" | "__signbit" | "__signbitf" | "signbit" => {
                self.nargs(args, 1, span)?;
                let (x, t) = self.expr(&args[0], cur)?;
                if !t.is_float() {
                    return self.err(span, format!("`{name}` of a non-float"));
                }
                let w = Ty::Int {
                    bits: t.bits() as u8,
                    signed: false,
                };
                let b = self.float_bits(x, t, cur);
                let sign = E::Bin(BinOp::Shr, w, b.b(), E::Int(w, t.bits() as i128 - 1).b());
                Ok((conv(sign, w, INT), INT))
            }
            "copysign" | "copysignf" => {
                self.nargs(args, 2, span)?;
                let ft = if name.ends_with('f') {
                    Ty::F32
                } else {
                    Ty::F64
                };
                let w = Ty::Int {
                    bits: ft.bits() as u8,
                    signed: false,
                };
                let sign_mask = 1i128 << (ft.bits() - 1);
                let mut bits = Vec::new();
                for a in args {
                    let (x, t) = self.expr(a, cur)?;
                    let x = self.convert(x, t, ft, cur, a.span)?;
                    bits.push(self.float_bits(x, ft, cur));
                }
                let mag = E::Bin(
                    BinOp::And,
                    w,
                    bits[0].clone().b(),
                    E::Int(w, sign_mask - 1).b(),
                );
                let sgn = E::Bin(BinOp::And, w, bits[1].clone().b(), E::Int(w, sign_mask).b());
                Ok((
                    E::FromBits(ft, E::Bin(BinOp::Or, w, mag.b(), sgn.b()).b()),
                    ft,
                ))
            }
            "floor" | "floorf" | "ceil" | "ceilf" | "trunc" | "truncf" | "round" | "roundf" => {
                self.nargs(args, 1, span)?;
                let ft = if name.ends_with('f') {
                    Ty::F32
                } else {
                    Ty::F64
                };
                let (x, t) = self.expr(&args[0], cur)?;
                let x = self.convert(x, t, ft, cur, span)?;
                let x = self.stable(x, ft, cur);
                Ok((rounding_fn(name.trim_end_matches('f'), ft, x), ft))
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
            "fmod" | "fmodf" => {
                self.nargs(args, 2, span)?;
                let ft = if name.ends_with('f') {
                    Ty::F32
                } else {
                    Ty::F64
                };
                let mut xs = Vec::new();
                for a in args {
                    let (x, t) = self.expr(a, cur)?;
                    let x = self.convert(x, t, ft, cur, a.span)?;
                    xs.push(self.stable(x, ft, cur));
                }
                let (x, y) = (xs[0].clone(), xs[1].clone());
                Ok((self.fmod(ft, x, y, cur), ft))
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

    /// `fmod(x, y)` (C11 7.12.10.1, IEEE 754: exact). NaN when `x` is infinite or NaN or `y`
    /// is NaN or zero; `x` itself when `y` is infinite or `|x| < |y|`; otherwise a value `r`
    /// with `|r| < |y|` and the sign of `x` (a zero too), and, when `|x| < 2|y|`, exactly
    /// `|x| - |y|` with the sign of `x` (the quotient is 1; Sterbenz: the difference is
    /// exact). Only these facts are stated: for larger quotients `r` is any such value.
    fn fmod(&mut self, ft: Ty, x: E, y: E, cur: &mut usize) -> E {
        let nan = match ft {
            Ty::F32 => E::Fp(Ty::F32, f32::NAN.to_bits() as u64),
            _ => E::Fp(Ty::F64, f64::NAN.to_bits()),
        };
        let z = zero(ft);
        let is_nan_case = E::IsNan(x.clone().b())
            .or(E::IsInf(x.clone().b()))
            .or(E::IsNan(y.clone().b()))
            .or(E::Cmp(Rel::Eq, ft, y.clone().b(), z.clone().b()));
        let ax = E::Fabs(ft, x.clone().b());
        let ay = E::Fabs(ft, y.clone().b());
        let keep_x =
            E::IsInf(y.clone().b()).or(E::Cmp(Rel::Lt, ft, ax.clone().b(), ay.clone().b()));
        let r = self.fresh_var("fmod_result", ft);
        let nd = self.cfg.new_node();
        self.cfg.edge(*cur, nd, Ins::Forget(r));
        *cur = nd;
        let rv = E::Var(r);
        let w = Ty::Int {
            bits: ft.bits() as u8,
            signed: false,
        };
        // r is no NaN below, so its canonical encoding is its encoding
        let r_neg = E::Cmp(
            Rel::Ge,
            w,
            E::Bits(ft, rv.clone().b()).b(),
            E::Int(w, 1i128 << (ft.bits() - 1)).b(),
        );
        let x_neg = E::Cmp(Rel::Lt, ft, x.clone().b(), z.b());
        let same_sign_as_x = x_neg
            .clone()
            .and(r_neg.clone())
            .or(x_neg.negate().and(r_neg.negate()));
        let two_ay = E::Bin(BinOp::Add, ft, ay.clone().b(), ay.clone().b());
        let quotient_one = E::Cmp(Rel::Lt, ft, ax.clone().b(), two_ay.b());
        // |x| - |y| with x's sign, exact here
        let diff = E::Bin(BinOp::Sub, ft, ax.b(), ay.clone().b());
        let r_abs = E::Fabs(ft, rv.clone().b());
        let exact = E::Cmp(Rel::Eq, ft, r_abs.clone().b(), diff.b());
        let facts = E::IsNan(rv.clone().b())
            .negate()
            .and(E::Cmp(Rel::Lt, ft, r_abs.b(), ay.b()))
            .and(same_sign_as_x)
            .and(quotient_one.negate().or(exact));
        let general = is_nan_case.clone().or(keep_x.clone()).negate();
        let nd = self.cfg.new_node();
        self.cfg
            .edge(*cur, nd, Ins::Assume(general.negate().or(facts)));
        *cur = nd;
        let v = E::Ite(
            ft,
            is_nan_case.b(),
            nan.b(),
            E::Ite(ft, keep_x.b(), x.b(), rv.b()).b(),
        );
        self.stable(v, ft, cur)
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
            "char" => i(8, !self.tu.unsigned_char()),
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

    /// `memcpy(d, s, n)` / `memmove` with a constant `n`: the bytes of `s` into `d` (exact,
    /// through the cells' bit patterns).
    fn mem_copy(&mut self, args: &[Node<Expression>], cur: &mut usize, span: Span) -> R<Val> {
        self.nargs(args, 3, span)?;
        let d = self.rv(&args[0], cur)?;
        let s = self.rv(&args[1], cur)?;
        let (n, nt) = self.expr(&args[2], cur)?;
        // a run-time size as a `size_t` (C converts the argument to the parameter's type)
        let n = if nt.is_int() && fold_int(&n).is_none() {
            let st = self.size_t();
            conv(n, nt, st)
        } else {
            n
        };
        let (Val::P(d), Val::P(s)) = (d, s) else {
            return self.err(span, "`memcpy` of something that is not a pointer");
        };
        let Some(n) = fold_int(&n) else {
            let d = self.freeze_ptr(d, cur);
            let s = self.freeze_ptr(s, cur);
            return self.mem_copy_var(d, s, n, cur, args[2].span);
        };
        let d = self.freeze_ptr(d, cur);
        let s = self.freeze_ptr(s, cur);
        let u8t = CType::S(Ty::Int {
            bits: 8,
            signed: false,
        });
        let dp = self.deref(
            PtrV {
                to: u8t.clone(),
                ..d.clone()
            },
            cur,
            span,
        )?;
        let sp = self.deref(PtrV { to: u8t, ..s }, cur, span)?;
        self.copy_bytes(&dp, &sp, n, cur, span)?;
        Ok(Val::P(d))
    }

    /// `memcmp(a, b, n)` with a constant `n`: the bytes compared as `unsigned char`, the
    /// first difference decides. C fixes only the sign of the result (glibc returns the
    /// difference of the two bytes on x86-64, other implementations ±1): the result is an
    /// arbitrary `int` of the right sign, 0 when all `n` bytes are equal.
    fn mem_cmp(&mut self, args: &[Node<Expression>], cur: &mut usize, span: Span) -> R<Val> {
        self.nargs(args, 3, span)?;
        let a = self.rv(&args[0], cur)?;
        let b = self.rv(&args[1], cur)?;
        let (n, nt) = self.expr(&args[2], cur)?;
        // a run-time size as a `size_t` (C converts the argument to the parameter's type)
        let n = if nt.is_int() && fold_int(&n).is_none() {
            let st = self.size_t();
            conv(n, nt, st)
        } else {
            n
        };
        let (Val::P(a), Val::P(b)) = (a, b) else {
            return self.err(span, "`memcmp` of something that is not a pointer");
        };
        let Some(n) = fold_int(&n) else {
            return self.err(
                args[2].span,
                "`memcmp` with a size that is not a constant is not supported",
            );
        };
        if !(0..=4096).contains(&n) {
            return self.err(
                args[2].span,
                "`memcmp` of more than 4096 bytes is not supported",
            );
        }
        let a = self.freeze_ptr(a, cur);
        let b = self.freeze_ptr(b, cur);
        let ap = self.deref(
            PtrV {
                to: CType::S(U8),
                ..a
            },
            cur,
            span,
        )?;
        let bp = self.deref(
            PtrV {
                to: CType::S(U8),
                ..b
            },
            cur,
            span,
        )?;
        let mut pairs = Vec::new();
        for k in 0..n {
            let (x, _) = self.load_leaf(
                &shift_place(&ap, k, CType::S(U8)),
                Leaf::Scalar(U8),
                cur,
                span,
            )?;
            let x = self.stable(x, U8, cur);
            let (y, _) = self.load_leaf(
                &shift_place(&bp, k, CType::S(U8)),
                Leaf::Scalar(U8),
                cur,
                span,
            )?;
            let y = self.stable(y, U8, cur);
            pairs.push((x, y));
        }
        // the sign (-1, 0, 1) of the first difference, from the last byte backwards
        let mut sign = E::Int(INT, 0);
        for (x, y) in pairs.into_iter().rev() {
            let lt = E::Cmp(Rel::Lt, U8, x.clone().b(), y.clone().b());
            let gt = E::Cmp(Rel::Gt, U8, x.b(), y.b());
            let inner = E::Ite(INT, gt.b(), E::Int(INT, 1).b(), sign.b());
            let s = E::Ite(INT, lt.b(), E::Int(INT, -1).b(), inner.b());
            sign = self.stable(s, INT, cur);
        }
        let r = self.fresh_var("memcmp_result", INT);
        let nd = self.cfg.new_node();
        self.cfg.edge(*cur, nd, Ins::Forget(r));
        *cur = nd;
        let zero_i = || E::Int(INT, 0).b();
        let same = |rel: Rel, x: E| E::Cmp(rel, INT, x.b(), zero_i());
        let ok = same(Rel::Eq, sign.clone())
            .and(same(Rel::Eq, E::Var(r)))
            .or(same(Rel::Lt, sign.clone()).and(same(Rel::Lt, E::Var(r))))
            .or(same(Rel::Gt, sign).and(same(Rel::Gt, E::Var(r))));
        let nd = self.cfg.new_node();
        self.cfg.edge(*cur, nd, Ins::Assume(ok));
        *cur = nd;
        Ok(Val::S(E::Var(r), INT))
    }

    /// `memcpy(d, s, n)` / `memmove` with a size known only at run time, between two known
    /// objects at constant offsets: every cell of `d`'s object that lies inside the first `n`
    /// bytes from `d` gets the source's bytes at the same distance from `s` (read before any
    /// write, so overlapping ranges behave as `memmove`); a cell that `n` cuts gets an
    /// arbitrary value; `n` beyond either object is an invalid access (never confirmed, so
    /// only DEAD or UNKNOWN).
    fn mem_copy_var(&mut self, d: PtrV, s: PtrV, n: E, cur: &mut usize, span: Span) -> R<Val> {
        let known = |p: &PtrV, objs: usize| match (fold_int(&p.obj), fold_int(&p.off)) {
            (Some(o), Some(k)) if o >= 1 && o as usize <= objs => Some((ObjId(o as usize - 1), k)),
            _ => None,
        };
        let objs = self.objects.len();
        let (Some((od, kd)), Some((os, ks))) = (known(&d, objs), known(&s, objs)) else {
            return self.err(
                span,
                "`memcpy` with a size that is not a constant, through a pointer whose target is not known, is not supported",
            );
        };
        if self.objects[od.0].is_const {
            return self.err(
                span,
                format!(
                    "a write into the const object `{}`",
                    self.objects[od.0].name
                ),
            );
        }
        let st = self.size_t();
        let n = self.stable(n, st, cur);
        let nn = conv(n, st, OFF_TY);
        let room_d = self.objects[od.0].size as i128 - kd;
        let room_s = self.objects[os.0].size as i128 - ks;
        let max = room_d.min(room_s).max(0);
        let bad = E::Cmp(Rel::Gt, OFF_TY, nn.clone().b(), E::Int(OFF_TY, max).b());
        self.check_with(GoalKind::Pointer, bad, cur, span, Instrument::None);
        let ps = self.layouts.ptr_size();
        let mut news: Vec<(usize, E)> = Vec::new();
        for cell in self.objects[od.0].cells.clone() {
            let (start, sz) = (cell.off as i128 - kd, cell.size(ps) as i128);
            if start + sz <= 0 || start >= max {
                continue;
            }
            let inside = start >= 0 && start + sz <= max;
            let whole = E::Cmp(
                Rel::Ge,
                OFF_TY,
                nn.clone().b(),
                E::Int(OFF_TY, start + sz).b(),
            );
            let cut = E::Cmp(
                Rel::Gt,
                OFF_TY,
                nn.clone().b(),
                E::Int(OFF_TY, start.max(0)).b(),
            );
            let leaf = match cell.kind {
                CellKind::Scalar(t, _) => Leaf::Scalar(t),
                CellKind::Ptr(..) => Leaf::Ptr,
            };
            let copied = if inside {
                self.extract(os, ks + start, leaf, cur, span)?
            } else {
                None
            };
            let vars = cell.vars();
            let parts: Vec<Option<E>> = match copied {
                Some((a, b)) => vec![Some(a), b],
                None => vec![None, None],
            };
            for (k, v) in vars.into_iter().enumerate() {
                let t = self.cfg.vars[v].ty;
                let any = self.fresh_var("memcpy_cut", t);
                let nd = self.cfg.new_node();
                self.cfg.edge(*cur, nd, Ins::Forget(any));
                *cur = nd;
                let partial = E::Ite(t, cut.clone().b(), E::Var(any).b(), E::Var(v).b());
                let nv = match parts.get(k).cloned().flatten() {
                    Some(x) => E::Ite(t, whole.clone().b(), x.b(), partial.b()),
                    None => partial,
                };
                let nv = self.stable(nv, t, cur);
                news.push((v, nv));
            }
        }
        for (v, x) in news {
            *cur = self.assign_edge(*cur, v, x);
        }
        Ok(Val::P(d))
    }

    /// Copies `n` bytes between two places, in the largest pieces the target's cells allow
    /// (all values are read before any is written: the ranges may overlap).
    fn copy_bytes(
        &mut self,
        dp: &Place,
        sp: &Place,
        n: i128,
        cur: &mut usize,
        span: Span,
    ) -> R<()> {
        // pieces: the target's cells when its object and offset are known, else bytes
        let mut pieces: Vec<(i128, Leaf)> = Vec::new();
        if let Place::Mem {
            base: Base::Obj(o),
            konst,
            idx,
            raw: None,
            ..
        } = dp
        {
            if idx.is_empty() {
                let ps = self.layouts.ptr_size();
                let mut at = 0i128;
                while at < n {
                    let off = (*konst + at) as usize;
                    let piece = self.objects[o.0].cell_at(off).and_then(|c| {
                        let sz = c.size(ps) as i128;
                        (at + sz <= n).then_some(match c.kind {
                            CellKind::Scalar(t, _) => (Leaf::Scalar(t), sz),
                            CellKind::Ptr(..) => (Leaf::Ptr, sz),
                        })
                    });
                    let (leaf, sz) = piece.unwrap_or((
                        Leaf::Scalar(Ty::Int {
                            bits: 8,
                            signed: false,
                        }),
                        1,
                    ));
                    pieces.push((at, leaf));
                    at += sz;
                }
            }
        }
        if pieces.is_empty() {
            if n > 4096 {
                return self.err(span, "a byte copy of more than 4096 bytes through an unknown pointer is not supported");
            }
            pieces = (0..n)
                .map(|k| {
                    (
                        k,
                        Leaf::Scalar(Ty::Int {
                            bits: 8,
                            signed: false,
                        }),
                    )
                })
                .collect();
        }
        let mut vals = Vec::new();
        for (at, leaf) in &pieces {
            let p = shift_place(sp, *at, leaf_cty(*leaf));
            let (a, b) = self.load_leaf(&p, *leaf, cur, span)?;
            let a = self.stable(a, leaf_ty(*leaf), cur);
            vals.push((a, b));
        }
        for ((at, leaf), (a, b)) in pieces.iter().zip(vals) {
            let p = shift_place(dp, *at, leaf_cty(*leaf));
            self.store_leaf(&p, *leaf, a, b, cur, span)?;
        }
        Ok(())
    }

    /// `memset(d, c, n)` with constants `c` and `n`.
    fn mem_set(&mut self, args: &[Node<Expression>], cur: &mut usize, span: Span) -> R<Val> {
        self.nargs(args, 3, span)?;
        let d = self.rv(&args[0], cur)?;
        let (c, _) = self.expr(&args[1], cur)?;
        let (n, nt) = self.expr(&args[2], cur)?;
        // a run-time size as a `size_t` (C converts the argument to the parameter's type)
        let n = if nt.is_int() && fold_int(&n).is_none() {
            let st = self.size_t();
            conv(n, nt, st)
        } else {
            n
        };
        let Val::P(d) = d else {
            return self.err(span, "`memset` of something that is not a pointer");
        };
        let Some(c) = fold_int(&c) else {
            return self.err(
                span,
                "`memset` with a value that is not a constant is not supported",
            );
        };
        let Some(n) = fold_int(&n) else {
            return self.mem_set_var(d, c, n, cur, span);
        };
        let byte = (c & 0xff) as u64;
        let d = self.freeze_ptr(d, cur);
        let u8t = CType::S(Ty::Int {
            bits: 8,
            signed: false,
        });
        let dp = self.deref(
            PtrV {
                to: u8t,
                ..d.clone()
            },
            cur,
            span,
        )?;
        let ps = self.layouts.ptr_size();
        let mut at = 0i128;
        while at < n {
            let cell = match &dp {
                Place::Mem {
                    base: Base::Obj(o),
                    konst,
                    idx,
                    raw: None,
                    ..
                } if idx.is_empty() => self.objects[o.0].cell_at((*konst + at) as usize).cloned(),
                _ => None,
            };
            let (leaf, sz) = match cell.map(|c| (c.size(ps) as i128, c.kind)) {
                Some((sz, CellKind::Scalar(t, _))) if at + sz <= n => (Leaf::Scalar(t), sz),
                Some((sz, CellKind::Ptr(..))) if at + sz <= n && byte == 0 => (Leaf::Ptr, sz),
                _ => (
                    Leaf::Scalar(Ty::Int {
                        bits: 8,
                        signed: false,
                    }),
                    1,
                ),
            };
            let mut pattern: u64 = 0;
            for _ in 0..sz {
                pattern = (pattern << 8) | byte;
            }
            let (a, b) = match leaf {
                Leaf::Ptr => (E::Int(OBJ_TY, 0), Some(E::Int(OFF_TY, 0))),
                Leaf::Scalar(t) if t.is_float() => (E::Fp(t, pattern), None),
                Leaf::Scalar(t) => {
                    let w = Ty::Int {
                        bits: (sz * 8) as u8,
                        signed: false,
                    };
                    (conv(E::Int(w, pattern as i128), w, t), None)
                }
            };
            let p = shift_place(&dp, at, leaf_cty(leaf));
            self.store_leaf(&p, leaf, a, b, cur, span)?;
            at += sz;
        }
        Ok(Val::P(d))
    }

    /// `memset(d, c, n)` with a size known only at run time, into a known object: every
    /// cell from `d` on is set when it lies inside the first `n` bytes (a cell `n` cuts is
    /// given an arbitrary value), and `n` beyond the object is an invalid access.
    fn mem_set_var(&mut self, d: PtrV, c: i128, n: E, cur: &mut usize, span: Span) -> R<Val> {
        let (Some(k), Some(o)) = (fold_int(&d.off), fold_int(&d.obj)) else {
            return self.err(span, "`memset` with a size that is not a constant, through a pointer whose target is not known, is not supported");
        };
        if o < 1 || o as usize > self.objects.len() {
            return self.err(span, "`memset` of something that is not an object");
        }
        let o = ObjId(o as usize - 1);
        let st = self.size_t();
        let n = self.stable(n, st, cur);
        let nn = conv(n, st, OFF_TY);
        let size = self.objects[o.0].size as i128;
        let bad = E::Cmp(
            Rel::Gt,
            OFF_TY,
            nn.clone().b(),
            E::Int(OFF_TY, (size - k).max(0)).b(),
        );
        self.check_with(GoalKind::Pointer, bad, cur, span, Instrument::None);
        let byte = (c & 0xff) as u64;
        let ps = self.layouts.ptr_size();
        for cell in self.objects[o.0].cells.clone() {
            let (start, sz) = (cell.off as i128 - k, cell.size(ps) as i128);
            if start + sz <= 0 {
                continue;
            }
            let whole = E::Cmp(
                Rel::Ge,
                OFF_TY,
                nn.clone().b(),
                E::Int(OFF_TY, start + sz).b(),
            );
            let cut = E::Cmp(
                Rel::Gt,
                OFF_TY,
                nn.clone().b(),
                E::Int(OFF_TY, start.max(0)).b(),
            )
            .and(whole.clone().negate());
            let mut pattern: u64 = 0;
            for _ in 0..sz {
                pattern = (pattern << 8) | byte;
            }
            let vars: Vec<(usize, E)> = match cell.kind {
                CellKind::Ptr(a, b) if byte == 0 => {
                    vec![(a, E::Int(OBJ_TY, 0)), (b, E::Int(OFF_TY, 0))]
                }
                CellKind::Ptr(..) => {
                    return self.err(
                        span,
                        "`memset` of a pointer with a non-zero byte is not supported",
                    )
                }
                CellKind::Scalar(t, v) if t.is_float() => vec![(v, E::Fp(t, pattern))],
                CellKind::Scalar(t, v) => {
                    let w = Ty::Int {
                        bits: (sz * 8) as u8,
                        signed: false,
                    };
                    vec![(v, conv(E::Int(w, pattern as i128), w, t))]
                }
            };
            for (v, x) in vars {
                let t = self.cfg.vars[v].ty;
                let any = self.fresh_var("memset_cut", t);
                let nd = self.cfg.new_node();
                self.cfg.edge(*cur, nd, Ins::Forget(any));
                *cur = nd;
                let nv = E::Ite(
                    t,
                    whole.clone().b(),
                    x.b(),
                    E::Ite(t, cut.clone().b(), E::Var(any).b(), E::Var(v).b()).b(),
                );
                *cur = self.assign_edge(*cur, v, nv);
            }
        }
        Ok(Val::P(d))
    }

    fn inline(
        &mut self,
        name: &str,
        f: &'a Node<FunctionDefinition>,
        args: &[Node<Expression>],
        cur: &mut usize,
        span: Span,
    ) -> R<Val> {
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
            let v = self.arg_in_order(a, track, &mut effs, cur)?;
            let v = match (v, pty) {
                (Val::S(x, t), CType::S(pt)) => Val::S(
                    self.convert_operand(x, t, *pt, cur, a.span, Some(a.span))?,
                    *pt,
                ),
                (v, pt) => self.convert_val(v, pt, cur, a.span)?,
            };
            let v = match v {
                Val::P(p) => Val::P(self.freeze_ptr(p, cur)),
                v => v,
            };
            vals.push(v);
        }
        self.inline_vals(name, f, &params, vals, &rt, cur, span)
    }

    /// Inlines `f` with its arguments already evaluated (converted to the parameter types).
    #[allow(clippy::too_many_arguments)]
    fn inline_vals(
        &mut self,
        name: &str,
        f: &'a Node<FunctionDefinition>,
        params: &[(String, CType, Span)],
        vals: Vec<Val>,
        rt: &CType,
        cur: &mut usize,
        span: Span,
    ) -> R<Val> {
        let caller_unit = self.enter_unit_of(f);
        let saved_scopes = std::mem::take(&mut self.scopes);
        self.scopes.push(saved_scopes[0].clone());
        self.scopes.push(HashMap::new());
        let saved_td = self.typedefs.split_off(1);
        let saved_tags = self.tags.split_off(1);
        let saved_b = std::mem::take(&mut self.breaks);
        let saved_c = std::mem::take(&mut self.continues);
        let saved_s = std::mem::take(&mut self.switches);
        self.labels.push(HashMap::new());
        let r = self.inline_body(name, f, params, vals, rt, cur, span);
        self.labels.pop();
        // globals declared or changed meanwhile stay visible (static locals are in `statics`)
        let mut restored = saved_scopes;
        restored[0] = self.scopes[0].clone();
        self.scopes = restored;
        self.typedefs.extend(saved_td);
        self.tags.extend(saved_tags);
        self.breaks = saved_b;
        self.continues = saved_c;
        self.switches = saved_s;
        self.switch_unit(caller_unit);
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn inline_body(
        &mut self,
        name: &str,
        f: &'a Node<FunctionDefinition>,
        params: &[(String, CType, Span)],
        vals: Vec<Val>,
        rt: &CType,
        cur: &mut usize,
        span: Span,
    ) -> R<Val> {
        for ((pname, pty, pspan), v) in params.iter().zip(vals) {
            let b = match (pty, v) {
                (CType::S(t), Val::S(x, _)) => {
                    let var = self.fresh_var(pname, *t);
                    *cur = self.assign_edge(*cur, var, x);
                    Binding::Var(var)
                }
                (CType::Ptr(_), Val::P(p)) if !name_is_written(&f.node.statement, pname) => {
                    Binding::PtrConst(p)
                }
                (t, v) => {
                    let o = self.new_object(pname, t, false, *pspan)?;
                    let place = self.obj_place(o);
                    self.write(&place, v, cur, span)?;
                    Binding::Obj(o)
                }
            };
            self.scopes.last_mut().unwrap().insert(pname.clone(), b);
        }
        let ret = match rt {
            CType::S(Ty::Void) => None,
            CType::S(t) => Some(RetSlot::Scalar(
                self.fresh_var(&format!("{name}_ret"), *t),
                *t,
            )),
            CType::Ptr(to) => Some(RetSlot::Ptr(
                self.fresh_var(&format!("{name}_ret.obj"), OBJ_TY),
                self.fresh_var(&format!("{name}_ret.off"), OFF_TY),
                (**to).clone(),
            )),
            t @ CType::Rec(_) => Some(RetSlot::Agg(
                self.new_object(&format!("{name}_ret"), t, false, span)?,
                t.clone(),
            )),
            _ => return self.err(span, format!("`{name}` returns an array or a function")),
        };
        let exit = self.cfg.new_node();
        if !self.cfg.lowered_fns.iter().any(|f| f == name) {
            self.cfg.lowered_fns.push(name.to_string());
        }
        self.fn_stack.push(FnCtx {
            name: name.to_string(),
            ret: ret.clone(),
            exit,
        });
        let r = self.stmt(&f.node.statement, *cur);
        self.fn_stack.pop();
        let end = r?;
        self.cfg.edge(end, exit, Ins::Skip);
        *cur = exit;
        Ok(match ret {
            Some(RetSlot::Scalar(v, t)) => Val::S(E::Var(v), t),
            Some(RetSlot::Ptr(a, b, to)) => Val::P(PtrV {
                obj: E::Var(a),
                off: E::Var(b),
                to,
            }),
            Some(RetSlot::Agg(o, t)) => Val::Agg(self.obj_place(o), t),
            None => Val::S(E::True, Ty::Void),
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
        | E::IsInf(a)
        | E::Bits(_, a)
        | E::FromBits(_, a) => e_size(a, acc),
        E::Load(..) => acc,
        E::LibmWithin(_, _, xs, y) => xs.iter().fold(e_size(y, acc), |a, x| e_size(x, a)),
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
        | E::IsInf(a)
        | E::Bits(_, a)
        | E::FromBits(_, a) => vars_of(a, out),
        E::Load(..) => {}
        E::LibmWithin(_, _, xs, y) => {
            for x in xs {
                vars_of(x, out);
            }
            vars_of(y, out);
        }
        E::Ite(_, c, a, b) => {
            vars_of(c, out);
            vars_of(a, out);
            vars_of(b, out);
        }
    }
}

#[derive(Default)]
struct DeclInfo {
    ty: CType,
    typedef: bool,
    is_static: bool,
    is_extern: bool,
    volatile: bool,
    is_const: bool,
    /// the type is an enum type (see `Lowerer::last_enum`)
    enum_fact: Option<Option<bool>>,
}

impl Default for CType {
    fn default() -> CType {
        CType::S(INT)
    }
}

impl Default for Ty {
    fn default() -> Ty {
        INT
    }
}

/// Is the record definition at `text[start..end]` packed? `__attribute__((packed))` on it or
/// on a member (up to the `;` that ends its declaration), or a `#pragma pack(N)` in effect
/// at its start (`push`/`pop` followed as gcc does). Returns the construct's spelling.
pub fn packed_layout(text: &str, start: usize, end: usize) -> Option<&'static str> {
    let stop = text[end.min(text.len())..]
        .find(';')
        .map_or(text.len(), |i| end + i);
    let decl = text.get(start..stop).unwrap_or("");
    let mut rest = decl;
    while let Some(i) = rest.find("__attribute__") {
        let after = &rest[i + "__attribute__".len()..];
        // the attribute list: up to the parenthesis that closes it
        let mut depth = 0usize;
        let mut len = after.len();
        for (k, ch) in after.char_indices() {
            match ch {
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        len = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        if after[..len].contains("packed") {
            return Some("`__attribute__((packed))`");
        }
        rest = &after[len..];
    }
    // #pragma pack: a stack of alignments; `pack(N)` sets, `pack()` resets, `push[, N]`
    // saves (and sets), `pop` restores
    let mut current: Option<u32> = None;
    let mut stack: Vec<Option<u32>> = Vec::new();
    for line in text.get(..start).unwrap_or("").lines() {
        let l = line.trim_start();
        let Some(arg) = l
            .strip_prefix('#')
            .map(str::trim_start)
            .and_then(|l| l.strip_prefix("pragma"))
            .map(str::trim_start)
            .and_then(|l| l.strip_prefix("pack"))
        else {
            continue;
        };
        let inner: String = arg
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')')
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let n = inner
            .split(',')
            .filter_map(|x| x.parse::<u32>().ok())
            .next_back();
        if inner.starts_with("push") {
            stack.push(current);
            if n.is_some() {
                current = n;
            }
        } else if inner.starts_with("pop") {
            current = stack.pop().unwrap_or(None);
        } else {
            current = n;
        }
    }
    current.map(|_| "`#pragma pack`")
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

/// `(double)C` / `(float)C` of a decimal `long double` constant `C`: the decimal rounded to
/// the x87 80-bit format (64-bit significand, to nearest), then to the target format (to
/// nearest): both roundings exact (MPFR), as gcc computes such a constant expression.
fn long_double_to(f: &lang_c::ast::Float, t: Ty) -> Option<u64> {
    if f.base != FloatBase::Decimal || f.suffix.imaginary {
        return None;
    }
    let text: &str = &f.number;
    if text.len() > 200 {
        return None;
    }
    let parsed = rug::Float::parse(text).ok()?;
    let x80 = rug::Float::with_val(64, parsed);
    if !x80.is_finite() {
        return None;
    }
    Some(match t {
        Ty::F32 => x80.to_f32().to_bits() as u64,
        _ => x80.to_f64().to_bits(),
    })
}

/// `floor`, `ceil`, `trunc`, `round` (half away from zero) of a float of type `t`, exactly:
/// below 2^52 (2^23) in magnitude through the truncation to a 64-bit integer (exact there),
/// from there on (and for zeros, infinities, NaN) the argument itself; a zero result has the
/// argument's sign, as C specifies.
fn rounding_fn(name: &str, t: Ty, x: E) -> E {
    let i64t = Ty::Int {
        bits: 64,
        signed: true,
    };
    let fp = |v: f64| match t {
        Ty::F32 => E::Fp(t, (v as f32).to_bits() as u64),
        _ => E::Fp(t, v.to_bits()),
    };
    let limit = if t == Ty::F32 {
        8388608.0
    } else {
        4503599627370496.0
    };
    let tr = conv(conv(x.clone(), t, i64t), i64t, t);
    let one = fp(1.0);
    let r = match name {
        "floor" => E::Ite(
            t,
            E::Cmp(Rel::Lt, t, x.clone().b(), tr.clone().b()).b(),
            E::Bin(BinOp::Sub, t, tr.clone().b(), one.b()).b(),
            tr.b(),
        ),
        "ceil" => E::Ite(
            t,
            E::Cmp(Rel::Gt, t, x.clone().b(), tr.clone().b()).b(),
            E::Bin(BinOp::Add, t, tr.clone().b(), one.b()).b(),
            tr.b(),
        ),
        "round" => {
            // x - trunc(x) is exact below 2^52
            let d = E::Bin(BinOp::Sub, t, x.clone().b(), tr.clone().b());
            E::Ite(
                t,
                E::Cmp(Rel::Ge, t, d.clone().b(), fp(0.5).b()).b(),
                E::Bin(BinOp::Add, t, tr.clone().b(), one.clone().b()).b(),
                E::Ite(
                    t,
                    E::Cmp(Rel::Le, t, d.b(), fp(-0.5).b()).b(),
                    E::Bin(BinOp::Sub, t, tr.clone().b(), one.b()).b(),
                    tr.b(),
                )
                .b(),
            )
        }
        _ => tr,
    };
    let small = E::Cmp(Rel::Lt, t, E::Fabs(t, x.clone().b()).b(), fp(limit).b()).and(E::Cmp(
        Rel::Ne,
        t,
        x.clone().b(),
        fp(0.0).b(),
    ));
    let signed_zero = E::Ite(
        t,
        E::Cmp(Rel::Lt, t, x.clone().b(), fp(0.0).b()).b(),
        fp(-0.0).b(),
        fp(0.0).b(),
    );
    let r = E::Ite(
        t,
        E::Cmp(Rel::Eq, t, r.clone().b(), fp(0.0).b()).b(),
        signed_zero.b(),
        r.b(),
    );
    E::Ite(t, small.b(), r.b(), x.b())
}

/// `a + b` on byte offsets, folding constants.
fn add_off(a: E, b: E) -> E {
    match (fold_int(&a), fold_int(&b)) {
        (Some(x), Some(y)) => E::Int(OFF_TY, x + y),
        (Some(0), _) => b,
        (_, Some(0)) => a,
        _ => E::Bin(BinOp::Add, OFF_TY, a.b(), b.b()),
    }
}

/// The place `by` bytes further, of type `ty`.
const U8: Ty = Ty::Int {
    bits: 8,
    signed: false,
};
const U64: Ty = Ty::Int {
    bits: 64,
    signed: false,
};

/// The type a bit-field's value has in an expression: gcc promotes a bit-field narrower
/// than `int` (of any declared integer type) to `int`; a wider one keeps its declared type.
fn bits_value_ty(ty: Ty, width: u8) -> Ty {
    if width < 32 {
        INT
    } else {
        ty
    }
}

fn shift_place(p: &Place, by: i128, ty: CType) -> Place {
    match p {
        Place::Mem {
            base,
            konst,
            idx,
            raw,
            reads,
            ..
        } => Place::Mem {
            base: base.clone(),
            konst: konst + by,
            idx: idx.clone(),
            raw: raw.clone(),
            ty,
            reads: reads.clone(),
        },
        Place::Var(v) => Place::Var(*v),
    }
}

fn leaf_ty(l: Leaf) -> Ty {
    match l {
        Leaf::Scalar(t) => t,
        Leaf::Ptr => OBJ_TY,
    }
}

fn leaf_cty(l: Leaf) -> CType {
    match l {
        Leaf::Scalar(t) => CType::S(t),
        Leaf::Ptr => CType::Ptr(Box::new(CType::S(Ty::Void))),
    }
}

fn null_ptr(to: CType) -> PtrV {
    PtrV {
        obj: E::Int(OBJ_TY, 0),
        off: E::Int(OFF_TY, 0),
        to,
    }
}

fn ptr_nonnull(p: &PtrV) -> E {
    match fold_int(&p.obj) {
        Some(0) => E::False,
        Some(_) => E::True,
        None => E::Cmp(Rel::Ne, OBJ_TY, p.obj.clone().b(), E::Int(OBJ_TY, 0).b()),
    }
}

/// Pointer comparison: equality compares object and offset; an order compares offsets
/// (C defines it only inside one object).
fn ptr_compare(rel: Rel, p: &PtrV, q: &PtrV) -> E {
    let same_obj = E::Cmp(Rel::Eq, OBJ_TY, p.obj.clone().b(), q.obj.clone().b());
    let same_obj = match (fold_int(&p.obj), fold_int(&q.obj)) {
        (Some(a), Some(b)) => {
            if a == b {
                E::True
            } else {
                E::False
            }
        }
        _ => same_obj,
    };
    let offs = E::Cmp(rel, OFF_TY, p.off.clone().b(), q.off.clone().b());
    match rel {
        Rel::Eq => same_obj.and(offs),
        Rel::Ne => same_obj.negate().or(offs),
        _ => offs,
    }
}

/// Is `name` assigned, incremented, decremented or its address taken in `s`? (Then it
/// cannot be bound to its initial value.)
fn name_is_written(s: &Node<Statement>, name: &str) -> bool {
    use lang_c::visit::Visit;
    struct W<'n> {
        name: &'n str,
        found: bool,
    }
    fn is_name(e: &Expression, n: &str) -> bool {
        matches!(e, Expression::Identifier(i) if i.node.name == n)
    }
    impl<'ast> Visit<'ast> for W<'_> {
        fn visit_binary_operator_expression(
            &mut self,
            b: &'ast BinaryOperatorExpression,
            span: &'ast Span,
        ) {
            use BinaryOperator as B;
            if matches!(
                b.operator.node,
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
            ) && is_name(&b.lhs.node, self.name)
            {
                self.found = true;
            }
            lang_c::visit::visit_binary_operator_expression(self, b, span);
        }
        fn visit_unary_operator_expression(
            &mut self,
            u: &'ast UnaryOperatorExpression,
            span: &'ast Span,
        ) {
            use UnaryOperator as U;
            if matches!(
                u.operator.node,
                U::PreIncrement
                    | U::PreDecrement
                    | U::PostIncrement
                    | U::PostDecrement
                    | U::Address
            ) && is_name(&u.operand.node, self.name)
            {
                self.found = true;
            }
            lang_c::visit::visit_unary_operator_expression(self, u, span);
        }
    }
    let mut w = W { name, found: false };
    w.visit_statement(&s.node, &s.span);
    w.found
}

/// Functions whose name is used other than as the callee of a direct call (their address
/// is taken: the targets of calls through function pointers).
fn functions_referenced(
    unit: &TranslationUnit,
    defined: &HashMap<String, &Node<FunctionDefinition>>,
) -> std::collections::BTreeSet<String> {
    use lang_c::visit::Visit;
    struct F<'d, 'a> {
        defined: &'d HashMap<String, &'a Node<FunctionDefinition>>,
        out: std::collections::BTreeSet<String>,
    }
    impl<'ast> Visit<'ast> for F<'_, '_> {
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
            if let Expression::Identifier(i) = e {
                if self.defined.contains_key(&i.node.name) {
                    self.out.insert(i.node.name.clone());
                }
            }
            lang_c::visit::visit_expression(self, e, span);
        }
        fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
            let _ = span;
            if !matches!(c.callee.node, Expression::Identifier(_)) {
                self.visit_expression(&c.callee.node, &c.callee.span);
            }
            for a in &c.arguments {
                self.visit_expression(&a.node, &a.span);
            }
        }
    }
    let mut f = F {
        defined,
        out: Default::default(),
    };
    f.visit_translation_unit(unit);
    f.out
}

fn has_effects_any(args: &[Node<Expression>]) -> bool {
    args.iter().any(|a| has_effects(&a.node))
}

/// The value of a simple integer constant expression (array designators when sizing).
fn const_eval_simple(e: &Expression) -> Option<i128> {
    match e {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) => {
                let s = i.number.as_ref();
                match i.base {
                    IntegerBase::Decimal => s.parse().ok(),
                    IntegerBase::Hexadecimal => i128::from_str_radix(s, 16).ok(),
                    IntegerBase::Octal => i128::from_str_radix(s, 8).ok(),
                    IntegerBase::Binary => i128::from_str_radix(s, 2).ok(),
                }
            }
            _ => None,
        },
        _ => None,
    }
}
