#!/usr/bin/env python3
"""Vectorised numpy reference for `shardplan simulate`.

What a Python user would write: draw each second's split of L likes over S
shards as one row of rng.multinomial(L, [1/S]*S, size=chunk), take the
per-row max (the busiest shard) and min (the quietest), and keep a
histogram of the busiest (np.bincount) so memory stays flat in --seconds.

Prints the same JSON fields as `shardplan simulate --format json` (a
subset: the figures the benchmark compares). Quantiles use shardplan's
definition, the smallest value v with at least a share q of seconds at or
below v, which is numpy's method="inverted_cdf" (Hyndman & Fan 1996,
definition 1); --check-quantiles verifies that on the kept values.

The random streams differ from shardplan's (PCG64 here, xoshiro256++
there), so the figures agree statistically, not digit for digit.
"""

import argparse
import json
import math
import sys

import numpy as np


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


def quantile_from_hist(hist, total, q):
    """Smallest v with cumulative count >= ceil(q * total) (at least 1).

    The same float arithmetic as shardplan's Histogram::quantile, so the
    rank is identical for identical counts.
    """
    need = max(math.ceil(q * total), 1)
    cum = np.cumsum(hist)
    return int(np.searchsorted(cum, need, side="left"))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rate", type=positive_int("--rate"), required=True, help="likes/s (whole)")
    p.add_argument("--shards", type=positive_int("--shards"), required=True)
    p.add_argument("--seconds", type=positive_int("--seconds"), required=True)
    p.add_argument("--cap", type=positive_int("--cap"), default=1000, help="writes/s per shard")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--chunk", type=positive_int("--chunk"), default=4096,
                   help="seconds drawn per numpy call (memory: chunk x shards x 8 bytes)")
    p.add_argument("--traffic", choices=["fixed", "poisson"], default="fixed")
    p.add_argument("--check-quantiles", action="store_true",
                   help="also keep every busiest value and assert the histogram quantiles "
                        "equal np.quantile(..., method='inverted_cdf') (memory grows)")
    a = p.parse_args(argv)

    rng = np.random.Generator(np.random.PCG64(a.seed))
    pvals = [1.0 / a.shards] * a.shards
    hist = np.zeros(0, dtype=np.int64)
    likes_total = 0
    quietest_min = None
    kept = []
    done = 0
    while done < a.seconds:
        n = min(a.chunk, a.seconds - done)
        if a.traffic == "fixed":
            likes = a.rate
            draws = rng.multinomial(likes, pvals, size=n)
            likes_total += likes * n
        else:
            likes = rng.poisson(a.rate, size=n)
            draws = rng.multinomial(likes, pvals)
            likes_total += int(likes.sum())
        busiest = draws.max(axis=1)
        qmin = int(draws.min())
        quietest_min = qmin if quietest_min is None else min(quietest_min, qmin)
        counts = np.bincount(busiest)
        if counts.size > hist.size:
            counts[: hist.size] += hist
            hist = counts
        else:
            hist[: counts.size] += counts
        if a.check_quantiles:
            kept.append(busiest)
        done += n

    total = int(hist.sum())
    values = np.arange(hist.size)
    out = {
        "tool": "numpy",
        "numpy_version": np.__version__,
        "rate": a.rate,
        "shards": a.shards,
        "cap": a.cap,
        "seconds": total,
        "traffic": a.traffic,
        "seed": a.seed,
        "likes_total": likes_total,
        "busiest_max": int(np.flatnonzero(hist)[-1]),
        "quietest_min": quietest_min,
        "busiest_mean": float((hist * values).sum() / total),
        "busiest_p50": quantile_from_hist(hist, total, 0.5),
        "busiest_p99": quantile_from_hist(hist, total, 0.99),
        "busiest_p999": quantile_from_hist(hist, total, 0.999),
        "seconds_over_cap": int(hist[a.cap + 1:].sum()),
    }
    if a.check_quantiles:
        allv = np.concatenate(kept)
        for q, key in [(0.5, "busiest_p50"), (0.99, "busiest_p99"), (0.999, "busiest_p999")]:
            ref = int(np.quantile(allv, q, method="inverted_cdf"))
            if ref != out[key]:
                print(f"quantile mismatch at q={q}: histogram {out[key]}, numpy {ref}",
                      file=sys.stderr)
                return 1
        out["quantiles_checked"] = True
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
