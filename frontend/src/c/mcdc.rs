//! Coverage criteria of `icpic3 deadcode --criterion decision|condition|mcdc` (see
//! `docs/c-frontend.md`, "Coverage criteria").
//!
//! A *decision* is the controlling expression of an `if`, `while`, `do`, `for` or `?:`; its
//! *conditions* are the operands of the `&&`, `||` and `!` tree it is made of (a decision
//! without these operators is one condition). Conditions are evaluated as C defines it:
//! left to right, and the right operand of `&&` (`||`) only when the left one is true (false).
//!
//! - `decision`: the branch goals of the lowering (then/else, loop body, case) as before.
//! - `condition`: per condition two goals, [`GoalKind::Cond`] true and false; the lowering
//!   puts a goal on each outcome edge of the condition and the replay marks the goal where the
//!   condition's value is computed ([`Instrument::Cond`]).
//! - `mcdc`: per decision of at most [`MAX_CONDITIONS`] conditions, one goal per evaluation
//!   path ([`GoalKind::McdcPath`]): the vector of the conditions' values in short-circuit order
//!   (true, false or not evaluated). The lowering accumulates a path code in a fresh variable
//!   (condition `k` adds `3^k` when true and `2·3^k` when false) and reaches the path's goal
//!   when the decision's outcome is taken with that code; the replay computes the same code
//!   in the compiled program ([`Instrument::Path`]). [`finish`] then answers, per condition,
//!   whether a pair of paths shows its independent effect (unique cause; a condition that one
//!   of the two paths does not evaluate is a don't-care): REACHABLE if both paths of some
//!   pair were reached by gcc-confirmed runs, DEAD if every pair has a path proved
//!   unreachable, else UNKNOWN.
//!
//! The criterion reaches the lowering and `super::deadcode` through a thread-local setting
//! ([`with_criterion`]) rather than new parameters: the lowering's entry point and the
//! command's plumbing are shared with other work and keep their signatures.

use super::cfg::{Cfg, GoalKind, Instrument};
use super::parse::Pos;
use super::replay::InputValue;
use super::DeadcodeLine;
use std::cell::Cell;

/// What `deadcode` takes as its goals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Criterion {
    /// branch outcomes (then/else, loop body, case, default)
    #[default]
    Decision,
    /// every condition of every decision true and false
    Condition,
    /// an independence pair per condition
    Mcdc,
}

impl Criterion {
    pub fn parse(s: &str) -> Option<Criterion> {
        match s {
            "decision" => Some(Criterion::Decision),
            "condition" => Some(Criterion::Condition),
            "mcdc" => Some(Criterion::Mcdc),
            _ => None,
        }
    }
}

thread_local! {
    static CRITERION: Cell<Criterion> = const { Cell::new(Criterion::Decision) };
}

/// The criterion in effect on this thread (default: decision).
pub fn current() -> Criterion {
    CRITERION.with(|c| c.get())
}

/// Runs `f` with criterion `c` in effect on this thread (restored afterwards, also when `f`
/// unwinds).
pub fn with_criterion<T>(c: Criterion, f: impl FnOnce() -> T) -> T {
    struct Restore(Criterion);
    impl Drop for Restore {
        fn drop(&mut self) {
            CRITERION.with(|x| x.set(self.0));
        }
    }
    let _r = Restore(current());
    CRITERION.with(|x| x.set(c));
    f()
}

/// Decisions with more conditions, or more evaluation paths than [`MAX_PATHS`] (their number
/// grows up to `2^n`; a chain of `||` has only `n + 1`), get no path goals: their MC/DC goals
/// are UNKNOWN. 16 conditions keep every path code below `3^16` (an `int` in the replay).
pub const MAX_CONDITIONS: usize = 16;

/// At most this many path goals per decision (each is a solver call when no concrete run
/// reaches it).
pub const MAX_PATHS: usize = 64;

/// The `&&`/`||`/`!` structure of a decision over its conditions (numbered left to right).
#[derive(Clone, Debug, PartialEq)]
pub enum Tree {
    Leaf(usize),
    And(Box<Tree>, Box<Tree>),
    Or(Box<Tree>, Box<Tree>),
    Not(Box<Tree>),
}

/// A condition: its text span, position and (shortened) text.
#[derive(Clone, Debug)]
pub struct Leaf {
    pub start: usize,
    pub end: usize,
    pub pos: Pos,
    pub text: String,
}

/// One short-circuit evaluation of a decision: each condition's value (`None`: not
/// evaluated) and the decision's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalPath {
    pub vals: Vec<Option<bool>>,
    pub outcome: bool,
}

impl EvalPath {
    /// The code the lowering and the replay compute for this path: `Σ 3^k · (1 if true, 2 if
    /// false)` over the evaluated conditions (distinct for distinct paths).
    pub fn code(&self) -> u32 {
        self.vals
            .iter()
            .enumerate()
            .map(|(k, v)| match v {
                Some(true) => weight(k),
                Some(false) => 2 * weight(k),
                None => 0,
            })
            .sum()
    }
    /// `(T, F, -) → true`
    pub fn describe(&self) -> String {
        let v: Vec<&str> = self
            .vals
            .iter()
            .map(|v| match v {
                Some(true) => "T",
                Some(false) => "F",
                None => "-",
            })
            .collect();
        format!("({}) -> {}", v.join(", "), self.outcome)
    }
}

/// `3^k`: the weight of condition `k` in a path code (`k < MAX_CONDITIONS`).
pub fn weight(k: usize) -> u32 {
    3u32.saturating_pow(k as u32)
}

/// A decision as lowered (one record per lowered copy: an inlined function has one per call).
#[derive(Clone, Debug)]
pub struct Decision {
    pub start: usize,
    pub end: usize,
    pub pos: Pos,
    pub function: String,
    pub leaves: Vec<Leaf>,
    /// the evaluation paths (path goal `i` is `paths[i]`); empty when `capped`
    pub paths: Vec<EvalPath>,
    /// `--criterion mcdc` with more than [`MAX_CONDITIONS`] conditions or [`MAX_PATHS`]
    /// paths: no path goals
    pub capped: bool,
}

/// Every short-circuit evaluation path of a decision of `n` conditions, in evaluation order
/// (true before false at each condition).
pub fn paths(t: &Tree, n: usize) -> Vec<EvalPath> {
    fn go(t: &Tree, from: Vec<Option<bool>>) -> Vec<(Vec<Option<bool>>, bool)> {
        match t {
            Tree::Leaf(k) => [true, false]
                .into_iter()
                .map(|b| {
                    let mut v = from.clone();
                    if let Some(x) = v.get_mut(*k) {
                        *x = Some(b);
                    }
                    (v, b)
                })
                .collect(),
            Tree::Not(x) => go(x, from).into_iter().map(|(v, o)| (v, !o)).collect(),
            // `a && b`: b is evaluated only when a is true; `a || b` only when a is false
            Tree::And(a, b) | Tree::Or(a, b) => {
                let short = matches!(t, Tree::Or(..));
                let mut out = Vec::new();
                for (v, o) in go(a, from) {
                    if o == short {
                        out.push((v, o));
                    } else {
                        out.extend(go(b, v));
                    }
                }
                out
            }
        }
    }
    go(t, vec![None; n])
        .into_iter()
        .map(|(vals, outcome)| EvalPath { vals, outcome })
        .collect()
}

/// The candidate independence pairs of condition `c`: `(i, j)` with condition `c` true on
/// path `i` and false on path `j`, different outcomes, and every other condition that both
/// paths evaluate equal on both (unique cause; not evaluated on one of them: don't care).
pub fn pairs(paths: &[EvalPath], c: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, p) in paths.iter().enumerate() {
        for (j, q) in paths.iter().enumerate() {
            let agree = p.vals.iter().zip(&q.vals).enumerate().all(|(k, (a, b))| {
                k == c
                    || match (a, b) {
                        (Some(x), Some(y)) => x == y,
                        _ => true,
                    }
            });
            if p.vals.get(c) == Some(&Some(true))
                && q.vals.get(c) == Some(&Some(false))
                && p.outcome != q.outcome
                && agree
            {
                out.push((i, j));
            }
        }
    }
    out
}

/// Declarations the replay puts before every unit when conditions or paths are observed: a
/// stack of path codes (a condition may call a function whose own decisions are evaluated
/// meanwhile; per unit, as the decisions of one unit nest properly). A code that overflows
/// the stack is -1 and marks nothing.
pub const HEADER: &str = "static int __icpic3_dst[256] __attribute__((unused));\n\
static int __icpic3_dsp __attribute__((unused));\n\
static int __icpic3_dt __attribute__((unused));\n\
static int __icpic3_dc __attribute__((unused));\n\
static __attribute__((unused)) void __icpic3_dpush(void) { if (__icpic3_dsp >= 0 && __icpic3_dsp < 256) __icpic3_dst[__icpic3_dsp] = 0; __icpic3_dsp++; }\n\
static __attribute__((unused)) int __icpic3_dleaf(int w, int v) { if (__icpic3_dsp > 0 && __icpic3_dsp <= 256) __icpic3_dst[__icpic3_dsp - 1] += v ? w : 2 * w; return v; }\n\
static __attribute__((unused)) int __icpic3_dpop(void) { __icpic3_dsp--; return (__icpic3_dsp >= 0 && __icpic3_dsp < 256) ? __icpic3_dst[__icpic3_dsp] : -1; }\n";

/// Insertions into the C text (offset, order key as in `super::replay`, text) that observe
/// the condition and path goals `items` (each with its marker call, e.g.
/// `__icpic3_goal(3)`):
/// - a condition `L` becomes `(!!(L) ? (mark_true, 1) : (mark_false, 0))` (its value as 0/1,
///   which is all its context — an operand of `&&`, `||`, `!` or a controlling expression —
///   uses);
/// - a decision `D` with conditions `L_k` becomes `(__icpic3_dpush(), __icpic3_dt = !!(D'),
///   __icpic3_dc = __icpic3_dpop(), (__icpic3_dc == code ? mark : (void)0), ...,
///   __icpic3_dt)` where `D'` has each `L_k` as `__icpic3_dleaf(3^k, !!(L_k))`.
pub fn insertions(items: &[(Instrument, String)]) -> Vec<(usize, (u8, usize, u8), String)> {
    let mut ins = Vec::new();
    // condition span -> (mark when true, mark when false)
    type CondMarks = ((usize, usize), Option<String>, Option<String>);
    let mut conds: Vec<CondMarks> = Vec::new();
    // decision span -> (conditions, (code, mark) list)
    type Dec = ((usize, usize), Vec<(usize, usize)>, Vec<(u32, String)>);
    let mut decs: Vec<Dec> = Vec::new();
    for (i, mark) in items {
        match i {
            Instrument::Cond { start, end, value } => {
                let k = (*start, *end);
                let at = match conds.iter().position(|c| c.0 == k) {
                    Some(p) => p,
                    None => {
                        conds.push((k, None, None));
                        conds.len() - 1
                    }
                };
                if *value {
                    conds[at].1 = Some(mark.clone());
                } else {
                    conds[at].2 = Some(mark.clone());
                }
            }
            Instrument::Path {
                start,
                end,
                leaves,
                code,
            } => {
                let k = (*start, *end);
                match decs.iter_mut().find(|d| d.0 == k) {
                    Some(d) => d.2.push((*code, mark.clone())),
                    None => decs.push((k, leaves.clone(), vec![(*code, mark.clone())])),
                }
            }
            _ => {}
        }
    }
    // at one offset: of two starts the outer one (larger end, or the decision around its
    // only condition: third key 1) goes left; of two ends the outer one right (third key 0)
    for ((a, b), t, f) in conds {
        let t = t.map_or("1".to_string(), |m| format!("({m}, 1)"));
        let f = f.map_or("0".to_string(), |m| format!("({m}, 0)"));
        ins.push((a, (0, b, 0), "(!!(".to_string()));
        ins.push((b, (1, a, 1), format!(") ? {t} : {f})")));
    }
    for ((a, b), leaves, marks) in decs {
        ins.push((a, (0, b, 1), "(__icpic3_dpush(), __icpic3_dt = !!(".into()));
        let checks: String = marks
            .iter()
            .map(|(c, m)| format!("(__icpic3_dc == {c} ? {m} : (void)0), "))
            .collect();
        ins.push((
            b,
            (1, a, 0),
            format!("), __icpic3_dc = __icpic3_dpop(), {checks}__icpic3_dt)"),
        ));
        for (k, (la, lb)) in leaves.into_iter().enumerate() {
            ins.push((la, (0, lb, 0), format!("__icpic3_dleaf({}, !!(", weight(k))));
            ins.push((lb, (1, la, 1), "))".into()));
        }
    }
    ins
}

/// Does any of `items` need [`HEADER`]?
pub fn needs_header(items: &[(Instrument, String)]) -> bool {
    items
        .iter()
        .any(|(i, _)| matches!(i, Instrument::Path { .. }))
}

/// The report lines of `--criterion condition|mcdc` from the goal lines of one function:
/// condition lines get their condition's text; the path lines of each decision become one
/// `mcdc` line per condition (in source order with the other lines).
pub fn finish(cfg: &Cfg, lines: Vec<DeadcodeLine>) -> Vec<DeadcodeLine> {
    // the first lowered copy of each decision stands for all (copies share text and paths)
    let mut reps: Vec<&Decision> = Vec::new();
    for d in &cfg.decisions {
        if !reps
            .iter()
            .any(|r| (r.start, r.end, &r.function) == (d.start, d.end, &d.function))
        {
            reps.push(d);
        }
    }
    let mut out = Vec::new();
    // the path goals' lines
    let mut path_lines: Vec<DeadcodeLine> = Vec::new();
    for mut l in lines {
        match l.kind {
            GoalKind::McdcPath { .. } => path_lines.push(l),
            GoalKind::Cond { end, .. } => {
                let found = reps.iter().find_map(|d| {
                    let k = d.leaves.iter().position(|x| {
                        x.end as u32 == end && x.pos == l.pos && d.function == l.function
                    })?;
                    Some((d, k))
                });
                if let Some((d, k)) = found {
                    let text = &d.leaves[k].text;
                    l.detail = format!(
                        "`{text}` (condition {} of {} of the decision at {}:{}): {}",
                        k + 1,
                        d.leaves.len(),
                        d.pos.line,
                        d.pos.col,
                        l.detail
                    );
                    l.condition = Some(text.clone());
                }
                out.push(l);
            }
            _ => out.push(l),
        }
    }
    if current() == Criterion::Mcdc {
        for d in &reps {
            out.extend(mcdc_lines(d, &path_lines));
        }
        // source order (the lines of one decision at its conditions' positions)
        out.sort_by(|a, b| {
            (&a.pos.file, a.pos.line, a.pos.col).cmp(&(&b.pos.file, b.pos.line, b.pos.col))
        });
    }
    out
}

/// The JSON fields of a condition or MC/DC line (added to the goal's object): `condition`
/// (its text) and `tests` (the independence pair's test cases).
pub fn json_fields(l: &DeadcodeLine, g: &mut serde_json::Value) {
    if let Some(c) = &l.condition {
        g["condition"] = serde_json::json!(c);
    }
    if l.kind == GoalKind::Mcdc {
        let tests: Vec<serde_json::Value> = l
            .tests
            .iter()
            .map(|(label, ins)| {
                serde_json::json!({"label": label, "inputs": ins.iter().map(|(w, v)| serde_json::json!({"input": w, "value": v.c_expr()})).collect::<Vec<_>>()})
            })
            .collect();
        g["tests"] = serde_json::json!(tests);
    }
}

/// The MC/DC lines of one decision (one per condition).
fn mcdc_lines(d: &Decision, path_lines: &[DeadcodeLine]) -> Vec<DeadcodeLine> {
    let n = d.leaves.len();
    let line = |k: usize, status: &'static str, detail: String, time_s: f64| DeadcodeLine {
        test: None,
        pos: d.leaves[k].pos.clone(),
        kind: GoalKind::Mcdc,
        function: d.function.clone(),
        status,
        detail: format!(
            "`{}` (condition {} of {n} of the decision at {}:{}): {detail}",
            d.leaves[k].text,
            k + 1,
            d.pos.line,
            d.pos.col
        ),
        inputs: vec![],
        time_s,
        condition: Some(d.leaves[k].text.clone()),
        tests: vec![],
        trace: None,
    };
    if d.capped {
        return (0..n)
            .map(|k| {
                line(
                    k,
                    "UNKNOWN",
                    format!(
                        "too many conditions: the decision's {n} conditions have more than {MAX_PATHS} evaluation paths (or there are more than {MAX_CONDITIONS} conditions); no path goals"
                    ),
                    0.0,
                )
            })
            .collect();
    }
    let kind = |i: usize| GoalKind::McdcPath {
        end: d.end as u32,
        path: i as u16,
    };
    let get = |i: usize| {
        path_lines
            .iter()
            .find(|l| l.kind == kind(i) && l.pos == d.pos && l.function == d.function)
    };
    let status = |i: usize| get(i).map_or("UNKNOWN", |l| l.status);
    let time = |i: usize| get(i).map_or(0.0, |l| l.time_s);
    let mut out = Vec::new();
    for c in 0..n {
        let cand = pairs(&d.paths, c);
        let desc = |i: usize| d.paths[i].describe();
        if let Some(&(i, j)) = cand
            .iter()
            .find(|(i, j)| status(*i) == "REACHABLE" && status(*j) == "REACHABLE")
        {
            let mut l = line(
                c,
                "REACHABLE",
                format!(
                    "independence pair {} / {}, both evaluations reached by gcc-confirmed runs",
                    desc(i),
                    desc(j)
                ),
                time(i) + time(j),
            );
            for (label, p) in [("test 1", i), ("test 2", j)] {
                let ins: Vec<(String, InputValue)> = get(p).map_or(vec![], |x| x.inputs.clone());
                let how = get(p).map_or(String::new(), |x| x.detail.clone());
                l.tests.push((format!("{label}: {} ({how})", desc(p)), ins));
            }
            out.push(l);
            continue;
        }
        // every candidate pair has a path that no run can take
        let dead_pair = |&(i, j): &(usize, usize)| status(i) == "DEAD" || status(j) == "DEAD";
        if cand.iter().all(dead_pair) {
            let mut dead: Vec<usize> = cand
                .iter()
                .flat_map(|&(i, j)| [i, j])
                .filter(|&i| status(i) == "DEAD")
                .collect();
            dead.sort_unstable();
            dead.dedup();
            let why = if cand.is_empty() {
                "no pair of evaluation paths of the decision differs only in this condition and in the outcome".to_string()
            } else {
                let shown: Vec<String> = dead.iter().map(|&i| desc(i)).collect();
                format!(
                    "{} candidate pair(s), each with an evaluation proved unreachable: {}",
                    cand.len(),
                    shown.join(", ")
                )
            };
            let t = dead.iter().map(|&i| time(i)).sum();
            out.push(line(
                c,
                "DEAD",
                format!("infeasible: no independence pair ({why})"),
                t,
            ));
            continue;
        }
        let open: Vec<String> = cand
            .iter()
            .filter(|p| !dead_pair(p))
            .map(|&(i, j)| format!("{} [{}] / {} [{}]", desc(i), status(i), desc(j), status(j)))
            .collect();
        let t = cand.iter().map(|&(i, j)| time(i) + time(j)).sum();
        out.push(line(
            c,
            "UNKNOWN",
            format!("no confirmed independence pair; open: {}", open.join(", ")),
            t,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::cfg::INT;
    use crate::c::replay::{replay, Replay};
    use crate::c::DataModel;

    /// A decision with a nested `?:` decision as its first condition (starting at the same
    /// place) and a call whose function evaluates a decision of its own while the outer one
    /// is being evaluated (the replay's stack of path codes).
    const NESTED: &str = "extern int __VERIFIER_nondet_int(void);\n\
        static int pos(int v) { if (v > 0 && v < 100) return 1; return 0; }\n\
        int main(void) { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int();\n\
        int c = __VERIFIER_nondet_int();\n\
        if ((c ? a > 1 : b > 1) && pos(a + b)) return 1;\n\
        return 0; }\n";

    fn lowered(text: &str, c: Criterion) -> Option<(crate::c::CFile, Cfg)> {
        if std::process::Command::new("gcc")
            .arg("--version")
            .output()
            .is_err()
        {
            return None;
        }
        let dir = std::env::temp_dir().join(format!("icpic3-mcdc-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(format!("{c:?}.c"));
        std::fs::write(&p, text).unwrap();
        let f = crate::c::load(&p, DataModel::Lp64).expect("preprocesses and parses");
        let cfg = with_criterion(c, || crate::c::lower_fn(&f, DataModel::Lp64, "main", false))
            .expect("lowers");
        let _ = std::fs::remove_file(&p);
        Some((f, cfg))
    }

    /// (decision, path) of every path goal, the decision given by its number of conditions
    /// (1: `c`, 2 in `main`: the `if`, 2 in `pos`: `v > 0 && v < 100`).
    fn path_goals(cfg: &Cfg) -> Vec<(usize, &'static str, Vec<usize>, &Decision)> {
        let mut out: Vec<(usize, &'static str, Vec<usize>, &Decision)> = Vec::new();
        for (g, goal) in cfg.goals.iter().enumerate() {
            let GoalKind::McdcPath { end, path } = goal.kind else {
                continue;
            };
            let d = cfg
                .decisions
                .iter()
                .find(|d| d.end as u32 == end && d.pos == goal.pos)
                .unwrap();
            let which = match (d.leaves.len(), d.function.as_str()) {
                (1, _) => "c",
                (2, "main") => "if",
                _ => "pos",
            };
            match out
                .iter_mut()
                .find(|x| x.0 == path as usize && x.1 == which)
            {
                Some(x) => x.2.push(g),
                None => out.push((path as usize, which, vec![g], d)),
            }
        }
        out
    }

    /// Each path goal is confirmed by a gcc run exactly when the run evaluates the decision
    /// along that path (the paths each input takes derived by hand).
    #[test]
    fn path_goals_replay_exactly_their_path() {
        let Some((f, cfg)) = lowered(NESTED, Criterion::Mcdc) else {
            return;
        };
        let goals = path_goals(&cfg);
        // `c`: 2 paths; the `if`: 3; `pos`: 3
        assert_eq!(goals.len(), 8, "{goals:?}");
        // inputs (a, b, c) and the paths taken (by their describe()):
        // (5, 0, 1): c true, a > 1 true, pos(5): (T, T) -> true, so the `if` (T, T) -> true
        // (0, 200, 0): c false, b > 1 true, pos(200): (T, F) -> false; the `if` (T, F)
        // (0, 0, 0): c false, b > 1 false: the `if` (F, -) -> false; pos not called
        type Run<'x> = ([i128; 3], &'x [(&'x str, &'x str)]);
        let runs: [Run; 3] = [
            (
                [5, 0, 1],
                &[
                    ("c", "(T) -> true"),
                    ("if", "(T, T) -> true"),
                    ("pos", "(T, T) -> true"),
                ],
            ),
            (
                [0, 200, 0],
                &[
                    ("c", "(F) -> false"),
                    ("if", "(T, F) -> false"),
                    ("pos", "(T, F) -> false"),
                ],
            ),
            (
                [0, 0, 0],
                &[("c", "(F) -> false"), ("if", "(F, -) -> false")],
            ),
        ];
        for (ins, taken) in runs {
            let vals: Vec<InputValue> = ins.iter().map(|&v| InputValue::Int(INT, v)).collect();
            for (path, which, gs, d) in &goals {
                let desc = d.paths[*path].describe();
                let want = taken.contains(&(*which, desc.as_str()));
                let r = replay(&f.source.text, &cfg, gs, &vals, true, false);
                let got = matches!(r, Replay::Confirmed(_));
                assert_eq!(got, want, "{ins:?} {which} {desc}: {r:?}");
            }
        }
    }

    /// Two decisions starting at one place (`c` and the whole `c ? a > 1 : 0`, each one
    /// condition): their instrumentation nests.
    #[test]
    fn decisions_starting_at_one_place_replay() {
        let text = "extern int __VERIFIER_nondet_int(void);\n\
            int main(void) { int a = __VERIFIER_nondet_int(); int c = __VERIFIER_nondet_int();\n\
            if (c ? a > 1 : 0) return 1; return 0; }\n";
        let Some((f, cfg)) = lowered(text, Criterion::Mcdc) else {
            return;
        };
        let goals: Vec<(usize, bool, bool)> = cfg
            .goals
            .iter()
            .enumerate()
            .filter_map(|(g, x)| match x.kind {
                GoalKind::McdcPath { end, path } => {
                    let d = cfg.decisions.iter().find(|d| d.end as u32 == end)?;
                    // (goal, is the whole `?:`, the path's condition value)
                    let whole = d.leaves[0].text.contains('?');
                    Some((g, whole, d.paths[path as usize].vals[0] == Some(true)))
                }
                _ => None,
            })
            .collect();
        assert_eq!(goals.len(), 4, "{:?}", cfg.goals);
        assert_eq!(cfg.goals[goals[0].0].pos, cfg.goals[goals[3].0].pos);
        // (a, c) -> (value of the `?:`, value of c)
        for (a, c, whole_v, c_v) in [
            (5, 1, true, true),
            (0, 1, false, true),
            (5, 0, false, false),
        ] {
            let vals = [InputValue::Int(INT, a), InputValue::Int(INT, c)];
            for &(g, whole, v) in &goals {
                let want = v == if whole { whole_v } else { c_v };
                let r = replay(&f.source.text, &cfg, &[g], &vals, true, false);
                assert_eq!(
                    matches!(r, Replay::Confirmed(_)),
                    want,
                    "{a} {c} {g}: {r:?}"
                );
            }
        }
    }

    /// A condition goal is confirmed exactly when the condition is evaluated with its value.
    #[test]
    fn condition_goals_replay_exactly_their_value() {
        let Some((f, cfg)) = lowered(NESTED, Criterion::Condition) else {
            return;
        };
        let at = |line: usize, value: bool| -> Vec<usize> {
            (0..cfg.goals.len())
                .filter(|&g| {
                    let x = &cfg.goals[g];
                    x.pos.line == line
                        && matches!(x.kind, GoalKind::Cond { value: v, .. } if v == value)
                        && x.pos.col > 20
                })
                .collect()
        };
        // `pos(a + b)` on line 5 (the conditions after column 20 there)
        let t = at(5, true);
        let fl = at(5, false);
        assert_eq!((t.len(), fl.len()), (1, 1), "{:?}", cfg.goals);
        let run = |ins: [i128; 3], g: &[usize]| {
            let vals: Vec<InputValue> = ins.iter().map(|&v| InputValue::Int(INT, v)).collect();
            matches!(
                replay(&f.source.text, &cfg, g, &vals, true, false),
                Replay::Confirmed(_)
            )
        };
        assert!(run([5, 0, 1], &t)); // pos(5) = 1
        assert!(!run([5, 0, 1], &fl));
        assert!(run([0, 200, 0], &fl)); // pos(200) = 0
        assert!(!run([0, 0, 0], &t) && !run([0, 0, 0], &fl)); // not evaluated
    }

    fn leaf(k: usize) -> Box<Tree> {
        Box::new(Tree::Leaf(k))
    }

    #[test]
    fn paths_of_and_or() {
        // a && (b || c)
        let t = Tree::And(leaf(0), Box::new(Tree::Or(leaf(1), leaf(2))));
        let p: Vec<String> = paths(&t, 3).iter().map(|p| p.describe()).collect();
        assert_eq!(
            p,
            [
                "(T, T, -) -> true",
                "(T, F, T) -> true",
                "(T, F, F) -> false",
                "(F, -, -) -> false"
            ]
        );
        let codes: Vec<u32> = paths(&t, 3).iter().map(|p| p.code()).collect();
        assert_eq!(codes, [1 + 3, 1 + 6 + 9, 1 + 6 + 18, 2]);
        // c (b || c's second operand) flips only between (T, F, T) and (T, F, F)
        assert_eq!(pairs(&paths(&t, 3), 2), [(1, 2)]);
        // a: (T, T, -) or (T, F, T) against (F, -, -)
        assert_eq!(pairs(&paths(&t, 3), 0), [(0, 3), (1, 3)]);
        // b: (T, T, -) against (T, F, F) (c not evaluated on the first: don't care)
        assert_eq!(pairs(&paths(&t, 3), 1), [(0, 2)]);
    }

    #[test]
    fn not_swaps_outcomes() {
        let t = Tree::Not(Box::new(Tree::Or(leaf(0), leaf(1))));
        let p: Vec<String> = paths(&t, 2).iter().map(|p| p.describe()).collect();
        assert_eq!(p, ["(T, -) -> false", "(F, T) -> false", "(F, F) -> true"]);
        assert_eq!(pairs(&paths(&t, 2), 0), [(0, 2)]);
        assert_eq!(pairs(&paths(&t, 2), 1), [(1, 2)]);
    }
}
