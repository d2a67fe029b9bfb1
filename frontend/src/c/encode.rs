//! Large-block encoding of a [`Cfg`] into a `.hys` transition system.
//!
//! Cut points are the entry, every loop head and the stop location; a program counter `pc`
//! names them. One transition executes one loop-free segment from a cut point to the next:
//! the segment's paths are executed symbolically (in topological order, with `ite` merges
//! where paths join), so one step is one formula over the current variables, fresh nondet
//! inputs and the next variables. Two Boolean flags record what the step did: `hit` (one
//! of the selected goals was reached) and `ub` (a selected undefined-behaviour check fired);
//! TARGET is `hit or ub`.

use super::cfg::*;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::Write;

/// Which goals the system looks for.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// goals that set `hit`
    pub hit: Vec<usize>,
    /// undefined-behaviour checks that set `ub`
    pub ub: Vec<usize>,
}

/// The nondet sites of one block, in execution order, with the names of their value and
/// guard variables.
#[derive(Clone, Debug)]
pub struct BlockSites {
    pub sites: Vec<(usize, String, String)>,
}

#[derive(Clone, Debug)]
pub struct Encoded {
    pub hys: String,
    /// per pc value: the block's nondet sites
    pub blocks: Vec<BlockSites>,
    pub pc_stop: usize,
}

/// Value expressions longer than this are stored in a temporary variable. Temporaries are
/// defined on every path of the block, which makes the solver compute them even where they
/// are not used (measured: a 2-step trace of examples/c/mode_switch.c took 11 s with fp64
/// temporaries at 160 characters, 1 ms with expressions kept inline), so values are shared
/// only when they get very long.
const SHARE_LEN: usize = 4000;
/// Values of the translation's own temporaries (large sub-expressions) longer than this.
const SHARE_TEMP_LEN: usize = 300;
/// Conditions longer than this are stored in a Boolean temporary (cheap for the solver).
const SHARE_BOOL_LEN: usize = 160;

struct Enc<'a> {
    cfg: &'a Cfg,
    decls: Vec<String>,
    trans: String,
    temps: usize,
    pc_of: HashMap<usize, usize>,
    sel_hit: Vec<bool>,
    sel_ub: Vec<bool>,
    /// the guard of the current block (`pc = K`)
    guard: String,
}

type Env = BTreeMap<usize, String>;

struct Contribution {
    cond: String,
    env: Env,
}

fn hex_float(v: f64) -> String {
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let mant = bits & ((1u64 << 52) - 1);
    if exp == 0 {
        format!("0x0.{mant:013x}p-1022")
    } else {
        format!("0x1.{mant:013x}p{:+}", exp - 1023)
    }
}

/// A float constant of type `t` as `.hys` text (exact).
/// The `.hys` condition of [`E::LibmWithin`]. glibc documents at most 2 ulps on x86-64 for
/// these functions in round-to-nearest ("Known Maximum Errors in Math Functions"); the bound
/// used is 8 ulps of the exact value's binade (2^-49 · |f| for double, 2^-20 · |f| for
/// float) plus 8 of the smallest subnormals, so it holds with a margin. It is stated only
/// where the arguments are finite and inside the function's domain and |f| is below
/// 2^1020 (2^124): elsewhere (NaN, infinities, overflow, poles) the result is unconstrained.
fn libm_within(f: Libm, t: Ty, xs: &[String], y: &str) -> String {
    let r: Vec<String> = xs.iter().map(|x| format!("to_real({x})")).collect();
    let exact = match f {
        Libm::Sin => format!("sin({})", r[0]),
        Libm::Cos => format!("cos({})", r[0]),
        Libm::Tan => format!("tan({})", r[0]),
        // no inverse trigonometric functions among the solver's: unconstrained below
        Libm::Asin | Libm::Acos | Libm::Atan | Libm::Atan2 => String::new(),
        Libm::Exp => format!("exp({})", r[0]),
        Libm::Log => format!("log({})", r[0]),
        Libm::Log2 => format!("log2({})", r[0]),
        Libm::Log10 => format!("log10({})", r[0]),
        // x^y = exp(y log x) for x > 0 (the solver's pow takes constant exponents only)
        Libm::Pow => format!("exp({} * log({}))", r[1], r[0]),
        Libm::Hypot => format!("sqrt({} ^ 2 + {} ^ 2)", r[0], r[1]),
    };
    let finite: Vec<String> = xs
        .iter()
        .map(|x| format!("(not isnan({x}) and not isinf({x}))"))
        .collect();
    let domain = match f {
        Libm::Log | Libm::Log2 | Libm::Log10 => format!("({} > 0)", r[0]),
        Libm::Asin | Libm::Acos => format!("({0} >= -1 and {0} <= 1)", r[0]),
        Libm::Pow => format!("({} > 0)", r[0]),
        _ => "true".into(),
    };
    let (rel, tiny, big) = match t {
        Ty::F32 => (
            "0.00000095367431640625",
            "0.000000000000000000000000000000000000000000012",
            "2^124",
        ),
        _ => (
            "0.000000000000001776356839400250464677810668945312",
            "4e-323",
            "2^1020",
        ),
    };
    if exact.is_empty() {
        // unconstrained: sound, but such a result never helps to prove anything
        let _ = (finite, domain, rel, tiny, big, exact, y);
        return "true".into();
    }
    format!(
        "((not ({fin} and {domain})) or (abs({exact}) >= {big}) or (not isnan({y}) and not isinf({y}) and abs(to_real({y}) - {exact}) <= {rel} * abs({exact}) + {tiny}))",
        fin = finite.join(" and ")
    )
}

pub fn fp_const(t: Ty, bits: u64) -> String {
    let (f, v) = match t {
        Ty::F32 => ("to_fp32", f32::from_bits(bits as u32) as f64),
        _ => ("to_fp64", f64::from_bits(bits)),
    };
    if v.is_nan() {
        return format!("({f}(0) / {f}(0))");
    }
    if v.is_infinite() {
        return if v > 0.0 {
            format!("({f}(1) / {f}(0))")
        } else {
            format!("(-({f}(1) / {f}(0)))")
        };
    }
    let body = if v == 0.0 {
        format!("{f}(0.0)")
    } else {
        format!("{f}({})", hex_float(v.abs()))
    };
    if v.is_sign_negative() {
        format!("(-{body})")
    } else {
        body
    }
}

impl<'a> Enc<'a> {
    fn temp(&mut self, hys_ty: &str, e: String, boolean: bool) -> String {
        self.temps += 1;
        let name = format!("_t{}", self.temps);
        self.decls.push(format!("  {hys_ty} {name};"));
        let op = if boolean { "<->" } else { "=" };
        let _ = writeln!(self.trans, "  {} -> ({name} {op} {e});", self.guard);
        name
    }

    fn share(&mut self, e: String, t: Ty) -> String {
        if e.len() > SHARE_LEN {
            self.temp(&t.hys(), e, false)
        } else {
            e
        }
    }

    fn share_bool(&mut self, e: String) -> String {
        if e.len() > SHARE_BOOL_LEN {
            self.temp("boole", e, true)
        } else {
            e
        }
    }

    fn var(&self, v: usize, env: &Env) -> String {
        env.get(&v)
            .cloned()
            .unwrap_or_else(|| self.cfg.vars[v].hys.clone())
    }

    /// `.hys` text of `e` under `env`.
    fn emit(&mut self, e: &E, env: &Env) -> String {
        match e {
            E::Var(v) => self.var(*v, env),
            E::Int(t, v) => format!("{}({v})", t.conv_fn()),
            E::Fp(t, bits) => fp_const(*t, *bits),
            E::Bin(op, t, a, b) => {
                let a = self.emit(a, env);
                let b = self.emit(b, env);
                match op {
                    BinOp::Add => format!("({a} + {b})"),
                    BinOp::Sub => format!("({a} - {b})"),
                    BinOp::Mul => format!("({a} * {b})"),
                    BinOp::Div => format!("({a} / {b})"),
                    BinOp::Rem => format!("({a} % {b})"),
                    BinOp::And => format!("bitand({a}, {b})"),
                    BinOp::Or => format!("bitor({a}, {b})"),
                    BinOp::Xor => format!("bitxor({a}, {b})"),
                    BinOp::Shl => format!("shl({a}, {b})"),
                    BinOp::Shr => {
                        let _ = t;
                        format!("shr({a}, {b})")
                    }
                }
            }
            E::Neg(_, a) => format!("(-{})", self.emit(a, env)),
            E::BitNot(_, a) => format!("bitnot({})", self.emit(a, env)),
            E::Conv(to, _, a) => format!("{}({})", to.conv_fn(), self.emit(a, env)),
            E::Cmp(rel, t, a, b) => {
                let a = self.emit(a, env);
                let b = self.emit(b, env);
                let f = t.is_float();
                match rel {
                    Rel::Lt => format!("({a} < {b})"),
                    Rel::Le => format!("({a} <= {b})"),
                    Rel::Gt => format!("({a} > {b})"),
                    Rel::Ge => format!("({a} >= {b})"),
                    Rel::Eq if f => format!("feq({a}, {b})"),
                    Rel::Ne if f => format!("(not feq({a}, {b}))"),
                    Rel::Eq => format!("({a} = {b})"),
                    Rel::Ne => format!("({a} != {b})"),
                }
            }
            E::Not(a) => format!("(not {})", self.emit(a, env)),
            E::And(a, b) => {
                let a = self.emit(a, env);
                let b = self.emit(b, env);
                format!("({a} and {b})")
            }
            E::Or(a, b) => {
                let a = self.emit(a, env);
                let b = self.emit(b, env);
                format!("({a} or {b})")
            }
            E::True => "true".into(),
            E::False => "false".into(),
            E::OfCond(t, c) => {
                let c = self.emit(c, env);
                let f = t.conv_fn();
                format!("ite({c}, {f}(1), {f}(0))")
            }
            E::Ite(_, c, a, b) => {
                let c = self.emit(c, env);
                let a = self.emit(a, env);
                let b = self.emit(b, env);
                format!("ite({c}, {a}, {b})")
            }
            E::Fabs(_, a) => format!("fabs({})", self.emit(a, env)),
            E::Sqrt(_, a) => format!("fsqrt({}, RNE)", self.emit(a, env)),
            E::MinMax(is_max, t, a, b, choice) => {
                let a = self.emit(a, env);
                let a = self.share(a, *t);
                let b = self.emit(b, env);
                let b = self.share(b, *t);
                let ch = self.cfg.vars[*choice].hys.clone();
                let (first, second) = if *is_max {
                    (format!("({a} > {b})"), format!("({b} > {a})"))
                } else {
                    (format!("({a} < {b})"), format!("({b} < {a})"))
                };
                format!(
                    "ite(isnan({a}), {b}, ite(isnan({b}), {a}, ite({first}, {a}, ite({second}, {b}, ite({ch}, {a}, {b})))))"
                )
            }
            E::IsNan(a) => format!("isnan({})", self.emit(a, env)),
            E::IsInf(a) => format!("isinf({})", self.emit(a, env)),
            E::LibmWithin(f, t, args, y) => {
                let xs: Vec<String> = args
                    .iter()
                    .map(|a| {
                        let a = self.emit(a, env);
                        self.share(a, *t)
                    })
                    .collect();
                let y = self.emit(y, env);
                libm_within(*f, *t, &xs, &y)
            }
            E::Bits(_, a) => format!("fp_bits({})", self.emit(a, env)),
            E::FromBits(t, a) => {
                let f = if *t == Ty::F32 {
                    "fp32_of_bits"
                } else {
                    "fp64_of_bits"
                };
                format!("{f}({})", self.emit(a, env))
            }
            // resolved by the lowerer before encoding
            E::Load(..) => "false".into(),
        }
    }

    fn merge(&mut self, contribs: Vec<Contribution>) -> (String, Env) {
        if contribs.len() == 1 {
            let c = contribs.into_iter().next().unwrap();
            return (c.cond, c.env);
        }
        let conds: Vec<String> = contribs.iter().map(|c| c.cond.clone()).collect();
        let reach = self.share_bool(format!("({})", conds.join(" or ")));
        let mut keys: Vec<usize> = contribs
            .iter()
            .flat_map(|c| c.env.keys().copied())
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let mut env = Env::new();
        for k in keys {
            let vals: Vec<String> = contribs.iter().map(|c| self.var(k, &c.env)).collect();
            if vals.iter().all(|v| *v == vals[0]) {
                env.insert(k, vals[0].clone());
                continue;
            }
            let mut e = vals.last().unwrap().clone();
            for i in (0..vals.len() - 1).rev() {
                e = format!("ite({}, {}, {e})", conds[i], vals[i]);
            }
            let t = self.cfg.vars[k].ty;
            let e = self.share(e, t);
            env.insert(k, e);
        }
        (reach, env)
    }

    fn block(&mut self, cut: usize, blocks: &mut [BlockSites]) -> Result<(), String> {
        let cfg = self.cfg;
        let pc = self.pc_of[&cut];
        self.guard = format!("(pc = {pc})");
        let is_cut = |n: usize| n == cut || cfg.loop_head[n] || n == cfg.stop || n == cfg.entry;
        // region: nodes reached from the cut without passing through another cut point
        let mut region = vec![cut];
        let mut seen: HashMap<usize, ()> = HashMap::new();
        seen.insert(cut, ());
        let mut q = VecDeque::from([cut]);
        while let Some(n) = q.pop_front() {
            for e in &cfg.nodes[n] {
                if !is_cut(e.to) && !seen.contains_key(&e.to) {
                    seen.insert(e.to, ());
                    region.push(e.to);
                    q.push_back(e.to);
                }
            }
        }
        // topological order (Kahn)
        let mut indeg: HashMap<usize, usize> = region.iter().map(|&n| (n, 0)).collect();
        for &n in &region {
            for e in &cfg.nodes[n] {
                if !is_cut(e.to) {
                    *indeg.get_mut(&e.to).unwrap() += 1;
                }
            }
        }
        let mut order = Vec::new();
        let mut ready = VecDeque::from([cut]);
        while let Some(n) = ready.pop_front() {
            order.push(n);
            for e in &cfg.nodes[n] {
                if !is_cut(e.to) {
                    let d = indeg.get_mut(&e.to).unwrap();
                    *d -= 1;
                    if *d == 0 {
                        ready.push_back(e.to);
                    }
                }
            }
        }
        if order.len() != region.len() {
            return Err("control flow with a cycle that passes no loop head".into());
        }
        let mut incoming: HashMap<usize, Vec<Contribution>> = HashMap::new();
        let mut exits: BTreeMap<usize, Vec<Contribution>> = BTreeMap::new();
        let mut hit_terms = Vec::new();
        let mut ub_terms = Vec::new();
        let mut sites = Vec::new();
        incoming.insert(
            cut,
            vec![Contribution {
                cond: "true".into(),
                env: Env::new(),
            }],
        );
        for &n in &order {
            let Some(contribs) = incoming.remove(&n) else {
                continue;
            };
            let (reach, mut env) = self.merge(contribs);
            if cfg.nodes[n].is_empty() && n != cut {
                // a dead end (cannot happen for a complete graph): the run stops
                exits.entry(cfg.stop).or_default().push(Contribution {
                    cond: reach.clone(),
                    env: env.clone(),
                });
            }
            // the last out-edge takes the environment instead of copying it: long chains of
            // assignments (initialising a large object) stay linear
            let nout = cfg.nodes[n].len();
            for (ei, e) in cfg.nodes[n].iter().enumerate() {
                let last = ei + 1 == nout;
                macro_rules! env_copy {
                    () => {
                        if last {
                            std::mem::take(&mut env)
                        } else {
                            env.clone()
                        }
                    };
                }
                let (cond, env2) = match &e.ins {
                    Ins::Skip => (reach.clone(), env_copy!()),
                    Ins::Assign(v, x) => {
                        let s = self.emit(x, &env);
                        let s = if cfg.vars[*v].is_temp && s.len() > SHARE_TEMP_LEN {
                            // a large sub-expression the translation split off: it is used
                            // several times (checks and the result)
                            self.temp(&cfg.vars[*v].ty.hys(), s, false)
                        } else {
                            self.share(s, cfg.vars[*v].ty)
                        };
                        let mut env2 = env_copy!();
                        env2.insert(*v, s);
                        (reach.clone(), env2)
                    }
                    Ins::Assume(c) => {
                        let s = self.emit(c, &env);
                        let cond = if reach == "true" {
                            s
                        } else {
                            format!("({reach} and {s})")
                        };
                        (self.share_bool(cond), env_copy!())
                    }
                    Ins::Havoc(v, site) => {
                        let val = format!("_nd{site}");
                        let g = format!("_ndr{site}");
                        let _ = writeln!(self.trans, "  {} -> ({g} <-> {reach});", self.guard);
                        sites.push((*site, val.clone(), g));
                        let mut env2 = env_copy!();
                        env2.insert(*v, val);
                        (reach.clone(), env2)
                    }
                    Ins::Forget(v) => {
                        self.temps += 1;
                        let name = format!("_fv{}", self.temps);
                        self.decls
                            .push(format!("  {} {name};", cfg.vars[*v].ty.hys()));
                        let mut env2 = env_copy!();
                        env2.insert(*v, name);
                        (reach.clone(), env2)
                    }
                    Ins::Goal(g) => {
                        if self.sel_hit[*g] {
                            hit_terms.push(reach.clone());
                        }
                        (reach.clone(), env_copy!())
                    }
                    Ins::Check(g, c) => {
                        if self.sel_hit[*g] || self.sel_ub[*g] {
                            let s = self.emit(c, &env);
                            let t = format!("({reach} and {s})");
                            if self.sel_hit[*g] {
                                hit_terms.push(t.clone());
                            }
                            if self.sel_ub[*g] {
                                ub_terms.push(t);
                            }
                        }
                        (reach.clone(), env_copy!())
                    }
                    // resolved by the lowerer before encoding
                    Ins::Store(..) | Ins::CheckAccess(..) => {
                        return Err("internal error: unresolved pointer access".into())
                    }
                };
                if cond == "false" {
                    continue;
                }
                let c = Contribution { cond, env: env2 };
                if is_cut(e.to) {
                    exits.entry(e.to).or_default().push(c);
                } else {
                    incoming.entry(e.to).or_default().push(c);
                }
            }
        }
        blocks[pc] = BlockSites { sites };
        let g = self.guard.clone();
        let mut all = Vec::new();
        for (t, cs) in exits {
            let (cond, env) = self.merge(cs);
            all.push(cond.clone());
            let mut parts = vec![format!("pc' = {}", self.pc_of[&t])];
            for (i, v) in cfg.vars.iter().enumerate() {
                if v.ty == Ty::Void {
                    continue; // free choice variables
                }
                parts.push(format!("{}' = {}", v.hys, self.var(i, &env)));
            }
            let _ = writeln!(
                self.trans,
                "  ({g} and {cond}) -> ({});",
                parts.join(" and ")
            );
        }
        if all.is_empty() {
            let _ = writeln!(self.trans, "  not {g};");
        } else {
            let _ = writeln!(self.trans, "  {g} -> ({});", all.join(" or "));
        }
        let hit = if hit_terms.is_empty() {
            "false".to_string()
        } else {
            hit_terms.join(" or ")
        };
        let ub = if ub_terms.is_empty() {
            "false".to_string()
        } else {
            ub_terms.join(" or ")
        };
        let _ = writeln!(self.trans, "  {g} -> (hit' <-> ({hit}));");
        let _ = writeln!(self.trans, "  {g} -> (ub' <-> ({ub}));");
        Ok(())
    }
}

/// The transition system of `cfg` looking for the goals of `sel`.
pub fn encode(cfg: &Cfg, sel: &Selection) -> Result<Encoded, String> {
    let mut cuts = vec![cfg.entry];
    for (n, &h) in cfg.loop_head.iter().enumerate() {
        if h {
            cuts.push(n);
        }
    }
    cuts.push(cfg.stop);
    let pc_of: HashMap<usize, usize> = cuts.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let mut sel_hit = vec![false; cfg.goals.len()];
    for &g in &sel.hit {
        sel_hit[g] = true;
    }
    let mut sel_ub = vec![false; cfg.goals.len()];
    for &g in &sel.ub {
        sel_ub[g] = true;
    }
    let mut enc = Enc {
        cfg,
        decls: Vec::new(),
        trans: String::new(),
        temps: 0,
        pc_of: pc_of.clone(),
        sel_hit,
        sel_ub,
        guard: String::new(),
    };
    let mut blocks = vec![BlockSites { sites: vec![] }; cuts.len()];
    for &c in &cuts {
        if c == cfg.stop {
            continue;
        }
        enc.block(c, &mut blocks)?;
    }
    let pc_stop = pc_of[&cfg.stop];
    let _ = writeln!(enc.trans, "  not (pc = {pc_stop});");
    let mut s = String::new();
    s.push_str("-- generated from C by icpic3 (large-block encoding)\nDECL\n");
    let _ = writeln!(s, "  int [0, {}] pc;", cuts.len() - 1);
    s.push_str("  boole hit, ub;\n");
    for v in &cfg.vars {
        let _ = writeln!(
            s,
            "  {} {};  -- {}",
            v.ty.hys(),
            v.hys,
            v.c_name.replace('\n', " ")
        );
    }
    for (i, n) in cfg.nondets.iter().enumerate() {
        let _ = writeln!(s, "  {} _nd{i};\n  boole _ndr{i};", n.ty.hys());
    }
    for d in &enc.decls {
        s.push_str(d);
        s.push('\n');
    }
    s.push_str("INIT\n");
    let _ = writeln!(s, "  pc = {};\n  not hit;\n  not ub;", pc_of[&cfg.entry]);
    s.push_str("TRANS\n");
    s.push_str(&enc.trans);
    s.push_str("TARGET\n  hit or ub;\n");
    Ok(Encoded {
        hys: s,
        blocks,
        pc_stop,
    })
}
