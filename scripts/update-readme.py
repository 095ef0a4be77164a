#!/usr/bin/env python3
"""Refresh the example outputs in README.md.

Every fenced block right after a line `<!-- run: ARGS -->` is replaced by
what `shardplan ARGS` prints now (release build), so the README shows real
output. Outputs are seeded, so a rerun changes nothing unless the code did.

    cargo build --release && python3 scripts/update-readme.py
"""
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "shardplan")
MARK = re.compile(r"^<!-- run: (.*) -->$")


def run(args: str) -> str:
    # A leading `printf ... |` feeds stdin.
    stdin = None
    if "|" in args:
        feed, args = args.split("|", 1)
        stdin = subprocess.run(feed, shell=True, capture_output=True, check=True).stdout
    if args.startswith("sh -c "):
        # A plain shell command (e.g. showing a file a run just wrote).
        cmd = shlex.split(args)
    else:
        cmd = [BIN] + shlex.split(args.strip().removeprefix("shardplan").strip())
    out = subprocess.run(cmd, input=stdin, capture_output=True, cwd=ROOT)
    text = out.stdout.decode("utf-8", "replace") + out.stderr.decode("utf-8", "replace")
    if out.returncode not in (0, 1):
        sys.exit(f"{args}: exit {out.returncode}\n{text}")
    return text.rstrip("\n")


def main() -> None:
    path = os.path.join(ROOT, "README.md")
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        m = MARK.match(lines[i])
        if m and i + 1 < len(lines) and lines[i + 1].startswith("```"):
            fence = lines[i + 1]
            j = i + 2
            while j < len(lines) and lines[j] != "```":
                j += 1
            out.append(fence)
            out.extend(run(m.group(1)).split("\n"))
            out.append("```")
            i = j + 1
            continue
        i += 1
    open(path, "w", encoding="utf-8").write("\n".join(out))


if __name__ == "__main__":
    main()
