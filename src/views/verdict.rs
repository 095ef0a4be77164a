//! The verdict in words: the one line every command that judges a shard
//! count opens with, and the table of constraints behind it. `size`,
//! `simulate`, `risk`, `sweep`, `keys`, `partitions`, `report`, `chart` and
//! `compare` all word a verdict here, and nowhere else.

use crate::model::recommendation::Binding;
use crate::model::verdict::{Check, Constraint, SimulatedRun, Status, Verdict};
use serde_json::Value;

use crate::output::{fmt, Report, Section};

/// A constraint's name in words.
pub fn check_words(c: Check) -> &'static str {
    match c {
        Check::RuleOfThumb => "the rule of thumb",
        Check::KeyRisk => "the per-key risk",
        Check::SharedPartitions => "shared partitions",
        Check::Nodes => "the Redis Cluster nodes",
        Check::NodeBalance => "node balance",
        Check::ReadCap => "the read cap",
        Check::StoreLimit => "a store limit",
        Check::Simulated => "the simulation",
        Check::Rejected => "the burst capacity",
    }
}

/// The constraint that set a recommended count, in words.
pub fn binding_words(b: Binding) -> &'static str {
    check_words(match b {
        Binding::RuleOfThumb => Check::RuleOfThumb,
        Binding::KeyRisk => Check::KeyRisk,
        Binding::SharedPartitions => Check::SharedPartitions,
        Binding::Nodes => Check::Nodes,
    })
}

/// "1 shard", "20 shards".
pub fn shards(n: u64) -> String {
    fmt::counted(n, "shard", "shards")
}

/// "the per-key risk and the read cap".
fn fails_words(v: &Verdict) -> String {
    let fails: Vec<&str> = v.fails().into_iter().map(check_words).collect();
    match fails.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => fails.join(""),
    }
}

/// Whether the count (one shard, or several) takes a singular verb.
fn one(v: &Verdict) -> bool {
    v.shards == 1
}

/// "20 shards hold the plan of 14,000/s" or "16 shards do NOT hold the plan
/// of 14,000/s: they fail the per-key risk"; a time line's "1 shard raised
/// to 20 holds ...".
pub fn holds_clause(v: &Verdict) -> String {
    match v.raised_to {
        Some(end) => format!(
            "{} raised to {} {}",
            shards(v.shards),
            fmt::count(end),
            holds_words(v)
        ),
        None => format!("{} {}", shards(v.shards), holds_words(v)),
    }
}

/// The clause without its subject: "hold the plan of 14,000/s", "does NOT
/// hold the plan of 14,000/s: it fails the read cap".
pub fn holds_words(v: &Verdict) -> String {
    let plan = match v.planned_likes {
        Some(likes) => format!(
            "the plan of {} likes/s ({} writes/s with unlikes)",
            fmt::rate(likes),
            fmt::rate(v.planned_rate)
        ),
        None => format!("the plan of {}/s", fmt::rate(v.planned_rate)),
    };
    match (v.holds, one(v)) {
        (true, true) => format!("holds {plan}"),
        (true, false) => format!("hold {plan}"),
        (false, o) => format!(
            "{} NOT hold {plan}: {} {}{}",
            if o { "does" } else { "do" },
            if o { "it fails" } else { "they fail" },
            fails_words(v),
            simulated_failure(v)
        ),
    }
}

/// What a failing run saw: at the plan's own rate, the seconds the
/// simulation saw over the cap; along a time line, the writes rejected.
fn simulated_failure(v: &Verdict) -> String {
    if let Some(c) = v.get(Check::Rejected).filter(|c| c.fails()) {
        return format!(
            " ({} writes rejected, {} of them)",
            fmt::num(c.figure),
            fmt::percent(c.share.unwrap_or(0.0))
        );
    }
    match v.simulated {
        Some(r) if r.at_plan && r.seconds_over_cap > 0 => format!(
            " ({} of {} simulated seconds went over the cap)",
            fmt::count(r.seconds_over_cap),
            fmt::count(r.seconds)
        ),
        _ => String::new(),
    }
}

/// The simulation beside the verdict: a stress rate said plainly, or the
/// plan's own rate agreeing.
fn run_clause(v: &Verdict, r: &SimulatedRun) -> String {
    let seen = match r.seconds_over_cap {
        0 => format!(
            "no simulated second of {} went over the cap",
            fmt::count(r.seconds)
        ),
        n => format!(
            "{} of {} simulated seconds went over the cap",
            fmt::count(n),
            fmt::count(r.seconds)
        ),
    };
    let they = if one(v) { "it" } else { "they" };
    match (r.at_plan, r.seconds_over_cap) {
        (true, 0) if v.holds => format!("; the simulation agrees: {seen}"),
        (true, 0) => format!("; {seen}"),
        (true, _) => String::new(),
        (false, 0) => format!("; at {}/s {they} held too: {seen}", fmt::rate(r.rate)),
        (false, _) => format!(
            "; at {}/s {they} {} not: {seen}",
            fmt::rate(r.rate),
            if one(v) { "does" } else { "do" }
        ),
    }
}

/// The one line for a count: whether it holds the plan, against the
/// recommendation, with a simulation beside it when one ran.
pub fn line(v: &Verdict) -> String {
    let mut s = holds_clause(v);
    if !v.infeasible.is_empty() {
        let reasons: Vec<String> = v.infeasible.iter().map(super::infeasible::reason).collect();
        s = format!(
            "No shard count holds this plan: {}. {s}",
            reasons.join("; and ")
        );
    }
    if v.shards == v.recommended_shards {
        s.push_str(" (the recommendation)");
    } else {
        s.push_str(&format!(
            " (the recommendation is {})",
            fmt::count(v.recommended_shards)
        ));
    }
    if let Some(r) = &v.simulated {
        s.push_str(&run_clause(v, r));
    }
    s
}

/// The verdict's line as a section, red when it fails.
pub fn headline(v: &Verdict) -> Section {
    Section::verdict(line(v), !v.holds)
}

/// A status in words.
pub fn status_words(s: Status) -> &'static str {
    match s {
        Status::Holds => "holds",
        Status::Fails => "FAILS",
        Status::Note => "note",
    }
}

/// A constraint's figure and limit in words.
fn figure_words(c: &Constraint) -> (String, String) {
    let prob = |p: f64, ln: Option<f64>| match ln {
        Some(ln) => fmt::prob_ln(p, ln),
        None => fmt::prob(p),
    };
    match c.check {
        Check::RuleOfThumb => (
            format!("{}/s carried at the safe rate", fmt::rate(c.limit)),
            format!("{}/s planned", fmt::rate(c.figure)),
        ),
        Check::KeyRisk | Check::SharedPartitions | Check::Nodes => (
            format!(
                "P = {}{}",
                prob(c.figure, c.ln_figure),
                match c.exact {
                    Some(false) => " (upper bound)",
                    _ => " (exact)",
                }
            ),
            format!("at most {}", fmt::prob(c.limit)),
        ),
        Check::NodeBalance => (
            format!(
                "{} on the busiest node",
                match c.figure == 1.0 {
                    true => "1 key".to_string(),
                    false => format!("{} keys", fmt::num(c.figure)),
                }
            ),
            format!("ceil(S / N) = {}", fmt::num(c.limit)),
        ),
        Check::ReadCap => (
            format!("{} cached reads/s per key", fmt::num(c.figure)),
            format!("read cap {}/s", fmt::num(c.limit)),
        ),
        Check::StoreLimit => (fmt::num(c.figure), format!("limit {}", fmt::num(c.limit))),
        Check::Simulated => (
            format!("{} seconds over the cap", fmt::num(c.figure)),
            "0".into(),
        ),
        Check::Rejected => (
            format!("{} writes rejected", fmt::num(c.figure)),
            "0".into(),
        ),
    }
}

/// The margin in words: "30.0% room", "45.0% short", and past twice the
/// need "150x the need" (not "14900.0% room"); for a probability, "21.2
/// decades room" (log10 of the limit over the figure).
fn margin_words(c: &Constraint) -> String {
    let Some(m) = c.margin.filter(|m| m.is_finite()) else {
        return "-".into();
    };
    match (c.ln_figure.is_some(), m >= 0.0) {
        (true, true) => format!("{} decades room", fmt::fixed(m, 1)),
        (true, false) => format!("{} decades over", fmt::fixed(-m, 1)),
        (false, true) if m >= 1.0 => format!("{}x the need", times(1.0 + m)),
        (false, true) => format!("{} room", fmt::percent(m)),
        (false, false) => format!("{} short", fmt::percent(-m)),
    }
}

/// A ratio of at least 2: "2.5", "150", "1,200" (whole past 10).
pub(super) fn times(ratio: f64) -> String {
    match ratio < 10.0 {
        true => format!("{:.1}", (ratio * 10.0).floor() / 10.0),
        false => fmt::count(ratio.round() as u64),
    }
}

/// A constraint the count fails, as a warning: "20 shards FAIL the rule of
/// thumb: 14,000/s carried at the safe rate against 18,000/s planned
/// (22.2% short)"; the simulation with its seconds over the cap, a time
/// line with the writes it rejected and their share of all writes.
pub fn failure_words(v: &Verdict, c: &Constraint) -> String {
    let what = match (c.check, v.simulated) {
        (Check::Simulated, Some(r)) => format!(
            "{} of {} simulated seconds went over the cap",
            fmt::count(r.seconds_over_cap),
            fmt::count(r.seconds)
        ),
        (Check::Rejected, _) => format!(
            "{} writes rejected, {} of all writes",
            fmt::num(c.figure),
            fmt::percent(c.share.unwrap_or(0.0))
        ),
        _ => {
            let (figure, limit) = figure_words(c);
            format!("{figure} against {limit} ({})", margin_words(c))
        }
    };
    let subject = match v.raised_to {
        Some(end) => format!("{} raised to {}", shards(v.shards), fmt::count(end)),
        None => shards(v.shards),
    };
    let verb = if one(v) { "FAILS" } else { "FAIL" };
    format!("{subject} {verb} {}: {what}", check_words(c.check))
}

/// The table of constraints behind the verdict: one row each.
pub fn constraints_section(v: &Verdict) -> Section {
    let rows = v
        .constraints
        .iter()
        .map(|c| {
            let (figure, limit) = figure_words(c);
            vec![
                check_words(c.check).to_string(),
                status_words(c.status).to_string(),
                figure,
                limit,
                margin_words(c),
            ]
        })
        .collect();
    Section::Grid {
        title: format!("Verdict at {}", shards(v.shards)),
        header: ["constraint", "status", "figure", "limit", "margin"]
            .map(String::from)
            .to_vec(),
        rows,
        secondary: Vec::new(),
    }
}

/// A command's report with the verdict: its line first (unless the report
/// words its own headline through [`line`]), the constraints table after
/// the report's sections, and `verdict` in JSON.
pub struct WithVerdict<'a> {
    /// The command's own report.
    pub report: &'a dyn Report,
    /// The verdict, when the command judged a count.
    pub verdict: Option<Verdict>,
    /// Open with the verdict's line (false where the report already does).
    pub headline: bool,
}

impl Report for WithVerdict<'_> {
    fn rows(&self) -> Vec<Value> {
        self.report.rows()
    }

    fn csv_rows(&self) -> Vec<Value> {
        self.report.csv_rows()
    }

    fn json(&self) -> Value {
        let v = self.report.json();
        let Some(verdict) = &self.verdict else {
            return v;
        };
        super::json_with(v, "verdict", crate::output::row(verdict))
    }

    fn sections(&self) -> Vec<Section> {
        let Some(v) = &self.verdict else {
            return self.report.sections();
        };
        let mut out = Vec::new();
        if self.headline {
            out.push(headline(v));
        }
        out.extend(self.report.sections());
        out.push(constraints_section(v));
        out
    }

    fn tsv(&self) -> Option<Vec<u8>> {
        self.report.tsv()
    }
}
