#!/usr/bin/env python3
"""Taylor coefficients in eta of Temme's C_k(eta) for the uniform
asymptotic expansion of the regularized incomplete gamma functions
(src/model/exact/temme.rs).

    Q(a, x) = erfc(eta sqrt(a/2)) / 2 + R_a(eta),
    R_a(eta) = e^{-a eta^2/2} / sqrt(2 pi a) * sum_k C_k(eta) a^{-k},

with lambda = x / a, eta^2 / 2 = lambda - 1 - ln lambda, sign(eta) =
sign(lambda - 1) (N. M. Temme, "The asymptotic expansion of the incomplete
gamma functions", SIAM J. Math. Anal. 10, 1979; A. R. DiDonato and A. H.
Morris, ACM TOMS 12, 1986; A. Gil, J. Segura and N. M. Temme, "Numerical
Methods for Special Functions", SIAM 2007, section 8.3):

    C_0(eta) = 1 / (lambda - 1) - 1 / eta,
    C_k(eta) = C_{k-1}'(eta) / eta + (-1)^k gamma_k / (lambda - 1),

gamma_k the coefficients of Gamma*(a) = Gamma(a) / (sqrt(2 pi / a) (a/e)^a)
~ sum_k gamma_k a^{-k} (1, 1/12, 1/288, -139/51840, ...). Each C_k is
analytic at eta = 0: the poles of the two parts cancel, and this script
takes gamma_k from that cancellation (and checks it against the Stirling
coefficients computed independently from mpmath's gamma).

The series are exact rational-free power series in mpmath at 60 digits:
lambda - 1 = mu(eta) by reverting eta = mu sqrt(2 (mu - ln(1 + mu)) / mu^2).
Usage: python3 bench/temme_coefficients.py  (prints the Rust tables).
"""

import mpmath as mp

mp.mp.dps = 60
N = 70  # degree of the series of mu(eta); C_k keeps N - 2 k - 2 of them
K = 12  # C_0 .. C_{K-1}
ETA_MAX = mp.mpf("0.5")  # |eta| of the region the tables must cover
TOL = mp.mpf("1e-19")  # dropped coefficients: sum |c_n| ETA_MAX^n below


def mul(p, q, n):
    r = [mp.mpf(0)] * n
    for i, pi in enumerate(p[:n]):
        if pi:
            for j, qj in enumerate(q[: n - i]):
                r[i + j] += pi * qj
    return r


def inv(p, n):
    """1 / p for p[0] != 0."""
    r = [mp.mpf(0)] * n
    r[0] = 1 / p[0]
    for k in range(1, n):
        r[k] = -sum(p[j] * r[k - j] for j in range(1, min(k, len(p) - 1) + 1)) / p[0]
    return r


def sqrt_series(p, n):
    """sqrt(p) for p[0] = 1."""
    r = [mp.mpf(0)] * n
    r[0] = mp.mpf(1)
    for k in range(1, n):
        s = p[k] if k < len(p) else 0
        s -= sum(r[j] * r[k - j] for j in range(1, k))
        r[k] = s / 2
    return r


def mu_of_eta(n):
    """lambda - 1 as a power series in eta (reversion of eta(mu))."""
    # 2 (mu - ln(1 + mu)) / mu^2 = sum_k (-1)^k 2 mu^k / (k + 2)
    f = [mp.mpf(2) * (-1) ** k / (k + 2) for k in range(n)]
    h = sqrt_series(f, n)  # eta = mu h(mu)
    # Lagrange-free reversion by fixed point: mu = eta / h(mu).
    mu = [mp.mpf(0)] * n
    mu[1] = mp.mpf(1)
    for _ in range(n):
        # h(mu(eta)) as a series in eta
        hm = [mp.mpf(0)] * n
        power = [mp.mpf(1)] + [mp.mpf(0)] * (n - 1)
        for k in range(n):
            if k:
                power = mul(power, mu, n)
            for i in range(n):
                hm[i] += h[k] * power[i]
        new = [mp.mpf(0)] + inv(hm, n - 1)
        if all(abs(a - b) < mp.mpf(10) ** (-55) for a, b in zip(new, mu)):
            mu = new
            break
        mu = new
    return mu


def coefficients():
    mu = mu_of_eta(N)
    # 1/mu = (1/eta) * w(eta), w = eta / mu.
    w = inv(mu[1:], N - 1)
    assert abs(w[0] - 1) < mp.mpf(10) ** (-50)
    c = w[1:]  # C_0 = (w - 1) / eta
    cs, gammas = [c], [mp.mpf(1)]
    for k in range(1, K):
        # C_{k-1}'/eta = c_1 / eta + sum_{n>=2} n c_n eta^{n-2}
        d = [n * c[n] for n in range(1, len(c))]
        g = -d[0] / w[0] * (-1) ** k  # the pole cancels: (-1)^k g_k + d_0 = 0
        gammas.append(g)
        # (-1)^k g / mu = (-1)^k g w / eta: its regular part
        c = [d[n + 1] + (-1) ** k * g * w[n + 1] for n in range(len(d) - 2)]
        cs.append(c)
    return cs, gammas


def stirling_check(gammas):
    a = mp.mpf(10) ** 6
    gstar = mp.gamma(a) / (mp.sqrt(2 * mp.pi / a) * (a / mp.e) ** a)
    approx = sum(g / a**k for k, g in enumerate(gammas))
    assert abs(gstar - approx) < mp.mpf(10) ** (-50), (gstar, approx)
    assert abs(gammas[1] - mp.mpf(1) / 12) < 1e-50
    assert abs(gammas[3] + mp.mpf(139) / 51840) < 1e-50


def truncated(c):
    """Drop the high-degree coefficients whose sum at ETA_MAX is below TOL."""
    n = len(c)
    tail = mp.mpf(0)
    while n > 1 and tail + abs(c[n - 1]) * ETA_MAX ** (n - 1) < TOL:
        n -= 1
        tail += abs(c[n]) * ETA_MAX**n
    return c[:n]


def main():
    cs, gammas = coefficients()
    stirling_check(gammas)
    assert abs(cs[0][0] + mp.mpf(1) / 3) < 1e-50
    assert abs(cs[1][0] + mp.mpf(1) / 540) < 1e-50
    assert abs(cs[2][0] - mp.mpf(25) / 6048) < 1e-50
    bounds = []
    for k, c in enumerate(cs):
        t = truncated(c)
        bounds.append(sum(abs(x) * ETA_MAX**n for n, x in enumerate(c)))
        print(f"/// `C_{k}(eta)`: {len(t)} terms.")
        print(f"const C{k}: [f64; {len(t)}] = [")
        for x in t:
            # The nearest double, shortest form (float() rounds correctly).
            print(f"    {float(x)!r},")
        print("];")
    print(f"/// `sum_n |c_n| {mp.nstr(ETA_MAX, 2)}^n`, a bound on `|C_k(eta)|` in the region.")
    print(f"const C_BOUND: [f64; {K}] = [")
    for b in bounds:
        print(f"    {float(mp.mpf(mp.nstr(b, 3)) * mp.mpf('1.01'))!r},")
    print("];")


if __name__ == "__main__":
    main()
