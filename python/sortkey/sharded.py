"""An item's partition key, its shard calculated from its sort key (spec/SPEC.md, SK-SHD-002)."""

from __future__ import annotations

from typing import Any, Dict

from .codec import _spec, decode, encode, encode_type
from .layout import Layout
from .shards import shard_of


def partition_key(partition: Layout, sort: Layout, fields: Dict[str, Any], sort_key: str) -> str:
    """The partition key of the item whose sort key is `sort_key` (read by `sort`): the partition
    layout's `fields`, with its shard field (`shards=N by=FIELD`) set to the shard of the bytes
    the sort key's FIELD is written as. A sort key its layout does not read is a DecodeError."""
    sort_value = decode(sort, sort_key)
    value = dict(fields)
    for f in partition.key.fields:
        if f.shards is None:
            continue
        if f.shards.by is None:
            raise ValueError(f"the shard field {f.name} is random: no sort key says which shard holds an item")
        sort_fields = sort.key.fields
        index = next(i for i, sf in enumerate(sort_fields) if sf.name == f.shards.by)
        sf = sort_fields[index]
        spec = _spec(sort.name, sf, sort.key.separator, index + 1 == len(sort_fields))
        segment = encode_type(sort_value[sf.name], sf.type, spec)
        value[f.name] = shard_of(segment, f.shards.count)
    return encode(partition, value)
