//! `deadcode` for CI and editors (issue #21, item 2): `--format jsonl` streamed as goals are
//! decided, SIGINT/SIGTERM ending the run with a complete report, `--fail-on-dead`, SARIF
//! 2.1.0 validated against the official OASIS schema (`tests/data/sarif/`), an lcov tracefile
//! that `genhtml` accepts, and the `--html` report rendered by headless Chromium (screenshot
//! and DOM checked).

use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn example(name: &str) -> String {
    format!("{}/../examples/c/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn icpic3(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(args)
        .output()
        .expect("icpic3 runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("icpic3-reports-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn tool_available(cmd: &str, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The goals of `deadcode --format json` (the reference the other formats are checked against).
fn json_goals(file: &str) -> Vec<Value> {
    let o = icpic3(&["deadcode", file, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: Value = serde_json::from_str(&text(&o.stdout)).expect("json");
    v["goals"].as_array().unwrap().clone()
}

fn send_signal(pid: u32, sig: &str) {
    let s = Command::new("kill")
        .args([&format!("-{sig}"), &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(s.success());
}

/// `--format jsonl` on the controller (67 s to finish): the first goal line comes while the run
/// goes on (streamed, flushed); SIGINT then ends the run within seconds with every goal
/// reported (the undecided ones UNKNOWN), a summary line, and exit code 130 (128 + SIGINT).
#[test]
fn jsonl_streams_and_sigint_ends_the_run_with_a_complete_report() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args([
            "deadcode",
            &example("controller.c"),
            "--format",
            "jsonl",
            "--jobs",
            "2",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("icpic3 starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let g: Value = serde_json::from_str(&first).expect("the first line is JSON");
    assert_eq!(g["type"], "goal", "{first}");
    assert_eq!(g["format_version"], 1);
    assert!(
        child.try_wait().unwrap().is_none(),
        "the first goal line must come before the run ends (streamed)"
    );
    std::thread::sleep(Duration::from_millis(500));
    send_signal(child.id(), "INT");
    let t = Instant::now();
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    let took = t.elapsed();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(
        took < Duration::from_secs(30),
        "SIGINT must end the run soon ({took:?})"
    );
    assert_eq!(status.code(), Some(130), "stderr: {err}");
    assert!(err.contains("interrupted by SIGINT"), "{err}");
    let lines: Vec<Value> = std::iter::once(first.as_str())
        .chain(rest.lines())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let (summary, goals) = lines.split_last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["format_version"], 1);
    assert_eq!(summary["interrupted"], "SIGINT");
    assert_eq!(summary["exit_code"], 130);
    assert!(goals.iter().all(|g| g["type"] == "goal"));
    // complete: every goal of the controller (115) once
    assert_eq!(goals.len(), 115, "{rest}");
    assert_eq!(summary["goals"], 115);
    let mut keys: Vec<String> = goals
        .iter()
        .map(|g| format!("{}:{}:{}", g["line"], g["column"], g["kind"]))
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 115, "each goal once");
    let n = |s: &str| goals.iter().filter(|g| g["status"] == s).count();
    assert!(n("UNKNOWN") > 0, "an interrupted run leaves goals open");
    assert!(n("REACHABLE") > 0, "the goals decided before are kept");
    assert_eq!(summary["summary"]["unknown"], n("UNKNOWN"));
    assert_eq!(summary["summary"]["reachable"], n("REACHABLE"));
    assert_eq!(summary["summary"]["dead"], n("DEAD"));
    assert!(goals
        .iter()
        .any(|g| g["status"] == "UNKNOWN" && g["detail"].as_str().unwrap().contains("interrupt")));
}

/// SIGTERM early (during the concrete runs) with the text format: the report is complete (a
/// summary of all 115 goals), says it was interrupted, exit code 143 (128 + SIGTERM).
#[test]
fn sigterm_early_gives_a_complete_text_report() {
    let child = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(["deadcode", &example("controller.c"), "--jobs", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("icpic3 starts");
    std::thread::sleep(Duration::from_secs(3));
    send_signal(child.id(), "TERM");
    let o = child.wait_with_output().unwrap();
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(143), "{out}\n{}", text(&o.stderr));
    assert!(
        out.contains("interrupted by SIGTERM: the goals not decided by then are UNKNOWN"),
        "{out}"
    );
    let summary = out
        .lines()
        .find(|l| l.starts_with("summary: "))
        .expect("a summary line");
    assert!(summary.starts_with("summary: 115 goal(s): "), "{summary}");
    let goal_lines = out
        .lines()
        .filter(|l| {
            l.contains("  DEAD  (") || l.contains("  REACHABLE  (") || l.contains("  UNKNOWN  (")
        })
        .count();
    assert_eq!(goal_lines, 115, "{out}");
    assert!(out.contains("  UNKNOWN  ("));
}

/// `--fail-on-dead`: exit 10 when some goal is DEAD, 0 when none is (and 0 without the flag).
#[test]
fn fail_on_dead_exit_status() {
    let clamp = example("clamp_filter.c");
    let o = icpic3(&["deadcode", &clamp, "--fail-on-dead"]);
    assert_eq!(o.status.code(), Some(10), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("  DEAD  ("));
    let o = icpic3(&["deadcode", &clamp]);
    assert_eq!(o.status.code(), Some(0));
    let d = tmp_dir("fail-on-dead");
    let live = d.join("live.c");
    std::fs::write(
        &live,
        "extern int __VERIFIER_nondet_int(void);\nint main(void)\n{\n    int x = __VERIFIER_nondet_int();\n    if (x > 0)\n        return 1;\n    return 0;\n}\n",
    )
    .unwrap();
    let o = icpic3(&[
        "deadcode",
        live.to_str().unwrap(),
        "--fail-on-dead",
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!(v["summary"]["dead"], 0, "{v}");
    assert_eq!(o.status.code(), Some(0));
}

/// Validates a document against the SARIF 2.1.0 schema with Python's `jsonschema` (installed
/// by scripts/setup.sh); Err with the validator's message.
fn validate_sarif(doc: &Value) -> Result<(), String> {
    let schema = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sarif/sarif-schema-2.1.0.json"
    );
    let d = tmp_dir("sarif-validate");
    let f = d.join(format!("doc-{}.sarif", rand_suffix()));
    std::fs::write(&f, doc.to_string()).unwrap();
    let o = Command::new("python3")
        .args([
            "-c",
            "import json, sys, jsonschema\n\
             schema = json.load(open(sys.argv[1]))\n\
             doc = json.load(open(sys.argv[2]))\n\
             jsonschema.Draft4Validator.check_schema(schema)\n\
             errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(doc), key=str)\n\
             for e in errors: print(list(e.absolute_path), e.message)\n\
             sys.exit(1 if errors else 0)\n",
            schema,
            f.to_str().unwrap(),
        ])
        .output()
        .expect("python3 runs (scripts/setup.sh installs it with jsonschema)");
    let msg = format!("{}{}", text(&o.stdout), text(&o.stderr));
    assert!(
        !msg.contains("ModuleNotFoundError"),
        "Python's jsonschema is missing: run scripts/setup.sh ({msg})"
    );
    if o.status.success() {
        Ok(())
    } else {
        Err(msg)
    }
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

fn sarif(file: &str) -> Value {
    let o = icpic3(&["deadcode", file, "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    serde_json::from_str(&text(&o.stdout)).expect("SARIF is JSON")
}

/// SARIF on the clamp filter (3 DEAD, 9 REACHABLE) and on a division by a nondet value
/// (a REACHABLE undefined-behaviour goal): valid against the official schema; DEAD branch
/// goals are warnings at their file/line/column with the proof engine, a REACHABLE UB goal is
/// an error with its test case, a REACHABLE branch passes with its inputs.
#[test]
fn sarif_is_valid_and_locates_every_goal() {
    let clamp = example("clamp_filter.c");
    let reference = json_goals(&clamp);
    let doc = sarif(&clamp);
    validate_sarif(&doc).unwrap_or_else(|e| panic!("invalid SARIF: {e}\n{doc:#}"));
    // the validator does reject a broken document
    let mut broken = doc.clone();
    broken["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(
        validate_sarif(&broken).is_err(),
        "the schema check must reject a wrong level"
    );
    assert_eq!(doc["version"], "2.1.0");
    let run = &doc["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "icpic3");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), reference.len());
    for (r, g) in results.iter().zip(&reference) {
        let rule = format!("deadcode/{}", g["kind"].as_str().unwrap());
        assert_eq!(r["ruleId"], rule.as_str());
        let idx = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[idx]["id"], rule.as_str());
        let loc = &r["locations"][0]["physicalLocation"];
        assert!(loc["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("examples/c/clamp_filter.c"));
        assert_eq!(loc["region"]["startLine"], g["line"]);
        assert_eq!(loc["region"]["startColumn"], g["column"]);
        assert_eq!(
            r["locations"][0]["logicalLocations"][0]["name"],
            g["function"]
        );
        assert_eq!(r["properties"]["status"], g["status"]);
        match g["status"].as_str().unwrap() {
            "DEAD" => {
                assert_eq!(r["kind"], "fail");
                assert_eq!(r["level"], "warning");
                assert!(!r["properties"]["engine"].as_str().unwrap().is_empty());
            }
            "REACHABLE" => {
                assert_eq!(r["kind"], "pass");
                assert_eq!(r["level"], "none");
                assert_eq!(r["properties"]["inputs"], g["inputs"]);
            }
            s => panic!("unexpected {s}"),
        }
    }
    let dead_lines: Vec<u64> = results
        .iter()
        .filter(|r| r["level"] == "warning")
        .map(|r| {
            r["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(dead_lines, vec![22, 25, 29]);

    // a reachable division by zero is an error, with its test case
    let d = tmp_dir("sarif-ub");
    let f = d.join("div.c");
    std::fs::write(
        &f,
        "extern int __VERIFIER_nondet_int(void);\nint main(void)\n{\n    int x = __VERIFIER_nondet_int();\n    return 100 / x;\n}\n",
    )
    .unwrap();
    let doc = sarif(f.to_str().unwrap());
    validate_sarif(&doc).unwrap_or_else(|e| panic!("invalid SARIF: {e}\n{doc:#}"));
    let results = doc["runs"][0]["results"].as_array().unwrap();
    let div = results
        .iter()
        .find(|r| r["ruleId"] == "deadcode/division-by-zero")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert_eq!(div["kind"], "fail");
    assert_eq!(div["level"], "error");
    assert_eq!(
        div["locations"][0]["physicalLocation"]["region"]["startLine"],
        5
    );
    let inputs = div["properties"]["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 1, "{div:#}");
    assert_eq!(inputs[0]["value"], "0", "{div:#}");
}

/// lcov: one BRDA per branch goal (REACHABLE 1, DEAD `-`, UNKNOWN 0), and `genhtml` accepts
/// the tracefile (when lcov is installed; scripts/setup.sh installs it).
#[test]
fn lcov_tracefile_matches_the_goals_and_genhtml_accepts_it() {
    let clamp = example("clamp_filter.c");
    let reference = json_goals(&clamp);
    let o = icpic3(&["deadcode", &clamp, "--format", "lcov"]);
    assert_eq!(o.status.code(), Some(0));
    let info = text(&o.stdout);
    assert!(info.starts_with("TN:"), "{info}");
    assert!(info.contains(&format!("SF:{clamp}\n")), "{info}");
    assert!(info.trim_end().ends_with("end_of_record"));
    let brda: Vec<(u64, String)> = info
        .lines()
        .filter_map(|l| l.strip_prefix("BRDA:"))
        .map(|r| {
            let f: Vec<&str> = r.split(',').collect();
            (f[0].parse().unwrap(), f[3].to_string())
        })
        .collect();
    assert_eq!(brda.len(), reference.len());
    for line in 1..=40u64 {
        let mut want: Vec<&str> = reference
            .iter()
            .filter(|g| g["line"] == line)
            .map(|g| match g["status"].as_str().unwrap() {
                "REACHABLE" => "1",
                "DEAD" => "-",
                _ => "0",
            })
            .collect();
        let mut got: Vec<&str> = brda
            .iter()
            .filter(|b| b.0 == line)
            .map(|b| b.1.as_str())
            .collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "line {line}\n{info}");
    }
    assert!(info.contains("BRF:12\nBRH:9\n"), "{info}");
    if !tool_available("genhtml", "--version") {
        eprintln!(
            "SKIPPED the genhtml check: genhtml (Debian package lcov) is not installed; scripts/setup.sh installs it"
        );
        return;
    }
    let d = tmp_dir("lcov");
    let tf = d.join("deadcode.info");
    std::fs::write(&tf, &info).unwrap();
    let o = Command::new("genhtml")
        .args(["--branch-coverage", "-o"])
        .arg(d.join("html"))
        .arg(&tf)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "genhtml: {}\n{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    assert!(d.join("html/index.html").exists());
    let out = text(&o.stdout);
    assert!(out.contains("branches...: 75.0% (9 of 12"), "{out}");
}

/// Finds Chromium, installing it (Debian package `chromium`) when running as root with apt;
/// `Err` with the reason only when it truly cannot be had.
fn chromium() -> Result<String, String> {
    let names = ["chromium", "chromium-browser", "google-chrome"];
    let find = || {
        names
            .iter()
            .find(|n| tool_available(n, "--version"))
            .map(|n| n.to_string())
    };
    if let Some(c) = find() {
        return Ok(c);
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/setup.sh");
    let o = Command::new("bash")
        .arg(script)
        .output()
        .map_err(|e| e.to_string())?;
    find().ok_or_else(|| {
        format!(
            "scripts/setup.sh did not install chromium: {}{}",
            text(&o.stdout),
            text(&o.stderr)
        )
    })
}

fn chromium_run(browser: &str, args: &[&str], url: &str) -> Output {
    let profile = tmp_dir(&format!("chromium-profile-{}", rand_suffix()));
    let o = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .output()
        .expect("chromium runs");
    let _ = std::fs::remove_dir_all(&profile);
    o
}

/// `--html DIR` on the 319-line controller (1 s per goal, so that DEAD, REACHABLE and UNKNOWN
/// all occur), rendered by headless Chromium: a screenshot of the requested size, far from
/// blank, and in the rendered DOM every goal in the source and in the list with its status,
/// the per-function table, and the test cases of the reachable goals.
#[test]
fn html_report_renders_in_headless_chromium() {
    let browser = match chromium() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("SKIPPED: Chromium cannot be installed on this machine: {e}");
            return;
        }
    };
    let d = tmp_dir("html");
    let html = d.join("report");
    let o = icpic3(&[
        "deadcode",
        &example("controller.c"),
        "--timeout",
        "1",
        "--jobs",
        "2",
        "--format",
        "json",
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    let goals = v["goals"].as_array().unwrap();
    assert_eq!(goals.len(), 115);
    let index = html.join("index.html");
    assert!(index.exists());
    let url = format!("file://{}", index.display());
    let shot = d.join("shot.png");
    let o = chromium_run(
        &browser,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1400,2000",
            "--hide-scrollbars",
        ],
        &url,
    );
    assert!(shot.exists(), "no screenshot: {}", text(&o.stderr));
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");
    assert_eq!(&png[12..16], b"IHDR");
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((w, h), (1400, 2000));
    assert!(
        png.len() > 60_000,
        "the screenshot looks blank ({} bytes)",
        png.len()
    );
    // the rendered DOM (after the page's script ran)
    let o = chromium_run(&browser, &["--dump-dom"], &url);
    let dom = text(&o.stdout);
    assert!(dom.contains("</html>"), "{}", text(&o.stderr));
    assert_eq!(dom.matches("<tr class=\"goal\"").count(), 115);
    for s in ["DEAD", "REACHABLE", "UNKNOWN"] {
        let want = goals.iter().filter(|g| g["status"] == s).count();
        assert!(want > 0, "the run should have {s} goals");
        assert_eq!(
            dom.matches(&format!("<tr class=\"goal\" data-status=\"{s}\""))
                .count(),
            want,
            "{s}"
        );
    }
    // every goal is marked in the source (a mark in the source, one in the list)
    for i in 0..115 {
        assert_eq!(
            dom.matches(&format!("data-goal=\"g{i}\"")).count(),
            2,
            "goal {i}"
        );
    }
    for c in ["g dead", "g reach", "g unk"] {
        assert!(dom.contains(&format!("class=\"{c}\"")), "{c}");
    }
    // an undefined-behaviour check proved impossible: an outlined red mark
    assert!(dom.contains("class=\"g dead chk\""));
    // the 319 source lines, the functions, totals, test cases
    assert!(dom.contains("id=\"L0-319\""));
    assert!(dom.contains("<code>mode_machine</code>"));
    assert!(dom.contains(&format!("id=\"total-goals\">{}</b>", goals.len())));
    assert!(dom.contains("Test case (confirmed by running the gcc-compiled program)"));
    assert!(Path::new(&index).metadata().unwrap().len() > 50_000);
    // the page's script: `#gN` selects goal N, whose detail and test case fill the side panel
    let (k, g) = goals
        .iter()
        .enumerate()
        .find(|(_, g)| g["status"] == "REACHABLE")
        .unwrap();
    let o = chromium_run(&browser, &["--dump-dom"], &format!("{url}#g{k}"));
    let dom = text(&o.stdout);
    let panel = &dom[dom.find("id=\"panel-body\"").expect("the panel")..];
    let head = format!(":{}:{}</h3>", g["line"], g["column"]);
    assert!(
        panel.contains(&head),
        "{head} in {}",
        &panel[..panel.len().min(2000)]
    );
    assert!(panel.contains("Test case (confirmed by running the gcc-compiled program)"));
    assert_eq!(
        dom.matches("class=\"g reach sel\"").count(),
        2,
        "both marks selected"
    );
}

/// The progress line: on a terminal (a pseudo-terminal from util-linux `script`) standard
/// error shows `deadcode: done/total goals: D DEAD, R REACHABLE, U UNKNOWN; T s`, redrawn in
/// place and erased at the end; when standard error is not a terminal nothing of it appears.
#[test]
fn progress_line_only_on_a_terminal() {
    let clamp = example("clamp_filter.c");
    let o = icpic3(&["deadcode", &clamp, "--format", "jsonl"]);
    assert_eq!(o.status.code(), Some(0));
    let err = text(&o.stderr);
    assert!(
        !err.contains("deadcode: "),
        "no progress off a terminal: {err:?}"
    );
    if !tool_available("script", "--version") {
        eprintln!("SKIPPED the terminal half: util-linux `script` is not installed");
        return;
    }
    let d = tmp_dir("progress");
    let out = d.join("report.jsonl");
    let cmd = format!(
        "'{}' deadcode '{}' --format jsonl > '{}'",
        env!("CARGO_BIN_EXE_icpic3"),
        clamp,
        out.display()
    );
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let tty = text(&o.stdout);
    assert!(
        tty.contains("\rdeadcode: 12/12 goals: 3 DEAD, 9 REACHABLE, 0 UNKNOWN; "),
        "{tty:?}"
    );
    assert!(tty.contains("\rdeadcode: 0/12 goals: "), "{tty:?}");
    assert!(tty.ends_with("\r\x1b[K"), "erased at the end: {tty:?}");
    // the report itself went to the file, not to the terminal
    let report = std::fs::read_to_string(&out).unwrap();
    assert_eq!(report.lines().count(), 13);
    assert!(!tty.contains("\"type\""));
}
