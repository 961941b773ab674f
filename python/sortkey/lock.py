"""The lock and a key's versions (spec/SPEC.md, SK-LCK): its layouts by name, which are older
versions of which, reading a key by whichever live layout reads it, one condition on every
version, and the merge of their queries' keys."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .codec import MAX_NANOS, UNIT_NANOS, decode, effective_width, encode, nanos_of
from .errors import DecodeError, LayoutError, LockError, QueryError
from .layout import Field, Layout, parse
from .query import KeyCondition, Query


@dataclass
class FieldCondition:
    """A condition by field names, independent of any one layout: a family's variant, fields
    fixed in order, then how it ends (`("prefix",)`, `("eq",)`, `("compare", name, op, value)`,
    `("between", name, low, high)` or `("text_begins_with", name, prefix)`)."""

    variant: Optional[str] = None
    fixed: List[Tuple[str, Any]] = field(default_factory=list)
    end: Tuple[Any, ...] = ("prefix",)

    def fix(self, name: str, value: Any) -> "FieldCondition":
        self.fixed.append((name, value))
        return self

    def compare(self, name: str, op: str, value: Any) -> "FieldCondition":
        self.end = ("compare", name, op, value)
        return self

    def between(self, name: str, low: Any, high: Any) -> "FieldCondition":
        self.end = ("between", name, low, high)
        return self

    def text_begins_with(self, name: str, prefix: str) -> "FieldCondition":
        self.end = ("text_begins_with", name, prefix)
        return self

    def eq(self) -> "FieldCondition":
        self.end = ("eq",)
        return self

    def widest_on(self, layout: Layout) -> Optional[KeyCondition]:
        """The widest condition `layout` can express of this one (SK-LCK-003): its variant and the
        longest run of the fixed fields it puts first, then every key with them; `None` when it can
        express none or none of its keys can match."""
        for n in range(len(self.fixed), -1, -1):
            wider = FieldCondition(self.variant, list(self.fixed[:n]), ("prefix",))
            try:
                return wider.on(layout)
            except (QueryError, LayoutError):
                continue
        return None

    def on(self, layout: Layout) -> Optional[KeyCondition]:
        """The condition on `layout` (SK-LCK-003): a bound the layout cannot hold clipped to
        what it holds; `None` when none of its keys can match."""
        q = Query(layout)
        if self.variant is not None:
            q = q.variant(self.variant)
        for name, value in self.fixed:
            if _fit(_next_field(q), name, value) != 0:
                return None
            q = q.fix(name, value)
        try:
            kind = self.end[0]
            if kind == "prefix":
                return q.begins_with()
            if kind == "eq":
                return q.eq()
            if kind == "text_begins_with":
                return q.text_begins_with(self.end[1], self.end[2])
            if kind == "compare":
                _, name, op, value = self.end
                at = _fit(_next_field(q), name, value)
                if at == 0:
                    return q.compare(name, op, value)
                if (op in (">", ">=")) == (at > 0):
                    return None
                return q.begins_with()
            _, name, low, high = self.end
            f = _next_field(q)
            lo, hi = _fit(f, name, low), _fit(f, name, high)
            if lo == 0 and hi == 0:
                return q.between(name, low, high)
            if lo > 0 or hi < 0:
                return None
            if lo < 0 and hi > 0:
                return q.begins_with()
            if lo < 0:
                return q.compare(name, "<=", high)
            return q.compare(name, ">=", low)
        except QueryError as e:
            if e.kind == "EmptyRange":
                return None
            raise


def _next_field(q: Query) -> Optional[Field]:
    if q.key is None or q.fixed >= len(q.key.fields):
        return None
    return q.key.fields[q.fixed]


def _capacity(f: Field) -> Optional[Tuple[str, int, int]]:
    """(kind, least, largest) a numeric or timestamp field holds, from its type, width and max."""
    t = f.type
    while t.kind == "option":
        t = t.inner  # type: ignore[assignment]
    w = effective_width(f)
    if t.kind == "u":
        largest = min(2 ** (t.bits or 64) - 1, 10**w - 1)
        return ("int", 0, largest if f.max is None else min(largest, f.max))
    if t.kind == "i":
        mag = 10 ** max(w - 1, 0) - 1
        bits = t.bits or 64
        largest = min(mag, 2 ** (bits - 1) - 1)
        return ("int", -min(mag, 2 ** (bits - 1)), largest if f.max is None else min(largest, f.max))
    if t.kind == "timestamp":
        unit = UNIT_NANOS[f.unit or "s"]
        largest = MAX_NANOS // unit
        if not f.rfc3339:
            largest = min(largest, 10**w - 1)
        return ("time", unit, largest if f.max is None else min(largest, f.max))
    return None


def _fit(f: Optional[Field], name: str, value: Any) -> int:
    """-1, 0 or 1: `value` below, within or above what the field `name` holds."""
    if f is None or f.name != name:
        return 0
    cap = _capacity(f)
    if cap is None:
        return 0
    kind, a, b = cap
    if kind == "time":
        nanos = nanos_of(value)
        if nanos is None:
            return 0
        return 1 if nanos // a > b else 0
    try:
        v = int(value)
    except (TypeError, ValueError):
        return 0
    return -1 if v < a else 1 if v > b else 0


@dataclass
class Lock:
    """A lock file's layouts by name, its version lines and its table lines (SK-LCK-001)."""

    layouts: Dict[str, Layout]
    versions: List[List[str]]
    tables: List[Tuple[str, str, List[str]]]
    #: `rank Layout.field levels=N` lines: (layout, field, levels), the layouts keeping rank counters.
    ranks: List[Tuple[str, str, int]] = field(default_factory=list)

    @staticmethod
    def parse(text: str) -> "Lock":
        layouts: Dict[str, Layout] = {}
        chains: List[Tuple[int, str]] = []
        tables: List[Tuple[int, str]] = []
        ranks: List[Tuple[int, str]] = []
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            if line.startswith("table "):
                tables.append((i, line[len("table "):]))
            elif line.startswith("rank "):
                ranks.append((i, line[len("rank "):]))
            elif " = " in line:
                name, text_ = line.split(" = ", 1)
                try:
                    layout = parse(text_)
                except LayoutError as e:
                    raise LockError(i, f"byte {e.offset + len(name) + 3}: expected {e.expected}, found {e.found}")
                layout.name = name
                layouts[name] = layout
            elif " > " in line:
                chains.append((i, line))
            else:
                raise LockError(
                    i,
                    "expected `name = layout`, `Current > Older`, `table TABLE ATTRIBUTE: Name` or `rank Name.field levels=N`",
                )
        lock = Lock(layouts, [], [])
        seen: List[str] = []
        for i, line in chains:
            names = line.split(" > ")
            for name in names:
                if name not in layouts:
                    raise LockError(i, f"`{name}` is no layout of the lock")
                if name in seen or names.count(name) > 1:
                    raise LockError(i, f"`{name}` is in a version line already")
                if layouts[name].partition != layouts[names[0]].partition:
                    raise LockError(i, f"`{name}` is of another role than `{names[0]}`")
            seen.extend(names)
            lock.versions.append(names)
        for i, rest in tables:
            head, sep, names_text = rest.partition(": ")
            table, _, attribute = head.partition(" ")
            if not sep or not table or not attribute:
                raise LockError(i, "expected `table TABLE ATTRIBUTE: Name, Other`")
            names = names_text.split(", ")
            for name in names:
                if name not in layouts:
                    raise LockError(i, f"`{name}` is no layout of the lock")
                if layouts[name].partition != layouts[names[0]].partition:
                    raise LockError(i, f"`{name}` is of another role than `{names[0]}`")
            lock.tables.append((table, attribute, names))
        for i, rest in ranks:
            head, sep, levels = rest.partition(" levels=")
            name, dot, ranked = head.partition(".")
            if not sep or not dot or not levels.isdigit():
                raise LockError(i, f"expected `rank Layout.field levels=N`, found `rank {rest}`")
            if name not in layouts:
                raise LockError(i, f"`{name}` is no layout of the lock")
            lock.ranks.append((name, ranked, int(levels)))
        return lock

    def get(self, name: str) -> Layout:
        return self.layouts[name]

    def live(self, name: str) -> "Live":
        """The live layouts of `name`'s key, current first, then its older versions newest first."""
        for chain in self.versions:
            if name in chain:
                return Live([(n, self.layouts[n]) for n in chain])
        return Live([(name, self.layouts[name])])


@dataclass
class Read:
    """A key read by a key's live layouts: its version (0 for the current layout), the layout's
    name, and its value."""

    version: int
    layout: str
    value: Any


@dataclass
class Live:
    """The live layouts of one key, current first (SK-LCK-002..004)."""

    layouts: List[Tuple[str, Layout]]

    def decode_any(self, key: str) -> Read:
        """The first live layout that reads `key`; the current layout's refusal when none does."""
        for version, (name, layout) in enumerate(self.layouts):
            try:
                return Read(version, name, decode(layout, key))
            except DecodeError:
                continue
        decode(self.layouts[0][1], key)
        raise AssertionError("unreachable")

    def conditions(self, condition: FieldCondition) -> List[Optional[KeyCondition]]:
        """`condition` on each layout; `None` for one none of whose keys can match. An older
        layout that refuses it (its fields in another order) gets the widest condition it can
        express, and its keys are held to the current condition in `merge`."""
        out: List[Optional[KeyCondition]] = []
        for i, (_, layout) in enumerate(self.layouts):
            try:
                out.append(condition.on(layout))
            except QueryError:
                if i == 0:
                    raise
                out.append(condition.widest_on(layout))
        return out

    def merge(self, conditions: Sequence[Optional[KeyCondition]], pages: Sequence[Sequence[str]],
              forward: bool = True) -> List[Tuple[str, int, str]]:
        """The keys each version's query returned (`pages[v]`), merged (SK-LCK-004): each result's
        key, version and key in the current layout, in the current layout's order, each once."""
        results: List[Tuple[str, int, str]] = []
        for page in pages:
            for key in page:
                try:
                    read = self.decode_any(key)
                except DecodeError:
                    continue
                c = conditions[read.version] if read.version < len(conditions) else None
                if c is None or not c.matches(key):
                    continue
                try:
                    current = key if read.version == 0 else encode(self.layouts[0][1], read.value)
                except Exception:
                    continue
                # An older key is also held to the current condition, through its current key.
                if read.version > 0 and (conditions[0] is None or not conditions[0].matches(current)):
                    continue
                results.append((key, read.version, current))
        results.sort(key=lambda r: (r[2].encode("utf-8"), r[1]))
        unique: List[Tuple[str, int, str]] = []
        for r in results:
            if not unique or unique[-1][2] != r[2]:
                unique.append(r)
        if not forward:
            unique.reverse()
        return unique
