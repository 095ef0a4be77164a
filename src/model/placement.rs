//! Where shard keys land: Redis Cluster hash slots and nodes, shard-key
//! templates, and key order in sorted (Bigtable-like) stores.
//!
//! Sharding spreads load only if the shard keys really land in different
//! places. In Redis Cluster a key's place is its hash slot, and a hash tag
//! (`{...}`) puts every key with the same tag in one slot: exactly what shard
//! keys must avoid. In a sorted store a key's place is its position in byte
//! order, so shard keys that share a prefix sit in one tablet.

use crate::model::defaults::{MAX_NODES, MAX_PAD};
use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::error::{InputError, InputResult};

/// Number of hash slots in Redis Cluster (`CLUSTER_SLOTS` in Redis' cluster.h).
pub const REDIS_SLOTS: u16 = 16_384;

/// The placeholder a template marks the shard number with. Angle brackets,
/// so braces stay free for Redis hash tags.
pub const SHARD_PLACEHOLDER: &str = "<shard>";

/// CRC16 as Redis uses it for key slots: the XMODEM variant (poly 0x1021,
/// init 0, no reflection). Redis' cluster spec names it; check value 0x31C3.
const CRC16_XMODEM: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);

/// CRC16/XMODEM of `bytes`.
pub fn crc16(bytes: &[u8]) -> u16 {
    CRC16_XMODEM.checksum(bytes)
}

/// The bytes Redis hashes for `key`: if the key has a `{` and, after it, a
/// `}` with at least one byte between them, only the bytes between the
/// first `{` and the first `}` after it; otherwise the whole key.
/// Mirrors `keyHashSlot` in Redis' cluster.c.
pub fn hashed_part(key: &[u8]) -> &[u8] {
    if let Some(open) = key.iter().position(|&b| b == b'{') {
        let rest = &key[open + 1..];
        if let Some(close) = rest.iter().position(|&b| b == b'}') {
            if close > 0 {
                return &rest[..close];
            }
        }
    }
    key
}

/// The hash tag of `key` when Redis uses one (`None` when the whole key is hashed).
pub fn hash_tag(key: &[u8]) -> Option<&[u8]> {
    let part = hashed_part(key);
    (part.len() != key.len()).then_some(part)
}

/// The Redis Cluster slot of `key`: CRC16/XMODEM of its hashed part mod 16,384.
pub fn key_slot(key: &[u8]) -> u16 {
    crc16(hashed_part(key)) % REDIS_SLOTS
}

/// One master's slot range, inclusive at both ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SlotRange {
    pub node: u32,
    pub first_slot: u16,
    pub last_slot: u16,
    pub slots: u16,
}

/// Slots split over `nodes` masters exactly as `redis-cli --cluster create`
/// does (`clusterManagerCommandCreate` in redis-cli.c): with the single
/// precision float `slots_per_node = 16384 / n`, node i ends at
/// `lround(cursor + slots_per_node - 1)` where the float `cursor` grows by
/// `slots_per_node` per node, and the last node ends at 16383. The f32
/// arithmetic matters: it decides which node gets the odd slot.
/// For 3 nodes: 0-5460, 5461-10922, 10923-16383.
pub fn cluster_create_ranges(nodes: u32) -> InputResult<Vec<SlotRange>> {
    let n = validate_nodes(nodes)?;
    let total = i64::from(REDIS_SLOTS);
    let slots_per_node = f32::from(REDIS_SLOTS) / n as f32;
    let mut cursor = 0.0f32;
    let mut first: i64 = 0;
    let mut ranges = Vec::with_capacity(n as usize);
    for i in 0..n {
        // f32::round rounds half away from zero, as C's lround does.
        let mut last = (cursor + slots_per_node - 1.0).round() as i64;
        if last > total || i == n - 1 {
            last = total - 1;
        }
        if last < first {
            last = first;
        }
        ranges.push(SlotRange {
            node: i,
            first_slot: first as u16,
            last_slot: last as u16,
            slots: (last - first + 1) as u16,
        });
        first = last + 1;
        cursor += slots_per_node;
    }
    Ok(ranges)
}

fn validate_nodes(nodes: u32) -> InputResult<u32> {
    if nodes == 0 || nodes > crate::model::defaults::MAX_NODES {
        return Err(InputError::new(
            "--nodes",
            format!("must be a whole number from 1 to {MAX_NODES} (got {nodes})"),
        ));
    }
    Ok(nodes)
}

/// A Redis Cluster laid out by `redis-cli --cluster create`.
#[derive(Debug, Clone)]
pub struct Cluster {
    ranges: Vec<SlotRange>,
}

impl Cluster {
    pub fn new(nodes: u32) -> InputResult<Self> {
        Ok(Cluster {
            ranges: cluster_create_ranges(nodes)?,
        })
    }

    pub fn nodes(&self) -> u32 {
        self.ranges.len() as u32
    }

    pub fn ranges(&self) -> &[SlotRange] {
        &self.ranges
    }

    /// The node serving `slot` (slots above 16383 wrap, as a key slot never is).
    pub fn node_of_slot(&self, slot: u16) -> u32 {
        let slot = slot % REDIS_SLOTS;
        let i = self.ranges.partition_point(|r| r.last_slot < slot);
        self.ranges[i.min(self.ranges.len() - 1)].node
    }
}

/// A shard-key template such as `reel:8841:likes:<shard>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardTemplate {
    template: String,
    pad: usize,
}

impl ShardTemplate {
    /// `pad` is a minimum width: shard numbers are zero-padded to it, like
    /// printf's `%0Nd`; 0 means no padding.
    pub fn new(template: &str, pad: usize) -> InputResult<Self> {
        if !template.contains(SHARD_PLACEHOLDER) {
            return Err(InputError::new(
                "--template",
                format!(
                    "must contain the placeholder {SHARD_PLACEHOLDER} where the shard number goes, \
                     e.g. 'reel:8841:likes:{SHARD_PLACEHOLDER}' (got '{template}')"
                ),
            ));
        }
        if pad > crate::model::defaults::MAX_PAD {
            return Err(InputError::new(
                "--pad",
                format!("must be a width from 0 to {MAX_PAD} digits (got {pad})"),
            ));
        }
        Ok(ShardTemplate {
            template: template.to_string(),
            pad,
        })
    }

    pub fn template(&self) -> &str {
        &self.template
    }

    pub fn pad(&self) -> usize {
        self.pad
    }

    /// The key of shard `shard`: every placeholder replaced by the number.
    pub fn key(&self, shard: u64) -> String {
        let number = format!("{shard:0width$}", width = self.pad);
        self.template.replace(SHARD_PLACEHOLDER, &number)
    }

    /// Keys of shards `0..shards`.
    pub fn keys(&self, shards: u64) -> Vec<String> {
        (0..shards).map(|s| self.key(s)).collect()
    }

    /// Does the template keep a hash tag that holds no shard number? Then
    /// every shard key hashes the same tag and lands in one slot.
    pub fn tag_without_shard(&self) -> bool {
        match hash_tag(self.template.as_bytes()) {
            Some(tag) => !contains(tag, SHARD_PLACEHOLDER.as_bytes()),
            None => false,
        }
    }

    /// The template with its hash tag braces removed (the first `{` and the
    /// first `}` after it), so the whole key is hashed.
    pub fn without_tag(&self) -> Option<String> {
        let t = &self.template;
        let open = t.find('{')?;
        let close = open + 1 + t[open + 1..].find('}')?;
        if close == open + 1 {
            return None;
        }
        Some(format!(
            "{}{}{}",
            &t[..open],
            &t[open + 1..close],
            &t[close + 1..]
        ))
    }

    /// The shard-first form for sorted stores: `<shard>#reel#8841#likes`.
    /// The placeholder and the separator before it (or after it, when it
    /// starts the key) move to the front, keeping the template's separator.
    /// Padding is at least the digits of `shards - 1`, so byte order matches
    /// number order.
    pub fn shard_first(&self, shards: u64) -> ShardTemplate {
        let t = &self.template;
        // Templates with several placeholders keep the rest after the first.
        let at = t.find(SHARD_PLACEHOLDER).unwrap_or(0);
        let end = at + SHARD_PLACEHOLDER.len();
        let before = t[..at].chars().next_back();
        let after = t[end..].chars().next();
        let is_sep = |c: char| !c.is_alphanumeric();
        let (rest, sep) = match (before, after) {
            (Some(c), _) if is_sep(c) => (format!("{}{}", &t[..at - c.len_utf8()], &t[end..]), c),
            (_, Some(c)) if is_sep(c) => (format!("{}{}", &t[..at], &t[end + c.len_utf8()..]), c),
            _ => (format!("{}{}", &t[..at], &t[end..]), '#'),
        };
        let form = if rest.is_empty() {
            SHARD_PLACEHOLDER.to_string()
        } else {
            format!("{SHARD_PLACEHOLDER}{sep}{rest}")
        };
        ShardTemplate {
            template: form,
            pad: self.pad.max(digits(shards.saturating_sub(1))),
        }
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Decimal digits of `n` (1 for 0).
pub fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Where one key lands.
#[derive(Debug, Clone, Serialize)]
pub struct KeyPlacement {
    /// Position in the list (the shard number for a template).
    pub shard: u64,
    /// The key as text; bytes that are not UTF-8 show as U+FFFD.
    pub key: String,
    pub slot: u16,
    /// The master serving the slot; `null` when no node count was given.
    pub node: Option<u32>,
    /// The hash tag Redis hashed instead of the whole key, if any.
    pub hash_tag: Option<String>,
    /// The key exactly as given, for output that prints raw bytes.
    #[serde(skip)]
    pub key_bytes: Vec<u8>,
}

/// Shards grouped on one slot or node.
#[derive(Debug, Clone, Serialize)]
pub struct Busiest {
    pub id: u64,
    pub shards: u64,
    /// Share of the writes: shards / S, since each write picks a shard uniformly.
    pub share: f64,
}

/// Where a set of shard keys lands in a Redis Cluster, and what it costs.
#[derive(Debug, Clone, Serialize)]
pub struct KeysReport {
    /// The template, when the keys came from one.
    pub template: Option<String>,
    pub keys: Vec<KeyPlacement>,
    pub shards: u64,
    /// Masters in the cluster; `null` when not given.
    pub nodes: Option<u32>,
    pub distinct_slots: u64,
    pub distinct_nodes: Option<u64>,
    /// Shards that share their slot with at least one other shard.
    pub shards_sharing_a_slot: u64,
    pub busiest_slot: u16,
    pub busiest_slot_shards: u64,
    pub busiest_slot_share: f64,
    pub busiest_node: Option<u32>,
    pub busiest_node_shards: Option<u64>,
    /// Busiest node's share of the writes: (shards on it) / S.
    pub busiest_node_share: Option<f64>,
    /// The most a node should carry: ceil(S / N) / S.
    pub fair_node_share: Option<f64>,
    /// Commands per read of the total: one per distinct slot (MGET works
    /// only within a slot; across slots it fails with CROSSSLOT).
    pub read_commands: u64,
    /// Pipelines per read: the commands grouped per node, sent in parallel.
    pub read_pipelines: Option<u64>,
    pub read_note: String,
    /// A template that avoids a shared slot, when the given one shares.
    pub suggested_template: Option<String>,
    /// Loud notes for the user: shared slots, a node over its share.
    pub warnings: Vec<String>,
}

impl KeysReport {
    /// Expand `template` for shards `0..shards` and place the keys.
    pub fn from_template(
        template: &ShardTemplate,
        shards: u64,
        nodes: Option<u32>,
    ) -> InputResult<Self> {
        let shards =
            crate::model::validate::count("--shards", shards, crate::model::defaults::MAX_SHARDS)?;
        let keys: Vec<Vec<u8>> = template
            .keys(shards)
            .into_iter()
            .map(String::into_bytes)
            .collect();
        let mut report = Self::build(&keys, nodes, Some(template))?;
        report.template = Some(template.template().to_string());
        Ok(report)
    }

    /// Place keys given as bytes (one shard each), e.g. read from stdin.
    pub fn from_keys(keys: &[Vec<u8>], nodes: Option<u32>) -> InputResult<Self> {
        if keys.is_empty() {
            return Err(InputError::new(
                "--stdin",
                "needs at least one key, one per line (got none)",
            ));
        }
        Self::build(keys, nodes, None)
    }

    fn build(
        keys: &[Vec<u8>],
        nodes: Option<u32>,
        template: Option<&ShardTemplate>,
    ) -> InputResult<Self> {
        let cluster = nodes.map(Cluster::new).transpose()?;
        let s = keys.len() as u64;
        let placed: Vec<KeyPlacement> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let slot = key_slot(k);
                KeyPlacement {
                    shard: i as u64,
                    key: String::from_utf8_lossy(k).into_owned(),
                    slot,
                    node: cluster.as_ref().map(|c| c.node_of_slot(slot)),
                    hash_tag: hash_tag(k).map(|t| String::from_utf8_lossy(t).into_owned()),
                    key_bytes: k.clone(),
                }
            })
            .collect();

        let mut per_slot: BTreeMap<u16, u64> = BTreeMap::new();
        let mut per_node: BTreeMap<u32, u64> = BTreeMap::new();
        for p in &placed {
            *per_slot.entry(p.slot).or_default() += 1;
            if let Some(n) = p.node {
                *per_node.entry(n).or_default() += 1;
            }
        }
        let distinct_slots = per_slot.len() as u64;
        let shards_sharing_a_slot: u64 = per_slot.values().filter(|&&c| c > 1).sum();
        // Ties go to the lowest slot / node, so output is stable.
        let (busiest_slot, busiest_slot_shards) = max_entry(&per_slot);
        let busiest_node = cluster.as_ref().map(|_| max_entry(&per_node));
        let fair_node_share = nodes.map(|n| s.div_ceil(u64::from(n)) as f64 / s as f64);
        let distinct_nodes = cluster.as_ref().map(|_| per_node.len() as u64);

        let read_note = if distinct_slots == 1 && s > 1 {
            format!(
                "all {s} keys share slot {busiest_slot}: one MGET reads them, but every write goes to one node"
            )
        } else if distinct_slots == s {
            format!(
                "MGET across slots fails with CROSSSLOT, so a read is {s} GETs{}",
                distinct_nodes.map_or(String::new(), |n| format!(
                    ", pipelined and grouped per node ({n} pipelines in parallel)"
                ))
            )
        } else {
            format!(
                "MGET across slots fails with CROSSSLOT, so a read is one MGET per slot: {distinct_slots} commands{}",
                distinct_nodes.map_or(String::new(), |n| format!(
                    ", pipelined and grouped per node ({n} pipelines in parallel)"
                ))
            )
        };

        let mut report = KeysReport {
            template: None,
            keys: placed,
            shards: s,
            nodes,
            distinct_slots,
            distinct_nodes,
            shards_sharing_a_slot,
            busiest_slot: busiest_slot as u16,
            busiest_slot_shards,
            busiest_slot_share: busiest_slot_shards as f64 / s as f64,
            busiest_node: busiest_node.map(|(n, _)| n as u32),
            busiest_node_shards: busiest_node.map(|(_, c)| c),
            busiest_node_share: busiest_node.map(|(_, c)| c as f64 / s as f64),
            fair_node_share,
            read_commands: distinct_slots,
            read_pipelines: distinct_nodes,
            read_note,
            suggested_template: None,
            warnings: Vec::new(),
        };
        if shards_sharing_a_slot > 0 {
            report.suggested_template = template.and_then(suggest_fix);
        }
        report.warnings = report.check_failures();
        if let Some(fix) = &report.suggested_template {
            report
                .warnings
                .push(format!("suggested template: '{fix}' (no shared slot)"));
        }
        Ok(report)
    }

    /// Why this scheme fails `--check`: two shards in one slot, or a node
    /// carrying more than ceil(S / N) / S of the writes. Empty means pass.
    pub fn check_failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.shards_sharing_a_slot > 0 {
            let tag_hint = if self.keys.iter().any(|k| k.hash_tag.is_some()) {
                "the hash tag {...} is hashed instead of the whole key"
            } else {
                "their CRC16 values collide mod 16384"
            };
            out.push(format!(
                "SHARED SLOT: {} of {} shard keys share a slot with another shard (slot {} holds {}, {:.1}% of the writes); \
                 {tag_hint}, so those shards' writes all go to one node. \
                 Fix: put the shard number inside the tag (e.g. {{reel:8841:<shard>}}:likes) or drop the tag.",
                self.shards_sharing_a_slot,
                self.shards,
                self.busiest_slot,
                self.busiest_slot_shards,
                100.0 * self.busiest_slot_share,
            ));
        }
        if let (Some(n), Some(node), Some(count), Some(share), Some(fair)) = (
            self.nodes,
            self.busiest_node,
            self.busiest_node_shards,
            self.busiest_node_share,
            self.fair_node_share,
        ) {
            let fair_shards = self.shards.div_ceil(u64::from(n));
            if count > fair_shards {
                out.push(format!(
                    "NODE OVER ITS SHARE: node {node} of {n} holds {count} of {} shards ({:.1}% of the writes), \
                     more than ceil(S/N) = {fair_shards} ({:.1}%)",
                    self.shards,
                    100.0 * share,
                    100.0 * fair,
                ));
            }
        }
        out
    }
}

fn max_entry<K: Copy + Into<u64>>(m: &BTreeMap<K, u64>) -> (u64, u64) {
    let mut best = (0u64, 0u64);
    for (&k, &c) in m {
        if c > best.1 {
            best = (k.into(), c);
        }
    }
    best
}

/// A template that spreads the shards when `t`'s hash tag holds no shard
/// number: the same template with the tag's braces dropped.
fn suggest_fix(t: &ShardTemplate) -> Option<String> {
    if !t.tag_without_shard() {
        return None;
    }
    t.without_tag()
}

/// One shard key in a sorted store, with its shard-first form.
#[derive(Debug, Clone, Serialize)]
pub struct SortedKey {
    pub shard: u64,
    pub key: String,
    pub shard_first_key: String,
}

/// Whether shard keys sit together in a sorted store's key order.
#[derive(Debug, Clone, Serialize)]
pub struct SortedReport {
    pub template: String,
    pub shards: u64,
    pub keys: Vec<SortedKey>,
    /// The fixed bytes every shard key starts with (before the shard number).
    pub shared_prefix: String,
    /// True when that prefix is non-empty: every key between the first and
    /// the last shard key starts with it, so no other counter's key sorts
    /// between them and the shards likely share one tablet.
    pub contiguous: bool,
    pub shard_first_template: String,
    pub shard_first_pad: usize,
    /// Distinct first bytes among the shard-first keys: keys that start
    /// differently spread through the key range.
    pub shard_first_distinct_first_bytes: u64,
    /// Does byte order of the shard-first keys match shard order?
    pub shard_first_in_order: bool,
    pub note: String,
}

impl SortedReport {
    pub fn from_template(template: &ShardTemplate, shards: u64) -> InputResult<Self> {
        let shards =
            crate::model::validate::count("--shards", shards, crate::model::defaults::MAX_SHARDS)?;
        let t = template.template();
        let prefix = &t[..t.find(SHARD_PLACEHOLDER).unwrap_or(0)];
        let first = template.shard_first(shards);
        let keys: Vec<SortedKey> = (0..shards)
            .map(|s| SortedKey {
                shard: s,
                key: template.key(s),
                shard_first_key: first.key(s),
            })
            .collect();
        let first_bytes: BTreeSet<u8> = keys
            .iter()
            .filter_map(|k| k.shard_first_key.as_bytes().first().copied())
            .collect();
        let in_order = keys
            .windows(2)
            .all(|w| w[0].shard_first_key.as_bytes() < w[1].shard_first_key.as_bytes());
        let contiguous = !prefix.is_empty();
        let note = if contiguous {
            format!(
                "all {shards} shard keys start with '{prefix}', so they sort next to each other and likely share one tablet \
                 (one node) until the store splits it; put the shard number first: '{}' (pad {})",
                first.template(),
                first.pad()
            )
        } else {
            "the shard number comes first, so other counters' keys sort between the shards and they spread over the key range"
                .to_string()
        };
        Ok(SortedReport {
            template: t.to_string(),
            shards,
            keys,
            shared_prefix: prefix.to_string(),
            contiguous,
            shard_first_template: first.template().to_string(),
            shard_first_pad: first.pad(),
            shard_first_distinct_first_bytes: first_bytes.len() as u64,
            shard_first_in_order: in_order,
            note,
        })
    }

    /// `--check` for sorted stores: shard keys sharing a prefix fail.
    pub fn check_failures(&self) -> Vec<String> {
        if self.contiguous {
            vec![format!(
                "CONTIGUOUS KEYS: the {} shard keys share the prefix '{}' and likely sit in one tablet; use '{}'",
                self.shards, self.shared_prefix, self.shard_first_template
            )]
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc16_check_value() {
        assert_eq!(crc16(b"123456789"), 0x31C3);
    }

    #[test]
    fn known_slots_from_redis_7() {
        assert_eq!(key_slot(b"{reel:8841}:likes:3"), 5809);
        assert_eq!(key_slot(b"{reel:8841}:likes:19"), 5809);
        assert_eq!(key_slot(b"reel:8841:likes:3"), 7443);
        assert_eq!(key_slot(b"reel:8841:likes:19"), 6464);
    }

    #[test]
    fn hash_tag_edge_cases() {
        // Empty tag: whole key hashed.
        assert_eq!(hashed_part(b"{}"), b"{}");
        assert_eq!(hashed_part(b"foo{}{bar}"), b"foo{}{bar}");
        // Only the first tag counts.
        assert_eq!(hashed_part(b"{a}{b}"), b"a");
        assert_eq!(key_slot(b"{a}{b}"), key_slot(b"a"));
        // A '}' before the first '{' is ignored.
        assert_eq!(hashed_part(b"}{x}"), b"x");
        // First '{' then first '}' after it: "{a".
        assert_eq!(hashed_part(b"{{a}}"), b"{a");
        assert_eq!(key_slot(b"{{a}}"), key_slot(b"{a"));
        // Unmatched braces: whole key.
        assert_eq!(hashed_part(b"{a"), b"{a");
        assert_eq!(hashed_part(b"a}"), b"a}");
        assert_eq!(hashed_part(b"{"), b"{");
        assert_eq!(hash_tag(b"reel:8841"), None);
        assert_eq!(hash_tag(b"{reel:8841}:likes:3"), Some(&b"reel:8841"[..]));
        // Multibyte UTF-8 and non-UTF-8 bytes hash as bytes.
        assert_eq!(
            key_slot("{日本}:likes:2".as_bytes()),
            key_slot("日本".as_bytes())
        );
        assert_eq!(key_slot(b"{\xff}:x"), key_slot(b"\xff"));
        assert_eq!(key_slot(b""), 0);
        // A 300-byte key: hashed whole, or only its tag wherever it sits.
        let long = [b"reel:8841:likes:".as_slice(), &[b'x'; 284]].concat();
        assert_eq!(long.len(), 300);
        assert_eq!(key_slot(&long), 12451); // redis-server 7.0.15 CLUSTER KEYSLOT
        let tagged = [long.as_slice(), b"{x}"].concat();
        assert_eq!(key_slot(&tagged), key_slot(b"x"));
        // An empty tag does not stop the search from hashing the whole key.
        assert_eq!(hashed_part(b"{}{a}"), b"{}{a}");
    }

    #[test]
    fn three_node_ranges() {
        let r = cluster_create_ranges(3).unwrap();
        let got: Vec<(u16, u16)> = r.iter().map(|r| (r.first_slot, r.last_slot)).collect();
        assert_eq!(got, vec![(0, 5460), (5461, 10922), (10923, 16383)]);
        let c = Cluster::new(3).unwrap();
        assert_eq!(c.node_of_slot(0), 0);
        assert_eq!(c.node_of_slot(5460), 0);
        assert_eq!(c.node_of_slot(5461), 1);
        assert_eq!(c.node_of_slot(10923), 2);
        assert_eq!(c.node_of_slot(16383), 2);
    }

    #[test]
    fn ranges_cover_all_slots_for_every_node_count() {
        for n in 1..=crate::model::defaults::MAX_NODES {
            let r = cluster_create_ranges(n).unwrap();
            assert_eq!(r.len() as u32, n);
            assert_eq!(r[0].first_slot, 0);
            assert_eq!(r[r.len() - 1].last_slot, 16383);
            for w in r.windows(2) {
                assert_eq!(w[0].last_slot + 1, w[1].first_slot, "n = {n}");
            }
            assert!(r.iter().all(|x| x.slots >= 1));
        }
        assert!(cluster_create_ranges(0).is_err());
        assert_eq!(cluster_create_ranges(1001).unwrap_err().what, "--nodes");
    }

    #[test]
    fn template_expansion_and_padding() {
        let t = ShardTemplate::new("reel:8841:likes:<shard>", 0).unwrap();
        assert_eq!(
            t.keys(3),
            vec![
                "reel:8841:likes:0",
                "reel:8841:likes:1",
                "reel:8841:likes:2"
            ]
        );
        let t = ShardTemplate::new("<shard>#reel#8841#likes", 2).unwrap();
        assert_eq!(t.key(7), "07#reel#8841#likes");
        assert_eq!(t.key(123), "123#reel#8841#likes"); // pad is a minimum width
        let t = ShardTemplate::new("{reel:8841:<shard>}:likes:<shard>", 3).unwrap();
        assert_eq!(t.key(5), "{reel:8841:005}:likes:005");
        let e = ShardTemplate::new("reel:8841:likes", 0).unwrap_err();
        assert_eq!(e.what, "--template");
        assert!(e.message.contains("<shard>"));
        assert_eq!(
            ShardTemplate::new("a<shard>", 21).unwrap_err().what,
            "--pad"
        );
    }

    #[test]
    fn tagged_template_is_flagged_with_fix() {
        let t = ShardTemplate::new("{reel:8841}:likes:<shard>", 0).unwrap();
        let r = KeysReport::from_template(&t, 20, Some(3)).unwrap();
        assert_eq!(r.distinct_slots, 1);
        assert_eq!(r.busiest_slot, 5809);
        assert_eq!(r.distinct_nodes, Some(1));
        assert_eq!(r.busiest_node, Some(1)); // 5809 is in 5461-10922
        assert_eq!(r.busiest_node_share, Some(1.0));
        assert_eq!(r.read_commands, 1);
        assert_eq!(
            r.suggested_template.as_deref(),
            Some("reel:8841:likes:<shard>")
        );
        let f = r.check_failures();
        assert_eq!(f.len(), 2);
        assert!(f[0].starts_with("SHARED SLOT: 20 of 20"));
        assert!(f[1].starts_with("NODE OVER ITS SHARE: node 1 of 3 holds 20 of 20"));
    }

    #[test]
    fn untagged_template_spreads() {
        let t = ShardTemplate::new("reel:8841:likes:<shard>", 0).unwrap();
        let r = KeysReport::from_template(&t, 20, Some(3)).unwrap();
        assert_eq!(r.keys[3].slot, 7443);
        assert_eq!(r.keys[19].slot, 6464);
        assert_eq!(r.keys[3].node, Some(1));
        assert_eq!(r.distinct_slots, 20);
        assert_eq!(r.shards_sharing_a_slot, 0);
        assert_eq!(r.read_commands, 20);
        assert_eq!(r.fair_node_share, Some(7.0 / 20.0));
        let per_node: Vec<u64> = (0..3)
            .map(|n| r.keys.iter().filter(|k| k.node == Some(n)).count() as u64)
            .collect();
        assert_eq!(per_node.iter().sum::<u64>(), 20);
        assert_eq!(r.busiest_node_shards, per_node.iter().copied().max());
        let over = per_node.iter().any(|&c| c > 7);
        assert_eq!(r.check_failures().is_empty(), !over);
    }

    #[test]
    fn no_nodes_gives_null_nodes() {
        let r = KeysReport::from_keys(&[b"a".to_vec(), b"{a}{b}".to_vec()], None).unwrap();
        assert_eq!(r.distinct_slots, 1);
        assert_eq!(r.keys[0].node, None);
        assert_eq!(r.busiest_node_share, None);
        assert_eq!(r.check_failures().len(), 1);
        assert!(KeysReport::from_keys(&[], None).is_err());
        let json = serde_json::to_value(&r).unwrap();
        for f in [
            "keys",
            "distinct_slots",
            "distinct_nodes",
            "busiest_node_share",
        ] {
            assert!(json.get(f).is_some(), "{f}");
        }
        assert!(json["keys"][0].get("node").is_some());
        assert!(json["keys"][0].get("key_bytes").is_none());
    }

    #[test]
    fn sorted_store_shard_first() {
        let t = ShardTemplate::new("reel#8841#likes#<shard>", 0).unwrap();
        let r = SortedReport::from_template(&t, 20).unwrap();
        assert!(r.contiguous);
        assert_eq!(r.shared_prefix, "reel#8841#likes#");
        assert_eq!(r.shard_first_template, "<shard>#reel#8841#likes");
        assert_eq!(r.shard_first_pad, 2);
        assert_eq!(r.keys[7].shard_first_key, "07#reel#8841#likes");
        assert!(r.shard_first_in_order);
        assert_eq!(r.shard_first_distinct_first_bytes, 2);
        assert_eq!(r.check_failures().len(), 1);

        let f = ShardTemplate::new("<shard>#reel#8841#likes", 2).unwrap();
        let r = SortedReport::from_template(&f, 20).unwrap();
        assert!(!r.contiguous);
        assert!(r.check_failures().is_empty());

        let colon = ShardTemplate::new("reel:<shard>:likes", 0).unwrap();
        assert_eq!(colon.shard_first(100).template(), "<shard>:reel:likes");
        assert_eq!(colon.shard_first(100).pad(), 2);
        assert_eq!(colon.shard_first(101).pad(), 3);
    }

    #[test]
    fn digits_of() {
        assert_eq!(digits(0), 1);
        assert_eq!(digits(9), 1);
        assert_eq!(digits(10), 2);
        assert_eq!(digits(99_999), 5);
    }
}
