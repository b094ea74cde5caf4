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
