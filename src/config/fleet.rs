//! The whole table of reels (`fleet`): flags over the scenario's `[fleet]`
//! section over the scenario's top-level figures over the defaults.

use std::path::{Path, PathBuf};

use super::scenario::{FleetSection, Scenario};
use super::{Resolver, Source, Sourced};
use crate::cli::FleetArgs;
use crate::error::{InputError, InputResult};
use crate::model::defaults::{
    DEFAULT_BATCH, DEFAULT_CACHE_SECONDS, DEFAULT_CAP, DEFAULT_DURATION_SECONDS,
    DEFAULT_FLEET_MAX_SHARDS, DEFAULT_FLEET_PARTITIONS, DEFAULT_FLEET_TRIALS, DEFAULT_HEADROOM,
    DEFAULT_LIKES_PER_DAY, DEFAULT_PEAK_FACTOR, DEFAULT_READ_CAP, DEFAULT_REELS, DEFAULT_RISK,
    DEFAULT_SEED, DEFAULT_SERVERS, DEFAULT_TARGET_SHARDS, DEFAULT_THRESHOLD,
    DEFAULT_VIEWS_PER_LIKE, DEFAULT_ZIPF_EXPONENT, MAX_CSV_LINE_BYTES, MAX_CSV_REELS,
    MAX_FLEET_DURATION_SECONDS, MAX_FLEET_PARTITIONS, MAX_FLEET_TRIALS, MAX_PINNED, MAX_REELS,
    MAX_SHARDS,
};
use crate::model::fleet::{Background, BesideSize, BesideSizeReel, FleetPlan, PinnedReel};
use crate::model::law::{TrafficKind, TrafficModel};
use crate::model::read_cost::ReadPlan;
use crate::model::recommendation::{PlanInputs, RiskTarget, SharedPartitions};
use crate::model::sizing::{SafeRate, SizingPlan};
use crate::model::validate;

impl Resolver {
    /// The fleet plan, and where it answers another question than `size`
    /// on the same scenario.
    pub fn fleet(&mut self, a: &FleetArgs) -> InputResult<(FleetPlan, BesideSize)> {
        let s = self.scenario.scenario.clone();
        let f = s.fleet.clone().unwrap_or_default();
        let (reels, background_rate) = self.background_rate(a, &s, &f)?;
        let background = self.background(a, &f, reels, background_rate)?;
        let mut pinned = self.pinned_reels(a, &f)?;
        let (views_per_like, threshold, target) = self.views_and_monitor(a, &f)?;
        let (partitions, cap) = self.partitions_and_cap(a, &s, &f)?;
        let reads = self.fleet_reads(a, &s, &f)?;
        let (duration, risk) = self.hot_spell(a, &s, &f)?;
        let (max_shards, trials, seed) = self.shard_search(a, &s, &f)?;
        let cap_v = self.inputs.take("cap", cap);
        // The safe rate per key as `size` resolves it: the scenario's
        // `safe`, else its `headroom`, else the default 30% below the cap.
        let safe = match (s.safe, s.headroom) {
            (Some(v), _) => v.min(cap_v),
            (None, Some(h)) => cap_v * (1.0 - h),
            (None, None) => cap_v * (1.0 - DEFAULT_HEADROOM),
        };
        let (partitions_v, seconds_v, risk_v) = (
            self.inputs.take("partitions", partitions),
            self.inputs.take("duration", duration),
            self.inputs.take("risk", risk),
        );
        let spell = RiskTarget {
            risk: risk_v,
            seconds: seconds_v as f64,
            traffic: TrafficModel::Poisson,
        };
        let shared = SharedPartitions {
            partitions: partitions_v,
            cap: cap_v,
            target: spell,
        };
        let reels = self.size_pinned_reels(a, &mut pinned, shared, safe, reads)?;
        let beside = BesideSize {
            reels,
            size_views: s.views,
        };
        let plan = FleetPlan {
            background,
            pinned,
            views_per_like: self.inputs.take("views_per_like", views_per_like),
            threshold: self.inputs.take("threshold", threshold),
            target_shards: self.inputs.take("target_shards", target),
            partitions: partitions_v,
            cap: cap_v,
            safe,
            reads,
            seconds: seconds_v,
            risk: risk_v,
            trials: self.inputs.take("trials", trials),
            max_shards: self.inputs.take("max_shards", max_shards),
            seed: self.inputs.take("seed", seed),
        };
        Ok((plan, beside))
    }

    /// A `[fleet]` field, else the scenario's top-level one.
    fn fleet_or_top(
        &self,
        name: &str,
        section: &Option<f64>,
        top: &Option<f64>,
    ) -> Option<Sourced<f64>> {
        self.field(&format!("fleet.{name}"), section)
            .or(self.field(name, top))
    }

    /// The reels and the background's likes/s at the peak hour (the day's
    /// likes at the peak factor), checked and recorded.
    fn background_rate(
        &mut self,
        a: &FleetArgs,
        s: &Scenario,
        f: &FleetSection,
    ) -> InputResult<(u64, f64)> {
        let reels = Sourced::flag("--reels", a.reels.reels)
            .or(self.field("fleet.reels", &f.reels))
            .unwrap_or(Sourced::default(DEFAULT_REELS));
        reels.check(|v| validate::count("reels", *v, MAX_REELS))?;
        let per_day = Sourced::flag("--likes-per-day", a.likes_per_day)
            .or(self.fleet_or_top("likes_per_day", &f.likes_per_day, &s.likes_per_day))
            .unwrap_or(Sourced::default(DEFAULT_LIKES_PER_DAY));
        per_day.check(|v| validate::positive("likes_per_day", *v))?;
        let peak_factor = Sourced::flag("--peak-factor", a.peak_factor)
            .or(self.field("fleet.peak_factor", &f.peak_factor))
            .unwrap_or(Sourced::default(DEFAULT_PEAK_FACTOR));
        peak_factor.check(|v| validate::positive("peak_factor", *v))?;
        let background_rate = per_day.value / 86_400.0 * peak_factor.value;
        validate::rate("background_rate", background_rate)
            .map_err(|e| peak_factor.error(e.problem))?;
        self.inputs.record("reels", &reels);
        self.inputs.record("likes_per_day", &per_day);
        self.inputs.record("peak_factor", &peak_factor);
        Ok((reels.value, background_rate))
    }

    /// The background reels' rates: from a CSV, or Zipf over the ranks.
    fn background(
        &mut self,
        a: &FleetArgs,
        f: &FleetSection,
        reels: u64,
        background_rate: f64,
    ) -> InputResult<Background> {
        // Per-reel rates from a CSV, or Zipf over the ranks.
        let csv: Option<Sourced<PathBuf>> =
            Sourced::flag("--rates-csv", a.rates_csv.clone()).or(if a.zipf.is_some() {
                None
            } else {
                self.field("fleet.rates_csv", &f.rates_csv.clone().map(PathBuf::from))
            });
        match csv {
            Some(path) => {
                let rates = read_rates(&self.claims, &path.value, &path.source.to_string())?;
                self.inputs.record(
                    "rates_csv",
                    &path.clone().map(|p| super::input_file::shown(&p)),
                );
                Background::rates(rates).map_err(|e| path.error(e.problem))
            }
            None => {
                let z = Sourced::flag("--zipf", a.zipf)
                    .or(self.field("fleet.zipf_exponent", &f.zipf_exponent))
                    .unwrap_or(Sourced::default(DEFAULT_ZIPF_EXPONENT));
                self.inputs.record("zipf", &z);
                Background::zipf(reels, background_rate, z.value).map_err(|e| self.blame(e))
            }
        }
    }

    /// The pinned (hot) reels: `--hot-reel` flags, else the scenario's
    /// `[[fleet.hot_reels]]`; at most [`MAX_PINNED`].
    fn pinned_reels(&self, a: &FleetArgs, f: &FleetSection) -> InputResult<Vec<PinnedReel>> {
        let pinned = if a.hot_reel.is_empty() {
            let source = self.scenario.source("fleet.hot_reels");
            f.hot_reels
                .iter()
                .map(|p| pinned(&p.name, p.rate, p.shards, &source))
                .collect::<InputResult<Vec<_>>>()?
        } else {
            a.hot_reel
                .iter()
                .map(|t| parse_hot_reel(t))
                .collect::<InputResult<Vec<_>>>()?
        };
        if pinned.len() > MAX_PINNED {
            return Err(InputError::new(
                "--hot-reel",
                format!("at most {MAX_PINNED} pinned reels (got {})", pinned.len()),
            ));
        }
        Ok(pinned)
    }

    /// Views per like and the hot-key monitor's threshold and target
    /// shards, checked (recorded when the plan takes them).
    fn views_and_monitor(
        &self,
        a: &FleetArgs,
        f: &FleetSection,
    ) -> InputResult<(Sourced<f64>, Sourced<f64>, Sourced<u64>)> {
        let views_per_like = Sourced::flag("--views-per-like", a.views_per_like)
            .or(self.field("fleet.views_per_like", &f.views_per_like))
            .unwrap_or(Sourced::default(DEFAULT_VIEWS_PER_LIKE));
        views_per_like.check(|v| validate::positive("views_per_like", *v))?;
        let threshold = Sourced::flag("--threshold", a.monitor.threshold)
            .or(self.field("fleet.threshold", &f.threshold))
            .unwrap_or(Sourced::default(DEFAULT_THRESHOLD));
        threshold.check(|v| validate::rate("threshold", *v))?;
        let target = Sourced::flag("--target-shards", a.monitor.target_shards)
            .or(self.field("fleet.target_shards", &f.target_shards))
            .unwrap_or(Sourced::default(DEFAULT_TARGET_SHARDS));
        target.check(|v| validate::count("target_shards", *v, MAX_SHARDS))?;
        Ok((views_per_like, threshold, target))
    }

    /// The partitions the shard keys hash onto and the cap per key (and
    /// per partition), checked (recorded when the plan takes them).
    fn partitions_and_cap(
        &self,
        a: &FleetArgs,
        s: &Scenario,
        f: &FleetSection,
    ) -> InputResult<(Sourced<u64>, Sourced<f64>)> {
        let partitions = Sourced::flag("--partitions", a.partitions.partitions)
            .or(self.field("fleet.partitions", &f.partitions))
            .or(self.field("partitions", &s.partitions))
            .unwrap_or(Sourced::default(DEFAULT_FLEET_PARTITIONS));
        partitions.check(|v| validate::count("partitions", *v, MAX_FLEET_PARTITIONS))?;
        let cap = Sourced::flag("--cap", a.cap.cap)
            .or(self.fleet_or_top("cap", &f.cap, &s.cap))
            .unwrap_or(Sourced::default(DEFAULT_CAP));
        cap.check(|v| validate::rate("cap", *v))?;
        Ok((partitions, cap))
    }

    /// The read plan: servers and cache seconds, recorded.
    fn fleet_reads(
        &mut self,
        a: &FleetArgs,
        s: &Scenario,
        f: &FleetSection,
    ) -> InputResult<ReadPlan> {
        let servers = Sourced::flag("--servers", a.cache.servers.servers)
            .or(self.field("fleet.servers", &f.servers))
            .or(self.field("servers", &s.servers))
            .unwrap_or(Sourced::default(DEFAULT_SERVERS));
        let cache = Sourced::flag("--cache-seconds", a.cache.cache_seconds)
            .or(self.fleet_or_top("cache_seconds", &f.cache_seconds, &s.cache_seconds))
            .unwrap_or(Sourced::default(DEFAULT_CACHE_SECONDS));
        self.inputs.record("servers", &servers);
        self.inputs.record("cache_seconds", &cache);
        // Views are set per reel; the read plan checks servers and cache.
        ReadPlan::new(
            1.0,
            servers.value,
            cache.value,
            Some(DEFAULT_BATCH),
            Some(DEFAULT_READ_CAP),
        )
        .map_err(|e| self.blame(e))
    }

    /// The hot spell, whole seconds, and the risk accepted over it,
    /// checked (recorded when the plan takes them).
    fn hot_spell(
        &self,
        a: &FleetArgs,
        s: &Scenario,
        f: &FleetSection,
    ) -> InputResult<(Sourced<u64>, Sourced<f64>)> {
        // One hot spell for every command: the [fleet] section's, else the
        // scenario's duration_seconds (whole seconds up), else 4 h.
        let top_duration = s.duration_seconds.map(|d| d.ceil() as u64);
        // --duration as typed (fractions of a second rounded up, as the
        // scenario's), checked positive before the rounding.
        if let Some(d) = Sourced::flag("--duration", a.duration.seconds()) {
            d.check(|v| validate::positive("duration", *v))?;
        }
        let flag = a.duration.seconds().map(|d| d.ceil() as u64);
        let duration = Sourced::flag("--duration", flag)
            .or(self.field("fleet.duration", &f.duration))
            .or(self.field("duration_seconds", &top_duration))
            .unwrap_or(Sourced::default(DEFAULT_DURATION_SECONDS as u64));
        duration.check(|v| validate::count("duration", *v, MAX_FLEET_DURATION_SECONDS))?;
        let risk = Sourced::flag("--risk", a.risk.risk)
            .or(self.fleet_or_top("risk", &f.risk, &s.risk))
            .unwrap_or(Sourced::default(DEFAULT_RISK));
        risk.check(|v| validate::probability_open("risk", *v))?;
        Ok((duration, risk))
    }

    /// The search for the smallest plan: the most shards a reel may get,
    /// the placements sampled and their seed, checked (recorded when the
    /// plan takes them).
    fn shard_search(
        &self,
        a: &FleetArgs,
        s: &Scenario,
        f: &FleetSection,
    ) -> InputResult<(Sourced<u64>, Sourced<u64>, Sourced<u64>)> {
        let max_shards = Sourced::flag("--max-shards", a.max_shards)
            .or(self.field("fleet.max_shards", &f.max_shards))
            .unwrap_or(Sourced::default(DEFAULT_FLEET_MAX_SHARDS));
        max_shards.check(|v| validate::count("max_shards", *v, MAX_SHARDS))?;
        let trials = Sourced::flag("--trials", a.trials.trials)
            .or(self.field("fleet.trials", &f.trials))
            .unwrap_or(Sourced::default(DEFAULT_FLEET_TRIALS));
        trials.check(|v| validate::count("trials", *v, MAX_FLEET_TRIALS))?;
        let seed = Sourced::flag("--seed", a.seed.seed)
            .or(self.field("fleet.seed", &f.seed))
            .or(self.field("seed", &s.seed))
            .unwrap_or(Sourced::default(DEFAULT_SEED));
        Ok((max_shards, trials, seed))
    }

    /// The shard count of each pinned reel that has none, sized on the
    /// fleet's cap, safe rate, partitions and hot spell; and, where the
    /// scenario's own law is fixed traffic, what `size` answers for it
    /// there (`BesideSize`: the two differ by the law alone).
    fn size_pinned_reels(
        &mut self,
        a: &FleetArgs,
        pinned: &mut [PinnedReel],
        shared: SharedPartitions,
        safe: f64,
        reads: ReadPlan,
    ) -> InputResult<Vec<BesideSizeReel>> {
        // A pinned reel without its own count gets the recommendation for it
        // alone, from the same function as `size` on the same figures: its
        // rate, the cap and safe rate, these partitions, this hot spell and
        // risk, under the fleet's own law, Poisson arrivals (not the
        // scenario's: a count sized for fixed traffic's union bound can fail
        // the exact Poisson risk every other fleet figure is weighed by).
        let reel_source = match a.hot_reel.is_empty() {
            true => self.scenario.source("fleet.hot_reels"),
            false => Source::Flag("--hot-reel"),
        };
        let for_reel = |name: &str, e: crate::error::ParamError| {
            InputError::new(
                &reel_source,
                format!(
                    "{name}: its shard count cannot be sized: {} {}",
                    e.param, e.problem
                ),
            )
        };
        let fixed = matches!(
            self.scenario.scenario.traffic,
            None | Some(TrafficKind::Fixed)
        );
        let mut beside = Vec::new();
        if pinned.iter().any(|r| r.shards.is_none()) {
            self.inputs.record(
                "traffic",
                &Sourced::derived(
                    TrafficKind::Poisson.name(),
                    "fleet weighs its partitions under Poisson arrivals",
                ),
            );
            let target = shared.target;
            for reel in pinned.iter_mut().filter(|r| r.shards.is_none()) {
                let inputs = PlanInputs {
                    sizing: SizingPlan::new(reel.rate, shared.cap, SafeRate::PerKey(safe))
                        .map_err(|e| for_reel(&reel.name, e))?,
                    risk: Some(target),
                    key_check: target,
                    partitions: Some(shared),
                    nodes: None,
                    reads,
                    store: None,
                    write_cost: None,
                    writers: crate::model::picker::Writers::random(reads.servers),
                };
                let shards = inputs
                    .recommended_shards()
                    .map_err(|e| for_reel(&reel.name, e))?;
                reel.shards = Some(shards);
                if let Some(n) = fixed.then(|| size_answer(&inputs, shards)).flatten() {
                    beside.push(BesideSizeReel {
                        name: reel.name.clone(),
                        fleet_shards: shards,
                        size_shards: n,
                    });
                }
            }
        }
        Ok(beside)
    }
}

/// What `size` answers for a pinned reel the fleet sized as `inputs` to
/// `shards` keys under Poisson arrivals: the same plan under the
/// scenario's fixed traffic, where it differs (a failed search says
/// nothing).
fn size_answer(inputs: &PlanInputs, shards: u64) -> Option<u64> {
    let on = RiskTarget {
        traffic: TrafficModel::Fixed,
        ..inputs.key_check
    };
    let sized = PlanInputs {
        risk: Some(on),
        key_check: on,
        partitions: inputs
            .partitions
            .map(|p| SharedPartitions { target: on, ..p }),
        ..inputs.clone()
    };
    sized.recommended_shards().ok().filter(|n| *n != shards)
}

/// `NAME=RATE` or `NAME=RATE:SHARDS`.
fn parse_hot_reel(text: &str) -> InputResult<PinnedReel> {
    let bad = || {
        InputError::new(
            "--hot-reel",
            format!("must be NAME=RATE or NAME=RATE:SHARDS, e.g. post-1=200000:286 (got {text:?})"),
        )
    };
    let (name, rest) = text.split_once('=').ok_or_else(bad)?;
    let (rate, shards) = match rest.split_once(':') {
        Some((r, s)) => (r, Some(s.trim().parse::<u64>().map_err(|_| bad())?)),
        None => (rest, None),
    };
    let rate: f64 = rate.trim().parse().map_err(|_| bad())?;
    if name.trim().is_empty() {
        return Err(bad());
    }
    pinned(name.trim(), rate, shards, &Source::Flag("--hot-reel"))
}

/// A pinned reel, its rate and shards checked and named after `source`.
fn pinned(name: &str, rate: f64, shards: Option<u64>, source: &Source) -> InputResult<PinnedReel> {
    let named = |e: crate::error::ParamError| InputError::new(source, e.problem);
    let rate = validate::rate("rate", rate).map_err(named)?;
    if let Some(s) = shards {
        validate::count("shards", s, MAX_SHARDS).map_err(named)?;
    }
    Ok(PinnedReel {
        name: name.to_string(),
        rate,
        shards,
    })
}

/// Streams a `reel_id,rate` CSV into a rate per reel; errors name `what`.
fn read_rates(claims: &crate::files::Claims, path: &Path, what: &str) -> InputResult<Vec<f64>> {
    let file = super::input_file::open(claims, what, path)?;
    let shown = super::input_file::shown(path);
    let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::All).from_reader(
        super::input_file::LineBound::new(std::io::BufReader::new(file), MAX_CSV_LINE_BYTES),
    );
    let headers = reader
        .headers()
        .map_err(|e| InputError::new(what, format!("{shown}: {e}")))?;
    let col = headers.iter().position(|h| h == "rate").ok_or_else(|| {
        InputError::new(what, format!("{shown} needs a header line reel_id,rate"))
    })?;
    let mut rates = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| InputError::new(what, format!("line {line}: {e}")))?;
        let field = rec.get(col).unwrap_or("");
        let r: f64 = field.parse().map_err(|_| {
            InputError::new(
                what,
                format!("line {line}: rate must be a number (got {field:?})"),
            )
        })?;
        if !r.is_finite() || r < 0.0 {
            return Err(InputError::new(
                what,
                format!("line {line}: rate must be a finite number >= 0 (got {field})"),
            ));
        }
        rates.push(r);
        if rates.len() as u64 > MAX_CSV_REELS {
            return Err(InputError::new(
                what,
                format!(
                    "has more than {MAX_CSV_REELS} reels; a larger fleet is a Zipf one (--reels, \
                     --zipf)"
                ),
            ));
        }
    }
    Ok(rates)
}
