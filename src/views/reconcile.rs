//! `reconcile`'s tables and machine row: the drift, one reel's law, the
//! job, the gap, the correction and the designs beside it, in words.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::model::reconcile::{
    Alternatives, Correction, Drift, Job, ReconcileInputs, Reconciliation, Retry,
};
use crate::output::fmt::{self, num};
use crate::output::{row, Report, Section};
use crate::views::price::money;

/// The result with its scenario and inputs.
pub struct ReconcileView {
    /// The scenario's shown name.
    pub scenario: String,
    /// The model's inputs (what the sentences quote).
    pub inputs: ReconcileInputs,
    /// The model's answer.
    pub result: Reconciliation,
}

/// The JSON document: the scenario, then the model's blocks.
#[derive(Serialize, schemars::JsonSchema)]
pub struct ReconcileRow<'a> {
    /// The scenario's shown name.
    pub scenario: &'a str,
    #[serde(flatten)]
    pub result: &'a Reconciliation,
}

impl Report for ReconcileView {
    fn rows(&self) -> Vec<Value> {
        vec![row(&ReconcileRow {
            scenario: &self.scenario,
            result: &self.result,
        })]
    }

    /// One CSV line: every figure, its name the JSON path joined by `_`
    /// (`drift_per_reel_exact_p_off`).
    fn csv_rows(&self) -> Vec<Value> {
        let mut flat = Map::new();
        for mut r in self.rows() {
            // Without the exact law its columns stay, empty: one header.
            let exact = &mut r["drift"]["per_reel"]["exact"];
            if exact.is_null() {
                *exact = empty_law();
            }
            flatten("", &r, &mut flat);
        }
        vec![Value::Object(flat)]
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.result;
        vec![
            headline(r),
            drift_section(&self.inputs, &r.drift),
            reel_section(&self.inputs, &r.drift),
            job_section(&r.job),
            gap_section(r),
            correction_section(&r.correction),
            alternatives_section(&r.drift, &r.job, &r.alternatives),
        ]
    }
}

/// The exact law's fields, each null.
fn empty_law() -> Value {
    let law = row(&crate::model::reconcile::ReelLaw {
        p_off: 0.0,
        reels_off: 0.0,
        largest_abs_net_median: 0,
        largest_abs_net_p99: 0,
        largest_net_p99: 0,
    });
    let keys = law.as_object().into_iter().flat_map(|m| m.keys());
    Value::Object(keys.map(|k| (k.clone(), Value::Null)).collect())
}

/// A JSON object's leaves under `prefix`, nested names joined by `_`.
fn flatten(prefix: &str, v: &Value, out: &mut Map<String, Value>) {
    match v {
        Value::Object(m) => {
            for (k, inner) in m {
                let name = match prefix.is_empty() {
                    true => k.clone(),
                    false => format!("{prefix}_{k}"),
                };
                flatten(&name, inner, out);
            }
        }
        other => {
            out.insert(prefix.to_string(), other.clone());
        }
    }
}

/// A signed count: "+40,000" or "-2".
fn signed(x: f64) -> String {
    match x > 0.0 {
        true => format!("+{}", num(x)),
        false => num(x),
    }
}

/// The answer in a line.
fn headline(r: &Reconciliation) -> Section {
    let (d, j) = (&r.drift, &r.job);
    let direction = match d.net_per_day {
        n if n > 0.0 => "reads high",
        n if n < 0.0 => "reads low",
        _ => "is even",
    };
    let fits = match j.fits {
        true => format!("within its {}", fmt::duration(j.every_seconds)),
        false => format!(
            "LONGER than its {} interval",
            fmt::duration(j.every_seconds)
        ),
    };
    Section::verdict(
        format!(
            "The live count {direction}: net {} likes a day ({} over-counted, {} under-counted); \
             the job reads {} rows in {}, {fits}",
            signed(d.net_per_day),
            num(d.over_per_day),
            num(d.under_per_day),
            num(j.rows),
            fmt::rough_duration(j.seconds),
        ),
        !j.fits,
    )
}

/// The drift per day and why.
fn drift_section(i: &ReconcileInputs, d: &Drift) -> Section {
    let f = &i.faults;
    let policy = match f.retry {
        Retry::Once => "retry once: an applied write whose reply was lost counts twice",
        Retry::None => "no retry: an unapplied write whose reply was lost is missing",
    };
    let unlikes = match i.unlike_share > 0.0 {
        true => format!(", {} unlikes per like", num(i.unlike_share)),
        false => String::new(),
    };
    let mut rows = vec![
        (
            "faults",
            format!(
                "{} of replies lost, {} of those applied; {} of increments refused after \
                     the row was saved",
                fmt::percent(f.timeout_share),
                fmt::percent(f.applied_share),
                fmt::percent(f.increment_fail_share)
            ),
        ),
        ("policy", policy.to_string()),
    ];
    rows.extend(drift_rows(d));
    Section::pairs(
        &format!("Drift per day ({} likes{unlikes})", num(i.daily_likes)),
        rows,
    )
}

/// One reel over an interval, and the largest among the reels.
fn reel_section(i: &ReconcileInputs, d: &Drift) -> Section {
    let r = &d.per_reel;
    let title = format!(
        "One reel between runs ({} writes in {}; {} reels)",
        fmt::count(r.writes),
        fmt::duration(i.every_seconds),
        fmt::count(i.reels)
    );
    let mut rows = vec![(
        "net drift",
        format!("mean {}, sd {}", signed(r.mean_net), num(r.sd_net)),
    )];
    match &r.exact {
        Some(l) => rows.extend([
            (
                "P(count off)",
                format!(
                    "{} (exact); {} reels off",
                    fmt::prob(l.p_off),
                    num(l.reels_off)
                ),
            ),
            (
                "largest |net| of the reels",
                format!(
                    "median {}, 99th percentile {} (exact)",
                    fmt::count(l.largest_abs_net_median),
                    fmt::count(l.largest_abs_net_p99)
                ),
            ),
            (
                "largest net (reads highest)",
                format!(
                    "{} at the 99th percentile",
                    signed(l.largest_net_p99 as f64)
                ),
            ),
        ]),
        None => rows.push((
            "exact law",
            "left out: the mean drift is above 100,000 writes; mean and sd only".into(),
        )),
    }
    Section::pairs(&title, rows)
}

/// The job's rows, time and cost.
fn job_section(j: &Job) -> Section {
    let fits = match j.fits {
        true => "yes",
        false => "NO: a run outlasts the interval",
    };
    let mut rows = vec![
        ("rows read a run", num(j.rows)),
        ("time at the scan rate", fmt::rough_duration(j.seconds)),
        ("interval", fmt::duration(j.every_seconds)),
        ("fits the interval", fits.to_string()),
    ];
    if let (Some(run), Some(month)) = (j.cost_per_run, j.cost_per_month) {
        rows.push((
            "read cost",
            format!("{} a run, {} a month", money(run), money(month)),
        ));
    }
    Section::pairs("The job", rows)
}

/// The gap a run leaves on the hottest reel.
fn gap_section(r: &Reconciliation) -> Section {
    let g = &r.gap;
    Section::Note(format!(
        "The gap: {} likes land on the hottest reel ({} likes/s) during the {} its rows take \
         to count; the next run closes it.",
        num(g.likes),
        num(g.peak_likes),
        fmt::duration(g.count_seconds)
    ))
}

/// The correction and whether it can take a shard below zero.
fn correction_section(c: &Correction) -> Section {
    let verdict = match c.can_go_below_zero {
        true => format!(
            "CAN go below zero: spread it ({} a shard) or add it to the largest shard",
            num(c.spread_per_shard)
        ),
        false => "stays above zero".into(),
    };
    let mut rows = vec![
        (
            "write",
            "one increment of (rows - counted) on one shard".to_string(),
        ),
        (
            "largest decrease",
            format!(
                "{} (a reel reading highest, 99th percentile)",
                num(c.largest_decrease)
            ),
        ),
        (
            "a shard holds",
            format!(
                "{} on average ({})",
                num(c.shard_expected),
                fmt::counted(c.shards, "shard", "shards")
            ),
        ),
        ("one shard", verdict),
    ];
    if let Some(p) = c.p_reel_below_zero {
        // The law keeps terms down to e^-60 of its largest: a tail beyond
        // them all is below 1e-24, not zero.
        let shown = match p > 0.0 {
            true => fmt::prob(p),
            false => "below 1e-24 (exact law)".into(),
        };
        rows.push(("P(a reel's drift above a shard)", shown));
    }
    Section::pairs("The correction", rows)
}

/// The designs that need no job, beside it.
fn alternatives_section(d: &Drift, j: &Job, a: &Alternatives) -> Section {
    let job_cost = j.cost_per_month.map_or("-".into(), money);
    let idem_cost = a.idempotency_cost_per_month.map_or("-".into(), money);
    let rows = vec![
        vec![
            "sharded + nightly job".into(),
            format!("{}/day until the run", signed(d.net_per_day)),
            format!("{} rows a run", num(j.rows)),
            job_cost,
        ],
        vec![
            "transactions".into(),
            "none".into(),
            format!(
                "{} likes/s a key; {} shards at the peak ({} ms each)",
                num(a.transaction_cap_per_key),
                a.transaction_shards
                    .map_or("more than 100,000".into(), |s| s.to_string()),
                num(a.txn_ms)
            ),
            "-".into(),
        ],
        vec![
            "idempotency keys".into(),
            format!("none within {}", fmt::duration(a.retry_window_seconds)),
            format!(
                "{} keys held, {} MB; {} more writes/day",
                num(a.idempotency_keys.round()),
                num((a.idempotency_bytes / 1e6).round()),
                num(a.idempotency_writes_per_day)
            ),
            idem_cost,
        ],
        vec![
            "log".into(),
            "none".into(),
            format!("count lags {}", fmt::duration(a.log_lag_seconds)),
            "-".into(),
        ],
    ];
    Section::Grid {
        title: "Beside it: designs without a job".into(),
        header: ["design", "drift", "what it takes", "cost/month"]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        rows,
        secondary: Vec::new(),
    }
}

/// The paragraph that opens a `report --reconcile-from` file's part.
pub fn file_intro(file: &str, f: &crate::measure::reconcile::ReconcileFile) -> String {
    use crate::measure::reconcile::ReconcileFile;
    match f {
        ReconcileFile::Model(_) => format!(
            "The model (`shardplan reconcile`, {file}): how far the live count drifts from the \
             like rows a day, what the job that closes it reads and costs, the gap it leaves, and \
             the designs that need no job."
        ),
        ReconcileFile::Measured(r) => format!(
            "Measured (`shardplan measure --reconcile`, {file}): {} likes saved as rows in \
             PostgreSQL and counted on {} shard keys in Redis, with the faults made on purpose, \
             and the job run on the servers.",
            fmt::count(r.writes.likes),
            r.shards
        ),
    }
}

/// A `report --reconcile-from` file's tables: the model's without the
/// inputs it was given (its drift, job, gap, correction and the designs
/// beside it), or the measured run's whole view.
pub fn file_sections(f: &crate::measure::reconcile::ReconcileFile) -> Vec<Section> {
    use crate::measure::reconcile::ReconcileFile;
    use crate::output::Report as _;
    match f {
        ReconcileFile::Model(r) => vec![
            headline(r),
            drift_figures(&r.drift),
            job_section(&r.job),
            gap_section(r),
            correction_section(&r.correction),
            alternatives_section(&r.drift, &r.job, &r.alternatives),
        ],
        ReconcileFile::Measured(r) => {
            crate::views::measure_reconcile::ReconcileMeasureView((**r).clone()).sections()
        }
    }
}

/// The drift per day from the figures alone (the file holds no faults).
fn drift_figures(d: &Drift) -> Section {
    Section::pairs(
        &format!("Drift per day ({} writes)", num(d.writes_per_day)),
        drift_rows(d),
    )
}

/// The drift's figures: over, under, net and per write.
fn drift_rows(d: &Drift) -> Vec<(&'static str, String)> {
    vec![
        ("over-counted", format!("{} likes/day", num(d.over_per_day))),
        (
            "under-counted",
            format!("{} likes/day", num(d.under_per_day)),
        ),
        (
            "net (over - under)",
            format!("{} likes/day", signed(d.net_per_day)),
        ),
        (
            "per write",
            format!(
                "P(over) = {}, P(under) = {}",
                fmt::prob(d.p_over),
                fmt::prob(d.p_under)
            ),
        ),
    ]
}
