/**
 * The devnet's blocks are real TON cells: each is read here with @ton/core's readers (transactions, ShardAccount
 * leaves) and this package's proof readers (BlockInfo, account blocks, state leaves, shard hashes), which know
 * nothing of how the devnet built them, and checked against what the devnet reports through ChainSource: the id is
 * the cell's hash, each state update starts from the state the previous block ended with, the state holds every
 * account as the devnet reports it (fork extras summing the balances), every transaction is in the account blocks
 * with its hash, and the masterchain block lists the round's shard blocks. On a two-shard devnet, across a split and
 * a merge, and after a restart, where older blocks are built again from the journal.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, beginCell, Cell, CellType, comment, internal, loadShardAccount, loadTransaction, toNano, type Slice } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { WHOLE_SHARD, type BlockIdExt } from '@tongate/chain';
import { createDevnet, signerFromSeed, walletTransferBoc, type Devnet } from '@tongate/devnet';
import { parseBlockHeader } from '../src/cells/block.js';
import { blockTransactionCells, findBlockTransaction } from '../src/cells/block-extra.js';
import { hashmapEntries } from '../src/cells/hashmap.js';
import { shardHashesOfBlock } from '../src/cells/mc-block-extra.js';
import { configRootOfState, findOldMcBlock, mcStateExtraOf } from '../src/cells/mc-state-extra.js';
import { parseShardHashes } from '../src/cells/shard-hashes.js';
import { findAccountLeaf } from '../src/cells/shard-state.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-devnet-cells-'));
let devnet: Devnet;
let seqno = 0;
/** What the checks went through (so that a chain they could not see into fails). */
const seen = { leaves: 0, transactions: 0, chained: 0 };
const receivers = [
  new Address(0, Buffer.alloc(32, 0x11)),
  new Address(0, Buffer.alloc(32, 0xe1)),
  new Address(-1, Buffer.alloc(32, 0x42)),
  new Address(0, Buffer.alloc(32, 0x7f)),
];

async function transfer(to: Address[], value = toNano('3')): Promise<void> {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  await devnet.sendMessage(
    await walletTransferBoc(
      wallet,
      signerFromSeed(devnet.faucet.secretKey),
      seqno++,
      to.map((a) => internal({ to: a, value, bounce: false, body: comment('cells') })),
    ),
  );
}

beforeAll(async () => {
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0, dataDir });
  await devnet.produceBlock();
  await transfer(receivers);
  await devnet.settle();
  await transfer(receivers.slice(0, 2), toNano('1'));
  await devnet.settle();
});
afterAll(async () => {
  await devnet?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every block of the chain: masterchain blocks with the shard blocks each lists. */
async function allBlocks(d: Devnet): Promise<{ mc: BlockIdExt; shards: BlockIdExt[] }[]> {
  const last = (await d.getMasterchainInfo()).last.seqno;
  const out: { mc: BlockIdExt; shards: BlockIdExt[] }[] = [];
  for (let s = 0; s <= last; s++)
    out.push({ mc: (await d.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno: s })).id, shards: await d.getShards(s) });
  return out;
}

const skipDepthBalance = (s: Slice) => {
  s.loadUint(5);
  s.loadCoins();
  s.loadMaybeRef();
};

/** Walks a ShardAccounts dictionary checking that each fork's balance is its two children's sum; returns the total. */
function checkForkExtras(node: Cell, pos: number): bigint {
  const s = node.beginParse();
  const width = Math.ceil(Math.log2(256 - pos + 1));
  let len: number;
  if (!s.loadBit()) {
    len = 0;
    while (s.loadBit()) len++;
    s.skip(len);
  } else if (!s.loadBit()) {
    len = s.loadUint(width);
    s.skip(len);
  } else {
    s.skip(1);
    len = s.loadUint(width);
  }
  if (pos + len === 256) {
    s.loadUint(5);
    return s.loadCoins();
  }
  const sum = checkForkExtras(node.refs[0], pos + len + 1) + checkForkExtras(node.refs[1], pos + len + 1);
  s.loadUint(5);
  expect(s.loadCoins()).toBe(sum);
  return sum;
}

/** Checks one block's cells against what the devnet reports; returns the hash of the state after it. */
async function checkBlock(d: Devnet, id: BlockIdExt, mcSeqno: number, prevStates: Map<string, Buffer>): Promise<void> {
  const { block, state } = await d.getBlockCells(id);
  expect(block.hash().equals(id.rootHash)).toBe(true);
  expect(createHash('sha256').update(block.toBoc()).digest().equals(id.fileHash)).toBe(true);

  const header = await d.getBlockHeader(id);
  const parsed = parseBlockHeader(id, block);
  const { shardBlocks, ...rest } = header;
  void shardBlocks;
  expect(parsed).toEqual(rest);
  // A shard block's master_ref names the masterchain block of the round before (the round's own names it by hash).
  if (id.workchain !== -1) expect(parsed.masterchainRef?.seqno).toBe(Math.max(0, mcSeqno - 1));

  // The state update leads from the state the previous block (or blocks) ended with to the state given.
  const update = block.refs[2];
  expect(update.type).toBe(CellType.MerkleUpdate);
  const oldHash = update.bits.subbuffer(8, 256)!;
  const newHash = update.bits.subbuffer(8 + 256, 256)!;
  expect(newHash.equals(state.hash())).toBe(true);
  if (header.prevBlocks.length === 1) {
    expect(oldHash.equals(prevStates.get(key(header.prevBlocks[0]))!)).toBe(true);
    seen.chained++;
  } else if (header.prevBlocks.length === 2) {
    // After a merge: split_state#5f327da5 of the two halves' states (block.tlb), rebuilt here from their cells.
    const [l, r] = await Promise.all(header.prevBlocks.map(async (p) => (await d.getBlockCells(p)).state));
    expect(l.hash().equals(prevStates.get(key(header.prevBlocks[0]))!)).toBe(true);
    const split = beginCell().storeUint(0x5f327da5, 32).storeRef(l).storeRef(r).endCell();
    expect(oldHash.equals(split.hash())).toBe(true);
    seen.chained++;
  }
  prevStates.set(key(id), state.hash());

  // Every account of the shard, as the devnet reports it, is the state's leaf; the leaves parse as ShardAccount.
  const accountsRoot = state.refs[1].beginParse();
  if (accountsRoot.loadBit()) {
    const root = accountsRoot.preloadRef();
    const total = checkForkExtras(root, 0);
    let sum = 0n;
    for (const { key: k, value } of hashmapEntries(root, 256, skipDepthBalance)) {
      // The leaf's value is the ShardAccount cell's content, inline.
      const inline = beginCell().storeSlice(value.clone()).endCell();
      const sa = loadShardAccount(value);
      expect(sa.account).not.toBeNull();
      const address = new Address(id.workchain, Buffer.from(k.toString(16).padStart(64, '0'), 'hex'));
      expect(sa.account!.addr.equals(address)).toBe(true);
      sum += sa.account!.storage.balance.coins;
      seen.leaves++;
      const reported = await d.getAccountState(address, mcSeqno);
      expect(reported.balance).toBe(sa.account!.storage.balance.coins);
      expect(reported.shardAccount!.hash().equals(inline.hash())).toBe(true);
    }
    expect(sum).toBe(total);
  }
  for (const r of [...receivers, d.faucet.address]) {
    if (r.workChain !== id.workchain) continue;
    if (id.workchain === 0 && !inShard(id.shard, r.hash)) continue;
    const reported = await d.getAccountState(r, mcSeqno);
    const leaf = findAccountLeaf(state, r.hash);
    if (reported.status === 'nonexist') expect(leaf).toBeNull();
    else {
      expect(leaf!.accountHash.equals(reported.shardAccount!.refs[0].hash())).toBe(true);
      expect(leaf!.lastTransactionLt).toBe(reported.lastTransaction?.lt ?? 0n);
    }
  }

  // Every transaction of the block is in its account blocks, with its hash; @ton/core reads each.
  const listed = await d.listBlockTransactionsExt(id, { count: 1000 });
  const inCells = blockTransactionCells(block);
  expect(inCells.map((t) => [t.account.toString('hex'), t.lt, t.cell.hash().toString('hex')])).toEqual(
    listed.transactions.map((t) => [t.address.hash.toString('hex'), t.lt, t.hash.toString('hex')]),
  );
  for (const t of listed.transactions) {
    expect(findBlockTransaction(block, t.address.hash, t.lt)!.equals(t.hash)).toBe(true);
    const tx = loadTransaction(inCells.find((c) => c.lt === t.lt)!.cell.beginParse());
    expect(tx.lt).toBe(t.lt);
    expect(tx.address).toBe(BigInt('0x' + t.address.hash.toString('hex')));
    seen.transactions++;
  }
}

const key = (r: { workchain: number; shard: bigint; seqno: number }) => `${r.workchain}:${r.shard}:${r.seqno}`;
const inShard = (shard: bigint, account: Buffer) => {
  const u = BigInt.asUintN(64, shard);
  const low = u & -u;
  const mask = ~(low * 2n - 1n) & (2n ** 64n - 1n);
  return (account.readBigUInt64BE(0) & mask) === (u & mask);
};
async function checkChain(d: Devnet, minTransactions = 8): Promise<void> {
  const prevStates = new Map<string, Buffer>();
  seen.leaves = seen.transactions = seen.chained = 0;
  const blocks = await allBlocks(d);
  for (const { mc, shards } of blocks) {
    for (const s of shards) await checkBlock(d, s, mc.seqno, prevStates);
    await checkBlock(d, mc, mc.seqno, prevStates);
    const { block, state } = await d.getBlockCells(mc);
    // The masterchain block and the state after it list the round's shard blocks.
    const fromBlock = parseShardHashes(shardHashesOfBlock(block));
    const fromState = parseShardHashes(mcStateExtraOf(state));
    for (const listed of [fromBlock, fromState])
      expect(listed.map((b) => [b.shard, b.seqno, b.rootHash.toString('hex'), b.fileHash.toString('hex')])).toEqual(
        shards.map((b) => [b.shard, b.seqno, b.rootHash.toString('hex'), b.fileHash.toString('hex')]),
      );
    expect(
      configRootOfState(state)
        .hash()
        .equals((await d.getConfigAll(mc.seqno)).hash()),
    ).toBe(true);
    if (mc.seqno > 0) {
      const prev = findOldMcBlock(state, mc.seqno - 1);
      expect(prev?.id.rootHash.equals((await d.getBlockHeader({ ...mc, seqno: mc.seqno - 1 })).id.rootHash)).toBe(true);
    }
  }
  const info = await d.getMasterchainInfo();
  // Every block but genesis's chained; the faucet, elector and the DNS root and collection in every round.
  expect(seen.chained).toBe(blocks.slice(1).reduce((n, r) => n + r.shards.length + 1, 0));
  expect(seen.leaves).toBeGreaterThanOrEqual(4 * (info.last.seqno + 1));
  expect(seen.transactions).toBeGreaterThanOrEqual(minTransactions);
  expect(info.stateRootHash.equals((await d.getBlockCells(info.last)).state.hash())).toBe(true);
}

describe('devnet blocks as cells', () => {
  it('two shards: ids are cell hashes, states chain, accounts and transactions are the reported ones', async () => {
    expect((await devnet.getShards((await devnet.getMasterchainInfo()).last.seqno)).length).toBe(2);
    await checkChain(devnet);
  });

  it('after a restart, older blocks built again from the journal hash to their ids, and new blocks chain on', async () => {
    await devnet.close();
    devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0, dataDir });
    seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    await transfer(receivers.slice(1, 3), toNano('2'));
    await devnet.settle();
    await checkChain(devnet);
  });

  it("a split and a merge: the halves start from their parent's state, the merged block from both halves'", async () => {
    const d = await createDevnet({ network: 'mainnet', blockIntervalMs: 0, shards: 1 });
    try {
      await d.produceBlock();
      await d.setShards(2);
      for (let i = 0; i < 3; i++) await d.produceBlock();
      expect((await d.getShards((await d.getMasterchainInfo()).last.seqno)).length).toBe(2);
      await d.setShards(1);
      for (let i = 0; i < 2; i++) await d.produceBlock();
      expect((await d.getShards((await d.getMasterchainInfo()).last.seqno)).length).toBe(1);
      await checkChain(d, 0);
    } finally {
      await d.close();
    }
  });
});
