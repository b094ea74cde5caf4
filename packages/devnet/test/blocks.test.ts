import { createHash } from 'node:crypto';
import { Address, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockSigningPayload, isChainError, nodeIdShort, WHOLE_SHARD } from '@tongate/chain';
import { createDevnet, serializeBlock, verifyEd25519, type Devnet } from '../src/index.js';
import { faucetSeqno, faucetTransfer } from './helpers.js';

let devnet: Devnet;
const someone = new Address(0, Buffer.alloc(32, 7));

beforeAll(async () => {
  devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
  // Three rounds: empty, one transfer, empty.
  await devnet.produceBlock();
  await devnet.sendMessage(await faucetTransfer(devnet, 0, someone, toNano('2')));
  await devnet.produceBlock();
  await devnet.produceBlock();
});
afterAll(() => devnet.close());

async function expectChainError(p: Promise<unknown>, kind: string) {
  try {
    await p;
  } catch (e) {
    expect(isChainError(e)).toBe(true);
    expect((e as { kind: string }).kind).toBe(kind);
    return;
  }
  throw new Error(`expected ChainError ${kind}`);
}

describe('block production', () => {
  it('numbers masterchain blocks from genesis and links each to its predecessor', async () => {
    const info = await devnet.getMasterchainInfo();
    expect(info.init.seqno).toBe(0);
    expect(info.last.seqno).toBe(3);
    expect(info.last.workchain).toBe(-1);
    expect(info.last.shard).toBe(WHOLE_SHARD);
    for (let s = 1; s <= 3; s++) {
      const h = await devnet.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno: s });
      const prev = await devnet.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno: s - 1 });
      expect(h.prevBlocks).toHaveLength(1);
      expect(h.prevBlocks[0].rootHash.equals(prev.id.rootHash)).toBe(true);
      expect(h.startLt).toBe(prev.endLt);
      expect(h.endLt > h.startLt).toBe(true);
      expect(h.genUtime).toBeGreaterThanOrEqual(prev.genUtime);
      expect(h.globalId).toBe(-239);
    }
    expect(info.lastUtime).toBe((await devnet.getBlockHeader(info.last)).genUtime);
  });

  it('references one basechain block per masterchain block (getShards) and back', async () => {
    for (let s = 0; s <= 3; s++) {
      const shards = await devnet.getShards(s);
      expect(shards).toHaveLength(1);
      expect(shards[0]).toMatchObject({ workchain: 0, shard: WHOLE_SHARD, seqno: s });
      const sh = await devnet.getBlockHeader(shards[0]);
      expect(sh.masterchainRef).toEqual({ workchain: -1, shard: WHOLE_SHARD, seqno: s });
      const mc = await devnet.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno: s });
      expect(mc.shardBlocks?.[0].rootHash.equals(shards[0].rootHash)).toBe(true);
    }
  });

  it('derives root and file hashes from the canonical serialization', async () => {
    const h = await devnet.getBlockHeader({ workchain: 0, shard: WHOLE_SHARD, seqno: 2 });
    const txs = await devnet.listBlockTransactions(h.id, { count: 100 });
    const bytes = serializeBlock({
      globalId: h.globalId,
      workchain: 0,
      shard: WHOLE_SHARD,
      seqno: 2,
      genUtime: h.genUtime,
      startLt: h.startLt,
      endLt: h.endLt,
      prevBlocks: h.prevBlocks,
      shardBlocks: [],
      stateHash: Buffer.alloc(32),
      transactions: txs.transactions,
    });
    const root = createHash('sha256').update(bytes).digest();
    expect(root.equals(h.id.rootHash)).toBe(true);
    expect(createHash('sha256').update(bytes).update(root).digest().equals(h.id.fileHash)).toBe(true);
  });

  it('puts the transfer in the next basechain block with its lt inside the block range', async () => {
    const id = (await devnet.getShards(2))[0];
    const h = await devnet.getBlockHeader(id);
    const page = await devnet.listBlockTransactionsExt(id, { count: 10 });
    expect(page.transactions).toHaveLength(2); // faucet + receiver
    for (const t of page.transactions) {
      expect(t.lt >= h.startLt && t.lt < h.endLt).toBe(true);
      expect(t.cell.hash().equals(t.hash)).toBe(true);
      expect(t.tx.now).toBeLessThanOrEqual(h.genUtime);
    }
    expect((await devnet.listBlockTransactions((await devnet.getShards(1))[0], { count: 10 })).transactions).toHaveLength(0);
  });

  it('pages block transactions by (account, lt)', async () => {
    const id = (await devnet.getShards(2))[0];
    const first = await devnet.listBlockTransactions(id, { count: 1 });
    expect(first.incomplete).toBe(true);
    const rest = await devnet.listBlockTransactions(id, {
      count: 5,
      after: { account: first.transactions[0].account, lt: first.transactions[0].lt },
    });
    expect(rest.incomplete).toBe(false);
    expect(rest.transactions).toHaveLength(1);
    expect(Buffer.compare(first.transactions[0].account, rest.transactions[0].account)).toBeLessThan(0);
  });
});

describe('lookupBlock', () => {
  it('finds blocks by seqno, lt and utime', async () => {
    const mc2 = await devnet.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno: 2 });
    expect((await devnet.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: 2 })).rootHash.equals(mc2.id.rootHash)).toBe(true);
    const sh2 = (await devnet.getShards(2))[0];
    const tx = (await devnet.listBlockTransactions(sh2, { count: 1 })).transactions[0];
    expect((await devnet.lookupBlock({ workchain: 0, shard: WHOLE_SHARD, lt: tx.lt })).seqno).toBe(2);
    expect((await devnet.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, lt: mc2.startLt + 1n })).seqno).toBe(2);
    expect((await devnet.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, lt: mc2.endLt })).seqno).toBe(2);
    expect((await devnet.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, lt: mc2.startLt })).seqno).toBe(1);
    const byTime = await devnet.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, utime: mc2.genUtime });
    const found = await devnet.getBlockHeader(byTime);
    expect(found.genUtime).toBe(mc2.genUtime);
    expect((await devnet.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, utime: 0 })).seqno).toBe(0);
  });

  it('reports unknown and future blocks as not_found', async () => {
    const last = (await devnet.getMasterchainInfo()).last;
    const h = await devnet.getBlockHeader(last);
    await expectChainError(devnet.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: last.seqno + 1 }), 'not_found');
    await expectChainError(devnet.lookupBlock({ workchain: 0, shard: WHOLE_SHARD, lt: h.endLt + 10n }), 'not_found');
    await expectChainError(devnet.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, utime: h.genUtime + 3600 }), 'not_found');
    await expectChainError(devnet.lookupBlock({ workchain: 0, shard: 0x4000000000000000n, seqno: 1 }), 'not_found');
    await expectChainError(devnet.lookupBlock({ workchain: 5, shard: WHOLE_SHARD, seqno: 1 }), 'not_found');
    await expectChainError(devnet.getBlockHeader({ workchain: 0, shard: WHOLE_SHARD, seqno: 99 }), 'not_found');
  });
});

describe('signatures, proofs, queues', () => {
  it('signs masterchain blocks with the validator key over TL ton.blockId', async () => {
    const sigs = await devnet.getMasterchainBlockSignatures(2);
    expect(sigs.id.seqno).toBe(2);
    expect(sigs.signatures).toHaveLength(1);
    const [s] = sigs.signatures;
    expect(s.nodeIdShort.equals(nodeIdShort(devnet.validator.publicKey))).toBe(true);
    expect(verifyEd25519(devnet.validator.publicKey, blockSigningPayload(sigs.id.rootHash, sigs.id.fileHash), s.signature)).toBe(true);
    const other = await devnet.getMasterchainBlockSignatures(1);
    expect(
      verifyEd25519(devnet.validator.publicKey, blockSigningPayload(sigs.id.rootHash, sigs.id.fileHash), other.signatures[0].signature),
    ).toBe(false);
    await expectChainError(devnet.getMasterchainBlockSignatures(1000), 'not_found');
  });

  it('serves shard block proofs made of block serializations that hash to the linked ids', async () => {
    const shard = (await devnet.getShards(1))[0];
    const proof = await devnet.getShardBlockProof(shard);
    expect(proof.mcId.seqno).toBe(1);
    expect(proof.from.seqno).toBe(3);
    expect(proof.links).toHaveLength(1);
    expect(createHash('sha256').update(proof.links[0].proof).digest().equals(proof.mcId.rootHash)).toBe(true);
    expect(proof.links[0].proof.includes(shard.rootHash)).toBe(true);
    expect(proof.mcProof.map((l) => [l.from.seqno, l.to.seqno])).toEqual([
      [3, 2],
      [2, 1],
    ]);
    for (const link of proof.mcProof) {
      expect(createHash('sha256').update(link.proof).digest().equals(link.from.rootHash)).toBe(true);
      expect(link.proof.includes(link.to.rootHash)).toBe(true);
    }
    const near = await devnet.getShardBlockProof(shard, 1);
    expect(near.mcProof).toHaveLength(0);
    await expectChainError(devnet.getShardBlockProof(shard, 0), 'invalid');
  });

  it('reports empty message queues (internal messages are delivered within the round)', async () => {
    const q = await devnet.getOutMsgQueueSizes();
    expect(q.shards.map((s) => s.id.workchain).sort()).toEqual([-1, 0]);
    expect(q.shards.every((s) => s.size === 0)).toBe(true);
    expect(q.extMsgQueueSizeLimit).toBeGreaterThan(0);
  });

  it('produces blocks on its own when an interval is set', async () => {
    const timed = await createDevnet({ network: 'mainnet', blockIntervalMs: 100 });
    try {
      await new Promise((r) => setTimeout(r, 450));
      expect((await timed.getMasterchainInfo()).last.seqno).toBeGreaterThanOrEqual(2);
      // On-demand production still works alongside the timer.
      const before = (await timed.getMasterchainInfo()).last.seqno;
      expect((await timed.produceBlock()).seqno).toBeGreaterThan(before);
    } finally {
      await timed.close();
    }
  });
});

describe('workchains', () => {
  it('puts masterchain transactions in the masterchain block and keeps the sandbox list empty', async () => {
    const mcAccount = new Address(-1, Buffer.alloc(32, 9));
    await devnet.sendMessage(await faucetTransfer(devnet, await faucetSeqno(devnet), mcAccount, toNano('10')));
    // The sandbox's own record of transactions (a protected field) is emptied after every message.
    expect((devnet as unknown as { messages: { bc: { transactions: unknown[] } } }).messages.bc.transactions).toHaveLength(0);
    const mc = await devnet.produceBlock();
    const mcTxs = await devnet.listBlockTransactionsExt(mc, { count: 10 });
    expect(mcTxs.transactions.map((t) => t.address.toRawString())).toEqual([mcAccount.toRawString()]);
    expect(mcTxs.transactions[0].block.workchain).toBe(-1);
    const shardTxs = await devnet.listBlockTransactionsExt((await devnet.getShards(mc.seqno))[0], { count: 10 });
    expect(shardTxs.transactions.map((t) => t.address.toRawString())).toEqual([devnet.faucet.address.toRawString()]);
    expect((await devnet.getAccountState(mcAccount)).balance).toBe(toNano('10'));
  });
});
