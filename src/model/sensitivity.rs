//! What moves the count: the recommendation with one input moved down and
//! up, the rest as planned. Each end is the whole plan resolved again with
//! that input given as its flag (`config::options::size`), so it is what
//! `size` answers there, binding constraint included.

use serde::Serialize;

use super::recommendation::Binding;

/// An input the count can move with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SensitiveInput {
    /// Peak likes/s (`--peak`).
    Peak,
    /// Writes/s one shard key accepts (`--cap`).
    Cap,
    /// Share of the cap kept free (`--headroom`).
    Headroom,
    /// Safe writes/s per key, where given (`--safe`).
    Safe,
    /// Accepted P(any second over the cap) (`--risk`).
    Risk,
    /// The hot spell's length, seconds (`--duration`).
    Duration,
    /// Store partitions (`--partitions`).
    Partitions,
    /// App servers writing (`--servers`).
    Servers,
    /// Unlikes per like (`--unlike-share`).
    UnlikeShare,
    /// Gamma-Poisson traffic's dispersion (`--dispersion`).
    Dispersion,
}

impl SensitiveInput {
    /// The flag that sets it.
    pub fn flag(self) -> &'static str {
        match self {
            SensitiveInput::Peak => "--peak",
            SensitiveInput::Cap => "--cap",
            SensitiveInput::Headroom => "--headroom",
            SensitiveInput::Safe => "--safe",
            SensitiveInput::Risk => "--risk",
            SensitiveInput::Duration => "--duration",
            SensitiveInput::Partitions => "--partitions",
            SensitiveInput::Servers => "--servers",
            SensitiveInput::UnlikeShare => "--unlike-share",
            SensitiveInput::Dispersion => "--dispersion",
        }
    }

    /// Whether it is a whole number (moved values are rounded).
    pub fn is_count(self) -> bool {
        matches!(self, SensitiveInput::Partitions | SensitiveInput::Servers)
    }
}

/// One input moved down and up.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SensitivityEntry {
    /// The input moved.
    pub input: SensitiveInput,
    /// Its planned value (in the flag's unit).
    pub planned: f64,
    /// The value moved down.
    pub low: f64,
    /// The value moved up.
    pub high: f64,
    /// The recommended shards with the input at `low`.
    pub shards_low: u64,
    /// The recommended shards with the input at `high`.
    pub shards_high: u64,
    /// The constraint setting the count at `low`.
    pub binding_low: Binding,
    /// The constraint setting the count at `high`.
    pub binding_high: Binding,
}

impl SensitivityEntry {
    /// How far the count moves between the two ends.
    pub fn spread(&self) -> u64 {
        self.shards_low.abs_diff(self.shards_high)
    }
}

/// Every input that can move the count, the furthest-moving first.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Sensitivity {
    /// How far each input is moved either way, as a share of its value
    /// (0.25: down and up 25%).
    pub share: f64,
    /// The recommended shards as planned.
    pub planned_shards: u64,
    /// One entry an input, sorted by how far the count moves (the most
    /// first; ties in the order the inputs are listed).
    pub entries: Vec<SensitivityEntry>,
}

impl Sensitivity {
    /// The entries sorted by their spread, the widest first.
    pub fn new(share: f64, planned_shards: u64, mut entries: Vec<SensitivityEntry>) -> Sensitivity {
        entries.sort_by_key(|e| std::cmp::Reverse(e.spread()));
        Sensitivity {
            share,
            planned_shards,
            entries,
        }
    }

    /// An input's values moved down and up by `share` (counts rounded, at
    /// least 1), or `None` where an end leaves the planned value as it is.
    pub fn ends(input: SensitiveInput, planned: f64, share: f64) -> Option<(f64, f64)> {
        let (low, high) = (planned * (1.0 - share), planned * (1.0 + share));
        let (low, high) = match input.is_count() {
            true => (low.round().max(1.0), high.round()),
            false => (low, high),
        };
        (low != planned && high != planned && planned > 0.0).then_some((low, high))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(input: SensitiveInput, low: u64, high: u64) -> SensitivityEntry {
        SensitivityEntry {
            input,
            planned: 1.0,
            low: 0.75,
            high: 1.25,
            shards_low: low,
            shards_high: high,
            binding_low: Binding::RuleOfThumb,
            binding_high: Binding::RuleOfThumb,
        }
    }

    #[test]
    fn entries_sort_by_how_far_the_count_moves() {
        let s = Sensitivity::new(
            0.25,
            20,
            vec![
                entry(SensitiveInput::Risk, 20, 19),
                entry(SensitiveInput::Peak, 15, 25),
                entry(SensitiveInput::Cap, 27, 16),
                entry(SensitiveInput::Duration, 20, 20),
            ],
        );
        let order: Vec<_> = s.entries.iter().map(|e| e.input).collect();
        use SensitiveInput::*;
        assert_eq!(order, [Cap, Peak, Risk, Duration]);
    }

    #[test]
    fn counts_round_and_an_end_that_moves_nothing_drops_the_input() {
        assert_eq!(
            Sensitivity::ends(SensitiveInput::Servers, 40.0, 0.25),
            Some((30.0, 50.0))
        );
        assert_eq!(
            Sensitivity::ends(SensitiveInput::Peak, 14_000.0, 0.5),
            Some((7_000.0, 21_000.0))
        );
        // One partition moved 25% rounds back to 1.
        assert_eq!(
            Sensitivity::ends(SensitiveInput::Partitions, 1.0, 0.25),
            None
        );
        assert_eq!(Sensitivity::ends(SensitiveInput::Peak, 0.0, 0.25), None);
    }
}
