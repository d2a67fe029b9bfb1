//! `icpic3 solve FILE` for the EXPR form: lower, solve with the ICP-CDCL core, and validate.
//!
//! The solver's answer is never trusted on its own for SATISFIABLE (DESIGN §5 rule 2): a
//! point is accepted only when [`crate::hys::eval`] finds every *original* constraint `True`
//! at it, independently of the lowering and of the solver. A point the solver checked
//! against the lowered formula comes first; then the simple points inside the final boxes.
//! Otherwise the answer is CANDIDATE SOLUTION with the boxes. UNSATISFIABLE is the solver's
//! refutation at level 0, which relies on outward rounding everywhere.

use crate::hys::check::Checked;
use crate::hys::eval::{self, PointValue, Truth};
use crate::hys::ir::Constraint;
use serde_json::json;
use solver::formula::{Formula, Sort, VarOrigin};
use solver::interval::Interval;
use solver::model::{Model, Value};
use solver::num::format_rational;
use solver::solve::{FormulaMap, SolveResult, Solver, Stats};
use solver::{SolverConfig, Var};
use std::time::{Duration, Instant};

/// The verdicts of the EXPR form (language doc Part C).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    Satisfiable,
    Unsatisfiable,
    Candidate,
    Unknown,
}

impl Verdict {
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Satisfiable => "SATISFIABLE",
            Verdict::Unsatisfiable => "UNSATISFIABLE",
            Verdict::Candidate => "CANDIDATE SOLUTION",
            Verdict::Unknown => "UNKNOWN",
        }
    }
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Satisfiable => 10,
            Verdict::Unsatisfiable => 20,
            Verdict::Candidate | Verdict::Unknown => 0,
        }
    }
}

/// A declared variable's part of an answer.
pub enum Shown {
    /// the exact value of a validated model
    Point(PointValue),
    /// the box of a candidate solution
    Box(Interval),
    Bool(Option<bool>),
}

pub struct Answer {
    pub verdict: Verdict,
    /// declared variables (name, value or box), in declaration order
    pub values: Vec<(String, Shown)>,
    /// why the answer is UNKNOWN, or why a candidate could not be validated
    pub note: Option<String>,
    pub stats: Stats,
    pub time: Duration,
}

pub struct Options {
    pub config: SolverConfig,
    pub timeout: Option<Duration>,
}

/// For each declared variable (in [`Checked::declared`] order), its variable in `f`.
fn declared_vars(checked: &Checked, f: &Formula) -> Vec<Option<Var>> {
    checked
        .declared()
        .iter()
        .map(|d| {
            f.vars
                .iter()
                .find(|(_, v)| matches!(v.origin, VarOrigin::Declared { .. }) && v.name == d.name)
                .map(|(v, _)| v)
        })
        .collect()
}

/// Validates a point (solver values of the declared variables) against the original EXPR
/// constraints; returns the point when every constraint is `True`.
fn validate(
    checked: &Checked,
    constraints: &[Constraint],
    decl: &[Option<Var>],
    map: &FormulaMap,
    point: &solver::var::VarMap<Value>,
) -> Option<Vec<PointValue>> {
    let mut values = Vec::with_capacity(decl.len());
    for (d, fv) in checked.declared().iter().zip(decl) {
        let value = match fv.map(|v| map.var(v)).and_then(|sv| point.get(sv)) {
            Some(Value::Bool(b)) => PointValue::Bool(*b),
            Some(Value::Num(q)) if d.sort != Sort::Bool => PointValue::Num(q.clone()),
            // A variable that occurs in no constraint is free: any value in its domain.
            None => default_value(d.sort, &d.domain)?,
            _ => return None,
        };
        values.push(value);
    }
    (eval::eval_all(checked, constraints, &values, &[]) == Truth::True).then_some(values)
}

/// A value inside a declared domain, for variables the solver never saw.
fn default_value(sort: Sort, domain: &solver::formula::Domain) -> Option<PointValue> {
    if sort == Sort::Bool {
        return Some(PointValue::Bool(false));
    }
    let iv = Interval::from_domain(domain);
    let integral = sort.is_integral();
    solver::model::simple_point(iv, integral).map(PointValue::Num)
}

pub fn solve_expr(checked: &Checked, f: &Formula, opts: &Options) -> Answer {
    let start = Instant::now();
    let mut solver = match Solver::new(opts.config.clone()) {
        Ok(s) => s,
        Err(e) => {
            return Answer {
                verdict: Verdict::Unknown,
                values: Vec::new(),
                note: Some(format!("invalid solver configuration: {e}")),
                stats: Stats::default(),
                time: start.elapsed(),
            }
        }
    };
    if let Some(t) = opts.timeout {
        solver.set_deadline(Some(start + t));
    }
    let map = solver.add_formula(f);
    let result = solver.solve(&[]);
    let decl = declared_vars(checked, f);
    let constraints: Vec<Constraint> = checked
        .sections()
        .iter()
        .flat_map(|s| s.constraints.iter().copied())
        .collect();
    let mut note = None;
    let (verdict, values) = match &result {
        SolveResult::Unsat => (Verdict::Unsatisfiable, Vec::new()),
        SolveResult::Unknown(reason) => {
            note = Some(reason.clone());
            (Verdict::Unknown, Vec::new())
        }
        SolveResult::Sat(model) | SolveResult::Candidate(model) => {
            let mut tries: Vec<solver::var::VarMap<Value>> = Vec::new();
            if let Some(p) = &model.point {
                tries.push(p.clone());
            }
            tries.push(model.point_candidates());
            let validated = tries
                .iter()
                .find_map(|p| validate(checked, &constraints, &decl, &map, p));
            match validated {
                Some(point) => (
                    Verdict::Satisfiable,
                    checked
                        .declared()
                        .iter()
                        .zip(point)
                        .map(|(d, v)| (d.name.clone(), Shown::Point(v)))
                        .collect(),
                ),
                None => {
                    if result.is_sat() {
                        note = Some(
                            "the solver's point satisfies the lowered formula, but not every \
                             original constraint could be proven at it"
                                .into(),
                        );
                    }
                    (Verdict::Candidate, boxes(checked, &decl, &map, model))
                }
            }
        }
    };
    Answer {
        verdict,
        values,
        note,
        stats: *solver.stats(),
        time: start.elapsed(),
    }
}

fn boxes(
    checked: &Checked,
    decl: &[Option<Var>],
    map: &FormulaMap,
    m: &Model,
) -> Vec<(String, Shown)> {
    checked
        .declared()
        .iter()
        .zip(decl)
        .map(|(d, fv)| {
            let sv = fv.map(|v| map.var(v));
            let shown = if d.sort == Sort::Bool {
                Shown::Bool(sv.and_then(|v| m.bools.get(v).copied().flatten()))
            } else {
                let b = sv
                    .and_then(|v| m.boxes.get(v).copied())
                    .unwrap_or_else(|| Interval::from_domain(&d.domain));
                Shown::Box(b)
            };
            (d.name.clone(), shown)
        })
        .collect()
}

fn fmt_f64(x: f64) -> String {
    if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{x}")
    }
}

/// iSAT3's model lines: `name:` then an indented value.
pub fn render_text(a: &Answer) -> String {
    let mut s = String::new();
    for (name, v) in &a.values {
        s.push_str(&format!("{name}:\n"));
        let line = match v {
            Shown::Point(PointValue::Bool(b)) | Shown::Bool(Some(b)) => b.to_string(),
            Shown::Bool(None) => "true or false".into(),
            Shown::Point(PointValue::Num(q)) => {
                let q = format_rational(q);
                format!("[{q}, {q}] -- point interval")
            }
            Shown::Point(PointValue::Fp(bits)) => format!("0x{bits:x}"),
            Shown::Box(iv) if iv.is_empty() => "empty".into(),
            Shown::Box(iv) if iv.is_point() => {
                let x = fmt_f64(iv.lo());
                format!("[{x}, {x}] -- point interval")
            }
            Shown::Box(iv) => format!(
                "{}{}, {}{} -- interval width {}",
                if iv.lo_open() { '(' } else { '[' },
                fmt_f64(iv.lo()),
                fmt_f64(iv.hi()),
                if iv.hi_open() { ')' } else { ']' },
                fmt_f64(iv.width())
            ),
        };
        s.push_str(&format!("  {line}\n"));
    }
    s
}

pub fn stats_json(s: &Stats) -> serde_json::Value {
    json!({
        "solves": s.solves,
        "decisions": s.decisions,
        "splits": s.splits,
        "conflicts": s.conflicts,
        "propagations": s.propagations,
        "icp_runs": s.icp_runs,
        "icp_contractions": s.icp_contractions,
        "learned": s.learned,
        "deleted": s.deleted,
        "restarts": s.restarts,
        "point_checks": s.point_checks,
        "point_checks_ok": s.point_checks_ok,
    })
}

pub fn render_json(a: &Answer) -> serde_json::Value {
    let mut model = serde_json::Map::new();
    for (name, v) in &a.values {
        let val = match v {
            Shown::Point(PointValue::Bool(b)) | Shown::Bool(Some(b)) => json!(b),
            Shown::Bool(None) => json!(null),
            Shown::Point(PointValue::Num(q)) => json!(format_rational(q)),
            Shown::Point(PointValue::Fp(bits)) => json!(format!("0x{bits:x}")),
            Shown::Box(iv) => json!({
                "lo": fmt_f64(iv.lo()), "lo_open": iv.lo_open(),
                "hi": fmt_f64(iv.hi()), "hi_open": iv.hi_open(),
            }),
        };
        model.insert(name.clone(), val);
    }
    let key = if a.verdict == Verdict::Satisfiable {
        "model"
    } else {
        "box"
    };
    let mut v = json!({
        "result": a.verdict.text(),
        "engine": "icp",
        "time_s": a.time.as_secs_f64(),
        "stats": stats_json(&a.stats),
    });
    if !a.values.is_empty() {
        v[key] = serde_json::Value::Object(model);
    }
    if let Some(n) = &a.note {
        v["note"] = json!(n);
    }
    v
}
