//! The "Unlikes" block of `size`, `risk`, `sweep`, `simulate` and `report`
//! (JSON `unlikes`): the share, the writes it adds at the planned peak, and
//! the chance that some shard reads below zero after the cool-down.

use serde::Serialize;
use serde_json::Value;

use crate::config::sizing::Peak;
use crate::config::unlikes::UnlikePlan;
use crate::error::ParamResult;
use crate::model::unlikes::NegativeShards;
use crate::output::fmt::{self, Underflow};
use crate::output::{Report, Section};

/// The `unlikes` object.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct UnlikesBlock {
    /// Unlikes per like.
    pub unlike_share: f64,
    /// Writes one like brings: 1 + share.
    pub writes_per_like: f64,
    /// The trace (`--traffic-from`) counts write units, unlikes included:
    /// the share only splits them.
    pub counted_in_trace: bool,
    /// Planned peak likes/s.
    pub like_peak: f64,
    /// Planned peak unlikes/s.
    pub unlike_peak: f64,
    /// Planned peak writes/s: what every per-key figure counts.
    pub write_peak: f64,
    /// The chance of a shard below zero after the cool-down, unlikes on
    /// random shards.
    pub negative_shards: NegativeShards,
    /// How the app servers pick a shard.
    pub picker: crate::model::picker::Picker,
    /// Shards expected below zero after the cool-down under that picker:
    /// 0 where an unlike lands on its like's shard (user-hash), else the
    /// random placement's figure.
    pub expected_negative_shards_with_picker: f64,
}

impl UnlikesBlock {
    /// The block for `shards` shards (the count the command shows).
    pub fn new(plan: &UnlikePlan, peak: &Peak, shards: u64) -> ParamResult<Self> {
        let negative =
            plan.unlikes
                .negative_shard(plan.cool_down_seconds, plan.cool_down_rate, shards)?;
        Ok(UnlikesBlock {
            unlike_share: plan.unlikes.share,
            writes_per_like: plan.unlikes.writes_per_like(),
            counted_in_trace: plan.counted_in_trace,
            like_peak: peak.likes,
            unlike_peak: ((peak.peak - peak.likes) * 1e6).round() / 1e6,
            write_peak: peak.peak,
            expected_negative_shards_with_picker: negative.expected_negative_shards,
            negative_shards: negative,
            picker: crate::model::picker::Picker::Random,
        })
    }

    /// The block for writers that pick with `picker`.
    pub fn with_picker(mut self, picker: crate::model::picker::Picker) -> Self {
        self.picker = picker;
        if picker.unlike_follows_like() {
            self.expected_negative_shards_with_picker = 0.0;
        }
        self
    }

    /// The section and its warning.
    pub fn sections(&self) -> Vec<Section> {
        let n = &self.negative_shards;
        let writes = match self.counted_in_trace {
            true => format!(
                "{} writes/s observed = {} likes/s + {} unlikes/s (the trace counts write units)",
                fmt::rate(self.write_peak),
                fmt::rate(self.like_peak),
                fmt::rate(self.unlike_peak)
            ),
            false => format!(
                "{} likes/s + {} unlikes/s = {} writes/s",
                fmt::rate(self.like_peak),
                fmt::rate(self.unlike_peak),
                fmt::rate(self.write_peak)
            ),
        };
        let mut rows = vec![
            (
                "unlikes",
                format!(
                    "{} of likes, each a decrement on {}: a write against the cap",
                    fmt::percent(self.unlike_share),
                    routing_words(self.picker)
                ),
            ),
            ("writes at the planned peak", writes),
            (
                "every per-key figure",
                "counts writes (likes and unlikes), not likes".to_string(),
            ),
            (
                "cool-down",
                format!(
                    "{} at {} likes/s from empty shards (a new reel, shards a grow just added): \
                     {} likes a shard on average",
                    fmt::duration(n.cool_down_seconds),
                    fmt::rate(n.cool_down_rate),
                    fmt::num(n.likes_per_shard)
                ),
            ),
            (
                "P(some shard below zero after it)",
                format!(
                    "{} (exact, Poisson likes and unlikes); one shard {}; {} shards expected below zero",
                    fmt::probability(n.some_shard, Underflow::Said),
                    fmt::probability(n.one_shard, Underflow::Said),
                    fmt::num(n.expected_negative_shards)
                ),
            ),
        ];
        if !self.picker.unlike_follows_like() {
            return vec![
                Section::pairs("Unlikes", rows),
                Section::Warning(
                    "A shard can read below zero (DECR on an empty key returns -1): only the sum \
                     of the shards is the count, so never show or check one shard on its own."
                        .to_string(),
                ),
            ];
        }
        rows[0].1 = format!(
            "{} of likes, each a decrement on its like's shard (user-hash): a write against \
             the cap",
            fmt::percent(self.unlike_share)
        );
        rows[4].0 = "P(some shard below zero), random picks";
        rows.push((
            "shards below zero, user-hash",
            format!(
                "none, exactly: an unlike follows its like to the same shard (random picks: {} \
                 expected, the line above)",
                fmt::num(self.negative_shards.expected_negative_shards)
            ),
        ));
        vec![Section::pairs("Unlikes", rows)]
    }
}

/// A command's report with the unlikes block: at the end in tables,
/// `unlikes` in JSON (a list result goes under `rows` beside it).
pub struct WithUnlikes<'a> {
    /// The command's own report.
    pub report: &'a dyn Report,
    /// The block, when unlikes are planned.
    pub unlikes: Option<UnlikesBlock>,
}

impl Report for WithUnlikes<'_> {
    fn rows(&self) -> Vec<Value> {
        self.report.rows()
    }

    fn csv_rows(&self) -> Vec<Value> {
        self.report.csv_rows()
    }

    fn json(&self) -> Value {
        let v = self.report.json();
        let Some(u) = &self.unlikes else {
            return v;
        };
        super::json_with(v, "unlikes", crate::output::row(u))
    }

    fn sections(&self) -> Vec<Section> {
        let mut out = self.report.sections();
        if let Some(u) = &self.unlikes {
            out.extend(u.sections());
        }
        out
    }

    fn tsv(&self) -> Option<Vec<u8>> {
        self.report.tsv()
    }
}

/// Where an unlike's decrement lands: the picker routes it as any write.
fn routing_words(picker: crate::model::picker::Picker) -> &'static str {
    use crate::model::picker::Picker;
    match picker {
        Picker::Random => "a random shard",
        Picker::RoundRobin => "the shard at the server's cursor, as any write",
        Picker::TwoChoice => "the less written of two shards, as any write",
        Picker::Sticky => "the server's own shard, as any write",
        Picker::UserHash => "the shard of the like it undoes (the user's)",
    }
}
