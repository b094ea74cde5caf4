/**
 * CORS at the front door, over HTTP: preflights for every API path need no key and cost nothing against the keyless
 * limit; every reply (errors and 429s too) names the allowed origin and exposes the headers pages read; a configured
 * origin list answers only its origins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V2Handlers, V3Handlers } from '@tongate/stubs';
import { loadConfig } from '../src/index.js';
import { request, startServer, v2Ok, type TestServer } from './helpers.js';

const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';
const v2: Partial<V2Handlers> = { getAddressInformation: (async () => v2Ok({ balance: '1' })) as never };
const v3: Partial<V3Handlers> = { getMasterchainInfo: (async () => ({ status: 200, body: { first: null, last: null } })) as never };
const PAGE = 'http://page.example:3000';
const preflight = (port: number, path: string, origin = PAGE, method = 'POST') =>
  request(port, {
    method: 'OPTIONS',
    path,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'content-type,x-api-key,x-ton-client-version',
    },
  });

describe('CORS, any origin (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // One keyless request per second: a charged preflight would show as a 429 right after.
    server = await startServer({ v2, v3, config: { keylessRps: 1, keylessBurst: 1 } });
  });
  afterAll(() => server.close());

  it('answers preflights of every API path with 204, the methods, the client headers and a max-age, charging nothing', async () => {
    for (const path of [
      '/api/v2/jsonRPC',
      '/api/v2/getAddressInformation',
      '/api/v3/transactions',
      '/api/v3/message',
      '/api/v3/no/such/path',
    ]) {
      for (let i = 0; i < 3; i++) {
        const r = await preflight(server.port, path);
        expect(r.status, path).toBe(204);
        expect(r.headers['access-control-allow-origin']).toBe('*');
        expect(r.headers['access-control-allow-methods']).toMatch(/GET/);
        expect(r.headers['access-control-allow-methods']).toMatch(/POST/);
        const allowed = String(r.headers['access-control-allow-headers']).toLowerCase();
        for (const h of ['x-api-key', 'x-ton-client-version', 'content-type', 'x-timeout', 'x-no-address-book', 'x-no-metadata'])
          expect(allowed).toContain(h);
        expect(Number(r.headers['access-control-max-age'])).toBeGreaterThan(0);
      }
    }
    // Fifteen preflights later the keyless client still has its one request.
    const ok = await request(server.port, { path: `/api/v2/getAddressInformation?address=${ADDRESS}`, headers: { origin: PAGE } });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    for (const h of ['X-API-Version', 'Retry-After', 'X-Request-Id'])
      expect(String(ok.headers['access-control-expose-headers'])).toContain(h);
  });

  it('puts the origin and the exposed headers on errors and 429s', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const replies = [
      await request(server.port, { path: '/api/v3/masterchainInfo?bogus=1', headers: { origin: PAGE } }),
      await request(server.port, { path: '/api/v3/masterchainInfo', headers: { origin: PAGE } }),
      // Another client address: an unknown key counts against the keyless limit too.
      await request(server.port, {
        path: '/api/v2/getAddressInformation',
        from: '127.0.0.2',
        headers: { origin: PAGE, 'x-api-key': 'unknown-key' },
      }),
      await request(server.port, { path: '/api/v3/masterchainInfo', host: 'example.org', headers: { origin: PAGE } }),
    ];
    expect(replies.map((r) => r.status)).toEqual([422, 429, 401, 421]);
    for (const r of replies) {
      expect(r.headers['access-control-allow-origin']).toBe('*');
      for (const h of ['X-API-Version', 'Retry-After', 'X-Request-Id'])
        expect(String(r.headers['access-control-expose-headers'])).toContain(h);
    }
    expect(replies[1]!.headers['retry-after']).toBeDefined();
  });
});

describe('CORS, an origin list', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ v2, v3, config: { keylessRps: 1000, keylessBurst: 1000, corsOrigins: [PAGE, 'https://other.example'] } });
  });
  afterAll(() => server.close());

  it('names a listed origin (with Vary: Origin) and leaves others without the header', async () => {
    const listed = await preflight(server.port, '/api/v3/masterchainInfo', PAGE, 'GET');
    expect(listed.status).toBe(204);
    expect(listed.headers['access-control-allow-origin']).toBe(PAGE);
    expect(listed.headers.vary).toMatch(/Origin/);
    const get = await request(server.port, { path: '/api/v3/masterchainInfo', headers: { origin: 'https://OTHER.example' } });
    expect(get.headers['access-control-allow-origin']).toBe('https://OTHER.example');
    const stranger = await preflight(server.port, '/api/v3/masterchainInfo', 'https://evil.example', 'GET');
    expect(stranger.status).toBe(204);
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    expect(stranger.headers['access-control-allow-headers']).toBeUndefined();
    const strangerGet = await request(server.port, { path: '/api/v3/masterchainInfo', headers: { origin: 'https://evil.example' } });
    expect(strangerGet.status).toBe(200);
    expect(strangerGet.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('reads the list from the environment and the config file, and refuses what is not an origin', () => {
    expect(loadConfig({}).corsOrigins).toEqual(['*']);
    expect(loadConfig({ TONGATE_CORS_ORIGINS: 'https://a.example, http://localhost:3000' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:3000',
    ]);
    expect(() => loadConfig({ TONGATE_CORS_ORIGINS: 'https://a.example/path' })).toThrow(
      /TONGATE_CORS_ORIGINS: 'https:\/\/a.example\/path' is not \* or an origin/,
    );
  });
});
