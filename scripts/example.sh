#!/usr/bin/env bash
# The example command of the README: builds icpic3 and runs its main job on bundled models.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release -q -p frontend --bin icpic3
icpic3=./target/release/icpic3
run() {
  echo "\$ icpic3 $*"
  # exit codes 10/20/0 are verdicts, not failures
  "$icpic3" "$@" || { code=$?; [ "$code" -eq 10 ] || [ "$code" -eq 20 ] || exit "$code"; }
  echo
}
run solve -v examples/tank_design.hys      # SATISFIABLE, with an exactly validated model
run solve -v examples/launch_angle.hys     # trigonometry: a candidate box (see README)
run check examples/thermostat.hys          # a transition system: parsed, checked, lowered
run solve -v examples/thermostat.hys       # SAFE: k-induction proves the room never gets below 15
run solve examples/ts-suite/u_manual_sample2.hys   # UNSAFE: the iSAT3 manual's trace, replayed exactly
