"""Layout texts (spec/SPEC.md, SK-LAY): the model and its parser.

A layout text is read by recursive descent into a :class:`Layout`; a text the grammar does not
allow is a :class:`LayoutError` at the byte where it leaves the grammar.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple, Union

from .errors import LayoutError

NUMBERS = {
    "usize": ("u", 0), "isize": ("i", 0),
    "u128": ("u", 128), "u64": ("u", 64), "u32": ("u", 32), "u16": ("u", 16), "u8": ("u", 8),
    "i128": ("i", 128), "i64": ("i", 64), "i32": ("i", 32), "i16": ("i", 16), "i8": ("i", 8),
    "f32": ("f", 32), "f64": ("f", 64),
}
NAMED = ("bool", "char", "text", "timestamp", "uuid", "ulid", "decimal", "custom")
UNITS = ("s", "ms", "us", "ns")
SHARDS_MAX = 1000
SORT_LIMIT, PARTITION_LIMIT = 1024, 2048


@dataclass
class Type:
    """A field's type: `kind` is "u", "i", "f" (with `bits`, 0 for usize/isize), one of the
    named types, "option" (with `inner`), "enum" (with `names`) or "key" (with `key`)."""

    kind: str
    bits: int = 0
    inner: Optional["Type"] = None
    names: Tuple[str, ...] = ()
    key: Optional["Key"] = None

    def __str__(self) -> str:
        if self.kind in ("u", "i") and self.bits == 0:
            return "usize" if self.kind == "u" else "isize"
        if self.kind in ("u", "i", "f"):
            return f"{self.kind}{self.bits}"
        if self.kind == "option":
            return f"option<{self.inner}>"
        if self.kind == "enum":
            return "enum(" + "|".join(self.names) + ")"
        if self.kind == "key":
            return f"key({self.key})"
        return self.kind


@dataclass
class Shards:
    """A shard field's count and rule: `by` a sort key field's name, or random (`by` None)."""

    count: int
    by: Optional[str]

    @property
    def width(self) -> int:
        return len(str(self.count - 1))

    def __str__(self) -> str:
        return f"shards={self.count} " + (f"by={self.by}" if self.by is not None else "random")


@dataclass
class Field:
    """A field: its name, type and options as the text gives them (`width` 0 when not given)."""

    name: str
    type: Type
    width: int = 0
    desc: bool = False
    max: Optional[int] = None
    unit: Optional[str] = None
    rfc3339: bool = False
    hex: bool = False
    scale: Optional[int] = None
    shards: Optional[Shards] = None

    def __str__(self) -> str:
        out = f"{{{self.name}:{self.type}"
        if self.width > 0:
            out += f" width={self.width}"
        if self.desc:
            out += " desc"
        if self.max is not None and self.shards is None:
            out += f" max={self.max}"
        if self.unit is not None:
            out += f" unit={self.unit}"
        if self.rfc3339:
            out += " format=rfc3339"
        if self.hex:
            out += " format=hex"
        if self.scale is not None:
            out += f" scale={self.scale}"
        if self.shards is not None:
            out += f" {self.shards}"
        return out + "}"


Variant = Union[str, "Key"]


@dataclass
class Key:
    """A key: a prefix and separator, and its fields, or a family's variants, or a custom segment."""

    prefix: Optional[str]
    separator: str
    fields: List[Field] = field(default_factory=list)
    variants: Optional[List[Variant]] = None
    custom: bool = False
    # The fields' segment specs, worked out once per (key name, last) by the codec.
    specs: Dict[Tuple[str, bool], List[Any]] = field(default_factory=dict, repr=False, compare=False)

    def __str__(self) -> str:
        if self.variants is not None:
            return "family(" + " | ".join(str(v) for v in self.variants) + ")"
        if self.custom:
            return (f"{self.prefix}{self.separator}" if self.prefix is not None else "") + "{custom}"
        out = self.prefix if self.prefix is not None else ""
        for i, f in enumerate(self.fields):
            if i > 0 or self.prefix is not None:
                out += self.separator
            out += str(f)
        return out


@dataclass
class Layout:
    """A parsed layout: its role (partition or sort key), its longest key and its key."""

    partition: bool
    max_len: int
    key: Key
    name: str = "DynLayout"

    def __str__(self) -> str:
        out = ("partition " if self.partition else "") + str(self.key)
        if self.max_len != (PARTITION_LIMIT if self.partition else SORT_LIMIT):
            out += f" max_len={self.max_len}"
        return out


def _is_punct(c: Optional[str]) -> bool:
    return c is not None and len(c) == 1 and c.isascii() and not c.isalnum() and c.isprintable() and c != " "


class _Parser:
    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def rest(self) -> str:
        return self.text[self.at:]

    def eat(self, s: str) -> bool:
        if self.rest().startswith(s):
            self.at += len(s)
            return True
        return False

    def peek(self) -> Optional[str]:
        return self.text[self.at] if self.at < len(self.text) else None

    def error(self, expected: str) -> LayoutError:
        rest = self.rest()
        if not rest:
            found = "the end"
        elif len(rest) > 16:
            found = f"`{rest[:16]}...`"
        else:
            found = f"`{rest}`"
        return LayoutError(len(self.text[:self.at].encode("utf-8")), expected, found)

    def expect(self, s: str) -> None:
        if not self.eat(s):
            raise self.error(f"`{s}`")

    def number(self, what: str) -> int:
        rest = self.rest()
        n = 0
        while n < len(rest) and rest[n] in "0123456789":
            n += 1
        if n == 0 or n > 39:
            raise self.error(f"{what}, in decimal digits")
        value = int(rest[:n])
        self.at += n
        return value

    def until(self, stops: str) -> str:
        rest = self.rest()
        ends = [i for i in (rest.find(c) for c in stops) if i >= 0]
        end = min(ends) if ends else len(rest)
        self.at += end
        return rest[:end]

    def layout(self) -> Layout:
        partition = self.eat("partition ")
        key = self.key()
        max_len = PARTITION_LIMIT if partition else SORT_LIMIT
        if self.eat(" max_len="):
            max_len = self.number("the longest encoding in bytes")
        if self.at != len(self.text):
            raise self.error("the end of the layout (or ` max_len=N`)")
        top = [f for f in key.fields if f.shards is not None]
        if len(top) > 1 or _nested_shards(key, False) or (len(top) == 1 and not partition):
            starts = [i for i in range(len(self.text)) if self.text.startswith("shards=", i)]
            first = starts[0] if starts else 0
            self.at = starts[1] if len(top) > 1 and len(starts) > 1 else first
            raise self.error("`shards=N` on one field of a partition key (`partition ...`), not of a sort key or a nested key")
        return Layout(partition, max_len, key)

    def key(self) -> Key:
        if self.eat("family("):
            return self.family()
        start = self.at
        prefix = separator = None
        if self.peek() != "{":
            before = self.until("{)")
            sep = before[-1] if before else None
            if sep is not None and _is_punct(sep) and self.peek() == "{" and before[:-1]:
                prefix, separator = before[:-1], sep
            else:
                self.at = start
                raise self.error("a prefix and a separator before a field `{`, or a field")
        if self.eat("{custom}"):
            return Key(prefix, separator or "#", custom=True)
        fields = [self.field()]
        while _is_punct(self.peek()):
            c = self.peek()
            if not self.rest()[1:].startswith("{"):
                break
            if separator is not None and separator != c:
                raise self.error(f"the separator `{separator}` again")
            separator = c
            self.at += 1
            fields.append(self.field())
        separator = separator or "#"
        for f in fields:
            _inherit_separator(f.type, separator)
        return Key(prefix, separator, fields)

    def family(self) -> Key:
        variants: List[Variant] = []
        separator = None
        while True:
            start = self.at
            literal = self.until("{|)")
            keyed = self.peek() == "{"
            self.at = start
            if keyed:
                k = self.key()
                separator = separator or k.separator
                variants.append(k)
            else:
                literal = literal[:-1] if literal.endswith(" ") else literal
                if not literal:
                    raise self.error("a variant: a literal or a key")
                self.at += len(literal)
                variants.append(literal)
            if self.eat(" | "):
                continue
            self.expect(")")
            return Key(None, separator or "#", variants=variants)

    def field(self) -> Field:
        self.expect("{")
        start = self.at
        name = self.until(":{} ")
        if not name or self.peek() != ":":
            self.at = start
            raise self.error("a field's name and `:`")
        self.at += 1
        f = Field(name, self.ty())
        width_at = None
        shard_text = {"count": None, "by": None, "random": False}
        while self.eat(" "):
            if self.rest().startswith("width="):
                width_at = self.at
            if not self.shard_option(shard_text):
                self.option(f)
        self.shards(f, shard_text, width_at)
        if f.rfc3339 and width_at is not None:
            text_len = {"s": 20, "ms": 24, "us": 27, "ns": 30}[f.unit or "s"]
            if f.width != text_len:
                self.at = width_at
                raise self.error(f"no width, or `width={text_len}`, for an RFC 3339 timestamp of unit `{f.unit or 's'}` (its length)")
        self.expect("}")
        return f

    def shard_option(self, shards: Dict[str, Any]) -> bool:
        start = self.at

        def twice(what: str) -> LayoutError:
            self.at = start
            return self.error(f"`{what}` once, and `by=` or `random`, not both")

        if self.eat("shards="):
            if shards["count"] is not None:
                raise twice("shards")
            shards["count"] = (self.number("a shard count"), start)
        elif self.eat("by="):
            if shards["by"] is not None or shards["random"]:
                raise twice("by")
            name = self.until(" }")
            if not name:
                raise self.error("the name of the sort key's field the shard is calculated from")
            shards["by"] = name
        elif self.eat("random"):
            if shards["by"] is not None or shards["random"]:
                raise twice("random")
            shards["random"] = True
        else:
            return False
        return True

    def shards(self, f: Field, shards: Dict[str, Any], width_at: Optional[int]) -> None:
        if shards["count"] is None:
            if shards["by"] is not None or shards["random"]:
                raise self.error("`shards=N` before `by=` or `random` (a field with a rule is a shard)")
            return
        count, at = shards["count"]
        if shards["by"] is None and not shards["random"]:
            raise self.error("`by=name` or `random` after `shards=N`: how an item's shard is chosen")
        here = self.at

        def refuse(where: int, expected: str) -> LayoutError:
            self.at = where
            return self.error(expected)

        if not 1 <= count <= SHARDS_MAX:
            raise refuse(at, f"a shard count of 1 to {SHARDS_MAX}")
        if f.type.kind != "u" or f.type.bits != 16:
            raise refuse(at, "a shard field of type u16")
        if f.max is not None or f.desc:
            raise refuse(at, "no `max` and no `desc` on a shard field (its count sets its largest value)")
        s = Shards(count, shards["by"])
        if width_at is not None and f.width != s.width:
            raise refuse(width_at, f"no width, or `width={s.width}`, for {count} shards")
        f.width = s.width
        f.max = count - 1
        f.shards = s
        self.at = here

    def ty(self) -> Type:
        if self.eat("option<"):
            inner = self.ty()
            self.expect(">")
            return Type("option", inner=inner)
        if self.eat("enum("):
            names = []
            while True:
                name = self.until("|)")
                if not name:
                    raise self.error("a variant's name")
                names.append(name)
                if not self.eat("|"):
                    self.expect(")")
                    return Type("enum", names=tuple(names))
        if self.eat("key("):
            k = self.key()
            self.expect(")")
            return Type("key", key=k)
        rest = self.rest()
        ends = [i for i in (rest.find(c) for c in " }>") if i >= 0]
        word = rest[:min(ends) if ends else len(rest)]
        if word in NUMBERS:
            self.at += len(word)
            kind, bits = NUMBERS[word]
            return Type(kind, bits)
        if word in NAMED:
            self.at += len(word)
            return Type(word)
        raise self.error("a type: u8..u128, usize, i8..i128, isize, bool, char, text, f32, f64, timestamp, uuid, ulid, "
                         "decimal, option<..>, enum(..), key(..) or custom")

    def option(self, f: Field) -> None:
        start = self.at
        word = self.until(" }=")

        def once(already: bool) -> None:
            if already:
                self.at = start
                raise self.error(f"`{word}` once")

        if word == "desc":
            once(f.desc)
            f.desc = True
        elif word == "width":
            once(f.width > 0)
            self.expect("=")
            f.width = self.number("a width")
        elif word == "max":
            once(f.max is not None)
            self.expect("=")
            f.max = self.number("a largest value")
        elif word == "scale":
            once(f.scale is not None)
            self.expect("=")
            f.scale = self.number("a scale")
        elif word == "unit":
            once(f.unit is not None)
            self.expect("=")
            at = self.at
            unit = self.until(" }")
            if unit not in UNITS:
                self.at = at
                raise self.error("a unit: s, ms, us or ns")
            f.unit = unit
        elif word == "format":
            once(f.rfc3339 or f.hex)
            self.expect("=")
            if self.eat("rfc3339"):
                f.rfc3339 = True
            elif self.eat("hex"):
                f.hex = True
            else:
                raise self.error("a format: rfc3339 or hex")
        else:
            self.at = start
            raise self.error("an option: width=N, desc, max=N, unit=.., format=.., scale=N, shards=N, by=name or random")


def _nested_shards(key: Key, nested: bool) -> bool:
    def in_type(t: Type) -> bool:
        if t.kind == "option":
            return in_type(t.inner)  # type: ignore[arg-type]
        if t.kind == "key":
            return _nested_shards(t.key, True)  # type: ignore[arg-type]
        return False

    if key.variants is not None:
        return any(isinstance(v, Key) and _nested_shards(v, True) for v in key.variants)
    return any((nested and f.shards is not None) or in_type(f.type) for f in key.fields)


def _shows_separator(key: Key) -> bool:
    if key.variants is not None:
        return any((key.separator in v) if isinstance(v, str) else _shows_separator(v) for v in key.variants)
    if key.custom:
        return key.prefix is not None
    return key.prefix is not None or len(key.fields) > 1


def _inherit_separator(t: Type, outer: str) -> None:
    if t.kind == "option":
        _inherit_separator(t.inner, outer)  # type: ignore[arg-type]
    elif t.kind == "key" and not _shows_separator(t.key):  # type: ignore[arg-type]
        t.key.separator = outer  # type: ignore[union-attr]


def parse(text: str) -> Layout:
    """Reads a layout text (SK-LAY-001..005); a text the grammar does not allow is a
    :class:`LayoutError` at its byte offset."""
    return _Parser(text).layout()
