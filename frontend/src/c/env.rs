//! The environment of the analysed code: which globals are inputs, calibration parameters
//! and state (`deadcode --step NAME [--init NAME] [--inputs ...] [--params ...]`, and the
//! input globals of `--function`), and the test cases of REACHABLE goals (the inputs of
//! every step). The lowering side is `lower::env`.
//!
//! Default classification, from analysis lowerings of the step function and of the init
//! function (see `docs/c-frontend.md`, "Step functions"):
//! - an input is a scalar cell of a global that the step function reads and neither the step
//!   nor the init function writes, or a cell of Embedded Coder's root-inport structure
//!   (`rtU`, `<model>_U`) that the step function does not write (older generators clear it in
//!   the init function); the step function's scalar parameters, and the cells of the objects
//!   its pointer parameters point to that it reads and does not write, are inputs too;
//! - a calibration parameter (`--params`) gets one value for the whole run;
//! - everything the unit writes is state; `const` objects keep their initializers; a
//!   `volatile` object has any value at every read (it is never fed).

use super::cfg::{Cfg, StepFeed};
use super::lower::EnvPlan;
use super::parse::CError;
use super::replay::InputValue;
use super::{CFile, DataModel};
use std::collections::HashSet;

/// What the user asked for.
#[derive(Clone, Debug, Default)]
pub struct EnvOptions {
    /// `--step NAME` (else `--function`: one call)
    pub step: Option<String>,
    pub init: Option<String>,
    /// `--inputs A,B`: exactly these globals (or fields) are inputs
    pub inputs: Option<Vec<String>>,
    /// `--params A,B`: calibration parameters
    pub params: Vec<String>,
}

/// The classification, for the report.
#[derive(Clone, Debug, Default)]
pub struct EnvReport {
    /// fed before every step (or once before the call), by C name
    pub inputs: Vec<String>,
    pub params: Vec<String>,
    /// the globals the unit writes (objects, not cells)
    pub state: Vec<String>,
    /// volatile globals the unit reads: any value at every read
    pub volatile: Vec<String>,
}

/// Does `name` (`rtU`, `rtU.Speed`, `tbl[2]`) denote the cell `path` or an object/field
/// that contains it?
fn covers(name: &str, path: &str) -> bool {
    path == name
        || path
            .strip_prefix(name)
            .is_some_and(|r| r.starts_with(['.', '[', '@']))
}

/// The variable's name: the path up to the first field, index or union word.
fn object_of(path: &str) -> &str {
    path.split(['.', '[', '@']).next().unwrap_or(path)
}

/// Embedded Coder's root-inport structure (`rtU`, `<model>_U`), by its naming rule.
fn is_ert_inports(path: &str) -> bool {
    let o = object_of(path);
    o != path && (o == "rtU" || o.ends_with("_U"))
}

/// Does a function other than `lowered` name `ident`? (Syntactic: such a function may
/// write the variable.)
fn mentioned_elsewhere(file: &CFile, ident: &str, lowered: &[&str]) -> bool {
    use lang_c::ast::{ExternalDeclaration, Identifier};
    use lang_c::span::Span;
    use lang_c::visit::Visit;
    struct Find<'n> {
        name: &'n str,
        found: bool,
    }
    impl<'ast> Visit<'ast> for Find<'_> {
        fn visit_identifier(&mut self, i: &'ast Identifier, _: &'ast Span) {
            if i.name == self.name {
                self.found = true;
            }
        }
    }
    file.unit.0.iter().any(|d| match &d.node {
        ExternalDeclaration::FunctionDefinition(f) => {
            let name = super::lower::declarator_name(&f.node.declarator.node).unwrap_or_default();
            if lowered.contains(&name.as_str()) {
                return false;
            }
            let mut v = Find {
                name: ident,
                found: false,
            };
            v.visit_statement(&f.node.statement.node, &f.node.statement.span);
            v.found
        }
        _ => false,
    })
}

/// Lowers `entry` without goals, for its reads and writes.
fn analyse(file: &CFile, model: DataModel, entry: &str) -> Result<Cfg, CError> {
    super::lower_with(file, model, entry, false, None)
}

/// Decides the environment of `entry` (a step function when `opts.step` is set).
pub fn plan(
    file: &CFile,
    model: DataModel,
    entry: &str,
    opts: &EnvOptions,
) -> Result<(EnvPlan, EnvReport), CError> {
    let looped = opts.step.is_some();
    let s = analyse(file, model, entry)?;
    let i = match &opts.init {
        Some(init) => Some(analyse(file, model, init)?),
        None => None,
    };
    let init_writes: HashSet<(usize, &str)> = i
        .iter()
        .flat_map(|c| &c.storage)
        .filter(|c| c.written)
        .map(|c| (c.unit, c.path.as_str()))
        .collect();
    for n in opts.params.iter().chain(opts.inputs.iter().flatten()) {
        if !s.storage.iter().any(|c| covers(n, &c.path)) {
            return Err(file.source.err(
                0,
                format!("`{n}` (named by --inputs or --params) is not a global of the program"),
            ));
        }
    }
    let lowered: Vec<&str> = s
        .lowered_fns
        .iter()
        .chain(i.iter().flat_map(|c| &c.lowered_fns))
        .map(|x| x.as_str())
        .collect();
    let mut p = EnvPlan {
        step: entry.to_string(),
        init: opts.init.clone(),
        looped,
        ..Default::default()
    };
    let mut r = EnvReport::default();
    let mut state = Vec::new();
    for c in &s.storage {
        let Some(_) = c.ty else { continue };
        if c.is_const {
            continue;
        }
        let key = (c.unit, c.path.clone());
        let init_wrote = init_writes.contains(&(c.unit, c.path.as_str()));
        if c.volatile {
            if c.read && !r.volatile.contains(&c.path) {
                r.volatile.push(c.path.clone());
            }
            continue;
        }
        if opts.params.iter().any(|n| covers(n, &c.path)) {
            r.params.push(c.path.clone());
            p.params.push(key);
            continue;
        }
        let input = match &opts.inputs {
            Some(names) => names.iter().any(|n| covers(n, &c.path)),
            None => {
                let o = object_of(&c.path);
                // a `static` variable only its unit can write: if no function outside the
                // analysed ones names it, nobody writes it and it keeps its initializer
                let constant = s.file_statics.iter().any(|x| x == o)
                    && !mentioned_elsewhere(file, o, &lowered);
                !constant
                    && ((c.read && !c.written && !init_wrote)
                        || (is_ert_inports(&c.path) && !c.written))
            }
        };
        if input {
            r.inputs.push(c.path.clone());
            p.inputs.push(key);
        } else if c.written || init_wrote {
            let o = object_of(&c.path).to_string();
            if !state.contains(&o) {
                state.push(o);
            }
        }
    }
    r.state = state;
    if looped {
        // the step function's parameters: scalars every step; the cells of pointer
        // parameters' objects that it reads and never writes
        let mut per: Vec<(usize, Vec<usize>)> = Vec::new();
        for c in &s.param_cells {
            if c.ty.is_some() && c.read && !c.written {
                match per.iter_mut().find(|x| x.0 == c.param) {
                    Some(x) => x.1.push(c.off),
                    None => per.push((c.param, vec![c.off])),
                }
            }
        }
        // for the report: the step's scalar arguments and these cells
        for ns in s.nondets.iter().filter(|n| n.fed) {
            if let Some(a) = ns.what.strip_prefix("parameter ") {
                r.inputs.push(format!("argument {a}"));
            }
        }
        p.init_written = i
            .iter()
            .flat_map(|c| &c.param_cells)
            .filter(|c| c.written)
            .map(|c| c.rel.clone())
            .collect();
        // (the lowering also leaves out the cells the init function writes in an object it
        // shares with the step function: by pointee type, approximated here by the cell path)
        for c in &s.param_cells {
            if per.iter().any(|x| x.0 == c.param && x.1.contains(&c.off))
                && !p.init_written.contains(&c.rel)
            {
                r.inputs.push(format!("*{}{}", c.name, c.rel));
            }
        }
        p.param_inputs = per;
    }
    Ok((p, r))
}

/// The inputs of a run arranged by step: the values read before the loop (step objects'
/// initial contents, calibration parameters, init arguments), then one row per step.
#[derive(Clone, Debug, Default)]
pub struct TestCase {
    pub setup: Vec<(String, InputValue)>,
    pub steps: Vec<Vec<(String, InputValue)>>,
}

/// Arranges the inputs of a run (in the order the program read them) by step. `None` when
/// the environment has no loop, or the unit reads further inputs (functions defined
/// nowhere) so that a step's inputs cannot be told apart by count.
pub fn test_case(cfg: &Cfg, vals: &[InputValue]) -> Option<TestCase> {
    let env = cfg.env.as_ref().filter(|e| e.looped && !e.other_inputs)?;
    let k = env.setup_names.len();
    if vals.len() < k {
        return None;
    }
    let setup = env
        .setup_names
        .iter()
        .cloned()
        .zip(vals[..k].iter().cloned())
        .collect();
    let rest = &vals[k..];
    let n = env.step_names.len();
    let mut steps = Vec::new();
    if n == 0 {
        if !rest.is_empty() {
            return None;
        }
    } else {
        for chunk in rest.chunks(n) {
            steps.push(
                env.step_names
                    .iter()
                    .cloned()
                    .zip(chunk.iter().cloned())
                    .collect(),
            );
        }
    }
    Some(TestCase { setup, steps })
}

/// A column name of the CSV: a global input's C name (`rtU.Speed`), the others with their
/// kind (`param K`, `argument dt`, `init argument f_cut`, `initial *v.x` for a parameter
/// object's starting contents, which a per-step input of the same cell follows as `*v.x`).
fn column(name: &str) -> String {
    match name.strip_prefix("input ") {
        Some(n) => n.to_string(),
        None if !name.contains(' ') => format!("initial {name}"),
        None => name.to_string(),
    }
}

impl TestCase {
    /// One row per step: `step`, the setup values (the same in every row), the step's
    /// inputs. A value is written as C reads it back (`c_text`).
    pub fn csv(&self) -> String {
        let mut cols = vec!["step".to_string()];
        cols.extend(self.setup.iter().map(|x| csv_field(&column(&x.0))));
        if let Some(s) = self.steps.first() {
            cols.extend(s.iter().map(|x| csv_field(&column(&x.0))));
        }
        let mut out = cols.join(",");
        out.push('\n');
        let setup: Vec<String> = self
            .setup
            .iter()
            .map(|x| csv_field(&csv_value(&x.1)))
            .collect();
        for (k, s) in self.steps.iter().enumerate() {
            let mut row = vec![(k + 1).to_string()];
            row.extend(setup.iter().cloned());
            row.extend(s.iter().map(|x| csv_field(&csv_value(&x.1))));
            out.push_str(&row.join(","));
            out.push('\n');
        }
        out
    }

    pub fn json(&self) -> serde_json::Value {
        let kv = |v: &[(String, InputValue)]| -> serde_json::Value {
            v.iter()
                .map(|(n, x)| serde_json::json!({"input": n, "value": x.c_expr(), "text": x.c_text()}))
                .collect()
        };
        serde_json::json!({
            "setup": kv(&self.setup),
            "steps": self.steps.iter().map(|s| kv(s)).collect::<Vec<_>>(),
        })
    }
}

/// A value as test benches read numbers: integers, floats as the shortest decimal that reads
/// back to the same value (`nan`, `inf`, `-inf`; a NaN's payload is not kept).
pub fn csv_value(v: &InputValue) -> String {
    use super::cfg::Ty;
    let f = match v {
        InputValue::Int(_, x) => return x.to_string(),
        InputValue::Bits(Ty::F32, b) => f32::from_bits(*b as u32) as f64,
        InputValue::Bits(_, b) => f64::from_bits(*b),
    };
    if f.is_nan() {
        "nan".into()
    } else if f.is_infinite() {
        if f > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        match v {
            InputValue::Bits(Ty::F32, b) => format!("{:e}", f32::from_bits(*b as u32)),
            _ => format!("{f:e}"),
        }
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Is any input fed by the environment (for the report)?
pub fn feeds_anything(cfg: &Cfg) -> bool {
    cfg.env.as_ref().is_some_and(|e| {
        e.looped
            || e.step_feeds
                .iter()
                .any(|f| matches!(f, StepFeed::Global(_)))
    })
}
