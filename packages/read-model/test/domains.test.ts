/**
 * The registered index domains keep to one module each: no hand-written source outside a domain's module names its
 * tables or its operations (so a new domain needs no edit elsewhere besides the spec and its entry in INDEX_DOMAINS),
 * every operation it serves is an operation of the v3 spec, and no two domains claim one migration or operation
 * name (the lists are merged into one object, where a second entry would silently replace the first).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { INDEX_DOMAINS } from '../src/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const DOMAINS_DIR = 'packages/read-model/src/domains';

/** Each domain's migration names and the tables its migrations create (run with a runner that records the DDL). */
async function declared() {
  return Promise.all(
    INDEX_DOMAINS.map(async (domain) => {
      const statements: string[] = [];
      const migrations = domain.migrations(async (_db, ddl) => statements.push(...ddl));
      for (const migration of Object.values(migrations)) await migration.up({} as Kysely<unknown>);
      const tables = statements.flatMap((s) => [...s.matchAll(/create table \$S\.(\w+)/g)].map((m) => m[1]!));
      // A domain's operations factory only builds closures over the db, so no database is needed to list them.
      const operations = Object.keys(domain.operations?.({} as never, false) ?? {});
      return { domain, migrations: Object.keys(migrations), tables, operations };
    }),
  );
}

/** The hand-written product sources outside the domain modules (benches measure chosen domains by name, so not them). */
function otherSources(): { file: string; text: string }[] {
  const roots = readdirSync(path.join(repoRoot, 'packages')).map((p) => `packages/${p}/src`);
  const files: { file: string; text: string }[] = [];
  for (const root of roots) {
    let names: string[];
    try {
      names = readdirSync(path.join(repoRoot, root), { recursive: true }) as string[];
    } catch {
      continue;
    }
    for (const name of names) {
      const file = `${root}/${name}`;
      if (!/\.(ts|mts|mjs)$/.test(file) || file.startsWith(`${DOMAINS_DIR}/`)) continue;
      files.push({ file, text: readFileSync(path.join(repoRoot, file), 'utf8') });
    }
  }
  return files;
}

describe('the registered index domains', () => {
  it('each declares tables, and names no migration or operation another one does', async () => {
    const all = await declared();
    for (const { domain, migrations, tables } of all) {
      expect(tables.length, domain.name).toBeGreaterThan(0);
      for (const name of migrations) expect(name, domain.name).toMatch(/^\d{4}_[a-z0-9_]+$/);
    }
    const migrations = all.flatMap((d) => d.migrations);
    expect(new Set(migrations).size).toBe(migrations.length);
    const operations = all.flatMap((d) => d.operations);
    expect(new Set(operations).size).toBe(operations.length);
  });

  it('serve operations of the v3 spec only', async () => {
    const spec = readFileSync(path.join(repoRoot, 'spec/v3/openapi.yaml'), 'utf8');
    const operationIds = new Set([...spec.matchAll(/operationId:\s*(\w+)/g)].map((m) => m[1]));
    for (const { operations } of await declared()) for (const name of operations) expect(operationIds).toContain(name);
  });

  it('are named by no hand-written source outside their modules', async () => {
    const sources = otherSources();
    expect(sources.some((s) => s.file === 'packages/handlers-v3/src/indexed/index.ts')).toBe(true);
    for (const { domain, tables, operations } of await declared()) {
      // A table is named where a query names it (a query builder's table argument, or after a schema in SQL); an
      // operation by its operationId.
      const table = `(${tables.join('|')})`;
      const words = new RegExp(
        `(selectFrom|insertInto|deleteFrom|updateTable|Join)\\(\\s*['"\`]${table}\\b|(\\$S|\\}|")\\.${table}\\b|\\b(${operations.join('|')})\\b`,
      );
      const naming = sources.filter((s) => words.test(s.text)).map((s) => `${s.file}: ${s.text.match(words)![0]}`);
      expect(naming, domain.name).toEqual([]);
    }
  });
});
