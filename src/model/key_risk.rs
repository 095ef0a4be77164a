//! The per-key risk at one shard count under the plan's traffic law *and*
//! its picker: one figure, with how it is known. `risk`, `sweep`, the risk
//! chart and `report`'s risk table all show this row, so a picker's figure
//! is never shown beside (or replaced by) the random picker's law.
//!
//! The busiest shard's whole law (its mean, quantiles, the run's peak) is
//! known exactly only where one second splits over the shards as the
//! uniformly random picker splits it (random, user-hash): there the row
//! carries those figures; for the other pickers they are absent (a seeded
//! simulation, labelled as one, stands beside the row in `risk`).

use rayon::prelude::*;
use serde::Serialize;

use crate::error::ParamResult;
use crate::model::defaults::MAX_SHARDS;
use crate::model::exact::Risk;
use crate::model::law::TrafficModel;
use crate::model::picker::risk::{key_over_cap, KeyMethod, KeyOverCap};
use crate::model::picker::{Picker, Writers};
use crate::model::validate;

/// The per-key risk at one count: P(the busiest shard over the cap) in a
/// second and over the hot spell, under the writers' picker.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct KeyRisk {
    /// Writes per second onto the counter (likes, plus unlikes where the
    /// plan has them).
    pub write_rate: f64,
    /// Shards the writes spread over.
    pub shards: u64,
    /// Writes per second one shard may take.
    pub cap: f64,
    /// Length of the hot spell the "any second" figures cover, seconds.
    pub seconds: f64,
    /// How the likes in a second are counted.
    pub traffic: TrafficModel,
    /// How each app server picks a shard.
    pub picker: Picker,
    /// App servers writing, where the picker's figures depend on them
    /// (null for random and user-hash).
    pub servers: Option<u64>,
    /// P(the busiest shard goes over the cap in one second).
    pub key_p_over_cap_per_second: f64,
    /// Its natural log: finite even where the probability underflows f64
    /// (`-inf` only where the chance is exactly 0).
    pub key_ln_p_over_cap_per_second: f64,
    /// P(at least one second over the cap during the spell).
    pub key_p_any_over_cap: f64,
    /// Its natural log.
    pub key_ln_p_any_over_cap: f64,
    /// How the two are known: exact, exactly 0 (round-robin under its
    /// bound), or an upper bound.
    pub key_method: KeyMethod,
    /// True when a probability above is positive but below f64's range
    /// (printed as 0): read the `ln_` field.
    pub underflow: bool,
    /// Mean writes on the busiest shard in one second (the exact law; null
    /// for a picker whose law is not the random one).
    pub busiest_mean_per_second: Option<f64>,
    /// 99.9% quantile of the busiest shard in one second (exact law).
    pub busiest_p999_per_second: Option<u64>,
    /// The busiest shard over the whole spell: median (exact law).
    pub busiest_over_run_median: Option<u64>,
    /// The busiest shard over the whole spell: 1% quantile (exact law).
    pub busiest_over_run_q01: Option<u64>,
    /// The busiest shard over the whole spell: 99% quantile (exact law).
    pub busiest_over_run_q99: Option<u64>,
    /// Round-robin: the most one shard can take in the traffic's busiest
    /// second, where the traffic has one.
    pub busiest_bound: Option<u64>,
    /// Bound on the relative error of the exact law's probabilities (null
    /// for a bound or an exact 0).
    pub p_over_cap_rel_error: Option<f64>,
    /// The probabilities are exact to every digit printed (false for a
    /// bound).
    pub exact: bool,
}

impl KeyRisk {
    /// The row at `rate` writes/s over `shards` shards, for `writers`.
    /// Errors name `rate`, `shards`, `cap`, `duration_seconds` or `picker`.
    pub fn compute(
        (rate, shards, cap): (f64, u64, f64),
        (seconds, traffic): (f64, TrafficModel),
        writers: Writers,
    ) -> ParamResult<KeyRisk> {
        match writers.picker.splits_like_random() {
            true => KeyRisk::of_law(Risk::compute(rate, shards, cap, seconds, traffic)?, writers),
            false => KeyRisk::of_picker((rate, shards, cap), (seconds, traffic), writers),
        }
    }

    /// One row per shard count, in the order given (`sweep`, the risk
    /// chart, `report`'s table); `done` is called once per finished row.
    pub fn sweep(
        (rate, counts, cap): (f64, &[u64], f64),
        (seconds, traffic): (f64, TrafficModel),
        writers: Writers,
        done: &(dyn Fn() + Sync),
    ) -> ParamResult<Vec<KeyRisk>> {
        if writers.picker.splits_like_random() {
            let rows = crate::model::exact::sweep(rate, counts, cap, seconds, traffic, done)?;
            return rows
                .into_iter()
                .map(|r| KeyRisk::of_law(r, writers))
                .collect();
        }
        counts
            .par_iter()
            .map(|&shards| {
                let row = KeyRisk::of_picker((rate, shards, cap), (seconds, traffic), writers);
                done();
                row
            })
            .collect()
    }

    /// The random law's row, for a picker that splits as random does. Its
    /// chances are the one point every per-key figure comes from
    /// ([`key_over_cap`]: the recommendation's search and its verdict use
    /// it too), so `risk`, `sweep` and `size` print the same digits; the
    /// busiest shard's law (mean, quantiles) is the table's. `simulate`'s
    /// exact figures beside its run are this row of its table.
    pub fn of_law(r: Risk, writers: Writers) -> ParamResult<KeyRisk> {
        let over = key_over_cap(r.rate, r.shards, r.cap, r.traffic, writers)?;
        let load = ((r.rate, r.shards, r.cap), (r.seconds, r.traffic));
        Ok(KeyRisk {
            servers: None,
            busiest_mean_per_second: Some(r.busiest_mean_per_second),
            busiest_p999_per_second: Some(r.busiest_p999_per_second),
            busiest_over_run_median: Some(r.busiest_over_run_median),
            busiest_over_run_q01: Some(r.busiest_over_run_q01),
            busiest_over_run_q99: Some(r.busiest_over_run_q99),
            p_over_cap_rel_error: Some(r.p_over_cap_rel_error),
            exact: r.exact,
            ..KeyRisk::of_chance(load, writers, over)
        })
    }

    /// Another picker's row: its own chance (exact, exactly 0 or a bound)
    /// and no busiest-shard law.
    fn of_picker(
        (rate, shards, cap): (f64, u64, f64),
        (seconds, traffic): (f64, TrafficModel),
        writers: Writers,
    ) -> ParamResult<KeyRisk> {
        // The same checks, and the same whole rate, as the exact law's row.
        let rate = traffic.rate("rate", rate)?;
        let shards = validate::count("shards", shards, MAX_SHARDS)?;
        let cap = validate::non_negative("cap", cap)?;
        let seconds = crate::model::exact::validate_seconds(seconds)?;
        let over = key_over_cap(rate, shards, cap, traffic, writers)?;
        Ok(KeyRisk::of_chance(
            ((rate, shards, cap), (seconds, traffic)),
            writers,
            over,
        ))
    }

    /// The row of a checked load and its chance in one second: the chance
    /// over the spell from it, and no busiest-shard law (the random
    /// pickers' row adds it).
    fn of_chance(
        ((rate, shards, cap), (seconds, traffic)): ((f64, u64, f64), (f64, TrafficModel)),
        writers: Writers,
        over: KeyOverCap,
    ) -> KeyRisk {
        let ln_any = over.ln_p_any(seconds);
        let (p, p_any) = (over.ln_p_per_second.exp(), ln_any.exp());
        let underflow =
            (p == 0.0 && over.ln_p_per_second.is_finite()) || (p_any == 0.0 && ln_any.is_finite());
        KeyRisk {
            write_rate: rate,
            shards,
            cap,
            seconds,
            traffic,
            picker: writers.picker,
            servers: Some(writers.servers),
            key_p_over_cap_per_second: p,
            key_ln_p_over_cap_per_second: over.ln_p_per_second,
            key_p_any_over_cap: p_any,
            key_ln_p_any_over_cap: ln_any,
            key_method: over.method,
            underflow,
            busiest_mean_per_second: None,
            busiest_p999_per_second: None,
            busiest_over_run_median: None,
            busiest_over_run_q01: None,
            busiest_over_run_q99: None,
            busiest_bound: over.busiest_bound,
            p_over_cap_rel_error: None,
            exact: over.method.is_exact(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TrafficModel::Fixed;

    fn w(picker: Picker) -> Writers {
        Writers::new(picker, 40).unwrap()
    }

    #[test]
    fn the_random_pickers_row_is_the_exact_law() {
        let law = Risk::compute(14_000.0, 20, 1000.0, 14_400.0, Fixed).unwrap();
        let row =
            KeyRisk::compute((14_000.0, 20, 1000.0), (14_400.0, Fixed), w(Picker::Random)).unwrap();
        // The same chance as the law's table, to its error bound.
        let gap = (row.key_ln_p_any_over_cap - law.ln_p_any_over_cap).abs();
        assert!(gap < 1e-12 * law.ln_p_any_over_cap.abs(), "{gap}");
        assert_eq!(
            row.busiest_mean_per_second,
            Some(law.busiest_mean_per_second)
        );
        assert_eq!((row.key_method, row.servers), (KeyMethod::Exact, None));
    }

    #[test]
    fn another_pickers_row_is_its_own_figure_and_no_random_law() {
        // Sticky: 40 servers over 115 shards, each server's likes on one
        // shard: 5,000 a second on a shard, over 2,500 every second.
        let sticky = KeyRisk::compute(
            (200_000.0, 115, 2500.0),
            (14_400.0, Fixed),
            w(Picker::Sticky),
        )
        .unwrap();
        assert_eq!(
            (sticky.key_p_any_over_cap, sticky.key_method),
            (1.0, KeyMethod::Exact)
        );
        assert_eq!(sticky.busiest_mean_per_second, None);
        // Round-robin at 14,000/s over 15 shards: its bound, 970, is under
        // the cap: exactly 0.
        let rr = KeyRisk::compute(
            (14_000.0, 15, 1000.0),
            (14_400.0, Fixed),
            w(Picker::RoundRobin),
        )
        .unwrap();
        assert_eq!(rr.key_method, KeyMethod::NeverOver);
        assert_eq!((rr.key_p_any_over_cap, rr.busiest_bound), (0.0, Some(970)));
        assert!(!rr.underflow && rr.exact);
    }

    #[test]
    fn a_sweep_is_each_counts_row() {
        let counts = [15, 17, 20];
        for p in [Picker::Random, Picker::TwoChoice] {
            let rows = KeyRisk::sweep((14_000.0, &counts, 1000.0), (14_400.0, Fixed), w(p), &|| {})
                .unwrap();
            for (row, &s) in rows.iter().zip(&counts) {
                let one = KeyRisk::compute((14_000.0, s, 1000.0), (14_400.0, Fixed), w(p)).unwrap();
                assert_eq!(row.shards, s);
                assert!((row.key_ln_p_any_over_cap - one.key_ln_p_any_over_cap).abs() < 1e-9);
            }
        }
    }
}
