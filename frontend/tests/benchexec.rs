//! The BenchExec tool-info module (`benchmarks/benchexec/icpic3_tool/icpic3.py`) with
//! BenchExec itself: `scripts/tests/test_benchexec_toolinfo.py` loads it by the documented
//! route (PYTHONPATH=benchmarks/benchexec, module `icpic3_tool.icpic3`), runs
//! `python -m benchexec.test_tool_info` on it and checks `determine_result` on real outputs of
//! every input kind. The interpreter is `$ICPIC3_PYTHON` (scripts/test.sh sets it to the
//! environment scripts/setup.sh creates with BenchExec from PyPI), else `python3`.

use std::process::Command;

#[test]
fn benchexec_tool_info_reads_every_input_kinds_answers() {
    let root = format!("{}/..", env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var("ICPIC3_PYTHON").unwrap_or_else(|_| "python3".into());
    let out = Command::new(&python)
        .arg(format!("{root}/scripts/tests/test_benchexec_toolinfo.py"))
        .env("PYTHONPATH", format!("{root}/benchmarks/benchexec"))
        .env("ICPIC3", env!("CARGO_BIN_EXE_icpic3"))
        .output()
        .unwrap_or_else(|e| panic!("{python} runs ({e}); scripts/setup.sh installs it"));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{said}\n(BenchExec comes with scripts/setup.sh: ICPIC3_PYTHON=target/pyenv/bin/python)"
    );
    assert!(said.contains("\nOK"), "{said}");
}
