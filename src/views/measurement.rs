//! A measurement file (`report --measure`, either store) in words: what
//! was measured, the figures, and the machine it ran on.

use crate::measure::{Measurement, RedisSummary};
use crate::output::{fmt, Section};

use super::measure_postgres::{designs_grid, machine_line};

/// The paragraph that opens the report's measurement section.
pub fn intro(file: &str, m: &Measurement) -> String {
    match m {
        Measurement::Redis(_) => format!(
            "Measured with `shardplan measure --redis` ({file}): INCRs on one key, then on the shard \
             keys, from concurrent connections. The one key's rate is what `--cap-from-measure` \
             takes as the cap per key. A rate is the machine's as much as the store's: the machine \
             is below."
        ),
        Measurement::Postgres(_) => format!(
            "Measured with `shardplan measure --postgres` ({file}): one counter row, sharded rows and \
             one row per like, from concurrent connections. The single row's rate is the hot-row rate \
             `--cap-from-measure` takes as the cap per key; its lock waits show writers queueing on \
             the row lock. A rate is the machine's as much as the store's: the machine is below."
        ),
        Measurement::Durability(d) => format!(
            "Measured with `shardplan measure --design {}` ({file}): the {} design driven at {} \
             likes/s on a real {}{}, every like accounted for against the count read back after \
             the run.",
            d.design.name(),
            d.design.name(),
            fmt::rate(d.rate),
            if d.store == "postgres" { "PostgreSQL" } else { "Redis" },
            match &d.fault {
                Some(f) => format!(
                    ", with a fault at {} s",
                    fmt::num((f.at_seconds * 10.0).round() / 10.0)
                ),
                None => ", without a fault".into(),
            }
        ),
    }
}

/// The measurement's tables.
pub fn sections(m: &Measurement) -> Vec<Section> {
    match m {
        Measurement::Durability(d) => super::durability::sections(d),
        Measurement::Redis(r) => redis(r),
        Measurement::Postgres(p) => {
            let mut out = vec![
                Section::pairs(
                    "Measurement",
                    vec![
                        ("store", "PostgreSQL".into()),
                        ("server", p.postgres.clone()),
                        (
                            "clients / shard rows",
                            format!("{} / {}", p.clients, p.shards),
                        ),
                        ("machine", machine_line(&p.machine)),
                    ],
                ),
                designs_grid(&p.designs),
            ];
            if !p.counts_match {
                out.push(Section::Warning(
                    "WARNING: a design's count did not match its writes acknowledged.".into(),
                ));
            }
            out
        }
    }
}

fn redis(r: &RedisSummary) -> Vec<Section> {
    let phase = |ops: f64, p50: f64, p99: f64| {
        format!(
            "{} INCR/s (p50 {p50:.3} / p99 {p99:.3} ms)",
            fmt::num(ops.round())
        )
    };
    let mut out = vec![Section::pairs(
        "Measurement",
        vec![
            ("store", "Redis".into()),
            (
                "server",
                format!("{}{}", r.redis, if r.cluster { " (cluster)" } else { "" }),
            ),
            (
                "clients / shard keys",
                format!("{} / {}", r.clients, r.shards),
            ),
            (
                "one key",
                phase(
                    r.single_ops_per_second,
                    r.single_latency.p50_ms,
                    r.single_latency.p99_ms,
                ),
            ),
            (
                "shard keys",
                phase(
                    r.sharded_ops_per_second,
                    r.sharded_latency.p50_ms,
                    r.sharded_latency.p99_ms,
                ),
            ),
            (
                "machine",
                r.machine
                    .as_ref()
                    .map(machine_line)
                    .unwrap_or_else(|| "not recorded in this file".into()),
            ),
        ],
    )];
    if let Some(d) = &r.durability {
        out.push(Section::Note(super::durability::loss_line(d)));
    }
    if !r.counts_match {
        out.push(Section::Warning(
            "WARNING: the measurement's counts did not match the INCRs sent.".into(),
        ));
    }
    out
}
