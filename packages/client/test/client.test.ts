// @tongate/client without a server: a recording fetch checks what goes on the wire and how replies map.
import { describe, expect, it } from 'vitest';
import { createTonGateClient, TonGateApiError } from '../src/index.js';

const ADDRESS = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';

interface Recorded {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
}

function fakeFetch(reply: (request: Recorded) => { status: number; body: unknown }) {
  const calls: Recorded[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const text = await request.text();
    const recorded = { method: request.method, url: request.url, headers: request.headers, body: text ? JSON.parse(text) : undefined };
    calls.push(recorded);
    const { status, body } = reply(recorded);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { calls, fetchImpl };
}

const balanceEnvelope = { ok: true, result: '123456789', '@extra': '1795312345:0:1.5' };

describe('createTonGateClient', () => {
  it('adds /api/v2 to the host root, sends the key as X-API-Key and returns the envelope result', async () => {
    const { calls, fetchImpl } = fakeFetch(() => ({ status: 200, body: balanceEnvelope }));
    const ton = createTonGateClient({ baseUrl: 'http://127.0.0.1:8080/', apiKey: 'k1', fetch: fetchImpl });
    const balance: string = await ton.v2.getAddressBalance({ address: ADDRESS });
    expect(balance).toBe('123456789');
    expect(calls).toHaveLength(1);
    expect(calls[0].method).toBe('GET');
    expect(calls[0].url).toBe(`http://127.0.0.1:8080/api/v2/getAddressBalance?address=${ADDRESS}`);
    expect(calls[0].headers.get('x-api-key')).toBe('k1');
  });

  it('defaults to the toncenter host of the network', async () => {
    const { calls, fetchImpl } = fakeFetch(() => ({ status: 200, body: balanceEnvelope }));
    await createTonGateClient({ network: 'testnet', fetch: fetchImpl }).v2.getAddressBalance({ address: ADDRESS });
    await createTonGateClient({ fetch: fetchImpl }).v2.getAddressBalance({ address: ADDRESS });
    expect(calls.map((c) => new URL(c.url).origin)).toEqual(['https://testnet.toncenter.com', 'https://toncenter.com']);
    expect(calls[0].headers.get('x-api-key')).toBeNull();
  });

  it('jsonRpc posts a JSON-RPC 2.0 request with increasing ids and returns the result', async () => {
    const { calls, fetchImpl } = fakeFetch((req) => ({
      status: 200,
      body: { ...balanceEnvelope, jsonrpc: '2.0', id: (req.body as { id: number }).id },
    }));
    const ton = createTonGateClient({ baseUrl: 'http://h', fetch: fetchImpl });
    expect(await ton.v2.jsonRpc('getAddressBalance', { address: ADDRESS })).toBe('123456789');
    await ton.v2.jsonRpc('getAddressBalance', { address: ADDRESS });
    expect(calls[0].url).toBe('http://h/api/v2/jsonRPC');
    expect(calls[0].method).toBe('POST');
    expect(calls.map((c) => c.body)).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'getAddressBalance', params: { address: ADDRESS } },
      { jsonrpc: '2.0', id: 2, method: 'getAddressBalance', params: { address: ADDRESS } },
    ]);
  });

  it('throws TonGateApiError with the v2 error text and status', async () => {
    const { fetchImpl } = fakeFetch(() => ({ status: 422, body: { ok: false, error: 'Invalid address: bad checksum', code: 422 } }));
    const ton = createTonGateClient({ baseUrl: 'http://h', fetch: fetchImpl });
    const error = await ton.v2.getAddressBalance({ address: ADDRESS }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TonGateApiError);
    expect(error).toMatchObject({ status: 422, text: 'Invalid address: bad checksum' });
  });

  it('throws TonGateApiError with the v3 error text and status, under /api/v3', async () => {
    const { calls, fetchImpl } = fakeFetch(() => ({ status: 429, body: { error: 'Ratelimit exceeded' } }));
    const ton = createTonGateClient({ baseUrl: 'http://h', fetch: fetchImpl });
    const error = await ton.v3.getMasterchainInfo().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TonGateApiError', status: 429, text: 'Ratelimit exceeded' });
    expect(calls[0].url).toBe('http://h/api/v3/masterchainInfo');
  });

  it('sends the emulation operations under /api/emulate/v1, as their servers say, with the key', async () => {
    const { calls, fetchImpl } = fakeFetch(() => ({ status: 422, body: { error: 'boc: not a message' } }));
    const ton = createTonGateClient({ baseUrl: 'http://h', apiKey: 'k2', fetch: fetchImpl });
    const error = await ton.v3.emulateTrace({ boc: 'te6cckEBAQEAAgAAAEysuc0=' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TonGateApiError', status: 422, text: 'boc: not a message' });
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: 'http://h/api/emulate/v1/emulateTrace',
      body: { boc: 'te6cckEBAQEAAgAAAEysuc0=' },
    });
    expect(calls[0].headers.get('x-api-key')).toBe('k2');
  });

  it('validates replies against the spec unless validateResponses is false', async () => {
    const odd = { ok: true, result: 42, '@extra': '1:0:1', vendor_field: 'x' };
    const { fetchImpl } = fakeFetch(() => ({ status: 200, body: odd }));
    const strict = createTonGateClient({ baseUrl: 'http://h', fetch: fetchImpl });
    await expect(strict.v2.getAddressBalance({ address: ADDRESS })).rejects.toThrow();
    const lenient = createTonGateClient({ baseUrl: 'http://h', fetch: fetchImpl, validateResponses: false });
    expect(await lenient.v2.getAddressBalance({ address: ADDRESS })).toBe(42);
  });

  it('rejects invalid parameters before sending (generated zod schemas)', async () => {
    const { calls, fetchImpl } = fakeFetch(() => ({ status: 200, body: balanceEnvelope }));
    const ton = createTonGateClient({ baseUrl: 'http://h', fetch: fetchImpl });
    await expect(ton.v2.getAddressBalance({} as never)).rejects.toThrow();
    expect(calls).toHaveLength(0);
  });
});
