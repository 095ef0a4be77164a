//! Prints `model rate shards c ln_cdf ln_sf` for the `(model, rate, shards,
//! c)` lines read from stdin, so an outside tool (scripts/check_exact.py)
//! can compare the exact module against an independent computation.

use std::io::BufRead;

use shardplan::model::exact::BusiestShard;
use shardplan::model::law::TrafficModel;

fn main() -> anyhow::Result<()> {
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 4 {
            continue;
        }
        let model = if f[0] == "poisson" {
            TrafficModel::Poisson
        } else {
            TrafficModel::Fixed
        };
        let (rate, shards, c): (f64, u64, u64) = (f[1].parse()?, f[2].parse()?, f[3].parse()?);
        let d = BusiestShard::new(rate, shards, model)?;
        println!(
            "{} {rate} {shards} {c} {:e} {:e} {:e}",
            f[0],
            d.ln_cdf(c),
            d.ln_sf(c),
            d.mean()
        );
    }
    Ok(())
}
