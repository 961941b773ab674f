//! What the derive's serde and `Display` impls call: a key serializes as its encoded string and
//! deserializes through the strict decoder (feature `serde`); `Display` prints the encoding.

use std::fmt;

use crate::encoding::key::SortKey;

/// `Display` of a key type: its encoding. A value that cannot be encoded is a `fmt::Error`,
/// never a string that is not its key.
pub fn display_key<T: SortKey>(key: &T, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let mut out = String::new();
    key.encode_into(&mut out).map_err(|_| fmt::Error)?;
    f.write_str(&out)
}

#[cfg(feature = "serde")]
pub use with_serde::*;

#[cfg(feature = "serde")]
mod with_serde {
    use std::fmt;
    use std::marker::PhantomData;

    use serde_core::de::{self, Deserializer, Visitor};
    use serde_core::ser::{self, Serializer};

    use crate::encoding::key::{DecodeKey, SortKey};

    pub use serde_core;

    /// Serializes a key as its encoded string; an encode error is a serde error with its message.
    pub fn serialize_key<T: SortKey, S: Serializer>(key: &T, serializer: S) -> Result<S::Ok, S::Error> {
        let encoded = key.encode().map_err(ser::Error::custom)?;
        serializer.serialize_str(&encoded)
    }

    /// Deserializes a key from a string through the strict decoder; a decode error is a serde
    /// error whose message names the key type, the field and the offset.
    pub fn deserialize_key<'de, T, D>(deserializer: D) -> Result<T, D::Error>
    where
        T: SortKey + for<'k> DecodeKey<'k>,
        D: Deserializer<'de>,
    {
        deserializer.deserialize_str(KeyVisitor(PhantomData))
    }

    struct KeyVisitor<T>(PhantomData<fn() -> T>);

    impl<T: SortKey + for<'k> DecodeKey<'k>> Visitor<'_> for KeyVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a string holding a `{}` key", std::any::type_name::<T>())
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            T::decode(v).map_err(E::custom)
        }
    }
}
