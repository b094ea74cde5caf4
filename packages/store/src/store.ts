import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.js';
import { migrationProvider } from './migrations.js';
import type { Database } from './schema.js';
import { KeyRepository } from './keys.js';

export interface StoreOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite in `dataDir` is used. */
  databaseUrl?: string;
  /** Directory for the embedded database (PGlite keeps its files in `<dataDir>/pglite`). */
  dataDir?: string;
  /** PostgreSQL only: schema to work in (created if missing); lets parallel test runs share one database. */
  schema?: string;
}

export interface Store {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Kysely<Database>;
  readonly keys: KeyRepository;
  /** Applies all pending migrations; throws on the first failure. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** Arbitrary key of the advisory lock that serializes tongate migrations within one database. */
const MIGRATION_LOCK_ID = 0x746f6e67; // 'tong'

export async function openStore(options: StoreOptions): Promise<Store> {
  let db: Kysely<Database>;
  let kind: Store['kind'];
  if (options.databaseUrl) {
    kind = 'postgres';
    const schema = options.schema;
    if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name: ${schema}`);
    if (schema) {
      // Create the schema with a short-lived client, then pin every pooled connection to it via search_path.
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        await client.query(`create schema if not exists "${schema}"`).catch((err: { code?: string }) => {
          // "if not exists" is not atomic: a concurrent creator may win between the check and the insert.
          if (err.code !== '23505' && err.code !== '42P06') throw err;
        });
      } finally {
        await client.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 5,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    kind = 'pglite';
    const dir = path.resolve(options.dataDir ?? './data', 'pglite');
    mkdirSync(dir, { recursive: true });
    const pglite = await PGlite.create(dir);
    db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  }
  return {
    kind,
    db,
    keys: new KeyRepository(db),
    async migrate() {
      // Name the schema of Kysely's own migration tables: unnamed, the Migrator looks for them in every schema
      // and is fooled by another schema's copy (parallel test runs, several deployments in one database).
      const migrationTableSchema = options.schema ?? 'public';
      const run = async (target: Kysely<Database>) => {
        const migrator = new Migrator({ db: target, provider: migrationProvider, migrationTableSchema });
        const { error, results } = await migrator.migrateToLatest();
        if (error) {
          const failed = results?.find((r) => r.status === 'Error');
          throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${(error as Error).message ?? error}`, { cause: error });
        }
      };
      if (kind === 'pglite') return run(db);
      // API processes that start together on one PostgreSQL would race to create the same tables: a session-level
      // advisory lock on one connection lets one migrate while the others wait, then find nothing left to do.
      await db.connection().execute(async (conn) => {
        await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`.execute(conn);
        try {
          await run(conn);
        } finally {
          await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.execute(conn);
        }
      });
    },
    async close() {
      await db.destroy();
    },
  };
}

/** Drops a schema created for a test run (PostgreSQL only). */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

export { sql };
