#!/usr/bin/env python3
"""The examples' test vectors read by the Python reader of the key format (python/, spec/SPEC.md),
which knows no key type: only the layout text.

    cargo run --example vectors -- CustomerItem --out customer_item.json
    python3 tests/vectors/check_layout.py customer_item.json [more.json ...]
    python3 tests/vectors/check_layout.py --lock layouts.lock
    python3 tests/vectors/check_layout.py --shards tests/vectors/shards.json

Each vectors file holds a key type's layout text and values with the keys the Rust encoder writes
for them, or the error it refuses them with: every value must encode to the same key (or be
refused), and every key must decode back to the same fields. A lock must parse, every layout and
version line of it. Each shard vector's shard is computed from the rule alone. Until the package
existed this script was a second implementation of the format of its own; it now runs the one
users get (`pip install ./python`), found beside this repository when it is not installed.
"""

import json
import math
import sys
from pathlib import Path

try:
    import sortkey
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
    import sortkey


def same(a, b):
    """Fields as JSON: numbers by value (an integer may be a string of digits, a float its bits),
    timestamps by instant (fraction digits may differ in form), decimals by value."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, str) and isinstance(b, str) and a.endswith("Z") and "T" in a:
        from sortkey.codec import nanos_of
        return nanos_of(a) == nanos_of(b)
    if isinstance(a, float) or isinstance(b, float):
        try:
            return float(a) == float(b) and math.copysign(1, float(a)) == math.copysign(1, float(b))
        except (TypeError, ValueError):
            return a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int) or isinstance(b, int):
        try:
            return int(a) == int(b)
        except (TypeError, ValueError):
            return False
    if isinstance(a, str) and isinstance(b, str):
        from decimal import Decimal, InvalidOperation
        try:
            return Decimal(a) == Decimal(b) and a.startswith("-") == b.startswith("-")
        except InvalidOperation:
            return a == b
    return a == b


def check(path):
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    layout = sortkey.parse(doc["layout"])
    failures = 0
    for v in doc["vectors"]:
        fields = v["fields"]
        try:
            mine, why = sortkey.encode(layout, fields), None
        except sortkey.EncodeError as e:
            mine, why = None, str(e)
        wrong = ("key" in v and mine != v["key"]) or ("error" in v and mine is not None)
        if "key" in v and not wrong:
            back = sortkey.decode(layout, v["key"])
            wrong = not same(back, fields)
            why = f"decodes to {back!r}"
        if wrong:
            failures += 1
            print(f"{doc['type']}: {fields}: Rust {v.get('key') or v.get('error')!r}, Python {mine!r} ({why})")
    total = len(doc["vectors"])
    print(f"{doc['type']}: {total - failures} of {total} vectors agree ({doc['layout']})")
    return failures


def check_lock(path):
    lock = sortkey.Lock.parse(Path(path).read_text(encoding="utf-8"))
    for chain in lock.versions:
        print(f"{path}: {chain[0]} reads its older layouts {', '.join(chain[1:])}")
    print(f"{path}: {len(lock.layouts)} layouts, {len(lock.versions)} with older versions")
    return 0


def check_shards(path):
    vectors = json.loads(Path(path).read_text(encoding="utf-8"))["vectors"]
    failures = 0
    for v in vectors:
        h, shard = sortkey.fnv1a64(v["value"]), sortkey.shard_of(v["value"], v["count"])
        if f"{h:016x}" != v["fnv1a64"] or shard != v["shard"]:
            failures += 1
            print(f"{path}: {v['value']!r} mod {v['count']}: expected {v['shard']} ({v['fnv1a64']}), computed {shard} ({h:016x})")
    print(f"{path}: {len(vectors)} shard vectors, {failures} failures")
    return failures


def main(args):
    if args[:1] == ["--shards"]:
        return 1 if sum(check_shards(p) for p in args[1:]) else 0
    if args[:1] == ["--lock"]:
        try:
            return max([check_lock(p) for p in args[1:]] or [0])
        except sortkey.SortKeyError as e:
            print(f"refused: {e}")
            return 1
    return 1 if sum(check(p) for p in args) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
