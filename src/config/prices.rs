//! The cost inputs of `size`, `compare`, `report` and `fleet`: prices per million request
//! units and daily volumes, from `--write-price`, `--read-price`,
//! `--daily-likes`, `--daily-views` over the scenario's `[prices]` section.
//! No price is built in: without one, no cost figure.

use super::scenario::sections::PricesSection;
use super::{refuse, Resolver, Sourced};
use crate::cli::PriceArgs;
use crate::error::InputResult;
use crate::model::defaults::{DEFAULT_ITEM_BYTES, MAX_ITEM_BYTES};
use crate::model::price::Prices;
use crate::model::validate;

impl Resolver {
    /// The prices, each checked finite and >= 0 and recorded with its
    /// source. `size`, `compare` and `report` keep no items' sizes, so
    /// `--storage-price` is refused there (the scenario's storage price is
    /// said, not used); daily volumes without a price are refused too.
    pub fn prices(&mut self, a: &PriceArgs, command: &str) -> InputResult<Prices> {
        refuse(
            a.storage_price.is_some(),
            "--storage-price",
            format!(
                "on {command}: none of its designs computes item counts and sizes, \
                 so storage has no figure to price (fleet prices its policies' items)"
            ),
        )?;
        let section = self.scenario.scenario.prices.clone().unwrap_or_default();
        if let Some(v) = self.field("prices.storage_per_gb_month", &section.storage_per_gb_month) {
            v.check(|x| validate::non_negative("storage_price", *x))?;
            self.inputs.notice(format!(
                "{}: not priced: none of {command}'s designs computes item counts and sizes",
                v.source
            ));
        }
        let mut prices = self.request_prices(a, &section)?;
        let likes = self.price_input(
            "daily_likes",
            "--daily-likes",
            a.daily_likes,
            "prices.daily_likes",
            &section.daily_likes,
        )?;
        let views = self.price_input(
            "daily_views",
            "--daily-views",
            a.daily_views,
            "prices.daily_views",
            &section.daily_views,
        )?;
        if !prices.any() {
            if let Some(daily) = likes.as_ref().or(views.as_ref()) {
                return Err(daily.error(
                    "has no effect without a price: add --write-price or --read-price \
                     (or prices.write_per_million / read_per_million in the scenario)",
                ));
            }
        }
        prices.daily_likes = likes.map(|v| v.value);
        prices.daily_views = views.map(|v| v.value);
        Ok(prices)
    }

    /// `fleet`'s prices: writes, reads and storage (its policies count
    /// items), and the bytes billed per item (`--item-bytes`, the
    /// section's `item_bytes`, else [`DEFAULT_ITEM_BYTES`]). Its month comes
    /// from the table's rates, so daily volumes are refused; so is an item
    /// size without a storage price.
    pub fn fleet_prices(
        &mut self,
        a: &PriceArgs,
        item_bytes: Option<f64>,
    ) -> InputResult<(Prices, f64)> {
        let why =
            "on fleet: its month comes from the table's rates (30 days at the peak-hour rates)";
        refuse(a.daily_likes.is_some(), "--daily-likes", why)?;
        refuse(a.daily_views.is_some(), "--daily-views", why)?;
        let section = self.scenario.scenario.prices.clone().unwrap_or_default();
        let mut prices = self.request_prices(a, &section)?;
        let storage = self.price_input(
            "storage_price",
            "--storage-price",
            a.storage_price,
            "prices.storage_per_gb_month",
            &section.storage_per_gb_month,
        )?;
        let bytes = Sourced::flag("--item-bytes", item_bytes)
            .or(self.field("prices.item_bytes", &section.item_bytes));
        let bytes = match (&storage, bytes) {
            (None, Some(b)) => {
                return Err(b.error("has no effect without a storage price (--storage-price)"))
            }
            (_, Some(b)) => {
                b.check(|x| validate::positive("item_bytes", *x))?;
                if b.value > MAX_ITEM_BYTES {
                    return Err(b.error(format!(
                        "must be at most {MAX_ITEM_BYTES} bytes (DynamoDB's item limit is 400 KB; got {})",
                        b.value
                    )));
                }
                b
            }
            (_, None) => Sourced::default(DEFAULT_ITEM_BYTES),
        };
        if storage.is_some() {
            self.inputs.record("item_bytes", &bytes);
        }
        prices.storage_per_gb_month = storage.map(|v| v.value);
        Ok((prices, bytes.value))
    }

    /// `reconcile`'s prices: reads (the job) and writes (idempotency
    /// keys). Its likes a day are its own input (`--daily-likes`); views
    /// and storage price nothing it computes, so they are refused.
    pub fn reconcile_prices(&mut self, a: &PriceArgs) -> InputResult<Prices> {
        let why = "on reconcile: the job reads like rows and the keys it prices are writes";
        refuse(a.daily_views.is_some(), "--daily-views", why)?;
        refuse(a.storage_price.is_some(), "--storage-price", why)?;
        let section = self.scenario.scenario.prices.clone().unwrap_or_default();
        self.request_prices(a, &section)
    }

    /// The write and read prices: flags over the scenario's `[prices]`.
    fn request_prices(&mut self, a: &PriceArgs, section: &PricesSection) -> InputResult<Prices> {
        let write = self.price_input(
            "write_price",
            "--write-price",
            a.write_price,
            "prices.write_per_million",
            &section.write_per_million,
        )?;
        let read = self.price_input(
            "read_price",
            "--read-price",
            a.read_price,
            "prices.read_per_million",
            &section.read_per_million,
        )?;
        Ok(Prices {
            write_per_million: write.map(|v| v.value),
            read_per_million: read.map(|v| v.value),
            ..Prices::default()
        })
    }

    /// One price or volume: the flag, else the section's field; checked
    /// finite and >= 0, and recorded under `key`.
    fn price_input(
        &mut self,
        key: &'static str,
        flag: &'static str,
        given: Option<f64>,
        field: &str,
        set: &Option<f64>,
    ) -> InputResult<Option<Sourced<f64>>> {
        let v = Sourced::flag(flag, given).or(self.field(field, set));
        if let Some(v) = &v {
            v.check(|x| validate::non_negative(key, *x))?;
            self.inputs.record(key, v);
        }
        Ok(v)
    }
}
