#!/usr/bin/env bash
# BMC depth throughput of icpic3 (--engine bmc) against iSAT3 0.02's BMC, in the same run, on
# the deep counter models of benchmarks/models/: every depth 0..D is one UNSAT check, the
# answer is UNKNOWN at the depth limit. Prints, per model and tool, the median over REPS runs
# of the wall-clock and user CPU seconds, depths per CPU second, and the peak RSS.
# Usage: bash benchmarks/bmc_throughput.sh [D [REPS]]   (ISAT3=path overrides /work/tools/isat3)
set -euo pipefail
cd "$(dirname "$0")/.."
D=${1:-20000}
REPS=${2:-3}
ISAT3=${ISAT3:-/work/tools/isat3}
cargo build --release -q -p frontend --bin icpic3
ICPIC3=./target/release/icpic3
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '| model | tool | depths | wall s | CPU s | depths / CPU s | peak RSS MB |\n'
printf '|---|---|---:|---:|---:|---:|---:|\n'
for model in benchmarks/models/bmc_counter_int.hys benchmarks/models/bmc_counter_real.hys; do
  declare -A wall=() cpu=() rss=()
  for rep in $(seq "$REPS"); do
    for tool in isat3 icpic3; do
      if [ "$tool" = isat3 ]; then
        cmd=("$ISAT3" -I --max-depth "$D" "$model")
      else
        cmd=("$ICPIC3" solve --engine bmc --max-depth "$D" "$model")
      fi
      /usr/bin/time -o "$tmp" -f '%e %U %M' "${cmd[@]}" > /dev/null 2>&1 || true
      read -r w u m < "$tmp"
      wall[$tool]+="$w "; cpu[$tool]+="$u "; rss[$tool]+="$m "
    done
  done
  for tool in isat3 icpic3; do
    w=$(tr ' ' '\n' <<< "${wall[$tool]}" | grep . | median)
    u=$(tr ' ' '\n' <<< "${cpu[$tool]}" | grep . | median)
    m=$(tr ' ' '\n' <<< "${rss[$tool]}" | grep . | median)
    awk -v model="$(basename "$model")" -v tool="$tool" -v d="$D" -v w="$w" -v u="$u" -v m="$m" \
      'BEGIN { printf "| %s | %s | %d | %.2f | %.2f | %.0f | %.0f |\n", model, tool, d + 1, w, u, (d + 1) / (u > 0 ? u : 0.01), m / 1024 }'
  done
  unset wall cpu rss
done
