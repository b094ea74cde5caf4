/**
 * The writer sends each column's values as one text parameter joined by a control character (columnParameter):
 * every value comes back as it was, nulls and empty strings included, and values that hold the separator or the
 * null marker, or a lone empty value, take the array-literal path instead. On PGlite, and on PostgreSQL when
 * DATABASE_URL is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropSchema, sql, type Store } from '@tongate/store';
import { openIndexStore } from '@tongate/read-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnParameter } from '../src/writer.js';

const databaseUrl = process.env.DATABASE_URL;
const backends = [
  { name: 'pglite', url: undefined as string | undefined },
  ...(databaseUrl ? [{ name: 'postgres', url: databaseUrl }] : []),
];

describe.each(backends)('column parameters on $name', ({ name, url }) => {
  const schema = `writer_columns_${process.pid}_${name}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'tongate-writer-columns-'));
  let store: Store;
  beforeAll(async () => {
    store = await openIndexStore({ databaseUrl: url, dataDir: dir, schema: url ? schema : undefined });
  });
  afterAll(async () => {
    await store?.close();
    if (url) await dropSchema(url, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  const roundTrip = async (values: (string | null)[], type = 'text') => {
    const { rows } = await sql<{
      v: string | null;
    }>`select v::text as v from unnest(${columnParameter(values, type)}) with ordinality as u(v, n) order by n`.execute(
      store.chain('testnet'),
    );
    return rows.map((r) => r.v);
  };

  it.each([
    ['plain values, nulls and empty strings', ['a', null, '', 'b "quoted" \\ {x,y}', null]],
    ['one null', [null]],
    ['one empty string', ['']],
    ['the separator inside a value', ['a', 'b\u001ec', null]],
    ['the null marker as a value', ['\u001f', 'x']],
    ['JSON text', [JSON.stringify({ a: 'b\nc', d: [1, 2] }), '{}']],
  ])('%s', async (_label, values) => {
    expect(await roundTrip(values as (string | null)[])).toEqual(values);
  });

  it('casts to the column type', async () => {
    expect(await roundTrip(['1', null, '-9223372036854775808'], 'bigint')).toEqual(['1', null, '-9223372036854775808']);
    expect(await roundTrip(['{"b":1,"a":[true]}', null], 'jsonb')).toEqual(['{"a": [true], "b": 1}', null]);
  });
});
