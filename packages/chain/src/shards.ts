/** The shard prefix of a whole workchain (0x8000000000000000) as a signed 64-bit bigint, as on the wire. */
export const WHOLE_SHARD = -(2n ** 63n);

/** Formats a signed 64-bit shard as the unsigned hex string explorers show (e.g. "8000000000000000"). */
export function shardToHex(shard: bigint): string {
  return BigInt.asUintN(64, shard).toString(16).padStart(16, '0');
}

/**
 * Parses a shard into a signed 64-bit bigint. Accepts "0x…" hex, exactly 16 hex digits (the explorer notation, so
 * "8000000000000000" is the whole-workchain shard, never a decimal) and signed or unsigned decimal otherwise.
 */
export function parseShard(text: string): bigint {
  const t = text.trim();
  let v: bigint;
  if (/^0x[0-9a-f]{1,16}$/i.test(t)) v = BigInt(t);
  else if (/^[0-9a-f]{16}$/i.test(t)) v = BigInt('0x' + t);
  else if (/^-?\d+$/.test(t)) v = BigInt(t);
  else throw new Error(`not a shard id: ${text}`);
  if (v < -(2n ** 63n) || v >= 2n ** 64n) throw new Error(`shard id out of 64-bit range: ${text}`);
  return BigInt.asIntN(64, v);
}

const U64 = (v: bigint) => BigInt.asUintN(64, v);
/** The tag bit of a shard id: its lowest set bit, which ends the prefix. */
const tagBit = (shard: bigint) => U64(shard) & -U64(shard);

/** Whether the shard's prefix covers the 64-bit value `point`: an account id's first 8 bytes, or another shard id. */
export function shardContains(shard: bigint, point: bigint): boolean {
  const mask = U64(~(tagBit(shard) * 2n - 1n));
  return (U64(shard) & mask) === (U64(point) & mask);
}

/** The two shards a shard splits into: left (next prefix bit 0), then right. */
export function shardChildren(shard: bigint): [bigint, bigint] {
  const half = tagBit(shard) >> 1n;
  if (half === 0n) throw new Error(`shard ${shardToHex(shard)} cannot split further`);
  return [BigInt.asIntN(64, U64(shard) - half), BigInt.asIntN(64, U64(shard) + half)];
}

/** The shard a shard and its sibling merge into. */
export function shardParent(shard: bigint): bigint {
  const bit = tagBit(shard);
  if (bit === 1n << 63n) throw new Error('the whole workchain has no parent shard');
  return BigInt.asIntN(64, (U64(shard) & ~(bit * 2n - 1n)) | (bit * 2n));
}
