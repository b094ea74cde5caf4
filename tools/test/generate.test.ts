// tools/generate.mjs: committed output is current, output is deterministic, --check reports drift, and the
// JSON-RPC table and route order are built as CONTRACT.md says (against the small fixture specs).
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGenerate } from './support/run.js';
import { REPO_ROOT } from './support/spec.js';

const FIXTURES = path.join(REPO_ROOT, 'tools/test/fixtures');

/** The JSON-RPC table as server/jsonrpc.ts holds it (a JSON literal). */
async function readJsonRpcTable(outDir: string) {
  const source = await readFile(path.join(outDir, 'server/jsonrpc.ts'), 'utf8');
  const literal = /export const jsonRpcMethods: [^=]+= (\{[\s\S]*?\n\});\n/.exec(source);
  if (!literal) throw new Error('server/jsonrpc.ts: no jsonRpcMethods literal');
  return JSON.parse(literal[1]);
}

describe('committed generated/', () => {
  it('matches spec/ (node tools/generate.mjs --check)', async () => {
    const result = await runGenerate(['--check']);
    expect(result.stderr).not.toContain('out of date');
    expect(result.code).toBe(0);
  });
});

describe('generator on the fixture specs', () => {
  let outA: string;
  let outB: string;

  beforeAll(async () => {
    outA = await mkdtemp(path.join(os.tmpdir(), 'tongate-gen-a-'));
    outB = await mkdtemp(path.join(os.tmpdir(), 'tongate-gen-b-'));
    const [a, b] = await Promise.all([runGenerate(['--spec', FIXTURES, '--out', outA]), runGenerate(['--spec', FIXTURES, '--out', outB])]);
    expect(a.stderr).toBe('');
    expect(b.code).toBe(0);
  });

  afterAll(async () => {
    await Promise.all([outA, outB].map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('is deterministic: a second run into another dir gives the same bytes', async () => {
    const check = await runGenerate(['--spec', FIXTURES, '--out', outB, '--check']);
    expect(check.code).toBe(0);
    const [a, b] = await Promise.all([outA, outB].map((dir) => readFile(path.join(dir, 'server/v2.ts'), 'utf8')));
    expect(a).toBe(b);
  });

  it('--check names changed, missing and stale files and exits 1', async () => {
    const copy = await mkdtemp(path.join(os.tmpdir(), 'tongate-gen-drift-'));
    try {
      await cp(outA, copy, { recursive: true });
      await writeFile(path.join(copy, 'server/v3.ts'), '// edited by hand\n');
      await rm(path.join(copy, 'sdk/runtime/client/index.ts'));
      await writeFile(path.join(copy, 'sdk/v2/leftover.gen.ts'), 'export {};\n');
      const result = await runGenerate(['--spec', FIXTURES, '--out', copy, '--check']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/changed\s+\S*server\/v3\.ts/);
      expect(result.stderr).toMatch(/missing\s+\S*sdk\/runtime\/client\/index\.ts/);
      expect(result.stderr).toMatch(/stale\s+\S*sdk\/v2\/leftover\.gen\.ts/);
      expect(result.stderr).not.toContain('v2.ts\n');
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  it('emits the hey-api runtime once for both versions, and the JSON-RPC table once (server/jsonrpc.ts)', async () => {
    await expect(readFile(path.join(outA, 'sdk/runtime/client/index.ts'), 'utf8')).resolves.toContain('createClient');
    for (const version of ['v2', 'v3']) {
      for (const folder of ['client', 'core']) await expect(stat(path.join(outA, 'sdk', version, folder))).rejects.toThrow(/ENOENT/);
      expect(await readFile(path.join(outA, 'sdk', version, 'sdk.gen.ts'), 'utf8')).toContain("from '../runtime/client/index.js'");
    }
    await expect(stat(path.join(outA, 'bundles/jsonrpc.json'))).rejects.toThrow(/ENOENT/);
  });

  it('builds the JSON-RPC table from query parameters and request bodies', async () => {
    const table = await readJsonRpcTable(outA);
    expect(Object.keys(table)).toEqual(['getAddressInformation', 'getShards', 'sendBoc', 'shards']);
    expect(table.getShards).toEqual({
      operationId: 'getShards',
      in: 'query',
      params: {
        type: 'object',
        properties: { seqno: { type: 'integer', minimum: 0 } },
        required: ['seqno'],
        additionalProperties: false,
      },
    });
    expect(table.sendBoc.in).toBe('body');
    expect(table.sendBoc.params).toMatchObject({ type: 'object', required: ['boc'], additionalProperties: false });

    const ajv = new Ajv2020({ strict: false });
    const validShards = ajv.compile(table.getShards.params);
    expect(validShards({ seqno: 5 })).toBe(true);
    expect(validShards({ seqno: 'five' })).toBe(false);
    expect(validShards({ seqno: 5, extra: true })).toBe(false);
    expect(validShards({})).toBe(false);
  });

  it('makes params schemas self-contained: component refs become $defs', async () => {
    const v2Fixture = JSON.parse(await readFile(path.join(outA, 'bundles/v2.json'), 'utf8'));
    expect(v2Fixture.paths['/getAddressInformation'].get.responses['200'].content['application/json'].schema.properties.result.$ref).toBe(
      '#/components/schemas/FullAccountState',
    );
    const table = await readJsonRpcTable(outA);
    expect(JSON.stringify(table)).not.toContain('#/components/');
    expect(table.sendBoc.params.properties.boc).toEqual({ $ref: '#/$defs/Boc' });
    expect(table.sendBoc.params.$defs.Boc).toMatchObject({ type: 'string', minLength: 1 });
    const validSendBoc = new Ajv2020({ strict: false }).compile(table.sendBoc.params);
    expect(validSendBoc({ boc: 'te6c' })).toBe(true);
    expect(validSendBoc({ boc: '' })).toBe(false);
  });

  it('orders routes static before parameterised and converts path syntax', async () => {
    const v3 = await readFile(path.join(outA, 'server/v3.ts'), 'utf8');
    const latest = v3.indexOf("path: '/blocks/latest'");
    const bySeqno = v3.indexOf("expressPath: '/blocks/:seqno'");
    expect(latest).toBeGreaterThan(0);
    expect(bySeqno).toBeGreaterThan(latest);
  });

  it('leaves jsonRPC out of V2Handlers but keeps it in the route table', async () => {
    const v2 = await readFile(path.join(outA, 'server/v2.ts'), 'utf8');
    expect(v2).toContain("{ operationId: 'jsonRPC', method: 'post', path: '/jsonRPC', expressPath: '/jsonRPC' }");
    const handlers = v2.slice(v2.indexOf('export interface V2Handlers'), v2.indexOf('\n}\n', v2.indexOf('export interface V2Handlers')));
    expect(handlers).toContain('getShards(input');
    expect(handlers).not.toMatch(/jsonRPC|jsonRpc/);
  });
});
