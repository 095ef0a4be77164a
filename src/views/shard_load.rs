//! The "Load on the shards" block of `measure` (both stores): the picker,
//! each shard's total at the end, the busiest shard a second as the
//! server's counts, sampled each second, give it, and the model's figure
//! for the same inputs beside it (JSON `shard_load_model`).

use serde_json::{Map, Value};

use crate::measure::ShardLoad;
use crate::model::picker::expected::{ModelFigure, RateFrom, ShardLoadModel};
use crate::model::picker::Picker;
use crate::output::{fmt, row, Section};

/// The figure for a run's `picker` over `shards` shards from `servers`
/// servers, at the rate of the seconds sampled in `load`, else at the
/// phases' mean rate `phase_rate`.
pub fn model_of(picker: Picker, load: &ShardLoad, phase_rate: f64, servers: u64) -> ShardLoadModel {
    let shards = load.totals.len() as u64;
    let (n, from) = match load.mean_per_shard_per_second {
        Some(mean) => (mean * shards as f64, RateFrom::SecondsSampled),
        None => (phase_rate, RateFrom::PhaseMean),
    };
    ShardLoadModel::new(picker, n, from, shards, servers)
}

/// The figure in words.
fn model_words(m: &ShardLoadModel, shards: u64) -> String {
    let at = format!(
        "{} likes/s (the {})",
        fmt::num(m.likes_per_second.round()),
        match m.rate_from {
            RateFrom::SecondsSampled => "seconds sampled",
            RateFrom::PhaseMean => "phases' mean",
        }
    );
    let per = fmt::num((m.busiest_per_second * 10.0).round() / 10.0);
    match m.figure {
        ModelFigure::RoundRobinBound => format!(
            "at most {per} a second: round-robin's bound at {at} from {} servers",
            m.servers
        ),
        ModelFigure::StickyFullestShard => format!(
            "{per} a second: the fullest shard's share of {} sticky servers on {shards} \
             shards, at {at}, if every server sends alike",
            m.servers
        ),
        ModelFigure::MeanPerShard => format!(
            "{per} a second: the mean per shard at {at}; the busiest of a second is above \
             it by how unevenly the second splits"
        ),
    }
}

/// The block as flat CSV columns, the same ones whether or not a second
/// was sampled (the per-shard totals stay in JSON).
pub fn csv_columns(load: &ShardLoad, model: &ShardLoadModel) -> Map<String, Value> {
    let b = load.busiest_per_second;
    let mut m = Map::new();
    let mut put = |k: &str, v: Value| {
        m.insert(k.to_string(), v);
    };
    put("shard_load_total_min", load.total_min.into());
    put("shard_load_total_max", load.total_max.into());
    put("shard_load_total_spread", load.total_spread.into());
    put("shard_load_seconds_sampled", load.seconds_sampled.into());
    put(
        "shard_load_busiest_per_second_mean",
        b.map(|b| b.mean).into(),
    );
    put("shard_load_busiest_per_second_p99", b.map(|b| b.p99).into());
    put("shard_load_busiest_per_second_max", b.map(|b| b.max).into());
    put(
        "shard_load_mean_per_shard_per_second",
        load.mean_per_shard_per_second.into(),
    );
    if let Value::Object(fields) = row(model) {
        for (k, x) in fields {
            put(&format!("shard_load_model_{k}"), x);
        }
    }
    m
}

/// How each client chose its shard, in words.
fn picker_line(picker: Picker, clients: u64) -> String {
    match picker {
        Picker::Random => "random: each write to a uniformly random shard".into(),
        p => format!(
            "{}: each of the {clients} clients is one app server",
            p.name()
        ),
    }
}

/// What a store calls its shards and where the totals were read.
pub struct Words {
    /// `keys` or `rows`.
    pub shards: &'static str,
    /// When the totals were read, e.g. `after the last sharded phase,
    /// warm-up included`.
    pub totals_when: &'static str,
}

/// The block's section.
pub fn section(
    picker: Picker,
    clients: u64,
    load: &ShardLoad,
    model: &ShardLoadModel,
    words: &Words,
) -> Section {
    let shards = load.totals.len() as u64;
    let busiest = match (&load.busiest_per_second, load.mean_per_shard_per_second) {
        (Some(b), Some(mean)) => format!(
            "mean {}, p99 {}, max {} over {} seconds sampled (the mean shard: {})",
            fmt::num((b.mean * 10.0).round() / 10.0),
            fmt::num(b.p99 as f64),
            fmt::num(b.max as f64),
            load.seconds_sampled,
            fmt::num((mean * 10.0).round() / 10.0)
        ),
        _ => "no whole second sampled (each phase shorter than a second)".into(),
    };
    Section::pairs(
        "Load on the shards",
        vec![
            ("picker", picker_line(picker, clients)),
            (
                "per-shard totals",
                format!(
                    "min {}, max {}, max - min {} over {shards} {} ({})",
                    fmt::num(load.total_min as f64),
                    fmt::num(load.total_max as f64),
                    fmt::num(load.total_spread as f64),
                    words.shards,
                    words.totals_when
                ),
            ),
            ("busiest shard a second", busiest),
            ("model", model_words(model, shards)),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_picker_gets_its_figure() {
        let at = |p, n, s, k| ShardLoadModel::new(p, n, RateFrom::PhaseMean, s, k);
        let rr = at(Picker::RoundRobin, 14_000.0, 20, 40);
        assert_eq!(rr.figure, ModelFigure::RoundRobinBound);
        // 700 + 40 x 19 / 20 = 738.
        assert_eq!(rr.busiest_per_second, 738.0);
        let sticky = at(Picker::Sticky, 3_000.0, 20, 30);
        // 30 servers on 20 shards: 10 shards take two servers' likes.
        assert_eq!(sticky.busiest_per_second, 200.0);
        let few = at(Picker::Sticky, 3_000.0, 20, 8);
        assert_eq!(few.busiest_per_second, 375.0);
        for p in [Picker::Random, Picker::TwoChoice, Picker::UserHash] {
            let m = at(p, 14_000.0, 20, 40);
            assert_eq!(
                (m.figure, m.busiest_per_second),
                (ModelFigure::MeanPerShard, 700.0)
            );
        }
        assert!(model_words(&rr, 20).starts_with("at most 738 a second"));
        // The seconds sampled's rate where there are any.
        let mut load = ShardLoad {
            totals: vec![10; 20],
            total_min: 10,
            total_max: 10,
            total_spread: 0,
            seconds_sampled: 3,
            busiest_per_second: None,
            mean_per_shard_per_second: Some(690.0),
        };
        let m = model_of(Picker::RoundRobin, &load, 14_000.0, 40);
        assert_eq!(
            (m.likes_per_second, m.rate_from),
            (13_800.0, RateFrom::SecondsSampled)
        );
        load.mean_per_shard_per_second = None;
        let m = model_of(Picker::RoundRobin, &load, 14_000.0, 40);
        assert_eq!(
            (m.likes_per_second, m.rate_from),
            (14_000.0, RateFrom::PhaseMean)
        );
    }
}
