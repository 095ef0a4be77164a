//! Range checks on a scenario's top-level numbers, run when it is loaded,
//! so a bad field is reported under its own name whichever command reads
//! the file. Section fields are checked where they are resolved.

use super::Loaded;
use crate::error::{InputError, InputResult, ParamResult};
use crate::model::defaults::{
    MAX_BATCH, MAX_NODES, MAX_PARTITIONS, MAX_SECONDS, MAX_SERVERS, MAX_SHARDS,
};
use crate::model::validate;

/// Runs a model check on `field`'s value; an error names the field.
fn check<T: Clone, U>(
    l: &Loaded,
    field: &'static str,
    value: Option<T>,
    f: impl FnOnce(&'static str, T) -> ParamResult<U>,
) -> InputResult<()> {
    if let Some(v) = l.get(field, &value) {
        v.check(|x| f(field, x.clone()))?;
    }
    Ok(())
}

/// Checks every top-level number the scenario sets, naming the field.
pub fn fields(l: &Loaded) -> InputResult<()> {
    let s = &l.scenario;
    let rates = [
        ("peak", s.peak),
        ("observed", s.observed),
        ("cap", s.cap),
        ("safe", s.safe),
        ("rate", s.rate),
        ("views", s.views),
        ("read_cap", s.read_cap),
        ("likes_per_day", s.likes_per_day),
    ];
    for (field, v) in rates {
        check(l, field, v, validate::rate)?;
    }
    check(l, "growth", s.growth, validate::positive)?;
    if let Some(d) = s.duration_seconds {
        if !d.is_finite() || !(1.0..=1e12).contains(&d) {
            return Err(InputError::new(
                l.field("duration_seconds"),
                format!("must be from 1 to 1e12 seconds (got {d})"),
            ));
        }
    }
    check(l, "risk", s.risk, validate::probability_open)?;
    check(l, "headroom", s.headroom, |p, v| {
        validate::in_half_open(p, v, 0.0, 1.0)
    })?;
    check(l, "cache_seconds", s.cache_seconds, validate::non_negative)?;
    for (field, v, max) in [
        ("shards", s.shards, MAX_SHARDS),
        ("seconds", s.seconds, MAX_SECONDS),
        ("servers", s.servers, MAX_SERVERS),
        ("batch_size", s.batch_size, MAX_BATCH),
        ("nodes", s.nodes, u64::from(MAX_NODES)),
        ("partitions", s.partitions, MAX_PARTITIONS),
    ] {
        check(l, field, v, |p, v| validate::count(p, v, max))?;
    }
    if s.safe.is_some() && s.headroom.is_some() {
        return Err(InputError::new(
            l.field("safe"),
            "give either safe or headroom, not both",
        ));
    }
    if s.peak.is_some() && s.observed.is_none() && s.growth.is_some() {
        return Err(InputError::new(
            l.field("growth"),
            "needs observed (peak = observed x growth)",
        ));
    }
    Ok(())
}
