#!/usr/bin/env python3
"""Prints the tables of BENCHMARKS.md from the last `cargo bench -p sortkey-core --bench keys`.

Reads the medians criterion wrote to target/criterion/<group>/<function>/new/estimates.json.
"""

import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CRITERION = os.environ.get("CRITERION_DIR", os.path.join(ROOT, "target", "criterion"))


def median(group, function):
    path = os.path.join(CRITERION, group, function, "new", "estimates.json")
    with open(path) as f:
        return json.load(f)["median"]["point_estimate"]


def ok(met):
    return "met" if met else "**missed**"


def main():
    rows, targets = [], []
    for key, title in [("rank", "RankKey (seed: prefix, u64 desc w10, u64 w16, String)"),
                       ("event", "EventKey (u32 w10, u64 w16, u16 w5 desc, u32 w10)")]:
        m = {(op, fn): median(f"{key}_{op}", fn) for op, fns in [
            ("encode_into", ["derive", "hand", "memcpy"]),
            ("encode", ["derive", "format", "to_owned"]),
            ("decode", ["derive", "hand", "split"] + (["derive_borrowed"] if key == "rank" else [])),
        ] for fn in fns}
        for op, fn, what in [
            ("encode_into", "derive", "derive `encode_into`, reused buffer"),
            ("encode_into", "hand", "(b) hand-tuned itoa encode, reused buffer"),
            ("encode_into", "memcpy", "(c) memcpy of the encoded key into the reused buffer"),
            ("encode", "derive", "derive `encode` (new String)"),
            ("encode", "format", "(a) `format!`"),
            ("encode", "to_owned", "(c') `to_owned` of the encoded key (alloc + memcpy)"),
            ("decode", "derive", "derive `decode`"),
            ("decode", "derive_borrowed", "derive `decode_borrowed` of `player_id: &str` (no allocation)"),
            ("decode", "hand", "(b) hand-tuned decode, same checks"),
            ("decode", "split", "(a) `split('#')` + `parse`"),
        ]:
            if (op, fn) in m:
                rows.append((title, what, m[(op, fn)]))
        d_into, d_enc, d_dec = m[("encode_into", "derive")], m[("encode", "derive")], m[("decode", "derive")]
        targets += [
            (key, "(a) `format!` / derive `encode_into`", m[("encode", "format")] / d_into, ">= 4", m[("encode", "format")] / d_into >= 4),
            (key, "derive `encode_into` / (b)", d_into / m[("encode_into", "hand")], "<= 1.2", d_into / m[("encode_into", "hand")] <= 1.2),
            (key, "(a) `split` / derive `decode`", m[("decode", "split")] / d_dec, ">= 3", m[("decode", "split")] / d_dec >= 3),
            (key, "derive `decode` / (b)", d_dec / m[("decode", "hand")], "<= 1.2", d_dec / m[("decode", "hand")] <= 1.2),
            (key, "derive `encode_into` / (c) memcpy", d_into / m[("encode_into", "memcpy")], "<= 10", d_into / m[("encode_into", "memcpy")] <= 10),
            (key, "derive `encode` / (c') `to_owned`", d_enc / m[("encode", "to_owned")], "(<= 10)", d_enc / m[("encode", "to_owned")] <= 10),
            (key, "(a) `format!` / derive `encode`", m[("encode", "format")] / d_enc, "(info)", True),
        ]
    print("| key | what | median (ns) |")
    print("|---|---|---|")
    for title, what, ns in rows:
        print(f"| {title.split(' ')[0]} | {what} | {ns:.1f} |")
    print()
    print("| key | ratio | value | target | |")
    print("|---|---|---|---|---|")
    for key, what, value, target, met in targets:
        print(f"| {key} | {what} | {value:.2f}x | {target} | {'' if target == '(info)' else ok(met)} |")


if __name__ == "__main__":
    sys.exit(main())
