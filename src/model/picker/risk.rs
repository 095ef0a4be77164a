//! A picker's chance that the busiest shard goes over the cap: exact where
//! the law is (the random pickers, sticky), exactly 0 where round-robin's
//! bound is under the cap for every count the traffic can produce, and an
//! upper bound otherwise (round-robin past its bound: [`super::bound`];
//! two-choice: [`super::two_choice_bound`], or random picks' exact law
//! where that is lower or its own cannot be computed). The per-key risk
//! of the recommendation, the verdict, `risk`, `sweep` and `size` read it
//! here.

use serde::Serialize;

use super::bound::busiest_over;
use super::{round_robin, Picker, Writers};
use crate::error::{ParamError, ParamResult};
use crate::model::exact::{ln_p_any_over, sticky_ln_sf, ExactProblem, OverCap};
use crate::model::law::{Split, TrafficModel};

/// How a picker's chance of going over is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum KeyMethod {
    /// From the busiest shard's exact law.
    Exact,
    /// Exactly 0: round-robin's busiest can never pass the cap.
    NeverOver,
    /// An upper bound: a union over the shards of one shard's law summed
    /// over the servers (round-robin's exact law under Poisson servers,
    /// doubled for a fixed count; two-choice's own law from its profile
    /// chain, given the second's count), or the traffic's own tail.
    UpperBound,
    /// Random picks' exact law, for two-choice where its own bound is
    /// higher or cannot be computed (gamma-poisson and observed traffic,
    /// counts past the walk's reach): its writers balance at least as well
    /// (checked on every placement of small seconds and by simulation, not
    /// proven), so it never takes more shards than random.
    RandomLaw,
}

impl KeyMethod {
    /// Whether the figure is the picker's own exact chance (or its exact 0).
    pub fn is_exact(self) -> bool {
        matches!(self, KeyMethod::Exact | KeyMethod::NeverOver)
    }
}

/// The chance the busiest shard goes over the cap in one second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyOverCap {
    /// `ln P(busiest > cap)` in one second (`-inf` when exactly 0).
    pub ln_p_per_second: f64,
    /// How it is known.
    pub method: KeyMethod,
    /// Round-robin: the most one shard can take in the traffic's busiest
    /// second, where the traffic has one (fixed, empirical).
    pub busiest_bound: Option<u64>,
    /// Whether seconds are independent (every picker's but round-robin's,
    /// whose cursors carry over).
    pub independent_seconds: bool,
}

impl KeyOverCap {
    /// `ln P(any second over the cap during `seconds` seconds)`: with
    /// independent seconds `1 - (1 - p)^T` (a bound `p` on each second
    /// bounds it too); round-robin's are not independent, but its bound and
    /// its 0 hold second by second, so the union over seconds bounds them.
    pub fn ln_p_any(&self, seconds: f64) -> f64 {
        match (self.method, self.independent_seconds) {
            (KeyMethod::UpperBound, false) => (self.ln_p_per_second + seconds.ln()).min(0.0),
            _ => ln_p_any_over(self.ln_p_per_second, seconds),
        }
    }
}

/// The most likes a second can have under `traffic` at `rate`, where the
/// law caps it (a fixed count, the observed seconds).
fn most_likes(traffic: TrafficModel, rate: f64) -> Option<u64> {
    match traffic.split(rate) {
        Split::Count(n) => Some(n),
        Split::Counts(law) => law.most(),
        Split::Poisson(_) | Split::GammaRate { .. } => None,
    }
}

/// The chance the busiest of `shards` shards goes over `cap` in a second
/// of `rate` likes/s written by `writers`. Errors name `rate`, `shards`
/// and `picker` (where there is no figure).
pub fn key_over_cap(
    rate: f64,
    shards: u64,
    cap: f64,
    traffic: TrafficModel,
    writers: Writers,
) -> ParamResult<KeyOverCap> {
    let c = cap.floor().min(u64::MAX as f64) as u64;
    let exact = |ln_p| KeyOverCap {
        ln_p_per_second: ln_p,
        method: KeyMethod::Exact,
        busiest_bound: None,
        independent_seconds: true,
    };
    match writers.picker {
        Picker::Random | Picker::UserHash => Ok(exact(
            OverCap::compute(rate, shards, cap, 1.0, traffic)?.ln_p_per_second,
        )),
        Picker::Sticky => match sticky_ln_sf(rate, shards, writers.servers, traffic, c)? {
            Some(ln_p) => Ok(exact(ln_p)),
            None => Err(no_figure(writers.picker, traffic)),
        },
        Picker::RoundRobin => {
            let rate = traffic.rate("rate", rate)?;
            let bound = most_likes(traffic, rate)
                .map(|n| round_robin::busiest_bound(n, shards, writers.servers));
            if bound.is_some_and(|b| b <= c) {
                return Ok(KeyOverCap {
                    ln_p_per_second: f64::NEG_INFINITY,
                    method: KeyMethod::NeverOver,
                    busiest_bound: bound,
                    independent_seconds: false,
                });
            }
            // The union bound over Poisson servers where it applies (Poisson
            // and fixed traffic), and for every law the chance of a second
            // whose likes could lift round-robin's busiest over the cap:
            // the smaller of the two, both upper bounds.
            let laws = move |most: u64| Some(round_robin_laws(shards, most));
            let total = round_robin_total_bound(rate, shards, c, traffic, writers.servers);
            let mut over = match bounded(rate, shards, c, traffic, writers, &laws) {
                Ok(o) if o.ln_p_per_second <= total => o,
                _ => KeyOverCap {
                    ln_p_per_second: total,
                    method: KeyMethod::UpperBound,
                    busiest_bound: None,
                    independent_seconds: false,
                },
            };
            over.busiest_bound = bound;
            Ok(over)
        }
        Picker::TwoChoice => {
            let random = OverCap::compute(rate, shards, cap, 1.0, traffic)?.ln_p_per_second;
            // Under the least floor of its own bound ([`OWN_FLOOR`]),
            // random's law is the lower.
            let own = match random < OWN_FLOOR.ln() {
                true => None,
                false => two_choice_own(rate, shards, c, traffic, writers),
            };
            let (ln_p_per_second, method) = match own {
                Some(own) if own < random => (own, KeyMethod::UpperBound),
                _ => (random, KeyMethod::RandomLaw),
            };
            Ok(KeyOverCap {
                ln_p_per_second,
                method,
                busiest_bound: None,
                independent_seconds: true,
            })
        }
    }
}

/// A chance a second under which two-choice's own bound is not sought:
/// the mass its law loses puts a floor of `K S` times that mass under it
/// (about 1e-12 of a second's mass: 4e-9 at 40 servers and 20 shards, 1e-11
/// at 2 servers and 5), so under 1e-13 random's law is the lower.
const OWN_FLOOR: f64 = 1e-13;

/// Two-choice's own bound ([`super::two_choice_bound`]), for fixed and
/// Poisson traffic, where its law can be walked.
fn two_choice_own(
    rate: f64,
    shards: u64,
    c: u64,
    traffic: TrafficModel,
    writers: Writers,
) -> Option<f64> {
    use super::two_choice_bound::{ln_busiest_over, Second};
    let second = match traffic.split(rate) {
        Split::Count(n) => Second::Count(n),
        Split::Poisson(mean) => Second::Poisson(mean),
        Split::GammaRate { .. } | Split::Counts(_) => return None,
    };
    ln_busiest_over(second, writers.servers, shards, c)
}

/// Round-robin's bound under any traffic law: a second of `n` likes puts
/// at most `busiest_bound(n)` = floor((n + min(K, n)(S - 1)) / S) on any
/// shard, a bound that grows with `n`, so the busiest goes over the cap
/// only in a second of at least `t` likes, `t` the fewest whose bound is
/// over it: `P(busiest > c) <= P(N >= t)`, the law's own tail (a negative
/// binomial's under gamma-poisson traffic, the observed seconds' under
/// empirical traffic). Looser than the union bound over Poisson servers
/// where that applies; the answer where it does not (bursty traffic).
fn round_robin_total_bound(
    rate: f64,
    shards: u64,
    c: u64,
    traffic: TrafficModel,
    servers: u64,
) -> f64 {
    let over = |n: u64| round_robin::busiest_bound(n, shards, servers) > c;
    // The bound is at least n / S: over at S (c + 1) likes.
    let (mut lo, mut hi) = (0u64, shards.saturating_mul(c + 1));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match over(mid) {
            true => hi = mid,
            false => lo = mid + 1,
        }
    }
    match lo {
        0 => 0.0,
        t => traffic
            .law()
            .ln_share_sf(rate, crate::model::law::Share::of(1, 1), t - 1)
            .min(0.0),
    }
}

/// Round-robin's per-server law of one shard's likes: `floor(m/S)`, plus
/// one with chance `(m mod S)/S` (the cursor is uniform).
fn round_robin_laws(shards: u64, most: u64) -> Vec<super::bound::Law> {
    (0..=most)
        .map(|m| {
            let (q, r) = (m / shards, m % shards);
            let up = r as f64 / shards as f64;
            (q, vec![1.0 - up, up])
        })
        .collect()
}

/// The union bound of [`super::bound`], for Poisson and fixed traffic.
fn bounded(
    rate: f64,
    shards: u64,
    c: u64,
    traffic: TrafficModel,
    writers: Writers,
    laws: &super::bound::PerServer,
) -> ParamResult<KeyOverCap> {
    let k = writers.servers;
    let p = match traffic.split(rate) {
        Split::Poisson(rate) => busiest_over(rate / k as f64, k, shards, c, laws),
        // A fixed count: at most twice the Poisson chance at its mean.
        Split::Count(n) => busiest_over(n as f64 / k as f64, k, shards, c, laws).map(|p| 2.0 * p),
        Split::GammaRate { .. } | Split::Counts(_) => None,
    };
    let p = p.ok_or_else(|| no_figure(writers.picker, traffic))?;
    Ok(KeyOverCap {
        ln_p_per_second: p.min(1.0).ln(),
        method: KeyMethod::UpperBound,
        busiest_bound: None,
        independent_seconds: false,
    })
}

fn no_figure(picker: Picker, traffic: TrafficModel) -> ParamError {
    let problem = ExactProblem::NoPickerFigure {
        picker: picker.name(),
        traffic: traffic.law().kind().name(),
    };
    ParamError::new("picker", problem.into())
}

/// `ln P(any second over the cap during the run)` and how it is known.
pub fn ln_p_any_over_cap(
    rate: f64,
    shards: u64,
    cap: f64,
    seconds: f64,
    traffic: TrafficModel,
    writers: Writers,
) -> ParamResult<(f64, KeyMethod)> {
    let over = key_over_cap(rate, shards, cap, traffic, writers)?;
    Ok((over.ln_p_any(seconds), over.method))
}

/// Two-choice meets a risk wherever random's law does (its figure is never
/// above it): random's `ln P(any second over)` where it is within `risk`,
/// so the searches seek the own bound (a walk of a second) only where
/// random's law does not meet it; `None` otherwise, and for other pickers.
fn random_meets(
    rate: f64,
    shards: u64,
    cap: f64,
    seconds: f64,
    traffic: TrafficModel,
    writers: Writers,
    risk: f64,
) -> ParamResult<Option<f64>> {
    if writers.picker != Picker::TwoChoice {
        return Ok(None);
    }
    let random = OverCap::compute(rate, shards, cap, 1.0, traffic)?;
    let ln_any = ln_p_any_over(random.ln_p_per_second, seconds);
    Ok((ln_any <= risk.ln()).then_some(ln_any))
}

/// Whether the chance of any second over the cap during the run is within
/// `risk` (the capacity search's test).
pub fn meets_risk(
    rate: f64,
    shards: u64,
    cap: f64,
    seconds: f64,
    traffic: TrafficModel,
    writers: Writers,
    risk: f64,
) -> ParamResult<bool> {
    if random_meets(rate, shards, cap, seconds, traffic, writers, risk)?.is_some() {
        return Ok(true);
    }
    Ok(ln_p_any_over_cap(rate, shards, cap, seconds, traffic, writers)?.0 <= risk.ln())
}

/// The fewest shards (at most `max_shards`) whose chance of any second
/// over the cap during the run is within `risk` (exact, or by the bound).
pub fn shards_for_risk(
    rate: f64,
    cap: f64,
    seconds: f64,
    risk: f64,
    traffic: TrafficModel,
    writers: Writers,
    max_shards: u64,
) -> ParamResult<u64> {
    if writers.picker.splits_like_random() {
        return crate::model::exact::shards_for_risk(rate, cap, seconds, risk, traffic, max_shards);
    }
    let ln_any = |s| {
        if let Some(ln_any) = random_meets(rate, s, cap, seconds, traffic, writers, risk)? {
            return Ok(ln_any);
        }
        Ok(ln_p_any_over_cap(rate, s, cap, seconds, traffic, writers)?.0)
    };
    crate::model::exact::fewest_meeting((rate, cap, seconds), risk, max_shards, ln_any)
}

/// A seeded simulation of a picker other than the random ones over the
/// run (at most [`PICKER_RISK_SECONDS`]): what `risk` shows beside the
/// picker's own figure ([`crate::model::key_risk::KeyRisk`]), labelled a
/// Monte Carlo estimate with its interval.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PickerRun {
    /// How each app server picks a shard.
    pub picker: Picker,
    /// App servers writing.
    pub servers: u64,
    /// Seconds simulated.
    pub simulated_seconds: u64,
    /// The simulation's seed.
    pub seed: u64,
    /// The busiest shard's mean writes a second, simulated.
    pub busiest_mean: f64,
    /// Its 99.9th percentile, simulated.
    pub busiest_p999: u64,
    /// Its most over the simulated seconds.
    pub busiest_max: u64,
    /// Simulated seconds over the cap.
    pub seconds_over_cap: u64,
    /// The simulated share of seconds over the cap (Monte Carlo).
    pub simulated_p_over_cap_per_second: f64,
    /// 95% Wilson interval of P(a second over), simulated.
    pub simulated_p_over_cap_ci95: [f64; 2],
}

/// Most seconds `risk` simulates a picker for (two-choice, the slowest:
/// about 0.25 s of CPU at the reference load with its tables, and every
/// like drawn where they do not fit).
pub const PICKER_RISK_SECONDS: u64 = 20_000;

/// A seeded run of the picker over `seconds` at `rate` likes/s over
/// `shards` shards; the simulation from `seed`.
/// `tick` is told the simulated seconds of each chunk done (of
/// [`picker_risk_work`]'s).
pub fn picker_risk(
    (rate, shards, cap): (f64, u64, f64),
    seconds: f64,
    (traffic, writers): (TrafficModel, Writers),
    seed: u64,
    tick: &(dyn Fn(u64) + Sync),
) -> ParamResult<PickerRun> {
    let simulated = simulated_seconds(seconds);
    let rate = traffic.rate("rate", rate)?;
    let (sim, tally) = crate::model::simulation::run_writers(
        (rate, shards, cap),
        simulated,
        (traffic, writers),
        seed,
        tick,
    )?;
    let h = &tally.busiest;
    let over_n = h.count_above(sim.cap);
    let [lo, hi] = tally.over_cap_interval(sim.cap);
    Ok(PickerRun {
        picker: writers.picker,
        servers: writers.servers,
        simulated_seconds: simulated,
        seed,
        busiest_mean: h.mean().unwrap_or(0.0),
        busiest_p999: h.quantile(0.999).unwrap_or(0),
        busiest_max: h.max().unwrap_or(0),
        seconds_over_cap: over_n,
        simulated_p_over_cap_per_second: over_n as f64 / simulated as f64,
        simulated_p_over_cap_ci95: [lo, hi],
    })
}

/// The seconds [`picker_risk`] simulates for a run of `seconds`.
fn simulated_seconds(seconds: f64) -> u64 {
    (seconds.ceil() as u64).clamp(1, PICKER_RISK_SECONDS)
}

/// What [`picker_risk`] simulates: its seconds and their cost by the cost
/// model (a bar and, past a minute, the estimate first).
pub fn picker_risk_work(
    (rate, shards, cap): (f64, u64, f64),
    seconds: f64,
    (traffic, writers): (TrafficModel, Writers),
) -> ParamResult<(u64, crate::model::cost::Estimate)> {
    let simulated = simulated_seconds(seconds);
    let rate = traffic.rate("rate", rate)?;
    let cost =
        crate::model::simulation::writers_cost((rate, shards, cap), simulated, (traffic, writers))?;
    Ok((simulated, cost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use TrafficModel::{Fixed, Poisson};

    fn w(picker: Picker, servers: u64) -> Writers {
        Writers::new(picker, servers).unwrap()
    }

    #[test]
    fn random_pickers_are_today_s_exact_figure() {
        let today = OverCap::compute(14_000.0, 17, 1000.0, 1.0, Fixed).unwrap();
        for p in [Picker::Random, Picker::UserHash] {
            let o = key_over_cap(14_000.0, 17, 1000.0, Fixed, w(p, 40)).unwrap();
            assert_eq!(o.ln_p_per_second, today.ln_p_per_second);
            assert_eq!(o.method, KeyMethod::Exact);
        }
    }

    #[test]
    fn round_robin_never_goes_over_under_its_bound() {
        let o = key_over_cap(14_000.0, 15, 1000.0, Fixed, w(Picker::RoundRobin, 40)).unwrap();
        assert_eq!(o.method, KeyMethod::NeverOver);
        assert_eq!(o.ln_p_per_second, f64::NEG_INFINITY);
        assert_eq!(o.busiest_bound, Some(970));
        // Poisson traffic has no busiest second: a bound, tiny at 15.
        let o = key_over_cap(14_000.0, 15, 1000.0, Poisson, w(Picker::RoundRobin, 40)).unwrap();
        assert_eq!(o.method, KeyMethod::UpperBound);
        assert!(o.ln_p_per_second < (1e-9f64).ln(), "{}", o.ln_p_per_second);
        let n = shards_for_risk(
            14_000.0,
            1000.0,
            14_400.0,
            0.01,
            Fixed,
            w(Picker::RoundRobin, 40),
            1000,
        );
        assert_eq!(n.unwrap(), 15);
    }

    #[test]
    fn two_choice_has_its_own_bound_or_random_s_law() {
        // The case: 14,000 likes/s over 15 shards, cap 950, 40
        // servers. Its own bound is 0.0169 a second, over a like-by-like
        // simulation's 0.0166 +- 0.0004 (100,000 s, outside this repo)
        // and far under random's law (0.46). Within 6 % of the truth.
        let random = OverCap::compute(14_000.0, 15, 950.0, 1.0, Fixed).unwrap();
        let two = key_over_cap(14_000.0, 15, 950.0, Fixed, w(Picker::TwoChoice, 40)).unwrap();
        assert_eq!(two.method, KeyMethod::UpperBound);
        let p = two.ln_p_per_second.exp();
        assert!((0.0166..0.0175).contains(&p), "{p}");
        assert!(
            random.ln_p_per_second.exp() > 0.4,
            "{}",
            random.ln_p_per_second
        );
        // 50,000 likes/s over 40 servers: 1,250 likes a server's second
        // over some 60 shards, past the walk's reach: random's exact law,
        // said so, for fixed and Poisson traffic alike.
        for traffic in [Fixed, Poisson] {
            let random = OverCap::compute(50_000.0, 61, 1000.0, 1.0, traffic).unwrap();
            let two =
                key_over_cap(50_000.0, 61, 1000.0, traffic, w(Picker::TwoChoice, 40)).unwrap();
            assert_eq!(two.method, KeyMethod::RandomLaw);
            assert!(!two.method.is_exact());
            assert_eq!(two.ln_p_per_second, random.ln_p_per_second);
        }
        // Never more shards than random.
        let at = |p| shards_for_risk(14_000.0, 950.0, 14_400.0, 0.01, Fixed, w(p, 40), 1000);
        assert!(at(Picker::TwoChoice).unwrap() <= at(Picker::Random).unwrap());
    }
}
