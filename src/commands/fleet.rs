//! `shardplan fleet`: the whole table of reels. Flags over the scenario's
//! `[fleet]` section over the scenario's top-level figures over defaults.

use crate::model::defaults::MAX_PINNED;
use std::path::Path;

use crate::cli::FleetArgs;
use crate::config::check;
use crate::config::resolve as common;
use crate::error::{InputError, InputResult};
use crate::model::fleet::{Background, FleetPlan, PinnedReel};
use crate::model::sizing::ReadPlan;
use crate::output::OutputSet;
use crate::views::fleet::FleetView;

/// A flag's value, else the scenario's, else the default, with the name to
/// use in an error about it.
fn pick<T>(
    flag: Option<T>,
    flag_name: &str,
    field: Option<T>,
    field_name: String,
    default: T,
) -> (T, String) {
    match (flag, field) {
        (Some(v), _) => (v, flag_name.to_string()),
        (None, Some(v)) => (v, field_name),
        (None, None) => (default, flag_name.to_string()),
    }
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
    pinned(name.trim(), rate, shards, "--hot-reel")
}

fn pinned(name: &str, rate: f64, shards: Option<u64>, what: &str) -> InputResult<PinnedReel> {
    let rate = check::rate(what, rate)?;
    if let Some(s) = shards {
        check::count(what, s, crate::model::defaults::MAX_SHARDS)?;
    }
    Ok(PinnedReel {
        name: name.to_string(),
        rate,
        shards,
    })
}

/// Streams a `reel_id,rate` CSV into a rate per reel.
fn read_rates(path: &Path, what: &str) -> InputResult<Vec<f64>> {
    let file = std::fs::File::open(path)
        .map_err(|e| InputError::new(what, format!("cannot read {}: {e}", path.display())))?;
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(std::io::BufReader::new(file));
    let headers = reader
        .headers()
        .map_err(|e| InputError::new(what, format!("{}: {e}", path.display())))?;
    let col = headers.iter().position(|h| h == "rate").ok_or_else(|| {
        InputError::new(
            what,
            format!("{} needs a header line reel_id,rate", path.display()),
        )
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
        if rates.len() as u64 > crate::model::defaults::MAX_REELS {
            return Err(InputError::new(
                what,
                format!("has more than {} reels", crate::model::defaults::MAX_REELS),
            ));
        }
    }
    Ok(rates)
}

/// Flags over scenario over defaults, validated; and the thread count.
pub fn resolve(args: &FleetArgs) -> anyhow::Result<(String, FleetPlan, usize)> {
    let l = common::load_scenario(&args.scenario)?;
    let s = &l.scenario;
    let f = s.fleet.clone().unwrap_or_default();
    let fld = |name: &str| l.field(&format!("fleet.{name}"));

    let (reels, what) = pick(
        args.reels,
        "--reels",
        f.reels,
        fld("reels"),
        crate::model::defaults::DEFAULT_REELS,
    );
    let reels = check::count(&what, reels, crate::model::defaults::MAX_REELS)?;
    let (per_day, what) = pick(
        args.likes_per_day,
        "--likes-per-day",
        f.likes_per_day.or(s.likes_per_day),
        if f.likes_per_day.is_some() {
            fld("likes_per_day")
        } else {
            l.field("likes_per_day")
        },
        crate::model::defaults::DEFAULT_LIKES_PER_DAY,
    );
    let per_day = check::positive(&what, per_day)?;
    let (peak_factor, what) = pick(
        args.peak_factor,
        "--peak-factor",
        f.peak_factor,
        fld("peak_factor"),
        crate::model::defaults::DEFAULT_PEAK_FACTOR,
    );
    let peak_factor = check::positive(&what, peak_factor)?;
    let background_rate = per_day / 86_400.0 * peak_factor;
    check::rate(&what, background_rate)?;

    let csv_path = args
        .rates_csv
        .as_ref()
        .map(|p| (p.clone(), "--rates-csv".to_string()))
        .or_else(|| {
            if args.zipf.is_some() {
                None
            } else {
                f.rates_csv.as_ref().map(|p| (p.into(), fld("rates_csv")))
            }
        });
    let background = match csv_path {
        Some((path, what)) => Background::rates(read_rates(&path, &what)?)
            .map_err(|e| InputError::new(&what, e.message))?,
        None => {
            let (z, what) = pick(
                args.zipf,
                "--zipf",
                f.zipf_exponent,
                fld("zipf_exponent"),
                crate::model::defaults::DEFAULT_ZIPF_EXPONENT,
            );
            Background::zipf(reels, background_rate, z).map_err(|e| rename(e, "--zipf", &what))?
        }
    };

    let mut pinned_reels = Vec::new();
    if args.hot_reel.is_empty() {
        for p in &f.hot_reels {
            pinned_reels.push(pinned(&p.name, p.rate, p.shards, &fld("hot_reels"))?);
        }
    } else {
        for text in &args.hot_reel {
            pinned_reels.push(parse_hot_reel(text)?);
        }
    }
    if pinned_reels.len() > crate::model::defaults::MAX_PINNED {
        return Err(InputError::new(
            "--hot-reel",
            format!(
                "at most {MAX_PINNED} pinned reels (got {})",
                pinned_reels.len()
            ),
        )
        .into());
    }

    let (views_per_like, what) = pick(
        args.views_per_like,
        "--views-per-like",
        f.views_per_like,
        fld("views_per_like"),
        crate::model::defaults::DEFAULT_VIEWS_PER_LIKE,
    );
    let views_per_like = check::positive(&what, views_per_like)?;
    let (threshold, what) = pick(
        args.threshold,
        "--threshold",
        f.threshold,
        fld("threshold"),
        crate::model::defaults::DEFAULT_THRESHOLD,
    );
    let threshold = check::rate(&what, threshold)?;
    let (target, what) = pick(
        args.target_shards,
        "--target-shards",
        f.target_shards,
        fld("target_shards"),
        crate::model::defaults::DEFAULT_TARGET_SHARDS,
    );
    let target = check::count(&what, target, crate::model::defaults::MAX_SHARDS)?;
    let (partitions, what) = pick(
        args.partitions,
        "--partitions",
        f.partitions,
        fld("partitions"),
        crate::model::defaults::DEFAULT_FLEET_PARTITIONS,
    );
    let partitions = check::count(
        &what,
        partitions,
        crate::model::defaults::MAX_FLEET_PARTITIONS,
    )?;
    let (cap, what) = pick(
        args.cap,
        "--cap",
        f.cap.or(s.cap),
        fld("cap"),
        crate::model::defaults::DEFAULT_CAP,
    );
    let cap = check::rate(&what, cap)?;
    let (servers, what) = pick(
        args.servers,
        "--servers",
        f.servers.or(s.servers),
        fld("servers"),
        crate::model::defaults::DEFAULT_SERVERS,
    );
    let servers = check::count(&what, servers, 10_000_000)?;
    let (cache, what) = pick(
        args.cache_seconds,
        "--cache-seconds",
        f.cache_seconds.or(s.cache_seconds),
        fld("cache_seconds"),
        crate::model::defaults::DEFAULT_CACHE_SECONDS,
    );
    let cache = check::non_negative(&what, cache)?;
    // Views are set per reel; ReadPlan checks the rest.
    let reads = ReadPlan::new(
        1.0,
        servers,
        cache,
        crate::model::defaults::DEFAULT_BATCH,
        crate::model::defaults::DEFAULT_READ_CAP,
    )?;
    let (duration, what) = pick(
        args.duration,
        "--duration",
        f.duration,
        fld("duration"),
        crate::model::defaults::DEFAULT_FLEET_DURATION_SECONDS,
    );
    let duration = check::count(&what, duration, 365 * 86_400)?;
    let (risk, what) = pick(
        args.risk,
        "--risk",
        f.risk,
        fld("risk"),
        crate::model::defaults::DEFAULT_RISK,
    );
    let risk = check::probability_open(&what, risk)?;
    let (max_shards, what) = pick(
        args.max_shards,
        "--max-shards",
        f.max_shards,
        fld("max_shards"),
        crate::model::defaults::DEFAULT_FLEET_MAX_SHARDS,
    );
    let max_shards = check::count(&what, max_shards, crate::model::defaults::MAX_SHARDS)?;
    let (trials, what) = pick(
        args.trials,
        "--trials",
        f.trials,
        fld("trials"),
        crate::model::defaults::DEFAULT_FLEET_TRIALS,
    );
    let trials = check::count(&what, trials, crate::model::defaults::MAX_FLEET_TRIALS)?;
    let (search_trials, what) = pick(
        args.search_trials,
        "--search-trials",
        f.search_trials,
        fld("search_trials"),
        crate::model::defaults::DEFAULT_FLEET_SEARCH_TRIALS,
    );
    let search_trials = check::count(
        &what,
        search_trials,
        crate::model::defaults::MAX_FLEET_TRIALS,
    )?;
    let seed = args
        .seed
        .or(f.seed)
        .or(s.seed)
        .unwrap_or(crate::model::defaults::DEFAULT_SEED);
    let threads = match args.threads {
        Some(t) => check::count("--threads", t, 1024)? as usize,
        None => 0,
    };
    let plan = FleetPlan {
        background,
        pinned: pinned_reels,
        views_per_like,
        threshold,
        target_shards: target,
        partitions,
        cap,
        safe: cap * (1.0 - crate::model::defaults::DEFAULT_HEADROOM),
        reads,
        seconds: duration,
        risk,
        trials,
        search_trials,
        max_shards,
        seed,
    };
    Ok((l.name, plan, threads))
}

fn rename(e: InputError, from: &str, to: &str) -> InputError {
    if e.what == from {
        InputError::new(to, e.message)
    } else {
        e
    }
}

pub fn run(args: FleetArgs) -> anyhow::Result<()> {
    let (scenario, plan, threads) = resolve(&args)?;
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let report = pool.install(|| plan.evaluate());
    out.emit(&FleetView { scenario, report })
}
