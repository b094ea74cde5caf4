// End to end through the offline mock: Prism serves the committed bundles, @tongate/client drives them with the
// generated SDK (zod-validated requests and responses).
import { createTonGateClient, TonGateApiError, type TonGateClient } from '@tongate/client';
import { v3Operations } from '@tongate/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock.mjs';
import { asObject, deref, findOperation, loadBundle } from './support/spec.js';

let mock: RunningMock;
let client: TonGateClient;

/** The spec's own example for a query parameter, so the request passes Prism's validation. */
function queryExample(version: 'v2' | 'v3', path: string, name: string): string {
  const doc = loadBundle(version);
  const param = findOperation(doc, 'get', path)?.parameters.find((p) => p.name === name);
  const example = param?.example ?? Object.values(asObject(param?.examples)).map((e) => asObject(deref(doc, e)).value)[0];
  if (typeof example !== 'string') throw new Error(`${version} GET ${path}: parameter ${name} needs an example`);
  return example;
}

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  client = createTonGateClient({ baseUrl: mock.url, apiKey: 'test-key' });
});

afterAll(async () => {
  await mock?.stop();
});

describe('@tongate/client against the Prism mock', () => {
  const address = queryExample('v2', '/getAddressInformation', 'address');

  it('v2 REST: returns the envelope result', async () => {
    const result = await client.v2.getAddressInformation({ address });
    expect(result).toMatchObject({ '@type': 'raw.fullAccountState' });
    expect(typeof result.balance).toBe('string');
  });

  it('v2 JSON-RPC: posts to /jsonRPC and returns the result', async () => {
    // Prism answers with the spec's single-call example, which is a getAddressBalance reply.
    const balance: string = await client.v2.jsonRpc('getAddressBalance', { address });
    expect(balance).toMatch(/^[0-9]+$/);
  });

  it('v3 list: GET /transactions with limit and offset', async () => {
    const name = Object.entries(v3Operations).find(([, op]) => op.method === 'get' && op.path === '/transactions')?.[0];
    expect(name).toBeDefined();
    const list = (client.v3 as unknown as Record<string, (p: object) => Promise<unknown>>)[name!];
    const body = asObject((await list({ limit: 2, offset: 0 })) as never);
    expect(Array.isArray(body.transactions)).toBe(true);
    expect(typeof body.address_book).toBe('object');
  });

  it('the gateway answers 404 outside /api/v2 and /api/v3', async () => {
    const res = await fetch(`${mock.url}/api/v4/anything`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: expect.stringContaining('/api/v4/anything') });
  });

  it('throws TonGateApiError with the status and the error text', async () => {
    // Prism answers with the documented example for the status asked for in `Prefer`.
    const failing = createTonGateClient({
      baseUrl: mock.url,
      fetch: (input, init) => {
        const request = new Request(input, init);
        request.headers.set('Prefer', 'code=422');
        return fetch(request);
      },
    });
    const error = await failing.v2.getAddressInformation({ address }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TonGateApiError);
    expect((error as TonGateApiError).status).toBe(422);
    expect((error as TonGateApiError).text.length).toBeGreaterThan(0);
  });
});
