//! `fleet`'s tables and machine rows: the fleet, the policies, the
//! partitions and the search, in words.

use serde::Serialize;
use serde_json::Value;

use crate::model::fleet::{
    FleetReport, OverCapKind, PartitionLoad, Policy, PolicyCost, SearchResult,
};
use crate::model::price::PolicyCosts;
use crate::model::probability::Probability;
use crate::output::{fmt, row, Report, Section};

/// The report with its scenario name.
pub struct FleetView {
    /// The scenario's name.
    pub scenario: String,
    /// The model's report.
    pub report: FleetReport,
    /// Each policy's month at the user's prices (figures `None` without).
    pub costs: Vec<PolicyCosts>,
    /// Where the fleet answers another question than `size`.
    pub beside: crate::model::fleet::BesideSize,
}

/// One CSV line: a policy with the fleet's figures repeated.
#[derive(Serialize, schemars::JsonSchema)]
struct CsvRow<'a> {
    scenario: &'a str,
    #[serde(flatten)]
    policy: &'a PolicyCost,
    reels: u64,
    total_rate: f64,
    threshold: f64,
    target_shards: u64,
    hot_reels: u64,
    hottest_reel_rate: f64,
    partitions: u64,
    cap: f64,
    hottest_partition_rate: f64,
    hottest_to_mean: f64,
    partition_p_over_cap_per_second: f64,
    partition_p_over_cap_lower: f64,
    partition_p_any_over_cap: f64,
    partition_p_any_over_cap_lower: f64,
    partition_p_over_cap_kind: OverCapKind,
    seconds: u64,
    search_found: bool,
    search_shards: Option<u64>,
    search_threshold: Option<f64>,
    search_risk: f64,
    #[serde(flatten)]
    costs: Option<&'a PolicyCosts>,
}

impl Report for FleetView {
    fn rows(&self) -> Vec<Value> {
        let r = &self.report;
        let l = &r.partition_load;
        r.policies
            .iter()
            .map(|p| {
                let costs = self.costs.iter().find(|c| c.policy == p.policy);
                row(&CsvRow {
                    scenario: &self.scenario,
                    policy: p,
                    reels: r.reels,
                    total_rate: r.total_rate,
                    threshold: r.threshold,
                    target_shards: r.target_shards,
                    hot_reels: r.hot_reels,
                    hottest_reel_rate: r.hottest_reel_rate,
                    partitions: l.partitions,
                    cap: l.cap,
                    hottest_partition_rate: l.hottest_partition_rate,
                    hottest_to_mean: l.hottest_to_mean,
                    partition_p_over_cap_per_second: l.partition_p_over_cap_per_second,
                    partition_p_over_cap_lower: l.partition_p_over_cap_lower,
                    partition_p_any_over_cap: l.partition_p_any_over_cap,
                    partition_p_any_over_cap_lower: l.partition_p_any_over_cap_lower,
                    partition_p_over_cap_kind: l.partition_p_over_cap_kind,
                    seconds: l.seconds,
                    search_found: r.search.found,
                    search_shards: r.search.shards,
                    search_threshold: r.search.threshold,
                    search_risk: r.search.risk,
                    costs,
                })
            })
            .collect()
    }

    fn json(&self) -> Value {
        let mut v = row(&self.report);
        if let Value::Object(m) = &mut v {
            m.insert("scenario".into(), self.scenario.clone().into());
            let costs = self.costs.iter().map(|c| {
                let mut v = row(c);
                if let Value::Object(m) = &mut v {
                    m.insert("policy".into(), row(&c.policy));
                }
                v
            });
            m.insert("policy_costs".into(), Value::Array(costs.collect()));
            m.insert("beside_size".into(), row(&self.beside));
        }
        v
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.report;
        let mut out = vec![fleet_section(&self.scenario, r)];
        out.extend(beside_size(&self.beside, r));
        out.push(policies_section(r));
        out.extend(super::price::fleet_cost_section(&self.costs, policy_name));
        out.extend([
            partitions_section(&r.partition_load),
            search_section(&r.search),
            Section::Note(
                "Assumes each shard key hashes to a uniformly random partition and likes arrive \
                 as Poisson; the tail of small reels is a Normal load per partition (see docs/fleet.md)."
                    .into(),
            ),
        ]);
        out
    }
}

/// One line on what `fleet` answers that `size` does not, on the same
/// scenario: the pinned reels' keys under Poisson arrivals against
/// `size`'s under fixed traffic, the fleet's views per like against the
/// one post's views, and the search that weighs the background reels.
fn beside_size(b: &crate::model::fleet::BesideSize, r: &FleetReport) -> Option<Section> {
    let mut parts: Vec<String> = b
        .reels
        .iter()
        .map(|x| {
            format!(
                "{} gets {} keys under Poisson arrivals, as every fleet figure is weighed \
                 (`size` answers {} under the scenario's fixed traffic)",
                x.name,
                fmt::count(x.fleet_shards),
                fmt::count(x.size_shards)
            )
        })
        .collect();
    if let Some(v) = b.size_views.filter(|v| *v != r.views_per_second) {
        parts.push(format!(
            "views are {} a like over every reel's likes, {}/s (`size` reads the one post's {}/s)",
            fmt::num(r.views_per_like),
            fmt::num(r.views_per_second),
            fmt::num(v)
        ));
    }
    (!parts.is_empty()).then(|| {
        Section::Note(format!(
            "Beside `size` on this scenario: {}; the search below also weighs the background \
             reels' load on the partitions, which `size` does not see.",
            parts.join("; ")
        ))
    })
}

/// The reels the scenario pins, each with its rate and shard keys.
fn pinned_reels(r: &FleetReport) -> String {
    let pinned: Vec<String> = r
        .pinned
        .iter()
        .map(|p| {
            format!(
                "{}: {} likes/s, {} shard keys when raised",
                p.name,
                fmt::rate(p.rate),
                p.shards.map_or("ceil(rate / safe)".into(), fmt::count)
            )
        })
        .collect();
    match pinned.is_empty() {
        true => "none".into(),
        false => pinned.join("; "),
    }
}

/// How likes spread over the reels.
fn popularity(r: &FleetReport) -> String {
    match r.zipf_exponent {
        Some(s) => format!("Zipf, s = {}", fmt::num(s)),
        None => "per-reel rates from CSV".to_string(),
    }
}

/// The fleet at its peak hour: reels, likes, views, the monitor and the
/// hottest reel.
fn fleet_section(scenario: &str, r: &FleetReport) -> Section {
    Section::pairs(
        "Fleet at the peak hour",
        vec![
            ("scenario", scenario.to_string()),
            ("pinned reels", pinned_reels(r)),
            (
                "reels",
                format!(
                    "{} ({} background, {} pinned)",
                    fmt::count(r.reels),
                    fmt::count(r.background_reels),
                    r.pinned_reels
                ),
            ),
            ("popularity", popularity(r)),
            (
                "likes/s",
                format!(
                    "{} ({} background)",
                    fmt::rate(r.total_rate),
                    fmt::rate(r.background_rate)
                ),
            ),
            (
                "views/s",
                format!(
                    "{} ({} per like)",
                    fmt::num(r.views_per_second),
                    fmt::num(r.views_per_like)
                ),
            ),
            (
                "monitor",
                format!(
                    "raise at {} likes/s to {}",
                    fmt::num(r.threshold),
                    super::verdict::shards(r.target_shards)
                ),
            ),
            (
                "reels over the threshold",
                format!(
                    "{} ({} background)",
                    fmt::count(r.hot_reels),
                    fmt::count(r.hot_background_reels)
                ),
            ),
            (
                "hottest reel",
                format!(
                    "{} likes/s (hottest background reel {})",
                    fmt::rate(r.hottest_reel_rate),
                    fmt::rate(r.hottest_background_rate)
                ),
            ),
        ],
    )
}

/// Items and shard reads under each policy.
fn policies_section(r: &FleetReport) -> Section {
    Section::Grid {
        title: "Items and shard reads per policy".into(),
        header: [
            "policy",
            "items",
            "items/reel",
            "shard reads/s, no cache",
            "shard reads/s, cached",
        ]
        .map(String::from)
        .to_vec(),
        rows: r
            .policies
            .iter()
            .map(|p| {
                vec![
                    policy_name(p.policy).into(),
                    fmt::count(p.items),
                    format!("{:.4}", p.items_per_reel),
                    fmt::num(p.shard_reads_per_second_uncached.round()),
                    fmt::num(p.shard_reads_per_second_cached.round()),
                ]
            })
            .collect(),
        secondary: Vec::new(),
    }
}

/// The hot reels' shard keys on the partitions: the load, the hottest
/// partition and the chance of one over its cap, bracketed.
fn partitions_section(l: &PartitionLoad) -> Section {
    Section::pairs(
        "Partitions (hot reels only)",
        vec![
            (
                "partitions / cap",
                format!(
                    "{} / {} writes/s each",
                    fmt::count(l.partitions),
                    fmt::num(l.cap)
                ),
            ),
            (
                "shard keys",
                format!(
                    "{} ({} placed one by one, {} as the Normal tail)",
                    fmt::count(l.shard_keys),
                    fmt::count(l.explicit_keys),
                    fmt::count(l.tail_keys)
                ),
            ),
            (
                "tail load per partition",
                format!(
                    "{} writes/s, sd {}",
                    fmt::rate(l.tail_partition_mean),
                    fmt::rate(l.tail_partition_sd)
                ),
            ),
            (
                "mean partition",
                format!("{} writes/s", fmt::rate(l.mean_partition_rate)),
            ),
            (
                "hottest partition",
                format!(
                    "{} writes/s (+- {}; {} placements, seed {}), {:.2}x the mean",
                    fmt::rate(l.hottest_partition_rate),
                    fmt::rate(l.hottest_partition_rate_se),
                    fmt::count(l.trials),
                    l.seed,
                    l.hottest_to_mean
                ),
            ),
            (
                "P(some partition over the cap in a second)",
                partition_over_cap_per_second(l),
            ),
            ("P(some second over the cap)", partition_over_cap_in_run(l)),
        ],
    )
}

/// The chance of a partition over its cap in one second: its bounds, and
/// what they are summed over.
fn partition_over_cap_per_second(l: &PartitionLoad) -> String {
    let upper = Probability::new(
        l.partition_p_over_cap_per_second,
        l.partition_ln_p_over_cap_per_second,
    );
    let how = match l.rest_draws {
        0 => format!(
            "summed exactly over the placements of {}",
            keys(l.exact_keys)
        ),
        n => format!(
            "summed exactly over the placements of {}, the other {} and the tail drawn \
             {} times, seed {}",
            keys(l.exact_keys),
            fmt::count(l.explicit_keys - l.exact_keys),
            fmt::count(n),
            l.seed
        ),
    };
    let ci95 = l.partition_p_over_cap_ci95;
    bracketed(
        (upper, l.partition_p_over_cap_lower, ci95),
        l,
        "",
        Some(&how),
    )
}

/// The chance of some second over the cap in the spell, bracketed.
fn partition_over_cap_in_run(l: &PartitionLoad) -> String {
    let upper = Probability::new(l.partition_p_any_over_cap, l.partition_ln_p_any_over_cap);
    let over = format!(" over {} s", fmt::count(l.seconds));
    let ci95 = l.partition_p_any_over_cap_ci95;
    bracketed(
        (upper, l.partition_p_any_over_cap_lower, ci95),
        l,
        &over,
        None,
    )
}

/// A chance between its union bound `upper` and the bound below `lower`,
/// then `suffix`: one figure where the two print alike (a small chance, or
/// one below f64's range, where they agree to many digits); in brackets,
/// where the rest is drawn and the chance within f64's range, the
/// interval `ci95` with the draws' error, and `note`.
fn bracketed(
    (upper, lower, ci95): (Probability, f64, [f64; 2]),
    l: &PartitionLoad,
    suffix: &str,
    note: Option<&str>,
) -> String {
    let (up, low) = (digits(upper.p), digits(lower));
    let mut notes = Vec::new();
    let bounds = match (upper.underflows(), up == low) {
        (true, _) => {
            let (mantissa, exponent) = upper.scientific();
            notes.push("below f64's range; from its log".to_string());
            format!("at most and at least {mantissa:.3}e{exponent}")
        }
        (false, true) => format!("at most and at least {up}"),
        (false, false) => format!("at most {up}, at least {low}"),
    };
    if l.rest_draws > 0 && !upper.underflows() {
        let (lo, hi) = (digits(ci95[0]), digits(ci95[1]));
        notes.push(format!("95% with the draws: {lo} to {hi}"));
    }
    notes.extend(note.map(String::from));
    match notes.is_empty() {
        true => format!("{bounds}{suffix}"),
        false => format!("{bounds}{suffix} ({})", notes.join("; ")),
    }
}

/// A chance to 4 significant digits, scientific below 0.1: the bounds
/// and their interval differ in digits [`fmt::prob`]'s 4 decimals drop
/// (0.0014 at most and at least on the interview's fleet).
fn digits(p: f64) -> String {
    match p > 0.0 && p < 0.1 {
        true => format!("{p:.3e}"),
        false => fmt::prob(p),
    }
}

/// "1 key", "2,915 keys".
fn keys(n: u64) -> String {
    match n {
        1 => "1 key".into(),
        n => format!("{} keys", fmt::count(n)),
    }
}

/// The search's answer: the fewest shards and the threshold that meet the
/// risk, or none in the grid.
fn search_answer(sr: &SearchResult) -> String {
    match (sr.shards, sr.threshold) {
        (Some(s), Some(t)) => format!(
            "{}, threshold {} likes/s (reels over it: {}; P(over the cap in {} s) <= {})",
            fmt::counted(s, "shard", "shards"),
            fmt::num(t),
            fmt::count(sr.hot_reels.unwrap_or(0)),
            fmt::count(sr.seconds),
            fmt::prob(sr.p_any_over_cap_upper.unwrap_or(f64::NAN))
        ),
        _ => format!(
            "none: no threshold in the grid meets the risk with at most {} shards",
            sr.max_shards
        ),
    }
}

/// The fewest shards each threshold tried needs ("-": none in the limit).
fn shards_per_threshold(sr: &SearchResult) -> String {
    sr.per_threshold
        .iter()
        .map(|(t, s)| {
            format!(
                "{}: {}",
                fmt::num(*t),
                s.map(fmt::count).unwrap_or_else(|| "-".into())
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The smallest plan within the risk: the bound it meets and the answer.
fn search_section(sr: &SearchResult) -> Section {
    Section::pairs(
        "Smallest plan within the risk",
        vec![
            (
                "risk",
                format!(
                    "P(some partition over the cap during {} s) <= {} (a bound that holds: union \
                     over partitions, exact over the biggest reel's shards, Chernoff on the rest)",
                    fmt::count(sr.seconds),
                    fmt::prob(sr.risk),
                ),
            ),
            ("answer", search_answer(sr)),
            ("fewest shards per threshold", shards_per_threshold(sr)),
        ],
    )
}

/// A policy as the table names it.
fn policy_name(p: Policy) -> &'static str {
    match p {
        Policy::OneCounterPerReel => "one counter per reel",
        Policy::EveryReelSharded => "every reel sharded",
        Policy::HotReelsOnly => "hot reels only",
    }
}
