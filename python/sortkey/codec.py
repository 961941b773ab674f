"""Values to keys and keys to values (spec/SPEC.md, SK-ENC and SK-DEC), by a layout.

Values are in the JSON form of SK-DEC-004: a key is a dict of field name to value; integers are
`int` (a string of digits is read too); floats are `float` (or "inf", "-inf", "NaN"); timestamps
RFC 3339 UTC text; decimals, UUIDs and ULIDs their text; an option `None` or its value (`[value]`
when the value is itself an option); a family's unit variant its literal and a keyed one
`{prefix: fields}`; a custom segment its text.

Keys are read as UTF-8 bytes, so that an error's offset is a byte offset, as in every reader.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Dict, List, Optional, Tuple

from .errors import DecodeError, EncodeError
from .layout import Field, Key, Layout, Type

UNIT_NANOS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
FRACTION_DIGITS = {"s": 0, "ms": 3, "us": 6, "ns": 9}
RFC3339_LEN = {"s": 20, "ms": 24, "us": 27, "ns": 30}
MAX_NANOS = 253_402_300_799_999_999_999
MAX_MANTISSA = 2**96 - 1
UNSIGNED_DEFAULT = {8: 3, 16: 5, 32: 10, 64: 20, 128: 39, 0: 20}
SIGNED_DEFAULT = {8: 4, 16: 6, 32: 11, 64: 20, 128: 40, 0: 20}
UNIX_DEFAULT = {"s": 12, "ms": 15, "us": 18, "ns": 21}
DIGITS = b"0123456789"
# The one spelling of a UUID and of a ULID in a key (SK-ENC-018).
UUID_TEXT = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
ULID_TEXT = r"[0-7][0-9A-HJKMNP-TV-Z]{25}"


@dataclass
class Spec:
    """A field as its segment is written: the resolved width and options, and whether it is the
    key's last segment."""

    key: str
    name: str
    sep: str
    width: int
    desc: bool
    max: Optional[int]
    unit: str
    rfc3339: bool
    hex: bool
    scale: int
    last: bool

    @property
    def sep_byte(self) -> int:
        return ord(self.sep)


def _innermost(t: Type) -> Type:
    while t.kind == "option":
        t = t.inner  # type: ignore[assignment]
    return t


def _fixed_len(key: Key) -> Optional[int]:
    if key.variants is not None or key.custom:
        return None
    n = (len(key.prefix) + 1 if key.prefix is not None else 0) + len(key.fields) - 1
    for f in key.fields:
        k = f.type.kind
        if k in ("u", "i", "bool", "timestamp", "uuid", "ulid"):
            n += effective_width(f)
        elif k == "key":
            inner = _fixed_len(f.type.key)  # type: ignore[arg-type]
            if inner is None:
                return None
            n += inner
        else:
            return None
    return n


def effective_width(f: Field) -> int:
    """The width a field's segment has (SK-LAY-004): the given one, or its type's default."""
    t = _innermost(f.type)
    given = f.width if f.width > 0 else None
    if t.kind == "key":
        return _fixed_len(t.key) or 0  # type: ignore[arg-type]
    if t.kind == "timestamp":
        unit = f.unit or "s"
        if f.rfc3339:
            return RFC3339_LEN[unit]
        return given if given is not None else UNIX_DEFAULT[unit]
    if t.kind == "u":
        return given if given is not None else UNSIGNED_DEFAULT[t.bits]
    if t.kind == "i":
        return given if given is not None else SIGNED_DEFAULT[t.bits]
    if t.kind == "decimal":
        return given if given is not None else 30
    if t.kind == "bool":
        return 1
    if t.kind == "uuid":
        return 36
    if t.kind == "ulid":
        return 26
    return 0


def _specs(key: Key, outer: Spec) -> List[Spec]:
    """The specs of a key's fields as a key named `outer.key`, last when `outer` is: worked out
    once and kept on the key (a layout's fields do not change once parsed)."""
    cached = key.specs.get((outer.key, outer.last))
    if cached is None:
        n = len(key.fields)
        cached = [_spec(outer.key, f, key.separator, i + 1 == n and outer.last) for i, f in enumerate(key.fields)]
        key.specs[(outer.key, outer.last)] = cached
    return cached


def _spec(key_name: str, f: Field, sep: str, last: bool) -> Spec:
    return Spec(key_name, f.name, sep, effective_width(f), f.desc, f.max, f.unit or "s", f.rfc3339, f.hex,
                f.scale or 0, last)


# ---------------------------------------------------------------------------------------------
# Encoding.


def _fail(spec: Spec, kind: str, message: str) -> EncodeError:
    return EncodeError(kind, spec.name or None, message, spec.key)


def _mismatch(spec: Spec, expected: str, found: Any) -> EncodeError:
    return _fail(spec, "Mismatch", f"expected {expected}, found {found!r}")


def _int_of(value: Any, spec: Spec, what: str) -> int:
    if isinstance(value, bool):
        raise _mismatch(spec, what, value)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value):
        return int(value)
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:
        return int(value)
    raise _mismatch(spec, what, value)


def _digits(v: int, width: int, complement: bool) -> str:
    return str(10**width - 1 - v if complement else v).zfill(width)


def encode_unsigned(v: int, spec: Spec) -> str:
    if spec.max is not None and v > spec.max:
        raise _fail(spec, "AboveMax", f"{v} is above the field's max {spec.max}")
    if spec.width == 0 or v >= 10**spec.width:
        raise _fail(spec, "TooWide", f"{v} needs more than {spec.width} digits")
    return _digits(v, spec.width, spec.desc)


def encode_signed(v: int, spec: Spec) -> str:
    neg, mag = v < 0, abs(v)
    if spec.max is not None and not neg and mag > spec.max:
        raise _fail(spec, "AboveMax", f"{v} is above the field's max {spec.max}")
    digits = max(spec.width - 1, 0)
    if spec.width == 0 or mag >= 10**digits:
        raise _fail(spec, "TooWide", f"{v} needs more than {spec.width} characters")
    if spec.desc and mag != 0:
        neg = not neg
    return ("-" if neg else "0") + _digits(mag, digits, neg)


def _float_bits(v: float, bits: int) -> int:
    raw: int = struct.unpack("<Q" if bits == 64 else "<I", struct.pack("<d" if bits == 64 else "<f", v))[0]
    return raw


def _from_bits(raw: int, bits: int) -> float:
    v: float = struct.unpack("<d" if bits == 64 else "<f", struct.pack("<Q" if bits == 64 else "<I", raw))[0]
    return v


def _f32(v: float) -> float:
    """`v` as the nearest f32, as Rust's `as f32` reads it: infinity past the largest (where
    `struct` raises `OverflowError`)."""
    try:
        rounded: float = struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)
    return rounded


def shortest_digits(v: float, bits: int) -> Tuple[str, int]:
    """The shortest round-trip digits of a positive finite float and the exponent of its first
    digit: 1.5 is ("15", 0), 0.001 is ("1", -3)."""
    if bits == 64:
        text = repr(v)
    else:
        text = ""
        for n in range(1, 10):
            candidate = f"{v:.{n - 1}e}"
            if _f32(float(candidate)) == v:
                text = candidate
                break
    mantissa, _, exp = text.lower().partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    leading = len(whole + frac) - len((whole + frac).lstrip("0"))
    point = len(whole)
    e = point - leading - 1 + (int(exp) if exp else 0)
    digits = digits.rstrip("0") or "0"
    return digits, e


def encode_float(value: Any, spec: Spec, bits: int) -> str:
    if isinstance(value, str):
        v = {"inf": math.inf, "-inf": -math.inf, "NaN": math.nan}.get(value)
        if v is None:
            raise _mismatch(spec, "a float", value)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        v = float(value)
    else:
        raise _mismatch(spec, "a float", value)
    if bits == 32 and math.isfinite(v):
        # Read as an f32 as Rust's `as f32` does: the nearest, infinity past the largest.
        v = _f32(v)
    if math.isnan(v):
        raise _fail(spec, "NotANumber", "NaN has no place in the order of keys")
    if spec.desc:
        v = -v
    if spec.hex:
        n = bits // 4
        raw, sign = _float_bits(v, bits), 1 << (bits - 1)
        ordered = raw | sign if raw & sign == 0 else ~raw & ((1 << bits) - 1)
        return format(ordered, f"0{n}x")
    if math.isinf(v):
        return "A" if v < 0 else "Z"
    if v == 0:
        return "N" if math.copysign(1.0, v) < 0 else "O"
    exp_digits, bias = (3, 500) if bits == 64 else (2, 50)
    digits, e = shortest_digits(abs(v), bits)
    biased = e + bias
    if v < 0:
        biased = 10**exp_digits - 1 - biased
        return "M" + str(biased).zfill(exp_digits) + "".join(str(9 - int(d)) for d in digits) + "~"
    return "P" + str(biased).zfill(exp_digits) + digits


def encode_text(s: Any, spec: Spec) -> str:
    if not isinstance(s, str):
        raise _mismatch(spec, "text", s)
    if not spec.last:
        data = s.encode("utf-8")
        for i, b in enumerate(data):
            if b <= spec.sep_byte:
                ch = data[i:].decode("utf-8", "replace")[:1]
                raise _fail(spec, "ForbiddenChar", f"{ch!r} at byte {i} is not greater than the separator {spec.sep!r}")
    return s


def nanos_of(text: Any) -> Optional[int]:
    """An RFC 3339 UTC text (no fraction, or 1 to 9 digits) as nanoseconds since the epoch."""
    if not isinstance(text, str):
        return None
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?Z", text)
    if not m:
        return None
    y, mo, d, h, mi, s = map(int, m.groups()[:6])
    if not (1 <= mo <= 12 and 1 <= d <= _days_in_month(y, mo) and h < 24 and mi < 60 and s < 60):
        return None
    days = _days_from_civil(y, mo, d)
    frac = (m.group(7) or "").ljust(9, "0")
    return (days * 86400 + h * 3600 + mi * 60 + s) * 10**9 + int(frac)


def _days_in_month(y: int, m: int) -> int:
    if m == 2:
        return 29 if y % 4 == 0 and (y % 100 != 0 or y % 400 == 0) else 28
    return 30 if m in (4, 6, 9, 11) else 31


def _days_from_civil(y: int, m: int, d: int) -> int:
    y = y - 1 if m <= 2 else y
    era = y // 400
    yoe = y - era * 400
    mp = (m + 9) % 12
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146_097 + doe - 719_468


def _civil_from_days(z: int) -> Tuple[int, int, int]:
    z += 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (1 if m <= 2 else 0), m, d


def rfc3339(nanos: int, unit: str) -> str:
    """`nanos` as RFC 3339 UTC text with the unit's fraction digits (0, 3, 6 or 9)."""
    secs = nanos // 10**9
    y, mo, d = _civil_from_days(secs // 86400)
    sod = secs % 86400
    text = f"{y:04d}-{mo:02d}-{d:02d}T{sod // 3600:02d}:{sod // 60 % 60:02d}:{sod % 60:02d}"
    n = FRACTION_DIGITS[unit]
    if n:
        text += "." + str(nanos % 10**9 // UNIT_NANOS[unit]).zfill(n)
    return text + "Z"


def instant_text(nanos: int) -> str:
    """An instant as SK-DEC-004 writes it: the fewest of 0, 3, 6 or 9 fraction digits."""
    frac = nanos % 10**9
    unit = "s" if frac == 0 else "ms" if frac % 10**6 == 0 else "us" if frac % 10**3 == 0 else "ns"
    return rfc3339(nanos, unit)


def encode_time(value: Any, spec: Spec) -> str:
    nanos = nanos_of(value)
    if nanos is None:
        raise _mismatch(spec, "RFC 3339 UTC text", value)
    if nanos > MAX_NANOS:
        raise _fail(spec, "OutOfRange", f"{value} is after year 9999")
    if nanos < 0:
        raise _fail(spec, "OutOfRange", f"{value} is before 1970-01-01T00:00:00Z")
    unit = UNIT_NANOS[spec.unit]
    count = nanos // unit
    if spec.rfc3339:
        return rfc3339(count * unit, spec.unit)
    return encode_unsigned(count, spec)


def encode_decimal(value: Any, spec: Spec) -> str:
    try:
        d = Decimal(value) if isinstance(value, str) else None
    except InvalidOperation:
        d = None
    if d is None or not d.is_finite():
        raise _mismatch(spec, "a decimal's text", value)
    scaled = d.scaleb(spec.scale)
    if scaled != scaled.to_integral_value():
        raise _fail(spec, "TooPrecise", f"{value} has more than {spec.scale} decimals")
    return encode_signed(int(scaled), spec)


def _type_range(t: Type) -> Tuple[int, int]:
    bits = t.bits or 64
    if t.kind == "u":
        return 0, 2**bits - 1
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def encode_type(value: Any, t: Type, spec: Spec) -> str:
    k = t.kind
    if k == "option":
        if value is None:
            return "0"
        if t.inner.kind == "option":  # type: ignore[union-attr]
            if not isinstance(value, list) or len(value) != 1:
                raise _mismatch(spec, "[value] (an option in an option)", value)
            value = value[0]
        return "1" + encode_type(value, t.inner, spec)  # type: ignore[arg-type]
    if k in ("u", "i"):
        v = _int_of(value, spec, "an integer")
        low, high = _type_range(t)
        if not low <= v <= high:
            raise _mismatch(spec, f"a value of {t}", value)
        return encode_unsigned(v, spec) if k == "u" else encode_signed(v, spec)
    if k == "f":
        return encode_float(value, spec, t.bits)
    if k == "bool":
        if not isinstance(value, bool):
            raise _mismatch(spec, "a boolean", value)
        return "1" if value != spec.desc else "0"
    if k == "char":
        if not isinstance(value, str) or len(value) != 1:
            raise _mismatch(spec, "one character", value)
        return encode_text(value, spec)
    if k in ("text", "custom"):
        return encode_text(value, spec)
    if k == "enum":
        if value not in t.names:
            raise _mismatch(spec, "one of the names " + ", ".join(t.names), value)
        return encode_text(value, spec)
    if k == "timestamp":
        return encode_time(value, spec)
    if k == "decimal":
        return encode_decimal(value, spec)
    if k == "uuid":
        if not isinstance(value, str) or not re.fullmatch(UUID_TEXT, value.lower()):
            raise _mismatch(spec, "a UUID", value)
        return value.lower()
    if k == "ulid":
        if not isinstance(value, str) or not re.fullmatch(ULID_TEXT, value.upper()):
            raise _mismatch(spec, "a ULID", value)
        return value.upper()
    if k == "key":
        return encode_key(value, t.key, spec)  # type: ignore[arg-type]
    raise _mismatch(spec, str(t), value)


def encode_key(value: Any, key: Key, outer: Spec) -> str:
    sep = key.separator
    if key.variants is not None:
        for v in key.variants:
            if isinstance(v, str):
                if value == v:
                    return v
            elif isinstance(value, dict) and len(value) == 1 and v.prefix in value:
                return encode_key(value[v.prefix], v, outer)
        raise _mismatch(outer, "a variant of the family", value)
    out = key.prefix + sep if key.prefix is not None else ""
    if key.custom:
        return out + encode_text(value, outer)
    if not isinstance(value, dict):
        raise _mismatch(outer, "an object of the key's fields", value)
    names = [f.name for f in key.fields]
    for name in value:
        if name not in names:
            raise _mismatch(outer, "the key's fields " + ", ".join(names), name)
    parts = []
    for f, spec in zip(key.fields, _specs(key, outer)):
        if f.name not in value:
            raise _mismatch(spec, f"a value of field {f.name}", None)
        parts.append(encode_type(value[f.name], f.type, spec))
    return out + sep.join(parts)


def encode(layout: Layout, value: Any) -> str:
    """The key of `value` (SK-ENC); an :class:`EncodeError` when it has none."""
    whole = Spec(layout.name, "", "#", 0, False, None, "s", False, False, 0, True)
    key = encode_key(value, layout.key, whole)
    limit = 1024 if layout.key.variants is not None else layout.max_len
    if not key:
        raise EncodeError("Empty", None, "the key would be empty", layout.name)
    if len(key.encode("utf-8")) > limit:
        raise EncodeError("TooLong", None, f"{len(key.encode('utf-8'))} bytes, more than {limit}", layout.name)
    return key


# ---------------------------------------------------------------------------------------------
# Decoding.


HEX_DIGITS = frozenset(b"0123456789abcdef")


class Cursor:
    """A position in a key's UTF-8 bytes."""

    def __init__(self, key: bytes, name: str) -> None:
        self.key, self.pos, self.name = key, 0, name
        # Where the last fixed-width run of digits ended, and its field (SK-DEC-005).
        self.digits_end: Optional[Tuple[int, Spec]] = None

    def rest(self) -> bytes:
        return self.key[self.pos:]

    def error(self, offset: int, spec: Optional[Spec], kind: str, expected: str, found: str = "") -> DecodeError:
        return DecodeError(kind, spec.name if spec and spec.name else None, offset, expected, found, self.name)

    def error_here(self, spec: Optional[Spec], kind: str, expected: str) -> DecodeError:
        return self.error(self.pos, spec, kind, expected, repr(self.rest()[:16].decode("utf-8", "replace")))

    def take_digits(self, n: int, spec: Spec) -> bytes:
        run = self.key[self.pos:self.pos + n]
        if len(run) == n and all(b in DIGITS for b in run):
            self.pos += n
            self.digits_end = (self.pos, spec)
            return run
        rest = self.rest()
        count = 0
        while count < len(rest) and rest[count] in DIGITS:
            count += 1
        if count >= n:
            kind = "NotADigit"
        elif count == len(rest) or rest[count] == spec.sep_byte:
            kind = "WrongWidth"
        else:
            kind = "NotADigit"
        raise self.error_here(spec, kind, f"{n} ASCII digits")

    def take_ascii(self, n: int, spec: Spec, expected: str) -> str:
        run = self.key[self.pos:self.pos + n]
        if len(run) == n and all(b < 128 for b in run):
            self.pos += n
            return run.decode("ascii")
        raise self.error_here(spec, "InvalidText", expected)

    def take_matching(self, n: int, spec: Spec, pattern: str, expected: str) -> str:
        """The next `n` ASCII characters, which must be all of `pattern` (a fixed-width segment's
        one spelling: a UUID's, a ULID's); refused at the segment's start otherwise."""
        start = self.pos
        text = self.take_ascii(n, spec, expected)
        if not re.fullmatch(pattern, text):
            raise self.error(start, spec, "InvalidText", expected)
        return text

    def take_text(self, spec: Spec) -> str:
        rest = self.rest()
        if spec.last:
            self.pos = len(self.key)
            return rest.decode("utf-8")
        end = 0
        while end < len(rest) and rest[end] > spec.sep_byte:
            end += 1
        if end < len(rest) and rest[end] != spec.sep_byte:
            raise self.error(self.pos + end, spec, "InvalidText", f"text characters greater than {spec.sep!r} or the separator")
        self.pos += end
        return rest[:end].decode("utf-8")

    def expect(self, literal: str, kind: str, spec: Optional[Spec], what: str) -> None:
        data = literal.encode("utf-8")
        if self.rest().startswith(data):
            self.pos += len(data)
            return
        raise self.error(self.pos, spec, kind, f"{what} {literal!r}")


def _parse_digits(run: bytes, complement: bool) -> int:
    v = int(run) if run else 0
    return 10 ** len(run) - 1 - v if complement else v


def decode_unsigned(c: Cursor, spec: Spec, largest: int) -> int:
    start = c.pos
    run = c.take_digits(spec.width, spec)
    v = _parse_digits(run, spec.desc)
    if v > largest:
        raise c.error(start, spec, "OutOfRange", "a value that fits the type")
    if spec.max is not None and v > spec.max:
        raise c.error(start, spec, "AboveMax", f"a value at most {spec.max}")
    return v


def decode_signed(c: Cursor, spec: Spec, least_mag: int, largest: int) -> int:
    start = c.pos
    if spec.width == 0:
        raise c.error_here(spec, "WrongWidth", "a signed segment of width at least 1")
    first = c.key[start:start + 1]
    if first not in (b"0", b"-"):
        raise c.error_here(spec, "BadSign", "`0` or `-`")
    neg = first == b"-"
    c.pos += 1
    run = c.take_digits(spec.width - 1, spec)
    mag = _parse_digits(run, neg)
    if neg and mag == 0:
        raise c.error(start, spec, "NegativeZero", "a negative number")
    if spec.desc and mag != 0:
        neg = not neg
    if mag > (least_mag if neg else largest):
        raise c.error(start, spec, "OutOfRange", "a value that fits the type")
    if spec.max is not None and not neg and mag > spec.max:
        raise c.error(start, spec, "AboveMax", f"a value at most {spec.max}")
    return -mag if neg else mag


def decode_float(c: Cursor, spec: Spec, bits: int) -> Any:
    v = _decode_hex(c, spec, bits) if spec.hex else _decode_readable(c, spec, bits)
    v = -v if spec.desc else v
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _decode_hex(c: Cursor, spec: Spec, bits: int) -> float:
    n = bits // 4
    start = c.pos
    expected = f"{n} lowercase hex digits"
    # A run of hex digits of another length, ending where the segment may end: another width.
    rest = c.rest()
    run = 0
    while run < min(len(rest), n + 1) and rest[run] in HEX_DIGITS:
        run += 1
    if run > n:
        raise c.error(start + n, spec, "WrongWidth", "the end of the float after its hex digits")
    if run < n and (run == len(rest) or rest[run] == spec.sep_byte):
        raise c.error(start, spec, "WrongWidth", expected)
    text = c.take_ascii(n, spec, expected)
    if not re.fullmatch(r"[0-9a-f]+", text):
        raise c.error(start, spec, "InvalidText", expected)
    ordered, sign = int(text, 16), 1 << (bits - 1)
    raw = ordered & ~sign if ordered & sign else ~ordered & ((1 << bits) - 1)
    v = _from_bits(raw, bits)
    if math.isnan(v):
        # No float encodes to NaN bits: not the one spelling of any value.
        raise c.error(start, spec, "NotCanonical", "the bits of a number, not of NaN")
    return v


def _decode_readable(c: Cursor, spec: Spec, bits: int) -> float:
    start = c.pos
    cls = c.key[start:start + 1]
    special = {b"A": -math.inf, b"N": -0.0, b"O": 0.0, b"Z": math.inf}.get(cls)
    if special is not None:
        c.pos += 1
        return special
    if cls not in (b"M", b"P"):
        raise c.error_here(spec, "InvalidText", "a class letter: A, M, N, O, P or Z")
    negative = cls == b"M"
    c.pos += 1
    exp_digits, bias, max_digits = (3, 500, 17) if bits == 64 else (2, 50, 9)
    exp = c.take_digits(exp_digits, spec)
    rest = c.rest()
    run = 0
    while run < len(rest) and rest[run] in DIGITS:
        run += 1
    digits = c.take_digits(run, spec).decode("ascii")
    # The digits end at the float's end: `~` for a negative one, the separator or the key's end
    # for a positive one; any other character is no digit.
    after = c.key[c.pos:c.pos + 1]
    ends_here = after == b"" or after[0] == spec.sep_byte
    if not ends_here and not (negative and after == b"~"):
        raise c.error_here(spec, "NotADigit", "a digit or the float's end")
    if negative:
        c.expect("~", "InvalidText", spec, "the end of a negative float,")

    def plain(d: str) -> str:
        return str(9 - int(d)) if negative else d

    ds = "".join(plain(d) for d in digits)
    if not ds or len(ds) > max_digits or ds[0] == "0" or ds[-1] == "0":
        raise c.error(start, spec, "NotCanonical", "the shortest digits of a float")
    biased = int("".join(plain(d) for d in exp.decode("ascii")))
    e = biased - bias
    try:
        m = float(f"{ds[0]}.{ds[1:] or '0'}e{e}")
    except (ValueError, OverflowError):
        m = math.inf
    if bits == 32:
        m = _f32(m) if math.isfinite(m) and abs(m) < 3.5e38 else math.inf
    if math.isinf(m) or m == 0 or shortest_digits(m, bits) != (ds, e):
        raise c.error(start, spec, "NotCanonical", "the shortest digits of a finite, non-zero float")
    return -m if negative else m


def decode_time(c: Cursor, spec: Spec) -> str:
    start = c.pos
    unit = UNIT_NANOS[spec.unit]
    if spec.rfc3339:
        text = c.take_ascii(spec.width, spec, "RFC 3339 UTC text such as 2024-06-23T00:00:00Z")
        n = FRACTION_DIGITS[spec.unit]
        pattern = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d" + (r"\.\d{%d}" % n if n else "") + "Z"
        nanos = nanos_of(text) if re.fullmatch(pattern, text) else None
        if nanos is None:
            raise c.error(start, spec, "InvalidText", "RFC 3339 UTC text with a valid date and time")
    else:
        count = decode_unsigned(c, spec, 2**128 - 1)
        nanos = count * unit
    if nanos > MAX_NANOS or nanos < 0:
        raise c.error(start, spec, "OutOfRange", "an instant from 1970 to year 9999")
    return instant_text(nanos)


def decode_text(c: Cursor, spec: Spec) -> str:
    return c.take_text(spec)


def decode_type(c: Cursor, t: Type, spec: Spec) -> Any:
    k = t.kind
    if k == "u":
        return decode_unsigned(c, spec, _type_range(t)[1])
    if k == "i":
        low, high = _type_range(t)
        return decode_signed(c, spec, -low, high)
    if k == "f":
        return decode_float(c, spec, t.bits)
    if k == "bool":
        start = c.pos
        run = c.key[start:start + 1]
        if run in (b"0", b"1"):
            c.pos += 1
            return (run == b"1") != spec.desc
        if run and run in DIGITS:
            raise c.error(start, spec, "OutOfRange", "`0` or `1`")
        if not run:
            raise c.error(start, spec, "WrongWidth", "`0` or `1`")
        raise c.error(start, spec, "NotADigit", "`0` or `1`")
    if k == "char":
        start = c.pos
        text = c.take_text(spec)
        if len(text) != 1:
            raise c.error(start, spec, "InvalidText", "exactly one character")
        return text
    if k in ("text", "custom"):
        return c.take_text(spec)
    if k == "enum":
        start = c.pos
        text = c.take_text(spec)
        if text not in t.names:
            raise c.error(start, spec, "UnknownName", "one of the names " + ", ".join(t.names))
        return text
    if k == "timestamp":
        return decode_time(c, spec)
    if k == "decimal":
        start = c.pos
        v = decode_signed(c, spec, MAX_MANTISSA, MAX_MANTISSA)
        if spec.scale > 28:
            raise c.error(start, spec, "OutOfRange", "a scale of at most 28")
        text = str(Decimal(v).scaleb(-spec.scale))
        if spec.scale and "E" in text:
            text = f"{Decimal(v).scaleb(-spec.scale):.{spec.scale}f}"
        return text
    if k == "uuid":
        return c.take_matching(36, spec, UUID_TEXT, "a lowercase hyphenated UUID")
    if k == "ulid":
        return c.take_matching(26, spec, ULID_TEXT, "a ULID of 26 uppercase Crockford base32 characters")
    if k == "option":
        tag = c.key[c.pos:c.pos + 1]
        if tag == b"0":
            c.pos += 1
            return None
        if tag == b"1":
            c.pos += 1
            inner = decode_type(c, t.inner, spec)  # type: ignore[arg-type]
            return [inner] if t.inner.kind == "option" else inner  # type: ignore[union-attr]
        raise c.error_here(spec, "BadTag", "`0` (None) or `1` (Some, then the value)")
    if k == "key":
        return decode_key(c, t.key, spec)  # type: ignore[arg-type]
    raise c.error_here(spec, "Invalid", f"a `{t}` segment")


def _first(variant: Any, sep: str) -> str:
    if isinstance(variant, str):
        return variant.split(sep)[0]
    return variant.prefix or ""


def _has_first_segment(rest: bytes, first: str, sep: str) -> bool:
    f = first.encode("utf-8")
    return rest.startswith(f) and (len(rest) == len(f) or rest[len(f)] == ord(sep))


def _expect_key_prefix(c: Cursor, prefix: str, sep: str) -> None:
    rest = c.rest()
    p = prefix.encode("utf-8")
    if rest.startswith(p) and rest[len(p):len(p) + 1] == sep.encode():
        c.pos += len(p) + 1
        return
    c.expect(prefix + sep, "WrongPrefix", None, "the prefix")


def decode_key(c: Cursor, key: Key, outer: Spec) -> Any:
    sep = key.separator
    if key.variants is not None:
        for v in key.variants:
            if not _has_first_segment(c.rest(), _first(v, sep), sep):
                continue
            if isinstance(v, str):
                c.expect(v, "WrongPrefix", None, "the prefix")
                return v
            return {_first(v, sep): decode_key(c, v, outer)}
        raise c.error_here(outer, "UnknownVariant", "a key starting with one of the family's prefixes")
    if key.prefix is not None:
        _expect_key_prefix(c, key.prefix, sep)
    if key.custom:
        return c.take_text(outer)
    value: Dict[str, Any] = {}
    n = len(key.fields)
    for i, (f, spec) in enumerate(zip(key.fields, _specs(key, outer))):
        value[f.name] = decode_type(c, f.type, spec)
        if i + 1 < n:
            try:
                c.expect(sep, "MissingSeparator", spec, "the separator after it,")
            except DecodeError as e:
                rest = c.rest()
                if rest[:1] and rest[0] in DIGITS and spec.width > 0:
                    e.kind = "WrongWidth"
                raise
    return value


def decode(layout: Layout, key: str) -> Any:
    """The value of `key` (SK-DEC); a :class:`DecodeError` with its kind, field and byte offset
    when the layout does not read it."""
    data = key.encode("utf-8")
    whole = Spec(layout.name, "", "#", 0, False, None, "s", False, False, 0, True)
    if layout.key.variants is not None:
        sep = layout.key.separator
        for v in layout.key.variants:
            first = _first(v, sep)
            if not _has_first_segment(data, first, sep):
                continue
            limit = 1 << 62 if isinstance(v, str) else 1024
            _check_length(data, layout.name, limit)
            c = Cursor(data, layout.name)
            if isinstance(v, str):
                c.expect(v, "WrongPrefix", None, "the prefix")
                result: Any = v
            else:
                result = {first: decode_key(c, v, whole)}
            _expect_end(c)
            return result
        raise DecodeError("UnknownVariant", None, 0, "a key starting with one of the family's prefixes",
                          repr(key[:16]), layout.name)
    _check_length(data, layout.name, layout.max_len)
    c = Cursor(data, layout.name)
    value = decode_key(c, layout.key, whole)
    _expect_end(c)
    return value


def _check_length(data: bytes, name: str, limit: int) -> None:
    if not data:
        raise DecodeError("Empty", None, 0, "a non-empty key", "an empty string", name)
    if len(data) > limit:
        raise DecodeError("TooLong", None, limit, f"a key of at most {limit} bytes", f"{len(data)} bytes", name)


def _expect_end(c: Cursor) -> None:
    if c.pos != len(c.key):
        # A digit right after the last field's run of digits: that field is wider than its width.
        if c.digits_end is not None and c.digits_end[0] == c.pos and c.key[c.pos] in DIGITS:
            raise c.error(c.pos, c.digits_end[1], "WrongWidth", "the end of the key after the field's digits")
        raise c.error(c.pos, None, "TrailingInput", "end of key")
