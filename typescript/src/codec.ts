/**
 * Values to keys and keys to values (spec/SPEC.md, SK-ENC and SK-DEC), by a layout.
 *
 * Values are in the JSON form of SK-DEC-004, with integers as `bigint` (a `number` or a string of
 * digits is read too): a key is an object of field name to value; floats are `number` (or "inf",
 * "-inf", "NaN"); timestamps RFC 3339 UTC text; decimals, UUIDs and ULIDs their text; an option
 * `null` or its value (`[value]` when the value is itself an option); a family's unit variant its
 * literal and a keyed one `{prefix: fields}`; a custom segment its text.
 *
 * Keys are read as UTF-8 bytes, so that an error's offset is a byte offset, as in every reader.
 */

import { DecodeError, EncodeError } from "./errors.js";
import type { Field, Key, Layout, Type } from "./layout.js";
import { typeText } from "./layout.js";

/** A value in the JSON form of SK-DEC-004. */
export type Value = null | boolean | number | bigint | string | Value[] | { [name: string]: Value };

export const UNIT_NANOS: Record<string, bigint> = { s: 1_000_000_000n, ms: 1_000_000n, us: 1_000n, ns: 1n };
const FRACTION_DIGITS: Record<string, number> = { s: 0, ms: 3, us: 6, ns: 9 };
const RFC3339_LEN: Record<string, number> = { s: 20, ms: 24, us: 27, ns: 30 };
export const MAX_NANOS = 253_402_300_799_999_999_999n;
const MAX_MANTISSA = 2n ** 96n - 1n;
const UNSIGNED_DEFAULT: Record<number, number> = { 8: 3, 16: 5, 32: 10, 64: 20, 128: 39, 0: 20 };
const SIGNED_DEFAULT: Record<number, number> = { 8: 4, 16: 6, 32: 11, 64: 20, 128: 40, 0: 20 };
const UNIX_DEFAULT: Record<string, number> = { s: 12, ms: 15, us: 18, ns: 21 };

/** The one spelling of a UUID and of a ULID in a key (SK-ENC-018). */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ULID_TEXT = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false });

/** A field as its segment is written: the resolved width and options, and whether it is the key's last segment. */
export interface Spec {
  key: string;
  name: string;
  sep: string;
  width: number;
  desc: boolean;
  max: bigint | null;
  unit: string;
  rfc3339: boolean;
  hex: boolean;
  scale: number;
  last: boolean;
}

function innermost(t: Type): Type {
  while (t.kind === "option") t = t.inner!;
  return t;
}

function fixedLen(key: Key): number | null {
  if (key.variants !== null || key.custom) return null;
  let n = (key.prefix !== null ? key.prefix.length + 1 : 0) + key.fields.length - 1;
  for (const f of key.fields) {
    const k = f.type.kind;
    if (["u", "i", "bool", "timestamp", "uuid", "ulid"].includes(k)) n += effectiveWidth(f);
    else if (k === "key") {
      const inner = fixedLen(f.type.key!);
      if (inner === null) return null;
      n += inner;
    } else return null;
  }
  return n;
}

/** The width a field's segment has (SK-LAY-004): the given one, or its type's default. */
export function effectiveWidth(f: Field): number {
  const t = innermost(f.type);
  const given = f.width > 0 ? f.width : null;
  switch (t.kind) {
    case "key":
      return fixedLen(t.key!) ?? 0;
    case "timestamp": {
      const unit = f.unit ?? "s";
      if (f.rfc3339) return RFC3339_LEN[unit]!;
      return given ?? UNIX_DEFAULT[unit]!;
    }
    case "u":
      return given ?? UNSIGNED_DEFAULT[t.bits]!;
    case "i":
      return given ?? SIGNED_DEFAULT[t.bits]!;
    case "decimal":
      return given ?? 30;
    case "bool":
      return 1;
    case "uuid":
      return 36;
    case "ulid":
      return 26;
    default:
      return 0;
  }
}

export function specOf(keyName: string, f: Field, sep: string, last: boolean): Spec {
  return {
    key: keyName, name: f.name, sep, width: effectiveWidth(f), desc: f.desc, max: f.max, unit: f.unit ?? "s",
    rfc3339: f.rfc3339, hex: f.hex, scale: f.scale ?? 0, last,
  };
}

/** The specs of a key's fields inside `outer`: worked out once and kept on the key. */
function specsOf(key: Key, outer: Spec): Spec[] {
  key.specs ??= new Map();
  const id = `${outer.last ? 1 : 0}${outer.key}`;
  let specs = key.specs.get(id) as Spec[] | undefined;
  if (specs === undefined) {
    const n = key.fields.length;
    specs = key.fields.map((f, i) => specOf(outer.key, f, key.separator, i + 1 === n && outer.last));
    key.specs.set(id, specs);
  }
  return specs;
}

function wholeKey(name: string): Spec {
  return { key: name, name: "", sep: "#", width: 0, desc: false, max: null, unit: "s", rfc3339: false, hex: false, scale: 0, last: true };
}

// ---------------------------------------------------------------------------------------------
// Encoding.

function fail(spec: Spec, kind: string, message: string): EncodeError {
  return new EncodeError(kind, spec.name === "" ? null : spec.name, message, spec.key);
}

function mismatch(spec: Spec, expected: string, found: unknown): EncodeError {
  return fail(spec, "Mismatch", `expected ${expected}, found ${String(found)}`);
}

function intOf(value: unknown, spec: Spec): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) <= 2 ** 53) return BigInt(value);
  if (typeof value === "string" && /^-?[0-9]+$/.test(value)) return BigInt(value);
  throw mismatch(spec, "an integer", value);
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

function digits(v: bigint, width: number, complement: boolean): string {
  return (complement ? pow10(width) - 1n - v : v).toString().padStart(width, "0");
}

export function encodeUnsigned(v: bigint, spec: Spec): string {
  if (spec.max !== null && v > spec.max) throw fail(spec, "AboveMax", `${v} is above the field's max ${spec.max}`);
  if (spec.width === 0 || v >= pow10(spec.width)) throw fail(spec, "TooWide", `${v} needs more than ${spec.width} digits`);
  return digits(v, spec.width, spec.desc);
}

export function encodeSigned(v: bigint, spec: Spec): string {
  let neg = v < 0n;
  const mag = neg ? -v : v;
  if (spec.max !== null && !neg && mag > spec.max) throw fail(spec, "AboveMax", `${v} is above the field's max ${spec.max}`);
  const n = Math.max(spec.width - 1, 0);
  if (spec.width === 0 || mag >= pow10(n)) throw fail(spec, "TooWide", `${v} needs more than ${spec.width} characters`);
  if (spec.desc && mag !== 0n) neg = !neg;
  return (neg ? "-" : "0") + digits(mag, n, neg);
}

function floatBits(v: number, bits: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  if (bits === 64) {
    view.setFloat64(0, v);
    return view.getBigUint64(0);
  }
  view.setFloat32(0, v);
  return BigInt(view.getUint32(0));
}

function fromBits(raw: bigint, bits: number): number {
  const view = new DataView(new ArrayBuffer(8));
  if (bits === 64) {
    view.setBigUint64(0, raw);
    return view.getFloat64(0);
  }
  view.setUint32(0, Number(raw));
  return view.getFloat32(0);
}

/** The shortest round-trip digits of a positive finite float and the exponent of its first digit. */
export function shortestDigits(v: number, bits: number): [string, number] {
  let text = "";
  if (bits === 64) text = v.toExponential();
  else {
    for (let n = 1; n <= 9; n++) {
      const candidate = v.toExponential(n - 1);
      if (Math.fround(Number(candidate)) === v) {
        text = candidate;
        break;
      }
    }
  }
  const [mantissa = "", exp = "0"] = text.split("e");
  const ds = mantissa.replace(".", "").replace(/0+$/, "") || "0";
  return [ds, Number(exp)];
}

function encodeFloat(value: unknown, spec: Spec, bits: number): string {
  let v: number;
  if (typeof value === "string") {
    const special: Record<string, number> = { inf: Infinity, "-inf": -Infinity, NaN: NaN };
    if (!(value in special)) throw mismatch(spec, "a float", value);
    v = special[value]!;
  } else if (typeof value === "number") v = value;
  else if (typeof value === "bigint") v = Number(value);
  else throw mismatch(spec, "a float", value);
  if (bits === 32) v = Math.fround(v);
  if (Number.isNaN(v)) throw fail(spec, "NotANumber", "NaN has no place in the order of keys");
  if (spec.desc) v = -v;
  if (spec.hex) {
    const n = bits / 4;
    const raw = floatBits(v, bits);
    const sign = 1n << BigInt(bits - 1);
    const all = (1n << BigInt(bits)) - 1n;
    const ordered = (raw & sign) === 0n ? raw | sign : ~raw & all;
    return ordered.toString(16).padStart(n, "0");
  }
  if (!Number.isFinite(v)) return v < 0 ? "A" : "Z";
  if (v === 0) return Object.is(v, -0) ? "N" : "O";
  const [expDigits, bias] = bits === 64 ? [3, 500] : [2, 50];
  const [ds, e] = shortestDigits(Math.abs(v), bits);
  let biased = e + bias;
  if (v < 0) {
    biased = 10 ** expDigits - 1 - biased;
    return "M" + String(biased).padStart(expDigits, "0") + [...ds].map((d) => String(9 - Number(d))).join("") + "~";
  }
  return "P" + String(biased).padStart(expDigits, "0") + ds;
}

function encodeText(s: unknown, spec: Spec): string {
  if (typeof s !== "string") throw mismatch(spec, "text", s);
  if (!spec.last) {
    const data = encoder.encode(s);
    const sep = spec.sep.charCodeAt(0);
    for (let i = 0; i < data.length; i++) {
      if (data[i]! <= sep) throw fail(spec, "ForbiddenChar", `the byte at ${i} is not greater than the separator ${spec.sep}`);
    }
  }
  return s;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

const floorDiv = (a: number, b: number): number => Math.floor(a / b);

function daysFromCivil(y: number, m: number, d: number): number {
  y = m <= 2 ? y - 1 : y;
  const era = floorDiv(y, 400);
  const yoe = y - era * 400;
  const mp = (m + 9) % 12;
  const doy = floorDiv(153 * mp + 2, 5) + d - 1;
  const doe = yoe * 365 + floorDiv(yoe, 4) - floorDiv(yoe, 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function civilFromDays(z: number): [number, number, number] {
  z += 719_468;
  const era = floorDiv(z, 146_097);
  const doe = z - era * 146_097;
  const yoe = floorDiv(doe - floorDiv(doe, 1460) + floorDiv(doe, 36_524) - floorDiv(doe, 146_096), 365);
  const doy = doe - (365 * yoe + floorDiv(yoe, 4) - floorDiv(yoe, 100));
  const mp = floorDiv(5 * doy + 2, 153);
  const d = doy - floorDiv(153 * mp + 2, 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** An RFC 3339 UTC text (no fraction, or 1 to 9 digits) as nanoseconds since the epoch; `null` for any other. */
export function nanosOf(text: unknown): bigint | null {
  if (typeof text !== "string") return null;
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?Z$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!(mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo) && h < 24 && mi < 60 && s < 60)) return null;
  const days = daysFromCivil(y, mo, d);
  const frac = (m[7] ?? "").padEnd(9, "0");
  return (BigInt(days) * 86400n + BigInt(h * 3600 + mi * 60 + s)) * 1_000_000_000n + BigInt(frac);
}

/** `nanos` as RFC 3339 UTC text with the unit's fraction digits. */
export function rfc3339(nanos: bigint, unit: string): string {
  const secs = nanos / 1_000_000_000n;
  const days = Number(secs / 86400n);
  const sod = Number(secs % 86400n);
  const [y, mo, d] = civilFromDays(days);
  const p = (n: number, w = 2): string => String(n).padStart(w, "0");
  let text = `${p(y, 4)}-${p(mo)}-${p(d)}T${p(Math.floor(sod / 3600))}:${p(Math.floor(sod / 60) % 60)}:${p(sod % 60)}`;
  const n = FRACTION_DIGITS[unit]!;
  if (n > 0) text += "." + ((nanos % 1_000_000_000n) / UNIT_NANOS[unit]!).toString().padStart(n, "0");
  return text + "Z";
}

/** An instant as SK-DEC-004 writes it: the fewest of 0, 3, 6 or 9 fraction digits. */
export function instantText(nanos: bigint): string {
  const frac = nanos % 1_000_000_000n;
  const unit = frac === 0n ? "s" : frac % 1_000_000n === 0n ? "ms" : frac % 1_000n === 0n ? "us" : "ns";
  return rfc3339(nanos, unit);
}

function encodeTime(value: unknown, spec: Spec): string {
  const nanos = nanosOf(value);
  if (nanos === null) throw mismatch(spec, "RFC 3339 UTC text", value);
  if (nanos > MAX_NANOS) throw fail(spec, "OutOfRange", `${String(value)} is after year 9999`);
  if (nanos < 0n) throw fail(spec, "OutOfRange", `${String(value)} is before 1970-01-01T00:00:00Z`);
  const unit = UNIT_NANOS[spec.unit]!;
  const count = nanos / unit;
  if (spec.rfc3339) return rfc3339(count * unit, spec.unit);
  return encodeUnsigned(count, spec);
}

function encodeDecimal(value: unknown, spec: Spec): string {
  const m = typeof value === "string" ? /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(value) : null;
  if (!m) throw mismatch(spec, "a decimal's text", value);
  const neg = m[1] === "-";
  const whole = m[2]!;
  const frac = (m[3] ?? "").replace(/0+$/, "");
  if (frac.length > spec.scale) throw fail(spec, "TooPrecise", `${value} has more than ${spec.scale} decimals`);
  const scaled = BigInt(whole + frac.padEnd(spec.scale, "0"));
  return encodeSigned(neg ? -scaled : scaled, spec);
}

function typeRange(t: Type): [bigint, bigint] {
  const bits = BigInt(t.bits || 64);
  if (t.kind === "u") return [0n, 2n ** bits - 1n];
  return [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n];
}

/** The segment of `value` in a field of type `t`. */
export function encodeType(value: unknown, t: Type, spec: Spec): string {
  switch (t.kind) {
    case "option": {
      if (value === null || value === undefined) return "0";
      if (t.inner!.kind === "option") {
        if (!Array.isArray(value) || value.length !== 1) throw mismatch(spec, "[value] (an option in an option)", value);
        value = value[0];
      }
      return "1" + encodeType(value, t.inner!, spec);
    }
    case "u":
    case "i": {
      const v = intOf(value, spec);
      const [low, high] = typeRange(t);
      if (v < low || v > high) throw mismatch(spec, `a value of ${typeText(t)}`, value);
      return t.kind === "u" ? encodeUnsigned(v, spec) : encodeSigned(v, spec);
    }
    case "f":
      return encodeFloat(value, spec, t.bits);
    case "bool":
      if (typeof value !== "boolean") throw mismatch(spec, "a boolean", value);
      return value !== spec.desc ? "1" : "0";
    case "char":
      if (typeof value !== "string" || [...value].length !== 1) throw mismatch(spec, "one character", value);
      return encodeText(value, spec);
    case "text":
    case "custom":
      return encodeText(value, spec);
    case "enum":
      if (typeof value !== "string" || !t.names!.includes(value)) throw mismatch(spec, `one of the names ${t.names!.join(", ")}`, value);
      return encodeText(value, spec);
    case "timestamp":
      return encodeTime(value, spec);
    case "decimal":
      return encodeDecimal(value, spec);
    case "uuid":
      if (typeof value !== "string" || !UUID_TEXT.test(value.toLowerCase())) throw mismatch(spec, "a UUID", value);
      return value.toLowerCase();
    case "ulid":
      if (typeof value !== "string" || !ULID_TEXT.test(value.toUpperCase())) throw mismatch(spec, "a ULID", value);
      return value.toUpperCase();
    case "key":
      return encodeKey(value, t.key!, spec);
    default:
      throw mismatch(spec, typeText(t), value);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function encodeKey(value: unknown, key: Key, outer: Spec): string {
  const sep = key.separator;
  if (key.variants !== null) {
    for (const v of key.variants) {
      if (typeof v === "string") {
        if (value === v) return v;
      } else if (isObject(value) && Object.keys(value).length === 1 && v.prefix !== null && v.prefix in value) {
        return encodeKey(value[v.prefix], v, outer);
      }
    }
    throw mismatch(outer, "a variant of the family", value);
  }
  const out = key.prefix !== null ? key.prefix + sep : "";
  if (key.custom) return out + encodeText(value, outer);
  if (!isObject(value)) throw mismatch(outer, "an object of the key's fields", value);
  const names = key.fields.map((f) => f.name);
  for (const name of Object.keys(value)) if (!names.includes(name)) throw mismatch(outer, `the key's fields ${names.join(", ")}`, name);
  const specs = specsOf(key, outer);
  const parts = key.fields.map((f, i) => {
    const spec = specs[i]!;
    if (!(f.name in value)) throw mismatch(spec, `a value of field ${f.name}`, undefined);
    return encodeType(value[f.name], f.type, spec);
  });
  return out + parts.join(sep);
}

/** The key of `value` (SK-ENC); an {@link EncodeError} when it has none. */
export function encode(layout: Layout, value: unknown): string {
  const key = encodeKey(value, layout.key, wholeKey(layout.name));
  const limit = layout.key.variants !== null ? 1024 : layout.maxLen;
  const len = encoder.encode(key).length;
  if (len === 0) throw new EncodeError("Empty", null, "the key would be empty", layout.name);
  if (len > limit) throw new EncodeError("TooLong", null, `${len} bytes, more than ${limit}`, layout.name);
  return key;
}

// ---------------------------------------------------------------------------------------------
// Decoding.

const isDigit = (b: number | undefined): boolean => b !== undefined && b >= 0x30 && b <= 0x39;

class Cursor {
  pos = 0;
  /** Where the last fixed-width run of digits ended, and its field (SK-DEC-005). */
  digitsEnd: [number, Spec] | null = null;
  constructor(
    readonly key: Uint8Array,
    readonly name: string,
  ) {}

  rest(): Uint8Array {
    return this.key.subarray(this.pos);
  }
  error(offset: number, spec: Spec | null, kind: string, expected: string): DecodeError {
    return new DecodeError(kind, spec && spec.name !== "" ? spec.name : null, offset, expected, this.name);
  }
  errorHere(spec: Spec | null, kind: string, expected: string): DecodeError {
    return this.error(this.pos, spec, kind, expected);
  }
  takeDigits(n: number, spec: Spec): string {
    const run = this.key.subarray(this.pos, this.pos + n);
    if (run.length === n && run.every((b) => isDigit(b))) {
      this.pos += n;
      this.digitsEnd = [this.pos, spec];
      return decoder.decode(run);
    }
    const rest = this.rest();
    let count = 0;
    while (count < rest.length && isDigit(rest[count])) count++;
    const kind = count >= n ? "NotADigit" : count === rest.length || rest[count] === spec.sep.charCodeAt(0) ? "WrongWidth" : "NotADigit";
    throw this.errorHere(spec, kind, `${n} ASCII digits`);
  }
  takeAscii(n: number, spec: Spec, expected: string): string {
    const run = this.key.subarray(this.pos, this.pos + n);
    if (run.length === n && run.every((b) => b < 128)) {
      this.pos += n;
      return decoder.decode(run);
    }
    throw this.errorHere(spec, "InvalidText", expected);
  }
  /** The next `n` ASCII characters, all of `pattern` (a fixed-width segment's one spelling); refused at its start otherwise. */
  takeMatching(n: number, spec: Spec, pattern: RegExp, expected: string): string {
    const start = this.pos;
    const text = this.takeAscii(n, spec, expected);
    if (!pattern.test(text)) throw this.error(start, spec, "InvalidText", expected);
    return text;
  }
  takeText(spec: Spec): string {
    const rest = this.rest();
    if (spec.last) {
      this.pos = this.key.length;
      return decoder.decode(rest);
    }
    const sep = spec.sep.charCodeAt(0);
    let end = 0;
    while (end < rest.length && rest[end]! > sep) end++;
    if (end < rest.length && rest[end] !== sep) throw this.error(this.pos + end, spec, "InvalidText", "text characters greater than the separator");
    this.pos += end;
    return decoder.decode(rest.subarray(0, end));
  }
  startsWith(literal: string): boolean {
    const data = encoder.encode(literal);
    const rest = this.rest();
    return data.length <= rest.length && data.every((b, i) => rest[i] === b);
  }
  expect(literal: string, kind: string, spec: Spec | null, what: string): void {
    if (this.startsWith(literal)) {
      this.pos += encoder.encode(literal).length;
      return;
    }
    throw this.error(this.pos, spec, kind, `${what} ${JSON.stringify(literal)}`);
  }
}

function parseDigits(run: string, complement: boolean): bigint {
  const v = run === "" ? 0n : BigInt(run);
  return complement ? pow10(run.length) - 1n - v : v;
}

function decodeUnsigned(c: Cursor, spec: Spec, largest: bigint): bigint {
  const start = c.pos;
  const v = parseDigits(c.takeDigits(spec.width, spec), spec.desc);
  if (v > largest) throw c.error(start, spec, "OutOfRange", "a value that fits the type");
  if (spec.max !== null && v > spec.max) throw c.error(start, spec, "AboveMax", `a value at most ${spec.max}`);
  return v;
}

function decodeSigned(c: Cursor, spec: Spec, leastMag: bigint, largest: bigint): bigint {
  const start = c.pos;
  if (spec.width === 0) throw c.errorHere(spec, "WrongWidth", "a signed segment of width at least 1");
  const first = c.key[start];
  if (first !== 0x30 && first !== 0x2d) throw c.errorHere(spec, "BadSign", "`0` or `-`");
  let neg = first === 0x2d;
  c.pos += 1;
  const mag = parseDigits(c.takeDigits(spec.width - 1, spec), neg);
  if (neg && mag === 0n) throw c.error(start, spec, "NegativeZero", "a negative number");
  if (spec.desc && mag !== 0n) neg = !neg;
  if (mag > (neg ? leastMag : largest)) throw c.error(start, spec, "OutOfRange", "a value that fits the type");
  if (spec.max !== null && !neg && mag > spec.max) throw c.error(start, spec, "AboveMax", `a value at most ${spec.max}`);
  return neg ? -mag : mag;
}

function decodeHex(c: Cursor, spec: Spec, bits: number): number {
  const n = bits / 4;
  const start = c.pos;
  const expected = `${n} lowercase hex digits`;
  // A run of hex digits of another length, ending where the segment may end: another width.
  const rest = c.rest();
  const isHex = (b: number | undefined): boolean => b !== undefined && (isDigit(b) || (b >= 0x61 && b <= 0x66));
  let run = 0;
  while (run < Math.min(rest.length, n + 1) && isHex(rest[run])) run++;
  if (run > n) throw c.error(start + n, spec, "WrongWidth", "the end of the float after its hex digits");
  if (run < n && (run === rest.length || rest[run] === spec.sep.charCodeAt(0))) {
    throw c.error(start, spec, "WrongWidth", expected);
  }
  const text = c.takeAscii(n, spec, expected);
  if (!/^[0-9a-f]+$/.test(text)) throw c.error(start, spec, "InvalidText", expected);
  const ordered = BigInt("0x" + text);
  const sign = 1n << BigInt(bits - 1);
  const all = (1n << BigInt(bits)) - 1n;
  const raw = (ordered & sign) !== 0n ? ordered & ~sign : ~ordered & all;
  const v = fromBits(raw, bits);
  // No float encodes to NaN bits: not the one spelling of any value.
  if (Number.isNaN(v)) throw c.error(start, spec, "NotCanonical", "the bits of a number, not of NaN");
  return v;
}

function decodeReadable(c: Cursor, spec: Spec, bits: number): number {
  const start = c.pos;
  const cls = c.key[start];
  const special: Record<number, number> = { 0x41: -Infinity, 0x4e: -0, 0x4f: 0, 0x5a: Infinity };
  if (cls !== undefined && cls in special) {
    c.pos += 1;
    return special[cls]!;
  }
  if (cls !== 0x4d && cls !== 0x50) throw c.errorHere(spec, "InvalidText", "a class letter: A, M, N, O, P or Z");
  const negative = cls === 0x4d;
  c.pos += 1;
  const [expDigits, bias, maxDigits] = bits === 64 ? [3, 500, 17] : [2, 50, 9];
  const exp = c.takeDigits(expDigits, spec);
  const rest = c.rest();
  let run = 0;
  while (run < rest.length && isDigit(rest[run])) run++;
  const raw = c.takeDigits(run, spec);
  // The digits end at the float's end: `~` for a negative one, the separator or the key's end for
  // a positive one; any other character is no digit.
  const after = c.key[c.pos];
  const endsHere = after === undefined || after === spec.sep.charCodeAt(0);
  if (!endsHere && !(negative && after === 0x7e)) throw c.errorHere(spec, "NotADigit", "a digit or the float's end");
  if (negative) c.expect("~", "InvalidText", spec, "the end of a negative float,");
  const plain = (d: string): string => (negative ? String(9 - Number(d)) : d);
  const ds = [...raw].map(plain).join("");
  if (ds === "" || ds.length > maxDigits || ds[0] === "0" || ds[ds.length - 1] === "0") {
    throw c.error(start, spec, "NotCanonical", "the shortest digits of a float");
  }
  const e = Number([...exp].map(plain).join("")) - bias;
  let m = Number(`${ds[0]}.${ds.slice(1) || "0"}e${e}`);
  if (bits === 32) m = Math.fround(m);
  const [again, againExp] = Number.isFinite(m) && m !== 0 ? shortestDigits(m, bits) : ["", 0];
  if (!Number.isFinite(m) || m === 0 || again !== ds || againExp !== e) {
    throw c.error(start, spec, "NotCanonical", "the shortest digits of a finite, non-zero float");
  }
  return negative ? -m : m;
}

function decodeFloat(c: Cursor, spec: Spec, bits: number): Value {
  let v = spec.hex ? decodeHex(c, spec, bits) : decodeReadable(c, spec, bits);
  if (spec.desc) v = -v;
  if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

function decodeTime(c: Cursor, spec: Spec): string {
  const start = c.pos;
  const unit = UNIT_NANOS[spec.unit]!;
  let nanos: bigint | null;
  if (spec.rfc3339) {
    const text = c.takeAscii(spec.width, spec, "RFC 3339 UTC text such as 2024-06-23T00:00:00Z");
    const n = FRACTION_DIGITS[spec.unit]!;
    const pattern = new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d${n > 0 ? `\\.\\d{${n}}` : ""}Z$`);
    nanos = pattern.test(text) ? nanosOf(text) : null;
    if (nanos === null) throw c.error(start, spec, "InvalidText", "RFC 3339 UTC text with a valid date and time");
  } else {
    nanos = decodeUnsigned(c, spec, 2n ** 128n - 1n) * unit;
  }
  if (nanos > MAX_NANOS || nanos < 0n) throw c.error(start, spec, "OutOfRange", "an instant from 1970 to year 9999");
  return instantText(nanos);
}

function decimalText(v: bigint, scale: number): string {
  const neg = v < 0n;
  const digitsText = (neg ? -v : v).toString().padStart(scale + 1, "0");
  const text = scale > 0 ? `${digitsText.slice(0, -scale)}.${digitsText.slice(-scale)}` : digitsText;
  return neg ? `-${text}` : text;
}

function decodeType(c: Cursor, t: Type, spec: Spec): Value {
  switch (t.kind) {
    case "u":
      return decodeUnsigned(c, spec, typeRange(t)[1]);
    case "i": {
      const [low, high] = typeRange(t);
      return decodeSigned(c, spec, -low, high);
    }
    case "f":
      return decodeFloat(c, spec, t.bits);
    case "bool": {
      const start = c.pos;
      const b = c.key[start];
      if (b === 0x30 || b === 0x31) {
        c.pos += 1;
        return (b === 0x31) !== spec.desc;
      }
      if (b === undefined) throw c.error(start, spec, "WrongWidth", "`0` or `1`");
      throw c.error(start, spec, isDigit(b) ? "OutOfRange" : "NotADigit", "`0` or `1`");
    }
    case "char": {
      const start = c.pos;
      const text = c.takeText(spec);
      if ([...text].length !== 1) throw c.error(start, spec, "InvalidText", "exactly one character");
      return text;
    }
    case "text":
    case "custom":
      return c.takeText(spec);
    case "enum": {
      const start = c.pos;
      const text = c.takeText(spec);
      if (!t.names!.includes(text)) throw c.error(start, spec, "UnknownName", `one of the names ${t.names!.join(", ")}`);
      return text;
    }
    case "timestamp":
      return decodeTime(c, spec);
    case "decimal": {
      const start = c.pos;
      const v = decodeSigned(c, spec, MAX_MANTISSA, MAX_MANTISSA);
      if (spec.scale > 28) throw c.error(start, spec, "OutOfRange", "a scale of at most 28");
      return decimalText(v, spec.scale);
    }
    case "uuid":
      return c.takeMatching(36, spec, UUID_TEXT, "a lowercase hyphenated UUID");
    case "ulid":
      return c.takeMatching(26, spec, ULID_TEXT, "a ULID of 26 uppercase Crockford base32 characters");
    case "option": {
      const tag = c.key[c.pos];
      if (tag === 0x30) {
        c.pos += 1;
        return null;
      }
      if (tag === 0x31) {
        c.pos += 1;
        const inner = decodeType(c, t.inner!, spec);
        return t.inner!.kind === "option" ? [inner] : inner;
      }
      throw c.errorHere(spec, "BadTag", "`0` (None) or `1` (Some, then the value)");
    }
    case "key":
      return decodeKey(c, t.key!, spec);
    default:
      throw c.errorHere(spec, "Invalid", `a \`${typeText(t)}\` segment`);
  }
}

function first(variant: string | Key, sep: string): string {
  return typeof variant === "string" ? variant.split(sep)[0]! : (variant.prefix ?? "");
}

function hasFirstSegment(rest: Uint8Array, firstText: string, sep: string): boolean {
  const f = encoder.encode(firstText);
  return f.length <= rest.length && f.every((b, i) => rest[i] === b) && (rest.length === f.length || rest[f.length] === sep.charCodeAt(0));
}

function expectKeyPrefix(c: Cursor, prefix: string, sep: string): void {
  if (c.startsWith(prefix + sep)) {
    c.pos += encoder.encode(prefix + sep).length;
    return;
  }
  c.expect(prefix + sep, "WrongPrefix", null, "the prefix");
}

function decodeKey(c: Cursor, key: Key, outer: Spec): Value {
  const sep = key.separator;
  if (key.variants !== null) {
    for (const v of key.variants) {
      if (!hasFirstSegment(c.rest(), first(v, sep), sep)) continue;
      if (typeof v === "string") {
        c.expect(v, "WrongPrefix", null, "the prefix");
        return v;
      }
      return { [first(v, sep)]: decodeKey(c, v, outer) };
    }
    throw c.errorHere(outer, "UnknownVariant", "a key starting with one of the family's prefixes");
  }
  if (key.prefix !== null) expectKeyPrefix(c, key.prefix, sep);
  if (key.custom) return c.takeText(outer);
  const value: { [name: string]: Value } = {};
  const specs = specsOf(key, outer);
  key.fields.forEach((f, i) => {
    const last = i + 1 === key.fields.length;
    const spec = specs[i]!;
    value[f.name] = decodeType(c, f.type, spec);
    if (!last) {
      try {
        c.expect(sep, "MissingSeparator", spec, "the separator after it,");
      } catch (e) {
        if (e instanceof DecodeError && isDigit(c.key[c.pos]) && spec.width > 0) e.kind = "WrongWidth";
        throw e;
      }
    }
  });
  return value;
}

function checkLength(data: Uint8Array, name: string, limit: number): void {
  if (data.length === 0) throw new DecodeError("Empty", null, 0, "a non-empty key", name);
  if (data.length > limit) throw new DecodeError("TooLong", null, limit, `a key of at most ${limit} bytes`, name);
}

function expectEnd(c: Cursor): void {
  if (c.pos === c.key.length) return;
  // A digit right after the last field's run of digits: that field is wider than its width.
  if (c.digitsEnd !== null && c.digitsEnd[0] === c.pos && isDigit(c.key[c.pos])) {
    throw c.error(c.pos, c.digitsEnd[1], "WrongWidth", "the end of the key after the field's digits");
  }
  throw c.error(c.pos, null, "TrailingInput", "end of key");
}

/** The value of `key` (SK-DEC); a {@link DecodeError} with its kind, field and byte offset when the layout does not read it. */
export function decode(layout: Layout, key: string): Value {
  const data = encoder.encode(key);
  const whole = wholeKey(layout.name);
  if (layout.key.variants !== null) {
    const sep = layout.key.separator;
    for (const v of layout.key.variants) {
      const f = first(v, sep);
      if (!hasFirstSegment(data, f, sep)) continue;
      checkLength(data, layout.name, typeof v === "string" ? Number.MAX_SAFE_INTEGER : 1024);
      const c = new Cursor(data, layout.name);
      let result: Value;
      if (typeof v === "string") {
        c.expect(v, "WrongPrefix", null, "the prefix");
        result = v;
      } else {
        result = { [f]: decodeKey(c, v, whole) };
      }
      expectEnd(c);
      return result;
    }
    throw new DecodeError("UnknownVariant", null, 0, "a key starting with one of the family's prefixes", layout.name);
  }
  checkLength(data, layout.name, layout.maxLen);
  const c = new Cursor(data, layout.name);
  const value = decodeKey(c, layout.key, whole);
  expectEnd(c);
  return value;
}

/** Whether `a` sorts before `b` by UTF-8 bytes, as DynamoDB compares string keys: -1, 0 or 1. */
export function compareKeys(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
}
