import {
  ChainError,
  WHOLE_SHARD,
  type BlockIdExt,
  type BlockLookup,
  type BlockRef,
  type BlockTransactionCursor,
  shardContains,
} from '@tongate/chain';
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
 * The devnet's history as small index entries: the masterchain block list, one block list per basechain shard (a
 * split or merge starts new lists), every transaction by account and lt, and each account's state versions by
 * masterchain seqno (as blob refs; the bytes stay in the store). Pure bookkeeping over rounds: no sandbox, no BOC
 * decoding, so it is tested on hand-made rounds.
 */
export class HistoryIndex {
  private readonly mcBlocks: StoredBlock[] = [];
  /**
   * Basechain blocks by shard id: each list in seqno order without gaps; a shard that comes back (merged after a
   * split) starts another list.
   */
  private readonly shardChains = new Map<bigint, StoredBlock[][]>();
  private readonly txIndex = new Map<string, Map<bigint, IndexedTx>>();
  private readonly accountHistory = new Map<string, { seqno: number; blob: BlobRef }[]>();

  /** Adds a round (genesis, produced or replayed from the journal); blocks must continue both chains. */
  apply(round: Round): void {
    for (const b of round.blocks) {
      if (b.id.workchain === -1) {
        if (b.id.seqno !== this.mcBlocks.length) throw new Error(`devnet history is not contiguous at -1:${b.id.seqno}`);
        this.mcBlocks.push(b);
      } else {
        let lists = this.shardChains.get(b.id.shard);
        if (!lists) this.shardChains.set(b.id.shard, (lists = []));
        // A block after one of its own shard continues that shard's list; one after a split or merge starts a list.
        if (b.prevBlocks.some((p) => p.shard === b.id.shard) || b.prevBlocks.length === 0) {
          const last = lists.at(-1)?.at(-1);
          if (!last || b.id.seqno !== last.id.seqno + 1)
            if (last || b.prevBlocks.length > 0)
              throw new Error(`devnet history is not contiguous at 0:${BigInt.asUintN(64, b.id.shard).toString(16)}:${b.id.seqno}`);
          if (last) lists[lists.length - 1].push(b);
          else lists.push([b]);
        } else lists.push([b]);
      }
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

  /** The basechain blocks the last masterchain block names, one per shard. */
  shardTops(): StoredBlock[] {
    return this.lastMc.shardBlocks.map((id) => this.blockAt(id));
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

  private checkWorkchain(workchain: number): void {
    if (workchain !== -1 && workchain !== 0) throw new ChainError('not_found', `workchain ${workchain} does not exist on the devnet`);
  }

  blockAt(ref: BlockRef): StoredBlock {
    this.checkWorkchain(ref.workchain);
    const missing = () =>
      new ChainError('not_found', `block (${ref.workchain},${BigInt.asUintN(64, ref.shard).toString(16)},${ref.seqno}) not found`);
    if (ref.workchain === -1) {
      if (ref.shard !== WHOLE_SHARD) throw missing();
      const b = this.mcBlocks[ref.seqno];
      if (!b) throw missing();
      return b;
    }
    for (const list of this.shardChains.get(ref.shard) ?? []) {
      const b = list[ref.seqno - list[0].id.seqno];
      if (b?.id.seqno === ref.seqno) return b;
    }
    throw missing();
  }

  /**
   * Looks a block up as the node does: the shard in the query is an account prefix, and the answer comes from the
   * shard that held that prefix at the time asked (so the whole-workchain id finds the blocks of whichever shard
   * holds prefix 0x8000000000000000, before and after splits).
   */
  lookup(query: BlockLookup): StoredBlock {
    this.checkWorkchain(query.workchain);
    const lists = query.workchain === -1 ? [this.mcBlocks] : this.prefixHistory(query.shard);
    if ('seqno' in query) {
      for (const list of lists) {
        const b = list[query.seqno - list[0].id.seqno];
        if (b?.id.seqno === query.seqno) return b;
      }
      throw new ChainError(
        'not_found',
        `block (${query.workchain},${BigInt.asUintN(64, query.shard).toString(16)},${query.seqno}) not found`,
      );
    }
    // As the node's lt index answers: the first block whose end_lt (by lt) or gen_utime (by utime) is at or past the
    // target. Every transaction's lt lies in its block's [start_lt, end_lt).
    const pick = 'lt' in query ? (b: StoredBlock) => b.endLt >= query.lt : (b: StoredBlock) => b.genUtime >= query.utime;
    const list = lists.find((l) => pick(l[l.length - 1]));
    if (!list) {
      const what = 'lt' in query ? `lt ${query.lt}` : `utime ${query.utime}`;
      throw new ChainError('not_found', `no block with ${what} in workchain ${query.workchain} yet`);
    }
    let lo = 0;
    let hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pick(list[mid])) hi = mid;
      else lo = mid + 1;
    }
    return list[lo];
  }

  /**
   * The block lists of the basechain shards that held a prefix, oldest first: at any time one shard holds it, so
   * these lists follow each other in seqno order.
   */
  private prefixHistory(prefix: bigint): StoredBlock[][] {
    const lists = [...this.shardChains.entries()].filter(([shard]) => shardContains(shard, prefix)).flatMap(([, lists]) => lists);
    return lists.sort((a, b) => a[0].id.seqno - b[0].id.seqno);
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
