//! The read-path inputs: views, likes servers, the cache period, the batch
//! size and the read cap per key (the last two from a store preset too).

use super::sizing::Named;
use super::{Resolver, Sourced};
use crate::cli::ReadArgs;
use crate::error::InputResult;
use crate::model::defaults::{
    DEFAULT_BATCH, DEFAULT_CACHE_SECONDS, DEFAULT_READ_CAP, DEFAULT_SERVERS, DEFAULT_VIEWS,
};
use crate::model::read_cost::ReadPlan;
use crate::model::store::StorePreset;

impl Resolver {
    /// The read plan: flags over scenario fields over the store preset in
    /// force ([`Resolver::presets`]) over defaults.
    pub fn reads(&mut self, a: &ReadArgs, preset: &Named) -> InputResult<ReadPlan> {
        let s = self.scenario.scenario.clone();
        // A preset in force that has no value for a setting leaves it unset
        // (`Some(None)`): Firestore has no documented read cap, and no
        // DynamoDB figure may stand in for it.
        let preset = |f: &dyn Fn(&StorePreset) -> Option<f64>| {
            preset
                .as_ref()
                .map(|(p, src)| Sourced::new(f(p), src.clone()))
        };
        let some = |v: Option<Sourced<f64>>| v.map(|v| v.map(Some));
        let batch = |p: &StorePreset| p.batch_read_items.map(f64::from);
        let read_cap = |p: &StorePreset| p.read_cap_per_key;
        let views = Sourced::flag("--views", a.views)
            .or(self.field("views", &s.views))
            .unwrap_or(Sourced::default(DEFAULT_VIEWS));
        let servers = Sourced::flag("--servers", a.cache.servers.servers)
            .or(self.field("servers", &s.servers))
            .unwrap_or(Sourced::default(DEFAULT_SERVERS));
        let cache = Sourced::flag("--cache-seconds", a.cache.cache_seconds)
            .or(self.field("cache_seconds", &s.cache_seconds))
            .unwrap_or(Sourced::default(DEFAULT_CACHE_SECONDS));
        let whole = |v: Sourced<Option<f64>>| v.map(|b| b.map(|b| b as u64));
        let batch_size = Sourced::flag("--batch-size", a.batch_size)
            .map(|v| v.map(Some))
            .or(self.field_or_preset(
                self.field("batch_size", &s.batch_size).map(|v| v.map(Some)),
                preset(&batch).map(whole),
            ))
            .unwrap_or(Sourced::default(Some(DEFAULT_BATCH)));
        let cap = some(Sourced::flag("--read-cap", a.read_cap))
            .or(self.field_or_preset(some(self.field("read_cap", &s.read_cap)), preset(&read_cap)))
            .unwrap_or(Sourced::default(Some(DEFAULT_READ_CAP)));
        self.inputs.record("views", &views);
        self.inputs.record("servers", &servers);
        self.inputs.record("cache_seconds", &cache);
        self.inputs.record("batch_size", &batch_size);
        self.inputs.record("read_cap", &cap);
        ReadPlan::new(
            views.value,
            servers.value,
            cache.value,
            batch_size.value,
            cap.value,
        )
        .map_err(|e| self.blame(e))
    }
}

/// Refuses `--batch-size` where no figure shown reads it: the batch size
/// only counts the batch reads of the read cost table (and `size`'s and
/// `risk`'s warning when one sum takes several batches); the verdict's read
/// cap check is per key, whatever the batch. `on` names the command.
pub fn refuse_batch_size(a: &ReadArgs, on: &str) -> InputResult<()> {
    super::refuse(
        a.batch_size.is_some(),
        "--batch-size",
        format!(
            "on {on}: only the read cost's batch reads take it (shardplan size or simulate shows \
             them)"
        ),
    )
}
