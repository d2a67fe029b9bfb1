//! The engines on transition systems built directly with the formula API (no front end): a
//! counter `x' = x + 1` over `int [0, 10]` from `x = 0`, with a validator written out by hand.

use ic3::bmc::bmc;
use ic3::kind::kind;
use ic3::portfolio::portfolio;
use ic3::{
    BmcConfig, KindConfig, Limits, PortfolioConfig, StateVar, TransitionSystem, Validator, Verdict,
};
use solver::formula::{Atom, Def, Domain, Formula, Op, Rel, Sort, VarInfo, VarOrigin};
use solver::model::Value;
use solver::{Rational, Var};
use std::sync::atomic::Ordering;
use std::sync::Arc;

fn q(n: i64) -> Rational {
    Rational::from_integer(n.into())
}

fn int_var(f: &mut Formula, name: &str, domain: Domain) -> Var {
    f.add_var(VarInfo {
        name: name.into(),
        sort: Sort::Int,
        domain,
        origin: VarOrigin::Declared { span: (0, 0) },
        fp_const: None,
    })
}

/// `x ∈ [0, 10]`, INIT `x = 0`, TRANS `x' = x + 1`, TARGET `x = goal`.
fn counter(goal: i64) -> TransitionSystem {
    let dom = Domain::closed(q(0), q(10));
    let eq = |f: &mut Formula, v: Var, c: i64| {
        let le = f.atom_lit(Atom::Bound {
            var: v,
            rel: Rel::Le,
            value: q(c),
        });
        let le_below = f.atom_lit(Atom::Bound {
            var: v,
            rel: Rel::Le,
            value: q(c - 1),
        });
        f.add_root(le);
        f.add_root(!le_below);
    };
    let mut init = Formula::new();
    let x0 = int_var(&mut init, "x", dom.clone());
    eq(&mut init, x0, 0);
    let mut trans = Formula::new();
    let x = int_var(&mut trans, "x", dom.clone());
    let xn = int_var(&mut trans, "x'", dom.clone());
    let h = int_var(&mut trans, "h", Domain::unbounded());
    trans.add_def(Def {
        out: h,
        op: Op::Linear {
            coeffs: vec![q(1), q(-1)],
            constant: q(0),
        },
        args: vec![xn, x],
    });
    eq(&mut trans, h, 1);
    let mut target = Formula::new();
    let xt = int_var(&mut target, "x", dom.clone());
    eq(&mut target, xt, goal);
    TransitionSystem {
        state: vec![StateVar {
            name: "x".into(),
            sort: Sort::Int,
            domain: dom,
            is_static: false,
            span: (0, 0),
        }],
        init,
        init_vars: vec![x0],
        trans,
        trans_current: vec![x],
        trans_next: vec![xn],
        target,
        target_vars: vec![xt],
    }
}

/// The counter's constraints, evaluated exactly by hand; `accept = false` rejects every trace.
struct Exact {
    goal: i64,
    accept: bool,
}

fn num(v: &Value) -> Option<Rational> {
    v.as_num().cloned()
}

impl Validator for Exact {
    fn init(&self, s: &[Value]) -> bool {
        self.accept && num(&s[0]) == Some(q(0))
    }
    fn trans(&self, s: &[Value], t: &[Value]) -> bool {
        matches!((num(&s[0]), num(&t[0])), (Some(a), Some(b)) if b == a.clone() + q(1))
    }
    fn target(&self, s: &[Value]) -> bool {
        num(&s[0]) == Some(q(self.goal))
    }
}

#[test]
fn bmc_finds_the_shortest_counterexample_and_replays_it() {
    let ts = counter(5);
    let r = bmc(
        &ts,
        &BmcConfig::default(),
        &Limits::default(),
        &Exact {
            goal: 5,
            accept: true,
        },
        &ic3::engine::quiet(),
    );
    assert_eq!(r.verdict, Verdict::Unsafe);
    assert_eq!(r.depth, Some(5));
    let trace = r.trace.expect("trace");
    let xs: Vec<Rational> = trace.iter().map(|s| num(&s[0]).unwrap()).collect();
    assert_eq!(xs, (0..=5).map(q).collect::<Vec<_>>());
}

#[test]
fn an_unvalidated_trace_is_only_a_candidate() {
    let ts = counter(5);
    let val = Exact {
        goal: 5,
        accept: false,
    };
    let q = ic3::engine::quiet();
    let r = bmc(&ts, &BmcConfig::default(), &Limits::default(), &val, &q);
    assert_eq!(r.verdict, Verdict::Candidate);
    assert_eq!(r.boxes.map(|b| b.len()), Some(6));
    let r = kind(&ts, &KindConfig::default(), &Limits::default(), &val, &q);
    assert_eq!(r.verdict, Verdict::Candidate);
}

#[test]
fn runs_that_end_prove_safe_and_depth_limits_are_unknown() {
    // x reaches at most 10: no run of length 11; x = 10 itself is reachable
    let val = |goal| Exact { goal, accept: true };
    let q = ic3::engine::quiet();
    let lim = Limits::default();
    // TARGET x = 10 at depth 10, even when BMC starts beyond the end of all runs
    let cfg = BmcConfig {
        start_depth: 12,
        ..BmcConfig::default()
    };
    let r = bmc(&counter(10), &cfg, &lim, &val(10), &q);
    assert_eq!((r.verdict, r.depth), (Verdict::Unsafe, Some(10)));
    let cfg = BmcConfig {
        max_depth: Some(4),
        ..BmcConfig::default()
    };
    let r = bmc(&counter(5), &cfg, &lim, &val(5), &q);
    assert_eq!(r.verdict, Verdict::Unknown);
    let r = kind(
        &counter(5),
        &KindConfig {
            max_k: Some(3),
            ..KindConfig::default()
        },
        &lim,
        &val(5),
        &q,
    );
    assert_eq!(r.verdict, Verdict::Unknown);
}

#[test]
fn kind_proves_an_unreachable_target() {
    // TARGET x = 5 with INIT x = 0 changed to x = 6 is unreachable: x only grows
    let mut ts = counter(5);
    let mut init = Formula::new();
    let x0 = int_var(&mut init, "x", ts.state[0].domain.clone());
    let ge6 = init.atom_lit(Atom::Bound {
        var: x0,
        rel: Rel::Le,
        value: q(5),
    });
    init.add_root(!ge6);
    ts.init = init;
    ts.init_vars = vec![x0];
    let val = Exact {
        goal: 5,
        accept: true,
    };
    let r = kind(
        &ts,
        &KindConfig {
            max_k: Some(20),
            ..KindConfig::default()
        },
        &Limits::default(),
        &val,
        &ic3::engine::quiet(),
    );
    assert_eq!(r.verdict, Verdict::Safe, "{:?}", r.note);
}

#[test]
fn portfolio_answers_and_respects_an_interrupt() {
    let ts = Arc::new(counter(7));
    let val: Arc<dyn Validator> = Arc::new(Exact {
        goal: 7,
        accept: true,
    });
    let r = portfolio(
        ts.clone(),
        &PortfolioConfig::default(),
        &Limits::default(),
        val.clone(),
        ic3::engine::quiet(),
    );
    assert_eq!((r.verdict, r.depth), (Verdict::Unsafe, Some(7)));
    let lim = Limits::default();
    lim.interrupt.store(true, Ordering::Relaxed);
    let r = portfolio(
        ts,
        &PortfolioConfig::default(),
        &lim,
        val,
        ic3::engine::quiet(),
    );
    assert_eq!(r.verdict, Verdict::Unknown);
}

#[test]
fn malformed_systems_and_configs_are_unknown_not_panics() {
    let mut ts = counter(5);
    ts.trans_next.clear();
    let val = Exact {
        goal: 5,
        accept: true,
    };
    let q = ic3::engine::quiet();
    let r = bmc(&ts, &BmcConfig::default(), &Limits::default(), &val, &q);
    assert_eq!(r.verdict, Verdict::Unknown);
    let bad = BmcConfig {
        start_depth: 3,
        max_depth: Some(1),
        ..BmcConfig::default()
    };
    let r = bmc(&counter(5), &bad, &Limits::default(), &val, &q);
    assert_eq!(r.verdict, Verdict::Unknown);
}
