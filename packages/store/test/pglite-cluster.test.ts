import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { initialisedCluster, openPglite } from '../src/pglite-cluster.js';

// initdb stamps each cluster with a system identifier of its own (from the time and the process); a copy keeps it.
async function systemIdentifier(db: PGlite): Promise<string> {
  const { rows } = await db.query<{ id: string }>('select system_identifier::text as id from pg_control_system()');
  return rows[0].id;
}

const work = mkdtempSync(path.join(tmpdir(), 'tongate-pglite-cluster-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a fresh embedded database starts from the once-initialised cluster', () => {
  const root = path.join(work, 'templates');
  mkdirSync(root);

  it('two new databases are copies of one cluster, each with its own data, and the cluster stays untouched', async () => {
    const [a, b] = await Promise.all([openPglite(path.join(work, 'a'), {}, root), openPglite(path.join(work, 'b'), {}, root)]);
    try {
      // Both opened at once: one template was built and both were copied from it.
      expect(readdirSync(root)).toHaveLength(1);
      expect(await systemIdentifier(a)).toBe(await systemIdentifier(b));
      await a.exec('create table only_in_a (x int); insert into only_in_a values (1)');
      const inB = await b.query("select count(*)::int as n from pg_tables where tablename = 'only_in_a'");
      expect(inB.rows).toEqual([{ n: 0 }]);
    } finally {
      await a.close();
      await b.close();
    }
    const template = await initialisedCluster(root);
    const fromTemplate = await openPglite(path.join(work, 'c'), {}, root);
    try {
      expect(await fromTemplate.query("select count(*)::int as n from pg_tables where tablename = 'only_in_a'")).toMatchObject({
        rows: [{ n: 0 }],
      });
    } finally {
      await fromTemplate.close();
    }
    expect(readdirSync(template)).toContain('PG_VERSION');
  }, 120_000);

  it('a database that already has a cluster is opened as it is', async () => {
    const dir = path.join(work, 'kept');
    const first = await openPglite(dir, {}, root);
    await first.exec('create table kept (x int)');
    const id = await systemIdentifier(first);
    await first.close();
    const again = await openPglite(dir, {}, root);
    try {
      expect(await systemIdentifier(again)).toBe(id);
      expect((await again.query("select count(*)::int as n from pg_tables where tablename = 'kept'")).rows).toEqual([{ n: 1 }]);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('without the template a database runs its own initdb, and gets an identifier of its own', async () => {
    const fromTemplate = await openPglite(path.join(work, 'd'), {}, root);
    const own = await PGlite.create(path.join(work, 'own'));
    try {
      expect(await systemIdentifier(own)).not.toBe(await systemIdentifier(fromTemplate));
    } finally {
      await fromTemplate.close();
      await own.close();
    }
  }, 120_000);
});

describe('a template another user could have written is never used', () => {
  const uid = process.getuid?.() ?? 0;

  async function opensWithoutTemplate(prepare: (template: string) => void) {
    const root = mkdtempSync(path.join(work, 'untrusted-'));
    const template = path.join(root, templateName(uid));
    prepare(template);
    const db = await openPglite(path.join(root, 'db'), {}, root);
    try {
      // A working database of its own initdb: the planted marker table is not there.
      expect((await db.query("select count(*)::int as n from pg_tables where tablename = 'planted'")).rows).toEqual([{ n: 0 }]);
    } finally {
      await db.close();
    }
    await expect(initialisedCluster(root)).rejects.toThrow('is not a cluster this user initialised');
  }

  it('a world-writable template directory', async () => {
    await opensWithoutTemplate((template) => {
      mkdirSync(template);
      writeFileSync(path.join(template, 'PG_VERSION'), '17\n');
      chmodSync(template, 0o777);
    });
  }, 120_000);

  it('a template that is a link to somewhere else', async () => {
    await opensWithoutTemplate((template) => {
      const elsewhere = path.join(path.dirname(template), 'elsewhere');
      mkdirSync(elsewhere, { mode: 0o700 });
      writeFileSync(path.join(elsewhere, 'PG_VERSION'), '17\n');
      symlinkSync(elsewhere, template);
    });
  }, 120_000);
});

/** The template's name for `uid`, with the PGlite version read off the one the first suite built. */
function templateName(uid: number): string {
  const match = /^tongate-pglite-(.+)-\d+$/.exec(readdirSync(path.join(work, 'templates'))[0] ?? '');
  if (!match) throw new Error('the first suite builds the template whose name this one reuses');
  return `tongate-pglite-${match[1]}-${uid}`;
}
