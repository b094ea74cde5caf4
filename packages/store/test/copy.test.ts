/**
 * copyRows: rows go in by COPY … FROM STDIN in the binary format, on PostgreSQL and PGlite alike, inside a Kysely
 * transaction, into the schema the executor names; every value of every type comes back as it was; a value its
 * column cannot take is refused before anything is sent; a copy that fails rolls its transaction back and leaves the
 * connection usable.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { copyRows, sql, type CopyType, type Store } from '../src/index.js';
import { copyBinary } from '../src/copy.js';
import { migratedStore, storeBackends } from './backends.js';

/** Text that a text format would have to escape, and text beyond ASCII. */
const AWKWARD = [
  'tab\there',
  'line\nbreak',
  'carriage\rreturn',
  'back\\slash',
  '\\N',
  'N',
  '',
  ' ',
  '"quoted" {a,b}',
  'é 😀 \u2028',
  '\u0001\u001e\u001f',
];

const TYPED: [string, CopyType][] = [
  ['id', 'int'],
  ['t', 'text'],
  ['s', 'smallint'],
  ['i', 'int'],
  ['b', 'bigint'],
  ['f', 'bool'],
  ['n', 'numeric'],
  ['j', 'jsonb'],
];

describe('copyBinary', () => {
  it('refuses a value its column cannot take, naming the column', () => {
    expect(() => copyBinary([['n', 'numeric']], [['1.5']])).toThrow('column n: 1.5 is not an integer');
    expect(() => copyBinary([['i', 'int']], [['2147483648']])).toThrow('column i: 2147483648 is not an integer in range');
    expect(() => copyBinary([['s', 'smallint']], [[40000]])).toThrow('column s');
    expect(() => copyBinary([['f', 'bool']], [['yes']])).toThrow('column f: yes is not a boolean');
  });

  it('writes the signature, each row as its field count and length-prefixed values, and the trailer', () => {
    const data = copyBinary(
      [
        ['t', 'text'],
        ['i', 'int'],
      ],
      [
        ['é', 7],
        [null, -1],
      ],
    );
    expect(data.subarray(0, 11).toString('latin1')).toBe('PGCOPY\n\xff\r\n\0');
    expect([...data.subarray(19)]).toEqual([
      0, 2, 0, 0, 0, 2, 0xc3, 0xa9, 0, 0, 0, 4, 0, 0, 0, 7, 0, 2, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    ]);
  });
});

describe.each(storeBackends('copy'))('copyRows on $name', (backend) => {
  const suite = migratedStore(backend);
  let store: Store;
  beforeAll(async () => {
    store = suite.store;
    await sql`create table copy_types (id int primary key, t text, s smallint, i int, b bigint, f bool, n numeric, j jsonb)`.execute(
      store.db,
    );
  });

  it('copies rows into the schema of the executor, every text as it was', async () => {
    const db = store.chain('testnet');
    const rows = AWKWARD.map((body, i) => [`awkward-${i}`, body]);
    await db.transaction().execute(async (trx) => {
      await copyRows(
        trx,
        'message_contents',
        [
          ['hash', 'text'],
          ['body', 'text'],
        ],
        rows,
      ).execute(trx);
    });
    const back = await db.selectFrom('message_contents').select(['hash', 'body']).where('hash', 'like', 'awkward-%').execute();
    expect(new Map(back.map((r) => [r.hash, r.body]))).toEqual(new Map(rows.map(([h, b]) => [h, b])));
    // the other network's schema got nothing
    expect(await store.chain('mainnet').selectFrom('message_contents').select('hash').where('hash', 'like', 'awkward-%').execute()).toEqual(
      [],
    );
  });

  it('copies every type: extremes, zeros, negatives, nulls, JSON given as text or as a value', async () => {
    const rows: unknown[][] = [
      [1, 'a', -32768, -2147483648, '-9223372036854775808', true, '0', '{"a":[1,"x\\ty"],"é":null}'],
      [2, 'b', 32767, 2147483647, 9223372036854775807n, false, '10000', { nested: { k: 'v' } }],
      [3, 'c', '7', '8', 9, 'true', '123456789012345678901234567890', '[]'],
      [4, null, null, null, null, null, null, null],
      [5, 'e', 0, 0, 0, 'f', '-900000000000000000000', 'null'],
      [6, 'f', 1, 1, '1', 't', '99990000', '"str"'],
      [7, 'g', 1, 1, 1, true, 1000000, '1.5e3'],
    ];
    await copyRows(store.db, 'copy_types', TYPED, rows).execute(store.db);
    const { rows: back } = await sql<
      Record<string, unknown>
    >`select id, t, s, i, b::text as b, f, n::text as n, j::text as j from copy_types order by id`.execute(store.db);
    expect(back).toEqual([
      { id: 1, t: 'a', s: -32768, i: -2147483648, b: '-9223372036854775808', f: true, n: '0', j: '{"a": [1, "x\\ty"], "é": null}' },
      { id: 2, t: 'b', s: 32767, i: 2147483647, b: '9223372036854775807', f: false, n: '10000', j: '{"nested": {"k": "v"}}' },
      { id: 3, t: 'c', s: 7, i: 8, b: '9', f: true, n: '123456789012345678901234567890', j: '[]' },
      { id: 4, t: null, s: null, i: null, b: null, f: null, n: null, j: null },
      { id: 5, t: 'e', s: 0, i: 0, b: '0', f: false, n: '-900000000000000000000', j: 'null' },
      { id: 6, t: 'f', s: 1, i: 1, b: '1', f: true, n: '99990000', j: '"str"' },
      { id: 7, t: 'g', s: 1, i: 1, b: '1', f: true, n: '1000000', j: '1500' },
    ]);
  });

  it('a failed copy rolls its transaction back and the connection keeps working', async () => {
    const db = store.chain('testnet');
    await db.insertInto('message_contents').values({ hash: 'copy-dup', body: 'first' }).execute();
    const err = await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('message_contents').values({ hash: 'copy-before', body: 'x' }).execute();
        await copyRows(
          trx,
          'message_contents',
          [
            ['hash', 'text'],
            ['body', 'text'],
          ],
          [
            ['copy-new', 'y'],
            ['copy-dup', 'second'],
          ],
        ).execute(trx);
      })
      .catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('23505'); // unique violation
    const left = await db.selectFrom('message_contents').select(['hash', 'body']).where('hash', 'like', 'copy-%').orderBy('hash').execute();
    expect(left).toEqual([{ hash: 'copy-dup', body: 'first' }]);
    // Every pooled connection still answers (a copy left half-done would hang or fail the next query).
    const results = await Promise.all(Array.from({ length: 8 }, () => sql<{ one: number }>`select 1 as one`.execute(db)));
    expect(results.map((r) => r.rows[0]?.one)).toEqual(Array(8).fill(1));
  });

  it('copies a large batch (several megabytes)', async () => {
    const db = store.chain('testnet');
    const body = 'x'.repeat(3000) + '\\"é';
    const rows = Array.from({ length: 2000 }, (_, i) => [`copy-big-${i}`, `${body}${i}`]);
    await copyRows(
      db,
      'message_contents',
      [
        ['hash', 'text'],
        ['body', 'text'],
      ],
      rows,
    ).execute(db);
    const count = await db
      .selectFrom('message_contents')
      .select([sql<number>`count(*)::int`.as('n'), sql<number>`sum(length(body))::int`.as('chars')])
      .where('hash', 'like', 'copy-big-%')
      .executeTakeFirst();
    expect(count).toEqual({ n: 2000, chars: rows.reduce((a, r) => a + r[1]!.length, 0) });
  });
});
