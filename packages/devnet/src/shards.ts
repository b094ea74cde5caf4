import { shardChildren, shardContains, WHOLE_SHARD } from '@tongate/chain';

/**
 * The devnet's basechain shards. Ids follow TON: a 64-bit prefix ended by its lowest set bit (0x8000000000000000 is
 * the whole workchain, 0x4000000000000000 and 0xc000000000000000 its halves), as signed bigints like the wire's.
 */

/** Most shards a devnet basechain runs in (a split depth of 4). */
export const MAX_DEVNET_SHARDS = 16;

/** Whether `count` is a shard count the devnet accepts: a power of two from 1 to MAX_DEVNET_SHARDS. */
export function validShardCount(count: number): boolean {
  return Number.isInteger(count) && count >= 1 && count <= MAX_DEVNET_SHARDS && (count & (count - 1)) === 0;
}

/** The `count` shards of equal size that cover the workchain, in prefix order. */
export function evenShards(count: number): bigint[] {
  if (!validShardCount(count)) throw new Error(`shard count must be a power of two from 1 to ${MAX_DEVNET_SHARDS}, got ${count}`);
  let shards = [WHOLE_SHARD];
  while (shards.length < count) shards = shards.flatMap(shardChildren);
  return shards;
}

/** The shard of `shards` that holds an account (its first 8 bytes fall under the shard's prefix). */
export function shardOfAccount(shards: readonly bigint[], account: Buffer): bigint {
  const prefix = account.readBigUInt64BE(0);
  const s = shards.find((shard) => shardContains(shard, prefix));
  if (s === undefined) throw new Error('the shards do not cover the workchain');
  return s;
}
