//! `solve --format json` prints one JSON document that `docs/solve-json.schema.json`
//! describes, for every input kind and for bad input: real outputs validated by the
//! `jsonschema` Python package (an independent implementation of JSON Schema) in
//! `scripts/tests/check_solve_json.py`. The interpreter is `$ICPIC3_PYTHON` (scripts/test.sh
//! sets it to the environment `scripts/setup.sh` creates), else `python3`.

use std::process::Command;

#[test]
fn solve_json_of_every_input_kind_matches_the_schema() {
    let root = format!("{}/..", env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var("ICPIC3_PYTHON").unwrap_or_else(|_| "python3".into());
    let out = Command::new(&python)
        .arg(format!("{root}/scripts/tests/check_solve_json.py"))
        .arg(env!("CARGO_BIN_EXE_icpic3"))
        .output()
        .unwrap_or_else(|e| panic!("{python} runs ({e}); scripts/setup.sh installs it"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{stdout}{stderr}\n(the `jsonschema` package comes with scripts/setup.sh)"
    );
    assert!(stdout.contains("0 failure(s)"), "{stdout}");
}
