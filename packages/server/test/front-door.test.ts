import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainError } from '@tongate/chain';
import { ApiError, SerializedJson, type V2Handlers } from '@tongate/stubs';
import { loadBundles } from '../src/index.js';
import { request, startServer, v2Ok, type TestServer } from './helpers.js';

const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';
let nextFailure: unknown;
const seen: unknown[] = [];
const v2: Partial<V2Handlers> = {
  getAddressInformation: (async ({ query, ctx }: { query: { address: { toString(): string } }; ctx: { network: string } }) => {
    if (nextFailure) {
      const failure = nextFailure;
      nextFailure = undefined;
      throw failure;
    }
    return v2Ok({ address: query.address.toString(), network: ctx.network });
  }) as never,
  getTransactions: (async ({ query }: { query: { address: object } }) => {
    // Handlers get decoded parameters: the address as an Address, recorded here in its text form.
    seen.push({ ...query, address: query.address.toString() });
    return v2Ok([]);
  }) as never,
  runGetMethod: (async ({ body }: { body: { stack: unknown } }) => {
    // The decoded stack, bigints as decimal text (what reaches the chain source).
    seen.push(JSON.parse(JSON.stringify(body.stack, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))));
    return v2Ok({ gas_used: 0, stack: [], exit_code: 0 });
  }) as never,
};

describe('front door', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ v2, config: { keylessRps: 10_000, keylessBurst: 10_000 } });
  });
  afterAll(() => server.close());
  const get = (path: string, host?: string) => request(server.port, { path, host });

  it('routes by host and rejects unknown hosts with 421', async () => {
    expect((await get(`/api/v2/getAddressInformation?address=${ADDRESS}`, 'testnet.localhost')).body.result.network).toBe('testnet');
    expect((await get(`/api/v2/getAddressInformation?address=${ADDRESS}`, 'MAINNET.localhost:8080')).body.result.network).toBe('mainnet');
    const unknown = await get(`/api/v2/getAddressInformation?address=${ADDRESS}`, 'example.org');
    expect(unknown.status).toBe(421);
    expect(unknown.body).toEqual({ ok: false, error: expect.stringContaining("unknown host 'example.org'"), code: 421 });
    const unknownV3 = await get('/api/v3/masterchainInfo', 'example.org');
    expect(unknownV3.body).toEqual({ error: expect.stringContaining('unknown host') });
  });

  it('answers unknown paths 404, wrong methods 405, malformed JSON 422 in the version body', async () => {
    const v2404 = await get('/api/v2/noSuchMethod');
    expect(v2404.status).toBe(404);
    expect(v2404.body).toMatchObject({ ok: false, code: 404 });
    const v3404 = await get('/api/v3/noSuchThing');
    expect(v3404.status).toBe(404);
    expect(Object.keys(v3404.body)).toEqual(['error']);
    const elsewhere = await get('/nothing/here');
    expect(elsewhere.status).toBe(404);
    const v2405 = await get('/api/v2/sendBoc');
    expect(v2405.status).toBe(405);
    expect(v2405.body).toMatchObject({ ok: false, code: 405 });
    const v3405 = await request(server.port, { path: '/api/v3/masterchainInfo', method: 'DELETE' });
    expect(v3405.status).toBe(405);
    expect(Object.keys(v3405.body)).toEqual(['error']);
    const malformed = await request(server.port, { path: '/api/v2/sendBoc', rawBody: '{"boc": ' });
    expect(malformed.status).toBe(422);
    expect(malformed.body).toMatchObject({ ok: false, code: 422, error: expect.stringContaining('malformed JSON') });
    const malformedRpc = await request(server.port, { path: '/api/v2/jsonRPC', rawBody: '[{' });
    expect(malformedRpc.status).toBe(422);
  });

  it('names the parameter in validation errors', async () => {
    const missing = await get('/api/v2/getAddressInformation');
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ ok: false, error: 'missing required parameter: address', code: 422 });
    const unknown = await get(`/api/v2/getAddressInformation?address=${ADDRESS}&colour=red`);
    expect(unknown.body).toEqual({ ok: false, error: 'unknown query parameter: colour', code: 422 });
    const badAddress = await get('/api/v2/getAddressInformation?address=not-an-address');
    expect(badAddress.status).toBe(422);
    // Said in words, not by quoting the spec's pattern.
    expect(badAddress.body.error).toBe('address: not a valid TON address (raw 0:<64 hex> or 48-character user-friendly)');
    const v3 = await get('/api/v3/transactions?limit=0');
    expect(v3.status).toBe(422);
    expect(v3.body.error).toMatch(/limit/);
    // A NUL character in any value, repeated parameters included, is refused before anything reads it.
    const nul = await get('/api/v3/dns/records?domain=a%00b');
    expect(nul.status).toBe(422);
    expect(nul.body).toEqual({ error: 'domain: must not contain the NUL character (U+0000)' });
    const nulInList = await get(`/api/v2/getTransactions?address=${ADDRESS}&address=%00`);
    expect(nulInList.status).toBe(422);
    expect(nulInList.body.error).toBe('address: must not contain the NUL character (U+0000)');
    // api_key is always allowed and never reaches the handler.
    await get(`/api/v2/getTransactions?address=${ADDRESS}&limit=5&api_key=`);
    const ok = await get(`/api/v2/getTransactions?address=${ADDRESS}&limit=5`);
    expect(ok.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ address: ADDRESS, limit: 5 });
    expect(seen.at(-1)).not.toHaveProperty('api_key');
  });

  it('answers ApiErrors with their status; anything else, a ChainError included, is an unexpected 500', async () => {
    // Handlers map chain failures to ApiErrors themselves (@tongate/domain chain-errors.ts).
    for (const [status, text] of [
      [404, 'no such block'],
      [504, 'Liteserver timeout'],
      [503, 'no chain backend available'],
    ] as const) {
      nextFailure = new ApiError(status, text);
      const r = await get(`/api/v2/getAddressInformation?address=${ADDRESS}`);
      expect(r.status).toBe(status);
      expect(r.body).toEqual({ ok: false, error: text, code: status });
    }
    nextFailure = new ChainError('not_found', 'unmapped');
    expect((await get(`/api/v2/getAddressInformation?address=${ADDRESS}`)).status).toBe(500);
    nextFailure = new ApiError(409, 'not a token');
    expect((await get(`/api/v2/getAddressInformation?address=${ADDRESS}`)).body).toEqual({ ok: false, error: 'not a token', code: 409 });
    nextFailure = new TypeError('secret internals at line 42');
    const r = await request(server.port, {
      path: `/api/v2/getAddressInformation?address=${ADDRESS}`,
      headers: { 'x-request-id': 'req-abc-1' },
    });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ ok: false, error: 'internal error (request req-abc-1)', code: 500 });
    expect(r.text).not.toContain('secret internals');
    const logged = server.logs.find((l) => l.includes('req-abc-1') && l.includes('"level":50'));
    expect(logged).toContain('secret internals');
    expect(logged).toContain('"stack"');
  });

  it('answers 501 for operations without a handler once validation passes', async () => {
    const r = await get('/api/v2/getMasterchainInfo');
    expect(r.status).toBe(501);
    expect(r.body).toEqual({ ok: false, error: 'not implemented yet: getMasterchainInfo', code: 501 });
    const v3 = await get('/api/v3/masterchainInfo');
    expect(v3.status).toBe(501);
    expect(v3.body.error).toMatch(/^not implemented yet: /);
  });

  it('sets X-API-Version and X-Request-Id on every reply', async () => {
    const v3Version = loadBundles().v3.info.version;
    for (const [path, version] of [
      ['/api/v2/getMasterchainInfo', '2.2.0'],
      ['/api/v2/nothing', '2.2.0'],
      ['/api/v3/masterchainInfo', v3Version],
      ['/api/v3/nothing', v3Version],
      ['/healthcheck', '2.2.0'],
    ] as const) {
      const r = await get(path);
      expect(r.headers['x-api-version'], path).toBe(version);
      expect(r.headers['x-request-id']).toBeTruthy();
    }
  });

  it('serves healthcheck, Prometheus metrics and offline docs', async () => {
    expect((await get('/healthcheck')).body).toEqual({ ok: true, status: 'ok' });
    const metrics = await get('/metrics');
    expect(metrics.headers['content-type']).toMatch(/text\/plain/);
    expect(metrics.text).toMatch(/tongate_requests_total\{operation="getAddressInformation",status="200",network="mainnet"\} \d+/);
    expect(metrics.text).toContain('tongate_request_duration_seconds_bucket');
    // The exposition is exact: a fresh operation seen three times counts 3, and its histogram holds 3 observations
    // in cumulative buckets ending at +Inf, with a positive sum.
    for (let i = 0; i < 3; i++) expect((await get(`/api/v2/detectAddress?address=${ADDRESS}`)).status).toBe(501);
    const after = (await get('/metrics')).text;
    expect(after).toContain('# TYPE tongate_requests_total counter');
    expect(after).toContain('# TYPE tongate_request_duration_seconds histogram');
    expect(after).toMatch(/^tongate_requests_total\{operation="detectAddress",status="501",network="mainnet"\} 3$/m);
    const buckets = [
      ...after.matchAll(/^tongate_request_duration_seconds_bucket\{operation="detectAddress",network="mainnet",le="([^"]+)"\} (\d+)$/gm),
    ];
    expect(buckets.length).toBe(14);
    expect(buckets.at(-1)![1]).toBe('+Inf');
    expect(Number(buckets.at(-1)![2])).toBe(3);
    const counts = buckets.map((b) => Number(b[2]));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(after).toMatch(/^tongate_request_duration_seconds_count\{operation="detectAddress",network="mainnet"\} 3$/m);
    expect(
      Number(/^tongate_request_duration_seconds_sum\{operation="detectAddress",network="mainnet"\} (\S+)$/m.exec(after)![1]),
    ).toBeGreaterThan(0);
    for (const version of ['v2', 'v3']) {
      const page = await get(`/api/${version}/`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('/docs-assets/swagger-ui-bundle.js');
      expect(page.text).not.toMatch(/https?:\/\/(?!mainnet|testnet)/);
      expect((await get(`/api/${version}/openapi.json`)).body.openapi).toMatch(/^3\./);
    }
    const asset = await get('/docs-assets/swagger-ui-bundle.js');
    expect(asset.status).toBe(200);
    expect(asset.text.length).toBeGreaterThan(100_000);
  });
});

describe('JSON-RPC', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ v2, config: { keylessRps: 10_000, keylessBurst: 10_000 } });
  });
  afterAll(() => server.close());
  const rpc = (body: unknown) => request(server.port, { path: '/api/v2/jsonRPC', body });

  it('wraps the envelope with jsonrpc and the id, unchanged in type', async () => {
    for (const id of [1, 'one', 0]) {
      const r = await rpc({ jsonrpc: '2.0', id, method: 'getAddressInformation', params: { address: ADDRESS } });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, result: { address: ADDRESS, network: 'mainnet' }, '@extra': '0:test:0', jsonrpc: '2.0', id });
      expect(r.body).not.toHaveProperty('error');
    }
  });

  it('validates params like REST: coercion, defaults, names', async () => {
    const r = await rpc({ jsonrpc: '2.0', id: 3, method: 'getTransactions', params: { address: ADDRESS, limit: '5', api_key: 'x' } });
    expect(r.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ address: ADDRESS, limit: 5 });
    expect(seen.at(-1)).not.toHaveProperty('api_key');
    await rpc({ jsonrpc: '2.0', id: 4, method: 'getTransactions', params: { address: ADDRESS } });
    expect(seen.at(-1)).toMatchObject({ limit: 10 });
    const missing = await rpc({ jsonrpc: '2.0', id: 5, method: 'getAddressInformation', params: {} });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ ok: false, error: 'missing required parameter: address', code: 422, jsonrpc: '2.0', id: 5 });
    const extra = await rpc({ jsonrpc: '2.0', id: 6, method: 'getAddressInformation', params: { address: ADDRESS, colour: 1 } });
    expect(extra.body.error).toBe('unknown parameter: colour');
    const badType = await rpc({ jsonrpc: '2.0', id: 7, method: 'getTransactions', params: { address: ADDRESS, limit: 'many' } });
    expect(badType.status).toBe(422);
    expect(badType.body.error).toMatch(/^limit: /);
  });

  it('passes get-method integers beyond 2^53 through unchanged (decimal, hex, negative; JSON-RPC and REST)', async () => {
    const big = '115792089237316195423570985008687907853269984665640564039457584007913129639935';
    const stack = [
      ['num', big],
      ['num', '0x' + 'f'.repeat(63)],
      ['num', '-' + big.slice(0, 40)],
      ['num', 5],
    ];
    // What reaches the handler: every literal as the client wrote it (a JSON integer may arrive as its text).
    const expected = [big, '0x' + 'f'.repeat(63), '-' + big.slice(0, 40)];
    const viaRpc = await rpc({ jsonrpc: '2.0', id: 11, method: 'runGetMethod', params: { address: ADDRESS, method: 'dnsresolve', stack } });
    expect(viaRpc.status).toBe(200);
    const rpcSeen = JSON.stringify(seen.at(-1));
    const viaRest = await request(server.port, { path: '/api/v2/runGetMethod', body: { address: ADDRESS, method: 'dnsresolve', stack } });
    expect(viaRest.status).toBe(200);
    const restSeen = JSON.stringify(seen.at(-1));
    for (const value of expected) {
      expect(rpcSeen).toContain(`"${value}"`);
      expect(restSeen).toContain(`"${value}"`);
    }
    for (const seenStack of [rpcSeen, restSeen])
      expect(JSON.parse(seenStack)[3]).toEqual(['num', expect.toSatisfy((v) => String(v) === '5')]);
    expect(rpcSeen + restSeen).not.toMatch(/e\+/);
  });

  it('answers unknown methods, errors and 501s with the envelope code as HTTP status', async () => {
    const unknown = await rpc({ jsonrpc: '2.0', id: 'x', method: 'toString', params: {} });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ ok: false, error: 'Unknown method: toString', code: 422, jsonrpc: '2.0', id: 'x' });
    nextFailure = new ApiError(504, 'Liteserver timeout');
    const timeout = await rpc({ jsonrpc: '2.0', id: 9, method: 'getAddressInformation', params: { address: ADDRESS } });
    expect(timeout.status).toBe(504);
    expect(timeout.body).toEqual({ ok: false, error: 'Liteserver timeout', code: 504, jsonrpc: '2.0', id: 9 });
    const missingHandler = await rpc({ jsonrpc: '2.0', id: 10, method: 'getMasterchainInfo', params: {} });
    expect(missingHandler.status).toBe(501);
    expect(missingHandler.body.error).toBe('not implemented yet: getMasterchainInfo');
  });

  it('answers a batch with an array of replies', async () => {
    const r = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'getAddressInformation', params: { address: ADDRESS } },
      { jsonrpc: '2.0', id: 'b', method: 'nope', params: {} },
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(2);
    expect(r.body[0]).toMatchObject({ ok: true, id: 1, jsonrpc: '2.0' });
    expect(r.body[1]).toEqual({ ok: false, error: 'Unknown method: nope', code: 422, jsonrpc: '2.0', id: 'b' });
  });
});

describe('response validation', () => {
  it('turns an off-spec handler reply into a 500 when enabled', async () => {
    const server = await startServer({
      v2: { getAddressInformation: (async () => ({ status: 200, body: { ok: true, result: 'not an object' } })) as never },
      config: { keylessRps: 100, keylessBurst: 100, validateResponses: true },
    });
    try {
      const r = await request(server.port, { path: `/api/v2/getAddressInformation?address=${ADDRESS}` });
      expect(r.status).toBe(500);
      expect(r.body).toMatchObject({ ok: false, code: 500 });
    } finally {
      await server.close();
    }
  });
});

describe('replies already serialized (SerializedJson)', () => {
  const text = '{"transactions":[],"address_book":{"0:AB":{"user_friendly":null,"domain":null,"interfaces":[]}}}';
  const v3 = { getTransactions: (async () => ({ status: 200, body: SerializedJson.as(text) })) as never };

  it('are written as they are, byte for byte, with the JSON content type', async () => {
    const server = await startServer({ v3, config: { keylessRps: 100, keylessBurst: 100, validateResponses: false } });
    try {
      const r = await request(server.port, { path: '/api/v3/transactions?limit=1' });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.text).toBe(text);
    } finally {
      await server.close();
    }
  });

  it('are parsed for the response validator when it is on: a valid one passes, an off-spec one is a 500', async () => {
    const bad = { getTransactions: (async () => ({ status: 200, body: SerializedJson.as('{"transactions":"nope"}') })) as never };
    for (const [handlers, status] of [
      [v3, 200],
      [bad, 500],
    ] as const) {
      const server = await startServer({ v3: handlers, config: { keylessRps: 100, keylessBurst: 100, validateResponses: true } });
      try {
        const r = await request(server.port, { path: '/api/v3/transactions?limit=1' });
        expect(r.status).toBe(status);
        if (status === 200) expect(r.body).toEqual(JSON.parse(text));
      } finally {
        await server.close();
      }
    }
  });
});
