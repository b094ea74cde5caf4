/**
 * The pending-trace service on a real devnet, with the in-process store and (when REDIS_URL is set) the Redis one:
 * a message that is accepted and emulated but never lands (its broadcast is lost, as a liteserver may lose it) stays
 * pending while blocks go by and expires after the TTL; the networks' entries never mix; a network's entries are
 * bounded.
 */
import { Address, Cell, internal, WalletContractV4 } from '@ton/ton';
import type { ChainSource } from '@tongate/chain';
import { createDevnet, signerFromSeed, walletTransferBoc, type Devnet } from '@tongate/devnet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryPendingStore, RedisPendingStore, type PendingStore } from '../src/pending/store.js';
import { PendingTraces } from '../src/pending/service.js';

let devnet: Devnet;

beforeAll(async () => {
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
}, 120_000);
afterAll(async () => {
  await devnet?.close();
});

/** The devnet, except that sent messages are lost on the way (they never land). */
function losingBroadcasts(chain: Devnet): ChainSource {
  return new Proxy(chain, {
    get(target, prop, receiver) {
      if (prop === 'sendMessage') return async (boc: Buffer) => ({ hash: Cell.fromBoc(boc)[0]!.hash() });
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as ChainSource;
}

async function transfer(comment: string): Promise<Cell> {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
  const to = new Address(0, Buffer.alloc(32, 9));
  const boc = await walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno, [
    internal({ to, value: 1_000_000n, bounce: false, body: comment }),
  ]);
  return Cell.fromBoc(boc)[0]!;
}

const stores: [string, () => PendingStore][] = [['in process', () => new MemoryPendingStore(3)]];
if (process.env.REDIS_URL)
  stores.push(['Redis', () => new RedisPendingStore(process.env.REDIS_URL!, 3, `tongate:pending-test:${process.pid}:${Date.now()}`)]);

describe.each(stores)('pending traces held %s', (_name, makeStore) => {
  let store: PendingStore;
  beforeAll(() => {
    store = makeStore();
  });
  afterAll(async () => {
    await store.close();
  });

  it('a message that never lands stays pending while blocks go by, then expires', async () => {
    // A TTL well past what two blocks take on a busy machine; the expiry is then awaited, not slept for.
    const ttlMs = 8_000;
    const pending = new PendingTraces({ chain: losingBroadcasts(devnet), store, ttlMs, pollMs: 50 });
    pending.start();
    try {
      const message = await transfer(`lost ${Date.now()}`);
      const submittedAt = Date.now();
      await pending.submit(message);
      const [entry] = await store.byHash('testnet', [message.hash().toString('base64')]);
      expect(entry).toMatchObject({ finality: 'pending', extHash: message.hash().toString('base64') });
      expect(Object.keys(entry!.trace.transactions!)).toHaveLength(2);
      await devnet.produceBlock();
      await devnet.produceBlock();
      await new Promise((r) => setTimeout(r, 300));
      const stillPending = (await store.byHash('testnet', [entry!.key]))[0]?.finality;
      // Only meaningful while the TTL has not run out (on a machine slow enough for two blocks to take 8 s, skip it).
      if (Date.now() < submittedAt + ttlMs - 500) {
        expect(stillPending).toBe('pending');
        expect(await store.unfinished('testnet', 10)).toContainEqual(expect.objectContaining({ key: entry!.key }));
      }
      for (const end = Date.now() + ttlMs + 20_000; ;) {
        if ((await store.byHash('testnet', [entry!.key, entry!.extHash, entry!.traceId])).length === 0) break;
        if (Date.now() > end) throw new Error('the lost message never expired');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(Date.now()).toBeGreaterThanOrEqual(submittedAt + ttlMs);
      expect(await store.byAccount('testnet', [entry!.rootAccount], 10)).toEqual([]);
      expect(await store.unfinished('testnet', 10)).toEqual([]);
    } finally {
      await pending.stop();
    }
  }, 60_000);

  it('a send is not held back past emulationTimeoutMs: the message goes out and its entry follows', async () => {
    const sent: string[] = [];
    const chain = new Proxy(losingBroadcasts(devnet), {
      get(target, prop, receiver) {
        if (prop === 'sendMessage')
          return async (boc: Buffer) => (
            sent.push(Cell.fromBoc(boc)[0]!.hash().toString('base64')),
            { hash: Cell.fromBoc(boc)[0]!.hash() }
          );
        return Reflect.get(target, prop, receiver);
      },
    }) as ChainSource;
    const pending = new PendingTraces({ chain, store, ttlMs: 30_000, emulationTimeoutMs: 0 });
    const message = await transfer(`late ${Date.now()}`);
    const hash = message.hash().toString('base64');
    await pending.submit(message);
    expect(sent).toEqual([hash]);
    const started = Date.now();
    while ((await store.byHash('testnet', [hash])).length === 0 && Date.now() - started < 10_000)
      await new Promise((r) => setTimeout(r, 10));
    expect((await store.byHash('testnet', [hash]))[0]).toMatchObject({ extHash: hash, finality: 'pending' });
  }, 60_000);

  it('keeps the networks apart and at most maxEntries per network, dropping the oldest', async () => {
    const pending = new PendingTraces({ chain: losingBroadcasts(devnet), store, ttlMs: 30_000 });
    const keys: string[] = [];
    for (let i = 0; i < 4; i++) {
      const message = await transfer(`bounded ${i} ${Date.now()}`);
      await pending.submit(message);
      keys.push((await store.byHash('testnet', [message.hash().toString('base64')]))[0]!.key);
    }
    expect(await store.byHash('mainnet', keys)).toEqual([]);
    const kept = await store.byHash('testnet', keys);
    expect(kept.map((e) => e.key).sort()).toEqual(keys.slice(1).sort());
    const account = kept[0]!.rootAccount;
    expect(await store.byAccount('mainnet', [account], 10)).toEqual([]);
    expect((await store.byAccount('testnet', [account], 10)).map((e) => e.key)).toEqual([...keys.slice(1)].reverse());
  }, 60_000);
});
