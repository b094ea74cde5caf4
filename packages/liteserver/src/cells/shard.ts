import type { Builder, Slice } from '@ton/core';

/** Shard prefixes (the unsigned 64-bit form, TL's signed long) and ShardIdent. */

const U64 = 2n ** 64n;
export const toUnsigned = (shard: bigint) => BigInt.asUintN(64, shard);
export const toSigned = (shard: bigint) => BigInt.asIntN(64, shard);
/** The marker bit of a shard prefix (its lowest set bit). */
export const lowBit = (u: bigint) => u & (U64 - u) & (U64 - 1n);
/** The whole workchain's shard. */
export const ROOT_SHARD = toSigned(1n << 63n);

/** ShardIdent (shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64). */
export function storeShardIdent(workchain: number, shard: bigint) {
  const u = toUnsigned(shard);
  const low = lowBit(u);
  const pfxBits = 63 - (low.toString(2).length - 1);
  return (b: Builder) =>
    b
      .storeUint(0, 2)
      .storeUint(pfxBits, 6)
      .storeInt(workchain, 32)
      .storeUint(u - low, 64);
}

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
