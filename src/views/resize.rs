//! `resize`'s view: what the worst reader shows during a grow, and the reads
//! taken mid-fold during a shrink.

use serde_json::{json, Value};

use crate::model::timeline::resize::{GrowReport, ShrinkReport, ShrinkRow};
use crate::output::{fmt, row, Report, Section};

/// `resize`: a grow (arithmetic and a seeded simulation) or a shrink.
pub enum ResizeView {
    /// A grow: the arithmetic and a seeded simulation.
    Grow {
        /// What the arithmetic expects.
        expected: GrowReport,
        /// What one seeded run shows.
        simulated: GrowReport,
    },
    /// A shrink, with every read taken during it.
    Shrink {
        /// The shrink's figures.
        report: ShrinkReport,
        /// The reads.
        reads: Vec<ShrinkRow>,
    },
}

impl Report for ResizeView {
    fn rows(&self) -> Vec<Value> {
        match self {
            ResizeView::Grow {
                expected,
                simulated,
            } => vec![row(expected), row(simulated)],
            ResizeView::Shrink { report, .. } => vec![row(report)],
        }
    }

    fn json(&self) -> Value {
        match self {
            ResizeView::Grow {
                expected,
                simulated,
            } => {
                let mut v = row(expected);
                v["simulated"] = row(simulated);
                v
            }
            ResizeView::Shrink { report, reads } => {
                let mut v = row(report);
                v["reads_seen"] = json!(reads);
                v
            }
        }
    }

    fn sections(&self) -> Vec<Section> {
        match self {
            ResizeView::Grow {
                expected,
                simulated,
            } => vec![
                grow_section(expected),
                worst_reader_section(expected, simulated),
                grow_verdict(expected),
            ],
            ResizeView::Shrink { report, reads } => {
                vec![shrink_section(report), mid_fold_section(reads)]
            }
        }
    }
}

/// The grow: from and to, the order the settings change in, the likes and
/// how long a reader may hold stale settings.
fn grow_section(e: &GrowReport) -> Section {
    Section::pairs(
        "Grow",
        vec![
            (
                "shards",
                format!("{} -> {}", fmt::count(e.from), fmt::count(e.to)),
            ),
            ("order", e.order.name().to_string()),
            (
                "likes before / during",
                format!(
                    "{} / {}",
                    fmt::count(e.likes_before),
                    fmt::count(e.likes_after)
                ),
            ),
            (
                "settings TTL",
                format!(
                    "{} s (a stale reader for up to {} s)",
                    e.settings_ttl_seconds, e.stale_window_seconds
                ),
            ),
        ],
    )
}

/// What the worst reader shows at the end: the arithmetic's expectation
/// and one seeded run.
fn worst_reader_section(expected: &GrowReport, simulated: &GrowReport) -> Section {
    Section::Grid {
        title: "What the worst reader shows at the end".into(),
        header: [
            "method",
            "displayed",
            "true",
            "lowest ratio",
            "highest ratio",
            "seconds undercounted",
        ]
        .map(String::from)
        .to_vec(),
        rows: [
            ("expected (arithmetic)", expected),
            ("simulated (seed)", simulated),
        ]
        .iter()
        .map(|(name, r)| {
            vec![
                match r.seed {
                    Some(seed) => format!("simulated (seed {seed})"),
                    None => name.to_string(),
                },
                fmt::num(r.displayed_total),
                fmt::count(r.true_total),
                format!("{:.4}", r.min_displayed_ratio),
                format!("{:.4}", r.max_displayed_ratio),
                r.undercount_seconds.to_string(),
            ]
        })
        .collect(),
        secondary: Vec::new(),
    }
}

/// Whether a reader undercounts during the grow, and the order that
/// avoids it.
fn grow_verdict(e: &GrowReport) -> Section {
    if e.min_displayed_ratio < 1.0 {
        Section::Warning(format!(
            "UNDERCOUNT: a server still holding read_shards = {} sums only the old shards; raise read_shards first, then write_shards after every cache has expired.",
            e.from
        ))
    } else {
        Section::Note("No undercount: readers already sum every shard a writer may use.".into())
    }
}

/// The shrink: the fold and the read modes, and the totals readers saw.
fn shrink_section(r: &ShrinkReport) -> Section {
    Section::pairs(
        "Shrink",
        vec![
            (
                "shards",
                format!("{} -> {}", fmt::count(r.from), fmt::count(r.to)),
            ),
            ("fold", r.fold.name().to_string()),
            ("read", r.read.name().to_string()),
            ("true total", fmt::count(r.true_total)),
            (
                "folds / reads",
                format!("{} / {}", fmt::count(r.folds), fmt::count(r.reads)),
            ),
            ("reads showing a wrong total", fmt::count(r.wrong_reads)),
            ("transactional reads retried", fmt::count(r.read_retries)),
            (
                "displayed range",
                format!(
                    "{} to {} (ratio {:.4} to {:.4})",
                    fmt::count(r.min_displayed_total),
                    fmt::count(r.max_displayed_total),
                    r.min_displayed_ratio,
                    r.max_displayed_ratio
                ),
            ),
        ],
    )
}

/// The first five reads taken while a shard was being folded.
fn mid_fold_section(reads: &[ShrinkRow]) -> Section {
    Section::Grid {
        title: "Reads taken mid-fold".into(),
        header: ["read", "folding shard", "displayed", "true"]
            .map(String::from)
            .to_vec(),
        rows: reads
            .iter()
            .filter(|x| x.mid_fold)
            .take(5)
            .map(|x| {
                vec![
                    x.read.to_string(),
                    x.folding_shard.map(|s| s.to_string()).unwrap_or_default(),
                    fmt::count(x.displayed_total),
                    fmt::count(x.true_total),
                ]
            })
            .collect(),
        secondary: Vec::new(),
    }
}
