// One bad attribute through a renamed runtime is one error: the fallback names the runtime
// through `crate = ::sk` too, and uses of the type (encode, decode, query) add none.
use sk::SortKey;

#[derive(SortKey)]
#[key(crate = ::sk, prefix = "R")]
struct Run {
    #[key(width = 0)]
    score: u32,
    player: String,
}

fn main() {
    let run = Run { score: 1, player: "p".into() };
    let _ = run.encode();
    let _ = Run::decode("R#1#p");
    let _ = Run::query().score(1).player_range().begins_with("p");
    let _ = Run::query().score_range().between(1, 5);
}
