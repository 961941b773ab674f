/**
 * A read across versions whose oldest layout puts its fields in another order (SK-LCK-003,
 * SK-LCK-004): no condition on the score can be said of it, so it is read by the widest condition
 * it can express and its keys are held to the current condition. Every run the condition selects
 * is a result, once, whatever layout holds it.
 */

import assert from "node:assert/strict";
import { test } from "node:test";

import { FieldCondition, Lock, compareKeys, encode } from "../src/index.js";

const LOCK = `Rank = RUN#{score:u64 width=12 desc}#{player:text}
Rank@v1 = RUN#{score:u64 width=7}#{player:text}
Rank@v0 = BY#{player:text}#{score:u64 width=7}
Rank > Rank@v1 > Rank@v0
`;

test("an older layout in another field order is read and held to the condition", () => {
  const lock = Lock.parse(LOCK);
  const live = lock.live("Rank");
  const names = ["Rank", "Rank@v1", "Rank@v0"];
  const runs = Array.from({ length: 90 }, (_, i) => ({
    score: BigInt(((i * 37) % 500) * 1000),
    player: `p_${String(i).padStart(2, "0")}`,
  }));
  const stored: string[] = [];
  runs.forEach((run, i) => {
    stored.push(encode(lock.get(names[i % 3]!), run));
    if (i % 10 === 0 && i % 3 !== 0) stored.push(encode(lock.get("Rank"), run));
  });
  stored.sort(compareKeys);
  const conditions = [
    new FieldCondition(),
    new FieldCondition().compare("score", ">=", 200_000n),
    new FieldCondition().between("score", 120_000n, 340_000n),
    new FieldCondition().fix("score", 74_000n).textBeginsWith("player", "p_0"),
  ];
  for (const condition of conditions) {
    const perVersion = live.conditions(condition);
    assert.notEqual(perVersion[2], null, "the oldest layout is read");
    // Each version's Query: the keys of the partition its condition selects.
    const pages = perVersion.map((c) => stored.filter((k) => c !== null && c.matches(k)));
    const current = perVersion[0]!;
    const want = runs.map((r) => encode(lock.get("Rank"), r)).filter((k) => current.matches(k)).sort(compareKeys);
    assert.ok(want.length > 0, "the condition selects some runs");
    const merged = live.merge(perVersion, pages);
    assert.deepEqual(merged.map((m) => m.currentKey), want, JSON.stringify(condition.end, (_, v) => typeof v === "bigint" ? `${v}` : v));
    assert.ok(merged.some((m) => m.version === 2), "a run of the oldest layout is a result");
  }
});

test("a lock names the layouts that keep rank counters", () => {
  const lock = Lock.parse("RankKey = RUN#{score:u64 width=10 desc}#{player:text}\nrank RankKey.score levels=4\n");
  assert.deepEqual(lock.ranks, [["RankKey", "score", 4]]);
  assert.throws(() => Lock.parse("rank Nope.score levels=4\n"), /`Nope` is no layout of the lock/);
  assert.throws(
    () => Lock.parse("RankKey = RUN#{score:u64 width=10}\nrank RankKey levels=4\n"),
    /expected `rank Layout.field levels=N`/,
  );
});
