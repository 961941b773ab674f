/** The refusals, with the kinds, fields and offsets of spec/SPEC.md. */

/** Any refusal of this package. */
export class SortKeyError extends Error {}

/** A layout text the grammar does not allow (SK-LAY-005): where, what was expected, what was found. */
export class LayoutError extends SortKeyError {
  constructor(
    readonly offset: number,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`layout text at byte ${offset}: expected ${expected}, found ${found}`);
  }
}

/** A lock text that is not a lock (SK-LCK-001), at its line (counted from 1). */
export class LockError extends SortKeyError {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** A value that has no key (SK-ENC): its kind (`TooWide`, `AboveMax`, ...) and field. */
export class EncodeError extends SortKeyError {
  constructor(
    readonly kind: string,
    readonly field: string | null,
    message: string,
    readonly key = "DynLayout",
  ) {
    super(`cannot encode ${field ? `${key}.${field}` : key}: ${kind}: ${message}`);
  }
}

/** A key its layout does not read (SK-DEC): its kind, the field, and the byte offset where reading stopped. */
export class DecodeError extends SortKeyError {
  constructor(
    public kind: string,
    readonly field: string | null,
    readonly offset: number,
    expected: string,
    readonly key = "DynLayout",
  ) {
    super(`cannot decode ${field ? `${key}.${field}` : key} at byte ${offset}: ${kind}: expected ${expected}`);
  }
}

/**
 * A condition that cannot be made (SK-QRY-005): `MatchesEverything`, `EmptyRange`, `OutOfOrder`,
 * `NotASortKey`, or `Encode:<kind>` when a value does not fit its field.
 */
export class QueryError extends SortKeyError {
  constructor(
    readonly kind: string,
    readonly field: string | null,
    message: string,
  ) {
    super(`${kind}${field ? ` on ${field}` : ""}: ${message}`);
  }
}
