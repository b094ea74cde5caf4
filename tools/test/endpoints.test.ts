// The specs contain exactly the brief's operations (v2: plus the 2.1 line's additions), each with an operationId,
// and JSON-RPC reaches all of v2.
import { describe, expect, it } from 'vitest';
import { BRIEF_V2_ENDPOINTS, BRIEF_V3_ENDPOINTS } from './support/brief.js';
import { listOperations, loadBundle, loadJsonRpcMethods } from './support/spec.js';

const v2 = loadBundle('v2');
const v3 = loadBundle('v3');
const key = (method: string, p: string) => `${method.toUpperCase()} ${p}`;
/** toncenter 2.1 operations beyond the brief's tables. */
const V2_1_ADDITIONS = ['/getShardAccountCell', '/dnsResolve'];
/** The POST form of a read operation: a GET operation's path, `<name>Post`, its parameters as a JSON body. */
const isPostForm = (op: { method: string; operationId?: string }) => op.method === 'post' && op.operationId!.endsWith('Post');

describe('endpoints', () => {
  it('copies the brief tables completely (34 v2, 49 v3)', () => {
    expect(BRIEF_V2_ENDPOINTS).toHaveLength(34);
    expect(BRIEF_V3_ENDPOINTS).toHaveLength(49);
  });

  it('v2 has every brief endpoint, the /shards alias and the 2.1 additions, each read also as POST, and nothing else', () => {
    const inSpec = listOperations(v2)
      .map((op) => key(op.method, op.path))
      .sort();
    const gets = [...BRIEF_V2_ENDPOINTS.filter(([m]) => m === 'get').map(([, p]) => p), '/shards', ...V2_1_ADDITIONS];
    const posts = BRIEF_V2_ENDPOINTS.filter(([m]) => m === 'post').map(([, p]) => p);
    const expected = [...gets.map((p) => key('get', p)), ...gets.map((p) => key('post', p)), ...posts.map((p) => key('post', p))].sort();
    expect(inSpec).toEqual(expected);
  });

  it('v3 has every brief endpoint, the hosted /events alias of /traces and the emulation API (served under /api/emulate/v1), and nothing else', () => {
    const inSpec = listOperations(v3)
      .map((op) => key(op.method, op.path))
      .sort();
    const emulation = ['/emulateTrace', '/emulateTonConnect'];
    expect(inSpec).toEqual(
      [...BRIEF_V3_ENDPOINTS.map(([m, p]) => key(m, p)), key('get', '/events'), ...emulation.map((p) => key('post', p))].sort(),
    );
    for (const p of emulation) {
      const servers = ((v3.paths as Record<string, unknown>)[p] as { servers?: { url: string }[] }).servers ?? [];
      expect(servers.map((s) => new URL(s.url.replace(/\{\w+\}/, 'host')).pathname)).toEqual(['/api/emulate/v1', '/api/emulate/v1']);
    }
  });

  it.each([
    ['v2', v2],
    ['v3', v3],
  ] as const)('every %s operation has a unique operationId', (_, doc) => {
    const ops = listOperations(doc);
    const missing = ops.filter((op) => !op.operationId).map((op) => key(op.method, op.path));
    expect(missing).toEqual([]);
    const ids = ops.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('v2 operationIds are the v2 method names (path without the slash), POST forms with `Post` after it', () => {
    const mismatched = listOperations(v2)
      .filter((op) => op.operationId !== op.path.slice(1) + (isPostForm(op) && op.path !== '/jsonRPC' ? 'Post' : ''))
      .map((op) => `${op.path} -> ${op.operationId}`);
    expect(mismatched).toEqual([]);
  });
});

describe('JSON-RPC method map', () => {
  const methods = loadJsonRpcMethods();
  const v2Ops = listOperations(v2);

  it('reaches every v2 operation except jsonRPC itself (a POST form through its GET form)', () => {
    const reachable = new Set(Object.values(methods));
    const unreachable = v2Ops.filter((op) => op.operationId !== 'jsonRPC' && !reachable.has(op.operationId!.replace(/Post$/, '')));
    expect(unreachable.map((op) => op.operationId)).toEqual([]);
    expect(reachable.has('jsonRPC')).toBe(false);
  });

  it('names each method after its REST path, plus shards', () => {
    const expected = Object.fromEntries(
      v2Ops.filter((op) => op.operationId !== 'jsonRPC' && !isPostForm(op)).map((op) => [op.path.slice(1), op.operationId]),
    );
    expect(methods).toMatchObject(expected);
    expect(methods.shards).toBe('shards');
    const unknown = Object.values(methods).filter((id) => !v2Ops.some((op) => op.operationId === id));
    expect(unknown).toEqual([]);
  });
});
