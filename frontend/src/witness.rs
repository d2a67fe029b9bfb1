//! The witness search away from a corner (issue #23): what `solve` tries after adaptive
//! refinement ended with a candidate.
//!
//! Where strict constraints touch (`x1 > x0 > 0` with polynomials that all vanish at the
//! origin), the ICP search narrows to ever smaller boxes at the touching point, and no point
//! of those boxes satisfies the strict constraints, while solutions exist elsewhere (often in
//! a thin sliver such as `x0 < x1 < x0 + 1e-8`). Two searches on *strengthenings* of the
//! formula look elsewhere:
//!
//! 1. **Probing** ([`probe`]): every declared real variable but one is fixed, one after the
//!    other, at a simple rational of the box that propagation alone leaves it (given the
//!    values fixed before it), and the search runs on the one free variable. A box far from
//!    the corner's variables is chosen because the simple point of a box lies in its middle
//!    half.
//! 2. **Margins** ([`Formula::with_strict_margin`]): every strict top-level bound must hold
//!    with a small margin to spare, which removes the touching point itself.
//!
//! Both are pure strengthenings (a model of the searched formula is a model of the original),
//! and nothing rests on that: only a SATISFIABLE counts, and its point is validated on the
//! *original* constraints (or its existence proof checked against the original formula) by
//! [`icp_round_on`] exactly like every other answer. An UNSATISFIABLE or a candidate of a
//! strengthened formula says nothing about the original and is dropped.

use crate::hys::check::Checked;
use crate::solve_cmd::{icp_round_on, Answer, Verdict};
use solver::formula::{Domain, Formula, Rel, Sort, VarOrigin};
use solver::interval::Interval;
use solver::num::{format_rational, Rational};
use solver::solve::{Solver, Stats};
use solver::{SolverConfig, Var};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The margins tried, in this order: a strict root `x > c` becomes `x >= c + margin`. The
/// larger one cuts the corner off more widely; the smaller one keeps solutions in slivers
/// narrower than the larger one.
pub const MARGINS: [(i64, i64); 2] = [(1, 1_000_000), (1, 1_000_000_000)];
/// With a time limit, refinement leaves 1/SHARE_DEN of the remaining time to this search.
pub const SHARE_DEN: u32 = 4;
/// Probing fixes all variables but one; with more declared real variables than this it
/// tries only this many choices of the free one (each try is one search).
pub const MAX_PROBES: usize = 8;

/// Runs probing, then the margins, until one gives a SATISFIABLE validated on the original
/// constraints or `until` passes. `stats` collects every search's counters.
pub fn search(
    checked: &Checked,
    f: &Formula,
    config: &SolverConfig,
    until: Instant,
    interrupt: Option<&Arc<AtomicBool>>,
    stats: &mut Stats,
) -> Option<Answer> {
    let stopped =
        || Instant::now() >= until || interrupt.is_some_and(|i| i.load(Ordering::Relaxed));
    let mut run = |searched: &Formula, how: String| -> Option<Answer> {
        let mut a = icp_round_on(
            checked,
            f,
            searched,
            config,
            Some(until),
            interrupt.cloned(),
        );
        ic3::engine::add_stats(stats, &a.stats);
        (a.verdict == Verdict::Satisfiable).then(|| {
            a.note = Some(format!("witness found away from a corner: {how}"));
            a
        })
    };
    let reals: Vec<Var> = f
        .vars
        .iter()
        .filter(|(_, v)| v.sort == Sort::Real && matches!(v.origin, VarOrigin::Declared { .. }))
        .map(|(v, _)| v)
        .collect();
    if reals.len() >= 2 {
        for &free in reals.iter().take(MAX_PROBES) {
            if stopped() {
                return None;
            }
            let Some(fixed) = probe(f, config, &reals, free) else {
                continue;
            };
            let mut g = f.clone();
            for (v, q) in &fixed {
                g.vars[*v].domain = Domain::point(q.clone());
            }
            let shown: Vec<String> = fixed
                .iter()
                .map(|(v, q)| format!("{} = {}", f.vars[*v].name, format_rational(q)))
                .collect();
            let how = format!("the search ran with {} fixed (probing)", shown.join(", "));
            if let Some(a) = run(&g, how) {
                return Some(a);
            }
        }
    }
    for (num, den) in MARGINS {
        if stopped() {
            return None;
        }
        let margin = Rational::new(num.into(), den.into());
        let strengthened = f.with_strict_margin(&margin)?;
        let how = format!(
            "the search ran with every strict top-level constraint strengthened by the margin {}",
            format_rational(&margin)
        );
        if let Some(a) = run(&strengthened, how) {
            return Some(a);
        }
    }
    None
}

/// How many parts of a box probing tries for one variable: its simple point, then the simple
/// points of the upper and the lower half, quarter, eighth, ... of the box.
pub const PROBE_PARTS: u32 = 4;

/// Values for every variable of `reals` but `free`, fixed in order: each at the first of the
/// simple points ([`solver::model::simple_point`]) of [`probe_boxes`] of the box that
/// propagation derives for it from the formula and the values fixed before it, that
/// propagation does not refute. `None` when none is left for some variable.
pub fn probe(
    f: &Formula,
    config: &SolverConfig,
    reals: &[Var],
    free: Var,
) -> Option<Vec<(Var, Rational)>> {
    let mut solver = Solver::new(config.clone()).ok()?;
    let map = solver.add_formula(f);
    let mut assumptions = Vec::new();
    let mut fixed = Vec::new();
    for &v in reals.iter().filter(|&&v| v != free) {
        let sv = map.var(v);
        let b = solver.implied_boxes(&assumptions, &[sv])?[0];
        let chosen = probe_boxes(b).into_iter().find_map(|part| {
            let q = solver::model::simple_point(part, false)?;
            let lits = [
                solver.bound_lit(sv, Rel::Ge, &q),
                solver.bound_lit(sv, Rel::Le, &q),
            ];
            let mut with = assumptions.clone();
            with.extend(lits);
            solver
                .implied_boxes(&with, &[map.var(free)])
                .map(|_| (q, with))
        });
        let (q, with) = chosen?;
        assumptions = with;
        fixed.push((v, q));
    }
    Some(fixed)
}

/// The parts of `b` whose simple points probing tries: `b` itself, then for k = 1 ..
/// [`PROBE_PARTS`] the upper and the lower 1/2^k of it (bounded boxes only).
pub fn probe_boxes(b: Interval) -> Vec<Interval> {
    let mut parts = vec![b];
    if !b.is_bounded() || b.is_point() {
        return parts;
    }
    let (lo, hi) = (b.lo(), b.hi());
    for k in 1..=PROBE_PARTS {
        let w = (hi - lo) / f64::from(1u32 << k);
        parts.push(b.intersect(Interval::new(hi - w, false, hi, false)));
        parts.push(b.intersect(Interval::new(lo, false, lo + w, false)));
    }
    parts
}
