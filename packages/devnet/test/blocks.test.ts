import { createHash } from 'node:crypto';
import { Address, Cell, comment, internal, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blockSigningPayload,
  isChainError,
  nodeIdShort,
  readCandidateHashData,
  simplexSigningPayload,
  WHOLE_SHARD,
  type BlockIdExt,
} from '@tongate/chain';
import { createDevnet, signerFromSeed, verifyEd25519, walletTransferBoc, type Devnet } from '../src/index.js';
import { faucetSeqno, faucetTransfer } from './helpers.js';

// The default devnet: a basechain in two shards, the left half (prefix bit 0) 0x4000000000000000 and the right
// half 0xc000000000000000.
const LEFT = 0x4000000000000000n;
const RIGHT = BigInt.asIntN(64, 0xc000000000000000n);

let devnet: Devnet;
/** The faucet's shard, and an account there (`near`) and one in the other half (`far`). */
let faucetShard: bigint;
let otherShard: bigint;
let near: Address;
let far: Address;
const shardBlock = async (mcSeqno: number, shard: bigint): Promise<BlockIdExt> =>
  (await devnet.getShards(mcSeqno)).find((s) => s.shard === shard)!;

beforeAll(async () => {
  devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
  const leftHalf = devnet.faucet.address.hash[0] < 0x80;
  faucetShard = leftHalf ? LEFT : RIGHT;
  otherShard = leftHalf ? RIGHT : LEFT;
  near = new Address(0, Buffer.alloc(32, leftHalf ? 0x07 : 0xf7));
  far = new Address(0, Buffer.alloc(32, leftHalf ? 0xf7 : 0x07));
  // Three rounds: empty; the faucet's transfer to both, which `near` receives at once; empty, where `far` receives.
  await devnet.produceBlock();
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  await devnet.sendMessage(
    await walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), 0, [
      internal({ to: near, value: toNano('2'), bounce: false, body: comment('near') }),
      internal({ to: far, value: toNano('2'), bounce: false, body: comment('far') }),
    ]),
  );
  await devnet.produceBlock();
  await devnet.produceBlock();
});
afterAll(() => devnet.close());

/** Whether some cell of a BOC holds these bytes in its data, at any bit offset (cells are bit strings). */
function holdsBits(boc: Buffer, bytes: Buffer): boolean {
  const wanted = [...bytes].map((b) => b.toString(2).padStart(8, '0')).join('');
  const seen = new Set<string>();
  const walk = (c: Cell): boolean => {
    const key = c.hash().toString('hex');
    if (seen.has(key)) return false;
    seen.add(key);
    let bits = '';
    for (let i = 0; i < c.bits.length; i++) bits += c.bits.at(i) ? '1' : '0';
    return bits.includes(wanted) || c.refs.some(walk);
  };
  return walk(Cell.fromBoc(boc)[0]);
}

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

  it('references one basechain block per shard per masterchain block (getShards) and back', async () => {
    for (let s = 0; s <= 3; s++) {
      const shards = await devnet.getShards(s);
      expect(shards.map((b) => [b.workchain, b.shard, b.seqno])).toEqual([
        [0, LEFT, s],
        [0, RIGHT, s],
      ]);
      const mc = await devnet.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno: s });
      for (const [i, id] of shards.entries()) {
        const sh = await devnet.getBlockHeader(id);
        // master_ref: the masterchain block of the round before (block 0 in the genesis round).
        expect(sh.masterchainRef).toEqual({ workchain: -1, shard: WHOLE_SHARD, seqno: Math.max(0, s - 1) });
        expect(sh.afterSplit || sh.afterMerge || sh.beforeSplit).toBe(false);
        expect(sh.prevBlocks.map((p) => [p.shard, p.seqno])).toEqual(s === 0 ? [] : [[id.shard, s - 1]]);
        expect(mc.shardBlocks?.[i].rootHash.equals(id.rootHash)).toBe(true);
      }
    }
  });

  it('names each block by its Block cell: root hash the cell hash, file hash the sha256 of its BOC', async () => {
    for (const ref of [await shardBlock(2, faucetShard), { workchain: -1, shard: WHOLE_SHARD, seqno: 2 }]) {
      const h = await devnet.getBlockHeader(ref);
      const { block } = await devnet.getBlockCells(h.id);
      expect(block.hash().equals(h.id.rootHash)).toBe(true);
      expect(createHash('sha256').update(block.toBoc()).digest().equals(h.id.fileHash)).toBe(true);
    }
  });

  it("puts each transaction in the block of its account's shard, the other shard's receiver a round later", async () => {
    const txsOf = async (mcSeqno: number, shard: bigint) => {
      const id = await shardBlock(mcSeqno, shard);
      const h = await devnet.getBlockHeader(id);
      const page = await devnet.listBlockTransactionsExt(id, { count: 10 });
      for (const t of page.transactions) {
        expect(t.lt >= h.startLt && t.lt < h.endLt).toBe(true);
        expect(t.cell.hash().equals(t.hash)).toBe(true);
        expect(t.tx.now).toBeLessThanOrEqual(h.genUtime);
      }
      return page.transactions;
    };
    const sent = await txsOf(2, faucetShard);
    expect(sent.map((t) => t.address.toRawString()).sort()).toEqual([devnet.faucet.address.toRawString(), near.toRawString()].sort());
    expect(await txsOf(2, otherShard)).toHaveLength(0);
    const received = await txsOf(3, otherShard);
    expect(received.map((t) => t.address.toRawString())).toEqual([far.toRawString()]);
    // `far` got the message the faucet's transaction sent, in a later block.
    const faucetTx = sent.find((t) => t.address.equals(devnet.faucet.address))!;
    const farMessage = faucetTx.tx.outMessages.values().find((m) => (m.info.dest as Address).equals(far))!;
    expect(received[0].tx.inMessage!.body.hash().equals(farMessage.body.hash())).toBe(true);
    expect(received[0].lt > faucetTx.lt).toBe(true);
    expect(await txsOf(3, faucetShard)).toHaveLength(0);
    expect((await devnet.getAccountState(far)).balance).toBe(toNano('2'));
    expect((await devnet.listBlockTransactions(await shardBlock(1, faucetShard), { count: 10 })).transactions).toHaveLength(0);
  });

  it('pages block transactions by (account, lt)', async () => {
    const id = await shardBlock(2, faucetShard);
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
    const sh2 = await shardBlock(2, faucetShard);
    const tx = (await devnet.listBlockTransactions(sh2, { count: 1 })).transactions[0];
    expect(await devnet.lookupBlock({ workchain: 0, shard: faucetShard, lt: tx.lt })).toEqual(sh2);
    // The shard of a lookup is an account prefix: 0x8000000000000000 lies in the right half.
    expect(await devnet.lookupBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: 2 })).toEqual(await shardBlock(2, RIGHT));
    expect(await devnet.lookupBlock({ workchain: 0, shard: 0x2000000000000000n, seqno: 1 })).toEqual(await shardBlock(1, LEFT));
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
    await expectChainError(devnet.lookupBlock({ workchain: 0, shard: LEFT, seqno: last.seqno + 1 }), 'not_found');
    await expectChainError(devnet.getBlockHeader({ workchain: 0, shard: WHOLE_SHARD, seqno: 1 }), 'not_found');
    await expectChainError(devnet.lookupBlock({ workchain: 5, shard: WHOLE_SHARD, seqno: 1 }), 'not_found');
    await expectChainError(devnet.getBlockHeader({ workchain: 0, shard: WHOLE_SHARD, seqno: 99 }), 'not_found');
  });
});

describe('signatures, proofs, queues', () => {
  it('signs masterchain blocks with simplex finalize votes: a session per set, a slot per block, candidates chained', async () => {
    const sigs = await devnet.getMasterchainBlockSignatures(2);
    expect(sigs.id.seqno).toBe(2);
    expect(sigs.signatures).toHaveLength(1);
    const [s] = sigs.signatures;
    expect(s.nodeIdShort.equals(nodeIdShort(devnet.validator.publicKey))).toBe(true);
    const simplex = sigs.simplex!;
    expect(simplex.slot).toBe(2);
    const payload = simplexSigningPayload(simplex.sessionId, simplex.slot, simplex.candidate);
    expect(verifyEd25519(devnet.validator.publicKey, payload, s.signature)).toBe(true);
    expect(verifyEd25519(devnet.validator.publicKey, blockSigningPayload(sigs.id.rootHash, sigs.id.fileHash), s.signature)).toBe(false);
    const candidate = readCandidateHashData(simplex.candidate);
    expect(candidate.kind).toBe('ordinary');
    expect(candidate.block.rootHash.equals(sigs.id.rootHash) && candidate.block.fileHash.equals(sigs.id.fileHash)).toBe(true);
    // Its parent is block 1's candidate, in the same session.
    const before = (await devnet.getMasterchainBlockSignatures(1)).simplex!;
    expect(before.sessionId.equals(simplex.sessionId)).toBe(true);
    expect(candidate.parent).toEqual({ slot: 1, hash: createHash('sha256').update(before.candidate).digest() });
    expect(readCandidateHashData(before.candidate).parent).toBeNull();
    await expectChainError(devnet.getMasterchainBlockSignatures(1000), 'not_found');
  });

  it('with consensus catchain, signs ordinary sets: the validator key over TL ton.blockId', async () => {
    const d = await createDevnet({ network: 'mainnet', blockIntervalMs: 0, consensus: 'catchain' });
    try {
      await d.produceBlock();
      await d.produceBlock();
      const sigs = await d.getMasterchainBlockSignatures(2);
      expect(sigs.simplex).toBeUndefined();
      const [s] = sigs.signatures;
      expect(verifyEd25519(d.validator.publicKey, blockSigningPayload(sigs.id.rootHash, sigs.id.fileHash), s.signature)).toBe(true);
      const other = await d.getMasterchainBlockSignatures(1);
      expect(
        verifyEd25519(d.validator.publicKey, blockSigningPayload(sigs.id.rootHash, sigs.id.fileHash), other.signatures[0].signature),
      ).toBe(false);
    } finally {
      await d.close();
    }
  });

  it('serves shard block proofs: Merkle proofs of the blocks that name the linked ids', async () => {
    const shard = await shardBlock(1, RIGHT);
    const proof = await devnet.getShardBlockProof(shard);
    expect(proof.mcId.seqno).toBe(1);
    expect(proof.from.seqno).toBe(3);
    expect(proof.links).toHaveLength(1);
    const proven = (boc: Buffer) => Cell.fromBoc(boc)[0].refs[0].hash(0);
    expect(proven(proof.links[0].proof).equals(proof.mcId.rootHash)).toBe(true);
    expect(holdsBits(proof.links[0].proof, shard.rootHash)).toBe(true);
    // One back link: the state after block 3 lists block 1 among its previous blocks.
    expect(proof.mcProof.map((l) => [l.from.seqno, l.to.seqno])).toEqual([[3, 1]]);
    for (const link of proof.mcProof) {
      expect(proven(link.proof).equals(link.from.rootHash)).toBe(true);
      expect(proven(link.destProof).equals(link.to.rootHash)).toBe(true);
      // The state after `from` (its state update's new hash) lists `to` among its previous blocks.
      const update = Cell.fromBoc(link.proof)[0].refs[0].refs[2];
      expect(proven(link.stateProof).equals(update.bits.subbuffer(8 + 256, 256)!)).toBe(true);
      expect(holdsBits(link.stateProof, link.to.rootHash)).toBe(true);
    }
    const near = await devnet.getShardBlockProof(shard, 1);
    expect(near.mcProof).toHaveLength(0);
    await expectChainError(devnet.getShardBlockProof(shard, 0), 'invalid');
  });

  it('reports the messages each shard sent to another and that wait for delivery', async () => {
    const empty = await devnet.getOutMsgQueueSizes();
    expect(empty.shards.map((s) => [s.id.workchain, s.id.shard])).toEqual([
      [-1, WHOLE_SHARD],
      [0, LEFT],
      [0, RIGHT],
    ]);
    expect(empty.shards.every((s) => s.size === 0)).toBe(true);
    expect(empty.extMsgQueueSizeLimit).toBeGreaterThan(0);
    const before = (await devnet.getAccountState(far)).balance;
    await devnet.sendMessage(await faucetTransfer(devnet, await faucetSeqno(devnet), far, toNano('1')));
    const sealed = await devnet.produceBlock();
    const waiting = await devnet.getOutMsgQueueSizes();
    expect(waiting.shards.map((s) => [s.id.seqno, s.id.shard, s.size])).toEqual([
      [sealed.seqno, WHOLE_SHARD, 0],
      [sealed.seqno, LEFT, faucetShard === LEFT ? 1 : 0],
      [sealed.seqno, RIGHT, faucetShard === RIGHT ? 1 : 0],
    ]);
    const delivered = await devnet.settle();
    expect(delivered.seqno).toBe(sealed.seqno + 1);
    expect((await devnet.getOutMsgQueueSizes()).shards.every((s) => s.size === 0)).toBe(true);
    // The delivering transaction's storage phase takes the rent due since the account last paid: a few nanotons.
    const rent = before + toNano('1') - (await devnet.getAccountState(far)).balance;
    expect(rent >= 0n && rent < 1000n).toBe(true);
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
    // The basechain wallet's transaction seals first; its message reaches the masterchain a block later.
    const sent = await devnet.produceBlock();
    const shardTxs = await devnet.listBlockTransactionsExt(await shardBlock(sent.seqno, faucetShard), { count: 10 });
    expect(shardTxs.transactions.map((t) => t.address.toRawString())).toEqual([devnet.faucet.address.toRawString()]);
    expect((await devnet.listBlockTransactionsExt(sent, { count: 10 })).transactions).toHaveLength(0);
    const mc = await devnet.produceBlock();
    const mcTxs = await devnet.listBlockTransactionsExt(mc, { count: 10 });
    expect(mcTxs.transactions.map((t) => t.address.toRawString())).toEqual([mcAccount.toRawString()]);
    expect(mcTxs.transactions[0].block.workchain).toBe(-1);
    expect((await devnet.getAccountState(mcAccount)).balance).toBe(toNano('10'));
  });
});
