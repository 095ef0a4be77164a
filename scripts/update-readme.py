#!/usr/bin/env python3
"""Refresh the example outputs in README.md and docs/*.md.

Every fenced block right after a line `<!-- run: ARGS -->` is replaced by
what `shardplan ARGS` prints now (release build), so the README and the
docs show real output. Outputs are seeded, so a rerun changes nothing
unless the code did.

    cargo build --release && python3 scripts/update-readme.py

ARGS is one `shardplan ...` command, optionally with shell pipes around it:

    <!-- run: shardplan sweep --shards 18..22 --rate 14000 -->
    <!-- run: printf 'a\nb\n' | shardplan keys --stdin -->     (feeds stdin)
    <!-- run: shardplan size --peak 14000 | head -10 -->        (filters the output)
    <!-- run: sh -c "head -48 /tmp/report/report.md" -->        (a plain shell command)

Pipes are separated by ` | ` (with spaces). What comes before the
`shardplan` segment is run by the shell and feeds its stdin; what comes
after is run by the shell on its output (stdout, then stderr). A filtered
block shows part of the real output: say so in the text around it.
"""
import glob
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "shardplan")
MARK = re.compile(r"^<!-- run: (.*) -->$")
PIPE = " | "
# Tables are drawn at COLUMNS when not on a terminal: pin it so the output
# does not depend on the shell the script runs from.
ENV = dict(os.environ, COLUMNS="120")


def run(args: str) -> str:
    if args.startswith("sh -c "):
        # A plain shell command (e.g. showing a file a run just wrote).
        out = subprocess.run(shlex.split(args), capture_output=True, cwd=ROOT, env=ENV)
        return finish(args, out)
    parts = args.split(PIPE)
    at = next((i for i, p in enumerate(parts) if p.strip().startswith("shardplan")), None)
    if at is None:
        sys.exit(f"{args}: no `shardplan` command in the run marker")
    feed, command, filters = PIPE.join(parts[:at]), parts[at], PIPE.join(parts[at + 1:])
    stdin = None
    if feed:
        stdin = subprocess.run(feed, shell=True, capture_output=True, check=True, cwd=ROOT, env=ENV).stdout
    cmd = [BIN] + shlex.split(command.strip().removeprefix("shardplan").strip())
    out = subprocess.run(cmd, input=stdin, capture_output=True, cwd=ROOT, env=ENV)
    if out.returncode not in (0, 1):
        finish(args, out)
    if filters:
        text = out.stdout + out.stderr
        out = subprocess.run(filters, shell=True, input=text, capture_output=True, cwd=ROOT, env=ENV)
    return finish(args, out)


def finish(args: str, out: subprocess.CompletedProcess) -> str:
    text = out.stdout.decode("utf-8", "replace") + out.stderr.decode("utf-8", "replace")
    if out.returncode not in (0, 1):
        sys.exit(f"{args}: exit {out.returncode}\n{text}")
    return text.rstrip("\n")


def refresh(path: str) -> int:
    """Rewrite the run blocks of one file; return how many there were."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i, blocks = [], 0, 0
    while i < len(lines):
        out.append(lines[i])
        m = MARK.match(lines[i])
        if m and i + 1 < len(lines) and lines[i + 1].startswith("```"):
            fence = lines[i + 1]
            close = "`" * (len(fence) - len(fence.lstrip("`")))
            j = i + 2
            while j < len(lines) and lines[j] != close:
                j += 1
            if j == len(lines):
                sys.exit(f"{path}:{i + 1}: the block after the run marker is not closed")
            out.append(fence)
            out.extend(run(m.group(1)).split("\n"))
            out.append(close)
            blocks += 1
            i = j + 1
            continue
        i += 1
    open(path, "w", encoding="utf-8").write("\n".join(out))
    return blocks


def main() -> None:
    if not os.path.exists(BIN):
        sys.exit(f"{BIN} is missing: run cargo build --release first")
    paths = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    for path in paths:
        n = refresh(path)
        if n:
            print(f"{os.path.relpath(path, ROOT)}: {n} example(s) refreshed")


if __name__ == "__main__":
    main()
