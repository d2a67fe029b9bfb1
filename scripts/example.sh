#!/usr/bin/env bash
# The example command of the README: builds icpic3 and runs it on a bundled model.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release -q -p frontend --bin icpic3
for f in examples/thermostat.hys examples/float_1e20.hys; do
  ./target/release/icpic3 check "$f"
done
