import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { openPglite } from './pglite-cluster.js';
import { PGliteDialect } from './pglite-dialect.js';
import { chainMigrationProvider } from './chain-migrations.js';
import { CopyingClient } from './copy.js';
import type { ChainDatabase } from './chain-schema.js';
import type { DomainMigrations } from './chain-migrations.js';
import { migrationProvider } from './migrations.js';
import type { Database, NetworkName } from './schema.js';
import { KeyRepository } from './keys.js';

export interface StoreOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite in `dataDir` is used. */
  databaseUrl?: string;
  /** Directory for the embedded database (PGlite keeps its files in `<dataDir>/pglite`). */
  dataDir?: string;
  /** PostgreSQL only: schema to work in (created if missing); lets parallel test runs share one database. */
  schema?: string;
  /**
   * PostgreSQL only: statement timeout of the API's reads of chain data (chainReader), so that no query — a huge
   * offset, a filter without an index — holds a connection and the database for long. Default 5000 ms.
   */
  readTimeoutMs?: number;
  /**
   * Migrations of chain tables declared above the store, applied with its own in each network's schema: the index
   * domains of `@tongate/read-model` (`openIndexStore` passes them). A store opened without them lacks those tables.
   */
  chainMigrations?: readonly DomainMigrations[];
}

export interface Store {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Kysely<Database>;
  readonly keys: KeyRepository;
  /** Applies all pending migrations (the chain tables of both networks included); throws on the first failure. */
  migrate(): Promise<void>;
  /** A network's indexed chain data: the same connection pool, pinned to that network's schema. */
  chain(network: NetworkName): Kysely<ChainDatabase>;
  /**
   * A network's chain data for the API's reads: on PostgreSQL its own small pool whose statements end after
   * `readTimeoutMs` (error code 57014, see isQueryTimeout); on PGlite the same as chain().
   */
  chainReader(network: NetworkName): Kysely<ChainDatabase>;
  /** The statement timeout of chainReader's queries (PostgreSQL), for error messages. */
  readonly readTimeoutMs: number;
  /** Name of the schema that holds a network's chain tables. */
  chainSchema(network: NetworkName): string;
  /**
   * Takes the single-writer lock of a network's chain tables: PostgreSQL session advisory lock on a dedicated
   * connection, held until release (or until the process dies). Null when another process holds it.
   * PGlite is a single process's database, so there the lock is always granted.
   */
  tryLockChainWriter(network: NetworkName): Promise<{ release(): Promise<void> } | null>;
  close(): Promise<void>;
}

const NETWORK_NAMES: readonly NetworkName[] = ['mainnet', 'testnet'];

/** Chain schemas sit beside the store's schema: `mainnet` and `testnet`, or `<schema>_mainnet` for a named schema. */
function chainSchemaName(network: NetworkName, baseSchema: string | undefined): string {
  return baseSchema ? `${baseSchema}_${network}` : network;
}

/** Advisory lock keys of the chain writers, one per network ('idxm', 'idxt'). */
const CHAIN_WRITER_LOCK_IDS: Record<NetworkName, number> = { mainnet: 0x6964786d, testnet: 0x69647874 };

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
      // Runs copyRows statements as COPY … FROM STDIN (the indexer's bulk writes), every other query as usual.
      Client: CopyingClient,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    kind = 'pglite';
    const dir = path.resolve(options.dataDir ?? './data', 'pglite');
    // int8 as text, as node-postgres returns it: lts and shards exceed 2^53.
    const pglite = await openPglite(dir, { parsers: { 20: (text: string) => text } });
    db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  }
  const chainDbs = new Map<NetworkName, Kysely<ChainDatabase>>();
  const chainOf = (network: NetworkName) => {
    let chainDb = chainDbs.get(network);
    if (!chainDb) chainDbs.set(network, (chainDb = (db as unknown as Kysely<ChainDatabase>).withSchema(chainSchema(network))));
    return chainDb;
  };
  const readTimeoutMs = options.readTimeoutMs ?? 5_000;
  let readerDb: Kysely<ChainDatabase> | undefined;
  const readers = new Map<NetworkName, Kysely<ChainDatabase>>();
  const chainSchema = (network: NetworkName) => chainSchemaName(network, options.schema);
  return {
    kind,
    db,
    keys: new KeyRepository(db),
    chainSchema,
    chain: chainOf,
    readTimeoutMs,
    chainReader(network) {
      if (kind === 'pglite' || !options.databaseUrl) return chainOf(network);
      readerDb ??= new Kysely<ChainDatabase>({
        dialect: new PostgresDialect({
          pool: new pg.Pool({
            connectionString: options.databaseUrl,
            max: 5,
            options: `-c statement_timeout=${readTimeoutMs}${options.schema ? ` -c search_path=${options.schema}` : ''}`,
          }),
        }),
      });
      let reader = readers.get(network);
      if (!reader) readers.set(network, (reader = readerDb.withSchema(chainSchema(network))));
      return reader;
    },
    async tryLockChainWriter(network) {
      if (kind === 'pglite' || !options.databaseUrl) return { release: async () => {} };
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1, $2) as locked', [
        CHAIN_WRITER_LOCK_IDS[network],
        schemaLockKey(options.schema),
      ]);
      if (!rows[0]?.locked) {
        await client.end();
        return null;
      }
      // Ending the session releases the lock; so does the death of the process.
      return { release: () => client.end() };
    },
    async migrate() {
      // Name the schema of Kysely's own migration tables: unnamed, the Migrator looks for them in every schema
      // and is fooled by another schema's copy (parallel test runs, several deployments in one database).
      const migrationTableSchema = options.schema ?? 'public';
      const migrateOne = async (migrator: Migrator) => {
        const { error, results } = await migrator.migrateToLatest();
        if (error) {
          const failed = results?.find((r) => r.status === 'Error');
          throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${(error as Error).message ?? error}`, { cause: error });
        }
      };
      const run = async (target: Kysely<Database>) => {
        await migrateOne(new Migrator({ db: target, provider: migrationProvider, migrationTableSchema }));
        // Each network's chain tables live in their own schema, with their own migration history.
        for (const network of NETWORK_NAMES) {
          const schema = chainSchema(network);
          await sql.raw(`create schema if not exists "${schema}"`).execute(target);
          await migrateOne(
            new Migrator({
              db: target,
              provider: chainMigrationProvider(schema, options.chainMigrations),
              migrationTableSchema: schema,
              allowUnorderedMigrations: true,
            }),
          );
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
      await readerDb?.destroy();
      await db.destroy();
    },
  };
}

/** A second advisory-lock key, so that deployments in different schemas of one database do not exclude each other. */
function schemaLockKey(schema: string | undefined): number {
  let h = 0;
  for (const ch of schema ?? '') h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

/** Drops a schema created for a test run, and its networks' chain schemas (PostgreSQL only). */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Under the migration lock: Kysely's migrator lists the tables of every schema by name, and a schema dropped
    // in the middle of that query fails another run's migration with "schema does not exist".
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    for (const name of [schema, ...NETWORK_NAMES.map((n) => chainSchemaName(n, schema))])
      await client.query(`drop schema if exists "${name}" cascade`);
  } finally {
    await client.end();
  }
}

export { sql };

/** Whether a database error is PostgreSQL's "canceling statement due to statement timeout". */
export function isQueryTimeout(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '57014';
}
