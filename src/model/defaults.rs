//! Every built-in default and every limit, once. Defaults are the design's
//! reference figures (a reel planned at 14,000 likes/s on DynamoDB-like
//! keys: 1,000 writes/s, 30% headroom, 50,000 views/s on 40 servers); the
//! configuration layer fills any input no flag, scenario or store preset
//! gives from here. Limits bound what the models accept, so that every
//! count fits its integer type and every run finishes.

use std::time::Duration;

// ---- Load and sizing -------------------------------------------------

/// Write cap per key (DynamoDB: 1,000 write units/s per partition).
pub const DEFAULT_CAP: f64 = 1000.0;
/// Share of the cap kept free: safe = cap x (1 - headroom).
pub const DEFAULT_HEADROOM: f64 = 0.3;
/// Planned peak = observed x growth.
pub const DEFAULT_GROWTH: f64 = 1.5;
/// Accepted chance of any second over the cap during the hot spell (and,
/// in `fleet`, of some partition over its cap during the peak).
pub const DEFAULT_RISK: f64 = 0.01;
/// Four hours: a viral evening.
pub const DEFAULT_DURATION_SECONDS: f64 = 14_400.0;
/// Largest like rate accepted: far beyond any real reel, and it keeps
/// `rate x seconds` well inside `u64`.
pub const MAX_RATE: f64 = 1e9;
/// The cool-down a negative-shard chance covers by default: an hour.
pub const DEFAULT_COOL_DOWN_SECONDS: f64 = 3_600.0;
/// Likes/s during the cool-down by default: a reel past its evening.
pub const DEFAULT_COOL_DOWN_RATE: f64 = 1.0;
/// Most mean likes per shard the negative-shard chance sums exactly (its
/// terms span about 80 sqrt(a) values of k, each a Poisson tail of about
/// sqrt(a) terms: a tenth of a second at 1e6).
pub const MAX_COOL_DOWN_LIKES_PER_SHARD: f64 = 1e6;
/// Largest shard count accepted.
pub const MAX_SHARDS: u64 = 100_000;
/// Largest planned count of one second under empirical traffic: the
/// largest rate accepted, as a whole number of likes.
pub const MAX_EMPIRICAL_COUNT: u64 = 1_000_000_000;

// ---- Simulation ------------------------------------------------------

/// Simulated seconds.
pub const DEFAULT_SECONDS: u64 = 2000;
/// Master seed of every random figure.
pub const DEFAULT_SEED: u64 = 2026;
/// Largest run accepted: 1e12 seconds is 31,700 years.
pub const MAX_SECONDS: u64 = 1_000_000_000_000;
/// Most worker threads accepted.
pub const MAX_THREADS: u64 = 1024;
/// Most likes a time line may expect in all (u64 counters with room to spare).
pub const MAX_TOTAL_LIKES: f64 = 1e18;

// ---- Reads -----------------------------------------------------------

/// Views of the count per second.
pub const DEFAULT_VIEWS: f64 = 50_000.0;
/// Likes servers, each caching the sum.
pub const DEFAULT_SERVERS: u64 = 40;
/// Seconds each server caches the sum.
pub const DEFAULT_CACHE_SECONDS: f64 = 2.0;
/// Items one batch read fetches (DynamoDB BatchGetItem).
pub const DEFAULT_BATCH: u64 = 100;
/// Read cap per key (DynamoDB: 3,000 read units/s per partition).
pub const DEFAULT_READ_CAP: f64 = 3000.0;
/// Most app (likes) servers accepted, one limit for every picker and
/// every command: the pickers other than `random` and `user-hash` draw a
/// second server by server, and no fleet of app servers in front of one
/// hot counter comes near it.
pub const MAX_SERVERS: u64 = 100_000;
/// Largest batch accepted.
pub const MAX_BATCH: u64 = 1_000_000;

// ---- Burst capacity and the hot-key monitor --------------------------

/// DynamoDB's documented burst window: up to 300 seconds of unused capacity.
pub const DEFAULT_BURST_SECONDS: u64 = 300;
/// Largest burst window accepted: one day.
pub const MAX_BURST_SECONDS: u64 = 86_400;
/// Likes/s (mean over the window) that make the monitor raise a reel.
pub const DEFAULT_THRESHOLD: f64 = 300.0;
/// The window the monitor measures the rate over.
pub const DEFAULT_WINDOW_SECONDS: u64 = 60;
/// Shards a raised reel gets.
pub const DEFAULT_TARGET_SHARDS: u64 = 20;
/// How long each likes server caches the shard settings.
pub const DEFAULT_SETTINGS_TTL_SECONDS: u64 = 60;
/// Longest window, TTL or delay accepted: one day.
pub const MAX_MONITOR_SECONDS: u64 = 86_400;

// ---- Resize ----------------------------------------------------------

/// Likes on the counter before a grow.
pub const DEFAULT_LIKES_BEFORE: u64 = 500;
/// Likes arriving during a grow.
pub const DEFAULT_LIKES_AFTER: u64 = 1000;
/// Largest like count accepted for a resize.
pub const MAX_RESIZE_LIKES: u64 = 1_000_000_000_000;
/// Longest settings TTL accepted for a resize: one day.
pub const MAX_TTL_SECONDS: u64 = 86_400;

// ---- Placement and partitions ----------------------------------------

/// Width `keys` zero-pads the shard number to (0: no padding).
pub const DEFAULT_PAD: u64 = 0;
/// Shards `keys` expands a template for.
pub const DEFAULT_KEY_SHARDS: u64 = 20;
/// Most keys `keys` lists, from a template or a file: far beyond any
/// counter's shards, and small enough that every output format stays under
/// 64 MB resident (20,000 keys of 100 bytes as a table: about 50 MB).
pub const MAX_KEYS: u64 = 20_000;
/// Most key text `keys` lists (the keys' bytes added up): 2 MiB, e.g.
/// 20,000 keys of 100 bytes or 4,000 of 512.
pub const MAX_KEY_TEXT_BYTES: u64 = 2 << 20;
/// Longest key template: a key is a few dozen bytes.
pub const MAX_TEMPLATE_BYTES: usize = 512;

/// Redis Cluster is documented to scale to about 1,000 master nodes; more
/// would also leave some nodes with a single slot.
pub const MAX_NODES: u32 = 1_000;
/// Widest `--pad` accepted: a u64 has at most 20 decimal digits.
pub const MAX_PAD: usize = 20;
/// Largest partition count `partitions` accepts.
pub const MAX_PARTITIONS: u64 = 1_000_000_000;
/// Placements `partitions` samples when Monte Carlo is used, unless that
/// would draw more than its draw budget (then fewer).
pub const DEFAULT_PARTITION_TRIALS: u64 = 2_000;
/// Most placements `partitions` samples.
pub const MAX_PARTITION_TRIALS: u64 = 10_000_000;

// ---- The fleet -------------------------------------------------------

/// Background reels.
pub const DEFAULT_REELS: u64 = 1_000_000;
/// Likes a day over all reels (the interview's 100M likes/day).
pub const DEFAULT_LIKES_PER_DAY: f64 = 100_000_000.0;
/// Peak-hour rate over the day's mean rate.
pub const DEFAULT_PEAK_FACTOR: f64 = 2.0;
/// Zipf exponent of reel popularity: rank k gets a share proportional to k^-s.
pub const DEFAULT_ZIPF_EXPONENT: f64 = 1.0;
/// Views of a reel's count per like it gets.
pub const DEFAULT_VIEWS_PER_LIKE: f64 = 10.0;
/// Partitions the store hashes shard keys onto.
pub const DEFAULT_FLEET_PARTITIONS: u64 = 1000;
/// Largest shard count the fleet's search tries.
pub const DEFAULT_FLEET_MAX_SHARDS: u64 = 4096;
/// Placements sampled for the partition load.
pub const DEFAULT_FLEET_TRIALS: u64 = 400;
/// Largest fleet accepted.
pub const MAX_REELS: u64 = 100_000_000;
/// Most reels a `--rates-csv` holds: each rate is kept (8 bytes), so 2
/// million stay within 16 MB; a Zipf fleet of any size costs nothing.
pub const MAX_CSV_REELS: u64 = 2_000_000;
/// Longest line of a `--rates-csv` (`reel_id,rate` is a few dozen bytes);
/// a longer one (`/dev/zero` has no newline) is refused as it is read.
pub const MAX_CSV_LINE_BYTES: u64 = 4096;
/// Largest partition count `fleet` accepts (its Monte Carlo is O(P) a placement).
pub const MAX_FLEET_PARTITIONS: u64 = 1_000_000;
/// Most placements `fleet` samples.
pub const MAX_FLEET_TRIALS: u64 = 100_000;
/// The longest peak the fleet's risk covers: a year.
pub const MAX_FLEET_DURATION_SECONDS: u64 = 365 * 86_400;
/// Most pinned reels (each is placed key by key).
pub const MAX_PINNED: usize = 1000;

// ---- Compare ---------------------------------------------------------

/// Buffered designs: each server writes its tally every this many seconds.
pub const DEFAULT_FLUSH_SECONDS: f64 = 1.0;
/// Log design: the consumer writes totals every this many seconds.
pub const DEFAULT_LOG_COMMIT_SECONDS: f64 = 5.0;
/// An assumption, not a measurement: a DynamoDB transaction's server-side
/// time is in the low tens of ms; set your own p50 with --txn-ms.
pub const DEFAULT_TXN_MS: f64 = 10.0;
/// 0.1% of increments time out (an assumption to override).
pub const DEFAULT_TIMEOUT_RATE: f64 = 0.001;
/// Share of timed-out increments that had in fact been applied.
pub const DEFAULT_APPLIED_SHARE: f64 = 0.5;
/// The AWS SDKs' standard retry mode makes 3 attempts: 2 retries.
pub const DEFAULT_RETRIES: u64 = 2;
/// Bytes of one user id as stored: a binary 64-bit id.
pub const DEFAULT_USER_ID_BYTES: u64 = 8;
/// Count-Min: error bound as a share of the window's total count.
pub const DEFAULT_EPSILON: f64 = 0.001;
/// Count-Min: probability the bound fails.
pub const DEFAULT_DELTA: f64 = 0.01;
/// Shares per like on the hot post (an assumption; only the hash row uses it).
pub const DEFAULT_SHARES_PER_LIKE: f64 = 0.1;
/// Longest flush or log-commit period accepted, seconds (one day).
pub const MAX_PERIOD_SECONDS: f64 = 86_400.0;
/// Longest transaction duration accepted, ms (a minute: far beyond any
/// store's transaction timeout).
pub const MAX_TXN_MS: f64 = 60_000.0;
/// Largest retry count accepted (the AWS SDKs default to 2 or 3).
pub const MAX_RETRIES: u64 = 100;
/// Largest reel count `compare` accepts: its Zipf sums run term by term.
pub const MAX_COMPARE_REELS: u64 = 10_000_000;

// ---- Reconcile -------------------------------------------------------

/// Like rows the job counts per reel (an assumption to override).
pub const DEFAULT_LIKES_PER_REEL: f64 = 1_000.0;
/// What the service does after a lost reply: retry the increment once.
pub const DEFAULT_RETRY: crate::model::reconcile::Retry = crate::model::reconcile::Retry::Once;
/// Increments refused after the like row was saved (the article's quiet
/// failure): 1 in 10,000, an assumption to override.
pub const DEFAULT_INCREMENT_FAIL_SHARE: f64 = 0.0001;
/// Rows a second the job counts (an assumption: an index-only count; set
/// your store's with --scan-rate).
pub const DEFAULT_SCAN_ROWS_PER_SECOND: f64 = 100_000.0;
/// The job runs once a day.
pub const DEFAULT_RECONCILE_EVERY_SECONDS: f64 = 86_400.0;
/// How long an idempotency key is kept: DynamoDB keeps a transaction's
/// client request token for 10 minutes.
pub const DEFAULT_RETRY_WINDOW_SECONDS: f64 = 600.0;
/// Largest like volume a day accepted (10,000 times the interview's 100M).
pub const MAX_DAILY_LIKES: f64 = 1e12;
/// Largest rows per reel, and rows a second, accepted.
pub const MAX_RECONCILE_ROWS: f64 = 1e12;
/// The longest interval between runs accepted: a year.
pub const MAX_RECONCILE_EVERY_SECONDS: f64 = 365.0 * 86_400.0;
/// The largest mean drift of one reel over an interval (over- plus
/// under-counted writes) whose exact law is summed: its terms are about
/// (22 standard deviations)^2, 5e7 at 1e5; past it the law is left out
/// and only the mean and standard deviation are given.
pub const MAX_REEL_DRIFT_MEAN: f64 = 1e5;

// ---- Files ---------------------------------------------------------

/// Largest scenario file read: a scenario is a page of settings, and a
/// bigger file (or `/dev/zero`) is refused before it fills memory.
pub const MAX_SCENARIO_BYTES: u64 = 1 << 20;

/// Largest observed-traffic file read (`--traffic-from`): 256 MiB holds
/// about 120 days per second as CSV (about 22 bytes a row); a bigger file
/// (or `/dev/zero`) is refused before it fills memory.
pub const MAX_TRACE_BYTES: u64 = 256 << 20;

// ---- Charts and tables -----------------------------------------------

/// The shard counts `sweep` tries.
pub const DEFAULT_SWEEP_SHARDS: &str = "10..40";
/// The folder `report` writes report.md and its charts to.
pub const DEFAULT_REPORT_DIR: &str = "report";

/// At most this many rows in a risk table or points on a risk chart.
pub const MAX_RISK_ROWS: u64 = 40;
/// At most this many points per time-line panel: an SVG path of a 4-hour
/// run second by second is 14,400 points, too heavy for a browser to pan.
pub const MAX_TIMELINE_POINTS: usize = 2000;

// ---- measure ---------------------------------------------------------

/// Most concurrent connections `measure` opens (each is a thread and, on a
/// cluster, one socket per node).
pub const MAX_CLIENTS: u64 = 1_000;
/// Longest pipeline: beyond this the batch RTT dominates and latency
/// figures stop meaning "one INCR".
pub const MAX_PIPELINE: u64 = 10_000;
/// Longest phase `measure` runs; it is a probe, not a soak test.
pub const MAX_DURATION: Duration = Duration::from_secs(3_600);
/// Largest `--max-ops` per phase.
pub const MAX_OPS: u64 = 1_000_000_000;
/// Shard keys `measure` INCRs in its sharded phase.
pub const DEFAULT_MEASURE_SHARDS: u64 = 16;
/// Concurrent connections `measure` opens.
pub const DEFAULT_MEASURE_CLIENTS: u64 = 50;
/// How long each `measure` phase runs.
pub const DEFAULT_MEASURE_DURATION: &str = "10s";
/// Commands per pipeline (1 = no pipelining).
pub const DEFAULT_MEASURE_PIPELINE: u64 = 1;
/// `measure`'s shard-key template without `--template`, as recorded in the
/// inputs: the run draws the id (the report's `run_id` and `template`).
pub const DEFAULT_MEASURE_TEMPLATE: &str = "shardplan:<run id>:<shard>";
/// Repetitions of each read-path measurement.
pub const DEFAULT_MEASURE_READS: u64 = 100;
/// Seed of the shard each client INCRs next (any fixed seed: the figures
/// measured are a server's, not the sampler's).
pub const DEFAULT_MEASURE_SEED: u64 = 1;
/// How long `measure` waits for a TCP connect and its handshake (or
/// `--timeout`, where shorter).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// How long `measure` waits for any one reply (`--timeout`).
pub const RESPONSE_TIMEOUT: Duration = Duration::from_secs(10);
/// [`RESPONSE_TIMEOUT`] as `--timeout`'s default text.
pub const DEFAULT_MEASURE_TIMEOUT: &str = "10s";
/// The shortest `--timeout`: below a loopback round trip under load.
pub const MIN_TIMEOUT: Duration = Duration::from_millis(10);
/// The longest `--timeout`.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(60);
/// Most repetitions of each read-path measurement.
pub const MAX_READS: u64 = 100_000;

/// Bytes billed per counter item when `--item-bytes` is not given: about 50
/// bytes of attribute names and values (a key like `reel#88412345#likes#07`
/// and a number), plus the 100 bytes of storage overhead every DynamoDB
/// item carries for indexing (Amazon DynamoDB Developer Guide, "DynamoDB
/// item sizes and formats", read 2026-12-02).
pub const DEFAULT_ITEM_BYTES: f64 = 150.0;
/// Largest `--item-bytes`: DynamoDB's item size limit, 400 KB.
pub const MAX_ITEM_BYTES: f64 = 409_600.0;

/// `measure --runs`: one-key and sharded phases measured this many times
/// each, alternating, so each figure has a spread and a 95% interval.
pub const DEFAULT_MEASURE_RUNS: u64 = 5;
/// Most `--runs`: each run is two phases of `--duration`.
pub const MAX_MEASURE_RUNS: u64 = 1_000;
/// The warm-up phase before the measured runs (shorter if `--duration` is).
pub const MEASURE_WARMUP: Duration = Duration::from_millis(250);
/// The quiet interval over which each node's idle CPU rate is measured
/// before the load, to be subtracted from each phase's CPU.
pub const MEASURE_IDLE_INTERVAL: Duration = Duration::from_millis(250);
/// How often `measure`'s progress line refreshes on a terminal.
pub const MEASURE_PROGRESS_TICK: Duration = Duration::from_millis(200);

// ---- measure --postgres ----------------------------------------------

/// How often `measure --postgres` samples `pg_stat_activity` for this run's
/// backends waiting on a lock: twice as often as the 10 ms the report
/// promises, so a busy machine that delays a sample still keeps to it.
pub const LOCK_SAMPLE_INTERVAL: Duration = Duration::from_millis(5);
/// The longest gap between two lock-wait samples the report promises; the
/// report gives the longest gap it saw (`lock_sample_max_gap_ms`).
pub const LOCK_SAMPLE_MAX_GAP: Duration = Duration::from_millis(10);
/// `measure --postgres` gives up on a frozen server once the run passes
/// 3 x `--duration` + 20 x `--timeout` + this.
pub const PG_WATCHDOG_SLACK: Duration = Duration::from_secs(5);
/// The longest `--schema`: PostgreSQL's identifier limit (NAMEDATALEN - 1).
pub const MAX_SCHEMA_NAME_BYTES: usize = 63;
/// The post every like of the `like-rows` design is for (one hot post, as
/// the single counter row is one hot counter).
pub const MEASURE_LIKES_POST_ID: i64 = 1;
/// Fewest placements a default Monte Carlo run samples, however many shards.
pub const MIN_TRIALS: u64 = 200;
/// A quantile is supported when at least this many periods are expected
/// above it: n (1 - q) >= 10. Fewer, and the value is one of the few
/// largest points, which a single burst decides.
pub const MIN_PERIODS_ABOVE: u64 = 10;
/// The most data points one trace may hold, over all its documents: a year
/// per second is 31.5 million; at 16 bytes a point (time and value) the
/// limit keeps a trace under a gigabyte.
pub const MAX_ROWS: usize = 50_000_000;
/// The longest run accepted, by the estimate: one day.
pub const MAX_RUN_SECONDS: f64 = 86_400.0;
/// The longest report run without `--long-run`, by the estimate: an hour,
/// so a typo in `--seconds` is not an hour of work.
pub const LONG_RUN_SECONDS: f64 = 3_600.0;
/// The most rows a gamma-poisson table fills (each about 0.2 ms of CPU at
/// 700 likes per shard: two adaptive integrals over the second's rate, a
/// few hundred Poisson tails each); a dispersion that spreads the busiest
/// shard wider is refused, naming `dispersion`.
pub const MAX_MIXED_ROWS: u64 = 20_000;
/// The most periods a replay follows: two curve points a period, so 500,000
/// periods (almost six days of seconds) keep the curve near 24 MB.
pub const MAX_REPLAY_PERIODS: usize = 500_000;

/// The smallest Gamma shape (`--dispersion`) accepted: a second's rate
/// with a coefficient of variation of 10.
pub const MIN_DISPERSION: f64 = 0.01;

/// The largest: past it the law is Poisson to 1e-12 at any accepted
/// rate's scale of interest; use `--traffic poisson`.
pub const MAX_DISPERSION: f64 = 1e12;
