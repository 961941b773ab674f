// A multi-attribute query cannot skip a sort attribute: `week` before `year` has no method.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(prefix = "SHIP", id), sk(prefix = "V", version), index(by_region(multi, pk(region), sk(year, week))))]
struct Shipment {
    id: String,
    version: u32,
    region: String,
    year: u16,
    week: u8,
}

fn main() {
    let _ = Shipment::by_region("eu").week_range().gte(5u8);
}
