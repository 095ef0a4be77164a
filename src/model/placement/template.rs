//! Shard-key templates: a key with a `<shard>` placeholder, expanded per
//! shard, and its shard-first form for sorted stores.

use super::slots::hash_tag;
use crate::error::{ParamError, ParamResult, Problem};
use crate::model::defaults::MAX_PAD;

/// The placeholder a template marks the shard number with. Angle brackets,
/// so braces stay free for Redis hash tags.
pub const SHARD_PLACEHOLDER: &str = "<shard>";

/// A shard-key template such as `reel:8841:likes:<shard>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardTemplate {
    template: String,
    pad: usize,
}

impl ShardTemplate {
    /// `pad` is a minimum width: shard numbers are zero-padded to it, like
    /// printf's `%0Nd`; 0 means no padding.
    pub fn new(template: &str, pad: usize) -> ParamResult<Self> {
        let max = crate::model::defaults::MAX_TEMPLATE_BYTES;
        if template.len() > max {
            return Err(ParamError::new(
                "template",
                Problem::TemplateTooLong {
                    got: template.len(),
                    max,
                },
            ));
        }
        if !template.contains(SHARD_PLACEHOLDER) {
            return Err(ParamError::new(
                "template",
                Problem::NoPlaceholder {
                    placeholder: SHARD_PLACEHOLDER,
                    template: template.to_string(),
                },
            ));
        }
        if pad > crate::model::defaults::MAX_PAD {
            return Err(ParamError::new(
                "pad",
                Problem::PadAbove {
                    got: pad,
                    max: MAX_PAD,
                },
            ));
        }
        Ok(ShardTemplate {
            template: template.to_string(),
            pad,
        })
    }

    /// The template as given, placeholders included.
    pub fn template(&self) -> &str {
        &self.template
    }

    /// The width shard numbers are zero-padded to at least (0: no padding).
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

    /// [`Self::without_tag`] as a template with the same padding.
    pub fn without_tag_template(&self) -> Option<ShardTemplate> {
        ShardTemplate::new(&self.without_tag()?, self.pad).ok()
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(e.param, "template");
        assert!(e.problem.to_string().contains("<shard>"));
        assert_eq!(ShardTemplate::new("a<shard>", 21).unwrap_err().param, "pad");
    }

    #[test]
    fn digits_of() {
        assert_eq!(digits(0), 1);
        assert_eq!(digits(9), 1);
        assert_eq!(digits(10), 2);
        assert_eq!(digits(99_999), 5);
    }
}
