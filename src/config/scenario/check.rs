//! Range checks on a scenario's top-level numbers, run when it is loaded,
//! so a bad field is reported under its own name whichever command reads
//! the file. Section fields are checked where they are resolved.

use super::Loaded;
use crate::config::check;
use crate::error::{InputError, InputResult};
use crate::model::defaults::{MAX_BATCH, MAX_NODES, MAX_SECONDS, MAX_SERVERS, MAX_SHARDS};

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
        if let Some(v) = v {
            check::rate(&l.field(field), v)?;
        }
    }
    if let Some(g) = s.growth {
        check::positive(&l.field("growth"), g)?;
    }
    if let Some(d) = s.duration_seconds {
        if !d.is_finite() || !(1.0..=1e12).contains(&d) {
            return Err(InputError::new(
                l.field("duration_seconds"),
                format!("must be from 1 to 1e12 seconds (got {d})"),
            ));
        }
    }
    if let Some(r) = s.risk {
        check::probability_open(&l.field("risk"), r)?;
    }
    if let Some(h) = s.headroom {
        check::in_half_open(&l.field("headroom"), h, 0.0, 1.0)?;
    }
    if let Some(c) = s.cache_seconds {
        check::non_negative(&l.field("cache_seconds"), c)?;
    }
    for (field, v, max) in [
        ("shards", s.shards, MAX_SHARDS),
        ("seconds", s.seconds, MAX_SECONDS),
        ("servers", s.servers, MAX_SERVERS),
        ("batch_size", s.batch_size, MAX_BATCH),
    ] {
        if let Some(v) = v {
            check::count(&l.field(field), v, max)?;
        }
    }
    if let Some(n) = s.nodes {
        if !(1..=u64::from(MAX_NODES)).contains(&n) {
            return Err(InputError::new(
                l.field("nodes"),
                format!("must be a whole number from 1 to {MAX_NODES} (got {n})"),
            ));
        }
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
