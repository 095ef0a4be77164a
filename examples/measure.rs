//! Stand-in for `shardplan measure` until the CLI wires it: prints the
//! report as JSON.
//!
//! cargo run --profile test --example measure -- URL cluster|standalone SHARDS CLIENTS SECONDS PIPELINE TEMPLATE

use std::time::Duration;

use shardplan::measure::{parse_duration, run, MeasureConfig};

fn main() -> anyhow::Result<()> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.len() != 7 {
        anyhow::bail!(
            "usage: measure URL cluster|standalone SHARDS CLIENTS DURATION PIPELINE TEMPLATE"
        );
    }
    let duration: Duration = parse_duration("--duration", &a[4])?;
    let config = MeasureConfig::new(
        &a[0],
        a[1] == "cluster",
        a[2].parse()?,
        a[3].parse()?,
        duration,
        None,
        a[5].parse()?,
        &a[6],
    )?;
    let report = run(&config)?;
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}
