//! One typed configuration per engine (DESIGN §3): defaults, ranges and validation in one
//! place. Validation returns an error message, never panics; the command line turns it into
//! a usage error.

use solver::SolverConfig;

/// The largest depth any engine accepts: each step adds a copy of TRANS to one solver, so this
/// bounds memory long before it bounds time.
pub const MAX_DEPTH_LIMIT: usize = 1_000_000;

/// Bounded model checking (iSAT3's BMC: depths `start_depth ..= max_depth`).
#[derive(Clone, Debug, Default)]
pub struct BmcConfig {
    /// first depth whose target is checked (iSAT3 `--start-depth`; default 0)
    pub start_depth: usize,
    /// last depth checked; `None` = no limit (iSAT3's default)
    pub max_depth: Option<usize>,
    pub solver: SolverConfig,
}

impl BmcConfig {
    pub fn validate(&self) -> Result<(), String> {
        check_depth("--start-depth", self.start_depth)?;
        if let Some(m) = self.max_depth {
            check_depth("--max-depth", m)?;
            if m < self.start_depth {
                return Err(format!(
                    "--max-depth ({m}) is smaller than --start-depth ({})",
                    self.start_depth
                ));
            }
        }
        self.solver.validate()
    }
}

/// k-induction with simple-path constraints.
#[derive(Clone, Debug)]
pub struct KindConfig {
    /// the largest k tried (base case depth and induction length); `None` = no limit
    pub max_k: Option<usize>,
    /// add the simple-path constraints (pairwise distinct states) to the induction step;
    /// without them k-induction is incomplete even on finite systems
    pub simple_path: bool,
    pub solver: SolverConfig,
}

impl Default for KindConfig {
    fn default() -> Self {
        KindConfig {
            max_k: None,
            simple_path: true,
            solver: SolverConfig::default(),
        }
    }
}

impl KindConfig {
    pub fn validate(&self) -> Result<(), String> {
        if let Some(k) = self.max_k {
            check_depth("--max-depth", k)?;
        }
        self.solver.validate()
    }
}

/// The engines a portfolio can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    Bmc,
    Kind,
}

impl EngineKind {
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Bmc => "bmc",
            EngineKind::Kind => "kind",
        }
    }
}

/// Several engines on threads; the first SAFE or UNSAFE wins.
#[derive(Clone, Debug)]
pub struct PortfolioConfig {
    pub engines: Vec<EngineKind>,
    pub bmc: BmcConfig,
    pub kind: KindConfig,
}

impl Default for PortfolioConfig {
    fn default() -> Self {
        PortfolioConfig {
            engines: vec![EngineKind::Bmc, EngineKind::Kind],
            bmc: BmcConfig::default(),
            kind: KindConfig::default(),
        }
    }
}

impl PortfolioConfig {
    pub fn validate(&self) -> Result<(), String> {
        if self.engines.is_empty() {
            return Err("a portfolio needs at least one engine".into());
        }
        self.bmc.validate()?;
        self.kind.validate()
    }
}

fn check_depth(what: &str, d: usize) -> Result<(), String> {
    if d > MAX_DEPTH_LIMIT {
        return Err(format!("{what} must be at most {MAX_DEPTH_LIMIT}, not {d}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        assert!(BmcConfig::default().validate().is_ok());
        assert!(KindConfig::default().validate().is_ok());
        assert!(PortfolioConfig::default().validate().is_ok());
    }

    #[test]
    fn bad_values_are_errors() {
        let c = BmcConfig {
            start_depth: 5,
            max_depth: Some(3),
            ..BmcConfig::default()
        };
        assert!(c.validate().unwrap_err().contains("smaller"));
        let c = BmcConfig {
            max_depth: Some(MAX_DEPTH_LIMIT + 1),
            ..BmcConfig::default()
        };
        assert!(c.validate().is_err());
        let c = KindConfig {
            max_k: Some(usize::MAX),
            ..KindConfig::default()
        };
        assert!(c.validate().is_err());
        let p = PortfolioConfig {
            engines: vec![],
            ..PortfolioConfig::default()
        };
        assert!(p.validate().is_err());
    }
}
