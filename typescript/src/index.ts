/**
 * sortkey: DynamoDB sort keys that sort, read and written by the layouts a Rust service locked.
 * A TypeScript reader and writer of the key format of spec/SPEC.md (version 1), with no runtime
 * dependencies:
 *
 * ```ts
 * import { parse, encode, decode, Query } from "sortkey";
 * const layout = parse("RUN#{score:u64 width=10 desc}#{player:text}");
 * const key = encode(layout, { score: 1500n, player: "p_8842" }); // "RUN#9999998499#p_8842"
 * decode(layout, key); // { score: 1500n, player: "p_8842" }
 * const top = new Query(layout).compare("score", ">=", 1000n);
 * await client.send(new QueryCommand({ TableName: "runs", ...top.expression("pk", "SEASON#7", "sk") }));
 * ```
 */

export type { AttributeValue } from "./attributes.js";
export { decode, encode, compareKeys } from "./codec.js";
export type { Value } from "./codec.js";
export { DecodeError, EncodeError, LayoutError, LockError, QueryError, SortKeyError } from "./errors.js";
export { layoutText, parse } from "./layout.js";
export type { Field, Key, Layout, Shards, Type } from "./layout.js";
export { FieldCondition, Live, Lock } from "./lock.js";
export type { Merged, Read } from "./lock.js";
export { KeyCondition, Query } from "./query.js";
export type { KeyConditionInput, Op } from "./query.js";
export { partitionKey } from "./sharded.js";
export { fnv1a64, shardOf } from "./shards.js";

/** The version of the key format this package reads and writes. */
export const FORMAT_VERSION = 1;
