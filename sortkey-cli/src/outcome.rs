//! How a subcommand ends: what it found ([`Outcome`], exit status 0 or 1), or why it stopped
//! ([`Failure`], one line for people, exit status 2).

/// Why the command stopped: a message for people (exit status 2).
#[derive(Debug)]
pub(crate) struct Failure(pub(crate) String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(e.to_string())
    }
}

/// What a command found: exit status 0 when nothing, 1 when something (an audit's finding, keys
/// a migration left in the old layout).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    Clean,
    Found,
}
