//! The busiest partition, exact: expectations over the placements of S
//! shards on P partitions by binomial splitting of the partitions.

use std::sync::{Arc, Mutex};

/// E[prod over the `p` partitions of f(shards on it)] when `f.len() - 1`
/// shards land uniformly at random, for weights 0 <= f(n) <= 1.
/// With f(n) = [n <= k] this is P(max <= k); with f(n) = P(a partition with
/// n shards stays under the cap) it is P(no partition over the cap) under
/// independent partition loads.
///
/// R_m(n) = E[prod over m bins | n balls in them]. Splitting m = a + b bins,
/// the balls in the first group are Binomial(n, a/(a+b)), so
/// R_{a+b}(n) = sum_i Bin(n, a/(a+b))(i) R_a(i) R_b(n-i); build R_p by
/// doubling and adding one bin (binary expansion of p).
///
/// Only R_p(S) is wanted, and each step's sums read the step before only
/// near its binomial's mode: the counts each step is needed at are found
/// from the last step back (`touched`), and each step sums only those
/// (a window of a few hundred counts where there were S + 1). The same
/// sums in the same order as over every count: the same bits.
pub fn bins_expectation(p: u64, f: &[f64]) -> f64 {
    bins_expectation_by(p, f.len() - 1, |n| f[n])
}

/// [`bins_expectation`] for `s` shards with the weights given as a
/// function, called only at the counts the sums read (a window of a few
/// hundred where there are `s + 1`; the others are never read and stand
/// at 0): a weight that costs a Poisson tail each is worth not computing
/// 16,000 times. The same sums: the same bits.
pub fn bins_expectation_by(p: u64, s: usize, weight: impl Fn(usize) -> f64) -> f64 {
    let plan = Plan::shared(p, s);
    let mut f = vec![0.0; s + 1];
    let (lo, hi) = plan.reads;
    for (n, slot) in f.iter_mut().enumerate().take(hi + 1).skip(lo) {
        *slot = weight(n);
    }
    let mut cur = f.clone();
    for (&(ma, mb, b_is_f), &range) in plan.steps.iter().zip(&plan.needed) {
        let b = if b_is_f { &f } else { &cur };
        cur = combine(&cur, ma, b, mb, &plan.ln_fact, range);
    }
    cur[s]
}

/// The doubling's steps for `p` partitions and `s` shards, and the windows
/// they read: a function of `(p, s)` alone, which a search's bisection
/// over the rate asks for at one count a dozen times or more (finding the
/// windows cost as much as the sums).
struct Plan {
    ln_fact: Vec<f64>,
    /// `(m_a, m_b, b is the weights)`: doubling, then one bin more where
    /// p's bit is set.
    steps: Vec<(u64, u64, bool)>,
    /// The counts each step's output is read at.
    needed: Vec<(usize, usize)>,
    /// Where the weights themselves are read.
    reads: (usize, usize),
}

/// A plan and the `(p, s)` it is for.
type Keyed = ((u64, usize), Arc<Plan>);

/// The last few plans built (the process's searches ask for one or two
/// counts at a time).
static PLANS: Mutex<Vec<Keyed>> = Mutex::new(Vec::new());

impl Plan {
    /// The plan for `(p, s)`, built once while it is among the last few.
    fn shared(p: u64, s: usize) -> Arc<Plan> {
        const KEEP: usize = 4;
        let mut plans = PLANS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, plan)) = plans.iter().find(|(key, _)| *key == (p, s)) {
            return plan.clone();
        }
        let plan = Arc::new(Plan::new(p, s));
        if plans.len() == KEEP {
            plans.remove(0);
        }
        plans.push(((p, s), plan.clone()));
        plan
    }

    fn new(p: u64, s: usize) -> Plan {
        let ln_fact = ln_factorials(s);
        let mut steps = Vec::new();
        let mut m: u64 = 1;
        for bit in (0..(63 - p.leading_zeros())).rev() {
            steps.push((m, m, false));
            m *= 2;
            if (p >> bit) & 1 == 1 {
                steps.push((m, 1, true));
                m += 1;
            }
        }
        debug_assert_eq!(m, p);
        // From the last step back: the counts each step's output is read
        // at, and where the weights are read (the first step's two groups,
        // and the added bin of each step that adds one).
        let mut needed = vec![(0, 0); steps.len()];
        let mut range = (s, s);
        // With no steps (one partition) the weight at s is the answer.
        let mut reads = if steps.is_empty() {
            (s, s)
        } else {
            (usize::MAX, 0)
        };
        let widen = |r: (usize, usize), by: (usize, usize)| (r.0.min(by.0), r.1.max(by.1));
        for (i, (slot, &(ma, mb, b_is_f))) in needed.iter_mut().zip(&steps).enumerate().rev() {
            *slot = range;
            let (a, b) = touched(range, ma, mb, &ln_fact);
            if b_is_f || i == 0 {
                reads = widen(reads, b);
            }
            if i == 0 {
                reads = widen(reads, a);
            }
            range = match b_is_f {
                true => a,
                false => widen(a, b),
            };
        }
        Plan {
            ln_fact,
            steps,
            needed,
            reads,
        }
    }
}

/// The ratio and the first pmf term of [`combine`]'s sum at `n` balls:
/// the split's mode, `Bin(n, w)(mode)` and `w / q`.
fn mode_term(n: usize, ma: u64, mb: u64, ln_fact: &[f64]) -> (usize, f64, f64) {
    let total = (ma + mb) as f64;
    let (w, q) = (ma as f64 / total, mb as f64 / total);
    let mode = (((n + 1) as f64 * w).floor() as usize).min(n);
    let pm = (ln_fact[n] - ln_fact[mode] - ln_fact[n - mode]
        + mode as f64 * w.ln()
        + (n - mode) as f64 * q.ln())
    .exp();
    (mode, pm, w / q)
}

/// The counts of the two groups that [`combine`]'s sums at every count in
/// `lo..=hi` may read, as ranges `(a's, b's)`: its walks from the mode
/// ([`split_terms`]), taken to where the pmf cut stops them (not to where
/// a group's last nonzero weight would, which can only stop them sooner).
fn touched(
    (lo, hi): (usize, usize),
    ma: u64,
    mb: u64,
    ln_fact: &[f64],
) -> ((usize, usize), (usize, usize)) {
    let (mut a_lo, mut a_hi, mut b_lo, mut b_hi) = (usize::MAX, 0, usize::MAX, 0);
    for n in lo..=hi {
        let (mut first, mut last) = (n, 0);
        split_terms(n, mode_term(n, ma, mb, ln_fact), (n, n), |i, _| {
            (first, last) = (first.min(i), last.max(i));
        });
        (a_lo, a_hi) = (a_lo.min(first), a_hi.max(last));
        (b_lo, b_hi) = (b_lo.min(n - last), b_hi.max(n - first));
    }
    ((a_lo, a_hi), (b_lo, b_hi))
}

/// Where [`split_terms`] stops: a pmf term below this.
pub(super) const PMF_CUT: f64 = 1e-20;

/// The binomial split of `n` balls between two groups, term by term out
/// from its mode (`mode_term`'s `(mode, pmf there, w / q)`): `visit(i,
/// pmf)` for the first group's count `i`, the mode first, then up while `i
/// <= top_a`, then down while `n - i <= top_b`, each way until the pmf
/// falls below `PMF_CUT` (such terms cannot move a probability at the
/// precision we print). [`combine`] sums these terms and [`touched`]
/// finds where they reach: one walk, so the two cannot drift apart (the
/// sizing screen, `risk/screen.rs`, sums its union bound's bracket on it
/// too).
pub(super) fn split_terms(
    n: usize,
    (mode, pm, up): (usize, f64, f64),
    (top_a, top_b): (usize, usize),
    mut visit: impl FnMut(usize, f64),
) {
    visit(mode, pm);
    let mut pmf = pm;
    for i in mode..n.min(top_a) {
        pmf *= (n - i) as f64 / (i + 1) as f64 * up;
        if pmf < PMF_CUT {
            break;
        }
        visit(i + 1, pmf);
    }
    pmf = pm;
    for i in (1..=mode).rev() {
        if n - i + 1 > top_b {
            break;
        }
        pmf *= i as f64 / (n - i + 1) as f64 / up;
        if pmf < PMF_CUT {
            break;
        }
        visit(i - 1, pmf);
    }
}

pub(super) fn ln_factorials(n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n + 1];
    for i in 1..=n {
        v[i] = v[i - 1] + (i as f64).ln();
    }
    v
}

/// Binomial-weighted convolution of two groups of `ma` and `mb` bins, at
/// the counts `lo..=hi` (0 elsewhere: never read).
/// Weights are often exactly 0 past some count (a partition that many
/// shards put over the cap for certain): terms past either group's last
/// nonzero weight are 0 and are not summed, which leaves every sum the
/// same bits and skips most of the work while the groups are small.
pub(super) fn combine(
    a: &[f64],
    ma: u64,
    b: &[f64],
    mb: u64,
    ln_fact: &[f64],
    (lo, hi): (usize, usize),
) -> Vec<f64> {
    let s = a.len() - 1;
    let last = |v: &[f64]| v.iter().rposition(|&x| x != 0.0);
    let mut out = vec![0.0; s + 1];
    let (Some(top_a), Some(top_b)) = (last(a), last(b)) else {
        return out;
    };
    for n in lo..=hi.min(top_a + top_b) {
        // Past `top_a` (up) or `top_b` (down) every term is 0.
        let mut sum = 0.0;
        split_terms(
            n,
            mode_term(n, ma, mb, ln_fact),
            (top_a, top_b),
            |i, pmf| {
                sum += pmf * a[i] * b[n - i];
            },
        );
        out[n] = sum;
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
