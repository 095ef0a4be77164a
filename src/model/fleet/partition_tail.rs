//! One partition's chance over the cap in a second, under Poisson
//! arrivals at its load: what the sampled placements (`placement.rs`) and
//! the partitions no explicit key lands on (`tail_only.rs`) both sum.

use statrs::distribution::{DiscreteCDF, Poisson};

/// A partition whose Chernoff bound on P(over the cap) is below this is
/// counted as 0: P partitions then add at most P x 1e-30 to the chance.
const LN_NEGLIGIBLE: f64 = -69.0;

/// Whether P(Poisson(lambda) > cap) is skipped as negligible: no load, or
/// the Chernoff bound P(X >= c) <= exp(-lambda) (e lambda / c)^c
/// (c = cap + 1 > lambda) below e^[`LN_NEGLIGIBLE`]. The bound's log,
/// c - lambda - c ln(c / lambda), grows with lambda below c (its
/// derivative is c / lambda - 1 > 0), so every smaller load is skipped too.
pub(super) fn negligible(lambda: f64, cap: f64) -> bool {
    let c = cap + 1.0;
    lambda <= 0.0 || (c > lambda && c - lambda - c * (c / lambda).ln() < LN_NEGLIGIBLE)
}

/// P(Poisson(lambda) > cap) for a whole `cap`. Partitions far below the cap
/// are skipped when the Chernoff bound
/// P(X >= c) <= exp(-lambda) (e lambda / c)^c (c > lambda) is negligible.
pub fn p_over(lambda: f64, cap: f64) -> f64 {
    if negligible(lambda, cap) {
        return 0.0;
    }
    match Poisson::new(lambda) {
        Ok(d) => d.sf(cap as u64),
        Err(_) => 0.0,
    }
}
