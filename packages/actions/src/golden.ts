import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClassifiedAction, TraceInput } from './types.js';

/**
 * The golden fixture format (`ton-actions-golden/1`, the format of `packages/testdata/fixtures/actions`) and its matching rules:
 * what the tests, the CLI and the pass-count tool use to compare classifier output with the reference's.
 */
export interface GoldenCondition {
  path: string;
  op: 'eq' | 'ne' | 'length_eq';
  value: unknown;
}

export interface GoldenEntry {
  type: string;
  selector?: string | null;
  selector_parsed?: { any: { all: GoldenCondition[] }[] } | null;
  values?: Record<string, unknown> | null;
}

export interface GoldenFixture extends TraceInput {
  format: string;
  name: string;
  expected_actions: GoldenEntry[];
}

/** Every fixture file of a directory, sorted by name. */
export function listGoldenFixtures(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(dir, f));
}

export function readGoldenFixture(path: string): GoldenFixture {
  const fixture = JSON.parse(readFileSync(path, 'utf8')) as GoldenFixture;
  if (fixture.format !== 'ton-actions-golden/1') throw new Error(`${path}: not a ton-actions-golden/1 fixture`);
  return fixture;
}

/** Reads `a.b[1].c` from an object; a path that leads nowhere reads as undefined. */
export function readPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    const m = /^([^[\]]+)((?:\[\d+\])*)$/.exec(part);
    if (!m) return undefined;
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[m[1]] : undefined;
    for (const idx of m[2].match(/\d+/g) ?? []) cur = Array.isArray(cur) ? cur[Number(idx)] : undefined;
  }
  return cur;
}

const ADDRESS = /^-?\d+:[0-9a-f]{64}$/i;
const INTEGER = /^-?\d+$/;
const HEX = /^0x[0-9a-f]+$/i;

function asBigInt(v: unknown): bigint | null {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && INTEGER.test(v)) return BigInt(v);
  if (typeof v === 'string' && HEX.test(v)) return BigInt(v);
  return null;
}

/** Scalar equality by the README: numbers by value, booleans strictly, raw addresses case-insensitively. */
function scalarEquals(expected: unknown, actual: unknown): boolean {
  if (expected === null || expected === undefined) return actual === null || actual === undefined;
  if (typeof expected === 'boolean' || typeof actual === 'boolean') return expected === actual;
  if (typeof expected === 'number' && !Number.isInteger(expected)) return actual === expected;
  const e = asBigInt(expected);
  const a = asBigInt(actual);
  if (e !== null && a !== null) return e === a;
  if (typeof expected === 'string' && typeof actual === 'string' && ADDRESS.test(expected))
    return expected.toUpperCase() === actual.toUpperCase();
  return expected === actual;
}

export function valueMatches(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((e) => actual.some((a) => valueMatches(e, a)));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || actual === undefined || typeof actual !== 'object') {
      return Object.values(expected).every((v) => v === null); // absent object: only nulls match
    }
    return Object.entries(expected).every(([k, v]) => valueMatches(v, (actual as Record<string, unknown>)[k]));
  }
  return scalarEquals(expected, actual);
}

function conditionHolds(action: ClassifiedAction, c: GoldenCondition): boolean {
  const actual = readPath(action, c.path);
  if (c.op === 'length_eq') return (Array.isArray(actual) ? actual.length : 0) === c.value;
  const eq = valueMatches(c.value, actual);
  return c.op === 'eq' ? eq : !eq;
}

export interface EntryResult {
  entry: GoldenEntry;
  ok: boolean;
  reason?: string;
}

/** Checks one expected entry against a trace's actions (rules 1–4 of the README). */
export function checkEntry(actions: ClassifiedAction[], entry: GoldenEntry): EntryResult {
  let candidates = actions.filter((a) => a.type.toLowerCase() === entry.type.toLowerCase());
  if (entry.selector_parsed) {
    candidates = candidates.filter((a) => entry.selector_parsed!.any.some((g) => g.all.every((c) => conditionHolds(a, c))));
    if (candidates.length === 0) return { entry, ok: false, reason: `no ${entry.type} action matches the selector ${entry.selector}` };
  } else if (candidates.length !== 1) {
    return { entry, ok: false, reason: `expected exactly one ${entry.type} action, found ${candidates.length}` };
  }
  const values = entry.values ?? {};
  const mismatches: string[] = [];
  for (const candidate of candidates) {
    const bad = Object.entries(values).filter(([path, v]) => !valueMatches(v, readPath(candidate, path)));
    if (bad.length === 0) return { entry, ok: true };
    if (mismatches.length === 0) {
      for (const [path, v] of bad)
        mismatches.push(`${path}: expected ${JSON.stringify(v)}, got ${JSON.stringify(readPath(candidate, path))}`);
    }
  }
  return { entry, ok: false, reason: mismatches.join('; ') };
}

export function checkFixture(actions: ClassifiedAction[], fixture: GoldenFixture): EntryResult[] {
  return fixture.expected_actions.map((e) => checkEntry(actions, e));
}
