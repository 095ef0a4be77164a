//! Sticky writers: server `k` always writes to shard `k mod S`. Shard `j`
//! takes the likes of the servers mapped to it, so a second's split is a
//! multinomial with unequal shares: with `K = qS + a` servers, `a` shards
//! have `q + 1` servers each and `S - a` have `q` (none when `K < S`). With
//! `K` a multiple of `S` every share is `1/S`: the random picker's law. The
//! busiest shard's exact law is in `model::exact::sticky`.

/// Shards that share the same number of servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group {
    /// Shards in the group.
    pub shards: u64,
    /// Servers writing to each of them.
    pub servers_each: u64,
}

/// The shards grouped by how many servers write to each: the fuller group
/// first; a group of no shards is left out.
pub fn groups(shards: u64, servers: u64) -> Vec<Group> {
    let (q, a) = (servers / shards, servers % shards);
    [
        Group {
            shards: a,
            servers_each: q + 1,
        },
        Group {
            shards: shards - a,
            servers_each: q,
        },
    ]
    .into_iter()
    .filter(|g| g.shards > 0)
    .collect()
}

/// One second: each server's likes onto its shard, into `counts` (length
/// `S`, overwritten).
pub fn spread_second(server_likes: &[u64], counts: &mut [u64]) {
    counts.fill(0);
    let s = counts.len();
    for (k, &n) in server_likes.iter().enumerate() {
        counts[k % s] += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_cover_every_server_and_shard() {
        for shards in 1..30u64 {
            for servers in 1..70u64 {
                let g = groups(shards, servers);
                assert_eq!(g.iter().map(|g| g.shards).sum::<u64>(), shards);
                let total: u64 = g.iter().map(|g| g.shards * g.servers_each).sum();
                assert_eq!(total, servers);
            }
        }
        // 30 servers on 20 shards: 10 shards with two, 10 with one.
        assert_eq!(
            groups(20, 30),
            vec![
                Group {
                    shards: 10,
                    servers_each: 2
                },
                Group {
                    shards: 10,
                    servers_each: 1
                }
            ]
        );
        // 40 on 20: one group, the random picker's law.
        assert_eq!(
            groups(20, 40),
            vec![Group {
                shards: 20,
                servers_each: 2
            }]
        );
    }
}
