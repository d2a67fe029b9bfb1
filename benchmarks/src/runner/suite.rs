//! Benchmark suites: the problems to run and what each one is expected to answer, read from
//! the expected-answer files of the shared benchmark sets (or a plain list), plus the named
//! built-in suites and subsetting.

use super::table::Table;
use super::verdict::{normalise_isat3_record, parse_expected, SmtlibMeaning, Verdict};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One problem file.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Where the file is (as resolved from its suite; absolute when the suite path was).
    pub path: PathBuf,
    /// The name written in results: relative to the shared benchmark directory when the file
    /// is below it, so that result files of different machines and runs line up.
    pub name: String,
    /// The definite expected answer, if the suite has one.
    pub expected: Option<Verdict>,
    /// What iSAT3 0.02 answered according to the suite's manifest (normalised), if recorded.
    pub isat3: Option<String>,
    /// How an SMT-LIB `sat`/`unsat` answer reads for this file.
    pub meaning: SmtlibMeaning,
}

#[derive(Debug, Clone)]
pub struct Suite {
    pub name: String,
    pub problems: Vec<Problem>,
}

/// The built-in suite names.
pub const BUILTIN: [&str; 8] = [
    "nlsat-sample",
    "nlsat",
    "hys-transition",
    "smtlib-status",
    "transition-systems",
    "transition-systems-chc",
    "svcomp-floats",
    "float-suite",
];

/// The row stride of `nlsat-sample`.
pub const NLSAT_SAMPLE_EVERY: usize = 60;

/// Problem file extensions found when a directory has no expected-answer file.
const PROBLEM_EXTENSIONS: [&str; 5] = ["hys", "smt2", "vmt", "c", "i"];

type Result<T> = std::result::Result<T, String>;

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn parent(path: &Path) -> PathBuf {
    path.parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The display name of a problem file (see `Problem::name`).
pub fn display_name(path: &Path) -> String {
    let canon = std::fs::canonicalize(path).ok();
    if let (Some(c), Ok(root)) = (&canon, std::fs::canonicalize(crate::benchmarks_dir())) {
        if let Ok(rel) = c.strip_prefix(&root) {
            return rel.display().to_string();
        }
    }
    if let (Some(c), Ok(cwd)) = (&canon, std::env::current_dir()) {
        if let Ok(rel) = c.strip_prefix(&cwd) {
            return rel.display().to_string();
        }
    }
    path.display().to_string()
}

fn problem(path: PathBuf, expected: Option<Verdict>) -> Problem {
    Problem {
        name: display_name(&path),
        path,
        expected,
        isat3: None,
        meaning: SmtlibMeaning::Plain,
    }
}

fn missing_column(path: &Path, name: &str) -> String {
    format!("{}: no column '{name}'", path.display())
}

/// A `MANIFEST.tsv` of `hys-public/` (columns `local_path`, `isat3_0.02_verdict`, and where
/// present `smt2_status_of_source` or `expected_per_manual`). A `Z3_BOUNDED.tsv` beside it is
/// the oracle (nlsat): its `sat`/`unsat` is the expected answer; where Z3 gave none, an
/// `unsat` source status still is one (adding bounds keeps unsat problems unsat, but may make
/// sat ones unsat, so a `sat` source status is not used).
pub fn load_hys_manifest(path: &Path) -> Result<Vec<Problem>> {
    let table =
        Table::from_tsv(&read(path)?).ok_or_else(|| format!("{}: empty", path.display()))?;
    let base = parent(path);
    let c_path = table
        .column("local_path")
        .ok_or_else(|| missing_column(path, "local_path"))?;
    let c_isat3 = table.column("isat3_0.02_verdict");
    let c_source = table.column("smt2_status_of_source");
    let c_manual = table.column("expected_per_manual");
    let z3_path = base.join("Z3_BOUNDED.tsv");
    let z3 = if z3_path.exists() {
        Some(load_z3_table(&z3_path)?)
    } else {
        None
    };
    let mut out = Vec::with_capacity(table.rows.len());
    for row in &table.rows {
        let local = &row[c_path];
        let mut expected = None;
        if let Some(z3) = &z3 {
            expected = z3.get(local.as_str()).copied().flatten();
        }
        if expected.is_none() {
            if let Some(c) = c_source {
                if row[c].trim() == "unsat" {
                    expected = Some(Verdict::Unsat);
                }
            }
        }
        if let Some(c) = c_manual {
            if expected.is_none() {
                expected =
                    parse_expected(&row[c]).map_err(|e| format!("{}: {e}", path.display()))?;
            }
        }
        let mut p = problem(base.join(local), expected);
        p.isat3 = c_isat3.and_then(|c| normalise_isat3_record(&row[c]));
        out.push(p);
    }
    Ok(out)
}

/// `Z3_BOUNDED.tsv`: `local_path` and Z3's answer (`sat`, `unsat`, `timeout`, `error`).
fn load_z3_table(path: &Path) -> Result<HashMap<String, Option<Verdict>>> {
    let table =
        Table::from_tsv(&read(path)?).ok_or_else(|| format!("{}: empty", path.display()))?;
    let c_path = table
        .column("local_path")
        .ok_or_else(|| missing_column(path, "local_path"))?;
    let c_z3 = table
        .column_starting("z3")
        .ok_or_else(|| missing_column(path, "z3..."))?;
    let mut map = HashMap::with_capacity(table.rows.len());
    for row in &table.rows {
        let v = parse_expected(&row[c_z3]).map_err(|e| format!("{}: {e}", path.display()))?;
        map.insert(row[c_path].clone(), v);
    }
    Ok(map)
}

/// `Z3_BOUNDED.tsv` given directly: the same problems as its `MANIFEST.tsv` (which adds the
/// iSAT3 column and the source-status fallback), or Z3's list alone if there is none.
pub fn load_z3_bounded(path: &Path) -> Result<Vec<Problem>> {
    let manifest = parent(path).join("MANIFEST.tsv");
    if manifest.exists() {
        return load_hys_manifest(&manifest);
    }
    let base = parent(path);
    let table =
        Table::from_tsv(&read(path)?).ok_or_else(|| format!("{}: empty", path.display()))?;
    let z3 = load_z3_table(path)?;
    Ok(table
        .rows
        .iter()
        .map(|r| problem(base.join(&r[0]), z3.get(&r[0]).copied().flatten()))
        .collect())
}

/// Which file of a `transition-systems/expected.csv` row to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TsForm {
    /// The VMT file where the row has one, else the CHC file.
    Natural,
    /// Only rows with a VMT file.
    Vmt,
    /// The CHC file of every row.
    Chc,
}

/// An `expected.csv`, recognised by its header: `file,...,expected` (smtlib-status and any
/// such list), `kind,vmt_file,chc_file,...` (transition-systems) or
/// `task_yml,program,expected_unreach_call` (svcomp-floats).
pub fn load_expected_csv(path: &Path, form: TsForm) -> Result<Vec<Problem>> {
    let table =
        Table::from_csv(&read(path)?).ok_or_else(|| format!("{}: empty", path.display()))?;
    let base = parent(path);
    if table.column("vmt_file").is_some() {
        return load_transition_systems(path, &table, &base, form);
    }
    if table.column("expected_unreach_call").is_some() {
        return load_svcomp(path, &table, &base);
    }
    // `answer` is the float suite's name for the column (examples/floats/expected.csv)
    let c_exp = table.column("expected").or_else(|| table.column("answer"));
    let (Some(c_file), Some(c_exp)) = (table.column("file"), c_exp) else {
        return Err(format!(
            "{}: unrecognised header (want file,expected / file,answer / kind,vmt_file,chc_file / task_yml,program,expected_unreach_call)",
            path.display()
        ));
    };
    let mut out = Vec::with_capacity(table.rows.len());
    for row in &table.rows {
        let e = parse_expected(&row[c_exp]).map_err(|e| format!("{}: {e}", path.display()))?;
        out.push(problem(base.join(&row[c_file]), e));
    }
    Ok(out)
}

fn true_false(path: &Path, s: &str, if_true: Verdict, if_false: Verdict) -> Result<Verdict> {
    match s.trim() {
        "true" => Ok(if_true),
        "false" => Ok(if_false),
        other => Err(format!(
            "{}: expected true or false, found '{other}'",
            path.display()
        )),
    }
}

fn load_transition_systems(
    path: &Path,
    table: &Table,
    base: &Path,
    form: TsForm,
) -> Result<Vec<Problem>> {
    let c_vmt = table.column("vmt_file").unwrap_or(0);
    let c_chc = table
        .column("chc_file")
        .ok_or_else(|| missing_column(path, "chc_file"))?;
    let c_exp = table
        .column_starting("expected_verdict")
        .ok_or_else(|| missing_column(path, "expected_verdict"))?;
    let mut out = Vec::new();
    for row in &table.rows {
        // true = property holds (safe; the CHC system is sat), false = counterexample.
        let e = true_false(path, &row[c_exp], Verdict::Safe, Verdict::Unsafe)?;
        let vmt = row[c_vmt].trim();
        let use_chc = match form {
            TsForm::Chc => true,
            TsForm::Vmt if vmt.is_empty() => continue,
            TsForm::Vmt => false,
            TsForm::Natural => vmt.is_empty(),
        };
        let mut p = problem(
            base.join(if use_chc { row[c_chc].trim() } else { vmt }),
            Some(e),
        );
        if use_chc {
            p.meaning = SmtlibMeaning::Chc;
        }
        out.push(p);
    }
    Ok(out)
}

/// Tasks listed in a `DISPUTED.md` beside an svcomp `expected.csv`: table rows whose first
/// cell is a backquoted task path (`c/.../loop3`). Their official verdict does not hold, so
/// they have no expected answer.
fn disputed_tasks(dir: &Path) -> Result<Vec<String>> {
    let p = dir.join("DISPUTED.md");
    if !p.exists() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for line in read(&p)?.lines() {
        let Some(rest) = line.trim_start().strip_prefix("| `") else {
            continue;
        };
        if let Some(end) = rest.find('`') {
            out.push(rest[..end].to_string());
        }
    }
    Ok(out)
}

fn load_svcomp(path: &Path, table: &Table, base: &Path) -> Result<Vec<Problem>> {
    let c_prog = table
        .column("program")
        .ok_or_else(|| missing_column(path, "program"))?;
    let c_exp = table
        .column("expected_unreach_call")
        .ok_or_else(|| missing_column(path, "expected_unreach_call"))?;
    let c_yml = table.column("task_yml");
    let disputed = disputed_tasks(base)?;
    let mut out = Vec::new();
    for row in &table.rows {
        // true = the error call is unreachable (safe).
        let mut e = Some(true_false(
            path,
            &row[c_exp],
            Verdict::Safe,
            Verdict::Unsafe,
        )?);
        let task = c_yml
            .map(|c| row[c].trim_end_matches(".yml").to_string())
            .unwrap_or_default();
        let prog_stem = Path::new(&row[c_prog]).with_extension("");
        if disputed
            .iter()
            .any(|d| *d == task || Path::new(d) == prog_stem)
        {
            e = None;
        }
        out.push(problem(base.join(&row[c_prog]), e));
    }
    Ok(out)
}

/// A plain list: one path per line, optionally `<TAB>expected`; blank lines and `#` lines
/// are skipped. A relative path is taken relative to the list's directory, else to each of
/// `more_bases` in turn, else to the working directory.
pub fn load_list(path: &Path, more_bases: &[&Path]) -> Result<Vec<Problem>> {
    let text = read(path)?;
    let base = parent(path);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let (file, exp) = match line.split_once('\t') {
            Some((f, e)) => (f.trim(), e),
            None => (line.trim(), ""),
        };
        let e = parse_expected(exp).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        let rel = Path::new(file);
        let resolved = if rel.is_absolute() {
            rel.to_path_buf()
        } else {
            std::iter::once(base.as_path())
                .chain(more_bases.iter().copied())
                .map(|b| b.join(rel))
                .find(|p| p.exists())
                .unwrap_or_else(|| rel.to_path_buf())
        };
        out.push(problem(resolved, e));
    }
    Ok(out)
}

/// Any expected-answer file: a manifest, `Z3_BOUNDED.tsv`, an `expected.csv`, or a plain list.
pub fn load_file(path: &Path, more_bases: &[&Path]) -> Result<Vec<Problem>> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let first_line = read(path)?.lines().next().unwrap_or("").to_string();
    if name.ends_with(".tsv") || (first_line.starts_with('#') && first_line.contains("local_path"))
    {
        let header = Table::from_tsv(&first_line)
            .map(|t| t.header)
            .unwrap_or_default();
        if header.get(1).is_some_and(|h| h.starts_with("z3")) {
            return load_z3_bounded(path);
        }
        if header.iter().any(|h| h == "local_path") {
            return load_hys_manifest(path);
        }
    }
    if name.ends_with(".csv") {
        return load_expected_csv(path, TsForm::Natural);
    }
    load_list(path, more_bases)
}

/// The expected-answer file a directory carries, if any (the nlsat oracle first).
fn expected_file_in(dir: &Path) -> Option<PathBuf> {
    ["MANIFEST.tsv", "Z3_BOUNDED.tsv", "expected.csv"]
        .into_iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
}

/// Canonical paths make the joins of directory scans and expected-answer files independent
/// of how each path was spelled.
fn key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// A directory. With an expected-answer file inside (and no `expected` override) its rows
/// are the problems. Otherwise every problem file below the directory (by extension) is a
/// problem, and expected answers are joined from `expected` or, failing that, from every
/// expected-answer file found below the directory.
pub fn load_dir(dir: &Path, expected: Option<&Path>) -> Result<Vec<Problem>> {
    if expected.is_none() {
        if let Some(f) = expected_file_in(dir) {
            return load_file(&f, &[dir]);
        }
    }
    let mut files: Vec<PathBuf> = PROBLEM_EXTENSIONS
        .iter()
        .flat_map(|e| crate::files_with_extension(dir, e))
        .collect();
    files.sort();
    let mut known: Vec<Problem> = Vec::new();
    match expected {
        Some(f) => known = load_file(f, &[dir])?,
        None => {
            let mut stack = vec![dir.to_path_buf()];
            while let Some(d) = stack.pop() {
                if let Some(f) = expected_file_in(&d) {
                    known.extend(load_file(&f, &[&d])?);
                }
                let Ok(rd) = std::fs::read_dir(&d) else {
                    continue;
                };
                stack.extend(rd.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
            }
        }
    }
    let by_key: HashMap<PathBuf, Problem> = known.into_iter().map(|p| (key(&p.path), p)).collect();
    Ok(files
        .into_iter()
        .map(|f| match by_key.get(&key(&f)) {
            Some(k) => Problem {
                path: f,
                ..k.clone()
            },
            None => problem(f, None),
        })
        .collect())
}

/// Every `n`-th item, starting with the first.
pub fn every_nth<T>(items: Vec<T>, n: usize) -> Vec<T> {
    items.into_iter().step_by(n.max(1)).collect()
}

/// A built-in suite, read from the shared benchmark directory `root`.
pub fn builtin(name: &str, root: &Path) -> Option<Result<Vec<Problem>>> {
    let hys = root.join("hys-public");
    Some(match name {
        "nlsat" => load_hys_manifest(&hys.join("nlsat-dreal3/MANIFEST.tsv")),
        // Every 60th data row (rows 0, 60, 120, ... of MANIFEST.tsv, header excluded): a fixed,
        // family-spread sample small enough for a few minutes per configuration.
        "nlsat-sample" => load_hys_manifest(&hys.join("nlsat-dreal3/MANIFEST.tsv"))
            .map(|ps| every_nth(ps, NLSAT_SAMPLE_EVERY)),
        "hys-transition" => (|| {
            let mut ps = load_hys_manifest(&hys.join("isat-dde-liangdzou/MANIFEST.tsv"))?;
            ps.extend(load_hys_manifest(
                &hys.join("masterarbeit-bicycle/MANIFEST.tsv"),
            )?);
            ps.extend(
                load_hys_manifest(&hys.join("isat3-manual-0.02/MANIFEST.tsv"))?
                    .into_iter()
                    .filter(|p| p.path.ends_with("sample2.hys")),
            );
            Ok(ps)
        })(),
        "smtlib-status" => {
            load_expected_csv(&root.join("smtlib-status/expected.csv"), TsForm::Natural)
        }
        "transition-systems" => {
            load_expected_csv(&root.join("transition-systems/expected.csv"), TsForm::Vmt)
        }
        "transition-systems-chc" => {
            load_expected_csv(&root.join("transition-systems/expected.csv"), TsForm::Chc)
        }
        "svcomp-floats" => {
            load_expected_csv(&root.join("svcomp-floats/expected.csv"), TsForm::Natural)
        }
        // the repository's own float suite (not in the shared directory)
        "float-suite" => load_expected_csv(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/floats/expected.csv"),
            TsForm::Natural,
        ),
        _ => return None,
    })
}

/// Whether `name` matches `pattern`: a glob (`*`, `?`) when it has one, matched against the
/// whole name or, like a shell glob without `/`, against the file name alone; else a
/// substring. (A regex crate would be the only reason to depend on one.)
pub fn name_matches(pattern: &str, name: &str) -> bool {
    if !pattern.contains(['*', '?']) {
        return name.contains(pattern);
    }
    let base = name.rsplit('/').next().unwrap_or(name);
    glob(pattern, name) || (!pattern.contains('/') && glob(pattern, base))
}

fn glob(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let s: Vec<char> = name.chars().collect();
    // Iterative glob matching with backtracking to the last `*`.
    let (mut pi, mut si) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == s[si]) {
            pi += 1;
            si += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, si));
            pi += 1;
        } else if let Some((sp, ss)) = star {
            pi = sp + 1;
            si = ss + 1;
            star = Some((sp, ss + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// `--filter`, then `--every`, then `--limit`.
pub fn subset(
    problems: Vec<Problem>,
    filter: Option<&str>,
    every: usize,
    limit: Option<usize>,
) -> Vec<Problem> {
    let filtered: Vec<Problem> = match filter {
        Some(f) => problems
            .into_iter()
            .filter(|p| name_matches(f, &p.name))
            .collect(),
        None => problems,
    };
    let mut out = every_nth(filtered, every);
    if let Some(l) = limit {
        out.truncate(l);
    }
    out
}

/// Resolves a `--suite` argument: a built-in name, a directory, or a file.
pub fn load_suite(spec: &str, expected: Option<&Path>, root: &Path) -> Result<Suite> {
    let path = Path::new(spec);
    let problems = if let Some(r) = builtin(spec, root).filter(|_| !path.exists()) {
        r?
    } else if path.is_dir() {
        load_dir(path, expected)?
    } else if path.is_file() {
        load_file(path, &[])?
    } else {
        return Err(format!(
            "--suite {spec}: neither a built-in suite ({}) nor an existing file or directory",
            BUILTIN.join(", ")
        ));
    };
    Ok(Suite {
        name: spec.to_string(),
        problems,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        let r = crate::benchmarks_dir();
        assert!(
            r.is_dir(),
            "benchmark directory {} is missing (set ICPIC3_BENCHMARKS)",
            r.display()
        );
        r
    }

    fn all_exist(ps: &[Problem]) {
        for p in ps {
            assert!(p.path.is_file(), "{} does not exist", p.path.display());
        }
    }

    fn count(ps: &[Problem], v: Option<Verdict>) -> usize {
        ps.iter().filter(|p| p.expected == v).count()
    }

    #[test]
    fn nlsat_manifest_with_z3_oracle() {
        let ps = builtin("nlsat", &root()).unwrap().unwrap();
        assert_eq!(ps.len(), 8926);
        all_exist(&ps);
        let by_name: HashMap<&str, &Problem> = ps.iter().map(|p| (p.name.as_str(), p)).collect();
        let hong1 = by_name["hys-public/nlsat-dreal3/hong/hong_1.hys"];
        assert_eq!(hong1.expected, Some(Verdict::Unsat)); // Z3: unsat
        assert_eq!(hong1.isat3.as_deref(), Some("UNSATISFIABLE"));
        // Z3 timed out on hong_11 and the source status is none: no expectation.
        assert_eq!(
            by_name["hys-public/nlsat-dreal3/hong/hong_11.hys"].expected,
            None
        );
        // Z3: 5,352 sat, 3,313 unsat; 261 timeout/error, of which those with source status
        // unsat become UNSATISFIABLE.
        let sat = count(&ps, Some(Verdict::Sat));
        let unsat = count(&ps, Some(Verdict::Unsat));
        assert_eq!(sat, 5352);
        assert!(unsat > 3313 && unsat < 3313 + 261, "{unsat}");
        assert_eq!(sat + unsat + count(&ps, None), 8926);
        // The oracle and iSAT3's recorded answers never contradict each other.
        for p in &ps {
            let rec = p.isat3.as_deref().and_then(Verdict::from_name);
            if let (Some(e), Some(r)) = (p.expected, rec) {
                if r.is_definite() {
                    assert_eq!(e.polarity(), r.polarity(), "{}", p.name);
                }
            }
        }
        // Given as Z3_BOUNDED.tsv or as the directory: the same suite.
        let z = load_file(&root().join("hys-public/nlsat-dreal3/Z3_BOUNDED.tsv"), &[]).unwrap();
        assert_eq!(z, ps);
        let d = load_dir(&root().join("hys-public/nlsat-dreal3"), None).unwrap();
        assert_eq!(d, ps);
    }

    #[test]
    fn float_suite_reads_the_answer_column() {
        let ps = builtin("float-suite", &root()).unwrap().unwrap();
        assert!(ps.len() >= 30, "{}", ps.len());
        assert!(
            ps.iter().all(|p| p.path.is_file()),
            "a listed file is missing"
        );
        let sat = ps
            .iter()
            .filter(|p| p.expected == Some(Verdict::Sat))
            .count();
        let unsat = ps
            .iter()
            .filter(|p| p.expected == Some(Verdict::Unsat))
            .count();
        assert_eq!(sat + unsat, ps.len());
        assert!(unsat >= 10);
    }

    #[test]
    fn nlsat_sample_selection() {
        let ps = builtin("nlsat-sample", &root()).unwrap().unwrap();
        // ceil(8926 / 60) rows: 0, 60, ..., 8880.
        assert_eq!(ps.len(), 149);
        let all = builtin("nlsat", &root()).unwrap().unwrap();
        assert_eq!(ps[0], all[0]);
        assert_eq!(ps[148], all[8880]);
        assert_eq!(ps[0].name, "hys-public/nlsat-dreal3/hong/hong_1.hys");
        let manifest =
            std::fs::read_to_string(root().join("hys-public/nlsat-dreal3/MANIFEST.tsv")).unwrap();
        let row_8880 = manifest
            .lines()
            .nth(8881)
            .unwrap()
            .split('\t')
            .next()
            .unwrap();
        assert_eq!(ps[148].name, format!("hys-public/nlsat-dreal3/{row_8880}"));
    }

    #[test]
    fn hys_transition_suite() {
        let ps = builtin("hys-transition", &root()).unwrap().unwrap();
        all_exist(&ps);
        let names: Vec<&str> = ps.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "hys-public/isat-dde-liangdzou/src/isat3/ex3_10_1.hys",
                "hys-public/isat-dde-liangdzou/src/isat3/ex3_10_1.rev59084b8.hys",
                "hys-public/masterarbeit-bicycle/Debug/LHA.hys",
                "hys-public/masterarbeit-bicycle/LHA.hys",
                "hys-public/isat3-manual-0.02/sample2.hys",
            ]
        );
        // Only the manual states an expected answer; the others keep iSAT3's for comparison.
        assert_eq!(ps[4].expected, Some(Verdict::Unsafe));
        assert_eq!(ps[0].expected, None);
        assert_eq!(ps[0].isat3.as_deref(), Some("UNSAFE"));
        assert_eq!(ps[2].isat3.as_deref(), Some("CANDIDATE SOLUTION"));
    }

    #[test]
    fn smtlib_status_csv() {
        let ps = builtin("smtlib-status", &root()).unwrap().unwrap();
        assert_eq!(ps.len(), 260);
        all_exist(&ps);
        // 15 dReal delta-sat answers are not exact: no expectation.
        assert_eq!(count(&ps, None), 15);
        assert_eq!(count(&ps, Some(Verdict::Sat)), 56 + 29 + 25);
        assert_eq!(count(&ps, Some(Verdict::Unsat)), 71 + 23 + 25 + 16);
        assert_eq!(
            ps[0].name,
            "smtlib-status/semantic-fusion-seeds/QF_FP/sat/div.c.3.smt2"
        );
    }

    #[test]
    fn transition_systems_csv() {
        let r = root();
        let vmt = builtin("transition-systems", &r).unwrap().unwrap();
        assert_eq!(vmt.len(), 50);
        all_exist(&vmt);
        assert!(vmt.iter().all(|p| p.name.ends_with(".vmt")));
        assert_eq!(count(&vmt, Some(Verdict::Safe)), 34);
        assert_eq!(count(&vmt, Some(Verdict::Unsafe)), 16);
        assert_eq!(vmt[0].name, "transition-systems/vmt/cav12/toy-bug-1.vmt");
        assert_eq!(vmt[0].expected, Some(Verdict::Unsafe));
        let chc = builtin("transition-systems-chc", &r).unwrap().unwrap();
        assert_eq!(chc.len(), 86);
        all_exist(&chc);
        assert!(chc.iter().all(|p| p.meaning == SmtlibMeaning::Chc));
        assert_eq!(count(&chc, Some(Verdict::Safe)), 64);
        let natural = load_file(&r.join("transition-systems/expected.csv"), &[]).unwrap();
        assert_eq!(natural.len(), 86);
        assert_eq!(
            natural.iter().filter(|p| p.name.ends_with(".vmt")).count(),
            50
        );
    }

    #[test]
    fn svcomp_csv_with_disputed_tasks() {
        let ps = builtin("svcomp-floats", &root()).unwrap().unwrap();
        assert_eq!(ps.len(), 55);
        all_exist(&ps);
        // 34 true / 21 false, minus the two disputed `true` tasks.
        assert_eq!(count(&ps, Some(Verdict::Safe)), 32);
        assert_eq!(count(&ps, Some(Verdict::Unsafe)), 21);
        let disputed: Vec<&str> = ps
            .iter()
            .filter(|p| p.expected.is_none())
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(
            disputed,
            [
                "svcomp-floats/c/loop-floats-scientific-comp/loop1-1.c",
                "svcomp-floats/c/loop-floats-scientific-comp/loop3.c",
            ]
        );
    }

    #[test]
    fn directory_without_manifest_joins_nested_ones() {
        let ps = load_dir(&root().join("hys-public"), None).unwrap();
        assert_eq!(ps.len(), 8962);
        let sample1 = ps
            .iter()
            .find(|p| p.name == "hys-public/isat3-manual-0.02/sample1.hys")
            .unwrap();
        assert_eq!(sample1.expected, Some(Verdict::Sat));
        assert_eq!(count(&ps, Some(Verdict::Sat)), 5352 + 1);
    }

    #[test]
    fn plain_list_file() {
        let dir = std::env::temp_dir().join(format!("icpic3-list-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.hys"), "").unwrap();
        let list = dir.join("list.txt");
        let hong = root().join("hys-public/nlsat-dreal3/hong/hong_1.hys");
        std::fs::write(
            &list,
            format!(
                "# comment\na.hys\tsat\n\n{}\tUNSAFE\nb.hys\n",
                hong.display()
            ),
        )
        .unwrap();
        let ps = load_file(&list, &[]).unwrap();
        assert_eq!(ps.len(), 3);
        assert_eq!(ps[0].path, dir.join("a.hys"));
        assert_eq!(ps[0].expected, Some(Verdict::Sat));
        assert_eq!(ps[1].name, "hys-public/nlsat-dreal3/hong/hong_1.hys");
        assert_eq!(ps[1].expected, Some(Verdict::Unsafe));
        assert_eq!(ps[2].expected, None);
        std::fs::write(&list, "a.hys\tsatt\n").unwrap();
        assert!(load_file(&list, &[]).unwrap_err().contains("satt"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn glob_and_substring_filters() {
        assert!(name_matches("hong", "nlsat/hong/hong_1.hys"));
        assert!(!name_matches("Hong", "nlsat/hong/hong_1.hys"));
        assert!(name_matches("*/hong_1?.hys", "nlsat/hong/hong_12.hys"));
        assert!(!name_matches("*/hong_1?.hys", "nlsat/hong/hong_1.hys"));
        assert!(name_matches("*zankl*matrix*", "a/zankl/matrix-1.hys"));
        assert!(!name_matches("*.smt2", "a.hys"));
        assert!(name_matches("hong_1?.hys", "nlsat/hong/hong_12.hys"));
        assert!(!name_matches("nlsat/hong_1?.hys", "nlsat/hong/hong_12.hys"));
        let ps: Vec<Problem> = (0..10)
            .map(|i| problem(PathBuf::from(format!("p{i}.hys")), None))
            .collect();
        let names = |v: Vec<Problem>| v.into_iter().map(|p| p.name).collect::<Vec<_>>();
        assert_eq!(
            names(subset(ps.clone(), None, 3, None)),
            ["p0.hys", "p3.hys", "p6.hys", "p9.hys"]
        );
        assert_eq!(
            names(subset(ps.clone(), None, 3, Some(2))),
            ["p0.hys", "p3.hys"]
        );
        assert_eq!(names(subset(ps, Some("p1"), 1, None)), ["p1.hys"]);
    }
}
