#!/usr/bin/env bash
# Issues 4 and 18's benchmark: shardplan simulate against a vectorised numpy
# reference and a pure-Python loop, whole process (cases A, A10, B: wall
# clock; M, MP: the multinomial sampler on one thread, CPU time). Prints a
# Markdown table and writes it to bench/results.md. bench/compare.py's
# docstring lists the cases and targets.
#
#   bash bench/compare.sh            # full run, 3 timed runs per command (~6-10 min)
#   bash bench/compare.sh --quick    # 10x fewer seconds: a smoke run
#   bash bench/compare.sh --runs 5   # more repetitions on a quiet machine
#   bash bench/compare.sh --no-hyperfine   # plain timing loop
#
# Against a previous release, timed in the same run (interleaved run for run
# with the current build, so load hits both alike; the table gains a column
# "vs previous" = previous median / current median):
#
#   bash bench/compare.sh --previous-rev v0.1.0   # builds REV itself (below)
#   bash bench/compare.sh --previous /path/to/old/shardplan
#   SHARDPLAN_PREVIOUS=/path/to/old/shardplan bash bench/compare.sh
#
# --previous-rev REV does, in a temporary directory removed at exit:
#
#   git worktree add --detach /tmp/prev <rev>
#   cargo build --release --manifest-path /tmp/prev/Cargo.toml --target-dir /tmp/prev-target
#
# (the same two commands build one by hand for --previous; afterwards
# `git worktree remove --force /tmp/prev && rm -rf /tmp/prev-target`). A
# full build from scratch takes a few minutes.
#
# Needs: cargo, git, python3 (3.9+). numpy is taken from bench/.venv, else
# from python3, else installed into bench/.venv with pip. hyperfine is used
# when installed (Debian/Ubuntu: apt-get install hyperfine), else a plain
# loop; the current/previous pairs always use the plain loop.
set -euo pipefail
cd "$(dirname "$0")/.."

prev_bin="${SHARDPLAN_PREVIOUS:-}"
prev_flag="" prev_rev="" args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --previous|--previous-rev)
            [ $# -ge 2 ] || { echo "$1 needs a value" >&2; exit 2; }
            if [ "$1" = --previous ]; then prev_flag="$2"; else prev_rev="$2"; fi
            shift 2 ;;
        --previous=*) prev_flag="${1#*=}"; shift ;;
        --previous-rev=*) prev_rev="${1#*=}"; shift ;;
        *) args+=("$1"); shift ;;
    esac
done
if [ -n "$prev_flag" ] && [ -n "$prev_rev" ]; then
    echo "give --previous BIN or --previous-rev REV, not both" >&2
    exit 2
fi
# The flags override $SHARDPLAN_PREVIOUS.
[ -n "$prev_rev" ] && prev_bin=""
[ -n "$prev_flag" ] && prev_bin="$prev_flag"
if [ -n "$prev_bin" ] && [ ! -x "$prev_bin" ]; then
    echo "previous build: no executable at $prev_bin" >&2
    exit 2
fi
prev_commit=""
if [ -n "$prev_rev" ]; then
    prev_commit="$(git rev-parse --verify --quiet "$prev_rev^{commit}")" \
        || { echo "--previous-rev: no commit $prev_rev" >&2; exit 2; }
fi

# A shared CARGO_TARGET_DIR may be rebuilt by another checkout mid-run:
# time private copies of the builds.
work="$(mktemp -d "${TMPDIR:-/tmp}/shardplan-bench.XXXXXX")"
prev_tree=""
cleanup() {
    if [ -n "$prev_tree" ]; then
        git worktree remove --force "$prev_tree" >/dev/null 2>&1 \
            || { rm -rf "$prev_tree"; git worktree prune; }
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

echo "building shardplan (release)..." >&2
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/shardplan"
[ -x "$bin" ] || { echo "no binary at $bin" >&2; exit 1; }
cp "$bin" "$work/shardplan"
rev="$(git describe --always --dirty 2>/dev/null || echo unknown)"

prev_args=()
if [ -n "$prev_commit" ]; then
    prev_label="$(git describe --always "$prev_commit")"
    echo "building the previous release ($prev_rev = $prev_label) in a temporary worktree" \
         "(a few minutes)..." >&2
    prev_tree="$work/prev"
    git worktree add --quiet --detach "$prev_tree" "$prev_commit"
    cargo build --release --quiet --manifest-path "$prev_tree/Cargo.toml" \
        --target-dir "$work/prev-target"
    cp "$work/prev-target/release/shardplan" "$work/shardplan-previous"
    # The binary is all that is needed: free the worktree and build now.
    git worktree remove --force "$prev_tree"
    prev_tree=""
    rm -rf "$work/prev-target"
    prev_args=(--previous "$work/shardplan-previous" --previous-revision "$prev_label")
elif [ -n "$prev_bin" ]; then
    cp "$prev_bin" "$work/shardplan-previous"
    prev_args=(--previous "$work/shardplan-previous")
fi

has_numpy() { env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$1" -c 'import numpy' 2>/dev/null; }
if [ -x bench/.venv/bin/python ] && has_numpy bench/.venv/bin/python; then
    py=bench/.venv/bin/python
elif command -v python3 >/dev/null && has_numpy python3; then
    py=python3
else
    echo "numpy not found: installing it into bench/.venv" >&2
    if ! { python3 -m venv bench/.venv && bench/.venv/bin/pip install --quiet numpy; }; then
        echo "could not install numpy; install it by hand and rerun:" >&2
        echo "  python3 -m venv bench/.venv && bench/.venv/bin/pip install numpy" >&2
        exit 1
    fi
    py=bench/.venv/bin/python
fi
command -v hyperfine >/dev/null || echo "hyperfine not installed: timing with a plain loop" >&2

# SHARDPLAN_PREVIOUS was resolved above (a private copy in $work): keep
# compare.py from falling back to the original path.
SHARDPLAN_PREVIOUS= "$py" bench/compare.py --shardplan "$work/shardplan" --revision "$rev" \
    "${prev_args[@]+"${prev_args[@]}"}" --python "$py" "${args[@]+"${args[@]}"}"
