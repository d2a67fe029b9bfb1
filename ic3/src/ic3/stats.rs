//! The statistics the paper reports (Table 1 and §4): solver calls, proof obligations, lemmas
//! per frame, the average reduction rate of generalization (`∅red. rate litDrop`: the share
//! of a blocked cube's literals that generalization removed), the share of literals improved
//! by bound generalization (`∅impr. boundGen`: literals of a generalized cube that are a
//! strictly weaker bound than the cube's original literal), and the time spent generalizing.

use std::time::Duration;

#[derive(Clone, Debug, Default)]
pub struct Ic3Stats {
    /// IC3's own solver calls (every `solve`, rotations and dropping included)
    pub solver_calls: u64,
    /// proof obligations handled
    pub obligations: u64,
    /// blocked cubes generalized into lemmas
    pub blocked: u64,
    /// lemmas per frame at the end (index = level; the last entry is `F_∞`)
    pub lemmas_per_frame: Vec<usize>,
    /// sum over blocked cubes of (removed literals / original literals)
    pub red_rate_sum: f64,
    /// literals of generalized cubes, and those of them weakened by bound generalization
    pub gen_lits: u64,
    pub boundgen_lits: u64,
    /// literal-rotation rounds (solver calls beyond the first of each ANALYZE)
    pub rotations: u64,
    /// GeNTR calls and the literals they removed (sum of shares)
    pub gentr_calls: u64,
    pub gentr_red_sum: f64,
    /// `+rel`: blocked cubes whose lemma is a bound over one linear term
    pub relational: u64,
    /// cubes that intersected I after generalization and were ungeneralized (§2.4.3)
    pub ungeneralized: u64,
    /// lemmas pushed one frame up by propagation
    pub pushed: u64,
    /// restarts of `+abort` with a longer suffix
    pub aborts: u64,
    /// the final suffix length (`indK`)
    pub suffix: usize,
    /// the highest frame opened
    pub frames: usize,
    /// CTGs blocked (`+ctg`), joins made (`+j`), CTG/Down() predecessors lifted (`+lf`)
    pub ctgs: u64,
    pub joins: u64,
    pub lifted: u64,
    /// EXCTG: predecessors of CTGs blocked (or tried) inside the shared budget (`+exctg`,
    /// DynAMic's third mode)
    pub exctg_preds: u64,
    /// DynAMic: blocked cubes generalized standard / with CTG / with EXCTG
    pub dyn_modes: [u64; 3],
    /// generalization cache (`+cache`): lookups, and the hits that saved a query
    pub cache_lookups: u64,
    pub cache_hits: u64,
    /// time in GENERALIZE (blocked cubes) and in GeNTR
    pub gen_time: Duration,
    /// time in the added generalization of §3 (`+ig` step 2 with Down()/CTG), part of
    /// `gen_time` (Table 1's `∅time ratio addGen`)
    pub addgen_time: Duration,
    pub gentr_time: Duration,
    pub total_time: Duration,
}

impl Ic3Stats {
    /// `∅red. rate litDrop`
    pub fn red_rate(&self) -> f64 {
        if self.blocked == 0 {
            0.0
        } else {
            self.red_rate_sum / self.blocked as f64
        }
    }

    /// `∅impr. boundGen`
    pub fn boundgen_rate(&self) -> f64 {
        if self.gen_lits == 0 {
            0.0
        } else {
            self.boundgen_lits as f64 / self.gen_lits as f64
        }
    }

    /// time in generalization / total time
    pub fn gen_time_ratio(&self) -> f64 {
        let t = self.total_time.as_secs_f64();
        if t == 0.0 {
            0.0
        } else {
            (self.gen_time + self.gentr_time).as_secs_f64() / t
        }
    }

    /// time in the added generalization / total time
    pub fn addgen_time_ratio(&self) -> f64 {
        let t = self.total_time.as_secs_f64();
        if t == 0.0 {
            0.0
        } else {
            self.addgen_time.as_secs_f64() / t
        }
    }

    /// Adds the counters of an aborted run (the `+abort` restarts).
    pub fn absorb(&mut self, o: &Ic3Stats) {
        self.solver_calls += o.solver_calls;
        self.obligations += o.obligations;
        self.blocked += o.blocked;
        self.red_rate_sum += o.red_rate_sum;
        self.gen_lits += o.gen_lits;
        self.boundgen_lits += o.boundgen_lits;
        self.rotations += o.rotations;
        self.gentr_calls += o.gentr_calls;
        self.gentr_red_sum += o.gentr_red_sum;
        self.relational += o.relational;
        self.ungeneralized += o.ungeneralized;
        self.pushed += o.pushed;
        self.aborts += o.aborts;
        self.gen_time += o.gen_time;
        self.addgen_time += o.addgen_time;
        self.ctgs += o.ctgs;
        self.joins += o.joins;
        self.lifted += o.lifted;
        self.exctg_preds += o.exctg_preds;
        for k in 0..3 {
            self.dyn_modes[k] += o.dyn_modes[k];
        }
        self.cache_lookups += o.cache_lookups;
        self.cache_hits += o.cache_hits;
        self.gentr_time += o.gentr_time;
    }

    /// `name value` lines, for `-v -v` and the JSON `stats` object.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let per_frame: Vec<String> = self
            .lemmas_per_frame
            .iter()
            .map(|n| n.to_string())
            .collect();
        vec![
            ("ic3_solver_calls", self.solver_calls.to_string()),
            ("ic3_obligations", self.obligations.to_string()),
            ("ic3_blocked_cubes", self.blocked.to_string()),
            ("ic3_frames", self.frames.to_string()),
            ("ic3_suffix", self.suffix.to_string()),
            ("ic3_lemmas_per_frame", format!("[{}]", per_frame.join(","))),
            ("ic3_red_rate_litdrop", format!("{:.4}", self.red_rate())),
            ("ic3_impr_boundgen", format!("{:.4}", self.boundgen_rate())),
            ("ic3_rotations", self.rotations.to_string()),
            ("ic3_gentr_calls", self.gentr_calls.to_string()),
            ("ic3_relational_lemmas", self.relational.to_string()),
            (
                "ic3_gentr_red_rate",
                format!(
                    "{:.4}",
                    if self.gentr_calls == 0 {
                        0.0
                    } else {
                        self.gentr_red_sum / self.gentr_calls as f64
                    }
                ),
            ),
            ("ic3_ungeneralized", self.ungeneralized.to_string()),
            ("ic3_pushed", self.pushed.to_string()),
            ("ic3_aborts", self.aborts.to_string()),
            (
                "ic3_gen_time_s",
                format!("{:.6}", self.gen_time.as_secs_f64()),
            ),
            (
                "ic3_gentr_time_s",
                format!("{:.6}", self.gentr_time.as_secs_f64()),
            ),
            (
                "ic3_gen_time_ratio",
                format!("{:.4}", self.gen_time_ratio()),
            ),
            ("ic3_ctgs", self.ctgs.to_string()),
            ("ic3_joins", self.joins.to_string()),
            ("ic3_lifted", self.lifted.to_string()),
            ("ic3_exctg_preds", self.exctg_preds.to_string()),
            (
                "ic3_dynamic_modes",
                format!(
                    "[{},{},{}]",
                    self.dyn_modes[0], self.dyn_modes[1], self.dyn_modes[2]
                ),
            ),
            ("ic3_cache_lookups", self.cache_lookups.to_string()),
            ("ic3_cache_hits", self.cache_hits.to_string()),
            (
                "ic3_addgen_time_s",
                format!("{:.6}", self.addgen_time.as_secs_f64()),
            ),
            (
                "ic3_addgen_time_ratio",
                format!("{:.4}", self.addgen_time_ratio()),
            ),
        ]
    }
}
