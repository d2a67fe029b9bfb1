#!/usr/bin/env bash
# Table 1 of the main paper, reproduced by the benchmark runner: every IC3 preset (or the
# ones named after the options) over all transition-system models in .hys form — the
# ts-suite, the ic3-suite and the transition-form files of hys-public.
#
#   bash benchmarks/scripts/table1.sh [--timeout S] [--out DIR] [--suite S]... [PRESET...]
#
# Without presets: all of ic3::IC3_PRESETS (read from ic3/src/config.rs). Extra --suite options replace
# the default suites. The runner writes results.csv and summary.md (with the Table-1 columns)
# to DIR and exits non-zero on any wrong answer.
set -euo pipefail
cd "$(dirname "$0")/../.."
timeout=5
out="benchmarks/results/table1-$(date -u +%Y%m%dT%H%M%SZ)"
suites=()
presets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --timeout) timeout="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --suite) suites+=(--suite "$2"); shift 2 ;;
    *) presets+=("$1"); shift ;;
  esac
done
if [ ${#suites[@]} -eq 0 ]; then
  suites=(--suite examples/ts-suite/expected.csv --suite examples/ic3-suite/expected.csv
          --suite hys-transition)
fi
cargo build -q --release -p frontend -p benchmarks
if [ ${#presets[@]} -eq 0 ]; then
  mapfile -t presets < <(sed -n '/^pub const IC3_PRESETS/,/^];/p' ic3/src/config.rs |
                         grep -o '"[^"]*"' | tr -d '"')
fi
configs=()
for p in "${presets[@]}"; do
  configs+=(--config "$p=target/release/icpic3 solve --engine ic3 --config $p --format json --timeout {timeout} {file}")
done
exec target/release/runner --no-build "${suites[@]}" --timeout "$timeout" --jobs 2 \
  --out "$out" "${configs[@]}"
