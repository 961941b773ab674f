//! Test vectors for other languages: `cargo run --example vectors -- RankKey` prints a JSON file
//! of values and the keys they encode to (or the error they are refused with), with the key
//! type's layout, so that a Python or TypeScript service can check its own encoder against this
//! one. `tests/vectors/check_rank_key.py` is such a check, for RankKey, with a reference encoder
//! written in Python; CI runs it.
//!
//! `-- PriceKey` for signed, float and optional fields; `--out FILE` writes the file.

use sortkey_core::vectors::vectors_json;
use sortkey_examples::vectors::{PriceKey, RankKey, TYPES, price_key, rank_key};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = format!("usage: cargo run --example vectors -- <{}> [--out FILE]", TYPES.join("|"));
    let name = args.first().ok_or(usage.clone())?;
    let json = match name.as_str() {
        "RankKey" => vectors_json::<RankKey>(name, &rank_key()),
        "PriceKey" => vectors_json::<PriceKey>(name, &price_key()),
        other => return Err(format!("no vectors for `{other}`; {usage}").into()),
    };
    match args.iter().position(|a| a == "--out").and_then(|i| args.get(i + 1)) {
        Some(path) => {
            std::fs::write(path, &json)?;
            eprintln!("wrote {path}");
        }
        None => print!("{json}"),
    }
    Ok(())
}
