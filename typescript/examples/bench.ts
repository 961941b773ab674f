/**
 * The TypeScript reader's speed against a hand-written `split` (BENCHMARKS.md, for
 * information): decoding and encoding 10,000 of the leaderboard's RankKey keys.
 *
 *     node dist/examples/bench.js
 */

import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";

import { decode, encode, parse } from "../src/index.js";

const layout = parse("RUN#{score:u64 width=10 desc}#{timestamp:u64 width=16}#{player_id:text}");
const runs = Array.from({ length: 10_000 }, (_, i) => ({
  score: BigInt((i * 7919) % 2000),
  timestamp: BigInt(1719100800 + ((i * 104729) % 86400)),
  player_id: `p_${i}`,
}));
const keys = runs.map((r) => encode(layout, r));

/** What a service writes without the spec: split, and undo the complement. No checks. */
function byHandDecode(key: string): { score: bigint; timestamp: bigint; player_id: string } {
  const [, score, timestamp, ...player] = key.split("#");
  return { score: 9_999_999_999n - BigInt(score!), timestamp: BigInt(timestamp!), player_id: player.join("#") };
}

function byHandEncode(r: { score: bigint; timestamp: bigint; player_id: string }): string {
  return `RUN#${(9_999_999_999n - r.score).toString().padStart(10, "0")}#${r.timestamp.toString().padStart(16, "0")}#${r.player_id}`;
}

function perKey<T>(f: (x: T) => unknown, items: T[]): number {
  let best = Infinity;
  for (let round = 0; round < 7; round++) {
    const start = performance.now();
    for (const x of items) f(x);
    best = Math.min(best, performance.now() - start);
  }
  return (best / items.length) * 1e6;
}

assert.deepEqual(keys.map(byHandDecode), keys.map((k) => decode(layout, k)));
assert.deepEqual(runs.map(byHandEncode), keys);
const rows: [string, number, number][] = [
  ["decode", perKey((k: string) => decode(layout, k), keys), perKey(byHandDecode, keys)],
  ["encode", perKey((r: (typeof runs)[number]) => encode(layout, r), runs), perKey(byHandEncode, runs)],
];
console.log("| TypeScript (Node 20) | sortkey | by hand (split, template) | ratio |");
console.log("|---|---|---|---|");
for (const [name, ours, theirs] of rows) {
  console.log(`| ${name} a RankKey | ${(ours / 1000).toFixed(1)} us | ${(theirs / 1000).toFixed(2)} us | ${Math.round(ours / theirs)}x |`);
}
