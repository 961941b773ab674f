/** An item's partition key, its shard calculated from its sort key (spec/SPEC.md, SK-SHD-002). */

import { decode, encode, encodeType, specOf } from "./codec.js";
import type { Layout } from "./layout.js";
import { shardOf } from "./shards.js";

/**
 * The partition key of the item whose sort key is `sortKey` (read by `sort`): the partition
 * layout's `fields`, with its shard field (`shards=N by=FIELD`) set to the shard of the bytes the
 * sort key's FIELD is written as. A sort key its layout does not read is a DecodeError.
 */
export function partitionKey(partition: Layout, sort: Layout, fields: Record<string, unknown>, sortKey: string): string {
  const sortValue = decode(sort, sortKey) as Record<string, unknown>;
  const value: Record<string, unknown> = { ...fields };
  for (const f of partition.key.fields) {
    if (f.shards === null) continue;
    if (f.shards.by === null) throw new RangeError(`the shard field ${f.name} is random: no sort key says which shard holds an item`);
    const sortFields = sort.key.fields;
    const index = sortFields.findIndex((sf) => sf.name === f.shards!.by);
    const sf = sortFields[index];
    if (sf === undefined) throw new RangeError(`the sort key has no field ${f.shards.by}`);
    const spec = specOf(sort.name, sf, sort.key.separator, index + 1 === sortFields.length);
    value[f.name] = BigInt(shardOf(encodeType(sortValue[sf.name], sf.type, spec), f.shards.count));
  }
  return encode(partition, value);
}
