//! The three designs' run itself (built with the `postgres` feature).

use super::designs::{count_sql, load_phase, shard_rows_sql};
use crate::error::SchemaInterrupted;
use crate::measure::machine::Machine;
use crate::measure::shard_load::ShardLoad;
use anyhow::anyhow;
use std::time::Instant;

use super::{conn, redact, schema, Design, DesignResult, PgConfig, PgMeasureReport};

/// Run the three designs against the server in `config`.
///
/// Errors: a bad config or a schema that already exists come back as an
/// [`InputError`](crate::error::InputError) inside the `anyhow::Error`
/// (exit code 2); a run stopped by a signal as [`SchemaInterrupted`]
/// after the schema is dropped; a server that is down or fails is a plain
/// error (with the drop's failure in the same line, if it failed too).
pub fn run(config: &PgConfig) -> anyhow::Result<PgMeasureReport> {
    config.validate()?;
    let run_id = {
        use rand::RngExt;
        format!("{:08x}", rand::rng().random::<u32>())
    };
    let schema = config
        .schema
        .clone()
        .unwrap_or_else(|| format!("shardplan_{run_id}"));
    let mut admin = conn::open(config, &format!("{}-admin", conn::load_name(&run_id)))?;
    schema::create(&mut admin, &schema, config.shards)?;
    let result = measure(config, &mut admin, &run_id, &schema);
    // Drop the schema also when the measurement failed half way: a failed
    // run leaves nothing of its own behind (if the server still answers).
    let dropped = schema::drop(&mut admin, &schema);
    if let Some(signal) = crate::output::interrupt::received() {
        dropped?;
        return Err(SchemaInterrupted { signal, schema }.into());
    }
    let left = |d: anyhow::Error| {
        anyhow!("{d:#} (schema {schema} is left on the server: DROP SCHEMA {schema} CASCADE removes it)")
    };
    match (result, dropped) {
        (Ok(mut report), Ok(())) => {
            report.schema_dropped = true;
            Ok(report)
        }
        (Ok(_), Err(d)) => Err(left(d)),
        (Err(e), Ok(())) => Err(e),
        (Err(e), Err(d)) => Err(anyhow!("{e:#}; then {:#}", left(d))),
    }
}

/// A setting of the session, as `SHOW` gives it.
pub fn show(admin: &mut postgres::Client, setting: &str) -> anyhow::Result<String> {
    Ok(admin
        .query_one(&format!("SHOW {setting}"), &[])
        .map_err(|e| anyhow!("asking the server's {setting}: {}", conn::describe(&e)))?
        .get(0))
}

/// The three phases and their counts, in the schema [`run`] created.
fn measure(
    config: &PgConfig,
    admin: &mut postgres::Client,
    run_id: &str,
    schema: &str,
) -> anyhow::Result<PgMeasureReport> {
    let version: String = admin
        .query_one("SHOW server_version", &[])
        .map_err(|e| anyhow!("asking the server's version: {}", conn::describe(&e)))?
        .get(0);
    let synchronous_commit = show(admin, "synchronous_commit")?;
    let mut results = Vec::new();
    let mut shard_load = None;
    for (i, design) in Design::ALL.into_iter().enumerate() {
        if crate::output::interrupt::received().is_some() {
            break;
        }
        let phase = load_phase(config, run_id, schema, design, i as u64)?;
        if design == Design::ShardedRows {
            let totals: Vec<i64> = admin
                .query(&shard_rows_sql(schema), &[])
                .map_err(|e| anyhow!("reading the shard rows: {}", conn::describe(&e)))?
                .iter()
                .map(|r| r.get(0))
                .collect();
            shard_load = Some(ShardLoad::new(totals, &phase.sampled));
        }
        let t = Instant::now();
        let count_read: i64 = admin
            .query_one(&count_sql(design, schema), &[])
            .map_err(|e| {
                anyhow!(
                    "reading the {} count: {}",
                    design.name(),
                    conn::describe(&e)
                )
            })?
            .get(0);
        let read_ms = t.elapsed().as_secs_f64() * 1e3;
        let q = |p: f64| phase.histogram.value_at_quantile(p) as f64 / 1e3;
        results.push(DesignResult {
            design,
            writes_acknowledged: phase.sent,
            seconds: phase.seconds,
            ops_per_second_mean: phase.sent as f64 / phase.seconds,
            latency_p50_ms: q(0.50),
            latency_p99_ms: q(0.99),
            latency_max_ms: phase.histogram.max() as f64 / 1e3,
            lock_waits: phase.waits.waiting,
            lock_wait_samples: phase.waits.samples,
            lock_sample_max_gap_ms: phase.waits.max_gap.as_secs_f64() * 1e3,
            count_read,
            read_ms,
            counts_match: count_read == phase.sent as i64,
            durability: Some(crate::measure::durability::Durability::clean(
                phase.sent, count_read,
            )),
        });
    }
    Ok(PgMeasureReport {
        store: "postgres".into(),
        postgres: redact(&config.url),
        run_id: run_id.to_string(),
        schema: schema.to_string(),
        schema_dropped: false, // set by `run` after the drop
        shards: config.shards,
        clients: config.clients,
        counts_match: results.iter().all(|d| d.counts_match),
        synchronous_commit: Some(synchronous_commit),
        designs: results,
        machine: Machine::here(Some(version)),
        picker: config.picker,
        shard_load,
    })
}
