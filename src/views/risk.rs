//! The exact risk figures: `risk`'s lines for one load, `sweep`'s table over
//! shard counts and rates (shared with `report` and the risk chart).

use crate::model::law::{Split, TrafficModel};
use serde::Serialize;
use serde_json::Value;

use crate::model::exact::Risk;
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

/// Human lines for one exact risk row.
pub fn risk_pairs(r: &Risk) -> Vec<(&'static str, String)> {
    let duration = fmt::duration_long(r.seconds);
    vec![
        (
            "load",
            format!(
                "{} likes/s ({}) over {}, cap {} writes/s per shard",
                fmt::num(r.rate),
                traffic_words(r.traffic),
                crate::views::verdict::shards(r.shards),
                fmt::num(r.cap)
            ),
        ),
        ("duration", duration),
        (
            "P(the busiest shard goes over the cap in one second)",
            fmt::prob_ln(r.p_over_cap_per_second, r.ln_p_over_cap_per_second),
        ),
        (
            "P(at least one second over the cap during the run)",
            fmt::prob_ln(r.p_any_over_cap, r.ln_p_any_over_cap),
        ),
        (
            "busiest shard per second, mean",
            format!("{:.2}", r.busiest_mean_per_second),
        ),
        (
            "busiest shard per second, p99.9",
            fmt::count(r.busiest_p999_per_second),
        ),
        (
            "busiest shard over the run",
            format!(
                "median {}, 98% between {} and {}",
                fmt::count(r.busiest_over_run_median),
                fmt::count(r.busiest_over_run_q01),
                fmt::count(r.busiest_over_run_q99)
            ),
        ),
        (
            "method",
            if r.exact {
                match r.traffic.split(r.rate) {
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
                .to_string()
            } else {
                format!(
                    "exact distribution; the tail probability carries a relative error below {:.0e}",
                    r.p_over_cap_rel_error
                )
            },
        ),
    ]
}

/// `risk`'s view of one exact result, and a picker's figures beside it
/// where the writers are not the random ones.
pub struct RiskView(
    pub Risk,
    pub Option<Recommendation>,
    pub Option<crate::model::picker::risk::PickerRisk>,
);

/// A picker's figures in lines: its chance of going over and its
/// simulation.
fn picker_pairs(p: &crate::model::picker::risk::PickerRisk) -> Vec<(&'static str, String)> {
    use crate::model::picker::risk::KeyMethod;
    let how = |m: Option<KeyMethod>| match m {
        Some(KeyMethod::Exact) => " (exact)",
        Some(KeyMethod::NeverOver) => " (exact: never over)",
        Some(KeyMethod::UpperBound) => " (upper bound)",
        None => "",
    };
    let chance = |p: Option<f64>, ln: Option<f64>, m| match (p, ln) {
        (Some(p), Some(ln)) => format!("{}{}", fmt::prob_ln(p, ln), how(m)),
        _ => "no exact figure or bound for this traffic: see the simulation".into(),
    };
    let mut out = vec![
        (
            "writers",
            format!("{}, {} servers", p.picker.name(), fmt::count(p.servers)),
        ),
        (
            "P(the busiest shard goes over the cap in one second)",
            chance(
                p.p_over_cap_per_second,
                p.ln_p_over_cap_per_second,
                p.method,
            ),
        ),
        (
            "P(at least one second over the cap during the run)",
            chance(p.p_any_over_cap, p.ln_p_any_over_cap, p.method),
        ),
    ];
    if let Some(b) = p.busiest_bound {
        out.push(("busiest shard, at most (round-robin)", fmt::count(b)));
    }
    out.extend([
        (
            "simulated",
            format!("{} s, seed {}", fmt::count(p.simulated_seconds), p.seed),
        ),
        (
            "busiest shard per second, simulated",
            format!(
                "mean {:.2}, p99.9 {}, max {}",
                p.busiest_mean,
                fmt::count(p.busiest_p999),
                fmt::count(p.busiest_max)
            ),
        ),
        (
            "seconds over the cap, simulated",
            format!(
                "{} (P(a second over) 95% between {} and {})",
                fmt::count(p.seconds_over_cap),
                fmt::prob(p.p_over_cap_ci95[0]),
                fmt::prob(p.p_over_cap_ci95[1])
            ),
        ),
    ]);
    out
}

impl Report for RiskView {
    fn rows(&self) -> Vec<Value> {
        vec![row(&self.0)]
    }

    fn json(&self) -> Value {
        let mut v = row(&self.0);
        if let Some(rec) = &self.1 {
            v["recommendation"] = row(rec);
        }
        if let Some(p) = &self.2 {
            v["picker_risk"] = row(p);
        }
        v
    }

    fn sections(&self) -> Vec<Section> {
        let mut out = Vec::new();
        let title = match self.2 {
            Some(_) => "Risk of going over the cap, random picker",
            None => "Risk of going over the cap",
        };
        out.push(Section::pairs(title, risk_pairs(&self.0)));
        if let Some(p) = &self.2 {
            out.push(Section::pairs(
                &format!("Risk of going over the cap, {} writers", p.picker.name()),
                picker_pairs(p),
            ));
        }
        if self.0.underflow {
            out.push(Section::Note(
                "A probability above is below f64's range: JSON and CSV hold 0 with underflow = true; read its ln_ field."
                    .into(),
            ));
        }
        out
    }
}

/// One row of a sweep: the risk figures plus the read cost.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SweepRow {
    #[serde(flatten)]
    pub risk: Risk,
    /// Shard reads per second with no cache, every view summing every
    /// shard: views x shards, reads/s.
    pub reads_uncached_per_second: f64,
    /// Shard reads per second with each server caching the sum:
    /// min(views, servers / cache) x shards, reads/s.
    pub reads_cached_per_second: f64,
    /// Whether the row's count holds the plan at the row's rate (its
    /// verdict; null where no plan judged it: `report`'s and the chart's rows).
    pub holds: Option<bool>,
    /// The constraints it fails.
    pub fails: Vec<crate::model::verdict::Check>,
    /// The plan's recommended count at the row's rate.
    pub recommended_shards: Option<u64>,
    /// The writers' picker, where it is not the random one (the figures
    /// above are the random picker's law).
    pub picker: Option<crate::model::picker::Picker>,
    /// P(any second over the cap during the run) under the picker.
    pub picker_p_any_over_cap: Option<f64>,
    /// Its natural log.
    pub picker_ln_p_any_over_cap: Option<f64>,
    /// How the picker's figure is known.
    pub picker_method: Option<crate::model::picker::risk::KeyMethod>,
    /// The verdict itself (its words; `--check`'s line).
    #[serde(skip)]
    pub verdict: Option<crate::model::verdict::Verdict>,
}

impl SweepRow {
    /// Gives the row its verdict.
    pub fn judge(&mut self, v: crate::model::verdict::Verdict) {
        self.holds = Some(v.holds);
        self.fails = v.fails();
        self.recommended_shards = Some(v.recommended_shards);
        self.verdict = Some(v);
    }
}

/// `sweep`'s view: one row per rate and shard count.
pub struct SweepView(pub Vec<SweepRow>);

/// One line of `sweep`'s CSV: the design-doc table's columns as numbers,
/// with the facts of its title (cap, run length, traffic) beside them.
#[derive(Debug, Serialize)]
struct SweepSheetRow {
    rate_likes_per_s: f64,
    shards: u64,
    p_over_cap_per_second: f64,
    ln_p_over_cap_per_second: f64,
    p_any_over_cap: f64,
    ln_p_any_over_cap: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    picker: Option<crate::model::picker::Picker>,
    #[serde(skip_serializing_if = "Option::is_none")]
    picker_p_any_over_cap: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    picker_method: Option<crate::model::picker::risk::KeyMethod>,
    busiest_mean_writes_per_s: f64,
    busiest_p999_writes_per_s: u64,
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
            rate_likes_per_s: r.risk.rate,
            shards: r.risk.shards,
            p_over_cap_per_second: r.risk.p_over_cap_per_second,
            ln_p_over_cap_per_second: r.risk.ln_p_over_cap_per_second,
            p_any_over_cap: r.risk.p_any_over_cap,
            ln_p_any_over_cap: r.risk.ln_p_any_over_cap,
            picker: r.picker,
            picker_p_any_over_cap: r.picker.and(r.picker_p_any_over_cap),
            picker_method: r.picker.and(r.picker_method),
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

/// The verdict's cell: `holds`, `FAILS: ` and the checks it fails, or `-`
/// where no plan judged the row.
fn verdict_cell(r: &SweepRow) -> String {
    match &r.verdict {
        Some(v) if v.holds => "holds".to_string(),
        Some(v) => {
            let fails: Vec<&str> = v
                .fails()
                .into_iter()
                .map(crate::views::verdict::check_short)
                .collect();
            format!("FAILS: {}", fails.join(", "))
        }
        None => "-".into(),
    }
}

/// One row of the sweep's table.
fn sweep_cells(r: &SweepRow) -> Vec<String> {
    let mut cells = vec![
        fmt::num(r.risk.rate),
        r.risk.shards.to_string(),
        fmt::probability(
            Probability::new(
                r.risk.p_over_cap_per_second,
                r.risk.ln_p_over_cap_per_second,
            ),
            Underflow::Starred,
        ),
        fmt::probability(
            Probability::new(r.risk.p_any_over_cap, r.risk.ln_p_any_over_cap),
            Underflow::Starred,
        ),
        format!("{:.1}", r.risk.busiest_mean_per_second),
        r.risk.busiest_p999_per_second.to_string(),
        fmt::num(r.reads_uncached_per_second),
        fmt::num(r.reads_cached_per_second),
        verdict_cell(r),
    ];
    if r.picker.is_some() {
        cells.insert(4, picker_cell(r));
    }
    cells
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
        let header = sweep_header(first.picker);
        // Left out first on a narrow terminal: the uncached reads, the
        // busiest mean, the chance per second, the cached reads (the table
        // keeps the counts, the risk over the run, the p99.9 and the verdict).
        let by_name = |name: &str| header.iter().position(|h| h == name);
        let secondary = [
            "reads/s no cache",
            "busiest mean",
            "P(second over cap)",
            "reads/s cached",
        ]
        .iter()
        .filter_map(|n| by_name(n))
        .collect();
        vec![Section::Grid {
            title: format!(
                "Risk by shard count (cap {} writes/s per shard, {} traffic, {} s)",
                fmt::num(first.risk.cap),
                first.risk.traffic.name(),
                fmt::num(first.risk.seconds)
            ),
            header,
            rows: self.0.iter().map(sweep_cells).collect(),
            secondary,
        }]
    }
}

/// The sweep's header: a column for the picker's chance where one is given.
fn sweep_header(picker: Option<crate::model::picker::Picker>) -> Vec<String> {
    let mut h: Vec<String> = [
        "likes/s",
        "shards",
        "P(second over cap)",
        "P(any over, run)",
        "busiest mean",
        "busiest p99.9",
        "reads/s no cache",
        "reads/s cached",
        "verdict",
    ]
    .map(String::from)
    .to_vec();
    if let Some(p) = picker {
        h.insert(4, format!("P(any over), {}", p.name()));
    }
    h
}

/// The picker's chance over the run, with "bound" where it is one.
fn picker_cell(r: &SweepRow) -> String {
    use crate::model::picker::risk::KeyMethod;
    match (r.picker_p_any_over_cap, r.picker_ln_p_any_over_cap) {
        (Some(p), Some(ln)) => {
            let shown = fmt::probability(Probability::new(p, ln), Underflow::Starred);
            match r.picker_method {
                Some(KeyMethod::UpperBound) => format!("<= {shown}"),
                _ => shown,
            }
        }
        _ => "-".into(),
    }
}
