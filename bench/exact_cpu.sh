#!/usr/bin/env bash
# Issue 37's table: every command on the reference inputs (the issue's
# gamma-poisson case, the 200,000 likes/s sweep, the bundled scenarios),
# CPU time (user + system, GNU time) of the current release build and of a
# previous one, timed run for run in the same session so load hits both
# alike. Prints a Markdown table: the smallest CPU time of the runs each,
# and previous / current.
#
#   cargo build --release
#   git worktree add --detach /tmp/prev 300af13 && cargo build --release --manifest-path /tmp/prev/Cargo.toml
#   bash bench/exact_cpu.sh /tmp/prev/target/release/shardplan [runs]   # default 3 runs
#
# A previous run over TIMEOUT seconds (default 120) is cut short and shown
# as "over 120 s"; such a command is run once. Needs GNU time
# (`apt-get install time`).
set -euo pipefail

PREV=${1:?usage: bench/exact_cpu.sh PREVIOUS_BINARY [runs]}
RUNS=${2:-3}
TIMEOUT=${TIMEOUT:-120}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CUR=${SHARDPLAN:-$ROOT/target/release/shardplan}
GP=$ROOT/bench/gamma-poisson.toml
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

cmds=(
  "size --scenario $GP"
  "risk --scenario $GP"
  "sweep --scenario $GP"
  "sweep --scenario $GP --shards 10..100"
  "sweep --scenario $GP --shards 10..1000"
  "chart --kind risk --scenario $GP -o risk.svg"
  "report --scenario $GP -o report"
  "compare --scenario $GP"
  "simulate --scenario $GP"
  "sweep --shards 10..1000 --rate 200000"
)
for s in viral-reel overload interview quiet-reel; do
  cmds+=("size --scenario $s" "risk --scenario $s" "sweep --scenario $s"
    "chart --kind risk --scenario $s -o risk.svg" "compare --scenario $s"
    "simulate --scenario $s" "report --scenario $s -o report")
done
for s in viral-evening viral-evening-monitor; do
  cmds+=("simulate --scenario $s" "chart --kind timeline --scenario $s -o t.svg"
    "report --scenario $s -o report")
done
for s in grow-wrong-order grow-right-order shrink-fold; do cmds+=("resize --scenario $s"); done
cmds+=("fleet --scenario interview")

# CPU seconds of one run of BINARY ARGS..., or "over" past the timeout.
cpu() {
  local bin=$1
  shift
  rm -rf report
  if /usr/bin/time -o time.txt -f "%U %S" timeout "$TIMEOUT" "$bin" "$@" >/dev/null 2>&1; then
    awk 'END { printf "%.2f", $1 + $2 }' time.txt
  else
    echo over
  fi
}

# The smaller of two times ("" and "over" lose to any number).
least() {
  if [[ -z $1 || $1 == over ]]; then echo "${2:-$1}"
  elif [[ -z $2 || $2 == over ]]; then echo "$1"
  else awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'
  fi
}

echo "| command | previous (s CPU) | this build (s CPU) | previous / this |"
echo "|---|---|---|---|"
for c in "${cmds[@]}"; do
  read -ra args <<< "$c"
  best_p="" best_c=""
  for ((i = 0; i < RUNS; i++)); do
    # A previous run past the timeout is not repeated.
    if [[ $best_p != over ]]; then
      p=$(cpu "$PREV" "${args[@]}")
      if [[ $p == over ]]; then best_p=over; else best_p=$(least "$best_p" "$p"); fi
    fi
    best_c=$(least "$best_c" "$(cpu "$CUR" "${args[@]}")")
  done
  shown=${c//$GP/gamma-poisson.toml}
  shown=${shown// -o risk.svg/}
  shown=${shown// -o t.svg/}
  shown=${shown// -o report/}
  if [[ $best_p == over ]]; then
    ratio=$(awk -v t="$TIMEOUT" -v c="$best_c" 'BEGIN { printf "over %.0fx", t / (c < 0.01 ? 0.01 : c) }')
    best_p="over $TIMEOUT"
  else
    ratio=$(awk -v p="$best_p" -v c="$best_c" 'BEGIN { printf "%.1fx", (p < 0.01 ? 0.01 : p) / (c < 0.01 ? 0.01 : c) }')
  fi
  echo "| \`$shown\` | $best_p | $best_c | $ratio |"
done
