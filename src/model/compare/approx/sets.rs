//! Redis sets as the uniqueness record: their memory, and why a sharded
//! set must pick its shard by hash(user).

/// Redis `set-max-intset-entries` default: integer sets up to this size are intsets.
pub const REDIS_INTSET_MAX_ENTRIES: u64 = 512;
/// Redis dict entry before 7.2: key, value and next pointers (dict.h).
pub const REDIS_DICT_ENTRY_BYTES: u64 = 24;

/// jemalloc's size class for a small allocation, as Redis builds it
/// (`--with-lg-quantum=3`): multiples of 8 up to 64, then four classes per
/// doubling (80, 96, 112, 128, 160, ...).
pub fn jemalloc_size_class(bytes: u64) -> u64 {
    if bytes <= 64 {
        return bytes.max(1).div_ceil(8) * 8;
    }
    let group = 1u64 << (63 - (bytes - 1).leading_zeros());
    let spacing = group / 4;
    bytes.div_ceil(spacing) * spacing
}

/// Estimated bytes of a Redis set of `members` user ids, `id_bytes` each.
/// Up to 512 integer members it is an intset: 8 header bytes + one 2/4/8
/// byte integer per member (intset.h). Beyond, a hashtable; per member, in
/// the Redis <= 7.0 layout: a 24-byte dictEntry + the sds string (3-byte
/// sdshdr8 + id + NUL, rounded to jemalloc's class) + an 8-byte bucket
/// pointer per table slot (the table is the next power of two >= members).
/// An ESTIMATE: it leaves out the key and robj (~100 bytes per key). Redis
/// 7.2 stores a lone member straight in its bucket (redis/redis#11595:
/// 1M members took 46.29 MB before, 28.83 MB after), so newer Redis needs
/// about 24 bytes less per member.
pub fn redis_set_bytes(members: f64, id_bytes: u64) -> f64 {
    let members = members.max(0.0).ceil();
    if members <= REDIS_INTSET_MAX_ENTRIES as f64 {
        let width = match id_bytes {
            0..=2 => 2,
            3..=4 => 4,
            _ => 8,
        };
        return 8.0 + members * width as f64;
    }
    let sds = jemalloc_size_class(3 + id_bytes + 1) as f64;
    let slots = 2f64.powf(members.log2().ceil());
    members * (REDIS_DICT_ENTRY_BYTES as f64 + sds) + 8.0 * slots
}

/// Expected overcount of the random-shard sum: users x repeat x (S-1)/S.
pub fn expected_random_double_count(users: f64, repeat: f64, shards: u64) -> f64 {
    users * repeat * (shards as f64 - 1.0) / shards as f64
}

/// S sets holding `members` in total, split evenly (each a set of its own).
pub fn set_bytes_sharded(members: f64, id_bytes: u64, shards: u64) -> f64 {
    shards as f64 * redis_set_bytes(members / shards as f64, id_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ParamError, ParamResult, Problem};
    use crate::model::rng::chunk_rng;
    use crate::model::validate;
    use rand::RngExt;

    // The sharded-set demonstration: a brute-force check of
    // `expected_random_double_count`, kept with the tests that use it.
    /// How a like picks its shard set.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum ShardChoice {
        /// A uniformly random shard per write (fine for a plain counter).
        Random,
        /// shard = hash(user id) mod S: a user always lands in the same set.
        UserHash,
    }

    /// The shard of a user under [`ShardChoice::UserHash`]: SplitMix64's
    /// finaliser (Steele, Lea, Flood 2014) mod S. Any fixed, well-mixed hash
    /// works; what matters is that it is a function of the user alone.
    fn user_shard(user: u64, shards: u64) -> u64 {
        crate::model::rng::mix64(user) % shards
    }

    /// Result of the sharded-set demonstration.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct SetShardCount {
        /// Distinct users who liked: the true count.
        users: u64,
        /// Sum of the shard sets' SCARDs: what the sharded set shows.
        scard_sum: u64,
    }

    /// Simulates `users` distinct users liking once, a share `repeat` of them
    /// sending the SADD a second time (a retry after a timeout, or like, unlike
    /// and like again), onto `shards` sets chosen by `choice`. With a random
    /// shard the repeat lands in another set with probability (S - 1) / S and
    /// the user is counted twice; with the user hash it lands in the same set
    /// and SADD ignores it, so the sum of SCARDs is exact.
    fn simulate_set_shards(
        users: u64,
        repeat: f64,
        shards: u64,
        choice: ShardChoice,
        seed: u64,
    ) -> ParamResult<SetShardCount> {
        validate::count("users", users, 100_000_000)?;
        if !(0.0..=1.0).contains(&repeat) {
            return Err(ParamError::new("repeat", Problem::NotShare(repeat)));
        }
        validate::count("shards", shards, crate::model::defaults::MAX_SHARDS)?;
        let mut rng = chunk_rng(seed, 0);
        let mut sets = vec![std::collections::HashSet::new(); shards as usize];
        for user in 0..users {
            let sends = if rng.random::<f64>() < repeat { 2 } else { 1 };
            for _ in 0..sends {
                let shard = match choice {
                    ShardChoice::Random => rng.random_range(0..shards),
                    ShardChoice::UserHash => user_shard(user, shards),
                };
                sets[shard as usize].insert(user);
            }
        }
        Ok(SetShardCount {
            users,
            scard_sum: sets.iter().map(|s| s.len() as u64).sum(),
        })
    }

    #[test]
    fn jemalloc_classes() {
        let got: Vec<u64> = [1, 8, 9, 12, 24, 25, 64, 65, 80, 81, 128, 129, 257]
            .iter()
            .map(|&b| jemalloc_size_class(b))
            .collect();
        assert_eq!(got, [8, 8, 16, 16, 24, 32, 64, 80, 80, 96, 128, 160, 320]);
    }

    #[test]
    fn redis_set_sizes() {
        // Intset: 8 header bytes + 512 x 8-byte integers.
        assert_eq!(redis_set_bytes(512.0, 8), 8.0 + 512.0 * 8.0);
        assert_eq!(redis_set_bytes(100.0, 4), 8.0 + 400.0);
        // Hashtable: 513 x (24 + jemalloc(3 + 8 + 1) = 16) + 8 x 1024 slots.
        assert_eq!(redis_set_bytes(513.0, 8), 513.0 * 40.0 + 8.0 * 1024.0);
        // 1M members: 40 MB of entries and strings + 8 x 2^20 slots.
        assert_eq!(redis_set_bytes(1e6, 8), 40e6 + 8.0 * 1_048_576.0);
    }

    #[test]
    fn set_estimate_matches_redis_measurement() {
        // redis/redis#11595: SADD of "x1".."x1000000" took 46.29 MB (MiB, as
        // INFO prints) on Redis 7.0. Our per-member model for those strings:
        // 24-byte entry + jemalloc(3 + len + 1) + the 2^20-slot table.
        let sds: u64 = (1..=1_000_000u64)
            .map(|i| jemalloc_size_class(3 + 1 + i.to_string().len() as u64 + 1))
            .sum();
        let model = 24e6 + sds as f64 + 8.0 * 1_048_576.0;
        let measured = 46.29 * 1_048_576.0;
        assert!(
            (model / measured - 1.0).abs() < 0.01,
            "{model} vs {measured}"
        );
    }

    #[test]
    fn random_shard_sets_double_count_hash_shard_does_not() {
        // 100,000 users, 10% send the SADD twice, 20 sets. Random shard: each
        // repeat lands elsewhere with P = 19/20, so the overcount is
        // Binomial(1e5, 0.1 x 0.95): mean 9,500, sd sqrt(1e5 x 0.095 x 0.905)
        // = 92.7; we allow 5 sd (464).
        let users = 100_000;
        let random = simulate_set_shards(users, 0.1, 20, ShardChoice::Random, 11).unwrap();
        let over = random.scard_sum as f64 - users as f64;
        let want = expected_random_double_count(users as f64, 0.1, 20);
        assert_eq!(want, 9500.0);
        assert!((over - want).abs() < 464.0, "overcount {over}");
        // Hash by user: the repeat hits the same set, SADD ignores it: exact.
        let hashed = simulate_set_shards(users, 0.1, 20, ShardChoice::UserHash, 11).unwrap();
        assert_eq!(hashed.scard_sum, users);
        // Every user repeats: still exact with the hash.
        let all = simulate_set_shards(1000, 1.0, 7, ShardChoice::UserHash, 3).unwrap();
        assert_eq!(all.scard_sum, 1000);
        // One shard: random cannot double count either.
        let one = simulate_set_shards(1000, 1.0, 1, ShardChoice::Random, 3).unwrap();
        assert_eq!(one.scard_sum, 1000);
        assert_eq!(
            simulate_set_shards(10, 1.5, 2, ShardChoice::Random, 1)
                .unwrap_err()
                .param,
            "repeat"
        );
    }

    #[test]
    fn user_shard_is_stable_and_spread() {
        assert_eq!(user_shard(42, 20), user_shard(42, 20));
        let mut counts = [0u64; 20];
        for u in 0..200_000u64 {
            counts[user_shard(u, 20) as usize] += 1;
        }
        // 10,000 expected per shard, sd sqrt(2e5 x 0.05 x 0.95) = 97.5; 5 sd.
        for c in counts {
            assert!((c as f64 - 10_000.0).abs() < 488.0, "{counts:?}");
        }
    }
}
