#!/usr/bin/env python3
"""Prints the single-table tables of BENCHMARKS.md from the last
`cargo bench -p sortkey-tests --features dynamodb --bench single_table`, or with the argument
`backfill` the backfill table from the last `--bench backfill`.

Reads the medians criterion wrote to target/criterion/<group>/<function>/new/estimates.json.
With valgrind installed it also counts the instructions of one family and one variant decode:
it runs the bench binary's `SORTKEY_PROBE` cases under callgrind, which the machine's load does
not move; the family decode target is judged on those counts (see BENCHMARKS.md for why).
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CRITERION = os.environ.get("CRITERION_DIR", os.path.join(ROOT, "target", "criterion"))


def median(group, function):
    with open(os.path.join(CRITERION, group, function, "new", "estimates.json")) as f:
        return json.load(f)["median"]["point_estimate"]


def ok(met):
    return "met" if met else "**missed**"


def probe_instructions(binary, case):
    """Instructions of one `SORTKEY_PROBE` case (its calls and the loop around them), and how
    many calls the probe made."""
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary],
        env={**os.environ, "SORTKEY_PROBE": case},
        capture_output=True,
        text=True,
        check=True,
    )
    collected = int(re.search(r"Collected : ([0-9,]+)", run.stderr).group(1).replace(",", ""))
    return collected, int(re.search(r"calls: ([0-9]+)", run.stdout).group(1))


def bench_binary():
    """The newest build of the single_table bench, or None."""
    binaries = [b for b in glob.glob(os.path.join(ROOT, "target", "release", "deps", "single_table-*")) if not b.endswith(".d")]
    return max(binaries, key=os.path.getmtime) if binaries else None


def fastest_blocks(binary):
    """Family / variant ratio of each case from `SORTKEY_PROBE=wall`: the fastest of many
    interleaved blocks of calls."""
    run = subprocess.run([binary], env={**os.environ, "SORTKEY_PROBE": "wall"}, capture_output=True, text=True, check=True)
    return {m.group(1): (float(m.group(2)), float(m.group(3))) for m in re.finditer(r"(\w+): family ([0-9.]+) ns, variant ([0-9.]+) ns", run.stdout)}


def instructions(binary):
    """Instructions per call of each family decode case, or None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    loop, _ = probe_instructions(binary, "none")
    counts = {}
    for case in ["family_order", "variant_order", "family_address", "variant_address"]:
        collected, calls = probe_instructions(binary, case)
        counts[case] = (collected - loop) / calls
    return counts


def backfill():
    items = 100
    rows = [
        ("backfill", "`Backfill::run_segment`: BatchGetItem look, conditional TransactWriteItems of up to 50 moves"),
        ("plain", "plain loop: Scan, PutItem new key, DeleteItem old key, no conditions"),
        ("plain_transact", "plain loop, put and delete in one TransactWriteItems, no conditions"),
    ]
    m = {f: median("backfill", f) for f, _ in rows}
    print(f"| what | {items} items (ms) | items/s |")
    print("|---|---|---|")
    for f, what in rows:
        print(f"| {what} | {m[f] / 1e6:.0f} | {items / (m[f] / 1e9):.0f} |")
    print()
    print("| ratio | value | target | |")
    print("|---|---|---|---|")
    r = m["backfill"] / m["plain"]
    print(f"| backfill / plain loop | {r:.2f}x | <= 1.2 | {ok(r <= 1.2)} |")
    r = m["backfill"] / m["plain_transact"]
    print(f"| backfill / plain loop with a transaction | {r:.2f}x | | |")


def main():
    if sys.argv[1:] == ["backfill"]:
        return backfill()
    rows = [
        ("family_decode", "family_order", "`CustomerItem::decode` of an order key (first keyed variant)"),
        ("family_decode", "variant_order", "`OrderKey::decode` of the same key"),
        ("family_decode", "family_address", "`CustomerItem::decode` of an address key (last variant)"),
        ("family_decode", "variant_address", "`AddressKey::decode` of the same key"),
        ("to_item", "typed", "`serde_dynamo::to_item`, typed keys"),
        ("to_item", "strings", "`serde_dynamo::to_item`, `String` keys"),
        ("to_item", "keys_encode", "the typed keys' `encode` (partition + family)"),
        ("from_item", "typed", "`serde_dynamo::from_item`, typed keys (with a clone of the item)"),
        ("from_item", "strings", "`serde_dynamo::from_item`, `String` keys (with a clone of the item)"),
        ("from_item", "keys_decode", "the typed keys' `decode` (partition + family)"),
        ("from_item", "clone", "the clone of the item `from_item` consumes"),
        ("key_attributes", "derive", "`Order::key_attributes()?.to_item()`: primary key and two GSIs, 6 attributes"),
        ("key_attributes", "hand", "the same map by hand: `format!` and `HashMap::insert`, no checks"),
    ]
    m = {(g, f): median(g, f) for g, f, _ in rows}
    print("| what | median (ns) |")
    print("|---|---|")
    for g, f, what in rows:
        print(f"| {what} | {m[(g, f)]:.1f} |")
    print()
    print("| ratio | value | target | |")
    print("|---|---|---|---|")
    binary = bench_binary()
    counts = instructions(binary) if binary else None
    blocks = fastest_blocks(binary) if binary else {}
    for which in ["order", "address"]:
        # The target is judged on instructions where valgrind counts them, else on the medians.
        r = m[("family_decode", f"family_{which}")] / m[("family_decode", f"variant_{which}")]
        verdict = f"<= 1.2 | {ok(r <= 1.2)}" if counts is None else "|"
        print(f"| family / variant decode, {which}: criterion medians | {r:.2f}x | {verdict} |")
        if which in blocks:
            family, variant = blocks[which]
            print(f"| family / variant decode, {which}: fastest blocks ({family:.1f} / {variant:.1f} ns) | {family / variant:.2f}x | | |")
        if counts is not None:
            family, variant = counts[f"family_{which}"], counts[f"variant_{which}"]
            r = family / variant
            print(f"| family / variant decode, {which}: instructions ({family:.0f} / {variant:.0f}) | {r:.2f}x | <= 1.2 | {ok(r <= 1.2)} |")
    for group, keys in [("to_item", "keys_encode"), ("from_item", "keys_decode")]:
        typed, plain, own = m[(group, "typed")], m[(group, "strings")], m[(group, keys)]
        allowed = 1.2 * plain + own
        print(f"| {group} typed / `String` keys | {typed / plain:.2f}x | <= 1.2x + keys ({allowed / plain:.2f}x) | {ok(typed <= allowed)} |")
    r = m[("key_attributes", "derive")] / m[("key_attributes", "hand")]
    print(f"| `key_attributes` / hand-written | {r:.2f}x | < 1 (at most 1.2) | {ok(r <= 1.2)} |")


if __name__ == "__main__":
    sys.exit(main())
