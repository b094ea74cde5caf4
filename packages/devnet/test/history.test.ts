import { describe, expect, it } from 'vitest';
import { isChainError, WHOLE_SHARD, type BlockIdExt } from '@tongate/chain';
import { HistoryIndex } from '../src/history.js';
import type { Round, StoredBlock, StoredTx } from '../src/store.js';

// The history index on hand-made rounds: no sandbox, no store, no BOCs.

const account = (n: number) => Buffer.alloc(32, n);
const id = (workchain: number, seqno: number): BlockIdExt => ({
  workchain,
  shard: WHOLE_SHARD,
  seqno,
  rootHash: Buffer.alloc(32, seqno + 1),
  fileHash: Buffer.alloc(32, 100 + seqno),
});
const tx = (n: number, lt: bigint, off: number, workchain = 0): StoredTx => ({
  workchain,
  account: account(n),
  lt,
  hash: Buffer.alloc(32, Number(lt % 250n)),
  blob: { off, len: 1 },
});

/** Round `seqno`: lt range [seqno·1000, seqno·1000 + 1000), utime 100 + 10·seqno. */
function round(seqno: number, txs: StoredTx[], accounts: Round['accounts'] = []): Round {
  const block = (workchain: number, blockTxs: StoredTx[]): StoredBlock => ({
    id: id(workchain, seqno),
    genUtime: 100 + 10 * seqno,
    startLt: BigInt(seqno * 1000),
    endLt: BigInt(seqno * 1000 + 1000),
    prevBlocks: seqno === 0 ? [] : [id(workchain, seqno - 1)],
    shardBlocks: workchain === -1 ? [id(0, seqno)] : [],
    masterchainRef: workchain === 0 ? { workchain: -1, shard: WHOLE_SHARD, seqno } : undefined,
    stateHash: Buffer.alloc(32, seqno),
    txs: blockTxs,
  });
  return {
    blocks: [
      block(
        0,
        txs.filter((t) => t.workchain === 0),
      ),
      block(
        -1,
        txs.filter((t) => t.workchain === -1),
      ),
    ],
    accounts,
    lt: BigInt(seqno * 1000 + 1000),
  };
}

function chain(): HistoryIndex {
  const h = new HistoryIndex();
  h.apply(round(0, [], [{ workchain: 0, account: account(1), blob: { off: 10, len: 1 } }]));
  h.apply(
    round(
      1,
      [tx(1, 1001n, 20), tx(1, 1003n, 21), tx(2, 1002n, 22)],
      [
        { workchain: 0, account: account(1), blob: { off: 30, len: 1 } },
        { workchain: 0, account: account(2), blob: { off: 31, len: 1 } },
      ],
    ),
  );
  h.apply(round(2, []));
  h.apply(round(3, [tx(1, 3001n, 40), tx(9, 3002n, 41, -1)], [{ workchain: 0, account: account(1), blob: { off: 50, len: 1 } }]));
  return h;
}

const expectChainError = (fn: () => unknown, kind: string) => {
  try {
    fn();
  } catch (e) {
    expect(isChainError(e) && e.kind).toBe(kind);
    return;
  }
  throw new Error(`expected ChainError '${kind}'`);
};

describe('HistoryIndex', () => {
  it('keeps both chains contiguous and refuses a gap', () => {
    const h = chain();
    expect(h.lastMc.id.seqno).toBe(3);
    expect(h.firstMc.id.seqno).toBe(0);
    expect(h.shardTops().map((b) => b.id)).toEqual([id(0, 3)]);
    expect(h.recentMcIds(2).map((b) => b.seqno)).toEqual([3, 2]);
    expect(() => h.apply(round(5, []))).toThrow(/not contiguous at 0:8000000000000000:5/);
  });

  it('finds blocks by seqno, lt and utime as the node does, and names what is missing', () => {
    const h = chain();
    expect(h.mcAt(undefined).id.seqno).toBe(3);
    expect(h.mcAt(1).id).toEqual(id(-1, 1));
    expect(h.lookup({ workchain: 0, shard: WHOLE_SHARD, seqno: 2 }).id).toEqual(id(0, 2));
    // by lt: the first block whose end_lt reaches it; by utime: the first block generated at or after it.
    expect(h.lookup({ workchain: 0, shard: WHOLE_SHARD, lt: 1003n }).id.seqno).toBe(1);
    expect(h.lookup({ workchain: -1, shard: WHOLE_SHARD, lt: 2000n }).id.seqno).toBe(1);
    expect(h.lookup({ workchain: -1, shard: WHOLE_SHARD, utime: 115 }).id.seqno).toBe(2);
    expectChainError(() => h.lookup({ workchain: 0, shard: WHOLE_SHARD, lt: 4001n }), 'not_found');
    // The shard asked is a prefix: a half of the workchain is found in the whole shard that holds it.
    expect(h.lookup({ workchain: 0, shard: 0x4000000000000000n, seqno: 0 }).id).toEqual(id(0, 0));
    expectChainError(() => h.blockAt({ workchain: 0, shard: 0x4000000000000000n, seqno: 0 }), 'not_found');
    expectChainError(() => h.lookup({ workchain: 1, shard: WHOLE_SHARD, seqno: 0 }), 'not_found');
    expectChainError(() => h.mcAt(9), 'not_found');
    expectChainError(() => h.mcAt(-1), 'invalid');
    expectChainError(() => h.mcAt(1.5), 'invalid');
  });

  it('keeps a list per shard across a split and a merge, and looks a prefix up in whichever shard held it', () => {
    const LEFT = 0x4000000000000000n;
    const RIGHT = -0x4000000000000000n; // 0xc000000000000000
    const h = new HistoryIndex();
    const block = (shard: bigint, seqno: number, prev: BlockIdExt[], mc: number): StoredBlock => ({
      id: { ...id(0, seqno), shard, rootHash: Buffer.alloc(32, Number(BigInt.asUintN(8, shard >> 56n)) ^ seqno) },
      genUtime: 100 + 10 * mc,
      startLt: BigInt(mc * 1000),
      endLt: BigInt(mc * 1000 + 1000),
      prevBlocks: prev,
      shardBlocks: [],
      stateHash: Buffer.alloc(32),
      txs: [],
    });
    const mcBlock = (seqno: number, shards: StoredBlock[]): StoredBlock => ({
      ...block(WHOLE_SHARD, seqno, seqno === 0 ? [] : [id(-1, seqno - 1)], seqno),
      id: id(-1, seqno),
      shardBlocks: shards.map((b) => b.id),
    });
    const apply = (mc: number, shards: StoredBlock[]) =>
      h.apply({ blocks: [...shards, mcBlock(mc, shards)], accounts: [], lt: BigInt(mc * 1000 + 1000) });
    const w0 = block(WHOLE_SHARD, 0, [], 0);
    apply(0, [w0]);
    const w1 = block(WHOLE_SHARD, 1, [w0.id], 1);
    apply(1, [w1]);
    // Split: both halves follow the whole shard's block 1 with seqno 2.
    const l2 = block(LEFT, 2, [w1.id], 2);
    const r2 = block(RIGHT, 2, [w1.id], 2);
    apply(2, [l2, r2]);
    const l3 = block(LEFT, 3, [l2.id], 3);
    const r3 = block(RIGHT, 3, [r2.id], 3);
    apply(3, [l3, r3]);
    // Merge: the whole shard again, after both halves, with the next seqno.
    const w4 = block(WHOLE_SHARD, 4, [l3.id, r3.id], 4);
    apply(4, [w4]);

    expect(h.shardTops().map((b) => b.id)).toEqual([w4.id]);
    expect(h.blockAt({ workchain: 0, shard: LEFT, seqno: 3 }).id).toEqual(l3.id);
    expect(h.blockAt({ workchain: 0, shard: WHOLE_SHARD, seqno: 4 }).id).toEqual(w4.id);
    expectChainError(() => h.blockAt({ workchain: 0, shard: WHOLE_SHARD, seqno: 2 }), 'not_found');
    expectChainError(() => h.blockAt({ workchain: 0, shard: LEFT, seqno: 4 }), 'not_found');
    // The whole-workchain id is the prefix 0x8000000000000000: in the right half while the chain is split.
    expect(h.lookup({ workchain: 0, shard: WHOLE_SHARD, seqno: 2 }).id).toEqual(r2.id);
    expect(h.lookup({ workchain: 0, shard: WHOLE_SHARD, seqno: 1 }).id).toEqual(w1.id);
    expect(h.lookup({ workchain: 0, shard: WHOLE_SHARD, seqno: 4 }).id).toEqual(w4.id);
    expect(h.lookup({ workchain: 0, shard: LEFT, seqno: 3 }).id).toEqual(l3.id);
    expect(h.lookup({ workchain: 0, shard: 0x2000000000000000n, seqno: 0 }).id).toEqual(w0.id);
    expect(h.lookup({ workchain: 0, shard: LEFT, lt: 2500n }).id).toEqual(l2.id);
    expect(h.lookup({ workchain: 0, shard: LEFT, lt: 4500n }).id).toEqual(w4.id);
    expect(h.lookup({ workchain: 0, shard: RIGHT, utime: 131 }).id).toEqual(w4.id);
    // A list must go on without gaps.
    expect(() => h.apply({ blocks: [block(WHOLE_SHARD, 6, [w4.id], 5), mcBlock(5, [])], accounts: [], lt: 6000n })).toThrow(
      /not contiguous at 0:8000000000000000:6/,
    );
  });

  it('pages a block in (account, lt) order after a cursor', () => {
    const h = chain();
    const ref = { workchain: 0, shard: WHOLE_SHARD, seqno: 1 };
    const first = h.blockPage(ref, { count: 2 });
    expect(first.txs.map((t) => t.lt)).toEqual([1001n, 1003n]);
    expect(first.incomplete).toBe(true);
    const rest = h.blockPage(ref, { count: 2, after: { account: account(1), lt: 1003n } });
    expect(rest.txs.map((t) => t.lt)).toEqual([1002n]);
    expect(rest.incomplete).toBe(false);
    expect(h.blockPage({ workchain: -1, shard: WHOLE_SHARD, seqno: 3 }, { count: 5 }).txs.map((t) => t.account)).toEqual([account(9)]);
    expectChainError(() => h.blockPage(ref, { count: 0 }), 'invalid');
  });

  it('indexes transactions by account and lt with their block', () => {
    const h = chain();
    const hit = h.transaction({ workChain: 0, hash: account(1) }, 3001n);
    expect(hit?.block).toEqual(id(0, 3));
    expect(hit?.tx.blob.off).toBe(40);
    expect(h.transaction({ workChain: -1, hash: account(9) }, 3002n)?.block).toEqual(id(-1, 3));
    expect(h.transaction({ workChain: 0, hash: account(9) }, 3002n)).toBeUndefined();
    expect(h.transaction({ workChain: 0, hash: account(1) }, 3002n)).toBeUndefined();
  });

  it('answers account state versions as of any masterchain block', () => {
    const h = chain();
    const a1 = { workChain: 0, hash: account(1) };
    expect([0, 1, 2, 3].map((s) => h.snapshotAt(a1, s)?.off)).toEqual([10, 30, 30, 50]);
    expect([0, 1, 3].map((s) => h.snapshotAt({ workChain: 0, hash: account(2) }, s)?.off ?? null)).toEqual([null, 31, 31]);
    expect(h.snapshotAt({ workChain: -1, hash: account(1) }, 3)).toBeNull();
    expect([...h.latestSnapshots()].map((s) => [s.account[0], s.blob.off])).toEqual([
      [1, 50],
      [2, 31],
    ]);
  });
});
