//! What a scenario describes, and which commands serve each kind.

use std::fmt;

use serde::Deserialize;

use super::Scenario;
use crate::error::{InputError, InputResult};

/// What a scenario describes; each command serves some of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// One hot counter at a steady rate: size, simulate, risk, sweep,
    /// compare, chart, report.
    FlatLoad,
    /// A rate over time, burst capacity or the hot-key monitor: simulate,
    /// chart --kind timeline, report (and sizing at the curve's peak).
    TimeLine,
    /// A grow or shrink of the shard count: resize.
    Resize,
    /// The whole table of reels: fleet.
    Fleet,
}

impl Kind {
    /// The name a scenario file uses.
    pub fn name(self) -> &'static str {
        match self {
            Kind::FlatLoad => "flat-load",
            Kind::TimeLine => "time-line",
            Kind::Resize => "resize",
            Kind::Fleet => "fleet",
        }
    }

    /// The words for it in a sentence.
    pub fn described(self) -> &'static str {
        match self {
            Kind::FlatLoad => "a flat load",
            Kind::TimeLine => "a time line",
            Kind::Resize => "a resize",
            Kind::Fleet => "a fleet",
        }
    }

    /// The commands that take a scenario of this kind.
    pub fn commands(self) -> &'static [&'static str] {
        match self {
            Kind::FlatLoad => &[
                "size", "simulate", "risk", "sweep", "compare", "chart", "report",
            ],
            Kind::TimeLine => &["simulate", "chart --kind timeline", "report", "size"],
            Kind::Resize => &["resize"],
            Kind::Fleet => &["fleet"],
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Checks the declared kinds against the sections.
pub(super) fn kinds(file: &str, s: &Scenario) -> InputResult<Vec<Kind>> {
    let content = s.content_kinds();
    let Some(declared) = &s.describes else {
        return Ok(content);
    };
    let field = format!("scenario {file}: describes");
    if declared.is_empty() {
        return Err(InputError::new(
            field,
            "lists no kind; use flat-load, time-line, resize or fleet",
        ));
    }
    for k in declared {
        if !content.contains(k) {
            let needs = match k {
                Kind::FlatLoad => "a peak, observed or rate (and no [curve], [store] or [monitor])",
                Kind::TimeLine => "a [curve], [store] or [monitor] section",
                Kind::Resize => "a [resize] section",
                Kind::Fleet => "a [fleet] section",
            };
            return Err(InputError::new(
                field,
                format!("lists {k}, which needs {needs}"),
            ));
        }
    }
    if let Some(k) = content.iter().find(|k| !declared.contains(k)) {
        return Err(InputError::new(
            field,
            format!("does not list {k}, but the scenario's sections describe one; add it"),
        ));
    }
    let mut kinds = declared.clone();
    kinds.sort();
    kinds.dedup();
    Ok(kinds)
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn declared_kinds_must_match_the_sections() {
        let s = parse("x.toml", "describes = [\"resize\"]\npeak = 5\n").unwrap();
        let e = kinds("x.toml", &s).unwrap_err();
        assert_eq!(e.what, "scenario x.toml: describes");
        let s = parse("x.toml", "describes = [\"flat-load\"]\npeak = 5\n[fleet]\n").unwrap();
        assert!(kinds("x.toml", &s).unwrap_err().message.contains("fleet"));
    }
}
