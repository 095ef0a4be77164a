//! The bundled scenarios, compiled into the binary so `--scenario
//! viral-reel` works from any folder. Data only: `config::scenario` parses
//! them, shell completion lists them.

/// The scenario flat-load commands use when none is named.
pub const DEFAULT: &str = "viral-reel";

/// The bundled scenarios: (name, TOML text).
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "viral-reel",
        include_str!("../../scenarios/viral-reel.toml"),
    ),
    ("overload", include_str!("../../scenarios/overload.toml")),
    ("interview", include_str!("../../scenarios/interview.toml")),
    (
        "quiet-reel",
        include_str!("../../scenarios/quiet-reel.toml"),
    ),
    (
        "viral-evening",
        include_str!("../../scenarios/viral-evening.toml"),
    ),
    (
        "viral-evening-monitor",
        include_str!("../../scenarios/viral-evening-monitor.toml"),
    ),
    (
        "grow-wrong-order",
        include_str!("../../scenarios/grow-wrong-order.toml"),
    ),
    (
        "grow-right-order",
        include_str!("../../scenarios/grow-right-order.toml"),
    ),
    (
        "shrink-fold",
        include_str!("../../scenarios/shrink-fold.toml"),
    ),
];

/// The `description` line of a bundled scenario's text, for completion
/// menus (the full parse and its checks are `config::scenario`'s).
pub fn description(text: &str) -> Option<String> {
    let table: toml::Table = toml::from_str(text).ok()?;
    table.get("description")?.as_str().map(str::to_string)
}
