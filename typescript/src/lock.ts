/**
 * The lock and a key's versions (spec/SPEC.md, SK-LCK): its layouts by name, which are older
 * versions of which, reading a key by whichever live layout reads it, one condition on every
 * version, and the merge of their queries' keys.
 */

import { MAX_NANOS, UNIT_NANOS, compareKeys, decode, effectiveWidth, encode, nanosOf } from "./codec.js";
import type { Value } from "./codec.js";
import { DecodeError, LayoutError, LockError, QueryError } from "./errors.js";
import type { Field, Layout } from "./layout.js";
import { parse } from "./layout.js";
import { KeyCondition, Query } from "./query.js";

type End =
  | ["prefix"]
  | ["eq"]
  | ["compare", string, "<" | "<=" | ">" | ">=", unknown]
  | ["between", string, unknown, unknown]
  | ["textBeginsWith", string, string];

/**
 * A condition by field names, independent of any one layout: a family's variant, fields fixed in
 * order, then how it ends. {@link FieldCondition.on} makes it on one layout.
 */
export class FieldCondition {
  variant: string | null = null;
  fixed: [string, unknown][] = [];
  end: End = ["prefix"];

  fix(name: string, value: unknown): this {
    this.fixed.push([name, value]);
    return this;
  }
  compare(name: string, op: "<" | "<=" | ">" | ">=", value: unknown): this {
    this.end = ["compare", name, op, value];
    return this;
  }
  between(name: string, low: unknown, high: unknown): this {
    this.end = ["between", name, low, high];
    return this;
  }
  textBeginsWith(name: string, prefix: string): this {
    this.end = ["textBeginsWith", name, prefix];
    return this;
  }
  eq(): this {
    this.end = ["eq"];
    return this;
  }

  /**
   * The widest condition `layout` can express of this one (SK-LCK-003): its variant and the longest
   * run of the fixed fields it puts first, then every key with them; `null` when it can express
   * none or none of its keys can match.
   */
  widestOn(layout: Layout): KeyCondition | null {
    for (let n = this.fixed.length; n >= 0; n--) {
      const wider = new FieldCondition();
      wider.variant = this.variant;
      wider.fixed = this.fixed.slice(0, n);
      try {
        return wider.on(layout);
      } catch {
        continue;
      }
    }
    return null;
  }

  /** The condition on `layout` (SK-LCK-003): a bound it cannot hold clipped; `null` when none of its keys can match. */
  on(layout: Layout): KeyCondition | null {
    let q = new Query(layout);
    if (this.variant !== null) q = q.variant(this.variant);
    for (const [name, value] of this.fixed) {
      if (fit(q.nextField(), name, value) !== 0) return null;
      q = q.fix(name, value);
    }
    try {
      const end = this.end;
      switch (end[0]) {
        case "prefix":
          return q.beginsWith();
        case "eq":
          return q.eq();
        case "textBeginsWith":
          return q.textBeginsWith(end[1], end[2]);
        case "compare": {
          const [, name, op, value] = end;
          const at = fit(q.nextField(), name, value);
          if (at === 0) return q.compare(name, op, value);
          if ((op === ">" || op === ">=") === at > 0) return null;
          return q.beginsWith();
        }
        case "between": {
          const [, name, low, high] = end;
          const f = q.nextField();
          const lo = fit(f, name, low);
          const hi = fit(f, name, high);
          if (lo === 0 && hi === 0) return q.between(name, low, high);
          if (lo > 0 || hi < 0) return null;
          if (lo < 0 && hi > 0) return q.beginsWith();
          return lo < 0 ? q.compare(name, "<=", high) : q.compare(name, ">=", low);
        }
      }
    } catch (e) {
      if (e instanceof QueryError && e.kind === "EmptyRange") return null;
      throw e;
    }
  }
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** -1, 0 or 1: `value` below, within or above what the field `name` holds. */
function fit(f: Field | null, name: string, value: unknown): number {
  if (f === null || f.name !== name) return 0;
  let t = f.type;
  while (t.kind === "option") t = t.inner!;
  const w = effectiveWidth(f);
  const limitMax = (v: bigint): bigint => (f.max !== null ? minBig(v, f.max) : v);
  if (t.kind === "timestamp") {
    const nanos = nanosOf(value);
    if (nanos === null) return 0;
    const unit = UNIT_NANOS[f.unit ?? "s"]!;
    let largest = MAX_NANOS / unit;
    if (!f.rfc3339) largest = minBig(largest, pow10(w) - 1n);
    return nanos / unit > limitMax(largest) ? 1 : 0;
  }
  if (t.kind !== "u" && t.kind !== "i") return 0;
  let v: bigint;
  try {
    v = typeof value === "bigint" ? value : BigInt(value as string | number);
  } catch {
    return 0;
  }
  const bits = BigInt(t.bits || 64);
  let least = 0n;
  let largest: bigint;
  if (t.kind === "u") largest = minBig(2n ** bits - 1n, pow10(w) - 1n);
  else {
    const mag = pow10(Math.max(w - 1, 0)) - 1n;
    largest = minBig(mag, 2n ** (bits - 1n) - 1n);
    least = -minBig(mag, 2n ** (bits - 1n));
  }
  largest = limitMax(largest);
  return v < least ? -1 : v > largest ? 1 : 0;
}

/** A key read by a key's live layouts: its version (0 for the current layout), the layout's name, its value. */
export interface Read {
  version: number;
  layout: string;
  value: Value;
}

/** A merged result: the key, its version, and its key in the current layout. */
export interface Merged {
  key: string;
  version: number;
  currentKey: string;
}

/** The live layouts of one key, current first (SK-LCK-002..004). */
export class Live {
  constructor(readonly layouts: [string, Layout][]) {}

  /** The first live layout that reads `key`; the current layout's refusal when none does. */
  decodeAny(key: string): Read {
    for (const [version, [name, layout]] of this.layouts.entries()) {
      try {
        return { version, layout: name, value: decode(layout, key) };
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
      }
    }
    decode(this.layouts[0]![1], key);
    throw new Error("unreachable");
  }

  /**
   * `condition` on each layout; `null` for one none of whose keys can match. An older layout that
   * refuses it (its fields in another order) gets the widest condition it can express, and its keys
   * are held to the current condition in {@link Live.merge}.
   */
  conditions(condition: FieldCondition): (KeyCondition | null)[] {
    return this.layouts.map(([, layout], i) => {
      try {
        return condition.on(layout);
      } catch (e) {
        if (i === 0 || !(e instanceof QueryError)) throw e;
        return condition.widestOn(layout);
      }
    });
  }

  /** The keys each version's query returned (`pages[v]`), merged (SK-LCK-004): in the current layout's order, each once. */
  merge(conditions: (KeyCondition | null)[], pages: string[][], forward = true): Merged[] {
    const results: Merged[] = [];
    for (const page of pages) {
      for (const key of page) {
        let read: Read;
        try {
          read = this.decodeAny(key);
        } catch {
          continue;
        }
        const c = conditions[read.version] ?? null;
        if (c === null || !c.matches(key)) continue;
        let currentKey: string;
        try {
          currentKey = read.version === 0 ? key : encode(this.layouts[0]![1], read.value);
        } catch {
          continue;
        }
        // An older key is also held to the current condition, through its current key.
        const current = conditions[0] ?? null;
        if (read.version > 0 && (current === null || !current.matches(currentKey))) continue;
        results.push({ key, version: read.version, currentKey });
      }
    }
    results.sort((a, b) => compareKeys(a.currentKey, b.currentKey) || a.version - b.version);
    const unique = results.filter((r, i) => i === 0 || results[i - 1]!.currentKey !== r.currentKey);
    return forward ? unique : unique.reverse();
  }
}

/** A lock file's layouts by name, its version lines and its table lines (SK-LCK-001). */
export class Lock {
  constructor(
    readonly layouts: Map<string, Layout>,
    readonly versions: string[][],
    readonly tables: [string, string, string[]][],
    /** `rank Layout.field levels=N` lines: the layouts keeping rank counters. */
    readonly ranks: [string, string, number][] = [],
  ) {}

  static parse(text: string): Lock {
    const layouts = new Map<string, Layout>();
    const chains: [number, string][] = [];
    const tables: [number, string][] = [];
    const ranks: [number, string][] = [];
    text.split(/\r?\n/).forEach((line, index) => {
      const i = index + 1;
      if (line.trim() === "") return;
      if (line.startsWith("table ")) tables.push([i, line.slice(6)]);
      else if (line.startsWith("rank ")) ranks.push([i, line.slice(5)]);
      else if (line.includes(" = ")) {
        const at = line.indexOf(" = ");
        const name = line.slice(0, at);
        let layout: Layout;
        try {
          layout = parse(line.slice(at + 3));
        } catch (e) {
          if (e instanceof LayoutError) throw new LockError(i, `expected ${e.expected}, found ${e.found}`);
          throw e;
        }
        layout.name = name;
        layouts.set(name, layout);
      } else if (line.includes(" > ")) chains.push([i, line]);
      else throw new LockError(i, "expected `name = layout`, `Current > Older`, `table TABLE ATTRIBUTE: Name` or `rank Name.field levels=N`");
    });
    const lock = new Lock(layouts, [], []);
    const seen: string[] = [];
    const check = (i: number, names: string[]): void => {
      for (const name of names) {
        const layout = layouts.get(name);
        if (layout === undefined) throw new LockError(i, `\`${name}\` is no layout of the lock`);
        if (layout.partition !== layouts.get(names[0]!)!.partition) throw new LockError(i, `\`${name}\` is of another role than \`${names[0]}\``);
      }
    };
    for (const [i, line] of chains) {
      const names = line.split(" > ");
      check(i, names);
      for (const name of names) {
        if (seen.includes(name) || names.filter((n) => n === name).length > 1) throw new LockError(i, `\`${name}\` is in a version line already`);
      }
      seen.push(...names);
      lock.versions.push(names);
    }
    for (const [i, rest] of tables) {
      const at = rest.indexOf(": ");
      const head = at >= 0 ? rest.slice(0, at) : rest;
      const space = head.indexOf(" ");
      if (at < 0 || space <= 0 || space === head.length - 1) throw new LockError(i, "expected `table TABLE ATTRIBUTE: Name, Other`");
      const names = rest.slice(at + 2).split(", ");
      check(i, names);
      lock.tables.push([head.slice(0, space), head.slice(space + 1), names]);
    }
    for (const [i, rest] of ranks) {
      const match = /^([^.\s]+)\.(\S+) levels=(\d+)$/.exec(rest);
      if (match === null) throw new LockError(i, `expected \`rank Layout.field levels=N\`, found \`rank ${rest}\``);
      const [, name, field, levels] = match;
      check(i, [name!]);
      lock.ranks.push([name!, field!, Number(levels)]);
    }
    return lock;
  }

  /** The layout named `name`. */
  get(name: string): Layout {
    const layout = this.layouts.get(name);
    if (layout === undefined) throw new RangeError(`no layout ${name} in the lock`);
    return layout;
  }

  /** The live layouts of `name`'s key, current first, then its older versions newest first. */
  live(name: string): Live {
    const chain = this.versions.find((c) => c.includes(name)) ?? [name];
    return new Live(chain.map((n) => [n, this.get(n)]));
  }
}
