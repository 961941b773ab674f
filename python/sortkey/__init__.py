"""sortkey: DynamoDB sort keys that sort, read and written by the layouts a Rust service locked.

A pure-Python reader of the key format of spec/SPEC.md (version 1)::

    import sortkey

    layout = sortkey.parse("RUN#{score:u64 width=10 desc}#{player:text}")
    key = layout_key = sortkey.encode(layout, {"score": 1500, "player": "p_8842"})
    assert sortkey.decode(layout, key) == {"score": 1500, "player": "p_8842"}
    top = sortkey.Query(layout).compare("score", ">=", 1000)
    client.query(TableName="runs", **top.expression("pk", "SEASON#7", "sk"))
"""

from .codec import decode, encode
from .errors import DecodeError, EncodeError, LayoutError, LockError, QueryError, SortKeyError
from .layout import Field, Key, Layout, Type, parse
from .lock import FieldCondition, Live, Lock, Read
from .query import KeyCondition, Query
from .sharded import partition_key
from .shards import fnv1a64, shard_of

FORMAT_VERSION = 1

__all__ = [
    "FORMAT_VERSION", "DecodeError", "EncodeError", "Field", "FieldCondition", "Key", "KeyCondition", "Layout",
    "LayoutError", "Live", "Lock", "LockError", "Query", "QueryError", "Read", "SortKeyError", "Type", "decode",
    "encode", "fnv1a64", "parse", "partition_key", "shard_of",
]
