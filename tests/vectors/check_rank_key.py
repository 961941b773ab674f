#!/usr/bin/env python3
"""Checks a reference RankKey encoder written in Python against the Rust one's test vectors.

    cargo run --example vectors -- RankKey --out rank_key.json
    python3 tests/vectors/check_rank_key.py rank_key.json

The layout (in the file) is RUN#{score:u64 width=10 desc}#{timestamp:u64 width=16}#{player_id:text}:
the prefix, the score as the nines' complement of 10 digits, the timestamp zero-padded to 16
digits, the player id as it is, joined by '#', at most 1024 UTF-8 bytes. A value the Rust encoder
refuses must be refused here too; every other one must give the same key, byte for byte.
"""

import json
import sys

LAYOUT = "RUN#{score:u64 width=10 desc}#{timestamp:u64 width=16}#{player_id:text}"


def encode(score: int, timestamp: int, player_id: str) -> str:
    """The reference encoder: a ValueError for a value the layout cannot hold."""
    if not 0 <= score <= 9_999_999_999:
        raise ValueError(f"score {score} does not fit width 10")
    if not 0 <= timestamp <= 9_999_999_999_999_999:
        raise ValueError(f"timestamp {timestamp} does not fit width 16")
    key = f"RUN#{9_999_999_999 - score:010d}#{timestamp:016d}#{player_id}"
    if len(key.encode("utf-8")) > 1024:
        raise ValueError("longer than 1024 bytes")
    return key


def main(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc["layout"] != LAYOUT:
        print(f"the layout changed: {doc['layout']!r}, this encoder knows {LAYOUT!r}")
        return 1
    failures = 0
    for v in doc["vectors"]:
        fields = v["fields"]
        try:
            mine = encode(fields["score"], fields["timestamp"], fields["player_id"])
        except ValueError as e:
            mine = None
            why = str(e)
        if "key" in v and mine != v["key"]:
            failures += 1
            print(f"{fields}: Rust {v['key']!r}, Python {mine!r}" + ("" if mine else f" ({why})"))
        if "error" in v and mine is not None:
            failures += 1
            print(f"{fields}: Rust refuses it ({v['error']}), Python gives {mine!r}")
    total = len(doc["vectors"])
    print(f"{total - failures} of {total} RankKey vectors agree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "rank_key.json"))
