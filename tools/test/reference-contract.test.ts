// tongate's specs against the published specs of the hosted API (packages/testdata/reference/specs/): every
// operation and parameter of a reference is in tongate's spec with the same default and bounds, or is listed with
// its reason in spec/reference-differences.yaml. A new gap fails this test, and so does a listed difference that
// is no longer one (the list stays exactly the set of gaps).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { referencePath } from '@tongate/testdata';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadBundle, REPO_ROOT } from './support/spec.js';

type Doc = Record<string, any>;

interface ParamInfo {
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

/** Operations as `METHOD /api/vN/path` → parameters as `in:name` (headers lower-cased) → their numeric bounds. */
type Surface = Map<string, Map<string, ParamInfo>>;

interface Gap {
  operation: string;
  parameter?: string;
  bound?: 'default' | 'minimum' | 'maximum';
}

interface Difference extends Gap {
  /** One reference name, or several that share the difference. */
  reference: string | string[];
  reason: string;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

function load(file: string): Doc {
  const text = readFileSync(file, 'utf8');
  return file.endsWith('.json') ? (JSON.parse(text) as Doc) : (parseYaml(text) as Doc);
}

function deref(doc: Doc, node: any): any {
  let current = node;
  for (let depth = 0; current && typeof current === 'object' && typeof current.$ref === 'string' && depth < 20; depth++) {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((o: any, k: string) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return current;
}

/** The properties of a JSON body schema (its allOf parts included). */
function bodyProperties(doc: Doc, schema: any): string[] {
  const s = deref(doc, schema);
  if (!s || typeof s !== 'object') return [];
  const own = Object.keys(s.properties ?? {});
  const parts = [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])].flatMap((part: unknown) => bodyProperties(doc, part));
  return [...own, ...parts];
}

function boundsOf(doc: Doc, param: any): ParamInfo {
  const s = deref(doc, param.schema) ?? param;
  const info: ParamInfo = {};
  if (s.default !== undefined) info.default = s.default;
  if (typeof s.minimum === 'number') info.minimum = s.minimum;
  if (typeof s.maximum === 'number') info.maximum = s.maximum;
  return info;
}

/** Every operation of a spec (OpenAPI 3 or Swagger 2) with its parameters; `prefix` completes relative paths. */
function surfaceOf(doc: Doc, prefix: string): Surface {
  const surface: Surface = new Map();
  const base = String(doc.basePath ?? '').replace(/\/$/, '');
  for (const [rawPath, item] of Object.entries<any>(doc.paths ?? {})) {
    const full = `${base}${rawPath}`.startsWith('/api/') ? `${base}${rawPath}` : `${prefix}${rawPath}`;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = new Map<string, ParamInfo>();
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])].map((x: unknown) => deref(doc, x))) {
        if (p.in === 'body') {
          for (const name of bodyProperties(doc, p.schema)) params.set(`body:${name}`, {});
          continue;
        }
        params.set(`${p.in}:${p.in === 'header' ? String(p.name).toLowerCase() : p.name}`, boundsOf(doc, p));
      }
      const json = deref(doc, op.requestBody)?.content?.['application/json']?.schema;
      if (json) for (const name of bodyProperties(doc, json)) params.set(`body:${name}`, {});
      surface.set(`${method.toUpperCase()} ${full}`, params);
    }
  }
  return surface;
}

/** What a reference has that tongate's spec lacks or bounds otherwise. */
function gaps(reference: Surface, ours: Surface): Gap[] {
  const out: Gap[] = [];
  for (const [operation, params] of reference) {
    const mine = ours.get(operation);
    if (!mine) {
      out.push({ operation });
      continue;
    }
    for (const [parameter, bounds] of params) {
      const have = mine.get(parameter);
      if (!have) {
        out.push({ operation, parameter });
        continue;
      }
      for (const bound of ['default', 'minimum', 'maximum'] as const) {
        if (bounds[bound] !== undefined && String(bounds[bound]) !== String(have[bound])) out.push({ operation, parameter, bound });
      }
    }
  }
  return out;
}

const REFERENCES = [
  { name: 'cpp-v2', file: referencePath('v2', 'toncenter-cpp-v2.yaml'), version: 'v2' },
  { name: 'docs-v3', file: referencePath('v3', 'toncenter-docs-v3.yaml'), version: 'v3' },
  { name: 'go-v3', file: referencePath('v3', 'ton-index-go-swagger-2025-09.json'), version: 'v3' },
] as const;

const DIFFERENCES_FILE = 'spec/reference-differences.yaml';
const differences = (parseYaml(readFileSync(path.join(REPO_ROOT, DIFFERENCES_FILE), 'utf8')) as { differences: Difference[] }).differences;

/** An operation pattern of the differences file: exact, or `*` for any run of characters. */
const matches = (pattern: string, operation: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(operation);
const covers = (d: Difference, g: Gap) => matches(d.operation, g.operation) && d.parameter === g.parameter && d.bound === g.bound;
const say = (g: Gap) => `${g.operation}${g.parameter ? ` ${g.parameter}` : ''}${g.bound ? ` (${g.bound})` : ''}`;

describe('tongate against the reference specs', () => {
  it('every listed difference names a known reference and gives a reason', () => {
    const names = REFERENCES.map((r) => r.name) as string[];
    for (const d of differences) {
      for (const reference of [d.reference].flat()) expect(names, JSON.stringify(d)).toContain(reference);
      expect(typeof d.reason === 'string' && d.reason.trim().length > 10, JSON.stringify(d)).toBe(true);
    }
  });

  describe.each(REFERENCES)('$name', ({ name, file, version }) => {
    // tongate's side is the bundle of its spec (what the server validates against; external refs inlined).
    const prefix = `/api/${version}`;
    const found = gaps(surfaceOf(load(file), prefix), surfaceOf(loadBundle(version), prefix));
    const listed = differences.filter((d) => [d.reference].flat().includes(name));

    it('has every operation, parameter, default and bound in tongate, or a listed reason', () => {
      expect(found.filter((g) => !listed.some((d) => covers(d, g))).map(say)).toEqual([]);
    });

    it(`lists no difference in ${DIFFERENCES_FILE} that is not one any more`, () => {
      expect(listed.filter((d) => !found.some((g) => covers(d, g))).map((d) => say(d))).toEqual([]);
    });
  });
});
