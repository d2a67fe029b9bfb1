//! `icpic3 solve FILE` for the transition form (INIT/TRANS/TARGET): runs BMC, k-induction or
//! the portfolio of `ic3` and renders the answer (language doc Part C, Part D.8).
//!
//! The engines never decide UNSAFE alone: they replay a counterexample through
//! [`ExactValidator`], which evaluates the *checked* (original) constraints with
//! [`crate::hys::eval`] — exact rationals, three-valued, only all-true counts — so an UNSAFE
//! trace is independent of the lowering and of the solver.

use crate::hys::check::Checked;
use crate::hys::eval::{self, NodeEval, PointValue, Truth};
use crate::hys::ir::{BoolOp, Constraint, Ir, NodeKind, RelOp};
use crate::solve_cmd::{fmt_f64, stats_json};
use ic3::{
    BmcConfig, BoxValue, EngineResult, Ic3Config, KindConfig, Limits, Log, PortfolioConfig,
    TransitionSystem, Validator,
};
use num_traits::{One, Signed, Zero};
use serde_json::json;
use solver::formula::Sort;
use solver::interval::Interval;
use solver::model::Value;
use solver::num::{format_rational, Rational};
use solver::SolverConfig;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The engine chosen on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Bmc,
    Kind,
    Ic3,
    Portfolio,
    /// BMC by bit-blasting (`--engine bitblast` on a transition system)
    BmcBitblast,
    /// guessed invariants, pruned and proved (`ic3::float_inv`)
    FloatInv,
    /// the same over linear terms and Boolean locations (`ic3::float_inv::rel_inv`)
    RelInv,
    /// k-induction under rel-inv's pruned guesses (`ic3::kind`, `KindConfig::relational`)
    KindRel,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Bmc => "bmc",
            Engine::Kind => "kind",
            Engine::Ic3 => "ic3",
            Engine::Portfolio => "portfolio",
            Engine::BmcBitblast => "bmc-bitblast",
            Engine::FloatInv => "float-inv",
            Engine::RelInv => "rel-inv",
            Engine::KindRel => "kind-rel",
        }
    }
}

#[derive(Clone)]
pub struct TsOptions {
    pub engine: Engine,
    pub solver: SolverConfig,
    pub start_depth: usize,
    pub max_depth: Option<usize>,
    pub timeout: Option<Duration>,
    /// resident memory limit of the process in MB (`None`: none); UNKNOWN beyond it
    pub memory_mb: Option<u64>,
    /// progress lines (`-v -v`)
    pub log: Log,
    /// IC3's configuration (`--config`, `--frames`); its solver and frame limit are set from
    /// the options above
    pub ic3: Ic3Config,
    /// re-check an IC3 invariant through the front end: the printed clauses are parsed back
    /// and checked in fresh solvers (`--check-certificate`)
    pub check_certificate: bool,
    /// no `--linear` was given: [`TsOptions::for_system`] picks the simplex for systems with
    /// an unbounded integer or real state variable and keeps `solver.linear` otherwise
    pub linear_auto: bool,
}

impl TsOptions {
    /// The options for one system. With [`TsOptions::linear_auto`], a system with an integer
    /// or real state variable that has no finite declared range gets the exact simplex:
    /// interval propagation converges slowly on linear constraints over unbounded variables
    /// (issue #22), and on the 50 VMT systems of `transition-systems` (all unbounded) the
    /// simplex decided 31 against 25 in one run. Systems whose numeric variables all have
    /// ranges (every `.hys` system, every C program) keep ICP alone: there BMC to depth 1001
    /// on `examples/thermostat.hys` took 346 s with the simplex against 0.8 s without.
    pub fn for_system(&self, ts: &TransitionSystem) -> TsOptions {
        let mut o = self.clone();
        if self.linear_auto && has_unbounded_number(ts) {
            o.solver.linear = solver::LinearReasoning::Simplex;
        }
        o
    }

    /// The engine configurations, validated (an error is a usage error).
    pub fn configs(&self) -> Result<PortfolioConfig, String> {
        let cfg = PortfolioConfig {
            bmc: BmcConfig {
                start_depth: self.start_depth,
                max_depth: self.max_depth,
                solver: self.solver.clone(),
            },
            kind: KindConfig {
                max_k: self.max_depth,
                solver: self.solver.clone(),
                relational: (self.engine == Engine::KindRel).then(|| ic3::KindLemmas {
                    max_terms: self.ic3.max_terms,
                    ..ic3::KindLemmas::default()
                }),
                ..KindConfig::default()
            },
            ic3: Ic3Config {
                max_frames: self.max_depth,
                solver: self.solver.clone(),
                ..self.ic3.clone()
            },
            ..PortfolioConfig::default()
        };
        cfg.validate()?;
        Ok(cfg)
    }
}

/// The exact validator: INIT, TRANS and TARGET of the checked file, evaluated by
/// [`eval::eval_all`].
pub struct ExactValidator {
    checked: Checked,
    sections: [Vec<Constraint>; 3],
}

impl ExactValidator {
    pub fn new(checked: &Checked) -> ExactValidator {
        let get = |i: usize| {
            checked
                .sections()
                .get(i)
                .map(|s| s.constraints.clone())
                .unwrap_or_default()
        };
        ExactValidator {
            checked: checked.clone(),
            sections: [get(0), get(1), get(2)],
        }
    }

    fn point(vals: &[Value]) -> Option<Vec<PointValue>> {
        vals.iter()
            .map(|v| match v {
                Value::Bool(b) => Some(PointValue::Bool(*b)),
                Value::Num(q) => Some(PointValue::Num(q.clone())),
                Value::Fp(b) => Some(PointValue::Fp(*b)),
                Value::Unknown => None,
            })
            .collect()
    }

    fn holds(&self, section: usize, cur: &[Value], next: &[Value]) -> bool {
        let (Some(c), Some(n)) = (Self::point(cur), Self::point(next)) else {
            return false;
        };
        eval::eval_all(&self.checked, &self.sections[section], &c, &n) == Truth::True
    }
}

impl Validator for ExactValidator {
    fn init(&self, s: &[Value]) -> bool {
        self.holds(0, s, &[])
    }
    fn trans(&self, s: &[Value], t: &[Value]) -> bool {
        self.holds(1, s, t)
    }
    fn target(&self, s: &[Value]) -> bool {
        self.holds(2, s, &[])
    }
    fn complete_init(&self, s: &mut [Value]) {
        self.complete(0, None, s);
    }
    fn complete_trans(&self, s: &[Value], t: &mut [Value]) {
        self.complete(1, Some(s), t);
    }
}

/// Constraints with more nodes than this are not used to complete a point.
const COMPLETE_MAX_NODES: u32 = 2_000;

/// What the constraints of a section say about the variables being completed.
#[derive(Default)]
struct Determined {
    /// `x = q`
    eq: Vec<(usize, Value)>,
    /// `x >= q` / `x <= q` (non-strict), to find `x >= q ∧ x <= q`
    lo: Vec<(usize, Rational)>,
    hi: Vec<(usize, Rational)>,
}

impl ExactValidator {
    /// Assigns to the variables of `fill` (the current state for INIT, the next state for
    /// TRANS with `fixed` the current one) the exact values that top-level equalities give,
    /// looking through conjunctions, implications whose guard holds and disjunctions with a
    /// false side; repeated until nothing changes (chains `y' = x'`, `x' = x + 1`). Only a
    /// proposal: the caller validates the completed point.
    fn complete(&self, section: usize, fixed: Option<&[Value]>, fill: &mut [Value]) {
        let primed = fixed.is_some();
        let fixed_pt = match fixed.map(Self::point) {
            None => Vec::new(),
            Some(Some(p)) => p,
            Some(None) => return,
        };
        let ir = self.checked.ir();
        for _round in 0..=fill.len() {
            let Some(f) = Self::point(fill) else { return };
            let (cur, next) = if primed {
                (&fixed_pt, &f)
            } else {
                (&f, &fixed_pt)
            };
            let mut d = Determined::default();
            // the walk is quadratic in a constraint's size at worst: large ones are skipped
            let small = |c: &&Constraint| c.end.saturating_sub(c.first) <= COMPLETE_MAX_NODES;
            for c in self.sections[section].iter().filter(small) {
                let nodes = eval::eval_nodes(&self.checked, c, cur, next);
                if !nodes.is_empty() {
                    walk(ir, c, &nodes, c.root, primed, &mut d);
                }
            }
            for (i, q) in &d.lo {
                if d.hi.iter().any(|(j, r)| j == i && r == q) {
                    d.eq.push((*i, Value::Num(q.clone())));
                }
            }
            let mut changed = false;
            for (i, v) in d.eq {
                if let Some(slot) = fill.get_mut(i) {
                    if *slot != v {
                        *slot = v;
                        changed = true;
                    }
                }
            }
            if !changed {
                return;
            }
        }
    }
}

/// `coef·var + konst` with at most one variable being completed (`var`), the rest exact.
struct Lin {
    var: Option<usize>,
    coef: Rational,
    konst: Rational,
}

impl Lin {
    fn konst(q: Rational) -> Lin {
        Lin {
            var: None,
            coef: Rational::zero(),
            konst: q,
        }
    }
    fn scale(self, q: &Rational) -> Lin {
        Lin {
            var: self.var,
            coef: self.coef * q,
            konst: self.konst * q,
        }
    }
    fn add(self, o: Lin) -> Option<Lin> {
        let var = match (self.var, o.var) {
            (Some(x), Some(y)) if x != y => return None,
            (x, y) => x.or(y),
        };
        Some(Lin {
            var,
            coef: self.coef + o.coef,
            konst: self.konst + o.konst,
        })
    }
    fn sub(self, o: Lin) -> Option<Lin> {
        self.add(o.scale(&-Rational::one()))
    }
}

/// Node `id` as a [`Lin`] in the variable `only` (being completed): sums, differences,
/// negations, constant multiples and divisions; a sub-expression without `only` is its exact
/// value (other variables count with their current values).
fn linear(
    ir: &Ir,
    c: &Constraint,
    nodes: &[NodeEval],
    id: u32,
    primed: bool,
    only: usize,
) -> Option<Lin> {
    let node = ir.nodes.get(id as usize)?;
    if let NodeKind::Var { var, primed: p } = node.kind {
        if p == primed && var as usize == only && node.sort != solver::formula::Sort::Bool {
            return Some(Lin {
                var: Some(only),
                coef: Rational::one(),
                konst: Rational::zero(),
            });
        }
    }
    if !mentions(ir, c, id, primed, only) {
        return match id.checked_sub(c.first).and_then(|k| nodes.get(k as usize)) {
            Some(NodeEval::Num(Some(q))) => Some(Lin::konst(q.clone())),
            _ => None,
        };
    }
    let lin = |n: u32| linear(ir, c, nodes, n, primed, only);
    match &node.kind {
        NodeKind::Add(a, b) => lin(*a)?.add(lin(*b)?),
        NodeKind::Sub(a, b) => lin(*a)?.sub(lin(*b)?),
        NodeKind::Neg(a) => Some(lin(*a)?.scale(&-Rational::one())),
        NodeKind::Mul(a, b) => {
            let (x, y) = (lin(*a)?, lin(*b)?);
            match (x.var, y.var) {
                (None, _) => Some(y.scale(&x.konst)),
                (_, None) => Some(x.scale(&y.konst)),
                _ => None,
            }
        }
        NodeKind::Div(a, b) => {
            let (x, y) = (lin(*a)?, lin(*b)?);
            (y.var.is_none() && !y.konst.is_zero()).then(|| {
                let inv = Rational::one() / &y.konst;
                x.scale(&inv)
            })
        }
        _ => None,
    }
}

/// The variables being completed that node `id` mentions, leftmost first.
fn targets_in(ir: &Ir, c: &Constraint, id: u32, primed: bool, out: &mut Vec<usize>) {
    if id < c.first || id >= c.end {
        return;
    }
    let Some(node) = ir.nodes.get(id as usize) else {
        return;
    };
    if let NodeKind::Var { var, primed: p } = node.kind {
        if p == primed && node.sort != solver::formula::Sort::Bool {
            out.push(var as usize);
        }
        return;
    }
    let mut ops = Vec::new();
    node.kind.operands(&mut ops);
    for o in ops {
        targets_in(ir, c, o, primed, out);
    }
}

fn first_target(ir: &Ir, c: &Constraint, id: u32, primed: bool) -> Option<usize> {
    let mut v = Vec::new();
    targets_in(ir, c, id, primed, &mut v);
    v.first().copied()
}

fn mentions(ir: &Ir, c: &Constraint, id: u32, primed: bool, only: usize) -> bool {
    let mut v = Vec::new();
    targets_in(ir, c, id, primed, &mut v);
    v.contains(&only)
}

/// Collects what node `id` of constraint `c` determines, when it must hold (see
/// [`ExactValidator::complete`]).
fn walk(ir: &Ir, c: &Constraint, nodes: &[NodeEval], id: u32, primed: bool, d: &mut Determined) {
    let Some(at) = id.checked_sub(c.first).map(|k| k as usize) else {
        return;
    };
    let truth = |n: u32| match n.checked_sub(c.first).and_then(|k| nodes.get(k as usize)) {
        Some(NodeEval::Truth(t)) => Some(*t),
        _ => None,
    };
    // the variable being completed, if node `n` is one
    let target = |n: u32| match ir.nodes.get(n as usize).map(|x| &x.kind) {
        Some(NodeKind::Var { var, primed: p }) if *p == primed => Some(*var as usize),
        _ => None,
    };
    let Some(node) = ir.nodes.get(id as usize) else {
        return;
    };
    if at >= nodes.len() {
        return;
    }
    match &node.kind {
        NodeKind::Bool2(BoolOp::And, a, b) => {
            walk(ir, c, nodes, *a, primed, d);
            walk(ir, c, nodes, *b, primed, d);
        }
        NodeKind::Bool2(BoolOp::Impl, g, b) if truth(*g) == Some(Truth::True) => {
            walk(ir, c, nodes, *b, primed, d);
        }
        NodeKind::Bool2(BoolOp::Or, a, b) => {
            if truth(*a) == Some(Truth::False) {
                walk(ir, c, nodes, *b, primed, d);
            } else if truth(*b) == Some(Truth::False) {
                walk(ir, c, nodes, *a, primed, d);
            }
        }
        NodeKind::Bool2(BoolOp::Iff, a, b) => {
            for (x, y) in [(*a, *b), (*b, *a)] {
                if let (Some(v), Some(t)) = (target(x), truth(y)) {
                    if t != Truth::Unknown {
                        d.eq.push((v, Value::Bool(t == Truth::True)));
                    }
                }
            }
        }
        NodeKind::Not(a) => {
            if let Some(v) = target(*a) {
                d.eq.push((v, Value::Bool(false)));
            }
        }
        NodeKind::Var { .. } => {
            if let Some(v) = target(id) {
                d.eq.push((v, Value::Bool(true)));
            }
        }
        NodeKind::Rel(RelOp::Eq, a, b)
            if matches!(
                ir.nodes.get(*a as usize).map(|n| n.sort),
                Some(solver::formula::Sort::Fp(_))
            ) =>
        {
            // IEEE identity `x' = e`: x' takes e's exact float
            for (x, y) in [(*a, *b), (*b, *a)] {
                let val = y.checked_sub(c.first).and_then(|k| nodes.get(k as usize));
                if let (Some(v), Some(NodeEval::Fp(bits))) = (target(x), val) {
                    d.eq.push((v, Value::Fp(*bits)));
                }
            }
        }
        NodeKind::Rel(op, a, b) => {
            // a − b = k·v + m in the leftmost variable v being completed (the others count
            // with their current values): v ~ −m/k
            let Some(v) = first_target(ir, c, id, primed) else {
                return;
            };
            let lin = |n: u32| linear(ir, c, nodes, n, primed, v);
            let Some(Lin { coef, konst, .. }) = lin(*a).zip(lin(*b)).and_then(|(l, r)| l.sub(r))
            else {
                return;
            };
            if coef.is_zero() {
                return;
            }
            let q = -konst / &coef;
            // dividing by a negative coefficient turns >= into <=
            let op = if coef.is_negative() { op.swap() } else { *op };
            match op {
                RelOp::Eq => d.eq.push((v, Value::Num(q))),
                RelOp::Ge => d.lo.push((v, q)),
                RelOp::Le => d.hi.push((v, q)),
                _ => {}
            }
        }
        _ => {}
    }
}

/// The answer with what the command line prints.
pub struct TsAnswer {
    pub result: EngineResult,
    /// the state variables' names, in declaration order
    pub names: Vec<String>,
    /// their sorts (to print IEEE values)
    pub sorts: Vec<Sort>,
    pub time: Duration,
    /// peak resident set size of the process (kB), where the system reports it
    pub peak_rss_kb: Option<u64>,
    /// `--check-certificate`: the outcome of re-checking the printed invariant
    pub certificate_check: Option<Result<String, String>>,
}

/// Has `ts` an integer or real state variable without a finite lower or upper bound?
pub fn has_unbounded_number(ts: &TransitionSystem) -> bool {
    ts.state.iter().any(|v| {
        matches!(v.sort, Sort::Int | Sort::Real) && (v.domain.lo.is_none() || v.domain.hi.is_none())
    })
}

/// Decides a transition system with the chosen engine.
pub fn solve_ts(checked: &Checked, ts: &TransitionSystem, opts: &TsOptions) -> TsAnswer {
    let start = Instant::now();
    let opts = &opts.for_system(ts);
    let names = ts.state.iter().map(|v| v.name.clone()).collect();
    let sorts = ts.state.iter().map(|v| v.sort).collect();
    let limits = Limits {
        // the command's deadline (set before its input was read) when it is earlier
        deadline: crate::solve_cmd::earliest(opts.timeout.map(|t| start + t)),
        memory_kb: opts.memory_mb.map(|m| m.saturating_mul(1024)),
        ..Limits::default()
    };
    let result = match opts.configs() {
        Err(e) => EngineResult::unknown(opts.engine.name(), e, Default::default()),
        Ok(cfg) => {
            let val = ExactValidator::new(checked);
            match opts.engine {
                Engine::Bmc => ic3::bmc::bmc(ts, &cfg.bmc, &limits, &val, &opts.log),
                Engine::Kind | Engine::KindRel => {
                    ic3::kind::kind(ts, &cfg.kind, &limits, &val, &opts.log)
                }
                Engine::Ic3 => ic3::ic3::ic3(ts, &cfg.ic3, &limits, &val, &opts.log),
                Engine::BmcBitblast => {
                    ic3::bitblast_bmc::bitblast_bmc(ts, &cfg.bmc, &limits, &val, &opts.log)
                }
                // alone it has the command's whole time (the deadline caps the budget)
                Engine::FloatInv => ic3::float_inv::float_inv(
                    ts,
                    &cfg.kind.solver,
                    Duration::from_secs(24 * 3600),
                    &limits,
                    &opts.log,
                ),
                Engine::RelInv => ic3::float_inv::rel_inv(
                    ts,
                    &cfg.ic3.solver,
                    cfg.ic3.max_terms,
                    Duration::from_secs(24 * 3600),
                    &limits,
                    &val,
                    &opts.log,
                ),
                Engine::Portfolio => ic3::portfolio::portfolio(
                    Arc::new(ts.clone()),
                    &cfg,
                    &limits,
                    Arc::new(val),
                    opts.log.clone(),
                ),
            }
        }
    };
    TsAnswer {
        result,
        names,
        sorts,
        time: start.elapsed(),
        peak_rss_kb: ic3::engine::peak_resident_kb(),
        certificate_check: None,
    }
}

/// `--check-certificate`: the invariant's printed clauses, parsed back as the TARGET section
/// of a copy of the source (same declarations, INIT and TRANS), lowered, and checked against
/// the original system in fresh solvers ([`ic3::ic3::certificate::check`] on the formula).
/// Independent of IC3's own cubes: what is checked is exactly what was printed.
pub fn check_printed_invariant(
    source: &str,
    ts: &TransitionSystem,
    inv: &ic3::Invariant,
    opts: &TsOptions,
) -> Result<String, String> {
    let at = target_keyword_offset(source)
        .ok_or_else(|| "the source has no TARGET section to replace".to_string())?;
    let mut text = source[..at].to_string();
    text.push_str("TARGET\n");
    if inv.lines.is_empty() {
        text.push_str("true;\n");
    }
    for l in &inv.lines {
        text.push_str(l);
        text.push('\n');
    }
    let loaded = crate::hys::load(&text).map_err(|d| {
        format!(
            "the printed invariant does not parse back: {}",
            d.first().map(|d| d.message.clone()).unwrap_or_default()
        )
    })?;
    let crate::hys::Lowered::Transition(inv_ts) = &loaded.lowered else {
        return Err("the printed invariant did not lower to a transition system".into());
    };
    let limits = Limits {
        deadline: opts.timeout.map(|t| Instant::now() + t),
        ..Limits::default()
    };
    // an invariant over floats read as reals (rel-inv's `to_real(x) - to_real(y)`) relates
    // rounded results: re-checked with the simplex, whose rounded rows carry that relation
    // (interval propagation alone would have to split the floats' boxes)
    let reads_floats = inv_ts
        .target
        .defs
        .iter()
        .any(|d| matches!(d.op, solver::formula::Op::FpToReal));
    let config = if reads_floats {
        opts.solver.with_rounded_rows()
    } else {
        opts.solver.clone()
    };
    let rep = ic3::ic3::certificate::check_path(
        ts,
        &ic3::ic3::certificate::Lemmas::Formula(&inv_ts.target, &inv_ts.target_vars),
        inv.suffix,
        inv.distinct,
        &config,
        &limits,
    )?;
    Ok(format!(
        "certificate checked: {} clauses parsed back from the output, {} fresh solvers, {} \
         UNSAT queries",
        inv.lines.len(),
        rep.solvers,
        rep.queries
    ))
}

/// The byte offset of the `TARGET` section keyword (the last section, language doc A.1).
fn target_keyword_offset(source: &str) -> Option<usize> {
    let mut lx = crate::hys::lexer::Lexer::new(source);
    let mut last = None;
    loop {
        let t = lx.next_token().ok()?;
        match t.kind {
            crate::hys::lexer::Tok::Eof => return last,
            crate::hys::lexer::Tok::Ident if lx.text(t) == "TARGET" => {
                last = Some(t.span.start as usize)
            }
            _ => {}
        }
    }
}

fn value_text(v: &Value, sort: Sort) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Fp(bits) => match sort {
            Sort::Fp(f) => crate::solve_cmd::fp_text(f, *bits),
            _ => format!("0x{bits:x}"),
        },
        Value::Num(q) => {
            let q = format_rational(q);
            format!("[{q}, {q}] -- point interval")
        }
        Value::Unknown => "unknown".into(),
    }
}

fn box_text(b: &BoxValue) -> String {
    match b {
        BoxValue::Bool(Some(x)) => x.to_string(),
        BoxValue::Bool(None) => "true or false".into(),
        BoxValue::Num(iv) => interval_text(iv),
    }
}

fn interval_text(iv: &Interval) -> String {
    if iv.is_empty() {
        "empty".into()
    } else if iv.is_point() {
        let x = fmt_f64(iv.lo());
        format!("[{x}, {x}] -- point interval")
    } else {
        format!(
            "{}{}, {}{} -- interval width {}",
            if iv.lo_open() { '(' } else { '[' },
            fmt_f64(iv.lo()),
            fmt_f64(iv.hi()),
            if iv.hi_open() { ')' } else { ']' },
            fmt_f64(iv.width())
        )
    }
}

/// iSAT3's trace lines: `name@k:` and the value indented by four spaces, step by step.
pub fn render_text(a: &TsAnswer) -> String {
    let mut s = String::new();
    let r = &a.result;
    let mut line = |k: usize, i: usize, text: String| {
        s.push_str(&format!("{}@{k}:\n    {text}\n", a.names[i]));
    };
    if let Some(trace) = &r.trace {
        for (k, step) in trace.iter().enumerate() {
            for (i, v) in step.iter().enumerate() {
                line(k, i, value_text(v, a.sorts[i]));
            }
        }
    } else if let Some(boxes) = &r.boxes {
        for (k, step) in boxes.iter().enumerate() {
            for (i, b) in step.iter().enumerate() {
                line(k, i, box_text(b));
            }
        }
    }
    if let Some(inv) = &r.invariant {
        s.push_str(&invariant_header(inv));
        for l in &inv.lines {
            s.push_str(l);
            s.push('\n');
        }
    }
    if let Some(c) = &a.certificate_check {
        match c {
            Ok(m) => s.push_str(&format!("-- {m}\n")),
            Err(e) => s.push_str(&format!("-- certificate check FAILED: {e}\n")),
        }
    }
    s
}

/// The comment line before an invariant's clauses: what they mean.
fn invariant_header(inv: &ic3::Invariant) -> String {
    if inv.suffix == 0 {
        format!(
            "-- inductive invariant: the {} clauses below and not TARGET\n",
            inv.lines.len()
        )
    } else {
        format!(
            "-- invariant (suffix {k}): the {n} clauses below and not TARGET are closed under \
             TRANS and admit no {k1}-step path{simple} to TARGET; no run of length <= {k} \
             reaches it\n",
            k = inv.suffix,
            n = inv.lines.len(),
            k1 = inv.suffix + 1,
            simple = if inv.distinct {
                " of pairwise distinct states"
            } else {
                ""
            }
        )
    }
}

fn value_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Bool(b) => json!(b),
        Value::Fp(bits) => json!(format!("0x{bits:x}")),
        Value::Num(q) => json!(format_rational(q)),
        Value::Unknown => json!(null),
    }
}

fn box_json(b: &BoxValue) -> serde_json::Value {
    match b {
        BoxValue::Bool(x) => json!(x),
        BoxValue::Num(iv) => json!({
            "lo": fmt_f64(iv.lo()), "lo_open": iv.lo_open(),
            "hi": fmt_f64(iv.hi()), "hi_open": iv.hi_open(),
        }),
    }
}

/// The JSON object of Part C: `result`, `engine`, `time_s`, `depth`, `trace` (UNSAFE: one
/// object per step, exact values as rational strings) or `boxes` (CANDIDATE), `note`,
/// `stats` and `peak_rss_kb`.
pub fn render_json(a: &TsAnswer) -> serde_json::Value {
    let r = &a.result;
    let steps = |rows: Vec<serde_json::Map<String, serde_json::Value>>| {
        serde_json::Value::Array(rows.into_iter().map(serde_json::Value::Object).collect())
    };
    let mut v = json!({
        "result": r.verdict.text(),
        "engine": r.engine,
        "time_s": a.time.as_secs_f64(),
        "stats": stats_json(&r.stats),
    });
    if let Some(d) = r.depth {
        v["depth"] = json!(d);
    }
    if let Some(trace) = &r.trace {
        v["trace"] = steps(
            trace
                .iter()
                .map(|step| {
                    a.names
                        .iter()
                        .cloned()
                        .zip(step.iter().map(value_json))
                        .collect()
                })
                .collect(),
        );
    }
    if let Some(boxes) = &r.boxes {
        v["boxes"] = steps(
            boxes
                .iter()
                .map(|step| {
                    a.names
                        .iter()
                        .cloned()
                        .zip(step.iter().map(box_json))
                        .collect()
                })
                .collect(),
        );
    }
    if let Some(n) = &r.note {
        v["note"] = json!(n);
    }
    if let Some(inv) = &r.invariant {
        v["invariant"] = json!(inv.lines);
        v["invariant_suffix"] = json!(inv.suffix);
        v["invariant_distinct_states"] = json!(inv.distinct);
    }
    if !r.extra_stats.is_empty() {
        let m: serde_json::Map<String, serde_json::Value> = r
            .extra_stats
            .iter()
            .map(|(k, v)| {
                let val = v
                    .parse::<f64>()
                    .ok()
                    .and_then(|x| serde_json::Number::from_f64(x).map(serde_json::Value::Number))
                    .unwrap_or_else(|| json!(v));
                (k.to_string(), val)
            })
            .collect();
        v["engine_stats"] = serde_json::Value::Object(m);
    }
    if let Some(c) = &a.certificate_check {
        v["certificate_check"] = match c {
            Ok(m) => json!({"ok": true, "message": m}),
            Err(e) => json!({"ok": false, "message": e}),
        };
    }
    if let Some(kb) = a.peak_rss_kb {
        v["peak_rss_kb"] = json!(kb);
    }
    v
}

/// The verdict's exit code (Part C).
pub fn exit_code(a: &TsAnswer) -> i32 {
    a.result.verdict.exit_code()
}
