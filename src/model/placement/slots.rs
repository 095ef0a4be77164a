//! Redis Cluster hash slots: CRC16 of a key, or of its hash tag, mod the
//! slot count.

/// Number of hash slots in Redis Cluster (`CLUSTER_SLOTS` in Redis' cluster.h).
pub const REDIS_SLOTS: u16 = 16_384;

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

/// The Redis Cluster slot of `key`: CRC16/XMODEM of its hashed part mod
/// [`REDIS_SLOTS`].
pub fn key_slot(key: &[u8]) -> u16 {
    crc16(hashed_part(key)) % REDIS_SLOTS
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
}
