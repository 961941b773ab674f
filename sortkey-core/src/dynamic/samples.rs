//! The samples a report keeps of a group of keys: the least of them, each once, so that the same
//! keys give the same samples in any order of reading.

use std::cmp::Ordering;

/// How many sample keys a finding keeps.
pub(crate) const SAMPLES: usize = 5;

/// Keeps `key` among `samples` (kept in byte order of their keys, each key once) when it is one
/// of the least [`SAMPLES`]: so the samples of a group are the same whatever order its keys come
/// in.
pub(crate) fn keep_least<T>(samples: &mut Vec<T>, key: &str, key_of: impl Fn(&T) -> &str, make: impl FnOnce() -> T) {
    keep_least_by(samples, |s| key_of(s).cmp(key), make);
}

/// [`keep_least`] by any order: `place` says how a kept sample compares with the new one (whose
/// key may be several parts), `make` makes it only when it is kept.
pub(crate) fn keep_least_by<T>(samples: &mut Vec<T>, place: impl Fn(&T) -> Ordering, make: impl FnOnce() -> T) {
    if let Err(at) = samples.binary_search_by(place)
        && at < SAMPLES
    {
        samples.insert(at, make());
        samples.truncate(SAMPLES);
    }
}
