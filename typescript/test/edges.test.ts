/**
 * Edges found from outside, both ends of each range: instants before 1970 (SK-ENC-017), refused
 * as `OutOfRange` when written, read or asked for, and the largest f32, as the Rust crates write
 * it.
 */

import assert from "node:assert/strict";
import { test } from "node:test";

import { DecodeError, EncodeError, Query, QueryError, decode, encode, parse } from "../src/index.js";

for (const unit of ["s", "ms", "us", "ns"]) {
  for (const format of ["", " format=rfc3339"]) {
    test(`an instant before 1970 is out of range (unit ${unit}${format})`, () => {
      const layout = parse(`EVT#{at:timestamp unit=${unit}${format}}#{id:text}`);
      for (const before of ["1969-12-31T23:59:59Z", "1969-12-31T23:59:59.999999999Z", "0001-01-01T00:00:00Z"]) {
        assert.throws(
          () => encode(layout, { at: before, id: "e1" }),
          (e: unknown) => e instanceof EncodeError && e.kind === "OutOfRange" && e.field === "at",
          before,
        );
      }
      for (const at of ["1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z"]) {
        assert.deepEqual(decode(layout, encode(layout, { at, id: "e1" })), { at, id: "e1" });
      }
      assert.throws(() => new Query(layout).compare("at", ">=", "1969-12-31T23:59:59Z"));
    });
  }
}

test("a stored RFC 3339 instant before 1970 is refused", () => {
  const layout = parse("EVT#{at:timestamp format=rfc3339}");
  assert.throws(
    () => decode(layout, "EVT#1969-12-31T23:59:59Z"),
    (e: unknown) => e instanceof DecodeError && e.kind === "OutOfRange" && e.field === "at" && e.offset === 4,
  );
});

test("the largest f32 encodes and reads back", () => {
  const layout = parse("PRICE#{price:f32}#{name:text}");
  const largest = 3.4028234663852886e38;
  assert.equal(encode(layout, { price: largest, name: "n" }), "PRICE#P8834028235#n");
  assert.deepEqual(decode(layout, "PRICE#P8834028235#n"), { price: largest, name: "n" });
  assert.equal(encode(layout, { price: 3.5e38, name: "n" }), "PRICE#Z#n");
});

for (const desc of ["", " desc"]) {
  test(`a decimal past an end is the empty range${desc}`, () => {
    const layout = parse(`P#{amount:decimal width=12 scale=2${desc}}#{id:text}`);
    for (const [cmp, value] of [[">", "999999999.99"], ["<", "-999999999.99"]] as const) {
      assert.throws(
        () => new Query(layout).compare("amount", cmp, value),
        (e: unknown) => e instanceof QueryError && e.kind === "EmptyRange" && e.field === "amount",
        `${cmp} ${value}`,
      );
    }
    new Query(layout).compare("amount", ">", "999999999.98");
    new Query(layout).compare("amount", ">=", "999999999.99");
  });
}

for (const [unit, fraction, whole] of [
  ["s", "00:00:00.999", "00:00:00"],
  ["ms", "00:00:00.1239", "00:00:00.123"],
  ["us", "00:00:00.1234569", "00:00:00.123456"],
] as const) {
  test(`an instant finer than ${unit} is truncated in keys and conditions`, () => {
    const layout = parse(`LOG#{at:timestamp unit=${unit}}#{id:text}`);
    const [given, truncated] = [`2024-06-23T${fraction}Z`, `2024-06-23T${whole}Z`];
    assert.equal(encode(layout, { at: given, id: "x" }), encode(layout, { at: truncated, id: "x" }));
    for (const cmp of ["<", "<=", ">", ">="] as const) {
      assert.deepEqual(new Query(layout).compare("at", cmp, given), new Query(layout).compare("at", cmp, truncated), cmp);
    }
  });
}
