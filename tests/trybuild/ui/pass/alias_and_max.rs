// Type aliases, `max` within the width, signed widths and `max_len` that fits.
use sortkey_core::SortKey;

type Score = u8;

#[derive(SortKey, Debug, PartialEq)]
#[key(prefix = "A", max_len = 13)]
struct K {
    #[key(width = 3, max = 250)]
    score: Score,
    #[key(width = 3, max = 99)]
    delta: i16,
    #[key(width = 1)]
    flag: u8,
    done: bool,
}

fn main() {
    let k = K {
        score: 250,
        delta: -5,
        flag: 9,
        done: true,
    };
    assert_eq!(k.encode().unwrap(), "A#250#-94#9#1");
    assert_eq!(K::decode("A#250#-94#9#1").unwrap(), k);
}
