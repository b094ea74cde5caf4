/**
 * Many processes, one stream: two API servers on PostgreSQL and Redis, the first indexing, the second serving only
 * (TONGATE_INDEXER=external). Their hubs share nothing but the Redis channel, and subscribers on either get the
 * same finalized events for a transfer; the other network's channel stays silent. Stream limits hold across both
 * (counted in Redis). Skipped without DATABASE_URL and REDIS_URL, except under CI, which sets both.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Address, internal, WalletContractV4 } from '@ton/ton';
import { signerFromSeed, walletTransferBoc } from '@tongate/devnet';
import { startTestGateway, type TestGateway } from './gateway-fixture.js';
import { openSse, openWs, sleep } from './stream-clients.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const shared = !!process.env.DATABASE_URL && !!process.env.REDIS_URL;
// CI runs with both (.ci/run): there a missing one is a broken setup, not a reason to skip.
if (!shared && process.env.CI === 'true') throw new Error('DATABASE_URL and REDIS_URL must both be set under CI for this test');
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

describe.skipIf(!shared)('two API processes on PostgreSQL and Redis', () => {
  // One deployment of two processes: a channel and a Redis prefix of this run's own (other runs and test files on the
  // same Redis publish and count on theirs), shared by both processes.
  const channel = `tongate:stream-test:${process.pid}:${Date.now()}`;
  const redisPrefix = `tongate-test:${process.pid}:${Date.now()}`;
  let indexing: TestGateway;
  let serving: TestGateway;
  const keys = { a: '', b: '', bTestnet: '' };

  beforeAll(async () => {
    indexing = await startTestGateway({
      devnetBlockIntervalMs: 0,
      streamChannel: channel,
      redisPrefix,
      keylessRps: 1000,
      keylessBurst: 1000,
    });
    serving = await startTestGateway({
      devnetBlockIntervalMs: 0,
      streamChannel: channel,
      redisPrefix,
      keylessRps: 1000,
      keylessBurst: 1000,
      indexer: 'external',
    });
    keys.a = await indexing.createKey('mainnet');
    keys.b = await serving.createKey('mainnet');
    keys.bTestnet = await serving.createKey('testnet');
  });
  afterAll(async () => {
    await serving?.close();
    await indexing?.close();
  });

  it('subscribers on either process get the same events', async () => {
    const devnet = indexing.gateway.devnets.mainnet!;
    const indexer = indexing.gateway.indexers.mainnet!;
    const receiver = new Address(0, createHash('sha256').update(`redis-stream-${process.pid}-${Date.now()}`).digest());
    const subscription = {
      types: ['transactions', 'actions', 'account_state_change'],
      addresses: [raw(receiver)],
      min_finality: 'pending',
    };
    const onA = openSse(indexing.ports.mainnet, subscription, { 'X-API-Key': keys.a });
    const onB = openWs(serving.ports.mainnet, { 'X-API-Key': keys.b });
    const testnetOnB = openSse(
      serving.ports.testnet,
      { types: ['transactions'], addresses: [raw(receiver), raw(devnet.faucet.address)], min_finality: 'pending' },
      { 'X-API-Key': keys.bTestnet },
    );
    expect(await onA.opened).toHaveProperty('connected');
    expect(await testnetOnB.opened).toHaveProperty('connected');
    await onB.opened;
    onB.send({ operation: 'subscribe', ...subscription });
    await onB.next('ack', (m) => m.status === 'subscribed');

    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    const boc = await walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno, [
      internal({ to: receiver, value: 55_000_000n, bounce: false, body: 'over redis' }),
    ]);
    const sent = await fetch(`http://127.0.0.1:${indexing.ports.mainnet}/api/v2/sendBoc`, {
      method: 'POST',
      headers: { 'X-API-Key': keys.a, 'content-type': 'application/json' },
      body: JSON.stringify({ boc: boc.toString('base64') }),
    });
    expect(sent.status).toBe(200);
    const block = await devnet.settle();
    await indexer.waitFor(block.seqno);

    const finalized = (m: any) => m.type === 'account_state_change' && m.finality === 'finalized';
    await onA.next('finalized on A', finalized);
    await onB.next('finalized on B', finalized);
    await sleep(300);
    const events = (list: any[]) => list.filter((m) => m.type);
    expect(events(onB.messages)).toEqual(events(onA.messages));
    expect(events(onA.messages).map((m) => `${m.type}:${m.finality}`)).toEqual(
      expect.arrayContaining([
        'transactions:pending',
        'actions:pending',
        'transactions:finalized',
        'actions:finalized',
        'account_state_change:finalized',
      ]),
    );
    expect(testnetOnB.messages).toEqual([]);
    for (const c of [onA, onB, testnetOnB]) c.close();
  });

  it("a client's stream limit holds across processes", async () => {
    const sub = { types: ['transactions'], addresses: [`0:${'0'.repeat(63)}2`] };
    const post = (p: number) =>
      fetch(`http://127.0.0.1:${p}/api/streaming/v2/sse`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sub),
      });
    // Keyless: one stream per client address, whichever process holds it.
    const onA = openSse(indexing.ports.mainnet, sub);
    expect(await onA.opened).toHaveProperty('connected');
    const refused = await post(serving.ports.mainnet);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'connection limit reached: 1 active connections' });
    onA.close();
    await sleep(300);
    const onB = openSse(serving.ports.mainnet, sub);
    expect(await onB.opened).toHaveProperty('connected');
    onB.close();
  });
});
