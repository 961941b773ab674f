//! The key types and values of the test vectors (`cargo run --example vectors -- RankKey`): the
//! boundaries of every field kind, for other languages to check their encoders against.

use std::time::{Duration, SystemTime};

use sortkey_core::SortKey;
use sortkey_core::rust_decimal::Decimal;
use sortkey_core::vectors::{Vector, json_string, vectors, vectors_json};

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

/// A fixed-point price, as the catalogue example's: `CENTS#{price:decimal width=9 scale=2}#{name:text}`.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "CENTS")]
pub struct CentsKey {
    /// Exact cents, 9 digits.
    #[key(scale = 2, width = 9)]
    pub price: Decimal,
    /// The last segment.
    pub name: String,
}

/// An order of a customer's partition: the newest first, to the millisecond.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDER")]
pub struct OrderKey {
    /// When it was placed, newest first.
    #[key(unit = "ms", width = 13, desc)]
    pub placed: SystemTime,
    /// The tiebreaker.
    pub order_id: String,
}

/// An address of a customer, numbered.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ADDR")]
pub struct AddressKey {
    /// Its number, 3 digits.
    #[key(width = 3)]
    pub n: u16,
}

/// Everything under one customer, as the single-table example's family: a unit variant and two
/// keyed ones.
#[derive(SortKey, Debug, Clone, PartialEq)]
pub enum CustomerItem {
    /// The one profile item.
    #[key(prefix = "PROFILE")]
    Profile,
    /// An order.
    Order(OrderKey),
    /// An address.
    Address(AddressKey),
}

/// A season's partition spread over 16 shards by player: `partition SEASON#{season:u16
/// width=4}#{shard:u16 width=2 shards=16 by=player}`.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(partition, prefix = "SEASON")]
pub struct SeasonPk {
    /// The season.
    #[key(width = 4)]
    pub season: u16,
    /// The shard, from the sort key's `player`.
    #[key(shards = 16, by = player)]
    pub shard: u16,
}

/// The key types vectors exist for.
pub const TYPES: [&str; 5] = ["RankKey", "PriceKey", "CentsKey", "CustomerItem", "SeasonPk"];

/// The vectors file of the key type `name`, one of [`TYPES`].
pub fn file(name: &str) -> Option<String> {
    Some(match name {
        "RankKey" => vectors_json::<RankKey>(name, &rank_key()),
        "PriceKey" => vectors_json::<PriceKey>(name, &price_key()),
        "CentsKey" => vectors_json::<CentsKey>(name, &cents_key()),
        "CustomerItem" => vectors_json::<CustomerItem>(name, &customer_item()),
        "SeasonPk" => vectors_json::<SeasonPk>(name, &season_pk()),
        _ => return None,
    })
}

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

/// CentsKey's vectors: zero, cents, negative prices, the width's edges and one past, and a
/// value with more decimals than the scale keeps (refused, never rounded).
pub fn cents_key() -> Vec<Vector> {
    let prices = [
        (0, 0),
        (1, 2),
        (15, 1),
        (-225, 2),
        (-1, 2),
        (999_999_999, 2),
        (-999_999_999, 2),
        (1_000_000_000, 2),
        (1, 3),
        (12_345, 0),
    ];
    let names = ["lamp", "", "a#b"];
    let values = prices.iter().enumerate().map(|(i, &(mantissa, scale))| {
        let price = Decimal::new(mantissa, scale);
        let name = names[i % names.len()].to_owned();
        // The text as the key holds it: with the field's 2 decimals (a value with more stays
        // as it is, and is refused).
        let mut text = price;
        if text.scale() <= 2 {
            text.rescale(2);
        }
        let fields = format!("{{\"price\": {}, \"name\": {}}}", json_string(&text.to_string()), json_string(&name));
        (fields, CentsKey { price, name })
    });
    vectors(values)
}

/// CustomerItem's vectors: the unit variant, orders at the ends of the 13-digit millisecond
/// width (and one past), addresses at the ends of theirs. Timestamps are RFC 3339 text.
pub fn customer_item() -> Vec<Vector> {
    let at = |ms: u64| SystemTime::UNIX_EPOCH + Duration::from_millis(ms);
    let orders = [
        (0, "1970-01-01T00:00:00Z", "o-1"),
        (1_719_100_800_123, "2024-06-23T00:00:00.123Z", "o#2"),
        (9_999_999_999_999, "2286-11-20T17:46:39.999Z", ""),
        (10_000_000_000_000, "2286-11-20T17:46:40Z", "late"),
    ];
    let mut values = vec![("\"PROFILE\"".to_owned(), CustomerItem::Profile)];
    for (ms, text, id) in orders {
        let fields = format!("{{\"ORDER\": {{\"placed\": \"{text}\", \"order_id\": {}}}}}", json_string(id));
        values.push((fields, CustomerItem::Order(OrderKey { placed: at(ms), order_id: id.to_owned() })));
    }
    for n in [0, 7, 999, 1000] {
        values.push((format!("{{\"ADDR\": {{\"n\": {n}}}}}"), CustomerItem::Address(AddressKey { n })));
    }
    vectors(values)
}

/// SeasonPk's vectors: every shard of a season, the season's edges, and a shard past the count
/// (refused, as a value past `max` is).
pub fn season_pk() -> Vec<Vector> {
    let values = [(0, 0), (2026, 0), (2026, 7), (2026, 15), (9999, 15), (2026, 16), (10_000, 3)]
        .map(|(season, shard)| (format!("{{\"season\": {season}, \"shard\": {shard}}}"), SeasonPk { season, shard }));
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
        check_round_trip::<CentsKey>(&cents_key()).unwrap();
        check_round_trip::<CustomerItem>(&customer_item()).unwrap();
    }

    /// Every vectors file is reproduced by its layout text alone: each vector's fields, read
    /// as the layout says (`DynLayout::value_seed`), encode to its key, or are refused where the
    /// derived type refuses them; each key decodes through the layout to those fields.
    #[test]
    fn every_vectors_file_is_reproduced_by_the_layout_alone() {
        use serde::de::DeserializeSeed;
        for name in TYPES {
            let doc: serde_json::Value = serde_json::from_str(&file(name).unwrap()).unwrap();
            let layout = sortkey_core::DynLayout::parse(doc["layout"].as_str().unwrap()).unwrap();
            let vectors = doc["vectors"].as_array().unwrap();
            for v in vectors {
                let fields = layout.value_seed().deserialize(&v["fields"]);
                let encoded = fields
                    .as_ref()
                    .map_err(|e| e.to_string())
                    .and_then(|f| layout.encode(f).map_err(|e| e.to_string()));
                match (v["key"].as_str(), encoded) {
                    (Some(key), Ok(encoded)) => {
                        assert_eq!(encoded, key, "{name}: {}", v["fields"]);
                        assert_eq!(&layout.decode(key).unwrap(), fields.as_ref().unwrap(), "{name}: {key}");
                    }
                    (None, Err(_)) => {}
                    (key, encoded) => panic!("{name}: {}: vector {key:?}, layout {encoded:?}", v["fields"]),
                }
            }
            assert!(vectors.iter().any(|v| v["key"].is_string()) && vectors.iter().any(|v| v["error"].is_string()));
        }
    }
}
