/**
 * The liteserver ChainSource against the devnet it reads through (devnet → ChainLiteServer → ADNL → LiteserverChain):
 * every ChainSource method answers what the devnet answers directly, with every proof checked (the default policy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { isChainError, WHOLE_SHARD, type ChainSource } from '@tongate/chain';
import { createDevnet, type Devnet } from '@tongate/devnet';
import { ChainLiteServer } from '../src/server/index.js';
import { LiteserverChain, parseGlobalConfig } from '../src/index.js';

let devnet: Devnet;
let server: ChainLiteServer;
let chain: LiteserverChain;
const other = new Address(0, Buffer.alloc(32, 0x31));

async function transfer(seqno: number, to: Address, value: bigint): Promise<Buffer> {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  const body = wallet.createTransfer({
    seqno,
    secretKey: devnet.faucet.secretKey,
    messages: [internal({ to, value, bounce: false, body: 'hello' })],
    sendMode: SendMode.PAY_GAS_SEPARATELY,
  });
  return beginCell()
    .store(storeMessage(external({ to: wallet.address, body })))
    .endCell()
    .toBoc();
}

beforeAll(async () => {
  devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
  server = new ChainLiteServer({ chain: devnet });
  await server.listen(0);
  chain = new LiteserverChain({ network: 'mainnet', config: parseGlobalConfig(await server.globalConfig()) });
  expect(await chain.ready(5000)).toBe(true);
  // Some history: two transfers in two rounds.
  await chain.sendMessage(await transfer(0, other, toNano('2')));
  await devnet.produceBlock();
  await devnet.sendMessage(await transfer(1, other, toNano('3')));
  await devnet.produceBlock();
});

afterAll(async () => {
  await chain?.close();
  await server?.close();
  await devnet?.close();
});

/** Cells compared by hash, addresses by raw form: equal values, whatever their in-memory layout. */
function plain(v: unknown): unknown {
  if (v instanceof Cell) return `cell:${v.hash().toString('hex')}`;
  if (v instanceof Address) return v.toRawString();
  if (Buffer.isBuffer(v)) return v.toString('hex');
  if (typeof v === 'function') return 'function';
  if (v instanceof Map) return plain([...v.entries()]);
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}
const both = async <T>(fn: (c: ChainSource) => Promise<T>): Promise<[unknown, unknown]> => [
  plain(await fn(devnet)),
  plain(await fn(chain)),
];

/** The devnet basechain's left half (of two shards), which holds the faucet and `other`. */
const FAUCET_SHARD = 0x4000000000000000n;

describe('LiteserverChain answers what the devnet answers', () => {
  it('masterchain info, headers (masterchain and shard), shards', async () => {
    const [a, b] = await both((c) => c.getMasterchainInfo());
    expect(b).toEqual(a);
    const seqno = (await devnet.getMasterchainInfo()).last.seqno;
    const [h1, h2] = await both((c) => c.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno }));
    expect(h2).toEqual(h1);
    const [s1, s2] = await both((c) => c.getBlockHeader({ workchain: 0, shard: FAUCET_SHARD, seqno: 2 }));
    expect(s2).toEqual(s1);
    const [g1, g2] = await both((c) => c.getShards(seqno));
    expect(g2).toEqual(g1);
  });

  it('lookupBlock by seqno, lt and utime; a missing block is not_found', async () => {
    const head = (await devnet.getMasterchainInfo()).last;
    for (const q of [
      { workchain: -1, shard: WHOLE_SHARD, seqno: 1 },
      { workchain: 0, shard: WHOLE_SHARD, lt: 1_500_000n },
      { workchain: -1, shard: WHOLE_SHARD, utime: 0 },
    ]) {
      const [x, y] = await both((c) => c.lookupBlock(q));
      expect(y).toEqual(x);
    }
    const err = await chain.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: head.seqno + 100 }).catch((e) => e);
    expect(isChainError(err) && err.kind).toBe('not_found');
  });

  it('account state now and at an older block, nonexistent accounts', async () => {
    const [a, b] = await both((c) => c.getAccountState(devnet.faucet.address));
    expect(b).toEqual(a);
    const [c1, c2] = await both((c) => c.getAccountState(other, 1));
    expect(c2).toEqual(c1);
    const [n1, n2] = await both((c) => c.getAccountState(new Address(-1, Buffer.alloc(32, 9))));
    expect(n2).toEqual(n1);
  });

  it('get-methods run locally with the same results (and -13 without code)', async () => {
    const [a, b] = await both((c) => c.runGetMethod(devnet.faucet.address, 'seqno', []));
    expect(b).toEqual(a);
    const [k1, k2] = await both((c) => c.runGetMethod(devnet.faucet.address, 'get_public_key', []));
    expect(k2).toEqual(k1);
    const [u1, u2] = await both((c) => c.runGetMethod(other, 'seqno', []));
    expect(u2).toEqual(u1);
  });

  it('block transactions (short and whole), account history, one transaction', async () => {
    const ref = { workchain: 0, shard: FAUCET_SHARD, seqno: 1 };
    const [l1, l2] = await both((c) => c.listBlockTransactions(ref, { count: 1 }));
    expect(l2).toEqual(l1);
    const first = await devnet.listBlockTransactions(ref, { count: 1 });
    expect(first.incomplete).toBe(true);
    const after = { account: first.transactions[0].account, lt: first.transactions[0].lt };
    const [p1, p2] = await both((c) => c.listBlockTransactions(ref, { count: 10, after }));
    expect(p2).toEqual(p1);
    const [e1, e2] = await both((c) => c.listBlockTransactionsExt(ref, { count: 10 }));
    expect(e2).toEqual(e1);
    const last = (await devnet.getAccountState(devnet.faucet.address)).lastTransaction!;
    const [h1, h2] = await both((c) => c.getAccountTransactions(devnet.faucet.address, last, 10));
    expect(h2).toEqual(h1);
    expect((h2 as unknown[]).length).toBe(2);
    const [o1, o2] = await both((c) => c.getTransaction(devnet.faucet.address, last.lt));
    expect(o2).toEqual(o1);
    expect(await chain.getTransaction(devnet.faucet.address, last.lt + 1n)).toBeNull();
    const wrong = await chain.getAccountTransactions(devnet.faucet.address, { lt: last.lt, hash: Buffer.alloc(32) }, 1).catch((e) => e);
    expect(isChainError(wrong) && wrong.kind).toBe('not_found');
  });

  it('refuses an account history that does not chain from the requested transaction', async () => {
    // A server that slips another account's transaction into the middle of the history: every item is real and
    // the list starts where it was asked, but it is not the account's history.
    const foreign = (await devnet.getAccountTransactions(other, (await devnet.getAccountState(other)).lastTransaction!, 1))[0]!;
    const splicing: ChainSource = Object.create(devnet, {
      getAccountTransactions: {
        value: async (...args: Parameters<ChainSource['getAccountTransactions']>) => {
          const list = await devnet.getAccountTransactions(...args);
          return list.length > 1 ? [list[0], foreign, ...list.slice(2)] : list;
        },
      },
    });
    const liar = new ChainLiteServer({ chain: splicing });
    await liar.listen(0);
    const client = new LiteserverChain({ network: 'mainnet', config: parseGlobalConfig(await liar.globalConfig()), proofs: 'unsafe' });
    try {
      expect(await client.ready(5000)).toBe(true);
      const last = (await devnet.getAccountState(devnet.faucet.address)).lastTransaction!;
      const err = await client.getAccountTransactions(devnet.faucet.address, last, 10).catch((e) => e);
      expect(isChainError(err) && err.message).toMatch(/does not chain from lt/);
      expect(await chain.getAccountTransactions(devnet.faucet.address, last, 10)).toHaveLength(2);
    } finally {
      await client.close();
      await liar.close();
    }
  });

  it('config, libraries, signatures, shard proofs, queue sizes', async () => {
    const [p1, p2] = await both((c) => c.getConfigParam(34));
    expect(p2).toEqual(p1);
    expect(p1).toMatch(/^cell:/);
    expect(await chain.getConfigParam(12345)).toBeNull();
    const [a1, a2] = await both((c) => c.getConfigAll());
    expect(a2).toEqual(a1);
    const [s1, s2] = await both((c) => c.getMasterchainBlockSignatures(2));
    expect(s2).toEqual(s1);
    const [b1, b2] = await both((c) => c.getShardBlockProof({ workchain: 0, shard: FAUCET_SHARD, seqno: 0 }, 2));
    expect(b2).toEqual(b1);
    const [q1, q2] = await both((c) => c.getOutMsgQueueSizes());
    expect(q2).toEqual(q1);
    expect(await chain.getLibraries([Buffer.alloc(32, 1)])).toEqual([]);
  });

  it('fee estimation emulates locally with the same fees; bad BOCs are invalid, rejected messages refused', async () => {
    const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    const msg = Cell.fromBoc(await transfer(seqno, other, toNano('1')))[0];
    // Both emulate at the current second, and the storage fee grows with it: compare answers of one second.
    const second = () => Math.floor(Date.now() / 1000);
    let f1: unknown, f2: unknown;
    for (let start = -1, tries = 0; start !== second() && tries < 5; tries++) {
      start = second();
      [f1, f2] = await both((c) => c.emulateExternalMessage(msg, { ignoreChksig: false }));
    }
    expect((f2 as { fees: unknown }).fees).toEqual((f1 as { fees: unknown }).fees);
    expect((f2 as { accepted: boolean }).accepted).toBe(true);
    const bad = await chain.sendMessage(Buffer.from('not a boc')).catch((e) => e);
    expect(isChainError(bad) && bad.kind).toBe('invalid');
    const refused = await chain.sendMessage(await transfer(seqno + 7, other, 1n)).catch((e) => e);
    expect(isChainError(refused) && refused.kind).toBe('refused');
  });
});

describe('following the head', () => {
  it('waitForMasterchainBlock wakes when the server has the block (waitMasterchainSeqno), and times out quietly otherwise', async () => {
    const head = (await devnet.getMasterchainInfo()).last.seqno;
    // Already there: at once.
    let started = performance.now();
    await chain.waitForMasterchainBlock(head, 8000);
    expect(performance.now() - started).toBeLessThan(4000);

    // The next block, sealed while the query is held by the server: woken long before the 8 s bound.
    started = performance.now();
    const waiting = chain.waitForMasterchainBlock(head + 1, 8000);
    await new Promise((r) => setTimeout(r, 200));
    await devnet.produceBlock();
    await waiting;
    expect(performance.now() - started).toBeLessThan(4000);
    expect((await chain.getMasterchainInfo()).last.seqno).toBeGreaterThanOrEqual(head + 1);

    // A block that does not come: resolves (no error) once the bound has passed.
    started = performance.now();
    await expect(chain.waitForMasterchainBlock(head + 100, 600)).resolves.toBeUndefined();
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(300);
    expect(waited).toBeLessThan(5000);
  });
});
