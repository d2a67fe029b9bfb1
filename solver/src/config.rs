//! The solver's configuration: every tunable parameter, its default and its valid range in
//! one place (DESIGN §2; iSAT3's `--msw` and `--mpr`, paper §2.3).
//!
//! Semantics of the two ICP parameters:
//! - `msw` (minimal splitting width): a *real* variable whose interval is at most `msw` wide
//!   is never split; when every variable is that narrow (integers: points) and every clause is
//!   satisfied, the box is a candidate solution. Integers are always split down to points.
//! - `mpr` (minimal progress, relative): ICP posts a new bound on a variable only if it moves
//!   that end by at least `mpr · min(old width, |bound|)` (reals; `|bound|` is the larger
//!   magnitude of the old and new end) or `mpr · old width` (integers, where any change is at
//!   least one unit). Bounds coming from `±inf`, bounds that only change an end from closed to
//!   open, and contractions to the empty set (conflicts) are always posted. Relative to the
//!   width, a posted step removes a fixed fraction of the interval, so ICP cannot crawl
//!   towards a limit point for long; relative to the magnitude, progress at small scales
//!   (a bound moving from 0 to 1e-8 inside `(0, 1e-4)`) is not mistaken for no progress.
//!   After a few posted steps on the same variable since the last decision, a step must move
//!   the end by `mpr · max(old width, msw)`: that stops crawls towards zero, where the
//!   magnitude shrinks with the width.

/// Restart schedule.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RestartPolicy {
    /// restart after `restart_first · luby(i)` conflicts
    Luby,
    /// never restart
    Never,
}

/// Which half of an interval a fresh split decides first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SplitPhase {
    /// `x <= m` first
    Lower,
    /// `x > m` first
    Upper,
    /// the half whose values are smaller in magnitude first (towards zero)
    TowardZero,
}

/// How linear definitions over integers and reals are reasoned about.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LinearReasoning {
    /// interval constraint propagation only
    Icp,
    /// ICP plus an exact simplex over the linear definitions that refutes bound combinations
    /// with no rational solution (module `simplex`)
    Simplex,
}

impl LinearReasoning {
    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            LinearReasoning::Icp => "icp",
            LinearReasoning::Simplex => "simplex",
        }
    }
}

/// All parameters of a [`crate::Solver`]. Build with `SolverConfig::default()` and change
/// fields; [`SolverConfig::validate`] checks the ranges documented on each field.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverConfig {
    /// Minimal splitting width for real variables. Range: finite, `>= 0`. Default `0.01`.
    pub msw: f64,
    /// Minimal relative progress of an ICP contraction. Range: `[0, 1)`. Default `0.01`.
    pub mpr: f64,
    /// Restart schedule. Default Luby.
    pub restart: RestartPolicy,
    /// Conflicts per Luby unit. Range: `>= 1`. Default `100`.
    pub restart_first: u32,
    /// Conflicts before the first learned-clause reduction. Range: `>= 1`. Default `2000`.
    pub reduce_first: u32,
    /// Growth of the reduction interval after each reduction. Default `300`.
    pub reduce_inc: u32,
    /// Learned clauses with LBD at most this are never deleted. Range `>= 1`. Default `2`.
    pub keep_lbd: u32,
    /// VSIDS activity decay for atoms and variables. Range: `(0, 1)`. Default `0.95`.
    pub var_decay: f64,
    /// Activity decay for learned clauses. Range: `(0, 1)`. Default `0.999`.
    pub clause_decay: f64,
    /// First decided half of a fresh interval split. Default [`SplitPhase::Lower`].
    pub split_phase: SplitPhase,
    /// Try an exact point check whenever every clause is satisfied before splitting further
    /// (finds SAT early on boxes wider than `msw`). Default `true`.
    pub early_point_check: bool,
    /// When a full assignment fails the exact check, the solver remembers it as the candidate
    /// answer and keeps searching with up to this many further decisions per `solve` call
    /// that pin input reals to simple points (`x <= c`, then `x >= c`) below the splitting
    /// width, letting ICP narrow the rest, looking for an exactly checkable point. Range: any
    /// (`0` answers the first candidate). Default `1000`.
    pub point_refinements: u32,
    /// ... and within at most this many conflicts after the first candidate; then the first
    /// candidate is the answer. Range: any. Default `100`.
    pub refine_conflicts: u32,
    /// Points tried per exact check: the simple point of every input box, then points in
    /// quarters of the boxes. Range `>= 1`. Default `8`.
    pub point_trials: u32,
    /// Maximal bit size of a rational intermediate in the exact point check; larger numbers
    /// give up (the answer is then a candidate, never wrong). Range `>= 64`. Default `4096`.
    pub exact_max_bits: u64,
    /// Linear reasoning beside ICP. Default [`LinearReasoning::Icp`]: engines that unroll
    /// transition systems build large tableaux whose checks still cost more than they save;
    /// `icpic3 solve` turns the simplex on for single problems (benchmarks/RESULTS.md,
    /// issue #22 session 11).
    pub linear: LinearReasoning,
    /// With the simplex: IEEE operations that are linear up to rounding (`fl(a + b)`,
    /// `fl(k·a)`, `to_real(a)`, …) become tableau rows whose error is bounded by the format's
    /// gap at the result's magnitude (module `simplex::rounding`). Default `false`: on
    /// single float problems they were not measured; the engines that relate float
    /// variables (rel-inv's float terms, IC3 `+rel` over floats, the re-check of their
    /// invariants) turn them on.
    pub rounded_rows: bool,
    /// With the simplex: keep each simplex conflict's Farkas combination over the problem
    /// variables, for [`crate::Solver::take_farkas`] (IC3 `+farkas` reads terms from them).
    /// Default `false`.
    pub record_farkas: bool,
}

impl SolverConfig {
    /// This configuration with the simplex and its rounded rows on.
    pub fn with_rounded_rows(&self) -> SolverConfig {
        SolverConfig {
            linear: LinearReasoning::Simplex,
            rounded_rows: true,
            ..self.clone()
        }
    }
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            msw: 0.01,
            mpr: 0.01,
            restart: RestartPolicy::Luby,
            restart_first: 100,
            reduce_first: 2000,
            reduce_inc: 300,
            keep_lbd: 2,
            var_decay: 0.95,
            clause_decay: 0.999,
            split_phase: SplitPhase::Lower,
            early_point_check: true,
            point_refinements: 1000,
            point_trials: 8,
            refine_conflicts: 100,
            exact_max_bits: 4096,
            linear: LinearReasoning::Icp,
            rounded_rows: false,
            record_farkas: false,
        }
    }
}

impl SolverConfig {
    /// `Ok` when every field is in its documented range.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.msw.is_finite() && self.msw >= 0.0) {
            return Err(format!("msw must be finite and >= 0, got {}", self.msw));
        }
        if !(self.mpr >= 0.0 && self.mpr < 1.0) {
            return Err(format!("mpr must be in [0, 1), got {}", self.mpr));
        }
        if self.restart_first == 0 {
            return Err("restart_first must be >= 1".into());
        }
        if self.reduce_first == 0 {
            return Err("reduce_first must be >= 1".into());
        }
        if self.keep_lbd == 0 {
            return Err("keep_lbd must be >= 1".into());
        }
        if !(self.var_decay > 0.0 && self.var_decay < 1.0) {
            return Err(format!(
                "var_decay must be in (0, 1), got {}",
                self.var_decay
            ));
        }
        if !(self.clause_decay > 0.0 && self.clause_decay < 1.0) {
            return Err(format!(
                "clause_decay must be in (0, 1), got {}",
                self.clause_decay
            ));
        }
        if self.point_trials == 0 {
            return Err("point_trials must be >= 1".into());
        }
        if self.exact_max_bits < 64 {
            return Err("exact_max_bits must be >= 64".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_ranges_are_checked() {
        let d = SolverConfig::default();
        assert_eq!(d.validate(), Ok(()));
        let bad = [
            SolverConfig {
                msw: -1.0,
                ..d.clone()
            },
            SolverConfig {
                msw: f64::NAN,
                ..d.clone()
            },
            SolverConfig {
                mpr: 1.0,
                ..d.clone()
            },
            SolverConfig {
                mpr: -0.1,
                ..d.clone()
            },
            SolverConfig {
                restart_first: 0,
                ..d.clone()
            },
            SolverConfig {
                reduce_first: 0,
                ..d.clone()
            },
            SolverConfig {
                keep_lbd: 0,
                ..d.clone()
            },
            SolverConfig {
                var_decay: 1.0,
                ..d.clone()
            },
            SolverConfig {
                clause_decay: 0.0,
                ..d.clone()
            },
            SolverConfig {
                exact_max_bits: 8,
                ..d.clone()
            },
        ];
        for c in bad {
            assert!(c.validate().is_err(), "{c:?}");
        }
        assert!(SolverConfig {
            msw: 0.0,
            mpr: 0.0,
            ..d
        }
        .validate()
        .is_ok());
    }
}
