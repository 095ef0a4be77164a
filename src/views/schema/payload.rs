//! Each command's payload in its JSON Schema: the fields its view
//! serialises, from the row types, with the places where the view puts
//! words in a typed field's stead or adds a field beside `json()`.

use serde_json::{json, Map, Value};

use super::{about, list, remove, set, string, strings, Doc};

/// The blocks several commands' documents carry.
impl Doc {
    /// The plan's recommendation.
    fn recommendation(&mut self) -> Value {
        about(
            "The plan's recommendation for the same inputs (`size`'s fields); the \
             document's own `shards` stays the count it used.",
            self.sub::<crate::model::recommendation::Recommendation>(),
        )
    }

    /// --traffic-from: the trace and the law it gave (views::observed).
    fn observed(&mut self) -> Value {
        about(
            "`--traffic-from`: the trace read and the law it gave (absent without a trace).",
            self.sub::<crate::views::observed::ObservedTraffic>(),
        )
    }

    /// --unlike-share: the writes it adds, the negative-shard chance (views::unlikes).
    fn unlikes(&mut self) -> Value {
        about(
            "`--unlike-share`: the writes unlikes add at the peak and the chance a shard \
             reads below zero (absent without unlikes).",
            self.sub::<crate::views::unlikes::UnlikesBlock>(),
        )
    }

    /// The verdict on the count judged (views::verdict::WithVerdict).
    fn verdict(&mut self) -> Value {
        about(
            "The plan's verdict on the count the document judges: each constraint, its \
             figure and limit, and whether the count holds.",
            self.sub::<crate::model::verdict::Verdict>(),
        )
    }
}

/// A list result: its rows under `rows`.
fn rows(items: Value) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("type".into(), "object".into());
    let text = "The result's rows, one object a row (the table's lines).";
    set(&mut m, "rows", about(text, list(items)), false);
    m
}

/// The command's payload: the fields its view serialises, one shape for
/// each document the command may print.
pub(super) fn payload(command: &str, d: &mut Doc) -> Option<Vec<Map<String, Value>>> {
    Some(match command {
        "size" => vec![size(d)],
        "simulate" => vec![flat_simulation(d), timeline(d)],
        "risk" => vec![risk(d)],
        "sweep" => vec![sweep(d)],
        "scenarios" => vec![rows(d.sub::<crate::views::scenarios::ScenarioRow>())],
        "stores" => vec![rows(d.sub::<crate::model::store::StorePreset>())],
        "resize" => resize(d),
        "keys" => keys(d),
        "partitions" => vec![partitions(d)],
        "fleet" => vec![fleet(d)],
        "measure" => measure(d),
        "compare" => vec![compare(d)],
        "reconcile" => vec![d.object::<crate::views::reconcile::ReconcileRow<'static>>()],
        _ => return None,
    })
}

/// `size`: the row, with the observed traffic, unlikes and the verdict.
fn size(d: &mut Doc) -> Map<String, Value> {
    let mut size = d.object::<crate::views::size::SizeRow>();
    set(&mut size, "observed_traffic", d.observed(), true);
    set(&mut size, "unlikes", d.unlikes(), true);
    let sensitivity = about(
        "`--sensitivity`: the recommendation with each input that can move it moved down and \
         up, the rest as planned (absent without the flag).",
        d.sub::<crate::model::sensitivity::Sensitivity>(),
    );
    set(&mut size, "sensitivity", sensitivity, true);
    set(&mut size, "verdict", d.verdict(), false);
    size
}

/// A flat `simulate`: the row, its histogram, and the plan beside it.
fn flat_simulation(d: &mut Doc) -> Map<String, Value> {
    let mut flat = d.object::<crate::views::simulate::SimulateRow>();
    let bins = about(
        "The seconds by the busiest shard's writes: each `value` (writes/s) seen and \
         the `count` of seconds with it, empty values left out.",
        d.sub::<Vec<crate::model::stats::Bin>>(),
    );
    set(&mut flat, "busiest_histogram", bins, false);
    set(&mut flat, "recommendation", d.recommendation(), true);
    set(&mut flat, "observed_traffic", d.observed(), true);
    set(&mut flat, "unlikes", d.unlikes(), true);
    set(&mut flat, "verdict", d.verdict(), true);
    flat
}

/// A time line's `simulate`: the run, the monitor grid, and the plan.
fn timeline(d: &mut Doc) -> Map<String, Value> {
    let mut timeline = d.object::<crate::views::timeline::TimelineHead<'static>>();
    let grid = about(
        "The time line rerun around the monitor: half, the same and double its threshold \
         and window; no cache, its TTL and double it (absent without a monitor).",
        d.sub::<Vec<crate::model::timeline::MonitorGridRow>>(),
    );
    set(&mut timeline, "monitor_grid", grid, true);
    set(&mut timeline, "recommendation", d.recommendation(), true);
    set(&mut timeline, "unlikes", d.unlikes(), true);
    set(&mut timeline, "verdict", d.verdict(), true);
    timeline
}

/// `risk`: the exact risk, with the plan, the trace and unlikes.
fn risk(d: &mut Doc) -> Map<String, Value> {
    let mut risk = d.object::<crate::views::risk::RiskRow>();
    set(&mut risk, "recommendation", d.recommendation(), true);
    set(&mut risk, "observed_traffic", d.observed(), true);
    set(&mut risk, "unlikes", d.unlikes(), true);
    set(&mut risk, "verdict", d.verdict(), false);
    let picker = about(
        "`--picker` other than the random ones: a seeded run of it, a Monte Carlo estimate \
         beside the picker's own figure above (absent for the random pickers).",
        d.sub::<crate::model::picker::risk::PickerRun>(),
    );
    set(&mut risk, "simulated", picker, true);
    risk
}

/// `sweep`: a row a shard count, with the trace and unlikes.
fn sweep(d: &mut Doc) -> Map<String, Value> {
    let mut sweep = rows(d.sub::<crate::views::risk::SweepRow>());
    set(&mut sweep, "observed_traffic", d.observed(), true);
    set(&mut sweep, "unlikes", d.unlikes(), true);
    sweep
}

/// `resize`: a grow (with its simulated run) or a shrink (with its reads).
fn resize(d: &mut Doc) -> Vec<Map<String, Value>> {
    use crate::model::timeline::resize::{GrowReport, ShrinkReport, ShrinkRow};
    let mut grow = d.object::<GrowReport>();
    let simulated = about(
        "The same grow in one seeded run (the top level is the arithmetic's expectation).",
        d.sub::<GrowReport>(),
    );
    set(&mut grow, "simulated", simulated, false);
    let mut shrink = d.object::<ShrinkReport>();
    let reads = about(
        "Every read of the total taken during the shrink, in order.",
        d.sub::<Vec<ShrinkRow>>(),
    );
    set(&mut shrink, "reads_seen", reads, false);
    vec![grow, shrink]
}

/// `keys`: a Redis Cluster or a sorted store, the typed read and
/// warnings in words.
fn keys(d: &mut Doc) -> Vec<Map<String, Value>> {
    use crate::model::placement::{KeysReport, SortedReport};
    let mut cluster = d.object::<KeysReport>();
    remove(&mut cluster, "read");
    let note = "How a read of the total is served, in words (GETs pipelined and grouped \
                per node where MGET would fail with CROSSSLOT).";
    set(&mut cluster, "read_note", about(note, string()), false);
    let warnings = "What `--check` fails on (shared slots, a node over its share), then the \
                    suggested template if there is one, each a sentence.";
    set(&mut cluster, "warnings", about(warnings, strings()), false);
    set(&mut cluster, "verdict", d.verdict(), false);
    let mut sorted = d.object::<SortedReport>();
    let note = "What the keys' sort order means for the shards (whether they likely share \
                one tablet), in words.";
    set(&mut sorted, "note", about(note, string()), false);
    set(&mut sorted, "verdict", d.verdict(), false);
    vec![cluster, sorted]
}

/// `partitions`: the report, its assumptions as notes in words.
fn partitions(d: &mut Doc) -> Map<String, Value> {
    let mut p = d.object::<crate::model::partitions::PartitionReport>();
    remove(&mut p, "assumptions");
    let notes = "The partition model's assumptions, a sentence each.";
    set(&mut p, "notes", about(notes, strings()), false);
    set(&mut p, "verdict", d.verdict(), true);
    p
}

/// `fleet`: the report, with each policy's month at the user's prices
/// (views::fleet), named by its policy.
fn fleet(d: &mut Doc) -> Map<String, Value> {
    let mut f = d.object::<crate::model::fleet::FleetReport>();
    let scenario = "The scenario the inputs started from: a bundled name or a file's path.";
    set(&mut f, "scenario", about(scenario, string()), false);
    let mut costs = d.object::<crate::model::price::PolicyCosts>();
    let policy = about("The policy priced.", d.sub::<crate::model::fleet::Policy>());
    set(&mut costs, "policy", policy, false);
    let text = "Each policy's month at the user's prices (figures null without their price).";
    set(
        &mut f,
        "policy_costs",
        about(text, list(Value::Object(costs))),
        false,
    );
    let beside = about(
        "Where `fleet` answers another question than `size` on the same scenario, with both \
         figures.",
        d.sub::<crate::model::fleet::BesideSize>(),
    );
    set(&mut f, "beside_size", beside, false);
    f
}

/// `measure`: --redis, --postgres, --redis --design or --reconcile, four documents
/// told apart by their fields (the PostgreSQL one's `store` is pinned, the
/// durability run's `design` required). Redis's typed
/// warnings are in words (views::measure::warning_text); both carry the
/// model's figure beside the load on the shards (views::shard_load).
fn measure(d: &mut Doc) -> Vec<Map<String, Value>> {
    use crate::model::picker::expected::ShardLoadModel;
    let model_text = "The model's figure for the busiest shard a second (writes/s) at the \
                      measured rate, for the run's picker, shards and clients, beside the \
                      load measured.";
    let mut redis = d.object::<crate::measure::MeasureReport>();
    let warnings = "What makes the run's figures not what they seem (shard keys missing \
                    masters, a placement problem `keys --check` finds), a sentence each.";
    set(&mut redis, "warnings", about(warnings, strings()), false);
    let model = about(model_text, d.sub::<ShardLoadModel>());
    set(&mut redis, "shard_load_model", model, false);
    let mut pg = d.object::<crate::measure::postgres::PgMeasureReport>();
    let store = json!({ "description": "The store measured: `postgres`.", "const": "postgres" });
    set(&mut pg, "store", store, false);
    let model = about(
        &format!("{model_text} Null when no shard load was sampled."),
        d.sub::<Option<ShardLoadModel>>(),
    );
    set(&mut pg, "shard_load_model", model, false);
    let design = d.object::<crate::measure::durability::DurabilityReport>();
    let reconcile = d.object::<crate::measure::reconcile::ReconcileReport>();
    vec![redis, pg, design, reconcile]
}

/// `compare`: a row a design, the count error and the verdict in words
/// (views::compare::words), with the plan's recommendation and verdict.
fn compare(d: &mut Doc) -> Map<String, Value> {
    use crate::model::compare::strategies::StrategyRow;
    let mut row = d.object::<StrategyRow>();
    let error = json!({
        "description": "Why the design's count is not exact, in words (a crash's loss, a \
                        replay's double count, a standard error or an overcount bound); \
                        null for an exact count.",
        "type": ["string", "null"]
    });
    set(&mut row, "error", error, false);
    let verdict = "When to pick the design, or what goes wrong with it, in words.";
    set(&mut row, "verdict", about(verdict, string()), false);
    let mut doc = rows(Value::Object(row));
    set(&mut doc, "recommendation", d.recommendation(), false);
    set(&mut doc, "verdict", d.verdict(), false);
    let pickers = about(
        "The pickers side by side: the shards each needs at the plan's per-key risk and \
         a seeded run of each at the plan's count.",
        list(d.sub::<crate::model::picker::table::PickerRow>()),
    );
    set(&mut doc, "pickers", pickers, false);
    let measured = about(
        "`--measure FILE`: what a measurement lost, quoted beside the designs (null \
         without).",
        d.sub::<Option<crate::measure::MeasuredLoss>>(),
    );
    set(&mut doc, "measured", measured, false);
    doc
}
