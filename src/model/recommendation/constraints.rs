//! Every constraint at a count, with its status, figure and limit: the
//! verdict's constraints ([`crate::model::verdict`] says which fail and
//! which are notes, and why).

use super::{PlanInputs, Recommendation};
use crate::model::store::LimitedQuantity;
use crate::model::verdict::{Check, Constraint};

/// The partition or node risk's own comparison (the partition risk
/// compares its exact figure where the bound alone is not enough) and
/// whether the figure shown is exact.
pub(super) type Judged = Option<(bool, bool)>;

/// The constraints at `rec.shards`, in a fixed order; `judged` carries the
/// partition and node risks' comparisons.
pub(super) fn list(
    inputs: &PlanInputs,
    rec: &Recommendation,
    judged: (Judged, Judged),
) -> Vec<Constraint> {
    let mut out = Vec::new();
    // In writes/s, both sides (with unlikes the peak counts them, and the
    // safe rate per key is writes): `safe_capacity_rate` is likes/s.
    let peak = inputs.sizing.peak;
    let carried = rec.shards as f64 * inputs.sizing.safe_per_shard();
    let rule = Constraint {
        margin: Some(carried / peak - 1.0),
        ..Constraint::at_most(Check::RuleOfThumb, peak, carried)
    };
    // With an accepted risk the count is sized by it: the rule of thumb is
    // shown beside, not a floor.
    out.push(match inputs.risk {
        Some(_) => rule.as_note(),
        None => rule,
    });
    if let Some(ln) = rec.key_ln_p_any_over_cap {
        let exact = rec.key_method.is_exact();
        out.push(Constraint::risk(Check::KeyRisk, ln, rec.key_risk, exact));
    }
    if let (Some(ln), Some(risk), Some((meets, exact))) = (
        rec.partition_ln_p_any_over_cap,
        rec.partition_risk,
        judged.0,
    ) {
        let c = by(
            Constraint::risk(Check::SharedPartitions, ln, risk, exact),
            meets,
        );
        out.push(match rec.partition_binds {
            Some(false) => c.as_note(),
            _ => c,
        });
    }
    if let (Some(ln), Some(c), Some((meets, exact))) =
        (rec.node_ln_p_any_over_cap, &inputs.nodes, judged.1)
    {
        out.push(by(
            Constraint::risk(Check::Nodes, ln, c.target.risk, exact),
            meets,
        ));
    }
    if let (Some(keys), Some(n)) = (&rec.keys_per_node, rec.nodes) {
        let busiest = keys.iter().copied().max().unwrap_or(0);
        let even = rec.shards.div_ceil(u64::from(n.max(1)));
        out.push(Constraint::at_most(Check::NodeBalance, busiest as f64, even as f64).as_note());
    }
    if let Some(cap) = rec.reads.read_cap {
        out.push(Constraint::at_most(
            Check::ReadCap,
            rec.reads.reads_per_shard_cached,
            cap,
        ));
    }
    for limit in inputs.store.map(|s| s.limits()).unwrap_or_default() {
        let value = match limit.quantity {
            LimitedQuantity::WriteUnitsPerSecond => peak * inputs.write_cost.unwrap_or(1.0),
            LimitedQuantity::DocumentsPerTransaction => rec.shards as f64,
        };
        out.push(Constraint::at_most(Check::StoreLimit, value, limit.limit).as_note());
    }
    out
}

/// A risk's status from its own comparison (`meets`), which may use the
/// exact figure where the shown one is a bound.
fn by(mut c: Constraint, meets: bool) -> Constraint {
    c.status = match meets {
        true => crate::model::verdict::Status::Holds,
        false => crate::model::verdict::Status::Fails,
    };
    c
}
