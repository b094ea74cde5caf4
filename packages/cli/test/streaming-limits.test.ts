/**
 * Streaming API limits and back-pressure over real connections: concurrent streams and subscribed addresses per key
 * and without one, the reconnect rate, each answered with the hosted error; and a subscriber that never reads is
 * dropped with a close reason once its unsent bytes pass the bound, while a reading subscriber keeps getting every
 * block promptly.
 */
import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { Address, internal, WalletContractV4 } from '@ton/ton';
import { signerFromSeed, walletTransferBoc } from '@tongate/devnet';
import { useKeyedGateway } from './gateway-fixture.js';
import { openSse, openWs, sleep } from './stream-clients.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const MAX_BUFFER = 256 * 1024;
const suite = useKeyedGateway({
  devnetBlockIntervalMs: 0,
  keylessRps: 1_000,
  keylessBurst: 1_000,
  // The suite creates many keys, and each creation empties the key caches, so every key is looked up again: the
  // lookup allowance per client address (tested with the front door) must not be what refuses a stream here.
  keyLookupRps: 1_000,
  streamKeyConnections: 2,
  streamKeyAddresses: 5,
  streamKeylessConnections: 1,
  streamKeylessAddresses: 2,
  streamConnectsPerMinute: 10,
  streamMaxBufferBytes: MAX_BUFFER,
});

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const addresses = (n: number) => Array.from({ length: n }, (_, i) => `0:${(i + 1).toString(16).padStart(64, '0')}`);
const port = () => suite.service.ports.mainnet;

async function post(body: unknown, headers: Record<string, string>) {
  const res = await fetch(`http://127.0.0.1:${port()}/api/streaming/v2/sse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text };
}

describe('Streaming API limits', () => {
  it('a key holds its configured number of streams; past it SSE answers 429 and a WebSocket gets the error and a close', async () => {
    const key = { 'X-API-Key': await suite.service.createKey('mainnet') };
    const sub = { types: ['transactions'], addresses: addresses(1) };
    const a = openSse(port(), sub, key);
    const b = openWs(port(), key);
    expect(await a.opened).toHaveProperty('connected');
    await b.opened;
    expect(await post(sub, key)).toEqual({ status: 429, body: { error: 'connection limit reached: 2 active connections' } });
    const c = openWs(port(), key);
    expect(await c.next('limit error', (m) => !!m.error)).toEqual({ error: 'connection limit reached: 2 active connections' });
    expect((await c.closed).code).toBe(1008);
    // A closed stream gives its slot back.
    a.close();
    await sleep(200);
    const d = openSse(port(), sub, key);
    expect(await d.opened).toHaveProperty('connected');
    d.close();
    b.close();
  });

  it('subscribed addresses per stream are bounded per key and without one', async () => {
    const key = { 'X-API-Key': await suite.service.createKey('mainnet') };
    expect(await post({ types: ['transactions'], addresses: addresses(6) }, key)).toEqual({
      status: 400,
      body: { error: 'too many addresses: 6 > max 5' },
    });
    const ws = openWs(port(), key);
    await ws.opened;
    ws.send({ id: 'x', operation: 'subscribe', types: ['transactions'], addresses: addresses(6) });
    expect(await ws.next('address limit', (m) => m.id === 'x')).toEqual({
      id: 'x',
      error: 'address limit exceeded: current 0 + new 6 > max 5',
    });
    ws.send({ id: 'y', operation: 'subscribe', types: ['transactions'], addresses: addresses(5) });
    expect(await ws.next('within the limit', (m) => m.id === 'y')).toEqual({ id: 'y', status: 'subscribed' });
    ws.close();
    expect(await post({ types: ['transactions'], addresses: addresses(3) }, {})).toEqual({
      status: 400,
      body: { error: 'too many addresses: 3 > max 2' },
    });
  });

  it("a key's own streaming plan replaces the deployment's key limits, for that key only", async () => {
    const sub = { types: ['transactions'], addresses: addresses(1) };
    // One stream, up to 8 addresses (the deployment allows keys 2 and 5).
    const small = { 'X-API-Key': await suite.service.createKey('mainnet', 10_000, { streamConnections: 1, streamAddresses: 8 }) };
    const first = openSse(port(), { types: ['transactions'], addresses: addresses(8) }, small);
    expect(await first.opened).toHaveProperty('connected');
    expect(await post(sub, small)).toEqual({ status: 429, body: { error: 'connection limit reached: 1 active connections' } });
    expect(await post({ types: ['transactions'], addresses: addresses(9) }, small)).toEqual({
      status: 400,
      body: { error: 'too many addresses: 9 > max 8' },
    });
    first.close();
    // No streaming at all.
    const none = { 'X-API-Key': await suite.service.createKey('mainnet', 10_000, { streamConnections: 0 }) };
    expect(await post(sub, none)).toEqual({ status: 429, body: { error: 'connection limit reached: 0 active connections' } });
    // No limit: three streams where the deployment allows two.
    const wide = { 'X-API-Key': await suite.service.createKey('mainnet', 10_000, { streamConnections: -1 }) };
    const open = [openSse(port(), sub, wide), openSse(port(), sub, wide), openWs(port(), wide)];
    for (const s of open) await s.opened;
    expect(await open[0]!.opened).toHaveProperty('connected');
    expect(await open[1]!.opened).toHaveProperty('connected');
    const ws = open[2] as ReturnType<typeof openWs>;
    ws.send({ id: 'third', operation: 'subscribe', ...sub });
    expect(await ws.next('third stream subscribed', (m) => m.id === 'third')).toEqual({ id: 'third', status: 'subscribed' });
    // A key without a plan keeps the deployment's limits.
    const plain = { 'X-API-Key': await suite.service.createKey('mainnet') };
    expect(await post({ types: ['transactions'], addresses: addresses(6) }, plain)).toEqual({
      status: 400,
      body: { error: 'too many addresses: 6 > max 5' },
    });
    for (const s of open) s.close();
  });

  it('a keyless client holds one stream per address', async () => {
    const first = openSse(port(), { types: ['transactions'], addresses: addresses(2) });
    expect(await first.opened).toHaveProperty('connected');
    expect(await post({ types: ['transactions'], addresses: addresses(1) }, {})).toEqual({
      status: 429,
      body: { error: 'connection limit reached: 1 active connections' },
    });
    first.close();
  });

  it('a key that reconnects too often is refused for the rest of the minute', async () => {
    const key = { 'X-API-Key': await suite.service.createKey('mainnet') };
    for (let i = 0; i < 10; i++) {
      const s = openSse(port(), { types: ['transactions'], addresses: addresses(1) }, key);
      expect(await s.opened).toHaveProperty('connected');
      s.close();
      await sleep(20);
    }
    expect(await post({ types: ['transactions'], addresses: addresses(1) }, key)).toEqual({
      status: 429,
      body: { error: 'reconnect rate exceeded: more than 10 connections per minute' },
    });
  });

  it('a subscriber that never reads is dropped with a close reason; a reading one keeps its latency', async () => {
    const devnet = suite.service.gateway.devnets.mainnet!;
    const indexer = suite.service.gateway.indexers.mainnet!;
    const faucet = raw(devnet.faucet.address);
    const stuck = openWs(port(), { 'X-API-Key': suite.keys.mainnet });
    await stuck.opened;
    stuck.send({ operation: 'subscribe', types: ['transactions'], addresses: [faucet], min_finality: 'pending' });
    await stuck.next('ack', (m) => m.status === 'subscribed');
    // From here on it reads nothing: its socket is paused, the kernel buffers fill, then the server's.
    (stuck.ws as unknown as { _socket: Socket })._socket.pause();
    const reader = openWs(port(), { 'X-API-Key': await suite.service.createKey('mainnet') });
    await reader.opened;
    reader.send({ operation: 'subscribe', types: ['transactions'], addresses: [faucet] });
    await reader.next('ack', (m) => m.status === 'subscribed');

    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const signer = signerFromSeed(devnet.faucet.secretKey);
    const dropped = () => suite.service.gateway.streaming.endpoints.dropped;
    const latencies: number[] = [];
    // Transfers with long comments: each event carries four bodies of a few kilobytes.
    for (let round = 0; round < 60 && dropped() === 0; round++) {
      const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
      const to = (i: number) => new Address(0, createHash('sha256').update(`slow-${round}-${i}-${process.pid}`).digest());
      const messages = [0, 1, 2, 3].map((i) =>
        internal({ to: to(i), value: 1_000_000n, bounce: false, body: `${round}/${i} ${'streaming back-pressure '.repeat(400)}` }),
      );
      await devnet.sendMessage(await walletTransferBoc(wallet, signer, seqno, messages));
      const block = await devnet.produceBlock();
      await indexer.waitFor(block.seqno);
      const committed = performance.now();
      await reader.next(
        `block ${block.seqno}`,
        (m) => m.type === 'transactions' && m.transactions.some((t: any) => t.mc_block_seqno === block.seqno),
      );
      latencies.push(performance.now() - committed);
    }
    expect(dropped()).toBe(1);
    // The stuck one is gone on the server (its slot and subscription freed) ...
    expect(suite.service.gateway.streaming.hub.subscriberCount('mainnet')).toBe(1);
    // ... and, reading again, finds the reason in its close frame.
    (stuck.ws as unknown as { _socket: Socket })._socket.resume();
    const closed = await stuck.closed;
    expect(closed).toEqual({ code: 4008, reason: `subscriber too slow: more than ${MAX_BUFFER} bytes unsent` });
    // A reader held up behind the stuck one would wait for the drop; its typical event comes within a block's time.
    // (The worst case is a machine's, measured by bench:streaming, not bounded here.)
    latencies.sort((a, b) => a - b);
    expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(1_000);
    reader.close();
  });
});
