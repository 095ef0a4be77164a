//! Merging a scenario with flags: a flag wins over the scenario, the
//! scenario over the built-in default. Values from a scenario are checked
//! under the scenario's field names; values from flags under the flag names.

use crate::cli::{ReadArgs, ScenarioArgs, SizingArgs};
use crate::config::check;
use crate::config::scenario::{self, Loaded};
use crate::error::{InputError, InputResult};
use crate::model::compare::exactly_once::{transactional_cap, transactional_write_cost};
use crate::model::sizing::{ReadPlan, SafeRate, SizingPlan};
use crate::model::store::{Store, StorePreset};

/// The scenario named by --scenario, or the default one.
pub fn load_scenario(args: &ScenarioArgs) -> InputResult<Loaded> {
    let loaded = scenario::load(args.scenario.as_deref().unwrap_or(scenario::DEFAULT))?;
    check_scenario(&loaded)?;
    Ok(loaded)
}

/// Range checks on every numeric scenario field, naming the field.
pub fn check_scenario(l: &Loaded) -> InputResult<()> {
    let s = &l.scenario;
    let positive = [
        ("peak", s.peak),
        ("observed", s.observed),
        ("growth", s.growth),
        ("cap", s.cap),
        ("safe", s.safe),
        ("rate", s.rate),
        ("views", s.views),
        ("read_cap", s.read_cap),
        ("likes_per_day", s.likes_per_day),
    ];
    for (field, v) in positive {
        if let Some(v) = v {
            check::positive(&l.field(field), v)?;
            if field != "growth" {
                check::rate(&l.field(field), v)?;
            }
        }
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
        ("shards", s.shards, crate::model::defaults::MAX_SHARDS),
        ("seconds", s.seconds, crate::model::defaults::MAX_SECONDS),
        ("servers", s.servers, 10_000_000),
        ("batch_size", s.batch_size, 1_000_000),
    ] {
        if let Some(v) = v {
            check::count(&l.field(field), v, max)?;
        }
    }
    if let Some(n) = s.nodes {
        if !(1..=16_384).contains(&n) {
            return Err(InputError::new(
                l.field("nodes"),
                format!("must be a whole number from 1 to 16384 (got {n})"),
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

/// The planned peak and, when it came from them, observed and growth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Peak {
    pub peak: f64,
    pub observed: Option<f64>,
    pub growth: Option<f64>,
}

pub fn resolve_peak(l: &Loaded, a: &SizingArgs) -> InputResult<Peak> {
    let s = &l.scenario;
    if let Some(p) = a.peak {
        return Ok(Peak {
            peak: check::rate("--peak", p)?,
            observed: None,
            growth: None,
        });
    }
    if let Some(g) = a.growth {
        check::positive("--growth", g)?;
    }
    if let Some(o) = a.observed {
        check::rate("--observed", o)?;
    }
    let from_observed = a.observed.is_some() || a.growth.is_some();
    if from_observed {
        let observed = a.observed.or(s.observed).ok_or_else(|| {
            InputError::new("--growth", "needs --observed (peak = observed x growth)")
        })?;
        let growth = a
            .growth
            .or(s.growth)
            .unwrap_or(crate::model::defaults::DEFAULT_GROWTH);
        let peak = check::rate("--observed", observed * growth).map_err(|_| {
            InputError::new(
                "--growth",
                format!(
                    "observed x growth = {} is out of range (at most 1e9 likes/s)",
                    observed * growth
                ),
            )
        })?;
        return Ok(Peak {
            peak,
            observed: Some(observed),
            growth: Some(growth),
        });
    }
    if let Some(p) = s.peak {
        return Ok(Peak {
            peak: p,
            observed: s.observed,
            growth: None,
        });
    }
    if let Some(o) = s.observed {
        let growth = s.growth.unwrap_or(crate::model::defaults::DEFAULT_GROWTH);
        return Ok(Peak {
            peak: check::rate(&l.field("growth"), o * growth)?,
            observed: Some(o),
            growth: Some(growth),
        });
    }
    Err(InputError::new(
        "--peak",
        format!(
            "scenario {} gives no peak; pass --peak LIKES_PER_S or --observed and --growth",
            l.name
        ),
    ))
}

/// The rule-of-thumb sizing inputs from flags over the scenario.
pub fn sizing_plan(l: &Loaded, a: &SizingArgs) -> InputResult<(Peak, SizingPlan)> {
    sizing_plan_or(l, a, curve_peak(l))
}

/// A time-line scenario's highest rate, to size for when it names no peak.
pub fn curve_peak(l: &Loaded) -> Option<f64> {
    let curve = l.scenario.curve.as_ref()?;
    let peak = curve.points.iter().map(|p| p[1]).fold(0.0, f64::max);
    (peak.is_finite() && peak > 0.0).then_some(peak)
}

/// As [`sizing_plan`], with a peak to fall back on when neither flags nor
/// scenario give one (a time line's highest rate).
pub fn sizing_plan_or(
    l: &Loaded,
    a: &SizingArgs,
    fallback_peak: Option<f64>,
) -> InputResult<(Peak, SizingPlan)> {
    let s = &l.scenario;
    let peak = match (resolve_peak(l, a), fallback_peak) {
        (Ok(p), _) => p,
        (Err(_), Some(peak)) if a.peak.is_none() && a.observed.is_none() && a.growth.is_none() => {
            Peak {
                peak,
                observed: None,
                growth: None,
            }
        }
        (Err(e), _) => return Err(e),
    };
    let (flag_preset, scenario_preset) = presets(l, a.store);
    let cap = match (a.cap, &a.cap_from_measure) {
        (Some(c), _) => check::rate("--cap", c)?,
        // A measured rate is a lower bound on the key's capacity; whole
        // writes per second keep the simulator's "over the cap" exact.
        (None, Some(path)) => crate::measure::cap_from_measure_file(path)?
            .floor()
            .max(1.0),
        (None, None) => flag_preset
            .as_ref()
            .map(|p| p.write_cap_per_key)
            .or(s.cap)
            .or(scenario_preset.as_ref().map(|p| p.write_cap_per_key))
            .unwrap_or(crate::model::defaults::DEFAULT_CAP),
    };
    let safe = match (a.safe, a.headroom, s.safe, s.headroom) {
        (Some(v), _, _, _) => SafeRate::PerKey(v),
        (None, Some(h), _, _) => SafeRate::Headroom(h),
        (None, None, Some(v), _) => SafeRate::PerKey(v),
        (None, None, None, Some(h)) => SafeRate::Headroom(h),
        (None, None, None, None) => SafeRate::Headroom(crate::model::defaults::DEFAULT_HEADROOM),
    };
    if let (SafeRate::PerKey(v), None) = (safe, a.safe) {
        // The scenario's safe rate may clash with a --cap flag: name both.
        if v > cap {
            return Err(InputError::new(
                "--cap",
                format!("{cap} is below the scenario's safe rate of {v} writes/s per key; pass --safe too"),
            ));
        }
    }
    // --transactional: every figure per key is in likes, and a like now
    // costs `write_cost` units, so the cap and a given safe rate shrink by it.
    let (cap, safe) = if a.transactional {
        let store = a.store.or(s.store_preset);
        let cost = transactional_write_cost(store);
        let safe = match safe {
            SafeRate::PerKey(v) => SafeRate::PerKey(v / cost),
            h => h,
        };
        (transactional_cap(cap, store), safe)
    } else {
        (cap, safe)
    };
    Ok((peak, SizingPlan::new(peak.peak, cap, safe)?))
}

/// Write units one like costs: the store's transactional cost with
/// `--transactional` (2 on DynamoDB, the default), else 1.
pub fn write_cost(l: &Loaded, a: &SizingArgs) -> f64 {
    if a.transactional {
        transactional_write_cost(a.store.or(l.scenario.store_preset))
    } else {
        1.0
    }
}

/// The store presets in force: one named by `--store` (ranks above the
/// scenario's values) and one named by the scenario (ranks below them).
pub fn presets(l: &Loaded, flag: Option<Store>) -> (Option<StorePreset>, Option<StorePreset>) {
    (
        flag.map(Store::preset),
        l.scenario.store_preset.map(Store::preset),
    )
}

/// The read-path inputs from flags over the scenario (and store presets).
pub fn read_plan(l: &Loaded, a: &ReadArgs, store: Option<Store>) -> InputResult<ReadPlan> {
    let s = &l.scenario;
    let (flag_preset, scenario_preset) = presets(l, store);
    let batch =
        |p: &Option<StorePreset>| p.as_ref().and_then(|p| p.batch_read_items).map(u64::from);
    let read_cap = |p: &Option<StorePreset>| p.as_ref().and_then(|p| p.read_cap_per_key);
    ReadPlan::new(
        a.views
            .or(s.views)
            .unwrap_or(crate::model::defaults::DEFAULT_VIEWS),
        a.servers
            .or(s.servers)
            .unwrap_or(crate::model::defaults::DEFAULT_SERVERS),
        a.cache_seconds
            .or(s.cache_seconds)
            .unwrap_or(crate::model::defaults::DEFAULT_CACHE_SECONDS),
        a.batch_size
            .or(batch(&flag_preset))
            .or(s.batch_size)
            .or(batch(&scenario_preset))
            .unwrap_or(crate::model::defaults::DEFAULT_BATCH),
        a.read_cap
            .or(read_cap(&flag_preset))
            .or(s.read_cap)
            .or(read_cap(&scenario_preset))
            .unwrap_or(crate::model::defaults::DEFAULT_READ_CAP),
    )
}
