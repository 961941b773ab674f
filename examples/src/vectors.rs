//! The key types and values of the test vectors (`cargo run --example vectors -- RankKey`): the
//! boundaries of every field kind, for other languages to check their encoders against.

use sortkey_core::SortKey;
use sortkey_core::vectors::{Vector, json_string, vectors};

/// The seed's key: `RUN#{score:u64 width=10 desc}#{timestamp:u64 width=16}#{player_id:text}`.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
pub struct RankKey {
    /// Higher scores first.
    #[key(width = 10, desc)]
    pub score: u64,
    /// Unix seconds (or any count), 16 digits.
    #[key(width = 16)]
    pub timestamp: u64,
    /// The last segment: any text.
    pub player_id: String,
}

/// Signed, float and optional fields: `PRICE#{delta:i32 width=11 desc}#{price:f64}#{stock:option<u16> width=5}#{name:text}`.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "PRICE")]
pub struct PriceKey {
    /// A signed change, largest first.
    #[key(desc)]
    pub delta: i32,
    /// A float in its readable order-preserving form.
    pub price: f64,
    /// `None` sorts first.
    pub stock: Option<u16>,
    /// The last segment.
    pub name: String,
}

/// The key types vectors exist for.
pub const TYPES: [&str; 2] = ["RankKey", "PriceKey"];

/// RankKey's vectors: 0, 1, the width's edges and one past, the timestamp's edges, and texts
/// with the separator, multi-byte and edge characters, and one too long for the 1024-byte limit.
pub fn rank_key() -> Vec<Vector> {
    let scores = [0, 1, 9, 10, 1500, 9_999_999_998, 9_999_999_999, 10_000_000_000, u64::MAX];
    let times = [0, 1_719_100_800, 9_999_999_999_999_999, 10_000_000_000_000_000];
    let long = "x".repeat(1000);
    let players = ["p_8842", "", "a#b", "#", "é", "\u{FFFF}", "\u{10FFFF}", "tab\there", "\"quoted\"", long.as_str()];
    let mut values = Vec::new();
    for (i, &score) in scores.iter().enumerate() {
        for (j, &timestamp) in times.iter().enumerate() {
            let player_id = players[(i + j) % players.len()].to_owned();
            let fields = format!(
                "{{\"score\": {score}, \"timestamp\": {timestamp}, \"player_id\": {}}}",
                json_string(&player_id)
            );
            values.push((fields, RankKey { score, timestamp, player_id }));
        }
    }
    vectors(values)
}

/// PriceKey's vectors: negative, zero and extreme deltas, floats of every sign and size, an
/// absent and the largest stock, and a refused NaN.
pub fn price_key() -> Vec<Vector> {
    let deltas = [i32::MIN, -1, 0, 1, i32::MAX];
    let prices = [-1e300, -2.5, -0.0, 0.0, 1e-300, 0.35, 9.99, 10.0, 10250.0, f64::MAX, f64::NAN];
    let stocks = [None, Some(0), Some(u16::MAX)];
    let mut values = Vec::new();
    for (i, &price) in prices.iter().enumerate() {
        let (delta, stock) = (deltas[i % deltas.len()], stocks[i % stocks.len()]);
        let name = ["lamp", "", "a|b#c"][i % 3].to_owned();
        let price_json = if price.is_nan() { "\"NaN\"".to_owned() } else { format!("{price:?}") };
        let stock_json = stock.map_or("null".to_owned(), |s| s.to_string());
        let fields = format!(
            "{{\"delta\": {delta}, \"price\": {price_json}, \"stock\": {stock_json}, \"name\": {}}}",
            json_string(&name)
        );
        values.push((fields, PriceKey { delta, price, stock, name }));
    }
    vectors(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sortkey_core::vectors::check_round_trip;

    #[test]
    fn every_vector_decodes_and_encodes_to_itself() {
        let rank = rank_key();
        check_round_trip::<RankKey>(&rank).unwrap();
        assert!(rank.iter().any(|v| v.key.is_err()), "refusals are vectors too");
        assert!(rank.iter().filter(|v| v.key.is_ok()).count() > 10);
        let price = price_key();
        check_round_trip::<PriceKey>(&price).unwrap();
        assert!(price.iter().any(|v| v.key.is_err()), "NaN is refused");
    }
}
