import { Address, Cell, loadShardAccount, loadTransaction, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnet, type Devnet } from '../src/index.js';
import { LruCache } from '@tongate/chain';
import { faucetTransfer } from './helpers.js';

describe('LruCache', () => {
  it('evicts the least recently used entry and refreshes entries on read', () => {
    const lru = new LruCache<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // 'b' is now the oldest
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
    let made = 0;
    expect(lru.getOrCreate('d', () => ++made)).toBe(1);
    expect(lru.getOrCreate('d', () => ++made)).toBe(1);
    expect(made).toBe(1);
  });

  it('rejects a capacity that is not a positive integer', () => {
    expect(() => new LruCache(0)).toThrow(/positive integer/);
  });
});

describe('cached reads', () => {
  let devnet: Devnet;
  const receiver = new Address(0, Buffer.alloc(32, 0x57));
  let firstBlock: number;
  let secondBlock: number;

  beforeAll(async () => {
    devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
    await devnet.sendMessage(await faucetTransfer(devnet, 0, receiver, toNano('1'), 'one'));
    firstBlock = (await devnet.produceBlock()).seqno;
    await devnet.sendMessage(await faucetTransfer(devnet, 1, receiver, toNano('2'), 'two'));
    secondBlock = (await devnet.produceBlock()).seqno;
  });
  afterAll(() => devnet.close());

  it('serves each block its own snapshot, however reads interleave', async () => {
    // The second transfer finds the account holding a balance: it pays storage for the time since the first (a
    // nanoton or so when the machine is slow between the two blocks).
    const second = (await devnet.getAccountState(receiver, secondBlock)).lastTransaction!;
    const [secondTx] = await devnet.getAccountTransactions(receiver, second, 1);
    const { description } = loadTransaction(secondTx.cell.beginParse());
    const storageFee = description.type === 'generic' ? (description.storagePhase?.storageFeesCollected ?? 0n) : 0n;
    expect(storageFee).toBeLessThan(toNano('0.000001'));
    for (let i = 0; i < 3; i++) {
      expect((await devnet.getAccountState(receiver, firstBlock)).balance).toBe(toNano('1'));
      expect((await devnet.getAccountState(receiver, secondBlock)).balance).toBe(toNano('3') - storageFee);
      expect((await devnet.getAccountState(receiver, firstBlock - 1)).status).toBe('nonexist');
    }
    const latest = await devnet.getAccountState(receiver);
    expect(latest.block.seqno).toBe(secondBlock);
    expect(latest.address).toBe(receiver);
  });

  it('gives the same account state on a repeated read, with a ShardAccount that decodes to it', async () => {
    const a = await devnet.getAccountState(devnet.faucet.address);
    const b = await devnet.getAccountState(devnet.faucet.address);
    expect(b).toEqual(a);
    const sa = loadShardAccount(a.shardAccount!.beginParse());
    expect(sa.account!.storage.balance.coins).toBe(a.balance);
    expect(sa.lastTransactionLt).toBe(a.lastTransaction!.lt);
  });

  it('gives transactions whose cell hashes to the indexed hash on every read', async () => {
    const last = (await devnet.getAccountState(receiver)).lastTransaction!;
    for (let i = 0; i < 2; i++) {
      const txs = await devnet.getAccountTransactions(receiver, last, 10);
      expect(txs.map((t) => t.lt)).toHaveLength(2);
      for (const t of txs) {
        expect(t.cell.hash().equals(t.hash)).toBe(true);
        expect(Cell.fromBoc(t.cell.toBoc())[0].hash().equals(t.hash)).toBe(true);
      }
    }
    const one = await devnet.getTransaction(receiver, last.lt);
    expect(one!.hash.equals(last.hash)).toBe(true);
  });

  it('runs a get-method once per block, account state, method and arguments', async () => {
    const executor = (devnet as unknown as { getMethods: { bc: { executor: { runGetMethod: (...a: unknown[]) => Promise<unknown> } } } })
      .getMethods.bc.executor;
    const original = executor.runGetMethod;
    let runs = 0;
    executor.runGetMethod = function (this: unknown, ...a: unknown[]) {
      runs++;
      return original.apply(this, a);
    };
    try {
      const seqnoAt = async (block?: number) => {
        const r = await devnet.runGetMethod(devnet.faucet.address, 'seqno', [], block);
        return (r.stack[0] as { value: bigint }).value;
      };
      expect(await seqnoAt(firstBlock)).toBe(1n);
      expect(await seqnoAt(firstBlock)).toBe(1n);
      expect(await seqnoAt(secondBlock)).toBe(2n);
      expect(await seqnoAt()).toBe(2n); // the latest block is secondBlock: same key
      expect(runs).toBe(2);
      // Other arguments are another run; the same ones again are not.
      const plugin = (hash: bigint) =>
        devnet.runGetMethod(devnet.faucet.address, 'is_plugin_installed', [
          { type: 'int', value: 0n },
          { type: 'int', value: hash },
        ]);
      await plugin(1n);
      await plugin(2n);
      await plugin(1n);
      expect(runs).toBe(4);
      // A new block with a new faucet state: the latest seqno is computed afresh.
      await devnet.sendMessage(await faucetTransfer(devnet, 2, receiver, toNano('1'), 'three'));
      const third = (await devnet.produceBlock()).seqno;
      expect(await seqnoAt()).toBe(3n);
      expect(await seqnoAt(third)).toBe(3n);
      expect(await seqnoAt(firstBlock)).toBe(1n);
      expect(runs).toBe(5);
    } finally {
      executor.runGetMethod = original;
    }
  });
});
