import type { BlockRef } from '@tongate/chain';

/**
 * Devnet blocks: the sandbox has no blocks, so the devnet groups the transactions it runs into one masterchain block
 * and one block per basechain shard per round; block-cells.ts makes them TON Block cells, whose hashes are the ids.
 */

export interface BlockTxEntry {
  account: Buffer;
  lt: bigint;
  hash: Buffer;
}

/** Transactions in block order: by account, then lt (as liteservers list them). */
export function compareTx(a: BlockTxEntry, b: BlockTxEntry): number {
  const c = Buffer.compare(a.account, b.account);
  if (c !== 0) return c;
  return a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0;
}

export function sameRef(a: BlockRef, b: BlockRef): boolean {
  return a.workchain === b.workchain && a.shard === b.shard && a.seqno === b.seqno;
}
