//! Transition systems and the model-checking engines of icpic3: BMC, k-induction, IC3 of the
//! paper `isat3-ic3-stronger-generalization` (§2.4) and the portfolio that runs them in
//! parallel. Engines talk to [`solver`] only through its public API; UNSAFE answers
//! are replayed exactly through a [`Validator`] that the front end supplies.

pub mod bitblast_bmc;
pub mod bmc;
pub mod certificate;
pub mod config;
pub mod engine;
pub mod float_inv;
pub mod ic3;
pub mod kind;
pub mod portfolio;
pub mod replay;
pub mod ts;
pub mod unroll;

pub use config::{
    BmcConfig, EngineKind, FrameMode, Ic3Config, KindConfig, KindLemmas, PortfolioConfig,
};
pub use engine::{BoxValue, EngineResult, Invariant, Limits, Log, Validator, Verdict};
pub use ts::{StateVar, TransitionSystem};
