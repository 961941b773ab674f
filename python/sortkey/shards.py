"""The shard of a sharded partition key (spec/SPEC.md, SK-SHD-001)."""

from __future__ import annotations

from typing import Union

MASK = 0xFFFFFFFFFFFFFFFF


def fnv1a64(data: Union[bytes, str]) -> int:
    """FNV-1a of 64 bits of `data` (a str is taken as its UTF-8 bytes)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    h = 0xCBF29CE484222325
    for byte in data:
        h ^= byte
        h = (h * 0x100000001B3) & MASK
    return h


def shard_of(data: Union[bytes, str], count: int) -> int:
    """The shard, of `count`, that the segment `data` (the bytes a sort key's field is encoded
    to) goes to: FNV-1a, MurmurHash3's 64-bit finalizer, modulo `count`."""
    if not 1 <= count <= 65535:
        raise ValueError(f"a shard count of 1 to 65535, not {count}")
    x = fnv1a64(data)
    x ^= x >> 33
    x = (x * 0xFF51AFD7ED558CCD) & MASK
    x ^= x >> 33
    x = (x * 0xC4CEB9FE1A85EC53) & MASK
    x ^= x >> 33
    return x % count
