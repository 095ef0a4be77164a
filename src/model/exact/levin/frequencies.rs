//! The frequency sums of Levin's grid: `phi_j = sum_k p_k e^{-i w_j (k -
//! k_r)}`, `w_j = 2 pi j / M`, for `j = 1..=J`, where `J` is where the
//! terms `|phi_j|^S` have gone quiet. Either one sum per frequency (O(K) each,
//! best when few frequencies matter: many shards) or one FFT for all of them
//! (O(M log M), best when the cut's sharp edge keeps every frequency alive:
//! few shards with a spread in the thousands).

use realfft::RealFftPlanner;

use super::truncated::Truncated;
use super::twiddles::GridFactors;
use super::{psi_pow, QUIET, QUIET_RUN};

/// Phasors stepped by one complex product gain ~1 ulp a step, and raising
/// a sum to the power S multiplies its relative error by S; so they are
/// reset to their exact factors every `256 / S` steps (at most 32, at
/// least every step): the error stays under ~256 ulps of `psi^S`, as with
/// exact factors once S passes 256.
pub(super) fn phasor_refresh(shards: u64) -> u64 {
    (256 / shards.max(1)).clamp(1, 32)
}

/// `e^{-i w_j d}` for `j = 1..=n`: the grid's factors, by residues `j d
/// mod M`.
pub(super) fn phasors(n: usize, d: i128, tw: &GridFactors) -> Vec<(f64, f64)> {
    let m = tw.grid();
    let d = d.rem_euclid(m as i128) as u64;
    let mut r = 0u64;
    (0..n)
        .map(|_| {
            r += d;
            if r >= m {
                r -= m;
            }
            tw.factor(r)
        })
        .collect()
}

/// The smallest `n' >= n` whose only prime factors are 2, 3 and 5: a larger
/// grid is as correct (less aliasing still) and such sizes FFT fastest.
pub(super) fn smooth_size(n: u64) -> u64 {
    let mut best = n.next_power_of_two();
    let mut p3 = 1u64;
    while p3 < best {
        let mut p35 = p3;
        while p35 < best {
            let mut x = p35;
            while x < n {
                x *= 2;
            }
            best = best.min(x);
            p35 *= 5;
        }
        p3 *= 3;
    }
    best
}

/// `phi_j` for `j = 1..=J`, with `J` the first frequency past `gauss_j`
/// after a run of `QUIET_RUN` negligible `|phi_j|^S`, or `M / 2`: by direct
/// sums over the grid's factors `tw` where few frequencies matter (many
/// shards), or one FFT where the frequency at the direct sums' budget is
/// still alive (few shards, a wide spread).
pub(super) fn frequency_sums(
    y: &Truncated,
    k_r: u64,
    shards: u64,
    gauss_j: f64,
    tw: &GridFactors,
) -> Vec<(f64, f64)> {
    let m = tw.grid();
    let k = y.w.len() as f64;
    let mf = m as f64;
    // Direct sums cost ~K operations a frequency, the FFT ~M log2 M for all.
    let budget = ((mf * mf.log2()) / k).max(2.0 * QUIET_RUN as f64) as u64;
    let d0 = y.first as i128 - k_r as i128;
    // The sum in order over the grid's factors, index (j (k - k_r)) mod M.
    let sum_at = |j: u64| {
        let start = (d0 * j as i128).rem_euclid(m as i128) as u64;
        tw.weighted_sum(&y.w, start, j)
    };
    if budget < m / 2 {
        // One probe sum at the budget.
        let (re, im) = sum_at(budget);
        if psi_pow(re, im, shards) >= QUIET {
            return by_fft(y, d0, m, shards, gauss_j);
        }
    }
    // Past the budget the FFT is cheaper: give up on direct sums.
    until_quiet(m, shards, gauss_j, |j| (j <= budget).then(|| sum_at(j)))
        .unwrap_or_else(|| by_fft(y, d0, m, shards, gauss_j))
}

/// `phi_j` from `phi_at(j)` for `j = 1, 2, ...` up to the first frequency
/// past `gauss_j` after a run of `QUIET_RUN` negligible `|phi_j|^S`, or
/// `M / 2`; `None` as soon as `phi_at` gives up.
fn until_quiet(
    m: u64,
    shards: u64,
    gauss_j: f64,
    mut phi_at: impl FnMut(u64) -> Option<(f64, f64)>,
) -> Option<Vec<(f64, f64)>> {
    let mut phi = Vec::new();
    let mut quiet = 0;
    for j in 1..=m / 2 {
        let (re, im) = phi_at(j)?;
        phi.push((re, im));
        quiet = if psi_pow(re, im, shards) < QUIET {
            quiet + 1
        } else {
            0
        };
        if j as f64 >= gauss_j && quiet >= QUIET_RUN {
            break;
        }
    }
    Some(phi)
}

/// Grids past this many points (16 MB of input and as much of spectrum
/// and scratch) take their FFT one at a time, whatever the thread count:
/// two at once took 11 shards at 1e9 likes/s to 67 MB, past the 64 MB
/// every command keeps to. The CPU time is the same.
const BIG_FFT_POINTS: u64 = 1 << 19;
static BIG_FFT: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn by_fft(y: &Truncated, d0: i128, m: u64, shards: u64, gauss_j: f64) -> Vec<(f64, f64)> {
    // Nothing under the lock runs on rayon, so it cannot wait on itself.
    let _one_at_a_time = (m > BIG_FFT_POINTS).then(|| BIG_FFT.lock());
    // The pmf laid on the circle at (k - k_r) mod M; the forward FFT's
    // output j is sum_n a_n e^{-2 pi i j n / M} = phi_j. The input is
    // real, so a real-to-complex transform (half the memory and time of a
    // complex one: a million-point grid at 1e9 likes/s needs about 20 MB,
    // not 40, and two run at once on two cores).
    // A planner of its own: a kept one would hold every size's factors,
    // and a table's blocks have many sizes (memory, not speed, decides).
    let fft = RealFftPlanner::<f64>::new().plan_fft_forward(m as usize);
    let mut grid = fft.make_input_vec();
    let shift = d0.rem_euclid(m as i128) as u64;
    for (i, &p) in y.w.iter().enumerate() {
        grid[((shift + i as u64) % m) as usize] += p;
    }
    let mut spectrum = fft.make_output_vec();
    fft.process(&mut grid, &mut spectrum)
        .expect("the buffers are the plan's own");
    drop(grid);
    until_quiet(m, shards, gauss_j, |j| {
        let z = spectrum[j as usize];
        Some((z.re, z.im))
    })
    .expect("the FFT gives every frequency")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smooth_sizes() {
        assert_eq!(smooth_size(1), 1);
        assert_eq!(smooth_size(7), 8);
        assert_eq!(smooth_size(11), 12);
        assert_eq!(smooth_size(31), 32);
        assert_eq!(smooth_size(449_752), 450_000);
        for n in 1..2000u64 {
            let s = smooth_size(n);
            let mut x = s;
            for p in [2, 3, 5] {
                while x.is_multiple_of(p) {
                    x /= p;
                }
            }
            assert!(s >= n && x == 1, "{n} -> {s}");
        }
    }
}
