//! An embedded, byte-ordered table for the examples.
