//! What a run is: the validated [`MeasureConfig`], the keys it writes and
//! the `--duration` syntax (the URL checks are in [`super::url`]).

use std::time::Duration;

use crate::error::{InputError, InputResult};
use crate::model::defaults::{
    MAX_CLIENTS, MAX_DURATION, MAX_MEASURE_RUNS, MAX_OPS, MAX_PIPELINE, MAX_READS, MAX_SHARDS,
    MAX_TIMEOUT, MIN_TIMEOUT,
};
use crate::model::picker::Picker;
use crate::model::placement::ShardTemplate;
use crate::model::validate;

/// A validated `shardplan measure` invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct MeasureConfig {
    /// `--redis`: a `redis://` URL (for a cluster, any node).
    pub redis: String,
    /// `--cluster`: talk Redis Cluster (route by slot, follow MOVED).
    pub cluster: bool,
    /// `--shards`: S, the number of shard keys.
    pub shards: u64,
    /// `--clients`: C, the concurrent connections.
    pub clients: u64,
    /// `--duration`: the time limit of each phase.
    pub duration: Duration,
    /// `--runs`: how many times each phase is measured, alternating
    /// (default [`DEFAULT_MEASURE_RUNS`](crate::model::defaults::DEFAULT_MEASURE_RUNS)).
    pub runs: u64,
    /// `--max-ops`: the INCR limit of each phase (`None`: time only).
    pub max_ops: Option<u64>,
    /// `--pipeline`: INCRs sent per round trip (1 = no pipelining).
    pub pipeline: u64,
    /// `--template`: the shard key pattern, with `<shard>` where the shard
    /// number goes: the rule and the expansion `shardplan keys` uses.
    /// `None`: keys named by a fresh random run id, `shardplan:<id>:<shard>`.
    pub template: Option<ShardTemplate>,
    /// `--keep`: leave the keys in Redis after the run.
    pub keep: bool,
    /// `--overwrite`: set aside string keys that exist before the run and
    /// restore them after it, instead of refusing.
    pub overwrite: bool,
    /// `--timeout`: how long each reply may take before the run fails
    /// (default [`RESPONSE_TIMEOUT`](crate::model::defaults::RESPONSE_TIMEOUT)).
    pub timeout: Duration,
    /// Repetitions of each read-path measurement (no flag; 100 from
    /// [`MeasureConfig::new`]).
    pub reads: u64,
    /// Seeds the per-client shard choice (no flag; 1 from
    /// [`MeasureConfig::new`]).
    pub seed: u64,
    /// `--picker`: how each client, as app server `c` (its index), picks
    /// the shard key of each INCR (random from [`MeasureConfig::new`]).
    pub picker: Picker,
}

impl MeasureConfig {
    /// Validate the required flags; `runs` (5), `keep`, `overwrite`,
    /// `reads` (100), `seed` (1) and `picker` (random) take defaults and
    /// can be set on the result.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        redis: &str,
        cluster: bool,
        shards: u64,
        clients: u64,
        duration: Duration,
        max_ops: Option<u64>,
        pipeline: u64,
        template: Option<&str>,
    ) -> InputResult<Self> {
        // The same template rule as `keys`: at least one placeholder; every
        // one takes the shard number. No padding, so shard 3 is `likes:3`.
        let template = template
            .map(|t| ShardTemplate::new(t, 0).map_err(flag("--template")))
            .transpose()?;
        let config = MeasureConfig {
            redis: redis.to_string(),
            cluster,
            shards,
            clients,
            duration,
            runs: crate::model::defaults::DEFAULT_MEASURE_RUNS,
            max_ops,
            pipeline,
            template,
            keep: false,
            overwrite: false,
            timeout: crate::model::defaults::RESPONSE_TIMEOUT,
            reads: crate::model::defaults::DEFAULT_MEASURE_READS,
            seed: crate::model::defaults::DEFAULT_MEASURE_SEED,
            picker: Picker::Random,
        };
        config.validate()?;
        Ok(config)
    }

    /// Check every field (the template was checked when it was built);
    /// [`run`](super::run) calls this too, since fields are public. Each
    /// error names the `shardplan measure` flag that sets the field;
    /// `reads`, which no flag sets, is named as the parameter.
    pub fn validate(&self) -> InputResult<()> {
        super::url::check_url(&self.redis)?;
        validate::count("shards", self.shards, MAX_SHARDS).map_err(flag("--shards"))?;
        validate::count("clients", self.clients, MAX_CLIENTS).map_err(flag("--clients"))?;
        validate::count("pipeline", self.pipeline, MAX_PIPELINE).map_err(flag("--pipeline"))?;
        validate::count("reads", self.reads, MAX_READS)?;
        validate::count("runs", self.runs, MAX_MEASURE_RUNS).map_err(flag("--runs"))?;
        if let Some(m) = self.max_ops {
            validate::count("max_ops", m, MAX_OPS).map_err(flag("--max-ops"))?;
        }
        check_duration_and_timeout(self.duration, self.timeout)?;
        if self.keep && self.overwrite {
            return Err(InputError::new(
                "--overwrite",
                "cannot be combined with --keep: --overwrite restores the keys it set aside after the run, which --keep would prevent",
            ));
        }
        Ok(())
    }
}

/// Name the flag `what` in an error a model check raised: the model names
/// its own parameter (`shards`, `template`), while each value here came from
/// one flag. The message stays the model's.
fn flag<E: Into<InputError>>(what: &'static str) -> impl Fn(E) -> InputError {
    move |e| InputError::new(what, e.into().message)
}

/// Parse `--duration` (`10`, `10s`, `500ms`, `2m`) with the project's
/// duration syntax.
pub fn parse_duration(what: &str, text: &str) -> InputResult<Duration> {
    crate::model::duration::parse_seconds(text)
        .map(Duration::from_secs_f64)
        .map_err(|e| InputError::new(what, e))
}

/// `--duration` (more than 0, at most 1h) and `--timeout` (10ms to 1m), as
/// both stores' runs accept them.
pub(crate) fn check_duration_and_timeout(
    duration: Duration,
    timeout: Duration,
) -> Result<(), InputError> {
    if duration.is_zero() || duration > MAX_DURATION {
        return Err(InputError::new(
            "--duration",
            format!(
                "must be more than 0 and at most 1h, e.g. 10s or 500ms (got {} s)",
                duration.as_secs_f64()
            ),
        ));
    }
    if timeout < MIN_TIMEOUT || timeout > MAX_TIMEOUT {
        return Err(InputError::new(
            "--timeout",
            format!(
                "must be from 10ms to 1m, e.g. 10s or 500ms (got {} s)",
                timeout.as_secs_f64()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(template: &str) -> InputResult<MeasureConfig> {
        MeasureConfig::new(
            "redis://127.0.0.1:7000",
            true,
            16,
            50,
            Duration::from_secs(10),
            None,
            1,
            Some(template),
        )
    }

    #[test]
    fn templates_follow_the_keys_rule() {
        for t in [
            "likes:<shard>",
            "<shard>",
            "{likes}:<shard>",
            "<shard>:<shard>",
            "likes",
            "",
            "likes:<SHARD>",
            "likes:{shard}",
        ] {
            let keys = ShardTemplate::new(t, 0);
            let measure = config(t);
            assert_eq!(measure.is_ok(), keys.is_ok(), "{t:?}");
            if let (Err(m), Err(k)) = (measure, keys) {
                assert_eq!(m, flag("--template")(k), "{t:?}: the same message as keys");
            }
        }
    }

    #[test]
    fn bad_flags_name_the_flag() {
        let e = config("likes").unwrap_err();
        assert_eq!(e.what, "--template");
        for url in [
            "127.0.0.1:7000",
            "http://127.0.0.1:7000",
            "redis://",
            "redis://host:notaport",
            "rediss://127.0.0.1:6379",
        ] {
            let e = MeasureConfig::new(
                url,
                false,
                1,
                1,
                Duration::from_secs(1),
                None,
                1,
                Some("k:<shard>"),
            )
            .unwrap_err();
            assert_eq!(e.what, "--redis", "{url}: {e}");
        }
        let ok = |s, c, p, m| {
            MeasureConfig::new(
                "redis://127.0.0.1",
                false,
                s,
                c,
                Duration::from_secs(1),
                m,
                p,
                Some("k:<shard>"),
            )
        };
        assert_eq!(ok(0, 1, 1, None).unwrap_err().what, "--shards");
        assert_eq!(ok(1, 0, 1, None).unwrap_err().what, "--clients");
        assert_eq!(ok(1, 1, 0, None).unwrap_err().what, "--pipeline");
        assert_eq!(ok(1, 1, 1, Some(0)).unwrap_err().what, "--max-ops");
        let e = MeasureConfig::new(
            "redis://127.0.0.1",
            false,
            1,
            1,
            Duration::ZERO,
            None,
            1,
            Some("k:<shard>"),
        )
        .unwrap_err();
        assert_eq!(e.what, "--duration");
    }

    #[test]
    fn messages_name_the_flag_and_reads_its_parameter() {
        let mut c = config("likes:<shard>").unwrap();
        let said = |c: &MeasureConfig| c.validate().unwrap_err().to_string();
        c.shards = 0;
        assert_eq!(
            said(&c),
            "--shards: must be a whole number from 1 to 100000 (got 0)"
        );
        c.shards = 16;
        c.clients = 1001;
        assert_eq!(
            said(&c),
            "--clients: must be a whole number from 1 to 1000 (got 1001)"
        );
        c.clients = 50;
        c.pipeline = 0;
        assert_eq!(
            said(&c),
            "--pipeline: must be a whole number from 1 to 10000 (got 0)"
        );
        c.pipeline = 1;
        c.max_ops = Some(0);
        assert_eq!(
            said(&c),
            "--max-ops: must be a whole number from 1 to 1000000000 (got 0)"
        );
        c.max_ops = None;
        for runs in [0, 1001] {
            c.runs = runs;
            assert_eq!(
                said(&c),
                format!("--runs: must be a whole number from 1 to 1000 (got {runs})")
            );
        }
        c.runs = 1;
        c.duration = Duration::from_secs(3601);
        assert_eq!(
            said(&c),
            "--duration: must be more than 0 and at most 1h, e.g. 10s or 500ms (got 3601 s)"
        );
        c.duration = Duration::from_secs(10);
        // No flag sets `reads`: it is named as the parameter, not as a flag.
        c.reads = 0;
        assert_eq!(
            said(&c),
            "reads: must be a whole number from 1 to 100000 (got 0)"
        );
    }

    #[test]
    fn durations_parse() {
        assert_eq!(
            parse_duration("--duration", "10s").unwrap(),
            Duration::from_secs(10)
        );
        assert_eq!(
            parse_duration("--duration", "500ms").unwrap(),
            Duration::from_millis(500)
        );
        assert_eq!(
            parse_duration("--duration", "2").unwrap(),
            Duration::from_secs(2)
        );
        assert_eq!(
            parse_duration("--duration", "1.5m").unwrap(),
            Duration::from_secs(90)
        );
        for bad in ["", "0", "-1", "ten", "10 parsecs", "NaN"] {
            assert_eq!(
                parse_duration("--duration", bad).unwrap_err().what,
                "--duration",
                "{bad}"
            );
        }
    }
}
