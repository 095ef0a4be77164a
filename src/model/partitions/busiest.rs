//! The busiest partition, exact: expectations over the placements of S
//! shards on P partitions by binomial splitting of the partitions.

/// E[prod over the `p` partitions of f(shards on it)] when `f.len() - 1`
/// shards land uniformly at random, for weights 0 <= f(n) <= 1.
/// With f(n) = [n <= k] this is P(max <= k); with f(n) = P(a partition with
/// n shards stays under the cap) it is P(no partition over the cap) under
/// independent partition loads.
///
/// R_m(n) = E[prod over m bins | n balls in them]. Splitting m = a + b bins,
/// the balls in the first group are Binomial(n, a/m), so
/// R_{a+b}(n) = sum_i Bin(n, a/(a+b))(i) R_a(i) R_b(n-i); build R_p by
/// doubling and adding one bin (binary expansion of p).
pub fn bins_expectation(p: u64, f: &[f64]) -> f64 {
    let s = f.len() - 1;
    let ln_fact = ln_factorials(s);
    let mut cur = f.to_vec();
    let mut m: u64 = 1;
    for bit in (0..(63 - p.leading_zeros())).rev() {
        cur = combine(&cur, m, &cur, m, &ln_fact);
        m *= 2;
        if (p >> bit) & 1 == 1 {
            cur = combine(&cur, m, f, 1, &ln_fact);
            m += 1;
        }
    }
    debug_assert_eq!(m, p);
    cur[s]
}

fn ln_factorials(n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n + 1];
    for i in 1..=n {
        v[i] = v[i - 1] + (i as f64).ln();
    }
    v
}

/// Binomial-weighted convolution of two groups of `ma` and `mb` bins.
/// Weights are often exactly 0 past some count (a partition that many
/// shards put over the cap for certain): terms past either group's last
/// nonzero weight are 0 and are not summed, which leaves every sum the
/// same bits and skips most of the work while the groups are small.
fn combine(a: &[f64], ma: u64, b: &[f64], mb: u64, ln_fact: &[f64]) -> Vec<f64> {
    let s = a.len() - 1;
    let total = (ma + mb) as f64;
    let (w, q) = (ma as f64 / total, mb as f64 / total);
    let (ln_w, ln_q) = (w.ln(), q.ln());
    let up = w / q;
    let last = |v: &[f64]| v.iter().rposition(|&x| x != 0.0);
    let mut out = vec![0.0; s + 1];
    let (Some(top_a), Some(top_b)) = (last(a), last(b)) else {
        return out;
    };
    for (n, slot) in out.iter_mut().enumerate().take(top_a + top_b + 1) {
        // Walk out from the mode; pmf terms below 1e-20 cannot move a
        // probability at the precision we print.
        let mode = (((n + 1) as f64 * w).floor() as usize).min(n);
        let pm = (ln_fact[n] - ln_fact[mode] - ln_fact[n - mode]
            + mode as f64 * ln_w
            + (n - mode) as f64 * ln_q)
            .exp();
        let mut sum = pm * a[mode] * b[n - mode];
        let mut pmf = pm;
        // Up: a's index grows; past `top_a` every term is 0.
        for i in mode..n.min(top_a) {
            pmf *= (n - i) as f64 / (i + 1) as f64 * up;
            if pmf < 1e-20 {
                break;
            }
            sum += pmf * a[i + 1] * b[n - i - 1];
        }
        pmf = pm;
        // Down: b's index grows; past `top_b` every term is 0.
        for i in (1..=mode).rev() {
            if n - i + 1 > top_b {
                break;
            }
            pmf *= i as f64 / (n - i + 1) as f64 / up;
            if pmf < 1e-20 {
                break;
            }
            sum += pmf * a[i - 1] * b[n - i + 1];
        }
        *slot = sum;
    }
    out
}

/// E[max shards on one partition], exact: sum over k of P(max > k).
pub fn busiest_mean_exact(s: u64, p: u64) -> f64 {
    let k0 = s.div_ceil(p); // max >= ceil(S/P) always
    let mut mean = k0 as f64;
    for k in k0..s {
        let f: Vec<f64> = (0..=s).map(|n| if n <= k { 1.0 } else { 0.0 }).collect();
        let over = (1.0 - bins_expectation(p, &f)).max(0.0);
        mean += over;
        if over < 1e-15 {
            break;
        }
    }
    mean
}
