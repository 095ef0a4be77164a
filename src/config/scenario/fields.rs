//! A misspelt scenario field answered with the closest real one: serde's
//! own message lists every field (37 of them, one 530-character line).
//! The names come from the derived `Deserialize` itself, so a field added
//! to [`Scenario`](super::Scenario) is known here with no list to keep.

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// The field names a derived `Deserialize` of a struct knows: the ones it
/// hands to `deserialize_struct`, captured by a deserializer that does
/// nothing else. (A few lines; `serde-aux` does the same but would add a
/// second major version of `syn` to the build.)
pub fn field_names<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    struct Capture<'a>(&'a mut &'static [&'static str]);
    impl<'de> Deserializer<'de> for Capture<'_> {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(de::Error::custom("fields captured"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(Capture(&mut fields));
    fields
}

/// The first top-level key of `text` (TOML) that is not one of `fields`,
/// with its line and the closest field to it, if one is close (at most a
/// third of its letters changed).
pub fn unknown_key(
    text: &str,
    fields: &[&'static str],
) -> Option<(String, usize, Option<&'static str>)> {
    let table: toml::Table = toml::from_str(text).ok()?;
    let key = table
        .keys()
        .find(|k| !fields.contains(&k.as_str()))?
        .clone();
    let line = text
        .lines()
        .position(|l| {
            let l = l.trim_start();
            l.strip_prefix(key.as_str())
                .is_some_and(|rest| rest.trim_start().starts_with('='))
                || l.starts_with(&format!("[{key}]"))
        })
        .map_or(0, |i| i + 1);
    let near = closest(&key, fields);
    Some((key, line, near))
}

/// The field of `fields` closest to `key`, if at most a third of its
/// letters (and at least one) differ.
pub fn closest<'a>(key: &str, fields: &[&'a str]) -> Option<&'a str> {
    let limit = (key.chars().count() / 3).max(1);
    fields
        .iter()
        .map(|f| (strsim::damerau_levenshtein(key, f), *f))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, f)| f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_derived_fields_and_the_closest_one() {
        let fields = field_names::<super::super::Scenario>();
        assert!(fields.contains(&"peak") && fields.contains(&"cache_seconds"));
        assert_eq!(closest("peek", fields), Some("peak"));
        assert_eq!(closest("cahce_seconds", fields), Some("cache_seconds"));
        assert_eq!(closest("zzzzzz", fields), None);
        let (key, line, _) = unknown_key("safe = 700\npeek = 14000\n", fields).unwrap();
        assert_eq!((key.as_str(), line), ("peek", 2));
        assert!(unknown_key("peak = 1\n", fields).is_none());
    }
}
