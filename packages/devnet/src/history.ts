import { ChainError, WHOLE_SHARD, type BlockIdExt, type BlockLookup, type BlockRef, type BlockTransactionCursor } from '@tongate/chain';
import { compareTx } from './blocks.js';
import type { BlobRef, Round, StoredBlock, StoredTx } from './store.js';

/** A transaction's index entry and the block it landed in. */
export interface IndexedTx {
  tx: StoredTx;
  block: BlockIdExt;
}

/** An account as the history keys it: workchain and 32-byte account id. */
export interface AccountId {
  workChain: number;
  hash: Buffer;
}

const ZERO32 = Buffer.alloc(32);
const accountKey = (workchain: number, account: Buffer) => `${workchain}:${account.toString('hex')}`;

/**
 * The devnet's history as small index entries: the masterchain and basechain block lists, every transaction by
 * account and lt, and each account's state versions by masterchain seqno (as blob refs; the bytes stay in the
 * store). Pure bookkeeping over rounds: no sandbox, no BOC decoding, so it is tested on hand-made rounds.
 */
export class HistoryIndex {
  private readonly mcBlocks: StoredBlock[] = [];
  private readonly shardBlocks: StoredBlock[] = [];
  private readonly txIndex = new Map<string, Map<bigint, IndexedTx>>();
  private readonly accountHistory = new Map<string, { seqno: number; blob: BlobRef }[]>();

  /** Adds a round (genesis, produced or replayed from the journal); blocks must continue both chains. */
  apply(round: Round): void {
    for (const b of round.blocks) {
      const list = b.id.workchain === -1 ? this.mcBlocks : this.shardBlocks;
      if (b.id.seqno !== list.length) throw new Error(`devnet history is not contiguous at ${b.id.workchain}:${b.id.seqno}`);
      list.push(b);
      for (const t of b.txs) {
        const key = accountKey(t.workchain, t.account);
        let m = this.txIndex.get(key);
        if (!m) this.txIndex.set(key, (m = new Map()));
        m.set(t.lt, { tx: t, block: b.id });
      }
    }
    const mcSeqno = round.blocks[round.blocks.length - 1].id.seqno;
    for (const a of round.accounts) {
      const key = accountKey(a.workchain, a.account);
      let h = this.accountHistory.get(key);
      if (!h) this.accountHistory.set(key, (h = []));
      h.push({ seqno: mcSeqno, blob: a.blob });
    }
  }

  get isEmpty(): boolean {
    return this.mcBlocks.length === 0;
  }

  get lastMc(): StoredBlock {
    return this.mcBlocks[this.mcBlocks.length - 1];
  }

  get firstMc(): StoredBlock {
    return this.mcBlocks[0];
  }

  get lastShard(): StoredBlock {
    return this.shardBlocks[this.shardBlocks.length - 1];
  }

  /** The last `count` masterchain block ids, newest first (what c7's PREVBLOCKS holds). */
  recentMcIds(count: number): BlockIdExt[] {
    return this.mcBlocks
      .slice(-count)
      .reverse()
      .map((b) => b.id);
  }

  /** A masterchain block by seqno; the last one when seqno is undefined. */
  mcAt(seqno: number | undefined): StoredBlock {
    if (seqno === undefined) return this.lastMc;
    if (!Number.isInteger(seqno) || seqno < 0)
      throw new ChainError('invalid', `masterchain seqno must be a non-negative integer, got ${seqno}`);
    const b = this.mcBlocks[seqno];
    if (!b) throw new ChainError('not_found', `masterchain block ${seqno} not found (last is ${this.lastMc.id.seqno})`);
    return b;
  }

  private chainOf(workchain: number, shard: bigint): StoredBlock[] {
    if (shard !== WHOLE_SHARD || (workchain !== -1 && workchain !== 0)) {
      throw new ChainError(
        'not_found',
        `no shard ${workchain}:${BigInt.asUintN(64, shard).toString(16)} on the devnet (one shard 8000000000000000 per workchain)`,
      );
    }
    return workchain === -1 ? this.mcBlocks : this.shardBlocks;
  }

  blockAt(ref: BlockRef): StoredBlock {
    const b = this.chainOf(ref.workchain, ref.shard)[ref.seqno];
    if (!b)
      throw new ChainError('not_found', `block (${ref.workchain},${BigInt.asUintN(64, ref.shard).toString(16)},${ref.seqno}) not found`);
    return b;
  }

  lookup(query: BlockLookup): StoredBlock {
    const chain = this.chainOf(query.workchain, query.shard);
    if ('seqno' in query) return this.blockAt(query);
    // As the node's lt index answers: the first block whose end_lt (by lt) or gen_utime (by utime) is at or past the
    // target. Every transaction's lt lies in its block's [start_lt, end_lt).
    const pick = 'lt' in query ? (b: StoredBlock) => b.endLt >= query.lt : (b: StoredBlock) => b.genUtime >= query.utime;
    let lo = 0;
    let hi = chain.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pick(chain[mid])) hi = mid;
      else lo = mid + 1;
    }
    if (lo >= chain.length) {
      const what = 'lt' in query ? `lt ${query.lt}` : `utime ${query.utime}`;
      throw new ChainError('not_found', `no block with ${what} in workchain ${query.workchain} yet`);
    }
    return chain[lo];
  }

  /** Up to `count` of a block's transactions in (account, lt) order, after the cursor when one is given. */
  blockPage(
    ref: BlockRef,
    opts: { count: number; after?: BlockTransactionCursor },
  ): { block: StoredBlock; txs: StoredTx[]; incomplete: boolean } {
    if (!Number.isInteger(opts.count) || opts.count < 1)
      throw new ChainError('invalid', `count must be a positive integer, got ${opts.count}`);
    const block = this.blockAt(ref);
    let start = 0;
    if (opts.after) {
      const after = { account: opts.after.account, lt: opts.after.lt, hash: ZERO32 };
      while (start < block.txs.length && compareTx(block.txs[start], after) <= 0) start++;
    }
    const txs = block.txs.slice(start, start + opts.count);
    return { block, txs, incomplete: start + txs.length < block.txs.length };
  }

  transaction(account: AccountId, lt: bigint): IndexedTx | undefined {
    return this.txIndex.get(accountKey(account.workChain, account.hash))?.get(lt);
  }

  /** Where the account's state as of masterchain block `mcSeqno` is stored; null if it did not exist then. */
  snapshotAt(account: AccountId, mcSeqno: number): BlobRef | null {
    const history = this.accountHistory.get(accountKey(account.workChain, account.hash));
    if (!history) return null;
    let lo = 0;
    let hi = history.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (history[mid].seqno <= mcSeqno) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? null : history[lo - 1].blob;
  }

  /** Every account's latest state (what a restart loads into the sandbox). */
  *latestSnapshots(): Generator<{ workchain: number; account: Buffer; blob: BlobRef }> {
    for (const [key, history] of this.accountHistory) {
      const [wc, hex] = key.split(':');
      yield { workchain: Number(wc), account: Buffer.from(hex, 'hex'), blob: history[history.length - 1].blob };
    }
  }
}
