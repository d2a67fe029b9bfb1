//! Results of runs: `results.csv` rows, solver statistics taken from JSON output, and the
//! `summary.md` tables (counts, PAR-2, pairwise time ratios).

use super::table::csv_line;
use super::verdict::{Polarity, Status, Verdict};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

/// One (problem, configuration) run.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub suite: String,
    pub file: String,
    pub config: String,
    pub expected: Option<Verdict>,
    pub verdict: Verdict,
    pub status: Status,
    pub wall_s: f64,
    pub cpu_s: f64,
    pub peak_mb: f64,
    /// Exit code, `signal N`, or empty when the process could not be started.
    pub exit: String,
    pub isat3: Option<String>,
    /// Why a run is an ERROR/MEMOUT (or empty).
    pub note: String,
    /// Numeric top-level fields of the `stats` object of JSON output.
    pub stats: Vec<(String, f64)>,
}

/// The fixed columns of `results.csv`; `stats_<name>` columns follow.
pub const CSV_COLUMNS: [&str; 12] = [
    "suite",
    "file",
    "config",
    "expected",
    "verdict",
    "status",
    "wall_s",
    "cpu_s",
    "peak_mb",
    "exit_code",
    "isat3_recorded",
    "note",
];

impl Record {
    fn fixed_fields(&self) -> Vec<String> {
        vec![
            self.suite.clone(),
            self.file.clone(),
            self.config.clone(),
            self.expected
                .map(|v| v.as_str().to_string())
                .unwrap_or_default(),
            self.verdict.as_str().to_string(),
            self.status.as_str().to_string(),
            format!("{:.4}", self.wall_s),
            format!("{:.4}", self.cpu_s),
            format!("{:.1}", self.peak_mb),
            self.exit.clone(),
            self.isat3.clone().unwrap_or_default(),
            self.note.clone(),
        ]
    }

    /// The row without statistics columns (for the file written while the run goes on).
    pub fn partial_csv_line(&self) -> String {
        csv_line(&self.fixed_fields())
    }
}

/// `results.csv`: the fixed columns, then one `stats_<name>` column per statistic any run
/// reported (empty where a run did not).
pub fn results_csv(records: &[Record]) -> String {
    let names: BTreeSet<&str> = records
        .iter()
        .flat_map(|r| r.stats.iter().map(|(n, _)| n.as_str()))
        .collect();
    let mut header: Vec<String> = CSV_COLUMNS.iter().map(|s| s.to_string()).collect();
    header.extend(names.iter().map(|n| format!("stats_{n}")));
    let mut out = csv_line(&header);
    out.push('\n');
    for r in records {
        let mut fields = r.fixed_fields();
        for n in &names {
            fields.push(
                r.stats
                    .iter()
                    .find(|(k, _)| k == n)
                    .map(|(_, v)| format_number(*v))
                    .unwrap_or_default(),
            );
        }
        out.push_str(&csv_line(&fields));
        out.push('\n');
    }
    out
}

fn format_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// The numeric top-level fields of the `stats` object in a run's JSON output (icpic3
/// `--format json` prints one JSON document; older versions printed the verdict line first). Anything else is ignored: the
/// statistics are a bonus and must never turn a run into an error.
pub fn json_stats(stdout: &str) -> Vec<(String, f64)> {
    let Some(start) = stdout.find('{') else {
        return Vec::new();
    };
    let mut stream =
        serde_json::Deserializer::from_str(&stdout[start..]).into_iter::<serde_json::Value>();
    let Some(Ok(value)) = stream.next() else {
        return Vec::new();
    };
    // the solver counters (`stats`) and an engine's own ones (`engine_stats`, e.g. IC3's
    // `ic3_*` figures of the paper's Table 1)
    ["stats", "engine_stats"]
        .iter()
        .filter_map(|key| value.get(*key).and_then(|s| s.as_object()))
        .flat_map(|stats| stats.iter())
        .filter(|(k, _)| k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .filter_map(|(k, v)| v.as_f64().map(|x| (k.clone(), x)))
        .collect()
}

/// The mean of statistic `name` over the runs that report it and satisfy `keep`.
fn mean_stat(rs: &[&Record], name: &str, keep: impl Fn(&Record) -> bool) -> Option<f64> {
    let xs: Vec<f64> = rs
        .iter()
        .filter(|r| keep(r))
        .filter_map(|r| stat(r, name))
        .collect();
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

fn stat(r: &Record, name: &str) -> Option<f64> {
    r.stats.iter().find(|(k, _)| k == name).map(|(_, v)| *v)
}

/// The columns of the main paper's Table 1 for configurations that report IC3 statistics
/// (`None` when no run did): counterexamples and SAFE answers found (correct ones),
/// unresolved runs, wrong answers, and the means over runs of the share of run time in the
/// added generalization of §3 (`∅time ratio addGen`), the reduction rate of generalization
/// (`∅red. rate litDrop`) and the share of bound-generalized literals (`∅impr. boundGen`),
/// the last two over runs that blocked at least one cube.
pub fn table1(records: &[&Record], configs: &[String]) -> Option<String> {
    if !records
        .iter()
        .any(|r| stat(r, "ic3_solver_calls").is_some())
    {
        return None;
    }
    let header = [
        "config",
        "CEX",
        "safe",
        "unresolved",
        "wrong",
        "∅time ratio addGen",
        "∅red. rate litDrop",
        "∅impr. boundGen",
        "solved s",
    ];
    let cell = |x: Option<f64>| x.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into());
    let blocked = |r: &Record| stat(r, "ic3_blocked_cubes").is_some_and(|b| b > 0.0);
    let mut rows = Vec::new();
    for c in configs {
        let rs: Vec<&Record> = records.iter().copied().filter(|r| &r.config == c).collect();
        let correct = |p: Polarity| {
            rs.iter()
                .filter(|r| r.status == Status::Correct && r.verdict.polarity() == Some(p))
                .count()
        };
        let t = tally(&rs);
        rows.push(vec![
            c.clone(),
            correct(Polarity::Witness).to_string(),
            correct(Polarity::NoWitness).to_string(),
            (t.files - t.correct - t.wrong - t.unchecked).to_string(),
            t.wrong.to_string(),
            cell(mean_stat(&rs, "ic3_addgen_time_ratio", |_| true)),
            cell(mean_stat(&rs, "ic3_red_rate_litdrop", blocked)),
            cell(mean_stat(&rs, "ic3_impr_boundgen", blocked)),
            format!("{:.2}", solved_s(&rs)),
        ]);
    }
    Some(markdown_table(&header, &rows))
}

/// Wall time summed over the solved runs.
fn solved_s(records: &[&Record]) -> f64 {
    records
        .iter()
        .filter(|r| r.status.is_solved())
        .map(|r| r.wall_s)
        .sum()
}

/// PAR-2 in seconds: the wall time of each solved run, twice the time limit for each other
/// run (unresolved, error, or wrong).
pub fn par2(records: &[&Record], timeout_s: f64) -> f64 {
    records
        .iter()
        .map(|r| {
            if r.status.is_solved() {
                r.wall_s
            } else {
                2.0 * timeout_s
            }
        })
        .sum()
}

/// A Markdown table; columns whose cells all look numeric are right-aligned.
pub fn markdown_table(header: &[&str], rows: &[Vec<String>]) -> String {
    let numeric = |c: usize| {
        !rows.is_empty()
            && rows.iter().all(|r| {
                let s = r[c].trim_end_matches(['×', '%']);
                s == "-" || s.parse::<f64>().is_ok()
            })
    };
    let mut out = String::new();
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let aligns: Vec<&str> = (0..header.len())
        .map(|c| if numeric(c) { "---:" } else { "---" })
        .collect();
    let _ = writeln!(out, "|{}|", aligns.join("|"));
    for r in rows {
        let cells: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

/// Counts of one configuration on a set of runs.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Tally {
    pub files: usize,
    /// SATISFIABLE or UNSAFE.
    pub witness: usize,
    /// UNSATISFIABLE or SAFE.
    pub no_witness: usize,
    pub correct: usize,
    pub wrong: usize,
    pub unchecked: usize,
    pub candidate: usize,
    pub unknown: usize,
    pub timeout: usize,
    pub memout: usize,
    pub error: usize,
    pub wall_s: f64,
    pub cpu_s: f64,
}

pub fn tally(records: &[&Record]) -> Tally {
    let mut t = Tally::default();
    for r in records {
        t.files += 1;
        t.wall_s += r.wall_s;
        t.cpu_s += r.cpu_s;
        match r.verdict.polarity() {
            Some(Polarity::Witness) => t.witness += 1,
            Some(Polarity::NoWitness) => t.no_witness += 1,
            None => {}
        }
        match r.verdict {
            Verdict::Candidate => t.candidate += 1,
            Verdict::Unknown => t.unknown += 1,
            Verdict::Timeout => t.timeout += 1,
            Verdict::Memout => t.memout += 1,
            Verdict::Error => t.error += 1,
            _ => {}
        }
        match r.status {
            Status::Correct => t.correct += 1,
            Status::Wrong => t.wrong += 1,
            Status::Unchecked => t.unchecked += 1,
            _ => {}
        }
    }
    t
}

/// Time of two configurations on the problems both solved.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratio {
    pub common: usize,
    pub a_s: f64,
    pub b_s: f64,
    /// Geometric mean of per-problem a/b, each time floored at 1 ms so that instant runs do
    /// not produce infinite ratios.
    pub geomean: f64,
}

pub fn ratio(a: &[&Record], b: &[&Record]) -> Ratio {
    let b_solved: HashMap<(&str, &str), f64> = b
        .iter()
        .filter(|r| r.status.is_solved())
        .map(|r| ((r.suite.as_str(), r.file.as_str()), r.wall_s))
        .collect();
    let (mut common, mut a_s, mut b_s, mut log_sum) = (0usize, 0.0, 0.0, 0.0);
    for r in a.iter().filter(|r| r.status.is_solved()) {
        if let Some(&tb) = b_solved.get(&(r.suite.as_str(), r.file.as_str())) {
            common += 1;
            a_s += r.wall_s;
            b_s += tb;
            log_sum += (r.wall_s.max(1e-3) / tb.max(1e-3)).ln();
        }
    }
    let geomean = if common > 0 {
        (log_sum / common as f64).exp()
    } else {
        f64::NAN
    };
    Ratio {
        common,
        a_s,
        b_s,
        geomean,
    }
}

fn ratio_cell(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.3}")
    } else {
        "-".to_string()
    }
}

/// The per-configuration table of one set of runs.
pub fn config_table(records: &[&Record], configs: &[String], timeout_s: f64) -> String {
    let header = [
        "config",
        "files",
        "SAT/UNSAFE",
        "UNSAT/SAFE",
        "correct",
        "wrong",
        "unchecked",
        "candidate",
        "unknown",
        "timeout",
        "memout",
        "error",
        "total s",
        "mean s",
        "solved s",
        "cpu s",
        "PAR-2 s",
    ];
    let mut rows = Vec::new();
    for c in configs {
        let rs: Vec<&Record> = records.iter().copied().filter(|r| &r.config == c).collect();
        let t = tally(&rs);
        let mean = if t.files > 0 {
            t.wall_s / t.files as f64
        } else {
            0.0
        };
        rows.push(vec![
            c.clone(),
            t.files.to_string(),
            t.witness.to_string(),
            t.no_witness.to_string(),
            t.correct.to_string(),
            t.wrong.to_string(),
            t.unchecked.to_string(),
            t.candidate.to_string(),
            t.unknown.to_string(),
            t.timeout.to_string(),
            t.memout.to_string(),
            t.error.to_string(),
            format!("{:.2}", t.wall_s),
            format!("{:.3}", mean),
            format!("{:.2}", solved_s(&rs)),
            format!("{:.2}", t.cpu_s),
            format!("{:.1}", par2(&rs, timeout_s)),
        ]);
    }
    markdown_table(&header, &rows)
}

/// Pairwise time ratios (`a / b`, below 1 means `a` is faster) on commonly solved problems.
pub fn ratio_table(records: &[&Record], configs: &[String]) -> String {
    let by: HashMap<&str, Vec<&Record>> = configs
        .iter()
        .map(|c| {
            (
                c.as_str(),
                records.iter().copied().filter(|r| &r.config == c).collect(),
            )
        })
        .collect();
    let header = [
        "a",
        "b",
        "both solved",
        "a total s",
        "b total s",
        "a/b total",
        "a/b geomean",
    ];
    let mut rows = Vec::new();
    for (i, a) in configs.iter().enumerate() {
        for b in &configs[i + 1..] {
            let r = ratio(&by[a.as_str()], &by[b.as_str()]);
            rows.push(vec![
                a.clone(),
                b.clone(),
                r.common.to_string(),
                format!("{:.2}", r.a_s),
                format!("{:.2}", r.b_s),
                ratio_cell(if r.common > 0 {
                    r.a_s / r.b_s
                } else {
                    f64::NAN
                }),
                ratio_cell(r.geomean),
            ]);
        }
    }
    markdown_table(&header, &rows)
}

/// Runs whose definite verdict contradicts iSAT3's recorded definite verdict. Not counted as
/// wrong (the recording is not an oracle), but worth a look.
pub fn isat3_disagreements<'a>(records: &[&'a Record]) -> Vec<&'a Record> {
    records
        .iter()
        .copied()
        .filter(|r| {
            let rec = r.isat3.as_deref().and_then(Verdict::from_name);
            match (r.verdict.polarity(), rec.and_then(Verdict::polarity)) {
                (Some(a), Some(b)) => a != b,
                _ => false,
            }
        })
        .collect()
}

/// Everything `summary.md` says about a finished run of the runner.
pub struct SummaryInput<'a> {
    pub records: &'a [Record],
    pub suites: &'a [String],
    pub configs: &'a [(String, String)],
    pub timeout_s: f64,
    /// Free-form lines describing the run (date, command, machine, limits).
    pub preamble: &'a [String],
}

fn run_list(rs: &[&Record], limit: usize) -> String {
    let mut out = String::new();
    for r in rs.iter().take(limit) {
        let _ = writeln!(
            out,
            "- `{}` [{}] {}: {} (expected {}){}",
            r.file,
            r.suite,
            r.config,
            r.verdict,
            r.expected.map(|v| v.as_str()).unwrap_or("-"),
            if r.note.is_empty() {
                String::new()
            } else {
                format!(" — {}", r.note)
            }
        );
    }
    if rs.len() > limit {
        let _ = writeln!(out, "- … and {} more (see results.csv)", rs.len() - limit);
    }
    out
}

pub fn summary_markdown(input: &SummaryInput) -> String {
    let names: Vec<String> = input.configs.iter().map(|(n, _)| n.clone()).collect();
    let all: Vec<&Record> = input.records.iter().collect();
    let mut out = String::from("# Benchmark run\n\n");
    for l in input.preamble {
        let _ = writeln!(out, "- {l}");
    }
    for (n, c) in input.configs {
        let _ = writeln!(out, "- config `{n}`: `{c}`");
    }
    out.push('\n');
    out.push_str(
        "Correct/wrong compare the answer's polarity (SATISFIABLE/UNSAFE vs UNSATISFIABLE/SAFE) \
         with the expected answer; `unchecked` = definite answer, no expected one. Times are \
         wall clock; `solved s` sums them over correct and unchecked answers; PAR-2 charges 2 × \
         the time limit for every other run.\n",
    );
    let mut sections: Vec<(String, Vec<&Record>)> = input
        .suites
        .iter()
        .map(|s| {
            (
                format!("Suite `{s}`"),
                all.iter().copied().filter(|r| &r.suite == s).collect(),
            )
        })
        .collect();
    if input.suites.len() > 1 {
        sections.push(("All suites".to_string(), all.clone()));
    }
    for (title, rs) in &sections {
        let _ = writeln!(out, "\n## {title}\n");
        out.push_str(&config_table(rs, &names, input.timeout_s));
        if names.len() > 1 {
            out.push_str("\nTime ratios on the problems both configurations solved:\n\n");
            out.push_str(&ratio_table(rs, &names));
        }
        if let Some(t) = table1(rs, &names) {
            out.push_str("\nIC3 statistics in the shape of the main paper's Table 1:\n\n");
            out.push_str(&t);
        }
    }
    let wrong: Vec<&Record> = all
        .iter()
        .copied()
        .filter(|r| r.status == Status::Wrong)
        .collect();
    let _ = writeln!(out, "\n## Wrong answers: {}\n", wrong.len());
    out.push_str(&run_list(&wrong, usize::MAX));
    let dis = isat3_disagreements(&all);
    if !dis.is_empty() {
        let _ = writeln!(
            out,
            "\n## Disagreements with iSAT3 0.02's recorded verdict: {}\n",
            dis.len()
        );
        for r in dis.iter().take(50) {
            let _ = writeln!(
                out,
                "- `{}` {}: {} (iSAT3 recorded {})",
                r.file,
                r.config,
                r.verdict,
                r.isat3.as_deref().unwrap_or("")
            );
        }
    }
    let errors: Vec<&Record> = all
        .iter()
        .copied()
        .filter(|r| r.status == Status::Error || r.verdict == Verdict::Memout)
        .collect();
    if !errors.is_empty() {
        let _ = writeln!(out, "\n## Errors: {}\n", errors.len());
        out.push_str(&run_list(&errors, 30));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::verdict::classify;

    fn rec(file: &str, config: &str, expected: Option<Verdict>, v: Verdict, wall: f64) -> Record {
        Record {
            suite: "s".into(),
            file: file.into(),
            config: config.into(),
            expected,
            verdict: v,
            status: classify(expected, v),
            wall_s: wall,
            cpu_s: wall,
            peak_mb: 3.0,
            exit: "0".into(),
            isat3: None,
            note: String::new(),
            stats: Vec::new(),
        }
    }

    #[test]
    fn par2_counts_unsolved_and_wrong_twice_the_limit() {
        use Verdict::*;
        let rs = [
            rec("a", "x", Some(Sat), Sat, 1.0),
            rec("b", "x", None, Unsat, 2.0),
            rec("c", "x", Some(Sat), Unsat, 0.5), // wrong
            rec("d", "x", None, Timeout, 10.0),
            rec("e", "x", None, Candidate, 0.1),
            rec("f", "x", None, Error, 0.1),
        ];
        let refs: Vec<&Record> = rs.iter().collect();
        assert_eq!(par2(&refs, 10.0), 1.0 + 2.0 + 4.0 * 20.0);
        let t = tally(&refs);
        assert_eq!((t.files, t.witness, t.no_witness), (6, 1, 2));
        assert_eq!((t.correct, t.wrong, t.unchecked), (1, 1, 1));
        assert_eq!((t.timeout, t.candidate, t.error), (1, 1, 1));
    }

    #[test]
    fn markdown_table_alignment_and_escaping() {
        let t = markdown_table(
            &["config", "files", "ratio"],
            &[
                vec!["a|b".into(), "3".into(), "0.500".into()],
                vec!["c".into(), "10".into(), "-".into()],
            ],
        );
        assert_eq!(
            t,
            "| config | files | ratio |\n|---|---:|---:|\n| a\\|b | 3 | 0.500 |\n| c | 10 | - |\n"
        );
    }

    #[test]
    fn ratios_on_commonly_solved() {
        use Verdict::*;
        let rs = [
            rec("p1", "a", None, Sat, 1.0),
            rec("p1", "b", None, Sat, 2.0),
            rec("p2", "a", None, Unsat, 0.001),
            rec("p2", "b", None, Unsat, 0.004),
            rec("p3", "a", None, Sat, 5.0),
            rec("p3", "b", None, Timeout, 10.0),
            rec("p4", "a", Some(Sat), Unsat, 1.0), // wrong: not solved
            rec("p4", "b", Some(Sat), Sat, 1.0),
        ];
        let a: Vec<&Record> = rs.iter().filter(|r| r.config == "a").collect();
        let b: Vec<&Record> = rs.iter().filter(|r| r.config == "b").collect();
        let r = ratio(&a, &b);
        assert_eq!(r.common, 2);
        assert!((r.a_s - 1.001).abs() < 1e-12 && (r.b_s - 2.004).abs() < 1e-12);
        // sqrt(0.5 * 0.25)
        assert!(
            (r.geomean - (0.125f64).sqrt()).abs() < 1e-9,
            "{}",
            r.geomean
        );
        let all: Vec<&Record> = rs.iter().collect();
        let table = ratio_table(&all, &["a".into(), "b".into()]);
        assert!(
            table.contains("| a | b | 2 | 1.00 | 2.00 | 0.500 | 0.354 |"),
            "{table}"
        );
    }

    #[test]
    fn config_table_rows() {
        use Verdict::*;
        let rs = [
            rec("p1", "a", Some(Unsat), Unsat, 1.0),
            rec("p2", "a", Some(Unsat), Sat, 1.0),
            rec("p3", "a", None, Timeout, 3.0),
        ];
        let all: Vec<&Record> = rs.iter().collect();
        let t = config_table(&all, &["a".into()], 3.0);
        let row = t.lines().nth(2).unwrap();
        assert_eq!(
            row,
            "| a | 3 | 1 | 1 | 1 | 1 | 0 | 0 | 0 | 1 | 0 | 0 | 5.00 | 1.667 | 1.00 | 5.00 | 13.0 |"
        );
    }

    #[test]
    fn table1_columns_from_engine_stats() {
        let out = |blocked: u32, red: f64| {
            format!(
                "SAFE\n{{\"result\":\"SAFE\",\"stats\":{{\"conflicts\":1}},\"engine_stats\":{{\"ic3_solver_calls\":9,\"ic3_blocked_cubes\":{blocked},\"ic3_red_rate_litdrop\":{red},\"ic3_impr_boundgen\":0.5,\"ic3_addgen_time_ratio\":0.25,\"ic3_lemmas_per_frame\":\"[0,1]\"}}}}\n"
            )
        };
        let mut a = rec("p", "ind0", Some(Verdict::Unsat), Verdict::Unsat, 1.0);
        a.stats = json_stats(&out(3, 0.4));
        assert!(a.stats.contains(&("ic3_red_rate_litdrop".to_string(), 0.4)));
        assert!(a.stats.contains(&("conflicts".to_string(), 1.0)));
        // a run without blocked cubes does not enter the reduction-rate mean
        let mut b = rec("q", "ind0", Some(Verdict::Sat), Verdict::Sat, 2.0);
        b.stats = json_stats(&out(0, 0.0));
        let c = rec("r", "ind0", Some(Verdict::Sat), Verdict::Unknown, 10.0);
        let t = table1(&[&a, &b, &c], &["ind0".to_string()]).unwrap();
        let row = t.lines().nth(2).unwrap();
        assert_eq!(
            row, "| ind0 | 1 | 1 | 1 | 0 | 0.250 | 0.400 | 0.500 | 3.00 |",
            "{t}"
        );
        // no IC3 statistics: no table
        assert!(table1(&[&c], &["ind0".to_string()]).is_none());
    }

    #[test]
    fn stats_from_json_output() {
        let out = "SATISFIABLE\n{\"result\":\"SATISFIABLE\",\"time_s\":0.2,\"stats\":{\"conflicts\":12,\"decisions\":3.5,\"engine\":\"bmc\",\"nested\":{\"x\":1}}}\ntrailing\n";
        assert_eq!(
            json_stats(out),
            vec![
                ("conflicts".to_string(), 12.0),
                ("decisions".to_string(), 3.5)
            ]
        );
        assert!(json_stats("SATISFIABLE\n{not json").is_empty());
        assert!(json_stats("UNSAT\n").is_empty());
        let mut r = rec("p", "a", None, Verdict::Sat, 1.0);
        r.stats = json_stats(out);
        let r2 = rec("q,x", "a", None, Verdict::Unknown, 1.0);
        let csv = results_csv(&[r, r2]);
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[0].ends_with(",note,stats_conflicts,stats_decisions"));
        assert!(lines[1].ends_with(",12,3.5"), "{}", lines[1]);
        assert!(lines[2].starts_with("s,\"q,x\",a,,UNKNOWN,unresolved,"));
        assert!(lines[2].ends_with(",,"));
    }

    #[test]
    fn isat3_disagreement_detection() {
        let mut r = rec("p", "a", None, Verdict::Sat, 1.0);
        r.isat3 = Some("UNSATISFIABLE".into());
        let mut ok = rec("q", "a", None, Verdict::Sat, 1.0);
        ok.isat3 = Some("CANDIDATE SOLUTION".into());
        let all = [&r, &ok];
        assert_eq!(isat3_disagreements(&all), vec![&r]);
    }
}
