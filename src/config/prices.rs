//! The cost inputs of `size` and `compare`: prices per million request
//! units and daily volumes, from `--write-price`, `--read-price`,
//! `--daily-likes`, `--daily-views` over the scenario's `[prices]` section.
//! No price is built in: without one, no cost figure.

use super::{refuse, Resolver, Sourced};
use crate::cli::PriceArgs;
use crate::error::InputResult;
use crate::model::price::Prices;
use crate::model::validate;

impl Resolver {
    /// The prices, each checked finite and >= 0 and recorded with its
    /// source. `command` keeps no items' sizes, so `--storage-price` is
    /// refused; daily volumes without a price are refused too.
    pub fn prices(&mut self, a: &PriceArgs, command: &str) -> InputResult<Prices> {
        refuse(
            a.storage_price.is_some(),
            "--storage-price",
            format!(
                "on {command}: none of its designs computes item counts and sizes, \
                 so storage has no figure to price"
            ),
        )?;
        let section = self.scenario.scenario.prices.clone().unwrap_or_default();
        // The section serves every command; a storage price is checked but
        // nothing keeps items' sizes to price, so it is said, not used.
        if let Some(v) = self.field("prices.storage_per_gb_month", &section.storage_per_gb_month) {
            v.check(|x| validate::non_negative("storage_price", *x))?;
            self.inputs.notice(format!(
                "{}: not priced: none of {command}'s designs computes item counts and sizes",
                v.source
            ));
        }
        let mut one = |key: &'static str,
                       flag: &'static str,
                       given: Option<f64>,
                       field: &str,
                       set: &Option<f64>|
         -> InputResult<Option<Sourced<f64>>> {
            let v = Sourced::flag(flag, given).or(self.field(field, set));
            if let Some(v) = &v {
                v.check(|x| validate::non_negative(key, *x))?;
                self.inputs.record(key, v);
            }
            Ok(v)
        };
        let write = one(
            "write_price",
            "--write-price",
            a.write_price,
            "prices.write_per_million",
            &section.write_per_million,
        )?;
        let read = one(
            "read_price",
            "--read-price",
            a.read_price,
            "prices.read_per_million",
            &section.read_per_million,
        )?;
        let likes = one(
            "daily_likes",
            "--daily-likes",
            a.daily_likes,
            "prices.daily_likes",
            &section.daily_likes,
        )?;
        let views = one(
            "daily_views",
            "--daily-views",
            a.daily_views,
            "prices.daily_views",
            &section.daily_views,
        )?;
        if write.is_none() && read.is_none() {
            if let Some(daily) = likes.as_ref().or(views.as_ref()) {
                return Err(daily.error(
                    "has no effect without a price: add --write-price or --read-price \
                     (or prices.write_per_million / read_per_million in the scenario)",
                ));
            }
        }
        let value = |v: Option<Sourced<f64>>| v.map(|v| v.value);
        Ok(Prices {
            write_per_million: value(write),
            read_per_million: value(read),
            daily_likes: value(likes),
            daily_views: value(views),
        })
    }
}
