#!/usr/bin/env bash
# Issue 4's benchmark: shardplan simulate against a vectorised numpy
# reference and a pure-Python loop, whole process, wall clock. Prints a
# Markdown table and writes it to bench/results.md.
#
#   bash bench/compare.sh            # full run, 3 timed runs per command (~3-5 min)
#   bash bench/compare.sh --quick    # 10x fewer seconds: a smoke run
#   bash bench/compare.sh --runs 5   # more repetitions on a quiet machine
#   bash bench/compare.sh --no-hyperfine   # plain timing loop
#
# Needs: cargo, python3 (3.9+). numpy is taken from bench/.venv, else from
# python3, else installed into bench/.venv with pip. hyperfine is used when
# installed (Debian/Ubuntu: apt-get install hyperfine), else a plain loop.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "building shardplan (release)..." >&2
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/shardplan"
[ -x "$bin" ] || { echo "no binary at $bin" >&2; exit 1; }
# A shared CARGO_TARGET_DIR may be rebuilt by another checkout mid-run:
# time a private copy of this build.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$bin" "$work/shardplan"
rev="$(git describe --always --dirty 2>/dev/null || echo unknown)"

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

"$py" bench/compare.py --shardplan "$work/shardplan" --revision "$rev" --python "$py" "$@"
