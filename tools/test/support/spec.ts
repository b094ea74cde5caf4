// Reading the committed bundles (refs already collected into components by redocly) for the contract tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Operation {
  method: string;
  path: string;
  operationId: string | undefined;
  operation: JsonObject;
  /** Path-level and operation-level parameters, refs resolved. */
  parameters: JsonObject[];
  /** JSON pointer of the operation inside the bundle. */
  pointer: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export function loadBundle(version: 'v2' | 'v3'): JsonObject {
  return JSON.parse(readFileSync(path.join(REPO_ROOT, 'generated/bundles', `${version}.json`), 'utf8')) as JsonObject;
}

export function loadJsonRpcMethods(): Record<string, string> {
  const raw = parseYaml(readFileSync(path.join(REPO_ROOT, 'spec/jsonrpc/methods.yaml'), 'utf8')) as Record<string, unknown>;
  const map = (raw && typeof raw.methods === 'object' ? raw.methods : raw) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(map).map(([method, value]) => [
      method,
      typeof value === 'string' ? value : String((value as { operationId?: unknown }).operationId),
    ]),
  );
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function resolveRef(doc: JsonObject, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`non-local ref ${ref}`);
  let node: Json = doc;
  for (const raw of ref.slice(2).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || Array.isArray(node) || !(segment in node)) throw new Error(`unresolved ref ${ref}`);
    node = node[segment];
  }
  return node;
}

/** Follows top-level $ref chains. */
export function deref(doc: JsonObject, node: Json): Json {
  let current = node;
  while (current && typeof current === 'object' && !Array.isArray(current) && typeof current.$ref === 'string') {
    current = resolveRef(doc, current.$ref);
  }
  return current;
}

export function asObject(node: Json | undefined): JsonObject {
  return node && typeof node === 'object' && !Array.isArray(node) ? node : {};
}

export function listOperations(doc: JsonObject): Operation[] {
  const out: Operation[] = [];
  for (const [p, rawItem] of Object.entries(asObject(doc.paths))) {
    const item = asObject(deref(doc, rawItem));
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation || typeof operation !== 'object' || Array.isArray(operation)) continue;
      const byKey = new Map<string, JsonObject>();
      for (const raw of [...((item.parameters as Json[]) ?? []), ...((operation.parameters as Json[]) ?? [])]) {
        const param = asObject(deref(doc, raw));
        byKey.set(`${String(param.in)}:${String(param.name)}`, param);
      }
      out.push({
        method,
        path: p,
        operationId: typeof operation.operationId === 'string' ? operation.operationId : undefined,
        operation,
        parameters: [...byKey.values()],
        pointer: `#/paths/${escapePointer(p)}/${method}`,
      });
    }
  }
  return out;
}

export function findOperation(doc: JsonObject, method: string, p: string): Operation | undefined {
  return listOperations(doc).find((op) => op.method === method && op.path === p);
}
