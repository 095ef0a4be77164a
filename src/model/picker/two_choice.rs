//! Two-choice writers: for each like the server draws two shards
//! independently and uniformly and writes to the one it has sent fewer
//! likes to in this second (its own counts, reset each second); on a tie,
//! the first drawn. A second is drawn like by like, server by server.

use rand::{Rng, RngExt};

/// One server's likes of one second, added to `counts` (length `S`);
/// `sent` is the server's own per-shard counts for the second (length `S`,
/// reset here).
pub fn add_server_second<R: Rng + ?Sized>(
    rng: &mut R,
    likes: u64,
    sent: &mut [u32],
    counts: &mut [u64],
) {
    sent.fill(0);
    place_likes(rng, likes, sent);
    for (c, &n) in counts.iter_mut().zip(sent.iter()) {
        *c += u64::from(n);
    }
}

/// Adds `likes` more likes to a server's own counts `sent` (length `S`),
/// like by like by the rule.
pub fn place_likes<R: Rng + ?Sized>(rng: &mut R, likes: u64, sent: &mut [u32]) {
    let s = sent.len();
    for _ in 0..likes {
        let first = rng.random_range(0..s);
        let second = rng.random_range(0..s);
        let pick = if sent[second] < sent[first] {
            second
        } else {
            first
        };
        sent[pick] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_likes_on_two_shards_follow_the_rule() {
        // The first like lands anywhere; the second goes to the other shard
        // unless both draws are the first like's shard (1/4): so the split
        // is 2 + 0 with probability exactly 1/4. Over 40,000 seconds the
        // frequency's standard error is sqrt(0.25 x 0.75 / 40,000) =
        // 0.00217; the tolerance is 5 of them.
        let mut rng = crate::model::rng::chunk_rng(34, 2);
        let (mut sent, mut counts) = (vec![0u32; 2], vec![0u64; 2]);
        let trials = 40_000;
        let mut both = 0;
        for _ in 0..trials {
            counts.fill(0);
            add_server_second(&mut rng, 2, &mut sent, &mut counts);
            both += u64::from(counts.contains(&2));
        }
        let f = both as f64 / trials as f64;
        assert!((f - 0.25).abs() < 5.0 * 0.00217, "{f}");
    }

    #[test]
    fn a_server_spreads_closer_than_one_choice() {
        // 350 likes over 20 shards: one choice spreads a server's counts
        // with a range of about 15 (20 draws of sd 4.1); two choices keep
        // it near 3. Means over 2,000 seconds (standard error under 0.1).
        let mut rng = crate::model::rng::chunk_rng(34, 3);
        let (mut sent, mut counts) = (vec![0u32; 20], vec![0u64; 20]);
        let mut range = 0u64;
        for _ in 0..2000 {
            counts.fill(0);
            add_server_second(&mut rng, 350, &mut sent, &mut counts);
            assert_eq!(counts.iter().sum::<u64>(), 350);
            range += counts.iter().max().unwrap() - counts.iter().min().unwrap();
        }
        let mean = range as f64 / 2000.0;
        assert!(mean < 5.0, "mean range {mean}");
    }

    #[test]
    fn ties_go_to_the_first_drawn() {
        // One shard: every like goes there.
        let mut rng = crate::model::rng::chunk_rng(1, 1);
        let (mut sent, mut counts) = (vec![0u32; 1], vec![0u64; 1]);
        add_server_second(&mut rng, 9, &mut sent, &mut counts);
        assert_eq!(counts, [9]);
    }
}
