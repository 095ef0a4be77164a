#!/usr/bin/env python3
"""Independent check of src/exact against three other computations.

1. Exact rationals: P(max <= c) = L! [x^L] (sum_{k<=c} x^k/k!)^S / S^L
   (exponential generating function of the multinomial counts), with
   Python integers, for small L.
2. Levin's formula with P(W = L) by direct convolution (numpy, no grid sum,
   no tilt) and mpmath for the factors, for the default case 14000/20.
3. mpmath at 50 digits: far tails S * P(Binomial(L, 1/S) > c) (exact when
   the second Bonferroni term is below 1e-20 of it) and the Poisson model
   F(c)^S with the regularised incomplete gamma.

Usage: cargo build --example exact_values && python3 scripts/check_exact.py
[BINARY] (needs mpmath and numpy; BINARY defaults to the example in the
repository's target folder, or $CARGO_TARGET_DIR's). Prints one line per point with the relative
difference of P(max <= c) and P(max > c).
"""
import math
import subprocess
import sys
from fractions import Fraction

import mpmath as mp
import numpy as np

mp.mp.dps = 50
def default_binary():
    """The example `cargo build --example exact_values` writes."""
    import os
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(repo, "target"))
    return os.path.join(target, "debug", "examples", "exact_values")


BIN = sys.argv[1] if len(sys.argv) > 1 else default_binary()


def rust(points):
    inp = "".join(f"{m} {l} {s} {c}\n" for m, l, s, c in points)
    out = subprocess.run([BIN], input=inp, capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.splitlines():
        m, l, s, c, ln_cdf, ln_sf, _mean = line.split()
        res[(m, int(float(l)) if m == "fixed" else float(l), int(s), int(c))] = (float(ln_cdf), float(ln_sf))
    return res


def egf_exact(L, S, c):
    """P(max <= c) as a Fraction."""
    fc = math.factorial(c)
    q = [fc // math.factorial(k) for k in range(c + 1)]
    poly = [1]
    for _ in range(S):
        new = [0] * min(len(poly) + c, L + 1)
        for i, a in enumerate(poly):
            if a:
                for k in range(min(c, L - i) + 1):
                    new[i + k] += a * q[k]
        poly = new
    coef = poly[L] if L < len(poly) else 0
    return Fraction(math.factorial(L) * coef, fc**S * S**L)


def levin_conv(L, S, c):
    """ln P(max <= c) by Levin with s = L and a direct convolution."""
    lam = mp.mpf(L) / S
    pmf_mp = [mp.exp(k * mp.log(lam) - lam - mp.loggamma(k + 1)) for k in range(c + 1)]
    F = mp.fsum(pmf_mp)
    y = np.array([float(p / F) for p in pmf_mp])
    w = np.array([1.0])
    for _ in range(S):
        w = np.convolve(w, y)[: L + 1]
    pw = w[L]
    # ln L! - L ln L + L via mpmath
    lead = mp.loggamma(L + 1) - L * mp.log(L) + L
    return float(lead + S * mp.log(F) + mp.log(mp.mpf(pw)))


def ln_binom_sf(L, p, c):
    return mp.log(mp.betainc(c + 1, L - c, 0, p, regularized=True))


def rel(a, b):
    return abs(a - b) / abs(b) if b != 0 else abs(a)


def main():
    rows = []  # (label, point, ln_cdf_ref, ln_sf_ref)
    for L, S, cs in [(6, 3, range(2, 7)), (300, 7, range(43, 120, 8)), (1000, 10, range(100, 260, 20))]:
        for c in cs:
            p = egf_exact(L, S, c)
            ln_cdf = float(mp.log(mp.mpf(p.numerator) / p.denominator)) if p > 0 else -math.inf
            q = 1 - p
            ln_sf = float(mp.log(mp.mpf(q.numerator) / q.denominator)) if q > 0 else -math.inf
            rows.append(("exact rational", ("fixed", L, S, c), ln_cdf, ln_sf))
    for c in [720, 740, 750, 760, 780, 800]:
        ln_cdf = levin_conv(14000, 20, c)
        rows.append(("levin+convolution", ("fixed", 14000, 20, c), ln_cdf, float(mp.log(-mp.expm1(ln_cdf)))))
    for L, S, cs in [(14000, 20, [1000, 1200, 2000]), (200000, 286, [900, 1000])]:
        for c in cs:
            ln_sf = mp.log(S) + ln_binom_sf(L, mp.mpf(1) / S, c)
            rows.append(("mpmath S*p1", ("fixed", L, S, c), float(mp.log(-mp.expm1(ln_sf))), float(ln_sf)))
    for rate, S, cs in [(14000.0, 20, [700, 750, 800, 1000, 1500])]:
        lam = mp.mpf(rate) / S
        for c in cs:
            # P(X <= c) = Gamma(c+1, lam)/c!, P(X > c) = gamma(c+1, lam)/c!.
            F = mp.gammainc(c + 1, lam, mp.inf, regularized=True)
            Q = mp.gammainc(c + 1, 0, lam, regularized=True)
            ln_cdf = S * mp.log(F)
            ln_sf = mp.log(-mp.expm1(S * mp.log1p(-Q)))
            rows.append(("mpmath F^S", ("poisson", rate, S, c), float(ln_cdf), float(ln_sf)))
    got = rust([r[1] for r in rows])
    worst_cdf = worst_sf = 0.0
    print(f"{'reference':18} {'point':28} {'P(max<=c)':>24} {'rel diff':>9} {'P(max>c)':>24} {'rel diff':>9}")
    for label, pt, ln_cdf, ln_sf in rows:
        g_cdf, g_sf = got[pt]
        d_cdf = 0.0 if ln_cdf == g_cdf else abs(math.expm1(g_cdf - ln_cdf))
        d_sf = 0.0 if ln_sf == g_sf else abs(math.expm1(g_sf - ln_sf))
        worst_cdf, worst_sf = max(worst_cdf, d_cdf), max(worst_sf, d_sf)
        print(f"{label:18} {str(pt):28} {mp.nstr(mp.exp(ln_cdf), 17):>24} {d_cdf:9.1e} {mp.nstr(mp.exp(ln_sf), 17):>24} {d_sf:9.1e}")
    print(f"worst relative difference: P(max<=c) {worst_cdf:.1e}, P(max>c) {worst_sf:.1e}")


if __name__ == "__main__":
    main()
