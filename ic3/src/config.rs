//! One typed configuration per engine (DESIGN §3): defaults, ranges and validation in one
//! place. Validation returns an error message, never panics; the command line turns it into
//! a usage error.

use crate::ts::TransitionSystem;
use solver::formula::Op;
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
    /// relational lemmas assumed at every state of the induction path (issue #22 item 2,
    /// `--engine kind-rel`); `None`: plain k-induction
    pub relational: Option<KindLemmas>,
    pub solver: SolverConfig,
}

impl Default for KindConfig {
    fn default() -> Self {
        KindConfig {
            max_k: None,
            simple_path: true,
            relational: None,
            solver: SolverConfig::default(),
        }
    }
}

impl KindConfig {
    pub fn validate(&self) -> Result<(), String> {
        if let Some(k) = self.max_k {
            check_depth("--max-depth", k)?;
        }
        if let Some(r) = &self.relational {
            r.validate()?;
        }
        self.solver.validate()
    }
}

/// Where k-induction's relational lemmas come from: `rel-inv`'s guesses over the system's
/// linear terms (`x - y <= 0`, per Boolean location), pruned until the survivors are
/// inductive relative to `¬TARGET`, so that they hold at every state of a shortest run to
/// the target (`crate::kind`).
#[derive(Clone, Debug)]
pub struct KindLemmas {
    /// the most linear terms (as IC3 `+rel`'s `max_terms`)
    pub max_terms: usize,
    /// the pruning's time (at most half of what is left when there is a deadline)
    pub budget: std::time::Duration,
}

impl Default for KindLemmas {
    fn default() -> Self {
        KindLemmas {
            max_terms: 16,
            budget: std::time::Duration::from_secs(10),
        }
    }
}

impl KindLemmas {
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=256).contains(&self.max_terms) {
            return Err(format!(
                "the number of relational terms must be in 1..=256, not {}",
                self.max_terms
            ));
        }
        if self.budget.is_zero() {
            return Err("the relational lemmas' time budget must be positive".into());
        }
        Ok(())
    }
}

/// How the frames `F_0 … F_k, F_∞` live in solvers (issue #6 asks to measure both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameMode {
    /// one solver holding `T` once; the lemmas of frame `j` are guarded by an activation
    /// literal `a_j`, and a query on `F_i` assumes `a_i … a_k` (delta encoding)
    Single,
    /// one solver per frame (IC3ref, rIC3): solver `i` holds `T` and the lemmas of every
    /// frame `j ≥ i` as plain clauses
    PerFrame,
}

impl FrameMode {
    pub fn name(self) -> &'static str {
        match self {
            FrameMode::Single => "single",
            FrameMode::PerFrame => "per-frame",
        }
    }
}

/// IC3 as in iSAT3+IC3 (paper `isat3-ic3-stronger-generalization`, §2.2 and §2.4). Option
/// names are the paper's (Table 1): `indK` is [`Ic3Config::suffix`], `+abort`, `+ld`,
/// `+ldonce`. [`Ic3Config::preset`] parses the row names.
#[derive(Clone, Debug)]
pub struct Ic3Config {
    /// `indK`: the bad-state query looks `K` transitions further than standard IC3
    /// (§2.4.6): `F_i(s0) ∧ T(s0,s1) ∧ ¬TG(s1) ∧ … ∧ T(sK,sK+1) ∧ TG(sK+1)`. Range 0..=64.
    /// Default 0 (`ind0`, standard IC3).
    pub suffix: usize,
    /// `+abort`: restart from scratch with a longer suffix when [`Ic3Config::abort_limit`]
    /// proof obligations were handled without the frontier moving (§2.4.6). Default off.
    pub abort: bool,
    /// proof obligations handled at one frontier before `+abort` restarts. Range >= 1.
    /// Default 1000 (the paper gives no number; see docs Part D.12).
    pub abort_limit: u64,
    /// `+ld`: literal dropping after each propagation step of GENERALIZE, in GeNTR and in
    /// ungeneralization (§2.4.4). Default off.
    pub ld: bool,
    /// `+ldonce`: literal dropping once, after GENERALIZE pushed the cube to its highest
    /// frame (§3, without inductive generalization). Default off.
    pub ldonce: bool,
    /// literal rotation on failed assumptions (§2.4.1); off: one final-conflict core.
    /// Default on.
    pub rotation: bool,
    /// bound generalization inside literal rotation (§2.4.2). Default on.
    pub bound_gen: bool,
    /// after GENERALIZE, move each bound literal toward its declared range end by bisection
    /// (a few probes per literal, §3.3's bound weakening; see `ic3::generalize`). Not in the
    /// paper's `ind0`; on in every preset (docs Part D.12), `+nobw` turns it off. Default on.
    pub weaken: bool,
    /// generalize proof obligations with the negated transition relation (§2.4.5).
    /// Default on.
    pub gentr: bool,
    /// BMC probes when a frontier needs many obligations (see `ic3::block`): not in the
    /// paper; on in every preset, `+noprobe` turns it off. Default on.
    pub probe: bool,
    /// `+ig`: inductive generalization (§3.1, §3.4 GENERALIZE step 2): once the cube sits at
    /// its highest frame, drop literals against formula 3, `F_i ∧ ¬ĉ' ∧ T ∧ ĉ''`, where the
    /// literal leaves the clause too. Default off.
    pub ig: bool,
    /// `+j`: Down() (§3.1.2): when dropping a literal leaves a predecessor, join the cube
    /// with it (common literals, per variable the weaker same-direction bound) and try
    /// again until the join meets `I`. Requires `+ig`. Default off.
    pub join: bool,
    /// `+ctg`: counterexamples to generalization (§3.2, §3.4 CTG): a predecessor without an
    /// `F_{i-1}`-predecessor of its own is blocked (GENERALIZE one level down) and the drop
    /// is tried again. Requires `+ig`. Default off.
    pub ctg: bool,
    /// `+lf`: generalize CTG and Down() predecessors by lifting (`d ∧ T ∧ ¬ĉ'` UNSAT) instead
    /// of GeNTR — sound for them although `T` is a relation (§3.2 "Generalizing CTGs"), with
    /// GeNTR as the fallback when the point does not lift. Requires `+ctg` or `+j`.
    /// Default off.
    pub lf: bool,
    /// `maxCTGs` (§3.4): CTGs blocked in a row for one dropped literal before it is given up
    /// (or joined). Range 1..=1000. Default 3 (the paper's value, from Hassan et al.).
    pub max_ctgs: u32,
    /// `maxRecDepth` (§3.4, `CTG_LV` of the EXCTG paper): how deep GENERALIZE recurses
    /// into CTGs. Range 0..=10. Default 1 (the paper's value).
    pub max_rec_depth: u32,
    /// `+exctg` (EXCTG paper, Algorithm 4): a CTG that cannot be blocked because it has a
    /// predecessor of its own gets that predecessor blocked first (recursively), under a
    /// budget of [`Ic3Config::exctg_limit`] blocking attempts shared by the whole recursion.
    /// Requires `+ctg`. Default off.
    pub exctg: bool,
    /// `EXCTG_LIMIT`: blocking attempts one EXCTG recursion may spend; 1 is plain CTG.
    /// Range 1..=100. Default 5 (the paper's value).
    pub exctg_limit: u32,
    /// `+dynamic` (DynAMic, EXCTG paper Algorithm 5): the effort of each generalization
    /// follows how hard the successor of the blocked cube was to block — standard dropping
    /// below [`Ic3Config::ctg_th`] failed attempts, CTG up to [`Ic3Config::exctg_th`], EXCTG
    /// beyond, with the paper's parameter formulas (see `ic3::dynamic`). Requires `+ig`;
    /// excludes `+ctg` and `+exctg`, whose choice it makes per cube. Default off.
    pub dynamic: bool,
    /// `CTG_TH`: failed blocking attempts from which DynAMic uses CTG. Range 1..=10000.
    /// Default 10 (the paper's value).
    pub ctg_th: u32,
    /// `EXCTG_TH`: failed blocking attempts from which DynAMic uses EXCTG. Range
    /// `ctg_th..=10000`. Default 40 (the paper's value).
    pub exctg_th: u32,
    /// `+cache`: the generalization cache of the IC3CFA papers ("upper bound" rule, see
    /// `ic3::cache`): a blocked cube contained in an earlier generalization `g`, at a frame at
    /// least as strong as the one `g` was computed against, is blocked by `g` without a
    /// solver call. Default off.
    pub cache: bool,
    /// entries the generalization cache keeps (least recently used evicted first). Range
    /// 1..=100000. Default 64.
    pub cache_size: usize,
    /// `+rel`: relational cube literals (issue #22 item 2, see `ic3::terms`): bounds over
    /// linear terms of state variables — the system's own sums and differences, octagonal
    /// `x ± y` — next to the boxes, so that `a + b <= N` is one lemma instead of one per
    /// value. Not in the paper's rows. Default off.
    pub relational: bool,
    /// `+farkas` (with `+rel`): terms read from the simplex's Farkas explanations (issue #22
    /// item 2, see `ic3::terms::mined`). IC3 runs half of its time (5 s without a time
    /// limit) with the chosen terms, then restarts with the state parts of its frame solvers' simplex conflicts added as
    /// terms. Default off (measured: benchmarks/RESULTS.md, session 15).
    pub farkas: bool,
    /// the most linear terms `+rel` adds (the system's own first, then octagonal pairs).
    /// Range 1..=256. Default 16.
    pub max_terms: usize,
    /// seed of the pseudo-random first order of a cube's literals (§2.4.1). Default 1.
    pub seed: u64,
    /// Default [`FrameMode::Single`] (measured faster, see benchmarks/RESULTS.md).
    pub frames: FrameMode,
    /// the largest frontier frame; `None` = no limit
    pub max_frames: Option<usize>,
    pub solver: SolverConfig,
}

impl Default for Ic3Config {
    fn default() -> Self {
        Ic3Config {
            suffix: 0,
            abort: false,
            abort_limit: 1000,
            ld: false,
            ldonce: false,
            rotation: true,
            bound_gen: true,
            weaken: true,
            probe: true,
            gentr: true,
            ig: false,
            join: false,
            ctg: false,
            lf: false,
            max_ctgs: 3,
            max_rec_depth: 1,
            exctg: false,
            exctg_limit: 5,
            dynamic: false,
            ctg_th: 10,
            exctg_th: 40,
            cache: false,
            cache_size: 64,
            relational: false,
            farkas: false,
            max_terms: 16,
            seed: 1,
            frames: FrameMode::Single,
            max_frames: None,
            solver: SolverConfig::default(),
        }
    }
}

/// The Table 1 rows of the paper (§4): the baseline rows of §2.4 and the stronger
/// generalization rows of §3.
pub const IC3_PRESETS: [&str; 24] = [
    "ind0",
    "ind0+ld",
    "ind0+ldonce",
    "ind0+abort",
    "ind2",
    "ind2+abort",
    "ind0+ig",
    "ind0+ig+j",
    "ind0+ig+ctg",
    "ind0+ig+ctg+lf",
    "ind0+ig+ctg+j",
    "ind0+ig+ctg+j+lf",
    "ind0+abort+ig",
    "ind0+abort+ig+ctg+lf",
    "ind2+ig",
    "ind2+ig+ctg+lf",
    "ind2+abort+ig",
    "ind2+abort+ig+ctg+lf",
    "ind0+ig+ctg+exctg",
    "ind2+abort+ig+ctg+lf+exctg",
    "ind0+ig+dynamic",
    "ind2+abort+ig+lf+dynamic",
    "ind0+cache",
    "ind2+abort+cache",
];

/// The most transitions a suffix may unroll.
pub const MAX_SUFFIX: usize = 64;

impl Ic3Config {
    /// Parses a configuration name: `indK` followed by any of `+abort`, `+ld`, `+ldonce`,
    /// `+ig`, … (e.g. `ind2+abort`), on top of the defaults; or `exctg` / `dynamic`.
    pub fn preset(name: &str) -> Result<Ic3Config, String> {
        // the EXCTG paper's names: its methods on top of the best static row measured here
        // (benchmarks/RESULTS.md, Table 1)
        // (also as the head of a longer name: `dynamic+rel`)
        let (head, tail) = match name.split_once('+') {
            Some((h, t)) => (h, Some(t)),
            None => (name, None),
        };
        let head = match head {
            "exctg" => "ind2+abort+ig+ctg+lf+exctg",
            "dynamic" => "ind2+abort+ig+lf+dynamic",
            other => other,
        };
        let full = match tail {
            Some(t) => format!("{head}+{t}"),
            None => head.to_string(),
        };
        let name = full.as_str();
        let mut parts = name.split('+');
        let head = parts.next().unwrap_or("");
        let k = head
            .strip_prefix("ind")
            .and_then(|k| k.parse::<usize>().ok())
            .ok_or_else(|| {
                format!(
                    "unknown IC3 configuration `{name}`: it must start with `indK` (K = suffix \
                     length), e.g. {}",
                    IC3_PRESETS.join(", ")
                )
            })?;
        let mut c = Ic3Config {
            suffix: k,
            ..Ic3Config::default()
        };
        for opt in parts {
            match opt {
                "abort" => c.abort = true,
                "ld" => c.ld = true,
                "ldonce" => c.ldonce = true,
                "nobw" => c.weaken = false,
                "noprobe" => c.probe = false,
                "ig" => c.ig = true,
                "j" => c.join = true,
                "ctg" => c.ctg = true,
                "lf" => c.lf = true,
                "exctg" => c.exctg = true,
                "dynamic" => c.dynamic = true,
                "cache" => c.cache = true,
                "rel" => c.relational = true,
                "farkas" => c.farkas = true,
                _ => {
                    return Err(format!(
                        "unknown IC3 option `+{opt}` in `{name}` (known: +abort, +ld, +ldonce, \
                         +ig, +j, +ctg, +lf, +exctg, +dynamic, +cache, +rel, +farkas, +nobw, +noprobe)"
                    ))
                }
            }
        }
        c.validate()?;
        Ok(c)
    }

    /// The configuration's name in the paper's notation.
    pub fn name(&self) -> String {
        let mut n = format!("ind{}", self.suffix);
        for (on, opt) in [
            (self.abort, "abort"),
            (self.ld, "ld"),
            (self.ldonce, "ldonce"),
            (self.ig, "ig"),
            (self.ctg, "ctg"),
            (self.join, "j"),
            (self.lf, "lf"),
            (self.exctg, "exctg"),
            (self.dynamic, "dynamic"),
            (self.cache, "cache"),
            (self.relational, "rel"),
            (self.farkas, "farkas"),
            (!self.weaken, "nobw"),
            (!self.probe, "noprobe"),
        ] {
            if on {
                n.push('+');
                n.push_str(opt);
            }
        }
        n
    }

    pub fn validate(&self) -> Result<(), String> {
        if self.suffix > MAX_SUFFIX {
            return Err(format!(
                "the IC3 suffix length must be at most {MAX_SUFFIX}, not {}",
                self.suffix
            ));
        }
        if self.abort_limit == 0 {
            return Err("the +abort limit must be at least 1".into());
        }
        if self.ld && self.ldonce {
            return Err("+ld and +ldonce exclude each other".into());
        }
        if (self.join || self.ctg) && !self.ig {
            return Err("+j and +ctg extend inductive generalization: they need +ig".into());
        }
        if self.lf && !(self.ctg || self.join || self.dynamic) {
            return Err(
                "+lf generalizes CTG and Down() predecessors: it needs +ctg, +j or +dynamic".into(),
            );
        }
        if self.exctg && !self.ctg {
            return Err("+exctg extends CTG: it needs +ctg".into());
        }
        if self.dynamic && !self.ig {
            return Err(
                "+dynamic chooses the effort of inductive generalization: it needs +ig".into(),
            );
        }
        if self.dynamic && (self.ctg || self.exctg) {
            return Err(
                "+dynamic chooses between standard dropping, CTG and EXCTG per cube: it \
                 excludes +ctg and +exctg"
                    .into(),
            );
        }
        if !(1..=100).contains(&self.exctg_limit) {
            return Err(format!(
                "EXCTG_LIMIT must be in 1..=100, not {}",
                self.exctg_limit
            ));
        }
        if !(1..=10_000).contains(&self.ctg_th) || !(self.ctg_th..=10_000).contains(&self.exctg_th)
        {
            return Err(format!(
                "DynAMic thresholds must satisfy 1 <= CTG_TH <= EXCTG_TH <= 10000, not {} and {}",
                self.ctg_th, self.exctg_th
            ));
        }
        if !(1..=100_000).contains(&self.cache_size) {
            return Err(format!(
                "the generalization cache size must be in 1..=100000, not {}",
                self.cache_size
            ));
        }
        if self.farkas && !self.relational {
            return Err("+farkas reads terms for +rel: it needs +rel".into());
        }
        if !(1..=256).contains(&self.max_terms) {
            return Err(format!(
                "the number of relational terms must be in 1..=256, not {}",
                self.max_terms
            ));
        }
        if self.ig && self.ldonce {
            return Err(
                "+ig replaces +ldonce (both drop literals once at the highest frame)".into(),
            );
        }
        if !(1..=1000).contains(&self.max_ctgs) {
            return Err(format!(
                "maxCTGs must be in 1..=1000, not {}",
                self.max_ctgs
            ));
        }
        if self.max_rec_depth > 10 {
            return Err(format!(
                "maxRecDepth must be in 0..=10, not {}",
                self.max_rec_depth
            ));
        }
        if let Some(m) = self.max_frames {
            check_depth("--max-depth", m)?;
        }
        self.solver.validate()
    }
}

/// The engines a portfolio can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    Bmc,
    Kind,
    Ic3,
    /// BMC by bit-blasting (`crate::bitblast_bmc`): counterexamples only
    BmcBitblast,
    /// k-induction by bit-blasting for k = 1, 2 within a few seconds
    /// (`crate::bitblast_bmc::bitblast_kind`): proofs only
    KindBitblast,
}

impl EngineKind {
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Bmc => "bmc",
            EngineKind::Kind => "kind",
            EngineKind::Ic3 => "ic3",
            EngineKind::BmcBitblast => "bmc-bitblast",
            EngineKind::KindBitblast => "kind-bitblast",
        }
    }
}

/// Several engines on threads; the first SAFE or UNSAFE wins.
#[derive(Clone, Debug)]
pub struct PortfolioConfig {
    pub engines: Vec<EngineKind>,
    pub bmc: BmcConfig,
    pub kind: KindConfig,
    pub ic3: Ic3Config,
    /// run `bmc-bitblast` instead of `kind-bitblast` on systems that reinterpret float bits
    /// (see [`PortfolioConfig::engines_for`]). Default on.
    pub bitblast_on_bits: bool,
}

impl Default for PortfolioConfig {
    fn default() -> Self {
        PortfolioConfig {
            // not bmc-bitblast (except instead of kind-bitblast on systems that reinterpret
            // float bits, see `engines_for`): a fourth thread on two cores slows the ICP BMC, which alone
            // finds the 1585-step counterexample of svcomp-floats' Double_div_bad.i (10.5 s
            // alone, 39 s in the three-engine portfolio on a loaded machine; the four-engine
            // portfolio missed it at 10 s and 30 s)
            // kind-bitblast: two or four short SAT calls (at most 5 s), then the thread ends
            engines: vec![
                EngineKind::Bmc,
                EngineKind::Kind,
                EngineKind::Ic3,
                EngineKind::KindBitblast,
            ],
            bmc: BmcConfig::default(),
            kind: KindConfig::default(),
            // chosen by measurement (benchmarks/RESULTS.md, portfolio members): DynAMic on
            // the best static row answered the most models
            ic3: Ic3Config::preset("dynamic").unwrap_or_default(),
            bitblast_on_bits: true,
        }
    }
}

/// Whether a formula of `ts` reinterprets float bits (`fp_bits`, `fp32_of_bits`,
/// `fp64_of_bits`: [`Op::FpToBits`], [`Op::FpOfBits`] in the lowered formulas).
pub fn uses_bit_reinterpretation(ts: &TransitionSystem) -> bool {
    [&ts.init, &ts.trans, &ts.target].iter().any(|f| {
        f.defs
            .iter()
            .any(|d| matches!(d.op, Op::FpToBits | Op::FpOfBits))
    })
}

impl PortfolioConfig {
    /// The engines the portfolio runs on `ts`: [`PortfolioConfig::engines`], except that on a
    /// system that reinterprets float bits ([`uses_bit_reinterpretation`]) and that
    /// bit-blasting fully supports, `kind-bitblast` is replaced by `bmc-bitblast` (same
    /// thread count). Such systems (C unions over floats, `fp_bits` masks and shifts on
    /// integer words) are hard for interval propagation — a bit mask ties every bit of a
    /// float — and `bmc-bitblast` finds their counterexamples at once (svcomp-floats-2's
    /// `cast_union_loose.c`: 0.7 s, the default portfolio timed out at 10 s). It does not
    /// replace the ICP BMC: measured on svcomp-floats-2 (10 s), replacing the ICP BMC lost six
    /// `float-newlib` SAFE answers that the ICP BMC gives in 0.2–0.4 s by "all runs end"
    /// (their first transition holds double arithmetic that the SAT solver does not refute
    /// within 10 s), while `kind-bitblast` answered none of the 80 tasks. Documented in
    /// docs/hys-language.md D.8.
    pub fn engines_for(&self, ts: &TransitionSystem) -> Vec<EngineKind> {
        let swap = self.bitblast_on_bits
            && uses_bit_reinterpretation(ts)
            && crate::bitblast_bmc::supported(ts).is_ok();
        self.engines
            .iter()
            .map(|&e| match e {
                EngineKind::KindBitblast if swap => EngineKind::BmcBitblast,
                e => e,
            })
            .collect()
    }

    pub fn validate(&self) -> Result<(), String> {
        if self.engines.is_empty() {
            return Err("a portfolio needs at least one engine".into());
        }
        self.bmc.validate()?;
        self.kind.validate()?;
        self.ic3.validate()
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
        let rel = |max_terms, secs| KindConfig {
            relational: Some(KindLemmas {
                max_terms,
                budget: std::time::Duration::from_secs(secs),
            }),
            ..KindConfig::default()
        };
        assert!(rel(16, 3).validate().is_ok());
        assert!(rel(0, 3).validate().unwrap_err().contains("1..=256"));
        assert!(rel(16, 0).validate().unwrap_err().contains("budget"));
        let p = PortfolioConfig {
            engines: vec![],
            ..PortfolioConfig::default()
        };
        assert!(p.validate().is_err());
    }

    #[test]
    fn presets_parse_and_name_themselves() {
        for p in IC3_PRESETS {
            let c = Ic3Config::preset(p).unwrap();
            assert_eq!(c.name(), p);
        }
        let c = Ic3Config::preset("ind2+abort").unwrap();
        assert!(c.abort && c.suffix == 2 && !c.ld);
        assert!(Ic3Config::preset("ind0+ld+ldonce").is_err());
        let c = Ic3Config::preset("ind2+abort+ig+ctg+lf").unwrap();
        assert!(c.ig && c.ctg && c.lf && !c.join && c.abort && c.suffix == 2);
        assert_eq!((c.max_ctgs, c.max_rec_depth), (3, 1));
        assert!(Ic3Config::preset("ind0+ctg").unwrap_err().contains("+ig"));
        assert!(Ic3Config::preset("ind0+ig+lf")
            .unwrap_err()
            .contains("+ctg"));
        assert!(Ic3Config::preset("ind0+ig+ldonce").is_err());
        let c = Ic3Config::preset("ind0+ig+ctg+exctg").unwrap();
        assert!(c.exctg && c.ctg && c.exctg_limit == 5);
        assert!(Ic3Config::preset("ind0+ig+exctg")
            .unwrap_err()
            .contains("+ctg"));
        let c = Ic3Config::preset("ind2+abort+ig+lf+dynamic").unwrap();
        assert!(c.dynamic && c.lf && !c.ctg && (c.ctg_th, c.exctg_th) == (10, 40));
        assert!(Ic3Config::preset("ind0+dynamic")
            .unwrap_err()
            .contains("+ig"));
        assert!(Ic3Config::preset("ind0+ig+ctg+dynamic")
            .unwrap_err()
            .contains("excludes"));
        assert_eq!(
            Ic3Config::preset("dynamic").unwrap().name(),
            "ind2+abort+ig+lf+dynamic"
        );
        assert!(Ic3Config::preset("exctg").unwrap().exctg);
        assert_eq!(
            Ic3Config::preset("dynamic+rel").unwrap().name(),
            "ind2+abort+ig+lf+dynamic+rel"
        );
        let c = Ic3Config::preset("ind0+ig+rel").unwrap();
        assert!(c.relational && c.ig && c.max_terms == 16);
        assert_eq!(c.name(), "ind0+ig+rel");
        assert!(!Ic3Config::preset("ind0").unwrap().relational);
        let c = Ic3Config::preset("dynamic+rel+farkas").unwrap();
        assert!(c.relational && c.farkas);
        assert_eq!(c.name(), "ind2+abort+ig+lf+dynamic+rel+farkas");
        assert!(Ic3Config::preset("dynamic+farkas")
            .unwrap_err()
            .contains("needs +rel"));
        let bad = Ic3Config {
            max_terms: 0,
            ..Ic3Config::default()
        };
        assert!(bad.validate().unwrap_err().contains("relational"));
        let c = Ic3Config::preset("ind0+cache").unwrap();
        assert!(c.cache && c.cache_size == 64);
        let bad = Ic3Config {
            exctg_th: 5,
            ..Ic3Config::default()
        };
        assert!(bad.validate().unwrap_err().contains("CTG_TH"));
        assert!(Ic3Config::preset("ind0+bogus")
            .unwrap_err()
            .contains("unknown"));
        assert!(Ic3Config::preset("bmc").is_err());
        assert!(Ic3Config::preset("ind65").is_err());
    }
}
