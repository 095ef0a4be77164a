//! The frequency sums of Levin's grid: `phi_j = sum_k p_k e^{-i w_j (k -
//! k_r)}`, `w_j = 2 pi j / M`, for `j = 1..=J`, where `J` is where the
//! terms `|phi_j|^S` have gone quiet. Either one sum per frequency (O(K) each,
//! best when few frequencies matter: many shards) or one FFT for all of them
//! (O(M log M), best when the cut's sharp edge keeps every frequency alive:
//! few shards with a spread in the thousands).

use rustfft::num_complex::Complex64;
use rustfft::FftPlanner;

use super::truncated::Truncated;
use super::twiddles::Twiddles;
use super::{psi_pow, QUIET, QUIET_RUN};

/// Phasors stepped by one complex product gain ~1 ulp a step, and raising
/// a sum to the power S multiplies its relative error by S; so they are
/// reset to their exact factors every `256 / S` steps (at most 32, at
/// least every step): the error stays under ~256 ulps of `psi^S`, as with
/// exact factors once S passes 256.
pub(super) fn phasor_refresh(shards: u64) -> u64 {
    (256 / shards.max(1)).clamp(1, 32)
}

/// `e^{-i w_j d}` for `j = 1..=n`: exact factors, by residues `j d mod M`
/// (from the table when there is one).
pub(super) fn phasors(n: usize, d: i128, m: u64, tw: Option<&Twiddles>) -> Vec<(f64, f64)> {
    let d = d.rem_euclid(m as i128) as u64;
    let mut r = 0u64;
    (0..n)
        .map(|_| {
            r += d;
            if r >= m {
                r -= m;
            }
            tw.map_or_else(|| unit(r, m), |t| t.factor(r))
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
/// after a run of `QUIET_RUN` negligible `|phi_j|^S`, or `M / 2`; and the
/// grid's exact factors when the direct sums served (few frequencies; the
/// phasors are reset from them). Where the frequency at the direct sums'
/// budget is still alive, the FFT serves at once and no factor table is
/// built: the table and the FFT's buffers would double the memory of the
/// widest grids (a million points at 1e9 likes/s).
pub(super) fn frequency_sums(
    y: &Truncated,
    k_r: u64,
    m: u64,
    shards: u64,
    gauss_j: f64,
) -> (Vec<(f64, f64)>, Option<Twiddles>) {
    let k = y.w.len() as f64;
    let mf = m as f64;
    // Direct sums cost ~K operations a frequency, the FFT ~M log2 M for all.
    let budget = ((mf * mf.log2()) / k).max(2.0 * QUIET_RUN as f64) as u64;
    let d0 = y.first as i128 - k_r as i128;
    if budget < m / 2 {
        // One probe sum at the budget, each factor from its exact angle.
        let j = budget as i128;
        let (mut re, mut im) = (0.0, 0.0);
        for (i, &p) in y.w.iter().enumerate() {
            let r = (j * (d0 + i as i128)).rem_euclid(m as i128) as u64;
            let (co, si) = unit(r, m);
            re += p * co;
            im += p * si;
        }
        if psi_pow(re, im, shards) >= QUIET {
            return (by_fft(y, d0, m, shards, gauss_j), None);
        }
    }
    let tw = Twiddles::new(m);
    let direct = until_quiet(m, shards, gauss_j, |j| {
        // Past the budget the FFT is cheaper: give up on direct sums.
        (j <= budget).then(|| {
            // The sum in order over exact factors, index (j (k - k_r)) mod M.
            let start = (d0 * j as i128).rem_euclid(m as i128) as u64;
            tw.weighted_sum_in_order(&y.w, start, j)
        })
    });
    match direct {
        Some(phi) => (phi, Some(tw)),
        None => (by_fft(y, d0, m, shards, gauss_j), None),
    }
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

/// `e^{-2 pi i r / m}`, from the exact residue `r < m`.
pub(super) fn unit(r: u64, m: u64) -> (f64, f64) {
    let (sn, co) = (-std::f64::consts::TAU * r as f64 / m as f64).sin_cos();
    (co, sn)
}

fn by_fft(y: &Truncated, d0: i128, m: u64, shards: u64, gauss_j: f64) -> Vec<(f64, f64)> {
    // The pmf laid on the circle at (k - k_r) mod M; the forward FFT's
    // output j is sum_n a_n e^{-2 pi i j n / M} = phi_j.
    let mut grid = vec![Complex64::new(0.0, 0.0); m as usize];
    let shift = d0.rem_euclid(m as i128) as u64;
    for (i, &p) in y.w.iter().enumerate() {
        grid[((shift + i as u64) % m) as usize].re += p;
    }
    // A planner of its own: a kept one would hold every size's factors,
    // and a table's blocks have many sizes (memory, not speed, decides).
    FftPlanner::new()
        .plan_fft_forward(m as usize)
        .process(&mut grid);
    until_quiet(m, shards, gauss_j, |j| {
        let z = grid[j as usize];
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
