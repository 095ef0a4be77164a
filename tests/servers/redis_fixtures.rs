//! Slots and slot ranges checked against a real Redis 7.0.15: the data files
//! under tests/data were printed by `CLUSTER KEYSLOT` on a cluster-enabled
//! redis-server and by `redis-cli --cluster create` (see docs/placement.md).

use shardplan::model::placement::{cluster_create_ranges, key_slot};

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

#[test]
fn slots_match_redis_cluster_keyslot() {
    let data = include_str!("../data/redis_keyslot.txt");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let (key, slot) = line.split_once(' ').expect("key slot");
        let key = hex(key);
        let slot: u16 = slot.trim().parse().expect("slot");
        assert_eq!(
            key_slot(&key),
            slot,
            "key {:?}",
            String::from_utf8_lossy(&key)
        );
        checked += 1;
    }
    assert_eq!(checked, 55);
}

#[test]
fn ranges_match_redis_cli_cluster_create() {
    let data = include_str!("../data/redis_cli_create_ranges.txt");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        // "3 Master[0] -> Slots 0 - 5460"
        let words: Vec<&str> = line.split_whitespace().collect();
        let nodes: u32 = words[0].parse().unwrap();
        let i: usize = words[1]
            .trim_start_matches("Master[")
            .trim_end_matches(']')
            .parse()
            .unwrap();
        let first: u16 = words[4].parse().unwrap();
        let last: u16 = words[6].parse().unwrap();
        let r = cluster_create_ranges(nodes).unwrap();
        assert_eq!((r[i].first_slot, r[i].last_slot), (first, last), "{line}");
        checked += 1;
    }
    assert_eq!(checked, 52);
}
