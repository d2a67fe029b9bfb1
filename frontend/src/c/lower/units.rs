//! Several translation units in one lowering: the preprocessed texts of the units are one
//! concatenated text (one [`Source`], one syntax tree) and `Units::starts` records where each
//! unit begins. File-scope names (variables, enumerators, typedefs, `static` functions) are
//! per unit: the lowerer's outermost scope is swapped when it enters a function of another
//! unit. Names with external linkage are linked after the file-scope pass: every unit that
//! declares an object without `static` sees the one definition (the initialised one, else the
//! first tentative one), and sees every function defined without `static` in any unit.
//!
//! Calls of functions no unit defines are an error, or (`--undefined-functions nondet`) return
//! a nondeterministic value of the prototype's return type (`Units::undefined_nondet`).

use super::*;

/// How the syntax tree is split into translation units.
#[derive(Clone, Debug, Default)]
pub struct Units {
    /// byte offset in the concatenated text where each unit starts (ascending; the first is 0)
    pub starts: Vec<usize>,
    /// a call of a function defined in no unit returns a nondeterministic value
    pub undefined_nondet: bool,
    /// plain `char` is unsigned (`--target arm32`, gcc's `-funsigned-char`)
    pub unsigned_char: bool,
    /// ARM EABI layout: `double` and 64-bit integers aligned to 8 in structs (`--target arm32`)
    pub arm_eabi: bool,
}

type Proto<'a> = (&'a Node<Declaration>, &'a Node<InitDeclarator>);

pub(super) struct TuState<'a> {
    starts: Vec<usize>,
    undefined_nondet: bool,
    unsigned_char: bool,
    /// the unit whose file scope is in the lowerer's `scopes[0]`, `typedefs[0]`, `functions`
    cur: usize,
    /// the file scopes of the other units (the current unit's slot is empty)
    scopes: Vec<HashMap<String, Binding>>,
    typedefs: Vec<HashMap<String, CType>>,
    tags: Vec<HashMap<String, RecId>>,
    functions: Vec<HashMap<String, &'a Node<FunctionDefinition>>>,
    /// function prototypes per unit
    protos: Vec<HashMap<String, Proto<'a>>>,
}

impl TuState<'_> {
    pub(super) fn new(u: &Units) -> Self {
        let n = u.starts.len().max(1);
        TuState {
            starts: if u.starts.is_empty() {
                vec![0]
            } else {
                u.starts.clone()
            },
            undefined_nondet: u.undefined_nondet,
            unsigned_char: u.unsigned_char,
            cur: 0,
            scopes: vec![HashMap::new(); n],
            typedefs: vec![HashMap::new(); n],
            tags: vec![HashMap::new(); n],
            functions: vec![HashMap::new(); n],
            protos: vec![HashMap::new(); n],
        }
    }

    /// Do calls of functions defined nowhere return nondeterministic values?
    pub(super) fn undefined_nondet(&self) -> bool {
        self.undefined_nondet
    }

    /// Is plain `char` unsigned?
    pub(super) fn unsigned_char(&self) -> bool {
        self.unsigned_char
    }

    /// The unit that holds byte `off` of the concatenated text.
    pub(super) fn unit_of(&self, off: usize) -> usize {
        self.starts.partition_point(|&s| s <= off).saturating_sub(1)
    }
}

fn has_storage(specs: &[Node<DeclarationSpecifier>], c: StorageClassSpecifier) -> bool {
    specs
        .iter()
        .any(|s| matches!(&s.node, DeclarationSpecifier::StorageClass(x) if x.node == c))
}

fn is_function_declarator(d: &Declarator) -> bool {
    d.derived.iter().any(|x| {
        matches!(
            x.node,
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
        )
    })
}

impl<'a> Lowerer<'a> {
    /// Makes unit `k`'s file scope the lowerer's outermost scope.
    pub(super) fn switch_unit(&mut self, k: usize) {
        let c = self.tu.cur;
        if k == c || k >= self.tu.scopes.len() {
            return;
        }
        self.tu.scopes[c] = std::mem::take(&mut self.scopes[0]);
        self.scopes[0] = std::mem::take(&mut self.tu.scopes[k]);
        self.tu.typedefs[c] = std::mem::take(&mut self.typedefs[0]);
        self.typedefs[0] = std::mem::take(&mut self.tu.typedefs[k]);
        self.tu.tags[c] = std::mem::take(&mut self.tags[0]);
        self.tags[0] = std::mem::take(&mut self.tu.tags[k]);
        self.tu.functions[c] = std::mem::take(&mut self.functions);
        self.functions = std::mem::take(&mut self.tu.functions[k]);
        self.tu.cur = k;
    }

    /// The file scope of every unit, in unit order.
    pub(super) fn unit_scopes(&self) -> Vec<&HashMap<String, Binding>> {
        (0..self.tu.scopes.len())
            .map(|k| {
                if k == self.tu.cur {
                    &self.scopes[0]
                } else {
                    &self.tu.scopes[k]
                }
            })
            .collect()
    }

    /// Enters the unit that defines `f`; returns the unit to go back to.
    pub(super) fn enter_unit_of(&mut self, f: &Node<FunctionDefinition>) -> usize {
        let back = self.tu.cur;
        let k = self.tu.unit_of(f.span.start);
        self.switch_unit(k);
        back
    }

    /// Runs `g` in the unit that defines `f` (its parameter types name that unit's typedefs).
    pub(super) fn in_unit_of<T>(
        &mut self,
        f: &Node<FunctionDefinition>,
        g: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let back = self.enter_unit_of(f);
        let r = g(self);
        self.switch_unit(back);
        r
    }

    /// After the file-scope pass: the functions each unit sees, its prototypes, the linking
    /// of objects with external linkage, and the unit of `entry` made the current one.
    pub(super) fn link_units(&mut self, unit: &'a TranslationUnit, entry: &str) -> R<()> {
        let n = self.tu.scopes.len();
        self.switch_unit(0);
        let mut external: HashMap<String, &'a Node<FunctionDefinition>> = HashMap::new();
        let mut local: Vec<HashMap<String, &'a Node<FunctionDefinition>>> = vec![HashMap::new(); n];
        // per object name with external linkage: (unit, has initializer, is extern)
        let mut objects: HashMap<String, Vec<(usize, bool, bool)>> = HashMap::new();
        let mut order: Vec<String> = Vec::new();
        for d in &unit.0 {
            let k = self.tu.unit_of(d.span.start);
            match &d.node {
                ExternalDeclaration::FunctionDefinition(f) => {
                    let name = declarator_name(&f.node.declarator.node).unwrap_or_default();
                    if has_storage(&f.node.specifiers, StorageClassSpecifier::Static) {
                        local[k].insert(name, f);
                    } else {
                        external.entry(name).or_insert(f);
                    }
                }
                ExternalDeclaration::Declaration(decl) => {
                    let specs = &decl.node.specifiers;
                    if has_storage(specs, StorageClassSpecifier::Typedef) {
                        continue;
                    }
                    let is_static = has_storage(specs, StorageClassSpecifier::Static);
                    let is_extern = has_storage(specs, StorageClassSpecifier::Extern);
                    for id in &decl.node.declarators {
                        let dec = &id.node.declarator.node;
                        let Some(name) = declarator_name(dec) else {
                            continue;
                        };
                        if is_function_declarator(dec) {
                            self.tu.protos[k].entry(name).or_insert((decl, id));
                        } else if !is_static {
                            let e = objects.entry(name.clone()).or_default();
                            if e.is_empty() {
                                order.push(name);
                            }
                            e.push((k, id.node.initializer.is_some(), is_extern));
                        }
                    }
                }
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        for (k, loc) in local.into_iter().enumerate() {
            let mut vis = external.clone();
            vis.extend(loc);
            if k == self.tu.cur {
                self.functions = vis;
            } else {
                self.tu.functions[k] = vis;
            }
        }
        // one object per external name: the unit of its initialised definition, else of its
        // first tentative definition, else the first unit that declares it
        for name in order {
            let decls = &objects[&name];
            let src = decls
                .iter()
                .find(|d| d.1)
                .or_else(|| decls.iter().find(|d| !d.2))
                .unwrap_or(&decls[0])
                .0;
            let Some(b) = self.unit_scope(src).get(&name).cloned() else {
                continue;
            };
            for &(k, _, _) in decls {
                if k != src {
                    self.unit_scope_mut(k).insert(name.clone(), b.clone());
                }
            }
        }
        // the unit of the entry function: the one that defines it without `static`, else the
        // only one that defines it as `static`
        if !external.contains_key(entry) {
            let with: Vec<usize> = (0..n)
                .filter(|&k| {
                    let fns = if k == self.tu.cur {
                        &self.functions
                    } else {
                        &self.tu.functions[k]
                    };
                    fns.contains_key(entry)
                })
                .collect();
            if with.len() > 1 {
                return Err(self.src.err(
                    0,
                    format!("`{entry}` is a `static` function of several translation units; the entry must be unique"),
                ));
            }
            if let Some(&k) = with.first() {
                self.switch_unit(k);
            }
        } else if let Some(f) = external.get(entry) {
            let k = self.tu.unit_of(f.span.start);
            self.switch_unit(k);
        }
        Ok(())
    }

    fn unit_scope(&self, k: usize) -> &HashMap<String, Binding> {
        if k == self.tu.cur {
            &self.scopes[0]
        } else {
            &self.tu.scopes[k]
        }
    }

    fn unit_scope_mut(&mut self, k: usize) -> &mut HashMap<String, Binding> {
        if k == self.tu.cur {
            &mut self.scopes[0]
        } else {
            &mut self.tu.scopes[k]
        }
    }

    /// A call of a function that no unit defines (and that is not a built-in).
    pub(super) fn undefined_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        cur: &mut usize,
        span: Span,
    ) -> R<(E, Ty)> {
        if !self.tu.undefined_nondet {
            return self.err(
                span,
                format!("call of `{name}`, which no input file defines (give the file that defines it, or --undefined-functions nondet)"),
            );
        }
        let Some((decl, id)) = self.tu.protos[self.tu.cur].get(name).copied() else {
            // no prototype: C90's implicit declaration `int name()` (C99 removed it, and
            // gcc warns, but code such as `rand()` without <stdlib.h> still builds)
            for a in args {
                self.rv(a, cur)?;
            }
            if !self.cfg.undefined_fns.iter().any(|(n, _)| n == name) {
                self.cfg.undefined_fns.push((name.to_string(), INT));
            }
            let v = self.fresh_var(&format!("{name}_result"), INT);
            self.havoc_input(v, format!("{name}()"), true, span, cur);
            return Ok((E::Var(v), INT));
        };
        let ret = match self.decl_specs(&decl.node.specifiers, decl.span)?.ty {
            CType::S(t) => t,
            _ => {
                return self.err(
                    id.span,
                    format!(
                    "`{name}` returns a struct or union (not supported for an undefined function)"
                ),
                )
            }
        };
        let dec = &id.node.declarator.node;
        let [d] = dec.derived.as_slice() else {
            return self.err(
                id.span,
                format!("`{name}` returns a pointer or array (not supported)"),
            );
        };
        // parameter types (none known for `f()`: the arguments keep their promoted types)
        let mut ptys: Option<Vec<Ty>> = None;
        if let DerivedDeclarator::Function(fd) = &d.node {
            if fd.node.ellipsis == Ellipsis::Some {
                return self.err(d.span, format!("`{name}` is variadic (not supported)"));
            }
            let mut ps = Vec::new();
            for p in &fd.node.parameters {
                let info = self.decl_specs(&p.node.specifiers, p.span)?;
                if let Some(pd) = &p.node.declarator {
                    if !pd.node.derived.is_empty() {
                        // a pointer parameter: its argument is not converted (below)
                        ps.push(Ty::Void);
                        continue;
                    }
                }
                match info.ty {
                    CType::S(Ty::Void) => {}
                    CType::S(t) => ps.push(t),
                    _ => {
                        return self.err(
                            p.span,
                            "struct or union parameters of an undefined function are not supported",
                        )
                    }
                }
            }
            if ps.len() != args.len() {
                return self.err(
                    span,
                    format!(
                        "`{name}` takes {} argument(s), {} given",
                        ps.len(),
                        args.len()
                    ),
                );
            }
            ptys = Some(ps);
        }
        // the arguments are evaluated (their side effects and checks), left to right
        let track = args.iter().any(|a| has_effects(&a.node));
        let mut effs: Vec<Effects> = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if matches!(a.node, Expression::StringLiteral(_)) {
                continue;
            }
            let v = self.arg_in_order(a, track, &mut effs, cur)?;
            let (x, t) = match v {
                Val::S(x, t) => (x, t),
                Val::P(p) => {
                    // it may write through the pointer
                    self.havoc_pointee(&p, cur);
                    continue;
                }
                Val::Agg(..) => {
                    return self.err(
                        a.span,
                        "a struct argument of an undefined function is not supported",
                    )
                }
            };
            if let Some(pt) = ptys.as_ref().and_then(|p| p.get(i)) {
                if *pt != Ty::Void {
                    self.convert_operand(x, t, *pt, cur, a.span, Some(a.span))?;
                }
            }
        }
        if !self.cfg.undefined_fns.iter().any(|(n, _)| n == name) {
            self.cfg.undefined_fns.push((name.to_string(), ret));
        }
        if ret == Ty::Void {
            return Ok((E::True, Ty::Void));
        }
        let v = self.fresh_var(&format!("{name}_result"), ret);
        let site = self.cfg.nondets.len();
        self.cfg.nondets.push(NondetSite {
            var: v,
            ty: ret,
            what: format!("{name}()"),
            fed: true,
            pos: self.src.pos(span.start),
            ret_pos: self.src.pos(self.src.last_char_before(span.end)),
        });
        let n = self.cfg.new_node();
        self.cfg.edge(*cur, n, Ins::Havoc(v, site));
        *cur = n;
        Ok((E::Var(v), ret))
    }
}

impl<'a> Lowerer<'a> {
    /// A call of a function defined nowhere whose prototype returns a pointer
    /// (`--undefined-functions nondet`): `None` when that is not the case. The result is NULL
    /// or a pointer to a fresh object of the pointed-to type with arbitrary contents (what
    /// `fopen` or an allocator returns; a function returning a pointer to an existing object
    /// is not modelled: stated in the report). Every object passed to it through a pointer
    /// gets arbitrary contents (it may write through the pointer).
    pub(super) fn undefined_ptr_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        cur: &mut usize,
        span: Span,
    ) -> R<Option<Val>> {
        if !self.tu.undefined_nondet {
            return Ok(None);
        }
        let Some((decl, id)) = self.tu.protos[self.tu.cur].get(name).copied() else {
            return Ok(None);
        };
        let base = self.decl_specs(&decl.node.specifiers, decl.span)?.ty;
        let CType::Func(ft) = self.derive_type(base, &id.node.declarator.node)? else {
            return Ok(None);
        };
        let CType::Ptr(to) = ft.ret.clone() else {
            return Ok(None);
        };
        for a in args {
            if matches!(a.node, Expression::StringLiteral(_)) {
                continue;
            }
            if let Val::P(p) = self.rv(a, cur)? {
                self.havoc_pointee(&p, cur);
            }
        }
        let to = match *to {
            CType::S(Ty::Void) | CType::Func(_) => CType::S(Ty::Int {
                bits: 8,
                signed: false,
            }),
            t => t,
        };
        let o = self.new_object(&format!("{name}_result"), &to, false, span)?;
        self.exposed.insert(o);
        let place = self.obj_place(o);
        self.forget_all(&place, cur);
        let choice = self.fresh_var(&format!("{name}_nonnull"), Ty::Bool);
        let n = self.cfg.new_node();
        self.cfg.edge(*cur, n, Ins::Forget(choice));
        *cur = n;
        let nonnull = E::Cmp(
            Rel::Ne,
            Ty::Bool,
            E::Var(choice).b(),
            E::Int(Ty::Bool, 0).b(),
        );
        let note =
            format!("`{name}` (defined nowhere) returns NULL or a pointer to a fresh object");
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
        Ok(Some(Val::P(PtrV {
            obj: E::Ite(
                OBJ_TY,
                nonnull.b(),
                E::Int(OBJ_TY, o.ptr_id()).b(),
                E::Int(OBJ_TY, 0).b(),
            ),
            off: E::Int(OFF_TY, 0),
            to,
        })))
    }
}
