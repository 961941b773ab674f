// A type that implements `KeySegment` but not `DecodeSegment` cannot be read back: an error.
use sortkey_core::{EncodeError, Field, KeySegment, SortKey};

struct Tag;

impl KeySegment for Tag {
    fn encode_segment(&self, _: &Field, out: &mut String) -> Result<(), EncodeError> {
        out.push_str("tag");
        Ok(())
    }
}

#[derive(SortKey)]
struct K {
    tag: Tag,
}

fn main() {}
