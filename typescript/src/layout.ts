/**
 * Layout texts (spec/SPEC.md, SK-LAY): the model and its parser. A text the grammar does not
 * allow is a {@link LayoutError} at the byte where it leaves the grammar.
 */

import { LayoutError } from "./errors.js";

/** A field's type. `kind` is "u", "i", "f" (with `bits`, 0 for usize/isize), a named type, "option", "enum" or "key". */
export interface Type {
  kind: string;
  bits: number;
  inner?: Type;
  names?: string[];
  key?: Key;
}

/** A shard field's count and rule: `by` a sort key field's name, or `null` for random. */
export interface Shards {
  count: number;
  by: string | null;
}

/** A field as the text gives it (`width` 0 when not given). */
export interface Field {
  name: string;
  type: Type;
  width: number;
  desc: boolean;
  max: bigint | null;
  unit: string | null;
  rfc3339: boolean;
  hex: boolean;
  scale: number | null;
  shards: Shards | null;
}

/** A key: its prefix and separator, and its fields, or a family's variants, or a custom segment. */
export interface Key {
  prefix: string | null;
  separator: string;
  fields: Field[];
  variants: (string | Key)[] | null;
  custom: boolean;
  /** The fields' segment specs, worked out once per key name and place by the codec. */
  specs?: Map<string, unknown[]>;
}

/** A parsed layout: its role, its longest key in bytes, its key, and the name its errors give it. */
export interface Layout {
  partition: boolean;
  maxLen: number;
  key: Key;
  name: string;
}

const NUMBERS: Record<string, [string, number]> = {
  usize: ["u", 0], isize: ["i", 0],
  u128: ["u", 128], u64: ["u", 64], u32: ["u", 32], u16: ["u", 16], u8: ["u", 8],
  i128: ["i", 128], i64: ["i", 64], i32: ["i", 32], i16: ["i", 16], i8: ["i", 8],
  f32: ["f", 32], f64: ["f", 64],
};
const NAMED = ["bool", "char", "text", "timestamp", "uuid", "ulid", "decimal", "custom"];
const UNITS = ["s", "ms", "us", "ns"];
export const SORT_LIMIT = 1024;
export const PARTITION_LIMIT = 2048;
const SHARDS_MAX = 1000;

const utf8 = new TextEncoder();
/** The length of `s` in UTF-8 bytes. */
export function byteLength(s: string): number {
  return utf8.encode(s).length;
}

function isPunct(c: string | undefined): boolean {
  return c !== undefined && c.length === 1 && /^[!-/:-@[-`{-~]$/.test(c);
}

export function typeText(t: Type): string {
  if ((t.kind === "u" || t.kind === "i") && t.bits === 0) return t.kind === "u" ? "usize" : "isize";
  if (t.kind === "u" || t.kind === "i" || t.kind === "f") return `${t.kind}${t.bits}`;
  if (t.kind === "option") return `option<${typeText(t.inner!)}>`;
  if (t.kind === "enum") return `enum(${t.names!.join("|")})`;
  if (t.kind === "key") return `key(${keyText(t.key!)})`;
  return t.kind;
}

function fieldText(f: Field): string {
  let out = `{${f.name}:${typeText(f.type)}`;
  if (f.width > 0) out += ` width=${f.width}`;
  if (f.desc) out += " desc";
  if (f.max !== null && f.shards === null) out += ` max=${f.max}`;
  if (f.unit !== null) out += ` unit=${f.unit}`;
  if (f.rfc3339) out += " format=rfc3339";
  if (f.hex) out += " format=hex";
  if (f.scale !== null) out += ` scale=${f.scale}`;
  if (f.shards !== null) out += ` shards=${f.shards.count} ${f.shards.by !== null ? `by=${f.shards.by}` : "random"}`;
  return out + "}";
}

export function keyText(k: Key): string {
  if (k.variants !== null) return `family(${k.variants.map((v) => (typeof v === "string" ? v : keyText(v))).join(" | ")})`;
  if (k.custom) return (k.prefix !== null ? `${k.prefix}${k.separator}` : "") + "{custom}";
  let out = k.prefix ?? "";
  k.fields.forEach((f, i) => {
    if (i > 0 || k.prefix !== null) out += k.separator;
    out += fieldText(f);
  });
  return out;
}

/** A layout's canonical text (SK-LAY-006). */
export function layoutText(l: Layout): string {
  let out = (l.partition ? "partition " : "") + keyText(l.key);
  if (l.maxLen !== (l.partition ? PARTITION_LIMIT : SORT_LIMIT)) out += ` max_len=${l.maxLen}`;
  return out;
}

function newField(name: string, type: Type): Field {
  return { name, type, width: 0, desc: false, max: null, unit: null, rfc3339: false, hex: false, scale: null, shards: null };
}

interface ShardText {
  count: [number, number] | null;
  by: string | null;
  random: boolean;
}

class Parser {
  at = 0;
  constructor(readonly text: string) {}

  rest(): string {
    return this.text.slice(this.at);
  }
  eat(s: string): boolean {
    if (this.rest().startsWith(s)) {
      this.at += s.length;
      return true;
    }
    return false;
  }
  peek(): string | undefined {
    return this.text[this.at];
  }
  error(expected: string): LayoutError {
    const rest = this.rest();
    const chars = [...rest];
    const found = rest === "" ? "the end" : chars.length > 16 ? `\`${chars.slice(0, 16).join("")}...\`` : `\`${rest}\``;
    return new LayoutError(byteLength(this.text.slice(0, this.at)), expected, found);
  }
  expect(s: string): void {
    if (!this.eat(s)) throw this.error(`\`${s}\``);
  }
  number(what: string): number {
    const m = /^[0-9]+/.exec(this.rest());
    if (!m || m[0].length > 39) throw this.error(`${what}, in decimal digits`);
    this.at += m[0].length;
    return Number(m[0]);
  }
  bigNumber(what: string): bigint {
    const m = /^[0-9]+/.exec(this.rest());
    if (!m || m[0].length > 39) throw this.error(`${what}, in decimal digits`);
    this.at += m[0].length;
    return BigInt(m[0]);
  }
  until(stops: string): string {
    const rest = this.rest();
    let end = rest.length;
    for (const c of stops) {
      const i = rest.indexOf(c);
      if (i >= 0 && i < end) end = i;
    }
    this.at += end;
    return rest.slice(0, end);
  }

  layout(): Layout {
    const partition = this.eat("partition ");
    const key = this.key();
    let maxLen = partition ? PARTITION_LIMIT : SORT_LIMIT;
    if (this.eat(" max_len=")) maxLen = this.number("the longest encoding in bytes");
    if (this.at !== this.text.length) throw this.error("the end of the layout (or ` max_len=N`)");
    const top = key.fields.filter((f) => f.shards !== null).length;
    if (top > 1 || nestedShards(key, false) || (top === 1 && !partition)) {
      const starts: number[] = [];
      for (let i = this.text.indexOf("shards="); i >= 0; i = this.text.indexOf("shards=", i + 1)) starts.push(i);
      const first = starts[0] ?? 0;
      this.at = top > 1 && starts.length > 1 ? starts[1]! : first;
      throw this.error("`shards=N` on one field of a partition key (`partition ...`), not of a sort key or a nested key");
    }
    return { partition, maxLen, key, name: "DynLayout" };
  }

  key(): Key {
    if (this.eat("family(")) return this.family();
    const start = this.at;
    let prefix: string | null = null;
    let separator: string | null = null;
    if (this.peek() !== "{") {
      const before = this.until("{)");
      const sep = before.length > 0 ? before[before.length - 1] : undefined;
      if (sep !== undefined && isPunct(sep) && this.peek() === "{" && before.length > 1) {
        prefix = before.slice(0, -1);
        separator = sep;
      } else {
        this.at = start;
        throw this.error("a prefix and a separator before a field `{`, or a field");
      }
    }
    if (this.eat("{custom}")) return { prefix, separator: separator ?? "#", fields: [], variants: null, custom: true };
    const fields = [this.field()];
    while (isPunct(this.peek())) {
      const c = this.peek()!;
      if (!this.rest().slice(1).startsWith("{")) break;
      if (separator !== null && separator !== c) throw this.error(`the separator \`${separator}\` again`);
      separator = c;
      this.at += 1;
      fields.push(this.field());
    }
    const sep = separator ?? "#";
    for (const f of fields) inheritSeparator(f.type, sep);
    return { prefix, separator: sep, fields, variants: null, custom: false };
  }

  family(): Key {
    const variants: (string | Key)[] = [];
    let separator: string | null = null;
    for (;;) {
      const start = this.at;
      let literal = this.until("{|)");
      const keyed = this.peek() === "{";
      this.at = start;
      if (keyed) {
        const k = this.key();
        separator = separator ?? k.separator;
        variants.push(k);
      } else {
        if (literal.endsWith(" ")) literal = literal.slice(0, -1);
        if (literal === "") throw this.error("a variant: a literal or a key");
        this.at += literal.length;
        variants.push(literal);
      }
      if (this.eat(" | ")) continue;
      this.expect(")");
      return { prefix: null, separator: separator ?? "#", fields: [], variants, custom: false };
    }
  }

  field(): Field {
    this.expect("{");
    const start = this.at;
    const name = this.until(":{} ");
    if (name === "" || this.peek() !== ":") {
      this.at = start;
      throw this.error("a field's name and `:`");
    }
    this.at += 1;
    const f = newField(name, this.type());
    let widthAt: number | null = null;
    const shards: ShardText = { count: null, by: null, random: false };
    while (this.eat(" ")) {
      if (this.rest().startsWith("width=")) widthAt = this.at;
      if (!this.shardOption(shards)) this.option(f);
    }
    this.shards(f, shards, widthAt);
    if (f.rfc3339 && widthAt !== null) {
      const textLen = ({ s: 20, ms: 24, us: 27, ns: 30 } as Record<string, number>)[f.unit ?? "s"]!;
      if (f.width !== textLen) {
        this.at = widthAt;
        throw this.error(`no width, or \`width=${textLen}\`, for an RFC 3339 timestamp of unit \`${f.unit ?? "s"}\` (its length)`);
      }
    }
    this.expect("}");
    return f;
  }

  shardOption(shards: ShardText): boolean {
    const start = this.at;
    const twice = (what: string): LayoutError => {
      this.at = start;
      return this.error(`\`${what}\` once, and \`by=\` or \`random\`, not both`);
    };
    if (this.eat("shards=")) {
      if (shards.count !== null) throw twice("shards");
      shards.count = [this.number("a shard count"), start];
    } else if (this.eat("by=")) {
      if (shards.by !== null || shards.random) throw twice("by");
      const name = this.until(" }");
      if (name === "") throw this.error("the name of the sort key's field the shard is calculated from");
      shards.by = name;
    } else if (this.eat("random")) {
      if (shards.by !== null || shards.random) throw twice("random");
      shards.random = true;
    } else {
      return false;
    }
    return true;
  }

  shards(f: Field, shards: ShardText, widthAt: number | null): void {
    if (shards.count === null) {
      if (shards.by !== null || shards.random) throw this.error("`shards=N` before `by=` or `random` (a field with a rule is a shard)");
      return;
    }
    const [count, at] = shards.count;
    if (shards.by === null && !shards.random) throw this.error("`by=name` or `random` after `shards=N`: how an item's shard is chosen");
    const here = this.at;
    const refuse = (where: number, expected: string): LayoutError => {
      this.at = where;
      return this.error(expected);
    };
    if (count < 1 || count > SHARDS_MAX) throw refuse(at, `a shard count of 1 to ${SHARDS_MAX}`);
    if (f.type.kind !== "u" || f.type.bits !== 16) throw refuse(at, "a shard field of type u16");
    if (f.max !== null || f.desc) throw refuse(at, "no `max` and no `desc` on a shard field (its count sets its largest value)");
    const width = String(count - 1).length;
    if (widthAt !== null && f.width !== width) throw refuse(widthAt, `no width, or \`width=${width}\`, for ${count} shards`);
    f.width = width;
    f.max = BigInt(count - 1);
    f.shards = { count, by: shards.by };
    this.at = here;
  }

  type(): Type {
    if (this.eat("option<")) {
      const inner = this.type();
      this.expect(">");
      return { kind: "option", bits: 0, inner };
    }
    if (this.eat("enum(")) {
      const names: string[] = [];
      for (;;) {
        const name = this.until("|)");
        if (name === "") throw this.error("a variant's name");
        names.push(name);
        if (!this.eat("|")) {
          this.expect(")");
          return { kind: "enum", bits: 0, names };
        }
      }
    }
    if (this.eat("key(")) {
      const key = this.key();
      this.expect(")");
      return { kind: "key", bits: 0, key };
    }
    const rest = this.rest();
    let end = rest.length;
    for (const c of " }>") {
      const i = rest.indexOf(c);
      if (i >= 0 && i < end) end = i;
    }
    const word = rest.slice(0, end);
    const number = NUMBERS[word];
    if (number !== undefined) {
      this.at += word.length;
      return { kind: number[0], bits: number[1] };
    }
    if (NAMED.includes(word)) {
      this.at += word.length;
      return { kind: word, bits: 0 };
    }
    throw this.error(
      "a type: u8..u128, usize, i8..i128, isize, bool, char, text, f32, f64, timestamp, uuid, ulid, decimal, option<..>, enum(..), key(..) or custom",
    );
  }

  option(f: Field): void {
    const start = this.at;
    const word = this.until(" }=");
    const once = (already: boolean): void => {
      if (already) {
        this.at = start;
        throw this.error(`\`${word}\` once`);
      }
    };
    switch (word) {
      case "desc":
        once(f.desc);
        f.desc = true;
        break;
      case "width":
        once(f.width > 0);
        this.expect("=");
        f.width = this.number("a width");
        break;
      case "max":
        once(f.max !== null);
        this.expect("=");
        f.max = this.bigNumber("a largest value");
        break;
      case "scale":
        once(f.scale !== null);
        this.expect("=");
        f.scale = this.number("a scale");
        break;
      case "unit": {
        once(f.unit !== null);
        this.expect("=");
        const at = this.at;
        const unit = this.until(" }");
        if (!UNITS.includes(unit)) {
          this.at = at;
          throw this.error("a unit: s, ms, us or ns");
        }
        f.unit = unit;
        break;
      }
      case "format":
        once(f.rfc3339 || f.hex);
        this.expect("=");
        if (this.eat("rfc3339")) f.rfc3339 = true;
        else if (this.eat("hex")) f.hex = true;
        else throw this.error("a format: rfc3339 or hex");
        break;
      default:
        this.at = start;
        throw this.error("an option: width=N, desc, max=N, unit=.., format=.., scale=N, shards=N, by=name or random");
    }
  }
}

function nestedShards(key: Key, nested: boolean): boolean {
  const inType = (t: Type): boolean =>
    t.kind === "option" ? inType(t.inner!) : t.kind === "key" ? nestedShards(t.key!, true) : false;
  if (key.variants !== null) return key.variants.some((v) => typeof v !== "string" && nestedShards(v, true));
  return key.fields.some((f) => (nested && f.shards !== null) || inType(f.type));
}

function showsSeparator(key: Key): boolean {
  if (key.variants !== null) return key.variants.some((v) => (typeof v === "string" ? v.includes(key.separator) : showsSeparator(v)));
  if (key.custom) return key.prefix !== null;
  return key.prefix !== null || key.fields.length > 1;
}

function inheritSeparator(t: Type, outer: string): void {
  if (t.kind === "option") inheritSeparator(t.inner!, outer);
  else if (t.kind === "key" && !showsSeparator(t.key!)) t.key!.separator = outer;
}

/** Reads a layout text (SK-LAY-001..005); a text the grammar does not allow is a {@link LayoutError}. */
export function parse(text: string): Layout {
  return new Parser(text).layout();
}
