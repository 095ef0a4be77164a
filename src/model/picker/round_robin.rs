//! Round-robin writers: server `k` keeps a cursor `c_k`; its likes go to
//! shards `c_k, c_k + 1, ...` (mod `S`) and the cursor moves on one shard a
//! like, from one second to the next.
//!
//! In a second where server `k` sends `n_k = q_k S + r_k` likes, every shard
//! gets `q_k` of them and the `r_k` shards from the cursor on get one more.
//! So shard `j` takes `sum_k q_k + #{k : (j - c_k) mod S < r_k}`, and no
//! shard takes more than `sum_k ceil(n_k / S)`. With `K'` servers sending
//! anything (at most `min(K, n)`), that is at most
//! `floor((n + K'(S - 1)) / S)`: [`busiest_bound`]. Where that is under the
//! cap for every count the traffic can produce, no second goes over:
//! exactly 0.

/// The most likes one shard can take in a second of `likes` likes from
/// `servers` round-robin writers over `shards` shards (`shards >= 1`).
pub fn busiest_bound(likes: u64, shards: u64, servers: u64) -> u64 {
    let active = servers.min(likes) as u128;
    let (n, s) = (likes as u128, shards as u128);
    ((n + active * (s - 1)) / s) as u64
}

/// The fewest shards (at most `max_shards`) whose [`busiest_bound`] at
/// `likes` likes is at most `cap`: with as many, no second of at most
/// `likes` likes goes over the cap. `None` where even `max_shards` do not.
pub fn fewest_never_over(likes: u64, cap: u64, servers: u64, max_shards: u64) -> Option<u64> {
    // The bound falls as shards are added (n/S + K'(S-1)/S = K' + (n - K')/S).
    crate::model::search::fewest_shards(max_shards, |s| {
        Ok::<_, std::convert::Infallible>(busiest_bound(likes, s, servers) <= cap)
    })
    .ok()
    .flatten()
}

/// One second: spreads each server's likes (`server_likes[k]`) from its
/// cursor over the shards into `counts` (length `S`, overwritten), and
/// moves the cursors on. `O(K + S)`: the whole turns as one sum, the
/// remainders as a difference array over the ring of shards.
pub fn spread_second(server_likes: &[u64], cursors: &mut [u64], counts: &mut [u64]) {
    let s = counts.len() as u64;
    let mut whole = 0u64;
    // diff[j] - diff[j - 1]: the remainders starting and ending at j.
    let mut diff = vec![0i64; counts.len() + 1];
    for (&n, c) in server_likes.iter().zip(cursors.iter_mut()) {
        whole += n / s;
        let r = n % s;
        if r > 0 {
            let (start, end) = (*c, *c + r);
            diff[start as usize] += 1;
            if end <= s {
                diff[end as usize] -= 1;
            } else {
                diff[s as usize] -= 1;
                diff[0] += 1;
                diff[(end - s) as usize] -= 1;
            }
        }
        *c = (*c + r) % s;
    }
    let mut running = 0i64;
    for (slot, d) in counts.iter_mut().zip(&diff) {
        running += d;
        *slot = whole + running as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spread, like by like: the reference [`spread_second`] must match.
    fn brute(server_likes: &[u64], cursors: &mut [u64], shards: usize) -> Vec<u64> {
        let mut counts = vec![0u64; shards];
        for (&n, c) in server_likes.iter().zip(cursors.iter_mut()) {
            for _ in 0..n {
                counts[*c as usize] += 1;
                *c = (*c + 1) % shards as u64;
            }
        }
        counts
    }

    #[test]
    fn spread_matches_like_by_like() {
        use rand::RngExt;
        let mut rng = crate::model::rng::chunk_rng(34, 0);
        for _ in 0..2000 {
            let shards = rng.random_range(1..9usize);
            let servers = rng.random_range(1..7usize);
            let likes: Vec<u64> = (0..servers).map(|_| rng.random_range(0..30)).collect();
            let start: Vec<u64> = (0..servers)
                .map(|_| rng.random_range(0..shards as u64))
                .collect();
            let (mut a, mut b) = (start.clone(), start);
            let mut counts = vec![0u64; shards];
            spread_second(&likes, &mut a, &mut counts);
            assert_eq!(counts, brute(&likes, &mut b, shards));
            assert_eq!(a, b);
            let n: u64 = likes.iter().sum();
            let bound = busiest_bound(n, shards as u64, servers as u64);
            assert!(counts.iter().all(|&x| x <= bound), "{counts:?} > {bound}");
        }
    }

    #[test]
    fn the_bound_of_the_issue() {
        // 14,000 likes, 40 servers, 20 shards: 700 + 40 x 19 / 20 = 738.
        assert_eq!(busiest_bound(14_000, 20, 40), 738);
        // 15 shards: 933.3 + 37.3 = 970.7, under a cap of 1,000 ...
        assert_eq!(busiest_bound(14_000, 15, 40), 970);
        // ... and 14 are not: 1,000 + 37.1.
        assert_eq!(busiest_bound(14_000, 14, 40), 1037);
        assert_eq!(fewest_never_over(14_000, 1000, 40, 100), Some(15));
        // One like per server: a shard can take all of them.
        assert_eq!(busiest_bound(5, 20, 40), 5);
        assert_eq!(busiest_bound(0, 20, 40), 0);
        assert_eq!(fewest_never_over(14_000, 10, 40, 100), None);
    }

    #[test]
    fn the_bound_is_reached() {
        // K' - 1 servers with one like each and the rest on one server,
        // every cursor on shard 0: shard 0 takes K' - 1 + ceil(rest / S),
        // which is the bound (27 likes, 3 servers, 5 shards: 1 + 1 + 5 = 7).
        let (shards, likes) = (5u64, vec![1u64, 1, 25]);
        let mut cursors = vec![0u64; likes.len()];
        let mut counts = vec![0u64; shards as usize];
        spread_second(&likes, &mut cursors, &mut counts);
        assert_eq!(counts[0], 7);
        assert_eq!(busiest_bound(27, shards, 3), 7);
    }
}
