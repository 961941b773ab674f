//! One line of a DynamoDB export in DynamoDB JSON, `{"Item": {"pk": {"S": "..."}, ...}}`, read
//! for the few attributes an audit needs: those are kept (borrowed from the line when they hold
//! no escape), every other attribute is skipped by the parser without being built.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

/// An attribute of the line, as the audit needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Attr<'a> {
    /// A string (`{"S": ...}`).
    S(Cow<'a, str>),
    /// A value of another type (a number, binary, a set...): no layout describes it.
    Other,
}

/// The attributes `names` of the line's item, in the order of `names` (`None` where the item has
/// none); an error when the line is no `{"Item": {...}}` of DynamoDB JSON.
pub(crate) fn read<'a>(line: &'a [u8], names: &[&str], out: &mut [Option<Attr<'a>>]) -> Result<(), String> {
    out.iter_mut().for_each(|slot| *slot = None);
    let mut deserializer = serde_json::Deserializer::from_slice(line);
    let found = LineSeed { names, out }.deserialize(&mut deserializer).map_err(|e| e.to_string())?;
    deserializer.end().map_err(|e| e.to_string())?;
    if found { Ok(()) } else { Err("expected `{\"Item\": {...}}`, a line of an export in DynamoDB JSON".to_owned()) }
}

/// The whole line: its `Item` read, any other member skipped. Says whether it had an `Item`.
struct LineSeed<'n, 'o, 'a> {
    names: &'n [&'n str],
    out: &'o mut [Option<Attr<'a>>],
}

impl<'de, 'n, 'o> DeserializeSeed<'de> for LineSeed<'n, 'o, 'de> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, 'n, 'o> Visitor<'de> for LineSeed<'n, 'o, 'de> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object with an `Item`")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<bool, M::Error> {
        let mut found = false;
        while let Some(key) = map.next_key::<Name<'de>>()? {
            if key.0 == "Item" {
                map.next_value_seed(ItemSeed { names: self.names, out: self.out })?;
                found = true;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

/// The item: the attributes asked for kept, the others skipped.
struct ItemSeed<'n, 'o, 'a> {
    names: &'n [&'n str],
    out: &'o mut [Option<Attr<'a>>],
}

impl<'de, 'n, 'o> DeserializeSeed<'de> for ItemSeed<'n, 'o, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, 'n, 'o> Visitor<'de> for ItemSeed<'n, 'o, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an item: an object of typed attributes")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        while let Some(key) = map.next_key::<Name<'de>>()? {
            match self.names.iter().position(|n| *n == key.0) {
                Some(i) => self.out[i] = Some(map.next_value_seed(TypedSeed)?),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// A typed attribute value, `{"S": "..."}` or another type.
struct TypedSeed;

impl<'de> DeserializeSeed<'de> for TypedSeed {
    type Value = Attr<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Attr<'de>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for TypedSeed {
    type Value = Attr<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a typed attribute value such as {\"S\": \"...\"}")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Attr<'de>, M::Error> {
        let mut value = Attr::Other;
        while let Some(key) = map.next_key::<Name<'de>>()? {
            if key.0 == "S" {
                value = Attr::S(map.next_value::<Name<'de>>()?.0);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(value)
    }
}

/// A string, borrowed from the line when it holds no escape.
struct Name<'a>(Cow<'a, str>);

impl<'de> de::Deserialize<'de> for Name<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Name<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }

            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Borrowed(s)))
            }

            fn visit_str<E: de::Error>(self, s: &str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(s.to_owned())))
            }

            fn visit_string<E: de::Error>(self, s: String) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs<'a>(line: &'a str, names: &[&str]) -> Result<Vec<Option<Attr<'a>>>, String> {
        let mut out = vec![None; names.len()];
        read(line.as_bytes(), names, &mut out)?;
        Ok(out)
    }

    #[test]
    fn only_the_attributes_asked_for_are_read_and_escapes_are_decoded() {
        let line = r#"{"Item":{"blob":{"B":"AAEC"},"sk":{"S":"RUN#99\"q\u00e9"},"n":{"N":"1"},"pk":{"S":"SEASON#1"},"l":{"L":[{"M":{"pk":{"S":"inner"}}}]}}}"#;
        let got = attrs(line, &["pk", "sk", "n", "none"]).unwrap();
        assert_eq!(
            got,
            [
                Some(Attr::S(Cow::Borrowed("SEASON#1"))),
                Some(Attr::S(Cow::Owned("RUN#99\"qé".to_owned()))),
                Some(Attr::Other),
                None
            ]
        );
        assert!(matches!(&got[0], Some(Attr::S(Cow::Borrowed(_)))), "no escape: borrowed from the line");
    }

    #[test]
    fn a_line_that_is_no_item_of_dynamodb_json_is_an_error() {
        for bad in [r#"{"Other":{}}"#, r#"{"Item":[1]}"#, r#"{"Item":{"pk":"plain"}}"#, r#"{"Item":{}} x"#, "{"] {
            assert!(attrs(bad, &["pk"]).is_err(), "{bad}");
        }
        assert_eq!(attrs(r#"{"Item":{}}"#, &["pk"]).unwrap(), [None]);
    }
}
