//! The one verdict on a shard count: every constraint that applies to the
//! plan, each with its status, the figure behind it and the limit it is
//! judged against, and whether the count holds the plan.
//!
//! Every command that judges a count (`size`, `simulate`, `risk`, `sweep`,
//! `keys`, `partitions`, `report`, `chart`, `compare`) builds this from the
//! plan's evaluation of the count ([`super::recommendation::PlanInputs::evaluate`])
//! and renders it through one view (`views::verdict`); a `--check` exits 1
//! exactly when [`Verdict::holds`] is false.
//!
//! What fails and what is a note is decided here, once:
//! - fails: the rule of thumb (without an accepted risk), the per-key cap
//!   under the traffic law and risk, shared partitions (where the store
//!   does not move busy items apart), the Redis Cluster nodes' caps, the
//!   cached reads against the read cap, and seconds a simulation of the
//!   plan's own rate saw over the cap;
//! - notes: node balance (a node holding more than ceil(S / N) keys is a
//!   fact of the hashing, judged by the nodes' caps, not by itself), the
//!   shared-partition risk where the store moves busy items apart, and the
//!   store's documented quotas (adjustable, or about other operations).
//!
//! A simulation at another rate than the plan's (a stress rate) is
//! reported beside the verdict, never judged as the plan.

use serde::Serialize;

/// A constraint on a shard count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// shards x the safe rate per key carry the planned peak.
    RuleOfThumb,
    /// P(any second over the per-key cap during the spell) within the risk.
    KeyRisk,
    /// P(some shared partition over its cap during the spell) within the risk.
    SharedPartitions,
    /// P(some Redis Cluster master over its cap during the spell) within the risk.
    Nodes,
    /// The busiest master's keys against an even split, ceil(S / N).
    NodeBalance,
    /// Cached reads a second on each shard key against the read cap.
    ReadCap,
    /// A documented store quota.
    StoreLimit,
    /// Seconds a simulation of the planned rate saw over the cap.
    Simulated,
    /// Writes the store rejected along a time line, once a key's burst was
    /// spent.
    Rejected,
}

impl Check {
    /// The name JSON and CSV print.
    pub fn name(self) -> &'static str {
        match self {
            Check::RuleOfThumb => "rule_of_thumb",
            Check::KeyRisk => "key_risk",
            Check::SharedPartitions => "shared_partitions",
            Check::Nodes => "nodes",
            Check::NodeBalance => "node_balance",
            Check::ReadCap => "read_cap",
            Check::StoreLimit => "store_limit",
            Check::Simulated => "simulated",
            Check::Rejected => "rejected",
        }
    }
}

/// A constraint's status at the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The count meets it.
    Holds,
    /// The count fails it: the plan does not hold.
    Fails,
    /// Shown, never failing (see the module's list).
    Note,
}

/// One constraint at a count: the figure, the limit it is judged against,
/// and the margin between them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Constraint {
    /// Which constraint.
    pub check: Check,
    /// Holds, fails, or a note.
    pub status: Status,
    /// The figure at the count, in the constraint's unit: writes/s carried
    /// (rule of thumb), a probability (risks), keys on the busiest node
    /// (balance), reads/s per key (read cap), the limited quantity (store
    /// limit), seconds over the cap (simulated).
    pub figure: f64,
    /// Its natural log, for a probability (finite where it underflows).
    pub ln_figure: Option<f64>,
    /// What the figure is judged against, in the same unit: the planned
    /// peak, the accepted risk, ceil(S / N), the read cap, the store's
    /// limit, 0 seconds.
    pub limit: f64,
    /// How far the figure is from the limit, positive where there is room:
    /// carried / peak - 1 for the rule of thumb, limit / figure - 1 for the
    /// rates and counts, and for a probability the decades between them,
    /// log10(limit / figure) (a chance of 1e-23 against 1e-2 has 21).
    /// `None` where the figure is 0.
    pub margin: Option<f64>,
    /// A probability that is exact (true) or an upper bound (false).
    pub exact: Option<bool>,
    /// The figure as a share of its whole, where it has one (rejected
    /// writes of all writes).
    pub share: Option<f64>,
}

impl Constraint {
    /// A constraint whose figure must stay at or under `limit`.
    pub fn at_most(check: Check, figure: f64, limit: f64) -> Constraint {
        Constraint {
            check,
            status: match figure <= limit {
                true => Status::Holds,
                false => Status::Fails,
            },
            figure,
            ln_figure: None,
            limit,
            margin: (figure > 0.0).then(|| limit / figure - 1.0),
            exact: None,
            share: None,
        }
    }

    /// A probability within an accepted risk, compared in logs (a figure
    /// that underflows still compares right).
    pub fn risk(check: Check, ln_p: f64, risk: f64, exact: bool) -> Constraint {
        let ln_risk = risk.ln();
        Constraint {
            check,
            status: match ln_p <= ln_risk {
                true => Status::Holds,
                false => Status::Fails,
            },
            figure: ln_p.exp(),
            ln_figure: Some(ln_p),
            limit: risk,
            margin: (ln_p > f64::NEG_INFINITY).then(|| (ln_risk - ln_p) / std::f64::consts::LN_10),
            exact: Some(exact),
            share: None,
        }
    }

    /// The same constraint, shown and never failing.
    pub fn as_note(mut self) -> Constraint {
        self.status = Status::Note;
        self
    }

    /// Does the count fail it?
    pub fn fails(&self) -> bool {
        self.status == Status::Fails
    }
}

/// The constraints of `constraints` that fail, in order (a recommendation's
/// `fails`, a verdict's).
pub fn failing(constraints: &[Constraint]) -> Vec<Check> {
    constraints
        .iter()
        .filter(|c| c.fails())
        .map(|c| c.check)
        .collect()
}

/// A simulation beside the verdict: the rate it ran at and what it saw.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SimulatedRun {
    /// The simulated rate, writes/s.
    pub rate: f64,
    /// Simulated seconds.
    pub seconds: u64,
    /// Seconds whose busiest shard went over the cap.
    pub seconds_over_cap: u64,
    /// Whether the run was at the plan's own rate (else a stress rate:
    /// reported, not judged).
    pub at_plan: bool,
}

/// The verdict on one shard count for one plan.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Verdict {
    /// The count judged.
    pub shards: u64,
    /// The plan's recommended count.
    pub recommended_shards: u64,
    /// The plan's peak the count is judged at, writes/s.
    pub planned_rate: f64,
    /// The same peak in likes/s, where unlikes make it fewer than the
    /// writes (null without unlikes: the two are the same).
    pub planned_likes: Option<f64>,
    /// Whether the count holds the plan: no constraint fails.
    pub holds: bool,
    /// Every constraint that applies, in a fixed order.
    pub constraints: Vec<Constraint>,
    /// A simulation beside the verdict, if one ran.
    pub simulated: Option<SimulatedRun>,
    /// A time line whose monitor raised the count: the count it ended on.
    pub raised_to: Option<u64>,
    /// Why no shard count holds the plan (empty when one does).
    pub infeasible: Vec<crate::model::infeasible::Infeasible>,
}

impl Verdict {
    /// The verdict from a count's constraints (the plan's evaluation).
    pub fn new(
        shards: u64,
        recommended_shards: u64,
        planned_rate: f64,
        constraints: Vec<Constraint>,
    ) -> Verdict {
        Verdict {
            shards,
            recommended_shards,
            planned_rate,
            planned_likes: None,
            holds: !constraints.iter().any(Constraint::fails),
            constraints,
            simulated: None,
            raised_to: None,
            infeasible: Vec::new(),
        }
    }

    /// A time line's verdict: it holds when no write was rejected, burst
    /// included, from `start` shards (raised to `end` by the monitor).
    pub fn time_line(
        (start, end): (u64, u64),
        recommended_shards: u64,
        planned_rate: f64,
        (rejected, share): (u64, f64),
    ) -> Verdict {
        let c = Constraint {
            share: Some(share),
            ..Constraint::at_most(Check::Rejected, rejected as f64, 0.0)
        };
        Verdict {
            raised_to: (end != start).then_some(end),
            ..Verdict::new(start, recommended_shards, planned_rate, vec![c])
        }
    }

    /// The same verdict, its peak also said in likes/s (`writes_per_like`
    /// writes a like: 1 + the unlike share).
    pub fn in_likes(mut self, writes_per_like: f64) -> Verdict {
        self.planned_likes = (writes_per_like != 1.0).then(|| self.planned_rate / writes_per_like);
        self
    }

    /// The verdict with a simulation beside it: at the plan's own rate,
    /// seconds over the cap are a failing constraint; at another rate the
    /// run is only reported.
    pub fn with_run(mut self, run: SimulatedRun) -> Verdict {
        if run.at_plan {
            let c = Constraint::at_most(Check::Simulated, run.seconds_over_cap as f64, 0.0);
            self.holds &= !c.fails();
            self.constraints.push(c);
        }
        self.simulated = Some(run);
        self
    }

    /// The constraints the count fails.
    pub fn fails(&self) -> Vec<Check> {
        failing(&self.constraints)
    }

    /// The constraint of one kind, if it applies.
    pub fn get(&self, check: Check) -> Option<&Constraint> {
        self.constraints.iter().find(|c| c.check == check)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_risk_compares_in_logs_and_a_note_never_fails() {
        // 1e-400 underflows to 0 but its log still compares.
        let c = Constraint::risk(Check::KeyRisk, -400.0 * 10f64.ln(), 0.01, true);
        assert_eq!((c.status, c.figure), (Status::Holds, 0.0));
        let over = Constraint::risk(Check::Nodes, 0.02f64.ln(), 0.01, false);
        assert!(over.fails());
        // 0.02 against 0.01: log10(1/2) decades, short of room.
        assert!((over.margin.unwrap() + 2f64.log10()).abs() < 1e-12);
        assert!(!over.as_note().fails());
    }

    #[test]
    fn a_run_at_the_plan_is_judged_and_a_stress_run_is_not() {
        let ok = Constraint::at_most(Check::ReadCap, 20.0, 3_000.0);
        let v = Verdict::new(20, 20, 14_000.0, vec![ok]);
        assert!(v.holds);
        let run = |rate, at_plan| SimulatedRun {
            rate,
            seconds: 2_000,
            seconds_over_cap: 15,
            at_plan,
        };
        let stress = v.clone().with_run(run(18_000.0, false));
        assert!(stress.holds && stress.fails().is_empty());
        let plan = v.with_run(run(14_000.0, true));
        assert!(!plan.holds);
        assert_eq!(plan.fails(), vec![Check::Simulated]);
    }

    #[test]
    fn a_time_line_holds_when_no_write_was_rejected() {
        let held = Verdict::time_line((1, 20), 14, 9_000.0, (0, 0.0));
        assert!(held.holds && held.raised_to == Some(20));
        let rejected = Verdict::time_line((1, 1), 14, 9_000.0, (300_000, 0.25));
        assert_eq!((rejected.holds, rejected.raised_to), (false, None));
        assert_eq!(rejected.fails(), vec![Check::Rejected]);
    }
}
