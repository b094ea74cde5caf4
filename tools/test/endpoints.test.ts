// The specs contain exactly the brief's operations, each with an operationId, and JSON-RPC reaches all of v2.
import { describe, expect, it } from 'vitest';
import { BRIEF_V2_ENDPOINTS, BRIEF_V3_ENDPOINTS } from './support/brief.js';
import { listOperations, loadBundle, loadJsonRpcMethods } from './support/spec.js';

const v2 = loadBundle('v2');
const v3 = loadBundle('v3');
const key = (method: string, p: string) => `${method.toUpperCase()} ${p}`;

describe('endpoints', () => {
  it('copies the brief tables completely (34 v2, 49 v3)', () => {
    expect(BRIEF_V2_ENDPOINTS).toHaveLength(34);
    expect(BRIEF_V3_ENDPOINTS).toHaveLength(49);
  });

  it('v2 has every brief endpoint plus the /shards alias, and nothing else', () => {
    const inSpec = listOperations(v2).map((op) => key(op.method, op.path)).sort();
    const expected = [...BRIEF_V2_ENDPOINTS.map(([m, p]) => key(m, p)), key('get', '/shards')].sort();
    expect(inSpec).toEqual(expected);
  });

  it('v3 has every brief endpoint plus the hosted /events alias of /traces, and nothing else', () => {
    const inSpec = listOperations(v3).map((op) => key(op.method, op.path)).sort();
    expect(inSpec).toEqual([...BRIEF_V3_ENDPOINTS.map(([m, p]) => key(m, p)), key('get', '/events')].sort());
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

  it('v2 operationIds are the v2 method names (path without the slash)', () => {
    const mismatched = listOperations(v2)
      .filter((op) => op.operationId !== op.path.slice(1))
      .map((op) => `${op.path} -> ${op.operationId}`);
    expect(mismatched).toEqual([]);
  });
});

describe('JSON-RPC method map', () => {
  const methods = loadJsonRpcMethods();
  const v2Ops = listOperations(v2);

  it('reaches every v2 operation except jsonRPC itself', () => {
    const reachable = new Set(Object.values(methods));
    const unreachable = v2Ops.filter((op) => op.operationId !== 'jsonRPC' && !reachable.has(op.operationId!));
    expect(unreachable.map((op) => op.operationId)).toEqual([]);
    expect(reachable.has('jsonRPC')).toBe(false);
  });

  it('names each method after its REST path, plus shards', () => {
    const expected = Object.fromEntries(
      v2Ops.filter((op) => op.operationId !== 'jsonRPC').map((op) => [op.path.slice(1), op.operationId]),
    );
    expect(methods).toMatchObject(expected);
    expect(methods.shards).toBe('shards');
    const unknown = Object.values(methods).filter((id) => !v2Ops.some((op) => op.operationId === id));
    expect(unknown).toEqual([]);
  });
});
