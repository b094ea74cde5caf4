/** Test helper: every masterchain block of a chain, from its first to its head, as the indexer collects them in order. */
import type { ChainSource } from '@tongate/chain';
import { collectMcBlock, type McBlockBatch } from '../src/index.js';

export async function collectChain(chain: ChainSource): Promise<McBlockBatch[]> {
  const head = (await chain.getMasterchainInfo()).last.seqno;
  const batches: McBlockBatch[] = [];
  let tops: { workchain: number; shard: bigint; seqno: number }[] = [];
  for (let mc = 0; mc <= head; mc++) {
    const batch = await collectMcBlock(chain, mc, tops);
    tops = batch.shardState.map((s) => ({ workchain: s.workchain, shard: BigInt(s.shard), seqno: s.seqno }));
    batches.push(batch);
  }
  return batches;
}
