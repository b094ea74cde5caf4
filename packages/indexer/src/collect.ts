import { WHOLE_SHARD, type BlockHeader, type BlockRef, type ChainSource, type ChainTransaction } from '@tongate/chain';
import type { BlocksTable, ShardStateTable } from '@tongate/store';
import { Address } from '@ton/core';
import type { Insertable } from 'kysely';
import {
  accountStateRows,
  transactionRows,
  type AccountStateRow,
  type ContentRow,
  type LatestAccountStateRow,
  type MessageRow,
  type TransactionRow,
  type McBlockBatch,
} from '@tongate/read-model';

export type { McBlockBatch } from '@tongate/read-model';

/** Transactions fetched per listBlockTransactionsExt call. */
const PAGE = 256;
/** Accounts whose states are read at once. */
const STATE_CONCURRENCY = 16;

const UINT64 = (v: bigint) => BigInt.asUintN(64, v);
const lowBit = (shard: bigint) => UINT64(shard) & -UINT64(shard);

/** True when one shard's prefix contains the other's (so their block chains share history). */
export function shardsOverlap(a: bigint, b: bigint): boolean {
  const la = lowBit(a);
  const lb = lowBit(b);
  const wider = la > lb ? la : lb;
  const mask = UINT64(~(wider * 2n - 1n));
  return (UINT64(a) & mask) === (UINT64(b) & mask);
}

/** A block is already committed when a previous shard top of an overlapping shard is at or past its seqno. */
function committedBefore(block: BlockRef, previousTops: readonly BlockRef[]): boolean {
  return previousTops.some((p) => p.workchain === block.workchain && shardsOverlap(p.shard, block.shard) && block.seqno <= p.seqno);
}

/**
 * The shard blocks a masterchain block commits: from each of its shard tops back along prev_blocks to the tops of
 * the previous masterchain block (several per shard on a real chain; splits and merges follow prev_blocks).
 */
export async function newShardBlocks(
  chain: ChainSource,
  tops: readonly BlockRef[],
  previousTops: readonly BlockRef[],
): Promise<BlockHeader[]> {
  const found = new Map<string, BlockHeader>();
  const pending = [...tops];
  while (pending.length > 0) {
    const ref = pending.pop()!;
    const key = `${ref.workchain}:${ref.shard}:${ref.seqno}`;
    if (found.has(key) || committedBefore(ref, previousTops)) continue;
    const header = await chain.getBlockHeader(ref);
    found.set(key, header);
    pending.push(...header.prevBlocks);
  }
  // Oldest first, so that rows go in chain order.
  return [...found.values()].sort(
    (a, b) =>
      a.id.workchain - b.id.workchain || (a.id.shard < b.id.shard ? -1 : a.id.shard > b.id.shard ? 1 : 0) || a.id.seqno - b.id.seqno,
  );
}

async function blockTransactions(chain: ChainSource, id: BlockRef): Promise<ChainTransaction[]> {
  const all: ChainTransaction[] = [];
  let after: { account: Buffer; lt: bigint } | undefined;
  for (;;) {
    const page = await chain.listBlockTransactionsExt(id, { count: PAGE, ...(after ? { after } : {}) });
    all.push(...page.transactions);
    const last = page.transactions.at(-1);
    if (!page.incomplete || !last) return all;
    after = { account: last.address.hash, lt: last.lt };
  }
}

function blockRow(header: BlockHeader, mcSeqno: number, txCount: number): Insertable<BlocksTable> {
  return {
    workchain: header.id.workchain,
    shard: header.id.shard,
    seqno: header.id.seqno,
    root_hash: header.id.rootHash.toString('base64'),
    file_hash: header.id.fileHash.toString('base64'),
    mc_block_seqno: mcSeqno,
    global_id: header.globalId,
    version: header.version,
    after_merge: header.afterMerge,
    before_split: header.beforeSplit,
    after_split: header.afterSplit,
    want_merge: header.wantMerge,
    want_split: header.wantSplit,
    key_block: header.isKeyBlock,
    vert_seqno_incr: false,
    flags: header.flags,
    gen_utime: header.genUtime,
    start_lt: header.startLt,
    end_lt: header.endLt,
    validator_list_hash_short: header.validatorListHashShort,
    gen_catchain_seqno: header.catchainSeqno,
    min_ref_mc_seqno: header.minRefMcSeqno,
    prev_key_block_seqno: header.prevKeyBlockSeqno,
    vert_seqno: header.vertSeqno,
    master_ref_seqno: header.masterchainRef?.seqno ?? (header.id.workchain === -1 ? null : mcSeqno),
    tx_count: txCount,
    prev_blocks: JSON.stringify(header.prevBlocks.map((p) => ({ workchain: p.workchain, shard: p.shard.toString(), seqno: p.seqno }))),
  };
}

/**
 * Reads one masterchain block and everything it commits from the chain. Throws (ChainError 'not_found' when the
 * block is not there yet); nothing is written here, so a failure leaves no trace and the block is simply retried.
 */
export async function collectMcBlock(chain: ChainSource, mcSeqno: number, previousTops: readonly BlockRef[]): Promise<McBlockBatch> {
  const mcHeader = await chain.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno: mcSeqno });
  const tops = mcHeader.shardBlocks ?? (await chain.getShards(mcSeqno));
  const headers = [mcHeader, ...(await newShardBlocks(chain, tops, previousTops))];
  const contents = new Map<string, string>();
  const batch: McBlockBatch = {
    mcSeqno,
    genUtime: mcHeader.genUtime,
    blocks: [],
    shardState: tops.map((t) => ({ mc_seqno: mcSeqno, workchain: t.workchain, shard: t.shard, seqno: t.seqno })),
    transactions: [],
    messages: [],
    contents: [],
    accountStates: [],
    latestAccountStates: [],
  };
  const touched = new Map<string, Address>();
  for (const header of headers) {
    const txs = await blockTransactions(chain, header.id);
    batch.blocks.push(blockRow(header, mcSeqno, txs.length));
    for (const tx of txs) {
      const rows = transactionRows(tx, mcSeqno, contents);
      batch.transactions.push(rows.transaction);
      batch.messages.push(...rows.messages);
      touched.set(rows.transaction.account, tx.address);
    }
  }
  batch.contents = [...contents].map(([hash, body]) => ({ hash, body }));
  const addresses = [...touched.values()];
  for (let i = 0; i < addresses.length; i += STATE_CONCURRENCY) {
    const states = await Promise.all(addresses.slice(i, i + STATE_CONCURRENCY).map((a) => chain.getAccountState(a, mcSeqno)));
    for (const state of states) {
      const rows = accountStateRows(state, mcSeqno);
      batch.accountStates.push(rows.state);
      batch.latestAccountStates.push(rows.latest);
    }
  }
  return batch;
}

/**
 * Every masterchain block of a chain from its first to its current head, read in order as the indexer reads them
 * (each block's shard tops lead the next one's walk). For corpora: tests and benchmarks that replay a whole chain.
 */
export async function collectChain(chain: ChainSource): Promise<McBlockBatch[]> {
  const head = (await chain.getMasterchainInfo()).last.seqno;
  const batches: McBlockBatch[] = [];
  let tops: BlockRef[] = [];
  for (let mc = 0; mc <= head; mc++) {
    const batch = await collectMcBlock(chain, mc, tops);
    tops = batch.shardState.map((s) => ({ workchain: s.workchain, shard: BigInt(s.shard), seqno: s.seqno }));
    batches.push(batch);
  }
  return batches;
}
