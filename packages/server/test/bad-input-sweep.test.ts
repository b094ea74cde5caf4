import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRpcMethods } from '@tongate/stubs';
import { loadBundles, type OpenApiDocument } from '../src/index.js';
import { request, startServer, type Reply, type TestServer } from './helpers.js';

/**
 * Generated from the bundled specs: for every operation, a missing required parameter, a wrong type, an unknown
 * parameter and an invalid address must each get a 4xx in the version's error body — never a 5xx, never a 501
 * (501 is only for valid input to an unimplemented operation).
 */
type Schema = Record<string, any>;
interface Param {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  example?: unknown;
}
interface Operation {
  version: 'v2' | 'v3';
  method: 'get' | 'post';
  path: string;
  operationId: string;
  params: Param[];
  body?: Schema;
}

function resolver(doc: OpenApiDocument) {
  const resolve = (node: any): any => {
    if (node && typeof node === 'object' && typeof node.$ref === 'string') {
      const target = node.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((o: any, k: string) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      return resolve(target);
    }
    return node;
  };
  return resolve;
}

function operations(version: 'v2' | 'v3', doc: OpenApiDocument): Operation[] {
  const resolve = resolver(doc);
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post'] as const) {
      const op = (item as Record<string, any>)[method];
      if (!op || op.operationId === 'jsonRPC') continue;
      const params = [...((item as any).parameters ?? []), ...(op.parameters ?? [])].map((p: unknown) => {
        const param = resolve(p) as Param;
        return { ...param, schema: resolve(param.schema) };
      });
      const body = op.requestBody ? resolve(resolve(op.requestBody).content?.['application/json']?.schema) : undefined;
      list.push({ version, method, path, operationId: op.operationId, params, body });
    }
  }
  return list;
}

const ADDRESS_NAME = /(^|_)(address|account|wallet|owner|source|destination|pool|nominator|validator|bidder|jetton_master|jetton_wallet|item_address|collection_address|multisig_address|contract_address)($|_)/;

function isAddressSchema(schema: Schema | undefined, name: string): boolean {
  const text = JSON.stringify(schema ?? {});
  return /AddressInput|wc:hex|user-friendly/i.test(text) || (ADDRESS_NAME.test(name) && /string/.test(text));
}

function typeOf(schema: Schema | undefined): string | undefined {
  if (!schema) return undefined;
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((t: string) => t !== 'null');
  if (schema.items) return 'array';
  return undefined;
}

function sampleValue(param: Param): string {
  const s = param.schema ?? {};
  const example = param.example ?? s.example ?? s.examples?.[0] ?? s.items?.example ?? s.items?.examples?.[0] ?? s.default ?? s.enum?.[0];
  if (example !== undefined) return Array.isArray(example) ? String(example[0]) : String(example);
  switch (typeOf(s)) {
    case 'integer':
    case 'number':
      return String(s.minimum ?? 1);
    case 'boolean':
      return 'true';
    default:
      return 'x';
  }
}

function queryString(values: Record<string, string>): string {
  const q = new URLSearchParams(values).toString();
  return q ? `?${q}` : '';
}

function expectClientError(reply: Reply, version: 'v2' | 'v3', label: string) {
  expect(reply.status, `${label}: ${reply.text}`).toBeGreaterThanOrEqual(400);
  expect(reply.status, `${label}: ${reply.text}`).toBeLessThan(500);
  if (version === 'v2') {
    expect(reply.body, label).toEqual({ ok: false, error: expect.any(String), code: reply.status });
  } else {
    expect(reply.body, label).toEqual({ error: expect.any(String) });
  }
}

const bundles = loadBundles();
const allOperations = [...operations('v2', bundles.v2), ...operations('v3', bundles.v3)];

async function realV2Handlers() {
  try {
    const [{ createDevnet }, { createV2Handlers }] = await Promise.all([import('@tongate/devnet'), import('@tongate/handlers-v2')]);
    const mainnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    return { handlers: createV2Handlers({ chain: mainnet }), close: () => mainnet.close() };
  } catch {
    return { handlers: {}, close: async () => {} };
  }
}

describe('bad-input sweep over every operation of the bundled specs', () => {
  let server: TestServer;
  let closeChain: () => Promise<void>;
  beforeAll(async () => {
    const real = await realV2Handlers();
    closeChain = real.close;
    server = await startServer({ v2: real.handlers, config: { keylessRps: 1_000_000, keylessBurst: 1_000_000, validateResponses: true } });
  });
  afterAll(async () => {
    await server?.close();
    await closeChain?.();
  });

  const send = (op: Operation, query: Record<string, string>, body?: unknown) =>
    request(server.port, {
      method: op.method.toUpperCase(),
      path: `/api/${op.version}${op.path.replace(/\{(\w+)\}/g, 'x')}${queryString(query)}`,
      ...(op.method === 'post' ? { body: body ?? {} } : {}),
    });

  const baseline = (op: Operation) => Object.fromEntries(op.params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, sampleValue(p)]));
  const bodyBaseline = (op: Operation) => {
    const b: Record<string, unknown> = {};
    for (const name of op.body?.required ?? []) {
      const prop = op.body?.properties?.[name] ?? {};
      b[name] = prop.example ?? prop.examples?.[0] ?? (typeOf(prop) === 'integer' ? 1 : typeOf(prop) === 'array' ? [] : 'x');
    }
    return b;
  };

  it.each(allOperations.map((op) => [`${op.version} ${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', async (_label, op) => {
    let checks = 0;
    // Missing required parameter (query).
    for (const p of op.params.filter((x) => x.in === 'query' && x.required)) {
      const q = baseline(op);
      delete q[p.name];
      expectClientError(await send(op, q, bodyBaseline(op)), op.version, `missing ${p.name}`);
      checks++;
    }
    // Missing required body field.
    for (const name of op.body?.required ?? []) {
      const b = bodyBaseline(op);
      delete b[name];
      expectClientError(await send(op, baseline(op), b), op.version, `missing body.${name}`);
      checks++;
    }
    // Wrong type.
    const typed = op.params.find((p) => p.in === 'query' && ['integer', 'number', 'boolean'].includes(typeOf(p.schema) ?? ''));
    if (typed) {
      expectClientError(await send(op, { ...baseline(op), [typed.name]: 'not-a-number' }, bodyBaseline(op)), op.version, `wrong type ${typed.name}`);
      checks++;
    }
    const typedBody = Object.entries(op.body?.properties ?? {}).find(([, s]) => typeOf(s as Schema) === 'string');
    if (typedBody) {
      expectClientError(await send(op, baseline(op), { ...bodyBaseline(op), [typedBody[0]]: { nested: true } }), op.version, `wrong type body.${typedBody[0]}`);
      checks++;
    }
    // Unknown parameter.
    expectClientError(await send(op, { ...baseline(op), zz_unknown_param: '1' }, bodyBaseline(op)), op.version, 'unknown query parameter');
    checks++;
    if (op.body && op.body.additionalProperties === false) {
      expectClientError(await send(op, baseline(op), { ...bodyBaseline(op), zz_unknown_field: 1 }), op.version, 'unknown body field');
      checks++;
    }
    expect(checks).toBeGreaterThan(0);
  });

  // Invalid addresses must be rejected by validation (not reach a 501 or the chain). Where the spec puts no
  // constraint on an address parameter the case is skipped and visible as such: that is a spec gap to close.
  const addressCases = allOperations.flatMap((op) => {
    const param = op.params.find((p) => p.in === 'query' && isAddressSchema(p.schema, p.name));
    const field = Object.entries(op.body?.properties ?? {}).find(([name, s]) => isAddressSchema(s as Schema, name));
    if (!param && !field) return [];
    const schema = param ? param.schema : (field![1] as Schema);
    const constrained = /"(pattern|format|\$ref)"/.test(JSON.stringify(schema)) || /AddressInput/.test(JSON.stringify(schema));
    return [{ label: `${op.version} ${op.method.toUpperCase()} ${op.path} ${param ? param.name : `body.${field![0]}`}`, op, param, field, constrained }];
  });
  for (const c of addressCases) {
    it.skipIf(!c.constrained)(`invalid address: ${c.label}`, async () => {
      const { op, param, field } = c;
      const reply = param
        ? await send(op, { ...baseline(op), [param.name]: 'not-an-address' }, bodyBaseline(op))
        : await send(op, baseline(op), { ...bodyBaseline(op), [field![0]]: 'not-an-address' });
      expectClientError(reply, op.version, c.label);
    });
  }

  it.each(Object.entries(jsonRpcMethods).map(([name, m]) => [name, m] as const))('JSON-RPC %s', async (name, method) => {
    const schema = method.params as Schema;
    const call = (params: unknown) => request(server.port, { path: '/api/v2/jsonRPC', body: { jsonrpc: '2.0', id: 1, method: name, params } });
    const check = (r: Reply, label: string) => {
      expect(r.status, `${label}: ${r.text}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${label}: ${r.text}`).toBeLessThan(500);
      expect(r.body).toMatchObject({ ok: false, error: expect.any(String), code: r.status, jsonrpc: '2.0', id: 1 });
    };
    check(await call({ zz_unknown_param: 1 }), 'unknown param');
    if (schema.required?.length) check(await call({}), 'missing required');
    const addressKey = Object.entries(schema.properties ?? {}).find(([n, s]) => isAddressSchema(s as Schema, n));
    if (addressKey) check(await call({ [addressKey[0]]: 'not-an-address' }), 'invalid address');
  });
});
