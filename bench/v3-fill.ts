/**
 * bench:v3, a kept volume (BENCH_V3_SCHEMA): the bench records in `bench_fill` what it generated into the schema
 * (part → rows, with the parameters the rows were generated with), so that a later run tops the volume up or skips
 * the fill and a 10M-transaction database can be re-measured in minutes.
 */
import { sql, type Store } from '@tongate/store';

type ChainDb = ReturnType<Store['chain']>;

/**
 * What the bench filled into a kept volume schema (so that a later run tops up or skips the fill):
 * part → rows, beside the parameters the rows were generated with.
 */
export async function filled(store: Store, part: string): Promise<{ rows: number; params: string } | null> {
  const db = store.chain('testnet');
  const schema = sql.id(store.chainSchema('testnet'));
  await sql`create table if not exists ${schema}.bench_fill (part text primary key, rows bigint not null, params text not null)`.execute(
    db,
  );
  const { rows } = await sql<{ rows: string; params: string }>`select rows, params from ${schema}.bench_fill where part = ${part}`.execute(
    db,
  );
  return rows[0] ? { rows: Number(rows[0].rows), params: rows[0].params } : null;
}

/** Records a fill step; pass the step's own database transaction as `db` so that rows and record commit together. */
export async function recordFilled(
  store: Store,
  part: string,
  rows: number,
  params: string,
  db: ChainDb = store.chain('testnet'),
): Promise<void> {
  const schema = sql.id(store.chainSchema('testnet'));
  await sql`insert into ${schema}.bench_fill (part, rows, params) values (${part}, ${rows}, ${params})
            on conflict (part) do update set rows = excluded.rows, params = excluded.params`.execute(db);
}

/**
 * Drops the secondary (non-primary-key) indexes of `tables` in the volume's chain schema, remembering each definition
 * in bench_dropped_indexes first, so that restoreSecondaryIndexes rebuilds them even after a killed run.
 */
export async function dropSecondaryIndexes(store: Store, tables: string[]): Promise<void> {
  const db = store.chain('testnet');
  const name = store.chainSchema('testnet');
  const schema = sql.id(name);
  await sql`create table if not exists ${schema}.bench_dropped_indexes (name text primary key, definition text not null)`.execute(db);
  const { rows } = await sql<{ indexname: string; indexdef: string }>`
    select i.indexname, i.indexdef from pg_indexes i
    where i.schemaname = ${name} and i.tablename = any(${tables}::text[])
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.contype = 'p')`.execute(db);
  for (const { indexname, indexdef } of rows) {
    await db.transaction().execute(async (trx) => {
      await sql`insert into ${schema}.bench_dropped_indexes (name, definition) values (${indexname}, ${indexdef}) on conflict (name) do nothing`.execute(
        trx,
      );
      await sql`drop index ${schema}.${sql.id(indexname)}`.execute(trx);
    });
  }
}

/** Rebuilds the indexes dropSecondaryIndexes dropped (one sorted build each, with a large maintenance_work_mem). */
export async function restoreSecondaryIndexes(store: Store): Promise<void> {
  const db = store.chain('testnet');
  const schema = sql.id(store.chainSchema('testnet'));
  await sql`create table if not exists ${schema}.bench_dropped_indexes (name text primary key, definition text not null)`.execute(db);
  const { rows } = await sql<{
    name: string;
    definition: string;
  }>`select name, definition from ${schema}.bench_dropped_indexes order by name`.execute(db);
  for (const { name, definition } of rows) {
    const started = performance.now();
    await db.connection().execute(async (conn) => {
      await sql`set maintenance_work_mem = '1GB'`.execute(conn);
      await sql.raw(definition.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS ')).execute(conn);
      await sql`delete from ${schema}.bench_dropped_indexes where name = ${name}`.execute(conn);
      await sql`reset maintenance_work_mem`.execute(conn);
    });
    console.log(
      `[v3 bench ${new Date().toISOString().slice(11, 19)}] rebuilt index ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
}
