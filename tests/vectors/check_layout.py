#!/usr/bin/env python3
"""A second implementation of sortkey's key format, written from the layout text alone.

    cargo run --example vectors -- CustomerItem --out customer_item.json
    python3 tests/vectors/check_layout.py customer_item.json [more.json ...]
    python3 tests/vectors/check_layout.py --lock layouts.lock
    python3 tests/vectors/check_layout.py --shards tests/vectors/shards.json

A lock file (`--lock`) is one `Name = layout` line per key, `table TABLE ATTRIBUTE: Name, ...`
lines saying which layouts an attribute of a table holds, and one `Current > Older > ...` line
per key with older layouts, newest first: every layout is parsed, and every version line must
name layouts of the lock, each in one line at most, of one role.

Each vectors file holds a key type's layout text (what `K::LAYOUT` prints and `layouts.lock`
holds) and values with the keys the Rust encoder writes for them, or the error it refuses them
with. This script knows no key type: it parses the layout text, encodes every value's fields
as the text says and requires the same key byte for byte (or a refusal where Rust refuses),
then decodes every key back and requires the same fields. That it passes for every example key
type (integers with widths, desc and max, signed numbers, floats, decimals, options, timestamps,
text, a family) is the proof that the text is a complete specification of the keys.

The fields are JSON as sortkey's `DynValue` serializes them (README, "Layouts you can run"):
integers as numbers or decimal strings, floats as numbers or "inf"/"-inf"/"NaN", timestamps as
RFC 3339 UTC text, decimals as text, an option as null or its value, a family's unit variant
as its literal and a keyed one as {prefix: fields}.
"""

import json
import re
import sys
from datetime import datetime, timezone
from decimal import Decimal

UNIT_NANOS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
FRACTION_DIGITS = {"s": 0, "ms": 3, "us": 6, "ns": 9}
MAX_NANOS = 253_402_300_799_999_999_999  # 9999-12-31T23:59:59.999999999Z
INT_BITS = {"usize": (64, False), "isize": (64, True)}
INT_BITS.update({f"u{b}": (b, False) for b in (8, 16, 32, 64, 128)})
INT_BITS.update({f"i{b}": (b, True) for b in (8, 16, 32, 64, 128)})


class Refused(Exception):
    """A value the layout cannot hold, or a string that is no key of it."""


# ---------------------------------------------------------------------------------------------
# The layout text: [partition ]key[ max_len=N], a key being family(v | ...) or
# [prefix sep]{name:type option ...}sep{...}... or [prefix sep]{custom}.


class Parser:
    def __init__(self, text):
        self.text, self.at = text, 0

    def rest(self):
        return self.text[self.at:]

    def eat(self, s):
        if self.rest().startswith(s):
            self.at += len(s)
            return True
        return False

    def expect(self, s):
        if not self.eat(s):
            raise ValueError(f"layout text at byte {self.at}: expected {s!r}, found {self.rest()[:16]!r}")

    def until(self, stops):
        rest = self.rest()
        end = min([i for i in (rest.find(c) for c in stops) if i >= 0], default=len(rest))
        self.at += end
        return rest[:end]

    def layout(self):
        partition = self.eat("partition ")
        key = self.key()
        max_len = None
        if self.eat(" max_len="):
            max_len = int(re.match(r"\d+", self.rest()).group())
            self.at += len(str(max_len))
        if self.rest():
            raise ValueError(f"layout text at byte {self.at}: expected the end, found {self.rest()!r}")
        return {"partition": partition, "max_len": max_len or (2048 if partition else 1024), "key": key}

    def key(self):
        if self.eat("family("):
            return self.family()
        prefix, sep = None, None
        if not self.rest().startswith("{"):
            before = self.until("{)")
            prefix, sep = before[:-1], before[-1]
        if self.eat("{custom}"):
            return {"prefix": prefix, "sep": sep or "#", "custom": True}
        fields = [self.field()]
        while self.rest()[:1] and self.rest()[:1] in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`|~" and self.rest()[1:2] == "{":
            sep = self.rest()[0]
            self.at += 1
            fields.append(self.field())
        return {"prefix": prefix, "sep": sep or "#", "fields": fields}

    def family(self):
        variants = []
        while True:
            start = self.at
            literal = self.until("{|)")
            keyed = self.rest().startswith("{")
            self.at = start
            if keyed:
                variants.append(self.key())
            else:
                literal = literal[:-1] if literal.endswith(" ") else literal
                self.at += len(literal)
                variants.append(literal)
            if self.eat(" | "):
                continue
            self.expect(")")
            seps = [v["sep"] for v in variants if isinstance(v, dict)]
            return {"family": variants, "sep": seps[0] if seps else "#", "prefix": None}

    def field(self):
        self.expect("{")
        name = self.until(":")
        self.expect(":")
        field = {"name": name, "type": self.ty(), "width": 0, "desc": False, "max": None,
                 "unit": None, "rfc3339": False, "hex": False, "scale": 0}
        while self.eat(" "):
            option = self.until(" }")
            key, _, value = option.partition("=")
            if key in ("width", "max", "scale"):
                field[key] = int(value)
            elif key == "desc":
                field["desc"] = True
            elif key == "unit":
                field["unit"] = value
            elif option == "format=rfc3339":
                field["rfc3339"] = True
            elif option == "format=hex":
                field["hex"] = True
            elif key == "shards":
                # The shard of a sharded partition key: a u16 of the digits of count - 1, at most
                # count - 1 (README, "Sharded keys").
                count = int(value)
                field["shards"] = count
                field["max"] = count - 1
                field["width"] = len(str(count - 1))
            elif key == "by" or option == "random":
                field["shard_rule"] = option
            else:
                raise ValueError(f"unknown option {option!r}")
        self.expect("}")
        return field

    def ty(self):
        if self.eat("option<"):
            inner = self.ty()
            self.expect(">")
            return ("option", inner)
        if self.eat("enum("):
            names = self.until(")").split("|")
            self.expect(")")
            return ("enum", names)
        if self.eat("key("):
            inner = self.key()
            self.expect(")")
            return ("key", inner)
        name = re.match(r"[a-z0-9]+", self.rest()).group()
        self.at += len(name)
        return (name,)


# ---------------------------------------------------------------------------------------------
# Encoding.


def digits(v, width, complement):
    if v >= 10**width:
        raise Refused(f"{v} does not fit width {width}")
    return str(10**width - 1 - v if complement else v).zfill(width)


def encode_unsigned(v, field, bits):
    if not 0 <= v < 2**bits:
        raise Refused(f"{v} is not a u{bits}")
    if field["max"] is not None and v > field["max"]:
        raise Refused(f"{v} is above max")
    return digits(v, field["width"], field["desc"])


def encode_signed(v, field, bits):
    if not -(2 ** (bits - 1)) <= v < 2 ** (bits - 1):
        raise Refused(f"{v} is not an i{bits}")
    if field["max"] is not None and v > field["max"]:
        raise Refused(f"{v} is above max")
    neg, mag = v < 0, abs(v)
    if field["desc"] and mag != 0:
        neg = not neg
    return ("-" if neg else "0") + digits(mag, field["width"] - 1, neg)


def float_bits(v, bits):
    import struct
    fmt = ("<d", "<Q") if bits == 64 else ("<f", "<I")
    return struct.unpack(fmt[1], struct.pack(fmt[0], v))[0]


def encode_float(v, field, bits):
    if v != v:
        raise Refused("NaN has no place in the order")
    if field["desc"]:
        v = -v
    if field["hex"]:
        n = bits // 4
        raw, sign = float_bits(v, bits), 1 << (bits - 1)
        ordered = raw | sign if raw & sign == 0 else ~raw & ((1 << bits) - 1)
        return format(ordered, f"0{n}x")
    if v == float("inf"):
        return "Z"
    if v == float("-inf"):
        return "A"
    if v == 0:
        return "N" if str(v).startswith("-") else "O"
    if bits == 32:
        raise Refused("the readable f32 form needs a shortest f32 printer")
    # repr() is the shortest text that reads back to the same float, as Rust's ryu writes it.
    _, all_digits, exp = Decimal(repr(abs(v))).as_tuple()
    ds = "".join(map(str, all_digits)).rstrip("0")
    biased = len(all_digits) + exp - 1 + 500
    if v < 0:
        return "M" + f"{999 - biased:03d}" + "".join(str(9 - int(d)) for d in ds) + "~"
    return "P" + f"{biased:03d}" + ds


def encode_text(s, field, sep, last):
    if not last:
        for i, c in enumerate(s):
            if c <= sep:
                raise Refused(f"{c!r} at {i} is not above the separator")
    return s


def nanos_of(text):
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{3}|\d{6}|\d{9}))?Z", text)
    if not m:
        raise Refused(f"{text!r} is not RFC 3339 UTC text")
    y, mo, d, h, mi, s = map(int, m.groups()[:6])
    secs = int(datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc).timestamp())
    frac = (m.group(7) or "").ljust(9, "0")
    return secs * 10**9 + int(frac)


def rfc3339(nanos, unit):
    secs, frac = divmod(nanos, 10**9)
    text = datetime.fromtimestamp(secs, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    n = FRACTION_DIGITS[unit]
    return text + (f".{frac // UNIT_NANOS[unit]:0{n}d}" if n else "") + "Z"


def encode_type(value, ty, field, sep, last):
    kind = ty[0]
    if kind == "option":
        return "0" if value is None else "1" + encode_type(value[0] if ty[1][0] == "option" else value, ty[1], field, sep, last)
    if kind in INT_BITS:
        bits, signed = INT_BITS[kind]
        v = int(value)
        return encode_signed(v, field, bits) if signed else encode_unsigned(v, field, bits)
    if kind in ("f32", "f64"):
        v = float(value) if not isinstance(value, str) else float({"inf": "inf", "-inf": "-inf"}.get(value, value))
        return encode_float(v, field, int(kind[1:]))
    if kind == "bool":
        return "1" if value != field["desc"] else "0"
    if kind in ("text", "char", "custom", "uuid", "ulid"):
        return encode_text(value, field, sep, last)
    if kind == "enum":
        if value not in ty[1]:
            raise Refused(f"{value!r} is no name of the enum")
        return value
    if kind == "timestamp":
        nanos = nanos_of(value)
        if nanos > MAX_NANOS:
            raise Refused("after year 9999")
        unit = field["unit"] or "s"
        count = nanos // UNIT_NANOS[unit]
        if field["rfc3339"]:
            return rfc3339(count * UNIT_NANOS[unit], unit)
        return encode_unsigned(count, field, 128)
    if kind == "decimal":
        d = Decimal(value)
        scaled = d.scaleb(field["scale"])
        if scaled != scaled.to_integral_value():
            raise Refused(f"{value} has more decimals than scale {field['scale']}")
        return encode_signed(int(scaled), {**field, "max": field["max"]}, 128)
    if kind == "key":
        return encode_key(value, ty[1], last)
    raise ValueError(f"unknown type {kind}")


def encode_key(value, key, last):
    sep = key["sep"]
    if "family" in key:
        for variant in key["family"]:
            if isinstance(variant, str) and value == variant:
                return variant
            if isinstance(variant, dict) and isinstance(value, dict) and variant["prefix"] in value:
                return encode_key(value[variant["prefix"]], variant, last)
        raise Refused(f"{value!r} is no variant")
    out = key["prefix"] + sep if key["prefix"] is not None else ""
    if key.get("custom"):
        return out + value
    fields = key["fields"]
    parts = [encode_type(value[f["name"]], f["type"], f, sep, last and i + 1 == len(fields)) for i, f in enumerate(fields)]
    return out + sep.join(parts)


def encode(layout, value):
    key = encode_key(value, layout["key"], True)
    if not key or len(key.encode("utf-8")) > (layout["max_len"] if "family" not in layout["key"] else 1024):
        raise Refused("empty or longer than the key may be")
    return key


# ---------------------------------------------------------------------------------------------
# Decoding: the fields back from a key, read as the layout says.


class Reader:
    def __init__(self, key):
        self.key, self.at = key, 0

    def take(self, n):
        s = self.key[self.at:self.at + n]
        if len(s) != n:
            raise Refused("the key ends early")
        self.at += n
        return s

    def expect(self, s):
        if self.take(len(s)) != s:
            raise Refused(f"expected {s!r}")


def read_digits(r, width, complement):
    s = r.take(width)
    if not s.isdigit() or not s.isascii():
        raise Refused(f"{s!r} is not {width} digits")
    v = int(s)
    return 10**width - 1 - v if complement else v


def read_signed(r, field):
    sign = r.take(1)
    if sign not in "-0":
        raise Refused("a bad sign")
    neg = sign == "-"
    mag = read_digits(r, field["width"] - 1, neg)
    if neg and mag == 0:
        raise Refused("negative zero")
    if field["desc"] and mag != 0:
        neg = not neg
    return -mag if neg else mag


def read_float(r, field, bits):
    if field["hex"]:
        import struct
        n = bits // 4
        ordered, sign = int(r.take(n), 16), 1 << (bits - 1)
        raw = ordered & ~sign if ordered & sign else ~ordered & ((1 << bits) - 1)
        fmt = ("<Q", "<d") if bits == 64 else ("<I", "<f")
        v = struct.unpack(fmt[1], struct.pack(fmt[0], raw))[0]
    else:
        c = r.take(1)
        if c in "AZNO":
            v = {"A": float("-inf"), "Z": float("inf"), "N": -0.0, "O": 0.0}[c]
        else:
            biased = int(r.take(3))
            ds = ""
            while r.at < len(r.key) and r.key[r.at].isdigit():
                ds += r.take(1)
            if c == "M":
                r.expect("~")
                biased, ds = 999 - biased, "".join(str(9 - int(d)) for d in ds)
            v = float(f"{'-' if c == 'M' else ''}0.{ds}e{biased - 500 + 1}")
    return -v if field["desc"] else v


def read_text(r, sep, last):
    if last:
        s = r.key[r.at:]
        r.at = len(r.key)
        return s
    end = r.key.find(sep, r.at)
    end = len(r.key) if end < 0 else end
    s = r.key[r.at:end]
    r.at = end
    return s


def read_type(r, ty, field, sep, last):
    kind = ty[0]
    if kind == "option":
        tag = r.take(1)
        if tag == "0":
            return None
        inner = read_type(r, ty[1], field, sep, last)
        return [inner] if ty[1][0] == "option" else inner
    if kind in INT_BITS:
        return read_signed(r, field) if INT_BITS[kind][1] else read_digits(r, field["width"], field["desc"])
    if kind in ("f32", "f64"):
        return read_float(r, field, int(kind[1:]))
    if kind == "bool":
        return (r.take(1) == "1") != field["desc"]
    if kind == "timestamp":
        unit = field["unit"] or "s"
        if field["rfc3339"]:
            return rfc3339(nanos_of(r.take(20 + (FRACTION_DIGITS[unit] + 1 if FRACTION_DIGITS[unit] else 0))), unit)
        count = read_digits(r, field["width"], field["desc"])
        return rfc3339(count * UNIT_NANOS[unit], "ns")
    if kind == "decimal":
        return str(Decimal(read_signed(r, field)).scaleb(-field["scale"]))
    if kind == "key":
        return read_key(r, ty[1], last)
    return read_text(r, sep, last)


def read_key(r, key, last):
    sep = key["sep"]
    if "family" in key:
        rest = r.key[r.at:]
        for variant in key["family"]:
            first = variant.split(sep)[0] if isinstance(variant, str) else variant["prefix"]
            if rest == first or rest.startswith(first + sep):
                if isinstance(variant, str):
                    r.expect(variant)
                    return variant
                return {variant["prefix"]: read_key(r, variant, last)}
        raise Refused("no variant's prefix")
    if key["prefix"] is not None:
        r.expect(key["prefix"] + sep)
    if key.get("custom"):
        return read_text(r, sep, last)
    fields = key["fields"]
    value = {}
    for i, f in enumerate(fields):
        if i:
            r.expect(sep)
        value[f["name"]] = read_type(r, f["type"], f, sep, last and i + 1 == len(fields))
    return value


def decode(layout, key):
    r = Reader(key)
    value = read_key(r, layout["key"], True)
    if r.at != len(key):
        raise Refused("trailing text")
    return value


def same(a, b):
    """Fields as this reader decodes them against the file's: numbers by value (a decimal's
    text, an integer's string, a timestamp's fraction digits may differ in form)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, str) and isinstance(b, str) and a.endswith("Z") and b.endswith("Z") and "T" in a:
        return nanos_of(a) == nanos_of(b)
    try:
        return Decimal(str(a)) == Decimal(str(b)) and str(a).startswith("-") == str(b).startswith("-")
    except Exception:
        return a == b


def check(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    layout = Parser(doc["layout"]).layout()
    failures = 0
    for v in doc["vectors"]:
        failures += check_vector(layout, doc["type"], v)
    total = len(doc["vectors"])
    print(f"{doc['type']}: {total - failures} of {total} vectors agree ({doc['layout']})")
    return failures


def check_vector(layout, name, v):
    """1 when this reader disagrees with the vector (printing how), else 0."""
    failures = 0
    fields = v["fields"]
    try:
        mine, why = encode(layout, fields), None
    except Refused as e:
        mine, why = None, str(e)
    if "key" in v and mine != v["key"]:
        failures += 1
        print(f"{name}: {fields}: Rust {v['key']!r}, Python {mine!r}" + (f" ({why})" if why else ""))
    if "error" in v and mine is not None:
        failures += 1
        print(f"{name}: {fields}: Rust refuses it ({v['error']}), Python gives {mine!r}")
    if "key" in v:
        try:
            back = decode(layout, v["key"])
        except Refused as e:
            back = f"refused: {e}"
        if not same(back, fields):
            failures += 1
            print(f"{name}: {v['key']!r} decodes to {back!r}, expected {fields!r}")
    return min(failures, 1)


def read_lock(text):
    """A lock's layouts by name (parsed, in the file's order) and its versions: a list of
    (current, [older, ...]) pairs. Refused when a line is neither form, or a version line names
    a layout the lock has not, one already in a version line, or one of another role."""
    layouts, versions, seen = {}, [], set()
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    for n, line in lines:
        if line.startswith("table "):
            continue
        if " = " in line:
            name, layout = line.split(" = ", 1)
            layouts[name] = Parser(layout).layout()
        elif " > " not in line:
            raise Refused(f"line {n}: expected `name = layout`, `Current > Older` or `table T A: Name`, found {line!r}")
    for n, line in lines:
        if line.startswith("table "):
            # `table TABLE ATTRIBUTE: Name, Other`: layouts of the lock, of one role.
            head, _, names = line[len("table "):].partition(": ")
            names = names.split(", ")
            for name in names:
                if name not in layouts:
                    raise Refused(f"line {n}: {name!r} is no layout of the lock")
                if layouts[name]["partition"] != layouts[names[0]]["partition"]:
                    raise Refused(f"line {n}: {name!r} is of another role than {names[0]!r}")
            continue
        if " = " in line:
            continue
        names = line.split(" > ")
        for name in names:
            if name not in layouts:
                raise Refused(f"line {n}: {name!r} is no layout of the lock")
            if name in seen:
                raise Refused(f"line {n}: {name!r} is in two version lines")
            seen.add(name)
            if layouts[name]["partition"] != layouts[names[0]]["partition"]:
                raise Refused(f"line {n}: {name!r} is of another role than {names[0]!r}")
        versions.append((names[0], names[1:]))
    return layouts, versions


def check_lock(path):
    with open(path, encoding="utf-8") as f:
        layouts, versions = read_lock(f.read())
    for current, older in versions:
        print(f"{path}: {current} reads its older layouts {', '.join(older)}")
    print(f"{path}: {len(layouts)} layouts, {len(versions)} with older versions")
    return 0


def fnv1a64(data):
    """FNV-1a, 64 bits, as the README specifies the shard rule."""
    h = 0xCBF29CE484222325
    for byte in data:
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def check_shards(path):
    """Each vector's shard, computed here from the rule alone: h = fnv1a64(utf-8 bytes), mixed by
    MurmurHash3's 64-bit finalizer, then h mod count."""
    with open(path, encoding="utf-8") as f:
        vectors = json.load(f)["vectors"]
    failures = 0
    for v in vectors:
        h = fnv1a64(v["value"].encode("utf-8"))
        m = 0xFFFFFFFFFFFFFFFF
        x = h ^ (h >> 33)
        x = (x * 0xFF51AFD7ED558CCD) & m
        x ^= x >> 33
        x = (x * 0xC4CEB9FE1A85EC53) & m
        x ^= x >> 33
        shard = x % v["count"]
        if f"{h:016x}" != v["fnv1a64"] or shard != v["shard"]:
            failures += 1
            print(f"{path}: {v['value']!r} mod {v['count']}: expected {v['shard']} ({v['fnv1a64']}), computed {shard} ({h:016x})")
    print(f"{path}: {len(vectors)} shard vectors, {failures} failures")
    return min(failures, 1)


def main(paths):
    if paths[:1] == ["--shards"]:
        return max([check_shards(p) for p in paths[1:]] or [0])
    if paths[:1] == ["--lock"]:
        try:
            return max([check_lock(p) for p in paths[1:]] or [0])
        except Refused as e:
            print(f"refused: {e}")
            return 1
    failures = sum(check(p) for p in paths)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
