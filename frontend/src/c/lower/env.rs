//! The environment the analysed code runs in (`deadcode --step`, and the input globals of
//! `--function`): which file-scope cells the entry reads and writes (`Cfg::storage`,
//! `Cfg::param_cells`, from which `c::env` classifies inputs, parameters and state), and the
//! step environment itself: the C initializers, then the calibration parameters and the init
//! function once, then a loop that feeds the inputs and calls the step function.
//!
//! Every value the environment feeds is a harness input (a fed nondet site), read in one fixed
//! order that the replay harness (`replay::push_env_main`) repeats in C: global cells through
//! setter functions appended to the unit that can name them, scalar arguments, and the cells
//! of the objects pointer parameters point to.

use super::*;
use std::collections::HashSet;

/// What `c::env` decided the environment feeds.
#[derive(Clone, Debug, Default)]
pub struct EnvPlan {
    /// the step function (`looped`) or the analysed function
    pub step: String,
    pub init: Option<String>,
    /// a step function called in a loop; else one call after the inputs are fed
    pub looped: bool,
    /// global cells fed before each step (or once before the call): (unit, path)
    pub inputs: Vec<(usize, String)>,
    /// global cells fed once, before the init function
    pub params: Vec<(usize, String)>,
    /// per pointer parameter of the step function: the byte offsets of its object's cells
    /// fed before each step
    pub param_inputs: Vec<(usize, Vec<usize>)>,
    /// the cells (paths below the object, as in `ParamCell::rel`) the init function writes
    /// through a pointer parameter: in a step object it shares with the init function they
    /// are state, never fed
    pub init_written: Vec<String>,
}

/// One scalar cell of a file-scope variable.
struct ScopeCell {
    unit: usize,
    var: usize,
    path: String,
    ty: Option<Ty>,
    is_const: bool,
}

impl<'a> Lowerer<'a> {
    /// Every scalar cell of every file-scope variable of every unit (a variable linked into
    /// several units once, in the first).
    fn scope_cells(&self) -> Vec<ScopeCell> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for (k, scope) in self.unit_scopes().into_iter().enumerate() {
            let mut names: Vec<&String> = scope.keys().collect();
            names.sort();
            for name in names {
                match &scope[name] {
                    Binding::Var(v) if seen.insert(*v) => {
                        out.push(ScopeCell {
                            unit: k,
                            var: *v,
                            path: self.cfg.vars[*v].c_name.clone(),
                            ty: Some(self.cfg.vars[*v].ty),
                            is_const: false,
                        });
                    }
                    Binding::Obj(o) => {
                        let obj = &self.objects[o.0];
                        for c in &obj.cells {
                            let (v, ty) = match c.kind {
                                CellKind::Scalar(t, v) => (v, Some(t)),
                                CellKind::Ptr(ov, _) => (ov, None),
                            };
                            if !seen.insert(v) {
                                continue;
                            }
                            let name = &self.cfg.vars[v].c_name;
                            let path = match ty {
                                Some(_) => name.clone(),
                                None => name.strip_suffix(".obj").unwrap_or(name).to_string(),
                            };
                            out.push(ScopeCell {
                                unit: k,
                                var: v,
                                path,
                                ty,
                                is_const: obj.is_const,
                            });
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// Records which file-scope cells and parameter-object cells the code reachable from
    /// node `start` (the entry's body, after its parameters are set up) reads and writes.
    pub(super) fn record_storage(&mut self, start: usize, param_objs: &[(usize, ObjId, String)]) {
        let mut read = HashSet::new();
        let mut written = HashSet::new();
        let mut seen = vec![false; self.cfg.nodes.len()];
        let mut todo = vec![start];
        while let Some(n) = todo.pop() {
            if std::mem::replace(&mut seen[n], true) {
                continue;
            }
            for e in &self.cfg.nodes[n] {
                match &e.ins {
                    Ins::Assign(v, x) => {
                        // `v = c ? x : v` (a store through a pointer that may point elsewhere,
                        // as `resolve_dynamic` writes every candidate cell) may leave v as
                        // it is: not a write that makes v state (an input fed each step
                        // over-approximates a cell the unit only might write)
                        let maybe = matches!(x, E::Ite(_, _, _, e) if **e == E::Var(*v));
                        if !maybe {
                            written.insert(*v);
                        }
                        vars_of(x, &mut read);
                    }
                    Ins::Assume(x) | Ins::Check(_, x) => vars_of(x, &mut read),
                    Ins::Havoc(v, _) | Ins::Forget(v) => {
                        written.insert(*v);
                    }
                    _ => {}
                }
                if !seen[e.to] {
                    todo.push(e.to);
                }
            }
        }
        let cells = self.scope_cells();
        self.cfg.storage = cells
            .into_iter()
            .map(|c| StorageCell {
                unit: c.unit,
                read: read.contains(&c.var),
                written: written.contains(&c.var),
                volatile: self.volatile[c.var],
                path: c.path,
                var: c.var,
                ty: c.ty,
                is_const: c.is_const,
            })
            .collect();
        let mut pcs = Vec::new();
        for (k, o, name) in param_objs {
            let prefix = format!("*{name}");
            for c in &self.objects[o.0].cells {
                let (v, ty) = match c.kind {
                    CellKind::Scalar(t, v) => (v, Some(t)),
                    CellKind::Ptr(ov, _) => (ov, None),
                };
                let cn = &self.cfg.vars[v].c_name;
                let cn = if ty.is_none() {
                    cn.strip_suffix(".obj").unwrap_or(cn)
                } else {
                    cn
                };
                pcs.push(ParamCell {
                    param: *k,
                    name: name.clone(),
                    rel: cn.strip_prefix(&prefix).unwrap_or(cn).to_string(),
                    off: c.off,
                    ty,
                    read: read.contains(&v),
                    written: written.contains(&v),
                });
            }
        }
        self.cfg.param_cells = pcs;
    }

    /// Feeds the global cells `keys` from the next inputs (one setter function each in the
    /// replay); returns the setters' names.
    fn feed_globals(
        &mut self,
        keys: &[(usize, String)],
        kind: &str,
        span: Span,
        cur: &mut usize,
        env: &mut EnvHarness,
    ) -> R<Vec<String>> {
        let cells = self.scope_cells();
        let mut names = Vec::new();
        for (unit, path) in keys {
            let Some(c) = cells.iter().find(|c| c.unit == *unit && &c.path == path) else {
                return self.err(
                    span,
                    format!("the environment's {kind} `{path}` is not a variable of the program"),
                );
            };
            let Some(t) = c.ty.filter(|_| !c.is_const) else {
                return self.err(
                    span,
                    format!("the environment's {kind} `{path}` is a pointer or const: not fed"),
                );
            };
            let name = format!("__icpic3_{kind}{}", env.setters.len());
            env.setters
                .push((*unit, name.clone(), setter_text(&name, path, t)));
            self.havoc_input(c.var, format!("{kind} {path}"), true, span, cur);
            names.push(name);
        }
        Ok(names)
    }

    /// `--function`: the input globals, fed once before the parameters.
    pub(super) fn function_env(&mut self, plan: &EnvPlan, span: Span, cur: &mut usize) -> R<()> {
        let mut env = EnvHarness {
            step: plan.step.clone(),
            ..Default::default()
        };
        let names = self.feed_globals(&plan.inputs, "input", span, cur, &mut env)?;
        env.step_feeds = names.into_iter().map(StepFeed::Global).collect();
        env.step_names = plan.inputs.iter().map(|x| x.1.clone()).collect();
        self.cfg.env = Some(env);
        Ok(())
    }

    /// `--step`: the whole environment, from the node after the C initializers. Never
    /// returns to `stop` (a run ends only by `exit`/`abort` or a failed assumption).
    pub(super) fn step_env(&mut self, plan: &EnvPlan, mut cur: usize) -> R<()> {
        let Some(f) = self.functions.get(&plan.step).copied() else {
            return Err(self
                .src
                .err(0, format!("no function `{}` is defined", plan.step)));
        };
        let span = f.node.declarator.span;
        let mut env = EnvHarness {
            step: plan.step.clone(),
            init: plan.init.clone(),
            looped: true,
            ..Default::default()
        };
        // the step function's pointer parameters: objects that live across steps, with
        // arbitrary initial contents
        let params = self.in_unit_of(f, |l| l.params(f))?;
        let mut objs: Vec<Option<(ObjId, CType)>> = Vec::new();
        for (name, ty, pspan) in &params {
            match ty {
                CType::S(t) => {
                    self.cfg.entry_shapes.push(ParamShape::Scalar(*t));
                    objs.push(None);
                }
                CType::Ptr(to) if !matches!(**to, CType::Func(_)) => {
                    let (o, shape) = self.fresh_input_object(
                        &format!("*{name}"),
                        to,
                        *pspan,
                        &mut cur,
                        0,
                        true,
                    )?;
                    self.cfg.entry_shapes.push(ParamShape::Pointer(shape));
                    objs.push(Some((o, (**to).clone())));
                }
                _ => {
                    return self.err(
                        *pspan,
                        format!("parameter `{name}` of step function `{}`: only scalar and object-pointer parameters are supported", plan.step),
                    )
                }
            }
        }
        self.cfg.entry_params = params
            .iter()
            .map(|p| p.1.scalar().unwrap_or(Ty::Void))
            .collect();
        self.cfg.entry_ret = self
            .in_unit_of(f, |l| l.ret_type(f))?
            .scalar()
            .unwrap_or(Ty::Void);
        // calibration parameters: one value for the whole run
        env.param_setters = self.feed_globals(&plan.params, "param", span, &mut cur, &mut env)?;
        // the init function, once; a pointer argument whose pointee type is that of a step
        // parameter gets that parameter's object (the unit's context struct)
        if let Some(iname) = &plan.init {
            let Some(fi) = self.functions.get(iname).copied() else {
                return self.err(span, format!("no init function `{iname}` is defined"));
            };
            let ips = self.in_unit_of(fi, |l| l.params(fi))?;
            let irt = self.in_unit_of(fi, |l| l.ret_type(fi))?;
            let mut vals = Vec::new();
            let mut used = vec![false; objs.len()];
            for (name, ty, pspan) in &ips {
                match ty {
                    CType::S(t) => {
                        let v = self.fresh_var(name, *t);
                        self.havoc_input(
                            v,
                            format!("init argument {name}"),
                            true,
                            *pspan,
                            &mut cur,
                        );
                        env.init_args.push(InitArg::Scalar(*t));
                        vals.push(Val::S(E::Var(v), *t));
                    }
                    CType::Ptr(to) if !matches!(**to, CType::Func(_)) => {
                        let shared = objs.iter().enumerate().position(|(k, x)| {
                            !used[k]
                                && x.as_ref().is_some_and(|(_, t)| self.layouts.same(t, to))
                        });
                        let o = match shared {
                            Some(k) => {
                                used[k] = true;
                                env.init_args.push(InitArg::StepObj(k));
                                objs[k].as_ref().map(|x| x.0).unwrap_or(ObjId(0))
                            }
                            None => {
                                let (o, shape) = self.fresh_input_object(
                                    &format!("*{name}"),
                                    to,
                                    *pspan,
                                    &mut cur,
                                    0,
                                    true,
                                )?;
                                env.init_args.push(InitArg::Fresh(shape));
                                o
                            }
                        };
                        vals.push(Val::P(PtrV {
                            obj: E::Int(OBJ_TY, o.ptr_id()),
                            off: E::Int(OFF_TY, 0),
                            to: (**to).clone(),
                        }));
                    }
                    _ => {
                        return self.err(
                            *pspan,
                            format!("parameter `{name}` of init function `{iname}`: only scalar and object-pointer parameters are supported"),
                        )
                    }
                }
            }
            self.inline_vals(iname, fi, &ips, vals, &irt, &mut cur, span)?;
        }
        let setup_sites = self.cfg.nondets.len();
        // each step: fresh inputs, then one call
        let head = self.cfg.new_node();
        self.cfg.loop_head[head] = true;
        self.cfg.edge(cur, head, Ins::Skip);
        cur = head;
        let names = self.feed_globals(&plan.inputs, "input", span, &mut cur, &mut env)?;
        env.step_feeds = names.into_iter().map(StepFeed::Global).collect();
        let mut vals = Vec::new();
        for (k, (name, ty, pspan)) in params.iter().enumerate() {
            match (&objs[k], ty) {
                (None, CType::S(t)) => {
                    let v = self.fresh_var(name, *t);
                    self.havoc_input(v, format!("argument {name}"), true, *pspan, &mut cur);
                    env.step_feeds.push(StepFeed::Arg(k, *t));
                    vals.push(Val::S(E::Var(v), *t));
                }
                (Some((o, to)), _) => {
                    let offs = plan
                        .param_inputs
                        .iter()
                        .find(|x| x.0 == k)
                        .map(|x| x.1.clone())
                        .unwrap_or_default();
                    let shared = env
                        .init_args
                        .iter()
                        .any(|a| matches!(a, InitArg::StepObj(j) if *j == k));
                    let prefix = format!("*{name}");
                    for off in offs {
                        let cell = self.objects[o.0].cells.iter().find(|c| c.off == off);
                        if let Some(Cell {
                            kind: CellKind::Scalar(_, v),
                            ..
                        }) = cell
                        {
                            let cn = &self.cfg.vars[*v].c_name;
                            let rel = cn.strip_prefix(&prefix).unwrap_or(cn);
                            if shared && plan.init_written.iter().any(|r| r == rel) {
                                continue;
                            }
                        }
                        if let Some(Cell {
                            kind: CellKind::Scalar(t, v),
                            ..
                        }) = cell.cloned()
                        {
                            let what = self.cfg.vars[v].c_name.clone();
                            self.havoc_input(v, format!("input {what}"), true, *pspan, &mut cur);
                            env.step_feeds.push(StepFeed::Cell(k, off, t));
                        }
                    }
                    vals.push(Val::P(PtrV {
                        obj: E::Int(OBJ_TY, o.ptr_id()),
                        off: E::Int(OFF_TY, 0),
                        to: to.clone(),
                    }));
                }
                _ => unreachable!("a parameter is a scalar or has an object"),
            }
        }
        let step_sites = self.cfg.nondets.len();
        let rt = self.in_unit_of(f, |l| l.ret_type(f))?;
        let step = plan.step.clone();
        self.inline_vals(&step, f, &params, vals, &rt, &mut cur, span)?;
        self.cfg.edge(cur, head, Ins::Skip);
        let name = |s: &NondetSite| s.what.clone();
        env.setup_names = self.cfg.nondets[..setup_sites]
            .iter()
            .filter(|s| s.fed)
            .map(name)
            .collect();
        env.step_names = self.cfg.nondets[setup_sites..step_sites]
            .iter()
            .filter(|s| s.fed)
            .map(name)
            .collect();
        env.other_inputs = self.cfg.nondets[step_sites..].iter().any(|s| s.fed);
        self.cfg.env = Some(env);
        Ok(())
    }
}

/// A setter function of the replay: `void NAME(void) { PATH = next input; }` (a word of a
/// union, `u@4`, is written with `memcpy` at its byte offset). Only built-in type names: the
/// unit need not include `<stdint.h>`.
fn setter_text(name: &str, path: &str, t: Ty) -> String {
    let (n, rt) = super::super::replay::nondet_fn(t);
    let ct = plain_c_type(t);
    let body = match path.split_once('@') {
        Some((lv, off)) => format!(
            "{{ {ct} v = ({ct})__VERIFIER_nondet_{n}(); __builtin_memcpy((unsigned char *)&({lv}) + {off}, &v, sizeof v); }}"
        ),
        None => format!("{{ {path} = ({ct})__VERIFIER_nondet_{n}(); }}"),
    };
    format!("\n{rt} __VERIFIER_nondet_{n}(void);\nvoid {name}(void) {body}\n")
}

/// The C name of a scalar type with built-in types only.
pub fn plain_c_type(t: Ty) -> &'static str {
    match t {
        Ty::Void => "void",
        Ty::Bool => "_Bool",
        Ty::F32 => "float",
        Ty::F64 => "double",
        Ty::Int { bits: 8, signed } => ["unsigned char", "signed char"][signed as usize],
        Ty::Int { bits: 16, signed } => ["unsigned short", "short"][signed as usize],
        Ty::Int { bits: 32, signed } => ["unsigned int", "int"][signed as usize],
        Ty::Int { signed, .. } => ["unsigned long long", "long long"][signed as usize],
    }
}
