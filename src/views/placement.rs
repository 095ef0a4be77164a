//! Where shard keys land: Redis Cluster slots and nodes, sorted-store key
//! order, partitions of a hashed store, and the store presets.

use serde_json::{json, Value};

use crate::model::partitions::{PartitionAssumption, PartitionReport, RiskMethod};
use crate::model::placement::{ClusterRead, KeyPlacement, KeysReport, PlacementWarning};
use crate::model::placement::{SortedKey, SortedReport, REDIS_SLOTS};
use crate::output::{fmt, row, Report, Section};

/// How a read of the total is served, in words (`read_note` in JSON).
pub fn read_note(read: &ClusterRead) -> String {
    let grouped = |pipelines: &Option<u64>| match pipelines {
        Some(n) => format!(
            ", pipelined and grouped per node ({} in parallel)",
            fmt::counted(*n, "pipeline", "pipelines")
        ),
        None => String::new(),
    };
    match read {
        ClusterRead::OneSlot { keys, slot } => format!(
            "all {keys} keys share slot {slot}: one MGET reads them, but every write goes to one node"
        ),
        ClusterRead::GetPerKey { gets, pipelines } => format!(
            "MGET across slots fails with CROSSSLOT, so a read is {}{}",
            fmt::counted(*gets, "GET", "GETs"),
            grouped(pipelines)
        ),
        ClusterRead::MgetPerSlot { mgets, pipelines } => format!(
            "MGET across slots fails with CROSSSLOT, so a read is one MGET per slot: {}{}",
            fmt::counted(*mgets, "command", "commands"),
            grouped(pipelines)
        ),
    }
}

/// One placement warning as the loud line `--check` and the views print.
pub fn warning_text(w: &PlacementWarning) -> String {
    match w {
        PlacementWarning::SharedSlot {
            shards,
            of,
            slot,
            slot_shards,
            share,
            by_hash_tag,
        } => {
            let why = if *by_hash_tag {
                "the hash tag {...} is hashed instead of the whole key".to_string()
            } else {
                format!("their CRC16 values collide mod {REDIS_SLOTS}")
            };
            format!(
                "SHARED SLOT: {shards} of {of} shard keys share a slot with another shard (slot {slot} holds \
                 {slot_shards}, {:.1}% of the writes); {why}, so those shards' writes all go to one node. \
                 Fix: put the shard number inside the tag (e.g. {{reel:8841:<shard>}}:likes) or drop the tag.",
                100.0 * share
            )
        }
        PlacementWarning::NodeOverShare {
            node,
            nodes,
            shards,
            of,
            share,
            fair_shards,
            fair_share,
        } => format!(
            "NODE OVER ITS SHARE: node {node} of {nodes} holds {} of {} shards ({} of the writes), \
             more than ceil(S/N) = {} ({})",
            fmt::count(*shards),
            fmt::count(*of),
            fmt::percent(*share),
            fmt::count(*fair_shards),
            fmt::percent(*fair_share)
        ),
        PlacementWarning::ContiguousKeys {
            shards,
            prefix,
            shard_first_template,
        } => format!(
            "CONTIGUOUS KEYS: the {shards} shard keys share the prefix '{prefix}' and likely sit in one tablet; \
             use '{shard_first_template}'"
        ),
    }
}

/// A Redis Cluster placement's warnings (`warnings` in JSON): each
/// `--check` failure, then the suggested template if there is one.
pub fn keys_warnings(r: &KeysReport) -> Vec<String> {
    let fix = |t: &String| format!("suggested template: '{t}' (no shared slot)");
    let lines = r.warnings.iter().map(warning_text);
    lines.chain(r.suggested_template.iter().map(fix)).collect()
}

/// What a sorted store's key order means for the shards (`note` in JSON).
pub fn sorted_note(r: &SortedReport) -> String {
    if r.contiguous {
        format!(
            "all {} shard keys start with '{}', so they sort next to each other and likely share one tablet \
             (one node) until the store splits it; put the shard number first: '{}' (pad {})",
            fmt::count(r.shards),
            r.shared_prefix,
            r.shard_first_template,
            r.shard_first_pad
        )
    } else {
        "the shard number comes first, so other counters' keys sort between the shards and they spread over the key range"
            .to_string()
    }
}

/// One assumption of the partition model, in words (`notes` in JSON).
pub fn assumption_text(a: PartitionAssumption) -> &'static str {
    match a {
        PartitionAssumption::UniformHashing => {
            "assumes each shard key hashes to a uniformly random partition, independently; \
             adaptive capacity may later move busy items apart"
        }
        PartitionAssumption::PoissonLoads => {
            "Poisson traffic: partition loads are independent Poisson(rate * k / S), \
             so the cap chance is exact for each placement"
        }
        PartitionAssumption::BinomialLoadsUpperBound => {
            "fixed traffic: the cap chance is the union bound over partitions of exact \
             Binomial(rate, k / S) tails, an upper bound (multinomial loads are negatively \
             associated: taken as independent they would understate it)"
        }
        PartitionAssumption::GammaPoissonLoadsUpperBound => {
            "gamma-poisson traffic: every partition shares the second's Gamma rate, so the \
             cap chance is the union bound over partitions of exact negative binomial tails, \
             an upper bound whatever the coupling"
        }
        PartitionAssumption::EmpiricalLoadsUpperBound => {
            "empirical traffic: every partition shares the observed second's count, so the \
             cap chance is the union bound over partitions of exact mixtures of binomial \
             tails over the observed counts, an upper bound whatever the coupling"
        }
    }
}

/// `keys` for Redis Cluster: slot and node per key.
pub struct KeysView(pub KeysReport);

impl Report for KeysView {
    fn rows(&self) -> Vec<Value> {
        // CSV/TSV: one line per key, its node only when there are nodes.
        let line = |k: &KeyPlacement| match k.node {
            Some(n) => json!({"key": k.key, "slot": k.slot, "node": n}),
            None => json!({"key": k.key, "slot": k.slot}),
        };
        self.0.keys.iter().map(line).collect()
    }

    fn json(&self) -> Value {
        let r = &self.0;
        // The typed read and warnings become their words, in their places.
        let words = |(k, v): (String, Value)| match k.as_str() {
            "read" => ("read_note".into(), read_note(&r.read).into()),
            "warnings" => (k, keys_warnings(r).into()),
            _ => (k, v),
        };
        match row(r) {
            Value::Object(m) => Value::Object(m.into_iter().map(words).collect()),
            v => v,
        }
    }

    fn tsv(&self) -> Option<Vec<u8>> {
        // `key<TAB>slot[<TAB>node]` per line, the key's bytes exactly as given.
        let mut out = Vec::new();
        for k in &self.0.keys {
            out.extend_from_slice(&k.key_bytes);
            out.extend_from_slice(format!("\t{}", k.slot).as_bytes());
            if let Some(n) = k.node {
                out.extend_from_slice(format!("\t{n}").as_bytes());
            }
            out.push(b'\n');
        }
        Some(out)
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.0;
        let mut header = vec!["shard".to_string(), "key".into(), "slot".into()];
        if r.nodes.is_some() {
            header.push("node".into());
        }
        let keys = Section::Grid {
            title: "Shard keys in Redis Cluster".into(),
            header,
            rows: r
                .keys
                .iter()
                .map(|k| {
                    // The empty key (an empty line) would read as a blank cell.
                    let key = match k.key.is_empty() {
                        true => "\"\" (the empty key)".to_string(),
                        false => k.key.clone(),
                    };
                    let mut row = vec![k.shard.to_string(), key, k.slot.to_string()];
                    if let Some(n) = k.node {
                        row.push(n.to_string());
                    }
                    row
                })
                .collect(),
            secondary: Vec::new(),
        };
        let mut summary = vec![
            ("shard keys", fmt::count(r.shards)),
            ("distinct slots", fmt::count(r.distinct_slots)),
            (
                "busiest slot",
                format!(
                    "{} with {} ({} of the writes)",
                    r.busiest_slot,
                    super::verdict::shards(r.busiest_slot_shards),
                    fmt::percent(r.busiest_slot_share)
                ),
            ),
        ];
        if let (Some(n), Some(d), Some(node), Some(count), Some(share), Some(fair)) = (
            r.nodes,
            r.distinct_nodes,
            r.busiest_node,
            r.busiest_node_shards,
            r.busiest_node_share,
            r.fair_node_share,
        ) {
            summary.push(("nodes reached", format!("{d} of {n}")));
            summary.push((
                "busiest node",
                format!(
                    "node {node}: {}, {} of the writes (an even split is {})",
                    fmt::counted(count, "shard", "shards"),
                    fmt::percent(share),
                    fmt::percent(fair)
                ),
            ));
        }
        summary.push(("read", read_note(&r.read)));
        let mut out = vec![keys, Section::pairs("Placement", summary)];
        // Node balance is a note (the nodes' caps judge it: docs/verdict.md);
        // a shared slot is a warning, judged the same way.
        out.extend(r.warnings.iter().map(|w| match w {
            PlacementWarning::NodeOverShare { .. } => {
                Section::Note(format!("Note: {}", warning_text(w)))
            }
            _ => Section::Warning(format!("WARNING: {}", warning_text(w))),
        }));
        out
    }
}

/// Keys in a sorted store: contiguous or spread.
pub struct SortedView(pub SortedReport);

impl Report for SortedView {
    fn rows(&self) -> Vec<Value> {
        self.0.keys.iter().map(row).collect()
    }

    fn json(&self) -> Value {
        let mut v = row(&self.0);
        v["note"] = sorted_note(&self.0).into();
        v
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.0;
        let line = |k: &SortedKey| {
            vec![
                k.shard.to_string(),
                k.key.clone(),
                k.shard_first_key.clone(),
            ]
        };
        vec![
            Section::Grid {
                title: "Shard keys in a sorted store".into(),
                header: vec!["shard".into(), "key".into(), "shard-first key".into()],
                rows: r.keys.iter().map(line).collect(),
                secondary: Vec::new(),
            },
            Section::pairs(
                "Key order",
                vec![
                    ("contiguous (likely one tablet)", r.contiguous.to_string()),
                    ("shared prefix", format!("{:?}", r.shared_prefix)),
                    ("shard-first template", r.shard_first_template.clone()),
                ],
            ),
            match r.contiguous {
                true => Section::Warning(sorted_note(r)),
                false => Section::Note(sorted_note(r)),
            },
        ]
    }
}

/// `partitions`.
pub struct PartitionsView(pub PartitionReport);

impl Report for PartitionsView {
    fn rows(&self) -> Vec<Value> {
        // The assumptions are worded for people (JSON); CSV stays one flat row.
        let mut v = row(&self.0);
        if let Value::Object(m) = &mut v {
            m.remove("assumptions");
        }
        vec![v]
    }

    fn json(&self) -> Value {
        // `assumptions` is the last field: its words take its place.
        let mut v = self.rows().remove(0);
        let notes = self.0.assumptions.iter().map(|&a| assumption_text(a));
        v["notes"] = notes.collect();
        v
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.0;
        let method = match r.method {
            crate::model::partitions::Method::Exact => "exact".to_string(),
            crate::model::partitions::Method::MonteCarlo => format!(
                "Monte Carlo, {} placements, seed {}",
                r.trials.unwrap_or(0),
                r.seed.unwrap_or(0)
            ),
        };
        let mut rows = vec![
            (
                "shards / partitions",
                format!("{} / {}", fmt::count(r.shards), fmt::count(r.partitions)),
            ),
            (
                "P(two or more shards share a partition)",
                fmt::prob(r.p_shared_partition),
            ),
            (
                "expected partitions holding 2+ shards",
                fmt::fixed(r.expected_shared_partitions, 3),
            ),
            (
                "expected partitions holding any",
                fmt::fixed(r.expected_occupied_partitions, 3),
            ),
            (
                "busiest partition, mean shards",
                format!(
                    "{:.3} ({} of the writes; {method})",
                    r.busiest_partition_mean_shards,
                    fmt::percent(r.busiest_partition_mean_share)
                ),
            ),
        ];
        if let (Some(rate), Some(cap), Some(p)) = (r.rate, r.cap, r.partition_p_over_cap_per_second)
        {
            rows.push((
                "load",
                format!(
                    "{} likes/s, cap {} writes/s per partition",
                    fmt::rate(rate),
                    fmt::rate(cap)
                ),
            ));
            if let Some(m) = r.busiest_partition_mean_rate {
                rows.push(("busiest partition, mean writes/s", fmt::rate(m)));
            }
            let how = match r.partition_method {
                Some(RiskMethod::UpperBound) => "upper bound",
                _ => "exact",
            };
            let ln = r.partition_ln_p_over_cap_per_second.unwrap_or(f64::NAN);
            rows.push((
                "P(some partition over the cap in a second)",
                format!("{} ({how})", fmt::prob_ln(p, ln)),
            ));
        }
        let note = |&a: &PartitionAssumption| Section::Note(assumption_text(a).into());
        let mut out = vec![Section::pairs("Shards on hashed partitions", rows)];
        out.extend(r.assumptions.iter().map(note));
        out
    }
}
