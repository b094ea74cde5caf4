import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V2Handlers } from '@tongate/stubs';
import { request, startServer, v2Ok, type TestServer } from './helpers.js';

// JSON bodies take a fast path for plain UTF-8 JSON with a Content-Length and body-parser otherwise; both must
// give the same results.
const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';
const v2: Partial<V2Handlers> = {
  getAddressInformation: (async ({ query }: { query: { address: { toString(): string } } }) =>
    v2Ok({ address: query.address.toString() })) as never,
};

function send(
  port: number,
  body: Buffer | string,
  headers: Record<string, string | number>,
  chunked = false,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v2/jsonRPC',
        agent: false,
        headers: { host: 'mainnet.localhost', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
    if (chunked) {
      // No Content-Length: written in pieces that split multi-byte characters.
      for (let i = 0; i < bytes.length; i += 7) req.write(bytes.subarray(i, i + 7));
    } else {
      req.write(bytes);
    }
    req.end();
  });
}

describe('JSON request bodies', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ v2, config: { keylessRps: 10_000, keylessBurst: 10_000 } });
  });
  afterAll(() => server.close());

  const call = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'getAddressInformation', params: { address: ADDRESS } });
  // Long and non-ASCII: the echoed id proves the body was decoded whole, across chunk boundaries.
  const id = 'ü€𝄞-'.repeat(20_000);

  it('reads plain JSON, with or without a charset parameter, and a leading byte-order mark', async () => {
    for (const type of ['application/json', 'Application/JSON; charset=UTF-8']) {
      const body = call(id);
      const r = await send(server.port, body, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      expect(r.status).toBe(200);
      expect(r.body.id).toBe(id);
      expect(r.body.result.address).toBe(ADDRESS);
    }
    const withBom = '\ufeff  ' + call(7);
    const r = await send(server.port, withBom, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(withBom) });
    expect(r.body).toMatchObject({ ok: true, id: 7 });
  });

  it('gives the same answers through body-parser for chunked and compressed bodies', async () => {
    const chunked = await send(server.port, call(id), { 'content-type': 'application/json' }, true);
    expect(chunked.status).toBe(200);
    expect(chunked.body.id).toBe(id);
    const gz = gzipSync(call('gz'));
    const compressed = await send(server.port, gz, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'content-length': gz.length,
    });
    expect(compressed.body).toMatchObject({ ok: true, id: 'gz' });
    const latin1 = await send(server.port, call('l1'), { 'content-type': 'application/json; charset=latin1' }, true);
    expect(latin1.status).toBe(415);
  });

  it('refuses non-JSON, non-strict and oversized bodies with the front door errors', async () => {
    for (const [body, chunked] of [
      ['"just a string"', false],
      ['"just a string"', true],
      ['{"jsonrpc": ', false],
    ] as const) {
      const r = await send(
        server.port,
        body,
        { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': Buffer.byteLength(body) }) },
        chunked,
      );
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ ok: false, code: 422, error: expect.stringContaining('malformed JSON body') });
    }
    const empty = await send(server.port, '', { 'content-type': 'application/json', 'content-length': 0 });
    expect(empty.status).toBe(422);
    // An empty body reads as {} (body-parser's rule), so the call lacks its method.
    expect(empty.body.error).toBe('method: must be a string');
    const big = '[' + '0,'.repeat(4.5 * 1024 * 1024) + '0]';
    const tooLarge = await send(server.port, big, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(big) });
    expect(tooLarge.status).toBe(413);
  });

  it('still answers REST operations with bodies and JSON-RPC after the errors above', async () => {
    const r = await request(server.port, { path: '/api/v2/jsonRPC', body: JSON.parse(call(1)) });
    expect(r.body).toMatchObject({ ok: true, id: 1 });
  });
});
