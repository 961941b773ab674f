// A `|` separator with a prefix, and the text segment last, where it may contain any character.
use sortkey_core::SortKey;

#[derive(SortKey, Debug, PartialEq)]
#[key(prefix = "RUN", separator = '|')]
struct K {
    #[key(width = 4)]
    score: u32,
    done: bool,
    player: String,
}

fn main() {
    let k = K {
        score: 7,
        done: true,
        player: "p#1|x".into(),
    };
    assert_eq!(k.encode().unwrap(), "RUN|0007|1|p#1|x");
    assert_eq!(K::decode("RUN|0007|1|p#1|x").unwrap(), k);
}
