import type { Slice } from '@ton/core';

/** Shard prefixes (the unsigned 64-bit form, TL's signed long) and ShardIdent. */

const U64 = 2n ** 64n;
export const toUnsigned = (shard: bigint) => BigInt.asUintN(64, shard);
export const toSigned = (shard: bigint) => BigInt.asIntN(64, shard);
/** The marker bit of a shard prefix (its lowest set bit). */
export const lowBit = (u: bigint) => u & (U64 - u) & (U64 - 1n);
/** The whole workchain's shard. */
export const ROOT_SHARD = toSigned(1n << 63n);

/** ShardIdent: written by @tongate/chain's storeShardIdent, read here. */
export { storeShardIdent } from '@tongate/chain';

export function loadShardIdent(s: Slice): { workchain: number; shard: bigint } {
  if (s.loadUint(2) !== 0) throw new Error('bad ShardIdent tag');
  const pfxBits = s.loadUint(6);
  const workchain = s.loadInt(32);
  const prefix = s.loadUintBig(64);
  return { workchain, shard: toSigned(prefix | (1n << BigInt(63 - pfxBits))) };
}

export function parentShard(shard: bigint): bigint {
  const u = toUnsigned(shard);
  const low = lowBit(u);
  return toSigned((u - low) | (low << 1n));
}

export function childShard(shard: bigint, right: boolean): bigint {
  const u = toUnsigned(shard);
  const half = lowBit(u) >> 1n;
  return toSigned(right ? u + half : u - half);
}
