//! The sizing inputs: the planned peak (or observed x growth), the store
//! preset, the cap per key, the safe rate or headroom, and the write cost of
//! a transactional like.

use super::unlikes::UnlikePlan;
use super::{Resolver, Source, Sourced};
use crate::cli::SizingArgs;
use crate::error::{InputError, InputResult};
use crate::model::defaults::{DEFAULT_CAP, DEFAULT_GROWTH, DEFAULT_HEADROOM};
use crate::model::sizing::{SafeRate, SizingPlan};
use crate::model::store::{Store, StorePreset};
use crate::model::validate;

/// The planned peak and, when it came from them, observed and growth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Peak {
    /// Planned peak writes/s: likes/s, x (1 + unlike share) with unlikes.
    pub peak: f64,
    /// Planned peak likes/s (the peak without unlikes' writes).
    pub likes: f64,
    /// The highest rate seen so far, when the peak came from it.
    pub observed: Option<f64>,
    /// The planning factor, when the peak is observed x growth.
    pub growth: Option<f64>,
}

/// The resolved sizing.
#[derive(Debug, Clone, PartialEq)]
pub struct Sizing {
    /// Peak, cap and safe rate, validated (per like under `--transactional`).
    pub plan: SizingPlan,
    /// How the peak was reached.
    pub peak: Peak,
    /// The store preset in force, if any (a `--store` flag, else the scenario's).
    pub store: Option<Store>,
    /// With `--transactional`: write units one like costs.
    pub write_cost: Option<f64>,
    /// Unlikes, when planned (`--unlike-share`).
    pub unlikes: Option<super::unlikes::UnlikePlan>,
}

impl Sizing {
    /// Writes one like brings: 1 + the unlike share (1 without unlikes).
    pub fn writes_per_like(&self) -> f64 {
        self.unlikes.map_or(1.0, |u| u.unlikes.writes_per_like())
    }
}

/// The store preset in force and the source that named it (the `--store`
/// flag, the scenario's `store`, or the command's own store).
pub(super) type Named = Option<(StorePreset, Source)>;

/// Refuses a plan whose cap would come from a preset that has none
/// (PostgreSQL documents no per-row rate): when the scenario gives no `cap`,
/// or the preset ranks above it ([`Resolver::field_or_preset`]). The error
/// names what chose the preset.
fn uncapped(preset: &Named, scenario_first: bool) -> InputResult<()> {
    if scenario_first {
        return Ok(());
    }
    let Some((p, source)) = preset
        .as_ref()
        .filter(|(p, _)| p.write_cap_per_key.is_none())
    else {
        return Ok(());
    };
    let named_by = match source {
        Source::Preset { named_by, .. } => named_by.to_string(),
        other => other.to_string(),
    };
    Err(InputError::new(
        named_by,
        format!(
            "{} has no per-key write cap to default to (it documents none): give the hot-row rate \
             you measured with --cap-from-measure FILE (the JSON of `shardplan measure --postgres`) \
             or --cap WRITES_PER_S",
            p.store.name()
        ),
    ))
}

impl Resolver {
    /// The store preset in force: the one a `--store` flag names, else the
    /// scenario's `store`, else the command's own (`keys`: redis-cluster).
    /// Wherever it is named, a preset ranks below the fields of a scenario
    /// the user named and above the defaults: `--store` picks the figures
    /// the file leaves open, it does not override what the file says (a
    /// flag for that field does). The bundled default scenario, not named,
    /// ranks below a `--store` preset ([`Resolver::field_or_preset`]).
    pub fn presets(&mut self, flag: Option<Store>) -> Named {
        self.preset_first = flag.is_some() && !self.scenario_named;
        let chosen = Sourced::flag("--store", flag)
            .or(self.field("store_preset", &self.scenario.scenario.store_preset))
            .or(self.default_store.map(Sourced::default));
        let chosen = chosen?;
        self.inputs
            .record("store", &chosen.clone().map(Store::name));
        Some((
            chosen.value.preset(),
            Source::Preset {
                store: chosen.value,
                named_by: Box::new(chosen.source),
            },
        ))
    }

    /// The planned peak: `--peak`, or observed traffic's peak rate
    /// (`--traffic-from`) x growth, or `--observed` x `--growth` (each
    /// falling back to the scenario), or the scenario's peak, or its observed
    /// x growth, or `fallback` (a time line's highest rate).
    pub fn peak(&mut self, a: &SizingArgs, fallback: Option<Sourced<f64>>) -> InputResult<Peak> {
        let s = self.scenario.scenario.clone();
        if let Some(p) = Sourced::flag("--peak", a.peak) {
            let peak = p.check(|v| validate::rate("peak", *v))?;
            self.inputs.record("peak", &p);
            return Ok(Peak {
                peak,
                likes: peak,
                observed: None,
                growth: None,
            });
        }
        let observed_flag = Sourced::flag("--observed", a.observed);
        let growth_flag = Sourced::flag("--growth", a.growth);
        self.unobserved()?;
        let (observed, growth) = if let Some(o) = self.observed.as_deref() {
            // --traffic-from: its busiest period, over a scenario's peak or observed.
            let observed = Sourced::new(o.fit.peak_rate, o.source("peak rate of"));
            (observed, growth_flag.or(self.field("growth", &s.growth)))
        } else if observed_flag.is_some() || growth_flag.is_some() {
            let observed = observed_flag
                .or(self.field("observed", &s.observed))
                .ok_or_else(|| {
                    InputError::new("--growth", "needs --observed (peak = observed x growth)")
                })?;
            (observed, growth_flag.or(self.field("growth", &s.growth)))
        } else if let Some(p) = self.field("peak", &s.peak) {
            return self.scenario_peak(&p, s.observed);
        } else if let Some(o) = self.field("observed", &s.observed) {
            (o, self.field("growth", &s.growth))
        } else if let Some(f) = fallback {
            let peak = f.check(|v| validate::rate("peak", *v))?;
            self.below_one_like(&f);
            self.inputs.record("peak", &f);
            return Ok(Peak {
                peak,
                likes: peak,
                observed: None,
                growth: None,
            });
        } else {
            return Err(self.nothing_to_size_for());
        };
        self.observed_x_growth(observed, growth)
    }

    /// The scenario's peak, with its observed rate when it gives one.
    fn scenario_peak(&mut self, p: &Sourced<f64>, observed: Option<f64>) -> InputResult<Peak> {
        let peak = p.check(|v| validate::rate("peak", *v))?;
        self.inputs.record("peak", p);
        if let Some(o) = self.field("observed", &observed) {
            self.inputs.record("observed", &o);
        }
        Ok(Peak {
            peak,
            likes: peak,
            observed,
            growth: None,
        })
    }

    /// Why there is no peak to size for: no flag gives one, and no
    /// scenario (or one that gives none).
    fn nothing_to_size_for(&self) -> InputError {
        match self.scenario.kinds.is_empty() && self.scenario.file == "(none)" {
            true => InputError::new(
                "--peak",
                "is needed: pass --peak LIKES_PER_S, or --observed and --growth, or a --scenario",
            ),
            false => InputError::new(
                format!("--scenario {}", self.scenario.name),
                "gives no peak, observed rate or [curve] to size for; pass --peak LIKES_PER_S \
                 or --observed and --growth",
            ),
        }
    }

    /// The peak grown from the observed rate: observed x growth (the
    /// default growth when none is given), checked and recorded.
    fn observed_x_growth(
        &mut self,
        observed: Sourced<f64>,
        growth: Option<Sourced<f64>>,
    ) -> InputResult<Peak> {
        let growth = growth.unwrap_or(Sourced::default(DEFAULT_GROWTH));
        observed.check(|v| validate::rate("observed", *v))?;
        growth.check(|v| validate::positive("growth", *v))?;
        let peak = observed.value * growth.value;
        validate::rate("peak", peak).map_err(|_| {
            growth.error(format!(
                "observed x growth = {peak} is out of range (at most 1e9 likes/s)"
            ))
        })?;
        self.below_one_like(&observed);
        if growth.value < 1.0 {
            self.inputs.notice(format!(
                "{} = {} plans below the observed peak ({} likes/s x {} = {}); a plan \
                 usually grows the observed peak (1.5 is common)",
                growth.source,
                growth.value,
                crate::output::fmt::num(observed.value),
                growth.value,
                crate::output::fmt::num(peak)
            ));
        }
        self.inputs.record("observed", &observed);
        self.inputs.record("growth", &growth);
        self.inputs
            .record("peak", &Sourced::derived(peak, "observed x growth"));
        Ok(Peak {
            peak,
            likes: peak,
            observed: Some(observed.value),
            growth: Some(growth.value),
        })
    }

    /// A warning for a rate that passed its checks but is below one like a
    /// second (`--observed 5e-324`): a plan for almost no traffic.
    fn below_one_like(&mut self, rate: &Sourced<f64>) {
        if rate.value < 1.0 {
            self.inputs.notice(format!(
                "{} = {:?} likes/s is below one like a second; the plan sizes for almost no traffic",
                rate.source, rate.value
            ));
        }
    }

    /// The cap per key: `--cap`, `--cap-from-measure`, the scenario's
    /// `cap`, the store preset in force, the default.
    pub fn cap(&mut self, a: &SizingArgs, preset: &Named) -> InputResult<Sourced<f64>> {
        let preset_cap = preset.as_ref().and_then(|(p, src)| {
            p.write_cap_per_key
                .map(|cap| Sourced::new(cap, src.clone()))
        });
        let cap = match (Sourced::flag("--cap", a.cap.cap), &a.cap_from_measure) {
            (Some(c), _) => c,
            // A measured rate is a lower bound on the key's capacity; whole
            // writes per second keep the simulator's "over the cap" exact.
            (None, Some(path)) => {
                let measured = super::measured::cap_from_measure_file(&self.claims, path)?;
                Sourced::new(
                    measured.cap.floor().max(1.0),
                    Source::File {
                        flag: "--cap-from-measure",
                        path: path.display().to_string(),
                        field: measured.field,
                    },
                )
            }
            (None, None) => {
                let scenario_cap = self.field("cap", &self.scenario.scenario.cap);
                uncapped(preset, scenario_cap.is_some() && !self.preset_first)?;
                self.field_or_preset(scenario_cap, preset_cap)
                    .unwrap_or(Sourced::default(DEFAULT_CAP))
            }
        };
        cap.check(|v| validate::rate("cap", *v))?;
        self.inputs.record("cap", &cap);
        Ok(cap)
    }

    /// The sizing: peak, store preset, cap, safe rate or headroom, and with
    /// `--transactional` the write cost of a like.
    pub fn sizing(
        &mut self,
        a: &SizingArgs,
        fallback: Option<Sourced<f64>>,
    ) -> InputResult<Sizing> {
        let (peak, unlikes) = self.peak_in_writes(a, fallback)?;
        let preset = self.presets(a.store.store);
        let store = preset.as_ref().map(|p| p.0.store);
        let cap = self.cap(a, &preset)?;
        let safe = self.safe(a, &cap)?;
        let (write_cost, cap_v, safe_v) = self.per_like(a, store, &cap, safe.value);
        let plan = SizingPlan::new(peak.peak, cap_v, safe_v)
            .map_err(|e| self.blame(e))?
            .with_writes_per_like(unlikes.map_or(1.0, |u| u.unlikes.writes_per_like()));
        self.planned_peak = Some(peak.peak);
        Ok(Sizing {
            plan,
            peak,
            store,
            write_cost,
            unlikes,
        })
    }

    /// The planned peak in writes/s, with the unlikes that grow it (or
    /// that a trace of writes already counts).
    fn peak_in_writes(
        &mut self,
        a: &SizingArgs,
        fallback: Option<Sourced<f64>>,
    ) -> InputResult<(Peak, Option<UnlikePlan>)> {
        let mut peak = self.peak(a, fallback)?;
        // Unlikes are writes: the model plans for likes x (1 + share); a
        // trace of write units already counts them, and only splits.
        let unlikes = self.unlikes(a)?;
        if let Some(u) = unlikes {
            let writes = u.writes(peak.peak);
            validate::rate("peak", writes).map_err(|_| {
                let by = self.inputs.source("unlike_share").cloned();
                InputError::new(
                    by.map_or("--unlike-share".to_string(), |s| s.to_string()),
                    format!("makes the planned peak {writes} writes/s, above the 1e9 accepted"),
                )
            })?;
            if u.counted_in_trace {
                peak.likes = u.likes(peak.peak);
                self.inputs.record(
                    "like_peak",
                    &Sourced::derived(peak.likes, "the trace's writes / (1 + unlike share)"),
                );
            } else {
                self.inputs.record(
                    "write_peak",
                    &Sourced::derived(writes, "planned likes x (1 + unlike share)"),
                );
            }
            peak.peak = writes;
        }
        Ok((peak, unlikes))
    }

    /// The safe rate per key (`--safe`, `--headroom`, the scenario's
    /// `safe`, its `headroom`, the default headroom), recorded.
    fn safe(&mut self, a: &SizingArgs, cap: &Sourced<f64>) -> InputResult<Sourced<SafeRate>> {
        let s = self.scenario.scenario.clone();
        let safe = Sourced::flag("--safe", a.safe)
            .map(|v| v.map(SafeRate::PerKey))
            .or(Sourced::flag("--headroom", a.headroom).map(|v| v.map(SafeRate::Headroom)))
            .or(self.field("safe", &s.safe).map(|v| v.map(SafeRate::PerKey)))
            .or(self
                .field("headroom", &s.headroom)
                .map(|v| v.map(SafeRate::Headroom)))
            .unwrap_or(Sourced::default(SafeRate::Headroom(DEFAULT_HEADROOM)));
        match safe.value {
            SafeRate::PerKey(v) => {
                self.inputs
                    .record("safe", &Sourced::new(v, safe.source.clone()));
                // The scenario's safe rate may clash with a --cap flag: name both.
                if v > cap.value && !safe.is_flag() && cap.is_flag() {
                    return Err(cap.error(format!(
                        "{} is below the scenario's safe rate of {v} writes/s per key; pass --safe too",
                        cap.value
                    )));
                }
            }
            SafeRate::Headroom(h) => self
                .inputs
                .record("headroom", &Sourced::new(h, safe.source.clone())),
        }
        Ok(safe)
    }

    /// The write cost of a like (with `--transactional`) and the cap and
    /// safe rate per key in likes.
    fn per_like(
        &mut self,
        a: &SizingArgs,
        store: Option<Store>,
        cap: &Sourced<f64>,
        safe: SafeRate,
    ) -> (Option<f64>, f64, SafeRate) {
        // --transactional: every figure per key is in likes, and a like costs
        // `write_cost` units, so the cap and a given safe rate shrink by it.
        let write_cost = a
            .transactional
            .then(|| Store::transactional_write_cost(store));
        let (cap_v, safe_v) = match write_cost {
            Some(cost) => {
                self.inputs.record(
                    "write_cost",
                    &Sourced::new(
                        cost,
                        match store {
                            Some(_) => self
                                .inputs
                                .source("store")
                                .cloned()
                                .unwrap_or(Source::Default),
                            None => Source::Default,
                        },
                    ),
                );
                let safe = match safe {
                    SafeRate::PerKey(v) => SafeRate::PerKey(v / cost),
                    h => h,
                };
                (cap.value / cost, safe)
            }
            None => (cap.value, safe),
        };
        (write_cost, cap_v, safe_v)
    }
}
