//! A measurement read back as an input: `--cap-from-measure` takes the
//! per-key cap from the JSON `shardplan measure` wrote, and `report
//! --measure` reads the same files (through [`read_measure_file`]).

use std::path::Path;

use crate::error::InputError;

/// The cap a measurement gives, and the field it was read from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeasuredCap {
    /// Writes a second one key (or row) took.
    pub cap: f64,
    /// Where in the file: `single_ops_per_second` (Redis) or
    /// `designs[single-row].ops_per_second_mean` (PostgreSQL).
    pub field: &'static str,
}

/// Read the per-key cap from the JSON `shardplan measure` wrote, for `size`
/// and `simulate` (`--cap-from-measure`): Redis's single-key ops/s, or
/// PostgreSQL's hot-row rate (the `single-row` design's ops/s, for a
/// document with `store: "postgres"`). Accepts the report object itself or
/// an array whose first element with the field is the report. The file is
/// claimed for the run as an input.
pub fn cap_from_measure_file(
    claims: &crate::files::Claims,
    path: &Path,
) -> Result<MeasuredCap, InputError> {
    cap_from_measure_json(path, &read_measure_file(claims, CAP_FLAG, path)?)
}

/// The flag that names a measurement to take the cap from.
const CAP_FLAG: &str = "--cap-from-measure";

/// The bytes of a measurement file (`-`: standard input), claimed for the
/// run as an input; errors name `what`.
pub fn read_measure_file(
    claims: &crate::files::Claims,
    what: &str,
    path: &Path,
) -> Result<Vec<u8>, InputError> {
    crate::files::input::read_bounded(
        claims,
        what,
        path,
        crate::model::defaults::MAX_SCENARIO_BYTES,
        "measure's JSON is a few kilobytes",
    )
}

/// [`cap_from_measure_file`] on the bytes already read from `path`.
fn cap_from_measure_json(path: &Path, bytes: &[u8]) -> Result<MeasuredCap, InputError> {
    const WHAT: &str = CAP_FLAG;
    let shown = path.display();
    let text = String::from_utf8(bytes.to_vec())
        .map_err(|_| InputError::new(WHAT, format!("cannot read {shown}: not UTF-8 text")))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        InputError::new(
            WHAT,
            format!("{shown} is not JSON ({e}); expected the JSON `shardplan measure` wrote"),
        )
    })?;
    let items = match &json {
        serde_json::Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    let redis = "single_ops_per_second";
    let postgres = "designs[single-row].ops_per_second_mean";
    let found = items.iter().find_map(|v| {
        if v.get("store").and_then(|s| s.as_str()) == Some("postgres") {
            let hot = v
                .get("designs")?
                .as_array()?
                .iter()
                .find(|d| d.get("design").and_then(|n| n.as_str()) == Some("single-row"))?;
            return Some((postgres, hot.get("ops_per_second_mean")?));
        }
        Some((redis, v.get(redis)?))
    });
    let Some((field, found)) = found else {
        return Err(InputError::new(
            WHAT,
            format!(
                "{shown} has no {redis} field (Redis) nor a postgres store's {postgres}; \
                 expected the JSON `shardplan measure` wrote"
            ),
        ));
    };
    match found.as_f64() {
        Some(v) if v.is_finite() && v > 0.0 => Ok(MeasuredCap { cap: v, field }),
        _ => Err(InputError::new(
            WHAT,
            format!("{field} in {shown} must be a number above 0 (got {found})"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_from_measure_reads_single_ops() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).unwrap();
            p
        };
        let p = write(
            "a.json",
            r#"{"single_ops_per_second": 41234.5, "sharded_ops_per_second": 90000}"#,
        );
        assert_eq!(
            cap_from_measure_file(&Default::default(), &p).unwrap().cap,
            41234.5
        );
        let p = write("b.json", r#"[{"single_ops_per_second": 1000}]"#);
        assert_eq!(
            cap_from_measure_file(&Default::default(), &p).unwrap().cap,
            1000.0
        );
        // PostgreSQL's: the hot row's rate, not the sharded rows'.
        let p = write(
            "pg.json",
            r#"{"store": "postgres", "designs": [
                {"design": "sharded-rows", "ops_per_second_mean": 6000},
                {"design": "single-row", "ops_per_second_mean": 650.5}]}"#,
        );
        let cap = cap_from_measure_file(&Default::default(), &p).unwrap();
        assert_eq!(cap.cap, 650.5);
        assert_eq!(cap.field, "designs[single-row].ops_per_second_mean");
        for (name, text, needle) in [
            ("c.json", "not json", "is not JSON"),
            ("d.json", r#"{"cap": 3}"#, "no single_ops_per_second"),
            (
                "g.json",
                r#"{"store": "postgres", "designs": [{"design": "like-rows"}]}"#,
                "designs[single-row]",
            ),
            (
                "h.json",
                r#"{"store": "postgres", "designs": [{"design": "single-row", "ops_per_second_mean": -1}]}"#,
                "above 0",
            ),
            ("e.json", r#"{"single_ops_per_second": 0}"#, "above 0"),
            ("f.json", r#"{"single_ops_per_second": "fast"}"#, "above 0"),
        ] {
            let e = cap_from_measure_file(&Default::default(), &write(name, text)).unwrap_err();
            assert_eq!(e.what, "--cap-from-measure");
            assert!(e.message.contains(needle), "{name}: {e}");
        }
        let e = cap_from_measure_file(&Default::default(), &dir.path().join("missing.json"))
            .unwrap_err();
        assert!(e.message.contains("cannot read"), "{e}");
    }
}
