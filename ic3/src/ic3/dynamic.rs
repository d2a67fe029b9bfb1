//! DynAMic (EXCTG paper, §IV, Algorithm 5): the effort spent generalizing a blocked cube
//! follows how hard its successor was to block.
//!
//! The idea: a state whose predecessors keep turning up (many failed blocking attempts) sits
//! behind a wall that standard literal dropping rebuilds one brick at a time; its
//! predecessors deserve CTG or EXCTG. An easy state does not: there the extra queries are
//! pure overhead. So each proof obligation counts its failed blocking attempts (`act`), and
//! when a predecessor of it is blocked, the generalization of that predecessor is chosen by
//! the successor's count `sact`:
//! - `sact < CTG_TH`: standard (inductive generalization without CTGs);
//! - `CTG_TH <= sact < EXCTG_TH`: CTG with `CTG_MAX = (sact - CTG_TH) / 10 + 2`;
//! - `sact >= EXCTG_TH`: EXCTG with `CTG_MAX = 5` and
//!   `EXCTG_LIMIT = (sact - EXCTG_TH)^0.3 · 2 + 5` (grows ever more slowly: `sact` can get
//!   very large on hard frontiers, and an unbounded budget would stall the search).
//!
//! Two rules the paper leaves to the implementation, since its BLOCK is recursive and ours
//! is a priority queue of obligations (`ic3::block`):
//! - *successor rule*: `sact` is read from the successor obligation when the predecessor is
//!   generalized, not copied when it is created; with the queue, the successor can fail
//!   again (more predecessors) while this one waits, and the newer count is the better
//!   measure. A cube with no successor obligation (found by the bad-state query) has
//!   `sact = 0`, as the top-level call of the paper's BLOCK.
//! - *decay rule*: the paper's `act` is local to one BLOCK call, i.e. to one level. Our
//!   obligations come back one level higher after being blocked; their count is then halved
//!   rather than reset: a state that was hard to block at `F_i` is usually hard at `F_{i+1}`
//!   too, but once it gets easy the effort spent on its predecessors fades within a few
//!   levels.

use crate::config::Ic3Config;

/// How much inductive generalization may spend on one cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// block counterexamples to generalization (§3.2)
    pub ctg: bool,
    /// `CTG_MAX` / `maxCTGs`: CTGs blocked in a row for one literal
    pub max_ctgs: u32,
    /// `EXCTG_LIMIT`: blocking attempts one CTG's recursion may spend (1: plain CTG)
    pub exctg_limit: u32,
}

impl Effort {
    /// The fixed effort of a static configuration (`+ctg`, `+exctg`).
    pub fn fixed(cfg: &Ic3Config) -> Effort {
        Effort {
            ctg: cfg.ctg,
            max_ctgs: cfg.max_ctgs,
            exctg_limit: if cfg.exctg { cfg.exctg_limit } else { 1 },
        }
    }

    /// DynAMic's effort for a cube whose successor failed to be blocked `sact` times
    /// (Algorithm 5, `dyn_generalize`).
    pub fn dynamic(cfg: &Ic3Config, sact: u32) -> Effort {
        if sact < cfg.ctg_th {
            Effort {
                ctg: false,
                max_ctgs: 0,
                exctg_limit: 1,
            }
        } else if sact < cfg.exctg_th {
            Effort {
                ctg: true,
                max_ctgs: (sact - cfg.ctg_th) / 10 + 2,
                exctg_limit: 1,
            }
        } else {
            let x = f64::from(sact - cfg.exctg_th);
            // (sact - EXCTG_TH)^0.3 · 2 + 5, at most a few dozen for any u32 count
            let limit = (x.powf(0.3) * 2.0 + 5.0).floor() as u32;
            Effort {
                ctg: true,
                max_ctgs: 5,
                exctg_limit: limit.clamp(1, 100),
            }
        }
    }

    /// The effort for the next blocked cube: DynAMic's from `sact`, or the fixed one.
    pub fn for_cube(cfg: &Ic3Config, sact: u32) -> Effort {
        if cfg.dynamic {
            Effort::dynamic(cfg, sact)
        } else {
            Effort::fixed(cfg)
        }
    }
}

/// The decay rule: the count an obligation keeps when it comes back one level higher.
pub fn decay(act: u32) -> u32 {
    act / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effort_follows_the_papers_thresholds_and_formulas() {
        let cfg = Ic3Config::preset("ind0+ig+dynamic").unwrap();
        // standard below CTG_TH = 10
        assert!(!Effort::dynamic(&cfg, 0).ctg);
        assert!(!Effort::dynamic(&cfg, 9).ctg);
        // CTG from 10: CTG_MAX = (act - 10) / 10 + 2, no EXCTG recursion
        let e = Effort::dynamic(&cfg, 10);
        assert_eq!((e.ctg, e.max_ctgs, e.exctg_limit), (true, 2, 1));
        assert_eq!(Effort::dynamic(&cfg, 39).max_ctgs, 4);
        // EXCTG from 40: CTG_MAX 5, EXCTG_LIMIT = (act - 40)^0.3 · 2 + 5
        let e = Effort::dynamic(&cfg, 40);
        assert_eq!((e.ctg, e.max_ctgs, e.exctg_limit), (true, 5, 5));
        // 1000 - 40 = 960; 960^0.3 = 7.86…; · 2 + 5 = 20.7…
        assert_eq!(Effort::dynamic(&cfg, 1000).exctg_limit, 20);
        // the growth slows down and stays bounded
        assert!(Effort::dynamic(&cfg, u32::MAX).exctg_limit <= 100);
        // a static configuration ignores the count
        let st = Ic3Config::preset("ind0+ig+ctg+exctg").unwrap();
        assert_eq!(Effort::for_cube(&st, 0), Effort::for_cube(&st, 1000));
        assert_eq!(Effort::for_cube(&st, 0).exctg_limit, 5);
        let plain = Ic3Config::preset("ind0+ig+ctg").unwrap();
        assert_eq!(Effort::for_cube(&plain, 7).exctg_limit, 1);
        assert_eq!(decay(9), 4);
    }
}
