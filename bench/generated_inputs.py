#!/usr/bin/env python3
"""Issue 37's generated inputs: random plans through the commands a user
types, each run's CPU time (user + system of the child), and the slowest.

    cargo build --release
    python3 bench/generated_inputs.py [COUNT] [SEED]   # default 60 plans, seed 37

Each plan draws a traffic law (fixed, poisson, gamma-poisson with a
dispersion from 0.5 to 1,000), a planned peak from 100 to 10,000,000
likes/s (log-uniform), a shard count from 1 to 5,000, a cap of 500 to
3,000 writes/s, a risk of 1e-2 or 1e-4, and sometimes partitions. Each is
run through `size`, `risk`, `chart --kind risk`, `compare`, `simulate
--seconds 2000` and `report`. Runs refused as bad input (exit 2) count
too: a refusal must be quick. A run is cut at TIMEOUT seconds (default 60)
of wall time. Prints a Markdown table of the SHOW (default 10) slowest runs and the
count of runs over 0.3 s, 1 s and 20 s of CPU.
"""

import os
import random
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("SHARDPLAN", os.path.join(ROOT, "target", "release", "shardplan"))
TIMEOUT = float(os.environ.get("TIMEOUT", "60"))


def plan(rng):
    """One random plan: the flags every command shares."""
    traffic = rng.choice(["fixed", "poisson", "gamma-poisson"])
    flags = ["--traffic", traffic]
    if traffic == "gamma-poisson":
        flags += ["--dispersion", f"{10 ** rng.uniform(-0.3, 3):.3g}"]
    peak = round(10 ** rng.uniform(2, 7))
    cap = rng.choice([500, 1000, 2000, 3000])
    risk = rng.choice(["0.01", "0.0001"])
    shards = max(1, round(10 ** rng.uniform(0, 3.7)))
    flags += ["--cap", str(cap), "--risk", risk]
    if rng.random() < 0.25:
        flags += ["--partitions", str(rng.choice([10, 100, 1000]))]
    return peak, shards, flags


def commands(peak, shards, flags, out):
    """The runs of one plan, as argument lists."""
    rate = ["--rate", str(peak), "--shards", str(shards)]
    return [
        ["size", "--peak", str(peak)] + flags,
        ["risk"] + rate + flags,
        ["chart", "--kind", "risk", "-o", os.path.join(out, "risk.svg")] + rate + flags,
        ["compare"] + rate + flags,
        ["simulate", "--seconds", "2000"] + rate + flags,
        ["report", "-o", os.path.join(out, "report")] + rate + flags,
    ]


def cpu_of(args, out):
    """CPU seconds of one run and its exit code (None past the timeout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        code = subprocess.run(
            [BIN] + args,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=TIMEOUT,
            cwd=out,
        ).returncode
    except subprocess.TimeoutExpired:
        code = None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    subprocess.run(["rm", "-rf", os.path.join(out, "report"), os.path.join(out, "risk.svg")])
    return cpu, code


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 37)
    runs = []
    with tempfile.TemporaryDirectory() as out:
        for _ in range(count):
            peak, shards, flags = plan(rng)
            for args in commands(peak, shards, flags, out):
                cpu, code = cpu_of(args, out)
                runs.append((cpu, code, args))
    runs.sort(key=lambda r: -r[0])
    print(f"{len(runs)} runs of {count} plans; exit codes:", end=" ")
    codes = {}
    for _, code, _ in runs:
        codes[code] = codes.get(code, 0) + 1
    print(", ".join(f"{k}: {v}" for k, v in sorted(codes.items(), key=str)))
    for limit in (0.3, 1.0, 20.0):
        print(f"- over {limit} s of CPU: {sum(1 for r in runs if r[0] > limit)}")
    print()
    print("| CPU s | exit | command |")
    print("|---|---|---|")
    for cpu, code, args in runs[: int(os.environ.get("SHOW", "10"))]:
        shown = " ".join("OUT" if a.startswith("/") else a for a in args)
        print(f"| {cpu:.2f} | {code} | `{shown}` |")


if __name__ == "__main__":
    main()
