// A multi-attribute key takes fields only: no prefix, no segment attributes.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(
    pk(prefix = "SHIP", id),
    sk(prefix = "V", version),
    index(by_region(multi, pk(prefix = "R", region), sk(year(width = 4))))
)]
struct Shipment {
    id: String,
    version: u32,
    region: String,
    year: u16,
}

fn main() {}
