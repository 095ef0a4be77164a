//! The per-key risk under the plan's picker (`model::key_risk`): `risk`'s
//! lines for one load with a picker's seeded run beside, `sweep`'s table of
//! judged rows over shard counts and rates (shared with `report` and the
//! risk chart).

use crate::model::law::{Split, TrafficModel};
use serde::Serialize;
use serde_json::Value;

use crate::model::key_risk::KeyRisk;
use crate::model::picker::risk::{KeyMethod, PickerRun};
use crate::model::picker::Picker;
use crate::model::probability::Probability;
use crate::model::recommendation::Recommendation;
use crate::output::fmt::{self, Underflow};
use crate::output::{row, Report, Section};

/// The traffic law in a load line: its name, and gamma-poisson's dispersion.
pub fn traffic_words(t: TrafficModel) -> String {
    match t.dispersion() {
        Some(k) => format!("{}, dispersion {}", t.name(), fmt::num(k)),
        None => t.name().to_string(),
    }
}

/// A per-key chance with how it is known: the exact law's figure as it
/// is, round-robin's exact 0 as "0 (exact)", a bound as "<= p (upper
/// bound)" (so a bound never reads as the chance itself).
pub fn key_chance(p: f64, ln_p: f64, method: KeyMethod, mark: Underflow) -> String {
    let shown = fmt::probability(Probability::new(p, ln_p), mark);
    match method {
        KeyMethod::Exact => shown,
        KeyMethod::NeverOver => "0 (exact: never over)".into(),
        KeyMethod::UpperBound => format!("<= {shown} (upper bound)"),
        KeyMethod::RandomLaw => format!("{shown} (random picks' law)"),
    }
}

/// The method line of a per-key row.
fn method_words(r: &KeyRisk) -> String {
    match (r.key_method, r.picker) {
        (KeyMethod::NeverOver, _) => format!(
            "exact: round-robin's busiest shard takes at most {} writes in a second, under the cap",
            r.busiest_bound.map_or("-".into(), fmt::count)
        ),
        (KeyMethod::UpperBound, p) => format!(
            "upper bound for {} writers (docs/pickers.md); the true chance is lower",
            p.name()
        ),
        (KeyMethod::RandomLaw, p) => format!(
            "random picks' exact law: {} writers have no figure of their own and balance \
             at least as well (docs/pickers.md); their own chance is lower",
            p.name()
        ),
        (KeyMethod::Exact, Picker::Sticky) => {
            "exact (sticky writers: each server's likes on one shard, in log space)".into()
        }
        (KeyMethod::Exact, _) if !r.exact => format!(
            "exact distribution; the tail probability carries a relative error below {:.0e}",
            r.p_over_cap_rel_error.unwrap_or(0.0)
        ),
        (KeyMethod::Exact, _) => match r.traffic.split(r.write_rate) {
            Split::Count(_) => "exact (Levin's representation, in log space)",
            Split::Poisson(_) => "exact (independent Poissons, in log space)",
            Split::GammaRate { .. } => {
                "exact to 1e-10 (independent Poissons integrated over the Gamma rate \
                 of each second, in log space)"
            }
            Split::Counts(_) => {
                "exact (the fixed-count law mixed over the observed seconds' counts, \
                 in log space)"
            }
        }
        .to_string(),
    }
}

/// The load in words: likes/s, and the writes they make where unlikes add
/// to them.
fn load_words(r: &KeyRisk, like_rate: f64) -> String {
    let writes = match r.write_rate != like_rate {
        true => format!(" = {} writes/s with unlikes", fmt::rate(r.write_rate)),
        false => String::new(),
    };
    format!(
        "{} likes/s{writes} ({}) over {}, cap {} writes/s per shard",
        fmt::rate(like_rate),
        traffic_words(r.traffic),
        crate::views::verdict::shards(r.shards),
        fmt::num(r.cap)
    )
}

/// Human lines for one per-key row, at `like_rate` likes/s.
pub fn risk_pairs(r: &KeyRisk, like_rate: f64) -> Vec<(&'static str, String)> {
    let mut out = vec![("load", load_words(r, like_rate))];
    if let Some(k) = r.servers {
        out.push((
            "writers",
            format!("{}, {} servers", r.picker.name(), fmt::count(k)),
        ));
    }
    out.push(("duration", fmt::duration_long(r.seconds)));
    let mark = Underflow::Said;
    out.push((
        "P(the busiest shard goes over the cap in one second)",
        key_chance(
            r.key_p_over_cap_per_second,
            r.key_ln_p_over_cap_per_second,
            r.key_method,
            mark,
        ),
    ));
    out.push((
        "P(at least one second over the cap during the run)",
        key_chance(
            r.key_p_any_over_cap,
            r.key_ln_p_any_over_cap,
            r.key_method,
            mark,
        ),
    ));
    if let Some(mean) = r.busiest_mean_per_second {
        out.push(("busiest shard per second, mean", fmt::mean(mean)));
    }
    if let Some(p999) = r.busiest_p999_per_second {
        out.push(("busiest shard per second, p99.9", fmt::count(p999)));
    }
    if let (Some(m), Some(lo), Some(hi)) = (
        r.busiest_over_run_median,
        r.busiest_over_run_q01,
        r.busiest_over_run_q99,
    ) {
        out.push((
            "busiest shard over the run",
            format!(
                "median {}, 98% between {} and {}",
                fmt::count(m),
                fmt::count(lo),
                fmt::count(hi)
            ),
        ));
    }
    out.push(("method", method_words(r)));
    out
}

/// `risk`'s view: the per-key row under the plan's picker, the plan's
/// recommendation, and for a picker other than the random ones its seeded
/// simulation (a Monte Carlo estimate, labelled as one).
pub struct RiskView {
    /// The per-key row.
    pub risk: KeyRisk,
    /// The likes/s the row's writes come from.
    pub like_rate: f64,
    /// The plan's recommendation.
    pub recommendation: Recommendation,
    /// The picker's seeded run, where the writers are not the random ones.
    pub simulated: Option<PickerRun>,
}

/// `risk`'s row: the likes/s, then the per-key figures.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RiskRow {
    /// Likes per second (the writes of the per-key figures add unlikes,
    /// where planned).
    pub rate: f64,
    #[serde(flatten)]
    pub risk: KeyRisk,
}

/// A picker's seeded run in lines.
fn simulated_pairs(p: &PickerRun) -> Vec<(&'static str, String)> {
    vec![
        (
            "simulated",
            format!("{} s, seed {}", fmt::count(p.simulated_seconds), p.seed),
        ),
        (
            "busiest shard per second",
            format!(
                "mean {}, p99.9 {}, max {}",
                fmt::mean(p.busiest_mean),
                fmt::count(p.busiest_p999),
                fmt::count(p.busiest_max)
            ),
        ),
        (
            "seconds over the cap",
            format!(
                "{} (P(a second over) 95% between {} and {}, Monte Carlo)",
                fmt::count(p.seconds_over_cap),
                fmt::prob(p.simulated_p_over_cap_ci95[0]),
                fmt::prob(p.simulated_p_over_cap_ci95[1])
            ),
        ),
    ]
}

impl Report for RiskView {
    fn rows(&self) -> Vec<Value> {
        vec![row(&RiskRow {
            rate: self.like_rate,
            risk: self.risk.clone(),
        })]
    }

    fn json(&self) -> Value {
        let mut v = self.rows().remove(0);
        v["recommendation"] = row(&self.recommendation);
        if let Some(p) = &self.simulated {
            v["simulated"] = row(p);
        }
        v
    }

    fn sections(&self) -> Vec<Section> {
        let mut out = vec![Section::pairs(
            "Risk of going over the cap",
            risk_pairs(&self.risk, self.like_rate),
        )];
        if let Some(p) = &self.simulated {
            out.push(Section::pairs(
                &format!(
                    "Simulated, {} writers (Monte Carlo, seed {})",
                    p.picker.name(),
                    p.seed
                ),
                simulated_pairs(p),
            ));
        }
        if self.risk.underflow {
            out.push(Section::Note(
                "A probability above is below f64's range: JSON and CSV hold 0 with underflow = true; read its ln_ field."
                    .into(),
            ));
        }
        out
    }
}

/// One row of a sweep: the per-key figures under the plan's picker, the
/// other risks the plan judges, the read cost and the verdict.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SweepRow {
    /// Likes per second (the writes below add unlikes, where planned).
    pub rate: f64,
    #[serde(flatten)]
    pub risk: KeyRisk,
    /// P(some shared partition over its cap during the spell) at the
    /// row's count; null without partitions.
    pub partition_p_any_over_cap: Option<f64>,
    /// Its natural log.
    pub partition_ln_p_any_over_cap: Option<f64>,
    /// P(some Redis Cluster master over its cap during the spell); null
    /// without nodes.
    pub node_p_any_over_cap: Option<f64>,
    /// Its natural log.
    pub node_ln_p_any_over_cap: Option<f64>,
    /// Shard reads per second with no cache, every view summing every
    /// shard: views x shards, reads/s.
    pub reads_uncached_per_second: f64,
    /// Shard reads per second with each server caching the sum:
    /// min(views, servers / cache) x shards, reads/s.
    pub reads_cached_per_second: f64,
    /// Whether the row's count holds the plan at the row's rate (its
    /// verdict).
    pub holds: bool,
    /// The constraints it fails.
    pub fails: Vec<crate::model::verdict::Check>,
    /// The plan's recommended count at the row's rate.
    pub recommended_shards: u64,
    /// The verdict itself (its words; `--check`'s line).
    #[serde(skip)]
    pub verdict: crate::model::verdict::Verdict,
}

/// `sweep`'s view: one row per rate and shard count.
pub struct SweepView(pub Vec<SweepRow>);

/// One line of `sweep`'s CSV: the design-doc table's columns as numbers,
/// with the facts of its title (cap, run length, traffic) beside them.
/// Columns a sweep cannot fill (partitions, nodes, the busiest shard's law
/// under another picker) are left out of the whole sheet.
#[derive(Debug, Serialize)]
struct SweepSheetRow {
    rate_likes_per_s: f64,
    write_rate_writes_per_s: f64,
    shards: u64,
    picker: &'static str,
    key_method: KeyMethod,
    key_p_over_cap_per_second: f64,
    key_ln_p_over_cap_per_second: f64,
    key_p_any_over_cap: f64,
    key_ln_p_any_over_cap: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    partition_p_any_over_cap: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    node_p_any_over_cap: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    busiest_mean_writes_per_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    busiest_p999_writes_per_s: Option<u64>,
    reads_uncached_per_second: f64,
    reads_cached_per_second: f64,
    verdict: String,
    cap_writes_per_s: f64,
    duration_s: f64,
    traffic: String,
}

impl SweepSheetRow {
    fn of(r: &SweepRow) -> Self {
        SweepSheetRow {
            rate_likes_per_s: r.rate,
            write_rate_writes_per_s: r.risk.write_rate,
            shards: r.risk.shards,
            picker: r.risk.picker.name(),
            key_method: r.risk.key_method,
            key_p_over_cap_per_second: r.risk.key_p_over_cap_per_second,
            key_ln_p_over_cap_per_second: r.risk.key_ln_p_over_cap_per_second,
            key_p_any_over_cap: r.risk.key_p_any_over_cap,
            key_ln_p_any_over_cap: r.risk.key_ln_p_any_over_cap,
            partition_p_any_over_cap: r.partition_p_any_over_cap,
            node_p_any_over_cap: r.node_p_any_over_cap,
            busiest_mean_writes_per_s: r.risk.busiest_mean_per_second,
            busiest_p999_writes_per_s: r.risk.busiest_p999_per_second,
            reads_uncached_per_second: r.reads_uncached_per_second,
            reads_cached_per_second: r.reads_cached_per_second,
            verdict: verdict_cell(r),
            cap_writes_per_s: r.risk.cap,
            duration_s: r.risk.seconds,
            traffic: traffic_words(r.risk.traffic),
        }
    }
}

/// The verdict's cell: `holds`, or `fails: ` and the checks it fails in a
/// word each ("fails: thumb, risk"), so a row stays one line at 80 columns.
pub fn verdict_cell(r: &SweepRow) -> String {
    match r.verdict.holds {
        true => "holds".to_string(),
        false => {
            let fails: Vec<&str> = r.verdict.fails().into_iter().map(check_word).collect();
            format!("fails: {}", fails.join(", "))
        }
    }
}

/// A check in one word, for a table cell (the verdict's own table and the
/// warnings name it in full).
fn check_word(c: crate::model::verdict::Check) -> &'static str {
    use crate::model::verdict::Check;
    match c {
        Check::RuleOfThumb => "thumb",
        Check::KeyRisk => "risk",
        Check::SharedPartitions => "partitions",
        Check::Nodes => "nodes",
        Check::NodeBalance => "balance",
        Check::ReadCap => "reads",
        Check::StoreLimit => "limit",
        Check::Simulated => "simulated",
        Check::Rejected => "burst",
    }
}

/// A chance over the spell in a table cell (starred where it underflows).
fn cell(p: f64, ln: f64) -> String {
    fmt::probability(Probability::new(p, ln), Underflow::Starred)
}

/// The columns a sweep shows: the per-key figures, the partition and node
/// risks where the plan has them, the busiest shard's law where the picker
/// has one, the reads and the verdict.
#[derive(Clone, Copy)]
struct Columns {
    /// The rows' likes/s differ (a constant one is said in the title).
    rates: bool,
    partitions: bool,
    nodes: bool,
    busiest: bool,
}

impl Columns {
    fn of(rows: &[SweepRow]) -> Columns {
        Columns {
            rates: rows.iter().any(|r| r.rate != rows[0].rate),
            partitions: rows.iter().any(|r| r.partition_p_any_over_cap.is_some()),
            nodes: rows.iter().any(|r| r.node_p_any_over_cap.is_some()),
            busiest: rows
                .iter()
                .all(|r| r.risk.busiest_mean_per_second.is_some()),
        }
    }

    fn header(self, picker: Picker) -> Vec<String> {
        let who = match picker {
            Picker::Random => String::new(),
            p => format!(", {}", p.name()),
        };
        let mut h = Vec::new();
        if self.rates {
            h.push("likes/s".to_string());
        }
        h.extend([
            "shards".to_string(),
            format!("P(over)/s{who}"),
            format!("P(over, run){who}"),
        ]);
        if self.partitions {
            h.push("P(partition, run)".into());
        }
        if self.nodes {
            h.push("P(node, run)".into());
        }
        if self.busiest {
            h.extend(["busiest mean".into(), "busiest p99.9".into()]);
        }
        h.extend(["reads/s uncached", "reads/s cached", "verdict"].map(String::from));
        h
    }

    fn cells(self, r: &SweepRow) -> Vec<String> {
        let k = &r.risk;
        let mark = Underflow::Starred;
        let mut cells = Vec::new();
        if self.rates {
            cells.push(fmt::rate(r.rate));
        }
        cells.extend([
            fmt::count(k.shards),
            key_chance(
                k.key_p_over_cap_per_second,
                k.key_ln_p_over_cap_per_second,
                k.key_method,
                mark,
            ),
            key_chance(
                k.key_p_any_over_cap,
                k.key_ln_p_any_over_cap,
                k.key_method,
                mark,
            ),
        ]);
        let other = |p: Option<f64>, ln: Option<f64>| match (p, ln) {
            (Some(p), Some(ln)) => cell(p, ln),
            _ => "-".into(),
        };
        if self.partitions {
            cells.push(other(
                r.partition_p_any_over_cap,
                r.partition_ln_p_any_over_cap,
            ));
        }
        if self.nodes {
            cells.push(other(r.node_p_any_over_cap, r.node_ln_p_any_over_cap));
        }
        if let (true, Some(mean), Some(p999)) = (
            self.busiest,
            k.busiest_mean_per_second,
            k.busiest_p999_per_second,
        ) {
            cells.extend([fmt::mean(mean), fmt::count(p999)]);
        }
        cells.extend([
            fmt::num(r.reads_uncached_per_second),
            fmt::num(r.reads_cached_per_second),
            verdict_cell(r),
        ]);
        cells
    }
}

impl Report for SweepView {
    fn rows(&self) -> Vec<Value> {
        self.0.iter().map(row).collect()
    }

    fn json(&self) -> Value {
        Value::Array(self.rows())
    }

    fn csv_rows(&self) -> Vec<Value> {
        self.0.iter().map(|r| row(&SweepSheetRow::of(r))).collect()
    }

    fn sections(&self) -> Vec<Section> {
        let Some(first) = self.0.first() else {
            return Vec::new();
        };
        let columns = Columns::of(&self.0);
        let header = columns.header(first.risk.picker);
        // Left out first on a narrow terminal: the uncached reads, the
        // busiest mean, the chance per second, the cached reads (the table
        // keeps the counts, the risk over the run, the p99.9 and the verdict).
        let by_prefix = |name: &str| header.iter().position(|h| h.starts_with(name));
        let secondary = [
            "reads/s uncached",
            "busiest mean",
            "P(over)/s",
            "reads/s cached",
        ]
        .iter()
        .filter_map(|n| by_prefix(n))
        .collect();
        vec![Section::Grid {
            title: format!(
                "Risk by shard count ({}cap {} writes/s per shard, {} traffic, {} s{})",
                match columns.rates {
                    true => String::new(),
                    false => format!("{} likes/s, ", fmt::rate(first.rate)),
                },
                fmt::num(first.risk.cap),
                first.risk.traffic.name(),
                fmt::num(first.risk.seconds),
                writers_words(&first.risk)
            ),
            header,
            rows: self.0.iter().map(|r| columns.cells(r)).collect(),
            secondary,
        }]
    }
}

/// The writers in a title: ", round-robin writers (40 servers)"; nothing
/// for the random picker.
fn writers_words(r: &KeyRisk) -> String {
    match (r.picker, r.servers) {
        (Picker::Random, _) => String::new(),
        (p, Some(k)) => format!(", {} writers ({} servers)", p.name(), fmt::count(k)),
        (p, None) => format!(", {} writers", p.name()),
    }
}
