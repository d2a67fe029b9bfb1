//! `icpic3 solve FILE` for the transition form (INIT/TRANS/TARGET): runs BMC, k-induction or
//! the portfolio of `ic3` and renders the answer (language doc Part C, Part D.8).
//!
//! The engines never decide UNSAFE alone: they replay a counterexample through
//! [`ExactValidator`], which evaluates the *checked* (original) constraints with
//! [`crate::hys::eval`] — exact rationals, three-valued, only all-true counts — so an UNSAFE
//! trace is independent of the lowering and of the solver.

use crate::hys::check::Checked;
use crate::hys::eval::{self, PointValue, Truth};
use crate::hys::ir::Constraint;
use crate::solve_cmd::stats_json;
use ic3::{
    BmcConfig, BoxValue, EngineResult, KindConfig, Limits, Log, PortfolioConfig, TransitionSystem,
    Validator,
};
use serde_json::json;
use solver::interval::Interval;
use solver::model::Value;
use solver::num::format_rational;
use solver::SolverConfig;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The engine chosen on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Bmc,
    Kind,
    Portfolio,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Bmc => "bmc",
            Engine::Kind => "kind",
            Engine::Portfolio => "portfolio",
        }
    }
}

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
}

impl TsOptions {
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
                ..KindConfig::default()
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
}

/// The answer with what the command line prints.
pub struct TsAnswer {
    pub result: EngineResult,
    /// the state variables' names, in declaration order
    pub names: Vec<String>,
    pub time: Duration,
    /// peak resident set size of the process (kB), where the system reports it
    pub peak_rss_kb: Option<u64>,
}

/// Decides a transition system with the chosen engine.
pub fn solve_ts(checked: &Checked, ts: &TransitionSystem, opts: &TsOptions) -> TsAnswer {
    let start = Instant::now();
    let names = ts.state.iter().map(|v| v.name.clone()).collect();
    let limits = Limits {
        deadline: opts.timeout.map(|t| start + t),
        memory_kb: opts.memory_mb.map(|m| m.saturating_mul(1024)),
        ..Limits::default()
    };
    let result = match opts.configs() {
        Err(e) => EngineResult::unknown(opts.engine.name(), e, Default::default()),
        Ok(cfg) => {
            let val = ExactValidator::new(checked);
            match opts.engine {
                Engine::Bmc => ic3::bmc::bmc(ts, &cfg.bmc, &limits, &val, &opts.log),
                Engine::Kind => ic3::kind::kind(ts, &cfg.kind, &limits, &val, &opts.log),
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
        time: start.elapsed(),
        peak_rss_kb: ic3::engine::peak_resident_kb(),
    }
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

fn value_text(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
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
                line(k, i, value_text(v));
            }
        }
    } else if let Some(boxes) = &r.boxes {
        for (k, step) in boxes.iter().enumerate() {
            for (i, b) in step.iter().enumerate() {
                line(k, i, box_text(b));
            }
        }
    }
    s
}

fn value_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Bool(b) => json!(b),
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
    if let Some(kb) = a.peak_rss_kb {
        v["peak_rss_kb"] = json!(kb);
    }
    v
}

/// The verdict's exit code (Part C).
pub fn exit_code(a: &TsAnswer) -> i32 {
    a.result.verdict.exit_code()
}
