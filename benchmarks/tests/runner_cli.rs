//! The runner binary end to end, with fake solvers: small shell scripts whose behaviour is
//! chosen by the first line of the "problem" file (answer, sleep past the limit, allocate
//! past the memory limit, crash, break the exit-code contract, print JSON statistics).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FAKE: &str = r#"#!/bin/bash
case "$(head -n 1 "$1")" in
  sat) echo SATISFIABLE; echo "x = 1"; exit 10 ;;
  unsat) echo UNSATISFIABLE; exit 20 ;;
  candidate) echo "CANDIDATE SOLUTION"; echo "x in [0, 1]"; exit 0 ;;
  json) echo SAFE; echo '{"result":"SAFE","engine":"ic3","stats":{"conflicts":7,"frames":3,"engine":"x"}}'; exit 20 ;;
  sleep) sleep 30; echo SATISFIABLE; exit 10 ;;
  mem) dd if=/dev/zero bs=300M count=1 of=/dev/null || exit $?; echo SATISFIABLE; exit 10 ;;
  crash) echo UNSATISFIABLE; kill -SEGV $$ ;;
  contract) echo SATISFIABLE; exit 20 ;;
  smtlib) echo unsat ;;
esac
"#;

/// iSAT3's style: verdict with a comment, exit 0, and `{timeout}` passed through.
const ISAT_LIKE: &str = r#"#!/bin/sh
[ "$2" = "--limit=1" ] || { echo "bad timeout argument $2" >&2; exit 1; }
case "$(head -n 1 "$1")" in
  sat) echo "SATISFIABLE [satisfiable with all values in the given intervals]" ;;
  unsat|smtlib) echo "UNSATISFIABLE" ;;
  *) echo "CANDIDATE SOLUTION [given intervals may or may not contain a solution]" ;;
esac
"#;

struct Fixture {
    dir: PathBuf,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Problem files (name, first line, expected answer) and the two fake solvers.
fn fixture(tag: &str) -> Fixture {
    let dir = std::env::temp_dir().join(format!("icpic3-runner-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let problems = [
        ("p_sat.hys", "sat", "SATISFIABLE"),
        ("p_wrong.hys", "sat", "UNSATISFIABLE"),
        ("p_unsat.hys", "unsat", "unsat"),
        ("p_candidate.hys", "candidate", "sat"),
        ("p_json.hys", "json", "SAFE"),
        ("p_sleep.hys", "sleep", ""),
        ("p_mem.hys", "mem", ""),
        ("p_crash.hys", "crash", "UNSATISFIABLE"),
        ("p_contract.hys", "contract", ""),
        ("p_smtlib.smt2", "smtlib", "unsat"),
    ];
    let mut list = String::from("# fake problems\n");
    for (name, behaviour, expected) in problems {
        std::fs::write(dir.join(name), format!("{behaviour}\n")).unwrap();
        list.push_str(&format!("{name}\t{expected}\n"));
    }
    std::fs::write(dir.join("list.txt"), list).unwrap();
    std::fs::write(dir.join("fake.sh"), FAKE).unwrap();
    std::fs::write(dir.join("isat_like.sh"), ISAT_LIKE).unwrap();
    Fixture { dir }
}

fn runner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runner"))
        .args(args)
        .output()
        .unwrap()
}

/// results.csv as maps from column name to value, keyed by (file name, config).
fn read_results(path: &Path) -> HashMap<(String, String), HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let mut out = HashMap::new();
    for l in lines {
        let fields: Vec<String> = benchmarks::runner::table::parse_csv(l)
            .remove(0)
            .into_iter()
            .collect();
        assert_eq!(fields.len(), header.len(), "{l}");
        let row: HashMap<String, String> = header.iter().cloned().zip(fields).collect();
        let file = Path::new(&row["file"])
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        out.insert((file, row["config"].clone()), row);
    }
    out
}

#[test]
fn fake_solvers_end_to_end() {
    let fx = fixture("e2e");
    let d = fx.dir.display().to_string();
    let out_dir = fx.dir.join("out");
    let fake = format!("fake=/bin/bash {d}/fake.sh {{file}}");
    let isat = format!("isat_like=/bin/sh {d}/isat_like.sh {{file}} --limit={{timeout}}");
    let o = runner(&[
        "--suite",
        &format!("{d}/list.txt"),
        "--config",
        &fake,
        "--config",
        &isat,
        "--timeout",
        "1",
        "--memory-mb",
        "100",
        "--jobs",
        "4",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    let stdout = String::from_utf8_lossy(&o.stdout);
    // p_wrong is answered wrongly by both configurations: exit code 1, and both are named.
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("2 WRONG answers"), "{stderr}");
    for c in ["fake", "isat_like"] {
        let line = format!("{c} {d}/p_wrong.hys: SATISFIABLE (expected UNSATISFIABLE)");
        assert!(stderr.contains(&line), "{line}\n{stderr}");
    }

    let rows = read_results(&out_dir.join("results.csv"));
    assert_eq!(rows.len(), 20);
    let get = |f: &str, c: &str| &rows[&(f.to_string(), c.to_string())];
    let check = |f: &str, c: &str, verdict: &str, status: &str, exit: &str| {
        let r = get(f, c);
        assert_eq!(
            (
                r["verdict"].as_str(),
                r["status"].as_str(),
                r["exit_code"].as_str()
            ),
            (verdict, status, exit),
            "{f} {c}: {r:?}"
        );
    };
    check("p_sat.hys", "fake", "SATISFIABLE", "correct", "10");
    check("p_wrong.hys", "fake", "SATISFIABLE", "wrong", "10");
    check("p_unsat.hys", "fake", "UNSATISFIABLE", "correct", "20");
    check(
        "p_candidate.hys",
        "fake",
        "CANDIDATE SOLUTION",
        "unresolved",
        "0",
    );
    check("p_json.hys", "fake", "SAFE", "correct", "20");
    check("p_sleep.hys", "fake", "TIMEOUT", "unresolved", "signal 9");
    // dd allocates its 300 MiB buffer at once, so the 100 MiB limit refuses it at once
    // (deterministic even on a loaded machine).
    check("p_mem.hys", "fake", "MEMOUT", "unresolved", "1");
    check("p_crash.hys", "fake", "ERROR", "error", "signal 11");
    check("p_contract.hys", "fake", "ERROR", "error", "20");
    check("p_smtlib.smt2", "fake", "UNSATISFIABLE", "correct", "0");
    check("p_sat.hys", "isat_like", "SATISFIABLE", "correct", "0");
    check("p_wrong.hys", "isat_like", "SATISFIABLE", "wrong", "0");
    check("p_unsat.hys", "isat_like", "UNSATISFIABLE", "correct", "0");
    check(
        "p_sleep.hys",
        "isat_like",
        "CANDIDATE SOLUTION",
        "unresolved",
        "0",
    );

    assert_eq!(get("p_sat.hys", "fake")["expected"], "SATISFIABLE");
    assert_eq!(get("p_sleep.hys", "fake")["expected"], "");
    assert_eq!(get("p_json.hys", "fake")["stats_conflicts"], "7");
    assert_eq!(get("p_json.hys", "fake")["stats_frames"], "3");
    assert_eq!(get("p_sat.hys", "fake")["stats_conflicts"], "");
    assert!(get("p_contract.hys", "fake")["note"].contains("contradicts"));
    let sleep = get("p_sleep.hys", "fake");
    let wall: f64 = sleep["wall_s"].parse().unwrap();
    assert!((1.0..3.0).contains(&wall), "timeout run took {wall} s");
    for r in rows.values() {
        let cpu: f64 = r["cpu_s"].parse().unwrap();
        let peak: f64 = r["peak_mb"].parse().unwrap();
        assert!(cpu >= 0.0 && peak > 0.0, "{r:?}");
    }

    // Summary: per-configuration table, ratio table, the wrong answer; printed on stdout too.
    let summary = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
    assert_eq!(stdout.trim(), summary.trim());
    assert!(summary.contains("## Wrong answers: 2"), "{summary}");
    // fake: files 10; SAT/UNSAFE p_sat p_wrong; UNSAT/SAFE p_unsat p_json p_smtlib; correct 4;
    // wrong 1; candidate 1; timeout 1; memout 1; error 2 (crash, contract).
    assert!(
        summary.contains("| fake | 10 | 2 | 3 | 4 | 1 | 0 | 1 | 0 | 1 | 1 | 2 |"),
        "{summary}"
    );
    // Both solved p_sat, p_unsat, p_smtlib.
    assert!(summary.contains("| fake | isat_like | 3 |"), "{summary}");
    // Output of wrong and failed runs is kept for debugging.
    let logs = out_dir.join("logs");
    assert!(std::fs::read_dir(&logs).unwrap().count() >= 8);
    assert!(!out_dir.join("results.partial.csv").exists());
    assert!(!out_dir.join(".scratch").exists());
}

#[test]
fn no_wrong_answer_exits_zero_and_subsets() {
    let fx = fixture("ok");
    let d = fx.dir.display().to_string();
    let out_dir = fx.dir.join("out");
    let o = runner(&[
        "--suite",
        &d,
        "--expected",
        &format!("{d}/list.txt"),
        "--filter",
        "p_*a*.hys",
        "--every",
        "2",
        "--config",
        &format!("fake=/bin/bash {d}/fake.sh {{file}}"),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    // Directory scan, sorted; `p_*a*.hys` keeps p_candidate, p_contract, p_crash, p_sat,
    // p_unsat (not p_json, p_mem, p_wrong, p_smtlib.smt2); every 2nd of those.
    let rows = read_results(&out_dir.join("results.csv"));
    let mut files: Vec<&str> = rows.keys().map(|(f, _)| f.as_str()).collect();
    files.sort();
    assert_eq!(files, ["p_candidate.hys", "p_crash.hys", "p_unsat.hys"]);
    // Expected answers joined from the list given with --expected.
    assert_eq!(
        rows[&("p_unsat.hys".to_string(), "fake".to_string())]["expected"],
        "UNSATISFIABLE"
    );
}

#[test]
fn usage_errors_exit_two() {
    let fx = fixture("usage");
    let d = fx.dir.display().to_string();
    let list = format!("{d}/list.txt");
    let out_dir = fx.dir.join("out");
    let out = out_dir.to_str().unwrap();
    for args in [
        vec![
            "--suite",
            &list,
            "--config",
            "x=/nonexistent/solver {file}",
            "--out",
            out,
        ],
        vec!["--suite", &list, "--config", "x=/bin/sh", "--out", out],
        vec![
            "--suite",
            "no-such-suite",
            "--config",
            "x=/bin/sh {file}",
            "--out",
            out,
        ],
        vec![
            "--suite",
            &list,
            "--config",
            "x=/bin/sh {file}",
            "--timeout",
            "0",
            "--out",
            out,
        ],
    ] {
        let o = runner(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!o.stderr.is_empty());
    }
}
