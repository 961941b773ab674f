"""Every vector of spec/vectors/v2, read by this package: the same keys, values, refusals (kind,
field, offset), conditions, versions and shards as the Rust crates give."""

import json
import math
from pathlib import Path

import pytest

import sortkey
from conftest import RESULTS

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "v2"


def load():
    out = []
    for path in sorted(VECTORS.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        out.extend((doc["kind"], v) for v in doc["vectors"])
    return out


def same(a, b):
    """Values compared as JSON values: numbers by value (an integer may be a string of digits),
    floats by their bits (-0.0 is not 0.0)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, str) or isinstance(b, str):
            return a == b
        return float(a) == float(b) and math.copysign(1, float(a)) == math.copysign(1, float(b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int) or isinstance(b, int):
        try:
            return int(a) == int(b)
        except (TypeError, ValueError):
            return False
    return a == b


def condition_json(c):
    e = c.expression("pk", "P", "sk")
    return {
        "op": c.op,
        "values": list(c.values),
        "expression": e["KeyConditionExpression"],
        "names": e["ExpressionAttributeNames"],
        "expression_values": {k: v["S"] for k, v in e["ExpressionAttributeValues"].items()},
    }


def steps_query(layout, steps):
    q = sortkey.Query(layout)
    for step in steps:
        op = step[0]
        if op == "variant":
            q = q.variant(step[1])
        elif op == "fix":
            q = q.fix(step[1], step[2])
        elif op == "compare":
            return q.compare(step[1], step[2], step[3])
        elif op == "between":
            return q.between(step[1], step[2], step[3])
        elif op == "text_begins_with":
            return q.text_begins_with(step[1], step[2])
        elif op == "begins_with":
            return q.begins_with()
        elif op == "eq":
            return q.eq()
    raise AssertionError("a query ends with a condition")


def answer(kind, v):
    """What this package gives for the vector's input, in the vector's terms."""
    if kind == "layouts":
        try:
            return {"printed": str(sortkey.parse(v["text"]))}
        except sortkey.LayoutError as e:
            return {"error": {"offset": e.offset}}
    if kind == "encode":
        try:
            return {"key": sortkey.encode(sortkey.parse(v["layout"]), v["fields"])}
        except sortkey.EncodeError as e:
            return {"error": {"kind": e.kind, "field": e.field}}
    if kind == "decode":
        try:
            return {"fields": sortkey.decode(sortkey.parse(v["layout"]), v["key"])}
        except sortkey.DecodeError as e:
            return {"error": {"kind": e.kind, "field": e.field, "offset": e.offset}}
    if kind == "conditions":
        try:
            return {"condition": condition_json(steps_query(sortkey.parse(v["layout"]), v["steps"]))}
        except sortkey.QueryError as e:
            return {"error": {"kind": e.kind, "field": e.field}}
    if kind == "versions":
        try:
            lock = sortkey.Lock.parse(v["lock"])
        except sortkey.LockError as e:
            return {"error": {"line": e.line}}
        live = lock.live(v["name"])
        if "key" in v:
            try:
                read = live.decode_any(v["key"])
            except sortkey.DecodeError as e:
                return {"error": {"kind": e.kind, "field": e.field, "offset": e.offset}}
            return {"version": read.version, "layout": read.layout, "fields": read.value}
        fc = sortkey.FieldCondition()
        for step in v["condition"]:
            if step[0] == "fix":
                fc.fix(step[1], step[2])
            elif step[0] == "compare":
                fc.compare(step[1], step[2], step[3])
            elif step[0] == "between":
                fc.between(step[1], step[2], step[3])
        conditions = live.conditions(fc)
        out = {"conditions": [None if c is None else condition_json(c) for c in conditions]}
        if "merge" in v:
            merged = live.merge(conditions, v["merge"])
            out["results"] = [{"key": k, "version": ver, "current_key": cur} for k, ver, cur in merged]
        return out
    if kind == "partitions":
        try:
            key = sortkey.partition_key(sortkey.parse(v["partition"]), sortkey.parse(v["sort"]), v["fields"], v["sort_key"])
        except sortkey.DecodeError as e:
            return {"error": {"kind": e.kind, "field": e.field, "offset": e.offset}}
        return {"key": key}
    if kind == "shards":
        return {"fnv1a64": f"{sortkey.fnv1a64(v['bytes']):016x}", "shard": sortkey.shard_of(v["bytes"], v["count"])}
    raise AssertionError(kind)


OUTPUTS = {
    "layouts": ("printed", "error"),
    "encode": ("key", "error"),
    "decode": ("fields", "error"),
    "conditions": ("condition", "error"),
    "versions": ("version", "layout", "fields", "error", "conditions", "results"),
    "shards": ("fnv1a64", "shard"),
    "partitions": ("key", "error"),
}


@pytest.mark.parametrize("kind,vector", load(), ids=lambda x: x["id"] if isinstance(x, dict) else x)
def test_vector(kind, vector):
    got = answer(kind, vector)
    expected = {k: vector[k] for k in OUTPUTS[kind] if k in vector}
    passed = same(got, expected)
    RESULTS[vector["id"]] = passed
    assert passed, f"{vector['id']}: expected {expected}, got {got}"
