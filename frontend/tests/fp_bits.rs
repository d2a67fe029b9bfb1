//! `fp_bits` / `fp32_of_bits` / `fp64_of_bits` end to end: the problems of
//! `examples/fp-bits/` (answers in its `expected.csv`, each cross-checked with Z3 on
//! `icpic3 dump --format smt2`) through the real `icpic3 solve`.
//!
//! The default portfolio and `--engine bitblast` must decide every problem correctly;
//! `--engine icp` must never contradict an answer (it may stop at CANDIDATE SOLUTION or
//! UNKNOWN: 64-bit patterns are not all doubles, and `x' = of_bits(bits(x))` needs relational
//! reasoning that splitting cannot give). Every SATISFIABLE model, as printed, is evaluated
//! again bit-exactly against the file's constraints (`hys::eval`).

use frontend::hys::check::check;
use frontend::hys::eval::{eval_all, PointValue, Truth};
use frontend::hys::parser::parse;
use num_bigint::BigInt;
use solver::num::Rational;
use solver::Sort;
use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/fp-bits")
}

fn problems() -> Vec<(String, bool)> {
    let text = std::fs::read_to_string(dir().join("expected.csv")).expect("expected.csv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut it = l.splitn(3, ',');
            let file = it.next().unwrap_or_default().to_string();
            let sat = it.next() == Some("sat");
            (file, sat)
        })
        .collect()
}

fn solve(file: &str, engine: &str) -> (String, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(["solve", "--format", "json", "--timeout", "10"])
        .args(["--engine", engine])
        .arg(dir().join(file))
        .output()
        .expect("icpic3 runs");
    // one JSON document, the verdict in `result` (docs D.6)
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    let verdict = json["result"].as_str().unwrap_or("").to_string();
    (verdict, json)
}

fn point_value(sort: Sort, v: &serde_json::Value) -> Option<PointValue> {
    match sort {
        Sort::Bool => v.as_bool().map(PointValue::Bool),
        Sort::Fp(_) => {
            let bits = v["bits"].as_str()?.strip_prefix("0x")?;
            u64::from_str_radix(bits, 16).ok().map(PointValue::Fp)
        }
        _ => v
            .as_str()?
            .parse::<BigInt>()
            .ok()
            .map(|n| PointValue::Num(Rational::from_integer(n))),
    }
}

fn model_holds(file: &str, model: &serde_json::Value) -> Result<(), String> {
    let text = std::fs::read_to_string(dir().join(file)).map_err(|e| e.to_string())?;
    let parsed = parse(&text).map_err(|d| d.message)?;
    let checked = check(&parsed).0.ok_or("does not check")?;
    let mut values = Vec::new();
    for d in checked.declared() {
        values.push(
            point_value(d.sort, &model[&d.name])
                .ok_or_else(|| format!("no readable value for {} in {model}", d.name))?,
        );
    }
    let constraints: Vec<_> = checked
        .sections()
        .iter()
        .flat_map(|s| s.constraints.iter().copied())
        .collect();
    match eval_all(&checked, &constraints, &values, &[]) {
        Truth::True => Ok(()),
        t => Err(format!("the printed model evaluates to {t:?}: {model}")),
    }
}

#[test]
fn fp_bits_examples_decided_and_never_wrong() {
    let all = problems();
    assert!(all.len() >= 8 && all.iter().any(|p| p.1) && all.iter().any(|p| !p.1));
    let mut failures = Vec::new();
    for (file, sat) in &all {
        let want = if *sat { "SATISFIABLE" } else { "UNSATISFIABLE" };
        for engine in ["portfolio", "bitblast", "icp"] {
            let (got, json) = solve(file, engine);
            let decided = got == "SATISFIABLE" || got == "UNSATISFIABLE";
            if decided && got != want {
                failures.push(format!("{file} ({engine}): {got}, expected {want}"));
            }
            if !decided && engine != "icp" {
                failures.push(format!("{file} ({engine}): undecided ({got})"));
            }
            if got == "SATISFIABLE" {
                if let Err(e) = model_holds(file, &json["model"]) {
                    failures.push(format!("{file} ({engine}): {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
