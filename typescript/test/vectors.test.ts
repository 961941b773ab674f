/**
 * Every vector of spec/vectors/v2, read by this package: the same keys, values, refusals (kind,
 * field, offset), conditions, versions and shards as the Rust crates give. Writes each vector's
 * result to target/spec/typescript.json for spec/coverage.py.
 */

import assert from "node:assert/strict";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

import {
  DecodeError, EncodeError, FieldCondition, KeyCondition, LayoutError, Lock, LockError, Query, QueryError,
  decode, encode, fnv1a64, layoutText, parse, partitionKey, shardOf,
} from "../src/index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const dir = join(root, "spec", "vectors", "v2");

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Vector = { [k: string]: Json };

const OUTPUTS: Record<string, string[]> = {
  layouts: ["printed", "error"],
  encode: ["key", "error"],
  decode: ["fields", "error"],
  conditions: ["condition", "error"],
  versions: ["version", "layout", "fields", "error", "conditions", "results"],
  shards: ["fnv1a64", "shard"],
  partitions: ["key", "error"],
};

/** Values compared as JSON values: integers by value (bigint, number or digits), floats by their bits. */
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  if (typeof a === "bigint" || typeof b === "bigint") {
    try {
      return BigInt(a as string) === BigInt(b as string);
    } catch {
      return false;
    }
  }
  if (typeof a === "number" && typeof b === "number") return Object.is(a, b) || (a === b && a !== 0);
  return a === b;
}

function conditionJson(c: KeyCondition): Json {
  const e = c.expression("pk", "P", "sk");
  const values: Record<string, Json> = {};
  for (const [k, v] of Object.entries(e.ExpressionAttributeValues)) values[k] = v.S;
  return { op: c.op, values: [...c.values], expression: e.KeyConditionExpression, names: e.ExpressionAttributeNames, expression_values: values };
}

function stepsQuery(q: Query, steps: Json[][]): KeyCondition {
  for (const step of steps) {
    const [op, a, b, c] = step as [string, string, unknown, unknown];
    if (op === "variant") q = q.variant(a);
    else if (op === "fix") q = q.fix(a, b);
    else if (op === "compare") return q.compare(a, b as "<", c);
    else if (op === "between") return q.between(a, b, c);
    else if (op === "text_begins_with") return q.textBeginsWith(a, b as string);
    else if (op === "begins_with") return q.beginsWith();
    else if (op === "eq") return q.eq();
  }
  throw new Error("a query ends with a condition");
}

function answer(kind: string, v: Vector): unknown {
  switch (kind) {
    case "layouts":
      try {
        return { printed: layoutText(parse(v.text as string)) };
      } catch (e) {
        if (e instanceof LayoutError) return { error: { offset: e.offset } };
        throw e;
      }
    case "encode":
      try {
        return { key: encode(parse(v.layout as string), v.fields) };
      } catch (e) {
        if (e instanceof EncodeError) return { error: { kind: e.kind, field: e.field } };
        throw e;
      }
    case "decode":
      try {
        return { fields: decode(parse(v.layout as string), v.key as string) };
      } catch (e) {
        if (e instanceof DecodeError) return { error: { kind: e.kind, field: e.field, offset: e.offset } };
        throw e;
      }
    case "conditions":
      try {
        return { condition: conditionJson(stepsQuery(new Query(parse(v.layout as string)), v.steps as Json[][])) };
      } catch (e) {
        if (e instanceof QueryError) return { error: { kind: e.kind, field: e.field } };
        throw e;
      }
    case "versions": {
      let lock: Lock;
      try {
        lock = Lock.parse(v.lock as string);
      } catch (e) {
        if (e instanceof LockError) return { error: { line: e.line } };
        throw e;
      }
      const live = lock.live(v.name as string);
      if ("key" in v) {
        try {
          const read = live.decodeAny(v.key as string);
          return { version: read.version, layout: read.layout, fields: read.value };
        } catch (e) {
          if (e instanceof DecodeError) return { error: { kind: e.kind, field: e.field, offset: e.offset } };
          throw e;
        }
      }
      const fc = new FieldCondition();
      for (const step of v.condition as Json[][]) {
        const [op, a, b, c] = step as [string, string, unknown, unknown];
        if (op === "fix") fc.fix(a, b);
        else if (op === "compare") fc.compare(a, b as "<", c);
        else if (op === "between") fc.between(a, b, c);
      }
      const conditions = live.conditions(fc);
      const out: Record<string, unknown> = { conditions: conditions.map((c) => (c === null ? null : conditionJson(c))) };
      if ("merge" in v) {
        out.results = live.merge(conditions, v.merge as string[][]).map((r) => ({ key: r.key, version: r.version, current_key: r.currentKey }));
      }
      return out;
    }
    case "partitions":
      try {
        return { key: partitionKey(parse(v.partition as string), parse(v.sort as string), v.fields as Record<string, unknown>, v.sort_key as string) };
      } catch (e) {
        if (e instanceof DecodeError) return { error: { kind: e.kind, field: e.field, offset: e.offset } };
        throw e;
      }
    case "shards":
      return { fnv1a64: fnv1a64(v.bytes as string).toString(16).padStart(16, "0"), shard: shardOf(v.bytes as string, v.count as number) };
  }
  throw new Error(kind);
}

const results: Record<string, boolean> = {};

for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
  const doc = JSON.parse(readFileSync(join(dir, file), "utf-8")) as { kind: string; vectors: Vector[] };
  for (const v of doc.vectors) {
    test(v.id as string, () => {
      const got = answer(doc.kind, v);
      const expected: Record<string, unknown> = {};
      for (const k of OUTPUTS[doc.kind]!) if (k in v) expected[k] = v[k];
      const passed = same(got, expected);
      results[v.id as string] = passed;
      assert.ok(passed, `${String(v.id)}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got, (_, x) => (typeof x === "bigint" ? `${x}n` : x))}`);
    });
  }
}

after(() => {
  const target = join(root, "target", "spec");
  mkdirSync(target, { recursive: true });
  writeFileSync(join(target, "typescript.json"), JSON.stringify(results, null, 1) + "\n");
});
