#!/usr/bin/env bash
# The test command of the README: installs missing build tools, then runs every test of the
# workspace (unit, property, corpus and command-line tests), and the solver tests again with
# every ICP deduction re-derived independently (the `check-deductions` feature).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# the Python packages of the tests (JSON Schema validation, BenchExec) from setup.sh
export ICPIC3_PYTHON="$PWD/target/pyenv/bin/python"
cargo test --workspace "$@"
cargo test -p solver --features check-deductions "$@"
cargo test -p frontend --features check-deductions --test solve_sample --test machine_int_suite "$@"
