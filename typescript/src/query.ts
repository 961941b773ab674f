/**
 * Key conditions (spec/SPEC.md, SK-QRY): a builder that fixes fields in order by name and ends
 * with a range, a prefix or equality, and the condition as DynamoDB's `KeyConditionExpression`.
 */

import type { AttributeValue } from "./attributes.js";
import { MAX_NANOS, UNIT_NANOS, compareKeys, encodeSigned, encodeType, encodeUnsigned, rfc3339, specOf } from "./codec.js";
import type { Spec } from "./codec.js";
import { EncodeError, QueryError } from "./errors.js";
import type { Field, Key, Layout, Type } from "./layout.js";
import { PARTITION_LIMIT, SORT_LIMIT, byteLength } from "./layout.js";

/** The shape of a condition: DynamoDB's seven. */
export type Op = "=" | "<" | "<=" | ">" | ">=" | "between" | "begins_with";

/** The inputs of a Query's key condition, as `QueryCommand` of `@aws-sdk/client-dynamodb` takes them. */
export interface KeyConditionInput {
  KeyConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, AttributeValue>;
}

/** One of DynamoDB's sort key conditions, with one value (two for "between", low first). */
export class KeyCondition {
  constructor(
    readonly op: Op,
    readonly values: readonly string[],
  ) {}

  /** Whether `key` satisfies the condition, comparing UTF-8 bytes as DynamoDB does. */
  matches(key: string): boolean {
    const [a = "", b = ""] = this.values;
    switch (this.op) {
      case "=":
        return compareKeys(key, a) === 0;
      case "<":
        return compareKeys(key, a) < 0;
      case "<=":
        return compareKeys(key, a) <= 0;
      case ">":
        return compareKeys(key, a) > 0;
      case ">=":
        return compareKeys(key, a) >= 0;
      case "between":
        return compareKeys(a, key) <= 0 && compareKeys(key, b) <= 0;
      case "begins_with":
        // A prefix of code units (of whole characters) is a prefix of UTF-8 bytes.
        return key.startsWith(a);
    }
  }

  /** As the Rust crates show it: `sk BETWEEN "low" AND "high"`, `begins_with(sk, "RUN#")`. */
  toString(): string {
    const q = this.values.map(quoted);
    if (this.op === "between") return `sk BETWEEN ${q[0]} AND ${q[1]}`;
    if (this.op === "begins_with") return `begins_with(sk, ${q[0]})`;
    return `sk ${this.op} ${q[0]}`;
  }

  /**
   * The Query's key condition on partition `partitionValue` of attribute `partitionAttribute` and
   * this condition on `sortAttribute`: `new QueryCommand({ TableName, ...condition.expression("pk", "SEASON#7", "sk") })`.
   */
  expression(partitionAttribute: string, partitionValue: string, sortAttribute: string): KeyConditionInput {
    const sk: Record<Op, string> = {
      "=": "#sk = :sk0", "<": "#sk < :sk0", "<=": "#sk <= :sk0", ">": "#sk > :sk0", ">=": "#sk >= :sk0",
      between: "#sk BETWEEN :sk0 AND :sk1", begins_with: "begins_with(#sk, :sk0)",
    };
    const values: Record<string, AttributeValue> = { ":pk": { S: partitionValue } };
    this.values.forEach((v, i) => (values[`:sk${i}`] = { S: v }));
    return {
      KeyConditionExpression: `#pk = :pk AND ${sk[this.op]}`,
      ExpressionAttributeNames: { "#pk": partitionAttribute, "#sk": sortAttribute },
      ExpressionAttributeValues: values,
    };
  }
}

/** `s` quoted as Rust's `{:?}` quotes a string (escapes for quotes, backslashes and controls). */
function quoted(s: string): string {
  let out = '"';
  for (const c of s) {
    const code = c.codePointAt(0)!;
    if (c === '"' || c === "\\") out += "\\" + c;
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (c === "\0") out += "\\0";
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += c;
  }
  return out + '"';
}

function pushGreatest(n: number): string {
  return "\u{10FFFF}".repeat(Math.floor(n / 4)) + (["", "\x7F", "\u07FF", "\uFFFF"][n % 4] ?? "");
}

function nextChar(c: number): number | null {
  if (c === 0xd7ff) return 0xe000;
  return c + 1 <= 0x10ffff ? c + 1 : null;
}

function previousChar(c: number): number {
  if (c === 0xe000) return 0xd7ff;
  return c > 0 ? c - 1 : 0;
}

function leastAtOrAbove(s: string, limit: number): string | null {
  if (byteLength(s) <= limit) return s;
  const chars = [...s];
  for (let i = chars.length - 1; i >= 0; i--) {
    const next = nextChar(chars[i]!.codePointAt(0)!);
    if (next === null) continue;
    const head = chars.slice(0, i).join("");
    const c = String.fromCodePoint(next);
    if (byteLength(head) + byteLength(c) <= limit) return head + c;
  }
  return null;
}

function greatestAtOrBelow(s: string, limit: number): string {
  if (byteLength(s) <= limit) return s;
  let out = "";
  let used = 0;
  for (const c of s) {
    const n = byteLength(c);
    if (used + n > limit) break;
    out += c;
    used += n;
  }
  return out + pushGreatest(limit - used);
}

function encodeError(e: EncodeError): QueryError {
  return new QueryError(`Encode:${e.kind}`, e.field, e.message);
}

function lastChar(s: string): [string, string] {
  const chars = [...s];
  const last = chars.pop() ?? "";
  return [chars.join(""), last];
}

function successor(s: string, spec: Spec): string {
  if (spec.width > 0 && s !== "") {
    const [head, last] = lastChar(s);
    return head + String.fromCodePoint(last.codePointAt(0)! + 1);
  }
  return s + "\0";
}

function predecessor(s: string, spec: Spec, maxLen: number): string {
  if (s === "") return s;
  const [head, last] = lastChar(s);
  const code = last.codePointAt(0)!;
  if (spec.width > 0) return head + (code > 0 ? String.fromCodePoint(code - 1) : last);
  if (code === 0) return head;
  const out = head + String.fromCodePoint(previousChar(code));
  return out + pushGreatest(Math.max(maxLen - byteLength(out), 0));
}

/** The fixed part of a condition: the encoded prefix and fields so far. */
class Head {
  head: string | EncodeError;
  segments: number;
  readonly maxLen: number;

  constructor(
    prefix: string | null,
    readonly sep: string,
    maxLen: number,
    partition: boolean,
  ) {
    this.head = prefix ?? "";
    this.segments = prefix !== null ? 1 : 0;
    this.maxLen = Math.min(maxLen, partition ? PARTITION_LIMIT : SORT_LIMIT);
  }

  fix(write: () => string): void {
    if (this.head instanceof EncodeError) return;
    const piece = this.segments > 0 ? this.sep : "";
    this.segments += 1;
    try {
      this.head = this.head + piece + write();
    } catch (e) {
      if (!(e instanceof EncodeError)) throw e;
      this.head = e;
    }
  }

  openHead(): string {
    if (this.head instanceof EncodeError) throw encodeError(this.head);
    return this.head + (this.segments > 0 ? this.sep : "");
  }

  succSep(): string {
    return String.fromCharCode(this.sep.charCodeAt(0) + 1);
  }

  lower(q: string, e: string, cmp: Op, spec: Spec): string {
    const s = q + e;
    if (cmp === ">=") return s;
    return spec.last ? successor(s, spec) : s + this.succSep();
  }

  upper(q: string, e: string, cmp: Op, spec: Spec): string {
    const s = q + e;
    if (cmp === "<=") return spec.last ? s : s + this.succSep();
    return spec.last ? predecessor(s, spec, this.maxLen) : s;
  }

  oneSided(cmp: Op, e: string, spec: Spec): KeyCondition {
    if (cmp === ">=" || cmp === "<" || spec.last) return new KeyCondition(cmp, [e]);
    return new KeyCondition(cmp === ">" ? ">=" : "<", [e + this.succSep()]);
  }

  noEmptyBound(c: KeyCondition, spec: Spec): KeyCondition {
    if (c.values[0] === "" && (c.op === ">=" || c.op === ">")) throw new QueryError("MatchesEverything", spec.name, "the condition matches every key");
    if (c.values[0] === "" && (c.op === "<" || c.op === "<=")) throw new QueryError("EmptyRange", spec.name, "the condition matches no key");
    return c;
  }

  betweenChecked(low: string, high: string, spec: Spec): KeyCondition {
    if (compareKeys(low, high) > 0) throw new QueryError("EmptyRange", spec.name, "the range is empty");
    return this.withinLimit(new KeyCondition("between", [low, high]), spec.name);
  }

  withinLimit(c: KeyCondition, field: string | null): KeyCondition {
    const limit = this.maxLen;
    if (Math.max(...c.values.map(byteLength)) <= limit) return c;
    const empty = (): QueryError => new QueryError("EmptyRange", field, "no key of at most the limit lies in the range");
    const [a = "", b = ""] = c.values;
    switch (c.op) {
      case "=":
        throw new QueryError("Encode:TooLong", null, "the key is longer than a key may be");
      case "begins_with":
        throw empty();
      case ">=":
      case ">": {
        const v = leastAtOrAbove(a, limit);
        if (v === null) throw empty();
        return new KeyCondition(">=", [v]);
      }
      case "<=":
      case "<":
        return new KeyCondition("<=", [greatestAtOrBelow(a, limit)]);
      case "between": {
        const lo = leastAtOrAbove(a, limit);
        if (lo === null) throw empty();
        const hi = greatestAtOrBelow(b, limit);
        if (compareKeys(lo, hi) > 0) throw empty();
        return new KeyCondition("between", [lo, hi]);
      }
    }
  }

  beginsWith(): KeyCondition {
    const q = this.openHead();
    if (this.segments === 0) throw new QueryError("MatchesEverything", null, "the condition matches every key");
    return this.withinLimit(new KeyCondition("begins_with", [q]), null);
  }

  eq(): KeyCondition {
    if (this.head instanceof EncodeError) throw encodeError(this.head);
    if (this.head === "") throw new QueryError("Encode:Empty", null, "the key would be empty");
    return this.withinLimit(new KeyCondition("=", [this.head]), null);
  }

  textBeginsWith(prefix: string, spec: Spec, write: () => string): KeyCondition {
    let q = this.openHead();
    try {
      q += write();
    } catch (e) {
      if (e instanceof EncodeError) throw encodeError(e);
      throw e;
    }
    if (q === "") throw new QueryError("MatchesEverything", spec.name, "the condition matches every key");
    void prefix;
    return this.withinLimit(new KeyCondition("begins_with", [q]), spec.name);
  }

  compare(cmp: Op, spec: Spec, bounded: Bounded | null, write: () => string): KeyCondition {
    const q = this.openHead();
    let e: string;
    try {
      e = write();
    } catch (err) {
      if (err instanceof EncodeError) throw encodeError(err);
      throw err;
    }
    if (spec.desc) cmp = ({ "<": ">", "<=": ">=", ">": "<", ">=": "<=" } as Record<string, Op>)[cmp]!;
    const end = cmp === "<" ? "least" : cmp === ">" ? "greatest" : null;
    if (end !== null && bounded !== null) {
      const written = endOf(bounded, spec, end);
      if (written !== null && written === e) throw new QueryError("EmptyRange", spec.name, "the range is past the end of the field's values");
    }
    if (this.segments === 0) return this.withinLimit(this.noEmptyBound(this.oneSided(cmp, e, spec), spec), spec.name);
    if (cmp === ">=" || cmp === ">") return this.betweenChecked(this.lower(q, e, cmp, spec), q.slice(0, -1) + this.succSep(), spec);
    return this.betweenChecked(q, this.upper(q, e, cmp, spec), spec);
  }

  between(spec: Spec, lowWrite: () => string, highWrite: () => string): KeyCondition {
    const q = this.openHead();
    let lo: string;
    let hi: string;
    try {
      lo = lowWrite();
      hi = highWrite();
    } catch (err) {
      if (err instanceof EncodeError) throw encodeError(err);
      throw err;
    }
    if (spec.desc) [lo, hi] = [hi, lo];
    const low = q + lo;
    const high = this.upper(q, hi, "<=", spec);
    if (low === "") return this.withinLimit(this.noEmptyBound(new KeyCondition("<=", [high]), spec), spec.name);
    return this.betweenChecked(low, high, spec);
  }
}

interface Bounded {
  kind: string;
  bits: number;
  options: number;
}

function boundedOf(t: Type): Bounded | null {
  let options = 0;
  while (t.kind === "option") {
    options++;
    t = t.inner!;
  }
  if (["u", "i", "bool", "timestamp"].includes(t.kind)) return { kind: t.kind, bits: t.bits, options };
  if (t.kind === "decimal") return { kind: "decimal", bits: 0, options };
  return null;
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** The encoding of a field's least or greatest value. */
function endOf(b: Bounded, spec: Spec, end: "least" | "greatest"): string | null {
  let out = "";
  if (b.options > 0) {
    if (end === "least") return "0";
    out = "1".repeat(b.options);
  }
  const greatestValue = (end === "greatest") !== spec.desc;
  try {
    if (b.kind === "u") {
      let greatest = minBig(2n ** BigInt(b.bits || 64) - 1n, pow10(spec.width) - 1n);
      if (spec.max !== null) greatest = minBig(greatest, spec.max);
      return out + encodeUnsigned(greatestValue ? greatest : 0n, spec);
    }
    if (b.kind === "i" || b.kind === "decimal") {
      const magnitude = pow10(Math.max(spec.width - 1, 0)) - 1n;
      // A decimal is written as its scaled integer, whose magnitude is at most a mantissa.
      const mantissa = 2n ** 96n - 1n;
      const typeMax = b.kind === "decimal" ? mantissa : 2n ** BigInt((b.bits || 64) - 1) - 1n;
      const typeLeast = b.kind === "decimal" ? mantissa : typeMax + 1n;
      let v: bigint;
      if (greatestValue) {
        v = minBig(magnitude, typeMax);
        if (spec.max !== null) v = minBig(v, spec.max);
      } else v = -minBig(magnitude, typeLeast);
      return out + encodeSigned(v, spec);
    }
    if (b.kind === "bool") return out + (greatestValue !== spec.desc ? "1" : "0");
    const unit = UNIT_NANOS[spec.unit]!;
    let nanos = 0n;
    if (greatestValue) {
      const inRange = MAX_NANOS / unit;
      let count = spec.rfc3339 ? inRange : minBig(inRange, pow10(spec.width) - 1n);
      if (spec.max !== null) count = minBig(count, spec.max);
      nanos = count * unit;
    }
    return out + (spec.rfc3339 ? rfc3339(nanos, spec.unit) : encodeUnsigned(nanos / unit, spec));
  } catch (e) {
    if (e instanceof EncodeError) return null;
    throw e;
  }
}

/**
 * A condition being built on a layout: `fix` fields in order by name, then end with `compare`,
 * `between`, `textBeginsWith`, `beginsWith` or `eq`. A family picks its `variant` first. A
 * mistake is kept and thrown by the method that ends the query.
 */
export class Query {
  private family: (string | Key)[] | null;
  key: Key | null;
  fixed = 0;
  private head: Head;
  private error: QueryError | null = null;

  constructor(readonly layout: Layout) {
    this.family = layout.key.variants;
    this.key = this.family !== null ? null : layout.key;
    this.head = new Head(this.key?.prefix ?? null, layout.key.separator, layout.maxLen, layout.partition);
  }

  private keep(e: QueryError): this {
    this.error ??= e;
    return this;
  }

  /** Picks the family's variant: a unit variant's literal or a keyed variant's prefix. */
  variant(name: string): this {
    const variants = this.family;
    this.family = null;
    if (variants === null) return this.keep(new QueryError("OutOfOrder", null, "a field of the key, which is no family"));
    for (const v of variants) {
      if (typeof v === "string" && v === name) {
        this.head = new Head(name, "#", SORT_LIMIT, this.layout.partition);
        this.key = { prefix: null, separator: "#", fields: [], variants: null, custom: false };
        return this;
      }
      if (typeof v !== "string" && v.prefix === name) {
        this.head = new Head(v.prefix, v.separator, SORT_LIMIT, this.layout.partition);
        this.key = v;
        return this;
      }
    }
    return this.keep(new QueryError("OutOfOrder", null, `no variant ${name}`));
  }

  private checked(): void {
    if (this.error !== null) throw this.error;
    if (this.family !== null) throw new QueryError("OutOfOrder", null, "a variant first");
  }

  /** The field the next `fix` or range takes, if any. */
  nextField(): Field | null {
    return this.key !== null ? (this.key.fields[this.fixed] ?? null) : null;
  }

  private next(name: string): [Field, Spec] {
    if (this.key === null) throw new QueryError("OutOfOrder", name, "a variant of the family first");
    const fields = this.key.fields;
    const f = fields[this.fixed];
    if (f !== undefined && f.name === name) return [f, specOf(this.layout.name, f, this.key.separator, this.fixed + 1 === fields.length)];
    throw new QueryError("OutOfOrder", name, f !== undefined ? `field \`${f.name}\` next` : "no more fields");
  }

  private range(name: string): [Field, Spec] {
    this.checked();
    const found = this.next(name);
    if (this.layout.partition) throw new QueryError("NotASortKey", name, "a range on a partition key");
    return found;
  }

  /** Fixes the next field, `name`, to `value`. */
  fix(name: string, value: unknown): this {
    let found: [Field, Spec];
    try {
      found = this.next(name);
    } catch (e) {
      if (e instanceof QueryError) return this.keep(e);
      throw e;
    }
    const [f, spec] = found;
    this.fixed += 1;
    this.head.fix(() => encodeType(value, f.type, spec));
    return this;
  }

  /** The keys whose field `name` is `op` ("<", "<=", ">", ">=") `value`. */
  compare(name: string, op: "<" | "<=" | ">" | ">=", value: unknown): KeyCondition {
    const [f, spec] = this.range(name);
    return this.head.compare(op, spec, boundedOf(f.type), () => encodeType(value, f.type, spec));
  }

  /** The keys whose field `name` is from `low` to `high`, both included. */
  between(name: string, low: unknown, high: unknown): KeyCondition {
    const [f, spec] = this.range(name);
    return this.head.between(spec, () => encodeType(low, f.type, spec), () => encodeType(high, f.type, spec));
  }

  /** The keys whose text field `name` starts with `prefix`. */
  textBeginsWith(name: string, prefix: string): KeyCondition {
    const [f, spec] = this.range(name);
    if (f.type.kind !== "text") throw new QueryError("Encode:Mismatch", name, "a `text` field for a prefix");
    return this.head.textBeginsWith(prefix, spec, () => encodeType(prefix, f.type, spec));
  }

  /** Every key under the fields fixed so far. */
  beginsWith(): KeyCondition {
    this.checked();
    if (this.key !== null && this.fixed >= this.key.fields.length) return this.head.eq();
    if (this.layout.partition) throw new QueryError("NotASortKey", null, "a prefix of a partition key");
    return this.head.beginsWith();
  }

  /** The one key whose fields are all fixed. */
  eq(): KeyCondition {
    this.checked();
    const f = this.nextField();
    if (f !== null) throw new QueryError("OutOfOrder", null, `field \`${f.name}\``);
    return this.head.eq();
  }
}
