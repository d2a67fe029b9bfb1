//! Runs the solver on `.hys` EXPR files: `hys_solve [--timeout SECS] [--msw X] [--mpr X]
//! [--base DIR] LIST` where LIST has one path per line (relative to DIR; TSV rows use the
//! first column). Prints `path<TAB>verdict<TAB>seconds<TAB>stats` per file and a summary.
//! SAT verdicts come only from the solver's exact point check against the lowered formula.

use frontend::hys::{check, lower, parser};
use solver::contractors::check as exact;
use solver::solve::Roots;
use solver::{
    Atom, Formula, FormulaMap, Model, Op, Rational, SolveResult, Solver, SolverConfig, Sort, Value,
    Var,
};
use std::time::{Duration, Instant};

/// Independent validation of a SAT point against the lowered formula: every definition holds
/// at the point (exact rationals), every clause and root is true, every value is in its
/// declared domain.
fn validate(f: &Formula, map: &FormulaMap, m: &Model) -> Result<(), String> {
    let val = |v: Var| m.value(map.var(v)).cloned().unwrap_or(Value::Unknown);
    let num = |v: Var| {
        val(v)
            .as_num()
            .cloned()
            .ok_or(format!("no number for {}", f.vars[v].name))
    };
    for (v, info) in f.vars.iter() {
        if info.sort == Sort::Bool {
            continue;
        }
        let x = num(v)?;
        if let Some(b) = &info.domain.lo {
            if x < b.value || (b.strict && x == b.value) {
                return Err(format!("{} below its domain", info.name));
            }
        }
        if let Some(b) = &info.domain.hi {
            if x > b.value || (b.strict && x == b.value) {
                return Err(format!("{} above its domain", info.name));
            }
        }
        if info.sort == Sort::Int && !x.is_integer() {
            return Err(format!("{} not integral", info.name));
        }
    }
    for d in &f.defs {
        let ok = match d.op {
            Op::Ite => {
                let c = val(d.args[0]).as_bool().ok_or("ite condition")?;
                num(d.out)? == num(if c { d.args[1] } else { d.args[2] })?
            }
            Op::BoolToNum => {
                let c = val(d.args[0]).as_bool().ok_or("b2n arg")?;
                num(d.out)? == Rational::from_integer((c as i64).into())
            }
            _ => {
                let args: Result<Vec<Rational>, String> = d.args.iter().map(|&a| num(a)).collect();
                exact::holds(&d.op, &args?, &num(d.out)?).ok_or("unsupported op")?
            }
        };
        if !ok {
            return Err(format!("definition {} violated", f.def_to_string(d)));
        }
    }
    let lit = |l: solver::Lit| -> Result<bool, String> {
        let t = match f.atom(l.atom()) {
            Atom::Bool(v) => val(*v).as_bool().ok_or("bool")?,
            Atom::Bound { var, rel, value } => rel.holds(num(*var)?.cmp(value)),
        };
        Ok(t != l.is_negated())
    };
    for c in &f.clauses {
        let mut any = false;
        for &l in c {
            any |= lit(l)?;
        }
        if !any {
            return Err("clause violated".into());
        }
    }
    for &r in &f.roots {
        if !lit(r)? {
            return Err(format!("root {} violated", f.lit_to_string(r)));
        }
    }
    Ok(())
}

/// Bounded model checking with the incremental API: INIT once, TRANS once per step bound
/// to the previous step's next-state variables, TARGET per depth under an activation
/// literal. Answers the first depth whose query is not UNSAT (or UNSAT after `depth`).
fn bmc(s: &mut Solver, ts: &ic3::TransitionSystem, depth: usize) -> SolveResult {
    let init = match s.add_formula_with(&ts.init, &[], Roots::Assert) {
        Ok(m) => m,
        Err(e) => return SolveResult::Unknown(e),
    };
    let mut cur: Vec<Var> = ts.init_vars.iter().map(|&v| init.var(v)).collect();
    for k in 0..=depth {
        let bind: Vec<(Var, Var)> = ts
            .target_vars
            .iter()
            .copied()
            .zip(cur.iter().copied())
            .collect();
        let tm = match s.add_formula_with(&ts.target, &bind, Roots::Leave) {
            Ok(m) => m,
            Err(e) => return SolveResult::Unknown(e),
        };
        let act = s.new_activation();
        for &r in &tm.roots {
            s.add_clause_under(act, &[r]);
        }
        let r = s.solve(&[act]);
        if !r.is_unsat() || s.failed_assumptions().is_empty() {
            eprintln!(
                "bmc: depth {k}: {}",
                match &r {
                    SolveResult::Sat(_) => "SAT",
                    SolveResult::Candidate(_) => "CANDIDATE",
                    SolveResult::Unsat => "UNSAT without assumptions",
                    SolveResult::Unknown(_) => "UNKNOWN",
                }
            );
            return r;
        }
        s.release(act);
        if k == depth {
            break;
        }
        let bind: Vec<(Var, Var)> = ts
            .trans_current
            .iter()
            .copied()
            .zip(cur.iter().copied())
            .collect();
        let tr = match s.add_formula_with(&ts.trans, &bind, Roots::Assert) {
            Ok(m) => m,
            Err(e) => return SolveResult::Unknown(e),
        };
        cur = ts.trans_next.iter().map(|&v| tr.var(v)).collect();
    }
    SolveResult::Unsat
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut timeout = 3.0f64;
    let mut base = String::from(".");
    let mut list = None;
    let mut cfg = SolverConfig::default();
    let mut show = false;
    let mut bmc_depth = 20usize;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--timeout" => timeout = args.next().and_then(|s| s.parse().ok()).unwrap_or(3.0),
            "--show" => show = true,
            "--phase" => {
                cfg.split_phase = match args.next().as_deref() {
                    Some("upper") => solver::SplitPhase::Upper,
                    Some("zero") => solver::SplitPhase::TowardZero,
                    _ => solver::SplitPhase::Lower,
                }
            }
            "--restart-first" => {
                cfg.restart_first = args.next().and_then(|s| s.parse().ok()).unwrap_or(100)
            }
            "--refine" => {
                cfg.point_refinements = args.next().and_then(|s| s.parse().ok()).unwrap_or(1000)
            }
            "--trials" => cfg.point_trials = args.next().and_then(|s| s.parse().ok()).unwrap_or(8),
            "--bmc" => bmc_depth = args.next().and_then(|s| s.parse().ok()).unwrap_or(20),
            "--base" => base = args.next().unwrap_or_default(),
            "--msw" => cfg.msw = args.next().and_then(|s| s.parse().ok()).unwrap_or(cfg.msw),
            "--mpr" => cfg.mpr = args.next().and_then(|s| s.parse().ok()).unwrap_or(cfg.mpr),
            _ => list = Some(a),
        }
    }
    let list = std::fs::read_to_string(list.expect("a list file")).expect("readable list");
    let (mut sat, mut unsat, mut cand, mut unk, mut err) = (0, 0, 0, 0, 0);
    let mut decided_time = 0.0;
    let mut total_time = 0.0;
    for line in list.lines() {
        let path = line.split('\t').next().unwrap_or("").trim();
        if path.is_empty() || path.starts_with('#') {
            continue;
        }
        let full = format!("{base}/{path}");
        let text = match std::fs::read_to_string(&full) {
            Ok(t) => t,
            Err(e) => {
                println!("{path}\tERROR read {e}\t0\t");
                err += 1;
                continue;
            }
        };
        let start = Instant::now();
        let cfg = cfg.clone();
        let res = std::panic::catch_unwind(move || {
            let ast = parser::parse(&text).map_err(|d| format!("parse: {}", d.message))?;
            let (checked, diags) = check::check(&ast);
            let checked = checked.ok_or_else(|| {
                format!(
                    "check: {}",
                    diags.first().map(|d| d.message.clone()).unwrap_or_default()
                )
            })?;
            let lowered = lower::lower(&checked).map_err(|d| format!("lower: {}", d.message))?;
            let f = match lowered {
                lower::Lowered::Expr(f) => f,
                lower::Lowered::Transition(ts) => {
                    let mut s = Solver::new(cfg).map_err(|e| e.to_string())?;
                    s.set_time_limit(Duration::from_secs_f64(timeout));
                    let r = bmc(&mut s, &ts, bmc_depth);
                    return Ok::<_, String>((r, *s.stats()));
                }
            };
            let mut s = Solver::new(cfg).map_err(|e| e.to_string())?;
            s.set_time_limit(Duration::from_secs_f64(timeout));
            let map = s.add_formula(&f);
            let r = s.solve(&[]);
            if let SolveResult::Sat(m) = &r {
                validate(&f, &map, m).map_err(|e| format!("INVALID SAT MODEL: {e}"))?;
            }
            if show {
                eprintln!("{f}");
                if let Some(m) = r.model() {
                    let pc = m.point_candidates();
                    for (fv, info) in f.vars.iter() {
                        let sv = map.var(fv);
                        eprintln!("  {} box {} cand {:?}", info.name, m.boxes[sv], pc[sv]);
                    }
                }
            }
            Ok((r, *s.stats()))
        });
        let secs = start.elapsed().as_secs_f64();
        total_time += secs;
        let (verdict, stats) = match res {
            Err(_) => {
                err += 1;
                ("PANIC".to_string(), String::new())
            }
            Ok(Err(e)) => {
                err += 1;
                (format!("ERROR {e}"), String::new())
            }
            Ok(Ok((r, st))) => {
                let v = match r {
                    SolveResult::Sat(_) => {
                        sat += 1;
                        decided_time += secs;
                        "SAT".to_string()
                    }
                    SolveResult::Unsat => {
                        unsat += 1;
                        decided_time += secs;
                        "UNSAT".to_string()
                    }
                    SolveResult::Candidate(_) => {
                        cand += 1;
                        "CANDIDATE".to_string()
                    }
                    SolveResult::Unknown(w) => {
                        unk += 1;
                        format!("UNKNOWN {w}")
                    }
                };
                (
                    v,
                    format!(
                        "dec={} spl={} confl={} icp={} contr={} learn={} pc={}/{}",
                        st.decisions,
                        st.splits,
                        st.conflicts,
                        st.icp_runs,
                        st.icp_contractions,
                        st.learned,
                        st.point_checks_ok,
                        st.point_checks
                    ),
                )
            }
        };
        println!("{path}\t{verdict}\t{secs:.3}\t{stats}");
    }
    eprintln!(
        "SAT {sat}  UNSAT {unsat}  decided {}  CANDIDATE {cand}  UNKNOWN {unk}  ERROR {err}  \
         decided time {decided_time:.2}s  total {total_time:.2}s",
        sat + unsat
    );
}
