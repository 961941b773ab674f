"""Key conditions (spec/SPEC.md, SK-QRY): a builder that fixes fields in order by name and ends
with a range, a prefix or equality, and the condition as DynamoDB's `KeyConditionExpression`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from .codec import MAX_NANOS, UNIT_NANOS, Spec, _spec, encode_text, encode_type, rfc3339
from .errors import EncodeError, QueryError
from .layout import Key, Layout, Type

SORT_LIMIT = 1024
PARTITION_LIMIT = 2048


@dataclass(frozen=True)
class KeyCondition:
    """One of DynamoDB's sort key conditions: `op` is "=", "<", "<=", ">", ">=", "between" or
    "begins_with", with one value (two for "between", low first)."""

    op: str
    values: Tuple[str, ...]

    def matches(self, key: str) -> bool:
        """Whether `key` satisfies the condition, comparing UTF-8 bytes as DynamoDB does."""
        k = key.encode("utf-8")
        v = [x.encode("utf-8") for x in self.values]
        return {
            "=": lambda: k == v[0], "<": lambda: k < v[0], "<=": lambda: k <= v[0],
            ">": lambda: k > v[0], ">=": lambda: k >= v[0],
            "between": lambda: v[0] <= k <= v[1], "begins_with": lambda: k.startswith(v[0]),
        }[self.op]()

    def __str__(self) -> str:
        """As the Rust crates show it: `sk BETWEEN "low" AND "high"`, `begins_with(sk, "RUN#")`."""
        q = [_quoted(v) for v in self.values]
        if self.op == "between":
            return f"sk BETWEEN {q[0]} AND {q[1]}"
        if self.op == "begins_with":
            return f"begins_with(sk, {q[0]})"
        return f"sk {self.op} {q[0]}"

    def expression(self, partition_attribute: str, partition_value: str, sort_attribute: str) -> Dict[str, Any]:
        """The Query's `KeyConditionExpression`, `ExpressionAttributeNames` and
        `ExpressionAttributeValues` (in the low-level client's form), ready for boto3:
        ``client.query(TableName=t, **condition.expression("pk", "SEASON#7", "sk"))``."""
        sk = {
            "=": "#sk = :sk0", "<": "#sk < :sk0", "<=": "#sk <= :sk0", ">": "#sk > :sk0", ">=": "#sk >= :sk0",
            "between": "#sk BETWEEN :sk0 AND :sk1", "begins_with": "begins_with(#sk, :sk0)",
        }[self.op]
        values = {":pk": {"S": partition_value}}
        values.update({f":sk{i}": {"S": v} for i, v in enumerate(self.values)})
        return {
            "KeyConditionExpression": f"#pk = :pk AND {sk}",
            "ExpressionAttributeNames": {"#pk": partition_attribute, "#sk": sort_attribute},
            "ExpressionAttributeValues": values,
        }


def _quoted(s: str) -> str:
    """`s` quoted as Rust's `{:?}` quotes a string (escapes for quotes, backslashes and controls)."""
    out = ['"']
    for c in s:
        if c in ('"', "\\"):
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c == "\0":
            out.append("\\0")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{{{ord(c):x}}}")
        else:
            out.append(c)
    return "".join(out) + '"'


def _utf8_len(s: str) -> int:
    return len(s.encode("utf-8"))


def _push_greatest(n: int) -> str:
    return "\U0010FFFF" * (n // 4) + {3: "\uFFFF", 2: "\u07FF", 1: "\x7F", 0: ""}[n % 4]


def _next_char(c: str) -> Optional[str]:
    n = ord(c)
    if n == 0xD7FF:
        return "\uE000"
    return chr(n + 1) if n + 1 <= 0x10FFFF else None


def _previous_char(c: str) -> str:
    n = ord(c)
    if n == 0xE000:
        return "\uD7FF"
    return chr(n - 1) if n > 0 else "\0"


def _least_at_or_above(s: str, limit: int) -> Optional[str]:
    if _utf8_len(s) <= limit:
        return s
    for i in range(len(s) - 1, -1, -1):
        nxt = _next_char(s[i])
        if nxt is not None and _utf8_len(s[:i]) + _utf8_len(nxt) <= limit:
            return s[:i] + nxt
    return None


def _greatest_at_or_below(s: str, limit: int) -> str:
    if _utf8_len(s) <= limit:
        return s
    out, used = "", 0
    for c in s:
        if used + _utf8_len(c) > limit:
            break
        out += c
        used += _utf8_len(c)
    return out + _push_greatest(limit - used)


class _Head:
    """The fixed part of a condition: the encoded prefix and fields so far (QueryHead)."""

    def __init__(self, key_name: str, prefix: Optional[str], sep: str, max_len: int, partition: bool) -> None:
        self.key_name, self.sep = key_name, sep
        self.head: Any = prefix or ""
        self.segments = 1 if prefix is not None else 0
        self.max_len = min(max_len, PARTITION_LIMIT if partition else SORT_LIMIT)

    def error(self, field: Optional[str], kind: str, message: str) -> QueryError:
        return QueryError(kind, field, message)

    def fix(self, write) -> None:  # type: ignore[no-untyped-def]
        if isinstance(self.head, EncodeError):
            return
        piece = self.sep if self.segments > 0 else ""
        self.segments += 1
        try:
            self.head = self.head + piece + write()
        except EncodeError as e:
            self.head = e

    def open_head(self) -> str:
        if isinstance(self.head, EncodeError):
            raise _encode_error(self.head)
        head: str = self.head
        return head + (self.sep if self.segments > 0 else "")

    def succ_sep(self) -> str:
        return chr(ord(self.sep) + 1)

    def region_end(self, q: str) -> str:
        return q[:-1] + self.succ_sep()

    def lower(self, q: str, e: str, cmp: str, spec: Spec) -> str:
        s = q + e
        if cmp == ">=":
            return s
        if not spec.last:
            return s + self.succ_sep()
        return _successor(s, spec)

    def upper(self, q: str, e: str, cmp: str, spec: Spec) -> str:
        s = q + e
        if cmp == "<=":
            return s if spec.last else s + self.succ_sep()
        if not spec.last:
            return s
        return _predecessor(s, spec, self.max_len)

    def one_sided(self, cmp: str, e: str, spec: Spec) -> KeyCondition:
        if cmp in (">=", "<") or spec.last:
            return KeyCondition(cmp, (e,))
        return KeyCondition(">=" if cmp == ">" else "<", (e + self.succ_sep(),))

    def no_empty_bound(self, c: KeyCondition, spec: Spec) -> KeyCondition:
        if c.values[0] == "" and c.op in (">=", ">"):
            raise self.error(spec.name, "MatchesEverything", "the condition matches every key")
        if c.values[0] == "" and c.op in ("<", "<="):
            raise self.error(spec.name, "EmptyRange", "the condition matches no key")
        return c

    def between_checked(self, low: str, high: str, spec: Spec) -> KeyCondition:
        if low.encode("utf-8") > high.encode("utf-8"):
            raise self.error(spec.name, "EmptyRange", "the range is empty")
        return self.within_limit(KeyCondition("between", (low, high)), spec.name)

    def within_limit(self, c: KeyCondition, field: Optional[str]) -> KeyCondition:
        limit = self.max_len
        if max(_utf8_len(v) for v in c.values) <= limit:
            return c

        def empty() -> QueryError:
            return self.error(field, "EmptyRange", "no key of at most the limit lies in the range")

        if c.op == "=":
            raise self.error(None, "Encode:TooLong", "the key is longer than a key may be")
        if c.op == "begins_with":
            raise empty()
        if c.op in (">=", ">"):
            v = _least_at_or_above(c.values[0], limit)
            if v is None:
                raise empty()
            return KeyCondition(">=", (v,))
        if c.op in ("<=", "<"):
            return KeyCondition("<=", (_greatest_at_or_below(c.values[0], limit),))
        lo = _least_at_or_above(c.values[0], limit)
        if lo is None:
            raise empty()
        hi = _greatest_at_or_below(c.values[1], limit)
        if lo.encode("utf-8") > hi.encode("utf-8"):
            raise empty()
        return KeyCondition("between", (lo, hi))

    def begins_with(self) -> KeyCondition:
        q = self.open_head()
        if self.segments == 0:
            raise self.error(None, "MatchesEverything", "the condition matches every key")
        return self.within_limit(KeyCondition("begins_with", (q,)), None)

    def eq(self) -> KeyCondition:
        if isinstance(self.head, EncodeError):
            raise _encode_error(self.head)
        if self.head == "":
            raise self.error(None, "Encode:Empty", "the key would be empty")
        return self.within_limit(KeyCondition("=", (self.head,)), None)

    def text_begins_with(self, prefix: str, spec: Spec) -> KeyCondition:
        q = self.open_head()
        try:
            q += encode_text(prefix, spec)
        except EncodeError as e:
            raise _encode_error(e)
        if q == "":
            raise self.error(spec.name, "MatchesEverything", "the condition matches every key")
        return self.within_limit(KeyCondition("begins_with", (q,)), spec.name)

    def compare(self, cmp: str, spec: Spec, bounded: Optional[Tuple[str, int, int]], write) -> KeyCondition:  # type: ignore[no-untyped-def]
        q = self.open_head()
        try:
            e = write()
        except EncodeError as err:
            raise _encode_error(err)
        if spec.desc:
            cmp = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[cmp]
        end = {"<": "least", ">": "greatest"}.get(cmp)
        if end is not None and bounded is not None:
            written = _end(bounded, spec, end)
            if written is not None and written == e:
                raise self.error(spec.name, "EmptyRange", "the range is past the end of the field's values")
        if self.segments == 0:
            c = self.no_empty_bound(self.one_sided(cmp, e, spec), spec)
            return self.within_limit(c, spec.name)
        if cmp in (">=", ">"):
            low, high = self.lower(q, e, cmp, spec), self.region_end(q)
        else:
            low, high = q, self.upper(q, e, cmp, spec)
        return self.between_checked(low, high, spec)

    def between(self, spec: Spec, low_write, high_write) -> KeyCondition:  # type: ignore[no-untyped-def]
        q = self.open_head()
        try:
            lo, hi = low_write(), high_write()
        except EncodeError as err:
            raise _encode_error(err)
        if spec.desc:
            lo, hi = hi, lo
        low = q + lo
        high = self.upper(q, hi, "<=", spec)
        if low == "":
            c = self.no_empty_bound(KeyCondition("<=", (high,)), spec)
            return self.within_limit(c, spec.name)
        return self.between_checked(low, high, spec)


def _encode_error(e: EncodeError) -> QueryError:
    return QueryError(f"Encode:{e.kind}", e.field, str(e))


def _successor(s: str, spec: Spec) -> str:
    if spec.width > 0 and s:
        return s[:-1] + chr(ord(s[-1]) + 1)
    return s + "\0"


def _predecessor(s: str, spec: Spec, max_len: int) -> str:
    if not s:
        return s
    last, s = s[-1], s[:-1]
    if spec.width > 0:
        return s + (chr(ord(last) - 1) if ord(last) > 0 else last)
    if last == "\0":
        return s
    s += _previous_char(last)
    return s + _push_greatest(max(max_len - _utf8_len(s), 0))


def _bounded(t: Type) -> Optional[Tuple[str, int, int]]:
    options = 0
    while t.kind == "option":
        options += 1
        t = t.inner  # type: ignore[assignment]
    if t.kind in ("u", "i"):
        return (t.kind, t.bits, options)
    if t.kind in ("bool", "timestamp"):
        return (t.kind, 0, options)
    if t.kind == "decimal":
        return ("decimal", 0, options)
    return None


def _end(bounded: Tuple[str, int, int], spec: Spec, end: str) -> Optional[str]:
    """The encoding of the field's least (`end` "least") or greatest value (ends.rs)."""
    kind, bits, options = bounded
    out = ""
    if options > 0:
        if end == "least":
            return "0"
        out = "1" * options
    greatest_value = (end == "greatest") != spec.desc
    from .codec import encode_signed, encode_unsigned
    try:
        if kind == "u":
            type_max = 2 ** (bits or 64) - 1
            greatest = min(type_max, 10**spec.width - 1)
            if spec.max is not None:
                greatest = min(greatest, spec.max)
            return out + encode_unsigned(greatest if greatest_value else 0, spec)
        if kind in ("i", "decimal"):
            magnitude = 10 ** max(spec.width - 1, 0) - 1
            # A decimal is written as its scaled integer, whose magnitude is at most a mantissa.
            if kind == "decimal":
                type_max = type_least = 2**96 - 1
            else:
                type_max = 2 ** ((bits or 64) - 1) - 1
                type_least = type_max + 1
            if greatest_value:
                v = min(magnitude, type_max)
                if spec.max is not None:
                    v = min(v, spec.max)
            else:
                v = -min(magnitude, type_least)
            return out + encode_signed(v, spec)
        if kind == "bool":
            return out + ("1" if greatest_value != spec.desc else "0")
        unit = UNIT_NANOS[spec.unit]
        if greatest_value:
            in_range = MAX_NANOS // unit
            count = in_range if spec.rfc3339 else min(in_range, 10**spec.width - 1)
            if spec.max is not None:
                count = min(count, spec.max)
            nanos = count * unit
        else:
            nanos = 0
        if spec.rfc3339:
            return out + rfc3339(nanos, spec.unit)
        return out + encode_unsigned(nanos // unit, spec)
    except EncodeError:
        return None


class Query:
    """A condition being built on a layout: `fix` fields in order by name, then end with
    `compare`, `between`, `text_begins_with`, `begins_with` or `eq`. A family picks its
    `variant` first. A mistake is kept and raised by the method that ends the query."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.name = layout.name
        self.partition = layout.partition
        self.family: Optional[List[Any]] = layout.key.variants
        self.key: Optional[Key] = None if self.family is not None else layout.key
        self.fixed = 0
        prefix = self.key.prefix if self.key is not None else None
        self.head = _Head(self.name, prefix, layout.key.separator, layout.max_len, layout.partition)
        self.error: Optional[QueryError] = None

    def _keep(self, e: QueryError) -> "Query":
        if self.error is None:
            self.error = e
        return self

    def variant(self, name: str) -> "Query":
        """Picks the family's variant: a unit variant's literal or a keyed variant's prefix."""
        variants, self.family = self.family, None
        if variants is None:
            return self._keep(QueryError("OutOfOrder", None, "a field of the key, which is no family"))
        for v in variants:
            if isinstance(v, str) and v == name:
                self.head = _Head(self.name, name, "#", SORT_LIMIT, self.partition)
                self.key = Key(None, "#")
                return self
            if isinstance(v, Key) and v.prefix == name:
                self.head = _Head(self.name, v.prefix, v.separator, SORT_LIMIT, self.partition)
                self.key = v
                return self
        return self._keep(QueryError("OutOfOrder", None, f"no variant {name!r}"))

    def _checked(self) -> None:
        if self.error is not None:
            raise self.error
        if self.family is not None:
            raise QueryError("OutOfOrder", None, "a variant first")

    def _next(self, name: str) -> Tuple[Any, Spec]:
        if self.key is None:
            raise QueryError("OutOfOrder", name, "a variant of the family first")
        fields = self.key.fields
        if self.fixed < len(fields) and fields[self.fixed].name == name:
            f = fields[self.fixed]
            return f, _spec(self.name, f, self.key.separator, self.fixed + 1 == len(fields))
        expected = f"field `{fields[self.fixed].name}` next" if self.fixed < len(fields) else "no more fields"
        raise QueryError("OutOfOrder", name, expected)

    def _range(self, name: str) -> Tuple[Any, Spec]:
        self._checked()
        f, spec = self._next(name)
        if self.partition:
            raise QueryError("NotASortKey", name, "a range on a partition key")
        return f, spec

    def fix(self, name: str, value: Any) -> "Query":
        """Fixes the next field, `name`, to `value`."""
        try:
            f, spec = self._next(name)
        except QueryError as e:
            return self._keep(e)
        self.fixed += 1
        self.head.fix(lambda: encode_type(value, f.type, spec))
        return self

    def compare(self, name: str, op: str, value: Any) -> KeyCondition:
        """The keys whose field `name` is `op` ("<", "<=", ">", ">=") `value`."""
        f, spec = self._range(name)
        return self.head.compare(op, spec, _bounded(f.type), lambda: encode_type(value, f.type, spec))

    def between(self, name: str, low: Any, high: Any) -> KeyCondition:
        """The keys whose field `name` is from `low` to `high`, both included."""
        f, spec = self._range(name)
        return self.head.between(spec, lambda: encode_type(low, f.type, spec), lambda: encode_type(high, f.type, spec))

    def text_begins_with(self, name: str, prefix: str) -> KeyCondition:
        """The keys whose text field `name` starts with `prefix`."""
        f, spec = self._range(name)
        if f.type.kind != "text":
            raise QueryError("Encode:Mismatch", name, "a `text` field for a prefix")
        return self.head.text_begins_with(prefix, spec)

    def begins_with(self) -> KeyCondition:
        """Every key under the fields fixed so far."""
        self._checked()
        if self.key is not None and self.fixed >= len(self.key.fields):
            return self.head.eq()
        if self.partition:
            raise QueryError("NotASortKey", None, "a prefix of a partition key")
        return self.head.begins_with()

    def eq(self) -> KeyCondition:
        """The one key whose fields are all fixed."""
        self._checked()
        if self.key is not None and self.fixed < len(self.key.fields):
            raise QueryError("OutOfOrder", None, f"field `{self.key.fields[self.fixed].name}`")
        return self.head.eq()
