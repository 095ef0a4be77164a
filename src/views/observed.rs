//! The "Observed traffic" block (`--traffic-from`), shared by `size`,
//! `risk`, `sweep`, `simulate` and `report`: what the trace holds, what it
//! says about the seconds, and the law the plan uses. JSON carries it as
//! `observed_traffic`.

use serde::Serialize;
use serde_json::Value;

use crate::config::observed::{LawFrom, Observed};
use crate::model::observed::TraceFormat;
use crate::output::{fmt, Report, Section};

/// One quantile of the per-period rate.
#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
pub struct ObservedQuantile {
    /// The quantile's level, a probability: 0.5, 0.99, 0.999.
    pub q: f64,
    /// The per-period rate there, likes/s.
    pub rate: f64,
    /// At least 10 periods are expected above it.
    pub supported: bool,
}

/// The `observed_traffic` object.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ObservedTraffic {
    /// The files read, as given.
    pub files: Vec<String>,
    /// `csv`, `cloudwatch` or `prometheus`.
    pub format: String,
    /// The period detected, seconds (1: per-second data).
    pub period_seconds: u64,
    /// Periods with a value.
    pub points: usize,
    /// The first point's time, Unix seconds.
    pub start_time: i64,
    /// The last point's time, Unix seconds.
    pub end_time: i64,
    /// Runs of missing periods.
    pub gaps: usize,
    /// Periods missing in all the gaps.
    pub gap_periods: u64,
    /// Prometheus: series added (1 for the other formats).
    pub series_summed: usize,
    /// CloudWatch: the result's `Id`.
    pub metric_id: Option<String>,
    /// The mean per-second rate over the trace, likes/s.
    pub mean_rate: f64,
    /// The largest per-second rate (for coarser data a period's average),
    /// likes/s.
    pub peak_rate: f64,
    /// When the largest rate was seen, Unix seconds.
    pub peak_time: i64,
    /// The per-period rate at 0.5, 0.99 and 0.999.
    pub quantiles: Vec<ObservedQuantile>,
    /// Per-second data: the sample variance of the counts, likes^2 (null
    /// when coarser).
    pub variance: Option<f64>,
    /// The variance over the mean, a ratio (1 for Poisson traffic; null
    /// when coarser).
    pub variance_to_mean: Option<f64>,
    /// The Gamma shape fitted from per-second counts (null when not
    /// overdispersed or coarser).
    pub fitted_dispersion: Option<f64>,
    /// The law the plan uses: `fixed`, `poisson` or `gamma-poisson`.
    pub law: String,
    /// Where the law came from: `fitted`, `assumed` or `given`.
    pub law_from: LawFrom,
    /// The Gamma shape the plan uses, a pure number (null when the law has
    /// none).
    pub dispersion: Option<f64>,
    /// Where the dispersion came from: `fitted`, `assumed` or `given` (null
    /// when none).
    pub dispersion_from: Option<LawFrom>,
}

impl ObservedTraffic {
    /// The block's data from a resolved trace.
    pub fn new(o: &Observed) -> ObservedTraffic {
        let f = &o.fit;
        let (law, law_from, dispersion_from) = o.law.unwrap_or((
            crate::model::law::TrafficModel::Poisson,
            LawFrom::Assumed,
            None,
        ));
        ObservedTraffic {
            files: o.files.clone(),
            format: match o.format {
                TraceFormat::Csv => "csv",
                TraceFormat::CloudWatch => "cloudwatch",
                TraceFormat::Prometheus => "prometheus",
            }
            .into(),
            period_seconds: f.period_seconds,
            points: f.periods,
            start_time: o.span.0,
            end_time: o.span.1,
            gaps: o.gaps,
            gap_periods: f.gap_periods,
            series_summed: o.series_summed,
            metric_id: o.metric_id.clone(),
            mean_rate: f.mean_rate,
            peak_rate: f.peak_rate,
            peak_time: f.peak_time,
            quantiles: f
                .quantile_rates
                .iter()
                .map(|q| ObservedQuantile {
                    q: q.q,
                    rate: q.rate,
                    supported: q.supported,
                })
                .collect(),
            variance: f.variance(),
            variance_to_mean: f.variance_to_mean(),
            fitted_dispersion: f.dispersion(),
            law: law.name().to_string(),
            law_from,
            dispersion: law.dispersion(),
            dispersion_from,
        }
    }

    /// The block for tables and Markdown.
    pub fn sections(&self) -> Vec<Section> {
        vec![
            Section::pairs("Observed traffic", self.rows()),
            Section::Note(
                "Independent seconds do not capture a burst that lasts minutes (a push \
                 notification): plan for one with --growth, or simulate it as a time line."
                    .into(),
            ),
        ]
    }

    /// The block's rows: the trace, its rates, its dispersion and the law.
    fn rows(&self) -> Vec<(&'static str, String)> {
        let per_second = self.period_seconds == 1;
        let mut rows = vec![
            ("files", self.files.join(", ")),
            ("format", self.format_words()),
            (
                "period",
                match per_second {
                    true => "per second".to_string(),
                    false => format!("per {} s", fmt::count(self.period_seconds)),
                },
            ),
            ("points", self.points_words()),
            ("gaps", self.gaps_words()),
            (
                "mean rate",
                format!("{} likes/s", fmt::rate(self.mean_rate)),
            ),
            ("peak rate (the observed rate)", self.peak_words()),
        ];
        rows.extend(self.quantile_rows());
        rows.extend(self.dispersion_rows());
        match per_second {
            true => rows.push(("traffic law", self.law_words())),
            false => rows.push(("within each period", self.law_words())),
        }
        rows
    }

    /// The trace's format, and what its values are.
    fn format_words(&self) -> String {
        match self.format.as_str() {
            "csv" => "CSV time,count".to_string(),
            "cloudwatch" => match &self.metric_id {
                Some(id) => format!("CloudWatch get-metric-data (Id {id})"),
                None => "CloudWatch get-metric-data".to_string(),
            },
            _ => {
                let mut s = "Prometheus query_range: values are per-second rates, as rate() \
                             returns"
                    .to_string();
                if self.series_summed > 1 {
                    s.push_str(&format!("; {} series summed", self.series_summed));
                }
                s
            }
        }
    }

    /// The points, from when to when, and the span they cover.
    fn points_words(&self) -> String {
        format!(
            "{} from {} to {} ({})",
            fmt::count(self.points as u64),
            utc(self.start_time),
            utc(self.end_time),
            fmt::rough_duration((self.end_time - self.start_time) as f64)
        )
    }

    /// The runs of missing periods, reported, not filled.
    fn gaps_words(&self) -> String {
        match self.gaps {
            0 => "none".to_string(),
            n => format!(
                "{n} ({} missing periods, reported, not filled)",
                fmt::count(self.gap_periods)
            ),
        }
    }

    /// The peak rate, when it came, and what kind of peak it is.
    fn peak_words(&self) -> String {
        let busiest = match (self.period_seconds == 1, self.format.as_str()) {
            (_, "prometheus") => "the largest rate() value".to_string(),
            (true, _) => "busiest second".to_string(),
            (false, _) => format!("busiest {} s period's average", self.period_seconds),
        };
        format!(
            "{} likes/s at {} ({busiest})",
            fmt::rate(self.peak_rate),
            utc(self.peak_time)
        )
    }

    /// p50, p99 and p99.9 of the per-period rate, each marked when the
    /// trace is too short to support it.
    fn quantile_rows(&self) -> Vec<(&'static str, String)> {
        self.quantiles
            .iter()
            .zip(["p50", "p99", "p99.9"])
            .map(|(q, label)| {
                let mut v = format!("{} likes/s", fmt::rate(q.rate));
                if !q.supported {
                    v.push_str(" (too short to support)");
                }
                (label, v)
            })
            .collect()
    }

    /// Per-second data: the variance, its ratio to the mean and the Gamma
    /// shape fitted (none when coarser).
    fn dispersion_rows(&self) -> Vec<(&'static str, String)> {
        let (Some(var), Some(ratio)) = (self.variance, self.variance_to_mean) else {
            return Vec::new();
        };
        vec![
            ("variance per second", fmt::num(var)),
            ("variance-to-mean", format!("{ratio:.3} (1 for Poisson)")),
            (
                "dispersion",
                match self.fitted_dispersion {
                    Some(k) => format!("K = {} (Gamma shape fitted)", fmt::num(k)),
                    None => "not overdispersed: Poisson".to_string(),
                },
            ),
        ]
    }

    /// The law the plan uses, where it came from, and its dispersion.
    fn law_words(&self) -> String {
        let k = match (self.dispersion, self.dispersion_from) {
            (Some(k), Some(f)) => format!(", dispersion {} ({})", fmt::num(k), from_words(f)),
            _ => String::new(),
        };
        format!("{} ({}){k}", self.law, from_words(self.law_from))
    }
}

fn from_words(f: LawFrom) -> &'static str {
    match f {
        LawFrom::Fitted => "fitted",
        LawFrom::Assumed => "assumed",
        LawFrom::Given => "given",
    }
}

/// Unix seconds as RFC 3339 UTC (`2026-03-14T19:02:11Z`).
pub fn utc(t: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(t) {
        Ok(d) => format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            d.year(),
            u8::from(d.month()),
            d.day(),
            d.hour(),
            d.minute(),
            d.second()
        ),
        Err(_) => format!("{t} (Unix seconds)"),
    }
}

/// A command's report with the observed-traffic block: after the first
/// section (the headline) in tables, `observed_traffic` in JSON (a list
/// result goes under `rows` beside it).
pub struct WithObserved<'a> {
    /// The command's own report.
    pub report: &'a dyn Report,
    /// The block, when the command read a trace.
    pub observed: Option<ObservedTraffic>,
}

impl Report for WithObserved<'_> {
    fn rows(&self) -> Vec<Value> {
        self.report.rows()
    }

    fn csv_rows(&self) -> Vec<Value> {
        self.report.csv_rows()
    }

    fn json(&self) -> Value {
        let v = self.report.json();
        let Some(o) = &self.observed else {
            return v;
        };
        super::json_with(v, "observed_traffic", crate::output::row(o))
    }

    fn sections(&self) -> Vec<Section> {
        let mut out = self.report.sections();
        if let Some(o) = &self.observed {
            let at = out.len().min(1);
            out.splice(at..at, o.sections());
        }
        out
    }

    fn tsv(&self) -> Option<Vec<u8>> {
        self.report.tsv()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_times_are_rfc3339() {
        assert_eq!(super::utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::utc(1_773_514_931), "2026-03-14T19:02:11Z");
    }
}
