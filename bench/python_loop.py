#!/usr/bin/env python3
"""Naive pure-Python reference for `shardplan simulate`.

One random.randrange(S) per like: the simplest correct simulation, and the
baseline of issue 4's "over 1,000x faster" target. Run it with a small
--seconds (a few hundred) and compare simulated seconds per wall-clock
second. Prints the same JSON fields as `shardplan simulate --format json`
(the subset the benchmark compares), plus its own wall time.
"""

import argparse
import json
import math
import random
import sys
import time


def positive_int(flag):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag} must be a whole number (got {text!r})")
        if value < 1:
            raise argparse.ArgumentTypeError(f"{flag} must be at least 1 (got {value})")
        return value

    return parse


def quantile(sorted_values, q):
    """Smallest v with at least a share q of values at or below v
    (shardplan's definition; numpy's method="inverted_cdf")."""
    need = max(math.ceil(q * len(sorted_values)), 1)
    return sorted_values[need - 1]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rate", type=positive_int("--rate"), required=True, help="likes/s (whole)")
    p.add_argument("--shards", type=positive_int("--shards"), required=True)
    p.add_argument("--seconds", type=positive_int("--seconds"), required=True)
    p.add_argument("--cap", type=positive_int("--cap"), default=1000, help="writes/s per shard")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)

    rng = random.Random(a.seed)
    randrange = rng.randrange
    shards = a.shards
    busiest = []
    quietest_min = None
    start = time.perf_counter()
    for _ in range(a.seconds):
        counts = [0] * shards
        for _ in range(a.rate):
            counts[randrange(shards)] += 1
        busiest.append(max(counts))
        q = min(counts)
        quietest_min = q if quietest_min is None else min(quietest_min, q)
    wall = time.perf_counter() - start

    busiest.sort()
    n = len(busiest)
    out = {
        "tool": "python-loop",
        "rate": a.rate,
        "shards": a.shards,
        "cap": a.cap,
        "seconds": n,
        "traffic": "fixed",
        "seed": a.seed,
        "likes_total": a.rate * n,
        "busiest_max": busiest[-1],
        "quietest_min": quietest_min,
        "busiest_mean": sum(busiest) / n,
        "busiest_p50": quantile(busiest, 0.5),
        "busiest_p99": quantile(busiest, 0.99),
        "busiest_p999": quantile(busiest, 0.999),
        "seconds_over_cap": sum(1 for b in busiest if b > a.cap),
        "loop_wall_seconds": wall,
        "simulated_seconds_per_second": n / wall if wall > 0 else None,
    }
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
