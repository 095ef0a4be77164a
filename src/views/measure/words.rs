//! `measure`'s figures in words: a phase over the runs, the ratio and
//! whether it is a measurable difference, the warnings, the keys, the
//! clean-up and the read path.

use crate::measure::{MeasureReport, MeasureWarning, PhaseSpread, Spread};
use crate::output::{fmt, Section};

/// A share of the CPU, or `-` when a node's INFO did not say.
pub(super) fn cpu(share: Option<f64>) -> String {
    share.map(fmt::percent).unwrap_or_else(|| "-".into())
}

/// `mean ± sd (95% CI low to high)`, or the mean alone with one run.
fn spread(s: &Spread, show: impl Fn(f64) -> String) -> String {
    match (s.std_dev, s.ci95) {
        (Some(sd), Some([lo, hi])) => format!(
            "{} ± {} (95% CI {} to {})",
            show(s.mean),
            show(sd),
            show(lo),
            show(hi)
        ),
        _ => show(s.mean),
    }
}

/// One phase over the runs: ops/s, then the latency percentiles.
pub(super) fn phase_line(p: &PhaseSpread, shards: Option<u64>) -> String {
    let ops = spread(&p.ops_per_second, |x| fmt::num(x.round()));
    let ms = |x: f64| format!("{x:.3}");
    let over = shards
        .map(|s| format!(" over {}", fmt::counted(s, "key", "keys")))
        .unwrap_or_default();
    format!(
        "{ops} INCR/s{over}; p50 {} ms, p99 {} ms",
        spread(&p.p50_ms, ms),
        spread(&p.p99_ms, ms)
    )
}

/// The ratio sharded / one key and what its interval says.
pub(super) fn ratio_line(r: &MeasureReport) -> String {
    let x = |v: f64| format!("{v:.2}x");
    let verdict = match r.ratio.includes(1.0) {
        None => "one run: no interval, so no verdict".to_string(),
        Some(true) => "no measurable difference (the interval includes 1)".to_string(),
        Some(false) if r.ratio.mean > 1.0 => "sharded measurably faster".to_string(),
        Some(false) => "sharded measurably slower".to_string(),
    };
    format!("{}: {verdict}", spread(&r.ratio, x))
}

/// How many runs, and what one run cannot give.
pub(super) fn runs_line(r: &MeasureReport) -> String {
    let each = "one key and sharded alternating, after a warm-up";
    match r.runs {
        1 => format!("1 ({each}; one run gives no interval: use --runs 2 or more)"),
        n => format!("{} ({each})", fmt::count(n)),
    }
}

/// One warning before the run, as stderr and the report say it.
pub fn warning_text(w: &MeasureWarning) -> String {
    match w {
        MeasureWarning::NodesUnreached {
            reached,
            nodes,
            shards,
        } if shards < nodes => format!(
            "the {shards} shard keys reach {reached} of the {nodes} nodes: fewer keys than \
             nodes, so the sharded phase cannot load the whole cluster"
        ),
        MeasureWarning::NodesUnreached {
            reached,
            nodes,
            shards,
        } => format!(
            "the {shards} shard keys reach {reached} of the {nodes} nodes; their slots put keys \
             together (a hash tag in --template?), so the sharded phase does not load the whole cluster"
        ),
        MeasureWarning::Placement { warning } => super::super::placement::warning_text(warning),
    }
}

/// The keys' template, with the run id when the run chose it.
pub(super) fn keys(r: &MeasureReport) -> String {
    match &r.run_id {
        Some(id) => format!("{} (run id {id})", r.template),
        None => format!("{} (--template)", r.template),
    }
}

/// What the end of the run did to the keys.
pub(super) fn cleanup(r: &MeasureReport) -> String {
    let mut text = if r.keys_kept {
        format!(
            "keys kept (--keep), {} deleted",
            fmt::counted(r.keys_deleted, "copy", "copies")
        )
    } else {
        format!("{} deleted", fmt::counted(r.keys_deleted, "key", "keys"))
    };
    if !r.keys_left.is_empty() {
        text += &format!(
            ", {} left (changed by another client)",
            fmt::count(r.keys_left.len() as u64)
        );
    }
    if r.keys_restored > 0 {
        text += &format!(", {} restored (--overwrite)", fmt::count(r.keys_restored));
    }
    text
}

/// The read path's section.
pub(super) fn read_path(r: &MeasureReport) -> Section {
    Section::pairs(
        "Read path",
        vec![
            (
                "S pipelined GETs",
                format!(
                    "{:.3} ms median over {}",
                    r.read.pipelined_get_p50_ms,
                    fmt::counted(r.read.nodes_per_read, "node", "nodes")
                ),
            ),
            (
                "one MGET",
                match r.read.mget_p50_ms {
                    Some(ms) => format!("{ms:.3} ms median ({})", r.read.mget_keys.name()),
                    None => format!("not possible ({})", r.read.mget_keys.name()),
                },
            ),
            (
                "MGET across slots",
                r.read
                    .crossslot_error
                    .clone()
                    .unwrap_or_else(|| "no error (one slot or standalone)".into()),
            ),
        ],
    )
}
