//! A field takes the attributes of one kind of type: a decimal's `scale` beside a timestamp's
//! `unit` is an error at the second, naming both, for a type the macro does not know as for
//! one it does.
use sortkey_core::SortKey;

type Amount = u64;

#[derive(SortKey)]
struct Ledger {
    #[key(unit = "ms", scale = 2)]
    at: Amount,
    #[key(format = "hex", scale = 2)]
    ratio: f64,
}

fn main() {}
