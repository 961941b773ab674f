/** The shard of a sharded partition key (spec/SPEC.md, SK-SHD-001). */

const MASK = 0xffffffffffffffffn;
const encoder = new TextEncoder();

/** FNV-1a of 64 bits of `data` (a string is taken as its UTF-8 bytes). */
export function fnv1a64(data: Uint8Array | string): bigint {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & MASK;
  }
  return h;
}

/**
 * The shard, of `count`, that the segment `data` (the bytes a sort key's field is encoded to)
 * goes to: FNV-1a, MurmurHash3's 64-bit finalizer, modulo `count`.
 */
export function shardOf(data: Uint8Array | string, count: number): number {
  if (!Number.isInteger(count) || count < 1 || count > 65535) throw new RangeError(`a shard count of 1 to 65535, not ${count}`);
  let x = fnv1a64(data);
  x ^= x >> 33n;
  x = (x * 0xff51afd7ed558ccdn) & MASK;
  x ^= x >> 33n;
  x = (x * 0xc4ceb9fe1a85ec53n) & MASK;
  x ^= x >> 33n;
  return Number(x % BigInt(count));
}
