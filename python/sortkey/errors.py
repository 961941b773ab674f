"""The refusals, with the kinds, fields and offsets of spec/SPEC.md."""

from __future__ import annotations

from typing import Optional


class SortKeyError(Exception):
    """Any refusal of this package."""


class LayoutError(SortKeyError, ValueError):
    """A layout text the grammar does not allow (SK-LAY-005): where, what was expected, what was found."""

    def __init__(self, offset: int, expected: str, found: str) -> None:
        super().__init__(f"layout text at byte {offset}: expected {expected}, found {found}")
        self.offset, self.expected, self.found = offset, expected, found


class LockError(SortKeyError, ValueError):
    """A lock text that is not a lock (SK-LCK-001), at its line (counted from 1)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class EncodeError(SortKeyError, ValueError):
    """A value that has no key (SK-ENC): its kind (`TooWide`, `AboveMax`, ...), the field, and why."""

    def __init__(self, kind: str, field: Optional[str], message: str, key: str = "DynLayout") -> None:
        where = f"{key}.{field}" if field else key
        super().__init__(f"cannot encode {where}: {kind}: {message}")
        self.kind, self.field, self.key = kind, field, key


class DecodeError(SortKeyError, ValueError):
    """A key its layout does not read (SK-DEC): its kind (`WrongWidth`, ...), the field, and the
    byte offset in the key where reading stopped."""

    def __init__(self, kind: str, field: Optional[str], offset: int, expected: str, found: str, key: str = "DynLayout") -> None:
        where = f"{key}.{field}" if field else key
        super().__init__(f"cannot decode {where} at byte {offset}: {kind}: expected {expected}, found {found}")
        self.kind, self.field, self.offset, self.key = kind, field, offset, key


class QueryError(SortKeyError, ValueError):
    """A condition that cannot be made (SK-QRY-005): `MatchesEverything`, `EmptyRange`,
    `OutOfOrder`, `NotASortKey`, or `Encode:<kind>` when a value does not fit its field."""

    def __init__(self, kind: str, field: Optional[str], message: str) -> None:
        super().__init__(f"{kind}" + (f" on {field}" if field else "") + f": {message}")
        self.kind, self.field = kind, field
