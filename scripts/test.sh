#!/usr/bin/env bash
# The test command of the README: installs missing build tools, then runs every test of the
# workspace (unit, property, corpus and command-line tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo test --workspace "$@"
