import http from 'node:http';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V2Handlers } from '@tongate/stubs';
import type { Store } from '@tongate/store';
import type { KeyResolver } from '../src/index.js';
import { openTestStore, request, startServer, v2Ok, type TestServer } from './helpers.js';

/** Abuse cases of the front door: each one reproduced over real HTTP, and the bound that holds it checked. */

const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';
const REST = `/api/v2/getAddressInformation?address=${ADDRESS}`;
const rpc = (id: number, params: Record<string, unknown> = { address: ADDRESS }) => ({
  jsonrpc: '2.0',
  id,
  method: 'getAddressInformation',
  params,
});
const v2: Partial<V2Handlers> = {
  getAddressInformation: (async () => v2Ok({ balance: '1' })) as never,
  estimateFee: (async () => v2Ok({})) as never,
};

describe('unknown keys', () => {
  let server: TestServer;
  let lookups = 0;
  const keys: KeyResolver = {
    async resolve() {
      lookups++;
      return { status: 'unknown' };
    },
  };
  beforeAll(async () => {
    server = await startServer({ v2, keys, config: { keyLookupRps: 5 } });
  });
  afterAll(() => server.close());

  it('count against the keyless limit of their address, and store lookups per address are bounded', async () => {
    const replies = [];
    for (let i = 0; i < 20; i++)
      replies.push(await request(server.port, { path: REST, headers: { 'X-API-Key': `tgk_random${i}` }, from: '127.0.0.21' }));
    const statuses = replies.map((r) => r.status);
    // The first unknown key is told so; the rest are over the keyless allowance of 1 request per second.
    expect(statuses[0]).toBe(401);
    expect(statuses.slice(1).every((s) => s === 429)).toBe(true);
    expect(replies[1].body).toEqual({ ok: false, error: 'Ratelimit exceeded', code: 429 });
    expect(lookups).toBeLessThanOrEqual(5);
    // Another address is another client.
    expect((await request(server.port, { path: REST, headers: { 'X-API-Key': 'tgk_other' }, from: '127.0.0.22' })).status).toBe(401);
  });
});

describe('JSON-RPC batches', () => {
  let server: TestServer;
  let store: Store;
  let cleanup: () => Promise<void>;
  const big = 'x'.repeat(1000);
  beforeAll(async () => {
    ({ store, cleanup } = await openTestStore());
    server = await startServer({
      store,
      v2: { ...v2, getAddressBalance: (async () => v2Ok(big)) as never },
      config: { keylessRps: 5, keylessBurst: 5, jsonRpcBatchMax: 20, jsonRpcBatchReplyBytes: 4096 },
    });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it('charge every call: past the allowance, calls answer 429 entries', async () => {
    const batch = Array.from({ length: 10 }, (_, i) => rpc(i));
    const r = await request(server.port, { path: '/api/v2/jsonRPC', body: batch, from: '127.0.0.31' });
    expect(r.status).toBe(200);
    expect(r.body.map((c: { code?: number; ok: boolean }) => (c.ok ? 200 : c.code))).toEqual([
      200, 200, 200, 200, 200, 429, 429, 429, 429, 429,
    ]);
    expect(r.body[5]).toEqual({ ok: false, error: 'Ratelimit exceeded', code: 429, jsonrpc: '2.0', id: 5 });
    // The allowance is spent: the next request is refused whole.
    expect((await request(server.port, { path: REST, from: '127.0.0.31' })).status).toBe(429);
  });

  it('charge keyed calls to the key', async () => {
    const { key } = await store.keys.create({ network: 'mainnet', rps: 3, burst: 3 });
    const r = await request(server.port, {
      path: '/api/v2/jsonRPC',
      body: [rpc(1), rpc(2), rpc(3), rpc(4)],
      headers: { 'X-API-Key': key },
      from: '127.0.0.32',
    });
    expect(r.body.map((c: { ok: boolean; code?: number }) => (c.ok ? 200 : c.code))).toEqual([200, 200, 200, 429]);
  });

  it('are capped in size', async () => {
    const r = await request(server.port, {
      path: '/api/v2/jsonRPC',
      body: Array.from({ length: 21 }, (_, i) => rpc(i)),
      from: '127.0.0.33',
    });
    expect(r.status).toBe(422);
    expect(r.body.error).toBe('a JSON-RPC batch holds at most 20 calls, got 21');
  });

  it('stop growing their reply at the bound: later calls answer 413 entries', async () => {
    const batch = Array.from({ length: 5 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'getAddressBalance',
      params: { address: ADDRESS },
    }));
    const r = await request(server.port, { path: '/api/v2/jsonRPC', body: batch, from: '127.0.0.34' });
    expect(r.status).toBe(200);
    const codes = r.body.map((c: { ok: boolean; code?: number }) => (c.ok ? 200 : c.code));
    expect(codes.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(codes[4]).toBe(413);
    expect(r.text.length).toBeLessThan(4096 + 1200);
  });
});

describe('keys never reach the logs', () => {
  let server: TestServer;
  let store: Store;
  let cleanup: () => Promise<void>;
  let key: string;
  beforeAll(async () => {
    ({ store, cleanup } = await openTestStore());
    key = (await store.keys.create({ network: 'mainnet', rps: 100, burst: 100 })).key;
    server = await startServer({ store, v2 });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it('whichever way the key arrives', async () => {
    const ways = [
      { path: `${REST}&api_key=${key}` },
      { path: `${REST}&api%5Fkey=${key}` },
      { path: `${REST}&api%5fkey=${key}` },
      { path: `${REST}&%61pi_key=${key}` },
      { path: `${REST}&API_KEY=${key}` },
      { path: `${REST}&api_key[]=${key}` },
      { path: `${REST}&api_key%5B0%5D=${key}` },
      { path: REST, headers: { 'X-API-Key': key } },
      { path: `/api/v2/jsonRPC?api_key=${key}`, body: rpc(1) },
      { path: '/api/v2/jsonRPC', body: rpc(2, { address: ADDRESS, api_key: key }) },
    ];
    for (const way of ways) {
      const r = await request(server.port, { ...way, from: '127.0.0.41' });
      expect(r.status, way.path).toBeLessThan(500);
    }
    // api%5Fkey authenticates like api_key (a keyless client would be limited after the first request).
    expect((await request(server.port, { path: `${REST}&api%5Fkey=${key}`, from: '127.0.0.41' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const logs = server.logs.join('');
    expect(logs).toContain('[REDACTED]');
    expect(logs).not.toContain(key);
  });
});

describe('HTTP edges', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      v2,
      config: {
        keylessRps: 1000,
        keylessBurst: 1000,
        headersTimeoutMs: 400,
        requestTimeoutMs: 800,
        connectionsCheckIntervalMs: 100,
        maxConnectionsPerClient: 3,
      },
    });
  });
  afterAll(() => server.close());

  it('answers a wrong method on /jsonRPC with 405 and Allow, as the REST operations do', async () => {
    const r = await request(server.port, { path: '/api/v2/jsonRPC', method: 'GET' });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('POST');
    expect(r.body).toEqual({ ok: false, error: 'method GET not allowed on /api/v2/jsonRPC: use POST', code: 405 });
  });

  it('answers a body that does not match its Content-Encoding with 400, on REST and JSON-RPC', async () => {
    for (const path of ['/api/v2/estimateFee', '/api/v2/jsonRPC']) {
      const r = await request(server.port, { path, rawBody: 'not gzip at all', headers: { 'content-encoding': 'gzip' } });
      expect(r.status, path).toBe(400);
      expect(r.body.error, path).toMatch(/does not decode with its Content-Encoding/);
    }
    // A real gzip body still works.
    const body = gzipSync(JSON.stringify(rpc(1)));
    const ok = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/api/v2/jsonRPC',
          headers: { host: 'mainnet.localhost', 'content-type': 'application/json', 'content-encoding': 'gzip' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(ok).toBe(200);
  });

  it('closes a socket that sends nothing, and one that never finishes its headers', async () => {
    const lifetime = (send?: string) =>
      new Promise<number>((resolve) => {
        const started = Date.now();
        const socket = net.connect(server.port, '127.0.0.1', () => send && socket.write(send));
        socket.on('error', () => {});
        // Read what the server says (a 408), or 'close' never comes.
        socket.resume();
        socket.on('close', () => resolve(Date.now() - started));
      });
    const [silent, slow] = await Promise.all([lifetime(), lifetime('GET /healthcheck HTTP/1.1\r\nHost: x\r\n')]);
    expect(silent).toBeLessThan(3000);
    expect(slow).toBeLessThan(3000);
  });

  it('caps the connections of one client address', async () => {
    const sockets: net.Socket[] = [];
    const closed: number[] = [];
    await Promise.all(
      Array.from(
        { length: 5 },
        (_, i) =>
          new Promise<void>((resolve) => {
            const s = net.connect({ port: server.port, host: '127.0.0.1', localAddress: '127.0.0.51' }, () => resolve());
            s.on('error', () => {});
            s.on('close', () => closed.push(i));
            sockets.push(s);
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 150));
    expect(closed).toHaveLength(2);
    // Another client still gets in.
    expect((await request(server.port, { path: '/healthcheck', from: '127.0.0.52' })).status).toBe(200);
    for (const s of sockets) s.destroy();
  });
});
