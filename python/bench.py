#!/usr/bin/env python3
"""The Python reader's speed against a hand-written `split` (BENCHMARKS.md, for information):
decoding and encoding 10,000 of the leaderboard's RankKey keys.

    PYTHONPATH=python python3 python/bench.py
"""

import timeit

import sortkey

LAYOUT = sortkey.parse("RUN#{score:u64 width=10 desc}#{timestamp:u64 width=16}#{player_id:text}")
RUNS = [{"score": (i * 7919) % 2000, "timestamp": 1719100800 + (i * 104729) % 86400, "player_id": f"p_{i}"}
        for i in range(10_000)]
KEYS = [sortkey.encode(LAYOUT, r) for r in RUNS]


def by_hand_decode(key):
    """What a service writes without the spec: split, and undo the complement. No checks."""
    _, score, timestamp, player = key.split("#", 3)
    return {"score": 9_999_999_999 - int(score), "timestamp": int(timestamp), "player_id": player}


def by_hand_encode(run):
    return f"RUN#{9_999_999_999 - run['score']:010d}#{run['timestamp']:016d}#{run['player_id']}"


def per_key(f, items):
    seconds = min(timeit.repeat(lambda: [f(x) for x in items], number=1, repeat=5))
    return seconds / len(items) * 1e9


def main():
    assert [by_hand_decode(k) for k in KEYS] == [sortkey.decode(LAYOUT, k) for k in KEYS]
    assert [by_hand_encode(r) for r in RUNS] == KEYS
    rows = [
        ("decode", per_key(lambda k: sortkey.decode(LAYOUT, k), KEYS), per_key(by_hand_decode, KEYS)),
        ("encode", per_key(lambda r: sortkey.encode(LAYOUT, r), RUNS), per_key(by_hand_encode, RUNS)),
    ]
    print("| Python | sortkey | by hand (split, f-string) | ratio |")
    print("|---|---|---|---|")
    for name, ours, theirs in rows:
        print(f"| {name} a RankKey | {ours / 1000:.1f} us | {theirs / 1000:.2f} us | {ours / theirs:.0f}x |")


if __name__ == "__main__":
    main()
