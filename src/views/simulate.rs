//! `simulate`'s view of a flat run: Monte Carlo figures beside the exact
//! ones, the over-cap chances with their intervals, the read cost and a
//! one-line histogram.

use serde::Serialize;
use serde_json::{json, Value};

use super::reads::read_cost_section;
use crate::model::exact::{BusiestShard, Risk};
use crate::model::key_risk::KeyRisk;
use crate::model::read_cost::ReadCost;
use crate::model::recommendation::Recommendation;
use crate::model::simulation::{SimPlan, SimTally};
use crate::model::stats::{self, Histogram};
use crate::model::verdict::Verdict;
use crate::output::{fmt, row, Report, Section};

/// The one row of `simulate` (CSV columns and JSON fields).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SimulateRow {
    /// The scenario the inputs started from: a bundled name or a file's path.
    pub scenario: String,
    /// Mean likes per second simulated, likes/s.
    pub rate: f64,
    /// Mean writes per second simulated, writes/s: the likes plus their
    /// unlikes (the likes themselves without unlikes).
    pub write_rate: f64,
    /// write_rate / shards: each shard's mean, writes/s.
    pub mean_per_shard: f64,
    /// Shards the likes spread over.
    pub shards: u64,
    /// Writes per second one shard key accepts, writes/s per key.
    pub cap: u64,
    /// Seconds simulated.
    pub seconds: u64,
    /// How the likes in a second are counted: `fixed`, `poisson`,
    /// `gamma-poisson` or `empirical`.
    pub traffic: &'static str,
    /// How each app server picks a shard.
    pub picker: crate::model::picker::Picker,
    /// App servers writing.
    pub servers: u64,
    /// The random generator's seed: the same seed gives the same run.
    pub seed: u64,
    /// Likes over the whole run.
    pub likes_total: u128,
    /// The busiest shard's writes in the run's busiest second, writes/s.
    pub busiest_max: u64,
    /// The fewest writes any shard got in any second, writes/s.
    pub quietest_min: u64,
    /// The busiest shard's writes in a second, averaged over the seconds,
    /// writes/s.
    pub busiest_mean: f64,
    /// The median over the seconds of the busiest shard's writes, writes/s.
    pub busiest_p50: u64,
    /// The 99% quantile over the seconds of the busiest shard's writes,
    /// writes/s.
    pub busiest_p99: u64,
    /// The 99.9% quantile over the seconds of the busiest shard's writes,
    /// writes/s.
    pub busiest_p999: u64,
    /// Seconds in which the busiest shard got more writes than the cap.
    pub seconds_over_cap: u64,
    /// Monte Carlo estimate: seconds over the cap / seconds.
    pub simulated_p_over_cap_per_second: f64,
    /// 95% Wilson interval of the per-second chance.
    pub simulated_p_over_cap_ci95: [f64; 2],
    /// 1 - (1 - p)^seconds: the chance a run this long has a second over the cap.
    pub simulated_p_any_over_cap: f64,
    /// 95% interval of `p_any_over_cap`: the per-second interval's ends
    /// carried over the run, [low, high], probabilities 0..1.
    pub simulated_p_any_over_cap_ci95: [f64; 2],
    /// `multinomial` or `exact-table`.
    pub sampler: &'static str,
    /// The same figures from the exact distribution (null when it is too
    /// costly to build for this rate and shard count; `shardplan risk` has them).
    pub exact_busiest_mean: Option<f64>,
    /// The exact median of the busiest shard's writes in a second, writes/s.
    pub exact_busiest_p50: Option<u64>,
    /// The exact 99% quantile of the busiest shard's writes in a second,
    /// writes/s.
    pub exact_busiest_p99: Option<u64>,
    /// The exact 99.9% quantile of the busiest shard's writes in a second,
    /// writes/s.
    pub exact_busiest_p999: Option<u64>,
    /// The busiest shard over a run this long: median, 1% and 99% quantiles.
    pub exact_busiest_over_run_median: Option<u64>,
    /// The busiest second of a run this long: its 1% quantile, writes/s.
    pub exact_busiest_over_run_q01: Option<u64>,
    /// The busiest second of a run this long: its 99% quantile, writes/s.
    pub exact_busiest_over_run_q99: Option<u64>,
    /// The exact chance the busiest shard goes over the cap in one second,
    /// a probability 0..1.
    pub key_p_over_cap_per_second: Option<f64>,
    /// Its natural log (finite where the chance underflows f64).
    pub key_ln_p_over_cap_per_second: Option<f64>,
    /// The exact chance a run this long has a second over the cap, a
    /// probability 0..1.
    pub key_p_any_over_cap_in_run: Option<f64>,
    /// Its natural log (finite where the chance underflows f64).
    pub key_ln_p_any_over_cap_in_run: Option<f64>,
    #[serde(flatten)]
    pub reads: ReadCost,
}

/// `simulate`'s report: the row plus the histogram (JSON only).
pub struct SimulateReport {
    pub row: SimulateRow,
    pub busiest: Histogram,
    /// The plan's recommendation (`size` for the same inputs); the run's
    /// own shard count is `row.shards`.
    pub recommendation: Option<Recommendation>,
    /// The plan's verdict at the run's count, with the run beside it.
    pub verdict: Option<Verdict>,
    /// The inputs assumed rather than given (the warnings say so).
    pub assumed: super::inputs::Assumed,
}

impl SimulateReport {
    /// The same report with its rate said in likes/s (`likes` of the
    /// simulated writes/s, where unlikes add to them).
    pub fn in_likes(mut self, likes: f64) -> SimulateReport {
        self.row.rate = likes;
        self
    }

    pub fn new(scenario: String, plan: &SimPlan, tally: &SimTally, reads: ReadCost) -> Self {
        let h = &tally.busiest;
        let n = tally.seconds;
        let over = h.count_above(plan.cap);
        let p = over as f64 / n as f64;
        // Wilson's, widened over the replications' spread where the
        // seconds carry state (round-robin).
        let [lo, hi] = tally.over_cap_interval(plan.cap);
        let t = n as f64;
        // The exact figures beside the run: its table's row, whose chances
        // are the one per-key figure every command shows (`KeyRisk`).
        let exact = plan.exact_busiest().and_then(|b| {
            Risk::from_busiest(&b, plan.cap as f64, t)
                .and_then(|r| KeyRisk::of_law(r, plan.writers()))
                .ok()
                .map(|r| (b, r))
        });
        let ex = |f: &dyn Fn(&BusiestShard, &KeyRisk) -> f64| exact.as_ref().map(|(b, r)| f(b, r));
        let exq = |f: &dyn Fn(&BusiestShard, &KeyRisk) -> u64| exact.as_ref().map(|(b, r)| f(b, r));
        SimulateReport {
            row: SimulateRow {
                scenario,
                rate: plan.rate,
                write_rate: plan.rate,
                mean_per_shard: plan.rate / plan.shards as f64,
                shards: plan.shards,
                cap: plan.cap,
                seconds: n,
                traffic: plan.traffic.name(),
                picker: plan.writers().picker,
                servers: plan.writers().servers,
                seed: plan.seed,
                likes_total: tally.likes,
                busiest_max: h.max().unwrap_or(0),
                quietest_min: tally.quietest_min.unwrap_or(0),
                busiest_mean: h.mean().unwrap_or(0.0),
                busiest_p50: h.quantile(0.5).unwrap_or(0),
                busiest_p99: h.quantile(0.99).unwrap_or(0),
                busiest_p999: h.quantile(0.999).unwrap_or(0),
                seconds_over_cap: over,
                simulated_p_over_cap_per_second: p,
                simulated_p_over_cap_ci95: [lo, hi],
                simulated_p_any_over_cap: stats::p_any(p, t),
                simulated_p_any_over_cap_ci95: [stats::p_any(lo, t), stats::p_any(hi, t)],
                sampler: plan.sampler_name(),
                exact_busiest_mean: ex(&|b, _| b.mean()),
                exact_busiest_p50: exq(&|b, _| b.quantile(0.5)),
                exact_busiest_p99: exq(&|b, _| b.quantile(0.99)),
                exact_busiest_p999: exq(&|b, _| b.quantile(0.999)),
                exact_busiest_over_run_median: exact
                    .as_ref()
                    .and_then(|(_, r)| r.busiest_over_run_median),
                exact_busiest_over_run_q01: exact
                    .as_ref()
                    .and_then(|(_, r)| r.busiest_over_run_q01),
                exact_busiest_over_run_q99: exact
                    .as_ref()
                    .and_then(|(_, r)| r.busiest_over_run_q99),
                key_p_over_cap_per_second: ex(&|_, r| r.key_p_over_cap_per_second),
                key_ln_p_over_cap_per_second: ex(&|_, r| r.key_ln_p_over_cap_per_second),
                key_p_any_over_cap_in_run: ex(&|_, r| r.key_p_any_over_cap),
                key_ln_p_any_over_cap_in_run: ex(&|_, r| r.key_ln_p_any_over_cap),
                reads,
            },
            busiest: h.clone(),
            recommendation: None,
            verdict: None,
            assumed: Default::default(),
        }
    }

    /// The same report, with the plan's recommendation and its verdict on
    /// the run's own count (the run beside it).
    pub fn with_verdict(mut self, rec: Recommendation, verdict: Verdict) -> Self {
        self.recommendation = Some(rec);
        self.verdict = Some(verdict);
        self
    }

    /// The same report, with the inputs it assumed (its warnings say so).
    pub fn assuming(mut self, assumed: super::inputs::Assumed) -> Self {
        self.assumed = assumed;
        self
    }

    /// Whether the plan holds at the run's count (no verdict: nothing judged).
    fn holds(&self) -> bool {
        self.verdict.as_ref().is_none_or(|v| v.holds)
    }

    /// The first line: the verdict on the run's count, the run beside it.
    pub fn headline(&self) -> Option<String> {
        self.verdict.as_ref().map(super::verdict::line)
    }
}

/// A one-line bar histogram of the per-second busiest shard.
pub fn sparkline(h: &Histogram, width: usize) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let (Some(lo), Some(hi)) = (h.min(), h.max()) else {
        return String::new();
    };
    // Equal-width buckets of whole values, so no bucket looks taller for
    // merely holding one more value than its neighbour.
    let span = hi - lo + 1;
    let bucket_width = span.div_ceil(width.max(1) as u64);
    let buckets = span.div_ceil(bucket_width) as usize;
    let mut counts = vec![0u64; buckets];
    for b in h.bins() {
        counts[((b.value - lo) / bucket_width) as usize] += b.count;
    }
    let top = *counts.iter().max().unwrap_or(&1) as f64;
    let bars: String = counts
        .iter()
        .map(|&c| {
            if c == 0 {
                ' '
            } else {
                BARS[(((c as f64 / top) * 7.0).round() as usize).min(7)]
            }
        })
        .collect();
    format!("{} {bars} {}", fmt::count(lo), fmt::count(hi))
}

impl SimulateReport {
    /// Monte Carlo figures beside the exact ones, so a reader sees them agree.
    fn versus_exact(&self) -> Section {
        let r = &self.row;
        let rows = versus_exact_rows(r);
        // No exact law beside the run (a picker's writers, a table too
        // costly): the exact column would be "-" on every row, so it goes.
        if r.exact_busiest_mean.is_none() {
            return Section::Grid {
                title: format!(
                    "Busiest shard per second, writes ({} sampler; the exact law is not computed \
                     for this run)",
                    r.sampler
                ),
                header: vec!["figure".into(), "Monte Carlo".into()],
                rows: rows
                    .into_iter()
                    .map(|mut row| {
                        row.truncate(2);
                        row
                    })
                    .collect(),
                secondary: Vec::new(),
            };
        }
        Section::Grid {
            title: format!(
                "Busiest shard per second, writes ({} sampler vs exact)",
                r.sampler
            ),
            header: vec!["figure".into(), "Monte Carlo".into(), "exact".into()],
            rows,
            secondary: Vec::new(),
        }
    }
}

/// The busiest shard's figures, Monte Carlo beside exact ("-" where the
/// exact law has no such figure).
fn versus_exact_rows(r: &SimulateRow) -> Vec<Vec<String>> {
    let opt = |v: Option<u64>| v.map(fmt::count).unwrap_or_else(|| "-".into());
    vec![
        vec![
            "mean".into(),
            fmt::mean(r.busiest_mean),
            r.exact_busiest_mean
                .map(fmt::mean)
                .unwrap_or_else(|| "-".into()),
        ],
        vec![
            "p50".into(),
            fmt::count(r.busiest_p50),
            opt(r.exact_busiest_p50),
        ],
        vec![
            "p99".into(),
            fmt::count(r.busiest_p99),
            opt(r.exact_busiest_p99),
        ],
        vec![
            "p99.9".into(),
            fmt::count(r.busiest_p999),
            opt(r.exact_busiest_p999),
        ],
        vec![
            "max over the run".into(),
            fmt::count(r.busiest_max),
            match (
                r.exact_busiest_over_run_q01,
                r.exact_busiest_over_run_median,
                r.exact_busiest_over_run_q99,
            ) {
                (Some(a), Some(m), Some(b)) => format!(
                    "median {} (98% between {} and {})",
                    fmt::count(m),
                    fmt::count(a),
                    fmt::count(b)
                ),
                _ => "-".into(),
            },
        ],
        vec![
            "quietest shard, min over the run".into(),
            fmt::count(r.quietest_min),
            "-".into(),
        ],
    ]
}

impl Report for SimulateReport {
    fn rows(&self) -> Vec<Value> {
        vec![row(&self.row)]
    }

    fn json(&self) -> Value {
        let mut v = row(&self.row);
        v["busiest_histogram"] = json!(self.busiest.bins());
        if let Some(rec) = &self.recommendation {
            v["recommendation"] = row(rec);
        }

        v
    }

    fn sections(&self) -> Vec<Section> {
        let fails = !self.holds();
        let mut out: Vec<Section> = self
            .headline()
            .map(|h| Section::verdict(h, fails))
            .into_iter()
            .collect();
        out.extend(self.figures());
        out.push(read_cost_section(&self.row.reads));
        if let Some(rec) = &self.recommendation {
            out.extend(super::recommendation::warning_sections(rec, &self.assumed));
        }
        out.push(Section::Note(format!(
            "busiest shard per second: {}",
            sparkline(&self.busiest, 48)
        )));
        out
    }
}

impl SimulateReport {
    /// The run, the Monte Carlo figures beside the exact ones and the
    /// over-cap chances (without the read cost and the sparkline).
    pub fn figures(&self) -> Vec<Section> {
        vec![
            run_section(&self.row),
            self.versus_exact(),
            over_cap_section(&self.row),
        ]
    }
}

/// The run: its load over the shards, its length and seed.
fn run_section(r: &SimulateRow) -> Section {
    Section::pairs(
        "Simulation (Monte Carlo)",
        vec![
            ("scenario", r.scenario.clone()),
            (
                "load",
                format!(
                    "{} likes/s{} ({}) over {}, cap {} writes/s{}",
                    fmt::rate(r.rate),
                    match r.write_rate != r.rate {
                        true => format!(" = {} writes/s with unlikes", fmt::rate(r.write_rate)),
                        false => String::new(),
                    },
                    r.traffic,
                    crate::views::verdict::shards(r.shards),
                    fmt::count(r.cap),
                    crate::views::recommendation::writers(crate::model::picker::Writers {
                        picker: r.picker,
                        servers: r.servers,
                    })
                ),
            ),
            ("simulated seconds", fmt::count(r.seconds)),
            ("seed", r.seed.to_string()),
            (
                "average per shard",
                format!("{} writes/s", fmt::rate(r.mean_per_shard)),
            ),
        ],
    )
}

/// A 95% interval in words.
fn ci(c: [f64; 2]) -> String {
    format!("95% CI {} to {}", fmt::prob(c[0]), fmt::prob(c[1]))
}

/// The chance of a second over the cap, Monte Carlo: with none over, the
/// bound the run gives.
fn monte_carlo_per_second(r: &SimulateRow) -> String {
    match r.seconds_over_cap {
        0 => format!(
            "below {} (95% upper bound: none over in {} seconds)",
            fmt::prob(r.simulated_p_over_cap_ci95[1]),
            fmt::count(r.seconds)
        ),
        _ => format!(
            "{} ({})",
            fmt::prob(r.simulated_p_over_cap_per_second),
            ci(r.simulated_p_over_cap_ci95)
        ),
    }
}

/// The chance of any second over in a run this long, Monte Carlo. One run
/// with no second over cannot estimate a chance for the whole run: its
/// interval spans almost everything. Say so; the exact row is the figure.
fn monte_carlo_in_run(r: &SimulateRow) -> String {
    match r.seconds_over_cap {
        0 => "none over in this one run (too few to estimate; read the exact figure)".to_string(),
        _ => format!(
            "{} ({})",
            fmt::prob(r.simulated_p_any_over_cap),
            ci(r.simulated_p_any_over_cap_ci95)
        ),
    }
}

/// The over-cap chances, Monte Carlo beside exact, per second and over
/// the run.
fn over_cap_section(r: &SimulateRow) -> Section {
    let exact = |p: Option<f64>, ln: Option<f64>, missing: &str| match (p, ln) {
        (Some(p), Some(ln)) => fmt::prob_ln(p, ln),
        _ => missing.to_string(),
    };
    Section::pairs(
        "Over the cap (more than the cap in one second)",
        vec![
            (
                "seconds over the cap",
                format!(
                    "{} of {}",
                    fmt::count(r.seconds_over_cap),
                    fmt::count(r.seconds)
                ),
            ),
            ("P(a second over), Monte Carlo", monte_carlo_per_second(r)),
            (
                "P(a second over), exact",
                exact(
                    r.key_p_over_cap_per_second,
                    r.key_ln_p_over_cap_per_second,
                    "not computed (see shardplan risk)",
                ),
            ),
            (
                "P(any second over in a run this long), Monte Carlo",
                monte_carlo_in_run(r),
            ),
            (
                "P(any second over in a run this long), exact",
                exact(
                    r.key_p_any_over_cap_in_run,
                    r.key_ln_p_any_over_cap_in_run,
                    "not computed",
                ),
            ),
        ],
    )
}
