//! Test vectors for other languages: `cargo run --example vectors -- RankKey` prints a JSON file
//! of values and the keys they encode to (or the error they are refused with), with the key
//! type's layout, so that a Python or TypeScript service can check its own encoder against this
//! one. `tests/vectors/check_layout.py` is such a check, by the Python package of the spec
//! (python/), which reads the layout text alone: it encodes and decodes the values of any key
//! type's file; CI runs it on every one.
//!
//! `-- PriceKey` for signed, float and optional fields, `-- CentsKey` for a decimal,
//! `-- CustomerItem` for a family with timestamps; `--out FILE` writes the file.

use sortkey_examples::vectors::{TYPES, file};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = format!("usage: cargo run --example vectors -- <{}> [--out FILE]", TYPES.join("|"));
    let name = args.first().ok_or(usage.clone())?;
    let json = file(name).ok_or_else(|| format!("no vectors for `{name}`; {usage}"))?;
    match args.iter().position(|a| a == "--out").and_then(|i| args.get(i + 1)) {
        Some(path) => {
            std::fs::write(path, &json)?;
            eprintln!("wrote {path}");
        }
        None => print!("{json}"),
    }
    Ok(())
}
